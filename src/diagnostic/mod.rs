//! Diagnostics: the one [`Code`] type of the reader's and the replayer's findings (name, severity,
//! meaning, label), and a syntax error or replay finding drawn for people as a miette report over
//! its game's text ([`render`]), without the archive machinery around it.

mod code;
mod render;

pub use code::{Code, Severity, UnknownCode};
pub use render::{FindingDiagnostic, game_source, render};
