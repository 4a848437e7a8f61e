//! What a written move names, apart from how it was written: the squares and piece the search
//! edits and replays.

use crate::board::{Geometry, Square};
use crate::notation::{MoveNode, MoveText, Notation, Played, Separator};
use crate::rules::{Move, MoveKind, Piece, Position, Variant};

/// The most characters a legal move as a record writes it ([`Token::of_move`]) takes, "Salta!"
/// aside: `Su5-105`, a designator (two letters and a digit) and a square of three digits.
pub(crate) const MOVE_CHARS_AT_MOST: usize = 7;

/// What a written move names: its squares (or piece) and whether "Salta!" follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Token {
    /// `None`: a pass (`--`).
    pub squares: Option<Written>,
    /// Whether "Salta!" follows the move.
    pub call: bool,
    /// The written token could not be read as a move (`3S-43`, `7152`: [`Played::Garbled`]): it
    /// never replays, and only a reading of its text ([`super::channel`]) mends it.
    pub garbled: bool,
}

/// The squares and piece of a written move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Written {
    /// The designator's piece identity, if one was written.
    pub piece: Option<u8>,
    /// The square written first, if any (a designator may stand in its place).
    pub from: Option<Square>,
    /// The square written last, where the piece goes.
    pub to: Square,
    /// Whether a move named by its piece alone is a jump (`Su3:63`); always `false` where the
    /// from-square is written: the squares tell.
    pub jump: bool,
}

impl Token {
    /// What a written move of the syntax tree names.
    pub fn of(node: &MoveNode) -> Token {
        let squares = match node.played {
            Played::Pass | Played::Garbled => None,
            Played::Move {
                piece,
                from,
                to,
                separator,
            } => Some(Written {
                piece: piece.map(|d| d.id()),
                from: from.map(|f| f.square),
                to: to.square,
                jump: from.is_none() && separator == Separator::Jump,
            }),
        };
        Token {
            squares,
            call: node.salta().is_some(),
            garbled: matches!(node.played, Played::Garbled),
        }
    }

    /// A legal move as a record in `style` writes it: in piece notation the designator in place
    /// of the from-square (`Su3-43`).
    pub fn of_move(m: Move, pos: &Position, style: Notation) -> Token {
        let piece = (style == Notation::Piece)
            .then(|| designator(m, pos))
            .flatten();
        Token::of_parts(m, piece, piece.is_none())
    }

    /// A legal move as `written` writes its move where it names the piece and its square both
    /// (`Su1 31-41` for `Su1 31-14`), so that a slip there is read against a text of the same
    /// shape; else as a record in `style` writes it. A designator alone in a record of squares
    /// is most often a misread square (OCR's `#4-34` for `94-84`): not followed.
    pub fn of_move_like(m: Move, pos: &Position, style: Notation, written: &Token) -> Token {
        let both = written
            .squares
            .is_some_and(|w| w.piece.is_some() && w.from.is_some());
        // The piece is looked up only where it is written: this runs for every legal move of
        // every chain the decoder ranks.
        match both.then(|| designator(m, pos)).flatten() {
            Some(piece) => Token::of_parts(m, Some(piece), true),
            None => Token::of_move(m, pos, style),
        }
    }

    fn of_parts(m: Move, piece: Option<u8>, with_from: bool) -> Token {
        let squares = (m.kind != MoveKind::Pass).then(|| Written {
            piece,
            from: with_from.then_some(m.from),
            to: m.to,
            jump: !with_from && m.kind == MoveKind::Jump,
        });
        Token {
            squares,
            call: false,
            garbled: false,
        }
    }

    pub fn with_call(self, call: bool) -> Token {
        Token { call, ..self }
    }

    pub fn rotated(self, g: &Geometry) -> Token {
        Token {
            squares: self.squares.map(|w| Written {
                from: w.from.map(|s| g.rotate(s)),
                to: g.rotate(w.to),
                ..w
            }),
            ..self
        }
    }

    /// The move as a record in `style` writes it (`35-44`, `e3-f4`, `Su3-44`, with ` Salta!`;
    /// the designator and the from-square both where it has both, `Su3 34-44`), its squares
    /// numbered from Red's side if `from_red` ([`MoveText::from_red`]).
    pub fn text(&self, g: &Geometry, style: Notation, from_red: bool) -> String {
        let text = match self.squares {
            None => MoveText::pass(g),
            Some(w) => {
                let jump = w.from.map_or(w.jump, |f| g.distance(f, w.to) >= 2);
                MoveText::of_parts(w.piece, w.from, w.to, jump, style, g).from_red(from_red)
            }
        };
        let mut out = text.to_string();
        if self.call {
            out.push_str(" Salta!");
        }
        out
    }

    /// The move it names in `pos`, its kind guessed from the distance (as the replayer does);
    /// `None` when the designator names no piece there or contradicts the from-square.
    pub fn resolve(&self, pos: &Position) -> Option<Move> {
        if self.garbled {
            return None;
        }
        let Some(w) = self.squares else {
            return Some(Move::PASS);
        };
        let g = pos.geometry();
        let named = w
            .piece
            .filter(|_| pos.rules().variant != Variant::Pyramid)
            .and_then(|id| Piece::new(pos.side_to_move(), id));
        let from = match (w.from, named) {
            (Some(f), Some(p)) if pos.piece_at(f) != Some(p) => return None,
            (Some(f), _) => f,
            (None, Some(p)) => pos.square_of(p)?,
            (None, None) => return None,
        };
        let kind = if g.distance(from, w.to) >= 2 {
            MoveKind::Jump
        } else {
            MoveKind::Step
        };
        Some(Move {
            from,
            to: w.to,
            kind,
        })
    }
}

/// The designator of the piece that makes `m` in `pos` (none in Pyramid, whose pieces are alike).
fn designator(m: Move, pos: &Position) -> Option<u8> {
    pos.piece_at(m.from)
        .filter(|_| pos.rules().variant != Variant::Pyramid)
        .map(Piece::id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardKind;

    /// Every designator and the longest squares of every board: no move's text is longer than
    /// [`MOVE_CHARS_AT_MOST`].
    #[test]
    fn no_move_is_written_longer_than_the_bound() {
        for kind in [BoardKind::Salta, BoardKind::Pyramid] {
            let g = Geometry::of(kind);
            for (from, to) in g.squares().flat_map(|f| g.squares().map(move |t| (f, t))) {
                for piece in (0..15).map(Some).chain([None]) {
                    let squares = Written {
                        piece,
                        from: piece.is_none().then_some(from),
                        to,
                        jump: false,
                    };
                    let token = Token {
                        squares: Some(squares),
                        call: false,
                        garbled: false,
                    };
                    for style in [Notation::Numeric, Notation::Algebraic, Notation::Piece] {
                        let text = token.text(g, style, false);
                        assert!(text.chars().count() <= MOVE_CHARS_AT_MOST, "{text}");
                    }
                }
            }
        }
    }
}
