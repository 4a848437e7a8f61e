//! `salta lsp`: the language server of the library's `lsp` module, over standard input and output.

use super::CliError;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Speak over standard input and output (the only transport, and the default; accepted
    /// because editors' LSP set-ups often pass it).
    #[arg(long)]
    stdio: bool,
}

pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    salta::lsp::serve_stdio().map_err(|e| CliError::new(e.to_string()))?;
    Ok(ExitCode::SUCCESS)
}
