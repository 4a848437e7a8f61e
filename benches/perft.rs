//! Perft speed from the start position under the default rules (and the variants' starts).
//! Run with `cargo bench --bench perft`.

use salta::rules::{Position, Rules, perft};
use std::str::FromStr;

fn main() {
    divan::main();
}

/// Leaf nodes from the Salta start under the defaults; divan reports the time per full count.
#[divan::bench(args = [4, 5, 6])]
fn salta_start(bencher: divan::Bencher, depth: u32) {
    let pos = Position::start(Rules::default());
    let nodes = perft(&pos, depth);
    bencher
        .counter(divan::counter::ItemsCount::new(nodes))
        .bench(|| perft(divan::black_box(&pos), depth));
}

#[divan::bench(args = ["winther", "pyramid"])]
fn variant_start_depth_5(bencher: divan::Bencher, rules: &str) {
    let pos = Position::start(Rules::from_str(rules).expect("built-in rules parse"));
    let nodes = perft(&pos, 5);
    bencher
        .counter(divan::counter::ItemsCount::new(nodes))
        .bench(|| perft(divan::black_box(&pos), 5));
}
