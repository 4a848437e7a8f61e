//! The syntax tree of an SGN record. It says what was written, where (byte spans into the game's
//! text), and nothing of legality: the replayer decides that.

use super::safe_text::printable;
use crate::board::BoardKind;
use crate::board::Square;
use crate::rules::{MAX_PIECES, Piece, PieceKind, Rules};
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// A byte range in [`Game::text`]. Offsets are 32-bit, which keeps the tree small; the reader
/// refuses games that large long before (see [`crate::notation::Limits::game_bytes`]).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// The span of bytes `start..end`.
    ///
    /// # Panics
    ///
    /// When an offset does not fit in 32 bits (a text of 4 GiB or more). The reader never makes
    /// such a span: it refuses games far smaller ([`crate::notation::Limits::game_bytes`]).
    #[inline(always)]
    pub fn new(start: usize, end: usize) -> Span {
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(start), Ok(end)) => Span { start, end },
            _ => panic!("the span {start}..{end} passes 4 GiB"),
        }
    }

    /// The byte range, for slicing [`Game::text`].
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// How many bytes the span covers (0 for an inverted span).
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }

    /// Whether the span covers no byte.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> miette::SourceSpan {
        (s.start as usize, s.len()).into()
    }
}

/// One game as read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The game's own text, exactly as read (decoded to UTF-8); every span points into it.
    pub text: String,
    /// Byte offset of the game's first byte in its file.
    pub offset: u64,
    /// 1-based line of the game's first byte in its file.
    pub line: u32,
    /// 1-based column of the game's first byte (1 unless it follows a result on the same line).
    pub column: u32,
    /// Tags in the order read.
    pub tags: Vec<Tag>,
    /// The moves as written, with their comments and variations.
    pub mainline: Variation,
    /// The result token at the end of the movetext, if any.
    pub result: Option<(GameResult, Span)>,
    /// What the reader tolerated or read on past: Latin-1 text, stray text skipped, a move number
    /// without a move or misread, a move it could not read ([`Played::Garbled`]).
    pub warnings: Vec<Warning>,
}

/// Something the reader accepted, or read on past, but that a careful transcription would not
/// contain. Its code says how serious it is ([`Code::severity`](crate::diagnostic::Code::severity)):
/// a move the reader could not read (`sgn::garbled-move`) makes the game invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// A stable code: `sgn::latin1`, `sgn::stray-text`, `sgn::dangling-move-number`,
    /// `sgn::garbled-move`, `sgn::misread-move-number`.
    pub code: crate::diagnostic::Code,
    /// What was tolerated, in words.
    pub message: String,
    /// Where, in the game's text.
    pub span: Span,
}

/// A tag pair, `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name; the usual names (see [`Tag::known_name`]) are shared, not allocated.
    pub name: Cow<'static, str>,
    /// The value with escapes resolved.
    pub value: String,
    /// The whole tag pair in the game's text.
    pub span: Span,
}

/// A line of play: the main line, or an alternative given in parentheses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// Comments before the first move.
    pub comments: Vec<Comment>,
    /// The moves, in the order written.
    pub moves: Vec<MoveNode>,
}

/// One written move with what surrounds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The move number written before it (`12.` or `12...`), if any.
    pub number: Option<MoveNumber>,
    /// What the move token says.
    pub played: Played,
    /// The span of the move itself (designator through to-square, or `--`).
    pub span: Span,
    /// What few moves have (a call, annotations, comments, variations), boxed so that a plain move
    /// stays small; `None` when there is nothing. Read it through the accessors.
    pub extras: Option<Box<MoveExtras>>,
}

/// The rarely present parts of a [`MoveNode`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveExtras {
    /// A `Salta!` call right after the move: the next move, by the same side, corrects it.
    pub salta: Option<Span>,
    /// Suffix annotations and NAGs, in the order written.
    pub annotations: Vec<Annotation>,
    /// Comments after the move.
    pub comments: Vec<Comment>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Variation>,
}

impl MoveExtras {
    /// Whether the move has no call, annotation, comment or variation.
    pub fn is_empty(&self) -> bool {
        self.salta.is_none()
            && self.annotations.is_empty()
            && self.comments.is_empty()
            && self.variations.is_empty()
    }

    /// Boxed for a [`MoveNode`], or `None` when empty (so equal moves compare equal).
    pub fn boxed(self) -> Option<Box<MoveExtras>> {
        (!self.is_empty()).then(|| Box::new(self))
    }
}

impl MoveNode {
    /// A move with nothing around it but its number.
    pub fn new(number: Option<MoveNumber>, played: Played, span: Span) -> MoveNode {
        MoveNode {
            number,
            played,
            span,
            extras: None,
        }
    }

    /// The span of a `Salta!` call after the move.
    pub fn salta(&self) -> Option<Span> {
        self.extras.as_ref().and_then(|e| e.salta)
    }

    /// The suffix annotations and NAGs after the move.
    pub fn annotations(&self) -> &[Annotation] {
        self.extras.as_ref().map_or(&[], |e| &e.annotations)
    }

    /// The comments after the move.
    pub fn comments(&self) -> &[Comment] {
        self.extras.as_ref().map_or(&[], |e| &e.comments)
    }

    /// The alternatives to the move.
    pub fn variations(&self) -> &[Variation] {
        self.extras.as_ref().map_or(&[], |e| &e.variations)
    }

    /// The alternatives to the move, to change in place.
    pub fn variations_mut(&mut self) -> &mut [Variation] {
        self.extras.as_mut().map_or(&mut [], |e| &mut e.variations)
    }

    /// The extras, made on first use.
    pub fn extras_mut(&mut self) -> &mut MoveExtras {
        self.extras.get_or_insert_with(Box::default)
    }
}

/// A move number as written, `12.` or `12...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The number written.
    pub number: u32,
    /// `12...`: the number of a Red move.
    pub ellipsis: bool,
    /// Where it is written.
    pub span: Span,
}

/// What the move token says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// A move from one square to another.
    Move {
        /// The designator written before the move (`Su3`), if any.
        piece: Option<Designator>,
        /// Left out when a designator names the piece (`Su3-44`).
        from: Option<SquareRef>,
        /// The square the piece goes to.
        to: SquareRef,
        /// How the squares are joined: step, jump or not written.
        separator: Separator,
    },
    /// `--`
    Pass,
    /// A token in the place of a move that cannot be read as one (`3S-43`, `46-55`, `3343`,
    /// `33—43`, `33-4 3`), kept as written: its text is the game's text at the move's span. The
    /// reader says why in a `sgn::garbled-move` warning and reads on; the replay stops there, as
    /// at an illegal move.
    Garbled,
}

/// A square as written, resolved to the board of the game's rules and to the standard orientation
/// (a `Numbering "red"` source is rotated when read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareRef {
    /// The square, in the standard orientation.
    pub square: Square,
    /// Where the square is written.
    pub span: Span,
}

/// What joins the two squares of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Separator {
    /// `-`
    Step,
    /// `:` or `x`
    Jump,
    /// None written, as some sources print algebraic moves (`e3f4`): the squares say which.
    Omitted,
}

impl Separator {
    /// The separator a move between these squares is written with when none was (`e3f4`): a jump
    /// spans two ranks (or more, for a Pyramid chain), a step one.
    pub fn or_from_squares(
        self,
        geometry: &crate::board::Geometry,
        from: Square,
        to: Square,
    ) -> Separator {
        match self {
            Separator::Omitted if geometry.rank(from).abs_diff(geometry.rank(to)) >= 2 => {
                Separator::Jump
            }
            Separator::Omitted => Separator::Step,
            written => written,
        }
    }
}

/// A piece designator: `Su3`, `So3`, `☀3`, or the single numbering `#13`.
///
/// Its fields are private so that it always names a piece: [`Designator::new`] checks the id and
/// that a written kind is the id's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Designator {
    id: u8,
    kind: Option<PieceKind>,
    span: Span,
}

impl Designator {
    /// Piece `id` (0–14, star 1 … sun 5) written at `span` by its kind (`Su3`) or, with `kind`
    /// `None`, in the single numbering (`#13`). `None` for an id of [`MAX_PIECES`] or more, or a
    /// kind that is not the id's.
    #[must_use]
    pub fn new(id: u8, kind: Option<PieceKind>, span: Span) -> Option<Designator> {
        let piece = Piece::new(crate::board::Color::Green, id)?;
        kind.is_none_or(|k| k == piece.kind())
            .then_some(Designator { id, kind, span })
    }

    /// The designator that names `piece` by its kind (`Su3`), written at `span`.
    pub fn of_piece(piece: Piece, span: Span) -> Designator {
        Designator {
            id: piece.id(),
            kind: Some(piece.kind()),
            span,
        }
    }

    /// A designator the parser has checked itself (id below [`MAX_PIECES`], kind the id's).
    pub(crate) fn new_unchecked(id: u8, kind: Option<PieceKind>, span: Span) -> Designator {
        debug_assert!(usize::from(id) < MAX_PIECES);
        Designator { id, kind, span }
    }

    /// The piece's identity 0–14 (star 1 … sun 5), as in [`Piece::id`].
    pub fn id(&self) -> u8 {
        self.id
    }

    /// How it was written: by kind (`Su3`), or `None` for the single numbering (`#13`).
    pub fn kind(&self) -> Option<PieceKind> {
        self.kind
    }

    /// Where the designator is written.
    pub fn span(&self) -> Span {
        self.span
    }
}

/// A note on a move's quality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Annotation {
    /// `!`, `?`, `!!`, `??`, `!?`, `?!`
    Suffix(String),
    /// `$n`
    Nag(u16),
}

/// A comment, in braces or after a semicolon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The text inside `{…}` or after `;`, trimmed.
    pub text: String,
    /// The whole comment, delimiters included.
    pub span: Span,
}

/// A game's result as SGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GameResult {
    /// `1-0`.
    #[serde(rename = "1-0")]
    GreenWins,
    /// `0-1`.
    #[serde(rename = "0-1")]
    RedWins,
    /// `1/2-1/2`: drawn.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// `*`: unfinished or unknown.
    #[serde(rename = "*")]
    Unknown,
}

impl GameResult {
    /// The token as written in SGN (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::GreenWins => "1-0",
            GameResult::RedWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameResult {
    type Err = UnknownResult;

    /// Reads a result as written in a tag or token (`½-½` too).
    fn from_str(text: &str) -> Result<GameResult, UnknownResult> {
        match text.trim() {
            "1-0" => Ok(GameResult::GreenWins),
            "0-1" => Ok(GameResult::RedWins),
            "1/2-1/2" | "½-½" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unknown),
            _ => Err(UnknownResult(printable(text, false).into_owned())),
        }
    }
}

/// Text that is not a result (`1-0`, `0-1`, `1/2-1/2`, `*`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} is not a result: write 1-0, 0-1, 1/2-1/2 or *", crate::diagnostic::quote(.0))]
pub struct UnknownResult(String);

/// Tag names common enough that the reader shares one copy of each.
const KNOWN_TAG_NAMES: [&str; 16] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "Green",
    "Red",
    "Result",
    "Rules",
    "Setup",
    "Numbering",
    "Margin",
    "MoveLimit",
    "Odds",
    "Annotator",
    "Source",
    "Time",
];

impl Tag {
    /// A tag name as a shared static string when it is a usual one, or else an owned copy.
    pub fn known_name(name: &str) -> Cow<'static, str> {
        match KNOWN_TAG_NAMES.iter().find(|&&known| known == name) {
            Some(known) => Cow::Borrowed(known),
            None => Cow::Owned(name.to_string()),
        }
    }
}

/// A game's tag pairs in the order read, their values (escapes resolved) one after the other in
/// one buffer: a list costs two allocations however many tags it holds, where [`Tag`]s cost one
/// each (what a streamed game and its report carry, game after game of an archive).
///
/// ```
/// use salta::notation::{Span, TagList};
///
/// let mut tags = TagList::default();
/// tags.push("Event", "Hamburg 1901", Span::new(0, 22));
/// tags.push("Green", "Krone", Span::new(23, 38));
/// assert_eq!(tags.get("Green"), Some("Krone"));
/// let names: Vec<&str> = tags.iter().map(|t| t.name).collect();
/// assert_eq!(names, ["Event", "Green"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagList {
    /// The values, one after the other.
    values: String,
    /// The pairs in the order read.
    pairs: Vec<StoredPair>,
}

/// A pair of a [`TagList`] as it keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct StoredPair {
    name: Cow<'static, str>,
    /// Where the value stands in the list's `values`.
    value: std::ops::Range<usize>,
    span: Span,
}

/// A tag pair of a [`TagList`], borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TagPair<'a> {
    /// The name.
    pub name: &'a str,
    /// The value with escapes resolved.
    pub value: &'a str,
    /// The whole tag pair in the game's text.
    pub span: Span,
}

impl TagList {
    /// An empty list with room for as many pairs and value bytes as `other` holds (the tags of an
    /// archive's next game, which mostly carries the same ones).
    pub(crate) fn with_room_of(other: &TagList) -> TagList {
        TagList {
            values: String::with_capacity(other.values.len()),
            pairs: Vec::with_capacity(other.pairs.len()),
        }
    }

    /// Adds a pair at the end; a usual name is shared, not copied (see [`Tag::known_name`]).
    pub fn push(&mut self, name: &str, value: &str, span: Span) {
        let start = self.values.len();
        self.values.push_str(value);
        self.pairs.push(StoredPair {
            name: Tag::known_name(name),
            value: start..self.values.len(),
            span,
        });
    }

    /// The pairs in the order read.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = TagPair<'_>> + '_ {
        self.pairs.iter().map(|pair| self.lend(pair))
    }

    /// The first pair with this name.
    pub fn find(&self, name: &str) -> Option<TagPair<'_>> {
        let pair = self.pairs.iter().find(|pair| pair.name == name)?;
        Some(self.lend(pair))
    }

    /// One of the list's pairs, borrowed.
    fn lend<'a>(&'a self, pair: &'a StoredPair) -> TagPair<'a> {
        TagPair {
            name: &pair.name,
            value: &self.values[pair.value.clone()],
            span: pair.span,
        }
    }

    /// The value of the first pair with this name.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.find(name).map(|t| t.value)
    }

    /// How many pairs there are.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Removes every pair, keeping the room made.
    pub fn clear(&mut self) {
        self.values.clear();
        self.pairs.clear();
    }
}

impl<'a> FromIterator<&'a Tag> for TagList {
    fn from_iter<I: IntoIterator<Item = &'a Tag>>(tags: I) -> TagList {
        let mut list = TagList::default();
        for tag in tags {
            list.push(&tag.name, &tag.value, tag.span);
        }
        list
    }
}

impl Game {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// The notation the record writes its moves in: that of its first main-line move other than
    /// a pass ([`Notation::of_move`]), numeric for a record without
    /// one. Messages about the game and suggestions for it are written the same way.
    pub fn notation(&self) -> Notation {
        self.mainline
            .moves
            .iter()
            .find_map(|node| Notation::of_move(&node.played, &self.text))
            .unwrap_or_default()
    }

    /// Whether the record numbers the squares from Red's side (`[Numbering "red"]`): its squares
    /// were turned half round when read, and messages turn them back.
    pub fn numbered_from_red(&self) -> bool {
        self.tag("Numbering").is_some_and(numbered_from_red)
    }

    /// The edit of the game's text that adds a tag line (`[Numbering "red"]`): after its last
    /// tag, or before its moves where it has none.
    pub fn tag_line_edit(&self, line: &str) -> (std::ops::Range<usize>, String) {
        match self.tags.iter().map(|t| t.span.end as usize).max() {
            Some(end) => (end..end, format!("\n{line}")),
            None => (0..0, format!("{line}\n\n")),
        }
    }
}

/// How moves are written.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    /// `33-43`, `45:64` (historical, default).
    #[default]
    Numeric,
    /// `e3-f4`, `j4:h6`.
    Algebraic,
    /// Designator and destination, `Su3-43`; moves without a designator fall back to numeric.
    Piece,
}

impl Notation {
    /// The notation a record writes this move in, `text` being the game's text (where the
    /// move's spans point): piece notation for a designator without a from-square, algebraic
    /// for a square written with a letter and a digit, numeric for one written with a digit;
    /// `None` for a pass, which every notation writes alike, for a move that could not be read,
    /// and for one whose square's text is neither.
    ///
    /// ```
    /// use salta::notation::{Notation, parse_str};
    ///
    /// let game = parse_str("1. e3-f4 f8:d6 *").remove(0).unwrap();
    /// let first = &game.mainline.moves[0];
    /// assert_eq!(Notation::of_move(&first.played, &game.text), Some(Notation::Algebraic));
    /// ```
    pub fn of_move(played: &Played, text: &str) -> Option<Notation> {
        match *played {
            Played::Pass | Played::Garbled => None,
            Played::Move {
                piece: Some(_),
                from: None,
                ..
            } => Some(Notation::Piece),
            // A move a repair wrote in place of a garbled one points at the garbled text
            // (`yagi`, `SI-GI`): it tells nothing.
            Played::Move { to, .. } => {
                let square = text.get(to.span.range()).unwrap_or_default();
                let mut chars = square.chars();
                match (chars.next(), chars.next()) {
                    (Some(file), Some(rank))
                        if file.is_ascii_alphabetic() && rank.is_ascii_digit() =>
                    {
                        Some(Notation::Algebraic)
                    }
                    (Some(digit), _) if digit.is_ascii_digit() => Some(Notation::Numeric),
                    _ => None,
                }
            }
        }
    }
}

/// Whether a Numbering tag's value says the source numbered the squares from Red's side.
pub(crate) fn numbered_from_red(value: &str) -> bool {
    value.trim().eq_ignore_ascii_case("red")
}

/// The board a `Rules` tag asks for, decided as the replayer decides the rules: a tag that does not
/// read gives the default Salta rules, and so the 10×10 board (the replayer reports the tag).
pub(crate) fn board_of_rules(rules: &str) -> BoardKind {
    rules
        .parse::<Rules>()
        .map_or(BoardKind::Salta, |r| r.board())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    #[test]
    fn a_designator_names_a_piece_by_its_own_kind() {
        let span = Span::new(3, 6);
        let sun3 = Designator::new(12, Some(PieceKind::Sun), span).expect("Su3");
        assert_eq!(
            (sun3.id(), sun3.kind(), sun3.span()),
            (12, Some(PieceKind::Sun), span)
        );
        assert_eq!(
            Designator::of_piece(Piece::new(Color::Red, 12).expect("id 12"), span),
            sun3
        );
        assert!(Designator::new(14, None, span).is_some());
        assert_eq!(Designator::new(15, None, span), None);
        assert_eq!(Designator::new(12, Some(PieceKind::Moon), span), None);
    }
}
