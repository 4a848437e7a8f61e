//! Whose move it is (rules.md §5): the sides alternate, or move in groups under odds ("2 gegen 3"),
//! and a side that has reached its own move limit passes while the other plays on.

use super::Rules;
use crate::board::Color;

/// Who moves, at which move number, how far into its group, and how many moves each side has
/// made. The move number counts rounds: it goes up when Red's group (one move when the sides
/// alternate) is over, so a record numbers every group (`1. 33-43 32-42 1... 83-73 84-74 93-83`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    side: Color,
    number: u32,
    /// Moves the side to move has made in its current group.
    run: u8,
    /// Moves made by Green and by Red (passes of a side at its limit are not moves).
    made: [u16; 2],
    /// Whether the other side moves after the side to move's next move (else the same side
    /// moves again; the no-blockade rule looks at the side that moves next).
    hands_over: bool,
}

impl Turn {
    /// `side` to move at move `number`, at the start of its group, each side having made all the
    /// moves of the rounds before, as many as its limit allows (decision 145).
    pub fn new(side: Color, number: u32, rules: &Rules) -> Turn {
        // Moves made saturate far beyond any move limit (at most 10,000).
        let rounds = u16::try_from(number.saturating_sub(1)).unwrap_or(u16::MAX);
        let group = |c| u16::from(rules.group(c));
        let mut made = [
            rounds.saturating_mul(group(Color::Green)),
            rounds.saturating_mul(group(Color::Red)),
        ];
        if side == Color::Red {
            made[0] = made[0].saturating_add(group(Color::Green));
        }
        // A side at its limit made no more moves than the limit (it passed the rest).
        if let Some(limit) = rules.move_limit {
            for (made, color) in made.iter_mut().zip([Color::Green, Color::Red]) {
                *made = (*made).min(limit.of(color));
            }
        }
        let mut turn = Turn {
            side,
            number,
            run: 0,
            made,
            hands_over: true,
        };
        turn.settle(rules, |_| false);
        turn
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The number of the move being played (a round of both sides' groups).
    pub fn number(&self) -> u32 {
        self.number
    }

    /// Moves `color` has made.
    pub fn made(&self, color: Color) -> u16 {
        self.made[color.index()]
    }

    /// Whether the other side moves after the side to move's next move.
    #[inline(always)]
    pub fn hands_over(&self) -> bool {
        self.hands_over
    }

    /// Whether `color` has made all the moves its limit allows.
    pub fn at_limit(&self, color: Color, rules: &Rules) -> bool {
        rules
            .move_limit
            .is_some_and(|limit| self.made(color) >= limit.of(color))
    }

    /// Whether both sides have reached their limits: the game is adjudicated.
    #[inline]
    pub fn limit_reached(&self, rules: &Rules) -> bool {
        self.at_limit(Color::Green, rules) && self.at_limit(Color::Red, rules)
    }

    /// Moves the side to move has made in its current group.
    pub fn run(&self) -> u8 {
        self.run
    }

    /// The move number and side of the other side's turn just before this one: where a side at
    /// its limit passed, [`Turn::passed_over`] says whether it did.
    pub fn passed(&self) -> (u32, Color) {
        match self.side {
            Color::Green => (self.number.saturating_sub(1), Color::Red),
            Color::Red => (self.number, Color::Green),
        }
    }

    /// Whether the other side's turn just before this one ([`Turn::passed`]) was passed over, that
    /// side having reached its limit before it: only there may a record write its pass, `--`
    /// (decision 149). The side to move is at the start of its group, and the other side's
    /// groups before that turn held as many moves as its limit allows.
    pub fn passed_over(&self, rules: &Rules) -> bool {
        let Some(limit) = rules.move_limit else {
            return false;
        };
        let other = self.side.other();
        // The other side's full groups before its turn: Green's turn of this round comes after
        // `number - 1` of its groups, Red's turn of the round before after `number - 2`.
        let groups_before = match self.side {
            Color::Red => self.number.checked_sub(1),
            Color::Green => self.number.checked_sub(2),
        };
        self.run == 0
            && groups_before.is_some_and(|groups| {
                groups.saturating_mul(u32::from(rules.group(other))) >= u32::from(limit.of(other))
            })
    }

    /// After the side to move has moved: the next turn (`done`: sides that make no more moves,
    /// such as a completed side; only asked under odds or different limits).
    #[inline(always)]
    pub fn next(&mut self, rules: &Rules, done: impl Fn(Color) -> bool) {
        if rules.alternate() {
            self.alternate();
        } else {
            self.advance(rules, done);
        }
    }

    /// After the side to move has moved, when the sides simply alternate ([`Rules::alternate`]).
    #[inline(always)]
    pub(crate) fn alternate(&mut self) {
        let i = self.side.index();
        self.made[i] = self.made[i].saturating_add(1);
        if self.side == Color::Red {
            self.number = self.number.saturating_add(1);
        }
        self.side = self.side.other();
    }

    /// After the side to move has moved, in the odds rhythm or with different limits: the next
    /// move is the next of the group, else the other side's group; the groups of a side that makes
    /// no more moves (at its limit, or `done`: completed) are passed over.
    #[cold]
    fn advance(&mut self, rules: &Rules, done: impl Fn(Color) -> bool) {
        let i = self.side.index();
        self.made[i] = self.made[i].saturating_add(1);
        self.run = self.run.saturating_add(1);
        self.settle(rules, done);
    }

    /// Hands the move on until a side that may move has it, and looks one move ahead: the move
    /// hands over when the other side moves next, or nobody does (both limits are then reached;
    /// the no-blockade rule keeps the opponent able to move, decision 142).
    fn settle(&mut self, rules: &Rules, done: impl Fn(Color) -> bool) {
        self.hand_on(rules, done);
        self.hands_over = rules.alternate() || {
            let mut next = *self;
            next.made[self.side.index()] = next.made[self.side.index()].saturating_add(1);
            next.run = next.run.saturating_add(1);
            next.hand_on(rules, |_| false);
            next.side != self.side || next.limit_reached(rules)
        };
    }

    /// Hands the move on while the side to move has finished its group or may not move (unless
    /// neither side may: the game is over).
    fn hand_on(&mut self, rules: &Rules, done: impl Fn(Color) -> bool) {
        let out = |turn: &Turn, c: Color| turn.at_limit(c, rules) || done(c);
        // Two hand-overs at most: to the other side, and past its group back again.
        for _ in 0..2 {
            let finished = self.run >= rules.group(self.side);
            let stopped = out(self, self.side);
            if !finished && !stopped || stopped && out(self, self.side.other()) {
                break;
            }
            if self.side == Color::Red {
                self.number = self.number.saturating_add(1);
            }
            self.side = self.side.other();
            self.run = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Turn;
    use crate::board::Color::{self, Green as G, Red as R};
    use crate::rules::{MoveLimit, Odds, Rules};

    /// The sides to move, move numbers and hand-overs of the first `plies` turns.
    fn rhythm(rules: &Rules, plies: usize) -> Vec<(Color, u32, bool)> {
        let mut turn = Turn::new(G, 1, rules);
        let mut out = Vec::new();
        for _ in 0..plies {
            out.push((turn.side(), turn.number(), turn.hands_over()));
            turn.next(rules, |_| false);
        }
        out
    }

    #[test]
    fn odds_move_in_groups_green_first() {
        let rules = Rules {
            odds: Odds::parse("red 3:2").unwrap(),
            ..Rules::default()
        };
        let expected = [
            (G, 1, false),
            (G, 1, true),
            (R, 1, false),
            (R, 1, false),
            (R, 1, true),
            (G, 2, false),
            (G, 2, true),
            (R, 2, false),
        ];
        assert_eq!(rhythm(&rules, 8), expected);
        // A Setup with Red to move at move 3 starts Red's group, Green having made its 3 groups.
        let turn = Turn::new(R, 3, &rules);
        assert_eq!((turn.made(G), turn.made(R), turn.run()), (6, 6, 0));
    }

    #[test]
    fn a_side_at_its_limit_is_passed_over() {
        let rules = Rules {
            move_limit: MoveLimit::parse("2/4").unwrap(),
            ..Rules::default()
        };
        let expected = [
            (G, 1, true),
            (R, 1, true),
            (G, 2, true),
            // Green has made its 2 moves: Red moves on alone, and the numbers go on.
            (R, 2, false),
            (R, 3, false),
            // After Red's last move neither side moves: the game ends, and the no-blockade rule
            // keeps the opponent able to move, as for a move that hands over.
            (R, 4, true),
        ];
        assert_eq!(rhythm(&rules, 6), expected);
        let mut turn = Turn::new(G, 1, &rules);
        for _ in 0..6 {
            turn.next(&rules, |_| false);
        }
        assert!(turn.limit_reached(&rules));
        assert_eq!((turn.made(G), turn.made(R)), (2, 4));
        // A pass written for Green before Red's move 3 is Green's turn 3.
        let mut at_three = Turn::new(G, 1, &rules);
        for _ in 0..4 {
            at_three.next(&rules, |_| false);
        }
        assert_eq!(at_three.passed(), (3, G));
        assert!(at_three.passed_over(&rules));
    }

    /// The turns, move numbers and passed-over turns, against a schedule written out round by
    /// round: Green's group, then Red's, each of the moves its limit still allows (none: the
    /// group is passed over, and the other side's next turn follows that pass).
    #[test]
    fn turns_follow_the_rounds_and_passes_follow_the_limits() {
        for odds in ["", "red 3:2", "green 3:2", "red 2:1", "green 5:4"] {
            for (green, red) in [(2, 4), (4, 2), (3, 3), (5, 9), (7, 1)] {
                let rules = Rules {
                    odds: Odds::parse(odds).unwrap(),
                    move_limit: Some(MoveLimit { green, red }),
                    ..Rules::default()
                };
                let mut schedule = Vec::new();
                let (mut made, mut skipped) = ([0u16; 2], false);
                for round in 1..=20u32 {
                    for side in [G, R] {
                        let limit = rules.move_limit.unwrap().of(side);
                        let moves = u16::from(rules.group(side)).min(limit - made[side.index()]);
                        for k in 0..moves {
                            schedule.push((side, round, k == 0 && skipped));
                            skipped = false;
                        }
                        made[side.index()] += moves;
                        skipped |= moves == 0;
                    }
                }
                let mut turn = Turn::new(G, 1, &rules);
                let mut seen = Vec::new();
                while !turn.limit_reached(&rules) {
                    seen.push((turn.side(), turn.number(), turn.passed_over(&rules)));
                    turn.next(&rules, |_| false);
                }
                assert_eq!(seen, schedule, "{odds} {green}/{red}");
                // A Setup at each of these turns starts where the game had come.
                for &(side, number, passed) in schedule.iter().filter(|t| t.2) {
                    let set_up = Turn::new(side, number, &rules);
                    assert!(set_up.passed_over(&rules), "{odds} {green}/{red} {number}");
                    assert_eq!(
                        set_up.passed(),
                        (number - u32::from(side == G), side.other())
                    );
                    assert!(!passed || set_up.at_limit(side.other(), &rules));
                }
            }
        }
    }
}
