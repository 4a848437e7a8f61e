//! Sorting the games of an archive, as pgn-extract does for chess: the clean games kept, the broken
//! ones quarantined without losing a byte (or kept as far as they are legal, the rest moved into
//! comments), games selected by tags, length, result or a position they reach, and duplicates found
//! — also a game whose moves are the beginning of a longer one.
//!
//! Files are read and sorted as `check` reads them (`read_in_order`): workers take pieces of the
//! files, read and sort their games in parallel, and the sorted games are numbered and handed on in
//! file order. Duplicate detection reads the files twice more and keeps a 64-bit fingerprint per
//! game, so memory grows with the number of games, never with their text.

use crate::archive::{piece_bytes, read_in_order};
use crate::notation::{
    Game, GameResult, GameSource, Notation, Reader, Span, SyntaxError, input_name,
};
use crate::replay::{Replay, ReplayOptions, Severity, Status, replay, result_of};
use crate::rules::{Move, Position, Rules};
use std::collections::HashMap;
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};
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
            format!("{text:?} is not a tag condition: write Name=Value or Name~text")
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
    /// The text to write for it.
    pub text: String,
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

/// Sorts every game of `files`, in order, handing each to `sink`. A regular file that cannot be
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
    let errors = read_in_order(
        files,
        piece_bytes(options.piece_bytes, &options.replay),
        options.replay.rules.map(|r| r.board()),
        |file, name, item| sort(file, name, item, options, duplicates.as_ref()),
        |file, pending| {
            let sorted = pending.numbered(numbering.next(file));
            summary.count(&sorted.verdict);
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
fn reading_result(errors: Vec<String>) -> io::Result<()> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(io::Error::other(errors.join("; ")))
    }
}

/// Numbers the games of each file in order, from 1.
#[derive(Default)]
struct Numbering {
    file: Option<usize>,
    games: usize,
}

impl Numbering {
    /// The next game's number in `file` (its place in the list).
    fn next(&mut self, file: usize) -> usize {
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
type GameKey = (usize, u64);

/// The key and the line of a game (or of the syntax error that broke it).
fn locate(file: usize, item: &Result<Game, SyntaxError>) -> (GameKey, u32) {
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
    text: String,
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
        }
    }
}

/// Sorts a game of the file at `file` in the list (named `name`).
fn sort(
    file: usize,
    name: &Arc<str>,
    item: Result<Game, SyntaxError>,
    options: &ExtractOptions,
    duplicates: Option<&DuplicateIndex>,
) -> Pending {
    let (key, line) = locate(file, &item);
    let pending = |verdict, text| Pending {
        file: name.clone(),
        line,
        verdict,
        text,
    };
    let game = match item {
        Ok(game) => game,
        Err(e) => {
            let (line, column) = e.location();
            let reason = format!("{line}:{column}: {} ({})", e.message, e.code);
            return pending(Verdict::Rejected { reason }, e.source.text().to_string());
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
                text,
            )),
            None => options
                .keep_broken
                .then(|| cut_broken(&game, &replayed, options))
                .flatten()
                .map(|text| {
                    let reason = reason.clone();
                    (Verdict::KeptBroken { reason }, text)
                }),
        };
        match rescued {
            // A rescued game is kept only if it is one of the games asked for.
            Some(_) if !options.selection.admits(&game, &replayed) => {
                (Verdict::Filtered, game.text.clone())
            }
            Some(kept) => kept,
            None => (Verdict::Rejected { reason }, game.text.clone()),
        }
    } else if !options.selection.admits(&game, &replayed) {
        (Verdict::Filtered, game.text.clone())
    } else {
        let verdict = match duplicates.and_then(|d| d.earlier(key)) {
            Some(Earlier::Same(of)) => Verdict::Duplicate { of: of.clone() },
            Some(Earlier::Within(within)) => Verdict::Contained {
                within: within.clone(),
            },
            None => Verdict::Kept,
        };
        let text = match (&verdict, options.notation) {
            (Verdict::Kept, Some(notation)) => {
                crate::export::structured::rewrite(game, &replayed, notation)
            }
            _ => game.text,
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

/// An invalid game kept up to its first illegal main-line move: the text before that move, the
/// rest of the movetext as `;` comments (line by line, so nothing is lost or re-read), the result
/// unknown (or, for a game that ended before that move, the one the replay proves). `None` when that does not make a valid game (the error is elsewhere, or not only there).
fn cut_broken(game: &Game, replayed: &Replay, options: &ExtractOptions) -> Option<String> {
    let error = replayed
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error && !f.in_variation && f.ply.is_some())
        .min_by_key(|f| f.ply)?;
    let at = error.span?;
    let node = game
        .mainline
        .moves
        .iter()
        .find(|n| n.span.start <= at.start && at.start < n.span.end.max(n.span.start + 1))?;
    let cut = node.number.map_or(node.span, |n| n.span).range().start;
    let end = game
        .result
        .map_or(game.text.len(), |(_, span)| span.range().start);
    let rest = game.text.get(cut..end)?;
    // The Result tag must agree with the game as cut: unfinished, its Margin tag no longer
    // applies; ended before the move that breaks it (a move after the end), it has the result
    // and margin the replay proves there.
    let ended = replayed.outcome;
    let result = ended.map_or(GameResult::Unknown, |o| result_of(&o));
    let margin = ended.and_then(|o| o.margin).and_then(|m| m.exact());
    let mut edits = Vec::new();
    for tag in &game.tags {
        match (tag.name.as_ref(), margin) {
            ("Result", _) => edits.push((tag.span, format!("[Result \"{}\"]", result.as_str()))),
            ("Margin", Some(margin)) => edits.push((tag.span, format!("[Margin \"{margin}\"]"))),
            ("Margin", None) if ended.is_none() => edits.push((tag.span, String::new())),
            _ => {}
        }
    }
    let mut text = edit(game.text.get(..cut)?, edits)?.trim_end().to_string();
    if text.ends_with(']') {
        // No move is kept: the blank line between tags and movetext stays.
        text.push('\n');
    }
    text.push_str(&format!(
        "\n; salta extract: the record breaks here: {} ({})\n",
        error.message, error.code
    ));
    for line in rest.trim().lines() {
        text.push_str("; ");
        text.push_str(line);
        text.push('\n');
    }
    if let Some(written) = game.result.map(|(r, _)| r).filter(|&r| r != result) {
        text.push_str(&format!("; the record's result: {}\n", written.as_str()));
    }
    text.push_str(result.as_str());
    text.push('\n');
    replays_cleanly(text, options)
}

/// A game whose only errors are about its result or margin, with its Result tag, result token and
/// Margin tag (where present) rewritten to the replayed outcome. `None` when the replay proves no
/// outcome (a result the rules cannot check is left to the editor) or other errors remain.
fn fix_results(game: &Game, replayed: &Replay, options: &ExtractOptions) -> Option<String> {
    let only_results = replayed
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .all(|f| f.code.fixable_by_results());
    let outcome = replayed.outcome?;
    if !only_results {
        return None;
    }
    let result = result_of(&outcome).as_str();
    let mut edits = Vec::new();
    for tag in &game.tags {
        match (tag.name.as_ref(), outcome.margin.and_then(|m| m.exact())) {
            ("Result", _) => edits.push((tag.span, format!("[Result \"{result}\"]"))),
            ("Margin", Some(margin)) => edits.push((tag.span, format!("[Margin \"{margin}\"]"))),
            _ => {}
        }
    }
    let mut text = match game.result {
        Some((_, span)) => {
            edits.push((span, result.to_string()));
            edit(&game.text, edits)?
        }
        None => format!("{} {result}\n", edit(&game.text, edits)?.trim_end()),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    replays_cleanly(text, options)
}

/// `text` with each span replaced, spans in increasing order and not overlapping; `None` if a span
/// does not fit the text.
fn edit(text: &str, edits: Vec<(Span, String)>) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 16);
    let mut copied = 0;
    for (span, replacement) in edits {
        let range = span.range();
        if range.start > text.len() {
            continue;
        }
        out.push_str(text.get(copied..range.start)?);
        out.push_str(&replacement);
        copied = range.end;
    }
    out.push_str(text.get(copied..)?);
    Some(out)
}

/// The text, if it reads back as one game that replays without errors (a mended game is trusted
/// only then), rewritten in the asked notation if there is one.
fn replays_cleanly(text: String, options: &ExtractOptions) -> Option<String> {
    let mut reread = Reader::new(text.as_bytes()).on_board(options.replay.rules.map(|r| r.board()));
    let kept = reread.next()?.ok()?;
    let replayed = replay(&kept, &options.replay);
    if replayed.status() == Status::Invalid {
        return None;
    }
    Some(match options.notation {
        Some(notation) => crate::export::structured::rewrite(kept, &replayed, notation),
        None => text,
    })
}

/// A fingerprint of a game's rules, start and moves, extended one move at a time: equal
/// fingerprints after k moves mean (but for a 2⁻⁶⁴ chance) the same first k moves from the same
/// start.
#[derive(Clone)]
struct Fingerprint(DefaultHasher);

impl Fingerprint {
    fn start(rules: &Rules, start: &Position) -> Fingerprint {
        let mut hasher = DefaultHasher::new();
        rules.to_string().hash(&mut hasher);
        start.to_setup().hash(&mut hasher);
        Fingerprint(hasher)
    }

    fn push(&mut self, m: Move) {
        (m.from.index(), m.to.index(), m.kind as u8).hash(&mut self.0);
    }

    fn value(&self) -> u64 {
        self.0.finish()
    }
}

/// Every prefix fingerprint of a game's main line: after 0, 1, …, all moves.
fn prefix_fingerprints(replayed: &Replay) -> impl Iterator<Item = u64> + '_ {
    let mut print = Fingerprint::start(&replayed.rules, &replayed.start);
    std::iter::once(print.value()).chain(replayed.moves.iter().map(move |&m| {
        print.push(m);
        print.value()
    }))
}

enum Earlier<'a> {
    Same(&'a GameRef),
    Within(&'a GameRef),
}

/// Which candidate games (legal and selected) repeat an earlier one or begin a longer one.
struct DuplicateIndex {
    /// The first game with each full fingerprint.
    first: HashMap<u64, (GameKey, GameRef)>,
    /// The full fingerprint of each candidate.
    full: HashMap<GameKey, u64>,
    /// A longer game that begins with this game's moves, by the shorter game.
    within: HashMap<GameKey, GameRef>,
}

impl DuplicateIndex {
    fn build(files: &[PathBuf], options: &ExtractOptions) -> io::Result<DuplicateIndex> {
        let mut index = DuplicateIndex {
            first: HashMap::new(),
            full: HashMap::new(),
            within: HashMap::new(),
        };
        // First reading: the full fingerprint of every candidate.
        each_candidate(files, options, |key, game_ref, prints| {
            let full = prints.last().copied().unwrap_or_default();
            index.full.insert(key, full);
            index.first.entry(full).or_insert((key, game_ref));
        })?;
        // Second reading: a candidate's proper prefixes that are another candidate's whole game.
        let mut within = HashMap::new();
        each_candidate(files, options, |_, game_ref, prints| {
            // Proper prefixes of at least one move.
            let inner = prints
                .get(1..prints.len().saturating_sub(1))
                .unwrap_or_default();
            for print in inner {
                if let Some((shorter, _)) = index.first.get(print) {
                    within.entry(*shorter).or_insert_with(|| game_ref.clone());
                }
            }
        })?;
        index.within = within;
        Ok(index)
    }

    /// What an earlier (or longer) game says about the candidate at `key`.
    fn earlier(&self, key: GameKey) -> Option<Earlier<'_>> {
        let full = self.full.get(&key)?;
        match self.first.get(full) {
            Some((first, game_ref)) if *first != key => Some(Earlier::Same(game_ref)),
            _ => self.within.get(&key).map(Earlier::Within),
        }
    }
}

/// Calls `f`, in order, with each game that is legal and selected and its prefix fingerprints
/// (see [`prefix_fingerprints`]); the games are replayed in parallel.
fn each_candidate(
    files: &[PathBuf],
    options: &ExtractOptions,
    mut f: impl FnMut(GameKey, GameRef, &[u64]),
) -> io::Result<()> {
    let fingerprints = |file, name: &Arc<str>, item: Result<Game, SyntaxError>| {
        let (key, line) = locate(file, &item);
        let game = item.ok()?;
        let replayed = replay(&game, &options.replay);
        let wanted =
            replayed.status() != Status::Invalid && options.selection.admits(&game, &replayed);
        wanted.then(|| {
            let prints: Vec<u64> = prefix_fingerprints(&replayed).collect();
            (key, name.clone(), line, prints)
        })
    };
    let mut numbering = Numbering::default();
    let errors = read_in_order(
        files,
        piece_bytes(options.piece_bytes, &options.replay),
        options.replay.rules.map(|r| r.board()),
        fingerprints,
        |file, candidate| {
            // Every game is numbered, candidate or not.
            let index = numbering.next(file);
            if let Some((key, file, line, prints)) = candidate {
                f(key, GameRef { file, index, line }, &prints);
            }
            true
        },
    );
    reading_result(errors)
}
