use super::{CliError, Output};
use salta::diagnostic::{game_source, render};
use salta::export::structured::{GameDoc, rewrite};
use salta::notation::{Game, Notation, input_name, printable, read_path};
use salta::replay::{MarginPolicy, Replay, ReplayOptions, replay};
use serde::Deserialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

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

/// A game read from any of the input formats.
pub(super) enum Input {
    Record(Game),
    Doc(GameDoc),
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

/// Commits a conversion's output when every game was converted (exit code 0); otherwise a file
/// is left as it was (exit code 1), while what went to standard output or a device stays sent.
pub(super) fn finish(
    output: Output,
    path: Option<&Path>,
    failed: usize,
) -> Result<ExitCode, CliError> {
    if failed == 0 {
        output.commit()?;
        return Ok(ExitCode::SUCCESS);
    }
    match path.filter(|_| output.is_replacing()) {
        // Dropping the output removes the temporary file: a failed run changes nothing.
        Some(path) => super::say(
            "error",
            format_args!(
                "{} left as it was: {failed} game(s) or file(s) could not be converted",
                input_name(path)
            ),
        ),
        None => output.commit()?,
    }
    Ok(ExitCode::from(1))
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

/// Calls `each` with every game of an input file as it is read, or with the report (for stderr)
/// of what could not be read. SGN is read one game at a time; a YAML or JSON file (as this command
/// writes them) is read whole first.
pub(super) fn for_each_input(
    file: &Path,
    mut each: impl FnMut(Result<Input, String>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let extension = file
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let text = || std::fs::read_to_string(file).map_err(|e| format!("cannot read it: {e}"));
    let docs: Result<Vec<GameDoc>, String> = match extension.as_str() {
        "yaml" | "yml" => text().and_then(|t| {
            serde_yaml::Deserializer::from_str(&t)
                .map(|doc| {
                    GameDoc::deserialize(doc).map_err(|e| format!("not a game document: {e}"))
                })
                .collect()
        }),
        // Straight into the documents: a `serde_json::Value` would sort the tags by name.
        "json" => text().and_then(|t| {
            let result = if t.trim_start().starts_with('[') {
                serde_json::from_str::<Vec<GameDoc>>(&t)
            } else {
                serde_json::from_str::<GameDoc>(&t).map(|doc| vec![doc])
            };
            result.map_err(|e| format!("not a game document: {e}"))
        }),
        _ => {
            return match read_path(file) {
                Ok(mut reader) => reader.try_for_each(|item| {
                    each(item.map(Input::Record).map_err(|e| render(&e, false)))
                }),
                Err(e) => each(Err(unconverted(file, &e.to_string()))),
            };
        }
    };
    match docs {
        Ok(docs) => docs
            .into_iter()
            .try_for_each(|doc| each(Ok(Input::Doc(doc)))),
        Err(message) => each(Err(unconverted(file, &message))),
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
        "numeric" | "algebraic" | "piece" => Ok(rewrite(game, &replayed, notation)),
        "setups" => Ok(setups(&replayed)),
        "yaml" => serde_yaml::to_string(&GameDoc::new(&game, &replayed)).map_err(|e| e.to_string()),
        _ => {
            serde_json::to_string_pretty(&GameDoc::new(&game, &replayed)).map_err(|e| e.to_string())
        }
    }
    .map_err(|message| unconverted(file, &message))
}

/// The line on stderr for something of `file` that could not be converted.
pub(super) fn unconverted(file: &Path, message: &str) -> String {
    // A message may quote the file (a YAML or JSON parser's error does).
    format!(
        "error: {}: {}\n",
        input_name(file),
        printable(message, true)
    )
}

/// The game and its replay, or the report of why not (for stderr); replay errors are reported on
/// stderr as warnings about `file`.
pub(super) fn replay_input(
    input: Input,
    margins: MarginPolicy,
    file: &Path,
) -> Result<(Game, Replay), String> {
    let game = match input {
        Input::Record(game) => game,
        Input::Doc(doc) => doc
            .to_game()
            .map_err(|e| unconverted(file, &e.to_string()))?,
    };
    let replayed = replay(&game, &ReplayOptions::default().margins(margins));
    let source = game_source(&Arc::from("<game>"), 1, &game);
    for finding in replayed
        .findings()
        .iter()
        .filter(|f| f.severity == salta::replay::Severity::Error)
    {
        let (line, column) = finding
            .span
            .map(|s| source.location(s.start as usize))
            .unwrap_or((game.line, 1));
        let warning = format!(
            "warning: {}:{line}:{column}: {} ({}); converted as far as it replays",
            input_name(file),
            finding.message,
            finding.code
        );
        super::to_stderr(format_args!("{}\n", printable(&warning, false)));
    }
    Ok((game, replayed))
}

/// The Setup line of every main-line position, one per line: the start, then after each move.
fn setups(replayed: &Replay) -> String {
    let after_each_move = replayed.positions().map(|(_, _, pos)| pos);
    std::iter::once(*replayed.start())
        .chain(after_each_move)
        .map(|pos| pos.to_setup() + "\n")
        .collect()
}
