//! The tab's settings panel, declared once: each setting with the config's key, range or
//! check (the `[subtraction]` section's own), and how it reads and writes the tab. The
//! learning rate changes the run in force at once; the rest are kept for the next retrain
//! (`t`), which builds a network of the new size.

use super::state::SubtractionTab;
use crate::config::{
    EPOCHS_RANGE, HIDDEN_RANGE, LEARNING_RATE_ALLOWED, RecipeChoice, learning_rate_allowed,
};
use crate::domain::learn::limits::BATCH_RANGE;
use crate::domain::learn::subtraction::Recipe;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{self, Allowed, Change, Declared, Panel, Spec, Steps, Takes, Value};

/// The recipes' names, in the order ←/→ cycle them.
const RECIPES: &[&str] = &[RecipeChoice::ALL[0].name(), RecipeChoice::ALL[1].name()];

/// The base recipe of a choice (the loss is what tells them apart).
fn base(choice: RecipeChoice) -> Recipe {
    match choice {
        RecipeChoice::Default => Recipe::DEFAULT,
        RecipeChoice::Original => Recipe::ORIGINAL,
    }
}

/// Every setting of the tab's panel, in the order it lists them.
pub(crate) const SETTINGS: &[Declared<SubtractionTab>] = &[
    Declared {
        spec: Spec {
            key: "subtraction.recipe",
            label: "recipe (loss)",
            allowed: Allowed::OneOf(RECIPES),
            takes: Takes::OnRetrain,
        },
        get: |tab| {
            let index = RecipeChoice::ALL
                .iter()
                .position(|&c| base(c).loss == tab.recipe.loss);
            Value::Choice(index.unwrap_or(0))
        },
        set: |tab, value| {
            let choice = RecipeChoice::ALL[value.choice() % RecipeChoice::ALL.len()];
            tab.recipe.loss = base(choice).loss;
        },
    },
    Declared {
        spec: Spec {
            key: "subtraction.learning_rate",
            label: "learning rate",
            allowed: Allowed::Number {
                allowed: learning_rate_allowed,
                words: LEARNING_RATE_ALLOWED,
                floor: 1e-4,
            },
            takes: Takes::Now,
        },
        get: |tab| Value::Number(tab.trainer.recipe.learning_rate),
        set: |tab, value| tab.set_learning_rate(value.number()),
    },
    Declared {
        spec: Spec {
            key: "subtraction.hidden",
            label: "hidden units",
            allowed: Allowed::count(HIDDEN_RANGE, Steps::Ones),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.recipe.hidden as u64),
        set: |tab, value| tab.recipe.hidden = usize::try_from(value.whole()).unwrap_or(1),
    },
    Declared {
        spec: Spec {
            key: "subtraction.epochs",
            label: "epochs",
            allowed: Allowed::count(EPOCHS_RANGE, Steps::OneTwoFive),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.recipe.epochs as u64),
        set: |tab, value| tab.recipe.epochs = usize::try_from(value.whole()).unwrap_or(1),
    },
    Declared {
        spec: Spec {
            key: "subtraction.batch_size",
            label: "batch size",
            allowed: Allowed::count(BATCH_RANGE, Steps::Doubling),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.recipe.batch_size as u64),
        set: |tab, value| tab.recipe.batch_size = usize::try_from(value.whole()).unwrap_or(1),
    },
    Declared {
        spec: Spec {
            key: "subtraction.seed",
            label: "seed",
            allowed: Allowed::ANY_WHOLE,
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.next_seed),
        set: |tab, value| tab.next_seed = value.whole(),
    },
];

impl SubtractionTab {
    /// The panel over the tab's settings as they are in force now.
    pub(crate) fn settings_panel(&self) -> Panel {
        Panel::new(
            "Subtraction Nim network: settings",
            "t",
            settings::read(SETTINGS, self),
        )
    }

    /// Puts what the panel changed in force (or keeps it for the retrain); what to say.
    pub(crate) fn apply_settings(&mut self, changes: &[Change]) -> Message {
        settings::apply(SETTINGS, self, changes, "; t retrains with them")
    }
}
