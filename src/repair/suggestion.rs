//! One reading of a break, as data: where the edit stands, what it changes, the slip it undoes and
//! how the record then fares; in words through its `Display` and methods.

use super::slips::SlipKind;
use super::token::Token;
use crate::board::Color;
use crate::notation::{Game, GameResult, MoveNode, Span};
use crate::rules::margin::Remaining;
use std::fmt;

/// How much dearer (`-ln`) than a break's best reading another may be to be named beside it
/// where both replay the record alike to its end: about a seventh as likely (decision 191).
pub(super) const CLOSE: f64 = 2.0;

/// How the reading of a move put in from text the reader left out is said (after `read from`
/// and the word).
pub(super) const READ_FROM_LEFT_OUT: &str = "which the reader did not take for a move";

/// A change to a line: `removed` written moves from `start` replaced by `inserted`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Change {
    /// Index of the first written move changed.
    pub start: usize,
    /// How many written moves are taken out.
    pub removed: usize,
    /// The moves put in their place.
    pub inserted: Vec<Token>,
}

/// The cost of a move misread at all (about one move in a hundred), paid once for each move an
/// edit touches: what makes one misread move likelier than two.
pub(crate) const SLIP: f64 = 4.6;

/// An edit the search tries: the slip it undoes, the change, and its cost (the cost of a slip
/// and `-ln` of the weight of the slip's kind or of its characters' edits).
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub kind: SlipKind,
    pub change: Change,
    pub cost: f64,
    /// The characters' edits in words (`S for 5, - left out`), for the kinds the character
    /// model names.
    pub detail: Option<String>,
}

impl Candidate {
    /// A slip of a kind whose weight is its prior.
    pub(crate) fn of_kind(kind: SlipKind, change: Change) -> Candidate {
        Candidate {
            kind,
            change,
            cost: SLIP - kind.prior().ln(),
            detail: None,
        }
    }
}

/// What an edit does, as the JSON report names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum EditKind {
    /// A move read as another.
    Replace,
    /// A move left out, put back.
    Insert,
    /// A move written twice, once taken out.
    Delete,
    /// A token read as no move (a speck, a move number, the result glued on) taken out.
    Remove,
    /// Two moves written in each other's place, swapped back.
    Swap,
    /// The record is numbered from Red's side: a Numbering tag to add.
    Renumber,
}

impl SlipKind {
    pub(crate) fn edit(self) -> EditKind {
        match self {
            SlipKind::Dropped => EditKind::Insert,
            SlipKind::Doubled => EditKind::Delete,
            SlipKind::Transposed => EditKind::Swap,
            SlipKind::RedNumbering => EditKind::Renumber,
            _ => EditKind::Replace,
        }
    }
}

/// A reading's margin, counted, against the record's Margin tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarginCount {
    /// The margin the game is won by when read so.
    pub counted: Remaining,
    /// What the Margin tag says.
    pub recorded: u32,
}

impl MarginCount {
    /// Whether the count agrees with the tag; `None` when the margin could only be bounded and the
    /// bounds allow the tag's.
    pub fn agrees(&self) -> Option<bool> {
        match self.counted {
            Remaining::Exact(n) => Some(n == self.recorded),
            Remaining::Bounds { lower, upper } => {
                (self.recorded < lower || upper.is_some_and(|u| self.recorded > u)).then_some(false)
            }
            Remaining::Unreachable => None,
        }
    }
}

/// The number of a move as a record writes it before the move: `8.` for Green, `8...` for Red.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The move number.
    pub number: u32,
    /// The side that makes the move.
    pub side: Color,
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.side == Color::Green {
            "."
        } else {
            "..."
        };
        write!(f, "{}{dots}", self.number)
    }
}

/// One reading of a break: an edit to the record, the slip it undoes, and how the record then
/// fares. Its `Display` is the reading in words, as `check` says it after "did you mean".
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Suggestion {
    /// The ply (1-based from the game's start) of the first move the edit touches.
    pub(crate) ply: u32,
    /// What the edit does.
    pub(crate) edit: EditKind,
    /// The moves as they should read, in the record's notation (for `renumber`, the tag to add).
    pub(crate) text: String,
    /// The slip, in words.
    pub(crate) why: String,
    /// Each move put in, as the record writes it (with ` Salta!` where called).
    #[serde(skip)]
    pub(crate) moves: Vec<String>,
    /// Plies of the record that replay after the edit: all of them when it replays to its end.
    pub(crate) replays: u32,
    #[serde(skip)]
    pub(crate) kind: SlipKind,
    /// The edit, in written moves of the record as read.
    #[serde(skip)]
    pub(crate) change: Change,
    /// The same edit in the line as the search had it then (earlier repairs made).
    #[serde(skip)]
    pub(crate) line_change: Change,
    /// Where the edit stands in the record's text (empty: before the move at its start).
    #[serde(skip)]
    pub(crate) span: Span,
    #[serde(skip)]
    pub(crate) was: String,
    #[serde(skip)]
    pub(crate) to_end: bool,
    #[serde(skip)]
    pub(crate) result: Option<(GameResult, bool)>,
    #[serde(skip)]
    pub(crate) margin: Option<MarginCount>,
    /// Plies between the edit and the move where the record broke.
    #[serde(skip)]
    pub(crate) back: u32,
    #[serde(skip)]
    pub(crate) number: MoveNumber,
    /// The edit's cost, `-ln` of how likely the slip is (a slip's own cost included).
    #[serde(skip)]
    pub(crate) cost: f64,
    /// It replays to the end with the recorded result and the record has a Margin tag, but
    /// margins were not counted (`--margins never`): the tag might tell it from a rival.
    #[serde(skip)]
    pub(crate) margin_uncounted: bool,
    /// What the next breaks cost with this reading made, more than with the best, where that
    /// told it from readings that fare alike at their own break (0 otherwise).
    #[serde(skip)]
    pub(crate) later: f64,
    /// Read at a break while later breaks were still unmended, it replays the line alike to the
    /// same result once they are mended, as the best reading there does: a rival to name
    /// (decision 231).
    #[serde(skip)]
    pub(crate) alike_once_mended: bool,
    /// A reading of a page read whole at once: the game replays to its end with the readings
    /// of its other breaks made too, not with this one alone. In JSON only where true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) read_whole: bool,
}

impl Suggestion {
    /// The ply (1-based from the game's start) of the first move the edit touches.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The number of the move where the edit stands, with its side.
    pub fn move_number(&self) -> MoveNumber {
        self.number
    }

    /// What the edit does.
    pub fn edit(&self) -> EditKind {
        self.edit
    }

    /// The kind of slip the edit undoes.
    pub fn slip(&self) -> SlipKind {
        self.kind
    }

    /// The slip, in words (`digits swapped`).
    pub fn why(&self) -> &str {
        &self.why
    }

    /// The word the reader left out that the edit's move was read from, where it puts one in
    /// so (a move taken for a move number, `4132.`, or for a speck).
    pub fn read_from_left_out(&self) -> Option<&str> {
        if self.edit != EditKind::Insert {
            return None;
        }
        let (before, _) = self.why.split_once(&format!(", {READ_FROM_LEFT_OUT}"))?;
        before.rsplit_once("read from ").map(|(_, word)| word)
    }

    /// The moves as they should read, in the record's notation (for a renumbering, the tag to add;
    /// for a deletion, nothing).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What the record wrote where the edit stands (empty for an insertion).
    pub fn was(&self) -> &str {
        &self.was
    }

    /// Where the edit stands in the record's text: the moves it changes, or (empty) the place
    /// where a move is put in.
    pub fn span(&self) -> Span {
        self.span
    }

    /// Plies of the record that replay after the edit: all of them when it replays to its end.
    pub fn replays(&self) -> u32 {
        self.replays
    }

    /// Whether the record then replays to its end.
    pub fn replays_to_end(&self) -> bool {
        self.to_end
    }

    /// The result the record then ends with, and whether it is the recorded one (`None`: the game
    /// is not decided at its end, or nothing is recorded).
    pub fn result(&self) -> Option<(GameResult, bool)> {
        self.result
    }

    /// Its margin, where it was counted against the Margin tag (to tell readings apart that
    /// replay alike).
    pub fn margin(&self) -> Option<MarginCount> {
        self.margin
    }

    /// Plies between the edit and the move where the record broke (0: at it).
    pub fn plies_before_break(&self) -> u32 {
        self.back
    }

    /// The reading in one sentence, after "did you mean" or "or", said at the move where the
    /// record breaks (an edit before it is counted back from it). The same as `Display`.
    pub fn reading(&self) -> String {
        self.described(false)
    }

    /// The reading in one sentence; `placed`: said wherever it stands, by its move number (in a
    /// comment of `salta repair`, away from the break).
    fn described(&self, placed: bool) -> String {
        let number = &self.number;
        let whole = match self.edit {
            EditKind::Renumber => format!("the tag {}", self.text),
            EditKind::Insert if placed => format!("{number} {} put in", self.text),
            EditKind::Insert => format!("{number} {} before it", self.text),
            EditKind::Delete if placed => format!("{number} {} once", self.was),
            EditKind::Delete => format!("{} once", self.was),
            EditKind::Swap => format!("{number} {}", self.text),
            EditKind::Remove if self.back > 0 || placed => {
                format!("{number} {} taken out", self.was)
            }
            EditKind::Remove => format!("{} taken out", self.was),
            _ if self.back > 0 || placed => format!("{number} {} for {}", self.text, self.was),
            _ => self.text.clone(),
        };
        let earlier = match (placed, self.back) {
            (true, _) | (false, 0) => String::new(),
            (false, 1) => ", 1 ply earlier".to_string(),
            (false, n) => format!(", {n} plies earlier"),
        };
        format!("{whole} ({}{earlier})", self.why)
    }

    /// Names in the reason its rivals, `named` as written with their misreadings, with which
    /// the moves after it replay alike: only the source can decide (decisions 180, 191).
    pub(super) fn name_rivals(&mut self, named: &str) {
        self.why = format!(
            "{}; or read as {named} (the moves after it replay alike: see the source)",
            self.why
        );
    }

    /// This reading offered after the best one, which it fares exactly as well as (see
    /// [`Suggestion::equally_good`]), with why nothing decides between them. `at_break`: in the
    /// help of `check` at the breaking move, with what then happens; else placed by its move
    /// number, for the comment and report of `salta repair`.
    pub fn just_as_well(&self, at_break: bool) -> String {
        let undecided = if self.margin_uncounted {
            "these two cannot be told apart without counting the margin: --margins tagged may \
             settle it"
        } else {
            "the record cannot tell these two apart: see the source"
        };
        if at_break {
            format!(
                "or, just as well, {}: {} ({undecided})",
                self.reading(),
                self.consequence()
            )
        } else {
            format!("or, just as well, {}: {undecided}", self.described(true))
        }
    }

    /// Whether this reading took the word at `word`, after the one it reads, into its move
    /// (`OL 81` read as 91-81): that word is said by this reading, not as a move of its own.
    pub(crate) fn takes_in(&self, word: Span) -> bool {
        self.span.start < word.start && word.end <= self.span.end
    }

    /// Whether this reading fares exactly as `other` does: the same kind of edit and slip, and the
    /// record then replays as far and ends the same way. Nothing in the record prefers either.
    pub fn equally_good(&self, other: &Suggestion) -> bool {
        // The cost is the slip's prior (of its kind, or of its characters' edits): readings of
        // one cost are equally likely a priori.
        self.edit == other.edit
            && (self.cost - other.cost).abs() < 1e-6
            && (self.later - other.later).abs() < 1e-6
            && self.to_end == other.to_end
            && self.replays == other.replays
            && self.result == other.result
            && self.margin.map(|m| m.counted) == other.margin.map(|m| m.counted)
    }

    /// What then happens, for the help line.
    pub fn consequence(&self) -> String {
        let said = self.consequence_here();
        match self.later > 0.0 {
            true => format!("{said}, and the breaks after it read worse"),
            false => said,
        }
    }

    /// What then happens at this break.
    fn consequence_here(&self) -> String {
        let said = self.consequence_alone();
        match self.read_whole {
            true => format!("read with the rest of the page, {said}"),
            false => said,
        }
    }

    /// What then happens at this break, with the reading made.
    fn consequence_alone(&self) -> String {
        if !self.to_end {
            return format!(
                "the record then replays {} plies and breaks again",
                self.replays
            );
        }
        let exact = self
            .margin
            .and_then(|m| m.counted.exact().map(|n| (n, m.recorded)));
        match (self.result, exact) {
            (Some((r, true)), Some((n, recorded))) if n == recorded => format!(
                "the game then replays to its end and its result {} and margin {n} hold",
                r.as_str()
            ),
            (Some((r, true)), Some((n, recorded))) => format!(
                "the game then replays to its end and its result {} holds, but it is won by \
                 {n}, not {recorded}",
                r.as_str()
            ),
            (Some((r, true)), None) => format!(
                "the game then replays to its end and its result {} holds",
                r.as_str()
            ),
            (Some((r, false)), _) => format!(
                "the game then replays to its end, but it ends {}, not as recorded",
                r.as_str()
            ),
            (None, _) => "the game then replays to its end".to_string(),
        }
    }
}

impl fmt::Display for Suggestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reading())
    }
}

impl Suggestion {
    /// The reading as edits of the record's text, each a byte range of `game.text` (the game
    /// the reading was made for) and what to put there, first to last: each written move
    /// replaced in its place (its number, comments and variations stay), a move read with the
    /// text after it replaced with that text (and written with its number), a move put in or
    /// taken out (with its number), or the Numbering tag added after the tags. None for a
    /// reading inside a variation that puts moves in.
    pub fn text_edits(&self, game: &Game) -> Vec<(std::ops::Range<usize>, String)> {
        let nodes = &game.mainline.moves;
        let span = self.span;
        // A move's own text, with its "Salta!" call (a reading writes its own).
        let whole =
            |n: &MoveNode| n.span.start as usize..n.salta().map_or(n.span.end, |c| c.end) as usize;
        let covered: Vec<&MoveNode> = nodes
            .iter()
            .filter(|n| n.span.start >= span.start && n.span.end <= span.end && !span.is_empty())
            .collect();
        // The reading's moves one by one ("Salta!" goes with the move before it).
        let mut tokens: Vec<String> = Vec::new();
        for word in self.text.split_whitespace() {
            match tokens.last_mut() {
                Some(last) if word.eq_ignore_ascii_case("salta!") => {
                    last.push(' ');
                    last.push_str(word);
                }
                _ => tokens.push(word.to_string()),
            }
        }
        match self.edit {
            EditKind::Renumber => vec![game.tag_line_edit(&self.text)],
            EditKind::Insert => {
                let at = span.start as usize;
                match nodes.iter().find(|n| n.span.start as usize == at) {
                    Some(_) => vec![(at..at, format!("{} ", self.text))],
                    // After the main line's last move.
                    None if nodes.last().is_none_or(|n| at >= n.span.end as usize) => {
                        let at = nodes.last().map_or(at, |n| whole(n).end);
                        vec![(at..at, format!(" {}", self.text))]
                    }
                    None => Vec::new(),
                }
            }
            EditKind::Delete => {
                let (Some(first), Some(last)) = (covered.first(), covered.last()) else {
                    return Vec::new();
                };
                // A move taken out goes with its number and the space after it.
                let from = first.number.map_or(first.span.start, |n| n.span.start) as usize;
                let mut to = whole(last).end;
                let rest = &game.text[to..];
                to += rest.len() - rest.trim_start().len();
                vec![(from..to, String::new())]
            }
            // Read with the text after it (`103-84-95.` for `103. 84-95`): the number it held
            // is written before it.
            _ if matches!(covered[..], [n] if span.end as usize > whole(n).end) => {
                let n = covered[0];
                let from = n.number.map_or(n.span.start, |n| n.span.start) as usize;
                vec![(
                    from..span.end as usize,
                    format!("{} {}", self.number, self.text),
                )]
            }
            _ if !covered.is_empty() && covered.len() == tokens.len() => covered
                .iter()
                .zip(tokens)
                .map(|(n, text)| (whole(n), text))
                .collect(),
            _ => match covered.last() {
                Some(last) => vec![(span.start as usize..whole(last).end, self.text.clone())],
                None => Vec::new(),
            },
        }
    }
}
