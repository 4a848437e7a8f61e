//! Text from a file made safe to show on a terminal.

use std::borrow::Cow;

/// Text safe to show on a terminal: every control character (escape sequences, a carriage return
/// that would overwrite the line, a newline too unless `newlines`) is replaced, byte for byte, so
/// that nothing read from a file can move the cursor, recolour or retitle the terminal, or forge a
/// report line; the text keeps its length. Tabs stay.
pub fn printable(text: &str, newlines: bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\t' && !(newlines && c == '\n');
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\r' => safe.push(' '),
            c if unsafe_char(c) => safe.extend(std::iter::repeat_n('?', c.len_utf8())),
            c => safe.push(c),
        }
    }
    Cow::Owned(safe)
}
