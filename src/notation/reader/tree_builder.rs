//! The visitor that builds a game's tree, [`Game`], as the reader's iterator gives it.

use crate::notation::ast::{
    Annotation, Comment, Game, GameResult, MoveNode, Span, Tag, Variation, Warning,
};
use crate::notation::visitor::{GameStart, Skip, Visitor};
use crate::notation::written::{RawComment, RawTag, WrittenMove};
use std::ops::ControlFlow;

/// Moves reserved for a main line: most games fit without the vector growing.
const MAINLINE_RESERVE: usize = 256;

/// The visitor that builds a game's tree, [`Game`]: the reader's iterator reads through it.
#[derive(Debug, Default)]
pub(crate) struct TreeBuilder {
    start: Option<(String, u64, u32, u32)>,
    tags: Vec<Tag>,
    warnings: Vec<Warning>,
    /// The main line and the variations open in it, innermost last.
    lines: Vec<Variation>,
}

impl TreeBuilder {
    /// The line being read.
    fn line(&mut self) -> &mut Variation {
        if self.lines.is_empty() {
            self.lines.push(Variation::default());
        }
        let last = self.lines.len() - 1;
        &mut self.lines[last]
    }

    /// The last move of the line being read (the parser has made sure there is one).
    fn last_move(&mut self) -> Option<&mut MoveNode> {
        self.line().moves.last_mut()
    }
}

impl Visitor for TreeBuilder {
    type Output = Game;

    fn begin_game(&mut self, game: GameStart<'_>) -> ControlFlow<Game> {
        self.start = Some((game.text.to_string(), game.offset, game.line, game.column));
        self.tags = Vec::new();
        self.warnings = Vec::new();
        self.lines.clear();
        self.lines.push(Variation {
            comments: Vec::new(),
            moves: Vec::with_capacity(MAINLINE_RESERVE),
        });
        ControlFlow::Continue(())
    }

    fn warning(&mut self, warning: &Warning) -> ControlFlow<Game> {
        self.warnings.push(warning.clone());
        ControlFlow::Continue(())
    }

    fn tag(&mut self, tag: RawTag<'_>) -> ControlFlow<Game> {
        // Room for the usual seven tags at once.
        if self.tags.is_empty() {
            self.tags.reserve(8);
        }
        self.tags.push(Tag::from(tag));
        ControlFlow::Continue(())
    }

    fn played(&mut self, played: WrittenMove) -> ControlFlow<Game> {
        let node = MoveNode::new(played.number, played.played, played.span);
        self.line().moves.push(node);
        ControlFlow::Continue(())
    }

    fn salta(&mut self, span: Span) -> ControlFlow<Game> {
        if let Some(last) = self.last_move() {
            last.extras_mut().salta = Some(span);
        }
        ControlFlow::Continue(())
    }

    fn suffix(&mut self, suffix: &'static str, _span: Span) -> ControlFlow<Game> {
        if let Some(last) = self.last_move() {
            let annotation = Annotation::Suffix(suffix.to_string());
            last.extras_mut().annotations.push(annotation);
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: u16, _span: Span) -> ControlFlow<Game> {
        if let Some(last) = self.last_move() {
            last.extras_mut().annotations.push(Annotation::Nag(nag));
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, comment: RawComment<'_>) -> ControlFlow<Game> {
        let comment = Comment {
            text: comment.text.to_string(),
            span: comment.span,
        };
        let line = self.line();
        match line.moves.last_mut() {
            Some(m) => m.extras_mut().comments.push(comment),
            None => line.comments.push(comment),
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _open: Span) -> ControlFlow<Game, Skip> {
        self.lines.push(Variation::default());
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self) -> ControlFlow<Game> {
        if self.lines.len() > 1
            && let Some(variation) = self.lines.pop()
            && let Some(last) = self.last_move()
        {
            last.extras_mut().variations.push(variation);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, result: Option<(GameResult, Span)>) -> Game {
        let (text, offset, line, column) = self.start.take().unwrap_or_default();
        let mut mainline = self.lines.drain(..).next().unwrap_or_default();
        // Shrinking is in place: the reserve made for long games costs short ones nothing.
        mainline.moves.shrink_to_fit();
        Game {
            text,
            offset,
            line,
            column,
            tags: std::mem::take(&mut self.tags),
            mainline,
            result,
            warnings: std::mem::take(&mut self.warnings),
        }
    }
}
