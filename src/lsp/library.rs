//! The few calls the server makes into the rest of the library: reading games, checking them,
//! their readings and repairs, their canonical text, and the positions along their lines. The
//! reader, the replayer and repair change under other hands; they reach the server only here.

use crate::board::Color;
use crate::diagnostic::{Code, Severity};
use crate::notation::{Game, MoveNode, Notation, Reader, Span, SyntaxError, Variation};
use crate::repair::{MainReadings, Mended, Suggestion};
use crate::replay::{LineReplay, MarginPolicy, ReplayOptions, replay, replay_part};
use crate::rules::{Move, Piece, Position};

/// A game as the reader cut it from the document: where it stands, and what was read.
pub(super) struct ReadGame {
    /// Byte offset of its first byte in the document.
    pub start: usize,
    /// Its text (what spans point into).
    pub text_len: usize,
    /// The game, or the error that broke it.
    pub read: Result<Game, SyntaxError>,
}

/// The games of `text`, a stretch of a document starting at byte `base` (at a game's start, or
/// the document's), read one at a time.
pub(super) fn read_games(text: &str, base: usize) -> impl Iterator<Item = ReadGame> + use<> {
    let reader = Reader::from_bytes(text.as_bytes().to_vec()).starting_at(base as u64, 1);
    reader.map(|read| {
        let (offset, len) = match &read {
            Ok(game) => (game.offset, game.text.len()),
            Err(e) => (e.source.offset, e.source.text().len()),
        };
        ReadGame {
            start: offset as usize,
            text_len: len,
            read,
        }
    })
}

/// One diagnostic of a game, its spans in the game's text.
#[derive(Clone, Debug)]
pub(super) struct Found {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// What to do about it (the finding's own help, or its code's advice).
    pub help: String,
    /// `None`: about the game as a whole.
    pub span: Option<Span>,
    /// A second place that explains the first.
    pub related: Option<(Span, String)>,
    /// Readings of a break of the main line, best first.
    pub suggestions: Vec<Suggestion>,
}

/// How strictly games are checked.
#[derive(Clone, Debug, Default)]
pub(super) struct CheckOptions {
    pub replay: ReplayOptions,
}

/// What checking a game quickly found: the reader's warnings and the replayer's findings (or,
/// for a game a syntax error broke, those of the part read before it, then the error), without
/// the costly part, which waits for a pause in the typing: the readings of a broken main line
/// and the exact count of a tagged margin. With it, whether the main line breaks, and whether
/// the costly part is still to do ([`check_fully`]).
pub(super) fn check(
    read: &Result<Game, SyntaxError>,
    opts: &CheckOptions,
) -> (Vec<Found>, bool, bool) {
    let quick = ReplayOptions {
        summary_only: true,
        margins: MarginPolicy::Never,
        ..opts.replay.clone()
    };
    let (game, findings) = match read {
        Ok(game) => (game, replay(game, &quick).findings().to_vec()),
        Err(e) => match e.before.as_deref() {
            Some(part) => (part, replay_part(part, &quick).findings().to_vec()),
            None => return (vec![syntax_error(e)], false, false),
        },
    };
    let broken = findings.iter().any(crate::repair::breaks_main_line);
    let replayed = findings.into_iter().map(|f| {
        let help = f.help.clone();
        of_finding(f, help)
    });
    let mut found = with_warnings(game, replayed.collect());
    match read {
        Ok(game) => {
            let margin = game.tag("Margin").is_some() && opts.replay.margins != MarginPolicy::Never;
            (found, broken, broken || margin)
        }
        Err(e) => {
            found.push(syntax_error(e));
            (found, broken, broken)
        }
    }
}

/// What `salta check` reports of a game: its findings with the readings of each break of the
/// main line, its tagged margin counted; of a game a syntax error broke, those of the part read
/// before it (nothing said of how it ends, which was not read), then the error. The costly
/// readings of a game read whole are kept in `readings`, for [`repaired`] to take.
pub(super) fn check_fully(
    read: &Result<Game, SyntaxError>,
    opts: &CheckOptions,
    readings: &MainReadings,
) -> Vec<Found> {
    let opts = ReplayOptions {
        summary_only: true,
        ..opts.replay.clone()
    };
    // The part before a syntax error is another game than the one `repaired` is asked of.
    let of_the_part = MainReadings::default();
    let (game, findings, readings) = match read {
        Ok(game) => (game, replay(game, &opts).findings().to_vec(), readings),
        Err(e) => match e.before.as_deref() {
            Some(part) => (
                part,
                replay_part(part, &opts).findings().to_vec(),
                &of_the_part,
            ),
            None => return vec![syntax_error(e)],
        },
    };
    let mut diagnoses = crate::repair::annotate_with(game, &opts, findings, readings);
    let error = read.as_ref().err();
    if error.is_some() {
        // The readings replay the part on: nothing about how it ends is said of it.
        diagnoses.retain(|d| !d.finding.about_the_end());
    }
    let replayed = diagnoses.into_iter().map(|d| {
        let help = d.help();
        Found {
            suggestions: d.readings,
            ..of_finding(d.finding, help)
        }
    });
    let mut found = with_warnings(game, replayed.collect());
    found.extend(error.map(syntax_error));
    found
}

/// The syntax error that broke a game.
fn syntax_error(e: &SyntaxError) -> Found {
    Found {
        code: e.code,
        severity: e.code.severity(),
        message: e.message.clone(),
        help: e.help.clone().unwrap_or_else(|| e.code.help().to_string()),
        span: Some(e.span),
        related: e.related.clone(),
        suggestions: Vec::new(),
    }
}

/// The reader's warnings about a game before the replay's findings, those the replay reports
/// too (a garbled move, at the same place) or a reading took into the move before them left to
/// the replay, which says more.
fn with_warnings(game: &Game, replayed: Vec<Found>) -> Vec<Found> {
    let replayed_too = |w: &crate::notation::Warning| {
        replayed
            .iter()
            .any(|f| f.code == w.code && f.span == Some(w.span))
    };
    let taken_in = |w: &crate::notation::Warning| {
        (replayed.iter()).any(|f| f.suggestions.first().is_some_and(|r| r.takes_in(w.span)))
    };
    let warnings = game
        .warnings
        .iter()
        .filter(|w| !replayed_too(w) && !taken_in(w));
    let mut found: Vec<Found> = warnings
        .map(|w| Found {
            code: w.code,
            // A move the reader could not read (`sgn::garbled-move`) is an error.
            severity: w.code.severity(),
            message: w.message.clone(),
            help: w.code.help().to_string(),
            span: Some(w.span),
            related: None,
            suggestions: Vec::new(),
        })
        .collect();
    found.extend(replayed);
    found
}

/// A replayer's finding with the help to show (its code's advice when it has none).
fn of_finding(f: crate::replay::Finding, help: Option<String>) -> Found {
    Found {
        code: f.code,
        severity: f.severity,
        help: help.unwrap_or_else(|| f.code.help().to_string()),
        message: f.message,
        span: f.span,
        related: None,
        suggestions: Vec::new(),
    }
}

/// The game as `salta repair` writes it, when it needs and has a repair: its canonical text
/// with every edit marked by a `{was …}` comment, and the readings it made (those [`check_fully`]
/// made of the game taken from `readings`).
pub(super) fn repaired(
    game: &Game,
    opts: &CheckOptions,
    readings: &MainReadings,
) -> Option<(String, Vec<String>)> {
    let max_edits = crate::repair::DEFAULT_MAX_EDITS;
    match crate::repair::mend_with(game, &opts.replay, max_edits, readings) {
        Mended::Repaired(fixed, breaks) => {
            let (fixed, _) = crate::export::structured::settled(fixed, &opts.replay);
            let options = crate::notation::WriteOptions::default().notation(game.notation());
            let written = crate::notation::write_game(&fixed, &options.numbered_as(&fixed));
            let readings = breaks
                .iter()
                .filter_map(|b| b.suggestions.first())
                .map(|s| format!("ply {}: {}", s.ply(), s.why()))
                .collect();
            Some((written.trim_end().to_string(), readings))
        }
        Mended::Sound | Mended::Unrepairable(_) => None,
    }
}

/// The game's canonical text (the writer's, in the record's own notation), or `None` for a
/// game the writer would renumber: one numbered from Red's side keeps its numbers.
pub(super) fn canonical(game: &Game) -> Option<String> {
    if game.numbered_from_red() {
        return None;
    }
    let options = crate::notation::WriteOptions::default().notation(game.notation());
    Some(
        crate::notation::write_game(game, &options)
            .trim_end()
            .to_string(),
    )
}

/// The game written in `text[..limit]` (a game's text cut at the cursor), as far as it reads:
/// variations left open are closed, and text that does not read (a comment left open, a move
/// half typed) is cut off, so that the moves before the cursor can be replayed while the rest
/// is being written.
pub(super) fn game_before(text: &str, limit: usize) -> Option<Game> {
    let mut limit = limit.min(text.len());
    while !text.is_char_boundary(limit) {
        limit -= 1;
    }
    let mut closing = 0usize;
    for _ in 0..8 {
        let mut prefix = text[..limit].to_string();
        for _ in 0..closing {
            prefix.push_str(" )");
        }
        match crate::notation::parse_str(&prefix).into_iter().next()? {
            Ok(game) if game.offset == 0 => return Some(game),
            Ok(_) => return None,
            Err(e) if e.code == Code::UnclosedVariation => closing += 1,
            Err(e) => {
                let cut = (e.source.offset as usize + e.span.start as usize).min(limit);
                if cut == 0 || cut >= limit {
                    return None;
                }
                limit = cut;
                while !text.is_char_boundary(limit) {
                    limit -= 1;
                }
            }
        }
    }
    None
}

/// One written move met on a walk through a game's lines.
pub(super) struct Ply<'g> {
    pub node: &'g MoveNode,
    /// The position before it.
    pub before: Position,
    /// The move on the board, when it could be played.
    pub played: Option<Move>,
    /// The piece that moved.
    pub piece: Option<Piece>,
    /// Ply (1-based from the game's start), move number and side.
    pub ply: u32,
    pub number: u32,
    pub side: Color,
    /// How deep in variations (0: the main line).
    pub depth: usize,
    /// The position after it (a move taken back by a "Salta!" call leaves it as it was).
    pub after: Position,
}

/// The replay of a game with its start position, for walking its lines.
pub(super) struct Replayed {
    replay: crate::replay::Replay,
}

impl Replayed {
    /// Replays the game (margins not counted: walking needs positions, not verdicts).
    pub fn new(game: &Game, opts: &CheckOptions) -> Replayed {
        let opts = opts
            .replay
            .clone()
            .margins(MarginPolicy::Never)
            .summary_only(false);
        Replayed {
            replay: replay(game, &opts),
        }
    }

    /// The position the game starts from.
    pub fn start(&self) -> Position {
        *self.replay.start()
    }

    /// Calls `visit` for every written move that was replayed, main line and variations, in the
    /// order written, with the line of moves that led to it (the main line's before its
    /// variations); stops when `visit` says so.
    pub fn walk<'g>(&self, game: &'g Game, visit: &mut dyn FnMut(&Ply<'g>, &[Ply<'g>]) -> bool) {
        let mut path = Vec::new();
        walk_line(
            &game.mainline,
            self.replay.mainline(),
            self.start(),
            0,
            &mut path,
            visit,
        );
    }
}

/// [`Replayed::walk`] over one line; false when the walk was stopped.
fn walk_line<'g>(
    line: &'g Variation,
    replayed: &LineReplay,
    start: Position,
    depth: usize,
    path: &mut Vec<Ply<'g>>,
    visit: &mut dyn FnMut(&Ply<'g>, &[Ply<'g>]) -> bool,
) -> bool {
    let mark = path.len();
    let mut before = start;
    for (node, m) in line.moves.iter().zip(&replayed.moves) {
        let after = match m.played {
            Some(mv) if !m.retracted => before.after(mv).unwrap_or(before),
            _ => before,
        };
        let ply = Ply {
            node,
            before,
            played: m.played,
            piece: m.piece,
            ply: m.ply,
            number: m.number,
            side: m.side,
            depth,
            after,
        };
        if !visit(&ply, &path[..]) {
            return false;
        }
        for (variation, replayed) in node.variations().iter().zip(&m.variations) {
            if !walk_line(variation, replayed, before, depth + 1, path, visit) {
                return false;
            }
        }
        path.push(ply);
        before = after;
    }
    path.truncate(mark);
    true
}

/// The notation a game writes its moves in, and whether it numbers from Red's side.
pub(super) fn style_of(game: &Game) -> (Notation, bool) {
    (game.notation(), game.numbered_from_red())
}
