//! The reader's own tests.

use super::Reader;

/// A reader that takes a buffer over reads what a streaming reader reads, errors and
/// positions included, and hands the buffer back.
#[test]
fn a_reader_over_a_buffer_reads_what_a_streaming_reader_reads() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = 0;
    for folder in [
        "corpus/edge-cases",
        "corpus/synthetic",
        "tests/edge-cases",
        "tests/ocr",
    ] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "sgn") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let streamed: Vec<String> = Reader::new(bytes.as_slice())
                .with_chunk_size(64)
                .starting_at(100, 7)
                .map(|item| format!("{item:?}"))
                .collect();
            let capacity = bytes.capacity();
            let mut reader = Reader::from_bytes(bytes).starting_at(100, 7);
            let buffered: Vec<String> = reader.by_ref().map(|item| format!("{item:?}")).collect();
            assert_eq!(buffered, streamed, "{}", path.display());
            assert_eq!(reader.into_buffer().capacity(), capacity);
            files += 1;
        }
    }
    assert!(files > 10);
}

/// A file whose lines end in CR alone is read line by line, and every game is given back as
/// read, its CRs (and a stray LF) as they were.
#[test]
fn cr_lines_are_read_and_given_back_as_read() {
    let file: &[u8] = b"[Event \"a\"]\r\r1. 33-43 {x\ny} *\r\r[Event \"b\"]\r\r1. 33-43 99-98 *\r";
    for chunk in [5, 64, 1 << 20] {
        let mut reader = Reader::new(file).with_chunk_size(chunk);
        let mut given = Vec::new();
        let mut lines = Vec::new();
        while let Some(item) = reader.next() {
            lines.push(match item {
                Ok(game) => game.line,
                Err(e) => e.game_line(),
            });
            given.push(reader.raw().into_owned());
        }
        // The LF in the comment is not a line end here (it is a stray among CRs).
        assert_eq!(lines, [1, 5], "chunks of {chunk}");
        assert_eq!(given[0], b"[Event \"a\"]\r\r1. 33-43 {x\ny} *");
        assert_eq!(given[1], b"[Event \"b\"]\r\r1. 33-43 99-98 *");
    }
}

/// A game past the size limit is passed on whole, in pieces as read, and the game after it
/// is read.
#[test]
fn an_oversized_game_is_passed_on_whole() {
    let big = format!(
        "[Event \"big\"]\n\n1. 33-43 {{{}}} *\n\n",
        "x\n".repeat(500)
    );
    let file = format!("{big}[Event \"next\"]\n\n1. 33-43 *\n");
    for chunk in [7, 100, 1 << 20] {
        let mut reader = Reader::new(file.as_bytes())
            .with_chunk_size(chunk)
            .with_limits(crate::notation::Limits::default().game_bytes(300));
        let first = reader.next().unwrap().unwrap_err();
        assert_eq!(first.code, crate::diagnostic::Code::GameTooLarge);
        let mut passed = Vec::new();
        let total = reader
            .pass_oversized(&mut |bytes| {
                passed.extend_from_slice(bytes);
                Ok(())
            })
            .unwrap();
        assert_eq!(passed, big.as_bytes(), "chunks of {chunk}");
        assert_eq!(total, big.len() as u64);
        let next = reader.next().unwrap().unwrap();
        assert_eq!(next.tag("Event"), Some("next"));
        assert!(reader.next().is_none());
    }
}

#[test]
fn whole_games_stop_where_a_game_runs_on() {
    let text = b"[Event \"a\"]\n1. 33-43 *\n[Event \"b\"]\n1. 33-43 *\n[Event \"c\"]\n1. 33-";
    let third = text.windows(3).position(|w| w == b"\"c\"").unwrap() - 7;
    assert_eq!(super::whole_games(text), third);
    assert_eq!(super::whole_games(b"1. 33-43 {no end"), 0);
}

/// The visitor is told each game's index in its file (broken games counted, as diagnostics count
/// them) and the board its squares were read on.
#[test]
fn the_visitor_is_told_the_games_index_and_board() {
    use crate::board::BoardKind;
    use crate::notation::{GameResult, GameStart, Span, Visitor};
    use std::ops::ControlFlow;

    #[derive(Default)]
    struct Where(Option<(usize, BoardKind)>);
    impl Visitor for Where {
        type Output = Option<(usize, BoardKind)>;
        fn begin_game(&mut self, game: GameStart<'_>) -> ControlFlow<Self::Output> {
            self.0 = Some((game.index, game.board));
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, _: Option<(GameResult, Span)>) -> Self::Output {
            self.0.take()
        }
    }

    let text = "[Rules \"pyramid\"]\n\n1. 21-32 *\n\n[Event \"broken\"]\n\n1. 33-43 {open\n\n\
                [Event \"x\"]\n\n1. 33-43 *\n";
    let mut reader = Reader::new(text.as_bytes());
    let mut seen = Vec::new();
    while let Some(item) = reader.read_game(&mut Where::default()) {
        seen.push(item.ok().flatten());
    }
    assert_eq!(
        seen,
        [
            Some((1, BoardKind::Pyramid)),
            None,
            Some((3, BoardKind::Salta))
        ]
    );
    let mut on_pyramid = Reader::new(text.as_bytes()).on_board(Some(BoardKind::Pyramid));
    let last = std::iter::from_fn(|| on_pyramid.read_game(&mut Where::default())).last();
    assert_eq!(
        last.and_then(|r| r.ok().flatten()),
        Some((3, BoardKind::Pyramid))
    );
}

/// A `*` the move count goes on after is a speck (decision 65), whichever line the next move is
/// on: whether it is read as one depends on the word after it, which may lie in the next chunk.
/// Every chunk size puts a boundary somewhere else, one of them right after the `*` line and
/// others inside the next word; each reads what one read of the whole text reads, also where the
/// word is longer than the part of it that decides (decision 107). (Read as a part of a file,
/// from an offset: a whole file's first 8,000 bytes are read at once to judge it.)
#[test]
fn a_speck_result_reads_the_same_wherever_a_chunk_ends() {
    let speck = "[Event \"OCR\"]\n\n1. 33-43 83-73 2. 32-42 82-72 *\n3. 21-32 84-74\n4. 43-53 *\n\n\
                 [Event \"next\"]\n\n1. 33-43 *\n";
    let noise = format!(
        "1. 33-43 83-73 *\n{}7 x\n\n[Event \"next\"]\n\n1. 33-43 *\n",
        "x".repeat(80)
    );
    // Specks and letters passed over after the `*`, and a `[` that starts no tag.
    let passed = "[Event \"OCR\"]\n\n1. 33-43 83-73 2. 32-42 82-72 * ,\nQUSE 3. 21-32 84-74\n\
                  4. 43-53 *\n\n[Event \"next\"]\n\n1. 33-43 *\n";
    let bracket =
        "[Event \"OCR\"]\n\n1. 33-43 83-73\n- [. 32-42 *\n\n[Event \"next\"]\n\n1. 33-43 *\n";
    // A word of letters before a `*` at a line's end, taken for a garbled move by the move on
    // the next line (where a chunk may end).
    let letters = "[Event \"OCR\"]\n\n1. 33-43 83-73 2. 32-42 GLAD + * ,\n82-72 3. 21-32 *\n\n\
                   [Event \"next\"]\n\n1. 33-43 *\n";
    for (text, games) in [
        (speck, 2),
        (noise.as_str(), 2),
        (passed, 2),
        (bracket, 2),
        (letters, 2),
    ] {
        let read = |chunk: usize| -> Vec<String> {
            Reader::new(text.as_bytes())
                .with_chunk_size(chunk)
                .starting_at(1000, 40)
                .map(|item| format!("{item:?}"))
                .collect()
        };
        let whole = read(1 << 20);
        assert_eq!(whole.len(), games, "{whole:#?}");
        let after_result = text.find("*\n").unwrap() + 2;
        for chunk in (1..=text.len()).chain([after_result]) {
            assert_eq!(read(chunk), whole, "chunks of {chunk}");
        }
    }
    assert!(
        read_first(speck).contains("Speck"),
        "the `*` is read as a speck"
    );
}

fn read_first(text: &str) -> String {
    format!("{:?}", Reader::new(text.as_bytes()).next().unwrap())
}
