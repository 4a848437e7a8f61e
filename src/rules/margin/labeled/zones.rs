//! Zones: a few tangled pieces whose exact joint cost is searched on demand for each placement
//! met, and remembered for the request (see the parent module).

use super::{BITS, Costs, Group, Tables, pack};
use crate::board::Square;
use crate::rules::hash::MixHasher;
use crate::rules::margin::pdb::UNREACHABLE;
use crate::rules::margin::search::{Limits, Outcome, astar};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;
use std::time::Instant;

/// A few pieces (a conflicting pair and the pieces next to either) whose exact cost alone, with
/// every other piece removed, is found by a small search for each placement met and remembered.
/// Any plan of the whole side restricted to these pieces is a plan of them alone (Salta), so their
/// cost minus their single costs is a conflict weight like a pair's.
pub(super) struct Zone {
    pub(super) members: Vec<u8>,
    pub(super) mask: u16,
    /// The zone's index in the request's [`ZoneMemo`] (zones of other groups with the same targets
    /// share it).
    pub(super) memo: usize,
    /// The members' tables, for the zone's searches (one for each placement met).
    pub(super) tables: Rc<Tables>,
}

/// The zone costs found so far: one table per zone (by the members' targets), keyed by the packed
/// placement (at most ten members, so it fits 64 bits: the tables are looked up on every placement
/// valued, and small entries keep them in the caches).
#[derive(Default)]
pub(super) struct ZoneMemo {
    pub(super) ids: HashMap<u128, usize, BuildHasherDefault<MixHasher>>,
    pub(super) costs: Vec<HashMap<u64, ZoneCost, BuildHasherDefault<MixHasher>>>,
    /// Entries in all the tables; past [`ZONE_MEMO`] they are all forgotten.
    pub(super) len: usize,
}

impl ZoneMemo {
    /// The index of the zone whose members have these targets (packed).
    pub(super) fn id(&mut self, targets: u128) -> usize {
        let next = self.ids.len();
        let id = *self.ids.entry(targets).or_insert(next);
        if id == next {
            self.costs.push(HashMap::default());
        }
        id
    }

    pub(super) fn get(&self, zone: usize, placement: u128) -> Option<ZoneCost> {
        self.costs[zone].get(&(placement as u64)).copied()
    }

    pub(super) fn make_room(&mut self) {
        if self.len >= ZONE_MEMO {
            self.costs.iter_mut().for_each(HashMap::clear);
            self.len = 0;
        }
    }

    pub(super) fn insert(&mut self, zone: usize, placement: u128, cost: ZoneCost) {
        self.make_room();
        if self.costs[zone].insert(placement as u64, cost).is_none() {
            self.len += 1;
        }
    }

    /// Raises a learned bound (an exact cost stays).
    pub(super) fn raise(&mut self, zone: usize, placement: u128, bound: u8) {
        self.make_room();
        let mut added = false;
        let known = self.costs[zone].entry(placement as u64).or_insert_with(|| {
            added = true;
            ZoneCost {
                cost: bound,
                proof: Proof::Learned,
            }
        });
        if known.proof != Proof::Exact {
            known.cost = known.cost.max(bound);
        }
        self.len += usize::from(added);
    }
}

#[derive(Clone, Copy)]
pub(super) struct ZoneCost {
    pub(super) cost: u8,
    pub(super) proof: Proof,
}

/// How a zone cost is known.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Proof {
    Exact,
    /// A search of this placement ran out of budget: a lower bound, not worth searching again.
    Bound,
    /// From the searches of other placements (see [`Puzzle::learn`]): a lower bound that a search
    /// of this placement may raise, and that guides that search.
    Learned,
}

/// Zones per group at most (those around conflicting pairs, then the split ones), and pieces per
/// zone.
pub(super) const MAX_ZONES: usize = 8 + SPLIT_ZONES;
pub(super) const PAIR_ZONES: usize = 8;
/// Disjoint zones at most: 16 pieces at most, [`SPLIT_PIECES`] each.
pub(super) const SPLIT_ZONES: usize = 16usize.div_ceil(SPLIT_PIECES);
pub(super) const ZONE_PIECES: usize = 7;
pub(super) const SPLIT_PIECES: usize = 8;
/// Zone costs kept per request at most (then forgotten).
pub(super) const ZONE_MEMO: usize = 1 << 20;
/// States one zone search may store; past it, its proven lower bound serves.
pub(super) const ZONE_STATES: u64 = 20_000;

impl<'m> Group<'m> {
    /// Picks zones at the start: each pair in conflict with the pieces next to either (at most
    /// [`ZONE_PIECES`] in all).
    pub(super) fn add_zones(&mut self) {
        let k = self.start.len();
        let mut costs = Costs::default();
        if !self.fill(pack(&self.start), &mut costs) {
            return;
        }
        let g = self.mover.geometry;
        let near =
            |a: u8, b: u8| g.distance(Square::new_unchecked(a), Square::new_unchecked(b)) <= 1;
        let pairs = (0..k).flat_map(|a| (a + 1..k).map(move |b| (a, b)));
        for (a, b) in pairs.filter(|&(a, b)| costs.excess[a][b] > 0) {
            if self.zones.len() >= PAIR_ZONES {
                break;
            }
            let (sa, sb) = (costs.squares[a], costs.squares[b]);
            let mut members = vec![a as u8, b as u8];
            for h in (0..k).filter(|&h| h != a && h != b) {
                let sq = costs.squares[h];
                if members.len() < ZONE_PIECES && (near(sq, sa) || near(sq, sb)) {
                    members.push(h as u8);
                }
            }
            if members.len() > 2 {
                self.push_zone(members); // (a pair alone is its table's business)
            }
        }
        self.add_split_zones();
    }

    /// Disjoint zones over all the pieces of a group of more than [`SPLIT_PIECES`], split by the
    /// files of their squares and targets into parts of at most [`SPLIT_PIECES`] (two of 8 and 7
    /// for a whole side). The zones above overlap, so the cover can often charge one piece for
    /// several of them; the excesses of disjoint zones add up. Pieces still far away count too: their
    /// cost comes from the order in which they must fill the goal zone, which no pair sees.
    pub(super) fn add_split_zones(&mut self) {
        let k = self.start.len();
        if k <= SPLIT_PIECES {
            return;
        }
        let g = self.mover.geometry;
        let key = |a: usize| {
            let (sq, t) = (
                Square::new_unchecked(self.start[a]),
                Square::new_unchecked(self.targets[a]),
            );
            (g.file(sq) + g.file(t), g.rank(sq) + g.rank(t))
        };
        let mut pieces: Vec<usize> = (0..k).collect();
        pieces.sort_by_key(|&a| key(a));
        let size = k.div_ceil(k.div_ceil(SPLIT_PIECES));
        for part in pieces.chunks(size).filter(|part| part.len() > 2) {
            self.push_zone(part.iter().map(|&a| a as u8).collect());
        }
    }

    pub(super) fn push_zone(&mut self, mut members: Vec<u8>) {
        members.sort_unstable();
        let mask = members.iter().fold(0u16, |m, &p| m | 1 << p);
        if self.zones.iter().any(|z| z.mask == mask) {
            return;
        }
        let targets: Vec<u8> = members.iter().map(|&p| self.targets[p as usize]).collect();
        let id = self.zones.len() as u8;
        for &p in &members {
            self.zones_of[p as usize].push(id);
        }
        debug_assert!(
            members.len() <= 64 / BITS as usize,
            "a placement must fit 64 bits"
        );
        self.zones.push(Zone {
            members,
            mask,
            memo: self.request.zone_costs.borrow_mut().id(pack(&targets)),
            tables: Tables::new(self.mover, &targets),
        });
    }

    /// The zone's exact cost (or a proven lower bound) for the placement in `costs`, minus the
    /// members' single costs; `None` if the zone cannot complete. Without `search`, only what
    /// earlier searches proved of the placement (or nothing: 0).
    pub(super) fn zone_excess(&self, zone: &Zone, costs: &Costs, search: bool) -> Option<u8> {
        let placement = zone.members.iter().enumerate().fold(0u128, |key, (j, &p)| {
            key | (costs.squares[p as usize] as u128) << (BITS * j as u32)
        });
        let known = self.request.zone_costs.borrow().get(zone.memo, placement);
        let cost = match known {
            Some(known) if known.proof != Proof::Learned => known.cost,
            // No search, or out of time: a learned bound or the members' single costs, weaker but
            // still proven.
            _ if !search || self.request.end.is_some_and(|end| Instant::now() >= end) => {
                match known {
                    Some(learned) => learned.cost,
                    None => return Some(0),
                }
            }
            _ => self.search_zone(zone, costs, placement),
        };
        if cost == UNREACHABLE {
            return None;
        }
        let singles: u32 = zone
            .members
            .iter()
            .map(|&p| costs.single[p as usize] as u32)
            .sum();
        Some((cost as u32).saturating_sub(singles) as u8)
    }

    /// Searches the zone's cost for `placement` (its members' squares in `costs`) and remembers it.
    pub(super) fn search_zone(&self, zone: &Zone, costs: &Costs, placement: u128) -> u8 {
        let member_squares =
            |of: &[u8]| -> Vec<u8> { zone.members.iter().map(|&p| of[p as usize]).collect() };
        let squares = member_squares(&costs.squares);
        let targets = member_squares(&self.targets);
        // Salta: one move changes a placement's cost by exactly one (by at most one, and the parity
        // of the cost is the parity of the distance sum), so next to a placement of known cost `p`
        // (as a rule the zone where it stood before the last move) the cost is `p - 1` or `p + 1`:
        // the search need only look for plans cheaper than `p`, which is much less work.
        let near = if self.step == 2 {
            self.known_neighbour(zone.memo, placement, &squares)
        } else {
            None
        };
        let tables = zone.tables.clone();
        let mut sub = Group::with_tables(self.mover, &squares, &targets, tables, self.request);
        sub.learns = Some(zone.memo);
        let mut limits = Limits {
            states_left: ZONE_STATES,
            deadline: self.request.end,
        };
        let outcome = astar(&sub, &mut limits, 1, near.unwrap_or(u32::MAX));
        let mut memo = self.request.zone_costs.borrow_mut();
        let clamp = |c: u32| c.min(UNREACHABLE as u32 - 1) as u8;
        let found = match outcome {
            Outcome::Solved { cost, path } => {
                // Every placement along a cheapest path is that much closer to the goal.
                let cost = clamp(cost);
                for (placement, left) in path.iter().zip((0..=cost).rev()).skip(1) {
                    let exact = ZoneCost {
                        cost: left,
                        proof: Proof::Exact,
                    };
                    memo.insert(zone.memo, *placement, exact);
                }
                ZoneCost {
                    cost,
                    proof: Proof::Exact,
                }
            }
            // Next to a cost `p`, at least `p - 1` whatever the search got to.
            Outcome::OutOfBudget { lower } => ZoneCost {
                cost: clamp(lower.max(near.map_or(0, |p| p.saturating_sub(1)))),
                proof: Proof::Bound,
            },
            // Nothing cheaper than `p`: one move back gives `p + 1`.
            Outcome::Unreachable => ZoneCost {
                cost: near.map_or(UNREACHABLE, |p| clamp(p + 1)),
                proof: Proof::Exact,
            },
        };
        memo.insert(zone.memo, placement, found);
        found.cost
    }

    /// The exact cost of a placement of the zone one move from `placement` (`squares`), if known.
    pub(super) fn known_neighbour(
        &self,
        zone: usize,
        placement: u128,
        squares: &[u8],
    ) -> Option<u32> {
        let occupied = squares.iter().fold(0u64, |o, &sq| o | 1 << sq);
        let memo = self.request.zone_costs.borrow();
        let mut found = None;
        for (j, &sq) in squares.iter().enumerate() {
            let cleared = placement & !(0x3f << (BITS * j as u32));
            self.mover.for_each_move(sq, occupied, |to| {
                let next = cleared | (to as u128) << (BITS * j as u32);
                if let Some(ZoneCost {
                    cost,
                    proof: Proof::Exact,
                }) = memo.get(zone, next)
                    && cost != UNREACHABLE
                {
                    found.get_or_insert(cost as u32);
                }
            });
        }
        found
    }
}
