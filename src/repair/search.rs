//! The search over a whole line: every break found in turn and read (`trials`), its best
//! reading made, and the replay gone on to the next.

use super::line::Line;
use super::slips::SlipKind;
use super::step::MAX_RIVALS;
use super::suggestion::{CLOSE, SLIP, Suggestion};
use super::trials::Trial;
use crate::notation::{Game, Span};
use crate::replay::{ReplayOptions, missed_jump_step};
use crate::rules::Move;

/// A break of the record and what it was read as.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Break {
    /// The index in the record of the move that broke the main line; one past its last move
    /// for a move put in after it (decision 175).
    pub token: usize,
    /// The ply (1-based from the game's start) of the move that broke it, with the repairs of
    /// the breaks before it made.
    pub ply: u32,
    /// Best first; empty when nothing is plausible.
    pub suggestions: Vec<Suggestion>,
    /// Read with the whole line at once (decisions 159, 160), not at the break alone: the
    /// record broke too often for the search to read a break at a time.
    pub read_whole: bool,
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

/// Breaks a record is searched for at most, whatever the edits allowed: so that a record that
/// needs more than allowed can be told how many it needs. A record that breaks more often is
/// read whole.
pub const MAX_BREAKS: usize = 200;

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

    /// Whether its readings mend the whole line: every break read, and the line then replays to
    /// its end.
    pub fn mends_whole(&self) -> bool {
        self.replays_to_end && self.repairs().count() == self.breaks.len()
    }
}

/// Finds every break of a game's main line and reads each (at most `max_breaks`).
pub fn analyse(game: &Game, opts: &ReplayOptions, max_breaks: usize) -> Analysis {
    match Line::new(game, opts) {
        Some(line) => analyse_line(line, max_breaks),
        None => Analysis::default(),
    }
}

/// The breaks of the variations of a game's main line (those that replace a move the main line
/// reaches as written), each with the span of its breaking move and its readings: what `check`
/// reads inside variations. Variations inside variations are not read.
pub(crate) fn analyse_variations(
    game: &Game,
    opts: &ReplayOptions,
    max_breaks: usize,
) -> Vec<(Span, Break)> {
    let mut out = Vec::new();
    for (i, j, analysis) in variation_analyses(game, opts, max_breaks) {
        let moves = &game.mainline.moves[i].variations()[j].moves;
        for b in analysis.breaks {
            if let Some(n) = moves.get(b.token) {
                out.push((n.span, b));
            }
        }
    }
    out
}

/// Each variation of the main line that breaks, as the index of the main-line move it replaces
/// and its own among that move's variations, with its analysis.
pub(crate) fn variation_analyses(
    game: &Game,
    opts: &ReplayOptions,
    max_breaks: usize,
) -> Vec<(usize, usize, Analysis)> {
    let Some(mut main) = Line::new(game, opts) else {
        return Vec::new();
    };
    main.next_break();
    let mut out = Vec::new();
    for (i, node) in game.mainline.moves.iter().enumerate() {
        let Some(start) = main.states.get(i) else {
            break;
        };
        for (j, v) in node.variations().iter().enumerate() {
            let Some(line) = Line::variation(game, opts, &v.moves, start.clone()) else {
                continue;
            };
            let analysis = analyse_line(line, max_breaks);
            if !analysis.breaks.is_empty() {
                out.push((i, j, analysis));
            }
        }
    }
    out
}

/// How far text left out after the last move may be from a move to be read as it: one
/// character misread, or two likely confusions (stricter than between two moves, where the
/// moves after tell a wrong reading).
const LAST_MOVE_READ: f64 = 5.0;
/// How much cheaper than any other move one must read that text to be put in from it.
const CLEARLY: f64 = 2.0;

/// Names in the best reading's reason (`why`) the readings after it of the same move that are
/// nearly as likely (within [`CLOSE`]) and replay the record alike to its end, with the same
/// result and margin (or, read while later breaks were unmended, replay the line alike once
/// they are: [`mark_rivals_once_mended`]): a repair is not stated without doubt where the
/// record cannot tell (the readings exactly as likely are named "just as well" apart). For
/// `salta repair`'s edits: `check` lists every reading of a break anyway.
pub(super) fn name_close_rivals(suggestions: &mut [Suggestion]) {
    let Some((best, rest)) = suggestions.split_first_mut() else {
        return;
    };
    let alike_at_once = |s: &Suggestion| {
        best.to_end
            && s.to_end
            && s.replays == best.replays
            && s.result == best.result
            && s.margin.map(|m| m.counted) == best.margin.map(|m| m.counted)
            && s.later == 0.0
    };
    let named: Vec<String> = rest
        .iter()
        .filter(|s| close_to(best, s) && (alike_at_once(s) || s.alike_once_mended))
        .take(MAX_RIVALS)
        .map(|s| format!("{} ({})", s.text, s.why))
        .collect();
    if !named.is_empty() {
        best.name_rivals(&named.join(" or "));
    }
}

/// Finds every break of a line and reads each (at most `max_breaks`).
fn analyse_line(mut line: Line, max_breaks: usize) -> Analysis {
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
        let mut suggestions = if cascade { Vec::new() } else { line.search(b) };
        // Readings that fare alike here are told apart by the breaks after them.
        line.settle_ties(&mut suggestions);
        let token = line.origin[b].unwrap_or(b);
        let ply = line.states[b].plies + 1;
        match suggestions.first() {
            Some(best) => {
                line.apply(&best.line_change, best.kind);
                open_jump = None;
            }
            // An uncalled missed jump stands as played in the replayer's report: go on past it.
            None if missed && line.force_missed_jump(b) => {
                open_jump.get_or_insert(jumps);
            }
            None => {
                if !cascade {
                    analysis.breaks.push(Break {
                        token,
                        ply,
                        suggestions,
                        read_whole: false,
                    });
                }
                return analysis;
            }
        }
        if !cascade {
            analysis.breaks.push(Break {
                token,
                ply,
                suggestions,
                read_whole: false,
            });
        }
    }
    analysis.replays_to_end = true;
    analysis.breaks.extend(last_move_left_out(&mut line));
    line.replay_to(line.tokens.len());
    mark_rivals_once_mended(&line, &mut analysis.breaks);
    analysis
}

/// Whether `s` reads the move `best` reads, another way, nearly as likely (within [`CLOSE`])
/// but not exactly as likely (those are named "just as well").
fn close_to(best: &Suggestion, s: &Suggestion) -> bool {
    !s.equally_good(best)
        && s.edit == best.edit
        && s.line_change.start == best.line_change.start
        && s.line_change.removed == best.line_change.removed
        && s.cost <= best.cost + CLOSE
}

/// Marks, at each break whose best reading replaces one move and was read while later breaks
/// were still unmended (it did not replay to the end then), the readings of the same move with
/// which the whole line, its every break now mended, replays alike to the same result: they
/// could not be seen to replay as far when the break was read, and are rivals to name
/// ([`name_close_rivals`], decision 231).
fn mark_rivals_once_mended(line: &Line, breaks: &mut [Break]) {
    for b in breaks {
        let Some((best, rest)) = b.suggestions.split_first_mut() else {
            continue;
        };
        let change = &best.line_change;
        if best.to_end || change.removed != 1 || change.inserted.len() != 1 {
            continue;
        }
        for s in rest {
            // Replaying the rest of the line is the dear part: only for a close reading.
            s.alike_once_mended = close_to(best, s)
                && s.line_change.inserted.len() == 1
                && line.replays_alike(change.start, s.line_change.inserted[0], false);
        }
    }
}

/// A move read from the text the reader left out after the last move of a line that
/// replays to its end (`7463 413201.`: the move 41-32 with the result glued to it, taken
/// for a move number), put in as a break of its own (decision 175): where the game goes on
/// there, one legal move reads that text clearly cheapest, and the game then ends as
/// recorded, or the record gives no result.
fn last_move_left_out(line: &mut Line) -> Option<Break> {
    let n = line.tokens.len();
    line.replay_to(n);
    let cursor = line.states.get(n)?.clone();
    if !cursor.referee.accepts_moves() {
        return None;
    }
    // Each move put in there that reads the text (it says so), within the limit, and after
    // which the game ends as recorded.
    let mut put_in = Vec::new();
    line.dropped_at(n, &mut put_in);
    put_in.retain(|c| {
        let Some(m) = c.change.inserted[0].resolve(&cursor.pos) else {
            return false;
        };
        let mut after = cursor.clone();
        after.play_legal(m);
        let ends = after.result();
        c.detail.is_some()
            && c.cost <= SLIP + LAST_MOVE_READ
            && line.recorded.is_none_or(|r| ends == Some(r))
    });
    put_in.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    let mut put_in = put_in.into_iter();
    let best = put_in.next()?;
    if put_in
        .next()
        .is_some_and(|second| second.cost < best.cost + CLEARLY)
    {
        return None;
    }
    let trial = Trial::whole(SlipKind::Dropped, best.change, best.cost, best.detail);
    let suggestion = line.suggestion(trial, n);
    line.apply(&suggestion.line_change, suggestion.kind);
    Some(Break {
        token: line.written.len(),
        ply: suggestion.ply,
        suggestions: vec![suggestion],
        read_whole: false,
    })
}
