//! `[serve]`: `ai-arcade serve`, the arcade over SSH; also the types its command-line flags
//! share with the file (`HumanDuration`, `Startups`).

use std::fmt;
use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

use ipnet::IpNet;
use serde::{Deserialize, Serialize};

use super::check::{ConfigError, in_range, require};

/// Settings of `ai-arcade serve`; each is also a command-line flag, which wins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServeConfig {
    /// Address and port to listen on; loopback by default, so serving to a network is a
    /// decision the operator writes down.
    pub listen: SocketAddr,
    /// The Ed25519 host key; absent: `ssh_host_ed25519_key` in the data dir, created on the
    /// first start.
    pub host_key: Option<PathBuf>,
    /// The public keys allowed in; absent: the serving user's `~/.ssh/authorized_keys`.
    pub authorized_keys: Option<PathBuf>,
    /// Let anyone in without a key. Off unless asked for: an open server on a network is
    /// open to the whole network.
    pub open: bool,
    /// Arcades running at once; the next client is told the server is full.
    pub max_sessions: usize,
    /// Sessions logged in at once under one name (any case), so one student cannot take
    /// every seat; a teacher's key is never held to it, nor a student taking their own
    /// place back.
    pub max_sessions_per_name: usize,
    /// Sessions logged in at once from one address (an IPv6 /64): room for a class behind
    /// one NAT address, and some left for others.
    pub max_sessions_per_address: usize,
    /// A session with no key and no change on its screen for this long is closed, so
    /// forgotten sessions free their slot (a student's place is kept for their return).
    pub idle_timeout: HumanDuration,
    /// Connections one address may end, after trying to log in, without logging in per
    /// minute (refused keys, wrong codes, stalled logins; 0: no limit); past it the address
    /// gets one login at a time until one from it succeeds. Only what costs the server
    /// counts: a class behind one address logs in freely, and connections that never tried
    /// (closed at the host key question) count only against ten times as many.
    /// (`max_connections_per_minute`, its old name, is still read.)
    #[serde(alias = "max_connections_per_minute")]
    pub max_failures_per_minute: u32,
    /// How long a refused login waits before the client hears it, to slow down guessing.
    pub auth_failure_delay: HumanDuration,
    /// Connections not logged in yet, all addresses together: OpenSSH's `MaxStartups`
    /// random early drop, so logging in stays cheap and bounded.
    pub max_startups: Startups,
    /// Connections not logged in yet from one address (an IPv6 /64) at once; more wait
    /// their turn, so one address cannot fill [`ServeConfig::max_startups`].
    pub per_source_max_startups: u32,
    /// Time from connecting to being logged in (key exchange included), as OpenSSH's
    /// `LoginGraceTime`; the key exchange alone gets at most 10 s of it.
    pub login_grace_time: HumanDuration,
    /// The load balancers trusted to send a PROXY protocol header (v1 or v2) with the
    /// client's own address; empty: off. When set, every connection must come from one of
    /// them and start with a header, so the per-address budgets and the log see the
    /// clients, not the balancer.
    pub proxy_protocol: Vec<Network>,
    /// Refuse to start unless `host_key` names a key that is there: a replica behind a
    /// balancer must present the key every other replica does, never a new one.
    pub host_key_required: bool,
    /// Where to answer a balancer's HTTP health check: 200 while sessions are taken, 503
    /// while full or draining. Absent: no health port.
    pub health_listen: Option<SocketAddr>,
    /// After SIGTERM, how long players may finish before their sessions end with "the
    /// server is restarting". New connections are refused at once.
    pub drain_grace: HumanDuration,
    /// The log on stderr: `text` (a line people read) or `json` (one object per line).
    pub log_format: LogFormat,
}

/// An address or a network, written `10.0.0.5` (one address) or `10.0.0.0/8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Network(pub IpNet);

impl std::str::FromStr for Network {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        text.parse::<IpNet>()
            .or_else(|_| text.parse::<std::net::IpAddr>().map(IpNet::from))
            .map(Self)
            .map_err(|_| {
                format!("{text:?} is not an address or a network: write 10.0.0.5 or 10.0.0.0/8")
            })
    }
}

impl TryFrom<String> for Network {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<Network> for String {
    fn from(network: Network) -> Self {
        network.0.to_string()
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// `2026-11-26T12:00:00Z session start: addr=… user="ada"`.
    #[default]
    Text,
    /// `{"time":"…","event":"session start","addr":"…","user":"ada","message":"…"}`.
    Json,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 2222)),
            host_key: None,
            authorized_keys: None,
            open: false,
            max_sessions: 64,
            max_sessions_per_name: 3,
            max_sessions_per_address: 48,
            idle_timeout: HumanDuration(Duration::from_secs(30 * 60)),
            max_failures_per_minute: 20,
            auth_failure_delay: HumanDuration(Duration::from_secs(1)),
            max_startups: Startups {
                start: 64,
                rate: 30,
                full: 128,
            },
            per_source_max_startups: 4,
            login_grace_time: HumanDuration(Duration::from_secs(60)),
            proxy_protocol: Vec::new(),
            host_key_required: false,
            health_listen: None,
            drain_grace: HumanDuration(Duration::from_secs(30)),
            log_format: LogFormat::Text,
        }
    }
}

impl ServeConfig {
    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        in_range("serve.max_sessions", self.max_sessions, &MAX_SESSIONS_RANGE)?;
        in_range(
            "serve.max_sessions_per_name",
            self.max_sessions_per_name,
            &MAX_SESSIONS_RANGE,
        )?;
        in_range(
            "serve.max_sessions_per_address",
            self.max_sessions_per_address,
            &MAX_SESSIONS_RANGE,
        )?;
        require(
            "serve.idle_timeout",
            IDLE_TIMEOUT_RANGE.contains(&self.idle_timeout.0),
            "1s..=7d",
            self.idle_timeout,
        )?;
        require(
            "serve.auth_failure_delay",
            AUTH_DELAY_RANGE.contains(&self.auth_failure_delay.0),
            "0s..=10s",
            self.auth_failure_delay,
        )?;
        let startups = self.max_startups;
        require(
            "serve.max_startups",
            STARTUPS_RANGE.contains(&startups.start)
                && STARTUPS_RANGE.contains(&startups.full)
                && startups.start <= startups.full
                && startups.rate <= 100,
            "start:rate:full with 1 <= start <= full <= 10000 and rate 0..=100",
            startups,
        )?;
        in_range(
            "serve.per_source_max_startups",
            self.per_source_max_startups,
            &STARTUPS_RANGE,
        )?;
        require(
            "serve.login_grace_time",
            LOGIN_GRACE_RANGE.contains(&self.login_grace_time.0),
            "1s..=10m",
            self.login_grace_time,
        )?;
        require(
            "serve.proxy_protocol",
            self.proxy_protocol.len() <= MAX_TRUSTED_PROXIES,
            "at most 64 addresses or networks",
            self.proxy_protocol.len(),
        )?;
        require(
            "serve.drain_grace",
            DRAIN_GRACE_RANGE.contains(&self.drain_grace.0),
            "0s..=1h",
            self.drain_grace,
        )?;
        require(
            "serve.host_key_required",
            !(self.host_key_required && self.host_key.is_none()),
            "only with serve.host_key (the key every replica shares)",
            "true",
        )?;
        require(
            "serve.open",
            !(self.open && self.authorized_keys.is_some()),
            "only without serve.authorized_keys (an open server would ignore the key file; \
             remove one of the two)",
            "true",
        )
    }
}

/// Allowed session counts.
pub const MAX_SESSIONS_RANGE: RangeInclusive<usize> = 1..=10_000;
/// Allowed idle timeouts: at least a second, at most a week.
pub const IDLE_TIMEOUT_RANGE: RangeInclusive<Duration> =
    Duration::from_secs(1)..=Duration::from_secs(7 * 24 * 3600);
/// Allowed delays after a refused login.
pub const AUTH_DELAY_RANGE: RangeInclusive<Duration> = Duration::ZERO..=Duration::from_secs(10);
/// Allowed counts of connections not logged in yet (`max_startups`' numbers, and the
/// per-address cap).
pub const STARTUPS_RANGE: RangeInclusive<u32> = 1..=10_000;
/// Allowed login grace times.
pub const LOGIN_GRACE_RANGE: RangeInclusive<Duration> =
    Duration::from_secs(1)..=Duration::from_secs(600);

/// The most trusted proxies listed.
pub const MAX_TRUSTED_PROXIES: usize = 64;
/// Allowed drain grace times after SIGTERM.
pub const DRAIN_GRACE_RANGE: RangeInclusive<Duration> = Duration::ZERO..=Duration::from_secs(3600);

/// OpenSSH's `MaxStartups`, written `start:rate:full` (`10:30:100`) or a single number: with
/// `start` or more connections not logged in yet, a new one is refused with probability
/// `rate`%, rising linearly to 100% at `full`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Startups {
    /// Connections not logged in from which random refusals begin.
    pub start: u32,
    /// The chance of a refusal at `start`, in percent.
    pub rate: u32,
    /// Connections not logged in from which every new one is refused.
    pub full: u32,
}

impl std::str::FromStr for Startups {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("{text:?}: write start:rate:full (e.g. 10:30:100) or one number");
        let numbers: Vec<u32> = text
            .trim()
            .split(':')
            .map(|n| n.trim().parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        match numbers[..] {
            [full] => Ok(Self {
                start: full,
                rate: 100,
                full,
            }),
            [start, rate, full] => Ok(Self { start, rate, full }),
            _ => Err(bad()),
        }
    }
}

impl TryFrom<String> for Startups {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<Startups> for String {
    fn from(startups: Startups) -> Self {
        startups.to_string()
    }
}

impl fmt::Display for Startups {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.start, self.rate, self.full)
    }
}

/// A duration written for people, read by the `humantime` crate: a number and a unit
/// (`15m`, `90s`, `1h`, `250ms`; also `15min`, `1h 30m`, `1.5s`); spelled the same in TOML
/// and on the command line, and printed back in one unit (`90s`, not `1m 30s`) so a value
/// reads back as the user wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct HumanDuration(pub Duration);

impl std::str::FromStr for HumanDuration {
    type Err = String;

    /// The crate's own messages name units this program never shows (`months`, `ns`), so
    /// each kind of error keeps the program's wording.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        humantime::parse_duration(text)
            .map(Self)
            .map_err(|error| match error {
                humantime::DurationError::UnknownUnit { unit, .. } => {
                    format!("{text:?}: unknown unit {unit:?}, use ms, s, m, h or d (e.g. 15m)")
                }
                humantime::DurationError::NumberOverflow => format!("{text:?} is too long"),
                _ => format!(
                    "{text:?} is not a duration: write a whole number and a unit, e.g. 15m, 90s"
                ),
            })
    }
}

impl TryFrom<String> for HumanDuration {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<HumanDuration> for String {
    fn from(duration: HumanDuration) -> Self {
        duration.to_string()
    }
}

impl fmt::Display for HumanDuration {
    /// The largest unit that divides the duration exactly, so `15m` reads back as `15m`
    /// (`humantime`'s own printer would split `90s` into `1m 30s`); zero is `0ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MS: u128 = 1_000_000;
        let ns = self.0.as_nanos();
        if ns == 0 {
            return f.write_str("0ms");
        }
        let units = [
            (86_400_000 * MS, "d"),
            (3_600_000 * MS, "h"),
            (60_000 * MS, "m"),
            (1000 * MS, "s"),
            (MS, "ms"),
            (1000, "us"),
        ];
        match units.iter().find(|(size, _)| ns.is_multiple_of(*size)) {
            Some((size, unit)) => write!(f, "{}{unit}", ns / size),
            None => write!(f, "{ns}ns"),
        }
    }
}
