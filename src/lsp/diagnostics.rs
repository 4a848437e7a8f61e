//! What the reader and the replayer found, as the protocol's diagnostics: the code, the severity,
//! the span, the message with its help below it, and the place that explains it.

use super::document::{Document, Entry};
use super::library::Found;
use super::text::Encoding;
use crate::diagnostic::Severity;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};

/// Diagnostics published for one document at most: past them one more says how many are left
/// out (`salta check` lists them all).
pub(super) const MAX_DIAGNOSTICS: usize = 5000;

/// Every diagnostic of a document, in the order of its games.
pub(super) fn of_document(doc: &Document, uri: &Uri, encoding: Encoding) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut left_out = 0usize;
    for entry in &doc.games {
        let Some(checked) = &entry.checked else {
            continue;
        };
        for found in &checked.findings {
            if out.len() >= MAX_DIAGNOSTICS {
                left_out += 1;
                continue;
            }
            out.push(diagnostic(doc, entry, found, uri, encoding));
        }
    }
    if left_out > 0 {
        let end = doc.lines.position(&doc.text, doc.text.len(), encoding);
        out.push(Diagnostic {
            range: lsp_types::Range::new(end, end),
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("salta".to_string()),
            message: format!(
                "{left_out} more findings are not shown here: `salta check` on the saved file \
                 lists them all"
            ),
            ..Diagnostic::default()
        });
    }
    out
}

/// One finding of a game as a diagnostic.
pub(super) fn diagnostic(
    doc: &Document,
    entry: &Entry,
    found: &Found,
    uri: &Uri,
    encoding: Encoding,
) -> Diagnostic {
    let place = |span: crate::notation::Span| {
        let start = entry.start + span.start as usize;
        let end = entry.start + (span.end as usize).max(span.start as usize);
        doc.lines.range(
            &doc.text,
            start.min(entry.end())..end.min(entry.end()),
            encoding,
        )
    };
    // A finding about the whole game points at its first line.
    let range = match found.span {
        Some(span) => place(span),
        None => {
            let line_end = doc
                .text
                .get(entry.range())
                .and_then(|t| t.find('\n'))
                .map_or(entry.end(), |i| entry.start + i);
            doc.lines.range(&doc.text, entry.start..line_end, encoding)
        }
    };
    let mut message = found.message.clone();
    if !found.help.is_empty() {
        message.push_str("\nhelp: ");
        message.push_str(&found.help);
    }
    let related = found.related.as_ref().map(|(span, label)| {
        vec![DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), place(*span)),
            message: label.clone(),
        }]
    });
    Diagnostic {
        range,
        severity: Some(match found.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(found.code.as_str().to_string())),
        source: Some("salta".to_string()),
        message,
        related_information: related,
        ..Diagnostic::default()
    }
}
