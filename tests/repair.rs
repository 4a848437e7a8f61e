//! Transcription repair: slips injected into valid records are read back as meant.

use salta::repair::SlipKind;
use salta::repair::inject::{inject, judge, test_records, trial_run};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_top_suggestion_restores_the_main_line_for_each_kind() {
    let games = test_records(root()).unwrap();
    let trials = trial_run(&games, 0..3);
    let mut later = (0, 0);
    let mut table = String::new();
    for kind in SlipKind::ALL {
        let own: Vec<_> = trials
            .iter()
            .filter(|(k, _, v)| *k == kind && !v.caught_later)
            .collect();
        let right = own.iter().filter(|(_, _, v)| v.rank == Some(0)).count();
        table.push_str(&format!("{}: {right}/{}\n", kind.name(), own.len()));
        assert!(
            own.len() >= 10,
            "{}: too few slips made\n{table}",
            kind.name()
        );
        assert!(right * 100 >= own.len() * 95, "{table}");
        for (_, _, v) in trials
            .iter()
            .filter(|(k, _, v)| *k == kind && v.caught_later)
        {
            later.0 += usize::from(v.rank == Some(0));
            later.1 += 1;
        }
    }
    assert!(later.1 >= 10, "too few legal slips: {later:?}");
    assert!(
        later.0 * 100 >= later.1 * 80,
        "legal slips caught later: {later:?}\n{table}"
    );
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
