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
const LABEL_FONT: f32 = 0.3;
const NUMBER_FONT: f32 = 0.16;
const TITLE_FONT: f32 = 0.4;
const CAPTION_FONT: f32 = 0.32;
const LINE: f32 = 0.62;
const FRAME: f32 = 0.045;
const PIECE_RADIUS: f32 = 0.4;
const NUMBERED_PIECE_RADIUS: f32 = 0.37;
const OUTLINE: f32 = 0.035;
const SIDE_BAND: f32 = 0.4;
/// Rough advance width of a sans-serif character relative to its font size, to make room for long
/// titles (the only text whose length the user chooses).
const CHAR_WIDTH: f32 = 0.55;

/// Builds the drawing of a position.
pub(crate) fn build(pos: &Position, opts: &DiagramOptions) -> Result<Scene, DiagramError> {
    validate(pos, opts)?;
    let view = View {
        geometry: pos.geometry(),
        flip: opts.flip,
    };
    let n = view.size() as f32;
    let coords = opts.coordinates;
    let band = if coords.algebraic() { LABEL_BAND } else { 0.0 };
    let title_band = if opts.title.is_some() { LINE } else { 0.0 };
    let caption_band = if opts.caption.is_some() { LINE } else { 0.0 };
    let side_band = if opts.side_to_move { SIDE_BAND } else { 0.0 };
    let board_width = band + n + side_band;
    let text_width = |text: &Option<String>, font: f32| {
        text.as_ref()
            .map_or(0.0, |t| t.chars().count() as f32 * font * CHAR_WIDTH)
    };
    let inner_width = board_width
        .max(text_width(&opts.title, TITLE_FONT))
        .max(text_width(&opts.caption, CAPTION_FONT));
    let width = inner_width + 2.0 * MARGIN;
    let height = MARGIN + title_band + n + band + caption_band + MARGIN;
    // The board sits centred under a wide title.
    let x0 = MARGIN + (inner_width - board_width) / 2.0 + band;
    let y0 = MARGIN + title_band;

    let mut items = Vec::new();
    let mut put = |class, shape, fill: Option<(Role, f32)>, stroke: Option<(Role, f32)>| {
        items.push(Item {
            class,
            shape,
            fill: fill.map(|(role, opacity)| Fill { role, opacity }),
            stroke: stroke.map(|(role, width)| Stroke { role, width }),
        })
    };
    let solid = |role| Some((role, 1.0));
    let cell_origin = |sq: Square| {
        let (col, row) = view.cell(sq);
        Point::new(x0 + col as f32, y0 + row as f32)
    };
    let centre = |sq: Square| cell_origin(sq).plus(0.5, 0.5);

    put(
        "paper",
        Shape::Rect {
            x: 0.0,
            y: 0.0,
            w: width,
            h: height,
        },
        solid(Role::Paper),
        None,
    );
    put(
        "board light",
        Shape::Rect {
            x: x0,
            y: y0,
            w: n,
            h: n,
        },
        solid(Role::Light),
        None,
    );
    for row in 0..view.size() {
        for col in 0..view.size() {
            if view.square_at(col, row).is_some() {
                let (x, y) = (x0 + col as f32, y0 + row as f32);
                put(
                    "square dark",
                    Shape::Rect {
                        x,
                        y,
                        w: 1.0,
                        h: 1.0,
                    },
                    solid(Role::Dark),
                    None,
                );
            }
        }
    }
    if let Some((from, to)) = opts.last_move {
        for sq in [from, to] {
            let Point { x, y } = cell_origin(sq);
            put(
                "last-move",
                Shape::Rect {
                    x,
                    y,
                    w: 1.0,
                    h: 1.0,
                },
                Some((Role::Highlight, 0.75)),
                None,
            );
        }
    }
    for &sq in &opts.marks {
        let inset = 0.07;
        let Point { x, y } = cell_origin(sq).plus(inset, inset);
        let side = 1.0 - 2.0 * inset;
        put(
            "mark",
            Shape::Rect {
                x,
                y,
                w: side,
                h: side,
            },
            None,
            Some((Role::Accent, 0.08)),
        );
    }
    if coords.numbers() {
        for sq in view.geometry.squares() {
            let at = cell_origin(sq).plus(0.04, 0.03 + NUMBER_FONT * 0.73);
            let text = view.geometry.number(sq).to_string();
            let shape = Shape::Text {
                at,
                text,
                size: NUMBER_FONT,
                anchor: Anchor::Start,
                style: FontStyle::Regular,
            };
            put("number", shape, solid(Role::Ink), None);
        }
    }
    let pyramid = view.geometry.kind == BoardKind::Pyramid;
    // Smaller pieces leave the corner free for the square number.
    let radius = if coords.numbers() {
        NUMBERED_PIECE_RADIUS
    } else {
        PIECE_RADIUS
    };
    for color in Color::ALL {
        for (piece, sq) in pos.pieces_of(color) {
            let c = centre(sq);
            let disc = Shape::Circle {
                centre: c,
                r: radius,
            };
            let class = if color == Color::Green {
                "piece green"
            } else {
                "piece red"
            };
            put(
                class,
                disc,
                solid(Role::piece(color)),
                Some((Role::Ink, OUTLINE)),
            );
            let symbol = solid(Role::symbol(color));
            if pyramid {
                let ring = Shape::Circle {
                    centre: c,
                    r: radius * 0.62,
                };
                put("ring", ring, None, Some((Role::symbol(color), OUTLINE)));
                continue;
            }
            match opts.pieces {
                PieceStyle::Symbols => {
                    for (class, shape) in symbol_shapes(piece, c, radius) {
                        put(class, shape, symbol, None);
                    }
                }
                PieceStyle::Numbers | PieceStyle::Designators => {
                    let (text, size) = match opts.pieces {
                        PieceStyle::Numbers => (
                            piece.single_number().to_string(),
                            0.36 * radius / PIECE_RADIUS,
                        ),
                        _ => (piece.designator(), 0.26 * radius / PIECE_RADIUS),
                    };
                    let at = c.plus(0.0, size * 0.36);
                    let shape = Shape::Text {
                        at,
                        text,
                        size,
                        anchor: Anchor::Middle,
                        style: FontStyle::Bold,
                    };
                    put("label", shape, symbol, None);
                }
            }
        }
    }
    for &(from, to) in &opts.arrows {
        put(
            "arrow",
            Shape::Outline(shapes::arrow(centre(from), centre(to))),
            Some((Role::Accent, 0.7)),
            None,
        );
    }
    let frame = Shape::Rect {
        x: x0,
        y: y0,
        w: n,
        h: n,
    };
    put("frame", frame, None, Some((Role::Ink, FRAME)));
    if coords.algebraic() {
        for i in 0..view.size() {
            let along = i as f32 + 0.5;
            let file = Shape::Text {
                at: Point::new(x0 + along, y0 + n + band / 2.0 + LABEL_FONT * 0.36),
                text: view.file_label(i).to_string(),
                size: LABEL_FONT,
                anchor: Anchor::Middle,
                style: FontStyle::Regular,
            };
            put("coordinate", file, solid(Role::Ink), None);
            let rank = Shape::Text {
                at: Point::new(x0 - band / 2.0, y0 + along + LABEL_FONT * 0.36),
                text: view.rank_label(i).to_string(),
                size: LABEL_FONT,
                anchor: Anchor::Middle,
                style: FontStyle::Regular,
            };
            put("coordinate", rank, solid(Role::Ink), None);
        }
    }
    if opts.side_to_move {
        let side = pos.side_to_move();
        let centre = Point::new(
            x0 + n + side_band / 2.0,
            y0 + view.home_row(side) as f32 + 0.5,
        );
        let disc = Shape::Circle { centre, r: 0.13 };
        put(
            "side-to-move",
            disc,
            solid(Role::piece(side)),
            Some((Role::Ink, OUTLINE)),
        );
    }
    let mid = width / 2.0;
    if let Some(title) = &opts.title {
        let at = Point::new(mid, MARGIN + LINE / 2.0 + TITLE_FONT * 0.36 - 0.06);
        let shape = Shape::Text {
            at,
            text: title.clone(),
            size: TITLE_FONT,
            anchor: Anchor::Middle,
            style: FontStyle::Bold,
        };
        put("title", shape, solid(Role::Ink), None);
    }
    if let Some(caption) = &opts.caption {
        let at = Point::new(mid, y0 + n + band + LINE / 2.0 + CAPTION_FONT * 0.36);
        let shape = Shape::Text {
            at,
            text: caption.clone(),
            size: CAPTION_FONT,
            anchor: Anchor::Middle,
            style: FontStyle::Italic,
        };
        put("caption", shape, solid(Role::Ink), None);
    }
    Ok(Scene {
        width,
        height,
        items,
    })
}

/// The symbol of a Salta piece with its number as dots beneath, centred in the disc at `c`.
fn symbol_shapes(piece: Piece, c: Point, radius: f32) -> Vec<(&'static str, Shape)> {
    let scale = radius / PIECE_RADIUS;
    let at = c.plus(0.0, -0.05 * scale);
    let mut out = match piece.kind() {
        PieceKind::Star => vec![(
            "star",
            Shape::Outline(shapes::star(at.plus(0.0, 0.02), 0.235 * scale)),
        )],
        PieceKind::Moon => vec![("moon", Shape::Outline(shapes::crescent(at, 0.215 * scale)))],
        PieceKind::Sun => vec![
            (
                "sun",
                Shape::Outline(shapes::sun_rays(at, 0.225 * scale, 8)),
            ),
            (
                "sun",
                Shape::Circle {
                    centre: at,
                    r: shapes::sun_core(0.225 * scale),
                },
            ),
        ],
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
