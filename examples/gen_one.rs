use salta::generate::generate_game;
use salta::rules::Rules;
fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let g = generate_game(seed, Rules::default());
    println!(
        "{} plies {:?}\n{}",
        g.moves.len(),
        g.outcome,
        g.final_position
    );
    println!(
        "free g {} r {}",
        g.final_position.free_count(salta::board::Color::Green),
        g.final_position.free_count(salta::board::Color::Red)
    );
}
