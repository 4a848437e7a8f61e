//! Exact margins (rules.md §5): the fewest moves one side still needs to complete when it is alone on
//! the board — the opponent's pieces removed (so no enemy jumps), its own pieces blocking.
//!
//! Movement with the opponent gone: Salta, a step one square diagonally in any direction to an empty
//! square; Winther, forward steps anywhere, backward steps and friendly jumps (over an adjacent own
//! piece to the empty square beyond) only for a piece standing in its goal zone; Pyramid, forward
//! steps only. Completion is [`Position::is_complete`].
//!
//! The count can be far above the sum of Chebyshev distances ([`Position::free_count`]) when pieces
//! tangle in the goal zone. The search (see `labeled`) is exact within a [`Budget`]; past it the
//! answer is a pair of proven bounds, never a guess.

mod cover;
mod labeled;
mod model;
mod pdb;
mod pyramid;
mod search;
mod selfplay;

// A test helper, not part of the library's promise: public only because benches/margin.rs and
// examples/margin_stats.rs, outside the crate, build their position sets with it.
#[doc(hidden)]
pub use selfplay::greedy_game_end;

use super::{Position, Variant};
use crate::board::Color;
use std::time::{Duration, Instant};

/// How much work one count may take. When either limit is reached the answer is
/// [`Remaining::Bounds`]. Memory grows with `max_states` (about 80 bytes per stored state).
///
/// Built from [`Budget::default`] with its setters: `Budget::default().max_time(None)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Budget {
    /// Search states stored before giving up (each search of one request draws on it; an upper-bound
    /// search after running out gets a fresh allowance of 100,000 states).
    pub max_states: u64,
    /// Wall-clock limit for the whole request (`None`: no limit): nine tenths for the exact
    /// search, the rest for an upper-bound plan if that runs out and none was found before (when
    /// one was, the exact search of the whole side goes on until all but a fiftieth is used). So
    /// that bounds always come with an upper one, that plan's search may run past the limit by some
    /// tens of milliseconds.
    pub max_time: Option<Duration>,
}

impl Default for Budget {
    /// Two million states and one second (in the benchmark the time limit binds first; peak memory
    /// stayed under 256 MB).
    fn default() -> Budget {
        Budget {
            max_states: 2_000_000,
            max_time: Some(Duration::from_secs(1)),
        }
    }
}

impl Budget {
    /// The search states one count may store (the field `max_states`).
    #[must_use]
    pub fn max_states(mut self, max_states: u64) -> Budget {
        self.max_states = max_states;
        self
    }

    /// The wall-clock limit of one count, `None` for none (the field `max_time`).
    #[must_use]
    pub fn max_time(mut self, max_time: Option<Duration>) -> Budget {
        self.max_time = max_time;
        self
    }

    /// When the exact search must stop (after nine tenths of the time; the rest is for a plan if it
    /// runs out) and when the whole request must end, counted from `started`: `None` for no limit,
    /// or for one too far ahead to count (`Duration::MAX`, say).
    fn deadlines(&self, started: Instant) -> (Option<Instant>, Option<Instant>) {
        match self.max_time {
            Some(t) => (started.checked_add(t / 10 * 9), started.checked_add(t)),
            None => (None, None),
        }
    }
}

/// The moves a side still needs, as far as the budget allowed to prove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Remaining {
    /// The exact count.
    Exact(u32),
    /// The budget ran out: the count is at least `lower` and, if a plan was found, at most `upper`.
    Bounds {
        /// The count is at least this.
        lower: u32,
        /// The cost of the best plan found, if any: the count is at most this.
        upper: Option<u32>,
    },
    /// The side can never complete: in Pyramid a piece cannot reach any free target moving forward
    /// only, or the side has no pieces on the board.
    Unreachable,
}

impl Remaining {
    /// The exact count, if proven.
    pub fn exact(&self) -> Option<u32> {
        match *self {
            Remaining::Exact(n) => Some(n),
            _ => None,
        }
    }

    /// A proven lower bound (`None` if the side can never complete).
    pub fn lower(&self) -> Option<u32> {
        match *self {
            Remaining::Exact(n) | Remaining::Bounds { lower: n, .. } => Some(n),
            Remaining::Unreachable => None,
        }
    }

    /// The proven bounds, when the budget ran out before the exact count.
    pub fn bounds(&self) -> Option<(u32, Option<u32>)> {
        match *self {
            Remaining::Bounds { lower, upper } => Some((lower, upper)),
            _ => None,
        }
    }

    /// A proven upper bound: the length of a plan that completes, if one is known.
    pub fn upper(&self) -> Option<u32> {
        match *self {
            Remaining::Exact(n) => Some(n),
            Remaining::Bounds { upper, .. } => upper,
            Remaining::Unreachable => None,
        }
    }
}

/// The fewest moves `color` needs to complete with the opponent removed and its own pieces blocking
/// (the margin count of rules.md §5), within `budget`. Which side is to move does not matter.
pub fn exact_remaining(pos: &Position, color: Color, budget: &Budget) -> Remaining {
    if pos.pieces(color).is_empty() {
        return Remaining::Unreachable;
    }
    if pos.is_complete(color) {
        return Remaining::Exact(0);
    }
    let answer = match pos.rules().variant {
        Variant::Pyramid => {
            let targets = pos.target_squares(color);
            pyramid::solve(
                pos.geometry(),
                color,
                pos.pieces(color).0,
                targets.0,
                budget,
            )
        }
        variant => {
            let mover = model::Mover::new(pos.geometry(), variant, color);
            let (start, targets): (Vec<u8>, Vec<u8>) = pos
                .pieces_of(color)
                .map(|(piece, sq)| (sq.index() as u8, pos.target(piece).index() as u8))
                .unzip();
            labeled::solve(&mover, &start, &targets, budget)
        }
    };
    match answer {
        Remaining::Bounds {
            lower,
            upper: Some(upper),
        } if lower >= upper => Remaining::Exact(upper),
        other => other,
    }
}
