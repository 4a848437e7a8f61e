use super::{CliError, write_output};
use salta::archive::{game_source, render};
use salta::export::structured::{GameDoc, rewrite};
use salta::notation::{Game, Notation, read_path};
use salta::replay::{MarginPolicy, Replay, ReplayOptions, replay};
use serde::Deserialize;
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
    let mut failed = 0usize;
    let target = args.to.as_str();
    write_output(args.output.as_deref(), &args.files, |out| {
        let mut count = 0usize;
        if target == "json" {
            out.write_all(b"[")?;
        }
        for file in &args.files {
            for input in read_inputs(file, &mut failed) {
                let text = match convert(input, target, file) {
                    Ok(text) => text,
                    Err(message) => {
                        eprintln!("error: {}: {message}", file.display());
                        failed += 1;
                        continue;
                    }
                };
                match target {
                    "json" => out.write_all(if count == 0 { b"\n" } else { b",\n" })?,
                    "yaml" => out.write_all(b"---\n")?,
                    _ if count > 0 => out.write_all(b"\n")?,
                    _ => {}
                }
                out.write_all(text.as_bytes())?;
                count += 1;
            }
        }
        if target == "json" {
            out.write_all(b"\n]\n")?;
        }
        Ok(())
    })?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The games of one input file; what cannot be read is reported on stderr and counted.
pub(super) fn read_inputs(file: &Path, failed: &mut usize) -> Vec<Input> {
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
        _ => return read_records(file, failed),
    };
    match docs {
        Ok(docs) => docs.into_iter().map(Input::Doc).collect(),
        Err(message) => {
            eprintln!("error: {}: {message}", file.display());
            *failed += 1;
            Vec::new()
        }
    }
}

fn read_records(file: &Path, failed: &mut usize) -> Vec<Input> {
    let reader = match read_path(file) {
        Ok(r) => r.with_name(file.display().to_string()),
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            *failed += 1;
            return Vec::new();
        }
    };
    let mut games = Vec::new();
    for item in reader {
        match item {
            Ok(game) => games.push(Input::Record(game)),
            Err(e) => {
                eprint!("{}", render(&e, false));
                *failed += 1;
            }
        }
    }
    games
}

/// One game in the target format; replay errors are reported on stderr as warnings about `file`.
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
}

/// The game and its replay; replay errors are reported on stderr as warnings about `file`.
pub(super) fn replay_input(
    input: Input,
    margins: MarginPolicy,
    file: &Path,
) -> Result<(Game, Replay), String> {
    let game = match input {
        Input::Record(game) => game,
        Input::Doc(doc) => doc.to_game().map_err(|e| e.to_string())?,
    };
    let replayed = replay(
        &game,
        &ReplayOptions {
            margins,
            ..ReplayOptions::default()
        },
    );
    let source = game_source(&Arc::from("<game>"), 1, &game);
    for finding in replayed
        .findings
        .iter()
        .filter(|f| f.severity == salta::replay::Severity::Error)
    {
        let (line, column) = finding
            .span
            .map(|s| source.location(s.start as usize))
            .unwrap_or((game.line, 1));
        eprintln!(
            "warning: {}:{line}:{column}: {} ({}); converted as far as it replays",
            file.display(),
            finding.message,
            finding.code
        );
    }
    Ok((game, replayed))
}

/// The Setup line of every main-line position, one per line: the start, then after each move.
fn setups(replayed: &Replay) -> String {
    let mut pos = replayed.start;
    let mut out = pos.to_setup();
    out.push('\n');
    for &m in &replayed.moves {
        pos.play(m);
        out.push_str(&pos.to_setup());
        out.push('\n');
    }
    out
}
