//! Perft: the leaves of the legal-move tree, the move generator's test and benchmark (rules.md
//! §7). A game that has ended has no moves (decision 150).

use super::{Move, Position, Progress, Referee};
use crate::board::Color;

/// Counts the leaves of the legal-move tree to `depth` plies (a pass is a ply). A game ends as
/// the replayer ends it: a position where it has ended (a completion, Red's compensating move
/// made, both move limits reached) has no moves below it, and is a leaf only at depth 0, as a
/// mate is in chess.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let progress = Referee::new(pos, None).progress();
    if may_end_within(pos, progress, depth) {
        to_the_end(pos, progress, depth)
    } else {
        playing(pos, depth)
    }
}

/// The leaf count under each first move, as chess perft tools print with `divide`.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let progress = Referee::new(pos, None).progress();
    if matches!(progress, Progress::Ended(_)) {
        return Vec::new();
    }
    let g = pos.geometry();
    pos.legal_moves()
        .sorted(g)
        .into_iter()
        .map(|m| {
            let next = pos.after_unchecked(m);
            let depth = depth.saturating_sub(1);
            (m, to_the_end(&next, progress.after_move(&next), depth))
        })
        .collect()
}

/// Whether the game can end within `depth` plies of `pos`: it has, or there is a move limit, or
/// a side is near enough its targets (a move brings a piece at most two ranks nearer, by a
/// jump). From the start no game ends within any depth perft can count, so the count there
/// asks nothing more of each position than the legal moves.
fn may_end_within(pos: &Position, progress: Progress, depth: u32) -> bool {
    !matches!(progress, Progress::Playing)
        || pos.rules().move_limit.is_some()
        || [Color::Green, Color::Red]
            .iter()
            .any(|&c| pos.free_count(c) <= depth.saturating_mul(2))
}

/// Perft where the game cannot end.
fn playing(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.legal_move_count() as u64;
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| playing(&pos.after_unchecked(m), depth - 1))
        .sum()
}

/// Perft where the game may end: `progress` says where it stands at `pos`.
fn to_the_end(pos: &Position, progress: Progress, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if matches!(progress, Progress::Ended(_)) {
        return 0;
    }
    if depth == 1 {
        return pos.legal_move_count() as u64;
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            let next = pos.after_unchecked(m);
            to_the_end(&next, progress.after_move(&next), depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::perft;
    use crate::rules::{MoveLimit, Odds, Position, Progress, Referee, Rules};

    /// The legal-move tree as the replayer plays it, counted without a shortcut: every position
    /// judged by the referee in full.
    fn replayed_leaves(pos: &Position, referee: &Referee, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if !referee.accepts_moves() {
            return 0;
        }
        pos.legal_moves()
            .iter()
            .map(|&m| {
                let next = pos.after_unchecked(m);
                let mut after = referee.clone();
                after.after_move(&next);
                replayed_leaves(&next, &after, depth - 1)
            })
            .sum()
    }

    /// Perft stops where the game ends, near the end under odds and limits, as the replayer's
    /// referee would; from the start it counts as before (rules.md §7).
    #[test]
    fn perft_counts_no_moves_after_the_end() {
        let near_the_end = [
            "G/71,72,73,84,85,91,92,93,94,95,101,102,103,104,105/45,44,43,32,31,25,24,23,22,21,15,14,13,12,11",
            "R/71,82,73,84,75,91,92,93,94,95,101,102,103,104,105/35,44,33,42,31,25,24,23,22,21,15,14,13,12,11",
            // Green complete, Red to make the compensating move.
            "R/81,82,83,84,85,91,92,93,94,95,101,102,103,104,105/45,34,33,32,31,25,24,23,22,21,15,14,13,12,11",
        ];
        let mut ended_early = 0;
        for odds in ["", "red 3:2", "green 3:2"] {
            for move_limit in [None, Some(MoveLimit { green: 2, red: 3 })] {
                let rules = Rules {
                    odds: Odds::parse(odds).unwrap(),
                    move_limit,
                    ..Rules::default()
                };
                for line in near_the_end {
                    let pos = Position::from_setup(line, rules).unwrap();
                    let referee = Referee::new(&pos, None);
                    for depth in 0..=4 {
                        let expected = replayed_leaves(&pos, &referee, depth);
                        assert_eq!(perft(&pos, depth), expected, "{line} {odds} {depth}");
                        let unchecked = super::playing(&pos, depth);
                        ended_early += usize::from(unchecked != expected);
                    }
                }
            }
        }
        assert!(
            ended_early > 10,
            "the games end within the depths: {ended_early}"
        );
        let start = Position::start(Rules::default());
        assert_eq!(Referee::new(&start, None).progress(), Progress::Playing);
        assert_eq!(perft(&start, 4), 9801);
    }
}
