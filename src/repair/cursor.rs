//! A replay in progress that judges moves as the replayer does but keeps no findings: what the
//! search replays each candidate reading with.

use super::token::Token;
use crate::notation::GameResult;
use crate::replay::{missed_jump_step, result_of};
use crate::rules::{Move, MoveKind, Position, Referee};

/// A replay in progress: the position, its referee, and whether the next move corrects a call.
#[derive(Clone, Debug)]
pub(crate) struct Cursor {
    pub pos: Position,
    pub referee: Referee,
    pub correcting: bool,
    pub plies: u32,
}

impl Cursor {
    /// A replay from `pos`, before any move.
    pub fn new(pos: Position) -> Cursor {
        Cursor {
            pos,
            referee: Referee::new(&pos, None),
            correcting: false,
            plies: 0,
        }
    }

    /// The result the game ends with here, if it has ended.
    pub fn result(&self) -> Option<GameResult> {
        self.referee
            .outcome_at_end_of_record()
            .map(|o| result_of(&o))
    }

    /// Plays one written move as the replayer would; `false` where the replayer reports an error
    /// that breaks the main line (in lenient mode an uncalled missed jump stands).
    pub fn advance(&mut self, t: &Token, lenient: bool) -> bool {
        if !self.referee.accepts_moves() {
            return false;
        }
        let correcting = std::mem::take(&mut self.correcting);
        let Some(candidate) = t.resolve(&self.pos) else {
            return false;
        };
        if t.call {
            self.correcting = missed_jump_step(&self.pos, candidate).is_some();
            return self.correcting;
        }
        let found = match candidate.kind {
            MoveKind::Pass => self
                .pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.kind == MoveKind::Pass)
                .map(|m| (m, false)),
            _ => self.pos.find_legal_proving(candidate.from, candidate.to),
        };
        let played = match found {
            Some(found) => found,
            None if lenient && !correcting => match missed_jump_step(&self.pos, candidate) {
                Some(step) => (step, false),
                None => return false,
            },
            None => return false,
        };
        self.pos.play_unchecked(played.0);
        self.referee.after_move_where(&self.pos, played.1);
        self.plies += 1;
        true
    }

    /// Plays a move known to be legal in the position (one of its `legal_moves`).
    pub fn play_legal(&mut self, m: Move) {
        self.correcting = false;
        self.pos.play_unchecked(m);
        self.referee.after_move_where(&self.pos, false);
        self.plies += 1;
    }

    /// Plays a missed jump as it stands (what the replayer does after reporting it).
    pub fn force_missed_jump(&mut self, t: &Token) -> bool {
        let step = t
            .resolve(&self.pos)
            .and_then(|c| missed_jump_step(&self.pos, c));
        let Some(step) = step.filter(|_| !t.call && self.referee.accepts_moves()) else {
            return false;
        };
        self.correcting = false;
        self.pos.play_unchecked(step);
        self.referee.after_move(&self.pos);
        self.plies += 1;
        true
    }
}
