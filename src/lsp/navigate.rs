//! Going about a record: from a move to the last move of the same piece (go to definition), and
//! the ply numbers and remaining counts shown between the moves (inlay hints, off by default).

use super::library::{self, CheckOptions, Replayed};
use crate::board::Color;
use std::ops::Range;

/// The bytes of the move the piece moving at byte `at` last made before it, on the line that
/// leads there (`None`: not on a move, or the piece had not moved).
pub(super) fn last_move_of_piece(
    text: &str,
    at: usize,
    opts: &CheckOptions,
) -> Option<Range<usize>> {
    let game = library::game_before(text, text.len())?;
    let replayed = Replayed::new(&game, opts);
    let mut found = None;
    replayed.walk(&game, &mut |ply, path| {
        if !ply.node.span.range().contains(&at) && ply.node.span.end as usize != at {
            return true;
        }
        let piece = ply.piece;
        found = path
            .iter()
            .rev()
            .find(|earlier| {
                earlier.piece.is_some() && earlier.piece == piece && earlier.played.is_some()
            })
            .map(|earlier| earlier.node.span.range());
        false
    });
    found
}

/// A hint: where it stands (a byte of the game's text) and what it says.
pub(super) struct Hint {
    pub at: usize,
    pub label: String,
}

/// After each main-line move, its ply and side; after the last, what each side still needs
/// (the sum of its pieces' distances to their targets).
pub(super) fn hints(text: &str, opts: &CheckOptions) -> Vec<Hint> {
    let Some(game) = library::game_before(text, text.len()) else {
        return Vec::new();
    };
    let replayed = Replayed::new(&game, opts);
    let mut out = Vec::new();
    let mut last = None;
    replayed.walk(&game, &mut |ply, _| {
        if ply.depth == 0 {
            let side = match ply.side {
                Color::Green => "G",
                Color::Red => "R",
            };
            let end = ply.node.salta().map_or(ply.node.span.end, |s| s.end) as usize;
            out.push(Hint {
                at: end,
                label: format!("{}{side}", ply.ply),
            });
            last = Some((end, ply.after));
        }
        true
    });
    if let Some((end, pos)) = last {
        let at = game.result.map_or(end, |(_, span)| span.end as usize);
        out.push(Hint {
            at,
            label: format!(
                "to go: Green {}, Red {}",
                pos.free_count(Color::Green),
                pos.free_count(Color::Red)
            ),
        });
    }
    out
}
