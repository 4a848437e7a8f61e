//! A game the reader could not read past: stray text in its movetext (a move number misread
//! beyond recognition, `IL.`; a speck read as a sign; a lone `)`) left out, so that the moves
//! after it are read and the game can be mended. What is left out is named in the report.

use crate::diagnostic::Code;
use crate::notation::{Game, Span, SyntaxError, parse_str};

/// Stray texts left out of one game at most: a page that needs more is not read on.
const MAX_STRAYS: usize = 12;

/// The codes of reader errors whose text, left out, may let the reader go on: one token it could
/// not place. A comment or variation never closed, a game too large, are not.
const LEFT_OUT: [Code; 4] = [
    Code::UnexpectedToken,
    Code::BadMoveNumber,
    Code::BadNag,
    Code::UnmatchedParen,
];

/// The game read with each token that stopped the reader in its movetext left out (blanked, so
/// that spans stay those of the text as written), and what was left out with where it stood;
/// `None` when the error is of another kind or too many such tokens stand in the way. The game
/// keeps the text as written: repair reads a ply left out from what the reader left out
/// (decision 98).
pub fn read_past(error: &SyntaxError) -> Option<(Game, Vec<(Span, String)>)> {
    let written = error.source.text();
    let mut text = written.to_string();
    let mut error = error.clone();
    let mut left_out = Vec::new();
    for _ in 0..MAX_STRAYS {
        let range = error.span.range();
        if error.at.is_none() || !LEFT_OUT.contains(&error.code) || range.is_empty() {
            return None;
        }
        let stray = text.get(range.clone())?.to_string();
        left_out.push((error.span, stray));
        text.replace_range(range.clone(), &" ".repeat(range.len()));
        match parse_str(&text).into_iter().next()? {
            Ok(mut game) => {
                if game.text.len() == written.len() {
                    game.text = written.to_string();
                }
                return Some((game, left_out));
            }
            Err(next) => error = next,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_the_reader_cannot_place_is_left_out_and_the_game_read_on() {
        // (`IL.` before a move is now read as the move number due there: decision 66.)
        let text = "1. 33-43 83-73 Fortsetzung 32-42 82-72 *";
        let error = parse_str(text)
            .remove(0)
            .expect_err("prose stops the reader");
        let (game, left_out) = read_past(&error).expect("read past");
        assert_eq!(game.mainline.moves.len(), 4);
        assert_eq!(left_out.len(), 1);
        assert_eq!(left_out[0].1, "Fortsetzung");
        assert_eq!(&text[left_out[0].0.range()], "Fortsetzung");
    }

    #[test]
    fn an_unclosed_comment_is_not_read_past() {
        let error = parse_str("1. 33-43 {never closed")
            .remove(0)
            .expect_err("unclosed");
        assert!(read_past(&error).is_none());
    }
}
