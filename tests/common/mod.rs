//! What the SSH test files share: a client that remembers the host key it was shown, the
//! settings of a server on an ephemeral loopback port, and a log kept in memory that a test
//! waits on. Each test file uses part of it.
#![allow(dead_code)]

use ai_arcade::serve::{Settings, keys};
use russh::client;
use russh::keys::{PrivateKey, PublicKey};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest any step may take before the test fails (a safety limit, not a measure).
pub const LIMIT: Duration = Duration::from_secs(20);

/// A client that remembers the host key it was shown.
pub struct Client {
    /// The key, once the server showed it.
    pub host_key: Arc<Mutex<Option<PublicKey>>>,
}

impl client::Handler for Client {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        if let russh::keys::PublicKeyOrCertificate::PublicKey { key, .. } = key {
            *self.host_key.lock().unwrap() = Some(key.clone());
        }
        Ok(true)
    }
}

/// A server on an ephemeral loopback port in `dir`: open to anyone without `authorized`,
/// else to those keys (written to `dir/authorized_keys`); 4 sessions, no rate limits.
pub fn settings(dir: &Path, authorized: Option<&[&PrivateKey]>) -> Settings {
    let defaults = ai_arcade::config::ServeConfig::default();
    let authorized_keys = authorized.map(|keys| {
        let path = dir.join("authorized_keys");
        let lines: Vec<String> = keys
            .iter()
            .map(|k| k.public_key().to_openssh().unwrap())
            .collect();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        path
    });
    Settings {
        listen: "127.0.0.1:0".parse().unwrap(),
        host_key: dir.join("data").join(keys::HOST_KEY_FILE),
        authorized_keys,
        class_code: None,
        max_sessions: 4,
        idle_timeout: Duration::from_secs(60),
        max_failures_per_minute: 0,
        auth_failure_delay: Duration::ZERO,
        max_startups: defaults.max_startups,
        per_source_max_startups: defaults.per_source_max_startups,
        login_grace_time: defaults.login_grace_time.0,
        lesson: None,
        teacher_keys: None,
        collect: None,
        proxies: ai_arcade::serve::proxy::TrustedProxies::default(),
        host_key_required: false,
        health_listen: None,
        drain_grace: Duration::ZERO,
        log_format: ai_arcade::config::LogFormat::Text,
    }
}

/// Log lines as they come, from a server in the test or a child's stderr.
pub type Lines = Arc<Mutex<Vec<String>>>;

/// Whether a line has every one of `words`.
pub fn has_line(lines: &Lines, words: &[&str]) -> bool {
    (lines.lock().unwrap().iter()).any(|line| words.iter().all(|w| line.contains(w)))
}

/// Waits for a line with every one of `words`, and returns it.
pub async fn line_with(lines: &Lines, words: &[&str]) -> String {
    let deadline = tokio::time::Instant::now() + LIMIT;
    loop {
        let found = (lines.lock().unwrap().iter())
            .find(|line| words.iter().all(|w| line.contains(w)))
            .cloned();
        if let Some(line) = found {
            return line;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no line with {words:?}:\n{}",
            lines.lock().unwrap().join("\n")
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
