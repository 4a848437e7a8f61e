//! The document's outline: each game with its players, date and result, and its variations
//! (document symbols); folding by game and by variation.

use super::document::{Document, Entry};
use super::text::Encoding;
use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};

/// Each game as a symbol, its variations inside it.
pub(super) fn symbols(doc: &Document, encoding: Encoding) -> Vec<DocumentSymbol> {
    doc.games
        .iter()
        .enumerate()
        .map(|(index, entry)| game_symbol(doc, index, entry, encoding))
        .collect()
}

#[allow(deprecated)] // `deprecated` is a field every symbol must still carry.
fn game_symbol(doc: &Document, index: usize, entry: &Entry, encoding: Encoding) -> DocumentSymbol {
    let range = doc.lines.range(&doc.text, entry.range(), encoding);
    let first_line_end = doc
        .text
        .get(entry.range())
        .and_then(|t| t.find('\n'))
        .map_or(entry.end(), |i| entry.start + i);
    let selection = doc
        .lines
        .range(&doc.text, entry.start..first_line_end, encoding);
    let outline = entry.checked.as_ref().map(|c| &c.outline);
    let name = match outline.and_then(|o| o.players.clone()) {
        Some(players) => format!("{}. {players}", index + 1),
        None => format!("game {}", index + 1),
    };
    let children: Vec<DocumentSymbol> = outline
        .map(|o| {
            o.variations
                .iter()
                .map(|(bytes, depth, first)| {
                    let range = doc.lines.range(
                        &doc.text,
                        entry.start + bytes.start..entry.start + bytes.end,
                        encoding,
                    );
                    DocumentSymbol {
                        name: first.clone(),
                        detail: Some(format!("variation, depth {depth}")),
                        kind: SymbolKind::NAMESPACE,
                        tags: None,
                        deprecated: None,
                        range,
                        selection_range: range,
                        children: None,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    DocumentSymbol {
        name,
        detail: outline.map(|o| o.detail.clone()).filter(|d| !d.is_empty()),
        kind: if outline.is_some_and(|o| o.unreadable) {
            SymbolKind::NULL
        } else {
            SymbolKind::MODULE
        },
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: (!children.is_empty()).then_some(children),
    }
}

/// A fold for each game of more than one line, and each variation over several lines.
pub(super) fn folding(doc: &Document) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut fold = |start: usize, end: usize, kind: Option<FoldingRangeKind>| {
        let (first, last) = (doc.lines.line_of(start), doc.lines.line_of(end));
        if last > first {
            out.push(FoldingRange {
                start_line: first as u32,
                end_line: last as u32,
                kind,
                ..FoldingRange::default()
            });
        }
    };
    for entry in &doc.games {
        fold(
            entry.start,
            entry.end().saturating_sub(1),
            Some(FoldingRangeKind::Region),
        );
        if let Some(checked) = &entry.checked {
            for (bytes, _, _) in &checked.outline.variations {
                fold(
                    entry.start + bytes.start,
                    entry.start + bytes.end.saturating_sub(1),
                    None,
                );
            }
        }
    }
    out
}
