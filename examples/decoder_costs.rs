//! Where the decoder's search, not its model of slips, loses a page read by OCR: `cargo run
//! --release --example decoder_costs -- PAGE.sgn SOURCE.sgn` reads the first game of PAGE whole
//! at once (as `salta repair` reads a page that breaks too often, past what stops the reader)
//! and prints what its chosen line costs beside the page read as SOURCE's main line, by the
//! decoder's own costs. A source line cheaper than the chosen one is a search error: the beam
//! lost it. Used with the pages of scripts/ocr-repair.py and the games it typeset.

use salta::notation::parse_str;
use salta::repair::{read_past, reading_costs};
use salta::replay::ReplayOptions;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [page, source] = args.as_slice() else {
        eprintln!("usage: decoder_costs PAGE.sgn SOURCE.sgn");
        return ExitCode::from(2);
    };
    // A page that stops the reader is read past what stopped it, as `salta repair` reads it.
    let first_game = |path: &str| {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        match parse_str(&text).into_iter().next() {
            None => Err(format!("{path}: no game")),
            Some(Ok(game)) => Ok(game),
            Some(Err(e)) => read_past(&e)
                .map(|(game, _)| game)
                .ok_or_else(|| format!("{path}: {e}")),
        }
    };
    let (page, source) = match (first_game(page), first_game(source)) {
        (Ok(p), Ok(s)) => (p, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(costs) = reading_costs(&page, &source, &ReplayOptions::default()) else {
        eprintln!("the page is not read whole, or the source's main line does not replay");
        return ExitCode::FAILURE;
    };
    let verdict = match costs.known < costs.chosen {
        true => "search error (the source reads the page for less)",
        false => "the model prefers the chosen line (or it is the source's)",
    };
    println!(
        "chosen {:.2} source {:.2}: {verdict}",
        costs.chosen, costs.known
    );
    ExitCode::SUCCESS
}
