//! Games that reach a position: `cargo run --example reaching_position -- SETUP PATH...`.
//!
//! SETUP is a Setup line (`G/11,32,…/105,104,…/21`) under the default Salta rules. Every game of the
//! `.sgn` files under PATH whose main line passes through that placement of pieces (the side to move
//! aside) is listed with its file, number and players, through the same selection as
//! `salta extract --reaches`. Games that cannot be read are reported on stderr.

use salta::archive::sgn_files;
use salta::extract::Selection;
use salta::notation::read_path;
use salta::replay::{MarginPolicy, ReplayOptions, replay};
use salta::rules::{Position, Rules};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(setup), paths) = (args.next(), args.map(PathBuf::from).collect::<Vec<_>>()) else {
        eprintln!("usage: reaching_position SETUP PATH...");
        return ExitCode::from(2);
    };
    let wanted = match Position::from_setup(&setup, Rules::default()) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{setup:?}: {e}");
            return ExitCode::from(2);
        }
    };
    let selection = Selection::default().reaches(wanted);
    let options = ReplayOptions::default()
        .margins(MarginPolicy::Never)
        .summary_only(true);
    // Skipped files (not regular, a folder read twice) count as problems here.
    let found = sgn_files(&paths);
    let (files, mut problems) = (found.files, found.errors);
    problems.extend(found.notes);
    let mut found = 0;
    for file in &files {
        let reader = match read_path(file) {
            Ok(reader) => reader,
            Err(e) => {
                problems.push(format!("{}: {e}", file.display()));
                continue;
            }
        };
        for (index, game) in reader.enumerate() {
            match game {
                Ok(game) if selection.admits(&game, &replay(&game, &options)) => {
                    found += 1;
                    let players = [game.tag("Green"), game.tag("Red")].map(|p| p.unwrap_or("?"));
                    println!(
                        "{} game {}: {} – {}",
                        file.display(),
                        index + 1,
                        players[0],
                        players[1]
                    );
                }
                Ok(_) => {}
                Err(e) => problems.push(format!("{} game {}: {e}", file.display(), index + 1)),
            }
        }
    }
    eprintln!("{found} games reach the position");
    for problem in &problems {
        eprintln!("skipped: {problem}");
    }
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
