//! Games and moves of SGN files, read and not replayed: `cargo run --release --example count_games
//! -- FILE...`. Prints `games moves errors`. scripts/bench-check.sh times it as the reading-only
//! figure beside `grep -c .` and `salta check`.

use salta::notation::{Variation, read_path};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("usage: count_games FILE...");
        return ExitCode::from(2);
    }
    let (mut games, mut moves, mut errors) = (0usize, 0usize, 0usize);
    for path in &paths {
        let reader = match read_path(path) {
            Ok(reader) => reader,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        for game in reader {
            match game {
                Ok(game) => {
                    games += 1;
                    moves += count_moves(&game.mainline);
                }
                Err(_) => errors += 1,
            }
        }
    }
    println!("{games} {moves} {errors}");
    ExitCode::SUCCESS
}

/// Moves of a line and of its variations.
fn count_moves(line: &Variation) -> usize {
    line.moves
        .iter()
        .map(|m| 1 + m.variations().iter().map(count_moves).sum::<usize>())
        .sum()
}
