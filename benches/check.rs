//! Checking speed on one thread: read and replay a synthetic archive (generated games, repeated to
//! `SALTA_BENCH_MB` megabytes, default 16, or the file named by `SALTA_BENCH_FILE`), as
//! `salta check --margins never --threads 1` does but without the reader thread.
//! scripts/bench-check.sh measures the command itself.

use divan::counter::BytesCount;
use salta::archive::{CheckOptions, check_files, game_report};
use salta::generate::generate_game;
use salta::notation::{Game, Reader};
use salta::replay::{MarginPolicy, ReplayOptions, Replaying, Status, replay};
use salta::rules::{MoveLimit, Rules};
use std::sync::{Arc, OnceLock};

fn main() {
    divan::main();
}

fn archive() -> &'static str {
    static ARCHIVE: OnceLock<String> = OnceLock::new();
    ARCHIVE.get_or_init(|| {
        // A given archive (e.g. the one scripts/bench-check.sh builds) instead of generated games.
        if let Some(text) =
            std::env::var_os("SALTA_BENCH_FILE").and_then(|path| std::fs::read_to_string(path).ok())
        {
            return text;
        }
        let megabytes: usize = std::env::var("SALTA_BENCH_MB")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(16);
        let mut rules = Rules::default();
        rules.move_limit = MoveLimit::both(60).ok();
        let distinct: Vec<String> = (0..200)
            .map(|seed| {
                (generate_game(seed, rules, None).to_record())
                    .expect("generated games are legal")
                    .text()
            })
            .collect();
        let mut out = String::new();
        while out.len() < megabytes * 1_000_000 {
            for game in &distinct {
                out.push_str(game);
                out.push('\n');
            }
        }
        out
    })
}

#[divan::bench(sample_count = 10)]
fn read_and_replay(bencher: divan::Bencher) {
    bench_reading(bencher, |bytes, opts| {
        Reader::from_bytes(bytes)
            .flatten()
            .filter(|game| replay(game, opts).status() == Status::Valid)
            .count()
    });
}

/// Reading and replaying as `salta check` does since decision 48: each game replayed as it is read
/// (`Replaying`), no tree built; beside `read_and_replay`, which builds each game's tree first.
#[divan::bench(sample_count = 10)]
fn replay_while_reading(bencher: divan::Bencher) {
    bench_reading(bencher, |bytes, opts| {
        let mut replaying = Replaying::new(opts);
        let mut reader = Reader::from_bytes(bytes);
        let mut valid = 0;
        while let Some(game) = reader.read_game(&mut replaying) {
            valid += usize::from(game.is_ok_and(|g| g.replay.status() == Status::Valid));
        }
        valid
    });
}

/// Reads and replays the archive from a fresh copy of its bytes each time with `read_and_replay`,
/// which returns the number of valid games (some must be).
fn bench_reading(
    bencher: divan::Bencher,
    read_and_replay: impl Fn(Vec<u8>, &ReplayOptions) -> usize + Sync,
) {
    let text = archive();
    let opts = ReplayOptions::default().margins(MarginPolicy::Never);
    bencher
        .counter(BytesCount::new(text.len()))
        .with_inputs(|| text.as_bytes().to_vec())
        .bench_values(|bytes| {
            let valid = read_and_replay(bytes, &opts);
            assert!(valid > 0);
            valid
        });
}

/// Replay alone, as `salta check` replays (no per-move records): the games are read once,
/// outside the timing.
#[divan::bench(sample_count = 10)]
fn replay_only(bencher: divan::Bencher) {
    bench_replay(bencher, true);
}

/// Replay with every move's record kept (what exporters ask for), for comparison.
#[divan::bench(sample_count = 10)]
fn replay_with_lines(bencher: divan::Bencher) {
    bench_replay(bencher, false);
}

/// Replays the games, read once outside the timing, with or without per-move records.
fn bench_replay(bencher: divan::Bencher, summary_only: bool) {
    let text = archive();
    let games: Vec<Game> = Reader::new(text.as_bytes()).flatten().collect();
    let opts = ReplayOptions::default()
        .margins(MarginPolicy::Never)
        .summary_only(summary_only);
    bencher.counter(BytesCount::new(text.len())).bench(|| {
        let valid = games
            .iter()
            .filter(|game| replay(game, &opts).status() == Status::Valid)
            .count();
        assert!(valid > 0);
        valid
    });
}

/// Replay and the per-game report `salta check` builds (tags, diagnostics, JSON line); the games
/// are read once and cloned outside the timing.
#[divan::bench(sample_count = 10)]
fn replay_and_report(bencher: divan::Bencher) {
    let text = archive();
    let games: Vec<Game> = Reader::new(text.as_bytes()).flatten().collect();
    let file: Arc<str> = Arc::from("bench.sgn");
    let opts = CheckOptions::default().replay(
        ReplayOptions::default()
            .margins(MarginPolicy::Never)
            .summary_only(true),
    );
    bencher
        .counter(BytesCount::new(text.len()))
        .with_inputs(|| games.clone())
        .bench_local_values(|games| {
            games
                .into_iter()
                .map(|game| {
                    let report = game_report(&file, game, &opts);
                    serde_json::to_string(&report).map_or(0, |line| line.len())
                })
                .sum::<usize>()
        });
}

#[divan::bench(sample_count = 10)]
fn read_only(bencher: divan::Bencher) {
    let text = archive();
    bencher
        .counter(BytesCount::new(text.len()))
        .with_inputs(|| text.as_bytes().to_vec())
        .bench_values(|bytes| Reader::from_bytes(bytes).flatten().count());
}

/// The human report of a game whose one movetext line holds `n` findings (dangling move numbers),
/// as `salta check` draws it: each finding is drawn from its own stretch of the line, so the time
/// grows with `n`, not `n²` (10k/20k/40k findings took 1.9/6.2/27.3 s when columns were counted
/// from the line's start, issue 32).
#[divan::bench(args = [10_000, 40_000], sample_count = 3)]
fn human_report_of_findings_on_one_line(bencher: divan::Bencher, n: usize) {
    let path = std::env::temp_dir().join(format!("salta-bench-long-line-{n}.sgn"));
    let text = format!(
        "[Event \"long\"]\n[Result \"*\"]\n\n{} 1. 33-43 *\n",
        "7. ".repeat(n)
    );
    std::fs::write(&path, text).expect("the record is written");
    let opts = CheckOptions::default()
        .replay(ReplayOptions::default().margins(MarginPolicy::Never))
        .render(Some(false));
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| {
            let mut drawn = 0;
            check_files(std::slice::from_ref(&path), &opts, |report| {
                drawn += report.rendered.as_ref().map_or(0, String::len);
                true
            });
            assert!(drawn > n * 100, "{drawn} bytes drawn");
            drawn
        });
    let _ = std::fs::remove_file(&path);
}
