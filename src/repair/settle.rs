//! A line read whole that ends by another margin than the Margin tag says, settled by the tag
//! (decision 182).
//!
//! Two readings of a worn digit may both replay to the end with the recorded result, the same
//! squares taken, but by different pieces (`102-93` or `103-93`; `91-81` then `101-91`, or
//! `92-81` then `101-92`): the pieces then stand elsewhere at the end, and the margin differs.
//! The decoder's beam keeps the one that reads the characters better, and the other, a little
//! dearer for a few dozen plies, falls out of it long before the end, where the tag would have
//! told them apart. So where the line read whole ends off the tag, the lines one square away
//! from it at one move, or at two (the second where the first leaves the line's next move
//! illegal), are tried, the cheapest first; the first whose margin is the tag's stands in its
//! place where it reads for less than ending off the tag costs.

use super::cursor::Cursor;
use super::decode::{MARGIN_COUNTS, OTHER_MARGIN};
use super::line::{Line, MarginTag};
use super::step::{Step, What};
use super::token::Token;
use crate::replay::result_of;
use crate::rules::{Move, Position};

/// Moves replayed at most in looking for such lines: a few dozen milliseconds.
const REPLAYED: usize = 400_000;

/// A step of the line read as a whole token, with the replay before it.
struct Readable {
    /// The step's index in the line.
    step: usize,
    /// The token it reads.
    at: usize,
    before: Cursor,
    played: Move,
}

/// A line one or two moves away from the line read whole: what it reads for more (less, if
/// negative), and each changed step with the move it plays there.
struct Nearby {
    dearer: f64,
    changes: Vec<(usize, Token)>,
}

impl Line {
    /// The line `path` (read whole for `cost`, ending off the tag) with one move, or two, read
    /// otherwise so that it ends by the tag's margin, where one reads for less than `cost` (see
    /// the module's doc): its cost and steps.
    pub(super) fn settled_by_margin(
        &self,
        tag: MarginTag,
        cost: f64,
        path: &[Step],
    ) -> Option<(f64, Vec<Step>)> {
        let readable = self.readable_steps(path)?;
        let tokens: Vec<Token> = path.iter().filter_map(|s| s.what.played()).collect();
        let mut budget = REPLAYED;
        let ends = |c: &Cursor| c.referee.outcome_at_end_of_record().map(|o| result_of(&o));
        let end = {
            let mut c = self.states[0].clone();
            tokens
                .iter()
                .all(|t| c.advance(t, self.lenient))
                .then(|| ends(&c))?
        };
        // Each step's index among the moves played.
        let mut ply_of = vec![usize::MAX; path.len()];
        let mut ply = 0;
        for (i, s) in path.iter().enumerate() {
            if s.what.played().is_some() {
                ply_of[i] = ply;
                ply += 1;
            }
        }
        let by_ply: Vec<Option<&Readable>> = {
            let mut v = vec![None; tokens.len()];
            for r in &readable {
                v[ply_of[r.step]] = Some(r);
            }
            v
        };
        let mut nearby: Vec<Nearby> = Vec::new();
        for first in &readable {
            for (m, dearer) in self.one_square_away(first, &first.before.pos) {
                let mut cursor = first.before.clone();
                cursor.play_legal(m);
                let change = (first.step, Token::of_move(m, &first.before.pos, self.style));
                let from = ply_of[first.step] + 1;
                match self.replay_rest(&mut cursor, &tokens[from..], &mut budget)? {
                    None if ends(&cursor) == end => nearby.push(Nearby {
                        dearer,
                        changes: vec![change],
                    }),
                    None => {}
                    Some(k) => {
                        let Some(second) = by_ply[from + k] else {
                            continue;
                        };
                        let pos = cursor.pos;
                        for (m2, dearer2) in self.one_square_away(second, &pos) {
                            let mut c = cursor.clone();
                            c.play_legal(m2);
                            let rest = &tokens[from + k + 1..];
                            if self.replay_rest(&mut c, rest, &mut budget)?.is_none()
                                && ends(&c) == end
                            {
                                nearby.push(Nearby {
                                    dearer: dearer + dearer2,
                                    changes: vec![
                                        change,
                                        (second.step, Token::of_move(m2, &pos, self.style)),
                                    ],
                                });
                            }
                        }
                    }
                }
            }
        }
        nearby.retain(|n| n.dearer < OTHER_MARGIN);
        // Stable: of equal costs, the line changed earliest.
        nearby.sort_by(|a, b| a.dearer.total_cmp(&b.dearer));
        nearby.into_iter().take(MARGIN_COUNTS).find_map(|n| {
            let mut steps = path.to_vec();
            for &(i, token) in &n.changes {
                steps[i].what = What::Read(token);
            }
            let moves = steps.iter().filter_map(|s| s.what.played());
            self.margin_holds(tag, moves)
                .then_some((cost - OTHER_MARGIN + n.dearer, steps))
        })
    }

    /// The steps of `path` that read a whole token as a move, each with the replay before it;
    /// `None` where the path does not replay (it always does: it was read by replaying it).
    fn readable_steps(&self, path: &[Step]) -> Option<Vec<Readable>> {
        let mut cursor = self.states[0].clone();
        let mut offset = 0;
        let mut out = Vec::new();
        for (step, s) in path.iter().enumerate() {
            let Some(token) = s.what.played() else {
                offset = 0;
                continue;
            };
            let before = cursor.clone();
            let played = token.resolve(&before.pos)?;
            if !cursor.advance(&token, self.lenient) {
                return None;
            }
            match s.what {
                What::Read(_) if offset == 0 => out.push(Readable {
                    step,
                    at: s.at,
                    before,
                    played,
                }),
                What::Read(_) => offset = 0,
                What::Part(_, rest) => offset = rest,
                _ => {}
            }
        }
        Some(out)
    }

    /// The legal moves in `pos` one square away from the move `r` played (the same from-square
    /// or the same to-square), each with what reading its token as it costs more than reading
    /// the move `r` played there.
    fn one_square_away(&self, r: &Readable, pos: &Position) -> Vec<(Move, f64)> {
        let was = self.whole_reading(r.at, r.played, &r.before.pos);
        let texts = self.texts_in(r.at, pos);
        pos.legal_moves()
            .iter()
            .filter(|m| (m.from, m.to) != (r.played.from, r.played.to))
            .filter(|m| m.from == r.played.from || m.to == r.played.to)
            .map(|&m| (m, self.whole_reading_in(r.at, m, pos, &texts) - was))
            .filter(|&(_, dearer)| dearer < OTHER_MARGIN)
            .collect()
    }

    /// Replays `tokens` after `cursor`: the index of the first that does not replay (`Some`),
    /// or `Some(None)` where all do; `None` once the budget of moves replayed is spent.
    fn replay_rest(
        &self,
        cursor: &mut Cursor,
        tokens: &[Token],
        budget: &mut usize,
    ) -> Option<Option<usize>> {
        for (k, t) in tokens.iter().enumerate() {
            *budget = budget.checked_sub(1)?;
            if !cursor.advance(t, self.lenient) {
                return Some(Some(k));
            }
        }
        Some(None)
    }
}
