//! Exact margin counts (rules.md §5) on hand-made tangles and on the final positions of self-play
//! games (greedy self-play and `salta generate`). Per-position percentiles and peak memory over 1,000
//! positions of each: scripts/bench-margin.sh.

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
        let piece = Piece::new(Color::Green, id).expect("15 pieces");
        let square = moved
            .iter()
            .find(|m| m.0 == id)
            .and_then(|m| g.from_number(m.1));
        pos.put(piece, square.unwrap_or(pos.target(piece)))
            .expect("a free square");
        let red = Piece::new(Color::Red, id).expect("15 pieces");
        pos.put(red, pos.target(red)).expect("a free target");
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
    count_all(bencher, game_ends(20));
}

/// Counts every position's remaining moves per iteration.
fn count_all(bencher: divan::Bencher, positions: Vec<(Position, Color)>) {
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

/// The first `count` positions of benches/data/margin-generate-1000.txt (the ends of
/// `salta generate` games, `LOSER SETUP` per line).
fn generated_ends(count: usize) -> Vec<(Position, Color)> {
    let text = include_str!("data/margin-generate-1000.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|line| {
            let (loser, setup) = line.split_once(' ')?;
            let loser = Color::ALL.into_iter().find(|c| c.name() == loser)?;
            Some((Position::from_setup(setup, Rules::default()).ok()?, loser))
        })
        .take(count)
        .collect()
}

/// Twenty ends of `salta generate` games per iteration.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn generated_ends_20(bencher: divan::Bencher) {
    let positions = generated_ends(20);
    assert_eq!(positions.len(), 20, "benches/data/margin-generate-1000.txt");
    count_all(bencher, positions);
}
