//! Findings and syntax errors drawn for people: miette reports over the game's text, safe for a
//! terminal. The codes themselves live in [`crate::diagnostic`], below everything; this room sits
//! above the replay, whose findings it draws.
//!
//! ```
//! use salta::notation::{GameSource, parse_str};
//! use salta::render::{FindingDiagnostic, render};
//! use salta::replay::{ReplayOptions, replay};
//!
//! let game = parse_str("1. 33-44 *").remove(0)?;
//! let replayed = replay(&game, &ReplayOptions::default());
//! let source = GameSource::of_game(&"game.sgn".into(), 1, &game);
//! let finding = &replayed.findings()[0];
//! let drawn = render(&FindingDiagnostic { finding, source: &source }, false);
//! assert!(drawn.contains("33-44") && drawn.contains("game.sgn:1:4"), "{drawn}");
//! # Ok::<(), salta::notation::SyntaxError>(())
//! ```

use crate::notation::{GameSource, printable};
use crate::replay::{Finding, Severity};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use std::fmt;

/// A replay finding as a miette diagnostic over its game's text.
pub struct FindingDiagnostic<'a> {
    /// The finding to draw.
    pub finding: &'a Finding,
    /// The game it is about: its text and place in the file.
    pub source: &'a GameSource,
}

impl fmt::Debug for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FindingDiagnostic")
            .field("finding", self.finding)
            .finish()
    }
}

impl fmt::Display for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finding = self.finding;
        match (finding.ply, finding.side) {
            (Some(_), Some(side)) if finding.in_variation => write!(
                f,
                "game {}, in a variation, {side}: {}",
                self.source.index, finding.message
            ),
            (Some(_), Some(side)) => {
                write!(f, "game {}, {side}: {}", self.source.index, finding.message)
            }
            _ => write!(f, "game {}: {}", self.source.index, finding.message),
        }
    }
}

impl std::error::Error for FindingDiagnostic<'_> {}

impl Diagnostic for FindingDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.finding.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    /// The finding's own help for the place, or else its code's generic advice.
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let finding = self.finding;
        Some(Box::new(
            finding.help.as_deref().unwrap_or(finding.code.help()),
        ))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.finding.span?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                self.finding.label.clone(),
                self.source.label_span(span),
            ),
        )))
    }
}

/// Draws a diagnostic as text, with or without colour. Lines are wrapped at spaces only, never
/// inside a move (`104-94`), and no control character of its texts reaches the terminal.
pub fn render(diagnostic: &dyn Diagnostic, color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace)
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
        .with_break_words(false);
    let printable = Printable(diagnostic);
    if handler.render_report(&mut out, &printable).is_err() {
        out = format!("{printable}\n");
    }
    out
}

/// A diagnostic whose texts are [`printable`] (its source code is a [`GameSource`], already so).
struct Printable<'a>(&'a dyn Diagnostic);

impl fmt::Debug for Printable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for Printable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&printable(&self.0.to_string(), true))
    }
}

impl std::error::Error for Printable<'_> {}

impl Diagnostic for Printable<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let code = self.0.code()?.to_string();
        Some(Box::new(printable(&code, false).into_owned()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.0.severity()
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let help = self.0.help()?.to_string();
        Some(Box::new(printable(&help, true).into_owned()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.0.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.0.labels()?.map(|label| {
            let text = label.label().map(|t| printable(t, false).into_owned());
            if label.primary() {
                LabeledSpan::new_primary_with_span(text, *label.inner())
            } else {
                LabeledSpan::new_with_span(text, *label.inner())
            }
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;
    use crate::notation::{Span, parse_str};
    use std::sync::Arc;

    /// A move-number warning on the game's first move, with or without help of its own.
    fn rendered(help: Option<&str>) -> String {
        let game = parse_str("1. 33-43 83-74 *").remove(0).expect("a game");
        let source = GameSource::of_game(&Arc::from("t.sgn"), 1, &game);
        // The code's own label, "wrong number".
        let finding = Finding::about_game(
            Code::MoveNumber,
            Severity::Warning,
            "move number 1. does not match the game".to_string(),
            help.map(str::to_string),
            Some(Span::new(0, 2)),
        );
        render(
            &FindingDiagnostic {
                finding: &finding,
                source: &source,
            },
            false,
        )
    }

    #[test]
    fn the_codes_advice_stands_in_for_missing_help_and_never_beside_it() {
        let generic = rendered(None);
        assert!(
            generic.contains("help: Usually a move left out"),
            "{generic}"
        );
        let own = rendered(Some("write 2."));
        assert!(own.contains("help: write 2."), "{own}");
        assert!(!own.contains("Usually"), "{own}");
    }
}
