//! Game documents (YAML and JSON, as `convert` writes them) read one at a time: a file of any size
//! is never held whole, only the document being read, and that up to a bound.

use salta::export::structured::GameDoc;
use serde::Deserialize;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use std::cell::Cell;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::rc::Rc;

/// The most bytes of one game document. A game the reader takes (8 MiB of SGN) is rarely more
/// than a few times that as a document; a larger one is refused rather than held.
pub(super) const MAX_DOCUMENT_BYTES: u64 = 64 << 20;

/// What a file's documents are handed to: a game, or the report (for stderr) of a document that
/// is not one. An error it returns (the output failed) stops the reading.
pub(super) type EachDoc<'a> = dyn FnMut(Result<GameDoc, String>) -> io::Result<()> + 'a;

/// Reads the games of a JSON file: an array of game documents, or one document. A syntax error
/// ends the file (JSON cannot be read on past one), after the games before it.
pub(super) fn each_json<R: Read>(input: R, each: &mut EachDoc) -> io::Result<()> {
    let budget = Rc::new(Cell::new(MAX_DOCUMENT_BYTES));
    let limited = Limited {
        inner: BufReader::with_capacity(64 << 10, input),
        left: budget.clone(),
    };
    let mut failed = None;
    let mut de = serde_json::Deserializer::from_reader(limited);
    let read = de::Deserializer::deserialize_any(
        &mut de,
        EachGame {
            each,
            budget,
            failed: &mut failed,
        },
    )
    .and_then(|()| de.end());
    match (failed, read) {
        (Some(e), _) => Err(e),
        (None, Ok(())) => Ok(()),
        (None, Err(e)) => each(Err(format!("not a game document: {e}"))),
    }
}

/// Reads the games of a YAML file, one document (from a `---` line to the next) at a time. A
/// document that is not a game is reported, and the next one read.
pub(super) fn each_yaml<R: Read>(input: R, each: &mut EachDoc) -> io::Result<()> {
    let mut input = BufReader::with_capacity(64 << 10, input);
    let mut doc = Vec::new();
    // The document's first line in the file, and whether it holds more than comments.
    let (mut first_line, mut content) = (1u64, false);
    let mut line = Vec::new();
    let mut line_no = 0u64;
    // Past the bound: the rest of the document is skipped.
    let mut too_large = false;
    let mut finish =
        |doc: &mut Vec<u8>, content: bool, too_large: bool, first_line: u64| {
            let text = std::mem::take(doc);
            if too_large {
                return each(Err(format!(
                    "the document at line {first_line} is larger than {} MiB",
                    MAX_DOCUMENT_BYTES >> 20
                )));
            }
            if !content {
                return Ok(());
            }
            let parsed = std::str::from_utf8(&text)
                .map_err(|e| e.to_string())
                .and_then(|text| serde_yaml::from_str::<GameDoc>(text).map_err(|e| e.to_string()));
            each(parsed.map_err(|e| {
                format!("the document at line {first_line}: not a game document: {e}")
            }))
        };
    loop {
        line.clear();
        let read = (&mut input)
            .take(MAX_DOCUMENT_BYTES + 1)
            .read_until(b'\n', &mut line);
        match read {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return each(Err(format!("cannot read it: {e}"))),
        }
        line_no += 1;
        let marker = |m: &[u8]| {
            line.strip_prefix(m)
                .is_some_and(|rest| rest.first().is_none_or(u8::is_ascii_whitespace))
        };
        if marker(b"---") || marker(b"...") {
            // A `---` line begins the next document; a `...` line ends this one. What comes
            // before the first content line (comments, directives) goes with the document.
            if content || too_large {
                finish(&mut doc, content, too_large, first_line)?;
                (content, too_large) = (false, false);
            }
            if !content && doc.iter().all(u8::is_ascii_whitespace) {
                first_line = line_no;
            }
            if marker(b"---") {
                doc.extend_from_slice(&line);
            }
            continue;
        }
        if too_large {
            continue;
        }
        let trimmed = line.trim_ascii_start();
        content |= !trimmed.is_empty() && !trimmed.starts_with(b"#") && !line.starts_with(b"%");
        if (doc.len() + line.len()) as u64 > MAX_DOCUMENT_BYTES {
            (too_large, content) = (true, false);
            doc = Vec::new();
            continue;
        }
        doc.extend_from_slice(&line);
    }
    finish(&mut doc, content, too_large, first_line)
}

/// A reader that fails once the document being read has taken its budget (`left`, set anew for
/// each document).
struct Limited<R> {
    inner: R,
    left: Rc<Cell<u64>>,
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.left.get();
        if left == 0 {
            return Err(io::Error::other(format!(
                "a game document larger than {} MiB",
                MAX_DOCUMENT_BYTES >> 20
            )));
        }
        let room = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..room])?;
        self.left.set(left - n as u64);
        Ok(n)
    }
}

/// Hands each game of a JSON array (or a lone document) on as soon as it is read.
struct EachGame<'a, 'b> {
    each: &'a mut EachDoc<'b>,
    budget: Rc<Cell<u64>>,
    /// The output's error, which stopped the reading.
    failed: &'a mut Option<io::Error>,
}

impl EachGame<'_, '_> {
    fn hand_on<E: de::Error>(&mut self, doc: GameDoc) -> Result<(), E> {
        (self.each)(Ok(doc)).map_err(|e| {
            *self.failed = Some(e);
            E::custom("the output failed")
        })
    }
}

impl<'de> Visitor<'de> for EachGame<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of game documents, or one")
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        loop {
            self.budget.set(MAX_DOCUMENT_BYTES);
            match seq.next_element::<GameDoc>()? {
                Some(doc) => self.hand_on(doc)?,
                None => return Ok(()),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, map: A) -> Result<(), A::Error> {
        let doc = GameDoc::deserialize(de::value::MapAccessDeserializer::new(map))?;
        self.hand_on(doc)
    }
}

#[cfg(test)]
mod tests {
    use super::{each_json, each_yaml};

    fn events(
        read: impl Fn(&[u8], &mut super::EachDoc) -> std::io::Result<()>,
        text: &str,
    ) -> Vec<String> {
        let mut seen = Vec::new();
        read(text.as_bytes(), &mut |doc| {
            seen.push(match doc {
                Ok(doc) => doc
                    .tags
                    .iter()
                    .find(|(n, _)| n == "Event")
                    .map_or("?".into(), |(_, v)| v.clone()),
                Err(e) => format!("error: {e}"),
            });
            Ok(())
        })
        .unwrap();
        seen
    }

    const DOC_JSON: &str =
        r#"{"tags": {"Event": "@"}, "rules": "salta", "moves": [], "result": "*"}"#;

    #[test]
    fn json_arrays_and_lone_documents_are_read_game_by_game() {
        let array = format!(
            "[{}, {}]",
            DOC_JSON.replace('@', "a"),
            DOC_JSON.replace('@', "b")
        );
        assert_eq!(events(|t, e| each_json(t, e), &array), ["a", "b"]);
        assert_eq!(events(|t, e| each_json(t, e), DOC_JSON), ["@"]);
        let broken = format!("[{}, {{\"tags\": 3}}, {}]", DOC_JSON, DOC_JSON);
        let seen = events(|t, e| each_json(t, e), &broken);
        assert_eq!(seen[0], "@");
        assert!(
            seen[1].starts_with("error: not a game document"),
            "{seen:?}"
        );
        assert_eq!(seen.len(), 2);
    }

    #[test]
    fn yaml_documents_are_read_one_at_a_time_and_a_bad_one_skipped() {
        let doc = |event: &str| {
            format!("tags:\n  Event: {event}\nrules: salta\nmoves: []\nresult: '*'\n")
        };
        let text = format!(
            "# games\n---\n{}---\nnot: [a game\n...\n---\n{}",
            doc("a"),
            doc("b")
        );
        let seen = events(|t, e| each_yaml(t, e), &text);
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(seen[0], "a");
        assert!(
            seen[1].starts_with("error: the document at line 8"),
            "{seen:?}"
        );
        assert_eq!(seen[2], "b");
        // A file without markers is one document.
        assert_eq!(events(|t, e| each_yaml(t, e), &doc("c")), ["c"]);
    }
}
