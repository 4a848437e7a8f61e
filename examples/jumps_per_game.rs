//! Jumps per game across an archive: `cargo run --example jumps_per_game -- PATH...`.
//!
//! Reads every `.sgn` file under the given files and folders, replays each game's main line and
//! prints one line per game: file, game number, plies played, jumps among them and their share.
//! Games that cannot be read are reported on stderr with the reader's diagnostic, and counted.

use salta::archive::sgn_files;
use salta::notation::read_path;
use salta::replay::{MarginPolicy, ReplayOptions, replay};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("usage: jumps_per_game PATH...");
        return ExitCode::from(2);
    }
    // Only the moves are wanted: no margin searches, no per-move bookkeeping for variations.
    let options = ReplayOptions::default()
        .margins(MarginPolicy::Never)
        .summary_only(true);
    // Skipped files (not regular, a folder read twice) count as problems here.
    let found = sgn_files(&paths);
    let (files, mut problems) = (found.files, found.errors);
    problems.extend(found.notes);
    let (mut games, mut plies, mut jumps) = (0usize, 0usize, 0usize);
    println!("file\tgame\tplies\tjumps\tshare");
    for file in &files {
        let reader = match read_path(file) {
            Ok(reader) => reader,
            Err(e) => {
                problems.push(format!("{}: {e}", file.display()));
                continue;
            }
        };
        for (index, game) in reader.enumerate() {
            let game = match game {
                Ok(game) => game,
                Err(e) => {
                    problems.push(format!(
                        "{} game {}: {e} ({})",
                        file.display(),
                        index + 1,
                        e.code
                    ));
                    continue;
                }
            };
            let replayed = replay(&game, &options);
            let game_jumps = replayed.moves().iter().filter(|m| m.is_jump()).count();
            let game_plies = replayed.moves().len();
            let share = 100.0 * game_jumps as f64 / game_plies.max(1) as f64;
            println!(
                "{}\t{}\t{game_plies}\t{game_jumps}\t{share:.1} %",
                file.display(),
                index + 1
            );
            (games, plies, jumps) = (games + 1, plies + game_plies, jumps + game_jumps);
        }
    }
    let share = 100.0 * jumps as f64 / plies.max(1) as f64;
    println!("all\t{games}\t{plies}\t{jumps}\t{share:.1} %");
    for problem in &problems {
        eprintln!("skipped: {problem}");
    }
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
