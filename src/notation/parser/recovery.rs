//! Syntax errors and reading on past them: the garbled moves kept, the next game found.

use super::log::Log;
use super::scan::{decimal, digits_after_first, is_delimiter, move_number};
use super::tokens::{designator_kind, quoted, result_token, text};
use super::{Line, PResult, Parser, Stop};
use crate::diagnostic::Code;
use crate::notation::ast::*;
use crate::notation::garbled::{could_be_move, misread_number, why_garbled};

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
    pub(super) resume: Resume,
}

/// Where to look for the next game after an error.
#[derive(Clone, Copy, Debug)]
pub(super) enum Resume {
    /// The next game starts exactly here (a tag section was seen).
    At(usize),
    /// Scan from here; `in_tags` skips the rest of a broken tag section first.
    Scan { from: usize, in_tags: bool },
}

pub(super) fn error(
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
    pub(super) fn help(mut self: Box<Self>, help: impl Into<String>) -> Box<Self> {
        self.help = Some(help.into());
        self
    }
}

impl<'a> Parser<'a> {
    /// A word in the place of a move that does not read as one, at `start`; `error` is what
    /// reading it as a move said. A misread move number (`I.`, `4,`) is read as the number it
    /// stands for, and a move number glued to the move before it (`81-7113.`) is read apart, each
    /// with a warning; a move garbled (`3S-43`, `3343`, `33-4 3`) is kept as written, with a
    /// warning, and reading goes on; prose (`knight`) gives `error`. Off the reading's fast path.
    #[cold]
    #[inline(never)]
    pub(super) fn unreadable(&mut self, line: &mut Line, start: usize, error: Stop) -> PResult<()> {
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
    pub(super) fn misread_number(&mut self, line: &mut Line, number: MoveNumber, message: String) {
        self.log.warnings.push(Warning {
            code: Code::MisreadMoveNumber,
            message,
            span: number.span,
        });
        self.warn_dangling(line.number.replace(number));
    }

    /// A move with the next move number glued to it (`81-7113.`: the move `81-71`, the number
    /// `13.`) in `start..end`: both read, the number with a warning. Whether it was one.
    pub(super) fn glued_number(&mut self, line: &mut Line, start: usize, end: usize) -> bool {
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
    pub(super) fn move_within(&mut self, start: usize, end: usize) -> Option<Played> {
        let src = self.src;
        self.src = &src[..end];
        self.pos = start;
        let played = self.played().ok().filter(|_| self.pos == end);
        self.src = src;
        played
    }

    /// Whether `bytes` alone are a move (on the game's board).
    pub(super) fn reads_as_move(&self, bytes: &[u8]) -> bool {
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
    pub(super) fn split_move_end(&self, start: usize, end: usize) -> usize {
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
    pub(super) fn lone_part(&self, word: &[u8]) -> bool {
        let written = text(word);
        could_be_move(&written)
            && !self.reads_as_move(word)
            && move_number(word).is_none_or(|(_, _, len)| len < word.len())
            && misread_number(&written).is_none()
            && result_token(word).is_err()
    }

    pub(super) fn misplaced(&self, start: usize, len: usize, message: &str, help: &str) -> Stop {
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

    pub(super) fn unclosed_variation_error(&self, open: usize, at: usize) -> Box<RawError> {
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

    pub(super) fn unclosed_variation(&self, open: usize, at: usize) -> Stop {
        let mut e = self.unclosed_variation_error(open, at);
        e.related = None;
        Stop::Error(e)
    }

    pub(super) fn unclosed_comment(&self, start: usize, resume: Resume) -> Stop {
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
}

impl RawError {
    pub(super) fn with_resume(mut self: Box<Self>, at: usize) -> Box<Self> {
        self.resume = Resume::Scan {
            from: at,
            in_tags: false,
        };
        self
    }
}

/// Whether the token here has the shape of movetext (so it is parsed, and errors are reported,
/// rather than skipped as stray text).
pub(super) fn looks_like_movetext(rest: &[u8]) -> bool {
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
            let digits = digits_after_first(rest);
            let after = rest.get(1 + digits..).unwrap_or_default();
            let square_follows = after.first().is_some_and(u8::is_ascii_alphabetic)
                && after.get(1).is_some_and(u8::is_ascii_digit);
            digits > 0
                && (matches!(after.first(), Some(b'-' | b':' | b'x' | b'X')) || square_follows)
        }
        _ => false,
    }
}

/// Where the game broken by an error ends: at the next tag section, or after the next result
/// token. `None`: the slice ends first and more input is needed.
pub(super) fn resync(src: &[u8], eof: bool, resume: Resume) -> Option<usize> {
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
