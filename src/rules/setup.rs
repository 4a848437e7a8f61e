//! Setting up a position: the [`Setup`] builder, which checks a placement once, and the Setup
//! line (`SIDE/GREEN/RED[/MOVE]`, notation.md) read through it.

use super::position::{describe, piece_count};
use super::{Piece, PlacementError, Position, Rules};
use crate::board::{BoardKind, Color, Square, SquareError};
use crate::diagnostic::quote;

/// Why a position could not be set up: which part of the Setup line or placement, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The line does not have three or four `/`-separated fields.
    #[error("Setup line: expected SIDE/GREEN/RED[/MOVE], found {found} field(s) separated by '/'")]
    Fields {
        /// The fields found.
        found: usize,
    },
    /// The side to move is neither `G` nor `R`.
    #[error("Setup side: {} is not G or R", quote(.text))]
    Side {
        /// The field as written.
        text: String,
    },
    /// The move number is not a number of 1 or more.
    #[error("Setup move number: {} is not a move number (1 or more)", quote(.text))]
    MoveNumber {
        /// The field as written.
        text: String,
    },
    /// A side's field has the wrong number of entries (Salta and Winther: 15, `-` for a piece not
    /// on the board; Pyramid: at most 10).
    #[error(
        "Setup {}: {found} entries, expected {} (`-` for a piece not on the board)",
        side.name(),
        if *board == BoardKind::Pyramid { "at most 10" } else { "15" }
    )]
    Entries {
        /// The side whose field it is.
        side: Color,
        /// The entries found.
        found: usize,
        /// The board of the rules (which count is expected).
        board: BoardKind,
    },
    /// A piece's entry is not a square of the board.
    #[error("Setup {}: {error}", field(*piece, *board))]
    Square {
        /// The piece the entry places.
        piece: Piece,
        /// The board of the rules.
        board: BoardKind,
        /// Why the entry is not a square.
        error: SquareError,
    },
    /// A piece cannot stand where it is placed (a taken square, a piece the variant lacks).
    #[error("Setup {}: {error}", field(*piece, *board))]
    Placement {
        /// The piece placed.
        piece: Piece,
        /// The board of the rules.
        board: BoardKind,
        /// Why the position refused it.
        error: PlacementError,
    },
}

/// A piece as a Setup error names its field: "green sun 3", "red piece 4" (the side in lower case).
fn field(piece: Piece, board: BoardKind) -> String {
    let side = piece.color();
    format!(
        "{}{}",
        side.name(),
        &describe(piece, board)[side.title().len()..]
    )
}

/// A position to set up: the rules, the side to move, the move number and the pieces, checked
/// once by [`Setup::build`] (every square on the board, no two pieces on one square, each piece
/// one of the variant's and placed once).
///
/// ```
/// use salta::board::Color;
/// use salta::rules::{Piece, PieceKind, Rules, Setup};
///
/// let rules = Rules::default();
/// let g = salta::board::Geometry::of(rules.board());
/// let sun3 = Piece::of_kind(Color::Green, PieceKind::Sun, 3).unwrap();
/// let pos = Setup::new(rules)
///     .side_to_move(Color::Red)
///     .move_number(40)
///     .piece(sun3, g.from_number(55).unwrap())
///     .build()
///     .unwrap();
/// assert_eq!(pos.to_setup(), "R/-,-,-,-,-,-,-,-,-,-,-,-,55,-,-/-,-,-,-,-,-,-,-,-,-,-,-,-,-,-/40");
/// let taken = Setup::new(rules)
///     .piece(sun3, g.from_number(55).unwrap())
///     .piece(Piece::new(Color::Red, 0).unwrap(), g.from_number(55).unwrap())
///     .build();
/// assert_eq!(
///     taken.unwrap_err().to_string(),
///     "Setup red star 1: square 55 is already taken by Green sun 3"
/// );
/// ```
#[derive(Clone, Debug)]
#[must_use = "a Setup is only checked and turned into a position by `build`"]
pub struct Setup {
    rules: Rules,
    side: Color,
    move_number: u32,
    pieces: Vec<(Piece, Square)>,
}

impl Setup {
    /// An empty board under `rules`, Green to move at move 1.
    pub fn new(rules: Rules) -> Setup {
        Setup {
            rules,
            side: Color::Green,
            move_number: 1,
            pieces: Vec::new(),
        }
    }

    /// The side to move (at the start of its group).
    pub fn side_to_move(mut self, side: Color) -> Setup {
        self.side = side;
        self
    }

    /// The number of the move being played (1 or more).
    pub fn move_number(mut self, number: u32) -> Setup {
        self.move_number = number;
        self
    }

    /// Places `piece` on `square`.
    pub fn piece(mut self, piece: Piece, square: Square) -> Setup {
        self.pieces.push((piece, square));
        self
    }

    /// The position, or the first thing wrong with the setup.
    pub fn build(self) -> Result<Position, SetupError> {
        if self.move_number == 0 {
            return Err(SetupError::MoveNumber {
                text: self.move_number.to_string(),
            });
        }
        let mut pos = Position::empty(self.rules);
        let board = pos.geometry().kind;
        for (piece, square) in self.pieces {
            pos.put(piece, square)
                .map_err(|error| SetupError::Placement {
                    piece,
                    board,
                    error,
                })?;
        }
        pos.set_turn(self.side, self.move_number);
        Ok(pos)
    }

    /// Reads a Setup line (`SIDE/GREEN/RED[/MOVE]`, notation.md) for `rules`: its syntax and
    /// squares here, the placement when built. There is no `FromStr`: a Setup line means
    /// nothing without its rules (their board numbers its squares, their variant says whether
    /// pieces are told apart), and `FromStr` has no room for them.
    pub fn parse(line: &str, rules: Rules) -> Result<Setup, SetupError> {
        let fields: Vec<&str> = line.trim().split('/').collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(SetupError::Fields {
                found: fields.len(),
            });
        }
        let side = match fields[0].trim() {
            "G" | "g" => Color::Green,
            "R" | "r" => Color::Red,
            other => {
                return Err(SetupError::Side {
                    text: other.to_string(),
                });
            }
        };
        let mut setup = Setup::new(rules).side_to_move(side);
        if let Some(text) = fields.get(3) {
            match text.trim().parse::<u32>() {
                Ok(n) if n >= 1 => setup = setup.move_number(n),
                _ => {
                    return Err(SetupError::MoveNumber {
                        text: text.to_string(),
                    });
                }
            }
        }
        let board = rules.board();
        let g = crate::board::Geometry::of(board);
        let count = piece_count(rules.variant);
        let pyramid = board == BoardKind::Pyramid;
        for (side, field) in [(Color::Green, fields[1]), (Color::Red, fields[2])] {
            let entries: Vec<&str> = if pyramid && field.trim().is_empty() {
                vec![]
            } else {
                field.split(',').map(str::trim).collect()
            };
            if (!pyramid && entries.len() != count) || entries.len() > count {
                return Err(SetupError::Entries {
                    side,
                    found: entries.len(),
                    board,
                });
            }
            for (id, text) in entries.into_iter().enumerate() {
                if text == "-" {
                    continue;
                }
                // At most 15 entries: every id is a piece.
                let piece = Piece::new_unchecked(side, id as u8);
                let square = g.parse_square(text).map_err(|error| SetupError::Square {
                    piece,
                    board,
                    error,
                })?;
                setup = setup.piece(piece, square);
            }
        }
        Ok(setup)
    }
}

impl Position {
    /// Reads a Setup line (`SIDE/GREEN/RED[/MOVE]`, notation.md) for the given rules:
    /// [`Setup::parse`], then [`Setup::build`].
    pub fn from_setup(line: &str, rules: Rules) -> Result<Position, SetupError> {
        Setup::parse(line, rules)?.build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn setup_errors_name_the_field() {
        let salta = Rules::default();
        let pyramid = Rules::of(Variant::Pyramid);
        for (line, rules, message) in [
            (
                "G/11",
                salta,
                "Setup line: expected SIDE/GREEN/RED[/MOVE], found 2 field(s) separated by '/'",
            ),
            ("X/-/-", pyramid, "Setup side: \"X\" is not G or R"),
            (
                "G///0",
                pyramid,
                "Setup move number: \"0\" is not a move number (1 or more)",
            ),
            (
                "G/11/-",
                salta,
                "Setup green: 1 entries, expected 15 (`-` for a piece not on the board)",
            ),
            (
                "G/11,12/16",
                pyramid,
                "Setup red piece 1: 16 is not a square: square numbers end in 1–4",
            ),
            (
                "G/11,12/12",
                pyramid,
                "Setup red piece 1: square 12 is already taken by Green piece 2",
            ),
        ] {
            assert_eq!(
                Position::from_setup(line, rules).unwrap_err().to_string(),
                message
            );
        }
    }

    #[test]
    fn the_builder_refuses_what_the_board_cannot_hold() {
        let pyramid = Rules::of(Variant::Pyramid);
        let g = crate::board::Geometry::of(pyramid.board());
        let square = g.from_number(11).unwrap();
        let tenth = Piece::new(Color::Green, 10).unwrap();
        assert!(matches!(
            Setup::new(pyramid).piece(tenth, square).build(),
            Err(SetupError::Placement {
                error: PlacementError::NoSuchPiece { pieces: 10, .. },
                ..
            })
        ));
        let first = Piece::new(Color::Green, 0).unwrap();
        let twice = Setup::new(pyramid)
            .piece(first, square)
            .piece(first, g.from_number(12).unwrap())
            .build();
        assert_eq!(
            twice.unwrap_err().to_string(),
            "Setup green piece 1: Green piece 1 already stands on square 11"
        );
        // A bit index past the 8×8 layout, valid on no board's square list of Pyramid.
        let off = crate::board::Geometry::of(BoardKind::Salta)
            .from_number(105)
            .unwrap();
        assert!(matches!(
            Setup::new(pyramid).piece(first, off).build(),
            Err(SetupError::Placement {
                error: PlacementError::OffBoard { .. },
                ..
            })
        ));
        assert!(Setup::new(pyramid).move_number(0).build().is_err());
    }
}
