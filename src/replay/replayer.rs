//! The replayer proper: one written move at a time against the position, with the findings it
//! makes. [`Replayer::line`] walks a line of the tree (and its variations);
//! [`Replayer::step`] is one move, which the streaming replay calls as the moves are read.

use super::{Finding, LineReplay, MoveReplay, ReplayOptions, Severity};
use crate::board::{Color, Geometry, Square};
use crate::diagnostic::Code;
use crate::notation::{
    MoveNumber, MoveText, Notation, NumericMove, Played, Separator, Span, Variation, WrittenMove,
    as_named,
};
use crate::rules::{
    Move, MoveKind, OwnRules, Piece, Position, Referee, Rules, RulesSource, Variant,
};
use std::ops::ControlFlow;

pub(super) struct Replayer<'a> {
    opts: &'a ReplayOptions,
    pub(super) findings: Vec<Finding>,
    pub(super) mainline_moves: Vec<Move>,
    /// The main line's last missed jump: its finding, and the jumps it left open. A later move
    /// that misses one of them again is counted on that finding, not reported anew.
    open_miss: Option<OpenMiss>,
    /// The record's notation ([`Game::notation`](crate::notation::Game::notation)), in which the
    /// findings name moves and squares.
    pub(super) notation: Notation,
    /// Whether the record numbers the squares from Red's side: the findings then name them so.
    pub(super) from_red: bool,
}

/// A missed jump on the main line: its finding, the jumps it left open and the finding's help.
struct OpenMiss {
    finding: usize,
    jumps: Vec<Move>,
    help: String,
}

/// Where a line of play stands: the position after its last move that could be played, the
/// referee, the plies played since the game's start, a "Salta!" call waiting for its
/// correcting move, and whether a written move could not be played (the line stopped there).
#[derive(Clone)]
pub(super) struct LineState {
    pub(super) position: Position,
    pub(super) referee: Referee,
    ply: u32,
    called: Option<(Move, At)>,
    pub(super) stopped: bool,
    /// The plies played when a pass of a side at its limit was last written.
    passed_at: Option<u32>,
}

impl LineState {
    /// A line starting at the game's start.
    pub(super) fn new(position: Position, referee: Referee) -> LineState {
        LineState {
            position,
            referee,
            ply: 0,
            called: None,
            stopped: false,
            passed_at: None,
        }
    }

    /// A variation's start: where this line stands, without its pending call (the call is
    /// about the move the variation replaces).
    pub(super) fn branch(&self) -> LineState {
        LineState {
            called: None,
            ..self.clone()
        }
    }
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
    fn at(self, node: &WrittenMove, pos: &Position) -> At {
        At {
            ply: self.ply,
            number: pos.move_number(),
            side: pos.side_to_move(),
            span: node.span,
            main: self.main,
        }
    }
}

impl<'a> Replayer<'a> {
    /// A replayer with the findings made before the first move (about the tags); `moves` is room
    /// for the main line's moves.
    pub(super) fn new(opts: &'a ReplayOptions, findings: Vec<Finding>, moves: usize) -> Self {
        Replayer {
            opts,
            findings,
            mainline_moves: Vec::with_capacity(moves),
            open_miss: None,
            notation: Notation::Numeric,
            from_red: false,
        }
    }

    /// Replays a line of the tree from `state`, each move's variations from the position before
    /// it; `text` is the game's. `RECORD`: keep each move's [`MoveReplay`] (a constant, so that a
    /// summary replay builds none of them).
    pub(super) fn line<const RECORD: bool>(
        &mut self,
        line: &Variation,
        state: &mut LineState,
        main: bool,
        text: &str,
    ) -> LineReplay {
        let mut out = LineReplay {
            moves: Vec::with_capacity(if RECORD { line.moves.len() } else { 0 }),
        };
        for node in &line.moves {
            // Most moves have no variations: spare them the iterator machinery.
            let variations = if node.variations().is_empty() {
                Vec::new()
            } else {
                node.variations()
                    .iter()
                    .map(|v| self.line::<RECORD>(v, &mut state.branch(), false, text))
                    .collect()
            };
            let written = WrittenMove {
                number: node.number,
                played: node.played,
                span: node.span,
            };
            let (record, flow) = self.step::<RECORD>(&written, node.salta(), state, main, text);
            if let Some(mut record) = record {
                record.variations = variations;
                out.moves.push(record);
            }
            if flow.is_break() {
                break;
            }
        }
        self.end_line(state);
        out
    }

    /// Plays one written move (with the "Salta!" call written after it, if any) on the line of
    /// the game whose text is `text`: what became of it (only when `RECORD`), and whether the
    /// line can go on.
    #[inline(always)]
    pub(super) fn step<const RECORD: bool>(
        &mut self,
        node: &WrittenMove,
        salta: Option<Span>,
        state: &mut LineState,
        main: bool,
        text: &str,
    ) -> (Option<MoveReplay>, ControlFlow<()>) {
        let (record, flow) = self.play_written::<RECORD>(node, salta, state, main, text);
        state.stopped |= flow.is_break();
        (record, flow)
    }

    /// [`Replayer::step`] but for noting that the line stopped.
    #[inline(always)]
    fn play_written<const RECORD: bool>(
        &mut self,
        node: &WrittenMove,
        salta: Option<Span>,
        state: &mut LineState,
        main: bool,
        text: &str,
    ) -> (Option<MoveReplay>, ControlFlow<()>) {
        let pos = &mut state.position;
        let here = Here {
            ply: state.ply + 1,
            main,
        };
        // A summary keeps no record: the hot path builds none.
        let mut record = RECORD.then(|| MoveReplay {
            played: None,
            piece: None,
            ply: here.ply,
            number: pos.move_number(),
            side: pos.side_to_move(),
            retracted: false,
            variations: Vec::new(),
        });
        if let Played::Garbled = node.played {
            self.garbled(node, pos, here, text);
            return (record, ControlFlow::Break(()));
        }
        if !state.referee.accepts_moves() {
            self.move_after_end(node, pos, &state.referee, here);
            return (record, ControlFlow::Break(()));
        }
        // One pass a turn passed over, written where that turn falls (decision 149).
        if matches!(node.played, Played::Pass)
            && state.passed_at != Some(state.ply)
            && self.passes_at_limit(node, pos, here)
        {
            state.passed_at = Some(state.ply);
            if let Some(record) = &mut record {
                (record.number, record.side) = pos.turn().passed();
                record.played = Some(Move::PASS);
            }
            return (record, ControlFlow::Continue(()));
        }
        self.check_number(node, pos, here);
        // The move after a justified call is its correction.
        let correcting = state.called.take().is_some();
        let Some(candidate) = self.resolve(node, pos, here) else {
            return (record, ControlFlow::Break(()));
        };
        if let Some(record) = &mut record {
            record.piece = pos
                .piece_at(candidate.from)
                .filter(|_| candidate.kind != MoveKind::Pass);
        }
        if let Some(call) = salta {
            let at = At {
                span: call,
                ..here.at(node, pos)
            };
            match self.judge_call(pos, candidate) {
                Ok(retracted) => {
                    if let Some(record) = &mut record {
                        record.played = Some(retracted);
                        record.retracted = true;
                    }
                    state.called = Some((retracted, at));
                    return (record, ControlFlow::Continue(()));
                }
                Err(why) => {
                    let message = format!(
                        "\"Salta!\" is called after {}, but {why}",
                        self.written(node, pos)
                    );
                    let help = "a call is only right after a step played while a jump was \
                                compulsory; remove it";
                    self.error(at, Code::UnjustifiedCall, message, help);
                    return (record, ControlFlow::Break(()));
                }
            }
        }
        let Some((m, opponent_can_move)) = self.legalise(node, pos, candidate, here, correcting)
        else {
            return (record, ControlFlow::Break(()));
        };
        if let Some(record) = &mut record {
            record.played = Some(m);
        }
        self.play(OwnRules, m, opponent_can_move, state, main);
        (record, ControlFlow::Continue(()))
    }

    /// [`Replayer::step`] for a numeric move (with its move number) when it is plainly right:
    /// the game goes on, no call waits for its correction, the number (if any) is the turn's, the
    /// move is legal and written with the separator of its kind. Then it is played, with no
    /// [`WrittenMove`] made of it and nothing to report, as `step` would; otherwise nothing is
    /// done and `false` returned, for `step` to replay the move and say what is wrong. `source`
    /// gives the line's rules.
    #[inline(always)]
    pub(super) fn step_plainly(
        &mut self,
        source: impl RulesSource,
        numeric: &NumericMove,
        number: Option<&MoveNumber>,
        state: &mut LineState,
        main: bool,
    ) -> bool {
        let pos = &state.position;
        if !state.referee.accepts_moves()
            || state.called.is_some()
            || number.is_some_and(|&n| !number_fits(n, pos.move_number(), pos.side_to_move()))
        {
            return false;
        }
        match pos.find_legal_under(source, numeric.from(), numeric.to()) {
            // Found between two squares, the move is no pass: it jumps unless it steps.
            Some((m, opponent_can_move))
                if (m.kind != MoveKind::Step) == numeric.written_as_jump() =>
            {
                self.play(source, m, opponent_can_move, state, main);
                true
            }
            _ => false,
        }
    }

    /// Plays the legal move `m` on the line (`opponent_can_move`: known that the opponent can
    /// move after it; `false`: not known).
    #[inline(always)]
    fn play(
        &mut self,
        source: impl RulesSource,
        m: Move,
        opponent_can_move: bool,
        state: &mut LineState,
        main: bool,
    ) {
        state.position.play_unchecked_under(source, m);
        state.ply += 1;
        state
            .referee
            .after_move_under(source, &state.position, opponent_can_move);
        if main {
            self.mainline_moves.push(m);
        }
    }

    /// The end of a line: a "Salta!" call still waiting for its correcting move is an error.
    pub(super) fn end_line(&mut self, state: &LineState) {
        if let Some((retracted, at)) = state.called {
            let g = state.position.geometry();
            self.error(
                at,
                Code::MissingCorrection,
                format!(
                    "\"Salta!\" is called after {} but no correcting move follows",
                    self.move_text(retracted, g)
                ),
                "write the correcting jump right after the call",
            );
        }
    }

    /// A move the reader could not read: the line stops here, as at an illegal move.
    #[cold]
    fn garbled(&mut self, node: &WrittenMove, pos: &Position, here: Here, text: &str) {
        let g = pos.geometry();
        let token = text.get(node.span.range()).unwrap_or_default();
        let why = crate::notation::why_garbled(token, g);
        let token = crate::notation::printable(token, false);
        let legal = self.moves_text(&pos.legal_moves().sorted(g), g);
        self.error(
            here.at(node, pos),
            Code::GarbledMove,
            format!("{} {token} is not a move: {why}", self.number(pos)),
            &format!("legal moves here: {legal}"),
        );
    }

    #[cold]
    fn move_after_end(
        &mut self,
        node: &WrittenMove,
        pos: &Position,
        referee: &Referee,
        here: Here,
    ) {
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
    fn resolve(&mut self, node: &WrittenMove, pos: &Position, here: Here) -> Option<Move> {
        let g = pos.geometry();
        let (piece, from, to) = match node.played {
            Played::Pass => return Some(Move::PASS),
            // Stopped at in `step`.
            Played::Garbled => return None,
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
                        self.square(from_sq, g)
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
            Some(&m) if pos.find_legal(m.from, m.to).is_some() => {
                let jumps = pos.available_jumps();
                let side = pos.side_to_move();
                let left = match jumps.iter().next().map(|&j| pos.side_to_keep_mobile(j)) {
                    Some(left) if left == side => format!("{side} itself"),
                    _ => side.other().to_string(),
                };
                Err(format!(
                    "the step was legal (no jump could be made without leaving {left} without a \
                     move), so no jump was missed"
                ))
            }
            Some(&m) => Ok(m),
        }
    }

    /// Finds the written move among the legal ones, or explains why it is not there. With the
    /// move comes whether the opponent is known to be able to move after it.
    #[inline(always)]
    fn legalise(
        &mut self,
        node: &WrittenMove,
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
        node: &WrittenMove,
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
                let list = self.moves_text(&open.jumps, g);
                let first = &mut self.findings[open.finding];
                first.repeats += 1;
                let later = match first.repeats {
                    1 => format!("1 later move also leaves {list} unplayed"),
                    n => format!("{n} later moves also leave {list} unplayed"),
                };
                first.help = Some(format!("{}\n{later}", open.help));
                return Some(m);
            }
            let list = self.moves_text(&jumps.sorted(g), g);
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
        let mut help = format!("legal moves here: {}", self.moves_text(&legal.sorted(g), g));
        if !jumps.is_empty()
            && pos.rules().compulsory
            && legal.iter().any(|m| m.kind == MoveKind::Jump)
        {
            help = format!(
                "a jump is compulsory: {}",
                self.moves_text(&legal.sorted(g), g)
            );
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
            let other = side.other();
            let limit = pos.rules().move_limit.map(|l| l.of(side));
            return match limit {
                Some(limit) if pos.rules().variant != Variant::Pyramid && pos.at_limit(other) => {
                    if pos.turn().passed_over(pos.rules()) {
                        let (number, _) = pos.turn().passed();
                        let dots = if other == Color::Green { "." } else { "..." };
                        format!(
                            "{other}'s pass at {number}{dots} is already written, and it is \
                             {side}'s move"
                        )
                    } else {
                        format!(
                            "{other} has reached its limit and passes at its own turns, not at \
                             {side}'s: {side} has made {} of its {limit} moves",
                            pos.turn().made(side)
                        )
                    }
                }
                _ => "a pass is only allowed in Pyramid, for a side with no move, or for a side \
                      that has reached its move limit"
                    .to_string(),
            };
        }
        match pos.piece_at(m.from) {
            None => return format!("there is no piece on {}", self.square(m.from, g)),
            Some(p) if p.color() != side => {
                return format!(
                    "{} stands on {}, and it is {side}'s move",
                    p.describe(),
                    self.square(m.from, g)
                );
            }
            _ => {}
        }
        if let Some(p) = pos.piece_at(m.to) {
            return format!("{} is occupied by {}", self.square(m.to, g), p.describe());
        }
        let same = |r: &Move| r.from == m.from && r.to == m.to;
        // Compulsion first: a step that only a compulsory jump forbids is refused for that, even
        // where the no-blockade rule would also refuse it.
        if relaxed(pos).iter().any(same) {
            return "a jump is compulsory here".to_string();
        }
        if relaxed_blockade(pos).iter().any(same) {
            return match pos.side_to_keep_mobile(m) {
                left if left == side => format!(
                    "it would leave {side} itself without a move, and {side} moves next \
                     (no-blockade rule)"
                ),
                left => format!("it would leave {left} without a move (no-blockade rule)"),
            };
        }
        let diagonal =
            g.file(m.from).abs_diff(g.file(m.to)) == g.rank(m.from).abs_diff(g.rank(m.to));
        match g.distance(m.from, m.to) {
            1 => "the piece may not step that way here".to_string(),
            2 if diagonal => {
                "there is no enemy piece to jump in that direction, or the piece may not jump that way".to_string()
            }
            _ => format!(
                "{} and {} are not one diagonal step or jump apart",
                self.square(m.from, g),
                self.square(m.to, g)
            ),
        }
    }

    /// Warns when the separator says jump for a step or step for a jump.
    #[inline(always)]
    fn check_separator(&mut self, node: &WrittenMove, pos: &Position, m: Move, here: Here) {
        if let Played::Move { separator, .. } = node.played
            && separator != Separator::Omitted
            && m.is_jump() != (separator == Separator::Jump)
        {
            self.separator_warning(node, pos, m, here);
        }
    }

    #[cold]
    fn separator_warning(&mut self, node: &WrittenMove, pos: &Position, m: Move, here: Here) {
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
    /// reached its move limit (rules.md §5): the turn just before the side to move's, which the
    /// position passed over by itself. The pass changes nothing; its number is checked as that
    /// turn's.
    #[cold]
    fn passes_at_limit(&mut self, node: &WrittenMove, pos: &Position, here: Here) -> bool {
        if pos.rules().variant == Variant::Pyramid || !pos.turn().passed_over(pos.rules()) {
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

    /// Warns when the written move number does not match the position. The finding's place is
    /// built only for a warning: this runs for every numbered move.
    #[inline(always)]
    fn check_number(&mut self, node: &WrittenMove, pos: &Position, here: Here) {
        if let Some(n) = node.number
            && !number_fits(n, pos.move_number(), pos.side_to_move())
        {
            self.number_warning(n, here.at(node, pos));
        }
    }

    /// Warns when the written move number is not that of the turn `at`.
    fn check_number_at(&mut self, node: &WrittenMove, at: At) {
        if let Some(n) = node.number
            && !number_fits(n, at.number, at.side)
        {
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

    /// A square as the record names squares.
    fn square(&self, sq: Square, g: &Geometry) -> String {
        MoveText::square_name(sq, self.notation, self.from_red, g)
    }

    /// A move as the record writes moves.
    fn move_text<'g>(&self, m: Move, g: &'g Geometry) -> MoveText<'g> {
        MoveText::of_move(m, None, self.notation, g).from_red(self.from_red)
    }

    /// Moves as the record writes moves, listed in the order of the squares' numbers as the
    /// record numbers them (passes last): `none` for no move.
    fn moves_text(&self, moves: &[Move], g: &Geometry) -> String {
        if moves.is_empty() {
            return "none".to_string();
        }
        let number = |sq| g.number(as_named(sq, self.from_red, g));
        let mut moves = moves.to_vec();
        moves.sort_by_key(|m| match m.kind {
            MoveKind::Pass => (true, 0, 0),
            _ => (false, number(m.from), number(m.to)),
        });
        moves
            .iter()
            .map(|&m| self.move_text(m, g).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn written(&self, node: &WrittenMove, pos: &Position) -> String {
        let text = MoveText::as_written(&node.played, self.notation, pos.geometry())
            .from_red(self.from_red);
        format!("{} {text}", self.number(pos))
    }

    /// The move number of the side to move, as written before its move (`12.`, `12...`).
    fn number(&self, pos: &Position) -> String {
        if pos.side_to_move() == Color::Green {
            format!("{}.", pos.move_number())
        } else {
            format!("{}...", pos.move_number())
        }
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
            repeats: 0,
        });
    }
}

/// Whether a written move number (`12.` for Green, `12...` for Red) is that of move `number` by
/// `side`.
fn number_fits(n: MoveNumber, number: u32, side: Color) -> bool {
    n.number == number && n.ellipsis == (side == Color::Red)
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
