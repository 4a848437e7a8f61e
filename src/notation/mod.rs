//! SGN records: the syntax tree, the nom parser, the streaming reader and the canonical writer.
//!
//! ```
//! use salta::notation::{parse_str, write_game, WriteOptions};
//! let games = parse_str("[Event \"Club\"]\n\n1. 33-43 83-73 2. 32-42 *\n");
//! let game = games[0].as_ref().unwrap();
//! assert_eq!(game.mainline.moves.len(), 3);
//! assert!(write_game(game, &WriteOptions::default()).ends_with("1. 33-43 83-73 2. 32-42 *\n"));
//! ```

pub mod ast;
mod builder;
mod error;
mod garbled;
mod move_text;
mod newlines;
mod parser;
pub(crate) mod reader;
mod safe_text;
mod visitor;
mod writer;
mod written;

pub use ast::*;
pub use builder::{GameBuilder, TagError};
pub use error::{GameSource, MovePlace, SyntaxError};
pub(crate) use garbled::{number_fits, result_glyph, why_garbled};
pub use move_text::MoveText;
pub(crate) use move_text::as_named;
pub(crate) use newlines::count_newlines;
pub(crate) use parser::NumericMove;
pub use parser::{Limits, MAX_GAME_BYTES, MAX_VARIATION_DEPTH};
pub use reader::{Reader, input_name, is_stdin, open_input, parse_str, read_path};
pub use safe_text::printable;
pub(crate) use visitor::RunMove;
pub use visitor::{GameStart, Moves, Skip, Visitor};
pub use writer::{WriteOptions, write_game};
pub use written::{RawComment, RawTag, WrittenMove};
