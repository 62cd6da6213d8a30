//! Drawing the runs a tab keeps (`tabkit::runs`): a chart of the run in force with the marked
//! runs overlaid, each with its own marker, and a legend of every run with its settings, so
//! "original recipe vs default" is one screen, told apart without colour.

use super::Theme;
use crate::tabkit::runs::{Run, Runs};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget};

/// The run in force: a fine Braille line, and the legend's glyph for it.
const CURRENT: (Marker, &str) = (Marker::Braille, "⣀");

/// A kept run's marker and legend glyph, by its number: a run keeps its marker whatever
/// else is drawn.
pub fn run_marker(number: usize) -> (Marker, &'static str) {
    const MARKERS: [(Marker, &str); 3] =
        [(Marker::Dot, "•"), (Marker::Bar, "▄"), (Marker::Block, "█")];
    MARKERS[number % MARKERS.len()]
}

/// What a tab's chart of runs needs besides the runs.
pub struct RunsChart<'a> {
    /// The runs kept, and the list's state.
    pub runs: &'a Runs,
    /// The run in force: its settings in words and its curve.
    pub current: (&'a str, &'a [(f64, f64)]),
    /// How the y values are drawn (`log10` for a loss) and written.
    pub scale: Scale,
    /// The x axis: its title and the end of the run in force (the epochs it will train).
    pub x_axis: (&'a str, f64),
    /// The y axis's title.
    pub y_title: String,
    /// What keeps a run for the list, in words (`"a retrain (t)"`), for the list's note
    /// while it holds none.
    pub kept_by: &'a str,
}

/// How a chart draws its y values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// log10 of the value (a loss falling over decades), labelled `1e-3`.
    Log,
    /// The value as it is, a share from 0 to 1, labelled as a percentage.
    Share,
}

impl Scale {
    fn y(self, value: f64) -> f64 {
        match self {
            Self::Log => value.max(1e-12).log10(),
            Self::Share => value,
        }
    }

    fn label(self, y: f64) -> String {
        match self {
            Self::Log => format!("1e{}", y as i32),
            Self::Share => format!("{:.0}%", y * 100.0),
        }
    }

    /// A value as the legend writes it.
    pub fn written(self, value: f64) -> String {
        match self {
            Self::Log => format!("{value:.1e}"),
            Self::Share => format!("{:.1}%", value * 100.0),
        }
    }

    /// The y bounds around the drawn values: whole decades, or 0 to 100%.
    fn bounds(self, ys: impl Iterator<Item = f64>) -> [f64; 2] {
        match self {
            Self::Share => [0.0, 1.0],
            Self::Log => {
                let (low, high) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), y| {
                    (l.min(y), h.max(y))
                });
                if low.is_finite() {
                    [low.floor(), high.ceil().max(low.floor() + 1.0)]
                } else {
                    [0.0, 1.0]
                }
            }
        }
    }
}

/// What tells runs apart: of each run's settings (parts joined by ", ", in the same order
/// for every run of a tab), the parts in which some run differs; all of them for a run
/// alone. The legend has room for little, and what is the same for every run says nothing.
pub fn distinguishing(settings: &[&str]) -> Vec<String> {
    let parts: Vec<Vec<&str>> = settings.iter().map(|s| s.split(", ").collect()).collect();
    let differs = |i: usize| {
        parts
            .iter()
            .any(|p| p.get(i) != parts.first().and_then(|first| first.get(i)))
    };
    parts
        .iter()
        .map(|p| {
            let shown: Vec<&str> = p
                .iter()
                .enumerate()
                .filter(|&(i, _)| parts.len() == 1 || differs(i))
                .map(|(_, part)| *part)
                .collect();
            if shown.is_empty() {
                "the same settings".to_string()
            } else {
                shown.join(", ")
            }
        })
        .collect()
}

/// At most this many points a curve is drawn with: every k-th sample.
const DRAWN_POINTS: usize = 200;

fn drawn(points: &[(f64, f64)], scale: Scale) -> Vec<(f64, f64)> {
    let every = points.len().div_ceil(DRAWN_POINTS).max(1);
    points
        .iter()
        .step_by(every)
        .map(|&(x, y)| (x, scale.y(y)))
        .collect()
}

impl RunsChart<'_> {
    /// The chart, and under it the legend when there is anything to compare (a kept run,
    /// or the list open): each run's settings whole, wrapped, unless that takes more than
    /// half the area, when each run keeps to one line, cut at the width.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let mut legend = self.legend(area.width, true, theme);
        if legend.len() > usize::from(area.height / 2) {
            legend = self.legend(area.width, false, theme);
        }
        let legend_height = u16::try_from(legend.len()).unwrap_or(u16::MAX);
        let [chart, below] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(legend_height)]).areas(area);
        self.chart(chart, buf, theme);
        Paragraph::new(legend).render(below, buf);
    }

    fn chart(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let scale = self.scale;
        let current = drawn(self.current.1, scale);
        let marked: Vec<(&Run, Vec<(f64, f64)>)> = self
            .runs
            .marked()
            .map(|run| (run, drawn(&run.points, scale)))
            .collect();
        let x_end = marked
            .iter()
            .filter_map(|(run, _)| run.points.last().map(|p| p.0))
            .fold(self.x_axis.1, f64::max);
        let y_bounds = scale.bounds(
            current
                .iter()
                .chain(marked.iter().flat_map(|(_, points)| points.iter()))
                .map(|p| p.1),
        );
        // Kept runs first, so the run in force is drawn over them.
        let mut datasets: Vec<Dataset> = marked
            .iter()
            .map(|(run, points)| {
                Dataset::default()
                    .marker(run_marker(run.number).0)
                    .graph_type(GraphType::Scatter)
                    .style(theme.dim)
                    .data(points)
            })
            .collect();
        datasets.push(
            Dataset::default()
                .marker(CURRENT.0)
                .graph_type(GraphType::Line)
                .style(theme.key)
                .data(&current),
        );
        Chart::new(datasets)
            .x_axis(
                Axis::default()
                    .title(self.x_axis.0)
                    .bounds([0.0, x_end])
                    .labels(vec![Span::raw("0"), Span::raw(format!("{x_end}"))]),
            )
            .y_axis(
                Axis::default()
                    .title(self.y_title.clone())
                    .bounds(y_bounds)
                    .labels(vec![
                        Span::raw(scale.label(y_bounds[0])),
                        Span::raw(scale.label(y_bounds[1])),
                    ]),
            )
            .render(area, buf);
    }

    /// One line per run: the cursor (list open), its glyph (blank when not drawn), its name,
    /// its last value and its settings, cut to the width.
    fn legend(&self, width: u16, wrap: bool, theme: &Theme) -> Vec<Line<'static>> {
        let runs = self.runs;
        if runs.kept().next().is_none() && !runs.open {
            return Vec::new();
        }
        let last = |points: &[(f64, f64)]| {
            points
                .last()
                .map_or("-".to_string(), |&(_, y)| self.scale.written(y))
        };
        let mut rows = vec![(
            CURRENT.1,
            format!("run {} now", runs.current_number()),
            last(self.current.1),
            self.current.0.to_string(),
            true,
        )];
        rows.extend(runs.kept().map(|run| {
            (
                if run.marked {
                    run_marker(run.number).1
                } else {
                    " "
                },
                run.name(),
                last(&run.points),
                run.settings.clone(),
                run.marked,
            )
        }));
        let width = usize::from(width);
        let settings = distinguishing(&rows.iter().map(|row| row.3.as_str()).collect::<Vec<_>>());
        let mut lines: Vec<Line<'static>> = rows
            .into_iter()
            .zip(settings)
            .enumerate()
            .flat_map(|(row, ((glyph, name, value, _, drawn), settings))| {
                let cursor = if runs.open && row == runs.selected {
                    "›"
                } else {
                    " "
                };
                let head = format!("{cursor}{glyph} {name:<9} {value:>7}  ");
                let style = if runs.open && row == runs.selected {
                    theme.cursor
                } else if drawn {
                    theme.key
                } else {
                    theme.dim
                };
                legend_lines(&head, &settings, width, wrap)
                    .into_iter()
                    .map(move |text| Line::styled(text, style))
            })
            .collect();
        if runs.open && runs.kept().next().is_none() {
            lines.push(Line::styled(
                " No run kept yet: S changes the settings,",
                theme.dim,
            ));
            lines.push(Line::styled(
                format!(" {} keeps the run it replaces.", self.kept_by),
                theme.dim,
            ));
        }
        lines
    }
}

/// A run's legend: `head` (cursor, glyph, name, value), then its settings, wrapped at their
/// commas onto lines indented under the first, so no setting is cut; a part longer than a
/// whole line alone is cut at the width. Without `wrap` (or no room beside the head), one
/// line cut at the width.
fn legend_lines(head: &str, settings: &str, width: usize, wrap: bool) -> Vec<String> {
    let indent = head.chars().count();
    if !wrap || indent >= width {
        return vec![format!("{head}{settings}").chars().take(width).collect()];
    }
    let mut lines = vec![head.to_string()];
    for (i, part) in settings.split(", ").enumerate() {
        let last = lines.last_mut().expect("the head's line");
        let part = if i + 1 < settings.split(", ").count() {
            format!("{part},")
        } else {
            part.to_string()
        };
        let used = last.chars().count();
        let fits = used + usize::from(used > indent) + part.chars().count() <= width;
        if fits || used == indent {
            if used > indent {
                last.push(' ');
            }
            last.push_str(&part);
        } else {
            lines.push(format!("{}{part}", " ".repeat(indent)));
        }
    }
    lines
        .into_iter()
        .map(|line| line.chars().take(width).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where wrapped legends would take more than half the area, each run keeps to one
    /// line and every run is still listed.
    #[test]
    fn a_tall_legend_keeps_a_line_a_run() {
        // Every part differs from run to run, so the legend shows them all.
        let settings = |s: u32| {
            format!("width {s}, sims {s}0, c_puct {s}, noise 0.{s}, rate 0.00{s}, seed {s}")
        };
        let mut runs = Runs::default();
        for s in 1..=3 {
            runs.keep(settings(s), &[(0.0, 0.5), (1.0, 0.6)]);
        }
        let current = settings(9);
        let area = Rect::new(0, 0, 40, 12);
        let mut buf = Buffer::empty(area);
        RunsChart {
            runs: &runs,
            current: (&current, &[(0.0, 0.4)]),
            scale: Scale::Share,
            x_axis: ("games", 1.0),
            y_title: "kept".into(),
            kept_by: "a retrain (t)",
        }
        .render(area, &mut buf, &Theme::new(false));
        let rows: Vec<String> = (0..12)
            .map(|y| (0..40).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        let legend: Vec<&String> = rows.iter().filter(|row| row.contains("run ")).collect();
        assert_eq!(legend.len(), 4, "{rows:#?}");
        assert!(
            rows[8].contains("run 4 now"),
            "the legend takes the last four rows: {rows:#?}"
        );
    }

    /// Long settings go on lines of their own under the first, whole, at their commas.
    #[test]
    fn a_long_legend_wraps_at_its_commas() {
        let lines = legend_lines(
            ">* run 1  ",
            "width 64, sims 50, c_puct 3, seed 5",
            26,
            true,
        );
        assert_eq!(
            lines,
            [
                ">* run 1  width 64,",
                "          sims 50,",
                "          c_puct 3, seed 5",
            ]
            .map(String::from)
        );
        assert_eq!(
            legend_lines("ab ", "x, y", 80, true),
            ["ab x, y".to_string()]
        );
        assert_eq!(legend_lines("ab ", "x, y", 5, false), ["ab x,".to_string()]);
        assert_eq!(legend_lines("abcd ", "x, y", 4, true), ["abcd".to_string()]);
    }

    #[test]
    fn the_legend_names_only_what_tells_the_runs_apart() {
        let shown = distinguishing(&[
            "cross-entropy, rate 0.12, 14 hidden, seed 9",
            "squared error, rate 0.12, 14 hidden, seed 8",
            "cross-entropy, rate 0.5, 14 hidden, seed 8",
        ]);
        assert_eq!(
            shown,
            [
                "cross-entropy, rate 0.12, seed 9",
                "squared error, rate 0.12, seed 8",
                "cross-entropy, rate 0.5, seed 8",
            ]
        );
        assert_eq!(
            distinguishing(&["a, b"]),
            ["a, b"],
            "a run alone: everything"
        );
        assert_eq!(distinguishing(&["a, b", "a, b"]), ["the same settings"; 2]);
    }
}
