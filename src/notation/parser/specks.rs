//! Specks: marks an OCR engine leaves on a page's margins and beside the tokens (`“1,`,
//! `'52:31`, `©`, `|`, `84-74”`, a `*` where the game goes on), skipped with a warning so that
//! they neither stop a game nor split it. Off the reading's fast path, like [`super::recovery`].

use super::scan::{first_of, is_delimiter, is_space, move_number};
use super::tokens::{quoted, result_token, text};
use super::{CloseSeen, Line, PResult, Parser, Stop, TailSeen};
use crate::diagnostic::Code;
use crate::notation::ast::*;
use crate::notation::garbled::{
    all_specks, could_be_move, is_separator_like, is_speck, misread_result, number_fits,
};

/// The longest word of letters taken for a move garbled beyond its digits (`DEAD`, `SIFT`): a
/// move is written in five to seven characters.
const LONGEST_GLYPH_MOVE: usize = 7;

/// The longest word of letters taken for moves garbled beyond their digits where moves stand
/// around it: two moves run together (`SRiglAIAg`).
const LONGEST_GLYPH_WORD: usize = 2 * LONGEST_GLYPH_MOVE;

/// Words of letters in a row (besides the first) still taken for moves garbled beyond their
/// digits when a move follows them: a line of a page OCR read badly (`FOF MOS TT BEAN TS OE
/// TS. 24-54`).
const GLYPH_WORDS_IN_A_ROW: usize = 8;

/// `bytes` as text, up to its first byte that is no UTF-8 (a speck is looked for in the
/// characters before it).
fn valid_prefix(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    }
}

/// The character `bytes` starts with, read whole (`°` is two bytes), if it is UTF-8.
fn first_char(bytes: &[u8]) -> Option<char> {
    valid_prefix(&bytes[..bytes.len().min(4)]).chars().next()
}

/// How many bytes of specks, dots, commas and colons `bytes` starts with (`.`, `”:`).
pub(super) fn speck_bytes(bytes: &[u8]) -> usize {
    if bytes
        .first()
        .is_none_or(|&b| b.is_ascii_alphanumeric() || is_space(b))
    {
        return 0;
    }
    valid_prefix(bytes.get(..16).unwrap_or(bytes))
        .chars()
        .take_while(|&c| is_speck(c) || matches!(c, '.' | ',' | ':'))
        .map(char::len_utf8)
        .sum()
}

/// Whether a word holds no digit and is no longer than a move (`ene`, `Te`, `+`): OCR's noise
/// rather than a move's digits when nothing but such words follows it.
fn noise(word: &[u8]) -> bool {
    !word.iter().any(u8::is_ascii_digit)
        && (1..=LONGEST_GLYPH_MOVE).contains(&text(word).chars().count())
}

/// The words a game may end with that `Parser::only_follows` asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Tail {
    /// [`noise`]: short words without digits and specks (`OF`, `So ts ae`), as OCR reads below
    /// a page's last move.
    Noise,
    /// Words of neither letter nor digit (`:`, `°`, `©`).
    Specks,
}

impl Tail {
    fn allows(self, word: &[u8]) -> bool {
        match self {
            Tail::Noise => noise(word),
            Tail::Specks => !word.iter().any(u8::is_ascii_alphanumeric),
        }
    }
}

/// Whether `word` is written as words of prose are (`Fortsetzung`, `Anfang-Ende`): each run of
/// letters in it a capital at most and small letters after. OCR that reads a move as a word
/// mixes them (`SRiglAIAg`).
fn prose(word: &str) -> bool {
    word.split(|c: char| !c.is_alphabetic())
        .all(|run| run.chars().skip(1).all(char::is_lowercase))
}

/// How much of the word after a result token decides whether the game goes on: more than any
/// move, move number or result holds, so that a word of noise longer than a game may be is judged
/// by its start, wherever the input was cut.
const WORD_AFTER_RESULT: usize = 64;

/// The fewest digits a move is written with (`33-43`).
const MOVE_DIGITS: usize = 4;

/// The longest word glued after a `{` or `(` that may be a move or a move number misread
/// (`{P18`, `{OL,`, `(102.-75-84`).
const GLUED_WORD: usize = 12;

/// How far past a `[` in movetext a tag's name and its value's quote are looked for.
const TAG_NAME_LOOKED_AT: usize = 256;

/// Specks and short words of letters passed over after a result token before the word that
/// decides whether the game goes on (`* , 24-14`, `© * QUSE 73-64`).
const WORDS_PASSED_AFTER_RESULT: usize = 3;

impl<'a> Parser<'a> {
    /// A speck warned of at `start..end` (`what` says what it stood in the place of).
    pub(super) fn speck(&mut self, start: usize, end: usize, what: &str) {
        self.log.warnings.push(Warning {
            code: Code::Speck,
            message: format!(
                "{} skipped: {what}",
                quoted(self.src.get(start..end).unwrap_or_default())
            ),
            span: Span::new(start, end),
        });
    }

    /// The word at `start..end` made of specks (`©`, `|`, `.`), or the specks at its front
    /// (`“1,`, `°15-24`): skipped with a warning, and reading goes on after them. Whether any
    /// were.
    pub(super) fn leading_specks(&mut self, start: usize, end: usize) -> bool {
        let bytes = &self.src[start..end];
        let word = valid_prefix(bytes);
        let skip = if word.len() == bytes.len() && all_specks(word) {
            bytes.len()
        } else {
            word.chars()
                .take_while(|&c| is_speck(c))
                .map(char::len_utf8)
                .sum()
        };
        if skip == 0 {
            return false;
        }
        self.speck(start, start + skip, "a speck, no token");
        self.pos = start + skip;
        true
    }

    /// A move followed by specks or a stray dot (`84-74”`, `33-43'`, `45-35.`) at `start..end`:
    /// the move read, the specks skipped with a warning. Whether it was one.
    pub(super) fn move_and_specks(&mut self, line: &mut Line, start: usize, end: usize) -> bool {
        let bytes = &self.src[start..end];
        let word = valid_prefix(bytes);
        if word.len() < bytes.len() {
            return false;
        }
        let trailing: usize = word
            .chars()
            .rev()
            .take_while(|&c| is_speck(c) || matches!(c, '.' | ','))
            .map(char::len_utf8)
            .sum();
        let move_end = end - trailing;
        if trailing == 0 || move_end == start {
            return false;
        }
        let Some(played) = self.move_within(start, move_end) else {
            return false;
        };
        line.push(self.log, played, Span::new(start, move_end));
        self.speck(move_end, end, "a speck after the move");
        self.pos = end;
        true
    }

    /// Where the word at `start..end` ends with the `]` and `)` glued to it (`61-7]`, `107)`,
    /// `55:3)`): a glyph OCR gives for a 1 or for the dot, part of the word. A `)` closes a
    /// variation where one is open.
    pub(super) fn with_glued_brackets(&self, line: &Line, start: usize, end: usize) -> usize {
        let mut end = end;
        while end > start
            && !is_space(self.src[end - 1])
            && self.src.get(end).is_some_and(|&b| {
                matches!(b, b']' | b'}' | b'$' | b'?' | b'!') || b == b')' && line.open.is_none()
            })
        {
            end += 1;
            end += self.src[end..]
                .iter()
                .take_while(|&&b| !is_delimiter(b))
                .count();
        }
        end
    }

    /// Whether what follows the `;` at `at` ends it as OCR's dot or comma would end: a blank,
    /// a sign, or the end of the text (`36; 33-43`, `25;-94-103`, `25;°94-103`), not a
    /// comment's first word.
    pub(super) fn ends_semicolon(&self, at: usize) -> bool {
        let after = self.src.get(at + 1..).unwrap_or_default();
        let Some(&first) = after.first() else {
            return true;
        };
        is_space(first) || first_char(after).is_some_and(is_separator_like)
    }

    /// Whether the `;` at `at` is glued to the word before it, ended as [`Self::ends_semicolon`]
    /// says or by a square's two digits, a move number or a speck glued after it, and has a
    /// move after it on its line (`85-75-43; 95-105 13-23`, `25;-04-103 82:61`, `21-32;84-74`,
    /// `81-72;2. 42-52`, `101;'73-82`): OCR's comma or dot, not a comment that would take the
    /// rest of the line's moves with it. A comment of words stays one (`33-43; a fine move`),
    /// and so does one glued to its text (`33-43;c`, `33-43;2nd best`).
    pub(super) fn glued_semicolon(&self, at: usize) -> bool {
        if at == 0 || is_space(self.src[at - 1]) {
            return false;
        }
        let after = &self.src[at + 1..];
        let digits = after.iter().take_while(|b| b.is_ascii_digit()).count();
        let number = move_number(after).is_some();
        if !(self.ends_semicolon(at) || digits >= 2 || number || speck_bytes(after) > 0) {
            return false;
        }
        let end = self.line_end(at);
        self.src[at + 1..end]
            .split(|&b| is_space(b))
            .any(|word| word.iter().any(u8::is_ascii_digit) && could_be_move(&text(word)))
    }

    /// Whether the `)` at `at`, where no variation is open, is glued to the word before it
    /// (`52-41)`, `©).`), or stands before a digit (`)3,44:65`, OCR's glyph for a move number's
    /// first digit) or, after a move, before a sign (`),` at a line's head): OCR's speck, not a
    /// variation's end.
    pub(super) fn glued_paren(&self, line: &Line, at: usize) -> bool {
        let before = at > 0
            && !is_space(self.src[at - 1])
            && !matches!(self.src[at - 1], b'(' | b')' | b'{' | b'}')
            && self
                .src
                .get(at + 1)
                .is_none_or(|&b| is_delimiter(b) || matches!(b, b'.' | b',' | b':'));
        let after = self.src.get(at + 1).is_some_and(|&b| {
            b.is_ascii_digit() || line.moves > 0 && matches!(b, b'.' | b',' | b':' | b';')
        });
        line.open.is_none() && (before || after)
    }

    /// What the words from `at` on decide: each in turn (what blanks part, judged by at most
    /// [`WORD_AFTER_RESULT`] bytes) is given to `decide` until it decides, at most `n` of them
    /// (none decided, or no word left: `false`). They are read in the slice, then in the line the
    /// reader holds beyond it (`ahead`); more input is asked for only while the word to decide
    /// may be cut there, never until its line is whole (a line may be longer than a game may
    /// be): so the answer does not depend on where a chunk of the input ended.
    fn words_decide(
        &self,
        at: usize,
        n: usize,
        mut decide: impl FnMut(&[u8]) -> Option<bool>,
    ) -> PResult<bool> {
        let skip = |bytes: &'a [u8], blank: bool| {
            let skipped = bytes.iter().take_while(|&&b| is_space(b) == blank).count();
            &bytes[skipped..]
        };
        let mut rest = self.src.get(at..).unwrap_or_default();
        let mut in_ahead = false;
        for _ in 0..n {
            rest = skip(rest, true);
            if rest.is_empty() && !self.eof && !in_ahead {
                rest = skip(self.ahead, true);
                in_ahead = true;
            }
            let len = rest
                .iter()
                .take(WORD_AFTER_RESULT)
                .take_while(|&&b| !is_space(b))
                .count();
            if in_ahead && !self.eof && len == rest.len() && len < WORD_AFTER_RESULT {
                return Err(Stop::NeedMore);
            }
            if len == 0 {
                break;
            }
            if let Some(decided) = decide(&rest[..len]) {
                return Ok(decided);
            }
            rest = skip(&rest[len..], false);
        }
        Ok(false)
    }

    /// Whether the game goes on after a result token that ends at `at` (OCR reads a speck as
    /// `*`): the next word starts with a digit, is no result, and is no move number but one that
    /// continues the count (a new game starts at `1.`, or with its tags).
    /// Where only blanks follow to the slice's end, the next word is the first of the line the
    /// reader holds beyond it (`ahead`), and more input is asked for only until that word is whole
    /// or [`WORD_AFTER_RESULT`] bytes long, never until its line is (a line may be longer than a
    /// game may be): so the answer does not depend on where a chunk of the input ended.
    /// A word that does not start with a digit goes on the game where it holds a digit and could
    /// be a move (`Ga:43`). Specks and short words of letters before that word are passed over
    /// (`* , 24-14`, `© * QUSE 73-64`), but after letters only a move goes on the game: a word
    /// of letters may be a title between games (`Page 2`).
    /// A result before any move goes on the game only with a move or the first move number after
    /// it on its line (`* 132-41`, a speck at the head of the page): a game of tags alone is
    /// followed by the next game's first line.
    pub(super) fn game_goes_on(&self, line: &Line, at: usize) -> PResult<bool> {
        if line.moves == 0 && !self.on_its_line(at) {
            return Ok(false);
        }
        let mut after_letters = false;
        self.words_decide(at, WORDS_PASSED_AFTER_RESULT + 1, |word| {
            // A word is read up to a delimiter (`82-72{c}`); one that starts with a delimiter
            // (`{`, `(`, `[`) decides that the game ends; a `)`, which opens nothing, is passed
            // over as a speck (`*)` at a line's start), and so is a `(` before a digit: no
            // variation follows a result, and no game starts with one (`* (62-73`). A `$`
            // before a digit is OCR's 5 (`$3-22`, decision 79): no NAG follows a result.
            let word = &word[word.iter().take_while(|&&b| b == b')').count()..];
            let word = match word {
                [b'(', digit, ..] if digit.is_ascii_digit() => &word[1..],
                _ => word,
            };
            if word.is_empty() {
                return None;
            }
            let dollar = usize::from(
                word.first() == Some(&b'$') && word.get(1).is_some_and(u8::is_ascii_digit),
            );
            let word = &word[..dollar
                + word[dollar..]
                    .iter()
                    .take_while(|&&b| !is_delimiter(b))
                    .count()];
            if word.is_empty() {
                return Some(false);
            }
            // A speck (`* ,`, `© *`) or a short word of letters (`* QUSE`) is passed over:
            // the word after it decides (a title is followed by no move: `Page 2`).
            if all_specks(valid_prefix(word)) || noise(word) {
                after_letters |= word.iter().any(u8::is_ascii_alphabetic);
                return None;
            }
            Some(self.goes_on_with(line, word, after_letters))
        })
    }

    /// Whether `word`, the first after a result token that is no speck, goes on the game (see
    /// [`Parser::game_goes_on`]); `after_letters`: a word of letters stood between (a title, or
    /// a move garbled to letters), after which only a move goes on the game.
    fn goes_on_with(&self, line: &Line, word: &[u8], after_letters: bool) -> bool {
        let written = text(word);
        let a_move =
            word.iter().filter(|b| b.is_ascii_digit()).count() >= 3 && could_be_move(&written);
        if !word[0].is_ascii_digit() {
            return word.iter().any(u8::is_ascii_digit)
                && could_be_move(&written)
                && (a_move || !after_letters);
        }
        if result_token(word).is_ok_and(|(after, _)| after.is_empty()) {
            return false;
        }
        match move_number(word) {
            // By the count, or by the last number written: a count drifts where moves were
            // run together or lost.
            Some((n, _, _)) => {
                (n > 1 || line.moves == 0)
                    && (self.expected_numbers(line.next_number()))
                        .iter()
                        .any(|&e| number_fits(n, e))
            }
            None => a_move || !after_letters,
        }
    }

    /// Specks and words without digits on the rest of a result's line (`1-0 :`, `* ”`, `1-0 ee
    /// Se`, `0-1 igvatyts LOE`, decision 186), or with too few to start a game (`Se ae 6 3`: no
    /// move number, no move): the game's, skipped with a warning rather than read as a game of
    /// their own. Whether any were.
    pub(super) fn specks_after_result(&mut self) -> bool {
        let start = self.pos;
        let end = start
            + self.src[start..]
                .iter()
                .take_while(|&&b| !is_space(b))
                .count();
        let word = &self.src[start..end];
        let digits = word.iter().filter(|b| b.is_ascii_digit()).count();
        let starts_a_game = move_number(word).is_some() || digits >= MOVE_DIGITS;
        if end == start || word[0] == b'[' || starts_a_game && !all_specks(valid_prefix(word)) {
            return false;
        }
        self.speck(start, end, "text after the result on its line");
        self.pos = end;
        true
    }

    /// The word at `start..end` of the main line a result misread (`O-T`, `I-O`) with only
    /// noise after it to the game's end: the game's result, with a warning. Whether it was.
    pub(super) fn misread_result_at_end(
        &mut self,
        line: &Line,
        start: usize,
        end: usize,
    ) -> PResult<bool> {
        let written = text(&self.src[start..end]);
        let Some(result) = misread_result(&written).filter(|_| line.depth == 0) else {
            return Ok(false);
        };
        if !self.only_follows(end, Tail::Noise)? {
            return Ok(false);
        }
        let span = Span::new(start, end);
        self.log.warnings.push(Warning {
            code: Code::MisreadResult,
            message: format!(
                "{} read as the result {}",
                quoted(written.as_bytes()),
                result
            ),
            span,
        });
        self.log.result = Some((result, span));
        self.pos = end;
        Ok(true)
    }

    /// The word at `start..end`, noise with only noise after it to the game's end, skipped with
    /// a warning. Whether it was.
    pub(super) fn trailing_noise(&mut self, start: usize, end: usize) -> PResult<bool> {
        if !noise(&self.src[start..end]) || !self.only_follows(end, Tail::Noise)? {
            return Ok(false);
        }
        self.speck(start, end, "text after the last move");
        self.pos = end;
        Ok(true)
    }

    /// Whether the `[` at `at` in movetext starts a tag (`[Event "…"]`: a name, then a quoted
    /// value), so a new game; any other `[` is OCR's speck (`- [. 35-45`, a 1 or a bracket on
    /// the margin), not a tag without a name that would split the game.
    pub(super) fn starts_tag(&self, at: usize) -> PResult<bool> {
        let rest = self.src.get(at + 1..).unwrap_or_default();
        let blanks = |bytes: &[u8]| {
            bytes
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count()
        };
        let mut i = blanks(rest);
        let name = rest[i..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
            .count();
        if rest.get(i).is_some_and(|b| !b.is_ascii_alphabetic()) {
            return Ok(false);
        }
        i += name;
        i += blanks(&rest[i..]);
        match rest.get(i) {
            Some(&b) => Ok(b == b'"'),
            None if self.eof || i > TAG_NAME_LOOKED_AT => Ok(false),
            None => Err(Stop::NeedMore),
        }
    }

    /// Whether the `(` at `at` is glued to a word (`(TT:`, `(E3242`), not to a blank or a
    /// comment as a variation may be.
    fn glued_to_word(&self, at: usize) -> bool {
        (self.src.get(at + 1)).is_some_and(|&b| !is_space(b) && !matches!(b, b'{' | b';' | b'('))
    }

    /// Whether the `(` at `at`, before any move of the main line, is OCR's speck: glued to a
    /// word that is no move number (`(E3242`, the page's `1.` misread). A variation there
    /// (`(1. 33-43)`) is a writer's slip, and an error.
    pub(super) fn speck_before_moves(&self, at: usize) -> bool {
        self.glued_to_word(at) && move_number(&self.src[at + 1..]).is_none()
    }

    /// Whether the `{` or `(` at `at` is OCR's speck: glued to a digit or a dot (`{05:84`,
    /// `{.34-43`, `(5-24`), or to a word that holds a digit or ends as a move number does
    /// (`{P18`, `{OL,`: a move or a number misread), with no `close` (`}` or `)`) before the
    /// game's end (the input's end or a tag line). A `{` is one too where a word of the two
    /// after it holds a digit or only specks follow to the game's end (`{PTS 75.`, `{ :`), and a
    /// `(` where it is glued to a word no move starts so and its own line does not close it
    /// (`($4.`, `(TT:`; decisions 193, 196). A remark (`{open`) never closed stays an error, and
    /// so does a variation starting with a number one may start with (`( 12. 33-43`, `(1...`;
    /// not `(21.` after `20...` nor `(8.` at move 26: [`Parser::variation_number`]). The slice
    /// ending first asks for more input.
    pub(super) fn stray_brace(&self, line: &Line, at: usize, close: u8) -> PResult<bool> {
        let after = self.src.get(at + 1..).unwrap_or_default();
        // The word glued to it, looked at no further than a move or a number reaches: a longer
        // one is judged by its first byte (and a line of braces is not read again at each).
        let head = &after[..after.len().min(GLUED_WORD + 1)];
        let word = match head.iter().position(|&b| is_space(b)) {
            Some(end) => &head[..end],
            None if head.len() <= GLUED_WORD => head,
            None => &head[..1],
        };
        let numbered = word.iter().any(u8::is_ascii_digit)
            || word.len() > 1 && matches!(word.last(), Some(b'.' | b','));
        // A `{` before moves (`{PTS 75.`, `{°° 456,`) or before nothing but specks to the
        // game's end (`{ :`).
        let before_moves = || -> PResult<bool> {
            let digit = |w: &[u8]| w.iter().any(u8::is_ascii_digit).then_some(true);
            Ok(close == b'}'
                && (self.words_decide(at + 1, 2, digit)?
                    || self.only_follows(at + 1, Tail::Specks)?))
        };
        let glued = close == b')' && self.glued_to_word(at);
        if !(word.first() == Some(&b'.') || numbered || glued || before_moves()?) {
            return Ok(false);
        }
        // A variation that starts with a move number written right (`(12. 33-43`, `(1...`) is
        // one, closed or not; not one numbered away from the last move, which it takes the
        // place of (`(102.83` at move 13, `(8. 22-92` at move 26).
        if close == b')'
            && move_number(after).is_some_and(|(n, _, len)| {
                self.variation_number(line, n)
                    && after
                        .get(len)
                        .is_none_or(|&b| is_space(b) || b.is_ascii_digit())
            })
        {
            return Ok(false);
        }
        // A `(` glued to a word no move starts so (`($4.`, `(TT:`) is a variation only where
        // its line closes it: OCR's speck at a line's start, not a variation that takes the
        // lines after it, and the result, with it.
        let one_line = glued
            && !word.first().is_some_and(u8::is_ascii_digit)
            && !(word.first().is_some_and(u8::is_ascii_alphabetic)
                && word.iter().any(u8::is_ascii_digit));
        // A look from a brace before is answered for this one too: a line of braces glued to
        // digits (`{1{1{1`, `(a (a (a`) is read once, not once a brace. A look to the line's end
        // that met no close tells nothing of the lines after; one to the game's end that met a
        // close may have met it on a later line.
        if let Some(seen) = self.closes.get()
            && seen.close == close
            && (seen.from..seen.to).contains(&at)
            && match one_line {
                true => !seen.closed || seen.line_only,
                false => seen.closed || !seen.line_only,
            }
        {
            return Ok(!seen.closed);
        }
        let seen = |to: usize, closed: bool, line_only: bool| {
            self.closes.set(Some(CloseSeen {
                close,
                from: at,
                to,
                closed,
                line_only,
            }));
            Ok(!closed)
        };
        let mut i = at + 1;
        loop {
            let Some(found) = first_of(self.src.get(i..).unwrap_or_default(), close, b'\n') else {
                return if self.eof {
                    seen(self.src.len(), false, false)
                } else {
                    Err(Stop::NeedMore)
                };
            };
            i += found;
            if self.src[i] == close {
                return seen(i, true, one_line);
            }
            i += 1;
            if self.tag_line_at(i) {
                return seen(i, false, false);
            }
            if one_line {
                return seen(i, false, true);
            }
        }
    }

    /// Whether a word follows `at` on its line (looked for in the line the reader holds beyond
    /// the slice where the slice ends first).
    fn on_its_line(&self, at: usize) -> bool {
        let blank = |b: &&u8| matches!(b, b' ' | b'\t' | b'\r');
        let rest = self.src.get(at..).unwrap_or_default();
        match rest.iter().find(|b| !blank(b)) {
            Some(&b) => b != b'\n',
            None => self
                .ahead
                .iter()
                .find(|b| !blank(b))
                .is_some_and(|&b| b != b'\n'),
        }
    }

    /// Whether only words of `tail` (no result) follow `end` to the game's end (the input's end
    /// or the next tags). A look from within the run the last look went over is answered by it
    /// (see [`TailSeen`]). The slice ending first asks for more input.
    fn only_follows(&self, end: usize, tail: Tail) -> PResult<bool> {
        if let Some(seen) = self.tails.get()
            && seen.tail == tail
            && (seen.from..=seen.to).contains(&end)
        {
            return Ok(seen.only);
        }
        let seen = |to: usize, only: bool| {
            self.tails.set(Some(TailSeen {
                tail,
                from: end,
                to,
                only,
            }));
            Ok(only)
        };
        let mut at = end;
        loop {
            at += self.src[at..].iter().take_while(|&&b| is_space(b)).count();
            let Some(&first) = self.src.get(at) else {
                return match self.eof {
                    true => seen(at, true),
                    false => Err(Stop::NeedMore),
                };
            };
            if first == b'[' {
                return seen(at, true);
            }
            let len = self.src[at..].iter().take_while(|&&b| !is_space(b)).count();
            if !tail.allows(&self.src[at..at + len]) || result_token(&self.src[at..]).is_ok() {
                return seen(at, false);
            }
            at += len;
        }
    }

    /// Whether a word that is not a move and holds no digit (`DEAD`, `Ls`, `SIFT`: a move whose
    /// digits OCR read as letters) stands among the moves: short as a move is, or no longer than
    /// two moves run together and not written as prose is (`SRiglAIAg`), and followed by a
    /// word that starts with a digit (no result), at most [`GLYPH_WORDS_IN_A_ROW`] more such
    /// words between (`GLAD FY HBS FEN 72,`). The words are what blanks part: a glued `$`, `;`
    /// or `?` is OCR's (`OFT $3-42`, `BG; 92:73`). Prose in the moves (`Remis *`, `Green
    /// resigned`) is not.
    pub(super) fn among_moves(&self, written: &str, end: usize) -> PResult<bool> {
        let short = |w: &str| {
            let n = w.chars().count();
            (1..=LONGEST_GLYPH_MOVE).contains(&n) || n <= LONGEST_GLYPH_WORD && !prose(w)
        };
        if !short(written) {
            return Ok(false);
        }
        // After the rest of its word (a `$`, `;` or `?` glued to it).
        let word_end = end
            + self.src[end..]
                .iter()
                .take_while(|&&b| !is_space(b))
                .count();
        self.words_decide(word_end, GLYPH_WORDS_IN_A_ROW + 1, |word| {
            if word[0].is_ascii_digit() {
                // Not a result, nor a new game's first move number.
                return Some(
                    result_token(word).is_err() && move_number(word).is_none_or(|(n, _, _)| n > 1),
                );
            }
            // A garbled move (`GUPD-32.`), not a lone sign; a long word is prose.
            let next = text(word);
            if word.iter().any(u8::is_ascii_digit) && could_be_move(&next) {
                return Some(true);
            }
            (!short(&next)).then_some(false)
        })
    }
}
