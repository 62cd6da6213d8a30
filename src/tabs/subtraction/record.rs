//! The record of one network move, for the why overlay: built from the [`MoveTrace`] the
//! move was chosen with (its activations, and the likelihood of every legal take the legal
//! decoder compared), beside the DP's exact answer for every take.

use crate::domain::games::subtraction::max_take;
use crate::domain::learn::subtraction::MoveTrace;
use crate::domain::solve::subtraction::Solution;
use crate::tabkit::why::{Decision, Weighed};
use std::fmt::Write;

/// Whether the record is of a move played or of a pile asked about (nothing played).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Occasion {
    /// The AI played the move in a game.
    Played,
    /// The user asked about the pile with `a`.
    Asked,
}

/// A probability as the table writes it: three decimals, or a power of ten when tiny.
fn probability(log_likelihood: f64) -> String {
    let p = log_likelihood.exp();
    if p >= 0.000_5 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

/// `k` in `width` binary digits, most significant first (as a number is written).
fn binary(k: u32, width: usize) -> String {
    format!("{k:0width$b}")
}

/// Activations as `0.98 0.01 …`, two decimals each.
fn activations(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.2}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The record of the network's move at `trace.n`.
pub(crate) fn decision(trace: &MoveTrace, solution: &Solution, occasion: Occasion) -> Decision {
    let n = trace.n;
    let output_bits = trace.activations.output().len();
    let title = match occasion {
        Occasion::Played => format!("The network at a pile of {n}"),
        Occasion::Asked => format!("The network asked about a pile of {n}"),
    };
    let exact = match solution.winning_move(n) {
        Some(k) => format!("The DP's move: take {k} (the smallest take that wins)"),
        None => format!("The DP: {n} is a losing pile, every take loses"),
    };
    let position = vec![
        format!(
            "{n} blocks; a take is 1-{}; the output bits are k in binary",
            max_take(n)
        ),
        exact,
    ];
    let options = (1u32..)
        .zip(&trace.likelihoods)
        .map(|(k, &l)| Weighed {
            mv: format!("take {k}"),
            numbers: vec![binary(k, output_bits), probability(l)],
            verdict: solution.verdict_of_take(n, k),
            chosen: k == trace.played,
        })
        .collect();
    Decision {
        title,
        position,
        columns: vec!["bits".to_string(), "likelihood".to_string()],
        options,
        how: how(trace, output_bits, occasion),
        origin: origin(trace),
    }
}

/// How the legal decoder chose, and where it overrode the raw outputs.
fn how(trace: &MoveTrace, output_bits: usize, occasion: Occasion) -> String {
    let (n, k) = (trace.n, trace.played);
    let verb = match occasion {
        Occasion::Played => "played",
        Occasion::Asked => "would play",
    };
    let likelihood = probability(trace.likelihoods[k as usize - 1]);
    let mut how = if trace.overridden() {
        let raw = trace.raw;
        let why_not = if raw == 0 {
            "taking nothing".to_string()
        } else {
            format!("not a legal take at {n} (1-{})", max_take(n))
        };
        format!(
            "The outputs read at 0.5 say {raw} ({}), {why_not}: the legal decoder overrode \
             them and {verb} {k} instead, the likeliest legal take (likelihood {likelihood}).",
            binary(raw, output_bits)
        )
    } else {
        format!(
            "The legal decoder {verb} {k}: the likeliest legal take, each output read as the \
             chance its bit is 1 (likelihood {likelihood}); the outputs read at 0.5 say {k} too."
        )
    };
    if trace.threshold != k {
        let legal = if trace.threshold > max_take(n) {
            ", not legal"
        } else {
            ""
        };
        let _ = write!(
            how,
            " The lab's decoder (bits above 0.2) reads {}{legal}.",
            trace.threshold
        );
    }
    how
}

/// The weights of `count` bits, highest first (`64 32 16 8 4 2 1`): the order every bit
/// of the tab is shown in, as a binary number is written.
fn bit_weights(count: usize) -> String {
    (0..count)
        .rev()
        .map(|bit| (1u64 << bit).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `values` (one per bit, bit 0 first, as the network holds them) highest bit first.
fn high_first<T: Copy>(values: &[T]) -> impl Iterator<Item = T> + '_ {
    values.iter().rev().copied()
}

/// The input bits, hidden activations and outputs the move came from, every bit list
/// highest bit first with the bits' weights named.
fn origin(trace: &MoveTrace) -> Vec<String> {
    let layers = &trace.activations.layers;
    let mut lines = Vec::new();
    if let Some(input) = layers.first() {
        let bits: Vec<String> = high_first(input).map(|b| format!("{}", b as u8)).collect();
        lines.push(format!(
            "the input n = {} in bits ({}): {}",
            trace.n,
            bit_weights(input.len()),
            bits.join(" ")
        ));
    }
    for (l, hidden) in layers
        .iter()
        .enumerate()
        .skip(1)
        .take(layers.len().saturating_sub(2))
    {
        let name = if layers.len() > 3 {
            format!("hidden layer {l}")
        } else {
            "hidden".to_string()
        };
        lines.push(format!(
            "{name} h0..h{}: {}",
            hidden.len().saturating_sub(1),
            activations(hidden)
        ));
    }
    let output = trace.activations.output();
    let output: Vec<f64> = high_first(output).collect();
    lines.push(format!(
        "outputs, the chance each bit of the take is 1 ({}): {}",
        bit_weights(output.len()),
        activations(&output)
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::learn::network::Activations;
    use crate::domain::learn::subtraction::{
        legal_decode, legal_likelihoods, raw_decode, threshold_decode,
    };

    /// A move at `n` whose outputs were `output`, as `choose` would trace it.
    fn trace(n: u32, output: &[f64]) -> MoveTrace {
        MoveTrace {
            n,
            activations: Activations {
                layers: vec![vec![0.0, 0.0, 0.0, 1.0], vec![0.5, 0.25], output.to_vec()],
            },
            likelihoods: legal_likelihoods(output, n),
            played: legal_decode(output, n),
            raw: raw_decode(output),
            threshold: threshold_decode(output),
        }
    }

    #[test]
    fn the_record_says_where_the_legal_decoder_overrode_the_raw_outputs() {
        // The outputs say 9 (1001), more than the 4 a pile of 8 allows.
        let record = decision(
            &trace(8, &[0.9, 0.1, 0.1, 0.9]),
            &Solution::new(15),
            Occasion::Played,
        );
        assert!(
            record.how.contains(
                "say 9 (1001), not a legal take at 8 (1-4): the legal decoder overrode \
                 them and played 1 instead"
            ),
            "{}",
            record.how
        );
        assert!(
            record
                .how
                .contains("The lab's decoder (bits above 0.2) reads 9, not legal")
        );
        assert_eq!(record.options.len(), 4);
        assert_eq!(record.chosen(), ["take 1"]);
        assert_eq!(record.options[0].numbers[0], "0001");
        assert_eq!(record.origin[1], "hidden h0..h1: 0.50 0.25");
        // 8 is won: taking 1 leaves 7, a lost pile.
        let verdict = record.options[0].verdict.unwrap().to_string();
        assert_eq!(verdict, "wins in 3 moves");
        // Outputs that say a legal take: no override to tell.
        let plain = decision(
            &trace(8, &[0.9, 0.9, 0.1, 0.1]),
            &Solution::new(15),
            Occasion::Asked,
        );
        assert!(
            plain.how.starts_with("The legal decoder would play 3"),
            "{}",
            plain.how
        );
        assert!(!plain.how.contains("overrode"));
    }

    #[test]
    fn numbers_are_written_so_a_row_reads_at_a_glance() {
        assert_eq!(binary(5, 6), "000101");
        assert_eq!(probability(0.9_f64.ln()), "0.900");
        assert_eq!(probability(1.2e-7_f64.ln()), "1.2e-7");
        assert_eq!(activations(&[0.981, 0.0]), "0.98 0.00");
    }
}
