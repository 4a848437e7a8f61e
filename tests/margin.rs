//! Exact margins (rules.md §5): the fast search against a plain breadth-first search on small
//! positions, snapshots of hand-made tangles, Pyramid reachability, and bounds under a tiny budget.

use proptest::prelude::*;
use salta::board::{Color, Direction, Square};
use salta::rules::margin::{Budget, Remaining, exact_remaining};
use salta::rules::{Piece, Position, Rules, Variant};
use std::collections::{HashSet, VecDeque};
use std::time::Duration;

/// The plainest possible count: breadth-first search over placements of `color`'s pieces alone,
/// with the moves written out from rules.md §3 and §6 using only the geometry's neighbour table.
/// A placement is kept as one byte per piece (the square's index) packed into a `u128`.
fn bfs_count(pos: &Position, color: Color) -> Option<u32> {
    let g = pos.geometry();
    let winther = pos.rules().variant == Variant::Winther;
    let zone = g.far_zone(color);
    let pack = |squares: &[Square]| {
        squares
            .iter()
            .rev()
            .fold(0u128, |key, sq| key << 8 | sq.index() as u128)
    };
    let unpack = |key: u128, n: usize| {
        (0..n)
            .map(|i| {
                g.from_index((key >> (8 * i)) as u8)
                    .expect("packed from squares")
            })
            .collect::<Vec<_>>()
    };
    let n = pos.pieces_of(color).count();
    let start: Vec<Square> = pos.pieces_of(color).map(|(_, sq)| sq).collect();
    let goal: Vec<Square> = pos.pieces_of(color).map(|(p, _)| pos.target(p)).collect();
    let goal = pack(&goal);
    let mut seen = HashSet::from([pack(&start)]);
    let mut queue = VecDeque::from([(pack(&start), 0u32)]);
    while let Some((key, moves)) = queue.pop_front() {
        if key == goal {
            return Some(moves);
        }
        let placement = unpack(key, n);
        let occupied = |sq: Square| placement.contains(&sq);
        for (i, &from) in placement.iter().enumerate() {
            let in_zone = zone.contains(from);
            for dir in Direction::ALL {
                let Some(next) = g.neighbour(from, dir) else {
                    continue;
                };
                let forward = Direction::forward(color).contains(&dir);
                let mut to = None;
                if !occupied(next) && (!winther || forward || in_zone) {
                    to = Some(next);
                } else if occupied(next) && winther && in_zone {
                    to = g.neighbour(next, dir).filter(|&beyond| !occupied(beyond));
                }
                if let Some(to) = to {
                    let mut child = placement.clone();
                    child[i] = to;
                    let child = pack(&child);
                    if seen.insert(child) {
                        queue.push_back((child, moves + 1));
                    }
                }
            }
        }
    }
    None
}

fn salta(variant: Variant) -> Rules {
    Rules::of(variant)
}

fn green(id: u8) -> Piece {
    Piece::new(Color::Green, id).expect("ids below 15")
}

/// Every Green piece at home except the listed (piece id, square number) ones; Red complete (the
/// winner). Salta and Winther only: the homes are Salta targets.
fn green_tangle(variant: Variant, moved: &[(u8, u32)]) -> Position {
    let rules = salta(variant);
    let mut pos = Position::empty(rules);
    let g = pos.geometry();
    let mut squares: Vec<Option<Square>> = (0..15).map(|id| Some(pos.target(green(id)))).collect();
    for &(id, n) in moved {
        squares[id as usize] = g.from_number(n);
    }
    for (id, sq) in squares.into_iter().enumerate() {
        if let Some(sq) = sq {
            pos.put(green(id as u8), sq).expect("a free square");
        }
    }
    for id in 0..15 {
        let piece = Piece::new(Color::Red, id).expect("15 pieces");
        pos.put(piece, pos.target(piece)).expect("a free target");
    }
    pos
}

/// A small random position: 2–3 Green pieces on distinct squares of the goal zone and the two ranks
/// below it, every other piece off the board.
fn small_position(variant: Variant) -> impl Strategy<Value = Position> {
    let squares: Vec<u32> = (6..=10)
        .flat_map(|r| (1..=5).map(move |k| 10 * r + k))
        .collect();
    let ids = proptest::sample::subsequence((0u8..15).collect::<Vec<_>>(), 3);
    (
        2usize..=3,
        ids,
        proptest::sample::subsequence(squares, 3).prop_shuffle(),
    )
        .prop_map(move |(count, ids, squares)| place(variant, &ids[..count], &squares))
}

/// A tangled corner: 4 (Salta) or 4–5 (Winther, whose search space is smaller) of the Green pieces bound for the right-hand corner of the goal zone
/// (stars 4–5, moons 4–5, suns 4–5), shuffled over those pieces' targets and the squares in front.
fn tangled_corner(variant: Variant) -> impl Strategy<Value = Position> {
    let ids = vec![3u8, 4, 8, 9, 13, 14];
    let squares = vec![84u32, 85, 94, 95, 104, 105, 74, 75];
    let most = if variant == Variant::Salta { 4 } else { 5 };
    (
        4usize..=most,
        proptest::sample::subsequence(ids, 5).prop_shuffle(),
        proptest::sample::subsequence(squares, 5).prop_shuffle(),
    )
        .prop_map(move |(count, ids, squares)| place(variant, &ids[..count], &squares))
}

fn place(variant: Variant, ids: &[u8], squares: &[u32]) -> Position {
    let mut pos = Position::empty(salta(variant));
    let g = pos.geometry();
    for (&id, &n) in ids.iter().zip(squares) {
        if let Some(sq) = g.from_number(n) {
            pos.put(green(id), sq).expect("a free square");
        }
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn salta_search_equals_breadth_first(pos in small_position(Variant::Salta)) {
        let fast = exact_remaining(&pos, Color::Green, &Budget::default());
        prop_assert_eq!(fast.exact(), bfs_count(&pos, Color::Green), "{}", pos.to_setup());
    }

    #[test]
    fn winther_search_equals_breadth_first(pos in small_position(Variant::Winther)) {
        let fast = exact_remaining(&pos, Color::Green, &Budget::default());
        prop_assert_eq!(fast.exact(), bfs_count(&pos, Color::Green), "{}", pos.to_setup());
    }

    #[test]
    fn salta_corner_tangles_equal_breadth_first(pos in tangled_corner(Variant::Salta)) {
        let fast = exact_remaining(&pos, Color::Green, &Budget::default());
        prop_assert_eq!(fast.exact(), bfs_count(&pos, Color::Green), "{}", pos.to_setup());
    }

    #[test]
    fn winther_corner_tangles_equal_breadth_first(pos in tangled_corner(Variant::Winther)) {
        let fast = exact_remaining(&pos, Color::Green, &Budget::default());
        prop_assert_eq!(fast.exact(), bfs_count(&pos, Color::Green), "{}", pos.to_setup());
    }

    #[test]
    fn red_counts_like_the_mirrored_green(pos in small_position(Variant::Salta)) {
        let green = exact_remaining(&pos, Color::Green, &Budget::default());
        let red = exact_remaining(&pos.mirrored(), Color::Red, &Budget::default());
        prop_assert_eq!(green, red);
    }
}

#[test]
fn corner_swap_breadth_first_agrees() {
    // Suns 4 and 5 (h10, j10) swapped; j10 is reachable only from i9, where moon 5 stands at home.
    for variant in [Variant::Salta, Variant::Winther] {
        let pos = green_tangle(variant, &[(13, 105), (14, 104)]);
        let mut small = Position::empty(*pos.rules());
        for (piece, sq) in pos
            .pieces_of(Color::Green)
            .filter(|(p, _)| [8, 9, 12, 13, 14].contains(&p.id()))
        {
            small.put(piece, sq).expect("a free square");
        }
        let fast = exact_remaining(&small, Color::Green, &Budget::default());
        assert_eq!(fast.exact(), bfs_count(&small, Color::Green), "{variant:?}");
    }
}

/// Hand-made tangles: Green pieces standing on each other's targets in the goal zone.
fn tangles() -> Vec<(&'static str, Position)> {
    vec![
        ("home", green_tangle(Variant::Salta, &[])),
        (
            "sun 5 outside, behind the full corner",
            green_tangle(Variant::Salta, &[(14, 75)]),
        ),
        (
            "suns 4 and 5 swapped in the corner",
            green_tangle(Variant::Salta, &[(13, 105), (14, 104)]),
        ),
        (
            "star 1 and moon 1 swapped",
            green_tangle(Variant::Salta, &[(0, 91), (5, 81)]),
        ),
        (
            "sun 1 and star 1 swapped across the zone",
            green_tangle(Variant::Salta, &[(0, 101), (10, 81)]),
        ),
        (
            "three-cycle star 2 → moon 3 → sun 2 squares",
            green_tangle(
                Variant::Salta,
                &[(1, 73), (7, 82), (11, 93), (12, 102), (14, 75)],
            ),
        ),
        (
            "moons and suns of files c–g exchanged",
            green_tangle(Variant::Salta, &[(6, 102), (7, 103), (11, 92), (12, 93)]),
        ),
        (
            "winther: suns 4 and 5 swapped",
            green_tangle(Variant::Winther, &[(13, 105), (14, 104)]),
        ),
        (
            "winther: moons and suns of files c–g exchanged",
            green_tangle(Variant::Winther, &[(6, 102), (7, 103), (11, 92), (12, 93)]),
        ),
    ]
}

#[test]
fn hand_made_tangles() {
    let mut report = String::new();
    let mut beyond_chebyshev = 0;
    for (name, pos) in tangles() {
        let remaining = exact_remaining(&pos, Color::Green, &Budget::default());
        let free = pos.free_count(Color::Green);
        let exact = remaining
            .exact()
            .unwrap_or_else(|| panic!("{name}: {remaining:?}"));
        assert!(exact >= free, "{name}");
        if pos.rules().variant == Variant::Salta {
            assert_eq!(
                (exact - free) % 2,
                0,
                "{name}: Salta counts keep the parity of the distance sum"
            );
        }
        if exact > free {
            beyond_chebyshev += 1;
        }
        report.push_str(&format!(
            "{name}: {} | chebyshev {free} | exact {exact}\n",
            pos.to_setup()
        ));
    }
    assert!(beyond_chebyshev >= 3);
    insta::assert_snapshot!(report);
}

/// Full-zone scrambles from the ends of `salta generate` games (benches/data), with counts proven by
/// an earlier version of the search given 25 million states (up to 10 s each then): the pruning and
/// learning added since must reach the same counts.
#[test]
fn generate_scrambles_match_counts_proven_with_a_large_budget() {
    let green_home = "81,82,83,84,85,91,92,93,94,95,101,102,103,104,105";
    let red_home = "35,34,33,32,31,25,24,23,22,21,15,14,13,12,11";
    let known = [
        (
            Color::Red,
            format!("G/{green_home}/35,23,33,32,31,25,24,11,22,21,44,14,13,12,42/114"),
            28,
        ),
        (
            Color::Red,
            format!("G/{green_home}/44,34,33,32,31,25,15,11,22,42,35,14,13,12,21/118"),
            28,
        ),
        (
            Color::Red,
            format!("G/{green_home}/44,34,33,21,31,25,14,23,32,22,15,24,41,12,13/98"),
            30,
        ),
        (
            Color::Green,
            format!("G/101,82,102,84,85,91,71,93,94,95,92,104,103,83,105/{red_home}/192"),
            29,
        ),
    ];
    let budget = Budget::default().max_states(3_000_000).max_time(None);
    for (loser, setup, count) in known {
        let pos = Position::from_setup(&setup, Rules::default()).unwrap();
        let r = exact_remaining(&pos, loser, &budget);
        assert_eq!(r, Remaining::Exact(count), "{setup}");
    }
}

#[test]
fn remaining_serializes_plainly() {
    let json = serde_json::to_string(&[
        Remaining::Exact(27),
        Remaining::Bounds {
            lower: 25,
            upper: Some(31),
        },
        Remaining::Unreachable,
    ])
    .unwrap();
    assert_eq!(
        json,
        r#"[{"exact":27},{"bounds":{"lower":25,"upper":31}},"unreachable"]"#
    );
}

/// A time limit too far ahead for the clock to count (a library caller may pass any `Duration`) is
/// no limit, not a panic.
#[test]
fn a_time_limit_beyond_the_clock_is_no_limit() {
    let moved = [(1, 73), (7, 82), (11, 93), (12, 102), (14, 75)];
    // Pyramid pieces have no own targets (green_tangle's placement): ten of them part way home.
    let pyramid =
        Position::from_setup("G/84,83,82,81,73,72,64,53,44,42/", salta(Variant::Pyramid)).unwrap();
    for (variant, pos) in [
        (Variant::Salta, green_tangle(Variant::Salta, &moved)),
        (Variant::Winther, green_tangle(Variant::Winther, &moved)),
        (Variant::Pyramid, pyramid),
    ] {
        let endless = Budget::default().max_time(Some(Duration::MAX));
        assert_eq!(
            exact_remaining(&pos, Color::Green, &endless),
            exact_remaining(&pos, Color::Green, &Budget::default()),
            "{variant:?}"
        );
    }
}

#[test]
fn a_tiny_budget_gives_proven_bounds() {
    let pos = green_tangle(
        Variant::Salta,
        &[(1, 73), (7, 82), (11, 93), (12, 102), (14, 75)],
    );
    let exact = exact_remaining(&pos, Color::Green, &Budget::default())
        .exact()
        .unwrap();
    for max_states in [1, 10, 100, 1000] {
        let r = exact_remaining(
            &pos,
            Color::Green,
            &Budget::default().max_states(max_states).max_time(None),
        );
        let lower = r.lower().unwrap();
        assert!(
            lower >= pos.free_count(Color::Green) && lower <= exact,
            "{max_states}: {r:?}"
        );
        if let Some(upper) = r.upper() {
            assert!(upper >= exact, "{max_states}: {r:?}");
        }
    }
}

/// A full-zone scramble from the end of a `salta generate` game (benches/data; exactly 46, which
/// takes millions of states): far too hard for a few thousand states, yet the bounds come with an
/// upper one, of the right parity (every Salta move changes the distance sum by one).
#[test]
fn a_small_budget_on_a_full_zone_scramble_still_gives_both_bounds() {
    let setup = "G/81,82,83,84,85,91,92,93,94,95,101,102,103,104,105/\
                 35,13,24,32,31,64,53,44,54,21,34,23,15,12,14/121";
    let pos = Position::from_setup(setup, Rules::default()).unwrap();
    let free = pos.free_count(Color::Red);
    for max_states in [2_000, 20_000] {
        let budget = Budget::default().max_states(max_states).max_time(None);
        let r = exact_remaining(&pos, Color::Red, &budget);
        let (lower, upper) = r.bounds().expect("too hard for this budget");
        let upper = upper.expect("an upper bound");
        assert!(free < lower && lower < upper, "{max_states}: {r:?}");
        assert_eq!((upper - free) % 2, 0, "{max_states}: {r:?}");
        assert_eq!((lower - free) % 2, 0, "{max_states}: {r:?}");
    }
}

#[test]
fn complete_and_empty_sides() {
    let pos = green_tangle(Variant::Salta, &[]);
    assert_eq!(
        exact_remaining(&pos, Color::Green, &Budget::default()),
        Remaining::Exact(0)
    );
    let empty = Position::empty(Rules::default());
    assert_eq!(
        exact_remaining(&empty, Color::Green, &Budget::default()),
        Remaining::Unreachable
    );
}

#[test]
fn pyramid_counts_forward_steps_or_reports_unreachable() {
    let rules = Rules::of(Variant::Pyramid);
    let start = Position::start(rules);
    // Every forward step gains one rank: the count is the rank sum of the targets minus the start's.
    let g = start.geometry();
    let ranks = |set: salta::board::Bitboard| set.map(|sq| g.rank(sq) as u32).sum::<u32>();
    let expected = ranks(start.target_squares(Color::Green)) - ranks(start.pieces(Color::Green));
    assert_eq!(
        exact_remaining(&start, Color::Green, &Budget::default()),
        Remaining::Exact(expected)
    );
    // Rank 8's four targets are full and the fifth piece stands on h7, which is no target: it can
    // only move forward, into the full rank.
    let mut stuck = Position::empty(rules);
    for (id, n) in [81, 82, 83, 84, 74].into_iter().enumerate() {
        stuck
            .put(green(id as u8), g.from_number(n).unwrap())
            .expect("a free square");
    }
    assert_eq!(
        exact_remaining(&stuck, Color::Green, &Budget::default()),
        Remaining::Unreachable
    );
}

#[test]
fn full_zone_tangles_match_breadth_first() {
    // All fifteen pieces, so every home piece blocks; only shallow answers keep the plain search small.
    for variant in [Variant::Salta, Variant::Winther] {
        for moved in [&[(0, 91), (5, 81)][..], &[(4, 75)]] {
            let pos = green_tangle(variant, moved);
            let fast = exact_remaining(&pos, Color::Green, &Budget::default());
            assert_eq!(
                fast.exact(),
                bfs_count(&pos, Color::Green),
                "{variant:?} {}",
                pos.to_setup()
            );
        }
    }
}
