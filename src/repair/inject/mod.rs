//! Slips injected into valid records, reproducibly by seed: the material of the repair tests and
//! benchmark. Each kind of [`SlipKind`] is made as a transcriber or an OCR engine would make it,
//! at a random written move (one slip, or two side by side or far apart), and the record written
//! out and read back as text.
//!
//! Not part of the library's promise: the module is public only so that the integration tests
//! and `benches/repair.rs` can reach it, and hidden from the documentation (decision 71).

mod chars;
mod judge;

pub use judge::{Mending, Verdict, judge, judge_mend, thread_cpu, trial_run, two_slip_run};

use super::mend::rewrite;
use super::slips::misreadings;
use super::token::{Token, Written};
use super::{SlipKind, breaks_main_line};
use crate::generate::{Rng, generate_game};
use crate::notation::{
    Game, MoveNode, Notation, Played, Span, WriteOptions, parse_str, write_game,
};
use crate::replay::{MarginPolicy, ReplayOptions, missed_jump_step, relaxed, replay};
use crate::rules::{Move, Position, Rules};

/// A record with one slip in it, or two.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Slipped {
    /// The kind of slip put in (the first, of two).
    pub kind: SlipKind,
    /// The kind of the second slip, if two were put in.
    pub second: Option<SlipKind>,
    /// The record with the slip, as read back from its text.
    pub game: Game,
    /// The main line the record had before the slip.
    pub meant: Vec<Move>,
    /// The written move (index in the slipped record) where the (first) slip stands.
    pub at: usize,
}

/// The records the repair tests and benchmark slip: the historical game first, then the games of
/// the synthetic corpus's default Salta file.
pub fn test_records(root: &std::path::Path) -> std::io::Result<Vec<Game>> {
    let mut games = Vec::new();
    for path in [
        "corpus/historical/krone-grotewold-1901.sgn",
        "corpus/synthetic/salta.sgn",
    ] {
        let text = std::fs::read_to_string(root.join(path))?;
        games.extend(parse_str(&text).into_iter().flatten());
    }
    Ok(games)
}

/// `count` games made by `salta generate` from `first_seed` on, with their Margin tags (records
/// the search was never tuned on, for a fresh measure).
pub fn generated_records(first_seed: u64, count: u64) -> Vec<Game> {
    (first_seed..first_seed + count)
        .map(|seed| generate_game(seed, Rules::default(), Some(Default::default())))
        // Generated moves are legal and a generated record is far within the reader's limits.
        .filter_map(|generated| generated.to_record().ok()?.build().ok())
        .collect()
}

/// Replay options of the repair tests' replays: strict, no margins.
pub fn quick_options() -> ReplayOptions {
    ReplayOptions {
        margins: MarginPolicy::Never,
        summary_only: true,
        ..ReplayOptions::default()
    }
}

/// Options of the search the repair tests and benchmark judge, as `check` has them by default:
/// strict, margins counted where a Margin tag is (the search counts them to break ties).
pub fn search_options() -> ReplayOptions {
    ReplayOptions {
        margins: MarginPolicy::WhenTagged,
        ..quick_options()
    }
}

/// A slipped record being made: its written moves, and for some the text written instead of
/// theirs (a character-level slip).
#[derive(Clone, Debug)]
struct Draft {
    tokens: Vec<Token>,
    texts: Vec<Option<String>>,
    /// A written move whose text runs on into the next move's ([`SlipKind::Merged`]): its text
    /// stands for both, and whatever stood between them (a move number) is gone.
    merged: Option<usize>,
}

impl Draft {
    fn remove(&mut self, i: usize) {
        self.tokens.remove(i);
        self.texts.remove(i);
        self.merged = self.merged.map(|m| if m > i { m - 1 } else { m });
    }

    fn insert(&mut self, i: usize, t: Token) {
        self.tokens.insert(i, t);
        self.texts.insert(i, None);
        self.merged = self.merged.map(|m| if m >= i { m + 1 } else { m });
    }
}

/// What a valid game offers the injector: its written moves, the main line, the start.
struct Source {
    tokens: Vec<Token>,
    meant: Vec<Move>,
    start: Position,
    style: Notation,
}

impl Source {
    fn of(game: &Game) -> Option<Source> {
        let replayed = replay(game, &quick_options());
        if replayed.findings.iter().any(breaks_main_line) {
            return None;
        }
        let tokens: Vec<Token> = game.mainline.moves.iter().map(Token::of).collect();
        if tokens.iter().any(|t| t.call) {
            return None;
        }
        Some(Source {
            tokens,
            meant: replayed.moves.clone(),
            start: replayed.start,
            style: game.notation(),
        })
    }

    fn draft(&self) -> Draft {
        Draft {
            tokens: self.tokens.clone(),
            texts: vec![None; self.tokens.len()],
            merged: None,
        }
    }
}

/// Injects a slip of `kind` into a valid `game` at a written move the seed picks, such that the
/// record still reads and no longer replays. `None` when the game has no place for such a slip
/// (a numeric slip in an algebraic record, a call in a game without a jump, ...).
pub fn inject(game: &Game, kind: SlipKind, seed: u64) -> Option<Slipped> {
    let source = Source::of(game)?;
    let mut rng = Rng::new(seed);
    if kind == SlipKind::MisplacedCall {
        // A record with a justified call to misplace: a step called before one of the jumps.
        let mut draft = source.draft();
        let at = called_step(&source.start, &mut draft, &source.meant, &mut rng)?;
        return (0..8).find_map(|_| {
            let mut slipped = draft.clone();
            misplace_call(&mut slipped, at, &mut rng)?;
            finish(game, &source, slipped, (kind, None), at)
        });
    }
    for _ in 0..40 {
        let i = rng.below(source.tokens.len().max(1));
        let mut draft = source.draft();
        let Some(at) = slip(kind, &mut draft, i, &source, &mut rng) else {
            continue;
        };
        if let Some(done) = finish(game, &source, draft, (kind, None), at) {
            return Some(done);
        }
    }
    None
}

/// Injects two slips, `first` and then `second` at a later written move: right after it
/// (`adjacent`: the next move or the one after) or at least 20 moves later. The slips act on the
/// record as written, the later one made first so that the earlier one's place stays.
pub fn inject_two(
    game: &Game,
    first: SlipKind,
    second: SlipKind,
    adjacent: bool,
    seed: u64,
) -> Option<Slipped> {
    let whole = [SlipKind::RedNumbering, SlipKind::MisplacedCall];
    if whole.contains(&first) || whole.contains(&second) {
        return None;
    }
    let source = Source::of(game)?;
    let n = source.tokens.len();
    let mut rng = Rng::new(seed);
    for _ in 0..60 {
        let gap = if adjacent {
            1 + rng.below(2)
        } else {
            20 + rng.below(40)
        };
        let i = rng.below(n.saturating_sub(gap + 3).max(1));
        let j = i + gap;
        let mut draft = source.draft();
        if slip(second, &mut draft, j, &source, &mut rng).is_none() {
            continue;
        }
        let Some(at) = slip(first, &mut draft, i, &source, &mut rng) else {
            continue;
        };
        if let Some(done) = finish(game, &source, draft, (first, Some(second)), at) {
            return Some(done);
        }
    }
    None
}

/// The record written with the draft's moves and texts, read back; kept when it reads and
/// breaks.
fn finish(
    game: &Game,
    source: &Source,
    draft: Draft,
    kinds: (SlipKind, Option<SlipKind>),
    at: usize,
) -> Option<Slipped> {
    let mut record = game.clone();
    record.mainline.comments.clear();
    record.mainline.moves = draft
        .tokens
        .iter()
        .map(|t| rewrite(&MoveNode::new(None, Played::Pass, Span::default()), t))
        .collect();
    record.tags.retain(|t| t.name != "Numbering");
    let mut text = write_game(&record, &WriteOptions::default().notation(source.style));
    if draft.texts.iter().any(Option::is_some) {
        let written = parse_str(&text).into_iter().next()?.ok()?;
        if written.mainline.moves.len() != draft.texts.len() {
            return None;
        }
        // From the last to the first, so that the earlier spans stay true.
        let nodes = &written.mainline.moves;
        for (k, patch) in draft.texts.iter().enumerate().rev() {
            if let Some(patch) = patch {
                let mut range = nodes[k].span.range();
                if draft.merged == Some(k) {
                    range.end = nodes.get(k + 1)?.span.range().end;
                }
                text.replace_range(range, patch);
            }
        }
    }
    let read = parse_str(&text).into_iter().next()?.ok()?;
    let breaks = replay(&read, &quick_options())
        .findings
        .iter()
        .any(breaks_main_line);
    breaks.then(|| Slipped {
        kind: kinds.0,
        second: kinds.1,
        game: read,
        meant: source.meant.clone(),
        at,
    })
}

/// Makes a slip of `kind` at written move `i` of the draft; where it stands, `None` when the move
/// allows no such slip.
fn slip(
    kind: SlipKind,
    draft: &mut Draft,
    i: usize,
    source: &Source,
    rng: &mut Rng,
) -> Option<usize> {
    let g = source.start.geometry();
    let style = source.style;
    let t = *draft.tokens.get(i)?;
    let w = t.squares?;
    if kind.is_characters()
        && !matches!(
            kind,
            SlipKind::DigitSwap
                | SlipKind::NeighbourDigit
                | SlipKind::GlyphDigit
                | SlipKind::AlgebraicMisread
        )
    {
        let written = t.text(g, style, false);
        draft.texts[i] = Some(chars::slip(kind, &written, rng)?);
        return Some(i);
    }
    match kind {
        SlipKind::DigitSwap
        | SlipKind::NeighbourDigit
        | SlipKind::GlyphDigit
        | SlipKind::AlgebraicMisread
        | SlipKind::RedSideSquare => {
            let numeric = style != Notation::Algebraic;
            let from_side = rng.below(2) == 0 && w.from.is_some();
            let square = if from_side { w.from? } else { w.to };
            let options = misreadings(kind, g, square, numeric);
            let read = *options.get(rng.below(options.len().max(1)))?;
            draft.tokens[i].squares = Some(if from_side {
                Written {
                    from: Some(read),
                    ..w
                }
            } else {
                Written { to: read, ..w }
            });
        }
        SlipKind::Reversed => {
            draft.tokens[i].squares = Some(Written {
                from: Some(w.to),
                to: w.from?,
                ..w
            });
        }
        SlipKind::RedNumbering => {
            if style == Notation::Algebraic {
                return None;
            }
            draft.tokens = draft.tokens.iter().map(|t| t.rotated(g)).collect();
            return Some(0);
        }
        SlipKind::Merged => {
            let next = *draft.tokens.get(i + 1)?;
            if next.squares.is_none()
                || draft.merged.is_some()
                || draft.texts[i..=i + 1] != [None, None]
            {
                return None;
            }
            let joined = t.text(g, style, false) + &next.text(g, style, false);
            draft.texts[i] = Some(joined);
            draft.merged = Some(i);
        }
        SlipKind::Dropped => draft.remove(i),
        SlipKind::Doubled => {
            draft.insert(i + 1, t);
            return Some(i + 1);
        }
        SlipKind::Transposed => {
            draft.tokens.get(i + 2)?;
            if draft.merged.is_some_and(|m| m + 1 >= i && m <= i + 2) {
                return None;
            }
            draft.tokens.swap(i, i + 2);
            draft.texts.swap(i, i + 2);
        }
        _ => return None,
    }
    Some(i)
}

/// Writes a called step before a jump of the record (the step a transcription of a "Salta!"
/// call records): returns the step's index, `None` when no jump had a step to miss it with.
fn called_step(
    start: &Position,
    draft: &mut Draft,
    moves: &[Move],
    rng: &mut Rng,
) -> Option<usize> {
    let mut pos = *start;
    let mut places = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        if m.is_jump() {
            let step = relaxed(&pos)
                .into_iter()
                .find(|&s| missed_jump_step(&pos, s).is_some());
            if let Some(step) = step {
                places.push((i, step));
            }
        }
        pos.play_unchecked(m);
    }
    let &(i, step) = places.get(rng.below(places.len().max(1)))?;
    let mut called = Token::of_move(step, start, Notation::Numeric);
    called.call = true;
    draft.insert(i, called);
    Some(i)
}

/// Moves the call at `at` one move on, one move back, or leaves it out.
fn misplace_call(draft: &mut Draft, at: usize, rng: &mut Rng) -> Option<()> {
    let tokens = &mut draft.tokens;
    tokens[at].call = false;
    match rng.below(3) {
        0 => {}
        1 => tokens.get_mut(at + 1)?.call = true,
        _ => tokens.get_mut(at.checked_sub(1)?)?.call = true,
    }
    Some(())
}
