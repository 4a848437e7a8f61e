//! Board diagrams: snapshots of the text, SVG and TikZ output, well-formedness of the SVG, and the
//! PNG decoded back.

use resvg::{tiny_skia, usvg};
use salta::board::{BoardKind, Geometry, Square};
use salta::export::diagram::{
    self, Coordinates, DiagramError, DiagramFormat, DiagramOptions, Palette, PieceNumber,
    PieceStyle,
};
use salta::rules::{Move, MoveKind, Position, Rules, Variant};

/// A midgame reached by play from the start: Red has just jumped g5:e3 and Green must jump f2:d4.
const MIDGAME: &str = "G/11,32,13,23,25,31,22,43,24,35,62,61,53,65,64/105,104,103,102,91,85,94,83,92,51,33,21,55,52,41/21";
/// A Pyramid race in progress, Red to move.
const PYRAMID_MIDGAME: &str = "R/11,12,14,22,24,32,42,43,53,34/84,83,81,73,71,63,62,52,54,44/9";

fn midgame() -> Position {
    Position::from_setup(MIDGAME, Rules::default()).unwrap()
}

fn square(pos: &Position, name: &str) -> Square {
    pos.geometry().parse_square(name).unwrap()
}

/// An arrow between two squares named in either notation.
fn arrow(pos: &Position, from: &str, to: &str) -> (Square, Square) {
    (square(pos, from), square(pos, to))
}

/// Red's jump g5:e3 that led to the midgame.
fn last_jump(pos: &Position) -> Move {
    let (from, to) = arrow(pos, "g5", "e3");
    Move::new(pos.geometry(), from, to, MoveKind::Jump).unwrap()
}

/// The midgame with everything switched on: the documentation image (docs/midgame.svg and .png).
fn midgame_options(pos: &Position) -> DiagramOptions {
    DiagramOptions::default()
        .coordinates(Coordinates::Both)
        .last_move(last_jump(pos))
        .arrows(vec![arrow(pos, "f2", "d4")])
        .caption("Green to move must jump f2:d4".to_string())
        .dpi(150.0)
}

/// Red's view with the last move, marks and arrows, pieces numbered 1–15.
fn flipped_options(pos: &Position) -> DiagramOptions {
    DiagramOptions::default()
        .flip(true)
        .pieces(PieceStyle::Numbers)
        .last_move(last_jump(pos))
        .marks(vec![square(pos, "d4"), square(pos, "h6")])
        .arrows(vec![arrow(pos, "f2", "d4"), arrow(pos, "b8", "c7")])
        .title("Red's view".to_string())
}

fn pyramid() -> Position {
    Position::from_setup(PYRAMID_MIDGAME, Rules::of(Variant::Pyramid)).unwrap()
}

/// Every case snapshotted: name, position, options.
fn cases() -> Vec<(&'static str, Position, DiagramOptions)> {
    let start = Position::start(Rules::default());
    let mid = midgame();
    let pyramid = pyramid();
    let pyramid_options = DiagramOptions::default()
        .coordinates(Coordinates::Both)
        .marks(vec![square(&pyramid, "e4")]);
    vec![
        ("start", start, DiagramOptions::default()),
        ("midgame", mid, midgame_options(&mid)),
        ("flipped", mid, flipped_options(&mid)),
        ("pyramid", pyramid, pyramid_options),
    ]
}

#[test]
fn text_snapshots() {
    for (name, pos, opts) in cases() {
        insta::assert_snapshot!(format!("text_{name}"), diagram::text(&pos, &opts).unwrap());
    }
}

#[test]
fn svg_snapshots() {
    for (name, pos, opts) in cases() {
        insta::assert_snapshot!(format!("svg_{name}"), diagram::svg(&pos, &opts).unwrap());
    }
}

#[test]
fn tikz_snapshots() {
    for (name, pos, opts) in cases() {
        insta::assert_snapshot!(format!("tikz_{name}"), diagram::tikz(&pos, &opts).unwrap());
    }
}

#[test]
fn svg_is_well_formed_and_sized_in_pixels_per_square() {
    for (name, pos, opts) in cases() {
        for size in [12, 40, 100] {
            let opts = opts.clone().size(size);
            let svg = diagram::svg(&pos, &opts).unwrap();
            let tree = usvg::Tree::from_str(&svg, &usvg::Options::default())
                .unwrap_or_else(|e| panic!("{name} at size {size}: {e}"));
            let squares = pos.geometry().size() as f32;
            let (w, h) = (tree.size().width(), tree.size().height());
            // The board plus margins, coordinates, the side to move and captions: more than the
            // squares, less than four extra squares each way (at 12 px a square, 6 pt text takes
            // two thirds of one).
            assert!(
                w > squares * size as f32 && w < (squares + 4.0) * size as f32,
                "{name}: width {w}"
            );
            assert!(
                h > squares * size as f32 && h < (squares + 4.0) * size as f32,
                "{name}: height {h}"
            );
        }
    }
}

#[test]
fn svg_draws_one_disc_per_piece_and_the_symbols_as_paths() {
    let pos = midgame();
    let svg = diagram::svg(&pos, &midgame_options(&pos)).unwrap();
    assert_eq!(svg.matches("class=\"piece green\"").count(), 15);
    assert_eq!(svg.matches("class=\"piece red\"").count(), 15);
    // Five of each symbol per side, each a path (no glyphs); suns are rays plus a core.
    assert_eq!(svg.matches("<path class=\"star\"").count(), 10);
    assert_eq!(svg.matches("<path class=\"moon\"").count(), 10);
    assert_eq!(svg.matches("<path class=\"sun\"").count(), 10);
    // The numbers 1–5 as one numeral per piece, or as 1+2+3+4+5 dots per kind and side.
    assert_eq!(svg.matches("class=\"numeral\"").count(), 30);
    assert!(!svg.contains("class=\"dot\""));
    let dotted = midgame_options(&pos).piece_number(PieceNumber::Dots);
    let svg_dots = diagram::svg(&pos, &dotted).unwrap();
    assert_eq!(svg_dots.matches("class=\"dot\"").count(), 6 * 15);
    assert!(!svg_dots.contains("class=\"numeral\""));
    assert_eq!(svg.matches("class=\"square dark\"").count(), 50);
    // At 27 pt a square, 6 pt numbers do not fit beside centred discs: on the 20 empty squares.
    assert_eq!(svg.matches("class=\"number\"").count(), 20);
    assert_eq!(svg.matches("class=\"coordinate\"").count(), 20);
    assert_eq!(svg.matches("class=\"last-move\"").count(), 2);
    assert_eq!(svg.matches("class=\"last-move-edge\"").count(), 2);
    assert_eq!(svg.matches("class=\"arrow\"").count(), 1);
    assert!(
        svg.contains(MIDGAME),
        "the Setup line is recorded in <desc>"
    );
    let pyramid = pyramid();
    let svg = diagram::svg(&pyramid, &DiagramOptions::default()).unwrap();
    assert_eq!(svg.matches("class=\"piece ").count(), 20);
    assert_eq!(svg.matches("class=\"square dark\"").count(), 32);
    assert!(
        !svg.contains("class=\"star\"") && !svg.contains("class=\"dot\""),
        "Pyramid pieces are plain"
    );
}

#[test]
fn coordinates_none_draws_no_text_at_all() {
    let pos = midgame();
    let opts = DiagramOptions::default()
        .coordinates(Coordinates::None)
        .piece_number(PieceNumber::Dots)
        .side_to_move(false);
    let svg = diagram::svg(&pos, &opts).unwrap();
    assert!(!svg.contains("<text"), "symbols with dots need no fonts");
    let named = diagram::svg(&pos, &opts.side_to_move(true)).unwrap();
    assert_eq!(named.matches("<text").count(), 1, "only \"Green to move\"");
}

/// The font sizes (in CSS pixels, the SVG's printed unit) of the elements of `class`.
fn font_sizes(svg: &str, class: &str) -> Vec<f32> {
    svg.lines()
        .filter(|l| l.contains(&format!("<text class=\"{class}\"")))
        .map(|l| {
            let at = l.find("font-size=\"").expect("a font size") + "font-size=\"".len();
            let end = at + l[at..].find('"').unwrap();
            l[at..end].parse().unwrap()
        })
        .collect()
}

#[test]
fn a_pieces_number_grows_with_the_printed_width() {
    let pos = midgame();
    let numeral = |cm: f32| {
        let opts = midgame_options(&pos).width(cm * diagram::PT_PER_CM);
        let svg = diagram::svg(&pos, &opts).unwrap();
        let sizes = font_sizes(&svg, "numeral");
        assert_eq!(sizes.len(), 30, "{cm} cm");
        let numbers = font_sizes(&svg, "number");
        // The piece's number is the largest text on the board: no square number is larger (at
        // 5 cm both are at the 6 pt floor, the numeral in bold).
        let largest_number = numbers.iter().copied().fold(0.0, f32::max);
        assert!(sizes[0] >= largest_number, "{cm} cm: {sizes:?} {numbers:?}");
        if cm > 6.0 {
            assert!(
                sizes[0] > 1.2 * largest_number,
                "{cm} cm: {sizes:?} {numbers:?}"
            );
        }
        sizes[0]
    };
    let (small, middle, large) = (numeral(5.0), numeral(7.5), numeral(11.0));
    // 6 pt = 8 CSS px is the floor.
    assert!(small >= 8.0 - 0.01, "{small}");
    assert!(middle > small && large > middle, "{small} {middle} {large}");
    assert!(large >= 1.8 * small, "11 cm: {large} px, 5 cm: {small} px");
}

#[test]
fn user_text_is_escaped() {
    let pos = midgame();
    let opts = DiagramOptions::default()
        .title("Krone <vs> Grotewold & \"friends\"".to_string())
        .caption("100% {sure} #1 $5 ~x_y^2 \\".to_string());
    let svg = diagram::svg(&pos, &opts).unwrap();
    assert!(usvg::Tree::from_str(&svg, &usvg::Options::default()).is_ok());
    assert!(svg.contains("Krone &lt;vs&gt; Grotewold &amp; &quot;friends&quot;"));
    let tikz = diagram::tikz(&pos, &opts).unwrap();
    assert!(tikz.contains(
        r"100\% \{sure\} \#1 \$5 \textasciitilde{}x\_y\textasciicircum{}2 \textbackslash{}"
    ));
}

/// The PNG header: signature, then IHDR with width and height.
fn png_header(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes([png[i], png[i + 1], png[i + 2], png[i + 3]]);
    (be(16), be(20))
}

#[test]
fn png_decodes_at_size_times_dpi_over_96() {
    let pos = midgame();
    let base = midgame_options(&pos);
    let svg = diagram::svg(&pos, &base).unwrap();
    let tree = usvg::Tree::from_str(&svg, &usvg::Options::default()).unwrap();
    for dpi in [96.0, 150.0, 300.0] {
        let opts = base.clone().dpi(dpi);
        let png = diagram::png(&pos, &opts).unwrap();
        let (w, h) = png_header(&png);
        let scale = dpi / 96.0;
        assert_eq!(
            (w, h),
            (
                (tree.size().width() * scale).round() as u32,
                (tree.size().height() * scale).round() as u32
            )
        );
        assert_eq!(diagram::png_dimensions(&pos, &opts).unwrap(), (w, h));
        let pixmap = tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((pixmap.width(), pixmap.height()), (w, h));
        // The resolution travels with the file (pHYs, pixels per metre).
        let phys = png
            .windows(4)
            .position(|c| c == b"pHYs")
            .expect("pHYs chunk");
        let per_metre =
            u32::from_be_bytes([png[phys + 4], png[phys + 5], png[phys + 6], png[phys + 7]]);
        assert_eq!(per_metre, (dpi / 0.0254).round() as u32);
    }
}

/// The pixel at the centre of a square, for a board without coordinates or side-to-move line: the
/// board starts 0.25 squares (the margin) from the left and the top.
fn centre_pixel(
    pixmap: &tiny_skia::Pixmap,
    view_col: u32,
    view_row: u32,
    size: u32,
) -> tiny_skia::ColorU8 {
    let x = ((0.25 + view_col as f32 + 0.5) * size as f32) as u32;
    let y = ((0.25 + view_row as f32 + 0.5) * size as f32) as u32;
    pixmap.pixel(x, y).unwrap().demultiply()
}

fn grey(c: tiny_skia::ColorU8) -> f32 {
    (0.299 * c.red() as f32 + 0.587 * c.green() as f32 + 0.114 * c.blue() as f32) / 255.0
}

#[test]
fn png_pixels_show_the_board_and_the_sides_apart_in_greyscale() {
    let pos = Position::start(Rules::default());
    let size = 40;
    for flip in [false, true] {
        let opts = DiagramOptions::default()
            .size(size)
            .dpi(96.0)
            .flip(flip)
            .coordinates(Coordinates::None)
            .side_to_move(false)
            .palette(Palette::greyscale());
        let pixmap = tiny_skia::Pixmap::decode_png(&diagram::png(&pos, &opts).unwrap()).unwrap();
        // a5 is an empty dark square, column 0 (9 flipped) and row 5 (4 flipped); b5 is light.
        let (a5, b5) = if flip {
            ((9, 4), (8, 4))
        } else {
            ((0, 5), (1, 5))
        };
        let dark = centre_pixel(&pixmap, a5.0, a5.1, size);
        let light = centre_pixel(&pixmap, b5.0, b5.1, size);
        assert_eq!((dark.red(), dark.green(), dark.blue()), {
            let d = opts.palette.dark;
            (d.r, d.g, d.b)
        });
        assert!(grey(light) > grey(dark) + 0.2);
        // Near the bottom of the disc on a1 (Green star 1) and b10 (Red star 5), under the symbol
        // and numeral: the disc colours, far apart in grey.
        let (a1, b10) = if flip {
            ((9, 0), (8, 9))
        } else {
            ((0, 9), (1, 0))
        };
        let rim = |(col, row): (u32, u32)| {
            let x = ((0.25 + col as f32 + 0.5) * size as f32) as u32;
            let y = ((0.25 + row as f32 + 0.5 + 0.33) * size as f32) as u32;
            grey(pixmap.pixel(x, y).unwrap().demultiply())
        };
        let (green, red) = (rim(a1), rim(b10));
        assert!(green - red > 0.5, "flip {flip}: green {green} red {red}");
    }
}

#[test]
fn render_dispatches_to_each_format() {
    let pos = midgame();
    let opts = midgame_options(&pos);
    let text = diagram::render(&pos, &opts, DiagramFormat::Text).unwrap();
    assert_eq!(
        String::from_utf8(text).unwrap(),
        diagram::text(&pos, &opts).unwrap()
    );
    let svg = diagram::render(&pos, &opts, DiagramFormat::Svg).unwrap();
    assert_eq!(
        String::from_utf8(svg).unwrap(),
        diagram::svg(&pos, &opts).unwrap()
    );
    let tikz = diagram::render(&pos, &opts, DiagramFormat::Tikz).unwrap();
    assert_eq!(
        String::from_utf8(tikz).unwrap(),
        diagram::tikz(&pos, &opts).unwrap()
    );
    let png = diagram::render(&pos, &opts, DiagramFormat::Png).unwrap();
    assert_eq!(
        png_header(&png),
        diagram::png_dimensions(&pos, &opts).unwrap()
    );
}

#[test]
fn tikz_is_one_balanced_picture() {
    for (name, pos, opts) in cases() {
        let tikz = diagram::tikz(&pos, &opts).unwrap();
        let body: Vec<&str> = tikz.lines().filter(|l| !l.starts_with('%')).collect();
        assert_eq!(
            body.first().map(|l| l.starts_with("\\begin{tikzpicture}")),
            Some(true),
            "{name}"
        );
        assert_eq!(body.last(), Some(&"\\end{tikzpicture}"), "{name}");
        for line in &body[1..body.len() - 1] {
            let code = line.split(" % ").next().unwrap_or(line);
            assert!(
                code.ends_with(';') || code.starts_with("\\definecolor"),
                "{name}: {line}"
            );
            let depth = code.chars().try_fold(0i32, |d, c| {
                let d = match c {
                    '{' => d + 1,
                    '}' => d - 1,
                    _ => d,
                };
                (d >= 0).then_some(d)
            });
            assert_eq!(depth, Some(0), "{name}: unbalanced braces in {line}");
        }
    }
}

#[test]
fn text_rows_line_up_and_flip_turns_the_labels() {
    let pos = midgame();
    let plain = diagram::text(&pos, &DiagramOptions::default()).unwrap();
    let flipped = diagram::text(&pos, &DiagramOptions::default().flip(true)).unwrap();
    for text in [&plain, &flipped] {
        let rows: Vec<&str> = text.lines().filter(|l| l.contains('|')).collect();
        assert_eq!(rows.len(), 10);
        assert!(
            rows.iter()
                .all(|r| r.chars().count() == rows[0].chars().count())
        );
    }
    assert!(plain.lines().nth(1).unwrap().starts_with("10 |"));
    assert!(flipped.lines().nth(1).unwrap().starts_with(" 1 |"));
    let files = |t: &str| {
        t.lines()
            .find(|l| l.trim_start().starts_with(['a', 'j']))
            .unwrap()
            .split_whitespace()
            .collect::<String>()
    };
    assert_eq!(files(&plain), "abcdefghij");
    assert_eq!(files(&flipped), "jihgfedcba");
    // Green star 1 on a1 is at the bottom left in Green's view and the top right in Red's.
    let bottom_row = plain.lines().nth(10).unwrap();
    assert!(bottom_row.starts_with(" 1 | St1"), "{bottom_row}");
    let top_row = flipped.lines().nth(1).unwrap();
    assert!(top_row.ends_with("St1 |"), "{top_row}");
    // ASCII alone, within 80 columns: every monospace font draws it, none doubles a glyph.
    for text in [&plain, &flipped] {
        assert!(
            text.is_ascii() && text.lines().all(|l| l.len() <= 80),
            "{text}"
        );
    }
}

#[test]
fn bad_options_are_errors_not_panics() {
    let pos = midgame();
    let pyramid = pyramid();
    // The Salta square j10 does not exist on the Pyramid board.
    let j10 = Geometry::of(BoardKind::Salta).parse_square("j10").unwrap();
    assert!(!pyramid.geometry().contains(j10));
    let opts = DiagramOptions::default().marks(vec![j10]);
    for format in DiagramFormat::ALL {
        assert!(matches!(
            diagram::render(&pyramid, &opts, format),
            Err(DiagramError::ForeignSquare { what: "mark", .. })
        ));
    }
    let e3 = square(&pos, "e3");
    let opts = DiagramOptions::default().arrows(vec![(e3, e3)]);
    let err = diagram::svg(&pos, &opts).unwrap_err();
    assert_eq!(
        err.to_string(),
        "an arrow from e3 to itself cannot be drawn"
    );
    let opts = DiagramOptions::default().size(0);
    assert_eq!(diagram::svg(&pos, &opts), Err(DiagramError::Size(0)));
    let opts = DiagramOptions::default().dpi(0.0);
    assert_eq!(diagram::png(&pos, &opts), Err(DiagramError::Dpi(0.0)));
    let opts = DiagramOptions::default().size(1000).dpi(2400.0);
    assert!(matches!(
        diagram::png(&pos, &opts),
        Err(DiagramError::TooLarge { .. })
    ));
}

#[test]
fn every_style_and_coordinate_choice_renders() {
    let pos = midgame();
    for pieces in [
        PieceStyle::Symbols,
        PieceStyle::Numbers,
        PieceStyle::Designators,
    ] {
        for coordinates in [
            Coordinates::None,
            Coordinates::Numbers,
            Coordinates::Algebraic,
            Coordinates::Both,
        ] {
            for flip in [false, true] {
                let opts = DiagramOptions::default()
                    .pieces(pieces)
                    .coordinates(coordinates)
                    .flip(flip)
                    .size(10)
                    .dpi(96.0);
                let svg = diagram::svg(&pos, &opts).unwrap();
                assert!(usvg::Tree::from_str(&svg, &usvg::Options::default()).is_ok());
                let text = diagram::text(&pos, &opts).unwrap();
                assert_eq!(
                    text.contains("71"),
                    coordinates.numbers(),
                    "{coordinates:?}: empty d8 shows 71"
                );
                assert!(diagram::png(&pos, &opts).is_ok());
            }
        }
    }
}

#[test]
fn docs_images_are_produced_by_this_code() {
    let pos = midgame();
    let svg = diagram::svg(&pos, &midgame_options(&pos)).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/midgame.svg");
    let committed = std::fs::read_to_string(path).unwrap();
    assert!(
        committed == svg,
        "docs/midgame.svg is out of date: regenerate it (docs/README.md)"
    );
    let png = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/midgame.png")).unwrap();
    assert_eq!(
        png_header(&png),
        diagram::png_dimensions(&pos, &midgame_options(&pos)).unwrap()
    );
}
