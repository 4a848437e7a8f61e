//! Games larger than the reader's limit: where one ends, read line by line without holding it,
//! and how much of a stretch of text holds whole games.

use crate::notation::parser::{Limits, Log, Outcome, parse_game};

/// Where the reading past an oversized game has got to: the game goes on, line by line, through
/// its tag section and then its movetext up to the next line that starts with `[` (the next
/// game's tags). The reader and the archive's pipeline end an oversized game alike.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Oversized {
    /// Past the game's tag section.
    in_movetext: bool,
    /// Inside a line whose start has been passed.
    mid_line: bool,
}

impl Oversized {
    /// An oversized game that starts at the start of `bytes`.
    pub(crate) fn at(bytes: &[u8]) -> Oversized {
        Oversized {
            in_movetext: bytes.first() != Some(&b'['),
            mid_line: false,
        }
    }

    /// Where in `bytes` (which go on from where the last call stopped) the next game starts, or
    /// `None` if all of them belong to the oversized game.
    pub(crate) fn end_in(&mut self, bytes: &[u8]) -> Option<usize> {
        let mut at = 0;
        while at < bytes.len() {
            let (end, whole) = match bytes[at..].iter().position(|&b| b == b'\n') {
                Some(p) => (at + p, true),
                None => (bytes.len(), false),
            };
            match bytes.get(at).filter(|_| !self.mid_line) {
                Some(b'[') if self.in_movetext => return Some(at),
                Some(b) if *b != b'[' && !b.is_ascii_whitespace() => self.in_movetext = true,
                _ => {}
            }
            self.mid_line = !whole;
            at = end + usize::from(whole);
        }
        None
    }
}

/// How much of `bytes` (a file's text from the start of a game, cut anywhere) holds whole games as
/// the reader reads them: where the game that runs on past them starts. The archive's pipeline
/// asks this of a stretch larger than a game may be in which it found no blank line before a tag
/// line, to tell games written without blank lines between them from a game too large.
pub(crate) fn whole_games(bytes: &[u8]) -> usize {
    let (limits, mut log) = (Limits::default(), Log::default());
    // Whole lines only, their end found once: searched for game after game, a long last line was
    // scanned again for each (quadratic).
    let lines = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let mut at = 0;
    loop {
        at += bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        if at >= lines {
            return at;
        }
        match parse_game(
            &bytes[at..lines],
            &bytes[lines..],
            false,
            &limits,
            None,
            &mut log,
        ) {
            Outcome::Game(end) | Outcome::Error(_, end) | Outcome::Stray(end) if end > 0 => {
                at += end;
            }
            _ => return at,
        }
    }
}
