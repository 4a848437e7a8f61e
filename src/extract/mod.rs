//! Sorting the games of an archive, as pgn-extract does for chess: the clean games kept, the broken
//! ones quarantined without losing a byte (or kept as far as they are legal, the rest moved into
//! comments), games selected by tags, length, result or a position they reach, and duplicates found
//! — also a game whose moves are the beginning of a longer one.
//!
//! Files are read and sorted as `check` reads them (`read_in_order`): workers take pieces of the
//! files, read and sort their games in parallel, and the sorted games are numbered and handed on in
//! file order. Duplicate detection reads the files twice more and keeps a 64-bit fingerprint per
//! game, so memory grows with the number of games, never with their text.

mod as_read;
mod duplicates;
mod rescue;

pub use as_read::AsRead;

use crate::archive::{OversizedPart, PieceInput, piece_bytes, visit_in_order};
use crate::diagnostic::Code;
use crate::diagnostic::quote;
use crate::notation::{Game, GameResult, GameSource, Notation, SyntaxError, input_name};
use crate::replay::{Replay, ReplayOptions, Severity, Status, replay};
use crate::rules::Position;
use duplicates::{DuplicateIndex, Earlier};
use rescue::{cut_broken, fix_results};
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// Which games to keep, besides being legal. Built from [`Selection::default`] (every valid game)
/// with its setters: `Selection::default().min_plies(40).result(GameResult::GreenWins)`.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Selection {
    /// Every filter must hold.
    pub tags: Vec<TagFilter>,
    /// Keep games of at least this many main-line plies.
    pub min_plies: Option<u32>,
    /// Keep games of at most this many main-line plies.
    pub max_plies: Option<u32>,
    /// Keep games whose written result is this.
    pub result: Option<GameResult>,
    /// Keep games whose main line reaches this placement of pieces (side to move aside).
    pub reaches: Option<Position>,
}

/// A condition on a tag: `Name=Value` (equal) or `Name~text` (contains, ignoring case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagFilter {
    /// The tag is present with exactly this value.
    Equals {
        /// The tag's name.
        name: String,
        /// The value it must have.
        value: String,
    },
    /// The tag is present and its value contains this text, whatever the case.
    Contains {
        /// The tag's name.
        name: String,
        /// The text its value must contain, in lower case.
        text: String,
    },
}

impl std::str::FromStr for TagFilter {
    type Err = String;

    fn from_str(text: &str) -> Result<TagFilter, String> {
        let at = text.find(['=', '~']).filter(|&i| i > 0).ok_or_else(|| {
            format!(
                "{} is not a tag condition: write Name=Value or Name~text",
                quote(text)
            )
        })?;
        let (name, rest) = text.split_at(at);
        let name = name.trim().to_string();
        let (operator, wanted) = rest.split_at(1);
        Ok(if operator == "=" {
            TagFilter::Equals {
                name,
                value: wanted.to_string(),
            }
        } else {
            TagFilter::Contains {
                name,
                text: wanted.to_lowercase(),
            }
        })
    }
}

impl TagFilter {
    /// Whether the game's tags meet the condition.
    pub fn admits(&self, game: &Game) -> bool {
        match self {
            TagFilter::Equals { name, value } => game.tag(name) == Some(value.as_str()),
            TagFilter::Contains { name, text } => game
                .tag(name)
                .is_some_and(|v| v.to_lowercase().contains(text.as_str())),
        }
    }
}

impl Selection {
    /// Every filter must hold (the field `tags`).
    #[must_use]
    pub fn tags(mut self, tags: Vec<TagFilter>) -> Selection {
        self.tags = tags;
        self
    }

    /// Keep games of at least this many main-line plies (the field `min_plies`).
    #[must_use]
    pub fn min_plies(mut self, min_plies: impl Into<Option<u32>>) -> Selection {
        self.min_plies = min_plies.into();
        self
    }

    /// Keep games of at most this many main-line plies (the field `max_plies`).
    #[must_use]
    pub fn max_plies(mut self, max_plies: impl Into<Option<u32>>) -> Selection {
        self.max_plies = max_plies.into();
        self
    }

    /// Keep games whose written result is this (the field `result`).
    #[must_use]
    pub fn result(mut self, result: impl Into<Option<GameResult>>) -> Selection {
        self.result = result.into();
        self
    }

    /// Keep games whose main line reaches this placement of pieces (the field `reaches`).
    #[must_use]
    pub fn reaches(mut self, reaches: impl Into<Option<Position>>) -> Selection {
        self.reaches = reaches.into();
        self
    }

    /// Whether a game that replays is wanted.
    pub fn admits(&self, game: &Game, replayed: &Replay) -> bool {
        let plies = replayed.plies();
        self.tags.iter().all(|t| t.admits(game))
            && self.min_plies.is_none_or(|min| plies >= min)
            && self.max_plies.is_none_or(|max| plies <= max)
            && self
                .result
                .is_none_or(|r| game.result.map(|(written, _)| written) == Some(r))
            && self
                .reaches
                .as_ref()
                .is_none_or(|wanted| reaches(replayed, wanted))
    }
}

/// Whether the main line passes through `wanted`'s placement of pieces.
fn reaches(replayed: &Replay, wanted: &Position) -> bool {
    replayed.rules().board() == wanted.rules().board()
        && (replayed.start().same_placement(wanted)
            || replayed
                .positions()
                .any(|(_, _, pos)| pos.same_placement(wanted)))
}

/// What to do besides keeping the clean games. Built from [`ExtractOptions::default`] with its
/// setters: `ExtractOptions::default().selection(selection).find_duplicates(true)`.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ExtractOptions {
    /// How each game is replayed.
    pub replay: ReplayOptions,
    /// Which valid games to keep.
    pub selection: Selection,
    /// Keep an invalid game as far as its main line is legal, the rest moved into comments.
    pub keep_broken: bool,
    /// Mend a game whose only errors are its Result and Margin: write what the replay proves.
    pub fix_results: bool,
    /// Find repeated games, and games whose moves begin a longer game.
    pub find_duplicates: bool,
    /// Write kept games (cut and mended ones too) in canonical SGN in this notation instead of as
    /// read.
    pub notation: Option<Notation>,
    /// Bytes of a file handed to a worker at a time (0: as `check` cuts them, see
    /// [`crate::archive::CheckOptions::piece_bytes`]).
    pub piece_bytes: usize,
}

impl ExtractOptions {
    /// How each game is replayed (the field `replay`).
    #[must_use]
    pub fn replay(mut self, replay: ReplayOptions) -> ExtractOptions {
        self.replay = replay;
        self
    }

    /// Which valid games to keep (the field `selection`).
    #[must_use]
    pub fn selection(mut self, selection: Selection) -> ExtractOptions {
        self.selection = selection;
        self
    }

    /// Keep invalid games as far as they are legal (the field `keep_broken`).
    #[must_use]
    pub fn keep_broken(mut self, keep_broken: bool) -> ExtractOptions {
        self.keep_broken = keep_broken;
        self
    }

    /// Mend games whose only errors are their Result and Margin (the field `fix_results`).
    #[must_use]
    pub fn fix_results(mut self, fix_results: bool) -> ExtractOptions {
        self.fix_results = fix_results;
        self
    }

    /// Find repeated and contained games (the field `find_duplicates`).
    #[must_use]
    pub fn find_duplicates(mut self, find_duplicates: bool) -> ExtractOptions {
        self.find_duplicates = find_duplicates;
        self
    }

    /// Write kept games in canonical SGN in this notation (the field `notation`; `None`: as read).
    #[must_use]
    pub fn notation(mut self, notation: impl Into<Option<Notation>>) -> ExtractOptions {
        self.notation = notation.into();
        self
    }

    /// Bytes of a file handed to a worker at a time (the field `piece_bytes`).
    #[must_use]
    pub fn piece_bytes(mut self, piece_bytes: usize) -> ExtractOptions {
        self.piece_bytes = piece_bytes;
        self
    }
}

/// Where a game sits: file, 1-based index in the file, and line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameRef {
    /// The file's name.
    pub file: Arc<str>,
    /// 1-based index of the game in its file.
    pub index: usize,
    /// 1-based line where the game starts.
    pub line: u32,
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} game {} (line {})", self.file, self.index, self.line)
    }
}

/// What became of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Valid (warnings allowed) and selected.
    Kept,
    /// Invalid; kept up to the move that breaks it, the rest in comments.
    KeptBroken {
        /// The first error, with its place and code.
        reason: String,
    },
    /// Its only errors were its Result or Margin, rewritten to what the replay proves.
    Fixed {
        /// The first error it had, with its place and code.
        reason: String,
    },
    /// Invalid, or unreadable: set aside as read.
    Rejected {
        /// The first error, with its place and code.
        reason: String,
    },
    /// Valid but not selected.
    Filtered,
    /// The same start and moves as an earlier game.
    Duplicate {
        /// The earlier game.
        of: GameRef,
    },
    /// Its moves are the first moves of a longer game.
    Contained {
        /// The longer game.
        within: GameRef,
    },
}

/// One sorted game: where it was, what became of it, and its text to write (as read, canonical, or
/// cut where it breaks).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Sorted {
    /// Where the game was read.
    pub game: GameRef,
    /// What became of it.
    pub verdict: Verdict,
    /// The text to write for it: the file's bytes exactly as read (whatever their encoding and
    /// line ends), or the game written anew (cut, mended, or canonical in
    /// [`ExtractOptions::notation`]). [`AsRead`] writes such texts one after another.
    pub text: Vec<u8>,
    /// Which part of the game's text `text` is: all of it, but for a game too large to read,
    /// which is passed on in parts as it is read (each with the game's place and verdict).
    pub part: TextPart,
}

impl Sorted {
    /// The text as UTF-8, a byte that is not read as U+FFFD: to show it, not to write it.
    pub fn text_str(&self) -> String {
        String::from_utf8_lossy(&self.text).into_owned()
    }
}

/// Which part of a game's text a [`Sorted`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextPart {
    /// The whole text.
    Whole,
    /// The first part of a game passed on in parts.
    First,
    /// A part between the first and the last.
    Middle,
    /// The last part.
    Last,
}

impl TextPart {
    fn of(first: bool, last: bool) -> TextPart {
        match (first, last) {
            (true, true) => TextPart::Whole,
            (true, false) => TextPart::First,
            (false, false) => TextPart::Middle,
            (false, true) => TextPart::Last,
        }
    }

    /// Whether a game begins with this part: each game is counted and reported once, here.
    pub fn begins(self) -> bool {
        matches!(self, TextPart::Whole | TextPart::First)
    }

    /// Whether the game's text ends with this part.
    pub fn ends(self) -> bool {
        matches!(self, TextPart::Whole | TextPart::Last)
    }
}

/// Counts of a run, by verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct ExtractSummary {
    /// Files read.
    pub files: usize,
    /// Games read, readable or not.
    pub games: usize,
    /// Games kept as they are (valid and selected).
    pub kept: usize,
    /// Invalid games kept up to the move that breaks them.
    pub kept_broken: usize,
    /// Games whose result or margin was mended.
    pub fixed: usize,
    /// Games set aside as invalid or unreadable.
    pub rejected: usize,
    /// Valid games the selection left out.
    pub filtered: usize,
    /// Repeats of an earlier game.
    pub duplicates: usize,
    /// Games whose moves begin a longer game.
    pub contained: usize,
}

impl ExtractSummary {
    fn count(&mut self, verdict: &Verdict) {
        self.games += 1;
        *match verdict {
            Verdict::Kept => &mut self.kept,
            Verdict::KeptBroken { .. } => &mut self.kept_broken,
            Verdict::Fixed { .. } => &mut self.fixed,
            Verdict::Rejected { .. } => &mut self.rejected,
            Verdict::Filtered => &mut self.filtered,
            Verdict::Duplicate { .. } => &mut self.duplicates,
            Verdict::Contained { .. } => &mut self.contained,
        } += 1;
    }
}

/// Sorts every game of `files`, in order, handing each to `sink` (a game too large to read in
/// parts, see [`TextPart`]; it is counted once). A regular file that cannot be
/// opened is an error before anything is sorted (a FIFO or standard input is opened only to be
/// read: opening it twice would lose its writer); with duplicates wanted, the files are read three
/// times (fingerprints, containment, sorting).
pub fn extract(
    files: &[PathBuf],
    options: &ExtractOptions,
    mut sink: impl FnMut(Sorted) -> io::Result<()>,
) -> io::Result<ExtractSummary> {
    for file in files {
        if std::fs::metadata(file).is_ok_and(|m| !m.is_file()) || crate::notation::is_stdin(file) {
            continue;
        }
        std::fs::File::open(file)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", input_name(file))))?;
    }
    let duplicates = if options.find_duplicates {
        Some(DuplicateIndex::build(files, options)?)
    } else {
        None
    };
    let mut summary = ExtractSummary {
        files: files.len(),
        ..ExtractSummary::default()
    };
    let mut numbering = Numbering::default();
    let mut failed = None;
    let duplicates = duplicates.as_ref();
    let errors = visit_in_order(
        files,
        piece_bytes(options.piece_bytes, &options.replay),
        options.replay.rules.map(|r| r.board()),
        |file, name, input, sorted: &mut Vec<Pending>| match input {
            PieceInput::Games(reader) => {
                while let Some(item) = reader.next() {
                    let pending = match &item {
                        // A game larger than the reader takes, in the piece: set aside whole.
                        Err(e) if e.code == Code::GameTooLarge => {
                            let mut text = Vec::new();
                            // Only the piece's bytes are read: this cannot fail.
                            let _ = reader.pass_oversized(&mut |bytes| {
                                text.extend_from_slice(bytes);
                                Ok(())
                            });
                            sort(file, name, item, &text, options, duplicates)
                        }
                        _ => sort(file, name, item, &reader.raw(), options, duplicates),
                    };
                    sorted.push(pending);
                }
            }
            PieceInput::Oversized(part, bytes) => sorted.push(oversized(name, part, bytes)),
        },
        |file, pending| {
            let begins = pending.part.begins();
            let index = if begins {
                numbering.next(file)
            } else {
                numbering.games
            };
            let sorted = pending.numbered(index);
            if begins {
                summary.count(&sorted.verdict);
            }
            match sink(sorted) {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        },
    );
    match failed {
        Some(e) => Err(e),
        None => reading_result(errors).map(|()| summary),
    }
}

/// The files' read errors as one error, if there were any.
pub(super) fn reading_result(errors: Vec<String>) -> io::Result<()> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(io::Error::other(errors.join("; ")))
    }
}

/// Numbers the games of each file in order, from 1.
#[derive(Default)]
pub(super) struct Numbering {
    file: Option<usize>,
    games: usize,
}

impl Numbering {
    /// The next game's number in `file` (its place in the list).
    pub(super) fn next(&mut self, file: usize) -> usize {
        if self.file != Some(file) {
            self.file = Some(file);
            self.games = 0;
        }
        self.games += 1;
        self.games
    }
}

/// Where a game is, as a worker knows it (unlike its number in the file, which depends on the
/// pieces before): the file's place in the list and the game's byte offset in the file.
pub(super) type GameKey = (usize, u64);

/// The key and the line of a game (or of the syntax error that broke it).
pub(super) fn locate(file: usize, item: &Result<Game, SyntaxError>) -> (GameKey, u32) {
    match item {
        Ok(game) => ((file, game.offset), game.line),
        Err(e) => ((file, e.game_offset()), e.game_line()),
    }
}

/// A game sorted by a worker, waiting for its number in its file.
struct Pending {
    file: Arc<str>,
    line: u32,
    verdict: Verdict,
    text: Vec<u8>,
    part: TextPart,
}

impl Pending {
    fn numbered(self, index: usize) -> Sorted {
        Sorted {
            game: GameRef {
                file: self.file,
                index,
                line: self.line,
            },
            verdict: self.verdict,
            text: self.text,
            part: self.part,
        }
    }
}

/// A part of a game too large to read, passed on as read: rejected, as the reader refuses it.
fn oversized(name: &Arc<str>, part: &OversizedPart, bytes: &[u8]) -> Pending {
    let e = part.error(name);
    let (line, column) = e.location();
    Pending {
        file: name.clone(),
        line: e.game_line(),
        verdict: Verdict::Rejected {
            reason: format!("{line}:{column}: {} ({})", e.message, e.code),
        },
        text: bytes.to_vec(),
        part: TextPart::of(part.first, part.last),
    }
}

/// Sorts a game of the file at `file` in the list (named `name`), read from `raw`.
fn sort(
    file: usize,
    name: &Arc<str>,
    item: Result<Game, SyntaxError>,
    raw: &[u8],
    options: &ExtractOptions,
    duplicates: Option<&DuplicateIndex>,
) -> Pending {
    let (key, line) = locate(file, &item);
    let pending = |verdict, text: Option<String>| Pending {
        file: name.clone(),
        line,
        verdict,
        // Written anew, or else exactly as read.
        text: text.map_or_else(|| raw.to_vec(), String::into_bytes),
        part: TextPart::Whole,
    };
    let game = match item {
        Ok(game) => game,
        Err(e) => {
            let (line, column) = e.location();
            let reason = format!("{line}:{column}: {} ({})", e.message, e.code);
            return pending(Verdict::Rejected { reason }, None);
        }
    };
    let replayed = replay(&game, &options.replay);
    let (verdict, text) = if replayed.status() == Status::Invalid {
        let reason = first_error(&game, name, &replayed);
        // Mended if only the result or margin is wrong, else cut before the broken move.
        let fixed = options
            .fix_results
            .then(|| fix_results(&game, &replayed, options))
            .flatten();
        let rescued = match fixed {
            Some(text) => Some((
                Verdict::Fixed {
                    reason: reason.clone(),
                },
                Some(text),
            )),
            None => options
                .keep_broken
                .then(|| cut_broken(&game, &replayed, options))
                .flatten()
                .map(|text| {
                    let reason = reason.clone();
                    (Verdict::KeptBroken { reason }, Some(text))
                }),
        };
        match rescued {
            // A rescued game is kept only if it is one of the games asked for.
            Some(_) if !options.selection.admits(&game, &replayed) => (Verdict::Filtered, None),
            Some(kept) => kept,
            None => (Verdict::Rejected { reason }, None),
        }
    } else if !options.selection.admits(&game, &replayed) {
        (Verdict::Filtered, None)
    } else {
        let verdict = match duplicates.and_then(|d| d.earlier(key)) {
            Some(Earlier::Same(of)) => Verdict::Duplicate { of: of.clone() },
            Some(Earlier::Within(within)) => Verdict::Contained {
                within: within.clone(),
            },
            None => Verdict::Kept,
        };
        let text = match (&verdict, options.notation) {
            (Verdict::Kept, Some(notation)) => Some(crate::export::structured::rewrite(
                game, &replayed, notation,
            )),
            _ => None,
        };
        (verdict, text)
    };
    pending(verdict, text)
}

/// The first error of a game, located in its file: `line:column: message (code)`.
fn first_error(game: &Game, file: &Arc<str>, replayed: &Replay) -> String {
    // The game's number in its file, unknown here, plays no part in a location.
    let source = GameSource::of_game(file, 0, game);
    replayed
        .findings
        .iter()
        .find(|f| f.severity == Severity::Error)
        .map(|f| {
            let (line, column) = f
                .span
                .map(|s| source.location(s.range().start))
                .unwrap_or((game.line, game.column));
            format!("{line}:{column}: {} ({})", f.message, f.code)
        })
        .unwrap_or_default()
}
