//! The structured game: tags, rules, every move with its piece and squares in both notations,
//! "Salta!" calls, annotations, comments, variations, the final position and the outcome — for
//! YAML and JSON through serde. It reads back into a record: `doc → Game → SGN` gives the same game.

use crate::board::{BoardKind, Color, Geometry, Square};
use crate::diagnostic::Code;
use crate::diagnostic::quote;
use crate::notation::{
    Annotation, Comment, Designator, Game, GameResult, MoveExtras, MoveNode, Notation, Played,
    Separator, Span, SquareRef, Tag, Variation, WriteOptions, write_game,
};
use crate::replay::{LineReplay, MarginPolicy, MoveReplay, Replay, ReplayOptions, replay};
use crate::rules::{MoveKind, MoveLimit, Odds, Piece, Rules};
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// One game as a document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct GameDoc {
    /// Tags in the order of the record.
    #[serde(with = "ordered_map")]
    pub tags: Vec<(String, String)>,
    /// The rules in force (canonical Rules text, the move limit and the odds if any).
    pub rules: String,
    /// The move limit per side, if one is in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_limit: Option<LimitDoc>,
    /// The move odds, if the game is played with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odds: Option<Odds>,
    /// Comments before the first move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// The main line's moves.
    pub moves: Vec<MoveDoc>,
    /// The result token as the record gives it (`1-0`, `0-1`, `1/2-1/2`, `*`); what the replay
    /// proves is in `outcome`.
    pub result: String,
    /// The position after the last main-line move that could be played, as a Setup line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_setup: Option<String>,
    /// How the game ended, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<OutcomeDoc>,
}

/// A move limit: one number when both sides have the same, else Green's and Red's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LimitDoc {
    /// The same limit for both sides.
    Both(u16),
    /// Each side's own limit (a handicap game).
    PerSide {
        /// Green's limit.
        green: u16,
        /// Red's limit.
        red: u16,
    },
}

impl From<MoveLimit> for LimitDoc {
    fn from(limit: MoveLimit) -> LimitDoc {
        if limit.green == limit.red {
            LimitDoc::Both(limit.green)
        } else {
            LimitDoc::PerSide {
                green: limit.green,
                red: limit.red,
            }
        }
    }
}

/// How a game ended, in the document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct OutcomeDoc {
    /// The side that won; absent for a draw or an undecided end.
    pub winner: Option<Color>,
    /// The exact margin, when it was counted.
    pub margin: Option<u32>,
    /// Why the game ended, in words.
    pub reason: String,
}

/// A square in both notations (the numeric one is what is read back).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SquareDoc {
    /// The historical number (`33`); what is read back.
    pub numeric: u8,
    /// The algebraic name (`e3`), for readers; ignored when read back.
    #[serde(default)]
    pub algebraic: String,
}

/// One move as written and as replayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct MoveDoc {
    /// Ply from the game's start, move number and side; absent when the replay stopped before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// The move number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// The side that made the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Color>,
    /// The piece, as `Su3` (Salta and Winther).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// The square the piece left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<SquareDoc>,
    /// The square the piece went to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<SquareDoc>,
    /// `step`, `jump`, `friendly-jump` or `pass` (also for a move the reader could not read, which
    /// changes nothing on the board).
    pub kind: MoveKind,
    /// A move the reader could not read (`sgn::garbled-move`), as written (`3S-43`): it has no
    /// squares, and the document cannot be read back until it is mended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// This move was called with "Salta!": it was taken back and the next move corrects it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub salta_called: bool,
    /// Suffix annotations and NAGs, as written (`!?`, `$4`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<String>,
    /// Comments after the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// Alternatives to the move, each from the position before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<VariationDoc>,
}

/// An alternative line in the document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct VariationDoc {
    /// Comments before its first move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// Its moves.
    pub moves: Vec<MoveDoc>,
}

/// Why a document cannot be read back into a record.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DocError {
    /// A move cannot be written back as SGN.
    #[error("move {index}: {message}")]
    BadMove {
        /// 1-based index of the move in its line.
        index: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The result is not a result token.
    #[error("result {} is not 1-0, 0-1, 1/2-1/2 or *", quote(.0))]
    BadResult(String),
}

impl GameDoc {
    /// The document of a game and its replay.
    pub fn new(game: &Game, replay: &Replay) -> GameDoc {
        let g = replay.start().geometry();
        let result = game
            .result
            .map(|(r, _)| r)
            .or_else(|| game.tag("Result").and_then(|r| r.parse().ok()))
            .unwrap_or(GameResult::Unknown);
        let mut rules = replay.rules;
        let move_limit = rules.move_limit.take().map(LimitDoc::from);
        let odds = rules.odds.take();
        GameDoc {
            // Squares are given in the standard orientation, whatever the source's numbering.
            tags: game
                .tags
                .iter()
                .filter(|t| t.name != "Numbering")
                .map(|t| (t.name.to_string(), t.value.clone()))
                .collect(),
            rules: rules.to_string(),
            move_limit,
            odds,
            comments: texts(&game.mainline.comments),
            moves: moves_doc(&game.mainline, Some(&replay.mainline), g, &game.text),
            result: result.as_str().to_string(),
            final_setup: Some(replay.final_position().to_setup()),
            outcome: replay.outcome.map(|o| OutcomeDoc {
                winner: o.winner,
                margin: o.margin.and_then(|m| m.exact()),
                reason: o.reason.describe().to_string(),
            }),
        }
    }

    /// The record again: tags, moves, comments, variations and result (spans are empty; the text
    /// is the canonical one only after writing).
    pub fn to_game(&self) -> Result<Game, DocError> {
        let board = board_of(&self.tags);
        let g = Geometry::of(board);
        let result = (self.result.parse::<GameResult>())
            .map_err(|_| DocError::BadResult(self.result.clone()))?;
        Ok(Game {
            text: String::new(),
            offset: 0,
            line: 1,
            column: 1,
            tags: self
                .tags
                .iter()
                .filter(|(name, _)| name != "Numbering")
                .map(|(name, value)| Tag {
                    name: Tag::known_name(name),
                    value: value.clone(),
                    span: Span::default(),
                })
                .collect(),
            mainline: variation_of(&self.comments, &self.moves, g)?,
            result: Some((result, Span::default())),
            warnings: Vec::new(),
        })
    }
}

fn board_of(tags: &[(String, String)]) -> BoardKind {
    tags.iter()
        .find(|(name, _)| name == "Rules")
        .and_then(|(_, value)| Rules::from_str(value).ok())
        .map(|r| r.board())
        .unwrap_or(BoardKind::Salta)
}

fn texts(comments: &[Comment]) -> Vec<String> {
    comments.iter().map(|c| c.text.clone()).collect()
}

fn square_doc(sq: Square, g: &Geometry) -> SquareDoc {
    SquareDoc {
        numeric: g.number(sq),
        algebraic: g.name(sq),
    }
}

/// The moves of a line of the game whose text is `text`.
fn moves_doc(
    line: &Variation,
    replayed: Option<&LineReplay>,
    g: &Geometry,
    text: &str,
) -> Vec<MoveDoc> {
    line.moves
        .iter()
        .enumerate()
        .map(|(i, node)| move_doc(node, replayed.and_then(|r| r.moves.get(i)), g, text))
        .collect()
}

fn move_doc(node: &MoveNode, replayed: Option<&MoveReplay>, g: &Geometry, text: &str) -> MoveDoc {
    let played = replayed.and_then(|r| r.played);
    let (from, to, kind) = match (node.played, played) {
        (Played::Pass, _) => (None, None, MoveKind::Pass),
        // Kept as written (below): no squares, and nothing changes on the board.
        (Played::Garbled, _) => (None, None, MoveKind::Pass),
        (_, Some(m)) => (Some(m.from), Some(m.to), m.kind),
        (
            Played::Move {
                from,
                to,
                separator,
                ..
            },
            None,
        ) => {
            let kind =
                if separator.or_from_squares(g, from.map_or(to.square, |f| f.square), to.square)
                    == Separator::Jump
                {
                    MoveKind::Jump
                } else {
                    MoveKind::Step
                };
            (from.map(|f| f.square), Some(to.square), kind)
        }
    };
    let piece = replayed
        .and_then(|r| r.piece)
        .filter(|_| g.kind == BoardKind::Salta)
        .map(Piece::designator)
        .or_else(|| match node.played {
            Played::Move { piece: Some(d), .. } if g.kind == BoardKind::Salta => {
                Piece::new(Color::Green, d.id()).map(Piece::designator)
            }
            _ => None,
        });
    MoveDoc {
        ply: replayed.map(|r| r.ply),
        number: replayed.map(|r| r.number),
        side: replayed.map(|r| r.side),
        piece,
        from: from.map(|s| square_doc(s, g)),
        to: to.map(|s| square_doc(s, g)),
        kind,
        written: matches!(node.played, Played::Garbled)
            .then(|| text.get(node.span.range()).unwrap_or_default().to_string()),
        salta_called: node.salta().is_some(),
        annotations: node
            .annotations()
            .iter()
            .map(|a| match a {
                Annotation::Suffix(s) => s.clone(),
                Annotation::Nag(n) => format!("${n}"),
            })
            .collect(),
        comments: texts(node.comments()),
        variations: node
            .variations()
            .iter()
            .enumerate()
            .map(|(i, v)| VariationDoc {
                comments: texts(&v.comments),
                moves: moves_doc(v, replayed.and_then(|r| r.variations.get(i)), g, text),
            })
            .collect(),
    }
}

fn variation_of(
    comments: &[String],
    moves: &[MoveDoc],
    g: &Geometry,
) -> Result<Variation, DocError> {
    Ok(Variation {
        comments: comments_of(comments),
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, m)| node_of(i + 1, m, g))
            .collect::<Result<_, _>>()?,
    })
}

fn comments_of(texts: &[String]) -> Vec<Comment> {
    texts
        .iter()
        .map(|t| Comment {
            text: t.clone(),
            span: Span::default(),
        })
        .collect()
}

fn node_of(index: usize, m: &MoveDoc, g: &Geometry) -> Result<MoveNode, DocError> {
    if let Some(written) = &m.written {
        return Err(DocError::BadMove {
            index,
            message: format!(
                "{} is not a move: mend it in the record first",
                quote(written)
            ),
        });
    }
    let square = |doc: &SquareDoc| -> Result<SquareRef, DocError> {
        g.from_number(doc.numeric as u32)
            .map(|square| SquareRef {
                square,
                span: Span::default(),
            })
            .ok_or_else(|| DocError::BadMove {
                index,
                message: format!("{} is not a square of the board", doc.numeric),
            })
    };
    let piece = match &m.piece {
        None => None,
        Some(text) => Some(designator_of(text).ok_or_else(|| DocError::BadMove {
            index,
            message: format!("{} is not a piece such as Su3", quote(text)),
        })?),
    };
    let played = match m.kind {
        MoveKind::Pass => Played::Pass,
        kind => {
            let to = m.to.as_ref().ok_or_else(|| DocError::BadMove {
                index,
                message: "the move has no to-square".into(),
            })?;
            let from = m.from.as_ref().map(square).transpose()?;
            if from.is_none() && piece.is_none() {
                return Err(DocError::BadMove {
                    index,
                    message: "the move has neither a from-square nor a piece".into(),
                });
            }
            Played::Move {
                piece,
                from,
                to: square(to)?,
                separator: if kind == MoveKind::Step {
                    Separator::Step
                } else {
                    Separator::Jump
                },
            }
        }
    };
    let extras = MoveExtras {
        salta: m.salta_called.then(Span::default),
        annotations: m
            .annotations
            .iter()
            .map(|a| match a.strip_prefix('$').and_then(|n| n.parse().ok()) {
                Some(n) => Annotation::Nag(n),
                None => Annotation::Suffix(a.clone()),
            })
            .collect(),
        comments: comments_of(&m.comments),
        variations: m
            .variations
            .iter()
            .map(|v| variation_of(&v.comments, &v.moves, g))
            .collect::<Result<_, _>>()?,
    };
    Ok(MoveNode {
        number: None,
        played,
        span: Span::default(),
        extras: extras.boxed(),
    })
}

/// Reads `Su3`, `Mo1`, `St5` (the forms the document writes).
fn designator_of(text: &str) -> Option<Designator> {
    let kind = crate::rules::PieceKind::ALL
        .into_iter()
        .find(|k| text.starts_with(k.abbreviation()))?;
    let number: u8 = text.get(2..)?.parse().ok()?;
    let piece = Piece::of_kind(Color::Green, kind, number)?;
    Some(Designator::of_piece(piece, Span::default()))
}

/// A game as canonical SGN in `notation`, its moves written as the replay played them.
pub fn rewrite(mut game: Game, replay: &Replay, notation: Notation) -> String {
    settle(&mut game, replay);
    if notation == Notation::Piece {
        designate(&mut game, replay);
    }
    write_game(&game, &WriteOptions::default().notation(notation))
}

/// The game with every move the replay reaches written as played ([`settle`]), replayed with
/// `opts` (margins left uncounted), and how many of those moves were written with the other
/// kind's separator (`84:74` for a step, OCR's `:` for `-`): a game `salta repair` writes anew
/// is settled so (decision 214).
pub fn settled(mut game: Game, opts: &ReplayOptions) -> (Game, usize) {
    let opts = ReplayOptions {
        margins: MarginPolicy::Never,
        summary_only: false,
        ..opts.clone()
    };
    let replayed = replay(&game, &opts);
    let separators = (replayed.findings().iter())
        .filter(|f| f.code == Code::Separator)
        .count();
    settle(&mut game, &replayed);
    (game, separators)
}

/// Fills in every move's piece designator from the replay, for writing in piece notation.
pub fn designate(game: &mut Game, replay: &Replay) {
    if replay.start().geometry().kind != BoardKind::Salta {
        return;
    }
    each_replayed_move(&mut game.mainline, &replay.mainline, &mut |node, r| {
        if let (Played::Move { piece, .. }, Some(p)) = (&mut node.played, r.piece) {
            *piece = Some(Designator::of_piece(p, Span::default()));
        }
    });
}

/// Writes every move the replay reached as it was played: the from-square filled in where only the
/// piece was named (`Su3-43`), and the separator the move's kind calls for (`44-65` for a jump
/// becomes `44:65`), so the canonical writer gives one form in every notation.
pub fn settle(game: &mut Game, replay: &Replay) {
    each_replayed_move(&mut game.mainline, &replay.mainline, &mut |node, r| {
        if let (
            Played::Move {
                from, separator, ..
            },
            Some(m),
        ) = (&mut node.played, r.played)
        {
            if from.is_none() {
                *from = Some(SquareRef {
                    square: m.from,
                    span: Span::default(),
                });
            }
            *separator = if m.kind == MoveKind::Step {
                Separator::Step
            } else {
                Separator::Jump
            };
        }
    });
}

/// Calls `f` on every written move that the replay reached, with what became of it.
fn each_replayed_move(
    line: &mut Variation,
    replayed: &LineReplay,
    f: &mut impl FnMut(&mut MoveNode, &MoveReplay),
) {
    for (node, r) in line.moves.iter_mut().zip(&replayed.moves) {
        f(node, r);
        for (v, rv) in node.variations_mut().iter_mut().zip(&r.variations) {
            each_replayed_move(v, rv, f);
        }
    }
}

/// Tags as a map in record order (serde maps would otherwise lose the order).
pub(crate) mod ordered_map {
    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};
    use std::fmt;

    pub fn serialize<S: Serializer>(tags: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(tags.len()))?;
        for (k, v) in tags {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = Vec<(String, String)>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of tag names to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut tags = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    tags.push(entry);
                }
                Ok(tags)
            }
        }
        d.deserialize_map(Ordered)
    }
}
