//! How the repair search fares on slipped records: the first break's readings against the
//! record's main line before the slip, and the whole record mended as `salta repair` mends it.

use super::{Slipped, inject, inject_two, quick_options, search_options};
use crate::notation::Game;
use crate::repair::{Mended, SlipKind, analyse, apply, breaks_main_line, mend};
use crate::replay::replay;
use std::time::{Duration, Instant};

/// One slip of every kind into each game for each seed in `seeds`, judged: the first break's
/// readings, and the record mended whole.
pub fn trial_run(
    games: &[Game],
    seeds: std::ops::Range<u64>,
) -> Vec<(SlipKind, usize, Verdict, Mending)> {
    let mut out = Vec::new();
    for kind in SlipKind::ALL {
        for (g, game) in games.iter().enumerate() {
            for seed in seeds.clone() {
                if let Some(slipped) = inject(game, kind, seed * 1000 + g as u64) {
                    out.push((kind, g, judge(&slipped), judge_mend(&slipped)));
                }
            }
        }
    }
    out
}

/// Two slips into each game for each seed and each pair of kinds in `pairs`, side by side
/// (`adjacent`) or far apart, mended whole.
pub fn two_slip_run(
    games: &[Game],
    seeds: std::ops::Range<u64>,
    pairs: &[(SlipKind, SlipKind)],
    adjacent: bool,
) -> Vec<((SlipKind, SlipKind), usize, Mending)> {
    let mut out = Vec::new();
    for &(first, second) in pairs {
        for (g, game) in games.iter().enumerate() {
            for seed in seeds.clone() {
                let seed = seed * 1000 + g as u64;
                if let Some(slipped) = inject_two(game, first, second, adjacent, seed) {
                    out.push(((first, second), g, judge_mend(&slipped)));
                }
            }
        }
    }
    out
}

/// How the repair search fared on a slipped record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verdict {
    /// The place (0: first) of the first suggestion that gives back the meant main line.
    pub rank: Option<usize>,
    /// The record broke only after the slip's own move (the slip was itself a legal move).
    pub caught_later: bool,
    /// How many readings fare exactly as the first one (itself included; see
    /// [`crate::repair::Suggestion::equally_good`]): more than one when the record cannot tell them
    /// apart, as when both reach the end with the same result and margin.
    pub tied: usize,
    /// The time the search took to find and read the break.
    pub search: Duration,
}

impl Verdict {
    /// The right reading is not first, but fares exactly as the first one: nothing in the record
    /// prefers either (a genuine tie, both offered).
    pub fn lost_tie(&self) -> bool {
        self.rank.is_some_and(|r| r > 0 && r < self.tied)
    }
}

/// Reads the first break of a slipped record and says whether its suggestions restore the main
/// line the record had before the slip.
pub fn judge(slipped: &Slipped) -> Verdict {
    let opts = quick_options();
    let started = Instant::now();
    let analysis = analyse(&slipped.game, &search_options(), 1);
    let search = started.elapsed();
    let Some(first) = analysis.breaks.first() else {
        return Verdict {
            rank: None,
            caught_later: false,
            tied: 0,
            search,
        };
    };
    let rank = first.suggestions.iter().position(|s| {
        let repaired = replay(&apply(&slipped.game, &[s]), &opts);
        repaired.moves == slipped.meant && !repaired.findings.iter().any(breaks_main_line)
    });
    // Readings that differ only in where they stand, each replaying to the end with the same
    // result and margin (two transpositions of moves that commute, say): nothing in the record
    // tells them apart.
    let tied = match first.suggestions.split_first() {
        Some((best, rest)) if best.to_end => {
            1 + rest.iter().take_while(|s| s.equally_good(best)).count()
        }
        Some(_) => 1,
        None => 0,
    };
    Verdict {
        rank,
        caught_later: first.token > slipped.at,
        tied,
        search,
    }
}

/// How `salta repair`'s mending fared on a slipped record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Mending {
    /// The record was mended to the main line it had before the slips.
    pub restored: bool,
    /// It was mended, to that line or another (`false`: left unrepaired).
    pub mended: bool,
    /// The edits made.
    pub edits: usize,
    /// The time the mending took.
    pub time: Duration,
    /// The CPU time the mending took on its thread (Linux; zero elsewhere): the record's own
    /// cost, whatever else the machine runs, counted in scheduler ticks (a few milliseconds).
    pub cpu: Duration,
}

/// The CPU time this thread has run, from /proc (Linux); zero elsewhere.
pub fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .unwrap_or_default()
}

/// Mends a slipped record as `salta repair` does by default and says whether it gives back the
/// main line the record had before the slips.
pub fn judge_mend(slipped: &Slipped) -> Mending {
    let started = Instant::now();
    let cpu_before = thread_cpu();
    let mended = mend(
        &slipped.game,
        &search_options(),
        crate::repair::DEFAULT_MAX_EDITS,
    );
    let cpu = thread_cpu().saturating_sub(cpu_before);
    let time = started.elapsed();
    match mended {
        Mended::Repaired(game, breaks) => {
            let replayed = replay(&game, &quick_options());
            Mending {
                restored: replayed.moves == slipped.meant
                    && !replayed.findings.iter().any(breaks_main_line),
                mended: true,
                edits: breaks.len(),
                time,
                cpu,
            }
        }
        _ => Mending {
            restored: false,
            mended: false,
            edits: 0,
            time,
            cpu,
        },
    }
}
