//! The tab's settings panel, declared once with the `[selfplay]` section's keys and
//! ranges: how the learner plays you. All apply from its next move, and the table of the
//! position on screen is weighed again at once.

use super::game::TabGame;
use super::settings::{C_PUCT_RANGE, LEARNING_RATE_RANGE, PlayMode, SELF_PLAY_C_PUCT_RANGE};
use super::state::SelfPlay;
use crate::domain::learn::selfplay::saved::SIMULATIONS_RANGE;
use crate::domain::learn::selfplay::saved::{BUFFER_RANGE, OPENING_RANGE, WIDTH_RANGE};
use crate::tabkit::message::Message;
use crate::tabkit::settings::{self, Allowed, Change, Declared, Panel, Spec, Steps, Takes, Value};
use std::ops::RangeInclusive;

/// The modes in the config's spelling, in the order ←/→ cycle them (as `n` does).
const MODES: &[&str] = &["search", "network"];

fn c_puct_allowed(c: f64) -> bool {
    C_PUCT_RANGE.contains(&c)
}

fn self_play_c_puct_allowed(c: f64) -> bool {
    SELF_PLAY_C_PUCT_RANGE.contains(&c)
}

fn share_allowed(share: f64) -> bool {
    (0.0..=1.0).contains(&share)
}

fn learning_rate_allowed(rate: f64) -> bool {
    LEARNING_RATE_RANGE.contains(&rate)
}

/// A `u32` range of the config as the panel takes it.
const fn whole(range: &RangeInclusive<u32>, steps: Steps) -> Allowed {
    Allowed::Whole {
        range: RangeInclusive::new(*range.start() as u64, *range.end() as u64),
        steps,
    }
}

/// Every setting of the tab's panel, in the order it lists them.
fn declared<G: TabGame>() -> Vec<Declared<SelfPlay<G>>> {
    play_rows()
        .into_iter()
        .chain(training_rows())
        .chain(network_rows())
        .collect()
}

/// The rows of how the learner plays you: from its next move.
fn play_rows<G: TabGame>() -> [Declared<SelfPlay<G>>; 3] {
    [
        Declared {
            spec: Spec {
                key: "selfplay.mode",
                label: "it plays by",
                allowed: Allowed::OneOf(MODES),
                takes: Takes::NextMove,
            },
            get: |tab| Value::Choice(usize::from(tab.config.mode == PlayMode::Network)),
            set: |tab, value| tab.config.mode = PlayMode::ALL[value.choice() % 2],
        },
        Declared {
            spec: Spec {
                key: "selfplay.simulations",
                label: "simulations",
                allowed: whole(&SIMULATIONS_RANGE, Steps::OneTwoFive),
                takes: Takes::NextMove,
            },
            get: |tab| Value::Whole(u64::from(tab.config.simulations)),
            set: |tab, value| tab.config.simulations = u32::try_from(value.whole()).unwrap_or(50),
        },
        Declared {
            spec: Spec {
                key: "selfplay.c_puct",
                label: "c_puct",
                allowed: Allowed::Number {
                    allowed: c_puct_allowed,
                    words: "0 to 20",
                    floor: 0.1,
                },
                takes: Takes::NextMove,
            },
            get: |tab| Value::Number(tab.config.c_puct),
            set: |tab, value| tab.config.c_puct = value.number(),
        },
    ]
}

/// The rows of its self-play search: they reach the learner at once, resting or training.
fn training_rows<G: TabGame>() -> [Declared<SelfPlay<G>>; 4] {
    [
        Declared {
            spec: Spec {
                key: "selfplay.self_play_simulations",
                label: "train sims",
                allowed: whole(&SIMULATIONS_RANGE, Steps::OneTwoFive),
                takes: Takes::Now,
            },
            get: |tab| Value::Whole(u64::from(tab.training.simulations)),
            set: |tab, value| {
                tab.training.simulations = u32::try_from(value.whole()).unwrap_or(50);
            },
        },
        Declared {
            spec: Spec {
                key: "selfplay.self_play_c_puct",
                label: "train c_puct",
                allowed: Allowed::Number {
                    allowed: self_play_c_puct_allowed,
                    words: "0.01 to 20",
                    floor: 0.1,
                },
                takes: Takes::Now,
            },
            get: |tab| Value::Number(f64::from(tab.training.c_puct)),
            set: |tab, value| tab.training.c_puct = value.number() as f32,
        },
        Declared {
            spec: Spec {
                key: "selfplay.noise",
                label: "train noise ε",
                allowed: Allowed::Number {
                    allowed: share_allowed,
                    words: "0 to 1",
                    floor: 0.01,
                },
                takes: Takes::Now,
            },
            get: |tab| Value::Number(f64::from(tab.training.noise_share)),
            set: |tab, value| tab.training.noise_share = value.number() as f32,
        },
        Declared {
            spec: Spec {
                key: "selfplay.temperature_moves",
                label: "temp. moves",
                allowed: whole(&OPENING_RANGE, Steps::Ones),
                takes: Takes::Now,
            },
            get: |tab| Value::Whole(u64::from(tab.training.temperature_moves)),
            set: |tab, value| {
                tab.training.temperature_moves = u32::try_from(value.whole()).unwrap_or(4);
            },
        },
    ]
}

/// The rows of how its network learns.
fn network_rows<G: TabGame>() -> [Declared<SelfPlay<G>>; 3] {
    [
        Declared {
            spec: Spec {
                key: "selfplay.learning_rate",
                label: "learning rate",
                allowed: Allowed::Number {
                    allowed: learning_rate_allowed,
                    words: "0.000001 to 1",
                    floor: 1e-5,
                },
                takes: Takes::Now,
            },
            get: |tab| Value::Number(f64::from(tab.training.learning_rate)),
            set: |tab, value| tab.training.learning_rate = value.number() as f32,
        },
        Declared {
            spec: Spec {
                key: "selfplay.buffer",
                label: "replay buffer",
                allowed: Allowed::Whole {
                    range: RangeInclusive::new(
                        *BUFFER_RANGE.start() as u64,
                        *BUFFER_RANGE.end() as u64,
                    ),
                    steps: Steps::OneTwoFive,
                },
                takes: Takes::Now,
            },
            get: |tab| Value::Whole(tab.training.buffer as u64),
            set: |tab, value| {
                tab.training.buffer = usize::try_from(value.whole()).unwrap_or(20_000);
            },
        },
        Declared {
            spec: Spec {
                key: "selfplay.width",
                label: "network width",
                allowed: Allowed::Whole {
                    range: RangeInclusive::new(
                        *WIDTH_RANGE.start() as u64,
                        *WIDTH_RANGE.end() as u64,
                    ),
                    steps: Steps::OneTwoFive,
                },
                takes: Takes::OnRetrain,
            },
            get: |tab| Value::Whole(tab.training.widths.first().map_or(0, |&w| w as u64)),
            set: |tab, value| {
                tab.training.widths = vec![usize::try_from(value.whole()).unwrap_or(64); 2];
            },
        },
    ]
}

impl<G: TabGame> SelfPlay<G> {
    /// The panel over the tab's settings as they are in force now.
    pub(crate) fn settings_panel(&self) -> Panel {
        Panel::new(
            format!(
                "Self-play: how it plays you (every game), how the {} learner trains",
                G::TITLE
            ),
            "T",
            settings::read(&declared::<G>(), self),
        )
    }

    /// Puts what the panel changed in force: the training settings reach the learner (its
    /// training thread, if it trains) before its next game, and the position on screen is
    /// weighed again.
    pub(crate) fn apply_settings(&mut self, changes: &[Change]) -> Message {
        let said = settings::apply(
            &declared::<G>(),
            self,
            changes,
            "; T starts a new learner with it",
        );
        self.retune_learner();
        self.run.note(&self.training);
        self.analyse();
        said
    }
}

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::config::Config;
    use crate::tabs::testing::{chars, press, said};
    use crossterm::event::KeyCode;

    /// The training rows change the learner itself: at once while it rests, and through
    /// its training thread while it trains (taken in at the latest when it stops).
    #[test]
    fn the_training_settings_reach_the_learner_resting_or_training() {
        let mut app = App::new(&Config::default(), 3);
        press(&mut app, &[KeyCode::F(6)]);
        // Rows: mode, simulations, c_puct, self-play sims, self-play c_puct, noise,
        // moves by visits, learning rate, buffer.
        press(&mut app, &chars("S"));
        press(&mut app, &[KeyCode::Down; 7]);
        press(&mut app, &chars("0.0005"));
        press(&mut app, &[KeyCode::Down]);
        press(&mut app, &chars("5000\n"));
        assert!(app.overlays.is_empty(), "{}", said(&app));
        let tab = app.tabs.selfplay.tictactoe();
        let settings = tab.resting_settings().unwrap();
        assert!((settings.learning_rate - 5e-4).abs() < 1e-9, "{settings:?}");
        assert_eq!(settings.buffer, 5_000);
        assert_eq!(settings.widths, vec![64, 64], "the network is the same");

        press(&mut app, &chars("t"));
        press(&mut app, &chars("S"));
        press(&mut app, &[KeyCode::Down; 5]);
        press(&mut app, &chars("0.5\n"));
        press(&mut app, &chars("t"));
        let tab = app.tabs.selfplay.tictactoe_mut();
        for _ in 0..500 {
            if tab.resting_settings().is_some() {
                break;
            }
            tab.poll_training();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let settings = tab.resting_settings().expect("the learner is back");
        assert!((settings.noise_share - 0.5).abs() < 1e-6, "{settings:?}");
        assert_eq!(settings.buffer, 5_000);
    }
}
