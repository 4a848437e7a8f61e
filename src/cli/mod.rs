//! The subcommands: each parses its arguments, calls the library and prints.

pub mod adjudicate;
pub mod check;
pub mod convert;
pub mod diagram;
pub mod extract;
pub mod generate;
pub mod html;
pub mod perft;
pub mod print;
pub mod repair;

use salta::rules::margin::Budget;
use salta::rules::{Position, Rules};
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// How much search an exact margin count may spend before it settles for proven bounds.
#[derive(clap::Args)]
pub struct BudgetArgs {
    /// Seconds one exact margin count may take before it settles for proven lower and upper
    /// bounds (0: no time limit).
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    margin_seconds: f64,
    /// Search states one exact margin count may store before it settles for bounds.
    #[arg(long, alias = "max-states", default_value_t = Budget::default().max_states, value_name = "STATES")]
    margin_states: u64,
}

impl BudgetArgs {
    pub fn budget(&self) -> Result<Budget, CliError> {
        let seconds = self.margin_seconds;
        let max_time = match seconds {
            0.0 => None,
            s if s.is_finite() && s > 0.0 && s <= 1e6 => {
                Some(std::time::Duration::from_secs_f64(s))
            }
            _ => {
                return Err(CliError::new(format!(
                    "--margin-seconds {seconds}: give a number of seconds from 0 (no limit) to 1000000"
                )));
            }
        };
        Ok(Budget {
            max_states: self.margin_states.max(1),
            max_time,
        })
    }
}

/// How many threads read and replay games.
#[derive(clap::Args)]
pub struct ThreadsArgs {
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,
}

/// Threads a user may ask for: far more than any machine's cores, and few enough to start at once
/// (a hundred thousand took over a minute before any game was read).
const MAX_THREADS: i64 = 1024;

impl ThreadsArgs {
    /// Sizes the thread pool the workers are counted from; call before any parallel work.
    pub fn apply(&self) -> Result<(), CliError> {
        if let Some(n) = self.threads {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.into())
                .build_global()
                .map_err(|e| CliError::new(format!("--threads: {e}")))?;
        }
        Ok(())
    }
}

/// Reads `--rules` (a Rules tag text) and a Setup line given by the option named `setup_option`.
pub fn position_from_args(
    rules: Option<&str>,
    setup: Option<&str>,
    setup_option: &str,
) -> Result<Position, CliError> {
    let rules = match rules {
        Some(text) => Rules::parse(text).map_err(|e| CliError::new(format!("--rules: {e}")))?,
        None => Rules::default(),
    };
    match setup {
        Some(line) => Position::from_setup(line, rules)
            .map_err(|e| CliError::new(format!("{setup_option}: {e}"))),
        None => Ok(Position::start(rules)),
    }
}

/// Writes output to a file through a temporary file in the same folder and a rename (so a failed run
/// never leaves a half-written file, and never writes over one of the `inputs`), or to stdout.
pub fn write_output(
    path: Option<&Path>,
    inputs: &[PathBuf],
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), CliError> {
    let Some(path) = path else {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        return write(&mut out)
            .and_then(|_| out.flush())
            .map_err(|e| CliError::new(format!("cannot write to standard output: {e}")));
    };
    let mut file = OutputFile::create(path, inputs)?;
    write(file.writer()).map_err(|e| file.failed(e))?;
    file.commit()
}

/// An output file being written: a temporary file beside it, renamed over it only by
/// [`OutputFile::commit`], and removed if dropped before that.
pub struct OutputFile {
    path: PathBuf,
    temp: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    committed: bool,
}

impl OutputFile {
    /// Refuses a path that is one of the `inputs`.
    pub fn create(path: &Path, inputs: &[PathBuf]) -> Result<OutputFile, CliError> {
        let canonical = |p: &Path| std::fs::canonicalize(p).ok();
        if let Some(target) = canonical(path)
            && inputs
                .iter()
                .any(|i| canonical(i).as_ref() == Some(&target))
        {
            return Err(CliError::new(format!(
                "{} is an input file: refusing to write over it",
                path.display()
            ))
            .with_help("choose another output file"));
        }
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".into());
        let temp = folder.join(format!(".{name}.{}.tmp", std::process::id()));
        let file = std::fs::File::create(&temp)
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
        Ok(OutputFile {
            path: path.to_path_buf(),
            temp,
            out: std::io::BufWriter::new(file),
            committed: false,
        })
    }

    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.out
    }

    /// The error to report for a failed write (the temporary file goes when `self` is dropped).
    pub fn failed(&self, e: std::io::Error) -> CliError {
        CliError::new(format!("cannot write {}: {e}", self.path.display()))
    }

    /// Flushes the file to disk and renames it into place.
    pub fn commit(mut self) -> Result<(), CliError> {
        self.out
            .flush()
            .and_then(|_| self.out.get_ref().sync_all())
            .and_then(|_| std::fs::rename(&self.temp, &self.path))
            .map_err(|e| self.failed(e))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Reads game `index` (1-based) of an SGN file, with a clear error for anything else.
pub fn select_game(file: &Path, index: usize) -> Result<salta::notation::Game, CliError> {
    let reader = salta::notation::read_path(file)
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", file.display())))?
        .with_name(file.display().to_string());
    let mut count = 0;
    for (i, item) in reader.enumerate() {
        count = i + 1;
        if count == index {
            return item.map_err(|e| {
                CliError::new(format!(
                    "game {index} of {} cannot be read:\n{}",
                    file.display(),
                    salta::archive::render(&e, false)
                ))
            });
        }
    }
    Err(CliError::new(format!(
        "{} has {count} game(s); there is no game {index}",
        file.display()
    )))
}

/// Replays a game's main line (margins are not counted) and checks a requested ply against it;
/// without one, the ply is the end of the main line.
pub fn replay_to_ply(
    game: &salta::notation::Game,
    ply: Option<u32>,
) -> Result<(salta::replay::Replay, u32), CliError> {
    use salta::replay::{MarginPolicy, ReplayOptions, replay};
    let replayed = replay(
        game,
        &ReplayOptions {
            margins: MarginPolicy::Never,
            ..ReplayOptions::default()
        },
    );
    let plies = replayed.plies();
    match ply {
        Some(p) if p > plies => Err(CliError::new(format!(
            "ply {p} is beyond the game: its main line replays {plies} plies"
        ))
        .with_help(format!("give --ply 0 to {plies}"))),
        Some(p) => Ok((replayed, p)),
        None => Ok((replayed, plies)),
    }
}
