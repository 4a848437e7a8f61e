//! What users take out of the toolkit: board diagrams, structured games (YAML, JSON) and
//! adjudications.

pub mod adjudication;
pub mod diagram;
pub mod structured;
pub mod viewer;
