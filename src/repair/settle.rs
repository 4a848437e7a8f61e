//! A line read whole that ends by another margin than the Margin tag says, settled by the tag
//! (decision 182).
//!
//! Two readings of a worn digit may both replay to the end with the recorded result, the same
//! squares taken, but by different pieces (`102-93` or `103-93`; `91-81` then `101-91`, or
//! `92-81` then `101-92`): the pieces then stand elsewhere at the end, and the margin differs.
//! The decoder's beam keeps the one that reads the characters better, and the other, a little
//! dearer for a few dozen plies, falls out of it long before the end, where the tag would have
//! told them apart. So where the line read whole ends off the tag, the lines one square away
//! from it at one move, or at two, are tried, the cheapest first; the first whose margin is the
//! tag's stands in its place where it reads for less than ending off the tag costs.

use super::cursor::Cursor;
use super::decode::{COUNT_STATES, OTHER_MARGIN};
use super::line::{Line, MarginTag};
use super::step::{Step, What};
use super::token::Token;
use crate::board::Square;
use crate::rules::{Move, Position};

/// Moves replayed at most in looking for such lines: a few dozen milliseconds.
const REPLAYED: usize = 400_000;
/// Lines whose margins are counted at most, the cheapest first: many one square away may read
/// for less than the source's (on a page of seed 7500 eleven, each off the tag too).
const SETTLE_COUNTS: usize = 24;

/// A step of the line that reads all that is left of a token, with the replay before it.
struct Readable {
    /// The step's index in the line.
    step: usize,
    /// The token it reads, and the character it reads from.
    at: (usize, usize),
    before: Cursor,
    played: Move,
}

/// A line one or two moves away from the line read whole: what it reads for more (less, if
/// negative), and each changed step with the move it plays there.
struct Nearby {
    dearer: f64,
    changes: Vec<(usize, Token)>,
}

/// The line read whole, looked around in.
struct Around<'a> {
    line: &'a Line,
    /// The moves it plays, by ply.
    tokens: Vec<Token>,
    /// The steps that read all that is left of a token, by the ply they play.
    by_ply: Vec<Option<Readable>>,
    /// The result it ends with.
    end: Option<crate::notation::GameResult>,
    /// Moves left to replay.
    budget: usize,
    found: Vec<Nearby>,
}

impl Line {
    /// The line `path`, read whole for `cost` (what ending off the tag costs included) and
    /// ending off the tag, with one move or two read otherwise so that it ends by the tag's
    /// margin, where such a line reads for less than `cost` (see the module's doc): its cost
    /// and steps.
    pub(super) fn settled_by_margin(
        &self,
        tag: MarginTag,
        cost: f64,
        path: &[Step],
    ) -> Option<(f64, Vec<Step>)> {
        let mut around = Around::new(self, path)?;
        // Where the budget runs out, what was found so far is weighed.
        for ply in 0..around.tokens.len() {
            if around.changed_at(ply).is_none() {
                break;
            }
        }
        let mut found = around.found;
        found.retain(|n| n.dearer < OTHER_MARGIN);
        // Stable: of equal costs, the line changed earliest.
        found.sort_by(|a, b| a.dearer.total_cmp(&b.dearer));
        found.into_iter().take(SETTLE_COUNTS).find_map(|n| {
            let mut steps = path.to_vec();
            for &(i, token) in &n.changes {
                steps[i].what = What::Read(token);
            }
            // Counted as the decoder counts, and where that leaves it open with the tag's whole
            // budget: few pages come here.
            let moves = || steps.iter().filter_map(|s| s.what.played());
            let holds = self
                .margin_verdict(tag, moves(), COUNT_STATES)
                .or_else(|| self.margin_verdict(tag, moves(), tag.budget.max_states));
            (holds != Some(false)).then_some((cost - OTHER_MARGIN + n.dearer, steps))
        })
    }

    /// The legal moves in `pos` one square away from the move `r` played (the same from-square
    /// or the same to-square) that `keep` keeps, each with what reading its token as it costs
    /// more than reading the move `r` played there.
    fn one_square_away(
        &self,
        r: &Readable,
        pos: &Position,
        keep: impl Fn(&Move) -> bool,
    ) -> Vec<(Move, f64)> {
        let was = self.whole_reading(r.at, r.played, &r.before.pos);
        pos.legal_moves()
            .iter()
            .filter(|m| (m.from, m.to) != (r.played.from, r.played.to))
            .filter(|m| m.from == r.played.from || m.to == r.played.to)
            .filter(|m| keep(m))
            .map(|&m| (m, self.whole_reading(r.at, m, pos) - was))
            .filter(|&(_, dearer)| dearer < OTHER_MARGIN)
            .collect()
    }
}

impl<'a> Around<'a> {
    /// `None` where the path does not replay (it always does: it was read by replaying it).
    fn new(line: &'a Line, path: &[Step]) -> Option<Around<'a>> {
        let mut cursor = line.states[0].clone();
        let mut offset = 0;
        let mut tokens = Vec::new();
        let mut by_ply = Vec::new();
        for (step, s) in path.iter().enumerate() {
            let Some(token) = s.what.played() else {
                offset = 0;
                continue;
            };
            let before = cursor.clone();
            let played = token.resolve(&before.pos)?;
            if !cursor.advance(&token, line.lenient) {
                return None;
            }
            tokens.push(token);
            by_ply.push(None);
            match s.what {
                What::Read(_) => {
                    by_ply[tokens.len() - 1] = Some(Readable {
                        step,
                        at: (s.at, offset),
                        before,
                        played,
                    });
                    offset = 0;
                }
                What::Part(_, rest) => offset = rest,
                _ => {}
            }
        }
        Some(Around {
            line,
            end: cursor.result(),
            tokens,
            by_ply,
            budget: REPLAYED,
            found: Vec::new(),
        })
    }

    /// The lines with the move at `ply` one square away: where the rest then replays to the
    /// same end, with no more change, or with one more that takes one of the squares the first
    /// left or took (`23-13` for `23-14`, then `24-14` for `24-15`); where it stops replaying,
    /// with one more change there. `None` once the budget is spent.
    fn changed_at(&mut self, ply: usize) -> Option<()> {
        let Some(first) = &self.by_ply[ply] else {
            return Some(());
        };
        let line = self.line;
        let (before, step, played) = (first.before.clone(), first.step, first.played);
        for (m, dearer) in line.one_square_away(first, &before.pos, |_| true) {
            let mut cursor = before.clone();
            cursor.play_legal(m);
            let change = (step, Token::of_move(m, &before.pos, line.style));
            let after = cursor.clone();
            match self.replay(&mut cursor, ply + 1)? {
                None => {
                    if cursor.result() == self.end {
                        self.found.push(Nearby {
                            dearer,
                            changes: vec![change],
                        });
                    }
                    let squares = [m.from, m.to, played.to];
                    self.second_changes(after, ply + 1, (change, dearer), Some(squares))?;
                }
                Some(stop) => {
                    self.second_change(&cursor, stop, (change, dearer), None)?;
                }
            }
        }
        Some(())
    }

    /// After the first change (`first`, what it reads for more), each later move changed in
    /// turn to one that takes one of `squares`; `cursor` is the replay before the move at `ply`.
    fn second_changes(
        &mut self,
        mut cursor: Cursor,
        ply: usize,
        first: ((usize, Token), f64),
        squares: Option<[Square; 3]>,
    ) -> Option<()> {
        for at in ply..self.tokens.len() {
            self.second_change(&cursor, at, first, squares)?;
            self.budget = self.budget.checked_sub(1)?;
            if !cursor.advance(&self.tokens[at], self.line.lenient) {
                return Some(());
            }
        }
        Some(())
    }

    /// The move at `ply` changed after the first change (`cursor`: the replay before it), to
    /// one one square away that takes one of `squares` (any, where `None`), the rest replaying
    /// to the same end.
    fn second_change(
        &mut self,
        cursor: &Cursor,
        ply: usize,
        (change, dearer): ((usize, Token), f64),
        squares: Option<[Square; 3]>,
    ) -> Option<()> {
        let Some(second) = &self.by_ply[ply] else {
            return Some(());
        };
        let line = self.line;
        let pos = cursor.pos;
        let step = second.step;
        let takes = |m: &Move| squares.is_none_or(|s| s.contains(&m.from) || s.contains(&m.to));
        let mut found = Vec::new();
        for (m, dearer2) in line.one_square_away(second, &pos, takes) {
            let mut c = cursor.clone();
            c.play_legal(m);
            if self.replay(&mut c, ply + 1)?.is_none() && c.result() == self.end {
                found.push(Nearby {
                    dearer: dearer + dearer2,
                    changes: vec![change, (step, Token::of_move(m, &pos, line.style))],
                });
            }
        }
        self.found.extend(found);
        Some(())
    }

    /// Replays the moves from `ply` on after `cursor`: the ply of the first that does not
    /// replay (`Some`), or `Some(None)` where all do; `None` once the budget is spent.
    fn replay(&mut self, cursor: &mut Cursor, ply: usize) -> Option<Option<usize>> {
        for (k, t) in self.tokens.iter().enumerate().skip(ply) {
            self.budget = self.budget.checked_sub(1)?;
            if !cursor.advance(t, self.line.lenient) {
                return Some(Some(k));
            }
        }
        Some(None)
    }
}
