//! Squares, numbering, geometry of the 10×10 Salta and 8×8 Pyramid boards, and bitboards.
//!
//! Only dark squares exist for the engine. A [`Square`] is a bit index in a padded layout chosen so
//! that each diagonal direction is one constant shift of a [`Bitboard`] (see [`Geometry`]).

mod bitboard;
mod geometry;
mod square;

pub use bitboard::Bitboard;
pub use geometry::{BoardKind, Direction, Geometry};
pub use square::{Square, SquareError};

/// The two sides. Green sits at ranks 1–3 and moves first; Red sits at the far side.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The side that starts at ranks 1–3 and moves first.
    Green,
    /// The side that starts at the far ranks.
    Red,
}

impl Color {
    /// Both sides, Green first.
    pub const ALL: [Color; 2] = [Color::Green, Color::Red];

    /// The opponent.
    pub const fn other(self) -> Color {
        match self {
            Color::Green => Color::Red,
            Color::Red => Color::Green,
        }
    }

    /// 0 for Green, 1 for Red: for tables indexed by side.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name (`green`, `red`), as JSON reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Color::Green => "green",
            Color::Red => "red",
        }
    }

    /// The capitalised name, as in "Green to move".
    pub fn title(self) -> &'static str {
        match self {
            Color::Green => "Green",
            Color::Red => "Red",
        }
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.title())
    }
}
