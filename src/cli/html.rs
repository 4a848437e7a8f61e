//! `convert --to html`: the game viewer page (see `salta::export::viewer`).

use super::inputs::{finish, for_each_input, replay_input};
use super::{CliError, Output};
use salta::export::diagram::{Coordinates, DiagramOptions, Palette, PieceStyle};
use salta::export::viewer::Viewer;
use salta::notation::input_name;
use salta::replay::MarginPolicy;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How the page draws the board (`--to html` only).
#[derive(clap::Args)]
pub struct PageArgs {
    /// html: open in Red's view (the page has a button to turn the board).
    #[arg(long)]
    flip: bool,
    /// html: none, numbers (square numbers), algebraic (a–j, 1–10) or both [default: as each
    /// record names its squares: numbers, or algebraic for an algebraic record].
    #[arg(long)]
    coordinates: Option<Coordinates>,
    /// html: symbols (stars, moons, suns with 1–5 marks), numbers (1–15) or designators (Su3).
    #[arg(long, default_value = "symbols")]
    pieces: PieceStyle,
    /// html: colour or greyscale.
    #[arg(long, default_value = "colour")]
    palette: Palette,
}

pub fn run(
    files: &[PathBuf],
    output_path: Option<&Path>,
    args: &PageArgs,
) -> Result<ExitCode, CliError> {
    let opts = DiagramOptions::default()
        .flip(args.flip)
        .pieces(args.pieces)
        .palette(args.palette);
    let mut page =
        Viewer::new(&page_title(files), &opts).map_err(|e| CliError::new(e.to_string()))?;
    if let Some(coordinates) = args.coordinates {
        page = page.coordinates(coordinates);
    }
    let mut output = Output::open(output_path, files)?;
    let out = output.writer();
    // Games and files that could not be converted.
    let mut failed = 0usize;
    let written = page.begin(out).and_then(|_| {
        for file in files {
            let name = input_name(file);
            for_each_input(file, |input| {
                match input.and_then(|input| replay_input(input, MarginPolicy::WhenTagged, file)) {
                    Ok((game, replayed)) => return page.add(out, &name, &game, &replayed),
                    Err(message) => super::to_stderr(message),
                }
                failed += 1;
                Ok(())
            })?;
        }
        page.finish(out)
    });
    written.map_err(|e| output.failed(e))?;
    finish(output, output_path, failed)
}

/// What a browser's tab and bookmark call the page: the file, the folder the files share, or the
/// first file and how many more (the script puts the game shown in front).
fn page_title(files: &[PathBuf]) -> String {
    let stem = |f: &Path| {
        f.file_stem()
            .unwrap_or(f.as_os_str())
            .to_string_lossy()
            .into_owned()
    };
    let folder = |f: &PathBuf| f.parent().map(Path::to_path_buf);
    let place = match files {
        [] => return "Salta games".to_string(),
        [one] => stem(one),
        [first, rest @ ..] => {
            let shared = folder(first)
                .filter(|d| rest.iter().all(|f| folder(f).as_ref() == Some(d)))
                .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
            match shared {
                Some(dir) => format!("{dir} ({} files)", files.len()),
                None => {
                    let name = first.file_name().unwrap_or(first.as_os_str());
                    let more = if rest.len() == 1 { "file" } else { "files" };
                    format!("{} and {} more {more}", name.to_string_lossy(), rest.len())
                }
            }
        }
    };
    format!("{place} · Salta")
}
