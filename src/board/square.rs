/// A dark square, as its bit index in the padded layout of its board's [`super::Geometry`]
/// ([`Geometry::from_index`](super::Geometry::from_index) checks one).
///
/// A `Square` does not know which board it belongs to: numbering, names and neighbours are asked of
/// the geometry (`geometry.number(sq)`, `geometry.name(sq)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this bit index, not checked: for indices the crate computes from a
    /// geometry's own tables and bitboards.
    #[inline(always)]
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        Square(index)
    }

    /// The bit index, for tables and bitboards.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why a text is not a square of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SquareError {
    /// A square number whose last digit is no column of the board.
    #[error("{text} is not a square: square numbers end in 1–{per_rank}")]
    BadColumn {
        /// The text read.
        text: String,
        /// Dark squares per rank: the last digit's largest value.
        per_rank: u8,
    },
    /// A rank the board does not have.
    #[error("{text} is off the board: ranks run 1–{size}")]
    BadRank {
        /// The text read.
        text: String,
        /// Ranks of the board.
        size: u8,
    },
    /// A file the board does not have.
    #[error("{text} is off the board: files run a–{last_file}")]
    BadFile {
        /// The text read.
        text: String,
        /// The board's last file letter.
        last_file: char,
    },
    /// An algebraic name of a light square.
    #[error("{text} is a light square: play uses the dark squares only")]
    LightSquare {
        /// The text read.
        text: String,
    },
    /// Text that is neither a square number nor an algebraic name.
    #[error("{text:?} is not a square: write a number such as 33 or a name such as e3")]
    NotASquare {
        /// The text read.
        text: String,
    },
    /// A number written with a leading zero (`033`, `e03`).
    #[error("{text} is not a square: square numbers and ranks have no leading zero")]
    LeadingZero {
        /// The text read.
        text: String,
    },
}
