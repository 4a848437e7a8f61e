//! What the server offers (its capabilities) and which part answers each request.

use super::Options;
use super::document::Document;
use super::library::CheckOptions;
use super::text::Encoding;
use super::{actions, completion, format, hover, navigate, outline};
use lsp_server::ErrorCode;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionItem,
    CompletionItemKind, CompletionOptions, CompletionTextEdit, Hover, HoverContents,
    HoverProviderCapability, InlayHint, InlayHintLabel, Location, MarkupContent, MarkupKind, OneOf,
    PositionEncodingKind, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextEdit, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A failed request: its error code and message.
pub(super) type Failure = (ErrorCode, String);

/// The capabilities announced to the client.
pub(super) fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::new(encoding.name())),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            ..CodeActionOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".into(), ".".into(), "(".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        definition_provider: Some(OneOf::Left(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// The requests about a document that the server answers.
const METHODS: &[&str] = &[
    "textDocument/codeAction",
    "textDocument/hover",
    "textDocument/completion",
    "textDocument/documentSymbol",
    "textDocument/foldingRange",
    "textDocument/formatting",
    "textDocument/definition",
    "textDocument/inlayHint",
];

/// Whether the server answers requests of this method.
pub(super) fn knows(method: &str) -> bool {
    METHODS.contains(&method)
}

/// What answering a request did.
pub(super) struct Outcome {
    pub result: Result<Value, Failure>,
    /// Readings were searched to answer it: the document's diagnostics are to be published again.
    pub searched_readings: bool,
}

/// Answers a request about an open document.
pub(super) fn answer(
    method: &str,
    params: Value,
    doc: &mut Document,
    encoding: Encoding,
    options: &Options,
    check: &CheckOptions,
) -> Outcome {
    let mut searched_readings = false;
    let result = respond(
        method,
        params,
        doc,
        encoding,
        options,
        check,
        &mut searched_readings,
    );
    Outcome {
        result,
        searched_readings,
    }
}

fn respond(
    method: &str,
    params: Value,
    doc: &mut Document,
    encoding: Encoding,
    options: &Options,
    check: &CheckOptions,
    searched: &mut bool,
) -> Result<Value, Failure> {
    match method {
        "textDocument/codeAction" => {
            let p: lsp_types::CodeActionParams = read(params)?;
            let (found, any) =
                actions::actions(doc, &p.text_document.uri, p.range, encoding, check);
            *searched = any;
            json(found)
        }
        "textDocument/hover" => {
            let p: lsp_types::HoverParams = read(params)?;
            let Some((index, at)) = place(doc, p.text_document_position_params.position, encoding)
            else {
                return Ok(Value::Null);
            };
            let text = doc.game_text(index);
            let found = hover::hover(text, at, check).map(|markdown| Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: markdown,
                }),
                range: None,
            });
            json(found)
        }
        "textDocument/completion" => {
            let p: lsp_types::CompletionParams = read(params)?;
            let position = p.text_document_position.position;
            let cursor = doc.lines.offset(&doc.text, position, encoding);
            let Some(index) = doc.game_at(cursor).or(doc.games.is_empty().then_some(0)) else {
                return json(Vec::<CompletionItem>::new());
            };
            let start = doc.games.get(index).map_or(0, |g| g.start);
            let text = &doc.text[start..cursor.max(start)];
            let (word, offers) = completion::offers(text, text.len(), check);
            let range = doc
                .lines
                .range(&doc.text, start + word.start..start + word.end, encoding);
            let items: Vec<CompletionItem> = offers
                .into_iter()
                .map(|offer| CompletionItem {
                    label: offer.text.clone(),
                    kind: Some(if offer.is_move {
                        CompletionItemKind::VALUE
                    } else {
                        CompletionItemKind::KEYWORD
                    }),
                    detail: Some(offer.detail),
                    sort_text: Some(offer.sort),
                    filter_text: Some(offer.text.clone()),
                    preselect: offer.preferred.then_some(true),
                    text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                        range,
                        new_text: offer.text,
                    })),
                    ..CompletionItem::default()
                })
                .collect();
            json(items)
        }
        "textDocument/documentSymbol" => {
            let _: lsp_types::DocumentSymbolParams = read(params)?;
            json(outline::symbols(doc, encoding))
        }
        "textDocument/foldingRange" => {
            let _: lsp_types::FoldingRangeParams = read(params)?;
            json(outline::folding(doc))
        }
        "textDocument/formatting" => {
            let _: lsp_types::DocumentFormattingParams = read(params)?;
            json(format::format(doc, encoding))
        }
        "textDocument/definition" => {
            let p: lsp_types::GotoDefinitionParams = read(params)?;
            let uri: Uri = p.text_document_position_params.text_document.uri;
            let position = p.text_document_position_params.position;
            let Some((index, at)) = place(doc, position, encoding) else {
                return Ok(Value::Null);
            };
            let start = doc.games[index].start;
            let found = navigate::last_move_of_piece(doc.game_text(index), at, check).map(|r| {
                Location::new(
                    uri,
                    doc.lines
                        .range(&doc.text, start + r.start..start + r.end, encoding),
                )
            });
            json(found)
        }
        "textDocument/inlayHint" => {
            let p: lsp_types::InlayHintParams = read(params)?;
            if !options.inlay_hints {
                return json(Vec::<InlayHint>::new());
            }
            let bytes = doc.lines.bytes(&doc.text, p.range, encoding);
            let mut hints = Vec::new();
            let (Some(first), Some(last)) = (doc.game_at(bytes.start), doc.game_at(bytes.end))
            else {
                return json(hints);
            };
            for index in first..=last {
                let start = doc.games[index].start;
                for hint in navigate::hints(doc.game_text(index), check) {
                    let at = start + hint.at;
                    if !(bytes.start..=bytes.end).contains(&at) {
                        continue;
                    }
                    hints.push(InlayHint {
                        position: doc.lines.position(&doc.text, at, encoding),
                        label: InlayHintLabel::String(hint.label),
                        kind: None,
                        text_edits: None,
                        tooltip: None,
                        padding_left: Some(true),
                        padding_right: None,
                        data: None,
                    });
                }
            }
            json(hints)
        }
        _ => Err((
            ErrorCode::MethodNotFound,
            format!("{method} is not supported"),
        )),
    }
}

/// The game at a protocol position and the byte of its text there.
fn place(
    doc: &Document,
    position: lsp_types::Position,
    encoding: Encoding,
) -> Option<(usize, usize)> {
    let at = doc.lines.offset(&doc.text, position, encoding);
    let index = doc.game_at(at)?;
    let entry = &doc.games[index];
    (at <= entry.end()).then(|| (index, at - entry.start))
}

/// A request's parameters, or the error that says they do not read.
fn read<T: DeserializeOwned>(params: Value) -> Result<T, Failure> {
    serde_json::from_value(params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

/// An answer as JSON.
fn json(value: impl serde::Serialize) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}
