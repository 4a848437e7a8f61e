//! Code actions: each reading `salta check` offers for a break ("did you mean 35-44 (digits
//! swapped)?") as a quick fix, the best one preferred; "repair this game" as `salta repair`
//! would; and adding `[Numbering "red"]`.

use super::diagnostics;
use super::document::Document;
use super::library::CheckOptions;
use super::text::Encoding;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;

/// The actions for the games a range touches (their readings searched first if they were not),
/// and whether any readings were searched.
pub(super) fn actions(
    doc: &mut Document,
    uri: &Uri,
    range: Range,
    encoding: Encoding,
    opts: &CheckOptions,
) -> (Vec<CodeActionOrCommand>, bool) {
    let bytes = doc.lines.bytes(&doc.text, range, encoding);
    let (Some(first), Some(last)) = (doc.game_at(bytes.start), doc.game_at(bytes.end)) else {
        return (Vec::new(), false);
    };
    let mut searched = false;
    let mut out = Vec::new();
    for index in first..=last {
        searched |= doc.search_readings(index, opts);
        let repaired = doc.repaired(index, opts);
        out.extend(game_actions(doc, index, uri, &bytes, encoding, repaired));
    }
    (out, searched)
}

/// The actions for one game, `repaired` as `salta repair` writes it.
fn game_actions(
    doc: &Document,
    index: usize,
    uri: &Uri,
    bytes: &std::ops::Range<usize>,
    encoding: Encoding,
    repaired: Option<(String, Vec<String>)>,
) -> Vec<CodeActionOrCommand> {
    let entry = &doc.games[index];
    let Some(checked) = &entry.checked else {
        return Vec::new();
    };
    // A game a syntax error broke is mended before the error, where its moves were read.
    let Some(game) = doc.game_or_part(index) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let edit = |edits: Vec<(std::ops::Range<usize>, String)>| {
        let edits = edits
            .into_iter()
            .map(|(range, text)| TextEdit {
                range: doc.lines.range(
                    &doc.text,
                    entry.start + range.start..entry.start + range.end,
                    encoding,
                ),
                new_text: text,
            })
            .collect();
        WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }
    };
    // The readings of the breaks whose diagnostic the range touches.
    for found in &checked.findings {
        if found.suggestions.is_empty() {
            continue;
        }
        let touched = found.span.is_none_or(|s| {
            let span = entry.start + s.start as usize..entry.start + s.end as usize;
            span.start <= bytes.end && bytes.start <= span.end
        });
        if !touched {
            continue;
        }
        let diagnostic = diagnostics::diagnostic(doc, entry, found, uri, encoding);
        for (rank, s) in found.suggestions.iter().enumerate() {
            let edits = s.text_edits(&game);
            if edits.is_empty() {
                continue;
            }
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Read as {}: {}", s.reading(), s.consequence()),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic.clone()]),
                edit: Some(edit(edits)),
                is_preferred: Some(rank == 0),
                ..CodeAction::default()
            }));
        }
    }
    // Repaired whole, as `salta repair` writes it.
    if let Some((text, readings)) = repaired {
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!(
                "Repair this game as `salta repair` would ({})",
                named_readings(&readings)
            ),
            kind: Some(CodeActionKind::QUICKFIX),
            edit: Some(edit(vec![(0..entry.len, text)])),
            is_preferred: Some(false),
            ..CodeAction::default()
        }));
    }
    if game.tag("Numbering").is_none() {
        let tag = "[Numbering \"red\"]";
        let (range, text) = game.tag_line_edit(tag);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Add {tag}: the source numbered the squares from Red's side"),
            kind: Some(CodeActionKind::REFACTOR_REWRITE),
            edit: Some(edit(vec![(range, text)])),
            ..CodeAction::default()
        }));
    }
    out
}

/// Readings named in a title at most: a page read whole may have a hundred, and a menu entry is
/// one line.
const TITLE_READINGS: usize = 3;

/// The readings a repair made, as a title names them: the first few, and how many more.
fn named_readings(readings: &[String]) -> String {
    let named = readings[..readings.len().min(TITLE_READINGS)].join("; ");
    match readings.len().saturating_sub(TITLE_READINGS) {
        0 => named,
        more => format!("{named}; and {more} more"),
    }
}
