//! The names most programs need, in one `use`:
//!
//! ```
//! use salta::prelude::*;
//!
//! let game = parse_str("1. 33-43 83-73 *\n").remove(0)?;
//! let checked = check(&game, &ReplayOptions::default());
//! assert_eq!(checked.replay.status(), Status::Valid);
//! # Ok::<(), SyntaxError>(())
//! ```

pub use crate::archive::{CheckOptions, check_files, sgn_files};
pub use crate::board::{Color, Geometry, Square};
pub use crate::diagnostic::{Code, Severity};
pub use crate::notation::{
    Game, GameBuilder, GameResult, Notation, SyntaxError, Visitor, WriteOptions, parse_str,
    read_path, write_game,
};
pub use crate::repair::{Diagnosis, check};
pub use crate::replay::{Finding, Replay, ReplayOptions, Replaying, Status, replay};
pub use crate::rules::{Move, MoveKind, Outcome, Position, Rules};
