//! Every finding, with the readings of a break: `cargo run --example check_records -- PATH...`.
use salta::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let inputs = sgn_files(std::env::args_os().skip(1));
    inputs.errors.iter().for_each(|e| eprintln!("skipped: {e}"));
    for file in &inputs.files {
        for (index, game) in read_path(file)?.enumerate() {
            let place = format!("{} game {}", file.display(), index + 1);
            match game.map(|game| check(&game, &ReplayOptions::default())) {
                Ok(checked) => checked
                    .findings
                    .iter()
                    .for_each(|d| println!("{place}: {d}")),
                Err(e) => println!("{place}: {e}"),
            }
        }
    }
    Ok(())
}
