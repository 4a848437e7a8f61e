//! Diagnostics: the one [`Code`] type of the reader's and the replayer's findings (name, severity,
//! meaning, label). It stands below every other room, so that all of them can name a code; the
//! drawing of a finding or syntax error for people is the `render` room's (feature `render`).

mod code;

pub use code::{Code, Severity, UnknownCode};
