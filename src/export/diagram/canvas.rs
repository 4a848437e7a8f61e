//! The canvas a diagram is drawn on: its primitives (shapes, text, the colours by role), the
//! printed minimums every mark is raised to, and [`Canvas`], which collects the items. The
//! pieces (`piece.rs`) and the scene (`scene/`) both draw on it.

use super::options::{Colour, Palette};
use super::shapes::{Outline, Point};
use crate::board::Color;

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
    HighlightEdge,
    Accent,
    Ink,
}

impl Role {
    pub const ALL: [Role; 11] = [
        Role::Paper,
        Role::Light,
        Role::Dark,
        Role::Green,
        Role::GreenSymbol,
        Role::Red,
        Role::RedSymbol,
        Role::Highlight,
        Role::HighlightEdge,
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
            Role::HighlightEdge => "highlightedge",
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
            Role::HighlightEdge => p.highlight_edge,
            Role::Accent => p.accent,
            Role::Ink => p.ink,
        }
    }

    pub(super) fn piece(color: Color) -> Role {
        match color {
            Color::Green => Role::Green,
            Color::Red => Role::Red,
        }
    }

    pub(super) fn symbol(color: Color) -> Role {
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

/// The smallest text printed: square numbers, coordinates, piece numerals, titles.
pub(crate) const MIN_TEXT_PT: f32 = 6.0;
/// The thinnest line printed.
pub(crate) const MIN_LINE_PT: f32 = 0.25;
/// The smallest number dot printed, across: 0.35 mm.
pub(crate) const MIN_DOT_PT: f32 = 0.35 / 25.4 * 72.0;
/// The thinnest edge of the last move's squares: it must show in black-and-white print.
pub(crate) const MIN_EDGE_PT: f32 = 0.6;
/// The ink outline of a piece or a disc, relative to a square.
pub(super) const OUTLINE: f32 = 0.035;
/// From a line's vertical centre down to its baseline, as a fraction of the font size (about half
/// the height of a capital).
const BASELINE_DROP: f32 = 0.36;

/// The sizes of the marks of a diagram printed at `unit` points per square: the layout constants,
/// each raised to its printed minimum.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sizes {
    pub unit: f32,
}

impl Sizes {
    /// `at_least` points, in board units, or `nominal` if that is more.
    pub fn min(self, nominal: f32, at_least: f32) -> f32 {
        nominal.max(at_least / self.unit)
    }

    pub fn text(self, style: TextStyle) -> TextStyle {
        TextStyle {
            size: self.min(style.size, MIN_TEXT_PT),
            ..style
        }
    }

    pub fn line(self, nominal: f32) -> f32 {
        self.min(nominal, MIN_LINE_PT)
    }
}

/// How a kind of text is set.
#[derive(Clone, Copy, Debug)]
pub(super) struct TextStyle {
    pub size: f32,
    pub anchor: Anchor,
    pub style: FontStyle,
    pub role: Role,
}

impl TextStyle {
    pub const fn ink(size: f32, anchor: Anchor, style: FontStyle) -> TextStyle {
        TextStyle {
            size,
            anchor,
            style,
            role: Role::Ink,
        }
    }
}

/// Collects the items of a scene.
pub(super) struct Canvas {
    pub items: Vec<Item>,
    pub sizes: Sizes,
}

impl Canvas {
    /// An item as given: its fill's opacity and its stroke's width as they are.
    pub fn put(
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

    pub fn fill(&mut self, class: &'static str, shape: Shape, role: Role) {
        self.put(class, shape, Some(Fill { role, opacity: 1.0 }), None);
    }

    /// An outline of at least the printed minimum width.
    pub fn stroke(&mut self, class: &'static str, shape: Shape, role: Role, width: f32) {
        let width = self.sizes.line(width);
        self.put(class, shape, None, Some(Stroke { role, width }));
    }

    /// A filled shape with an ink outline (pieces, the side-to-move disc).
    pub fn outlined(&mut self, class: &'static str, shape: Shape, role: Role) {
        let fill = Some(Fill { role, opacity: 1.0 });
        let stroke = Some(Stroke {
            role: Role::Ink,
            width: self.sizes.line(OUTLINE),
        });
        self.put(class, shape, fill, stroke);
    }

    /// A line of text whose capitals are centred vertically on `centre_y`, at least the printed
    /// minimum size.
    pub fn text(
        &mut self,
        class: &'static str,
        x: f32,
        centre_y: f32,
        text: String,
        style: TextStyle,
    ) {
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
