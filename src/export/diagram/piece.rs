//! How a piece is drawn: a disc filling most of its square, centred, carrying what tells it
//! apart — its symbol and its number 1–5 (a bold numeral or dots), its single number 1–15, its
//! designator, or a Pyramid piece's ring. Every mark grows with the square; the printed minimums
//! are floors, never the size.

use super::canvas::{
    Anchor, Canvas, FontStyle, MIN_DOT_PT, OUTLINE, Role, Shape, Sizes, TextStyle,
};
use super::options::{DiagramOptions, PieceNumber, PieceStyle};
use super::shapes::{self, Point};
use crate::board::{BoardKind, Color, Geometry};
use crate::rules::{Piece, PieceKind};

/// A piece's radius, in squares: the disc fills 83 % of its square's side, as a chess book's
/// pieces fill theirs.
pub(super) const PIECE_RADIUS: f32 = 0.415;
/// The smallest disc a piece keeps beside square numbers in the corners; below it the numbers go
/// to the empty squares instead.
pub(super) const SMALLEST_NUMBERED_RADIUS: f32 = 0.33;
/// The numeral beside the symbol, relative to the disc's radius: a bold digit about 70 % of the
/// symbol's height, the largest mark on the piece after the symbol.
const NUMERAL: f32 = 0.95;
/// The symbol beside the numeral, its radius relative to the disc's.
const SYMBOL_BESIDE: f32 = 0.44;
/// The smallest symbol beside a numeral raised to its printed minimum (below about 5 cm wide the
/// pair then reaches the rim).
const SMALLEST_SYMBOL: f32 = 0.3;
/// The symbol over the dots, relative to the disc's radius.
const SYMBOL_OVER_DOTS: f32 = 0.5;
/// Number dots: radius relative to the disc's, spaced three radii apart.
const DOT: f32 = 0.075;
/// Marks keep this share of the radius clear of the disc's rim.
const RIM: f32 = 0.1;
/// Advance width of a bold digit relative to its font size (DejaVu Sans Bold: 0.696).
pub(super) const BOLD_DIGIT: f32 = 0.7;
/// The single number 1–15 and the designator, relative to the disc's radius.
const SINGLE_NUMBER: f32 = 1.08;
const DESIGNATOR: f32 = 0.72;

/// A piece's disc, centred in its square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Disc {
    pub radius: f32,
}

impl Disc {
    pub const FULL: Disc = Disc {
        radius: PIECE_RADIUS,
    };
}

/// Where square numbers go and how large the pieces are beside them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Numbers {
    /// No square numbers.
    None,
    /// In the top-left corner of every dark square, the discs shrunk (still centred) to keep clear.
    InCorners(Disc),
    /// Centred on the empty squares only, full-size discs (a reader finds an occupied square's
    /// number from its neighbours and the coordinates).
    OnEmptySquares,
}

impl Numbers {
    pub fn disc(self) -> Disc {
        match self {
            Numbers::InCorners(disc) => disc,
            Numbers::None | Numbers::OnEmptySquares => Disc::FULL,
        }
    }
}

/// Where the square numbers go: in the corners when a centred disc of at least
/// [`SMALLEST_NUMBERED_RADIUS`] keeps `gap` clear of the widest number's box, which reaches from
/// the square's top-left corner to `corner` (right, bottom); else on the empty squares.
pub(super) fn numbers_layout(
    g: &Geometry,
    opts: &DiagramOptions,
    corner_box: impl Fn(usize) -> (f32, f32),
    gap: f32,
) -> Numbers {
    if !opts.coordinates.numbers() {
        return Numbers::None;
    }
    let widest = g
        .squares()
        .map(|sq| g.number(sq).to_string().len())
        .max()
        .unwrap_or(2);
    let (right, bottom) = corner_box(widest);
    let dx = (0.5 - right).max(0.0);
    let dy = (0.5 - bottom).max(0.0);
    let radius = ((dx * dx + dy * dy).sqrt() - gap).min(PIECE_RADIUS);
    if radius >= SMALLEST_NUMBERED_RADIUS {
        Numbers::InCorners(Disc { radius })
    } else {
        Numbers::OnEmptySquares
    }
}

/// A piece's disc and what it carries, centred at `c`.
pub(super) fn draw_piece(
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
    let (text, size) = match (opts.pieces, opts.piece_number) {
        (PieceStyle::Symbols, PieceNumber::Dots) => {
            for (class, shape) in symbol_with_dots(piece, c, radius, canvas.sizes) {
                canvas.fill(class, shape, symbol);
            }
            return;
        }
        (PieceStyle::Symbols, PieceNumber::Numeral) => {
            symbol_with_numeral(canvas, piece, c, radius, symbol);
            return;
        }
        (PieceStyle::Numbers, _) => (piece.single_number().to_string(), SINGLE_NUMBER),
        (PieceStyle::Designators, _) => (piece.designator(), DESIGNATOR),
    };
    let style = TextStyle {
        size: size * radius,
        anchor: Anchor::Middle,
        style: FontStyle::Bold,
        role: symbol,
    };
    canvas.text("label", c.x, c.y, text, style);
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

/// The symbol on the left and the number 1–5 as a large bold numeral on the right, the pair
/// centred in the disc. The numeral grows with the disc (never below the printed minimum); when
/// the minimum makes it wider than its share, the symbol gives way so that both stay inside the
/// rim.
fn symbol_with_numeral(canvas: &mut Canvas, piece: Piece, c: Point, radius: f32, role: Role) {
    let style = canvas.sizes.text(TextStyle {
        size: NUMERAL * radius,
        anchor: Anchor::Middle,
        style: FontStyle::Bold,
        role,
    });
    let (numeral_width, numeral_half_height) = (style.size * BOLD_DIGIT, style.size * 0.73 / 2.0);
    let gap = 0.06 * radius;
    // The numeral's outer corners stay inside the rim.
    let inner = radius * (1.0 - RIM);
    let right = (inner * inner - numeral_half_height * numeral_half_height)
        .max(0.0)
        .sqrt();
    let symbol = (SYMBOL_BESIDE * radius)
        .min((2.0 * right - numeral_width - gap) / 2.0)
        .max(SMALLEST_SYMBOL * radius);
    let left = c.x - (2.0 * symbol + gap + numeral_width) / 2.0;
    for (class, shape) in symbol_outline(piece.kind(), Point::new(left + symbol, c.y), symbol) {
        canvas.fill(class, shape, role);
    }
    let x = left + 2.0 * symbol + gap + numeral_width / 2.0;
    canvas.text("numeral", x, c.y, piece.number().to_string(), style);
}

/// The symbol of a Salta piece with its number as dots beneath, centred in the disc at `c`. Dots
/// are at least the printed minimum across with two of their radii between them: one row when that
/// stays inside the rim, else two (3 over 2).
fn symbol_with_dots(
    piece: Piece,
    c: Point,
    radius: f32,
    sizes: Sizes,
) -> Vec<(&'static str, Shape)> {
    let mut out = symbol_outline(
        piece.kind(),
        c.plus(0.0, -0.2 * radius),
        SYMBOL_OVER_DOTS * radius,
    );
    let count = piece.number() as usize;
    let r = sizes.min(DOT * radius, MIN_DOT_PT / 2.0);
    let spacing = 3.0 * r;
    let inner = radius * (1.0 - RIM);
    // The outermost dot of a row of `n` at height `y` stays inside the rim.
    let fits = |n: usize, y: f32| {
        let x = (n as f32 - 1.0) / 2.0 * spacing;
        (x * x + y * y).sqrt() + r <= inner
    };
    let y = 0.55 * radius;
    let rows: Vec<(usize, f32)> = if fits(count, y) {
        vec![(count, y)]
    } else {
        let top = count.div_ceil(2);
        let (y0, y1) = (0.4 * radius, 0.4 * radius + 0.9 * spacing);
        vec![(top, y0), (count - top, y1)]
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
    use crate::export::diagram::canvas::Item;
    use crate::export::diagram::scene::build;
    use crate::export::diagram::{Coordinates, PT_PER_CM};
    use crate::rules::{Position, Rules};

    /// The marks on each piece of a scene, with the disc they sit on.
    fn pieces(items: &[Item]) -> Vec<(Point, f32, Vec<&Item>)> {
        let mut out: Vec<(Point, f32, Vec<&Item>)> = Vec::new();
        for item in items {
            match &item.shape {
                Shape::Circle { centre, r } if item.class.starts_with("piece") => {
                    out.push((*centre, *r, Vec::new()))
                }
                _ if ["star", "moon", "sun", "dot", "numeral", "label"].contains(&item.class) => {
                    if let Some(last) = out.last_mut() {
                        last.2.push(item)
                    }
                }
                _ => {}
            }
        }
        out
    }

    #[test]
    fn dots_and_numerals_stay_inside_the_rim_at_every_width() {
        let start = Position::start(Rules::default());
        for tenths in (50..=160).step_by(5) {
            for number in [PieceNumber::Dots, PieceNumber::Numeral] {
                let opts = DiagramOptions {
                    width: Some(tenths as f32 / 10.0 * PT_PER_CM),
                    coordinates: Coordinates::Both,
                    piece_number: number,
                    ..DiagramOptions::default()
                };
                let scene = build(&start, &opts).unwrap();
                let found = pieces(&scene.items);
                assert_eq!(found.len(), 30);
                for (c, radius, marks) in found {
                    for mark in marks {
                        let reach = match &mark.shape {
                            Shape::Circle { centre, r } => {
                                ((centre.x - c.x).hypot(centre.y - c.y)) + r
                            }
                            Shape::Text { at, size, .. } => {
                                // The numeral's box: a bold digit, its capital height above the
                                // baseline.
                                let (half_w, top) = (size * BOLD_DIGIT / 2.0, at.y - size * 0.73);
                                let dy = (at.y - c.y).abs().max((top - c.y).abs());
                                ((at.x - c.x).abs() + half_w).hypot(dy)
                            }
                            _ => continue,
                        };
                        assert!(
                            reach <= radius * 0.97,
                            "{} cm, {number:?}: {} reaches {reach} of {radius}",
                            tenths as f32 / 10.0,
                            mark.class
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn square_numbers_take_the_corners_only_where_a_centred_disc_keeps_clear() {
        let g = Geometry::of(BoardKind::Salta);
        let opts = DiagramOptions::default().coordinates(Coordinates::Numbers);
        // A small number in a large square: corners, the disc a little smaller.
        let roomy = numbers_layout(g, &opts, |digits| (0.05 + digits as f32 * 0.06, 0.12), 0.03);
        let Numbers::InCorners(disc) = roomy else {
            panic!("{roomy:?}")
        };
        assert!((SMALLEST_NUMBERED_RADIUS..=PIECE_RADIUS).contains(&disc.radius));
        // A 6 pt number in a 7 mm square: the empty squares.
        let tight = numbers_layout(g, &opts, |digits| (0.06 + digits as f32 * 0.19, 0.28), 0.03);
        assert_eq!(tight, Numbers::OnEmptySquares);
        let none = numbers_layout(g, &DiagramOptions::default(), |_| (1.0, 1.0), 0.0);
        assert_eq!(none.disc(), Disc::FULL);
    }
}
