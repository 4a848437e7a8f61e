use crate::board::Color;

/// Pieces per side: 15 in Salta and Winther, 10 in Pyramid.
pub const MAX_PIECES: usize = 15;

/// The three kinds of Salta pieces, one rank of five each at the start.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PieceKind {
    /// The pieces that start on a side's first rank, its back rank.
    Star,
    /// The pieces that start on the second rank.
    Moon,
    /// The pieces that start on the third rank, the front one.
    Sun,
}

impl PieceKind {
    /// The three kinds, in the order of the piece ids (stars 0–4, moons 5–9, suns 10–14).
    pub const ALL: [PieceKind; 3] = [PieceKind::Star, PieceKind::Moon, PieceKind::Sun];

    /// The lower-case English name (`star`, `moon`, `sun`).
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::Star => "star",
            PieceKind::Moon => "moon",
            PieceKind::Sun => "sun",
        }
    }

    /// The English designator prefix (`St`, `Mo`, `Su`).
    pub fn abbreviation(self) -> &'static str {
        match self {
            PieceKind::Star => "St",
            PieceKind::Moon => "Mo",
            PieceKind::Sun => "Su",
        }
    }
}

/// One of a side's pieces, by identity: Salta pieces 0–14 are star 1–5, moon 1–5, sun 1–5 (numbered
/// left to right as their owner sees them); Pyramid pieces 0–9 are identical and the number is only
/// a slot.
///
/// The id is always below [`MAX_PIECES`]: [`Piece::new`] checks it, so [`Piece::kind`] and
/// [`Piece::number`] are exact. Whether the id exists in a variant (Pyramid has 10) is the
/// position's question ([`crate::rules::Position::put`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    color: Color,
    id: u8,
}

impl Piece {
    /// The piece of `color` with this id, or `None` for an id of [`MAX_PIECES`] or more.
    #[must_use]
    pub const fn new(color: Color, id: u8) -> Option<Piece> {
        if (id as usize) < MAX_PIECES {
            Some(Piece { color, id })
        } else {
            None
        }
    }

    /// The piece of `color` with this id, not checked: for ids the crate counts itself (below
    /// [`MAX_PIECES`] by construction).
    #[inline]
    pub(crate) const fn new_unchecked(color: Color, id: u8) -> Piece {
        debug_assert!((id as usize) < MAX_PIECES);
        Piece { color, id }
    }

    /// Builds a Salta piece from kind and number 1–5 (`None` for another number).
    #[must_use]
    pub fn of_kind(color: Color, kind: PieceKind, number: u8) -> Option<Piece> {
        (1..=5).contains(&number).then(|| Piece {
            color,
            id: kind as u8 * 5 + number - 1,
        })
    }

    /// The side the piece belongs to.
    #[inline]
    pub const fn color(self) -> Color {
        self.color
    }

    /// Which of the side's pieces: 0–14 in Salta and Winther, 0–9 in Pyramid.
    #[inline]
    pub const fn id(self) -> u8 {
        self.id
    }

    /// The kind of a Salta piece.
    pub fn kind(self) -> PieceKind {
        PieceKind::ALL[(self.id / 5) as usize]
    }

    /// The number 1–5 within its kind.
    pub fn number(self) -> u8 {
        self.id % 5 + 1
    }

    /// The single numbering 1–15 (stars 1–5, moons 6–10, suns 11–15).
    pub fn single_number(self) -> u8 {
        self.id + 1
    }

    /// The designator in piece notation, such as `Su3`.
    pub fn designator(self) -> String {
        format!("{}{}", self.kind().abbreviation(), self.number())
    }

    /// A readable name, such as "Green sun 3".
    pub fn describe(self) -> String {
        format!("{} {} {}", self.color, self.kind().name(), self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_and_kinds_exact() {
        assert_eq!(Piece::new(Color::Red, 15), None);
        assert_eq!(Piece::new(Color::Red, 255), None);
        let sun5 = Piece::new(Color::Red, 14).unwrap();
        assert_eq!((sun5.color(), sun5.id()), (Color::Red, 14));
        assert_eq!(sun5.kind(), PieceKind::Sun);
        assert_eq!(Piece::of_kind(Color::Red, PieceKind::Sun, 5), Some(sun5));
        assert_eq!(Piece::of_kind(Color::Red, PieceKind::Sun, 6), None);
    }
}
