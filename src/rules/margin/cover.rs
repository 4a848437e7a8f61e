//! The least total extra cost that satisfies the conflicts between pieces. A conflict is a set of
//! pieces that together must make `weight` moves beyond their single costs in any plan:
//! - a pair whose exact joint cost exceeds the sum of its single costs by `weight` (the pair's moves
//!   in any full plan form a plan of the pair alone);
//! - the pieces standing at home around a piece that cannot reach its target without passing one of
//!   them (Salta): one of them must step aside and come back, `weight` 2.
//!
//! With `x` the pieces' extra moves, every conflict asks `Σ x over its pieces >= weight`; the least
//! `Σ x` (a vertex cover with weights) is found exactly by branch and bound, the sets being small. In
//! Salta every piece's extra is even (a diagonal step changes the distance to the target by exactly
//! one, up or down), so values go in steps of two there.

use crate::rules::hash::MixHasher;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Pieces (bit `i` = piece `i` of the group, at most 16) that need `weight` extra moves between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Conflict {
    pub pieces: u16,
    pub weight: u8,
}

/// Solutions by conflict list, as the same conflicts recur across many search states (for one
/// `step`: each request keeps its own cache, shared by its groups and zones).
#[derive(Default)]
pub(crate) struct CoverCache {
    known: HashMap<Vec<Conflict>, u32, BuildHasherDefault<MixHasher>>,
    /// The conflicts of one component (reused).
    part: Vec<Conflict>,
}

const CACHE_LIMIT: usize = 1 << 18;

impl CoverCache {
    /// The least cover, found for each set of conflicts linked by shared pieces on its own (their
    /// pieces are disjoint, so the least covers add up): the sets are small and recur far more often
    /// than whole lists.
    pub fn least_cover(&mut self, conflicts: &[Conflict], step: u8) -> u32 {
        if let [] | [_] = conflicts {
            return conflicts
                .iter()
                .map(|c| round_up(c.weight, step) as u32)
                .sum();
        }
        // Components as disjoint piece masks (at most 16, one piece each at least).
        let mut masks = [0u16; 16];
        let mut n = 0;
        for c in conflicts {
            let mut mask = c.pieces;
            let mut i = 0;
            while i < n {
                if masks[i] & mask != 0 {
                    mask |= masks[i];
                    n -= 1;
                    masks[i] = masks[n];
                    i = 0;
                } else {
                    i += 1;
                }
            }
            masks[n] = mask;
            n += 1;
        }
        let mut total = 0;
        let mut part = std::mem::take(&mut self.part);
        for &mask in &masks[..n] {
            part.clear();
            part.extend(conflicts.iter().filter(|c| c.pieces & mask != 0));
            total += self.component(&part, step);
        }
        self.part = part;
        total
    }

    fn component(&mut self, conflicts: &[Conflict], step: u8) -> u32 {
        match conflicts {
            [] => 0,
            [only] => round_up(only.weight, step) as u32,
            _ => {
                if let Some(&v) = self.known.get(conflicts) {
                    return v;
                }
                let v = least_cover(conflicts, step);
                if self.known.len() >= CACHE_LIMIT {
                    self.known.clear();
                }
                self.known.insert(conflicts.to_vec(), v);
                v
            }
        }
    }
}

fn round_up(v: u8, step: u8) -> u8 {
    v.div_ceil(step) * step
}

/// Exact least cover by depth-first assignment of each piece's extra, most constrained first, from
/// a greedy cover and bounded below by conflicts that share no unassigned piece.
pub(crate) fn least_cover(conflicts: &[Conflict], step: u8) -> u32 {
    let mut degree = [0u32; 16];
    let mut heaviest = [0u8; 16];
    for c in conflicts {
        for (v, deg) in degree.iter_mut().enumerate() {
            if c.pieces >> v & 1 == 1 {
                *deg += 1;
                heaviest[v] = heaviest[v].max(round_up(c.weight, step));
            }
        }
    }
    let mut order: Vec<usize> = (0..16).filter(|&v| degree[v] > 0).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(degree[v]));
    // Heaviest first: the disjoint conflicts of the lower bound are picked greedily in this order.
    let mut sorted = conflicts.to_vec();
    sorted.sort_by_key(|c| std::cmp::Reverse(c.weight));
    // A feasible start: each conflict still short takes what it lacks on its busiest piece.
    let mut extra = [0u8; 16];
    for c in &sorted {
        let short = c.weight.saturating_sub(given(c.pieces, &extra));
        if short > 0 {
            let busiest = order.iter().copied().find(|&v| c.pieces >> v & 1 == 1);
            if let Some(v) = busiest {
                extra[v] = extra[v].saturating_add(round_up(short, step));
            }
        }
    }
    let mut best: u32 = extra.iter().map(|&x| x as u32).sum();
    let mut extra = [0u8; 16];
    let search = Search {
        conflicts: &sorted,
        order: &order,
        heaviest,
        step,
    };
    search.run(0, 0, &mut extra, 0, &mut best);
    best
}

/// The extras given so far to `pieces`.
fn given(pieces: u16, extra: &[u8; 16]) -> u8 {
    let mut pieces = pieces;
    let mut sum = 0u8;
    while pieces != 0 {
        sum = sum.saturating_add(extra[pieces.trailing_zeros() as usize]);
        pieces &= pieces - 1;
    }
    sum
}

struct Search<'a> {
    /// Heaviest first.
    conflicts: &'a [Conflict],
    order: &'a [usize],
    heaviest: [u8; 16],
    step: u8,
}

impl Search<'_> {
    /// A lower bound on the extras still to give to the pieces not yet fixed: conflicts still short
    /// whose unfixed pieces are disjoint each need their shortfall from different pieces.
    fn still_needed(&self, fixed: u16, extra: &[u8; 16]) -> u32 {
        let mut used = fixed;
        let mut sum = 0u32;
        for c in self.conflicts {
            if c.pieces & used != c.pieces & fixed {
                continue;
            }
            let short = c.weight.saturating_sub(given(c.pieces & fixed, extra));
            if short > 0 {
                sum += round_up(short, self.step) as u32;
                used |= c.pieces;
            }
        }
        sum
    }

    /// What piece `v` needs at least, from the conflicts whose other pieces are all fixed.
    fn need(&self, v: usize, fixed: u16, extra: &[u8; 16]) -> u8 {
        let mut need = 0u8;
        for c in self.conflicts {
            if c.pieces >> v & 1 == 1 && c.pieces & !(fixed | 1 << v) == 0 {
                let mut others = c.pieces & !(1 << v);
                let mut given = 0u32;
                while others != 0 {
                    given += extra[others.trailing_zeros() as usize] as u32;
                    others &= others - 1;
                }
                need = need.max((c.weight as u32).saturating_sub(given) as u8);
            }
        }
        round_up(need, self.step)
    }

    fn run(&self, at: usize, fixed: u16, extra: &mut [u8; 16], sum: u32, best: &mut u32) {
        if at == self.order.len() {
            *best = (*best).min(sum);
            return;
        }
        if sum + self.still_needed(fixed, extra) >= *best {
            return;
        }
        let v = self.order[at];
        let low = self.need(v, fixed, extra);
        let high = self.heaviest[v].max(low);
        let mut value = low;
        while value <= high {
            if sum + value as u32 >= *best {
                break;
            }
            extra[v] = value;
            self.run(at + 1, fixed | 1 << v, extra, sum + value as u32, best);
            value += self.step;
        }
        extra[v] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(pieces: &[usize], weight: u8) -> Conflict {
        Conflict {
            pieces: pieces.iter().fold(0, |m, &p| m | 1 << p),
            weight,
        }
    }

    #[test]
    fn star_of_conflicts_is_covered_by_its_centre() {
        assert_eq!(
            least_cover(&[c(&[0, 1], 2), c(&[0, 2], 2), c(&[0, 3], 2)], 2),
            2
        );
    }

    #[test]
    fn triangle_needs_two_vertices_with_even_steps() {
        let triangle = [c(&[0, 1], 2), c(&[1, 2], 2), c(&[0, 2], 2)];
        assert_eq!(least_cover(&triangle, 2), 4);
        assert_eq!(least_cover(&triangle, 1), 3);
    }

    #[test]
    fn heavy_edge_and_light_neighbours() {
        // x0 + x1 >= 4, x1 + x2 >= 2, x0 + x3 >= 2: x1 = 2, x0 = 2 covers all with 4.
        assert_eq!(
            least_cover(&[c(&[0, 1], 4), c(&[1, 2], 2), c(&[0, 3], 2)], 2),
            4
        );
    }

    #[test]
    fn cache_splits_into_components_and_agrees_with_the_whole_search() {
        let cases = [
            vec![
                c(&[0, 1], 2),
                c(&[2, 3], 4),
                c(&[1, 4], 2),
                c(&[5, 6, 7], 2),
            ],
            vec![c(&[0, 1], 2), c(&[1, 2], 2), c(&[0, 2], 2), c(&[3, 4], 3)],
            vec![c(&[0, 5], 2), c(&[3, 4], 2), c(&[4, 5], 2), c(&[1, 2], 2)],
        ];
        // One cache per step, as in a search (a group's step never changes).
        for step in [1, 2] {
            let mut cache = CoverCache::default();
            for case in cases.iter().chain(&cases) {
                assert_eq!(
                    cache.least_cover(case, step),
                    least_cover(case, step),
                    "{case:?}"
                );
            }
        }
        // The triangle (4) plus the separate pair rounded up to 4.
        assert_eq!(CoverCache::default().least_cover(&cases[1], 2), 8);
    }

    /// The least cover by trying every assignment of extras (multiples of `step` up to the heaviest
    /// weight) to pieces 0..6.
    fn brute_force(conflicts: &[Conflict], step: u8) -> u32 {
        let top = round_up(conflicts.iter().map(|c| c.weight).max().unwrap_or(0), step);
        let values = (top / step + 1) as u32;
        let mut best = u32::MAX;
        for code in 0..values.pow(6) {
            let mut extra = [0u8; 16];
            let mut rest = code;
            for x in extra.iter_mut().take(6) {
                *x = (rest % values) as u8 * step;
                rest /= values;
            }
            if conflicts
                .iter()
                .all(|c| given(c.pieces, &extra) >= c.weight)
            {
                best = best.min(extra.iter().map(|&x| x as u32).sum());
            }
        }
        best
    }

    #[test]
    fn branch_and_bound_agrees_with_trying_every_assignment() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        for case in 0..400 {
            let conflicts: Vec<Conflict> = (0..1 + next(7))
                .map(|_| Conflict {
                    pieces: (1 + next(63) as u16) & 0x3f,
                    weight: 1 + next(8) as u8,
                })
                .filter(|c| c.pieces != 0)
                .collect();
            for step in [1, 2] {
                assert_eq!(
                    least_cover(&conflicts, step),
                    brute_force(&conflicts, step),
                    "case {case}, step {step}: {conflicts:?}"
                );
            }
        }
    }

    #[test]
    fn walls_add_to_pairs_when_disjoint() {
        // A wall of pieces 2, 3, 4 and a pair 0–1: 2 + 2.
        assert_eq!(least_cover(&[c(&[0, 1], 2), c(&[2, 3, 4], 2)], 2), 4);
        // A wall that contains a piece of the pair is covered by it.
        assert_eq!(least_cover(&[c(&[0, 1], 2), c(&[1, 3, 4], 2)], 2), 2);
    }
}
