//! The tab's settings panel, declared once: the Q-learning agent's and the 3-pile network's
//! settings with the `[qlearning]`, `[nim]` and `[nim_net]` sections' keys, ranges and checks.
//! α and ε reach the Q-table's run in force at once (the next game learns with them), as the
//! network's learning rate reaches its running thread before the next epoch; the piles and
//! the rule start a new game with the Q-table for them, as `m` does; the recipes, game
//! counts, sizes and seed wait for a retrain (`t` the Q-table, `T` the network).

use super::learners::QAgent;
use super::settings::{
    ALPHA_ALLOWED, BATCH_RANGE, EPSILON_ALLOWED, NET_LAYERS_RANGE, QLEARNING_GAMES_RANGE,
    alpha_allowed, epsilon_allowed,
};
use super::state::MultiPileTab;
use crate::config::{
    EPOCHS_RANGE, HIDDEN_RANGE, LEARNING_RATE_ALLOWED, RecipeChoice, learning_rate_allowed,
};
use crate::domain::games::nim::{Piles, Rule};
use crate::tabkit::message::Message;
use crate::tabkit::settings::{self, Allowed, Change, Declared, Panel, Spec, Steps, Takes, Value};

/// The recipes' names, in the order ←/→ cycle them.
const RECIPES: &[&str] = &[RecipeChoice::ALL[0].name(), RecipeChoice::ALL[1].name()];
/// The rules in the config's spelling.
const RULES: &[&str] = &["misere", "normal"];
/// Starting piles the panel offers; "config" is `nim.piles` as the config file set it.
const PILES: &[&str] = &["config", "1 3 5 7", "1 2 3", "3 4 5"];

/// The piles of a [`PILES`] entry (`None` for the config's).
fn preset(index: usize) -> Option<Piles> {
    let sizes: Vec<u8> = PILES
        .get(index)?
        .split(' ')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    Piles::new(&sizes)
}

fn recipe_index(choice: RecipeChoice) -> Value {
    Value::Choice(
        RecipeChoice::ALL
            .iter()
            .position(|&c| c == choice)
            .unwrap_or(0),
    )
}

fn recipe(value: Value) -> RecipeChoice {
    RecipeChoice::ALL[value.choice() % RecipeChoice::ALL.len()]
}

/// A whole-number setting over a config range of `usize`.
const fn count(range: std::ops::RangeInclusive<usize>, steps: Steps) -> Allowed {
    Allowed::count(range, steps)
}

/// Every setting of the tab's panel, in the order it lists them.
pub(crate) const SETTINGS: &[Declared<MultiPileTab>] = &[
    Declared {
        spec: Spec {
            key: "qlearning.recipe",
            label: "Q recipe",
            allowed: Allowed::OneOf(RECIPES),
            takes: Takes::OnRetrain,
        },
        get: |tab| recipe_index(tab.q.settings.recipe),
        set: |tab, value| tab.q.settings.recipe = recipe(value),
    },
    Declared {
        spec: Spec {
            key: "qlearning.alpha",
            label: "Q α",
            allowed: Allowed::Number {
                allowed: alpha_allowed,
                words: ALPHA_ALLOWED,
                floor: 0.01,
            },
            takes: Takes::Now,
        },
        get: |tab| Value::Number(tab.q.settings.alpha),
        set: |tab, value| {
            let epsilon = tab.q.settings.epsilon;
            tab.q.set_rates(value.number(), epsilon);
        },
    },
    Declared {
        spec: Spec {
            key: "qlearning.epsilon",
            label: "Q ε",
            allowed: Allowed::Number {
                allowed: epsilon_allowed,
                words: EPSILON_ALLOWED,
                floor: 0.01,
            },
            takes: Takes::Now,
        },
        get: |tab| Value::Number(tab.q.settings.epsilon),
        set: |tab, value| {
            let alpha = tab.q.settings.alpha;
            tab.q.set_rates(alpha, value.number());
        },
    },
    Declared {
        spec: Spec {
            key: "qlearning.games",
            label: "Q games",
            allowed: count(QLEARNING_GAMES_RANGE, Steps::OneTwoFive),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.q.settings.recipe().1 as u64),
        set: |tab, value| tab.q.settings.games = usize::try_from(value.whole()).ok(),
    },
    Declared {
        spec: Spec {
            key: "nim.piles",
            label: "piles",
            allowed: Allowed::OneOf(PILES),
            takes: Takes::Now,
        },
        get: |tab| {
            let index = (1..PILES.len()).find(|&i| preset(i) == Some(tab.q_start));
            Value::Choice(if tab.q_start == tab.config_piles() {
                0
            } else {
                index.unwrap_or(0)
            })
        },
        set: |tab, value| {
            let piles = preset(value.choice()).unwrap_or_else(|| tab.config_piles());
            tab.switch_q_game(piles, tab.rule);
        },
    },
    Declared {
        spec: Spec {
            key: "nim.rule",
            label: "rule",
            allowed: Allowed::OneOf(RULES),
            takes: Takes::Now,
        },
        get: |tab| Value::Choice(usize::from(tab.rule == Rule::Normal)),
        set: |tab, value| {
            let rule = if value.choice() == 1 {
                Rule::Normal
            } else {
                Rule::Misere
            };
            tab.switch_q_game(tab.q_start, rule);
        },
    },
    Declared {
        spec: Spec {
            key: "nim_net.recipe",
            label: "net loss",
            allowed: Allowed::OneOf(RECIPES),
            takes: Takes::OnRetrain,
        },
        get: |tab| recipe_index(tab.net.settings.recipe),
        // The recipe row sets what the rows do not show, the loss (and the initial weights'
        // range) as the Subtraction panel's does: the rate, sizes and epochs stay as their
        // rows say.
        set: |tab, value| {
            let net = &mut tab.net.settings;
            let shown = net.recipe();
            net.hidden = Some(shown.hidden);
            net.learning_rate = Some(shown.learning_rate);
            net.epochs = Some(shown.epochs);
            net.batch_size = Some(shown.batch_size);
            net.recipe = recipe(value);
        },
    },
    Declared {
        spec: Spec {
            key: "nim_net.learning_rate",
            label: "net rate",
            allowed: Allowed::Number {
                allowed: learning_rate_allowed,
                words: LEARNING_RATE_ALLOWED,
                floor: 1e-4,
            },
            takes: Takes::Now,
        },
        get: |tab| Value::Number(tab.net.trainer.recipe.learning_rate),
        set: |tab, value| tab.net.set_learning_rate(value.number()),
    },
    Declared {
        spec: Spec {
            key: "nim_net.hidden (layers)",
            label: "net layers",
            allowed: count(NET_LAYERS_RANGE, Steps::Ones),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.net.settings.recipe().hidden.len() as u64),
        set: |tab, value| {
            let units = tab
                .net
                .settings
                .recipe()
                .hidden
                .first()
                .copied()
                .unwrap_or(64);
            let layers = usize::try_from(value.whole()).unwrap_or(1);
            tab.net.settings.hidden = Some(vec![units; layers]);
        },
    },
    Declared {
        spec: Spec {
            key: "nim_net.hidden (units)",
            label: "net units",
            allowed: count(HIDDEN_RANGE, Steps::Ones),
            takes: Takes::OnRetrain,
        },
        get: |tab| {
            let hidden = tab.net.settings.recipe().hidden;
            Value::Whole(hidden.first().copied().unwrap_or(1) as u64)
        },
        set: |tab, value| {
            let layers = tab.net.settings.recipe().hidden.len().max(1);
            let units = usize::try_from(value.whole()).unwrap_or(1);
            tab.net.settings.hidden = Some(vec![units; layers]);
        },
    },
    Declared {
        spec: Spec {
            key: "nim_net.epochs",
            label: "net epochs",
            allowed: count(EPOCHS_RANGE, Steps::OneTwoFive),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.net.settings.recipe().epochs as u64),
        set: |tab, value| tab.net.settings.epochs = usize::try_from(value.whole()).ok(),
    },
    Declared {
        spec: Spec {
            key: "nim_net.batch_size",
            label: "net batch",
            allowed: count(BATCH_RANGE, Steps::Doubling),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.net.settings.recipe().batch_size as u64),
        set: |tab, value| tab.net.settings.batch_size = usize::try_from(value.whole()).ok(),
    },
    Declared {
        spec: Spec {
            key: "nim_net.seed",
            label: "net seed",
            allowed: Allowed::ANY_WHOLE,
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.net.next_seed),
        set: |tab, value| tab.net.next_seed = value.whole(),
    },
];

impl MultiPileTab {
    /// The panel over the tab's settings as they are in force now.
    pub(crate) fn settings_panel(&self) -> Panel {
        Panel::new(
            "Multi-pile Nim: Q-learning and network settings",
            "t / T",
            settings::read(SETTINGS, self),
        )
    }

    /// Puts what the panel changed in force (or keeps it for the retrain); what to say.
    pub(crate) fn apply_settings(&mut self, changes: &[Change]) -> Message {
        let said = settings::apply(SETTINGS, self, changes, "; t / T retrain with them");
        // The Q-table's settings outlive a rule or piles switch, which builds a new agent.
        self.keep_q_settings();
        said
    }

    /// Plays `piles` under `rule` against the Q-table for them, from a new game (as `m`
    /// does for the rule); the Q-table keeps the settings in force.
    pub(crate) fn switch_q_game(&mut self, piles: Piles, rule: Rule) {
        if (piles, rule) == (self.q_start, self.rule) {
            return;
        }
        let settings = self.q.settings.clone();
        self.q_start = piles;
        self.rule = rule;
        self.q = QAgent::new(piles, rule, &settings, self.seed(), self.store().cloned());
        self.q.train_if_untrained();
        self.start_new_game();
    }
}
