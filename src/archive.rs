//! Whole folders of transcriptions: find the `.sgn` files, read them as streams, replay the games in
//! parallel, and report each game in file order for people (miette) and programs (JSON).

use crate::board::{BoardKind, Color};
use crate::notation::reader::count_newlines;
use crate::notation::{
    Game, GameSource, Limits, Reader, SyntaxError, input_name, is_stdin, open_input, printable,
};
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
    /// How each game is replayed.
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
    /// Byte offset in the file where the game starts.
    pub offset: u64,
    /// 1-based line where the game starts.
    pub line: u32,
    /// Tag names and values in the order read (the usual names are shared, not allocated).
    #[serde(serialize_with = "serialize_tags")]
    pub tags: Vec<(Cow<'static, str>, String)>,
    /// Valid, warnings or invalid: the worst diagnostic decides.
    pub status: Status,
    /// Main-line plies that could be played.
    pub plies: u32,
    /// How the game ended, if it did.
    pub outcome: Option<OutcomeReport>,
    /// The reader's and the replayer's diagnostics, in the order met.
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

/// How a game ended, in the shape of the JSON report.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeReport {
    /// The side that won; `null` for a draw or an undecided end.
    pub winner: Option<Color>,
    /// The exact margin; `null` for draws, when margins were not counted, or when only bounds
    /// could be proven (then `margin_bounds` holds them).
    pub margin: Option<u32>,
    /// The proven lower and (if a plan was found) upper bounds, when the exact count ran out of
    /// budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_bounds: Option<(u32, Option<u32>)>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// One diagnostic of a game, from the reader or the replayer, in the shape of the JSON report.
#[derive(Clone, Debug, Serialize)]
pub struct DiagnosticReport {
    /// The stable code (`salta::illegal-move`, `sgn::bad-square`).
    pub code: String,
    /// Error or warning.
    pub severity: Severity,
    /// The ply (1-based from the game's start) of the move concerned.
    pub ply: Option<u32>,
    /// The move number of the move concerned.
    pub move_number: Option<u32>,
    /// The side that made the move concerned.
    pub side: Option<Color>,
    /// 1-based line in the file.
    pub line: Option<u32>,
    /// 1-based column in the file.
    pub column: Option<u32>,
    /// What is wrong, in words.
    pub message: String,
    /// What would fix it, where that can be said.
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
    /// Files read.
    pub files: usize,
    /// Games checked, readable or not.
    pub games: usize,
    /// Games without a diagnostic.
    pub valid: usize,
    /// Games with warnings only.
    pub warnings: usize,
    /// Games with at least one error.
    pub invalid: usize,
    /// Bytes of the games checked.
    pub bytes: u64,
    /// Wall-clock seconds the run took.
    pub seconds: f64,
    /// Files that could not be read at all.
    pub io_errors: Vec<String>,
}

/// The files [`sgn_files`] found to read, and what it could not read or left out.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The files to read, in the order given (folders listed in name order).
    pub files: Vec<PathBuf>,
    /// Paths that do not exist or cannot be listed.
    pub errors: Vec<String>,
    /// What was left out (not a regular file, a folder already read) and what the user should
    /// know before reading starts (a FIFO waits for a writer).
    pub notes: Vec<String>,
}

/// Every `.sgn` file under the given paths, sorted within each folder. Paths given by name are
/// taken as given (a FIFO or device too, and `-` for standard input); in folders only regular
/// files and links to them are read, and every folder once, whatever the links (so a link loop
/// ends).
pub fn sgn_files(paths: &[PathBuf]) -> Inputs {
    let mut found = Inputs::default();
    let mut folders = Folders::default();
    for path in paths {
        if is_stdin(path) {
            found.files.push(path.clone());
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &meta, &mut found, &mut folders),
            Ok(meta) => {
                if let Some(kind) = special_kind(&meta).filter(|&k| k == "a FIFO") {
                    found.notes.push(format!(
                        "{} is {kind}: reading waits until a program opens it for writing",
                        path.display()
                    ));
                }
                found.files.push(path.clone());
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => found
                .errors
                .push(format!("{}: no such file or folder", path.display())),
            Err(e) => found.errors.push(format!("{}: {e}", path.display())),
        }
    }
    found
}

/// The folders read so far, by device and inode, with the path each was first read under.
#[derive(Default)]
struct Folders(std::collections::HashMap<(u64, u64), PathBuf>);

impl Folders {
    /// The path `dir` was already read under, or records it as read now.
    fn seen(&mut self, dir: &Path, meta: &std::fs::Metadata) -> Option<PathBuf> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match self.0.entry((meta.dev(), meta.ino())) {
                std::collections::hash_map::Entry::Occupied(first) => Some(first.get().clone()),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(dir.to_path_buf());
                    None
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _ = (dir, meta);
            None
        }
    }
}

fn walk(dir: &Path, meta: &std::fs::Metadata, found: &mut Inputs, folders: &mut Folders) {
    if let Some(first) = folders.seen(dir, meta) {
        found.notes.push(format!(
            "{}: skipped, the folder {} already read (a link loop or a second link to it)",
            dir.display(),
            first.display()
        ));
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            found.errors.push(format!("{}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let sgn = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgn"));
        // Followed through links: a link to a regular file is read, a link to a folder walked.
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => walk(&path, &meta, found, folders),
            Ok(meta) if sgn && meta.is_file() => found.files.push(path),
            Ok(meta) if sgn => found.notes.push(format!(
                "{}: skipped: {}, not a regular file",
                path.display(),
                special_kind(&meta).unwrap_or("a special file")
            )),
            Ok(_) => {}
            Err(e) if sgn => found.errors.push(format!("{}: {e}", path.display())),
            Err(_) => {}
        }
    }
}

/// What a file that is neither regular nor a folder is, for messages.
fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        [
            (t.is_fifo(), "a FIFO"),
            (t.is_char_device(), "a character device"),
            (t.is_block_device(), "a block device"),
            (t.is_socket(), "a socket"),
        ]
        .into_iter()
        .find_map(|(is, kind)| is.then_some(kind))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
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
/// totals; reading stops soon after `on_report` returns false (its reader went away). The games
/// are read and replayed in parallel by the module's pipeline (`read_in_order`), and numbered and
/// drawn here, in order.
pub fn check_files(
    files: &[PathBuf],
    opts: &CheckOptions,
    mut on_report: impl FnMut(&GameReport) -> bool,
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
    let board = opts.replay.rules.map(|r| r.board());
    summary.io_errors = read_in_order(files, piece_bytes, board, check, |file, mut report| {
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
        on_report(&report)
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
/// When `take` returns false, reading stops. `board`: see [`Reader::on_board`].
pub(crate) fn read_in_order<T: Send>(
    files: &[PathBuf],
    piece_bytes: usize,
    board: Option<BoardKind>,
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
                    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        work_piece(piece, board, work)
                    }));
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
        let name: Arc<str> = Arc::from(input_name(file));
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
    cut_input(open_input(path)?, file, name, cutter, buf)
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
    // No game has a line this long: a file with one is not SGN (or an endless device).
    let longest_line = Limits::default().game_bytes;
    while !eof || !buf.is_empty() {
        let line_start = buf.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let long_line = buf.len() - line_start > longest_line;
        if long_line {
            if line_start == 0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "line {line} (byte {offset}) is longer than {longest_line} bytes: not an \
                         SGN record; reading of the file stopped there"
                    ),
                ));
            }
        } else if !eof && buf.len() < piece_bytes {
            eof = read_more(buf)?;
            continue;
        }
        let cut = if long_line {
            // The lines before it, then the error above.
            line_start
        } else if eof {
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
    board: Option<BoardKind>,
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
        .starting_at(offset, line)
        .on_board(board);
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
    let (severity, status) = if e.code.is_warning() {
        (Severity::Warning, Status::Warnings)
    } else {
        (Severity::Error, Status::Invalid)
    };
    GameReport {
        file: file.clone(),
        game: e.game_index(),
        offset: e.game_offset(),
        line: e.game_line(),
        tags: e
            .tags
            .iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect(),
        status,
        // The main line's moves read before the error.
        plies: e
            .at
            .filter(|at| !at.in_variation)
            .map_or(0, |at| at.ply - 1),
        outcome: None,
        diagnostics: vec![DiagnosticReport {
            code: e.code().to_string(),
            severity,
            ply: e.at.map(|at| at.ply),
            move_number: e.at.map(|at| at.number),
            side: e.at.map(|at| at.side),
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
    // Placed in one pass over the text: a game may have tens of thousands of findings.
    let mut places = source
        .as_ref()
        .map(|source| {
            source.locations(
                findings
                    .iter()
                    .filter_map(|f| f.span)
                    .map(|s| s.start as usize),
            )
        })
        .unwrap_or_default()
        .into_iter();
    let diagnostics = findings
        .iter()
        .map(|f| {
            let (line, column) = f.span.and_then(|_| places.next()).unzip();
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
    /// The finding to draw.
    pub finding: &'a Finding,
    /// The game it is about: its text and place in the file.
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
            LabeledSpan::new_primary_with_span(
                self.finding.label.clone(),
                self.source.label_span(span),
            ),
        )))
    }
}

/// Draws a diagnostic as text, with or without colour. Lines are wrapped at spaces only, never
/// inside a move (`104-94`), and no control character of its texts reaches the terminal.
pub fn render(diagnostic: &dyn Diagnostic, color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace)
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
        .with_break_words(false);
    let printable = Printable(diagnostic);
    if handler.render_report(&mut out, &printable).is_err() {
        out = format!("{printable}\n");
    }
    out
}

/// A diagnostic whose texts are [`printable`] (its source code is a [`GameSource`], already so).
struct Printable<'a>(&'a dyn Diagnostic);

impl fmt::Debug for Printable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for Printable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&printable(&self.0.to_string(), true))
    }
}

impl std::error::Error for Printable<'_> {}

impl Diagnostic for Printable<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let code = self.0.code()?.to_string();
        Some(Box::new(printable(&code, false).into_owned()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.0.severity()
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let help = self.0.help()?.to_string();
        Some(Box::new(printable(&help, true).into_owned()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.0.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.0.labels()?.map(|label| {
            let text = label.label().map(|t| printable(t, false).into_owned());
            if label.primary() {
                LabeledSpan::new_primary_with_span(text, *label.inner())
            } else {
                LabeledSpan::new_with_span(text, *label.inner())
            }
        })))
    }
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
        let summary = check_files(&files, &opts, |r| {
            seen.push(r.game);
            true
        });
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
                        true
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
                    // A game broken by a syntax error (file 1, game 5) keeps the tags read.
                    let tag = format!("f{}g{}", file.unwrap(), r.game);
                    assert_eq!(r.tags[0].1, tag, "{context}");
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
