//! The canonical SGN writer: one byte-exact form for each game (notation.md, last section).

use super::ast::*;
use super::move_text::MoveText;
use crate::board::{BoardKind, Color, Geometry};
use crate::rules::{MoveLimit, Odds, Rules, Turn};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::str::FromStr;

/// How [`write_game`] writes a game: `WriteOptions::default().notation(Notation::Algebraic)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {
    /// The notation of the moves.
    pub notation: Notation,
    /// Square numbers counted from Red's side, under `[Numbering "red"]` (a record kept in its
    /// own numbers); by default the standard orientation, without the tag.
    pub from_red: bool,
}

impl WriteOptions {
    /// The notation of the moves (the field `notation`).
    #[must_use]
    pub fn notation(mut self, notation: Notation) -> WriteOptions {
        self.notation = notation;
        self
    }

    /// Square numbers counted from Red's side, with `[Numbering "red"]` (the field `from_red`).
    #[must_use]
    pub fn from_red(mut self, from_red: bool) -> WriteOptions {
        self.from_red = from_red;
        self
    }

    /// Square numbers as `game` counts them: a record numbered from Red's side keeps its own
    /// numbers and its tag, in any notation that numbers squares (algebraic names them alike
    /// from either side; decision 77). Set the notation first.
    #[must_use]
    pub fn numbered_as(self, game: &Game) -> WriteOptions {
        let from_red = game.numbered_from_red() && self.notation != Notation::Algebraic;
        self.from_red(from_red)
    }
}

/// Tags written first, in this order; the rest follow as read.
const TAG_ORDER: [&str; 7] = ["Event", "Site", "Date", "Round", "Green", "Red", "Result"];
/// Dropped: squares are written in the standard orientation, or the tag is written anew
/// ([`WriteOptions::from_red`]).
const DROPPED_TAGS: [&str; 1] = ["Numbering"];
const WIDTH: usize = 80;

/// The canonical text of a game: tags, a blank line, movetext wrapped at 80 columns, the result
/// token, a final newline. Games in a file are separated by one blank line (the caller's).
pub fn write_game(game: &Game, options: &WriteOptions) -> String {
    let mut out = String::with_capacity(game.text.len() + 128);
    let mut tags: Vec<&Tag> = Vec::with_capacity(game.tags.len());
    for name in TAG_ORDER {
        tags.extend(game.tags.iter().filter(|t| t.name == name));
    }
    tags.extend(
        game.tags
            .iter()
            .filter(|t| !TAG_ORDER.contains(&&*t.name) && !DROPPED_TAGS.contains(&&*t.name)),
    );
    let numbering = Tag {
        name: "Numbering".into(),
        value: "red".into(),
        span: Span::default(),
    };
    if options.from_red {
        tags.push(&numbering);
    }
    for tag in &tags {
        out.push('[');
        out.push_str(&tag.name);
        out.push_str(" \"");
        for c in tag.value.chars() {
            match c {
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                '\n' | '\r' => out.push(' '),
                _ => out.push(c),
            }
        }
        out.push_str("\"]\n");
    }
    if !tags.is_empty() {
        out.push('\n');
    }
    let mut w = Movetext {
        out,
        column: 0,
        opens: 0,
        geometry: Geometry::of(board_of_rules(game.tag("Rules").unwrap_or_default())),
        notation: options.notation,
        from_red: options.from_red,
        scratch: String::new(),
        text: &game.text,
    };
    let rules = numbering_rules(game);
    w.variation(&game.mainline, first_turn(game, &rules), &rules);
    let result = game
        .result
        .map(|(r, _)| r)
        .or_else(|| game.tag("Result").and_then(|r| r.parse().ok()))
        .unwrap_or(GameResult::Unknown);
    w.token(result.as_str());
    w.out.push('\n');
    w.out
}

/// The rules the move numbers follow: the odds rhythm and the move limits of the Odds and
/// MoveLimit tags (a tag that cannot be read counts as absent, as the replayer takes it).
fn numbering_rules(game: &Game) -> Rules {
    let mut rules = Rules::from_str(game.tag("Rules").unwrap_or_default()).unwrap_or_default();
    rules.move_limit = MoveLimit::parse(game.tag("MoveLimit").unwrap_or_default()).unwrap_or(None);
    rules.odds = Odds::parse(game.tag("Odds").unwrap_or_default()).unwrap_or(None);
    rules
}

/// The first turn: from the `Setup` tag (`R/…/…/12`: Red to move at move 12), else Green's move 1.
fn first_turn(game: &Game, rules: &Rules) -> Turn {
    let Some(setup) = game.tag("Setup") else {
        return Turn::new(Color::Green, 1, rules);
    };
    let mut fields = setup.trim().split('/');
    let side = match fields.next().map(str::trim) {
        Some("R" | "r") => Color::Red,
        _ => Color::Green,
    };
    let number = fields
        .nth(2)
        .and_then(|n| n.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    Turn::new(side, number, rules)
}

struct Movetext<'g> {
    out: String,
    /// Characters on the current line.
    column: usize,
    /// `(` waiting to be glued to the next token.
    opens: usize,
    geometry: &'static Geometry,
    notation: Notation,
    from_red: bool,
    scratch: String,
    /// The game's text, where a move that could not be read is taken from as written.
    text: &'g str,
}

impl Movetext<'_> {
    /// Writes a token, separated by a space or, past 80 columns, by a line break.
    fn token(&mut self, token: &str) {
        let width = self.opens + token.chars().count();
        if self.column > 0 {
            if self.column + 1 + width > WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        for _ in 0..self.opens {
            self.out.push('(');
        }
        self.out.push_str(token);
        self.column = match token.rfind('\n') {
            Some(p) => token[p + 1..].chars().count(),
            None => self.column + width,
        };
        self.opens = 0;
    }

    fn close(&mut self) {
        if self.opens > 0 {
            self.token("");
        }
        if self.column + 1 > WIDTH {
            self.out.push('\n');
            self.column = 0;
        }
        self.out.push(')');
        self.column += 1;
    }

    /// Writes the token held in `scratch`.
    fn flush_scratch(&mut self) {
        let token = std::mem::take(&mut self.scratch);
        self.token(&token);
        self.scratch = token;
        self.scratch.clear();
    }

    fn comment(&mut self, comment: &Comment) {
        // The written form's lines end in LF: lone CRs left in a comment (from a `;` comment)
        // could make the whole output look like a file of CR-ended lines. A lone CR becomes a
        // space, as in a tag, but one that starts a line is kept: it may stand before a `[`,
        // which would otherwise start a tag line and end the comment; kept so, lone CRs are never
        // more than the LFs before them.
        let text = if comment.text.contains('\r') {
            let mut out = String::with_capacity(comment.text.len());
            let mut chars = comment.text.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\r' if chars.peek() == Some(&'\n') => {}
                    '\r' if !out.ends_with('\n') => out.push(' '),
                    c => out.push(c),
                }
            }
            Cow::Owned(out)
        } else {
            Cow::Borrowed(comment.text.as_str())
        };
        if text.contains('}') && !text.contains('\n') {
            // Cannot be braced: a `;` comment runs to the end of the line.
            self.scratch.push(';');
            self.scratch.push_str(&text);
            self.flush_scratch();
            self.out.push('\n');
            self.column = 0;
            return;
        }
        self.scratch.push('{');
        self.scratch.push_str(&text.replace('}', ")"));
        self.scratch.push('}');
        self.flush_scratch();
    }

    fn played(&mut self, node: &MoveNode) {
        if let Played::Garbled = node.played {
            // Kept as written, for a person or `salta repair` to mend.
            let written = self.text.get(node.span.range()).unwrap_or_default();
            self.scratch.push_str(written);
            return;
        }
        let text =
            MoveText::of_played(&node.played, self.notation, self.geometry).from_red(self.from_red);
        let _ = write!(self.scratch, "{text}");
    }

    /// Writes a line from `turn`. A move is numbered where the text breaks (after a comment or a
    /// variation), where Green's group starts, and where any group starts under odds or after the
    /// same side's group (the other side at its limit): `1. 33-43 32-42 1... 83-73 84-74 93-83`.
    fn variation(&mut self, variation: &Variation, mut turn: Turn, rules: &Rules) {
        // Whether the last thing written was the previous move (so the next needs no number).
        let mut continues = false;
        let mut correction = false;
        // Who played the previous move written.
        let mut previous: Option<Color> = None;
        for c in &variation.comments {
            self.comment(c);
        }
        for m in &variation.moves {
            // In Salta a pass stands for the turn of a side at its move limit (Pyramid passes are
            // moves).
            let limit_pass =
                matches!(m.played, Played::Pass) && self.geometry.kind == BoardKind::Salta;
            let (number, side, starts_group) = if limit_pass {
                let (number, side) = turn.passed();
                (number, side, previous != Some(side))
            } else {
                (turn.number(), turn.side(), turn.run() == 0)
            };
            let new_group = starts_group
                && !correction
                && (side == Color::Green || rules.odds.is_some() || previous == Some(side));
            if !continues || new_group {
                let dots = if side == Color::Green { "." } else { "..." };
                let _ = write!(self.scratch, "{number}{dots}");
                self.flush_scratch();
            }
            self.played(m);
            for (i, a) in m.annotations().iter().enumerate() {
                match a {
                    Annotation::Suffix(s) if i == 0 => self.scratch.push_str(s),
                    Annotation::Suffix(s) => {
                        self.flush_scratch();
                        self.scratch.push_str(s);
                    }
                    Annotation::Nag(n) => {
                        self.flush_scratch();
                        let _ = write!(self.scratch, "${n}");
                    }
                }
            }
            self.flush_scratch();
            if m.salta().is_some() {
                self.token("Salta!");
            }
            // The move after a garbled move is numbered, as after a comment: the reader's
            // recovery may take the words after a garbled one for a part of it (a move a space
            // split, a designator), and a number between them keeps each what it was.
            continues = !matches!(m.played, Played::Garbled);
            for c in m.comments() {
                self.comment(c);
                continues = false;
            }
            for v in m.variations() {
                self.opens += 1;
                self.variation(v, turn, rules);
                self.close();
                continues = false;
            }
            correction = m.salta().is_some();
            previous = Some(side);
            if !correction && !limit_pass {
                // Completion is not known here: a side that completes inside its group is taken
                // to play on (docs/decisions.md).
                turn.next(rules, |_| false);
            }
        }
    }
}
