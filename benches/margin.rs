//! Exact margin counts (rules.md §5) on hand-made tangles and on the final positions of self-play
//! games. Per-position percentiles and peak memory over 1,000 games: scripts/bench-margin.sh.

use salta::board::Color;
use salta::rules::margin::{Budget, exact_remaining, greedy_game_end};
use salta::rules::{Piece, Position, Rules};

fn main() {
    divan::main();
}

/// Green at home except the listed (piece id, square number) pieces; Red complete.
fn green_tangle(moved: &[(u8, u32)]) -> Position {
    let mut pos = Position::empty(Rules::default());
    let g = pos.geometry();
    for id in 0..15 {
        let piece = Piece::new(Color::Green, id);
        let square = moved
            .iter()
            .find(|m| m.0 == id)
            .and_then(|m| g.from_number(m.1));
        pos.put(piece, square.unwrap_or(pos.target(piece)));
        let red = Piece::new(Color::Red, id);
        pos.put(red, pos.target(red));
    }
    pos
}

const TANGLES: [(&str, &[(u8, u32)]); 4] = [
    ("corner swap", &[(13, 105), (14, 104)]),
    ("star and sun across the zone", &[(0, 101), (10, 81)]),
    (
        "three-cycle",
        &[(1, 73), (7, 82), (11, 93), (12, 102), (14, 75)],
    ),
    (
        "moons and suns exchanged",
        &[(6, 102), (7, 103), (11, 92), (12, 93)],
    ),
];

#[divan::bench(args = TANGLES.iter().map(|t| t.0))]
fn hand_made(bencher: divan::Bencher, name: &str) {
    let moved = TANGLES
        .iter()
        .find(|t| t.0 == name)
        .map_or(&[][..], |t| t.1);
    let pos = green_tangle(moved);
    bencher.bench(|| exact_remaining(divan::black_box(&pos), Color::Green, &Budget::default()));
}

/// Losers' positions at the end of the first `count` completed self-play games.
fn game_ends(count: usize) -> Vec<(Position, Color)> {
    (1..)
        .filter_map(|seed| greedy_game_end(Rules::default(), seed, 2000))
        .take(count)
        .collect()
}

/// Twenty game ends per iteration (the full thousand is the script's job: a single pass is enough
/// there, and divan repeats).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn game_ends_20(bencher: divan::Bencher) {
    let positions = game_ends(20);
    bencher.bench(|| {
        positions
            .iter()
            .map(|(pos, loser)| {
                exact_remaining(pos, *loser, &Budget::default())
                    .lower()
                    .unwrap_or(0)
            })
            .sum::<u32>()
    });
}
