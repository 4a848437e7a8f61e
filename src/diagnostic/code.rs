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

/// Declares [`Code`] with, for each code, its name, its usual severity and its meaning, so that
/// the three cannot drift apart and [`Code::ALL`] lists every code.
macro_rules! codes {
    ($($code:ident = $name:literal, $severity:ident, $meaning:literal;)*) => {
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
        }
    };
}

codes! {
    UnexpectedToken = "sgn::unexpected-token", Error,
        "A token that fits nowhere in the grammar.";
    BadSquare = "sgn::bad-square", Error,
        "A number or name that is not a square of the board.";
    MixedNotation = "sgn::mixed-notation", Error,
        "Numeric and algebraic squares in one move.";
    BadDesignator = "sgn::bad-designator", Error,
        "A piece designator out of range (`Su6`, `#16`).";
    BadMoveNumber = "sgn::bad-move-number", Error,
        "A move number that is too large.";
    BadNag = "sgn::bad-nag", Error,
        "A NAG (`$n`) without digits or out of range.";
    BadTag = "sgn::bad-tag", Error,
        "A malformed tag pair (`[Name \"value\"]`).";
    UnclosedComment = "sgn::unclosed-comment", Error,
        "A `{` comment never closed.";
    UnclosedVariation = "sgn::unclosed-variation", Error,
        "A `(` variation never closed.";
    UnmatchedParen = "sgn::unmatched-paren", Error,
        "A `)` with no variation open.";
    Misplaced = "sgn::misplaced", Error,
        "A variation, annotation or `Salta!` call before any move.";
    ResultInVariation = "sgn::result-in-variation", Error,
        "A result token inside a variation.";
    TagTooLong = "sgn::tag-too-long", Error,
        "A tag name or value longer than the limit.";
    CommentTooLong = "sgn::comment-too-long", Error,
        "A comment longer than the limit.";
    GameTooLarge = "sgn::game-too-large", Error,
        "A game larger than the limit.";
    TooDeep = "sgn::too-deep", Error,
        "Variations nested deeper than the limit.";
    Io = "sgn::io", Error,
        "The input could not be read.";
    StrayText = "sgn::stray-text", Warning,
        "Text that is neither tags nor movetext, skipped.";
    NoGame = "sgn::no-game", Warning,
        "A file with no game in it.";
    Utf16 = "sgn::utf16", Error,
        "A file in UTF-16, which the reader does not decode.";
    Binary = "sgn::binary", Error,
        "A file that is not text (NUL bytes).";
    Latin1 = "sgn::latin1", Warning,
        "Text that is not UTF-8, read as Latin-1.";
    TagRepaired = "sgn::tag-repaired", Warning,
        "A tag pair with unescaped quotes in its value or without its closing quote, read as meant.";
    DanglingMoveNumber = "sgn::dangling-move-number", Warning,
        "A move number without a move.";
    BadTagValue = "salta::bad-tag", Error,
        "A Rules, MoveLimit, Odds, Result or Margin tag whose value cannot be read.";
    BadSetup = "salta::bad-setup", Error,
        "A Setup tag that is not a position of the game's rules.";
    IllegalMove = "salta::illegal-move", Error,
        "A move that is not legal in the position.";
    BadCorrection = "salta::bad-correction", Error,
        "A correcting move after a `Salta!` call that is not one of the jumps missed.";
    MissedJump = "salta::missed-jump", Error,
        "A step played while a jump was compulsory, and nobody called `Salta!`.";
    UnjustifiedCall = "salta::unjustified-call", Error,
        "A `Salta!` call after a move that missed no jump.";
    MissingCorrection = "salta::missing-correction", Error,
        "A `Salta!` call not followed by the correcting jump.";
    MoveAfterEnd = "salta::move-after-end", Error,
        "A move written after the game had ended.";
    MoveNumber = "salta::move-number", Warning,
        "A move number that does not match the game.";
    Separator = "salta::separator", Warning,
        "A step written with the jump separator (`:`) or a jump with the step separator (`-`).";
    DesignatorMismatch = "salta::designator-mismatch", Error,
        "A piece designator that does not name the piece on the from-square, or names no piece.";
    WrongResult = "salta::wrong-result", Error,
        "A result that is not the one the replayed game reaches.";
    ResultMismatch = "salta::result-mismatch", Error,
        "A Result tag and a result token that disagree.";
    ResultUnrecorded = "salta::result-unrecorded", Warning,
        "A finished game without a recorded result.";
    ResultNotReached = "salta::result-not-reached", Warning,
        "A result recorded for a game the record does not play to its end (taken as recorded).";
    WrongMargin = "salta::wrong-margin", Error,
        "A Margin tag that the exact count (or its proven bounds) contradicts.";
    MarginUnproven = "salta::margin-unproven", Warning,
        "A Margin tag within the proven bounds when the exact count ran out of budget.";
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
        write!(f, "{:?} is not a diagnostic code", self.0)
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
        }
        assert!("salta::ilegal-move".parse::<Code>().is_err());
    }

    /// The table of docs/diagnostics.md, as the codes say it should read.
    fn table() -> String {
        let mut table = "| Code | Severity | Meaning |\n|---|---|---|\n".to_string();
        for &code in Code::ALL {
            let severity = code.severity().as_str();
            table += &format!("| `{code}` | {severity} | {} |\n", code.meaning());
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
