//! Feeds arbitrary bytes through the whole pipeline an editor's archive goes through: every game
//! that reads is replayed under its own rules, leniently, and under other rule sets (read on their
//! board, as `check --rules` reads); the structured document is built and the final position
//! adjudicated. Nothing may panic, whatever the moves, tags or Setup lines say. Each game is also
//! replayed as it is read (`Replaying`, as `check` does), which must find what the tree's replay
//! finds.
//!
//! Margins are counted for the first game of one input in eight (by its length), by the replay of
//! its own rules, strictly, or by the adjudication, with a small budget: a few states, and a
//! millisecond for the upper-bound plan that follows when they run out (that plan has its own
//! allowance of states). A count costs several milliseconds whatever its budget (its tables are
//! built each time); counted for every game, an input of several games took tenths of a second
//! (18 executions a second), and the replay of every game is what this target is for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salta::export::adjudication::adjudicate;
use salta::export::structured::GameDoc;
use salta::notation::Reader;
use salta::replay::{MarginPolicy, ReplayOptions, Replaying, replay};
use salta::rules::Rules;
use salta::rules::margin::Budget;
use std::str::FromStr;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let budget = Budget::default()
        .max_states(30)
        .max_time(Some(Duration::from_millis(1)));
    let rule_sets = [
        None,
        Rules::from_str("winther").ok(),
        Rules::from_str("pyramid").ok(),
    ];
    // Which count this input makes: by the replay (0), the adjudication (8), or none.
    let count = data.len() % 16;
    for rules in rule_sets {
        let board = rules.map(|r| r.board());
        let games: Vec<_> = Reader::new(data).on_board(board).collect();
        for lenient in [false, true] {
            let strict_own = rules.is_none() && !lenient;
            let uncounted = ReplayOptions::default()
                .lenient(lenient)
                .rules(rules)
                .margins(MarginPolicy::Never)
                .budget(budget);
            // Margins are left out of the comparison: their counts stop at a time budget. One
            // reading a rule set is compared, strict or lenient as the input's length falls
            // (reading is a third of the work).
            let mut replaying = Replaying::new(&uncounted);
            let mut streaming =
                (lenient == (data.len() % 2 == 1)).then(|| Reader::new(data).on_board(board));
            let mut first = true;
            for item in &games {
                let streamed = streaming.as_mut().map(|s| s.read_game(&mut replaying));
                if let Some(streamed) = &streamed {
                    assert_eq!(streamed.as_ref().map(Result::is_ok), Some(item.is_ok()));
                }
                let Ok(game) = item else { continue };
                let counted = strict_own && std::mem::take(&mut first);
                let (by_replay, by_adjudication) = (counted && count == 0, counted && count == 8);
                let opts = uncounted.clone().margins(if by_replay {
                    MarginPolicy::Always
                } else {
                    MarginPolicy::Never
                });
                let replayed = replay(game, &opts);
                let _ = GameDoc::new(game, &replayed);
                if by_adjudication {
                    let _ = adjudicate(&replayed, replayed.plies(), &budget);
                }
                if let Some(Some(Ok(streamed))) = streamed {
                    let whole = if by_replay {
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
