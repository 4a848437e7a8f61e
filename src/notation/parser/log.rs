//! What the parser read of a game: its tokens in the order written.

use super::scan::NumericMove;
use crate::board::BoardKind;
use crate::notation::ast::*;
use crate::notation::written::{RawTag, WrittenMove};

/// One thing a game holds, in the order written; spans are into the game's text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Token {
    /// `[Name "value"]`: the whole pair, its name, and its value between the quotes (`escaped`:
    /// it holds a `\"` or `\\` escape; a repaired tag's value is taken as it stands).
    Tag {
        span: Span,
        name: Span,
        value: Span,
        escaped: bool,
    },
    /// The tags are over (comments before or among them follow this token).
    BeginMovetext,
    /// A comment: the whole of it and its trimmed text.
    Comment {
        span: Span,
        text: Span,
    },
    /// The move number of the [`Token::Numeric`] move that follows at once (the other moves hold
    /// theirs).
    Number(MoveNumber),
    /// A move between numeric squares, the commonest token, kept small.
    Numeric(NumericMove),
    /// The commonest pair of tokens, a move number and its numeric move, as one.
    Numbered(MoveNumber, NumericMove),
    /// Any other move: its index in [`Log::moves`].
    Move(u32),
    Salta(Span),
    Suffix(&'static str, Span),
    Nag(u16, Span),
    /// `(` at this span.
    BeginVariation(Span),
    EndVariation,
}

/// What the parser read of a game: its tokens, its warnings and its result.
#[derive(Debug, Default)]
pub(crate) struct Log {
    pub tokens: Vec<Token>,
    /// The moves of the [`Token::Move`] tokens.
    pub moves: Vec<WrittenMove>,
    pub warnings: Vec<Warning>,
    pub result: Option<(GameResult, Span)>,
    /// The board the game's squares were read on.
    pub board: BoardKind,
}

impl Log {
    /// Makes what was read of a game broken by a syntax error in its movetext a game of its own:
    /// a call left without its correction dropped, the variations open at the error closed.
    pub(crate) fn close_broken(&mut self) {
        if let Some(Token::Salta(_)) = self.tokens.last() {
            self.tokens.pop();
        }
        let open = self.tokens.iter().fold(0usize, |open, token| match token {
            Token::BeginVariation(_) => open + 1,
            Token::EndVariation => open.saturating_sub(1),
            _ => open,
        });
        self.tokens
            .extend(std::iter::repeat_n(Token::EndVariation, open));
        self.result = None;
    }
}

impl Token {
    /// A tag token as a tag pair of the game's text `src`.
    pub(crate) fn raw_tag<'s>(&self, src: &'s str) -> Option<RawTag<'s>> {
        let Token::Tag { name, value, .. } = *self else {
            return None;
        };
        let slice = |s: Span| src.get(s.range()).unwrap_or_default();
        self.raw_tag_of(slice(name), slice(value))
    }

    /// A tag token as a tag pair with this name and value as written.
    pub(super) fn raw_tag_of<'s>(&self, name: &'s str, written: &'s str) -> Option<RawTag<'s>> {
        match *self {
            Token::Tag { span, escaped, .. } => Some(RawTag::new(name, written, span, escaped)),
            _ => None,
        }
    }
}
