//! Cheapest one-to-one assignment of identical pieces to target squares (Pyramid counts).

use crate::board::Square;

/// The least total cost of sending each piece to a distinct target, by dynamic programming over
/// subsets of targets (at most 10 pieces in Pyramid, so at most 1,024 subsets). Extra targets stay
/// unused; with more pieces than targets the extra pieces cost nothing.
pub fn min_cost(
    pieces: &[Square],
    targets: &[Square],
    cost: impl Fn(Square, Square) -> u32,
) -> u32 {
    let n = pieces.len().min(targets.len());
    if n == 0 {
        return 0;
    }
    let t = targets.len();
    let mut best = vec![u32::MAX; 1 << t];
    best[0] = 0;
    for mask in 0usize..(1 << t) {
        let i = mask.count_ones() as usize;
        if best[mask] == u32::MAX || i >= n {
            continue;
        }
        for (j, &target) in targets.iter().enumerate() {
            if mask & (1 << j) == 0 {
                let next = mask | (1 << j);
                best[next] = best[next].min(best[mask] + cost(pieces[i], target));
            }
        }
    }
    (0usize..(1 << t))
        .filter(|m| m.count_ones() as usize == n)
        .map(|m| best[m])
        .min()
        .unwrap_or(0)
}
