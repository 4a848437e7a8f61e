//! The parallel pipeline: one thread cuts the files into pieces at game boundaries, workers read
//! and work on the pieces' games, and the results are handed on in file order.

use crate::board::BoardKind;
use crate::notation::reader::count_newlines;
use crate::notation::{Game, Limits, Reader, SyntaxError, input_name, open_input};
use crate::replay::{MarginPolicy, ReplayOptions};
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// Bytes of a file handed to a worker at a time (cut at a game boundary), and the most a piece may
/// grow to when no boundary turns up (the reader rejects games above 8 MB anyway). Small enough
/// that the workers start soon and finish the run together (the last piece is checked alone),
/// large enough that handing pieces over costs nothing next to checking them.
const PIECE_BYTES: usize = 1 << 20;
const MAX_PIECE_BYTES: usize = 64 << 20;
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
    let read = |file, name: &Arc<str>, reader: &mut PieceReader, items: &mut Vec<T>| {
        items.extend(reader.map(|item| work(file, name, item)));
    };
    visit_in_order(files, piece_bytes, board, read, take)
}

/// The reader of one piece of a file.
pub(crate) type PieceReader = Reader<std::io::Empty>;

/// [`read_in_order`], where `work` reads the games of a piece itself from the piece's reader
/// (with a [`Visitor`](crate::notation::Visitor) of its choice) and puts what it makes of each in
/// the (empty) vector given: a vector whose results were handed on, back from this thread so that
/// it does not grow again piece after piece.
pub(crate) fn visit_in_order<T: Send>(
    files: &[PathBuf],
    piece_bytes: usize,
    board: Option<BoardKind>,
    work: impl Fn(usize, &Arc<str>, &mut PieceReader, &mut Vec<T>) + Sync,
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
    // The newlines in `buf`, counted as it is read.
    let mut newlines = 0;
    // Appends up to one piece's worth of the file, counting its newlines; true at the end of the
    // file.
    let mut read_more = |buf: &mut Vec<u8>, newlines: &mut usize| -> std::io::Result<bool> {
        let before = buf.len();
        // Room for the whole piece at once: growing the buffer step by step copies it repeatedly.
        buf.reserve(piece_bytes);
        // Read and counted a chunk at a time, while the chunk is still in the core's cache:
        // counted after a whole piece's reading, the bytes would come from memory again.
        while buf.len() - before < piece_bytes {
            let chunk = buf.len();
            let wanted = (piece_bytes - (chunk - before)).min(READ_CHUNK_BYTES);
            if (&mut input).take(wanted as u64).read_to_end(buf)? == 0 {
                break;
            }
            *newlines += count_newlines(&buf[chunk..]);
        }
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
            eof = read_more(buf, &mut newlines)?;
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
                    eof = read_more(buf, &mut newlines)?;
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
        let rest_newlines = count_newlines(buf);
        let piece_newlines = u32::try_from(newlines - rest_newlines).unwrap_or(u32::MAX);
        newlines = rest_newlines;
        let piece = Piece {
            number: cutter.sent,
            name: name.clone(),
            file,
            offset,
            line,
            bytes,
        };
        offset += piece.bytes.len() as u64;
        line = line.saturating_add(piece_newlines);
        if cutter.pieces.send(piece).is_err() {
            return Ok(false);
        }
        cutter.sent += 1;
    }
    if offset == 0 {
        // An empty file is one empty piece, whose reader says that it holds no game.
        let piece = Piece {
            number: cutter.sent,
            name: name.clone(),
            file,
            offset,
            line,
            bytes: std::mem::take(buf),
        };
        if cutter.pieces.send(piece).is_err() {
            return Ok(false);
        }
        cutter.sent += 1;
        match cutter.spare() {
            Some(spare) => *buf = spare,
            None => return Ok(false),
        }
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

/// Reads the games of one piece and works on each (handed on later, in order), into `items`.
fn work_piece<T>(
    piece: Piece,
    board: Option<BoardKind>,
    work: &impl Fn(usize, &Arc<str>, &mut PieceReader, &mut Vec<T>),
    mut items: Vec<T>,
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
    work(file, &name, &mut reader, &mut items);
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
