//! The verdict on a replayed game: its result and margin against the tags and the result token,
//! and the findings about tags.

use super::{Finding, Replay, Severity, result_of};
use crate::diagnostic::Code;
use crate::diagnostic::quote;
use crate::notation::{GameResult, Span, Tag, TagList};
use crate::rules::margin::Remaining;
use crate::rules::{Outcome, Progress, Referee};

/// The tags a replay reads, each the first of its name with its span: found in one pass over a
/// game's tags (a tree's [`Tag`]s or a streamed game's [`TagList`]), not looked up one by one.
#[derive(Default)]
pub(super) struct ReplayTags<'t> {
    pub(super) rules: Option<(&'t str, Span)>,
    pub(super) move_limit: Option<(&'t str, Span)>,
    pub(super) odds: Option<(&'t str, Span)>,
    pub(super) setup: Option<(&'t str, Span)>,
    pub(super) margin: Option<(&'t str, Span)>,
    pub(super) result: Option<(&'t str, Span)>,
    pub(super) numbering: Option<(&'t str, Span)>,
}

impl<'t> ReplayTags<'t> {
    /// The tags the replay reads among `pairs` (name, value, span).
    fn of(pairs: impl Iterator<Item = (&'t str, &'t str, Span)>) -> ReplayTags<'t> {
        let mut tags = ReplayTags::default();
        for (name, value, span) in pairs {
            let slot = match name {
                "Rules" => &mut tags.rules,
                "MoveLimit" => &mut tags.move_limit,
                "Odds" => &mut tags.odds,
                "Setup" => &mut tags.setup,
                "Margin" => &mut tags.margin,
                "Result" => &mut tags.result,
                "Numbering" => &mut tags.numbering,
                _ => continue,
            };
            slot.get_or_insert((value, span));
        }
        tags
    }
}

impl<'t> From<&'t [Tag]> for ReplayTags<'t> {
    fn from(tags: &'t [Tag]) -> ReplayTags<'t> {
        ReplayTags::of(tags.iter().map(|t| (&*t.name, t.value.as_str(), t.span)))
    }
}

impl<'t> From<&'t TagList> for ReplayTags<'t> {
    fn from(tags: &'t TagList) -> ReplayTags<'t> {
        ReplayTags::of(tags.iter().map(|t| (t.name, t.value, t.span)))
    }
}

/// An error about a tag's value.
pub(super) fn tag_error(code: Code, message: String, span: Span, help: &str) -> Finding {
    Finding::about_game(
        code,
        Severity::Error,
        message,
        Some(help.to_string()),
        Some(span),
    )
}

/// Result tag, result token, replayed outcome and Margin tag must agree: the findings where they
/// do not join the replay's. The outcome is the referee's where the main line ended: at the
/// game's end, at the record's, or where a written move could not be played (`stopped`).
pub(super) fn check_result(
    tags: &ReplayTags<'_>,
    token: Option<(GameResult, Span)>,
    referee: &Referee,
    stopped: bool,
    replay: &mut Replay,
) {
    let mut findings = Vec::new();
    let tag_result = match tags.result {
        Some((value, span)) => match value.parse::<GameResult>().ok() {
            Some(r) => Some((r, span)),
            None => {
                findings.push(tag_error(
                    Code::BadTagValue,
                    format!("Result tag {} is not 1-0, 0-1, 1/2-1/2 or *", quote(value)),
                    span,
                    "write one of 1-0, 0-1, 1/2-1/2, *",
                ));
                None
            }
        },
        None => None,
    };
    if let (Some((t, tspan)), Some((k, _))) = (tag_result, token)
        && t != k
    {
        findings.push(Finding::about_game(
            Code::ResultMismatch,
            Severity::Error,
            format!(
                "the Result tag says {} but the movetext ends with {}",
                t.as_str(),
                k.as_str()
            ),
            Some("make the tag and the result token agree".to_string()),
            Some(tspan),
        ));
    }
    let recorded = token.or(tag_result);
    match (replay.outcome, recorded) {
        (Some(outcome), Some((written, span))) if written != GameResult::Unknown => {
            let expected = result_of(&outcome);
            if expected != written {
                findings.push(Finding::about_game(
                    Code::WrongResult,
                    Severity::Error,
                    format!(
                        "the game ends {} ({}), but the record says {}",
                        expected.as_str(),
                        outcome.reason.describe(),
                        written.as_str()
                    ),
                    Some(format!("the result should be {}", expected.as_str())),
                    Some(span),
                ));
            }
        }
        (Some(outcome), _) => {
            let expected = result_of(&outcome);
            if expected != GameResult::Unknown {
                findings.push(Finding::about_game(
                    Code::ResultUnrecorded,
                    Severity::Warning,
                    format!(
                        "the game ends {} ({}), but no result is recorded",
                        expected.as_str(),
                        outcome.reason.describe()
                    ),
                    Some(format!(
                        "add [Result \"{}\"] and the result token",
                        expected.as_str()
                    )),
                    recorded.map(|r| r.1),
                ));
            }
        }
        // A main line that broke off says so in its error: the result is not judged, and no
        // warning that the game or record did not reach it follows (issue 31, item 5).
        (None, Some(_)) if stopped => {}
        (None, Some((written, span))) if written != GameResult::Unknown => {
            let why = match referee.progress() {
                Progress::Compensating(_) => {
                    "Green has completed and Red's compensating move is still to come"
                }
                _ => "the record ends before the game does",
            };
            findings.push(Finding::about_game(
                Code::ResultNotReached,
                Severity::Warning,
                format!(
                    "{why}; the result {} is taken as recorded",
                    written.as_str()
                ),
                Some(
                    "a resignation or an agreed result cannot be checked against the rules"
                        .to_string(),
                ),
                Some(span),
            ));
        }
        _ => {}
    }
    if let Some((value, span)) = tags.margin {
        findings.extend(check_margin(value, span, replay.outcome));
    }
    replay.findings.extend(findings);
}

/// What a Margin tag says against the replayed outcome: nothing when it agrees (or the game has no
/// counted margin), an error when it is proven wrong, a warning when only bounds are known.
fn check_margin(value: &str, span: Span, outcome: Option<Outcome>) -> Option<Finding> {
    let Ok(written) = value.trim().parse::<u32>() else {
        return Some(tag_error(
            Code::BadTagValue,
            format!("Margin tag {} is not a whole number", quote(value)),
            span,
            "write the points the game was won by, e.g. 27",
        ));
    };
    match outcome.and_then(|o| o.margin)? {
        Remaining::Exact(n) if n != written => Some(Finding::about_game(
            Code::WrongMargin,
            Severity::Error,
            format!("the Margin tag says {written}, but the game was won by {n}"),
            Some(format!(
                "the margin is {n}: the loser's fewest remaining moves with its own pieces \
                 blocking (rules.md §5)"
            )),
            Some(span),
        )),
        Remaining::Bounds { lower, upper } => {
            let upper_text = upper.map_or("?".to_string(), |u| u.to_string());
            Some(if written < lower || upper.is_some_and(|u| written > u) {
                Finding::about_game(
                    Code::WrongMargin,
                    Severity::Error,
                    format!(
                        "the Margin tag says {written}, outside the proven bounds \
                         {lower}–{upper_text}"
                    ),
                    None,
                    Some(span),
                )
            } else {
                Finding::about_game(
                    Code::MarginUnproven,
                    Severity::Warning,
                    format!(
                        "the margin could only be bounded ({lower}–{upper_text}); the Margin tag \
                         {written} fits"
                    ),
                    Some("raise the search budget to prove it".to_string()),
                    Some(span),
                )
            })
        }
        _ => None,
    }
}
