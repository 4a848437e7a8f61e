//! Best-first search over compact states: A* with a bucketed open list (costs are small integers),
//! a transposition table with parent links, and a hard budget of stored states and time.

use crate::rules::hash::MixHasher;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::time::Instant;

/// A search problem whose states are packed into a `u128`, with unit move costs.
pub(crate) trait Puzzle {
    /// The start state and its heuristic value.
    fn root(&self) -> (u128, u32);
    /// Pushes every successor with its heuristic value. `h` is the value of `state` (for
    /// incremental heuristics); a successor whose value is [`DEAD`] cannot reach the goal and is skipped.
    /// A successor for which `known` is true is already stored with its value: it may be pushed with
    /// any value but [`DEAD`], which saves computing it. Each successor is pushed once (the search
    /// reuses the answers of `known`). A successor whose value is at least `cap` is of no use (the
    /// search looks only for plans cheaper than a bound) and may be left out unasked; `u32::MAX`
    /// means every successor is wanted.
    fn expand(
        &self,
        state: u128,
        h: u32,
        cap: u32,
        known: &dyn Fn(u128) -> bool,
        out: &mut Vec<(u128, u32)>,
    );
    fn is_goal(&self, state: u128) -> bool;
    /// A stronger value for a state about to be expanded, whose value `h` came from [`Puzzle::expand`]
    /// (or [`DEAD`]). Lets `expand` leave out the costly parts of the heuristic: they are then
    /// computed only for the states the search actually reaches, not for every child generated.
    fn refine(&self, _state: u128, h: u32) -> u32 {
        h
    }
    /// Called when a search ends having proven that the start costs at least `cost`, with every
    /// state it stored: `(state, g, h)`, where `g` is the length of some path from the start. So
    /// each such state costs at least `cost - g`, often more than `h` says: a puzzle searched again
    /// and again towards the same goal can learn from it (Adaptive A*).
    fn learn(&self, _cost: u32, _stored: &mut dyn Iterator<Item = (u128, u32, u32)>) {}
}

/// A heuristic value meaning "the goal cannot be reached from here".
pub(crate) const DEAD: u32 = u32::MAX;

/// The budget still left, shared by every search of one request.
pub(crate) struct Limits {
    pub states_left: u64,
    pub deadline: Option<Instant>,
}

impl Limits {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A share (1 / `n`) of the states and of the time left.
    pub fn share(&self, n: u32) -> Limits {
        Limits {
            states_left: self.states_left / n as u64,
            deadline: self.deadline.map(|end| {
                let now = Instant::now();
                now + end.saturating_duration_since(now) / n
            }),
        }
    }

    /// Runs `search` within `part` (a share of these limits) and takes the states it stored off
    /// these limits.
    pub fn within<T>(&mut self, mut part: Limits, search: impl FnOnce(&mut Limits) -> T) -> T {
        let granted = part.states_left;
        let found = search(&mut part);
        // Saturating: a part granted more than is left must not wrap the budget round.
        self.states_left = self.states_left.saturating_sub(granted - part.states_left);
        found
    }
}

pub(crate) enum Outcome {
    /// The cheapest cost and the states along one cheapest path, start first.
    Solved { cost: u32, path: Vec<u128> },
    /// Every reachable state was searched and none is a goal.
    Unreachable,
    /// The budget ran out; `lower` is a proven lower bound on the cost (with `weight == 1`).
    OutOfBudget { lower: u32 },
}

struct Node {
    state: u128,
    parent: u32,
    g: u32,
    h: u32,
    closed: bool,
    /// Whether `h` is already the refined value ([`Puzzle::refine`]).
    refined: bool,
}

/// A* when `weight == 1` (optimal with an admissible heuristic: closed nodes reached more cheaply
/// are reopened, and the lowest `f` in the open list never exceeds the optimum); with a larger weight,
/// weighted A* that finds some plan quickly (used only for upper bounds). Ties go to the deeper node,
/// which keeps the search diving on plateaus of equal `f`.
///
/// Only plans cheaper than `below` are looked for (`u32::MAX`: any): states whose `g + h` reaches it
/// are never stored, and [`Outcome::Unreachable`] then means that no plan is cheaper than `below`
/// (whatever the weight: every state of such a plan would have been stored), which proves a plan of
/// cost `below` optimal.
pub(crate) fn astar<P: Puzzle>(
    puzzle: &P,
    limits: &mut Limits,
    weight: u32,
    below: u32,
) -> Outcome {
    let mut scratch = SCRATCH
        .with(|pool| pool.borrow_mut().pop())
        .unwrap_or_default();
    let outcome = search(puzzle, limits, weight, below, &mut scratch);
    if scratch.nodes.capacity() <= KEEP_NODES {
        scratch.clear();
        SCRATCH.with(|pool| pool.borrow_mut().push(scratch));
    }
    outcome
}

/// What one search allocates, kept for the next searches of the thread: zone searches run by the
/// thousand, a few dozen states each (nested in the search that needs them, hence a pool).
#[derive(Default)]
struct Scratch {
    nodes: Vec<Node>,
    index: HashMap<u128, u32, BuildHasherDefault<MixHasher>>,
    open: Buckets,
    children: Vec<(u128, u32)>,
    asked: Vec<(u128, Option<u32>)>,
}

impl Scratch {
    fn clear(&mut self) {
        self.nodes.clear();
        self.index.clear();
        self.open.clear();
        self.children.clear();
        self.asked.clear();
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<Scratch>> = const { RefCell::new(Vec::new()) };
}

/// Searches that stored more states than this give their memory back.
const KEEP_NODES: usize = 1 << 12;

fn search<P: Puzzle>(
    puzzle: &P,
    limits: &mut Limits,
    weight: u32,
    below: u32,
    scratch: &mut Scratch,
) -> Outcome {
    let (root, root_h) = puzzle.root();
    if root_h == DEAD || root_h >= below {
        return Outcome::Unreachable;
    }
    let Scratch {
        nodes,
        index,
        open,
        children,
        asked: asked_buf,
    } = scratch;
    nodes.push(Node {
        state: root,
        parent: u32::MAX,
        g: 0,
        h: root_h,
        closed: false,
        refined: false,
    });
    index.insert(root, 0);
    open.push(weight * root_h, 0, 0);
    let mut expanded: u64 = 0;
    // The least `f` of the children left out for want of room: the lower bound must cover them.
    let mut dropped = u32::MAX;
    while let Some((f, id)) = open.pop() {
        let node = &nodes[id as usize];
        if node.closed || weight * node.h + node.g != f {
            continue; // a stale entry: the node was reached again more cheaply
        }
        let (state, g, h) = (node.state, node.g, node.h);
        if !node.refined {
            // Expanded only at its refined value: if that is higher, back to the open list.
            let refined = puzzle.refine(state, h);
            let node = &mut nodes[id as usize];
            node.refined = true;
            if refined == DEAD {
                node.closed = true;
                continue;
            }
            if refined > h {
                node.h = refined;
                if g + refined < below {
                    open.push(g + weight * refined, g, id);
                }
                continue;
            }
        }
        if puzzle.is_goal(state) {
            if weight == 1 {
                puzzle.learn(g, &mut nodes.iter().map(|n| (n.state, n.g, n.h)));
            }
            return Outcome::Solved {
                cost: g,
                path: path_to(nodes, id),
            };
        }
        expanded += 1;
        // The clock is read on the first expansion too, so a search begun late stops at once.
        if limits.states_left == 0 || (expanded % 16 == 1 && limits.out_of_time()) {
            return Outcome::OutOfBudget {
                lower: if weight == 1 { f.min(dropped) } else { 0 },
            };
        }
        nodes[id as usize].closed = true;
        children.clear();
        // The answers to `known`, in order, so that a child asked about is not looked up again.
        let asked = RefCell::new(std::mem::take(asked_buf));
        asked.borrow_mut().clear();
        let known = |child: u128| {
            let id = index.get(&child).copied();
            asked.borrow_mut().push((child, id));
            id.is_some()
        };
        // A child is kept only if `child_g + child_h < below`.
        let cap = if below == u32::MAX {
            u32::MAX
        } else {
            below.saturating_sub(g + 1)
        };
        puzzle.expand(state, h, cap, &known, children);
        *asked_buf = asked.into_inner();
        let mut answers = asked_buf.iter().peekable();
        for &(child, child_h) in children.iter() {
            let stored = match answers.next_if(|a| a.0 == child) {
                Some(&(_, id)) => id,
                None => index.get(&child).copied(),
            };
            if child_h == DEAD {
                continue;
            }
            let child_g = g + 1;
            match stored {
                Some(cid) => {
                    let c = &mut nodes[cid as usize];
                    if c.g <= child_g || child_g + c.h >= below {
                        continue;
                    }
                    // Reopened if closed: the heuristic need not be consistent, only admissible.
                    c.closed = false;
                    c.g = child_g;
                    c.parent = id;
                    open.push(child_g + weight * c.h, child_g, cid);
                }
                None => {
                    // Pathmax: one move lowers the true cost by at most one.
                    let child_h = child_h.max(h.saturating_sub(1));
                    if child_g + child_h >= below {
                        continue;
                    }
                    if limits.states_left == 0 {
                        dropped = dropped.min(child_g + weight * child_h);
                        continue;
                    }
                    limits.states_left -= 1;
                    let cid = nodes.len() as u32;
                    nodes.push(Node {
                        state: child,
                        parent: id,
                        g: child_g,
                        h: child_h,
                        closed: false,
                        refined: false,
                    });
                    index.insert(child, cid);
                    open.push(child_g + weight * child_h, child_g, cid);
                }
            }
        }
    }
    if below != u32::MAX {
        puzzle.learn(below, &mut nodes.iter().map(|n| (n.state, n.g, n.h)));
    }
    Outcome::Unreachable
}

fn path_to(nodes: &[Node], mut id: u32) -> Vec<u128> {
    let mut path = Vec::new();
    while id != u32::MAX {
        let node = &nodes[id as usize];
        path.push(node.state);
        id = node.parent;
    }
    path.reverse();
    path
}

/// The open list: one stack per (f, g), popped at the lowest f and, within it, the highest g.
#[derive(Default)]
struct Buckets {
    by_f: Vec<Vec<Vec<u32>>>,
    /// For each `f`, one more than the highest `g` that may hold entries (the stacks are kept
    /// when empty, for the next searches).
    g_end: Vec<usize>,
    lowest: usize,
}

impl Buckets {
    fn push(&mut self, f: u32, g: u32, id: u32) {
        let (f, g) = (f as usize, g as usize);
        if self.by_f.len() <= f {
            self.by_f.resize_with(f + 1, Vec::new);
            self.g_end.resize(f + 1, 0);
        }
        let by_g = &mut self.by_f[f];
        if by_g.len() <= g {
            by_g.resize_with(g + 1, Vec::new);
        }
        by_g[g].push(id);
        self.g_end[f] = self.g_end[f].max(g + 1);
        self.lowest = self.lowest.min(f);
    }

    fn pop(&mut self) -> Option<(u32, u32)> {
        while self.lowest < self.by_f.len() {
            let (by_g, g_end) = (&mut self.by_f[self.lowest], &mut self.g_end[self.lowest]);
            while *g_end > 0 {
                if let Some(id) = by_g[*g_end - 1].pop() {
                    return Some((self.lowest as u32, id));
                }
                *g_end -= 1;
            }
            self.lowest += 1;
        }
        None
    }

    fn clear(&mut self) {
        for (by_g, g_end) in self.by_f.iter_mut().zip(&mut self.g_end) {
            by_g[..*g_end].iter_mut().for_each(Vec::clear);
            *g_end = 0;
        }
        self.lowest = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A walk on 0..=40 towards 40 with a wall of dead states at 30..=33 when `wall` is set (so the
    /// goal is unreachable) and a detour-free heuristic only from `refine`.
    struct Line {
        wall: bool,
        refined: Cell<u32>,
        learned: RefCell<Vec<Lesson>>,
    }

    /// What `learn` was told: the proven cost and the stored `(state, g)`.
    type Lesson = (u32, Vec<(u128, u32)>);

    impl Puzzle for Line {
        fn root(&self) -> (u128, u32) {
            (0, 0)
        }

        fn expand(
            &self,
            state: u128,
            _h: u32,
            _cap: u32,
            _: &dyn Fn(u128) -> bool,
            out: &mut Vec<(u128, u32)>,
        ) {
            for next in [state.wrapping_sub(1), state + 1] {
                if next <= 40 {
                    out.push((next, 0)); // a weak value: refine supplies the real one
                }
            }
        }

        fn is_goal(&self, state: u128) -> bool {
            state == 40
        }

        fn learn(&self, cost: u32, stored: &mut dyn Iterator<Item = (u128, u32, u32)>) {
            let stored = stored.map(|(state, g, _)| (state, g)).collect();
            self.learned.borrow_mut().push((cost, stored));
        }

        fn refine(&self, state: u128, _h: u32) -> u32 {
            self.refined.set(self.refined.get() + 1);
            if self.wall && (30..=33).contains(&state) {
                DEAD
            } else {
                40 - state as u32
            }
        }
    }

    fn line(wall: bool) -> Line {
        Line {
            wall,
            refined: Cell::new(0),
            learned: RefCell::new(Vec::new()),
        }
    }

    fn run_below(wall: bool, below: u32) -> (Outcome, u32) {
        let line = line(wall);
        let mut limits = Limits {
            states_left: 1000,
            deadline: None,
        };
        (astar(&line, &mut limits, 1, below), line.refined.get())
    }

    #[test]
    fn what_a_search_teaches_never_overstates() {
        // Solved, or nothing cheaper than the bound: a proven cost, taught with every stored state.
        for below in [u32::MAX, 41, 40, 12] {
            let line = line(false);
            let mut limits = Limits {
                states_left: 1000,
                deadline: None,
            };
            astar(&line, &mut limits, 1, below);
            let learned = line.learned.borrow();
            assert_eq!(learned.len(), 1, "{below}");
            let (cost, stored) = &learned[0];
            assert!(!stored.is_empty());
            for &(state, g) in stored {
                // The true cost from `state` is 40 - state.
                assert!(
                    cost.saturating_sub(g) <= 40 - state as u32,
                    "{below}: {state}"
                );
            }
        }
        // Out of budget, or a weighted search's plan: nothing proven, nothing taught.
        for (states, weight) in [(3, 1), (1000, 2)] {
            let line = line(false);
            let mut limits = Limits {
                states_left: states,
                deadline: None,
            };
            astar(&line, &mut limits, weight, u32::MAX);
            assert!(line.learned.borrow().is_empty(), "{states} {weight}");
        }
    }

    fn run(wall: bool) -> (Outcome, u32) {
        run_below(wall, u32::MAX)
    }

    #[test]
    fn a_bound_finds_only_cheaper_plans() {
        assert!(matches!(
            run_below(false, 41).0,
            Outcome::Solved { cost: 40, .. }
        ));
        // Nothing cheaper than 40: the search says so without storing anything.
        assert!(matches!(run_below(false, 40).0, Outcome::Unreachable));
        assert!(matches!(run_below(false, 12).0, Outcome::Unreachable));
    }

    #[test]
    fn refined_values_steer_the_search_and_dead_ones_prune() {
        let (outcome, refined) = run(false);
        assert!(matches!(outcome, Outcome::Solved { cost: 40, .. }));
        // Only the states on the way are refined (each child of a refined state once), not all 41.
        assert!((40..=41).contains(&refined), "{refined}");
        let (outcome, _) = run(true);
        assert!(matches!(outcome, Outcome::Unreachable));
    }
}
