//! The byte-level scanner of the hot path: byte classes, eight bytes read as a word, and the
//! commonest tokens (move numbers and moves between numbered squares) read from it.

use super::numbering::{Numbering, numbered_square};
use crate::board::Square;
use crate::notation::ast::*;
use crate::notation::written::WrittenMove;

/// A move between squares written as numbers (`33-43`, `92:103`): all a [`WrittenMove`] of it
/// holds but its move number (logged beside it, `Token::Numbered`, or before it,
/// `Token::Number`), in eight bytes.
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
    pub(super) const JUMP: u16 = 1;
    /// The from-square has three digits, not two.
    pub(super) const FROM_3: u16 = 2;
    /// The to-square has three digits, not two.
    pub(super) const TO_3: u16 = 4;

    /// The commonest move, between two-digit squares (`33-43`, `45:64`) followed by a delimiter,
    /// at the start of `word` (at `start` in the game), on the squares of `numbering`: the move
    /// and where the next token may start (past the delimiter if it is a blank).
    #[inline(always)]
    pub(super) fn plain(
        word: Word,
        start: usize,
        numbering: &Numbering,
    ) -> Option<(NumericMove, usize)> {
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
    pub(super) fn pair(
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
    pub(super) fn within(
        word: Word,
        start: usize,
        numbering: &Numbering,
    ) -> Option<(NumericMove, usize)> {
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
    pub(super) fn on(
        numbering: &Numbering,
        start: usize,
        from: u32,
        to: u32,
        shape: u16,
    ) -> Option<Self> {
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
pub(super) struct Word {
    /// The bytes, each XOR `b'0'`: digits are 0–9.
    lanes: u64,
    /// 0x80 in each lane that is not a digit.
    nondigit: u64,
}

impl Word {
    pub(super) const EACH: u64 = 0x0101_0101_0101_0101;
    /// The lanes of a plain move's digits (`33-43`): 0, 1, 3 and 4.
    pub(super) const PLAIN_DIGITS: u64 = 0x0000_0080_8000_8080;

    /// The numbers of a plain move's squares, both at once: lane 0 gets 10 × lane 0 + lane 1,
    /// lane 3 gets 10 × lane 3 + lane 4 (no lane carries: each stays below 100). Numbers below
    /// 10 (`05`) are no square: the numbering has none.
    #[inline(always)]
    pub(super) fn plain_squares(self) -> (u32, u32) {
        let digits = self.lanes & 0x00ff_ff00_ffff;
        let numbers = digits * 10 + (digits >> 8);
        ((numbers & 0x7f) as u32, ((numbers >> 24) & 0x7f) as u32)
    }

    /// The eight bytes of `src` at `pos`, if it has them.
    #[inline(always)]
    pub(super) fn at(src: &[u8], pos: usize) -> Option<Word> {
        Some(Word::new(*src.get(pos..)?.first_chunk::<8>()?))
    }

    /// The first eight bytes of `rest`, blanks standing for those it lacks: the end of the input
    /// is a delimiter, as a blank is.
    pub(super) fn padded(rest: &[u8]) -> Word {
        let mut bytes = [b' '; 8];
        let len = rest.len().min(8);
        bytes[..len].copy_from_slice(&rest[..len]);
        Word::new(bytes)
    }

    /// The word of these bytes.
    #[inline(always)]
    pub(super) fn new(bytes: [u8; 8]) -> Word {
        let lanes = u64::from_le_bytes(bytes) ^ (Self::EACH * u64::from(b'0'));
        // A lane of 10 or more gets its top bit from the addition, one of 0x80 or more has it
        // already; no lane carries into the next.
        let low = lanes & (Self::EACH * 0x7f);
        let nondigit = ((low + Self::EACH * 0x76) | lanes) & (Self::EACH * 0x80);
        Word { lanes, nondigit }
    }

    /// The byte in lane `i`.
    #[inline(always)]
    pub(super) fn byte(self, i: u32) -> u8 {
        self.digit(i) ^ b'0'
    }

    /// The value of the digit in lane `i` (meaningless for another byte).
    #[inline(always)]
    pub(super) fn digit(self, i: u32) -> u8 {
        (self.lanes >> (8 * i)) as u8
    }

    /// The number of digits from lane `at` on (8 or more if all are).
    #[inline(always)]
    pub(super) fn digits(self, at: u32) -> u32 {
        (self.nondigit >> (8 * at)).trailing_zeros() / 8
    }

    /// The decimal number in the `len` lanes from lane `at` (all digits).
    #[inline(always)]
    pub(super) fn number(self, at: u32, len: u32) -> u32 {
        (at..at + len).fold(0, |n, i| n * 10 + u32::from(self.digit(i)))
    }

    /// The commonest move numbers, of one to three digits and one dot, at the start of this word
    /// (at `start` in the game), read as [`move_number`] reads them: the number and where the
    /// next token may start (past the blank after the number, if there is one).
    #[inline(always)]
    pub(super) fn move_number(self, start: usize) -> Option<(MoveNumber, usize)> {
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
pub(super) fn jump(b: u8) -> Option<u16> {
    let class = CLASS[b as usize];
    (class & SEPARATOR != 0).then_some(separator_shape(class))
}

/// The [`NumericMove`] shape of a separator's class: [`NumericMove::JUMP`] or not.
#[inline(always)]
pub(super) fn separator_shape(class: u8) -> u16 {
    u16::from(class & JUMP_SEPARATOR != 0) * NumericMove::JUMP
}

#[inline(always)]
pub(super) fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] & (DELIMITER | SPACE) != 0
}

#[inline(always)]
pub(super) fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

pub(super) const SPACE: u8 = 1;
pub(super) const DELIMITER: u8 = 2;
/// A numeric move's separator ([`separator`]), and of these a jump's.
pub(super) const SEPARATOR: u8 = 4;
pub(super) const JUMP_SEPARATOR: u8 = 8;

/// Byte classes, looked up once per byte on the hot path.
pub(super) static CLASS: [u8; 256] = {
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

/// The separator a move is written with, `-` for a step and `:`, `x` or `X` for a jump: as the
/// byte classes ([`CLASS`]) have them, which the fast path reads as [`jump`] does.
#[inline(always)]
pub(super) fn separator(b: Option<&u8>) -> Option<Separator> {
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
pub(super) fn first_of(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
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
pub(super) fn decimal(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, &d| {
        n.checked_mul(10)?.checked_add((d - b'0') as u32)
    })
}

/// How many ASCII digits follow the first byte of `bytes` (after `#` or `$`, or a file letter).
pub(super) fn digits_after_first(bytes: &[u8]) -> usize {
    let rest = bytes.get(1..).unwrap_or_default();
    rest.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// A move number at the start of `rest`: at most nine digits (so that it fits a u32) and one or
/// more dots. Its value, its digits and its length.
#[inline(always)]
pub(super) fn move_number(rest: &[u8]) -> Option<(u32, usize, usize)> {
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
