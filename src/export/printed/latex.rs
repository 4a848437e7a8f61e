//! The document as LaTeX needing only `\usepackage{tikz}`: a whole `article` ([`latex`]) or a
//! fragment to `\input` into a book ([`latex_fragment`]), its look set by macros the book may
//! define first. Diagrams are the TikZ pictures `salta diagram --format tikz` draws, as floats
//! (`figure`, `htbp`), so that a page never ends in a blank where one did not fit; the final
//! position, its diagram and the closing sentence stay together. A move never parts from its
//! number: each is an `\mbox` with a tie after the number, and `\frenchspacing` keeps the space
//! after "2." the width of any other.

use super::{Block, Document, NUMBER_SPACE, Run, Style};
use crate::export::diagram::{self, DiagramError};
use std::fmt::Write;

/// One LaTeX document of the games, each starting on a new page (compile with pdflatex, lualatex
/// or xelatex).
pub fn latex(docs: &[Document]) -> Result<String, DiagramError> {
    LatexBook::whole().set_all(docs)
}

/// The games alone, to `\input` into a document that loads TikZ. How titles, details, headings
/// and variations look is left to macros the including document may define first
/// (`\saltagame`, `\saltadetails`, `\saltaheading`, `\saltavariation`, `\saltacomment`); the
/// fragment provides plain defaults. Each game after the first starts on a new page
/// (`\saltanewgame`, `\clearpage` by default).
pub fn latex_fragment(docs: &[Document]) -> Result<String, DiagramError> {
    LatexBook::fragment().set_all(docs)
}

/// Games set as LaTeX a game at a time, for books too long to hold, as `PdfBook` sets a PDF:
/// [`LatexBook::add`] gives a game's text (the first also the document's head),
/// [`LatexBook::end`] the rest; the pieces one after the other are [`latex`]'s or
/// [`latex_fragment`]'s document.
pub struct LatexBook {
    /// A whole `article`, or the games alone.
    whole: bool,
    games: usize,
}

impl LatexBook {
    /// A whole document with no game yet.
    pub fn whole() -> LatexBook {
        LatexBook {
            whole: true,
            games: 0,
        }
    }

    /// A fragment to `\input` into a book ([`latex_fragment`]), with no game yet.
    pub fn fragment() -> LatexBook {
        LatexBook {
            whole: false,
            games: 0,
        }
    }

    /// Sets a game (from a new page if it is not the first).
    pub fn add(&mut self, doc: &Document) -> Result<String, DiagramError> {
        let mut out = String::new();
        if self.games == 0 {
            self.head(&mut out);
        } else {
            out.push_str("\\saltanewgame\n");
        }
        self.games += 1;
        game(&mut out, doc)?;
        Ok(out)
    }

    /// The end of the document (its head too if no game was added).
    pub fn end(self) -> String {
        let mut out = String::new();
        if self.games == 0 {
            self.head(&mut out);
        }
        out.push_str("\\par\\endgroup\n");
        if self.whole {
            out.push_str("\\end{document}\n");
        }
        out
    }

    fn set_all(mut self, docs: &[Document]) -> Result<String, DiagramError> {
        let mut out = String::new();
        for doc in docs {
            out.push_str(&self.add(doc)?);
        }
        out.push_str(&self.end());
        Ok(out)
    }

    /// The preamble of a whole document, then the fragment's macros.
    fn head(&self, out: &mut String) {
        if self.whole {
            out.push_str(
                "% Salta games set by salta. Needs only TikZ: pdflatex, lualatex or xelatex.\n",
            );
            out.push_str("\\documentclass[10pt,a4paper]{article}\n");
            out.push_str("\\usepackage{tikz}\n");
            out.push_str(
                "\\setlength{\\parindent}{0pt}\n\\setlength{\\parskip}{0.6\\baselineskip}\n",
            );
            // A diagram every few moves makes many floats: room for more than LaTeX's 18.
            out.push_str("\\extrafloats{100}\n");
            out.push_str("\\begin{document}\n");
        }
        out.push_str(
            "% Salta games set by salta, to \\input into a document that loads TikZ\n\
             % (\\usepackage{tikz}). Define these macros first to set the games your way.\n",
        );
        for (name, args, default) in [
            ("saltagame", 1, "\\section*{#1}"),
            ("saltadetails", 1, "{\\small #1\\par}"),
            ("saltaheading", 1, "\\subsection*{#1}"),
            ("saltavariation", 1, "{\\small #1}"),
            ("saltacomment", 1, "\\textit{#1}"),
            ("saltanewgame", 0, "\\clearpage"),
        ] {
            let args = if args > 0 {
                format!("[{args}]")
            } else {
                String::new()
            };
            let _ = writeln!(out, "\\providecommand{{\\{name}}}{args}{{{default}}}");
        }
        out.push_str("\\begingroup\\frenchspacing\n");
    }
}

fn game(out: &mut String, doc: &Document) -> Result<(), DiagramError> {
    let _ = writeln!(out, "\\saltagame{{{}}}", escape(&doc.title));
    if !doc.details.is_empty() {
        let lines: Vec<String> = doc.details.iter().map(|d| escape(d)).collect();
        let _ = writeln!(out, "\\saltadetails{{{}}}", lines.join("\\\\\n"));
    }
    for block in &doc.blocks {
        self::block(out, block, true)?;
    }
    Ok(())
}

/// Writes a block; a diagram floats unless it is kept with its neighbours.
fn block(out: &mut String, block: &Block, float: bool) -> Result<(), DiagramError> {
    match block {
        Block::Text(runs) => {
            out.push_str(&paragraph(runs));
            out.push_str("\n\n");
        }
        Block::Heading(text) => {
            let _ = writeln!(out, "\\saltaheading{{{}}}", escape(text));
        }
        Block::Diagram(d) => {
            let (position, options) = d.as_ref();
            let (open, close) = if float {
                ("\\begin{figure}[htbp]\n\\centering\n", "\\end{figure}\n\n")
            } else {
                ("\\begin{center}\n", "\\end{center}\n")
            };
            out.push_str(open);
            out.push_str(&diagram::tikz(position, options)?);
            out.push_str(close);
        }
        Block::Together(blocks) => {
            // A minipage does not break across pages.
            out.push_str("\\par\\noindent\\begin{minipage}{\\linewidth}\n");
            for b in blocks {
                self::block(out, b, false)?;
            }
            out.push_str("\\end{minipage}\n\n");
        }
    }
    Ok(())
}

/// Runs joined by spaces: a move an unbreakable `\mbox` with a tie after its number, comments in
/// italic, each variation a size smaller.
fn paragraph(runs: &[Run]) -> String {
    let mut out = String::new();
    let mut in_variation = false;
    for (i, run) in runs.iter().enumerate() {
        if run.variation != in_variation {
            out.push_str(if run.variation {
                " \\saltavariation{"
            } else {
                "} "
            });
            in_variation = run.variation;
        } else if i > 0 {
            out.push(' ');
        }
        let text = escape(&run.text);
        match run.style {
            Style::Move => {
                let _ = write!(out, "\\mbox{{{text}}}");
            }
            Style::Comment => {
                let _ = write!(out, "\\saltacomment{{{text}}}");
            }
            Style::Plain => out.push_str(&text),
        }
    }
    if in_variation {
        out.push('}');
    }
    out.trim_start().to_string()
}

/// Escapes text for LaTeX, with the typographic characters a plain `pdflatex` knows by their
/// commands and the no-break space after a move number as a tie.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            NUMBER_SPACE => out.push('~'),
            '‘' => out.push('`'),
            '’' => out.push('\''),
            '“' => out.push_str("``"),
            '”' => out.push_str("''"),
            '½' => out.push_str("\\ensuremath{\\frac12}"),
            c => out.push_str(&diagram::latex_escape(&c.to_string())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, style: Style, variation: bool) -> Run {
        Run {
            text: text.into(),
            style,
            variation,
        }
    }

    #[test]
    fn a_move_number_is_tied_to_its_move_and_variations_are_grouped() {
        let runs = [
            run("10.\u{a0}83:102", Style::Move, false),
            run("A jump chain of Green’s", Style::Comment, false),
            run("(10…\u{a0}72-62", Style::Move, true),
            run("11.\u{a0}13-22)", Style::Move, true),
            run("11.\u{a0}13-22", Style::Move, false),
        ];
        assert_eq!(
            paragraph(&runs),
            "\\mbox{10.~83:102} \\saltacomment{A jump chain of Green's} \
             \\saltavariation{\\mbox{(10\\ldots{}~72-62} \\mbox{11.~13-22)}} \\mbox{11.~13-22}"
        );
    }
}
