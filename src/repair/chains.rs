//! The chains the decoder reads (`decode`): each a replay of legal moves and the steps that
//! read the text so far. A chain offered to a place is kept there as an [`Offer`] (the chain
//! it reads on from and its step) and made, its replay played and its step kept, only once the
//! place looks at it: most never are (decision 217).

use super::beam::{self, Keyed};
use super::cursor::Cursor;
use super::step::{Step, What};
use crate::rules::Move;
use std::collections::VecDeque;

/// A chain of readings so far: the replay after it, where its next move is read (a token, and
/// the characters of it read already), its cost and its last step.
#[derive(Clone)]
pub(super) struct Chain {
    pub cursor: Cursor,
    pub next: usize,
    pub offset: usize,
    pub cost: f64,
    pub step: Option<u32>,
}

/// A chain offered to a place, made only once it is looked at there (most are never, so their
/// replay and step are not made): the chain it reads on from (by its index in [`Chains`]) and
/// the step it takes from there, or none for that chain itself.
#[derive(Clone, Copy)]
pub(super) struct Offer {
    pub from: u32,
    pub m: Option<Move>,
    pub at: usize,
    pub what: Option<What>,
    pub cost: f64,
}

/// The chains that have read the text up to one place, the cheapest for each position.
pub(super) type Beam = beam::Beam<Offer>;

/// The chains made so far (read on from, or ranked where they were kept), each by its index,
/// and how many were offered: an offer's order, which tells chains of equal cost apart.
/// Chains no place still to read can read on from are forgotten ([`Chains::forget_before`]):
/// a page makes a hundred thousand, each with its replay, and reads on from the last few
/// hundred.
pub(super) struct Chains {
    /// The chains made and not forgotten: the chain of index `first + k` at `k`.
    made: VecDeque<Chain>,
    first: u32,
    pub offered: u32,
}

impl Chains {
    /// The chains, `start` the first.
    pub fn new(start: Chain) -> Chains {
        Chains {
            made: VecDeque::from([start]),
            first: 0,
            offered: 0,
        }
    }

    /// The chain of index `c`, not forgotten.
    pub fn get(&self, c: u32) -> &Chain {
        &self.made[(c - self.first) as usize]
    }

    /// The index the next chain made takes.
    pub fn next_index(&self) -> u32 {
        self.first + self.made.len() as u32
    }

    /// Forgets the chains of index below `c`: no offer still to be looked at reads on from
    /// them.
    pub fn forget_before(&mut self, c: u32) {
        while self.first < c && self.made.pop_front().is_some() {
            self.first += 1;
        }
    }

    /// The replay after the chain `offer`, the chain itself not made.
    pub fn cursor_of(&self, offer: &Offer) -> Cursor {
        let mut cursor = self.get(offer.from).cursor.clone();
        if let Some(m) = offer.m {
            cursor.play_legal(m);
        }
        cursor
    }

    /// Makes the chain `offer`, its step put with `steps`: its index.
    pub fn make(&mut self, offer: &Offer, steps: &mut Steps) -> u32 {
        let Some(what) = offer.what else {
            return offer.from;
        };
        let cursor = self.cursor_of(offer);
        let from = self.get(offer.from);
        let (next, offset) = match what {
            What::Read(_) | What::Noise => (offer.at + 1, 0),
            What::Part(_, rest) => (offer.at, rest),
            What::Dropped(_) | What::LeftOut(_) => (offer.at, from.offset),
        };
        steps.0.push(Step {
            parent: from.step,
            at: offer.at,
            what,
        });
        self.made.push_back(Chain {
            cursor,
            next,
            offset,
            cost: offer.cost,
            step: Some(steps.0.len() as u32 - 1),
        });
        self.next_index() - 1
    }
}

/// The steps of every chain, shared (a chain holds the index of its last step).
#[derive(Default)]
pub(super) struct Steps(pub Vec<Step>);

impl Steps {
    /// The steps of the chain ending at `last`, first to last.
    pub fn path(&self, mut last: Option<u32>) -> Vec<Step> {
        let mut out = Vec::new();
        while let Some(i) = last {
            let step = self.0[i as usize];
            out.push(step);
            last = step.parent;
        }
        out.reverse();
        out
    }
}

/// Offers the chain `from` (made, its index in `chains`) with the step `what` (the move `m`
/// played, if any) at the token `at` to `beam` (the chains of the place the step reads to),
/// costing `cost` in all, unless a chain no dearer already stands at its position or the chain
/// is out of the beam's reach.
#[allow(clippy::too_many_arguments)]
pub(super) fn offer(
    beam: &mut Beam,
    chains: &mut Chains,
    from: u32,
    m: Option<Move>,
    cost: f64,
    at: usize,
    what: What,
) {
    if beam.out_of_reach(cost) {
        return;
    }
    let mut pos = chains.get(from).cursor.pos;
    if let Some(m) = m {
        pos.play_unchecked(m);
    }
    let key = Keyed::new(pos);
    if !beam.takes(&key, cost) {
        return;
    }
    chains.offered += 1;
    let offer = Offer {
        from,
        m,
        at,
        what: Some(what),
        cost,
    };
    beam.put(key, cost, chains.offered, offer);
}

/// The `k` cheapest chains of `beam`, cheapest first, made: their indices in `chains`.
pub(super) fn cheapest(beam: &Beam, k: usize, chains: &mut Chains, steps: &mut Steps) -> Vec<u32> {
    (beam.cheapest(k).into_iter())
        .map(|offer| chains.make(offer, steps))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Rules};

    /// Chains keep their indices when those before them are forgotten: an offer names the
    /// chain it reads on from by index.
    #[test]
    fn a_chain_keeps_its_index_when_those_before_it_are_forgotten() {
        let start = Chain {
            cursor: Cursor::new(Position::start(Rules::default())),
            next: 0,
            offset: 0,
            cost: 0.0,
            step: None,
        };
        let mut chains = Chains::new(start);
        let mut steps = Steps::default();
        let m = Position::start(Rules::default()).legal_moves()[0];
        let offer = |from, m, cost| Offer {
            from,
            m,
            at: 0,
            what: Some(What::Noise),
            cost,
        };
        let one = chains.make(&offer(0, Some(m), 1.0), &mut steps);
        let two = chains.make(&offer(0, Some(m), 2.0), &mut steps);
        chains.forget_before(one);
        assert_eq!(chains.next_index(), 3);
        assert_eq!((chains.get(one).cost, chains.get(two).cost), (1.0, 2.0));
        chains.forget_before(two);
        assert_eq!(chains.get(two).cost, 2.0);
        // Passing over text from the second: its replay, one move played.
        assert_eq!(chains.make(&offer(two, None, 3.0), &mut steps), 3);
        assert_eq!((chains.get(3).cursor.plies, chains.get(3).cost), (1, 3.0));
    }
}
