//! The stepper's events in words, for the message log: why α or β moved when a child
//! returned, and why a cut-off pruned what it pruned. Made from the stepper's own record (a
//! child's `alpha_in` / `beta_in` is its parent's window just before the child returned), so
//! the words say what the search did, not a second account of it.

use super::playable::Playable;
use super::view::{SearchView, node_limit_sentence};
use crate::domain::games::Outcome;
use crate::domain::numbers::{signed, thousands};
use crate::domain::search::{Algorithm, Bound, BoundCause, EventKind, NodeId, Stepper, TreeNode};

/// How a node is named in the sentences: its move (`X4`, `+2=5`) or "the root".
pub(crate) fn node_name<G: Playable>(stepper: &Stepper<G>, id: NodeId) -> String {
    let node = stepper.node(id);
    match (node.parent(), node.mv) {
        (Some(parent), Some(mv)) => stepper.position(parent).move_label(mv),
        _ => "the root".into(),
    }
}

/// A node's value with its bound sign (`≤-4`, `=+3`), or `?` before it has one.
fn bounded_value<G: Playable>(stepper: &Stepper<G>, id: NodeId) -> String {
    stepper.node(id).bound().map_or("?".into(), |(bound, v)| {
        format!("{}{}", bound.sign(), signed(v))
    })
}

/// The short word the tree writes after a bound that is not a node's running best: `cut`
/// (a cut-off skipped moves here) or `window` (every move was searched; the value fell
/// outside the window the node was entered with), so a `≤` is never read as "pruned" alone.
pub const fn bound_tag(cause: Option<BoundCause>) -> Option<&'static str> {
    match cause {
        Some(BoundCause::Pruned { .. }) => Some("cut"),
        Some(BoundCause::Window) => Some("window"),
        Some(BoundCause::Searching) | None => None,
    }
}

/// What kind of value a record or an export shows, in words: `exact`, `cut: 2 skipped`,
/// `window bound`, `best so far`.
pub fn bound_words(bound: Bound, cause: Option<BoundCause>) -> String {
    match (bound, cause) {
        (Bound::Exact, _) | (_, None) => "exact".into(),
        (_, Some(BoundCause::Pruned { skipped })) => format!("cut: {skipped} skipped"),
        (_, Some(BoundCause::Window)) => "window bound".into(),
        (_, Some(BoundCause::Searching)) => "best so far".into(),
    }
}

/// `1 move` / `3 moves`.
fn moves_count(n: u8) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

/// What the return of `child` to its parent did, in words: under alpha-beta, whether α
/// rose (at a MAX parent) or β fell (at a MIN parent) and what that means; under minimax,
/// whether the parent's best changed. The root's return ends the search.
pub(crate) fn return_sentence<G: Playable>(stepper: &Stepper<G>, child: NodeId) -> String {
    let name = node_name(stepper, child);
    let value = bounded_value(stepper, child);
    let Some(parent_id) = stepper.node(child).parent() else {
        return format!("{name} returns {value}: the search ends");
    };
    let parent = stepper.node(parent_id);
    let parent_name = node_name(stepper, parent_id);
    let returned = format!("{name} returns {value} to {parent_name}");
    let Some(v) = stepper.node(child).value.map(i32::from) else {
        return returned;
    };
    let took_it =
        parent.value.map(i32::from) == Some(v) && parent.best_move == stepper.node(child).mv;
    if stepper.algorithm() == Algorithm::Minimax {
        let best = parent.value.map_or("?".into(), |b| signed(i32::from(b)));
        return if took_it {
            format!("{returned}: its best so far, it keeps {best}")
        } else {
            format!("{returned}: no better than {best}, which it keeps")
        };
    }
    // The window the child was entered with is the parent's just before the return.
    let before = stepper.node(child);
    let (alpha_before, beta_before) = (i32::from(before.alpha_in), i32::from(before.beta_in));
    let (alpha, beta) = (parent.alpha(), parent.beta());
    // The window can close on the parent's last child: then nothing is left to cut off.
    let moves_left = parent.children < parent.move_count;
    let closed = if alpha >= beta && moves_left {
        format!(
            " (α {} ≥ β {}: a cut-off comes next)",
            signed(alpha),
            signed(beta)
        )
    } else {
        String::new()
    };
    if parent.maximizing && alpha > alpha_before {
        let v = signed(alpha);
        return format!(
            "{returned}. α rises to {v}: MAX has a move worth at least {v} here{closed}"
        );
    }
    if !parent.maximizing && beta < beta_before {
        let v = signed(beta);
        return format!("{returned}. β falls to {v}: MIN can hold MAX to {v} or less here{closed}");
    }
    let (side, bound, kept) = if parent.maximizing {
        ("MAX", "α", alpha)
    } else {
        ("MIN", "β", beta)
    };
    let why = if parent.maximizing {
        "MAX already has that much elsewhere"
    } else {
        "MIN can already hold MAX to that elsewhere"
    };
    if took_it {
        format!(
            "{returned}: {side}'s best so far, but {bound} stays {} ({why})",
            signed(kept)
        )
    } else {
        format!(
            "{returned}: no better for {side} than its best so far; {bound} stays {}",
            signed(kept)
        )
    }
}

/// Why a cut-off happened at `id`, in words: the child whose value closed the window, the
/// bound it crossed, what that bound stands for, and the moves skipped.
pub(crate) fn cutoff_sentence<G: Playable>(stepper: &Stepper<G>, id: NodeId) -> String {
    let node = stepper.node(id);
    let name = node_name(stepper, id);
    let skipped = moves_count(node.pruned);
    let position = stepper.position(id);
    let labels: Vec<String> = stepper
        .moves_not_entered(id)
        .iter()
        .map(|&mv| position.move_label(mv))
        .collect();
    let labels = labels.join(" ");
    // The window was open before the last child returned, so that child's value closed it.
    let last = stepper.children(id).last();
    let child = last.map_or("a child".into(), |c| node_name(stepper, c));
    let v = last
        .and_then(|c| stepper.node(c).value)
        .map_or("?".into(), |v| signed(i32::from(v)));
    if node.maximizing {
        let beta = signed(node.beta());
        format!(
            "Cut-off at {name} (MAX): {child} gave {v} ≥ β {beta}. MIN can already hold MAX \
             to {beta} elsewhere, so it never lets play reach {name}: {skipped} skipped ({labels})"
        )
    } else {
        let alpha = signed(node.alpha());
        format!(
            "Cut-off at {name} (MIN): {child} gave {v} ≤ α {alpha}. MAX already has {alpha} \
             elsewhere, so it never lets play reach {name}: {skipped} skipped ({labels})"
        )
    }
}

/// A node's window as entered and as it is now, for the detail beside its board: a bound
/// that moved shows both (`α -∞→-2 β -4`), one that did not shows once (`α 0 β +∞`).
pub(crate) fn window_moves<M>(node: &TreeNode<M>) -> String {
    let part = |name: &str, entered: i16, now: i32| {
        let entered = i32::from(entered);
        if entered == now {
            format!("{name} {}", signed(now))
        } else {
            format!("{name} {}→{}", signed(entered), signed(now))
        }
    };
    format!(
        "{} {}",
        part("α", node.alpha_in, node.alpha()),
        part("β", node.beta_in, node.beta())
    )
}

/// What the last step did, in a sentence for the status line.
pub(crate) fn describe_last_event<G: Playable>(view: &SearchView<G>) -> String {
    let stepper = &view.stepper;
    if stepper.at_node_limit() {
        return node_limit_sentence(view.live);
    }
    if let Some(result) = stepper.result() {
        let best = result
            .best_move
            .map_or("none".into(), |mv| stepper.root().move_label(mv));
        let then = if view.live {
            "Enter plays it"
        } else {
            "b steps back"
        };
        return format!(
            "Search finished: value {}, best {best}, {} nodes; {then}",
            signed(result.value),
            thousands(result.stats.nodes)
        );
    }
    let Some(event) = stepper.last_event() else {
        return "At the start: Space enters the root".into();
    };
    let node = stepper.node(event.node);
    let name = match (node.parent(), node.mv) {
        (Some(parent), Some(mv)) => stepper.position(parent).move_label(mv),
        _ => "the root".into(),
    };
    match event.kind {
        EventKind::Enter if node.horizon => format!(
            "Entered {name} at depth {}: the depth limit, a leaf the evaluation scores",
            node.depth
        ),
        EventKind::Enter if node.terminal => {
            format!("Entered {name}: the game is over here, a leaf")
        }
        EventKind::Enter => format!(
            "Entered {name} at depth {}, a {} node: it keeps the {} value its children return",
            node.depth,
            if node.maximizing { "MAX" } else { "MIN" },
            if node.maximizing {
                "largest"
            } else {
                "smallest"
            },
        ),
        EventKind::Leaf => leaf_sentence(stepper, event.node, &name),
        EventKind::Return => return_sentence(stepper, event.node),
        EventKind::Cutoff => cutoff_sentence(stepper, event.node),
    }
}

/// How a leaf was scored, with the arithmetic of the depth-aware evaluation.
fn leaf_sentence<G: Playable>(
    stepper: &Stepper<G>,
    id: crate::domain::search::NodeId,
    name: &str,
) -> String {
    let node = stepper.node(id);
    let depth = i32::from(node.depth);
    let value = node.value.map_or(0, i32::from);
    let root_player = stepper.root().to_move();
    let position = stepper.position(id);
    match position.outcome() {
        // A win scores the game's win score less the depth, so quicker wins count more.
        Some(Outcome::Winner(p)) if p == root_player => format!(
            "Leaf {name}: {} wins at depth {depth}, scored {} - {depth} = {}",
            G::player_name(p),
            value + depth,
            signed(value)
        ),
        Some(Outcome::Winner(p)) => format!(
            "Leaf {name}: {} wins at depth {depth}, scored {depth} - {} = {}",
            G::player_name(p),
            depth - value,
            signed(value)
        ),
        Some(Outcome::Draw) => format!("Leaf {name}: a draw, scored 0"),
        None => format!(
            "Leaf {name}: the evaluation from {}'s side: {} = {}",
            G::player_name(root_player),
            position.evaluation_words(root_player),
            signed(value)
        ),
    }
}

/// The moves not entered at `id` (those a cut-off skipped, or not searched yet), as the
/// tree names them, space-separated: what the tree pane lists and the pruned question asks.
pub(crate) fn untried_labels<G: Playable>(stepper: &Stepper<G>, id: NodeId) -> String {
    let position = stepper.position(id);
    stepper
        .moves_not_entered(id)
        .iter()
        .map(|&mv| position.move_label(mv))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::search::{EventKind, MoveOrder};

    /// Steps until the event `kind` has been taken `nth` times (from 1); the node it was about.
    fn step_to<G: Playable>(stepper: &mut Stepper<G>, kind: EventKind, nth: usize) -> NodeId {
        let mut seen = 0;
        while let Some(event) = stepper.step() {
            if event.kind == kind {
                seen += 1;
                if seen == nth {
                    return event.node;
                }
            }
        }
        panic!("fewer than {nth} {kind:?} events");
    }

    /// Every sentence of a whole search, one per Return or Cut-off event.
    fn all_sentences(root: Board, algorithm: Algorithm) -> Vec<String> {
        let mut stepper = Stepper::new(root, algorithm);
        let mut out = Vec::new();
        while let Some(event) = stepper.step() {
            match event.kind {
                EventKind::Return => out.push(return_sentence(&stepper, event.node)),
                EventKind::Cutoff => out.push(cutoff_sentence(&stepper, event.node)),
                _ => {}
            }
        }
        out
    }

    /// O to move, X threatens 3 (cells 1 2) and 9 is free: a small tree with both cut-offs.
    fn small() -> Board {
        Board::parse("XX.OO.X..", Some(Mark::O)).unwrap()
    }

    #[test]
    fn alpha_rising_is_said_with_what_it_means() {
        // X to move with a win at cell 3: the first child returned at the root raises α.
        let root = Board::parse("XX.OO....", Some(Mark::X)).unwrap();
        let mut stepper = Stepper::new(root, Algorithm::AlphaBeta);
        let child = step_to(&mut stepper, EventKind::Return, 1);
        assert_eq!(
            return_sentence(&stepper, child),
            "X3 returns =+9 to the root. α rises to +9: MAX has a move worth at least +9 here"
        );
    }

    #[test]
    fn beta_falling_is_said_with_what_it_means() {
        // O to move at the root (MAX); after O3 X to move (MIN): X's first reply that
        // returns lowers β at O3.
        let sentences = all_sentences(small(), Algorithm::AlphaBeta);
        assert!(
            sentences
                .iter()
                .any(|s| s.contains(". β falls to ") && s.contains(": MIN can hold MAX to ")),
            "{sentences:#?}"
        );
        let fall = sentences.iter().find(|s| s.contains("β falls")).unwrap();
        assert_eq!(
            fall,
            "X9 returns =0 to O8. β falls to 0: MIN can hold MAX to 0 or less here"
        );
    }

    #[test]
    fn a_cut_off_names_the_node_the_child_value_the_bound_and_the_moves_skipped() {
        let mut stepper = Stepper::new(small(), Algorithm::AlphaBeta);
        let node = step_to(&mut stepper, EventKind::Cutoff, 1);
        assert_eq!(
            cutoff_sentence(&stepper, node),
            "Cut-off at X8 (MAX): O6 gave +7 ≥ β 0. MIN can already hold MAX to 0 \
             elsewhere, so it never lets play reach X8: 1 move skipped (O9)"
        );
    }

    #[test]
    fn a_beta_cut_off_says_min_never_lets_play_reach_the_node() {
        let root = Board::parse("X...O....", Some(Mark::X)).unwrap();
        let sentences = all_sentences(root, Algorithm::AlphaBeta);
        let beta_cut = sentences
            .iter()
            .find(|s| s.contains("(MAX):"))
            .expect("a β cut-off");
        assert!(
            beta_cut.contains(". MIN can already hold MAX to ") && beta_cut.contains(" skipped ("),
            "{beta_cut}"
        );
    }

    #[test]
    fn a_cut_off_is_promised_only_when_one_follows() {
        for cells in ["XOX.O.OXX", "X...O....", "XX.OO.X..", "........."] {
            let mover = if cells.matches('X').count() > cells.matches('O').count() {
                Mark::O
            } else {
                Mark::X
            };
            let root = Board::parse(cells, Some(mover)).unwrap();
            let mut stepper = Stepper::new(root, Algorithm::AlphaBeta);
            let mut promised = false;
            while let Some(event) = stepper.step() {
                assert_eq!(
                    promised,
                    event.kind == EventKind::Cutoff,
                    "{cells}: a promise and the next event disagree"
                );
                promised = event.kind == EventKind::Return
                    && return_sentence(&stepper, event.node).contains("a cut-off comes next");
            }
        }
    }

    #[test]
    fn the_return_before_a_cut_off_says_one_comes_next() {
        let mut stepper = Stepper::new(small(), Algorithm::AlphaBeta);
        let node = step_to(&mut stepper, EventKind::Cutoff, 1);
        stepper.step_back();
        let child = stepper.last_event().unwrap().node;
        assert_eq!(stepper.node(child).parent(), Some(node));
        assert_eq!(
            return_sentence(&stepper, child),
            "O6 returns =+7 to X8. α rises to +7: MAX has a move worth at least +7 here \
             (α +7 ≥ β 0: a cut-off comes next)"
        );
    }

    #[test]
    fn a_return_that_moves_no_bound_says_the_bound_stays() {
        let sentences = all_sentences(small(), Algorithm::AlphaBeta);
        assert!(
            sentences.iter().any(|s| s.contains("; α stays ")
                || s.contains("; β stays ")
                || s.contains(", but α stays ")
                || s.contains(", but β stays ")),
            "{sentences:#?}"
        );
    }

    #[test]
    fn a_window_shows_where_it_was_entered_and_where_it_is_now() {
        let mut stepper = Stepper::new(small(), Algorithm::AlphaBeta);
        let node = step_to(&mut stepper, EventKind::Cutoff, 1);
        // X8 was entered with α -∞ β 0 and its child O6 raised α to +7.
        assert_eq!(window_moves(stepper.node(node)), "α -∞→+7 β 0");
        let untouched = stepper.children(node).next().unwrap();
        assert_eq!(window_moves(stepper.node(untouched)), "α -∞ β 0");
        // The root's α has not moved yet; once the search is done it rose to O's win, +9.
        assert_eq!(window_moves(stepper.node(0)), "α -∞ β +∞");
        stepper.run_to_end();
        assert_eq!(window_moves(stepper.node(0)), "α -∞→+9 β +∞");
    }

    #[test]
    fn minimax_speaks_of_the_best_so_far_not_of_a_window() {
        let sentences = all_sentences(small(), Algorithm::Minimax);
        assert!(
            sentences
                .iter()
                .all(|s| !s.contains('α') && !s.contains('β'))
        );
        assert!(sentences.last().unwrap().ends_with(": the search ends"));
        assert!(sentences.iter().any(|s| s.ends_with("which it keeps")));
    }

    #[test]
    fn the_sentences_follow_the_order_the_search_used() {
        let mut stepper = Stepper::new(small(), Algorithm::AlphaBeta).with_order(MoveOrder::Static);
        let child = step_to(&mut stepper, EventKind::Return, 1);
        // Corners first: O tries the corner 3 first, X replies in the corner 9, and O's
        // first reply there, the edge 6, wins: the first return of the whole search.
        assert_eq!(
            return_sentence(&stepper, child),
            "O6 returns =+7 to X9. α rises to +7: MAX has a move worth at least +7 here"
        );
    }
}
