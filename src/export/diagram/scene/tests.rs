use super::*;
use crate::export::diagram::canvas::{MIN_DOT_PT, MIN_LINE_PT, MIN_TEXT_PT};
use crate::export::diagram::piece;
use crate::export::diagram::{Coordinates, PT_PER_CM, PieceNumber, PieceStyle};
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

/// The pieces' radius and the number of square numbers drawn at a printed width.
fn numbers_at(cm: f32, coordinates: Coordinates) -> (usize, f32) {
    let start = Position::start(Rules::default());
    let opts = DiagramOptions {
        width: Some(cm * PT_PER_CM),
        coordinates,
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
}

#[test]
fn square_numbers_keep_clear_of_centred_pieces_or_move_to_the_empty_squares() {
    // Very wide: a number in the corner of every dark square, the pieces smaller but centred.
    let (count, radius) = numbers_at(30.0, Coordinates::Numbers);
    assert_eq!(count, 50);
    assert!((piece::SMALLEST_NUMBERED_RADIUS..piece::PIECE_RADIUS).contains(&radius));
    // A book's column and narrower: numbers on the 20 empty dark squares, pieces full size.
    for cm in [5.0, 7.5, 11.0] {
        assert_eq!(
            numbers_at(cm, Coordinates::Both),
            (20, piece::PIECE_RADIUS),
            "{cm} cm"
        );
    }
}

#[test]
fn square_numbers_in_the_corners_keep_clear_of_the_frame() {
    let start = Position::start(Rules::default());
    let opts = DiagramOptions {
        width: Some(30.0 * PT_PER_CM),
        coordinates: Coordinates::Both,
        ..DiagramOptions::default()
    };
    let scene = build(&start, &opts).unwrap();
    let frame = scene.items.iter().find(|i| i.class == "frame").unwrap();
    let (Shape::Rect { x, y, .. }, Some(stroke)) = (&frame.shape, frame.stroke) else {
        panic!("{frame:?}")
    };
    let inner = (x + stroke.width / 2.0, y + stroke.width / 2.0);
    for item in scene.items.iter().filter(|i| i.class == "number") {
        let Shape::Text { at, size, .. } = &item.shape else {
            continue;
        };
        assert!(at.x - inner.0 >= 0.03, "{item:?}");
        assert!(at.y - size * CAP_HEIGHT - inner.1 >= 0.03, "{item:?}");
    }
}

#[test]
fn the_side_to_move_is_named_at_its_own_end_of_the_board() {
    let start = Position::start(Rules::default());
    for (flip, below) in [(false, true), (true, false)] {
        let scene = build(&start, &DiagramOptions::default().flip(flip)).unwrap();
        let label = scene
            .items
            .iter()
            .find_map(|i| match &i.shape {
                Shape::Text { at, text, .. } if i.class == "side-to-move" => {
                    Some((at.y, text.clone()))
                }
                _ => None,
            })
            .unwrap();
        assert_eq!(label.1, "Green to move");
        let frame_top = scene
            .items
            .iter()
            .find_map(|i| match i.shape {
                Shape::Rect { y, .. } if i.class == "frame" => Some(y),
                _ => None,
            })
            .unwrap();
        assert_eq!(label.0 > frame_top + 10.0, below, "flip {flip}");
    }
}

#[test]
fn the_last_move_shows_in_greyscale_print() {
    use crate::export::diagram::Palette;
    let p = Palette::greyscale();
    let edge = p.highlight_edge.luminance();
    assert!(p.dark.luminance() - edge > 0.4 && p.green.luminance() - edge > 0.4);
    assert!(p.highlight.luminance() - p.dark.luminance() > 0.2);
    let start = Position::start(Rules::default());
    let g = start.geometry();
    let opts = DiagramOptions {
        width: Some(5.0 * PT_PER_CM),
        palette: p,
        ..DiagramOptions::default()
    }
    .last_move(crate::rules::Move {
        from: g.parse_square("33").unwrap(),
        to: g.parse_square("43").unwrap(),
        kind: crate::rules::MoveKind::Step,
    });
    let scene = build(&start, &opts).unwrap();
    let edges: Vec<f32> = scene
        .items
        .iter()
        .filter(|i| i.class == "last-move-edge")
        .map(|i| i.stroke.unwrap().width * scene.unit)
        .collect();
    assert_eq!(edges.len(), 2);
    assert!(edges.iter().all(|&w| w >= MIN_EDGE_PT - 1e-3), "{edges:?}");
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
