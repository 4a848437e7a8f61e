//! Finished games from simple self-play, as realistic inputs for the margin search.

use crate::board::Color;
use crate::rules::{Position, Rules};

/// Plays one game from the start under `rules`, each side choosing a legal move that lowers its own
/// [`Position::free_count`] the most (ties broken by a xorshift generator seeded with `seed`), until
/// a side completes. Returns the position at that moment and the side that did not complete, or
/// `None` if no side completed within `max_plies` (greedy play can shuffle forever in a tangle).
pub fn greedy_game_end(rules: Rules, seed: u64, max_plies: u32) -> Option<(Position, Color)> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next_random = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut pos = Position::start(rules);
    for _ in 0..max_plies {
        let mover = pos.side_to_move();
        let moves = pos.legal_moves();
        let mut best = Vec::new();
        let mut best_count = u32::MAX;
        for &m in moves.iter() {
            let count = pos.after_unchecked(m).free_count(mover);
            if count < best_count {
                best_count = count;
                best.clear();
            }
            if count == best_count {
                best.push(m);
            }
        }
        if best.is_empty() {
            return None;
        }
        let choice = best[(next_random() % best.len() as u64) as usize];
        pos.play_unchecked(choice);
        for color in Color::ALL {
            if pos.is_complete(color) {
                return Some((pos, color.other()));
            }
        }
    }
    None
}
