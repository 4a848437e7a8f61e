//! What a diagram shows and how: options, colours, and the parsers for their command-line spellings.

use crate::board::Square;
use crate::diagnostic::quote;
use crate::rules::{Move, MoveKind};
use std::fmt;
use std::str::FromStr;

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagramFormat {
    /// A Unicode board for terminals.
    Text,
    /// A self-contained SVG document.
    Svg,
    /// A PNG image, rendered from the SVG at [`DiagramOptions::dpi`].
    Png,
    /// A one-page vector PDF of the SVG, fonts embedded.
    Pdf,
    /// A `tikzpicture` environment needing only `\usepackage{tikz}`.
    Tikz,
}

impl DiagramFormat {
    /// Every format.
    pub const ALL: [DiagramFormat; 5] = [
        DiagramFormat::Text,
        DiagramFormat::Svg,
        DiagramFormat::Png,
        DiagramFormat::Pdf,
        DiagramFormat::Tikz,
    ];

    /// The name the command line uses (`text`, `svg`, `png`, `tikz`).
    pub fn name(self) -> &'static str {
        match self {
            DiagramFormat::Text => "text",
            DiagramFormat::Svg => "svg",
            DiagramFormat::Png => "png",
            DiagramFormat::Pdf => "pdf",
            DiagramFormat::Tikz => "tikz",
        }
    }

    /// The usual file extension (`txt`, `svg`, `png`, `pdf`, `tex`).
    pub fn extension(self) -> &'static str {
        match self {
            DiagramFormat::Text => "txt",
            DiagramFormat::Svg => "svg",
            DiagramFormat::Png => "png",
            DiagramFormat::Pdf => "pdf",
            DiagramFormat::Tikz => "tex",
        }
    }

    /// Whether the output is binary (PNG, PDF) rather than UTF-8 text.
    pub fn is_binary(self) -> bool {
        matches!(self, DiagramFormat::Png | DiagramFormat::Pdf)
    }
}

/// Which coordinates are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Coordinates {
    /// No coordinates.
    None,
    /// The historical square numbers (11–105) on the dark squares.
    Numbers,
    /// Files a–j and ranks 1–10 around the border.
    #[default]
    Algebraic,
    /// Both square numbers and the border letters and digits.
    Both,
}

impl Coordinates {
    /// Whether the square numbers are drawn.
    pub fn numbers(self) -> bool {
        matches!(self, Coordinates::Numbers | Coordinates::Both)
    }

    /// Whether the border letters and digits are drawn.
    pub fn algebraic(self) -> bool {
        matches!(self, Coordinates::Algebraic | Coordinates::Both)
    }
}

/// How Salta pieces are drawn. Pyramid pieces are identical and always drawn as plain discs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// The period pieces: a disc carrying a star, a moon or a sun, with its number 1–5 as that many
    /// small dots under the symbol (vector paths only, no fonts needed).
    #[default]
    Symbols,
    /// Plain discs carrying the single numbering 1–15 (stars 1–5, moons 6–10, suns 11–15).
    Numbers,
    /// Plain discs carrying the designator, such as `Su3`.
    Designators,
}

/// How a Salta piece drawn with its symbol shows its number 1–5.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceNumber {
    /// A small numeral beside the symbol: legible down to the narrowest diagrams.
    #[default]
    Numeral,
    /// That many dots under the symbol, as the period diagrams drew them (each at least 0.35 mm
    /// across when printed).
    Dots,
}

/// A colour, written `#rrggbb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

impl Colour {
    /// The colour of these red, green and blue values.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Colour {
        Colour { r, g, b }
    }

    /// Relative luminance 0–1 (ITU-R BT.601 weights, the usual greyscale conversion).
    pub fn luminance(self) -> f32 {
        (0.299 * self.r as f32 + 0.587 * self.g as f32 + 0.114 * self.b as f32) / 255.0
    }

    /// The grey of the same luminance.
    pub fn grey(self) -> Colour {
        let v = (self.luminance() * 255.0).round() as u8;
        Colour::rgb(v, v, v)
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

impl FromStr for Colour {
    type Err = ParseOptionError;

    /// Reads `#rrggbb`, `rrggbb` or `#rgb`.
    fn from_str(text: &str) -> Result<Colour, ParseOptionError> {
        let error =
            || ParseOptionError::new("colour", text, "write it as #rrggbb, such as #8c1c1c");
        let hex = text.trim().trim_start_matches('#');
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(error());
        }
        let digit =
            |i: usize| u8::from_str_radix(hex.get(i..i + 1).unwrap_or("0"), 16).unwrap_or(0);
        match hex.len() {
            6 => {
                let byte = |i: usize| digit(i) * 16 + digit(i + 1);
                Ok(Colour::rgb(byte(0), byte(2), byte(4)))
            }
            3 => Ok(Colour::rgb(digit(0) * 17, digit(1) * 17, digit(2) * 17)),
            _ => Err(error()),
        }
    }
}

/// The colours of a diagram. The defaults print well in colour and in greyscale: Green pieces are
/// light (pale green, a dark outline and dark symbols), Red pieces dark (deep red, light symbols), the
/// dark squares a mid grey between the two, so the sides stay apart when printed in black and white.
///
/// Built from [`Palette::default`] or [`Palette::greyscale`] with its setters:
/// `Palette::default().dark(Colour::rgb(0x90, 0x90, 0x90))`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Palette {
    /// The page behind the board.
    pub paper: Colour,
    /// The light squares.
    pub light: Colour,
    /// The dark squares, on which play takes place.
    pub dark: Colour,
    /// Green pieces.
    pub green: Colour,
    /// The symbol, dots and numbers on Green pieces.
    pub green_symbol: Colour,
    /// Red pieces.
    pub red: Colour,
    /// The symbol, dots and numbers on Red pieces.
    pub red_symbol: Colour,
    /// The squares of the last move, a tint over them.
    pub highlight: Colour,
    /// The edge drawn inside the last move's squares, so that the move shows in black-and-white
    /// print, where a tint alone disappears.
    pub highlight_edge: Colour,
    /// Marked squares and arrows.
    pub accent: Colour,
    /// Frame, piece outlines, coordinates and captions.
    pub ink: Colour,
}

impl Palette {
    /// The page behind the board (the field `paper`).
    #[must_use]
    pub fn paper(mut self, paper: Colour) -> Palette {
        self.paper = paper;
        self
    }

    /// The light squares (the field `light`).
    #[must_use]
    pub fn light(mut self, light: Colour) -> Palette {
        self.light = light;
        self
    }

    /// The dark squares, on which play takes place (the field `dark`).
    #[must_use]
    pub fn dark(mut self, dark: Colour) -> Palette {
        self.dark = dark;
        self
    }

    /// Green pieces (the field `green`).
    #[must_use]
    pub fn green(mut self, green: Colour) -> Palette {
        self.green = green;
        self
    }

    /// The symbol, dots and numbers on Green pieces (the field `green_symbol`).
    #[must_use]
    pub fn green_symbol(mut self, green_symbol: Colour) -> Palette {
        self.green_symbol = green_symbol;
        self
    }

    /// Red pieces (the field `red`).
    #[must_use]
    pub fn red(mut self, red: Colour) -> Palette {
        self.red = red;
        self
    }

    /// The symbol, dots and numbers on Red pieces (the field `red_symbol`).
    #[must_use]
    pub fn red_symbol(mut self, red_symbol: Colour) -> Palette {
        self.red_symbol = red_symbol;
        self
    }

    /// The squares of the last move (the field `highlight`).
    #[must_use]
    pub fn highlight(mut self, highlight: Colour) -> Palette {
        self.highlight = highlight;
        self
    }

    /// The edge inside the last move's squares (the field `highlight_edge`).
    #[must_use]
    pub fn highlight_edge(mut self, highlight_edge: Colour) -> Palette {
        self.highlight_edge = highlight_edge;
        self
    }

    /// Marked squares and arrows (the field `accent`).
    #[must_use]
    pub fn accent(mut self, accent: Colour) -> Palette {
        self.accent = accent;
        self
    }

    /// Frame, piece outlines, coordinates and captions (the field `ink`).
    #[must_use]
    pub fn ink(mut self, ink: Colour) -> Palette {
        self.ink = ink;
        self
    }
}

impl Default for Palette {
    fn default() -> Palette {
        Palette {
            paper: Colour::rgb(0xff, 0xff, 0xff),
            light: Colour::rgb(0xf4, 0xf0, 0xe4),
            dark: Colour::rgb(0xa8, 0xa4, 0x98),
            green: Colour::rgb(0xd3, 0xe8, 0xc4),
            green_symbol: Colour::rgb(0x1c, 0x38, 0x1c),
            red: Colour::rgb(0x8c, 0x1c, 0x1c),
            red_symbol: Colour::rgb(0xfb, 0xf3, 0xe4),
            highlight: Colour::rgb(0xf2, 0xc8, 0x3c),
            highlight_edge: Colour::rgb(0x8a, 0x5c, 0x00),
            accent: Colour::rgb(0x1d, 0x4f, 0x9c),
            ink: Colour::rgb(0x1a, 0x1a, 0x1a),
        }
    }
}

impl Palette {
    /// The default palette turned to greys of the same luminance, for black-and-white print; the
    /// last move, whose amber would turn to the grey of the dark squares, is a pale grey with a
    /// near-black edge instead.
    pub fn greyscale() -> Palette {
        let p = Palette::default();
        Palette {
            paper: p.paper.grey(),
            light: p.light.grey(),
            dark: p.dark.grey(),
            green: p.green.grey(),
            green_symbol: p.green_symbol.grey(),
            red: p.red.grey(),
            red_symbol: p.red_symbol.grey(),
            highlight: Colour::rgb(0xe8, 0xe8, 0xe8),
            highlight_edge: Colour::rgb(0x2a, 0x2a, 0x2a),
            accent: p.accent.grey(),
            ink: p.ink.grey(),
        }
    }
}

impl FromStr for Palette {
    type Err = ParseOptionError;

    /// A named palette: `colour` (the default) or `greyscale`.
    fn from_str(text: &str) -> Result<Palette, ParseOptionError> {
        #[derive(Clone, Copy)]
        enum Name {
            Colour,
            Greyscale,
        }
        let table = [
            ("colour", Name::Colour),
            ("color", Name::Colour),
            ("default", Name::Colour),
            ("greyscale", Name::Greyscale),
            ("grayscale", Name::Greyscale),
        ];
        Ok(match parse_keyword("palette", text, &table)? {
            Name::Colour => Palette::default(),
            Name::Greyscale => Palette::greyscale(),
        })
    }
}

/// Everything a diagram shows besides the position.
///
/// The printed size is `width` when given, otherwise `size` CSS pixels (1/96 inch) per square. The
/// SVG is drawn in CSS pixels, the PNG at `dpi` pixels per inch of that size, and the TikZ picture the
/// same physical size (`0.75 × size` pt per square). Every mark is sized for the printed size: text at
/// least 6 pt, lines at least 0.25 pt, number dots at least 0.35 mm across.
///
/// Built from [`DiagramOptions::default`] with its setters:
/// `DiagramOptions::default().flip(true).coordinates(Coordinates::Both)`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DiagramOptions {
    /// Red's view: Red's first rank at the bottom, file a on the right.
    pub flip: bool,
    /// Which coordinates are drawn.
    pub coordinates: Coordinates,
    /// How Salta pieces are drawn.
    pub pieces: PieceStyle,
    /// How [`PieceStyle::Symbols`] shows the piece numbers.
    pub piece_number: PieceNumber,
    /// The last move, its two squares highlighted (nothing for a pass).
    pub last_move: Option<Move>,
    /// Squares outlined in the accent colour.
    pub marks: Vec<Square>,
    /// Arrows from square to square, drawn over the pieces.
    pub arrows: Vec<(Square, Square)>,
    /// The side of a square in CSS pixels (1/96 inch), 8–1000.
    pub size: u32,
    /// The printed width of the whole diagram in points (1/72 inch), within [`WIDTH_RANGE_PT`];
    /// overrides `size`.
    pub width: Option<f32>,
    /// Resolution of PNG output, 10–2400.
    pub dpi: f32,
    /// The colours.
    pub palette: Palette,
    /// A line above the board.
    pub title: Option<String>,
    /// A line under the board.
    pub caption: Option<String>,
    /// A small disc beside the board, on the side of the player to move.
    pub side_to_move: bool,
}

impl DiagramOptions {
    /// Red's view (the field `flip`).
    #[must_use]
    pub fn flip(mut self, flip: bool) -> DiagramOptions {
        self.flip = flip;
        self
    }

    /// Which coordinates are drawn (the field `coordinates`).
    #[must_use]
    pub fn coordinates(mut self, coordinates: Coordinates) -> DiagramOptions {
        self.coordinates = coordinates;
        self
    }

    /// How Salta pieces are drawn (the field `pieces`).
    #[must_use]
    pub fn pieces(mut self, pieces: PieceStyle) -> DiagramOptions {
        self.pieces = pieces;
        self
    }

    /// How [`PieceStyle::Symbols`] shows the piece numbers (the field `piece_number`).
    #[must_use]
    pub fn piece_number(mut self, piece_number: PieceNumber) -> DiagramOptions {
        self.piece_number = piece_number;
        self
    }

    /// The last move, its two squares highlighted (the field `last_move`).
    #[must_use]
    pub fn last_move(mut self, last_move: impl Into<Option<Move>>) -> DiagramOptions {
        self.last_move = last_move.into();
        self
    }

    /// The squares of the last move to highlight: none for a pass.
    pub(crate) fn last_squares(&self) -> Option<(Square, Square)> {
        (self.last_move)
            .filter(|m| m.kind != MoveKind::Pass)
            .map(|m| (m.from, m.to))
    }

    /// Squares outlined in the accent colour (the field `marks`).
    #[must_use]
    pub fn marks(mut self, marks: Vec<Square>) -> DiagramOptions {
        self.marks = marks;
        self
    }

    /// Arrows from square to square, drawn over the pieces (the field `arrows`).
    #[must_use]
    pub fn arrows(mut self, arrows: Vec<(Square, Square)>) -> DiagramOptions {
        self.arrows = arrows;
        self
    }

    /// The side of a square in CSS pixels (1/96 inch), 8–1000 (the field `size`).
    #[must_use]
    pub fn size(mut self, size: u32) -> DiagramOptions {
        self.size = size;
        self
    }

    /// The printed width in points, overriding `size` (the field `width`).
    #[must_use]
    pub fn width(mut self, width: impl Into<Option<f32>>) -> DiagramOptions {
        self.width = width.into();
        self
    }

    /// Resolution of PNG output, 10–2400 (the field `dpi`).
    #[must_use]
    pub fn dpi(mut self, dpi: f32) -> DiagramOptions {
        self.dpi = dpi;
        self
    }

    /// The colours (the field `palette`).
    #[must_use]
    pub fn palette(mut self, palette: Palette) -> DiagramOptions {
        self.palette = palette;
        self
    }

    /// A line above the board (the field `title`).
    #[must_use]
    pub fn title(mut self, title: impl Into<Option<String>>) -> DiagramOptions {
        self.title = title.into();
        self
    }

    /// A line under the board (the field `caption`).
    #[must_use]
    pub fn caption(mut self, caption: impl Into<Option<String>>) -> DiagramOptions {
        self.caption = caption.into();
        self
    }

    /// A small disc beside the board, on the side of the player to move (the field `side_to_move`).
    #[must_use]
    pub fn side_to_move(mut self, side_to_move: bool) -> DiagramOptions {
        self.side_to_move = side_to_move;
        self
    }
}

impl Default for DiagramOptions {
    fn default() -> DiagramOptions {
        DiagramOptions {
            flip: false,
            coordinates: Coordinates::default(),
            pieces: PieceStyle::default(),
            piece_number: PieceNumber::default(),
            last_move: None,
            marks: Vec::new(),
            arrows: Vec::new(),
            size: DEFAULT_SIZE,
            width: None,
            dpi: DEFAULT_DPI,
            palette: Palette::default(),
            title: None,
            caption: None,
            side_to_move: true,
        }
    }
}

/// 36 px (27 pt) per square: a 10×10 diagram with its coordinates about 11 cm wide, within the
/// text width of a standard LaTeX article or a book page.
pub const DEFAULT_SIZE: u32 = 36;
/// Print resolution.
pub const DEFAULT_DPI: f32 = 300.0;
/// The sizes [`DiagramOptions::size`] may take, in CSS pixels per square.
pub const SIZE_RANGE: std::ops::RangeInclusive<u32> = 8..=1000;
/// The resolutions [`DiagramOptions::dpi`] may take.
pub const DPI_RANGE: std::ops::RangeInclusive<f32> = 10.0..=2400.0;
/// Printed widths from 2 cm to 1 m, in points.
pub const WIDTH_RANGE_PT: std::ops::RangeInclusive<f32> = (2.0 * PT_PER_CM)..=(100.0 * PT_PER_CM);
/// Points (1/72 inch) in a centimetre.
pub const PT_PER_CM: f32 = 72.0 / 2.54;

/// Reads a printed length such as `7.5cm`, `75mm`, `3in` or `212pt` and returns it in points.
pub fn parse_length(text: &str) -> Result<f32, ParseOptionError> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let per_unit = match unit.trim().to_ascii_lowercase().as_str() {
        "cm" => PT_PER_CM,
        "mm" => PT_PER_CM / 10.0,
        "in" => 72.0,
        "pt" => 1.0,
        _ => {
            return Err(ParseOptionError::new(
                "length",
                text,
                "give a number and a unit: cm, mm, in or pt, such as 7.5cm",
            ));
        }
    };
    match number.trim().parse::<f32>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok(value * per_unit),
        _ => Err(ParseOptionError::new(
            "length",
            text,
            "the number must be positive, such as 7.5cm",
        )),
    }
}

/// Why a command-line spelling of an option could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid {option} {}: {reason}", quote(.text))]
#[non_exhaustive]
pub struct ParseOptionError {
    /// The option's name.
    pub option: &'static str,
    /// The text given.
    pub text: String,
    /// Why it cannot be read.
    pub reason: String,
}

impl ParseOptionError {
    fn new(option: &'static str, text: &str, reason: impl Into<String>) -> ParseOptionError {
        ParseOptionError {
            option,
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// Matches `text` (case-insensitive) against a table of spellings.
fn parse_keyword<T: Copy>(
    option: &'static str,
    text: &str,
    table: &[(&str, T)],
) -> Result<T, ParseOptionError> {
    let wanted = text.trim().to_ascii_lowercase();
    table
        .iter()
        .find(|(name, _)| *name == wanted)
        .map(|&(_, value)| value)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(name, _)| *name).collect();
            ParseOptionError::new(
                option,
                text,
                format!("expected one of {}", names.join(", ")),
            )
        })
}

impl FromStr for DiagramFormat {
    type Err = ParseOptionError;
    fn from_str(text: &str) -> Result<DiagramFormat, ParseOptionError> {
        use DiagramFormat::*;
        parse_keyword(
            "format",
            text,
            &[
                ("text", Text),
                ("txt", Text),
                ("svg", Svg),
                ("png", Png),
                ("pdf", Pdf),
                ("tikz", Tikz),
                ("tex", Tikz),
            ],
        )
    }
}

impl FromStr for Coordinates {
    type Err = ParseOptionError;
    fn from_str(text: &str) -> Result<Coordinates, ParseOptionError> {
        use Coordinates::*;
        parse_keyword(
            "coordinates",
            text,
            &[
                ("none", None),
                ("numbers", Numbers),
                ("algebraic", Algebraic),
                ("both", Both),
            ],
        )
    }
}

impl FromStr for PieceStyle {
    type Err = ParseOptionError;
    fn from_str(text: &str) -> Result<PieceStyle, ParseOptionError> {
        use PieceStyle::*;
        parse_keyword(
            "piece style",
            text,
            &[
                ("symbols", Symbols),
                ("numbers", Numbers),
                ("designators", Designators),
            ],
        )
    }
}

impl FromStr for PieceNumber {
    type Err = ParseOptionError;
    fn from_str(text: &str) -> Result<PieceNumber, ParseOptionError> {
        use PieceNumber::*;
        parse_keyword(
            "piece number",
            text,
            &[("numeral", Numeral), ("dots", Dots)],
        )
    }
}

impl fmt::Display for DiagramFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_parse_and_errors_list_the_choices() {
        assert_eq!("SVG".parse::<DiagramFormat>(), Ok(DiagramFormat::Svg));
        assert_eq!("tex".parse::<DiagramFormat>(), Ok(DiagramFormat::Tikz));
        assert_eq!("both".parse::<Coordinates>(), Ok(Coordinates::Both));
        assert_eq!("numbers".parse::<PieceStyle>(), Ok(PieceStyle::Numbers));
        let err = "jpeg".parse::<DiagramFormat>().unwrap_err().to_string();
        assert_eq!(
            err,
            "invalid format \"jpeg\": expected one of text, txt, svg, png, pdf, tikz, tex"
        );
        for format in DiagramFormat::ALL {
            assert_eq!(format.name().parse::<DiagramFormat>(), Ok(format));
        }
    }

    #[test]
    fn lengths_in_every_unit() {
        let close = |text: &str, pt: f32| {
            let got = parse_length(text).unwrap();
            assert!((got - pt).abs() < 0.01, "{text}: {got}");
        };
        close("7.5cm", 212.6);
        close("75 mm", 212.6);
        close("3in", 216.0);
        close("100pt", 100.0);
        close(" 2.54CM ", 72.0);
        for bad in [
            "",
            "7.5",
            "cm",
            "-3cm",
            "0mm",
            "5furlongs",
            "nancm",
            "infcm",
        ] {
            assert!(parse_length(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn palettes_by_name() {
        assert_eq!("greyscale".parse::<Palette>(), Ok(Palette::greyscale()));
        assert_eq!("Colour".parse::<Palette>(), Ok(Palette::default()));
        assert!(
            "sepia"
                .parse::<Palette>()
                .unwrap_err()
                .to_string()
                .contains("greyscale")
        );
    }

    #[test]
    fn colours_round_trip() {
        assert_eq!(
            "#8c1c1c".parse::<Colour>(),
            Ok(Colour::rgb(0x8c, 0x1c, 0x1c))
        );
        assert_eq!("fff".parse::<Colour>(), Ok(Colour::rgb(255, 255, 255)));
        assert_eq!(Colour::rgb(1, 2, 255).to_string(), "#0102ff");
        for bad in ["", "#12345", "red", "#gg0000", "#ü0000"] {
            assert!(bad.parse::<Colour>().is_err(), "{bad}");
        }
    }

    #[test]
    fn default_sides_differ_in_greyscale() {
        for p in [Palette::default(), Palette::greyscale()] {
            let green = p.green.luminance();
            let red = p.red.luminance();
            let dark = p.dark.luminance();
            assert!(green - red > 0.5, "green {green} red {red}");
            assert!(
                green > dark + 0.15 && dark > red + 0.15,
                "dark squares between the sides"
            );
            assert!(p.green_symbol.luminance() < 0.3 && p.red_symbol.luminance() > 0.8);
        }
    }
}
