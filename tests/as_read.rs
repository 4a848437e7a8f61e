//! "Exactly as read" means byte for byte (issue 32): the outputs that promise the input's text
//! (`extract`'s kept games, `--rejected`, `--unselected`, `repair`'s games it leaves alone) are
//! compared with `cmp`'s strictness, for line ends, control characters and encodings; games too
//! large to read are passed through whole, streamed; binary and endless inputs are bounded.

use crate::cli::{check_json, piped_salta, root, salta_args, salta_in};
use crate::special::{TempDir, device, fifo};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A game that reads and replays (two plies, unfinished).
const VALID: &str = "[Event \"ok\"]\n[Result \"*\"]\n\n1. 33-43 83-73 *\n";

fn write_bytes(dir: &TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_default()
}

/// Asserts two byte strings equal, showing them escaped when they differ.
fn assert_same(got: &[u8], expected: &[u8], context: &str) {
    assert!(
        got == expected,
        "{context}: differs\n--- got\n{}\n--- expected\n{}",
        got.escape_ascii(),
        expected.escape_ascii()
    );
}

/// Broken records of every awkward kind: each goes to `--rejected` byte for byte.
fn awkward_records() -> Vec<(&'static str, Vec<u8>)> {
    let illegal = |head: &[u8], line_end: &[u8]| -> Vec<u8> {
        let mut text = head.to_vec();
        for line in [&b"[Result \"*\"]"[..], b"", b"1. 33-43 97-96 *"] {
            text.extend_from_slice(line_end);
            text.extend_from_slice(line);
        }
        text.extend_from_slice(line_end);
        text
    };
    // A NUL past the head a file is judged by (8,000 bytes): the game is refused, the file read on.
    let mut nul = format!(
        "{VALID}\n[Event \"{}\"]\n\n1. 33-43 *\n\n",
        "p".repeat(9000)
    )
    .into_bytes();
    nul.extend_from_slice(b"[Event \"n\x00l\"]\n[Result \"*\"]\n\n1. 33-43 *\n");
    vec![
        ("crlf", illegal(b"[Event \"w\"]", b"\r\n")),
        ("cr", illegal(b"[Event \"w\"]", b"\r")),
        (
            "esc",
            illegal(b"[Event \"\x1b[31mred\x1b]0;title\x07\"]", b"\n"),
        ),
        ("latin1", illegal(b"[Event \"\xe9t\xe9 \xe0 Jena\"]", b"\n")),
        ("invalid-utf8", illegal(b"[Event \"x\xc3\x28\xff\"]", b"\n")),
        ("cr-in-comment", {
            let mut text = illegal(b"[Event \"w\"]", b"\n");
            text.splice(12..12, b"{a\rb}".iter().copied());
            text
        }),
        ("nul", nul),
    ]
}

/// `extract --rejected` rewrote what it set aside: CR became a space, NUL and ESC `?`, CR LF
/// a space and LF; Latin-1 was written as UTF-8.
#[test]
fn rejected_games_are_written_byte_for_byte() {
    let dir = TempDir::new("as-read-rejected");
    for (name, bytes) in awkward_records() {
        let file = format!("{name}.sgn");
        write_bytes(&dir, &file, &bytes);
        let run = salta_in(
            &dir.0,
            &["extract", &file, "-o", "k.sgn", "--rejected", "r.sgn"],
        );
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        let rejected = read(&dir.path("r.sgn"));
        if name == "nul" {
            // The games before it are kept; the one with the NUL is set aside as it is.
            let at = bytes.windows(7).rposition(|w| w == b"[Event ").unwrap();
            assert_same(&rejected, &bytes[at..], name);
            assert!(run.stderr.contains("sgn::binary"), "{}", run.stderr);
        } else {
            assert_same(&rejected, &bytes, name);
            assert!(read(&dir.path("k.sgn")).is_empty(), "{name}");
        }
        // repair cannot repair an illegal 97-96 either: written exactly as read.
        let repaired = salta_in(&dir.0, &["repair", &file]);
        assert_eq!(repaired.code, 1, "{name}: {}", repaired.stderr);
        if name != "nul" {
            assert_same(&repaired.stdout, &bytes, &format!("repair {name}"));
        }
    }
}

/// Kept games, the games a selection leaves out and the games repair leaves alone: byte for byte,
/// with the file's own line ends between games.
#[test]
fn kept_and_unselected_games_keep_their_bytes_and_line_ends() {
    let dir = TempDir::new("as-read-kept");
    let games = |line_end: &str, event: &str| -> Vec<u8> {
        let mut text = Vec::new();
        for (i, moves) in [
            "1. 33-43 83-73 *",
            "1. 33-43 *",
            "1. 32-42 82-72 2. 42-52 *",
        ]
        .iter()
        .enumerate()
        {
            if i > 0 {
                text.extend_from_slice(line_end.as_bytes());
            }
            for line in [
                format!("[Event \"{event} {i}\"]"),
                String::new(),
                moves.to_string(),
            ] {
                text.extend_from_slice(line.as_bytes());
                text.extend_from_slice(line_end.as_bytes());
            }
        }
        text
    };
    for (name, bytes) in [
        ("lf", games("\n", "plain")),
        ("crlf", games("\r\n", "windows")),
        ("cr", games("\r", "mac")),
        ("latin1", games("\n", "caf\u{e9}")),
    ] {
        let mut bytes = bytes;
        if name == "latin1" {
            // café in Latin-1: é is one byte.
            let text = String::from_utf8(bytes).unwrap();
            bytes = text.chars().map(|c| c as u32 as u8).collect();
        }
        let file = format!("{name}.sgn");
        write_bytes(&dir, &file, &bytes);
        let run = salta_in(&dir.0, &["extract", &file, "-o", "k.sgn"]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert_same(&read(&dir.path("k.sgn")), &bytes, name);
        // The two-ply games are kept, the one of one ply left out, each as read.
        let run = salta_in(
            &dir.0,
            &[
                "extract",
                &file,
                "-o",
                "k.sgn",
                "--min-plies",
                "2",
                "--unselected",
                "u.sgn",
            ],
        );
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let second = bytes
            .windows(7)
            .enumerate()
            .filter(|(_, w)| *w == b"[Event ")
            .map(|(i, _)| i)
            .collect::<Vec<_>>();
        let line_end: &[u8] = match name {
            "crlf" => b"\r\n",
            "cr" => b"\r",
            _ => b"\n",
        };
        let game_2 = &bytes[second[1]..second[2] - line_end.len()];
        assert_same(
            &read(&dir.path("u.sgn")),
            game_2,
            &format!("{name} unselected"),
        );
        let mut kept = bytes[..second[1]].to_vec();
        kept.extend_from_slice(&bytes[second[2]..]);
        assert_same(&read(&dir.path("k.sgn")), &kept, &format!("{name} kept"));
        // Games that need no repair.
        let repaired = salta_in(&dir.0, &["repair", &file]).expect_code(0);
        assert_same(&repaired.stdout, &bytes, &format!("repair {name}"));
    }
}

/// A CR-only file was one game with a "tag too long" error: its lines are read, and found where
/// they are.
#[test]
fn a_file_whose_lines_end_in_cr_alone_is_read_line_by_line() {
    let dir = TempDir::new("cr-lines");
    let text = std::fs::read_to_string(root().join("corpus/edge-cases/green-wins.sgn")).unwrap();
    let cr = format!("{text}\n[Event \"second\"]\n\n1. 33-43 97-96 *\n").replace('\n', "\r");
    let file = write_bytes(&dir, "mac.sgn", cr.as_bytes());
    let run = check_json(&file);
    let lines = run.json_lines();
    assert_eq!(lines.len(), 3, "{}", run.text());
    assert_eq!(lines[0]["status"], "valid");
    assert_eq!(lines[1]["status"], "invalid");
    let second_line = text.lines().count() as u64 + 2;
    assert_eq!(lines[1]["line"], second_line);
    assert_eq!(lines[1]["diagnostics"][0]["line"], second_line + 2);
    assert_eq!(lines[1]["diagnostics"][0]["code"], "sgn::garbled-move");
    // The games' own bytes, not the blank lines between them.
    let games = text.trim_end().len() + "[Event \"second\"]\n\n1. 33-43 97-96 *".len();
    assert_eq!(lines[2]["summary"]["bytes"], games as u64);
}

/// A file of three games whose second has a comment (or a tag value) of ten megabytes, past the
/// reader's 8 MiB limit.
fn with_an_oversized_game(
    dir: &TempDir,
    name: &str,
    in_tag: bool,
) -> (PathBuf, Vec<u8>, std::ops::Range<usize>) {
    let big = "x".repeat(10 << 20);
    let second = if in_tag {
        format!("[Event \"{big}\"]\n[Result \"*\"]\n\n1. 33-43 *\n")
    } else {
        format!("[Event \"big\"]\n[Result \"*\"]\n\n1. 33-43 {{{big}}} 83-73 *\n")
    };
    let first = VALID.replace("ok", "first");
    let third = VALID.replace("ok", "third");
    let text = format!("{first}\n{second}\n{third}");
    let start = first.len() + 1;
    let path = dir.write(name, &text);
    (path, text.into_bytes(), start..start + second.len())
}

/// A game past the 8 MiB limit: `--rejected` got its first line, `repair -o` 43 bytes, `check`
/// called it valid with 0 plies and never read the game after it. Now it is one game, reported
/// once and passed through whole, and the games after it are read.
#[test]
fn an_oversized_game_is_one_game_passed_through_whole() {
    let dir = TempDir::new("oversized");
    for in_tag in [false, true] {
        let (path, bytes, second) = with_an_oversized_game(&dir, "big.sgn", in_tag);
        let run = check_json(&path).expect_code(1);
        let lines = run.json_lines();
        let statuses: Vec<&str> = lines[..3]
            .iter()
            .map(|l| l["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["valid", "invalid", "valid"], "in tag: {in_tag}");
        assert_eq!(lines[1]["diagnostics"][0]["code"], "sgn::game-too-large");
        assert_eq!(lines[1]["line"], 6);
        assert_eq!(lines[2]["tags"]["Event"], "third");
        let summary = &lines[3]["summary"];
        assert_eq!(summary["games"], 3);
        assert!(summary["bytes"].as_u64().unwrap() <= bytes.len() as u64);
        assert!(summary["bytes"].as_u64().unwrap() >= second.len() as u64);
        // Human: one line for the game, the next game read.
        let human = salta_args!["check", path].expect_code(1);
        assert_eq!(human.text().matches("sgn::game-too-large").count(), 1);
        assert!(human.text().contains("game 3: valid"), "{}", human.text());

        let run = salta_in(
            &dir.0,
            &["extract", "big.sgn", "-o", "k.sgn", "--rejected", "r.sgn"],
        )
        .expect_code(1);
        assert_same(
            &read(&dir.path("r.sgn")),
            &bytes[second.clone()],
            "rejected",
        );
        assert_eq!(
            run.stderr.matches("rejected: ").count(),
            1,
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("3 game(s): 2 kept"), "{}", run.stderr);
        let mut kept = bytes[..second.start].to_vec();
        kept.extend_from_slice(&bytes[second.end + 1..]);
        assert_same(&read(&dir.path("k.sgn")), &kept, "kept");

        let run = salta_in(&dir.0, &["repair", "big.sgn", "-o", "repaired.sgn"]).expect_code(1);
        assert!(run.stderr.contains("1 not repairable"), "{}", run.stderr);
        assert_same(&read(&dir.path("repaired.sgn")), &bytes, "repair");
    }
}

/// Peak resident memory of a running child, polled until it ends (Linux).
pub(crate) fn peak_memory_kb(child: &mut std::process::Child) -> Option<u64> {
    let status = format!("/proc/{}/status", child.id());
    let mut peak = None;
    let started = Instant::now();
    while child.try_wait().ok()?.is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "still running"
        );
        if let Some(kb) = std::fs::read_to_string(&status).ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        }) {
            peak = Some(kb);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    peak
}

/// A 146 MB game took 402 MB and was reported as three games. A 100 MB game, fed through
/// standard input, is one game, passed on in parts: memory stays far below its size.
#[test]
fn an_oversized_game_is_streamed_not_held() {
    let game_bytes = 100usize << 20;
    for command in ["check", "extract"] {
        let mut child = piped_salta()
            .args([command, "-"])
            .args(if command == "extract" {
                &["--rejected", "/dev/null"][..]
            } else {
                &[]
            })
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            use std::io::Write;
            input.write_all(b"[Event \"big\"]\n\n1. 33-43 {")?;
            let block = vec![b'x'; 1 << 20];
            for _ in 0..game_bytes >> 20 {
                input.write_all(&block)?;
            }
            input.write_all(format!("}} *\n\n{VALID}").as_bytes())
        });
        let stdout = child.stdout.take().unwrap();
        let reading = std::thread::spawn(move || {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut { stdout }, &mut text).map(|_| text)
        });
        let Some(peak) = peak_memory_kb(&mut child) else {
            eprintln!("skipped: no /proc here");
            return;
        };
        feeder.join().unwrap().unwrap();
        let text = reading.join().unwrap().unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(1), "{command}");
        if command == "check" {
            assert!(text.contains("game 2: valid"), "{text}");
            assert_eq!(text.matches("game-too-large").count(), 1, "{text}");
        }
        assert!(peak < 80 << 10, "{command}: {peak} kB for a 100 MB game");
    }
}

/// `check` of random bytes fed through a FIFO said `sgn::binary` and read on for ever, past
/// 795 MB. Once the file's head is found binary, nothing more is read: the writer sees the pipe
/// closed.
#[cfg(unix)]
#[test]
fn a_binary_stream_is_judged_once_and_no_longer_read() {
    let dir = TempDir::new("urandom");
    let input = fifo(&dir.path("random.sgn"));
    let writer = {
        let input = input.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut out = std::fs::OpenOptions::new().write(true).open(input)?;
            // xorshift: bytes enough like /dev/urandom's, NUL bytes among them.
            let mut state = 0x9e37_79b9_7f4a_7c15u64;
            let mut block = vec![0u8; 1 << 16];
            let mut written = 0u64;
            loop {
                for b in block.iter_mut() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    *b = state as u8;
                }
                out.write_all(&block)?;
                written += block.len() as u64;
                if written > 1 << 30 {
                    return Ok::<u64, std::io::Error>(written);
                }
            }
        })
    };
    let started = Instant::now();
    let run = check_json(&input).expect_code(1);
    assert!(started.elapsed() < Duration::from_secs(60));
    let lines = run.json_lines();
    assert_eq!(lines.len(), 2, "{}", run.text());
    assert_eq!(lines[0]["diagnostics"][0]["code"], "sgn::binary");
    assert_eq!(lines[1]["summary"]["bytes"], 0);
    // The writer stops on the closed pipe, long before its gigabyte.
    let stopped = writer.join().unwrap();
    assert!(stopped.is_err(), "the whole stream was read: {stopped:?}");
}

/// A random file was ~1,190 garbage games and a summary with more bytes than the file has (a
/// byte that is not UTF-8 was counted as the two of its Latin-1 reading).
#[test]
fn the_summary_counts_the_file_bytes_of_its_games() {
    let dir = TempDir::new("bytes");
    let mut text = b"[Event \"".to_vec();
    text.extend(std::iter::repeat_n(0xe9u8, 5000));
    text.extend_from_slice(b"\"]\n\n1. 33-43 *");
    let file = write_bytes(&dir, "latin1.sgn", &text);
    let run = check_json(&file).ok();
    let lines = run.json_lines();
    assert_eq!(lines[0]["diagnostics"][0]["code"], "sgn::latin1");
    assert_eq!(lines[1]["summary"]["bytes"], text.len() as u64);
}

/// `extract -o k.sgn --split N` with `k-2.sgn` an input overwrote an existing `k-1.sgn` before
/// it failed, and left parts of earlier runs beside this run's.
#[test]
fn split_checks_every_part_before_writing_and_commits_all_or_nothing() {
    let dir = TempDir::new("split");
    let games: String = (1..=3)
        .map(|i| VALID.replace("ok", &format!("g{i}")) + "\n")
        .collect();
    dir.write("in.sgn", &games);
    dir.write("k-2.sgn", VALID);
    dir.write("k-1.sgn", "an earlier run's\n");
    let run = salta_in(
        &dir.0,
        &[
            "extract", "in.sgn", "k-2.sgn", "-o", "k.sgn", "--split", "1",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the input k-2.sgn would be one of them"),
        "{}",
        run.stderr
    );
    assert_eq!(read(&dir.path("k-1.sgn")), b"an earlier run's\n");
    assert_eq!(dir.files(), ["in.sgn", "k-1.sgn", "k-2.sgn"]);

    // A run that fails part-way (its second input, a device without a driver, cannot be opened)
    // leaves every file as it was, and no temporary file.
    std::fs::remove_file(dir.path("k-2.sgn")).unwrap();
    if let Some(broken) = device(&dir.path("broken.sgn"), 240, 0) {
        let run = salta_in(
            &dir.0,
            &[
                "extract",
                "in.sgn",
                "broken.sgn",
                "-o",
                "k.sgn",
                "--split",
                "1",
            ],
        );
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("broken.sgn"), "{}", run.stderr);
        std::fs::remove_file(broken).unwrap();
        assert_eq!(dir.files(), ["in.sgn", "k-1.sgn"]);
        assert_eq!(read(&dir.path("k-1.sgn")), b"an earlier run's\n");
    }

    // Parts of an earlier, longer run beyond this run's last are removed (and said so).
    for n in [3, 4, 12] {
        dir.write(&format!("k-{n}.sgn"), "old\n");
    }
    dir.write("k-07x.sgn", "not a part\n");
    let run = salta_in(
        &dir.0,
        &["extract", "in.sgn", "-o", "k.sgn", "--split", "2"],
    )
    .expect_code(0);
    assert_eq!(
        dir.files(),
        ["in.sgn", "k-07x.sgn", "k-1.sgn", "k-2.sgn"],
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.matches("left by an earlier run").count(), 3);
    let parts = [read(&dir.path("k-1.sgn")), read(&dir.path("k-2.sgn"))].concat();
    assert_eq!(
        String::from_utf8(parts).unwrap().matches("[Event").count(),
        3
    );
}
