//! A game's findings with what the record may have meant: the one call that replays a game and
//! reads its breaks ([`check`]), and the readings added to a replay already made ([`annotate`]).

use super::breaks_main_line;
use super::mend::apply;
use super::readings::MainReadings;
use super::search::{Analysis, Break, MAX_BREAKS, analyse_variations};
use super::suggestion::Suggestion;
use crate::diagnostic::Code;
use crate::notation::{Game, Played};
use crate::replay::{Finding, MarginPolicy, Replay, ReplayOptions, replay};
use std::fmt;

/// A finding of the replayer and, for an error that breaks the main line, the readings of the
/// record that would mend it, best first.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Diagnosis {
    /// What the replayer found, with its own help (the legal moves, say).
    pub finding: Finding,
    /// What the record may have meant, best first (empty for most findings).
    pub readings: Vec<Suggestion>,
}

impl Diagnosis {
    /// A finding without readings.
    pub fn of(finding: Finding) -> Diagnosis {
        Diagnosis {
            finding,
            readings: Vec::new(),
        }
    }

    /// The readings in words, one line each, as `check` prints them under the finding's help:
    /// `did you mean 35-44 (digits swapped)? the game then replays to its end ...`, then the
    /// others (`or, just as well, ...` for one that fares exactly as the first).
    pub fn readings_text(&self) -> Vec<String> {
        let Some(best) = self.readings.first() else {
            return Vec::new();
        };
        let mut lines = vec![format!(
            "did you mean {}? {}",
            best.reading(),
            best.consequence()
        )];
        for s in &self.readings[1..] {
            lines.push(if s.equally_good(best) {
                // Two transpositions of moves that commute, say: only the source can decide.
                s.just_as_well(true)
            } else {
                format!("or {}: {}", s.reading(), s.consequence())
            });
        }
        lines
    }

    /// The finding's help and then its readings, one a line: what a person reads under it.
    pub fn help(&self) -> Option<String> {
        let mut lines: Vec<String> = self.finding.help.iter().cloned().collect();
        lines.extend(self.readings_text());
        (!lines.is_empty()).then(|| lines.join("\n"))
    }
}

impl fmt::Display for Diagnosis {
    /// `code: message`, then its help and readings indented, a line each.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.finding.code, self.finding.message)?;
        for line in self
            .help()
            .iter()
            .flat_map(|h| h.lines().map(str::to_string).collect::<Vec<_>>())
        {
            write!(f, "\n  {line}")?;
        }
        Ok(())
    }
}

/// A game replayed, its findings with the readings of each break.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Checked {
    /// The replay of the record as written.
    pub replay: Replay,
    /// Its findings, with readings for those that break the main line; after the best reading
    /// of a break the record is replayed on, so the findings of later slips are here too.
    pub findings: Vec<Diagnosis>,
}

/// Replays a game and reads every break of its main line: what `salta check` reports.
pub fn check(game: &Game, opts: &ReplayOptions) -> Checked {
    let replayed = replay(game, opts);
    let findings = annotate(game, opts, replayed.findings().to_vec());
    Checked {
        replay: replayed,
        findings,
    }
}

/// The findings of a replay with the readings added: every error that breaks the main line
/// gets its readings; after the best reading of a break the record is replayed on, so the
/// errors of later slips are reported too. An error that breaks a variation of the main line
/// gets the readings of that variation, replayed from where it starts in the main line as mended
/// (decision 85). `replayed` is the replay of the record as read.
pub fn annotate(game: &Game, opts: &ReplayOptions, replayed: Vec<Finding>) -> Vec<Diagnosis> {
    annotate_with(game, opts, replayed, &MainReadings::default())
}

/// [`annotate`], with the main line's costly readings kept in `readings` (made for this game),
/// or taken from there where they were made before.
pub fn annotate_with(
    game: &Game,
    opts: &ReplayOptions,
    replayed: Vec<Finding>,
    readings: &MainReadings,
) -> Vec<Diagnosis> {
    let mut found = annotate_main(game, opts, replayed, readings);
    read_variations(game, opts, &mut found);
    found
}

/// Whether a finding breaks a variation as [`breaks_main_line`] says of the main line.
fn breaks_variation(f: &Finding) -> bool {
    f.in_variation && super::breaks_a_line(f)
}

/// The readings of the breaks of the main line's variations, added to their findings.
fn read_variations(game: &Game, opts: &ReplayOptions, found: &mut [Diagnosis]) {
    if !found.iter().any(|d| breaks_variation(&d.finding)) {
        return;
    }
    // The main line as its readings mend it: a variation starts where the mended line stands.
    let repairs: Vec<&Suggestion> = found
        .iter()
        .filter(|d| breaks_main_line(&d.finding))
        .filter_map(|d| d.readings.first())
        .collect();
    let mended = (!repairs.is_empty()).then(|| apply(game, &repairs));
    let breaks = analyse_variations(mended.as_ref().unwrap_or(game), opts, MAX_BREAKS);
    for d in found.iter_mut().filter(|d| breaks_variation(&d.finding)) {
        let at = d.finding.span.map(|s| s.start);
        if let Some((_, b)) = breaks.iter().find(|(span, _)| Some(span.start) == at) {
            d.readings = b.suggestions.clone();
        }
    }
}

/// Breaks the search found (the one it was lost at among them) that make a record one that
/// breaks often.
const OFTEN: usize = 3;

/// Whether the search was lost at a garbled move, or after [`OFTEN`] breaks.
fn breaks_often(game: &Game, analysis: &Analysis) -> bool {
    let garbled = |b: &Break| {
        game.mainline
            .moves
            .get(b.token)
            .is_some_and(|n| matches!(n.played, Played::Garbled))
    };
    analysis.breaks.len() >= OFTEN || analysis.breaks.iter().any(garbled)
}

/// [`annotate`] for the main line.
fn annotate_main(
    game: &Game,
    opts: &ReplayOptions,
    replayed: Vec<Finding>,
    readings: &MainReadings,
) -> Vec<Diagnosis> {
    if !replayed.iter().any(breaks_main_line) {
        return replayed.into_iter().map(Diagnosis::of).collect();
    }
    let mut analysis = readings.searched(game, opts);
    // A page where the search reading one break at a time is lost among garbled moves or many
    // breaks is read whole at once, as `repair` reads it: each break then has the reading
    // `repair` makes of it. A record that breaks once or twice at a move a rule forbids (a
    // jump missed, a move after the end) is no such page: its moves are not read otherwise.
    if !analysis.mends_whole()
        && breaks_often(game, &analysis)
        && let Some(decoded) = readings.read_whole(game, opts)
        && decoded.mends_whole()
    {
        analysis = decoded;
    }
    let repaired: Vec<&Break> = analysis
        .breaks
        .iter()
        .filter(|b| !b.suggestions.is_empty())
        .collect();
    if repaired.is_empty() {
        return replayed.into_iter().map(Diagnosis::of).collect();
    }
    let quiet = ReplayOptions {
        margins: MarginPolicy::Never,
        summary_only: true,
        ..opts.clone()
    };
    let mut found = Vec::new();
    for (k, brk) in repaired.iter().enumerate() {
        let earlier: Vec<&Suggestion> = repaired[..k]
            .iter()
            .filter_map(|b| b.suggestions.first())
            .collect();
        let findings = if k == 0 {
            replayed.clone()
        } else {
            replay(&apply(game, &earlier), &quiet).findings
        };
        // A move put in after the last one written (its `token` one past it) stands there.
        let at = match game.mainline.moves.get(brk.token) {
            Some(node) => node.span.start,
            None => game.mainline.moves.last().map_or(0, |n| n.span.end),
        };
        let Some(finding) = findings
            .into_iter()
            .find(|f| breaks_main_line(f) && f.span.is_some_and(|s| s.start >= at))
        else {
            continue;
        };
        found.push(Diagnosis {
            finding,
            readings: brk.suggestions.clone(),
        });
    }
    let all: Vec<&Suggestion> = repaired
        .iter()
        .filter_map(|b| b.suggestions.first())
        .collect();
    let renumbered = all
        .iter()
        .find(|s| matches!(s.edit, super::EditKind::Insert | super::EditKind::Delete))
        .map(|s| {
            game.mainline
                .moves
                .get(s.change.start)
                .map_or(u32::MAX, |n| n.span.start)
        });
    let after = replay(&apply(game, &all), opts).findings;
    // A ply left out or written twice shifts every later move number: the suggestion says why.
    // Only the moves are read as the readings have them: the verdict on the game as a whole (its
    // tags, result and margin) is the record's own, reached where its game ended or broke off,
    // never after a move it rejected; what a reading would make of the result, its suggestion
    // says.
    found.extend(
        after
            .into_iter()
            .filter(|f| {
                f.ply.is_some()
                    && !(f.code == Code::MoveNumber
                        && renumbered.is_some_and(|from| f.span.is_some_and(|s| s.start >= from)))
            })
            .map(Diagnosis::of),
    );
    found.extend(
        replayed
            .into_iter()
            .filter(|f| f.ply.is_none())
            .map(Diagnosis::of),
    );
    found.sort_by_key(|d| (d.finding.ply.is_none(), d.finding.span.map(|s| s.start)));
    found
}
