use super::{CliError, write_output};
use rayon::prelude::*;
use salta::generate::generate_game;
use salta::notation::{WriteOptions, write_game};
use salta::rules::Rules;
use salta::rules::margin::Budget;
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
    /// Do not count margins (much faster for large archives; games get no Margin tag).
    #[arg(long)]
    no_margins: bool,
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
    let margins = (!args.no_margins).then(Budget::default);
    write_output(args.output.as_deref(), &[], |out| {
        // Games are independent: play a chunk in parallel, then write it in seed order.
        const CHUNK: u64 = 256;
        let mut first = args.seed;
        let end = args.seed.saturating_add(args.games);
        let mut separate = false;
        while first < end {
            let last = first.saturating_add(CHUNK).min(end);
            let texts: Vec<String> = (first..last)
                .into_par_iter()
                .map(|seed| {
                    write_game(
                        &generate_game(seed, rules, margins).to_game(),
                        &WriteOptions::default(),
                    )
                })
                .collect();
            for text in texts {
                if separate {
                    out.write_all(b"\n")?;
                }
                out.write_all(text.as_bytes())?;
                separate = true;
            }
            first = last;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
