//! The edits a search tries at one written move: every kind of slip a transcriber makes there,
//! each with its cost (`-ln` of how likely it is).

use super::channel::{Channel, LENGTH_SLACK, Reading, Sym, meant_symbols};
use super::line::Line;
use super::numbers::{self, Unglued};
use super::slips::SlipKind;
use super::suggestion::{Candidate, Change, READ_FROM_LEFT_OUT, SLIP};
use super::token::{MOVE_CHARS_AT_MOST, Token, Written};
use crate::board::Color;
use crate::notation::Notation;
use crate::replay::{missed_jump_step, relaxed};
use crate::rules::hash::FastMap;
use crate::rules::{Move, Position};
use std::rc::Rc;

/// How far text the reader left out may be from a move to be read as it (as a garbled token).
const READ_LEFT_OUT: f64 = 10.0;
/// What a garbled token read only by the moves after it costs beyond a slip: more than any
/// reading of its characters (those stop at 10).
const UNREADABLE: f64 = 11.0;
/// A token of signs alone (`_.`, `-`): each sign costs as a speck at a garbled token's edge.
const SPECK: f64 = 1.4;

/// The cheapest reading of `meant` as one of `texts` (a token as written, or with a move number
/// taken off it), within `limit` all told: the reading and the text it read.
pub(super) fn read_best<'a>(
    meant: &[Sym],
    texts: &'a [Unglued],
    garbled: bool,
    limit: f64,
) -> Option<(Reading, &'a Unglued)> {
    let channel = Channel::get();
    texts
        .iter()
        .filter_map(|u| {
            let left = limit - u.cost;
            let read = match garbled {
                true => channel.read_garbled(meant, &u.text, left),
                false => channel.read(meant, &u.text, left),
            }?;
            Some((read, u))
        })
        .min_by(|a, b| (a.0.cost + a.1.cost).total_cmp(&(b.0.cost + b.1.cost)))
}

/// Of the `words` the reader left out (each with its texts), the one `meant` reads from within
/// `limit` at the least `cost`, with that reading.
pub(super) fn read_from_words<'a>(
    meant: &[Sym],
    words: &'a [(String, Vec<Unglued>)],
    limit: f64,
    cost: impl Fn(&Reading, &Unglued) -> f64,
) -> Option<(&'a str, Reading, &'a Unglued)> {
    words
        .iter()
        .filter_map(|(word, texts)| {
            read_best(meant, texts, true, limit).map(|(r, u)| (word.as_str(), r, u))
        })
        .min_by(|a, b| cost(&a.1, a.2).total_cmp(&cost(&b.1, b.2)))
}

/// How a move read from a `word` the reader left out is told: the word, and the characters
/// misread in it.
pub(super) fn left_out_detail(
    word: &str,
    read: &Reading,
    unglued: &Unglued,
    algebraic: bool,
) -> String {
    let edits = describe(read, unglued);
    match edits.is_empty() {
        true => format!("read from {word}, {READ_FROM_LEFT_OUT}"),
        false => format!(
            "read from {word}, {READ_FROM_LEFT_OUT} ({}: {edits})",
            SlipKind::of_edits(&read.ops, algebraic).describe()
        ),
    }
}

/// A reading's edits in words, with the move number it took off.
pub(super) fn describe(read: &Reading, unglued: &Unglued) -> String {
    read.ops
        .iter()
        .map(|op| op.describe())
        .chain((unglued.cost > 0.0).then(|| unglued.note.clone()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The move number written before the move played in `pos` and, for Red's move, the one after
/// it.
pub(super) fn numbers_before(pos: &Position) -> (u32, Option<u32>) {
    let n = pos.move_number();
    (n, (pos.side_to_move() == Color::Red).then_some(n + 1))
}

/// [`numbers_before`] as a list: the numbers a word standing for a move number may be there.
pub(super) fn numbers_due(pos: &Position) -> Vec<u32> {
    let (before, after) = numbers_before(pos);
    [Some(before), after].into_iter().flatten().collect()
}

impl Line {
    /// The text of `token` as meant, character by character (without its separator where the
    /// record omits them): formatted once per token for the line and its copies, as each
    /// reading of a break reads every legal move's.
    pub(super) fn meant(&self, token: Token) -> Rc<[Sym]> {
        if let Some(meant) = self.meant.borrow().get(&token) {
            return meant.clone();
        }
        let g = self.states[0].pos.geometry();
        let mut meant = meant_symbols(&token.text(g, self.style, self.from_red));
        if self.omits_separators {
            meant.retain(|s| *s != Sym::Sep);
        }
        let meant: Rc<[Sym]> = meant.into();
        self.meant.borrow_mut().insert(token, meant.clone());
        meant
    }

    /// The legal move `m` in `pos` as the record writes it at the place `(i, offset)` (a token,
    /// and the characters of it read already), to be read against the text there: as the move
    /// written at `i` writes its ([`Token::of_move_like`]), in the record's notation within a
    /// token's text.
    pub(super) fn token_at(&self, (i, offset): (usize, usize), m: Move, pos: &Position) -> Token {
        match self.tokens.get(i).filter(|_| offset == 0) {
            Some(written) => Token::of_move_like(m, pos, self.style, written),
            None => Token::of_move(m, pos, self.style),
        }
    }

    /// The texts the written move at token `i` may be read as: as written, and for a garbled
    /// one with the move number due before or after it taken off (`01-9224.`).
    fn texts_at(&self, i: usize) -> Vec<Unglued> {
        self.texts_in(i, &self.states[i].pos)
    }

    /// [`texts_at`](Self::texts_at) for the token at `i` played in `pos`.
    pub(super) fn texts_in(&self, i: usize, pos: &Position) -> Vec<Unglued> {
        let Some(written) = self.origin[i].and_then(|o| self.written.get(o)) else {
            return Vec::new();
        };
        let chars: Vec<char> = written.chars().collect();
        let mut out = match self.tokens[i].garbled {
            true => {
                let (before, after) = numbers_before(pos);
                numbers::unglued(&chars, before, after, pos.geometry())
            }
            false => Vec::new(),
        };
        if self.tokens[i].garbled {
            out.extend(self.result_off(i, &chars));
        }
        // The move number due glued before the move, taken by the reader for the move's first
        // square and the move's last square for a number glued after it (`103-84-95.`: 103.
        // 84-95, read as 103-84 and 95.).
        if let Some(word) = self.word_of(i).filter(|w| w.len() > chars.len()) {
            let (before, _) = numbers_before(pos);
            let head_off = numbers::unglued(&word, before, None, pos.geometry());
            let text: String = word.iter().collect();
            out.extend(
                head_off
                    .into_iter()
                    .filter(|u| u.skipped > 0)
                    .map(|u| Unglued {
                        note: format!("{}; read with the text after it, {text}", u.note),
                        ..u
                    }),
            );
        }
        out.insert(0, Unglued::as_written(chars));
        out
    }

    /// How many bytes of the text after the written move at token `i` the cheapest reading of
    /// it as `token` within `limit` takes in: the rest of its word, for a move read with the
    /// text after it (`103-84-95.` read as 84-95), else none. An edit to the text replaces that
    /// much more.
    pub(super) fn reads_on(&self, i: usize, token: Token, limit: f64) -> usize {
        let written = self.origin[i].and_then(|o| self.written.get(o));
        let (Some(written), Some(state)) = (written, self.states.get(i)) else {
            return 0;
        };
        let written = written.chars().count();
        let texts = self.texts_in(i, &state.pos);
        let meant = self.meant(token.with_call(false));
        match read_best(&meant, &texts, self.tokens[i].garbled, limit) {
            Some((_, u)) if u.skipped + u.text.len() > written => {
                let word = self.word_of(i).unwrap_or_default();
                word[written.min(word.len())..]
                    .iter()
                    .map(|c| c.len_utf8())
                    .sum()
            }
            _ => 0,
        }
    }

    /// The whole word of the text the written move at token `i` begins: up to the next blank.
    fn word_of(&self, i: usize) -> Option<Vec<char>> {
        let span = self.spans.get(self.origin[i]?)?;
        let from = self.text.get(span.start as usize..)?;
        Some(from.chars().take_while(|c| !c.is_whitespace()).collect())
    }

    /// What is left of the token at `i`, `written`, with the result glued to it taken off
    /// (`24-141-0`, and the recorded result without its dash: `94-2410`), where it is the last
    /// token that holds a digit.
    pub(super) fn result_off(&self, i: usize, written: &[char]) -> Vec<Unglued> {
        if !self.last_with_digits(i) {
            return Vec::new();
        }
        let recorded = self.recorded.map(|r| r.as_str());
        let dashless = recorded.and_then(|r| numbers::recorded_result_off(written, r));
        let mut out: Vec<Unglued> = numbers::result_off(written)
            .into_iter()
            .chain(dashless)
            .collect();
        // Misread otherwise: each text once, at the cost it was first found.
        for misread in recorded.map_or(Vec::new(), |r| numbers::misread_result_off(written, r)) {
            if out.iter().all(|u| u.text != misread.text) {
                out.push(misread);
            }
        }
        out
    }

    /// Whether the token at `i` is the last that holds a move's digits: the result may be glued
    /// to it, with specks after it (`72-82:32-41.1-0 - _ : ;`, `35-241-0 00 0`: a move in
    /// numbers has three digits at least, one lost).
    fn last_with_digits(&self, i: usize) -> bool {
        let least = match self.style {
            Notation::Algebraic => 1,
            _ => 3,
        };
        let digits = |o: &Option<usize>| {
            o.and_then(|o| self.written.get(o))
                .is_some_and(|w| w.chars().filter(|c| c.is_ascii_digit()).count() >= least)
        };
        // From the end: the last such token is most often the last token.
        self.origin
            .iter()
            .rposition(digits)
            .is_none_or(|last| last <= i)
    }

    /// What the reader left out right before the written move at token `i` that may be a move
    /// (`$343` in `85-75 $343 95. 75-85`), each with its texts: as written, and with a move
    /// number taken off.
    fn left_out_at(&self, i: usize) -> Vec<(String, Vec<Unglued>)> {
        self.left_out_in(i, &self.states[i].pos)
    }

    /// [`left_out_at`](Self::left_out_at) for the token at `i` played in `pos`; at `i` past the
    /// last token, what the reader left out after the record's last move (`4232.` of
    /// `72-82 4232. 1-0`, read as a move number).
    pub(super) fn left_out_in(&self, i: usize, pos: &Position) -> Vec<(String, Vec<Unglued>)> {
        let (before, after) = numbers_before(pos);
        let Some(words) = self.left_out_words(i, pos) else {
            return Vec::new();
        };
        let last = words.len() - 1;
        words
            .into_iter()
            .enumerate()
            .map(|(k, w)| {
                let mut texts = numbers::unglued(&w, before, after, pos.geometry());
                // The record's last word may hold its result too.
                if i == self.tokens.len() && k == last {
                    let result = self.recorded.map(|r| r.as_str());
                    texts.extend(result.and_then(|r| numbers::recorded_result_off(&w, r)));
                }
                texts.insert(0, Unglued::as_written(w.clone()));
                (w.into_iter().collect(), texts)
            })
            .collect()
    }

    /// The words of the text the reader left out before the token at `i` (past the last token:
    /// after the last move) that may be moves in `pos`, as written.
    pub(super) fn left_out_words(&self, i: usize, pos: &Position) -> Option<Vec<Vec<char>>> {
        let p = i.checked_sub(1).and_then(|h| self.origin[h])?;
        let a = self.spans.get(p)?;
        let gap_end = match self.origin.get(i) {
            Some(&Some(o)) if p + 1 == o => self.spans.get(o).map(|b| b.start as usize),
            None if p + 1 == self.written.len() => Some(self.moves_end),
            _ => None,
        }?;
        let gap = self.text.get(a.end as usize..gap_end)?;
        numbers::left_out(gap, &numbers_due(pos))
    }

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
        if self.origin[i].is_some() {
            let texts = self.texts_at(i);
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
                let token = self.token_at((i, 0), m, pos).with_call(t.call);
                let meant = self.meant(token.with_call(false));
                let Some((read, unglued)) = read_best(&meant, &texts, t.garbled, limit) else {
                    continue;
                };
                if read.ops.is_empty() && unglued.cost == 0.0 {
                    continue;
                }
                let kind = match read.ops.is_empty() {
                    true => SlipKind::CharAdded,
                    false => SlipKind::of_edits(&read.ops, algebraic),
                };
                let named = matches!(
                    kind,
                    SlipKind::DigitSwap
                        | SlipKind::NeighbourDigit
                        | SlipKind::GlyphDigit
                        | SlipKind::AlgebraicMisread
                );
                let detail = (!named || unglued.cost > 0.0).then(|| describe(&read, unglued));
                out.push(Candidate {
                    kind,
                    change: replace(token),
                    cost: SLIP + read.cost + unglued.cost,
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
        let Some(o) = self.origin[i].filter(|_| t.garbled && !t.call) else {
            return;
        };
        let read = self.merged_in(o, &self.states[i].pos, limit);
        out.extend(read.iter().cloned().map(|mut c| {
            c.change.start = i;
            c
        }));
    }

    /// The readings of the written move `o` of the record as two moves run together, played
    /// in `pos` (each change at index 0): read once for the line and its copies.
    pub(super) fn merged_in(&self, o: usize, pos: &Position, limit: f64) -> Rc<[Candidate]> {
        let key = (*pos, o, limit.to_bits());
        if let Some(known) = self.merged.borrow().get(&key) {
            return known.clone();
        }
        let read: Rc<[Candidate]> = self.read_merged(o, pos, limit).into();
        self.merged.borrow_mut().insert(key, read.clone());
        read
    }

    /// [`merged_at`](Self::merged_at) for the written move `o` of the record, read in `pos`
    /// (each change at index 0).
    fn read_merged(&self, o: usize, pos: &Position, limit: f64) -> Vec<Candidate> {
        let mut out = Vec::new();
        let Some(written) = self.written.get(o) else {
            return out;
        };
        let written: Vec<char> = written.chars().filter(|c| !c.is_whitespace()).collect();
        // Two moves are at least two squares each.
        if written.len() < 6 {
            return out;
        }
        let symbols = |token: Token| self.meant(token).to_vec();
        let prior = SLIP - SlipKind::Merged.prior().ln();
        let channel = Channel::get();
        // Every reading of two moves run together reads the first (and the gap) as some
        // beginning of the text and the second as the rest: the cheapest readings of each
        // beginning and ending, added, tell before any pair is read whether it may read within
        // the limit (most pairs do not, and reading them was most of a record's time). The
        // text is read whole and, as `read_garbled` reads it, between the specks at its edges.
        let inner = channel.within_specks(&written);
        // Nor does a text longer than two moves and the gap read as them (a line glued whole:
        // reading its beginnings and endings was most of such a record's time).
        let longest = 2 * MOVE_CHARS_AT_MOST + 1 + LENGTH_SLACK;
        let texts: Vec<(&[char], f64)> = std::iter::once((&written[..], 0.0))
            .chain(inner.map(|(r, edges)| (&written[r], edges)))
            .filter(|(text, _)| text.len() <= longest)
            .collect();
        if texts.is_empty() {
            return out;
        }
        // Each reply's text and the cheapest readings of each ending as it, by its token (the
        // same reply follows many first moves).
        let mut endings: FastMap<Token, (Vec<Sym>, Vec<Vec<f64>>)> = FastMap::default();
        let within = |starts: &[Vec<f64>], ends: &[Vec<f64>]| {
            texts
                .iter()
                .zip(starts.iter().zip(ends))
                .any(|((_, edges), (s, e))| {
                    s.iter().zip(e).any(|(s, e)| s + e + edges <= limit + 1e-9)
                })
        };
        for &first in pos.legal_moves().iter() {
            let one = Token::of_move(first, pos, self.style);
            let mut meant = symbols(one);
            meant.push(super::channel::Sym::Gap);
            let head = meant.len();
            let starts: Vec<Vec<f64>> = texts
                .iter()
                .map(|(text, _)| channel.prefix_costs(&meant, text))
                .collect();
            let mut after = *pos;
            after.play_unchecked(first);
            for &second in after.legal_moves().iter() {
                let two = Token::of_move(second, &after, self.style);
                let (tail, ends) = endings.entry(two).or_insert_with(|| {
                    let tail = symbols(two);
                    let ends = texts
                        .iter()
                        .map(|(text, _)| channel.suffix_costs(&tail, text))
                        .collect();
                    (tail, ends)
                });
                if !within(&starts, ends) {
                    continue;
                }
                meant.truncate(head);
                meant.extend_from_slice(tail);
                let Some(read) = Channel::get().read_garbled(&meant, &written, limit) else {
                    continue;
                };
                let detail: Vec<String> = read.ops.iter().map(|op| op.describe()).collect();
                out.push(Candidate {
                    kind: SlipKind::Merged,
                    change: Change {
                        start: 0,
                        removed: 1,
                        inserted: vec![one, two],
                    },
                    cost: prior + read.cost,
                    detail: (!detail.is_empty()).then(|| detail.join(", ")),
                });
            }
        }
        out
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
        // Specks after it that are no move either go with it (`- _.`): each alone would be
        // read only with the next.
        let specks = (i + 1..self.tokens.len())
            .take_while(|&j| {
                self.tokens[j].garbled
                    && self.origin[j]
                        .is_some_and(|p| !self.written[p].chars().any(char::is_alphanumeric))
            })
            .count();
        // Left out, as a stray token is: its characters and the space before it added; a token
        // of signs alone is specks, each a sign at a garbled token's edge.
        let mut stray = chars.clone();
        stray.insert(0, ' ');
        let speck_cost = |j: usize| {
            let text = self.origin[j].map_or("", |p| self.written[p].as_str());
            match text.chars().any(char::is_alphanumeric) {
                true => channel.read(&[], &stray, limit).map(|r| r.cost),
                false => Some(SPECK * text.chars().count() as f64),
            }
        };
        // The last token may be the result misread (`O-I`, `I-O`, `O1`): no move, a weight 0.3.
        let result = |c: &char| match c {
            'O' | 'o' | 'D' => '0',
            'I' | 'l' | 'L' | '|' | 'i' | 'J' => '1',
            c => *c,
        };
        let bare: String = chars
            .iter()
            .map(result)
            .filter(|c| !matches!(c, '-' | '—' | '–' | ':' | '=' | '°' | '.'))
            .collect();
        let as_result = match bare.as_str() {
            "10" => Some("1-0"),
            "01" => Some("0-1"),
            "1/21/2" => Some("1/2-1/2"),
            _ => None,
        };
        // Either way the token goes: only its cost and what the report says of it differ.
        let dropped = if let Some(as_result) = as_result.filter(|_| i + 1 == self.tokens.len()) {
            Some((
                SLIP - 0.3f64.ln(),
                format!("{} is the result {as_result}", self.written[o]),
            ))
        } else {
            let number =
                numbers::as_number(&chars, &numbers_due(&self.states[i].pos)).map(|(cost, n)| {
                    (
                        SLIP + cost,
                        format!("{} is the move number {n}.", self.written[o]),
                    )
                });
            let speck = (i..=i + specks)
                .map(speck_cost)
                .sum::<Option<f64>>()
                .map(|cost| {
                    let words: Vec<&str> = (i..=i + specks)
                        .filter_map(|j| self.origin[j].map(|p| self.written[p].as_str()))
                        .collect();
                    (SLIP + cost, format!("{} is no move", words.join(" ")))
                });
            [number, speck]
                .into_iter()
                .flatten()
                .min_by(|a, b| a.0.total_cmp(&b.0))
        };
        if let Some((cost, detail)) = dropped {
            out.push(Candidate {
                kind: SlipKind::CharAdded,
                change: Change {
                    start: i,
                    removed: 1 + specks,
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
        let algebraic = self.style == Notation::Algebraic;
        for &m in pos.legal_moves().iter() {
            let token = Token::of_move(m, pos, self.style);
            let meant = self.meant(token);
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

    /// A ply left out right before token `i`: every legal move there. Where the reader left
    /// out text there that reads as a move (`$343`), that move is read from it, and the others
    /// leave that text unexplained (decision 98).
    pub(super) fn dropped_at(&self, i: usize, out: &mut Vec<Candidate>) {
        let pos = &self.states[i].pos;
        let words = self.left_out_at(i);
        let algebraic = self.style == Notation::Algebraic;
        // A ply put in that is not read from that text leaves it unexplained: its characters
        // added, as a stray token's are, at least as dear as any reading of it.
        let unread: f64 = words
            .iter()
            .map(|(_, texts)| {
                let mut stray = texts[0].text.clone();
                stray.insert(0, ' ');
                Channel::get()
                    .read(&[], &stray, READ_LEFT_OUT)
                    .map_or(READ_LEFT_OUT, |r| r.cost)
            })
            .sum();
        for &m in pos.legal_moves().iter() {
            let token = Token::of_move(m, pos, self.style);
            let change = Change {
                start: i,
                removed: 0,
                inserted: vec![token],
            };
            let mut plain = Candidate::of_kind(SlipKind::Dropped, change.clone());
            if words.is_empty() {
                out.push(plain);
                continue;
            }
            plain.cost += unread;
            let meant = self.meant(token);
            let cost = |r: &Reading, u: &Unglued| r.cost + u.cost;
            let Some((word, read, unglued)) = read_from_words(&meant, &words, READ_LEFT_OUT, cost)
            else {
                out.push(plain);
                continue;
            };
            out.push(Candidate {
                kind: SlipKind::Dropped,
                change,
                cost: SLIP + cost(&read, unglued),
                detail: Some(left_out_detail(word, &read, unglued, algebraic)),
            });
        }
    }

    /// A garbled token at `i` that no reading of its characters mends, read as each legal move
    /// there, or as no move (`Gr:`, a move number misread past reading) (decision 99): which,
    /// only the moves after it can tell.
    pub fn unreadable_at(&self, i: usize, out: &mut Vec<Candidate>) {
        let t = self.tokens[i];
        let pos = &self.states[i].pos;
        if !t.garbled || t.call || !self.states[i].referee.accepts_moves() {
            return;
        }
        out.push(Candidate {
            kind: SlipKind::CharAdded,
            change: Change {
                start: i,
                removed: 1,
                inserted: Vec::new(),
            },
            cost: SLIP + UNREADABLE,
            detail: Some("unreadable, no move by the moves after it".into()),
        });
        for &m in pos.legal_moves().iter() {
            out.push(Candidate {
                kind: SlipKind::Garbled,
                change: Change {
                    start: i,
                    removed: 1,
                    inserted: vec![Token::of_move(m, pos, self.style)],
                },
                cost: SLIP + UNREADABLE,
                detail: Some("unreadable, read by the moves after it".into()),
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
            self.dropped_at(i, out);
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
