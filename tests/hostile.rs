//! The command line against a hostile user (issue 32): clap's own output, file names that carry
//! escape sequences or are not UTF-8, outputs that cannot be written, FIFOs without a reader,
//! interrupted runs. Special files are made in temporary folders (mknod, mkfifo) or in a private
//! mount namespace, never taken from the machine's /dev.

use crate::cli::{Run, check_json, root, salta, salta_args, salta_command};
use crate::io::salta_within;
use crate::special::{TempDir, device, fifo, in_mount_namespace};
use std::io::{BufRead, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAME: &str = "corpus/edge-cases/green-wins.sgn";

/// Runs the binary with its standard output into a pipe whose reader has already gone.
fn into_closed_pipe(args: &[&str]) -> Run {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    salta_command()
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("runs")
        .into()
}

/// `salta completions bash | true` ended in a panic (exit 101) inside clap_complete; into a full
/// device too. A closed pipe ends quietly (0); a full disk is an error (2); `--help` into a full
/// disk was a silent success.
#[cfg(unix)]
#[test]
fn completions_and_help_into_a_closed_pipe_or_a_full_disk_never_panic() {
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["man"],
        &["--help"],
        &["check", "--help"],
        &["--version"],
    ] {
        let run = into_closed_pipe(args).expect_code(0);
        assert!(run.stderr.is_empty(), "{args:?}: {}", run.stderr);
    }
    let dir = TempDir::new("full-help");
    let Some(full) = device(&dir.path("full"), 1, 7) else {
        return;
    };
    for args in [
        &["completions", "bash"][..],
        &["man"],
        &["--help"],
        &["extract", "--help"],
    ] {
        let run = salta_within(Duration::from_secs(30), |c| {
            c.args(args).stdout(std::fs::File::create(&full).unwrap());
        })
        .expect_code(2);
        assert!(
            run.stderr.contains("No space left") && !run.stderr.contains("panicked"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

/// The output of a command run on a pseudo-terminal (made by `script`), or `None` where there is
/// none.
fn on_a_terminal(args: &str) -> Option<String> {
    let command = format!("'{}' {args}", env!("CARGO_BIN_EXE_salta"));
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(root())
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (!text.is_empty()).then_some(text)
}

/// Clap's usage errors and help were coloured on a terminal whatever `--color` said.
#[test]
fn usage_errors_and_help_follow_the_color_option() {
    // On a pipe: plain unless asked.
    let plain = salta(&["check", "--bogus"]).expect_code(2);
    assert!(plain.stderr.contains("unexpected argument '--bogus'"));
    assert!(!plain.stderr.contains('\x1b'), "{}", plain.stderr);
    let asked = salta(&["--color", "always", "check", "--bogus"]).expect_code(2);
    assert!(asked.stderr.contains("\x1b["), "{}", asked.stderr);
    let help = salta(&["check", "--help", "--color=always"]).ok();
    assert!(help.text().contains("\x1b["));
    assert!(!salta(&["check", "--help"]).ok().text().contains('\x1b'));
    // After `--`, `--color` is not the option.
    let after = salta(&["check", "--", "--color", "always", "--bogus"]);
    assert!(!after.stderr.contains('\x1b'), "{}", after.stderr);
    let Some(coloured) = on_a_terminal("check --bogus") else {
        eprintln!("skipped: no pseudo-terminal through `script` here");
        return;
    };
    assert!(coloured.contains("\x1b["), "{coloured:?}");
    for args in [
        "check --color never --bogus",
        "--color never check --help",
        "--color=never --help",
        "check --bogus --color never",
    ] {
        let text = on_a_terminal(args).expect("ran");
        assert!(
            text.contains("Usage") || text.contains("usage"),
            "{args}: {text}"
        );
        assert!(!text.contains('\x1b'), "{args}: {text:?}");
    }
}

/// Warnings and errors about files printed their names raw: an escape sequence in a FIFO's name
/// (a folder walk's warning) or a missing file's name reached the terminal.
#[cfg(unix)]
#[test]
fn file_names_reach_the_terminal_only_made_printable() {
    let dir = TempDir::new("evil-names");
    std::fs::copy(root().join(GAME), dir.path("good.sgn")).unwrap();
    fifo(&dir.path("x\x1b]0;pwned\x07\n.sgn"));
    let missing = dir.path("no\x1b[31mfile\n.sgn");
    for command in ["check", "extract", "repair"] {
        let run = salta_args![command, dir.0, missing];
        assert_eq!(run.code, 2, "{command}: {}", run.stderr);
        assert!(
            !run.stderr.contains('\x1b') && !run.stderr.contains('\x07'),
            "{command}: {:?}",
            run.stderr
        );
        assert!(run.stderr.contains("no?[31mfile?.sgn"), "{}", run.stderr);
    }
    // The folder alone: the FIFO's warning is one line, the name made printable.
    let run = salta_args!["check", dir.0].ok();
    let warning: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(warning.len(), 1, "{:?}", run.stderr);
    assert!(
        warning[0].contains("x?]0;pwned??.sgn: skipped"),
        "{warning:?}"
    );
}

/// A file whose name is not UTF-8 (or holds control characters) is named in JSON by its bytes
/// too, in base64, so that a program can find it again; `file` is the name for people.
#[cfg(unix)]
#[test]
fn json_names_a_file_whose_name_is_not_utf8_by_its_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("latin1-name");
    let game = std::fs::read(root().join(GAME)).unwrap();
    let names: [&[u8]; 3] = [b"partie-\xe9t\xe9.sgn", b"tab\x1bname.sgn", b"plain.sgn"];
    for name in names {
        std::fs::write(dir.0.join(std::ffi::OsStr::from_bytes(name)), &game).unwrap();
    }
    let run = salta_args!["check", "--format", "json", dir.0].ok();
    let lines = run.json_lines();
    assert_eq!(lines.len(), 4);
    let decode = |text: &str| -> Vec<u8> {
        let value = |c: u8| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            _ => 63,
        } as u32;
        let mut out = Vec::new();
        for group in text.as_bytes().chunks(4) {
            let data: Vec<u8> = group.iter().copied().filter(|&c| c != b'=').collect();
            let n = data
                .iter()
                .enumerate()
                .fold(0, |n, (i, &c)| n | value(c) << (18 - 6 * i));
            out.extend((0..data.len() - 1).map(|i| (n >> (16 - 8 * i)) as u8));
        }
        out
    };
    let mut found = Vec::new();
    for line in &lines[..3] {
        let file = line["file"].as_str().unwrap();
        let bytes = match line.get("file_bytes") {
            Some(encoded) => decode(encoded.as_str().unwrap()),
            None => file.as_bytes().to_vec(),
        };
        let path = std::path::PathBuf::from(std::ffi::OsStr::from_bytes(&bytes));
        assert!(path.exists(), "{line}");
        found.push(path.file_name().unwrap().as_bytes().to_vec());
        assert_eq!(
            line.get("file_bytes").is_some(),
            !path.ends_with("plain.sgn"),
            "{line}"
        );
    }
    found.sort();
    let mut expected: Vec<Vec<u8>> = names.iter().map(|n| n.to_vec()).collect();
    expected.sort();
    assert_eq!(found, expected);
}

/// `-o` into a folder that cannot be written said "cannot write ro/out.sgn", as if the file were
/// the trouble: the folder is named. Made read-only by a bind mount in a private mount namespace
/// (a root user writes anywhere else).
#[test]
fn output_into_a_read_only_folder_names_the_folder() {
    let dir = TempDir::new("ro");
    std::fs::create_dir_all(dir.path("ro")).unwrap();
    let script = format!(
        "mount --bind '{ro}' '{ro}' && mount -o remount,bind,ro '{ro}' && '{salta}' generate --games 1 -o '{ro}/out.sgn'; echo \"exit $?\"",
        ro = dir.path("ro").display(),
        salta = env!("CARGO_BIN_EXE_salta"),
    );
    let Some(run) = in_mount_namespace(&script) else {
        return;
    };
    // As one line: the report wraps long lines.
    let stderr = String::from_utf8_lossy(&run.stderr).replace("\n  │ ", " ");
    assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "exit 2");
    let folder = dir.path("ro").display().to_string();
    assert!(
        stderr.contains(&format!("cannot create a file in the folder {folder}")),
        "{stderr}"
    );
}

/// `-o` naming a FIFO that no program reads waited without a word; input FIFOs get a note.
#[cfg(unix)]
#[test]
fn output_to_a_fifo_without_a_reader_says_that_it_waits() {
    let dir = TempDir::new("fifo-out");
    let out = fifo(&dir.path("out.sgn"));
    let mut child = salta_command()
        .args(["convert", GAME, "--to", "algebraic", "-o"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The note comes while nothing reads the FIFO; only then is it opened.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut note = String::new();
    stderr.read_line(&mut note).unwrap();
    assert!(
        note.contains("out.sgn is a FIFO: writing waits until a program opens it for reading"),
        "{note}"
    );
    let mut written = String::new();
    std::fs::File::open(&out)
        .unwrap()
        .read_to_string(&mut written)
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert!(written.starts_with("[Event"), "{written}");
    // With a reader already there: no note.
    let reader = {
        let out = out.clone();
        std::thread::spawn(move || std::fs::read(out).unwrap())
    };
    // The reader's open waits for a writer: give it time to be waiting.
    std::thread::sleep(Duration::from_millis(200));
    let run = salta_args!["convert", GAME, "--to", "numeric", "-o", out].ok();
    assert!(!reader.join().unwrap().is_empty());
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

/// A 0-byte file was "0 games" without a word; a file of whitespace gave `sgn::no-game`.
#[test]
fn an_empty_file_holds_no_game_and_says_so() {
    let dir = TempDir::new("empty");
    let empty = dir.write("empty.sgn", "");
    let blank = dir.write("blank.sgn", "\n  \n");
    for file in [&empty, &blank] {
        let run = check_json(file);
        let lines = run.json_lines();
        assert_eq!(lines.len(), 2, "{}", run.text());
        assert_eq!(lines[0]["diagnostics"][0]["code"], "sgn::no-game");
        assert_eq!(lines[1]["summary"]["games"], 1);
    }
    let human = salta_args!["check", empty];
    assert!(
        human.text().contains("no game in the file"),
        "{}",
        human.text()
    );
}

/// The summary's time was the checking's alone: with a thousand threads to start, 0.71 s were
/// reported for a 5.5 s run. It is the run's wall time.
#[test]
fn the_summary_gives_the_wall_time_of_the_run() {
    let started = Instant::now();
    let run = salta(&[
        "check",
        "--format",
        "json",
        "--threads",
        "1024",
        "corpus/synthetic",
    ])
    .ok();
    let wall = started.elapsed().as_secs_f64();
    let lines = run.json_lines();
    let seconds = lines.last().unwrap()["summary"]["seconds"]
        .as_f64()
        .unwrap();
    // Only the process's start and end lie outside what it can measure.
    assert!(
        seconds <= wall && seconds >= 0.8 * wall - 0.05,
        "summary {seconds} s, run {wall} s"
    );
}

/// SIGINT or SIGTERM left the temporary file of `-o` behind; it is removed, and the process still
/// ends of the signal.
#[cfg(unix)]
#[test]
fn an_interrupted_run_removes_its_temporary_files() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    for signal in ["INT", "TERM", "HUP"] {
        let dir = TempDir::new("interrupted");
        let input = fifo(&dir.path("in.sgn"));
        let mut command = salta_command();
        command
            .arg("extract")
            .arg(&input)
            .arg("-o")
            .arg(dir.path("out.sgn"))
            .arg("--rejected")
            .arg(dir.path("rejected.sgn"))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // A test run started in the background of a shell without job control inherits SIGINT
        // ignored, and salta rightly keeps an ignored signal ignored: give the child the default
        // actions, as an interactive shell would.
        // SAFETY: between fork and exec only async-signal-safe calls (signal) are made.
        unsafe {
            command.pre_exec(|| {
                for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                    libc::signal(signal, libc::SIG_DFL);
                }
                Ok(())
            });
        }
        let mut child = command.spawn().unwrap();
        // The outputs are opened first, then the input FIFO, which waits for a writer: hold it
        // open without writing, and the run waits with its temporary files made.
        let writer = std::fs::OpenOptions::new()
            .write(true)
            .open(&input)
            .unwrap();
        let temporary = |dir: &TempDir| {
            dir.files()
                .into_iter()
                .filter(|f| f.contains("salta-tmp"))
                .count()
        };
        let started = Instant::now();
        while temporary(&dir) < 2 {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no temporary files"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        drop(writer);
        assert_eq!(
            status.signal(),
            Some(match signal {
                "INT" => 2,
                "TERM" => 15,
                _ => 1,
            }),
            "{status:?}"
        );
        assert_eq!(dir.files(), ["in.sgn"], "SIG{signal}");
    }
}
