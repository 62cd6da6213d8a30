//! The server's keys: its own Ed25519 host key (made once, kept private, reused so clients
//! never see a key-change warning) and the public keys of the people allowed in.

use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, HashAlg, PrivateKey, PublicKey};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The host key's file name in the data dir.
pub const HOST_KEY_FILE: &str = "ssh_host_ed25519_key";

/// Why a key file could not be used; the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// Reading or writing failed.
    #[error("{}: {reason}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        reason: io::Error,
    },
    /// The file is not a key of the expected kind.
    #[error("{}: {reason}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The host key file is there but damaged; it is left as it is, never replaced, as it
    /// may be the key clients know.
    #[error(
        "{}: {reason}; the file is left as it is. Restore the key from a backup, or move it \
         aside so that a new one is made at the next start (clients will then warn that the \
         host key changed): mv {} {}.broken",
        path.display(),
        path.display(),
        path.display()
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

/// The host key at `path`, made there (Ed25519, mode 0600, its folder created) if there is
/// none; the flag says whether it was just made. A file that is there but not a key is
/// reported ([`KeyError::Damaged`]) and left untouched.
pub fn host_key(path: &Path) -> Result<(PrivateKey, bool), KeyError> {
    read_host_key(path, true)
}

/// The host key at `path`, which must be there: a replica behind a balancer shows the key
/// every other one does (a mounted secret), and never makes or writes one.
pub fn required_host_key(path: &Path) -> Result<PrivateKey, KeyError> {
    read_host_key(path, false).map(|(key, _)| key)
}

fn read_host_key(path: &Path, make: bool) -> Result<(PrivateKey, bool), KeyError> {
    let io_error = |reason| KeyError::Io {
        path: path.to_path_buf(),
        reason,
    };
    let damaged = |reason: String| KeyError::Damaged {
        path: path.to_path_buf(),
        reason,
    };
    match fs::read(path) {
        Ok(bytes) => {
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Err(damaged(format!("empty ({} bytes)", bytes.len())));
            }
            let text = String::from_utf8(bytes)
                .map_err(|_| damaged("not an OpenSSH private key (not text)".into()))?;
            let key = PrivateKey::from_openssh(text.trim())
                .map_err(|e| damaged(format!("not an OpenSSH private key ({e})")))?;
            if key.algorithm() != Algorithm::Ed25519 {
                return Err(damaged(format!(
                    "a {} key, expected ssh-ed25519",
                    key.algorithm()
                )));
            }
            Ok((key, false))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound && !make => Err(KeyError::Format {
            path: path.to_path_buf(),
            reason: "not there, and --host-key-required forbids making one: mount the key \
                     every replica shares there"
                .into(),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).map_err(|e| {
                KeyError::Format {
                    path: path.to_path_buf(),
                    reason: format!("could not make a key: {e}"),
                }
            })?;
            let text = key
                .to_openssh(LineEnding::LF)
                .map_err(|e| KeyError::Format {
                    path: path.to_path_buf(),
                    reason: e.to_string(),
                })?;
            save_new(path, text.as_bytes(), Write::write_all).map_err(io_error)?;
            Ok((key, true))
        }
        Err(e) => Err(io_error(e)),
    }
}

/// Writes `bytes` as a new file at `path` (its folder created) that only its owner can
/// read, all or nothing: into a temporary file in the same folder (written by `fill`),
/// synced, then renamed into place, so a crash or a full disk never leaves a partial file
/// (the temporary one is removed on failure). Never replaces a file that is there (a
/// race with another server starting fails instead of clobbering its key).
fn save_new(
    path: &Path,
    bytes: &[u8],
    fill: impl FnOnce(&mut fs::File, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => {
            fs::create_dir_all(dir)?;
            dir
        }
        None => Path::new("."),
    };
    // tempfile makes it with mode 0600 on Unix.
    let mut temp = tempfile::Builder::new()
        .prefix(".ssh_host_key.")
        .tempfile_in(dir)?;
    fill(temp.as_file_mut(), bytes)?;
    temp.as_file().sync_all()?;
    temp.persist_noclobber(path).map_err(|e| e.error)?;
    // The rename itself lasts once the folder is synced (not every system can).
    if let Ok(folder) = fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// Whether others than the owner may read the key file (a warning at start, as OpenSSH
/// gives). Always false where there are no Unix modes.
pub fn readable_by_others(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// A key's SHA-256 fingerprint as OpenSSH prints it (`SHA256:...`).
pub fn fingerprint(key: &PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// What an `authorized_keys` file grants: one odd line must not lock everyone out (the file
/// is the serving user's own, read at every login), so each line stands alone and the ones
/// not used are kept with why, for the server to log.
#[derive(Debug, Default)]
pub struct AuthorizedKeys {
    /// The keys that may log in.
    pub keys: Vec<PublicKey>,
    /// The lines not used: line number (from 1) and reason.
    pub skipped: Vec<(usize, String)>,
}

impl AuthorizedKeys {
    /// The skipped lines in one log line (the first few, then a count, so a big file cannot
    /// flood the log); `None` when every line was used.
    pub fn skipped_note(&self) -> Option<String> {
        const SHOWN: usize = 5;
        if self.skipped.is_empty() {
            return None;
        }
        let shown: Vec<String> = (self.skipped.iter().take(SHOWN))
            .map(|(line, reason)| format!("line {line}: {reason}"))
            .collect();
        let more = match self.skipped.len().saturating_sub(SHOWN) {
            0 => String::new(),
            more => format!("; and {more} more"),
        };
        Some(format!(
            "skipped {} line(s): {}{more}",
            self.skipped.len(),
            shown.join("; ")
        ))
    }
}

/// Reads an `authorized_keys` file line by line (see [`parse_authorized_keys`]); only a file
/// that cannot be read is an error.
pub fn read_authorized_keys(path: &Path) -> Result<AuthorizedKeys, KeyError> {
    let text = fs::read_to_string(path).map_err(|reason| KeyError::Io {
        path: path.to_path_buf(),
        reason,
    })?;
    Ok(parse_authorized_keys(&text))
}

/// The keys of an `authorized_keys` file, for callers that only check logins. An error
/// when lines were skipped and none is left, saying which and why; an empty file is no
/// error (an empty list).
pub fn authorized_keys(path: &Path) -> Result<Vec<PublicKey>, KeyError> {
    let found = read_authorized_keys(path)?;
    match found.skipped_note() {
        Some(note) if found.keys.is_empty() => Err(KeyError::Format {
            path: path.to_path_buf(),
            reason: format!("no usable key, {note}"),
        }),
        _ => Ok(found.keys),
    }
}

/// Parses `authorized_keys` text as OpenSSH does, line by line: blank lines and `#` comments
/// are passed over, each line is trimmed, and a line that is not a key, or whose options ask
/// for a restriction the server does not enforce, is skipped with its reason.
///
/// The keys themselves are read by `ssh-key` ([`PublicKey::from_openssh`]); the line's
/// layout is read here because `ssh_key::authorized_keys::Entry` (0.7.0-rc.11, the version
/// russh pins) reads less than OpenSSH does: it refuses options followed by a key without a
/// comment (`restrict,pty ssh-ed25519 AAAA…`), fields separated by tabs or by more than one
/// space, and quoted option values holding a space or `\"` (`command="echo hi"`), and it
/// takes an unterminated quote. Using it would lock such users out or change the reasons
/// logged; `openssh_layouts_the_ssh_key_crate_does_not_read_still_work` keeps that true.
pub fn parse_authorized_keys(text: &str) -> AuthorizedKeys {
    let mut found = AuthorizedKeys::default();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok(key) => found.keys.push(key),
            Err(reason) => found.skipped.push((index + 1, reason)),
        }
    }
    found
}

/// Options that restrict a key in ways the server does not enforce: a key carrying one is
/// skipped, as letting it into the arcade would ignore what the admin wrote.
const REFUSED_OPTIONS: [&str; 12] = [
    "from",
    "command",
    "cert-authority",
    "principals",
    "no-pty",
    "permitopen",
    "permitlisten",
    "expiry-time",
    "tunnel",
    "environment",
    "verify-required",
    "touch-required",
];

/// Options the server satisfies anyway: it never forwards ports, the agent or X11, never
/// runs a user rc and does not ask a security key for a touch, so forbidding those changes
/// nothing and permitting them grants nothing.
/// (`restrict` also forbids a terminal; see [`parse_line`].)
const HARMLESS_OPTIONS: [&str; 11] = [
    "restrict",
    "no-port-forwarding",
    "no-agent-forwarding",
    "no-x11-forwarding",
    "no-user-rc",
    "port-forwarding",
    "agent-forwarding",
    "x11-forwarding",
    "user-rc",
    "pty",
    "no-touch-required",
];

/// One trimmed, non-comment line: `[options] keytype base64 [comment]`.
fn parse_line(line: &str) -> Result<PublicKey, String> {
    let first = line.split_whitespace().next().unwrap_or_default();
    let (options, key) = if is_key_type(first) {
        ("", line)
    } else {
        until_unquoted(line, char::is_whitespace)?
    };
    let mut words = key.split_whitespace();
    let (Some(kind), Some(data)) = (words.next(), words.next()) else {
        return Err("not a public key (expected options, a key type and its base64)".into());
    };
    let key = PublicKey::from_openssh(&format!("{kind} {data}"))
        .map_err(|e| format!("not a public key ({e})"))?;
    let mut pty = true;
    let mut rest = options;
    while !rest.is_empty() {
        let (option, after) = until_unquoted(rest, |c| c == ',')?;
        rest = after.strip_prefix(',').unwrap_or(after);
        let (name, value) = option
            .split_once('=')
            .map_or((option, None), |(n, v)| (n, Some(v)));
        let name = name.to_ascii_lowercase();
        if REFUSED_OPTIONS.contains(&name.as_str()) {
            let shown = if value.is_some() {
                format!("{name}=")
            } else {
                name
            };
            return Err(format!(
                "option {shown} is not honoured by ai-arcade serve; key skipped"
            ));
        }
        if !HARMLESS_OPTIONS.contains(&name.as_str()) || value.is_some() {
            return Err(format!("unknown option {option:?}; key skipped"));
        }
        match name.as_str() {
            "restrict" => pty = false,
            "pty" => pty = true,
            _ => {}
        }
    }
    if !pty {
        return Err(
            "option restrict forbids a terminal, which the arcade needs (write restrict,pty \
             to allow it); key skipped"
                .into(),
        );
    }
    Ok(key)
}

/// Whether `word` names a key type (`ssh-ed25519`, ...), so the line has no options.
fn is_key_type(word: &str) -> bool {
    word.parse::<Algorithm>()
        .is_ok_and(|algorithm| !matches!(algorithm, Algorithm::Other(_)))
}

/// Splits `text` at the first character matching `stop` outside double quotes (a `\"`
/// inside quotes does not end them): what comes before, and the rest from that character
/// with leading whitespace dropped.
fn until_unquoted(text: &str, stop: impl Fn(char) -> bool) -> Result<(&str, &str), String> {
    let mut quoted = false;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            c if !quoted && stop(c) => return Ok((&text[..at], text[at..].trim_start())),
            _ => {}
        }
    }
    if quoted {
        Err("unterminated quote in the options".into())
    } else {
        Ok((text, ""))
    }
}

/// Whether `key` is one of `allowed` (comments do not count).
pub fn is_allowed(key: &PublicKey, allowed: &[PublicKey]) -> bool {
    allowed.iter().any(|k| k.key_data() == key.key_data())
}

/// The serving user's `~/.ssh/authorized_keys`, if there is a home.
pub fn default_authorized_keys() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|dirs| dirs.home_dir().join(".ssh").join("authorized_keys"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder path `tag`, not yet made, in a fresh temporary folder that is removed
    /// (whatever the test made in it) when the returned guard is dropped.
    fn temp_dir(tag: &str) -> (tempfile::TempDir, PathBuf) {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join(tag);
        (temp, dir)
    }

    #[test]
    fn a_required_host_key_is_read_as_it_is_and_never_made() {
        let (_temp, dir) = temp_dir("required");
        let path = dir.join(HOST_KEY_FILE);
        let error = required_host_key(&path).unwrap_err().to_string();
        assert!(error.contains("--host-key-required"), "{error}");
        assert!(!path.exists(), "nothing was made");
        let (made, _) = host_key(&path).unwrap();
        let before = fs::read(&path).unwrap();
        let read = required_host_key(&path).unwrap();
        assert_eq!(read.public_key(), made.public_key());
        assert_eq!(
            fs::read(&path).unwrap(),
            before,
            "the file is not rewritten"
        );
    }

    #[test]
    fn the_host_key_is_made_once_private_and_then_reused() {
        let (_temp, dir) = temp_dir("host");
        let path = dir.join("sub").join(HOST_KEY_FILE);
        let (made, created) = host_key(&path).unwrap();
        assert!(created);
        assert!(!readable_by_others(&path));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        let (again, created) = host_key(&path).unwrap();
        assert!(!created);
        assert_eq!(
            fingerprint(made.public_key()),
            fingerprint(again.public_key())
        );
        assert!(fingerprint(made.public_key()).starts_with("SHA256:"));
        fs::write(&path, "not a key").unwrap();
        let error = host_key(&path).unwrap_err().to_string();
        assert!(error.contains(HOST_KEY_FILE), "{error}");
    }

    #[test]
    fn a_damaged_or_empty_key_is_reported_with_the_fix_and_left_untouched() {
        let (_temp, dir) = temp_dir("damaged");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(HOST_KEY_FILE);
        for damaged in [
            &b""[..],
            b"\0\0\0\0",
            b"-----BEGIN OPENSSH PRIVATE KEY-----\nxx",
        ] {
            fs::write(&path, damaged).unwrap();
            let error = host_key(&path).unwrap_err().to_string();
            let shown = path.display().to_string();
            assert!(error.starts_with(&format!("{shown}: ")), "{error}");
            assert!(
                error.contains(&format!("mv {shown} {shown}.broken")),
                "{error}"
            );
            assert!(error.contains("left as it is"), "{error}");
            assert_eq!(fs::read(&path).unwrap(), damaged, "never replaced");
        }
    }

    /// The names in `dir`.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failed_write_leaves_no_partial_key_and_nothing_else() {
        let (_temp, dir) = temp_dir("full");
        let path = dir.join(HOST_KEY_FILE);
        // The disk fills up half way through the key.
        let full = save_new(&path, b"0123456789", |file, bytes| {
            file.write_all(&bytes[..5])?;
            Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "No space left on device",
            ))
        });
        assert_eq!(full.unwrap_err().kind(), io::ErrorKind::StorageFull);
        assert!(names(&dir).is_empty(), "left: {:?}", names(&dir));
        // Someone else's key appeared meanwhile: kept, and no debris.
        fs::write(&path, "theirs").unwrap();
        assert!(save_new(&path, b"mine", Write::write_all).is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "theirs");
        assert_eq!(names(&dir), [HOST_KEY_FILE]);
        // A file where the folder should be: a clear error, nothing made.
        let blocked = dir.join("blocked");
        fs::write(&blocked, "").unwrap();
        let error = host_key(&blocked.join(HOST_KEY_FILE))
            .unwrap_err()
            .to_string();
        assert!(error.contains("blocked"), "{error}");
        assert_eq!(names(&dir), ["blocked", HOST_KEY_FILE]);
    }

    fn new_key() -> PrivateKey {
        PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap()
    }

    fn openssh(key: &PrivateKey) -> String {
        key.public_key().to_openssh().unwrap()
    }

    /// The one line of `options KEY alice@laptop` parsed: the key, or why it was skipped.
    fn one(options: &str) -> Result<PublicKey, String> {
        let key = new_key();
        let found = parse_authorized_keys(&format!("{options} {} alice@laptop\n", openssh(&key)));
        match (found.keys.as_slice(), found.skipped.as_slice()) {
            ([got], []) => {
                assert!(is_allowed(key.public_key(), &found.keys));
                Ok(got.clone())
            }
            ([], [(1, reason)]) => Err(reason.clone()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn authorized_keys_match_by_key_not_comment() {
        let (_temp, dir) = temp_dir("authorized");
        fs::create_dir_all(&dir).unwrap();
        let (alice, mallory) = (new_key(), new_key());
        let path = dir.join("authorized_keys");
        let text = format!("# the class\n\n   {} alice@laptop  \n\t\n", openssh(&alice));
        fs::write(&path, text).unwrap();
        let found = read_authorized_keys(&path).unwrap();
        assert!(found.skipped.is_empty(), "{:?}", found.skipped);
        assert!(found.skipped_note().is_none());
        assert!(is_allowed(alice.public_key(), &found.keys));
        assert!(!is_allowed(mallory.public_key(), &found.keys));
        assert_eq!(authorized_keys(&path).unwrap().len(), 1);
    }

    #[test]
    fn a_malformed_line_is_skipped_and_the_others_still_work() {
        let (alice, bob) = (new_key(), new_key());
        let text = format!(
            "{}\nssh-ed25519 garbage\nnot a key at all\n  # indented comment\n\
             command=\"unterminated {}\n\t{} bob tab\n",
            openssh(&alice),
            openssh(&bob),
            openssh(&bob),
        );
        let found = parse_authorized_keys(&text);
        assert!(is_allowed(alice.public_key(), &found.keys));
        assert!(is_allowed(bob.public_key(), &found.keys));
        assert_eq!(found.keys.len(), 2);
        let lines: Vec<usize> = found.skipped.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [2, 3, 5], "{:?}", found.skipped);
        assert!(found.skipped[0].1.contains("not a public key"));
        assert!(found.skipped[2].1.contains("unterminated quote"));
        let note = found.skipped_note().unwrap();
        assert!(
            note.starts_with("skipped 3 line(s): line 2: not a public key"),
            "{note}"
        );
    }

    #[test]
    fn quoted_options_are_read_whole_and_a_restricting_one_skips_the_key() {
        let reason = one(r#"command="echo hi there""#).unwrap_err();
        assert_eq!(
            reason,
            "option command= is not honoured by ai-arcade serve; key skipped"
        );
        let reason = one(r#"no-agent-forwarding,command="say \"a, b\" now",no-pty"#).unwrap_err();
        assert!(reason.contains("option command= "), "{reason}");
        let reason = one(r#"environment="A=\"x y\"",from="10.0.0.1""#).unwrap_err();
        assert!(reason.contains("option environment= "), "{reason}");
    }

    #[test]
    fn every_restriction_the_server_does_not_enforce_skips_the_key() {
        for options in [
            r#"from="*.example.com""#,
            r#"command="x y""#,
            "cert-authority",
            r#"cert-authority,principals="alice""#,
            "no-pty",
            r#"permitopen="host:22""#,
            r#"permitlisten="8080""#,
            r#"expiry-time="20300101""#,
            r#"tunnel="1""#,
            r#"environment="A=b""#,
            "verify-required",
            "NO-PTY",
        ] {
            let reason = one(options).unwrap_err();
            let name = options
                .split(['=', ','])
                .next()
                .unwrap()
                .to_ascii_lowercase();
            assert!(
                reason.contains(&format!("option {name}")),
                "{options}: {reason}"
            );
            assert!(reason.contains("not honoured"), "{options}: {reason}");
        }
    }

    #[test]
    fn harmless_options_are_accepted_and_unknown_ones_skip_the_key() {
        for options in [
            "no-port-forwarding",
            "no-agent-forwarding,no-X11-forwarding,no-user-rc",
            "restrict,pty",
            "restrict,port-forwarding,pty",
            "no-touch-required",
        ] {
            assert!(one(options).is_ok(), "{options}: {:?}", one(options));
        }
        let reason = one("restrict").unwrap_err();
        assert!(reason.contains("restrict forbids a terminal"), "{reason}");
        assert!(one("pty,restrict").is_err(), "a later restrict wins");
        for options in ["frobnicate", r#"x-custom="a b""#, "no-pty2", "pty=\"1\""] {
            let reason = one(options).unwrap_err();
            assert!(reason.starts_with("unknown option"), "{options}: {reason}");
        }
    }

    #[test]
    fn a_file_with_lines_but_no_usable_key_says_what_was_skipped() {
        let (_temp, dir) = temp_dir("unusable");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("authorized_keys");
        fs::write(&path, format!("cert-authority {}\n", openssh(&new_key()))).unwrap();
        let error = authorized_keys(&path).unwrap_err().to_string();
        assert!(error.contains("authorized_keys: no usable key"), "{error}");
        assert!(
            error.contains("skipped 1 line(s): line 1: option cert-authority"),
            "{error}"
        );
        fs::write(&path, "# nobody yet\n").unwrap();
        assert!(
            authorized_keys(&path).unwrap().is_empty(),
            "empty is no error"
        );
    }

    #[test]
    fn the_skipped_note_stays_one_short_line() {
        let found = parse_authorized_keys(&"junk\n".repeat(100));
        let note = found.skipped_note().unwrap();
        assert!(note.starts_with("skipped 100 line(s): line 1:"), "{note}");
        assert!(note.ends_with("; and 95 more"), "{note}");
        assert!(!note.contains("line 6:"), "{note}");
    }

    #[test]
    fn openssh_layouts_the_ssh_key_crate_does_not_read_still_work() {
        let (alice, bob, carol, dave) = (new_key(), new_key(), new_key(), new_key());
        let data = |key: &PrivateKey| openssh(key).split_once(' ').unwrap().1.to_string();
        let text = format!(
            "restrict,pty {}\nno-agent-forwarding {}\nssh-ed25519\t{}\talice tab\n\
             ssh-ed25519  {}  dave two spaces\n",
            openssh(&alice),
            openssh(&bob),
            data(&carol),
            data(&dave),
        );
        let found = parse_authorized_keys(&text);
        assert!(found.skipped.is_empty(), "{:?}", found.skipped);
        for key in [&alice, &bob, &carol, &dave] {
            assert!(is_allowed(key.public_key(), &found.keys));
        }
    }
}
