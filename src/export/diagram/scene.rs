//! The drawing as a list of simple primitives in board units (one square = 1, y down), built once
//! from a position and options and then written out by the SVG and TikZ back ends.

use super::DiagramError;
use super::options::{Colour, DiagramOptions, Palette, PieceStyle};
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
    Ok(())
}

// Layout constants, in board units.
const MARGIN: f32 = 0.25;
const LABEL_BAND: f32 = 0.5;
const COORDINATE: TextStyle = TextStyle::ink(0.3, Anchor::Middle, FontStyle::Regular);
const NUMBER: TextStyle = TextStyle::ink(0.16, Anchor::Start, FontStyle::Regular);
const TITLE: TextStyle = TextStyle::ink(0.4, Anchor::Middle, FontStyle::Bold);
const CAPTION: TextStyle = TextStyle::ink(0.32, Anchor::Middle, FontStyle::Italic);
/// The height of a title or caption line.
const LINE: f32 = 0.62;
const FRAME: f32 = 0.045;
const PIECE_RADIUS: f32 = 0.4;
/// Pieces shrink a little when square numbers are shown, leaving the corner free for the number.
const NUMBERED_PIECE_RADIUS: f32 = 0.37;
const OUTLINE: f32 = 0.035;
const SIDE_BAND: f32 = 0.4;
pub(crate) const HIGHLIGHT_OPACITY: f32 = 0.75;
const ARROW_OPACITY: f32 = 0.7;
/// From a line's vertical centre down to its baseline, as a fraction of the font size (about half
/// the height of a capital).
const BASELINE_DROP: f32 = 0.36;
/// Rough advance width of a sans-serif character relative to its font size, to make room for long
/// titles (the only text whose length the user chooses).
const CHAR_WIDTH: f32 = 0.55;

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
    fn new(pos: &Position, opts: &DiagramOptions) -> Layout {
        let view = View {
            geometry: pos.geometry(),
            flip: opts.flip,
        };
        let n = view.size() as f32;
        let band = if opts.coordinates.algebraic() {
            LABEL_BAND
        } else {
            0.0
        };
        let line = |text: &Option<String>| if text.is_some() { LINE } else { 0.0 };
        let side_band = if opts.side_to_move { SIDE_BAND } else { 0.0 };
        let board_width = band + n + side_band;
        let text_width = |text: &Option<String>, font: f32| {
            text.as_ref()
                .map_or(0.0, |t| t.chars().count() as f32 * font * CHAR_WIDTH)
        };
        let inner_width = board_width
            .max(text_width(&opts.title, TITLE.size))
            .max(text_width(&opts.caption, CAPTION.size));
        Layout {
            view,
            band,
            // The board sits centred under a wide title.
            x0: MARGIN + (inner_width - board_width) / 2.0 + band,
            y0: MARGIN + line(&opts.title),
            width: inner_width + 2.0 * MARGIN,
            height: MARGIN + line(&opts.title) + n + band + line(&opts.caption) + MARGIN,
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

/// How a kind of text is set.
#[derive(Clone, Copy)]
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

    fn stroke(&mut self, class: &'static str, shape: Shape, role: Role, width: f32) {
        self.put(class, shape, None, Some(Stroke { role, width }));
    }

    /// A filled shape with an ink outline (pieces, the side-to-move disc).
    fn outlined(&mut self, class: &'static str, shape: Shape, role: Role) {
        let fill = Some(Fill { role, opacity: 1.0 });
        self.put(
            class,
            shape,
            fill,
            Some(Stroke {
                role: Role::Ink,
                width: OUTLINE,
            }),
        );
    }

    /// A line of text whose capitals are centred vertically on `centre_y`.
    fn text(&mut self, class: &'static str, x: f32, centre_y: f32, text: String, style: TextStyle) {
        let at = Point::new(x, centre_y + style.size * BASELINE_DROP);
        let TextStyle {
            size,
            anchor,
            style: font,
            role,
        } = style;
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
    let layout = Layout::new(pos, opts);
    let mut canvas = Canvas { items: Vec::new() };
    draw_board(&mut canvas, &layout);
    let ground = canvas.items.len();
    draw_overlays(&mut canvas, &layout, opts);
    if opts.coordinates.numbers() {
        draw_square_numbers(&mut canvas, &layout);
    }
    draw_pieces(&mut canvas, &layout, pos, opts);
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
        let y = MARGIN + LINE / 2.0 - 0.06;
        canvas.text("title", mid, y, title.clone(), TITLE);
    }
    if let Some(caption) = &opts.caption {
        let y = layout.y0 + layout.n() + layout.band + LINE / 2.0;
        canvas.text("caption", mid, y, caption.clone(), CAPTION);
    }
    Ok(Scene {
        width: layout.width,
        height: layout.height,
        items: canvas.items,
        ground,
    })
}

/// The centre of every square as `build` places it, in board units.
pub(crate) fn square_centres(pos: &Position, opts: &DiagramOptions) -> Vec<(Square, Point)> {
    let layout = Layout::new(pos, opts);
    let g = layout.view.geometry;
    g.squares().map(|sq| (sq, layout.centre(sq))).collect()
}

/// One piece as `build` draws it, centred on the origin.
pub(crate) fn piece_items(piece: Piece, board: BoardKind, opts: &DiagramOptions) -> Vec<Item> {
    let mut canvas = Canvas { items: Vec::new() };
    draw_piece(&mut canvas, piece, Point::new(0.0, 0.0), board, opts);
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
        canvas.stroke("mark", frame, Role::Accent, 0.08);
    }
}

/// The historical number in the top-left corner of every dark square.
fn draw_square_numbers(canvas: &mut Canvas, layout: &Layout) {
    let g = layout.view.geometry;
    for sq in g.squares() {
        let corner = layout.square_origin(sq);
        let (x, centre_y) = (corner.x + 0.04, corner.y + 0.03 + NUMBER.size * 0.37);
        let number = g.number(sq).to_string();
        canvas.text("number", x, centre_y, number, NUMBER);
    }
}

fn draw_pieces(canvas: &mut Canvas, layout: &Layout, pos: &Position, opts: &DiagramOptions) {
    for color in Color::ALL {
        for (piece, sq) in pos.pieces_of(color) {
            draw_piece(
                canvas,
                piece,
                layout.centre(sq),
                layout.view.geometry.kind,
                opts,
            );
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
) {
    let radius = if opts.coordinates.numbers() {
        NUMBERED_PIECE_RADIUS
    } else {
        PIECE_RADIUS
    };
    let scale = radius / PIECE_RADIUS;
    let color = piece.color;
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
    let (text, size) = match opts.pieces {
        PieceStyle::Symbols => {
            for (class, shape) in symbol_shapes(piece, c, scale) {
                canvas.fill(class, shape, symbol);
            }
            return;
        }
        PieceStyle::Numbers => (piece.single_number().to_string(), 0.36 * scale),
        PieceStyle::Designators => (piece.designator(), 0.26 * scale),
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

/// The symbol of a Salta piece with its number as dots beneath, centred in the disc at `c`; `scale`
/// is the disc's radius relative to the full-size piece.
fn symbol_shapes(piece: Piece, c: Point, scale: f32) -> Vec<(&'static str, Shape)> {
    let at = c.plus(0.0, -0.05 * scale);
    let mut out = match piece.kind() {
        PieceKind::Star => vec![(
            "star",
            Shape::Outline(shapes::star(at.plus(0.0, 0.02 * scale), 0.235 * scale)),
        )],
        PieceKind::Moon => vec![("moon", Shape::Outline(shapes::crescent(at, 0.215 * scale)))],
        PieceKind::Sun => {
            let radius = 0.225 * scale;
            vec![
                ("sun", Shape::Outline(shapes::sun_rays(at, radius, 8))),
                (
                    "sun",
                    Shape::Circle {
                        centre: at,
                        r: shapes::sun_core(radius),
                    },
                ),
            ]
        }
    };
    let count = piece.number() as usize;
    let spacing = 0.096 * scale;
    let first = -(count as f32 - 1.0) / 2.0 * spacing;
    for i in 0..count {
        let centre = c.plus(first + i as f32 * spacing, 0.27 * scale);
        out.push((
            "dot",
            Shape::Circle {
                centre,
                r: 0.029 * scale,
            },
        ));
    }
    out
}
