//! `salta`: the command-line tool over the salta library.

// print!/eprint! panic when the stream has gone (a closed pipe): output goes through the
// command's `Output` and diagnostics through `cli::to_stderr`, which end quietly instead.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
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
    /// Serve editors as a language server (LSP over standard input and output) for *.sgn records:
    /// diagnostics, quick fixes, hover, completion, outline, formatting.
    Lsp(cli::lsp::Args),
    /// Count the leaves of the legal-move tree (move-generator test and benchmark).
    Perft(cli::perft::Args),
    /// Print the completion script for a shell (bash, elvish, fish, powershell, zsh).
    Completions { shell: clap_complete::Shell },
    /// Print the manual page (roff): `salta man | man -l -`.
    Man,
    /// Repair transcription slips: write every game, the broken ones as most plausibly meant,
    /// each edit marked with a comment, and those read past misread move numbers and specks as
    /// read, clean.
    Repair(cli::repair::Args),
}

fn main() -> ExitCode {
    cli::started();
    // Before any thread starts, so that every thread leaves the signals to the one that removes
    // temporary files.
    cli::signals::install();
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let color = cli.color;
    let result = match cli.command {
        Command::Adjudicate(args) => cli::adjudicate::run(args),
        Command::Check(args) => cli::check::run(args, color),
        Command::Convert(args) => cli::convert::run(args),
        Command::Diagram(args) => cli::diagram::run(*args, color),
        Command::Extract(args) => cli::extract::run(args),
        Command::Generate(args) => cli::generate::run(args),
        Command::Lsp(args) => cli::lsp::run(args),
        Command::Perft(args) => cli::perft::run(args),
        Command::Completions { shell } => cli::write_output(None, &[], |out| {
            // clap_complete panics when its writer fails (a closed pipe, a full disk): the script
            // is made in memory and written here, where a failure is an error like any other.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "salta", &mut script);
            out.write_all(&script)
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
        Err(err) => report(&err, color),
    }
}

/// Reports a command's error on stderr: exit code 2.
fn report(err: &cli::CliError, color: cli::ColorWhen) -> ExitCode {
    use std::io::IsTerminal;
    let color = color.enabled(std::io::stderr().is_terminal());
    cli::to_stderr(salta::render::render(err, color));
    ExitCode::from(2)
}

/// The command line, or the exit code after clap's own output: a usage error (stderr, 2), or
/// `--help` and `--version` (stdout, 0). Both are coloured as `--color` says (clap alone would
/// colour them on a terminal whatever it says), and a failed write of the help is an error (2),
/// not a silent success.
fn parse() -> Result<Cli, ExitCode> {
    use std::io::IsTerminal;
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let color = cli::color_in_args(&args);
    let mut command = Cli::command();
    let error = match command
        .try_get_matches_from_mut(&args)
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => return Ok(cli),
        Err(error) => error,
    };
    let text = error.render();
    let on_stderr = error.use_stderr();
    let coloured = if on_stderr {
        color.enabled(std::io::stderr().is_terminal())
    } else {
        color.enabled(std::io::stdout().is_terminal())
    };
    let text = if coloured {
        text.ansi().to_string()
    } else {
        text.to_string()
    };
    if on_stderr {
        cli::to_stderr(text);
        return Err(ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2)));
    }
    match cli::write_output(None, &[], |out| out.write_all(text.as_bytes())) {
        Ok(()) => Err(ExitCode::SUCCESS),
        Err(err) if err.closed_pipe => Err(ExitCode::SUCCESS),
        Err(err) => Err(report(&err, color)),
    }
}
