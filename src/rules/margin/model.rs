//! How one side's pieces move once the opponent is gone (Salta and Winther boards), and the dense
//! numbering of the 50 squares that the pattern tables use.

use crate::board::{Color, Direction, Geometry};
use crate::rules::Variant;

/// The movement of one side alone: Salta steps in all four directions; Winther steps forward
/// anywhere, and backward steps and friendly jumps only from the goal zone.
pub(crate) struct Mover {
    pub geometry: &'static Geometry,
    pub color: Color,
    /// Winther movement (otherwise Salta).
    pub winther: bool,
    /// The goal zone as a bit set of padded square indices.
    pub zone: u64,
    /// Padded index → dense index 0..50 (or `NONE`).
    pub dense: [u8; 64],
    /// Dense index → padded index.
    pub padded: [u8; SQUARES],
    /// Neighbour in each direction by padded index, `NONE` off the board.
    neighbour: [[u8; 64]; 4],
}

pub(crate) const NONE: u8 = u8::MAX;
/// Squares on the Salta board.
pub(crate) const SQUARES: usize = 50;

impl Mover {
    pub fn new(geometry: &'static Geometry, variant: Variant, color: Color) -> Mover {
        let mut dense = [NONE; 64];
        let mut padded = [NONE; SQUARES];
        let mut neighbour = [[NONE; 64]; 4];
        for (i, sq) in geometry.squares().enumerate().take(SQUARES) {
            dense[sq.index()] = i as u8;
            padded[i] = sq.index() as u8;
            for dir in Direction::ALL {
                if let Some(n) = geometry.neighbour(sq, dir) {
                    neighbour[dir as usize][sq.index()] = n.index() as u8;
                }
            }
        }
        Mover {
            geometry,
            color,
            winther: variant == Variant::Winther,
            zone: geometry.far_zone(color).0,
            dense,
            padded,
            neighbour,
        }
    }

    #[inline]
    pub fn neighbour(&self, sq: u8, dir: Direction) -> u8 {
        self.neighbour[dir as usize][sq as usize]
    }

    #[inline]
    pub fn in_zone(&self, sq: u8) -> bool {
        self.zone >> sq & 1 != 0
    }

    /// The squares next to any square of `set` (diagonally, in all four directions).
    #[inline]
    pub fn spread(&self, set: u64) -> u64 {
        let g = self.geometry;
        let set = crate::board::Bitboard(set);
        let mut out = crate::board::Bitboard::EMPTY;
        for dir in Direction::ALL {
            out |= set.shift(g.shift(dir));
        }
        (out & g.valid).0
    }

    /// The squares reachable from `from` over `open` squares (and `from` itself).
    pub fn region(&self, from: u8, open: u64) -> u64 {
        self.region_from(1 << from, open)
    }

    /// The squares reachable from the set `start` over `open` squares (and `start` itself).
    pub fn region_from(&self, start: u64, open: u64) -> u64 {
        let mut region = start;
        loop {
            let grown = region | (self.spread(region) & open);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// Whether a step from `from` in `dir` is allowed by direction (the target must still be empty).
    #[inline]
    pub fn may_step(&self, from: u8, dir: Direction) -> bool {
        !self.winther || Direction::forward(self.color).contains(&dir) || self.in_zone(from)
    }

    /// Calls `visit(to)` for every move of the piece on `from` given the occupied squares `occupied`
    /// (own pieces, including the mover).
    #[inline]
    pub fn for_each_move(&self, from: u8, occupied: u64, mut visit: impl FnMut(u8)) {
        for dir in Direction::ALL {
            let to = self.neighbour(from, dir);
            if to == NONE {
                continue;
            }
            if occupied >> to & 1 == 0 {
                if self.may_step(from, dir) {
                    visit(to);
                }
            } else if self.winther && self.in_zone(from) {
                let beyond = self.neighbour(to, dir);
                if beyond != NONE && occupied >> beyond & 1 == 0 {
                    visit(beyond);
                }
            }
        }
    }

    /// Calls `visit(from)` for every square a piece now on `to` may have come from in one move of a
    /// relaxed game: as the real one, except that a Winther jump needs nothing to jump over. The
    /// relaxation is what keeps pattern tables admissible in Winther, where pieces outside a group
    /// can serve as stepping stones. `occupied` holds the other pieces of the group.
    #[inline]
    pub fn for_each_relaxed_origin(&self, to: u8, occupied: u64, mut visit: impl FnMut(u8)) {
        for dir in Direction::ALL {
            let from = self.neighbour(to, dir);
            if from == NONE {
                continue;
            }
            if occupied >> from & 1 == 0 && self.may_step(from, opposite(dir)) {
                visit(from);
            }
            if self.winther {
                let far = self.neighbour(from, dir);
                if far != NONE && occupied >> far & 1 == 0 && self.in_zone(far) {
                    visit(far);
                }
            }
        }
    }
}

pub(crate) fn opposite(dir: Direction) -> Direction {
    match dir {
        Direction::UpLeft => Direction::DownRight,
        Direction::UpRight => Direction::DownLeft,
        Direction::DownLeft => Direction::UpRight,
        Direction::DownRight => Direction::UpLeft,
    }
}
