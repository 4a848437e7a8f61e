//! The replayer: plays a game record through the rules engine and says, precisely, where it goes
//! wrong. It walks the syntax tree (main line and every variation) like a pgn-reader visitor and
//! collects findings with stable codes instead of stopping at the first.

use crate::board::{Color, Geometry};
use crate::diagnostic::Code;
use crate::notation::{
    Game, GameResult, MoveNode, MoveNumber, MoveText, Played, Separator, Span, Variation,
};
use crate::rules::margin::{Budget, Remaining};
use crate::rules::{
    Move, MoveKind, MoveLimit, Odds, Outcome, Piece, Position, Progress, Referee, Rules, Variant,
};

/// How strictly to replay, and what to override. Built from [`ReplayOptions::default`] with its
/// setters: `ReplayOptions::default().lenient(true).rules(rules)`.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ReplayOptions {
    /// Historical mode: an uncalled missed jump is a warning and the move stands.
    pub lenient: bool,
    /// Rules to use instead of the game's Rules tag.
    pub rules: Option<Rules>,
    /// The move limit: the game's MoveLimit tag, or one given instead of it.
    pub move_limit: MoveLimitOverride,
    /// When to count the margin of a finished game exactly (the costly part of a replay).
    pub margins: MarginPolicy,
    /// Effort allowed for each exact margin count.
    pub budget: Budget,
    /// Keep only what a check report needs: findings, outcome and the main line's moves.
    /// [`Replay::mainline`] is then left empty (building and dropping it per move is a good part
    /// of a long check's time).
    pub summary_only: bool,
}

impl ReplayOptions {
    /// Historical mode on or off (the field `lenient`).
    #[must_use]
    pub fn lenient(mut self, lenient: bool) -> ReplayOptions {
        self.lenient = lenient;
        self
    }

    /// Rules to use instead of the game's Rules tag (`None`: the tag's).
    #[must_use]
    pub fn rules(mut self, rules: impl Into<Option<Rules>>) -> ReplayOptions {
        self.rules = rules.into();
        self
    }

    /// The move limit to apply (the field `move_limit`).
    #[must_use]
    pub fn move_limit(mut self, move_limit: MoveLimitOverride) -> ReplayOptions {
        self.move_limit = move_limit;
        self
    }

    /// When to count margins exactly (the field `margins`).
    #[must_use]
    pub fn margins(mut self, margins: MarginPolicy) -> ReplayOptions {
        self.margins = margins;
        self
    }

    /// The effort allowed for each exact margin count (the field `budget`).
    #[must_use]
    pub fn budget(mut self, budget: Budget) -> ReplayOptions {
        self.budget = budget;
        self
    }

    /// Keep only what a check report needs (the field `summary_only`).
    #[must_use]
    pub fn summary_only(mut self, summary_only: bool) -> ReplayOptions {
        self.summary_only = summary_only;
        self
    }
}

/// Which move limit a replay applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveLimitOverride {
    /// The game's MoveLimit tag; no limit without one.
    #[default]
    FromTags,
    /// This limit, whatever the tag says.
    Limit(MoveLimit),
    /// No limit, whatever the tag says.
    Unlimited,
}

/// When the replayer counts margins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MarginPolicy {
    /// Only for games with a Margin tag to check.
    #[default]
    WhenTagged,
    /// For every finished game (the margin is then always reported, and a written one checked).
    Always,
    /// Never: a Margin tag is not checked against a count, and reports carry no margin.
    Never,
}

pub use crate::diagnostic::Severity;

/// One thing the replayer has to say about a game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// A stable code such as `salta::illegal-move`.
    pub code: Code,
    /// Whether the finding makes the game invalid.
    pub severity: Severity,
    /// What is wrong, in words.
    pub message: String,
    /// What would fix it, where that can be said (for an illegal move: the legal moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Where in the game's text, with a short label.
    #[serde(skip)]
    pub span: Option<Span>,
    /// The short label drawn under the span.
    #[serde(skip)]
    pub label: Option<String>,
    /// The ply (1-based, counted from the game's start) of the move concerned.
    pub ply: Option<u32>,
    /// The move number of the move concerned.
    pub move_number: Option<u32>,
    /// The side that made the move concerned.
    pub side: Option<Color>,
    /// Whether the finding is inside a variation rather than the main line.
    pub in_variation: bool,
    /// Readings of an error that breaks the main line, best first ([`crate::repair::annotate`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<crate::repair::Suggestion>,
    /// Later moves of the line that miss the same open jump again: reported only here.
    #[serde(skip_serializing_if = "is_zero")]
    pub repeats: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How a game fared overall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// No finding.
    Valid,
    /// Warnings only.
    Warnings,
    /// At least one error.
    Invalid,
}

impl Status {
    /// The status a game's findings give it: the worst severity decides.
    pub fn of(findings: &[Finding]) -> Status {
        match findings.iter().map(|f| f.severity).max() {
            Some(Severity::Error) => Status::Invalid,
            Some(Severity::Warning) => Status::Warnings,
            None => Status::Valid,
        }
    }
}

/// What became of one written move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MoveReplay {
    /// The move on the board; `None` when it could not be played (an error says why).
    pub played: Option<Move>,
    /// The piece that moved.
    pub piece: Option<Piece>,
    /// Ply of the move (1-based from the game's start).
    pub ply: u32,
    /// The move number.
    pub number: u32,
    /// The side that made the move.
    pub side: Color,
    /// This move was called with "Salta!" and taken back; the next move corrects it.
    pub retracted: bool,
    /// The replays of the variations given after the move, in order.
    pub variations: Vec<LineReplay>,
}

/// The replay of one line, move by move in the order written (moves after a fatal error are absent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LineReplay {
    /// The moves, in order.
    pub moves: Vec<MoveReplay>,
}

/// Everything the replayer found out about a game (read through its accessors).
#[derive(Clone, Debug)]
pub struct Replay {
    pub(crate) rules: Rules,
    pub(crate) start: Position,
    pub(crate) final_position: Position,
    pub(crate) moves: Vec<Move>,
    pub(crate) mainline: LineReplay,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) findings: Vec<Finding>,
}

impl Replay {
    /// The rules the game was replayed under (its tags and the options' overrides).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The moves of the main line that were played, in order (see [`Replay::positions`]).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The main line move by move, with variations (empty with [`ReplayOptions::summary_only`]).
    pub fn mainline(&self) -> &LineReplay {
        &self.mainline
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Everything found wrong or doubtful, in the order met.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The main line as played: for each ply (1-based), its move and the position after it. The
    /// position before the first move is [`Replay::start`].
    ///
    /// ```
    /// use salta::notation::parse_str;
    /// use salta::replay::{ReplayOptions, replay};
    ///
    /// let game = parse_str("1. 33-43 83-73 *\n").remove(0).unwrap();
    /// let replayed = replay(&game, &ReplayOptions::default());
    /// let after: Vec<String> = replayed
    ///     .positions()
    ///     .map(|(ply, m, pos)| format!("{ply}. {} {}", m.numeric(pos.geometry()), pos.side_to_move()))
    ///     .collect();
    /// assert_eq!(after, ["1. 33-43 Red", "2. 83-73 Green"]);
    /// ```
    pub fn positions(&self) -> impl Iterator<Item = (u32, Move, Position)> + '_ {
        let mut pos = self.start;
        self.moves.iter().zip(1..).map(move |(&m, ply)| {
            // Every move here was played by the replayer, after its own legality check.
            pos.play_unchecked(m);
            (ply, m, pos)
        })
    }

    /// How the game fared: the worst severity among its findings.
    pub fn status(&self) -> Status {
        Status::of(&self.findings)
    }

    /// Main-line plies played.
    pub fn plies(&self) -> u32 {
        self.moves.len() as u32
    }

    /// The position the game starts from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position after the last main-line move that could be played.
    pub fn final_position(&self) -> &Position {
        &self.final_position
    }

    /// The main-line position after `ply` plies (0: the start; past the end: the final position).
    pub fn position_at(&self, ply: u32) -> Position {
        self.positions()
            .take(ply as usize)
            .last()
            .map_or(self.start, |(_, _, pos)| pos)
    }
}

/// The rules a game declares (Rules, MoveLimit and Odds tags), with the options' overrides, and the
/// findings about tags that could not be read.
pub fn game_rules(game: &Game, opts: &ReplayOptions) -> (Rules, Vec<Finding>) {
    let mut findings = Vec::new();
    let mut rules = match (&opts.rules, find_tag(game, "Rules")) {
        (Some(r), _) => *r,
        (None, None) => Rules::default(),
        (None, Some((value, span))) => Rules::parse(value).unwrap_or_else(|e| {
            findings.push(tag_error(
                Code::BadTagValue,
                format!("Rules tag: {e}"),
                span,
                "the default Salta rules are used",
            ));
            Rules::default()
        }),
    };
    rules.move_limit = match (opts.move_limit, find_tag(game, "MoveLimit")) {
        (MoveLimitOverride::Limit(limit), _) => Some(limit),
        (MoveLimitOverride::Unlimited, _) => None,
        (MoveLimitOverride::FromTags, None) => None,
        (MoveLimitOverride::FromTags, Some((value, span))) => MoveLimit::parse(value)
            .unwrap_or_else(|e| {
                findings.push(tag_error(
                    Code::BadTagValue,
                    format!("MoveLimit tag: {e}"),
                    span,
                    "write [MoveLimit \"120\"], or [MoveLimit \"100/120\"] for Green's and Red's \
                 limits (rules.md §5); no move limit is applied",
                ));
                None
            }),
    };
    rules.odds = match find_tag(game, "Odds") {
        None => None,
        Some((value, span)) => Odds::parse(value).unwrap_or_else(|e| {
            findings.push(tag_error(
                Code::BadTagValue,
                format!("Odds tag: {e}"),
                span,
                "write [Odds \"red 3:2\"] for Red making 3 moves for every 2 of Green's (rules.md \
                 §5); the sides alternate instead",
            ));
            None
        }),
    };
    (rules, findings)
}

/// Replays a game: every move of the main line and of every variation.
#[must_use]
pub fn replay(game: &Game, opts: &ReplayOptions) -> Replay {
    let (rules, mut findings) = game_rules(game, opts);
    let start = match find_tag(game, "Setup") {
        None => Position::start(rules),
        Some((line, span)) => match Position::from_setup(line, rules) {
            Ok(pos) => pos,
            Err(e) => {
                findings.push(tag_error(
                    Code::BadSetup,
                    e.to_string(),
                    span,
                    "fix the Setup line (notation.md, \"Setup\")",
                ));
                return Replay {
                    rules,
                    start: Position::start(rules),
                    final_position: Position::start(rules),
                    moves: Vec::new(),
                    mainline: LineReplay::default(),
                    outcome: None,
                    findings,
                };
            }
        },
    };
    let mut replayer = Replayer {
        opts,
        findings,
        mainline_moves: Vec::with_capacity(game.mainline.moves.len()),
        open_miss: None,
    };
    let count_margins = match opts.margins {
        MarginPolicy::Always => true,
        MarginPolicy::WhenTagged => find_tag(game, "Margin").is_some(),
        MarginPolicy::Never => false,
    };
    let referee = Referee::new(&start, count_margins.then_some(opts.budget));
    let end = if opts.summary_only {
        replayer.line::<false>(&game.mainline, start, referee, 0, true)
    } else {
        replayer.line::<true>(&game.mainline, start, referee, 0, true)
    };
    let referee = end.referee;
    let outcome = referee.outcome_at_end_of_record();
    let mut replay = Replay {
        rules,
        start,
        final_position: end.position,
        moves: replayer.mainline_moves,
        mainline: end.replay,
        outcome,
        findings: replayer.findings,
    };
    check_result(game, &referee, &mut replay);
    replay
}

struct Replayer<'a> {
    opts: &'a ReplayOptions,
    findings: Vec<Finding>,
    mainline_moves: Vec<Move>,
    /// The main line's last missed jump: its finding, and the jumps it left open. A later move
    /// that misses one of them again is counted on that finding, not reported anew.
    open_miss: Option<OpenMiss>,
}

/// A missed jump on the main line: its finding, the jumps it left open and the finding's help.
struct OpenMiss {
    finding: usize,
    jumps: Vec<Move>,
    help: String,
}

/// How a line ended: its replay, the referee after its last move, and the position after the
/// last move that could be played.
struct LineEnd {
    replay: LineReplay,
    referee: Referee,
    position: Position,
}

/// Where in the game a move stands, for findings.
#[derive(Clone, Copy)]
struct At {
    ply: u32,
    number: u32,
    side: Color,
    span: Span,
    main: bool,
}

/// The ply of a move and whether it is on the main line: all a finding's place needs besides the
/// move and the position before it. Findings are rare, so [`At`] is only built for them.
#[derive(Clone, Copy)]
struct Here {
    ply: u32,
    main: bool,
}

impl Here {
    fn at(self, node: &MoveNode, pos: &Position) -> At {
        At {
            ply: self.ply,
            number: pos.move_number(),
            side: pos.side_to_move(),
            span: node.span,
            main: self.main,
        }
    }
}

impl Replayer<'_> {
    /// Replays a line from `pos`. `RECORD`: keep each move's [`MoveReplay`] (a constant, so that
    /// a summary replay builds none of them).
    fn line<const RECORD: bool>(
        &mut self,
        line: &Variation,
        mut pos: Position,
        mut referee: Referee,
        mut ply: u32,
        main: bool,
    ) -> LineEnd {
        let mut out = LineReplay {
            moves: Vec::with_capacity(if RECORD { line.moves.len() } else { 0 }),
        };
        let mut called: Option<(Move, At)> = None;
        for node in &line.moves {
            // Most moves have no variations: spare them the iterator machinery.
            let variations = if node.variations().is_empty() {
                Vec::new()
            } else {
                node.variations()
                    .iter()
                    .map(|v| {
                        self.line::<RECORD>(v, pos, referee.clone(), ply, false)
                            .replay
                    })
                    .collect()
            };
            let here = Here { ply: ply + 1, main };
            let mut record = MoveReplay {
                played: None,
                piece: None,
                ply: here.ply,
                number: pos.move_number(),
                side: pos.side_to_move(),
                retracted: false,
                variations,
            };
            if !referee.accepts_moves() {
                self.move_after_end(node, &pos, &referee, here);
                Self::keep::<RECORD>(&mut out, record);
                break;
            }
            if matches!(node.played, Played::Pass) && self.passes_at_limit(node, &pos, here) {
                let (number, side) = pos.turn().passed();
                record.played = Some(Move::PASS);
                record.number = number;
                record.side = side;
                Self::keep::<RECORD>(&mut out, record);
                continue;
            }
            self.check_number(node, &pos, here);
            // The move after a justified call is its correction.
            let correcting = called.take().is_some();
            let Some(candidate) = self.resolve(node, &pos, here) else {
                Self::keep::<RECORD>(&mut out, record);
                break;
            };
            record.piece = pos
                .piece_at(candidate.from)
                .filter(|_| candidate.kind != MoveKind::Pass);
            if let Some(call) = node.salta() {
                let at = At {
                    span: call,
                    ..here.at(node, &pos)
                };
                match self.judge_call(&pos, candidate) {
                    Ok(retracted) => {
                        record.played = Some(retracted);
                        record.retracted = true;
                        called = Some((retracted, at));
                        Self::keep::<RECORD>(&mut out, record);
                        continue;
                    }
                    Err(why) => {
                        let message = format!(
                            "\"Salta!\" is called after {}, but {why}",
                            self.written(node, &pos)
                        );
                        let help = "a call is only right after a step played while a jump was \
                                    compulsory; remove it";
                        self.error(at, Code::UnjustifiedCall, message, help);
                        Self::keep::<RECORD>(&mut out, record);
                        break;
                    }
                }
            }
            let Some((m, opponent_can_move)) =
                self.legalise(node, &pos, candidate, here, correcting)
            else {
                Self::keep::<RECORD>(&mut out, record);
                break;
            };
            record.played = Some(m);
            pos.play_unchecked(m);
            ply += 1;
            referee.after_move_where(&pos, opponent_can_move);
            if main {
                self.mainline_moves.push(m);
            }
            Self::keep::<RECORD>(&mut out, record);
        }
        if let Some((retracted, at)) = called {
            let g = pos.geometry();
            self.error(
                at,
                Code::MissingCorrection,
                format!(
                    "\"Salta!\" is called after {} but no correcting move follows",
                    retracted.numeric(g)
                ),
                "write the correcting jump right after the call",
            );
        }
        LineEnd {
            replay: out,
            referee,
            position: pos,
        }
    }

    /// Adds a move's record to its line, unless only a summary is wanted.
    #[inline(always)]
    fn keep<const RECORD: bool>(line: &mut LineReplay, record: MoveReplay) {
        if RECORD {
            line.moves.push(record);
        }
    }

    #[cold]
    fn move_after_end(&mut self, node: &MoveNode, pos: &Position, referee: &Referee, here: Here) {
        let why = referee
            .outcome()
            .map(|o| o.reason.describe())
            .unwrap_or("the game is over");
        let message = format!(
            "{} is played after the game has ended ({why})",
            self.written(node, pos)
        );
        let help = "the game ended with the previous move; remove the moves after it or put them \
                    in a variation";
        self.error(here.at(node, pos), Code::MoveAfterEnd, message, help);
    }

    /// The from- and to-squares a move token names, as a candidate move (kind guessed from the
    /// geometry), checking designators.
    #[inline(always)]
    fn resolve(&mut self, node: &MoveNode, pos: &Position, here: Here) -> Option<Move> {
        let g = pos.geometry();
        let (piece, from, to) = match node.played {
            Played::Pass => return Some(Move::PASS),
            Played::Move {
                piece, from, to, ..
            } => (piece, from, to),
        };
        let side = pos.side_to_move();
        let pyramid = pos.rules().variant == Variant::Pyramid;
        let named = piece
            .filter(|_| !pyramid)
            .and_then(|d| Piece::new(side, d.id()));
        let from_sq = match (from, named) {
            (Some(f), _) => f.square,
            (None, Some(p)) => match pos.square_of(p) {
                Some(sq) => sq,
                None => {
                    self.error(
                        here.at(node, pos),
                        Code::DesignatorMismatch,
                        format!(
                            "{} names {}, which is not on the board",
                            self.written(node, pos),
                            p.describe()
                        ),
                        "check the piece designator",
                    );
                    return None;
                }
            },
            (None, None) => {
                self.error(
                    here.at(node, pos),
                    Code::DesignatorMismatch,
                    format!(
                        "{} gives neither a from-square nor a piece",
                        self.written(node, pos)
                    ),
                    "write the from-square, e.g. 33-44",
                );
                return None;
            }
        };
        if let (Some(p), Some(_)) = (named, from) {
            let there = pos.piece_at(from_sq);
            if there != Some(p) {
                let stands = there
                    .map(|q| q.describe())
                    .unwrap_or_else(|| "no piece".to_string());
                self.error(
                    here.at(node, pos),
                    Code::DesignatorMismatch,
                    format!(
                        "{} names {}, but {stands} stands on {}",
                        self.written(node, pos),
                        p.describe(),
                        g.number(from_sq)
                    ),
                    "the designator and the from-square must name the same piece",
                );
                return None;
            }
        }
        if piece.is_some() && pyramid {
            self.warning(
                here.at(node, pos),
                Code::DesignatorMismatch,
                "Pyramid pieces are identical: the piece designator is ignored".to_string(),
                Some("Pyramid moves need only their squares".to_string()),
            );
        }
        let kind = if g.distance(from_sq, to.square) >= 2 {
            MoveKind::Jump
        } else {
            MoveKind::Step
        };
        Some(Move {
            from: from_sq,
            to: to.square,
            kind,
        })
    }

    /// Judges a "Salta!" call after `candidate`: returns the retracted move when the call is right.
    fn judge_call(&self, pos: &Position, candidate: Move) -> Result<Move, String> {
        let lax = relaxed(pos);
        let step = lax
            .iter()
            .find(|m| m.from == candidate.from && m.to == candidate.to && m.kind == MoveKind::Step);
        // rules.md §4: the call is right only if the step was illegal because a jump was
        // compulsory; the jump list alone does not say so (the no-blockade rule may turn the only
        // jumps into steps).
        match step {
            None => Err("that move is not a step the piece could make".to_string()),
            Some(_) if !pos.rules().compulsory => {
                Err("jumps are not compulsory under these rules, so none was missed".to_string())
            }
            Some(_) if pos.available_jumps().is_empty() => {
                Err("no jump was available, so none was missed".to_string())
            }
            Some(&m) if pos.find_legal(m.from, m.to).is_some() => Err(
                "the step was legal (no jump could be made without leaving the opponent without \
                 a move), so no jump was missed"
                    .to_string(),
            ),
            Some(&m) => Ok(m),
        }
    }

    /// Finds the written move among the legal ones, or explains why it is not there. With the
    /// move comes whether the opponent is known to be able to move after it.
    #[inline(always)]
    fn legalise(
        &mut self,
        node: &MoveNode,
        pos: &Position,
        candidate: Move,
        here: Here,
        correcting: bool,
    ) -> Option<(Move, bool)> {
        let found = match candidate.kind {
            MoveKind::Pass => pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.kind == MoveKind::Pass)
                .map(|m| (m, false)),
            _ => pos.find_legal_proving(candidate.from, candidate.to),
        };
        if let Some((m, opponent_can_move)) = found {
            self.check_separator(node, pos, m, here);
            return Some((m, opponent_can_move));
        }
        self.not_legal(node, pos, candidate, here, correcting)
            .map(|m| (m, false))
    }

    /// A written move that is not legal: a missed jump (which stands, with an error or in lenient
    /// mode a warning) or an illegal move (`None`), reported.
    #[cold]
    fn not_legal(
        &mut self,
        node: &MoveNode,
        pos: &Position,
        candidate: Move,
        here: Here,
        correcting: bool,
    ) -> Option<Move> {
        let g = pos.geometry();
        let legal = pos.legal_moves();
        let jumps = pos.available_jumps();
        let written = self.written(node, pos);
        // A step that only the compulsion forbids: a missed jump nobody called.
        let missed = missed_jump_step(pos, candidate).is_some();
        if missed && !correcting {
            let m = Move {
                kind: MoveKind::Step,
                ..candidate
            };
            if let Some(open) = self.open_miss.as_ref().filter(|_| here.main)
                && jumps.iter().any(|j| open.jumps.contains(j))
            {
                let first = &mut self.findings[open.finding];
                first.repeats += 1;
                let list = moves_text(&open.jumps, g);
                let later = match first.repeats {
                    1 => format!("1 later move also leaves {list} unplayed"),
                    n => format!("{n} later moves also leave {list} unplayed"),
                };
                first.help = Some(format!("{}\n{later}", open.help));
                return Some(m);
            }
            let list = moves_text(&jumps.sorted(g), g);
            let message =
                format!("{written} misses a compulsory jump ({list}) and no \"Salta!\" was called");
            let help = format!(
                "the jump {list} was compulsory; if the opponent called it, write `Salta!` after the move and the correcting jump"
            );
            if here.main {
                self.open_miss = Some(OpenMiss {
                    finding: self.findings.len(),
                    jumps: jumps.sorted(g),
                    help: help.clone(),
                });
            }
            if self.opts.lenient {
                self.warning(
                    here.at(node, pos),
                    Code::MissedJump,
                    format!("{message}; it stands as played (lenient mode)"),
                    Some(help),
                );
            } else {
                self.error(here.at(node, pos), Code::MissedJump, message, &help);
            }
            self.check_separator(node, pos, m, here);
            return Some(m);
        }
        let reason = self.why_illegal(pos, candidate);
        let mut help = format!("legal moves here: {}", moves_text(&legal.sorted(g), g));
        if !jumps.is_empty()
            && pos.rules().compulsory
            && legal.iter().any(|m| m.kind == MoveKind::Jump)
        {
            help = format!("a jump is compulsory: {}", moves_text(&legal.sorted(g), g));
        }
        let code = if correcting {
            Code::BadCorrection
        } else {
            Code::IllegalMove
        };
        self.error(
            here.at(node, pos),
            code,
            format!("{written} is not a legal move: {reason}"),
            &help,
        );
        None
    }

    fn why_illegal(&self, pos: &Position, m: Move) -> String {
        let g = pos.geometry();
        let side = pos.side_to_move();
        if m.kind == MoveKind::Pass {
            return "a pass is only allowed in Pyramid, for a side with no move, or for a side \
                    that has reached its move limit"
                .to_string();
        }
        match pos.piece_at(m.from) {
            None => return format!("there is no piece on {}", g.number(m.from)),
            Some(p) if p.color() != side => {
                return format!(
                    "{} stands on {}, and it is {side}'s move",
                    p.describe(),
                    g.number(m.from)
                );
            }
            _ => {}
        }
        if let Some(p) = pos.piece_at(m.to) {
            return format!("{} is occupied by {}", g.number(m.to), p.describe());
        }
        let same = |r: &Move| r.from == m.from && r.to == m.to;
        // Compulsion first: a step that only a compulsory jump forbids is refused for that, even
        // where the no-blockade rule would also refuse it.
        if relaxed(pos).iter().any(same) {
            return "a jump is compulsory here".to_string();
        }
        if relaxed_blockade(pos).iter().any(same) {
            return "it would leave the opponent without a move (no-blockade rule)".to_string();
        }
        let diagonal =
            g.file(m.from).abs_diff(g.file(m.to)) == g.rank(m.from).abs_diff(g.rank(m.to));
        match g.distance(m.from, m.to) {
            1 => "the piece may not step that way here".to_string(),
            2 if diagonal => {
                "there is no enemy piece to jump in that direction, or the piece may not jump that way".to_string()
            }
            _ => format!("{} and {} are not one diagonal step or jump apart", g.number(m.from), g.number(m.to)),
        }
    }

    /// Warns when the separator says jump for a step or step for a jump.
    #[inline(always)]
    fn check_separator(&mut self, node: &MoveNode, pos: &Position, m: Move, here: Here) {
        if let Played::Move { separator, .. } = node.played
            && separator != Separator::Omitted
            && m.is_jump() != (separator == Separator::Jump)
        {
            self.separator_warning(node, pos, m, here);
        }
    }

    #[cold]
    fn separator_warning(&mut self, node: &MoveNode, pos: &Position, m: Move, here: Here) {
        let (is, sep, written) = if m.is_jump() {
            ("a jump", ":", "a step separator")
        } else {
            ("a step", "-", "a jump separator")
        };
        self.warning(
            here.at(node, pos),
            Code::Separator,
            format!("the move is {is} but is written with {written}"),
            Some(format!("write it with `{sep}`")),
        );
    }

    /// Whether a written pass (`--`, in Salta or Winther) stands for the turn of a side that has
    /// reached its move limit (rules.md §5): the side not to move has, as the position hands its
    /// turns on by itself. The pass changes nothing; its number is checked as that turn's.
    #[cold]
    fn passes_at_limit(&mut self, node: &MoveNode, pos: &Position, here: Here) -> bool {
        let passer = pos.side_to_move().other();
        if pos.rules().variant == Variant::Pyramid || !pos.at_limit(passer) {
            return false;
        }
        let (number, side) = pos.turn().passed();
        let at = At {
            number,
            side,
            ..here.at(node, pos)
        };
        self.check_number_at(node, at);
        true
    }

    /// Warns when the written move number does not match the position.
    #[inline(always)]
    fn check_number(&mut self, node: &MoveNode, pos: &Position, here: Here) {
        if node.number.is_some() {
            self.check_number_at(node, here.at(node, pos));
        }
    }

    /// Warns when the written move number is not that of the turn `at`.
    fn check_number_at(&mut self, node: &MoveNode, at: At) {
        let Some(n) = node.number else { return };
        let ellipsis_ok = n.ellipsis == (at.side == Color::Red);
        if n.number != at.number || !ellipsis_ok {
            self.number_warning(n, at);
        }
    }

    #[cold]
    fn number_warning(&mut self, n: MoveNumber, at: At) {
        let expected = if at.side == Color::Red {
            format!("{}...", at.number)
        } else {
            format!("{}.", at.number)
        };
        let written = format!("{}{}", n.number, if n.ellipsis { "..." } else { "." });
        self.warning(
            At { span: n.span, ..at },
            Code::MoveNumber,
            format!("move number {written} does not match the game: this is {expected}"),
            Some(format!("write {expected}")),
        );
    }

    fn written(&self, node: &MoveNode, pos: &Position) -> String {
        let text = MoveText::as_written(&node.played, pos.geometry());
        let number = if pos.side_to_move() == Color::Green {
            format!("{}.", pos.move_number())
        } else {
            format!("{}...", pos.move_number())
        };
        format!("{number} {text}")
    }

    fn error(&mut self, at: At, code: Code, message: String, help: &str) {
        self.push(at, code, Severity::Error, message, Some(help.to_string()));
    }

    fn warning(&mut self, at: At, code: Code, message: String, help: Option<String>) {
        self.push(at, code, Severity::Warning, message, help);
    }

    fn push(
        &mut self,
        at: At,
        code: Code,
        severity: Severity,
        message: String,
        help: Option<String>,
    ) {
        self.findings.push(Finding {
            code,
            severity,
            message,
            help,
            span: Some(at.span),
            label: code.label().map(str::to_string),
            ply: Some(at.ply),
            move_number: Some(at.number),
            side: Some(at.side),
            in_variation: !at.main,
            suggestions: Vec::new(),
            repeats: 0,
        });
    }
}

/// The step `candidate` names when only the compulsory jump forbids it: a missed jump, which a
/// "Salta!" call retracts.
pub(crate) fn missed_jump_step(pos: &Position, candidate: Move) -> Option<Move> {
    if !pos.rules().compulsory || pos.available_jumps().is_empty() {
        return None;
    }
    relaxed(pos)
        .into_iter()
        .find(|m| m.from == candidate.from && m.to == candidate.to && m.kind == MoveKind::Step)
}

/// The legal moves if jumps were not compulsory.
pub(crate) fn relaxed(pos: &Position) -> Vec<Move> {
    with_rules(pos, |r| r.compulsory = false)
        .legal_moves()
        .as_slice()
        .to_vec()
}

/// The moves if the no-blockade rule were off.
fn relaxed_blockade(pos: &Position) -> Vec<Move> {
    with_rules(pos, |r| {
        r.blockade = false;
        r.compulsory = false;
    })
    .legal_moves()
    .as_slice()
    .to_vec()
}

fn with_rules(pos: &Position, change: impl FnOnce(&mut Rules)) -> Position {
    let mut rules = *pos.rules();
    change(&mut rules);
    pos.with_rules(rules)
}

fn moves_text(moves: &[Move], g: &Geometry) -> String {
    if moves.is_empty() {
        return "none".to_string();
    }
    moves
        .iter()
        .map(|m| m.numeric(g))
        .collect::<Vec<_>>()
        .join(", ")
}

fn find_tag<'g>(game: &'g Game, name: &str) -> Option<(&'g str, Span)> {
    game.tags
        .iter()
        .find(|t| t.name == name)
        .map(|t| (t.value.as_str(), t.span))
}

fn tag_error(code: Code, message: String, span: Span, help: &str) -> Finding {
    Finding {
        code,
        severity: Severity::Error,
        message,
        help: Some(help.to_string()),
        span: Some(span),
        label: code.label().map(str::to_string),
        ply: None,
        move_number: None,
        side: None,
        in_variation: false,
        suggestions: Vec::new(),
        repeats: 0,
    }
}

fn game_finding(
    code: Code,
    severity: Severity,
    message: String,
    help: Option<String>,
    span: Option<Span>,
) -> Finding {
    Finding {
        code,
        severity,
        message,
        help,
        span,
        label: code.label().map(str::to_string),
        ply: None,
        move_number: None,
        side: None,
        in_variation: false,
        suggestions: Vec::new(),
        repeats: 0,
    }
}

/// The result a finished game must carry.
pub fn result_of(outcome: &Outcome) -> GameResult {
    match outcome.winner {
        Some(Color::Green) => GameResult::GreenWins,
        Some(Color::Red) => GameResult::RedWins,
        None if outcome.reason == crate::rules::EndReason::Stuck => GameResult::Unknown,
        None => GameResult::Draw,
    }
}

/// Result tag, result token, replayed outcome and Margin tag must agree.
fn check_result(game: &Game, referee: &Referee, replay: &mut Replay) {
    let mut findings = Vec::new();
    let tag = find_tag(game, "Result");
    let tag_result = match tag {
        Some((value, span)) => match GameResult::parse(value) {
            Some(r) => Some((r, span)),
            None => {
                findings.push(tag_error(
                    Code::BadTagValue,
                    format!("Result tag {value:?} is not 1-0, 0-1, 1/2-1/2 or *"),
                    span,
                    "write one of 1-0, 0-1, 1/2-1/2, *",
                ));
                None
            }
        },
        None => None,
    };
    let token = game.result;
    if let (Some((t, tspan)), Some((k, _))) = (tag_result, token)
        && t != k
    {
        findings.push(game_finding(
            Code::ResultMismatch,
            Severity::Error,
            format!(
                "the Result tag says {} but the movetext ends with {}",
                t.as_str(),
                k.as_str()
            ),
            Some("make the tag and the result token agree".to_string()),
            Some(tspan),
        ));
    }
    let recorded = token.or(tag_result);
    match (replay.outcome, recorded) {
        (Some(outcome), Some((written, span))) if written != GameResult::Unknown => {
            let expected = result_of(&outcome);
            if expected != written {
                findings.push(game_finding(
                    Code::WrongResult,
                    Severity::Error,
                    format!(
                        "the game ends {} ({}), but the record says {}",
                        expected.as_str(),
                        outcome.reason.describe(),
                        written.as_str()
                    ),
                    Some(format!("the result should be {}", expected.as_str())),
                    Some(span),
                ));
            }
        }
        (Some(outcome), _) => {
            let expected = result_of(&outcome);
            if expected != GameResult::Unknown {
                findings.push(game_finding(
                    Code::ResultUnrecorded,
                    Severity::Warning,
                    format!(
                        "the game ends {} ({}), but no result is recorded",
                        expected.as_str(),
                        outcome.reason.describe()
                    ),
                    Some(format!(
                        "add [Result \"{}\"] and the result token",
                        expected.as_str()
                    )),
                    recorded.map(|r| r.1),
                ));
            }
        }
        (None, Some((written, span))) if written != GameResult::Unknown => {
            let why = match referee.progress() {
                Progress::Compensating(_) => {
                    "Green has completed and Red's compensating move is still to come"
                }
                _ => "the record ends before the game does",
            };
            findings.push(game_finding(
                Code::ResultNotReached,
                Severity::Warning,
                format!(
                    "{why}; the result {} is taken as recorded",
                    written.as_str()
                ),
                Some(
                    "a resignation or an agreed result cannot be checked against the rules"
                        .to_string(),
                ),
                Some(span),
            ));
        }
        _ => {}
    }
    if let Some((value, span)) = find_tag(game, "Margin") {
        findings.extend(check_margin(value, span, replay.outcome));
    }
    replay.findings.extend(findings);
}

/// What a Margin tag says against the replayed outcome: nothing when it agrees (or the game has no
/// counted margin), an error when it is proven wrong, a warning when only bounds are known.
fn check_margin(value: &str, span: Span, outcome: Option<Outcome>) -> Option<Finding> {
    let Ok(written) = value.trim().parse::<u32>() else {
        return Some(tag_error(
            Code::BadTagValue,
            format!("Margin tag {value:?} is not a whole number"),
            span,
            "write the points the game was won by, e.g. 27",
        ));
    };
    match outcome.and_then(|o| o.margin)? {
        Remaining::Exact(n) if n != written => Some(game_finding(
            Code::WrongMargin,
            Severity::Error,
            format!("the Margin tag says {written}, but the game was won by {n}"),
            Some(format!(
                "the margin is {n}: the loser's fewest remaining moves with its own pieces \
                 blocking (rules.md §5)"
            )),
            Some(span),
        )),
        Remaining::Bounds { lower, upper } => {
            let upper_text = upper.map_or("?".to_string(), |u| u.to_string());
            Some(if written < lower || upper.is_some_and(|u| written > u) {
                game_finding(
                    Code::WrongMargin,
                    Severity::Error,
                    format!(
                        "the Margin tag says {written}, outside the proven bounds \
                         {lower}–{upper_text}"
                    ),
                    None,
                    Some(span),
                )
            } else {
                game_finding(
                    Code::MarginUnproven,
                    Severity::Warning,
                    format!(
                        "the margin could only be bounded ({lower}–{upper_text}); the Margin tag \
                         {written} fits"
                    ),
                    Some("raise the search budget to prove it".to_string()),
                    Some(span),
                )
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Budget, MarginPolicy, ReplayOptions, replay};
    use crate::notation::parse_str;
    use std::path::Path;

    /// Every record of the corpus and the edge cases, valid or not.
    fn games() -> Vec<crate::notation::Game> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut games = Vec::new();
        for folder in ["corpus/edge-cases", "corpus/synthetic", "tests/edge-cases"] {
            let mut paths: Vec<_> = std::fs::read_dir(root.join(folder))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
                .collect();
            paths.sort();
            for path in paths {
                let text = std::fs::read_to_string(&path).unwrap();
                games.extend(parse_str(&text).into_iter().flatten());
            }
        }
        games
    }

    #[test]
    fn a_summary_replay_finds_what_a_full_replay_finds() {
        let games = games();
        assert!(games.len() > 20);
        let (mut recorded, mut with_findings) = (0, 0);
        for lenient in [false, true] {
            let full = ReplayOptions {
                lenient,
                margins: MarginPolicy::Always,
                // A budget in states only: a time limit would let a busy machine end the two
                // counts differently.
                budget: Budget {
                    max_states: 20_000,
                    max_time: None,
                },
                ..ReplayOptions::default()
            };
            let summary = ReplayOptions {
                summary_only: true,
                ..full.clone()
            };
            for game in &games {
                let (a, b) = (replay(game, &full), replay(game, &summary));
                assert_eq!(a.findings, b.findings);
                assert_eq!(a.outcome, b.outcome);
                assert_eq!(a.moves, b.moves);
                assert_eq!(a.final_position, b.final_position);
                assert!(b.mainline.moves.is_empty());
                recorded += a.mainline.moves.len();
                with_findings += usize::from(!a.findings.is_empty());
            }
        }
        assert!(recorded > 100, "a full replay keeps its records");
        assert!(with_findings > 10, "the records exercise the findings");
    }
}
