//! The document as a PDF needing nothing installed: A5 pages laid out here (lines broken with the
//! shipped font's advance widths), each page an SVG with the diagrams' own SVG inside, converted by
//! [`crate::export::pdf`].

use super::{Block, Document, Run, Style};
use crate::export::diagram::{self, DiagramError};
use crate::export::fonts;
use std::fmt::Write;

/// A5, in points.
const PAGE_WIDTH: f32 = 419.53;
const PAGE_HEIGHT: f32 = 595.28;
const MARGIN: f32 = 42.5;
const BODY: f32 = 10.0;
const LEADING: f32 = 13.0;
const TITLE: f32 = 15.0;
const DETAILS: f32 = 8.5;
const HEADING: f32 = 11.5;
/// Space between blocks.
const SKIP: f32 = 6.0;
const PT_PER_PX: f32 = 0.75;

/// The games as one PDF, each starting on a new page.
pub fn pdf(docs: &[Document]) -> Result<Vec<u8>, DiagramError> {
    let metrics = Metrics::new().ok_or_else(|| DiagramError::Svg("the shipped font".into()))?;
    let mut book = Book {
        pages: Vec::new(),
        page: String::new(),
        y: MARGIN,
    };
    for doc in docs {
        if !book.page.is_empty() {
            book.finish_page();
        }
        set(&mut book, doc, &metrics)?;
    }
    book.finish_page();
    let title = match docs {
        [doc] => Some(doc.title.as_str()),
        _ => None,
    };
    Ok(crate::export::pdf::from_svg_pages(&book.pages, title)?)
}

/// Advance widths of the shipped regular and bold faces.
struct Metrics {
    regular: ttf_parser::Face<'static>,
    bold: ttf_parser::Face<'static>,
}

impl Metrics {
    fn new() -> Option<Metrics> {
        Some(Metrics {
            regular: ttf_parser::Face::parse(fonts::REGULAR, 0).ok()?,
            bold: ttf_parser::Face::parse(fonts::BOLD, 0).ok()?,
        })
    }

    /// The width of `text` at `size` points; a character the face lacks counts as 0.6 em.
    fn width(&self, text: &str, bold: bool, size: f32) -> f32 {
        let face = if bold { &self.bold } else { &self.regular };
        let em = face.units_per_em() as f32;
        let units: f32 = text
            .chars()
            .map(|c| {
                face.glyph_index(c)
                    .and_then(|g| face.glyph_hor_advance(g))
                    .map_or(0.6 * em, f32::from)
            })
            .sum();
        units / em * size
    }
}

/// Lays one game out on the pages, each page an SVG document.
fn set(book: &mut Book, doc: &Document, metrics: &Metrics) -> Result<(), DiagramError> {
    for line in wrap(&[word_run(&doc.title, Style::Move)], metrics, TITLE) {
        book.need(TITLE * 1.3);
        book.text_line(&line, TITLE);
    }
    for detail in &doc.details {
        for line in wrap(&[word_run(detail, Style::Plain)], metrics, DETAILS) {
            book.need(DETAILS * 1.35);
            book.text_line(&line, DETAILS);
        }
    }
    book.y += SKIP;
    for (i, block) in doc.blocks.iter().enumerate() {
        match block {
            Block::Text(runs) => {
                for line in wrap(runs, metrics, BODY) {
                    book.need(LEADING);
                    book.text_line(&line, BODY);
                }
                book.y += SKIP;
            }
            Block::Heading(text) => {
                // A heading stays with what follows it: a diagram, or two lines of text.
                let next = match doc.blocks.get(i + 1) {
                    Some(Block::Diagram(d)) => diagram::svg_fragment(&d.0, &d.1)?.height_pt + SKIP,
                    _ => LEADING * 2.0,
                };
                book.need(SKIP + HEADING * 1.3 + next);
                book.y += SKIP;
                book.text_line(&[(text.clone(), Style::Move)], HEADING);
            }
            Block::Diagram(d) => {
                let (position, options) = d.as_ref();
                let fragment = diagram::svg_fragment(position, options)?;
                book.need(fragment.height_pt + SKIP);
                let x = (PAGE_WIDTH - fragment.width_pt) / 2.0;
                let _ = writeln!(
                    book.page,
                    "<g transform=\"translate({x:.2} {:.2}) scale({PT_PER_PX})\">\n{}</g>",
                    book.y, fragment.body
                );
                book.y += fragment.height_pt + SKIP;
            }
        }
    }
    Ok(())
}

fn word_run(text: &str, style: Style) -> Run {
    Run {
        text: text.to_string(),
        style,
    }
}

/// Pages being filled, in points from the top-left corner.
struct Book {
    pages: Vec<String>,
    page: String,
    y: f32,
}

impl Book {
    /// Starts a new page unless `height` fits on this one.
    fn need(&mut self, height: f32) {
        if self.y + height > PAGE_HEIGHT - MARGIN && !self.page.is_empty() {
            self.finish_page();
        }
    }

    fn finish_page(&mut self) {
        let number = self.pages.len() + 1;
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.2}\" height=\"{:.2}\" viewBox=\"0 0 {PAGE_WIDTH} {PAGE_HEIGHT}\">",
            PAGE_WIDTH / PT_PER_PX,
            PAGE_HEIGHT / PT_PER_PX
        );
        let _ = writeln!(
            svg,
            "<rect width=\"{PAGE_WIDTH}\" height=\"{PAGE_HEIGHT}\" fill=\"#ffffff\"/>"
        );
        svg.push_str(&self.page);
        let _ = writeln!(
            svg,
            "<text x=\"{:.2}\" y=\"{:.2}\" font-family=\"{}\" font-size=\"{DETAILS}\" text-anchor=\"middle\">{number}</text>",
            PAGE_WIDTH / 2.0,
            PAGE_HEIGHT - MARGIN / 2.0,
            fonts::FAMILY
        );
        svg.push_str("</svg>\n");
        self.pages.push(svg);
        self.page.clear();
        self.y = MARGIN;
    }

    /// One line of words at the left margin, its baseline a line's height down.
    fn text_line(&mut self, words: &[(String, Style)], size: f32) {
        self.y += size * 1.3;
        let _ = write!(
            self.page,
            "<text x=\"{MARGIN}\" y=\"{:.2}\" font-family=\"{}\" font-size=\"{size}\" fill=\"#1a1a1a\">",
            self.y,
            fonts::FAMILY
        );
        for (i, (word, style)) in words.iter().enumerate() {
            let space = if i + 1 < words.len() { " " } else { "" };
            let weight = match style {
                Style::Move => " font-weight=\"bold\"",
                Style::Plain => "",
            };
            let _ = write!(
                self.page,
                "<tspan{weight}>{}{space}</tspan>",
                diagram::xml_escape(word)
            );
        }
        self.page.push_str("</text>\n");
    }
}

/// Breaks runs into lines no wider than the text width; a move's number stays with its move.
fn wrap(runs: &[Run], metrics: &Metrics, size: f32) -> Vec<Vec<(String, Style)>> {
    let width = PAGE_WIDTH - 2.0 * MARGIN;
    let space = metrics.width(" ", false, size);
    let mut lines = Vec::new();
    let mut line: Vec<(String, Style)> = Vec::new();
    let mut used = 0.0;
    for run in runs {
        let bold = run.style == Style::Move;
        // A move run ("12. 33-43") is one unit; prose breaks at spaces.
        let words: Vec<String> = match run.style {
            Style::Move => vec![run.text.clone()],
            Style::Plain => run.text.split_whitespace().map(str::to_string).collect(),
        };
        for word in words {
            let w = metrics.width(&word, bold, size);
            let extra = if line.is_empty() { w } else { space + w };
            if used + extra > width && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = w;
            } else {
                used += extra;
            }
            line.push((word, run.style));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
