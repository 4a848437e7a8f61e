use super::{Bitboard, Color, Square, SquareError};

/// Which board a game is played on.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum BoardKind {
    /// 10×10, a1 dark, squares numbered 11–105.
    #[default]
    Salta,
    /// 8×8, h1 dark (a1 light), squares numbered 11–84.
    Pyramid,
}

/// A diagonal direction, named as Green sees the board ("up" is toward rank 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Toward rank 10 and file a.
    UpLeft = 0,
    /// Toward rank 10 and the last file.
    UpRight = 1,
    /// Toward rank 1 and file a.
    DownLeft = 2,
    /// Toward rank 1 and the last file.
    DownRight = 3,
}

impl Direction {
    /// The four directions, in the order of their indices.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// The two directions that are forward for `color`.
    pub const fn forward(color: Color) -> [Direction; 2] {
        match color {
            Color::Green => [Direction::UpLeft, Direction::UpRight],
            Color::Red => [Direction::DownLeft, Direction::DownRight],
        }
    }

    /// The two directions that are backward for `color`.
    pub const fn backward(color: Color) -> [Direction; 2] {
        Direction::forward(color.other())
    }

    const fn file_rank_delta(self) -> (i8, i8) {
        match self {
            Direction::UpLeft => (-1, 1),
            Direction::UpRight => (1, 1),
            Direction::DownLeft => (-1, -1),
            Direction::DownRight => (1, -1),
        }
    }
}

const NONE: u8 = u8::MAX;
const MAX_SIZE: usize = 10;

/// The shape of a board: which squares exist, how they are numbered and named, who neighbours whom.
///
/// Layout: the dark squares of rank pairs are packed into `period` bits (the even-numbered rank of the
/// pair starts `odd_offset` bits in), which leaves one unused "ghost" bit per pair. With that padding
/// every diagonal direction is a constant shift, and a shift off the edge lands on a ghost bit or off
/// the word, so `shift(bb) & valid` is exact. (10×10: period 11, shifts 5 and 6; 8×8: period 9,
/// shifts 4 and 5.)
///
/// There are two, [`Geometry::SALTA`] and [`Geometry::PYRAMID`] (shared: [`Geometry::of`]); what
/// they hold is read through methods and cannot be changed.
pub struct Geometry {
    /// The board this geometry describes.
    pub(crate) kind: BoardKind,
    /// Squares per side (10 or 8).
    pub(crate) size: u8,
    /// Dark squares per rank (5 or 4).
    pub(crate) per_rank: u8,
    /// Every real square.
    pub(crate) valid: Bitboard,
    /// The bit shift of each direction, indexed by `Direction as usize`: a table, so that a
    /// direction known only at run time costs a load, not a branch.
    shifts: [i8; 4],
    file: [u8; 64],
    rank: [u8; 64],
    number: [u8; 64],
    by_number: [u8; 128],
    by_file_rank: [[u8; MAX_SIZE]; MAX_SIZE],
    neighbour: [[u8; 64]; 4],
    rank_masks: [Bitboard; MAX_SIZE],
    /// [`Geometry::far_zone`] by color index: asked once a ply or more.
    far_zones: [Bitboard; 2],
}

impl Geometry {
    /// The 10×10 Salta board.
    pub const SALTA: Geometry = Geometry::build(BoardKind::Salta);
    /// The 8×8 Pyramid board.
    pub const PYRAMID: Geometry = Geometry::build(BoardKind::Pyramid);

    /// The shared geometry of a board, for code that knows the board only at run time.
    pub fn of(kind: BoardKind) -> &'static Geometry {
        static SALTA: Geometry = Geometry::SALTA;
        static PYRAMID: Geometry = Geometry::PYRAMID;
        match kind {
            BoardKind::Salta => &SALTA,
            BoardKind::Pyramid => &PYRAMID,
        }
    }

    /// The board this geometry describes.
    #[inline]
    pub const fn kind(&self) -> BoardKind {
        self.kind
    }

    /// Squares per side (10 or 8).
    #[inline]
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Dark squares per rank (5 or 4).
    #[inline]
    pub const fn per_rank(&self) -> u8 {
        self.per_rank
    }

    /// Every real square.
    #[inline]
    pub const fn valid(&self) -> Bitboard {
        self.valid
    }

    const fn build(kind: BoardKind) -> Geometry {
        let (size, per_rank, period, odd_offset, first_file_odd) = match kind {
            BoardKind::Salta => (10u8, 5u8, 11u8, 6u8, 0u8),
            BoardKind::Pyramid => (8, 4, 9, 4, 1),
        };
        // Up-left and up-right shifts: from rank 1 up-right keeps the column index k on the Salta
        // board (a1 → b2) and raises it on the Pyramid board (b1 → c2).
        let shift_right = (odd_offset + first_file_odd) as i8;
        let mut g = Geometry {
            kind,
            size,
            per_rank,
            valid: Bitboard(0),
            // Down-left undoes up-right and down-right undoes up-left.
            shifts: [shift_right - 1, shift_right, -shift_right, 1 - shift_right],
            file: [NONE; 64],
            rank: [NONE; 64],
            number: [0; 64],
            by_number: [NONE; 128],
            by_file_rank: [[NONE; MAX_SIZE]; MAX_SIZE],
            neighbour: [[NONE; 64]; 4],
            rank_masks: [Bitboard(0); MAX_SIZE],
            far_zones: [Bitboard(0); 2],
        };
        let mut r = 0u8;
        while r < size {
            let mut k = 0u8;
            while k < per_rank {
                let bit = (r / 2) * period + (r % 2) * odd_offset + k;
                // On rank 1 (r = 0) the dark files are a, c, e… (Salta) or b, d, f… (Pyramid).
                let file = 2 * k + ((r + first_file_odd) % 2);
                g.file[bit as usize] = file;
                g.rank[bit as usize] = r;
                let number = 10 * (r + 1) + k + 1;
                g.number[bit as usize] = number;
                g.by_number[number as usize] = bit;
                g.by_file_rank[file as usize][r as usize] = bit;
                g.valid.0 |= 1u64 << bit;
                g.rank_masks[r as usize].0 |= 1u64 << bit;
                k += 1;
            }
            r += 1;
        }
        let masks = &g.rank_masks;
        let s = size as usize;
        g.far_zones = [
            Bitboard(masks[s - 1].0 | masks[s - 2].0 | masks[s - 3].0),
            Bitboard(masks[0].0 | masks[1].0 | masks[2].0),
        ];
        let mut bit = 0usize;
        while bit < 64 {
            if g.file[bit] != NONE {
                let mut d = 0;
                while d < 4 {
                    let (df, dr) = Direction::ALL[d].file_rank_delta();
                    let f = g.file[bit] as i8 + df;
                    let r = g.rank[bit] as i8 + dr;
                    if f >= 0 && r >= 0 && f < size as i8 && r < size as i8 {
                        g.neighbour[d][bit] = g.by_file_rank[f as usize][r as usize];
                    }
                    d += 1;
                }
            }
            bit += 1;
        }
        g
    }

    /// The number of real squares (50 or 32).
    pub const fn square_count(&self) -> usize {
        self.size as usize * self.per_rank as usize
    }

    /// Every square, in numbering order (11, 12, …).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.size).flat_map(move |r| self.rank_mask(r))
    }

    /// The squares of rank `rank` (0-based from Green's side).
    pub fn rank_mask(&self, rank: u8) -> Bitboard {
        self.rank_masks[rank as usize]
    }

    /// The constant bit shift of a direction.
    #[inline(always)]
    pub const fn shift(&self, dir: Direction) -> i8 {
        self.shifts[dir as usize]
    }

    /// File, 0-based from Green's left.
    pub fn file(&self, sq: Square) -> u8 {
        self.file[sq.index()]
    }

    /// Rank, 0-based from Green's side.
    pub fn rank(&self, sq: Square) -> u8 {
        self.rank[sq.index()]
    }

    /// The rank as its owner counts it, 0-based from that side's own first rank.
    pub fn relative_rank(&self, sq: Square, color: Color) -> u8 {
        match color {
            Color::Green => self.rank(sq),
            Color::Red => self.size - 1 - self.rank(sq),
        }
    }

    /// Whether `sq` is a square of this board.
    pub fn contains(&self, sq: Square) -> bool {
        sq.index() < 64 && self.file[sq.index()] != NONE
    }

    /// The dark square at `file` and `rank` (both 0-based), or `None` for a light square or one off
    /// the board.
    pub fn at(&self, file: u8, rank: u8) -> Option<Square> {
        let bit = *self.by_file_rank.get(file as usize)?.get(rank as usize)?;
        (bit != NONE).then(|| Square::new_unchecked(bit))
    }

    /// The historical number `10·rank + k` of a square.
    pub fn number(&self, sq: Square) -> u8 {
        self.number[sq.index()]
    }

    /// The square with this bit index, or `None` when the board has no square there (an index
    /// past its layout, or one of its padding bits).
    #[must_use]
    pub fn from_index(&self, index: u8) -> Option<Square> {
        let sq = Square::new_unchecked(index);
        self.contains(sq).then_some(sq)
    }

    /// The square a historical number names (`33`, `105`), or `None` if no square has that number.
    pub fn from_number(&self, number: u32) -> Option<Square> {
        let bit = *self.by_number.get(number as usize)?;
        (bit != NONE).then(|| Square::new_unchecked(bit))
    }

    /// The algebraic name, such as `e3`.
    pub fn name(&self, sq: Square) -> String {
        format!("{}{}", (b'a' + self.file(sq)) as char, self.rank(sq) + 1)
    }

    /// The neighbour of `sq` in direction `dir`, if on the board.
    #[inline]
    pub fn neighbour(&self, sq: Square, dir: Direction) -> Option<Square> {
        let bit = self.neighbour[dir as usize][sq.index()];
        (bit != NONE).then(|| Square::new_unchecked(bit))
    }

    /// The square seen from the other side: the 180° rotation (`n ↦ 116 − n` on the Salta board).
    pub fn rotate(&self, sq: Square) -> Square {
        let last = self.size - 1;
        // Rotation maps dark squares to dark squares on both boards, so the lookup always succeeds.
        Square::new_unchecked(
            self.by_file_rank[(last - self.file(sq)) as usize][(last - self.rank(sq)) as usize],
        )
    }

    /// Chebyshev distance: the fewest diagonal steps between two dark squares on an empty board.
    #[inline]
    pub fn distance(&self, a: Square, b: Square) -> u8 {
        let df = self.file(a).abs_diff(self.file(b));
        let dr = self.rank(a).abs_diff(self.rank(b));
        df.max(dr)
    }

    /// Reads a square in either notation: a number (`33`) or an algebraic name (`e3`).
    pub fn parse_square(&self, text: &str) -> Result<Square, SquareError> {
        let t = text.trim();
        let not_a_square = || SquareError::NotASquare {
            text: t.to_string(),
        };
        // The grammar's squares (grammar/sgn.ebnf) have no leading zero: `033` may be a misprint.
        let leading_zero = |digits: &str| digits.len() > 1 && digits.starts_with('0');
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            if leading_zero(t) {
                return Err(SquareError::LeadingZero {
                    text: t.to_string(),
                });
            }
            let n: u32 = t.parse().map_err(|_| not_a_square())?;
            return self.parse_number(n, t);
        }
        let mut chars = t.chars();
        let file = chars.next().ok_or_else(not_a_square)?;
        let rest = chars.as_str();
        if !file.is_ascii_alphabetic()
            || rest.is_empty()
            || !rest.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(not_a_square());
        }
        if leading_zero(rest) {
            return Err(SquareError::LeadingZero {
                text: t.to_string(),
            });
        }
        let file = file.to_ascii_lowercase();
        let last_file = (b'a' + self.size - 1) as char;
        if file > last_file {
            return Err(SquareError::BadFile {
                text: t.to_string(),
                last_file,
            });
        }
        let rank: u32 = rest.parse().map_err(|_| not_a_square())?;
        if rank < 1 || rank > self.size as u32 {
            return Err(SquareError::BadRank {
                text: t.to_string(),
                size: self.size,
            });
        }
        self.at(file as u8 - b'a', (rank - 1) as u8)
            .ok_or_else(|| SquareError::LightSquare {
                text: t.to_string(),
            })
    }

    fn parse_number(&self, n: u32, text: &str) -> Result<Square, SquareError> {
        let (rank, column) = (n / 10, n % 10);
        if rank > self.size as u32 {
            return Err(SquareError::BadRank {
                text: text.to_string(),
                size: self.size,
            });
        }
        if column < 1 || column > self.per_rank as u32 {
            return Err(SquareError::BadColumn {
                text: text.to_string(),
                per_rank: self.per_rank,
            });
        }
        self.from_number(n).ok_or_else(|| SquareError::NotASquare {
            text: text.to_string(),
        })
    }

    /// The three ranks nearest to the far side for `color` (its goal zone in the Winther variant).
    #[inline]
    pub fn far_zone(&self, color: Color) -> Bitboard {
        self.far_zones[color.index()]
    }
}

impl std::fmt::Debug for Geometry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Geometry")
            .field("kind", &self.kind)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_spec() {
        let g = Geometry::of(BoardKind::Salta);
        for (n, name) in [
            (11, "a1"),
            (15, "i1"),
            (21, "b2"),
            (25, "j2"),
            (101, "b10"),
            (105, "j10"),
        ] {
            let sq = g.from_number(n).unwrap();
            assert_eq!(g.name(sq), name);
            assert_eq!(g.parse_square(name), Ok(sq));
            assert_eq!(g.number(sq) as u32, n);
        }
        assert_eq!(g.squares().count(), 50);
        let p = Geometry::of(BoardKind::Pyramid);
        assert_eq!(p.squares().count(), 32);
        assert_eq!(p.name(p.from_number(11).unwrap()), "b1");
        assert_eq!(p.name(p.from_number(14).unwrap()), "h1");
        assert_eq!(p.name(p.from_number(81).unwrap()), "a8");
    }

    #[test]
    fn rotation_is_116_minus_n() {
        let g = Geometry::of(BoardKind::Salta);
        for sq in g.squares() {
            assert_eq!(g.number(g.rotate(sq)) as u32, 116 - g.number(sq) as u32);
        }
        let p = Geometry::of(BoardKind::Pyramid);
        for sq in p.squares() {
            assert_eq!(p.number(p.rotate(sq)) as u32, 95 - p.number(sq) as u32);
        }
    }

    #[test]
    fn shifts_agree_with_neighbour_tables() {
        for g in [
            Geometry::of(BoardKind::Salta),
            Geometry::of(BoardKind::Pyramid),
        ] {
            for sq in g.squares() {
                for dir in Direction::ALL {
                    let shifted = Bitboard::from_square(sq).shift(g.shift(dir)) & g.valid;
                    assert_eq!(
                        shifted.first(),
                        g.neighbour(sq, dir),
                        "{:?} {} {:?}",
                        g.kind,
                        g.name(sq),
                        dir
                    );
                }
            }
        }
    }

    #[test]
    fn bad_squares_say_why() {
        let g = Geometry::of(BoardKind::Salta);
        for bad in ["16", "110", "0", "k11", "a2", "", "e", "3e", "033", "e03"] {
            assert!(g.parse_square(bad).is_err(), "{bad}");
        }
        assert_eq!(
            g.parse_square("16").unwrap_err().to_string(),
            "16 is not a square: square numbers end in 1–5"
        );
        assert!(
            g.parse_square("a2")
                .unwrap_err()
                .to_string()
                .contains("light square")
        );
        assert!(
            g.parse_square("110")
                .unwrap_err()
                .to_string()
                .contains("off the board")
        );
        assert!(
            g.parse_square("033")
                .unwrap_err()
                .to_string()
                .contains("no leading zero")
        );
    }
}
