//! Writes the losers' positions at the end of games from [`salta::generate::generate_game`], one per
//! line as `LOSER SETUP` (e.g. `red G/81,…/…`), for the margin benchmark (benches/data/).
//!
//! `cargo run --release --example margin_positions -- [GAMES] [FIRST_SEED] > FILE` (defaults 1000, 1).
//! Games are generated without margins (the count is what the benchmark times); games that end
//! without a winner (draws, unfinished) are skipped, so seeds run on until GAMES positions are out.

use salta::generate::generate_game;
use salta::rules::Rules;
use std::io::Write;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let first_seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let rules = Rules::default();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(
        out,
        "# Losers' positions at the end of salta::generate games (rules: {rules}), seeds from {first_seed}."
    )?;
    writeln!(
        out,
        "# Made by scripts/make-margin-positions.sh; one `LOSER SETUP` per line."
    )?;
    let mut written = 0;
    let mut seed = first_seed;
    while written < games {
        let game = generate_game(seed, rules, None);
        seed += 1;
        let Some(winner) = game.outcome.and_then(|o| o.winner) else {
            continue;
        };
        let loser = winner.other();
        let pos = game.final_position;
        if pos.is_complete(loser) {
            continue;
        }
        writeln!(out, "{} {}", loser.name(), pos.to_setup())?;
        written += 1;
    }
    out.flush()
}
