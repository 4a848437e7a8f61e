//! Reading one break: every candidate edit at the breaking move and before it replayed, the
//! record's fate after each, and the ranking; where the best reading soon breaks again, a look
//! at the next break too (two slips side by side).

use super::cursor::Cursor;
use super::line::Line;
use super::slips::SlipKind;
use super::suggestion::{
    CLOSE, Candidate, Change, EditKind, MarginCount, MoveNumber, SLIP, Suggestion,
};
use crate::notation::{GameResult, Span};
use crate::rules::hash::FastSet;

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
/// How far (in `-ln` of the weight, with the cost of each further character) the characters of
/// the breaking move may be from a legal move's to be read as it: any one character misread, or
/// two likely confusions (a move that reads as a legal one only with more is not offered: the
/// help lists the legal moves).
const AT_BREAK: f64 = 4.7;
/// The same for a breaking move that is no move at all (`3S-4`, a garbled token): it is surely
/// misread, so two unlikely edits are read too, and a move OCR read as a word (`OLBI` for
/// `91-81`: four glyphs and the separator left out, decision 81).
const AT_GARBLED: f64 = 10.0;
/// A further reading of a garbled token is shown only when it costs at most this more than the
/// best (one likely confusion more, weight 0.135).
const RIVAL: f64 = 2.0;
/// The same for the written moves just before the break (every kind of slip is tried there).
const NEAR: f64 = 2.5;
/// The same further back (misreadings only): one likely confusion.
const FAR: f64 = 2.0;
/// A best reading that replays fewer written moves than this past the break may hide a second
/// slip right after the first: the search then reads the next break too before it ranks.
const CLEAR: usize = 16;
/// How many such short readings are followed to their next break.
const LOOK_AHEAD: usize = 4;
/// How many breaks after it a short reading is followed through at most, each read by its best
/// reading while that soon breaks again too.
const FOLLOW: usize = 2;

/// Readings of a break that fare exactly alike there are told apart by the breaks after them:
/// at most this many of them are each made and followed ...
const SETTLE_RIVALS: usize = 4;
/// ... through this many breaks, each read by its best reading among the near moves.
const SETTLE_BREAKS: usize = 6;

/// How a candidate edit fared.
#[derive(Clone, Debug)]
pub(crate) struct Trial {
    pub kind: SlipKind,
    pub change: Change,
    /// The cost of the edit: see [`Candidate`].
    pub cost: f64,
    pub detail: Option<String>,
    /// Written moves of the line before the change that then replay: how far it gets.
    pub reach: usize,
    pub to_end: bool,
    pub plies: u32,
    pub result: Option<(GameResult, bool)>,
    /// Counted only for readings that tie at the top on everything before it.
    pub margin: Option<MarginCount>,
    /// When the edit soon breaks again: how the record fares once the next break is read too
    /// (its reach in this line's written moves, fate and the two edits' cost).
    pub then: Option<Fate>,
    /// A reading of the line read whole at once ([`Trial::whole`]): it replays to the end with
    /// the readings of the line's other breaks.
    pub read_whole: bool,
}

/// How far a reading carries the record, for the ranking.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fate {
    pub reach: usize,
    pub to_end: bool,
    pub result: Option<(GameResult, bool)>,
    pub margin: Option<MarginCount>,
    pub cost: f64,
}

impl Trial {
    /// A reading of a line read whole at once (`decode`): the line then replays to its end.
    pub(super) fn whole(
        kind: SlipKind,
        change: Change,
        cost: f64,
        detail: Option<String>,
    ) -> Trial {
        Trial {
            kind,
            reach: usize::MAX,
            to_end: true,
            plies: 0,
            result: None,
            margin: None,
            cost,
            detail,
            then: None,
            change,
            read_whole: true,
        }
    }

    fn fate(&self) -> Fate {
        Fate {
            reach: self.reach,
            to_end: self.to_end,
            result: self.result,
            margin: self.margin,
            cost: self.cost,
        }
    }

    /// Best first: how far the record replays (with the next break read too, for a reading that
    /// soon breaks again), its result holding, its margin agreeing with the Margin tag, the
    /// edits' cost, the edit nearest the break.
    pub fn rank(&self) -> (usize, u8, u8, i64, usize) {
        let fate = self.then.unwrap_or(self.fate());
        let result = match fate.result {
            Some((_, true)) => 2,
            None => 1,
            Some((_, false)) => 0,
        };
        let margin = match fate.margin.map(|m| m.agrees()) {
            Some(Some(true)) => 2,
            None | Some(None) => 1,
            Some(Some(false)) => 0,
        };
        let reach = if fate.to_end { usize::MAX } else { fate.reach };
        let cost = -(fate.cost * 1e6).round() as i64;
        (reach, result, margin, cost, self.change.start)
    }
}

/// What a search has tried: each edit once, and how many plies its trials replayed.
#[derive(Default)]
struct Tried {
    edits: FastSet<Change>,
    plies: u64,
}

impl Line {
    /// The readings of the break at token `b`, best first, at most [`MAX_SUGGESTIONS`].
    pub fn search(&self, b: usize) -> Vec<Suggestion> {
        let mut trials = self.trials_for(b, true);
        self.look_ahead(b, &mut trials);
        trials.sort_by_key(|t| std::cmp::Reverse(t.rank()));
        self.weigh_margins(&mut trials);
        let cost = |t: &Trial| t.then.map_or(t.cost, |f| f.cost);
        let mut best: Option<f64> = None;
        trials
            .into_iter()
            // A reading shown must carry the record two moves past the break, or to its end,
            // or (read with the next break) past that.
            .filter(|t| t.to_end || t.reach >= b + 2 || t.then.is_some_and(|f| f.reach >= b + 2))
            // A garbled token is read far (to cost 10): a further reading of it that costs much
            // more than the best is noise, not a rival (decision 81).
            .filter(|t| {
                let first = *best.get_or_insert(cost(t));
                !self.tokens[b].garbled || cost(t) <= first + RIVAL
            })
            .take(MAX_SUGGESTIONS)
            .map(|t| self.suggestion(t, b))
            .collect()
    }

    /// Every candidate edit of the break at `b` that gets the record past it, ranked (not yet by
    /// margin or look-ahead). `far`: misreadings further back than [`LOOK_BACK`] are tried too.
    fn trials_for(&self, b: usize, far: bool) -> Vec<Trial> {
        let near = self.near_from.max(b.saturating_sub(LOOK_BACK));
        let mut candidates: Vec<Candidate> = Vec::new();
        // A record that says it is numbered from Red's side is not read as one that forgot to.
        if far && self.fixed == 0 && self.mended.is_empty() && !self.from_red && !self.variation {
            let g = self.states[0].pos.geometry();
            candidates.push(Candidate {
                kind: SlipKind::RedNumbering,
                change: Change {
                    start: 0,
                    removed: self.tokens.len(),
                    inserted: self.tokens.iter().map(|t| t.rotated(g)).collect(),
                },
                cost: SLIP - SlipKind::RedNumbering.prior().ln(),
                detail: None,
            });
        }
        for i in near..=b {
            let limit = match (i == b, self.tokens[i].garbled) {
                (true, true) => AT_GARBLED,
                (true, false) => AT_BREAK,
                (false, _) => NEAR,
            };
            self.candidates_at(i, limit, &mut candidates);
        }
        let mut tried = Tried::default();
        let mut trials = self.trials(candidates, b, &mut tried);
        // A garbled token no reading of its characters gets past is read by the moves after it
        // (`4st` for `41-51`): every legal move in its place, at a cost above any reading; in
        // the look-ahead too (`83°104 9kt`: the first is read only with the second, decision
        // 100).
        let read = |t: &Trial| t.change.start == b && (t.to_end || t.reach >= b + 2);
        if self.tokens[b].garbled && !trials.iter().any(read) {
            let mut unread = Vec::new();
            self.unreadable_at(b, &mut unread);
            // Only the moves after it read it: at the record's end, nothing does.
            let told = self.trials(unread, b, &mut tried);
            trials.extend(told.into_iter().filter(|t| t.reach >= b + 2 || !t.to_end));
        }
        // A token that is no move is the slip itself: where a reading of it carries the record
        // well on, no legal misreading further back is looked for (on an OCR'd page, with a
        // break every few moves, that search was most of the time a record took).
        let explained = self.tokens[b].garbled
            && trials
                .iter()
                .any(|t| t.change.start == b && (t.to_end || t.reach >= b + CLEAR));
        // A misread move that is itself legal may stand long before the break: further back only
        // misreadings are tried, nearest first, while the replays stay within the budget.
        if far && !explained {
            for i in (self.fixed..near).rev() {
                if tried.plies >= FAR_PLIES {
                    break;
                }
                let mut candidates = Vec::new();
                self.misreadings_at(i, FAR, &mut candidates);
                candidates.retain(|c| !self.touches_mended(&c.change));
                trials.extend(self.trials(candidates, b, &mut tried));
            }
        }
        trials.sort_by_key(|t| std::cmp::Reverse(t.rank()));
        trials
    }

    /// Whether `change` edits a written move whose separator a repair mended already.
    fn touches_mended(&self, change: &Change) -> bool {
        !self.mended.is_empty()
            && (change.start..change.start + change.removed)
                .any(|k| self.origin[k].is_some_and(|o| self.mended.contains(&o)))
    }

    /// Where the best readings carry the record only a little past the break, a second slip may
    /// stand right after the first: the cheapest short readings are made and the next break read
    /// (near moves only), and each is ranked by how the two fare together.
    fn look_ahead(&self, b: usize, trials: &mut [Trial]) {
        let clear = |t: &Trial| t.to_end || t.reach >= b + CLEAR;
        // A missed jump or a call is read as it always was: a move that stands, or its call.
        if trials.first().is_none_or(clear) || self.missed_or_called(b) {
            return;
        }
        let mut short: Vec<usize> = (0..trials.len()).filter(|&k| !clear(&trials[k])).collect();
        short.sort_by(|&x, &y| trials[x].cost.total_cmp(&trials[y].cost));
        // The cheapest short readings, and every ply put in right before the breaking move (a
        // ply left out beside a misread move: nothing but the next break tells them apart).
        let inserted = |t: &Trial| t.kind == SlipKind::Dropped && t.change.start == b;
        let (plies, others): (Vec<usize>, Vec<usize>) =
            short.into_iter().partition(|&k| inserted(&trials[k]));
        let chosen: Vec<usize> = others.into_iter().take(LOOK_AHEAD).chain(plies).collect();
        for k in chosen {
            let t = &trials[k];
            if matches!(t.kind, SlipKind::RedNumbering | SlipKind::MisplacedCall) {
                continue;
            }
            trials[k].then = self.fare_on(&t.change, t.kind, t.cost, FOLLOW);
        }
    }

    /// How the record fares with `change` (a repair of `kind`, of `cost`) made and its next
    /// break read by its best reading (near moves only); where that reading soon breaks again
    /// too, the break after it read the same way, up to `depth` breaks (a ply left out beside
    /// two misread moves). The reach is in this line's written moves.
    fn fare_on(&self, change: &Change, kind: SlipKind, cost: f64, depth: usize) -> Option<Fate> {
        let mut line = self.with_change(change, kind);
        let next = line.next_break()?;
        let u = line
            .trials_for(next, false)
            .into_iter()
            .find(|u| u.to_end || u.reach > next || line.puts_in_before(u, next))?;
        let short = !u.to_end && u.reach < next + 2;
        let fate = (depth > 1 && short)
            .then(|| line.fare_on(&u.change, u.kind, cost + u.cost, depth - 1))
            .flatten()
            .unwrap_or(Fate {
                reach: u.reach,
                to_end: u.to_end,
                result: u.result,
                margin: u.margin,
                cost: cost + u.cost,
            });
        let shift = change.inserted.len() as isize - change.removed as isize;
        Some(Fate {
            reach: (fate.reach as isize - shift).max(0) as usize,
            ..fate
        })
    }

    /// Where the best readings of a break fare exactly alike, each (at most [`SETTLE_RIVALS`])
    /// is made and the next [`SETTLE_BREAKS`] breaks read by their best near readings: the one
    /// that then gets furthest, at the least cost, goes first, and each other is marked with
    /// what it costs more later, so that it is no longer "just as well" (decision 99). Where
    /// the next breaks cannot tell them apart, they stay tied.
    pub fn settle_ties(&self, suggestions: &mut [Suggestion]) {
        let Some(best) = suggestions.first() else {
            return;
        };
        let tied: Vec<usize> = (0..suggestions.len())
            .filter(|&k| suggestions[k].equally_good(best))
            .take(SETTLE_RIVALS)
            .collect();
        if tied.len() < 2 {
            return;
        }
        // Best first: not stuck, further, cheaper.
        let fates: Vec<(bool, u32, f64)> = tied
            .iter()
            .map(|&k| {
                self.fare_ahead(
                    &suggestions[k].line_change,
                    suggestions[k].kind,
                    SETTLE_BREAKS,
                )
            })
            .collect();
        let key = |f: &(bool, u32, f64)| (!f.0, f.1, -f.2);
        let better = |a: &(bool, u32, f64), b: &(bool, u32, f64)| {
            let (x, y) = (key(a), key(b));
            (x.0, x.1) > (y.0, y.1) || ((x.0, x.1) == (y.0, y.1) && x.2 > y.2 + 1e-6)
        };
        let Some(w) = (0..fates.len())
            .find(|&a| (0..fates.len()).all(|b| b == a || !better(&fates[b], &fates[a])))
        else {
            return;
        };
        for (j, &k) in tied.iter().enumerate() {
            if j == w || !better(&fates[w], &fates[j]) {
                continue;
            }
            // A reading that gets stuck or stops short costs a slip more than one that does not.
            let short = match (fates[j].0, fates[j].1 < fates[w].1) {
                (true, _) | (_, true) => SLIP,
                _ => 0.0,
            };
            suggestions[k].later = (fates[j].2 - fates[w].2).max(0.0) + short;
        }
        suggestions.swap(0, tied[w]);
    }

    /// How the record fares with `change` (a repair of `kind`) made and the next `breaks`
    /// breaks each read by its best reading among the near moves: whether a break then has
    /// none, the plies then replayed, and what those readings cost.
    fn fare_ahead(&self, change: &Change, kind: SlipKind, breaks: usize) -> (bool, u32, f64) {
        let mut line = self.with_change(change, kind);
        let mut cost = 0.0;
        for _ in 0..breaks {
            let Some(next) = line.next_break() else {
                break;
            };
            let best = line
                .trials_for(next, false)
                .into_iter()
                .find(|u| u.to_end || u.reach > next || line.puts_in_before(u, next));
            let Some(u) = best else {
                return (true, line.states[next].plies, cost);
            };
            cost += u.cost;
            line.apply(&u.change, u.kind);
        }
        line.next_break();
        let plies = line.states.last().map_or(0, |c| c.plies);
        (false, plies, cost)
    }

    /// Whether a trial puts a ply in right before the breaking move at `b` that still breaks
    /// (a ply left out beside a misread move: the next break reads the move).
    fn puts_in_before(&self, t: &Trial, b: usize) -> bool {
        t.kind == SlipKind::Dropped
            && t.change.start == b
            && !self.missed_or_called(b)
            && t.plies > self.states[b].plies
    }

    /// Whether the move at `b` is a step that misses a compulsory jump, or has a call.
    fn missed_or_called(&self, b: usize) -> bool {
        let (t, pos) = (&self.tokens[b], &self.states[b].pos);
        t.call
            || t.resolve(pos)
                .is_some_and(|c| crate::replay::missed_jump_step(pos, c).is_some())
    }

    /// The candidates tried, each edit once, and kept when they carry the replay past the break
    /// at `b`.
    fn trials(&self, mut candidates: Vec<Candidate>, b: usize, tried: &mut Tried) -> Vec<Trial> {
        // The same edit may model two slips: keep the likelier.
        candidates.sort_by(|x, y| x.cost.total_cmp(&y.cost));
        candidates
            .into_iter()
            .filter(|c| tried.edits.insert(c.change.clone()))
            .map(|c| {
                let trial = self.trial(c);
                tried.plies += u64::from(trial.plies - self.states[trial.change.start].plies) + 1;
                trial
            })
            // A renumbering explains the whole record or nothing: later repairs could not be
            // made on top of it. Any other reading must get the record past the break (a ply put
            // in right before a move that still breaks counts: the next break may be a second
            // slip beside the first, which the look-ahead reads).
            .filter(|t| {
                t.to_end
                    || (t.kind != SlipKind::RedNumbering
                        && (t.reach > b || self.puts_in_before(t, b)))
            })
            .collect()
    }

    /// Replays the line with the candidate's change made, from the cursor before it.
    fn trial(&self, c: Candidate) -> Trial {
        let mut cursor = self.states[c.change.start].clone();
        let mut trial = Trial {
            kind: c.kind,
            reach: c.change.start,
            to_end: false,
            plies: cursor.plies,
            result: None,
            margin: None,
            cost: c.cost,
            detail: c.detail,
            then: None,
            change: c.change,
            read_whole: false,
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
        // The cost of the first reading counted whose margin is the tag's: it ranks first, and
        // a reading dearer by more than [`CLOSE`] can neither come before it nor be named beside
        // it, so its margin is not counted (a count may take a quarter of a second).
        let mut agreeing: Option<f64> = None;
        for t in trials.iter_mut().take(holding.min(MARGIN_COUNTS)) {
            if agreeing.is_some_and(|cost| t.cost > cost + CLOSE) {
                break;
            }
            let Some(budget) = self.count_budget(&tag, tag.budget.max_states) else {
                break;
            };
            let mut cursor = self.states[t.change.start].clone();
            cursor.referee = cursor.referee.counting_margins(Some(budget));
            self.play_on(&mut cursor, &t.change);
            t.margin = cursor
                .referee
                .outcome_at_end_of_record()
                .and_then(|o| o.margin)
                .map(|counted| MarginCount {
                    counted,
                    recorded: tag.recorded,
                });
            if agreeing.is_none() && t.margin.and_then(|m| m.agrees()) == Some(true) {
                agreeing = Some(t.cost);
            }
        }
        trials[..holding].sort_by_key(|t| std::cmp::Reverse(t.rank()));
    }

    /// Where a change to the record as read stands in its text: the moves it takes out, or the
    /// empty place before the move where it puts moves in.
    pub(super) fn span_of(&self, change: &Change) -> Span {
        let first = self.spans.get(change.start).copied();
        match (change.removed, first) {
            (0, Some(s)) => Span::new(s.start as usize, s.start as usize),
            (_, Some(s)) => {
                let last = (change.start + change.removed - 1).min(self.spans.len() - 1);
                Span::new(s.start as usize, self.spans[last].end as usize)
            }
            (_, None) => {
                let end = self.spans.last().map_or(0, |s| s.end as usize);
                Span::new(end, end)
            }
        }
    }

    pub(super) fn suggestion(&self, t: Trial, b: usize) -> Suggestion {
        let g = self.states[0].pos.geometry();
        let change = &t.change;
        let window = &self.tokens[change.start..change.start + change.removed];
        let moves: Vec<String> = change
            .inserted
            .iter()
            .map(|t| t.text(g, self.style, self.from_red))
            .collect();
        let text = match t.kind {
            SlipKind::RedNumbering => "[Numbering \"red\"]".to_string(),
            _ => moves.join(" "),
        };
        // The search looks no further back than the last repair, so the edit's moves are the
        // record's own: it is made to the record as read.
        let record_change = Change {
            start: match self.origin.get(change.start) {
                Some(origin) => origin.unwrap_or(change.start),
                // A move put in after the last token (read from text left out there).
                None => self.written.len(),
            },
            ..change.clone()
        };
        // A token read as no move at all is no character added to a move: its detail says
        // what it was taken for.
        let no_move = t.kind == SlipKind::CharAdded && change.inserted.is_empty();
        let why = match &t.detail {
            Some(detail) if no_move => detail.clone(),
            Some(detail) => format!("{}: {detail}", t.kind.describe()),
            None if no_move => "read as no move".to_string(),
            None => t.kind.describe().to_string(),
        };
        let pos = &self.states[change.start].pos;
        let mut span = self.span_of(&record_change);
        if let ([token], 1) = (change.inserted.as_slice(), change.removed) {
            span.end += self.reads_on(change.start, *token, t.cost) as u32;
        }
        Suggestion {
            ply: self.states[change.start].plies + 1,
            edit: match no_move {
                true => EditKind::Remove,
                false => t.kind.edit(),
            },
            text,
            why,
            moves,
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
            number: MoveNumber {
                number: pos.move_number(),
                side: pos.side_to_move(),
            },
            span,
            change: record_change,
            line_change: t.change.clone(),
            cost: t.cost,
            // Only such readings have their margins counted (see `weigh_margins`).
            margin_uncounted: self.margin_ignored
                && t.to_end
                && t.result.is_some_and(|(_, holds)| holds),
            later: 0.0,
            alike_once_mended: false,
            read_whole: t.read_whole,
        }
    }
}
