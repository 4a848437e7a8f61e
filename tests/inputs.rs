//! Whatever a user writes — Setup lines, Rules tags, whole records — gets an answer, never a panic.

use proptest::prelude::*;
use salta::notation::parse_str;
use salta::replay::{MarginPolicy, ReplayOptions, replay};
use salta::rules::margin::Budget;
use salta::rules::{MoveLimit, Odds, Position, Rules, Variant};
use std::str::FromStr;

/// Text made of the characters records are made of, so that near-misses are common.
fn record_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        r#"(\[(Rules|Setup|Result|Margin|MoveLimit|Odds|Numbering) "[a-z0-9GR/,;:= -]{0,40}"\]\n){0,3}([0-9]{1,3}[-:x][0-9]{1,3} |[0-9]{1,2}\.{1,3} |Salta! |-- |Su[0-9]|#1[0-9]|\(|\)|\{c\}|1-0 |\* ){0,40}"#,
    )
    .expect("a valid pattern")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_setup_line_is_read_or_refused(line in "[GRgr]?/[0-9,a-j/-]{0,80}") {
        for variant in [Variant::Salta, Variant::Winther, Variant::Pyramid] {
            if let Ok(pos) = Position::from_setup(&line, Rules::of(variant)) {
                let _ = pos.legal_moves();
                let _ = pos.to_setup();
            }
        }
    }

    #[test]
    fn any_rules_text_is_read_or_refused(text in "[a-z;=, -]{0,40}") {
        let _ = Rules::from_str(&text);
        let _ = MoveLimit::parse(&text);
        let _ = Odds::parse(&text);
    }

    #[test]
    fn any_record_replays_without_panic(text in record_like()) {
        let opts = ReplayOptions::default()
            .margins(MarginPolicy::Always)
            .budget(Budget::default().max_states(2_000).max_time(None));
        for game in parse_str(&text).into_iter().flatten() {
            let replayed = replay(&game, &opts);
            let _ = replayed.position_at(replayed.plies());
        }
    }
}
