//! Reading speed of the SGN reader on a large synthetic file (random legal playouts written as
//! numeric SGN), in MB/s. `SALTA_BENCH_MB` sets the size (default 64), `SALTA_BENCH_FILE` where the
//! file is kept (default: a temp file, made once). With `SALTA_BENCH_REPORT=1` the binary prints
//! plain figures for scripts/bench-read.sh instead of running divan.

use salta::notation::{Notation, Reader};
use salta::rules::{Position, Rules};
use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

fn main() {
    if std::env::var_os("SALTA_BENCH_REPORT").is_some() {
        report();
    } else {
        divan::main();
    }
}

/// A tiny seeded xorshift: the corpus is the same on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One random legal playout of 100–240 plies as a numeric SGN game with tags.
fn write_game(rng: &mut XorShift, index: usize, out: &mut String) {
    use std::fmt::Write as _;
    let mut pos = Position::start(Rules::default());
    let g = pos.geometry();
    let plies = 100 + rng.below(141) as usize;
    let result = ["1-0", "0-1", "1/2-1/2", "*"][rng.below(4) as usize];
    let _ = write!(
        out,
        "[Event \"Synthetic {index}\"]\n[Site \"Bench\"]\n[Date \"1901.??.??\"]\n[Round \"{}\"]\n[Green \"G{}\"]\n[Red \"R{}\"]\n[Result \"{result}\"]\n\n",
        index % 30 + 1,
        rng.below(1000),
        rng.below(1000)
    );
    let mut column = 0;
    for ply in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
        let mut token = String::new();
        if ply % 2 == 0 {
            let _ = write!(token, "{}. ", ply / 2 + 1);
        }
        let _ = write!(token, "{}", Notation::Numeric.move_text(m, g));
        if column + token.len() + 1 > 80 {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        column += token.len();
        out.push_str(&token);
        pos.play_unchecked(m);
    }
    let _ = writeln!(out, " {result}\n");
}

/// The corpus file, made once per run (or kept at `SALTA_BENCH_FILE`).
fn corpus() -> &'static PathBuf {
    static CORPUS: OnceLock<PathBuf> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let megabytes: u64 = std::env::var("SALTA_BENCH_MB")
            .ok()
            .and_then(|m| m.parse().ok())
            .unwrap_or(64);
        let path = std::env::var_os("SALTA_BENCH_FILE")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                std::env::temp_dir().join(format!("salta-bench-read-{megabytes}mb.sgn"))
            });
        let wanted = megabytes * 1_000_000;
        if std::fs::metadata(&path).is_ok_and(|m| m.len() >= wanted) {
            return path;
        }
        let tmp = path.with_extension("tmp");
        let mut file =
            std::io::BufWriter::new(std::fs::File::create(&tmp).expect("create the corpus"));
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let (mut written, mut index, mut game) = (0u64, 0, String::new());
        while written < wanted {
            game.clear();
            index += 1;
            write_game(&mut rng, index, &mut game);
            file.write_all(game.as_bytes()).expect("write the corpus");
            written += game.len() as u64;
        }
        file.flush().expect("write the corpus");
        drop(file);
        std::fs::rename(&tmp, &path).expect("rename the corpus");
        path
    })
}

fn read_all(path: &PathBuf) -> (usize, usize) {
    let file = std::fs::File::open(path).expect("open the corpus");
    let (mut games, mut errors) = (0, 0);
    for item in Reader::new(file) {
        match item {
            Ok(g) => games += divan::black_box(g).mainline.moves.len().min(1),
            Err(_) => errors += 1,
        }
    }
    (games, errors)
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn read_file(bencher: divan::Bencher) {
    let path = corpus();
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    bencher
        .counter(divan::counter::BytesCount::new(bytes))
        .bench(|| read_all(path));
}

/// Nanoseconds this thread has spent on a CPU (Linux), so that figures on a busy machine can be
/// read as single-core speed.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(stat.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

/// Plain figures: the best of three full reads, by wall clock and by CPU time.
fn report() {
    let path = corpus();
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let (mut best, mut best_cpu) = (f64::MAX, f64::MAX);
    let mut counts = (0, 0);
    for _ in 0..3 {
        let (start, cpu) = (Instant::now(), cpu_seconds());
        counts = read_all(path);
        best = best.min(start.elapsed().as_secs_f64());
        if let (Some(before), Some(after)) = (cpu, cpu_seconds()) {
            best_cpu = best_cpu.min(after - before);
        }
    }
    println!("file={}", path.display());
    println!("bytes={bytes}");
    println!("games={} errors={}", counts.0, counts.1);
    println!("reader_seconds={best:.3}");
    println!("reader_mb_per_s={:.0}", bytes as f64 / 1e6 / best);
    if best_cpu < f64::MAX {
        println!("reader_cpu_seconds={best_cpu:.3}");
        println!("reader_mb_per_cpu_s={:.0}", bytes as f64 / 1e6 / best_cpu);
    }
}
