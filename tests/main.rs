//! The integration tests, one binary: each module below was once its own test crate, and linking
//! the whole library thirteen times cost a fresh clone most of its `cargo test` time.

mod as_read;
mod cli;
mod common;
mod diagram;
mod documents;
mod edge_cases;
mod engine;
mod exporters;
mod extract;
mod fuzz_found;
mod grammar;
mod hostile;
mod house;
mod inputs;
mod io;
mod lsp;
mod lsp_editor;
mod margin;
mod notation_diagnostics;
mod notation_reader;
mod notation_writer;
mod perft;
mod printed;
mod repair;
mod special;
mod viewer;
