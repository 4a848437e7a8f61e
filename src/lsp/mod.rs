//! `salta lsp`: a language server for SGN records (`*.sgn`) over the Language Server Protocol,
//! so that any editor that speaks it checks and mends records as they are typed.
//!
//! It publishes the reader's and the replayer's findings as diagnostics after each change,
//! re-reading only the games an edit touched. The costly part of a check, the readings of a
//! broken record ("did you mean 35-44 (digits swapped)?") and the exact count of a tagged
//! margin, waits until the typing pauses.
//!
//! [`serve`] runs the server over a connection (`lsp_server::Connection::stdio()` for an
//! editor, `Connection::memory()` in tests); [`Session`] is its state, fed one message at a time,
//! for driving it without threads or clocks (the fuzz target).

mod actions;
mod completion;
mod diagnostics;
mod document;
mod features;
mod format;
mod hover;
mod library;
mod navigate;
mod outline;
mod session;
mod text;

pub use lsp_server;
pub use lsp_types;
pub use session::{Flow, Session};
pub use text::Encoding;

use lsp_server::{Connection, Message};
use serde_json::Value;
use std::time::{Duration, Instant};

/// What a client may set in `initializationOptions`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// How long after a change the diagnostics wait for more changes (`debounceMs`; default 0:
    /// a burst of changes already queued is taken in before checking, and no more waiting).
    pub debounce: Duration,
    /// How long the typing must pause before the costly part of a check is done: the readings
    /// of a broken record, the count of a tagged margin (`readingsDelayMs`, default 300).
    pub readings_delay: Duration,
    /// Historical mode (`lenient`): an uncalled missed jump is a warning and the move stands.
    pub lenient: bool,
    /// Ply numbers and remaining counts as inlay hints (`inlayHints`, default off).
    pub inlay_hints: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            debounce: Duration::ZERO,
            readings_delay: Duration::from_millis(300),
            lenient: false,
            inlay_hints: false,
        }
    }
}

impl Options {
    /// The options a client's `initializationOptions` set (what is missing or does not read
    /// keeps its default).
    pub fn from_json(value: Option<&Value>) -> Options {
        let mut options = Options::default();
        let Some(value) = value else {
            return options;
        };
        let millis = |name: &str| {
            value
                .get(name)
                .and_then(Value::as_u64)
                .map(|ms| Duration::from_millis(ms.min(60_000)))
        };
        let flag = |name: &str| value.get(name).and_then(Value::as_bool);
        if let Some(d) = millis("debounceMs") {
            options.debounce = d;
        }
        if let Some(d) = millis("readingsDelayMs") {
            options.readings_delay = d;
        }
        if let Some(b) = flag("lenient") {
            options.lenient = b;
        }
        if let Some(b) = flag("inlayHints") {
            options.inlay_hints = b;
        }
        options
    }

    /// How games are checked under these options.
    fn check_options(&self) -> library::CheckOptions {
        library::CheckOptions {
            replay: crate::replay::ReplayOptions::default().lenient(self.lenient),
        }
    }
}

/// Why the server stopped before the client said `exit`.
#[derive(Debug, thiserror::Error)]
#[error("the language server stopped: {0}")]
pub struct ServeError(String);

/// Serves one client over `connection` until it says `exit` (or goes away): the handshake, then
/// each message in turn, the diagnostics due between them.
pub fn serve(connection: &Connection) -> Result<(), ServeError> {
    let (id, params) = connection
        .initialize_start()
        .map_err(|e| ServeError(e.to_string()))?;
    let (mut session, result) = Session::new(&params);
    connection
        .initialize_finish(id, result)
        .map_err(|e| ServeError(e.to_string()))?;
    loop {
        let message = match session.next_due() {
            None => match connection.receiver.recv() {
                Ok(message) => Some(message),
                Err(_) => return Ok(()),
            },
            Some(due) => match connection.receiver.recv_deadline(due.max(Instant::now())) {
                Ok(message) => Some(message),
                Err(crossbeam_timeout) if crossbeam_timeout.is_timeout() => None,
                Err(_) => return Ok(()),
            },
        };
        let flow = match message {
            Some(message) => session.handle(message, Instant::now()),
            None => Flow::Continue,
        };
        // The work due is done only while no message waits: an answer never waits for it.
        if flow == Flow::Continue && connection.receiver.is_empty() {
            session.work(Instant::now());
        }
        for message in session.take_messages() {
            if connection.sender.send(message).is_err() {
                return Ok(());
            }
        }
        if flow == Flow::Exit {
            return Ok(());
        }
    }
}

/// Serves an editor over standard input and output.
pub fn serve_stdio() -> Result<(), ServeError> {
    let (connection, threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    threads.join().map_err(|e| ServeError(e.to_string()))
}

/// A message as the protocol frames it, for tests that speak to the server as a client would.
pub fn frame(message: &Message) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing to memory does not fail.
    let _ = message.write(&mut out);
    out
}
