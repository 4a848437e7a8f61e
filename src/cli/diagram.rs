use super::{CliError, replay_to_ply, select_game, write_output};
use salta::board::{Geometry, Square};
use salta::diagnostic::quote;
use salta::export::diagram::{
    Colour, Coordinates, DiagramFormat, DiagramOptions, Palette, PieceNumber, PieceStyle,
    parse_length, render, text_ansi,
};
use salta::rules::{Move, MoveKind, Position};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;

#[derive(clap::Args)]
pub struct Args {
    /// The record (or give --setup instead).
    #[arg(required_unless_present = "setup", conflicts_with = "setup")]
    file: Option<PathBuf>,
    /// Draw this position (a Setup line) instead of one from a file.
    #[arg(long)]
    setup: Option<String>,
    /// Rules for --setup (e.g. `pyramid`); a file's game uses its Rules tag.
    #[arg(long)]
    rules: Option<String>,
    /// Which game of the file (1-based).
    #[arg(long, default_value_t = 1, conflicts_with = "setup")]
    game: usize,
    /// The position after this many plies of the main line (default: the end).
    #[arg(long, conflicts_with = "setup")]
    ply: Option<u32>,
    /// text, svg, png, pdf or tikz.
    #[arg(long, default_value = "text")]
    format: String,
    /// Write to this file (through a temporary file and a rename) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Red's view: the board turned 180°.
    #[arg(long)]
    flip: bool,
    /// none, numbers (square numbers), algebraic (a–j, 1–10) or both.
    #[arg(long, default_value = "algebraic")]
    coordinates: String,
    /// symbols (stars, moons, suns with their numbers 1–5), numbers (1–15) or designators (Su3).
    #[arg(long, default_value = "symbols")]
    pieces: String,
    /// How symbols show their number 1–5: numeral (a small bold digit) or dots (that many dots).
    #[arg(long, default_value = "numeral")]
    piece_number: String,
    /// Highlight the last move: without a value, the move that led to the position (from a file);
    /// or give it, e.g. `--last-move 33-43`.
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    last_move: Option<String>,
    /// Mark a square (repeatable), e.g. `--mark 44` or `--mark h4`.
    #[arg(long)]
    mark: Vec<String>,
    /// Draw an arrow (repeatable), e.g. `--arrow 33-53`.
    #[arg(long)]
    arrow: Vec<String>,
    /// Size of a square in CSS pixels, 1/96 inch (also sets the TikZ and PNG size).
    #[arg(long, default_value_t = 36)]
    size: u32,
    /// The printed width of the whole diagram instead of --size, e.g. `7.5cm`, `60mm`, `3in`;
    /// every mark is sized to stay legible at it (text ≥ 6 pt, lines ≥ 0.25 pt, dots ≥ 0.35 mm).
    #[arg(long, conflicts_with = "size")]
    width: Option<String>,
    /// Resolution of a PNG.
    #[arg(long, default_value_t = 300.0)]
    dpi: f32,
    /// colour or greyscale.
    #[arg(long, default_value = "colour")]
    palette: String,
    /// Colour of the dark squares, e.g. `#8b9a7a`.
    #[arg(long)]
    dark: Option<String>,
    /// Colour of the light squares.
    #[arg(long)]
    light: Option<String>,
    /// A line of text above the board.
    #[arg(long)]
    title: Option<String>,
    /// A line of text below the board.
    #[arg(long)]
    caption: Option<String>,
    /// Leave out the marker of the side to move.
    #[arg(long)]
    no_side_to_move: bool,
}

fn option<T: FromStr>(text: &str) -> Result<T, CliError>
where
    T::Err: std::fmt::Display,
{
    T::from_str(text).map_err(|e| CliError::new(e.to_string()))
}

pub fn run(args: Args, color: super::ColorWhen) -> Result<ExitCode, CliError> {
    let format: DiagramFormat = option(&args.format)?;
    let mut past_break = false;
    let (pos, last) = match (&args.file, &args.setup) {
        (Some(file), _) => {
            let game = select_game(file, args.game)?;
            let (replayed, ply, broken) = replay_to_ply(&game, args.ply)?;
            past_break = broken;
            let last = ply
                .checked_sub(1)
                .and_then(|i| replayed.moves().get(i as usize).copied());
            (replayed.position_at(ply), last)
        }
        (None, setup) => (
            super::position_from_args(
                super::rules_from_args(args.rules.as_deref())?,
                setup.as_deref(),
                "--setup",
            )?,
            None,
        ),
    };
    let opts = options(&args, &pos, last)?;
    let to_stdout = args
        .output
        .as_deref()
        .is_none_or(|p| p == std::path::Path::new("-"));
    if format.is_binary() && to_stdout && std::io::stdout().is_terminal() {
        return Err(CliError::new("a PNG is not for the terminal")
            .with_help("write it to a file with -o diagram.png"));
    }
    // A text board is coloured as --color says for where it goes (a terminal, or not).
    let coloured = format == DiagramFormat::Text
        && color.enabled(to_stdout && std::io::stdout().is_terminal());
    let bytes = if coloured {
        text_ansi(&pos, &opts).map(String::into_bytes)
    } else {
        render(&pos, &opts, format)
    }
    .map_err(|e| CliError::new(e.to_string()))?;
    let inputs: Vec<PathBuf> = args.file.iter().cloned().collect();
    write_output(args.output.as_deref(), &inputs, |out| out.write_all(&bytes))?;
    Ok(super::exit_code(past_break))
}

fn options(args: &Args, pos: &Position, last: Option<Move>) -> Result<DiagramOptions, CliError> {
    let g = pos.geometry();
    let bad = |e: &dyn std::fmt::Display| CliError::new(e.to_string());
    let mut palette: Palette = option(&args.palette)?;
    if let Some(dark) = &args.dark {
        palette.dark = option::<Colour>(dark)?;
    }
    if let Some(light) = &args.light {
        palette.light = option::<Colour>(light)?;
    }
    let last_move = match args.last_move.as_deref() {
        None => None,
        Some("") => last,
        Some(text) => Some(last_move(g, text)?),
    };
    Ok(DiagramOptions::default()
        .flip(args.flip)
        .coordinates(option::<Coordinates>(&args.coordinates)?)
        .pieces(option::<PieceStyle>(&args.pieces)?)
        .piece_number(option::<PieceNumber>(&args.piece_number)?)
        .last_move(last_move)
        .marks(
            args.mark
                .iter()
                .map(|m| mark(g, m))
                .collect::<Result<_, _>>()?,
        )
        .arrows(
            args.arrow
                .iter()
                .map(|a| arrow(g, a))
                .collect::<Result<_, _>>()?,
        )
        .size(args.size)
        .width(
            args.width
                .as_deref()
                .map(parse_length)
                .transpose()
                .map_err(|e| bad(&e))?,
        )
        .dpi(args.dpi)
        .palette(palette)
        .title(args.title.clone())
        .caption(args.caption.clone())
        .side_to_move(!args.no_side_to_move))
}

/// The error of an option's value that does not read, as the library's option errors read.
fn invalid(option: &str, text: &str, reason: impl std::fmt::Display) -> CliError {
    CliError::new(format!("invalid {option} {}: {reason}", quote(text)))
}

/// Reads an arrow such as `c3-e5`, `33-55` or `33:55` (any notation the geometry reads, joined by
/// `-`, `:`, `x` or `>`).
fn arrow(geometry: &Geometry, text: &str) -> Result<(Square, Square), CliError> {
    let Some((from, to)) = text.trim().split_once(['-', ':', 'x', '>']) else {
        return Err(invalid(
            "arrow",
            text,
            "write FROM-TO, such as c3-e5 or 33-55",
        ));
    };
    let square = |part: &str| {
        geometry
            .parse_square(part)
            .map_err(|e| invalid("arrow", text, e))
    };
    let (from, to) = (square(from)?, square(to)?);
    if from == to {
        return Err(invalid(
            "arrow",
            text,
            "it starts and ends on the same square",
        ));
    }
    Ok((from, to))
}

/// Reads the last move to highlight, FROM-TO as an arrow: a step or a jump by its shape (only its
/// squares are drawn).
fn last_move(geometry: &Geometry, text: &str) -> Result<Move, CliError> {
    let (from, to) = arrow(geometry, text)?;
    [MoveKind::Step, MoveKind::Jump]
        .into_iter()
        .find_map(|kind| Move::new(geometry, from, to, kind))
        .ok_or_else(|| {
            invalid(
                "last move",
                text,
                "no step or jump goes from one to the other",
            )
        })
}

/// Reads a marked square in either notation (`33` or `e3`).
fn mark(geometry: &Geometry, text: &str) -> Result<Square, CliError> {
    geometry
        .parse_square(text)
        .map_err(|e| invalid("square", text, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use salta::board::BoardKind;

    #[test]
    fn arrows_marks_and_last_moves_parse_in_both_notations() {
        let g = Geometry::of(BoardKind::Salta);
        let c3 = g.parse_square("c3").unwrap();
        let e5 = g.parse_square("e5").unwrap();
        assert_eq!(arrow(g, "c3-e5").ok(), Some((c3, e5)));
        assert_eq!(arrow(g, "32:53").ok(), Some((c3, e5)));
        assert_eq!(mark(g, "32").ok(), Some(c3));
        let err = arrow(g, "c3-e4").unwrap_err().to_string();
        assert!(err.contains("light square"), "{err}");
        assert!(arrow(g, "c3").is_err());
        assert!(arrow(g, "c3-c3").is_err());
        let jump = last_move(g, "c3-e5").unwrap();
        assert_eq!(
            (jump.from(), jump.to(), jump.kind()),
            (c3, e5, MoveKind::Jump)
        );
        assert_eq!(last_move(g, "c3-d4").unwrap().kind(), MoveKind::Step);
        assert!(last_move(g, "c3-c5").is_err());
    }
}
