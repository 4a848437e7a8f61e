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
                let read = if t.garbled {
                    Channel::get().read_garbled(&meant, &written, limit)
                } else {
                    Channel::get().read(&meant, &written, limit)
                };
                let Some(read) = read else {
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

    /// The readings of a garbled token at `i` as two moves run together (`33-4383-73`): every
    /// legal move there and every legal reply, their texts joined, within `limit` of the written
    /// text by the character model.
    fn merged_at(&self, i: usize, limit: f64, out: &mut Vec<Candidate>) {
        let t = self.tokens[i];
        let Some(written) = self.origin[i].and_then(|o| self.written.get(o)) else {
            return;
        };
        let written: Vec<char> = written.chars().filter(|c| !c.is_whitespace()).collect();
        // Two moves are at least two squares each.
        if !t.garbled || t.call || written.len() < 6 {
            return;
        }
        let pos = &self.states[i].pos;
        let g = pos.geometry();
        let symbols = |m: Move, pos: &crate::rules::Position| {
            let token = Token::of_move(m, pos, self.style);
            let mut meant = meant_symbols(&token.text(g, self.style, self.from_red));
            if self.omits_separators {
                meant.retain(|s| *s != super::channel::Sym::Sep);
            }
            (token, meant)
        };
        let prior = SLIP - SlipKind::Merged.prior().ln();
        for &first in pos.legal_moves().iter() {
            let (one, mut meant) = symbols(first, pos);
            meant.push(super::channel::Sym::Gap);
            let head = meant.len();
            let mut after = *pos;
            after.play_unchecked(first);
            for &second in after.legal_moves().iter() {
                let (two, tail) = symbols(second, &after);
                meant.truncate(head);
                meant.extend(tail);
                let Some(read) = Channel::get().read_garbled(&meant, &written, limit) else {
                    continue;
                };
                let detail: Vec<String> = read.ops.iter().map(|op| op.describe()).collect();
                out.push(Candidate {
                    kind: SlipKind::Merged,
                    change: Change {
                        start: i,
                        removed: 1,
                        inserted: vec![one, two],
                    },
                    cost: prior + read.cost,
                    detail: (!detail.is_empty()).then(|| detail.join(", ")),
                });
            }
        }
    }

    /// The readings of a garbled token at `i` as no move at all (specks, a stray figure: its
    /// characters added), and with the garbled token after it as one move a space split
    /// (`7 3-54`, `75- 5`: the reader keeps two tokens where neither is a move).
    fn garbled_at(&self, i: usize, limit: f64, out: &mut Vec<Candidate>) {
        let t = self.tokens[i];
        let Some(o) = self.origin[i].filter(|_| t.garbled && !t.call) else {
            return;
        };
        let channel = Channel::get();
        let chars: Vec<char> = self.written[o].chars().collect();
        // Left out, as a stray token is: its characters and the space before it added.
        let mut stray = chars.clone();
        stray.insert(0, ' ');
        // The last token may be the result misread (`O-I`, `I-O`): no move, a weight 0.3.
        let result = |c: &char| match c {
            'O' | 'o' | 'D' => '0',
            'I' | 'l' | 'L' | '|' | 'i' | 'J' => '1',
            '—' | '–' | ':' | '=' => '-',
            c => *c,
        };
        let as_result: String = chars.iter().map(result).collect();
        // Either way the token goes: only its cost and what the report says of it differ.
        let dropped = if i + 1 == self.tokens.len()
            && matches!(as_result.as_str(), "1-0" | "0-1" | "1/2-1/2")
        {
            Some((
                SLIP - 0.3f64.ln(),
                format!("{} is the result {as_result}", self.written[o]),
            ))
        } else {
            channel
                .read(&[], &stray, limit)
                .map(|read| (SLIP + read.cost, format!("{} is no move", self.written[o])))
        };
        if let Some((cost, detail)) = dropped {
            out.push(Candidate {
                kind: SlipKind::CharAdded,
                change: Change {
                    start: i,
                    removed: 1,
                    inserted: Vec::new(),
                },
                cost,
                detail: Some(detail),
            });
        }
        if !self.tokens.get(i + 1).is_some_and(|n| n.garbled && !n.call) {
            return;
        }
        let (Some(a), Some(b)) = (
            self.spans.get(o),
            self.origin[i + 1].and_then(|p| self.spans.get(p)),
        ) else {
            return;
        };
        let Some(joined) = self.text.get(a.start as usize..b.end as usize) else {
            return;
        };
        if joined.len() > 16 {
            return;
        }
        let written: Vec<char> = joined.chars().collect();
        let pos = &self.states[i].pos;
        let g = pos.geometry();
        let algebraic = self.style == Notation::Algebraic;
        for &m in pos.legal_moves().iter() {
            let token = Token::of_move(m, pos, self.style);
            let mut meant = meant_symbols(&token.text(g, self.style, self.from_red));
            if self.omits_separators {
                meant.retain(|s| *s != super::channel::Sym::Sep);
            }
            let Some(read) = channel.read(&meant, &written, limit) else {
                continue;
            };
            let kind = SlipKind::of_edits(&read.ops, algebraic);
            out.push(Candidate {
                kind,
                change: Change {
                    start: i,
                    removed: 2,
                    inserted: vec![token],
                },
                cost: SLIP + read.cost,
                detail: Some(
                    read.ops
                        .iter()
                        .map(|op| op.describe())
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            });
        }
    }

    /// The edits that model each kind of slip at token `i`, its characters misread within
    /// `limit`.
    pub fn candidates_at(&self, i: usize, limit: f64, out: &mut Vec<Candidate>) {
        self.misreadings_at(i, limit, out);
        self.merged_at(i, limit, out);
        self.garbled_at(i, limit, out);
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
        let same =
            |j: usize| !t.garbled && !self.tokens[j].garbled && self.tokens[j].squares == t.squares;
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
            && window.iter().all(|t| !t.call && !t.garbled)
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
        // A garbled move is mended only by reading its text.
        if t.garbled {
            return;
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
            && !next.garbled
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
