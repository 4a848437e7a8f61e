//! The SGN parser: one game at a time from a byte slice, with spans relative to the slice.
//!
//! The driving loop dispatches on the first byte of each token; nom parsers read the tokens, which
//! go into a [`Log`] of spans and values (reused from game to game): the visitor is called from it
//! once the game has been read whole (see [`super::visitor`]). The parser allocates only for
//! warnings and errors. It knows nothing of legality.
//!
//! When the slice is not the end of the input it must end at a line boundary: tokens never span
//! lines (comments may, and ask for more input), so reaching the end means "read more".
//!
//! Its rooms: this one drives a game (tags, then movetext, then what follows); [`tags`] reads the
//! tag section, [`movetext`] the lines of play, [`moves`] one move's designator and squares,
//! [`scan`] the hot path's byte classes and eight-byte words, [`numbering`] the square numbers,
//! [`tokens`] the small nom parsers, [`recovery`] the syntax errors, garbled moves and where the
//! next game starts, [`specks`] the marks OCR leaves beside the tokens, [`due`] move numbers read
//! where one is due; [`log`] is what a game's reading leaves for the visitor, [`limits`] the
//! bounds on a game.

mod due;
mod limits;
mod log;
mod moves;
mod movetext;
mod numbering;
mod recovery;
mod scan;
mod specks;
mod tags;
mod tokens;

pub use limits::{Limits, MAX_GAME_BYTES, MAX_VARIATION_DEPTH};
pub(crate) use log::{Log, Token};
pub(crate) use recovery::RawError;
pub(crate) use scan::NumericMove;

use super::ast::*;
use super::written::WrittenMove;
use crate::board::{BoardKind, Geometry};
use crate::diagnostic::Code;
use numbering::{Numbering, numbering};
use recovery::{error, looks_like_movetext, resync};
use scan::{first_of, is_delimiter, is_space};
use std::cell::Cell;
use tokens::{quoted, text};

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
/// of the game's Rules tag. `ahead`: what the caller holds past `src` of a line not yet whole
/// (empty at the end of the input), looked into only for the word after a result token.
pub(crate) fn parse_game(
    src: &[u8],
    ahead: &[u8],
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
        ahead,
        pos: 0,
        eof,
        limits,
        board,
        geometry: Geometry::of(board.unwrap_or(BoardKind::Salta)),
        rotate: false,
        numbering: numbering(board.unwrap_or(BoardKind::Salta), false),
        log,
        closes: Cell::new(None),
        tails: Cell::new(None),
    };
    let read = p.game();
    p.log.board = p.geometry.kind;
    match read {
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
    /// The start of the line after `src` as far as the caller holds it (see [`parse_game`]).
    ahead: &'a [u8],
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
    /// What the last look for a `{` or `(`'s close found (see [`Parser::stray_brace`]).
    closes: Cell<Option<CloseSeen>>,
    /// What the last look at the words to the game's end found (see `Parser::only_follows`).
    tails: Cell<Option<TailSeen>>,
}

/// A look at the words from `from` to the game's end for words of a `tail` only: they were all
/// such up to `to`, where the game ends (`only`) or a word of another kind stands. A look from
/// anywhere in between finds the same: a run of ten thousand specks is looked at once, not once
/// a speck.
#[derive(Clone, Copy)]
struct TailSeen {
    tail: specks::Tail,
    from: usize,
    to: usize,
    only: bool,
}

/// A look for the byte `close` from `from` on: it met the close at `to` (`closed`), or none
/// before the game's end (or the line's end, `line_only`) at `to`. A look from anywhere in
/// between meets the same.
#[derive(Clone, Copy)]
struct CloseSeen {
    close: u8,
    from: usize,
    to: usize,
    closed: bool,
    /// The look went to the end of `from`'s line only (a `(` glued to a word no move starts
    /// so): where it met no close, what lies beyond is unknown.
    line_only: bool,
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
    /// The number of the next move by the count of the moves read (a misread number is taken
    /// only where it fits this).
    fn next_number(&self) -> u32 {
        (self.first_ply + self.moves) / 2 + 1
    }

    /// Whether the next move is Green's by the count (a line starts with Green's move).
    fn next_is_green(&self) -> bool {
        (self.first_ply + self.moves).is_multiple_of(2)
    }

    /// The number of the move after the next one is read.
    fn number_after_next(&self) -> u32 {
        (self.first_ply + self.moves).div_ceil(2) + 1
    }

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

impl<'a> Parser<'a> {
    #[inline(always)]
    pub(super) fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    #[inline(always)]
    pub(super) fn rest(&self) -> &'a [u8] {
        self.src.get(self.pos..).unwrap_or_default()
    }

    /// Moves past a nom token: `rest` is what the token parser left.
    pub(super) fn advance_to(&mut self, rest: &[u8]) {
        self.pos = self.src.len() - rest.len();
    }

    #[inline(always)]
    pub(super) fn skip_ws(&mut self) {
        // Every space byte is at most b' ': most bytes leave without the table.
        while self.peek().is_some_and(|b| b <= b' ' && is_space(b)) {
            self.pos += 1;
        }
    }

    #[inline(always)]
    pub(super) fn delimited_here(&self) -> bool {
        self.peek().is_none_or(is_delimiter)
    }

    /// The span of the word at `start` (to the next delimiter), for error labels.
    pub(super) fn word(&self, start: usize) -> Span {
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

    pub(super) fn line_end(&self, from: usize) -> usize {
        let rest = self.src.get(from..).unwrap_or_default();
        first_of(rest, b'\n', b'\n').map_or(self.src.len(), |at| from + at)
    }

    pub(super) fn unexpected(&self, start: usize, expected: &str) -> Stop {
        let span = self.word(start);
        let found = quoted(self.src.get(span.range()).unwrap_or_default());
        Stop::Error(
            error(
                Code::UnexpectedToken,
                format!("unexpected {found}"),
                span,
                "not understood here",
            )
            .help(format!("expected {expected}")),
        )
    }

    /// The whole game into the log: false if there is nothing but whitespace and stray text.
    pub(super) fn game(&mut self) -> PResult<bool> {
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
                // A `{` never closed before moves is OCR's speck: the movetext starts at it.
                Some(b'{') if self.stray_brace(&Line::default(), self.pos, b'}')? => break,
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
    pub(super) fn configure_board(&mut self) {
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
    pub(super) fn skip_stray_line(&mut self) -> PResult<bool> {
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
                "skipped text that is neither a tag nor movetext: {}",
                quoted(&self.src[start..shown])
            ),
            span: Span::new(start, shown),
        });
        self.pos = end;
        Ok(true)
    }
}
