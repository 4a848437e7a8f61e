use salta::generate::generate_game;
use salta::rules::Rules;
use std::collections::BTreeMap;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let limit: Option<u16> = std::env::args().nth(2).and_then(|s| s.parse().ok());
    let mut stats = BTreeMap::new();
    let mut plies = 0;
    let t = std::time::Instant::now();
    for seed in 0..n {
        let mut rules = Rules::default();
        rules.move_limit = limit;
        let g = generate_game(seed, rules);
        plies += g.moves.len();
        let key = g
            .outcome
            .map(|o| format!("{:?}", o.reason))
            .unwrap_or("unfinished".into());
        *stats.entry(key).or_insert(0) += 1;
    }
    println!(
        "{stats:?} avg plies {} in {:?}",
        plies as u64 / n,
        t.elapsed()
    );
}
