//! The drawing as a list of simple primitives in board units (one square = 1, y down), built once
//! from a position and options and then written out by the SVG and TikZ back ends.

use super::DiagramError;
use super::canvas::{
    self, Anchor, Canvas, Fill, FontStyle, Item, MIN_EDGE_PT, Role, Shape, Sizes, Stroke, TextStyle,
};
use super::options::DiagramOptions;
use super::piece::{self, Numbers};
use super::shapes::{self, Point};
use crate::board::{BoardKind, Color, Geometry, Square};
use crate::rules::{Piece, Position};

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Scene {
    /// Canvas size in board units.
    pub width: f32,
    pub height: f32,
    /// The printed scale: points per board unit (per square).
    pub unit: f32,
    pub items: Vec<Item>,
    /// How many of the items are the ground (paper, board, squares) that the last move and the
    /// marks are drawn over: a page that adds its own highlights puts them here.
    pub ground: usize,
}

/// The board as drawn: which square is in which display cell (row 0 at the top).
pub(crate) struct View {
    pub geometry: &'static Geometry,
    pub flip: bool,
}

impl View {
    pub fn size(&self) -> u8 {
        self.geometry.size
    }

    fn file_rank(&self, col: u8, row: u8) -> (u8, u8) {
        let last = self.size() - 1;
        if self.flip {
            (last - col, row)
        } else {
            (col, last - row)
        }
    }

    /// The square shown in a cell, or `None` for a light square.
    pub fn square_at(&self, col: u8, row: u8) -> Option<Square> {
        let (file, rank) = self.file_rank(col, row);
        self.geometry.at(file, rank)
    }

    /// The cell (column, row) where a square is shown.
    pub fn cell(&self, sq: Square) -> (u8, u8) {
        let last = self.size() - 1;
        let (file, rank) = (self.geometry.file(sq), self.geometry.rank(sq));
        if self.flip {
            (last - file, rank)
        } else {
            (file, last - rank)
        }
    }

    /// The file letter under a column.
    pub fn file_label(&self, col: u8) -> char {
        (b'a' + self.file_rank(col, 0).0) as char
    }

    /// The rank number beside a row (1-based).
    pub fn rank_label(&self, row: u8) -> u8 {
        self.file_rank(0, row).1 + 1
    }

    /// The display row of a side's first rank.
    pub fn home_row(&self, color: Color) -> u8 {
        let bottom = (color == Color::Green) != self.flip;
        if bottom { self.size() - 1 } else { 0 }
    }
}

/// Checks that every square the options name belongs to the position's board.
pub(crate) fn validate(pos: &Position, opts: &DiagramOptions) -> Result<(), DiagramError> {
    let g = pos.geometry();
    let check = |what: &'static str, sq: Square| {
        if g.contains(sq) {
            Ok(())
        } else {
            Err(DiagramError::ForeignSquare {
                what,
                index: sq.index(),
            })
        }
    };
    if let Some((from, to)) = opts.last_squares() {
        check("last move", from)?;
        check("last move", to)?;
    }
    for &sq in &opts.marks {
        check("mark", sq)?;
    }
    for &(from, to) in &opts.arrows {
        check("arrow", from)?;
        check("arrow", to)?;
        if from == to {
            return Err(DiagramError::EmptyArrow {
                square: g.name(from),
            });
        }
    }
    if !super::options::SIZE_RANGE.contains(&opts.size) {
        return Err(DiagramError::Size(opts.size));
    }
    if let Some(width) = opts.width
        && !super::options::WIDTH_RANGE_PT.contains(&width)
    {
        return Err(DiagramError::Width(width));
    }
    Ok(())
}

// Layout constants, in board units (one square = 1). Each mark grows with the square; the
// printed minimums above are floors.
const MARGIN: f32 = 0.25;
const LABEL_BAND: f32 = 0.5;
/// File letters and rank numbers: at a 280 px column the default SVG's are about 10 px.
const COORDINATE: TextStyle = TextStyle::ink(0.4, Anchor::Middle, FontStyle::Regular);
/// A square number in its square's corner, small beside the pieces it keeps clear of (at 6 pt,
/// from about 16 cm wide).
const CORNER_NUMBER: TextStyle = TextStyle::ink(0.12, Anchor::Start, FontStyle::Regular);
/// A square number on an empty square: larger, nothing beside it.
const EMPTY_NUMBER: TextStyle = TextStyle::ink(0.26, Anchor::Middle, FontStyle::Regular);
const TITLE: TextStyle = TextStyle::ink(0.4, Anchor::Middle, FontStyle::Bold);
const CAPTION: TextStyle = TextStyle::ink(0.32, Anchor::Middle, FontStyle::Italic);
/// "Green to move" beside its disc, over or under the board on that side's end.
const SIDE: TextStyle = TextStyle::ink(0.4, Anchor::Start, FontStyle::Regular);
/// The height of a line of text, relative to its font size.
const LINE: f32 = 1.55;
const FRAME: f32 = 0.045;
const MARK_LINE: f32 = 0.08;
/// The edge inside the last move's squares.
const HIGHLIGHT_EDGE: f32 = 0.05;
pub(crate) const HIGHLIGHT_OPACITY: f32 = 0.8;
const ARROW_OPACITY: f32 = 0.7;
/// The height of a capital or a digit relative to the font size (DejaVu Sans: 0.73).
const CAP_HEIGHT: f32 = 0.73;
/// Rough advance width of a sans-serif character relative to its font size, to make room for long
/// titles (the only text whose length the user chooses).
const CHAR_WIDTH: f32 = 0.55;
/// Advance width of a digit relative to its font size (DejaVu Sans: 0.636).
const DIGIT_WIDTH: f32 = 0.64;
/// Air between a square number and the frame or a disc.
const NUMBER_GAP: f32 = 0.04;

/// The sizes of a diagram's own marks.
impl Sizes {
    /// The rank labels ("10") and file letters fit their band with a little air.
    fn label_band(self) -> f32 {
        LABEL_BAND.max(self.text(COORDINATE).size * 1.8)
    }

    fn line_height(self, style: TextStyle) -> f32 {
        self.text(style).size * LINE
    }

    /// A square number's distance from its square's top-left corner: clear of the frame.
    fn number_inset(self) -> f32 {
        self.line(FRAME) / 2.0 + NUMBER_GAP
    }

    /// Where square numbers go at this size, and the discs beside them.
    fn numbers(self, g: &Geometry, opts: &DiagramOptions) -> Numbers {
        let size = self.text(CORNER_NUMBER).size;
        let inset = self.number_inset();
        let corner = |digits: usize| {
            (
                inset + digits as f32 * size * DIGIT_WIDTH,
                inset + size * CAP_HEIGHT,
            )
        };
        let gap = NUMBER_GAP + self.line(canvas::OUTLINE) / 2.0;
        piece::numbers_layout(g, opts, corner, gap)
    }
}

/// Where things go: the canvas, the board's top-left corner and the side-to-move line.
struct Layout {
    view: View,
    /// Width of the coordinate bands left of and under the board (0 without algebraic labels).
    band: f32,
    x0: f32,
    y0: f32,
    width: f32,
    height: f32,
    /// The side to move and the vertical centre of its line, over the board when that side's
    /// first rank is at the top, else under it.
    side: Option<(Color, f32)>,
    /// The top of the caption's line.
    caption_top: f32,
}

impl Layout {
    fn new(pos: &Position, opts: &DiagramOptions, sizes: Sizes) -> Layout {
        let view = View {
            geometry: pos.geometry(),
            flip: opts.flip,
        };
        let n = view.size() as f32;
        let band = if opts.coordinates.algebraic() {
            sizes.label_band()
        } else {
            0.0
        };
        let line = |shown: bool, style: TextStyle| {
            if shown { sizes.line_height(style) } else { 0.0 }
        };
        let text_width = |text: Option<&str>, style: TextStyle| {
            text.map_or(0.0, |t| {
                t.chars().count() as f32 * sizes.text(style).size * CHAR_WIDTH
            })
        };
        let side = pos.side_to_move();
        let side_label = side_label(side);
        let side_text = opts.side_to_move.then_some(side_label.as_str());
        let board_width = band + n;
        let inner_width = board_width
            .max(text_width(opts.title.as_deref(), TITLE))
            .max(text_width(opts.caption.as_deref(), CAPTION))
            .max(text_width(side_text, SIDE) + sizes.text(SIDE).size * 1.2);
        let title = line(opts.title.is_some(), TITLE);
        let side_line = line(opts.side_to_move, SIDE);
        let side_on_top = view.home_row(side) == 0;
        let y0 = MARGIN + title + if side_on_top { side_line } else { 0.0 };
        let side = opts.side_to_move.then(|| {
            let centre = if side_on_top {
                MARGIN + title + side_line / 2.0
            } else {
                y0 + n + band + side_line / 2.0
            };
            (side, centre)
        });
        let caption_top = y0 + n + band + if side_on_top { 0.0 } else { side_line };
        Layout {
            view,
            band,
            // The board sits centred under a wide title.
            x0: MARGIN + (inner_width - board_width) / 2.0 + band,
            y0,
            width: inner_width + 2.0 * MARGIN,
            height: caption_top + line(opts.caption.is_some(), CAPTION) + MARGIN,
            side,
            caption_top,
        }
    }

    fn n(&self) -> f32 {
        self.view.size() as f32
    }

    fn cell_origin(&self, col: u8, row: u8) -> Point {
        Point::new(self.x0 + col as f32, self.y0 + row as f32)
    }

    fn square_origin(&self, sq: Square) -> Point {
        let (col, row) = self.view.cell(sq);
        self.cell_origin(col, row)
    }

    fn centre(&self, sq: Square) -> Point {
        self.square_origin(sq).plus(0.5, 0.5)
    }
}

fn side_label(side: Color) -> String {
    format!("{side} to move")
}

/// The printed scale in points per square: from the stated width, or `0.75 × size`.
fn unit(pos: &Position, opts: &DiagramOptions) -> f32 {
    let Some(target) = opts.width else {
        return 0.75 * opts.size as f32;
    };
    // The printed width, `unit × layout width`, grows with the unit (marks raised to their minimum
    // take fewer board units as the unit grows, never fewer points): bisect for the stated width.
    let printed = |unit: f32| unit * Layout::new(pos, opts, Sizes { unit }).width;
    let (mut lo, mut hi) = (0.0f32, target / pos.geometry().size as f32);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if printed(mid) > target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}

fn rect(origin: Point, w: f32, h: f32) -> Shape {
    Shape::Rect {
        x: origin.x,
        y: origin.y,
        w,
        h,
    }
}

/// Builds the drawing of a position.
pub(crate) fn build(pos: &Position, opts: &DiagramOptions) -> Result<Scene, DiagramError> {
    validate(pos, opts)?;
    let sizes = Sizes {
        unit: unit(pos, opts),
    };
    let layout = Layout::new(pos, opts, sizes);
    let mut canvas = Canvas {
        items: Vec::new(),
        sizes,
    };
    draw_board(&mut canvas, &layout);
    let ground = canvas.items.len();
    draw_overlays(&mut canvas, &layout, opts);
    let numbers = sizes.numbers(pos.geometry(), opts);
    draw_square_numbers(&mut canvas, &layout, pos, numbers);
    let disc = numbers.disc();
    for color in Color::ALL {
        for (p, sq) in pos.pieces_of(color) {
            let board = layout.view.geometry.kind;
            piece::draw_piece(&mut canvas, p, layout.centre(sq), board, opts, disc);
        }
    }
    for &(from, to) in &opts.arrows {
        let fill = Some(Fill {
            role: Role::Accent,
            opacity: ARROW_OPACITY,
        });
        let arrow = shapes::arrow(layout.centre(from), layout.centre(to));
        canvas.put("arrow", Shape::Outline(arrow), fill, None);
    }
    let board = rect(layout.cell_origin(0, 0), layout.n(), layout.n());
    canvas.stroke("frame", board, Role::Ink, FRAME);
    if opts.coordinates.algebraic() {
        draw_labels(&mut canvas, &layout);
    }
    if let Some((side, centre_y)) = layout.side {
        draw_side_to_move(&mut canvas, &layout, side, centre_y);
    }
    let mid = layout.width / 2.0;
    if let Some(title) = &opts.title {
        let y = MARGIN + sizes.line_height(TITLE) / 2.0 - 0.06;
        canvas.text("title", mid, y, title.clone(), TITLE);
    }
    if let Some(caption) = &opts.caption {
        let y = layout.caption_top + sizes.line_height(CAPTION) / 2.0;
        canvas.text("caption", mid, y, caption.clone(), CAPTION);
    }
    Ok(Scene {
        width: layout.width,
        height: layout.height,
        unit: sizes.unit,
        items: canvas.items,
        ground,
    })
}

/// The centre of every square as `build` places it, in board units.
pub(crate) fn square_centres(pos: &Position, opts: &DiagramOptions) -> Vec<(Square, Point)> {
    let sizes = Sizes {
        unit: unit(pos, opts),
    };
    let layout = Layout::new(pos, opts, sizes);
    let g = layout.view.geometry;
    g.squares().map(|sq| (sq, layout.centre(sq))).collect()
}

/// One piece as `build` draws it, centred on the origin.
/// `opts.size` gives the scale (a page's board has no printed width).
pub(crate) fn piece_items(p: Piece, board: BoardKind, opts: &DiagramOptions) -> Vec<Item> {
    let sizes = Sizes {
        unit: 0.75 * opts.size as f32,
    };
    let disc = sizes.numbers(Geometry::of(board), opts).disc();
    let mut canvas = Canvas {
        items: Vec::new(),
        sizes,
    };
    piece::draw_piece(&mut canvas, p, Point::new(0.0, 0.0), board, opts, disc);
    canvas.items
}

/// The last move's edge width in board units at the scale `opts` gives (for a page drawing its
/// own highlights).
pub(crate) fn highlight_edge(pos: &Position, opts: &DiagramOptions) -> f32 {
    let sizes = Sizes {
        unit: unit(pos, opts),
    };
    sizes.min(HIGHLIGHT_EDGE, MIN_EDGE_PT)
}

/// Paper, light board, dark squares.
fn draw_board(canvas: &mut Canvas, layout: &Layout) {
    canvas.fill(
        "paper",
        rect(Point::new(0.0, 0.0), layout.width, layout.height),
        Role::Paper,
    );
    canvas.fill(
        "board light",
        rect(layout.cell_origin(0, 0), layout.n(), layout.n()),
        Role::Light,
    );
    for row in 0..layout.view.size() {
        for col in 0..layout.view.size() {
            if layout.view.square_at(col, row).is_some() {
                canvas.fill(
                    "square dark",
                    rect(layout.cell_origin(col, row), 1.0, 1.0),
                    Role::Dark,
                );
            }
        }
    }
}

/// The last move's squares (a tint and an edge inside them, which survives greyscale print) and
/// the marked squares (an accent outline further in), under the pieces.
fn draw_overlays(canvas: &mut Canvas, layout: &Layout, opts: &DiagramOptions) {
    if let Some((from, to)) = opts.last_squares() {
        let edge = canvas.sizes.min(HIGHLIGHT_EDGE, MIN_EDGE_PT);
        for sq in [from, to] {
            let fill = Some(Fill {
                role: Role::Highlight,
                opacity: HIGHLIGHT_OPACITY,
            });
            let origin = layout.square_origin(sq);
            canvas.put("last-move", rect(origin, 1.0, 1.0), fill, None);
            let inside = rect(origin.plus(edge / 2.0, edge / 2.0), 1.0 - edge, 1.0 - edge);
            let stroke = Some(Stroke {
                role: Role::HighlightEdge,
                width: edge,
            });
            canvas.put("last-move-edge", inside, None, stroke);
        }
    }
    let inset = 0.1;
    for &sq in &opts.marks {
        let frame = rect(
            layout.square_origin(sq).plus(inset, inset),
            1.0 - 2.0 * inset,
            1.0 - 2.0 * inset,
        );
        canvas.stroke("mark", frame, Role::Accent, MARK_LINE);
    }
}

/// The historical square numbers, where [`Sizes::numbers`] puts them.
fn draw_square_numbers(canvas: &mut Canvas, layout: &Layout, pos: &Position, numbers: Numbers) {
    let g = layout.view.geometry;
    let inset = canvas.sizes.number_inset();
    for sq in g.squares() {
        let number = g.number(sq).to_string();
        match numbers {
            Numbers::None => return,
            Numbers::InCorners(_) => {
                let corner = layout.square_origin(sq);
                let size = canvas.sizes.text(CORNER_NUMBER).size;
                let centre_y = corner.y + inset + size * CAP_HEIGHT / 2.0;
                canvas.text("number", corner.x + inset, centre_y, number, CORNER_NUMBER);
            }
            Numbers::OnEmptySquares if pos.piece_at(sq).is_none() => {
                let c = layout.centre(sq);
                canvas.text("number", c.x, c.y, number, EMPTY_NUMBER);
            }
            Numbers::OnEmptySquares => {}
        }
    }
}

/// File letters under the board and rank numbers to its left, as the board is turned.
fn draw_labels(canvas: &mut Canvas, layout: &Layout) {
    let (band, n) = (layout.band, layout.n());
    for i in 0..layout.view.size() {
        let along = i as f32 + 0.5;
        let (x, y) = (layout.x0 + along, layout.y0 + n + band / 2.0);
        let file = layout.view.file_label(i).to_string();
        canvas.text("coordinate", x, y, file, COORDINATE);
        let (x, y) = (layout.x0 - band / 2.0, layout.y0 + along);
        let rank = layout.view.rank_label(i).to_string();
        canvas.text("coordinate", x, y, rank, COORDINATE);
    }
}

/// A disc of the side's colour and "Green to move" beside it, at the board's left edge on that
/// side's end.
fn draw_side_to_move(canvas: &mut Canvas, layout: &Layout, side: Color, centre_y: f32) {
    let size = canvas.sizes.text(SIDE).size;
    let r = 0.42 * size;
    let centre = Point::new(layout.x0 + r, centre_y);
    canvas.outlined(
        "side-to-move",
        Shape::Circle { centre, r },
        Role::piece(side),
    );
    let x = layout.x0 + 2.0 * r + 0.4 * size;
    canvas.text("side-to-move", x, centre_y, side_label(side), SIDE);
}

#[cfg(test)]
mod tests;
