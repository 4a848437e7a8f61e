//! Feeds arbitrary bytes through the whole pipeline an editor's archive goes through: every game
//! that reads is replayed under its own rules, leniently, and under other rule sets (read on their
//! board, as `check --rules` reads); the structured document is built and the final position
//! adjudicated. Nothing may panic, whatever the moves, tags or Setup lines say. Each game is also
//! replayed as it is read (`Replaying`, as `check` does), which must find what the tree's replay
//! finds.
//!
//! Margins are counted once per game (its own rules, strictly, and the adjudication) with a small
//! budget: a few states, and a few milliseconds for the upper-bound plan that follows when they run
//! out (that plan has its own allowance of states).
#![no_main]

use std::str::FromStr;
use libfuzzer_sys::fuzz_target;
use salta::export::adjudication::adjudicate;
use salta::export::structured::GameDoc;
use salta::notation::Reader;
use salta::replay::{MarginPolicy, ReplayOptions, Replaying, replay};
use salta::rules::Rules;
use salta::rules::margin::Budget;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let budget = Budget::default()
        .max_states(200)
        .max_time(Some(Duration::from_millis(4)));
    let rule_sets = [
        None,
        Rules::from_str("winther").ok(),
        Rules::from_str("pyramid").ok(),
    ];
    for rules in rule_sets {
        let board = rules.map(|r| r.board());
        let games: Vec<_> = Reader::new(data).on_board(board).collect();
        for lenient in [false, true] {
            let counted = rules.is_none() && !lenient;
            let opts = ReplayOptions::default()
                .lenient(lenient)
                .rules(rules)
                .margins(if counted {
                    MarginPolicy::Always
                } else {
                    MarginPolicy::Never
                })
                .budget(budget);
            // Margins are left out of the comparison: their counts stop at a time budget.
            let uncounted = opts.clone().margins(MarginPolicy::Never);
            let mut replaying = Replaying::new(&uncounted);
            let mut streaming = Reader::new(data).on_board(board);
            for item in &games {
                let streamed = streaming.read_game(&mut replaying);
                assert_eq!(streamed.as_ref().map(Result::is_ok), Some(item.is_ok()));
                let Ok(game) = item else { continue };
                let replayed = replay(game, &opts);
                let _ = GameDoc::new(game, &replayed);
                if counted {
                    let _ = adjudicate(&replayed, replayed.plies(), &budget);
                }
                if let Some(Ok(streamed)) = streamed {
                    let whole = if counted {
                        replay(game, &uncounted)
                    } else {
                        replayed
                    };
                    assert_eq!(streamed.replay.findings(), whole.findings());
                    assert_eq!(streamed.replay.outcome(), whole.outcome());
                    assert_eq!(streamed.replay.moves(), whole.moves());
                }
            }
        }
    }
});
