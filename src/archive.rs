//! Whole folders of transcriptions: find the `.sgn` files, read them as streams, replay the games in
//! parallel, and report each game in file order for people (miette) and programs (JSON).

use crate::board::Color;
use crate::notation::{Game, GameSource, SyntaxError, read_path};
use crate::replay::{Finding, ReplayOptions, Severity, Status, replay};
use crate::rules::EndReason;
use crate::rules::margin::Remaining;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

/// How to check.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    pub replay: ReplayOptions,
    /// Render each game's findings for people; `Some(true)` with colour.
    pub render: Option<bool>,
}

/// The report of one game, in the shape `salta check --format json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    pub file: String,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// Byte offset and 1-based line where the game starts.
    pub offset: u64,
    pub line: u32,
    #[serde(serialize_with = "ordered_tags")]
    pub tags: Vec<(String, String)>,
    pub status: Status,
    pub plies: u32,
    pub outcome: Option<OutcomeReport>,
    pub diagnostics: Vec<DiagnosticReport>,
    /// The findings drawn for people (only with `CheckOptions::render`).
    #[serde(skip)]
    pub rendered: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OutcomeReport {
    pub winner: Option<Color>,
    /// The exact margin; `null` for draws, when margins were not counted, or when only bounds
    /// could be proven (then `margin_bounds` holds them).
    pub margin: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_bounds: Option<(u32, Option<u32>)>,
    pub reason: EndReason,
}

#[derive(Clone, Debug, Serialize)]
pub struct DiagnosticReport {
    pub code: String,
    pub severity: Severity,
    pub ply: Option<u32>,
    pub move_number: Option<u16>,
    pub side: Option<Color>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

/// Totals of a check run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    pub valid: usize,
    pub warnings: usize,
    pub invalid: usize,
    pub bytes: u64,
    pub seconds: f64,
    /// Files that could not be read at all.
    pub io_errors: Vec<String>,
}

/// Every `.sgn` file under the given paths (files are taken as given), sorted within each folder.
pub fn sgn_files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut files, &mut errors);
        } else if path.exists() {
            files.push(path.clone());
        } else {
            errors.push(format!("{}: no such file or folder", path.display()));
        }
    }
    (files, errors)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(format!("{}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, files, errors);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgn"))
        {
            files.push(path);
        }
    }
}

/// Games handed to the workers at a time: enough to keep them busy, few enough to bound memory.
const BATCH_GAMES: usize = 256;
const BATCH_BYTES: usize = 4 << 20;

/// A game (or its syntax error) with its file and 1-based index in the file.
type Item = (Arc<str>, usize, Result<Game, SyntaxError>);

/// Checks every game of the files, calling `on_report` for each game in file order, and returns the
/// totals. Files are read on one thread while the games are replayed on the rayon pool.
pub fn check_files(
    files: &[PathBuf],
    opts: &CheckOptions,
    mut on_report: impl FnMut(&GameReport),
) -> Summary {
    let started = Instant::now();
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    let (sender, receiver) = sync_channel::<Vec<Item>>(2);
    let reading = std::thread::scope(|scope| {
        let reader = scope.spawn(move || read_batches(files, sender));
        for batch in receiver {
            let reports: Vec<GameReport> = batch
                .par_iter()
                .map(|(name, index, item)| report(name, *index, item, opts))
                .collect();
            for r in &reports {
                summary.games += 1;
                match r.status {
                    Status::Valid => summary.valid += 1,
                    Status::Warnings => summary.warnings += 1,
                    Status::Invalid => summary.invalid += 1,
                }
                on_report(r);
            }
        }
        reader
            .join()
            .unwrap_or_else(|_| (0, vec!["the file reader stopped unexpectedly".to_string()]))
    });
    summary.bytes = reading.0;
    summary.io_errors = reading.1;
    summary.seconds = started.elapsed().as_secs_f64();
    summary
}

/// Reads the files game by game and sends them in batches. Returns bytes read and I/O errors.
fn read_batches(
    files: &[PathBuf],
    sender: std::sync::mpsc::SyncSender<Vec<Item>>,
) -> (u64, Vec<String>) {
    let mut errors = Vec::new();
    let mut bytes = 0u64;
    let mut batch: Vec<Item> = Vec::new();
    let mut batch_bytes = 0;
    for file in files {
        let name: Arc<str> = Arc::from(file.display().to_string());
        let reader = match read_path(file) {
            Ok(r) => r.with_name(&*name),
            Err(e) => {
                errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        for (index, item) in reader.enumerate() {
            let size = match &item {
                Ok(game) => game.text.len(),
                Err(e) => e.source.text.len(),
            };
            bytes += size as u64;
            batch_bytes += size;
            batch.push((name.clone(), index + 1, item));
            if batch.len() >= BATCH_GAMES || batch_bytes >= BATCH_BYTES {
                if sender.send(std::mem::take(&mut batch)).is_err() {
                    return (bytes, errors);
                }
                batch_bytes = 0;
            }
        }
    }
    if !batch.is_empty() {
        let _ = sender.send(batch);
    }
    (bytes, errors)
}

/// Replays one game (or reports its syntax error).
pub fn report(
    file: &Arc<str>,
    index: usize,
    item: &Result<Game, SyntaxError>,
    opts: &CheckOptions,
) -> GameReport {
    match item {
        Err(e) => syntax_report(file, e, opts),
        Ok(game) => game_report(file, index, game, opts),
    }
}

fn syntax_report(file: &Arc<str>, e: &SyntaxError, opts: &CheckOptions) -> GameReport {
    let (line, column) = e.location();
    GameReport {
        file: file.to_string(),
        game: e.game_index(),
        offset: e.game_offset(),
        line: e.game_line(),
        tags: Vec::new(),
        status: Status::Invalid,
        plies: 0,
        outcome: None,
        diagnostics: vec![DiagnosticReport {
            code: e.code().to_string(),
            severity: Severity::Error,
            ply: None,
            move_number: None,
            side: None,
            line: Some(line),
            column: Some(column),
            message: e.message.clone(),
            help: e.help.clone(),
        }],
        rendered: opts.render.map(|color| render(e, color)),
    }
}

fn game_report(file: &Arc<str>, index: usize, game: &Game, opts: &CheckOptions) -> GameReport {
    let replayed = replay(game, &opts.replay);
    let source = game_source(file, index, game);
    let mut findings: Vec<Finding> = game
        .warnings
        .iter()
        .map(|w| Finding {
            code: w.code,
            severity: Severity::Warning,
            message: w.message.clone(),
            help: None,
            span: Some(w.span),
            label: None,
            ply: None,
            move_number: None,
            side: None,
            in_variation: false,
        })
        .collect();
    findings.extend(replayed.findings.iter().cloned());
    let status = match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Error) => Status::Invalid,
        Some(Severity::Warning) => Status::Warnings,
        None => Status::Valid,
    };
    let diagnostics = findings
        .iter()
        .map(|f| {
            let (line, column) = f.span.map(|s| source.location(s.start)).unzip();
            DiagnosticReport {
                code: f.code.to_string(),
                severity: f.severity,
                ply: f.ply,
                move_number: f.move_number,
                side: f.side,
                line,
                column,
                message: f.message.clone(),
                help: f.help.clone(),
            }
        })
        .collect();
    let rendered = opts.render.filter(|_| !findings.is_empty()).map(|color| {
        findings
            .iter()
            .map(|f| {
                render(
                    &FindingDiagnostic {
                        finding: f,
                        source: &source,
                    },
                    color,
                )
            })
            .collect::<String>()
    });
    GameReport {
        file: file.to_string(),
        game: source.index,
        offset: game.offset,
        line: game.line,
        tags: game
            .tags
            .iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect(),
        status,
        plies: replayed.plies(),
        outcome: replayed.outcome.map(|o| OutcomeReport {
            winner: o.winner,
            margin: o.margin.and_then(|m| m.exact()),
            margin_bounds: match o.margin {
                Some(Remaining::Bounds { lower, upper }) => Some((lower, upper)),
                _ => None,
            },
            reason: o.reason,
        }),
        diagnostics,
        rendered,
    }
}

/// The source of a game for diagnostics, with its place in the file.
pub fn game_source(file: &Arc<str>, index: usize, game: &Game) -> GameSource {
    GameSource {
        name: file.clone(),
        text: game.text.clone(),
        offset: game.offset,
        line: game.line,
        column: game.column,
        index,
    }
}

/// A replay finding as a miette diagnostic over its game's text.
pub struct FindingDiagnostic<'a> {
    pub finding: &'a Finding,
    pub source: &'a GameSource,
}

impl fmt::Debug for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FindingDiagnostic")
            .field("finding", self.finding)
            .finish()
    }
}

impl fmt::Display for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finding = self.finding;
        match (finding.ply, finding.side) {
            (Some(_), Some(side)) if finding.in_variation => write!(
                f,
                "game {}, in a variation, {side}: {}",
                self.source.index, finding.message
            ),
            (Some(_), Some(side)) => {
                write!(f, "game {}, {side}: {}", self.source.index, finding.message)
            }
            _ => write!(f, "game {}: {}", self.source.index, finding.message),
        }
    }
}

impl std::error::Error for FindingDiagnostic<'_> {}

impl Diagnostic for FindingDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.finding.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.finding
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.finding.span?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(self.finding.label.clone(), span),
        )))
    }
}

/// Draws a diagnostic as text, with or without colour.
pub fn render(diagnostic: &dyn Diagnostic, color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    if handler.render_report(&mut out, diagnostic).is_err() {
        out = format!("{diagnostic}\n");
    }
    out
}

fn ordered_tags<S: serde::Serializer>(tags: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(tags.len()))?;
    for (k, v) in tags {
        map.serialize_entry(k, v)?;
    }
    map.end()
}
