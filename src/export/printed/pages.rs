//! The document as a PDF needing nothing installed: A5 pages laid out here (lines broken with the
//! shipped font's advance widths), each page an SVG with the diagrams' own SVG inside, converted by
//! [`crate::export::pdf`]. A diagram that does not fit at a page's foot floats to the next page's
//! top while the text goes on filling this one; the final position, its diagram and the closing
//! sentence stay together.

use super::{Block, Document, Run, Style};
use crate::export::diagram::{self, DiagramError};
use crate::export::fonts;
use std::fmt::Write;

/// A5, in points.
const PAGE_WIDTH: f32 = 419.53;
const PAGE_HEIGHT: f32 = 595.28;
const MARGIN: f32 = 42.5;
const BODY: f32 = 10.0;
/// Variations, a size smaller.
const SMALL: f32 = 8.8;
const LEADING: f32 = 13.0;
const TITLE: f32 = 15.0;
const DETAILS: f32 = 8.5;
const HEADING: f32 = 11.5;
/// Space between blocks.
const SKIP: f32 = 6.0;
const PT_PER_PX: f32 = 0.75;

/// The games as one PDF, each starting on a new page.
pub fn pdf(docs: &[Document]) -> Result<Vec<u8>, DiagramError> {
    let mut book = PdfBook::new()?;
    let mut bytes = Vec::new();
    for doc in docs {
        bytes.extend(book.add(doc)?);
    }
    bytes.extend(book.end()?);
    Ok(bytes)
}

/// Games set as one PDF a game at a time, for books too long to hold: [`PdfBook::add`] sets a
/// game and gives the bytes of the pages it filled, [`PdfBook::end`] the rest. All the pieces,
/// written one after the other in the order they were given, are the PDF, each game starting on a
/// new page; what is held is the page being filled.
pub struct PdfBook {
    book: Book,
    metrics: Metrics,
    pdf: crate::export::pdf::PdfPages,
    /// The first game's title, and whether it is the only game: a single game's title is the
    /// document's.
    title: Option<String>,
    games: usize,
}

impl PdfBook {
    /// A book with no game yet.
    pub fn new() -> Result<PdfBook, DiagramError> {
        Ok(PdfBook {
            book: Book {
                pages: Vec::new(),
                numbered: 0,
                page: String::new(),
                y: MARGIN,
                floating: Vec::new(),
            },
            metrics: Metrics::new().ok_or_else(|| DiagramError::Svg("the shipped font".into()))?,
            pdf: crate::export::pdf::PdfPages::new(),
            title: None,
            games: 0,
        })
    }

    /// Sets a game from a new page: the bytes of the pages it filled (its last page is given
    /// with the next game's, or by [`PdfBook::end`]).
    pub fn add(&mut self, doc: &Document) -> Result<Vec<u8>, DiagramError> {
        if !self.book.page.is_empty() {
            self.book.finish_page();
        }
        set(&mut self.book, doc, &self.metrics)?;
        self.book.place_floating();
        if self.games == 0 {
            self.title = Some(doc.title.clone());
        }
        self.games += 1;
        self.convert()
    }

    /// The last page and the end of the file.
    pub fn end(mut self) -> Result<Vec<u8>, DiagramError> {
        self.book.finish_page();
        let mut bytes = self.convert()?;
        let title = self.title.filter(|_| self.games == 1);
        bytes.extend(self.pdf.end(title.as_deref())?);
        Ok(bytes)
    }

    /// The pages filled so far, converted.
    fn convert(&mut self) -> Result<Vec<u8>, DiagramError> {
        let mut bytes = Vec::new();
        for page in self.book.pages.drain(..) {
            bytes.extend(self.pdf.page(&page)?);
        }
        Ok(bytes)
    }
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

    /// The width of `text` at `size` points; a character the face lacks counts as 0.6 em (the
    /// oblique face has the regular one's advances).
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
    for line in wrap(&[word_run(&doc.title, Face::Bold)], metrics, TITLE) {
        book.need(TITLE * 1.3);
        book.words_line(&line, TITLE * 1.3);
    }
    for detail in &doc.details {
        for line in wrap(&[word_run(detail, Face::Regular)], metrics, DETAILS) {
            book.need(DETAILS * 1.35);
            book.words_line(&line, DETAILS * 1.35);
        }
    }
    book.y += SKIP;
    for (i, block) in doc.blocks.iter().enumerate() {
        match block {
            Block::Diagram(d) => {
                let fragment = diagram::svg_fragment(&d.0, &d.1)?;
                book.diagram(fragment);
            }
            Block::Together(blocks) => {
                // The final position: whatever floats is placed first, then the group on one page.
                book.place_floating();
                let laid: Vec<Laid> = blocks
                    .iter()
                    .map(|b| lay(b, metrics))
                    .collect::<Result<_, _>>()?;
                book.need(laid.iter().map(Laid::height).sum());
                for l in laid {
                    book.put(l);
                }
            }
            _ => {
                // A heading stays with what follows it: two lines of text, or a diagram.
                if let Block::Heading(_) = block {
                    let next = match doc.blocks.get(i + 1) {
                        Some(Block::Diagram(d)) => {
                            diagram::svg_fragment(&d.0, &d.1)?.height_pt + SKIP
                        }
                        _ => LEADING * 2.0,
                    };
                    book.need(SKIP + HEADING * 1.3 + next);
                }
                book.put(lay(block, metrics)?);
            }
        }
    }
    Ok(())
}

/// A block made ready to put on a page.
enum Laid {
    Lines(Vec<Vec<Word>>),
    Heading(String),
    Diagram(diagram::Fragment),
}

impl Laid {
    fn height(&self) -> f32 {
        match self {
            Laid::Lines(lines) => lines.len() as f32 * LEADING + SKIP,
            Laid::Heading(_) => SKIP + HEADING * 1.3,
            Laid::Diagram(f) => f.height_pt + SKIP,
        }
    }
}

fn lay(block: &Block, metrics: &Metrics) -> Result<Laid, DiagramError> {
    Ok(match block {
        Block::Text(runs) => Laid::Lines(wrap(runs, metrics, BODY)),
        Block::Heading(text) => Laid::Heading(text.clone()),
        Block::Diagram(d) => Laid::Diagram(diagram::svg_fragment(&d.0, &d.1)?),
        Block::Together(_) => Laid::Lines(Vec::new()),
    })
}

/// A heading's words, as one run in a face.
fn word_run(text: &str, face: Face) -> (String, Face) {
    (text.to_string(), face)
}

/// The shipped faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Face {
    Regular,
    Bold,
    Oblique,
}

/// A word on a line: its text, face and size.
#[derive(Clone, Debug)]
struct Word {
    text: String,
    face: Face,
    size: f32,
}

/// Pages being filled, in points from the top-left corner.
struct Book {
    /// Pages filled and not yet converted.
    pages: Vec<String>,
    /// Pages filled so far, converted or not: the last one's number.
    numbered: usize,
    page: String,
    y: f32,
    /// Diagrams waiting for the next page's top.
    floating: Vec<diagram::Fragment>,
}

impl Book {
    /// Starts a new page unless `height` fits on this one.
    fn need(&mut self, height: f32) {
        if self.y + height > PAGE_HEIGHT - MARGIN && !self.page.is_empty() {
            self.finish_page();
        }
    }

    /// A diagram here if it fits, else at the next page's top (the text goes on filling this
    /// page); diagrams keep their order.
    fn diagram(&mut self, fragment: diagram::Fragment) {
        let fits = self.y + fragment.height_pt + SKIP <= PAGE_HEIGHT - MARGIN;
        if self.floating.is_empty() && (fits || self.page.is_empty()) {
            self.put(Laid::Diagram(fragment));
        } else {
            self.floating.push(fragment);
        }
    }

    /// Places the diagrams still waiting, on new pages as needed.
    fn place_floating(&mut self) {
        for fragment in std::mem::take(&mut self.floating) {
            self.need(fragment.height_pt + SKIP);
            self.put(Laid::Diagram(fragment));
        }
    }

    fn put(&mut self, laid: Laid) {
        match laid {
            Laid::Lines(lines) => {
                for line in lines {
                    self.need(LEADING);
                    self.words_line(&line, LEADING);
                }
                self.y += SKIP;
            }
            Laid::Heading(text) => {
                self.y += SKIP;
                self.text_line(&[(text, Face::Bold)], HEADING);
            }
            Laid::Diagram(fragment) => {
                let x = (PAGE_WIDTH - fragment.width_pt) / 2.0;
                let _ = writeln!(
                    self.page,
                    "<g transform=\"translate({x:.2} {:.2}) scale({PT_PER_PX})\">\n{}</g>",
                    self.y, fragment.body
                );
                self.y += fragment.height_pt + SKIP;
            }
        }
    }

    fn finish_page(&mut self) {
        self.numbered += 1;
        let number = self.numbered;
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
        // A new page starts with the diagrams that did not fit on the last.
        for fragment in std::mem::take(&mut self.floating) {
            self.put(Laid::Diagram(fragment));
        }
    }

    /// One line of a heading in one face and size.
    fn text_line(&mut self, words: &[(String, Face)], size: f32) {
        let words: Vec<Word> = words
            .iter()
            .map(|(text, face)| Word {
                text: text.clone(),
                face: *face,
                size,
            })
            .collect();
        self.words_line(&words, size * 1.3);
    }

    /// One line of words at the left margin, its baseline `height` down.
    fn words_line(&mut self, words: &[Word], height: f32) {
        self.y += height;
        let _ = write!(
            self.page,
            "<text x=\"{MARGIN}\" y=\"{:.2}\" font-family=\"{}\" fill=\"#1a1a1a\">",
            self.y,
            fonts::FAMILY
        );
        for (i, word) in words.iter().enumerate() {
            let space = if i + 1 < words.len() { " " } else { "" };
            let face = match word.face {
                Face::Regular => "",
                Face::Bold => " font-weight=\"bold\"",
                Face::Oblique => " font-style=\"italic\"",
            };
            let _ = write!(
                self.page,
                "<tspan font-size=\"{}\"{face}>{}{space}</tspan>",
                word.size,
                diagram::xml_escape(&word.text)
            );
        }
        self.page.push_str("</text>\n");
    }
}

/// Breaks runs into lines no wider than the text width. A move (with its number, joined by a
/// no-break space) is one unit; prose breaks at spaces. Variations are set a size smaller,
/// comments oblique.
fn wrap(runs: &[impl AsWords], metrics: &Metrics, size: f32) -> Vec<Vec<Word>> {
    let width = PAGE_WIDTH - 2.0 * MARGIN;
    let mut lines = Vec::new();
    let mut line: Vec<Word> = Vec::new();
    let mut used = 0.0;
    for run in runs {
        for word in run.words(size) {
            let bold = word.face == Face::Bold;
            let w = metrics.width(&word.text, bold, word.size);
            let space = metrics.width(" ", bold, word.size);
            let extra = if line.is_empty() { w } else { space + w };
            if used + extra > width && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = w;
            } else {
                used += extra;
            }
            line.push(word);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Text that breaks into words.
trait AsWords {
    fn words(&self, body: f32) -> Vec<Word>;
}

impl AsWords for Run {
    fn words(&self, body: f32) -> Vec<Word> {
        let size = if self.variation { SMALL } else { body };
        let face = match self.style {
            Style::Comment => Face::Oblique,
            _ => Face::Regular,
        };
        let word = |text: &str| Word {
            text: text.to_string(),
            face,
            size,
        };
        match self.style {
            Style::Move => vec![word(&self.text)],
            _ => self
                .text
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(word)
                .collect(),
        }
    }
}

impl AsWords for (String, Face) {
    fn words(&self, body: f32) -> Vec<Word> {
        self.0
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| Word {
                text: w.to_string(),
                face: self.1,
                size: body,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::printed::NUMBER_SPACE;

    #[test]
    fn a_move_is_never_broken_from_its_number() {
        let metrics = Metrics::new().unwrap();
        let runs: Vec<Run> = (1..=60)
            .map(|n| Run {
                text: format!("{n}.{NUMBER_SPACE}33-43"),
                style: Style::Move,
                variation: false,
            })
            .collect();
        let lines = wrap(&runs, &metrics, BODY);
        assert!(lines.len() > 3);
        for line in &lines {
            for word in line {
                assert!(word.text.contains(NUMBER_SPACE) && word.text.ends_with("33-43"));
            }
        }
    }
}
