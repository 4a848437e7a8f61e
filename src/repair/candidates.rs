//! The edits a search tries at one written move: every kind of slip a transcriber makes there,
//! each with its cost (`-ln` of how likely it is).

use super::channel::{Channel, meant_symbols};
use super::line::Line;
use super::slips::SlipKind;
use super::suggestion::Change;
use super::token::{Token, Written};
use crate::notation::Notation;
use crate::replay::{missed_jump_step, relaxed};
use crate::rules::Move;

/// The cost of a move misread at all (about one move in a hundred), paid once for each move an
/// edit touches: what makes one misread move likelier than two.
pub(crate) const SLIP: f64 = 4.6;

/// An edit the search tries: the slip it undoes, the change, and its cost (the cost of a slip
/// and `-ln` of the weight of the slip's kind or of its characters' edits).
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub kind: SlipKind,
    pub change: Change,
    pub cost: f64,
    /// The characters' edits in words (`S for 5, - left out`), for the kinds the character
    /// model names.
    pub detail: Option<String>,
}

impl Candidate {
    /// A slip of a kind whose weight is its prior.
    fn of_kind(kind: SlipKind, change: Change) -> Candidate {
        Candidate {
            kind,
            change,
            cost: SLIP - kind.prior().ln(),
            detail: None,
        }
    }
}

impl Line {
    /// The edits that read the move at token `i` as another single move: its characters
    /// misread (every legal move there whose text the written one is within `limit` of, by the
    /// character model), a square read from Red's side, from and to reversed. Such a slip may
    /// itself be a legal move.
    pub fn misreadings_at(&self, i: usize, limit: f64, out: &mut Vec<Candidate>) {
        let cursor = &self.states[i];
        let pos = &cursor.pos;
        let g = pos.geometry();
        let t = self.tokens[i];
        let replace = |token: Token| Change {
            start: i,
            removed: 1,
            inserted: vec![token],
        };
        if let Some(written) = self.origin[i].and_then(|o| self.written.get(o)) {
            let written: Vec<char> = written.chars().collect();
            let meant_move = t.resolve(pos);
            let moves: Vec<Move> = if t.call {
                relaxed(pos)
                    .into_iter()
                    .filter(|&m| missed_jump_step(pos, m).is_some())
                    .collect()
            } else {
                pos.legal_moves().iter().copied().collect()
            };
            let algebraic = self.style == Notation::Algebraic;
            for m in moves {
                if meant_move == Some(m) {
                    continue;
                }
                let token = Token::of_move(m, pos, self.style).with_call(t.call);
                let text = token.with_call(false).text(g, self.style, self.from_red);
                let mut meant = meant_symbols(&text);
                if self.omits_separators {
                    meant.retain(|s| *s != super::channel::Sym::Sep);
                }
                let Some(read) = Channel::get().read(&meant, &written, limit) else {
                    continue;
                };
                if read.ops.is_empty() {
                    continue;
                }
                let kind = SlipKind::of_edits(&read.ops, algebraic);
                let detail = (!matches!(
                    kind,
                    SlipKind::DigitSwap
                        | SlipKind::NeighbourDigit
                        | SlipKind::GlyphDigit
                        | SlipKind::AlgebraicMisread
                ))
                .then(|| {
                    read.ops
                        .iter()
                        .map(|op| op.describe())
                        .collect::<Vec<_>>()
                        .join(", ")
                });
                out.push(Candidate {
                    kind,
                    change: replace(token),
                    cost: SLIP + read.cost,
                    detail,
                });
            }
        }
        let Some(w) = t.squares else {
            return;
        };
        let mut squares = |kind, squares: Written| {
            out.push(Candidate::of_kind(
                kind,
                replace(Token {
                    squares: Some(squares),
                    ..t
                }),
            ));
        };
        squares(
            SlipKind::RedSideSquare,
            Written {
                to: g.rotate(w.to),
                ..w
            },
        );
        if let Some(from) = w.from {
            squares(
                SlipKind::RedSideSquare,
                Written {
                    from: Some(g.rotate(from)),
                    ..w
                },
            );
            let both = Written {
                from: Some(g.rotate(from)),
                to: g.rotate(w.to),
                ..w
            };
            squares(SlipKind::RedSideSquare, both);
            let reversed = Written {
                from: Some(w.to),
                to: from,
                ..w
            };
            squares(SlipKind::Reversed, reversed);
        }
    }

    /// The edits that model each kind of slip at token `i`, its characters misread within
    /// `limit`.
    pub fn candidates_at(&self, i: usize, limit: f64, out: &mut Vec<Candidate>) {
        self.misreadings_at(i, limit, out);
        let cursor = &self.states[i];
        let t = self.tokens[i];
        if cursor.referee.accepts_moves() {
            for &m in cursor.pos.legal_moves().iter() {
                out.push(Candidate::of_kind(
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
            out.push(Candidate::of_kind(
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
            out.push(Candidate::of_kind(
                SlipKind::Transposed,
                Change {
                    start: i,
                    removed: 3,
                    inserted: vec![window[2], window[1], window[0]],
                },
            ));
        }
        out.push(Candidate::of_kind(
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
            out.push(Candidate::of_kind(
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
