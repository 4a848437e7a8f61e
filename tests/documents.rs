//! Game documents (YAML, JSON) read one game at a time, and converted to SGN only when the reader
//! takes the result back (issue 32, item 8).

use crate::as_read::peak_memory_kb;
use crate::cli::{salta_args, salta_command};
use crate::special::TempDir;
use std::process::Stdio;

/// A game document with a long comment (200 KB: a record may hold one of 256 KB).
fn doc(event: usize, comment: &str) -> String {
    format!(
        r#"{{"tags": {{"Event": "g{event}"}}, "rules": "salta", "comments": ["{comment}"], "moves": [], "result": "*"}}"#
    )
}

/// A 1.5 GB JSON file took 3.18 GB: each file was read whole, then parsed whole. A file of
/// 24 MB of games now converts in a fraction of its size.
#[test]
fn json_and_yaml_files_are_read_a_game_at_a_time() {
    let dir = TempDir::new("documents");
    let comment = "x".repeat(200_000);
    let games = 120;
    let json = format!(
        "[\n{}\n]\n",
        (1..=games)
            .map(|g| doc(g, &comment))
            .collect::<Vec<_>>()
            .join(",\n")
    );
    let yaml: String = (1..=games)
        .map(|g| format!("---\ntags:\n  Event: g{g}\nrules: salta\ncomments:\n- {comment}\nmoves: []\nresult: '*'\n"))
        .collect();
    for (name, text) in [("games.json", json), ("games.yaml", yaml)] {
        let file = dir.write(name, &text);
        let out = dir.path("out.sgn");
        let mut child = salta_command()
            .args(["convert", "--to", "numeric", "-o"])
            .arg(&out)
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let peak = peak_memory_kb(&mut child).expect("the peak is read");
        assert!(child.wait().unwrap().success(), "{name}");
        let written = std::fs::read_to_string(&out).unwrap();
        assert_eq!(written.matches("[Event \"g").count(), games, "{name}");
        assert!(written.contains(&format!("[Event \"g{games}\"]")), "{name}");
        // Held whole, the text alone is 24 MB, and its documents as much again.
        assert!(
            peak < (text.len() / 1024) as u64,
            "{name}: {peak} KB for {} KB",
            text.len() / 1024
        );
    }
}

/// A JSON game with a 20 MB tag was converted to SGN that the reader then refused.
#[test]
fn a_document_whose_record_the_reader_refuses_is_not_converted() {
    let dir = TempDir::new("refused");
    let big_tag = doc(2, "c").replace("\"g2\"", &format!("\"{}\"", "t".repeat(20_000)));
    let file = dir.write("two.json", &format!("[{}, {big_tag}]", doc(1, "c")));
    let run = salta_args!["convert", "--to", "numeric", file].expect_code(1);
    assert!(
        run.stderr.contains("would not read back") && run.stderr.contains("sgn::"),
        "{}",
        run.stderr
    );
    assert_eq!(run.text().matches("[Event ").count(), 1, "{}", run.text());
    // Into a file: nothing is written when a game is not converted.
    let out = dir.path("out.sgn");
    salta_args!["convert", "--to", "numeric", "-o", out, file].expect_code(1);
    assert!(!out.exists());
}
