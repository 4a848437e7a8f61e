//! A real editor drives `salta lsp`: Debian's Neovim, headless, opens a record with a slip, waits
//! for the diagnostic, applies the preferred code action, saves, and the saved file must pass
//! `salta check` (tests/editor/nvim-fix.lua does the editing).
//!
//! Without `nvim` the test says so and passes, unless `SALTA_NVIM_TEST=required` (set by
//! .ci/run), when that is a failure.

use crate::cli::salta_command;
use std::path::Path;
use std::process::Command;

/// A record with a digit swap (`8. 53-44` for `35-44`) and text outside ASCII before it, so that
/// the columns of the fix depend on the encoding the two sides agreed on.
const SLIPPED: &str = "[Event \"Übungspartie\"]\n[Site \"Jüterbog\"]\n[Result \"*\"]\n\n{Läufer} 1. 33-42 83-73 2. 22-33 82-72 3. 31-41 73-63 4. 21-31 81-71 5. 11-21 84-75\n6. 33-43 {Zug für Zug} 94-83 7. 41-52 83-74 8. 53-44 92-82 9. 32-41 71-61 10. 52:71 75-64 *\n";

#[test]
fn neovim_applies_the_preferred_fix_and_the_saved_file_checks() {
    if Command::new("nvim").arg("--version").output().is_err() {
        let required = std::env::var("SALTA_NVIM_TEST").is_ok_and(|v| v == "required");
        assert!(
            !required,
            "nvim is missing (apt-get install neovim) and SALTA_NVIM_TEST=required"
        );
        eprintln!("skipped: nvim is missing (apt-get install neovim)");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/tmp/lsp-nvim");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("slipped.sgn");
    let report = dir.join("report.txt");
    std::fs::write(&record, SLIPPED).unwrap();
    let output = Command::new("timeout")
        .args(["300", "nvim", "--headless", "--clean", "-n", "-c"])
        .arg(format!(
            "luafile {}",
            root.join("tests/editor/nvim-fix.lua").display()
        ))
        .env("SALTA_BIN", env!("CARGO_BIN_EXE_salta"))
        .env("SALTA_RECORD", &record)
        .env("SALTA_REPORT", &report)
        .current_dir(&dir)
        .output()
        .expect("nvim runs");
    let said = std::fs::read_to_string(&report).unwrap_or_default();
    assert!(
        output.status.success() && said.contains("cleared"),
        "nvim: {:?}\nreport:\n{said}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(said.contains("diagnostic salta::illegal-move"), "{said}");
    // Neovim 0.7 speaks UTF-16 (it offers nothing else); later ones offer UTF-8 too.
    assert!(
        said.contains("encoding utf-16") || said.contains("encoding utf-8"),
        "{said}"
    );
    let column = SLIPPED.lines().nth(5).unwrap().find("53-44").unwrap() - 1;
    assert!(
        said.contains(&format!("character = {column}")) || said.contains("encoding utf-8"),
        "the ü counts one UTF-16 unit: {said}"
    );
    assert!(said.contains("35-44 (digits swapped)"), "{said}");
    let saved = std::fs::read_to_string(&record).unwrap();
    assert_eq!(saved, SLIPPED.replace("8. 53-44", "8. 35-44"));
    let check = salta_command()
        .args(["check", "--color", "never"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "salta check on the saved file: {}",
        String::from_utf8_lossy(&check.stdout)
    );
}
