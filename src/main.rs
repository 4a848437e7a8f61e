//! `salta`: the command-line tool over the salta library.

// print!/eprint! panic when the stream has gone (a closed pipe): output goes through the
// command's `Output` and diagnostics through `cli::to_stderr`, which end quietly instead.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

mod cli;

/// Game records of Salta (1899): check, convert, draw and adjudicate SGN records.
#[derive(Parser)]
#[command(name = "salta", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour the reports and errors: `auto` (on a terminal, unless NO_COLOR is set or TERM is
    /// `dumb`), `always` or `never`.
    #[arg(long, global = true, value_enum, default_value_t = cli::ColorWhen::Auto, value_name = "WHEN")]
    color: cli::ColorWhen,
}

#[derive(Subcommand)]
enum Command {
    /// Adjudicate a position of a game: completion, winner, margin, remaining counts, move limit.
    Adjudicate(cli::adjudicate::Args),
    /// Check games: every move, every compulsory jump and Salta! call, results and margins.
    Check(cli::check::Args),
    /// Convert records between notations, to and from YAML and JSON, and set games for print
    /// (LaTeX, PDF).
    Convert(cli::convert::Args),
    /// Draw a position for print or the terminal: text, SVG, PNG or TikZ.
    Diagram(Box<cli::diagram::Args>),
    /// Sort an archive: keep the clean games, set aside broken ones and duplicates, select by
    /// tags, length, result or a position reached.
    Extract(cli::extract::Args),
    /// Make reproducible synthetic games (for the corpus, benchmarks and fuzzing seeds).
    Generate(cli::generate::Args),
    /// Count the leaves of the legal-move tree (move-generator test and benchmark).
    Perft(cli::perft::Args),
    /// Print the completion script for a shell (bash, elvish, fish, powershell, zsh).
    Completions { shell: clap_complete::Shell },
    /// Print the manual page (roff): `salta man | man -l -`.
    Man,
    /// Repair transcription slips: write every game, the broken ones as most plausibly meant,
    /// each edit marked with a comment.
    Repair(cli::repair::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = cli.color;
    let result = match cli.command {
        Command::Adjudicate(args) => cli::adjudicate::run(args),
        Command::Check(args) => cli::check::run(args, color),
        Command::Convert(args) => cli::convert::run(args),
        Command::Diagram(args) => cli::diagram::run(*args),
        Command::Extract(args) => cli::extract::run(args),
        Command::Generate(args) => cli::generate::run(args),
        Command::Perft(args) => cli::perft::run(args),
        Command::Completions { shell } => cli::write_output(None, &[], |out| {
            clap_complete::generate(shell, &mut Cli::command(), "salta", out);
            Ok(())
        })
        .map(|_| ExitCode::SUCCESS),
        Command::Man => cli::write_output(None, &[], |out| {
            clap_mangen::Man::new(Cli::command()).render(out)
        })
        .map(|_| ExitCode::SUCCESS),
        Command::Repair(args) => cli::repair::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) if err.closed_pipe => ExitCode::SUCCESS,
        Err(err) => {
            use std::io::IsTerminal;
            let color = color.enabled(std::io::stderr().is_terminal());
            cli::to_stderr(salta::diagnostic::render(&err, color));
            ExitCode::from(2)
        }
    }
}
