//! The document as LaTeX: `article`, needing only `\usepackage{tikz}`; diagrams are the TikZ
//! pictures `salta diagram --format tikz` draws, centred, their captions inside.

use super::{Block, Document, Run, Style};
use crate::export::diagram::{self, DiagramError};
use std::fmt::Write;

/// One LaTeX document of the games, each starting on a new page (compile with pdflatex, lualatex
/// or xelatex).
pub fn latex(docs: &[Document]) -> Result<String, DiagramError> {
    let mut out = String::new();
    out.push_str("% Salta games set by salta. Needs only TikZ: pdflatex, lualatex or xelatex.\n");
    out.push_str("\\documentclass[10pt,a4paper]{article}\n");
    out.push_str("\\usepackage{tikz}\n");
    out.push_str("\\setlength{\\parindent}{0pt}\n\\setlength{\\parskip}{0.6\\baselineskip}\n");
    out.push_str("\\begin{document}\n");
    for (i, doc) in docs.iter().enumerate() {
        if i > 0 {
            out.push_str("\\clearpage\n");
        }
        game(&mut out, doc)?;
    }
    out.push_str("\\end{document}\n");
    Ok(out)
}

fn game(out: &mut String, doc: &Document) -> Result<(), DiagramError> {
    let _ = writeln!(out, "\\section*{{{}}}", diagram::latex_escape(&doc.title));
    if !doc.details.is_empty() {
        let lines: Vec<String> = doc
            .details
            .iter()
            .map(|d| diagram::latex_escape(d))
            .collect();
        let _ = writeln!(out, "{{\\small {}\\par}}", lines.join("\\\\\n"));
    }
    for block in &doc.blocks {
        match block {
            Block::Text(runs) => {
                out.push_str(&paragraph(runs));
                out.push_str("\n\n");
            }
            Block::Heading(text) => {
                let _ = writeln!(out, "\\subsection*{{{}}}", diagram::latex_escape(text));
            }
            Block::Diagram(d) => {
                let (position, options) = d.as_ref();
                out.push_str("\\begin{center}\n");
                out.push_str(&diagram::tikz(position, options)?);
                out.push_str("\\end{center}\n\n");
            }
        }
    }
    Ok(())
}

/// Runs joined by spaces; moves in bold.
fn paragraph(runs: &[Run]) -> String {
    let parts: Vec<String> = runs
        .iter()
        .map(|run| {
            let text = diagram::latex_escape(&run.text);
            match run.style {
                Style::Move => format!("\\textbf{{{text}}}"),
                Style::Plain => text,
            }
        })
        .collect();
    parts.join(" ")
}
