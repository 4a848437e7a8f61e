//! Perft speed: `cargo run --release --example perft -- [DEPTH] [RUNS] [RULES]`.
//!
//! Counts the legal-move tree from the start position `RUNS` times (default depth 7, 5 runs, the
//! default rules) and prints each run's leaf nodes, seconds and millions of leaf nodes per second,
//! then the median.

use salta::rules::{Position, Rules, perft};
use std::str::FromStr;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = args.first().and_then(|a| a.parse().ok()).unwrap_or(7u32);
    let runs = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5usize)
        .max(1);
    let rules = match args.get(2).map(|text| Rules::from_str(text)) {
        None => Rules::default(),
        Some(Ok(rules)) => rules,
        Some(Err(e)) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let start = Position::start(rules);
    let mut rates = Vec::with_capacity(runs);
    for run in 1..=runs {
        let clock = Instant::now();
        let nodes = perft(&start, depth);
        let seconds = clock.elapsed().as_secs_f64();
        let mnps = nodes as f64 / seconds / 1e6;
        println!(
            "run {run}: perft {depth} ({rules}) = {nodes} nodes in {seconds:.3} s: {mnps:.1} Mnps"
        );
        rates.push(mnps);
    }
    rates.sort_by(f64::total_cmp);
    println!("median: {:.1} Mnps", rates[rates.len() / 2]);
}
