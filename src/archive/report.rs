//! The reports of a check run: one per game, in the shape `salta check --format json` prints,
//! and the totals.

use super::CheckOptions;
use crate::board::Color;
use crate::diagnostic::Code;
use crate::notation::{Game, GameSource, Reader, SyntaxError, TagList, Warning};
#[cfg(feature = "render")]
use crate::render::{FindingDiagnostic, render};
use crate::repair::{Diagnosis, Suggestion};
use crate::replay::{Finding, Replay, Severity, Status, Streamed, replay, replay_part};
use crate::rules::EndReason;
use serde::Serialize;
use std::sync::Arc;

/// The report of one game, in the shape `salta check --format json` prints.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct GameReport {
    /// The file's name, shared by all its games' reports.
    #[serde(serialize_with = "serialize_str")]
    pub file: Arc<str>,
    /// When `file` does not give the path exactly (a name that is not UTF-8, or holds control
    /// characters, shown as `?`): the path's bytes in base64 (standard alphabet, padded), as
    /// ripgrep gives such names. Absent otherwise.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_some_str"
    )]
    pub file_bytes: Option<Arc<str>>,
    /// 1-based index of the game in its file; for text that is no game, that of the game it
    /// follows (0 before the first).
    pub game: usize,
    /// The report is of text after the file's last game that is neither tags nor movetext
    /// (`sgn::stray-text`), not of a game: counted apart in the summary. In JSON only where
    /// true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_game: bool,
    /// Byte offset in the file where the game starts.
    pub offset: u64,
    /// 1-based line where the game starts.
    pub line: u32,
    /// Tags in the order read.
    #[serde(serialize_with = "serialize_tags")]
    pub tags: TagList,
    /// Valid, warnings or invalid: the worst diagnostic decides.
    pub status: Status,
    /// Main-line plies that could be played.
    pub plies: u32,
    /// How the game ended, if it did.
    pub outcome: Option<OutcomeReport>,
    /// The reader's and the replayer's diagnostics, in the order met.
    pub diagnostics: Vec<DiagnosticReport>,
    /// The findings drawn for people (only with `CheckOptions::render`, feature `render`).
    #[serde(skip)]
    pub rendered: Option<String>,
    /// Bytes of the game's text.
    #[serde(skip)]
    pub size: usize,
    /// What to draw once the game's number in its file is known. Boxed: most games have
    /// nothing to draw, and a report is moved several times on its way to be printed.
    #[cfg(feature = "render")]
    #[serde(skip)]
    deferred: Option<Box<Deferred>>,
}

/// The bytes of `path` in base64 when its name in reports (`shown`) does not give it exactly.
pub(crate) fn path_bytes(path: &std::path::Path, shown: &str) -> Option<Arc<str>> {
    let bytes = path.as_os_str().as_encoded_bytes();
    (bytes != shown.as_bytes() && !crate::notation::is_stdin(path)).then(|| base64(bytes).into())
}

/// Standard base64 (RFC 4648, padded).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn serialize_some_str<S: serde::Serializer>(
    text: &Option<Arc<str>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(text.as_deref().unwrap_or_default())
}

fn serialize_str<S: serde::Serializer>(text: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(text)
}

/// Tags as a JSON object in their order.
fn serialize_tags<S: serde::Serializer>(tags: &TagList, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(tags.len()))?;
    for tag in tags.iter() {
        map.serialize_entry(tag.name, tag.value)?;
    }
    map.end()
}

/// A game's findings waiting to be drawn.
#[cfg(feature = "render")]
#[derive(Clone, Debug)]
enum Deferred {
    /// The error, after the findings about what was read before it.
    Syntax(SyntaxError, Vec<Finding>),
    Findings(GameSource, Vec<Finding>),
}

/// How a game ended, in the shape of the JSON report.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct OutcomeReport {
    /// The side that won; `null` for a draw or an undecided end.
    pub winner: Option<Color>,
    /// The exact margin; `null` for draws, when margins were not counted, or when only bounds
    /// could be proven (then `margin_bounds` holds them).
    pub margin: Option<u32>,
    /// The proven lower and (if a plan was found) upper bounds, when the exact count ran out of
    /// budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_bounds: Option<(u32, Option<u32>)>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// One diagnostic of a game, from the reader or the replayer, in the shape of the JSON report.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct DiagnosticReport {
    /// The stable code (`salta::illegal-move`, `sgn::bad-square`).
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The ply (1-based from the game's start) of the move concerned.
    pub ply: Option<u32>,
    /// The move number of the move concerned.
    pub move_number: Option<u32>,
    /// The side that made the move concerned.
    pub side: Option<Color>,
    /// 1-based line in the file.
    pub line: Option<u32>,
    /// 1-based column in the file.
    pub column: Option<u32>,
    /// What is wrong, in words.
    pub message: String,
    /// What would fix it, where that can be said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// For an error that breaks the main line: what the record may have meant, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<Suggestion>,
    /// Later moves that missed the same open jump again (reported only here).
    #[serde(skip_serializing_if = "is_zero")]
    pub repeats: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Totals of a check run.
#[derive(Clone, Debug, Default, Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// Files read.
    pub files: usize,
    /// Games checked, readable or not.
    pub games: usize,
    /// Games without a diagnostic.
    pub valid: usize,
    /// Games with warnings only.
    pub warnings: usize,
    /// Games with at least one error.
    pub invalid: usize,
    /// Texts that are no game (after a file's last game), each reported with a warning.
    pub no_games: usize,
    /// Bytes of the games checked.
    pub bytes: u64,
    /// Wall-clock seconds the run took.
    pub seconds: f64,
    /// Files that could not be read at all.
    pub io_errors: Vec<String>,
}

/// Numbers a game's report within its file and draws its findings if asked.
#[cfg_attr(not(feature = "render"), allow(unused_variables))]
pub(super) fn finish(report: &mut GameReport, index: usize, opts: &CheckOptions) {
    report.game = index;
    #[cfg(feature = "render")]
    if let (Some(color), Some(deferred)) = (opts.render, report.deferred.take()) {
        report.rendered = Some(match *deferred {
            Deferred::Syntax(mut e, findings) => {
                e.source.index = index;
                render_findings(&findings, &e.source, color) + &render(&e, color)
            }
            Deferred::Findings(mut source, findings) => {
                source.index = index;
                render_findings(&findings, &source, color)
            }
        });
    }
}

/// Findings of one code drawn at most for a game: more than a game under the 120-move rule has
/// plies, so a page read badly by OCR (up to 276 garbled moves on the dev pages at the middle
/// level, 287 at the heaviest) is drawn whole, and a line of ten thousand like slips
/// (`{1{1{1…`) is told by its first ones and a count, not by 30 MB of drawings. The JSON
/// report keeps every one.
#[cfg(feature = "render")]
const DRAWN_PER_CODE: usize = 500;

/// Findings drawn for people, one after another, at most [`DRAWN_PER_CODE`] of each code, then
/// a line for each code with more, saying how many were not drawn.
#[cfg(feature = "render")]
fn render_findings(findings: &[Finding], source: &GameSource, color: bool) -> String {
    // Codes in the order they first come, with how many findings have each.
    let mut counts: Vec<(Code, usize)> = Vec::new();
    let mut out = String::new();
    for finding in findings {
        let k = match counts.iter().position(|(code, _)| *code == finding.code) {
            Some(k) => k,
            None => {
                counts.push((finding.code, 0));
                counts.len() - 1
            }
        };
        counts[k].1 += 1;
        if counts[k].1 <= DRAWN_PER_CODE {
            out += &render(&FindingDiagnostic { finding, source }, color);
        }
    }
    for (code, count) in counts.into_iter().filter(|c| c.1 > DRAWN_PER_CODE) {
        out += &format!(
            "  … game {}: {} more {code} not drawn (`--format json` lists every one)\n\n",
            source.index,
            count - DRAWN_PER_CODE
        );
    }
    out
}

/// The report of a game broken by a syntax error: what is wrong before the error (what the reader
/// tolerated, the replay of the moves read, with readings), then the error.
pub(super) fn syntax_report(file: &Arc<str>, e: SyntaxError, opts: &CheckOptions) -> GameReport {
    let (mut before, mut plies) = (Vec::new(), 0);
    if let Some(game) = e.before.as_deref() {
        let part = replay_part(game, &opts.replay);
        plies = part.plies();
        let mut replayed = crate::repair::annotate(game, &opts.replay, part.findings().to_vec());
        // The readings replay the part on: nothing about how it ends is said of it.
        replayed.retain(|d| !d.finding.about_the_end());
        before = reader_findings(&game.warnings, &replayed);
        before.extend(replayed);
    }
    let (line, column) = e.location();
    let severity = e.code.severity();
    let worst = (before.iter().map(|d| d.finding.severity))
        .max()
        .unwrap_or(severity);
    let status = match worst.max(severity) {
        Severity::Warning => Status::Warnings,
        Severity::Error => Status::Invalid,
    };
    let mut diagnostics = diagnostics(&before, &e.source);
    diagnostics.push(DiagnosticReport {
        code: e.code,
        severity,
        ply: e.at.map(|at| at.ply),
        move_number: e.at.map(|at| at.number),
        side: e.at.map(|at| at.side),
        line: Some(line),
        column: Some(column),
        message: e.message.clone(),
        help: e.help.clone(),
        suggestions: Vec::new(),
        repeats: 0,
    });
    #[cfg(feature = "render")]
    let drawn = drawn(before);
    GameReport {
        no_game: e.code == Code::StrayText,
        file: file.clone(),
        file_bytes: None,
        game: e.game_index(),
        offset: e.game_offset(),
        line: e.game_line(),
        tags: e.tags.iter().collect(),
        status,
        // The main line's moves played before the error.
        plies,
        outcome: None,
        diagnostics,
        rendered: None,
        size: e.source.text().len(),
        #[cfg(feature = "render")]
        deferred: Some(Box::new(Deferred::Syntax(e, drawn))),
    }
}

/// Replays a game and builds its report (numbered and drawn later by
/// [`check_files`](super::check_files)).
pub fn game_report(file: &Arc<str>, game: Game, opts: &CheckOptions) -> GameReport {
    let mut replayed = replay(&game, &opts.replay);
    let replay_findings = std::mem::take(&mut replayed.findings);
    let findings = crate::repair::annotate(&game, &opts.replay, replay_findings);
    let place = Place {
        offset: game.offset,
        line: game.line,
        column: game.column,
        text: &game.text,
    };
    assemble(
        file,
        place,
        game.tags.iter().collect(),
        &game.warnings,
        &replayed,
        findings,
        opts,
    )
}

/// The report of a game replayed as it was read ([`Replaying`](crate::replay::Replaying)), whose text is `text`. The
/// readings of a broken main line are searched on the game's tree: only then is the game read
/// again, from its text.
pub fn streamed_report(
    file: &Arc<str>,
    streamed: Streamed,
    text: &str,
    opts: &CheckOptions,
) -> GameReport {
    let replayed = &streamed.replay;
    let findings = replayed.findings().to_vec();
    let findings = if findings.iter().any(crate::repair::breaks_a_line) {
        let board = opts.replay.rules.map(|r| r.board());
        let mut again = Reader::from_bytes(text.as_bytes().to_vec()).on_board(board);
        match again.next() {
            Some(Ok(game)) => crate::repair::annotate(&game, &opts.replay, findings),
            _ => findings.into_iter().map(Diagnosis::of).collect(),
        }
    } else {
        findings.into_iter().map(Diagnosis::of).collect()
    };
    let place = Place {
        offset: streamed.offset,
        line: streamed.line,
        column: streamed.column,
        text,
    };
    assemble(
        file,
        place,
        streamed.tags,
        &streamed.warnings,
        replayed,
        findings,
        opts,
    )
}

/// Where a game stands in its file, and its text.
struct Place<'t> {
    offset: u64,
    line: u32,
    column: u32,
    text: &'t str,
}

/// A game's report from its replay: the reader's warnings first, then the replay's findings
/// (`findings`, with their readings), placed in the game's text.
#[cfg_attr(not(feature = "render"), allow(unused_variables))]
fn assemble(
    file: &Arc<str>,
    place: Place<'_>,
    tags: TagList,
    warnings: &[Warning],
    replayed: &Replay,
    replay_findings: Vec<Diagnosis>,
    opts: &CheckOptions,
) -> GameReport {
    let mut findings = reader_findings(warnings, &replay_findings);
    findings.extend(replay_findings);
    let status = match findings.iter().map(|d| d.finding.severity).max() {
        Some(Severity::Error) => Status::Invalid,
        Some(Severity::Warning) => Status::Warnings,
        None => Status::Valid,
    };
    // The source (a copy of the game's text) is only needed to place and draw findings.
    let source = (!findings.is_empty()).then(|| {
        GameSource::new(
            file.clone(),
            "",
            place.text,
            place.offset,
            place.line,
            place.column,
            0,
        )
    });
    let diagnostics = source
        .as_ref()
        .map_or_else(Vec::new, |source| diagnostics(&findings, source));
    #[cfg(feature = "render")]
    let deferred = source
        .filter(|_| opts.render.is_some())
        .map(|source| Box::new(Deferred::Findings(source, drawn(findings))));
    GameReport {
        no_game: false,
        file: file.clone(),
        file_bytes: None,
        game: 0,
        offset: place.offset,
        line: place.line,
        tags,
        status,
        plies: replayed.plies(),
        outcome: replayed.outcome().map(|o| OutcomeReport {
            winner: o.winner,
            margin: o.margin.and_then(|m| m.exact()),
            margin_bounds: o.margin.and_then(|m| m.bounds()),
            reason: o.reason,
        }),
        diagnostics,
        rendered: None,
        size: place.text.len(),
        #[cfg(feature = "render")]
        deferred,
    }
}

/// The reader's diagnostics of a game as findings. A move the reader could not read is reported by
/// the replay too (`replayed`) where the line stops there, with its place in the game: the
/// reader's own diagnostic of it is then left out, and so is that of a word a reading took into
/// the move before it.
fn reader_findings(warnings: &[Warning], replayed: &[Diagnosis]) -> Vec<Diagnosis> {
    let replayed_too = |w: &Warning| {
        replayed
            .iter()
            .any(|d| d.finding.code == w.code && d.finding.span == Some(w.span))
    };
    let taken_in = |w: &Warning| {
        (replayed.iter()).any(|d| d.readings.first().is_some_and(|r| r.takes_in(w.span)))
    };
    warnings
        .iter()
        .filter(|w| !replayed_too(w) && !taken_in(w))
        // Drawn without a label, as the reader draws its own warnings.
        .map(|w| {
            Diagnosis::of(Finding {
                label: None,
                ..Finding::about_game(
                    w.code,
                    w.code.severity(),
                    w.message.clone(),
                    None,
                    Some(w.span),
                )
            })
        })
        .collect()
}

/// Findings as a report's diagnostics, placed in the game's text (in one pass over it: a game may
/// have tens of thousands of findings).
fn diagnostics(findings: &[Diagnosis], source: &GameSource) -> Vec<DiagnosticReport> {
    let mut places = source
        .locations(
            findings
                .iter()
                .filter_map(|d| d.finding.span)
                .map(|s| s.start as usize),
        )
        .into_iter();
    findings
        .iter()
        .map(|d| {
            let f = &d.finding;
            let (line, column) = f.span.and_then(|_| places.next()).unzip();
            DiagnosticReport {
                code: f.code,
                severity: f.severity,
                ply: f.ply,
                move_number: f.move_number,
                side: f.side,
                line,
                column,
                message: f.message.clone(),
                help: f.help.clone(),
                suggestions: d.readings.clone(),
                repeats: f.repeats,
            }
        })
        .collect()
}

/// Findings as drawn for people: a finding's help followed by its readings.
#[cfg(feature = "render")]
fn drawn(findings: Vec<Diagnosis>) -> Vec<Finding> {
    findings
        .into_iter()
        .map(|d| Finding {
            help: d.help(),
            ..d.finding
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_is_rfc_4648() {
        for (bytes, encoded) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"fooba", "Zm9vYmE="),
            (b"foobar", "Zm9vYmFy"),
            (b"\xff\xfe\x00", "//4A"),
        ] {
            assert_eq!(super::base64(bytes), encoded);
        }
    }
}
