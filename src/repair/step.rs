//! A step of a chain the decoder reads a line with (`decode`), and what each kind of step
//! costs: `-ln` of how likely the slip it undoes is on a page read by OCR (decision 159).

use super::channel::{Op, Reading, Sym};
use super::numbers::Unglued;
use super::token::Token;

/// A written move read as another than it names. On a page OCR read badly one move in two or
/// three is misread, so this is far less than a careful transcription's `SLIP`: what ranks two
/// chains is the characters each misreads.
pub(super) const MISREAD: f64 = 2.0;
/// How far a token's characters may be from a move's to be read as it: as far as a reading
/// may cost and still cost no more than a move read past its characters (`MISREAD` and this
/// against `MISREAD` and `UNREADABLE`), so that every move is ranked by its characters where
/// they tell it apart. 10 left the readings of 10 to 12 alike: of the 576 medium dev pages,
/// 8 restored 262, 10 289, 11 296, 12 298, 13 296, 16 285 (decision 228).
pub(super) const READ_LIMIT: f64 = 12.0;
/// A token no reading within the limit gives the move: read by the moves around it.
pub(super) const UNREADABLE: f64 = 12.0;
/// A token read as several moves, the spaces between them lost: `-ln` of the prior of
/// `SlipKind::Merged`, beside the misreading of each move.
pub(super) const MERGED: f64 = 2.3;

/// A move read past its characters that steps backward, away from the mover's goal, beside one
/// that steps forward or jumps: every legal move reads such a token alike, and in a race game
/// most moves go forward. Half a nat, less than any misread character costs: it orders the
/// moves that read such a token alike and that the tokens after do not tell apart (decision
/// 198).
pub(super) const BACKWARD: f64 = 0.5;

/// What a move read past its characters is said to be.
pub(super) const UNREADABLE_WHY: &str = "unreadable, read by the moves around it";
/// A move read past its characters for which more other legal moves than this make the rest of
/// the line replay to the same end is no reading: the record is left as the search left it.
pub(super) const MAX_RIVALS: usize = 3;
/// A ply the page does not show: dearer than any reading of a token, or a chain would rather
/// put in moves than read a garbled token (and never reach the next).
pub(super) const DROPPED: f64 = 16.0;
/// A move read from text the reader left out between two moves (`9584.13.`, taken for move
/// numbers): the reader's slip, beside the misreading of the move's characters.
pub(super) const LEFT_OUT: f64 = 2.0;
/// A token that is no move (a speck, a number read as a word), or what is left of one after
/// the moves read in it (see `decode`'s `NOISE_CHARS`).
pub(super) const NOISE: f64 = 9.0;

/// What one step of a chain did.
#[derive(Clone, Copy, Debug)]
pub(super) enum What {
    /// What is left of the token read as this move (as written, or misread).
    Read(Token),
    /// The beginning of what is left of the token read as this move, more moves after it.
    Part(Token, usize),
    /// A move the page does not show, put in before what is left of the token.
    Dropped(Token),
    /// A move read from text the reader left out before the token.
    LeftOut(Token),
    /// What is left of the token read as no move.
    Noise,
}

impl What {
    /// The move the step played, if any.
    pub fn played(self) -> Option<Token> {
        match self {
            What::Read(t) | What::Part(t, _) | What::Dropped(t) | What::LeftOut(t) => Some(t),
            What::Noise => None,
        }
    }
}

/// A step of a chain: what it did at which token, and the step before it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub parent: Option<u32>,
    pub at: usize,
    pub what: What,
}

/// The cost of a move read with characters misread that cost `chars`: nothing for none (a move
/// run together with the next, or a number glued to it, is read as it stands).
pub(super) fn misread(chars: f64) -> f64 {
    if chars > 0.0 { MISREAD + chars } else { 0.0 }
}

/// The cost of a move read as `read` from `text`: [`misread`], but where only signs were
/// misread (the separator lost or read as `°`, a speck at an edge) only what those cost
/// (decision 172), and what taking a glued number off the text costs (decision 200). OCR
/// loses or misreads a separator by the spacing of the line, apart from the digits, so a
/// token with its dash misread is no likelier than another to have a digit misread too: two
/// neighbouring moves with a digit misread each are not dearer than one with both because
/// one of them also lost its dash.
pub(super) fn misread_of(read: &Reading, text: &Unglued) -> f64 {
    let signs_only = read.ops.iter().all(|op| match op {
        Op::Sub(Sym::Sep | Sym::Gap, _) | Op::Del(Sym::Sep | Sym::Gap) => true,
        Op::Ins(c) => !c.is_alphanumeric(),
        _ => false,
    });
    match signs_only {
        true => read.cost + text.cost,
        false => misread(read.cost + text.cost),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::channel::{Channel, meant_symbols};

    /// What reading the move `meant` from the garbled text `written` costs.
    fn read(meant: &str, written: &str) -> f64 {
        let written: Vec<char> = written.chars().collect();
        let reading = Channel::get()
            .read_garbled(&meant_symbols(meant), &written, READ_LIMIT)
            .unwrap();
        misread_of(&reading, &Unglued::as_written(written))
    }

    #[test]
    fn a_dash_misread_alone_is_no_move_misread() {
        assert!(read("54-44", "54°44") < MISREAD);
        assert!(read("54-44", "5444") < MISREAD);
        assert_eq!(read("43-34", "43-34"), 0.0);
        assert!(read("34-44", "54°44") > MISREAD);
        assert!(read("43-54", "43-34") > MISREAD);
        // A digit misread in each of two neighbouring moves, the first with its dash misread
        // too (`54°44 43-34` for 54-44 43-54), against both digits in the first (34-44
        // 43-34): what tells them apart is the digits' confusions, not a move misread more.
        let apart = read("54-44", "54°44") + read("43-54", "43-34");
        let together = read("34-44", "54°44") + read("43-34", "43-34");
        assert!((apart - together).abs() < MISREAD, "{apart} {together}");
    }

    /// A move read as written once the move number glued to it is taken off costs what the
    /// gluing costs, no misread move (decision 200): `52-41` of `52-41°93.` is read as it
    /// stands, `32-41` from it is a misread move.
    #[test]
    fn a_move_read_as_written_beside_a_glued_number_is_no_move_misread() {
        let glued = |meant: &str| {
            let text = Unglued {
                text: "52-41°".chars().collect(),
                skipped: 0,
                cost: 0.5,
                note: String::new(),
            };
            let reading = Channel::get()
                .read_garbled(&meant_symbols(meant), &text.text, READ_LIMIT)
                .unwrap();
            misread_of(&reading, &text)
        };
        assert!(glued("52-41") < MISREAD, "{}", glued("52-41"));
        assert!(glued("32-41") > MISREAD + 0.5, "{}", glued("32-41"));
    }
}
