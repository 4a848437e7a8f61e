//! Writing games one after another exactly as they were read.

use super::TextPart;
use std::io::{self, Write};

/// Whitespace held back at the end of a part of a game, in case it is the game's last: a longer
/// run is written as it stands (it then stays inside the game's text).
const HELD_WHITESPACE: usize = 64 << 10;

/// Writes games one after another, each exactly as read: its bytes, whatever their encoding,
/// control characters or line ends, with the whitespace after its last character replaced by one
/// line end of the kind its first line ends with (CR LF, CR alone or LF), and one blank line of
/// that kind between games. A game of a file that ends in one line end, written alone, is the
/// file byte for byte. A game passed on in parts ([`TextPart`]) is written as its parts come,
/// never held whole.
#[derive(Debug, Default)]
pub struct AsRead {
    /// A game has been written: the next is preceded by a blank line.
    started: bool,
    /// The line end of the game being written.
    line_end: &'static [u8],
    /// Whitespace at the end of what was written of the game so far, not yet written.
    held: Vec<u8>,
}

impl AsRead {
    /// A writer that has written nothing yet.
    pub fn new() -> AsRead {
        AsRead::default()
    }

    /// Writes a whole game's text.
    pub fn game(&mut self, out: &mut dyn Write, text: &[u8]) -> io::Result<()> {
        self.part(out, text, TextPart::Whole)
    }

    /// Writes a part of a game's text (the whole text for [`TextPart::Whole`]).
    pub fn part(&mut self, out: &mut dyn Write, text: &[u8], part: TextPart) -> io::Result<()> {
        if part.begins() {
            self.line_end = line_end_of(text);
            if std::mem::replace(&mut self.started, true) {
                out.write_all(self.line_end)?;
            }
            self.held.clear();
        }
        let body = text
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |p| p + 1);
        if body > 0 {
            out.write_all(&self.held)?;
            self.held.clear();
            out.write_all(&text[..body])?;
        }
        self.held.extend_from_slice(&text[body..]);
        if self.held.len() > HELD_WHITESPACE {
            out.write_all(&self.held)?;
            self.held.clear();
        }
        if part.ends() {
            self.held.clear();
            out.write_all(self.line_end)?;
        }
        Ok(())
    }
}

/// How the first line of `text` ends: CR LF, CR alone or LF (LF when it has one line).
fn line_end_of(text: &[u8]) -> &'static [u8] {
    match text.iter().position(|&b| b == b'\n' || b == b'\r') {
        Some(at) if text[at] == b'\n' => b"\n",
        Some(at) if text.get(at + 1) == Some(&b'\n') => b"\r\n",
        Some(_) => b"\r",
        None => b"\n",
    }
}

#[cfg(test)]
mod tests {
    use super::{AsRead, TextPart};

    fn written(games: &[(&[u8], TextPart)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut writer = AsRead::new();
        for (text, part) in games {
            writer.part(&mut out, text, *part).unwrap();
        }
        out
    }

    #[test]
    fn games_keep_their_bytes_and_line_ends() {
        let crlf: &[u8] = b"[Event \"w\"]\r\n\r\n1. 33-43 *\r\n\r\n";
        let cr: &[u8] = b"[Event \"\xe9\x1b\"]\r\r1. 33-43 *\r";
        assert_eq!(
            written(&[(crlf, TextPart::Whole)]),
            b"[Event \"w\"]\r\n\r\n1. 33-43 *\r\n"
        );
        assert_eq!(
            written(&[(cr, TextPart::Whole), (crlf, TextPart::Whole)]),
            b"[Event \"\xe9\x1b\"]\r\r1. 33-43 *\r\r\n[Event \"w\"]\r\n\r\n1. 33-43 *\r\n"
        );
    }

    #[test]
    fn a_game_in_parts_is_written_as_one() {
        let parts: [(&[u8], TextPart); 4] = [
            (b"[Event \"big\"]\n\n1. 33-43 {", TextPart::First),
            (b"long  ", TextPart::Middle),
            (b"  comment} *\n\n", TextPart::Middle),
            (b"\n  \n", TextPart::Last),
        ];
        let mut games = parts.to_vec();
        games.push((b"[Event \"next\"]\n", TextPart::Whole));
        assert_eq!(
            written(&games),
            b"[Event \"big\"]\n\n1. 33-43 {long    comment} *\n\n[Event \"next\"]\n"
        );
    }
}
