//! Transcription repair: accuracy per kind of slip and time per record, then the search timed by
//! divan on one slipped historical record. `scripts/bench-repair.sh` runs it.

use salta::repair::inject::{inject, test_records, trial_run};
use salta::repair::{SlipKind, analyse};
use std::path::Path;
use std::time::Duration;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = test_records(root).expect("the corpus is readable");
    let seeds: u64 = std::env::var("SALTA_REPAIR_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let trials = trial_run(&games, 0..seeds);
    println!("kind                caught at    slips  top-1   top-3");
    for kind in SlipKind::ALL {
        for later in [false, true] {
            let of: Vec<_> = trials
                .iter()
                .filter(|(k, _, v)| *k == kind && v.caught_later == later)
                .collect();
            if of.is_empty() {
                continue;
            }
            let top = |n: usize| {
                let hits = of
                    .iter()
                    .filter(|(_, _, v)| v.rank.is_some_and(|r| r < n))
                    .count();
                100.0 * hits as f64 / of.len() as f64
            };
            println!(
                "{:<19} {:<12} {:>5}  {:>5.1}%  {:>5.1}%",
                kind.name(),
                if later { "a later ply" } else { "its own ply" },
                of.len(),
                top(1),
                top(3)
            );
        }
    }
    let mut times: Vec<Duration> = trials.iter().map(|(_, _, v)| v.search).collect();
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "time per record ({} records): median {:.2?}, p99 {:.2?}, max {:.2?}",
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
    divan::main();
}

#[divan::bench]
fn historical_file_or_rank_misread(bencher: divan::Bencher) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = test_records(root).expect("the corpus is readable");
    // The historical record is algebraic; not every seed finds a misreading that breaks it.
    let slipped = (0..100)
        .find_map(|seed| inject(&games[0], SlipKind::AlgebraicMisread, seed))
        .expect("a slip can be made");
    let opts = salta::repair::inject::quick_options();
    bencher.bench(|| analyse(divan::black_box(&slipped.game), &opts, 1));
}
