//! The kinds of slip period transcriptions make, each with how likely it is a priori and how it
//! is named to the reader.

use super::channel::{Channel, Op, Sym};
use crate::board::{Geometry, Square};

/// A kind of transcription slip the repair search models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SlipKind {
    /// Two digits of a square number swapped (45 for 54).
    DigitSwap,
    /// One digit read or typed as its neighbour (44 for 45).
    NeighbourDigit,
    /// One digit read as a similar period glyph: 1/7, 3/8, 5/6.
    GlyphDigit,
    /// An algebraic file or rank misread: c/e, b/h, 1/7.
    AlgebraicMisread,
    /// One square (or both) of a move read from Red's side, n ↦ 116 − n.
    RedSideSquare,
    /// The whole record numbered from Red's side without `[Numbering "red"]`.
    RedNumbering,
    /// From- and to-square written the other way round.
    Reversed,
    /// A ply left out.
    Dropped,
    /// A ply written twice.
    Doubled,
    /// Two moves of one side written in each other's place.
    Transposed,
    /// A "Salta!" call left out, added, or written at the wrong move.
    MisplacedCall,
    /// One character of a move read as another, outside the kinds above (`S` for `5`, a digit
    /// for one it does not resemble).
    CharMisread,
    /// The separator misread or left out (`7152`, `33—43`, `33.43`).
    SeparatorMisread,
    /// One character of a move left out (`3-43`).
    CharDropped,
    /// A character added to a move (`33-4 3`, `33-433`).
    CharAdded,
    /// Several characters of one move misread (`3S-4`).
    Garbled,
    /// Two moves written as one token, the space between them left out (`33-4383-73`).
    Merged,
}

impl SlipKind {
    /// Every kind of slip, for code that tries or injects each in turn.
    pub const ALL: [SlipKind; 17] = [
        SlipKind::DigitSwap,
        SlipKind::NeighbourDigit,
        SlipKind::GlyphDigit,
        SlipKind::AlgebraicMisread,
        SlipKind::RedSideSquare,
        SlipKind::RedNumbering,
        SlipKind::Reversed,
        SlipKind::Dropped,
        SlipKind::Doubled,
        SlipKind::Transposed,
        SlipKind::MisplacedCall,
        SlipKind::CharMisread,
        SlipKind::SeparatorMisread,
        SlipKind::CharDropped,
        SlipKind::CharAdded,
        SlipKind::Garbled,
        SlipKind::Merged,
    ];

    /// Whether the kind is a misreading of one move's characters, whose cost the character
    /// model gives (see `SlipKind::of_edits`).
    pub fn is_characters(self) -> bool {
        matches!(
            self,
            SlipKind::DigitSwap
                | SlipKind::NeighbourDigit
                | SlipKind::GlyphDigit
                | SlipKind::AlgebraicMisread
                | SlipKind::CharMisread
                | SlipKind::SeparatorMisread
                | SlipKind::CharDropped
                | SlipKind::CharAdded
                | SlipKind::Garbled
        )
    }

    /// How often this slip is met, relative to the others: what ranks two readings that replay
    /// equally far. Rough figures from the kinds of slip seen in period transcriptions; a
    /// whole-record renumbering explains every move at once, so it comes first when it works.
    /// The kinds of characters misread take their weight from the character model instead
    /// (`confusions.tsv`); theirs here is that of a typical such slip.
    pub fn prior(self) -> f64 {
        match self {
            SlipKind::RedNumbering => 0.5,
            SlipKind::GlyphDigit => 0.35,
            SlipKind::DigitSwap => 0.35,
            SlipKind::SeparatorMisread => 0.35,
            SlipKind::AlgebraicMisread => 0.3,
            SlipKind::NeighbourDigit => 0.15,
            SlipKind::CharDropped => 0.12,
            SlipKind::Reversed => 0.12,
            SlipKind::Doubled => 0.11,
            SlipKind::Dropped => 0.1,
            SlipKind::CharAdded => 0.1,
            SlipKind::Transposed => 0.08,
            SlipKind::MisplacedCall => 0.08,
            SlipKind::RedSideSquare => 0.05,
            SlipKind::CharMisread => 0.02,
            SlipKind::Garbled => 0.01,
            SlipKind::Merged => 0.1,
        }
    }

    /// The kind of a misreading of one move's characters, from its edits (meant to written);
    /// `algebraic`: the record names squares by letter and digit.
    pub(crate) fn of_edits(ops: &[Op], algebraic: bool) -> SlipKind {
        let [op] = ops else {
            return SlipKind::Garbled;
        };
        let digit = |c: char| c.is_ascii_digit();
        match *op {
            Op::Sub(Sym::Sep, _) | Op::Del(Sym::Sep) => SlipKind::SeparatorMisread,
            Op::Swap(a, b) if digit(a) && digit(b) && !algebraic => SlipKind::DigitSwap,
            Op::Sub(Sym::Char(m), w) if algebraic && m.is_ascii_alphanumeric() && w != ' ' => {
                SlipKind::AlgebraicMisread
            }
            Op::Sub(Sym::Char(m), w) if digit(m) && digit(w) => {
                // The glyph pairs of period type first (5/6 are also neighbours), then a digit's
                // neighbour in counting, then the other confusions of the table.
                match (m.to_digit(10), w.to_digit(10)) {
                    _ if partner(&GLYPH_PAIRS, m as u8) == Some(w as u8) => SlipKind::GlyphDigit,
                    (Some(a), Some(b)) if a.abs_diff(b) == 1 => SlipKind::NeighbourDigit,
                    _ if Channel::get().listed(m, w) => SlipKind::GlyphDigit,
                    _ => SlipKind::CharMisread,
                }
            }
            Op::Sub(..) | Op::Swap(..) => SlipKind::CharMisread,
            Op::Del(_) => SlipKind::CharDropped,
            Op::Ins(_) => SlipKind::CharAdded,
        }
    }

    /// The slip in a few words, as the report and the repair comments name it.
    pub fn describe(self) -> &'static str {
        match self {
            SlipKind::DigitSwap => "digits swapped",
            SlipKind::NeighbourDigit => "one digit misread",
            SlipKind::GlyphDigit => "one digit misread as a similar glyph",
            SlipKind::AlgebraicMisread => "file or rank misread",
            SlipKind::RedSideSquare => "square read from Red's side",
            SlipKind::RedNumbering => "the record is numbered from Red's side",
            SlipKind::Reversed => "from and to reversed",
            SlipKind::Dropped => "a ply left out",
            SlipKind::Doubled => "a ply written twice",
            SlipKind::Transposed => "two moves of one side transposed",
            SlipKind::MisplacedCall => "\"Salta!\" call misplaced",
            SlipKind::CharMisread => "one character misread",
            SlipKind::SeparatorMisread => "separator misread",
            SlipKind::CharDropped => "a character left out",
            SlipKind::CharAdded => "a character added",
            SlipKind::Garbled => "characters misread",
            SlipKind::Merged => "two moves run together",
        }
    }

    /// A stable name, for tests, benchmarks and the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            SlipKind::DigitSwap => "digit-swap",
            SlipKind::NeighbourDigit => "neighbour-digit",
            SlipKind::GlyphDigit => "glyph-digit",
            SlipKind::AlgebraicMisread => "algebraic-misread",
            SlipKind::RedSideSquare => "red-side-square",
            SlipKind::RedNumbering => "red-numbering",
            SlipKind::Reversed => "reversed",
            SlipKind::Dropped => "dropped",
            SlipKind::Doubled => "doubled",
            SlipKind::Transposed => "transposed",
            SlipKind::MisplacedCall => "misplaced-call",
            SlipKind::CharMisread => "char-misread",
            SlipKind::SeparatorMisread => "separator-misread",
            SlipKind::CharDropped => "char-dropped",
            SlipKind::CharAdded => "char-added",
            SlipKind::Garbled => "garbled",
            SlipKind::Merged => "merged",
        }
    }
}

/// Digits period typefaces and hands confuse.
const GLYPH_PAIRS: [(u8, u8); 3] = [(b'1', b'7'), (b'3', b'8'), (b'5', b'6')];
/// Algebraic files confused in print.
const FILE_PAIRS: [(u8, u8); 2] = [(b'c', b'e'), (b'b', b'h')];

fn partner(pairs: &[(u8, u8)], c: u8) -> Option<u8> {
    pairs.iter().find_map(|&(a, b)| {
        if a == c {
            Some(b)
        } else if b == c {
            Some(a)
        } else {
            None
        }
    })
}

/// The squares a written square may have been meant as under a slip of one kind that acts on a
/// single square's text, in `numeric` or algebraic form. Only real squares, never the square
/// itself.
pub(crate) fn misreadings(kind: SlipKind, g: &Geometry, sq: Square, numeric: bool) -> Vec<Square> {
    let text = if numeric {
        g.number(sq).to_string()
    } else {
        g.name(sq)
    };
    let bytes = text.as_bytes();
    let mut texts: Vec<Vec<u8>> = Vec::new();
    let digits = (0..bytes.len()).filter(|&i| bytes[i].is_ascii_digit());
    match kind {
        SlipKind::DigitSwap if numeric => {
            for i in 1..bytes.len() {
                let mut t = bytes.to_vec();
                t.swap(i - 1, i);
                texts.push(t);
            }
        }
        SlipKind::NeighbourDigit => {
            for i in digits {
                for d in [bytes[i].wrapping_sub(1), bytes[i] + 1] {
                    if d.is_ascii_digit() {
                        let mut t = bytes.to_vec();
                        t[i] = d;
                        texts.push(t);
                    }
                }
            }
        }
        SlipKind::GlyphDigit => {
            for i in digits {
                if let Some(d) = partner(&GLYPH_PAIRS, bytes[i]) {
                    let mut t = bytes.to_vec();
                    t[i] = d;
                    texts.push(t);
                }
            }
        }
        SlipKind::AlgebraicMisread if !numeric => {
            if let Some(f) = partner(&FILE_PAIRS, bytes[0]) {
                let mut t = bytes.to_vec();
                t[0] = f;
                texts.push(t);
            }
            // The rank 1 read as 7 or back; the 1 of rank 10 stays (70 is no rank).
            if bytes.len() == 2
                && let Some(r) = partner(&GLYPH_PAIRS[..1], bytes[1])
            {
                texts.push(vec![bytes[0], r]);
            }
        }
        SlipKind::RedSideSquare => {
            return vec![g.rotate(sq)]
                .into_iter()
                .filter(|&s| s != sq)
                .collect();
        }
        _ => {}
    }
    let mut out: Vec<Square> = texts
        .iter()
        .filter_map(|t| std::str::from_utf8(t).ok())
        .filter_map(|t| g.parse_square(t).ok())
        .filter(|&s| s != sq)
        .collect();
    out.dedup();
    out
}
