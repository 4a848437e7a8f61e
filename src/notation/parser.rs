//! The SGN parser: one game at a time from a byte slice, with spans relative to the slice.
//!
//! The driving loop dispatches on the first byte of each token; nom parsers read the tokens, which
//! go into a [`Log`] of spans and values (reused from game to game): the visitor is called from it
//! once the game has been read whole (see [`super::visitor`]). The parser allocates only for
//! warnings and errors. It knows nothing of legality.
//!
//! When the slice is not the end of the input it must end at a line boundary: tokens never span
//! lines (comments may, and ask for more input), so reaching the end means "read more".

use super::ast::*;
use super::garbled::{could_be_move, misread_number, why_garbled};
use super::visitor::{RawTag, WrittenMove};
use crate::board::{BoardKind, Geometry, Square};
use crate::diagnostic::Code;
use crate::rules::{PieceKind, Rules};
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while, take_while1};
use nom::combinator::{map, opt, value};
use nom::{IResult, Parser as _};
use std::sync::OnceLock;

/// Bounds on what one game may hold, so that hostile input gives a diagnostic and not unbounded
/// memory or a stack overflow. Built from [`Limits::default`] with its setters:
/// `Limits::default().comment_bytes(512)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Bytes in one tag pair.
    pub tag_bytes: usize,
    /// Bytes in one comment.
    pub comment_bytes: usize,
    /// Bytes in one game (tags and movetext); at most [`MAX_GAME_BYTES`], whatever is asked.
    pub game_bytes: usize,
    /// Nesting depth of variations (at most [`MAX_VARIATION_DEPTH`], whatever is asked: the parser
    /// recurses once per level).
    pub variation_depth: usize,
}

/// The largest game any reader accepts: spans are 32-bit, and the read buffer holds at most about
/// twice a game and a chunk.
pub const MAX_GAME_BYTES: usize = 1 << 30;

/// The deepest nesting of variations any reader accepts, so that recursion stays far from the end
/// of even a small thread stack.
pub const MAX_VARIATION_DEPTH: usize = 256;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tag_bytes: 16 * 1024,
            comment_bytes: 256 * 1024,
            game_bytes: 8 * 1024 * 1024,
            variation_depth: 64,
        }
    }
}

impl Limits {
    /// Bytes in one tag pair (the field `tag_bytes`).
    #[must_use]
    pub fn tag_bytes(mut self, bytes: usize) -> Limits {
        self.tag_bytes = bytes;
        self
    }

    /// Bytes in one comment (the field `comment_bytes`).
    #[must_use]
    pub fn comment_bytes(mut self, bytes: usize) -> Limits {
        self.comment_bytes = bytes;
        self
    }

    /// Bytes in one game (the field `game_bytes`).
    #[must_use]
    pub fn game_bytes(mut self, bytes: usize) -> Limits {
        self.game_bytes = bytes;
        self
    }

    /// Nesting depth of variations (the field `variation_depth`).
    #[must_use]
    pub fn variation_depth(mut self, depth: usize) -> Limits {
        self.variation_depth = depth;
        self
    }
}

/// A syntax error before it is tied to its game's source.
#[derive(Debug)]
pub(crate) struct RawError {
    pub code: Code,
    pub message: String,
    pub label: String,
    pub help: Option<String>,
    pub span: Span,
    pub related: Option<(Span, String)>,
    /// The tags read before the error.
    pub tags: Vec<Tag>,
    /// The ply (1-based, from the game's start) of the move being read when the error struck, if
    /// it was in the movetext, and whether in a variation.
    pub ply: Option<(u32, bool)>,
    resume: Resume,
}

/// Where to look for the next game after an error.
#[derive(Clone, Copy, Debug)]
enum Resume {
    /// The next game starts exactly here (a tag section was seen).
    At(usize),
    /// Scan from here; `in_tags` skips the rest of a broken tag section first.
    Scan { from: usize, in_tags: bool },
}

/// One thing a game holds, in the order written; spans are into the game's text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Token {
    /// `[Name "value"]`: the whole pair, its name, and its value between the quotes (`escaped`:
    /// it holds a `\"` or `\\` escape; a repaired tag's value is taken as it stands).
    Tag {
        span: Span,
        name: Span,
        value: Span,
        escaped: bool,
    },
    /// The tags are over (comments before or among them follow this token).
    BeginMovetext,
    /// A comment: the whole of it and its trimmed text.
    Comment {
        span: Span,
        text: Span,
    },
    /// The move number of the [`Token::Numeric`] move that follows at once (the other moves hold
    /// theirs).
    Number(MoveNumber),
    /// A move between numeric squares, the commonest token, kept small.
    Numeric(NumericMove),
    /// The commonest pair of tokens, a move number and its numeric move, as one.
    Numbered(MoveNumber, NumericMove),
    /// Any other move: its index in [`Log::moves`].
    Move(u32),
    Salta(Span),
    Suffix(&'static str, Span),
    Nag(u16, Span),
    /// `(` at this span.
    BeginVariation(Span),
    EndVariation,
}

/// What the parser read of a game: its tokens, its warnings and its result.
#[derive(Debug, Default)]
pub(crate) struct Log {
    pub tokens: Vec<Token>,
    /// The moves of the [`Token::Move`] tokens.
    pub moves: Vec<WrittenMove>,
    pub warnings: Vec<Warning>,
    pub result: Option<(GameResult, Span)>,
}

impl Log {
    /// Makes what was read of a game broken by a syntax error in its movetext a game of its own:
    /// a call left without its correction dropped, the variations open at the error closed.
    pub(crate) fn close_broken(&mut self) {
        if let Some(Token::Salta(_)) = self.tokens.last() {
            self.tokens.pop();
        }
        let open = self.tokens.iter().fold(0usize, |open, token| match token {
            Token::BeginVariation(_) => open + 1,
            Token::EndVariation => open.saturating_sub(1),
            _ => open,
        });
        self.tokens
            .extend(std::iter::repeat_n(Token::EndVariation, open));
        self.result = None;
    }
}

/// A move between squares written as numbers (`33-43`, `92:103`): all a [`WrittenMove`] of it
/// holds but its move number (logged beside it, [`Token::Numbered`], or before it,
/// [`Token::Number`]), in eight bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NumericMove {
    /// Where the move starts.
    start: u32,
    from: Square,
    to: Square,
    /// [`NumericMove::JUMP`], [`NumericMove::FROM_3`] and [`NumericMove::TO_3`]. Two bytes, so
    /// that the move has no padding byte (which costs instructions to carry over when it is
    /// logged).
    shape: u16,
}

impl NumericMove {
    /// The square the move starts from.
    pub(crate) fn from(self) -> Square {
        self.from
    }

    /// The square the move ends on.
    pub(crate) fn to(self) -> Square {
        self.to
    }

    /// Written as a jump (joined by `:` or `x`).
    pub(crate) fn written_as_jump(self) -> bool {
        self.shape & Self::JUMP != 0
    }

    /// Joined by `:` or `x`, not `-`.
    const JUMP: u16 = 1;
    /// The from-square has three digits, not two.
    const FROM_3: u16 = 2;
    /// The to-square has three digits, not two.
    const TO_3: u16 = 4;

    /// The commonest move, between two-digit squares (`33-43`, `45:64`) followed by a delimiter,
    /// at the start of `word` (at `start` in the game), on the squares of `numbering`: the move
    /// and where the next token may start (past the delimiter if it is a blank).
    #[inline(always)]
    fn plain(word: Word, start: usize, numbering: &Numbering) -> Option<(NumericMove, usize)> {
        let after = CLASS[word.byte(5) as usize];
        if word.nondigit & Word::PLAIN_DIGITS != 0 || after & (DELIMITER | SPACE) == 0 {
            return None;
        }
        let shape = jump(word.byte(2))?;
        let (from, to) = word.plain_squares();
        let numeric = Self::on(numbering, start, from, to, shape)?;
        Some((numeric, start + 5 + usize::from(after & SPACE)))
    }

    /// The commonest pair of moves, [`NumericMove::plain`] moves with a blank between them
    /// (`33-42 83-73 `), at `start` in `src`: both and where the next token may start. The same
    /// as reading the two one at a time, in fewer instructions.
    #[inline(always)]
    fn pair(
        src: &[u8],
        start: usize,
        numbering: &Numbering,
    ) -> Option<(NumericMove, NumericMove, usize)> {
        let bytes = src.get(start..)?.first_chunk::<14>()?;
        let (first, second) = (
            Word::new(*bytes.first_chunk::<8>()?),
            Word::new(*bytes[6..].first_chunk::<8>()?),
        );
        let (blank, after) = (CLASS[bytes[5] as usize], CLASS[bytes[11] as usize]);
        let separators = (CLASS[bytes[2] as usize], CLASS[bytes[8] as usize]);
        if (first.nondigit | second.nondigit) & Word::PLAIN_DIGITS != 0
            || blank & SPACE == 0
            || after & (DELIMITER | SPACE) == 0
            || separators.0 & separators.1 & SEPARATOR == 0
        {
            return None;
        }
        let (first_shape, second_shape) =
            (separator_shape(separators.0), separator_shape(separators.1));
        let ((from, to), (second_from, second_to)) =
            (first.plain_squares(), second.plain_squares());
        // The four squares looked up before one test: NO_SQUARE is the only index with its top
        // bit set.
        let index = |number: u32| numbering[number as usize];
        let indices = [from, to, second_from, second_to].map(index);
        if u32::from_le_bytes(indices) & 0x8080_8080 != 0 {
            return None;
        }
        let [from, to, second_from, second_to] = indices.map(Square::new_unchecked);
        Some((
            NumericMove {
                start: start as u32,
                from,
                to,
                shape: first_shape,
            },
            NumericMove {
                start: start as u32 + 6,
                from: second_from,
                to: second_to,
                shape: second_shape,
            },
            start + 11 + usize::from(after & SPACE),
        ))
    }

    /// A move between squares of two or three digits (no leading zero) followed by a delimiter,
    /// within `word` (at `start` in the game), on the squares of `numbering`: the move and where
    /// it ends.
    #[inline(always)]
    fn within(word: Word, start: usize, numbering: &Numbering) -> Option<(NumericMove, usize)> {
        let from_len = word.digits(0);
        if !(2..=3).contains(&from_len) {
            return None;
        }
        let to_at = from_len + 1;
        let to_len = word.digits(to_at);
        let len = to_at + to_len;
        if !(2..=3).contains(&to_len) || len > 7 {
            return None;
        }
        let mut shape = jump(word.byte(from_len))?;
        if word.digit(0) == 0 || word.digit(to_at) == 0 || !is_delimiter(word.byte(len)) {
            return None;
        }
        if from_len == 3 {
            shape |= Self::FROM_3;
        }
        if to_len == 3 {
            shape |= Self::TO_3;
        }
        let from = word.number(0, from_len);
        let to = word.number(to_at, to_len);
        Some((
            Self::on(numbering, start, from, to, shape)?,
            start + len as usize,
        ))
    }

    /// The move at `start` between the squares of these numbers in `numbering`, if it has both.
    #[inline(always)]
    fn on(numbering: &Numbering, start: usize, from: u32, to: u32, shape: u16) -> Option<Self> {
        Some(NumericMove {
            start: start as u32,
            from: numbered_square(numbering, from as usize)?,
            to: numbered_square(numbering, to as usize)?,
            shape,
        })
    }

    /// The move as the visitor gets it, with the move number written before it.
    #[inline(always)]
    pub(crate) fn written(self, number: Option<MoveNumber>) -> WrittenMove {
        let start = self.start as usize;
        let from_end = start + 2 + usize::from(self.shape & Self::FROM_3 != 0);
        let to_end = from_end + 3 + usize::from(self.shape & Self::TO_3 != 0);
        WrittenMove {
            number,
            played: Played::Move {
                piece: None,
                from: Some(SquareRef {
                    square: self.from,
                    span: Span::new(start, from_end),
                }),
                to: SquareRef {
                    square: self.to,
                    span: Span::new(from_end + 1, to_end),
                },
                separator: if self.shape & Self::JUMP != 0 {
                    Separator::Jump
                } else {
                    Separator::Step
                },
            },
            span: Span::new(start, to_end),
        }
    }
}

/// Eight bytes of movetext read at once, its digits marked, so that the commonest tokens are told
/// apart in a few instructions (lanes are bytes, the first byte in the lowest).
#[derive(Clone, Copy)]
struct Word {
    /// The bytes, each XOR `b'0'`: digits are 0–9.
    lanes: u64,
    /// 0x80 in each lane that is not a digit.
    nondigit: u64,
}

impl Word {
    const EACH: u64 = 0x0101_0101_0101_0101;
    /// The lanes of a plain move's digits (`33-43`): 0, 1, 3 and 4.
    const PLAIN_DIGITS: u64 = 0x0000_0080_8000_8080;

    /// The numbers of a plain move's squares, both at once: lane 0 gets 10 × lane 0 + lane 1,
    /// lane 3 gets 10 × lane 3 + lane 4 (no lane carries: each stays below 100). Numbers below
    /// 10 (`05`) are no square: the numbering has none.
    #[inline(always)]
    fn plain_squares(self) -> (u32, u32) {
        let digits = self.lanes & 0x00ff_ff00_ffff;
        let numbers = digits * 10 + (digits >> 8);
        ((numbers & 0x7f) as u32, ((numbers >> 24) & 0x7f) as u32)
    }

    /// The eight bytes of `src` at `pos`, if it has them.
    #[inline(always)]
    fn at(src: &[u8], pos: usize) -> Option<Word> {
        Some(Word::new(*src.get(pos..)?.first_chunk::<8>()?))
    }

    /// The first eight bytes of `rest`, blanks standing for those it lacks: the end of the input
    /// is a delimiter, as a blank is.
    fn padded(rest: &[u8]) -> Word {
        let mut bytes = [b' '; 8];
        let len = rest.len().min(8);
        bytes[..len].copy_from_slice(&rest[..len]);
        Word::new(bytes)
    }

    /// The word of these bytes.
    #[inline(always)]
    fn new(bytes: [u8; 8]) -> Word {
        let lanes = u64::from_le_bytes(bytes) ^ (Self::EACH * u64::from(b'0'));
        // A lane of 10 or more gets its top bit from the addition, one of 0x80 or more has it
        // already; no lane carries into the next.
        let low = lanes & (Self::EACH * 0x7f);
        let nondigit = ((low + Self::EACH * 0x76) | lanes) & (Self::EACH * 0x80);
        Word { lanes, nondigit }
    }

    /// The byte in lane `i`.
    #[inline(always)]
    fn byte(self, i: u32) -> u8 {
        self.digit(i) ^ b'0'
    }

    /// The value of the digit in lane `i` (meaningless for another byte).
    #[inline(always)]
    fn digit(self, i: u32) -> u8 {
        (self.lanes >> (8 * i)) as u8
    }

    /// The number of digits from lane `at` on (8 or more if all are).
    #[inline(always)]
    fn digits(self, at: u32) -> u32 {
        (self.nondigit >> (8 * at)).trailing_zeros() / 8
    }

    /// The decimal number in the `len` lanes from lane `at` (all digits).
    #[inline(always)]
    fn number(self, at: u32, len: u32) -> u32 {
        (at..at + len).fold(0, |n, i| n * 10 + u32::from(self.digit(i)))
    }

    /// The commonest move numbers, of one to three digits and one dot, at the start of this word
    /// (at `start` in the game), read as [`move_number`] reads them: the number and where the
    /// next token may start (past the blank after the number, if there is one).
    #[inline(always)]
    fn move_number(self, start: usize) -> Option<(MoveNumber, usize)> {
        let digits = self.digits(0);
        let number = match digits {
            1 => self.digit(0).into(),
            2 => u32::from(self.digit(0)) * 10 + u32::from(self.digit(1)),
            3 => u32::from(self.digit(0)) * 100 + u32::from(self.digit(1) * 10 + self.digit(2)),
            _ => return None,
        };
        if self.byte(digits) != b'.' || self.byte(digits + 1) == b'.' {
            return None;
        }
        let end = start + digits as usize + 1;
        let number = MoveNumber {
            number,
            ellipsis: false,
            span: Span::new(start, end),
        };
        let after = CLASS[self.byte(digits + 1) as usize];
        Some((number, end + usize::from(after & SPACE)))
    }
}

/// The separator byte of a numeric move as a [`NumericMove`] shape: a jump or not.
///
/// Looked up in [`CLASS`] rather than matched: whether a move is a jump is as good as random, and
/// a branch on it would be mispredicted about one move in four.
#[inline(always)]
fn jump(b: u8) -> Option<u16> {
    let class = CLASS[b as usize];
    (class & SEPARATOR != 0).then_some(separator_shape(class))
}

/// The [`NumericMove`] shape of a separator's class: [`NumericMove::JUMP`] or not.
#[inline(always)]
fn separator_shape(class: u8) -> u16 {
    u16::from(class & JUMP_SEPARATOR != 0) * NumericMove::JUMP
}

impl Token {
    /// A tag token as a tag pair of the game's text `src`.
    pub(crate) fn raw_tag<'s>(&self, src: &'s str) -> Option<RawTag<'s>> {
        let Token::Tag { name, value, .. } = *self else {
            return None;
        };
        let slice = |s: Span| src.get(s.range()).unwrap_or_default();
        self.raw_tag_of(slice(name), slice(value))
    }

    /// A tag token as a tag pair with this name and value as written.
    fn raw_tag_of<'s>(&self, name: &'s str, written: &'s str) -> Option<RawTag<'s>> {
        match *self {
            Token::Tag { span, escaped, .. } => Some(RawTag::new(name, written, span, escaped)),
            _ => None,
        }
    }
}

pub(crate) enum Outcome {
    /// A game (in the log) and the length of its text.
    Game(usize),
    /// An error and the length of the broken game's text.
    Error(Box<RawError>, usize),
    /// The slice ends before the game does.
    NeedMore,
    /// Nothing but whitespace.
    Empty,
    /// Nothing but whitespace and lines that are neither tags nor movetext (warned of in the log),
    /// to the end of the input, and the length of that text.
    Stray(usize),
}

enum Stop {
    NeedMore,
    Error(Box<RawError>),
}

type PResult<T> = Result<T, Stop>;

/// How a line of play ended.
enum End {
    Result(GameResult, Span),
    /// A `[` at the top level: the next game's tags.
    Tags,
    Eof,
    /// `)` of a variation.
    Close,
}

type In<'a> = &'a [u8];

/// Parses the game at the start of `src` (which starts at a non-blank byte or is empty) into `log`.
/// Squares are read on `board` if given (the rules given on the command line), else on the board
/// of the game's Rules tag.
pub(crate) fn parse_game(
    src: &[u8],
    eof: bool,
    limits: &Limits,
    board: Option<BoardKind>,
    log: &mut Log,
) -> Outcome {
    log.tokens.clear();
    log.moves.clear();
    log.warnings.clear();
    log.result = None;
    let mut p = Parser {
        src,
        pos: 0,
        eof,
        limits,
        board,
        geometry: Geometry::of(board.unwrap_or(BoardKind::Salta)),
        rotate: false,
        numbering: numbering(board.unwrap_or(BoardKind::Salta), false),
        log,
    };
    match p.game() {
        Ok(false) if p.log.warnings.is_empty() => Outcome::Empty,
        Ok(false) => Outcome::Stray(p.pos),
        Ok(true) => Outcome::Game(p.pos),
        Err(Stop::NeedMore) => Outcome::NeedMore,
        Err(Stop::Error(mut e)) => {
            // The tags read before the error, for its report.
            e.tags = p
                .log
                .tokens
                .iter()
                .filter_map(|t| {
                    let Token::Tag {
                        span, name, value, ..
                    } = *t
                    else {
                        return None;
                    };
                    let (name, written) = (text(&src[name.range()]), text(&src[value.range()]));
                    let value = t.raw_tag_of(&name, &written)?.value().into_owned();
                    Some(Tag {
                        name: Tag::known_name(&name),
                        value,
                        span,
                    })
                })
                .collect();
            match resync(src, eof, e.resume) {
                Some(end) => Outcome::Error(e, end.max(1).min(src.len())),
                None => Outcome::NeedMore,
            }
        }
    }
}

struct Parser<'a> {
    src: &'a [u8],
    /// Where the tokens and warnings go.
    log: &'a mut Log,
    pos: usize,
    eof: bool,
    limits: &'a Limits,
    /// The board the rules given on the command line play on, which overrides the Rules tag.
    board: Option<BoardKind>,
    geometry: &'static Geometry,
    /// `Numbering "red"`: squares are rotated into the standard orientation.
    rotate: bool,
    /// The square of each number on `geometry`'s board, rotated if `rotate`.
    numbering: &'static Numbering,
}

#[inline(always)]
fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] & (DELIMITER | SPACE) != 0
}

#[inline(always)]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

/// What the parser keeps of the line of play it is reading.
#[derive(Default)]
struct Line {
    /// How deep it is nested (0: the main line).
    depth: usize,
    /// Where its `(` is, for a variation.
    open: Option<usize>,
    /// Plies of the game before its first move.
    first_ply: u32,
    /// Moves read in it so far.
    moves: u32,
    /// Whether its last move has a `Salta!` call.
    salta: bool,
    /// The move number read and waiting for its move.
    number: Option<MoveNumber>,
}

impl Line {
    /// A move of this line, into the log, with the move number waiting for it.
    fn push(&mut self, log: &mut Log, played: Played, span: Span) {
        log.tokens.push(Token::Move(log.moves.len() as u32));
        log.moves.push(WrittenMove {
            number: self.number.take(),
            played,
            span,
        });
        self.moves += 1;
        self.salta = false;
    }
}

const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
/// A numeric move's separator ([`separator`]), and of these a jump's.
const SEPARATOR: u8 = 4;
const JUMP_SEPARATOR: u8 = 8;

/// Byte classes, looked up once per byte on the hot path.
static CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let spaces = b" \t\r\n\x0c";
    let mut i = 0;
    while i < spaces.len() {
        class[spaces[i] as usize] = SPACE;
        i += 1;
    }
    let delimiters = b"{}();!?$[]";
    let mut i = 0;
    while i < delimiters.len() {
        class[delimiters[i] as usize] = DELIMITER;
        i += 1;
    }
    class[b'-' as usize] = SEPARATOR;
    let jumps = b":xX";
    let mut i = 0;
    while i < jumps.len() {
        class[jumps[i] as usize] = SEPARATOR | JUMP_SEPARATOR;
        i += 1;
    }
    class
};

fn error(
    code: Code,
    message: impl Into<String>,
    span: Span,
    label: impl Into<String>,
) -> Box<RawError> {
    Box::new(RawError {
        code,
        message: message.into(),
        label: label.into(),
        help: None,
        span,
        related: None,
        tags: Vec::new(),
        ply: None,
        resume: Resume::Scan {
            from: span.end as usize,
            in_tags: false,
        },
    })
}

impl RawError {
    fn help(mut self: Box<Self>, help: impl Into<String>) -> Box<Self> {
        self.help = Some(help.into());
        self
    }
}

// Token parsers (nom).

fn result_token(i: In) -> IResult<In, GameResult, ()> {
    alt((
        value(GameResult::GreenWins, tag("1-0")),
        value(GameResult::RedWins, tag("0-1")),
        value(GameResult::Draw, tag("1/2-1/2")),
        value(GameResult::Draw, tag("½-½")),
        value(GameResult::Unknown, tag("*")),
    ))
    .parse(i)
}

fn suffix(i: In) -> IResult<In, &'static str, ()> {
    alt((
        value("!!", tag("!!")),
        value("??", tag("??")),
        value("!?", tag("!?")),
        value("?!", tag("?!")),
        value("!", tag("!")),
        value("?", tag("?")),
    ))
    .parse(i)
}

fn designator_kind(i: In) -> IResult<In, PieceKind, ()> {
    alt((
        value(PieceKind::Star, tag_no_case("st")),
        value(PieceKind::Moon, tag_no_case("mo")),
        value(PieceKind::Sun, tag_no_case("su")),
        value(PieceKind::Sun, tag_no_case("so")),
        value(PieceKind::Star, tag("★")),
        value(PieceKind::Moon, tag("☾")),
        value(PieceKind::Sun, tag("☀")),
    ))
    .parse(i)
}

fn salta_call(i: In) -> IResult<In, (), ()> {
    map((tag_no_case("salta"), opt(tag("!"))), |_| ()).parse(i)
}

/// The separator a move is written with, `-` for a step and `:`, `x` or `X` for a jump: as the
/// byte classes ([`CLASS`]) have them, which the fast path reads as [`jump`] does.
#[inline(always)]
fn separator(b: Option<&u8>) -> Option<Separator> {
    let shape = jump(*b?)?;
    Some(if shape & NumericMove::JUMP != 0 {
        Separator::Jump
    } else {
        Separator::Step
    })
}

/// Where the first `a` or `b` in `bytes` is, looked for eight bytes at a time: a byte equal to
/// `a` is a zero lane of the word XOR `a`s, and the lowest lane the zero-lane test marks is the
/// first zero lane (a higher one may be marked wrongly by the borrow).
fn first_of(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    let (words, tail) = bytes.as_chunks::<8>();
    let zero = |x: u64| x.wrapping_sub(Word::EACH) & !x & (Word::EACH * 0x80);
    for (i, &word) in words.iter().enumerate() {
        let word = u64::from_le_bytes(word);
        let found =
            zero(word ^ (Word::EACH * u64::from(a))) | zero(word ^ (Word::EACH * u64::from(b)));
        if found != 0 {
            return Some(8 * i + (found.trailing_zeros() / 8) as usize);
        }
    }
    let at = tail.iter().position(|&x| x == a || x == b)?;
    Some(bytes.len() - tail.len() + at)
}

/// A decimal number of at most `u32::MAX`.
#[inline(always)]
fn decimal(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, &d| {
        n.checked_mul(10)?.checked_add((d - b'0') as u32)
    })
}

/// The tokens of a run of plain movetext that [`Parser::plain_run`] does not read from a [`Word`]:
/// a move number (unless `numbered`: one is waiting for its move) or a move between numeric
/// squares at `pos` in `src`, and where it ends.
#[inline(never)]
fn other_numeric(
    src: &[u8],
    pos: usize,
    numbered: bool,
    numbering: &Numbering,
) -> Option<(Token, usize)> {
    let rest = src.get(pos..)?;
    if !numbered && let Some((n, digits, len)) = move_number(rest) {
        let number = MoveNumber {
            number: n,
            ellipsis: len - digits >= 2,
            span: Span::new(pos, pos + len),
        };
        return Some((Token::Number(number), pos + len));
    }
    let (numeric, end) = NumericMove::within(Word::padded(rest), pos, numbering)?;
    Some((Token::Numeric(numeric), end))
}

/// A move number at the start of `rest`: at most nine digits (so that it fits a u32) and one or
/// more dots. Its value, its digits and its length.
#[inline(always)]
fn move_number(rest: &[u8]) -> Option<(u32, usize, usize)> {
    let (mut n, mut digits) = (0u32, 0);
    while digits < 9
        && let Some(&d) = rest.get(digits)
        && d.is_ascii_digit()
    {
        n = n * 10 + (d - b'0') as u32;
        digits += 1;
    }
    let mut len = digits;
    while rest.get(len) == Some(&b'.') {
        len += 1;
    }
    (digits > 0 && len > digits).then_some((n, digits, len))
}

/// Each historical number's square index, [`NO_SQUARE`] where no square has that number.
type Numbering = [u8; 128];

/// In a [`Numbering`], a number that names no square.
const NO_SQUARE: u8 = u8::MAX;

/// The numbering of `board`'s squares, turned to the standard orientation for a source numbered
/// from Red's side: one load a square on the hot path.
fn numbering(board: BoardKind, from_red: bool) -> &'static Numbering {
    static TABLES: OnceLock<[Numbering; 4]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let table = |board, from_red| {
            let geometry = Geometry::of(board);
            std::array::from_fn(|n| {
                let Some(square) = geometry.from_number(n as u32) else {
                    return NO_SQUARE;
                };
                let square = if from_red {
                    geometry.rotate(square)
                } else {
                    square
                };
                square.index() as u8
            })
        };
        [
            table(BoardKind::Salta, false),
            table(BoardKind::Salta, true),
            table(BoardKind::Pyramid, false),
            table(BoardKind::Pyramid, true),
        ]
    });
    let board = match board {
        BoardKind::Salta => 0,
        BoardKind::Pyramid => 2,
    };
    &tables[board + usize::from(from_red)]
}

/// The square numbered `number` in `numbering`, if any.
#[inline(always)]
fn numbered_square(numbering: &Numbering, number: usize) -> Option<Square> {
    let index = *numbering.get(number)?;
    (index != NO_SQUARE).then(|| Square::new_unchecked(index))
}

/// The most characters of the input a message quotes.
const QUOTED_CHARS: usize = 60;

/// Input text for a message, cut to [`QUOTED_CHARS`] characters with `…`.
fn quoted(bytes: &[u8]) -> String {
    let text = text(bytes);
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn tag_name(i: In) -> IResult<In, In, ()> {
    take_while1(|b: u8| b.is_ascii_alphanumeric() || b == b'_').parse(i)
}

fn spaces(i: In) -> IResult<In, In, ()> {
    take_while(|b| b == b' ' || b == b'\t').parse(i)
}

fn text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

impl<'a> Parser<'a> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    #[inline(always)]
    fn rest(&self) -> &'a [u8] {
        self.src.get(self.pos..).unwrap_or_default()
    }

    /// Moves past a nom token: `rest` is what the token parser left.
    fn advance_to(&mut self, rest: &[u8]) {
        self.pos = self.src.len() - rest.len();
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        // Every space byte is at most b' ': most bytes leave without the table.
        while self.peek().is_some_and(|b| b <= b' ' && is_space(b)) {
            self.pos += 1;
        }
    }

    #[inline(always)]
    fn delimited_here(&self) -> bool {
        self.peek().is_none_or(is_delimiter)
    }

    /// The span of the word at `start` (to the next delimiter), for error labels.
    fn word(&self, start: usize) -> Span {
        let len = self
            .src
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&b| !is_delimiter(b))
            .count();
        // Keep at least one whole character so labels never split a UTF-8 sequence.
        let end = (start + len.max(1)).min(self.src.len());
        let end = (end..=self.src.len())
            .find(|&e| self.src.get(e).is_none_or(|&b| (b as i8) >= -0x40))
            .unwrap_or(end);
        Span::new(start, end)
    }

    fn line_end(&self, from: usize) -> usize {
        let rest = self.src.get(from..).unwrap_or_default();
        first_of(rest, b'\n', b'\n').map_or(self.src.len(), |at| from + at)
    }

    fn unexpected(&self, start: usize, expected: &str) -> Stop {
        let span = self.word(start);
        let found = quoted(self.src.get(span.range()).unwrap_or_default());
        Stop::Error(
            error(
                Code::UnexpectedToken,
                format!("unexpected {found:?}"),
                span,
                "not understood here",
            )
            .help(format!("expected {expected}")),
        )
    }

    /// The whole game into the log: false if there is nothing but whitespace and stray text.
    fn game(&mut self) -> PResult<bool> {
        // Comments before or among the tags belong to the game: they go before its first move.
        let mut comments = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None if !self.eof => return Err(Stop::NeedMore),
                None => break,
                Some(b'[') => {
                    let tag = self.tag_pair()?;
                    self.log.tokens.push(tag);
                }
                Some(b'{' | b';') => comments.push(self.comment()?),
                Some(_) => {
                    if !self.skip_stray_line()? {
                        break;
                    }
                }
            }
        }
        self.configure_board();
        self.log.tokens.push(Token::BeginMovetext);
        self.log.tokens.append(&mut comments);
        let end = self.variation(0, None, 0)?;
        if let End::Result(result, span) = end {
            self.log.result = Some((result, span));
        }
        // Anything but the start of an empty movetext: a tag, a comment, a move or a result.
        Ok(self.log.tokens.len() > 1 || self.log.result.is_some())
    }

    /// The board of the game's rules, and whether squares are numbered from Red's side (the first
    /// Rules and Numbering tags decide).
    fn configure_board(&mut self) {
        let src = self.src;
        let find = |wanted: &[u8]| {
            self.log.tokens.iter().find_map(|t| match *t {
                Token::Tag { name, value, .. } if &src[name.range()] == wanted => {
                    let written = text(&src[value.range()]);
                    Some(t.raw_tag_of("", &written)?.value().into_owned())
                }
                _ => None,
            })
        };
        if let (None, Some(rules)) = (self.board, find(b"Rules")) {
            self.geometry = Geometry::of(board_of_rules(&rules));
        }
        self.rotate = find(b"Numbering").is_some_and(|v| numbered_from_red(&v));
        self.numbering = numbering(self.geometry.kind, self.rotate);
    }

    /// Before the movetext: skips a line in which no word could begin movetext (a title, a
    /// copyright line), with a warning. Returns false if movetext starts here.
    fn skip_stray_line(&mut self) -> PResult<bool> {
        let start = self.pos;
        // The common case, a move number or a move at the start of the line, without looking for
        // the line's end (a word that starts with a digit is read the same up to it: the newline
        // ends its digits and is no separator).
        if self.peek().is_some_and(|b| b.is_ascii_digit()) && looks_like_movetext(self.rest()) {
            return Ok(false);
        }
        let end = self.line_end(start);
        if end == self.src.len() && !self.eof {
            return Err(Stop::NeedMore);
        }
        let line = &self.src[start..end];
        let word_starts = (0..line.len()).filter(|&i| i == 0 || line[i - 1].is_ascii_whitespace());
        if word_starts
            .into_iter()
            .any(|i| looks_like_movetext(&line[i..]))
        {
            return Ok(false);
        }
        let mut shown = end;
        if self.src.get(end.wrapping_sub(1)) == Some(&b'\r') {
            shown -= 1;
        }
        self.log.warnings.push(Warning {
            code: Code::StrayText,
            message: format!(
                "skipped text that is neither a tag nor movetext: {:?}",
                quoted(&self.src[start..shown])
            ),
            span: Span::new(start, shown),
        });
        self.pos = end;
        Ok(true)
    }

    /// `[Name "value"]` with `\"` and `\\` escapes: a [`Token::Tag`].
    fn tag_pair(&mut self) -> PResult<Token> {
        let start = self.pos;
        let line_end = self.line_end(start);
        let in_tags = |mut e: Box<RawError>| {
            e.resume = Resume::Scan {
                from: e.span.end as usize,
                in_tags: true,
            };
            Stop::Error(e)
        };
        if line_end - start > self.limits.tag_bytes {
            return Err(in_tags(
                error(
                    Code::TagTooLong,
                    "tag too long",
                    Span::new(start, start + 1),
                    "this tag",
                )
                .help(format!(
                    "a tag pair may hold at most {} bytes",
                    self.limits.tag_bytes
                )),
            ));
        }
        let line = &self.src[..line_end];
        let bad = |at: usize, message: &str, label: &str, help: &str| {
            let end = (at + 1).min(line_end).max(at);
            let span = if end > at && line.get(at).is_some_and(|&b| b < 0x80) {
                Span::new(at, end)
            } else {
                Span::new(at, at)
            };
            in_tags(error(Code::BadTag, message, span, label).help(help))
        };
        let after_open = &line[start + 1..];
        let (rest, _) = spaces(after_open).unwrap_or((after_open, &[]));
        let name_start = line_end - rest.len();
        let Ok((rest, name)) = tag_name(rest) else {
            let at = line_end - rest.len();
            return Err(bad(
                at,
                "tag without a name",
                "expected a tag name here",
                "a tag is written [Name \"value\"]",
            ));
        };
        let (rest, _) = spaces(rest).unwrap_or((rest, &[]));
        let quote = line_end - rest.len();
        if rest.first() != Some(&b'"') {
            return Err(bad(
                quote,
                "tag value not in quotes",
                "expected \" here",
                "a tag is written [Name \"value\"]",
            ));
        }
        let name = Span::new(name_start, name_start + name.len());
        // To the closing quote, past escaped quotes and backslashes.
        let (mut i, mut escaped) = (quote + 1, false);
        loop {
            match first_of(&line[i..], b'"', b'\\') {
                None => {
                    if let Some(tag) = self.repaired_tag(start, name, quote, line_end) {
                        return Ok(tag);
                    }
                    let span = Span::new(quote, quote + 1);
                    return Err(in_tags(
                        error(Code::BadTag, "tag value never closed", span, "value opened here")
                            .help("close it with \" before the end of the line; write \\\" for a quote inside it"),
                    ));
                }
                Some(at) if line[i + at] == b'"' => {
                    i += at;
                    break;
                }
                // A backslash escapes the byte after it if that is a quote or a backslash.
                Some(at) if matches!(line.get(i + at + 1), Some(b'"' | b'\\')) => {
                    i += at + 2;
                    escaped = true;
                }
                Some(at) => i += at + 1,
            }
        }
        let after_value = &line[i + 1..];
        let (rest, _) = spaces(after_value).unwrap_or((after_value, &[]));
        let close = line_end - rest.len();
        if rest.first() != Some(&b']') {
            if let Some(tag) = self.repaired_tag(start, name, quote, line_end) {
                return Ok(tag);
            }
            return Err(bad(
                close,
                "tag not closed",
                "expected ] here",
                "a tag is written [Name \"value\"]",
            ));
        }
        self.pos = close + 1;
        Ok(Token::Tag {
            span: Span::new(start, self.pos),
            name,
            value: Span::new(quote + 1, i),
            escaped,
        })
    }

    /// Repairs the two common slips in a tag pair alone on its line (pgn-extract's tag-string
    /// repair), with a warning: quotes inside the value not escaped (`[Event "Bad "Ems" 1901"]`:
    /// the value runs to the last quote) and the closing quote left out (`[Event "Jüterbog]`: the
    /// value runs to the `]`). Anything else stays an error.
    fn repaired_tag(
        &mut self,
        start: usize,
        name: Span,
        quote: usize,
        line_end: usize,
    ) -> Option<Token> {
        let line = self.src.get(start..line_end)?;
        let close = line.iter().rposition(|&b| !b.is_ascii_whitespace())?;
        if line[close] != b']' {
            return None;
        }
        let inside = self.src.get(quote + 1..start + close)?.trim_ascii_end();
        let (value, slip) = match inside.strip_suffix(b"\"") {
            Some(value) if value.contains(&b'"') => {
                (value, "has quotes inside it that are not escaped")
            }
            Some(_) => return None,
            None if !inside.contains(&b'"') => (inside, "is not closed with a quote"),
            None => return None,
        };
        // Tag names are ASCII (see `tag_name`).
        let name_text = std::str::from_utf8(&self.src[name.range()]).unwrap_or_default();
        self.log.warnings.push(Warning {
            code: Code::TagRepaired,
            message: format!(
                "the {name_text} tag's value {slip}: read as {:?}",
                text(value)
            ),
            span: Span::new(start, start + close + 1),
        });
        self.pos = start + close + 1;
        Some(Token::Tag {
            span: Span::new(start, self.pos),
            name,
            value: Span::new(quote + 1, quote + 1 + value.len()),
            escaped: false,
        })
    }

    /// A line of play up to its end: `)` for a variation, a result, a tag section or the end for
    /// the main line. Its first move is ply `first_ply + 1` of the game; `open` is where its `(`
    /// is. An error in it says which move was being read.
    fn variation(&mut self, depth: usize, open: Option<usize>, first_ply: u32) -> PResult<End> {
        let mut line = Line {
            depth,
            open,
            first_ply,
            ..Line::default()
        };
        match self.line_of_play(&mut line) {
            Ok(end) => Ok(end),
            Err(Stop::Error(mut e)) => {
                // The innermost line sets the place; the lines around it leave it.
                e.ply.get_or_insert((first_ply + line.moves + 1, depth > 0));
                Err(Stop::Error(e))
            }
            Err(more) => Err(more),
        }
    }

    /// The tokens of a line, one function per kind, to the line's end.
    fn line_of_play(&mut self, line: &mut Line) -> PResult<End> {
        loop {
            self.skip_ws();
            let start = self.pos;
            let Some(b) = self.peek() else {
                return self.end_of_input(line, start);
            };
            // The commonest tokens, moves between two-digit squares and move numbers, first.
            if b.is_ascii_digit() && self.numbers_and_moves(line, start)? {
                continue;
            }
            let end = match b {
                b'{' | b';' => {
                    let c = self.comment()?;
                    self.log.tokens.push(c);
                    None
                }
                b'(' => {
                    self.nested_variation(line, start)?;
                    None
                }
                b')' => Some(self.close_variation(line, start)?),
                b'[' => Some(self.next_tags(line, start)?),
                b'!' | b'?' => {
                    self.suffix_annotation(line, start)?;
                    None
                }
                b'$' => {
                    self.nag(line, start)?;
                    None
                }
                _ => self.result_call_or_move(line, start, b)?,
            };
            if let Some(end) = end {
                return Ok(end);
            }
        }
    }

    /// The input ends in the line: more is needed, or the main line ends.
    fn end_of_input(&mut self, line: &mut Line, at: usize) -> PResult<End> {
        if !self.eof {
            return Err(Stop::NeedMore);
        }
        if let Some(open) = line.open {
            return Err(self.unclosed_variation(open, at));
        }
        self.warn_dangling(line.number.take());
        Ok(End::Eof)
    }

    /// At a digit: a run of plain moves and move numbers, or a move number the run leaves (one
    /// of more than nine digits, or following a move number). Whether anything was read: if not,
    /// the digit starts a result or another kind of move. (A number followed by dots is never a
    /// result: those are 1-0, 0-1 and 1/2-1/2.)
    fn numbers_and_moves(&mut self, line: &mut Line, start: usize) -> PResult<bool> {
        if self.plain_run(line) {
            return Ok(true);
        }
        let mut end = start + 1;
        while self.src.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        let mut dots_end = end;
        while self.src.get(dots_end) == Some(&b'.') {
            dots_end += 1;
        }
        let (digits, dots) = (end - start, dots_end - end);
        if dots == 0 || self.squares_on_a_dot(digits, dots, dots_end) {
            return Ok(false);
        }
        let span = Span::new(start, start + digits + dots);
        let Some(n) = decimal(&self.src[start..start + digits]) else {
            let e = error(
                Code::BadMoveNumber,
                "move number too large",
                Span::new(start, start + digits),
                "this number",
            )
            .help("move numbers run from 1 to 4294967295");
            return Err(Stop::Error(e));
        };
        self.warn_dangling(line.number.replace(MoveNumber {
            number: n,
            ellipsis: dots >= 2,
            span,
        }));
        self.pos = span.end as usize;
        Ok(true)
    }

    /// Whether the number of `digits` digits and `dots` dots that ends at `end` is the first
    /// square of a move with a dot for its separator (`33.43`), not a move number.
    fn squares_on_a_dot(&self, digits: usize, dots: usize, end: usize) -> bool {
        let after = self.src[end..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        dots == 1
            && (2..=3).contains(&digits)
            && (2..=3).contains(&after)
            && self.src.get(end + after).is_none_or(|&b| is_delimiter(b))
    }

    /// `(`: a variation replacing the line's last move, read to its `)`.
    fn nested_variation(&mut self, line: &mut Line, start: usize) -> PResult<()> {
        let max_depth = self.limits.variation_depth.min(MAX_VARIATION_DEPTH);
        if line.depth + 1 > max_depth {
            let e = error(
                Code::TooDeep,
                "variations nested too deeply",
                Span::new(start, start + 1),
                "too deep",
            )
            .help(format!("variations may be nested at most {max_depth} deep"));
            return Err(Stop::Error(e));
        }
        if line.moves == 0 {
            return Err(self.misplaced(
                start,
                1,
                "variation before any move",
                "a variation follows the move it replaces: 12. 33-43 (12. 34-44)",
            ));
        }
        self.pos += 1;
        self.log
            .tokens
            .push(Token::BeginVariation(Span::new(start, start + 1)));
        let replaced = line.first_ply + line.moves - 1;
        self.variation(line.depth + 1, Some(start), replaced)?;
        self.log.tokens.push(Token::EndVariation);
        Ok(())
    }

    /// `)`: the end of the variation, or an error in the main line.
    fn close_variation(&mut self, line: &mut Line, start: usize) -> PResult<End> {
        if line.open.is_some() {
            self.pos += 1;
            self.warn_dangling(line.number.take());
            return Ok(End::Close);
        }
        let e = error(
            Code::UnmatchedParen,
            "unmatched )",
            Span::new(start, start + 1),
            "no variation is open here",
        )
        .help("remove it, or open the variation with ( right after the move it replaces");
        Err(Stop::Error(e))
    }

    /// `[`: the next game's tags end the main line; a variation left open is an error.
    fn next_tags(&mut self, line: &mut Line, start: usize) -> PResult<End> {
        if let Some(open) = line.open {
            let mut e = self.unclosed_variation_error(open, start);
            e.resume = Resume::At(start);
            return Err(Stop::Error(e));
        }
        self.warn_dangling(line.number.take());
        Ok(End::Tags)
    }

    /// `!`, `?`, `!!`, `??`, `!?` or `?!` after a move.
    fn suffix_annotation(&mut self, line: &Line, start: usize) -> PResult<()> {
        let (rest, s) = suffix(self.rest()).map_err(|_| self.unexpected(start, "an annotation"))?;
        if line.moves == 0 {
            return Err(self.misplaced(
                start,
                s.len(),
                "annotation before any move",
                "an annotation follows its move: 33-43!",
            ));
        }
        self.log
            .tokens
            .push(Token::Suffix(s, Span::new(start, start + s.len())));
        self.advance_to(rest);
        Ok(())
    }

    /// `$n` after a move.
    fn nag(&mut self, line: &Line, start: usize) -> PResult<()> {
        let digits = self
            .rest()
            .get(1..)
            .unwrap_or_default()
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let span = Span::new(start, start + 1 + digits);
        let nag = std::str::from_utf8(&self.src[start + 1..span.end as usize])
            .ok()
            .and_then(|d| d.parse::<u16>().ok());
        let Some(nag) = nag else {
            let e = error(
                Code::BadNag,
                "bad NAG",
                span,
                "expected a number 0–65535 after $",
            )
            .help("a NAG is written $1, $2, …");
            return Err(Stop::Error(e));
        };
        if line.moves == 0 {
            return Err(self.misplaced(
                start,
                span.len(),
                "NAG before any move",
                "a NAG follows its move: 33-43 $1",
            ));
        }
        self.log.tokens.push(Token::Nag(nag, span));
        self.pos = span.end as usize;
        Ok(())
    }

    /// Any other token (`b` is its first byte): a result, which ends the main line, a `Salta!`
    /// call or a move.
    fn result_call_or_move(
        &mut self,
        line: &mut Line,
        start: usize,
        b: u8,
    ) -> PResult<Option<End>> {
        if let Some(end) = self.result(line, start, b)? {
            return Ok(Some(end));
        }
        if let Some(rest) = self.salta_call_here(b) {
            let span = Span::new(start, self.src.len() - rest.len());
            if line.moves == 0 || line.salta {
                return Err(self.misplaced(
                    start,
                    span.len(),
                    "Salta! call without a move to correct",
                    "Salta! follows the move that missed a jump, once",
                ));
            }
            line.salta = true;
            self.log.tokens.push(Token::Salta(span));
            self.pos = span.end as usize;
            return Ok(None);
        }
        match self.played() {
            Ok(played) if self.delimited_here() => {
                line.push(self.log, played, Span::new(start, self.pos));
                Ok(None)
            }
            Ok(_) => {
                let e = self.unexpected(start, "a move such as 33-43, 45:64, e3-f4 or Su3-44");
                self.unreadable(line, start, e).map(|()| None)
            }
            Err(e @ Stop::Error(_)) => self.unreadable(line, start, e).map(|()| None),
            Err(more) => Err(more),
        }
    }

    /// A result token here (`b` is its first byte), with the comments after it on its line: the
    /// end of the main line, or an error in a variation.
    fn result(&mut self, line: &mut Line, start: usize, b: u8) -> PResult<Option<End>> {
        // Only these bytes can start a result token; '1-0' and '0-1' are never moves.
        let next = self.src.get(start + 1).copied();
        let could_be_result = match b {
            b'1' => matches!(next, Some(b'-' | b'/')),
            b'0' => next == Some(b'-'),
            b'*' | 0xc2 => true,
            _ => false,
        };
        let Some((result, rest)) = could_be_result.then(|| self.result_here()).flatten() else {
            return Ok(None);
        };
        let span = Span::new(start, self.src.len() - rest.len());
        if line.open.is_some() {
            let mut e = error(
                Code::ResultInVariation,
                "result inside a variation",
                span,
                "the game ends here",
            )
            .help("close the variation with ) before the result");
            e.resume = Resume::At(self.line_end(span.end as usize).min(self.src.len()));
            return Err(Stop::Error(e));
        }
        self.pos = span.end as usize;
        self.warn_dangling(line.number.take());
        self.trailing_comments()?;
        Ok(Some(End::Result(result, span)))
    }

    /// Reads a run of the commonest movetext, move numbers and numeric moves separated by blanks,
    /// in one tight loop, and stops before anything else (left to the general loop, which reads
    /// these tokens the same way). Whether it read anything.
    /// Kept out of line: alone, its loop keeps its state in registers.
    #[inline(never)]
    fn plain_run(&mut self, line: &mut Line) -> bool {
        let (src, numbering) = (self.src, self.numbering);
        // Taken out of the log for the loop: a local vector's length stays in a register.
        let mut taken = std::mem::take(&mut self.log.tokens);
        let tokens = &mut taken;
        let first = self.pos;
        let mut pos = first;
        // The line's state, in locals for the loop and written back after it. A move number read
        // is logged at once, and taken back if no move follows it in the run.
        let mut numbered = match line.number.take() {
            Some(number) => {
                tokens.push(Token::Number(number));
                true
            }
            None => false,
        };
        let before = tokens.len();
        let mut numbers = 0;
        loop {
            // The commonest tokens, read from eight bytes at once.
            if let Some(word) = Word::at(src, pos) {
                // A move number when none is waiting for its move (that case warns). Tried first:
                // the pair of moves read below leaves the loop at the next move number.
                if !numbered && let Some((number, next)) = word.move_number(pos) {
                    // Its move is read at once, in the commonest case, into one token, and so is
                    // the move after it.
                    if let Some((first, second, after)) = NumericMove::pair(src, next, numbering) {
                        tokens.extend_from_slice(&[
                            Token::Numbered(number, first),
                            Token::Numeric(second),
                        ]);
                        pos = after;
                        continue;
                    }
                    if let Some(word) = Word::at(src, next)
                        && let Some((numeric, after)) = NumericMove::plain(word, next, numbering)
                            .or_else(|| NumericMove::within(word, next, numbering))
                    {
                        tokens.push(Token::Numbered(number, numeric));
                        pos = after;
                        continue;
                    }
                    tokens.push(Token::Number(number));
                    numbered = true;
                    numbers += 1;
                    pos = next;
                    continue;
                }
                if let Some((plain, next)) = NumericMove::plain(word, pos, numbering) {
                    tokens.push(Token::Numeric(plain));
                    numbered = false;
                    pos = next;
                    continue;
                }
                if let Some((numeric, end)) = NumericMove::within(word, pos, numbering) {
                    tokens.push(Token::Numeric(numeric));
                    numbered = false;
                    pos = end;
                    continue;
                }
            }
            // Blanks other than the one after a token are rare enough to be looked for last.
            if let Some(&b) = src.get(pos)
                && is_space(b)
            {
                pos += 1;
                continue;
            }
            let Some((token, end)) = other_numeric(src, pos, numbered, numbering) else {
                break;
            };
            numbered = matches!(token, Token::Number(_));
            numbers += u32::from(numbered);
            tokens.push(token);
            pos = end;
        }
        // Counted once here rather than in the loop, where every register counts.
        let moves = (tokens.len() - before) as u32 - numbers;
        line.moves += moves;
        if moves > 0 {
            line.salta = false;
        }
        if numbered && let Some(Token::Number(number)) = tokens.pop() {
            line.number = Some(number);
        }
        self.log.tokens = taken;
        self.pos = pos;
        pos > first
    }

    /// A word in the place of a move that does not read as one, at `start`; `error` is what
    /// reading it as a move said. A misread move number (`I.`, `4,`) is read as the number it
    /// stands for, and a move number glued to the move before it (`81-7113.`) is read apart, each
    /// with a warning; a move garbled (`3S-43`, `3343`, `33-4 3`) is kept as written, with a
    /// warning, and reading goes on; prose (`knight`) gives `error`. Off the reading's fast path.
    #[cold]
    #[inline(never)]
    fn unreadable(&mut self, line: &mut Line, start: usize, error: Stop) -> PResult<()> {
        let word = self.word(start);
        let end = word.end as usize;
        let written = text(&self.src[word.range()]);
        if let Some((number, ellipsis)) = misread_number(&written) {
            let number = MoveNumber {
                number,
                ellipsis,
                span: word,
            };
            let dots = if ellipsis { "..." } else { "." };
            let message = format!("{written:?} read as move number {}{dots}", number.number);
            self.misread_number(line, number, message);
            self.pos = end;
            return Ok(());
        }
        if self.glued_number(line, start, end) {
            return Ok(());
        }
        // `33.43`: the fast path took `33.` for a move number, but it is the move's first square.
        let mut start = start;
        if let Some(n) = line.number
            && n.span.end as usize == start
            && !n.ellipsis
            && (3..=4).contains(&n.span.len())
            && (2..=3).contains(&written.len())
            && written.bytes().all(|b| b.is_ascii_digit())
        {
            line.number = None;
            start = n.span.start as usize;
        }
        if !could_be_move(&written) {
            return Err(error);
        }
        let end = self.split_move_end(start, end);
        let span = Span::new(start, end);
        let token = text(&self.src[span.range()]);
        let why = why_garbled(&token, self.geometry);
        self.log.warnings.push(Warning {
            code: Code::GarbledMove,
            message: format!("{:?} is not a move: {why}", quoted(token.as_bytes())),
            span,
        });
        line.push(self.log, Played::Garbled, span);
        self.pos = end;
        Ok(())
    }

    /// A move number misread, to go with the next move, with a warning saying `message`.
    fn misread_number(&mut self, line: &mut Line, number: MoveNumber, message: String) {
        self.log.warnings.push(Warning {
            code: Code::MisreadMoveNumber,
            message,
            span: number.span,
        });
        self.warn_dangling(line.number.replace(number));
    }

    /// A move with the next move number glued to it (`81-7113.`: the move `81-71`, the number
    /// `13.`) in `start..end`: both read, the number with a warning. Whether it was one.
    fn glued_number(&mut self, line: &mut Line, start: usize, end: usize) -> bool {
        let word = &self.src[start..end];
        let dots = word.iter().rev().take_while(|&&b| b == b'.').count();
        let digits = word[..word.len() - dots]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if dots == 0 {
            return false;
        }
        for len in 1..=digits.min(3) {
            let number_at = end - dots - len;
            let Some(played) = self.move_within(start, number_at) else {
                continue;
            };
            line.push(self.log, played, Span::new(start, number_at));
            let number = MoveNumber {
                number: decimal(&self.src[number_at..end - dots]).unwrap_or_default(),
                ellipsis: dots >= 2,
                span: Span::new(number_at, end),
            };
            let message = format!(
                "move number {} is glued to the move before it",
                text(&self.src[number.span.range()])
            );
            self.misread_number(line, number, message);
            self.pos = end;
            return true;
        }
        false
    }

    /// The move written in exactly `start..end`, if those bytes are one.
    fn move_within(&mut self, start: usize, end: usize) -> Option<Played> {
        let src = self.src;
        self.src = &src[..end];
        self.pos = start;
        let played = self.played().ok().filter(|_| self.pos == end);
        self.src = src;
        played
    }

    /// Whether `bytes` alone are a move (on the game's board).
    fn reads_as_move(&self, bytes: &[u8]) -> bool {
        let mut log = Log::default();
        let mut parser = Parser {
            src: bytes,
            pos: 0,
            eof: true,
            limits: self.limits,
            board: self.board,
            geometry: self.geometry,
            rotate: self.rotate,
            numbering: self.numbering,
            log: &mut log,
        };
        parser.played().is_ok() && parser.pos == bytes.len()
    }

    /// Where a garbled move that ends at `end` ends when a space splits it: the words after it on
    /// its line that are no token of their own (`33-4 3`, `33 -43`, `33 43`, `33 - 43`) are part
    /// of it if all of them together read as a move.
    fn split_move_end(&self, start: usize, end: usize) -> usize {
        let next_part = |from: usize| {
            let blanks = self.src[from..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            let at = from + blanks;
            let word = self.word(at);
            let bytes = &self.src[word.range()];
            (blanks > 0
                && self.src.get(at).is_some_and(|&b| !is_delimiter(b))
                && self.lone_part(bytes))
            .then_some((word.end as usize, bytes))
        };
        let first = &self.src[start..end];
        let Some((second_end, second)) = next_part(end) else {
            return end;
        };
        let bare = |w: &[u8]| w.iter().all(u8::is_ascii_digit);
        let mut joined = [first, second].concat();
        if self.reads_as_move(&joined)
            || bare(first) && bare(second) && self.reads_as_move(&[first, b"-", second].concat())
        {
            return second_end;
        }
        if matches!(second, b"-" | b":")
            && let Some((third_end, third)) = next_part(second_end)
        {
            joined.extend_from_slice(third);
            if self.reads_as_move(&joined) {
                return third_end;
            }
        }
        end
    }

    /// Whether a word may be a piece of a move split by a space: no token of its own (a move, a
    /// move number, a result, a call) and not prose.
    fn lone_part(&self, word: &[u8]) -> bool {
        let written = text(word);
        could_be_move(&written)
            && !self.reads_as_move(word)
            && move_number(word).is_none_or(|(_, _, len)| len < word.len())
            && misread_number(&written).is_none()
            && result_token(word).is_err()
    }

    /// A `Salta!` call here (`b` is the byte here): what follows it.
    fn salta_call_here(&self, b: u8) -> Option<&'a [u8]> {
        if !matches!(b, b's' | b'S') {
            return None;
        }
        let (rest, ()) = salta_call(self.rest()).ok()?;
        rest.first()
            .is_none_or(|&b| is_delimiter(b) && b != b'!' && b != b'?')
            .then_some(rest)
    }

    /// A result token here, followed by a delimiter.
    fn result_here(&self) -> Option<(GameResult, &'a [u8])> {
        let (rest, r) = result_token(self.rest()).ok()?;
        rest.first()
            .is_none_or(|&b| is_delimiter(b))
            .then_some((r, rest))
    }

    /// Comments on the rest of the result's line belong to this game.
    fn trailing_comments(&mut self) -> PResult<()> {
        loop {
            while let Some(b' ' | b'\t' | b'\r') = self.peek() {
                self.pos += 1;
            }
            match self.peek() {
                Some(b'\n') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'{' | b';') => {
                    let c = self.comment()?;
                    self.log.tokens.push(c);
                }
                _ => return Ok(()),
            }
        }
    }

    fn warn_dangling(&mut self, number: Option<MoveNumber>) {
        if let Some(n) = number {
            self.log.warnings.push(Warning {
                code: Code::DanglingMoveNumber,
                message: format!("move number {} without a move", n.number),
                span: n.span,
            });
        }
    }

    fn misplaced(&self, start: usize, len: usize, message: &str, help: &str) -> Stop {
        Stop::Error(
            error(
                Code::Misplaced,
                message,
                Span::new(start, start + len.max(1)),
                "there is no move before this",
            )
            .help(help),
        )
    }

    fn unclosed_variation_error(&self, open: usize, at: usize) -> Box<RawError> {
        let mut e = error(
            Code::UnclosedVariation,
            "variation never closed",
            Span::new(open, open + 1),
            "variation opened here is never closed",
        )
        .help("close it with ) after its last move");
        if at > open + 1 {
            let end = (self.word(at).end as usize).max(at);
            e.related = Some((
                Span::new(at, end.min(self.src.len())),
                "the game goes on here".to_string(),
            ));
        }
        e.resume = Resume::Scan {
            from: at,
            in_tags: false,
        };
        e
    }

    fn unclosed_variation(&self, open: usize, at: usize) -> Stop {
        let mut e = self.unclosed_variation_error(open, at);
        e.related = None;
        Stop::Error(e)
    }

    /// `{…}` or `;…` to the end of the line: a [`Token::Comment`].
    fn comment(&mut self) -> PResult<Token> {
        let start = self.pos;
        let too_long = |end: usize, limit: usize| {
            Stop::Error(
                error(
                    Code::CommentTooLong,
                    "comment too long",
                    Span::new(start, start + 1),
                    "this comment",
                )
                .help(format!(
                    "a comment may hold at most {limit} bytes; split it"
                ))
                .with_resume(end),
            )
        };
        if self.peek() == Some(b';') {
            let end = self.line_end(start);
            if end - start > self.limits.comment_bytes {
                return Err(too_long(end, self.limits.comment_bytes));
            }
            self.pos = end;
            return Ok(Token::Comment {
                span: Span::new(start, end),
                text: self.trimmed(start + 1, end),
            });
        }
        let mut i = start + 1;
        loop {
            if i - start > self.limits.comment_bytes {
                return Err(too_long(i, self.limits.comment_bytes));
            }
            let found = first_of(self.src.get(i..).unwrap_or_default(), b'}', b'\n');
            let Some(found) = found else {
                if !self.eof {
                    return Err(Stop::NeedMore);
                }
                return Err(self.unclosed_comment(start, Resume::At(self.src.len())));
            };
            i += found;
            if self.src[i] == b'}' {
                break;
            }
            i += 1;
            if self.tag_line_at(i) {
                return Err(self.unclosed_comment(start, Resume::At(i)));
            }
        }
        if i - start > self.limits.comment_bytes {
            return Err(too_long(i, self.limits.comment_bytes));
        }
        self.pos = i + 1;
        Ok(Token::Comment {
            span: Span::new(start, i + 1),
            text: self.trimmed(start + 1, i),
        })
    }

    /// The span of `from..to` without the ASCII whitespace at its ends.
    fn trimmed(&self, from: usize, to: usize) -> Span {
        let bytes = &self.src[from..to];
        let lead = bytes.len() - bytes.trim_ascii_start().len();
        let trail = bytes.len() - bytes.trim_ascii_end().len();
        Span::new(from + lead, (to - trail).max(from + lead))
    }

    fn unclosed_comment(&self, start: usize, resume: Resume) -> Stop {
        let mut e = error(
            Code::UnclosedComment,
            "comment never closed",
            Span::new(start, start + 1),
            "comment opened here is never closed",
        )
        .help("close it with }; a comment cannot run into the next game's tags");
        e.resume = resume;
        Stop::Error(e)
    }

    /// Whether a tag pair (`[Name "`) starts the line at `i`.
    fn tag_line_at(&self, i: usize) -> bool {
        let rest = self.src.get(i..).unwrap_or_default();
        (spaces, tag("["), tag_name, spaces, tag("\""))
            .parse(rest)
            .is_ok()
    }

    /// A move token: `--`, or an optional designator and from-square, a separator, a to-square.
    #[inline(always)]
    fn played(&mut self) -> PResult<Played> {
        if self.rest().starts_with(b"--") {
            self.pos += 2;
            return Ok(Played::Pass);
        }
        let start = self.pos;
        let piece = match self.peek() {
            Some(b'#' | b'S' | b's' | b'M' | b'm' | 0xe2) => self.designator()?,
            _ => None,
        };
        if piece.is_some() {
            let (rest, _) = spaces(self.rest()).unwrap_or((self.rest(), &[]));
            self.advance_to(rest);
            if let Some(separator) = separator(self.src.get(self.pos)) {
                self.pos += 1;
                let (to, _) = self.square(None)?;
                return Ok(Played::Move {
                    piece,
                    from: None,
                    to,
                    separator,
                });
            }
        }
        let (from, algebraic) = self.square(None).map_err(|e| match e {
            Stop::Error(e) if e.code == Code::UnexpectedToken && piece.is_none() => {
                self.unexpected(start, "a move such as 33-43, 45:64, e3-f4 or Su3-44, a move number, a comment or a result")
            }
            e => e,
        })?;
        let separator = match separator(self.src.get(self.pos)) {
            Some(separator) => {
                self.pos += 1;
                separator
            }
            // Algebraic squares need no separator to be told apart: `e3f4`, `j4h6`.
            None if algebraic && self.peek().is_some_and(|b| b.is_ascii_alphabetic()) => {
                Separator::Omitted
            }
            None => {
                return Err(self.unexpected(
                    start,
                    "a move: from-square, - or :, to-square (33-43, 45:64, e3-f4)",
                ));
            }
        };
        let (to, _) = self.square(Some(algebraic))?;
        Ok(Played::Move {
            piece,
            from: Some(from),
            to,
            separator,
        })
    }

    /// A piece designator: `St1`…`Su5`, `So3`, `★1`, `☾2`, `☀3`, `#1`…`#15`.
    fn designator(&mut self) -> PResult<Option<Designator>> {
        let start = self.pos;
        let rest = self.rest();
        if rest.first() == Some(&b'#') {
            let digits = rest
                .get(1..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let span = Span::new(start, start + 1 + digits);
            let n = std::str::from_utf8(&rest[1..1 + digits])
                .ok()
                .and_then(|d| d.parse::<u32>().ok());
            return match n {
                Some(n @ 1..=15) if digits <= 2 => {
                    self.pos = span.end as usize;
                    Ok(Some(Designator::new_unchecked(n as u8 - 1, None, span)))
                }
                _ => Err(Stop::Error(
                    error(Code::BadDesignator, "bad piece number", span, "not a piece").help(
                        "the single numbering runs #1–#15 (stars 1–5, moons 6–10, suns 11–15)",
                    ),
                )),
            };
        }
        let Ok((after, kind)) = designator_kind(rest) else {
            return Ok(None);
        };
        let Some(&digit) = after.first().filter(|b| b.is_ascii_digit()) else {
            return Ok(None);
        };
        let end = self.src.len() - after.len() + 1;
        let span = Span::new(start, end);
        if !(b'1'..=b'5').contains(&digit) {
            let e = error(
                Code::BadDesignator,
                "bad piece designator",
                span,
                "not a piece",
            )
            .help(format!(
                "the {}s are numbered 1–5, as in {}3",
                kind.name(),
                kind.abbreviation()
            ));
            return Err(Stop::Error(e));
        }
        self.pos = end;
        Ok(Some(Designator::new_unchecked(
            kind as u8 * 5 + (digit - b'1'),
            Some(kind),
            span,
        )))
    }

    /// A square that is not a plain number: asks the geometry, which also says why a text is not
    /// a square.
    #[cold]
    fn slow_square(&self, token: &[u8], span: Span) -> PResult<crate::board::Square> {
        let t = std::str::from_utf8(token).unwrap_or_default();
        self.geometry.parse_square(t).map_err(|why| {
            let board = if self.geometry.kind == BoardKind::Pyramid {
                "8×8 Pyramid"
            } else {
                "10×10"
            };
            Stop::Error(
                error(
                    Code::BadSquare,
                    format!("{t} is not a square"),
                    span,
                    format!("not a square of the {board} board"),
                )
                .help(why.to_string()),
            )
        })
    }

    /// A numeric (`33`) or algebraic (`e3`) square, resolved on the game's board. `algebraic` says
    /// which form the move's other square used.
    #[inline(always)]
    fn square(&mut self, algebraic: Option<bool>) -> PResult<(SquareRef, bool)> {
        let start = self.pos;
        let rest = self.rest();
        let count_digits = |from: usize| {
            rest.get(from..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count()
        };
        let (is_algebraic, len) = match rest.first() {
            // The common case: two digits and a non-digit.
            Some(b'1'..=b'9')
                if rest.get(1).is_some_and(u8::is_ascii_digit)
                    && !rest.get(2).is_some_and(u8::is_ascii_digit) =>
            {
                (false, 2)
            }
            Some(b) if b.is_ascii_digit() => (false, count_digits(0)),
            Some(b) if b.is_ascii_alphabetic() && rest.get(1).is_some_and(u8::is_ascii_digit) => {
                (true, 1 + count_digits(1))
            }
            _ => return Err(self.unexpected(start, "a square such as 33 or e3")),
        };
        let span = Span::new(start, start + len);
        if algebraic.is_some_and(|a| a != is_algebraic) {
            let e = error(
                Code::MixedNotation,
                "numeric and algebraic squares in one move",
                span,
                "the other square is written the other way",
            )
            .help("write both squares of a move the same way: 33-43 or e3-f4");
            return Err(Stop::Error(e));
        }
        let token = &rest[..len];
        let number = match *token {
            [a, b] if !is_algebraic => Some(((a - b'0') * 10 + (b - b'0')) as usize),
            // A leading zero (`033`) goes to the slow path, which refuses it.
            [a, b, c] if !is_algebraic && a != b'0' => {
                Some((a - b'0') as usize * 100 + ((b - b'0') * 10 + (c - b'0')) as usize)
            }
            _ => None,
        };
        // The numbering is turned already; a square the slow path reads is turned here.
        let square = match number.and_then(|n| numbered_square(self.numbering, n)) {
            Some(square) => square,
            None => {
                let square = self.slow_square(token, span)?;
                if self.rotate {
                    self.geometry.rotate(square)
                } else {
                    square
                }
            }
        };
        self.pos = span.end as usize;
        Ok((SquareRef { square, span }, is_algebraic))
    }
}

impl RawError {
    fn with_resume(mut self: Box<Self>, at: usize) -> Box<Self> {
        self.resume = Resume::Scan {
            from: at,
            in_tags: false,
        };
        self
    }
}

/// Whether the token here has the shape of movetext (so it is parsed, and errors are reported,
/// rather than skipped as stray text).
fn looks_like_movetext(rest: &[u8]) -> bool {
    let Some(&first) = rest.first() else {
        return false;
    };
    let second = rest.get(1).copied();
    match first {
        b'{' | b';' => true,
        b'*' => second.is_none_or(is_delimiter),
        b'#' => second.is_some_and(|b| b.is_ascii_digit()),
        // A variation, not a parenthesised remark such as "(c) 1901".
        b'(' => {
            let inner = rest
                .iter()
                .position(|&b| b != b'(' && !b.is_ascii_whitespace())
                .map_or(&[][..], |p| &rest[p..]);
            looks_like_movetext(inner)
        }
        b'-' => second == Some(b'-'),
        b'0'..=b'9' => {
            let after = rest
                .iter()
                .position(|b| !b.is_ascii_digit())
                .and_then(|p| rest.get(p));
            matches!(after, Some(b'.' | b'-' | b':' | b'x' | b'X' | b'/'))
        }
        _ if rest.starts_with("½".as_bytes()) => true,
        _ if designator_kind(rest)
            .is_ok_and(|(r, _)| r.first().is_some_and(u8::is_ascii_digit)) =>
        {
            true
        }
        b'a'..=b'z' | b'A'..=b'Z' => {
            let digits = rest
                .get(1..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let after = rest.get(1 + digits..).unwrap_or_default();
            let square_follows = after.first().is_some_and(u8::is_ascii_alphabetic)
                && after.get(1).is_some_and(u8::is_ascii_digit);
            digits > 0
                && (matches!(after.first(), Some(b'-' | b':' | b'x' | b'X')) || square_follows)
        }
        _ => false,
    }
}

/// Whether a Numbering tag's value says the source numbered the squares from Red's side.
pub(crate) fn numbered_from_red(value: &str) -> bool {
    value.trim().eq_ignore_ascii_case("red")
}

/// The board a `Rules` tag asks for, decided as the replayer decides the rules: a tag that does not
/// read gives the default Salta rules, and so the 10×10 board (the replayer reports the tag).
pub(crate) fn board_of_rules(rules: &str) -> BoardKind {
    Rules::parse(rules).map_or(BoardKind::Salta, |r| r.board())
}

/// Where the game broken by an error ends: at the next tag section, or after the next result
/// token. `None`: the slice ends first and more input is needed.
fn resync(src: &[u8], eof: bool, resume: Resume) -> Option<usize> {
    let (mut i, in_tags) = match resume {
        Resume::At(at) => return Some(at),
        Resume::Scan { from, in_tags } => (from, in_tags),
    };
    let line_end = |from: usize| {
        src.get(from..)
            .unwrap_or_default()
            .iter()
            .position(|&b| b == b'\n')
            .map(|p| from + p)
    };
    let out_of_input = || eof.then_some(src.len());
    if in_tags {
        // Skip the rest of the broken tag section.
        loop {
            i = match line_end(i) {
                Some(e) => e + 1,
                None => return out_of_input(),
            };
            while src
                .get(i)
                .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            {
                i += 1;
            }
            if src.get(i) != Some(&b'[') {
                break;
            }
        }
    }
    let mut word_start = true;
    loop {
        let Some(&b) = src.get(i) else {
            return out_of_input();
        };
        match b {
            b'{' => {
                if let Some(p) = src[i..].iter().position(|&b| b == b'}') {
                    i += p + 1;
                } else {
                    i += 1;
                }
                word_start = true;
            }
            b';' => match line_end(i) {
                Some(e) => i = e,
                None => return out_of_input(),
            },
            b'\n' => {
                i += 1;
                while src
                    .get(i)
                    .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r'))
                {
                    i += 1;
                }
                if src.get(i) == Some(&b'[') {
                    return Some(i);
                }
                word_start = true;
            }
            _ if word_start => {
                let rest = &src[i..];
                let token = result_token(rest)
                    .ok()
                    .map(|(r, _)| rest.len() - r.len())
                    .or_else(|| rest.starts_with(b"\xbd-\xbd").then_some(3));
                if let Some(len) = token {
                    let end = i + len;
                    if src.get(end).is_none_or(|&b| is_delimiter(b)) {
                        // The rest of the result's line belongs to the broken game.
                        return Some(line_end(end).map_or(src.len(), |e| e + 1));
                    }
                }
                word_start = is_delimiter(b);
                i += 1;
            }
            _ => {
                word_start = is_delimiter(b);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{NumericMove, Separator, jump, separator};

    /// The separators are `-` for a step and `:`, `x` and `X` for a jump, and no other byte, both
    /// as the fast path reads them and as the rest of the parser does.
    #[test]
    fn separators_are_a_dash_for_a_step_and_colon_or_x_for_a_jump() {
        for b in 0..=u8::MAX {
            let (expected, shape) = match b {
                b'-' => (Some(Separator::Step), Some(0)),
                b':' | b'x' | b'X' => (Some(Separator::Jump), Some(NumericMove::JUMP)),
                _ => (None, None),
            };
            assert_eq!(separator(Some(&b)), expected, "byte {b:#04x}");
            assert_eq!(jump(b), shape, "byte {b:#04x}");
        }
        assert_eq!(separator(None), None);
    }

    /// `first_of` finds what a byte-by-byte search finds, in the words and in the tail, with the
    /// bytes sought next to each other, to `0x80` and to bytes one above them (the zero-lane
    /// test's borrow).
    #[test]
    fn first_of_finds_what_a_byte_search_finds() {
        let fill = [b'a', b'#', 0x80, 0xff, 0];
        for len in 0..40 {
            for &background in &fill {
                for at in 0..len {
                    for (a, b) in [(b'"', b'\\'), (b'\n', b'\n'), (b'}', b'\n')] {
                        let mut bytes = vec![background; len];
                        bytes[at] = b;
                        if at + 3 < len {
                            bytes[at + 3] = a;
                        }
                        if at > 0 {
                            bytes[at - 1] = a.wrapping_add(1);
                        }
                        let expected = bytes.iter().position(|&x| x == a || x == b);
                        assert_eq!(super::first_of(&bytes, a, b), expected, "{bytes:?}");
                    }
                }
            }
        }
    }
}
