//! Value checks for `train`'s flags, run by clap while it parses, so a bad value is refused
//! in the flag's own terms (`invalid value '0' for '--games <N>': allowed 1..=10000000`)
//! before anything is loaded or trained. The limits are the config's: one source of truth
//! for a key and the flag that overrides it.

use crate::config;
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A parser for a whole number that must lie in `range` (one of the config's ranges).
pub(super) fn within<T>(
    range: RangeInclusive<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |text| {
        let allowed = || format!("allowed {}..={}", range.start(), range.end());
        let value: T = text
            .trim()
            .parse()
            .map_err(|_| format!("not a whole number; {}", allowed()))?;
        if range.contains(&value) {
            Ok(value)
        } else {
            Err(allowed())
        }
    }
}

/// `--lr`: a learning rate the config would accept.
pub(super) fn learning_rate(text: &str) -> Result<f64, String> {
    let allowed = config::LEARNING_RATE_ALLOWED;
    match text.trim().parse::<f64>() {
        Ok(rate) if config::learning_rate_allowed(rate) => Ok(rate),
        Ok(_) => Err(format!("allowed {allowed}")),
        Err(_) => Err(format!("not a number; allowed {allowed}")),
    }
}

/// `--minutes`: a training time above 0 and at most a day.
pub(super) fn minutes(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(minutes) if minutes > 0.0 && minutes <= 1440.0 => Ok(minutes),
        Ok(_) => Err("allowed above 0 and at most 1440".to_string()),
        Err(_) => Err("not a number; allowed above 0 and at most 1440".to_string()),
    }
}

/// `--piles`: starting piles as the config's `nim.piles` takes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PileList(pub Vec<u8>);

/// Parses `--piles 1,3,5,7` with the limits of the config's `nim.piles`.
pub(super) fn piles(text: &str) -> Result<PileList, String> {
    let (low, high) = (config::NIM_PILE_RANGE.start(), config::NIM_PILE_RANGE.end());
    let sizes = text
        .split(',')
        .map(|part| {
            let part = part.trim();
            part.parse::<u8>()
                .ok()
                .filter(|size| config::NIM_PILE_RANGE.contains(size))
                .ok_or_else(|| format!("'{part}' is not a pile size from {low} to {high}"))
        })
        .collect::<Result<Vec<u8>, String>>()?;
    let (fewest, most) = (
        config::NIM_PILES_RANGE.start(),
        config::NIM_PILES_RANGE.end(),
    );
    if !config::NIM_PILES_RANGE.contains(&sizes.len()) {
        return Err(format!(
            "give {fewest} to {most} piles, not {}",
            sizes.len()
        ));
    }
    if sizes.iter().all(|&size| size == 0) {
        return Err("the piles need at least one object".into());
    }
    Ok(PileList(sizes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_come_from_the_config() {
        let epochs = within(config::EPOCHS_RANGE);
        assert_eq!(epochs("1"), Ok(1));
        assert_eq!(epochs("0"), Err("allowed 1..=1000000".into()));
        assert_eq!(epochs("1000001"), Err("allowed 1..=1000000".into()));
        assert!(epochs("many").unwrap_err().contains("not a whole number"));
        assert!(epochs("-1").is_err());
    }

    #[test]
    fn piles_state_the_real_limit() {
        assert_eq!(piles("1, 3,5,7"), Ok(PileList(vec![1, 3, 5, 7])));
        assert_eq!(
            piles("1,2,x"),
            Err("'x' is not a pile size from 0 to 31".into())
        );
        assert!(piles("32").unwrap_err().contains("0 to 31"));
        assert!(piles("1,2,3,4,5,6,7").unwrap_err().contains("1 to 6 piles"));
        assert!(piles("0,0").unwrap_err().contains("at least one object"));
    }

    /// The help states each range in words; this keeps the words equal to the ranges.
    #[test]
    fn every_range_in_the_help_is_the_config_range() {
        use clap::CommandFactory;
        let cli = super::super::Cli::command();
        let train = cli.find_subcommand("train").expect("train");
        let help = |learner: &str, flag: &str| {
            let command = train.find_subcommand(learner).expect(learner);
            let arg = command
                .get_arguments()
                .find(|a| a.get_long() == Some(flag))
                .unwrap_or_else(|| panic!("{learner} --{flag}"));
            arg.get_help().map(ToString::to_string).unwrap_or_default()
        };
        let words = |start: &dyn Display, end: &dyn Display| format!("{start} to {end}");
        let cases: [(&str, &str, String); 7] = [
            (
                "subtraction",
                "epochs",
                words(config::EPOCHS_RANGE.start(), config::EPOCHS_RANGE.end()),
            ),
            (
                "nim-net",
                "epochs",
                words(config::EPOCHS_RANGE.start(), config::EPOCHS_RANGE.end()),
            ),
            (
                "subtraction",
                "hidden",
                words(config::HIDDEN_RANGE.start(), config::HIDDEN_RANGE.end()),
            ),
            (
                "graph",
                "games",
                words(
                    config::GRAPH_GAMES_RANGE.start(),
                    config::GRAPH_GAMES_RANGE.end(),
                ),
            ),
            (
                "graph",
                "tokens",
                words(
                    config::GRAPH_TOKENS_RANGE.start(),
                    config::GRAPH_TOKENS_RANGE.end(),
                ),
            ),
            (
                "graph",
                "max-take",
                words(
                    config::GRAPH_MAX_TAKE_RANGE.start(),
                    config::GRAPH_MAX_TAKE_RANGE.end(),
                ),
            ),
            (
                "qlearning",
                "games",
                words(
                    config::QLEARNING_GAMES_RANGE.start(),
                    config::QLEARNING_GAMES_RANGE.end(),
                ),
            ),
        ];
        for (learner, flag, range) in cases {
            let text = help(learner, flag);
            assert!(
                text.contains(&range),
                "{learner} --{flag}: {text:?} should say {range}"
            );
        }
        let piles = help("qlearning", "piles");
        assert!(piles.contains(&format!(
            "{} to {} piles of {} to {}",
            config::NIM_PILES_RANGE.start(),
            config::NIM_PILES_RANGE.end(),
            config::NIM_PILE_RANGE.start(),
            config::NIM_PILE_RANGE.end()
        )));
    }

    #[test]
    fn learning_rates_as_the_config_takes_them() {
        assert_eq!(learning_rate("0.5"), Ok(0.5));
        assert!(learning_rate("0").is_err());
        assert!(learning_rate("NaN").is_err());
        assert!(learning_rate("11").is_err());
    }
}
