//! Slips injected into valid records, reproducibly by seed: the material of the repair tests and
//! benchmark. Each kind of [`SlipKind`] is made as a transcriber would make it, at a random
//! written move, and the record written out and read back as text.
//!
//! Not part of the library's promise: the module is public only so that the integration tests
//! and `benches/repair.rs` can reach it, and hidden from the documentation (decision 71).

use super::mend::rewrite;
use super::slips::misreadings;
use super::token::{Token, Written};
use super::{SlipKind, breaks_main_line};
use crate::generate::Rng;
use crate::notation::{
    Game, MoveNode, Notation, Played, Span, WriteOptions, parse_str, write_game,
};
use crate::replay::{MarginPolicy, ReplayOptions, missed_jump_step, relaxed, replay};
use crate::rules::{Move, Position};

/// A record with one slip in it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Slipped {
    /// The kind of slip put in.
    pub kind: SlipKind,
    /// The record with the slip, as read back from its text.
    pub game: Game,
    /// The main line the record had before the slip.
    pub meant: Vec<Move>,
    /// The written move (index in the slipped record) where the slip stands.
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

/// One slip of every kind into each game for each seed in `seeds`, judged.
pub fn trial_run(games: &[Game], seeds: std::ops::Range<u64>) -> Vec<(SlipKind, usize, Verdict)> {
    let mut out = Vec::new();
    for kind in SlipKind::ALL {
        for (g, game) in games.iter().enumerate() {
            for seed in seeds.clone() {
                if let Some(slipped) = inject(game, kind, seed * 1000 + g as u64) {
                    out.push((kind, g, judge(&slipped)));
                }
            }
        }
    }
    out
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

/// Injects a slip of `kind` into a valid `game` at a written move the seed picks, such that the
/// record still reads and no longer replays. `None` when the game has no place for such a slip
/// (a numeric slip in an algebraic record, a call in a game without a jump, ...).
pub fn inject(game: &Game, kind: SlipKind, seed: u64) -> Option<Slipped> {
    let opts = quick_options();
    let replayed = replay(game, &opts);
    if replayed.findings.iter().any(breaks_main_line) {
        return None;
    }
    let style = game.notation();
    let mut tokens: Vec<Token> = game.mainline.moves.iter().map(Token::of).collect();
    if tokens.iter().any(|t| t.call) {
        return None;
    }
    let meant = &replayed.moves;
    let start = replayed.start;
    let mut rng = Rng::new(seed);
    if kind == SlipKind::MisplacedCall {
        // A record with a justified call to misplace: a step called before one of the jumps.
        let at = called_step(&start, &mut tokens, meant, &mut rng)?;
        return (0..8).find_map(|_| {
            let slipped = misplace_call(&tokens, at, &mut rng)?;
            finish(game, style, kind, slipped, at, meant, &opts)
        });
    }
    for _ in 0..40 {
        let i = rng.below(tokens.len().max(1));
        let Some((slipped, at)) = slip(kind, &tokens, i, &start, style, &mut rng) else {
            continue;
        };
        if let Some(done) = finish(game, style, kind, slipped, at, meant, &opts) {
            return Some(done);
        }
    }
    None
}

/// The record written with `tokens`, read back; kept when it reads and breaks.
fn finish(
    game: &Game,
    style: Notation,
    kind: SlipKind,
    tokens: Vec<Token>,
    at: usize,
    meant: &[Move],
    opts: &ReplayOptions,
) -> Option<Slipped> {
    let mut record = game.clone();
    record.mainline.comments.clear();
    record.mainline.moves = tokens
        .iter()
        .map(|t| rewrite(&MoveNode::new(None, Played::Pass, Span::default()), t))
        .collect();
    record.tags.retain(|t| t.name != "Numbering");
    let text = write_game(&record, &WriteOptions { notation: style });
    let read = parse_str(&text).into_iter().next()?.ok()?;
    let breaks = replay(&read, opts).findings.iter().any(breaks_main_line);
    breaks.then(|| Slipped {
        kind,
        game: read,
        meant: meant.to_vec(),
        at,
    })
}

/// The written moves with a slip of `kind` at move `i`, and where it stands; `None` when the
/// move allows no such slip.
fn slip(
    kind: SlipKind,
    tokens: &[Token],
    i: usize,
    start: &Position,
    style: Notation,
    rng: &mut Rng,
) -> Option<(Vec<Token>, usize)> {
    let g = start.geometry();
    let mut out = tokens.to_vec();
    let t = *tokens.get(i)?;
    let w = t.squares?;
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
            out[i].squares = Some(if from_side {
                Written {
                    from: Some(read),
                    ..w
                }
            } else {
                Written { to: read, ..w }
            });
        }
        SlipKind::Reversed => {
            out[i].squares = Some(Written {
                from: Some(w.to),
                to: w.from?,
                ..w
            });
        }
        SlipKind::RedNumbering => {
            if style == Notation::Algebraic {
                return None;
            }
            return Some((out.iter().map(|t| t.rotated(g)).collect(), 0));
        }
        SlipKind::Dropped => {
            out.remove(i);
        }
        SlipKind::Doubled => {
            out.insert(i + 1, t);
            return Some((out, i + 1));
        }
        SlipKind::Transposed => {
            out.get(i + 2)?;
            out.swap(i, i + 2);
        }
        SlipKind::MisplacedCall => return None,
    }
    Some((out, i))
}

/// Writes a called step before a jump of the record (the step a transcription of a "Salta!"
/// call records): returns the step's index, `None` when no jump had a step to miss it with.
fn called_step(
    start: &Position,
    tokens: &mut Vec<Token>,
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
    tokens.insert(i, called);
    Some(i)
}

/// Moves the call at `at` one move on, one move back, or leaves it out.
fn misplace_call(tokens: &[Token], at: usize, rng: &mut Rng) -> Option<Vec<Token>> {
    let mut out = tokens.to_vec();
    out[at].call = false;
    match rng.below(3) {
        0 => {}
        1 => out.get_mut(at + 1)?.call = true,
        _ => out.get_mut(at.checked_sub(1)?)?.call = true,
    }
    Some(out)
}

/// How the repair search fared on a slipped record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verdict {
    /// The place (0: first) of the first suggestion that gives back the meant main line.
    pub rank: Option<usize>,
    /// The record broke only after the slip's own move (the slip was itself a legal move).
    pub caught_later: bool,
    /// How many readings fare exactly as the first one (itself included; see
    /// [`super::Suggestion::equally_good`]): more than one when the record cannot tell them
    /// apart, as when both reach the end with the same result and margin.
    pub tied: usize,
    /// The time the search took to find and read the break.
    pub search: std::time::Duration,
}

impl Verdict {
    /// The right reading is not first, but fares exactly as the first one: nothing in the record
    /// prefers either (a genuine tie, both offered).
    pub fn lost_tie(&self) -> bool {
        self.rank.is_some_and(|r| r > 0 && r < self.tied)
    }
}

/// Reads the first break of a slipped record and says whether its suggestions restore the main
/// line the record had before the slip.
pub fn judge(slipped: &Slipped) -> Verdict {
    let opts = quick_options();
    let started = std::time::Instant::now();
    let analysis = super::analyse(&slipped.game, &search_options(), 1);
    let search = started.elapsed();
    let Some(first) = analysis.breaks.first() else {
        return Verdict {
            rank: None,
            caught_later: false,
            tied: 0,
            search,
        };
    };
    let rank = first.suggestions.iter().position(|s| {
        let repaired = replay(&super::apply(&slipped.game, &[s]), &opts);
        repaired.moves == slipped.meant && !repaired.findings.iter().any(breaks_main_line)
    });
    // Readings that differ only in where they stand, each replaying to the end with the same
    // result and margin (two transpositions of moves that commute, say): nothing in the record
    // tells them apart.
    let tied = match first.suggestions.split_first() {
        Some((best, rest)) if best.to_end => {
            1 + rest.iter().take_while(|s| s.equally_good(best)).count()
        }
        Some(_) => 1,
        None => 0,
    };
    Verdict {
        rank,
        caught_later: first.token > slipped.at,
        tied,
        search,
    }
}
