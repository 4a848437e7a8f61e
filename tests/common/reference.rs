//! The reference move generator: a second, deliberately plain implementation written from the rules
//! text (rules.md §3 and §6) with square-by-square loops on a file × rank grid and no bitboards.
//! The tests compare its legal-move sets and perft counts with the engine's.

use salta::board::Color;
use salta::rules::{JumpDirection, Move, MoveKind, MoveList, Position, Precedence, Rules, Variant};
use std::collections::BTreeSet;

/// A move of the reference generator: from and to as (file, rank), 0-based from Green's lower left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefMove {
    pub from: (i8, i8),
    pub to: (i8, i8),
    pub kind: MoveKind,
}

pub const PASS: RefMove = RefMove {
    from: (-1, -1),
    to: (-1, -1),
    kind: MoveKind::Pass,
};
const DIAGONALS: [(i8, i8); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];

/// The reference board: a grid of cells, who is to move, and the rules.
#[derive(Clone, Copy)]
pub struct Grid {
    rules: Rules,
    size: i8,
    cells: [[Option<Color>; 10]; 10],
    side: Color,
}

impl Grid {
    pub fn of(pos: &Position) -> Grid {
        let g = pos.geometry();
        let mut cells = [[None; 10]; 10];
        for color in Color::ALL {
            for sq in pos.pieces(color) {
                cells[g.file(sq) as usize][g.rank(sq) as usize] = Some(color);
            }
        }
        Grid {
            rules: *pos.rules(),
            size: g.size() as i8,
            cells,
            side: pos.side_to_move(),
        }
    }

    fn on_board(&self, (f, r): (i8, i8)) -> bool {
        f >= 0 && r >= 0 && f < self.size && r < self.size
    }

    fn at(&self, (f, r): (i8, i8)) -> Option<Color> {
        self.cells[f as usize][r as usize]
    }

    fn is_empty(&self, sq: (i8, i8)) -> bool {
        self.on_board(sq) && self.at(sq).is_none()
    }

    /// +1 for Green (up the board), −1 for Red.
    fn forward(color: Color) -> i8 {
        if color == Color::Green { 1 } else { -1 }
    }

    /// Winther's goal zone: the three ranks farthest from the owner's side.
    fn in_goal_zone(&self, color: Color, (_, r): (i8, i8)) -> bool {
        match color {
            Color::Green => r >= self.size - 3,
            Color::Red => r <= 2,
        }
    }

    fn squares_of(&self, color: Color) -> Vec<(i8, i8)> {
        let mut out = Vec::new();
        for f in 0..self.size {
            for r in 0..self.size {
                if self.at((f, r)) == Some(color) {
                    out.push((f, r));
                }
            }
        }
        out
    }

    /// The same grid under other rules.
    pub fn with_rules(&self, rules: Rules) -> Grid {
        Grid { rules, ..*self }
    }

    /// Steps: one square diagonally to an empty square. Salta: forward or backward; Winther:
    /// backward only from the goal zone; Pyramid: forward only.
    pub fn steps(&self, color: Color) -> Vec<RefMove> {
        let mut out = Vec::new();
        for from in self.squares_of(color) {
            for (df, dr) in DIAGONALS {
                let backward = dr != Grid::forward(color);
                let allowed = !backward
                    || match self.rules.variant {
                        Variant::Salta => true,
                        Variant::Winther => self.in_goal_zone(color, from),
                        Variant::Pyramid => false,
                    };
                let to = (from.0 + df, from.1 + dr);
                if allowed && self.is_empty(to) {
                    out.push(RefMove {
                        from,
                        to,
                        kind: MoveKind::Step,
                    });
                }
            }
        }
        out
    }

    /// Whether a jump in direction `dr` (rank change of one square) is allowed for enemy jumps.
    fn enemy_jump_direction_allowed(&self, color: Color, dr: i8) -> bool {
        self.rules.jumps == JumpDirection::Any || dr == Grid::forward(color)
    }

    /// Enemy jumps: over an adjacent enemy piece to the empty square beyond. Pyramid: every square
    /// reachable by continuing such jumps (the player may stop anywhere; the start square, which
    /// the piece has left, may be crossed but is not an end).
    pub fn enemy_jumps(&self, color: Color) -> Vec<RefMove> {
        let mut out = Vec::new();
        for from in self.squares_of(color) {
            if self.rules.variant == Variant::Pyramid {
                let mut ends = BTreeSet::new();
                self.chain(color, from, from, &mut ends);
                ends.remove(&from);
                out.extend(ends.into_iter().map(|to| RefMove {
                    from,
                    to,
                    kind: MoveKind::Jump,
                }));
                continue;
            }
            for (df, dr) in DIAGONALS {
                let over = (from.0 + df, from.1 + dr);
                let to = (from.0 + 2 * df, from.1 + 2 * dr);
                if self.enemy_jump_direction_allowed(color, dr)
                    && self.on_board(over)
                    && self.at(over) == Some(color.other())
                    && self.is_empty(to)
                {
                    out.push(RefMove {
                        from,
                        to,
                        kind: MoveKind::Jump,
                    });
                }
            }
        }
        out
    }

    /// Depth-first search of Pyramid chains from `at` for the piece that started on `start`.
    fn chain(&self, color: Color, start: (i8, i8), at: (i8, i8), ends: &mut BTreeSet<(i8, i8)>) {
        for (df, dr) in DIAGONALS {
            let over = (at.0 + df, at.1 + dr);
            let to = (at.0 + 2 * df, at.1 + 2 * dr);
            if self.enemy_jump_direction_allowed(color, dr)
                && self.on_board(over)
                && self.at(over) == Some(color.other())
                && (self.is_empty(to) || to == start)
                && !ends.contains(&to)
            {
                ends.insert(to);
                self.chain(color, start, to, ends);
            }
        }
    }

    /// Winther friendly jumps: a piece in its goal zone over an adjacent own piece, any direction.
    pub fn friendly_jumps(&self, color: Color) -> Vec<RefMove> {
        let mut out = Vec::new();
        if self.rules.variant != Variant::Winther {
            return out;
        }
        for from in self.squares_of(color) {
            if !self.in_goal_zone(color, from) {
                continue;
            }
            for (df, dr) in DIAGONALS {
                let over = (from.0 + df, from.1 + dr);
                let to = (from.0 + 2 * df, from.1 + 2 * dr);
                if self.on_board(over) && self.at(over) == Some(color) && self.is_empty(to) {
                    out.push(RefMove {
                        from,
                        to,
                        kind: MoveKind::FriendlyJump,
                    });
                }
            }
        }
        out
    }

    /// rules.md §3.1: at least one step or jump, ignoring compulsion and the no-blockade rule.
    pub fn can_move(&self, color: Color) -> bool {
        !self.steps(color).is_empty()
            || !self.enemy_jumps(color).is_empty()
            || !self.friendly_jumps(color).is_empty()
    }

    pub fn after(&self, m: RefMove) -> Grid {
        let mut next = *self;
        if m.kind != MoveKind::Pass {
            let piece = self.at(m.from);
            next.cells[m.from.0 as usize][m.from.1 as usize] = None;
            next.cells[m.to.0 as usize][m.to.1 as usize] = piece;
        }
        next.side = self.side.other();
        next
    }

    pub fn keeps_opponent_mobile(&self, m: RefMove) -> bool {
        self.after(m).can_move(self.side.other())
    }

    /// rules.md §3.2–3.4 and §6, in the order the text gives them.
    pub fn legal(&self) -> Vec<RefMove> {
        let color = self.side;
        let jumps = self.enemy_jumps(color);
        let mut quiet = self.steps(color);
        quiet.extend(self.friendly_jumps(color));
        let jump_compelled = self.rules.compulsory && !jumps.is_empty();
        // The candidate set C.
        let candidates: Vec<RefMove> = if jump_compelled {
            jumps.clone()
        } else {
            jumps.iter().chain(quiet.iter()).copied().collect()
        };
        let mut legal = candidates.clone();
        if self.rules.blockade {
            let keeping: Vec<RefMove> = candidates
                .iter()
                .copied()
                .filter(|&m| self.keeps_opponent_mobile(m))
                .collect();
            legal = if !keeping.is_empty() {
                keeping
            } else {
                let fallback: Vec<RefMove> =
                    if jump_compelled && self.rules.precedence == Precedence::BlockadeFirst {
                        quiet
                            .iter()
                            .copied()
                            .filter(|&m| self.keeps_opponent_mobile(m))
                            .collect()
                    } else {
                        Vec::new()
                    };
                if fallback.is_empty() {
                    candidates
                } else {
                    fallback
                }
            };
        }
        if legal.is_empty()
            && self.rules.variant == Variant::Pyramid
            && self.can_move(color.other())
        {
            legal.push(PASS);
        }
        legal
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|m| self.after(m).perft(depth - 1))
            .sum()
    }
}

/// The engine's legal moves in the reference's terms.
pub fn engine_moves(pos: &Position) -> BTreeSet<RefMove> {
    as_reference(pos, &pos.legal_moves())
}

fn as_reference(pos: &Position, moves: &MoveList) -> BTreeSet<RefMove> {
    let g = pos.geometry();
    let coords = |sq| (g.file(sq) as i8, g.rank(sq) as i8);
    moves
        .iter()
        .map(|m: &Move| match m.kind() {
            MoveKind::Pass => PASS,
            kind => RefMove {
                from: coords(m.from()),
                to: coords(m.to()),
                kind,
            },
        })
        .collect()
}

pub fn reference_moves(pos: &Position) -> BTreeSet<RefMove> {
    let moves = Grid::of(pos).legal();
    let set: BTreeSet<RefMove> = moves.iter().copied().collect();
    assert_eq!(
        set.len(),
        moves.len(),
        "the reference generated a move twice in {pos:?}"
    );
    set
}

pub fn assert_agrees(pos: &Position) {
    let engine = engine_moves(pos);
    let reference = reference_moves(pos);
    assert_eq!(
        engine.len(),
        pos.legal_moves().len(),
        "the engine generated a move twice in {pos:?}"
    );
    assert_eq!(
        pos.legal_move_count(),
        engine.len(),
        "legal_move_count in {pos:?}"
    );
    if engine != reference {
        let only_engine: Vec<_> = engine.difference(&reference).collect();
        let only_reference: Vec<_> = reference.difference(&engine).collect();
        panic!(
            "engine and reference disagree under {} in {pos:?}\n{pos}\nonly engine: {only_engine:?}\nonly reference: {only_reference:?}",
            pos.rules()
        );
    }
    // The jumps the compulsion is about, before the no-blockade rule.
    let jumps: BTreeSet<RefMove> = Grid::of(pos)
        .enemy_jumps(pos.side_to_move())
        .into_iter()
        .collect();
    assert_eq!(
        as_reference(pos, &pos.available_jumps()),
        jumps,
        "available_jumps in {pos:?}"
    );
    for color in Color::ALL {
        assert_eq!(
            pos.can_move(color),
            Grid::of(pos).can_move(color),
            "can_move({color}) in {pos:?}"
        );
    }
}
