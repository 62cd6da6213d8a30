//! Who may log in, and how: a public key listed in the `authorized_keys` file or among
//! the teacher keys (both read again at each login), or a student's name and the class
//! code typed at a keyboard-interactive prompt; and the login itself, which takes a place
//! among the connections logged in.

use super::connection::{Asked, Connection, Stage};
use super::who::{Login, Via};
use crate::serve::class_code::{self, ClassCode, Verdict};
use crate::serve::keys;
use crate::serve::limits::Slot;
use crate::serve::session_caps::{Counted, Over};
use crate::serve::shared::Shared;
use russh::keys::PublicKey;
use russh::server::Auth;
use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tracing::info;

/// Said above the class code's prompt after a wrong code.
pub const WRONG_CODE: &str = "ai-arcade: that is not the class code; try again.";

/// The prompt after [`take_over_words`].
pub const TAKE_OVER_PROMPT: &str = "y, or Enter: ";

/// What a student is asked when a session is logged in under their name already: each
/// line within 80 columns, as the client prints it. Without `another` (the name holds all
/// the sessions it may), Enter offers nothing.
pub(crate) fn take_over_words(name: &str, another: bool) -> String {
    let otherwise = if another {
        format!("If not, press Enter: you come in as another {name}.")
    } else {
        "If not, log in under another name: this one has all the sessions it may.".to_string()
    };
    format!(
        "ai-arcade: {name} is logged in already.\n\
         If that was you, cut off, type y: your place comes here, the other one ends.\n\
         {otherwise}"
    )
}

/// A login let in: its places among the logged-in connections, held while it lasts.
pub(crate) struct Admitted {
    pub(crate) slot: Slot,
    /// Counted by name and address (not a teacher).
    pub(crate) counted: Option<Counted>,
}

/// Why a login was not let in.
pub(crate) enum NotAdmitted {
    /// Over a cap per name or per address (logged).
    Over(Over),
    /// Every place for a logged-in connection is taken (logged).
    Full,
}

/// Lets `login` from `peer` in if its name and address are under their caps and there is
/// room among the logged-in connections (which those still logging in never use up),
/// whatever carried it: an SSH login or a browser's. A refusal is logged.
pub(crate) fn admit(
    shared: &Arc<Shared>,
    peer: SocketAddr,
    login: &Login,
) -> Result<Admitted, NotAdmitted> {
    let caps = &shared.session_caps;
    let counted = if matches!(login.via, Via::Teacher(_)) {
        // A teacher is never held to the caps.
        None
    } else if login.takes_over {
        // A student taking their own place back: the session it replaces ends.
        Some(caps.admit_anyway(&login.name, peer.ip()))
    } else {
        let settings = &shared.settings;
        let (per_name, per_address) = (
            settings.max_sessions_per_name,
            settings.max_sessions_per_address,
        );
        match caps.admit(&login.name, peer.ip(), per_name, per_address) {
            Ok(counted) => Some(counted),
            Err(over) => {
                shared.log(|| {
                    info!(
                        event = "refused login",
                        addr = %peer,
                        user = login.name.as_str(),
                        "{}",
                        over.log_words()
                    );
                });
                return Err(NotAdmitted::Over(over));
            }
        }
    };
    let Some(slot) = shared.logged_in.take(shared.logged_in_cap()) else {
        shared.refused(|| {
            info!(
                event = "refused login",
                addr = %peer,
                user = login.name.as_str(),
                "server full ({} connections logged in)",
                shared.logged_in_cap()
            );
        });
        return Err(NotAdmitted::Full);
    };
    Ok(Admitted { slot, counted })
}

impl Connection {
    /// Lets `login` in if [`admit`] does; its place among those logging in goes to the
    /// next.
    pub(super) fn log_in(&mut self, login: Login) -> Auth {
        let Admitted { slot, counted } = match admit(&self.shared, self.peer, &login) {
            Ok(admitted) => admitted,
            Err(NotAdmitted::Over(over)) => return self.refuse_over(&login, &over),
            Err(NotAdmitted::Full) => return Auth::reject(),
        };
        self.login_slot = Some(slot);
        self.counted = counted;
        if let Some(pending) = self.pending.take() {
            pending.logged_in();
        }
        self.progress.reach(Stage::LoggedIn);
        self.login = Some(login);
        Auth::Accept
    }

    /// Refuses `login`, over a cap (logged): a student at the code prompt is told why
    /// (once).
    fn refuse_over(&mut self, login: &Login, over: &Over) -> Auth {
        if login.via != Via::ClassCode || self.told {
            return Auth::reject();
        }
        self.tell(&over.words(&login.name))
    }

    /// Tells the client `why` it cannot log in, with no prompt (clients show it once; the
    /// connection is not told, or logged, again).
    fn tell(&mut self, why: &str) -> Auth {
        self.asked = Some(Asked::Told);
        self.told = true;
        Auth::Partial {
            name: Cow::Borrowed(""),
            instructions: Cow::Owned(format!("ai-arcade: {why}")),
            prompts: Cow::Borrowed(&[]),
        }
    }

    /// The client asked to log in: ending without logging in now counts against its
    /// address.
    pub(super) fn tried_to_log_in(&mut self) {
        if let Some(pending) = self.pending.as_mut() {
            pending.tried();
        }
    }

    /// Lets `user` in on an open server, under the name they gave.
    pub(super) fn log_in_open(&mut self, user: &str) -> Auth {
        self.log_in(Login {
            name: user.to_string(),
            via: Via::Open,
            takes_over: false,
        })
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
            // Typed as the user name by mistake, the code would show in the room and the log.
            Ok(_) if code.check(user.as_bytes(), elapsed) == Verdict::Right => {
                self.shared.log(|| {
                    info!(event = "refused name", addr = %self.peer, "the class code as a name");
                });
                "the name is the class code: log in with your own name (NAME@HOST)".to_string()
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
                let instructions = if self.code_refused { WRONG_CODE } else { "" };
                return Auth::Partial {
                    name: Cow::Borrowed(""),
                    instructions: Cow::Borrowed(instructions),
                    prompts: Cow::Owned(vec![(Cow::Borrowed(class_code::PROMPT), false)]),
                };
            }
        };
        self.tell(&why)
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
                if self.shared.room.present(name) {
                    // A student whose network dropped comes back before the server
                    // noticed: asked, they take their place back instead of a new one.
                    self.asked = Some(Asked::TakeOver);
                    let another = self.shared.session_caps.under_name(name)
                        < self.shared.settings.max_sessions_per_name;
                    return Auth::Partial {
                        name: Cow::Borrowed(""),
                        instructions: Cow::Owned(take_over_words(name, another)),
                        prompts: Cow::Owned(vec![(Cow::Borrowed(TAKE_OVER_PROMPT), true)]),
                    };
                }
                self.student_logs_in(user, false)
            }
            Verdict::Wrong => {
                self.shared.log(|| {
                    info!(event = "refused class code", addr = %self.peer, user);
                });
                self.code_refused = true;
                Auth::reject()
            }
            // Expired while it was typed: the next try is told so.
            Verdict::Expired => {
                self.log_expired(user);
                Auth::reject()
            }
        }
    }

    /// Logs a student in by name, the code checked: in their own seat, or, when
    /// `takes_over`, in the seat of the session logged in under that name (it ends).
    pub(super) fn student_logs_in(&mut self, user: &str, takes_over: bool) -> Auth {
        let Ok(name) = class_code::student_name(user) else {
            return Auth::reject();
        };
        let login = Login {
            name: name.to_string(),
            via: Via::ClassCode,
            takes_over,
        };
        let auth = self.log_in(login);
        if auth == Auth::Accept {
            self.shared.log(|| {
                if takes_over {
                    info!(
                        event = "login",
                        addr = %self.peer,
                        user = name,
                        via = %"class-code",
                        "taking over the session logged in under this name"
                    );
                } else {
                    info!(event = "login", addr = %self.peer, user = name, via = %"class-code");
                }
            });
        }
        auth
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_take_over_question_fits_80_columns_for_the_longest_name() {
        let name = "x".repeat(class_code::MAX_NAME_CHARS);
        for another in [true, false] {
            for line in take_over_words(&name, another).lines() {
                assert!(line.chars().count() <= 80, "{line:?}");
            }
        }
    }
}
