//! Times the exact margin count on the final positions of self-play games and prints percentiles.
//!
//! `cargo run --release --example margin_stats -- [GAMES] [FIRST_SEED]` (defaults 1000, 1); run it
//! under `/usr/bin/time -v` for the peak memory (scripts/bench-margin.sh does both).

use salta::rules::Rules;
use salta::rules::margin::{Budget, Remaining, exact_remaining, greedy_game_end};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let first_seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let rules = Rules::default();
    let mut budget = Budget::default();
    if let Some(secs) = args.next().and_then(|a| a.parse::<u64>().ok()) {
        budget = Budget {
            max_states: 10_000_000 * secs,
            max_time: Some(Duration::from_secs(secs)),
        };
    }
    if let Ok(setup) = std::env::var("SETUP") {
        // One position: `SETUP='G/81,…/…' margin_stats 0 0 SECONDS`.
        let Ok(pos) = salta::rules::Position::from_setup(&setup, rules) else {
            return;
        };
        for color in [salta::board::Color::Green, salta::board::Color::Red] {
            if !pos.is_complete(color) {
                let started = Instant::now();
                let remaining = exact_remaining(&pos, color, &budget);
                println!(
                    "{color}: free {}  {remaining:?}  {:?}",
                    pos.free_count(color),
                    started.elapsed()
                );
            }
        }
        return;
    }
    let mut times = Vec::new();
    let mut not_exact = 0;
    let mut worst: Vec<(Duration, String, u32, Remaining)> = Vec::new();
    let mut excess_hist = std::collections::BTreeMap::new();
    let mut seed = first_seed;
    while (times.len() as u64) < games {
        seed += 1;
        let Some((pos, loser)) = greedy_game_end(rules, seed, 2000) else {
            continue;
        };
        let started = Instant::now();
        let remaining = exact_remaining(&pos, loser, &budget);
        let took = started.elapsed();
        times.push(took);
        let free = pos.free_count(loser);
        match remaining.exact() {
            Some(n) => *excess_hist.entry(n as i64 - free as i64).or_insert(0) += 1,
            None => not_exact += 1,
        }
        worst.push((took, pos.to_setup(), free, remaining));
    }
    times.sort();
    let pct = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
    println!("positions: {}  not exact: {not_exact}", times.len());
    println!(
        "p50 {:?}  p90 {:?}  p99 {:?}  max {:?}",
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    println!("exact minus Chebyshev sum: {excess_hist:?}");
    worst.sort_by_key(|w| std::cmp::Reverse(w.0));
    for (took, setup, free, remaining) in worst.iter().take(5) {
        println!("{took:?}  free {free}  {remaining:?}  {setup}");
    }
}
