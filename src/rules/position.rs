use super::{Goal, Piece, Rules, Turn, Variant};
use crate::board::{Bitboard, BoardKind, Color, Geometry, Square};
use std::fmt;

const EMPTY: u8 = u8::MAX;
/// Pieces per side: 15 in Salta and Winther, 10 in Pyramid.
pub const MAX_PIECES: usize = 15;

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
    square_of: [[u8; MAX_PIECES]; 2],
}

/// Why a Setup line could not be read: which field, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Setup {field}: {reason}")]
pub struct SetupError {
    /// The part of the line at fault (`side`, `green pieces`, …).
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl SetupError {
    fn new(field: impl Into<String>, reason: impl Into<String>) -> SetupError {
        SetupError {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl Position {
    /// An empty board with Green to move at move 1.
    pub fn empty(rules: Rules) -> Position {
        Position {
            rules,
            turn: Turn::new(Color::Green, 1, &rules),
            by_color: [Bitboard::EMPTY; 2],
            occupant: [EMPTY; 64],
            square_of: [[EMPTY; MAX_PIECES]; 2],
        }
    }

    /// The standard starting position of the rules' variant.
    pub fn start(rules: Rules) -> Position {
        let mut pos = Position::empty(rules);
        for color in Color::ALL {
            for (id, sq) in start_squares(rules.variant, color).enumerate() {
                pos.put(Piece::new(color, id as u8), sq);
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
        let sq = *self.square_of[piece.color.index()].get(piece.id as usize)?;
        (sq != EMPTY).then(|| Square::new(sq))
    }

    /// Every piece of `color` on the board, in identity order.
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Piece, Square)> + '_ {
        (0..self.piece_count() as u8).filter_map(move |id| {
            let piece = Piece::new(color, id);
            self.square_of(piece).map(|sq| (piece, sq))
        })
    }

    /// Places a piece on an empty square (setting up problems and tests).
    pub fn put(&mut self, piece: Piece, sq: Square) {
        self.by_color[piece.color.index()].insert(sq);
        self.occupant[sq.index()] = encode(piece);
        self.square_of[piece.color.index()][piece.id as usize] = sq.index() as u8;
    }

    /// Moves the piece on `from` to `to` without any legality check; `to` must be empty.
    #[inline]
    pub(crate) fn relocate(&mut self, from: Square, to: Square) {
        let code = self.occupant[from.index()];
        debug_assert!(code != EMPTY && self.occupant[to.index()] == EMPTY);
        let piece = decode(code);
        let c = piece.color.index();
        self.by_color[c] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        self.occupant[from.index()] = EMPTY;
        self.occupant[to.index()] = code;
        self.square_of[c][piece.id as usize] = to.index() as u8;
    }

    /// Hands the move on after a move: to the other side, or under odds or different limits as
    /// the rhythm says (a completed side makes no more moves there).
    #[inline]
    pub(crate) fn end_turn(&mut self) {
        let mut turn = self.turn;
        turn.next(&self.rules, |c| self.is_complete(c));
        self.turn = turn;
    }

    /// The target square of a Salta or Winther piece under the rules' goal switch.
    pub fn target(&self, piece: Piece) -> Square {
        let g = self.geometry();
        let start = start_number(piece);
        let target = match (self.rules.goal, piece.color) {
            (Goal::Shift, Color::Green) => start + 70,
            (Goal::Shift, Color::Red) => start - 70,
            (Goal::Rotation, _) => 116 - start,
        };
        // Start and target numbers are real squares by construction.
        g.from_number(target as u32).unwrap_or(Square::new(0))
    }

    /// The squares `color` must fill to complete.
    pub fn target_squares(&self, color: Color) -> Bitboard {
        match self.rules.variant {
            Variant::Pyramid => start_squares(Variant::Pyramid, color.other()).collect(),
            _ => self.pieces_of(color).map(|(p, _)| self.target(p)).collect(),
        }
    }

    /// Whether every piece of `color` on the board stands on its target.
    #[inline]
    pub fn is_complete(&self, color: Color) -> bool {
        let own = self.pieces(color);
        if own.is_empty() {
            return false;
        }
        match self.rules.variant {
            Variant::Pyramid => (own & !self.target_squares(color)).is_empty(),
            // Targets lie in the three far ranks under either goal: most positions fail that test,
            // inlined (the referee asks once a ply).
            _ => (own & !self.geometry().far_zone(color)).is_empty() && self.on_targets(color),
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

    /// Reads a Setup line (`SIDE/GREEN/RED[/MOVE]`, notation.md) for the given rules.
    pub fn from_setup(line: &str, rules: Rules) -> Result<Position, SetupError> {
        let fields: Vec<&str> = line.trim().split('/').collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err(SetupError::new(
                "line",
                format!(
                    "expected SIDE/GREEN/RED[/MOVE], found {} field(s) separated by '/'",
                    fields.len()
                ),
            ));
        }
        let mut pos = Position::empty(rules);
        let side = match fields[0].trim() {
            "G" | "g" => Color::Green,
            "R" | "r" => Color::Red,
            other => return Err(SetupError::new("side", format!("{other:?} is not G or R"))),
        };
        let mut number = 1;
        if let Some(text) = fields.get(3) {
            number = match text.trim().parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(SetupError::new(
                        "move number",
                        format!("{text:?} is not a move number (1 or more)"),
                    ));
                }
            };
        }
        let g = pos.geometry();
        let count = pos.piece_count();
        for (color, field) in [(Color::Green, fields[1]), (Color::Red, fields[2])] {
            let entries: Vec<&str> = field.split(',').map(str::trim).collect();
            let pyramid = rules.variant == Variant::Pyramid;
            let entries: Vec<&str> = if pyramid && field.trim().is_empty() {
                vec![]
            } else {
                entries
            };
            if (!pyramid && entries.len() != count) || entries.len() > count {
                let want = if pyramid { "at most 10" } else { "15" };
                return Err(SetupError::new(
                    color.name(),
                    format!(
                        "{} entries, expected {want} (`-` for a piece not on the board)",
                        entries.len()
                    ),
                ));
            }
            for (id, text) in entries.iter().enumerate() {
                let piece = Piece::new(color, id as u8);
                let what = || {
                    if pyramid {
                        format!("{} piece {}", color.name(), id + 1)
                    } else {
                        format!(
                            "{} {} {}",
                            color.name(),
                            piece.kind().name(),
                            piece.number()
                        )
                    }
                };
                if *text == "-" {
                    continue;
                }
                let sq = g
                    .parse_square(text)
                    .map_err(|e| SetupError::new(what(), e.to_string()))?;
                if let Some(other) = pos.piece_at(sq) {
                    return Err(SetupError::new(
                        what(),
                        format!(
                            "square {} is already taken by {}",
                            g.number(sq),
                            describe(other, pyramid)
                        ),
                    ));
                }
                pos.put(piece, sq);
            }
        }
        pos.turn = Turn::new(side, number, &rules);
        Ok(pos)
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
                    .map(|id| match self.square_of(Piece::new(color, id)) {
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
                out.put(Piece::new(color.other(), piece.id), g.rotate(sq));
            }
        }
        out
    }
}

fn describe(piece: Piece, pyramid: bool) -> String {
    if pyramid {
        format!("{} piece {}", piece.color, piece.id + 1)
    } else {
        piece.describe()
    }
}

const fn encode(piece: Piece) -> u8 {
    (piece.color as u8) << 4 | piece.id
}

fn decode(code: u8) -> Piece {
    let color = if code >> 4 == 0 {
        Color::Green
    } else {
        Color::Red
    };
    Piece::new(color, code & 0x0f)
}

pub(crate) fn piece_count(variant: Variant) -> usize {
    match variant {
        Variant::Pyramid => 10,
        _ => MAX_PIECES,
    }
}

/// The historical number of a Salta piece's start square.
fn start_number(piece: Piece) -> u8 {
    let green = 10 * (piece.id / 5 + 1) + piece.id % 5 + 1;
    match piece.color {
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
                *slot = start_number(Piece::new(color, id as u8));
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
                            let letter = if p.color == Color::Green {
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
