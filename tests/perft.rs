use salta::rules::{Position, Rules, perft};

#[test]
fn perft_from_the_start_matches_rules_md() {
    let pos = Position::start(Rules::default());
    let expected = [9u64, 81, 891, 9801, 124515];
    for (depth, &nodes) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, depth as u32 + 1), nodes, "depth {}", depth + 1);
    }
}
