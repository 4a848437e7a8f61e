//! `convert --to latex|pdf`: the games of the inputs set for print as one document.

use super::inputs::{for_each_input, replay_input};
use super::{BudgetArgs, CliError, Output};
use salta::export::diagram::{DiagramError, PieceNumber, parse_length};
use salta::export::printed::{self, Document, LatexBook, PdfBook, PrintOptions};
use salta::replay::MarginPolicy;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of a printed game (only with `--to latex` or `--to pdf`).
#[derive(clap::Args)]
pub struct PrintArgs {
    /// latex, pdf: a diagram after every N-th move, besides those the record asks for with a `{[%diagram]}`
    /// comment.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    diagram_every: Option<u32>,
    /// latex, pdf: the printed width of each diagram, e.g. `7.5cm` (the default), `60mm`, `3in`.
    #[arg(long, value_name = "LENGTH")]
    diagram_width: Option<String>,
    /// latex, pdf: how the diagrams' pieces show their number 1–5, numeral or dots.
    #[arg(long, default_value = "numeral")]
    piece_number: String,
    /// latex: only the games, to `\input` into a book that loads TikZ (no preamble, no
    /// `\begin{document}`); its look is set by macros the book may define (`\saltagame`, …).
    #[arg(long)]
    fragment: bool,
    #[command(flatten)]
    budget: BudgetArgs,
}

pub fn run(
    files: &[PathBuf],
    target: &str,
    output: Option<&Path>,
    args: &PrintArgs,
) -> Result<ExitCode, CliError> {
    let bad = |e: &dyn std::fmt::Display| CliError::new(e.to_string());
    let mut opts = PrintOptions::default().diagram_every(args.diagram_every);
    if let Some(width) = &args.diagram_width {
        opts.diagram.width = Some(parse_length(width).map_err(|e| bad(&e))?);
    }
    opts.diagram.piece_number = args
        .piece_number
        .parse::<PieceNumber>()
        .map_err(|e| bad(&e))?;
    let budget = args.budget.reproducible_budget()?;
    if args.fragment && target != "latex" {
        return Err(CliError::new("--fragment is for --to latex"));
    }
    if target == "pdf" && output.is_none() && std::io::stdout().is_terminal() {
        return Err(CliError::new("a PDF is not for the terminal")
            .with_help("write it to a file with -o game.pdf"));
    }
    // Each game is written once set: only the page being filled (PDF) is held.
    let mut book = match target {
        "pdf" => Book::Pdf(Box::new(PdfBook::new().map_err(|e| bad(&e))?)),
        _ if args.fragment => Book::Latex(LatexBook::fragment()),
        _ => Book::Latex(LatexBook::whole()),
    };
    let mut out = Output::open(output, files)?;
    let (mut set, mut failed) = (0usize, 0usize);
    // What stopped the reading that is not a read error: a page that cannot be made or written.
    let mut stopped: Option<CliError> = None;
    for file in files {
        let read = for_each_input(file, |input| {
            let (game, replay) =
                match input.and_then(|input| replay_input(input, MarginPolicy::Never, file)) {
                    Ok(replayed) => replayed,
                    Err(message) => {
                        super::to_stderr(message);
                        failed += 1;
                        return Ok(());
                    }
                };
            let doc = printed::document(&game, &replay, &opts, &budget);
            for warning in &doc.warnings {
                super::warn(format_args!("{}:{}: {warning}", file.display(), game.line));
            }
            set += 1;
            let written = match book.add(&doc) {
                Ok(bytes) => out.writer().write_all(&bytes).map_err(|e| out.failed(e)),
                Err(e) => Err(bad(&e)),
            };
            written.map_err(|e| {
                stopped = Some(e);
                std::io::Error::other("stopped")
            })
        });
        if let Some(e) = stopped {
            return Err(e);
        }
        read.map_err(|e| CliError::new(format!("cannot read {}: {e}", file.display())))?;
    }
    if set == 0 {
        return Err(CliError::new("no game to set: nothing was written"));
    }
    let bytes = book.end().map_err(|e| bad(&e))?;
    out.writer().write_all(&bytes).map_err(|e| out.failed(e))?;
    out.commit()?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The document being set, a game at a time.
enum Book {
    Pdf(Box<PdfBook>),
    Latex(LatexBook),
}

impl Book {
    fn add(&mut self, doc: &Document) -> Result<Vec<u8>, DiagramError> {
        match self {
            Book::Pdf(book) => book.add(doc),
            Book::Latex(book) => book.add(doc).map(String::into_bytes),
        }
    }

    fn end(self) -> Result<Vec<u8>, DiagramError> {
        match self {
            Book::Pdf(book) => book.end(),
            Book::Latex(book) => Ok(book.end().into_bytes()),
        }
    }
}
