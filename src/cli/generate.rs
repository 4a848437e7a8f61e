use super::{CliError, write_output};
use rayon::prelude::*;
use salta::generate::{generate_game, rules_that_finish};
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
    /// Moves per side after which games are adjudicated (1–10000, as in a MoveLimit tag), or
    /// Green's and Red's as `100/120`.
    #[arg(long)]
    move_limit: Option<String>,
    /// Move odds, as in an Odds tag: `red 3:2` = Red makes 3 moves for every 2 of Green's.
    #[arg(long)]
    odds: Option<String>,
    /// Do not count margins (much faster for large archives; games get no Margin tag).
    #[arg(long)]
    no_margins: bool,
    /// Write to this file (through a temporary file and a rename) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut rules = super::rules_from_args(args.rules.as_deref())?;
    // Checked as the MoveLimit and Odds tags are, so every game written reads back valid.
    if let Some(text) = &args.move_limit {
        rules.move_limit = super::move_limit_from_args(text)?;
    }
    if let Some(text) = &args.odds {
        rules.odds = super::odds_from_args(text)?;
    }
    if rules_that_finish(rules) != rules {
        super::warn(format_args!(
            "games under jumps=any can cycle for ever (two pieces jumping over each other back \
             and forth); they are played with the 120-move rule and say so in a MoveLimit tag \
             (--move-limit sets another)"
        ));
    }
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
                    generate_game(seed, rules, margins)
                        .to_record()
                        .map(|r| r.text())
                })
                .collect::<Result<_, _>>()
                .map_err(|e| {
                    std::io::Error::other(format!("a generated game broke the rules: {e}"))
                })?;
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
