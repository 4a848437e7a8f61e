//! Records made from moves: a start position, moves checked against the rules as they are added,
//! tags, comments and a result, written as SGN and read back.

use super::{
    Comment, Game, GameResult, MoveExtras, MoveNode, Notation, Played, Separator, Span, SquareRef,
    SyntaxError, Tag, Variation, WriteOptions, parse_str, write_game,
};
use crate::diagnostic::quote;
use crate::rules::{IllegalMove, Move, MoveKind, Position, Rules};

/// The tags that the start position and the result decide: [`GameBuilder`] writes them itself.
const DECIDED_TAGS: [&str; 5] = ["Result", "Rules", "MoveLimit", "Odds", "Setup"];

/// A tag [`GameBuilder::tag`] refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TagError {
    /// A tag the start position or the result decides.
    #[error(
        "the {0} tag is written from the start position and the result: give them to \
         GameBuilder::new and GameBuilder::result"
    )]
    Decided(String),
    /// A name the reader would not read as a tag name.
    #[error("{} is no tag name: a tag name is ASCII letters, digits and _", quote(.0))]
    BadName(String),
}

/// A record made from a start position and moves, with tags, comments and a result.
///
/// Each move is checked as it is played ([`GameBuilder::play`] refuses an illegal one, so a
/// compulsory jump is never missed and no `Salta!` call is needed). [`GameBuilder::text`] writes
/// the record; [`GameBuilder::build`] reads that text back, so the [`Game`] it gives has spans
/// that point into its own text, exactly as a game read from a file.
///
/// ```
/// use salta::notation::{GameBuilder, GameResult};
/// use salta::rules::{Position, Rules};
///
/// let start = Position::start(Rules::default());
/// let mut record = GameBuilder::new(start).tag("Green", "Krone")?.tag("Red", "Grotewold")?;
/// for _ in 0..4 {
///     let m = record.position().legal_moves()[0];
///     record = record.play(m)?;
/// }
/// let game = record.comment("Adjourned.").result(GameResult::Unknown).build()?;
/// assert_eq!(game.mainline.moves.len(), 4);
/// let green = &game.tags[0];
/// assert_eq!(&game.text[green.span.range()], r#"[Green "Krone"]"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct GameBuilder {
    start: Position,
    position: Position,
    tags: Vec<(String, String)>,
    /// Comments before the first move.
    opening: Vec<String>,
    /// The moves, each with the comments after it.
    moves: Vec<(Move, Vec<String>)>,
    result: GameResult,
    notation: Notation,
}

impl GameBuilder {
    /// A record starting from `start` (its rules, placement, side to move and move number), with
    /// no moves yet and the result `*`.
    pub fn new(start: Position) -> GameBuilder {
        GameBuilder {
            position: start,
            start,
            tags: Vec::new(),
            opening: Vec::new(),
            moves: Vec::new(),
            result: GameResult::Unknown,
            notation: Notation::default(),
        }
    }

    /// Sets a tag (a second value for the same name replaces the first; a line break in the
    /// value is written as a space). Refused: a name the reader would not read as one (it is
    /// ASCII letters, digits and `_`), and the tags the start position and the result decide
    /// (`Result`, `Rules`, `MoveLimit`, `Odds`, `Setup`), which the builder writes from them:
    /// set those through [`GameBuilder::new`] and [`GameBuilder::result`].
    pub fn tag(
        mut self,
        name: impl Into<String>,
        value: impl Into<String>,
    ) -> Result<GameBuilder, TagError> {
        let (name, value) = (name.into(), value.into());
        if DECIDED_TAGS.contains(&name.as_str()) {
            return Err(TagError::Decided(name));
        }
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(TagError::BadName(name));
        }
        match self.tags.iter_mut().find(|(n, _)| *n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name, value)),
        }
        Ok(self)
    }

    /// Plays a move of the side to move, refused when it is not one of its legal moves.
    pub fn play(mut self, m: Move) -> Result<GameBuilder, IllegalMove> {
        self.position.play(m)?;
        self.moves.push((m, Vec::new()));
        Ok(self)
    }

    /// A comment after the last move played (before the first move while there is none).
    #[must_use]
    pub fn comment(mut self, text: impl Into<String>) -> GameBuilder {
        match self.moves.last_mut() {
            Some((_, comments)) => comments.push(text.into()),
            None => self.opening.push(text.into()),
        }
        self
    }

    /// The result written in the `Result` tag and after the moves.
    #[must_use]
    pub fn result(mut self, result: GameResult) -> GameBuilder {
        self.result = result;
        self
    }

    /// The notation of the moves (the writer's default otherwise).
    #[must_use]
    pub fn notation(mut self, notation: Notation) -> GameBuilder {
        self.notation = notation;
        self
    }

    /// The position after the moves played so far.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The record's text, as [`write_game`] writes it: tags, the moves wrapped at 80 columns, the
    /// result. A comment holding `}` is written as the writer writes it (see [`write_game`]).
    pub fn text(&self) -> String {
        write_game(
            &self.tree(),
            &WriteOptions::default().notation(self.notation),
        )
    }

    /// The record as a game read from its [`text`](GameBuilder::text): every span points into
    /// `Game::text`. Fails only when the text passes the reader's [`Limits`](super::Limits)
    /// (a game of more than [`MAX_GAME_BYTES`](super::MAX_GAME_BYTES), say).
    #[allow(
        clippy::result_large_err,
        reason = "the reader's own error, as its games come"
    )]
    pub fn build(&self) -> Result<Game, SyntaxError> {
        let games = parse_str(&self.text());
        // The text starts with a tag section, so the reader always finds one game in it.
        (games.into_iter().next()).expect("a record's text holds a game")
    }

    /// The game as a tree without places, for the writer.
    fn tree(&self) -> Game {
        let mut tags = self.tags.clone();
        tags.push(("Result".into(), self.result.as_str().into()));
        let rules = *self.start.rules();
        let shown = Rules {
            move_limit: None,
            odds: None,
            ..rules
        };
        if shown != Rules::default() {
            tags.push(("Rules".into(), shown.to_string()));
        }
        if let Some(limit) = rules.move_limit {
            tags.push(("MoveLimit".into(), limit.to_string()));
        }
        if let Some(odds) = rules.odds {
            tags.push(("Odds".into(), odds.to_string()));
        }
        let setup = self.start.to_setup();
        if setup != Position::start(rules).to_setup() {
            tags.push(("Setup".into(), setup));
        }
        let comments = |texts: &[String]| -> Vec<Comment> {
            (texts.iter())
                .map(|text| Comment {
                    text: text.clone(),
                    span: Span::default(),
                })
                .collect()
        };
        let moves = (self.moves.iter())
            .map(|(m, after)| MoveNode {
                number: None,
                played: played(*m),
                span: Span::default(),
                extras: (!after.is_empty()).then(|| {
                    Box::new(MoveExtras {
                        comments: comments(after),
                        ..MoveExtras::default()
                    })
                }),
            })
            .collect();
        Game {
            tags: (tags.into_iter())
                .map(|(name, value)| Tag {
                    name: Tag::known_name(&name),
                    value,
                    span: Span::default(),
                })
                .collect(),
            mainline: Variation {
                comments: comments(&self.opening),
                moves,
            },
            result: Some((self.result, Span::default())),
            text: String::new(),
            offset: 0,
            line: 1,
            column: 1,
            warnings: Vec::new(),
        }
    }
}

/// A move as the syntax tree holds it.
fn played(m: Move) -> Played {
    if m.kind == MoveKind::Pass {
        return Played::Pass;
    }
    Played::Move {
        piece: None,
        from: Some(SquareRef {
            square: m.from,
            span: Span::default(),
        }),
        to: SquareRef {
            square: m.to,
            span: Span::default(),
        },
        separator: if m.is_jump() {
            Separator::Jump
        } else {
            Separator::Step
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::rules::{MoveLimit, Odds};

    /// Plays the first legal move `n` times.
    fn first_moves(mut b: GameBuilder, n: usize) -> GameBuilder {
        for _ in 0..n {
            let m = b.position().legal_moves()[0];
            b = b.play(m).expect("a legal move");
        }
        b
    }

    #[test]
    fn spans_point_into_the_text_and_the_moves_read_back() {
        let rules = Rules {
            move_limit: Some(MoveLimit::both(80).unwrap()),
            odds: Odds::new(Color::Green, 2, 1).unwrap(),
            ..Rules::default()
        };
        let b = first_moves(GameBuilder::new(Position::start(rules)), 6)
            .tag("Event", "Club")
            .expect("a tag")
            .comment("Quiet.")
            .result(GameResult::Draw);
        let game = b.build().expect("reads back");
        assert_eq!(game.tag("Event"), Some("Club"));
        assert_eq!(game.tag("Result"), Some("1/2-1/2"));
        assert_eq!(game.tag("MoveLimit"), Some("80"));
        assert!(game.tag("Odds").is_some());
        assert_eq!(game.mainline.moves.len(), 6);
        for (node, (m, _)) in game.mainline.moves.iter().zip(&b.moves) {
            let Played::Move { from, to, .. } = &node.played else {
                panic!("a move");
            };
            assert_eq!((from.map(|f| f.square), to.square), (Some(m.from), m.to));
            let g = b.position().geometry();
            let written = &game.text[to.span.range()];
            assert_eq!(written, g.number(m.to).to_string());
        }
        let last = game.mainline.moves.last().expect("moves");
        assert_eq!(&game.text[last.comments()[0].span.range()], "{Quiet.}");
    }

    #[test]
    fn a_start_other_than_the_standard_one_is_a_setup_tag() {
        let mut start = Position::start(Rules::default());
        let m = start.legal_moves()[0];
        start.play(m).expect("legal");
        let game = first_moves(GameBuilder::new(start), 1)
            .comment("From move one.")
            .build()
            .expect("reads back");
        assert_eq!(game.tag("Setup"), Some(start.to_setup().as_str()));
        let plain = GameBuilder::new(Position::start(Rules::default()))
            .comment("Before any move.")
            .build()
            .expect("reads back");
        assert_eq!(plain.tag("Setup"), None);
        assert_eq!(plain.mainline.comments[0].text, "Before any move.");
    }

    #[test]
    fn an_illegal_move_is_refused() {
        let b = GameBuilder::new(Position::start(Rules::default()));
        let m = b.position().legal_moves()[0];
        let backwards = Move::new(b.position().geometry(), m.to, m.from, m.kind).unwrap();
        assert!(b.play(backwards).is_err());
    }

    #[test]
    fn tags_the_position_decides_and_names_the_reader_would_not_read_are_refused() {
        let b = GameBuilder::new(Position::start(Rules::default()));
        for name in DECIDED_TAGS {
            let refused = b.clone().tag(name, "x").unwrap_err();
            assert_eq!(refused, TagError::Decided(name.to_string()));
        }
        for name in ["", "Two words", "Event]", "Événement"] {
            let refused = b.clone().tag(name, "x").unwrap_err();
            assert_eq!(refused, TagError::BadName(name.to_string()));
        }
        let game = b.tag("Annotator_2", "a\"b\nc").unwrap().build().unwrap();
        assert_eq!(game.tag("Annotator_2"), Some("a\"b c"));
    }
}
