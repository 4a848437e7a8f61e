use super::{Goal, MAX_PIECES, Piece, Rules, Turn, Variant};
use crate::board::{Bitboard, BoardKind, Color, Geometry, Square};
use std::fmt;

const EMPTY: u8 = u8::MAX;

/// A position: which piece stands where, whose move it is ([`Turn`]), and the rules in force.
///
/// Pieces have identities (Green star 1 is not Green star 2), so the board is kept both as bitboards
/// per side and as a map from square to piece and back.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    turn: Turn,
    by_color: [Bitboard; 2],
    occupant: [u8; 64],
    /// Each side's pieces' squares by id, [`EMPTY`] for a piece off the board (and for the slot
    /// past the last id, there so that an id's four bits index it without a bounds check).
    square_of: [[u8; ID_SLOTS]; 2],
}

/// Slots in [`Position`]'s `square_of` for a side: one for each value of a piece's four id bits.
const ID_SLOTS: usize = 16;

/// Why [`Position::put`] refused to place a piece.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlacementError {
    /// The square is not one of the board's (a bit index past its layout or a padding bit).
    #[error("bit index {index} is no square of the {board:?} board")]
    OffBoard {
        /// The square's bit index.
        index: u8,
        /// The board of the position.
        board: BoardKind,
    },
    /// Another piece stands on the square.
    #[error("square {square} is already taken by {}", describe(*occupant, *board))]
    Occupied {
        /// The square's historical number.
        square: u8,
        /// The piece standing there.
        occupant: Piece,
        /// The board of the position (how its pieces are named).
        board: BoardKind,
    },
    /// The variant has fewer pieces than the id needs (Pyramid: ids 0–9).
    #[error(
        "{} piece id {} does not exist: the variant has {pieces} pieces a side",
        piece.color(),
        piece.id()
    )]
    NoSuchPiece {
        /// The piece refused.
        piece: Piece,
        /// Pieces per side in the variant.
        pieces: u8,
    },
    /// The piece already stands on the board.
    #[error("{} already stands on square {square}", describe(*piece, *board))]
    AlreadyPlaced {
        /// The piece refused.
        piece: Piece,
        /// The historical number of the square it stands on.
        square: u8,
        /// The board of the position (how its pieces are named).
        board: BoardKind,
    },
}

impl Position {
    /// An empty board with Green to move at move 1.
    pub fn empty(rules: Rules) -> Position {
        Position {
            rules,
            turn: Turn::new(Color::Green, 1, &rules),
            by_color: [Bitboard::EMPTY; 2],
            occupant: [EMPTY; 64],
            square_of: [[EMPTY; ID_SLOTS]; 2],
        }
    }

    /// The standard starting position of the rules' variant.
    pub fn start(rules: Rules) -> Position {
        let mut pos = Position::empty(rules);
        for color in Color::ALL {
            for (id, sq) in start_squares(rules.variant, color).enumerate() {
                pos.put_unchecked(Piece::new_unchecked(color, id as u8), sq);
            }
        }
        pos
    }

    /// The rules the position is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board's geometry: square numbers, names and neighbours.
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.rules.board())
    }

    /// Pieces per side in this variant (15 or 10).
    pub fn piece_count(&self) -> usize {
        piece_count(self.rules.variant)
    }

    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Color {
        self.turn.side()
    }

    /// The number of the move being played (a move is a ply of each side; Green's ply starts it).
    pub fn move_number(&self) -> u32 {
        self.turn.number()
    }

    /// Whose turn it is, where in its group, and the moves each side has made.
    pub fn turn(&self) -> &Turn {
        &self.turn
    }

    /// Whether `color` has made all the moves its limit allows (and so passes).
    pub fn at_limit(&self, color: Color) -> bool {
        self.turn.at_limit(color, &self.rules)
    }

    /// `side` to move at the start of its group at move `number` (a Setup's turn).
    pub(super) fn set_turn(&mut self, side: Color, number: u32) {
        self.turn = Turn::new(side, number, &self.rules);
    }

    /// `side` to move at the start of its group, at the same move number.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.turn = Turn::new(side, self.turn.number(), &self.rules);
    }

    /// The same placement and turn under other rules of move generation (the replayer's
    /// explanations: without compulsion, without the no-blockade rule).
    pub(crate) fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }

    /// The squares `color`'s pieces stand on.
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Whether every piece stands where it stands in `other` (side to move and move number aside).
    pub fn same_placement(&self, other: &Position) -> bool {
        self.by_color == other.by_color && self.occupant == other.occupant
    }

    /// The squares any piece stands on.
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The board's squares no piece stands on.
    pub fn empty_squares(&self) -> Bitboard {
        self.geometry().valid & !self.occupied()
    }

    /// The piece standing on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let code = self.occupant[sq.index()];
        (code != EMPTY).then(|| decode(code))
    }

    /// Where `piece` stands, or `None` when it is not on the board.
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        let sq = *self.square_of[piece.color().index()].get(piece.id() as usize)?;
        (sq != EMPTY).then(|| Square::new_unchecked(sq))
    }

    /// Every piece of `color` on the board, in identity order.
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Piece, Square)> + '_ {
        (0..self.piece_count() as u8).filter_map(move |id| {
            let piece = Piece::new_unchecked(color, id);
            self.square_of(piece).map(|sq| (piece, sq))
        })
    }

    /// Places a piece on an empty square of the board (setting up problems and tests). Refused,
    /// with the position unchanged, when the square is not on the board or taken, or the piece is
    /// not one of the variant's or already stands elsewhere.
    pub fn put(&mut self, piece: Piece, sq: Square) -> Result<(), PlacementError> {
        let g = self.geometry();
        if !g.contains(sq) {
            return Err(PlacementError::OffBoard {
                index: sq.index() as u8,
                board: g.kind,
            });
        }
        if piece.id() as usize >= self.piece_count() {
            return Err(PlacementError::NoSuchPiece {
                piece,
                pieces: self.piece_count() as u8,
            });
        }
        if let Some(occupant) = self.piece_at(sq) {
            return Err(PlacementError::Occupied {
                square: g.number(sq),
                occupant,
                board: g.kind,
            });
        }
        if let Some(there) = self.square_of(piece) {
            return Err(PlacementError::AlreadyPlaced {
                piece,
                square: g.number(there),
                board: g.kind,
            });
        }
        self.put_unchecked(piece, sq);
        Ok(())
    }

    /// [`Position::put`] without its checks, for placements the crate builds itself (start
    /// positions and mirrors).
    #[inline]
    pub(crate) fn put_unchecked(&mut self, piece: Piece, sq: Square) {
        self.by_color[piece.color().index()].insert(sq);
        self.occupant[sq.index()] = encode(piece);
        self.square_of[piece.color().index()][piece.id() as usize] = sq.index() as u8;
    }

    /// Moves the piece on `from` to `to` without any legality check; `to` must be empty. Inlined:
    /// once a move in the replayer and perft.
    #[inline(always)]
    pub(crate) fn relocate(&mut self, from: Square, to: Square) {
        let code = self.occupant[slot(from)];
        debug_assert!(code != EMPTY && self.occupant[slot(to)] == EMPTY);
        let piece = decode(code);
        let c = piece.color().index();
        self.by_color[c] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        self.occupant[slot(from)] = EMPTY;
        self.occupant[slot(to)] = code;
        self.square_of[c][piece.id() as usize] = to.index() as u8;
    }

    /// Hands the move on after a move: to the other side, or under odds or different limits as
    /// the rhythm says (a completed side makes no more moves there).
    #[inline]
    pub(crate) fn end_turn(&mut self, source: impl RulesSource) {
        if source.of(self).alternate() {
            // In place: a copy written back after narrow stores into it stalls the next load of
            // the turn (store forwarding), which perf showed as the replay's costliest line.
            self.turn.alternate();
        } else {
            let mut turn = self.turn;
            turn.next(&self.rules, |c| self.is_complete(c));
            self.turn = turn;
        }
    }

    /// The target square of a Salta or Winther piece under the rules' goal switch.
    pub fn target(&self, piece: Piece) -> Square {
        let g = self.geometry();
        let start = start_number(piece);
        let target = match (self.rules.goal, piece.color()) {
            (Goal::Shift, Color::Green) => start + 70,
            (Goal::Shift, Color::Red) => start - 70,
            (Goal::Rotation, _) => 116 - start,
        };
        // Start and target numbers are real squares by construction.
        g.from_number(target as u32)
            .unwrap_or(Square::new_unchecked(0))
    }

    /// The squares `color` must fill to complete.
    pub fn target_squares(&self, color: Color) -> Bitboard {
        match self.rules.variant {
            Variant::Pyramid => start_squares(Variant::Pyramid, color.other()).collect(),
            _ => self.pieces_of(color).map(|(p, _)| self.target(p)).collect(),
        }
    }

    /// Whether every piece of `color` on the board stands on its target. Inlined: the referee
    /// asks after every move.
    #[inline(always)]
    pub fn is_complete(&self, color: Color) -> bool {
        self.is_complete_under(OwnRules, color)
    }

    /// [`Position::is_complete`] under the rules `source` gives.
    #[inline(always)]
    pub(crate) fn is_complete_under(&self, source: impl RulesSource, color: Color) -> bool {
        let own = self.pieces(color);
        if own.is_empty() {
            return false;
        }
        let rules = source.of(self);
        match rules.variant {
            Variant::Pyramid => (own & !self.target_squares(color)).is_empty(),
            // Targets lie in the three far ranks under either goal: most positions fail that test,
            // inlined (the referee asks once a ply).
            _ => {
                (own & !Geometry::of(rules.board()).far_zone(color)).is_empty()
                    && self.on_targets(color)
            }
        }
    }

    /// Whether every Salta or Winther piece of `color` stands on its own target square.
    fn on_targets(&self, color: Color) -> bool {
        self.pieces_of(color).all(|(p, sq)| self.target(p) == sq)
    }

    /// The remaining count ignoring all other pieces: the sum of each piece's Chebyshev distance to
    /// its target (the seeds' count for the move limit). Pyramid pieces are identical, so there the
    /// count is the cheapest assignment of pieces to target squares.
    pub fn free_count(&self, color: Color) -> u32 {
        let g = self.geometry();
        match self.rules.variant {
            Variant::Pyramid => {
                let pieces: Vec<Square> = self.pieces(color).collect();
                let targets: Vec<Square> = self.target_squares(color).collect();
                super::assignment::min_cost(&pieces, &targets, |a, b| g.distance(a, b) as u32)
            }
            _ => self
                .pieces_of(color)
                .map(|(p, sq)| g.distance(sq, self.target(p)) as u32)
                .sum(),
        }
    }

    /// The Setup line of this position (numeric squares; Pyramid squares sorted).
    pub fn to_setup(&self) -> String {
        let g = self.geometry();
        let side = match self.side_to_move() {
            Color::Green => "G",
            Color::Red => "R",
        };
        let mut out = String::from(side);
        for color in Color::ALL {
            out.push('/');
            let entries: Vec<String> = if self.rules.variant == Variant::Pyramid {
                let mut numbers: Vec<u8> = self.pieces(color).map(|sq| g.number(sq)).collect();
                numbers.sort_unstable();
                numbers.iter().map(u8::to_string).collect()
            } else {
                (0..self.piece_count() as u8)
                    .map(|id| match self.square_of(Piece::new_unchecked(color, id)) {
                        Some(sq) => g.number(sq).to_string(),
                        None => "-".to_string(),
                    })
                    .collect()
            };
            out.push_str(&entries.join(","));
        }
        if self.move_number() != 1 {
            out.push_str(&format!("/{}", self.move_number()));
        }
        out
    }

    /// The same position seen from the other side: every square rotated 180°, colours swapped.
    /// Salta identities map to themselves (Green star 1 becomes Red star 1).
    pub fn mirrored(&self) -> Position {
        let g = self.geometry();
        let mut out = Position::empty(self.rules);
        out.turn = Turn::new(self.side_to_move().other(), self.turn.number(), &self.rules);
        for color in Color::ALL {
            for (piece, sq) in self.pieces_of(color) {
                out.put_unchecked(
                    Piece::new_unchecked(color.other(), piece.id()),
                    g.rotate(sq),
                );
            }
        }
        out
    }
}

/// "Green sun 3", or on the Pyramid board, whose pieces are alike, "Green piece 4" (its slot).
pub(super) fn describe(piece: Piece, board: BoardKind) -> String {
    match board {
        BoardKind::Pyramid => format!("{} piece {}", piece.color(), piece.id() + 1),
        BoardKind::Salta => piece.describe(),
    }
}

const fn encode(piece: Piece) -> u8 {
    (piece.color() as u8) << 4 | piece.id()
}

/// A square's entry in the 64 of `occupant`. Every square is a bit of a 64-bit board, so its
/// index is below 64: masking tells the compiler so, sparing a bounds test in the per-ply path.
#[inline(always)]
fn slot(sq: Square) -> usize {
    sq.index() & 63
}

fn decode(code: u8) -> Piece {
    let color = if code >> 4 == 0 {
        Color::Green
    } else {
        Color::Red
    };
    Piece::new_unchecked(color, code & 0x0f)
}

pub(crate) fn piece_count(variant: Variant) -> usize {
    match variant {
        Variant::Pyramid => 10,
        _ => MAX_PIECES,
    }
}

/// The historical number of a Salta piece's start square.
fn start_number(piece: Piece) -> u8 {
    let green = 10 * (piece.id() / 5 + 1) + piece.id() % 5 + 1;
    match piece.color() {
        Color::Green => green,
        Color::Red => 116 - green,
    }
}

/// The start squares of a side, in identity order.
pub fn start_squares(variant: Variant, color: Color) -> impl Iterator<Item = Square> {
    const PYRAMID_GREEN: [u8; 10] = [11, 12, 13, 14, 22, 23, 24, 32, 33, 43];
    let g = Geometry::of(variant.board());
    // Numbers in a fixed array: every game's start position is built from these, so no allocation.
    let mut numbers = [0u8; MAX_PIECES];
    let count = match variant {
        Variant::Pyramid => {
            for (slot, &n) in numbers.iter_mut().zip(&PYRAMID_GREEN) {
                *slot = if color == Color::Green { n } else { 95 - n };
            }
            PYRAMID_GREEN.len()
        }
        _ => {
            for (id, slot) in numbers.iter_mut().enumerate() {
                *slot = start_number(Piece::new_unchecked(color, id as u8));
            }
            MAX_PIECES
        }
    };
    numbers
        .into_iter()
        .take(count)
        .filter_map(move |n| g.from_number(n as u32))
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_setup())
    }
}

/// A plain text board, Green at the bottom: capital letters Green, small Red (s/m/u for star,
/// moon, sun with the number; `o` for a Pyramid piece).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geometry();
        let pyramid = g.kind == BoardKind::Pyramid;
        for rank in (0..g.size).rev() {
            for file in 0..g.size {
                let cell = match g.at(file, rank) {
                    None => "  ".to_string(),
                    Some(sq) => match self.piece_at(sq) {
                        None => " .".to_string(),
                        Some(p) => {
                            let letter = if pyramid {
                                'o'
                            } else {
                                ['s', 'm', 'u'][p.kind() as usize]
                            };
                            let letter = if p.color() == Color::Green {
                                letter.to_ascii_uppercase()
                            } else {
                                letter
                            };
                            if pyramid {
                                format!(" {letter}")
                            } else {
                                format!("{letter}{}", p.number())
                            }
                        }
                    },
                };
                write!(f, "{cell}")?;
            }
            writeln!(f)?;
        }
        write!(
            f,
            "{} to move, move {}",
            self.side_to_move(),
            self.move_number()
        )
    }
}

/// Where a hot path (the replay's test of each move) reads a position's rules: [`OwnRules`] reads
/// them from the position, at run time; [`DefaultRules`] knows them when compiling, so that the
/// default rules' switches cost no test at all (decision 54). The public methods read the
/// position's own.
pub(crate) trait RulesSource: Copy {
    /// The rules `pos` is played under.
    fn of(self, pos: &Position) -> Rules;
}

/// The position's own rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OwnRules;

impl RulesSource for OwnRules {
    #[inline(always)]
    fn of(self, pos: &Position) -> Rules {
        *pos.rules()
    }
}

/// The default rules ([`Rules::default`]), for a position played under them only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DefaultRules;

impl DefaultRules {
    /// The default rules: Salta with its default switches (what [`Rules::default`] gives).
    pub(crate) const RULES: Rules = Rules::of(Variant::Salta);
}

impl RulesSource for DefaultRules {
    #[inline(always)]
    fn of(self, pos: &Position) -> Rules {
        debug_assert_eq!(*pos.rules(), Self::RULES);
        Self::RULES
    }
}
