//! PDF from SVG: each page an SVG drawn by this crate, converted to vector PDF by svg2pdf (the same
//! usvg tree resvg renders PNGs from), fonts embedded as subsets. One page for a diagram, several
//! for a printed game, thousands for a book of games: [`PdfPages`] gives each page's objects as
//! bytes as soon as the page is converted, so a book is written without being held.

use super::fonts;
use pdf_writer::{Chunk, Content, Finish, Name, Pdf, Primitive, Rect, Ref, TextStr};
use resvg::usvg;
use std::collections::HashMap;
use std::fmt::Write as _;

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
    /// The file's own objects could not be written (a bug if it happens).
    #[error("could not write the PDF: {0}")]
    Structure(String),
}

/// A PDF with one page per SVG document, each page the SVG's size.
pub fn from_svg_pages<S: AsRef<str>>(
    pages: &[S],
    title: Option<&str>,
) -> Result<Vec<u8>, PdfError> {
    let mut pdf = PdfPages::new();
    let mut bytes = Vec::new();
    for svg in pages {
        bytes.extend(pdf.page(svg.as_ref())?);
    }
    bytes.extend(pdf.end(title)?);
    Ok(bytes)
}

/// A PDF made a page at a time: [`PdfPages::page`] converts a page and gives the bytes of its
/// objects, [`PdfPages::end`] the page tree, the document information and the cross-reference
/// table. All the pieces, written one after the other in the order they were given, are the PDF;
/// what is kept between pages is a few numbers per object.
pub struct PdfPages {
    /// Options of the SVG reader, its fonts loaded once.
    options: usvg::Options<'static>,
    /// The next free object number.
    alloc: Ref,
    catalog: Ref,
    tree: Ref,
    pages: Vec<Ref>,
    /// Where each object starts, by number (from 1); `None` for those written at the end.
    offsets: Vec<Option<usize>>,
    /// The bytes given so far.
    written: usize,
}

/// The file's first line, and a comment of bytes above 127 that marks it binary.
const HEADER: &[u8] = b"%PDF-1.7\n%\x80\x80\x80\x80\n\n";

impl Default for PdfPages {
    fn default() -> PdfPages {
        PdfPages::new()
    }
}

impl PdfPages {
    /// A PDF with no page yet.
    pub fn new() -> PdfPages {
        let mut alloc = Ref::new(1);
        let (catalog, tree) = (alloc.bump(), alloc.bump());
        PdfPages {
            options: usvg::Options {
                fontdb: fonts::database(),
                ..usvg::Options::default()
            },
            alloc,
            catalog,
            tree,
            pages: Vec::new(),
            offsets: vec![None, None],
            written: 0,
        }
    }

    /// The next page, an SVG document, as the bytes to write next (the first page's begin with
    /// the file's header). The page is the SVG's size.
    pub fn page(&mut self, svg: &str) -> Result<Vec<u8>, PdfError> {
        let number = self.pages.len() + 1;
        let tree = usvg::Tree::from_str(svg, &self.options).map_err(|e| PdfError::Svg {
            page: number,
            message: e.to_string(),
        })?;
        let (mut chunk, drawing) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| PdfError::Convert {
                page: number,
                message: e.to_string(),
            })?;
        // The page and its content stream join the drawing's objects, numbered after them; the
        // page tree is a number no object of the chunk has, mapped to the real one below.
        let mut local = Ref::new(chunk.refs().map(Ref::get).max().unwrap_or(0) + 1);
        let (page_id, content_id, tree_id) = (local.bump(), local.bump(), local.bump());
        let (w, h) = (
            tree.size().width() * PT_PER_PX,
            tree.size().height() * PT_PER_PX,
        );
        let name = Name(b"D");
        let mut page = chunk.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, w, h))
            .parent(tree_id)
            .contents(content_id);
        page.resources().x_objects().pair(name, drawing);
        page.finish();
        let mut content = Content::new();
        content.transform([w, 0.0, 0.0, h, 0.0, 0.0]).x_object(name);
        chunk.stream(content_id, &content.finish());

        let mut bytes = Vec::new();
        if self.written == 0 {
            bytes.extend_from_slice(HEADER);
        }
        let objects = objects(&chunk).ok_or_else(|| PdfError::Convert {
            page: number,
            message: "its objects could not be told apart".to_string(),
        })?;
        let mut renumbered = HashMap::from([(tree_id, self.tree)]);
        for (old, one) in in_reading_order(objects, page_id) {
            let one = one.renumber(|id| *renumbered.entry(id).or_insert_with(|| self.alloc.bump()));
            let new = renumbered[&old];
            self.place(new, self.written + bytes.len());
            bytes.extend_from_slice(one.as_bytes());
        }
        self.pages.push(renumbered[&page_id]);
        self.written += bytes.len();
        Ok(bytes)
    }

    /// The end of the file: the page tree, the catalogue, the document information (with the
    /// title, if given) and the cross-reference table.
    pub fn end(mut self, title: Option<&str>) -> Result<Vec<u8>, PdfError> {
        let mut tail = Chunk::new();
        tail.pages(self.tree)
            .kids(self.pages.iter().copied())
            .count(self.pages.len() as i32);
        tail.indirect(self.catalog)
            .start::<pdf_writer::writers::Catalog>()
            .pages(self.tree);
        let info_id = self.alloc.bump();
        let mut info = tail
            .indirect(info_id)
            .start::<pdf_writer::writers::DocumentInfo>();
        info.producer(TextStr("salta"));
        if let Some(title) = title {
            info.title(TextStr(title));
        }
        info.finish();
        let mut bytes = Vec::new();
        if self.written == 0 {
            bytes.extend_from_slice(HEADER);
        }
        // A chunk's objects start where its own xref (of its few numbers) says.
        let start = self.written + bytes.len();
        let offsets = object_offsets(&tail).ok_or_else(|| {
            PdfError::Structure("the page tree's objects could not be told apart".to_string())
        })?;
        for (id, offset) in offsets {
            self.place(id, start + offset);
        }
        bytes.extend_from_slice(tail.as_bytes());
        let xref = self.written + bytes.len();
        let mut table = format!("xref\n0 {}\n0000000000 65535 f\r\n", self.offsets.len() + 1);
        for offset in &self.offsets {
            // Every number is used; one never written would be a bug, listed as free.
            match offset {
                Some(offset) => {
                    let _ = write!(table, "{offset:010} 00000 n\r\n");
                }
                None => table.push_str("0000000000 00000 f\r\n"),
            }
        }
        let _ = write!(
            table,
            "trailer\n<<\n  /Size {}\n  /Root {} 0 R\n  /Info {} 0 R\n>>\nstartxref\n{xref}\n%%EOF",
            self.offsets.len() + 1,
            self.catalog.get(),
            info_id.get()
        );
        bytes.extend_from_slice(table.as_bytes());
        Ok(bytes)
    }

    /// Records where object `id` starts.
    fn place(&mut self, id: Ref, offset: usize) {
        let index = id.get() as usize - 1;
        if self.offsets.len() <= index {
            self.offsets.resize(index + 1, None);
        }
        self.offsets[index] = Some(offset);
    }
}

/// Bytes written as they are: the body of an object copied from another chunk.
struct Raw<'a>(&'a [u8]);

impl Primitive for Raw<'_> {
    fn write(self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(self.0);
    }
}

/// A page's objects, each a chunk of its own, so that the same page gives the same bytes in every
/// run: svg2pdf keeps a page's fonts and resources in hash maps, whose order changes from run to
/// run, and so writes the fonts' objects in another order (numbered in it) and a resource
/// dictionary's entries in another order. Each run of `/Name N 0 R` lines of a dictionary is sorted
/// by name, and the objects are given in the order a reader meets them from `page` (depth first,
/// each object's references in the order written), to be numbered in that order.
fn in_reading_order(objects: Vec<(Ref, Vec<u8>)>, page: Ref) -> Vec<(Ref, Chunk)> {
    let chunks: Vec<(Ref, Chunk)> = objects
        .into_iter()
        .map(|(id, body)| {
            let mut one = Chunk::new();
            one.indirect(id).primitive(Raw(&sorted_references(&body)));
            (id, one)
        })
        .collect();
    let index: HashMap<Ref, usize> = chunks
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i))
        .collect();
    let mut met = vec![false; chunks.len()];
    let mut order = Vec::with_capacity(chunks.len());
    let mut next = vec![page];
    while let Some(id) = next.pop() {
        let Some(&i) = index.get(&id).filter(|&&i| !met[i]) else {
            continue;
        };
        met[i] = true;
        order.push(i);
        // pdf-writer's renumbering meets the object's own number first, then its references.
        let mut references = Vec::new();
        let _ = chunks[i].1.renumber(|r| {
            references.push(r);
            r
        });
        next.extend(references.into_iter().skip(1).rev());
    }
    // Objects the page does not lead to (none that svg2pdf writes), as written.
    order.extend((0..chunks.len()).filter(|&i| !met[i]));
    let mut chunks: Vec<Option<(Ref, Chunk)>> = chunks.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| chunks[i].take()).collect()
}

/// An object's body with each run of `/Name N 0 R` lines at one indent (entries of one
/// dictionary, as pdf-writer writes a dictionary a pair a line) sorted by name; a stream's data
/// is left as it is.
fn sorted_references(body: &[u8]) -> Vec<u8> {
    let (head, data) = match body.windows(8).position(|w| w == b"\nstream\n") {
        Some(at) => body.split_at(at),
        None => (body, &[][..]),
    };
    let is_pair = |line: &[u8]| {
        let words: Vec<&[u8]> = line.trim_ascii_start().split(|&b| b == b' ').collect();
        matches!(words[..], [name, number, b"0", b"R"]
            if name.len() > 1 && name[0] == b'/' && number.iter().all(u8::is_ascii_digit))
    };
    let indent = |line: &[u8]| line.len() - line.trim_ascii_start().len();
    let mut lines: Vec<&[u8]> = head.split(|&b| b == b'\n').collect();
    let mut start = 0;
    while start < lines.len() {
        let mut end = start;
        while end < lines.len() && is_pair(lines[end]) && indent(lines[end]) == indent(lines[start])
        {
            end += 1;
        }
        lines[start..end].sort_unstable();
        start = end.max(start + 1);
    }
    let mut sorted = lines.join(&b'\n');
    sorted.extend_from_slice(data);
    sorted
}

/// Each object of a chunk, its number and body (between `N 0 obj` and `endobj`), in order;
/// `None` if the chunk is not as pdf-writer writes one.
fn objects(chunk: &Chunk) -> Option<Vec<(Ref, Vec<u8>)>> {
    let bytes = chunk.as_bytes();
    let mut starts = object_offsets(chunk)?;
    starts.sort_by_key(|&(_, offset)| offset);
    let ends = starts
        .iter()
        .skip(1)
        .map(|&(_, offset)| offset)
        .chain([bytes.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&(id, start), end)| {
            let object = bytes.get(start..end)?;
            let head = format!("{} 0 obj\n", id.get());
            let body = object
                .strip_prefix(head.as_bytes())?
                .strip_suffix(b"\nendobj\n\n")?;
            Some((id, body.to_vec()))
        })
        .collect()
}

/// Where each object of a chunk starts in its bytes. pdf-writer keeps this to itself but writes
/// it in a PDF's cross-reference table: the chunk is made a PDF of its own and the table read.
fn object_offsets(chunk: &Chunk) -> Option<Vec<(Ref, usize)>> {
    let mut pdf = Pdf::new();
    let base = pdf.len();
    pdf.extend(chunk);
    let bytes = pdf.finish();
    let text = std::str::from_utf8(bytes.get(base + chunk.len()..)?).ok()?;
    // `xref`, `0 SIZE`, then a line per number from 0 (free, as are numbers not used).
    let mut offsets = Vec::new();
    for (id, line) in text.lines().skip(2).enumerate() {
        if line.starts_with("trailer") {
            break;
        }
        let (offset, kind) = (line.get(..10)?, line.get(17..18)?);
        if kind == "n" && id > 0 {
            let id = i32::try_from(id).ok()?;
            offsets.push((
                Ref::new(id),
                offset.parse::<usize>().ok()?.checked_sub(base)?,
            ));
        }
    }
    (offsets.len() == chunk.refs().len()).then_some(offsets)
}
