//! The chains the decoder reads (`decode`): each a replay of legal moves and the steps that
//! read the text so far. A chain offered to a place is kept there as an [`Offer`] (the chain
//! it reads on from and its step) and made, its replay played and its step kept, only once the
//! place looks at it: most never are (decision 217).

use super::beam::{self, Keyed};
use super::cursor::Cursor;
use super::step::{Step, What};
use crate::rules::Move;

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

/// The chains made so far (read on from, or ranked where they were kept), and how many were
/// offered: an offer's order, which tells chains of equal cost apart.
#[derive(Default)]
pub(super) struct Chains {
    pub made: Vec<Chain>,
    pub offered: u32,
}

impl Chains {
    /// The replay after the chain `offer`, the chain itself not made.
    pub fn cursor_of(&self, offer: &Offer) -> Cursor {
        let mut cursor = self.made[offer.from as usize].cursor.clone();
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
        let from = &self.made[offer.from as usize];
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
        self.made.push(Chain {
            cursor,
            next,
            offset,
            cost: offer.cost,
            step: Some(steps.0.len() as u32 - 1),
        });
        self.made.len() as u32 - 1
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
    let mut pos = chains.made[from as usize].cursor.pos;
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
