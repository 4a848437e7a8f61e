//! Feeds arbitrary bytes through the whole pipeline an editor's archive goes through: every game
//! that reads is replayed under its own rules, leniently, and under other rule sets; the structured
//! document is built and the final position adjudicated with a small margin budget. Nothing may
//! panic, whatever the moves, tags or Setup lines say.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salta::export::adjudication::adjudicate;
use salta::export::structured::GameDoc;
use salta::notation::Reader;
use salta::replay::{MarginPolicy, ReplayOptions, replay};
use salta::rules::margin::Budget;
use salta::rules::Rules;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let budget = Budget {
        max_states: 2_000,
        max_time: Some(Duration::from_millis(20)),
    };
    let rule_sets = [None, Rules::parse("winther").ok(), Rules::parse("pyramid").ok()];
    for game in Reader::new(data).flatten() {
        for rules in rule_sets {
            for lenient in [false, true] {
                let replayed = replay(
                    &game,
                    &ReplayOptions {
                        lenient,
                        rules,
                        margins: MarginPolicy::Always,
                        budget,
                        ..ReplayOptions::default()
                    },
                );
                let _ = GameDoc::new(&game, &replayed);
                let _ = adjudicate(&replayed, replayed.plies(), &budget);
            }
        }
    }
});
