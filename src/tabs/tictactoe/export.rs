//! The tree pane's search as Graphviz DOT (`d`): one DOT node per recorded node with its
//! move, MIN/MAX, value and bound, and the window it was entered with; a dashed node and
//! edge for every move a cut-off skipped, a dotted one for every move not searched yet; the
//! node being searched highlighted. Written into the data dir, or shown to copy where there
//! is none (a shared server), as the State Graph tab exports its graph.

use super::state::{GameKind, TicTacToeTab};
use crate::components::tree_search::explain::{bound_words, node_name, window_moves};
use crate::components::tree_search::{Playable, SearchView};
use crate::domain::numbers::{signed, thousands};
use crate::domain::search::{Algorithm, NodeId, Stepper};
use crate::tabkit::message::Message;
use crate::tabkit::tab::{CopyText, Effects, export_shown, export_written, export_written_as};
use std::fmt::Write;

/// The file the export writes in the data dir.
pub(crate) const DOT_FILE: &str = "search-tree.dot";
/// The file the text export (`D`) writes.
pub(crate) const TEXT_FILE: &str = "search-tree.txt";

/// What an export of a search says before its first step (`o` starts the search again in
/// the next order, with nothing recorded yet).
const NOTHING_SEARCHED: &str = "Nothing searched yet: Space steps the search, then export it";

/// The recorded tree of `stepper` as plain text: one line per node in search order,
/// indented two spaces a level, with its side, its value and bound (`?` until known) and,
/// under alpha-beta, the window it was entered with and the children a cut-off skipped.
/// `None` before the search's first step: there is no root to write.
pub(crate) fn tree_text<G: Playable>(stepper: &Stepper<G>) -> Option<String> {
    if stepper.nodes().is_empty() {
        return None;
    }
    let mut text = format!(
        "{} search for {} ({} nodes)\n",
        stepper.algorithm(),
        G::player_name(stepper.root().to_move()),
        stepper.nodes().len()
    );
    let mut stack: Vec<NodeId> = vec![0];
    while let Some(id) = stack.pop() {
        text_line(&mut text, stepper, id);
        let children: Vec<NodeId> = stepper.children(id).collect();
        stack.extend(children.into_iter().rev());
    }
    Some(text)
}

fn text_line<G: Playable>(text: &mut String, stepper: &Stepper<G>, id: NodeId) {
    let node = stepper.node(id);
    let indent = "  ".repeat(usize::from(node.depth));
    let side = if node.terminal {
        "leaf"
    } else if node.maximizing {
        "MAX"
    } else {
        "MIN"
    };
    let value = node.bound().map_or_else(
        || "?".to_string(),
        |(bound, v)| format!("{}{}", bound.sign(), signed(v)),
    );
    let _ = write!(text, "{indent}{} {side} {value}", node_name(stepper, id));
    if stepper.algorithm() == Algorithm::AlphaBeta && !node.terminal {
        let _ = write!(
            text,
            "  [α {} β {}]",
            signed(i32::from(node.alpha_in)),
            signed(i32::from(node.beta_in))
        );
    }
    if node.pruned > 0 {
        let _ = write!(text, "  cut-off: {} not searched", node.pruned);
    }
    text.push('\n');
}

/// `text` as the inside of a DOT string: backslashes and quotes escaped, line breaks as
/// DOT's `\n`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// The recorded tree of `stepper` as a DOT digraph; `current` (the node being searched) is
/// drawn filled and thick.
pub(crate) fn tree_dot<G: Playable>(stepper: &Stepper<G>, current: Option<NodeId>) -> String {
    let mut dot = String::new();
    let root = stepper.root();
    let title = format!(
        "{} search for {} ({} nodes)",
        stepper.algorithm(),
        G::player_name(root.to_move()),
        stepper.nodes().len()
    );
    let _ = writeln!(dot, "digraph search_tree {{");
    let _ = writeln!(dot, "  label=\"{}\";", escape(&title));
    let _ = writeln!(dot, "  labelloc=t;");
    let _ = writeln!(dot, "  node [fontname=\"monospace\"];");
    for id in 0..stepper.nodes().len() as NodeId {
        node_statement(&mut dot, stepper, id, current == Some(id));
    }
    for id in 0..stepper.nodes().len() as NodeId {
        if let Some(parent) = stepper.node(id).parent() {
            let best = stepper.node(parent).is_done()
                && stepper.node(parent).best_move == stepper.node(id).mv;
            let style = if best { " [penwidth=2]" } else { "" };
            let _ = writeln!(dot, "  n{parent} -> n{id}{style};");
        }
        skipped_statements(&mut dot, stepper, id);
    }
    dot.push_str("}\n");
    dot
}

fn node_statement<G: Playable>(dot: &mut String, stepper: &Stepper<G>, id: NodeId, current: bool) {
    let node = stepper.node(id);
    let value = node.bound().map_or("?".into(), |(bound, v)| {
        let words = bound_words(bound, node.bound_cause());
        format!("{}{} ({words})", bound.sign(), signed(v))
    });
    let mut lines = vec![node_name(stepper, id)];
    if node.terminal {
        lines.push(format!("leaf {value}"));
    } else {
        let side = if node.maximizing { "MAX" } else { "MIN" };
        lines.push(format!("{side} {value}"));
        if stepper.algorithm() == Algorithm::AlphaBeta {
            lines.push(format!(
                "entered α {} β {}",
                signed(i32::from(node.alpha_in)),
                signed(i32::from(node.beta_in))
            ));
            lines.push(format!("now {}", window_moves(node)));
        }
    }
    if current {
        lines.push("searched now".into());
    }
    let label = lines
        .iter()
        .map(|l| escape(l))
        .collect::<Vec<_>>()
        .join("\\n");
    let shape = match (node.terminal, node.maximizing) {
        (true, _) => "plaintext",
        (false, true) => "box",
        (false, false) => "ellipse",
    };
    let highlight = if current {
        ", style=filled, fillcolor=yellow, penwidth=3"
    } else {
        ""
    };
    let _ = writeln!(
        dot,
        "  n{id} [label=\"{label}\", shape={shape}{highlight}];"
    );
}

/// A dashed node and edge per move a cut-off skipped at `id`, a dotted one per move not
/// searched yet.
fn skipped_statements<G: Playable>(dot: &mut String, stepper: &Stepper<G>, id: NodeId) {
    let node = stepper.node(id);
    let untried = if node.pruned > 0 {
        Some(("pruned by a cut-off", "dashed"))
    } else if !node.is_done() && !node.terminal && node.children < node.move_count {
        Some(("not searched yet", "dotted"))
    } else {
        None
    };
    let Some((words, style)) = untried else {
        return;
    };
    let position = stepper.position(id);
    for (i, mv) in stepper.moves_not_entered(id).into_iter().enumerate() {
        let label = escape(&format!("{}\n{words}", position.move_label(mv)));
        let _ = writeln!(
            dot,
            "  s{id}_{i} [label=\"{label}\", shape=box, style={style}, fontcolor=gray40, color=gray40];"
        );
        let _ = writeln!(dot, "  n{id} -> s{id}_{i} [style={style}, color=gray40];");
    }
}

impl TicTacToeTab {
    /// `D`: the shown search as indented text, written into the data dir, or shown to copy
    /// where nothing is written.
    pub(crate) fn export_text(&self, effects: &mut Effects) -> Message {
        if self.has_mcts() || (self.mcts_on() && !self.has_search()) {
            return Message::error(
                "D exports a minimax or alpha-beta tree: the AI uses MCTS (a switches)",
            );
        }
        let text = match self.game {
            GameKind::TicTacToe => self
                .tictactoe
                .search
                .as_ref()
                .map(|v| tree_text(&v.stepper)),
            GameKind::Eight => self.eight.search.as_ref().map(|v| tree_text(&v.stepper)),
        };
        let Some(text) = text else {
            return Message::error("No search tree to export yet: t searches your position");
        };
        let Some(text) = text else {
            return Message::error(NOTHING_SEARCHED);
        };
        if let Some(store) = &self.store {
            return match store.write_file(TEXT_FILE, text.as_bytes()) {
                Ok(path) => export_written_as("Search tree", "text", &path),
                Err(error) => Message::error(error.to_string()),
            };
        }
        effects.show_text = Some(CopyText {
            title: "The search tree as text".to_string(),
            file: TEXT_FILE,
            text,
        });
        export_shown(self.storage)
    }

    /// `d`: the shown search as DOT, written into the data dir, or shown to copy where
    /// nothing is written.
    pub(crate) fn export_dot(&self, effects: &mut Effects) -> Message {
        // A tree search of the person's own position (`t`, before MCTS was picked) still
        // exports; MCTS's tree has no DOT form here.
        if self.has_mcts() || (self.mcts_on() && !self.has_search()) {
            return Message::error(
                "d exports a minimax or alpha-beta tree: the AI uses MCTS (a switches)",
            );
        }
        let dot = match self.game {
            GameKind::TicTacToe => self.tictactoe.search.as_ref().map(view_dot),
            GameKind::Eight => self.eight.search.as_ref().map(view_dot),
        };
        let Some((dot, nodes)) = dot else {
            return Message::error("No search tree to export yet: t searches your position");
        };
        if nodes == 0 {
            return Message::error(NOTHING_SEARCHED);
        }
        let nodes = thousands(nodes as u64);
        if let Some(store) = &self.store {
            // The node count stays out of the message, so the whole path fits the status line.
            return match store.write_file(DOT_FILE, dot.as_bytes()) {
                Ok(path) => export_written("Search tree", &path),
                Err(error) => Message::error(error.to_string()),
            };
        }
        effects.show_text = Some(CopyText {
            title: format!("The search tree ({nodes} nodes) as Graphviz DOT"),
            file: DOT_FILE,
            text: dot,
        });
        export_shown(self.storage)
    }
}

/// The DOT of a search view and its node count; the node being searched is highlighted.
fn view_dot<G: Playable>(view: &SearchView<G>) -> (String, usize) {
    let stepper = &view.stepper;
    let current = (!stepper.is_finished())
        .then(|| stepper.current())
        .flatten();
    (tree_dot(stepper, current), stepper.nodes().len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;
    use crate::domain::games::tictactoe::{Board, Mark};

    fn node_statements(dot: &str) -> usize {
        dot.lines()
            .filter(|l| {
                let l = l.trim_start();
                (l.starts_with('n') || l.starts_with('s'))
                    && !l.contains("->")
                    && l.contains(" [label=")
            })
            .count()
    }

    #[test]
    fn the_tree_as_text_has_a_line_per_node_indented_by_depth() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        assert_eq!(
            tree_text(&stepper),
            None,
            "nothing to write before the first step"
        );
        stepper.run_to_end();
        let text = tree_text(&stepper).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 62, "a title and the 62 nodes:\n{text}");
        assert!(lines[1].starts_with("the root MAX =-5"), "{}", lines[1]);
        for (line, id) in lines[1..].iter().zip(depth_first(&stepper)) {
            let indent = line.len() - line.trim_start().len();
            assert_eq!(indent, 2 * usize::from(stepper.node(id).depth), "{line}");
            assert!(
                line.trim_start().starts_with(&node_name(&stepper, id)),
                "{line}"
            );
        }
        let mut cut = Stepper::new(
            Board::parse("XO..X....", Some(Mark::O)).unwrap(),
            Algorithm::AlphaBeta,
        );
        cut.run_to_end();
        let text = tree_text(&cut).unwrap();
        assert!(text.contains("cut-off: ") && text.contains("[α "), "{text}");
    }

    /// The node ids in the order a depth-first walk meets them.
    fn depth_first<G: Playable>(stepper: &Stepper<G>) -> Vec<NodeId> {
        let mut order = Vec::new();
        let mut stack = vec![0];
        while let Some(id) = stack.pop() {
            order.push(id);
            let children: Vec<NodeId> = stepper.children(id).collect();
            stack.extend(children.into_iter().rev());
        }
        order
    }

    #[test]
    fn the_whole_game_of_eight_tree_has_its_62_nodes() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        stepper.run_to_end();
        let dot = tree_dot(&stepper, None);
        assert_eq!(node_statements(&dot), 62, "{dot}");
        assert_eq!(
            dot.matches(" -> ").count(),
            61,
            "a tree: one edge per node but the root"
        );
        assert!(dot.starts_with("digraph search_tree {\n") && dot.ends_with("}\n"));
        assert!(
            dot.contains("  n0 [label=\"the root\\nMAX =-5 (exact)\", shape=box];"),
            "{dot}"
        );
    }

    #[test]
    fn pruned_moves_are_dashed_and_labelled_and_the_window_is_shown() {
        let root = Board::parse("XX.OO.X..", Some(Mark::O)).unwrap();
        let mut stepper = Stepper::new(root, Algorithm::AlphaBeta);
        stepper.run_to_end();
        let dot = tree_dot(&stepper, None);
        let pruned: u64 = stepper.nodes().iter().map(|n| u64::from(n.pruned)).sum();
        assert!(pruned > 0);
        let dashed = dot
            .lines()
            .filter(|l| l.contains("pruned by a cut-off"))
            .count() as u64;
        assert_eq!(dashed, pruned);
        assert_eq!(
            dot.lines()
                .filter(|l| l.contains("-> s") && l.contains("style=dashed"))
                .count() as u64,
            pruned
        );
        assert_eq!(
            node_statements(&dot) as u64,
            stepper.nodes().len() as u64 + pruned
        );
        assert!(dot.contains("entered α -∞ β +∞\\nnow α -∞→0 β +∞"), "{dot}");
        assert!(dot.contains("(cut: 1 skipped)"), "{dot}");
    }

    #[test]
    fn the_node_searched_now_is_highlighted_and_pending_moves_dotted() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::AlphaBeta);
        for _ in 0..5 {
            stepper.step();
        }
        let current = stepper.current().unwrap();
        let dot = tree_dot(&stepper, Some(current));
        let line = dot
            .lines()
            .find(|l| l.starts_with(&format!("  n{current} [")))
            .unwrap();
        assert!(
            line.contains("fillcolor=yellow") && line.contains("searched now"),
            "{line}"
        );
        assert!(dot.contains("not searched yet") && dot.contains("style=dotted"));
    }

    #[test]
    fn labels_are_escaped() {
        assert_eq!(escape("a \"b\" \\ c\nd"), "a \\\"b\\\" \\\\ c\\nd");
    }
}
