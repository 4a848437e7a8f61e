//! Transcription repair: slips injected into valid records are read back as meant.

use salta::repair::inject::{inject, judge, search_options, test_records, trial_run};
use salta::repair::{SlipKind, Suggestion, analyse};
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
            .filter(|(k, _, v)| *k == kind && !v.caught_later)
            .collect();
        let right = own.iter().filter(|(_, _, v)| v.rank == Some(0)).count();
        table.push_str(&format!("{}: {right}/{}\n", kind.name(), own.len()));
        // Only the historical game is algebraic: its file and rank misreads are few here (and
        // every one is asserted in the next test).
        let enough = if kind == SlipKind::AlgebraicMisread {
            2
        } else {
            10
        };
        assert!(own.len() >= enough, "{}: too few\n{table}", kind.name());
        assert!(right * 100 >= own.len() * 95, "{table}");
    }
    // Legal slips caught later. A reading second only to one that fares exactly as well (the
    // same edit, to the end with the same result and margin) is a tie the record cannot break:
    // both are offered. The 80 % target is met counting those ties; the right reading first is
    // asserted apart, at the level it reaches (the rest are such ties, see the README).
    let later: Vec<_> = trials.iter().filter(|(_, _, v)| v.caught_later).collect();
    let first = later.iter().filter(|(_, _, v)| v.rank == Some(0)).count();
    let ties = later.iter().filter(|(_, _, v)| v.lost_tie()).count();
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
            let verdict = judge(&slipped);
            assert_eq!(verdict.rank, Some(0), "{} seed {seed}", kind.name());
        }
    }
    assert!(made >= 40, "{made} slips made");
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
    let said = |s: &Suggestion| (s.ply, s.text.clone(), s.margin.and_then(|m| m.agrees()));
    let counted = readings(MarginPolicy::WhenTagged);
    assert_eq!(said(&counted[0]), (117, "92-102".to_string(), Some(true)));
    assert_eq!(said(&counted[1]), (137, "92-102".to_string(), Some(false)));
    assert!(!counted[1].equally_good(&counted[0]));
    // Margins not counted: nothing tells the two apart, and the nearer the break comes first.
    let uncounted = readings(MarginPolicy::Never);
    assert_eq!(said(&uncounted[0]), (137, "92-102".to_string(), None));
    assert_eq!(said(&uncounted[1]), (117, "92-102".to_string(), None));
    assert!(uncounted[1].equally_good(&uncounted[0]));
}
