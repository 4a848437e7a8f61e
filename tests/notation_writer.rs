//! The canonical writer: exact output, and round trips over generated games.

use crate::notation_reader::one;
use proptest::prelude::*;
use salta::board::{BoardKind, Geometry};
use salta::notation::*;

fn write(game: &Game, notation: Notation) -> String {
    write_game(game, &WriteOptions::default().notation(notation))
}

#[test]
fn canonical_form_of_a_liberal_record() {
    let text = "[Result \"1-0\"]\r\n[Margin \"27\"]\n[Numbering \"red\"]\n[Event \"Club \\\"A\\\" \\\\ B\"]\n[Green \"Krone\"]\n\
                1.83-73 {open}  33-43\n(1...83-72 2.84-74) 2. 84-74 $1 32:42 Salta 31x53!? 1-0";
    let game = one(text);
    let expected = "[Event \"Club \\\"A\\\" \\\\ B\"]\n[Green \"Krone\"]\n[Result \"1-0\"]\n[Margin \"27\"]\n\n\
                    1. 33-43 {open} 1... 83-73 (1... 33-44 2. 32-42) 2. 32-42 $1 84:74 Salta!\n85:63!? 1-0\n";
    assert_eq!(write(&game, Notation::Numeric), expected);
    // Writing is idempotent.
    assert_eq!(write(&one(expected), Notation::Numeric), expected);
}

#[test]
fn notations() {
    let game = one("1. 33-43 Su3-74 2. #7 32:52 *");
    assert_eq!(
        write(&game, Notation::Numeric),
        "1. 33-43 Su3-74 2. 32:52 *\n"
    );
    assert_eq!(
        write(&game, Notation::Algebraic),
        "1. e3-f4 Su3-g7 2. c3:c5 *\n"
    );
    assert_eq!(
        write(&game, Notation::Piece),
        "1. 33-43 Su3-74 2. Mo2:52 *\n"
    );
    let pyramid = one("[Rules \"pyramid\"]\n1. #3 12-22 -- *");
    assert_eq!(
        write(&pyramid, Notation::Piece),
        "[Rules \"pyramid\"]\n\n1. #3-22 -- *\n"
    );
}

#[test]
fn move_numbers_follow_setup_and_salta_calls() {
    let setup = "R/11,12,13,14,15,21,22,23,24,25,31,32,33,34,35/105,104,103,102,101,95,94,93,92,91,85,84,83,82,81/7";
    let game = one(&format!(
        "[Setup \"{setup}\"]\n83-73 33-43 82-72 Salta 82:62 {{c}} 34-44 *"
    ));
    let written = write(&game, Notation::Numeric);
    assert!(
        written.ends_with("\n\n7... 83-73 8. 33-43 82-72 Salta! 82:62 {c} 9. 34-44 *\n"),
        "{written}"
    );
    let green = one("1. 33-43 Salta 33:53 83-73 2. 34-44 Salta {called} 34:54 *");
    assert_eq!(
        write(&green, Notation::Numeric),
        "1. 33-43 Salta! 33:53 83-73 2. 34-44 Salta! {called} 2. 34:54 *\n"
    );
}

#[test]
fn wraps_at_80_columns() {
    let mut text = String::new();
    for n in 1..=40 {
        text.push_str(&format!("{n}. 33-43 83-73 {{note {n}}} "));
    }
    text.push('*');
    let written = write(&one(&text), Notation::Numeric);
    assert!(
        written.lines().all(|l| l.chars().count() <= 80),
        "{written}"
    );
    assert!(written.lines().count() > 10);
    assert!(
        written.lines().any(|l| l.chars().count() > 70),
        "lines are filled: {written}"
    );
    assert_eq!(write(&one(&written), Notation::Numeric), written);
}

#[test]
fn comments_that_cannot_be_braced_become_line_comments() {
    let game = one("1. 33-43 ; a } here\n83-73 *");
    assert_eq!(game.mainline.moves[0].comments()[0].text, "a } here");
    let written = write(&game, Notation::Numeric);
    assert_eq!(written, "1. 33-43 ;a } here\n1... 83-73 *\n");
    assert_eq!(
        one(&written).mainline.moves[0].comments()[0].text,
        "a } here"
    );
}

// Round trips over generated games.

const TAG_NAMES: [&str; 10] = [
    "Event", "Site", "Date", "Round", "Green", "Red", "Result", "Margin", "Source", "X_1",
];
const SUFFIXES: [&str; 6] = ["!", "?", "!!", "??", "!?", "?!"];

fn square() -> impl Strategy<Value = SquareRef> {
    let g = Geometry::of(BoardKind::Salta);
    (0..50usize).prop_map(move |i| SquareRef {
        square: g.squares().nth(i).unwrap(),
        span: Span::default(),
    })
}

fn played() -> impl Strategy<Value = Played> {
    let separator = prop_oneof![Just(Separator::Step), Just(Separator::Jump)];
    let designator =
        (0u8..15).prop_map(|id| Designator::new(id, None, Span::default()).expect("ids 0-14"));
    prop_oneof![
        1 => Just(Played::Pass),
        6 => (square(), square(), separator.clone()).prop_map(|(from, to, separator)| Played::Move { piece: None, from: Some(from), to, separator }),
        3 => (designator, square(), separator).prop_map(|(d, to, separator)| Played::Move { piece: Some(d), from: None, to, separator }),
    ]
}

fn comment() -> impl Strategy<Value = Comment> {
    "[a-zA-Z0-9 .,:;!?()\\[\\]äöü★-]{0,30}".prop_map(|t| Comment {
        text: t.trim().to_string(),
        span: Span::default(),
    })
}

fn annotation() -> impl Strategy<Value = Annotation> {
    prop_oneof![
        (0..SUFFIXES.len()).prop_map(|i| Annotation::Suffix(SUFFIXES[i].to_string())),
        (0u16..=255).prop_map(Annotation::Nag),
    ]
}

fn move_node(variation: BoxedStrategy<Variation>) -> impl Strategy<Value = MoveNode> {
    (
        played(),
        any::<bool>(),
        prop::collection::vec(annotation(), 0..3),
        prop::collection::vec(comment(), 0..2),
        prop::collection::vec(variation, 0..2),
    )
        .prop_map(
            |(played, salta, annotations, comments, variations)| MoveNode {
                number: None,
                played,
                span: Span::default(),
                extras: MoveExtras {
                    salta: salta.then(Span::default),
                    annotations,
                    comments,
                    variations,
                }
                .boxed(),
            },
        )
}

fn variation(depth: u32) -> BoxedStrategy<Variation> {
    let inner = if depth == 0 {
        Just(Variation::default()).boxed()
    } else {
        variation(depth - 1)
    };
    let moves_len = if depth == 0 { 1..4 } else { 1..10 };
    (
        prop::collection::vec(comment(), 0..2),
        prop::collection::vec(move_node(inner), moves_len),
    )
        .prop_map(|(comments, moves)| Variation { comments, moves })
        .boxed()
}

/// Variations of a move without nested ones at the leaves are generated empty: drop those.
fn prune(v: &mut Variation) {
    for m in &mut v.moves {
        if let Some(mut extras) = m.extras.take() {
            extras.variations.retain(|v| !v.moves.is_empty());
            extras.variations.iter_mut().for_each(prune);
            m.extras = extras.boxed();
        }
    }
}

fn game() -> impl Strategy<Value = Game> {
    let tag = ((0..TAG_NAMES.len()), "[ -~äü\"\\\\]{0,20}").prop_map(|(i, value)| Tag {
        name: TAG_NAMES[i].into(),
        value,
        span: Span::default(),
    });
    let result = prop_oneof![
        Just(GameResult::GreenWins),
        Just(GameResult::RedWins),
        Just(GameResult::Draw),
        Just(GameResult::Unknown)
    ];
    (prop::collection::vec(tag, 0..6), variation(2), result).prop_map(
        |(tags, mut mainline, result)| {
            prune(&mut mainline);
            Game {
                text: String::new(),
                offset: 0,
                line: 1,
                column: 1,
                tags,
                mainline,
                result: Some((result, Span::default())),
                warnings: Vec::new(),
            }
        },
    )
}

/// The game without what the canonical form does not keep: spans, text and position, move numbers
/// (recomputed), how designators were spelled, and the tag order (canonical).
fn normal(game: &Game) -> Game {
    fn variation(v: &Variation) -> Variation {
        Variation {
            comments: v
                .comments
                .iter()
                .map(|c| Comment {
                    text: c.text.clone(),
                    span: Span::default(),
                })
                .collect(),
            moves: v
                .moves
                .iter()
                .map(|m| MoveNode {
                    number: None,
                    played: match m.played {
                        Played::Pass => Played::Pass,
                        Played::Garbled => Played::Garbled,
                        Played::Move {
                            piece,
                            from,
                            to,
                            separator,
                        } => Played::Move {
                            piece: piece
                                .and_then(|d| Designator::new(d.id(), None, Span::default())),
                            from: from.map(|s| SquareRef {
                                square: s.square,
                                span: Span::default(),
                            }),
                            to: SquareRef {
                                square: to.square,
                                span: Span::default(),
                            },
                            separator,
                        },
                    },
                    span: Span::default(),
                    extras: MoveExtras {
                        salta: m.salta().map(|_| Span::default()),
                        annotations: m.annotations().to_vec(),
                        comments: variation(&Variation {
                            comments: m.comments().to_vec(),
                            moves: Vec::new(),
                        })
                        .comments,
                        variations: m.variations().iter().map(variation).collect(),
                    }
                    .boxed(),
                })
                .collect(),
        }
    }
    let mut tags: Vec<Tag> = Vec::new();
    for name in &TAG_NAMES[..7] {
        tags.extend(game.tags.iter().filter(|t| t.name == *name).cloned());
    }
    tags.extend(
        game.tags
            .iter()
            .filter(|t| !TAG_NAMES[..7].contains(&&*t.name))
            .cloned(),
    );
    for t in &mut tags {
        t.span = Span::default();
    }
    Game {
        text: String::new(),
        offset: 0,
        line: 1,
        column: 1,
        tags,
        mainline: variation(&game.mainline),
        result: game.result.map(|(r, _)| (r, Span::default())),
        warnings: Vec::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn parse_of_write_is_the_game(g in game(), notation in prop_oneof![Just(Notation::Numeric), Just(Notation::Algebraic), Just(Notation::Piece)]) {
        let text = write(&g, notation);
        let games = parse_str(&text);
        prop_assert_eq!(games.len(), 1, "{}", text);
        let parsed = games.into_iter().next().unwrap();
        let parsed = match parsed {
            Ok(p) => p,
            Err(e) => return Err(TestCaseError::fail(format!("{e:?}\n{text}"))),
        };
        prop_assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        prop_assert_eq!(normal(&parsed), normal(&g), "{}", text);
        prop_assert_eq!(write(&parsed, notation), text.clone());
        prop_assert!(text.lines().all(|l| l.chars().count() <= 80 || !l.contains(' ') || l.starts_with('[') || l.contains('{')), "{}", text);
    }

    #[test]
    fn several_written_games_read_back_in_order(gs in prop::collection::vec(game(), 1..4)) {
        let text: String = gs.iter().map(|g| write(&g.clone(), Notation::Numeric)).collect::<Vec<_>>().join("\n");
        let parsed: Vec<Game> = parse_str(&text).into_iter().map(|r| r.unwrap()).collect();
        prop_assert_eq!(parsed.len(), gs.len());
        for (p, g) in parsed.iter().zip(&gs) {
            prop_assert_eq!(normal(p), normal(g));
            prop_assert!(text[p.offset as usize..].starts_with(&p.text));
        }
    }
}

#[test]
fn omitted_separators_are_written_from_the_squares() {
    let game = one("1. e3f4 f8e7 2. j4h6 *");
    assert_eq!(
        write(&game, Notation::Algebraic),
        "1. e3-f4 f8-e7 2. j4:h6 *\n"
    );
    assert_eq!(
        write(&game, Notation::Numeric),
        "1. 33-43 83-73 2. 45:64 *\n"
    );
}
