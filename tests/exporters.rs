//! Every exporter on every edge-case record, through the library: canonical SGN in the three
//! notations, the structured game as YAML and JSON, and the adjudication of the final position —
//! snapshotted, and the structured game read back into the same record.

use salta::export::adjudication::adjudicate;
use salta::export::structured::{GameDoc, designate, settle};
use salta::notation::{Game, Notation, Played, WriteOptions, parse_str, write_game};
use salta::replay::{MarginPolicy, Replay, ReplayOptions, replay};
use salta::rules::margin::Budget;
use std::path::Path;

/// The games of every `.sgn` record in a project folder, with the record's name (file stem, and
/// the game's index when a file holds more than one).
fn games(folder: &str) -> Vec<(String, Game)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        let items = parse_str(&text);
        let many = items.len() > 1;
        for (i, item) in items.into_iter().enumerate() {
            // Records broken beyond reading (rejected by the reader) have no exports.
            let Ok(game) = item else { continue };
            let name = if many {
                format!("{stem}-{}", i + 1)
            } else {
                stem.clone()
            };
            out.push((name, game));
        }
    }
    assert!(!out.is_empty(), "no games in {folder}");
    out
}

fn replayed(game: &Game) -> Replay {
    replay(
        game,
        // States only, no clock: a busy machine must not turn an exact count into bounds.
        &ReplayOptions::default()
            .margins(MarginPolicy::Always)
            .budget(Budget::default().max_time(None)),
    )
}

fn write(game: &Game, notation: Notation) -> String {
    write_game(game, &WriteOptions::default().notation(notation))
}

/// The record in piece notation: every move's designator filled in from the replay.
fn piece_notation(game: &Game, replay: &Replay) -> String {
    let mut game = game.clone();
    designate(&mut game, replay);
    write(&game, Notation::Piece)
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => "snapshots/exporters",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(name.to_string(), text);
    });
}

#[test]
fn canonical_sgn_in_every_notation() {
    for (name, mut game) in games("corpus/edge-cases") {
        let replay = replayed(&game);
        // As `salta convert` writes it: every move as played.
        settle(&mut game, &replay);
        let text = format!(
            "--- numeric\n{}\n--- algebraic\n{}\n--- piece\n{}",
            write(&game, Notation::Numeric),
            write(&game, Notation::Algebraic),
            piece_notation(&game, &replay),
        );
        snapshot(&format!("{name}.sgn"), &text);
    }
}

#[test]
fn structured_game_as_yaml_and_json() {
    for (name, game) in games("corpus/edge-cases") {
        let doc = GameDoc::new(&game, &replayed(&game));
        let yaml = serde_yaml::to_string(&doc).unwrap();
        let json = serde_json::to_string_pretty(&doc).unwrap();
        snapshot(&format!("{name}.yaml"), &yaml);
        snapshot(&format!("{name}.json"), &json);
        // Both read back into the same document.
        assert_eq!(
            serde_yaml::from_str::<GameDoc>(&yaml).unwrap(),
            doc,
            "{name}"
        );
        assert_eq!(
            serde_json::from_str::<GameDoc>(&json).unwrap(),
            doc,
            "{name}"
        );
    }
}

#[test]
fn adjudication_of_the_final_position_as_json() {
    for (name, game) in games("corpus/edge-cases") {
        let replay = replayed(&game);
        // A budget in states only, small enough for the early positions to end in bounds: the
        // same verdict on every machine, at any speed.
        let budget = Budget::default().max_states(5_000).max_time(None);
        let verdict = adjudicate(&replay, replay.plies(), &budget);
        snapshot(
            &format!("{name}.adjudication"),
            &serde_json::to_string_pretty(&verdict).unwrap(),
        );
    }
}

/// doc → record → SGN gives the SGN of the original record, in every notation. (The document
/// holds every move as played, so `Su3-43` comes back as `33-43` and `44-65` for a jump as `44:65`:
/// compare with the record's moves settled.)
fn assert_round_trip(name: &str, game: &Game) {
    let replay = replayed(game);
    let mut located = game.clone();
    settle(&mut located, &replay);
    let doc = GameDoc::new(game, &replay);
    let back = doc
        .to_game()
        .unwrap_or_else(|e| panic!("{name}: the document does not read back: {e}"));
    let back_replay = replayed(&back);
    for notation in [Notation::Numeric, Notation::Algebraic] {
        assert_eq!(
            write(&back, notation),
            write(&located, notation),
            "{name}: {notation:?}"
        );
    }
    assert_eq!(
        piece_notation(&back, &back_replay),
        piece_notation(&located, &replay),
        "{name}: piece notation"
    );
    // The record read back replays the same way, and gives the same document again.
    assert_eq!(back_replay.moves(), replay.moves(), "{name}");
    assert_eq!(back_replay.outcome(), replay.outcome(), "{name}");
    assert_eq!(GameDoc::new(&back, &back_replay), doc, "{name}");
}

#[test]
fn structured_game_reads_back_into_the_same_record() {
    for (name, game) in games("corpus/edge-cases") {
        assert_round_trip(&name, &game);
    }
}

#[test]
fn structured_game_of_a_rejected_record_reads_back_too() {
    for (name, game) in games("tests/edge-cases") {
        // A move the reader could not read is in the document as written, and stops the reading
        // back there, by name.
        let garbled = game
            .mainline
            .moves
            .iter()
            .find(|m| m.played == Played::Garbled);
        if let Some(garbled) = garbled {
            let doc = GameDoc::new(&game, &replayed(&game));
            let error = doc.to_game().expect_err(&name).to_string();
            let written = &game.text[garbled.span.range()];
            assert!(
                error.contains(&format!("{written:?} is not a move")),
                "{name}: {error}"
            );
            continue;
        }
        assert_round_trip(&name, &game);
    }
}
