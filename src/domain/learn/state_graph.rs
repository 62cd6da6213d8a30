//! The State-Graph Learner of original program 002: Nim(k) as a directed graph of states (player to
//! move, tokens left), every edge weighted, trained from random games: each edge the winner took
//! gets +1, each edge the loser took -1. It also counts, per edge, the won and lost games that
//! crossed it, so a weight can say where it came from.

use crate::domain::solve::state_graph::winning_take;
use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A player of Nim(k) as the original program names it in the vertex names (`p1-10`): 1 moves
/// first.
///
/// The same idea as Eight's `Seat` (first or second to move), kept apart because this one is
/// part of the saved graph (`state-graph.json` spells it `One` / `Two`) and `games/`, where a
/// shared type would have to live, keeps serde to the values a user names. Neither says
/// whether the person or the AI plays; a tab says that with `tabkit::side::Side`.
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
///
/// The crossing counts came after the first files were saved: a file without them loads
/// with empty counts (serde's defaults), and [`StateGraph::problem`] then takes it in with
/// every count 0 and its games counted as `uncounted`, so a record can say which part of a
/// weight it cannot break down.
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
    /// Per edge (same index as `weights`): the games its mover won that crossed it.
    #[serde(default)]
    won: Vec<u64>,
    /// Per edge: the games its mover lost that crossed it.
    #[serde(default)]
    lost: Vec<u64>,
    /// Games learned before crossings were counted (a graph saved by an earlier version):
    /// their +1s and -1s are in the weights but in no count.
    #[serde(default)]
    uncounted: u64,
}

/// How an edge's weight was made: the games that crossed it since crossings were counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crossings {
    /// Games crossing the edge that its mover won (+1 each).
    pub won: u64,
    /// Games crossing the edge that its mover lost (-1 each).
    pub lost: u64,
    /// Games the graph learned before it counted crossings (their share of the weight is
    /// not broken down).
    pub uncounted: u64,
}

/// What the graph weighed at a state: every move with its weight and crossings, and the
/// strongest ones (more than one when tied).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weighing {
    /// The state.
    pub at: Vertex,
    /// Every move out of it, smallest take first, with its weight and crossings.
    pub options: Vec<(Edge, i64, Crossings)>,
    /// The moves of the largest weight, smallest take first.
    pub strongest: Vec<Edge>,
}

/// A move the graph played and what it weighed to choose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// What it weighed.
    pub weighing: Weighing,
    /// The move played: the one strongest edge, or the one the seeded draw picked among
    /// the tied ones.
    pub chosen: Edge,
}

impl StateGraph {
    /// The graph of Nim(`tokens`) with takes 1..=`max_take`, every weight 0.
    pub fn new(tokens: u32, max_take: u32) -> Self {
        let max_take = max_take.max(1);
        Self {
            tokens,
            max_take,
            weights: vec![0; Self::edge_slots(tokens, max_take)],
            games: 0,
            won: vec![0; Self::edge_slots(tokens, max_take)],
            lost: vec![0; Self::edge_slots(tokens, max_take)],
            uncounted: 0,
        }
    }

    /// One slot per (player, tokens, take), legal or not: the length of every per-edge list.
    fn edge_slots(tokens: u32, max_take: u32) -> usize {
        2 * (tokens as usize + 1) * max_take as usize
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
            if edge.from.player == winner {
                self.weights[index] += 1;
                self.won[index] += 1;
            } else {
                self.weights[index] -= 1;
                self.lost[index] += 1;
            }
        }
        self.games += 1;
    }

    /// The games that crossed `edge`, won and lost by its mover.
    pub fn crossings(&self, edge: &Edge) -> Crossings {
        let index = self.edge_index(edge);
        Crossings {
            won: self.won.get(index).copied().unwrap_or(0),
            lost: self.lost.get(index).copied().unwrap_or(0),
            uncounted: self.uncounted,
        }
    }

    /// Every move out of `vertex` with its weight and crossings, and the strongest ones.
    pub fn weigh(&self, vertex: Vertex) -> Weighing {
        let options: Vec<(Edge, i64, Crossings)> = self
            .out_edges(vertex)
            .into_iter()
            .map(|e| (e, self.weight(&e), self.crossings(&e)))
            .collect();
        Weighing {
            at: vertex,
            strongest: self.strongest(vertex),
            options,
        }
    }

    /// The graph's move at `vertex`: a strongest edge, ties drawn from `rng` (one draw,
    /// even when there is no tie, as the game always drew); `None` with no move left.
    pub fn choose(&self, vertex: Vertex, rng: &mut ChaCha8Rng) -> Option<Choice> {
        let weighing = self.weigh(vertex);
        let &chosen = weighing.strongest.choose(rng)?;
        Some(Choice { weighing, chosen })
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
        let slots = Self::edge_slots(self.tokens, self.max_take);
        self.max_take >= 1
            && self.weights.len() == slots
            && self.won.len() == slots
            && self.lost.len() == slots
    }

    /// A graph read from a file saved before crossings were counted (no counts at all):
    /// every count 0, its games so far uncounted. Any other graph is left as it is.
    #[must_use]
    pub fn with_counts(mut self) -> Self {
        if self.won.is_empty() && self.lost.is_empty() && self.uncounted == 0 {
            let slots = self.weights.len();
            self.won = vec![0; slots];
            self.lost = vec![0; slots];
            self.uncounted = self.games;
        }
        self
    }

    /// Why a loaded graph cannot be the one the config asks for (Nim(`tokens`) with takes
    /// 1-`max_take`, ranges checked by the config): another game, a weight or count list
    /// that does not match its edges, or numbers no training writes. A game passes an edge
    /// at most once, so no weight exceeds the games played, an edge's won and lost games
    /// are at most the games counted, and its weight is its won less its lost games, give or
    /// take one per uncounted game. (Take a file saved before the counts through
    /// [`StateGraph::with_counts`] first.)
    pub fn problem(&self, tokens: u32, max_take: u32) -> Option<String> {
        if self.tokens != tokens || self.max_take != max_take {
            return Some(format!(
                "a graph of Nim({}) with takes 1-{}, the config asks for Nim({tokens}) with takes 1-{max_take}",
                self.tokens, self.max_take
            ));
        }
        if !self.is_well_formed() {
            return Some(format!(
                "{} weights and {}/{} crossing counts, Nim({tokens}) with takes 1-{max_take} has {}",
                self.weights.len(),
                self.won.len(),
                self.lost.len(),
                Self::edge_slots(tokens, max_take)
            ));
        }
        if let Some(w) = self.weights.iter().find(|w| w.unsigned_abs() > self.games) {
            return Some(format!(
                "a weight of {w} after {} games: no training writes that",
                self.games
            ));
        }
        if self.uncounted > self.games {
            return Some(format!(
                "{} uncounted games of {}: no training writes that",
                self.uncounted, self.games
            ));
        }
        let counted = self.games - self.uncounted;
        (0..self.weights.len()).find_map(|i| {
            let (w, won, lost) = (self.weights[i], self.won[i], self.lost[i]);
            let crossed = won.checked_add(lost).filter(|&c| c <= counted);
            let made = i128::from(won) - i128::from(lost);
            let off = (i128::from(w) - made).unsigned_abs();
            (crossed.is_none() || off > u128::from(self.uncounted)).then(|| {
                format!(
                    "an edge of weight {w} crossed by {won} won and {lost} lost games \
                     ({counted} counted): no training writes that"
                )
            })
        })
    }

    /// Every weight back to 0.
    pub fn reset(&mut self) {
        self.weights.fill(0);
        self.won.fill(0);
        self.lost.fill(0);
        self.uncounted = 0;
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
/// A file saved before crossings were counted is taken in with its games uncounted.
pub fn usable(tokens: u32, max_take: u32) -> impl Fn(StateGraph) -> Result<StateGraph, String> {
    move |graph| {
        let graph = graph.with_counts();
        match graph.problem(tokens, max_take) {
            None => Ok(graph),
            Some(why) => Err(why),
        }
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
    fn every_weight_is_its_won_less_its_lost_crossings() {
        let mut graph = StateGraph::new(10, 2);
        graph.train(3_000, &mut ChaCha8Rng::seed_from_u64(8));
        for edge in graph.edges() {
            let c = graph.crossings(&edge);
            assert_eq!(graph.weight(&edge), c.won as i64 - c.lost as i64);
            assert!(c.won + c.lost <= graph.games);
            assert_eq!(c.uncounted, 0);
        }
        // p1-2 taking 2 always wins the game it is played in.
        let take_two = Edge {
            from: vertex(1, 2),
            to: vertex(2, 0),
        };
        assert_eq!(graph.crossings(&take_two).lost, 0);
        assert!(graph.crossings(&take_two).won > 0);
        assert_eq!(graph.problem(10, 2), None);
        graph.reset();
        assert!(graph.edges().iter().all(|e| graph.crossings(e).won == 0));
    }

    #[test]
    fn a_file_saved_before_the_counts_loads_with_its_games_uncounted() {
        let mut graph = StateGraph::new(10, 2);
        graph.train(500, &mut ChaCha8Rng::seed_from_u64(2));
        let mut json: serde_json::Value = serde_json::to_value(&graph).unwrap();
        let fields = json.as_object_mut().unwrap();
        for old in ["won", "lost", "uncounted"] {
            assert!(fields.remove(old).is_some(), "{old} is saved");
        }
        let read: StateGraph = serde_json::from_value(json).unwrap();
        let mut loaded = usable(10, 2)(read).expect("an old file is usable");
        assert_eq!(loaded.uncounted, 500);
        let edge = loaded.strongest(loaded.start())[0];
        assert_eq!(loaded.weight(&edge), graph.weight(&edge), "weights kept");
        assert_eq!(
            (loaded.crossings(&edge).won, loaded.crossings(&edge).lost),
            (0, 0)
        );
        // Training on counts from there; the check still holds, and holds after a save.
        loaded.train(300, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(loaded.problem(10, 2), None);
        let again: StateGraph =
            serde_json::from_str(&serde_json::to_string(&loaded).unwrap()).unwrap();
        assert_eq!(usable(10, 2)(again), Ok(loaded));
    }

    #[test]
    fn counts_no_training_writes_are_refused() {
        let mut graph = StateGraph::new(4, 2);
        graph.train(50, &mut ChaCha8Rng::seed_from_u64(1));
        let edge = graph.out_edges(graph.start())[0];
        let index = graph.edge_index(&edge);
        let mut more_won = graph.clone();
        more_won.won[index] += 1;
        assert!(
            more_won
                .problem(4, 2)
                .unwrap()
                .contains("no training writes")
        );
        let mut too_many = graph.clone();
        too_many.won[index] += 100;
        too_many.weights[index] += 100;
        assert!(
            too_many.problem(4, 2).is_some(),
            "more crossings than games"
        );
        let mut short = graph.clone();
        short.lost.pop();
        assert!(short.problem(4, 2).unwrap().contains("crossing counts"));
        let mut uncounted = graph;
        uncounted.uncounted = 51;
        assert!(uncounted.problem(4, 2).is_some());
    }

    #[test]
    fn the_graph_chooses_a_strongest_edge_with_the_draw_the_game_always_made() {
        let mut graph = StateGraph::new(10, 2);
        graph.train(40, &mut ChaCha8Rng::seed_from_u64(6));
        for vertex in graph.vertices().into_iter().filter(|v| v.tokens > 0) {
            let mut a = ChaCha8Rng::seed_from_u64(9);
            let mut b = a.clone();
            let choice = graph.choose(vertex, &mut a).unwrap();
            let before = *graph.strongest(vertex).choose(&mut b).unwrap();
            assert_eq!(choice.chosen, before);
            assert_eq!(a.random::<u64>(), b.random::<u64>(), "same stream after");
            assert!(choice.weighing.strongest.contains(&choice.chosen));
            assert_eq!(choice.weighing.options.len(), graph.out_edges(vertex).len());
        }
        let over = vertex(1, 0);
        assert_eq!(graph.choose(over, &mut ChaCha8Rng::seed_from_u64(1)), None);
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
