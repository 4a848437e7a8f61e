//! Whole folders of transcriptions: find the `.sgn` files, read them as streams, replay the games in
//! parallel, and report each game in file order for people (miette) and programs (JSON).

use crate::board::Color;
use crate::notation::reader::count_newlines;
use crate::notation::{Game, GameSource, Reader, SyntaxError};
use crate::repair::Suggestion;
use crate::replay::{Finding, MarginPolicy, ReplayOptions, Severity, Status, replay};
use crate::rules::EndReason;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How to check.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    pub replay: ReplayOptions,
    /// Render each game's findings for people; `Some(true)` with colour.
    pub render: Option<bool>,
    /// Bytes of a file handed to a worker at a time (0: 1 MiB, or 64 KiB when every margin is
    /// counted).
    pub piece_bytes: usize,
}

/// The report of one game, in the shape `salta check --format json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// The file's name, shared by all its games' reports.
    #[serde(serialize_with = "serialize_str")]
    pub file: Arc<str>,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// Byte offset and 1-based line where the game starts.
    pub offset: u64,
    pub line: u32,
    /// Tag names and values in the order read (the usual names are shared, not allocated).
    #[serde(serialize_with = "serialize_tags")]
    pub tags: Vec<(Cow<'static, str>, String)>,
    pub status: Status,
    pub plies: u32,
    pub outcome: Option<OutcomeReport>,
    pub diagnostics: Vec<DiagnosticReport>,
    /// The findings drawn for people (only with `CheckOptions::render`).
    #[serde(skip)]
    pub rendered: Option<String>,
    /// Bytes of the game's text.
    #[serde(skip)]
    pub size: usize,
    /// What to draw once the game's number in its file is known.
    #[serde(skip)]
    deferred: Option<Deferred>,
}

fn serialize_str<S: serde::Serializer>(text: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(text)
}

/// Tags as a JSON object in their order.
fn serialize_tags<S: serde::Serializer>(
    tags: &[(Cow<'static, str>, String)],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(tags.len()))?;
    for (name, value) in tags {
        map.serialize_entry(name, value)?;
    }
    map.end()
}

/// A game's findings waiting to be drawn.
#[derive(Clone, Debug)]
enum Deferred {
    Syntax(SyntaxError),
    Findings(GameSource, Vec<Finding>),
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
    /// For an error that breaks the main line: what the record may have meant, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<Suggestion>,
    /// Later moves that missed the same open jump again (reported only here).
    #[serde(skip_serializing_if = "is_zero")]
    pub repeats: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
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

/// Bytes of a file handed to a worker at a time (cut at a game boundary), and the most a piece may
/// grow to when no boundary turns up (the reader rejects games above 8 MB anyway). Small enough
/// that the workers start soon and finish the run together (the last piece is checked alone),
/// large enough that handing pieces over costs nothing next to checking them.
const PIECE_BYTES: usize = 1 << 20;
const MAX_PIECE_BYTES: usize = 64 << 20;
/// Pieces when every margin is counted: a game then takes about 30 ms instead of 20 µs, so pieces
/// of about 60 games keep the workers busy even on one small file.
const MARGIN_PIECE_BYTES: usize = 64 << 10;

/// A stretch of a file that starts at a game boundary, for one worker to read.
struct Piece {
    /// Place in the run: reports are handed on in this order.
    number: usize,
    name: Arc<str>,
    /// Which file (position in the list), so game numbers restart with each file.
    file: usize,
    bytes: Vec<u8>,
    offset: u64,
    line: u32,
}

/// A piece's games worked on, waiting to be handed on in order.
struct WorkedPiece<T> {
    number: usize,
    file: usize,
    items: Vec<T>,
    /// The piece's buffer, back for the cutter once the items are handed on.
    bytes: Vec<u8>,
}

/// Checks every game of the files, calling `on_report` for each game in file order, and returns the
/// totals. The games are read and replayed in parallel by [`read_in_order`], and numbered and
/// drawn here, in order.
pub fn check_files(
    files: &[PathBuf],
    opts: &CheckOptions,
    mut on_report: impl FnMut(&GameReport),
) -> Summary {
    let started = Instant::now();
    // Reports need no per-move replay records.
    let opts = &CheckOptions {
        replay: ReplayOptions {
            summary_only: true,
            ..opts.replay.clone()
        },
        ..opts.clone()
    };
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    let piece_bytes = piece_bytes(opts.piece_bytes, &opts.replay);
    let mut numbering = (usize::MAX, 0usize); // (file, games so far in it)
    let check = |_, name: &Arc<str>, item| match item {
        Err(e) => syntax_report(name, e),
        Ok(game) => game_report(name, game, opts),
    };
    summary.io_errors = read_in_order(files, piece_bytes, check, |file, mut report| {
        if numbering.0 != file {
            numbering = (file, 0);
        }
        numbering.1 += 1;
        finish(&mut report, numbering.1, opts);
        summary.games += 1;
        summary.bytes += report.size as u64;
        match report.status {
            Status::Valid => summary.valid += 1,
            Status::Warnings => summary.warnings += 1,
            Status::Invalid => summary.invalid += 1,
        }
        on_report(&report);
        true
    });
    summary.seconds = started.elapsed().as_secs_f64();
    summary
}

/// The size of the pieces files are cut into: `asked` (0: the default for replays with these
/// options).
pub(crate) fn piece_bytes(asked: usize, replay: &ReplayOptions) -> usize {
    match asked {
        0 if replay.margins == MarginPolicy::Always => MARGIN_PIECE_BYTES,
        0 => PIECE_BYTES,
        bytes => bytes,
    }
}

/// Reads the games of the files and hands them on, each worked on, in file order; returns the I/O
/// errors. A pipeline: one thread cuts the files into pieces of about `piece_bytes` at game
/// boundaries; as many workers as [`workers`] gives each take the next piece
/// as soon as they are free, read it and call `work` on each game (or the syntax error that broke
/// it) with the file's place in the list and its name; this thread puts the pieces back in order
/// and calls `take` with each result and the file's place in the list, while the workers go on.
/// When `take` returns false, reading stops.
pub(crate) fn read_in_order<T: Send>(
    files: &[PathBuf],
    piece_bytes: usize,
    work: impl Fn(usize, &Arc<str>, Result<Game, SyntaxError>) -> T + Sync,
    mut take: impl FnMut(usize, T) -> bool,
) -> Vec<String> {
    let workers = workers();
    let work = &work;
    std::thread::scope(|scope| {
        // Every piece travels in one of a fixed set of buffers that comes back to the cutter only
        // once the piece's reports are handed on: pieces cut but not yet reported (queued, being
        // checked, or checked and waiting for a slower one before them) stay below this count,
        // whatever the pieces' speeds. Reused buffers also spare the page faults of fresh ones.
        // The channels live in this closure so that a panic here drops them and frees the threads.
        let buffers = 4 * workers + 2;
        let (spare_sender, spare_receiver) = channel::<Vec<u8>>();
        for _ in 0..buffers {
            let _ = spare_sender.send(Vec::new());
        }
        let (piece_sender, piece_receiver) = channel::<Piece>();
        let piece_receiver = Arc::new(Mutex::new(piece_receiver));
        let (worked_sender, worked_receiver) = channel::<std::thread::Result<WorkedPiece<T>>>();
        let cutter =
            scope.spawn(move || cut_files(files, piece_bytes, piece_sender, spare_receiver));
        for _ in 0..workers {
            let (pieces, worked) = (piece_receiver.clone(), worked_sender.clone());
            scope.spawn(move || {
                // The lock is held only while waiting for a piece, not while working on it.
                while let Some(piece) = pieces.lock().ok().and_then(|p| p.recv().ok()) {
                    // A panic goes to this thread to be raised there: left here it would hold up
                    // the pieces after it, and the cutter waiting for their buffers, for ever.
                    let result =
                        std::panic::catch_unwind(AssertUnwindSafe(|| work_piece(piece, work)));
                    if worked.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(worked_sender);
        let mut waiting: BTreeMap<usize, WorkedPiece<T>> = BTreeMap::new();
        let mut next = 0;
        'pieces: for result in worked_receiver {
            let piece = result.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            waiting.insert(piece.number, piece);
            while let Some(piece) = waiting.remove(&next) {
                next += 1;
                for item in piece.items {
                    if !take(piece.file, item) {
                        // Without spare buffers the cutter stops, and without a receiver the
                        // workers do.
                        drop(spare_sender);
                        break 'pieces;
                    }
                }
                // The cutter may have finished: then the buffer is simply dropped.
                let _ = spare_sender.send(piece.bytes);
            }
        }
        cutter
            .join()
            .unwrap_or_else(|_| vec!["the file reader stopped unexpectedly".to_string()])
    })
}

/// How many workers check pieces: as many as the current rayon pool has threads (`--threads`).
#[cfg(feature = "parallel")]
fn workers() -> usize {
    rayon::current_num_threads().max(1)
}

/// How many workers check pieces: one without the `parallel` feature, so the games are worked on
/// one after the other, with the same results in the same order.
#[cfg(not(feature = "parallel"))]
fn workers() -> usize {
    1
}

/// The cutter's ends of the pipeline: pieces out, spare buffers back.
struct Cutter {
    piece_bytes: usize,
    pieces: Sender<Piece>,
    spares: Receiver<Vec<u8>>,
    /// Pieces sent so far: the next piece's number.
    sent: usize,
}

impl Cutter {
    /// A buffer for the next piece, once one is free; `None` when the checking has stopped.
    fn spare(&self) -> Option<Vec<u8>> {
        let mut buf = self.spares.recv().ok()?;
        buf.clear();
        Some(buf)
    }
}

/// Cuts the files into pieces at game boundaries and sends them on. Returns the I/O errors.
fn cut_files(
    files: &[PathBuf],
    piece_bytes: usize,
    pieces: Sender<Piece>,
    spares: Receiver<Vec<u8>>,
) -> Vec<String> {
    let mut errors = Vec::new();
    let mut cutter = Cutter {
        piece_bytes,
        pieces,
        spares,
        sent: 0,
    };
    let Some(mut buf) = cutter.spare() else {
        return errors;
    };
    for (index, file) in files.iter().enumerate() {
        let name: Arc<str> = Arc::from(file.display().to_string());
        // A file that failed part-way leaves its unsent rest behind.
        buf.clear();
        match cut_file(file, index, &name, &mut cutter, &mut buf) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => errors.push(format!("{name}: {e}")),
        }
    }
    errors
}

/// Cuts one file, starting in `buf` and leaving an empty spare buffer there. False when the
/// checking has stopped.
fn cut_file(
    path: &Path,
    file: usize,
    name: &Arc<str>,
    cutter: &mut Cutter,
    buf: &mut Vec<u8>,
) -> std::io::Result<bool> {
    cut_input(std::fs::File::open(path)?, file, name, cutter, buf)
}

/// [`cut_file`] on what was opened. On a read error the pieces already sent stay sent (their games
/// are checked) and the rest of the input is left behind: the error names the file.
fn cut_input(
    mut input: impl std::io::Read,
    file: usize,
    name: &Arc<str>,
    cutter: &mut Cutter,
    buf: &mut Vec<u8>,
) -> std::io::Result<bool> {
    use std::io::Read;
    let piece_bytes = cutter.piece_bytes;
    let (mut offset, mut line) = (0u64, 1u32);
    let mut eof = false;
    // Appends up to one piece's worth of the file; true at the end of the file.
    let mut read_more = |buf: &mut Vec<u8>| -> std::io::Result<bool> {
        let before = buf.len();
        // Room for the whole piece at once: growing the buffer step by step copies it repeatedly.
        buf.reserve(piece_bytes);
        (&mut input).take(piece_bytes as u64).read_to_end(buf)?;
        Ok(buf.len() == before)
    };
    while !eof || !buf.is_empty() {
        if !eof && buf.len() < piece_bytes {
            eof = read_more(buf)?;
            continue;
        }
        let cut = if eof {
            buf.len()
        } else {
            match game_boundary(buf) {
                Some(cut) => cut,
                None if buf.len() < MAX_PIECE_BYTES.max(piece_bytes) => {
                    eof = read_more(buf)?;
                    continue;
                }
                None => buf
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(buf.len(), |p| p + 1),
            }
        };
        // The rest starts the next piece, in a spare buffer.
        let Some(mut next) = cutter.spare() else {
            return Ok(false);
        };
        next.extend_from_slice(&buf[cut..]);
        buf.truncate(cut);
        let bytes = std::mem::replace(buf, next);
        let newlines = u32::try_from(count_newlines(&bytes)).unwrap_or(u32::MAX);
        let piece = Piece {
            number: cutter.sent,
            name: name.clone(),
            file,
            offset,
            line,
            bytes,
        };
        offset += piece.bytes.len() as u64;
        line = line.saturating_add(newlines);
        if cutter.pieces.send(piece).is_err() {
            return Ok(false);
        }
        cutter.sent += 1;
    }
    Ok(true)
}

/// The start of the last tag section that follows a blank line: a place where the reader would
/// end a game in any case (even an unclosed comment may not run into the next game's tags).
fn game_boundary(buf: &[u8]) -> Option<usize> {
    let mut end = buf.len();
    while let Some(p) = buf[..end].windows(2).rposition(|w| w == b"\n[") {
        let line_start = p + 1;
        let previous = buf[..p]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |q| q + 1);
        if previous > 0 && buf[previous..p].iter().all(|b| b.is_ascii_whitespace()) {
            return Some(line_start);
        }
        end = p;
    }
    None
}

/// Reads the games of one piece and works on each (handed on later, in order).
fn work_piece<T>(
    piece: Piece,
    work: &impl Fn(usize, &Arc<str>, Result<Game, SyntaxError>) -> T,
) -> WorkedPiece<T> {
    let Piece {
        number,
        name,
        file,
        bytes,
        offset,
        line,
    } = piece;
    // The reader takes the piece's buffer over instead of copying it.
    let mut reader = Reader::from_bytes(bytes)
        .with_name(&*name)
        .starting_at(offset, line);
    let items = reader
        .by_ref()
        .map(|item| work(file, &name, item))
        .collect();
    WorkedPiece {
        number,
        file,
        items,
        bytes: reader.into_buffer(),
    }
}

/// Numbers a game's report within its file and draws its findings if asked.
fn finish(report: &mut GameReport, index: usize, opts: &CheckOptions) {
    report.game = index;
    let deferred = report.deferred.take();
    let (Some(color), Some(deferred)) = (opts.render, deferred) else {
        return;
    };
    report.rendered = Some(match deferred {
        Deferred::Syntax(mut e) => {
            e.source.index = index;
            render(&e, color)
        }
        Deferred::Findings(mut source, findings) => {
            source.index = index;
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
                .collect()
        }
    });
}

fn syntax_report(file: &Arc<str>, e: SyntaxError) -> GameReport {
    let (line, column) = e.location();
    GameReport {
        file: file.clone(),
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
            suggestions: Vec::new(),
            repeats: 0,
        }],
        rendered: None,
        size: e.source.text().len(),
        deferred: Some(Deferred::Syntax(e)),
    }
}

/// Replays a game and builds its report (numbered and drawn later by [`check_files`]). The game
/// is consumed: its tags move into the report.
pub fn game_report(file: &Arc<str>, game: Game, opts: &CheckOptions) -> GameReport {
    let replayed = replay(&game, &opts.replay);
    let (plies, outcome) = (replayed.plies(), replayed.outcome);
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
            suggestions: Vec::new(),
            repeats: 0,
        })
        .collect();
    findings.extend(crate::repair::annotate(
        &game,
        &opts.replay,
        replayed.findings,
    ));
    let status = Status::of(&findings);
    // The source (a copy of the game's text) is only needed to place and draw findings.
    let source = (!findings.is_empty()).then(|| game_source(file, 0, &game));
    let diagnostics = findings
        .iter()
        .map(|f| {
            let (line, column) = f
                .span
                .zip(source.as_ref())
                .map(|(s, source)| source.location(s.range().start))
                .unzip();
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
                suggestions: f.suggestions.clone(),
                repeats: f.repeats,
            }
        })
        .collect();
    let size = game.text.len();
    let deferred = source
        .filter(|_| opts.render.is_some())
        .map(|source| Deferred::Findings(source, findings));
    GameReport {
        file: file.clone(),
        game: 0,
        offset: game.offset,
        line: game.line,
        tags: game.tags.into_iter().map(|t| (t.name, t.value)).collect(),
        status,
        plies,
        outcome: outcome.map(|o| OutcomeReport {
            winner: o.winner,
            margin: o.margin.and_then(|m| m.exact()),
            margin_bounds: o.margin.and_then(|m| m.bounds()),
            reason: o.reason,
        }),
        diagnostics,
        rendered: None,
        size,
        deferred,
    }
}

/// The source of a game for diagnostics, with its place in the file.
pub fn game_source(file: &Arc<str>, index: usize, game: &Game) -> GameSource {
    GameSource::new(
        file.clone(),
        "",
        &game.text,
        game.offset,
        game.line,
        game.column,
        index,
    )
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

#[cfg(test)]
mod tests {
    use super::{CheckOptions, Cutter, check_files, cut_input, game_boundary};
    use crate::replay::{MarginPolicy, ReplayOptions, Status};
    use std::sync::Arc;
    use std::sync::mpsc::channel;

    /// Gives its bytes, then fails: a disk or network error in the middle of a file.
    struct FailsAfter(std::io::Cursor<Vec<u8>>);

    impl std::io::Read for FailsAfter {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            match self.0.read(out)? {
                0 => Err(std::io::Error::other("the disk went away")),
                n => Ok(n),
            }
        }
    }

    #[test]
    fn a_read_error_mid_file_keeps_the_pieces_sent_and_is_returned() {
        let games: String = (1..=6)
            .map(|g| format!("[Event \"g{g}\"]\n\n1. 33-43 *\n\n"))
            .collect();
        let (pieces, received) = channel();
        let (spare, spares) = channel();
        for _ in 0..16 {
            spare.send(Vec::new()).unwrap();
        }
        let mut cutter = Cutter {
            piece_bytes: 1,
            pieces,
            spares,
            sent: 0,
        };
        let name: Arc<str> = Arc::from("broken.sgn");
        let input = FailsAfter(std::io::Cursor::new(games.clone().into_bytes()));
        let result = cut_input(input, 0, &name, &mut cutter, &mut Vec::new());
        let error = result.expect_err("the read error comes back");
        assert_eq!(error.to_string(), "the disk went away");
        drop(cutter);
        let sent: Vec<(u64, String)> = received
            .iter()
            .map(|piece| (piece.offset, String::from_utf8(piece.bytes).unwrap()))
            .collect();
        // Pieces of one game each, every game but the last (which waits for the rest of the
        // file), at their places in the file.
        assert_eq!(sent.len(), 5);
        let mut offset = 0;
        for (at, text) in &sent {
            assert_eq!(
                (*at, text.as_str()),
                (offset, &games[offset as usize..][..text.len()])
            );
            offset += text.len() as u64;
        }
        assert_eq!(offset as usize, games.rfind("[Event").unwrap());
    }

    #[test]
    fn a_file_that_fails_to_read_is_reported_and_the_next_files_are_checked() {
        let dir =
            std::env::temp_dir().join(format!("salta-archive-failing-{}", std::process::id()));
        let good = numbered_games(&dir, &[3]);
        // A directory opens as a file on Linux and fails on the first read; elsewhere the opening
        // fails. Either way: an error for it, and the file after it checked in full.
        let unreadable = dir.join("a-directory.sgn");
        std::fs::create_dir_all(&unreadable).unwrap();
        let files = vec![unreadable.clone(), good[0].clone()];
        let opts = CheckOptions {
            replay: ReplayOptions {
                margins: MarginPolicy::Never,
                ..ReplayOptions::default()
            },
            render: Some(false),
            piece_bytes: 1,
        };
        let mut seen = Vec::new();
        let summary = check_files(&files, &opts, |r| seen.push(r.game));
        assert_eq!(seen, [1, 2, 3]);
        assert_eq!(summary.io_errors.len(), 1);
        assert!(
            summary.io_errors[0].starts_with(&unreadable.display().to_string()),
            "{:?}",
            summary.io_errors
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn boundaries_are_tag_sections_after_a_blank_line() {
        let text = b"[Event \"a\"]\n[Site \"b\"]\n\n1. 33-43 *\n\n[Event \"c\"]\n\n1. 33-43 *\n";
        let cut = game_boundary(text).unwrap();
        assert!(text[cut..].starts_with(b"[Event \"c\"]"));
        // Between two tag lines of one game there is no boundary.
        assert_eq!(game_boundary(b"[Event \"a\"]\n[Site \"b\"]\n"), None);
        assert_eq!(game_boundary(b"[Event \"a\"]\n"), None);
    }

    /// The numbers of workers the pipeline is tested with (one without the `parallel` feature).
    #[cfg(feature = "parallel")]
    const WORKER_COUNTS: [usize; 3] = [1, 2, 5];
    #[cfg(not(feature = "parallel"))]
    const WORKER_COUNTS: [usize; 1] = [1];

    /// Runs `f` with `threads` workers checking.
    #[cfg(feature = "parallel")]
    fn with_workers<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
        pool.unwrap().install(f)
    }

    /// Runs `f` with the one worker there is.
    #[cfg(not(feature = "parallel"))]
    fn with_workers<T>(_threads: usize, f: impl FnOnce() -> T) -> T {
        f()
    }

    /// Files of one-line games named after their file and number; in the second file game 3 makes
    /// an illegal move and game 5 is not even readable.
    fn numbered_games(dir: &std::path::Path, games: &[usize]) -> Vec<std::path::PathBuf> {
        std::fs::create_dir_all(dir).unwrap();
        games
            .iter()
            .enumerate()
            .map(|(file, &count)| {
                let text: String = (1..=count)
                    .map(|game| {
                        let moves = match (file, game) {
                            (1, 3) => "1. 33-55 *",
                            (1, 5) => "1. 33-4x *",
                            _ => "1. 33-43 83-73 *",
                        };
                        format!("[Event \"f{file}g{game}\"]\n\n{moves}\n\n")
                    })
                    .collect();
                let path = dir.join(format!("{file}.sgn"));
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect()
    }

    #[test]
    fn many_pieces_come_back_in_file_order_numbered_per_file() {
        let dir = std::env::temp_dir().join(format!("salta-archive-order-{}", std::process::id()));
        let counts = [5, 40, 1, 17];
        let files = numbered_games(&dir, &counts);
        let opts = |piece_bytes| CheckOptions {
            replay: ReplayOptions {
                margins: MarginPolicy::Never,
                ..ReplayOptions::default()
            },
            render: Some(false),
            piece_bytes,
        };
        // Every game is four lines: its tag, a blank line, its moves, a blank line.
        let expected: Vec<(String, usize, u32)> = files
            .iter()
            .zip(counts)
            .flat_map(|(path, count)| {
                (1..=count).map(move |game| (path.display().to_string(), game, 4 * game as u32 - 3))
            })
            .collect();
        // Pieces of one byte (cut after every game), of a few games, and one piece per file.
        for threads in WORKER_COUNTS {
            for piece_bytes in [1, 90, 0] {
                let mut seen = Vec::new();
                let summary = with_workers(threads, || {
                    check_files(&files, &opts(piece_bytes), |r| {
                        seen.push(r.clone());
                    })
                });
                let context = format!("{threads} threads, pieces of {piece_bytes} bytes");
                let places: Vec<(String, usize, u32)> = seen
                    .iter()
                    .map(|r| (r.file.to_string(), r.game, r.line))
                    .collect();
                assert_eq!(places, expected, "{context}");
                for r in &seen {
                    let file = files
                        .iter()
                        .position(|f| *r.file == *f.display().to_string());
                    let tag = format!("f{}g{}", file.unwrap(), r.game);
                    match (file, r.game) {
                        (Some(1), 5) => assert!(r.tags.is_empty(), "{context}"),
                        _ => assert_eq!(r.tags[0].1, tag, "{context}"),
                    }
                    if (file, r.game) == (Some(1), 3) {
                        let drawn = r.rendered.as_deref().unwrap_or_default();
                        assert!(drawn.contains("game 3, Green"), "{context}: {drawn}");
                    }
                }
                assert_eq!(summary.games, counts.iter().sum::<usize>(), "{context}");
                assert_eq!(summary.invalid, 2, "{context}");
                assert_eq!(
                    seen.iter().filter(|r| r.status == Status::Invalid).count(),
                    2
                );
                assert!(summary.io_errors.is_empty(), "{context}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
