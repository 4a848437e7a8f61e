//! The search: every break of a line found in turn, each read by the edits tried at it and
//! before it, ranked by how far the record then replays, its result and margin, and the slip's
//! prior.

use super::cursor::Cursor;
use super::line::Line;
use super::slips::SlipKind;
use super::suggestion::{Change, MarginCount, MoveNumber, Suggestion};
use super::token::Token;
use crate::notation::{Game, GameResult, Span};
use crate::replay::{ReplayOptions, missed_jump_step};
use crate::rules::Move;
use std::collections::HashSet;

/// How many written moves before the breaking one the search tries every kind of slip.
const LOOK_BACK: usize = 12;
/// Further back the search tries only misreadings (a legal slip may be caught 30 or more plies
/// later), one written move after another while the plies its trials replayed stay under this.
const FAR_PLIES: u64 = 20_000;
/// At most this many readings of a break have their margins counted against the Margin tag: those
/// that replay to the end with the recorded result (a count takes 0.3 ms typically).
const MARGIN_COUNTS: usize = 5;
/// Suggestions shown per break, best first.
const MAX_SUGGESTIONS: usize = 5;

/// How a candidate edit fared.
#[derive(Clone, Debug)]
struct Trial {
    kind: SlipKind,
    change: Change,
    /// Written moves of the line before the change that then replay: how far it gets.
    reach: usize,
    to_end: bool,
    plies: u32,
    result: Option<(GameResult, bool)>,
    /// Counted only for readings that tie at the top on everything before it.
    margin: Option<MarginCount>,
}

impl Trial {
    /// Best first: how far the record replays, its result holding, its margin agreeing with the
    /// Margin tag, the slip's prior, the edit nearest the break.
    fn rank(&self) -> (usize, u8, u8, u64, usize) {
        let result = match self.result {
            Some((_, true)) => 2,
            None => 1,
            Some((_, false)) => 0,
        };
        let margin = match self.margin.map(|m| m.agrees()) {
            Some(Some(true)) => 2,
            None | Some(None) => 1,
            Some(Some(false)) => 0,
        };
        let prior = (self.kind.prior() * 1e6) as u64;
        (self.reach, result, margin, prior, self.change.start)
    }
}

/// What a search has tried: each edit once, and how many plies its trials replayed.
#[derive(Default)]
struct Tried {
    edits: HashSet<Change>,
    plies: u64,
}

/// A break of the record and what it was read as.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Break {
    /// The index in the record of the move that broke the main line.
    pub token: usize,
    /// Best first; empty when nothing is plausible.
    pub suggestions: Vec<Suggestion>,
}

impl Break {
    /// The readings after the first that fare exactly as it does: only the source can decide.
    pub fn rivals(&self) -> impl Iterator<Item = &Suggestion> {
        let best = self.suggestions.first();
        self.suggestions
            .iter()
            .skip(1)
            .filter(move |s| best.is_some_and(|b| s.equally_good(b)))
    }
}

/// What the search made of a record: its breaks in order, each repaired by its first suggestion
/// unless it has none.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Analysis {
    /// The places where the record breaks, in order, each with its suggestions.
    pub breaks: Vec<Break>,
    /// The main line replays to its end once every break with a suggestion is repaired.
    pub replays_to_end: bool,
}

impl Analysis {
    /// The repairs made: each break's best suggestion.
    pub fn repairs(&self) -> impl Iterator<Item = &Suggestion> {
        self.breaks.iter().filter_map(|b| b.suggestions.first())
    }
}

/// Finds every break of a game's main line and reads each (at most `max_breaks`).
pub fn analyse(game: &Game, opts: &ReplayOptions, max_breaks: usize) -> Analysis {
    let Some(mut line) = Line::new(game, opts) else {
        return Analysis::default();
    };
    let mut analysis = Analysis::default();
    // The jumps an unrepaired missed jump left open: later moves missing them are its cascade.
    let mut open_jump: Option<Vec<Move>> = None;
    while let Some(b) = line.next_break() {
        if analysis.breaks.len() >= max_breaks {
            return analysis;
        }
        let here = line.states[b].pos;
        let jumps = here.available_jumps().as_slice().to_vec();
        let token = line.tokens[b];
        let missed = !token.call
            && token
                .resolve(&here)
                .is_some_and(|c| missed_jump_step(&here, c).is_some());
        let cascade = missed
            && open_jump
                .as_ref()
                .is_some_and(|open| open.iter().any(|j| jumps.contains(j)));
        let suggestions = if cascade { Vec::new() } else { line.search(b) };
        let token = line.origin[b].unwrap_or(b);
        match suggestions.first() {
            Some(best) => {
                line.apply(&best.line_change);
                open_jump = None;
            }
            // An uncalled missed jump stands as played in the replayer's report: go on past it.
            None if missed && line.force_missed_jump(b) => {
                open_jump.get_or_insert(jumps);
            }
            None => {
                if !cascade {
                    analysis.breaks.push(Break { token, suggestions });
                }
                return analysis;
            }
        }
        if !cascade {
            analysis.breaks.push(Break { token, suggestions });
        }
    }
    analysis.replays_to_end = true;
    analysis
}

impl Line {
    /// The readings of the break at token `b`, best first, at most [`MAX_SUGGESTIONS`].
    fn search(&self, b: usize) -> Vec<Suggestion> {
        let near = self.fixed.max(b.saturating_sub(LOOK_BACK));
        let mut candidates: Vec<(SlipKind, Change)> = Vec::new();
        // A record that says it is numbered from Red's side is not read as one that forgot to.
        if self.fixed == 0 && !self.from_red {
            let g = self.states[0].pos.geometry();
            candidates.push((
                SlipKind::RedNumbering,
                Change {
                    start: 0,
                    removed: self.tokens.len(),
                    inserted: self.tokens.iter().map(|t| t.rotated(g)).collect(),
                },
            ));
        }
        for i in near..=b {
            self.candidates_at(i, &mut candidates);
        }
        let mut tried = Tried::default();
        let mut trials = self.trials(candidates, b, &mut tried);
        // A misread move that is itself legal may stand long before the break: further back only
        // misreadings are tried, nearest first, while the replays stay within the budget.
        for i in (self.fixed..near).rev() {
            if tried.plies >= FAR_PLIES {
                break;
            }
            let mut candidates = Vec::new();
            self.misreadings_at(i, &mut candidates);
            trials.extend(self.trials(candidates, b, &mut tried));
        }
        trials.sort_by_key(|t| std::cmp::Reverse(t.rank()));
        self.weigh_margins(&mut trials);
        trials
            .into_iter()
            .take(MAX_SUGGESTIONS)
            .map(|t| self.suggestion(t, b))
            .collect()
    }

    /// The candidates tried, each edit once, and kept when they carry the replay past the break
    /// at `b`.
    fn trials(
        &self,
        mut candidates: Vec<(SlipKind, Change)>,
        b: usize,
        tried: &mut Tried,
    ) -> Vec<Trial> {
        // The same edit may model two slips: keep the likelier.
        candidates.sort_by(|a, b| b.0.prior().total_cmp(&a.0.prior()));
        candidates
            .into_iter()
            .filter(|(_, change)| tried.edits.insert(change.clone()))
            .map(|(kind, change)| {
                let trial = self.trial(kind, change);
                tried.plies += u64::from(trial.plies - self.states[trial.change.start].plies) + 1;
                trial
            })
            // A renumbering explains the whole record or nothing: later repairs could not be
            // made on top of it.
            .filter(|t| t.to_end || (t.reach >= b + 2 && t.kind != SlipKind::RedNumbering))
            .collect()
    }

    /// Replays the line with `change` made, from the cursor before it.
    fn trial(&self, kind: SlipKind, change: Change) -> Trial {
        let mut cursor = self.states[change.start].clone();
        let mut trial = Trial {
            kind,
            reach: change.start,
            to_end: false,
            plies: cursor.plies,
            result: None,
            margin: None,
            change,
        };
        let Some(replayed) = self.play_on(&mut cursor, &trial.change) else {
            return trial;
        };
        let rest = self.tokens.len() - trial.change.start - trial.change.removed;
        trial.reach = trial.change.start + trial.change.removed + replayed;
        trial.plies = cursor.plies;
        trial.to_end = replayed == rest && !cursor.correcting;
        if trial.to_end {
            trial.result = cursor
                .referee
                .outcome_at_end_of_record()
                .map(|o| crate::replay::result_of(&o))
                .zip(self.recorded)
                .map(|(r, recorded)| (r, r == recorded));
        }
        trial
    }

    /// Plays `change` and the rest of the line on from `cursor`: how many of the moves after the
    /// change replay (`None`: the change's own moves do not).
    fn play_on(&self, cursor: &mut Cursor, change: &Change) -> Option<usize> {
        if !change
            .inserted
            .iter()
            .all(|t| cursor.advance(t, self.lenient))
        {
            return None;
        }
        let rest = &self.tokens[change.start + change.removed..];
        Some(
            rest.iter()
                .take_while(|t| cursor.advance(t, self.lenient))
                .count(),
        )
    }

    /// The Margin tag breaks ties: the margin of each reading (of the first [`MARGIN_COUNTS`])
    /// that replays to the end with the recorded result is counted, and those readings ranked
    /// again. `trials` is ranked.
    fn weigh_margins(&self, trials: &mut [Trial]) {
        let Some(tag) = self.margin else {
            return;
        };
        let holding = trials
            .iter()
            .take_while(|t| t.to_end && t.result.is_some_and(|(_, holds)| holds))
            .count();
        if holding < 2 {
            return;
        }
        for t in trials.iter_mut().take(holding.min(MARGIN_COUNTS)) {
            let mut cursor = self.states[t.change.start].clone();
            cursor.referee = cursor.referee.counting_margins(Some(tag.budget));
            self.play_on(&mut cursor, &t.change);
            t.margin = cursor
                .referee
                .outcome_at_end_of_record()
                .and_then(|o| o.margin)
                .map(|counted| MarginCount {
                    counted,
                    recorded: tag.recorded,
                });
        }
        trials[..holding].sort_by_key(|t| std::cmp::Reverse(t.rank()));
    }

    /// Where a change to the record as read stands in its text: the moves it takes out, or the
    /// empty place before the move where it puts moves in.
    fn span_of(&self, change: &Change) -> Span {
        let first = self.spans.get(change.start).copied();
        match (change.removed, first) {
            (0, Some(s)) => Span::new(s.start as usize, s.start as usize),
            (_, Some(s)) => {
                let last =
                    self.spans[(change.start + change.removed - 1).min(self.spans.len() - 1)];
                Span::new(s.start as usize, last.end as usize)
            }
            (_, None) => {
                let end = self.spans.last().map_or(0, |s| s.end as usize);
                Span::new(end, end)
            }
        }
    }

    fn suggestion(&self, t: Trial, b: usize) -> Suggestion {
        let g = self.states[0].pos.geometry();
        let change = &t.change;
        let window = &self.tokens[change.start..change.start + change.removed];
        let texts = |tokens: &[Token]| {
            tokens
                .iter()
                .map(|t| t.text(g, self.style, self.from_red))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let text = match t.kind {
            SlipKind::RedNumbering => "[Numbering \"red\"]".to_string(),
            _ => texts(&change.inserted),
        };
        // The search looks no further back than the last repair, so the edit's moves are the
        // record's own: it is made to the record as read.
        let record_change = Change {
            start: self.origin[change.start].unwrap_or(change.start),
            ..change.clone()
        };
        Suggestion {
            ply: self.states[change.start].plies + 1,
            edit: t.kind.edit(),
            text,
            why: t.kind.describe().to_string(),
            replays: t.plies,
            kind: t.kind,
            was: (change.start..change.start + change.removed)
                .zip(window)
                .map(|(i, t)| match self.origin[i] {
                    Some(o) => self.written[o].clone(),
                    None => t.text(g, self.style, self.from_red),
                })
                .collect::<Vec<_>>()
                .join(" "),
            to_end: t.to_end,
            result: t.result,
            margin: t.margin,
            back: self.states[b].plies - self.states[change.start].plies,
            number: {
                let pos = &self.states[change.start].pos;
                MoveNumber {
                    number: pos.move_number(),
                    side: pos.side_to_move(),
                }
            },
            span: self.span_of(&record_change),
            change: record_change,
            line_change: t.change.clone(),
            // Only such readings have their margins counted (see `weigh_margins`).
            margin_uncounted: self.margin_ignored
                && t.to_end
                && t.result.is_some_and(|(_, holds)| holds),
        }
    }
}
