//! What the fuzz targets (`fuzz/`) found, each input kept as a test of the suite: the target that
//! found it, and what must hold.

use crate::cli::{TempDir, salta};
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
    let run = salta(&[
        "repair".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        output.as_os_str(),
    ]);
    assert!(
        run.stderr.contains("0 repaired, 1 not repairable"),
        "{}",
        run.stderr
    );
}

/// `read` target: a garbled move and the garbled move on the next line were written on one line,
/// where the reader took the second for a part of the first that a space split off: the canonical
/// form read back as another game. A garbled move after a garbled move is now numbered.
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

/// `read` target: a `;` comment of an LF file holding lone CRs was written braced with them, and
/// the written text, with more lone CRs than LFs, was then read as a file of CR-ended lines. The
/// canonical form's comments end their lines in LF.
#[test]
fn a_comment_holding_lone_crs_is_written_with_lf_line_ends() {
    let games = parse_str(";y\r\r5\n\n");
    let written = write_game(games[0].as_ref().unwrap(), &WriteOptions::default());
    assert_eq!(written, "{y\n\n5} *\n");
    let again = parse_str(&written);
    assert_eq!(
        write_game(again[0].as_ref().unwrap(), &WriteOptions::default()),
        written
    );
}

/// `lsp` target: a NUL typed into the head of a document makes a reading of the whole judge it
/// binary, but the server read only the games around the edit again and kept the others.
#[test]
fn an_edit_that_makes_the_document_binary_reads_it_all_again() {
    use salta::lsp::Session;
    use salta::lsp::lsp_server::{Message, Notification};
    use serde_json::json;
    let now = std::time::Instant::now();
    let notification =
        |method: &str, params| -> Message { Notification::new(method.to_string(), params).into() };
    let init = json!({"capabilities": {}, "initializationOptions": {"readingsDelayMs": 0}});
    let (mut session, _) = Session::new(&init);
    let uri = "file:///binary.sgn";
    session.handle(
        notification(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "sgn", "version": 1,
                                    "text": "* *\n\""}}),
        ),
        now,
    );
    assert!(session.games_agree_with_a_fresh_reading());
    for (version, (line, character, text)) in [(1, 1, "\u{0}"), (1, 1, ""), (0, 0, "\u{0}")]
        .into_iter()
        .enumerate()
    {
        let at = json!({"line": line, "character": character});
        let end = if text.is_empty() {
            json!({"line": line, "character": character + 1})
        } else {
            at.clone()
        };
        session.handle(
            notification(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version + 2},
                       "contentChanges": [{"range": {"start": at, "end": end}, "text": text}]}),
            ),
            now,
        );
        assert!(
            session.games_agree_with_a_fresh_reading(),
            "after change {version}"
        );
    }
}
