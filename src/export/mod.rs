//! What users take out of the toolkit: board diagrams, structured games (YAML, JSON),
//! adjudications, and games set for print (LaTeX, PDF).

pub mod adjudication;
pub mod diagram;
#[cfg(feature = "png")]
pub mod fonts;
#[cfg(feature = "pdf")]
pub mod pdf;
pub mod printed;
pub mod structured;
#[cfg(feature = "viewer")]
pub mod viewer;
