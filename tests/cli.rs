//! End-to-end tests of the `salta` binary: exit codes, output formats, and the promises the commands
//! make (never writing over an input, reproducible generation, JSON reports with a fixed shape).

use crate::special::TempDir;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

/// The project folder: commands run there, so files are named relative to it in their output.
pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What a run of the binary left behind.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: String,
}

impl Run {
    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }

    /// Panics with everything the run printed unless it exited with `code`.
    pub(crate) fn expect_code(self, code: i32) -> Run {
        assert_eq!(
            self.code,
            code,
            "exit code\n--- stdout\n{}\n--- stderr\n{}",
            String::from_utf8_lossy(&self.stdout),
            self.stderr
        );
        self
    }

    pub(crate) fn ok(self) -> Run {
        self.expect_code(0)
    }

    /// The JSON lines of `check --format json`.
    pub(crate) fn json_lines(&self) -> Vec<Value> {
        self.text()
            .lines()
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: not JSON: {line}"))
            })
            .collect()
    }
}

impl From<std::process::Output> for Run {
    fn from(output: std::process::Output) -> Run {
        Run {
            code: output
                .status
                .code()
                .expect("exited, not killed by a signal"),
            stdout: output.stdout,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

/// Runs `salta ARGS...` in the project folder.
pub(crate) fn salta<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    salta_in(root(), args)
}

/// `salta ARGS...` as [`salta`] runs it, the arguments of any kinds that name one (`&str`,
/// `Path`, `PathBuf`, `OsStr`) side by side: `salta_args!["convert", GAME, "-o", out]`.
macro_rules! salta_args {
    ($($arg:expr),* $(,)?) => {
        $crate::cli::salta(&[$(::std::ffi::OsStr::new(&$arg)),*])
    };
}
pub(crate) use salta_args;

/// `salta check --format json FILE`, run from the project's root.
pub(crate) fn check_json(file: &Path) -> Run {
    salta_args!["check", "--format", "json", file]
}

/// The `salta` binary as a command run from the project's root, for a test to give its
/// arguments and streams: every test runs the binary through this.
pub(crate) fn salta_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_salta"));
    command.current_dir(root());
    command
}

/// `salta` with its standard input, output and error piped, run from the project's root: for a
/// test that feeds it or reads it while it runs (give it its arguments, then spawn it).
pub(crate) fn piped_salta() -> Command {
    let mut command = salta_command();
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs `salta ARGS...` in `dir`.
pub(crate) fn salta_in<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Run {
    salta_command()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the salta binary runs")
        .into()
}

/// The `.sgn` records of a project folder, relative to the project, sorted.
fn records(folder: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join(folder))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .map(|p| format!("{folder}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no records in {folder}");
    files
}

fn assert_no_escape_codes(run: &Run) {
    assert!(
        !run.stdout.contains(&0x1b),
        "coloured output on a pipe:\n{}",
        String::from_utf8_lossy(&run.stdout)
    );
    assert!(
        !run.stderr.contains('\x1b'),
        "coloured errors on a pipe:\n{}",
        run.stderr
    );
}

const THREE_GAMES_SECOND_BROKEN: &str = "[Event \"one\"]\n[Result \"*\"]\n\n1. 33-43 83-74 *\n\n\
[Event \"two\"]\n[Result \"*\"]\n\n1. 33-43 83-74 2. 32-42 ) *\n\n\
[Event \"three\"]\n[Result \"*\"]\n\n1. 35-44 84-75 *\n";

// ---------------------------------------------------------------------------------------------
// check

#[test]
fn check_accepts_the_corpus_of_edge_cases() {
    let run = salta(&["check", "corpus/edge-cases"]).ok();
    let text = run.text();
    let games = records("corpus/edge-cases").len();
    assert!(
        text.contains(&format!("{games} files, {games} games:")),
        "{text}"
    );
    assert!(text.contains(" 0 invalid"), "{text}");
    assert_no_escape_codes(&run);
}

#[test]
fn check_exits_1_when_a_game_is_invalid() {
    for file in records("tests/edge-cases") {
        let run = salta(&["check", &file]).expect_code(1);
        assert!(run.text().contains("1 invalid"), "{file}: {}", run.text());
        assert_no_escape_codes(&run);
    }
    // One invalid file among valid ones is enough.
    salta(&[
        "check",
        "corpus/edge-cases",
        "tests/edge-cases/illegal-move.sgn",
    ])
    .expect_code(1);
}

#[test]
fn check_exits_2_for_a_missing_path_or_a_bad_option() {
    let run = salta(&["check", "no/such/file.sgn"]).expect_code(2);
    assert!(run.stderr.contains("no/such/file.sgn"), "{}", run.stderr);
    let bad_options: [&[&str]; 5] = [
        &["--rules", "chess"],
        &["--rules", "salta; jumps=sideways"],
        &["--move-limit", "many"],
        &["--format", "xml"],
        &["--margins", "sometimes"],
    ];
    for options in bad_options {
        let mut args = vec!["check", "corpus/edge-cases/green-wins.sgn"];
        args.extend_from_slice(options);
        let run = salta(&args).expect_code(2);
        assert!(!run.stderr.is_empty(), "{options:?}: no message");
        assert!(run.stdout.is_empty(), "{options:?}: {}", run.text());
        assert_no_escape_codes(&run);
    }
    salta::<&str>(&["check"]).expect_code(2);
}

/// The fields and types of one game's JSON report.
fn assert_game_report_shape(report: &Value) {
    let file = report["file"].as_str().expect("file is a string");
    assert!(file.ends_with(".sgn"), "{report}");
    assert!(report["game"].as_u64().expect("game is a number") >= 1);
    assert!(report["offset"].is_u64(), "{report}");
    assert!(report["line"].as_u64().expect("line is a number") >= 1);
    let tags = report["tags"].as_object().expect("tags is an object");
    assert!(tags.values().all(Value::is_string), "{report}");
    assert!(
        matches!(
            report["status"].as_str(),
            Some("valid" | "warnings" | "invalid")
        ),
        "{report}"
    );
    assert!(report["plies"].is_u64(), "{report}");
    let outcome = &report["outcome"];
    if !outcome.is_null() {
        assert!(
            matches!(&outcome["winner"], Value::Null)
                || matches!(outcome["winner"].as_str(), Some("green" | "red")),
            "{report}"
        );
        assert!(
            outcome["margin"].is_null() || outcome["margin"].is_u64(),
            "{report}"
        );
        assert!(outcome["reason"].is_string(), "{report}");
    }
    for d in report["diagnostics"]
        .as_array()
        .expect("diagnostics is an array")
    {
        assert!(d["code"].as_str().is_some_and(|c| !c.is_empty()), "{d}");
        assert!(
            matches!(d["severity"].as_str(), Some("error" | "warning")),
            "{d}"
        );
        for field in ["ply", "move_number", "line", "column"] {
            assert!(d[field].is_null() || d[field].is_u64(), "{field}: {d}");
        }
        assert!(
            d["side"].is_null() || matches!(d["side"].as_str(), Some("green" | "red")),
            "{d}"
        );
        assert!(d["message"].as_str().is_some_and(|m| !m.is_empty()), "{d}");
    }
    // A game's status follows from its diagnostics.
    let severities: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["severity"].as_str())
        .collect();
    let expected = if severities.contains(&"error") {
        "invalid"
    } else if severities.contains(&"warning") {
        "warnings"
    } else {
        "valid"
    };
    assert_eq!(report["status"], expected, "{report}");
}

#[test]
fn check_json_reports_every_game_then_a_summary() {
    let run = salta(&[
        "check",
        "--format",
        "json",
        "corpus/edge-cases",
        "tests/edge-cases",
    ])
    .expect_code(1);
    assert_no_escape_codes(&run);
    let lines = run.json_lines();
    let (summary, games) = lines.split_last().expect("at least the summary");
    let accepted = records("corpus/edge-cases");
    let rejected = records("tests/edge-cases");
    assert_eq!(games.len(), accepted.len() + rejected.len());
    for report in games {
        assert_game_report_shape(report);
    }
    // Files in the order given, each folder sorted.
    let files: Vec<&str> = games.iter().map(|r| r["file"].as_str().unwrap()).collect();
    let expected: Vec<&str> = accepted
        .iter()
        .chain(&rejected)
        .map(String::as_str)
        .collect();
    assert_eq!(files, expected);
    for report in games {
        let file = report["file"].as_str().unwrap();
        let status = report["status"].as_str().unwrap();
        if file.starts_with("corpus/") {
            assert_ne!(status, "invalid", "{report}");
        } else {
            assert_eq!(status, "invalid", "{report}");
        }
    }
    let count = |status: &str| games.iter().filter(|r| r["status"] == status).count();
    let summary = &summary["summary"];
    assert_eq!(summary["files"], games.len());
    assert_eq!(summary["games"], games.len());
    assert_eq!(summary["valid"], count("valid"));
    assert_eq!(summary["warnings"], count("warnings"));
    assert_eq!(summary["invalid"], count("invalid"));
    assert_eq!(summary["invalid"], rejected.len());
    assert!(summary["seconds"].is_f64(), "{summary}");
    assert_eq!(summary["io_errors"], Value::Array(Vec::new()));
}

#[test]
fn check_json_of_a_finished_game() {
    let run = salta(&[
        "check",
        "--format",
        "json",
        "corpus/edge-cases/green-wins.sgn",
    ])
    .ok();
    let lines = run.json_lines();
    assert_eq!(lines.len(), 2, "{}", run.text());
    let game = &lines[0];
    assert_eq!(game["file"], "corpus/edge-cases/green-wins.sgn");
    assert_eq!(game["game"], 1);
    assert_eq!(game["offset"], 0);
    assert_eq!(game["line"], 1);
    assert_eq!(game["tags"]["Result"], "1-0");
    assert_eq!(game["tags"]["Margin"], "1");
    // Tags in the order of the record (serde_json's map sorts them: look at the text).
    let text = run.text();
    let at = |name: &str| text.find(&format!("\"{name}\":\"")).unwrap();
    assert!(at("Event") < at("Annotator"), "{text}");
    assert!(at("Annotator") < at("Result"), "{text}");
    assert!(at("Result") < at("Margin"), "{text}");
    assert!(at("Margin") < at("Setup"), "{text}");
    assert_eq!(game["status"], "valid");
    assert_eq!(game["plies"], 2);
    assert_eq!(game["outcome"]["winner"], "green");
    assert_eq!(game["outcome"]["margin"], 1);
    assert_eq!(game["diagnostics"], Value::Array(Vec::new()));
}

#[test]
fn check_json_diagnostic_of_an_illegal_move() {
    let run = salta(&[
        "check",
        "--format",
        "json",
        "tests/edge-cases/illegal-move.sgn",
    ])
    .expect_code(1);
    let lines = run.json_lines();
    let game = &lines[0];
    assert_eq!(game["status"], "invalid");
    let errors: Vec<&Value> = game["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert_eq!(errors.len(), 1, "{game}");
    let error = errors[0];
    // `1. 33-43 83-74 2. 43-44 *`: Green's second move, line 4, the move at column 19.
    assert_eq!(error["ply"], 3, "{error}");
    assert_eq!(error["move_number"], 2, "{error}");
    assert_eq!(error["side"], "green", "{error}");
    assert_eq!(error["line"], 4, "{error}");
    assert_eq!(error["column"], 19, "{error}");
    assert_eq!(game["plies"], 2, "the replay stops before the illegal move");
}

#[test]
fn check_lenient_lets_a_missed_jump_stand_as_a_warning() {
    let file = "tests/edge-cases/missed-jump.sgn";
    let strict = salta(&["check", "--format", "json", file]).expect_code(1);
    let strict = &strict.json_lines()[0];
    assert_eq!(strict["status"], "invalid");
    let lenient = salta(&["check", "--lenient", "--format", "json", file]).ok();
    let lenient = &lenient.json_lines()[0];
    assert_eq!(lenient["status"], "warnings", "{lenient}");
    assert_eq!(lenient["plies"], 2, "{lenient}");
    // The same finding, demoted.
    let code = |report: &Value| {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["code"].clone(), d["severity"].clone()))
            .collect::<Vec<_>>()
    };
    let strict_codes = code(strict);
    let lenient_codes = code(lenient);
    assert_eq!(strict_codes.len(), 1, "{strict}");
    assert_eq!(lenient_codes.len(), 1, "{lenient}");
    assert_eq!(strict_codes[0].0, lenient_codes[0].0);
    assert_eq!(strict_codes[0].1, "error");
    assert_eq!(lenient_codes[0].1, "warning");
}

#[test]
fn check_searches_folders_recursively_for_sgn_files_only() {
    let dir = TempDir::new("walk");
    let game = std::fs::read_to_string(root().join("corpus/edge-cases/green-wins.sgn")).unwrap();
    dir.write("a.sgn", &game);
    dir.write("deep/er/b.SGN", &game);
    dir.write("deep/c.sgn", &game);
    // Not records: other extensions, even with a broken game inside.
    dir.write("notes.txt", "1. 33-43 83-74 2. 43-44 *\n");
    dir.write("deep/d.sgn.bak", "1. 33-43 83-74 2. 43-44 *\n");
    dir.write("deep/e.pgn", "1. 33-43 83-74 2. 43-44 *\n");
    let run = salta_args!["check", "--format", "json", dir.0].ok();
    let lines = run.json_lines();
    let files: Vec<String> = lines[..lines.len() - 1]
        .iter()
        .map(|r| {
            Path::new(r["file"].as_str().unwrap())
                .strip_prefix(&dir.0)
                .unwrap()
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(files, ["a.sgn", "deep/c.sgn", "deep/er/b.SGN"]);
    assert_eq!(lines.last().unwrap()["summary"]["files"], 3);
}

#[test]
fn check_resynchronises_after_a_syntax_error() {
    let dir = TempDir::new("resync");
    let file = dir.write("three.sgn", THREE_GAMES_SECOND_BROKEN);
    let run = check_json(&file).expect_code(1);
    let lines = run.json_lines();
    assert_eq!(lines.len(), 4, "{}", run.text());
    let games = &lines[..3];
    let index: Vec<u64> = games.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    assert_eq!(index, [1, 2, 3]);
    let status: Vec<&str> = games
        .iter()
        .map(|g| g["status"].as_str().unwrap())
        .collect();
    assert_eq!(status, ["valid", "invalid", "valid"]);
    assert_eq!(games[0]["tags"]["Event"], "one");
    assert_eq!(games[2]["tags"]["Event"], "three");
    assert_eq!(games[0]["plies"], 2);
    assert_eq!(games[2]["plies"], 2);
    assert_eq!(games[0]["line"], 1);
    assert_eq!(games[1]["line"], 6);
    assert_eq!(games[2]["line"], 11);
    let error = &games[1]["diagnostics"][0];
    assert_eq!(error["severity"], "error");
    assert_eq!(error["line"], 9, "{error}");
    for game in games {
        assert_game_report_shape(game);
    }
    // The human report names the broken game and the error's place.
    let human = salta_args!["check", file].expect_code(1);
    assert_no_escape_codes(&human);
    let text = human.text();
    assert!(text.contains("three.sgn:9:"), "{text}");
    assert!(
        text.contains("3 games: 2 valid, 0 with warnings, 1 invalid"),
        "{text}"
    );
}

#[test]
fn check_overrides_rules_and_move_limit() {
    let file = "corpus/edge-cases/move-limit-win.sgn";
    let tagged = salta(&["check", "--format", "json", file]).ok();
    let tagged = &tagged.json_lines()[0];
    assert_eq!(tagged["status"], "valid", "{tagged}");
    assert_eq!(tagged["outcome"]["reason"], "move-limit", "{tagged}");
    // Without its MoveLimit (or with a longer one) the game is unfinished: the recorded result
    // cannot be checked, a warning.
    for limit in ["-", "50"] {
        let run = salta(&["check", "--format", "json", "--move-limit", limit, file]).ok();
        let game = &run.json_lines()[0];
        assert!(game["outcome"].is_null(), "{game}");
        assert_eq!(game["status"], "warnings", "{game}");
        assert_eq!(
            game["diagnostics"][0]["code"], "salta::result-not-reached",
            "{game}"
        );
    }
    // Pyramid rules for a Salta record: the moves are not on a Pyramid board.
    salta(&["check", "--rules", "pyramid", file]).expect_code(1);
}

#[test]
fn check_human_output_is_plain_on_a_pipe() {
    for folder in ["corpus/edge-cases", "tests/edge-cases"] {
        let run = salta(&["check", folder]);
        assert!(run.code == 0 || run.code == 1);
        assert_no_escape_codes(&run);
    }
}

// ---------------------------------------------------------------------------------------------
// convert

/// Converts one file; the canonical text on stdout.
fn convert(file: &Path, to: &str) -> String {
    salta_args!["convert", file, "--to", to].ok().text()
}

#[test]
fn convert_writes_every_notation() {
    let file = Path::new("corpus/edge-cases/designators.sgn");
    let numeric = convert(file, "numeric");
    assert!(
        numeric.contains("1. 33-43 83-74 2. 32-42 82-73"),
        "{numeric}"
    );
    let algebraic = convert(file, "algebraic");
    assert!(algebraic.contains("1. e3-f4 f8-g7"), "{algebraic}");
    // A jump written with `-` is written as the jump it is.
    let separators = convert(
        Path::new("corpus/edge-cases/separator-warning.sgn"),
        "numeric",
    );
    assert!(separators.contains("1. 44:65 55-45 *"), "{separators}");
    let piece = convert(file, "piece");
    assert!(
        piece.contains("1. Su3-43 Su3-74 2. Su2-42 Su4-73"),
        "{piece}"
    );
    for text in [&numeric, &algebraic, &piece] {
        assert!(text.starts_with("[Event "), "{text}");
        assert!(text.ends_with(" *\n"), "{text}");
    }
}

#[test]
fn convert_round_trips_through_yaml_and_json() {
    let dir = TempDir::new("convert");
    for file in records("corpus/edge-cases") {
        let file = Path::new(&file);
        let canonical = convert(file, "numeric");
        let stem = file.file_stem().unwrap().to_string_lossy();
        for format in ["yaml", "json"] {
            let doc = dir.path(&format!("{stem}.{format}"));
            salta_args!["convert", file, "--to", format, "-o", doc].ok();
            let back = convert(&doc, "numeric");
            assert_eq!(back, canonical, "{} through {format}", file.display());
        }
        // Algebraic and piece notation read back to the same numeric record.
        for notation in ["algebraic", "piece"] {
            let written = dir.write(&format!("{stem}.{notation}.sgn"), &convert(file, notation));
            assert_eq!(
                convert(&written, "numeric"),
                canonical,
                "{} through {notation}",
                file.display()
            );
        }
    }
}

#[test]
fn convert_round_trips_pyramid_games() {
    let dir = TempDir::new("pyramid");
    let games = salta(&[
        "generate",
        "--rules",
        "pyramid",
        "--games",
        "2",
        "--seed",
        "3",
        "--move-limit",
        "30",
    ])
    .ok()
    .text();
    let file = dir.write("pyramid.sgn", &games);
    let canonical = convert(&file, "numeric");
    assert_eq!(canonical, games, "generated games are canonical");
    for to in ["yaml", "json", "algebraic", "piece"] {
        let written = dir.write(&format!("pyramid.{to}"), &convert(&file, to));
        // Read by extension: SGN in the notations, documents otherwise.
        let written = if matches!(to, "algebraic" | "piece") {
            let sgn = written.with_extension(format!("{to}.sgn"));
            std::fs::rename(&written, &sgn).unwrap();
            sgn
        } else {
            written
        };
        assert_eq!(convert(&written, "numeric"), canonical, "through {to}");
    }
}

#[test]
fn convert_json_is_an_array_and_yaml_one_document_per_game() {
    let file = "corpus/edge-cases/variations.sgn";
    let json = salta(&["convert", file, file, "--to", "json"]).ok().text();
    let value: Value = serde_json::from_str(&json).unwrap();
    let games = value.as_array().expect("an array of games");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], games[1]);
    let game = &games[0];
    assert_eq!(
        game["tags"]["Event"],
        "Edge case: comments and nested variations"
    );
    assert_eq!(game["result"], "*");
    assert_eq!(game["comments"][0], "Before the first move.");
    let first = &game["moves"][0];
    assert_eq!(first["from"]["numeric"], 33);
    assert_eq!(first["from"]["algebraic"], "e3");
    assert_eq!(first["to"]["numeric"], 43);
    assert_eq!(first["kind"], "step");
    assert_eq!(first["side"], "green");
    assert_eq!(first["piece"], "Su3");
    assert_eq!(first["variations"].as_array().unwrap().len(), 1);
    let yaml = salta(&["convert", file, file, "--to", "yaml"]).ok().text();
    assert_eq!(yaml.matches("---\n").count(), 2, "{yaml}");
}

#[test]
fn convert_refuses_to_write_over_an_input() {
    let dir = TempDir::new("overwrite");
    let original = std::fs::read(root().join("corpus/edge-cases/variations.sgn")).unwrap();
    let input = dir.path("game.sgn");
    std::fs::write(&input, &original).unwrap();
    let other = dir.write("other.sgn", "1. 33-43 *\n");
    // The same file, also under another name.
    let aliases = [input.clone(), dir.0.join(".").join("game.sgn")];
    for target in &aliases {
        for to in ["numeric", "json"] {
            let run = salta_args!["convert", other, input, "--to", to, "-o", target].expect_code(2);
            assert!(run.stderr.contains("input"), "{}", run.stderr);
            assert_eq!(std::fs::read(&input).unwrap(), original, "input changed");
        }
    }
    // Nothing left behind: no temporary files.
    assert_eq!(dir.files(), ["game.sgn", "other.sgn"]);
}

#[cfg(unix)]
#[test]
fn convert_refuses_to_write_through_a_link_to_an_input() {
    let dir = TempDir::new("symlink");
    let input = dir.write("game.sgn", "1. 33-43 83-74 *\n");
    let link = dir.path("link.sgn");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    salta_args!["convert", input, "--to", "algebraic", "-o", link].expect_code(2);
    assert_eq!(
        std::fs::read_to_string(&input).unwrap(),
        "1. 33-43 83-74 *\n"
    );
    assert_eq!(dir.files(), ["game.sgn", "link.sgn"]);
}

#[test]
fn convert_reads_latin1_bom_and_crlf_and_writes_utf8_with_newlines() {
    let dir = TempDir::new("encodings");
    let latin1 = dir.path("latin1.sgn");
    std::fs::write(
        &latin1,
        b"[Event \"J\xfcterbog\"]\n[Result \"*\"]\n\n1. 33-43 83-74 *\n",
    )
    .unwrap();
    let bom = dir.path("bom.sgn");
    std::fs::write(
        &bom,
        b"\xef\xbb\xbf[Event \"J\xc3\xbcterbog\"]\r\n[Result \"*\"]\r\n\r\n1. 33-43 83-74 *\r\n",
    )
    .unwrap();
    let expected = "[Event \"Jüterbog\"]\n[Result \"*\"]\n\n1. 33-43 83-74 *\n";
    assert_eq!(convert(&latin1, "numeric"), expected);
    assert_eq!(convert(&bom, "numeric"), expected);
    // Latin-1 is a warning for check; BOM and CRLF are not.
    let run = salta_args!["check", "--format", "json", latin1, bom].ok();
    let lines = run.json_lines();
    assert_eq!(lines[0]["status"], "warnings", "{}", lines[0]);
    assert_eq!(lines[0]["diagnostics"][0]["code"], "sgn::latin1");
    assert_eq!(lines[1]["status"], "valid", "{}", lines[1]);
}

#[test]
fn convert_writes_output_files_through_a_rename() {
    let dir = TempDir::new("output");
    let out = dir.path("out.sgn");
    std::fs::write(&out, "old contents").unwrap();
    let file = "corpus/edge-cases/green-wins.sgn";
    salta_args!["convert", file, "--to", "algebraic", "-o", out].ok();
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        convert(Path::new(file), "algebraic")
    );
    assert_eq!(dir.files(), ["out.sgn"], "no temporary file left");
    // A folder that does not exist: an error, and nothing written.
    let run = salta_args![
        "convert",
        file,
        "--to",
        "numeric",
        "-o",
        dir.path("missing/out.sgn")
    ]
    .expect_code(2);
    assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
}

#[test]
fn convert_warns_where_a_game_stops_replaying_and_converts_it_anyway() {
    let file = "tests/edge-cases/illegal-move.sgn";
    for to in ["numeric", "piece", "json"] {
        let run = salta(&["convert", file, "--to", to]).ok();
        assert!(
            run.stderr.contains(&format!("warning: {file}:4:19: ")),
            "{to}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("salta::illegal-move"), "{}", run.stderr);
        assert!(
            run.text().contains("44"),
            "{to}: the move is kept:\n{}",
            run.text()
        );
    }
}

#[test]
fn convert_exits_2_for_an_unknown_target() {
    let run = salta(&["convert", "corpus/edge-cases/green-wins.sgn", "--to", "pdn"]).expect_code(2);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("pdn"), "{}", run.stderr);
}

#[test]
fn convert_exits_1_for_an_unreadable_document_and_converts_the_rest() {
    let dir = TempDir::new("baddoc");
    let bad = dir.write("bad.json", "{\"tags\": 3}");
    let run = salta_args![
        "convert",
        bad,
        "corpus/edge-cases/green-wins.sgn",
        "--to",
        "numeric"
    ]
    .expect_code(1);
    assert!(run.stderr.contains("bad.json"), "{}", run.stderr);
    assert_eq!(
        run.text(),
        convert(Path::new("corpus/edge-cases/green-wins.sgn"), "numeric")
    );
}

// ---------------------------------------------------------------------------------------------
// diagram

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Checks the bytes of a diagram in `format` look like one.
fn assert_diagram(format: &str, bytes: &[u8], what: &str) {
    match format {
        "png" => assert!(bytes.starts_with(PNG_SIGNATURE), "{what}: not a PNG"),
        "pdf" => assert!(bytes.starts_with(b"%PDF-"), "{what}: not a PDF"),
        _ => {
            let text = std::str::from_utf8(bytes).expect("text diagrams are UTF-8");
            let ok = match format {
                "svg" => text.contains("<svg") && text.trim_end().ends_with("</svg>"),
                "tikz" => {
                    text.contains("\\begin{tikzpicture}") && text.contains("\\end{tikzpicture}")
                }
                _ => !text.trim().is_empty(),
            };
            assert!(ok, "{what} as {format}:\n{text}");
        }
    }
}

#[test]
fn diagram_draws_a_record_in_every_format() {
    let file = "corpus/edge-cases/variations.sgn";
    for format in ["text", "svg", "png", "pdf", "tikz"] {
        for ply in ["0", "2", "4"] {
            let run = salta(&["diagram", file, "--format", format, "--ply", ply]).ok();
            assert_diagram(format, &run.stdout, &format!("{file} ply {ply}"));
        }
    }
    // The start and the end of the game differ; the default is the end.
    let at = |ply: Option<&str>| {
        let mut args = vec!["diagram", file];
        if let Some(p) = ply {
            args.extend(["--ply", p]);
        }
        salta(&args).ok().text()
    };
    assert_ne!(at(Some("0")), at(Some("4")));
    assert_eq!(at(None), at(Some("4")));
}

#[test]
fn diagram_width_sets_the_printed_size() {
    let file = "corpus/edge-cases/variations.sgn";
    let svg = salta(&["diagram", file, "--format", "svg", "--width", "7.5cm"])
        .ok()
        .text();
    // 7.5 cm is 283.46 CSS pixels.
    assert!(svg.contains("width=\"283.46\""), "{svg}");
    for bad in ["7.5", "0cm", "1cm", "2m"] {
        let run = salta(&["diagram", file, "--width", bad]).expect_code(2);
        assert!(
            run.stderr.contains("width") || run.stderr.contains("length"),
            "{bad}"
        );
    }
    salta(&["diagram", file, "--width", "7cm", "--size", "30"]).expect_code(2);
}

#[test]
fn convert_sets_a_game_for_print_as_latex_and_pdf() {
    let file = "corpus/historical/krone-grotewold-1901.sgn";
    let latex = salta(&["convert", file, "--to", "latex", "--diagram-every", "50"])
        .ok()
        .text();
    assert!(latex.starts_with("% Salta games set by salta"));
    assert!(latex.contains("\\saltagame{Krone -- Grotewold}"), "{latex}");
    // Moves 50 and 100, then the final position.
    assert_eq!(latex.matches("\\begin{tikzpicture}").count(), 3);
    let fragment = salta(&["convert", file, "--to", "latex", "--fragment"])
        .ok()
        .text();
    assert!(!fragment.contains("\\begin{document}") && fragment.contains("\\saltagame{"));
    salta(&["convert", file, "--to", "pdf", "--fragment"]).expect_code(2);
    let dir = TempDir::new("print");
    let out = dir.path("game.pdf");
    salta(&["convert", file, "--to", "pdf", "-o", out.to_str().unwrap()]).ok();
    let pdf = std::fs::read(&out).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    salta(&["convert", file, "--to", "pdf", "--diagram-every", "0"]).expect_code(2);
}

#[test]
fn a_text_diagram_is_coloured_as_color_says() {
    let setup = "G/-,-,-,-,-,-,-,-,-,-,44,-,-,-,-/55,-,-,-,-,-,-,-,-,-,-,-,-,-,-";
    let coloured = salta(&["--color", "always", "diagram", "--setup", setup])
        .ok()
        .text();
    assert!(coloured.contains("\x1b[1;32mSu1\x1b[0m"), "{coloured}");
    assert!(coloured.contains("\x1b[1;31mst1\x1b[0m"), "{coloured}");
    // Not a terminal: no colour unless asked for.
    let plain = salta(&["diagram", "--setup", setup]).ok().text();
    assert!(!plain.contains('\x1b') && plain.is_ascii(), "{plain}");
    let never = salta(&["--color", "never", "diagram", "--setup", setup])
        .ok()
        .text();
    assert_eq!(never, plain);
}

#[test]
fn diagram_of_a_setup_and_a_pyramid_setup() {
    let setup = "G/-,-,-,-,-,-,-,-,-,-,44,-,-,-,-/55,-,-,-,-,-,-,-,-,-,-,-,-,-,-";
    let pyramid = "R/11,12,14,22,24,32,42,43,53,34/84,83,81,73,71,63,62,52,54,44/9";
    for format in ["text", "svg", "png", "tikz"] {
        let run = salta(&["diagram", "--setup", setup, "--format", format]).ok();
        assert_diagram(format, &run.stdout, "setup");
        let run = salta(&[
            "diagram", "--setup", pyramid, "--rules", "pyramid", "--format", format,
        ])
        .ok();
        assert_diagram(format, &run.stdout, "pyramid setup");
    }
    // The Pyramid board has 8 ranks, the Salta board 10.
    let text = |args: &[&str]| salta(args).ok().text();
    let salta_board = text(&["diagram", "--setup", setup, "--coordinates", "algebraic"]);
    let pyramid_board = text(&[
        "diagram",
        "--setup",
        pyramid,
        "--rules",
        "pyramid",
        "--coordinates",
        "algebraic",
    ]);
    assert!(salta_board.contains("10"), "{salta_board}");
    assert!(!pyramid_board.contains("10"), "{pyramid_board}");
    assert!(pyramid_board.contains('8'), "{pyramid_board}");
    // A Pyramid setup without Pyramid rules is refused.
    salta(&["diagram", "--setup", pyramid]).expect_code(2);
}

#[test]
fn diagram_refuses_bad_requests_with_exit_2() {
    let file = "corpus/edge-cases/variations.sgn";
    let cases: [&[&str]; 9] = [
        &["diagram", file, "--ply", "5"],
        &["diagram", file, "--ply", "99999"],
        &["diagram", file, "--game", "2"],
        &["diagram", "--setup", "G/11,12"],
        &["diagram", "--setup", "X/-/-"],
        &[
            "diagram",
            "--setup",
            "G/-,-,-,-,-,-,-,-,-,-,16,-,-,-,-/55,-,-,-,-,-,-,-,-,-,-,-,-,-,-",
        ],
        &["diagram", file, "--format", "jpeg"],
        &["diagram", file, "--coordinates", "roman"],
        &["diagram", "no/such/file.sgn"],
    ];
    for args in cases {
        let run = salta(args).expect_code(2);
        assert!(run.stdout.is_empty(), "{args:?}");
        assert!(!run.stderr.trim().is_empty(), "{args:?}: no message");
        assert_no_escape_codes(&run);
    }
    let run = salta(&["diagram", file, "--ply", "5"]).expect_code(2);
    assert!(run.stderr.contains("beyond"), "{}", run.stderr);
    assert!(run.stderr.contains("4 plies"), "{}", run.stderr);
}

#[test]
fn diagram_refuses_a_png_on_a_terminal_only() {
    // `script` runs the command on a pseudo-terminal; without it there is no terminal to test.
    let command = format!(
        "'{}' diagram corpus/edge-cases/green-wins.sgn --format png",
        env!("CARGO_BIN_EXE_salta")
    );
    let Ok(output) = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(root())
        .output()
    else {
        eprintln!("skipped: no `script` to make a terminal");
        return;
    };
    let shown = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{shown}");
    assert!(shown.contains("not for the terminal"), "{shown}");
    assert!(!shown.contains("PNG\r\n"), "PNG bytes on the terminal");
}

#[test]
fn diagram_writes_a_png_file() {
    let dir = TempDir::new("png");
    let out = dir.path("board.png");
    salta_args![
        "diagram",
        "corpus/edge-cases/variations.sgn",
        "--format",
        "png",
        "-o",
        out
    ]
    .ok();
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(PNG_SIGNATURE));
    assert_eq!(dir.files(), ["board.png"]);
    // Never over the record it draws.
    let input = dir.write("game.sgn", "1. 33-43 *\n");
    salta_args!["diagram", input, "-o", input].expect_code(2);
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "1. 33-43 *\n");
}

// ---------------------------------------------------------------------------------------------
// adjudicate

#[test]
fn adjudicate_json_and_yaml() {
    let file = "corpus/edge-cases/green-wins.sgn";
    let json = salta(&["adjudicate", file, "--format", "json"]).ok().text();
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["winner"], "green", "{v}");
    assert_eq!(v["margin"], 1, "{v}");
    assert!(v["reason"].as_str().is_some_and(|r| !r.is_empty()), "{v}");
    for side in ["green", "red"] {
        assert!(v[side]["free"].is_u64(), "{v}");
        assert!(v[side]["exact"].is_u64(), "{v}");
    }
    assert_eq!(v["green"]["free"], 0, "Green has completed");
    assert_eq!(v["green"]["exact"], 0);
    assert_eq!(
        v["red"]["exact"], 1,
        "Red still has one move to go after 55-45"
    );
    assert_eq!(v["ply"], 2);
    // YAML says the same.
    let yaml = salta(&["adjudicate", file, "--format", "yaml"]).ok().text();
    let from_yaml: Value = serde_yaml::from_str(&yaml).unwrap();
    assert_eq!(from_yaml, v);
    // And the text for people.
    let text = salta(&["adjudicate", file]).ok().text();
    assert!(text.contains("winner: Green by 1"), "{text}");
    assert!(text.contains("status: green-completed"), "{text}");
}

#[test]
fn adjudicate_an_unfinished_position_and_the_move_limit() {
    let file = "corpus/edge-cases/move-limit-win.sgn";
    // A small budget: the exact count from the start would take long (bounds instead).
    let at = |ply: &str| -> Value {
        let json = salta(&[
            "adjudicate",
            file,
            "--format",
            "json",
            "--ply",
            ply,
            "--max-states",
            "2000",
        ])
        .ok()
        .text();
        serde_json::from_str(&json).unwrap()
    };
    let start = at("0");
    assert_eq!(start["ply"], 0);
    assert_eq!(start["status"], "unfinished", "{start}");
    assert!(start["winner"].is_null(), "{start}");
    assert!(start["margin"].is_null(), "{start}");
    for side in ["green", "red"] {
        // Nothing is tangled at the start: the exact count is the free count, even on a small budget.
        assert_eq!(start[side]["exact"], start[side]["free"], "{start}");
        assert_eq!(start[side]["pieces"].as_array().unwrap().len(), 15);
    }
    assert_eq!(start["green"]["free"], start["red"]["free"], "{start}");
    for side in ["green", "red"] {
        assert_eq!(start["move_limit"][side]["limit"], 2, "{start}");
        assert_eq!(start["move_limit"][side]["made"], 0, "{start}");
    }
    assert_eq!(start["move_limit"]["reached"], false, "{start}");
    let end = at("4");
    assert_eq!(end["winner"], "green", "{end}");
    assert_eq!(end["margin"], 2, "{end}");
    assert_eq!(end["move_limit"]["reached"], true, "{end}");
    assert_eq!(
        end["red"]["free"].as_u64().unwrap() - end["green"]["free"].as_u64().unwrap(),
        2
    );
}

#[test]
fn adjudicate_refuses_a_ply_or_game_beyond_the_file() {
    let file = "corpus/edge-cases/green-wins.sgn";
    let run = salta(&["adjudicate", file, "--ply", "3"]).expect_code(2);
    assert!(run.stderr.contains("beyond"), "{}", run.stderr);
    let run = salta(&["adjudicate", file, "--game", "9"]).expect_code(2);
    assert!(run.stderr.contains("no game 9"), "{}", run.stderr);
    salta(&["adjudicate", file, "--game", "0"]).expect_code(2);
    salta(&["adjudicate", file, "--format", "xml"]).expect_code(2);
}

// ---------------------------------------------------------------------------------------------
// generate

#[test]
fn generate_is_reproducible_and_its_games_check_valid() {
    let args = [
        "generate",
        "--games",
        "3",
        "--seed",
        "7",
        "--move-limit",
        "40",
    ];
    let first = salta(&args).ok();
    let second = salta(&args).ok();
    assert_eq!(first.stdout, second.stdout);
    let text = first.text();
    assert_eq!(text.matches("[MoveLimit \"40\"]").count(), 3, "{text}");
    // Another seed, other games.
    let other = salta(&[
        "generate",
        "--games",
        "3",
        "--seed",
        "8",
        "--move-limit",
        "40",
    ])
    .ok();
    assert_ne!(other.stdout, first.stdout);

    let dir = TempDir::new("generate");
    let file = dir.write("generated.sgn", &text);
    let run = check_json(&file).ok();
    let lines = run.json_lines();
    assert_eq!(lines.len(), 4);
    for game in &lines[..3] {
        assert_eq!(game["status"], "valid", "{game}");
        assert!(
            game["outcome"].is_object(),
            "a limit of 40 ends every game: {game}"
        );
        assert!(game["plies"].as_u64().unwrap() <= 80, "{game}");
    }
    // Written to a file, the same bytes.
    let out = dir.path("out.sgn");
    let mut with_output: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    with_output.extend(["-o".as_ref(), out.as_os_str()]);
    salta(&with_output).ok();
    assert_eq!(std::fs::read(&out).unwrap(), first.stdout);
}

#[test]
fn generate_refuses_a_move_limit_the_tag_cannot_hold() {
    for limit in ["0", "10001", "many", "100/", "100/120/140"] {
        let run = salta(&["generate", "--move-limit", limit]).expect_code(2);
        assert!(run.stdout.is_empty(), "{limit}: {}", run.text());
        assert!(run.stderr.contains("--move-limit"), "{}", run.stderr);
    }
    for odds in ["red", "red 0:3", "blue 3:2"] {
        let run = salta(&["generate", "--odds", odds]).expect_code(2);
        assert!(run.stdout.is_empty(), "{odds}: {}", run.text());
        assert!(run.stderr.contains("--odds"), "{}", run.stderr);
    }
    salta(&["generate", "--rules", "chess"]).expect_code(2);
}

/// Handicap games: generated under per-side limits and odds, they carry both tags, check valid
/// (every move, the passes of the side at its limit left out, the groups numbered), and read back
/// the same from their canonical form.
#[test]
fn generate_handicap_games_that_check_valid() {
    let run = salta(&[
        "generate",
        "--games",
        "6",
        "--seed",
        "3",
        "--no-margins",
        "--move-limit",
        "30/40",
        "--odds",
        "red 3:2",
    ])
    .ok();
    let text = run.text();
    assert_eq!(text.matches("[MoveLimit \"30/40\"]").count(), 6, "{text}");
    assert_eq!(text.matches("[Odds \"red 3:2\"]").count(), 6, "{text}");
    assert!(text.contains("1. ") && text.contains("1... "), "{text}");
    let dir = TempDir::new("handicap");
    let file = dir.write("handicap.sgn", &text);
    let checked = salta(&["check", "--format", "json", file.to_str().unwrap()]).ok();
    for line in checked.text().lines().filter(|l| l.contains("\"game\"")) {
        let game: Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["status"], "valid", "{game}");
        assert!(
            game["outcome"]["reason"].is_string(),
            "every game ends: {game}"
        );
    }
    let canonical = salta(&["convert", file.to_str().unwrap(), "--to", "numeric"]).ok();
    assert_eq!(canonical.text(), text);
}

#[test]
fn perft_counts_in_the_odds_rhythm() {
    // Green's group of two, then Red's three: the first two plies are Green's, so the second
    // counts Green's replies to its own first move instead of Red's 81.
    let odds = salta(&["perft", "2", "--odds", "red 3:2"]).ok().text();
    let plain = salta(&["perft", "2"]).ok().text();
    assert_ne!(odds, plain);
    assert!(odds.starts_with("depth 1: 9\n"), "{odds}");
    salta(&["perft", "2", "--odds", "red"]).expect_code(2);
}

// ---------------------------------------------------------------------------------------------
// perft

#[test]
fn perft_counts_the_start() {
    let run = salta(&["perft", "3"]).ok();
    assert_eq!(run.text(), "depth 1: 9\ndepth 2: 81\ndepth 3: 891\n");
}

#[test]
fn perft_divide_sums_to_the_total() {
    let text = salta(&["perft", "3", "--divide"]).ok().text();
    let mut lines: Vec<&str> = text.lines().collect();
    let total = lines.pop().expect("a total line");
    assert_eq!(total, "total: 891");
    assert_eq!(lines.len(), 9, "nine first moves:\n{text}");
    let sum: u64 = lines
        .iter()
        .map(|line| {
            let (_, count) = line.rsplit_once(": ").expect("move: count");
            count.parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(sum, 891);
}

#[test]
fn perft_refuses_bad_arguments() {
    salta(&["perft", "13"]).expect_code(2);
    salta(&["perft", "2", "--rules", "chess"]).expect_code(2);
    salta(&["perft", "2", "--setup", "G/1"]).expect_code(2);
    salta(&["perft", "-1"]).expect_code(2);
}

#[test]
fn extract_sorts_an_archive_into_kept_rejected_and_duplicate_files() {
    let dir = TempDir::new("extract");
    let kept = dir.path("kept.sgn");
    let rejected = dir.path("rejected.sgn");
    let duplicates = dir.path("duplicates.sgn");
    let run = salta_args![
        "extract",
        "tests/extract",
        "--keep-broken",
        "-o",
        kept,
        "--rejected",
        rejected,
        "--duplicates",
        duplicates
    ]
    // A game was broken: exit code 1, as for `check`.
    .expect_code(1);
    assert!(
        run.stderr
            .contains("6 game(s): 2 kept, 1 kept broken, 0 fixed, 1 rejected, 0 not selected, 1 duplicate(s), 1 contained"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
    let events = |path: &Path| -> Vec<String> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter_map(|l| {
                l.strip_prefix("[Event \"")?
                    .strip_suffix("\"]")
                    .map(String::from)
            })
            .collect()
    };
    assert_eq!(events(&kept), ["Long", "Broken", "Other"]);
    assert_eq!(events(&rejected), ["Unreadable"]);
    assert_eq!(events(&duplicates), ["Fragment", "Long, transcribed again"]);
    // What is kept checks clean, the broken game cut before its illegal move.
    salta_args!["check", kept].ok();
    assert_eq!(dir.files(), ["duplicates.sgn", "kept.sgn", "rejected.sgn"]);
    // Writing over an input is refused, and nothing is left behind.
    let input = dir.write("in.sgn", "1. 33-43 *\n");
    salta_args!["extract", input, "--rejected", input].expect_code(2);
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "1. 33-43 *\n");
    assert_eq!(
        dir.files(),
        ["duplicates.sgn", "in.sgn", "kept.sgn", "rejected.sgn"]
    );
}

#[test]
fn thread_counts_out_of_range_are_refused_at_once() {
    // A hundred thousand threads took over a minute to start before any game was read.
    for (command, threads) in [("check", "100000"), ("extract", "0")] {
        let run = salta(&[command, "--threads", threads, "tests/extract"]).expect_code(2);
        assert!(run.stderr.contains("1..=1024"), "{}", run.stderr);
    }
    salta(&["check", "--threads", "1", "corpus/synthetic/salta.sgn"]).ok();
}

#[test]
fn extract_splits_the_kept_games_over_numbered_files() {
    let dir = TempDir::new("extract-split");
    let kept = dir.path("kept.sgn");
    salta_args![
        "extract",
        "tests/extract",
        "--keep-broken",
        "--drop-duplicates",
        "--quiet",
        "-o",
        kept,
        "--split",
        "2"
    ]
    .expect_code(1);
    assert_eq!(dir.files(), ["kept-1.sgn", "kept-2.sgn"]);
    let first = std::fs::read_to_string(dir.path("kept-1.sgn")).unwrap();
    let second = std::fs::read_to_string(dir.path("kept-2.sgn")).unwrap();
    assert_eq!(first.matches("[Event").count(), 2, "{first}");
    assert!(first.starts_with("[Event \"Long\"]"), "{first}");
    assert!(second.starts_with("[Event \"Other\"]"), "{second}");
    salta_args!["check", dir.path("kept-2.sgn")].ok();
    // A numbered file may not be another output, nor -o a folder: refused, nothing lost.
    let clash = salta_args![
        "extract",
        "tests/extract",
        "--quiet",
        "-o",
        dir.path("k.sgn"),
        "--split",
        "1",
        "--rejected",
        dir.path("k-2.sgn")
    ]
    .expect_code(2);
    assert!(
        clash.stderr.contains("another output file"),
        "{}",
        clash.stderr
    );
    let folder = salta_args![
        "extract",
        "tests/extract",
        "-o",
        dir.path(""),
        "--split",
        "1"
    ]
    .expect_code(2);
    assert!(folder.stderr.contains("is a folder"), "{}", folder.stderr);
    assert_eq!(dir.files(), ["kept-1.sgn", "kept-2.sgn"]);
    // --split needs -o, and at least one game per file.
    salta(&["extract", "tests/extract", "--split", "2"]).expect_code(2);
    salta_args!["extract", "tests/extract", "-o", kept, "--split", "0"].expect_code(2);
}

#[test]
fn extract_writes_the_games_left_out_by_the_selection_apart() {
    let dir = TempDir::new("extract-unselected");
    let rest = dir.path("rest.sgn");
    let run = salta_args![
        "extract",
        "tests/extract",
        "--tag",
        "Green=Bert",
        "--unselected",
        rest
    ]
    .expect_code(1);
    assert_eq!(run.text().matches("[Event").count(), 1, "{}", run.text());
    let rest = std::fs::read_to_string(&rest).unwrap();
    let events: Vec<&str> = rest.lines().filter(|l| l.starts_with("[Event")).collect();
    // The clean games not asked for, exactly as read; the broken and unreadable ones are rejected.
    assert_eq!(
        events,
        [
            "[Event \"Long\"]",
            "[Event \"Fragment\"]",
            "[Event \"Long, transcribed again\"]"
        ]
    );
    let archive = std::fs::read_to_string("tests/extract/archive.sgn").unwrap();
    let fragment = rest.split("\n\n[Event").nth(1).unwrap();
    assert!(archive.contains(fragment.trim_end()), "{fragment}");
}

#[test]
fn extract_selects_by_tag_and_writes_clean_games_to_standard_output() {
    let run = salta(&["extract", "tests/extract", "--tag", "Green=Bert", "--quiet"]).expect_code(1);
    assert_eq!(run.text().matches("[Event").count(), 1, "{}", run.text());
    assert!(run.text().contains("[Event \"Other\"]"));
    let bad = salta(&["extract", "tests/extract", "--tag", "Green"]).expect_code(2);
    assert!(bad.stderr.contains("Name=Value"), "{}", bad.stderr);
    // Bad selections and clashing outputs are usage errors, before anything is written.
    let bad = salta(&["extract", "tests/extract", "--reaches", "G/11,12"]).expect_code(2);
    assert!(bad.stderr.contains("--reaches: Setup"), "{}", bad.stderr);
    let bad = salta(&["extract", "tests/extract", "--result", "2-0"]).expect_code(2);
    assert!(bad.stderr.contains("not a result"), "{}", bad.stderr);
    let dir = TempDir::new("extract-clash");
    let same = dir.path("out.sgn");
    let bad =
        salta_args!["extract", "tests/extract", "-o", same, "--rejected", same].expect_code(2);
    assert!(bad.stderr.contains("different files"), "{}", bad.stderr);
    assert!(dir.files().is_empty());
}

#[test]
fn convert_to_setups_gives_one_line_per_position() {
    let text = salta(&["convert", "tests/extract/more.sgn", "--to", "setups"])
        .ok()
        .text();
    let games: Vec<Vec<&str>> = text.split("\n\n").map(|g| g.lines().collect()).collect();
    // Six plies, then two: the start and the position after each move.
    assert_eq!(games.iter().map(Vec::len).collect::<Vec<_>>(), [7, 3]);
    let rules = salta::rules::Rules::default();
    let start = salta::rules::Position::start(rules).to_setup();
    assert_eq!(games[0][0], start);
    for line in games.iter().flatten() {
        let pos = salta::rules::Position::from_setup(line, rules).expect("a Setup line");
        assert_eq!(&pos.to_setup(), line);
    }
    assert!(games[0][6].starts_with("G/") && games[0][6].ends_with("/4"));
}

#[test]
fn margin_budget_options_are_checked() {
    let file = "corpus/edge-cases/green-wins.sgn";
    for bad in ["-1", "nan", "inf"] {
        let option = format!("--margin-seconds={bad}");
        let run = salta(&["check", file, option.as_str()]).expect_code(2);
        assert!(run.stderr.contains("--margin-seconds"), "{}", run.stderr);
    }
    // No time limit, and a generous state limit: the small count is exact either way.
    let json = salta(&[
        "check",
        file,
        "--format",
        "json",
        "--margins",
        "always",
        "--margin-seconds",
        "0",
        "--margin-states",
        "100000",
    ])
    .ok()
    .json_lines();
    assert_eq!(json[0]["outcome"]["margin"], 1, "{:?}", json[0]);
}

// Input hardening (issue 16)

/// The reader reads squares on the board of the rules the replayer uses: `--rules`, or the Rules
/// tag as it reads (a tag that does not read gives the 10×10 board).
#[test]
fn squares_are_read_on_the_board_the_game_is_replayed_on() {
    let dir = TempDir::new("board");
    let pyramid = dir.write("p.sgn", "1. 55-64 *\n");
    let lines = salta_args!["check", "--format", "json", "--rules", "pyramid", pyramid]
        .expect_code(1)
        .json_lines();
    let diagnostic = &lines[0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "sgn::garbled-move", "{lines:?}");
    assert_eq!(
        diagnostic["message"],
        "1. 55-64 is not a move: 55 is not a square: square numbers end in 1–4"
    );
    let unread = dir.write("x.sgn", "[Rules \"pyramid; x\"]\n\n1. 33-43 *\n");
    let doc: Value =
        serde_json::from_slice(&salta_args!["convert", unread, "--to", "json"].stdout).unwrap();
    let from = &doc[0]["moves"][0]["from"];
    assert_eq!(
        (from["numeric"].as_u64(), from["algebraic"].as_str()),
        (Some(33), Some("e3"))
    );
}

/// A syntax error in a later game says which game, the tags read, the move number and side.
#[test]
fn a_syntax_error_names_its_game_tags_move_and_side() {
    let dir = TempDir::new("syntax-place");
    let file = dir.write(
        "g.sgn",
        "[Event \"a\"]\n\n1. 33-43 *\n\n[Event \"b\"]\n\n1. 33-43 83-73 2. ) 47-57 *\n",
    );
    let lines = check_json(&file).expect_code(1).json_lines();
    let broken = &lines[1];
    assert_eq!(broken["game"], 2);
    assert_eq!(broken["tags"]["Event"], "b");
    assert_eq!(broken["plies"], 2);
    let d = &broken["diagnostics"][0];
    assert_eq!(
        (d["ply"].as_u64(), d["move_number"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(d["side"], "green");
    let human = salta_args!["check", file].expect_code(1).text();
    assert!(
        human.contains("game 2, move 2 (Green): unmatched )"),
        "{human}"
    );
}

/// Text that is not a game is reported, each with its code, and counted: as a game with
/// warnings or errors, or (text after the last game) apart from the games.
#[test]
fn text_that_is_not_a_game_is_reported() {
    let dir = TempDir::new("not-games");
    let cases: [(&str, &[u8], &str, i32); 4] = [
        ("utf16.sgn", b"\xff\xfe[\x00E\x00", "sgn::utf16", 1),
        ("binary.sgn", &[0u8; 64], "sgn::binary", 1),
        (
            "notes.sgn",
            b"[Event \"a\"]\n\n1. 33-43 *\n\nnotes after the game\n",
            "sgn::stray-text",
            0,
        ),
        ("blank.sgn", b"\n \n", "sgn::no-game", 0),
    ];
    for (name, bytes, code, exit) in cases {
        let path = dir.path(name);
        std::fs::write(&path, bytes).unwrap();
        let lines = check_json(&path).expect_code(exit).json_lines();
        let codes: Vec<&Value> = lines
            .iter()
            .flat_map(|l| l["diagnostics"].as_array())
            .flatten()
            .map(|d| &d["code"])
            .collect();
        assert!(codes.iter().any(|c| *c == code), "{name}: {lines:?}");
        let summary = &lines.last().unwrap()["summary"];
        let stray = code == "sgn::stray-text";
        assert_eq!(
            summary["warnings"].as_u64().unwrap() + summary["invalid"].as_u64().unwrap(),
            u64::from(!stray),
            "{name}: {summary}"
        );
        assert_eq!(summary["no_games"], u64::from(stray), "{name}: {summary}");
    }
}

/// `diagram` and `adjudicate` on a record that breaks before its end say so and exit 1, unless
/// the asked ply is before the break.
#[test]
fn a_record_that_breaks_is_not_drawn_silently() {
    let dir = TempDir::new("breaks");
    let file = dir.write("b.sgn", "1. 33-43 83-73 2. 11-21 *\n");
    for command in ["diagram", "adjudicate"] {
        let run = salta_args![command, file].expect_code(1);
        assert!(
            run.stderr.contains("breaks off at ply 3"),
            "{command}: {}",
            run.stderr
        );
        let run = salta_args![command, file, "--ply", "2"].ok();
        assert!(run.stderr.is_empty(), "{command}: {}", run.stderr);
    }
}

/// Move numbers past 65,535 are counted, not saturated.
#[test]
fn move_numbers_do_not_saturate() {
    let dir = TempDir::new("numbers");
    let setup = "[Setup \"G/11,12,13,14,15,21,22,23,24,25,31,32,33,34,35/105,104,103,102,101,95,94,93,92,91,85,84,83,82,81/70000\"]\n\n70000. 33-43 70000... 83-73 70001. 43-53 *\n";
    let file = dir.write("n.sgn", setup);
    let lines = check_json(&file).ok().json_lines();
    assert_eq!(lines[0]["status"], "valid", "{lines:?}");
}

// ---------------------------------------------------------------------------------------------
// regressions of issue 16's items 15, 16 and 24

/// Item 24: the one-line result of `check` keeps a margin's bounds when the count was cut short.
#[test]
fn check_line_shows_margin_bounds() {
    let dir = TempDir::new("bounds-line");
    let text = std::fs::read_to_string("corpus/historical/krone-grotewold-1901.sgn").unwrap();
    let untagged: String = text
        .lines()
        .filter(|l| !l.starts_with("[Margin"))
        .map(|l| format!("{l}\n"))
        .collect();
    let file = dir.write("untagged.sgn", &untagged);
    let file = file.to_str().unwrap();
    let run = salta(&[
        "check",
        "--margins",
        "always",
        "--margin-states",
        "10",
        file,
    ])
    .ok();
    assert!(run.text().contains("Red wins by 25–31"), "{}", run.text());
    let exact = salta(&["check", "--margins", "always", file]).ok();
    assert!(exact.text().contains("Red wins by 27 "), "{}", exact.text());
}

/// Item 16: `adjudicate` counts the loser once, so the verdict and the loser's count agree, exact
/// or bounded.
#[test]
fn adjudicate_counts_the_loser_once() {
    let file = "corpus/historical/krone-grotewold-1901.sgn";
    let json: Value =
        serde_json::from_str(&salta(&["adjudicate", file, "--format", "json"]).ok().text())
            .unwrap();
    assert_eq!(json["margin"], 27, "{json}");
    assert_eq!(json["green"]["exact"], json["margin"], "{json}");
    let bounded = salta(&["adjudicate", file, "--max-states", "10"])
        .ok()
        .text();
    assert!(bounded.contains("winner: Red by 25–31"), "{bounded}");
    assert!(
        bounded.contains("Green: 25 to go ignoring all pieces, 25–31 with its own pieces blocking"),
        "{bounded}"
    );
}

/// Item 15: a game over the size limit is one error however many tag lines it has, and a
/// diagnostic quotes a clipped snippet, not a 1 MB line.
#[test]
fn one_error_per_oversized_game_and_clipped_snippets() {
    let dir = TempDir::new("oversized");
    let tags: String = (0..40).map(|i| format!("[Tag{i} \"{i}\"]\n")).collect();
    let big = format!(
        "{tags}\n{}*\n\n[Event \"small\"]\n\n1. 33-43 *\n",
        "1. 33-43 83-73 2. 43-33 73-83\n".repeat(300_000)
    );
    let file = dir.write("big.sgn", &big);
    let run = salta(&["check", "--format", "json", file.to_str().unwrap()]).expect_code(1);
    let lines = run.json_lines();
    let too_large = lines
        .iter()
        .filter(|l| l.to_string().contains("sgn::game-too-large"))
        .count();
    assert_eq!(too_large, 1, "{}", run.text());
    assert!(
        run.text().contains("\"small\""),
        "the next game reads: {}",
        run.text()
    );

    let deep = format!("1. 33-43 {} *\n", "(1. 33-43 ".repeat(100_000));
    let file = dir.write("deep.sgn", &deep);
    let run = salta(&["check", "--color", "never", file.to_str().unwrap()]).expect_code(1);
    assert!(run.stdout.len() < 4_000, "{} bytes", run.stdout.len());
    assert!(run.text().contains("sgn::too-deep"), "{}", run.text());
}

/// A game with thousands of findings of one code (`{1{1{1…`) is drawn for people with the first
/// 500 of each code and a line saying how many more there are; the JSON report lists every one.
#[test]
fn check_draws_at_most_five_hundred_findings_of_a_code_in_a_game() {
    let dir = TempDir::new("many-findings");
    let game = format!("[Result \"*\"]\n\n1. 33-43 {}*\n", "{1".repeat(600));
    let file = dir.write("braces.sgn", &game);
    let drawn = salta_args!["check", "--color", "never", &file]
        .expect_code(1)
        .text();
    assert_eq!(drawn.matches("sgn::garbled-move\n").count(), 500);
    let more = " more sgn::garbled-move not drawn (`--format json` lists every one)";
    let line = drawn
        .lines()
        .find(|l| l.ends_with(more))
        .expect("a line of those not drawn");
    let not_drawn: usize = line
        .trim_start_matches("  … game 1: ")
        .trim_end_matches(more)
        .parse()
        .expect("a count");
    let json = check_json(&file).expect_code(1);
    let codes = json.json_lines()[0]["diagnostics"]
        .as_array()
        .map_or(0, |d| {
            d.iter()
                .filter(|d| d["code"] == "sgn::garbled-move")
                .count()
        });
    assert_eq!(codes, 500 + not_drawn);
    assert!(codes >= 600, "{codes}");
}
