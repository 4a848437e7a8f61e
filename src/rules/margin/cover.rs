//! The least total extra cost that satisfies pairwise conflicts: given pairs of pieces `(i, j)` whose
//! joint cost exceeds the sum of their single costs by `w`, the pieces' extra moves `x` must satisfy
//! `x_i + x_j >= w` (the pair's moves in any full plan form a plan of the pair alone). The least
//! `Σ x` is an edge-weighted vertex cover, found exactly by branch and bound (the graphs are small).
//! In Salta every piece's extra is even (a diagonal step changes the distance to the target by
//! exactly one, up or down), so values go in steps of two there.

use std::collections::HashMap;

/// A conflict: pieces `a` and `b` (indices below 16) need `weight` extra moves between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Conflict {
    pub a: u8,
    pub b: u8,
    pub weight: u8,
}

/// Solutions by conflict list, as the same conflicts recur across many search states.
#[derive(Default)]
pub(crate) struct CoverCache {
    known: HashMap<Vec<Conflict>, u32>,
}

const CACHE_LIMIT: usize = 1 << 18;

impl CoverCache {
    pub fn least_cover(&mut self, conflicts: &[Conflict], step: u8) -> u32 {
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

/// Exact least cover by depth-first assignment of each vertex's extra, highest degree first.
pub(crate) fn least_cover(conflicts: &[Conflict], step: u8) -> u32 {
    let mut weight = [[0u8; 16]; 16];
    let mut degree = [0u8; 16];
    for c in conflicts {
        let (a, b) = (c.a as usize & 15, c.b as usize & 15);
        weight[a][b] = weight[a][b].max(c.weight);
        weight[b][a] = weight[a][b];
        degree[a] += 1;
        degree[b] += 1;
    }
    let mut order: Vec<usize> = (0..16).filter(|&v| degree[v] > 0).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(degree[v]));
    // Start from a feasible cover: each vertex takes its heaviest edge (a safe upper bound).
    let mut best: u32 = order
        .iter()
        .map(|&v| round_up(*weight[v].iter().max().unwrap_or(&0), step) as u32)
        .sum();
    let mut extra = [0u8; 16];
    search(&order, 0, &weight, step, &mut extra, 0, &mut best);
    best
}

fn search(
    order: &[usize],
    at: usize,
    weight: &[[u8; 16]; 16],
    step: u8,
    extra: &mut [u8; 16],
    sum: u32,
    best: &mut u32,
) {
    if at == order.len() {
        *best = (*best).min(sum);
        return;
    }
    // What each remaining vertex needs at least, given the vertices already fixed.
    let need = |v: usize, extra: &[u8; 16]| {
        order[..at]
            .iter()
            .map(|&u| weight[v][u].saturating_sub(extra[u]))
            .max()
            .unwrap_or(0)
    };
    let rest: u32 = order[at + 1..]
        .iter()
        .map(|&v| round_up(need(v, extra), step) as u32)
        .sum();
    let v = order[at];
    let low = round_up(need(v, extra), step);
    let high = round_up(*weight[v].iter().max().unwrap_or(&0), step).max(low);
    let mut value = low;
    while value <= high {
        if sum + value as u32 + rest >= *best {
            break;
        }
        extra[v] = value;
        search(order, at + 1, weight, step, extra, sum + value as u32, best);
        value += step;
    }
    extra[v] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(a: u8, b: u8, weight: u8) -> Conflict {
        Conflict { a, b, weight }
    }

    #[test]
    fn star_of_conflicts_is_covered_by_its_centre() {
        assert_eq!(least_cover(&[c(0, 1, 2), c(0, 2, 2), c(0, 3, 2)], 2), 2);
    }

    #[test]
    fn triangle_needs_two_vertices_with_even_steps() {
        assert_eq!(least_cover(&[c(0, 1, 2), c(1, 2, 2), c(0, 2, 2)], 2), 4);
        assert_eq!(least_cover(&[c(0, 1, 2), c(1, 2, 2), c(0, 2, 2)], 1), 3);
    }

    #[test]
    fn heavy_edge_and_light_neighbours() {
        // x0 + x1 >= 4, x1 + x2 >= 2, x0 + x3 >= 2: x1 = 2, x0 = 2 covers all with 4.
        assert_eq!(least_cover(&[c(0, 1, 4), c(1, 2, 2), c(0, 3, 2)], 2), 4);
    }
}
