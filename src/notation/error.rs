//! Syntax errors of SGN records, as miette diagnostics that point into the file.

use super::ast::{Game, Span, Tag};
use super::newlines::count_newlines;
use super::safe_text::printable;
use crate::board::Color;
use crate::diagnostic::{Code, Severity};
use crate::rules::{Position, Rules};
use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::{fmt, io};

/// The text of one game with where it sits in its file, so that diagnostics give file lines and
/// columns although spans are relative to the game.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GameSource {
    /// The file name shown in diagnostics.
    pub name: Arc<str>,
    /// Byte offset of the game in its file.
    pub offset: u64,
    /// 1-based line of the game's first byte in its file.
    pub line: u32,
    /// 1-based column of the game's first byte (games after a result on the same line start mid-line).
    pub column: u32,
    /// 1-based index of the game in its file.
    pub index: usize,
    /// What precedes the game on its first line, then the game's text as read: shown in snippets
    /// so that a game starting mid-line is drawn where it is in the file.
    shown: String,
    /// Bytes of `shown` before the game.
    lead: usize,
    /// Where the lines of `shown` start, for drawing snippets.
    line_starts: OnceLock<Vec<usize>>,
    /// `shown` made [`printable`] for the terminal (the same length, so spans still point where
    /// they did), made when first drawn: only drawing sanitises, the text stays as read.
    safe: OnceLock<String>,
    /// Characters of `shown` before every [`CHAR_MARK`]-th byte: a column far into a long line
    /// is counted from the nearest mark, not from the line's start (a line of 40,000 findings
    /// was drawn in quadratic time).
    char_marks: OnceLock<Vec<u32>>,
}

/// Bytes between two marks of [`GameSource::char_marks`].
const CHAR_MARK: usize = 4096;

impl GameSource {
    /// `lead` is the text before the game on its first line (may be empty).
    pub fn new(
        name: Arc<str>,
        lead: &str,
        text: &str,
        offset: u64,
        line: u32,
        column: u32,
        index: usize,
    ) -> GameSource {
        let mut shown = String::with_capacity(lead.len() + text.len());
        shown.push_str(lead);
        shown.push_str(text);
        GameSource {
            name,
            offset,
            line,
            column,
            index,
            shown,
            lead: lead.len(),
            line_starts: OnceLock::new(),
            safe: OnceLock::new(),
            char_marks: OnceLock::new(),
        }
    }

    /// The source of a game read whole (its [`Game::text`], where the reader found it), as
    /// diagnostics about it show it: `file` is the name they give, `index` the game's 1-based
    /// place in the file.
    pub fn of_game(file: &Arc<str>, index: usize, game: &Game) -> GameSource {
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

    /// The game's text (decoded, not made printable), as in [`super::Game::text`].
    pub fn text(&self) -> &str {
        self.shown.get(self.lead..).unwrap_or_default()
    }

    /// A span of the game text as the span of what is shown that a label underlines (at most
    /// 200 bytes of it).
    pub fn label_span(&self, span: Span) -> SourceSpan {
        clipped(
            &self.shown,
            (span.start as usize + self.lead, span.len()).into(),
        )
    }

    /// The 1-based file line and column of a byte offset into the game text.
    pub fn location(&self, at: usize) -> (u32, u32) {
        self.locations([at])[0]
    }

    /// The 1-based file lines and columns of byte offsets into the game text, in the order given,
    /// found in one pass over the text however many there are.
    pub fn locations(&self, offsets: impl IntoIterator<Item = usize>) -> Vec<(u32, u32)> {
        let text = self.text().as_bytes();
        let mut order: Vec<(usize, usize)> = offsets
            .into_iter()
            .map(|at| at.min(text.len()))
            .enumerate()
            .map(|(i, at)| (at, i))
            .collect();
        order.sort_unstable();
        let mut found = vec![(0, 0); order.len()];
        // Walking forward: the line so far, and characters since its start.
        let (mut pos, mut line, mut chars) = (0, self.line, 0u32);
        let mut column_base = self.column;
        for (at, i) in order {
            let passed = &text[pos..at];
            let newlines = count_newlines(passed);
            if newlines > 0 {
                line = line.saturating_add(newlines as u32);
                let line_start = passed
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                chars = count_chars(&passed[line_start..]);
                column_base = 1;
            } else {
                chars = chars.saturating_add(count_chars(passed));
            }
            pos = at;
            found[i] = (line, column_base.saturating_add(chars));
        }
        found
    }

    /// What is shown, made printable: no escape sequence from a file may reach a terminal.
    fn safe(&self) -> &str {
        self.safe
            .get_or_init(|| printable(&self.shown, true).into_owned())
    }

    /// The characters of `shown` in `from..to` (byte offsets at character boundaries, `from` ≤
    /// `to`), counted from the marks: at most two stretches of [`CHAR_MARK`] bytes.
    fn chars_between(&self, from: usize, to: usize) -> usize {
        let bytes = self.shown.as_bytes();
        let marks = self.char_marks.get_or_init(|| {
            let mut total = 0u32;
            let mut marks = vec![0];
            for block in bytes.chunks(CHAR_MARK) {
                total = total.saturating_add(count_chars(block));
                marks.push(total);
            }
            marks
        });
        let before = |at: usize| {
            let mark = at / CHAR_MARK;
            marks[mark] as usize + count_chars(&bytes[mark * CHAR_MARK..at]) as usize
        };
        before(to) - before(from)
    }

    /// The byte offsets in `shown` where its lines start, made once per game when first asked.
    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(
                    (self.shown.bytes().enumerate())
                        .filter(|&(_, b)| b == b'\n')
                        .map(|(i, _)| i + 1),
                )
                .collect()
        })
    }
}

/// Characters in a stretch of UTF-8 (continuation bytes do not count; a stretch that starts or ends
/// inside a character counts as the decoder would).
fn count_chars(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b & 0xc0 != 0x80).count() as u32
}

/// The most of a line a snippet shows on either side of the span it points at: a game written on
/// one line of ordinary length is shown whole, but one megabyte-long line would otherwise be
/// echoed whole for each finding.
const SNIPPET_MARGIN: usize = 400;
/// The most of the context lines around a snippet's span that it shows.
const CONTEXT_BYTES: usize = 1000;
/// The most of a span a label underlines.
const LABEL_BYTES: usize = 200;

/// `span` cut to at most [`LABEL_BYTES`] at a character boundary of `text`.
fn clipped(text: &str, span: SourceSpan) -> SourceSpan {
    if span.len() <= LABEL_BYTES {
        return span;
    }
    let mut end = span.offset() + LABEL_BYTES;
    while end > span.offset() && !text.is_char_boundary(end) {
        end -= 1;
    }
    (span.offset(), end - span.offset()).into()
}

/// The nearest character boundary of `text` at or before `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The nearest character boundary of `text` at or after `at`.
fn ceil_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

impl SourceCode for GameSource {
    /// Reads only the lines around the span (found in the line index) and, of a long line, only
    /// 400 bytes either side of the span: drawing a finding costs the same in a
    /// game of one line as in a game of a million.
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let shown = self.safe();
        let starts = self.line_starts();
        let line_of = |at: usize| starts.partition_point(|&s| s <= at) - 1;
        let line_end = |line: usize| starts.get(line + 1).copied().unwrap_or(shown.len());
        let span_end = span.offset() + span.len();
        let (span_first, span_last) = (line_of(span.offset()), line_of(span_end.saturating_sub(1)));
        // A long line around the span is cut SNIPPET_MARGIN bytes either side of it, and then
        // shown without context lines; context lines are cut to CONTEXT_BYTES.
        let cut_start = floor_boundary(shown, span.offset().saturating_sub(SNIPPET_MARGIN));
        let (first, window_start) = if cut_start > starts[span_first] {
            (span_first, cut_start)
        } else {
            // The first whole line within CONTEXT_BYTES before the span's line.
            let from = starts[span_first].saturating_sub(CONTEXT_BYTES);
            let earliest = line_of(from) + usize::from(starts[line_of(from)] < from);
            let first = span_first
                .saturating_sub(context_lines_before)
                .max(earliest);
            (first, starts[first])
        };
        let cut_end = ceil_boundary(shown, span_end + SNIPPET_MARGIN);
        let window_end = if cut_end < line_end(span_last) {
            cut_end
        } else {
            let last = (span_last + context_lines_after).min(starts.len() - 1);
            ceil_boundary(
                shown,
                line_end(last).min(line_end(span_last) + CONTEXT_BYTES),
            )
        };
        let window = shown
            .get(window_start..window_end.max(window_start))
            .ok_or(MietteError::OutOfBounds)?;
        let local = SourceSpan::from((span.offset().saturating_sub(window_start), span.len()));
        let inner = window.read_span(&local, context_lines_before, context_lines_after)?;
        let line = first + inner.line();
        let lead_chars = shown.get(..self.lead).unwrap_or_default().chars().count();
        // Columns of a window that starts inside a line count from the line's start, and the
        // game's first line starts where the game does in its file.
        let mut column = inner.column();
        if inner.line() == 0 {
            column += self.chars_between(starts[first], window_start);
        }
        if line == 0 {
            column += (self.column as usize - 1).saturating_sub(lead_chars);
        }
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            (inner.span().offset() + window_start, inner.span().len()).into(),
            line + self.line as usize - 1,
            column,
            inner.line_count(),
        )))
    }
}

/// Where in the movetext a syntax error struck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MovePlace {
    /// 1-based ply of the move being read, counted from the game's start.
    pub ply: u32,
    /// The move number that ply belongs to.
    pub number: u32,
    /// The side whose ply it is.
    pub side: Color,
    /// Whether the error is inside a variation (the ply then counts the main line read before it).
    pub in_variation: bool,
}

impl MovePlace {
    /// The place of ply `ply` in a game with these tags (its Setup tag says who starts, and with
    /// which move number).
    pub(crate) fn of(ply: u32, in_variation: bool, tags: &[Tag]) -> MovePlace {
        let find = |name: &str| {
            tags.iter()
                .find(|t| t.name == name)
                .map(|t| t.value.as_str())
        };
        let rules = find("Rules")
            .and_then(|r| Rules::from_str(r).ok())
            .unwrap_or_default();
        let (side, number) = find("Setup")
            .and_then(|s| Position::from_setup(s, rules).ok())
            .map_or((Color::Green, 1), |p| (p.side_to_move(), p.move_number()));
        // Plies before this move, counted from Green's half of the starting move number.
        let before = ply.saturating_sub(1) + u32::from(side == Color::Red);
        MovePlace {
            ply,
            number: number.saturating_add(before / 2),
            side: if before.is_multiple_of(2) {
                Color::Green
            } else {
                Color::Red
            },
            in_variation,
        }
    }
}

/// A syntax error in one game of an SGN file. The reader goes on with the next game.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SyntaxError {
    /// What kind of error, as a stable code.
    pub code: Code,
    /// What is wrong, in words.
    pub message: String,
    /// What the label under the span says.
    pub label: String,
    /// What was expected and, where it can be guessed, the fix.
    pub help: Option<String>,
    /// Where, relative to the game text.
    pub span: Span,
    /// A second place that explains the first ("variation opened here").
    pub related: Option<(Span, String)>,
    /// The tags read before the error.
    pub tags: Vec<Tag>,
    /// The move being read, if the error struck in the movetext.
    pub at: Option<MovePlace>,
    /// When the error struck in the movetext, the game as read up to it: its tags, what the
    /// reader tolerated, and the moves before the error (a variation open there closed where it
    /// broke), without a result. Replayed, it reports what is wrong before the error.
    pub before: Option<Arc<Game>>,
    /// The game's text and position in its file.
    pub source: GameSource,
    /// The read error behind a [`Code::Io`] error (shared, as the error cannot be cloned): its
    /// [`SyntaxError::io_kind`] and the error's `source()`.
    pub(crate) io: Option<Arc<io::Error>>,
}

impl SyntaxError {
    /// The kind of the read error behind a [`Code::Io`] error (`None` for every other code), so
    /// that a program can tell a missing permission from a failing disk; the error itself is the
    /// `source()` of this one.
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        self.io.as_ref().map(|e| e.kind())
    }

    /// 1-based line and column of the error in the file.
    pub fn location(&self) -> (u32, u32) {
        self.source.location(self.span.start as usize)
    }

    /// Byte offset of the erroneous game in its file.
    pub fn game_offset(&self) -> u64 {
        self.source.offset
    }

    /// 1-based line where the erroneous game starts in its file.
    pub fn game_line(&self) -> u32 {
        self.source.line
    }

    /// 1-based index of the erroneous game in its file.
    pub fn game_index(&self) -> usize {
        self.source.index
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = self.source.index;
        match self.at {
            Some(at) if at.in_variation => write!(
                f,
                "game {game}, in a variation, move {} ({}): {}",
                at.number, at.side, self.message
            ),
            Some(at) => write!(
                f,
                "game {game}, move {} ({}): {}",
                at.number, at.side, self.message
            ),
            // Findings about the file as a whole belong to no game.
            None if self.code.is_about_file() => f.write_str(&self.message),
            None => write!(f, "game {game}: {}", self.message),
        }
    }
}

impl std::error::Error for SyntaxError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl miette::Diagnostic for SyntaxError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        (self.code.severity() == Severity::Warning).then_some(miette::Severity::Warning)
    }

    /// The help written for the place, or else the code's generic advice.
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.help.as_deref().unwrap_or(self.code.help())))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = LabeledSpan::new_primary_with_span(
            Some(self.label.clone()),
            self.source.label_span(self.span),
        );
        let related = self.related.as_ref().map(|(span, text)| {
            LabeledSpan::new_with_span(Some(text.clone()), self.source.label_span(*span))
        });
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

#[cfg(test)]
mod tests {
    use super::GameSource;
    use std::sync::Arc;

    /// Characters counted from the marks are the characters there are, on a long line of
    /// characters of one to four bytes.
    #[test]
    fn characters_between_offsets_are_counted_from_the_marks() {
        let line: String = "aé€😀".repeat(3000);
        let source = GameSource::new(Arc::from("t"), "le\u{e9}d", &line, 0, 1, 1, 1);
        let shown = format!("le\u{e9}d{line}");
        let boundaries: Vec<usize> = (0..=shown.len())
            .filter(|&i| shown.is_char_boundary(i))
            .step_by(997)
            .collect();
        for &from in &boundaries {
            for &to in boundaries.iter().filter(|&&to| to >= from) {
                assert_eq!(
                    source.chars_between(from, to),
                    shown[from..to].chars().count(),
                    "{from}..{to}"
                );
            }
        }
    }
}
