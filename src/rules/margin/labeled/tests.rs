use super::*;
use crate::board::{BoardKind, Color, Geometry};
use crate::rules::{Position, Rules, Variant};

/// A whole side whose bound is higher from the targets than from the start: the exact search
/// goes backward, and the path it gives back still runs from the start to the targets, one
/// legal step at a time, with the count found forward.
#[test]
fn a_backward_search_gives_a_forward_plan_of_the_same_cost() {
    let setup = "R/81,82,83,84,85,91,92,93,94,95,101,102,103,104,105/\
                 35,34,43,32,31,15,14,42,11,21,25,24,13,12,23";
    let pos = Position::from_setup(setup, Rules::default()).expect("a valid setup");
    let mover = Mover::new(pos.geometry(), Variant::Salta, Color::Red);
    let (start, targets): (Vec<u8>, Vec<u8>) = pos
        .pieces_of(Color::Red)
        .map(|(piece, sq)| (sq.index() as u8, pos.target(piece).index() as u8))
        .unzip();
    let request = Request::new(None);
    let forward = Group::new(&mover, &start, &targets, &request);
    let backward = Group::new(&mover, &targets, &start, &request);
    assert!(backward.lower_bound() > forward.lower_bound());
    let search = |reversible: bool| {
        let mut limits = Limits {
            states_left: 1_000_000,
            deadline: None,
        };
        match exact_search(&forward, &mut limits, u32::MAX, reversible) {
            Outcome::Solved { path, .. } => path,
            _ => panic!("no plan"),
        }
    };
    let path = search(true);
    assert_eq!(path.len(), search(false).len());
    assert_eq!(path.first(), Some(&pack(&start)));
    assert_eq!(path.last(), Some(&pack(&targets)));
    for (before, after) in path.iter().zip(&path[1..]) {
        let moved: Vec<usize> = (0..start.len())
            .filter(|&j| square_in(*before, j) != square_in(*after, j))
            .collect();
        let [j] = moved[..] else {
            panic!("not one piece moved: {moved:?}")
        };
        let occupied = (0..start.len()).fold(0u64, |o, i| o | 1 << square_in(*before, i));
        let mut legal = false;
        mover.for_each_move(square_in(*before, j), occupied, |to| {
            legal |= to == square_in(*after, j)
        });
        assert!(legal, "piece {j} cannot step there");
    }
}

/// Zones are searched only for groups of more than [`ZONE_PIECES`] pieces, beyond what the plain
/// breadth-first comparison in tests/margin.rs can reach: here A* over a group with zones must
/// agree with A* over the same pieces without them, whose heuristic that comparison covers.
#[test]
fn zones_keep_counts_exact() {
    let g = Geometry::of(BoardKind::Salta);
    let mover = Mover::new(g, Variant::Salta, Color::Green);
    // Green's targets by piece id (stars 81–85, moons 91–95, suns 101–105), which are also the
    // squares of the tangles.
    let zone: Vec<u8> = (8..=10)
        .flat_map(|r| (1..=5).map(move |k| 10 * r + k))
        .filter_map(|n| g.from_number(n).map(|sq| sq.index() as u8))
        .collect();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut with_zones = 0;
    for case in 0..40 {
        // Eight pieces: a random choice of ids on a random choice of goal-zone squares.
        let (mut ids, mut free) = (zone.clone(), zone.clone());
        let (mut start, mut goal) = (Vec::new(), Vec::new());
        for _ in 0..ZONE_PIECES + 1 {
            goal.push(ids.swap_remove(next(ids.len())));
            start.push(free.swap_remove(next(free.len())));
        }
        let request = Request::new(None);
        let cost = |group: &Group| {
            let mut limits = Limits {
                states_left: 3_000_000,
                deadline: None,
            };
            match astar(group, &mut limits, 1, u32::MAX) {
                Outcome::Solved { cost, .. } => cost,
                _ => panic!("case {case}: no plan for {start:?} → {goal:?}"),
            }
        };
        let zoned = Group::new(&mover, &start, &goal, &request);
        with_zones += usize::from(!zoned.zones.is_empty());
        let plain = Group::plain(&mover, &start, &goal, &request);
        assert_eq!(
            cost(&zoned),
            cost(&plain),
            "case {case}: {start:?} → {goal:?}"
        );
    }
    assert!(with_zones >= 10, "only {with_zones} cases had zones");
}
