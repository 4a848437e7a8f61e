//! The exact remaining-move count with the side's own pieces blocking (rules.md §5). Interim plain
//! breadth-first search with a state budget; the fast search replaces it.

use super::{Position, Variant};
use crate::board::{Color, Direction};
use std::collections::{HashSet, VecDeque};
use std::time::Duration;

/// How much work one count may take before it settles for bounds.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub max_states: u64,
    pub max_time: Option<Duration>,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_states: 2_000_000,
            max_time: Some(Duration::from_secs(1)),
        }
    }
}

/// The count, or proven bounds when the budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Remaining {
    Exact(u32),
    Bounds { lower: u32, upper: Option<u32> },
}

impl Remaining {
    pub fn exact(&self) -> Option<u32> {
        match self {
            Remaining::Exact(n) => Some(*n),
            Remaining::Bounds { .. } => None,
        }
    }

    pub fn lower(&self) -> u32 {
        match self {
            Remaining::Exact(n) => *n,
            Remaining::Bounds { lower, .. } => *lower,
        }
    }
}

/// The fewest moves for `color` alone (opponent removed, own pieces blocking) to complete.
pub fn exact_remaining(pos: &Position, color: Color, budget: &Budget) -> Remaining {
    let mut solo = Position::empty(*pos.rules());
    for (piece, sq) in pos.pieces_of(color) {
        solo.put(piece, sq);
    }
    let g = pos.geometry();
    let lower = pos.free_count(color);
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([(solo, 0u32)]);
    seen.insert(solo.to_setup());
    while let Some((p, depth)) = queue.pop_front() {
        if p.is_complete(color) {
            return Remaining::Exact(depth);
        }
        if seen.len() as u64 > budget.max_states {
            return Remaining::Bounds {
                lower: lower.max(depth),
                upper: None,
            };
        }
        for (_, from) in p.pieces_of(color) {
            for dir in Direction::ALL {
                let forward = Direction::forward(color).contains(&dir);
                let allowed = match pos.rules().variant {
                    Variant::Salta => true,
                    Variant::Winther => forward || g.far_zone(color).contains(from),
                    Variant::Pyramid => forward,
                };
                let Some(to) = g
                    .neighbour(from, dir)
                    .filter(|&to| allowed && p.piece_at(to).is_none())
                else {
                    continue;
                };
                let mut next = p;
                next.relocate(from, to);
                if seen.insert(next.to_setup()) {
                    queue.push_back((next, depth + 1));
                }
            }
        }
    }
    Remaining::Bounds { lower, upper: None }
}
