//! `ai-arcade serve` on the command line: its flags, each over the config's `[serve]` key of
//! the same name, the [`Settings`] resolved from them for the server, and the exit status.
//! The server itself is [`crate::serve`], which knows nothing of the command line.

use super::exit::fail;
use crate::app::room::Setup;
use crate::config::{Config, HumanDuration, LogFormat, Network, ServeConfig, Startups};
use crate::persist::Store;
use crate::serve::class_code::ClassCode;
use crate::serve::clock::Clock;
use crate::serve::named_class;
use crate::serve::proxy::TrustedProxies;
use crate::serve::{self, Settings, keys};
use crate::tabs::Models;
use clap::Args;
use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// How long a class code may stay good: a second (for tests) to 30 days.
pub const CLASS_CODE_EXPIRES_RANGE: RangeInclusive<Duration> =
    Duration::from_secs(1)..=Duration::from_secs(30 * 24 * 3600);

/// `serve`'s flags; each overrides the config key of the same name in `[serve]`. (The doc
/// comments are the `--help` text, shown as written: hence no backticks.)
#[allow(clippy::doc_markdown)]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on for SSH [default: 127.0.0.1:2222].
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<SocketAddr>,
    /// Serve the arcade in a browser too: a page with a terminal, and its WebSocket,
    /// here (e.g. 0.0.0.0:8080). Students type their name (and the class code) in the
    /// page. Without --listen, only the page is served, no SSH. Needs --class-code or
    /// --open: keys log in over SSH only. TLS: put a proxy in front (see deploy/).
    #[arg(long, value_name = "ADDR:PORT")]
    pub web: Option<SocketAddr>,
    /// The Ed25519 host key, made there on first start [default: ssh_host_ed25519_key in
    /// the data dir].
    #[arg(long, value_name = "PATH")]
    pub host_key: Option<PathBuf>,
    /// Public keys allowed in [default: ~/.ssh/authorized_keys of the serving user].
    #[arg(long, value_name = "PATH", conflicts_with = "open")]
    pub authorized_keys: Option<PathBuf>,
    /// Let anyone in, with or without a key.
    #[arg(long)]
    pub open: bool,
    /// Arcades running at once [default: 64].
    #[arg(long, value_name = "N")]
    pub max_sessions: Option<usize>,
    /// Sessions logged in at once under one name (teachers aside) [default: 3].
    #[arg(long, value_name = "N")]
    pub max_sessions_per_name: Option<usize>,
    /// Sessions logged in at once from one address (an IPv6 /64) [default: 48].
    #[arg(long, value_name = "N")]
    pub max_sessions_per_address: Option<usize>,
    /// Close a session after this long without input, e.g. 15m, 90s [default: 30m].
    #[arg(long, value_name = "DURATION")]
    pub idle_timeout: Option<HumanDuration>,
    /// Connections one address may end without logging in per minute after trying to
    /// (refused keys, wrong codes); past it one login at a time. 0: no limit [default: 20].
    #[arg(long, value_name = "N", alias = "max-connections-per-minute")]
    pub max_failures_per_minute: Option<u32>,
    /// Wait before telling a client its login was refused [default: 1s].
    #[arg(long, value_name = "DURATION")]
    pub auth_failure_delay: Option<HumanDuration>,
    /// Connections not logged in yet, all together, as OpenSSH's MaxStartups
    /// (random early drop from start, rate percent, to full) [default: 64:30:128].
    #[arg(long, value_name = "START:RATE:FULL")]
    pub max_startups: Option<Startups>,
    /// Connections not logged in yet from one address at once; more wait [default: 4].
    #[arg(long, value_name = "N")]
    pub per_source_max_startups: Option<u32>,
    /// Time from connecting to being logged in, key exchange included [default: 1m].
    #[arg(long, value_name = "DURATION")]
    pub login_grace_time: Option<HumanDuration>,
    /// A lesson file (TOML) every session runs: its tabs, locked keys and steps, and its
    /// config sections over the config. Given again, or as a folder (its *.toml files in
    /// the order of their names), a course: the class starts on the first lesson and the
    /// teacher moves it on from the room (n, p).
    #[arg(long, value_name = "FILE|FOLDER")]
    pub lesson: Vec<PathBuf>,
    /// Keys (one per line, as in authorized_keys) that log in as the teacher: the session
    /// opens on the room, every student's name, tab, lesson step and idle time.
    #[arg(long, value_name = "FILE")]
    pub teacher_keys: Option<PathBuf>,
    /// The teacher's collect folder: each student's exports (search trees, curves) go
    /// into a subfolder named after them, every graded prediction into its
    /// predictions.csv and one row per student and question into DIR/results.csv.
    /// Nothing else is written.
    #[arg(long, value_name = "DIR")]
    pub collect: Option<PathBuf>,
    /// A class that lives past one sitting: its seats, results and progress are kept in
    /// DATA_DIR/classes/NAME (collect/ there unless --collect), so its students carry on
    /// where they left off next time, with a new --class-code. NAME: 1 to 40 letters,
    /// digits, '-', '_' or '.'.
    #[arg(long, value_name = "NAME")]
    pub class: Option<String>,
    /// Let a class in: any name as the user and this code typed at the prompt
    /// (keyboard-interactive: ssh -o PreferredAuthentications=keyboard-interactive
    /// NAME@HOST). Alone, a code is made from the system's random source and printed
    /// (e.g. K7QF-M2XD-9HRT); given, 6 to 64 printable ASCII characters. Compared ignoring
    /// case, dashes and spaces. Other keys than the teacher's (--teacher-keys) log in too
    /// only with --authorized-keys. Not a config key: a code is for one class.
    #[arg(long, value_name = "CODE", num_args = 0..=1, conflicts_with = "open")]
    pub class_code: Option<Option<String>>,
    /// The class code stops letting anyone in this long after the start, e.g. 2h, 45m
    /// [default: never].
    #[arg(long, value_name = "DURATION", requires = "class_code")]
    pub class_code_expires: Option<HumanDuration>,
    /// Behind a load balancer: the balancers' addresses or networks (comma-separated,
    /// e.g. 10.0.0.0/8,127.0.0.1), which must start each connection with a PROXY protocol
    /// header (v1 or v2) naming the client; limits and the log use the client's address.
    /// Connections from anyone else, or without a header, are closed.
    #[arg(long, value_name = "ADDR[/BITS],...", value_delimiter = ',', num_args = 1..)]
    pub proxy_protocol: Option<Vec<Network>>,
    /// Refuse to start unless --host-key names a key that is there (never make one): every
    /// replica behind a balancer shows the same key.
    #[arg(long)]
    pub host_key_required: bool,
    /// Answer HTTP health checks here: 200 while sessions are taken, 503 while full or
    /// draining after SIGTERM.
    #[arg(long, value_name = "ADDR:PORT")]
    pub health_listen: Option<SocketAddr>,
    /// After SIGTERM, how long players may finish before the server ends their sessions
    /// and exits; new connections are refused at once [default: 30s].
    #[arg(long, value_name = "DURATION")]
    pub drain_grace: Option<HumanDuration>,
    /// The log on stderr: text, or json (one object per line) [default: text].
    #[arg(long, value_name = "FORMAT")]
    pub log_format: Option<LogFormat>,
}

/// The class code the flags ask for, if any: made here, or the one given, checked.
fn class_code(args: &ServeArgs) -> Result<Option<ClassCode>, String> {
    let Some(given) = &args.class_code else {
        return Ok(None);
    };
    let expires = args.class_code_expires.map(|d| d.0);
    if let Some(after) = expires
        && !CLASS_CODE_EXPIRES_RANGE.contains(&after)
    {
        return Err(format!(
            "--class-code-expires {}: give 1s to 30d",
            HumanDuration(after)
        ));
    }
    let code = match given {
        Some(text) => ClassCode::given(text),
        None => ClassCode::generate(),
    }
    .map_err(|error| error.to_string())?;
    Ok(Some(code.expiring(expires)))
}

/// Lays the limits and the rest of the flags given over the config's `[serve]`.
fn lay_limits_over(serve: &mut ServeConfig, args: &ServeArgs) {
    serve.max_sessions = args.max_sessions.unwrap_or(serve.max_sessions);
    serve.max_sessions_per_name =
        (args.max_sessions_per_name).unwrap_or(serve.max_sessions_per_name);
    serve.max_sessions_per_address =
        (args.max_sessions_per_address).unwrap_or(serve.max_sessions_per_address);
    serve.idle_timeout = args.idle_timeout.unwrap_or(serve.idle_timeout);
    serve.max_failures_per_minute = args
        .max_failures_per_minute
        .unwrap_or(serve.max_failures_per_minute);
    serve.auth_failure_delay = args.auth_failure_delay.unwrap_or(serve.auth_failure_delay);
    serve.max_startups = args.max_startups.unwrap_or(serve.max_startups);
    serve.per_source_max_startups = args
        .per_source_max_startups
        .unwrap_or(serve.per_source_max_startups);
    serve.login_grace_time = args.login_grace_time.unwrap_or(serve.login_grace_time);
    if let Some(proxies) = &args.proxy_protocol {
        serve.proxy_protocol.clone_from(proxies);
    }
    serve.host_key_required |= args.host_key_required;
    serve.health_listen = args.health_listen.or(serve.health_listen);
    serve.drain_grace = args.drain_grace.unwrap_or(serve.drain_grace);
    serve.log_format = args.log_format.unwrap_or(serve.log_format);
}

/// The settings `serve` runs with: the config's `[serve]` with the flags over it, checked
/// as the config is (errors name the key), and the data dir for the host key.
pub fn settings(
    config: &mut Config,
    args: &ServeArgs,
    data_dir: Result<PathBuf, String>,
) -> Result<Settings, String> {
    let serve = &mut config.serve;
    serve.listen = args.listen.unwrap_or(serve.listen);
    if args.host_key.is_some() {
        serve.host_key.clone_from(&args.host_key);
    }
    if args.authorized_keys.is_some() {
        serve.authorized_keys.clone_from(&args.authorized_keys);
        serve.open = false;
    }
    let class_code = class_code(args)?;
    if class_code.is_some() {
        // A class code closes a server the config opened, as a key file does.
        serve.open = false;
    }
    if args.open {
        // `--open` wins over the config's key file, as `--authorized-keys` wins over its
        // `open` (the config alone may not set both).
        serve.open = true;
        serve.authorized_keys = None;
    }
    lay_limits_over(serve, args);
    config.validate().map_err(|error| {
        error
            .to_string()
            .replace("merged settings", "the command line")
    })?;
    let serve = &config.serve;
    let class = match &args.class {
        Some(name) => {
            let dir = data_dir.as_ref().map_err(|why| {
                format!("--class {name} keeps its files in the data dir, and there is none ({why}): pass --data-dir")
            })?;
            Some(named_class::folders(dir, name)?)
        }
        None => None,
    };
    let seats = match &class {
        Some(class) => Some(class.seats.clone()),
        None => data_dir.as_ref().ok().map(|dir| dir.join("seats")),
    };
    // A folder named on the command line wins over the class's own.
    let collect = (args.collect.clone()).or_else(|| class.as_ref().map(|c| c.collect.clone()));
    let host_key = match &serve.host_key {
        Some(path) => path.clone(),
        None => data_dir
            .map_err(|why| format!("no place for the host key ({why}); or pass --host-key"))?
            .join(keys::HOST_KEY_FILE),
    };
    let authorized_keys = if serve.open {
        None
    } else if class_code.is_some() && serve.authorized_keys.is_none() {
        // The class code alone: no keys unless a key file is named.
        None
    } else {
        Some(
            serve
                .authorized_keys
                .clone()
                .or_else(keys::default_authorized_keys)
                .ok_or("no home directory for ~/.ssh/authorized_keys: pass --authorized-keys")?,
        )
    };
    if args.web.is_some() && class_code.is_none() && !serve.open {
        return Err("--web lets students in by name with --class-code or --open (keys log in over SSH only)".into());
    }
    Ok(Settings {
        listen: serve.listen,
        ssh: args.web.is_none() || args.listen.is_some(),
        web: args.web,
        host_key,
        authorized_keys,
        class_code,
        max_sessions: serve.max_sessions,
        max_sessions_per_name: serve.max_sessions_per_name,
        max_sessions_per_address: serve.max_sessions_per_address,
        idle_timeout: serve.idle_timeout.0,
        max_failures_per_minute: serve.max_failures_per_minute,
        auth_failure_delay: serve.auth_failure_delay.0,
        max_startups: serve.max_startups,
        per_source_max_startups: serve.per_source_max_startups,
        login_grace_time: serve.login_grace_time.0,
        kex_deadline: crate::serve::KEX_DEADLINE,
        course: Vec::new(),
        teacher_keys: args.teacher_keys.clone(),
        collect,
        seats,
        class,
        clock: Clock::system(),
        proxies: TrustedProxies::new(serve.proxy_protocol.iter().map(|n| n.0).collect()),
        host_key_required: serve.host_key_required,
        health_listen: serve.health_listen,
        drain_grace: serve.drain_grace.0,
        log_format: serve.log_format,
    })
}

/// The `serve` command: resolves the settings, loads the models once, and runs the server
/// until a signal ends it. Bad settings, and a server that cannot start, exit with status 2.
pub fn command(
    mut config: Config,
    args: &ServeArgs,
    data_dir: &Result<PathBuf, String>,
    seed: Option<u64>,
    course: Vec<Setup>,
    reload: serve::Reload,
) -> ExitCode {
    let seed = seed.or(config.seed);
    let mut settings = match settings(&mut config, args, data_dir.clone()) {
        Ok(settings) => settings,
        Err(message) => return fail(message),
    };
    settings.course = course;
    let models = match data_dir {
        Ok(dir) => Models::load(&config, &Store::new(dir)),
        Err(_) => Models::default(),
    };
    for problem in models.problems() {
        eprintln!("ai-arcade: a saved model is not used: {problem}");
    }
    match serve::run(settings, config, models, seed, reload) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::time::Duration;

    #[test]
    fn flags_win_over_the_config() {
        let mut config = Config::default();
        config.serve.open = true;
        let args = ServeArgs {
            listen: Some("127.0.0.1:0".parse().unwrap()),
            web: None,
            host_key: None,
            authorized_keys: Some("/tmp/keys".into()),
            open: false,
            max_sessions: Some(3),
            max_sessions_per_name: None,
            max_sessions_per_address: Some(2),
            idle_timeout: Some("2s".parse().unwrap()),
            max_failures_per_minute: None,
            auth_failure_delay: None,
            max_startups: Some("10:30:100".parse().unwrap()),
            per_source_max_startups: None,
            login_grace_time: None,
            lesson: Vec::new(),
            teacher_keys: None,
            collect: None,
            class: None,
            proxy_protocol: None,
            host_key_required: false,
            health_listen: None,
            drain_grace: None,
            log_format: None,
            class_code: None,
            class_code_expires: None,
        };
        let settings = settings(&mut config, &args, Ok("/data".into())).unwrap();
        assert_eq!(settings.authorized_keys, Some(PathBuf::from("/tmp/keys")));
        assert_eq!(
            settings.host_key,
            Path::new("/data").join(keys::HOST_KEY_FILE)
        );
        assert_eq!(settings.max_sessions, 3);
        assert_eq!(settings.max_sessions_per_address, 2);
        assert_eq!(settings.max_sessions_per_name, 3);
        assert_eq!(settings.idle_timeout, Duration::from_secs(2));
        assert_eq!(settings.max_failures_per_minute, 20);
        assert_eq!(settings.max_startups.to_string(), "10:30:100");
        assert_eq!(settings.per_source_max_startups, 4);
        assert_eq!(settings.login_grace_time, Duration::from_secs(60));

        let args = ServeArgs {
            max_sessions: Some(0),
            ..args
        };
        let error = super::settings(&mut Config::default(), &args, Ok("/d".into())).unwrap_err();
        assert!(
            error.contains("the command line: serve.max_sessions = 0"),
            "{error}"
        );
    }

    fn class_args(code: Option<&str>, expires: Option<&str>) -> ServeArgs {
        ServeArgs {
            listen: None,
            web: None,
            host_key: None,
            authorized_keys: None,
            open: false,
            max_sessions: None,
            max_sessions_per_name: None,
            max_sessions_per_address: None,
            idle_timeout: None,
            max_failures_per_minute: None,
            auth_failure_delay: None,
            max_startups: None,
            per_source_max_startups: None,
            login_grace_time: None,
            lesson: Vec::new(),
            teacher_keys: None,
            collect: None,
            class: None,
            proxy_protocol: None,
            host_key_required: false,
            health_listen: None,
            drain_grace: None,
            log_format: None,
            class_code: Some(code.map(str::to_string)),
            class_code_expires: expires.map(|e| e.parse().unwrap()),
        }
    }

    #[test]
    fn the_web_alone_serves_no_ssh_and_needs_a_code_or_open() {
        let web = Some("127.0.0.1:8080".parse().unwrap());
        let alone = ServeArgs {
            web,
            ..class_args(Some("K7QF-M2XD"), None)
        };
        let settings = settings(&mut Config::default(), &alone, Ok("/d".into())).unwrap();
        assert!(!settings.ssh);
        assert_eq!(settings.web, web);
        let beside = ServeArgs {
            listen: Some("127.0.0.1:2222".parse().unwrap()),
            ..alone
        };
        assert!(settings_of(&beside).ssh);
        let keys_only = ServeArgs {
            class_code: None,
            authorized_keys: Some("/tmp/keys".into()),
            ..beside
        };
        let error = super::settings(&mut Config::default(), &keys_only, Ok("/d".into()));
        assert!(error.unwrap_err().contains("--class-code or --open"));
    }

    fn settings_of(args: &ServeArgs) -> Settings {
        settings(&mut Config::default(), args, Ok("/d".into())).unwrap()
    }

    #[test]
    fn a_class_code_alone_lets_no_key_in_and_closes_an_open_config() {
        let mut config = Config::default();
        config.serve.open = true;
        let args = class_args(None, Some("2h"));
        let settings = settings(&mut config, &args, Ok("/data".into())).unwrap();
        assert_eq!(settings.authorized_keys, None, "not ~/.ssh/authorized_keys");
        assert!(!settings.is_open());
        let code = settings.class_code.unwrap();
        assert!(code.generated());
        assert_eq!(code.shown().len(), 14);
        assert_eq!(code.expires_after(), Some(Duration::from_secs(7200)));

        let both = ServeArgs {
            authorized_keys: Some("/tmp/keys".into()),
            ..class_args(Some("Maths-Club"), None)
        };
        let settings = super::settings(&mut Config::default(), &both, Ok("/d".into())).unwrap();
        assert_eq!(settings.authorized_keys, Some(PathBuf::from("/tmp/keys")));
        let code = settings.class_code.unwrap();
        assert!(!code.generated());
        assert_eq!(code.expires_after(), None);
    }

    #[test]
    fn a_named_class_keeps_its_files_in_its_folder_and_collect_still_wins() {
        let args = ServeArgs {
            class: Some("7b".into()),
            ..class_args(Some("Maths-Club"), None)
        };
        let settings = settings(&mut Config::default(), &args, Ok("/data".into())).unwrap();
        let class = settings.class.unwrap();
        assert_eq!(class.dir, Path::new("/data/classes/7b"));
        assert_eq!(settings.seats.unwrap(), Path::new("/data/classes/7b/seats"));
        assert_eq!(
            settings.collect.unwrap(),
            Path::new("/data/classes/7b/collect")
        );

        let given = ServeArgs {
            collect: Some("/elsewhere".into()),
            ..args
        };
        let settings = super::settings(&mut Config::default(), &given, Ok("/d".into())).unwrap();
        assert_eq!(settings.collect.unwrap(), Path::new("/elsewhere"));
        assert_eq!(settings.seats.unwrap(), Path::new("/d/classes/7b/seats"));

        let no_data = super::settings(&mut Config::default(), &given, Err("no home".into()));
        assert!(
            no_data
                .unwrap_err()
                .contains("--class 7b keeps its files in the data dir")
        );
        let bad = ServeArgs {
            class: Some("../7b".into()),
            ..given
        };
        let error = super::settings(&mut Config::default(), &bad, Ok("/d".into())).unwrap_err();
        assert!(error.contains("'/' is not allowed"), "{error}");
    }

    #[test]
    fn a_weak_class_code_or_expiry_is_refused_saying_why() {
        for (code, expires, why) in [
            (Some("abc"), None, "--class-code: it has 3 characters"),
            (Some("a-b-c-d-e"), None, "only 5 of its characters"),
            (None, Some("0s"), "--class-code-expires 0ms: give 1s to 30d"),
            (
                None,
                Some("31d"),
                "--class-code-expires 31d: give 1s to 30d",
            ),
        ] {
            let args = class_args(code, expires);
            let error = settings(&mut Config::default(), &args, Ok("/d".into())).unwrap_err();
            assert!(error.contains(why), "{code:?} {expires:?}: {error}");
        }
    }
}
