//! Outputs, pipes, special files and standard input, end to end: what `-o` does to the file it
//! names and to what lies beside it, what every command does when its reader goes away or the
//! disk is full, and what folders with FIFOs, devices and link loops give. Device nodes are made
//! with mknod in a temporary folder (never the machine's own /dev); a test that is not permitted
//! to make one says so and passes.

use crate::cli::{Run, check_json, piped_salta, root, salta, salta_args};
use crate::special::{TempDir, device, fifo, in_mount_namespace};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAME: &str = "corpus/edge-cases/green-wins.sgn";

/// Runs the binary with `configure` applied to its command, killing it after `limit`.
pub(crate) fn salta_within(limit: Duration, configure: impl FnOnce(&mut Command)) -> Run {
    let mut command = piped_salta();
    command.stdin(Stdio::null());
    configure(&mut command);
    let mut child = command.spawn().expect("the salta binary runs");
    let started = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let output = child.wait_with_output().expect("waits");
            panic!(
                "still running after {limit:?}\n--- stderr\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("waits").into()
}

#[cfg(unix)]
fn file_type(path: &Path) -> std::fs::FileType {
    std::fs::symlink_metadata(path).unwrap().file_type()
}

fn converted(to: &str) -> Vec<u8> {
    salta(&["convert", GAME, "--to", to]).ok().stdout
}

// ---------------------------------------------------------------------------------------------
// -o: temporary files

/// The old temporary name was `.NAME.PID.tmp`, created through whatever was there: in a PID
/// namespace salta is process 1, so a link planted at `.out.sgn.1.tmp` would have been followed.
#[cfg(unix)]
#[test]
fn output_never_writes_through_a_link_planted_at_a_temporary_name() {
    let dir = TempDir::new("planted");
    let victim = dir.write("victim.txt", "precious\n");
    for name in [".out.sgn.1.tmp", ".out.sgn.2.tmp"] {
        std::os::unix::fs::symlink(&victim, dir.path(name)).unwrap();
    }
    let out = dir.path("out.sgn");
    let run = Command::new("unshare")
        .args(["--pid", "--fork", "--mount-proc"])
        .arg(env!("CARGO_BIN_EXE_salta"))
        .args(["convert", GAME, "--to", "numeric", "-o"])
        .arg(&out)
        .current_dir(root())
        .output();
    match run {
        Ok(run) if run.status.success() => {}
        Ok(run) => {
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert!(
                stderr.contains("unshare"),
                "salta failed in its namespace: {stderr}"
            );
            eprintln!(
                "skipped: cannot make a PID namespace here: {}",
                stderr.trim()
            );
            return;
        }
        Err(e) => {
            eprintln!("skipped: no unshare: {e}");
            return;
        }
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert_eq!(std::fs::read(&out).unwrap(), converted("numeric"));
    assert_eq!(
        dir.files(),
        [".out.sgn.1.tmp", ".out.sgn.2.tmp", "out.sgn", "victim.txt"]
    );
}

#[cfg(unix)]
#[test]
fn output_keeps_the_permissions_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("mode");
    let out = dir.write("out.sgn", "old\n");
    for mode in [0o600, 0o640, 0o664] {
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(mode)).unwrap();
        salta_args!["convert", GAME, "--to", "numeric", "-o", out].ok();
        let now = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(now, mode, "{mode:o} became {now:o}");
    }
}

/// Temporary files left by a run that was killed (its process is gone) are removed by the next
/// run writing the same output on the same machine; those of a running process are not.
#[test]
fn output_removes_temporary_files_left_by_dead_runs() {
    if !Path::new("/proc/self").exists() {
        eprintln!("skipped: no /proc to look processes up in");
        return;
    }
    let host: String = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap_or_default()
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let dir = TempDir::new("stale");
    // Beyond any pid_max: no such process.
    let dead = format!(".out.sgn.salta-tmp.{host}.4194999.0123456789abcdef");
    let alive = format!(
        ".out.sgn.salta-tmp.{host}.{}.0123456789abcdef",
        std::process::id()
    );
    let other_output = format!(".other.sgn.salta-tmp.{host}.4194999.0123456789abcdef");
    for name in [&dead, &alive, &other_output] {
        dir.write(name, "left behind");
    }
    salta_args![
        "convert",
        GAME,
        "--to",
        "numeric",
        "-o",
        dir.path("out.sgn")
    ]
    .ok();
    let mut expected = vec![alive, other_output, "out.sgn".to_string()];
    expected.sort();
    assert_eq!(dir.files(), expected);
}

// ---------------------------------------------------------------------------------------------
// -o: special files

#[cfg(unix)]
#[test]
fn output_to_a_device_is_written_in_place_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = TempDir::new("devnull");
    let Some(null) = device(&dir.path("null"), 1, 3) else {
        return;
    };
    for args in [
        vec!["convert", GAME, "--to", "json", "-o"],
        vec!["generate", "--games", "2", "--no-margins", "-o"],
        vec!["extract", GAME, "-o"],
        vec!["diagram", GAME, "-o"],
    ] {
        let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        args.push(null.as_os_str());
        salta(&args).ok();
        assert!(file_type(&null).is_char_device(), "{args:?} replaced it");
    }
    assert_eq!(dir.files(), ["null"]);
}

#[cfg(unix)]
#[test]
fn output_to_a_fifo_is_written_into_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = TempDir::new("fifo-out");
    let pipe = fifo(&dir.path("pipe"));
    let (sender, receiver) = std::sync::mpsc::channel();
    let reading = pipe.clone();
    std::thread::spawn(move || {
        let _ = sender.send(std::fs::read(&reading));
    });
    salta_args!["convert", GAME, "--to", "algebraic", "-o", pipe].ok();
    let read = receiver
        .recv_timeout(Duration::from_secs(20))
        .expect("nothing came through the FIFO")
        .unwrap();
    assert_eq!(read, converted("algebraic"));
    assert!(file_type(&pipe).is_fifo());
}

/// A full disk: every write error is reported with exit code 2, for files, devices and standard
/// output, and never as a panic.
#[cfg(unix)]
#[test]
fn a_full_device_is_an_error_with_exit_code_2() {
    use std::os::unix::fs::FileTypeExt;
    let dir = TempDir::new("full");
    let Some(full) = device(&dir.path("full"), 1, 7) else {
        return;
    };
    for args in [
        vec!["convert", GAME, "--to", "yaml", "-o"],
        vec!["generate", "--games", "2", "--no-margins", "-o"],
        vec!["extract", GAME, "-o"],
    ] {
        let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        args.push(full.as_os_str());
        let run = salta(&args).expect_code(2);
        assert!(
            run.stderr.contains("No space left"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(file_type(&full).is_char_device());
    }
    for args in [
        vec!["adjudicate", GAME],
        vec!["perft", "2"],
        vec!["check", GAME],
        vec!["convert", GAME, "--to", "numeric"],
        vec!["diagram", GAME],
    ] {
        let run = salta_within(Duration::from_secs(60), |c| {
            c.args(&args).stdout(std::fs::File::create(&full).unwrap());
        })
        .expect_code(2);
        assert!(
            run.stderr.contains("No space left"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    }
}

/// A regular file on a full file system: the error, and neither the output nor a temporary file
/// left behind. Needs a tiny tmpfs in a mount namespace of its own.
#[test]
fn a_full_file_system_is_an_error_and_leaves_nothing() {
    let dir = TempDir::new("tmpfs");
    let script = format!(
        "mount -t tmpfs -o size=16k tmpfs '{dir}' && '{salta}' generate --games 60 --no-margins -o '{dir}/out.sgn'; echo \"exit $?\"; ls -A '{dir}'",
        dir = dir.0.display(),
        salta = env!("CARGO_BIN_EXE_salta"),
    );
    let Some(run) = in_mount_namespace(&script) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(stdout.trim(), "exit 2", "{stderr}");
    assert!(stderr.contains("No space left"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// convert commits only on success

#[test]
fn convert_leaves_the_output_as_it_was_when_it_fails() {
    let dir = TempDir::new("convert-fails");
    let out = dir.write("out.sgn", "OLD\n");
    let broken = dir.write(
        "broken.sgn",
        "[Event \"one\"]\n\n1. 33-43 83-74 *\n\n[Event \"two\"]\n\n1. 33-43 83-74 2. 32-42 ) *\n",
    );
    for input in [dir.path("missing.sgn"), broken] {
        for to in ["numeric", "json"] {
            let run = salta_args!["convert", GAME, input, "--to", to, "-o", out].expect_code(1);
            assert!(run.stderr.contains("left as it was"), "{}", run.stderr);
            assert_eq!(std::fs::read_to_string(&out).unwrap(), "OLD\n");
        }
    }
    assert_eq!(dir.files(), ["broken.sgn", "out.sgn"]);
}

/// Games are converted as they are read: the first ones come out before the input ends.
#[cfg(unix)]
#[test]
fn convert_streams_games_as_they_are_read() {
    // A JSON game's document ends with a line `},`; a LaTeX game with its closing sentence, and
    // the next starts with `\saltanewgame`.
    first_game_before_the_input_ends("json", |line| line.starts_with('}'));
    first_game_before_the_input_ends("latex", |line| line.starts_with("\\saltanewgame"));
}

/// `salta convert - --to TARGET` gives its first game, up to the line `ends` finds, while its
/// input is still open.
#[cfg(unix)]
fn first_game_before_the_input_ends(target: &str, ends: fn(&str) -> bool) {
    use std::io::{BufRead, Write};
    let mut child = piped_salta()
        .args(["convert", "-", "--to", target])
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    let output = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        let mut lines = std::io::BufReader::new(output).lines();
        let first: Vec<String> = lines
            .by_ref()
            .map_while(Result::ok)
            .take_while(|l| !ends(l))
            .collect();
        let _ = sender.send(first.join("\n"));
        lines.for_each(drop);
    });
    // More games than the reader asks for at a time (1 MiB), and the start of one more.
    let games = "[Event \"first\"]\n\n1. 33-43 83-74 *\n\n".repeat(40_000);
    input.write_all(games.as_bytes()).unwrap();
    input.write_all(b"[Event \"last\"]\n").unwrap();
    input.flush().unwrap();
    let first = receiver
        .recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{target}: the first game was held back until the input ended"));
    assert!(first.contains("first"), "{target}: {first}");
    // Setting 40,000 games for print takes a while: enough was seen.
    let _ = child.kill();
    drop(input);
    let _ = child.wait();
}

// ---------------------------------------------------------------------------------------------
// closed pipes

/// `salta ... | head` where head has gone: the command ends at once, quietly, exit code 0.
#[test]
fn every_command_ends_quietly_on_a_closed_pipe() {
    let dir = TempDir::new("pipe");
    // Large enough that check would take a long while to read it all.
    let big = dir.path("big.sgn");
    let game = std::fs::read_to_string(root().join(GAME)).unwrap();
    std::fs::write(&big, format!("{game}\n").repeat(20_000)).unwrap();
    let big = big.to_string_lossy().into_owned();
    for args in [
        vec!["adjudicate", GAME],
        vec!["perft", "3"],
        vec!["perft", "2", "--divide"],
        vec!["check", &big],
        vec!["check", "--format", "json", &big],
        vec!["convert", &big, "--to", "numeric"],
        vec!["extract", &big],
        vec!["generate", "--games", "3", "--no-margins"],
        vec!["diagram", GAME],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let run = salta_within(Duration::from_secs(20), |c| {
            c.args(&args).stdout(writer);
        });
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(
            !run.stderr.contains("panicked") && !run.stderr.contains("Broken pipe"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// reading: special files, loops, long lines, standard input

#[cfg(unix)]
#[test]
fn folders_skip_what_is_not_a_regular_file_and_say_so() {
    let dir = TempDir::new("specials");
    dir.write(
        "games/a.sgn",
        &std::fs::read_to_string(root().join(GAME)).unwrap(),
    );
    fifo(&dir.path("games/pipe.sgn"));
    let zero = device(&dir.path("games/zero.sgn"), 1, 5);
    let run = salta_within(Duration::from_secs(30), |c| {
        c.args(["check", "--format", "json"]).arg(dir.path("games"));
    })
    .ok();
    assert_eq!(run.json_lines().len(), 2, "one game and the summary");
    assert!(
        run.stderr
            .contains("pipe.sgn: skipped: a FIFO, not a regular file"),
        "{}",
        run.stderr
    );
    if zero.is_some() {
        assert!(
            run.stderr
                .contains("zero.sgn: skipped: a character device, not a regular file"),
            "{}",
            run.stderr
        );
    }
}

/// A device named on the command line is read: an endless one of NUL bytes is found binary at its
/// head, said once, and read no further (it was read for ever, or to a line limit).
#[cfg(unix)]
#[test]
fn an_endless_device_named_explicitly_is_judged_by_its_head() {
    let dir = TempDir::new("zero");
    let Some(zero) = device(&dir.path("zero"), 1, 5) else {
        return;
    };
    let run = salta_within(Duration::from_secs(30), |c| {
        c.arg("check").arg(&zero);
    })
    .expect_code(1);
    assert_eq!(
        run.text().matches("sgn::binary").count(),
        1,
        "{}",
        run.text()
    );
}

/// A line longer than a game may be belongs to a game too large to read: that game is reported
/// once, and the file is read on (it stopped the file with exit code 2).
#[test]
fn a_line_longer_than_a_game_may_be_is_one_oversized_game() {
    let dir = TempDir::new("long-line");
    let game = std::fs::read_to_string(root().join(GAME)).unwrap();
    let mut text = format!("{game}\n");
    text.push_str(&"x".repeat(9 << 20));
    text.push_str(&format!("\n\n{game}"));
    let file = dir.write("long.sgn", &text);
    let run = check_json(&file).expect_code(1);
    let lines = run.json_lines();
    let statuses: Vec<&str> = lines.iter().filter_map(|l| l["status"].as_str()).collect();
    assert_eq!(statuses, ["valid", "invalid", "valid"]);
    assert_eq!(lines[1]["diagnostics"][0]["code"], "sgn::game-too-large");
}

#[cfg(unix)]
#[test]
fn link_loops_are_read_once_and_reported() {
    let dir = TempDir::new("loops");
    dir.write(
        "games/sub/a.sgn",
        &std::fs::read_to_string(root().join(GAME)).unwrap(),
    );
    std::os::unix::fs::symlink(".", dir.path("games/loop")).unwrap();
    std::os::unix::fs::symlink("..", dir.path("games/sub/up")).unwrap();
    let run = salta_within(Duration::from_secs(30), |c| {
        c.args(["check", "--format", "json"]).arg(dir.path("games"));
    })
    .ok();
    assert_eq!(run.json_lines().len(), 2, "one game and the summary");
    assert_eq!(
        run.stderr.matches("already read").count(),
        2,
        "{}",
        run.stderr
    );
}

#[test]
fn a_dash_reads_standard_input() {
    let game = std::fs::read(root().join(GAME)).unwrap();
    for args in [
        vec!["check", "-"],
        vec!["convert", "-", "--to", "algebraic"],
        vec!["extract", "-"],
        vec!["adjudicate", "-"],
        vec!["diagram", "-"],
    ] {
        let mut child = piped_salta().args(&args).spawn().unwrap();
        let mut input = child.stdin.take().unwrap();
        std::io::Write::write_all(&mut input, &game).unwrap();
        drop(input);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        let mut from_file = args.clone();
        from_file[1] = GAME;
        let expected = salta(&from_file).ok();
        // Without the timing of check's summary line.
        let comparable = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| !l.ends_with(" s)"))
                .map(|l| l.replace("<stdin>", GAME))
                .collect()
        };
        assert_eq!(
            comparable(&String::from_utf8_lossy(&out.stdout)),
            comparable(&expected.text()),
            "{args:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// the terminal

/// A file name and a comment that carry escape sequences and a newline: neither reaches the
/// report raw, whatever the colouring; the report keeps one line per game.
#[cfg(unix)]
#[test]
fn escape_bytes_from_file_names_and_game_text_never_reach_the_terminal() {
    let dir = TempDir::new("escapes");
    let name = "evil\x1b]0;owned\x07\x1b[2J\nforged.sgn";
    dir.write(
        name,
        "[Event \"\x1b[31mred\"]\n[Result \"*\"]\n\n1. 33-43 {\x1b[2J\u{9b}} 83-74 2. 43-44 *\n\n\
         [Result \"*\"]\n\n1. 33-43 *\n",
    );
    for color in ["never", "always"] {
        let run = salta_args!["check", "--color", color, dir.path(name)].expect_code(1);
        let text = run.text();
        for raw in ["\x1b]", "\x1b[2J", "\x1b[31mred", "\x07", "\u{9b}"] {
            assert!(!text.contains(raw), "{color}: {raw:?} in\n{text}");
            assert!(
                !run.stderr.contains(raw),
                "{color}: {raw:?} in\n{}",
                run.stderr
            );
        }
        assert!(
            !text.lines().any(|l| l.starts_with("forged.sgn")),
            "a line forged by the name:\n{text}"
        );
        assert!(text.contains("game 2: valid"), "{text}");
    }
}

/// Reports wrap at spaces only: never inside a move (`104-` / `94`) or a hyphenated word (`no-` /
/// `blockade rule`, as the blockade record's message once did).
#[test]
fn report_lines_never_wrap_inside_a_move_or_word() {
    let run = salta(&[
        "check",
        "--color",
        "never",
        "tests/edge-cases/illegal-move.sgn",
        "tests/edge-cases/blockade-violation.sgn",
    ])
    .expect_code(1);
    let text = run.text();
    assert!(
        text.contains("\n        43-54\n"),
        "the help line wraps:\n{text}"
    );
    for line in text.lines() {
        let end = line.trim_end();
        assert!(
            !(end.ends_with('-') || end.ends_with(':')),
            "cut at the end of {line:?}:\n{text}"
        );
    }
}

/// Colour on a terminal (a pseudo-terminal made by `script`) unless NO_COLOR or TERM=dumb says
/// otherwise, or `--color` decides.
#[test]
fn colour_follows_no_color_term_and_the_color_option() {
    let on_a_terminal = |env: &[(&str, &str)], option: &str| -> Option<bool> {
        let command = format!(
            "'{}' check {option} tests/edge-cases/illegal-move.sgn",
            env!("CARGO_BIN_EXE_salta")
        );
        let mut script = Command::new("script");
        script
            .args(["-qec", &command, "/dev/null"])
            .current_dir(root())
            .env_remove("NO_COLOR")
            .env("TERM", "xterm-256color");
        for (key, value) in env {
            script.env(key, value);
        }
        let out = script.output().ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        text.contains("illegal").then(|| text.contains("\x1b["))
    };
    let Some(plain_terminal) = on_a_terminal(&[], "") else {
        eprintln!("skipped: no pseudo-terminal through `script` here");
        return;
    };
    assert!(plain_terminal, "no colour on a terminal");
    assert_eq!(on_a_terminal(&[("NO_COLOR", "1")], ""), Some(false));
    assert_eq!(on_a_terminal(&[("NO_COLOR", "")], ""), Some(true));
    assert_eq!(on_a_terminal(&[("TERM", "dumb")], ""), Some(false));
    assert_eq!(on_a_terminal(&[], "--color never"), Some(false));
    assert_eq!(
        on_a_terminal(&[("NO_COLOR", "1")], "--color always"),
        Some(true)
    );
    // On a pipe, only when asked.
    let piped = salta(&[
        "check",
        "--color",
        "always",
        "tests/edge-cases/illegal-move.sgn",
    ]);
    assert!(piped.text().contains("\x1b["));
}

#[test]
fn completions_and_the_manual_page() {
    let bash = salta(&["completions", "bash"]).ok().text();
    assert!(
        bash.contains("_salta()") && bash.contains("--margin-seconds"),
        "{bash}"
    );
    let zsh = salta(&["completions", "zsh"]).ok().text();
    assert!(zsh.starts_with("#compdef salta"), "{zsh}");
    let man = salta(&["man"]).ok().text();
    assert!(
        man.contains(".TH salta") && man.contains("adjudicate"),
        "{man}"
    );
    salta(&["completions", "tcsh"]).expect_code(2);
}
