//! Written text as a message quotes it for a person.

/// `text` between quotation marks, as a message shows what was written: `"33-4"`. A text that
/// holds a straight double quote is set between curly ones (a speck `"` reads `“"”`), one that
/// holds those too between single curly ones; nothing in it is escaped but what would not show
/// (control characters such as a tab, and invisible ones such as a zero-width space or a byte
/// order mark, as `\t`, `\u{200b}`). Every finding and error that quotes the input quotes it so.
pub fn quote(text: &str) -> String {
    let marks = [('"', '"'), ('“', '”'), ('‘', '’')]
        .into_iter()
        .find(|&(open, close)| !text.contains([open, close]));
    let Some((open, close)) = marks else {
        return format!("{text:?}");
    };
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push(open);
    for c in text.chars() {
        if c.is_control() || invisible(c) {
            quoted.extend(c.escape_debug());
        } else {
            quoted.push(c);
        }
    }
    quoted.push(close);
    quoted
}

/// Characters that take no room on the page: zero-width spaces and joiners, direction marks and
/// embeddings, the word joiner and invisible operators, the byte order mark.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
    )
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn a_person_reads_what_was_written() {
        assert_eq!(quote("33-4"), "\"33-4\"");
        assert_eq!(quote("\""), "“\"”");
        assert_eq!(quote("He said \"x\""), "“He said \"x\"”");
        assert_eq!(quote("„x“ \"y\""), "‘„x“ \"y\"’");
        assert_eq!(quote("\\ '"), "\"\\ '\"");
        assert_eq!(quote("a\tb\u{feff}"), "\"a\\tb\\u{feff}\"");
        // Every kind of mark inside: Rust's quoting, escapes and all.
        assert_eq!(quote("\"“‘"), "\"\\\"“‘\"");
    }
}
