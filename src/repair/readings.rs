//! The costly readings of a broken game's main line, worked out once for all who ask.

use super::decode::decode;
use super::search::{Analysis, MAX_BREAKS, analyse};
use crate::notation::Game;
use crate::replay::ReplayOptions;
use std::cell::OnceCell;

/// The readings of one game's main line that cost the most, each worked out at most once: the
/// search's, a break at a time, and the line read whole. What `check` says of a page that
/// breaks often ([`annotate_with`](super::annotate_with)) and what `repair` writes of it
/// ([`mend_with`](super::mend_with)) both rest on them, and the editor asks for both of one
/// game: a page read whole takes a third of a second or more.
///
/// It holds no game: keep one for each game, and ask it with that game and the same options
/// each time (whether a replay keeps its moves, [`ReplayOptions::summary_only`], is all that
/// may differ).
#[derive(Clone, Debug, Default)]
pub struct MainReadings {
    searched: OnceCell<Analysis>,
    read_whole: OnceCell<Option<Analysis>>,
}

impl MainReadings {
    /// The search's readings of the game's breaks, a break at a time.
    pub(super) fn searched(&self, game: &Game, opts: &ReplayOptions) -> Analysis {
        let searched = self
            .searched
            .get_or_init(|| analyse(game, opts, MAX_BREAKS));
        searched.clone()
    }

    /// The game's main line read whole at once (see `decode`).
    pub(super) fn read_whole(&self, game: &Game, opts: &ReplayOptions) -> Option<Analysis> {
        self.read_whole.get_or_init(|| decode(game, opts)).clone()
    }

    /// Whether the main line was read whole already.
    pub fn was_read_whole(&self) -> bool {
        self.read_whole.get().is_some()
    }
}
