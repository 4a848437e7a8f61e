//! The SGN reader: games, spans, tolerance, errors with file positions, streaming and limits.

use salta::board::{BoardKind, Geometry};
use salta::diagnostic::Code;
use salta::notation::*;
use salta::rules::PieceKind;
use std::io::Read;

const EXAMPLE: &str = r#"[Event "Club match"]
[Site "Jüterbog"]
[Date "1901.??.??"]
[Green "Krone"]
[Red "Grotewold"]
[Result "0-1"]
[Margin "27"]
[Source "R. Gering, Salta: The Humanistic Game, Abstract Games 8 (2001)"]

1. 33-43 83-73 2. 32-42 82-72 {a comment} 3. 21-32 84-74
7. 45:64 55:34 8. 64:83
12. 42-52 Salta! 42:63 83-73
0-1
"#;

/// Every game of `text`, each read without an error.
fn ok(text: &str) -> Vec<Game> {
    parse_str(text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e:?}\n{text}")))
        .collect()
}

/// The one game of `text`, read without an error.
pub(crate) fn one(text: &str) -> Game {
    let games = ok(text);
    assert_eq!(games.len(), 1, "{games:?}");
    games.into_iter().next().unwrap()
}

/// The moves of a record's main line that the reader could not read, as written, each with what
/// its `sgn::garbled-move` warning says (the record reads, and the warnings and moves agree).
fn garbled(text: &str) -> Vec<(String, String)> {
    let g = one(text);
    let moves: Vec<&str> = g
        .mainline
        .moves
        .iter()
        .filter(|m| matches!(m.played, Played::Garbled))
        .map(|m| slice(&g, m.span))
        .collect();
    let warned: Vec<(String, String)> = g
        .warnings
        .iter()
        .filter(|w| w.code == Code::GarbledMove)
        .map(|w| (slice(&g, w.span).to_string(), w.message.clone()))
        .collect();
    let warned_moves: Vec<&str> = warned.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(moves, warned_moves, "{text:?}");
    warned
}

fn err(text: &str) -> SyntaxError {
    let results = parse_str(text);
    results.into_iter().find_map(Result::err).expect("an error")
}

/// Whether `text` reads as the same games (and errors) whatever size the reader's chunks are,
/// from one byte up: a rule that looks ahead must not judge by a chunk's end.
fn reads_alike_at_every_chunk_size(text: &str) -> bool {
    let read = |chunk| {
        let games = Reader::new(text.as_bytes()).with_chunk_size(chunk);
        format!("{:?}", games.collect::<Vec<_>>())
    };
    let whole = read(1 << 20);
    (1..text.len()).all(|chunk| read(chunk) == whole)
}

fn number(sq: &SquareRef) -> u8 {
    Geometry::of(BoardKind::Salta).number(sq.square)
}

fn squares(m: &MoveNode) -> (Option<u8>, u8) {
    match &m.played {
        Played::Move { from, to, .. } => (from.as_ref().map(number), number(to)),
        Played::Pass => panic!("a pass"),
        Played::Garbled => panic!("a move not read"),
    }
}

fn slice(game: &Game, span: Span) -> &str {
    &game.text[span.range()]
}

#[test]
fn reads_the_spec_example() {
    let g = one(EXAMPLE);
    assert_eq!(g.tags.len(), 8);
    assert_eq!(g.tag("Site"), Some("Jüterbog"));
    assert_eq!(
        g.tag("Source"),
        Some("R. Gering, Salta: The Humanistic Game, Abstract Games 8 (2001)")
    );
    let moves = &g.mainline.moves;
    assert_eq!(moves.len(), 12);
    assert_eq!(squares(&moves[0]), (Some(33), 43));
    assert_eq!(
        moves[0].number.map(|n| (n.number, n.ellipsis)),
        Some((1, false))
    );
    assert_eq!(slice(&g, moves[0].span), "33-43");
    assert_eq!(moves[3].comments()[0].text, "a comment");
    assert_eq!(slice(&g, moves[3].comments()[0].span), "{a comment}");
    let jump = &moves[6];
    assert!(matches!(
        jump.played,
        Played::Move {
            separator: Separator::Jump,
            ..
        }
    ));
    assert_eq!(jump.number.map(|n| n.number), Some(7));
    let called = &moves[9];
    assert_eq!(squares(called), (Some(42), 52));
    assert_eq!(called.salta().map(|s| slice(&g, s)), Some("Salta!"));
    assert_eq!(squares(&moves[10]), (Some(42), 63));
    assert!(moves[10].number.is_none());
    assert_eq!(g.result.map(|r| r.0), Some(GameResult::RedWins));
    assert_eq!((g.offset, g.line, g.column), (0, 1, 1));
    assert!(g.warnings.is_empty());
}

#[test]
fn many_games_with_offsets_and_lines() {
    let text = "[Event \"a\"]\n\n1. 33-43 *\n[Event \"b\"]\n1. 33-43 83-73\n[Event \"c\"]\n\n1. 33-43 1-0 1. 34-44 0-1\n";
    let games = ok(text);
    assert_eq!(games.len(), 4);
    assert_eq!(
        games.iter().map(|g| g.line).collect::<Vec<_>>(),
        [1, 4, 6, 8]
    );
    for g in &games {
        assert!(text[g.offset as usize..].starts_with(&g.text), "{g:?}");
    }
    assert_eq!(
        games[1].result, None,
        "a game also ends at the next tag section"
    );
    assert_eq!(games[1].mainline.moves.len(), 2);
    assert_eq!(
        games[3].column, 14,
        "a game may start after a result on the same line"
    );
    assert!(games[3].tags.is_empty());
    assert_eq!(games[3].result.map(|r| r.0), Some(GameResult::RedWins));
}

#[test]
fn results_never_read_as_moves() {
    for (token, result) in [
        ("1-0", GameResult::GreenWins),
        ("0-1", GameResult::RedWins),
        ("1/2-1/2", GameResult::Draw),
        ("½-½", GameResult::Draw),
        ("*", GameResult::Unknown),
    ] {
        let g = one(&format!("1. 33-43 {token}\n"));
        assert_eq!(g.result.map(|r| r.0), Some(result), "{token}");
        assert_eq!(g.mainline.moves.len(), 1);
    }
}

#[test]
fn every_designator_form() {
    let cases = [
        ("Su3-44", Some(PieceKind::Sun), 12, None),
        ("So3:44", Some(PieceKind::Sun), 12, None),
        ("St1 33-44", Some(PieceKind::Star), 0, Some(33)),
        ("Mo533-44", Some(PieceKind::Moon), 9, Some(33)),
        ("★2-44", Some(PieceKind::Star), 1, None),
        ("☾4-44", Some(PieceKind::Moon), 8, None),
        ("☀5x44", Some(PieceKind::Sun), 14, None),
        ("#13-44", None, 12, None),
        ("#7 33-44", None, 6, Some(33)),
        ("su3-44", Some(PieceKind::Sun), 12, None),
    ];
    for (token, kind, id, from) in cases {
        let g = one(&format!("1. {token} *"));
        let m = &g.mainline.moves[0];
        let Played::Move {
            piece: Some(d),
            from: f,
            to,
            ..
        } = &m.played
        else {
            panic!("{token}: {m:?}")
        };
        assert_eq!((d.kind(), d.id()), (kind, id), "{token}");
        assert_eq!(f.as_ref().map(number), from, "{token}");
        assert_eq!(number(to), 44, "{token}");
        assert_eq!(slice(&g, m.span), token);
    }
}

#[test]
fn annotations_nags_salta_pass_and_variations() {
    let g = one(
        "[Rules \"pyramid\"]\n1. 11-21!? $14 -- 2. 12-22 salta 12:31 ( 2. 13-23?? {why} (2. 14-24) ) 2... 81-71 *",
    );
    let m = &g.mainline.moves;
    assert_eq!(
        m[0].annotations(),
        [Annotation::Suffix("!?".into()), Annotation::Nag(14)]
    );
    assert_eq!(m[1].played, Played::Pass);
    assert!(m[2].salta().is_some());
    assert_eq!(m[3].variations().len(), 1);
    let v = &m[3].variations()[0];
    assert_eq!(v.moves[0].annotations(), [Annotation::Suffix("??".into())]);
    assert_eq!(v.moves[0].comments()[0].text, "why");
    assert_eq!(v.moves[0].variations()[0].moves.len(), 1);
    assert_eq!(m[4].number.map(|n| (n.number, n.ellipsis)), Some((2, true)));
    // Pyramid squares: 81 is a8 on the 8×8 board.
    let Played::Move {
        from: Some(from), ..
    } = &m[4].played
    else {
        panic!()
    };
    assert_eq!(Geometry::of(BoardKind::Pyramid).name(from.square), "a8");
}

#[test]
fn algebraic_squares_and_red_numbering() {
    let g = one("1. e3-f4 b8xd6 *");
    let geo = Geometry::of(BoardKind::Salta);
    assert_eq!(squares(&g.mainline.moves[0]), (Some(33), 43));
    let Played::Move { to, .. } = &g.mainline.moves[1].played else {
        panic!()
    };
    assert_eq!(geo.name(to.square), "d6");
    let red = one("[Numbering \"red\"]\n1. 83-73 *");
    assert_eq!(squares(&red.mainline.moves[0]), (Some(33), 43), "116 − n");
}

#[test]
fn bom_crlf_and_latin1() {
    let g = one("\u{feff}[Event \"x\"]\r\n\r\n1. 33-43 {a\r\nb} 83-73 *\r\n");
    assert_eq!(g.tag("Event"), Some("x"));
    assert_eq!(g.mainline.moves.len(), 2);
    assert_eq!(g.offset, 3);
    let latin1: &[u8] =
        b"[Site \"J\xfcterbog\"]\n1. 33-43 {gr\xfcn} \xbd-\xbd\n[Event \"next\"]\n1. 33-43 *\n";
    let games: Vec<_> = Reader::new(latin1).collect::<Result<_, _>>().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Site"), Some("Jüterbog"));
    assert_eq!(games[0].mainline.moves[0].comments()[0].text, "grün");
    assert_eq!(games[0].result.map(|r| r.0), Some(GameResult::Draw));
    assert_eq!(games[0].warnings[0].code, Code::Latin1);
    assert_eq!(slice(&games[0], games[0].warnings[0].span), "ü");
    assert!(games[1].warnings.is_empty());
}

#[test]
fn stray_text_is_skipped_with_a_warning() {
    let text = "Games of the 1901 club season\n(c) Deutsche Saltazeitung\n[Event \"a\"]\nAnnotated by K.\n1. 33-43 *\n\nSome words between games\n\n1. 34-44 *\n";
    let games = ok(text);
    assert_eq!(games.len(), 2);
    let codes: Vec<_> = games[0].warnings.iter().map(|w| w.code).collect();
    assert_eq!(codes, [Code::StrayText; 3]);
    assert_eq!(
        slice(&games[0], games[0].warnings[2].span),
        "Annotated by K."
    );
    assert_eq!(games[1].warnings.len(), 1);
    assert_eq!(games[1].mainline.moves.len(), 1);
}

#[test]
fn errors_point_into_the_file_and_the_reader_goes_on() {
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(&format!("[Event \"g{i}\"]\n\n1. 33-43 83-73 *\n\n"));
    }
    text.push_str(
        "[Event \"bad\"]\n\n1. 33-43 83-73\n2. 32-42 ) 82-72 *\n\n[Event \"after\"]\n1. 33-43 *\n",
    );
    let results = parse_str(&text);
    assert_eq!(results.len(), 202);
    let e = results[200].as_ref().unwrap_err();
    assert_eq!(e.code, Code::UnmatchedParen);
    assert_eq!(e.location(), (804, 10));
    assert_eq!(e.game_line(), 801);
    assert_eq!(e.game_index(), 201);
    assert_eq!(
        e.help.as_deref(),
        Some("remove it, or open the variation with ( right after the move it replaces")
    );
    // The game as read up to the error, for replaying what it holds before it.
    let before = e.before.as_deref().expect("the game read before the error");
    assert_eq!(before.tag("Event"), Some("bad"));
    assert_eq!(before.mainline.moves.len(), 3);
    assert_eq!(before.result, None);
    assert_eq!(results[201].as_ref().unwrap().tag("Event"), Some("after"));
}

#[test]
fn unclosed_comment_stops_at_the_next_tags() {
    let results =
        parse_str("[Event \"a\"]\n1. 33-43 {never closed 83-73 *\n\n[Event \"b\"]\n1. 33-43 *\n");
    assert_eq!(results.len(), 2);
    let e = results[0].as_ref().unwrap_err();
    assert_eq!(e.code, Code::UnclosedComment);
    assert_eq!(e.location(), (2, 10));
    assert_eq!(e.label, "comment opened here is never closed");
    assert_eq!(results[1].as_ref().unwrap().tag("Event"), Some("b"));
}

#[test]
fn error_codes() {
    for (text, code) in [
        ("1. 33-43 83-73 foo *", Code::UnexpectedToken),
        ("1. 33-43 Remis *", Code::UnexpectedToken),
        ("[Event \"x\" y]\n1. 33-43 *", Code::BadTag),
        ("[Event x]\n1. 33-43 *", Code::BadTag),
        ("1. 33-43 (1... 83-73 *", Code::ResultInVariation),
        ("1. 33-43 (1... 83-73", Code::UnclosedVariation),
        ("1. 33-43 ) *", Code::UnmatchedParen),
        ("( 1. 33-43 ) *", Code::Misplaced),
        ("1. ! 33-43 *", Code::Misplaced),
        ("1. 33-43 $ *", Code::BadNag),
        ("1. 33-43 $99999 *", Code::BadNag),
        ("99999999999. 33-43 *", Code::BadMoveNumber),
        ("1. 33-43 {open", Code::UnclosedComment),
    ] {
        let results = parse_str(text);
        let e = results
            .iter()
            .find_map(|r| r.as_ref().err())
            .unwrap_or_else(|| panic!("{text}: {results:?}"));
        assert_eq!(e.code, code, "{text}");
    }
}

#[test]
fn limits_give_diagnostics() {
    let deep = format!("1. 33-43 {} *", "(1. 33-43 ".repeat(100_000));
    assert_eq!(err(&deep).code, Code::TooDeep);
    // A limit asked above the hard cap is capped, in a thread with a small stack.
    let unlimited = Limits::default().variation_depth(usize::MAX);
    let deep_reader = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let results: Vec<_> = Reader::new(deep.as_bytes())
                .with_limits(unlimited)
                .collect();
            results[0].as_ref().err().map(|e| e.code)
        })
        .unwrap();
    assert_eq!(deep_reader.join().unwrap(), Some(Code::TooDeep));
    let limits = Limits::default()
        .comment_bytes(10)
        .tag_bytes(20)
        .game_bytes(1000);
    let read = |text: &str| {
        Reader::new(text.as_bytes())
            .with_limits(limits)
            .with_chunk_size(64)
            .collect::<Vec<_>>()
    };
    let r = read("1. 33-43 {a comment that is too long} *\n");
    assert_eq!(r[0].as_ref().unwrap_err().code, Code::CommentTooLong);
    let r = read("[Event \"a tag value that is too long\"]\n1. 33-43 *\n");
    assert_eq!(r[0].as_ref().unwrap_err().code, Code::TagTooLong);
    let big = format!(
        "[Event \"big\"]\n{}*\n[Event \"small\"]\n1. 33-43 *\n",
        "1. 33-43 83-73\n".repeat(500)
    );
    let r = read(&big);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(r[0].as_ref().unwrap_err().code, Code::GameTooLarge);
    assert_eq!(r[1].as_ref().unwrap().tag("Event"), Some("small"));
    assert_eq!(r[1].as_ref().unwrap().line, 503);
}

/// Whether a file is text is decided on its first 8,000 bytes however it is read (the fuzzer
/// found a NUL in a tag that a small read chunk let through and the canonical form then refused);
/// a NUL further on makes its game an error and the games around it still read.
#[test]
fn a_nul_byte_is_binary_whatever_the_chunk_size() {
    let early = "[Event \"a\"]\n[Annotator \"x\u{0}y\"]\n\n1. 33-43 *\n";
    for chunk in [1, 7, 28, 64, 1 << 20] {
        let r: Vec<_> = Reader::new(early.as_bytes())
            .with_chunk_size(chunk)
            .collect();
        assert_eq!(r.len(), 1, "chunk {chunk}: {r:?}");
        assert_eq!(
            r[0].as_ref().unwrap_err().code,
            Code::Binary,
            "chunk {chunk}"
        );
    }
    let padding = "1. 33-43 83-73\n".repeat(600);
    let late = format!(
        "[Event \"first\"]\n\n{padding}*\n\n[Event \"x\u{0}\"]\n\n1. 33-43 *\n\n[Event \"third\"]\n\n1. 33-43 *\n"
    );
    for chunk in [64, 1 << 20] {
        let r: Vec<_> = Reader::new(late.as_bytes())
            .with_chunk_size(chunk)
            .collect();
        assert_eq!(r.len(), 3, "chunk {chunk}: {r:?}");
        assert_eq!(r[0].as_ref().unwrap().tag("Event"), Some("first"));
        let e = r[1].as_ref().unwrap_err();
        assert_eq!(e.code, Code::Binary, "chunk {chunk}");
        assert!(e.message.contains("NUL"), "{}", e.message);
        assert_eq!(r[2].as_ref().unwrap().tag("Event"), Some("third"));
    }
}

/// Returns its input a few bytes at a time, to exercise every buffer boundary.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.step = self.step % 7 + 1;
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn streaming_in_small_chunks_gives_the_same_games() {
    let mut text = String::from("\u{feff}");
    for i in 0..30 {
        text.push_str(&format!("[Event \"g{i}\"]\n\n1. 33-43 {{multi\nline}} 83-73 (1... 84-74 2. 32-42) 2. 32-42 *\n\n"));
        if i % 7 == 3 {
            text.push_str("1. 33-43 Su9-44 *\n\n");
        }
    }
    let whole = parse_str(&text);
    for chunk in [1, 2, 5, 16, 100] {
        let streamed: Vec<_> = Reader::new(Trickle {
            data: text.as_bytes(),
            step: 0,
        })
        .with_chunk_size(chunk)
        .collect();
        assert_eq!(streamed.len(), whole.len(), "chunk {chunk}");
        for (a, b) in streamed.iter().zip(&whole) {
            match (a, b) {
                (Ok(a), Ok(b)) => assert_eq!(a, b),
                (Err(a), Err(b)) => assert_eq!(
                    (a.code, a.span, a.location()),
                    (b.code, b.span, b.location())
                ),
                _ => panic!("chunk {chunk}: {a:?} vs {b:?}"),
            }
        }
    }
}

struct Failing;

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "disk on fire",
        ))
    }
}

#[test]
fn io_errors_are_errors() {
    let results: Vec<_> = Reader::new(Failing).with_name("x.sgn").collect();
    assert_eq!(results.len(), 1);
    let e = results[0].as_ref().unwrap_err();
    assert_eq!(e.code, Code::Io);
    assert!(e.message.contains("disk on fire"), "{}", e.message);
    // The read error's kind and the error itself stay available to programs.
    assert_eq!(e.io_kind(), Some(std::io::ErrorKind::PermissionDenied));
    let source = std::error::Error::source(e).expect("the read error");
    assert_eq!(source.to_string(), "disk on fire");
    assert!(source.downcast_ref::<std::io::Error>().is_some());
    // Every other error has none.
    assert_eq!(err("1. 33-43 ) *").io_kind(), None);
}

#[test]
fn read_path_names_the_file() {
    let dir = std::env::temp_dir().join(format!("salta-notation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.sgn");
    std::fs::write(&path, "1. 33-43 *\n1. 33-43 ) *\n").unwrap();
    let results: Vec<_> = read_path(&path).unwrap().collect();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(results[0].is_ok());
    let e = results[1].as_ref().unwrap_err();
    assert!(e.source.name.ends_with("games.sgn"));
    assert_eq!(e.location(), (2, 10));
}

/// A tag value's `\"` and `\\` escapes are resolved; any other backslash stays as written, and
/// a value without escapes reads as it stands.
#[test]
fn tag_values_resolve_their_escapes_only() {
    let g = one(
        "[Event \"Club \\\"A\\\" \\\\ B\"]\n[Site \"C:\\dir\"]\n[Round \"\\\"\"]\n[Green \"Krone\"]\n\n*\n",
    );
    let values: Vec<&str> = g.tags.iter().map(|t| t.value.as_str()).collect();
    assert_eq!(values, [r#"Club "A" \ B"#, r"C:\dir", r#"""#, "Krone"]);
}

#[test]
fn comments_before_the_tags_belong_to_the_game() {
    let g = one(
        "; exported\n{round one}\n[Event \"a\"]\n{between}\n[Site \"b\"]\n{first} 1. 33-43 *\n",
    );
    let texts: Vec<_> = g
        .mainline
        .comments
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(texts, ["exported", "round one", "between", "first"]);
    assert_eq!(g.tags.len(), 2);
}

/// The reader's fast path for plain moves and move numbers stops at its edges and leaves them to
/// the general parser: long numbers, three-digit squares, non-squares, dangling numbers, moves at
/// the very end of the input.
#[test]
fn fast_path_edges_read_like_the_general_parser() {
    let g = one("1234567890. 33-43 83-73 2... 45:104 105-94\n*");
    let m = &g.mainline.moves;
    assert_eq!(m[0].number.map(|n| n.number), Some(1_234_567_890));
    assert_eq!(slice(&g, m[0].span), "33-43");
    assert_eq!(m[2].number.map(|n| (n.number, n.ellipsis)), Some((2, true)));
    let Played::Move { from, to, .. } = m[2].played else {
        panic!("a move");
    };
    assert_eq!(slice(&g, from.unwrap().span), "45");
    assert_eq!(slice(&g, to.span), "104");
    assert_eq!(slice(&g, m[3].span), "105-94");

    let dangling = one("1. 2. 33-43 *");
    assert_eq!(dangling.warnings[0].code, Code::DanglingMoveNumber);
    assert_eq!(dangling.mainline.moves[0].number.map(|n| n.number), Some(2));

    // No newline and no result: the last move ends the input.
    let last = one("1. 33-43 83-73");
    assert_eq!(slice(&last, last.mainline.moves[1].span), "83-73");

    let code = |text: &str| parse_str(text)[0].as_ref().map(|_| ()).unwrap_err().code;
    assert_eq!(code("99999999999. 33-43 *"), Code::BadMoveNumber);
    assert_eq!(garbled("1. 16-27 *")[0].0, "16-27");
    assert_eq!(garbled("1. 33-43x *")[0].0, "33-43x");
}

/// Numeric moves of every shape (two- and three-digit squares, each separator), as written and as
/// read: from, to and separator.
const NUMERIC_MOVES: [(&str, u8, u8, Separator); 6] = [
    ("33-43", 33, 43, Separator::Step),
    ("45:54", 45, 54, Separator::Jump),
    ("45x104", 45, 104, Separator::Jump),
    ("105X94", 105, 94, Separator::Jump),
    ("102-103", 102, 103, Separator::Step),
    ("82-73", 82, 73, Separator::Step),
];

/// Numeric moves and move numbers of every shape read the same whether the fast path takes them
/// eight bytes at a time (more text follows) or byte by byte (the last bytes of the input), on
/// either numbering, glued together or apart, before any delimiter.
#[test]
fn numeric_tokens_read_alike_in_words_and_at_the_end() {
    let moves = NUMERIC_MOVES;
    let numbers = [
        ("", None),
        ("1. ", Some((1, false, "1."))),
        ("12.", Some((12, false, "12."))),
        ("123.\t", Some((123, false, "123."))),
        ("1234.\r\n", Some((1234, false, "1234."))),
        ("123456789. ", Some((123_456_789, false, "123456789."))),
        ("12.. ", Some((12, true, "12.."))),
        ("7...", Some((7, true, "7..."))),
    ];
    for (text, from, to, separator) in moves {
        for (written, number) in numbers {
            let token = format!("{written}{text}");
            for (numbering, turn) in [("", 0), ("[Numbering \"red\"]\n", 116)] {
                // The move alone, before each delimiter, and last in a variation.
                let mut games = vec![one(&format!("{numbering}{token}"))];
                for after in [" ", "\n", "{c}", "!", "?", "$1", ";c"] {
                    games.push(one(&format!("{numbering}{token}{after} 83-73 *\n")));
                }
                let nested = one(&format!("{numbering}1. 32-42 ({token}) 83-73 *\n"));
                for g in games.iter().chain([&nested]) {
                    let line = match g.mainline.moves[0].variations() {
                        [variation] => variation,
                        _ => &g.mainline,
                    };
                    let m = &line.moves[0];
                    let turned = |n: u8| if turn == 0 { n } else { turn - n };
                    assert_eq!(squares(m), (Some(turned(from)), turned(to)), "{token:?}");
                    assert_eq!(slice(g, m.span), text, "{token:?}");
                    let Played::Move {
                        from: Some(f),
                        to: t,
                        separator: s,
                        piece: None,
                    } = m.played
                    else {
                        panic!("{token:?}: {:?}", m.played);
                    };
                    let (from_text, to_text) = text.split_once(['-', ':', 'x', 'X']).unwrap();
                    assert_eq!(slice(g, f.span), from_text, "{token:?}");
                    assert_eq!(slice(g, t.span), to_text, "{token:?}");
                    assert_eq!(s, separator, "{token:?}");
                    let read = m.number.map(|n| (n.number, n.ellipsis, slice(g, n.span)));
                    assert_eq!(read, number, "{token:?}");
                    assert!(g.warnings.is_empty(), "{token:?}: {:?}", g.warnings);
                }
            }
        }
    }
    // What the fast path leaves goes to the general parser, which keeps it as a move it could
    // not read, the same way wherever it stands.
    for bad in [
        "033-43", "33-043", "05-15", "33-1043", "33--43", "3343", "33-43x", "33-16",
    ] {
        let in_word = garbled(&format!("1. {bad} 83-73 *\n"));
        let at_end = garbled(&format!("1. {bad}"));
        assert_eq!(in_word, at_end, "{bad}");
        assert_eq!(at_end.len(), 1, "{bad}");
        assert_eq!(at_end[0].0, bad);
    }
}

/// A move number's two moves read alike whether the fast path takes them as a pair (one blank
/// between them) or one at a time, whatever their shapes and whatever follows them.
#[test]
fn move_pairs_read_like_single_moves() {
    let moves = NUMERIC_MOVES;
    for (first, first_from, first_to, first_separator) in moves {
        for (second, from, to, separator) in moves {
            for gap in [" ", "\n", "\t", "\r\n", "  "] {
                let afters = ["", " ", "\n", "{c}", "!", "?", "$1", ";c\n", " 2. 32-42"];
                // With and without more text after: the fast path needs some.
                for (after, end) in afters.into_iter().flat_map(|a| [(a, ""), (a, " *\n")]) {
                    let text = format!("1. {first}{gap}{second}{after}{end}");
                    let g = one(&text);
                    let m = &g.mainline.moves;
                    assert_eq!(squares(&m[0]), (Some(first_from), first_to), "{text:?}");
                    assert_eq!(squares(&m[1]), (Some(from), to), "{text:?}");
                    assert_eq!(slice(&g, m[0].span), first, "{text:?}");
                    assert_eq!(slice(&g, m[1].span), second, "{text:?}");
                    let separators = [&m[0], &m[1]].map(|m| match m.played {
                        Played::Move { separator, .. } => separator,
                        _ => panic!("{text:?}: a move"),
                    });
                    assert_eq!(separators, [first_separator, separator], "{text:?}");
                    let numbers = [&m[0], &m[1]].map(|m| m.number.map(|n| n.number));
                    assert_eq!(numbers, [Some(1), None], "{text:?}");
                    assert!(g.warnings.is_empty(), "{text:?}: {:?}", g.warnings);
                }
            }
        }
    }
    // A second move the fast path refuses is kept as it would be alone.
    for bad in [
        "033-43", "05-15", "33--43", "3343", "33-43x", "33-16", "33-43-54",
    ] {
        let after_a_move = garbled(&format!("1. 82-73 {bad} 2. 83-73 *\n"));
        let alone = garbled(&format!("1. {bad}"));
        assert_eq!(after_a_move, alone, "{bad}");
        assert_eq!(alone.len(), 1, "{bad}");
    }
}

#[test]
fn algebraic_moves_without_separators() {
    // As the source of Krone–Grotewold 1901 prints them.
    let g = one("1. e3f4 f8e7 2. j4:h6 i5h6 *\n");
    let moves = &g.mainline.moves;
    assert_eq!(squares(&moves[0]), (Some(33), 43));
    assert_eq!(squares(&moves[1]), (Some(83), 73));
    assert!(matches!(
        moves[0].played,
        Played::Move {
            separator: Separator::Omitted,
            ..
        }
    ));
    assert_eq!(slice(&g, moves[0].span), "e3f4");
    assert!(matches!(
        moves[2].played,
        Played::Move {
            separator: Separator::Jump,
            ..
        }
    ));
    // A line that begins with such a move is movetext, not stray text.
    let g = one("[Event \"x\"]\n\ne3f4 f8e7 *\n");
    assert_eq!(g.mainline.moves.len(), 2);
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    // Numeric squares still need their separator.
    assert_eq!(
        garbled("1. 3343 *\n"),
        [(
            "3343".to_string(),
            "\"3343\" is not a move: the squares run together: the separator (- or :) between \
             them is missing"
                .to_string()
        )]
    );
}

/// The warnings of `code` a game's reading gave, each with the text it points at.
fn warned(g: &Game, code: Code) -> Vec<&str> {
    g.warnings
        .iter()
        .filter(|w| w.code == code)
        .map(|w| slice(g, w.span))
        .collect()
}

#[test]
fn ocr_specks_are_skipped_and_the_game_read_whole() {
    let g = one("“1, 33-43 © 83-73 |\n2. 32-42” °82-72 '3. 21-32) 84-74.\n4. 42-52 1-0 :\n");
    assert_eq!(g.mainline.moves.len(), 7);
    assert!(
        g.mainline
            .moves
            .iter()
            .all(|m| !matches!(m.played, Played::Garbled))
    );
    assert_eq!(
        warned(&g, Code::Speck),
        ["“", "©", "|", "”", "°", "'", ")", ".", ":"]
    );
    assert_eq!(g.result.map(|(r, _)| r), Some(GameResult::GreenWins));
}

#[test]
fn a_result_the_game_goes_on_after_is_a_speck_and_a_new_count_a_new_game() {
    // The count goes on after `*`: one game.
    let g = one("1. 33-43 83-73 2. 32-42 * 82-72 3. 21-32 84-74 1-0\n");
    assert_eq!(g.mainline.moves.len(), 6);
    assert_eq!(warned(&g, Code::Speck), ["*"]);
    // A move garbled after it goes on too.
    let g = one("1. 33-43 83-73 2. 32-42 *\n82-7Z 3. 21-32 84-74 *\n");
    assert_eq!(g.mainline.moves.len(), 6);
    // A game that starts again at 1. is a new game, and one that ends the text ends there.
    assert_eq!(ok("1. 33-43 83-73 *\n1. 32-42 82-72 *\n").len(), 2);
    assert_eq!(ok("1. 33-43 83-73 2. 32-42 *").len(), 1);
}

#[test]
fn a_number_waiting_for_its_move_is_not_read_again_in_the_move() {
    // `74. 74-64.44-35`: two moves with a dot between, not the number 74 run into `64.44-35`.
    let g = one("73. 63-74 43-34 74. 74-64.44-35 75. 75-85 *\n");
    let moves = garbled("73. 63-74 43-34 74. 74-64.44-35 75. 75-85 *\n");
    assert_eq!(moves[0].0, "74-64.44-35");
    assert!(warned(&g, Code::MisreadMoveNumber).is_empty());
}

#[test]
fn the_first_move_number_glued_to_its_move_is_read_apart() {
    let g = one("133-42 83-73 2. 22-33 *\n");
    assert_eq!(squares(&g.mainline.moves[0]), (Some(33), 42));
    assert_eq!(g.mainline.moves[0].number.map(|n| n.number), Some(1));
    assert_eq!(warned(&g, Code::MisreadMoveNumber), ["1"]);
}

#[test]
fn a_move_read_as_letters_is_kept_garbled_but_prose_stays_an_error() {
    assert_eq!(garbled("1. 33-43 BIAI 2. 32-42 82-72 *")[0].0, "BIAI");
    assert_eq!(garbled("1. 33-43 83-73 2. DEAD Ls\n82-72 *")[0].0, "DEAD");
    assert_eq!(err("1. 33-43 Remis *").code, Code::UnexpectedToken);
    assert_eq!(
        err("1. 33-43 83-73 Green resigned here\n").code,
        Code::UnexpectedToken
    );
}

#[test]
fn a_move_number_of_glyphs_alone_is_read_where_a_move_follows() {
    let g = one("1. 33-43 83-73 Q. 32-42 82-72 OL. 21-32 *\n");
    assert_eq!(g.mainline.moves.len(), 5);
    assert_eq!(
        g.mainline.moves[2].number.map(|n| n.number),
        Some(2),
        "{:?}",
        g.warnings
    );
    assert_eq!(g.mainline.moves[4].number.map(|n| n.number), Some(3));
}

#[test]
fn a_number_due_is_read_where_its_dot_is_lost_or_the_first_number_misread() {
    // The main line's first number, where the count is surest: `4,` and `“4,` stand for `1.`.
    for text in ["4, 33-43 83-73 *", "“4, 33-43 83-73 *", "Q. 33-43 83-73 *"] {
        let g = one(text);
        assert_eq!(
            g.mainline.moves[0].number.map(|n| n.number),
            Some(1),
            "{text}"
        );
        assert_eq!(g.mainline.moves.len(), 2, "{text}");
    }
    // A number that lost its dot, where it is due: one digit before anything that starts with a
    // digit, more digits only before a whole move.
    let g = one("1 33-43 83-73 2 3242 82-72 *");
    let numbers: Vec<_> = g
        .mainline
        .moves
        .iter()
        .map(|m| m.number.map(|n| n.number))
        .collect();
    assert_eq!(numbers, [Some(1), None, Some(2), None]);
    let g = one("11. 13-22 82-73 12 23-33 102-92 *");
    assert_eq!(g.mainline.moves[2].number.map(|n| n.number), Some(12));
    // Digits before a word that is no move may be a square of a move split by a space.
    assert_eq!(garbled("11. 13-22 82-73 12 -33 102-92 *")[0].0, "12 -33");
    // A number not due is left alone: a later game number misread stays a warning.
    let g = one("1. 33-43 83-73 2. 32-42 82-72 9, 21-32 *");
    assert_eq!(g.mainline.moves[4].number.map(|n| n.number), Some(9));
}

#[test]
fn noise_after_the_last_move_or_the_result_is_the_games() {
    // Below a page's last move: short words without digits, to the end.
    let g = one("1. 33-43 83-73 2. 32-42 OF\n");
    assert_eq!(g.mainline.moves.len(), 3);
    assert_eq!(warned(&g, Code::Speck), ["OF"]);
    assert_eq!(one("1. 33-43 83-73 So ts ae").mainline.moves.len(), 2);
    // A result with a dot after it, and words on the rest of its line: one game, its result.
    for text in [
        "1. 33-43 83-73 0-1. aS ae . . aa\n",
        "1. 33-43 83-73 0-1 ee Se . Te\n",
        // Words longer than a move too (decision 186), and prose.
        "1. 33-43 83-73 0-1 igvatyts LOE on\n",
        "1. 33-43 83-73 0-1 Green resigned\n\n[Event \"b\"]\n\n1. 33-43 *\n",
    ] {
        let games = ok(text);
        assert_eq!(games.len(), text.matches("1. 33-43").count(), "{text}");
        assert_eq!(
            games[0].result.map(|(r, _)| r),
            Some(GameResult::RedWins),
            "{text}"
        );
    }
    // Prose before a result, or prose too long for a move, is still an error.
    assert_eq!(err("1. 33-43 83-73 foo *").code, Code::UnexpectedToken);
    assert_eq!(
        err("1. 33-43 83-73 Green resigned\n").code,
        Code::UnexpectedToken
    );
}

#[test]
fn a_star_before_garbled_moves_is_a_speck_and_resync_skips_it_too() {
    // A `*` before a garbled move or glyph words that stand among moves.
    let g = one("1. 33-43 83-73 2. 32-42 *\nGa:72 3. 21-32 84-74 *\n");
    assert_eq!(g.mainline.moves.len(), 6);
    // Words between games are no moves: `Page 2` after a result leaves it the game's end.
    assert_eq!(ok("1. 33-43 *\n\nPage 2\n\n1. 34-44 *\n").len(), 2);
    // Specks and a garbled move of letters after the `*` are passed over to the move after
    // them: one game.
    let g = one("1. 33-43 83-73 2. 32-42 * ,\n82-72 3. 21-32 84-74 *\n");
    assert_eq!(g.mainline.moves.len(), 6);
    let g = one("1. 33-43 83-73 2. 32-42\n\u{a9} * QUSE 3. 21-32 84-74 *\n");
    assert_eq!(g.mainline.moves.len(), 6);
    // A `$` before a digit after it is OCR's 5, no NAG (decision 184).
    let g = one("1. 33-43 83-73 2. 32-42 * $2-72 3. 21-32 *\n");
    assert_eq!(g.mainline.moves.len(), 5);
    assert_eq!(
        garbled("1. 33-43 83-73 2. 32-42 * $2-72 3. 21-32 *")[0].0,
        "$2-72"
    );
    // After an error the game's end is looked for past a `*` the moves go on after.
    let results = parse_str("1. 33-43 Fortsetzung 83-73 2. 32-42 * 82-72 3. 21-32 *\n");
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(results[0].is_err());
}

#[test]
fn signs_glued_to_a_garbled_word_are_part_of_it() {
    assert_eq!(garbled("1. 33-43 GB? 2. 32-42 82-72 *")[0].0, "GB?");
    assert_eq!(garbled("1. 33-43 §$3:72 2. 32-42 *")[0].0, "§$3:72");
    assert_eq!(garbled("1. 33-43 Gr}43 2. 32-42 *")[0].0, "Gr}43");
    let g = one("1. 33-43 } 83-73 *");
    assert_eq!(warned(&g, Code::Speck), ["}"]);
}

#[test]
fn a_brace_glued_to_a_move_and_never_closed_is_a_speck() {
    let g = one("1. 33-43 {83-73 2. 32-42 *\n");
    assert_eq!(g.mainline.moves.len(), 3);
    assert_eq!(warned(&g, Code::Speck), ["{"]);
    // A remark that starts with a digit and is closed is a comment; one never closed that starts
    // with a word stays an error.
    let g = one("1. 33-43 {12 moves later} 83-73 *\n");
    assert_eq!(g.mainline.moves.len(), 2);
    // Glued to a word that holds a digit, or ends as a move number does: a move or a number
    // misread (`{OL,` for `2.` at a line's edge), never closed.
    let g = one("1. 33-43 83-73 {OL, 32-42 82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 4);
    assert_eq!(warned(&g, Code::Speck), ["{"]);
    let g = one("1. 33-43 {P3-73 2. 32-42 *\n");
    assert_eq!(warned(&g, Code::Speck), ["{"]);
    assert_eq!(garbled("1. 33-43 {P3-73 2. 32-42 *\n")[0].0, "P3-73");
    assert_eq!(
        err("1. 33-43 {never closed 83-73 *\n").code,
        Code::UnclosedComment
    );
}

/// Ten thousands of specks or short words after the last move, each looked at once to the
/// game's end and not again for every one of them (the words to the end were read once a word,
/// which took most of a minute for 100,000).
#[test]
fn a_run_of_specks_or_noise_to_the_end_is_read_once() {
    let g = one(&format!("1. 33-43 {}\n", "{ ".repeat(100_000)));
    assert_eq!(g.mainline.moves.len(), 1);
    assert_eq!(warned(&g, Code::Speck).len(), 100_000);
    let g = one(&format!("1. 33-43 {}\n", "ab ".repeat(100_000)));
    assert_eq!(g.mainline.moves.len(), 1);
    assert_eq!(warned(&g, Code::Speck).len(), 100_000);
    // A `(` glued to a word no move starts so looks for its close on its line only, once for
    // the line, not once a `(` (decision 196).
    let g = one(&format!("1. 33-43 {}*\n", "(T: ".repeat(100_000)));
    assert_eq!(warned(&g, Code::Speck).len(), 100_000);
}

/// A line of braces with a digit at its end is read once, not once a brace (each brace looked
/// at the word glued to it, to the line's end: 200,000 braces took 43 s).
#[test]
fn a_line_of_braces_is_an_unclosed_comment_read_once() {
    let text = format!("1. 33-43 83-73 {}1 *\n", "{".repeat(200_000));
    assert_eq!(err(&text).code, Code::UnclosedComment);
    let text = format!("1. 33-43 83-73 {}}} *\n", "{1".repeat(100_000));
    assert_eq!(one(&text).mainline.moves.len(), 2);
}

#[test]
fn a_paren_before_a_digit_with_no_variation_open_is_a_speck() {
    // `)3,` for `53.`: OCR's glyph for the number's first digit.
    let g = one("1. 33-43 83-73 )2. 32-42 82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 4);
    assert_eq!(warned(&g, Code::Speck), [")"]);
    // Where a variation is open it closes it.
    let g = one("1. 33-43 (1. 34-44 )2. 83-73 *\n");
    assert_eq!(g.mainline.moves.len(), 2);
}

#[test]
fn a_paren_glued_to_a_garbled_move_and_never_closed_is_a_speck() {
    let g = one("1. 33-43 83-73 2. (32-42 82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 4);
    assert_eq!(warned(&g, Code::Speck), ["("]);
    // A variation that starts with a move number written right is one, closed or not.
    assert_eq!(err("1. 33-43 (1... 83-73").code, Code::UnclosedVariation);
    assert_eq!(one("1. 33-43 (1. 34-44) 83-73 *").mainline.moves.len(), 2);
    assert_eq!(one("1. 33-43 (34-44) 83-73 *").mainline.moves.len(), 2);
}

#[test]
fn a_number_run_into_a_move_by_several_signs_or_glued_without_its_dot() {
    let g = one("1. 33-43 83-73 2. 32-42 82-72 3,.21-32 84-74 *\n");
    assert_eq!(squares(&g.mainline.moves[4]), (Some(21), 32));
    assert_eq!(g.mainline.moves[4].number.map(|n| n.number), Some(3));
    // `82-72.3`: the move and the next number, its dot lost; only a number that fits closely.
    let g = one("1. 33-43 83-73 2. 32-42 82-72.3 21-32 84-74 *\n");
    assert_eq!(g.mainline.moves.len(), 6);
    assert_eq!(g.mainline.moves[4].number.map(|n| n.number), Some(3));
    assert_eq!(
        garbled("1. 33-43 83-73 2. 32-42 82-72.9 21-32 *")[0].0,
        "82-72.9"
    );
}

#[test]
fn a_result_misread_after_the_last_move_is_the_games_result() {
    let g = one("1. 33-43 83-73 2. 32-42 O-T\n");
    assert_eq!(g.mainline.moves.len(), 3);
    assert_eq!(g.result.map(|(r, _)| r), Some(GameResult::RedWins));
    assert_eq!(warned(&g, Code::MisreadResult), ["O-T"]);
    // Not where moves follow it.
    assert_eq!(garbled("1. 33-43 O-T 2. 32-42 82-72 *")[0].0, "O-T");
    // Its dash lost (`10`, `OT`), glued to a number or not (decision 181).
    let g = one("1. 33-43 83-73 2. 32-42 8272.10\n");
    assert_eq!(g.result.map(|(r, _)| r), Some(GameResult::GreenWins));
    assert_eq!(warned(&g, Code::MisreadResult), ["10"]);
    let g = one("1. 33-43 83-73 2. 32-42 OT\n");
    assert_eq!(g.result.map(|(r, _)| r), Some(GameResult::RedWins));
    assert_eq!(garbled("1. 33-43 10 2. 32-42 82-72 *")[0].0, "10");
}

#[test]
fn four_digits_or_more_before_a_dot_after_a_move_are_a_move_not_a_number() {
    // A move with its dash lost and a dot after it, or moves and a number run together, where
    // the count expects no such number (decision 190).
    assert_eq!(garbled("1. 33-43 8272. 2. 32-42 *\n")[0].0, "8272.");
    assert_eq!(
        garbled("1. 33-43 83-73 2. 3342.92. 82-72 *\n")[0].0,
        "3342.92."
    );
    // However long: no move number too large to read, as it is where a line starts.
    let long = garbled("1. 33-43 83-73 2. 44265594441. 82-72 *\n");
    assert_eq!(long[0].0, "44265594441.");
    // Not digits that start with no square, a result glued on, or a number the count expects.
    let g = one("1. 33-43 83-73 2. 32-42 7777. 82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 4);
    let g = one("1. 33-43 83-73 2. 32-42 4242.10\n");
    assert_eq!(g.result.map(|(r, _)| r), Some(GameResult::GreenWins));
    let g = one("1000. 33-43 83-73 1001. 32-42 *\n");
    assert_eq!(g.mainline.moves.len(), 3);
}

#[test]
fn a_paren_never_closed_before_the_number_of_a_move_to_come_is_a_speck() {
    // A variation takes the place of the move before it: `(2.` after `1... 83-73`, never
    // closed, is OCR's speck (decision 192); `(1...` there opens a variation as ever.
    let g = one("1. 33-43 83-73\n(2. 32-42 82-72 3. 21-32 *\n");
    assert_eq!(warned(&g, Code::Speck), ["("]);
    assert_eq!(g.mainline.moves.len(), 5);
    let g = one("1. 33-43 83-73 (1... 83-72) 2. 32-42 *\n");
    assert_eq!(g.mainline.moves[1].variations().len(), 1);
}

#[test]
fn a_bracket_or_dollar_among_moves_is_no_tag_and_no_nag() {
    // `[` that starts no tag (a name, then a quoted value) is a speck, not a second game.
    let g = one("1. 33-43 83-73\n- [. 32-42 82-72 *\n");
    assert_eq!(warned(&g, Code::Speck), ["[", "."]);
    assert_eq!(ok("1. 33-43 *\n[Event \"b\"]\n1. 34-44 *\n").len(), 2);
    // `$` glued to letters is a 5 misread, a garbled move, not a bad NAG.
    let moves = garbled("1. 33-43 83-73 2. 32-42 $i-2E 3. 21-32 *\n");
    assert_eq!(moves[0].0, "$i-2E");
    let moves = garbled("1. 33-43 83-73 2. 32-42 $)-41 3. 21-32 *\n");
    assert_eq!(moves[0].0, "$)-41");
    // Three or four digits after a `$` where a move number waits for its move, or past PGN's
    // NAGs ($0 to $255), are a move with its 5 read as `$` (decision 187).
    assert_eq!(garbled("1. 33-43 83-73 2. $242 82-72 *\n")[0].0, "$242");
    assert_eq!(
        garbled("1. 33-43 83-73 2. 32-42 $4044 3. 21-32 *\n")[0].0,
        "$4044"
    );
    let g = one("1. 33-43 $146 83-73 2. 32-42 $2 82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 4);
    // `)` glued to a speck where no variation is open is one too.
    let g = one("1. 33-43 83-73\n\u{a9}). 32-42 82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 4);
}

#[test]
fn words_of_letters_among_moves_are_moves_garbled_and_prose_is_not() {
    // Up to six such words in a row before a move, with `$`, `;` or `?` glued to them.
    let moves = garbled("1. 33-43 83-73 2. 32-42 GLAD FY HBS FEN 72-62 *\n");
    assert_eq!(moves.len(), 4);
    let moves = garbled("1. 33-43 83-73 2. 32-42 OFT $3-4249: 3. 21-32 *\n");
    assert_eq!(moves[0].0, "OFT");
    let moves = garbled("1. 33-43 83-73 2. 32-42 BG; 92:73 3. 21-32 *\n");
    assert_eq!(moves[0].0, "BG");
    // A `;` glued to a move with moves after it is OCR's comma, no comment taking them.
    let g = one("1. 33-43 83-73 2. 32-42; 82-72 3. 21-32 84-74 *\n");
    assert_eq!(g.mainline.moves.len(), 6);
    let g = one("1. 33-43 83-73 2. 32-42; a fine move\n82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 4);
    // So is one between a move number and a move, a sign after it (`2;-32-42`): the number's
    // dot misread, the moves after it kept (decision 174).
    let g = one("1. 33-43 83-73 2;-32-42 82-72 3. 21-32 84-74 *\n");
    assert_eq!(g.mainline.moves.len(), 6);
    assert_eq!(warned(&g, Code::MisreadMoveNumber), ["2;"]);
    let g = one("1. 33-43 83-73 2. 32-42;c 82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 3);
    // A sign after it is read whole (`°`, two bytes), and a square's digits, a move number or
    // a speck after it end it too; a word after it begins a comment (decision 229).
    for (record, moves) in [
        ("1. 33-43 83-73 2. 32-42;\u{b0}82-72 3. 21-32 84-74 *\n", 6),
        (
            "1. 33-43 83-73 2. 32-42 82-72 3. 21-32;84-74 4. 31-41 *\n",
            7,
        ),
        ("1. 33-43 83-73;2. 32-42 82-72 *\n", 4),
        ("1. 33-43 83-73 2. 32-42;'82-72 3. 21-32 *\n", 5),
        ("1. 33-43 83-73 2. 32-42;2nd best\n82-72 *\n", 4),
    ] {
        assert_eq!(one(record).mainline.moves.len(), moves, "{record}");
        assert!(reads_alike_at_every_chunk_size(record), "{record}");
    }
    // Prose before the result is an error still.
    assert!(parse_str("1. 33-43 83-73 foo *").iter().any(|r| r.is_err()));
}

/// What no record can hold before its first move is OCR's (decision 227): a `(` glued to a
/// word there is a speck (no move before it to vary), a `$` and digits a move misread (no move
/// for a NAG to follow), and after a result a `(` before a digit goes on the game (no game
/// starts with a variation).
#[test]
fn what_cannot_stand_before_a_first_move_is_read_as_ocr_slips() {
    let g = one("(E3242 83-73 2. 32-42 82-72 *\n");
    assert_eq!(warned(&g, Code::Speck), ["("]);
    assert_eq!(g.mainline.moves.len(), 4);
    // Closed later too (a `)` that OCR also left).
    let g = one("(E3242 83-73 2. 32-42) 82-72 *\n");
    assert_eq!(warned(&g, Code::Speck), ["(", ")"]);
    assert_eq!(g.mainline.moves.len(), 4);
    assert_eq!(garbled("1, $54 83-73 2. 32-42 82-72 *")[0].0, "$54");
    let g = one("1. 33-43 83-73 2. 32-42 * (82-72 3. 21-32 84-74 *\n");
    assert_eq!(g.mainline.moves.len(), 6);
    // A variation before any move, or a NAG, as a writer may slip: an error still.
    assert_eq!(err("( 1. 33-43 ) 1. 32-42 *").code, Code::Misplaced);
    assert_eq!(err("$1 1. 33-43 *").code, Code::Misplaced);
    // Judged alike however the input is cut.
    for text in [
        "(E3242 83-73 *\n",
        "(1. 33-43) 1. 34-44 *\n",
        "1, $54 83-73 *\n",
    ] {
        assert!(reads_alike_at_every_chunk_size(text), "{text}");
    }
}

/// Marks OCR leaves that stopped a page or split it into games (decision 193) are read past.
#[test]
fn ocr_marks_that_stopped_or_split_a_page_are_read_past() {
    // A word of letters two moves long, not written as prose is, among moves: a garbled move.
    let text = "1. 33-43 83-73 2. SRiglAIAg 82-72 3. 21-32 *";
    assert_eq!(garbled(text)[0].0, "SRiglAIAg");
    let prose = "1. 33-43 83-73 2. Fortsetzung 82-72 3. 21-32 *";
    assert_eq!(err(prose).code, Code::UnexpectedToken);
    // A `*` before the first move, a move after it on its line: a speck at the page's head.
    assert_eq!(one("* 1. 33-43 83-73 *\n").mainline.moves.len(), 2);
    assert_eq!(ok("[Event \"tags\"]\n\n*\n\n1. 33-43 *\n").len(), 2);
    // A `{` never closed before moves, or before nothing but specks: a speck.
    assert_eq!(one("{33-43 83-73 2. 32-42 *\n").mainline.moves.len(), 3);
    assert_eq!(
        one("1. 33-43 83-73 {PTS 2. 32-42 *\n").mainline.moves.len(),
        4
    );
    assert_eq!(one("1. 33-43 83-73 { :\n").mainline.moves.len(), 2);
    assert_eq!(err("1. 33-43 {open\n").code, Code::UnclosedComment);
    // A `(` never closed before a number beyond the moves read: no variation.
    let g = one("1. 33-43 83-73 2. 32-42 (12.82-72 *\n");
    assert_eq!(warned(&g, Code::Speck), ["("]);
    // ... or a number away from the last move's (`(8.` at move 26), or glued to a word no move
    // starts so (`(TT:`); such a word's `(` is a variation only where its own line closes it.
    let g = one("1. 33-43 83-73 2. 32-42 82-72 3. 21-32 (1. 84-74 *\n");
    assert_eq!(warned(&g, Code::Speck), ["("]);
    let g = one("1. 33-43 83-73 2. (TT: 82-72 *\n");
    assert_eq!(warned(&g, Code::Speck), ["("]);
    let g = one("1. 33-43 83-73 2. ($2. 82-72\n3. 21-32 *) 84-74 *\n");
    assert_eq!(g.result.map(|r| r.0), Some(GameResult::Unknown));
    assert!(warned(&g, Code::Speck).contains(&"("));
    // A `)` before a sign at a line's head, after moves: a speck.
    let g = one("1. 33-43 83-73\n), 2. 32-42 82-72 *\n");
    assert_eq!(g.mainline.moves.len(), 4);
    // A `$` and seven digits or more: moves run together, their first 5 read as `$`.
    let text = "1. 33-43 83-73 2. 32-42 $257023539 3. 21-32 *";
    assert_eq!(garbled(text)[0].0, "$257023539");
    // A `*` with a `)` glued after it, or a number after it that the count missed but the last
    // number written expects: the game goes on.
    assert_eq!(
        one("1. 33-43 83-73 2. 32-42 *) 82-72 *\n")
            .mainline
            .moves
            .len(),
        4
    );
    let drifted =
        "1. 33-43 83-73 2. 32-42-82-72-21-32-84-74 4. 22-33 74-63 5. 23-34 *\n6. 63-54 *\n";
    assert_eq!(ok(drifted).len(), 1);
    // Digits as many as a u32 holds where a move number or a variation's may stand: no
    // overflow in telling them from the numbers the count expects.
    for text in [
        "1. 33-43 4294967295. *\n",
        "1. 33-43 83-73 (4294967295. 32-42 *\n",
    ] {
        assert_eq!(parse_str(text).len(), 1, "{text}");
    }
    // Digits too few for a move or a move number after the result, on its line: specks.
    assert_eq!(ok("1. 33-43 1-0 Se ae 6 3\n").len(), 1);
}
