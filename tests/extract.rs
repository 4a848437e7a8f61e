//! Sorting an archive (`salta::extract`): what each game becomes under each option, that set-aside
//! games are written exactly as read, and that a kept broken game replays without errors.

use salta::extract::{ExtractOptions, Selection, Sorted, TagFilter, Verdict, extract};
use salta::notation::{GameResult, Notation, parse_str};
use salta::replay::{ReplayOptions, Status, replay};
use std::path::PathBuf;

fn fixtures() -> Vec<PathBuf> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/extract");
    vec![folder.join("archive.sgn"), folder.join("more.sgn")]
}

fn sort(options: &ExtractOptions) -> Vec<Sorted> {
    let mut sorted = Vec::new();
    extract(&fixtures(), options, |s| {
        sorted.push(s);
        Ok(())
    })
    .expect("the fixtures can be read");
    sorted
}

/// One line per game: file name, index, line and verdict (paths cut to the file name).
fn verdicts(sorted: &[Sorted]) -> String {
    let short = |text: String| text.replace(&format!("{}/", fixtures_folder()), "");
    sorted
        .iter()
        .map(|s| short(format!("{}: {:?}", s.game, s.verdict)))
        .collect::<Vec<_>>()
        .join("\n")
}

fn fixtures_folder() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/extract")
        .display()
        .to_string()
}

fn kept_events(options: &ExtractOptions) -> Vec<String> {
    sort(options)
        .iter()
        .filter(|s| s.verdict == Verdict::Kept)
        .map(|s| event_of(&s.text_str()))
        .collect()
}

fn event_of(text: &str) -> String {
    let game = parse_str(text).remove(0).expect("a kept game reads back");
    game.tag("Event").unwrap_or_default().to_string()
}

#[test]
fn by_default_clean_games_are_kept_and_broken_ones_rejected() {
    let sorted = sort(&ExtractOptions::default());
    insta::assert_snapshot!(verdicts(&sorted));
}

#[test]
fn broken_game_is_kept_up_to_its_first_illegal_move() {
    let sorted = sort(&ExtractOptions::default().keep_broken(true));
    let broken: Vec<&Sorted> = sorted
        .iter()
        .filter(|s| matches!(s.verdict, Verdict::KeptBroken { .. }))
        .collect();
    assert_eq!(broken.len(), 1);
    let text = &broken[0].text_str();
    insta::assert_snapshot!(text);
    let game = parse_str(text).remove(0).expect("the cut game reads");
    let replayed = replay(&game, &ReplayOptions::default());
    assert_ne!(
        replayed.status(),
        Status::Invalid,
        "{:?}",
        replayed.findings()
    );
    assert_eq!(replayed.plies(), 2);
    assert_eq!(game.result.map(|(r, _)| r), Some(GameResult::Unknown));
    // The movetext from the broken move on is still there, line by line.
    assert!(text.contains("\n; 2. 43-44 84-75\n; 3. 32-42\n*"), "{text}");
}

#[test]
fn set_aside_games_are_written_exactly_as_read() {
    let archive = std::fs::read_to_string(&fixtures()[0]).expect("fixture");
    let rejected: Vec<Sorted> = sort(&ExtractOptions::default())
        .into_iter()
        .filter(|s| matches!(s.verdict, Verdict::Rejected { .. }))
        .collect();
    assert_eq!(rejected.len(), 2);
    for s in &rejected {
        let at = archive
            .find(s.text_str().trim_end())
            .expect("a rejected game is a piece of its file");
        assert!(archive[at..].starts_with("[Event"), "{}", s.text_str());
    }
    assert!(
        rejected[0]
            .text_str()
            .contains("2. 43-44 84-75\n3. 32-42 *")
    );
    assert!(rejected[1].text_str().contains("1. 33-43 ) *"));
}

#[test]
fn duplicates_and_games_contained_in_longer_ones_are_found() {
    let sorted = sort(&ExtractOptions::default().find_duplicates(true));
    insta::assert_snapshot!(verdicts(&sorted));
    let dropped: Vec<String> = sorted
        .iter()
        .filter(|s| {
            matches!(
                s.verdict,
                Verdict::Duplicate { .. } | Verdict::Contained { .. }
            )
        })
        .map(|s| event_of(&s.text_str()))
        .collect();
    assert_eq!(dropped, ["Fragment", "Long, transcribed again"]);
}

#[test]
fn selection_by_tag_length_result_and_position() {
    let select =
        |selection: Selection| kept_events(&ExtractOptions::default().selection(selection));
    let tag =
        |t: &str| Selection::default().tags(vec![t.parse::<TagFilter>().expect("a tag condition")]);
    assert_eq!(select(tag("Green=Anna")), ["Long", "Fragment"]);
    assert_eq!(
        select(tag("Green~ANNA")),
        ["Long", "Fragment", "Long, transcribed again"]
    );
    assert_eq!(select(tag("Event~again")), ["Long, transcribed again"]);
    assert_eq!(
        select(Selection::default().min_plies(3)),
        ["Long", "Long, transcribed again"]
    );
    assert_eq!(
        select(
            Selection::default()
                .max_plies(2)
                .result(GameResult::Unknown)
        ),
        ["Fragment", "Other"]
    );
    // The position after 1. 33-42 83-73 2. 22-33: reached by both long games only.
    let line = parse_str("1. 33-42 83-73 2. 22-33 *")
        .remove(0)
        .expect("a game");
    let reaches = *replay(&line, &ReplayOptions::default()).final_position();
    assert_eq!(
        select(Selection::default().reaches(reaches)),
        ["Long", "Long, transcribed again"]
    );
}

#[test]
fn tag_conditions_need_a_name_and_an_operator() {
    assert!("Green".parse::<TagFilter>().is_err());
    assert!("=Anna".parse::<TagFilter>().is_err());
    assert_eq!(
        "Site=Berlin = Mitte".parse::<TagFilter>(),
        Ok(TagFilter::Equals {
            name: "Site".into(),
            value: "Berlin = Mitte".into()
        })
    );
}

#[test]
fn duplicates_are_set_aside_as_read_when_kept_games_are_rewritten() {
    // Kept games are rewritten; a game set aside as a duplicate is written as read all the same.
    let dropped = |notation| -> Vec<String> {
        sort(
            &ExtractOptions::default()
                .find_duplicates(true)
                .notation(notation),
        )
        .into_iter()
        .filter(|s| {
            matches!(
                s.verdict,
                Verdict::Duplicate { .. } | Verdict::Contained { .. }
            )
        })
        .map(|s| s.text_str())
        .collect()
    };
    let as_read = dropped(None);
    assert_eq!(as_read.len(), 2);
    assert_eq!(dropped(Some(Notation::Algebraic)), as_read);
}

#[test]
fn a_failing_output_stops_the_sorting_with_its_error() {
    let mut written = 0;
    let result = extract(&fixtures(), &ExtractOptions::default(), |_| {
        written += 1;
        match written {
            2 => Err(std::io::Error::other("disk full")),
            _ => Ok(()),
        }
    });
    let error = result.expect_err("the output's error");
    assert_eq!(error.to_string(), "disk full");
    assert_eq!(written, 2, "nothing is handed on after the error");
}

/// A file that opens but cannot be read (a directory opens on Linux and fails on the first read)
/// makes the sorting end with an error that names it, after the other files' games, so that the
/// command commits none of its output files; with duplicate detection the first reading fails.
#[test]
fn a_file_that_fails_to_read_ends_the_sorting_with_an_error_naming_it() {
    let unreadable = std::env::temp_dir().join(format!(
        "salta-extract-unreadable-{}.sgn",
        std::process::id()
    ));
    std::fs::create_dir_all(&unreadable).unwrap();
    let mut files = fixtures();
    files.insert(1, unreadable.clone());
    for find_duplicates in [false, true] {
        let options = ExtractOptions::default().find_duplicates(find_duplicates);
        let mut handed_on = 0;
        let result = extract(&files, &options, |_| {
            handed_on += 1;
            Ok(())
        });
        let error = result.expect_err("the read error");
        assert!(
            error
                .to_string()
                .contains(&unreadable.display().to_string()),
            "{error}"
        );
        if !find_duplicates {
            assert_eq!(handed_on, sort(&ExtractOptions::default()).len());
        }
    }
    std::fs::remove_dir_all(&unreadable).unwrap();
}

#[test]
fn cutting_files_into_small_pieces_changes_no_verdict() {
    // Each game read and sorted by whichever worker is free, the games before it perhaps not yet:
    // the numbers, verdicts and texts must come out as from one whole piece.
    let run = |piece_bytes| {
        sort(
            &ExtractOptions::default()
                .find_duplicates(true)
                .notation(Notation::Algebraic)
                .piece_bytes(piece_bytes),
        )
        .into_iter()
        .map(|s| (s.game.to_string(), format!("{:?}", s.verdict), s.text_str()))
        .collect::<Vec<_>>()
    };
    let whole = run(0);
    assert_eq!(whole.len(), 6);
    // Pieces of about one game, and pieces smaller than a game (cut only at boundaries).
    for piece_bytes in [150, 20] {
        assert_eq!(run(piece_bytes), whole, "pieces of {piece_bytes} bytes");
    }
}

#[test]
fn kept_games_can_be_rewritten_canonically() {
    let sorted = sort(&ExtractOptions::default().notation(Notation::Algebraic));
    let other = sorted
        .iter()
        .find(|s| s.text_str().contains("\"Other\""))
        .expect("the game Other is kept");
    assert!(
        other.text_str().contains("1. e3-f4"),
        "{}",
        other.text_str()
    );
}

#[test]
fn rescued_games_are_rewritten_too() {
    let sorted = sort(
        &ExtractOptions::default()
            .notation(Notation::Algebraic)
            .keep_broken(true),
    );
    let broken = sorted
        .iter()
        .find(|s| matches!(s.verdict, Verdict::KeptBroken { .. }))
        .expect("one game is kept broken");
    insta::assert_snapshot!(broken.text_str());
    let game = parse_str(&broken.text_str())
        .remove(0)
        .expect("the rewritten game reads");
    assert_ne!(
        replay(&game, &ReplayOptions::default()).status(),
        Status::Invalid
    );
}

#[test]
fn results_and_margins_are_fixed_only_where_the_replay_proves_them() {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/edge-cases");
    let files: Vec<PathBuf> = [
        "wrong-result",
        "wrong-margin",
        "result-mismatch",
        "illegal-move",
    ]
    .iter()
    .map(|name| folder.join(format!("{name}.sgn")))
    .collect();
    let mut sorted = Vec::new();
    let options = ExtractOptions::default().fix_results(true);
    extract(&files, &options, |s| {
        sorted.push(s);
        Ok(())
    })
    .expect("the records can be read");
    let verdicts: Vec<&str> = sorted
        .iter()
        .map(|s| match s.verdict {
            Verdict::Fixed { .. } => "fixed",
            Verdict::Rejected { .. } => "rejected",
            _ => "other",
        })
        .collect();
    // The tag/token disagreement in a game that has not ended cannot be decided by the rules.
    assert_eq!(verdicts, ["fixed", "fixed", "rejected", "rejected"]);
    insta::assert_snapshot!(format!(
        "{}\n{}",
        sorted[0].text_str(),
        sorted[1].text_str()
    ));
    for s in &sorted[..2] {
        let game = parse_str(&s.text_str())
            .remove(0)
            .expect("a fixed game reads");
        assert_eq!(
            replay(&game, &ReplayOptions::default()).status(),
            Status::Valid,
            "{}",
            s.text_str()
        );
    }
}

/// A game cut after its end (a move after the end) has ended: it keeps the result and margin the
/// replay proves where it ended (issue 36), not `*`, and the record's own result, where it differs,
/// stays in a comment.
#[test]
fn a_game_cut_after_its_end_keeps_the_result_it_ended_with() {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/edge-cases");
    let files: Vec<PathBuf> = [
        "move-after-end-odds",
        "move-after-end-odds-wrong-result",
        "move-after-end-limit-no-result",
    ]
    .iter()
    .map(|name| folder.join(format!("{name}.sgn")))
    .collect();
    let mut sorted = Vec::new();
    let options = ExtractOptions::default().keep_broken(true);
    extract(&files, &options, |s| {
        sorted.push(s);
        Ok(())
    })
    .expect("the records can be read");
    assert_eq!(sorted.len(), 3);
    for s in &sorted {
        assert!(
            matches!(s.verdict, Verdict::KeptBroken { .. }),
            "{}",
            s.text_str()
        );
        let game = parse_str(&s.text_str())
            .remove(0)
            .expect("the cut game reads");
        assert_eq!(game.result.map(|(r, _)| r), Some(GameResult::GreenWins));
        assert_eq!(game.tag("Result"), Some("1-0"));
        let replayed = replay(&game, &ReplayOptions::default());
        assert_eq!(
            replayed.status(),
            Status::Valid,
            "{:?}",
            replayed.findings()
        );
    }
    assert_eq!(
        parse_str(&sorted[0].text_str())
            .remove(0)
            .unwrap()
            .tag("Margin"),
        Some("1")
    );
    assert!(
        sorted[1]
            .text_str()
            .contains("\n; the record's result: 0-1\n1-0\n"),
        "{}",
        sorted[1].text_str()
    );
    assert!(
        sorted[2]
            .text_str()
            .contains("\n; the record's result: *\n1-0\n"),
        "{}",
        sorted[2].text_str()
    );
}
