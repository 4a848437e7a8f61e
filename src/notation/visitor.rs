//! The streaming visitor, in the spirit of pgn-reader: [`Reader::read_game`] reads one game and
//! calls a [`Visitor`] for each thing in it, in the order written, with slices of the read buffer
//! and spans into the game's text: nothing is copied unless the visitor copies it.
//!
//! A game is parsed whole before the visitor hears of it (the parser finds its end, checks its
//! syntax and the text's encoding), so a game broken by a syntax error gives only the error and the
//! visitor never sees half a game. [`Skip`] passes over a game's movetext or a variation; returning
//! [`ControlFlow::Break`] from any call ends the game at once with the value given. A visitor
//! that holds each move back until it knows what is written after it (a "Salta!" call, a
//! variation), as the replay does, may take moves in runs instead ([`Visitor::RUNS`],
//! [`Visitor::moves`]): every move of a run but the last is followed at once by another move.
//!
//! Counting games and moves, passing over the variations:
//!
//! ```
//! use salta::notation::{Reader, Skip, Visitor, WrittenMove};
//! use std::ops::ControlFlow;
//!
//! struct Count(usize);
//!
//! impl Visitor for Count {
//!     type Output = usize;
//!     fn played(&mut self, _: WrittenMove) -> ControlFlow<usize> {
//!         self.0 += 1;
//!         ControlFlow::Continue(())
//!     }
//!     fn begin_variation(&mut self, _: salta::notation::Span) -> ControlFlow<usize, Skip> {
//!         ControlFlow::Continue(Skip(true))
//!     }
//!     fn end_game(&mut self, _: Option<(salta::notation::GameResult, salta::notation::Span)>) -> usize {
//!         std::mem::take(&mut self.0)
//!     }
//! }
//!
//! let text = "[Event \"A\"]\n\n1. 33-43 (1. 34-44) 83-73 *\n\n[Event \"B\"]\n\n1. 32-42 *\n";
//! let mut reader = Reader::new(text.as_bytes());
//! let mut moves = Vec::new();
//! while let Some(game) = reader.read_game(&mut Count(0)) {
//!     moves.push(game.unwrap());
//! }
//! assert_eq!(moves, [2, 1]);
//! ```
//!
//! [`Reader::read_game`]: super::Reader::read_game

use super::ast::{GameResult, MoveNumber, Span, Warning};
use super::parser::{Log, NumericMove, Token};
use super::written::{RawComment, RawTag, WrittenMove};
use crate::board::BoardKind;
use std::ops::ControlFlow;

/// Whether to pass over what follows: a game's movetext (from [`Visitor::begin_movetext`]) or a
/// variation (from [`Visitor::begin_variation`]). `Skip(true)` passes over it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skip(pub bool);

/// Where a game is and what it says, given to [`Visitor::begin_game`].
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct GameStart<'a> {
    /// The game's whole text (decoded to UTF-8): every span of the game points into it.
    pub text: &'a str,
    /// Byte offset of the game's first byte in its file.
    pub offset: u64,
    /// 1-based line of the game's first byte in its file.
    pub line: u32,
    /// 1-based column of the game's first byte.
    pub column: u32,
    /// 1-based index of the game in its file, as its diagnostics give it ([`GameSource::index`]:
    /// games broken by a syntax error count too).
    ///
    /// [`GameSource::index`]: super::GameSource::index
    pub index: usize,
    /// The board the game's squares were read on (its Rules tag's, or the one the reader was
    /// told to read every game on: [`Reader::on_board`](super::Reader::on_board)).
    pub board: BoardKind,
}

/// What a game holds, one call at a time, in the order written. Every method but
/// [`Visitor::end_game`] has a default that reads on and ignores what it is given.
///
/// A game's calls: [`begin_game`](Visitor::begin_game); [`warning`](Visitor::warning) for each
/// thing the reader tolerated (Latin-1 text first, then in the order met); [`tag`](Visitor::tag)
/// for each tag pair; [`begin_movetext`](Visitor::begin_movetext); then moves (each by
/// [`played`](Visitor::played), or in runs by [`moves`](Visitor::moves)), move suffixes, NAGs,
/// `Salta!` calls, comments and variations (comments written before or among the tags come
/// first); and [`end_game`](Visitor::end_game) with the result token. `Break(output)` from any
/// call ends the game there with `output` (the rest of the game is read past, unseen).
pub trait Visitor {
    /// What the visitor makes of a game.
    type Output;

    /// A game starts.
    fn begin_game(&mut self, _game: GameStart<'_>) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// Something the reader accepted but that a careful transcription would not contain.
    fn warning(&mut self, _warning: &Warning) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A tag pair.
    fn tag(&mut self, _tag: RawTag<'_>) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// The tags are over; `Skip(true)` passes over the whole movetext to
    /// [`end_game`](Visitor::end_game).
    fn begin_movetext(&mut self) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(false))
    }

    /// A move.
    fn played(&mut self, _played: WrittenMove) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A speed knob, nothing else: whether the visitor takes moves in runs, through
    /// [`Visitor::moves`]. The moves, their order and what follows them are the same either way;
    /// only the calls differ. A visitor that holds each move back until it knows what follows it
    /// (a call, a variation), as the replay does, spares that for every move of a run but the
    /// last. When `false` (the default, right for most visitors), each move comes to
    /// [`Visitor::played`] as it is met, and the reader spares finding where runs end.
    const RUNS: bool = false;

    /// Moves written one after another, with nothing between them but their move numbers, when
    /// [`Visitor::RUNS`] is `true` (the speed knob; otherwise never called): every move of the run
    /// but the last is followed at once by the next, so no call, suffix, comment or variation is
    /// about it ([`Moves::more`] tells). By default [`played`](Visitor::played) for each. Moves
    /// the visitor does not take are passed over.
    fn moves(&mut self, moves: Moves<'_>) -> ControlFlow<Self::Output> {
        for played in moves {
            self.played(played)?;
        }
        ControlFlow::Continue(())
    }

    /// A `Salta!` call after the last move.
    fn salta(&mut self, _span: Span) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A suffix annotation after the last move: `!`, `?`, `!!`, `??`, `!?` or `?!`.
    fn suffix(&mut self, _suffix: &'static str, _span: Span) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A NAG (`$n`) after the last move.
    fn nag(&mut self, _nag: u16, _span: Span) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A comment: after the last move, or before the line's first.
    fn comment(&mut self, _comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// A variation opens (`open` is its `(`): an alternative to the last move, starting from the
    /// position before it. `Skip(true)` passes over it to its
    /// [`end_variation`](Visitor::end_variation).
    fn begin_variation(&mut self, _open: Span) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(false))
    }

    /// The variation last opened closes.
    fn end_variation(&mut self) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    /// The game ends, with the result token written at its end, if any.
    fn end_game(&mut self, result: Option<(GameResult, Span)>) -> Self::Output;
}

/// Hands a game read whole (its tokens in `log`) to `visitor`: `latin1` is the warning that the
/// text was read as Latin-1, if it was.
pub(crate) fn visit<V: Visitor>(
    visitor: &mut V,
    game: GameStart<'_>,
    latin1: Option<&Warning>,
    log: &Log,
) -> V::Output {
    match visit_tokens(visitor, game, latin1, log) {
        ControlFlow::Continue(()) => visitor.end_game(log.result),
        ControlFlow::Break(output) => output,
    }
}

fn visit_tokens<V: Visitor>(
    visitor: &mut V,
    game: GameStart<'_>,
    latin1: Option<&Warning>,
    log: &Log,
) -> ControlFlow<V::Output> {
    let text = game.text;
    visitor.begin_game(game)?;
    for warning in latin1.into_iter().chain(&log.warnings) {
        visitor.warning(warning)?;
    }
    let mut tokens = log.tokens.iter();
    // The number of the numeric move that follows.
    let mut number = None;
    while let Some(token) = tokens.next() {
        match *token {
            Token::Tag { .. } => {
                if let Some(tag) = token.raw_tag(text) {
                    visitor.tag(tag)?;
                }
            }
            Token::BeginMovetext => {
                if visitor.begin_movetext()?.0 {
                    return ControlFlow::Continue(());
                }
            }
            Token::Comment { span, text: inside } => {
                let text = text.get(inside.range()).unwrap_or_default();
                visitor.comment(RawComment { text, span })?;
            }
            Token::Number(ref n) => number = Some(n),
            Token::Numeric(_) | Token::Numbered(..) | Token::Move(_) if V::RUNS => {
                // The run starts with this token, just taken.
                let here = log.tokens.len() - tokens.as_slice().len() - 1;
                let (run, len) = Moves::at(&log.tokens[here..], number.take(), &log.moves);
                tokens = log.tokens[here + len..].iter();
                visitor.moves(run)?;
            }
            Token::Numeric(numeric) => visitor.played(numeric.written(number.take().copied()))?,
            Token::Numbered(number, numeric) => visitor.played(numeric.written(Some(number)))?,
            Token::Move(index) => visitor.played(log.moves[index as usize])?,
            Token::Salta(span) => visitor.salta(span)?,
            Token::Suffix(suffix, span) => visitor.suffix(suffix, span)?,
            Token::Nag(nag, span) => visitor.nag(nag, span)?,
            Token::BeginVariation(open) => {
                if visitor.begin_variation(open)?.0 {
                    skip_variation(&mut tokens);
                    visitor.end_variation()?;
                }
            }
            Token::EndVariation => visitor.end_variation()?,
        }
    }
    ControlFlow::Continue(())
}

/// A run of moves written one after another (see [`Visitor::moves`]): an iterator of the moves
/// as written, each with its move number.
#[derive(Clone, Debug)]
pub struct Moves<'a> {
    tokens: std::slice::Iter<'a, Token>,
    /// The moves of [`Token::Move`] tokens.
    moves: &'a [WrittenMove],
    /// The number read for the move that follows, where it is logged.
    number: Option<&'a MoveNumber>,
}

impl<'a> Moves<'a> {
    /// The run at the start of `tokens` (which starts with a move), the move number read for its
    /// first move being `number`; and how many tokens it takes (move numbers after its last move
    /// are not its own but the next move's).
    fn at(
        tokens: &'a [Token],
        number: Option<&'a MoveNumber>,
        moves: &'a [WrittenMove],
    ) -> (Moves<'a>, usize) {
        // Past the moves and move numbers (four at a test while they last: a game is mostly one
        // long run), then back over the numbers at the end.
        let mut rest = &tokens[1..];
        while let [a, b, c, d, after @ ..] = rest
            && in_run(a) & in_run(b) & in_run(c) & in_run(d)
        {
            rest = after;
        }
        while let [token, after @ ..] = rest
            && in_run(token)
        {
            rest = after;
        }
        let mut len = tokens.len() - rest.len();
        while len > 1 && matches!(tokens[len - 1], Token::Number(_)) {
            len -= 1;
        }
        let run = Moves {
            tokens: tokens[..len].iter(),
            moves,
            number,
        };
        (run, len)
    }

    /// Whether another move follows in the run (the one [`Iterator::next`] gives next).
    #[inline]
    pub fn more(&self) -> bool {
        // The run ends with a move, not a move number.
        !self.tokens.as_slice().is_empty()
    }

    /// The next move as logged, for a visitor of this crate that reads numeric moves without
    /// making a [`WrittenMove`] of each.
    #[inline(always)]
    pub(crate) fn next_logged(&mut self) -> Option<RunMove<'a>> {
        loop {
            match self.tokens.next()? {
                Token::Number(n) => self.number = Some(n),
                Token::Numeric(numeric) => {
                    return Some(RunMove::Numeric(numeric, self.number.take()));
                }
                Token::Numbered(number, numeric) => {
                    return Some(RunMove::Numeric(numeric, Some(number)));
                }
                &Token::Move(index) => return Some(RunMove::Written(&self.moves[index as usize])),
                // A run holds moves and move numbers only.
                _ => {}
            }
        }
    }
}

/// Whether a token belongs in a run: a move or a move number.
#[inline(always)]
fn in_run(token: &Token) -> bool {
    matches!(
        token,
        Token::Number(_) | Token::Numeric(_) | Token::Numbered(..) | Token::Move(_)
    )
}

/// A move of a run as logged: a numeric move with its number, or any other move as written, each
/// lent where it is logged (the replay mostly reads a few bytes of them; copied out, they cost the
/// run's loop more than the reading).
pub(crate) enum RunMove<'a> {
    Numeric(&'a NumericMove, Option<&'a MoveNumber>),
    Written(&'a WrittenMove),
}

impl RunMove<'_> {
    /// The move as the visitor gets it.
    #[inline(always)]
    pub(crate) fn written(self) -> WrittenMove {
        match self {
            RunMove::Numeric(numeric, number) => numeric.written(number.copied()),
            RunMove::Written(written) => *written,
        }
    }
}

impl Iterator for Moves<'_> {
    type Item = WrittenMove;

    #[inline]
    fn next(&mut self) -> Option<WrittenMove> {
        self.next_logged().map(RunMove::written)
    }
}

/// Passes over the tokens of a variation just opened, to its end (included).
fn skip_variation(tokens: &mut std::slice::Iter<'_, Token>) {
    let mut depth = 1usize;
    for token in tokens {
        match token {
            Token::BeginVariation(_) => depth += 1,
            Token::EndVariation if depth == 1 => return,
            Token::EndVariation => depth -= 1,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Reader;

    /// Records the calls it gets, as text; skips what it is told to.
    #[derive(Default)]
    struct Calls {
        seen: Vec<String>,
        skip_movetext: bool,
        skip_variations: bool,
        stop_at_move: Option<usize>,
        moves: usize,
    }

    impl Visitor for Calls {
        type Output = Vec<String>;

        fn begin_game(&mut self, game: GameStart<'_>) -> ControlFlow<Vec<String>> {
            self.moves = 0;
            self.seen = vec![format!("game at line {}", game.line)];
            ControlFlow::Continue(())
        }

        fn warning(&mut self, warning: &Warning) -> ControlFlow<Vec<String>> {
            self.seen.push(warning.code.to_string());
            ControlFlow::Continue(())
        }

        fn tag(&mut self, tag: RawTag<'_>) -> ControlFlow<Vec<String>> {
            self.seen.push(format!(
                "{}={} ({})",
                tag.name(),
                tag.value(),
                tag.written()
            ));
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self) -> ControlFlow<Vec<String>, Skip> {
            ControlFlow::Continue(Skip(self.skip_movetext))
        }

        fn played(&mut self, played: WrittenMove) -> ControlFlow<Vec<String>> {
            self.moves += 1;
            if self.stop_at_move == Some(self.moves) {
                return ControlFlow::Break(std::mem::take(&mut self.seen));
            }
            self.seen.push(format!("move {:?}", played.span));
            ControlFlow::Continue(())
        }

        fn nag(&mut self, nag: u16, _: Span) -> ControlFlow<Vec<String>> {
            self.seen.push(format!("${nag}"));
            ControlFlow::Continue(())
        }

        fn suffix(&mut self, suffix: &'static str, _: Span) -> ControlFlow<Vec<String>> {
            self.seen.push(suffix.to_string());
            ControlFlow::Continue(())
        }

        fn comment(&mut self, comment: RawComment<'_>) -> ControlFlow<Vec<String>> {
            self.seen.push(format!("{{{}}}", comment.text));
            ControlFlow::Continue(())
        }

        fn begin_variation(&mut self, _: Span) -> ControlFlow<Vec<String>, Skip> {
            self.seen.push("(".to_string());
            ControlFlow::Continue(Skip(self.skip_variations))
        }

        fn end_variation(&mut self) -> ControlFlow<Vec<String>> {
            self.seen.push(")".to_string());
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, result: Option<(GameResult, Span)>) -> Vec<String> {
            self.seen.push(format!("end {result:?}"));
            std::mem::take(&mut self.seen)
        }
    }

    const TEXT: &str = "[Event \"Say \\\"hi\\\"\"]\n{before}\n\n1. 33-43! $3 (1. 34-44 (1. 32-42) {alt}) 83-73 *\n\n[Event \"B\"]\n\n1. 32-42 1-0\n";

    fn read(calls: &mut Calls) -> Vec<Vec<String>> {
        let mut reader = Reader::new(TEXT.as_bytes());
        std::iter::from_fn(|| reader.read_game(calls))
            .map(|game| game.unwrap())
            .collect()
    }

    #[test]
    fn a_visitor_hears_each_thing_in_the_order_written() {
        let games = read(&mut Calls::default());
        assert_eq!(
            games[0],
            [
                "game at line 1",
                r#"Event=Say "hi" (Say \"hi\")"#,
                "{before}",
                "move Span { start: 34, end: 39 }",
                "!",
                "$3",
                "(",
                "move Span { start: 48, end: 53 }",
                "(",
                "move Span { start: 58, end: 63 }",
                ")",
                "{alt}",
                ")",
                "move Span { start: 72, end: 77 }",
                "end Some((Unknown, Span { start: 78, end: 79 }))",
            ]
        );
        assert_eq!(games[1].len(), 4);
    }

    #[test]
    fn skipped_variations_close_and_skipped_movetext_ends_the_game() {
        let mut calls = Calls {
            skip_variations: true,
            ..Calls::default()
        };
        let games = read(&mut calls);
        let kept: Vec<&str> = games[0].iter().map(String::as_str).skip(3).collect();
        assert_eq!(
            kept,
            [
                "move Span { start: 34, end: 39 }",
                "!",
                "$3",
                "(",
                ")",
                "move Span { start: 72, end: 77 }",
                "end Some((Unknown, Span { start: 78, end: 79 }))",
            ]
        );
        let mut calls = Calls {
            skip_movetext: true,
            ..Calls::default()
        };
        let games = read(&mut calls);
        assert_eq!(
            games[1],
            [
                "game at line 6",
                "Event=B (B)",
                "end Some((GreenWins, Span { start: 22, end: 25 }))"
            ]
        );
    }

    #[test]
    fn a_break_ends_the_game_and_the_next_one_is_read() {
        let mut calls = Calls {
            stop_at_move: Some(2),
            ..Calls::default()
        };
        let games = read(&mut calls);
        assert_eq!(games[0].last().unwrap(), "(");
        assert_eq!(games[1][0], "game at line 6");
        assert_eq!(games.len(), 2);
    }

    /// Takes moves in runs: each run as the moves' texts (with their numbers) and, for each,
    /// whether the run said another move follows.
    struct Runs<'t> {
        text: &'t str,
        runs: Vec<Vec<String>>,
    }

    impl Visitor for Runs<'_> {
        type Output = Vec<Vec<String>>;
        const RUNS: bool = true;

        fn moves(&mut self, mut moves: Moves<'_>) -> ControlFlow<Self::Output> {
            let mut run = Vec::new();
            while let Some(played) = moves.next() {
                let number = played
                    .number
                    .map(|n| format!("{}{}", n.number, if n.ellipsis { "..." } else { "." }));
                let text = &self.text[played.span.range()];
                let more = if moves.more() { "+" } else { "" };
                run.push(format!("{}{text}{more}", number.unwrap_or_default()));
            }
            self.runs.push(run);
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, _: Option<(GameResult, Span)>) -> Self::Output {
            std::mem::take(&mut self.runs)
        }
    }

    #[test]
    fn runs_end_where_anything_but_a_move_or_its_number_is_written() {
        // A long move number, a number before a comment, a designator, a call, a suffix, a
        // variation, a pass, and a number left without its move at the end.
        let text = "1. 33-43 83-73 2. 43-53 {c} 73-63 123. 53-64 Salta! 35-44 3... \
                    (3. 32-42 63-53) St2 62-53 4. 12-23 5. -- 62-51! 6. 23-34 7. *";
        let mut runs = Runs {
            text,
            runs: Vec::new(),
        };
        let mut reader = Reader::new(text.as_bytes());
        let game = reader.read_game(&mut runs).unwrap().unwrap();
        let expected: [&[&str]; 6] = [
            &["1.33-43+", "83-73+", "2.43-53"],
            &["73-63+", "123.53-64"],
            &["35-44"],
            &["3.32-42+", "63-53"],
            &["3...St2 62-53+", "4.12-23+", "5.--+", "62-51"],
            &["6.23-34"],
        ];
        assert_eq!(game, expected);
    }

    /// Runs of every length up to past two of the scan's four-token strides end where they
    /// should: before a comment, before a number left without its move, at the game's end.
    #[test]
    fn runs_of_any_length_end_at_their_last_move() {
        for len in 1..=10 {
            let moves: Vec<String> = (0..len).map(|i| format!("{}. 33-43", i + 1)).collect();
            let run: Vec<String> = (0..len)
                .map(|i| format!("{}.33-43{}", i + 1, if i + 1 < len { "+" } else { "" }))
                .collect();
            for (after, rest) in [
                ("{c} 32-42 *", vec!["32-42"]),
                ("99. *", vec![]),
                ("", vec![]),
            ] {
                let text = format!("{} {after}", moves.join(" "));
                let mut runs = Runs {
                    text: &text,
                    runs: Vec::new(),
                };
                let mut reader = Reader::new(text.as_bytes());
                let game = reader.read_game(&mut runs).unwrap().unwrap();
                let mut expected = vec![run.clone()];
                if !rest.is_empty() {
                    expected.push(rest.iter().map(|m| m.to_string()).collect());
                }
                assert_eq!(game, expected, "{text}");
            }
        }
    }
}
