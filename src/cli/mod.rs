//! The subcommands: each parses its arguments, calls the library and prints.

pub mod adjudicate;
pub mod check;
pub mod convert;
pub mod diagram;
mod documents;
pub mod extract;
pub mod generate;
pub mod html;
mod inputs;
pub mod lsp;
pub mod output;
pub mod perft;
pub mod print;
pub mod repair;
pub mod signals;

pub use output::{Output, write_output};

use salta::notation::input_name;
use salta::replay::MarginPolicy;
use salta::rules::margin::Budget;
use salta::rules::{MoveLimit, Odds, Position, Rules};
use std::path::Path;
use std::str::FromStr;

/// An error the CLI reports with exit code 2 (usage, bad arguments, I/O).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
pub struct CliError {
    pub message: String,
    #[help]
    pub help: Option<String>,
    /// The reader of our output went away (`salta check big/ | head`): the command ends quietly
    /// with exit code 0, as ripgrep does, instead of reporting an error.
    pub closed_pipe: bool,
}

impl CliError {
    /// An error whose message names files or quotes input: its control characters are replaced
    /// (see [`salta::notation::printable`]).
    pub fn new(message: impl Into<String>) -> CliError {
        let message: String = message.into();
        CliError {
            message: salta::notation::printable(&message, true).into_owned(),
            help: None,
            closed_pipe: false,
        }
    }

    /// An I/O error after `what` ("cannot write out.sgn"); a closed pipe is marked as such.
    pub fn io(what: &str, e: std::io::Error) -> CliError {
        CliError {
            closed_pipe: e.kind() == std::io::ErrorKind::BrokenPipe,
            ..CliError::new(format!("{what}: {e}"))
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> CliError {
        self.help = Some(help.into());
        self
    }
}

/// When reports for people are coloured (`--color`).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set (and not empty) or TERM is `dumb`.
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// Whether to colour a stream, given whether it is a terminal.
    pub fn enabled(self, terminal: bool) -> bool {
        let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                terminal && set("NO_COLOR").is_none() && set("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// When the run started: the time a summary gives is the run's wall time, thread start-up
/// included (a thousand worker threads take seconds to start on a loaded machine).
pub fn started() -> std::time::Instant {
    static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *STARTED.get_or_init(std::time::Instant::now)
}

/// The `--color` option as the command line gives it (`--color WHEN` or `--color=WHEN`, before any
/// `--`), read before clap parses the line: clap's own usage errors and help, printed when the
/// line does not parse, are coloured as it says too. `auto` when absent or not a choice.
pub fn color_in_args(args: &[std::ffi::OsString]) -> ColorWhen {
    let mut color = ColorWhen::Auto;
    let mut words = args.iter().skip(1).map(|a| a.to_str());
    while let Some(word) = words.next() {
        let value = match word {
            Some("--") => break,
            Some("--color") => words.next().flatten(),
            Some(word) => word.strip_prefix("--color="),
            None => None,
        };
        if let Some(value) = value {
            color = match value {
                "always" => ColorWhen::Always,
                "never" => ColorWhen::Never,
                _ => ColorWhen::Auto,
            };
        }
    }
    color
}

/// How much search an exact margin count may spend before it settles for proven bounds.
#[derive(clap::Args)]
pub struct BudgetArgs {
    /// Seconds one exact margin count may take before it settles for proven lower and upper
    /// bounds (0: no time limit). Default: 1 for `check`, `extract` and `repair`; no time limit
    /// for `adjudicate` and `convert --to latex|pdf`, so that the same input always gives the
    /// same verdict and page (the state limit ends a hard count there).
    #[arg(long, value_name = "SECONDS")]
    margin_seconds: Option<f64>,
    /// Search states one exact margin count may store before it settles for bounds.
    #[arg(long, alias = "max-states", default_value_t = Budget::default().max_states, value_name = "STATES")]
    margin_states: u64,
}

impl BudgetArgs {
    /// For checking archives (`check`, `extract`, `repair`): a count stops after 1 s unless
    /// `--margin-seconds` says otherwise, so one hard position cannot stall a run.
    pub fn budget(&self) -> Result<Budget, CliError> {
        self.budget_or(1.0)
    }

    /// For what is printed and kept (`adjudicate`, `convert --to latex|pdf`): no time limit unless
    /// `--margin-seconds` asks for one. Where a count stops then depends on the input alone, not
    /// on how busy the machine is (decision 106).
    pub fn reproducible_budget(&self) -> Result<Budget, CliError> {
        self.budget_or(0.0)
    }

    fn budget_or(&self, default_seconds: f64) -> Result<Budget, CliError> {
        let seconds = self.margin_seconds.unwrap_or(default_seconds);
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
        Ok(Budget::default()
            .max_states(self.margin_states.max(1))
            .max_time(max_time))
    }
}

/// When margins are counted exactly (`check`, `repair`).
#[derive(clap::Args)]
pub struct MarginsArgs {
    /// When to count the margins of finished games exactly: `tagged` (games with a Margin tag),
    /// `always`, or `never`.
    #[arg(long, default_value = "tagged", value_parser = ["tagged", "always", "never"])]
    margins: String,
}

impl MarginsArgs {
    pub fn policy(&self) -> MarginPolicy {
        match self.margins.as_str() {
            "always" => MarginPolicy::Always,
            "never" => MarginPolicy::Never,
            _ => MarginPolicy::WhenTagged,
        }
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
    rules: Rules,
    setup: Option<&str>,
    setup_option: &str,
) -> Result<Position, CliError> {
    match setup {
        Some(line) => Position::from_setup(line, rules)
            .map_err(|e| CliError::new(format!("{setup_option}: {e}"))),
        None => Ok(Position::start(rules)),
    }
}

/// The `--rules` option (a Rules tag's text), the default rules without it.
pub fn rules_from_args(rules: Option<&str>) -> Result<Rules, CliError> {
    match rules {
        Some(text) => Rules::from_str(text).map_err(|e| CliError::new(format!("--rules: {e}"))),
        None => Ok(Rules::default()),
    }
}

/// The `--move-limit` option, read as the MoveLimit tag is (`120`, `100/120`, `-`).
pub fn move_limit_from_args(text: &str) -> Result<Option<MoveLimit>, CliError> {
    MoveLimit::parse(text).map_err(|e| {
        CliError::new(format!("--move-limit: {e}"))
            .with_help("e.g. --move-limit 120, or --move-limit 100/120 for Green's and Red's")
    })
}

/// The `--odds` option, read as the Odds tag is (`red 3:2`).
pub fn odds_from_args(text: &str) -> Result<Option<Odds>, CliError> {
    Odds::parse(text).map_err(|e| {
        CliError::new(format!("--odds: {e}"))
            .with_help("e.g. --odds \"red 3:2\": Red makes 3 moves for every 2 of Green's")
    })
}

/// Writes `text` to standard error as it is. `eprint!` panics when the write fails (stderr a pipe
/// whose reader has gone); a run must not end in a panic for that, and there is nowhere left to
/// report the failure, so it is ignored.
pub fn to_stderr(text: impl std::fmt::Display) {
    use std::io::Write;
    let _ = write!(std::io::stderr().lock(), "{text}");
}

/// Writes a `warning: …` line to standard error (see [`to_stderr`]), its control characters
/// replaced: a warning names files, whose names may hold escape sequences or newlines.
pub fn warn(message: impl std::fmt::Display) {
    say("warning", message);
}

/// Writes `KIND: message` as one line to standard error, its control characters replaced (see
/// [`salta::notation::printable`]).
pub fn say(kind: &str, message: impl std::fmt::Display) {
    let message = message.to_string();
    to_stderr(format_args!(
        "{kind}: {}\n",
        salta::notation::printable(&message, false)
    ));
}

/// The SGN files under `paths` for a command that needs them all: the first path that cannot be
/// listed is an error; what was left out (not a regular file, a folder already read) is warned of.
pub fn input_files(paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>, CliError> {
    let salta::archive::Inputs {
        files,
        errors,
        notes,
        ..
    } = salta::archive::sgn_files(paths);
    if let Some(error) = errors.first() {
        return Err(CliError::new(error.to_string()));
    }
    for note in notes {
        warn(note);
    }
    Ok(files)
}

/// Reads game `index` (1-based) of an SGN file, with a clear error for anything else.
pub fn select_game(file: &Path, index: usize) -> Result<salta::notation::Game, CliError> {
    let reader = salta::notation::read_path(file)
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", input_name(file))))?;
    let mut count = 0;
    for (i, item) in reader.enumerate() {
        count = i + 1;
        if count == index {
            return item.map_err(|e| {
                CliError::new(format!(
                    "game {index} of {} cannot be read:\n{}",
                    input_name(file),
                    salta::render::render(&e, false)
                ))
            });
        }
    }
    Err(CliError::new(format!(
        "{} has {count} game(s); there is no game {index}",
        input_name(file)
    )))
}

/// 1 when a position was shown past the break of its record ([`replay_to_ply`]), else 0.
pub fn exit_code(past_break: bool) -> std::process::ExitCode {
    std::process::ExitCode::from(u8::from(past_break))
}

/// Replays a game's main line (margins are not counted) and checks a requested ply against it;
/// without one, the ply is the end of the main line. When the main line breaks off before its
/// written end (an illegal move) and no ply was asked, says so on stderr and the `bool` is true
/// (the caller then exits with 1, as for an invalid game): the end asked for is not the one shown.
pub fn replay_to_ply(
    game: &salta::notation::Game,
    ply: Option<u32>,
) -> Result<(salta::replay::Replay, u32, bool), CliError> {
    use salta::replay::{ReplayOptions, Severity, replay};
    let replayed = replay(game, &ReplayOptions::default().margins(MarginPolicy::Never));
    let plies = replayed.plies();
    let asked = match ply {
        Some(p) if p > plies => {
            return Err(CliError::new(format!(
                "ply {p} is beyond the game: its main line replays {plies} plies"
            ))
            .with_help(format!("give --ply 0 to {plies}")));
        }
        Some(p) => p,
        None => plies,
    };
    // The main-line move that could not be played.
    let break_point = replayed
        .findings()
        .iter()
        .find(|f| f.severity == Severity::Error && !f.in_variation && f.ply == Some(plies + 1));
    let past_break = match break_point {
        Some(f) if ply.is_none() => {
            warn(format_args!(
                "the main line breaks off at ply {} ({}: {}); the position shown is the one \
                 before, after ply {plies}",
                plies + 1,
                f.code,
                f.message
            ));
            true
        }
        _ => false,
    };
    Ok((replayed, asked, past_break))
}

#[cfg(test)]
mod tests {
    use super::BudgetArgs;
    use clap::Parser;
    use std::time::Duration;

    #[derive(Parser)]
    struct Budgeted {
        #[command(flatten)]
        budget: BudgetArgs,
    }

    fn parsed(args: &[&str]) -> BudgetArgs {
        Budgeted::try_parse_from(std::iter::once("salta").chain(args.iter().copied()))
            .unwrap()
            .budget
    }

    /// What is printed and kept has no clock in it unless asked for; checking an archive keeps
    /// its 1 s a count.
    #[test]
    fn only_checking_has_a_time_limit_by_default() {
        let default = parsed(&[]);
        assert_eq!(default.reproducible_budget().unwrap().max_time, None);
        assert_eq!(
            default.budget().unwrap().max_time,
            Some(Duration::from_secs(1))
        );
        let asked = parsed(&["--margin-seconds", "2.5", "--margin-states", "10"]);
        for budget in [
            asked.budget().unwrap(),
            asked.reproducible_budget().unwrap(),
        ] {
            assert_eq!(budget.max_time, Some(Duration::from_millis(2500)));
            assert_eq!(budget.max_states, 10);
        }
        let unlimited = parsed(&["--margin-seconds", "0"]);
        assert_eq!(unlimited.budget().unwrap().max_time, None);
    }
}
