//! Bounds on what one game may hold.

/// Bounds on what one game may hold, so that hostile input gives a diagnostic and not unbounded
/// memory or a stack overflow. Built from [`Limits::default`] with its setters:
/// `Limits::default().comment_bytes(512)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Bytes in one tag pair.
    pub tag_bytes: usize,
    /// Bytes in one comment.
    pub comment_bytes: usize,
    /// Bytes in one game (tags and movetext); at most [`MAX_GAME_BYTES`], whatever is asked.
    pub game_bytes: usize,
    /// Nesting depth of variations (at most [`MAX_VARIATION_DEPTH`], whatever is asked: the parser
    /// recurses once per level).
    pub variation_depth: usize,
}

/// The largest game any reader accepts: spans are 32-bit, and the read buffer holds at most about
/// twice a game and a chunk.
pub const MAX_GAME_BYTES: usize = 1 << 30;

/// The deepest nesting of variations any reader accepts, so that recursion stays far from the end
/// of even a small thread stack.
pub const MAX_VARIATION_DEPTH: usize = 256;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tag_bytes: 16 * 1024,
            comment_bytes: 256 * 1024,
            game_bytes: 8 * 1024 * 1024,
            variation_depth: 64,
        }
    }
}

impl Limits {
    /// Bytes in one tag pair (the field `tag_bytes`).
    #[must_use]
    pub fn tag_bytes(mut self, bytes: usize) -> Limits {
        self.tag_bytes = bytes;
        self
    }

    /// Bytes in one comment (the field `comment_bytes`).
    #[must_use]
    pub fn comment_bytes(mut self, bytes: usize) -> Limits {
        self.comment_bytes = bytes;
        self
    }

    /// Bytes in one game (the field `game_bytes`).
    #[must_use]
    pub fn game_bytes(mut self, bytes: usize) -> Limits {
        self.game_bytes = bytes;
        self
    }

    /// Nesting depth of variations (the field `variation_depth`).
    #[must_use]
    pub fn variation_depth(mut self, depth: usize) -> Limits {
        self.variation_depth = depth;
        self
    }
}
