//! What users take out of the toolkit: structured games (YAML, JSON) and adjudications.

pub mod adjudication;
pub mod structured;
