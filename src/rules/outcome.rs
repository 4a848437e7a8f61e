//! The end of a game (rules.md §5): completion, Red's compensating move and the tempo draw, the
//! margin, the optional move limit, and stuck positions.

use super::margin::{Budget, Remaining, exact_remaining};
use super::{OwnRules, Position, RulesSource, Variant};
use crate::board::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// Green completed first and Red's compensating move did not complete Red.
    GreenCompleted,
    /// Red completed first.
    RedCompleted,
    /// Green completed first and Red completed with the compensating move.
    TempoDraw,
    /// The move limit was reached; the free counts decided.
    MoveLimit,
    /// The side to move has no move at all (only from a Setup position); undecided.
    Stuck,
    /// Pyramid: neither side can move; drawn.
    NoMoves,
    /// Both sides complete from the start (only from a Setup position); drawn.
    BothCompleted,
}

impl EndReason {
    /// The reason in words, as reports print it ("Green completed first").
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::GreenCompleted => "Green completed first",
            EndReason::RedCompleted => "Red completed first",
            EndReason::TempoDraw => {
                "Green completed first and Red completed with the compensating move"
            }
            EndReason::MoveLimit => "the move limit was reached",
            EndReason::Stuck => "the side to move has no move",
            EndReason::NoMoves => "neither side can move",
            EndReason::BothCompleted => "both sides are complete",
        }
    }
}

/// A finished game: who won, by how much, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Outcome {
    /// The side that won; `None` for a draw or an undecided end.
    pub winner: Option<Color>,
    /// The points won by (rules.md §5); `None` for draws and undecided ends.
    pub margin: Option<Remaining>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl std::fmt::Display for Outcome {
    /// "Red won by 27 (Red completed first)", "drawn (neither side can move)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.winner, self.reason) {
            (Some(winner), _) => write!(f, "{winner} won")?,
            (None, EndReason::Stuck) => f.write_str("undecided")?,
            (None, _) => f.write_str("drawn")?,
        }
        match self.margin {
            Some(Remaining::Exact(n)) => write!(f, " by {n}")?,
            Some(Remaining::Bounds {
                lower,
                upper: Some(upper),
            }) => {
                write!(f, " by {lower} to {upper}")?;
            }
            Some(Remaining::Bounds { lower, upper: None }) => write!(f, " by at least {lower}")?,
            Some(Remaining::Unreachable) | None => {}
        }
        write!(f, " ({})", self.reason.describe())
    }
}

/// Where a game stands after some plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Play goes on.
    Playing,
    /// Green has completed; Red has one compensating move. Holds Red's count at that moment: exact
    /// when margins are counted, else the free count as a lower bound.
    Compensating(Remaining),
    /// The game is over.
    Ended(Outcome),
}

impl Progress {
    /// Where the game stands after a move to `pos` from here, with no margin counted: the
    /// referee's judgement, on the way perft walks the legal-move tree (decision 150).
    pub(crate) fn after_move(self, pos: &Position) -> Progress {
        let rules = pos.rules();
        let goes_on = matches!(self, Progress::Playing)
            && !pos.is_complete(Color::Green)
            && !pos.is_complete(Color::Red)
            && (rules.move_limit.is_none() || !pos.turn().limit_reached(rules));
        if goes_on {
            // A side without a move has no moves to count: nothing to judge.
            return Progress::Playing;
        }
        Referee {
            margins: None,
            progress: self,
        }
        .judge_move(pos)
    }
}

/// Follows a game ply by ply and says when and how it ends.
#[derive(Clone, Debug)]
pub struct Referee {
    /// Effort for exact margin counts; `None`: margins are not counted (they are the costly part).
    margins: Option<Budget>,
    progress: Progress,
}

impl Referee {
    /// Starts refereeing from `pos` (which may already be finished, for a Setup position). With
    /// `margins`, each win's margin is counted exactly within that budget; without, it is left out.
    pub fn new(pos: &Position, margins: Option<Budget>) -> Referee {
        let mut referee = Referee {
            margins,
            progress: Progress::Playing,
        };
        referee.progress = referee.judge(pos, None);
        referee
    }

    /// The same referee, counting each win's margin within `margins` from now on (`None`: not
    /// counting). A count made before stays as it was.
    pub fn counting_margins(self, margins: Option<Budget>) -> Referee {
        Referee { margins, ..self }
    }

    /// Where the game stands after the positions seen so far.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// The outcome, once the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.progress {
            Progress::Ended(o) => Some(o),
            _ => None,
        }
    }

    /// Whether another move may be played.
    pub fn accepts_moves(&self) -> bool {
        !matches!(self.progress, Progress::Ended(_))
    }

    /// Records that a move was played, leading to `pos`. Inlined: the replayer calls it once a ply,
    /// and nearly always play simply goes on.
    #[inline(always)]
    pub fn after_move(&mut self, pos: &Position) -> Progress {
        self.after_move_where(pos, false)
    }

    /// [`Referee::after_move`] for a caller that may already know that the side to move can move
    /// in `pos` (`side_can_move`; `false`: not known), which spares the referee that test.
    #[inline(always)]
    pub fn after_move_where(&mut self, pos: &Position, side_can_move: bool) -> Progress {
        self.after_move_under(OwnRules, pos, side_can_move)
    }

    /// [`Referee::after_move_where`] under the rules `source` gives.
    #[inline(always)]
    pub(crate) fn after_move_under(
        &mut self,
        source: impl RulesSource,
        pos: &Position,
        side_can_move: bool,
    ) -> Progress {
        if !matches!(self.progress, Progress::Playing)
            || !Self::surely_goes_on(source, pos, side_can_move)
        {
            self.progress = self.judge_move(pos);
        }
        self.progress
    }

    /// A cheap test that play goes on after a move to `pos` while the game was being played:
    /// neither side was complete before the move (or the game would be ending) and only the
    /// mover's pieces moved, so only the mover can have completed; no move limit has been reached;
    /// and the side to move can move. When it fails, [`Referee::judge_move`] decides.
    #[inline(always)]
    fn surely_goes_on(source: impl RulesSource, pos: &Position, side_can_move: bool) -> bool {
        let side = pos.side_to_move();
        let rules = source.of(pos);
        let within_limit = rules.move_limit.is_none() || !pos.turn().limit_reached(&rules);
        // Under odds or different limits the mover may still be to move.
        let complete = |color| pos.is_complete_under(source, color);
        let mover_done = if rules.alternate() {
            complete(side.other())
        } else {
            complete(side.other()) || complete(side)
        };
        within_limit && !mover_done && (side_can_move || pos.can_move_under(source, side))
    }

    /// Where the game stands after a move to `pos`.
    #[cold]
    fn judge_move(&self, pos: &Position) -> Progress {
        match self.progress {
            Progress::Ended(o) => Progress::Ended(o),
            Progress::Compensating(red_count) => Progress::Ended(if pos.is_complete(Color::Red) {
                Outcome {
                    winner: None,
                    margin: None,
                    reason: EndReason::TempoDraw,
                }
            } else {
                self.green_wins(red_count)
            }),
            Progress::Playing => self.judge(pos, Some(pos.side_to_move().other())),
        }
    }

    /// The outcome if the record stops here: a game awaiting only Red's compensating move is decided
    /// when no single move can complete Red.
    pub fn outcome_at_end_of_record(&self) -> Option<Outcome> {
        match self.progress {
            Progress::Ended(o) => Some(o),
            Progress::Compensating(red_count) if red_count.lower().is_none_or(|n| n >= 2) => {
                Some(self.green_wins(red_count))
            }
            _ => None,
        }
    }

    fn judge(&self, pos: &Position, mover: Option<Color>) -> Progress {
        let rules = pos.rules();
        let green = pos.is_complete(Color::Green);
        let red = pos.is_complete(Color::Red);
        if green || red {
            return self.completed(pos, green, red, mover);
        }
        if rules.move_limit.is_some() && pos.turn().limit_reached(rules) {
            return Progress::Ended(limit_outcome(pos));
        }
        // A side with any raw move has a legal one (the no-blockade rule yields), and a Pyramid
        // side without one passes while the opponent can move.
        let side = pos.side_to_move();
        let stuck = !pos.can_move(side)
            && (rules.variant != Variant::Pyramid || !pos.can_move(side.other()));
        if stuck {
            let reason = if rules.variant == Variant::Pyramid {
                EndReason::NoMoves
            } else {
                EndReason::Stuck
            };
            return Progress::Ended(Outcome {
                winner: None,
                margin: None,
                reason,
            });
        }
        Progress::Playing
    }

    /// Where the game stands once a side has completed (at most once a game: kept out of the
    /// per-ply path).
    #[cold]
    fn completed(&self, pos: &Position, green: bool, red: bool, mover: Option<Color>) -> Progress {
        let count = |color| match &self.margins {
            Some(budget) => exact_remaining(pos, color, budget),
            None => Remaining::Bounds {
                lower: pos.free_count(color),
                upper: None,
            },
        };
        let margin = |color| self.margins.is_some().then(|| count(color));
        // Normally only the side that just moved can have completed.
        let completer = match (green, red, mover) {
            (true, true, Some(m)) => m,
            (true, false, _) | (true, true, None) => Color::Green,
            _ => Color::Red,
        };
        match (completer, pos.rules().variant) {
            // Set up so: nobody completed first, under any variant.
            _ if green && red && mover.is_none() => Progress::Ended(Outcome {
                winner: None,
                margin: None,
                reason: EndReason::BothCompleted,
            }),
            (Color::Green, Variant::Pyramid) => Progress::Ended(Outcome {
                winner: Some(Color::Green),
                margin: margin(Color::Red),
                reason: EndReason::GreenCompleted,
            }),
            (Color::Green, _) if red => Progress::Ended(Outcome {
                winner: None,
                margin: None,
                reason: EndReason::TempoDraw,
            }),
            (Color::Green, _) if compensation_due(pos) => Progress::Compensating(count(Color::Red)),
            // No compensating move is due: Green wins by Red's whole count.
            (Color::Green, _) => Progress::Ended(Outcome {
                winner: Some(Color::Green),
                margin: margin(Color::Red),
                reason: EndReason::GreenCompleted,
            }),
            (Color::Red, _) => Progress::Ended(Outcome {
                winner: Some(Color::Red),
                margin: margin(Color::Green),
                reason: EndReason::RedCompleted,
            }),
        }
    }

    /// Green completed first: Green wins by Red's count minus Red's compensating move.
    fn green_wins(&self, red_count: Remaining) -> Outcome {
        let minus_one = |n: u32| n.saturating_sub(1);
        let margin = match red_count {
            Remaining::Exact(n) => Remaining::Exact(minus_one(n)),
            Remaining::Bounds { lower, upper } => Remaining::Bounds {
                lower: minus_one(lower),
                upper: upper.map(minus_one),
            },
            Remaining::Unreachable => Remaining::Unreachable,
        };
        Outcome {
            winner: Some(Color::Green),
            margin: self.margins.is_some().then_some(margin),
            reason: EndReason::GreenCompleted,
        }
    }
}

/// Whether Red gets the compensating move after Green completes: only if Red has made fewer moves
/// than Green (always so when the sides alternate from the start; under odds the weaker Red may
/// be ahead) and may still move under its limit.
fn compensation_due(pos: &Position) -> bool {
    let made = |c| pos.turn().made(c);
    made(Color::Red) < made(Color::Green) && !pos.at_limit(Color::Red)
}

/// The move-limit adjudication: fewer remaining moves (ignoring all pieces) wins by the difference.
pub fn limit_outcome(pos: &Position) -> Outcome {
    let green = pos.free_count(Color::Green);
    let red = pos.free_count(Color::Red);
    let (winner, margin) = match green.cmp(&red) {
        std::cmp::Ordering::Less => (Some(Color::Green), Some(Remaining::Exact(red - green))),
        std::cmp::Ordering::Greater => (Some(Color::Red), Some(Remaining::Exact(green - red))),
        std::cmp::Ordering::Equal => (None, None),
    };
    Outcome {
        winner,
        margin,
        reason: EndReason::MoveLimit,
    }
}

#[cfg(test)]
mod tests {
    use super::{Progress, Referee};
    use crate::rules::{MoveLimit, Odds, Position, Rules, Variant};

    /// The side the no-blockade rule keeps able to move (decision 142), checked against the
    /// game's own course in playouts under odds and limits, from the start and from positions a
    /// few moves from completion: after each legal move it is the side the turn then falls to,
    /// or the opponent when the referee says the game is over; and the legal moves all leave
    /// that side a move, or (the rule yielding) none of them does.
    #[test]
    fn the_no_blockade_rule_keeps_the_side_that_moves_next_mobile() {
        let near_the_end = [
            // Three stars a side one rank short of their targets.
            "G/71,72,73,84,85,91,92,93,94,95,101,102,103,104,105/45,44,43,32,31,25,24,23,22,21,15,14,13,12,11",
            "R/71,82,73,84,75,91,92,93,94,95,101,102,103,104,105/35,44,33,42,31,25,24,23,22,21,15,14,13,12,11",
            // A few pieces a side, close to the corners.
            "G/-,-,-,-,-,-,-,-,-,-,84,-,-,-,94/95,-,-,-,-,-,-,-,-,-,-,-,-,-,12",
        ];
        let mut random = crate::rules::xorshift(0x9e37_79b9_7f4a_7c15);
        let (mut judged, mut ends, mut mover_kept) = (0, 0, 0);
        for odds in ["", "red 3:2", "green 3:2", "red 2:1", "green 5:4"] {
            for move_limit in [None, Some((3, 5)), Some((6, 4)), Some((4, 4))] {
                let rules = Rules {
                    odds: Odds::parse(odds).unwrap(),
                    move_limit: move_limit.map(|(green, red)| MoveLimit { green, red }),
                    ..Rules::default()
                };
                let starts = std::iter::once(Position::start(rules)).chain(
                    near_the_end
                        .iter()
                        .map(|line| Position::from_setup(line, rules).unwrap()),
                );
                for start in starts {
                    for _ in 0..6 {
                        let (mut pos, mut referee) = (start, Referee::new(&start, None));
                        for _ in 0..60 {
                            if !referee.accepts_moves() {
                                break;
                            }
                            let legal = pos.legal_moves();
                            let mut kept = 0;
                            for &m in legal.iter() {
                                let after = pos.after_unchecked(m);
                                let mut next = referee.clone();
                                let expected = match next.after_move(&after) {
                                    Progress::Ended(_) => {
                                        ends += 1;
                                        pos.side_to_move().other()
                                    }
                                    _ => after.side_to_move(),
                                };
                                assert_eq!(pos.side_to_keep_mobile(m), expected, "{pos:?} {m:?}");
                                mover_kept += usize::from(expected == pos.side_to_move());
                                kept += usize::from(after.can_move(expected));
                                judged += 1;
                            }
                            assert!(kept == 0 || kept == legal.len(), "{pos:?}");
                            if legal.is_empty() {
                                break;
                            }
                            // Half the moves bring the mover nearer its targets: games end.
                            let side = pos.side_to_move();
                            let m = if random(2) == 0 {
                                legal.as_slice()[random(legal.len())]
                            } else {
                                *legal
                                    .iter()
                                    .min_by_key(|&&m| pos.after_unchecked(m).free_count(side))
                                    .unwrap()
                            };
                            pos.play_unchecked(m);
                            referee.after_move(&pos);
                        }
                    }
                }
            }
        }
        assert!(
            judged > 10_000 && ends > 100 && mover_kept > 1_000,
            "{judged} moves judged, {ends} ending the game, {mover_kept} keeping the mover"
        );
    }

    /// The referee's per-move shortcut decides as the full judgement does, ply by ply, in random
    /// playouts with and without a move limit (which ends them), the same for both sides or one
    /// each, with and without odds.
    #[test]
    fn the_shortcut_after_a_move_judges_as_the_full_judgement() {
        let mut random = crate::rules::xorshift(0x2545_f491_4f6c_dd1d);
        let mut ended = 0;
        for variant in [Variant::Salta, Variant::Winther, Variant::Pyramid] {
            for (move_limit, odds) in [
                (None, None),
                (Some(MoveLimit::both(20).unwrap()), None),
                (Some(MoveLimit::both(45).unwrap()), None),
                (Some(MoveLimit::new(20, 30).unwrap()), None),
                (
                    Some(MoveLimit::both(40).unwrap()),
                    Odds::parse("red 3:2").unwrap(),
                ),
                (
                    Some(MoveLimit::new(50, 35).unwrap()),
                    Odds::parse("green 3:1").unwrap(),
                ),
            ] {
                for _ in 0..4 {
                    let rules = Rules {
                        move_limit,
                        odds,
                        ..Rules::of(variant)
                    };
                    let mut pos = Position::start(rules);
                    let mut referee = Referee::new(&pos, None);
                    let mut full = referee.clone();
                    while referee.accepts_moves() {
                        let legal = pos.legal_moves();
                        let m = legal.as_slice()[random(legal.len())];
                        pos.play_unchecked(m);
                        let shortcut = referee.after_move(&pos);
                        full.progress = full.judge_move(&pos);
                        assert_eq!(shortcut, full.progress, "{pos:?}");
                        if pos.move_number() > 400 {
                            break;
                        }
                    }
                    ended += usize::from(matches!(referee.progress(), Progress::Ended(_)));
                }
            }
        }
        assert!(ended >= 60, "the move limits end the limited games");
    }
}
