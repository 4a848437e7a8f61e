//! PDF from SVG: each page an SVG drawn by this crate, converted to vector PDF by svg2pdf (the same
//! usvg tree resvg renders PNGs from), fonts embedded as subsets. One page for a diagram, several
//! for a printed game.

use super::fonts;
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, TextStr};
use resvg::usvg;
use std::collections::HashMap;

/// A CSS pixel (the SVG's user unit) in points.
const PT_PER_PX: f32 = 0.75;

/// Why a PDF could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PdfError {
    /// A page's SVG could not be read back (a bug if it happens).
    #[error("could not read the SVG of page {page}: {message}")]
    Svg {
        /// The page, from 1.
        page: usize,
        /// What the SVG reader said.
        message: String,
    },
    /// svg2pdf could not convert a page.
    #[error("could not convert page {page} to PDF: {message}")]
    Convert {
        /// The page, from 1.
        page: usize,
        /// What svg2pdf said.
        message: String,
    },
}

/// A PDF with one page per SVG document, each page the SVG's size.
pub fn from_svg_pages<S: AsRef<str>>(
    pages: &[S],
    title: Option<&str>,
) -> Result<Vec<u8>, PdfError> {
    let options = usvg::Options {
        fontdb: fonts::database(),
        ..usvg::Options::default()
    };
    let mut alloc = Ref::new(1);
    let catalog = alloc.bump();
    let tree_id = alloc.bump();
    let mut pdf = Pdf::new();
    let mut page_ids = Vec::with_capacity(pages.len());
    for (index, svg) in pages.iter().enumerate() {
        let page = index + 1;
        let tree = usvg::Tree::from_str(svg.as_ref(), &options).map_err(|e| PdfError::Svg {
            page,
            message: e.to_string(),
        })?;
        let (chunk, drawing) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| PdfError::Convert {
                page,
                message: e.to_string(),
            })?;
        // The chunk numbers its objects from 1: move them after the ones already written.
        let mut renumbered = HashMap::new();
        let chunk = chunk.renumber(|old| *renumbered.entry(old).or_insert_with(|| alloc.bump()));
        let drawing = renumbered[&drawing];
        let (page_id, content_id) = (alloc.bump(), alloc.bump());
        let (w, h) = (
            tree.size().width() * PT_PER_PX,
            tree.size().height() * PT_PER_PX,
        );
        let name = Name(b"D");
        let mut page_writer = pdf.page(page_id);
        page_writer
            .media_box(Rect::new(0.0, 0.0, w, h))
            .parent(tree_id)
            .contents(content_id);
        page_writer.resources().x_objects().pair(name, drawing);
        page_writer.finish();
        let mut content = Content::new();
        content.transform([w, 0.0, 0.0, h, 0.0, 0.0]).x_object(name);
        pdf.stream(content_id, &content.finish());
        pdf.extend(&chunk);
        page_ids.push(page_id);
    }
    pdf.catalog(catalog).pages(tree_id);
    pdf.pages(tree_id)
        .kids(page_ids.iter().copied())
        .count(page_ids.len() as i32);
    let mut info = pdf.document_info(alloc.bump());
    info.producer(TextStr("salta"));
    if let Some(title) = title {
        info.title(TextStr(title));
    }
    info.finish();
    Ok(pdf.finish())
}
