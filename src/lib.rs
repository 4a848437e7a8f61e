//! salta: game records of Salta (Büttgenbach, 1899) — board geometry, rules engine, SGN records,
//! replay validation, exporters and archive checks.
//!
//! The layers, bottom up: [`board`] (squares, numbering, bitboards), [`rules`] (positions, legal
//! moves, outcomes, margins), [`notation`] (the SGN syntax tree, streaming reader and writer, which
//! know nothing of legality), [`replay`] (plays a record through the rules and reports findings),
//! [`archive`] (whole folders in parallel), [`export`] (diagrams, structured games, adjudication)
//! and [`generate`] (synthetic games).

pub mod archive;
pub mod board;
pub mod export;
pub mod extract;
pub mod generate;
pub mod notation;
pub mod repair;
pub mod replay;
pub mod rules;
