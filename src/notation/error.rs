//! Syntax errors of SGN records, as miette diagnostics that point into the file.

use super::ast::Span;
use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// Text safe to show on a terminal: every control character (escape sequences, a carriage return
/// that would overwrite the line, a newline too unless `newlines`) is replaced, byte for byte, so
/// that nothing read from a file can move the cursor, recolour or retitle the terminal, or forge a
/// report line; the text keeps its length. Tabs stay.
pub fn printable(text: &str, newlines: bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\t' && !(newlines && c == '\n');
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\r' => safe.push(' '),
            c if unsafe_char(c) => safe.extend(std::iter::repeat_n('?', c.len_utf8())),
            c => safe.push(c),
        }
    }
    Cow::Owned(safe)
}

/// The stable code of a syntax error (`sgn::...`), for scripts and for the grammar's reject files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// A token that fits nowhere in the grammar.
    UnexpectedToken,
    /// A number or name that is not a square of the board.
    BadSquare,
    /// Numeric and algebraic squares in one move.
    MixedNotation,
    /// A piece designator out of range (`Su6`, `#16`).
    BadDesignator,
    /// A move number that is too large.
    BadMoveNumber,
    /// A NAG (`$n`) without digits or out of range.
    BadNag,
    /// A malformed tag pair (`[Name "value"]`).
    BadTag,
    /// A `{` comment never closed.
    UnclosedComment,
    /// A `(` variation never closed.
    UnclosedVariation,
    /// A `)` with no variation open.
    UnmatchedParen,
    /// A variation, annotation or `Salta!` call before any move.
    Misplaced,
    /// A result token inside a variation.
    ResultInVariation,
    /// A tag name or value longer than the limit.
    TagTooLong,
    /// A comment longer than the limit.
    CommentTooLong,
    /// A game larger than the limit.
    GameTooLarge,
    /// Variations nested deeper than the limit.
    TooDeep,
    /// The input could not be read.
    Io,
}

impl ErrorCode {
    /// The stable code as reports print it (`sgn::unexpected-token`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnexpectedToken => "sgn::unexpected-token",
            ErrorCode::BadSquare => "sgn::bad-square",
            ErrorCode::MixedNotation => "sgn::mixed-notation",
            ErrorCode::BadDesignator => "sgn::bad-designator",
            ErrorCode::BadMoveNumber => "sgn::bad-move-number",
            ErrorCode::BadNag => "sgn::bad-nag",
            ErrorCode::BadTag => "sgn::bad-tag",
            ErrorCode::UnclosedComment => "sgn::unclosed-comment",
            ErrorCode::UnclosedVariation => "sgn::unclosed-variation",
            ErrorCode::UnmatchedParen => "sgn::unmatched-paren",
            ErrorCode::Misplaced => "sgn::misplaced",
            ErrorCode::ResultInVariation => "sgn::result-in-variation",
            ErrorCode::TagTooLong => "sgn::tag-too-long",
            ErrorCode::CommentTooLong => "sgn::comment-too-long",
            ErrorCode::GameTooLarge => "sgn::game-too-large",
            ErrorCode::TooDeep => "sgn::too-deep",
            ErrorCode::Io => "sgn::io",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text of one game with where it sits in its file, so that diagnostics give file lines and
/// columns although spans are relative to the game.
#[derive(Clone, Debug)]
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
    /// What precedes the game on its first line, then the game's text: shown in snippets so that
    /// a game starting mid-line is drawn where it is in the file.
    shown: String,
    /// Bytes of `shown` before the game.
    lead: usize,
}

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
        // Shown on terminals: no escape sequence from a file may reach one. Same length, so the
        // spans still point where they did.
        if let Cow::Owned(safe) = printable(&shown, true) {
            shown = safe;
        }
        GameSource {
            name,
            offset,
            line,
            column,
            index,
            shown,
            lead: lead.len(),
        }
    }

    /// The game's text (decoded), as in [`super::Game::text`].
    pub fn text(&self) -> &str {
        self.shown.get(self.lead..).unwrap_or_default()
    }

    /// A span of the game text as a span of what is shown.
    fn shown_span(&self, span: Span) -> SourceSpan {
        (span.start as usize + self.lead, span.len()).into()
    }

    /// The 1-based file line and column of a byte offset into the game text.
    pub fn location(&self, at: usize) -> (u32, u32) {
        let text = self.text().as_bytes();
        let before = text.get(..at.min(text.len())).unwrap_or_default();
        let newlines = before.iter().filter(|&&b| b == b'\n').count() as u32;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let chars = String::from_utf8_lossy(before.get(line_start..).unwrap_or_default())
            .chars()
            .count() as u32;
        let column = if newlines == 0 {
            self.column + chars
        } else {
            1 + chars
        };
        (self.line + newlines, column)
    }
}

impl SourceCode for GameSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner =
            self.shown
                .as_str()
                .read_span(span, context_lines_before, context_lines_after)?;
        let lead_chars = self
            .shown
            .get(..self.lead)
            .unwrap_or_default()
            .chars()
            .count();
        let first_line_column = (self.column as usize - 1).saturating_sub(lead_chars);
        let column = inner.column()
            + if inner.line() == 0 {
                first_line_column
            } else {
                0
            };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            *inner.span(),
            inner.line() + self.line as usize - 1,
            column,
            inner.line_count(),
        )))
    }
}

/// A syntax error in one game of an SGN file. The reader goes on with the next game.
#[derive(Clone, Debug)]
pub struct SyntaxError {
    /// What kind of error, as a stable code.
    pub code: ErrorCode,
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
    /// The game's text and position in its file.
    pub source: GameSource,
}

impl SyntaxError {
    /// The stable code as reports print it (`sgn::unexpected-token`).
    pub fn code(&self) -> &'static str {
        self.code.as_str()
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
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

impl miette::Diagnostic for SyntaxError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = LabeledSpan::new_primary_with_span(
            Some(self.label.clone()),
            self.source.shown_span(self.span),
        );
        let related = self.related.as_ref().map(|(span, text)| {
            LabeledSpan::new_with_span(Some(text.clone()), self.source.shown_span(*span))
        });
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}
