//! Feeds the language server a document and a sequence of edits and requests, as a careless or
//! broken client might send them (positions anywhere, ranges inverted, versions out of order):
//! nothing may panic, every request gets an answer, and after every edit the games the server
//! keeps must be the games a fresh reading of its text finds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salta::lsp::Session;
use salta::lsp::lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::time::Instant;

const URI: &str = "file:///fuzz.sgn";

fuzz_target!(|data: &[u8]| {
    let mut parts = data.split(|&b| b == 0xff);
    let head = parts.next().unwrap_or_default();
    // The first byte picks the client's encoding; the rest is the document.
    let encodings: &[&str] = match head.first() {
        Some(b) if b % 2 == 0 => &["utf-8"],
        _ => &[],
    };
    let text = String::from_utf8_lossy(head.get(1..).unwrap_or_default()).into_owned();
    let now = Instant::now();
    let init = json!({"capabilities": {"general": {"positionEncodings": encodings}},
                      "initializationOptions": {"readingsDelayMs": 0, "inlayHints": true}});
    let (mut session, _) = Session::new(&init);
    session.handle(
        notification(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "sgn", "version": 1, "text": text}}),
        ),
        now,
    );
    let mut id = 0;
    for (n, part) in parts.take(64).enumerate() {
        let [op, a, b, c, d, rest @ ..] = part else {
            continue;
        };
        let (line, character) = (u32::from(*a % 16), u32::from(*b) * 3 % 200);
        let (end_line, end_character) = (u32::from(*c % 16), u32::from(*d) * 3 % 200);
        let position = json!({"line": line, "character": character});
        let range =
            json!({"start": position, "end": {"line": end_line, "character": end_character}});
        let doc = json!({"uri": URI});
        let message = match op % 10 {
            0..=3 => notification(
                "textDocument/didChange",
                json!({
                "textDocument": {"uri": URI, "version": (n as i64) * i64::from(*op % 3) - 1},
                "contentChanges": [{"range": range, "text": String::from_utf8_lossy(rest)}]}),
            ),
            4 => request(
                &mut id,
                "textDocument/hover",
                json!({"textDocument": doc, "position": position}),
            ),
            5 => request(
                &mut id,
                "textDocument/completion",
                json!({"textDocument": doc, "position": position}),
            ),
            6 => request(
                &mut id,
                "textDocument/codeAction",
                json!({"textDocument": doc, "range": range,
                                                                   "context": {"diagnostics": []}}),
            ),
            7 => request(
                &mut id,
                "textDocument/definition",
                json!({"textDocument": doc, "position": position}),
            ),
            8 => request(
                &mut id,
                "textDocument/inlayHint",
                json!({"textDocument": doc, "range": range}),
            ),
            _ => {
                let method = [
                    "textDocument/documentSymbol",
                    "textDocument/foldingRange",
                    "textDocument/formatting",
                ][usize::from(*a) % 3];
                request(
                    &mut id,
                    method,
                    json!({"textDocument": doc, "options": {"tabSize": 4, "insertSpaces": true}}),
                )
            }
        };
        let asked = matches!(message, Message::Request(_));
        session.handle(message, now);
        if asked {
            let answered = session
                .take_messages()
                .iter()
                .any(|m| matches!(m, Message::Response(r) if r.id == RequestId::from(id)));
            assert!(answered, "request {id} was not answered");
        }
        assert!(
            session.games_agree_with_a_fresh_reading(),
            "after message {n}"
        );
        if op % 7 == 0 {
            session.settle(now);
        }
    }
    session.settle(now);
    let _ = session.take_messages();
});

fn notification(method: &str, params: Value) -> Message {
    Notification::new(method.to_string(), params).into()
}

fn request(id: &mut i32, method: &str, params: Value) -> Message {
    *id += 1;
    Request::new(RequestId::from(*id), method.to_string(), params).into()
}
