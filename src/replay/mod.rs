//! The replayer: plays a game record through the rules engine and says, precisely, where it goes
//! wrong, collecting findings with stable codes instead of stopping at the first. [`replay`]
//! walks a game's tree (main line and every variation); [`Replaying`] is the same replay as a
//! [`Visitor`](crate::notation::Visitor), move by move as the game is read, main line and
//! variations alike, with no tree built: a summary (findings, outcome, the main line's moves),
//! what `salta check` uses.

mod replayer;
mod streaming;
mod verdict;

use crate::board::Color;
use crate::diagnostic::Code;
use crate::notation::{Game, GameResult, Span};
use crate::rules::margin::Budget;
use crate::rules::{Move, MoveLimit, Odds, Outcome, Piece, Position, Referee, Rules};
use replayer::{LineState, Replayer};
pub(crate) use replayer::{missed_jump_step, relaxed};
use std::str::FromStr;
pub use streaming::{Replaying, Streamed};
use verdict::{ReplayTags, check_result, tag_error};

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
    /// Later moves of the line that miss the same open jump again: reported only here.
    #[serde(skip_serializing_if = "is_zero")]
    pub repeats: u32,
}

impl Finding {
    /// A finding about the game as a whole, not one of its moves (its tags, its result, what the
    /// reader tolerated), with its code's label.
    pub(crate) fn about_game(
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
            repeats: 0,
        }
    }
}

impl Finding {
    /// Whether the finding is about how the game ends: its result and its margin (which a game
    /// broken by a syntax error cannot be judged on).
    pub fn about_the_end(&self) -> bool {
        matches!(
            self.code,
            Code::WrongResult
                | Code::ResultMismatch
                | Code::ResultUnrecorded
                | Code::ResultNotReached
                | Code::WrongMargin
                | Code::MarginUnproven
        )
    }
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

impl std::fmt::Display for Status {
    /// `valid`, `warnings` or `invalid`, as the JSON report writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Valid => "valid",
            Status::Warnings => "warnings",
            Status::Invalid => "invalid",
        })
    }
}

impl std::fmt::Display for Finding {
    /// `code: message`, then its help indented, a line each (drawn over the game's text by the
    /// `render` feature).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)?;
        for line in self.help.iter().flat_map(|h| h.lines()) {
            write!(f, "\n  {line}")?;
        }
        Ok(())
    }
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
    /// use salta::notation::{Notation, parse_str};
    /// use salta::replay::{ReplayOptions, replay};
    ///
    /// let game = parse_str("1. 33-43 83-73 *\n").remove(0).unwrap();
    /// let replayed = replay(&game, &ReplayOptions::default());
    /// let text = |m, pos: &salta::rules::Position| Notation::Numeric.move_text(m, pos.geometry()).to_string();
    /// let after: Vec<String> = replayed
    ///     .positions()
    ///     .map(|(ply, m, pos)| format!("{ply}. {} {}", text(m, &pos), pos.side_to_move()))
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
    tag_rules(&ReplayTags::from(game.tags.as_slice()), opts)
}

/// [`game_rules`] from the tags alone.
fn tag_rules(tags: &ReplayTags<'_>, opts: &ReplayOptions) -> (Rules, Vec<Finding>) {
    let mut findings = Vec::new();
    let mut rules = match (&opts.rules, tags.rules) {
        (Some(r), _) => *r,
        (None, None) => Rules::default(),
        (None, Some((value, span))) => Rules::from_str(value).unwrap_or_else(|e| {
            findings.push(tag_error(
                Code::BadTagValue,
                format!("Rules tag: {e}"),
                span,
                "the default Salta rules are used",
            ));
            Rules::default()
        }),
    };
    rules.move_limit = match (opts.move_limit, tags.move_limit) {
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
    rules.odds = match tags.odds {
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
    let moves = game.mainline.moves.len();
    let tags = ReplayTags::from(game.tags.as_slice());
    let mut main = match MainLine::begin(&tags, opts, moves, &mut LastStart::default()) {
        Ok(main) => main,
        Err(unplayable) => return *unplayable,
    };
    main.replayer.notation = game.notation();
    let mainline = if opts.summary_only {
        main.replayer
            .line::<false>(&game.mainline, &mut main.state, true, &game.text)
    } else {
        main.replayer
            .line::<true>(&game.mainline, &mut main.state, true, &game.text)
    };
    main.finish(&tags, game.result, mainline)
}

/// Replays the part of a game read before a syntax error broke it
/// ([`SyntaxError::before`](crate::notation::SyntaxError::before)), a summary: its findings
/// are about its tags and moves, none about how it ends (the record goes on past the error,
/// unread), and no margin is counted.
#[must_use]
pub fn replay_part(part: &Game, opts: &ReplayOptions) -> Replay {
    let opts = ReplayOptions {
        margins: MarginPolicy::Never,
        summary_only: true,
        ..opts.clone()
    };
    let mut replayed = replay(part, &opts);
    replayed.findings.retain(|f| !f.about_the_end());
    replayed.outcome = None;
    replayed
}

/// A main line being replayed: the replayer and where the line stands. Begun from a game's tags,
/// fed its moves (by [`replay`] from the tree, or by [`Replaying`] as they are read), and finished
/// with the checks of the result and margin.
struct MainLine<'o> {
    replayer: Replayer<'o>,
    rules: Rules,
    start: Position,
    state: LineState,
}

impl<'o> MainLine<'o> {
    /// The rules and start position the tags give, with room for `moves` main-line moves; the
    /// whole replay instead when the Setup tag cannot be read (no move can then be played).
    /// `starts` keeps the standard start position from one game to the next.
    fn begin(
        tags: &ReplayTags<'_>,
        opts: &'o ReplayOptions,
        moves: usize,
        starts: &mut LastStart,
    ) -> Result<Self, Box<Replay>> {
        let (rules, mut findings) = tag_rules(tags, opts);
        let start = match tags.setup {
            None => starts.of(rules),
            Some((line, span)) => match Position::from_setup(line, rules) {
                Ok(pos) => pos,
                Err(e) => {
                    findings.push(tag_error(
                        Code::BadSetup,
                        e.to_string(),
                        span,
                        "fix the Setup line (notation.md, \"Setup\")",
                    ));
                    return Err(Box::new(Replay {
                        rules,
                        start: starts.of(rules),
                        final_position: starts.of(rules),
                        moves: Vec::new(),
                        mainline: LineReplay::default(),
                        outcome: None,
                        findings,
                    }));
                }
            },
        };
        let count_margins = match opts.margins {
            MarginPolicy::Always => true,
            MarginPolicy::WhenTagged => tags.margin.is_some(),
            MarginPolicy::Never => false,
        };
        let referee = Referee::new(&start, count_margins.then_some(opts.budget));
        let mut replayer = Replayer::new(opts, findings, moves);
        replayer.from_red = tags
            .numbering
            .is_some_and(|(value, _)| crate::notation::numbered_from_red(value));
        Ok(MainLine {
            replayer,
            rules,
            start,
            state: LineState::new(start, referee),
        })
    }

    /// The replay, once the record's moves are over: its outcome, and the result and margin
    /// checked against the tags and the result token.
    fn finish(
        self,
        tags: &ReplayTags<'_>,
        result: Option<(GameResult, Span)>,
        mainline: LineReplay,
    ) -> Replay {
        let (referee, stopped) = (self.state.referee, self.state.stopped);
        let mut replay = Replay {
            rules: self.rules,
            start: self.start,
            final_position: self.state.position,
            moves: self.replayer.mainline_moves,
            mainline,
            outcome: referee.outcome_at_end_of_record(),
            findings: self.replayer.findings,
        };
        check_result(tags, result, &referee, stopped, &mut replay);
        replay
    }
}

/// The standard start position of the rules last asked for: the games of an archive mostly share
/// their rules, and comparing rules costs far less than setting out the pieces.
#[derive(Default)]
struct LastStart(Option<Position>);

impl LastStart {
    /// The standard start position under `rules`.
    fn of(&mut self, rules: Rules) -> Position {
        match self.0 {
            Some(start) if *start.rules() == rules => start,
            _ => *self.0.insert(Position::start(rules)),
        }
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

#[cfg(test)]
mod tests {
    use super::{Budget, MarginPolicy, ReplayOptions, replay};
    use std::path::Path;

    /// Every game of the corpus and the edge cases, valid or not.
    fn games() -> Vec<crate::notation::Game> {
        corpus_files()
            .iter()
            .flat_map(|(_, text)| crate::notation::Reader::new(&text[..]).flatten())
            .collect()
    }

    /// Every margin counted, within a budget in states only: a time limit would let a busy
    /// machine end two counts of one game differently.
    fn counted(lenient: bool) -> ReplayOptions {
        ReplayOptions {
            lenient,
            margins: MarginPolicy::Always,
            budget: Budget {
                max_states: 20_000,
                max_time: None,
            },
            ..ReplayOptions::default()
        }
    }

    #[test]
    fn a_summary_replay_finds_what_a_full_replay_finds() {
        let games = games();
        assert!(games.len() > 20);
        let (mut recorded, mut with_findings) = (0, 0);
        for lenient in [false, true] {
            let full = counted(lenient);
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

    /// The records of the corpus and the edge cases, with their paths.
    fn corpus_files() -> Vec<(String, Vec<u8>)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for folder in [
            "corpus/edge-cases",
            "corpus/synthetic",
            "corpus/historical",
            "tests/edge-cases",
        ] {
            let mut paths: Vec<_> = std::fs::read_dir(root.join(folder))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
                .collect();
            paths.sort();
            for path in paths {
                files.push((path.display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
        files
    }

    #[test]
    fn replaying_while_reading_finds_what_the_tree_replay_finds() {
        // Variations where the tree's replay stops, breaks or leaves a call open.
        let setup = "[Setup \"G/-,-,-,-,-,-,-,-,-,-,44,-,-,-,-/55,-,-,-,-,-,-,-,-,-,-,-,-,-,-\"]";
        let tricky = [
            "1. 33-43 (1. 33-44 (1. 34-44 83-73 (1... 33-43) 2. 44-54) 1... 83-73) 83-74 *"
                .to_string(),
            "1. 33-43 83-74 2. 33-43 (2. 34-44 (2. 32-42) 84-75) 32-42 (2. 31-42) *".to_string(),
            format!("{setup}\n\n1. 44-54 (1. 44-54 Salta!) (1. 44-53 Salta! 44:66) 55-45 *"),
            format!("{setup}\n\n1. 44-54 Salta! (1. 44-53) 44:66 *"),
            // Inside a run of moves: a wrong move number, a wrong separator, a missed jump, an
            // illegal move.
            "1. 33-43 83-73 3. 43-53 73-63 *".to_string(),
            "1. 33:43 83-73 2. 43-53 73-63 *".to_string(),
            "1. 33-43 83-73 2. 43-54 73-63 3. 32-42 83-74 *".to_string(),
            "1. 33-43 83-73 2. 43-55 73-63 *".to_string(),
            // The notation the findings speak is the first main-line move's, however the moves
            // after it are written, and passes do not decide it.
            format!("{setup}\n\n1. h4-g5 i5-j4 *"),
            "1. e3-f4 83-73 2. e3-d4 *".to_string(),
            "1. 33-43 f8-e7 2. 33-44 *".to_string(),
            "1. -- (1. e3-f4 f8-e7 2. d2-e3) 83-73 *".to_string(),
            "[Numbering \"red\"]\n\n1. 83-73 33-43 2. 83-74 (2. 73-63 44-45) *".to_string(),
        ];
        let mut files: Vec<_> = tricky
            .iter()
            .map(|t| (format!("{t:?}"), t.as_bytes().to_vec()))
            .collect();
        files.extend(corpus_files());
        let (mut games, mut with_findings, mut with_variations) = (0, 0, 0);
        for (path, text) in &files {
            let trees = crate::notation::Reader::new(&text[..]).collect::<Vec<_>>();
            for lenient in [false, true] {
                let opts = counted(lenient);
                let mut replaying = super::Replaying::new(&opts);
                let mut reader = crate::notation::Reader::new(&text[..]);
                for tree in &trees {
                    let streamed = reader.read_game(&mut replaying).unwrap();
                    let (Ok(game), Ok(streamed)) = (tree, streamed) else {
                        continue;
                    };
                    let whole = replay(game, &opts);
                    let at = format!("{path} at line {}", game.line);
                    assert_eq!(streamed.replay.findings, whole.findings, "{at}");
                    assert_eq!(streamed.replay.outcome, whole.outcome, "{at}");
                    assert_eq!(streamed.replay.moves, whole.moves, "{at}");
                    assert_eq!(streamed.replay.final_position, whole.final_position, "{at}");
                    assert_eq!(streamed.tags, game.tags.iter().collect(), "{at}");
                    assert_eq!(streamed.warnings, game.warnings, "{at}");
                    assert_eq!(
                        (
                            streamed.offset,
                            streamed.line,
                            streamed.column,
                            streamed.size
                        ),
                        (game.offset, game.line, game.column, game.text.len()),
                        "{at}"
                    );
                    games += 1;
                    with_findings += usize::from(!whole.findings.is_empty());
                    with_variations += usize::from(
                        game.mainline
                            .moves
                            .iter()
                            .any(|m| !m.variations().is_empty()),
                    );
                }
                assert!(reader.read_game(&mut replaying).is_none());
            }
        }
        assert!(
            games > 100 && with_findings > 20 && with_variations >= 8,
            "{games} games, {with_findings} with findings, {with_variations} with variations"
        );
    }
}
