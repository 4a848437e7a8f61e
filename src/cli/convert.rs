use super::inputs::{Input, finish, for_each_input, replay_input, unconverted};
use super::{CliError, Output};
use salta::export::structured::{GameDoc, rewrite};
use salta::notation::{Notation, Reader};
use salta::replay::{MarginPolicy, Replay};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Records to convert: SGN (.sgn), or YAML (.yaml, .yml) and JSON (.json) written by this command.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// What to write: canonical SGN in `numeric`, `algebraic` or `piece` notation, or the structured
    /// game in `yaml` (one document per game) or `json` (an array of games), or `setups`: one Setup
    /// line per position of the main line (the start, then after each move), `html`: a page to
    /// step through the games in a browser, or the games set for print as one `latex` document
    /// (needs only TikZ) or one `pdf`.
    #[arg(long, value_parser = ["numeric", "algebraic", "piece", "yaml", "json", "setups", "html", "latex", "pdf"])]
    to: String,
    /// Write to this file (through a temporary file and a rename) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    #[command(flatten)]
    page: super::html::PageArgs,
    #[command(flatten)]
    print: super::print::PrintArgs,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.to == "html" {
        return super::html::run(&args.files, args.output.as_deref(), &args.page);
    }
    if matches!(args.to.as_str(), "latex" | "pdf") {
        return super::print::run(&args.files, &args.to, args.output.as_deref(), &args.print);
    }
    let mut output = Output::open(args.output.as_deref(), &args.files)?;
    let mut games = GameWriter {
        out: output.writer(),
        target: args.to.as_str(),
        written: 0,
    };
    // Games and files that could not be converted.
    let mut failed = 0usize;
    let written = games.begin().and_then(|_| {
        for file in &args.files {
            for_each_input(file, |input| {
                match input.and_then(|input| convert(input, games.target, file)) {
                    Ok(text) => return games.write(&text),
                    Err(message) => super::to_stderr(message),
                }
                failed += 1;
                Ok(())
            })?;
        }
        games.end()
    });
    written.map_err(|e| output.failed(e))?;
    finish(output, args.output.as_deref(), failed)
}

/// Writes converted games one after the other, with what goes between them in the target format.
struct GameWriter<'a> {
    out: &'a mut dyn Write,
    target: &'a str,
    written: usize,
}

impl GameWriter<'_> {
    fn begin(&mut self) -> std::io::Result<()> {
        match self.target {
            "json" => self.out.write_all(b"["),
            _ => Ok(()),
        }
    }

    fn write(&mut self, text: &str) -> std::io::Result<()> {
        match self.target {
            "json" => self
                .out
                .write_all(if self.written == 0 { b"\n" } else { b",\n" })?,
            "yaml" => self.out.write_all(b"---\n")?,
            _ if self.written > 0 => self.out.write_all(b"\n")?,
            _ => {}
        }
        self.written += 1;
        self.out.write_all(text.as_bytes())
    }

    fn end(&mut self) -> std::io::Result<()> {
        match self.target {
            "json" => self.out.write_all(b"\n]\n"),
            _ => Ok(()),
        }
    }
}

/// One game in the target format, or the report of why it cannot be (for stderr); replay errors
/// are reported on stderr as warnings about `file`.
fn convert(input: Input, target: &str, file: &Path) -> Result<String, String> {
    let notation = match target {
        "algebraic" => Notation::Algebraic,
        "piece" => Notation::Piece,
        _ => Notation::Numeric,
    };
    // Only the documents carry the outcome, whose margin is the costly part of a replay.
    let margins = if matches!(target, "yaml" | "json") {
        MarginPolicy::WhenTagged
    } else {
        MarginPolicy::Never
    };
    let (game, replayed) = replay_input(input, margins, file)?;
    match target {
        "numeric" | "algebraic" | "piece" => reads_back(rewrite(game, &replayed, notation)),
        "setups" => Ok(setups(&replayed)),
        "yaml" => serde_yaml::to_string(&GameDoc::new(&game, &replayed)).map_err(|e| e.to_string()),
        _ => {
            serde_json::to_string_pretty(&GameDoc::new(&game, &replayed)).map_err(|e| e.to_string())
        }
    }
    .map_err(|message| unconverted(file, &message))
}

/// A game written as SGN, if the reader takes it back as one game: a document may hold what no
/// record may (a tag of 20 MB), and a record nobody can read is no conversion.
fn reads_back(text: String) -> Result<String, String> {
    match Reader::new(text.as_bytes()).next() {
        Some(Ok(_)) => Ok(text),
        Some(Err(e)) => Err(format!(
            "written as SGN the game would not read back: {} ({})",
            e.message, e.code
        )),
        None => Err("written as SGN the game would not read back".to_string()),
    }
}

/// The Setup line of every main-line position, one per line: the start, then after each move.
fn setups(replayed: &Replay) -> String {
    let after_each_move = replayed.positions().map(|(_, _, pos)| pos);
    std::iter::once(*replayed.start())
        .chain(after_each_move)
        .map(|pos| pos.to_setup() + "\n")
        .collect()
}
