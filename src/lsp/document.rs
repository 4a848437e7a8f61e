//! An open document: its text, its lines, and its games, each with what checking it found. An
//! edit re-reads only the games it touched (and a neighbour each side, whose bounds it may have
//! moved); the others keep their findings and only move.

use super::library::{self, CheckOptions, Found, ReadGame};
use super::text::{Encoding, Lines};
use crate::diagnostic::Code;
use crate::notation::reader::{HEAD_BYTES, Head, judge_head};
use crate::notation::{Game, Span, SyntaxError};
use crate::repair::MainReadings;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::Arc;

/// One game of a document.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    /// Byte offset of its first byte in the document.
    pub start: usize,
    /// Bytes of its text.
    pub len: usize,
    /// Of its text: a game read again with the same text keeps what was found in it.
    hash: u64,
    /// `None` until checked (after an edit, until the server's next round).
    pub checked: Option<Checked>,
}

impl Entry {
    /// Byte offset just past its text.
    pub fn end(&self) -> usize {
        self.start + self.len
    }

    /// Its bytes in the document.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end()
    }
}

/// What checking a game found.
#[derive(Clone, Debug, Default)]
pub(super) struct Checked {
    pub findings: Vec<Found>,
    /// The main line breaks: readings can be searched.
    pub broken: bool,
    /// The costly part of the check is done: the findings carry the readings of the breaks and
    /// what the count of a tagged margin found.
    pub readings: bool,
    /// The game as the outline shows it.
    pub outline: Outline,
    /// The game as `salta repair` writes it, with the readings it made (`None` inside: no
    /// repair), once asked for: the editor asks for actions at every move of the cursor, and
    /// a page read whole takes a tenth of a second or more.
    pub repaired: Option<Option<(String, Vec<String>)>>,
    /// The costly readings of the game's main line, made once for the findings and the repair.
    pub main_readings: MainReadings,
}

/// A game's entry in the document's outline.
#[derive(Clone, Debug, Default)]
pub(super) struct Outline {
    /// The players (`Krone – Grotewold`), or the Event, or `game N` when neither is given.
    pub players: Option<String>,
    /// Date, result and place, as given.
    pub detail: String,
    /// Each variation: its bytes in the game's text, depth and first move.
    pub variations: Vec<(Range<usize>, usize, String)>,
    /// The game could not be read.
    pub unreadable: bool,
}

/// An open document.
pub(super) struct Document {
    pub text: String,
    pub lines: Lines,
    /// The version the client gave with the last change.
    pub version: i32,
    /// Its games in order.
    pub games: Vec<Entry>,
}

/// The most a reader's binary sniff looks at: a stretch read again from the document's start
/// covers at least this much, so that it judges the text as a whole reading would.
const SNIFF: usize = 8000;

impl Document {
    /// A document opened with `text`: every game read (checked at the server's next round).
    pub fn open(text: String, version: i32) -> Document {
        let lines = Lines::new(&text);
        let games = entries(library::read_games(&text, 0), &text);
        Document {
            text,
            lines,
            version,
            games,
        }
    }

    /// Replaces the bytes a protocol range names (the whole text for `None`) with `new_text`,
    /// and reads the games around the edit again.
    pub fn edit(&mut self, range: Option<lsp_types::Range>, new_text: &str, encoding: Encoding) {
        let Some(range) = range else {
            *self = Document::open(new_text.to_string(), self.version);
            return;
        };
        let Range { start: a, end: b } = self.lines.bytes(&self.text, range, encoding);
        let old_len = self.text.len();
        // How a reading judges the document by its head (text, CR-ended lines, binary) is how
        // it reads every game, and a stretch read alone is read as text: an edit that changes
        // the judgement, or any edit of a document not judged text, reads the whole again.
        let judged_before = (a < HEAD_BYTES).then(|| judge_head(self.text.as_bytes()));
        self.text.replace_range(a..b, new_text);
        let judged = judge_head(self.text.as_bytes());
        if judged != Head::Text || judged_before.is_some_and(|before| before != judged) {
            *self = Document::open(std::mem::take(&mut self.text), self.version);
            return;
        }
        self.lines.edit(a, b, new_text);
        let delta = new_text.len() as isize - (b - a) as isize;
        let shifted = |at: usize| (at as isize + delta) as usize;

        // The games the edit touched, and one more each side.
        let count = self.games.len();
        let first_touched = self.games.partition_point(|g| g.end() < a);
        let after_touched = self.games.partition_point(|g| g.start <= b);
        let from = first_touched.saturating_sub(1);
        let mut to = (after_touched + 1).min(count);
        let region_start = if from == 0 { 0 } else { self.games[from].start };
        let region_end = |to: usize, games: &[Entry]| {
            games
                .get(to)
                .map_or(self.text.len(), |g: &Entry| shifted(g.start))
        };
        let _ = old_len;
        loop {
            let end = region_end(to, &self.games);
            if to < count && region_start == 0 && end < SNIFF.min(self.text.len()) {
                to += 1;
                continue;
            }
            let read = library::read_games(&self.text[region_start..end], region_start);
            let whole = region_start == 0 && end == self.text.len();
            let read: Vec<ReadGame> = read.filter(|g| whole || !is_no_game(g)).collect();
            if to < count && !ends_stably(read.last(), &self.text[end..]) {
                to += 1;
                continue;
            }
            let mut fresh = entries(read, &self.text);
            // A game read again with the same text keeps its findings.
            for entry in &mut fresh {
                entry.checked = self.games[from..to]
                    .iter()
                    .find(|old| old.hash == entry.hash && old.len == entry.len)
                    .and_then(|old| old.checked.clone());
            }
            for later in &mut self.games[to..] {
                later.start = shifted(later.start);
            }
            self.games.splice(from..to, fresh);
            return;
        }
    }

    /// The index of the game at byte `offset` (or the nearest before it, in the space between
    /// games).
    pub fn game_at(&self, offset: usize) -> Option<usize> {
        let after = self.games.partition_point(|g| g.start <= offset);
        after.checked_sub(1)
    }

    /// The text of game `index`.
    pub fn game_text(&self, index: usize) -> &str {
        self.games
            .get(index)
            .and_then(|g| self.text.get(g.range()))
            .unwrap_or_default()
    }

    /// Game `index` read again into its tree (`None` if it does not read).
    pub fn game(&self, index: usize) -> Option<Game> {
        self.read(index).and_then(Result::ok)
    }

    /// Game `index` read again: its tree, or the syntax error that broke it.
    pub fn read(&self, index: usize) -> Option<Result<Game, SyntaxError>> {
        let text = self.game_text(index);
        let read = library::read_games(text, 0).next()?.read;
        match &read {
            Ok(game) if game.offset != 0 => None,
            Err(e) if e.source.offset != 0 => None,
            _ => Some(read),
        }
    }

    /// Game `index` read again into its tree, or, if a syntax error broke it, the part read
    /// before the error (whose spans point into the same text).
    pub fn game_or_part(&self, index: usize) -> Option<Game> {
        match self.read(index)? {
            Ok(game) => Some(game),
            Err(e) => e.before.map(Arc::unwrap_or_clone),
        }
    }

    /// Checks every game not yet checked; true when any was.
    pub fn check(&mut self, opts: &CheckOptions) -> bool {
        let mut any = false;
        for index in 0..self.games.len() {
            if self.games[index].checked.is_some() {
                continue;
            }
            let text = self.game_text(index);
            let read = library::read_games(text, 0).next();
            let checked = match read {
                Some(read) => {
                    let (findings, broken, costly) = library::check(&read.read, opts);
                    Checked {
                        findings,
                        broken,
                        readings: !costly,
                        outline: outline_of(&read.read, text),
                        repaired: None,
                        main_readings: MainReadings::default(),
                    }
                }
                None => Checked::default(),
            };
            self.games[index].checked = Some(checked);
            any = true;
        }
        any
    }

    /// Does the costly part of game `index`'s check if it is still to do (the readings of its
    /// breaks, its tagged margin); true when it was done now.
    pub fn search_readings(&mut self, index: usize, opts: &CheckOptions) -> bool {
        let due = self.games.get(index).and_then(|g| g.checked.as_ref());
        let Some(due) = due.filter(|c| !c.readings) else {
            return false;
        };
        let findings = self
            .read(index)
            .map(|read| library::check_fully(&read, opts, &due.main_readings));
        if let Some(checked) = self.games[index].checked.as_mut() {
            if let Some(findings) = findings {
                checked.findings = findings;
            }
            checked.readings = true;
        }
        true
    }

    /// Game `index` repaired as `salta repair` repairs it (see [`Checked::repaired`]), worked
    /// out once for each check of the game; `None` where it needs or has no repair.
    pub fn repaired(&mut self, index: usize, opts: &CheckOptions) -> Option<(String, Vec<String>)> {
        let due = self.games.get(index)?.checked.as_ref()?;
        if let Some(known) = &due.repaired {
            return known.clone();
        }
        // Not a game whose end was not read.
        let repaired = match due.broken {
            true => {
                let game = self.game(index);
                game.and_then(|g| library::repaired(&g, opts, &due.main_readings))
            }
            false => None,
        };
        if let Some(checked) = self.games[index].checked.as_mut() {
            checked.repaired = Some(repaired.clone());
        }
        repaired
    }

    /// Whether its games are those a reading of its whole text finds.
    pub fn agrees_with_a_fresh_reading(&self) -> bool {
        let fresh = Document::open(self.text.clone(), self.version);
        let bounds = |d: &Document| d.games.iter().map(Entry::range).collect::<Vec<_>>();
        bounds(self) == bounds(&fresh)
    }

    /// The index of the first game whose costly part of the check is still to do.
    pub fn readings_due(&self) -> Option<usize> {
        self.games
            .iter()
            .position(|g| g.checked.as_ref().is_some_and(|c| !c.readings))
    }
}

/// The reader's "no game in this file", which only a reading of the whole document may say.
fn is_no_game(g: &ReadGame) -> bool {
    matches!(&g.read, Err(e) if e.code == Code::NoGame)
}

/// Whether a stretch read again ends where a reading of the whole document would end it
/// (`rest`: the text after it): its last game ended with a result token, or is followed by a tag
/// section, which ends a game that reads. A broken game ends where the reader finds its way
/// back into the text, which may lie past the stretch: the stretch is then widened.
fn ends_stably(last: Option<&ReadGame>, rest: &str) -> bool {
    match last {
        None => true,
        Some(ReadGame { read: Ok(game), .. }) => {
            game.result.is_some() || rest.trim_start().starts_with('[')
        }
        Some(ReadGame { read: Err(_), .. }) => false,
    }
}

/// The entries of games just read from `text` (their findings still to be made); each game's
/// tree is dropped as soon as its entry is made.
fn entries(read: impl IntoIterator<Item = ReadGame>, text: &str) -> Vec<Entry> {
    read.into_iter()
        .map(|g| {
            let range = g.start..(g.start + g.text_len).min(text.len());
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            text.get(range.clone())
                .unwrap_or_default()
                .hash(&mut hasher);
            Entry {
                start: range.start,
                len: range.len(),
                hash: hasher.finish(),
                checked: None,
            }
        })
        .collect()
}

/// A game's entry in the outline.
fn outline_of(read: &Result<Game, crate::notation::SyntaxError>, text: &str) -> Outline {
    let game = match read {
        Ok(game) => game,
        Err(e) => {
            let tag = |name: &str| {
                e.tags
                    .iter()
                    .find(|t| t.name == name)
                    .map(|t| t.value.clone())
            };
            return Outline {
                players: players(tag("Green"), tag("Red"), tag("Event")),
                detail: format!("does not read: {}", e.message),
                variations: Vec::new(),
                unreadable: true,
            };
        }
    };
    let tag = |name: &str| game.tag(name).map(str::to_string);
    let detail: Vec<String> = ["Date", "Result", "Site"]
        .iter()
        .filter_map(|name| tag(name))
        .filter(|v| !v.is_empty())
        .collect();
    let mut variations = Vec::new();
    for node in &game.mainline.moves {
        variations_of(node, text, 1, &mut variations);
    }
    Outline {
        players: players(tag("Green"), tag("Red"), tag("Event")),
        detail: detail.join(" · "),
        variations,
        unreadable: false,
    }
}

/// `Green – Red` (a player not given is `?`), or the event when neither is given.
fn players(green: Option<String>, red: Option<String>, event: Option<String>) -> Option<String> {
    match (green, red) {
        (None, None) => event,
        (g, r) => Some(format!(
            "{} – {}",
            g.as_deref().unwrap_or("?"),
            r.as_deref().unwrap_or("?")
        )),
    }
}

/// The variations after a move, and theirs, in the order written.
fn variations_of(
    node: &crate::notation::MoveNode,
    text: &str,
    depth: usize,
    out: &mut Vec<(Range<usize>, usize, String)>,
) {
    for variation in node.variations() {
        let Some(first) = variation.moves.first() else {
            continue;
        };
        let inner = Span::new(
            variation
                .comments
                .first()
                .map_or(first.span.start, |c| c.span.start) as usize,
            last_end(variation) as usize,
        );
        // The parentheses around it.
        let open = text[..inner.start as usize]
            .rfind('(')
            .unwrap_or(inner.start as usize);
        let close = text[inner.end as usize..]
            .find(')')
            .map_or(inner.end as usize, |i| inner.end as usize + i + 1);
        let number = first.number.map(|n| {
            if n.ellipsis {
                format!("{}... ", n.number)
            } else {
                format!("{}. ", n.number)
            }
        });
        let first_move = text.get(first.span.range()).unwrap_or_default();
        out.push((
            open..close,
            depth,
            format!("({}{first_move} …)", number.unwrap_or_default()),
        ));
        for node in &variation.moves {
            variations_of(node, text, depth + 1, out);
        }
    }
}

/// Where the last thing written in a variation ends (a move, its call, comment or variation).
fn last_end(variation: &crate::notation::Variation) -> u32 {
    let mut end = variation
        .comments
        .iter()
        .map(|c| c.span.end)
        .max()
        .unwrap_or(0);
    if let Some(last) = variation.moves.last() {
        end = end.max(last.span.end);
        end = end.max(last.salta().map_or(0, |s| s.end));
        end = end.max(
            last.comments()
                .iter()
                .map(|c| c.span.end)
                .max()
                .unwrap_or(0),
        );
        end = end.max(last.variations().iter().map(last_end).max().unwrap_or(0) + 1);
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range as LspRange};

    /// Games with and without tags and results, a variation, a comment, a broken game.
    const GAMES: &str = "[Event \"A\"]\n\n1. 33-43 83-73 *\n\n1. 33-43 (1. 32-42) 83-73 1-0 1. 34-44 *\n\
        [Event \"B\"]\n{a comment} 1. 33-43 83-7\n\n[Green \"Ö\"]\n1. 33-43 0-1\n";

    #[test]
    fn edits_keep_the_games_a_fresh_reading_finds() {
        // A small deterministic generator: edits anywhere, of the document's own characters.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let pieces = [
            "",
            "[",
            "]",
            "\"",
            "*",
            "1-0",
            " ",
            "\n",
            "\n\n",
            "{",
            "}",
            "(",
            ")",
            "33-43",
            "1.",
            "[Event \"C\"]\n",
            // What the reader reads on past: garbled moves, misread or glued move numbers.
            "3S-4",
            "33\u{2014}43",
            "3343",
            "l2.",
            "4,",
            "13.",
        ];
        for round in 0..2000 {
            let mut doc = Document::open(GAMES.to_string(), 1);
            for _ in 0..6 {
                let pos =
                    |line: usize, character: usize| Position::new(line as u32, character as u32);
                let a = pos(next(lines_count(&doc) + 1), next(30));
                let b = pos(next(lines_count(&doc) + 1), next(30));
                let text = pieces[next(pieces.len())];
                let before = doc.text.clone();
                let bounds = |d: &Document| d.games.iter().map(Entry::range).collect::<Vec<_>>();
                let old = bounds(&doc);
                doc.edit(Some(LspRange::new(a, b)), text, Encoding::Utf16);
                let fresh = Document::open(doc.text.clone(), 1);
                assert!(
                    doc.agrees_with_a_fresh_reading(),
                    "round {round}: {before:?} {old:?}\n{a:?}-{b:?} {text:?}\n{:?}\n{:?}\n{:?}",
                    doc.text,
                    bounds(&doc),
                    bounds(&fresh)
                );
            }
        }
    }

    fn lines_count(doc: &Document) -> usize {
        doc.text.lines().count()
    }
}
