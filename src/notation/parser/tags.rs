//! The tag section: tag pairs, and those repaired as they are read.

use super::log::Token;
use super::recovery::{RawError, Resume, error};
use super::scan::first_of;
use super::tokens::{spaces, tag_name, text};
use super::{PResult, Parser, Stop};
use crate::diagnostic::Code;
use crate::notation::ast::*;
use nom::Parser as _;
use nom::bytes::complete::tag;

impl<'a> Parser<'a> {
    /// `[Name "value"]` with `\"` and `\\` escapes: a [`Token::Tag`].
    pub(super) fn tag_pair(&mut self) -> PResult<Token> {
        let start = self.pos;
        let line_end = self.line_end(start);
        let in_tags = |mut e: Box<RawError>| {
            e.resume = Resume::Scan {
                from: e.span.end as usize,
                in_tags: true,
            };
            Stop::Error(e)
        };
        if line_end - start > self.limits.tag_bytes {
            return Err(in_tags(
                error(
                    Code::TagTooLong,
                    "tag too long",
                    Span::new(start, start + 1),
                    "this tag",
                )
                .help(format!(
                    "a tag pair may hold at most {} bytes",
                    self.limits.tag_bytes
                )),
            ));
        }
        let line = &self.src[..line_end];
        let bad = |at: usize, message: &str, label: &str, help: &str| {
            let end = (at + 1).min(line_end).max(at);
            let span = if end > at && line.get(at).is_some_and(|&b| b < 0x80) {
                Span::new(at, end)
            } else {
                Span::new(at, at)
            };
            in_tags(error(Code::BadTag, message, span, label).help(help))
        };
        let after_open = &line[start + 1..];
        let (rest, _) = spaces(after_open).unwrap_or((after_open, &[]));
        let name_start = line_end - rest.len();
        let Ok((rest, name)) = tag_name(rest) else {
            let at = line_end - rest.len();
            return Err(bad(
                at,
                "tag without a name",
                "expected a tag name here",
                "a tag is written [Name \"value\"]",
            ));
        };
        let (rest, _) = spaces(rest).unwrap_or((rest, &[]));
        let quote = line_end - rest.len();
        if rest.first() != Some(&b'"') {
            return Err(bad(
                quote,
                "tag value not in quotes",
                "expected \" here",
                "a tag is written [Name \"value\"]",
            ));
        }
        let name = Span::new(name_start, name_start + name.len());
        // To the closing quote, past escaped quotes and backslashes.
        let (mut i, mut escaped) = (quote + 1, false);
        loop {
            match first_of(&line[i..], b'"', b'\\') {
                None => {
                    if let Some(tag) = self.repaired_tag(start, name, quote, line_end) {
                        return Ok(tag);
                    }
                    let span = Span::new(quote, quote + 1);
                    return Err(in_tags(
                        error(Code::BadTag, "tag value never closed", span, "value opened here")
                            .help("close it with \" before the end of the line; write \\\" for a quote inside it"),
                    ));
                }
                Some(at) if line[i + at] == b'"' => {
                    i += at;
                    break;
                }
                // A backslash escapes the byte after it if that is a quote or a backslash.
                Some(at) if matches!(line.get(i + at + 1), Some(b'"' | b'\\')) => {
                    i += at + 2;
                    escaped = true;
                }
                Some(at) => i += at + 1,
            }
        }
        let after_value = &line[i + 1..];
        let (rest, _) = spaces(after_value).unwrap_or((after_value, &[]));
        let close = line_end - rest.len();
        if rest.first() != Some(&b']') {
            if let Some(tag) = self.repaired_tag(start, name, quote, line_end) {
                return Ok(tag);
            }
            return Err(bad(
                close,
                "tag not closed",
                "expected ] here",
                "a tag is written [Name \"value\"]",
            ));
        }
        self.pos = close + 1;
        Ok(Token::Tag {
            span: Span::new(start, self.pos),
            name,
            value: Span::new(quote + 1, i),
            escaped,
        })
    }

    /// Repairs the two common slips in a tag pair alone on its line (pgn-extract's tag-string
    /// repair), with a warning: quotes inside the value not escaped (`[Event "Bad "Ems" 1901"]`:
    /// the value runs to the last quote) and the closing quote left out (`[Event "Jüterbog]`: the
    /// value runs to the `]`). Anything else stays an error.
    pub(super) fn repaired_tag(
        &mut self,
        start: usize,
        name: Span,
        quote: usize,
        line_end: usize,
    ) -> Option<Token> {
        let line = self.src.get(start..line_end)?;
        let close = line.iter().rposition(|&b| !b.is_ascii_whitespace())?;
        if line[close] != b']' {
            return None;
        }
        let inside = self.src.get(quote + 1..start + close)?.trim_ascii_end();
        let (value, slip) = match inside.strip_suffix(b"\"") {
            Some(value) if value.contains(&b'"') => {
                (value, "has quotes inside it that are not escaped")
            }
            Some(_) => return None,
            None if !inside.contains(&b'"') => (inside, "is not closed with a quote"),
            None => return None,
        };
        // Tag names are ASCII (see `tag_name`).
        let name_text = std::str::from_utf8(&self.src[name.range()]).unwrap_or_default();
        self.log.warnings.push(Warning {
            code: Code::TagRepaired,
            message: format!(
                "the {name_text} tag's value {slip}: read as {}",
                crate::diagnostic::quote(&text(value))
            ),
            span: Span::new(start, start + close + 1),
        });
        self.pos = start + close + 1;
        Some(Token::Tag {
            span: Span::new(start, self.pos),
            name,
            value: Span::new(quote + 1, quote + 1 + value.len()),
            escaped: false,
        })
    }

    /// Whether a tag pair (`[Name "`) starts the line at `i`.
    pub(super) fn tag_line_at(&self, i: usize) -> bool {
        let rest = self.src.get(i..).unwrap_or_default();
        (spaces, tag("["), tag_name, spaces, tag("\""))
            .parse(rest)
            .is_ok()
    }
}
