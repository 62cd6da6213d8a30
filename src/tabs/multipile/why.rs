//! The Multi-pile tab's decision records: what each player weighed for a move, built from
//! what the code path that chose the move returned (the Q-learning agent's
//! [`QDecision`], the network's [`NetMove`], the perfect and random players' own choice),
//! with the exact answer for every move beside it.

use crate::domain::games::nim::{NimMove, Piles, Rule};
use crate::domain::learn::network::Activations;
use crate::domain::learn::nim_net::{NetGame, NetMove, PILE_BITS, original_decode};
use crate::domain::learn::qlearning::{QDecision, QHow, QTable, Update};
use crate::domain::solve::nim::Lengths;
use crate::domain::solve::verdict::Verdict;
use crate::tabkit::why::{Decision, Weighed};

/// How a move is written everywhere on the tab: `p2−3` takes 3 from pile 2.
pub(crate) fn mv_text(mv: NimMove) -> String {
    format!("p{}−{}", mv.pile + 1, mv.take)
}

/// Hidden units named in a layer's summary: the strongest few.
const STRONGEST: usize = 5;

/// The position a record is about, in words.
fn position_lines(piles: Piles, rule: Rule) -> Vec<String> {
    let last = match rule {
        Rule::Misere => "loses",
        Rule::Normal => "wins",
    };
    vec![format!(
        "Piles {piles} · {} play: taking the last object {last}",
        rule.name()
    )]
}

/// The Q-learning agent's record: every move's Q-value and update count, how the greedy
/// choice picked, and the update that set the chosen Q-value last.
pub(crate) fn q_record(decision: &QDecision, table: &QTable, alpha: f64) -> Decision {
    let piles = decision.piles;
    let rule = table.rule();
    let lengths = Lengths::new(piles, rule);
    let options = decision
        .options
        .iter()
        .map(|option| Weighed {
            mv: mv_text(option.mv),
            numbers: vec![format!("{:+.3}", option.q), option.updates.to_string()],
            verdict: lengths.verdict(&piles, option.mv),
            chosen: option.mv == decision.chosen,
        })
        .collect();
    let chosen = decision
        .options
        .iter()
        .find(|o| o.mv == decision.chosen)
        .copied();
    let best = chosen.map_or(0.0, |o| o.q);
    let how = match &decision.how {
        QHow::Greedy => format!(
            "greedy: {} has the highest Q-value, {best:+.3}, alone. Against you the agent \
             never explores; it explores (ε) only in self-play.",
            mv_text(decision.chosen)
        ),
        QHow::Tie { among, drawn } => format!(
            "greedy: {} moves share the highest Q-value {best:+.3} ({}); one draw from the \
             game's seeded RNG picked number {} of them, {}.",
            among.len(),
            among
                .iter()
                .map(|&mv| mv_text(mv))
                .collect::<Vec<_>>()
                .join(" "),
            drawn + 1,
            mv_text(decision.chosen)
        ),
    };
    let origin = chosen.map_or_else(Vec::new, |o| {
        q_origin(
            piles,
            o.mv,
            o.q,
            o.updates,
            table.last_update(&piles, o.mv, alpha),
        )
    });
    Decision {
        title: format!("Q-learning AI at {piles}"),
        position: position_lines(piles, rule),
        columns: vec!["Q-value".into(), "updates".into()],
        options,
        how,
        origin,
    }
}

/// Where a Q-value came from: the update that set it last, with its arithmetic written
/// as the Updates view writes it.
fn q_origin(piles: Piles, mv: NimMove, q: f64, updates: u32, last: Option<Update>) -> Vec<String> {
    let name = format!("Q({piles}, {})", mv_text(mv));
    let Some(u) = last else {
        return vec![if updates == 0 {
            format!("{name} = {q:+.3}: never updated, the value every entry starts with")
        } else {
            format!(
                "{name} = {q:+.3} after {updates} updates, learned before its table was saved \
                 by a version that did not keep the arithmetic"
            )
        }];
    };
    vec![
        format!("{name} = {q:+.3} after {updates} update(s); the last, in self-play:"),
        transition_text(&u),
        format!(
            "r {:+}  max Q(s′) {:+.3}  Q {:+.3} → {:+.3}",
            u.reward, u.best_future, u.old, u.new
        ),
        format!(
            "Q ← Q + α·(r + max Q(s′) − Q) = {:+.3} + {}·({:+} {:+.3} − {:+.3}) = {:+.3}",
            u.old, u.alpha, u.reward, u.best_future, u.old, u.new
        ),
    ]
}

/// An update's move and where it led, as the record and the updates view write it: the
/// opponent's reply comes between the move and `s′` (`[1,1,5,5] p2−1, reply → s′
/// [0,0,5,5]`), so the piles do not read as a wrong subtraction.
pub(crate) fn transition_text(u: &Update) -> String {
    let (state, mv) = (u.state, mv_text(u.mv));
    if u.state.after(u.mv).is_over() {
        format!("{state} {mv} → the game ends")
    } else if u.next.is_over() {
        format!("{state} {mv}, reply → the game ends")
    } else {
        format!("{state} {mv}, reply → s′ {}", u.next)
    }
}

/// A move as the network's outputs spell it: the size left in its pile, then the take that
/// leaves it (`leave 1 → take 2`).
pub(crate) fn leave_words(piles: Piles, mv: NimMove) -> String {
    let size = piles.sizes()[usize::from(mv.pile)];
    format!("leave {} → take {}", size - mv.take, mv.take)
}

/// A pile size's bits, most significant first, as the network reads them.
fn bits_text(value: u8) -> String {
    format!("{value:0PILE_BITS$b}")
}

/// The network's record: every legal move with the output of its pile unit and the
/// probability the outputs give its reading, whether the legal decoder overrode the raw
/// reading, and the input, hidden and output activations behind the move.
pub(crate) fn net_record(choice: &NetMove, game: NetGame) -> Decision {
    let piles = choice.piles;
    let lengths = Lengths::new(piles, game.rule);
    let output = choice.activations.output();
    let options = choice
        .weighed
        .iter()
        .map(|&(mv, score)| Weighed {
            mv: mv_text(mv),
            numbers: vec![
                format!("{:.3}", output[usize::from(mv.pile)]),
                probability(score),
            ],
            verdict: lengths.verdict(&piles, mv),
            chosen: mv == choice.played,
        })
        .collect();
    Decision {
        title: format!("Network AI at {piles}"),
        position: position_lines(piles, game.rule),
        columns: vec!["pile unit".into(), "p(reading)".into()],
        options,
        how: net_how(choice, game),
        origin: net_origin(choice, game),
    }
}

/// A probability readable at any size: three decimals, or a power of ten when tiny.
fn probability(score: f64) -> String {
    let p = score.exp();
    if p >= 0.000_5 {
        format!("{p:.3}")
    } else {
        format!("{p:.0e}")
    }
}

/// How the legal decoder read the outputs: the raw reading played as it is, or overridden
/// because no legal move reads that way.
fn net_how(choice: &NetMove, game: NetGame) -> String {
    let (pile, left) = choice.raw;
    let size = choice.piles.sizes()[pile];
    let raw = format!(
        "the outputs' likeliest reading is pile {} with {left} left (bits {})",
        pile + 1,
        bits_text(left)
    );
    let played = mv_text(choice.played);
    let decoder = if left < size {
        format!(
            "legal decoder: {raw}, a legal move, so it plays it: {played}, the highest \
             p(reading)."
        )
    } else {
        let why = if size == 0 {
            format!("pile {} is empty", pile + 1)
        } else {
            format!("pile {} holds {size}", pile + 1)
        };
        format!(
            "legal decoder: {raw}, which is illegal ({why}), so the decoder overrode it with \
             the likeliest legal reading, {played}."
        )
    };
    let output = choice.activations.output();
    let original = match original_decode(game, output, &choice.piles) {
        Some(mv) if mv == choice.played => "The original program's decoder reads the same.".into(),
        Some(mv) => format!("The original program's decoder would read {}.", mv_text(mv)),
        None => "The original program's decoder reads no legal move here.".into(),
    };
    format!("{decoder} {original}")
}

/// The activations behind the move: the input bits, each hidden layer summarised (how many
/// units are on, the strongest few), and the outputs that spell the chosen move.
fn net_origin(choice: &NetMove, game: NetGame) -> Vec<String> {
    let piles = choice.piles;
    let mut lines = vec![input_line(piles)];
    lines.extend(hidden_summaries(&choice.activations));
    let output = choice.activations.output();
    let mv = choice.played;
    let pile = usize::from(mv.pile);
    let left = piles.sizes()[pile] - mv.take;
    let units: Vec<String> = output[..game.piles]
        .iter()
        .map(|y| format!("{y:.2}"))
        .collect();
    let size_bits: Vec<String> = output[game.piles..]
        .iter()
        .map(|y| format!("{y:.2}"))
        .collect();
    lines.push(format!(
        "output for {}: pile units {} (pile {} on); bits of the pile size to leave \
         ({}): {} (want {}: {})",
        mv_text(mv),
        units.join(" "),
        pile + 1,
        bit_weights(),
        size_bits.join(" "),
        bits_text(left),
        leave_words(piles, mv)
    ));
    lines
}

/// The weights of a pile size's bits, highest first (`32 16 8 4 2 1`).
fn bit_weights() -> String {
    (0..PILE_BITS)
        .rev()
        .map(|bit| (1u32 << bit).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The network's input: every pile size in bits, highest first, with the bits' range of
/// worth (the output line lists them one by one).
fn input_line(piles: Piles) -> String {
    let bits: Vec<String> = piles.sizes().iter().map(|&s| bits_text(s)).collect();
    format!(
        "input {piles} in bits ({}..1 a pile): {}",
        1 << (PILE_BITS - 1),
        bits.join(" ")
    )
}

/// One line per hidden layer: units above one half, and the strongest few with their index.
fn hidden_summaries(activations: &Activations) -> Vec<String> {
    let layers = &activations.layers;
    let hidden = &layers[1..layers.len().saturating_sub(1)];
    hidden
        .iter()
        .enumerate()
        .map(|(l, units)| {
            let active = units.iter().filter(|&&a| a > 0.5).count();
            let mut order: Vec<usize> = (0..units.len()).collect();
            order.sort_by(|&a, &b| units[b].total_cmp(&units[a]).then(a.cmp(&b)));
            let strongest: Vec<String> = order
                .iter()
                .take(STRONGEST)
                .map(|&i| format!("h{}.{i} {:.2}", l + 1, units[i]))
                .collect();
            format!(
                "hidden layer {}: {active} of {} units above 0.5; strongest {}",
                l + 1,
                units.len(),
                strongest.join(", ")
            )
        })
        .collect()
}

/// The perfect player's record: no numbers of its own, the exact answers it plays by.
/// `instead` says why it plays in another AI's place, if it does.
pub(crate) fn perfect_record(
    piles: Piles,
    rule: Rule,
    chosen: NimMove,
    instead: Option<&str>,
) -> Decision {
    let lengths = Lengths::new(piles, rule);
    let options: Vec<Weighed> = piles
        .moves()
        .map(|mv| Weighed {
            mv: mv_text(mv),
            numbers: Vec::new(),
            verdict: lengths.verdict(&piles, mv),
            chosen: mv == chosen,
        })
        .collect();
    let wins = lengths.verdict(&piles, chosen).is_some_and(Verdict::wins);
    let mut how = if wins {
        "the perfect player plays the first winning move in move order (the Nim formula)."
            .to_string()
    } else {
        "no move wins here, so the perfect player takes one object from the largest pile, \
         to give an imperfect opponent the most chances to go wrong."
            .to_string()
    };
    if let Some(instead) = instead {
        how = format!("{instead} {how}");
    }
    Decision {
        title: format!("Perfect player at {piles}"),
        position: position_lines(piles, rule),
        columns: Vec::new(),
        options,
        how,
        origin: Vec::new(),
    }
}

/// The random player's record: which of the legal moves the seeded draw picked.
pub(crate) fn random_record(piles: Piles, rule: Rule, drawn: usize) -> Decision {
    let lengths = Lengths::new(piles, rule);
    let moves: Vec<NimMove> = piles.moves().collect();
    let options = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| Weighed {
            mv: mv_text(mv),
            numbers: Vec::new(),
            verdict: lengths.verdict(&piles, mv),
            chosen: i == drawn,
        })
        .collect();
    Decision {
        title: format!("Random player at {piles}"),
        position: position_lines(piles, rule),
        columns: Vec::new(),
        options,
        how: format!(
            "a uniformly random legal move: one draw from the game's seeded RNG picked \
             number {} of {}.",
            drawn + 1,
            moves.len()
        ),
        origin: Vec::new(),
    }
}

/// What the learners would do at a position the user typed: the Q-values (when the table
/// covers it) and the network's reading (when it fits) side by side. Nothing is played
/// and nothing is drawn from the game's RNG: a tie is named, not broken. `prefer_net`
/// marks the network's pick as the move rather than the Q-learning agent's.
pub(crate) fn asked_record(
    piles: Piles,
    rule: Rule,
    q: Option<(&QTable, f64)>,
    net: Option<&NetMove>,
    prefer_net: bool,
) -> Decision {
    let lengths = Lengths::new(piles, rule);
    let q_pick = q.map(|(table, _)| table.greedy_moves(&piles));
    let marked = match (&q_pick, net) {
        (_, Some(choice)) if prefer_net || q_pick.is_none() => Some(choice.played),
        (Some(greedy), _) if greedy.len() == 1 => Some(greedy[0]),
        _ => None,
    };
    let mut columns = Vec::new();
    if q.is_some() {
        columns.extend(["Q-value".to_string(), "updates".to_string()]);
    }
    if net.is_some() {
        columns.push("net p(reading)".to_string());
    }
    let options = piles
        .moves()
        .map(|mv| {
            let mut numbers = Vec::new();
            if let Some((table, _)) = q {
                numbers.push(format!("{:+.3}", table.q(&piles, mv)));
                numbers.push(table.updates(&piles, mv).to_string());
            }
            if let Some(choice) = net {
                let score = choice
                    .weighed
                    .iter()
                    .find(|&&(m, _)| m == mv)
                    .map_or(f64::NEG_INFINITY, |&(_, s)| s);
                numbers.push(probability(score));
            }
            Weighed {
                mv: mv_text(mv),
                numbers,
                verdict: lengths.verdict(&piles, mv),
                chosen: Some(mv) == marked,
            }
        })
        .collect();
    let mut how = Vec::new();
    match (&q_pick, q) {
        (Some(greedy), Some((table, _))) => how.push(match greedy.as_slice() {
            [one] => format!(
                "The Q-learning agent would play {} (the highest Q-value, {:+.3}).",
                mv_text(*one),
                table.q(&piles, *one)
            ),
            many => format!(
                "The Q-learning agent's highest Q-value, {:+.3}, is shared by {} moves ({}): \
                 in a game one draw from the seeded RNG picks among them.",
                table.best_value(&piles),
                many.len(),
                many.iter()
                    .map(|&m| mv_text(m))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        }),
        _ => how.push("The Q-table does not cover these piles.".to_string()),
    }
    match net {
        Some(choice) => how.push(format!(
            "The network would play {}: {}",
            mv_text(choice.played),
            net_how_short(choice)
        )),
        None => how.push("The network does not take these piles.".to_string()),
    }
    let mut origin = Vec::new();
    if let (Some((table, alpha)), Some(pick)) = (q, marked.filter(|_| !prefer_net || net.is_none()))
    {
        origin = q_origin(
            piles,
            pick,
            table.q(&piles, pick),
            table.updates(&piles, pick),
            table.last_update(&piles, pick, alpha),
        );
    } else if let Some(choice) = net {
        let mut lines = vec![input_line(piles)];
        lines.extend(hidden_summaries(&choice.activations));
        origin = lines;
    }
    Decision {
        title: format!("The AI's view of {piles}"),
        position: position_lines(piles, rule),
        columns,
        options,
        how: how.join(" "),
        origin,
    }
}

/// Whether the network's raw reading was played or overridden, in a clause.
fn net_how_short(choice: &NetMove) -> String {
    let (pile, left) = choice.raw;
    if left < choice.piles.sizes()[pile] {
        format!(
            "its likeliest reading, pile {} with {left} left, is legal.",
            pile + 1
        )
    } else {
        format!(
            "its likeliest reading, pile {} with {left} left, is illegal, so the legal \
             decoder overrode it.",
            pile + 1
        )
    }
}
