//! Syntax errors and reading on past them: the garbled moves kept, the next game found.

use super::log::{Log, Token};
use super::scan::{decimal, digits_after_first, is_delimiter, is_space, move_number};
use super::tokens::{designator_kind, quoted, result_token, text};
use super::{Line, PResult, Parser, Stop};
use crate::diagnostic::Code;
use crate::diagnostic::quote;
use crate::notation::ast::*;
use crate::notation::garbled::{
    could_be_move, is_separator_like, loose_number, misread_number, number_fits, why_garbled,
};

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
        // A `$` is a NAG's, and a delimiter: `$5.` and `$3-42` (5 read as `$`) are one word,
        // and so is `$)-41`, a sign glued between.
        let word = match self.src[start] {
            b'$' => {
                let glued = |at: usize| self.src.get(at).is_some_and(|&b| !is_space(b));
                let sign =
                    glued(start + 1) && is_delimiter(self.src[start + 1]) && glued(start + 2);
                Span::new(start, self.word(start + 1 + usize::from(sign)).end as usize)
            }
            _ => self.word(start),
        };
        if self.leading_specks(start, word.end as usize) {
            return Ok(());
        }
        let mut end = self.with_glued_brackets(line, start, word.end as usize);
        let word = Span::new(start, end);
        let written = text(&self.src[word.range()]);
        if self.move_and_specks(line, start, end) || self.loose_number(line, start, end, &written) {
            return Ok(());
        }
        // `41;31`: a `;` between two digits is a misread separator, not a comment (decision 79).
        if self.src.get(end) == Some(&b';')
            && self.src[..end].last().is_some_and(u8::is_ascii_digit)
            && self.src.get(end + 1).is_some_and(u8::is_ascii_digit)
        {
            end = self.word(end + 1).end as usize;
        }
        let written = text(&self.src[start..end]);
        if self.number_due(line, start, end, &written) {
            return Ok(());
        }
        if let Some((number, ellipsis)) = misread_number(&written) {
            let number = MoveNumber {
                number,
                ellipsis,
                span: word,
            };
            let dots = if ellipsis { "..." } else { "." };
            let message = format!(
                "{} read as move number {}{dots}",
                quote(&written),
                number.number
            );
            self.misread_number(line, number, message);
            self.pos = end;
            return Ok(());
        }
        if self.glued_number(line, start, end)
            || self.number_glued_to_move(line, start, end)
            || self.number_run_into_move(line, start, end)
            || self.number_between_moves(line, start, end)
        {
            return Ok(());
        }
        if self.misread_result_at_end(line, start, end)? {
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
        if !could_be_move(&written) && !self.among_moves(&written, end)? {
            if self.trailing_noise(start, end)? {
                return Ok(());
            }
            return Err(error);
        }
        let end = self.split_move_end(start, end);
        let span = Span::new(start, end);
        let token = text(&self.src[span.range()]);
        let why = why_garbled(&token, self.geometry);
        self.log.warnings.push(Warning {
            code: Code::GarbledMove,
            message: format!("{} is not a move: {why}", quoted(token.as_bytes())),
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
        // Its dot, dots, or another sign for the dot (`63-54.55-`).
        let dots = match word.iter().rev().take_while(|&&b| b == b'.').count() {
            0 if matches!(word.last(), Some(b',' | b':' | b'-')) => 1,
            dots => dots,
        };
        let digits = word[..word.len() - dots]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        // No dot at all (`63:44.13`): only a number that fits closely after a sign, below.
        let dotless = dots == 0 && digits < word.len();
        if dots == 0 && !dotless {
            return false;
        }
        for len in 1..=digits.min(3) {
            let number_at = end - dots - len;
            // `81-7113.`, or a sign between (`55-44.19.`, `82-73-11.`, `103-93°17.`).
            let before = text(&self.src[start..number_at]);
            let sign = before
                .chars()
                .next_back()
                .filter(|&c| is_separator_like(c))
                .map_or(0, char::len_utf8);
            let found = [number_at, number_at - sign]
                .into_iter()
                .find_map(|e| self.move_within(start, e).map(|p| (p, e)));
            // A garbled move before it (`6354-26.`): only with a sign between and a number that
            // fits the count closely.
            let number = decimal(&self.src[number_at..end - dots]).unwrap_or_default();
            let fits = self.fits(number, line.number_after_next(), true);
            if word.last() != Some(&b'.') && !fits || dotless && (len != digits || sign == 0) {
                continue;
            }
            let close = sign > 0 && fits;
            let Some((played, move_end)) = found.or_else(|| {
                self.move_or_garbled(start, number_at - sign, close.then_some(8))
                    .map(|p| (p, number_at - sign))
            }) else {
                continue;
            };
            self.push_part(line, played, start, move_end);
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

    /// A move number misread beyond [`misread_number`] (`IL.`, `$5.`, `4:`, `12-`, or `36;`
    /// with its `;`) at `start..end`, read as a move number with a warning when it fits the
    /// game's count of moves. Whether it was one.
    fn loose_number(&mut self, line: &mut Line, start: usize, end: usize, written: &str) -> bool {
        let semicolon = self.src.get(end) == Some(&b';')
            && self.ends_semicolon(end)
            && written.len() <= 3
            && written.bytes().all(|b| b.is_ascii_digit());
        let word = if semicolon {
            format!("{written};")
        } else {
            written.to_string()
        };
        // A speck or a stray sign before it (`:37.`, `-52.`).
        let bare = word.trim_start_matches(is_separator_like);
        let read = loose_number(bare).filter(|&(n, _)| self.fits(n, line.next_number(), false));
        // A number too garbled to read (`1d.`: a digit, a glyph, a dot) where Green's move
        // comes: the number expected there.
        // So is one of glyphs alone (`Q.`, `OL.`, `ON,`) where no number waits and a move
        // follows, whatever the count says (moves run together put it off by a ply).
        let body = bare.trim_end_matches(['.', ',']);
        let glyphs = !body.bytes().any(|b| b.is_ascii_digit());
        let shaped = (1..=2).contains(&(bare.len() - body.len()))
            && body.bytes().all(|b| b.is_ascii_alphanumeric())
            && body.bytes().any(|b| b.is_ascii_alphabetic())
            && if glyphs {
                (1..=3).contains(&body.len()) && line.number.is_none() && self.move_follows(end)
            } else {
                line.next_is_green() && (2..=3).contains(&body.len())
            };
        let expected = self.expected_numbers(line.next_number())[1];
        let Some((number, ellipsis)) = read.or(shaped.then_some((expected, false))) else {
            return false;
        };
        if misread_number(written).is_some() {
            return false;
        }
        let end = end + usize::from(semicolon);
        let number = MoveNumber {
            number,
            ellipsis,
            span: Span::new(start, end),
        };
        let message = format!("{} read as move number {}.", quote(&word), number.number);
        self.misread_number(line, number, message);
        self.pos = end;
        true
    }

    /// A move number run into the move after it (`55-55-65`, `34.24-34`, `47-23:42.`) in
    /// `start..end`: a number that fits the game's count of moves, a sign, then a move (or a
    /// garbled one); both read, the number with a warning. Whether it was one.
    fn number_run_into_move(&mut self, line: &mut Line, start: usize, end: usize) -> bool {
        // A number read just before waits for this word's move; and two moves with a sign
        // between (`91-81.41-32`) are no number and move.
        if line.number.is_some() || self.two_moves(start, end) {
            return false;
        }
        let word = &self.src[start..end];
        // The number: digits, or OCR's glyphs for them (`I0I..103-93`), then one sign or up to
        // three dots.
        let head = word
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'\'')
            .count();
        let signs = match word.get(head) {
            Some(b'.') => word[head..].iter().take_while(|&&b| b == b'.').count(),
            // A sign, or a few (`3,.53-63`).
            Some(_) => text(&word[head..])
                .chars()
                .take_while(|&c| is_separator_like(c))
                .take(3)
                .map(char::len_utf8)
                .sum(),
            None => 0,
        };
        if !(1..=4).contains(&head) || signs == 0 || signs > 3 {
            return false;
        }
        let Some((number, _)) = loose_number(&format!("{}.", text(&word[..head]))) else {
            return false;
        };
        let digits = word[..head].iter().all(u8::is_ascii_digit);
        let move_at = start + head + signs;
        let fits = self.fits(number, line.next_number(), !digits);
        if end - move_at < 4 || !fits {
            return false;
        }
        // A garbled move after it only when the number fits closely and the rest holds one
        // move's digits (`84-74.53-42` at move 86 is two moves run together).
        let close = self.fits(number, line.next_number(), true);
        let Some(played) = self.move_or_garbled(move_at, end, close.then_some(6)) else {
            return false;
        };
        let number = MoveNumber {
            number,
            ellipsis: false,
            span: Span::new(start, move_at),
        };
        let message = format!(
            "move number {} is run into the move after it",
            text(&self.src[number.span.range()])
        );
        self.misread_number(line, number, message);
        self.push_part(line, played, move_at, end);
        self.pos = end;
        true
    }

    /// A move number glued between two moves or garbled moves (`93-83'31.-74:93`,
    /// `85:64.41..72:91`) in `start..end`: the part before it read as a move (or kept garbled),
    /// the number, with a warning, when it fits the count, and reading goes on after it (and
    /// the signs around it). Whether it was one.
    fn number_between_moves(&mut self, line: &mut Line, start: usize, end: usize) -> bool {
        let word = &self.src[start..end];
        let sign = |b: &u8| !b.is_ascii_alphanumeric();
        for i in 1..word.len() {
            if !word[i].is_ascii_digit() || !sign(&word[i - 1]) {
                continue;
            }
            let digits = word[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            let dots = word[i + digits..]
                .iter()
                .take_while(|&&b| b == b'.')
                .count();
            if digits > 3 || !(1..=3).contains(&dots) {
                continue;
            }
            let left_end = start + i - word[..i].iter().rev().take_while(|b| sign(b)).count();
            let after = i + digits + dots;
            let right = after + word[after..].iter().take_while(|b| sign(b)).count();
            let number = decimal(&word[i..i + digits]).unwrap_or_default();
            if left_end == start || !self.fits(number, line.number_after_next(), true) {
                continue;
            }
            let Some(played) = self.move_or_garbled(start, left_end, Some(8)) else {
                continue;
            };
            self.push_part(line, played, start, left_end);
            let number = MoveNumber {
                number,
                ellipsis: dots >= 2,
                span: Span::new(left_end, start + right),
            };
            let message = format!(
                "move number {} is glued to the moves around it",
                text(&self.src[start + i..start + i + digits + dots])
            );
            self.misread_number(line, number, message);
            self.pos = start + right;
            return true;
        }
        false
    }

    /// The move written in `start..end`, or a garbled one that holds 3 to `garbled` digits (one
    /// move's, or with 8 two moves run together, which repair reads apart).
    fn move_or_garbled(
        &mut self,
        start: usize,
        end: usize,
        garbled: Option<usize>,
    ) -> Option<Played> {
        if let Some(played) = self.move_within(start, end) {
            return Some(played);
        }
        let part = text(&self.src[start..end]);
        let digits = part.bytes().filter(u8::is_ascii_digit).count();
        (garbled.is_some_and(|most| (3..=most).contains(&digits)) && could_be_move(&part))
            .then_some(Played::Garbled)
    }

    /// A move read out of a longer word, with the garbled move's warning if it is one.
    fn push_part(&mut self, line: &mut Line, played: Played, start: usize, end: usize) {
        if matches!(played, Played::Garbled) {
            let part = text(&self.src[start..end]);
            self.log.warnings.push(Warning {
                code: Code::GarbledMove,
                message: format!(
                    "{} is not a move: {}",
                    quoted(part.as_bytes()),
                    why_garbled(&part, self.geometry)
                ),
                span: Span::new(start, end),
            });
        }
        line.push(self.log, played, Span::new(start, end));
    }

    /// Whether a variation may start with the move number `n` in `line`: the number of the
    /// last move read or of the next (by the count, or by the last number written), since a
    /// variation takes the place of the move before it, but not that of a Green move still to
    /// come (`(21.` after `20...`; decisions 192, 196).
    pub(super) fn variation_number(&self, line: &Line, n: u32) -> bool {
        let [by_count, after_last] = self.expected_numbers(line.next_number());
        let to_come = line.moves > 0 && (n == after_last || line.next_is_green() && n == by_count);
        let near = n <= by_count.max(after_last) && n.saturating_add(1) >= by_count.min(after_last);
        near && !to_come
    }

    /// The numbers a move number read here may stand for: `by_count` (by the count of the moves
    /// read), and one more than the last number written, since a count drifts where moves were
    /// run together or lost.
    pub(super) fn expected_numbers(&self, by_count: u32) -> [u32; 2] {
        // The last number among the last few moves (the fast path logs its own tokens).
        let last = self.log.tokens.iter().rev().take(6).find_map(|t| match t {
            Token::Number(n) | Token::Numbered(n, _) => Some(n.number),
            Token::Move(i) => self
                .log
                .moves
                .get(*i as usize)
                .and_then(|m| m.number)
                .map(|n| n.number),
            _ => None,
        });
        [by_count, last.map_or(by_count, |n| n + 1)]
    }

    /// Whether `number` fits one of the [`expected_numbers`](Self::expected_numbers): within
    /// one if `close`, else as [`number_fits`] says.
    fn fits(&self, number: u32, by_count: u32, close: bool) -> bool {
        self.expected_numbers(by_count).iter().any(|&e| {
            if close {
                number.abs_diff(e) <= 1
            } else {
                number_fits(number, e)
            }
        })
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
            ahead: &[],
            pos: 0,
            eof: true,
            limits: self.limits,
            board: self.board,
            geometry: self.geometry,
            rotate: self.rotate,
            numbering: self.numbering,
            log: &mut log,
            closes: std::cell::Cell::new(None),
            tails: std::cell::Cell::new(None),
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

/// Whether moves follow a result token that ends at `end` (a speck OCR read as `*`): the next
/// word starts with a digit and is no move number 1 (a new game's first).
fn moves_go_on(src: &[u8], end: usize) -> bool {
    let rest = src.get(end..).unwrap_or_default();
    let rest = &rest[rest.iter().take_while(|&&b| is_space(b)).count()..];
    rest.first().is_some_and(u8::is_ascii_digit)
        && result_token(rest).is_err()
        && move_number(rest).is_none_or(|(n, _, _)| n > 1)
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
                    if src.get(end).is_none_or(|&b| is_delimiter(b)) && !moves_go_on(src, end) {
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
