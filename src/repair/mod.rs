//! Transcription repair: from "this move is illegal" to "this is what the source meant".
//!
//! A record breaks at some written move. The search tries the edits that model the slips of
//! period transcriptions ([`SlipKind`]) at the breaking move and several written moves before
//! it, and the misreadings of single moves further back (a slip that is itself a legal move is
//! caught only later), replays the rest of the record after each, and ranks them: how far the
//! record then replays first, then whether its recorded result holds, then whether its margin
//! agrees with the Margin tag (counted only to tell such readings apart), then the prior of the
//! slip's kind, then the nearer edit. After the best repair of a break the replay goes on, so
//! every slip of a record is found in one run.
//!
//! [`check`] replays a game and adds the readings to its findings ([`Diagnosis`]); [`mend`]
//! makes the best readings, as `salta repair` does. The replayer knows nothing of repair: the
//! readings live here, beside the findings they explain.
//!
//! Rooms: `token` (what a written move names), `cursor` (a replay that keeps no findings),
//! `line` (a line under repair), `slips` and `candidates` (the kinds of slip and the edits that
//! undo them), `search` (reading each break), `suggestion` (a reading as data and in words),
//! `decode`, `step`, `beam` and `decoded` (a record the search cannot mend read whole at once:
//! the chains of steps that read it, those that have read the text to one place, the cheapest
//! chain as breaks), `diagnose` (findings with readings), `mend` (the record
//! with its repairs made), `readings` (a broken main line's costly readings, made once for
//! both), `inject` (the seeded slips of the tests and benchmark).

mod beam;
mod candidates;
mod chains;
pub(crate) mod channel;
mod cursor;
mod decode;
mod decoded;
mod diagnose;
#[doc(hidden)]
pub mod inject;
mod line;
mod mend;
mod numbers;
mod readings;
mod search;
mod settle;
mod slips;
mod step;
mod stray;
mod suggestion;
mod token;
mod trials;

pub use decode::{ReadingCosts, reading_costs};
pub use diagnose::{Checked, Diagnosis, annotate, annotate_with, check};
pub use mend::{
    DEFAULT_MAX_EDITS, MAX_EDITS, Mended, READ_WHOLE, Unmended, apply, mend, mend_with,
};
pub use readings::MainReadings;
pub use search::{Analysis, Break, MAX_BREAKS, analyse};
pub use slips::SlipKind;
pub use stray::read_past;
pub use suggestion::{EditKind, MarginCount, MoveNumber, Suggestion};

use crate::diagnostic::Code;
use crate::replay::{Finding, Severity};

/// The replayer's codes for an error after which the main line cannot go on as written.
const BREAKING_CODES: [Code; 8] = [
    Code::GarbledMove,
    Code::IllegalMove,
    Code::MissedJump,
    Code::UnjustifiedCall,
    Code::MissingCorrection,
    Code::BadCorrection,
    Code::MoveAfterEnd,
    Code::DesignatorMismatch,
];

/// Whether a finding breaks the main line.
pub fn breaks_main_line(f: &Finding) -> bool {
    f.severity == Severity::Error && !f.in_variation && BREAKING_CODES.contains(&f.code)
}

/// Whether a finding breaks a line of play, the main line or a variation: [`annotate`] reads it
/// (a variation's break only in a variation of the main line).
pub fn breaks_a_line(f: &Finding) -> bool {
    f.severity == Severity::Error && BREAKING_CODES.contains(&f.code)
}
