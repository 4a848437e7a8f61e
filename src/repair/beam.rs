//! The chains the decoder keeps at one place of the text, the cheapest for each position
//! (decision 161): a chain's position is hashed once, where the chain is offered, and the map
//! holds indices into the chains by that hash alone (positions that share a hash are chained
//! and told apart by comparing them), so neither hashing again, nor moving chains when it
//! grows, nor another copy of each position in the map.
//! Of chains of equal cost the one offered first comes first (decision 162), not the first in a
//! hash map's order, which changes with every position the map holds; so a chain that can never
//! be among those read on is not kept at all.

use crate::board::Color;
use crate::rules::Position;
use crate::rules::hash::{FastMap, MixHasher};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hash::Hasher;

/// A position with its hash.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Keyed {
    hash: u64,
    pos: Position,
}

impl Keyed {
    /// The hash is of where each side's pieces stand and of the move to play, not of which
    /// piece stands where (three words, not the whole position): positions alike but for that
    /// are told apart where they are compared.
    pub fn new(pos: Position) -> Keyed {
        let mut state = MixHasher::default();
        state.write_u64(pos.pieces(Color::Green).0);
        state.write_u64(pos.pieces(Color::Red).0);
        let red = u64::from(pos.side_to_move() == Color::Red);
        state.write_u64(u64::from(pos.move_number()) << 1 | red);
        Keyed {
            hash: state.finish(),
            pos,
        }
    }
}

/// Items by position, each with its cost and when it was offered (the caller's count); an item
/// offered where one no dearer stands is not taken, nor one with `reach` cheaper beside it:
/// only the `reach` cheapest are ever asked for.
pub(super) struct Beam<T> {
    /// The first item by the hash its [`Keyed`] carries (one word mixed, not the position
    /// hashed again).
    at: FastMap<u64, u32>,
    /// The next item with the same hash, for each ([`NONE`] for none).
    same_hash: Vec<u32>,
    keys: Vec<Keyed>,
    costs: Vec<(f64, u32)>,
    items: Vec<T>,
    reach: usize,
    /// The `reach` least costs items were first put at: each item's cost is at most the one
    /// it was first put at, so where the dearest of these is cheaper than an item, at least
    /// `reach` items are.
    least: BinaryHeap<Cost>,
}

/// No item.
const NONE: u32 = u32::MAX;

/// A beam of this many times `reach` items drops those out of reach.
const COMPACT_AT: usize = 2;

/// A cost ordered as a number.
#[derive(Clone, Copy, PartialEq)]
pub(super) struct Cost(pub f64);

impl Eq for Cost {}

impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Cost {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl<T> Beam<T> {
    /// A beam of which at most the `reach` cheapest items are asked for.
    pub fn new(reach: usize) -> Beam<T> {
        Beam {
            // Room from the start for as many chains as are read on: fewer regrowths.
            at: FastMap::with_capacity_and_hasher(reach, Default::default()),
            same_hash: Vec::with_capacity(reach),
            keys: Vec::with_capacity(reach),
            costs: Vec::with_capacity(reach),
            items: Vec::with_capacity(reach),
            reach,
            least: BinaryHeap::new(),
        }
    }

    /// Empties the beam, keeping its room (for another place, without allocating it again).
    pub fn clear(&mut self) {
        self.at.clear();
        self.same_hash.clear();
        self.keys.clear();
        self.costs.clear();
        self.items.clear();
        self.least.clear();
    }

    /// Whether an item of `cost` has at least `reach` cheaper ones beside it, and so is never
    /// asked for (costs only fall where an item is put in place of another).
    pub fn out_of_reach(&self, cost: f64) -> bool {
        self.least.len() == self.reach && self.least.peek().is_some_and(|c| c.0 < cost)
    }

    /// Whether an item of `cost` at `key` would be taken (is in reach, and cheaper than the
    /// one there).
    pub fn takes(&self, key: &Keyed, cost: f64) -> bool {
        !self.out_of_reach(cost)
            && self
                .index(key)
                .is_none_or(|i| self.costs[i as usize].0 > cost)
    }

    /// The index of the item at `key`, if any.
    fn index(&self, key: &Keyed) -> Option<u32> {
        let mut i = *self.at.get(&key.hash)?;
        while i != NONE {
            if self.keys[i as usize].pos == key.pos {
                return Some(i);
            }
            i = self.same_hash[i as usize];
        }
        None
    }

    /// Puts `item` at `key` (which [`Beam::takes`] it), in place of the one there; `order`:
    /// when it was offered.
    pub fn put(&mut self, key: Keyed, cost: f64, order: u32, item: T) {
        if let Some(i) = self.index(&key) {
            self.costs[i as usize] = (cost, order);
            self.items[i as usize] = item;
            return;
        }
        if self.least.len() < self.reach {
            self.least.push(Cost(cost));
        } else if self.least.peek().is_some_and(|c| c.0 > cost) {
            self.least.pop();
            self.least.push(Cost(cost));
        }
        let i = self.items.len() as u32;
        let first = self.at.insert(key.hash, i);
        self.same_hash.push(first.unwrap_or(NONE));
        self.keys.push(key);
        self.costs.push((cost, order));
        self.items.push(item);
        if self.reach > 0 && self.items.len() >= COMPACT_AT * self.reach {
            self.compact();
        }
    }

    /// Drops the items out of reach (`reach` others come first: cheaper, or as cheap and offered
    /// before), keeping the others in the order they were first put, and takes the least costs
    /// afresh from those kept. The least costs items were first put at bound the reach only
    /// loosely where ever cheaper items are offered (a token thousands of characters long, each
    /// place in it offering chains that read all the rest as one move to the place after it:
    /// one beam took 470,000 items). Exactly `reach` are kept: where many cost alike (a garbled
    /// token every move reads as badly), keeping all that cost no more than the last in reach
    /// kept the beam at its limit, compacted again at every item put (one page took 20 s).
    fn compact(&mut self) {
        let mut costs = self.costs.clone();
        let (_, &mut last, _) = costs.select_nth_unstable_by(self.reach - 1, by_cost);
        let keep: Vec<bool> = (self.costs.iter())
            .map(|c| by_cost(c, &last) != Ordering::Greater)
            .collect();
        let mut kept = keep.iter();
        self.items.retain(|_| kept.next() == Some(&true));
        let mut kept = keep.iter();
        self.keys.retain(|_| kept.next() == Some(&true));
        let mut kept = keep.iter();
        self.costs.retain(|_| kept.next() == Some(&true));
        self.at.clear();
        self.same_hash.clear();
        for (i, key) in self.keys.iter().enumerate() {
            let first = self.at.insert(key.hash, i as u32);
            self.same_hash.push(first.unwrap_or(NONE));
        }
        let mut least: Vec<f64> = self.costs.iter().map(|&(cost, _)| cost).collect();
        least.sort_unstable_by(f64::total_cmp);
        least.truncate(self.reach);
        self.least = least.into_iter().map(Cost).collect();
    }

    /// The items in the order they were first put, each with its key, cost and order.
    pub fn iter(&self) -> impl Iterator<Item = (Keyed, f64, u32, &T)> {
        (self.keys.iter().zip(&self.costs).zip(&self.items))
            .map(|((&key, &(cost, order)), item)| (key, cost, order, item))
    }

    /// The `k` (at most `reach`) cheapest items, cheapest first; of equal cost, the first
    /// offered.
    pub fn cheapest(&self, k: usize) -> Vec<&T> {
        if k == 0 {
            return Vec::new();
        }
        let mut ranked: Vec<(f64, u32, u32)> = self
            .costs
            .iter()
            .enumerate()
            .map(|(i, &(cost, order))| (cost, order, i as u32))
            .collect();
        let by_rank = |a: &(f64, u32, u32), b: &(f64, u32, u32)| by_cost(&(a.0, a.1), &(b.0, b.1));
        if ranked.len() > k {
            ranked.select_nth_unstable_by(k - 1, by_rank);
            ranked.truncate(k);
        }
        ranked.sort_unstable_by(by_rank);
        ranked
            .into_iter()
            .map(|(_, _, i)| &self.items[i as usize])
            .collect()
    }
}

/// Items' costs and orders in the order they are asked for: cheaper first, of equal cost the
/// first offered.
fn by_cost(a: &(f64, u32), b: &(f64, u32)) -> Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::rules::hash::FastMap;

    /// Offers the position `p` at `cost` to `beam` and to `plain`, which keeps every position's
    /// cheapest offer (of equal costs the first) as the beam should.
    fn offer_both(
        beam: &mut Beam<u32>,
        plain: &mut FastMap<Position, (f64, u32)>,
        p: &Position,
        cost: f64,
        order: u32,
    ) {
        if plain.get(p).is_none_or(|&(c, _)| c > cost) {
            plain.insert(*p, (cost, order));
        }
        let key = Keyed::new(*p);
        if beam.takes(&key, cost) {
            beam.put(key, cost, order, order);
        }
    }

    /// The beam's `k` cheapest are `plain`'s, and every item it keeps is `plain`'s offer there.
    fn assert_agrees(beam: &Beam<u32>, plain: &FastMap<Position, (f64, u32)>, k: usize) {
        let mut want: Vec<(f64, u32)> = plain.values().copied().collect();
        want.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let got: Vec<u32> = beam.cheapest(k).into_iter().copied().collect();
        assert_eq!(got, want[..k].iter().map(|w| w.1).collect::<Vec<_>>());
        assert!(beam.iter().all(|(key, c, o, _)| plain[&key.pos] == (c, o)));
    }

    /// The start and the positions one and two plies after it.
    fn two_plies_deep() -> Vec<Position> {
        let start = Position::start(Rules::default());
        let mut positions = vec![start];
        for m in start.legal_moves().iter() {
            let mut p = start;
            p.play_unchecked(*m);
            positions.push(p);
            for m2 in p.legal_moves().iter() {
                let mut q = p;
                q.play_unchecked(*m2);
                positions.push(q);
            }
        }
        positions
    }

    #[test]
    fn keeps_the_cheapest_at_each_position_and_of_equal_costs_the_first_offered() {
        let positions = two_plies_deep();
        // Each position offered twice, many costs equal.
        let mut plain: FastMap<Position, (f64, u32)> = FastMap::default();
        let mut beam: Beam<u32> = Beam::new(10);
        let mut out_of_reach = 0;
        for (n, p) in positions.iter().chain(&positions).enumerate() {
            let cost = (n * 7919 % 31) as f64;
            out_of_reach += usize::from(beam.out_of_reach(cost));
            offer_both(&mut beam, &mut plain, p, cost, n as u32);
        }
        assert!(plain.len() > 50 && out_of_reach > 50);
        assert_agrees(&beam, &plain, 10);
        assert!(beam.iter().count() < plain.len());
    }

    /// Offers the positions two plies deep `rounds` times over, the `n`th offer at `cost(n)`,
    /// to a beam of reach 4: it never holds twice its reach, and gives the cheapest as keeping
    /// every offer would.
    fn stays_bounded(rounds: usize, cost: impl Fn(usize) -> f64) {
        let positions = two_plies_deep();
        let mut plain: FastMap<Position, (f64, u32)> = FastMap::default();
        let mut beam: Beam<u32> = Beam::new(4);
        let mut most = 0;
        let offers = (0..rounds).flat_map(|_| &positions);
        for (n, p) in offers.enumerate() {
            offer_both(&mut beam, &mut plain, p, cost(n), n as u32);
            most = most.max(beam.iter().count());
        }
        assert!(positions.len() > 50 && most < 2 * 4, "{most}");
        assert_agrees(&beam, &plain, 4);
    }

    /// Items offered ever cheaper (each beats the least costs the others were first put at)
    /// are not all kept: the beam drops those out of reach.
    #[test]
    fn items_offered_ever_cheaper_stay_bounded() {
        // A few alike.
        stays_bounded(3, |n| 10_000.0 - (n / 3) as f64);
    }

    /// Items offered all at one cost are kept bounded too (the first `reach` offered are the
    /// ones asked for): each compaction drops all but `reach`, not none.
    #[test]
    fn items_offered_at_one_cost_stay_bounded() {
        stays_bounded(1, |_| 12.0);
    }
}
