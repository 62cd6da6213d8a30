//! The Self-play tab on screen: the board and who plays, what the learner makes of the
//! position (every move's prior, visits, Q and U beside the exact verdict), and how its
//! learning goes (games, losses, and the curve of positions whose value it keeps).

use super::SelfPlayTab;
use super::action::Action;
use super::game::TabGame;
use super::settings::PlayMode;
use super::state::SelfPlay;
use super::symbols;
use crate::components::mcts_search::outline::short_verdict;
use crate::components::mcts_search::pane::{pane_title, render_mcts};
use crate::domain::games::Outcome;
use crate::domain::numbers::thousands;
use crate::tabkit::tab::Training;
use crate::widgets::runs::{RunsChart, Scale};
use crate::widgets::symbols::{Gloss, Symbol};
use crate::widgets::{TabView, Theme, titled};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The board pane's width.
const BOARD_WIDTH: u16 = 26;
/// Lines above the legend under which a blank line sets it apart (a board of up to 5
/// rows leaves the room).
const SPACED_LEGEND_BELOW: usize = 13;
/// The learning pane's height.
const LEARNING_HEIGHT: u16 = 7;
/// The curve's levels, lowest first.
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

impl<G: TabGame> SelfPlay<G> {
    /// The tab's body: the board, and what the learner thinks and learns (or its stepped
    /// search, or its runs).
    pub(crate) fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        let [board, right] =
            Layout::horizontal([Constraint::Length(BOARD_WIDTH), Constraint::Fill(1)]).areas(body);
        // A short body (a lesson's pane below) keeps the table of moves whole: the learning
        // pane gives up its curve first.
        let learning_height = if body.height >= 21 {
            LEARNING_HEIGHT
        } else {
            LEARNING_HEIGHT - 2
        } + u16::from(self.versus().is_some());
        render_board(self, board, buf, theme);
        if self.runs.open {
            render_runs(self, right, buf, theme);
            return;
        }
        // The stepped search takes the whole column: a selection's comparison and the tree
        // under it need the rows.
        if let Some(view) = &self.stepping {
            let counter = self
                .step_count()
                .map(|(at, total)| crate::tabkit::goto::counter(at, total));
            let title = pane_title(view, counter.as_deref());
            let shown = (true, self.predict.is_some());
            render_mcts(view, &title, shown, right, buf, theme);
            return;
        }
        let [thinks, learning] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(learning_height)])
                .areas(right);
        render_thinking(self, thinks, buf, theme);
        render_learning(self, learning, buf, theme);
    }
}

impl<G: TabGame> SelfPlay<G> {
    /// Its last scores against the fixed opponents, where its game measures them.
    fn versus(&self) -> Option<crate::domain::learn::selfplay::saved::Versus> {
        self.shown.curve.last()?.versus
    }
}

/// The move under a click on the board of `_game`.
fn click_on<G: TabGame>(_game: &SelfPlay<G>, body: Rect, at: Position) -> Option<Action> {
    let inner = Rect::new(body.x + 1, body.y + 1, BOARD_WIDTH - 2, body.height);
    if !inner.contains(at) {
        return None;
    }
    let index = G::clicked(at.x - inner.x, at.y - inner.y)?;
    Some(Action::Place(u8::try_from(index + 1).ok()?))
}

impl TabView for SelfPlayTab {
    fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        each_game!(&self.shown, play => play.render(body, buf, theme));
    }

    fn click(&self, body: Rect, at: Position) -> Option<Action> {
        each_game!(&self.shown, play => click_on(play, body, at))
    }

    fn symbols(&self) -> Vec<Symbol> {
        symbols::ALL.to_vec()
    }

    fn words(&self) -> Vec<Gloss> {
        symbols::words()
    }
}

fn render_board<G: TabGame>(tab: &SelfPlay<G>, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let mut lines = tab.board.board_view(theme);
    lines.push(Line::from(""));
    let opens = |side| {
        if side == G::players()[0] {
            " (opens)"
        } else {
            ""
        }
    };
    lines.push(Line::from(format!(
        "You: {}{}",
        G::side_name(tab.human),
        opens(tab.human)
    )));
    let ai = tab.ai_side();
    lines.push(Line::from(format!(
        "It:  {}{}",
        G::side_name(ai),
        opens(ai)
    )));
    lines.push(Line::styled(
        format!("     by {}", mode_short(tab)),
        theme.dim,
    ));
    lines.push(turn_line(tab, theme));
    let t = &tab.tally;
    lines.push(Line::styled(
        format!("You {} · it {} · draws {}", t.won, t.lost, t.drawn),
        theme.dim,
    ));
    // Connect Four's tall board leaves no row to spare at 80x24: the legend follows at once.
    if lines.len() < SPACED_LEGEND_BELOW {
        lines.push(Line::from(""));
    }
    for line in [
        "P   the network's prior",
        "N   the search's visits",
        "Q   their mean value",
        "U   exploration bonus",
        "exact  perfect play",
    ] {
        lines.push(Line::styled(line, theme.dim));
    }
    lines.push(Line::styled(
        format!(
            "{} it plays {} net's pick",
            symbols::CHOSEN.glyph,
            symbols::FAVOURITE.glyph
        ),
        theme.dim,
    ));
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(titled(format!(" {} ", G::TITLE), theme))
        .render(area, buf);
}

/// The network's favourite move, or that it has none while its priors are all but even.
fn favourite_words<G: TabGame>(analysis: &super::analysis::Analysis<G>) -> String {
    let priors = analysis.rows.iter().map(|row| row.prior);
    let spread = priors.clone().fold(f32::MIN, f32::max) - priors.fold(f32::MAX, f32::min);
    if spread < 0.005 {
        "its priors even".to_string()
    } else {
        format!("favourite {}", G::move_words(analysis.network_move))
    }
}

/// How the learner plays, short enough for the board pane.
fn mode_short<G: TabGame>(tab: &SelfPlay<G>) -> String {
    match tab.config.mode {
        PlayMode::Search => format!("net + {} sims", tab.config.simulations),
        PlayMode::Network => "network alone".to_string(),
    }
}

fn turn_line<G: TabGame>(tab: &SelfPlay<G>, theme: &Theme) -> Line<'static> {
    match tab.board.outcome() {
        Some(Outcome::Winner(side)) if side == tab.human => {
            Line::styled(format!("{}: you win!", G::WIN_WORDS), theme.title)
        }
        Some(Outcome::Winner(_)) => {
            Line::styled(format!("{}: it wins.", G::WIN_WORDS), theme.title)
        }
        Some(Outcome::Draw) => Line::styled("A draw.", theme.title),
        None if tab.stepping.is_some() => Line::from(vec![
            Span::styled("Its move: ", theme.title),
            Span::raw("step it"),
        ]),
        None => Line::from(vec![
            Span::styled("Your move: ", theme.title),
            Span::raw(format!("1-{}", G::MOVES)),
            Span::styled(" · g game", theme.dim),
        ]),
    }
}

fn render_thinking<G: TabGame>(tab: &SelfPlay<G>, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = titled(" What it thinks of this position ".to_string(), theme);
    let Some(analysis) = &tab.analysis else {
        let said = "The game is over: r starts a new one. y shows why it played each move.";
        Paragraph::new(Line::styled(said, theme.dim))
            .wrap(Wrap { trim: true })
            .block(block)
            .render(area, buf);
        return;
    };
    let plays = match tab.config.mode {
        PlayMode::Search => analysis.search_move,
        PlayMode::Network => analysis.network_move,
    };
    let mut lines = vec![Line::styled(
        format!("{:>6}  prior P  visits N      Q     U  exact", G::MOVE_WORD),
        theme.title,
    )];
    for row in &analysis.rows {
        let mark = if row.index == plays {
            symbols::CHOSEN.glyph
        } else if row.index == analysis.network_move {
            symbols::FAVOURITE.glyph
        } else {
            " "
        };
        let q_style = if row.q > 0.0 {
            theme.positive
        } else if row.q < 0.0 {
            theme.negative
        } else {
            theme.dim
        };
        lines.push(Line::from(vec![
            Span::raw(format!(
                "{mark}  {:>3}    {:>5.2}  {:>8}  ",
                row.index + 1,
                row.prior,
                row.visits
            )),
            Span::styled(format!("{:>+5.2}", row.q), q_style),
            Span::raw(format!("  {:>4.2}  ", row.u)),
            Span::styled(
                row.exact.map_or_else(|| "?".to_string(), short_verdict),
                theme.dim,
            ),
        ]));
    }
    let mover = analysis.position.mover_words();
    lines.push(Line::from(format!(
        "Network: value {:+.2} for {mover}, {}.",
        analysis.value,
        favourite_words::<G>(analysis)
    )));
    lines.push(Line::from(format!(
        "Search of {} simulations: visits {} {} most.",
        analysis.simulations,
        G::MOVE_WORD,
        G::move_words(analysis.search_move)
    )));
    Paragraph::new(lines).block(block).render(area, buf);
}

fn render_learning<G: TabGame>(tab: &SelfPlay<G>, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let shown = &tab.shown;
    let state = match tab.training() {
        _ if matches!(tab.learner, super::state::Learner::Gone) => "lost",
        Training::Running if tab.stopping => "stopping, then saving",
        Training::Running => "training",
        Training::Waiting => crate::tabkit::background::WAITING_FOR_TRAINER,
        Training::Idle => "resting",
    };
    let mut lines = vec![Line::from(format!(
        "{} games · {:.0} s of training · buffer {}",
        thousands(shown.progress.games),
        shown.seconds,
        thousands(shown.buffered as u64)
    ))];
    let last = shown.curve.last();
    lines.push(Line::from(if shown.progress.batches == 0 {
        "loss: none yet".to_string()
    } else {
        format!(
            "loss: policy {:.3} value {:.3}",
            shown.progress.losses.policy, shown.progress.losses.value
        )
    }));
    if let Some(point) = last {
        lines.push(Line::from(format!(
            "keeps the value: network {:.1}% · search {:.1}%",
            point.network_kept, point.searched_kept
        )));
    } else {
        lines.push(Line::styled(
            "Not trained yet: t starts games against itself.",
            theme.info,
        ));
    }
    if let Some(versus) = tab.versus() {
        lines.push(Line::from(format!(
            "vs random {:.0}% · MCTS-1000 {:.0}% · net vs αβ4 {:.0}%",
            versus.random, versus.mcts, versus.alphabeta
        )));
    }
    let width = usize::from(area.width.saturating_sub(12));
    let curve = |pick: fn(&crate::domain::learn::selfplay::saved::CurvePoint) -> f64| {
        let points: Vec<f64> = shown.curve.iter().map(pick).collect();
        sparkline(&points[points.len().saturating_sub(width)..])
    };
    lines.push(Line::from(vec![
        Span::styled("network  ", theme.dim),
        Span::raw(curve(|p| p.network_kept)),
    ]));
    lines.push(Line::from(vec![
        Span::styled("search   ", theme.dim),
        Span::raw(curve(|p| p.searched_kept)),
    ]));
    Paragraph::new(lines)
        .block(titled(format!(" Learning by self-play: {state} "), theme))
        .render(area, buf);
}

/// The runs compared: the run in force and the kept runs drawn, with the legend.
fn render_runs<G: TabGame>(tab: &SelfPlay<G>, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = titled(
        " Runs: positions the network alone keeps ".to_string(),
        theme,
    );
    let inner = block.inner(area);
    block.render(area, buf);
    let settings = tab.run_words();
    let curve = tab.run_curve();
    RunsChart {
        runs: &tab.runs,
        current: (&settings, &curve),
        scale: Scale::Share,
        x_axis: ("games", tab.run_games()),
        y_title: "kept".into(),
        kept_by: "a new learner (T)",
    }
    .render(inner, buf, theme);
}

/// Percentages as one character each, 50% and below lowest, 100% highest.
pub(crate) fn sparkline(points: &[f64]) -> String {
    points
        .iter()
        .map(|&p| {
            let level = ((p - 50.0) / 50.0 * 7.0).round().clamp(0.0, 7.0) as usize;
            LEVELS[level]
        })
        .collect()
}

#[cfg(test)]
mod favourite_tests {
    use super::favourite_words;
    use crate::domain::games::tictactoe::Board;
    use crate::tabs::selfplay::analysis::{Analysis, MoveRow};
    use crate::tabs::selfplay::game::TabGame as _;

    fn analysis(priors: &[f32]) -> Analysis<Board> {
        let rows = priors
            .iter()
            .enumerate()
            .map(|(index, &prior)| MoveRow {
                index,
                prior,
                visits: 0,
                q: 0.0,
                u: 0.0,
                exact: None,
            })
            .collect();
        Analysis {
            position: Board::start(),
            value: 0.0,
            network_move: 0,
            search_move: 0,
            simulations: 0,
            rows,
        }
    }

    /// Even priors name no favourite: the first of equals is not one.
    #[test]
    fn even_priors_have_no_favourite() {
        let even = analysis(&[0.25; 4]);
        assert_eq!(favourite_words(&even), "its priors even");
        let mut leaning = analysis(&[0.4, 0.2, 0.2, 0.2]);
        leaning.network_move = 0;
        assert_eq!(favourite_words(&leaning), "favourite 1");
    }
}
