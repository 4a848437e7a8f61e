//! The HTML game viewer (`convert --to html`) in a real browser: tests/browser/viewer.mjs drives
//! Debian's Chromium through puppeteer-core against pages made from the corpus, and checks every
//! main-line position of three games against `convert --to setups`, every variation move against
//! the replayer, a fragment link, the flip, an invalid record's diagnostic, and the time the
//! whole corpus's page takes to open; at a laptop's 1280×800 and a phone's 390×844, that the
//! whole board, the title and the result are in view after the last ply and after a link to ply
//! 150, that no empty problems box is left after a game with warnings or an invalid one, the
//! keyboard help, and the size of a piece's numeral. Screenshots are left in
//! `target/tmp/viewer/`.
//!
//! Without Chromium, Node or tests/browser/node_modules the test says so and passes, unless
//! `SALTA_BROWSER_TEST=required` (set by .ci/run), when that is a failure.

use crate::cli::{root, salta_command};
use salta::notation::read_path;
use salta::replay::{LineReplay, ReplayOptions, Severity, replay};
use salta::rules::Position;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

/// Runs `salta convert ARGS`, which must succeed, and returns its standard output.
fn convert(args: &[&str]) -> String {
    let output = salta_command()
        .arg("convert")
        .args(args)
        .output()
        .expect("the salta binary runs");
    assert!(
        output.status.success(),
        "convert {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// Why the browser test cannot run here, if it cannot.
fn missing_tools() -> Option<String> {
    if !Path::new(CHROMIUM).exists() {
        return Some(format!("{CHROMIUM} is missing (apt-get install chromium)"));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node is missing (apt-get install nodejs npm)".into());
    }
    if !root()
        .join("tests/browser/node_modules/puppeteer-core")
        .exists()
    {
        return Some(
            "tests/browser/node_modules is missing (npm ci --prefix tests/browser)".into(),
        );
    }
    None
}

/// The Setup line after every move of every variation (not the main line), by the move's place
/// in the pre-order walk that the page numbers moves by.
fn variation_setups(
    line: &LineReplay,
    before: Position,
    depth: usize,
    index: &mut usize,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut pos = before;
    for m in &line.moves {
        let here = *index;
        *index += 1;
        let Some(played) = m.played else { break };
        assert!(!m.retracted, "the variation game has no Salta! calls");
        let mut after = pos;
        after.play(played).expect("the replayer played it");
        if depth > 0 {
            out.push((here, after.to_setup()));
        }
        for v in &m.variations {
            out.extend(variation_setups(v, pos, depth + 1, index));
        }
        pos = after;
    }
    out
}

#[test]
fn the_viewer_works_in_chromium() {
    let required = std::env::var("SALTA_BROWSER_TEST").is_ok_and(|v| v == "required");
    if let Some(why) = missing_tools() {
        assert!(!required, "the browser test is required: {why}");
        eprintln!("skipped the browser test: {why}");
        return;
    }
    let artefacts = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("viewer");
    std::fs::create_dir_all(&artefacts).unwrap();
    // Games: 1 with variations, 2–13 Pyramid, 14 the historical game, 15 an invalid record, 16
    // one with a warning.
    let files = [
        "corpus/edge-cases/variations.sgn",
        "corpus/synthetic/pyramid.sgn",
        "corpus/historical/krone-grotewold-1901.sgn",
        "tests/edge-cases/illegal-move.sgn",
        "corpus/edge-cases/separator-warning.sgn",
    ];
    let page = artefacts.join("games.html");
    let page_text = page.to_str().unwrap();
    convert(&[&files[..], &["--to", "html", "-o", page_text]].concat());
    let setups: Vec<Vec<String>> = convert(&[&files[..], &["--to", "setups"]].concat())
        .split("\n\n")
        .map(|game| game.lines().map(str::to_string).collect())
        .collect();
    assert_eq!(setups.len(), 16);

    let variations = {
        let game = read_path(&root().join(files[0]))
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let replayed = replay(&game, &ReplayOptions::default());
        variation_setups(replayed.mainline(), *replayed.start(), 0, &mut 0)
    };
    assert!(variations.len() >= 3, "{variations:?}");
    let invalid_message = {
        let game = read_path(&root().join(files[3]))
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let replayed = replay(&game, &ReplayOptions::default());
        let error = replayed
            .findings()
            .iter()
            .find(|f| f.severity == Severity::Error);
        error.expect("the record is invalid").message.clone()
    };

    // The corpus page: every synthetic and edge-case game.
    let corpus_page = artefacts.join("corpus.html");
    let mut corpus_files: Vec<String> = ["corpus/synthetic", "corpus/edge-cases"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(root().join(dir)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .map(|p| p.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    corpus_files.sort();
    let mut args: Vec<&str> = corpus_files.iter().map(String::as_str).collect();
    args.extend(["--to", "html", "-o", corpus_page.to_str().unwrap()]);
    convert(&args);
    let corpus_games = convert(&[&args[..args.len() - 4], &["--to", "setups"]].concat())
        .split("\n\n")
        .count();
    let corpus_bytes = std::fs::metadata(&corpus_page).unwrap().len();

    let spec = json!({
        "chromium": CHROMIUM,
        "page": page,
        "corpus_page": corpus_page,
        "artefacts": artefacts,
        "setups": setups,
        "stepped": [0, 1, 13],
        "variations": variations
            .iter()
            .map(|(node, setup)| json!({"game": 0, "node": node, "setup": setup}))
            .collect::<Vec<_>>(),
        "fragment": {"game": 13, "ply": 31},
        "invalid": {"game": 14, "message": invalid_message},
        "warned": 15,
        "long": 13,
    });
    let spec_path = artefacts.join("spec.json");
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    let output = Command::new("node")
        .arg(root().join("tests/browser/viewer.mjs"))
        .arg(&spec_path)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the browser test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    eprintln!(
        "viewer: corpus page {corpus_bytes} bytes for {corpus_games} games; browser: {stdout}"
    );
    for shot in [
        "laptop-variation.png",
        "laptop-invalid.png",
        "phone-fragment.png",
        "laptop-last.png",
        "phone-last.png",
        "laptop-help.png",
        "phone-help.png",
    ] {
        assert!(artefacts.join(shot).exists(), "{shot} was not written");
    }
}
