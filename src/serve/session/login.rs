//! Who may log in, and how: a public key listed in the `authorized_keys` file or among
//! the teacher keys (both read again at each login), or a student's name and the class
//! code typed at a keyboard-interactive prompt; and the login itself, which takes a place
//! among the connections logged in.

use super::connection::{Asked, Connection, Stage};
use super::who::{Login, Via};
use crate::serve::class_code::{self, ClassCode, Verdict};
use crate::serve::keys;
use russh::keys::PublicKey;
use russh::server::Auth;
use std::borrow::Cow;
use std::time::Duration;
use tracing::info;

impl Connection {
    /// Lets `login` in if there is room among the logged-in connections (which those still
    /// logging in never use up); its place among those logging in goes to the next.
    pub(super) fn log_in(&mut self, login: Login) -> Auth {
        let Some(slot) = self.shared.logged_in.take(self.shared.logged_in_cap()) else {
            self.shared.refused(|| {
                info!(
                    event = "refused login",
                    addr = %self.peer,
                    user = login.name.as_str(),
                    "server full ({} connections logged in)",
                    self.shared.logged_in_cap()
                );
            });
            return Auth::reject();
        };
        self.login_slot = Some(slot);
        if let Some(pending) = self.pending.take() {
            pending.logged_in();
        }
        self.progress.reach(Stage::LoggedIn);
        self.login = Some(login);
        Auth::Accept
    }

    /// The answer to a keyboard-interactive request: the class code prompt for a good
    /// name while the code holds, else only why not, for the client to show (once).
    pub(super) fn ask_for_code(&mut self, user: &str, code: &ClassCode, elapsed: Duration) -> Auth {
        if self.told {
            return Auth::reject();
        }
        let why = match class_code::student_name(user) {
            Err(why) => {
                self.shared.log(|| {
                    info!(event = "refused name", addr = %self.peer, user, "{why}");
                });
                why.to_string()
            }
            Ok(_) if code.expired(elapsed) => {
                self.log_expired(user);
                format!("{}; ask for a new one", class_code::EXPIRED)
            }
            Ok(_) => {
                // A person types from here on: its handshake place goes to the next.
                if let Some(pending) = self.pending.as_mut() {
                    pending.at_prompt();
                }
                self.asked = Some(Asked::Code);
                return Auth::Partial {
                    name: Cow::Borrowed(""),
                    instructions: Cow::Borrowed(""),
                    prompts: Cow::Owned(vec![(Cow::Borrowed(class_code::PROMPT), false)]),
                };
            }
        };
        self.asked = Some(Asked::Told);
        self.told = true;
        Auth::Partial {
            name: Cow::Borrowed(""),
            instructions: Cow::Owned(format!("ai-arcade: {why}")),
            prompts: Cow::Borrowed(&[]),
        }
    }

    /// Checks the code typed at the prompt: a right one logs the student in; a wrong one
    /// may be typed again (at most six tries a connection, each refusal answered after
    /// the failure delay; a connection that ends without logging in counts against its
    /// address, as one with refused keys does).
    pub(super) fn check_code(
        &mut self,
        user: &str,
        code: &ClassCode,
        answer: &[u8],
        elapsed: Duration,
    ) -> Auth {
        match code.check(answer, elapsed) {
            Verdict::Right => {
                let Ok(name) = class_code::student_name(user) else {
                    // Asked only for a good name; russh answers with the same one.
                    return Auth::reject();
                };
                let login = Login {
                    name: name.to_string(),
                    via: Via::ClassCode,
                };
                let auth = self.log_in(login);
                if auth == Auth::Accept {
                    self.shared.log(|| {
                        info!(
                            event = "login",
                            addr = %self.peer,
                            user = name,
                            via = %"class-code"
                        );
                    });
                }
                auth
            }
            Verdict::Wrong => {
                self.shared.log(|| {
                    info!(event = "refused class code", addr = %self.peer, user);
                });
                Auth::reject()
            }
            // Expired while it was typed: the next try is told so.
            Verdict::Expired => {
                self.log_expired(user);
                Auth::reject()
            }
        }
    }

    fn log_expired(&self, user: &str) {
        self.shared.log(|| {
            info!(
                event = "refused class code",
                addr = %self.peer,
                user,
                "{}",
                class_code::EXPIRED
            );
        });
    }

    /// Whether `key` is one of the teacher keys (read again at each login, as the
    /// `authorized_keys` file is, so a key added during class works at once).
    pub(super) fn teacher_key(&self, key: &PublicKey) -> bool {
        let Some(path) = &self.shared.settings.teacher_keys else {
            return false;
        };
        match keys::read_authorized_keys(path) {
            Ok(found) => keys::is_allowed(key, &found.keys),
            Err(error) => {
                self.shared
                    .log(|| info!(event = "no teacher logins", "{error}"));
                false
            }
        }
    }

    /// Whether `key` may log in: every key on an open server, else those listed in the
    /// `authorized_keys` file, read again each time so a key added is let in without a
    /// restart. With a class code and no key file, no key.
    pub(super) fn key_allowed(&self, key: &PublicKey) -> bool {
        let Some(path) = &self.shared.settings.authorized_keys else {
            return self.shared.settings.is_open();
        };
        match keys::read_authorized_keys(path) {
            Ok(found) if !found.keys.is_empty() => {
                self.shared.note_skipped_keys(path, found.skipped_note());
                keys::is_allowed(key, &found.keys)
            }
            Ok(_) => {
                self.shared.log(|| {
                    info!(
                        event = "refusing logins",
                        file = %path.display(),
                        "the file lists no usable key"
                    );
                });
                false
            }
            Err(error) => {
                self.shared
                    .log(|| info!(event = "refusing logins", "{error}"));
                false
            }
        }
    }
}
