//! The replay as a [`Visitor`]: each move is played as the reader hands it over, and no tree of
//! the game is built. A move is played once what is written after it is known (its "Salta!"
//! call, its variations, which start from the position before it), so findings come in the same
//! order as from [`replay`](super::replay) on the game's tree.

use super::replayer::{LineState, Replayer};
use super::{LastStart, LineReplay, MainLine, Replay, ReplayOptions, ReplayTags};
use crate::notation::{
    GameResult, GameStart, Moves, Notation, RawTag, RunMove, Skip, Span, TagList, Visitor, Warning,
    WrittenMove,
};
use crate::rules::{DefaultRules, OwnRules, RulesSource};
use std::ops::ControlFlow;

/// Replays each game as it is read, main line and variations, without building its tree: a
/// [`Visitor`] for [`Reader::read_game`](crate::notation::Reader::read_game) whose output is a
/// [`Streamed`] game. The replay is a summary ([`ReplayOptions::summary_only`]): findings,
/// outcome and the main line's moves, no per-move records. Reuse one `Replaying` for many games.
///
/// ```
/// use salta::notation::Reader;
/// use salta::replay::{Replaying, ReplayOptions, Status};
///
/// let text = "[Result \"*\"]\n\n1. 33-43 (1. 34-44) 83-73 2. 43-53 *\n";
/// let opts = ReplayOptions::default();
/// let mut replaying = Replaying::new(&opts);
/// let mut reader = Reader::new(text.as_bytes());
/// let game = reader.read_game(&mut replaying).unwrap().unwrap();
/// assert_eq!(game.replay.plies(), 3);
/// assert_eq!(game.replay.status(), Status::Valid);
/// ```
pub struct Replaying<'o> {
    opts: &'o ReplayOptions,
    /// Where the game stands in its file: offset, line, column and size.
    place: (u64, u32, u32, usize),
    /// The game's text, in a buffer reused from game to game.
    text: String,
    /// The game's tags, in a list with room for as many as the game before had (an archive's
    /// games mostly carry the same tags, and growing a list tag by tag costs more than reading
    /// them).
    tags: TagList,
    warnings: Vec<Warning>,
    /// How the replay began: the main line under way, or the whole replay of a game whose Setup
    /// tag cannot be read; `None` before the movetext.
    begun: Option<Result<MainLine<'o>, Box<Replay>>>,
    /// The main line and the variations open in it, innermost last.
    lines: Vec<Line>,
    /// The standard start position, kept from game to game.
    starts: LastStart,
    /// Whether the record's notation is known: its first main-line move other than a pass has
    /// been read ([`Game::notation`](crate::notation::Game::notation)).
    notation_known: bool,
}

/// Main-line moves reserved for a game: most games fit without the vector growing.
const MAINLINE_RESERVE: usize = 256;

/// A game replayed as it was read: where it stands in its file, its tags, what the reader
/// tolerated, and its replay (a summary: [`Replay::mainline`] is empty).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Streamed {
    /// Byte offset of the game's first byte in its file.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub line: u32,
    /// 1-based column of the game's first byte.
    pub column: u32,
    /// The length of the game's text in bytes (decoded to UTF-8).
    pub size: usize,
    /// Tags in the order read.
    pub tags: TagList,
    /// What the reader tolerated, as [`Game::warnings`](crate::notation::Game::warnings).
    pub warnings: Vec<Warning>,
    /// The replay.
    pub replay: Replay,
}

/// A line being replayed: where it stands before its last move read, and that move, held back
/// until what follows it is known.
struct Line {
    state: LineState,
    /// The last move read and the "Salta!" call after it.
    pending: Option<(WrittenMove, Option<Span>)>,
    /// A move could not be played (or, for a variation, there was no move to vary): the rest of
    /// the line is passed over, as the tree's replay stops there.
    stopped: bool,
}

impl<'o> Replaying<'o> {
    /// A visitor replaying under `opts` (the summary is kept whatever `summary_only` says).
    pub fn new(opts: &'o ReplayOptions) -> Replaying<'o> {
        Replaying {
            opts,
            place: (0, 0, 0, 0),
            text: String::new(),
            tags: TagList::default(),
            warnings: Vec::new(),
            begun: None,
            lines: Vec::new(),
            starts: LastStart::default(),
            notation_known: false,
        }
    }

    /// The text of the game last read (decoded to UTF-8), where its findings' spans point.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Begins the replay from the tags read (once).
    fn begin(&mut self) {
        if self.begun.is_some() {
            return;
        }
        let tags = ReplayTags::from(&self.tags);
        let begun = MainLine::begin(&tags, self.opts, MAINLINE_RESERVE, &mut self.starts);
        if let Ok(main) = &begun {
            self.lines.push(Line {
                state: main.state.clone(),
                pending: None,
                stopped: false,
            });
        }
        self.begun = Some(begun);
    }

    /// Learns the record's notation from main-line moves read, before any of them is played (the
    /// findings name moves and squares in it): from the first that is not a pass.
    fn learn_notation<'m>(&mut self, moves: impl Iterator<Item = RunMove<'m>>) {
        let Some(Ok(main)) = self.begun.as_mut() else {
            return;
        };
        for logged in moves {
            let notation = match logged {
                // Numeric squares: the reader logs only these so.
                RunMove::Numeric(..) => Some(Notation::Numeric),
                RunMove::Written(written) => Notation::of_move(&written.played, &self.text),
            };
            if let Some(notation) = notation {
                main.replayer.notation = notation;
                self.notation_known = true;
                return;
            }
        }
    }

    /// Plays the innermost line's held-back move.
    fn play_pending(&mut self) {
        let main_line = self.lines.len() == 1;
        let (Some(Ok(main)), Some(line)) = (self.begun.as_mut(), self.lines.last_mut()) else {
            return;
        };
        // Played where it lies, not moved out first: this runs once a ply.
        let Some((written, salta)) = &line.pending else {
            return;
        };
        let (_, flow) =
            main.replayer
                .step::<false>(written, *salta, &mut line.state, main_line, &self.text);
        line.pending = None;
        line.stopped = flow.is_break();
    }

    /// Closes the innermost line: its held-back move played, a call left without its correction
    /// reported.
    fn close_line(&mut self) -> Option<Line> {
        self.play_pending();
        let line = self.lines.pop()?;
        if let Some(Ok(main)) = self.begun.as_mut() {
            main.replayer.end_line(&line.state);
        }
        Some(line)
    }
}

impl Visitor for Replaying<'_> {
    type Output = Streamed;

    const RUNS: bool = true;

    fn begin_game(&mut self, game: GameStart<'_>) -> ControlFlow<Streamed> {
        self.place = (game.offset, game.line, game.column, game.text.len());
        self.text.clear();
        self.text.push_str(game.text);
        self.tags.clear();
        self.warnings = Vec::new();
        self.begun = None;
        self.lines.clear();
        self.notation_known = false;
        ControlFlow::Continue(())
    }

    fn warning(&mut self, warning: &Warning) -> ControlFlow<Streamed> {
        self.warnings.push(warning.clone());
        ControlFlow::Continue(())
    }

    fn tag(&mut self, tag: RawTag<'_>) -> ControlFlow<Streamed> {
        self.tags.push(tag.name(), &tag.value(), tag.span());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self) -> ControlFlow<Streamed, Skip> {
        self.begin();
        ControlFlow::Continue(Skip(self.lines.is_empty()))
    }

    fn played(&mut self, played: WrittenMove) -> ControlFlow<Streamed> {
        if !self.notation_known && self.lines.len() == 1 {
            self.learn_notation(std::iter::once(RunMove::Written(&played)));
        }
        self.play_pending();
        if let Some(line) = self.lines.last_mut()
            && !line.stopped
        {
            line.pending = Some((played, None));
        }
        ControlFlow::Continue(())
    }

    fn moves(&mut self, moves: Moves<'_>) -> ControlFlow<Streamed> {
        if !self.notation_known && self.lines.len() == 1 {
            let mut run = moves.clone();
            self.learn_notation(std::iter::from_fn(|| run.next_logged()));
        }
        self.play_pending();
        let main_line = self.lines.len() == 1;
        let (Some(Ok(main)), Some(line)) = (self.begun.as_mut(), self.lines.last_mut()) else {
            return ControlFlow::Continue(());
        };
        // One copy of the loop for the default rules, whose switches it then never tests, and
        // one for the main line, which keeps its moves.
        let (replayer, text) = (&mut main.replayer, self.text.as_str());
        match (
            *line.state.position.rules() == DefaultRules::RULES,
            main_line,
        ) {
            (true, true) => play_run::<true>(DefaultRules, replayer, line, moves, text),
            (true, false) => play_run::<false>(DefaultRules, replayer, line, moves, text),
            (false, true) => play_run::<true>(OwnRules, replayer, line, moves, text),
            (false, false) => play_run::<false>(OwnRules, replayer, line, moves, text),
        }
        ControlFlow::Continue(())
    }

    fn salta(&mut self, span: Span) -> ControlFlow<Streamed> {
        if let Some(line) = self.lines.last_mut()
            && let Some((_, call)) = line.pending.as_mut()
        {
            *call = Some(span);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _open: Span) -> ControlFlow<Streamed, Skip> {
        // An alternative to the held-back move, from the position before it (which is where the
        // line stands until that move is played).
        let branch = match self.lines.last() {
            Some(line) if !line.stopped && line.pending.is_some() => Line {
                state: line.state.branch(),
                pending: None,
                stopped: false,
            },
            Some(line) => Line {
                state: line.state.clone(),
                pending: None,
                stopped: true,
            },
            None => return ControlFlow::Continue(Skip(true)),
        };
        let skip = branch.stopped;
        self.lines.push(branch);
        ControlFlow::Continue(Skip(skip))
    }

    fn end_variation(&mut self) -> ControlFlow<Streamed> {
        if self.lines.len() > 1 {
            self.close_line();
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, result: Option<(GameResult, Span)>) -> Streamed {
        while self.lines.len() > 1 {
            self.close_line();
        }
        let main_line = self.close_line();
        let tags = ReplayTags::from(&self.tags);
        // A game without movetext begins here.
        let begun = (self.begun.take())
            .unwrap_or_else(|| MainLine::begin(&tags, self.opts, 0, &mut self.starts));
        let replay = match begun {
            Ok(mut main) => {
                if let Some(line) = main_line {
                    main.state = line.state;
                }
                main.finish(&tags, result, LineReplay::default())
            }
            Err(unplayable) => *unplayable,
        };
        let (offset, line, column, size) = self.place;
        let room = TagList::with_room_of(&self.tags);
        Streamed {
            offset,
            line,
            column,
            size,
            tags: std::mem::replace(&mut self.tags, room),
            warnings: std::mem::take(&mut self.warnings),
            replay,
        }
    }
}

/// Plays a run of moves on `line` (under the rules `source` gives) but its last, which is held
/// back; stops where a move cannot be played. `text` is the game's.
#[inline(always)]
fn play_run<const MAIN_LINE: bool>(
    source: impl RulesSource,
    replayer: &mut Replayer<'_>,
    line: &mut Line,
    run: Moves<'_>,
    text: &str,
) {
    if line.stopped {
        return;
    }
    // A copy of its own, which the loop keeps in registers (the run given stays in the reader's
    // memory, where each move would be written back).
    let mut moves = run.clone();
    while let Some(logged) = moves.next_logged() {
        if !moves.more() {
            line.pending = Some((logged.written(), None));
            break;
        }
        // Followed by the next move: played at once, not held back; a numeric move that is
        // plainly right without its written form made.
        if let RunMove::Numeric(numeric, number) = logged
            && replayer.step_plainly(source, numeric, number, &mut line.state, MAIN_LINE)
        {
            continue;
        }
        if step_in_run(
            replayer,
            &logged.written(),
            &mut line.state,
            MAIN_LINE,
            text,
        )
        .is_break()
        {
            line.stopped = true;
            return;
        }
    }
}

/// [`Replayer::step`] for a move of a run that is not plainly right (rare): kept out of the run's
/// loop, whose registers then serve the plain moves.
#[cold]
#[inline(never)]
fn step_in_run(
    replayer: &mut Replayer<'_>,
    played: &WrittenMove,
    state: &mut LineState,
    main_line: bool,
    text: &str,
) -> ControlFlow<()> {
    replayer
        .step::<false>(played, None, state, main_line, text)
        .1
}
