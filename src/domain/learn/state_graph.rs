//! The State-Graph Learner of original program 002: Nim(k) as a directed graph of states (player to
//! move, tokens left), every edge weighted, trained from random games: each edge the winner took
//! gets +1, each edge the loser took -1.

use crate::domain::solve::state_graph::winning_take;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A player of Nim(k) as the original program names it in the vertex names (`p1-10`): 1 moves
/// first.
///
/// The same idea as Eight's `Seat` (first or second to move), kept apart because this one is
/// part of the saved graph (`state-graph.json` spells it `One` / `Two`) and `games/`, where a
/// shared type would have to live, keeps serde to the values a user names. Neither says
/// whether the person or the AI plays; a tab says that with `frame::side::Side`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    /// Player 1, who starts.
    One,
    /// Player 2.
    Two,
}

impl Player {
    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::One => Self::Two,
            Self::Two => Self::One,
        }
    }

    /// 1 or 2, as in the vertex names.
    pub const fn number(self) -> u8 {
        match self {
            Self::One => 1,
            Self::Two => 2,
        }
    }
}

/// A state: whose turn it is and how many tokens are left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Vertex {
    /// The player to move.
    pub player: Player,
    /// Tokens left.
    pub tokens: u32,
}

impl Vertex {
    /// The original program's name: `p1-10`.
    pub fn name(&self) -> String {
        format!("p{}-{}", self.player.number(), self.tokens)
    }
}

/// A move: from a state, taking some tokens, to the next state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edge {
    /// Before the move.
    pub from: Vertex,
    /// After it.
    pub to: Vertex,
}

impl Edge {
    /// Tokens taken.
    pub const fn take(&self) -> u32 {
        self.from.tokens - self.to.tokens
    }
}

/// The weighted state graph of Nim(k).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateGraph {
    /// Tokens at the start.
    pub tokens: u32,
    /// The most tokens one turn may take.
    pub max_take: u32,
    /// Weight of edge (player, tokens, take): index `edge_index`.
    weights: Vec<i64>,
    /// Random games learned from.
    pub games: u64,
}

impl StateGraph {
    /// The graph of Nim(`tokens`) with takes 1..=`max_take`, every weight 0.
    pub fn new(tokens: u32, max_take: u32) -> Self {
        let max_take = max_take.max(1);
        Self {
            tokens,
            max_take,
            weights: vec![0; 2 * (tokens as usize + 1) * max_take as usize],
            games: 0,
        }
    }

    fn edge_index(&self, edge: &Edge) -> usize {
        let player = usize::from(edge.from.player == Player::Two);
        let per_player = (self.tokens as usize + 1) * self.max_take as usize;
        player * per_player
            + edge.from.tokens as usize * self.max_take as usize
            + (edge.take() - 1) as usize
    }

    /// Every vertex: player 1's row then player 2's, tokens from k down to 0.
    pub fn vertices(&self) -> Vec<Vertex> {
        [Player::One, Player::Two]
            .into_iter()
            .flat_map(|player| {
                (0..=self.tokens)
                    .rev()
                    .map(move |tokens| Vertex { player, tokens })
            })
            .collect()
    }

    /// The moves out of `vertex`, smallest take first.
    pub fn out_edges(&self, vertex: Vertex) -> Vec<Edge> {
        (1..=self.max_take.min(vertex.tokens))
            .map(|take| Edge {
                from: vertex,
                to: Vertex {
                    player: vertex.player.other(),
                    tokens: vertex.tokens - take,
                },
            })
            .collect()
    }

    /// Every edge.
    pub fn edges(&self) -> Vec<Edge> {
        self.vertices()
            .into_iter()
            .flat_map(|v| self.out_edges(v))
            .collect()
    }

    /// An edge's weight.
    pub fn weight(&self, edge: &Edge) -> i64 {
        self.weights[self.edge_index(edge)]
    }

    /// The start: player 1 with k tokens.
    pub fn start(&self) -> Vertex {
        Vertex {
            player: Player::One,
            tokens: self.tokens,
        }
    }

    /// A random game: uniformly random legal moves from the start until no token is left.
    pub fn random_game(&self, rng: &mut ChaCha8Rng) -> Vec<Edge> {
        let mut path = Vec::new();
        let mut at = self.start();
        while at.tokens > 0 {
            let edges = self.out_edges(at);
            let edge = edges[rng.random_range(0..edges.len())];
            path.push(edge);
            at = edge.to;
        }
        path
    }

    /// The original program's update: the player who took the last token won; each of the winner's
    /// edges on `path` gets +1, each of the loser's -1.
    pub fn reinforce(&mut self, path: &[Edge]) {
        let Some(last) = path.last() else { return };
        let winner = last.from.player;
        for edge in path {
            let index = self.edge_index(edge);
            self.weights[index] += if edge.from.player == winner { 1 } else { -1 };
        }
        self.games += 1;
    }

    /// Plays and learns from `count` random games.
    pub fn train(&mut self, count: u64, rng: &mut ChaCha8Rng) {
        for _ in 0..count {
            let path = self.random_game(rng);
            self.reinforce(&path);
        }
    }

    /// Whether a loaded graph has one weight per edge (a file edited by hand may not).
    pub fn is_well_formed(&self) -> bool {
        self.max_take >= 1
            && self.weights.len() == 2 * (self.tokens as usize + 1) * self.max_take as usize
    }

    /// Why a loaded graph cannot be the one the config asks for (Nim(`tokens`) with takes
    /// 1-`max_take`, ranges checked by the config): another game, a weight count that does
    /// not match its edges, or a weight no training writes (a game passes an edge at most
    /// once, so no weight exceeds the games played).
    pub fn problem(&self, tokens: u32, max_take: u32) -> Option<String> {
        if self.tokens != tokens || self.max_take != max_take {
            return Some(format!(
                "a graph of Nim({}) with takes 1-{}, the config asks for Nim({tokens}) with takes 1-{max_take}",
                self.tokens, self.max_take
            ));
        }
        if !self.is_well_formed() {
            return Some(format!(
                "{} weights, Nim({tokens}) with takes 1-{max_take} has {}",
                self.weights.len(),
                2 * (tokens as usize + 1) * max_take as usize
            ));
        }
        self.weights
            .iter()
            .find(|w| w.unsigned_abs() > self.games)
            .map(|w| {
                format!(
                    "a weight of {w} after {} games: no training writes that",
                    self.games
                )
            })
    }

    /// Every weight back to 0.
    pub fn reset(&mut self) {
        self.weights.fill(0);
        self.games = 0;
    }

    /// The out-edges of `vertex` with the largest weight (several when tied).
    pub fn strongest(&self, vertex: Vertex) -> Vec<Edge> {
        let edges = self.out_edges(vertex);
        let best = edges.iter().map(|e| self.weight(e)).max();
        edges
            .into_iter()
            .filter(|e| Some(self.weight(e)) == best)
            .collect()
    }

    /// Whether the strongest edge of `vertex` (all of them, when tied) is a winning move;
    /// `None` where there is no winning move to find.
    pub fn plays_optimally_at(&self, vertex: Vertex) -> Option<bool> {
        let take = winning_take(vertex.tokens, self.max_take)?;
        Some(self.strongest(vertex).iter().all(|e| e.take() == take))
    }

    /// The vertices a game from the start can reach (in Nim(10), `p1-9` and `p2-10` are
    /// not: random games never train their edges).
    pub fn reachable(&self) -> Vec<Vertex> {
        let mut seen = vec![self.start()];
        let mut next = 0;
        while next < seen.len() {
            for edge in self.out_edges(seen[next]) {
                if !seen.contains(&edge.to) {
                    seen.push(edge.to);
                }
            }
            next += 1;
        }
        seen.sort_by_key(|v| (v.player, std::cmp::Reverse(v.tokens)));
        seen
    }

    /// Reachable vertices with a winning move: the ones the learner can get right.
    pub fn winning_vertices(&self) -> usize {
        self.reachable()
            .iter()
            .filter(|v| winning_take(v.tokens, self.max_take).is_some())
            .count()
    }

    /// The share of reachable vertices with a winning move whose strongest out-edge is a
    /// winning move.
    pub fn optimal_share(&self) -> f64 {
        let verdicts: Vec<bool> = self
            .reachable()
            .into_iter()
            .filter_map(|v| self.plays_optimally_at(v))
            .collect();
        let right = verdicts.iter().filter(|&&ok| ok).count();
        right as f64 / verdicts.len().max(1) as f64
    }

    /// The graph in Graphviz DOT: vertices named as in the original program, weights as edge
    /// labels, each vertex's strongest edges bold.
    pub fn to_dot(&self) -> String {
        use std::fmt::Write;
        let mut dot = format!("digraph nim{} {{\n  rankdir=LR;\n", self.tokens);
        for vertex in self.vertices() {
            let _ = writeln!(dot, "  \"{}\";", vertex.name());
        }
        for vertex in self.vertices() {
            let strongest = self.strongest(vertex);
            for edge in self.out_edges(vertex) {
                let bold = if strongest.contains(&edge) {
                    ", style=bold"
                } else {
                    ""
                };
                let _ = writeln!(
                    dot,
                    "  \"{}\" -> \"{}\" [label=\"{}\"{bold}];",
                    edge.from.name(),
                    edge.to.name(),
                    self.weight(&edge)
                );
            }
        }
        dot.push_str("}\n");
        dot
    }
}

/// The file the weights are kept in, in the data dir.
pub const GRAPH_FILE: &str = "state-graph.json";
/// Its format name.
pub const GRAPH_FORMAT: &str = "ai-arcade/state-graph";
/// Its version.
pub const GRAPH_VERSION: u32 = 1;

/// The check a graph file passes to be used, on load and before a save replaces it: the
/// game the config asks for, weights that training could have written.
pub fn usable(tokens: u32, max_take: u32) -> impl Fn(StateGraph) -> Result<StateGraph, String> {
    move |graph| match graph.problem(tokens, max_take) {
        None => Ok(graph),
        Some(why) => Err(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn vertex(player: u8, tokens: u32) -> Vertex {
        Vertex {
            player: if player == 1 {
                Player::One
            } else {
                Player::Two
            },
            tokens,
        }
    }

    #[test]
    fn the_graph_has_a_vertex_per_state_and_an_edge_per_move() {
        for (k, m, edges) in [
            (10, 2, 38),
            (1, 2, 2),
            (5, 3, 2 * (1 + 2 + 3 + 3 + 3)),
            (7, 1, 14),
        ] {
            let graph = StateGraph::new(k, m);
            assert_eq!(graph.vertices().len(), 2 * (k as usize + 1), "k {k}");
            assert_eq!(graph.edges().len(), edges, "k {k} m {m}");
            assert!(graph.edges().iter().all(|e| graph.weight(e) == 0));
        }
        let names: Vec<String> = StateGraph::new(10, 2)
            .vertices()
            .iter()
            .map(Vertex::name)
            .collect();
        assert_eq!(names[0], "p1-10");
        assert_eq!(names[11], "p2-10");
        assert!(names.contains(&"p2-0".to_string()));
    }

    #[test]
    fn the_update_rewards_the_winner_and_punishes_the_loser() {
        // The original program's example path: p1-10 → p2-8 → p1-7 → p2-6 → p1-4 → p2-3 → p1-1 →
        // p2-0.
        let mut graph = StateGraph::new(10, 2);
        let stops = [
            (1, 10),
            (2, 8),
            (1, 7),
            (2, 6),
            (1, 4),
            (2, 3),
            (1, 1),
            (2, 0),
        ];
        let path: Vec<Edge> = stops
            .windows(2)
            .map(|w| Edge {
                from: vertex(w[0].0, w[0].1),
                to: vertex(w[1].0, w[1].1),
            })
            .collect();
        graph.reinforce(&path);
        for edge in &path {
            let expected = if edge.from.player == Player::One {
                1
            } else {
                -1
            };
            assert_eq!(
                graph.weight(edge),
                expected,
                "{} -> {}",
                edge.from.name(),
                edge.to.name()
            );
        }
        let untouched = Edge {
            from: vertex(1, 10),
            to: vertex(2, 9),
        };
        assert_eq!(graph.weight(&untouched), 0);
        assert_eq!(graph.games, 1);
    }

    #[test]
    fn random_games_run_from_the_start_to_zero_tokens() {
        let graph = StateGraph::new(10, 2);
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..100 {
            let path = graph.random_game(&mut rng);
            assert_eq!(path.first().unwrap().from, graph.start());
            assert_eq!(path.last().unwrap().to.tokens, 0);
            assert!(path.windows(2).all(|w| w[0].to == w[1].from));
            assert!(path.iter().all(|e| (1..=2).contains(&e.take())));
        }
    }

    #[test]
    fn ten_thousand_games_learn_the_winning_moves() {
        let mut graph = StateGraph::new(10, 2);
        graph.train(10_000, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(graph.games, 10_000);
        // With two tokens left, taking both wins.
        let take_two = Edge {
            from: vertex(1, 2),
            to: vertex(2, 0),
        };
        assert_eq!(graph.strongest(vertex(1, 2)), vec![take_two]);
        assert!(graph.optimal_share() > 0.8, "{}", graph.optimal_share());
    }

    #[test]
    fn unreachable_vertices_are_left_out_of_the_share() {
        let graph = StateGraph::new(10, 2);
        let reachable = graph.reachable();
        assert_eq!(reachable.len(), 20);
        assert!(!reachable.contains(&vertex(1, 9)) && !reachable.contains(&vertex(2, 10)));
        // Reachable vertices with a winning move: tokens not a multiple of 3.
        assert_eq!(graph.winning_vertices(), 13);
    }

    #[test]
    fn the_dot_output_names_every_vertex_and_labels_every_edge() {
        let mut graph = StateGraph::new(4, 2);
        graph.train(200, &mut ChaCha8Rng::seed_from_u64(2));
        let dot = graph.to_dot();
        assert!(dot.starts_with("digraph nim4 {"));
        assert!(dot.trim_end().ends_with('}'));
        for vertex in graph.vertices() {
            assert!(dot.contains(&format!("\"{}\";", vertex.name())));
        }
        let edge_lines: Vec<&str> = dot.lines().filter(|l| l.contains("->")).collect();
        assert_eq!(edge_lines.len(), graph.edges().len());
        for edge in graph.edges() {
            let line = edge_lines
                .iter()
                .find(|l| {
                    l.contains(&format!(
                        "\"{}\" -> \"{}\"",
                        edge.from.name(),
                        edge.to.name()
                    ))
                })
                .expect("every edge has a line");
            assert!(line.contains(&format!("label=\"{}\"", graph.weight(&edge))));
            assert_eq!(
                line.contains("bold"),
                graph.strongest(edge.from).contains(&edge)
            );
        }
    }
}
