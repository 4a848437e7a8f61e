//! A line under repair: its written moves as the search now reads them, where each came from in
//! the record, and the replay's state before each move that replayed.

use super::channel::Sym;
use super::cursor::Cursor;
use super::slips::SlipKind;
use super::suggestion::{Candidate, Change};
use super::token::{Token, Written};
use crate::notation::{Game, GameResult, MoveNode, Notation, Span};
use crate::replay::{MarginPolicy, ReplayOptions};
use crate::rules::Position;
use crate::rules::hash::FastMap;
use crate::rules::margin::Budget;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The readings of a garbled token as two moves run together, by the position before it, its
/// index in the record and the limit's bits.
pub(crate) type MergedReadings = FastMap<(Position, usize, u64), Rc<[Candidate]>>;

/// The search states one margin count of a reading may store (at most the replay options'
/// budget).
const MARGIN_STATES: u64 = 100_000;

/// The search states all the margin counts of one line may store (decision 201): a page whose
/// breaks each leave several readings that replay to the end made a count for each, up to a
/// quarter of a second apiece (five took 0.7 s of a light OCR page's 0.8 s).
const MARGIN_ALLOWANCE: u64 = 300_000;

/// The fewest states worth a count, unless each count is allowed fewer (`--margin-states`): a
/// count bounded by fewer seldom tells the tag's margin from another.
const MIN_COUNT_STATES: u64 = 5_000;

/// The Margin tag a search checks tied readings against, and the effort each count may take.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MarginTag {
    pub recorded: u32,
    pub budget: Budget,
}

/// A main line under repair: its written moves now, where each came from in the record, and
/// the cursor before each move that replayed.
#[derive(Clone)]
pub(crate) struct Line {
    pub style: Notation,
    /// The record numbers the squares from Red's side (`[Numbering "red"]`): its slips are made
    /// on those numbers, and its moves are written with them.
    pub from_red: bool,
    /// Each written move of the record as its text has it.
    pub written: Rc<[String]>,
    /// Where each written move of the record stands in its text.
    pub spans: Rc<[Span]>,
    /// The move number written before each written move of the record, if any: its number,
    /// and whether it is Red's (`12...`).
    pub numbers: Rc<[Option<(u32, bool)>]>,
    /// The record's text (what stands between two garbled moves: a space that split one).
    pub text: Rc<str>,
    /// Where the moves' text ends in it: at the result token, or the end of the text.
    pub moves_end: usize,
    /// Most of the record's moves are written without a separator (`e3f4`): a move meant is
    /// read against the written one without it.
    pub omits_separators: bool,
    pub lenient: bool,
    /// A variation, not the main line: it is never read as a record numbered from Red's side.
    pub variation: bool,
    pub tokens: Vec<Token>,
    /// The index in the record of each token (`None`: inserted by a repair).
    pub origin: Vec<Option<usize>>,
    pub states: Vec<Cursor>,
    /// Tokens before this index were changed by a repair other than a separator mended: the
    /// search does not look back past it.
    pub fixed: usize,
    /// Tokens before this index were changed by any repair: the search tries every kind of slip
    /// only after it, and only misreadings (far back) between `fixed` and it.
    pub near_from: usize,
    /// Written moves (their indices in the record) whose separator a repair mended: `fixed`
    /// stays before them, so a legal slip before one is still found, but they are not read
    /// again (decision 176).
    pub mended: Rc<[usize]>,
    pub recorded: Option<GameResult>,
    /// `None`: no Margin tag, or margins are not counted (`--margins never`).
    pub margin: Option<MarginTag>,
    /// The record has a Margin tag, but margins are not counted (`--margins never`).
    pub margin_ignored: bool,
    /// The readings of a garbled token as two moves run together, by the position before it,
    /// its index in the record and the limit (each change at index 0): the look-ahead and the
    /// settling of ties read the same token in the same position again and again, and each
    /// reading tries every move and reply. Shared by the copies of one line.
    pub merged: Rc<RefCell<MergedReadings>>,
    /// Each token's text as meant, by token (see `Line::meant`).
    pub meant: Rc<RefCell<FastMap<Token, Rc<[Sym]>>>>,
    /// The states the line's margin counts may still store (see [`Line::count_budget`]),
    /// shared by the copies of one line.
    pub count_states_left: Rc<Cell<u64>>,
}

impl Line {
    /// The main line of `game`; `None` when its start cannot be set up, or its squares are not
    /// on the board of the rules in force.
    pub fn new(game: &Game, opts: &ReplayOptions) -> Option<Line> {
        let (rules, _) = crate::replay::game_rules(game, opts);
        let start = match game.tag("Setup") {
            None => Position::start(rules),
            Some(setup) => Position::from_setup(setup, rules).ok()?,
        };
        Line::of_moves(game, opts, &game.mainline.moves, Cursor::new(start), false)
    }

    /// A variation of `game` (its `moves`), replayed from `start`, the cursor before the move it
    /// replaces: the game's result and margin are not its own.
    pub fn variation(
        game: &Game,
        opts: &ReplayOptions,
        moves: &[MoveNode],
        start: Cursor,
    ) -> Option<Line> {
        Line::of_moves(game, opts, moves, start, true)
    }

    fn of_moves(
        game: &Game,
        opts: &ReplayOptions,
        moves: &[MoveNode],
        start: Cursor,
        variation: bool,
    ) -> Option<Line> {
        let tokens: Vec<Token> = moves.iter().map(Token::of).collect();
        // Rules given on the command line may name another board than the record was read on:
        // its squares then mean nothing there, and nothing is suggested.
        let g = start.pos.geometry();
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
        let written: Rc<[String]> = moves
            .iter()
            .map(|n| {
                game.text
                    .get(n.span.range())
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        let separated = written
            .iter()
            .filter(|w| w.contains(['-', ':', 'x']))
            .count();
        Some(Line {
            omits_separators: separated * 2 < written.len(),
            style: game.notation(),
            from_red: game.numbered_from_red(),
            written,
            spans: moves.iter().map(|n| n.span).collect(),
            numbers: moves
                .iter()
                .map(|n| n.number.map(|m| (m.number, m.ellipsis)))
                .collect(),
            text: Rc::from(game.text.as_str()),
            moves_end: game
                .result
                .map_or(game.text.len(), |(_, span)| span.start as usize),
            lenient: opts.lenient,
            origin: (0..tokens.len()).map(Some).collect(),
            tokens,
            states: vec![start],
            variation,
            fixed: 0,
            near_from: 0,
            mended: Rc::from([]),
            recorded: game
                .result
                .map(|(r, _)| r)
                .or_else(|| game.tag("Result").and_then(|r| r.parse().ok()))
                .filter(|&r| r != GameResult::Unknown && !variation),
            margin: margin_tag
                .filter(|_| counting && !variation)
                .map(|recorded| MarginTag {
                    recorded,
                    budget: opts
                        .budget
                        .max_states(opts.budget.max_states.min(MARGIN_STATES)),
                }),
            margin_ignored: margin_tag.is_some() && !counting && !variation,
            merged: Rc::default(),
            meant: Rc::default(),
            count_states_left: Rc::new(Cell::new(MARGIN_ALLOWANCE)),
        })
    }

    /// The budget of one more margin count of at most `states` states, drawn from what the
    /// line's counts may store in all; `None` once too little is left for a count to tell
    /// anything (then the margin is left uncounted, as a count that only bounded it).
    pub fn count_budget(&self, tag: &MarginTag, states: u64) -> Option<Budget> {
        let left = self.count_states_left.get();
        let states = states.min(tag.budget.max_states).min(left);
        if states < MIN_COUNT_STATES.min(tag.budget.max_states) {
            return None;
        }
        // What a count stored is not reported: the most it may store is drawn.
        self.count_states_left.set(left - states);
        Some(tag.budget.max_states(states))
    }

    /// Replays from the last known cursor to the first move that breaks; `None` at the end.
    pub fn next_break(&mut self) -> Option<usize> {
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

    /// Replays from the last known cursor until the cursor before the token at `i` is known,
    /// or a move breaks before it.
    pub fn replay_to(&mut self, i: usize) {
        while self.states.len() <= i {
            let last = self.states.len() - 1;
            let mut cursor = self.states[last].clone();
            match self.tokens.get(last) {
                Some(t) if cursor.advance(t, self.lenient) => self.states.push(cursor),
                _ => return,
            }
        }
    }

    /// Plays the uncalled missed jump at the break `b` as it stands, as the replayer does.
    pub fn force_missed_jump(&mut self, b: usize) -> bool {
        let mut cursor = self.states[b].clone();
        if b + 1 != self.states.len() || !cursor.force_missed_jump(&self.tokens[b]) {
            return false;
        }
        self.states.push(cursor);
        true
    }

    /// A copy of the line with `change`, a repair of `kind`, made.
    pub fn with_change(&self, change: &Change, kind: SlipKind) -> Line {
        let mut line = Line {
            states: self.states[..=change.start].to_vec(),
            ..self.clone_without_states()
        };
        line.apply(change, kind);
        line
    }

    fn clone_without_states(&self) -> Line {
        Line {
            style: self.style,
            from_red: self.from_red,
            written: self.written.clone(),
            spans: self.spans.clone(),
            numbers: self.numbers.clone(),
            text: self.text.clone(),
            moves_end: self.moves_end,
            omits_separators: self.omits_separators,
            lenient: self.lenient,
            variation: self.variation,
            tokens: self.tokens.clone(),
            origin: self.origin.clone(),
            states: Vec::new(),
            fixed: self.fixed,
            near_from: self.near_from,
            mended: self.mended.clone(),
            recorded: self.recorded,
            margin: self.margin,
            margin_ignored: self.margin_ignored,
            merged: self.merged.clone(),
            meant: self.meant.clone(),
            count_states_left: self.count_states_left.clone(),
        }
    }

    /// Replaces the tokens with those of a repair of `kind` and forgets the cursors from the
    /// change on. The search then looks back past no repair (`fixed`), but a separator misread
    /// leaves the move's squares as written: a legal slip before it may still be found at a
    /// later break, and only that move is never read again (`mended`, decision 176).
    pub fn apply(&mut self, change: &Change, kind: SlipKind) {
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
        self.near_from = change.start + change.inserted.len();
        match (kind, self.origin.get(change.start)) {
            (SlipKind::SeparatorMisread, Some(&Some(written))) => {
                self.mended = self.mended.iter().copied().chain([written]).collect();
            }
            _ => self.fixed = self.near_from,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_str;

    fn line_with(margin_states: u64) -> Line {
        let game = parse_str("[Margin \"3\"]\n\n1. 33-43 84-75 *")
            .remove(0)
            .unwrap();
        let opts = ReplayOptions {
            budget: Budget::default().max_states(margin_states),
            ..ReplayOptions::default()
        };
        Line::new(&game, &opts).unwrap()
    }

    /// The counts of a line draw on one allowance (decision 201): the copies of a line share
    /// it, and once too little is left no count is made; but a count allowed fewer states than
    /// that floor by the options is still made.
    #[test]
    fn margin_counts_draw_on_one_allowance() {
        let line = line_with(2_000_000);
        let tag = line.margin.unwrap();
        let copy = line.clone();
        let mut drawn = 0;
        while let Some(budget) = copy.count_budget(&tag, MARGIN_STATES) {
            assert_eq!(
                budget.max_states,
                MARGIN_STATES.min(MARGIN_ALLOWANCE - drawn)
            );
            drawn += budget.max_states;
        }
        assert_eq!(drawn, MARGIN_ALLOWANCE);
        assert!(line.count_budget(&tag, MIN_COUNT_STATES).is_none());
        let small = line_with(1_000);
        let tag = small.margin.unwrap();
        assert_eq!(
            small
                .count_budget(&tag, MARGIN_STATES)
                .map(|b| b.max_states),
            Some(1_000)
        );
    }
}
