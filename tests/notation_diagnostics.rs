//! Diagnostics as users see them, and robustness of the reader on arbitrary input.

use miette::{GraphicalReportHandler, GraphicalTheme};
use proptest::prelude::*;
use salta::notation::{Limits, Reader, SyntaxError, parse_str};

fn render(error: &SyntaxError) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, error)
        .unwrap();
    out
}

fn first_error(name: &str, text: &str) -> SyntaxError {
    Reader::new(text.as_bytes())
        .with_name(name)
        .find_map(Result::err)
        .expect("an error")
}

/// A file whose third game, starting on line 9, has a stray `)` on line 12.
const FILE: &str = "[Event \"one\"]\n\n1. 33-43 *\n\n[Event \"two\"]\n\n1. 34-44 *\n\n[Event \"three\"]\n[Green \"Krone\"]\n\n1. 33-43 83-73 2. 32-42 82-72 3. 21-32 ) 84-74 *\n";

#[test]
fn unmatched_paren_in_a_later_game() {
    let e = first_error("club-1901.sgn", FILE);
    assert_eq!(e.game_line(), 9);
    assert_eq!(e.location(), (12, 40));
    insta::assert_snapshot!("unmatched_paren", render(&e));
}

/// A square that is none (`76`) is a move the reader could not read: the game is read, and the
/// warning points at the move.
#[test]
fn a_move_not_read_in_a_later_game_is_kept() {
    let text = FILE.replace(") 84-74", "84-76");
    let games: Vec<_> = parse_str(&text).into_iter().map(Result::unwrap).collect();
    let game = &games[2];
    let warning = &game.warnings[0];
    assert_eq!(warning.code.as_str(), "sgn::garbled-move");
    assert_eq!(&game.text[warning.span.range()], "84-76");
    assert_eq!(
        warning.message,
        "\"84-76\" is not a move: 76 is not a square: square numbers end in 1–5"
    );
}

#[test]
fn unclosed_comment() {
    let e = first_error(
        "notes.sgn",
        "[Event \"a\"]\n\n1. 33-43 {the comment\n83-73 2. 32-42 *\n\n[Event \"b\"]\n1. 33-43 *\n",
    );
    insta::assert_snapshot!("unclosed_comment", render(&e));
}

#[test]
fn unclosed_variation_after_a_result_on_the_same_line() {
    let e = first_error("line.sgn", "1. 33-43 1-0 1. 34-44 (1. 35-45 83-73\n");
    assert_eq!(e.location(), (1, 23));
    insta::assert_snapshot!("unclosed_variation", render(&e));
}

/// Valid records cut, spliced and flipped at random.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    let base = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/accept"))
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect::<Vec<_>>()
        .concat();
    let len = base.len();
    prop::collection::vec((0..len, any::<u8>(), 0..4u8), 1..20).prop_map(move |edits| {
        let mut bytes = base.clone();
        for (at, byte, op) in edits {
            let at = at.min(bytes.len().saturating_sub(1));
            match op {
                0 => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                2 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, b"{}()[]\";!$-:x.\n"[byte as usize % 15]),
            }
        }
        bytes
    })
}

fn read_all(bytes: &[u8], chunk: usize) {
    let limits = Limits::default()
        .game_bytes(4096)
        .comment_bytes(512)
        .tag_bytes(128)
        .variation_depth(16);
    for item in Reader::new(bytes)
        .with_chunk_size(chunk)
        .with_limits(limits)
    {
        match item {
            Ok(game) => {
                assert!(!game.text.is_empty());
                let _ = salta::notation::write_game(&game, &Default::default());
            }
            Err(e) => {
                let _ = e.location();
                let _ = render(&e);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000), chunk in 1usize..300) {
        read_all(&bytes, chunk);
    }

    #[test]
    fn mutated_records_never_panic(bytes in mutated(), chunk in prop_oneof![Just(1usize << 20), 1usize..200]) {
        read_all(&bytes, chunk);
    }

    #[test]
    fn game_texts_tile_the_input(text in "[\\[\\]{}()\" 0-9a-j*.:\\-\n;!?$#½Su]{0,400}") {
        // Every game's text is exactly the input at its offset.
        for game in parse_str(&text).into_iter().flatten() {
            prop_assert!(text.as_bytes()[game.offset as usize..].starts_with(game.text.as_bytes()));
        }
    }
}
