//! Transcription repair: slips injected into valid records are read back as meant.

use crate::cli::{Run, salta};
use salta::repair::inject::{
    inject, inject_two, judge, judge_mend, quick_options, search_options, test_records, trial_run,
    two_slip_run,
};
use salta::repair::{DEFAULT_MAX_EDITS, Mended, SlipKind, Suggestion, analyse, mend};
use salta::replay::MarginPolicy;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_top_suggestion_restores_the_main_line_for_each_kind() {
    let games = test_records(root()).unwrap();
    let trials = trial_run(&games, 0..3);
    let mut table = String::new();
    for kind in SlipKind::ALL {
        let own: Vec<_> = trials
            .iter()
            .filter(|(k, _, v, _)| *k == kind && !v.caught_later)
            .collect();
        let right = own.iter().filter(|(_, _, v, _)| v.rank == Some(0)).count();
        table.push_str(&format!("{}: {right}/{}\n", kind.name(), own.len()));
        // Only the historical game is algebraic: its file and rank misreads are few here (and
        // every one is asserted in the next test).
        let enough = match kind {
            SlipKind::AlgebraicMisread => 2,
            _ => 10,
        };
        assert!(own.len() >= enough, "{}: too few\n{table}", kind.name());
        // Several characters of one move misread are read where the move is within two
        // unlikely confusions of a legal one, or one and a space (decision 73): not all are.
        let share = if kind == SlipKind::Garbled { 75 } else { 95 };
        assert!(right * 100 >= own.len() * share, "{table}");
    }
    // Legal slips caught later. A reading second only to one that fares exactly as well (the
    // same edit, to the end with the same result and margin) is a tie the record cannot break:
    // both are offered. The 80 % target is met counting those ties; the right reading first is
    // asserted apart, at the level it reaches (the rest are such ties, see the README).
    let later: Vec<_> = trials
        .iter()
        .filter(|(_, _, v, _)| v.caught_later)
        .collect();
    let first = later
        .iter()
        .filter(|(_, _, v, _)| v.rank == Some(0))
        .count();
    let ties = later.iter().filter(|(_, _, v, _)| v.lost_tie()).count();
    println!(
        "{table}legal slips caught later: {} judged, right first {first}, ties {ties}",
        later.len()
    );
    assert!(later.len() >= 10, "too few legal slips: {}", later.len());
    assert!((first + ties) * 100 >= later.len() * 80, "{table}");
    assert!(first * 100 >= later.len() * 65, "{table}");
}

#[test]
fn every_slip_in_the_historical_game_is_repaired() {
    let games = test_records(root()).unwrap();
    let historical = &games[0];
    let mut made = 0;
    for kind in SlipKind::ALL {
        for seed in 0..6 {
            let Some(slipped) = inject(historical, kind, seed) else {
                continue;
            };
            made += 1;
            // Several characters misread in one move: not all are read (decision 73).
            if kind == SlipKind::Garbled {
                continue;
            }
            let verdict = judge(&slipped);
            assert_eq!(verdict.rank, Some(0), "{} seed {seed}", kind.name());
        }
    }
    assert!(made >= 40, "{made} slips made");
}

#[test]
fn a_record_numbered_from_reds_side_is_read_in_its_own_numbers() {
    // The record wrote 3... 44-45 for 44-54, the digits of its own 54 swapped (72-71 and 72-62
    // in the standard numbering, where no digit swap leads from one to the other).
    let path = root().join("tests/edge-cases/red-numbering-digit-swap.sgn");
    let text = std::fs::read_to_string(path).unwrap();
    let game = salta::notation::parse_str(&text).remove(0).unwrap();
    assert!(game.numbered_from_red());
    let readings = analyse(&game, &search_options(), 1)
        .breaks
        .remove(0)
        .suggestions;
    let said: Vec<_> = readings
        .iter()
        .map(|s| (s.slip(), s.text(), s.was()))
        .collect();
    assert_eq!(said[0], (SlipKind::DigitSwap, "44-54", "44-45"));
    // A record that carries the tag is not read as one that left it out.
    assert!(
        said.iter()
            .all(|(kind, ..)| *kind != SlipKind::RedNumbering)
    );
}

#[test]
fn the_margin_tag_decides_between_readings_that_replay_alike() {
    // 59. 92-102 was written 92-101, itself a legal move; the record breaks 20 plies later at
    // 69. 92-101. Reading that move as 92-102 also replays to the end with the result 0-1, but
    // the game is then won by 24, not by the 14 of the Margin tag.
    let path = root().join("tests/edge-cases/slip-margin-decides.sgn");
    let text = std::fs::read_to_string(path).unwrap();
    let game = salta::notation::parse_str(&text).remove(0).unwrap();
    let readings = |margins| -> Vec<Suggestion> {
        let opts = search_options().margins(margins);
        analyse(&game, &opts, 1).breaks.remove(0).suggestions
    };
    let said = |s: &Suggestion| {
        (
            s.ply(),
            s.text().to_string(),
            s.margin().and_then(|m| m.agrees()),
        )
    };
    let counted = readings(MarginPolicy::WhenTagged);
    assert_eq!(said(&counted[0]), (117, "92-102".to_string(), Some(true)));
    assert_eq!(said(&counted[1]), (137, "92-102".to_string(), Some(false)));
    assert!(!counted[1].equally_good(&counted[0]));
    // Margins not counted: nothing tells the two apart, and the nearer the break comes first.
    let uncounted = readings(MarginPolicy::Never);
    assert_eq!(said(&uncounted[0]), (137, "92-102".to_string(), None));
    assert_eq!(said(&uncounted[1]), (117, "92-102".to_string(), None));
    assert!(uncounted[1].equally_good(&uncounted[0]));
    // The tie is then the uncounted margin's, not the record's: the help says so.
    assert_eq!(
        uncounted[1].just_as_well(true),
        "or, just as well, 59. 92-102 for 92-101 (one digit misread, 20 plies earlier): the game \
         then replays to its end and its result 0-1 holds (these two cannot be told apart \
         without counting the margin: --margins tagged may settle it)"
    );
    // In a repaired record the rival is placed by its move number, not counted from the break.
    assert_eq!(
        uncounted[1].just_as_well(false),
        "or, just as well, 59. 92-102 for 92-101 (one digit misread): these two cannot be told \
         apart without counting the margin: --margins tagged may settle it"
    );
    let check = salta(&[
        "check",
        "--margins",
        "never",
        "tests/edge-cases/slip-margin-decides.sgn",
    ])
    .expect_code(1)
    .text();
    // The help is wrapped to the terminal's width: read it as one line.
    let check = check.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(check.contains("without counting the margin"), "{check}");
    assert!(!check.contains("the record cannot tell"), "{check}");
    // `salta repair` counts the margins by default, and takes the reading the tag agrees with;
    // with `--margins never` it takes the nearer one and its comment names the other.
    let repaired = |extra: &[&str]| {
        let mut args = vec!["repair"];
        args.extend_from_slice(extra);
        args.push("tests/edge-cases/slip-margin-decides.sgn");
        salta(&args).expect_code(1).text()
    };
    let counted = repaired(&[]);
    assert!(counted.contains("59. 92-102"), "{counted}");
    assert!(!counted.contains("just as well"), "{counted}");
    let uncounted = repaired(&["--margins", "never"]);
    assert!(
        uncounted.contains("these two cannot be told apart without counting the margin"),
        "{uncounted}"
    );
}

/// A tie: the last move of this record, 22-32, reads as 21-32 and as 22-33 just as well, and
/// the record has no Margin tag that might decide.
const TIED: &str = "tests/edge-cases/odds-blockade-at-group-end.sgn";

#[test]
fn a_repair_with_an_equally_good_rival_says_the_source_must_decide() {
    let run = salta(&["repair", TIED]).expect_code(1);
    let text = run.text();
    assert!(
        text.contains("the record cannot tell these two apart"),
        "{text}"
    );
    insta::assert_snapshot!(format!(
        "--- repaired record (stdout)\n{text}--- report (stderr)\n{}",
        run.stderr
    ));
}

/// The JSON report of `salta repair --format json` on `path`, a record it repairs: its first
/// line.
fn repair_json(path: &str) -> serde_json::Value {
    let run = salta(&["repair", "--format", "json", path]).expect_code(1);
    serde_json::from_str(run.stderr.lines().next().unwrap()).unwrap()
}

#[test]
fn the_json_report_lists_the_equally_good_readings() {
    let run = salta(&["repair", "--format", "json", TIED]).expect_code(1);
    let lines: Vec<serde_json::Value> = run
        .stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let edits = lines[0]["edits"].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(
        (&edits[0]["ply"], &edits[0]["text"], &edits[0]["was"]),
        (&3.into(), &"21-32".into(), &"22-32".into())
    );
    assert_eq!(
        edits[0]["equally_good"],
        serde_json::json!([{"ply": 3, "edit": "replace", "text": "22-33", "why": "one digit misread",
            "replays": 3, "line": 6, "column": 18, "was": "22-32"}])
    );
    // A repair without a rival has no such field (the report of a single reading is as before).
    let report = repair_json("tests/edge-cases/slip-digit-swap.sgn");
    assert!(report["edits"][0].get("equally_good").is_none(), "{report}");
    assert!(report["edits"][0].get("text").is_some(), "{report}");
}

/// Each game of the synthetic corpus with the `n`th digit `a` of a written move (from move 10
/// on) read as `b`, where that makes the record break at that very move: up to `count` such
/// records, with the main line each had before.
fn misread_digit(a: char, b: char, count: usize) -> Vec<(salta::notation::Game, Vec<String>)> {
    let games = test_records(root()).unwrap();
    let mut out = Vec::new();
    for game in &games[1..] {
        let meant: Vec<String> = salta::replay::replay(game, &quick_options())
            .moves()
            .iter()
            .map(|m| {
                salta::notation::Notation::Numeric
                    .move_text(*m, &salta::board::Geometry::SALTA)
                    .to_string()
            })
            .collect();
        for (i, node) in game.mainline.moves.iter().enumerate().skip(20) {
            let span = node.span.range();
            let Some(k) = game.text[span.clone()].rfind(a) else {
                continue;
            };
            let mut text = game.text.clone();
            text.replace_range(span.start + k..span.start + k + 1, &b.to_string());
            let Some(Ok(slipped)) = salta::notation::parse_str(&text).into_iter().next() else {
                continue;
            };
            let first = salta::replay::replay(&slipped, &quick_options())
                .findings()
                .iter()
                .find(|f| salta::repair::breaks_main_line(f))
                .and_then(|f| f.ply);
            if first == Some(i as u32 + 1) {
                out.push((slipped, meant.clone()));
                break;
            }
        }
        if out.len() >= count {
            break;
        }
    }
    out
}

#[test]
fn digits_misread_outside_the_old_glyph_pairs_are_mended() {
    // Rank and glyph misreadings of print and OCR beyond 1/7, 3/8, 5/6: each record breaks at
    // the misread move, and `salta repair`'s mending gives back the main line.
    for (a, b) in [
        ('6', '9'),
        ('5', '3'),
        ('3', '5'),
        ('4', '1'),
        ('2', '4'),
        ('6', '8'),
    ] {
        let records = misread_digit(a, b, 3);
        assert!(!records.is_empty(), "no record with {a} read as {b}");
        for (slipped, meant) in records {
            let Mended::Repaired(fixed, _) = mend(&slipped, &search_options(), DEFAULT_MAX_EDITS)
            else {
                panic!("{a} read as {b}: not mended\n{}", slipped.text);
            };
            let moves: Vec<String> = salta::replay::replay(&fixed, &quick_options())
                .moves()
                .iter()
                .map(|m| {
                    salta::notation::Notation::Numeric
                        .move_text(*m, &salta::board::Geometry::SALTA)
                        .to_string()
                })
                .collect();
            assert_eq!(moves, meant, "{a} read as {b}:\n{}", slipped.text);
        }
    }
}

#[test]
fn two_slips_side_by_side_or_after_a_dropped_ply_are_mended() {
    // The cases: two misread moves one after the other (check offered nothing), and a
    // ply left out or written twice before a later slip (repair said no repair of at most 3
    // edits existed, though check offered both).
    let games = test_records(root()).unwrap();
    let cases = [
        (SlipKind::GlyphDigit, SlipKind::NeighbourDigit, true),
        (SlipKind::DigitSwap, SlipKind::GlyphDigit, true),
        (SlipKind::Dropped, SlipKind::GlyphDigit, false),
        (SlipKind::Doubled, SlipKind::DigitSwap, false),
        (SlipKind::Dropped, SlipKind::NeighbourDigit, true),
    ];
    let mut table = String::new();
    let (mut made, mut restored) = (0, 0);
    for (first, second, adjacent) in cases {
        let runs = two_slip_run(&games, 0..2, &[(first, second)], adjacent);
        let ok = runs.iter().filter(|(_, _, m)| m.restored).count();
        table.push_str(&format!(
            "{} then {} ({}): {ok}/{}\n",
            first.name(),
            second.name(),
            if adjacent {
                "side by side"
            } else {
                "far apart"
            },
            runs.len()
        ));
        made += runs.len();
        restored += ok;
    }
    println!("{table}");
    assert!(made >= 100, "{table}");
    assert!(restored * 100 >= made * 85, "{table}");
}

#[test]
fn a_record_that_needs_more_edits_than_allowed_is_told_how_many() {
    let games = test_records(root()).unwrap();
    let slipped = (0..20)
        .find_map(|seed| {
            inject_two(
                &games[3],
                SlipKind::GlyphDigit,
                SlipKind::DigitSwap,
                false,
                seed,
            )
            .filter(|s| judge_mend(s).restored)
        })
        .expect("a record with two far slips");
    let path = std::env::temp_dir().join(format!("salta-two-slips-{}.sgn", std::process::id()));
    std::fs::write(&path, &slipped.game.text).unwrap();
    let path_text = path.to_string_lossy().to_string();
    let one = salta(&["repair", "--max-edits", "1", &path_text]).expect_code(1);
    let both = salta(&["repair", &path_text]).expect_code(1);
    std::fs::remove_file(&path).unwrap();
    assert!(
        one.stderr
            .contains("2 breaks have readings that make the main line replay, more than the 1 edits allowed: --max-edits 2 would mend them"),
        "{}",
        one.stderr
    );
    // The record is written as read; by default both slips are mended.
    assert_eq!(one.text(), slipped.game.text.trim_end().to_string() + "\n");
    assert_eq!(both.stderr.matches(", ply ").count(), 2, "{}", both.stderr);
}

/// The record `salta repair` wrote replays as the corpus's game it was made from (the second of
/// the test records).
fn assert_mended_to_the_corpus_game(run: &Run) {
    let mended = salta::notation::parse_str(&run.text()).remove(0).unwrap();
    let source = &test_records(root()).unwrap()[1];
    let replayed = salta::replay::replay(&mended, &quick_options());
    let meant = salta::replay::replay(source, &quick_options());
    assert_eq!(replayed.moves(), meant.moves());
}

/// An OCR'd page: moves that are no moves at all (a separator left out, a letter for a digit, two
/// moves run together, one split by a space, a digit left out, a degree sign for the dash) are
/// each mended by reading their characters, and the game is the corpus's again.
#[test]
fn garbled_moves_are_read_by_their_characters() {
    let run = salta(&["repair", "tests/edge-cases/slip-ocr-garbled.sgn"]).expect_code(1);
    assert_mended_to_the_corpus_game(&run);
    insta::assert_snapshot!(run.stderr);
}

/// A moderately worn page read by tesseract, where most moves are misread and the next break is
/// never more than a move or two away: the search that reads one break at a time is lost, and
/// the whole line read at once (legal moves against the characters of each token, the cheapest
/// chains kept) restores the game typeset (decision 159). Each move read past its characters
/// says so. The result glued to the last move, a digit after it (`41-320-1 0°`), is told as the
/// result (decision 212; it was "the rest of it no move").
#[test]
fn a_page_where_most_moves_are_misread_is_read_whole() {
    let run = salta(&["repair", "tests/ocr/medium-page.sgn"]).expect_code(1);
    assert_mended_to("tests/ocr/medium-page-source.sgn", &run);
    for said in [
        "1 files, 1 games: 1 repaired",
        salta::repair::READ_WHOLE,
        "(two moves run together",
        "41-320-1 -> 41-32 (a character added: the result 0-1 glued to it)",
    ] {
        assert!(run.stderr.contains(said), "{said}: {}", run.stderr);
    }
    // The Repairs tag counts the page's edits by kind rather than naming each (decision 215).
    let text = run.text();
    let tag = text.lines().find(|l| l.starts_with("[Repairs ")).unwrap();
    assert!(tag.len() < 600, "{tag}");
    assert!(tag.contains("17 edits from ply 11 to ply 267"), "{tag}");
    assert!(
        tag.contains("each marked by its {was …} comment: "),
        "{tag}"
    );
    assert!(tag.contains("two moves run together ("), "{tag}");
}

/// A lightly worn page the search mends with doubt (a move read past its characters, `55-dd`,
/// and a wrong reading of a legal-looking move before it that replays as far): the page read
/// whole reads cheaper, and that reading is the game typeset (decision 160).
#[test]
fn a_doubtful_mending_gives_way_to_the_page_read_whole() {
    let run = salta(&["repair", "tests/ocr/light-page.sgn"]).expect_code(1);
    assert_mended_to("tests/ocr/light-page-source.sgn", &run);
    let said = format!("game 1: {}", salta::repair::READ_WHOLE);
    assert!(run.stderr.contains(&said), "{}", run.stderr);
    assert!(
        run.text().contains("[Repairs \"read whole at once"),
        "{}",
        run.text()
    );
}

/// Panics unless the record `run` wrote replays as the game of the record at `source`.
fn assert_mended_to(source: &str, run: &Run) {
    let read = |text: &str| salta::notation::parse_str(text).remove(0).unwrap();
    let mended = read(&run.text());
    let source = read(&std::fs::read_to_string(root().join(source)).unwrap());
    let replayed = salta::replay::replay(&mended, &quick_options());
    let meant = salta::replay::replay(&source, &quick_options());
    assert_eq!(replayed.moves(), meant.moves());
}

/// A lightly worn page read by tesseract: move numbers misread (`2:`, `3-`, `$.`, `IL.`, `12;`),
/// glued to a move or between two, a 5 read as `$`, a `;` for the dash, two moves run together
/// with a dot between, `I` for `11`, the result misread: the reader reads the numbers and keeps
/// the moves it cannot read, and repair mends them; the game is the corpus's again (decisions
/// 79-81).
#[test]
fn move_numbers_and_signs_misread_by_ocr_are_read_and_mended() {
    let run = salta(&["repair", "tests/edge-cases/slip-ocr-numbers.sgn"]).expect_code(1);
    assert_mended_to_the_corpus_game(&run);
    insta::assert_snapshot!(run.stderr);
}

/// Move numbers the reader cannot tell from the moves beside them, read by the number due at
/// each ply: glued to a garbled move (`02-9213.` for `102-92 13.`), misread standing alone where
/// Green's move comes (`55+`), and a move the reader left out read from its characters (`$141`,
/// taken for a NAG) rather than any legal move put in (decision 98); a move with its dash lost
/// and the next number glued (`3342.92.`, decision 190) and one whose 5 was read as `$`
/// (`$343`), no NAG (decision 187), read as garbled moves; the result glued to the last move
/// (`22-33I-O`).
#[test]
fn move_numbers_beside_garbled_moves_and_moves_the_reader_left_out_are_read() {
    let run = salta(&["repair", "tests/edge-cases/slip-ocr-glued-numbers.sgn"]).expect_code(1);
    assert_mended_to_the_corpus_game(&run);
    for said in [
        "02-9213. -> 102-92",
        "55+ is the move number 55.",
        "$343 -> 53-43 (characters misread: $ for 5, - left out)",
        "inserted 51-41 (a ply left out: read from $141",
        "3342 -> 33-42 (separator misread: - left out)",
        "22-33I-O -> 22-33 (a character added: the result 1-0 glued to it)",
    ] {
        assert!(run.stderr.contains(said), "{said}: {}", run.stderr);
    }
    assert!(!run.stderr.contains("just as well"), "{}", run.stderr);
    insta::assert_snapshot!(run.stderr);
}

/// A worn page: a digit lost where two moves fit (`8-75`), told apart by the break after it
/// (`4152`) rather than left "just as well"; a speck after a move (`-`); a move no reading of
/// whose characters mends (`1st`), read by the moves after it, also where the move before it is
/// misread too (`83°104 9kt`, read with the look-ahead); a move read from its glyphs
/// (`TIBI`); `Z` for 7; the result with its dash lost (`1O`, read by the reader: decision 181).
/// The game is the corpus's again (decision 99).
#[test]
fn ties_are_settled_by_later_breaks_and_unreadable_moves_read_by_the_moves_after_them() {
    let run = salta(&["repair", "tests/edge-cases/ocr-worn-page.sgn"]).expect_code(1);
    assert_mended_to_the_corpus_game(&run);
    for said in [
        "8-75 -> 84-75 (a character left out: 4 left out)\n",
        ": removed - (- is no move)",
        "1st -> 15-24 (characters misread: unreadable, read by the moves after it)",
        "TIBI -> 71-81",
        "9kt -> 94-83 (characters misread: unreadable, read by the moves after it)",
        "85-Z5 -> 85-75",
        "written as read: 1 speck left out, 1 result misread",
    ] {
        assert!(run.stderr.contains(said), "{said}: {}", run.stderr);
    }
    assert!(!run.stderr.contains("just as well"), "{}", run.stderr);
    insta::assert_snapshot!(run.stderr);
    // The speck is taken out in the JSON report too, not "replaced" by nothing.
    let report = repair_json("tests/edge-cases/ocr-worn-page.sgn");
    let speck = report["edits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["was"] == "-")
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(
        (&speck["edit"], &speck["text"]),
        (&"remove".into(), &"".into())
    );
}

/// A move read as a word of glyphs, its dash lost too (`ZBI` for `71-81`): the lost dash is no
/// further misread character (OCR loses it by the spacing, whatever it makes of the digits), so
/// the word is read by its characters, not guessed by the moves after it (decision 156); so is
/// `SF-92` for `81-92`, S for 8 a glyph tesseract reads on period pages (decision 157).
#[test]
fn a_move_read_as_a_word_with_its_dash_lost_is_read_by_its_characters() {
    let run = salta(&["repair", "tests/edge-cases/slip-ocr-word.sgn"]).expect_code(1);
    assert_mended_to_the_corpus_game(&run);
    let said =
        "ZBI -> 71-81 (characters misread: Z for 7, 1 left out, - left out, B for 8, I for 1)";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let said = "SF-92 -> 81-92 (characters misread: S for 8, F for 1)";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    assert!(!run.stderr.contains("unreadable"), "{}", run.stderr);
}

/// A page whose every dash tesseract read as a degree sign (`33°43`): a break at each of the
/// game's 165 steps, more than the hundred a search read before; each is read, and the game is
/// the corpus's again (decision 158).
#[test]
fn a_record_with_more_than_a_hundred_breaks_is_read_whole() {
    let source = std::fs::read_to_string(root().join("tests/edge-cases/slip-ocr-word.sgn"))
        .unwrap()
        .replace("ZBI", "71-81")
        .replace("SF-92", "81-92");
    let bytes = source.as_bytes();
    let degree: String = source
        .char_indices()
        .map(|(i, c)| {
            let digit = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_digit);
            match c == '-' && i > 0 && digit(i - 1) && digit(i + 1) {
                true => '°',
                false => c,
            }
        })
        .collect();
    assert!(degree.matches('°').count() > 150);
    let dir = std::env::temp_dir().join(format!("salta-repair-degree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("degree.sgn");
    std::fs::write(&path, &degree).unwrap();
    let run = salta(&["repair", path.to_str().unwrap()]).expect_code(1);
    std::fs::remove_dir_all(&dir).ok();
    assert!(run.stderr.contains("1 repaired"), "{}", run.stderr);
    assert_mended_to_the_corpus_game(&run);
}

/// A legal slip caught eight plies later, with a separator misread mended between (`82°73`):
/// the search still looks back past the mended separator, and the Margin tag puts the slip
/// where it was made, not at the break (decision 176).
#[test]
fn a_mended_separator_does_not_hide_an_earlier_legal_slip() {
    let run = salta(&[
        "repair",
        "tests/edge-cases/slip-legal-slip-past-a-separator.sgn",
    ])
    .expect_code(1);
    for said in [
        "ply 221: 82°73 -> 82-73 (separator misread: ° for -)",
        "ply 216: 34-44 -> 54-44 (one digit misread as a similar glyph)",
    ] {
        assert!(run.stderr.contains(said), "{said}: {}", run.stderr);
    }
    let text = run.text();
    assert!(text.contains("108. 75-85 54-44"), "{text}");
    assert!(text.contains("34-44"), "{text}");
}

/// `salta repair` on the medium OCR page of `tests/ocr` with `was` (which it holds) written
/// `now`, a copy in a folder of its own.
fn repair_medium_page_with(was: &str, now: &str) -> Run {
    repair_page_with("tests/ocr/medium-page.sgn", &[(was, now)])
}

/// `salta repair` on the record `page` with each `was` (which it holds) written `now`, a copy
/// in a folder of its own.
fn repair_page_with(page: &str, edits: &[(&str, &str)]) -> Run {
    let mut page = std::fs::read_to_string(root().join(page)).unwrap();
    for (was, now) in edits {
        assert!(page.contains(was), "{was}");
        page = page.replace(was, now);
    }
    static COPIES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let copy = COPIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("salta-repair-page-{}-{copy}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("page.sgn");
    std::fs::write(&path, page).unwrap();
    let run = salta(&["repair", path.to_str().unwrap()]).expect_code(1);
    std::fs::remove_dir_all(&dir).ok();
    run
}

/// A worn page whose last moves read two ways that end the game alike, with the recorded result
/// (`75-34`: 75-84 or 75-64, one digit misread either way): the page read whole counts the margin
/// each way ends by, and the Margin tag decides (decision 177).
#[test]
fn a_page_read_whole_is_decided_at_its_end_by_the_margin_tag() {
    let run = salta(&["repair", "tests/ocr/medium-page-2.sgn"]).expect_code(1);
    assert_mended_to("tests/ocr/medium-page-2-source.sgn", &run);
    assert!(run.stderr.contains("75-34 -> 75-84"), "{}", run.stderr);
    // A move with its 5 read as `$` is read, not taken for a NAG (decision 187).
    assert!(run.stderr.contains("$4575 -> 54:75"), "{}", run.stderr);
    let page = "tests/ocr/medium-page-2.sgn";
    let run = repair_page_with(page, &[("[Margin \"10\"]", "[Margin \"14\"]")]);
    assert!(run.stderr.contains("75-34 -> 75-64"), "{}", run.stderr);
}

/// A worn page (dev seed 7200, game 12) read whole, one of whose unreadable tokens (`Hdd`) many
/// moves could stand for, the rest of the page replaying alike: the page is mended all the same,
/// its other breaks read by their characters, and every rival of that token is named (decision
/// 180). A record whose only break is such a token stays as read (tests/as_read.rs: `97-96`).
#[test]
fn a_token_many_moves_could_stand_for_is_read_with_its_rivals_named() {
    let run = salta(&["repair", "tests/ocr/medium-page-3.sgn"]).expect_code(1);
    assert!(run.stderr.contains("1 repaired"), "{}", run.stderr);
    let named = run
        .stderr
        .lines()
        .filter_map(|l| l.split_once("; or read as any of "))
        .map(|(_, rivals)| {
            rivals
                .split_once(" (")
                .map_or(0, |(r, _)| r.matches(", ").count() + 1)
        })
        .max();
    assert!(named.is_some_and(|n| n > 3), "{}", run.stderr);
    // A move read by its characters with another reading nearly as likely, the rest of the page
    // replaying alike with it, has that reading named too (decision 191).
    let said = "0373 -> 63-73 (characters misread: 0 for 6, - left out; or read as 83-73 (0 for 8, \
                - left out) (the moves after it replay alike: see the source))";
    assert!(run.stderr.contains(said), "{}", run.stderr);
}

/// A worn page (dev seed 7100, game 11) whose moves 16 and 19 read as well two ways: `81` (with
/// `OL` before it) as 91-81 or 92-81, and then `IOVOT` as 101-91 or 101-92. Both replay to the
/// end with the recorded result, the same squares taken by other pieces; the page read whole
/// kept the second, which ends by another margin than the tag's 7. The lines one square away
/// are tried, and the source's, whose margin is the tag's, stands (decision 182). Since the
/// measured confusions of decision 231 the search reads the page alone, a break at a time, and
/// reads it as its source too.
#[test]
fn a_page_read_whole_that_ends_off_the_margin_tag_is_settled_by_the_tag() {
    let run = salta(&["repair", "tests/ocr/medium-page-4.sgn"]).expect_code(1);
    assert_mended_to("tests/ocr/medium-page-4-source.sgn", &run);
    // `OL 81`: the two words read as one move (the table's O for 9, L for 1, decision 231).
    assert!(run.stderr.contains(": OL 81 -> 91-81 ("), "{}", run.stderr);
    assert!(run.stderr.contains("IOVOT -> 101-91"), "{}", run.stderr);
}

/// `check` reads a page the search loses among garbled moves whole at once, as `repair` does:
/// every break has a reading, the one `repair` makes there (the page of the margin tag above;
/// the page above, on which the search was lost after 28 of 108 breaks, it now reads alone with
/// the measured confusions of decision 231).
#[test]
fn check_reads_a_page_that_breaks_often_whole_as_repair_does() {
    let page = Path::new("tests/ocr/medium-page-2.sgn");
    let lines = crate::cli::check_json(page).expect_code(1).json_lines();
    let errors: Vec<&serde_json::Value> = lines[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert!(errors.len() > 50, "{}", lines[0]);
    let unread: Vec<_> = errors
        .iter()
        .filter(|d| d.get("suggestions").is_none())
        .collect();
    assert!(unread.is_empty(), "{unread:?}");
    // Each reading says, for a program too, that it rests on the page's other readings.
    assert!(
        errors
            .iter()
            .all(|d| d["suggestions"][0]["read_whole"] == true),
        "{}",
        lines[0]
    );
    // Each reading says it rests on the others.
    let said = salta(&["check", "tests/ocr/medium-page-2.sgn"])
        .expect_code(1)
        .text();
    assert!(
        said.contains("? read with the rest of the page, the game then replays to its end"),
        "{said}"
    );
    // And so does each edit of `repair`'s JSON report.
    let report = repair_json("tests/ocr/medium-page-2.sgn");
    let edits = report["edits"].as_array().unwrap();
    assert!(edits.iter().all(|e| e["read_whole"] == true), "{report}");
    let repaired = salta(&["repair", "tests/ocr/medium-page-2.sgn"]).expect_code(1);
    for (read, written) in [("75-84", "75-34 -> 75-84"), ("54:75", "$4575 -> 54:75")] {
        assert!(repaired.stderr.contains(written), "{}", repaired.stderr);
        assert!(
            errors.iter().any(|d| d["suggestions"][0]["text"] == read),
            "{read}"
        );
    }
}

/// A worn page (dev seed 10200, game 15) whose last word is two moves run together with the
/// result glued after a comma (`72-82.33-43,1-0`): the result is taken off the second move as
/// off a last word of one move, and the game's last move, Red's compensating move, which leaves
/// the result and the margin as they are, is not passed over as no move (decision 194).
#[test]
fn the_result_glued_to_the_last_of_moves_run_together_is_taken_off() {
    let run = salta(&["repair", "tests/ocr/medium-page-6.sgn"]).expect_code(1);
    assert_mended_to("tests/ocr/medium-page-6-source.sgn", &run);
    let said = "72-82.33-43,1-0 -> 72-82 33-43 (two moves run together)";
    assert!(run.stderr.contains(said), "{}", run.stderr);
}

/// The editor asks a broken page for its findings and then for its repair: the page read whole
/// for the findings (`annotate_with`) is kept and serves the repair (`mend_with`), which comes
/// out as `mend` makes it afresh.
#[test]
fn a_page_read_whole_for_its_findings_serves_its_repair() {
    let text = std::fs::read_to_string(root().join("tests/ocr/medium-page.sgn")).unwrap();
    let page = salta::notation::parse_str(&text).remove(0).unwrap();
    let opts = salta::replay::ReplayOptions::default();
    let readings = salta::repair::MainReadings::default();
    let findings = salta::replay::replay(&page, &opts).findings().to_vec();
    let found = salta::repair::annotate_with(&page, &opts, findings, &readings);
    assert!(readings.was_read_whole());
    assert!(found.iter().any(|d| !d.readings.is_empty()));
    let max = salta::repair::DEFAULT_MAX_EDITS;
    let shared = salta::repair::mend_with(&page, &opts, max, &readings);
    let afresh = salta::repair::mend(&page, &opts, max);
    let written = |mended: salta::repair::Mended| match mended {
        salta::repair::Mended::Repaired(game, _) => {
            salta::notation::write_game(&game, &Default::default())
        }
        other => panic!("not repaired: {other:?}"),
    };
    assert_eq!(written(shared), written(afresh));
}

/// The decoder's cost of its own reading of a page beside the page read as its source
/// (`repair::reading_costs`, the measure of where the search rather than the model loses a
/// page): on a page it restores, the two are the same line and cost the same; a source whose
/// main line does not replay gives no figure.
#[test]
fn the_decoders_reading_and_the_sources_are_costed_alike() {
    let read = |path: &str| {
        let text = std::fs::read_to_string(root().join(path)).unwrap();
        salta::notation::parse_str(&text).remove(0).unwrap()
    };
    let page = read("tests/ocr/medium-page.sgn");
    let source = read("tests/ocr/medium-page-source.sgn");
    let opts = salta::replay::ReplayOptions::default();
    let costs = salta::repair::reading_costs(&page, &source, &opts).unwrap();
    assert!(costs.chosen > 0.0);
    assert_eq!(costs.chosen, costs.known);
    let broken = salta::notation::parse_str("1. 33-43 33-43 *")
        .remove(0)
        .unwrap();
    assert_eq!(salta::repair::reading_costs(&page, &broken, &opts), None);
}

/// The same page with the result glued to its last move and specks after it (`- _ : ;`, seed
/// 11200 game 15), or with the result's dash lost after a misread move (`38-4310`, seed 11200
/// game 45): the result is taken off the last token that holds a digit, not only off the last
/// token, and the recorded result without its dash as well (decision 199). Both pages' last move
/// was read as any other before.
#[test]
fn the_result_glued_to_the_last_move_is_taken_off_before_specks_and_without_its_dash() {
    let page = std::fs::read_to_string(root().join("tests/ocr/medium-page-6.sgn")).unwrap();
    let dir = crate::special::TempDir::new("glued-result");
    for (tail, said) in [
        (
            "72-82.33-43,1-0 - _ : ;",
            "72-82.33-43,1-0 -> 72-82 33-43 (two moves run together)",
        ),
        (
            "72-82 38-4310 - _",
            "38-4310 -> 33-43 (one digit misread as a similar glyph: 8 for 3, the result 1-0 glued to it)",
        ),
        // A speck after the result glued to the last of two moves (decision 204): the last
        // move was dropped.
        (
            "72-82.33-431-0°",
            "72-82.33-431-0° -> 72-82 33-43 (two moves run together)",
        ),
        // Digits after it that hold no move (`00 0`, seed 11800 medium game 40): the result
        // was never taken off, and the last move was dropped (decision 212).
        (
            "72-82.33-431-0 00 0",
            "72-82.33-431-0 -> 72-82 33-43 (two moves run together)",
        ),
    ] {
        let varied = page.replace("72-82.33-43,1-0 : ae", tail);
        assert_ne!(varied, page);
        let path = dir.write("page.sgn", &varied);
        let run = salta(&["repair", path.to_str().unwrap()]).expect_code(1);
        assert_mended_to("tests/ocr/medium-page-6-source.sgn", &run);
        assert!(run.stderr.contains(said), "{}", run.stderr);
    }
}

/// A move number misread and glued before two moves run together (`124,°72-82-33-43` for
/// `122. 72-82 33-43`, seed 11800 medium game 3): the number comes off though its digits are
/// not the number due, as a number's own sign follows it, and the two moves are read; before,
/// the word was read as one move and the last move dropped (decision 213).
#[test]
fn a_misread_number_glued_before_two_moves_run_together_comes_off() {
    let run = repair_page_with(
        "tests/ocr/medium-page-6.sgn",
        &[("122: 72-82.33-43,1-0 : ae", "124,°72-82-33-43 1-0")],
    );
    assert_mended_to("tests/ocr/medium-page-6-source.sgn", &run);
    let said = "124,°72-82-33-43 -> 72-82 33-43 (two moves run together)";
    assert!(run.stderr.contains(said), "{}", run.stderr);
}

/// A worn page (dev seed 7500, game 27) with five moves and two move numbers run together in one
/// word (`82-73-3,:34-43:-95-84-4.-43-53°81-71`): read as the five moves, not as one move read
/// past its characters, which cost as much as one unreadable move however long the word, and
/// then the rest of the page a few plies off its numbers (decision 188).
#[test]
fn a_word_many_moves_long_is_not_read_past_for_what_one_move_costs() {
    let run = salta(&["repair", "tests/ocr/medium-page-5.sgn"]).expect_code(1);
    assert_mended_to("tests/ocr/medium-page-5-source.sgn", &run);
    let said = "-> 82-73 34-43 95-84 43-53 81-71 (two moves run together: 5 moves)";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    // A move number with its dot misread where the reader takes it for a garbled move (`21°`)
    // is read as the number, not passed over as a speck (decision 189).
    assert!(
        run.stderr.contains("removed 21° (the move number 21.)"),
        "{}",
        run.stderr
    );
}

/// A transcription with one slip whose last move lost its dash and gained a dot: standing alone
/// (`4132. 0-1`) it is a garbled move, read as one (decision 190); with the result glued on,
/// its dash lost too (`4132.01`), it is taken for a move number, the game going on after the
/// move before, and once the slip is mended the search reads the move from that text (decision
/// 175), also on a page with no other slip (decision 183). Digits that read as no move that
/// ends the game as recorded (`7777.`) stay unread.
#[test]
fn digits_after_the_last_move_are_read_as_a_move_only_where_they_read_as_one() {
    let source = "tests/ocr/light-page-source.sgn";
    let slip = (" 99. 75-85 ", " 99. 57-85 ");
    let slip_mended = "57-85 -> 75-85 (digits swapped)";
    let run = repair_page_with(source, &[slip, (" 41-32 0-1", " 4132. 0-1")]);
    assert!(run.stderr.contains(slip_mended), "{}", run.stderr);
    let garbled = "4132. -> 41-32 (characters misread: - left out, . added)";
    assert!(run.stderr.contains(garbled), "{}", run.stderr);
    assert_mended_to(source, &run);
    let run = repair_page_with(source, &[slip, (" 41-32 0-1", " 4132.01")]);
    let said = "inserted 41-32 (a ply left out: read from 4132., which the reader did not take for";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    assert!(run.stderr.contains("1 result misread"), "{}", run.stderr);
    assert_mended_to(source, &run);
    // On a page with no other slip too, the game going on there (decision 183); the number a
    // move was read from is not said to be left out.
    let run = repair_page_with(source, &[(" 41-32 0-1", " 4132.01")]);
    assert!(run.stderr.contains(said), "{}", run.stderr);
    assert!(!run.stderr.contains("without a move"), "{}", run.stderr);
    assert_mended_to(source, &run);
    let run = repair_page_with(source, &[slip, (" 41-32 0-1", " 7777. 0-1")]);
    assert!(run.stderr.contains(slip_mended), "{}", run.stderr);
    assert!(!run.stderr.contains("inserted"), "{}", run.stderr);
}

/// A worn page whose last move lost its dash and gained a dot, the result then misread
/// (`4132. PO`): the move is a garbled move, not a move number (decision 190), and is read as
/// the last move rather than the game ended a ply short.
#[test]
fn a_last_move_with_a_dot_for_its_dash_is_read_as_the_last_move() {
    let run = repair_medium_page_with("41-320-1 0° as wee", "4132. PO");
    let said = "4132. -> 41-32 (characters misread: - left out, . added)";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    assert_mended_to("tests/ocr/medium-page-source.sgn", &run);
}

/// A page read whole with a dash OCR made of a speck standing alone (`3. -- 33-43`): read as
/// a pass, a move no one may play there; the decoder passes over it as no move (decision 173).
#[test]
fn a_dash_standing_alone_on_a_page_read_whole_is_passed_over() {
    let run = repair_medium_page_with(" 3. 33-43 ", " 3. -- 33-43 ");
    assert!(
        run.stderr.contains("removed -- (no move, passed over)"),
        "{}",
        run.stderr
    );
    assert_mended_to("tests/ocr/medium-page-source.sgn", &run);
}

/// A ply lost beside two garbled moves (a blank where Green's move stood, `BA-75`, `33-4`): a
/// reading that puts the ply in is followed through the next two breaks, so the three are found
/// together; which move was lost the record cannot tell, and the report says so.
#[test]
fn a_lost_ply_beside_two_garbled_moves_is_read_with_both() {
    let run = salta(&["repair", "tests/edge-cases/slip-ocr-lost-ply.sgn"]).expect_code(1);
    assert!(run.stderr.contains("1 repaired"), "{}", run.stderr);
    assert!(run.stderr.contains("BA-75 -> 84-75"), "{}", run.stderr);
    assert!(run.stderr.contains("33-4 -> 33-43"), "{}", run.stderr);
    insta::assert_snapshot!(run.stderr);
}

/// A slip in a move written with its designator and its from-square (`Su1 31-14`) is read as
/// the legal move written the same way, and `check` offers the reading too.
#[test]
fn a_slip_after_a_designator_is_read_as_a_move_written_alike() {
    let record = "tests/edge-cases/designator-digit-swap.sgn";
    let run = salta(&["repair", record]).expect_code(1);
    assert!(
        run.text()
            .contains("Su1-41\n{was Su1 31-14: digits swapped}"),
        "{}",
        run.text()
    );
    let read = salta::notation::parse_str(&run.text()).remove(0).unwrap();
    let replayed = salta::replay::replay(&read, &quick_options());
    assert!(replayed.findings().is_empty(), "{:?}", replayed.findings());
    insta::assert_snapshot!(run.stderr);
    let check = salta(&["check", record]).expect_code(1).text();
    let offered = "did you mean Su1 31-41 (digits swapped)? the game then replays to its end";
    assert!(check.contains(offered), "{check}");
}

/// A slip inside a variation of the main line: `salta repair` mends it inside the variation,
/// marks it there, and names it in the Repairs tag; the main line stays as written (decision 85).
#[test]
fn a_slip_inside_a_variation_is_mended_there() {
    let run = salta(&["repair", "tests/edge-cases/variation-slip.sgn"]).expect_code(1);
    let text = run.text();
    assert!(text.contains("(2. 32-42 82-72"), "{text}");
    assert!(
        text.contains("{was 72-82: from and to reversed} 3."),
        "{text}"
    );
    assert!(text.contains("in a variation, ply 4"), "{text}");
    let read = salta::notation::parse_str(&text).remove(0).unwrap();
    let replayed = salta::replay::replay(&read, &quick_options());
    assert!(replayed.findings().is_empty(), "{:?}", replayed.findings());
    insta::assert_snapshot!(run.stderr);
}

/// A record numbered from Red's side keeps its numbers and its tag when mended, so that its
/// `{was …}` comments quote numbers of the same record; one that left the tag out gets the tag
/// the report says it adds, and its moves stay as written (decision 77).
#[test]
fn a_record_numbered_from_reds_side_is_mended_in_its_own_numbers() {
    let tagged = salta(&["repair", "tests/edge-cases/red-numbering-digit-swap.sgn"])
        .expect_code(1)
        .text();
    assert!(tagged.contains("[Numbering \"red\"]"), "{tagged}");
    // The reading that replays alike, nearly as likely, named beside it (decision 191).
    let said = "44-54\n{was 44-45: digits swapped; or read as 44-55 (one digit misread) (the";
    assert!(tagged.contains(said), "{tagged}");
    let untagged = salta(&["repair", "tests/edge-cases/slip-red-numbering.sgn"]).expect_code(1);
    let text = untagged.text();
    assert!(untagged.stderr.contains("added [Numbering \"red\"]"));
    assert!(text.contains("[Numbering \"red\"]"), "{text}");
    assert!(text.contains("1. 83-74"), "{text}");
    let read = salta::notation::parse_str(&text).remove(0).unwrap();
    let replayed = salta::replay::replay(&read, &quick_options());
    assert!(replayed.findings().is_empty(), "{:?}", replayed.findings());
}

/// Prose in the place of a move number (`Fortsetzung` for `11.`) stops the reader; `salta
/// repair` reads the game again with it left out, says so, and mends the moves after it. (`IL.`
/// is read as the number 11 where the count expects it: decision 80; `QX.`, glyphs alone before
/// a move, as the number expected there: decision 66.)
#[test]
fn text_the_reader_cannot_read_is_left_out_and_the_game_mended() {
    let source = std::fs::read_to_string(root().join("tests/edge-cases/slip-ocr-garbled.sgn"))
        .unwrap()
        .replace("11.\n13-2", "Fortsetzung\n13-2");
    let dir = std::env::temp_dir().join(format!("salta-repair-stray-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("stray.sgn");
    std::fs::write(&path, &source).unwrap();
    let run = salta(&["repair", path.to_str().unwrap()]).expect_code(1);
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        run.stderr
            .contains("left out Fortsetzung (the reader could not read it)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("1 repaired"), "{}", run.stderr);
    let mended = salta::notation::parse_str(&run.text()).remove(0).unwrap();
    let meant = salta::replay::replay(&test_records(root()).unwrap()[1], &quick_options());
    let replayed = salta::replay::replay(&mended, &quick_options());
    assert_eq!(replayed.moves(), meant.moves());
    assert!(
        mended
            .tag("Repairs")
            .unwrap()
            .starts_with("line 13: Fortsetzung left out")
    );
}

/// A move number with no move after it (`7777.`) may mark a move the source left out: a sound
/// game keeps it as written; a game written anew, mended, says it is gone, as it says of
/// specks (nothing left out unannounced).
#[test]
fn a_move_number_without_a_move_is_kept_or_its_leaving_out_reported() {
    let dir = std::env::temp_dir().join(format!("salta-repair-dangling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run_on = |moves: &str| {
        let path = dir.join("dangling.sgn");
        let page = format!("[Result \"*\"]\n\n1. 32-42 81-71 2. 42-52 91-81 3. {moves} 7777. *\n");
        std::fs::write(&path, page).unwrap();
        salta(&["repair", path.to_str().unwrap()])
    };
    let sound = run_on("33-43").expect_code(0);
    assert!(
        sound.stderr.contains("1 needed nothing"),
        "{}",
        sound.stderr
    );
    assert!(
        sound.text().contains("3. 33-43 7777. *"),
        "{}",
        sound.text()
    );
    let mended = run_on("33-34").expect_code(1);
    std::fs::remove_dir_all(&dir).ok();
    for said in [
        "ply 5: 33-34 -> 33-43 (digits swapped)",
        "repaired: written as read: 1 move number without a move left out",
    ] {
        assert!(mended.stderr.contains(said), "{said}: {}", mended.stderr);
    }
}

/// A sound game whose page OCR read with move numbers glued to the moves (`83-732.`) or misread
/// (`3,`) and a speck (`“`) is written as read, clean: the historian gets `83-73 2.`, not the
/// page's slips, and the report says what was read past.
#[test]
fn a_sound_game_read_past_ocr_slips_is_written_clean() {
    let dir = std::env::temp_dir().join(format!("salta-repair-clean-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("glued.sgn");
    let page = "[Event \"x\"]\n[Result \"*\"]\n\n1. 33-43 83-732. 32-42 82-72 3, 43-54 “ 72-62 *\n";
    std::fs::write(&path, page).unwrap();
    let run = salta(&["repair", path.to_str().unwrap()]).expect_code(1);
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        run.stderr.contains(
            "repaired: written as read: 2 move numbers misread or glued, 1 speck left out"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.text()
            .contains("1. 33-43 83-73 2. 32-42 82-72 3. 43-54 72-62 *"),
        "{}",
        run.text()
    );
}

/// Text that is no game (after the last game) is written through as it stands and said once,
/// not counted as a game that could not be repaired.
#[test]
fn text_that_is_no_game_is_kept_and_not_counted() {
    let dir = crate::special::TempDir::new("repair-stray-text");
    let text = "[Result \"*\"]\n\n1. 33-43 *\n\nHello world 6\n";
    let input = dir.write("stray.sgn", text);
    let out = dir.path("out.sgn");
    let (input, out_arg) = (input.to_str().unwrap(), out.to_str().unwrap());
    let run = salta(&["repair", input, "-o", out_arg]).expect_code(0);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    assert!(
        run.stderr
            .contains(":5:1: text that is no game, kept as written: "),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("1 games: 0 repaired, 0 not repairable, 1 needed nothing")
    );
    let json = salta(&["repair", "--format", "json", input]).expect_code(0);
    assert!(
        json.stderr.contains("\"status\":\"kept\""),
        "{}",
        json.stderr
    );
    // `check` warns of it, and counts it apart from the games.
    let check = salta(&["check", input]).expect_code(0);
    let said = check.text();
    assert!(said.contains("skipped text"), "{said}");
    let summary = "1 files, 1 games: 1 valid, 0 with warnings, 0 invalid; 1 text that is no game";
    assert!(said.contains(summary), "{said}");
    let json = salta(&["check", "--format", "json", input]).expect_code(0);
    let lines: Vec<serde_json::Value> = json
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{}", json.text());
    assert_eq!(lines[0].get("no_game"), None);
    assert_eq!(
        (&lines[1]["no_game"], &lines[1]["game"]),
        (&true.into(), &1.into())
    );
    assert_eq!(
        (
            &lines[2]["summary"]["games"],
            &lines[2]["summary"]["no_games"]
        ),
        (&1.into(), &1.into())
    );
}

/// A garbled first move read as a move leaves the record's notation as it was: the legal moves
/// at a later break are listed in the record's numbers, not in algebraic squares (the move
/// written in its place points at `yagi`, which starts with a letter).
#[test]
fn a_garbled_first_move_read_leaves_the_records_notation() {
    let dir = crate::special::TempDir::new("repair-garbled-first");
    let input = dir.write(
        "first.sgn",
        "[Event \"t\"]\n\n1. yagi 84-75 2. 35-44 81-71 3. 22-33 95-81 *\n",
    );
    let run = salta(&["check", input.to_str().unwrap()]).expect_code(1);
    let said = run.text();
    assert!(
        said.contains("legal moves here: 71-61, 71-81, 75-64"),
        "{said}"
    );
    assert!(!said.contains("a7-b6"), "{said}");
}

/// A long record of nothing but garbled moves (900 tokens of letters, digits and signs):
/// `check`, which reads a record that breaks often whole (decision 202), and `repair` report it
/// and end, no panic; by default `repair` leaves it as read, a game made up of noise.
#[test]
fn a_long_record_of_garbled_moves_is_checked_and_left_as_read() {
    let signs: Vec<char> = "SIGOBQ0123456789-°".chars().collect();
    let mut rng = crate::common::Rng::new(1);
    let mut word = || -> String { (0..5).map(|_| signs[rng.below(signs.len())]).collect() };
    let moves: Vec<String> = (1..450)
        .map(|n| format!("{n}. {} {}", word(), word()))
        .collect();
    let dir = crate::special::TempDir::new("check-garbled-record");
    let input = dir.write(
        "garbled.sgn",
        &format!("[Event \"g\"]\n\n{} *\n", moves.join(" ")),
    );
    let input = input.to_str().unwrap();
    let lines = crate::cli::check_json(Path::new(input))
        .expect_code(1)
        .json_lines();
    assert_eq!(lines[1]["summary"]["invalid"], 1, "{}", lines[1]);
    assert!(!lines[0]["diagnostics"].as_array().unwrap().is_empty());
    let repaired = salta(&["repair", input]).expect_code(1);
    assert!(
        repaired.stderr.contains("1 not repairable"),
        "{}",
        repaired.stderr
    );
    // The edits it advises are more than the default and can be asked for (decision 211).
    let (_, advice) = repaired
        .stderr
        .split_once("--max-edits ")
        .unwrap_or_else(|| panic!("{}", repaired.stderr));
    let needed: String = advice.chars().take_while(char::is_ascii_digit).collect();
    assert!(needed.parse::<usize>().unwrap() > 200, "{needed}");
    let asked = salta(&["repair", "--max-edits", &needed, input]).expect_code(1);
    assert!(asked.stderr.contains("1 repaired"), "{}", asked.stderr);
}

/// A move number glued before a move with a dash (`12-31-41.` for `12. 31-41`) where the number
/// is a square: the reader takes `12-31` for the move and `41.` for a number glued after it.
/// The whole word is read, the number taken off its head (seed 11700 medium game 27, `103-84-95.`
/// for `103. 84-95`, was read as 103-94): the move is `31-41` (decision 206).
#[test]
fn a_move_number_read_as_the_first_square_is_read_with_the_word_it_begins() {
    let page = "tests/ocr/medium-page-6-source.sgn";
    for (was, now, said) in [
        ("12. 31-41", "12-31-41.", "12-31 -> 31-41"),
        ("23. 21-31", "23-21-31.", "23-21 -> 21-31"),
    ] {
        let run = repair_page_with(page, &[(was, now)]);
        assert_mended_to(page, &run);
        assert!(run.stderr.contains(said), "{}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("read with the text after it, {now}"))
        );
    }
}

/// A worn page (seed 11600, medium game 39) whose cheapest endings read whole are one wrong
/// ending (`92-82`, `101-92` for `93-82`, `92-102`), each off the Margin tag, the source behind
/// them: it is restored (it was not before decisions 205 and 208, more endings counted and the
/// cheapest one off the tag settled; either now reaches it).
#[test]
fn a_page_whose_cheapest_endings_are_off_the_margin_tag_is_restored() {
    let run = salta(&["repair", "tests/ocr/medium-page-7.sgn"]).expect_code(1);
    assert_mended_to("tests/ocr/medium-page-7-source.sgn", &run);
}

/// A game `repair` writes anew writes each move with its own separator where the record has the
/// other kind's (`83:73` for a step, `52-71` for a jump: OCR's `:` for `-` is a warning, no
/// break), and says how many (decision 214); the game written then checks without warnings.
#[test]
fn a_game_written_anew_writes_each_move_with_its_own_separator() {
    let record = std::fs::read_to_string(root().join("tests/edge-cases/slip-digit-swap.sgn"))
        .unwrap()
        .replace("1. 33-42 83-73", "1. 33-42 83:73")
        .replace("10. 52:71", "10. 52-71");
    let dir = crate::special::TempDir::new("separators");
    let path = dir.write("slip.sgn", &record);
    let run = salta(&["repair", path.to_str().unwrap()]).expect_code(1);
    let said = "2 moves written with their own separator (`-` a step, `:` a jump)";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let written = run.text();
    assert!(written.contains("1. 33-42 83-73") && written.contains("10. 52:71"));
    let mended = dir.write("mended.sgn", &written);
    let checked = salta(&["check", mended.to_str().unwrap()]).expect_code(0);
    let said = format!("{}{}", checked.text(), checked.stderr);
    assert!(said.contains("1 valid, 0 with warnings"), "{said}");
}

/// A garbled record read whole (three breaks, a `$` the reader leaves out) whose readings end
/// with one placed after its last written move: `check` looked that move up one past the last
/// and panicked (found by mutating OCR pages). It now reports the record, as `repair` mends it.
#[test]
fn check_reports_a_record_whose_reading_stands_after_its_last_move() {
    let dir = crate::special::TempDir::new("check-after-last-move");
    let input = dir.write("page.sgn", "3241-105, 94-84 42-32\n\n$ 74-84\n\n54-44");
    let input = input.to_str().unwrap();
    let lines = crate::cli::check_json(Path::new(input))
        .expect_code(1)
        .json_lines();
    assert_eq!(lines[1]["summary"]["invalid"], 1, "{}", lines[1]);
    let repaired = salta(&["repair", input]).expect_code(1);
    assert!(
        repaired.stderr.contains("1 repaired"),
        "{}",
        repaired.stderr
    );
}

/// A break read while a later one is still unmended (`33—43`, then `32-4 2`) cannot yet be seen
/// to replay to the end, yet once the later break is mended its close rival replays the line
/// alike: `repair` names it rather than state its reading without doubt (decision 231), and
/// `check`, which lists every reading anyway, does not say it twice.
#[test]
fn a_close_rival_is_named_once_the_later_breaks_are_mended() {
    let record = "tests/edge-cases/garbled-after-break.sgn";
    let run = salta(&["repair", record]).expect_code(1);
    assert!(
        run.stderr.contains(
            "33—43 -> 35-45 (characters misread: 3 for 5, — for -, 3 for 5; or read as 35-44"
        ),
        "{}",
        run.stderr
    );
    let check = salta(&["check", record]).expect_code(1).text();
    assert!(!check.contains("or read as 35-44"), "{check}");
    assert!(check.contains("or 35-44 ("), "{check}");
}
