//! A game set for print: the tags as a heading a reader reads (players with their colours, event,
//! place and date), the moves as running text (main line at body size, variations smaller in
//! parentheses, comments in italic, as books set them; a move number never parted from its
//! move), diagrams where the record asks for them and every N moves, and the final position with
//! an annotator's closing sentence, kept together. One document model, written as LaTeX needing
//! only TikZ ([`latex`], or [`latex_fragment`] to `\input` into a book) or as a PDF needing
//! nothing (`pdf`, feature `pdf`).
//!
//! A diagram is asked for by a comment containing [`DIAGRAM_MARKER`] (`{[%diagram]}`, the PGN
//! convention of a command in a comment): after a main-line move it shows the position after that
//! move; in the comments before the first move, the start. The marker is removed from the comment's
//! text. Markers inside variations are not drawn (a variation's positions are not the game's), and
//! the document's warnings say so.

mod latex;
#[cfg(feature = "pdf")]
mod pages;
mod prose;
#[cfg(feature = "viewer")]
pub(crate) use prose::reader_date;

pub use latex::{LatexBook, latex, latex_fragment};
#[cfg(feature = "pdf")]
pub use pages::{PdfBook, pdf};

use crate::board::Color;
use crate::diagnostic::quote;
use crate::export::adjudication::adjudicate;
use crate::export::diagram::{Coordinates, DiagramOptions, PT_PER_CM};
use crate::export::structured::{GameDoc, MoveDoc, VariationDoc};
use crate::notation::Game;
use crate::replay::Replay;
use crate::rules::margin::Budget;
use crate::rules::{MoveKind, Position};

/// The comment text that asks for a diagram.
pub const DIAGRAM_MARKER: &str = "[%diagram]";

/// Between a move number and its move: a no-break space, so that no line ends after "12.".
pub const NUMBER_SPACE: char = '\u{a0}';

/// How a game is set. Built from [`PrintOptions::default`] with its setters:
/// `PrintOptions::default().diagram_every(10)`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct PrintOptions {
    /// How every diagram is drawn (its caption and last move are set per diagram).
    pub diagram: DiagramOptions,
    /// A diagram after every N-th move (after Red's move completes it), besides the marked ones.
    pub diagram_every: Option<u32>,
}

impl PrintOptions {
    /// How every diagram is drawn (the field `diagram`; caption and last move are set per diagram).
    #[must_use]
    pub fn diagram(mut self, diagram: DiagramOptions) -> PrintOptions {
        self.diagram = diagram;
        self
    }

    /// A diagram after every N-th move besides the marked ones (the field `diagram_every`).
    #[must_use]
    pub fn diagram_every(mut self, diagram_every: impl Into<Option<u32>>) -> PrintOptions {
        self.diagram_every = diagram_every.into();
        self
    }
}

impl Default for PrintOptions {
    /// Diagrams 7.5 cm wide, a book's column, with square numbers and coordinates.
    fn default() -> PrintOptions {
        PrintOptions {
            diagram: DiagramOptions {
                width: Some(7.5 * PT_PER_CM),
                coordinates: Coordinates::Both,
                ..DiagramOptions::default()
            },
            diagram_every: None,
        }
    }
}

/// A game laid out as blocks, in reading order.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Document {
    /// "Green player – Red player", or the event.
    pub title: String,
    /// Who had which colour; event, site, date (as a reader reads it) and round; then the other
    /// tags a reader wants, each `Name: value` (never the result or margin, which the end gives).
    pub details: Vec<String>,
    /// The body: moves, comments, variations, diagrams and the ending.
    pub blocks: Vec<Block>,
    /// What the document could not show as the record asks (diagram markers in variations).
    pub warnings: Vec<String>,
}

/// One piece of a printed document.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Block {
    /// A paragraph of running text.
    Text(Vec<Run>),
    /// A diagram, its caption and last move set; it may float to the next page's top rather than
    /// leave a blank at the foot of this one.
    Diagram(Box<(Position, DiagramOptions)>),
    /// A section heading.
    Heading(String),
    /// Blocks that stay on one page: the final position's heading, diagram and closing sentence.
    Together(Vec<Block>),
}

/// A stretch of text in one style.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Run {
    /// The words; a move's number is joined to it by [`NUMBER_SPACE`].
    pub text: String,
    /// How they are set.
    pub style: Style,
    /// Inside a variation: set a size smaller.
    pub variation: bool,
}

/// How a run of text is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Style {
    /// A move with its number and annotations: one unit, never broken across lines.
    Move,
    /// A comment of the record: italic.
    Comment,
    /// Prose of ours (the closing sentence): roman.
    Plain,
}

/// Tags shown in the heading, or left out: the result and margin belong to the end.
const HEADING_TAGS: [&str; 11] = [
    "Green",
    "Red",
    "Event",
    "Site",
    "Date",
    "Round",
    "Result",
    "Margin",
    "Numbering",
    "Setup",
    "PlyCount",
];

/// Sets a game and its replay. `budget` bounds the margin count of the final adjudication; for
/// the same page on every run give it no time limit (`Budget::default().max_time(None)`, as
/// `salta convert` does), so that where a hard count stops does not depend on the machine's speed.
pub fn document(game: &Game, replay: &Replay, opts: &PrintOptions, budget: &Budget) -> Document {
    let doc = GameDoc::new(game, replay);
    let tag = |name: &str| {
        game.tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?")
    };
    let (green, red) = (tag("Green"), tag("Red"));
    let title = match (green, red) {
        (Some(green), Some(red)) => format!("{green} – {red}"),
        _ => tag("Event").unwrap_or("Salta").to_string(),
    };
    let mut details = Vec::new();
    let sides: Vec<String> = [("Green", green), ("Red", red)]
        .into_iter()
        .filter_map(|(side, name)| name.map(|n| format!("{side}: {n}")))
        .collect();
    if !sides.is_empty() {
        details.push(sides.join(" · "));
    }
    let mut place: Vec<String> = ["Event", "Site"]
        .into_iter()
        .filter_map(tag)
        .filter(|v| *v != title)
        .map(str::to_string)
        .collect();
    place.extend(tag("Date").and_then(prose::reader_date));
    place.extend(tag("Round").map(|r| format!("round {r}")));
    if !place.is_empty() {
        details.push(place.join(", "));
    }
    details.extend(
        doc.tags
            .iter()
            .filter(|(name, value)| !HEADING_TAGS.contains(&name.as_str()) && !value.is_empty())
            .map(|(name, value)| format!("{name}: {value}")),
    );
    let title = prose::typographic(&title);
    let details = details.iter().map(|d| prose::typographic(d)).collect();
    let mut setter = Setter {
        replay,
        opts,
        blocks: Vec::new(),
        paragraph: Vec::new(),
        warnings: Vec::new(),
        drawn: Vec::new(),
    };
    let plies = replay.plies();
    let opening = setter.comments(&doc.comments);
    if opening {
        setter.diagram(0, "The start".to_string());
    }
    setter.line(&doc.moves);
    setter.flush();
    let last = plies
        .checked_sub(1)
        .and_then(|i| doc.moves.iter().find(|m| m.ply == Some(i + 1)));
    let caption = match last {
        Some(m) => caption(m),
        None => "The start".to_string(),
    };
    let verdict = adjudicate(replay, plies, budget);
    let mut ending = vec![Block::Heading("Final position".to_string())];
    let mut final_diagram = setter.diagram_block(plies, caption);
    if let Block::Diagram(d) = &mut final_diagram
        && verdict.winner.is_some()
    {
        // The game is over: nobody is to move.
        d.1.side_to_move = false;
    }
    ending.push(final_diagram);
    ending.push(Block::Text(vec![Run {
        text: prose::closing(&verdict, &doc.result),
        style: Style::Plain,
        variation: false,
    }]));
    setter.blocks.push(Block::Together(ending));
    Document {
        title,
        details,
        blocks: setter.blocks,
        warnings: setter.warnings,
    }
}

/// Walks the moves, gathering the running text and cutting it for diagrams.
struct Setter<'a> {
    replay: &'a Replay,
    opts: &'a PrintOptions,
    blocks: Vec<Block>,
    paragraph: Vec<Run>,
    warnings: Vec<String>,
    /// Plies already drawn, so a marked move on an N-th move is drawn once.
    drawn: Vec<u32>,
}

impl Setter<'_> {
    fn push(&mut self, text: String, style: Style) {
        self.paragraph.push(Run {
            text,
            style,
            variation: false,
        });
    }

    fn flush(&mut self) {
        if !self.paragraph.is_empty() {
            self.blocks
                .push(Block::Text(std::mem::take(&mut self.paragraph)));
        }
    }

    /// Sets comments in the running text; returns whether one asked for a diagram.
    fn comments(&mut self, comments: &[String]) -> bool {
        let mut marked = false;
        for comment in comments {
            let (text, asks) = without_marker(comment);
            marked |= asks;
            if !text.is_empty() {
                self.push(prose::typographic(&text), Style::Comment);
            }
        }
        marked
    }

    fn diagram(&mut self, ply: u32, caption: String) {
        let block = self.diagram_block(ply, caption);
        self.blocks.push(block);
    }

    /// The diagram after `ply`, ending the paragraph before it.
    fn diagram_block(&mut self, ply: u32, caption: String) -> Block {
        self.flush();
        self.drawn.push(ply);
        let position = self.replay.position_at(ply);
        let last_move = ply
            .checked_sub(1)
            .and_then(|i| self.replay.moves.get(i as usize))
            .copied();
        let options = DiagramOptions {
            caption: Some(caption),
            last_move,
            ..self.opts.diagram.clone()
        };
        Block::Diagram(Box::new((position, options)))
    }

    /// The main line, numbered where a reader needs the number.
    fn line(&mut self, moves: &[MoveDoc]) {
        let mut numbered_next = true;
        for m in moves {
            self.push(text_of(m, numbered_next), Style::Move);
            numbered_next = m.side != Some(Color::Green);
            let marked = self.comments(&m.comments);
            for v in &m.variations {
                let mut runs = Vec::new();
                variation_runs(v, &mut runs, &mut self.warnings);
                parenthesised(&mut runs);
                self.paragraph.extend(runs);
            }
            if !m.comments.is_empty() || !m.variations.is_empty() {
                numbered_next = true;
            }
            let Some(ply) = m.ply else { continue };
            let every = self.opts.diagram_every.is_some_and(|n| {
                n > 0 && m.side == Some(Color::Red) && m.number.is_some_and(|k| k.is_multiple_of(n))
            });
            let last = ply == self.replay.plies();
            if (marked || (every && !last)) && !self.drawn.contains(&ply) {
                self.diagram(ply, caption(m));
                numbered_next = true;
            }
        }
    }
}

/// A variation as runs set a size smaller, its first move numbered.
fn variation_runs(v: &VariationDoc, runs: &mut Vec<Run>, warnings: &mut Vec<String>) {
    let run = |text: String, style: Style| Run {
        text,
        style,
        variation: true,
    };
    variation_notes(&v.comments, runs, warnings);
    let mut numbered_next = true;
    for m in &v.moves {
        runs.push(run(text_of(m, numbered_next), Style::Move));
        numbered_next = m.side != Some(Color::Green);
        variation_notes(&m.comments, runs, warnings);
        for inner in &m.variations {
            let mut nested = Vec::new();
            variation_runs(inner, &mut nested, warnings);
            parenthesised(&mut nested);
            runs.extend(nested);
        }
        if !m.comments.is_empty() || !m.variations.is_empty() {
            numbered_next = true;
        }
    }
}

/// Puts a variation's runs in parentheses, each joined to the word beside it ("(10… 72-62",
/// "tempo)"), never standing alone at a line's end or start.
fn parenthesised(runs: &mut [Run]) {
    if let Some(first) = runs.first_mut() {
        first.text.insert(0, '(');
    }
    if let Some(last) = runs.last_mut() {
        last.text.push(')');
    }
}

/// A variation's comments, with a warning for each diagram marker (not drawn).
fn variation_notes(comments: &[String], runs: &mut Vec<Run>, warnings: &mut Vec<String>) {
    for comment in comments {
        let (text, marked) = without_marker(comment);
        if marked {
            warnings.push(format!(
                "a diagram marker in a variation is not drawn (comment {})",
                quote(comment.trim())
            ));
        }
        if !text.is_empty() {
            runs.push(Run {
                text: prose::typographic(&text),
                style: Style::Comment,
                variation: true,
            });
        }
    }
}

/// A comment's text with the diagram marker taken out and its spaces evened, and whether it had
/// the marker.
fn without_marker(comment: &str) -> (String, bool) {
    let text = comment.replace(DIAGRAM_MARKER, "");
    let marked = text.len() != comment.len();
    (
        text.split_whitespace().collect::<Vec<_>>().join(" "),
        marked,
    )
}

/// A diagram's caption: "After 12. 33-43" (one line: plain spaces).
fn caption(m: &MoveDoc) -> String {
    format!("After {}", numbered(m, true).replace(NUMBER_SPACE, " "))
}

/// A move as printed: `12. 33-43`, `12… 68:48`, or the bare move between a pair's two moves.
fn text_of(m: &MoveDoc, numbered_next: bool) -> String {
    let show_number = numbered_next || m.side == Some(Color::Green);
    numbered(m, show_number)
}

fn numbered(m: &MoveDoc, show_number: bool) -> String {
    let mut text = match (show_number, m.number, m.side) {
        (true, Some(n), Some(Color::Green)) => format!("{n}.{NUMBER_SPACE}"),
        (true, Some(n), Some(Color::Red)) => format!("{n}…{NUMBER_SPACE}"),
        _ => String::new(),
    };
    text.push_str(&move_text(m));
    text
}

/// The move in numeric notation with its annotations: `33-43`, `44:64!`, `Su3-43`, `pass`.
fn move_text(m: &MoveDoc) -> String {
    let separator = match m.kind {
        MoveKind::Jump | MoveKind::FriendlyJump => ':',
        MoveKind::Step | MoveKind::Pass => '-',
    };
    let mut text = match (&m.from, &m.to) {
        // A move the reader could not read, as written.
        _ if m.written.is_some() => m.written.clone().unwrap_or_default(),
        _ if m.kind == MoveKind::Pass => "pass".to_string(),
        (Some(from), Some(to)) => format!("{}{separator}{}", from.numeric, to.numeric),
        (None, Some(to)) => format!(
            "{}{separator}{}",
            m.piece.as_deref().unwrap_or(""),
            to.numeric
        ),
        _ => "?".to_string(),
    };
    for a in &m.annotations {
        text.push_str(annotation(a));
    }
    if m.salta_called {
        text.push_str(" Salta!");
    }
    text
}

/// A move's annotation as printed: the glyph of the six common NAGs (`$1` → `!`), others as
/// written.
fn annotation(a: &str) -> &str {
    match a {
        "$1" => "!",
        "$2" => "?",
        "$3" => "!!",
        "$4" => "??",
        "$5" => "!?",
        "$6" => "?!",
        other => other,
    }
}
