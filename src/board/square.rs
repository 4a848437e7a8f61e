/// A dark square, as its bit index in the padded layout of its board's [`super::Geometry`].
///
/// A `Square` does not know which board it belongs to: numbering, names and neighbours are asked of
/// the geometry (`geometry.number(sq)`, `geometry.name(sq)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const fn new(index: u8) -> Square {
        Square(index)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why a text is not a square of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    #[error("{text} is not a square: square numbers end in 1–{per_rank}")]
    BadColumn { text: String, per_rank: u8 },
    #[error("{text} is off the board: ranks run 1–{size}")]
    BadRank { text: String, size: u8 },
    #[error("{text} is off the board: files run a–{last_file}")]
    BadFile { text: String, last_file: char },
    #[error("{text} is a light square: play uses the dark squares only")]
    LightSquare { text: String },
    #[error("{text:?} is not a square: write a number such as 33 or a name such as e3")]
    NotASquare { text: String },
    #[error("{text} is not a square: square numbers and ranks have no leading zero")]
    LeadingZero { text: String },
}
