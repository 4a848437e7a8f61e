//! The historical square numbers, looked up as square indices on the hot path.

use crate::board::{BoardKind, Geometry, Square};
use std::sync::OnceLock;

/// Each historical number's square index, [`NO_SQUARE`] where no square has that number.
pub(super) type Numbering = [u8; 128];

/// In a [`Numbering`], a number that names no square.
pub(super) const NO_SQUARE: u8 = u8::MAX;

/// The numbering of `board`'s squares, turned to the standard orientation for a source numbered
/// from Red's side: one load a square on the hot path.
pub(super) fn numbering(board: BoardKind, from_red: bool) -> &'static Numbering {
    static TABLES: OnceLock<[Numbering; 4]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let table = |board, from_red| {
            let geometry = Geometry::of(board);
            std::array::from_fn(|n| {
                let Some(square) = geometry.from_number(n as u32) else {
                    return NO_SQUARE;
                };
                let square = if from_red {
                    geometry.rotate(square)
                } else {
                    square
                };
                square.index() as u8
            })
        };
        [
            table(BoardKind::Salta, false),
            table(BoardKind::Salta, true),
            table(BoardKind::Pyramid, false),
            table(BoardKind::Pyramid, true),
        ]
    });
    let board = match board {
        BoardKind::Salta => 0,
        BoardKind::Pyramid => 2,
    };
    &tables[board + usize::from(from_red)]
}

/// The square numbered `number` in `numbering`, if any.
#[inline(always)]
pub(super) fn numbered_square(numbering: &Numbering, number: usize) -> Option<Square> {
    let index = *numbering.get(number)?;
    (index != NO_SQUARE).then(|| Square::new_unchecked(index))
}
