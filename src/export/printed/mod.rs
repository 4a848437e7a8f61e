//! A game set for print: the tags as a heading, the moves as running text (main line in bold,
//! comments and variations in roman, variations in parentheses, as books set them), diagrams where
//! the record asks for them and every N moves, and the final position with its adjudication at the
//! end. One document model, written as LaTeX needing only TikZ ([`latex`]) or as a PDF needing
//! nothing ([`pdf`]).
//!
//! A diagram is asked for by a comment containing [`DIAGRAM_MARKER`] (`{[%diagram]}`, the PGN
//! convention of a command in a comment): after a main-line move it shows the position after that
//! move; in the comments before the first move, the start. The marker is removed from the comment's
//! text. Markers inside variations are not drawn (a variation's positions are not the game's), and
//! the document's warnings say so.

mod latex;
#[cfg(feature = "pdf")]
mod pages;

pub use latex::latex;
#[cfg(feature = "pdf")]
pub use pages::pdf;

use crate::board::{Color, Square};
use crate::export::adjudication::adjudicate;
use crate::export::diagram::{Coordinates, DiagramOptions, PT_PER_CM};
use crate::export::structured::{GameDoc, MoveDoc, VariationDoc};
use crate::notation::Game;
use crate::replay::Replay;
use crate::rules::margin::Budget;
use crate::rules::{MoveKind, Position};

/// The comment text that asks for a diagram.
pub const DIAGRAM_MARKER: &str = "[%diagram]";

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
    /// Event, site, date and round on one line; the other tags, each `Name: value`.
    pub details: Vec<String>,
    /// The body: moves, comments, variations, diagrams and the adjudication.
    pub blocks: Vec<Block>,
    /// What the document could not show as the record asks (diagram markers in variations).
    pub warnings: Vec<String>,
}

/// One piece of a printed document.
#[derive(Clone, Debug)]
pub enum Block {
    /// A paragraph of running text.
    Text(Vec<Run>),
    /// A diagram, its caption and last move set.
    Diagram(Box<(Position, DiagramOptions)>),
    /// A section heading.
    Heading(String),
}

/// A stretch of text in one style.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Run {
    /// The words.
    pub text: String,
    /// How they are set.
    pub style: Style,
}

/// How a run of text is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A main-line move: bold.
    Move,
    /// Comments, variations, prose: roman.
    Plain,
}

/// Tags shown in the heading rather than listed.
const HEADING_TAGS: [&str; 8] = [
    "Green",
    "Red",
    "Event",
    "Site",
    "Date",
    "Round",
    "Result",
    "Numbering",
];

/// Sets a game and its replay. `budget` bounds the margin count of the final adjudication.
pub fn document(game: &Game, replay: &Replay, opts: &PrintOptions, budget: &Budget) -> Document {
    let doc = GameDoc::new(game, replay);
    let tag = |name: &str| game.tag(name).filter(|v| !v.trim().is_empty() && *v != "?");
    let title = match (tag("Green"), tag("Red")) {
        (Some(green), Some(red)) => format!("{green} – {red}"),
        _ => tag("Event").unwrap_or("Salta").to_string(),
    };
    let place: Vec<&str> = ["Event", "Site", "Date", "Round"]
        .into_iter()
        .filter_map(tag)
        .collect();
    let mut details = Vec::new();
    if !place.is_empty() {
        details.push(place.join(", "));
    }
    details.extend(
        doc.tags
            .iter()
            .filter(|(name, value)| !HEADING_TAGS.contains(&name.as_str()) && !value.is_empty())
            .map(|(name, value)| format!("{name}: {value}")),
    );
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
    setter
        .blocks
        .push(Block::Heading("Final position".to_string()));
    let last = plies
        .checked_sub(1)
        .and_then(|i| doc.moves.iter().find(|m| m.ply == Some(i + 1)));
    let caption = match last {
        Some(m) => format!("After {}", numbered(m, true)),
        None => "The start".to_string(),
    };
    setter.diagram(plies, caption);
    let verdict = adjudicate(replay, plies, budget);
    let mut ending = format!("{}. ", doc.result);
    ending.push_str(&capitalised(&verdict.reason));
    match (verdict.winner, verdict.margin, verdict.margin_bounds) {
        (Some(w), Some(m), _) => ending.push_str(&format!("; {w} wins by {m}.")),
        (Some(w), None, Some((lo, Some(hi)))) => {
            ending.push_str(&format!("; {w} wins by {lo} to {hi} (proven bounds)."))
        }
        _ => ending.push('.'),
    }
    setter.blocks.push(Block::Text(vec![Run {
        text: ending,
        style: Style::Plain,
    }]));
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
        self.paragraph.push(Run { text, style });
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
                self.push(text, Style::Plain);
            }
        }
        marked
    }

    fn diagram(&mut self, ply: u32, caption: String) {
        self.flush();
        self.drawn.push(ply);
        let position = self.replay.position_at(ply);
        let last_move = ply
            .checked_sub(1)
            .and_then(|i| self.replay.moves.get(i as usize))
            .map(|m| (m.from, m.to));
        let options = DiagramOptions {
            caption: Some(caption),
            last_move: last_move.filter(|&(from, to): &(Square, Square)| from != to),
            ..self.opts.diagram.clone()
        };
        self.blocks
            .push(Block::Diagram(Box::new((position, options))));
    }

    /// The main line: moves in bold, numbered where a reader needs the number.
    fn line(&mut self, moves: &[MoveDoc]) {
        let mut numbered_next = true;
        for m in moves {
            self.push(text_of(m, numbered_next), Style::Move);
            numbered_next = m.side != Some(Color::Green);
            let marked = self.comments(&m.comments);
            for v in &m.variations {
                let text = format!("({})", variation_text(v, &mut self.warnings));
                self.push(text, Style::Plain);
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
                self.diagram(ply, format!("After {}", numbered(m, true)));
                numbered_next = true;
            }
        }
    }
}

/// A variation in running text: every move plain, the first one numbered.
fn variation_text(v: &VariationDoc, warnings: &mut Vec<String>) -> String {
    let mut parts: Vec<String> = Vec::new();
    variation_notes(&v.comments, &mut parts, warnings);
    let mut numbered_next = true;
    for m in &v.moves {
        parts.push(text_of(m, numbered_next));
        numbered_next = m.side != Some(Color::Green);
        variation_notes(&m.comments, &mut parts, warnings);
        for inner in &m.variations {
            let text = variation_text(inner, warnings);
            parts.push(format!("({text})"));
        }
        if !m.comments.is_empty() || !m.variations.is_empty() {
            numbered_next = true;
        }
    }
    parts.join(" ")
}

/// A variation's comments, with a warning for each diagram marker (not drawn).
fn variation_notes(comments: &[String], parts: &mut Vec<String>, warnings: &mut Vec<String>) {
    for comment in comments {
        let (text, marked) = without_marker(comment);
        if marked {
            warnings.push(format!(
                "a diagram marker in a variation is not drawn (comment {:?})",
                comment.trim()
            ));
        }
        if !text.is_empty() {
            parts.push(text);
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

/// A move as printed: `12. 33-43`, `12… 68:48`, or the bare move between a pair's two moves.
fn text_of(m: &MoveDoc, numbered_next: bool) -> String {
    let show_number = numbered_next || m.side == Some(Color::Green);
    numbered(m, show_number)
}

fn numbered(m: &MoveDoc, show_number: bool) -> String {
    let mut text = match (show_number, m.number, m.side) {
        (true, Some(n), Some(Color::Green)) => format!("{n}. "),
        (true, Some(n), Some(Color::Red)) => format!("{n}… "),
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
        text.push_str(a);
    }
    if m.salta_called {
        text.push_str(" Salta!");
    }
    text
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
