//! The edits a search tries at one written move: every kind of slip a transcriber makes there.

use super::line::Line;
use super::slips::{SlipKind, misreadings};
use super::suggestion::Change;
use super::token::{Token, Written};
use crate::notation::{Notation, as_named};

impl Line {
    /// The edits that read the move at token `i` as another single move: a square misread or
    /// read from Red's side, from and to reversed. Such a slip may itself be a legal move.
    pub fn misreadings_at(&self, i: usize, out: &mut Vec<(SlipKind, Change)>) {
        let g = self.states[i].pos.geometry();
        let t = self.tokens[i];
        let Some(w) = t.squares else {
            return;
        };
        let mut replace = |kind, squares: Written| {
            out.push((
                kind,
                Change {
                    start: i,
                    removed: 1,
                    inserted: vec![Token {
                        squares: Some(squares),
                        ..t
                    }],
                },
            ));
        };
        let numeric = self.style != Notation::Algebraic;
        // Slips are made on the squares as written: turned half round in a record numbered from
        // Red's side, and their readings turned back.
        let turn = |sq| as_named(sq, self.from_red, g);
        let misread = |kind, sq| {
            misreadings(kind, g, turn(sq), numeric)
                .into_iter()
                .map(turn)
        };
        for kind in [
            SlipKind::DigitSwap,
            SlipKind::NeighbourDigit,
            SlipKind::GlyphDigit,
            SlipKind::AlgebraicMisread,
            SlipKind::RedSideSquare,
        ] {
            if let Some(from) = w.from {
                for s in misread(kind, from) {
                    replace(kind, Written { from: Some(s), ..w });
                }
            }
            for s in misread(kind, w.to) {
                replace(kind, Written { to: s, ..w });
            }
        }
        if let Some(from) = w.from {
            let both = Written {
                from: Some(g.rotate(from)),
                to: g.rotate(w.to),
                ..w
            };
            replace(SlipKind::RedSideSquare, both);
            let reversed = Written {
                from: Some(w.to),
                to: from,
                ..w
            };
            replace(SlipKind::Reversed, reversed);
        }
    }

    /// The edits that model each kind of slip at token `i`.
    pub fn candidates_at(&self, i: usize, out: &mut Vec<(SlipKind, Change)>) {
        self.misreadings_at(i, out);
        let cursor = &self.states[i];
        let t = self.tokens[i];
        if cursor.referee.accepts_moves() {
            for &m in cursor.pos.legal_moves().iter() {
                out.push((
                    SlipKind::Dropped,
                    Change {
                        start: i,
                        removed: 0,
                        inserted: vec![Token::of_move(m, &cursor.pos, self.style)],
                    },
                ));
            }
        }
        let same = |j: usize| self.tokens[j].squares == t.squares;
        if (i >= 1 && same(i - 1)) || (i >= 2 && same(i - 2)) {
            out.push((
                SlipKind::Doubled,
                Change {
                    start: i,
                    removed: 1,
                    inserted: Vec::new(),
                },
            ));
        }
        if let Some(window) = self.tokens.get(i..i + 3)
            && window.iter().all(|t| !t.call)
        {
            out.push((
                SlipKind::Transposed,
                Change {
                    start: i,
                    removed: 3,
                    inserted: vec![window[2], window[1], window[0]],
                },
            ));
        }
        out.push((
            SlipKind::MisplacedCall,
            Change {
                start: i,
                removed: 1,
                inserted: vec![t.with_call(!t.call)],
            },
        ));
        if let Some(&next) = self.tokens.get(i + 1)
            && next.call != t.call
        {
            out.push((
                SlipKind::MisplacedCall,
                Change {
                    start: i,
                    removed: 2,
                    inserted: vec![t.with_call(next.call), next.with_call(t.call)],
                },
            ));
        }
    }
}
