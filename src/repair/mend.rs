//! A record mended: each break's best reading made in the syntax tree, each edit marked by a
//! comment, and what `salta repair` makes of a game.

use super::breaks_main_line;
use super::decode::decode_better;
use super::readings::MainReadings;
use super::search::{Analysis, Break, MAX_BREAKS, name_close_rivals, variation_analyses};
use super::suggestion::{EditKind, SLIP, Suggestion};
use super::token::Token;
use crate::board::Color;
use crate::diagnostic::Code;
use crate::notation::{
    Comment, Designator, Game, MoveNode, Played, Separator, Span, SquareRef, Tag, Variation,
};
use crate::replay::{Finding, MarginPolicy, ReplayOptions, replay};
use crate::rules::Piece;

/// The game with the given repairs made (in the order of the record).
pub fn apply(game: &Game, repairs: &[&Suggestion]) -> Game {
    edit(game, repairs, |_| None)
}

/// The game with each break repaired by its best reading, every edit marked by a comment giving
/// what was written, why, and any reading that fares exactly as well; a `Repairs` tag names them.
fn apply_marked(game: &Game, breaks: &[Break]) -> Game {
    let repaired: Vec<&Break> = breaks
        .iter()
        .filter(|b| !b.suggestions.is_empty())
        .collect();
    let repairs: Vec<&Suggestion> = repaired.iter().map(|b| &b.suggestions[0]).collect();
    let mut out = edit(game, &repairs, |k| Some(note_of(repaired[k])));
    // A record numbered from Red's side keeps its numbers: the tag the report says it adds is
    // written, and the writer counts from Red's side under it (decision 77).
    if repairs.iter().any(|s| s.edit == EditKind::Renumber) && !out.numbered_from_red() {
        out.tags.retain(|t| t.name != "Numbering");
        out.tags.push(Tag {
            name: "Numbering".into(),
            value: "red".into(),
            span: Span::default(),
        });
    }
    if !repairs.is_empty() {
        let mut value = repairs_named(&repairs);
        // A line read whole at once says so first: its readings rest on one another.
        if repaired.iter().any(|b| b.read_whole) {
            value = format!("{READ_WHOLE}; {value}");
        }
        out.tags.push(Tag {
            name: "Repairs".into(),
            value,
            span: Span::default(),
        });
    }
    out
}

/// Edits the `Repairs` tag names one by one: a longer list (a page read whole has hundreds, a
/// tag line of kilobytes) is told by kind, each edit being marked by its comment in the moves.
const TAG_EDITS: usize = 12;

/// What the `Repairs` tag says of the `repairs` made to the main line: each by its ply and why,
/// or, past [`TAG_EDITS`], how many of each kind, commonest first.
fn repairs_named(repairs: &[&Suggestion]) -> String {
    if repairs.len() <= TAG_EDITS {
        let named: Vec<String> = (repairs.iter())
            .map(|s| format!("ply {}: {}", s.ply, s.why))
            .collect();
        return named.join("; ");
    }
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for s in repairs {
        let kind = match s.edit {
            EditKind::Remove => "read as no move",
            _ => s.kind.describe(),
        };
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    // Stable: of kinds as common, the first made first.
    kinds.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} ({n})")).collect();
    let (first, last) = (repairs[0].ply, repairs[repairs.len() - 1].ply);
    format!(
        "{} edits from ply {first} to ply {last}, each marked by its {{was …}} comment: {}",
        repairs.len(),
        kinds.join(", ")
    )
}

/// The comment that marks a break's best reading: what was written and why, and any reading
/// that fares exactly as well.
fn note_of(brk: &Break) -> String {
    let Some(s) = brk.suggestions.first() else {
        return String::new();
    };
    let mut note = match s.edit {
        EditKind::Insert => format!("not in the record: {}", s.why),
        EditKind::Renumber => {
            "squares numbered from Red's side: [Numbering \"red\"] added".to_string()
        }
        _ => format!("was {}: {}", s.was, s.why),
    };
    for rival in brk.rivals() {
        note.push_str("; ");
        note.push_str(&rival.just_as_well(false));
    }
    note
}

/// The game with the repairs made, the `k`th marked by the comment `note(k)` where it stands.
fn edit(game: &Game, repairs: &[&Suggestion], note: impl Fn(usize) -> Option<String>) -> Game {
    let mut out = game.clone();
    out.mainline = edit_line(&game.mainline, repairs, note);
    out
}

/// A line of play (the main line or a variation) with the repairs made, marked as [`edit`] says.
fn edit_line(
    line: &Variation,
    repairs: &[&Suggestion],
    note: impl Fn(usize) -> Option<String>,
) -> Variation {
    let mut out = line.clone();
    let nodes = &line.moves;
    let mut moves: Vec<MoveNode> = Vec::with_capacity(nodes.len() + 2);
    let mut next = 0;
    // In the order of the record: a legal slip found at a later break may stand before a
    // separator mended on the way (decision 176).
    let mut ordered: Vec<(usize, &&Suggestion)> = repairs.iter().enumerate().collect();
    ordered.sort_by_key(|(_, s)| s.change.start);
    for (k, s) in ordered {
        let c = &s.change;
        moves.extend(nodes[next.min(c.start)..c.start].iter().cloned());
        let at = nodes
            .get(c.start)
            .or(nodes.last())
            .map_or(Span::default(), |n| {
                Span::new(n.span.start as usize, n.span.start as usize)
            });
        let first = moves.len();
        for (j, token) in c.inserted.iter().enumerate() {
            let node = match nodes.get(c.start + j).filter(|_| j < c.removed) {
                Some(n) => rewrite(n, token),
                None => rewrite(&MoveNode::new(None, Played::Pass, at), token),
            };
            moves.push(node);
        }
        if let Some(text) = note(k) {
            let comment = Comment { text, span: at };
            // A deletion's comment goes on the move before it.
            let target = first.min(moves.len().saturating_sub(1));
            match moves.get_mut(target) {
                Some(node) => node.extras_mut().comments.push(comment),
                None => out.comments.push(comment),
            }
        }
        next = c.start + c.removed;
    }
    moves.extend(nodes[next.min(nodes.len())..].iter().cloned());
    out.moves = moves;
    out
}

/// The variations of the main line that a reading of each of their breaks makes replay to their
/// end, mended and marked as the main line is, and their breaks (decision 85).
fn mend_variations(game: &Game, opts: &ReplayOptions) -> (Game, Vec<Break>) {
    let mut out = game.clone();
    let mut made = Vec::new();
    for (i, j, analysis) in variation_analyses(game, opts, MAX_BREAKS) {
        let whole = analysis.repairs().count() == analysis.breaks.len();
        let Some(variation) = game.mainline.moves[i].variations().get(j) else {
            continue;
        };
        if !analysis.replays_to_end || !whole || analysis.breaks.is_empty() {
            continue;
        }
        let repairs: Vec<&Suggestion> = analysis.repairs().collect();
        let mended = edit_line(variation, &repairs, |k| Some(note_of(&analysis.breaks[k])));
        if let Some(slot) = out.mainline.moves[i].variations_mut().get_mut(j) {
            *slot = mended;
        }
        made.extend(analysis.breaks);
    }
    if !made.is_empty() {
        let value = made
            .iter()
            .filter_map(|b| b.suggestions.first())
            .map(|s| format!("in a variation, ply {}: {}", s.ply, s.why))
            .collect::<Vec<_>>()
            .join("; ");
        match out.tags.iter_mut().find(|t| t.name == "Repairs") {
            Some(tag) => tag.value = format!("{}; {value}", tag.value),
            None => out.tags.push(Tag {
                name: "Repairs".into(),
                value,
                span: Span::default(),
            }),
        }
    }
    (out, made)
}

/// A written move made to say what `token` says, keeping its place, number and extras.
pub(crate) fn rewrite(node: &MoveNode, token: &Token) -> MoveNode {
    let span = node.span;
    let mut out = node.clone();
    out.played = match token.squares {
        None => Played::Pass,
        Some(w) => Played::Move {
            piece: w
                .piece
                .and_then(|id| Piece::new(Color::Green, id))
                .map(|p| Designator::of_piece(p, span)),
            from: w.from.map(|square| SquareRef { square, span }),
            to: SquareRef { square: w.to, span },
            separator: Separator::Omitted,
        },
    };
    if token.call != node.salta().is_some() {
        out.extras_mut().salta = token.call.then_some(span);
        out.extras = out.extras.take().and_then(|e| e.boxed());
    }
    out
}

/// What a record mended by reading its whole line at once says of itself (in its Repairs
/// tag and the report of `salta repair`).
pub const READ_WHOLE: &str = "read whole at once (the record breaks too often to read a break at a time): check each edit against the source";

/// A reading that costs this much (a slip and several characters misread, or none read) leaves
/// doubt enough for the record to be read whole too (decision 160).
const DOUBTFUL: f64 = SLIP + 8.0;

/// The edits `salta repair` makes at most by default: as many as the search reads. A page read
/// by OCR holds a slip every few moves, a game of 120 moves forty or more, and a search of each
/// break costs a millisecond or two (decisions 74, 80); a record that needs more is most often
/// no move list at all, read whole into moves made up (decision 211).
pub const DEFAULT_MAX_EDITS: usize = MAX_BREAKS;

/// The most `--max-edits` takes: more than a page read whole can need (it reads at most 1,000
/// tokens, each read once and a move or two put in before it), so that a long game read whole
/// can be mended when asked (decision 211).
pub const MAX_EDITS: usize = 3_000;

/// What `salta repair` makes of a game.
#[derive(Clone, Debug)]
pub enum Mended {
    /// The main line replays as written: nothing to repair.
    Sound,
    /// The game with its repairs made and marked, and its breaks in the order of the record, each
    /// repaired by its first suggestion (see [`Break::rivals`] for those that fare as well).
    Repaired(Game, Vec<Break>),
    /// No plausible repair within the edits allowed.
    Unrepairable(Unmended),
}

/// Why a game was left as written.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Unmended {
    /// The first error that breaks the main line.
    pub first: Finding,
    /// The breaks the search read, in order, each with its readings (the last may have none).
    pub breaks: Vec<Break>,
    /// The edits that would mend the record, where a repair was found that needs more than
    /// allowed.
    pub needed: Option<usize>,
}

impl Unmended {
    /// Why, in a sentence: how many breaks were read, and what `--max-edits` would mend them, or
    /// where the record breaks with no reading.
    pub fn reason(&self, max_edits: usize) -> String {
        let read = self
            .breaks
            .iter()
            .filter(|b| !b.suggestions.is_empty())
            .count();
        if let Some(needed) = self.needed {
            let more = match needed <= MAX_EDITS {
                true => format!("--max-edits {needed} would mend them"),
                false => format!("more than salta repair makes ({MAX_EDITS})"),
            };
            return format!(
                "{needed} breaks have readings that make the main line replay, more than the \
                 {max_edits} edits allowed: {more}"
            );
        }
        let stuck = self.breaks.iter().find(|b| b.suggestions.is_empty());
        match (read, stuck) {
            (0, _) => "no reading makes the main line replay past this break".to_string(),
            (n, Some(b)) => format!(
                "{n} break{} before ply {} {} readings, but none is found there",
                if n == 1 { "" } else { "s" },
                b.ply,
                if n == 1 { "has" } else { "have" }
            ),
            (n, None) => format!(
                "{n} breaks have readings, but the record breaks more often than the {MAX_BREAKS} \
                 a search reads"
            ),
        }
    }
}

/// The search's analysis with the close rivals of each break's best reading named in it.
fn named(mut analysis: Analysis) -> Analysis {
    for b in &mut analysis.breaks {
        name_close_rivals(&mut b.suggestions);
    }
    analysis
}

/// The most plausible repair of a game's main line with at most `max_edits` edits: each break
/// read by its best suggestion in turn, until the whole main line replays.
pub fn mend(game: &Game, opts: &ReplayOptions, max_edits: usize) -> Mended {
    mend_with(game, opts, max_edits, &MainReadings::default())
}

/// [`mend`], with the main line's costly readings kept in `readings` (made for this game), or
/// taken from there where they were made before (by [`annotate_with`](super::annotate_with)).
pub fn mend_with(
    game: &Game,
    opts: &ReplayOptions,
    max_edits: usize,
    readings: &MainReadings,
) -> Mended {
    let quiet = ReplayOptions {
        margins: MarginPolicy::Never,
        summary_only: true,
        ..opts.clone()
    };
    let Some(first) = replay(game, &quiet)
        .findings
        .into_iter()
        .find(breaks_main_line)
    else {
        // The last move taken for a move number, the game going on there (decision 183).
        let mut breaks = match game
            .warnings
            .iter()
            .any(|w| w.code == Code::DanglingMoveNumber)
        {
            true => named(readings.searched(game, opts)).breaks,
            false => Vec::new(),
        };
        let read;
        let base = match breaks.is_empty() {
            true => game,
            false => {
                read = apply_marked(game, &breaks);
                &read
            }
        };
        let (fixed, more) = mend_variations(base, opts);
        breaks.extend(more);
        return match breaks.is_empty() {
            true => Mended::Sound,
            false => Mended::Repaired(fixed, breaks),
        };
    };
    let mut analysis = named(readings.searched(game, opts));
    // A page where the search reading one break at a time is lost is read whole at once.
    let searched = analysis.mends_whole();
    if !searched && let Some(decoded) = readings.read_whole(game, opts) {
        analysis = decoded;
    }
    let mended = analysis.mends_whole();
    let unmended = |breaks, needed| {
        Mended::Unrepairable(Unmended {
            first: first.clone(),
            needed,
            breaks,
        })
    };
    if !mended || analysis.breaks.len() > max_edits {
        let needed = mended.then_some(analysis.breaks.len());
        return unmended(analysis.breaks, needed);
    }
    // The search replays with a cursor of its own; where it and the replayer disagree (a call
    // after a legal step under the no-blockade rule, which the cursor let pass), the game it
    // mended still breaks, and is no repair.
    let mut repaired = apply_marked(game, &analysis.breaks);
    // A reading of many characters misread or none may be wrong where the next break is near:
    // the page read whole decides where it reads clearly cheaper (decision 160).
    if searched
        && analysis.repairs().any(|s| s.cost >= DOUBTFUL)
        && let Some(decoded) = decode_better(game, &repaired, opts)
    {
        repaired = apply_marked(game, &decoded.breaks);
        analysis = decoded;
    }
    if replay(&repaired, &quiet)
        .findings
        .iter()
        .any(breaks_main_line)
    {
        return unmended(analysis.breaks, None);
    }
    let (repaired, more) = mend_variations(&repaired, opts);
    let mut breaks = analysis.breaks;
    breaks.extend(more);
    Mended::Repaired(repaired, breaks)
}
