//! SGN records: the syntax tree, the nom parser, the streaming reader and the canonical writer.

pub mod ast;

pub use ast::*;
