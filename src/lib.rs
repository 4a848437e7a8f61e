//! salta: game records of Salta (Büttgenbach, 1899) — board geometry, rules engine, SGN records,
//! replay validation, exporters and archive checks.
//!
//! The rooms, bottom up (each uses only those before it): [`board`] (squares, numbering,
//! bitboards), [`diagnostic`] (the code of every finding), [`rules`] (positions, legal moves,
//! outcomes, margins), [`notation`] (the SGN syntax tree, streaming reader and writer, which know
//! nothing of legality), [`replay`] (plays a record through the rules and reports findings),
//! [`generate`] (synthetic games), [`repair`] (what a broken transcription probably meant),
//! `render` (findings and syntax errors drawn for people; feature `render`), [`archive`] (whole
//! folders, checked by parallel workers), [`export`] (diagrams, structured games, adjudication,
//! the game viewer), [`extract`] (sorting archives), [`prelude`] (the names most programs
//! need) and, with the `lsp` feature, `lsp` (the
//! language server of `salta lsp`).
//!
//! # The common tasks
//!
//! ## Read a file
//!
//! [`notation::read_path`] opens a file as a [`notation::Reader`], an iterator over its games that
//! holds one game in memory at a time. Each item is a [`notation::Game`] (tags, moves, comments
//! and variations, each with its place in the text) or the [`notation::SyntaxError`] that broke one;
//! after an error the reader goes on with the next game. [`notation::parse_str`] reads text already
//! in memory. [`notation::Reader::read_game`] hands each game to a [`notation::Visitor`] instead
//! (pgn-reader's design: borrowed tags, moves and comments, skipping, early stop), which builds no
//! tree and copies no text.
//!
//! ```
//! use salta::notation::read_path;
//! use std::path::Path;
//!
//! let path = Path::new("corpus/historical/krone-grotewold-1901.sgn");
//! for game in read_path(path)? {
//!     let game = game?;
//!     let players = (game.tag("Green"), game.tag("Red"));
//!     assert_eq!(players, (Some("Krone"), Some("Grotewold")));
//!     assert_eq!(game.mainline.moves.len(), 214); // 107 moves of each side
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Replay a game and list its problems
//!
//! [`replay::replay`] plays every move of the main line and of every variation through the rules
//! and collects [`replay::Finding`]s (illegal moves, missed compulsory jumps, wrong results, …) with
//! a stable code, the ply, a message and often a help line, instead of stopping at the first.
//!
//! ```
//! use salta::diagnostic::Code;
//! use salta::notation::parse_str;
//! use salta::replay::{ReplayOptions, Status, replay};
//!
//! // Green's sun 1 on 44 must jump Red's star 1 on 55, but steps to 54 and nobody calls "Salta!".
//! let text = r#"[Setup "G/-,-,-,-,-,-,-,-,-,-,44,-,-,-,-/55,-,-,-,-,-,-,-,-,-,-,-,-,-,-"]
//!
//! 1. 44-54 55-45 *
//! "#;
//! let game = parse_str(text).remove(0)?;
//! let replayed = replay(&game, &ReplayOptions::default());
//! assert_eq!(replayed.status(), Status::Invalid);
//! let finding = &replayed.findings()[0];
//! assert_eq!((finding.code, finding.ply), (Code::MissedJump, Some(1)));
//! // What to do about it: the finding's own help for this move, or else its code's advice.
//! println!("{}", finding.help.as_deref().unwrap_or(finding.code.help()));
//! // Leniently (old transcriptions, played without calling) the same move is a warning and stands.
//! let lenient = ReplayOptions::default().lenient(true);
//! assert_eq!(replay(&game, &lenient).status(), Status::Warnings);
//! # Ok::<(), salta::notation::SyntaxError>(())
//! ```
//!
//! A whole archive need not be held as trees: [`replay::Replaying`] is a visitor that replays each
//! game as [`notation::Reader::read_game`] reads it (what `salta check` does), with the same
//! findings.
//!
//! ```
//! use salta::notation::read_path;
//! use salta::replay::{ReplayOptions, Replaying, Status};
//! use std::path::Path;
//!
//! let opts = ReplayOptions::default();
//! let mut replaying = Replaying::new(&opts);
//! let mut reader = read_path(Path::new("corpus/historical/krone-grotewold-1901.sgn"))?;
//! while let Some(game) = reader.read_game(&mut replaying) {
//!     let game = game?;
//!     assert_eq!((game.replay.plies(), game.replay.status()), (214, Status::Valid));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## The position after ply N
//!
//! A [`replay::Replay`] keeps the main line's moves; [`replay::Replay::positions`] walks them
//! with the position after each, and [`replay::Replay::position_at`] plays them from the start up
//! to a ply. A [`rules::Position`] knows its pieces, the side to move and its legal moves (which
//! [`rules::Position::play`] checks a move against), and writes itself as a Setup line.
//!
//! ```
//! use salta::board::Color;
//! use salta::notation::read_path;
//! use salta::replay::{ReplayOptions, replay};
//! use std::path::Path;
//!
//! let path = Path::new("corpus/historical/krone-grotewold-1901.sgn");
//! let game = read_path(path)?.next().expect("the file holds a game")?;
//! let replayed = replay(&game, &ReplayOptions::default());
//! let pos = replayed.position_at(14); // after 7. j4:h6 i5:g3
//! assert_eq!(pos.side_to_move(), Color::Green);
//! assert!(pos.legal_moves().iter().all(|m| m.is_jump())); // a jump is due
//! println!("{}", pos.to_setup());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Draw a diagram
//!
//! [`export::diagram`] draws any position as Unicode text, SVG, TikZ or (with the `png` feature)
//! PNG, with the options of a book diagram: coordinates, the last move, arrows, marks, palettes.
//!
//! ```
//! use salta::export::diagram::{self, Coordinates, DiagramOptions};
//! use salta::rules::{Position, Rules};
//!
//! let pos = Position::start(Rules::default());
//! let board = diagram::text(&pos, &DiagramOptions::default())?;
//! println!("{board}");
//! // Red's view, with file letters and rank numbers round the board and a caption.
//! let opts = DiagramOptions::default()
//!     .flip(true)
//!     .coordinates(Coordinates::Both)
//!     .caption("The start".to_string());
//! let svg = diagram::svg(&pos, &opts)?;
//! assert!(svg.contains("<svg") && svg.contains("The start"));
//! # Ok::<(), salta::export::diagram::DiagramError>(())
//! ```
//!
//! ## Adjudicate
//!
//! [`export::adjudication::adjudicate`] says where a game stands at a ply: who has completed, the
//! winner and the margin (the moves the loser still needs, counted exactly within a
//! [`rules::margin::Budget`]), each side's remaining count and the move-limit verdict.
//!
//! ```
//! use salta::board::Color;
//! use salta::export::adjudication::{Standing, adjudicate};
//! use salta::notation::read_path;
//! use salta::replay::{ReplayOptions, replay};
//! use salta::rules::margin::Budget;
//! use std::path::Path;
//!
//! let path = Path::new("corpus/historical/krone-grotewold-1901.sgn");
//! let game = read_path(path)?.next().expect("the file holds a game")?;
//! let replayed = replay(&game, &ReplayOptions::default());
//! let verdict = adjudicate(&replayed, replayed.plies(), &Budget::default());
//! assert_eq!(verdict.status, Standing::RedCompleted);
//! assert_eq!((verdict.winner, verdict.margin), (Some(Color::Red), Some(27)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Options
//!
//! Every options struct starts from its `Default` and changes what it needs through setters named
//! after its fields, as above: [`replay::ReplayOptions`], [`archive::CheckOptions`],
//! [`extract::ExtractOptions`] and [`extract::Selection`], [`export::diagram::DiagramOptions`],
//! [`export::printed::PrintOptions`], [`notation::WriteOptions`], [`notation::Limits`] and
//! [`rules::margin::Budget`]. They, and the reports the library hands back, are
//! `#[non_exhaustive]`: a later version may add a field without breaking your code.
//!
//! # Features
//!
//! All on by default. `cli` builds the `salta` command (clap, indicatif, YAML and JSON documents;
//! it turns on the others); `render` draws findings and syntax errors for people (the `render`
//! module and `archive::CheckOptions::render`; miette's graphical report); `viewer` writes the
//! game viewer (an HTML page carrying its games as JSON); `png` renders PNG diagrams (resvg);
//! `pdf` writes PDF diagrams and printed games (svg2pdf; it turns on `png`); `parallel` lets
//! [`archive::check_files`] and [`extract::extract`] read and replay pieces of the files on as
//! many workers as rayon's pool has threads (without it, one worker: the same results in the same
//! order). A library user who needs none of them depends on salta with `default-features =
//! false`: the engine, reader, writer, replayer, repair, archive checks and exporters, in 15
//! crates. The types the library hands back implement serde's `Serialize` in every build.

#![warn(missing_docs)]

pub mod archive;
pub mod board;
pub mod diagnostic;
pub mod export;
pub mod extract;
pub mod generate;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod notation;
pub mod prelude;
#[cfg(feature = "render")]
pub mod render;
pub mod repair;
pub mod replay;
pub mod rules;
