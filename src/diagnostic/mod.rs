//! Diagnostics: the one [`Code`] type of the reader's and the replayer's findings (name, severity,
//! meaning, label), and how a message quotes what was written ([`quote`]). It stands below every
//! other room, so that all of them can name a code; the drawing of a finding or syntax error for
//! people is the `render` room's (feature `render`).

mod code;
mod quote;

pub use code::{Code, Severity, UnknownCode};
pub use quote::quote;
