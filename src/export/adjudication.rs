//! Adjudication of a position of a game (rules.md §5): who has completed, who wins and by how much,
//! each side's remaining count both ways, per-piece distances, and the move-limit verdict.

use crate::board::Color;
use crate::replay::Replay;
use crate::rules::margin::{Budget, Remaining, exact_remaining};
use crate::rules::{EndReason, Outcome, Position, Progress, Referee, Variant, limit_outcome};
use serde::Serialize;

/// Where the game stands at the adjudicated ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// Green has completed first and the game is over: Green wins.
    GreenCompleted,
    /// Red has completed first: Red wins.
    RedCompleted,
    /// Green completed first and Red completed with the compensating move: drawn.
    TempoDraw,
    /// Green has completed and Red's compensating move is still to come.
    AwaitingCompensation,
    /// The move limit has been reached: adjudicated on the remaining counts.
    LimitReached,
    /// The side to move has no move (only from a Setup position): undecided.
    Stuck,
    /// Pyramid: neither side can move; drawn.
    NoMoves,
    /// Both sides complete as set up.
    BothCompleted,
    /// Play goes on.
    Unfinished,
}

/// Where a game stands at a ply, and why: what `salta adjudicate` prints.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Adjudication {
    /// The ply adjudicated (0: the start; at most the plies played).
    pub ply: u32,
    /// The position, as a Setup line.
    pub setup: String,
    /// Where the game stands.
    pub status: Standing,
    /// The side that has won, if the game is decided.
    pub winner: Option<Color>,
    /// The winner's margin, when counted exactly.
    pub margin: Option<u32>,
    /// The proven lower and (if a plan was found) upper bounds of the margin, when the exact count
    /// ran out of budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_bounds: Option<(u32, Option<u32>)>,
    /// Why, in words.
    pub reason: String,
    /// Green's remaining moves.
    pub green: SideCount,
    /// Red's remaining moves.
    pub red: SideCount,
    /// The verdict of the move limit if the game stopped here (when a limit is in force).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_limit: Option<LimitVerdict>,
}

/// A side's remaining moves: ignoring all pieces (the seeds' count), and exact with its own pieces
/// blocking and the opponent removed (the margin count).
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct SideCount {
    /// Whether every piece of the side stands on its target.
    pub complete: bool,
    /// The sum of the pieces' distances to their targets, ignoring every other piece.
    pub free: u32,
    /// The fewest moves to complete with the side's own pieces in the way, when counted exactly.
    pub exact: Option<u32>,
    /// Proven lower and (if a plan was found) upper bounds, when the exact count ran out of budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_bounds: Option<(u32, Option<u32>)>,
    /// Each piece's distance to its target.
    pub pieces: Vec<PieceDistance>,
}

/// How far one piece stands from its target.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct PieceDistance {
    /// `Su3`, or `piece 4` in Pyramid.
    pub piece: String,
    /// The historical number of the square it stands on.
    pub square: u8,
    /// The piece's own target (Pyramid: the nearest target square).
    pub target: u8,
    /// Its distance to the target in diagonal steps, ignoring every other piece.
    pub distance: u32,
}

/// What the move limit would decide if the game stopped at the adjudicated ply.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct LimitVerdict {
    /// Green's limit and the moves Green has made.
    pub green: SideLimit,
    /// Red's limit and the moves Red has made.
    pub red: SideLimit,
    /// Both sides have made their moves: the counts decide.
    pub reached: bool,
    /// The side the remaining counts favour, if either.
    pub winner: Option<Color>,
    /// By how many moves, when counted exactly.
    pub margin: Option<u32>,
    /// The verdict in words.
    pub reason: String,
}

/// A side's move limit (handicap games give each side its own) and the moves it has made.
#[derive(Clone, Copy, Debug, Serialize)]
#[non_exhaustive]
pub struct SideLimit {
    /// The moves the side may make.
    pub limit: u16,
    /// The moves it has made at the adjudicated ply.
    pub made: u16,
}

/// Adjudicates the main line after `ply` plies (0: the start). A `budget` without a time limit
/// (`Budget::default().max_time(None)`, as `salta adjudicate` uses) gives the same verdict on
/// every run; with one, a hard count may stop at other bounds on a busier machine.
pub fn adjudicate(replay: &Replay, ply: u32, budget: &Budget) -> Adjudication {
    let ply = ply.min(replay.plies());
    let mut pos = *replay.start();
    let mut referee = Referee::new(&pos, Some(*budget));
    // Whether Red was owed the compensating move (under odds it may not be).
    let mut compensation = matches!(referee.progress(), Progress::Compensating(_));
    for (_, _, after) in replay.positions().take(ply as usize) {
        pos = after;
        compensation |= matches!(referee.after_move(&pos), Progress::Compensating(_));
    }
    let pos = &pos;
    let counted = counted_here(pos, referee.progress());
    let count = |color| match counted {
        Some((loser, count)) if loser == color => count,
        _ => exact_remaining(pos, color, budget),
    };
    let green = side_count(pos, Color::Green, count(Color::Green));
    let red = side_count(pos, Color::Red, count(Color::Red));
    let (status, outcome) = match referee.progress() {
        Progress::Ended(o) => (standing(o.reason), Some(o)),
        Progress::Compensating(_) => (
            Standing::AwaitingCompensation,
            referee.outcome_at_end_of_record(),
        ),
        Progress::Playing => (Standing::Unfinished, None),
    };
    let margin = outcome.and_then(|o| o.margin);
    let reason = explain(
        status,
        outcome.and_then(|o| o.winner),
        compensation,
        pos.rules().variant == Variant::Pyramid,
        &green,
        &red,
    );
    let move_limit = replay.rules.move_limit.map(|limit| {
        let verdict = limit_outcome(pos);
        let side = |color| SideLimit {
            limit: limit.of(color),
            made: pos.turn().made(color),
        };
        let (green, red) = (side(Color::Green), side(Color::Red));
        let margin = verdict.margin.and_then(|m| m.exact());
        LimitVerdict {
            reason: limit_reason(green, red, verdict.winner, margin, &counts(pos)),
            green,
            red,
            reached: status == Standing::LimitReached,
            winner: verdict.winner,
            margin,
        }
    });
    Adjudication {
        ply,
        setup: pos.to_setup(),
        status,
        winner: outcome.and_then(|o| o.winner),
        margin: margin.and_then(|m| m.exact()),
        margin_bounds: bounds(margin),
        reason,
        green,
        red,
        move_limit,
    }
}

/// The remaining counts ignoring all pieces, as the limit's verdict compares them.
fn counts(pos: &Position) -> String {
    format!(
        "Green {}, Red {} to go ignoring all pieces",
        pos.free_count(Color::Green),
        pos.free_count(Color::Red)
    )
}

/// The move-limit verdict in words: each side's moves against its limit, who passes, and what
/// the counts say.
fn limit_reason(
    green: SideLimit,
    red: SideLimit,
    winner: Option<Color>,
    margin: Option<u32>,
    counts: &str,
) -> String {
    let side =
        |name: &str, s: SideLimit| format!("{name} has made {} of {} moves", s.made, s.limit);
    let mut out = format!("{}, {}", side("Green", green), side("Red", red));
    let done = |s: SideLimit| s.made >= s.limit;
    match (done(green), done(red)) {
        (true, true) => out += "; both limits are reached",
        (true, false) => out += "; Green has reached its limit and passes while Red plays on",
        (false, true) => out += "; Red has reached its limit and passes while Green plays on",
        (false, false) => {}
    }
    let verdict = match (winner, margin) {
        (Some(w), Some(m)) => format!("{w} wins by {m}"),
        _ => "equal counts draw (Green's compensating point included)".to_string(),
    };
    let when = if done(green) && done(red) {
        ""
    } else {
        " if the game stopped here"
    };
    format!("{out}; {counts}: {verdict}{when}")
}

/// The loser's count that the referee has already made in `pos` itself (when the game ended with
/// a completion in it, or awaits Red's compensating move there), so that it is counted once and
/// the margin and the side's count agree. (After Red's compensating move the margin is Red's
/// count when Green completed, a position before this one.)
fn counted_here(pos: &Position, progress: Progress) -> Option<(Color, Remaining)> {
    match progress {
        Progress::Compensating(red) => Some((Color::Red, red)),
        Progress::Ended(Outcome {
            winner: Some(winner),
            margin: Some(margin),
            reason: EndReason::RedCompleted,
        }) => Some((winner.other(), margin)),
        Progress::Ended(Outcome {
            winner: Some(winner),
            margin: Some(margin),
            reason: EndReason::GreenCompleted,
        }) if pos.rules().variant == Variant::Pyramid => Some((winner.other(), margin)),
        _ => None,
    }
}

fn standing(reason: EndReason) -> Standing {
    match reason {
        EndReason::GreenCompleted => Standing::GreenCompleted,
        EndReason::RedCompleted => Standing::RedCompleted,
        EndReason::TempoDraw => Standing::TempoDraw,
        EndReason::MoveLimit => Standing::LimitReached,
        EndReason::Stuck => Standing::Stuck,
        EndReason::NoMoves => Standing::NoMoves,
        EndReason::BothCompleted => Standing::BothCompleted,
    }
}

fn bounds(r: Option<Remaining>) -> Option<(u32, Option<u32>)> {
    r.and_then(|r| r.bounds())
}

/// A side's counts, with `exact` its count with its own pieces blocking.
fn side_count(pos: &Position, color: Color, exact: Remaining) -> SideCount {
    let g = pos.geometry();
    let pyramid = pos.rules().variant == Variant::Pyramid;
    let targets = pos.target_squares(color);
    let pieces = pos
        .pieces_of(color)
        .map(|(piece, sq)| {
            let target = if pyramid {
                targets.min_by_key(|&t| g.distance(sq, t)).unwrap_or(sq)
            } else {
                pos.target(piece)
            };
            PieceDistance {
                piece: if pyramid {
                    format!("piece {}", piece.id() + 1)
                } else {
                    piece.designator()
                },
                square: g.number(sq),
                target: g.number(target),
                distance: g.distance(sq, target) as u32,
            }
        })
        .collect();
    SideCount {
        complete: pos.is_complete(color),
        free: pos.free_count(color),
        exact: exact.exact(),
        exact_bounds: bounds(Some(exact)),
        pieces,
    }
}

fn count_text(c: &SideCount) -> String {
    let exact = match (c.exact, c.exact_bounds) {
        (Some(n), _) => n.to_string(),
        (None, Some((lo, Some(hi)))) => format!("{lo}–{hi} (bounds)"),
        (None, Some((lo, None))) => format!("at least {lo}"),
        (None, None) => "?".to_string(),
    };
    format!(
        "{exact} with its own pieces blocking, {} ignoring all pieces",
        c.free
    )
}

fn explain(
    status: Standing,
    winner: Option<Color>,
    compensation: bool,
    pyramid: bool,
    green: &SideCount,
    red: &SideCount,
) -> String {
    let loser = |c: Color| {
        if c == Color::Green {
            ("Green", green)
        } else {
            ("Red", red)
        }
    };
    match (status, winner) {
        (Standing::GreenCompleted, Some(Color::Green)) if pyramid => {
            "Green completed first (Pyramid has no compensating move): Green wins by Red's \
             remaining count"
                .into()
        }
        (Standing::GreenCompleted, Some(Color::Green)) if !compensation => format!(
            "Green completed first and Red, having made as many moves as Green (odds) or being at \
             its limit, is owed no compensating move: Green wins by Red's remaining count, {}",
            count_text(red)
        ),
        (Standing::GreenCompleted, Some(Color::Green)) => {
            "Green completed first and Red's compensating move did not complete Red: Green wins by \
             Red's remaining count when Green completed, less the compensating move"
                .into()
        }
        (Standing::AwaitingCompensation, Some(Color::Green)) => {
            "Green completed first and no single move completes Red: Green wins by Red's remaining \
             count, less Red's compensating move"
                .into()
        }
        (Standing::RedCompleted, Some(w)) => {
            let (name, c) = loser(w.other());
            format!("Red completed first; {name} still needs {}", count_text(c))
        }
        (Standing::TempoDraw, _) => {
            "Green completed first and Red completed with the compensating move: drawn".into()
        }
        (Standing::LimitReached, Some(w)) => format!(
            "the move limit was reached; {w} has fewer moves to go ignoring all pieces (Green {}, Red {})",
            green.free, red.free
        ),
        (Standing::LimitReached, None) => {
            format!(
                "the move limit was reached with equal counts ignoring all pieces ({}): drawn",
                green.free
            )
        }
        (Standing::AwaitingCompensation, _) => {
            "Green completed first; Red's compensating move could still complete Red and draw"
                .into()
        }
        (Standing::Stuck, _) => "the side to move has no move: the game ends undecided".into(),
        (Standing::NoMoves, _) => "neither side can move: drawn".into(),
        (Standing::BothCompleted, _) => "both sides are complete as set up: drawn".into(),
        _ => format!(
            "the game goes on: Green needs {}; Red needs {}",
            count_text(green),
            count_text(red)
        ),
    }
}
