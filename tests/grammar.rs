//! The grammar's accept and reject files (grammar/README.md), run against the parser.

use salta::notation::{Reader, WriteOptions, parse_str, write_game};
use std::path::{Path, PathBuf};

fn files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("grammar")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> Vec<Result<salta::notation::Game, salta::notation::SyntaxError>> {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    Reader::new(bytes.as_slice()).with_name(name).collect()
}

#[test]
fn accepted_records_parse() {
    let files = files("accept");
    assert!(files.len() >= 30, "{} accept files", files.len());
    for path in files {
        let results = read(&path);
        let games: Vec<_> = results
            .into_iter()
            .map(|r| {
                r.unwrap_or_else(|e| {
                    panic!(
                        "{}: {e} at {:?}: {:?}",
                        path.display(),
                        e.location(),
                        e.help
                    )
                })
            })
            .collect();
        assert!(!games.is_empty(), "{}: no game", path.display());
        let warnings: Vec<&str> = games
            .iter()
            .flat_map(|g| g.warnings.iter().map(|w| w.code.as_str()))
            .collect();
        let expected = std::fs::read_to_string(path.with_extension("warnings")).unwrap_or_default();
        let expected: Vec<&str> = expected.split_whitespace().collect();
        assert_eq!(warnings, expected, "{}", path.display());
        for game in &games {
            // The canonical form reads back cleanly, to the same canonical form; a move the
            // reader could not read is written as it was, and read as it was again.
            let written = write_game(game, &WriteOptions::default());
            let again = parse_str(&written);
            assert_eq!(again.len(), 1, "{}:\n{written}", path.display());
            let again = again[0]
                .as_ref()
                .unwrap_or_else(|e| panic!("{}: {e}\n{written}", path.display()));
            let garbled = |g: &salta::notation::Game| -> Vec<String> {
                g.warnings
                    .iter()
                    .filter(|w| w.code == salta::diagnostic::Code::GarbledMove)
                    .map(|w| g.text[w.span.range()].to_string())
                    .collect()
            };
            assert_eq!(
                again.warnings.len(),
                garbled(again).len(),
                "{}: {:?}",
                path.display(),
                again.warnings
            );
            assert_eq!(garbled(again), garbled(game), "{}", path.display());
            assert_eq!(
                write_game(again, &WriteOptions::default()),
                written,
                "{}",
                path.display()
            );
        }
    }
}

#[test]
fn rejected_records_fail_with_their_diagnostic() {
    let files = files("reject");
    assert!(files.len() >= 30, "{} reject files", files.len());
    for path in files {
        let expected = std::fs::read_to_string(path.with_extension("expected"))
            .unwrap_or_else(|e| panic!("{}: no .expected file: {e}", path.display()));
        let results = read(&path);
        let error = results
            .iter()
            .find_map(|r| r.as_ref().err())
            .unwrap_or_else(|| panic!("{}: accepted: {results:?}", path.display()));
        let (line, column) = error.location();
        let found = format!("{} {line}:{column}", error.code);
        assert_eq!(
            found,
            expected.trim(),
            "{}: {error} ({:?})",
            path.display(),
            error.help
        );
        assert!(
            error.help.is_some(),
            "{}: every error says what was expected",
            path.display()
        );
        let mut rendered = String::new();
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .render_report(&mut rendered, error)
            .unwrap();
        let place = format!(
            "{}:{line}:{column}",
            path.file_name().unwrap().to_string_lossy()
        );
        assert!(rendered.contains(&place), "{}: {rendered}", path.display());
    }
}
