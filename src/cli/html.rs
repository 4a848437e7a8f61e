//! `convert --to html`: the game viewer page (see `salta::export::viewer`).

use super::convert::{read_inputs, replay_input};
use super::{CliError, write_output};
use salta::export::diagram::{Coordinates, DiagramOptions, Palette, PieceStyle};
use salta::export::viewer::Viewer;
use salta::replay::MarginPolicy;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How the page draws the board (`--to html` only).
#[derive(clap::Args)]
pub struct PageArgs {
    /// html: open in Red's view (the page has a button to turn the board).
    #[arg(long)]
    flip: bool,
    /// html: none, numbers (square numbers), algebraic (a–j, 1–10) or both.
    #[arg(long, default_value = "algebraic")]
    coordinates: Coordinates,
    /// html: symbols (stars, moons, suns with 1–5 marks), numbers (1–15) or designators (Su3).
    #[arg(long, default_value = "symbols")]
    pieces: PieceStyle,
    /// html: colour or greyscale.
    #[arg(long, default_value = "colour")]
    palette: Palette,
}

pub fn run(
    files: &[PathBuf],
    output: Option<&Path>,
    args: &PageArgs,
) -> Result<ExitCode, CliError> {
    let opts = DiagramOptions {
        flip: args.flip,
        coordinates: args.coordinates,
        pieces: args.pieces,
        palette: args.palette,
        ..DiagramOptions::default()
    };
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_name()
                .unwrap_or(f.as_os_str())
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let title = format!("{} · Salta games", names.join(", "));
    let mut page = Viewer::new(&title, &opts).map_err(|e| CliError::new(e.to_string()))?;
    let mut failed = 0usize;
    write_output(output, files, |out| {
        page.begin(out)?;
        for file in files {
            let name = file.display().to_string();
            for input in read_inputs(file, &mut failed) {
                match replay_input(input, MarginPolicy::WhenTagged, file) {
                    Ok((game, replayed)) => page.add(out, &name, &game, &replayed)?,
                    Err(message) => {
                        eprintln!("error: {name}: {message}");
                        failed += 1;
                    }
                }
            }
        }
        page.finish(out)
    })?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
