use super::{CliError, replay_to_ply, select_game, write_output};
use salta::export::diagram::{
    Colour, Coordinates, DiagramFormat, DiagramOptions, Palette, PieceNumber, PieceStyle,
    parse_arrow, parse_length, parse_mark, render, text_ansi,
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
        // Only its squares are drawn: a step stands for any kind of move.
        Some(text) => parse_arrow(g, text)
            .map(|(from, to)| Move {
                from,
                to,
                kind: MoveKind::Step,
            })
            .map(Some)
            .map_err(|e| bad(&e))?,
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
                .map(|m| parse_mark(g, m).map_err(|e| bad(&e)))
                .collect::<Result<_, _>>()?,
        )
        .arrows(
            args.arrow
                .iter()
                .map(|a| parse_arrow(g, a).map_err(|e| bad(&e)))
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
