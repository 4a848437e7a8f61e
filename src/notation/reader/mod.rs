//! The streaming reader: games one at a time from any `io::Read`, in memory bounded by the largest
//! game (plus one read chunk), each handed to a [`Visitor`] ([`Reader::read_game`]) or built into
//! a [`Game`] (the reader as an iterator, through the [`TreeBuilder`] visitor). Its parts: the
//! judging of a file's head (`head.rs`), the passing over of oversized games (`oversized.rs`) and
//! the visitor that builds a game's tree (`tree_builder.rs`).

mod head;
mod oversized;
#[cfg(test)]
mod tests;
mod tree_builder;

use super::ast::{Game, Span, Warning};
use super::error::{GameSource, MovePlace, SyntaxError};
use super::newlines::{count_newlines, newlines_and_nul};
use super::parser::{Limits, Log, MAX_GAME_BYTES, Outcome, RawError, parse_game};
use super::visitor::{GameStart, Visitor, visit};
use crate::board::BoardKind;
use crate::diagnostic::Code;
use head::{BOM, SNIFF};
pub(crate) use head::{HEAD_BYTES, Head, judge_head, swap_cr_lf};
pub(crate) use oversized::{Oversized, whole_games};
use std::borrow::Cow;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;
use tree_builder::TreeBuilder;

/// Bytes asked of the underlying reader at a time.
const CHUNK: usize = 1 << 20;
/// How much of a line before a game diagnostics show.
const LEAD: usize = 160;

/// Reads the games of an SGN file one at a time. Each item is a game or the syntax error that broke
/// it; after an error the reader goes on with the next game.
pub struct Reader<R> {
    inner: R,
    name: Arc<str>,
    limits: Limits,
    buf: Vec<u8>,
    /// First unconsumed byte of `buf`.
    start: usize,
    eof: bool,
    done: bool,
    bom_checked: bool,
    /// Discarding the rest of a game that exceeded the size limit.
    skipping: Option<Oversized>,
    /// File offset, line and column of `buf[start]`.
    offset: u64,
    line: u32,
    column: u32,
    /// Games (and broken games) yielded so far.
    index: usize,
    /// The bytes before `buf[start]` on its line (at most [`LEAD`]), shown in diagnostics.
    lead: Vec<u8>,
    /// Bytes asked of `inner` at a time.
    chunk: usize,
    /// The board of the rules given on the command line, which overrides every Rules tag.
    board: Option<BoardKind>,
    /// Reading from the start of a file (not a piece of one): the file as a whole is judged too
    /// (text or not, any game in it).
    whole_file: bool,
    /// What the parser read of the current game, reused from game to game.
    log: Log,
    /// The file's lines end in CR alone (old Mac text): the buffer holds its bytes with CR and LF
    /// swapped, so that the parser sees ordinary lines; what is handed on as read is swapped back.
    cr_lines: bool,
    /// Swap CR and LF in the bytes read from `inner` (the reader judged the file itself; a
    /// reader handed bytes already swapped does not).
    swap_on_fill: bool,
    /// Where in `buf` the item returned last was read: [`Reader::raw`].
    last: std::ops::Range<usize>,
}

/// Where bytes passed on as read go, a piece at a time.
pub type BytesSink<'a> = dyn FnMut(&[u8]) -> io::Result<()> + 'a;

impl Reader<io::Empty> {
    /// A reader over text already in memory that takes the buffer over rather than copying it
    /// (hand it back with [`Reader::into_buffer`]).
    pub fn from_bytes(bytes: Vec<u8>) -> Reader<io::Empty> {
        let mut reader = Reader::new(io::empty());
        reader.buf = bytes;
        reader.eof = true;
        reader
    }
}

impl<R> Reader<R> {
    /// The reader's buffer, for reuse (its contents are unspecified).
    pub fn into_buffer(self) -> Vec<u8> {
        self.buf
    }
}

impl<R: Read> Reader<R> {
    /// A reader over any byte stream, read a chunk at a time.
    pub fn new(inner: R) -> Reader<R> {
        Reader {
            inner,
            name: Arc::from("<input>"),
            limits: Limits::default(),
            buf: Vec::new(),
            start: 0,
            eof: false,
            done: false,
            bom_checked: false,
            skipping: None,
            offset: 0,
            line: 1,
            column: 1,
            index: 0,
            lead: Vec::new(),
            chunk: CHUNK,
            board: None,
            whole_file: true,
            log: Log::default(),
            cr_lines: false,
            swap_on_fill: false,
            last: 0..0,
        }
    }

    /// Counts file positions from `offset` and `line`: for reading a piece of a larger file that
    /// starts at the beginning of a line.
    pub fn starting_at(mut self, offset: u64, line: u32) -> Reader<R> {
        self.offset = offset;
        self.line = line;
        self.column = 1;
        self.whole_file = offset == 0;
        self
    }

    /// Reads bytes whose CR and LF are already swapped (a piece of a CR-only file, as the
    /// archive's pipeline cuts it): their lines are read, and what is handed on as read is
    /// swapped back.
    pub(crate) fn swapped_cr_lines(mut self, swapped: bool) -> Reader<R> {
        self.cr_lines = swapped;
        self
    }

    /// The file name shown in diagnostics.
    pub fn with_name(mut self, name: impl AsRef<str>) -> Reader<R> {
        self.name = Arc::from(name.as_ref());
        self
    }

    /// Reads every game's squares on `board` whatever its Rules tag says, as the replayer does
    /// with rules given instead of the tag's ([`crate::replay::ReplayOptions::rules`]).
    pub fn on_board(mut self, board: Option<BoardKind>) -> Reader<R> {
        self.board = board;
        self
    }

    /// Sets the bounds on a game's size and nesting beyond which it is refused (the defaults suit
    /// any real archive).
    pub fn with_limits(mut self, limits: Limits) -> Reader<R> {
        self.limits = limits;
        self
    }

    /// How many bytes to ask of the underlying reader at a time (default 1 MiB, at most
    /// [`MAX_GAME_BYTES`]).
    pub fn with_chunk_size(mut self, bytes: usize) -> Reader<R> {
        self.chunk = bytes.clamp(1, MAX_GAME_BYTES);
        self
    }

    /// The game size limit, within what spans can address.
    fn game_bytes(&self) -> usize {
        self.limits.game_bytes.min(MAX_GAME_BYTES)
    }

    /// Reads at least `at_least` more bytes (or to the end of the input).
    fn fill(&mut self, at_least: usize) -> io::Result<()> {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        let want = at_least.max(self.chunk);
        self.buf.reserve_exact(want);
        // Reads into the spare capacity without zeroing it first; on an error the bytes read so
        // far stay in `buf`.
        let before = self.buf.len();
        let read = (&mut self.inner)
            .take(want as u64)
            .read_to_end(&mut self.buf);
        if self.swap_on_fill {
            swap_cr_lf(&mut self.buf[before..]);
        }
        if read? < want {
            self.eof = true;
        }
        Ok(())
    }

    /// Moves past `n` bytes, keeping the file position up to date.
    fn consume(&mut self, n: usize) {
        let newlines = count_newlines(&self.buf[self.start..self.start + n]);
        self.advance(n, newlines);
    }

    /// Moves past `n` bytes that hold `newlines` newlines.
    fn advance(&mut self, n: usize, newlines: usize) {
        let bytes = &self.buf[self.start..self.start + n];
        let after = bytes.iter().rev().take_while(|&&b| b != b'\n').count();
        // Columns count characters: UTF-8 continuation bytes do not advance them.
        let chars = bytes[n - after..]
            .iter()
            .filter(|&&b| b & 0xc0 != 0x80)
            .count() as u32;
        if newlines > 0 {
            self.line = self.line.saturating_add(newlines as u32);
            self.column = chars + 1;
            self.lead.clear();
        } else {
            self.column = self.column.saturating_add(chars);
        }
        if after > 0 {
            self.lead.extend_from_slice(&bytes[n - after..]);
            if self.lead.len() > LEAD {
                self.lead.drain(..self.lead.len() - LEAD);
            }
        }
        self.offset += n as u64;
        self.start += n;
    }

    fn source(&self, text: &str) -> GameSource {
        let lead = String::from_utf8_lossy(&self.lead);
        GameSource::new(
            self.name.clone(),
            &lead,
            text,
            self.offset,
            self.line,
            self.column,
            self.index,
        )
    }

    /// A file that the reader cannot take for SGN at all: UTF-16 (by its byte-order mark) or
    /// binary (a NUL byte in its first 8,000 bytes, as git decides).
    fn not_text(&mut self) -> Option<SyntaxError> {
        match judge_head(&self.buf[self.start..]) {
            Head::Utf16 => Some(self.notice(
                Code::Utf16,
                "the file is UTF-16 text",
                Some("save it as UTF-8 (iconv -f UTF-16 -t UTF-8)"),
            )),
            Head::Binary => Some(self.notice(
                Code::Binary,
                "the file is not text (it holds NUL bytes): reading of it stopped",
                Some("an SGN record is text; check that this is the file meant"),
            )),
            Head::CrLines => {
                // Read with CR and LF swapped from here on.
                if !self.cr_lines {
                    swap_cr_lf(&mut self.buf[self.start..]);
                    self.cr_lines = true;
                    self.swap_on_fill = true;
                }
                None
            }
            Head::Text => None,
        }
    }

    /// The bytes of the file that made the item read last (by [`Reader::read_game`] or the
    /// iterator): a game, or a broken game, exactly as read, before any decoding (Latin-1, CR
    /// line ends); empty for a finding about the file as a whole and for an oversized game (see
    /// [`Reader::pass_oversized`]). Valid until the next read.
    pub fn raw(&self) -> Cow<'_, [u8]> {
        let bytes = &self.buf[self.last.clone()];
        if self.cr_lines {
            let mut restored = bytes.to_vec();
            swap_cr_lf(&mut restored);
            Cow::Owned(restored)
        } else {
            Cow::Borrowed(bytes)
        }
    }

    /// The length of [`Reader::raw`]: bytes of the file the item read last took.
    pub fn raw_len(&self) -> usize {
        self.last.len()
    }

    /// After an item with the code [`Code::GameTooLarge`]: hands the whole oversized game, from
    /// its first byte, exactly as read, to `sink` a piece at a time (streamed, never held whole),
    /// and moves past it; returns its length. Without this call the next read moves past the
    /// game unseen. An error (reading, or returned by `sink`) stops the reading of the input.
    pub fn pass_oversized(&mut self, sink: &mut BytesSink) -> io::Result<u64> {
        let mut total = 0u64;
        let mut counting = |bytes: &[u8]| {
            total += bytes.len() as u64;
            sink(bytes)
        };
        while let Some(state) = self.skipping {
            if let Err(e) = self.skip_oversized(state, Some(&mut counting)) {
                self.done = true;
                return Err(e);
            }
        }
        Ok(total)
    }

    /// A finding about the file as a whole, at the reader's position.
    fn notice(&mut self, code: Code, message: &str, help: Option<&str>) -> SyntaxError {
        self.reader_error(code, message.to_string(), "here", help, Span::new(0, 0), "")
    }

    /// An error the reader finds itself (not the parser): no tags read and no move to name, the
    /// span in `text`, the text quoted at the reader's position.
    fn reader_error(
        &mut self,
        code: Code,
        message: String,
        label: &str,
        help: Option<&str>,
        span: Span,
        text: &str,
    ) -> SyntaxError {
        self.index += 1;
        SyntaxError {
            code,
            message,
            label: label.to_string(),
            help: help.map(str::to_string),
            span,
            related: None,
            tags: Vec::new(),
            at: None,
            before: None,
            source: self.source(text),
            io: None,
        }
    }

    fn io_error(&mut self, e: io::Error) -> SyntaxError {
        self.done = true;
        self.index += 1;
        SyntaxError {
            code: Code::Io,
            message: format!("cannot read {}: {e}", self.name),
            label: "reading stopped here".to_string(),
            help: None,
            span: Span::new(0, 0),
            related: None,
            tags: Vec::new(),
            at: None,
            before: None,
            source: self.source(""),
            io: Some(Arc::new(e)),
        }
    }

    fn too_large(&mut self) -> SyntaxError {
        let pending = &self.buf[self.start..];
        let first_line = pending
            .iter()
            .take(200)
            .take_while(|&&b| b != b'\n')
            .count();
        let text = String::from_utf8_lossy(&pending[..first_line]).into_owned();
        let span = Span::new(0, text.chars().next().map_or(0, char::len_utf8));
        self.skipping = Some(Oversized::at(pending));
        let message = format!("game larger than {} bytes", self.game_bytes());
        self.reader_error(
            Code::GameTooLarge,
            message,
            "this game is too large",
            Some("split the game, or raise the reader's game size limit"),
            span,
            &text,
        )
    }

    /// Moves past what is read of an oversized game (see [`Oversized::end_in`]), handing it to
    /// `sink` as read, so that the game gives one error.
    fn skip_oversized(
        &mut self,
        mut state: Oversized,
        sink: Option<&mut BytesSink>,
    ) -> io::Result<()> {
        let pending = &self.buf[self.start..];
        let end = state.end_in(pending);
        let n = end.unwrap_or(pending.len());
        if let Some(sink) = sink {
            if self.cr_lines {
                let mut restored = pending[..n].to_vec();
                swap_cr_lf(&mut restored);
                sink(&restored)?;
            } else {
                sink(&pending[..n])?;
            }
        }
        self.consume(n);
        if end.is_some() || self.eof {
            self.skipping = None;
        } else {
            self.skipping = Some(state);
            self.fill(self.chunk)?;
        }
        Ok(())
    }

    fn build_error(&mut self, raw: RawError, text: String) -> SyntaxError {
        self.index += 1;
        SyntaxError {
            code: raw.code,
            message: raw.message,
            label: raw.label,
            help: raw.help,
            span: raw.span,
            related: raw.related,
            at: raw
                .ply
                .map(|(ply, in_variation)| MovePlace::of(ply, in_variation, &raw.tags)),
            tags: raw.tags,
            before: None,
            source: self.source(&text),
            io: None,
        }
    }

    /// Hands the game read (the first `end` bytes of what is pending, with a NUL byte among them
    /// if `nul`) to `visitor`, or gives its error. A text that is not UTF-8 is read as Latin-1,
    /// which means parsing it again so that spans point into the decoded text.
    fn deliver<V: Visitor>(
        &mut self,
        mut outcome: Outcome,
        end: usize,
        nul: bool,
        visitor: &mut V,
    ) -> Option<Result<V::Output, SyntaxError>> {
        let raw = &self.buf[self.start..self.start + end];
        let decoded: String;
        let (text, latin1) = match std::str::from_utf8(raw) {
            Ok(text) => (text, None),
            Err(e) => {
                let valid = e.valid_up_to();
                decoded = raw.iter().map(|&b| b as char).collect();
                let at = valid + raw[..valid].iter().filter(|&&b| b >= 0x80).count();
                outcome = parse_game(
                    decoded.as_bytes(),
                    &[],
                    true,
                    &self.limits,
                    self.board,
                    &mut self.log,
                );
                let span = Span::new(
                    at,
                    decoded[at..]
                        .chars()
                        .next()
                        .map_or(at, |c| at + c.len_utf8()),
                );
                let warning = Warning {
                    code: Code::Latin1,
                    message: "the text is not UTF-8: read as Latin-1".to_string(),
                    span,
                };
                (decoded.as_str(), Some(warning))
            }
        };
        match outcome {
            // A NUL byte past the sniffed head: the game cannot be written back as text that reads
            // as text again, so it is refused as binary where it stands.
            Outcome::Game(_) if nul && let Some(at) = text.find('\0') => {
                let text = text.to_string();
                Some(Err(self.reader_error(
                    Code::Binary,
                    "the game holds a NUL byte: this is not text".to_string(),
                    "NUL byte",
                    Some("an SGN record is text; check that this is the file meant"),
                    Span::new(at, at + 1),
                    &text,
                )))
            }
            Outcome::Game(_) => {
                self.index += 1;
                let start = GameStart {
                    text,
                    offset: self.offset,
                    line: self.line,
                    column: self.column,
                    index: self.index,
                    board: self.log.board,
                };
                Some(Ok(visit(visitor, start, latin1.as_ref(), &self.log)))
            }
            Outcome::Error(raw_error, _) => {
                // The game as read up to an error in its movetext, for what is wrong before it.
                let before = raw_error.ply.map(|_| {
                    self.log.close_broken();
                    let start = GameStart {
                        text,
                        offset: self.offset,
                        line: self.line,
                        column: self.column,
                        // The error this game goes with takes the next index.
                        index: self.index + 1,
                        board: self.log.board,
                    };
                    let builder = &mut TreeBuilder::default();
                    Arc::new(visit(builder, start, latin1.as_ref(), &self.log))
                });
                let text = text.to_string();
                let mut error = self.build_error(*raw_error, text);
                error.before = before;
                Some(Err(error))
            }
            Outcome::Stray(_) => {
                let text = text.to_string();
                let warnings = std::mem::take(&mut self.log.warnings);
                let span = warnings.first().map_or(Span::new(0, 0), |w| w.span);
                let lines = warnings.len();
                let message = match warnings.into_iter().next() {
                    Some(w) if lines == 1 => w.message,
                    Some(w) => format!("{} (and {} more lines)", w.message, lines - 1),
                    None => "skipped text".to_string(),
                };
                Some(Err(self.reader_error(
                    Code::StrayText,
                    message,
                    "no game follows this text",
                    Some("make it a comment in { } or remove it"),
                    span,
                    &text,
                )))
            }
            Outcome::NeedMore | Outcome::Empty => None,
        }
    }

    /// Reads the next game and hands it to `visitor`: its output, or the syntax error that broke
    /// the game (the visitor hears nothing of a broken game); `None` at the end of the input.
    /// After an error the reader goes on with the next game.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, SyntaxError>> {
        self.last = 0..0;
        loop {
            if self.done {
                return None;
            }
            let pending_len = self.buf.len() - self.start;
            if !self.bom_checked {
                let wanted = if self.whole_file { SNIFF } else { BOM.len() };
                if pending_len < wanted && !self.eof {
                    if let Err(e) = self.fill(self.chunk) {
                        return Some(Err(self.io_error(e)));
                    }
                    continue;
                }
                self.bom_checked = true;
                if self.buf[self.start..].starts_with(BOM) {
                    self.start += BOM.len();
                    self.offset += BOM.len() as u64;
                }
                if self.whole_file
                    && let Some(e) = self.not_text()
                {
                    self.done = true;
                    return Some(Err(e));
                }
                continue;
            }
            if let Some(part) = self.skipping {
                if let Err(e) = self.skip_oversized(part, None) {
                    return Some(Err(self.io_error(e)));
                }
                continue;
            }
            let blank = self.buf[self.start..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            self.consume(blank);
            let pending = &self.buf[self.start..];
            if pending.is_empty() {
                if self.eof {
                    self.done = true;
                    // A file read from its start that held no game at all.
                    if self.index == 0 && self.whole_file {
                        let e = self.notice(Code::NoGame, "no game in the file", None);
                        return Some(Err(e));
                    }
                    return None;
                }
                if let Err(e) = self.fill(self.chunk) {
                    return Some(Err(self.io_error(e)));
                }
                continue;
            }
            // Unless at the end, parse whole lines only: then running out means "read more".
            let limit = if self.eof {
                Some(pending.len())
            } else {
                pending.iter().rposition(|&b| b == b'\n').map(|p| p + 1)
            };
            let outcome = match limit {
                Some(limit) => parse_game(
                    &pending[..limit],
                    &pending[limit..],
                    self.eof,
                    &self.limits,
                    self.board,
                    &mut self.log,
                ),
                None => Outcome::NeedMore,
            };
            match outcome {
                Outcome::NeedMore => {
                    if pending.len() > self.game_bytes() {
                        return Some(Err(self.too_large()));
                    }
                    if self.eof {
                        // Cannot happen (the parser knows it is at the end); never loop on it.
                        self.consume(pending.len());
                        continue;
                    }
                    let more = pending.len().min(self.game_bytes());
                    if let Err(e) = self.fill(more.max(self.chunk)) {
                        return Some(Err(self.io_error(e)));
                    }
                }
                Outcome::Empty => {
                    let n = limit.unwrap_or(pending.len()).max(1);
                    self.consume(n);
                }
                Outcome::Game(end) | Outcome::Error(_, end) | Outcome::Stray(end) => {
                    let end = end.clamp(1, pending.len());
                    // The limit holds however much the buffer happened to hold (the head read to
                    // tell text from binary can hold a whole small-limit game).
                    if end > self.game_bytes() {
                        return Some(Err(self.too_large()));
                    }
                    // One pass over the game's bytes for its file position and for NUL bytes.
                    let (newlines, nul) = newlines_and_nul(&self.buf[self.start..self.start + end]);
                    let item = self.deliver(outcome, end, nul, visitor);
                    if item.is_some() {
                        // The game's bytes, not the blank lines after it (the parser may or may
                        // not have read them, as the buffer happened to end).
                        let game = &self.buf[self.start..self.start + end];
                        let body = game
                            .iter()
                            .rposition(|b| !b.is_ascii_whitespace())
                            .map_or(0, |p| p + 1);
                        self.last = self.start..self.start + body;
                    }
                    self.advance(end, newlines);
                    if item.is_some() {
                        return item;
                    }
                }
            }
        }
    }
}

/// The error of an oversized game read by the archive's pipeline, which passes the game on in
/// pieces: the game starts at `offset` and `line` of the file named `name` with `head` (its
/// first bytes; CR and LF swapped for a CR-only file, as the reader reads it).
pub(crate) fn oversized_error(name: &str, head: &[u8], offset: u64, line: u32) -> SyntaxError {
    let mut reader = Reader::from_bytes(head.to_vec())
        .with_name(name)
        .starting_at(offset, line);
    reader.too_large()
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Game, SyntaxError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game(&mut TreeBuilder::default())
    }
}

/// Every game of an SGN text.
pub fn parse_str(text: &str) -> Vec<Result<Game, SyntaxError>> {
    Reader::new(text.as_bytes()).collect()
}

/// A reader over a file (standard input for `-`), named by its path in diagnostics.
pub fn read_path(path: &Path) -> io::Result<Reader<Box<dyn Read + Send>>> {
    Ok(Reader::new(open_input(path)?).with_name(input_name(path)))
}

/// What a path names as input: the file, or standard input for `-`.
pub fn open_input(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    if is_stdin(path) {
        Ok(Box::new(io::stdin()))
    } else {
        Ok(Box::new(std::fs::File::open(path)?))
    }
}

/// Whether a path stands for standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// The name of an input in reports: its path (control characters replaced, see
/// [`super::printable`]: a name may not forge a report line), or `<stdin>`.
pub fn input_name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        super::printable(&path.display().to_string(), false).into_owned()
    }
}
