//! Transcription repair: slips injected into valid records are read back as meant.

use salta::notation::{Game, parse_str};
use salta::repair::SlipKind;
use salta::repair::inject::{inject, judge};
use std::path::Path;

/// The historical game first, then the synthetic corpus's Salta games.
fn records() -> Vec<Game> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["corpus/historical/krone-grotewold-1901.sgn", "corpus/synthetic/salta.sgn"]
        .iter()
        .flat_map(|p| {
            let text = std::fs::read_to_string(root.join(p)).unwrap();
            parse_str(&text).into_iter().map(|g| g.unwrap()).collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn accuracy_per_kind() {
    let games = records();
    let mut report = String::new();
    for kind in SlipKind::ALL {
        let (mut own, mut own_ok, mut later, mut later_ok) = (0, 0, 0, 0);
        for (g, game) in games.iter().enumerate() {
            for seed in 0..4 {
                let Some(slipped) = inject(game, kind, seed * 1000 + g as u64) else {
                    continue;
                };
                let v = judge(&slipped);
                if v.caught_later {
                    later += 1;
                    later_ok += usize::from(v.rank == Some(0));
                } else {
                    own += 1;
                    own_ok += usize::from(v.rank == Some(0));
                }
            }
        }
        report.push_str(&format!(
            "{}: own {own_ok}/{own}, later {later_ok}/{later}\n",
            kind.name()
        ));
    }
    println!("{report}");
    panic!("{report}");
}
