//! The rules engine: rule sets and switches, positions, legal moves, completion and counts.

mod assignment;
pub(crate) mod hash;
pub mod margin;
mod movegen;
mod moves;
mod outcome;
mod perft;
mod piece;
mod position;
mod ruleset;
mod setup;
mod turn;

pub(crate) use assignment::min_cost as min_cost_assignment;
pub use moves::{IllegalMove, Move, MoveKind, MoveList, MoveListIter};
pub use outcome::{EndReason, Outcome, Progress, Referee, limit_outcome};
pub use perft::{perft, perft_divide};
pub use piece::MAX_PIECES;
pub use piece::{Piece, PieceKind};
pub(crate) use position::{DefaultRules, OwnRules, RulesSource};
pub use position::{PlacementError, Position, start_squares};
pub use ruleset::{Goal, JumpDirection, MoveLimit, Odds, Precedence, Rules, RulesError, Variant};
pub use setup::{Setup, SetupError};
pub use turn::Turn;

/// A small reproducible random source for tests' random playouts: `random(n)` is in `0..n`.
#[cfg(test)]
pub(crate) fn xorshift(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    }
}
