//! Transcription repair: accuracy per kind of slip and time per record, then timed by divan: the
//! search on one slipped historical record, and a record written without blanks mended whole.
//! `scripts/bench-repair.sh` runs it.
//!
//! Three sets: (a) one slip of every kind into the corpus's records (the historical game and
//! corpus/synthetic/salta.sgn, on which the search was developed) and into games that `salta
//! generate` makes from `SALTA_REPAIR_GAMES_SEED` (fresh records); (b) two slips per record,
//! side by side and far apart, among them plies left out and written twice. For (a) the first
//! break's readings are judged (top-1, top-3, ties) and the record mended whole as `salta repair`
//! mends it by default; for (b) the record mended whole. Time is wall clock and CPU time (the
//! thread's, from /proc) per record.

use salta::repair::inject::{
    Mending, Verdict, generated_records, inject, search_options, test_records, thread_cpu,
    trial_run, two_slip_run,
};
use salta::repair::{SlipKind, analyse};
use std::path::Path;
use std::time::Duration;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let first = var("SALTA_REPAIR_FIRST_SEED", 0);
    let seeds = first..first + var("SALTA_REPAIR_SEEDS", 5);
    let games_seed = var("SALTA_REPAIR_GAMES_SEED", 0);
    let fresh = var("SALTA_REPAIR_GAMES", 0);
    let mut games = test_records(root).expect("the corpus is readable");
    if fresh > 0 {
        // Fresh records only: generated games the search was never tuned on.
        games = generated_records(games_seed, fresh);
    }
    println!(
        "seeds {seeds:?}, {} records ({})",
        games.len(),
        if fresh > 0 {
            format!("salta generate from seed {games_seed}")
        } else {
            "the corpus".to_string()
        }
    );
    let started = thread_cpu();
    let trials = trial_run(&games, seeds.clone());
    let cpu = thread_cpu() - started;
    // Tied: the first reading has a rival that fares exactly as well (the same edit, to the end
    // with the same result and margin), so nothing in the record prefers either; lost: of
    // those, the right reading is the rival. Restored: `salta repair` with its defaults gives
    // back the record's main line.
    println!(
        "kind                caught at    slips  top-1   top-3   tied   lost  top-1 or tied  restored"
    );
    let row = |name: &str, at: &str, of: &[(&Verdict, &Mending)]| {
        let share = |hits: usize| 100.0 * hits as f64 / of.len() as f64;
        let within = |n: usize| {
            of.iter()
                .filter(|v| v.0.rank.is_some_and(|r| r < n))
                .count()
        };
        let tied = of.iter().filter(|v| v.0.tied > 1).count();
        let lost = of.iter().filter(|v| v.0.lost_tie()).count();
        let restored = of.iter().filter(|v| v.1.restored).count();
        println!(
            "{name:<19} {at:<12} {:>5}  {:>5.1}%  {:>5.1}%  {tied:>5}  {lost:>5}  {:>12.1}%  {:>7.1}%",
            of.len(),
            share(within(1)),
            share(within(3)),
            share(within(1) + lost),
            share(restored),
        );
    };
    for later in [false, true] {
        let at = if later { "a later ply" } else { "its own ply" };
        for kind in SlipKind::ALL {
            let of: Vec<(&Verdict, &Mending)> = trials
                .iter()
                .filter(|(k, _, v, _)| *k == kind && v.caught_later == later)
                .map(|(_, _, v, m)| (v, m))
                .collect();
            if !of.is_empty() {
                row(kind.name(), at, &of);
            }
        }
        let all: Vec<(&Verdict, &Mending)> = trials
            .iter()
            .filter(|(_, _, v, _)| v.caught_later == later)
            .map(|(_, _, v, m)| (v, m))
            .collect();
        row("(all kinds)", at, &all);
    }
    let all: Vec<(&Verdict, &Mending)> = trials.iter().map(|(_, _, v, m)| (v, m)).collect();
    row("(every record)", "", &all);
    let mut times: Vec<Duration> = trials.iter().map(|(_, _, _, m)| m.time).collect();
    times.sort();
    let mut cpus: Vec<Duration> = trials.iter().map(|(_, _, _, m)| m.cpu).collect();
    cpus.sort();
    let at = |times: &[Duration], q: f64| times[((times.len() - 1) as f64 * q) as usize];
    // A record's CPU time is counted in scheduler ticks (a few ms): its median is below one,
    // so the mean is the run's CPU time over its records, and p99 and max are a record's own.
    println!(
        "one slip, time per record mended ({} records): median {:.2?}, p99 {:.2?}, max {:.2?}; \
         CPU a record: mean {:.2?} (the run's, judging included), p99 {:.2?}, max {:.2?}",
        times.len(),
        at(&times, 0.5),
        at(&times, 0.99),
        at(&times, 1.0),
        cpu / times.len().max(1) as u32,
        at(&cpus, 0.99),
        at(&cpus, 1.0),
    );
    // (b) two slips a record.
    let kinds = [
        SlipKind::GlyphDigit,
        SlipKind::NeighbourDigit,
        SlipKind::DigitSwap,
        SlipKind::CharMisread,
        SlipKind::Dropped,
        SlipKind::Doubled,
        SlipKind::Reversed,
    ];
    let pairs: Vec<(SlipKind, SlipKind)> = kinds
        .iter()
        .flat_map(|&a| kinds.iter().map(move |&b| (a, b)))
        .filter(|(a, b)| a != b || *a == SlipKind::GlyphDigit)
        .collect();
    println!("two slips             records  restored   median      max  CPU p99  CPU max");
    for adjacent in [true, false] {
        let started = thread_cpu();
        let runs = two_slip_run(&games, seeds.clone(), &pairs, adjacent);
        let cpu = thread_cpu() - started;
        let with = |pred: &dyn Fn(SlipKind, SlipKind) -> bool, name: &str| {
            let of: Vec<&Mending> = runs
                .iter()
                .filter(|(k, _, _)| pred(k.0, k.1))
                .map(|(_, _, m)| m)
                .collect();
            if of.is_empty() {
                return;
            }
            let restored = of.iter().filter(|m| m.restored).count();
            let mut t: Vec<Duration> = of.iter().map(|m| m.time).collect();
            t.sort();
            let mut c: Vec<Duration> = of.iter().map(|m| m.cpu).collect();
            c.sort();
            println!(
                "{name:<21} {:>7}  {:>7.1}%  {:>8.2?} {:>8.2?}  {:>7.2?} {:>8.2?}",
                of.len(),
                100.0 * restored as f64 / of.len() as f64,
                at(&t, 0.5),
                at(&t, 1.0),
                at(&c, 0.99),
                at(&c, 1.0)
            );
        };
        let side = if adjacent {
            "side by side"
        } else {
            "far apart"
        };
        let ply = |k: SlipKind| matches!(k, SlipKind::Dropped | SlipKind::Doubled);
        with(&|a, b| ply(a) || ply(b), &format!("{side}, a ply"));
        with(&|a, b| !ply(a) && !ply(b), &format!("{side}, misreads"));
        with(&|_, _| true, &format!("{side}, all"));
        println!(
            "  (CPU time of the {side} run {cpu:.2?}, {:.2?} a record)",
            cpu / runs.len().max(1) as u32
        );
    }
    divan::main();
}

#[divan::bench]
fn historical_file_or_rank_misread(bencher: divan::Bencher) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = test_records(root).expect("the corpus is readable");
    // The historical record is algebraic; not every seed finds a misreading that breaks it.
    let slipped = (0..100)
        .find_map(|seed| inject(&games[0], SlipKind::AlgebraicMisread, seed))
        .expect("a slip can be made");
    let opts = search_options();
    bencher.bench(|| analyse(divan::black_box(&slipped.game), &opts, 1));
}

/// A generated game of 222 plies written without blanks, its moves joined by commas
/// (`1.32-41,82-72,2.41-51,…`, 1.7 KB in one token), as OCR may read a tightly set page: read
/// whole, each character a place of the decoder's (the slowest record known).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn a_record_written_without_blanks(bencher: divan::Bencher) {
    use salta::notation::{WriteOptions, parse_str, write_game};
    use salta::repair::{DEFAULT_MAX_EDITS, mend};
    let game = generated_records(4242, 1).remove(0);
    let text = write_game(&game, &WriteOptions::default());
    let (tags, movetext) = text.split_once("\n\n").expect("tags, then moves");
    let words: Vec<&str> = movetext.split_whitespace().collect();
    let (result, moves) = words.split_last().expect("moves and a result");
    let glued: String = moves
        .iter()
        .map(|w| match w.ends_with('.') {
            true => w.to_string(),
            false => format!("{w},"),
        })
        .collect();
    let record = format!("{tags}\n\n{glued} {result}\n");
    let glued = match parse_str(&record).remove(0) {
        Ok(game) => game,
        Err(e) => salta::repair::read_past(&e).expect("read past").0,
    };
    let opts = salta::replay::ReplayOptions::default();
    bencher.bench(|| mend(divan::black_box(&glued), &opts, DEFAULT_MAX_EDITS));
}
