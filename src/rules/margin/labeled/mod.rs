//! Salta and Winther: pieces with identities, each bound for its own target.
//!
//! A group of pieces is searched by A* over packed placements (6 bits per piece) with a heuristic
//! from pattern tables of single pieces and pairs, from walls of pieces at home and (Salta, groups
//! of more than [`ZONE_PIECES`]) from zones: a conflicting pair with the pieces next to it, or one
//! part of a split of the group into disjoint zones (whose excesses add up), whose exact joint cost
//! is searched on demand for each placement met. All are combined by a least cover
//! of the conflicts (see [`Group`] and `cover`). Zones are what make full-zone tangles tractable:
//! there the cost comes from pieces at home that must step aside for a swap next to them, which
//! neither the pair tables (other pieces removed) nor the walls (only cut-off regions) see.
//!
//! Zones are costly (a search each), so a child's value takes for the zones of the piece that moved
//! only what earlier searches proved, and they are searched only when the child is about to be
//! expanded (`Puzzle::refine`): most children never are. Each zone search records the costs along
//! its cheapest path and lower bounds for every placement it stored (`Puzzle::learn`), which guide
//! the later searches of the same zone and the values of children; next to a placement of known
//! cost it only asks whether a cheaper plan exists (see `Group::search_zone`).
//!
//! Big groups (the whole side, in practice) first get a plan from a quick weighted A* (a few
//! thousand states as a rule, often within a move or two of the optimum), bettered by the same
//! search looking for cheaper plans while that is cheap; the exact A* then stores only states that
//! could lead to a cheaper plan (leaving most children out on a cheap bound before their full value,
//! see `Group::bounds_without`), and proves the plan optimal when none is left. In Salta it searches
//! the whole side backward, from the targets to the start, when the bound is higher that way (see
//! `search_group`).
//!
//! In Salta the whole side is solved by independence detection (`independence`): every group (at
//! first every piece) is solved alone, and the plans are interleaved into one sequence of legal
//! moves. If that works, the sum of the group costs is exact: it is a lower bound (each group alone
//! is a relaxation, as removing pieces only frees squares, and a move moves one piece of one group)
//! and the interleaved sequence attains it. Groups whose plans cannot be interleaved are merged and
//! solved together. A group that is only a part of the side may use a share of the budget: past
//! it, the whole side is searched at once (the merged groups that need long searches are rarely
//! easier than the whole).
//! (In Winther other pieces can serve as stepping stones for friendly jumps, so a group alone is no
//! relaxation; there the whole side is one group, with a relaxed jump rule in the tables.)

mod independence;
mod zones;

use zones::{MAX_ZONES, Proof, ZONE_PIECES, Zone, ZoneMemo};

use super::cover::{Conflict, CoverCache};
use super::model::Mover;
use super::pdb::{self, Table, UNREACHABLE};
use super::search::{DEAD, Limits, Outcome, Puzzle, astar};
use super::{Budget, Remaining};
use crate::rules::hash::MixHasher;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

const BITS: u32 = 6;

fn pack(squares: &[u8]) -> u128 {
    squares
        .iter()
        .enumerate()
        .fold(0, |key, (j, &sq)| key | (sq as u128) << (BITS * j as u32))
}

#[inline]
fn square_in(key: u128, j: usize) -> u8 {
    (key >> (BITS * j as u32)) as u8 & 0x3f
}

/// A set of pieces searched together, with every other piece removed.
///
/// Heuristic: the sum of the single costs plus the least cover of the conflicts (see `cover`): each
/// pair's exact joint cost (from its pattern table) minus its single costs, and in Salta the walls of
/// pieces at home that a piece cannot get past without one of them stepping aside, and each zone's
/// exact joint cost minus its single costs. Admissible, because any plan projected onto a pair or a
/// zone is a plan of those pieces alone and a piece at home that moves makes at least two moves; not
/// always consistent, so the search reopens nodes (and raises children by pathmax).
pub(crate) struct Group<'m> {
    mover: &'m Mover,
    start: Vec<u8>,
    targets: Vec<u8>,
    goal: u128,
    tables: Rc<Tables>,
    /// Small groups of tangled pieces whose exact joint cost is searched on demand (Salta only).
    zones: Vec<Zone>,
    request: &'m Request,
    /// For each piece, the indices of the zones it belongs to.
    zones_of: Vec<Vec<u8>>,
    conflicts: RefCell<Vec<Conflict>>,
    /// Salta extras are even (see `cover`).
    step: u8,
    /// Whether to look for walls of pieces at home (Salta only).
    walls: bool,
    /// The placement last given a full value, and its costs.
    last_filled: RefCell<Option<(u128, Costs)>>,
    /// A zone's search (the zone's index in the request's [`ZoneMemo`]): learns lower bounds from
    /// each search for the next ones, and takes them into its heuristic.
    learns: Option<usize>,
}

/// The pattern tables of a group's pieces, by their targets.
struct Tables {
    singles: Vec<Arc<Table>>,
    pairs: Vec<(u8, u8, Arc<Table>)>,
    /// The pair tables by `a * k + b` for `a < b` (the single table elsewhere, unused).
    pair_tables: Vec<Arc<Table>>,
}

impl Tables {
    fn new(mover: &Mover, targets: &[u8]) -> Rc<Tables> {
        let k = targets.len();
        let singles: Vec<Arc<Table>> = targets.iter().map(|&t| pdb::table(mover, &[t])).collect();
        let mut pairs = Vec::new();
        let mut pair_tables = Vec::with_capacity(k * k);
        for i in 0..k {
            for j in 0..k {
                if i < j {
                    let table = pdb::table(mover, &[targets[i], targets[j]]);
                    pairs.push((i as u8, j as u8, table.clone()));
                    pair_tables.push(table);
                } else {
                    pair_tables.push(singles[i].clone());
                }
            }
        }
        Rc::new(Tables {
            singles,
            pairs,
            pair_tables,
        })
    }
}

/// What the searches of one request share: the zone costs found so far (whether exact or only a
/// proven lower bound), the least covers (which depend only on the conflicts, and the step is the
/// same for every group of a request), the regions cut off by pieces at home, and when the request
/// must end.
pub(crate) struct Request {
    zone_costs: RefCell<ZoneMemo>,
    covers: RefCell<CoverCache>,
    /// The connected regions of the squares not at home, by the squares at home (see
    /// `Group::add_walls`).
    regions: RefCell<HashMap<u64, Vec<u64>, BuildHasherDefault<MixHasher>>>,
    end: Option<Instant>,
}

impl Request {
    fn new(end: Option<Instant>) -> Request {
        Request {
            zone_costs: RefCell::new(ZoneMemo::default()),
            covers: RefCell::new(CoverCache::default()),
            regions: RefCell::new(HashMap::default()),
            end,
        }
    }
}

/// Sets of squares at home whose regions are kept per request at most (then forgotten).
const REGIONS_MEMO: usize = 1 << 16;

impl<'m> Group<'m> {
    pub fn new(mover: &'m Mover, start: &[u8], targets: &[u8], request: &'m Request) -> Group<'m> {
        let mut group = Group::plain(mover, start, targets, request);
        if group.walls && start.len() > ZONE_PIECES {
            group.add_zones();
        }
        group
    }

    fn plain(mover: &'m Mover, start: &[u8], targets: &[u8], request: &'m Request) -> Group<'m> {
        Group::with_tables(mover, start, targets, Tables::new(mover, targets), request)
    }

    fn with_tables(
        mover: &'m Mover,
        start: &[u8],
        targets: &[u8],
        tables: Rc<Tables>,
        request: &'m Request,
    ) -> Group<'m> {
        let k = start.len();
        Group {
            mover,
            start: start.to_vec(),
            targets: targets.to_vec(),
            goal: pack(targets),
            tables,
            zones: Vec::new(),
            request,
            zones_of: vec![Vec::new(); k],
            conflicts: RefCell::new(Vec::new()),
            step: if mover.winther { 1 } else { 2 },
            walls: !mover.winther,
            last_filled: RefCell::new(None),
            learns: None,
        }
    }

    fn value(&self, key: u128) -> u32 {
        let mut costs = Costs::default();
        if !self.fill(key, &mut costs) {
            return DEAD;
        }
        // A state is as a rule expanded right after its value is refined: `expand` reuses this.
        *self.last_filled.borrow_mut() = Some((key, costs));
        self.with_learned(key, self.cover_of(&costs))
    }

    /// The value `h` of a placement, raised to what earlier searches of the zone proved about it.
    #[inline]
    fn with_learned(&self, key: u128, h: u32) -> u32 {
        let Some(zone) = self.learns else {
            return h;
        };
        match self.request.zone_costs.borrow().get(zone, key) {
            Some(known) if known.cost == UNREACHABLE && known.proof == Proof::Exact => DEAD,
            Some(known) => h.max(known.cost as u32),
            None => h,
        }
    }

    /// Fills the single and pair costs of a placement; false if it cannot reach the goal.
    fn fill(&self, key: u128, costs: &mut Costs) -> bool {
        let k = self.start.len();
        for j in 0..k {
            costs.squares[j] = square_in(key, j);
            costs.single[j] =
                self.tables.singles[j].get(self.mover, [costs.squares[j]].into_iter());
            if costs.single[j] == UNREACHABLE {
                return false;
            }
        }
        for (a, b, table) in &self.tables.pairs {
            let (a, b) = (*a as usize, *b as usize);
            if !self.fill_pair(costs, a, b, table) {
                return false;
            }
        }
        (0..self.zones.len()).all(|z| self.fill_zone(costs, z))
    }

    fn fill_zone(&self, costs: &mut Costs, z: usize) -> bool {
        match self.zone_excess(&self.zones[z], costs, true) {
            Some(excess) => {
                costs.zone_excess[z] = excess;
                true
            }
            None => false,
        }
    }

    #[inline]
    fn fill_pair(&self, costs: &mut Costs, a: usize, b: usize, table: &Table) -> bool {
        let joint = table.get(self.mover, [costs.squares[a], costs.squares[b]].into_iter());
        let excess = joint.saturating_sub(costs.single[a] + costs.single[b]);
        costs.excess[a][b] = excess;
        if excess > 0 {
            costs.partners[a] |= 1 << b;
        } else {
            costs.partners[a] &= !(1 << b);
        }
        joint != UNREACHABLE
    }

    fn cover_of(&self, costs: &Costs) -> u32 {
        let k = self.start.len();
        let mut conflicts = self.conflicts.borrow_mut();
        conflicts.clear();
        self.pair_and_zone_conflicts(costs, &mut conflicts);
        if self.walls {
            self.add_walls(costs, &mut conflicts);
        }
        let singles: u32 = costs.single[..k].iter().map(|&s| s as u32).sum();
        singles
            + self
                .request
                .covers
                .borrow_mut()
                .least_cover(&conflicts, self.step)
    }

    fn pair_and_zone_conflicts(&self, costs: &Costs, conflicts: &mut Vec<Conflict>) {
        for a in 0..self.start.len() {
            let mut partners = costs.partners[a];
            while partners != 0 {
                let b = partners.trailing_zeros() as usize;
                partners &= partners - 1;
                conflicts.push(Conflict {
                    pieces: 1 << a | 1 << b,
                    weight: costs.excess[a][b],
                });
            }
        }
        for (z, zone) in self.zones.iter().enumerate() {
            let weight = costs.zone_excess[z];
            if weight > 0 {
                conflicts.push(Conflict {
                    pieces: zone.mask,
                    weight,
                });
            }
        }
    }

    /// Salta: a piece that cannot reach its target without crossing squares of pieces at home makes
    /// one of the pieces around its region (or around the target's region) step aside and back.
    /// (Not in Winther, where a friendly jump passes a piece that stays.)
    fn add_walls(&self, costs: &Costs, conflicts: &mut Vec<Conflict>) {
        let k = self.start.len();
        let mut home = 0u64;
        let mut at_home = [0u8; 64];
        for j in (0..k).filter(|&j| costs.single[j] == 0) {
            home |= 1 << costs.squares[j];
            at_home[costs.squares[j] as usize] = j as u8;
        }
        if home == 0 {
            return;
        }
        let open = self.mover.geometry.valid.0 & !home;
        let pieces_on = |squares: u64| {
            crate::board::Bitboard(squares).fold(0u16, |m, sq| m | 1 << at_home[sq.index()])
        };
        // The open squares fall into a few connected regions, shared by the pieces in them and
        // the same for every placement with the same squares at home (as most children of a state,
        // and many placements of a zone, have).
        let mut cache = self.request.regions.borrow_mut();
        if cache.len() >= REGIONS_MEMO {
            cache.clear();
        }
        let regions = cache.entry(home).or_insert_with(|| {
            let mut regions = Vec::new();
            let mut left = open;
            while left != 0 {
                let r = self.mover.region(left.trailing_zeros() as u8, open);
                regions.push(r);
                left &= !r;
            }
            regions
        });
        let region_of = |sq: u8| {
            regions
                .iter()
                .copied()
                .find(|r| r >> sq & 1 == 1)
                .unwrap_or(0)
        };
        for j in (0..k).filter(|&j| costs.single[j] > 0) {
            let region = region_of(costs.squares[j]);
            if region >> self.targets[j] & 1 == 1 {
                continue;
            }
            let around_target = region_of(self.targets[j]);
            // Walls one after another: every path crosses each layer of home squares between the
            // piece and its target, so the layers are disjoint conflicts (from either end).
            for (mut reached, goal) in
                [(region, self.targets[j]), (around_target, costs.squares[j])]
            {
                while reached >> goal & 1 == 0 {
                    let layer = self.mover.spread(reached) & home & !reached;
                    if layer == 0 {
                        break;
                    }
                    let wall = Conflict {
                        pieces: pieces_on(layer),
                        weight: 2,
                    };
                    if !conflicts.contains(&wall) {
                        conflicts.push(wall);
                    }
                    reached = self.mover.region_from(reached | layer, open);
                }
            }
        }
    }

    /// For each piece `j`, a lower bound on the value of every child where `j` moved, less `j`'s own
    /// single cost there: the other pieces' single costs and the least cover of the pair and zone
    /// conflicts of the placement in `costs` that leave `j` out, which a move of `j` leaves as they
    /// are. (Walls are left out: a piece at home that steps away can open a way past walls it is
    /// not part of.)
    fn bounds_without(&self, costs: &Costs) -> [u32; 16] {
        let mut conflicts = self.conflicts.borrow_mut();
        conflicts.clear();
        self.pair_and_zone_conflicts(costs, &mut conflicts);
        let involved = conflicts.iter().fold(0u16, |m, c| m | c.pieces);
        let mut covers = self.request.covers.borrow_mut();
        let mut out = [covers.least_cover(&conflicts, self.step); 16];
        let mut without = Vec::with_capacity(conflicts.len());
        let k = self.start.len();
        let singles: u32 = costs.single[..k].iter().map(|&s| s as u32).sum();
        for (j, bound) in out.iter_mut().enumerate().take(k) {
            if involved >> j & 1 == 1 {
                without.clear();
                without.extend(conflicts.iter().filter(|c| c.pieces >> j & 1 == 0));
                *bound = covers.least_cover(&without, self.step);
            }
            *bound += singles - costs.single[j] as u32;
        }
        out
    }

    /// The heuristic value at the start: a lower bound on the group's cost.
    pub fn lower_bound(&self) -> u32 {
        self.value(pack(&self.start))
    }
}

/// Single costs and pair excesses of one placement, kept per expansion so that a child only
/// recomputes the moved piece's entries.
#[derive(Clone, Copy, Default)]
struct Costs {
    squares: [u8; 16],
    single: [u8; 16],
    excess: [[u8; 16]; 16],
    /// For each piece `a`, the pieces `b > a` whose pair excess is positive.
    partners: [u16; 16],
    zone_excess: [u8; MAX_ZONES],
}

impl Puzzle for Group<'_> {
    fn root(&self) -> (u128, u32) {
        let key = pack(&self.start);
        (key, self.value(key))
    }

    fn expand(
        &self,
        key: u128,
        _h: u32,
        cap: u32,
        known: &dyn Fn(u128) -> bool,
        out: &mut Vec<(u128, u32)>,
    ) {
        let k = self.start.len();
        let last = *self.last_filled.borrow();
        let parent = match last {
            Some((filled, costs)) if filled == key => costs,
            _ => {
                let mut parent = Costs::default();
                if !self.fill(key, &mut parent) {
                    return;
                }
                parent
            }
        };
        // When only plans cheaper than a bound are wanted, most children cannot lead to one: a
        // cheap bound on each (see `bounds_without`) leaves them out before their full value.
        let others = (cap != u32::MAX).then(|| self.bounds_without(&parent));
        let occupied = (0..k).fold(0u64, |occ, j| occ | 1 << parent.squares[j]);
        for j in 0..k {
            let from = parent.squares[j];
            let cleared = key & !(0x3f << (BITS * j as u32));
            let others = others.map(|others| others[j]);
            self.mover.for_each_move(from, occupied, |to| {
                let child = cleared | (to as u128) << (BITS * j as u32);
                if let Some(others) = others {
                    let single = self.tables.singles[j].get(self.mover, [to].into_iter());
                    if single == UNREACHABLE || others + single as u32 >= cap {
                        return;
                    }
                }
                if known(child) {
                    out.push((child, 0));
                    return;
                }
                let mut costs = parent;
                costs.squares[j] = to;
                costs.single[j] = self.tables.singles[j].get(self.mover, [to].into_iter());
                let mut alive = costs.single[j] != UNREACHABLE;
                for other in (0..k).filter(|&o| o != j) {
                    let (a, b) = (j.min(other), j.max(other));
                    alive &= self.fill_pair(&mut costs, a, b, &self.tables.pair_tables[a * k + b]);
                }
                // The zones of the moved piece are searched only if the child is expanded
                // (`refine`): until then they count what earlier searches proved of the new
                // placement, if anything, which keeps the value a lower bound.
                for &z in &self.zones_of[j] {
                    match self.zone_excess(&self.zones[z as usize], &costs, false) {
                        Some(excess) => costs.zone_excess[z as usize] = excess,
                        None => alive = false,
                    }
                }
                let h = if alive {
                    self.with_learned(child, self.cover_of(&costs))
                } else {
                    DEAD
                };
                out.push((child, h));
            });
        }
    }

    fn is_goal(&self, key: u128) -> bool {
        key == self.goal
    }

    fn learn(&self, cost: u32, stored: &mut dyn Iterator<Item = (u128, u32, u32)>) {
        let Some(zone) = self.learns else {
            return;
        };
        let mut memo = self.request.zone_costs.borrow_mut();
        for (state, g, h) in stored {
            let bound = cost.saturating_sub(g);
            if bound <= h || h == DEAD {
                continue;
            }
            memo.raise(zone, state, bound.min(UNREACHABLE as u32 - 1) as u8);
        }
    }

    fn refine(&self, key: u128, h: u32) -> u32 {
        if self.zones.is_empty() || h == DEAD {
            return h;
        }
        self.value(key)
    }
}

/// One move of a plan: a piece goes from `from` to `to` (padded squares).
#[derive(Clone, Copy, Debug)]
struct Step {
    from: u8,
    to: u8,
}

/// The moves along a path of packed placements of `members`.
fn plan_of(path: &[u128], members: &[usize]) -> Vec<Step> {
    path.windows(2)
        .filter_map(|w| {
            let j = (0..members.len()).find(|&j| square_in(w[0], j) != square_in(w[1], j))?;
            Some(Step {
                from: square_in(w[0], j),
                to: square_in(w[1], j),
            })
        })
        .collect()
}

/// Solves the side given by `start` and `targets` (padded squares, by slot).
pub(crate) fn solve(mover: &Mover, start: &[u8], targets: &[u8], budget: &Budget) -> Remaining {
    let (exact_end, end) = budget.deadlines(Instant::now());
    let mut limits = Limits {
        states_left: budget.max_states,
        deadline: exact_end,
    };
    let request = Request::new(end);
    if mover.winther {
        let members: Vec<usize> = (0..start.len()).collect();
        return solve_whole(mover, start, targets, &members, &mut limits, &request);
    }
    independence::independence(mover, start, targets, &mut limits, &request)
}

/// Winther, or any single group: plain A* over all pieces.
fn solve_whole(
    mover: &Mover,
    start: &[u8],
    targets: &[u8],
    members: &[usize],
    limits: &mut Limits,
    request: &Request,
) -> Remaining {
    let group = Group::new(mover, start, targets, request);
    match search_group(&group, limits, true) {
        Found::Solved { path } => Remaining::Exact(plan_of(&path, members).len() as u32),
        Found::Unreachable => Remaining::Unreachable,
        Found::OutOfBudget { lower, plan } => {
            let upper = plan
                .or_else(|| upper_plan(&group))
                .map(|path| plan_of(&path, members).len() as u32);
            Remaining::Bounds { lower, upper }
        }
    }
}

/// A group that is only a part of the side may use this share of the budget left (1 / this).
const PART_SHARE: u32 = 8;
/// Groups of at least this many pieces get a quick plan before the exact search.
const PLAN_FIRST: usize = 12;
/// The weight of the quick plan's search, and the share of the budget it may use (1 / this).
const PLAN_WEIGHT: u32 = 2;
const PLAN_SHARE: u32 = 8;
/// Each search for a plan cheaper than the last may store this share of the budget (1 / this), and
/// at most [`BETTER_GROWTH`] times the states of the costliest search before it plus
/// [`BETTER_SLACK`]: one that needs far more is as a rule looking for a plan that does not exist
/// (the last one is optimal, which a weighted search seldom proves and the exact search does); such
/// an attempt used to take 60–110 ms of a one-second budget.
const BETTER_SHARE: u64 = 40;
const BETTER_GROWTH: u64 = 2;
const BETTER_SLACK: u64 = 1000;
/// With a plan in hand, the share of the time kept for an upper bound that is kept to report it
/// (1 / this).
const REPORT_SHARE: u32 = 5;

/// What [`search_group`] found.
enum Found {
    /// A cheapest path of placements, start first.
    Solved {
        path: Vec<u128>,
    },
    Unreachable,
    /// The budget ran out: the cost is at least `lower`; `plan` is a path if one was found.
    OutOfBudget {
        lower: u32,
        plan: Option<Vec<u128>>,
    },
}

/// The exact search of a group. Big groups first get a plan from a quick weighted search with a
/// share of the budget: then the exact search only looks for cheaper plans (it stores no state
/// whose bound reaches the plan's cost), and proves the plan optimal by finding none.
///
/// `whole`: the group is the whole side. Then:
/// - with a plan in hand, nothing is left to do after the exact search but report the plan, so the
///   time kept for finding one (see [`Budget::max_time`]) goes to the search too, all but a margin;
/// - in Salta, whose steps can be taken back (a plan from the targets to the start, reversed, is a
///   plan of the group, and both ways cost the same), the exact search goes the way whose heuristic
///   value at its start is higher (ties: forward): tangles often look different from the two ends,
///   and one more step of the bound at the root saves most of the search. (The other way needs
///   pattern tables and zone searches of its own, some milliseconds, worth it only where the search
///   is long, so only for the whole side and once the quick plan is not proven optimal.)
fn search_group(group: &Group, limits: &mut Limits, whole: bool) -> Found {
    let mut plan = None;
    if group.start.len() >= PLAN_FIRST {
        let attempt_states = limits.states_left / BETTER_SHARE;
        let proven = limits.within(limits.share(PLAN_SHARE), |quick| {
            let before = quick.states_left;
            if let Outcome::Solved { path, .. } = astar(group, quick, PLAN_WEIGHT, u32::MAX) {
                plan = Some(path);
            }
            let mut costliest = before - quick.states_left;
            // Then cheaper plans, the same way: each one found tightens the bound of the exact
            // search (which then leaves out more children); a search that finds none proves the
            // plan optimal.
            while let Some(best) = &plan {
                let attempt = Limits {
                    states_left: quick
                        .states_left
                        .min(attempt_states)
                        .min(BETTER_GROWTH * costliest + BETTER_SLACK),
                    deadline: quick.deadline,
                };
                let below = best.len() as u32 - 1;
                let before = quick.states_left;
                let found =
                    quick.within(attempt, |attempt| astar(group, attempt, PLAN_WEIGHT, below));
                costliest = costliest.max(before - quick.states_left);
                match found {
                    Outcome::Solved { path, .. } => plan = Some(path),
                    Outcome::Unreachable => return true,
                    Outcome::OutOfBudget { .. } => return false,
                }
            }
            false
        });
        if proven && let Some(path) = plan.take() {
            return Found::Solved { path };
        }
    }
    let below = plan
        .as_ref()
        .map_or(u32::MAX, |p: &Vec<u128>| p.len() as u32 - 1);
    if whole
        && plan.is_some()
        && let (Some(deadline), Some(end)) = (limits.deadline, group.request.end)
    {
        limits.deadline = Some(end - end.saturating_duration_since(deadline) / REPORT_SHARE);
    }
    let reversible = whole && !group.mover.winther;
    match exact_search(group, limits, below, reversible) {
        Outcome::Solved { path, .. } => Found::Solved { path },
        Outcome::Unreachable => match plan {
            Some(path) => Found::Solved { path },
            None => Found::Unreachable,
        },
        Outcome::OutOfBudget { lower } => Found::OutOfBudget { lower, plan },
    }
}

/// A* for plans cheaper than `below`, backward if `reversible` and the bound is higher that way (see
/// [`search_group`]); a path found runs from the start to the targets either way.
fn exact_search(group: &Group, limits: &mut Limits, below: u32, reversible: bool) -> Outcome {
    let backward = reversible
        .then(|| Group::new(group.mover, &group.targets, &group.start, group.request))
        .filter(|backward| backward.lower_bound() > group.lower_bound());
    let Some(backward) = backward else {
        return astar(group, limits, 1, below);
    };
    match astar(&backward, limits, 1, below) {
        Outcome::Solved { cost, mut path } => {
            path.reverse();
            Outcome::Solved { cost, path }
        }
        other => other,
    }
}

/// States an upper-bound plan may store at most, past the time limit if need be.
const UPPER_STATES: u64 = 100_000;

/// A plan found by weighted A*, for an upper bound: a fresh allowance of [`UPPER_STATES`] states
/// (whatever the budget: a few thousand states are enough as a rule, and a small budget should
/// still give an upper bound) and the request's remaining time; if that has run out, the search
/// goes on within its state allowance (zones then count nothing, so this takes some tens of
/// milliseconds at most): with most of the time spent on the exact search, an upper bound would
/// often be missing.
fn upper_plan(group: &Group) -> Option<Vec<u128>> {
    let now = Instant::now();
    let mut limits = Limits {
        states_left: UPPER_STATES,
        deadline: group.request.end.filter(|&end| end > now),
    };
    match astar(group, &mut limits, 4, u32::MAX) {
        Outcome::Solved { path, .. } => Some(path),
        _ => None,
    }
}

#[cfg(test)]
#[cfg(test)]
mod tests;
