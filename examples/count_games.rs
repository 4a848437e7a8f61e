//! Games and moves of SGN files, read through a [`Visitor`] and not replayed: `cargo run --release
//! --example count_games -- FILE...`. Prints `games moves errors` (moves of the main lines and of
//! the variations). Nothing is copied out of the reader's buffer. scripts/bench-check.sh times it
//! as the reading-only figure beside `grep -c .` and `salta check`.

use salta::notation::{GameResult, Span, Visitor, WrittenMove, read_path};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

/// Counts the moves of a game, its output.
#[derive(Default)]
struct Count {
    moves: usize,
}

impl Visitor for Count {
    type Output = usize;

    fn played(&mut self, _: WrittenMove) -> ControlFlow<usize> {
        self.moves += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Option<(GameResult, Span)>) -> usize {
        std::mem::take(&mut self.moves)
    }
}

fn main() -> ExitCode {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("usage: count_games FILE...");
        return ExitCode::from(2);
    }
    let (mut games, mut moves, mut errors) = (0usize, 0usize, 0usize);
    let mut count = Count::default();
    for path in &paths {
        let mut reader = match read_path(path) {
            Ok(reader) => reader,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        while let Some(game) = reader.read_game(&mut count) {
            match game {
                Ok(n) => {
                    games += 1;
                    moves += n;
                }
                Err(_) => errors += 1,
            }
        }
    }
    println!("{games} {moves} {errors}");
    ExitCode::SUCCESS
}
