//! salta: game records of Salta (Büttgenbach, 1899) — board geometry, rules engine, SGN records,
//! replay validation, exporters and archive checks.

pub mod archive;
pub mod board;
pub mod generate;
pub mod notation;
pub mod replay;
pub mod rules;
