//! The language server's speed (issue 33's targets), driving a `Session` as the server's loop
//! does: a change handed in, the work due done, the diagnostics published.
//!
//! - `edit_historical`: a one-character edit in the historical game (a digit made wrong, then
//!   right again), to the diagnostics published: target ≤ 20 ms median;
//! - `edit_one_of_5000`: the same in one game of a 5,000-game file: ≤ 50 ms;
//! - `open_10mb`: opening a 10 MB file, to its diagnostics published: ≤ 2 s.
//!
//! The many-game file is the corpus's synthetic records (corpus/synthetic, 68 games of five rule
//! sets, none of which the server was tuned on) repeated, each copy's Event numbered. With
//! `SALTA_BENCH_REPORT=1` the binary prints plain figures (medians of repeated runs) for
//! scripts/bench-lsp.sh instead of running divan.

use salta::lsp::Session;
use salta::lsp::lsp_server::{Message, Notification};
use serde_json::json;
use std::time::{Duration, Instant};

const URI: &str = "file:///bench.sgn";

fn main() {
    if std::env::var_os("SALTA_BENCH_REPORT").is_some() {
        report();
    } else {
        divan::main();
    }
}

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus's synthetic games repeated to at least `games` games, and how many there are.
fn many_games(games: usize) -> (String, usize) {
    let mut one = String::new();
    let mut count = 0;
    let mut paths: Vec<_> = std::fs::read_dir(root().join("corpus/synthetic"))
        .expect("corpus/synthetic")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(path).expect("a record");
        count += text.matches("[Event ").count();
        one.push_str(text.trim_end());
        one.push_str("\n\n");
    }
    let mut out = String::with_capacity(one.len() * (games / count + 1));
    let mut made = 0;
    let mut copy = 0;
    while made < games {
        copy += 1;
        out.push_str(&one.replace("[Event \"", &format!("[Event \"{copy}: ")));
        made += count;
    }
    (out, made)
}

/// Games enough for a file of at least 10 MB (80 copies of the synthetic corpus).
const TEN_MB_GAMES: usize = 5440;

fn historical() -> String {
    std::fs::read_to_string(root().join("corpus/historical/krone-grotewold-1901.sgn"))
        .expect("the historical game")
}

/// A session with `text` open and its first diagnostics published.
fn opened(text: &str) -> Session {
    let (mut session, _) = Session::new(&json!({"capabilities": {}}));
    let now = Instant::now();
    session.handle(
        notification(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "sgn", "version": 1, "text": text}}),
        ),
        now,
    );
    publish(&mut session);
    session
}

fn notification(method: &str, params: serde_json::Value) -> Message {
    Notification::new(method.to_string(), params).into()
}

/// Does the work due now until the diagnostics are published (what the loop does once no
/// message waits); the readings of a break wait for a pause, as in the editor.
fn publish(session: &mut Session) {
    let now = Instant::now();
    while session.work(now) {}
    let published = session.take_messages().into_iter().any(
        |m| matches!(m, Message::Notification(n) if n.method == "textDocument/publishDiagnostics"),
    );
    assert!(published, "diagnostics published");
}

/// Replaces one character at a line and column (UTF-16 = bytes here: the moves are ASCII).
fn type_char(session: &mut Session, version: i32, line: usize, column: usize, c: char) {
    let range = json!({"start": {"line": line, "character": column},
                       "end": {"line": line, "character": column + 1}});
    session.handle(
        notification(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version},
                   "contentChanges": [{"range": range, "text": c.to_string()}]}),
        ),
        Instant::now(),
    );
}

/// Where a text's `needle` first stands, as line and column, and the character there.
fn place(text: &str, needle: &str) -> (usize, usize, char) {
    for (line, l) in text.lines().enumerate() {
        if let Some(column) = l.find(needle) {
            return (line, column, l[column..].chars().next().unwrap_or(' '));
        }
    }
    panic!("{needle} is not in the text");
}

/// An editing session: each call makes the character at `at` wrong, then right again.
struct Editing {
    session: Session,
    version: i32,
    at: (usize, usize, char),
}

impl Editing {
    fn new(text: &str, needle: &str) -> Editing {
        let at = place(text, needle);
        Editing {
            session: opened(text),
            version: 1,
            at,
        }
    }

    /// One edit and its diagnostics.
    fn edit(&mut self) {
        let (line, column, right) = self.at;
        self.version += 1;
        let typed = if self.version % 2 == 0 { '9' } else { right };
        type_char(&mut self.session, self.version, line, column, typed);
        publish(&mut self.session);
    }
}

#[divan::bench(sample_count = 200)]
fn edit_historical(bencher: divan::Bencher) {
    let text = historical();
    // The `4` of `7. j4:h6`.
    let mut editing = Editing::new(&text, "j4:h6");
    editing.at.1 += 1;
    editing.at.2 = '4';
    bencher.bench_local(|| editing.edit());
}

#[divan::bench(sample_count = 50)]
fn edit_one_of_5000(bencher: divan::Bencher) {
    let (text, _) = many_games(5000);
    let mut editing = Editing::new(&text, "[Event \"40: ");
    // A move of that game: the first move line after its tags.
    let (line, _, _) = editing.at;
    let moves = text
        .lines()
        .skip(line)
        .position(|l| l.starts_with("1. "))
        .expect("moves");
    editing.at = (
        line + moves,
        3,
        text.lines().nth(line + moves).expect("a line").as_bytes()[3] as char,
    );
    bencher.bench_local(|| editing.edit());
}

#[divan::bench(sample_count = 5)]
fn open_10mb(bencher: divan::Bencher) {
    let (text, _) = many_games(TEN_MB_GAMES);
    bencher.bench_local(|| opened(&text));
}

/// Plain figures: medians of repeated runs.
fn report() {
    let median = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed()
    };
    let text = historical();
    let mut editing = Editing::new(&text, "j4:h6");
    editing.at.1 += 1;
    editing.at.2 = '4';
    let runs: Vec<Duration> = (0..200).map(|_| time(&mut || editing.edit())).collect();
    println!(
        "edit in the historical game: median {:.2} ms (200 edits)",
        ms(median(runs))
    );
    let (ten_mb, games) = many_games(TEN_MB_GAMES);
    let opens: Vec<Duration> = (0..3)
        .map(|_| time(&mut || drop(opened(&ten_mb))))
        .collect();
    println!(
        "open {:.1} MB, {games} games: median {:.0} ms (3 opens)",
        ten_mb.len() as f64 / 1e6,
        ms(median(opens))
    );
    drop(ten_mb);
    let (many, games) = many_games(5000);
    let mut editing = Editing::new(&many, "[Event \"40: ");
    let (line, _, _) = editing.at;
    let moves = many
        .lines()
        .skip(line)
        .position(|l| l.starts_with("1. "))
        .expect("moves");
    let first = many.lines().nth(line + moves).expect("a line");
    editing.at = (line + moves, 3, first.as_bytes()[3] as char);
    let runs: Vec<Duration> = (0..50).map(|_| time(&mut || editing.edit())).collect();
    println!(
        "edit in one of {games} games: median {:.2} ms (50 edits)",
        ms(median(runs))
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
