//! Move numbers where one is due: a number glued to its move without a sign (`135-44`), one that
//! lost its dot (`1 35-44`), the first one misread (`“4,`), and the words that are two moves
//! rather than a number run into a move (`91-81.41-32`). Off the reading's fast path, like
//! [`super::recovery`].

use super::scan::{decimal, is_delimiter, is_space, move_number};
use super::tokens::text;
use super::{Line, Parser};
use crate::diagnostic::quote;
use crate::notation::ast::*;
use crate::notation::garbled::{is_separator_like, is_speck};

impl<'a> Parser<'a> {
    /// Whether `start..end` is two moves with one sign between them (`91-81.41-32`), which
    /// repair reads apart.
    pub(super) fn two_moves(&self, start: usize, end: usize) -> bool {
        let word = &self.src[start..end];
        (4..word.len().saturating_sub(4)).any(|i| {
            is_separator_like(char::from(word[i]))
                && self.reads_as_move(&word[..i])
                && self.reads_as_move(&word[i + 1..])
        })
    }

    /// A move number glued to its move without a sign (`135-44`: `1.` and `35-44`, the dot
    /// lost) in `start..end`, read apart with a warning where a number is due (none waits,
    /// Green's move comes) and the digits before the move are the number the count expects.
    /// Whether it was one.
    pub(super) fn number_glued_to_move(
        &mut self,
        line: &mut Line,
        start: usize,
        end: usize,
    ) -> bool {
        if line.number.is_some() || !line.next_is_green() {
            return false;
        }
        let expected = self.expected_numbers(line.next_number());
        let digits = self.src[start..end]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        for len in 1..=digits.saturating_sub(2).min(3) {
            let number = decimal(&self.src[start..start + len]).unwrap_or_default();
            if !expected.contains(&number) {
                continue;
            }
            let Some(played) = self.move_within(start + len, end) else {
                continue;
            };
            let number = MoveNumber {
                number,
                ellipsis: false,
                span: Span::new(start, start + len),
            };
            let message = format!(
                "move number {} is glued to its move without its dot",
                number.number
            );
            self.misread_number(line, number, message);
            line.push(self.log, played, Span::new(start + len, end));
            self.pos = end;
            return true;
        }
        false
    }

    /// A word in a move number's shape where one is due (none waits, Green's move comes), read
    /// as the number due, with a warning: at the main line's start, where the count is surest,
    /// one to three glyphs and a dot or comma (`4,`, `“4,`, `Q.`) are `1.`; a number that lost
    /// its dot (`1 35-44`, `12 33-43`) is the number the count expects when it can be no square
    /// (one digit) and a move follows, or a whole move follows. Whether it was one.
    pub(super) fn number_due(
        &mut self,
        line: &mut Line,
        start: usize,
        end: usize,
        written: &str,
    ) -> bool {
        if line.number.is_some() || !line.next_is_green() || line.depth > 0 {
            return false;
        }
        let body = written.trim_end_matches(['.', ',']);
        let dots = written.len() - body.len();
        let at_start = line.moves == 0 && line.first_ply == 0;
        let number = if dots > 0 {
            let glyphs = body.chars().count();
            if !at_start
                || dots > 3
                || !(1..=3).contains(&glyphs)
                || !body.chars().all(char::is_alphanumeric)
            {
                return false;
            }
            1
        } else {
            let bare = (1..=3).contains(&body.len()) && body.bytes().all(|b| b.is_ascii_digit());
            let n = bare
                .then(|| decimal(body.as_bytes()))
                .flatten()
                .unwrap_or_default();
            let due = n > 0 && self.expected_numbers(line.next_number()).contains(&n);
            if !due || !(body.len() == 1 && self.move_follows(end) || self.whole_move_follows(end))
            {
                return false;
            }
            n
        };
        let number = MoveNumber {
            number,
            ellipsis: dots >= 2,
            span: Span::new(start, end),
        };
        let message = format!("{} read as move number {}.", quote(written), number.number);
        self.misread_number(line, number, message);
        self.pos = end;
        true
    }

    /// Whether the word after `end`, after blanks, is a move.
    pub(super) fn whole_move_follows(&self, end: usize) -> bool {
        let rest = self.src.get(end..).unwrap_or_default();
        let at = rest.iter().take_while(|&&b| is_space(b)).count();
        let word = &rest[at..];
        let len = word.iter().take_while(|&&b| !is_delimiter(b)).count();
        at > 0 && self.reads_as_move(&word[..len])
    }

    /// Whether a word that starts with a digit follows `end` (a move, or one garbled), after
    /// blanks and specks: what a move number stands before.
    pub(super) fn move_follows(&self, end: usize) -> bool {
        let rest = self.src.get(end..).unwrap_or_default();
        let at = rest.iter().take_while(|&&b| is_space(b)).count();
        let word = &rest[at..];
        let specks: usize = text(word.get(..8).unwrap_or(word))
            .chars()
            .take_while(|&c| is_speck(c))
            .map(char::len_utf8)
            .sum();
        let word = word.get(specks..).unwrap_or_default();
        let len = word.iter().take_while(|&&b| !is_delimiter(b)).count();
        word.first().is_some_and(u8::is_ascii_digit)
            && move_number(word).is_none_or(|(_, _, number)| number < len)
    }
}
