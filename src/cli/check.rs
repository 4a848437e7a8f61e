use super::{CliError, Output};
use salta::archive::{CheckOptions, Inputs, check_files, sgn_files};
use salta::replay::{MoveLimitOverride, ReplayOptions, Status};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Files and folders to check (folders are searched for *.sgn recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Historical mode: an uncalled missed jump is a warning and the move stands.
    #[arg(long)]
    lenient: bool,
    /// Output format: `human` (diagnostics and a summary) or `json` (one object per game, then the summary).
    #[arg(long, default_value = "human", value_parser = ["human", "json"])]
    format: String,
    /// Rules for every game instead of its Rules tag (e.g. `salta; jumps=any`).
    #[arg(long)]
    rules: Option<String>,
    /// Move limit for every game instead of its MoveLimit tag: `120`, Green's and Red's as
    /// `100/120`, or `-` for none.
    #[arg(long)]
    move_limit: Option<String>,
    #[command(flatten)]
    margins: super::MarginsArgs,
    #[command(flatten)]
    budget: super::BudgetArgs,
    #[command(flatten)]
    threads: super::ThreadsArgs,
    /// Print nothing for valid games (human format).
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args, color: super::ColorWhen) -> Result<ExitCode, CliError> {
    let rules = match &args.rules {
        Some(text) => Some(super::rules_from_args(Some(text))?),
        None => None,
    };
    let move_limit = match &args.move_limit {
        Some(text) => match super::move_limit_from_args(text)? {
            Some(limit) => MoveLimitOverride::Limit(limit),
            None => MoveLimitOverride::Unlimited,
        },
        None => MoveLimitOverride::FromTags,
    };
    args.threads.apply()?;
    let json = args.format == "json";
    let opts = CheckOptions::default()
        .replay(
            ReplayOptions::default()
                .lenient(args.lenient)
                .rules(rules)
                .move_limit(move_limit)
                .margins(args.margins.policy())
                .budget(args.budget.budget()?),
        )
        .render((!json).then(|| color.enabled(std::io::stdout().is_terminal())));
    let Inputs {
        files,
        errors,
        notes,
        ..
    } = sgn_files(&args.paths);
    let mut io_errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
    for note in notes {
        super::warn(note);
    }
    if files.is_empty() && io_errors.is_empty() {
        super::warn("no .sgn files found under the given paths");
    }
    let total_bytes: u64 = files
        .iter()
        .filter_map(|f| f.metadata().ok())
        .map(|m| m.len())
        .sum();
    let progress = progress_bar(total_bytes);
    let mut output = Output::stdout();
    let out = output.writer();
    // The first error writing the report: it stops the reading.
    let mut write_error = None;
    // A game's line, put together before it is written.
    let mut line = Vec::new();
    let summary = check_files(&files, &opts, |report| {
        if let Some(bar) = &progress {
            bar.inc(report.size as u64);
        }
        let written = if json {
            // Into the buffer kept from game to game, then written at once.
            line.clear();
            serde_json::to_writer(&mut line, report)
                .map_err(std::io::Error::other)
                .and_then(|()| {
                    line.push(b'\n');
                    out.write_all(&line)
                })
        } else {
            match (&report.rendered, report.status) {
                (Some(text), _) => write!(out, "{text}"),
                (None, Status::Valid) if args.quiet => Ok(()),
                (None, _) => write_one_line(out, &mut line, report),
            }
        };
        write_error = written.err();
        write_error.is_none()
    });
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    let mut summary = summary;
    summary.seconds = super::started().elapsed().as_secs_f64();
    io_errors.append(&mut summary.io_errors);
    summary.io_errors = io_errors;
    if let Some(e) = write_error {
        return Err(output.failed(e));
    }
    let out = output.writer();
    let written = if json {
        serde_json::to_string(&serde_json::json!({ "summary": &summary }))
            .map_err(std::io::Error::other)
            .and_then(|line| writeln!(out, "{line}"))
    } else {
        let no_games = match summary.no_games {
            0 => String::new(),
            1 => "; 1 text that is no game".to_string(),
            n => format!("; {n} texts that are no game"),
        };
        writeln!(
            out,
            "{} files, {} games: {} valid, {} with warnings, {} invalid{no_games} ({:.2} s)",
            summary.files,
            summary.games,
            summary.valid,
            summary.warnings,
            summary.invalid,
            summary.seconds
        )
    };
    written.map_err(|e| output.failed(e))?;
    output.commit()?;
    if !summary.io_errors.is_empty() {
        for e in &summary.io_errors {
            super::say("error", e);
        }
        return Ok(ExitCode::from(2));
    }
    Ok(if summary.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A progress bar on stderr for long runs on a terminal; never when piped.
fn progress_bar(total_bytes: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() || total_bytes < (16 << 20) {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total_bytes);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

/// A game without findings in one line: where it is, and how it ended. Put together in `line`
/// (kept from game to game) and written at once: there is one such line per game of an archive,
/// and `write!`'s formatting took more of the printing thread than all its other work.
fn write_one_line(
    out: &mut dyn Write,
    line: &mut Vec<u8>,
    report: &salta::archive::GameReport,
) -> std::io::Result<()> {
    line.clear();
    line.extend_from_slice(report.file.as_bytes());
    line.push(b':');
    push_number(line, report.line.into());
    line.extend_from_slice(b": game ");
    push_number(line, report.game as u64);
    line.extend_from_slice(b": valid, ");
    push_number(line, report.plies.into());
    line.extend_from_slice(b" plies, ");
    let Some(o) = &report.outcome else {
        line.extend_from_slice(b"unfinished\n");
        return out.write_all(line);
    };
    match o.winner {
        Some(side) => {
            line.extend_from_slice(side.title().as_bytes());
            line.extend_from_slice(b" wins");
            match (o.margin, o.margin_bounds) {
                (Some(margin), _) => {
                    line.extend_from_slice(b" by ");
                    push_number(line, margin.into());
                }
                // Rare: the count ran out of budget.
                (None, Some((lower, Some(upper)))) => write!(line, " by {lower}–{upper}")?,
                (None, Some((lower, None))) => write!(line, " by at least {lower}")?,
                (None, None) => {}
            }
        }
        None if o.reason == salta::rules::EndReason::Stuck => line.extend_from_slice(b"undecided"),
        None => line.extend_from_slice(b"drawn"),
    }
    line.extend_from_slice(b" (");
    line.extend_from_slice(o.reason.describe().as_bytes());
    line.extend_from_slice(b")\n");
    out.write_all(line)
}

/// `n` in decimal digits at the end of `line`.
fn push_number(line: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    line.extend_from_slice(&digits[at..]);
}
