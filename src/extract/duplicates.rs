//! Duplicates: games with the same rules, start and main line as an earlier game, and games whose
//! main line begins a longer one, found from 64-bit fingerprints (one per game and prefix).

use super::{ExtractOptions, GameKey, GameRef, Numbering, locate, reading_result};
use crate::archive::{piece_bytes, read_in_order};
use crate::notation::{Game, SyntaxError};
use crate::replay::{Replay, Status, replay};
use crate::rules::{Move, Position, Rules};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// A fingerprint of a game's rules, start and moves, extended one move at a time: equal
/// fingerprints after k moves mean (but for a 2⁻⁶⁴ chance) the same first k moves from the same
/// start.
#[derive(Clone)]
struct Fingerprint(DefaultHasher);

impl Fingerprint {
    fn start(rules: &Rules, start: &Position) -> Fingerprint {
        let mut hasher = DefaultHasher::new();
        rules.to_string().hash(&mut hasher);
        start.to_setup().hash(&mut hasher);
        Fingerprint(hasher)
    }

    fn push(&mut self, m: Move) {
        (m.from.index(), m.to.index(), m.kind as u8).hash(&mut self.0);
    }

    fn value(&self) -> u64 {
        self.0.finish()
    }
}

/// Every prefix fingerprint of a game's main line: after 0, 1, …, all moves.
fn prefix_fingerprints(replayed: &Replay) -> impl Iterator<Item = u64> + '_ {
    let mut print = Fingerprint::start(&replayed.rules, &replayed.start);
    std::iter::once(print.value()).chain(replayed.moves.iter().map(move |&m| {
        print.push(m);
        print.value()
    }))
}

pub(super) enum Earlier<'a> {
    Same(&'a GameRef),
    Within(&'a GameRef),
}

/// Which candidate games (legal and selected) repeat an earlier one or begin a longer one.
pub(super) struct DuplicateIndex {
    /// The first game with each full fingerprint.
    first: HashMap<u64, (GameKey, GameRef)>,
    /// The full fingerprint of each candidate.
    full: HashMap<GameKey, u64>,
    /// A longer game that begins with this game's moves, by the shorter game.
    within: HashMap<GameKey, GameRef>,
}

impl DuplicateIndex {
    pub(super) fn build(files: &[PathBuf], options: &ExtractOptions) -> io::Result<DuplicateIndex> {
        let mut index = DuplicateIndex {
            first: HashMap::new(),
            full: HashMap::new(),
            within: HashMap::new(),
        };
        // First reading: the full fingerprint of every candidate.
        each_candidate(files, options, |key, game_ref, prints| {
            let full = prints.last().copied().unwrap_or_default();
            index.full.insert(key, full);
            index.first.entry(full).or_insert((key, game_ref));
        })?;
        // Second reading: a candidate's proper prefixes that are another candidate's whole game.
        let mut within = HashMap::new();
        each_candidate(files, options, |_, game_ref, prints| {
            // Proper prefixes of at least one move.
            let inner = prints
                .get(1..prints.len().saturating_sub(1))
                .unwrap_or_default();
            for print in inner {
                if let Some((shorter, _)) = index.first.get(print) {
                    within.entry(*shorter).or_insert_with(|| game_ref.clone());
                }
            }
        })?;
        index.within = within;
        Ok(index)
    }

    /// What an earlier (or longer) game says about the candidate at `key`.
    pub(super) fn earlier(&self, key: GameKey) -> Option<Earlier<'_>> {
        let full = self.full.get(&key)?;
        match self.first.get(full) {
            Some((first, game_ref)) if *first != key => Some(Earlier::Same(game_ref)),
            _ => self.within.get(&key).map(Earlier::Within),
        }
    }
}

/// Calls `f`, in order, with each game that is legal and selected and its prefix fingerprints
/// (see [`prefix_fingerprints`]); the games are replayed in parallel.
fn each_candidate(
    files: &[PathBuf],
    options: &ExtractOptions,
    mut f: impl FnMut(GameKey, GameRef, &[u64]),
) -> io::Result<()> {
    let fingerprints = |file, name: &Arc<str>, item: Result<Game, SyntaxError>| {
        let (key, line) = locate(file, &item);
        let game = item.ok()?;
        let replayed = replay(&game, &options.replay);
        let wanted =
            replayed.status() != Status::Invalid && options.selection.admits(&game, &replayed);
        wanted.then(|| {
            let prints: Vec<u64> = prefix_fingerprints(&replayed).collect();
            (key, name.clone(), line, prints)
        })
    };
    let mut numbering = Numbering::default();
    let errors = read_in_order(
        files,
        piece_bytes(options.piece_bytes, &options.replay),
        options.replay.rules.map(|r| r.board()),
        fingerprints,
        |file, candidate| {
            // Every game is numbered, candidate or not.
            let index = numbering.next(file);
            if let Some((key, file, line, prints)) = candidate {
                f(key, GameRef { file, index, line }, &prints);
            }
            true
        },
    );
    reading_result(errors)
}
