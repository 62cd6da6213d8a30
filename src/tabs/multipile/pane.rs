//! The pane beside the piles: which view it shows and whether the keys go to it, the edges
//! out of a position (walked move by move, or back along the game), the Q-table's learned
//! positions, and the weights view's layer and unit.

use super::state::{MultiPileTab, Pane, Played};
use super::why::mv_text;
use crate::domain::games::nim::{NimMove, Piles};
use crate::domain::learn::qlearning::greedy_is_optimal;
use crate::domain::solve::nim as solver;
use crate::tabkit::message::Message;
use crate::tabkit::side::Side;

/// One move out of a position, as the edges view lists it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Edge {
    pub(crate) mv: NimMove,
    /// Where it leads.
    pub(crate) next: Piles,
    /// Q(s, a), when the table covers the position.
    pub(crate) q: Option<f64>,
    /// Updates Q(s, a) has had.
    pub(crate) updates: u32,
    /// One of the table's greedy moves.
    pub(crate) greedy: bool,
    /// A winning move, by the solver.
    pub(crate) winning: bool,
}

/// One learned position, as the Q-table view lists it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TableRow {
    pub(crate) piles: Piles,
    pub(crate) greedy: Vec<NimMove>,
    /// Their Q-value.
    pub(crate) best: f64,
    /// The solver's first winning move, if any.
    pub(crate) winning: Option<NimMove>,
    /// The mover can win but a greedy move does not.
    pub(crate) wrong: bool,
}

impl MultiPileTab {
    /// Shows the next view.
    pub(crate) fn next_pane(&mut self) {
        self.pane = self.pane.next();
        self.edge_cursor = 0;
    }

    /// Moves the keys between the piles and the pane.
    pub(crate) fn toggle_focus(&mut self) -> Message {
        self.pane_focus = !self.pane_focus;
        Message::info(if self.pane_focus {
            "Keys move in the pane: ↑↓ choose, Enter/→ follow, ←/Backspace back, f: piles"
        } else {
            "Keys play the piles again (f: the pane)"
        })
    }

    /// Shows or hides the marks that answer the human's own move.
    pub(crate) fn toggle_hints(&mut self) -> Message {
        self.hints_on_your_turn = !self.hints_on_your_turn;
        Message::info(if self.hints_on_your_turn {
            "Hints on your turn: ★ the AI's pick, ✓ winning moves (i hides them)"
        } else {
            "Hints hidden on your turn: find the winning move yourself (i shows them)"
        })
    }

    /// Whether the pane may mark the greedy and winning moves out of `piles`: always,
    /// unless hints are off and `piles` is the position the human is about to play.
    pub(crate) fn hints_shown(&self, piles: Piles) -> bool {
        self.hints_on_your_turn || !self.human_to_move || self.game_over() || piles != self.piles
    }

    /// The position the edges view shows.
    pub(crate) fn shown_position(&self) -> Piles {
        self.browse
            .last()
            .copied()
            .unwrap_or_else(|| self.rewound_position())
    }

    /// The game's position `rewind` moves ago, where the edges view's path starts.
    pub(crate) fn rewound_position(&self) -> Piles {
        self.played_here().map_or(self.piles, |m| m.before)
    }

    /// The move of the game made at the position the edges view steps back to, while it
    /// shows one (not a browsed successor).
    pub(crate) fn played_here(&self) -> Option<Played> {
        if self.rewind == 0 || !self.browse.is_empty() {
            return None;
        }
        let at = self.moves.len().checked_sub(self.rewind)?;
        self.moves.get(at).copied()
    }

    /// Whether `←` in the edges view can step somewhere: back along the path, or to the
    /// position before an earlier move of the game.
    pub(crate) fn can_step_back(&self) -> bool {
        !self.browse.is_empty() || self.rewind < self.moves.len()
    }

    /// Every move out of `piles`, best Q first (moves the table does not cover last), with
    /// the greedy and winning moves marked.
    pub(crate) fn edges(&self, piles: Piles) -> Vec<Edge> {
        let piles = &piles;
        let rule = self.game_rule();
        let table = self
            .q
            .trainer
            .as_ref()
            .ok()
            .map(|t| &t.table)
            .filter(|t| t.covers(piles) && t.rule() == rule);
        let greedy = table.map(|t| t.greedy_moves(piles)).unwrap_or_default();
        let mut edges: Vec<Edge> = piles
            .moves()
            .map(|mv| Edge {
                mv,
                next: piles.after(mv),
                q: table.map(|t| t.q(piles, mv)),
                updates: table.map_or(0, |t| t.updates(piles, mv)),
                greedy: greedy.contains(&mv),
                winning: solver::is_winning_move(piles, rule, mv),
            })
            .collect();
        edges.sort_by(|a, b| {
            let (qa, qb) = (
                a.q.unwrap_or(f64::NEG_INFINITY),
                b.q.unwrap_or(f64::NEG_INFINITY),
            );
            qb.total_cmp(&qa).then(a.mv.cmp(&b.mv))
        });
        edges
    }

    /// Moves the pane's cursor (edges) or scroll (table, updates).
    pub(crate) fn pane_move(&mut self, delta: isize) {
        match self.pane {
            Pane::Edges => {
                let count = self.edges(self.shown_position()).len();
                if count > 0 {
                    self.edge_cursor =
                        (self.edge_cursor as isize + delta).clamp(0, count as isize - 1) as usize;
                }
            }
            Pane::Table => {
                let rows = self.table_rows().len();
                self.table_scroll = (self.table_scroll as isize + delta)
                    .clamp(0, rows.saturating_sub(1) as isize)
                    as usize;
            }
            Pane::Weights => {
                let units = self.weights_units();
                let (layer, unit) = self.weights_at;
                self.weights_at = (
                    layer,
                    (unit as isize + delta).clamp(0, units as isize - 1) as usize,
                );
            }
            _ => {}
        }
    }

    /// Units in the weights view's layer.
    pub(crate) fn weights_units(&self) -> usize {
        let layers = &self.net.trainer.network.layers;
        layers
            .get(self.weights_at.0)
            .map_or(1, |l| l.outputs.max(1))
    }

    /// Moves the weights view to the next layer (or the previous), keeping the unit where
    /// the new layer has it.
    pub(crate) fn weights_layer(&mut self, delta: isize) -> Option<Message> {
        let count = self.net.trainer.network.layers.len() as isize;
        let (layer, unit) = self.weights_at;
        let next = layer as isize + delta;
        if !(0..count).contains(&next) {
            return Some(Message::error(if delta < 0 {
                "Already at the first layer (→ the next)"
            } else {
                "Already at the output layer (← the previous)"
            }));
        }
        self.weights_at = (next as usize, unit);
        let units = self.weights_units();
        self.weights_at.1 = unit.min(units - 1);
        None
    }

    /// Follows the edge under the cursor to its successor (or, in the table, opens the
    /// position under the cursor in the edges view).
    pub(crate) fn pane_enter(&mut self) -> Option<Message> {
        match self.pane {
            Pane::Edges => {
                let edges = self.edges(self.shown_position());
                let edge = edges.get(self.edge_cursor)?;
                self.browse.push(edge.next);
                self.edge_cursor = 0;
                Some(Message::info(format!(
                    "At {} after {}: ← back, . to the game",
                    edge.next, edge.mv
                )))
            }
            Pane::Weights => self.weights_layer(1),
            Pane::Table => {
                let row = self.table_rows().get(self.table_scroll)?.piles;
                self.browse.push(row);
                self.pane = Pane::Edges;
                self.edge_cursor = 0;
                Some(Message::info(format!("Showing the moves out of {row}")))
            }
            _ => None,
        }
    }

    /// Steps back along the browsed path; at its start, to the position before the game's
    /// previous move, with the cursor on the move played there.
    pub(crate) fn pane_back(&mut self) -> Option<Message> {
        match self.pane {
            Pane::Edges => {}
            Pane::Weights => return self.weights_layer(-1),
            _ => return None,
        }
        if self.browse.pop().is_some() {
            self.edge_cursor = 0;
            return None;
        }
        if self.rewind >= self.moves.len() {
            return Some(Message::error(if self.moves.is_empty() {
                "No move in this game yet: nothing earlier to show"
            } else {
                "At the game's start: nothing earlier (. back to the game)"
            }));
        }
        self.rewind += 1;
        let played = self.played_here()?;
        self.edge_cursor = self
            .edges(played.before)
            .iter()
            .position(|e| e.mv == played.mv)
            .unwrap_or(0);
        let number = self.moves.len() - self.rewind + 1;
        Some(Message::info(match played.by {
            Side::Ai => format!(
                "Before move {number}, the AI's {}: › on it; y explains the AI's choice, ← earlier, . back to the game",
                mv_text(played.mv)
            ),
            Side::Human => format!(
                "Before move {number}, your {}: › on it; ← earlier, . back to the game",
                mv_text(played.mv)
            ),
        }))
    }

    /// Back to the game's position.
    pub(crate) fn pane_home(&mut self) {
        self.browse.clear();
        self.rewind = 0;
        self.edge_cursor = 0;
    }

    /// Lists only wrong positions in the table view, or all.
    pub(crate) fn toggle_wrong_only(&mut self) -> Message {
        self.wrong_only = !self.wrong_only;
        self.table_scroll = 0;
        self.pane = Pane::Table;
        let count = self.table_rows().len();
        Message::info(if self.wrong_only {
            format!("{count} positions where the greedy move is wrong (e: all)")
        } else {
            format!("{count} learned positions (e: only the wrong ones)")
        })
    }

    /// The learned positions of the Q-table, in position order.
    pub(crate) fn table_rows(&self) -> Vec<TableRow> {
        let Ok(trainer) = &self.q.trainer else {
            return Vec::new();
        };
        let table = &trainer.table;
        let rule = table.rule();
        table
            .start()
            .below()
            .filter(|piles| piles.moves().any(|mv| table.updates(piles, mv) > 0))
            .map(|piles| {
                let winning = solver::winning_moves(&piles, rule).first().copied();
                TableRow {
                    piles,
                    greedy: table.greedy_moves(&piles),
                    best: table.best_value(&piles),
                    winning,
                    wrong: winning.is_some() && !greedy_is_optimal(table, &piles),
                }
            })
            .filter(|row| !self.wrong_only || row.wrong)
            .collect()
    }
}
