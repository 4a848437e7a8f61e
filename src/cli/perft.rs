use super::{CliError, Output, odds_from_args, position_from_args, rules_from_args};
use salta::notation::Notation;
use salta::rules::{Referee, perft, perft_divide};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Plies to search.
    depth: u32,
    /// Start from this position (a Setup line, notation.md) instead of the standard start.
    #[arg(long)]
    setup: Option<String>,
    /// Rule set and switches, as in a Rules tag: `salta`, `winther`, `pyramid; compulsory=on`, …
    #[arg(long)]
    rules: Option<String>,
    /// Move odds, as in an Odds tag: `red 3:2` = Red makes 3 moves for every 2 of Green's.
    #[arg(long)]
    odds: Option<String>,
    /// Print the leaf count under each first move.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut rules = rules_from_args(args.rules.as_deref())?;
    if let Some(text) = &args.odds {
        rules.odds = odds_from_args(text)?;
    }
    let pos = position_from_args(rules, args.setup.as_deref(), "--setup")?;
    if args.depth > 12 {
        return Err(CliError::new(format!("depth {} is too deep", args.depth))
            .with_help("use a depth of 12 or less"));
    }
    if let Some(outcome) = Referee::new(&pos, None).outcome() {
        super::warn(format!(
            "the game has ended in this position ({}): it has no moves to count",
            outcome.reason.describe()
        ));
    }
    let mut output = Output::stdout();
    let out = output.writer();
    let written = if args.divide {
        let g = pos.geometry();
        let mut total = 0;
        perft_divide(&pos, args.depth)
            .into_iter()
            .try_for_each(|(m, count)| {
                total += count;
                writeln!(out, "{}: {count}", Notation::Numeric.move_text(m, g))
            })
            .and_then(|_| writeln!(out, "total: {total}"))
    } else {
        // Each depth as soon as it is counted: the deep ones take a while.
        (1..=args.depth).try_for_each(|depth| {
            writeln!(out, "depth {depth}: {}", perft(&pos, depth))?;
            out.flush()
        })
    };
    written.map_err(|e| output.failed(e))?;
    output.commit()?;
    Ok(ExitCode::SUCCESS)
}
