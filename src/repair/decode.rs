//! The whole line read at once, for a page where most moves are misread (decision 159).
//!
//! The search of `trials` reads one break at a time and ranks its readings first by how far the
//! record then replays: right for a transcription with a slip every few dozen moves, and lost
//! on a page OCR read badly, where the next break is never more than a move or two away and a
//! wrong reading replays as far as the right one. The decoder reads the whole line as a chain
//! of legal moves, each read against the written token it stands for by the character model
//! (`channel`), and keeps at every place of the text (a token, and the characters of it read
//! already) the cheapest few chains that have read up to there (a beam): the moves after a
//! garbled token decide what it was, and the chain that reads the whole page cheapest wins.
//!
//! A chain may also read the beginning of a token as one move and go on in the same token (moves
//! run together, `81-7113.` or `24:45°35-24`), put in a ply the page does not show (or read it
//! from text the reader left out), or pass over a token that is no move; each costs what the
//! slip is likely to cost.

use super::beam::{Cost, Keyed};
use super::candidates::{numbers_before, numbers_due, read_best, read_from_words};
use super::chains::{Beam, Chain, Chains, Offer, Steps, cheapest, offer};
use super::channel::{Channel, Sym};
use super::cursor::Cursor;
use super::line::{Line, MarginTag};
use super::numbers::{self, Unglued};
use super::search::Analysis;
use super::step::{
    BACKWARD, DROPPED, LEFT_OUT, MERGED, MISREAD, NOISE, READ_LIMIT, Step, UNREADABLE, What,
    misread, misread_of,
};
use super::suggestion::MarginCount;
use super::token::Token;
use crate::notation::Game;
use crate::replay::{ReplayOptions, result_of};
use crate::rules::hash::FastMap;
use crate::rules::{Move, Position};
use std::collections::{BTreeMap, BinaryHeap};

/// Chains kept at each place of the text at most: a wider beam keeps a line whose first
/// readings cost more for longer. On a page OCR read badly the source's line is most often
/// lost where hundreds of chains cost within a few points of the best (every legal move reads
/// a garbled token about as badly): of the 576 dev pages at the middle level, 256 restored 279,
/// 768 restored 280, 1,024 restored 289, with [`LOOKED_AT`] 2, in a fifth to a third more time
/// than 256 took with 32 (decisions 220, 225).
const BEAM: usize = 1024;
/// Chains kept at each place at the least, however dear the page reads, while the line has
/// offered no more than [`SPENT`] in all.
const NARROWEST_BEAM: usize = 32;
/// Chains kept at each place at the least once it has: a line of thousands of places (a record
/// of 1,092 plies written without a blank, each character a place) is read on with few
/// (decision 223).
const SPENT_BEAM: usize = 8;
/// Chains offered to places over a whole line, at most, as the line's tokens are read: a page
/// whose chains offer more than their share so far is read on with a narrower beam, as wide
/// again once they offer less, so that no page takes much more than half a second (each offer
/// takes some half a microsecond; a medium page at [`BEAM`] offers about a million, one of 700
/// plies three million).
const OFFERS: usize = 1_250_000;
/// Chains offered over a whole line past which it is read on with [`SPENT_BEAM`] at the least:
/// no page of the dev sets offers so many (the page of 728 plies, 1.6 million).
const SPENT: usize = 2 * OFFERS;
/// A chain dearer than the best of its place by more than this is dropped: such chains spend
/// the offers budget that keeps the beam wide where the page is hard (decision 224; 30 before,
/// and 80 or 100 restored no more).
const WIDTH: f64 = 12.0;
/// What is left of a token after the moves read in it has at least this many characters for a
/// further move to be read in it (`1-2` is the shortest a misread move leaves).
const LEFT_FOR_A_MOVE: usize = 3;
/// A token passed over as no move costs [`NOISE`] where it has at most this many letters and
/// digits: one with more stands where a move
/// stands and is as long, and is more likely a move misread past reading (what passing over it
/// costs then is what reading it as any move costs).
const NOISE_CHARS: usize = 2;
/// Letters and digits a move's worth of text has: text read past its characters costs an
/// unreadable move for each such run (decision 188).
const MOVE_CHARS: usize = 6;
/// A token read as the move number due there, not as a move (`21` for `21.`, its dot lost),
/// beside what reading its characters as the number costs.
const NUMBER_READ: f64 = 1.0;
/// A token read as a move of another number or side than the number written before it says.
const OTHER_NUMBER: f64 = 5.0;
/// A chain whose game ends otherwise than recorded, or not at all.
const WRONG_RESULT: f64 = 30.0;
/// A chain whose game ends with the recorded result, but by another margin than the Margin tag
/// says, counted (decision 177): a near tie at the end of a page is decided by the tag, as the
/// search decides one, rather than left to a digit's cost.
pub(super) const OTHER_MARGIN: f64 = 10.0;
/// Margins counted at most for a line read whole: each count may search many positions, and
/// all draw on the line's allowance (decision 201). Not five: the cheapest chains to end are
/// often readings of one wrong line, each off the tag, the right one just behind them
/// (decision 205).
pub(super) const MARGIN_COUNTS: usize = 20;
/// The positions one such count may store (of the search's 100,000): a page read whole may
/// count many, and bounds that leave the tag out decide as an exact count does (a margin of 34
/// bounded 36 to 50 in a twentieth of the time).
pub(super) const COUNT_STATES: u64 = 5_000;
/// How many of a place's cheapest chains (times `width`) are kept there and ranked by what
/// reading on costs: more than are read on, as a chain that read two moves run together, or
/// put in a move, pays at once what a chain that passed over the text pays only later, as
/// the move numbers written after disagree with its count. Ranking is the dearer half of a
/// place's work: a wider beam ranking twice its width restores more than a narrower one
/// ranking many times its own (of 576 dev pages at the middle level, 1,024 chains and 2 times
/// restored 289, 1 time fewer; 256 chains and 32 times 279; decision 225).
const LOOKED_AT: usize = 2;
/// How many of a place's cheapest chains put in a move the page does not show (a quarter of
/// the place's chains where fewer than 32 are kept).
const PUT_IN_CHAINS: usize = 8;
/// Moves read against tokens at most, for every record at most a second or so.
const READINGS: usize = 400_000;
/// Tokens of a line read whole at most. A game of 120 moves a side is some 250 tokens on a
/// page; the steps of every chain made are kept until the end (150 or so a token on a page,
/// 10,000 a token in a long word of moves run together), so a line of many thousand garbled
/// tokens (a record the reader may still take) would hold gigabytes.
const TOKENS: usize = 1_000;

/// A chain that read every token, its margin counted: its cost with ending off the Margin tag
/// weighed, its last step, and whether it ends by the tag (as [`Line::margin_verdict`]).
#[derive(Clone, Copy)]
struct Counted {
    cost: f64,
    last: Option<u32>,
    holds: Option<bool>,
}

/// The cheapest chain that reads every token (see [`Line::cheapest_ending`]).
struct Ending {
    /// What it costs, ending off the Margin tag weighed.
    cost: f64,
    path: Vec<Step>,
    /// Whether it ends by the tag's margin (`None`: its count was left undecided).
    holds: Option<bool>,
    /// Where a dearer chain is taken as it ends by the tag: the cheapest that ends off it, its
    /// cost and steps.
    cheapest_off_tag: Option<(f64, Vec<Step>)>,
}

/// A place's beam: of its chains at most the cheapest [`BEAM`] times [`LOOKED_AT`] are ranked.
fn new_beam() -> Beam {
    Beam::new(BEAM * LOOKED_AT)
}

/// Beams of places read already, emptied for the places to come: a beam's room (thousands of
/// chains) is taken once, not for every place (the page faults of taking it afresh were a
/// sixth of a medium page's time).
#[derive(Default)]
struct Spare(Vec<Beam>);

impl Spare {
    fn take(&mut self) -> Beam {
        self.0.pop().unwrap_or_else(new_beam)
    }

    fn give(&mut self, mut beam: Beam) {
        beam.clear();
        self.0.push(beam);
    }
}

/// How a move reads against what is left of a token: all of it, and (for a garbled token) a
/// beginning of it, with where the rest starts.
#[derive(Clone, Copy)]
struct Reading {
    whole: f64,
    part: Option<(usize, f64)>,
}

/// The readings of moves against one place of the text (a token, from a character on), shared
/// by the chains there.
struct Readings {
    i: usize,
    offset: usize,
    /// By the ply (which fixes the move number a number glued to the token is read as) and the
    /// move.
    read: FastMap<u64, Reading>,
    /// By the ply, the texts the place may be read as and what reading it past its characters
    /// costs (counted once: the text may be thousands of characters long).
    texts: FastMap<u32, (Vec<Unglued>, f64)>,
    /// What passing over the place costs, by the ply (which fixes the move numbers due).
    passed: FastMap<u32, f64>,
    /// Moves read so far (against every place).
    count: usize,
}

/// A game's main line read whole at once (see the module's doc); `None` as [`Line::decode`].
pub(crate) fn decode(game: &Game, opts: &ReplayOptions) -> Option<Analysis> {
    Line::new(game, opts)?.decode()
}

/// The game read whole at once where that reads its page for clearly less than `mended`, the
/// game as the search mended it (see [`Line::decode_better_than`]).
pub(crate) fn decode_better(game: &Game, mended: &Game, opts: &ReplayOptions) -> Option<Analysis> {
    let (moves, _) = main_line_moves(mended, opts)?;
    Line::new(game, opts)?.decode_better_than(&moves)
}

/// What the page read whole costs as the decoder reads it, beside the page read as a known line
/// (by the decoder's own costs). Where `known` costs less than `chosen`, the search lost the
/// known line, not the model: it would have read the page so.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadingCosts {
    /// The cheapest line the decoder found.
    pub chosen: f64,
    /// The page read as the known line's moves.
    pub known: f64,
}

/// The cost of the page `game` read whole at once as the decoder reads it, and read as the main
/// line of `known` (the game's source): a measure of where the decoder's search, not its model
/// of slips, loses a page. `None` where the page is not read whole (a variation, a "Salta!"
/// call, numbered from Red's side, too long) or `known`'s main line does not replay.
pub fn reading_costs(game: &Game, known: &Game, opts: &ReplayOptions) -> Option<ReadingCosts> {
    let line = Line::new(game, opts)?;
    let (chosen, _) = line.read_settled()?;
    let (moves, whole) = main_line_moves(known, opts)?;
    if !whole {
        return None;
    }
    let known = line.read_whole(Some(&moves))?.cost;
    Some(ReadingCosts { chosen, known })
}

/// The moves of `game`'s main line, by ply, as far as it replays, and whether that is to its end.
fn main_line_moves(game: &Game, opts: &ReplayOptions) -> Option<(Vec<Move>, bool)> {
    let mut line = Line::new(game, opts)?;
    line.replay_to(line.tokens.len());
    let whole = line.states.len() > line.tokens.len();
    let moves = line
        .tokens
        .iter()
        .zip(&line.states)
        .map(|(t, c)| t.resolve(&c.pos))
        .collect::<Option<Vec<Move>>>()?;
    Some((moves, whole))
}

impl Line {
    /// The whole line read at once (see the module's doc): its breaks, each a token the
    /// cheapest chain reads otherwise than written, with that reading; `None` where no chain
    /// reads the line to its end within the effort allowed, or the line holds a "Salta!" call
    /// (a call's correction is no legal move: the decoder reads legal moves only).
    pub fn decode(&self) -> Option<Analysis> {
        let (_, path) = self.read_settled()?;
        self.breaks_of(&path)
    }

    /// The decoded line where it reads the page for less than the moves `search` (the line as
    /// the search mended it, each move by its ply) by more than one misread move: the search
    /// ranks a break's readings by how far the record then replays, and on a page read by OCR a
    /// wrong reading may replay as far as the right one.
    pub fn decode_better_than(&self, search: &[Move]) -> Option<Analysis> {
        let (own, path) = self.read_settled()?;
        let theirs = self.read_whole(Some(search))?.cost;
        (own + MISREAD < theirs)
            .then(|| self.breaks_of(&path))
            .flatten()
    }

    /// The cost and steps of the cheapest chain that reads every token, where it ends off the
    /// Margin tag settled by the tag (`settle`, decision 182).
    fn read_settled(&self) -> Option<(f64, Vec<Step>)> {
        let ending = self.read_whole(None)?;
        let (cost, path) = (ending.cost, ending.path);
        let Some(tag) = self.margin else {
            return Some((cost, path));
        };
        // A count its few positions leave open is not made again: such a line most often ends
        // by the tag's margin, and a count in full may take a fifth of a second.
        let settled = match ending.holds {
            Some(false) => self.settled_by_margin(tag, cost, &path),
            _ => None,
        };
        // A dearer chain taken as it ends by the tag, cheaper ones ending off it: the cheapest
        // of those, one move or two read otherwise, may read for less (decision 208).
        let resettled = ending
            .cheapest_off_tag
            .and_then(|(c, p)| self.settled_by_margin(tag, c, &p));
        let best = [settled, resettled]
            .into_iter()
            .flatten()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .filter(|s| s.0 < cost);
        Some(best.unwrap_or((cost, path)))
    }

    /// The steps of the cheapest chain that reads every token, its cost, and whether it ends by
    /// the margin the Margin tag says (as [`Line::margin_verdict`]: `None` where its count was
    /// left undecided). Chains are compared where they have read the same text (a token, and
    /// the characters of it read already): each place in turn, its cheapest chains kept, each
    /// read on to the places after it.
    /// `forced`: only these moves, by ply (the cost of reading the page as a given line).
    fn read_whole(&self, forced: Option<&[Move]>) -> Option<Ending> {
        if self.variation
            || self.from_red
            || self.tokens.len() > TOKENS
            || self.tokens.iter().any(|t| t.call)
        {
            return None;
        }
        let allowed = |ply: u32, m: Move| forced.is_none_or(|f| f.get(ply as usize) == Some(&m));
        let n = self.tokens.len();
        let mut steps = Steps::default();
        let start = Chain {
            cursor: self.states[0].clone(),
            next: 0,
            offset: 0,
            cost: 0.0,
            step: None,
        };
        let mut places: BTreeMap<(usize, usize), Beam> = BTreeMap::new();
        let key = Keyed::new(start.cursor.pos);
        let mut chains = Chains::new(start);
        let itself = Offer {
            from: 0,
            m: None,
            at: 0,
            what: None,
            cost: 0.0,
        };
        let mut first = new_beam();
        first.put(key, 0.0, 0, itself);
        places.insert((0, 0), first);
        // The chains that ended, each with its cost and last step: the cheapest (within what
        // the Margin tag may add) has its margin counted at the end.
        let mut ended: Vec<(f64, Option<u32>)> = Vec::new();
        let mut least_ended = f64::INFINITY;
        let reach = match self.margin {
            Some(_) => OTHER_MARGIN,
            None => 0.0,
        };
        let mut readings = Readings {
            i: 0,
            offset: 0,
            read: FastMap::default(),
            texts: FastMap::default(),
            passed: FastMap::default(),
            count: 0,
        };
        let mut spare = Spare::default();
        // The chains kept at each place: [`BEAM`], narrower while the line offers more than
        // its share of [`OFFERS`].
        let mut width = BEAM;
        // The token of the last place read, and the first chain made at one of its places.
        let (mut token, mut made_at_token) = (0, 0);
        while let Some(((i, offset), mut beam)) = places.pop_first() {
            if i != token {
                // A chain offers to places of its own token and the next: the chains made
                // before the last token's places are read on from no more.
                chains.forget_before(made_at_token);
                (token, made_at_token) = (i, chains.next_index());
            }
            readings.i = i;
            readings.offset = offset;
            readings.read.clear();
            readings.texts.clear();
            readings.passed.clear();
            let finished = least_ended + reach;
            let mut kept = self.kept(
                &mut beam,
                &mut spare,
                &mut chains,
                &mut steps,
                &mut readings,
                width,
                finished,
                &allowed,
            );
            spare.give(beam);
            // A chain at the end of the text, or of the game, is finished.
            kept.retain(|&c| {
                let chain = chains.get(c);
                let over = i == n || !chain.cursor.referee.accepts_moves();
                if !over {
                    return true;
                }
                let cost = chain.cost + self.ending_cost(chain, &steps);
                if cost < least_ended + reach {
                    least_ended = least_ended.min(cost);
                    ended.push((cost, chain.step));
                }
                false
            });
            for c in kept {
                let chain = chains.get(c);
                let (pos, cost, plies) = (chain.cursor.pos, chain.cost, chain.cursor.plies);
                let cursor = chain.cursor.clone();
                if self.may_be_noise(i, offset) {
                    let cost = cost + self.passing_cost(&mut readings, &cursor);
                    let beam = places.entry((i + 1, 0)).or_insert_with(|| spare.take());
                    offer(beam, &mut chains, c, None, cost, i, What::Noise);
                }
                let numbered = self.numbered_cost(i, offset, &pos);
                for &m in pos.legal_moves().iter() {
                    if !allowed(plies, m) {
                        continue;
                    }
                    let (token, reading) = self.reading(&mut readings, &cursor, m);
                    if let Some((rest, part)) = reading.part {
                        let cost = cost + part + numbered;
                        let beam = places.entry((i, rest)).or_insert_with(|| spare.take());
                        let what = What::Part(token, rest);
                        offer(beam, &mut chains, c, Some(m), cost, i, what);
                    }
                    let cost = cost + reading.whole + numbered;
                    let beam = places.entry((i + 1, 0)).or_insert_with(|| spare.take());
                    offer(beam, &mut chains, c, Some(m), cost, i, What::Read(token));
                }
            }
            if readings.count > READINGS {
                return None;
            }
            let share = OFFERS * (i + 1) / n.max(1);
            width = next_width(width, chains.offered as usize, share);
        }
        let (best, off_tag) = self.cheapest_ending(ended, &steps)?;
        Some(Ending {
            cost: best.cost,
            path: steps.path(best.last),
            holds: best.holds,
            cheapest_off_tag: off_tag.map(|c| (c.cost, steps.path(c.last))),
        })
    }

    /// Of the chains that `ended` (each its cost and last step), the cheapest once the Margin
    /// tag is weighed, and the tag's verdict on it: the margins of the cheapest
    /// [`MARGIN_COUNTS`] are counted, each dearer by [`OTHER_MARGIN`] where it is not the tag's.
    /// A chain not counted is never taken: where every one counted ends otherwise than the tag
    /// says, a dearer one that was not counted would win by not being looked at.
    /// With it, where it is not the cheapest chain to end: the cheapest, which ends off the tag
    /// (its cost with that weighed, and its last step).
    fn cheapest_ending(
        &self,
        mut ended: Vec<(f64, Option<u32>)>,
        steps: &Steps,
    ) -> Option<(Counted, Option<Counted>)> {
        // Stable: of equal costs, the chain that ended first.
        ended.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut best: Option<Counted> = None;
        let mut cheapest = None;
        for (cost, last) in ended.into_iter().take(MARGIN_COUNTS) {
            if best.is_some_and(|b| cost >= b.cost) {
                break;
            }
            let moves = || steps.path(last).into_iter().filter_map(|s| s.what.played());
            let holds = match self.margin {
                Some(tag) => self.margin_verdict(tag, moves(), COUNT_STATES),
                None => Some(true),
            };
            let off_tag = if holds == Some(false) {
                OTHER_MARGIN
            } else {
                0.0
            };
            let counted = Counted {
                cost: cost + off_tag,
                last,
                holds,
            };
            cheapest.get_or_insert(counted);
            if best.is_none_or(|b| counted.cost < b.cost) {
                best = Some(counted);
            }
        }
        let off_tag =
            cheapest.filter(|c| c.holds == Some(false) && best.is_some_and(|b| b.last != c.last));
        best.map(|b| (b, off_tag))
    }

    /// Whether the line of `moves` ends by the margin the Margin tag says, its margin counted
    /// storing at most `states` positions: `Some(false)` only where it ends with the recorded
    /// result and its margin is another, `Some(true)` where it is the tag's or the line ends
    /// otherwise, `None` where the count's bounds leave it open.
    pub(super) fn margin_verdict(
        &self,
        tag: MarginTag,
        moves: impl Iterator<Item = Token>,
        states: u64,
    ) -> Option<bool> {
        let budget = self.count_budget(&tag, states)?;
        let mut cursor = self.states[0].clone();
        cursor.referee = cursor.referee.counting_margins(Some(budget));
        for token in moves {
            if !cursor.advance(&token, self.lenient) {
                return Some(true);
            }
        }
        let Some(outcome) = cursor.referee.outcome_at_end_of_record() else {
            return Some(true);
        };
        if Some(result_of(&outcome)) != self.recorded {
            return Some(true);
        }
        let count = |counted| MarginCount {
            counted,
            recorded: tag.recorded,
        };
        match outcome.margin {
            Some(m) => count(m).agrees(),
            None => Some(true),
        }
    }

    /// The chains of one place worth reading on: with moves the page does not show put in
    /// before the rest of the text (by the cheapest chains, two at most in a row), the
    /// cheapest `width` within [`WIDTH`] of the best, none as dear as `finished` (what a
    /// chain already finished costs at most with its margin weighed: costs only grow along a
    /// chain).
    /// Their indices in `chains`, each made.
    #[allow(clippy::too_many_arguments)]
    fn kept(
        &self,
        beam: &mut Beam,
        spare: &mut Spare,
        chains: &mut Chains,
        steps: &mut Steps,
        readings: &mut Readings,
        width: usize,
        finished: f64,
        allowed: &impl Fn(u32, Move) -> bool,
    ) -> Vec<u32> {
        let putting_in_at_most = PUT_IN_CHAINS.min(width / 4);
        let mut putting_in = cheapest(beam, putting_in_at_most, chains, steps);
        for round in 0..2 {
            // Merged into the place's beam below: as far reaching.
            let mut put_in = spare.take();
            for &c in &putting_in {
                let chain = chains.get(c);
                let (cost, plies, next) = (chain.cost, chain.cursor.plies, chain.next);
                if !chain.cursor.referee.accepts_moves() {
                    continue;
                }
                // After the last token only text the reader left out is read: a move put in
                // there could be any.
                let at_end = chain.next == self.tokens.len();
                let pos = chain.cursor.pos;
                // Text the reader left out before the token is read once, by the chains that
                // reached it.
                let words = match round == 0 && chain.offset == 0 {
                    true => self.left_out_in(chain.next, &pos),
                    false => Vec::new(),
                };
                for &m in pos.legal_moves().iter() {
                    if !allowed(plies, m) {
                        continue;
                    }
                    let token = Token::of_move(m, &pos, self.style);
                    if let Some(read) = self.read_left_out(token, &words) {
                        let what = What::LeftOut(token);
                        offer(&mut put_in, chains, c, Some(m), cost + read, next, what);
                    }
                    if at_end {
                        continue;
                    }
                    let what = What::Dropped(token);
                    offer(&mut put_in, chains, c, Some(m), cost + DROPPED, next, what);
                }
            }
            putting_in = cheapest(&put_in, putting_in_at_most, chains, steps);
            for (key, cost, order, &offer) in put_in.iter() {
                if beam.takes(&key, cost) {
                    beam.put(key, cost, order, offer);
                }
            }
            spare.give(put_in);
        }
        // Chains are ranked by their cost and what the text here costs them to read on: of
        // chains that read a garbled token alike (each legal move, past reading), those whose
        // position the next move reads well come first.
        // Ranked by reference, in the order of their cost (of equal rank, the cheaper first).
        // Reading on costs nothing less than nothing, so once a chain costs as much as the
        // `width` best ranked so far, neither it nor any after it is kept: not read on.
        // Each with its rank, its place among the candidates, and its index once made.
        let mut ranked: Vec<(f64, usize, &Offer, Option<u32>)> = Vec::new();
        let mut best_ranks: BinaryHeap<(Cost, usize)> = BinaryHeap::new();
        let candidates = beam.cheapest(width * LOOKED_AT);
        let candidates = candidates.into_iter().filter(|c| c.cost < finished);
        for (k, offer) in candidates.enumerate() {
            let cost = offer.cost;
            if best_ranks.len() == width && best_ranks.peek().is_some_and(|r| cost >= r.0.0) {
                break;
            }
            // At the end of the text every chain ends here, and what is left is what ending
            // costs (of the chain made, its steps read).
            let (rest, made) = match readings.i == self.tokens.len() {
                true => {
                    let c = chains.make(offer, steps);
                    (self.ending_cost(chains.get(c), steps), Some(c))
                }
                false => (self.read_on(readings, &chains.cursor_of(offer)), None),
            };
            let rank = cost + rest;
            best_ranks.push((Cost(rank), k));
            if best_ranks.len() > width {
                best_ranks.pop();
            }
            ranked.push((rank, k, offer, made));
        }
        type Ranked<'o> = (f64, usize, &'o Offer, Option<u32>);
        let by_rank = |a: &Ranked, b: &Ranked| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if ranked.len() > width {
            ranked.select_nth_unstable_by(width - 1, by_rank);
            ranked.truncate(width);
        }
        ranked.sort_unstable_by(by_rank);
        let best = ranked.first().map_or(0.0, |c| c.0);
        ranked
            .into_iter()
            .filter(|c| c.0 <= best + WIDTH)
            .map(|(_, _, offer, made)| made.unwrap_or_else(|| chains.make(offer, steps)))
            .collect()
    }

    /// The least a chain whose replay is `cursor` pays to read on from the place of `readings`
    /// by one step: the cheapest reading of a legal move there, or passing over the text, or a
    /// move put in.
    fn read_on(&self, readings: &mut Readings, cursor: &Cursor) -> f64 {
        let (i, offset) = (readings.i, readings.offset);
        if !cursor.referee.accepts_moves() {
            return 0.0;
        }
        let pos = cursor.pos;
        let numbered = self.numbered_cost(i, offset, &pos);
        // Where the move written is legal, it reads as itself for nothing (`read_move`), and
        // nothing reads on for less: the legal moves need not be made and read (a thirtieth of
        // a medium page's time).
        if numbered == 0.0 && self.written_is_legal(readings, cursor) {
            return 0.0;
        }
        let mut least = DROPPED;
        if self.may_be_noise(i, offset) {
            least = least.min(self.passing_cost(readings, cursor));
        }
        for &m in pos.legal_moves().iter() {
            let (_, reading) = self.reading(readings, cursor, m);
            let part = reading.part.map_or(f64::INFINITY, |(_, c)| c);
            least = least.min(numbered + reading.whole.min(part));
        }
        least
    }

    /// Whether the token at the place of `readings`, whole, names a legal move after `cursor`.
    fn written_is_legal(&self, readings: &Readings, cursor: &Cursor) -> bool {
        let token = self.tokens.get(readings.i).filter(|t| t.squares.is_some());
        readings.offset == 0
            && token
                .and_then(|t| t.resolve(&cursor.pos))
                .is_some_and(|m| cursor.pos.find_legal(m.from, m.to).is_some())
    }

    /// The legal move `m` after `cursor` as the record writes it, and how it reads against the
    /// place of `readings` (read once for every chain there at one ply).
    fn reading(&self, readings: &mut Readings, cursor: &Cursor, m: Move) -> (Token, Reading) {
        let pos = &cursor.pos;
        let token = self.token_at((readings.i, readings.offset), m, pos);
        let key = reading_key(cursor.plies, token);
        if let Some(&known) = readings.read.get(&key) {
            return (token, known);
        }
        readings.count += 1;
        let (i, offset) = (readings.i, readings.offset);
        let (texts, past) = self.texts_of(readings, cursor);
        let reading = self.read_move((i, offset), m, token, pos, texts, past);
        readings.read.insert(key, reading);
        (token, reading)
    }

    /// What passing over the place of `readings` after `cursor` costs (see
    /// [`Line::noise_cost`]; worked out once for every chain there at one ply).
    fn passing_cost(&self, readings: &mut Readings, cursor: &Cursor) -> f64 {
        if let Some(&cost) = readings.passed.get(&cursor.plies) {
            return cost;
        }
        let (i, offset) = (readings.i, readings.offset);
        let (texts, _) = self.texts_of(readings, cursor);
        let (cost, _) = self.noise_cost(i, offset, texts, &cursor.pos);
        readings.passed.insert(cursor.plies, cost);
        cost
    }

    /// The texts the place of `readings` may be read as after `cursor`, and what reading it
    /// past its characters costs (worked out once for every chain there at one ply).
    fn texts_of<'r>(&self, readings: &'r mut Readings, cursor: &Cursor) -> (&'r [Unglued], f64) {
        let (i, offset) = (readings.i, readings.offset);
        let (texts, past) = readings.texts.entry(cursor.plies).or_insert_with(|| {
            let texts = self.texts_from(i, offset, &cursor.pos);
            let past = past_reading(&texts);
            (texts, past)
        });
        (texts, *past)
    }

    /// What reading the move after `pos` from the place `(i, offset)` costs for the move number
    /// written before the token there.
    fn numbered_cost(&self, i: usize, offset: usize, pos: &Position) -> f64 {
        match offset == 0 && !self.number_fits(i, pos) {
            true => OTHER_NUMBER,
            false => 0.0,
        }
    }

    /// What reading the move `token` from one of the `words` the reader left out costs, if it
    /// reads within the limit.
    fn read_left_out(&self, token: Token, words: &[(String, Vec<Unglued>)]) -> Option<f64> {
        if words.is_empty() {
            return None;
        }
        read_from_words(&self.meant(token), words, READ_LIMIT, misread_of)
            .map(|(_, read, unglued)| LEFT_OUT + misread_of(&read, unglued))
    }

    /// Whether the token at `i` from its character `offset` on may be passed over as no move:
    /// what is left of a token after a move read in it, a garbled one, or a pass (`--`, a
    /// dash OCR made of a speck or a line's edge).
    fn may_be_noise(&self, i: usize, offset: usize) -> bool {
        let token = self.tokens[i];
        offset > 0 || token.garbled || token.squares.is_none()
    }

    /// What passing over the token at `i` from its character `offset` on as no move costs in
    /// `pos`, `texts` what is left of it may be read as; and the move number it is read as,
    /// where a whole token reads as one due there for less (`21` for `21.`).
    pub(super) fn noise_cost(
        &self,
        i: usize,
        offset: usize,
        texts: &[Unglued],
        pos: &Position,
    ) -> (f64, Option<u32>) {
        let Some(written) = self.origin[i].and_then(|o| self.written.get(o)) else {
            return (NOISE, None);
        };
        let chars = written
            .chars()
            .skip(offset)
            .filter(|c| c.is_alphanumeric())
            .count();
        let noise = match chars > NOISE_CHARS {
            true => past_reading(texts),
            false => NOISE,
        };
        if offset > 0 {
            return (noise, None);
        }
        let chars: Vec<char> = written.chars().collect();
        match numbers::as_number(&chars, &numbers_due(pos)) {
            Some((cost, n)) if NUMBER_READ + cost < noise => (NUMBER_READ + cost, Some(n)),
            _ => (noise, None),
        }
    }

    /// Whether the move number written before the token at `i`, if any, is that of the move
    /// to play in `pos`.
    fn number_fits(&self, i: usize, pos: &Position) -> bool {
        let Some(&Some((number, red))) = self.origin[i].and_then(|o| self.numbers.get(o)) else {
            return true;
        };
        number == pos.move_number() && red == (pos.side_to_move() == crate::board::Color::Red)
    }

    /// What a chain that stops here costs further: the tokens it leaves unread (and the words
    /// after the last that may be moves the reader left out), and a game that ends otherwise
    /// than recorded.
    fn ending_cost(&self, chain: &Chain, steps: &Steps) -> f64 {
        let mut unread = (self.tokens.len() - chain.next) as f64 * NOISE;
        if chain.next == self.tokens.len() {
            let words = self
                .left_out_words(chain.next, &chain.cursor.pos)
                .map_or(0, |w| w.len());
            let read = std::iter::successors(chain.step, |&k| steps.0[k as usize].parent)
                .map(|k| steps.0[k as usize])
                .take_while(|s| s.at == self.tokens.len())
                .filter(|s| matches!(s.what, What::LeftOut(_)))
                .count();
            unread += words.saturating_sub(read) as f64 * NOISE;
        }
        let ends = chain.cursor.result();
        let wrong = self.recorded.is_some_and(|r| ends != Some(r));
        unread + if wrong { WRONG_RESULT } else { 0.0 }
    }

    /// The texts what is left of the token at `i` from its character `offset` on may be read
    /// as, in `pos`: as written, with a move number glued to it taken off, and for the last
    /// token that holds a digit with the result glued to it taken off.
    pub(super) fn texts_from(&self, i: usize, offset: usize, pos: &Position) -> Vec<Unglued> {
        if offset == 0 {
            return self.texts_in(i, pos);
        }
        let Some(written) = self.origin[i].and_then(|o| self.written.get(o)) else {
            return Vec::new();
        };
        let rest: Vec<char> = written.chars().skip(offset).collect();
        let (before, after) = numbers_before(pos);
        let mut out = numbers::unglued(&rest, before, after, pos.geometry());
        // The last move of two run together, the result glued to it (`72-82.33-43,1-0`).
        out.extend(self.result_off(i, &rest));
        out.insert(0, Unglued::as_written(rest));
        out
    }

    /// How the move `token` (legal in `pos`) reads against the token at `i` from its character
    /// `offset` on, which may be read as `texts`: nothing where the token names it, else a
    /// misreading of its characters, or `past` (see [`past_reading`]) where none is within
    /// the limit.
    fn read_move(
        &self,
        (i, offset): (usize, usize),
        m: Move,
        token: Token,
        pos: &Position,
        texts: &[Unglued],
        past: f64,
    ) -> Reading {
        let written = self.tokens[i];
        let named = (offset == 0).then(|| written.resolve(pos)).flatten();
        if named.is_some_and(|w| (w.from, w.to) == (m.from, m.to)) {
            return Reading {
                whole: 0.0,
                part: None,
            };
        }
        let meant = self.meant(token);
        let garbled = written.garbled || offset > 0;
        let whole = match read_best(&meant, texts, garbled, READ_LIMIT) {
            Some((read, unglued)) => misread_of(&read, unglued),
            None => past + backward_cost(m, pos),
        };
        // Of the texts with a number taken off its head, each starts further on
        // (`16:33-43.54:33`: `33-43.54:33`).
        let part = texts
            .iter()
            .filter(|_| garbled)
            .filter_map(|t| {
                let (end, cost) = part_of(&meant, &t.text)?;
                Some((offset + t.skipped + end, MERGED + misread(cost + t.cost)))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|&(_, cost)| cost < whole);
        Reading { whole, part }
    }

    /// What reading what is left of the token at `i` from its character `offset` on, all of
    /// it, as the move `m` (legal in `pos`) costs.
    pub(super) fn whole_reading(
        &self,
        (i, offset): (usize, usize),
        m: Move,
        pos: &Position,
    ) -> f64 {
        let texts = self.texts_from(i, offset, pos);
        let token = self.token_at((i, offset), m, pos);
        let past = past_reading(&texts);
        self.read_move((i, offset), m, token, pos, &texts, past)
            .whole
    }
}

/// What the move `m` of the side to move in `pos` costs beyond its reading where it is read past
/// its characters: [`BACKWARD`] for a step away from the side's goal (decision 198).
fn backward_cost(m: Move, pos: &Position) -> f64 {
    let rank = |sq| pos.geometry().relative_rank(sq, pos.side_to_move());
    if rank(m.to) < rank(m.from) {
        BACKWARD
    } else {
        0.0
    }
}

/// What reading a text that may be read as `texts` past its characters costs (as one move by
/// the moves around it, or as none): an unreadable move for each move's worth of letters and
/// digits, so that text many moves long is not passed over for what one costs.
fn past_reading(texts: &[Unglued]) -> f64 {
    let chars = texts
        .iter()
        .map(|t| t.text.iter().filter(|c| c.is_alphanumeric()).count())
        .min()
        .unwrap_or(0);
    (MISREAD + UNREADABLE) * (chars as f64 / MOVE_CHARS as f64).max(1.0)
}

/// The chains to keep at the next place, where `width` were kept at this one and the line
/// has offered `offered` chains, its `share` of [`OFFERS`] so far: a quarter fewer while it
/// offers more, a third more again once it offers less.
fn next_width(width: usize, offered: usize, share: usize) -> usize {
    if offered <= share {
        return (width * 4 / 3).min(BEAM);
    }
    let narrowest = match offered > SPENT {
        true => SPENT_BEAM,
        false => NARROWEST_BEAM,
    };
    (width * 3 / 4).max(narrowest)
}

/// The ply and the token of a reading in one word, hashed at once rather than field by field.
fn reading_key(ply: u32, token: Token) -> u64 {
    let mut key = u64::from(token.call) | u64::from(token.garbled) << 1;
    if let Some(w) = token.squares {
        key |= 1 << 2 | (w.to.index() as u64) << 4;
        if let Some(from) = w.from {
            key |= 1 << 3 | (from.index() as u64) << 12;
        }
        if let Some(piece) = w.piece {
            key |= 1 << 20 | u64::from(piece) << 21;
        }
        key |= u64::from(w.jump) << 26;
    }
    key | u64::from(ply) << 32
}

/// The cheapest beginning of `written` that reads as `meant` followed by the space lost
/// between two moves, leaving enough for a further move: where the rest starts, and the cost.
fn part_of(meant: &[Sym], written: &[char]) -> Option<(usize, f64)> {
    if written.len() < meant.len() + LEFT_FOR_A_MOVE - 1 {
        return None;
    }
    let mut with_gap = meant.to_vec();
    with_gap.push(Sym::Gap);
    let channel = Channel::get();
    // Only beginnings that may read within the limit: a token of moves run together may be
    // thousands of characters long, and each of its places reads every legal move.
    let reach = channel.longest_reading(with_gap.len(), READ_LIMIT);
    let costs = channel.prefix_costs(&with_gap, &written[..written.len().min(reach)]);
    let last = (written.len() - LEFT_FOR_A_MOVE).min(costs.len() - 1);
    (2..=last)
        .map(|end| (end, costs[end]))
        .filter(|(_, c)| *c <= READ_LIMIT)
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The beam narrows while a line offers more than its share, never under 32 chains until
    /// the line has offered [`SPENT`], and widens again to [`BEAM`] once within its share.
    #[test]
    fn the_beam_narrows_to_its_floor_and_past_the_budget_to_the_spent_floor() {
        let narrowing = |offered| {
            std::iter::successors(Some(BEAM), |&w| Some(next_width(w, offered, 0)))
                .take(50)
                .last()
        };
        assert_eq!(narrowing(SPENT), Some(NARROWEST_BEAM));
        assert_eq!(narrowing(SPENT + 1), Some(SPENT_BEAM));
        assert_eq!(next_width(BEAM, 10, 100), BEAM);
        assert_eq!(next_width(96, 10, 100), 128);
        assert_eq!(next_width(128, 101, 100), 96);
    }

    /// A line far longer than any game (thousands of garbled tokens) is not read whole: the
    /// chains' steps would take memory without end.
    #[test]
    fn a_line_longer_than_any_game_is_not_read_whole() {
        let text = format!(
            "[Result \"*\"]\n\n1. 33-43 {}*\n",
            "x3y ".repeat(TOKENS + 1)
        );
        let game = crate::notation::parse_str(&text).remove(0).unwrap();
        let line = Line::new(&game, &ReplayOptions::default()).unwrap();
        assert!(line.tokens.len() > TOKENS);
        assert!(line.decode().is_none());
    }

    /// Of the moves a token past reading may be, a step backward costs [`BACKWARD`] more for
    /// either side; a forward step or a jump nothing more (decision 198).
    #[test]
    fn a_move_read_past_its_characters_costs_more_backward() {
        let game = crate::notation::parse_str("1. 33-43 83-73 2. 32-42 *")
            .remove(0)
            .unwrap();
        let line = Line::new(&game, &ReplayOptions::default()).unwrap();
        let mut pos = line.states[0].pos;
        for m in ["33-43", "83-73", "32-42"] {
            let (from, to) = m.split_once('-').unwrap();
            let sq = |n: &str| pos.geometry().from_number(n.parse().unwrap()).unwrap();
            let played = pos.find_legal_proving(sq(from), sq(to)).unwrap().0;
            pos.play_unchecked(played);
        }
        let number = |m: Move| {
            let g = pos.geometry();
            (g.number(m.from), g.number(m.to))
        };
        let costs: Vec<((u8, u8), f64)> = pos
            .legal_moves()
            .iter()
            .map(|&m| (number(m), backward_cost(m, &pos)))
            .collect();
        // Red to move: 73-83 goes back toward Red's side, 73-63 on toward Green's.
        assert!(costs.contains(&((73, 83), BACKWARD)), "{costs:?}");
        assert!(costs.contains(&((73, 63), 0.0)), "{costs:?}");
    }

    /// The last move taken for a move number (`4132.`, the result glued after it with its dash
    /// lost) is read from the text left out after the last token, not left out of the game
    /// (decision 171); standing alone, its dot before a blank, it is a garbled move the page
    /// read whole reads in its place (decision 190).
    #[test]
    fn text_left_out_after_the_last_move_is_read() {
        let page = include_str!("../../tests/ocr/medium-page.sgn");
        assert!(page.contains("41-320-1 0° as wee"));
        for (written, edit) in [
            ("4132.01", super::super::EditKind::Insert),
            ("4132. PO", super::super::EditKind::Replace),
        ] {
            let page = page.replace("41-320-1 0° as wee", written);
            let game = crate::notation::parse_str(&page).remove(0).unwrap();
            let analysis = decode(&game, &ReplayOptions::default()).unwrap();
            let last = &analysis.breaks.last().unwrap().suggestions[0];
            assert_eq!(last.edit(), edit, "{written}");
            assert_eq!(last.text(), "41-32");
        }
    }
}
