//! One move: its piece designator and its squares, numeric or algebraic.

use super::numbering::numbered_square;
use super::recovery::error;
use super::scan::{digits_after_first, separator};
use super::tokens::{designator_kind, spaces};
use super::{PResult, Parser, Stop};
use crate::board::BoardKind;
use crate::diagnostic::Code;
use crate::notation::ast::*;

impl<'a> Parser<'a> {
    /// A move token: `--`, or an optional designator and from-square, a separator, a to-square.
    #[inline(always)]
    pub(super) fn played(&mut self) -> PResult<Played> {
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
    pub(super) fn designator(&mut self) -> PResult<Option<Designator>> {
        let start = self.pos;
        let rest = self.rest();
        if rest.first() == Some(&b'#') {
            let digits = digits_after_first(rest);
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
    pub(super) fn slow_square(&self, token: &[u8], span: Span) -> PResult<crate::board::Square> {
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
    pub(super) fn square(&mut self, algebraic: Option<bool>) -> PResult<(SquareRef, bool)> {
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
