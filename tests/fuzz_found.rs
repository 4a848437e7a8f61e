//! What the fuzz targets (`fuzz/`) found, each input kept as a test of the suite: the target that
//! found it, and what must hold.

use crate::cli::salta_args;
use crate::special::TempDir;
use salta::diagnostic::Code;
use salta::notation::{WriteOptions, parse_str, write_game};
use salta::repair::{Mended, breaks_main_line, mend};
use salta::replay::{MarginPolicy, ReplayOptions, replay};

/// `repair` target: a call after a legal step under the no-blockade rule (Winther, jumps any)
/// passed the repair search's own replay, which then found no break, and the game came back
/// "repaired" with nothing changed and the error still in it.
#[test]
fn a_break_the_search_cannot_see_is_not_called_repaired() {
    let record = "[Rules \"winther; jumps=any\"]\n\
                  [Setup \"G/42,-,-,71,-,-,-,-,-,-,62,-,-,72,52/-,-,-,-,-,-,-,-,61,-,-,-,-,-,-\"]\n\
                  [Result \"*\"]\n\n1. 42-53 Salta! 62-73 *\n";
    let game = parse_str(record).remove(0).expect("the record reads");
    let opts = ReplayOptions::default().margins(MarginPolicy::Never);
    assert!(replay(&game, &opts).findings().iter().any(breaks_main_line));
    match mend(&game, &opts, 3) {
        Mended::Unrepairable(unmended) => {
            assert_eq!(unmended.first.code, Code::UnjustifiedCall);
            assert!(unmended.needed.is_none());
        }
        Mended::Repaired(mended, breaks) => panic!(
            "called repaired ({} breaks), still breaking: {:?}",
            breaks.len(),
            replay(&mended, &opts).findings()
        ),
        Mended::Sound => panic!("called sound"),
    }
    let dir = TempDir::new("fuzz-unjustified-call");
    let input = dir.write("call.sgn", record);
    let output = dir.path("out.sgn");
    let run = salta_args!["repair", input, "-o", output];
    assert!(
        run.stderr.contains("0 repaired, 1 not repairable"),
        "{}",
        run.stderr
    );
}

/// `read` target: a garbled move and the garbled move on the next line were written on one line,
/// where the reader took the second for a part of the first that a space split off: the canonical
/// form read back as another game. The move after a garbled move is now numbered.
#[test]
fn a_garbled_move_keeps_the_next_move_its_own_in_the_canonical_form() {
    let games = parse_str("1.3\n2-42 3");
    let written = write_game(games[0].as_ref().unwrap(), &WriteOptions::default());
    assert_eq!(written, "1. 3 1... 2-42 2. 3 *\n");
    let again = parse_str(&written);
    assert_eq!(again.len(), 1);
    assert_eq!(
        write_game(again[0].as_ref().unwrap(), &WriteOptions::default()),
        written
    );
}

/// `read` target, again: a garbled word and the move after it, written on one line after a move
/// number, read back as one move with a designator (`#7 32-42`, "moon 2 from 32").
#[test]
fn a_garbled_move_is_not_read_back_as_the_designator_of_the_next() {
    let games = parse_str("#7 32-422.");
    let written = write_game(games[0].as_ref().unwrap(), &WriteOptions::default());
    assert_eq!(written, "1. #7 1... 32-42 *\n");
    let again = parse_str(&written);
    assert_eq!(
        write_game(again[0].as_ref().unwrap(), &WriteOptions::default()),
        written
    );
}

/// `read` target: a `;` comment of an LF file holding lone CRs was written braced with them, and
/// the written text, with more lone CRs than LFs, was then read as a file of CR-ended lines. Made
/// line breaks, they started a line with `[` in a comment from a file of CR-ended lines (whose LF
/// is read as a CR), which ends a comment. A lone CR in a comment is written as a space, unless
/// it starts a line.
#[test]
fn a_comment_holding_lone_crs_is_written_with_spaces_for_them() {
    for (record, canonical) in [
        (";y\r\r5\n\n", "{y  5} *\n"),
        (";t\n[i\"\r\r", "{t [i\"} *\n"),
        // One that starts a line is kept: a space there made `[R"` a tag line, ending the comment.
        ("{\"\n\r[R\"}", "{\"\n\r[R\"} *\n"),
    ] {
        let games = parse_str(record);
        let written = write_game(games[0].as_ref().unwrap(), &WriteOptions::default());
        assert_eq!(written, canonical);
        let again = parse_str(&written);
        assert_eq!(
            write_game(again[0].as_ref().unwrap(), &WriteOptions::default()),
            written
        );
    }
}

/// Sends the language server a notification.
fn send(session: &mut salta::lsp::Session, method: &str, params: serde_json::Value) {
    let message = salta::lsp::lsp_server::Notification::new(method.to_string(), params).into();
    session.handle(message, std::time::Instant::now());
}

/// A language server with `text` open as `file:///t.sgn`, then each change (line, character,
/// text inserted; an empty text removes the character there), the server's games checked against
/// a fresh reading of its text after each.
fn edit_and_compare(text: &str, changes: &[(u32, u32, &str)]) {
    use serde_json::json;
    let init = json!({"capabilities": {}, "initializationOptions": {"readingsDelayMs": 0}});
    let (mut session, _) = salta::lsp::Session::new(&init);
    let document = json!({"uri": "file:///t.sgn", "languageId": "sgn", "version": 1, "text": text});
    send(
        &mut session,
        "textDocument/didOpen",
        json!({ "textDocument": document }),
    );
    assert!(session.games_agree_with_a_fresh_reading());
    for (n, &(line, character, text)) in changes.iter().enumerate() {
        let at = json!({"line": line, "character": character});
        let end = match text {
            "" => json!({"line": line, "character": character + 1}),
            _ => at.clone(),
        };
        let change = json!({"range": {"start": at, "end": end}, "text": text});
        send(
            &mut session,
            "textDocument/didChange",
            json!({"textDocument": {"uri": "file:///t.sgn", "version": n + 2},
                   "contentChanges": [change]}),
        );
        assert!(
            session.games_agree_with_a_fresh_reading(),
            "after change {n}"
        );
    }
}

/// `lsp` target: a NUL typed into the head of a document makes a reading of the whole judge it
/// binary, but the server read only the games around the edit again and kept the others.
#[test]
fn an_edit_that_makes_the_document_binary_reads_it_all_again() {
    edit_and_compare("* *\n\"", &[(1, 1, "\u{0}"), (1, 1, ""), (0, 0, "\u{0}")]);
}

/// `lsp` target: a document whose lines end in CR alone is read with CR and LF swapped, but the
/// games around an edit were read again alone, as LF text.
#[test]
fn an_edit_of_a_document_of_cr_ended_lines_reads_it_as_a_whole_reading_does() {
    edit_and_compare(
        "*\r\r*\n\t\u{8}",
        &[
            (8, 24, ""),
            (8, 24, "\u{8}"),
            (1, 0, "1. 33-43\r"),
            (0, 1, "\r"),
        ],
    );
}
