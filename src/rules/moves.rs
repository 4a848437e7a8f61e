//! A move, the list legal move generation fills, and the error of a move refused.

use crate::board::{BoardKind, Color, Geometry, Square};
use std::fmt;

/// What a move does.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum MoveKind {
    /// One square diagonally.
    Step,
    /// Over an enemy piece (in Pyramid possibly a chain of such jumps; nothing is captured, so only
    /// the two ends matter).
    Jump,
    /// Over a friendly piece (Winther, in the goal zone; never compulsory).
    FriendlyJump,
    /// No move (Pyramid, when a side has none).
    Pass,
}

/// A move: the piece on `from` goes to `to`. A pass has `from == to` and no meaning for either.
///
/// The engine makes them ([`Position::legal_moves`](super::Position::legal_moves),
/// [`Position::find_legal`](super::Position::find_legal) from two squares); [`Move::new`] makes
/// one of a move's shape on a board without a position to check it against (to draw it, say).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) kind: MoveKind,
}

impl Move {
    /// A move of `kind` from `from` to `to` if it has that kind's shape on the board of
    /// `geometry`: a step to a diagonal neighbour, a jump two squares along a diagonal (on the
    /// Pyramid board, a chain of them: an even number of files and ranks away), a pass from and
    /// to the same square. Whether a position allows it is [`Position::play`]'s to say.
    ///
    /// [`Position::play`]: super::Position::play
    pub fn new(geometry: &Geometry, from: Square, to: Square, kind: MoveKind) -> Option<Move> {
        if kind == MoveKind::Pass {
            return (from == to).then_some(Move::PASS);
        }
        if !geometry.contains(from) || !geometry.contains(to) {
            return None;
        }
        let files = geometry.file(from).abs_diff(geometry.file(to));
        let ranks = geometry.rank(from).abs_diff(geometry.rank(to));
        let shaped = match kind {
            MoveKind::Step => files == 1 && ranks == 1,
            MoveKind::Jump if geometry.kind == BoardKind::Pyramid => {
                (files, ranks) != (0, 0) && files.is_multiple_of(2) && ranks.is_multiple_of(2)
            }
            MoveKind::Jump | MoveKind::FriendlyJump => files == 2 && ranks == 2,
            MoveKind::Pass => false,
        };
        shaped.then_some(Move { from, to, kind })
    }

    /// The square the piece leaves.
    #[inline]
    pub fn from(&self) -> Square {
        self.from
    }

    /// The square the piece lands on.
    #[inline]
    pub fn to(&self) -> Square {
        self.to
    }

    /// Step, jump or pass.
    #[inline]
    pub fn kind(&self) -> MoveKind {
        self.kind
    }

    /// Pyramid's pass: the side to move has no move and gives the turn away.
    pub const PASS: Move = Move {
        from: Square::new_unchecked(0),
        to: Square::new_unchecked(0),
        kind: MoveKind::Pass,
    };

    /// Whether the move jumps over a piece (an enemy one, or in Winther a friendly one).
    pub fn is_jump(&self) -> bool {
        matches!(self.kind, MoveKind::Jump | MoveKind::FriendlyJump)
    }
}

/// A move [`Position::play`](super::Position::play) refused: not one of the legal moves of the
/// side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    played: Move,
    side: Color,
    board: BoardKind,
}

impl IllegalMove {
    pub(super) fn new(played: Move, side: Color, board: BoardKind) -> IllegalMove {
        IllegalMove {
            played,
            side,
            board,
        }
    }

    /// The move refused.
    pub fn played(&self) -> Move {
        self.played
    }

    /// The side that was to move.
    pub fn side(&self) -> Color {
        self.side
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The squares by number: the move's written text is the notation's business.
        let g = Geometry::of(self.board);
        let (from, to) = (g.number(self.played.from), g.number(self.played.to));
        match self.played.kind {
            MoveKind::Pass => write!(f, "{} may not pass here", self.side),
            _ => write!(f, "{} has no legal move from {from} to {to}", self.side),
        }
    }
}

impl std::error::Error for IllegalMove {}

const CAPACITY: usize = 256;

/// A list of moves on the stack. Capacity 256 exceeds the most moves any position of the three
/// variants can have (Pyramid chain ends are bounded by the 16 squares of one jump lattice per piece).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        // An all-zero filler lets the compiler clear the array with one memset.
        const FILLER: Move = Move {
            from: Square::new_unchecked(0),
            to: Square::new_unchecked(0),
            kind: MoveKind::Step,
        };
        MoveList {
            moves: [FILLER; CAPACITY],
            len: 0,
        }
    }

    #[inline]
    pub(super) fn push(&mut self, m: Move) {
        if self.len < CAPACITY {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Moves the moves from index `start` on that pass `keep` to the front of that range (in their
    /// order) and returns how many passed. The others stay behind them, so when none passes the
    /// list is unchanged.
    pub(super) fn partition_from(
        &mut self,
        start: usize,
        mut keep: impl FnMut(&Move) -> bool,
    ) -> usize {
        let mut kept = start;
        for i in start..self.len {
            if keep(&self.moves[i]) {
                self.moves.swap(kept, i);
                kept += 1;
            }
        }
        kept - start
    }

    /// Keeps only the `count` moves from index `start` on.
    pub(super) fn keep_range(&mut self, start: usize, count: usize) {
        self.moves.copy_within(start..start + count, 0);
        self.len = count;
    }

    /// The moves, in the order generated (also the list's slice, through `Deref`).
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves sorted by from- and to-square number, for stable display.
    pub fn sorted(&self, g: &Geometry) -> Vec<Move> {
        let mut v = self.as_slice().to_vec();
        v.sort_by_key(|m| (m.kind == MoveKind::Pass, g.number(m.from), g.number(m.to)));
        v
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The list is a slice of moves: `list.len()`, `list[0]`, `list.iter()`, `list.contains(&m)`.
impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIter;
    fn into_iter(self) -> MoveListIter {
        MoveListIter {
            list: self,
            next: 0,
        }
    }
}

/// The moves of a [`MoveList`], taken out of it one by one.
#[derive(Clone, Debug)]
pub struct MoveListIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIter {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        let m = self.list.as_slice().get(self.next).copied()?;
        self.next += 1;
        Some(m)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for MoveListIter {}
