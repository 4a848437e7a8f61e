//! Rescuing an invalid game: cut where it breaks (`--keep-broken`), or its result and margin
//! mended (`--fix-results`); a rescued text is trusted only if it reads back and replays.

use super::ExtractOptions;
use crate::notation::{Game, GameResult, Reader, Span};
use crate::replay::{Replay, Severity, Status, replay, result_of};

/// An invalid game kept up to its first illegal main-line move: the text before that move, the
/// rest of the movetext as `;` comments (line by line, so nothing is lost or re-read), the result
/// unknown (or, for a game that ended before that move, the one the replay proves). `None` when that does not make a valid game (the error is elsewhere, or not only there).
pub(super) fn cut_broken(
    game: &Game,
    replayed: &Replay,
    options: &ExtractOptions,
) -> Option<String> {
    let error = replayed
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error && !f.in_variation && f.ply.is_some())
        .min_by_key(|f| f.ply)?;
    let at = error.span?;
    let node = game
        .mainline
        .moves
        .iter()
        .find(|n| n.span.start <= at.start && at.start < n.span.end.max(n.span.start + 1))?;
    let cut = node.number.map_or(node.span, |n| n.span).range().start;
    let end = game
        .result
        .map_or(game.text.len(), |(_, span)| span.range().start);
    let rest = game.text.get(cut..end)?;
    // The Result tag must agree with the game as cut: unfinished, its Margin tag no longer
    // applies; ended before the move that breaks it (a move after the end), it has the result
    // and margin the replay proves there.
    let ended = replayed.outcome;
    let result = ended.map_or(GameResult::Unknown, |o| result_of(&o));
    let margin = ended.and_then(|o| o.margin).and_then(|m| m.exact());
    let mut edits = Vec::new();
    for tag in &game.tags {
        match (tag.name.as_ref(), margin) {
            ("Result", _) => edits.push((tag.span, format!("[Result \"{}\"]", result.as_str()))),
            ("Margin", Some(margin)) => edits.push((tag.span, format!("[Margin \"{margin}\"]"))),
            ("Margin", None) if ended.is_none() => edits.push((tag.span, String::new())),
            _ => {}
        }
    }
    let mut text = edit(game.text.get(..cut)?, edits)?.trim_end().to_string();
    if text.ends_with(']') {
        // No move is kept: the blank line between tags and movetext stays.
        text.push('\n');
    }
    text.push_str(&format!(
        "\n; salta extract: the record breaks here: {} ({})\n",
        error.message, error.code
    ));
    for line in rest.trim().lines() {
        text.push_str("; ");
        text.push_str(line);
        text.push('\n');
    }
    if let Some(written) = game.result.map(|(r, _)| r).filter(|&r| r != result) {
        text.push_str(&format!("; the record's result: {}\n", written.as_str()));
    }
    text.push_str(result.as_str());
    text.push('\n');
    replays_cleanly(text, options)
}

/// A game whose only errors are about its result or margin, with its Result tag, result token and
/// Margin tag (where present) rewritten to the replayed outcome. `None` when the replay proves no
/// outcome (a result the rules cannot check is left to the editor) or other errors remain.
pub(super) fn fix_results(
    game: &Game,
    replayed: &Replay,
    options: &ExtractOptions,
) -> Option<String> {
    let only_results = replayed
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .all(|f| f.code.fixable_by_results());
    let outcome = replayed.outcome?;
    if !only_results {
        return None;
    }
    let result = result_of(&outcome).as_str();
    let mut edits = Vec::new();
    for tag in &game.tags {
        match (tag.name.as_ref(), outcome.margin.and_then(|m| m.exact())) {
            ("Result", _) => edits.push((tag.span, format!("[Result \"{result}\"]"))),
            ("Margin", Some(margin)) => edits.push((tag.span, format!("[Margin \"{margin}\"]"))),
            _ => {}
        }
    }
    let mut text = match game.result {
        Some((_, span)) => {
            edits.push((span, result.to_string()));
            edit(&game.text, edits)?
        }
        None => format!("{} {result}\n", edit(&game.text, edits)?.trim_end()),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    replays_cleanly(text, options)
}

/// `text` with each span replaced, spans in increasing order and not overlapping; `None` if a span
/// does not fit the text.
fn edit(text: &str, edits: Vec<(Span, String)>) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 16);
    let mut copied = 0;
    for (span, replacement) in edits {
        let range = span.range();
        if range.start > text.len() {
            continue;
        }
        out.push_str(text.get(copied..range.start)?);
        out.push_str(&replacement);
        copied = range.end;
    }
    out.push_str(text.get(copied..)?);
    Some(out)
}

/// The text, if it reads back as one game that replays without errors (a mended game is trusted
/// only then), rewritten in the asked notation if there is one.
fn replays_cleanly(text: String, options: &ExtractOptions) -> Option<String> {
    let mut reread = Reader::new(text.as_bytes()).on_board(options.replay.rules.map(|r| r.board()));
    let kept = reread.next()?.ok()?;
    let replayed = replay(&kept, &options.replay);
    if replayed.status() == Status::Invalid {
        return None;
    }
    Some(match options.notation {
        Some(notation) => crate::export::structured::rewrite(kept, &replayed, notation),
        None => text,
    })
}
