//! Board diagrams fit for print: any position of any variant (10×10 Salta and Winther, 8×8 Pyramid)
//! as Unicode text, SVG, PNG, PDF or TikZ, legible at the size it is printed.
//!
//! The drawing follows book conventions: light and dark squares in a frame, file letters and rank
//! numbers around the border and/or the historical square numbers in the corners of the dark
//! squares, all turned with the board in Red's view ([`DiagramOptions::flip`]).
//!
//! **Pieces.** A Salta piece is a disc filling most of its square, carrying its symbol — a
//! five-pointed star, a crescent moon, or a sun with rays — drawn as vector paths (no font glyphs),
//! with its number 1–5 as a large bold numeral beside it ([`PieceNumber::Numeral`]) or that many
//! dots under it ([`PieceNumber::Dots`]). [`PieceStyle::Numbers`] and [`PieceStyle::Designators`]
//! print the single number 1–15 or the designator (`Su3`) on a plain disc instead. Pyramid pieces
//! are identical plain discs with an inner ring.
//!
//! **Print size.** A diagram is drawn for its printed size: [`DiagramOptions::width`] (or `size`
//! CSS pixels per square). Every mark grows with the square — a piece's numeral is about 40 % of
//! the square's side, the largest text on the board — and none is ever smaller than its printed
//! minimum: text 6 pt, lines 0.25 pt, number dots 0.35 mm across. Square numbers stand in the
//! corners only where a centred disc keeps clear of them (very wide diagrams); otherwise they are
//! set on the empty squares. The side to move is a disc and "Green to move" on that side's end of
//! the board; the last move is a tint with an edge inside its squares, which survives greyscale
//! print.
//!
//! **Greyscale.** Green pieces are *light* (pale green, dark outline, dark symbols) and Red pieces
//! *dark* (deep red, light symbols), with dark squares a mid grey between them: the two sides stay
//! distinct in black-and-white print, the way white and black men are in draughts diagrams. The text
//! board, in ASCII for any monospace font, sets Green's pieces in capitals (`Su3`) and Red's in
//! lower case (`su3`), coloured on a terminal ([`text_ansi`]).
//!
//! ```
//! use salta::export::diagram::{render, DiagramFormat, DiagramOptions};
//! use salta::rules::{Position, Rules};
//! let pos = Position::start(Rules::default());
//! let svg = render(&pos, &DiagramOptions::default(), DiagramFormat::Svg).unwrap();
//! assert!(svg.starts_with(b"<?xml"));
//! ```

mod canvas;
mod options;
mod piece;
#[cfg(feature = "png")]
mod png;
mod scene;
mod shapes;
mod svg;
mod text;
mod tikz;

pub use options::{
    Colour, Coordinates, DEFAULT_DPI, DEFAULT_SIZE, DPI_RANGE, DiagramFormat, DiagramOptions,
    PT_PER_CM, Palette, ParseOptionError, PieceNumber, PieceStyle, SIZE_RANGE, WIDTH_RANGE_PT,
    parse_length,
};

pub use tikz::latex_escape;

use crate::board::BoardKind;
use crate::rules::{Piece, Position, Rules};

/// A CSS pixel is 1/96 inch, a point 1/72 inch.
const PT_PER_PX: f32 = 0.75;

/// Why a diagram could not be drawn.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DiagramError {
    /// A square of the options (last move, mark, arrow) is not on the position's board.
    #[error("the {what} square (index {index}) is not a square of this board")]
    ForeignSquare {
        /// What the square is for (`last move`, `mark`, `arrow`).
        what: &'static str,
        /// Its bit index.
        index: usize,
    },
    /// An arrow starts and ends on the same square.
    #[error("an arrow from {square} to itself cannot be drawn")]
    EmptyArrow {
        /// The square, by name.
        square: String,
    },
    /// The size per square is outside [`SIZE_RANGE`].
    #[error("size {0} is out of range: use 8–1000 pixels per square")]
    Size(u32),
    /// The printed width is outside [`WIDTH_RANGE_PT`].
    #[error("a printed width of {:.2} cm is out of range: use 2–100 cm", .0 / PT_PER_CM)]
    Width(f32),
    /// The resolution is outside [`DPI_RANGE`].
    #[error("dpi {0} is out of range: use 10–2400")]
    Dpi(f32),
    /// The PNG would be too large to render in memory.
    #[error(
        "the image would be {width}×{height} pixels, too large to render: lower --size or --dpi"
    )]
    TooLarge {
        /// Pixels across.
        width: u32,
        /// Pixels down.
        height: u32,
    },
    /// The SVG could not be read back for rendering (a bug if it happens).
    #[error("could not render the SVG: {0}")]
    Svg(String),
    /// The rendered image could not be encoded, or PNG rendering is not built in (the `png`
    /// feature).
    #[error("could not encode the PNG: {0}")]
    Png(String),
    /// The PDF could not be made.
    #[cfg(feature = "pdf")]
    #[error(transparent)]
    Pdf(#[from] crate::export::pdf::PdfError),
}

/// Draws `pos` in `format`: UTF-8 text for text, SVG and TikZ, the file's bytes for PNG and PDF
/// (without the `png` or `pdf` feature, those formats are [`DiagramError::Png`]).
pub fn render(
    pos: &Position,
    opts: &DiagramOptions,
    format: DiagramFormat,
) -> Result<Vec<u8>, DiagramError> {
    Ok(match format {
        DiagramFormat::Text => text(pos, opts)?.into_bytes(),
        DiagramFormat::Svg => svg(pos, opts)?.into_bytes(),
        #[cfg(feature = "png")]
        DiagramFormat::Png => png(pos, opts)?,
        #[cfg(feature = "pdf")]
        DiagramFormat::Pdf => pdf(pos, opts)?,
        #[cfg(not(feature = "png"))]
        DiagramFormat::Png => {
            return Err(DiagramError::Png(
                "salta was built without its `png` feature".to_string(),
            ));
        }
        #[cfg(not(feature = "pdf"))]
        DiagramFormat::Pdf => {
            return Err(DiagramError::Png(
                "salta was built without its `pdf` feature".to_string(),
            ));
        }
        DiagramFormat::Tikz => tikz(pos, opts)?.into_bytes(),
    })
}

/// A board in ASCII for terminals and plain text, within 80 columns: Green's pieces by their
/// capitalised designators (`Su3`), Red's in lower case (`su3`), any monospace font draws it.
pub fn text(pos: &Position, opts: &DiagramOptions) -> Result<String, DiagramError> {
    scene::validate(pos, opts)?;
    Ok(text::write(pos, opts, false))
}

/// [`text`] coloured for a terminal with ANSI sequences: Green's pieces green, Red's red, the last
/// move's markers yellow, marked squares blue. Without the sequences it is [`text`].
pub fn text_ansi(pos: &Position, opts: &DiagramOptions) -> Result<String, DiagramError> {
    scene::validate(pos, opts)?;
    Ok(text::write(pos, opts, true))
}

/// A self-contained SVG document in CSS pixels: `size` per square, or the stated printed width.
pub fn svg(pos: &Position, opts: &DiagramOptions) -> Result<String, DiagramError> {
    let scene = scene::build(pos, opts)?;
    let description = format!("Salta diagram ({}). Setup: {}", pos.rules(), pos.to_setup());
    Ok(svg::write(
        &scene,
        &opts.palette,
        opts.title.as_deref(),
        &description,
    ))
}

/// A diagram to place in another SVG document: its elements in CSS pixels from its top-left
/// corner, and its printed width and height in points.
#[cfg(feature = "pdf")]
pub(crate) struct Fragment {
    pub body: String,
    pub width_pt: f32,
    pub height_pt: f32,
}

#[cfg(feature = "pdf")]
pub(crate) fn svg_fragment(
    pos: &Position,
    opts: &DiagramOptions,
) -> Result<Fragment, DiagramError> {
    let scene = scene::build(pos, opts)?;
    let mut body = String::new();
    svg::write_items(&mut body, &scene, &opts.palette);
    Ok(Fragment {
        body,
        width_pt: scene.width * scene.unit,
        height_pt: scene.height * scene.unit,
    })
}

#[cfg(feature = "pdf")]
pub(crate) use svg::escape as xml_escape;

/// A PNG of the SVG's size at `dpi` (`size × dpi / 96` pixels per square), with its resolution
/// recorded in the file. Text is set in the shipped DejaVu Sans ([`crate::export::fonts`]).
#[cfg(feature = "png")]
pub fn png(pos: &Position, opts: &DiagramOptions) -> Result<Vec<u8>, DiagramError> {
    png::render(&svg(pos, opts)?, opts.dpi)
}

/// A one-page vector PDF of the SVG's printed size, its fonts embedded.
#[cfg(feature = "pdf")]
pub fn pdf(pos: &Position, opts: &DiagramOptions) -> Result<Vec<u8>, DiagramError> {
    let page = svg(pos, opts)?;
    Ok(crate::export::pdf::from_svg_pages(
        &[page],
        opts.title.as_deref(),
    )?)
}

/// The pixel width and height of [`png`]'s image for these options.
#[cfg(feature = "png")]
pub fn png_dimensions(pos: &Position, opts: &DiagramOptions) -> Result<(u32, u32), DiagramError> {
    let scene = scene::build(pos, opts)?;
    let s = scene.unit / PT_PER_PX;
    // The SVG's size is written rounded to two decimals; measure that, as the renderer does.
    let round = |v: f32| (v * s * 100.0).round() / 100.0;
    Ok(png::pixel_size(
        round(scene.width),
        round(scene.height),
        opts.dpi,
    ))
}

/// A `tikzpicture` environment that compiles with `\usepackage{tikz}` alone.
pub fn tikz(pos: &Position, opts: &DiagramOptions) -> Result<String, DiagramError> {
    let scene = scene::build(pos, opts)?;
    let mut comment = vec![format!("Salta diagram ({}), drawn by salta", pos.rules())];
    if let Some(title) = &opts.title {
        comment.push(title.clone());
    }
    comment.push(format!("Setup: {}", pos.to_setup()));
    Ok(tikz::write(&scene, &opts.palette, &comment))
}

/// A board whose pieces a page's script places (the HTML viewer), drawn from the same scene as
/// [`svg`]: the same squares, numbers, coordinates, palette and orientation.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LiveBoard {
    /// An `<svg>` element of the board without pieces, with an empty `<g class="marks">` over the
    /// squares for the last move and an empty `<g class="pieces">` on top.
    pub svg: String,
    /// The centre of each square in the SVG's units, by historical square number.
    pub centres: Vec<(u8, [f32; 2])>,
    /// The side of a square in the SVG's units.
    pub square: u32,
    /// The colour and opacity of the last move's squares, as the diagrams draw them.
    pub highlight: (Colour, f32),
    /// The colour and width (in the SVG's units) of the edge inside the last move's squares.
    pub highlight_edge: (Colour, f32),
}

/// The board of `rules` for a page to place pieces on (`opts.last_move`, marks and arrows are
/// drawn if given; the side-to-move marker is left to the page).
pub fn live_board(rules: Rules, opts: &DiagramOptions) -> Result<LiveBoard, DiagramError> {
    let empty = Position::empty(rules);
    let opts = DiagramOptions {
        side_to_move: false,
        ..opts.clone()
    };
    let scene = scene::build(&empty, &opts)?;
    let g = empty.geometry();
    let s = scene.unit / PT_PER_PX;
    let board = match g.kind {
        BoardKind::Salta => "Salta board",
        BoardKind::Pyramid => "Pyramid board",
    };
    let view = if opts.flip {
        "Red's view"
    } else {
        "Green's view"
    };
    let label = format!("{board}, {view}");
    Ok(LiveBoard {
        svg: svg::write_live(&scene, &opts.palette, &label),
        centres: scene::square_centres(&empty, &opts)
            .into_iter()
            .map(|(sq, c)| (g.number(sq), [c.x * s, c.y * s]))
            .collect(),
        square: opts.size,
        highlight: (opts.palette.highlight, scene::HIGHLIGHT_OPACITY),
        highlight_edge: (
            opts.palette.highlight_edge,
            scene::highlight_edge(&empty, &opts) * s,
        ),
    })
}

/// One piece as the diagrams draw it, centred on the origin, as an SVG `<g>` with this `id` (for
/// `<use>`).
pub fn piece_glyph(piece: Piece, board: BoardKind, opts: &DiagramOptions, id: &str) -> String {
    let items = scene::piece_items(piece, board, opts);
    svg::write_group(&items, &opts.palette, opts.size, id)
}
