//! A decoded chain as the breaks of its line (decision 159): the steps at each token made one
//! edit of the record, with the slip it undoes, in turn on a copy of the line, so that each
//! reads as any repair reads; a move read past its characters with the other legal moves that
//! make the rest of the line replay as far (its rivals).

use super::candidates::{describe, left_out_detail, read_best, read_from_words};
use super::cursor::Cursor;
use super::decode::COUNT_STATES;
use super::line::Line;
use super::search::{Analysis, Break};
use super::slips::SlipKind;
use super::step::{
    DROPPED, LEFT_OUT, MAX_RIVALS, MERGED, MISREAD, NOISE, READ_LIMIT, Step, UNREADABLE,
    UNREADABLE_WHY, What, misread_of,
};
use super::suggestion::{CLOSE, Change, Suggestion};
use super::token::Token;
use super::trials::Trial;
use crate::notation::Notation;
use crate::rules::Position;

impl Line {
    /// The chain's steps as the breaks of the line: the steps at each token as one edit (the
    /// moves put in before it apart), each made in turn to a copy of the line.
    pub(super) fn breaks_of(&self, path: &[Step]) -> Option<Analysis> {
        let mut edits = Edits {
            line: self.clone(),
            shift: 0,
            breaks: Vec::new(),
        };
        let mut k = 0;
        let mut last_read = 0;
        while k < path.len() {
            let at = path[k].at;
            let group: Vec<Step> = path[k..]
                .iter()
                .take_while(|s| s.at == at)
                .copied()
                .collect();
            k += group.len();
            let dropped: Vec<Token> = group
                .iter()
                .map_while(|s| match s.what {
                    What::Dropped(t) | What::LeftOut(t) => Some(t),
                    _ => None,
                })
                .collect();
            let rest = &group[dropped.len()..];
            if !dropped.is_empty() {
                let read = group.iter().find_map(|s| match s.what {
                    What::LeftOut(t) => Some(t),
                    _ => None,
                });
                let (cost, detail) = match read {
                    Some(token) => {
                        let here = edits.replay_to(at);
                        let pos = edits.line.states.get(here).map(|c| c.pos);
                        (LEFT_OUT, Some(self.read_from_left_out(at, pos, token)))
                    }
                    None => (DROPPED * dropped.len() as f64, None),
                };
                edits.make(at, 0, dropped, SlipKind::Dropped, cost, detail);
            }
            if rest.is_empty() {
                continue;
            }
            last_read = at + 1;
            let moves: Vec<Token> = rest.iter().filter_map(|s| s.what.played()).collect();
            match rest {
                [
                    Step {
                        what: What::Read(token),
                        ..
                    },
                ] => {
                    let here = edits.replay_to(at);
                    if let Some((kind, cost, detail)) = self.misreading(&edits.line, here, *token) {
                        edits.make(at, 1, moves, kind, cost, Some(detail));
                    }
                }
                [
                    Step {
                        what: What::Noise, ..
                    },
                ] => {
                    let here = edits.replay_to(at);
                    let (cost, number) = match edits.line.states.get(here) {
                        Some(before) => {
                            let texts = self.texts_from(at, 0, &before.pos);
                            self.noise_cost(at, 0, &texts, &before.pos)
                        }
                        None => (NOISE, None),
                    };
                    let detail = match number {
                        Some(n) => format!("the move number {n}."),
                        None => "no move, passed over".to_string(),
                    };
                    edits.make(at, 1, moves, SlipKind::CharAdded, cost, Some(detail));
                }
                // One move and what is left of the token no move.
                _ if moves.len() == 1 => {
                    let detail = "the rest of it no move".to_string();
                    edits.make(at, 1, moves, SlipKind::CharAdded, NOISE, Some(detail));
                }
                _ => {
                    let detail = (moves.len() > 2).then(|| format!("{} moves", moves.len()));
                    edits.make(at, 1, moves, SlipKind::Merged, MERGED, detail);
                }
            }
        }
        // What follows the game's end is no move.
        for at in last_read..self.tokens.len() {
            let detail = "no move, after the game's end".to_string();
            edits.make(at, 1, Vec::new(), SlipKind::CharAdded, NOISE, Some(detail));
        }
        let mut line = edits.line;
        line.replay_to(line.tokens.len());
        let mut breaks = edits.breaks;
        // A move read past its characters rests on the moves after it alone: another legal move
        // there with which the rest replays to the same end is as good a reading. Where more
        // than a few are, nothing pins the move down: a page whose every break is such a guess
        // is no repair, and on one whose other breaks are read by their characters the guess is
        // kept with every rival named (decision 180).
        let guesses_only = breaks.iter().all(|b| read_past_characters(b).is_some());
        for b in &mut breaks {
            let Some(best) = read_past_characters(b) else {
                // A move read by its characters may have a rival read nearly as well, with
                // which the rest replays alike: named, not left unsaid (decision 191).
                if let Some(first) = b.suggestions.first_mut() {
                    let rivals = self.close_rivals(&line, first);
                    if !rivals.is_empty() {
                        first.name_rivals(&rivals.join(" or "));
                    }
                }
                continue;
            };
            let (at, kind, cost) = (best.line_change.start, best.kind, best.cost);
            // A token as long as a move passed over as no move costs what reading it as any
            // move costs: the moves that could stand in its place are its rivals.
            let passed_over = best.line_change.inserted.is_empty();
            let rivals = line.rivals_at(at, passed_over);
            let many = rivals.len() > MAX_RIVALS;
            if many && guesses_only {
                return None;
            }
            if passed_over || many {
                if let Some(first) = b.suggestions.first_mut().filter(|_| !rivals.is_empty()) {
                    let g = line.states[0].pos.geometry();
                    let texts: Vec<String> = rivals
                        .iter()
                        .map(|t| t.text(g, line.style, line.from_red))
                        .collect();
                    // A few are named one by one, many as a list.
                    let named = match texts.len() > MAX_RIVALS {
                        true => format!("any of {} other moves: {}", texts.len(), texts.join(", ")),
                        false => texts.join(" or "),
                    };
                    first.name_rivals(&named);
                }
                continue;
            }
            for token in rivals {
                let change = Change {
                    start: at,
                    removed: 1,
                    inserted: vec![token],
                };
                let detail = Some(UNREADABLE_WHY.to_string());
                let rival = line.suggestion(Trial::whole(kind, change, cost, detail), at);
                b.suggestions.push(rival);
            }
        }
        let end = line.states.last();
        let plies = end.map_or(0, |c| c.plies);
        let result = end
            .and_then(Cursor::result)
            .zip(self.recorded)
            .map(|(r, recorded)| (r, r == recorded));
        for s in breaks.iter_mut().flat_map(|b| &mut b.suggestions) {
            s.replays = plies;
            s.result = result;
        }
        Some(Analysis {
            breaks,
            replays_to_end: true,
        })
    }

    /// The token at `here` in `line` read as the move `token`: the slip's kind, cost and
    /// characters in words; `None` where it names that move as written.
    fn misreading(
        &self,
        line: &Line,
        here: usize,
        token: Token,
    ) -> Option<(SlipKind, f64, String)> {
        let pos = line.states.get(here)?.pos;
        let m = token.resolve(&pos)?;
        let written = line.tokens[here];
        if written
            .resolve(&pos)
            .is_some_and(|w| (w.from, w.to) == (m.from, m.to))
        {
            return None;
        }
        let texts = line.texts_in(here, &pos);
        let meant = line.meant(token);
        let algebraic = self.style == Notation::Algebraic;
        Some(
            match read_best(&meant, &texts, written.garbled, READ_LIMIT) {
                Some((read, unglued)) => (
                    match read.ops.is_empty() {
                        true => SlipKind::CharAdded,
                        false => SlipKind::of_edits(&read.ops, algebraic),
                    },
                    misread_of(&read, unglued),
                    describe(&read, unglued),
                ),
                None => (
                    SlipKind::Garbled,
                    MISREAD + UNREADABLE,
                    UNREADABLE_WHY.to_string(),
                ),
            },
        )
    }

    /// The legal moves at the token `at` of a line that replays to its end (other than that
    /// token; `passed_over`: in place of none, a token passed over there) with which the rest of
    /// it replays too, to the same result.
    fn rivals_at(&self, at: usize, passed_over: bool) -> Vec<Token> {
        let Some(before) = self.states.get(at) else {
            return Vec::new();
        };
        let pos = before.pos;
        pos.legal_moves()
            .iter()
            .map(|&m| Token::of_move(m, &pos, self.style))
            .filter(|&t| passed_over || t != self.tokens[at])
            .filter(|&t| self.replays_alike(at, t, passed_over))
            .collect()
    }

    /// Whether the line, with the move `t` at the token `at` (in place of it, or before it
    /// where `passed_over`), replays to its end with the same result.
    pub(super) fn replays_alike(&self, at: usize, t: Token, passed_over: bool) -> bool {
        let (Some(before), Some(end)) = (self.states.get(at), self.states.last()) else {
            return false;
        };
        let rest = &self.tokens[at + usize::from(!passed_over)..];
        let mut cursor = before.clone();
        cursor.advance(&t, self.lenient)
            && rest.iter().all(|t| cursor.advance(t, self.lenient))
            && cursor.result() == end.result()
    }

    /// The other legal moves the written token of `best`, a move read by its characters in
    /// `line` (the decoded line, its breaks mended), reads as within [`CLOSE`] of it, with which
    /// the rest of the line replays alike to the same result (and the margin the Margin tag
    /// says, as far as a short count tells), at most [`MAX_RIVALS`]: each as written, with its
    /// misreading.
    fn close_rivals(&self, line: &Line, best: &Suggestion) -> Vec<String> {
        let change = &best.line_change;
        let (at, [chosen]) = (change.start, change.inserted.as_slice()) else {
            return Vec::new();
        };
        let (Some(before), Some(Some(o))) = (line.states.get(at), line.origin.get(at)) else {
            return Vec::new();
        };
        if change.removed != 1 || best.cost >= MISREAD + UNREADABLE {
            return Vec::new();
        }
        let garbled = self.tokens.get(*o).is_some_and(|t| t.garbled);
        let pos = before.pos;
        let texts = line.texts_in(at, &pos);
        let g = pos.geometry();
        pos.legal_moves()
            .iter()
            .map(|&m| line.token_at((at, 0), m, &pos))
            .filter(|t| t != chosen)
            .filter_map(|t| {
                let (read, unglued) = read_best(&line.meant(t), &texts, garbled, READ_LIMIT)?;
                let cost = misread_of(&read, unglued);
                (cost <= best.cost + CLOSE).then(|| (t, describe(&read, unglued)))
            })
            .filter(|&(t, _)| line.replays_alike(at, t, false))
            .filter(|&(t, _)| {
                let Some(tag) = line.margin else {
                    return true;
                };
                let mut moves = line.tokens.clone();
                moves[at] = t;
                line.margin_verdict(tag, moves.into_iter(), COUNT_STATES) != Some(false)
            })
            .take(MAX_RIVALS)
            .map(|(t, why)| format!("{} ({why})", t.text(g, line.style, line.from_red)))
            .collect()
    }

    /// How the move `token`, put in before the record's token `at` (after the move played in
    /// `pos`, if the copy replays that far), was read from the text the reader left out there:
    /// the word it reads best.
    fn read_from_left_out(&self, at: usize, pos: Option<Position>, token: Token) -> String {
        let words = pos.map_or_else(Vec::new, |pos| self.left_out_in(at, &pos));
        let algebraic = self.style == Notation::Algebraic;
        match read_from_words(&self.meant(token), &words, READ_LIMIT, misread_of) {
            Some((word, read, unglued)) => left_out_detail(word, &read, unglued, algebraic),
            None => "read from the text the reader left out".to_string(),
        }
    }
}

/// The best reading of a break, where it reads its move past the token's characters (by the
/// moves around it alone).
fn read_past_characters(b: &Break) -> Option<&Suggestion> {
    b.suggestions
        .first()
        .filter(|s| s.cost >= MISREAD + UNREADABLE)
}

/// The edits of a decoded line made in turn to a copy of it, each a break with its reading.
struct Edits {
    line: Line,
    /// How many tokens the edits made so far put in, less those they took out.
    shift: isize,
    breaks: Vec<Break>,
}

impl Edits {
    /// Where the record's token `at` now stands in the copy, replayed up to it.
    fn replay_to(&mut self, at: usize) -> usize {
        let here = (at as isize + self.shift) as usize;
        self.line.replay_to(here);
        here
    }

    /// Replaces `removed` tokens from the record's token `at` with `inserted`, a slip of `kind`.
    fn make(
        &mut self,
        at: usize,
        removed: usize,
        inserted: Vec<Token>,
        kind: SlipKind,
        cost: f64,
        detail: Option<String>,
    ) {
        let here = self.replay_to(at);
        self.shift += inserted.len() as isize - removed as isize;
        let change = Change {
            start: here,
            removed,
            inserted,
        };
        let suggestion = self
            .line
            .suggestion(Trial::whole(kind, change, cost, detail), here);
        self.line.apply(&suggestion.line_change, suggestion.kind);
        self.breaks.push(Break {
            token: at,
            ply: suggestion.ply,
            suggestions: vec![suggestion],
            read_whole: true,
        });
    }
}
