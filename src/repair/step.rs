//! A step of a chain the decoder reads a line with (`decode`), and what each kind of step
//! costs: `-ln` of how likely the slip it undoes is on a page read by OCR (decision 159).

use super::token::Token;

/// A written move read as another than it names. On a page OCR read badly one move in two or
/// three is misread, so this is far less than a careful transcription's `SLIP`: what ranks two
/// chains is the characters each misreads.
pub(super) const MISREAD: f64 = 2.0;
/// How far a token's characters may be from a move's to be read as it (as `trials` reads a
/// garbled break).
pub(super) const READ_LIMIT: f64 = 10.0;
/// A token no reading within the limit gives the move: read by the moves around it.
pub(super) const UNREADABLE: f64 = 12.0;
/// A token read as several moves, the spaces between them lost: `-ln` of the prior of
/// `SlipKind::Merged`, beside the misreading of each move.
pub(super) const MERGED: f64 = 2.3;

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
