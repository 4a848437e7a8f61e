//! The server's state and what it does with each message: the open documents, the answers to
//! requests, and the diagnostics due. It knows nothing of channels or clocks beyond the instants
//! it is handed, so that tests and the fuzz target drive it directly.

use super::document::Document;
use super::features::{self, Failure};
use super::library::CheckOptions;
use super::text::Encoding;
use super::{Options, diagnostics};
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::Uri;
use serde_json::Value;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// An open document with what the server still owes the client about it.
struct Open {
    doc: Document,
    /// Changed since its diagnostics were last published.
    dirty: bool,
    /// Readings were searched since its diagnostics were last published.
    unpublished_readings: bool,
    /// When it last changed.
    changed_at: Instant,
    /// When its diagnostics were last published.
    published_at: Instant,
}

/// Whether the server goes on after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// The client said `exit`.
    Exit,
}

/// A language server's state, fed one message at a time ([`Session::handle`]); what it sends
/// back waits in [`Session::take_messages`].
pub struct Session {
    pub(super) encoding: Encoding,
    pub(super) options: Options,
    pub(super) check: CheckOptions,
    docs: HashMap<Uri, Open>,
    shut_down: bool,
    out: Vec<Message>,
}

impl Session {
    /// A session for a client that sent these `initialize` parameters (taken as they are: what
    /// does not read is left at its default), and the result to answer it with.
    pub fn new(params: &Value) -> (Session, Value) {
        let offered = |pointer: &str| -> Vec<String> {
            params
                .pointer(pointer)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let standard = offered("/capabilities/general/positionEncodings");
        let clangd = offered("/capabilities/offsetEncoding");
        let encoding = Encoding::negotiate(if standard.is_empty() {
            &clangd
        } else {
            &standard
        });
        let options = Options::from_json(params.get("initializationOptions"));
        let mut result = serde_json::json!({
            "capabilities": features::capabilities(encoding),
            "serverInfo": {"name": "salta", "version": env!("CARGO_PKG_VERSION")},
        });
        if standard.is_empty() && !clangd.is_empty() {
            result["offsetEncoding"] = Value::from(encoding.name());
        }
        let session = Session {
            encoding,
            check: options.check_options(),
            options,
            docs: HashMap::new(),
            shut_down: false,
            out: Vec::new(),
        };
        (session, result)
    }

    /// The messages to send, in order.
    pub fn take_messages(&mut self) -> Vec<Message> {
        std::mem::take(&mut self.out)
    }

    /// Handles one message from the client at `now`.
    pub fn handle(&mut self, message: Message, now: Instant) -> Flow {
        match message {
            Message::Request(request) => {
                let id = request.id.clone();
                let response = match self.answer(request, now) {
                    Ok(result) => Response::new_ok(id, result),
                    Err((code, message)) => Response::new_err(id, code as i32, message),
                };
                self.out.push(response.into());
                Flow::Continue
            }
            Message::Notification(notification) => self.notice(notification, now),
            // Answers to requests of ours: the server sends none that wait for one.
            Message::Response(_) => Flow::Continue,
        }
    }

    /// The answer to a request.
    fn answer(&mut self, request: Request, now: Instant) -> Result<Value, Failure> {
        if request.method == "shutdown" {
            self.shut_down = true;
            return Ok(Value::Null);
        }
        if self.shut_down {
            return Err((
                ErrorCode::InvalidRequest,
                "the server is shutting down".into(),
            ));
        }
        if !features::knows(&request.method) {
            return Err((
                ErrorCode::MethodNotFound,
                format!("{} is not supported", request.method),
            ));
        }
        let uri = request
            .params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .and_then(|u| u.parse::<Uri>().ok());
        let Some(uri) = uri else {
            return Err((ErrorCode::InvalidParams, "no textDocument.uri".into()));
        };
        let Some(open) = self.docs.get_mut(&uri) else {
            return Err((
                ErrorCode::InvalidParams,
                format!("{} is not open", uri.as_str()),
            ));
        };
        // Answers speak of the text as it is now.
        if open.dirty {
            open.doc.check(&self.check);
        }
        let outcome = features::answer(
            &request.method,
            request.params,
            &mut open.doc,
            self.encoding,
            &self.options,
            &self.check,
        );
        if outcome.searched_readings {
            open.unpublished_readings = true;
        }
        if open.dirty || open.unpublished_readings {
            self.publish(&uri, now);
        }
        outcome.result
    }

    /// Takes in a notification.
    fn notice(&mut self, mut notification: Notification, now: Instant) -> Flow {
        // An opened document's text is taken out of the message, not copied (it may be large).
        let opened_text = match notification
            .params
            .pointer_mut("/textDocument/text")
            .map(Value::take)
        {
            Some(Value::String(text)) => Some(text),
            _ => None,
        };
        let changes = match notification
            .params
            .get_mut("contentChanges")
            .map(Value::take)
        {
            Some(Value::Array(changes)) => changes,
            _ => Vec::new(),
        };
        let params = &notification.params;
        let uri = || {
            params
                .pointer("/textDocument/uri")
                .and_then(Value::as_str)
                .and_then(|u| u.parse::<Uri>().ok())
        };
        let version = params
            .pointer("/textDocument/version")
            .and_then(Value::as_i64)
            .map(|v| v.clamp(i32::MIN.into(), i32::MAX.into()) as i32);
        match notification.method.as_str() {
            "exit" => return Flow::Exit,
            "textDocument/didOpen" => {
                if let (Some(uri), Some(text)) = (uri(), opened_text) {
                    let doc = Document::open(text, version.unwrap_or(0));
                    self.docs.insert(
                        uri,
                        Open {
                            doc,
                            dirty: true,
                            unpublished_readings: false,
                            changed_at: now,
                            published_at: now,
                        },
                    );
                }
            }
            "textDocument/didChange" => {
                let Some(uri) = uri() else {
                    return Flow::Continue;
                };
                let Some(open) = self.docs.get_mut(&uri) else {
                    self.log(format!("a change to {} which is not open", uri.as_str()));
                    return Flow::Continue;
                };
                for change in changes {
                    let Some(text) = change.get("text").and_then(Value::as_str) else {
                        continue;
                    };
                    let range = change
                        .get("range")
                        .and_then(|r| serde_json::from_value::<lsp_types::Range>(r.clone()).ok());
                    open.doc.edit(range, text, self.encoding);
                }
                let stale = version.filter(|&v| v <= open.doc.version);
                if let Some(v) = version {
                    open.doc.version = v;
                }
                open.dirty = true;
                open.changed_at = now;
                if let Some(v) = stale {
                    self.log(format!(
                        "{}: version {v} came after a later one; the changes were applied in \
                         the order received",
                        uri.as_str()
                    ));
                }
            }
            "textDocument/didClose" => {
                if let Some(uri) = uri().filter(|uri| self.docs.remove(uri).is_some()) {
                    self.send_diagnostics(&uri, Vec::new(), None);
                }
            }
            _ => {}
        }
        Flow::Continue
    }

    /// When the session next has work to do (`None`: only when a message comes).
    pub fn next_due(&self) -> Option<Instant> {
        self.docs
            .values()
            .filter_map(|open| {
                if open.dirty {
                    Some(open.changed_at + self.options.debounce)
                } else if open.unpublished_readings || open.doc.readings_due().is_some() {
                    Some(open.changed_at + self.options.readings_delay)
                } else {
                    None
                }
            })
            .min()
    }

    /// Does one piece of the work due at `now`: checks and publishes a changed document, or
    /// searches the readings of one broken game (publishing them when its document has none
    /// left, or every quarter second). Call while no message is waiting; false when nothing
    /// was due.
    pub fn work(&mut self, now: Instant) -> bool {
        let due = self
            .docs
            .iter()
            .filter(|(_, o)| o.dirty && o.changed_at + self.options.debounce <= now)
            .map(|(uri, _)| uri.clone())
            .next();
        if let Some(uri) = due {
            if let Some(open) = self.docs.get_mut(&uri) {
                open.doc.check(&self.check);
            }
            self.publish(&uri, now);
            return true;
        }
        let reading = self
            .docs
            .iter()
            .filter(|(_, o)| !o.dirty && o.changed_at + self.options.readings_delay <= now)
            .find_map(|(uri, o)| {
                if let Some(index) = o.doc.readings_due() {
                    Some((uri.clone(), Some(index)))
                } else {
                    o.unpublished_readings.then(|| (uri.clone(), None))
                }
            });
        let Some((uri, index)) = reading else {
            return false;
        };
        let Some(open) = self.docs.get_mut(&uri) else {
            return false;
        };
        if let Some(index) = index {
            open.doc.search_readings(index, &self.check);
            open.unpublished_readings = true;
        }
        let finished = open.doc.readings_due().is_none();
        if finished || now.duration_since(open.published_at) >= Duration::from_millis(250) {
            self.publish(&uri, now);
        }
        true
    }

    /// Does all the work due, however long it takes (for tests and the fuzz target).
    pub fn settle(&mut self, now: Instant) {
        while self.work(now + self.options.readings_delay) {}
    }

    /// Publishes a document's diagnostics.
    fn publish(&mut self, uri: &Uri, now: Instant) {
        let Some(open) = self.docs.get_mut(uri) else {
            return;
        };
        let diagnostics = diagnostics::of_document(&open.doc, uri, self.encoding);
        open.dirty = false;
        open.unpublished_readings = false;
        open.published_at = now;
        let version = Some(open.doc.version);
        self.send_diagnostics(uri, diagnostics, version);
    }

    fn send_diagnostics(
        &mut self,
        uri: &Uri,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) {
        let params = lsp_types::PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics,
            version,
        };
        self.out
            .push(Notification::new("textDocument/publishDiagnostics".to_string(), params).into());
    }

    /// Whether every open document's games are those a fresh reading of its text finds: what
    /// re-reading only the games an edit touched must keep true (the fuzz target asks).
    #[doc(hidden)]
    pub fn games_agree_with_a_fresh_reading(&self) -> bool {
        self.docs
            .values()
            .all(|open| open.doc.agrees_with_a_fresh_reading())
    }

    /// A line in the client's log.
    fn log(&mut self, message: String) {
        let params = lsp_types::LogMessageParams {
            typ: lsp_types::MessageType::WARNING,
            message,
        };
        self.out
            .push(Notification::new("window/logMessage".to_string(), params).into());
    }
}
