//! The server's keys: its own Ed25519 host key (made once, kept private, reused so clients
//! never see a key-change warning) and the public keys of the people allowed in.

use russh::keys::ssh_key::{self, AuthorizedKeys, LineEnding};
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
}

/// The host key at `path`, made there (Ed25519, mode 0600, its folder created) if there is
/// none; the flag says whether it was just made.
pub fn host_key(path: &Path) -> Result<(PrivateKey, bool), KeyError> {
    let io_error = |reason| KeyError::Io {
        path: path.to_path_buf(),
        reason,
    };
    match fs::read_to_string(path) {
        Ok(text) => {
            let key = PrivateKey::from_openssh(text.trim()).map_err(|e| KeyError::Format {
                path: path.to_path_buf(),
                reason: format!("not an OpenSSH private key ({e})"),
            })?;
            if key.algorithm() != Algorithm::Ed25519 {
                return Err(KeyError::Format {
                    path: path.to_path_buf(),
                    reason: format!("a {} key, expected ssh-ed25519", key.algorithm()),
                });
            }
            Ok((key, false))
        }
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
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(dir).map_err(io_error)?;
            }
            let mut file = private_file(path).map_err(io_error)?;
            file.write_all(text.as_bytes()).map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
            Ok((key, true))
        }
        Err(e) => Err(io_error(e)),
    }
}

/// A new file only its owner can read; never replaces one (a race with another server
/// starting makes this fail instead of clobbering its key).
fn private_file(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
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

/// The keys in an `authorized_keys` file. Options before a key (`command=`, `from=`, ...)
/// are ignored: the server only ever runs the arcade.
pub fn authorized_keys(path: &Path) -> Result<Vec<PublicKey>, KeyError> {
    let text = fs::read_to_string(path).map_err(|reason| KeyError::Io {
        path: path.to_path_buf(),
        reason,
    })?;
    AuthorizedKeys::new(&text)
        .map(|entry| entry.map(|entry| entry.public_key().clone()))
        .collect::<Result<Vec<_>, ssh_key::Error>>()
        .map_err(|e| KeyError::Format {
            path: path.to_path_buf(),
            reason: format!("not an authorized_keys file ({e})"),
        })
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

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ai-arcade-keys-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_host_key_is_made_once_private_and_then_reused() {
        let dir = temp_dir("host");
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
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn authorized_keys_match_by_key_not_comment_and_ignore_options() {
        let dir = temp_dir("authorized");
        fs::create_dir_all(&dir).unwrap();
        let alice = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap();
        let mallory = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap();
        let line = alice.public_key().to_openssh().unwrap();
        let path = dir.join("authorized_keys");
        fs::write(
            &path,
            format!("# the class\ncommand=\"x\" {line} alice@laptop\n\n"),
        )
        .unwrap();
        let allowed = authorized_keys(&path).unwrap();
        assert!(is_allowed(alice.public_key(), &allowed));
        assert!(!is_allowed(mallory.public_key(), &allowed));
        fs::write(&path, "ssh-ed25519 garbage\n").unwrap();
        let error = authorized_keys(&path).unwrap_err().to_string();
        assert!(error.contains("authorized_keys"), "{error}");
        let _ = fs::remove_dir_all(&dir);
    }
}
