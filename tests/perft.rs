//! Perft, and the main correctness guard of the engine: the reference generator of
//! `common/reference.rs` (plain loops written from the rules text) is compared with the engine
//! position by position over random playouts and placements of all three variants under every switch
//! combination, and perft by perft from each variant's start.

use crate::common::reference::{Grid, PASS, assert_agrees};
use crate::common::{Rng, all_rules, random_placement, sample_positions};
use salta::rules::{MoveKind, Position, Rules, perft, perft_divide};
use std::str::FromStr;

#[test]
fn perft_from_the_start_matches_rules_md() {
    let pos = Position::start(Rules::default());
    let expected = [9u64, 81, 891, 9801, 124515];
    for (depth, &nodes) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, depth as u32 + 1), nodes, "depth {}", depth + 1);
    }
}

#[test]
fn first_jumps_appear_at_ply_five() {
    // rules.md §7: 110 of the depth-5 leaves are jumps.
    fn jump_leaves(pos: &Position, depth: u32) -> u64 {
        let moves = pos.legal_moves();
        if depth == 1 {
            return moves.iter().filter(|m| m.kind() == MoveKind::Jump).count() as u64;
        }
        moves
            .iter()
            .map(|&m| jump_leaves(&pos.after_unchecked(m), depth - 1))
            .sum()
    }
    let pos = Position::start(Rules::default());
    assert_eq!((1..=4).map(|d| jump_leaves(&pos, d)).sum::<u64>(), 0);
    assert_eq!(jump_leaves(&pos, 5), 110);
}

#[test]
fn reference_perft_matches_rules_md() {
    // The reference generator itself reproduces the published table.
    let grid = Grid::of(&Position::start(Rules::default()));
    let expected = [9u64, 81, 891, 9801];
    for (depth, &nodes) in expected.iter().enumerate() {
        assert_eq!(grid.perft(depth as u32 + 1), nodes, "depth {}", depth + 1);
    }
}

#[test]
fn perft_divide_sums_to_perft() {
    let pos = Position::start(Rules::default());
    let divided = perft_divide(&pos, 4);
    assert_eq!(divided.len(), 9);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), perft(&pos, 4));
}

/// Perft of each variant's start under several switch settings, engine against reference.
#[test]
fn perft_of_every_variant_matches_the_reference() {
    let cases = [
        ("salta", 5),
        ("salta; jumps=any", 5),
        ("salta; precedence=jump-first; blockade=off", 5),
        ("winther", 5),
        ("winther; jumps=any", 5),
        ("winther; compulsory=off", 5),
        ("pyramid", 5),
        ("pyramid; jumps=any; compulsory=on", 5),
        ("pyramid; blockade=off", 5),
    ];
    for (text, depth) in cases {
        let rules = Rules::from_str(text).expect("rules");
        let pos = Position::start(rules);
        let grid = Grid::of(&pos);
        for d in 1..=depth {
            assert_eq!(perft(&pos, d), grid.perft(d), "{text}: perft {d}");
        }
    }
}

/// Regression figures for the variants' starts (each confirmed by the reference generator in
/// `perft_of_every_variant_matches_the_reference`).
#[test]
fn perft_of_the_variant_starts() {
    let winther = Position::start(Rules::from_str("winther").expect("rules"));
    let pyramid = Position::start(Rules::from_str("pyramid").expect("rules"));
    let w: Vec<u64> = (1..=5).map(|d| perft(&winther, d)).collect();
    let p: Vec<u64> = (1..=5).map(|d| perft(&pyramid, d)).collect();
    assert_eq!(w, WINTHER_PERFT);
    assert_eq!(p, PYRAMID_PERFT);
}

const WINTHER_PERFT: [u64; 5] = [9, 81, 810, 8100, 88900];
const PYRAMID_PERFT: [u64; 5] = [6, 38, 316, 2616, 23473];

/// The main guard: the engine's legal moves equal the reference's in every position of random
/// playouts (from the start) and random placements, under every switch combination.
#[test]
fn engine_agrees_with_reference_everywhere() {
    let mut checked = 0usize;
    for (i, rules) in all_rules().into_iter().enumerate() {
        for pos in sample_positions(rules, 1000 + i as u64, 12, 400) {
            assert_agrees(&pos);
            checked += 1;
        }
    }
    assert!(checked > 48 * 2000, "only {checked} positions checked");
}

/// Positions where the no-blockade rule bites are rare in playouts from the start; sparse random
/// placements produce many. Make sure the sample really exercises every branch.
#[test]
fn sample_exercises_the_blockade_branches() {
    let mut filtered = 0;
    let mut yielded = 0;
    let mut passes = 0;
    for rules in all_rules() {
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let pos = random_placement(rules, &mut rng);
            let grid = Grid::of(&pos);
            let legal = grid.legal();
            let keeping = legal
                .iter()
                .all(|&m| m.kind == MoveKind::Pass || grid.keeps_opponent_mobile(m));
            if rules.blockade && !legal.is_empty() && !keeping {
                yielded += 1;
            }
            if legal.contains(&PASS) {
                passes += 1;
            }
            let unrestricted = grid
                .with_rules({
                    let mut unrestricted = rules;
                    unrestricted.blockade = false;
                    unrestricted
                })
                .legal();
            if rules.blockade && keeping && legal != unrestricted {
                filtered += 1;
            }
            assert_agrees(&pos);
        }
    }
    assert!(
        filtered > 100 && yielded > 100 && passes > 100,
        "{filtered} {yielded} {passes}"
    );
}

/// The blockade-first fallback (every compulsory jump blockades, so the player steps) needs a jump
/// that shuts the jumped piece in, which only backward jumps (jumps=any) over a piece that cannot
/// step back (Winther outside its zone, Pyramid) can do. Random crowded placements find such
/// positions now and then: collect some and compare them under both precedences.
#[test]
fn blockade_fallback_positions_agree() {
    for (text, wanted) in [
        ("winther; jumps=any", 4),
        ("pyramid; jumps=any; compulsory=on", 40),
    ] {
        let rules = Rules::from_str(text).expect("rules");
        let jump_first = Rules::from_str(&format!("{text}; precedence=jump-first")).expect("rules");
        let mut rng = Rng::new(11);
        let mut found = 0;
        for _ in 0..300_000 {
            let pos = random_placement(rules, &mut rng);
            let grid = Grid::of(&pos);
            let jumps = grid.enemy_jumps(pos.side_to_move());
            let legal = grid.legal();
            if jumps.is_empty() || legal.iter().any(|m| jumps.contains(m)) {
                continue;
            }
            found += 1;
            assert_agrees(&pos);
            let other = Position::from_setup(&pos.to_setup(), jump_first)
                .expect("own Setup line reads back");
            assert_agrees(&other);
            // Under jump-first the compulsion wins: only jumps.
            assert!(
                other
                    .legal_moves()
                    .iter()
                    .all(|m| m.kind() == MoveKind::Jump),
                "{other:?}"
            );
            if found == wanted {
                break;
            }
        }
        assert_eq!(found, wanted, "{text}: too few fallback positions found");
    }
}
