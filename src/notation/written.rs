//! What the reader lends a visitor, borrowed from the game's text: a tag pair, a comment and a
//! move as written.

use super::ast::{MoveNumber, Played, Span, Tag};
use std::borrow::Cow;

/// A tag pair as written, `[Name "value"]`, borrowed from the game's text.
#[derive(Clone, Copy, Debug)]
pub struct RawTag<'a> {
    name: &'a str,
    written: &'a str,
    span: Span,
    /// `written` holds a `\"` or `\\` escape, which stands for `"` or `\` (never so in a repaired
    /// tag, whose value is taken as it stands).
    escaped: bool,
}

impl<'a> RawTag<'a> {
    pub(crate) fn new(name: &'a str, written: &'a str, span: Span, escaped: bool) -> RawTag<'a> {
        RawTag {
            name,
            written,
            span,
            escaped,
        }
    }

    /// The tag's name.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The value with its escapes (`\"`, `\\`) resolved: borrowed unless it holds one.
    pub fn value(&self) -> Cow<'a, str> {
        if !self.escaped {
            return Cow::Borrowed(self.written);
        }
        let mut value = String::with_capacity(self.written.len());
        let mut chars = self.written.chars();
        while let Some(c) = chars.next() {
            match (c, chars.clone().next()) {
                ('\\', Some(next @ ('"' | '\\'))) => {
                    value.push(next);
                    chars.next();
                }
                _ => value.push(c),
            }
        }
        Cow::Owned(value)
    }

    /// The value as written between the quotes, escapes and all.
    pub fn written(&self) -> &'a str {
        self.written
    }

    /// The whole tag pair in the game's text.
    pub fn span(&self) -> Span {
        self.span
    }
}

impl From<RawTag<'_>> for Tag {
    /// The tag pair as an owned [`Tag`], its value's escapes resolved.
    fn from(tag: RawTag<'_>) -> Tag {
        Tag {
            name: Tag::known_name(tag.name()),
            value: tag.value().into_owned(),
            span: tag.span(),
        }
    }
}

/// A comment, `{…}` or `;…`, borrowed from the game's text.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct RawComment<'a> {
    /// The text inside the braces or after the semicolon, trimmed.
    pub text: &'a str,
    /// The whole comment, delimiters included.
    pub span: Span,
}

/// A move token as written, with the move number written before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WrittenMove {
    /// The move number written before it (`12.` or `12...`), if any.
    pub number: Option<MoveNumber>,
    /// What the move token says.
    pub played: Played,
    /// The span of the move itself (designator through to-square, or `--`).
    pub span: Span,
}
