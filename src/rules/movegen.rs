//! Legal moves (rules.md §3 and §6): steps, enemy jumps, Winther friendly jumps, Pyramid chains and
//! passes, the compulsory jump and the no-blockade rule with its precedence and fallback.
//!
//! Generation works on bitboards and writes into a fixed-size [`MoveList`]: it allocates nothing.

use super::moves::{IllegalMove, Move, MoveKind, MoveList};
use super::{JumpDirection, OwnRules, Position, Precedence, RulesSource, Variant};
use crate::board::{Bitboard, BoardKind, Color, Direction, Geometry, Square};

/// The parts of a position move generation needs, as bitboards.
#[derive(Clone, Copy)]
struct Sides {
    own: Bitboard,
    enemy: Bitboard,
    color: Color,
}

impl Sides {
    fn empty(&self, g: &Geometry) -> Bitboard {
        g.valid & !(self.own | self.enemy)
    }

    fn swapped(self) -> Sides {
        Sides {
            own: self.enemy,
            enemy: self.own,
            color: self.color.other(),
        }
    }
}

impl Position {
    /// The legal moves for the side to move (rules.md §3; §6 for the variants).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// The legal move from `from` to `to` (not a pass), if there is one. The same as searching
    /// [`Position::legal_moves`], but when the no-blockade rule cannot bite (nearly always) it looks
    /// only at the one move and asks whether any enemy jump exists: the replayer's hot path.
    pub fn find_legal(&self, from: Square, to: Square) -> Option<Move> {
        self.find_legal_proving(from, to).map(|(m, _)| m)
    }

    /// [`Position::find_legal`], with whether the search proved on the way that the opponent can
    /// move after the move (`false`: not known), which spares the referee that test. Inlined into
    /// the replayer's loop, where it runs once a ply.
    #[inline(always)]
    pub(crate) fn find_legal_proving(&self, from: Square, to: Square) -> Option<(Move, bool)> {
        self.find_legal_under(OwnRules, from, to)
    }

    /// [`Position::find_legal_proving`] under the rules `source` gives.
    #[inline(always)]
    pub(crate) fn find_legal_under(
        &self,
        source: impl RulesSource,
        from: Square,
        to: Square,
    ) -> Option<(Move, bool)> {
        // One copy of the search per board, in which the board's geometry (shifts, masks) is a
        // constant.
        match source.of(self).board() {
            BoardKind::Salta => {
                self.find_legal_on(source, Geometry::of(BoardKind::Salta), from, to)
            }
            BoardKind::Pyramid => {
                self.find_legal_on(source, Geometry::of(BoardKind::Pyramid), from, to)
            }
        }
    }

    /// [`Position::find_legal_under`] on this position's board `g`.
    #[inline(always)]
    fn find_legal_on(
        &self,
        source: impl RulesSource,
        g: &Geometry,
        from: Square,
        to: Square,
    ) -> Option<(Move, bool)> {
        let rules = source.of(self);
        let sides = self.sides();
        // Every legal move but a pass leaves an own piece's square for an empty one.
        if !sides.own.contains(from) || !sides.empty(g).contains(to) {
            return None;
        }
        if rules.blockade && !self.surely_keeps_mobile(source, g, &sides) {
            return self
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.kind != MoveKind::Pass && m.from == from && m.to == to)
                .map(|m| (m, false));
        }
        // The opponent keeps a step whatever is played (checked just above when it matters).
        let proven = rules.blockade;
        let (origin, target) = (Bitboard::from_square(from), Bitboard::from_square(to));
        // A step goes one square diagonally and any jump (or Pyramid chain) an even number: they
        // never share both ends, so the commoner step is tried first. A Salta piece steps all
        // four ways, so there a step is told by the squares' indices alone.
        let step = match rules.variant {
            Variant::Salta => one_step_apart(g, from, to),
            _ => (self.step_reach(source, g, sides.color, origin) & target).any(),
        };
        if step {
            let step = Move {
                from,
                to,
                kind: MoveKind::Step,
            };
            return (!(rules.compulsory && self.has_enemy_jump(source, g, sides)))
                .then_some((step, proven));
        }
        let dirs = jump_directions(rules.jumps, sides.color);
        let jump = if rules.variant == Variant::Pyramid {
            chain_ends(g, sides, from, dirs).contains(to)
        } else {
            (self.enemy_jump_reach(source, g, sides, origin) & target).any()
        };
        if jump {
            let jump = Move {
                from,
                to,
                kind: MoveKind::Jump,
            };
            return Some((jump, proven));
        }
        if rules.compulsory && self.has_enemy_jump(source, g, sides) {
            return None;
        }
        let friendly = rules.variant == Variant::Winther
            && g.far_zone(sides.color).contains(from)
            && Direction::ALL
                .iter()
                .any(|&dir| jump_landings(g, dir, origin, sides.own, target).any());
        let friendly_jump = Move {
            from,
            to,
            kind: MoveKind::FriendlyJump,
        };
        friendly.then_some((friendly_jump, proven))
    }

    /// All enemy jumps available to the side to move, ignoring the no-blockade rule: the moves the
    /// compulsion is about (used to judge "Salta!" calls and missed jumps).
    pub fn available_jumps(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_enemy_jumps(self.sides(), &mut list);
        list
    }

    /// Whether `color` has any step or jump at all here (rules.md §3.1, "can move"). A step is
    /// nearly always there: that test is inlined (the referee asks once a ply), the rest is not.
    #[inline]
    pub fn can_move(&self, color: Color) -> bool {
        self.can_move_under(OwnRules, color)
    }

    /// [`Position::can_move`] under the rules `source` gives.
    #[inline(always)]
    pub(crate) fn can_move_under(&self, source: impl RulesSource, color: Color) -> bool {
        let sides = Sides {
            own: self.pieces(color),
            enemy: self.pieces(color.other()),
            color,
        };
        self.has_step(source, sides) || self.mobile(sides)
    }

    /// Plays a legal move: one of [`Position::legal_moves`] (kind included). An illegal move is
    /// refused and the position left as it was.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.legal_moves().contains(&m) {
            return Err(IllegalMove::new(
                m,
                self.side_to_move(),
                self.geometry().kind,
            ));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move without checking it: for moves just taken from [`Position::legal_moves`] or
    /// found by [`Position::find_legal`] (perft, search, the replayer). An illegal move leaves a
    /// position the rules cannot reach; a move from an empty square or onto a taken one, a
    /// corrupt one. Inlined: the replayer and perft call it once a move.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) {
        self.play_unchecked_under(OwnRules, m);
    }

    /// [`Position::play_unchecked`] under the rules `source` gives.
    #[inline(always)]
    pub(crate) fn play_unchecked_under(&mut self, source: impl RulesSource, m: Move) {
        if m.kind != MoveKind::Pass {
            self.relocate(m.from, m.to);
        }
        self.end_turn(source);
    }

    /// The position after a legal move ([`Position::play`] on a copy).
    pub fn after(&self, m: Move) -> Result<Position, IllegalMove> {
        let mut next = *self;
        next.play(m)?;
        Ok(next)
    }

    /// The position after a move, not checked ([`Position::play_unchecked`] on a copy).
    #[must_use]
    #[inline]
    pub fn after_unchecked(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    fn sides(&self) -> Sides {
        let color = self.side_to_move();
        Sides {
            own: self.pieces(color),
            enemy: self.pieces(color.other()),
            color,
        }
    }

    fn legal_moves_into(&self, list: &mut MoveList) {
        let rules = *self.rules();
        let sides = self.sides();
        self.gen_enemy_jumps(sides, list);
        let compelled = rules.compulsory && !list.is_empty();
        if !compelled {
            self.gen_quiet(sides, list);
        }
        if rules.blockade
            && !list.is_empty()
            && !self.surely_keeps_mobile(OwnRules, self.geometry(), &sides)
        {
            self.apply_no_blockade(sides, compelled, list);
        }
        if list.is_empty() && rules.variant == Variant::Pyramid && self.mobile(sides.swapped()) {
            list.push(Move::PASS);
        }
    }

    /// The number of legal moves, as `legal_moves().len()`, but without building the list when
    /// the no-blockade rule cannot bite (nearly always): bulk counting for perft.
    pub fn legal_move_count(&self) -> usize {
        let rules = self.rules();
        let sides = self.sides();
        let jumps = self.enemy_jump_count(sides);
        let count = if rules.compulsory && jumps > 0 {
            jumps
        } else {
            jumps + self.quiet_count(sides)
        };
        if count > 0
            && (!rules.blockade || self.surely_keeps_mobile(OwnRules, self.geometry(), &sides))
        {
            return count;
        }
        self.legal_moves().len()
    }

    /// Whether the side that moves next keeps a step whatever `sides` plays: the opponent, with two
    /// or more empty step targets (a move fills one empty square, its destination, and frees
    /// another, so one survives). Under odds the same side may move next: then it is not known.
    #[inline(always)]
    fn surely_keeps_mobile(&self, source: impl RulesSource, g: &Geometry, sides: &Sides) -> bool {
        self.turn().hands_over()
            && (self.step_targets(source, g, sides.swapped()) & sides.empty(g)).count() >= 2
    }

    /// The no-blockade rule with its fallback and its yielding (rules.md §3.3) applied to the
    /// candidate moves in `list`, in place.
    #[cold]
    fn apply_no_blockade(&self, sides: Sides, compelled: bool, list: &mut MoveList) {
        let candidates = list.len();
        let kept = self.sort_out_blockading(sides, list, 0);
        if kept > 0 {
            list.keep_range(0, kept);
            return;
        }
        if compelled && self.rules().precedence == Precedence::BlockadeFirst {
            // Every compulsory jump would blockade: the player steps instead, if a step keeps the
            // opponent mobile.
            self.gen_quiet(sides, list);
            let kept = self.sort_out_blockading(sides, list, candidates);
            if kept > 0 {
                list.keep_range(candidates, kept);
                return;
            }
            list.keep_range(0, candidates);
        }
        // The rule yields when it cannot be kept: the candidates stand.
    }

    /// Moves the moves from index `start` on after which the side that moves next can still move
    /// to the front of that range and returns their number (see [`MoveList::partition_from`]).
    fn sort_out_blockading(&self, sides: Sides, list: &mut MoveList, start: usize) -> usize {
        let g = self.geometry();
        let opponent = sides.swapped();
        // The opponent's empty step targets now: any of them other than a move's destination
        // stays empty after the move.
        let targets = self.step_targets(OwnRules, g, opponent) & sides.empty(g);
        let opponent_can_move = |m: &Move| {
            let to = Bitboard::from_square(m.to);
            if (targets & !to).any() {
                return true;
            }
            let moved = Bitboard::from_square(m.from) | to;
            self.mobile(Sides {
                own: opponent.own,
                enemy: opponent.enemy ^ moved,
                color: opponent.color,
            })
        };
        if self.turn().hands_over() {
            return list.partition_from(start, opponent_can_move);
        }
        // The same side may move again (odds, or the opponent at its limit): then it must be able
        // to.
        list.partition_from(start, |m| {
            if self.side_to_keep_mobile(*m) != sides.color {
                return opponent_can_move(m);
            }
            let moved = Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
            self.mobile(Sides {
                own: sides.own ^ moved,
                ..sides
            })
        })
    }

    /// The side the no-blockade rule keeps able to move after the move `m` of the side to move
    /// (rules.md §3, §5; decision 142): the side that moves next, which under odds or a move
    /// limit may be the mover itself; after a move that ends the game (it completes the mover,
    /// it is Red's compensating move, it is the last before both limits) nobody moves next, and
    /// the rule keeps the opponent able to move, as §3 words it for every move.
    pub(crate) fn side_to_keep_mobile(&self, m: Move) -> Color {
        let mover = self.side_to_move();
        let ends_the_game =
            || self.is_complete(mover.other()) || self.after_unchecked(m).is_complete(mover);
        if self.turn().hands_over() || ends_the_game() {
            mover.other()
        } else {
            mover
        }
    }

    /// Whether a side has a step to an empty square.
    #[inline(always)]
    fn has_step(&self, source: impl RulesSource, sides: Sides) -> bool {
        let g = Geometry::of(source.of(self).board());
        (self.step_targets(source, g, sides) & sides.empty(g)).any()
    }

    /// Whether a side has any raw step or jump.
    fn mobile(&self, sides: Sides) -> bool {
        if self.has_step(OwnRules, sides) {
            return true;
        }
        let g = self.geometry();
        let empty = sides.empty(g);
        if (self.enemy_jump_reach(OwnRules, g, sides, sides.own) & empty).any() {
            return true;
        }
        let rules = self.rules();
        if rules.variant == Variant::Winther {
            let zone = sides.own & g.far_zone(sides.color);
            for dir in Direction::ALL {
                if jump_landings(g, dir, zone, sides.own, empty).any() {
                    return true;
                }
            }
        }
        false
    }

    /// Squares next to `sides.own` pieces that they may step to if empty.
    #[inline]
    fn step_targets(&self, source: impl RulesSource, g: &Geometry, sides: Sides) -> Bitboard {
        self.step_reach(source, g, sides.color, sides.own)
    }

    /// Squares the `pieces` of `color` may step to if empty (the same directions as
    /// [`Position::step_sources`], without a per-direction loop: this runs several times a ply).
    #[inline(always)]
    fn step_reach(
        &self,
        source: impl RulesSource,
        g: &Geometry,
        color: Color,
        pieces: Bitboard,
    ) -> Bitboard {
        let backward = match source.of(self).variant {
            Variant::Salta => pieces,
            Variant::Winther => pieces & g.far_zone(color),
            Variant::Pyramid => Bitboard::EMPTY,
        };
        let (up, down) = match color {
            Color::Green => (pieces, backward),
            Color::Red => (backward, pieces),
        };
        (both_ways_up(g, up) | both_ways_down(g, down)) & g.valid
    }

    /// Landing squares of enemy jumps by `jumpers` of the side to move (single jumps, all
    /// directions allowed by the rules at once), before checking they are empty.
    #[inline(always)]
    fn enemy_jump_reach(
        &self,
        source: impl RulesSource,
        g: &Geometry,
        sides: Sides,
        jumpers: Bitboard,
    ) -> Bitboard {
        // One direction's shifts only, where one will do: this runs once a ply.
        match (source.of(self).jumps, sides.color) {
            (JumpDirection::Any, _) => {
                over_up(g, jumpers, sides.enemy) | over_down(g, jumpers, sides.enemy)
            }
            (JumpDirection::Forward, Color::Green) => over_up(g, jumpers, sides.enemy),
            (JumpDirection::Forward, Color::Red) => over_down(g, jumpers, sides.enemy),
        }
    }

    /// For each direction, the pieces that may step that way (before checking the square is empty).
    fn step_sources(&self, sides: Sides) -> [(Direction, Bitboard); 4] {
        let g = self.geometry();
        let [f1, f2] = Direction::forward(sides.color);
        let [b1, b2] = Direction::backward(sides.color);
        let backward = match self.rules().variant {
            Variant::Salta => sides.own,
            Variant::Winther => sides.own & g.far_zone(sides.color),
            Variant::Pyramid => Bitboard::EMPTY,
        };
        [
            (f1, sides.own),
            (f2, sides.own),
            (b1, backward),
            (b2, backward),
        ]
    }

    /// Steps, and in Winther friendly jumps: the moves that are never compulsory.
    fn gen_quiet(&self, sides: Sides, list: &mut MoveList) {
        let g = self.geometry();
        let empty = sides.empty(g);
        for (dir, from) in self.step_sources(sides) {
            let shift = g.shift(dir);
            for to in from.shift(shift) & empty {
                list.push(Move {
                    from: offset(to, -shift),
                    to,
                    kind: MoveKind::Step,
                });
            }
        }
        if self.rules().variant == Variant::Winther {
            let zone = sides.own & g.far_zone(sides.color);
            for dir in Direction::ALL {
                let shift = g.shift(dir);
                for to in jump_landings(g, dir, zone, sides.own, empty) {
                    list.push(Move {
                        from: offset(to, -2 * shift),
                        to,
                        kind: MoveKind::FriendlyJump,
                    });
                }
            }
        }
    }

    /// The number of moves [`Position::gen_quiet`] generates.
    fn quiet_count(&self, sides: Sides) -> usize {
        let g = self.geometry();
        let empty = sides.empty(g);
        let mut count = 0;
        for (dir, from) in self.step_sources(sides) {
            count += (from.shift(g.shift(dir)) & empty).count() as usize;
        }
        if self.rules().variant == Variant::Winther {
            let zone = sides.own & g.far_zone(sides.color);
            for dir in Direction::ALL {
                count += jump_landings(g, dir, zone, sides.own, empty).count() as usize;
            }
        }
        count
    }

    /// Jumps over enemy pieces (Pyramid: every end of every chain).
    fn gen_enemy_jumps(&self, sides: Sides, list: &mut MoveList) {
        let g = self.geometry();
        let rules = self.rules();
        let empty = sides.empty(g);
        let dirs = jump_directions(rules.jumps, sides.color);
        if rules.variant == Variant::Pyramid {
            for from in sides.own {
                for to in chain_ends(g, sides, from, dirs) {
                    list.push(Move {
                        from,
                        to,
                        kind: MoveKind::Jump,
                    });
                }
            }
            return;
        }
        for &dir in dirs {
            let shift = g.shift(dir);
            for to in jump_landings(g, dir, sides.own, sides.enemy, empty) {
                list.push(Move {
                    from: offset(to, -2 * shift),
                    to,
                    kind: MoveKind::Jump,
                });
            }
        }
    }

    /// Whether [`Position::gen_enemy_jumps`] would generate any move. (A Pyramid chain starts with
    /// a single jump, so single jumps decide there too.)
    #[inline]
    fn has_enemy_jump(&self, source: impl RulesSource, g: &Geometry, sides: Sides) -> bool {
        (self.enemy_jump_reach(source, g, sides, sides.own) & sides.empty(g)).any()
    }

    /// The number of moves [`Position::gen_enemy_jumps`] generates.
    fn enemy_jump_count(&self, sides: Sides) -> usize {
        let g = self.geometry();
        let rules = self.rules();
        let dirs = jump_directions(rules.jumps, sides.color);
        if rules.variant == Variant::Pyramid {
            return sides
                .own
                .map(|from| chain_ends(g, sides, from, dirs).count() as usize)
                .sum();
        }
        let empty = sides.empty(g);
        dirs.iter()
            .map(|&dir| jump_landings(g, dir, sides.own, sides.enemy, empty).count() as usize)
            .sum()
    }
}

/// Pyramid: every square the piece on `from` can end on by one or more jumps over enemy pieces
/// (the player may stop after any jump). Nothing is captured, so the ends are exactly the squares
/// reachable by repeated jumps.
fn chain_ends(g: &Geometry, sides: Sides, from: Square, dirs: &[Direction]) -> Bitboard {
    let start = Bitboard::from_square(from);
    // The jumping piece has left its square, which it may cross again but not end on.
    let empty = sides.empty(g) | start;
    let mut reached = start;
    let mut frontier = start;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for dir in dirs {
            next |= jump_landings(g, *dir, frontier, sides.enemy, empty);
        }
        frontier = next & !reached;
        reached |= frontier;
    }
    reached & !start
}

/// The directions a side may jump enemy pieces in.
fn jump_directions(jumps: JumpDirection, color: Color) -> &'static [Direction] {
    const GREEN: [Direction; 2] = Direction::forward(Color::Green);
    const RED: [Direction; 2] = Direction::forward(Color::Red);
    match (jumps, color) {
        (JumpDirection::Any, _) => &Direction::ALL,
        (JumpDirection::Forward, Color::Green) => &GREEN,
        (JumpDirection::Forward, Color::Red) => &RED,
    }
}

/// `pieces` moved one step up-left and one step up-right (toward Red), unioned; off-board results
/// land on ghost bits or leave the word. Both shifts are positive on both boards.
#[inline(always)]
fn both_ways_up(g: &Geometry, pieces: Bitboard) -> Bitboard {
    let (left, right) = up_shifts(g);
    Bitboard(pieces.0 << left | pieces.0 << right)
}

/// `pieces` moved one step down-left and one step down-right (toward Green), unioned.
#[inline(always)]
fn both_ways_down(g: &Geometry, pieces: Bitboard) -> Bitboard {
    let (left, right) = up_shifts(g);
    // Down-left undoes up-right and down-right undoes up-left.
    Bitboard(pieces.0 >> right | pieces.0 >> left)
}

/// Whether the empty square `to` is a step from `from` in any of the four directions: its index
/// differs by one of the two step shifts ([`Position::step_reach`] with every piece stepping
/// both ways, for one piece: a shift that leaves the board lands on padding, never on a square).
#[inline(always)]
fn one_step_apart(g: &Geometry, from: Square, to: Square) -> bool {
    let (left, right) = up_shifts(g);
    let apart = from.index().abs_diff(to.index()) as u32;
    apart == left || apart == right
}

/// Landings of jumps up-left and up-right by `jumpers` over `over` (not yet checked empty).
#[inline(always)]
fn over_up(g: &Geometry, jumpers: Bitboard, over: Bitboard) -> Bitboard {
    let (left, right) = up_shifts(g);
    Bitboard(((jumpers.0 << left) & over.0) << left | ((jumpers.0 << right) & over.0) << right)
}

/// Landings of jumps down-left and down-right by `jumpers` over `over` (not yet checked empty).
#[inline(always)]
fn over_down(g: &Geometry, jumpers: Bitboard, over: Bitboard) -> Bitboard {
    let (left, right) = up_shifts(g);
    Bitboard(((jumpers.0 >> left) & over.0) >> left | ((jumpers.0 >> right) & over.0) >> right)
}

/// The shifts of the up-left and up-right steps, as shift amounts.
#[inline(always)]
fn up_shifts(g: &Geometry) -> (u32, u32) {
    (
        g.shift(Direction::UpLeft) as u32,
        g.shift(Direction::UpRight) as u32,
    )
}

/// Landing squares of jumps in `dir` by `jumpers` over `over` onto `empty`.
#[inline(always)]
fn jump_landings(
    g: &Geometry,
    dir: Direction,
    jumpers: Bitboard,
    over: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    let s = g.shift(dir);
    (jumpers.shift(s) & over).shift(s) & empty
}

#[inline(always)]
fn offset(sq: Square, delta: i8) -> Square {
    Square::new_unchecked((sq.index() as i16 + delta as i16) as u8)
}

#[cfg(test)]
mod tests {
    use super::super::{DefaultRules, JumpDirection, Odds, Position, Rules, Variant};
    use super::{IllegalMove, Move, MoveKind};
    use crate::board::Color;

    /// `play` takes the legal moves and refuses any other, kind included, leaving the position
    /// as it was; `play_unchecked` is the same move without the question.
    #[test]
    fn play_checks_and_play_unchecked_does_not() {
        let start = Position::start(Rules::default());
        let g = start.geometry();
        let square = |n| g.from_number(n).expect("a square");
        let step = Move {
            from: square(31),
            to: square(41),
            kind: MoveKind::Step,
        };
        let mut pos = start;
        assert_eq!(pos.play(step), Ok(()));
        assert_eq!(pos, start.after_unchecked(step));
        let mut pos = start;
        for wrong in [
            Move {
                kind: MoveKind::Jump,
                ..step
            },
            Move {
                from: square(21),
                to: square(32),
                kind: MoveKind::Step,
            },
            Move::PASS,
        ] {
            let refused: IllegalMove = pos.play(wrong).unwrap_err();
            assert_eq!((refused.played(), refused.side()), (wrong, Color::Green));
            assert_eq!(pos, start, "a refused move changes nothing");
        }
        assert_eq!(
            pos.after(Move::PASS).unwrap_err().to_string(),
            "Green may not pass here"
        );
        assert_eq!(
            start
                .after(Move {
                    from: square(21),
                    to: square(32),
                    kind: MoveKind::Step
                })
                .unwrap_err()
                .to_string(),
            "Green has no legal move from 21 to 32"
        );
    }

    /// Random playouts under every combination of the rules that move generation depends on: in
    /// every position, for every own piece and every square, `find_legal_proving` (and, under the
    /// default rules, its copy for them) finds exactly the legal move `legal_moves` lists, and
    /// when it claims a proof the side that moves next (the opponent, or under odds the same side)
    /// can indeed move after the move.
    #[test]
    fn find_legal_agrees_with_the_legal_moves_and_its_proofs_hold() {
        let mut random = crate::rules::xorshift(0x9e37_79b9_7f4a_7c15);
        let (mut checked, mut proven, mut known) = (0usize, 0usize, 0usize);
        for variant in [Variant::Salta, Variant::Winther, Variant::Pyramid] {
            for jumps in [JumpDirection::Forward, JumpDirection::Any] {
                for blockade in [true, false] {
                    for (compulsory, odds) in [
                        (true, None),
                        (false, None),
                        (true, Odds::parse("red 3:2").unwrap()),
                    ] {
                        let rules = Rules {
                            jumps,
                            blockade,
                            compulsory,
                            odds,
                            ..Rules::of(variant)
                        };
                        let mut pos = Position::start(rules);
                        for _ in 0..200 {
                            let legal = pos.legal_moves();
                            if legal.is_empty() {
                                break;
                            }
                            let g = pos.geometry();
                            let side = pos.side_to_move();
                            for from in pos.pieces(side) {
                                for to in g.squares() {
                                    let expected = legal.iter().copied().find(|m| {
                                        m.kind != MoveKind::Pass && m.from == from && m.to == to
                                    });
                                    let found = pos.find_legal_proving(from, to);
                                    assert_eq!(found.map(|(m, _)| m), expected, "{pos:?}");
                                    // The replay's copy for the default rules, known when
                                    // compiling, finds the same.
                                    if rules == Rules::default() {
                                        let under = pos.find_legal_under(DefaultRules, from, to);
                                        assert_eq!(under, found, "{pos:?}");
                                        known += usize::from(found.is_some());
                                    }
                                    if let Some((m, true)) = found {
                                        let after = pos.after_unchecked(m);
                                        let next = after.side_to_move();
                                        assert!(after.can_move(next), "{pos:?}");
                                        proven += 1;
                                    }
                                    checked += usize::from(expected.is_some());
                                }
                            }
                            let m = legal.as_slice()[random(legal.len())];
                            pos.play(m).expect("a legal move");
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "the playouts reach many legal moves");
        assert!(
            known > 500,
            "the default rules' copy is checked: {known} moves"
        );
        // Half the rule sets have no no-blockade rule, and so no proofs.
        assert!(
            proven > checked / 4,
            "proofs are the common case with the no-blockade rule: {proven} of {checked}"
        );
    }
}
