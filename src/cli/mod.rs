//! The subcommands: each parses its arguments, calls the library and prints.

pub mod perft;

use salta::rules::{Position, Rules};

/// An error the CLI reports with exit code 2 (usage, bad arguments, I/O).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
pub struct CliError {
    pub message: String,
    #[help]
    pub help: Option<String>,
}

impl CliError {
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            help: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> CliError {
        self.help = Some(help.into());
        self
    }
}

/// Reads `--rules` (a Rules tag text) and `--setup`.
pub fn position_from_args(rules: Option<&str>, setup: Option<&str>) -> Result<Position, CliError> {
    let rules = match rules {
        Some(text) => Rules::parse(text).map_err(|e| CliError::new(format!("--rules: {e}")))?,
        None => Rules::default(),
    };
    match setup {
        Some(line) => {
            Position::from_setup(line, rules).map_err(|e| CliError::new(format!("--setup: {e}")))
        }
        None => Ok(Position::start(rules)),
    }
}
