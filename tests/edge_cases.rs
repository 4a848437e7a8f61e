//! Every rule situation has a small record; the replayer's report on each is snapshotted.
//! Records the rules accept live in corpus/edge-cases/, records they reject in tests/edge-cases/.

use salta::archive::{CheckOptions, GameReport, check_files};
use salta::replay::{MarginPolicy, ReplayOptions, Status};
use salta::rules::margin::Budget;
use std::path::{Path, PathBuf};

fn records(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no records in {folder}");
    files
}

/// The check report of one file as people read it, with the file named relative to the project.
fn report(path: &Path, lenient: bool) -> (String, Vec<GameReport>) {
    let opts = CheckOptions::default()
        // States only, no clock: a busy machine must not turn an exact margin into bounds.
        .replay(
            ReplayOptions::default()
                .lenient(lenient)
                .budget(Budget::default().max_time(None)),
        )
        .render(Some(false));
    let mut text = String::new();
    let mut reports = Vec::new();
    check_files(&[path.to_path_buf()], &opts, |r| {
        let outcome = match &r.outcome {
            Some(o) => format!(
                "winner {:?}, margin {:?}, reason {:?}",
                o.winner, o.margin, o.reason
            ),
            None => "no outcome".to_string(),
        };
        text.push_str(&format!(
            "game {}: {:?}, {} plies, {outcome}\n",
            r.game, r.status, r.plies
        ));
        for d in &r.diagnostics {
            text.push_str(&format!(
                "  {} {:?} at {}:{} (ply {:?}, {:?}): {}\n",
                d.code,
                d.severity,
                d.line.unwrap_or(0),
                d.column.unwrap_or(0),
                d.ply,
                d.side,
                d.message
            ));
        }
        if let Some(rendered) = &r.rendered {
            text.push_str(rendered);
        }
        reports.push(r.clone());
        true
    });
    // Name the file relative to the project, as on any machine.
    let root = format!("{}/", env!("CARGO_MANIFEST_DIR"));
    (text.replace(&root, ""), reports)
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/edge-cases", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name.to_string(), text);
    });
}

#[test]
fn accepted_records_are_valid_and_snapshotted() {
    for path in records("corpus/edge-cases") {
        let (text, reports) = report(&path, false);
        assert!(
            reports.iter().all(|r| r.status != Status::Invalid),
            "{}:\n{text}",
            path.display()
        );
        snapshot(&path.file_stem().unwrap().to_string_lossy(), &text);
    }
}

#[test]
fn rejected_records_are_invalid_and_snapshotted() {
    for path in records("tests/edge-cases") {
        let (text, reports) = report(&path, false);
        assert!(
            reports.iter().any(|r| r.status == Status::Invalid),
            "{}:\n{text}",
            path.display()
        );
        snapshot(
            &format!("rejected-{}", path.file_stem().unwrap().to_string_lossy()),
            &text,
        );
    }
}

#[test]
fn lenient_mode_lets_an_uncalled_missed_jump_stand() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/edge-cases/missed-jump.sgn");
    let (text, reports) = report(&path, true);
    assert_eq!(reports[0].status, Status::Warnings, "{text}");
    assert_eq!(
        reports[0].plies, 2,
        "the step stands and Red's reply is played"
    );
    snapshot("lenient-missed-jump", &text);
}

#[test]
fn cutting_files_into_small_pieces_changes_no_report() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/synthetic/salta.sgn");
    let run = |piece_bytes| {
        // Margins are not counted: their time budget could make two runs differ.
        let opts = CheckOptions::default()
            .replay(ReplayOptions::default().margins(MarginPolicy::Never))
            .render(Some(false))
            .piece_bytes(piece_bytes);
        let mut out = Vec::new();
        check_files(std::slice::from_ref(&path), &opts, |r| {
            out.push((serde_json::to_string(r).unwrap(), r.rendered.clone()));
            true
        });
        out
    };
    let whole = run(0);
    assert_eq!(whole.len(), 24);
    // Pieces of about one game, and pieces smaller than a game (cut only at boundaries).
    for piece_bytes in [2_000, 100] {
        assert_eq!(run(piece_bytes), whole, "pieces of {piece_bytes} bytes");
    }
}

/// A move the replay rejects decides nothing (issue 36): the result and margin are judged at the
/// position where the game ended, whether the record gives the right result, a wrong one or none,
/// after Green's completion under odds and after the move limit alike.
#[test]
fn the_result_is_judged_where_the_game_ended_not_after_a_rejected_move() {
    for end in ["odds", "limit"] {
        // Recorded 1-0 (with the Margin), 0-1 and `*`: Green has won in every one.
        for (suffix, expected) in [
            ("", &["salta::move-after-end"][..]),
            (
                "-wrong-result",
                &["salta::move-after-end", "salta::wrong-result"],
            ),
            (
                "-no-result",
                &["salta::move-after-end", "salta::result-unrecorded"],
            ),
        ] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("tests/edge-cases/move-after-end-{end}{suffix}.sgn"));
            let (text, reports) = report(&path, false);
            let [r] = &reports[..] else {
                panic!("one game: {text}")
            };
            let codes: Vec<String> = r.diagnostics.iter().map(|d| d.code.to_string()).collect();
            assert_eq!(codes, expected, "{text}");
            assert!(
                r.diagnostics[1..]
                    .iter()
                    .all(|d| d.message.starts_with("the game ends 1-0")),
                "{text}"
            );
            let winner = r.outcome.as_ref().and_then(|o| o.winner);
            assert_eq!(winner, Some(salta::board::Color::Green), "{text}");
        }
    }
}
