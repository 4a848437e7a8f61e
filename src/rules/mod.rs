//! The rules engine: rule sets and switches, positions, legal moves, completion and counts.

mod assignment;
pub mod margin;
mod movegen;
mod piece;
mod position;
mod ruleset;

pub use assignment::min_cost as min_cost_assignment;
pub use movegen::{Move, MoveKind, MoveList, perft, perft_divide};
pub use piece::{Piece, PieceKind};
pub use position::{MAX_PIECES, Position, SetupError, start_squares};
pub use ruleset::{DEFAULT_MOVE_LIMIT, Goal, JumpDirection, Precedence, Rules, RulesError, Variant};
