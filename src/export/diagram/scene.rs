//! The drawing as a list of simple primitives in board units (one square = 1, y down), built once
//! from a position and options and then written out by the SVG and TikZ back ends.

use super::DiagramError;
use super::options::{Colour, DiagramOptions, Palette, PieceNumber, PieceStyle};
use super::shapes::{self, Outline, Point};
use crate::board::{BoardKind, Color, Geometry, Square};
use crate::rules::{Piece, PieceKind, Position};

/// A palette entry; back ends name colours by role (TikZ defines one colour per role).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Role {
    Paper,
    Light,
    Dark,
    Green,
    GreenSymbol,
    Red,
    RedSymbol,
    Highlight,
    Accent,
    Ink,
}

impl Role {
    pub const ALL: [Role; 10] = [
        Role::Paper,
        Role::Light,
        Role::Dark,
        Role::Green,
        Role::GreenSymbol,
        Role::Red,
        Role::RedSymbol,
        Role::Highlight,
        Role::Accent,
        Role::Ink,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Role::Paper => "paper",
            Role::Light => "light",
            Role::Dark => "dark",
            Role::Green => "green",
            Role::GreenSymbol => "greensymbol",
            Role::Red => "red",
            Role::RedSymbol => "redsymbol",
            Role::Highlight => "highlight",
            Role::Accent => "accent",
            Role::Ink => "ink",
        }
    }

    pub fn colour(self, p: &Palette) -> Colour {
        match self {
            Role::Paper => p.paper,
            Role::Light => p.light,
            Role::Dark => p.dark,
            Role::Green => p.green,
            Role::GreenSymbol => p.green_symbol,
            Role::Red => p.red,
            Role::RedSymbol => p.red_symbol,
            Role::Highlight => p.highlight,
            Role::Accent => p.accent,
            Role::Ink => p.ink,
        }
    }

    fn piece(color: Color) -> Role {
        match color {
            Color::Green => Role::Green,
            Color::Red => Role::Red,
        }
    }

    fn symbol(color: Color) -> Role {
        match color {
            Color::Green => Role::GreenSymbol,
            Color::Red => Role::RedSymbol,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Fill {
    pub role: Role,
    pub opacity: f32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stroke {
    pub role: Role,
    /// Line width in board units.
    pub width: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Anchor {
    Start,
    Middle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FontStyle {
    Regular,
    Bold,
    Italic,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Shape {
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
    },
    Circle {
        centre: Point,
        r: f32,
    },
    Outline(Outline),
    /// Text on a baseline at `at`; `size` is the font size in board units.
    Text {
        at: Point,
        text: String,
        size: f32,
        anchor: Anchor,
        style: FontStyle,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Item {
    /// What the item is (`square dark`, `piece red`, …): an SVG class, a TikZ comment.
    pub class: &'static str,
    pub shape: Shape,
    pub fill: Option<Fill>,
    pub stroke: Option<Stroke>,
}

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
    if let Some((from, to)) = opts.last_move {
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

/// The smallest text printed: square numbers, coordinates, piece numerals, titles.
pub(crate) const MIN_TEXT_PT: f32 = 6.0;
/// The thinnest line printed.
pub(crate) const MIN_LINE_PT: f32 = 0.25;
/// The smallest number dot printed, across: 0.35 mm.
pub(crate) const MIN_DOT_PT: f32 = 0.35 / 25.4 * 72.0;

// Layout constants, in board units: what a diagram of the default size (27 pt a square) draws.
const MARGIN: f32 = 0.25;
const LABEL_BAND: f32 = 0.5;
const COORDINATE: TextStyle = TextStyle::ink(0.3, Anchor::Middle, FontStyle::Regular);
const NUMBER: TextStyle = TextStyle::ink(0.16, Anchor::Start, FontStyle::Regular);
const TITLE: TextStyle = TextStyle::ink(0.4, Anchor::Middle, FontStyle::Bold);
const CAPTION: TextStyle = TextStyle::ink(0.32, Anchor::Middle, FontStyle::Italic);
/// The height of a title or caption line, relative to its font size.
const LINE: f32 = 1.55;
const FRAME: f32 = 0.045;
const PIECE_RADIUS: f32 = 0.4;
/// Pieces shrink a little when square numbers are shown, leaving the corner free for the number.
const NUMBERED_PIECE_RADIUS: f32 = 0.37;
const OUTLINE: f32 = 0.035;
const MARK_LINE: f32 = 0.08;
const SIDE_BAND: f32 = 0.4;
pub(crate) const HIGHLIGHT_OPACITY: f32 = 0.75;
const ARROW_OPACITY: f32 = 0.7;
/// From a line's vertical centre down to its baseline, as a fraction of the font size (about half
/// the height of a capital).
const BASELINE_DROP: f32 = 0.36;
/// The height of a capital or a digit relative to the font size (DejaVu Sans: 0.73).
const CAP_HEIGHT: f32 = 0.73;
/// Rough advance width of a sans-serif character relative to its font size, to make room for long
/// titles (the only text whose length the user chooses) and to keep numbers clear of the pieces.
const CHAR_WIDTH: f32 = 0.55;
/// A piece's numeral beside its symbol, relative to the disc's radius.
const NUMERAL: f32 = 0.55;
/// Number dots: radius and spacing relative to the full-size disc.
const DOT_RADIUS: f32 = 0.029;
const DOT_SPACING: f32 = 0.096;

/// The sizes of the marks of a diagram printed at `unit` points per square: the layout constants,
/// each raised to its printed minimum.
#[derive(Clone, Copy, Debug)]
struct Sizes {
    unit: f32,
}

impl Sizes {
    /// `at_least` points, in board units, or `nominal` if that is more.
    fn min(self, nominal: f32, at_least: f32) -> f32 {
        nominal.max(at_least / self.unit)
    }

    fn text(self, style: TextStyle) -> TextStyle {
        TextStyle {
            size: self.min(style.size, MIN_TEXT_PT),
            ..style
        }
    }

    fn line(self, nominal: f32) -> f32 {
        self.min(nominal, MIN_LINE_PT)
    }

    /// The rank labels ("10") and file letters fit their band with a little air.
    fn label_band(self) -> f32 {
        LABEL_BAND.max(self.text(COORDINATE).size * 1.6)
    }

    fn line_height(self, style: TextStyle) -> f32 {
        self.text(style).size * LINE
    }
}

/// Where things go: the canvas and the board's top-left corner.
struct Layout {
    view: View,
    /// Width of the coordinate bands left of and under the board (0 without algebraic labels).
    band: f32,
    x0: f32,
    y0: f32,
    width: f32,
    height: f32,
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
        let line = |text: &Option<String>, style: TextStyle| {
            if text.is_some() {
                sizes.line_height(style)
            } else {
                0.0
            }
        };
        let side_band = if opts.side_to_move { SIDE_BAND } else { 0.0 };
        let board_width = band + n + side_band;
        let text_width = |text: &Option<String>, style: TextStyle| {
            text.as_ref().map_or(0.0, |t| {
                t.chars().count() as f32 * sizes.text(style).size * CHAR_WIDTH
            })
        };
        let inner_width = board_width
            .max(text_width(&opts.title, TITLE))
            .max(text_width(&opts.caption, CAPTION));
        let title = line(&opts.title, TITLE);
        Layout {
            view,
            band,
            // The board sits centred under a wide title.
            x0: MARGIN + (inner_width - board_width) / 2.0 + band,
            y0: MARGIN + title,
            width: inner_width + 2.0 * MARGIN,
            height: MARGIN + title + n + band + line(&opts.caption, CAPTION) + MARGIN,
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

/// How a kind of text is set.
#[derive(Clone, Copy, Debug)]
struct TextStyle {
    size: f32,
    anchor: Anchor,
    style: FontStyle,
    role: Role,
}

impl TextStyle {
    const fn ink(size: f32, anchor: Anchor, style: FontStyle) -> TextStyle {
        TextStyle {
            size,
            anchor,
            style,
            role: Role::Ink,
        }
    }
}

/// Collects the items of a scene.
struct Canvas {
    items: Vec<Item>,
    sizes: Sizes,
}

impl Canvas {
    fn put(
        &mut self,
        class: &'static str,
        shape: Shape,
        fill: Option<Fill>,
        stroke: Option<Stroke>,
    ) {
        self.items.push(Item {
            class,
            shape,
            fill,
            stroke,
        });
    }

    fn fill(&mut self, class: &'static str, shape: Shape, role: Role) {
        self.put(class, shape, Some(Fill { role, opacity: 1.0 }), None);
    }

    /// An outline of at least the printed minimum width.
    fn stroke(&mut self, class: &'static str, shape: Shape, role: Role, width: f32) {
        let width = self.sizes.line(width);
        self.put(class, shape, None, Some(Stroke { role, width }));
    }

    /// A filled shape with an ink outline (pieces, the side-to-move disc).
    fn outlined(&mut self, class: &'static str, shape: Shape, role: Role) {
        let fill = Some(Fill { role, opacity: 1.0 });
        let stroke = Some(Stroke {
            role: Role::Ink,
            width: self.sizes.line(OUTLINE),
        });
        self.put(class, shape, fill, stroke);
    }

    /// A line of text whose capitals are centred vertically on `centre_y`, at least the printed
    /// minimum size.
    fn text(&mut self, class: &'static str, x: f32, centre_y: f32, text: String, style: TextStyle) {
        let TextStyle {
            size,
            anchor,
            style: font,
            role,
        } = self.sizes.text(style);
        let at = Point::new(x, centre_y + size * BASELINE_DROP);
        self.fill(
            class,
            Shape::Text {
                at,
                text,
                size,
                anchor,
                style: font,
            },
            role,
        );
    }
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
    let disc = piece_disc(sizes, pos.geometry(), opts);
    if opts.coordinates.numbers() {
        draw_square_numbers(&mut canvas, &layout, pos, disc.is_some());
    }
    draw_pieces(&mut canvas, &layout, pos, opts, disc.unwrap_or(Disc::FULL));
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
    if opts.side_to_move {
        let side = pos.side_to_move();
        let row = layout.view.home_row(side);
        let centre = layout
            .cell_origin(layout.view.size(), row)
            .plus(SIDE_BAND / 2.0, 0.5);
        canvas.outlined(
            "side-to-move",
            Shape::Circle { centre, r: 0.13 },
            Role::piece(side),
        );
    }
    let mid = layout.width / 2.0;
    if let Some(title) = &opts.title {
        let y = MARGIN + sizes.line_height(TITLE) / 2.0 - 0.06;
        canvas.text("title", mid, y, title.clone(), TITLE);
    }
    if let Some(caption) = &opts.caption {
        let y = layout.y0 + layout.n() + layout.band + sizes.line_height(CAPTION) / 2.0;
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
pub(crate) fn piece_items(piece: Piece, board: BoardKind, opts: &DiagramOptions) -> Vec<Item> {
    let sizes = Sizes {
        unit: 0.75 * opts.size as f32,
    };
    let disc = piece_disc(sizes, Geometry::of(board), opts).unwrap_or(Disc::FULL);
    let mut canvas = Canvas {
        items: Vec::new(),
        sizes,
    };
    draw_piece(&mut canvas, piece, Point::new(0.0, 0.0), board, opts, disc);
    canvas.items
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

/// The last move's squares and the marked squares, under the pieces.
fn draw_overlays(canvas: &mut Canvas, layout: &Layout, opts: &DiagramOptions) {
    if let Some((from, to)) = opts.last_move {
        for sq in [from, to] {
            let fill = Some(Fill {
                role: Role::Highlight,
                opacity: HIGHLIGHT_OPACITY,
            });
            canvas.put(
                "last-move",
                rect(layout.square_origin(sq), 1.0, 1.0),
                fill,
                None,
            );
        }
    }
    let inset = 0.07;
    for &sq in &opts.marks {
        let frame = rect(
            layout.square_origin(sq).plus(inset, inset),
            1.0 - 2.0 * inset,
            1.0 - 2.0 * inset,
        );
        canvas.stroke("mark", frame, Role::Accent, MARK_LINE);
    }
}

/// Where a piece's disc sits in its square: its radius and how far its centre is below the
/// square's centre.
#[derive(Clone, Copy, Debug)]
struct Disc {
    radius: f32,
    drop: f32,
}

impl Disc {
    const FULL: Disc = Disc {
        radius: PIECE_RADIUS,
        drop: 0.0,
    };
}

/// The historical square numbers: in the top-left corner of every dark square when the pieces
/// shrink and move down to keep clear of them (`in_corner`, see [`piece_disc`]), else centred on
/// the empty squares only, the pieces keeping their full size (a reader finds an occupied square's
/// number from its neighbours).
fn draw_square_numbers(canvas: &mut Canvas, layout: &Layout, pos: &Position, in_corner: bool) {
    let g = layout.view.geometry;
    let style = canvas.sizes.text(NUMBER);
    for sq in g.squares() {
        let corner = layout.square_origin(sq);
        let number = g.number(sq).to_string();
        if in_corner {
            let centre_y = corner.y + NUMBER_INSET.1 + style.size * CAP_HEIGHT / 2.0;
            canvas.text("number", corner.x + NUMBER_INSET.0, centre_y, number, style);
        } else if pos.piece_at(sq).is_none() {
            let centred = TextStyle {
                anchor: Anchor::Middle,
                ..style
            };
            let c = layout.centre(sq);
            canvas.text("number", c.x, c.y, number, centred);
        }
    }
}

/// A square number's distance from its square's top-left corner.
const NUMBER_INSET: (f32, f32) = (0.04, 0.03);

/// The disc the pieces get: full size without square numbers; with them, the largest that keeps
/// clear of the widest number in the corner, or `None` when that would be smaller than
/// [`SMALLEST_NUMBERED_RADIUS`] (the numbers then go to the empty squares and the disc is full).
fn piece_disc(sizes: Sizes, g: &Geometry, opts: &DiagramOptions) -> Option<Disc> {
    if !opts.coordinates.numbers() {
        return Some(Disc::FULL);
    }
    let size = sizes.text(NUMBER).size;
    let widest = g.squares().map(|sq| g.number(sq).to_string().len()).max();
    // The number's box, from the square's corner, and a little air around it.
    let gap = 0.02;
    let right = NUMBER_INSET.0 + widest.unwrap_or(0) as f32 * size * CHAR_WIDTH + gap;
    let bottom = NUMBER_INSET.1 + size * CAP_HEIGHT + gap;
    let disc = disc_clear_of(right, bottom, gap);
    (disc.radius >= SMALLEST_NUMBERED_RADIUS).then_some(disc)
}

/// The smallest disc a piece keeps beside a square number in the corner.
const SMALLEST_NUMBERED_RADIUS: f32 = 0.3;

/// The largest disc up to [`NUMBERED_PIECE_RADIUS`], centred across the square and at or below its
/// centre, that keeps clear of a box from the square's top-left corner to (`right`, `bottom`) and
/// `gap` inside the square's bottom edge.
fn disc_clear_of(right: f32, bottom: f32, gap: f32) -> Disc {
    let dx = (0.5 - right).max(0.0);
    let mut radius = NUMBERED_PIECE_RADIUS;
    loop {
        let clear = bottom + (radius * radius - dx * dx).max(0.0).sqrt();
        let centre = clear.max(0.5);
        if centre + radius <= 1.0 - gap || radius <= SMALLEST_NUMBERED_RADIUS - 0.01 {
            return Disc {
                radius,
                drop: centre - 0.5,
            };
        }
        radius -= 0.005;
    }
}

fn draw_pieces(
    canvas: &mut Canvas,
    layout: &Layout,
    pos: &Position,
    opts: &DiagramOptions,
    disc: Disc,
) {
    for color in Color::ALL {
        for (piece, sq) in pos.pieces_of(color) {
            let c = layout.centre(sq).plus(0.0, disc.drop);
            draw_piece(canvas, piece, c, layout.view.geometry.kind, opts, disc);
        }
    }
}

/// A piece's disc and symbol (or number, or Pyramid ring) centred at `c`.
fn draw_piece(
    canvas: &mut Canvas,
    piece: Piece,
    c: Point,
    board: BoardKind,
    opts: &DiagramOptions,
    disc: Disc,
) {
    let radius = disc.radius;
    let color = piece.color();
    let class = if color == Color::Green {
        "piece green"
    } else {
        "piece red"
    };
    let symbol = Role::symbol(color);
    canvas.outlined(
        class,
        Shape::Circle {
            centre: c,
            r: radius,
        },
        Role::piece(color),
    );
    if board == BoardKind::Pyramid {
        canvas.stroke(
            "ring",
            Shape::Circle {
                centre: c,
                r: radius * 0.62,
            },
            symbol,
            OUTLINE,
        );
        return;
    }
    let scale = radius / PIECE_RADIUS;
    let (text, size) = match (opts.pieces, opts.piece_number) {
        (PieceStyle::Symbols, PieceNumber::Dots) => {
            for (class, shape) in symbol_with_dots(piece, c, scale, canvas.sizes) {
                canvas.fill(class, shape, symbol);
            }
            return;
        }
        (PieceStyle::Symbols, PieceNumber::Numeral) => {
            symbol_with_numeral(canvas, piece, c, radius, symbol);
            return;
        }
        (PieceStyle::Numbers, _) => (piece.single_number().to_string(), 0.36 * scale),
        (PieceStyle::Designators, _) => (piece.designator(), 0.26 * scale),
    };
    let style = TextStyle {
        size,
        anchor: Anchor::Middle,
        style: FontStyle::Bold,
        role: symbol,
    };
    canvas.text("label", c.x, c.y, text, style);
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

/// The outline of a piece's symbol centred at `at` with the given radius.
fn symbol_outline(kind: PieceKind, at: Point, radius: f32) -> Vec<(&'static str, Shape)> {
    match kind {
        PieceKind::Star => vec![(
            "star",
            Shape::Outline(shapes::star(at.plus(0.0, 0.09 * radius), 1.05 * radius)),
        )],
        PieceKind::Moon => vec![("moon", Shape::Outline(shapes::crescent(at, 0.96 * radius)))],
        PieceKind::Sun => vec![
            ("sun", Shape::Outline(shapes::sun_rays(at, radius, 8))),
            (
                "sun",
                Shape::Circle {
                    centre: at,
                    r: shapes::sun_core(radius),
                },
            ),
        ],
    }
}

/// The symbol on the left of the disc and the number 1–5 as a bold numeral on its right, the pair
/// centred; the numeral is never smaller than [`MIN_TEXT_PT`].
fn symbol_with_numeral(canvas: &mut Canvas, piece: Piece, c: Point, radius: f32, role: Role) {
    let size = canvas.sizes.min(NUMERAL * radius, MIN_TEXT_PT);
    let numeral_width = size * 0.62;
    let symbol = 0.48 * radius;
    let gap = 0.05 * radius;
    let left = c.x - (2.0 * symbol + gap + numeral_width) / 2.0;
    for (class, shape) in symbol_outline(piece.kind(), Point::new(left + symbol, c.y), symbol) {
        canvas.fill(class, shape, role);
    }
    let style = TextStyle {
        size,
        anchor: Anchor::Middle,
        style: FontStyle::Bold,
        role,
    };
    let x = left + 2.0 * symbol + gap + numeral_width / 2.0;
    canvas.text("numeral", x, c.y, piece.number().to_string(), style);
}

/// The symbol of a Salta piece with its number as dots beneath, centred in the disc at `c`; `scale`
/// is the disc's radius relative to the full-size piece. Dots are at least [`MIN_DOT_PT`] across
/// with at least a dot's width between them: one row when that fits the disc, else two (3 over 2).
fn symbol_with_dots(
    piece: Piece,
    c: Point,
    scale: f32,
    sizes: Sizes,
) -> Vec<(&'static str, Shape)> {
    let at = c.plus(0.0, -0.05 * scale);
    let mut out = symbol_outline(piece.kind(), at, 0.225 * scale);
    let count = piece.number() as usize;
    let r = sizes.min(DOT_RADIUS * scale, MIN_DOT_PT / 2.0);
    let spacing = (DOT_SPACING * scale).max(4.0 * r);
    let (y, disc) = (0.27 * scale, PIECE_RADIUS * scale);
    let half_row = |n: usize| (n as f32 - 1.0) / 2.0 * spacing + r;
    let fits = |n: usize, y: f32| half_row(n) <= (disc * disc - y * y).max(0.0).sqrt() - r;
    let rows: Vec<(usize, f32)> = if fits(count, y) {
        vec![(count, y)]
    } else {
        let top = count.div_ceil(2);
        let y0 = y - spacing * 0.45;
        vec![(top, y0), (count - top, y0 + spacing * 0.9)]
    };
    for (n, y) in rows {
        let first = -(n as f32 - 1.0) / 2.0 * spacing;
        for i in 0..n {
            let centre = c.plus(first + i as f32 * spacing, y);
            out.push(("dot", Shape::Circle { centre, r }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::diagram::{Coordinates, PT_PER_CM};
    use crate::rules::Rules;

    /// Every printed mark of a scene meets its minimum: text, lines, dots.
    fn assert_legible(scene: &Scene, what: &str) {
        let pt = |units: f32| units * scene.unit;
        for item in &scene.items {
            if let Some(stroke) = item.stroke {
                assert!(pt(stroke.width) >= MIN_LINE_PT - 1e-3, "{what}: {item:?}");
            }
            match &item.shape {
                Shape::Text { size, .. } => {
                    assert!(pt(*size) >= MIN_TEXT_PT - 1e-3, "{what}: {item:?}")
                }
                Shape::Circle { r, .. } if item.class == "dot" => {
                    assert!(pt(2.0 * r) >= MIN_DOT_PT - 1e-3, "{what}: {item:?}")
                }
                _ => {}
            }
        }
    }

    #[test]
    fn every_mark_is_legible_at_printed_widths_from_5_to_15_cm() {
        let midgame = Position::from_setup(
            "G/11,32,13,23,25,31,22,43,24,35,62,61,53,65,64/105,104,103,102,91,85,94,83,92,51,33,21,55,52,41/21",
            Rules::default(),
        )
        .unwrap();
        for tenths in (50..=150).step_by(5) {
            let cm = tenths as f32 / 10.0;
            for coordinates in [Coordinates::Both, Coordinates::Algebraic] {
                for (pieces, piece_number) in [
                    (PieceStyle::Symbols, PieceNumber::Numeral),
                    (PieceStyle::Symbols, PieceNumber::Dots),
                    (PieceStyle::Numbers, PieceNumber::Numeral),
                    (PieceStyle::Designators, PieceNumber::Numeral),
                ] {
                    let opts = DiagramOptions {
                        width: Some(cm * PT_PER_CM),
                        coordinates,
                        pieces,
                        piece_number,
                        title: Some("Krone – Grotewold".into()),
                        caption: Some("After 24. 33:54".into()),
                        ..DiagramOptions::default()
                    };
                    let scene = build(&midgame, &opts).unwrap();
                    let what = format!("{cm} cm, {coordinates:?}, {pieces:?}, {piece_number:?}");
                    let printed = scene.width * scene.unit / PT_PER_CM;
                    assert!((printed - cm).abs() < 0.001, "{what}: {printed} cm wide");
                    assert_legible(&scene, &what);
                    let numerals = scene.items.iter().filter(|i| i.class == "numeral");
                    let expected = match (pieces, piece_number) {
                        (PieceStyle::Symbols, PieceNumber::Numeral) => 30,
                        _ => 0,
                    };
                    assert_eq!(numerals.count(), expected, "{what}");
                }
            }
        }
    }

    #[test]
    fn square_numbers_keep_clear_of_the_pieces_or_move_to_the_empty_squares() {
        let start = Position::start(Rules::default());
        let numbers = |cm: f32| {
            let opts = DiagramOptions {
                width: Some(cm * PT_PER_CM),
                coordinates: Coordinates::Numbers,
                ..DiagramOptions::default()
            };
            let scene = build(&start, &opts).unwrap();
            let radius = scene
                .items
                .iter()
                .find_map(|i| match i.shape {
                    Shape::Circle { r, .. } if i.class == "piece green" => Some(r),
                    _ => None,
                })
                .unwrap();
            let count = scene.items.iter().filter(|i| i.class == "number").count();
            (count, radius)
        };
        // Wide: a number on every dark square, the pieces a little smaller and lower.
        let (count, radius) = numbers(11.0);
        assert_eq!(count, 50);
        assert!((SMALLEST_NUMBERED_RADIUS..=NUMBERED_PIECE_RADIUS).contains(&radius));
        // Narrow: numbers only on the 20 empty dark squares, pieces full size.
        assert_eq!(numbers(5.0), (20, PIECE_RADIUS));
    }

    #[test]
    fn size_gives_the_scale_and_out_of_range_widths_are_refused() {
        let start = Position::start(Rules::default());
        let scene = build(&start, &DiagramOptions::default()).unwrap();
        assert_eq!(scene.unit, 27.0);
        for cm in [1.0, 150.0, f32::NAN] {
            let opts = DiagramOptions {
                width: Some(cm * PT_PER_CM),
                ..DiagramOptions::default()
            };
            assert!(matches!(build(&start, &opts), Err(DiagramError::Width(_))));
        }
    }
}
