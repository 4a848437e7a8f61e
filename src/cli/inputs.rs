//! The inputs of `convert` (and of its pages, `--to html`, and print, `--to latex|pdf`): records
//! and the game documents `convert` writes, each game read and replayed in turn, and the output
//! committed only when every game was converted.

use super::{CliError, Output, documents};
use salta::export::structured::GameDoc;
use salta::notation::{Game, GameSource, input_name, printable, read_path};
use salta::render::render;
use salta::replay::{MarginPolicy, Replay, ReplayOptions, replay};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// A game read from any of the input formats.
pub(super) enum Input {
    Record(Game),
    Doc(GameDoc),
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

/// Calls `each` with every game of an input file as it is read, or with the report (for stderr)
/// of what could not be read. SGN is read one game at a time, and so are YAML and JSON files (as
/// this command writes them): one document at a time, never the whole file.
pub(super) fn for_each_input(
    file: &Path,
    mut each: impl FnMut(Result<Input, String>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let extension = file
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let read_documents = match extension.as_str() {
        "yaml" | "yml" => documents::each_yaml::<std::fs::File>,
        "json" => documents::each_json::<std::fs::File>,
        _ => {
            return match read_path(file) {
                Ok(mut reader) => reader.try_for_each(|item| {
                    each(item.map(Input::Record).map_err(|e| render(&e, false)))
                }),
                Err(e) => each(Err(unconverted(file, &e.to_string()))),
            };
        }
    };
    match std::fs::File::open(file) {
        Ok(input) => read_documents(input, &mut |doc| {
            each(doc.map(Input::Doc).map_err(|m| unconverted(file, &m)))
        }),
        Err(e) => each(Err(unconverted(file, &format!("cannot read it: {e}")))),
    }
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
    let source = GameSource::of_game(&Arc::from("<game>"), 1, &game);
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
