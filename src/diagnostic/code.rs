//! The stable codes of every diagnostic: the reader's (`sgn::…`) and the replayer's (`salta::…`),
//! each with its name as reports print it, its usual severity and what it means.

use std::fmt;
use std::str::FromStr;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something to look at; the game still counts as valid.
    Warning,
    /// The record is wrong: the game is invalid.
    Error,
}

impl Severity {
    /// The name reports print (`error`, `warning`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Declares [`Code`] with, for each code, its name, its usual severity, its meaning and its help,
/// so that they cannot drift apart and [`Code::ALL`] lists every code.
macro_rules! codes {
    ($($code:ident = $name:literal, $severity:ident, $meaning:literal, $help:literal;)*) => {
        /// The stable code of a diagnostic, from the reader (`sgn::…`) or the replayer
        /// (`salta::…`). It prints, parses and serializes as its name (`salta::illegal-move`), the
        /// form JSON reports and scripts use; docs/diagnostics.md lists every code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code {
            $(#[doc = $meaning] $code,)*
        }

        impl Code {
            /// Every code, readers' first, in the order of docs/diagnostics.md.
            pub const ALL: &'static [Code] = &[$(Code::$code,)*];

            /// The stable name as reports print it (`sgn::unexpected-token`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$code => $name,)*
                }
            }

            /// The severity the code usually has. Two replayer codes are warnings in some
            /// situations: [`Code::MissedJump`] when replaying leniently, and
            /// [`Code::DesignatorMismatch`] for a designator on identical Pyramid pieces.
            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$code => Severity::$severity,)*
                }
            }

            /// What the code means, in one sentence (its documentation).
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Code::$code => $meaning,)*
                }
            }

            /// Advice for the person checking the record, in one sentence: what usually causes
            /// the diagnostic and what to look at in the source. The human report shows it when
            /// the diagnostic brings no help of its own for the place.
            pub fn help(self) -> &'static str {
                match self {
                    $(Code::$code => $help,)*
                }
            }
        }
    };
}

codes! {
    UnexpectedToken = "sgn::unexpected-token", Error,
        "A token that fits nowhere in the grammar.",
        "Usually a typing slip, or a remark written outside braces: compare the line with the \
        source and put remarks inside `{ }`.";
    BadSquare = "sgn::bad-square", Error,
        "A number or name that is not a square of the board (no longer reported: such a move is \
        kept as a `sgn::garbled-move`).",
        "Usually a misread or mistyped digit: compare the square with the source, and check that \
        the Rules tag names the board the game was played on.";
    MixedNotation = "sgn::mixed-notation", Error,
        "Numeric and algebraic squares in one move (no longer reported: such a move is kept as a \
        `sgn::garbled-move`).",
        "Write both squares of a move the same way, as numbers (`33-43`) or as letters and digits \
        (`e3-f4`), as the source does.";
    GarbledMove = "sgn::garbled-move", Error,
        "A movetext token that cannot be read as a move (a number that is no square, a letter \
        among the digits, another separator, squares run together or split), kept as written; \
        the replay stops there.",
        "Usually a misread or mistyped character: compare the move with the source and write it \
        as from-square, `-` or `:`, to-square (`33-43`); `salta check` lists what it may have \
        been and `salta repair` mends it.";
    MisreadMoveNumber = "sgn::misread-move-number", Warning,
        "A move number misread (`I.` or `l2.` for a digit, `4,` for `4.`) or glued to the move \
        before it (`81-7113.`), read as the number it stands for.",
        "Move numbers are only checked against the game: compare the number with the source and \
        write it as digits and a dot, apart from the moves (`12. 33-43`).";
    Speck = "sgn::speck", Warning,
        "A mark in the movetext that is no token, as OCR leaves on a page (a quotation mark, a \
        bar, `©`, `°` before a move, a `*` with the game going on), skipped.",
        "Compare the place with the source: a speck on the page is left out; if a move or a \
        move number stood there, write it.";
    MisreadResult = "sgn::misread-result", Warning,
        "A result token misread (`O-T` or `I-O` for a result, its digits read as letters) after \
        the last move, read as the result it stands for.",
        "Compare the result with the source and write it as `1-0`, `0-1`, `1/2-1/2` or `*`.";
    BadDesignator = "sgn::bad-designator", Error,
        "A piece designator out of range (`Su6`, `#16`) (no longer reported: such a move is kept \
        as a `sgn::garbled-move`).",
        "The pieces are stars, moons and suns numbered 1 to 5 (or #1 to #15 counted through): \
        compare the piece's name with the source.";
    BadMoveNumber = "sgn::bad-move-number", Error,
        "A move number that is too large.",
        "Usually digits run together, or a date or page number typed into the moves: compare the \
        move number with the source.";
    BadNag = "sgn::bad-nag", Error,
        "A NAG (`$n`) without digits or out of range.",
        "A `$` must be followed directly by a number such as `$1`; if the `$` belongs to a remark, \
        put the remark inside `{ }`.";
    BadTag = "sgn::bad-tag", Error,
        "A malformed tag pair (`[Name \"value\"]`).",
        "Each tag stands on its own line as `[Name \"value\"]`: look for a missing bracket or \
        quotation mark.";
    UnclosedComment = "sgn::unclosed-comment", Error,
        "A `{` comment never closed.",
        "A `{` opens a remark that runs to the next `}`: add the closing brace where the remark \
        ends in the source.";
    UnclosedVariation = "sgn::unclosed-variation", Error,
        "A `(` variation never closed.",
        "A `(` opens a side line that runs to the next `)`: add the closing parenthesis where the \
        side line ends in the source.";
    UnmatchedParen = "sgn::unmatched-paren", Error,
        "A `)` with no variation open.",
        "A `)` closes a side line opened with `(`: add the opening parenthesis where the side line \
        begins, or remove the stray one.";
    Misplaced = "sgn::misplaced", Error,
        "A variation, annotation or `Salta!` call before any move.",
        "Side lines, annotations and Salta! calls follow the move they are about: check whether \
        the game's first move is missing.";
    ResultInVariation = "sgn::result-in-variation", Error,
        "A result token inside a variation.",
        "The result (`1-0`, `0-1`, `1/2-1/2` or `*`) ends the whole game: look for a missing `)` \
        before it.";
    TagTooLong = "sgn::tag-too-long", Error,
        "A tag name or value longer than the limit.",
        "Tags hold short facts such as names, places and dates: move long text into a remark `{ }` \
        after the tags.";
    CommentTooLong = "sgn::comment-too-long", Error,
        "A comment longer than the limit.",
        "A remark this long is usually a `{` never closed, which swallowed the moves after it: \
        look for the missing `}`.";
    GameTooLarge = "sgn::game-too-large", Error,
        "A game larger than the limit.",
        "A game this large is usually several games run together or a remark never closed: check \
        that each game starts with its tags and ends with a result.";
    TooDeep = "sgn::too-deep", Error,
        "Variations nested deeper than the limit.",
        "Side lines nested this deep usually mean unbalanced parentheses: check that every `(` has \
        its `)`.";
    Io = "sgn::io", Error,
        "The input could not be read.",
        "Check that the file still exists, that you may read it, and that the disk or network \
        drive it is on is available.";
    StrayText = "sgn::stray-text", Warning,
        "Text that is neither tags nor movetext, skipped.",
        "Text outside any game is skipped: put a remark inside `{ }` in the game it belongs to, \
        and start every game with its tags.";
    NoGame = "sgn::no-game", Warning,
        "A file with no game in it.",
        "Check that this is the transcription you meant, saved as plain text with tags and moves.";
    Utf16 = "sgn::utf16", Error,
        "A file in UTF-16, which the reader does not decode.",
        "Save the file as UTF-8 (most editors offer it under Save As or Encoding) and check it \
        again.";
    Binary = "sgn::binary", Error,
        "A file that is not text (NUL bytes).",
        "This is not a text file (perhaps a word-processor document or an image): save the \
        transcription as plain text.";
    Latin1 = "sgn::latin1", Warning,
        "Text that is not UTF-8, read as Latin-1.",
        "Check the accented letters in the report, and save the file as UTF-8 so that they are \
        read as meant.";
    TagRepaired = "sgn::tag-repaired", Warning,
        "A tag pair with unescaped quotes in its value or without its closing quote, read as \
        meant.",
        "Write a quotation mark inside a tag's value as `\\\"`, and end every value with its \
        closing quotation mark.";
    DanglingMoveNumber = "sgn::dangling-move-number", Warning,
        "A move number without a move.",
        "A move number with no move after it usually marks a move left out or unreadable in the \
        source: look there.";
    BadTagValue = "salta::bad-tag", Error,
        "A Rules, MoveLimit, Odds, Result or Margin tag whose value cannot be read.",
        "Compare the value with the forms the notation allows: a result is `1-0`, `0-1`, `1/2-1/2` \
        or `*`, a margin or move limit a whole number.";
    BadSetup = "salta::bad-setup", Error,
        "A Setup tag that is not a position of the game's rules.",
        "Check each square and piece of the Setup tag against the source's diagram, and that no \
        square or piece is listed twice.";
    IllegalMove = "salta::illegal-move", Error,
        "A move that is not legal in the position.",
        "Usually a misread or mistyped square, or a move left out before it: compare this move and \
        the one before with the source.";
    BadCorrection = "salta::bad-correction", Error,
        "A correcting move after a `Salta!` call that is not one of the jumps missed.",
        "After a Salta! call the correcting move must be one of the jumps that were missed: check \
        which jump the source shows.";
    MissedJump = "salta::missed-jump", Error,
        "A step played while a jump was compulsory, and nobody called `Salta!`.",
        "Either a jump was overlooked at the board and nobody called, or a square is misread; for \
        games played without calling, check with `--lenient`.";
    UnjustifiedCall = "salta::unjustified-call", Error,
        "A `Salta!` call after a move that missed no jump.",
        "Salta! is called only after a move that missed a compulsory jump: check whether the call \
        belongs to another move, or a square is misread.";
    MissingCorrection = "salta::missing-correction", Error,
        "A `Salta!` call not followed by the correcting jump.",
        "After a Salta! call the next move is the correcting jump: check whether the source gives \
        it later, perhaps in a note.";
    MoveAfterEnd = "salta::move-after-end", Error,
        "A move written after the game had ended.",
        "The game was already over here: check the moves before for a misread square, or whether \
        the rest is a note that belongs inside `{ }`.";
    MoveNumber = "salta::move-number", Warning,
        "A move number that does not match the game.",
        "Usually a move left out or written twice nearby, or a slip in the source's own numbering: \
        compare the numbers around it.";
    Separator = "salta::separator", Warning,
        "A step written with the jump separator (`:`) or a jump with the step separator (`-`).",
        "A jump is written with `:` and a step with `-`; the move stands as played, but check its \
        squares against the source.";
    DesignatorMismatch = "salta::designator-mismatch", Error,
        "A piece designator that does not name the piece on the from-square, or names no piece.",
        "The piece named is not the one on the from-square: check both against the source, as one \
        of them is misread.";
    WrongResult = "salta::wrong-result", Error,
        "A result that is not the one the replayed game reaches.",
        "Check the result and the last moves against the source; `salta extract --fix-results` \
        writes the result the moves prove.";
    ResultMismatch = "salta::result-mismatch", Error,
        "A Result tag and a result token that disagree.",
        "The Result tag and the result after the moves must agree: check which of the two the \
        source gives.";
    ResultUnrecorded = "salta::result-unrecorded", Warning,
        "A finished game without a recorded result.",
        "Write the result after the last move (`1-0`, `0-1` or `1/2-1/2`) as the source gives it.";
    ResultNotReached = "salta::result-not-reached", Warning,
        "A result recorded for a game the record does not play to its end (taken as recorded).",
        "The moves stop before the game ends: check the source for missing moves, or write `*` if \
        the game was broken off unfinished.";
    WrongMargin = "salta::wrong-margin", Error,
        "A Margin tag that the exact count (or its proven bounds) contradicts.",
        "Check the Margin tag and the final moves against the source; `salta extract \
        --fix-results` writes the counted margin.";
    MarginUnproven = "salta::margin-unproven", Warning,
        "A Margin tag within the proven bounds when the exact count ran out of budget.",
        "The exact count ran out of time: check again with a larger `--margin-seconds` to confirm \
        the margin.";
}

impl Code {
    /// The short label the replayer draws under the span of its findings (`not legal here`);
    /// `None` for the reader's codes, whose labels depend on the place.
    pub fn label(self) -> Option<&'static str> {
        Some(match self {
            Code::IllegalMove => "not legal here",
            Code::BadCorrection => "not a legal correction",
            Code::MissedJump => "a jump was compulsory",
            Code::UnjustifiedCall => "no jump was missed",
            Code::MissingCorrection => "called here",
            Code::MoveAfterEnd => "after the end",
            Code::MoveNumber => "wrong number",
            Code::Separator => "separator",
            Code::DesignatorMismatch => "designator",
            Code::WrongResult | Code::ResultMismatch => "result",
            Code::WrongMargin => "margin",
            Code::BadTagValue | Code::BadSetup => "tag",
            Code::ResultUnrecorded | Code::ResultNotReached | Code::MarginUnproven => "here",
            _ => return None,
        })
    }

    /// Whether `extract --fix-results` may rewrite a game whose only errors have such codes: the
    /// result and margin, which the replay proves.
    pub fn fixable_by_results(self) -> bool {
        matches!(
            self,
            Code::WrongResult | Code::ResultMismatch | Code::WrongMargin
        )
    }

    /// Whether it is about a file as a whole (or its text after the last game), not a game.
    pub fn is_about_file(self) -> bool {
        matches!(
            self,
            Code::StrayText | Code::NoGame | Code::Utf16 | Code::Binary
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no diagnostic code (see [`Code`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a diagnostic code", super::quote(&self.0))
    }
}

impl std::error::Error for UnknownCode {}

impl FromStr for Code {
    type Err = UnknownCode;

    /// The code named `name` as [`Code::as_str`] prints it.
    fn from_str(name: &str) -> Result<Code, UnknownCode> {
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str() == name)
            .ok_or_else(|| UnknownCode(name.to_string()))
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Code, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, Severity};
    use std::collections::HashSet;

    #[test]
    fn every_name_is_unique_and_parses_back() {
        let names: HashSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(names.len(), Code::ALL.len());
        for &code in Code::ALL {
            assert_eq!(code.as_str().parse::<Code>(), Ok(code));
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{code}\""));
            assert_eq!(serde_json::from_str::<Code>(&json).unwrap(), code);
            assert!(!code.meaning().is_empty(), "{code}");
            assert!(
                code.help().ends_with('.') && !code.help().contains('|'),
                "{code}"
            );
        }
        assert!("salta::ilegal-move".parse::<Code>().is_err());
    }

    /// The table of docs/diagnostics.md, as the codes say it should read.
    fn table() -> String {
        let mut table = "| Code | Severity | Meaning | Help |\n|---|---|---|---|\n".to_string();
        for &code in Code::ALL {
            let severity = code.severity().as_str();
            let (meaning, help) = (code.meaning(), code.help());
            table += &format!("| `{code}` | {severity} | {meaning} | {help} |\n");
        }
        table
    }

    #[test]
    fn docs_list_every_code() {
        let doc = include_str!("../../docs/diagnostics.md");
        let (start, end) = (
            "<!-- codes: generated from salta::diagnostic::Code -->\n",
            "<!-- /codes -->",
        );
        let written = doc
            .split_once(start)
            .and_then(|(_, rest)| rest.split_once(end))
            .map(|(table, _)| table);
        let table = table();
        assert!(
            written == Some(table.as_str()),
            "docs/diagnostics.md is out of date: between its markers the table should read\n{table}"
        );
    }

    #[test]
    fn reader_codes_are_sgn_and_replayer_codes_salta_with_a_label() {
        for &code in Code::ALL {
            let reader = code.as_str().starts_with("sgn::");
            assert!(reader || code.as_str().starts_with("salta::"), "{code}");
            assert_eq!(code.label().is_none(), reader, "{code}");
        }
        assert_eq!(Code::MissedJump.severity(), Severity::Error);
        assert_eq!(Code::Latin1.severity(), Severity::Warning);
    }
}
