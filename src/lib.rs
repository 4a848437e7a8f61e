//! salta: game records of Salta (Büttgenbach, 1899) — board geometry, rules engine, SGN records,
//! replay validation, exporters and archive checks.

pub mod board;
pub mod rules;
pub mod notation;
pub mod export;
