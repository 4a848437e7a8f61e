use super::output::Closed;
use super::{CliError, Output, input_files, position_from_args, rules_from_args};
use salta::extract::{AsRead, ExtractOptions, Selection, Sorted, TagFilter, Verdict, extract};
use salta::notation::{GameResult, Notation, input_name, is_stdin, printable};
use salta::replay::{MarginPolicy, ReplayOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Files and folders to read (folders are searched for *.sgn recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Write the kept games to this file (through a temporary file and a rename) instead of
    /// standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Spread the kept games over files of at most N games each, numbered after the -o file
    /// (`-o clean.sgn --split 1000` writes clean-1.sgn, clean-2.sgn, …).
    #[arg(long, value_name = "N", requires = "output", value_parser = clap::value_parser!(u64).range(1..))]
    split: Option<u64>,
    /// Write kept games (cut and mended ones too) as canonical SGN in this notation instead of
    /// exactly as read.
    #[arg(long, value_parser = ["numeric", "algebraic", "piece"])]
    to: Option<String>,
    /// Write the invalid and unreadable games here, exactly as read.
    #[arg(long)]
    rejected: Option<PathBuf>,
    /// Write the games the selection (--tag, --min-plies, --max-plies, --result, --reaches) left
    /// out here, exactly as read.
    #[arg(long, value_name = "FILE")]
    unselected: Option<PathBuf>,
    /// Keep an invalid game up to the move that breaks it; the rest of its moves become comments
    /// and its result `*`.
    #[arg(long)]
    keep_broken: bool,
    /// Mend games whose only errors are the Result or Margin: write the result (and the margin,
    /// where a Margin tag is given) that the replay proves.
    #[arg(long)]
    fix_results: bool,
    /// Leave out games that repeat an earlier game or whose moves begin a longer game.
    #[arg(long)]
    drop_duplicates: bool,
    /// Write the games left out as duplicates here, exactly as read (implies --drop-duplicates).
    #[arg(long)]
    duplicates: Option<PathBuf>,
    /// Keep only games with this tag: `Name=Value` (equal) or `Name~text` (contains, any case).
    /// Repeat for several conditions; all must hold.
    #[arg(long = "tag", value_name = "CONDITION")]
    tags: Vec<String>,
    /// Keep only games whose main line has at least this many plies.
    #[arg(long)]
    min_plies: Option<u32>,
    /// Keep only games whose main line has at most this many plies.
    #[arg(long)]
    max_plies: Option<u32>,
    /// Keep only games with this result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[arg(long)]
    result: Option<String>,
    /// Keep only games whose main line reaches this position (a Setup line; side to move aside).
    #[arg(long, value_name = "SETUP")]
    reaches: Option<String>,
    /// Rules of the --reaches position (as in a Rules tag).
    #[arg(long, requires = "reaches")]
    rules: Option<String>,
    #[command(flatten)]
    budget: super::BudgetArgs,
    #[command(flatten)]
    threads: super::ThreadsArgs,
    /// Historical mode: an uncalled missed jump is a warning and the move stands.
    #[arg(long)]
    lenient: bool,
    /// Print only the summary, not a line per game left out.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let options = options(&args)?;
    args.threads.apply()?;
    let files = input_files(&args.paths)?;
    if options.find_duplicates && files.iter().any(|f| is_stdin(f)) {
        return Err(CliError::new(
            "standard input (-) can be read only once: duplicates are found in three readings",
        )
        .with_help("save the input to a file first"));
    }
    let targets: Vec<PathBuf> = [
        &args.output,
        &args.rejected,
        &args.duplicates,
        &args.unselected,
    ]
    .into_iter()
    .flatten()
    .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
    .collect();
    if targets
        .iter()
        .enumerate()
        .any(|(i, t)| targets[..i].contains(t))
    {
        return Err(CliError::new(
            "-o, --rejected, --duplicates and --unselected must name different files",
        ));
    }
    let create = |path: &Option<PathBuf>| {
        path.as_deref()
            .map(|path| Output::create(path, &files))
            .transpose()
    };
    let mut output = match (&args.output, args.split) {
        (Some(path), Some(_)) if path.is_dir() || path.file_name().is_none() => {
            return Err(CliError::new(format!(
                "-o {} is a folder: with --split it names the files, e.g. -o clean.sgn",
                input_name(path)
            )));
        }
        // targets[0] is -o itself; the others must not be among its numbered files.
        (Some(path), Some(_)) if targets[1..].iter().any(|t| numbered_after(&targets[0], t)) => {
            return Err(CliError::new(format!(
                "--split numbers files after {}: another output file would be one of them",
                input_name(path)
            )));
        }
        (Some(path), Some(per_file)) => {
            KeptOutput::Split(SplitOutput::new(path, per_file, &files)?)
        }
        (path, _) => KeptOutput::One(Output::open(path.as_deref(), &files)?),
    };
    let mut rejected = create(&args.rejected)?;
    let mut unselected = create(&args.unselected)?;
    let mut duplicates = create(&args.duplicates)?;
    let quiet = args.quiet;
    // Per output (kept, rejected, duplicates, unselected): games written one after another as
    // read.
    let mut written: [AsRead; 4] = Default::default();
    let summary = extract(&files, &options, |sorted: Sorted| {
        let begins = sorted.part.begins();
        let (which, sink): (usize, Option<&mut dyn Write>) = match sorted.verdict {
            Verdict::Kept | Verdict::KeptBroken { .. } | Verdict::Fixed { .. } => (
                0,
                Some(match &mut output {
                    KeptOutput::One(out) => out.writer(),
                    KeptOutput::Split(split) => {
                        let (writer, first) = split.next_game(begins).map_err(io::Error::other)?;
                        if first {
                            written[0] = AsRead::new();
                        }
                        writer
                    }
                }),
            ),
            Verdict::Rejected { .. } => (1, rejected.as_mut().map(|f| f.writer())),
            Verdict::Duplicate { .. } | Verdict::Contained { .. } => {
                (2, duplicates.as_mut().map(|f| f.writer()))
            }
            Verdict::Filtered => (3, unselected.as_mut().map(|f| f.writer())),
        };
        if let Some(sink) = sink {
            written[which].part(sink, &sorted.text, sorted.part)?;
        }
        if !quiet && begins {
            report(&sorted);
        }
        Ok(())
    })
    .map_err(|e| CliError::io("cannot extract", e))?;
    match output {
        KeptOutput::One(out) => out.commit()?,
        KeptOutput::Split(split) => split.commit()?,
    }
    for file in [rejected, duplicates, unselected].into_iter().flatten() {
        file.commit()?;
    }
    super::to_stderr(format_args!(
        "{} file(s), {} game(s): {} kept, {} kept broken, {} fixed, {} rejected, {} not selected, {} duplicate(s), {} contained in longer games\n",
        summary.files,
        summary.games,
        summary.kept,
        summary.kept_broken,
        summary.fixed,
        summary.rejected,
        summary.filtered,
        summary.duplicates,
        summary.contained
    ));
    Ok(
        if summary.rejected + summary.kept_broken + summary.fixed > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}

fn options(args: &Args) -> Result<ExtractOptions, CliError> {
    let tags = args
        .tags
        .iter()
        .map(|t| t.parse::<TagFilter>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::new(format!("--tag: {e}")))?;
    let result = match args.result.as_deref() {
        Some(text) => Some(
            (text.parse::<GameResult>()).map_err(|e| CliError::new(format!("--result: {e}")))?,
        ),
        None => None,
    };
    let reaches = match &args.reaches {
        Some(setup) => Some(position_from_args(
            rules_from_args(args.rules.as_deref())?,
            Some(setup),
            "--reaches",
        )?),
        None => None,
    };
    let notation = args.to.as_deref().map(|n| match n {
        "algebraic" => Notation::Algebraic,
        "piece" => Notation::Piece,
        _ => Notation::Numeric,
    });
    Ok(ExtractOptions::default()
        .replay(
            ReplayOptions::default()
                .lenient(args.lenient)
                .margins(MarginPolicy::WhenTagged)
                .budget(args.budget.budget()?),
        )
        .selection(
            Selection::default()
                .tags(tags)
                .min_plies(args.min_plies)
                .max_plies(args.max_plies)
                .result(result)
                .reaches(reaches),
        )
        .keep_broken(args.keep_broken)
        .fix_results(args.fix_results)
        .find_duplicates(args.drop_duplicates || args.duplicates.is_some())
        .notation(notation))
}

/// Where the kept games go: standard output or one file, or numbered files.
enum KeptOutput {
    One(Output),
    Split(SplitOutput),
}

/// Kept games spread over numbered files of at most `per_file` games (pgn-extract's `-#`). Every
/// input is checked against the numbered names before anything is written; the files are
/// written to temporary files and all renamed into place only when the whole run succeeds, and
/// numbered files of an earlier run beyond the last one written are then removed, so that the
/// numbered files are this run's and only its.
struct SplitOutput {
    base: PathBuf,
    per_file: u64,
    inputs: Vec<PathBuf>,
    current: Option<Output>,
    in_current: u64,
    /// The files written in full, waiting for the commit.
    closed: Vec<Closed>,
}

impl SplitOutput {
    fn new(base: &Path, per_file: u64, inputs: &[PathBuf]) -> Result<SplitOutput, CliError> {
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let canonical_base = base
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| std::fs::canonicalize("."), std::fs::canonicalize)
            .ok()
            .zip(base.file_name())
            .map(|(folder, name)| folder.join(name));
        for input in inputs.iter().filter(|i| !is_stdin(i)) {
            let by_name = numbered_after(&absolute(base), &absolute(input));
            let by_place = canonical_base
                .as_ref()
                .zip(std::fs::canonicalize(input).ok());
            if by_name || by_place.is_some_and(|(base, input)| numbered_after(base, &input)) {
                return Err(CliError::new(format!(
                    "--split numbers files after {}: the input {} would be one of them",
                    input_name(base),
                    input_name(input)
                ))
                .with_help("choose another -o name"));
            }
        }
        Ok(SplitOutput {
            base: base.to_path_buf(),
            per_file,
            inputs: inputs.to_vec(),
            current: None,
            in_current: 0,
            closed: Vec::new(),
        })
    }

    /// The writer for the next game (or the next part of the game being written, unless
    /// `begins`), and whether a new file begins with it.
    fn next_game(&mut self, begins: bool) -> Result<(&mut dyn Write, bool), CliError> {
        let (file, first) = match self.current.take() {
            Some(file) if !begins || self.in_current < self.per_file => (file, false),
            full => {
                if let Some(full) = full {
                    self.closed.push(full.close()?);
                }
                self.in_current = 0;
                let number = self.closed.len() as u64 + 1;
                let path = numbered(&self.base, number);
                (Output::create(&path, &self.inputs)?, true)
            }
        };
        self.in_current += u64::from(begins);
        Ok((self.current.insert(file).writer(), first))
    }

    /// Renames every file into place, then removes the numbered files of an earlier run that
    /// come after the last one (saying so).
    fn commit(mut self) -> Result<(), CliError> {
        if let Some(last) = self.current.take() {
            self.closed.push(last.close()?);
        }
        let files = self.closed.len() as u64;
        for file in self.closed {
            file.commit()?;
        }
        let folder = self
            .base
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let Ok(entries) = std::fs::read_dir(folder) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let stale = part_number(&self.base, &path).is_some_and(|n| n > files);
            if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
                match std::fs::remove_file(&path) {
                    Ok(()) => super::warn(format_args!(
                        "removed {}, left by an earlier run: this run wrote {files} file(s)",
                        input_name(&path)
                    )),
                    Err(e) => super::warn(format_args!(
                        "{} was left by an earlier run and could not be removed: {e}",
                        input_name(&path)
                    )),
                }
            }
        }
        Ok(())
    }
}

/// The number of the file `--split` would write at `path` for `base` (7 for `clean-7.sgn` after
/// `clean.sgn`, as [`numbered`] writes it: no leading zeros).
fn part_number(base: &Path, path: &Path) -> Option<u64> {
    let stem = base.file_stem()?.to_str()?;
    let tail = base
        .extension()
        .map_or(Some(String::new()), |e| Some(format!(".{}", e.to_str()?)))?;
    let digits = path
        .file_name()?
        .to_str()?
        .strip_prefix(stem)?
        .strip_prefix('-')?
        .strip_suffix(tail.as_str())?;
    let n: u64 = digits.parse().ok()?;
    (n.to_string() == digits && n > 0).then_some(n)
}

/// Whether `path` is one of the files `--split` numbers after `base` (`clean-7.sgn` for
/// `clean.sgn`).
fn numbered_after(base: &Path, path: &Path) -> bool {
    base.parent() == path.parent() && part_number(base, path).is_some()
}

/// `clean.sgn` and 2 give `clean-2.sgn`.
fn numbered(base: &Path, n: u64) -> PathBuf {
    let stem = base
        .file_stem()
        .map_or_else(|| "games".into(), |s| s.to_string_lossy());
    let name = match base.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    base.with_file_name(name)
}

/// A line on stderr for each game not kept as it was (what it quotes of the game made printable).
fn report(sorted: &Sorted) {
    let game = &sorted.game;
    let line = match &sorted.verdict {
        Verdict::Kept | Verdict::Filtered => return,
        Verdict::KeptBroken { reason } => format!("kept broken: {game}: {reason}"),
        Verdict::Fixed { reason } => format!("fixed: {game}: {reason}"),
        Verdict::Rejected { reason } => format!("rejected: {game}: {reason}"),
        Verdict::Duplicate { of } => format!("duplicate: {game} repeats {of}"),
        Verdict::Contained { within } => format!("contained: {game} begins {within}"),
    };
    super::to_stderr(format_args!("{}\n", printable(&line, false)));
}
