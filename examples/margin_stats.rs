//! Times the exact margin count on losers' positions and prints percentiles.
//!
//! - `margin_stats [GAMES] [FIRST_SEED] [SECONDS]`: the ends of greedy self-play games
//!   ([`greedy_game_end`], defaults 1000 games from seed 1): a hard set, more scrambled than real games.
//! - `margin_stats FILE [LIMIT] [SECONDS]`: the `LOSER SETUP` lines of FILE (`#` starts a comment),
//!   e.g. benches/data/margin-generate-1000.txt, the ends of `salta generate` games.
//! - `SETUP='G/81,…/…' margin_stats 0 0 SECONDS`: one position, both sides.
//!
//! SECONDS replaces the default [`Budget`] by one of that many seconds (and 10 million states per
//! second). `STATES=N` instead sets a budget of N stored states and no time limit, for comparisons
//! that do not depend on the machine's load; `EACH=1` prints every position's count and CPU time
//! (`LOSER SETUP  # …`, so the output can be read back as a position file). Times are per position, wall clock and the thread's CPU time (on a busy machine the
//! wall clock, which the budget uses, runs ahead of the CPU time). Run under `/usr/bin/time -v` for
//! the peak memory (scripts/bench-margin.sh does).

use salta::board::Color;
use salta::rules::margin::{Budget, Remaining, exact_remaining, greedy_game_end};
use salta::rules::{Position, Rules};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = Rules::default();
    let number = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
    let mut budget = Budget::default();
    if let Some(secs) = number(2) {
        budget = Budget::default()
            .max_states(10_000_000 * secs)
            .max_time(Some(Duration::from_secs(secs)));
    }
    if let Some(states) = std::env::var("STATES").ok().and_then(|s| s.parse().ok()) {
        budget = Budget::default().max_states(states).max_time(None);
    }
    if let Ok(setup) = std::env::var("SETUP") {
        let pos = match Position::from_setup(&setup, rules) {
            Ok(pos) => pos,
            Err(e) => return eprintln!("SETUP: {e}"),
        };
        for color in Color::ALL.into_iter().filter(|&c| !pos.is_complete(c)) {
            let timed = time(&pos, color, &budget);
            println!(
                "{color}: free {}  {:?}  wall {:?}  cpu {:?}",
                pos.free_count(color),
                timed.remaining,
                timed.wall,
                timed.cpu
            );
        }
        return;
    }
    let positions = match args.first().filter(|a| a.parse::<u64>().is_err()) {
        Some(path) => match read_positions(path, rules, number(1).unwrap_or(u64::MAX)) {
            Ok(p) => p,
            Err(e) => return eprintln!("{path}: {e}"),
        },
        None => self_play(rules, number(0).unwrap_or(1000), number(1).unwrap_or(1)),
    };
    report(&positions, &budget);
}

fn self_play(rules: Rules, games: u64, first_seed: u64) -> Vec<(Position, Color)> {
    (first_seed + 1..)
        .filter_map(|seed| greedy_game_end(rules, seed, 2000))
        .take(games as usize)
        .collect()
}

fn read_positions(path: &str, rules: Rules, limit: u64) -> Result<Vec<(Position, Color)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let mut out = Vec::new();
    for (n, line) in lines.take(limit as usize) {
        let line = line.split('#').next().unwrap_or_default();
        let (loser, setup) = line
            .split_once(' ')
            .ok_or_else(|| format!("line {}: expected `LOSER SETUP`", n + 1))?;
        let loser = Color::ALL
            .into_iter()
            .find(|c| c.name() == loser)
            .ok_or_else(|| format!("line {}: {loser:?} is not green or red", n + 1))?;
        let pos = Position::from_setup(setup.trim(), rules)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push((pos, loser));
    }
    Ok(out)
}

struct Timed {
    remaining: Remaining,
    wall: Duration,
    cpu: Duration,
}

fn time(pos: &Position, color: Color, budget: &Budget) -> Timed {
    let (cpu_start, started) = (thread_cpu(), Instant::now());
    let remaining = exact_remaining(pos, color, budget);
    Timed {
        remaining,
        wall: started.elapsed(),
        cpu: thread_cpu().saturating_sub(cpu_start),
    }
}

fn report(positions: &[(Position, Color)], budget: &Budget) {
    if positions.is_empty() {
        return println!("no positions");
    }
    let mut runs = Vec::new();
    let mut excess_hist = std::collections::BTreeMap::new();
    let each = std::env::var_os("EACH").is_some();
    for (pos, loser) in positions {
        let timed = time(pos, *loser, budget);
        let free = pos.free_count(*loser);
        if each {
            println!(
                "{} {}  # free {free}  {:?}  cpu {:?}",
                loser.name(),
                pos.to_setup(),
                timed.remaining,
                timed.cpu
            );
        }
        if let Some(n) = timed.remaining.exact() {
            *excess_hist.entry(n as i64 - free as i64).or_insert(0) += 1;
        }
        runs.push((timed, pos.to_setup(), free));
    }
    let not_exact = runs
        .iter()
        .filter(|r| r.0.remaining.exact().is_none())
        .count();
    println!("positions: {}  not exact: {not_exact}", runs.len());
    for (name, pick) in [
        ("wall", (|t: &Timed| t.wall) as fn(&Timed) -> Duration),
        ("cpu", |t: &Timed| t.cpu),
    ] {
        let mut times: Vec<Duration> = runs.iter().map(|r| pick(&r.0)).collect();
        times.sort();
        let pct = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
        println!(
            "{name}: p50 {:?}  p90 {:?}  p99 {:?}  max {:?}",
            pct(0.5),
            pct(0.9),
            pct(0.99),
            pct(1.0)
        );
    }
    println!("exact minus Chebyshev sum: {excess_hist:?}");
    runs.sort_by_key(|r| std::cmp::Reverse(r.0.cpu));
    for (timed, setup, free) in runs.iter().take(5) {
        println!(
            "cpu {:?}  wall {:?}  free {free}  {:?}  {setup}",
            timed.cpu, timed.wall, timed.remaining
        );
    }
}

/// The calling thread's CPU time (Linux; zero elsewhere).
fn thread_cpu() -> Duration {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            sec: i64,
            nsec: i64,
        }
        unsafe extern "C" {
            fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut ts = Timespec { sec: 0, nsec: 0 };
        // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
        if unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.sec as u64, ts.nsec as u32);
        }
    }
    Duration::ZERO
}
