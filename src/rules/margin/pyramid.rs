//! Pyramid: identical pieces that, with the opponent gone, only step forward. A placement is a set
//! of squares; the heuristic is the cheapest assignment of pieces to target squares where a piece can
//! only reach squares in its forward cone (rank gain at least the file change). Every forward step
//! gains one rank, so with a full side of ten pieces all plans have the same length and the search
//! only has to decide whether the target set can be reached at all.

use super::search::{DEAD, Limits, Outcome, Puzzle, astar};
use super::{Budget, Remaining};
use crate::board::{Color, Direction, Geometry, Square};
use crate::rules::min_cost_assignment;
use std::time::Instant;

/// A cost that marks a target outside a piece's forward cone.
const OUT_OF_REACH: u32 = 1_000;

struct Side {
    geometry: &'static Geometry,
    color: Color,
    start: u64,
    targets: Vec<Square>,
    target_set: u64,
}

impl Side {
    fn cost(&self, from: Square, to: Square) -> u32 {
        let g = self.geometry;
        let gain =
            g.relative_rank(to, self.color) as i32 - g.relative_rank(from, self.color) as i32;
        let sideways = g.file(from).abs_diff(g.file(to)) as i32;
        if gain >= sideways {
            gain as u32
        } else {
            OUT_OF_REACH
        }
    }

    fn value(&self, placement: u64) -> u32 {
        let pieces: Vec<Square> = squares(placement).collect();
        let cost = min_cost_assignment(&pieces, &self.targets, |a, b| self.cost(a, b));
        if cost >= OUT_OF_REACH { DEAD } else { cost }
    }
}

fn squares(set: u64) -> impl Iterator<Item = Square> {
    (0..64u8)
        .filter(move |&i| set >> i & 1 == 1)
        .map(Square::new_unchecked)
}

impl Puzzle for Side {
    fn root(&self) -> (u128, u32) {
        (self.start as u128, self.value(self.start))
    }

    fn expand(
        &self,
        state: u128,
        _h: u32,
        _cap: u32,
        _known: &dyn Fn(u128) -> bool,
        out: &mut Vec<(u128, u32)>,
    ) {
        let placement = state as u64;
        for from in squares(placement) {
            for dir in Direction::forward(self.color) {
                if let Some(to) = self.geometry.neighbour(from, dir)
                    && placement >> to.index() & 1 == 0
                {
                    let child = placement ^ 1 << from.index() ^ 1 << to.index();
                    out.push((child as u128, self.value(child)));
                }
            }
        }
    }

    fn is_goal(&self, state: u128) -> bool {
        state as u64 & !self.target_set == 0
    }
}

pub(crate) fn solve(
    geometry: &'static Geometry,
    color: Color,
    start: u64,
    targets: u64,
    budget: &Budget,
) -> Remaining {
    let side = Side {
        geometry,
        color,
        start,
        targets: squares(targets).collect(),
        target_set: targets,
    };
    let (exact_end, end) = budget.deadlines(Instant::now());
    let mut limits = Limits {
        states_left: budget.max_states,
        deadline: exact_end,
    };
    match astar(&side, &mut limits, 1, u32::MAX) {
        Outcome::Solved { cost, .. } => Remaining::Exact(cost),
        Outcome::Unreachable => Remaining::Unreachable,
        Outcome::OutOfBudget { lower } => {
            let mut limits = Limits {
                states_left: budget.max_states / 2,
                deadline: end,
            };
            let upper = match astar(&side, &mut limits, 4, u32::MAX) {
                Outcome::Solved { cost, .. } => Some(cost),
                _ => None,
            };
            Remaining::Bounds { lower, upper }
        }
    }
}
