//! Diagnostics for people: a reader's syntax error or a replay finding drawn as a miette report
//! over its game's text ([`render`]), without the archive machinery around it.

mod render;

pub use render::{FindingDiagnostic, game_source, render};
