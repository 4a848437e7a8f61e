//! Formatting: each game that reads, in the canonical writer's form and the record's own
//! notation; games one blank line apart.

use super::document::Document;
use super::library;
use super::text::Encoding;
use lsp_types::TextEdit;

/// The edits that bring the document to its canonical form (none when it is). A game that does
/// not read is left as written, and so is one numbered from Red's side (the writer would
/// renumber every square of it: decision 103).
pub(super) fn format(doc: &Document, encoding: Encoding) -> Vec<TextEdit> {
    let mut edits = Vec::new();
    let mut edit = |start: usize, end: usize, new_text: String| {
        if doc.text.get(start..end) != Some(new_text.as_str()) {
            edits.push(TextEdit {
                range: doc.lines.range(&doc.text, start..end, encoding),
                new_text,
            });
        }
    };
    // What comes before the first game (a byte-order mark, blank lines) is taken out.
    let first = doc.games.first().map_or(doc.text.len(), |g| g.start);
    if doc.games.is_empty() {
        return edits;
    }
    if doc.text[..first]
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .is_empty()
    {
        edit(0, first, String::new());
    }
    for (index, entry) in doc.games.iter().enumerate() {
        if let Some(text) = doc.game(index).and_then(|game| library::canonical(&game)) {
            edit(entry.start, entry.end(), text);
        }
        let next = doc.games.get(index + 1).map_or(doc.text.len(), |g| g.start);
        let gap = doc.text.get(entry.end()..next).unwrap_or_default();
        // Only blank space between games is made one blank line; anything else stays.
        if gap.trim().is_empty() {
            let separator = if index + 1 == doc.games.len() {
                "\n"
            } else {
                "\n\n"
            };
            edit(entry.end(), next, separator.to_string());
        }
    }
    edits
}
