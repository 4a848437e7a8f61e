//! Games reaching a placement of pieces: `cargo run --example reaching_position -- SETUP PATH...`.
use salta::{extract::Selection, prelude::*};
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let setup = args.next().ok_or("usage: SETUP PATH...")?;
    let selection = Selection::default().reaches(Position::from_setup(&setup, Rules::default())?);
    let reaches = |g: &Game| selection.admits(g, &replay(g, &ReplayOptions::default()));
    let inputs = sgn_files(args);
    inputs.errors.iter().for_each(|e| eprintln!("skipped: {e}"));
    for file in &inputs.files {
        for (index, game) in read_path(file)?.enumerate() {
            match game {
                Ok(game) if reaches(&game) => println!("{} game {}", file.display(), index + 1),
                Ok(_) => {}
                Err(e) => eprintln!("{} game {}: {e}", file.display(), index + 1),
            }
        }
    }
    Ok(())
}
