//! Random positions for the property and cross-check tests: every rule set, random playouts from the
//! start, and random Setup-like placements. A small seeded generator keeps every run reproducible.

#![allow(dead_code)]

pub mod reference;

use salta::board::Color;
use salta::rules::{Piece, Position, Rules, Variant};
use std::str::FromStr;

/// xorshift64*: small, fast and deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every combination of the switches that matter to move generation, for all three variants.
pub fn all_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for variant in ["salta", "winther", "pyramid"] {
        for jumps in ["forward", "any"] {
            for blockade in ["on", "off"] {
                for precedence in ["blockade-first", "jump-first"] {
                    for compulsory in ["on", "off"] {
                        let text = format!(
                            "{variant}; jumps={jumps}; blockade={blockade}; precedence={precedence}; compulsory={compulsory}"
                        );
                        out.push(Rules::from_str(&text).expect("switch combination parses"));
                    }
                }
            }
        }
    }
    out
}

/// Pieces per side in a variant.
pub fn pieces_per_side(rules: &Rules) -> u8 {
    if rules.variant == Variant::Pyramid {
        10
    } else {
        15
    }
}

/// A random Setup-like position: a random number of each side's pieces (random identities) on
/// random distinct squares, either side to move.
pub fn random_placement(rules: Rules, rng: &mut Rng) -> Position {
    let mut pos = Position::empty(rules);
    let g = pos.geometry();
    // Half the time the pieces crowd into a random window of the board, where blocked pieces,
    // blockades and shut-in jumps are common.
    let (low, high) = if rng.below(2) == 0 {
        ((0, 0), (g.size(), g.size()))
    } else {
        let side = 3 + rng.below(3) as u8;
        let file = rng.below((g.size() - side + 1) as usize) as u8;
        let rank = rng.below((g.size() - side + 1) as usize) as u8;
        ((file, rank), (file + side, rank + side))
    };
    let mut free: Vec<_> = g
        .squares()
        .filter(|&sq| {
            (low.0..high.0).contains(&g.file(sq)) && (low.1..high.1).contains(&g.rank(sq))
        })
        .collect();
    let per_side = pieces_per_side(&rules) as usize;
    // Sometimes sparse (blockades and stuck sides), sometimes crowded.
    let max = 1 + rng.below(per_side);
    for color in Color::ALL {
        let count = rng.below(max + 1);
        let mut ids: Vec<u8> = (0..per_side as u8).collect();
        for _ in 0..count.min(free.len()) {
            let id = ids.swap_remove(rng.below(ids.len()));
            let sq = free.swap_remove(rng.below(free.len()));
            let piece = Piece::new(color, id).expect("ids below the piece count");
            pos.put(piece, sq).expect("a free square");
        }
    }
    pos.set_side_to_move(if rng.below(2) == 0 {
        Color::Green
    } else {
        Color::Red
    });
    pos
}

/// The positions of a random playout of up to `plies` legal moves from `start` (start included),
/// stopping early when the side to move has no move.
pub fn random_playout(start: Position, plies: usize, rng: &mut Rng) -> Vec<Position> {
    let mut out = vec![start];
    let mut pos = start;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves.as_slice()[rng.below(moves.len())]);
        out.push(pos);
    }
    out
}

/// A varied sample of positions under `rules`: long playouts from the start and short playouts
/// from random placements.
pub fn sample_positions(
    rules: Rules,
    seed: u64,
    playouts: usize,
    placements: usize,
) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..playouts {
        let plies = 40 + rng.below(260);
        out.extend(random_playout(Position::start(rules), plies, &mut rng));
    }
    for _ in 0..placements {
        let start = random_placement(rules, &mut rng);
        let plies = rng.below(12);
        out.extend(random_playout(start, plies, &mut rng));
    }
    out
}
