//! Reproducible synthetic games from a simple playing policy that finishes games: mostly greedy
//! (the move that brings the mover's pieces nearest their targets), sometimes random, so games end
//! in completions by either side, tempo draws, and — with a move limit — limit adjudications.

use crate::board::{Bitboard, Color, Direction, Square};
use crate::notation::{GameBuilder, GameResult};
use crate::replay::result_of;
use crate::rules::margin::Budget;
use crate::rules::{
    IllegalMove, JumpDirection, MAX_PIECES, Move, MoveKind, MoveLimit, Outcome, Piece, Position,
    Progress, Referee, Rules, Variant,
};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// A generated game: the moves from the start and how it ended.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GeneratedGame {
    /// The rules the game was played under.
    pub rules: Rules,
    /// The seed of the policy's choices: the same seed gives the same game.
    pub seed: u64,
    /// The moves from the start, in order.
    pub moves: Vec<Move>,
    /// `None` when the game hit the generator's safety cap without ending.
    pub outcome: Option<Outcome>,
    /// The position after the last move.
    pub final_position: Position,
}

/// Games without a move limit stop here, unfinished, so generation always terminates (no game of
/// the rule sets `generate` accepts reaches it: see [`rules_that_finish`]).
const SAFETY_CAP_PLIES: usize = 4000;

/// The rules a generated game is played under: `rules` as given, except that with backward jumps
/// (`jumps=any`) and no move limit the 120-move rule applies. There two pieces can be made to
/// jump over each other back and forth for ever — each jump compulsory and the only one — so no
/// playing policy can promise an end; with the limit every game ends by completion or
/// adjudication, and its record says so (`[MoveLimit "120"]`).
pub fn rules_that_finish(rules: Rules) -> Rules {
    let mut rules = rules;
    if rules.jumps == JumpDirection::Any && rules.move_limit.is_none() {
        rules.move_limit = Some(MoveLimit::DEFAULT);
    }
    rules
}

/// A small, fast, seedable generator (xorshift64*), so games are reproducible everywhere.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        // Mix the seed so that small seeds give unrelated streams; never zero.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Plays one game from the start of `rules` with the policy seeded by `seed`.
/// With `margins`, each win's margin is counted exactly (within that budget) and written as a
/// `Margin` tag; without, games are made much faster and carry no margin.
/// Under `jumps=any` without a move limit the game is played with the 120-move rule
/// ([`rules_that_finish`]).
pub fn generate_game(seed: u64, rules: Rules, margins: Option<Budget>) -> GeneratedGame {
    let rules = rules_that_finish(rules);
    let mut rng = Rng::new(seed);
    // Each game gets its own temperament: how often it plays a random move.
    let random_percent = 3 + rng.below(12);
    let mut pos = Position::start(rules);
    let mut referee = Referee::new(&pos, margins);
    let mut moves = Vec::new();
    let mut plans: [Vec<Move>; 2] = [Vec::new(), Vec::new()];
    let mut visits: HashMap<Placement, u32> = HashMap::from([(Placement::of(&pos), 1)]);
    while referee.accepts_moves() && moves.len() < SAFETY_CAP_PLIES {
        let legal = least_repeating(&pos, pos.legal_moves().as_slice(), &visits);
        let plan = &mut plans[pos.side_to_move().index()];
        let Some(m) = choose(&pos, &legal, random_percent, &mut rng, plan) else {
            break;
        };
        pos.play_unchecked(m);
        moves.push(m);
        *visits.entry(Placement::of(&pos)).or_default() += 1;
        referee.after_move(&pos);
    }
    let outcome = match referee.progress() {
        Progress::Ended(o) => Some(o),
        _ => referee.outcome_at_end_of_record(),
    };
    GeneratedGame {
        rules,
        seed,
        moves,
        outcome,
        final_position: pos,
    }
}

/// Where every piece stands and who is to move: a position without its move number, so that a
/// position met again is recognised.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Placement {
    side: Color,
    squares: [[Option<Square>; MAX_PIECES]; 2],
}

impl Placement {
    fn of(pos: &Position) -> Placement {
        let mut squares = [[None; MAX_PIECES]; 2];
        for color in Color::ALL {
            for (piece, sq) in pos.pieces_of(color) {
                squares[color.index()][usize::from(piece.id())] = Some(sq);
            }
        }
        Placement {
            side: pos.side_to_move(),
            squares,
        }
    }
}

/// The legal moves that lead to the placements met least often so far. Where no move leads back to
/// a placement met before, all are kept (and the game goes as it did before this rule); a game
/// that would turn in a circle is steered out of it wherever the rules leave a choice.
fn least_repeating(pos: &Position, legal: &[Move], visits: &HashMap<Placement, u32>) -> Vec<Move> {
    let seen = |m: &Move| {
        let after = pos.after_unchecked(*m);
        visits.get(&Placement::of(&after)).copied().unwrap_or(0)
    };
    let counts: Vec<u32> = legal.iter().map(seen).collect();
    let fewest = counts.iter().copied().min().unwrap_or(0);
    legal
        .iter()
        .zip(counts)
        .filter(|&(_, n)| n == fewest)
        .map(|(m, _)| *m)
        .collect()
}

fn choose(
    pos: &Position,
    legal: &[Move],
    random_percent: usize,
    rng: &mut Rng,
    plan: &mut Vec<Move>,
) -> Option<Move> {
    if legal.is_empty() {
        return None;
    }
    // Follow a plan while it stays legal (the opponent may have blocked it, or a jump may be due).
    if let Some(&next) = plan.last() {
        if legal.contains(&next) {
            plan.pop();
            return Some(next);
        }
        plan.clear();
    }
    if rng.below(100) < random_percent {
        return Some(legal[rng.below(legal.len())]);
    }
    let mover = pos.side_to_move();
    let g = pos.geometry();
    // Greedy on the mover's own distance to go; random tie-breaks keep games varied.
    let gain = |m: &Move| -> i32 {
        let Some(piece) = pos.piece_at(m.from).filter(|p| p.color() == mover) else {
            return 0;
        };
        let target = nearest_target(pos, piece, m.from);
        g.distance(m.from, target) as i32 - g.distance(m.to, target) as i32
    };
    let best = legal.iter().map(gain).max()?;
    // A plan is made of steps: while a jump is compulsory its first move could not be played, so
    // planning then (often, under jumps=any) would be wasted.
    let may_step = legal.iter().any(|m| m.kind == MoveKind::Step);
    if best <= 0 && may_step && pos.rules().variant != Variant::Pyramid {
        // Nothing gains ground: the pieces are tangled. Plan a way through, own moves only.
        *plan = plan_untangle(pos);
        if let Some(next) = plan.pop().filter(|m| legal.contains(m)) {
            return Some(next);
        }
        plan.clear();
    }
    let candidates: Vec<&Move> = legal.iter().filter(|m| gain(m) == best).collect();
    candidates
        .get(rng.below(candidates.len().max(1)))
        .map(|m| **m)
}

/// The square a piece heads for: its own target, or in Pyramid the nearest free target square.
fn nearest_target(pos: &Position, piece: Piece, from: Square) -> Square {
    let g = pos.geometry();
    if pos.rules().variant != Variant::Pyramid {
        return pos.target(piece);
    }
    let targets = pos.target_squares(piece.color()) & !pos.pieces(piece.color());
    let fallback = pos.target_squares(piece.color()).first().unwrap_or(from);
    targets
        .min_by_key(|&t| g.distance(from, t))
        .unwrap_or(fallback)
}

impl GeneratedGame {
    /// The game as a record (its text by [`GameBuilder::text`], the game read back by
    /// [`GameBuilder::build`]): tags saying where it came from, the rules, the result and the
    /// margin, and the moves. Refused when a move is not legal (a game whose moves were changed).
    pub fn to_record(&self) -> Result<GameBuilder, IllegalMove> {
        let result = self
            .outcome
            .map(|o| result_of(&o))
            .unwrap_or(GameResult::Unknown);
        let mut tags = vec![
            ("Event", "Synthetic game".to_string()),
            ("Site", "salta generate".to_string()),
            ("Round", self.seed.to_string()),
            ("Green", "greedy policy".to_string()),
            ("Red", "greedy policy".to_string()),
        ];
        if let Some(margin) = self.outcome.and_then(|o| o.margin).and_then(|m| m.exact()) {
            tags.push(("Margin", margin.to_string()));
        }
        let mut record = GameBuilder::new(Position::start(self.rules)).result(result);
        for (name, value) in tags {
            record = record
                .tag(name, value)
                .expect("the generator's tags are its own");
        }
        for &m in &self.moves {
            record = record.play(m)?;
        }
        Ok(record)
    }
}

/// States a plan may look at before the generator gives up planning for this move.
const PLAN_NODE_LIMIT: usize = 20_000;

/// A weighted A* over the mover's own steps (the opponent's pieces stand still as obstacles) toward
/// completion, returning the moves in reverse order (next move last). Empty when nothing is found.
fn plan_untangle(pos: &Position) -> Vec<Move> {
    let g = pos.geometry();
    let color = pos.side_to_move();
    let pieces: Vec<(Piece, Square)> = pos.pieces_of(color).collect();
    if pieces.len() > PackedSquares::CAPACITY {
        return Vec::new();
    }
    // Each piece's distance to its target from every square, looked up instead of recomputed.
    let to_target: Vec<[u8; 64]> = pieces
        .iter()
        .map(|&(p, _)| {
            let mut row = [0; 64];
            for sq in g.squares() {
                row[sq.index()] = g.distance(sq, pos.target(p));
            }
            row
        })
        .collect();
    let enemy = pos.pieces(color.other());
    let zone = g.far_zone(color);
    let forward = Direction::forward(color);
    let backward_ok = |from: Square| match pos.rules().variant {
        Variant::Winther => zone.contains(from),
        _ => true,
    };
    let count = pieces.len();
    let mut start = PackedSquares(0);
    for (i, &(_, sq)) in pieces.iter().enumerate() {
        start.set(i, count, sq);
    }
    let h = |state: PackedSquares| -> u32 {
        (0..count)
            .map(|i| u32::from(to_target[i][state.get(i, count).index()]))
            .sum()
    };
    // Every state seen gets an id; by id, its best cost so far and the step that reached it at that
    // cost.
    let mut best: Vec<(u32, Option<(u32, Move)>)> = vec![(0, None)];
    let mut ids: HashMap<PackedSquares, u32, BuildHasherDefault<KeyHasher>> = HashMap::default();
    ids.insert(start, 0);
    // Ties are broken by the packed squares, which order as the square lists do.
    let mut open = BinaryHeap::from([Reverse((3 * h(start), 0u32, start))]);
    while let Some(Reverse((f_cost, g_cost, state))) = open.pop() {
        if f_cost == g_cost {
            // Distance to go is zero: every piece is home.
            let mut path = Vec::new();
            let mut at = ids.get(&state).copied();
            while let Some((_, Some((prev, m)))) = at.and_then(|id| best.get(id as usize)) {
                path.push(*m);
                at = Some(*prev);
            }
            return path;
        }
        if ids.len() > PLAN_NODE_LIMIT {
            break;
        }
        let Some(&state_id) = ids.get(&state) else {
            continue;
        };
        let own: Bitboard = (0..count).map(|i| state.get(i, count)).collect();
        let to_go = (f_cost - g_cost) / 3;
        for (i, distances) in to_target.iter().enumerate() {
            let from = state.get(i, count);
            for dir in Direction::ALL {
                if !forward.contains(&dir) && !backward_ok(from) {
                    continue;
                }
                let Some(to) = g
                    .neighbour(from, dir)
                    .filter(|&t| !own.contains(t) && !enemy.contains(t))
                else {
                    continue;
                };
                let mut next = state;
                next.set(i, count, to);
                let next_cost = g_cost + 1;
                let step = Move {
                    from,
                    to,
                    kind: MoveKind::Step,
                };
                match ids.get(&next) {
                    Some(&id) => {
                        let seen = &mut best[id as usize];
                        if seen.0 <= next_cost {
                            continue;
                        }
                        *seen = (next_cost, Some((state_id, step)));
                    }
                    None => {
                        ids.insert(next, best.len() as u32);
                        best.push((next_cost, Some((state_id, step))));
                    }
                }
                let next_to_go =
                    to_go + u32::from(distances[to.index()]) - u32::from(distances[from.index()]);
                open.push(Reverse((next_cost + 3 * next_to_go, next_cost, next)));
            }
        }
    }
    Vec::new()
}

/// One side's squares packed six bits each, the first piece in the highest bits, so that ordering
/// the packed values orders the square lists lexicographically (the planner's tie-break).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct PackedSquares(u128);

impl PackedSquares {
    const CAPACITY: usize = 21;

    fn shift(i: usize, count: usize) -> usize {
        6 * (count - 1 - i)
    }

    fn get(self, i: usize, count: usize) -> Square {
        Square::new_unchecked(((self.0 >> Self::shift(i, count)) & 0x3F) as u8)
    }

    fn set(&mut self, i: usize, count: usize, sq: Square) {
        let shift = Self::shift(i, count);
        self.0 = (self.0 & !(0x3F << shift)) | ((sq.index() as u128) << shift);
    }
}

/// A multiply-and-fold hash for packed states: std's SipHash was most of the planner's time.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517C_C1B7_2722_0A95);
        }
    }

    fn write_u128(&mut self, value: u128) {
        let folded = (value as u64) ^ ((value >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = (folded ^ (folded >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 ^= self.0 >> 32;
    }
}
