//! The one formatter of a move's written text, in each notation: the canonical writer, the
//! replayer's messages, repair's suggestions and [`Notation::move_text`] all write moves through
//! it.

use super::{Notation, Played, Separator};
use crate::board::{BoardKind, Geometry, Square};
use crate::rules::{Move, MoveKind, Piece};
use std::fmt;

/// A move's text, ready to be written: `33-44`, `e3-f4`, `Su3-44`, `Su3 33-44` (as a record
/// wrote both), `--`. Build it with [`MoveText::of_move`], [`MoveText::of_played`] or
/// [`MoveText::as_written`]; it implements [`fmt::Display`].
///
/// ```
/// use salta::board::Geometry;
/// use salta::notation::{MoveText, Notation};
/// use salta::rules::{Position, Rules};
///
/// let pos = Position::start(Rules::default());
/// let m = pos.legal_moves().sorted(pos.geometry())[0];
/// let sun = pos.piece_at(m.from());
/// let text = |notation| MoveText::of_move(m, sun, notation, pos.geometry()).to_string();
/// assert_eq!(text(Notation::Numeric), "31-41");
/// assert_eq!(text(Notation::Algebraic), "a3-b4");
/// assert_eq!(text(Notation::Piece), "Su1-41");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MoveText<'g> {
    geometry: &'g Geometry,
    /// `None`: a pass.
    squares: Option<Squares>,
    algebraic: bool,
    /// Squares named as a record numbered from Red's side names them ([`MoveText::from_red`]).
    from_red: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Squares {
    /// The piece id the text names (`Su3`, `#13`).
    piece: Option<u8>,
    from: Option<Square>,
    to: Square,
    jump: bool,
}

impl Notation {
    /// A move of board `geometry` as this notation writes it, without naming its piece (piece
    /// notation then falls back to numeric; [`MoveText::of_move`] names it).
    ///
    /// ```
    /// use salta::notation::Notation;
    /// use salta::rules::{Position, Rules};
    ///
    /// let pos = Position::start(Rules::default());
    /// let m = pos.legal_moves().sorted(pos.geometry())[0];
    /// assert_eq!(Notation::Numeric.move_text(m, pos.geometry()).to_string(), "31-41");
    /// assert_eq!(Notation::Algebraic.move_text(m, pos.geometry()).to_string(), "a3-b4");
    /// ```
    pub fn move_text(self, m: Move, geometry: &Geometry) -> MoveText<'_> {
        MoveText::of_move(m, None, self, geometry)
    }
}

impl<'g> MoveText<'g> {
    /// A move on the board as `notation` writes it; `piece` (the piece on its from-square) is
    /// named in piece notation, where a move without one falls back to numeric.
    pub fn of_move(
        m: Move,
        piece: Option<Piece>,
        notation: Notation,
        geometry: &'g Geometry,
    ) -> MoveText<'g> {
        let squares = (m.kind != MoveKind::Pass).then(|| Squares {
            piece: piece.map(Piece::id),
            from: Some(m.from),
            to: m.to,
            jump: m.is_jump(),
        });
        MoveText::in_notation(squares, notation, geometry)
    }

    /// A written move of the syntax tree as `notation` writes it (the canonical writer): the
    /// separator as written, or from the squares where none was.
    pub fn of_played(played: &Played, notation: Notation, geometry: &'g Geometry) -> MoveText<'g> {
        MoveText::in_notation(Squares::of(played, geometry), notation, geometry)
    }

    /// A written move as the record has it, for messages that quote the record: the designator
    /// and the from-square both where both were written (`Su3 33-44`), the squares algebraic if
    /// `notation` is (the record's, [`Game::notation`](super::Game::notation)), else numbers.
    pub fn as_written(played: &Played, notation: Notation, geometry: &'g Geometry) -> MoveText<'g> {
        MoveText {
            geometry,
            squares: Squares::of(played, geometry),
            algebraic: notation == Notation::Algebraic,
            from_red: false,
        }
    }

    /// The same text with its squares named as a record numbered from Red's side
    /// (`[Numbering "red"]`, [`Game::numbered_from_red`](super::Game::numbered_from_red)) names
    /// them, if `from_red`: each turned half round, so that `33-43` reads `83-73`.
    #[must_use]
    pub fn from_red(self, from_red: bool) -> MoveText<'g> {
        MoveText { from_red, ..self }
    }

    /// A square as `notation` names it: algebraic (`e3`) or its number (`33`, also in piece
    /// notation), turned half round if `from_red`.
    pub(crate) fn square_name(
        sq: Square,
        notation: Notation,
        from_red: bool,
        geometry: &Geometry,
    ) -> String {
        let sq = as_named(sq, from_red, geometry);
        if notation == Notation::Algebraic {
            geometry.name(sq)
        } else {
            geometry.number(sq).to_string()
        }
    }

    /// A move given by its parts (repair's tokens), each written as given: the piece id named,
    /// the from-square if written, the destination, and whether it is a jump.
    pub(crate) fn of_parts(
        piece: Option<u8>,
        from: Option<Square>,
        to: Square,
        jump: bool,
        notation: Notation,
        geometry: &'g Geometry,
    ) -> MoveText<'g> {
        let squares = Squares {
            piece,
            from,
            to,
            jump,
        };
        MoveText::as_given(Some(squares), notation, geometry)
    }

    /// A pass, `--`.
    pub(crate) fn pass(geometry: &'g Geometry) -> MoveText<'g> {
        MoveText {
            geometry,
            squares: None,
            algebraic: false,
            from_red: false,
        }
    }

    /// Keeps what `notation` writes: the designator in piece notation (squares numeric), else the
    /// from-square when there is one (a designator only without it).
    fn in_notation(
        squares: Option<Squares>,
        notation: Notation,
        geometry: &'g Geometry,
    ) -> MoveText<'g> {
        let squares = squares.map(|s| match (notation, s.piece, s.from) {
            (Notation::Piece, Some(_), _) => Squares { from: None, ..s },
            (_, _, Some(_)) => Squares { piece: None, ..s },
            _ => s,
        });
        MoveText::as_given(squares, notation, geometry)
    }

    /// The squares written as given, in `notation`'s names.
    fn as_given(
        squares: Option<Squares>,
        notation: Notation,
        geometry: &'g Geometry,
    ) -> MoveText<'g> {
        MoveText {
            geometry,
            squares,
            algebraic: notation == Notation::Algebraic,
            from_red: false,
        }
    }

    fn square(&self, f: &mut fmt::Formatter<'_>, sq: Square) -> fmt::Result {
        let sq = as_named(sq, self.from_red, self.geometry);
        if self.algebraic {
            f.write_str(&self.geometry.name(sq))
        } else {
            write!(f, "{}", self.geometry.number(sq))
        }
    }
}

/// The square a record names for `sq`: the square turned half round if the record numbers from
/// Red's side (it was turned when read).
pub(crate) fn as_named(sq: Square, from_red: bool, geometry: &Geometry) -> Square {
    if from_red { geometry.rotate(sq) } else { sq }
}

impl Squares {
    fn of(played: &Played, g: &Geometry) -> Option<Squares> {
        let Played::Move {
            piece,
            from,
            to,
            separator,
        } = played
        else {
            return None;
        };
        let written = match from {
            Some(from) => separator.or_from_squares(g, from.square, to.square),
            None => *separator,
        };
        Some(Squares {
            piece: piece.map(|d| d.id()),
            from: from.map(|f| f.square),
            to: to.square,
            jump: written == Separator::Jump,
        })
    }
}

impl fmt::Display for MoveText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(s) = self.squares else {
            return f.write_str("--");
        };
        if let Some(id) = s.piece {
            // Pyramid pieces are alike, and an id past 15 names no kind: the single numbering.
            match Piece::new(crate::board::Color::Green, id) {
                Some(p) if self.geometry.kind == BoardKind::Salta => {
                    f.write_str(&p.designator())?
                }
                _ => write!(f, "#{}", id as u32 + 1)?,
            }
            if s.from.is_some() {
                f.write_str(" ")?;
            }
        }
        if let Some(from) = s.from {
            self.square(f, from)?;
        }
        f.write_str(if s.jump { ":" } else { "-" })?;
        self.square(f, s.to)
    }
}
