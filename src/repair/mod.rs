//! Transcription repair: from "this move is illegal" to "this is what the source meant".
//!
//! A record breaks at some written move. The search tries the edits that model the slips of
//! period transcriptions ([`SlipKind`]) at the breaking move and up to [`LOOK_BACK`] written
//! moves before it, and the misreadings of single moves further back within [`FAR_PLIES`] (a
//! slip that is itself a legal move is caught only later), replays the rest of the record after
//! each, and ranks them: how far the record then replays first, then whether its recorded result
//! holds, then whether its margin agrees with the Margin tag (counted only to tell such readings
//! apart), then the prior of the slip's kind, then the nearer edit. After the best repair of a
//! break the replay goes on, so every slip of a record is found in one run.
//!
//! The search works on the main line as a list of [`Token`]s (what each written move names) and
//! replays them with a cursor of its own that judges moves as [`crate::replay`] does but keeps no
//! findings; [`annotate`] then takes the findings of the real replayer and adds the suggestions.

pub mod inject;
mod slips;

pub use slips::{SlipKind, misreadings};

use crate::board::{Color, Geometry, Square};
use crate::diagnostic::Code;
use crate::notation::{
    Comment, Designator, Game, GameResult, MoveNode, MoveText, Notation, Played, Separator, Span,
    SquareRef, Tag, as_named,
};
use crate::replay::{Finding, MarginPolicy, ReplayOptions, Severity, missed_jump_step, replay};
use crate::rules::margin::{Budget, Remaining};
use crate::rules::{Move, MoveKind, Piece, Position, Referee, Variant};
use std::collections::HashSet;

/// How many written moves before the breaking one the search tries every kind of slip.
pub const LOOK_BACK: usize = 12;
/// Further back the search tries only misreadings (a legal slip may be caught 30 or more plies
/// later), one written move after another while the plies its trials replayed stay under this.
pub const FAR_PLIES: u64 = 20_000;
/// At most this many readings of a break have their margins counted against the Margin tag: those
/// that replay to the end with the recorded result (a count takes 0.3 ms typically).
pub const MARGIN_COUNTS: usize = 5;
/// The search states one such margin count may store (at most the replay options' budget).
pub const MARGIN_STATES: u64 = 100_000;
/// Suggestions shown per break, best first.
pub const MAX_SUGGESTIONS: usize = 5;
/// Breaks a record is searched for at most (each one searched costs a few milliseconds).
pub const MAX_BREAKS: usize = 20;

/// The replayer's codes for an error after which the main line cannot go on as written.
pub const BREAKING_CODES: [Code; 7] = [
    Code::IllegalMove,
    Code::MissedJump,
    Code::UnjustifiedCall,
    Code::MissingCorrection,
    Code::BadCorrection,
    Code::MoveAfterEnd,
    Code::DesignatorMismatch,
];

/// Whether a finding breaks the main line.
pub fn breaks_main_line(f: &Finding) -> bool {
    f.severity == Severity::Error && !f.in_variation && BREAKING_CODES.contains(&f.code)
}

/// What a written move names: its squares (or piece) and whether "Salta!" follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Token {
    /// `None`: a pass (`--`).
    pub squares: Option<Written>,
    /// Whether "Salta!" follows the move.
    pub call: bool,
}

/// The squares and piece of a written move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Written {
    /// The designator's piece identity, if one was written.
    pub piece: Option<u8>,
    /// The square written first, if any (a designator may stand in its place).
    pub from: Option<Square>,
    /// The square written last, where the piece goes.
    pub to: Square,
}

impl Token {
    /// What a written move of the syntax tree names.
    pub fn of(node: &MoveNode) -> Token {
        let squares = match node.played {
            Played::Pass => None,
            Played::Move {
                piece, from, to, ..
            } => Some(Written {
                piece: piece.map(|d| d.id()),
                from: from.map(|f| f.square),
                to: to.square,
            }),
        };
        Token {
            squares,
            call: node.salta().is_some(),
        }
    }

    /// A legal move as a record in `style` writes it.
    pub fn of_move(m: Move, pos: &Position, style: Notation) -> Token {
        let squares = (m.kind != MoveKind::Pass).then(|| Written {
            piece: pos
                .piece_at(m.from)
                .filter(|_| style == Notation::Piece && pos.rules().variant != Variant::Pyramid)
                .map(Piece::id),
            from: Some(m.from),
            to: m.to,
        });
        Token {
            squares,
            call: false,
        }
    }

    fn with_call(self, call: bool) -> Token {
        Token { call, ..self }
    }

    fn rotated(self, g: &Geometry) -> Token {
        Token {
            squares: self.squares.map(|w| Written {
                from: w.from.map(|s| g.rotate(s)),
                to: g.rotate(w.to),
                ..w
            }),
            ..self
        }
    }

    /// The move as a record in `style` writes it (`35-44`, `e3-f4`, `Su3-44`, with ` Salta!`),
    /// its squares numbered from Red's side if `from_red` ([`MoveText::from_red`]).
    pub fn text(&self, g: &Geometry, style: Notation, from_red: bool) -> String {
        let text = match self.squares {
            None => MoveText::pass(g),
            Some(w) => {
                let jump = w.from.is_some_and(|f| g.distance(f, w.to) >= 2);
                MoveText::of_parts(w.piece, w.from, w.to, jump, style, g).from_red(from_red)
            }
        };
        let mut out = text.to_string();
        if self.call {
            out.push_str(" Salta!");
        }
        out
    }
}

/// The move a token names in `pos`, its kind guessed from the distance (as the replayer does);
/// `None` when the designator names no piece there or contradicts the from-square.
fn resolve(t: &Token, pos: &Position) -> Option<Move> {
    let Some(w) = t.squares else {
        return Some(Move::PASS);
    };
    let g = pos.geometry();
    let named = w
        .piece
        .filter(|_| pos.rules().variant != Variant::Pyramid)
        .and_then(|id| Piece::new(pos.side_to_move(), id));
    let from = match (w.from, named) {
        (Some(f), Some(p)) if pos.piece_at(f) != Some(p) => return None,
        (Some(f), _) => f,
        (None, Some(p)) => pos.square_of(p)?,
        (None, None) => return None,
    };
    let kind = if g.distance(from, w.to) >= 2 {
        MoveKind::Jump
    } else {
        MoveKind::Step
    };
    Some(Move {
        from,
        to: w.to,
        kind,
    })
}

/// A replay in progress: the position, its referee, and whether the next move corrects a call.
#[derive(Clone, Debug)]
struct Cursor {
    pos: Position,
    referee: Referee,
    correcting: bool,
    plies: u32,
}

impl Cursor {
    /// Plays one written move as the replayer would; `false` where the replayer reports an error
    /// that breaks the main line (in lenient mode an uncalled missed jump stands).
    fn advance(&mut self, t: &Token, lenient: bool) -> bool {
        if !self.referee.accepts_moves() {
            return false;
        }
        let correcting = std::mem::take(&mut self.correcting);
        let Some(candidate) = resolve(t, &self.pos) else {
            return false;
        };
        if t.call {
            self.correcting = missed_jump_step(&self.pos, candidate).is_some();
            return self.correcting;
        }
        let found = match candidate.kind {
            MoveKind::Pass => self
                .pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.kind == MoveKind::Pass)
                .map(|m| (m, false)),
            _ => self.pos.find_legal_proving(candidate.from, candidate.to),
        };
        let played = match found {
            Some(found) => found,
            None if lenient && !correcting => match missed_jump_step(&self.pos, candidate) {
                Some(step) => (step, false),
                None => return false,
            },
            None => return false,
        };
        self.pos.play_unchecked(played.0);
        self.referee.after_move_where(&self.pos, played.1);
        self.plies += 1;
        true
    }

    /// Plays a missed jump as it stands (what the replayer does after reporting it).
    fn force_missed_jump(&mut self, t: &Token) -> bool {
        let step = resolve(t, &self.pos).and_then(|c| missed_jump_step(&self.pos, c));
        let Some(step) = step.filter(|_| !t.call && self.referee.accepts_moves()) else {
            return false;
        };
        self.correcting = false;
        self.pos.play_unchecked(step);
        self.referee.after_move(&self.pos);
        self.plies += 1;
        true
    }
}

/// A change to the main line: `removed` written moves from `start` replaced by `inserted`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Change {
    /// Index of the first written move changed.
    pub start: usize,
    /// How many written moves are taken out.
    pub removed: usize,
    /// The moves put in their place.
    pub inserted: Vec<Token>,
}

/// What an edit does, as the JSON report names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EditKind {
    /// A move read as another.
    Replace,
    /// A move left out, put back.
    Insert,
    /// A move written twice, once taken out.
    Delete,
    /// Two moves written in each other's place, swapped back.
    Swap,
    /// The record is numbered from Red's side: a Numbering tag to add.
    Renumber,
}

impl SlipKind {
    fn edit(self) -> EditKind {
        match self {
            SlipKind::Dropped => EditKind::Insert,
            SlipKind::Doubled => EditKind::Delete,
            SlipKind::Transposed => EditKind::Swap,
            SlipKind::RedNumbering => EditKind::Renumber,
            _ => EditKind::Replace,
        }
    }
}

/// One reading of a break, as `check` reports it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Suggestion {
    /// The ply (1-based from the game's start) of the first move the edit touches.
    pub ply: u32,
    /// What the edit does.
    pub edit: EditKind,
    /// The moves as they should read, in the record's notation (for `renumber`, the tag to add).
    pub text: String,
    /// The slip, in words.
    pub why: String,
    /// Plies of the record that replay after the edit: all of them when it replays to its end.
    pub replays: u32,
    /// The kind of slip the edit undoes.
    #[serde(skip)]
    pub kind: SlipKind,
    /// The edit, in written moves of the record as read.
    #[serde(skip)]
    pub change: Change,
    /// What was written where the edit stands (empty for an insertion).
    #[serde(skip)]
    pub was: String,
    /// The record then replays to its end.
    #[serde(skip)]
    pub to_end: bool,
    /// The result it then ends with, and whether it is the recorded one (`None`: not decided, or
    /// nothing recorded).
    #[serde(skip)]
    pub result: Option<(GameResult, bool)>,
    /// Its margin, where it was counted against the Margin tag (to tell tied readings apart).
    #[serde(skip)]
    pub margin: Option<MarginCount>,
    /// Plies between the edit and the move where the record broke.
    #[serde(skip)]
    pub back: u32,
    /// The move number where the edit stands (`8.` or `8...`).
    #[serde(skip)]
    pub number: String,
    /// It replays to the end with the recorded result and the record has a Margin tag, but
    /// margins were not counted (`--margins never`): the tag might tell it from a rival.
    #[serde(skip)]
    pub margin_uncounted: bool,
}

impl Suggestion {
    /// The reading in one sentence, after "did you mean" or "or", said at the move where the
    /// record breaks (an edit before it is counted back from it).
    pub fn reading(&self) -> String {
        self.described(false)
    }

    /// The reading in one sentence; `placed`: said wherever it stands, by its move number (in a
    /// comment of `salta repair`, away from the break).
    fn described(&self, placed: bool) -> String {
        let number = &self.number;
        let whole = match self.edit {
            EditKind::Renumber => format!("the tag {}", self.text),
            EditKind::Insert if placed => format!("{number} {} put in", self.text),
            EditKind::Insert => format!("{number} {} before it", self.text),
            EditKind::Delete if placed => format!("{number} {} once", self.was),
            EditKind::Delete => format!("{} once", self.was),
            EditKind::Swap => format!("{number} {}", self.text),
            _ if self.back > 0 || placed => format!("{number} {} for {}", self.text, self.was),
            _ => self.text.clone(),
        };
        let earlier = match (placed, self.back) {
            (true, _) | (false, 0) => String::new(),
            (false, 1) => ", 1 ply earlier".to_string(),
            (false, n) => format!(", {n} plies earlier"),
        };
        format!("{whole} ({}{earlier})", self.why)
    }

    /// This reading offered after the best one, which it fares exactly as well as (see
    /// [`Suggestion::equally_good`]), with why nothing decides between them. `at_break`: in the
    /// help of `check` at the breaking move, with what then happens; else placed by its move
    /// number, for the comment and report of `salta repair`.
    pub fn just_as_well(&self, at_break: bool) -> String {
        let undecided = if self.margin_uncounted {
            "these two cannot be told apart without counting the margin: --margins tagged may \
             settle it"
        } else {
            "the record cannot tell these two apart: see the source"
        };
        if at_break {
            format!(
                "or, just as well, {}: {} ({undecided})",
                self.reading(),
                self.consequence()
            )
        } else {
            format!("or, just as well, {}: {undecided}", self.described(true))
        }
    }

    /// Whether this reading fares exactly as `other` does: the same kind of edit and slip, and the
    /// record then replays as far and ends the same way. Nothing in the record prefers either.
    pub fn equally_good(&self, other: &Suggestion) -> bool {
        self.edit == other.edit
            && self.kind == other.kind
            && self.to_end == other.to_end
            && self.replays == other.replays
            && self.result == other.result
            && self.margin.map(|m| m.counted) == other.margin.map(|m| m.counted)
    }

    /// What then happens, for the help line.
    pub fn consequence(&self) -> String {
        if !self.to_end {
            return format!(
                "the record then replays {} plies and breaks again",
                self.replays
            );
        }
        let exact = self
            .margin
            .and_then(|m| m.counted.exact().map(|n| (n, m.recorded)));
        match (self.result, exact) {
            (Some((r, true)), Some((n, recorded))) if n == recorded => format!(
                "the game then replays to its end and its result {} and margin {n} hold",
                r.as_str()
            ),
            (Some((r, true)), Some((n, recorded))) => format!(
                "the game then replays to its end and its result {} holds, but it is won by \
                 {n}, not {recorded}",
                r.as_str()
            ),
            (Some((r, true)), None) => format!(
                "the game then replays to its end and its result {} holds",
                r.as_str()
            ),
            (Some((r, false)), _) => format!(
                "the game then replays to its end, but it ends {}, not as recorded",
                r.as_str()
            ),
            (None, _) => "the game then replays to its end".to_string(),
        }
    }
}

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

/// A reading's margin, counted, against the record's Margin tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarginCount {
    /// The margin the game is won by when read so.
    pub counted: Remaining,
    /// What the Margin tag says.
    pub recorded: u32,
}

impl MarginCount {
    /// Whether the count agrees with the tag; `None` when the margin could only be bounded and the
    /// bounds allow the tag's.
    pub fn agrees(&self) -> Option<bool> {
        match self.counted {
            Remaining::Exact(n) => Some(n == self.recorded),
            Remaining::Bounds { lower, upper } => {
                (self.recorded < lower || upper.is_some_and(|u| self.recorded > u)).then_some(false)
            }
            Remaining::Unreachable => None,
        }
    }
}

/// The Margin tag a search checks tied readings against, and the effort each count may take.
#[derive(Clone, Copy, Debug)]
struct MarginTag {
    recorded: u32,
    budget: Budget,
}

/// What a search has tried: each edit once, and how many plies its trials replayed.
#[derive(Default)]
struct Tried {
    edits: HashSet<Change>,
    plies: u64,
}

/// A main line under repair: its written moves now, where each came from in the record, and
/// the cursor before each move that replayed.
struct Line {
    style: Notation,
    /// The record numbers the squares from Red's side (`[Numbering "red"]`): its slips are made
    /// on those numbers, and its moves are written with them.
    from_red: bool,
    /// Each written move of the record as its text has it.
    written: Vec<String>,
    lenient: bool,
    tokens: Vec<Token>,
    /// The index in the record of each token (`None`: inserted by a repair).
    origin: Vec<Option<usize>>,
    states: Vec<Cursor>,
    /// Tokens before this index were changed by a repair: the search does not look back past it.
    fixed: usize,
    recorded: Option<GameResult>,
    /// `None`: no Margin tag, or margins are not counted (`--margins never`).
    margin: Option<MarginTag>,
    /// The record has a Margin tag, but margins are not counted (`--margins never`).
    margin_ignored: bool,
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
            && resolve(&token, &here).is_some_and(|c| missed_jump_step(&here, c).is_some());
        let cascade = missed
            && open_jump
                .as_ref()
                .is_some_and(|open| open.iter().any(|j| jumps.contains(j)));
        let suggestions = if cascade { Vec::new() } else { line.search(b) };
        let token = line.origin[b].unwrap_or(b);
        match suggestions.first() {
            Some(best) => {
                line.apply(&best.change);
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
    fn new(game: &Game, opts: &ReplayOptions) -> Option<Line> {
        let (rules, _) = crate::replay::game_rules(game, opts);
        let start = match game.tag("Setup") {
            None => Position::start(rules),
            Some(setup) => Position::from_setup(setup, rules).ok()?,
        };
        let tokens: Vec<Token> = game.mainline.moves.iter().map(Token::of).collect();
        // Rules given on the command line may name another board than the record was read on:
        // its squares then mean nothing there, and nothing is suggested.
        let g = start.geometry();
        let on_board = |w: &Written| g.contains(w.to) && w.from.is_none_or(|f| g.contains(f));
        if !tokens
            .iter()
            .filter_map(|t| t.squares.as_ref())
            .all(on_board)
        {
            return None;
        }
        let margin_tag: Option<u32> = game.tag("Margin").and_then(|v| v.trim().parse().ok());
        let counting = opts.margins != MarginPolicy::Never;
        Some(Line {
            style: game.notation(),
            from_red: game.numbered_from_red(),
            written: game
                .mainline
                .moves
                .iter()
                .map(|n| {
                    game.text
                        .get(n.span.range())
                        .unwrap_or_default()
                        .to_string()
                })
                .collect(),
            lenient: opts.lenient,
            origin: (0..tokens.len()).map(Some).collect(),
            tokens,
            states: vec![Cursor {
                pos: start,
                referee: Referee::new(&start, None),
                correcting: false,
                plies: 0,
            }],
            fixed: 0,
            recorded: game
                .result
                .map(|(r, _)| r)
                .or_else(|| game.tag("Result").and_then(GameResult::parse))
                .filter(|&r| r != GameResult::Unknown),
            margin: margin_tag.filter(|_| counting).map(|recorded| MarginTag {
                recorded,
                budget: opts
                    .budget
                    .max_states(opts.budget.max_states.min(MARGIN_STATES)),
            }),
            margin_ignored: margin_tag.is_some() && !counting,
        })
    }

    /// Replays from the last known cursor to the first move that breaks; `None` at the end.
    fn next_break(&mut self) -> Option<usize> {
        loop {
            let i = self.states.len() - 1;
            let mut cursor = self.states[i].clone();
            let Some(t) = self.tokens.get(i) else {
                // A call with no correction after it breaks at the call.
                return cursor.correcting.then(|| i - 1);
            };
            if !cursor.advance(t, self.lenient) {
                return Some(i);
            }
            self.states.push(cursor);
        }
    }

    fn force_missed_jump(&mut self, b: usize) -> bool {
        let mut cursor = self.states[b].clone();
        if b + 1 != self.states.len() || !cursor.force_missed_jump(&self.tokens[b]) {
            return false;
        }
        self.states.push(cursor);
        true
    }

    /// Replaces the tokens and forgets the cursors from the change on.
    fn apply(&mut self, change: &Change) {
        let end = change.start + change.removed;
        self.tokens
            .splice(change.start..end, change.inserted.iter().copied());
        let origins: Vec<Option<usize>> = if change.removed == change.inserted.len() {
            self.origin[change.start..end].to_vec()
        } else {
            vec![None; change.inserted.len()]
        };
        self.origin.splice(change.start..end, origins);
        self.states.truncate(change.start + 1);
        self.fixed = change.start + change.inserted.len();
    }

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

    /// The edits that read the move at token `i` as another single move: a square misread or
    /// read from Red's side, from and to reversed. Such a slip may itself be a legal move.
    fn misreadings_at(&self, i: usize, out: &mut Vec<(SlipKind, Change)>) {
        let g = self.states[i].pos.geometry();
        let t = self.tokens[i];
        let Some(w) = t.squares else {
            return;
        };
        let mut replace = |kind, squares: Written| {
            out.push((
                kind,
                Change {
                    start: i,
                    removed: 1,
                    inserted: vec![Token {
                        squares: Some(squares),
                        ..t
                    }],
                },
            ));
        };
        let numeric = self.style != Notation::Algebraic;
        // Slips are made on the squares as written: turned half round in a record numbered from
        // Red's side, and their readings turned back.
        let turn = |sq| as_named(sq, self.from_red, g);
        let misread = |kind, sq| {
            misreadings(kind, g, turn(sq), numeric)
                .into_iter()
                .map(turn)
        };
        for kind in [
            SlipKind::DigitSwap,
            SlipKind::NeighbourDigit,
            SlipKind::GlyphDigit,
            SlipKind::AlgebraicMisread,
            SlipKind::RedSideSquare,
        ] {
            if let Some(from) = w.from {
                for s in misread(kind, from) {
                    replace(kind, Written { from: Some(s), ..w });
                }
            }
            for s in misread(kind, w.to) {
                replace(kind, Written { to: s, ..w });
            }
        }
        if let Some(from) = w.from {
            let both = Written {
                from: Some(g.rotate(from)),
                to: g.rotate(w.to),
                ..w
            };
            replace(SlipKind::RedSideSquare, both);
            let reversed = Written {
                from: Some(w.to),
                to: from,
                ..w
            };
            replace(SlipKind::Reversed, reversed);
        }
    }

    /// The edits that model each kind of slip at token `i`.
    fn candidates_at(&self, i: usize, out: &mut Vec<(SlipKind, Change)>) {
        self.misreadings_at(i, out);
        let cursor = &self.states[i];
        let t = self.tokens[i];
        if cursor.referee.accepts_moves() {
            for &m in cursor.pos.legal_moves().iter() {
                out.push((
                    SlipKind::Dropped,
                    Change {
                        start: i,
                        removed: 0,
                        inserted: vec![Token::of_move(m, &cursor.pos, self.style)],
                    },
                ));
            }
        }
        let same = |j: usize| self.tokens[j].squares == t.squares;
        if (i >= 1 && same(i - 1)) || (i >= 2 && same(i - 2)) {
            out.push((
                SlipKind::Doubled,
                Change {
                    start: i,
                    removed: 1,
                    inserted: Vec::new(),
                },
            ));
        }
        if let Some(window) = self.tokens.get(i..i + 3)
            && window.iter().all(|t| !t.call)
        {
            out.push((
                SlipKind::Transposed,
                Change {
                    start: i,
                    removed: 3,
                    inserted: vec![window[2], window[1], window[0]],
                },
            ));
        }
        out.push((
            SlipKind::MisplacedCall,
            Change {
                start: i,
                removed: 1,
                inserted: vec![t.with_call(!t.call)],
            },
        ));
        if let Some(&next) = self.tokens.get(i + 1)
            && next.call != t.call
        {
            out.push((
                SlipKind::MisplacedCall,
                Change {
                    start: i,
                    removed: 2,
                    inserted: vec![t.with_call(next.call), next.with_call(t.call)],
                },
            ));
        }
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
                let dots = if pos.side_to_move() == Color::Green {
                    "."
                } else {
                    "..."
                };
                format!("{}{dots}", pos.move_number())
            },
            change: record_change,
            // Only such readings have their margins counted (see `weigh_margins`).
            margin_uncounted: self.margin_ignored
                && t.to_end
                && t.result.is_some_and(|(_, holds)| holds),
        }
    }
}

/// The findings of a replay with the suggestions added: every error that breaks the main line
/// gets its readings; after the best reading of a break the record is replayed on, so the
/// errors of later slips are reported too. `replayed` is the replay of the record as read.
pub fn annotate(game: &Game, opts: &ReplayOptions, replayed: Vec<Finding>) -> Vec<Finding> {
    if !replayed.iter().any(breaks_main_line) {
        return replayed;
    }
    let analysis = analyse(game, opts, MAX_BREAKS);
    let repaired: Vec<&Break> = analysis
        .breaks
        .iter()
        .filter(|b| !b.suggestions.is_empty())
        .collect();
    if repaired.is_empty() {
        return replayed;
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
        let at = game.mainline.moves[brk.token].span.start;
        let Some(mut finding) = findings
            .into_iter()
            .find(|f| breaks_main_line(f) && f.span.is_some_and(|s| s.start >= at))
        else {
            continue;
        };
        let mut help = finding.help.take().unwrap_or_default();
        for (n, s) in brk.suggestions.iter().enumerate() {
            if !help.is_empty() {
                help.push('\n');
            }
            if n == 0 {
                help.push_str(&format!(
                    "did you mean {}? {}",
                    s.reading(),
                    s.consequence()
                ));
            } else if s.equally_good(&brk.suggestions[0]) {
                // Two transpositions of moves that commute, say: only the source can decide.
                help.push_str(&s.just_as_well(true));
            } else {
                help.push_str(&format!("or {}: {}", s.reading(), s.consequence()));
            }
        }
        finding.help = Some(help);
        finding.suggestions = brk.suggestions.clone();
        found.push(finding);
    }
    let all: Vec<&Suggestion> = repaired
        .iter()
        .filter_map(|b| b.suggestions.first())
        .collect();
    let renumbered = all
        .iter()
        .find(|s| matches!(s.edit, EditKind::Insert | EditKind::Delete))
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
    found.extend(after.into_iter().filter(|f| {
        f.ply.is_some()
            && !(f.code == Code::MoveNumber
                && renumbered.is_some_and(|from| f.span.is_some_and(|s| s.start >= from)))
    }));
    found.extend(replayed.into_iter().filter(|f| f.ply.is_none()));
    found.sort_by_key(|f| (f.ply.is_none(), f.span.map(|s| s.start)));
    found
}

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
    let mut out = edit(game, &repairs, |k| {
        let s = repairs[k];
        let mut note = match s.edit {
            EditKind::Insert => format!("not in the record: {}", s.why),
            EditKind::Renumber => format!("squares were numbered from Red's side: {}", s.why),
            _ => format!("was {}: {}", s.was, s.why),
        };
        for rival in repaired[k].rivals() {
            note.push_str("; ");
            note.push_str(&rival.just_as_well(false));
        }
        Some(note)
    });
    if !repairs.is_empty() {
        let value = repairs
            .iter()
            .map(|s| format!("ply {}: {}", s.ply, s.why))
            .collect::<Vec<_>>()
            .join("; ");
        out.tags.push(Tag {
            name: "Repairs".into(),
            value,
            span: Span::default(),
        });
    }
    out
}

/// The game with the repairs made, the `k`th marked by the comment `note(k)` where it stands.
fn edit(game: &Game, repairs: &[&Suggestion], note: impl Fn(usize) -> Option<String>) -> Game {
    let mut out = game.clone();
    let nodes = &game.mainline.moves;
    let mut moves: Vec<MoveNode> = Vec::with_capacity(nodes.len() + 2);
    let mut next = 0;
    for (k, s) in repairs.iter().enumerate() {
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
                None => out.mainline.comments.push(comment),
            }
        }
        next = c.start + c.removed;
    }
    moves.extend(nodes[next.min(nodes.len())..].iter().cloned());
    out.mainline.moves = moves;
    out
}

/// A written move made to say what `token` says, keeping its place, number and extras.
fn rewrite(node: &MoveNode, token: &Token) -> MoveNode {
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

/// What `salta repair` makes of a game.
#[derive(Clone, Debug)]
pub enum Mended {
    /// The main line replays as written: nothing to repair.
    Sound,
    /// The game with its repairs made and marked, and its breaks in the order of the record, each
    /// repaired by its first suggestion (see [`Break::rivals`] for those that fare as well).
    Repaired(Game, Vec<Break>),
    /// No plausible repair within the edits allowed: the first error that breaks the main line.
    Unrepairable(Finding),
}

/// The most plausible repair of a game's main line with at most `max_edits` edits: each break
/// read by its best suggestion in turn, until the whole main line replays.
pub fn mend(game: &Game, opts: &ReplayOptions, max_edits: usize) -> Mended {
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
        return Mended::Sound;
    };
    let analysis = analyse(game, opts, max_edits);
    if !analysis.replays_to_end || analysis.repairs().count() < analysis.breaks.len() {
        return Mended::Unrepairable(first);
    }
    Mended::Repaired(apply_marked(game, &analysis.breaks), analysis.breaks)
}
