//! Plies and jumps of each game's main line: `cargo run --example jumps_per_game -- PATH...`.
use salta::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let inputs = sgn_files(std::env::args_os().skip(1));
    inputs.errors.iter().for_each(|e| eprintln!("skipped: {e}"));
    for file in &inputs.files {
        for (index, game) in read_path(file)?.enumerate() {
            let (name, index) = (file.display(), index + 1);
            match game.map(|game| replay(&game, &ReplayOptions::default()).moves().to_vec()) {
                Ok(moves) => {
                    let jumps = moves.iter().filter(|m| m.is_jump()).count();
                    println!("{name}\t{index}\t{}\t{jumps}", moves.len());
                }
                Err(e) => eprintln!("{name} game {index}: {e}"),
            }
        }
    }
    Ok(())
}
