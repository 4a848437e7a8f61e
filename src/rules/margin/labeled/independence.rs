//! Independence detection for a whole side in Salta: every group (at first every piece) is solved
//! alone and the plans are interleaved into one sequence of legal moves; groups whose plans cannot
//! be interleaved are merged and solved together (see the parent module).

use super::{Found, Group, PART_SHARE, Request, Step, plan_of, search_group, upper_plan};
use crate::board::Square;
use crate::rules::margin::Remaining;
use crate::rules::margin::model::Mover;
use crate::rules::margin::search::Limits;

/// Pieces solved together, with their plan once solved.
struct IdGroup {
    members: Vec<usize>,
    plan: Option<Vec<Step>>,
}

/// The count of the whole side given by `start` and `targets`: exact if the groups' plans can be
/// interleaved (their costs add up to a lower bound that the interleaved sequence attains), else
/// from the search of the merged groups, or bounds if the budget runs out.
pub(super) fn independence(
    mover: &Mover,
    start: &[u8],
    targets: &[u8],
    limits: &mut Limits,
    request: &Request,
) -> Remaining {
    let n = start.len();
    let mut groups: Vec<IdGroup> = (0..n)
        .map(|i| IdGroup {
            members: vec![i],
            plan: None,
        })
        .collect();
    // Deeper targets first: those pieces must pass squares the others will fill.
    let depth = |i: usize| {
        mover
            .geometry
            .relative_rank(Square::new_unchecked(targets[i]), mover.color)
    };
    'merge: loop {
        for gi in 0..groups.len() {
            if groups[gi].plan.is_some() {
                continue;
            }
            let members = groups[gi].members.clone();
            let plan = if let [only] = members[..] {
                Some(single_path(mover, only, start, targets))
            } else {
                let (s, t) = (pick(start, &members), pick(targets, &members));
                let group = Group::new(mover, &s, &t, request);
                let found = if members.len() == n {
                    search_group(&group, limits, true)
                } else {
                    // A part of the side gets a share of what is left; a part that needs more is
                    // often no easier than the whole side, whose search gives the exact count
                    // too, so then the whole side is searched at once.
                    let part = limits.share(PART_SHARE);
                    let found = limits.within(part, |part| search_group(&group, part, false));
                    if let Found::OutOfBudget { .. } = found {
                        groups = vec![IdGroup {
                            members: (0..n).collect(),
                            plan: None,
                        }];
                        continue 'merge;
                    }
                    found
                };
                match found {
                    Found::Solved { path } => Some(plan_of(&path, &members)),
                    Found::Unreachable => return Remaining::Unreachable,
                    Found::OutOfBudget { lower, plan } => {
                        let failed = Failed {
                            index: gi,
                            group: &group,
                            lower,
                            plan,
                        };
                        return bounds_after(mover, start, targets, &groups, failed);
                    }
                }
            };
            groups[gi].plan = plan;
        }
        let mut order: Vec<usize> = (0..groups.len()).collect();
        order.sort_by_key(|&gi| {
            let g = &groups[gi];
            (
                std::cmp::Reverse(g.members.iter().map(|&i| depth(i)).max()),
                g.members[0],
            )
        });
        let plans: Vec<&[Step]> = groups
            .iter()
            .map(|g| g.plan.as_deref().unwrap_or(&[]))
            .collect();
        let occupancy = |gi: usize| {
            groups[gi]
                .members
                .iter()
                .fold(0u64, |o, &i| o | 1 << start[i])
        };
        let mut combined: Vec<Step> = Vec::new();
        let mut combined_occ = 0u64;
        let mut merged: Vec<usize> = Vec::new();
        let mut conflict = None;
        for &gi in &order {
            match interleave(&combined, plans[gi], combined_occ, occupancy(gi)) {
                Some(seq) => {
                    combined = seq;
                    combined_occ |= occupancy(gi);
                    merged.push(gi);
                }
                None => {
                    conflict = Some(gi);
                    break;
                }
            }
        }
        let Some(gi) = conflict else {
            return Remaining::Exact(combined.len() as u32);
        };
        let footprint = |g: usize| plans[g].iter().fold(occupancy(g), |fp, s| fp | 1 << s.to);
        let partner = merged
            .iter()
            .copied()
            .find(|&h| interleave(plans[h], plans[gi], occupancy(h), occupancy(gi)).is_none())
            .or_else(|| {
                merged
                    .iter()
                    .copied()
                    .max_by_key(|&h| (footprint(h) & footprint(gi)).count_ones())
            })
            .unwrap_or(gi);
        if partner == gi {
            // Unreachable in practice: the first group merges with an empty plan.
            return Remaining::Bounds {
                lower: 0,
                upper: None,
            };
        }
        let (a, b) = (gi.max(partner), gi.min(partner));
        let absorbed = groups.swap_remove(a);
        groups[b].members.extend(absorbed.members);
        groups[b].members.sort_unstable();
        groups[b].plan = None;
        if groups[b].members.len() + 3 >= n {
            // All but a few pieces are entangled: solving the rest alone first would only repeat the big
            // search once they join, so they join now.
            groups = vec![IdGroup {
                members: (0..n).collect(),
                plan: None,
            }];
        }
    }
}

/// The group whose search ran out of budget: its index, its proven lower bound and the plan found
/// for it, if any.
struct Failed<'a, 'm> {
    index: usize,
    group: &'a Group<'m>,
    lower: u32,
    plan: Option<Vec<u128>>,
}

/// Bounds when the group `failed` ran out of budget: the solved groups' exact costs, the failed
/// group's proven bound and the other groups' heuristic values add up to a lower bound; an upper
/// bound comes from the failed group's plan interleaved with the other plans, or else from a
/// weighted search of the whole side, or else of the failed group (interleaved).
fn bounds_after(
    mover: &Mover,
    start: &[u8],
    targets: &[u8],
    groups: &[IdGroup],
    failed: Failed,
) -> Remaining {
    let failed_group = failed.group;
    let mut lower = failed.lower;
    for (gi, g) in groups.iter().enumerate() {
        if gi == failed.index {
            continue;
        }
        lower += match &g.plan {
            Some(plan) => plan.len() as u32,
            None => Group::new(
                mover,
                &pick(start, &g.members),
                &pick(targets, &g.members),
                failed_group.request,
            )
            .lower_bound(),
        };
    }
    // The failed group's path interleaved with the other groups' plans (or single paths).
    let combine = |path: &[u128]| {
        let mut combined: Vec<Step> = Vec::new();
        let mut occ = 0u64;
        for (gi, g) in groups.iter().enumerate() {
            let plan = if gi == failed.index {
                plan_of(path, &g.members)
            } else {
                match &g.plan {
                    Some(p) => p.clone(),
                    None => single_plans(mover, &g.members, start, targets),
                }
            };
            let g_occ = g.members.iter().fold(0u64, |o, &i| o | 1 << start[i]);
            combined = interleave(&combined, &plan, occ, g_occ)?;
            occ |= g_occ;
        }
        Some(combined.len() as u32)
    };
    // A weighted search of the whole side before one of the failed group: its plan needs no
    // interleaving, and it is usually found within a few thousand states.
    let all: Vec<usize> = (0..start.len()).collect();
    let mut upper = failed.plan.as_deref().and_then(combine);
    if upper.is_none() {
        let whole = Group::new(mover, start, targets, failed_group.request);
        upper = upper_plan(&whole).map(|path| plan_of(&path, &all).len() as u32);
    }
    if upper.is_none() {
        upper = upper_plan(failed_group).and_then(|path| combine(&path));
    }
    Remaining::Bounds {
        lower: lower.min(upper.unwrap_or(u32::MAX)),
        upper,
    }
}

fn pick(squares: &[u8], members: &[usize]) -> Vec<u8> {
    members.iter().map(|&i| squares[i]).collect()
}

/// The members' single paths one after another (only for upper bounds; may not interleave).
fn single_plans(mover: &Mover, members: &[usize], start: &[u8], targets: &[u8]) -> Vec<Step> {
    members
        .iter()
        .flat_map(|&i| single_path(mover, i, start, targets))
        .collect()
}

/// A shortest path of one Salta piece (Chebyshev distance), preferring at each step squares that no
/// other piece starts on or is bound for, so that plans interleave more often.
fn single_path(mover: &Mover, piece: usize, start: &[u8], targets: &[u8]) -> Vec<Step> {
    let g = mover.geometry;
    let dist = |a: u8, b: u8| g.distance(Square::new_unchecked(a), Square::new_unchecked(b));
    let others = |sqs: &[u8]| {
        sqs.iter()
            .enumerate()
            .filter(|&(i, _)| i != piece)
            .fold(0u64, |o, (_, &s)| o | 1 << s)
    };
    let (starts, goals) = (others(start), others(targets));
    let target = targets[piece];
    let mut here = start[piece];
    let mut steps = Vec::new();
    while here != target {
        let d = dist(here, target);
        let mut best: Option<(u32, u8)> = None;
        mover.for_each_move(here, 0, |to| {
            if dist(to, target) + 1 == d {
                let penalty = 2 * (starts >> to & 1) as u32 + (goals >> to & 1) as u32;
                if best.is_none_or(|(p, _)| penalty < p) {
                    best = Some((penalty, to));
                }
            }
        });
        let Some((_, next)) = best else { break };
        steps.push(Step {
            from: here,
            to: next,
        });
        here = next;
    }
    steps
}

/// Interleaves two plans of disjoint pieces into one sequence of legal Salta steps, if possible:
/// a search over how far each plan has progressed. `occ_a` and `occ_b` are the plans' start squares.
fn interleave(a: &[Step], b: &[Step], occ_a: u64, occ_b: u64) -> Option<Vec<Step>> {
    let trail = |plan: &[Step], occ: u64| {
        let mut out = Vec::with_capacity(plan.len() + 1);
        out.push(occ);
        for s in plan {
            let last = out[out.len() - 1];
            out.push(last ^ 1 << s.from ^ 1 << s.to);
        }
        out
    };
    let (ta, tb) = (trail(a, occ_a), trail(b, occ_b));
    let width = b.len() + 1;
    // reach[i * width + j]: 1 if reached by an `a` move, 2 by a `b` move, 3 the start.
    let mut reach = vec![0u8; (a.len() + 1) * width];
    reach[0] = 3;
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            if reach[i * width + j] == 0 {
                continue;
            }
            if i < a.len() && tb[j] >> a[i].to & 1 == 0 && reach[(i + 1) * width + j] == 0 {
                reach[(i + 1) * width + j] = 1;
            }
            if j < b.len() && ta[i] >> b[j].to & 1 == 0 && reach[i * width + j + 1] == 0 {
                reach[i * width + j + 1] = 2;
            }
        }
    }
    let (mut i, mut j) = (a.len(), b.len());
    if reach[i * width + j] == 0 {
        return None;
    }
    let mut seq = Vec::with_capacity(a.len() + b.len());
    while i + j > 0 {
        if reach[i * width + j] == 1 {
            i -= 1;
            seq.push(a[i]);
        } else {
            j -= 1;
            seq.push(b[j]);
        }
    }
    seq.reverse();
    Some(seq)
}
