//! The parallel pipeline: one thread cuts the files into pieces at game boundaries, workers read
//! and work on the pieces' games, and the results are handed on in file order.

use crate::board::BoardKind;
use crate::notation::reader::{
    HEAD_BYTES, Head, Oversized, judge_head, oversized_error, swap_cr_lf, whole_games,
};
use crate::notation::{Game, Limits, Reader, SyntaxError, count_newlines, input_name, open_input};
use crate::replay::{MarginPolicy, ReplayOptions};
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// Bytes of a file handed to a worker at a time (cut at a game boundary). Small enough that the
/// workers start soon and finish the run together (the last piece is checked alone), large
/// enough that handing pieces over costs nothing next to checking them. A piece grows past this
/// only while no boundary turns up, up to the size of the largest game the reader takes; beyond
/// that the game is oversized and passed on in parts as it is read.
const PIECE_BYTES: usize = 1 << 20;
/// Pieces when every margin is counted: a game then takes about 30 ms instead of 20 µs, so pieces
/// of about 60 games keep the workers busy even on one small file.
const MARGIN_PIECE_BYTES: usize = 64 << 10;
/// Bytes read from a file at a time: few enough to stay in the core's cache until counted.
const READ_CHUNK_BYTES: usize = 64 << 10;

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
    /// CR and LF are swapped in `bytes` (a CR-only file, read as the reader reads it).
    cr_lines: bool,
    /// A part of an oversized game, passed on as read instead of read.
    oversized: Option<OversizedPart>,
}

/// A part of a game larger than the reader takes, passed on as read: the game is never held
/// whole, whatever its size.
#[derive(Clone, Debug)]
pub(crate) struct OversizedPart {
    /// Where the game starts, and its first bytes (for its error).
    game: Arc<OversizedStart>,
    /// The game's first part.
    pub(crate) first: bool,
    /// The game's last part.
    pub(crate) last: bool,
    /// Bytes of the game up to the end of this part.
    pub(crate) total: u64,
}

#[derive(Debug)]
struct OversizedStart {
    offset: u64,
    line: u32,
    /// Its first bytes, as the reader reads them.
    head: Vec<u8>,
}

impl OversizedPart {
    /// The game's error (`sgn::game-too-large`), as the reader gives it for a game it holds.
    pub(crate) fn error(&self, name: &str) -> SyntaxError {
        let game = &self.game;
        oversized_error(name, &game.head, game.offset, game.line)
    }
}

/// What a worker is handed: a piece's reader, or a part of an oversized game and its bytes as
/// read.
pub(crate) enum PieceInput<'a> {
    Games(&'a mut PieceReader),
    Oversized(&'a OversizedPart, &'a [u8]),
}

/// A piece's games worked on, waiting to be handed on in order.
struct WorkedPiece<T> {
    number: usize,
    file: usize,
    /// The results, in a vector that goes back to the workers once they are handed on.
    items: Vec<T>,
    /// The piece's buffer, back for the cutter once the items are handed on.
    bytes: Vec<u8>,
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
    take: impl FnMut(usize, T) -> bool,
) -> Vec<String> {
    // An oversized game is one item, its error, at its first part.
    let read = |file, name: &Arc<str>, input: PieceInput, items: &mut Vec<T>| match input {
        PieceInput::Games(reader) => items.extend(reader.map(|item| work(file, name, item))),
        PieceInput::Oversized(part, _) if part.first => {
            items.push(work(file, name, Err(part.error(name))));
        }
        PieceInput::Oversized(..) => {}
    };
    visit_in_order(files, piece_bytes, board, read, take)
}

/// The reader of one piece of a file.
pub(crate) type PieceReader = Reader<std::io::Empty>;

/// [`read_in_order`], where `work` reads the games of a piece itself from the piece's reader
/// (with a [`Visitor`](crate::notation::Visitor) of its choice) and puts what it makes of each in
/// the (empty) vector given: a vector whose results were handed on, back from this thread so that
/// it does not grow again piece after piece. A game larger than the reader takes comes to `work`
/// in parts as read ([`PieceInput::Oversized`]), in order.
pub(crate) fn visit_in_order<T: Send>(
    files: &[PathBuf],
    piece_bytes: usize,
    board: Option<BoardKind>,
    work: impl Fn(usize, &Arc<str>, PieceInput, &mut Vec<T>) + Sync,
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
        // The vectors of results handed on, empty, back to the workers.
        let (spent_sender, spent_receiver) = channel::<Vec<T>>();
        let spent_receiver = Arc::new(Mutex::new(spent_receiver));
        let cutter =
            scope.spawn(move || cut_files(files, piece_bytes, piece_sender, spare_receiver));
        for _ in 0..workers {
            let (pieces, worked) = (piece_receiver.clone(), worked_sender.clone());
            let spent = spent_receiver.clone();
            scope.spawn(move || {
                // The lock is held only while waiting for a piece, not while working on it.
                while let Some(piece) = pieces.lock().ok().and_then(|p| p.recv().ok()) {
                    let items = (spent.lock().ok())
                        .and_then(|spent| spent.try_recv().ok())
                        .unwrap_or_default();
                    // A panic goes to this thread to be raised there: left here it would hold up
                    // the pieces after it, and the cutter waiting for their buffers, for ever.
                    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        work_piece(piece, board, work, items)
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
            while let Some(mut piece) = waiting.remove(&next) {
                next += 1;
                for item in piece.items.drain(..) {
                    if !take(piece.file, item) {
                        // Without spare buffers the cutter stops, and without a receiver the
                        // workers do.
                        drop(spare_sender);
                        break 'pieces;
                    }
                }
                // The cutter may have finished: then the buffer is simply dropped.
                let _ = spare_sender.send(piece.bytes);
                let _ = spent_sender.send(piece.items);
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

/// [`cut_file`] on what was opened. A file whose head is not text (a NUL byte, UTF-16) is one
/// piece, its head, whose reader says so: the rest is never read. On a read error the pieces
/// already sent stay sent (their games are checked) and the rest of the input is left behind: the
/// error names the file.
fn cut_input(
    input: impl std::io::Read,
    file: usize,
    name: &Arc<str>,
    cutter: &mut Cutter,
    buf: &mut Vec<u8>,
) -> std::io::Result<bool> {
    let mut cut = FileCut {
        input,
        file,
        name: name.clone(),
        offset: 0,
        line: 1,
        eof: false,
        newlines: 0,
        cr_lines: false,
    };
    // The head, to judge the file by. A read error there still lets the whole games read before
    // it be checked.
    while !cut.eof && buf.len() < HEAD_BYTES {
        if let Err(e) = cut.read_more(buf, HEAD_BYTES - buf.len()) {
            if let Some(at) = game_boundary(buf)
                && judge_head(buf) == Head::Text
            {
                cut.send(cutter, buf, at, None);
            }
            return Err(e);
        }
    }
    match judge_head(buf) {
        Head::Binary | Head::Utf16 => return Ok(cut.send(cutter, buf, buf.len(), None)),
        Head::CrLines => {
            cut.cr_lines = true;
            swap_cr_lf(buf);
        }
        Head::Text => {}
    }
    // No game is larger: beyond this without a place to cut, a game is oversized.
    let game_bytes = Limits::default().game_bytes;
    let piece_bytes = cutter.piece_bytes;
    // The buffer's bytes before this hold no boundary.
    let mut searched = 0;
    loop {
        if !cut.eof && buf.len() < piece_bytes {
            cut.read_more(buf, piece_bytes)?;
            continue;
        }
        if buf.is_empty() {
            break;
        }
        let at = match (cut.eof, game_boundary_after(buf, searched)) {
            (true, _) => buf.len(),
            (false, Some(at)) => at,
            (false, None) if buf.len() <= game_bytes => {
                searched = buf.len();
                cut.read_more(buf, piece_bytes)?;
                continue;
            }
            // No blank line before a tag line in all that: the whole games in it, or else the
            // game at the start is oversized.
            (false, None) => match whole_games(buf) {
                0 => {
                    if !cut.pass_oversized(cutter, buf)? {
                        return Ok(false);
                    }
                    searched = 0;
                    continue;
                }
                at => at,
            },
        };
        if !cut.send(cutter, buf, at, None) {
            return Ok(false);
        }
        searched = 0;
    }
    // An empty file is one empty piece, whose reader says that it holds no game.
    if cut.offset == 0 && !cut.send(cutter, buf, 0, None) {
        return Ok(false);
    }
    Ok(true)
}

/// The cutting of one file: the input, and where the bytes in the buffer start in it.
struct FileCut<R> {
    input: R,
    file: usize,
    name: Arc<str>,
    /// File offset and line of the buffer's first byte.
    offset: u64,
    line: u32,
    eof: bool,
    /// The newlines in the buffer, counted as it is read.
    newlines: usize,
    /// CR and LF are swapped as read (the file's lines end in CR alone).
    cr_lines: bool,
}

impl<R: std::io::Read> FileCut<R> {
    /// Appends up to `wanted` bytes of the file (a chunk at a time, each counted while it is still
    /// in the core's cache: counted after a whole piece's reading, the bytes would come from
    /// memory again); notes the end of the file.
    fn read_more(&mut self, buf: &mut Vec<u8>, wanted: usize) -> std::io::Result<()> {
        use std::io::Read;
        let before = buf.len();
        // Room for all at once: growing the buffer step by step copies it repeatedly.
        buf.reserve(wanted);
        while buf.len() - before < wanted {
            let chunk = buf.len();
            let asked = (wanted - (chunk - before)).min(READ_CHUNK_BYTES);
            // On an error the bytes read before it stay in the buffer: counted too.
            let read = (&mut self.input).take(asked as u64).read_to_end(buf);
            if self.cr_lines {
                swap_cr_lf(&mut buf[chunk..]);
            }
            self.newlines += count_newlines(&buf[chunk..]);
            if read? == 0 {
                break;
            }
        }
        if buf.len() == before {
            self.eof = true;
        }
        Ok(())
    }

    /// Sends the first `at` bytes of the buffer on as a piece (a part of an oversized game if
    /// `oversized`), keeping the rest in a spare buffer. False when the checking has stopped.
    fn send(
        &mut self,
        cutter: &mut Cutter,
        buf: &mut Vec<u8>,
        at: usize,
        oversized: Option<OversizedPart>,
    ) -> bool {
        let Some(mut next) = cutter.spare() else {
            return false;
        };
        next.extend_from_slice(&buf[at..]);
        buf.truncate(at);
        let bytes = std::mem::replace(buf, next);
        let rest_newlines = count_newlines(buf);
        let piece_newlines = u32::try_from(self.newlines - rest_newlines).unwrap_or(u32::MAX);
        self.newlines = rest_newlines;
        let piece = Piece {
            number: cutter.sent,
            name: self.name.clone(),
            file: self.file,
            offset: self.offset,
            line: self.line,
            cr_lines: self.cr_lines,
            oversized,
            bytes,
        };
        self.offset += piece.bytes.len() as u64;
        self.line = self.line.saturating_add(piece_newlines);
        if cutter.pieces.send(piece).is_err() {
            return false;
        }
        cutter.sent += 1;
        true
    }

    /// Passes on the oversized game that starts the buffer, part by part as it is read, up to
    /// where the next game starts (left in the buffer). False when the checking has stopped.
    fn pass_oversized(&mut self, cutter: &mut Cutter, buf: &mut Vec<u8>) -> std::io::Result<bool> {
        let game = Arc::new(OversizedStart {
            offset: self.offset,
            line: self.line,
            head: buf[..buf.len().min(256)].to_vec(),
        });
        let mut state = Oversized::at(buf);
        let (mut first, mut total) = (true, 0);
        loop {
            let end = state.end_in(buf);
            let last = end.is_some() || self.eof;
            let at = end.unwrap_or(buf.len());
            total += at as u64;
            let part = OversizedPart {
                game: game.clone(),
                first,
                last,
                total,
            };
            if !self.send(cutter, buf, at, Some(part)) {
                return Ok(false);
            }
            if last {
                return Ok(true);
            }
            first = false;
            self.read_more(buf, cutter.piece_bytes.max(READ_CHUNK_BYTES))?;
        }
    }
}

/// The start of the last tag section that follows a blank line: a place where the reader would
/// end a game in any case (even an unclosed comment may not run into the next game's tags).
fn game_boundary(buf: &[u8]) -> Option<usize> {
    game_boundary_after(buf, 0)
}

/// [`game_boundary`], of the tag sections that start after `from` (the rest was searched before,
/// in vain: a buffer growing a read at a time is searched once, not once a read).
fn game_boundary_after(buf: &[u8], from: usize) -> Option<usize> {
    // A tag section starting after `from` has its "\n[" at `from` - 1 or later.
    let first = from.saturating_sub(1);
    let mut end = buf.len();
    while let Some(p) = buf[first..end.max(first)]
        .windows(2)
        .rposition(|w| w == b"\n[")
        .map(|p| first + p)
    {
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

/// Reads the games of one piece and works on each (handed on later, in order), into `items`.
fn work_piece<T>(
    piece: Piece,
    board: Option<BoardKind>,
    work: &impl Fn(usize, &Arc<str>, PieceInput, &mut Vec<T>),
    mut items: Vec<T>,
) -> WorkedPiece<T> {
    let Piece {
        number,
        name,
        file,
        mut bytes,
        offset,
        line,
        cr_lines,
        oversized,
    } = piece;
    if let Some(part) = oversized {
        if cr_lines {
            swap_cr_lf(&mut bytes);
        }
        work(
            file,
            &name,
            PieceInput::Oversized(&part, &bytes),
            &mut items,
        );
        return WorkedPiece {
            number,
            file,
            items,
            bytes,
        };
    }
    // The reader takes the piece's buffer over instead of copying it.
    let mut reader = Reader::from_bytes(bytes)
        .with_name(&*name)
        .starting_at(offset, line)
        .swapped_cr_lines(cr_lines)
        .on_board(board);
    work(file, &name, PieceInput::Games(&mut reader), &mut items);
    WorkedPiece {
        number,
        file,
        items,
        bytes: reader.into_buffer(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Cutter, cut_input, game_boundary};
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
        // Every game but the last (which waits for the rest of the file), at their places in the
        // file (here in one piece: the error came while the file's head was read).
        assert!(!sent.is_empty());
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

    /// Pieces larger than a read (their newlines counted chunk by chunk, a game's rest carried
    /// over into the next piece) start at the line their offset is on.
    #[test]
    fn pieces_of_many_reads_start_on_their_lines() {
        let games: String = (1..=20_000)
            .map(|g| format!("[Event \"g{g}\"]\n{}\n1. 33-43 *\n\n", "\n".repeat(g % 7)))
            .collect();
        for piece_bytes in [1000, super::READ_CHUNK_BYTES - 1, 100_000] {
            let (pieces, received) = channel();
            let (spare, spares) = channel();
            let mut cutter = Cutter {
                piece_bytes,
                pieces,
                spares,
                sent: 0,
            };
            let name: Arc<str> = Arc::from("many.sgn");
            let text = games.clone();
            let sender = std::thread::spawn(move || {
                let input = std::io::Cursor::new(text.into_bytes());
                let done = cut_input(input, 0, &name, &mut cutter, &mut Vec::new());
                assert!(done.unwrap());
            });
            let (mut offset, mut line, mut count) = (0, 1, 0);
            for _ in 0..4 {
                spare.send(Vec::new()).unwrap();
            }
            for piece in received {
                assert_eq!((piece.offset, piece.line), (offset, line), "{piece_bytes}");
                offset += piece.bytes.len() as u64;
                line += piece.bytes.iter().filter(|&&b| b == b'\n').count() as u32;
                count += 1;
                // The buffer back, as the pipeline gives it back once the piece is worked on.
                let _ = spare.send(piece.bytes);
            }
            sender.join().unwrap();
            assert!(count > 2, "{piece_bytes}: {count} pieces");
        }
    }

    /// A game larger than the reader takes is passed on in parts, never one piece: the parts
    /// hold it exactly, the first and last marked, and the game after it starts a piece of its
    /// own. Games written without blank lines between them are cut where they end.
    #[test]
    fn an_oversized_game_goes_in_parts_and_games_without_blank_lines_are_cut_whole() {
        let small = |g: usize| format!("[Event \"g{g}\"]\n1. 33-43 *\n");
        let before: String = (0..200_000).map(small).collect();
        let big = format!(
            "[Event \"big\"]\n\n1. 33-43 {{{}}} *\n\n",
            "x".repeat(9 << 20)
        );
        let text = format!("{before}{big}{}", small(0));
        let (pieces, received) = channel();
        let (spare, spares) = channel();
        let mut cutter = Cutter {
            piece_bytes: 1 << 16,
            pieces,
            spares,
            sent: 0,
        };
        for _ in 0..4 {
            spare.send(Vec::new()).unwrap();
        }
        let name: Arc<str> = Arc::from("big.sgn");
        let input = text.clone().into_bytes();
        let sender = std::thread::spawn(move || {
            cut_input(input.as_slice(), 0, &name, &mut cutter, &mut Vec::new()).unwrap()
        });
        let (mut offset, mut oversized, mut largest) = (0, Vec::new(), 0);
        for piece in received {
            assert_eq!(piece.offset, offset);
            offset += piece.bytes.len() as u64;
            largest = largest.max(piece.bytes.len());
            match &piece.oversized {
                Some(part) => {
                    assert_eq!(part.first, oversized.is_empty());
                    oversized.extend_from_slice(&piece.bytes);
                    assert_eq!(part.total, oversized.len() as u64);
                    if part.last {
                        assert_eq!(oversized, big.as_bytes());
                    }
                }
                // Whole games only, but for the bytes after the big game.
                None if oversized.is_empty() => {
                    assert!(piece.bytes.ends_with(b"*\n"));
                    assert!(piece.bytes.starts_with(b"[Event \"g"));
                }
                None => assert_eq!(piece.bytes, small(0).as_bytes()),
            }
            let _ = spare.send(piece.bytes);
        }
        assert!(sender.join().unwrap());
        assert_eq!(offset, text.len() as u64);
        assert!(largest <= (8 << 20) + (1 << 16) + (64 << 10), "{largest}");
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
}
