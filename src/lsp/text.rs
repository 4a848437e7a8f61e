//! A document's text as the protocol addresses it: lines, and columns counted in the code units the
//! client and server agreed on (UTF-16 unless the client offers UTF-8). Every position a client
//! sends is taken, whatever it is: past the end of a line it means the line's end, past the last
//! line the end of the text, inside a character the character's start.

use lsp_types::{Position, Range};

/// How columns are counted ([`Encoding::negotiate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 bytes.
    Utf8,
    /// UTF-16 code units, the protocol's default.
    #[default]
    Utf16,
    /// Characters (Unicode scalar values).
    Utf32,
}

impl Encoding {
    /// The encoding to use given what the client offers (LSP 3.17's `positionEncodings`, or
    /// clangd's older `offsetEncoding` that Neovim 0.7 sends), in the client's order of
    /// preference: UTF-8 when offered (no counting at all), else UTF-16, which every client
    /// must support.
    pub fn negotiate(offered: &[String]) -> Encoding {
        if offered.iter().any(|e| e == "utf-8") {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    /// The name the protocol gives it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16 => "utf-16",
            Encoding::Utf32 => "utf-32",
        }
    }

    /// Code units of `c` in this encoding.
    fn units(self, c: char) -> u32 {
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
            Encoding::Utf32 => 1,
        }
    }

    /// Code units of `text`.
    fn count(self, text: &str) -> u32 {
        match self {
            Encoding::Utf8 => text.len() as u32,
            _ if text.is_ascii() => text.len() as u32,
            _ => text.chars().map(|c| self.units(c)).sum(),
        }
    }
}

/// Where the lines of a text start, kept up to date through edits (a long document's index is
/// shifted, not rebuilt).
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// Byte offset of each line's start; the first is 0.
    starts: Vec<u32>,
}

impl Lines {
    /// The index of `text`.
    pub fn new(text: &str) -> Lines {
        let mut lines = Lines { starts: vec![0] };
        lines.starts.extend(newline_ends(text, 0));
        lines
    }

    /// Bytes `start..end` of the old text were replaced by `inserted`.
    pub fn edit(&mut self, start: usize, end: usize, inserted: &str) {
        let delta = inserted.len() as i64 - (end - start) as i64;
        // Lines starting inside the replaced bytes (after a newline in them) go; those after
        // them move by the change in length; the new text's own lines come in between.
        let first = self.starts.partition_point(|&s| (s as usize) <= start);
        let last = self.starts.partition_point(|&s| (s as usize) <= end);
        let added: Vec<u32> = newline_ends(inserted, start).collect();
        self.starts.splice(first..last, added);
        let shift_from = first + newline_ends(inserted, start).count();
        for s in &mut self.starts[shift_from..] {
            *s = (*s as i64 + delta) as u32;
        }
    }

    /// How many lines there are (a text ending in a newline has an empty last line).
    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| (s as usize) <= offset)
            .saturating_sub(1)
    }

    /// Bytes of line `line` (0-based), its line break excluded; empty past the last line.
    pub fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let Some(&start) = self.starts.get(line) else {
            return text.len()..text.len();
        };
        let start = (start as usize).min(text.len());
        let mut end = self
            .starts
            .get(line + 1)
            .map_or(text.len(), |&s| (s as usize).saturating_sub(1))
            .clamp(start, text.len());
        if text.as_bytes().get(end.wrapping_sub(1)) == Some(&b'\r') && end > start {
            end -= 1;
        }
        start..end
    }

    /// The byte offset a protocol position names in `text`, clamped as the protocol asks.
    pub fn offset(&self, text: &str, at: Position, encoding: Encoding) -> usize {
        if at.line as usize >= self.starts.len() {
            return text.len();
        }
        let range = self.line_range(text, at.line as usize);
        let line = &text[range.clone()];
        let want = at.character;
        if encoding == Encoding::Utf8 {
            let mut at = (want as usize).min(line.len());
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            return range.start + at;
        }
        let mut units = 0;
        for (i, c) in line.char_indices() {
            let next = units + encoding.units(c);
            if next > want {
                return range.start + i;
            }
            units = next;
        }
        range.end
    }

    /// The protocol position of a byte offset (clamped to the text, rounded down to a character).
    pub fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_of(offset);
        let start = (self.starts[line] as usize).min(offset);
        Position::new(line as u32, encoding.count(&text[start..offset]))
    }

    /// The protocol range of bytes `start..end`.
    pub fn range(&self, text: &str, bytes: std::ops::Range<usize>, encoding: Encoding) -> Range {
        Range::new(
            self.position(text, bytes.start, encoding),
            self.position(text, bytes.end.max(bytes.start), encoding),
        )
    }

    /// The byte range a protocol range names, its ends in order.
    pub fn bytes(&self, text: &str, range: Range, encoding: Encoding) -> std::ops::Range<usize> {
        let a = self.offset(text, range.start, encoding);
        let b = self.offset(text, range.end, encoding);
        a.min(b)..a.max(b)
    }
}

/// The offsets just after each newline of `text`, counted from `base`.
fn newline_ends(text: &str, base: usize) -> impl Iterator<Item = u32> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(move |(i, _)| (base + i + 1) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_clamp() {
        let text = "[Site \"Jüterbog\"]\n1. 𝄞 33-43\r\nend";
        let lines = Lines::new(text);
        assert_eq!(lines.count(), 3);
        let at =
            |line, character| lines.offset(text, Position::new(line, character), Encoding::Utf16);
        // "ü" is one UTF-16 unit and two bytes.
        assert_eq!(&text[at(0, 9)..at(0, 9) + 4], "terb");
        // The clef is two UTF-16 units: inside it means its start.
        assert_eq!(at(1, 4), at(1, 3));
        assert_eq!(&text[at(1, 5)..at(1, 11)], " 33-43");
        // Past the line's end (before its CR LF) and past the last line.
        assert_eq!(&text[at(1, 99)..at(1, 99) + 2], "\r\n");
        assert_eq!(at(9, 0), text.len());
        for offset in 0..=text.len() {
            let p = lines.position(text, offset, Encoding::Utf16);
            let back = lines.offset(text, p, Encoding::Utf16);
            assert!(back <= offset && text.is_char_boundary(back), "{offset}");
        }
        let p = lines.position(text, text.find('3').unwrap(), Encoding::Utf8);
        assert_eq!(p, Position::new(1, 8));
    }

    #[test]
    fn an_edited_index_is_the_index_of_the_edited_text() {
        let mut text = String::from("a\nbb\nccc\n\ndd");
        let mut lines = Lines::new(&text);
        for (start, end, inserted) in [
            (1, 1, "x\ny"),
            (0, 5, ""),
            (2, 6, "\n\n\n"),
            (0, 0, "\n"),
            (3, 3, "é"),
        ] {
            let end = end.min(text.len());
            text.replace_range(start..end, inserted);
            lines.edit(start, end, inserted);
            assert_eq!(lines.starts, Lines::new(&text).starts, "{text:?}");
        }
    }
}
