use super::{CliError, write_output};
use salta::generate::generate_game;
use salta::notation::{WriteOptions, write_game};
use salta::rules::Rules;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// How many games.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Seed of the first game (game i uses seed + i), so output is reproducible.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rule set and switches, as in a Rules tag.
    #[arg(long)]
    rules: Option<String>,
    /// Moves per side after which games are adjudicated (1–10000, as in a MoveLimit tag).
    #[arg(long)]
    move_limit: Option<String>,
    /// Write to this file (through a temporary file and a rename) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut rules = match &args.rules {
        Some(text) => Rules::parse(text).map_err(|e| CliError::new(format!("--rules: {e}")))?,
        None => Rules::default(),
    };
    // Checked as the MoveLimit tag is, so every game written reads back valid.
    rules.move_limit = match &args.move_limit {
        Some(text) => Rules::parse_move_limit(text)
            .map_err(|e| CliError::new(format!("--move-limit: {e}")))?,
        None => None,
    };
    write_output(args.output.as_deref(), &[], |out| {
        for i in 0..args.games {
            let game = generate_game(args.seed.wrapping_add(i), rules);
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(write_game(&game.to_game(), &WriteOptions::default()).as_bytes())?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
