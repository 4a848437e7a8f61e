//! Completion at a move: the legal moves of the position there, in the record's notation, the
//! compulsory jumps first; the next move number; "Salta!" after a move that missed a jump.

use super::library::{self, CheckOptions, Ply, Replayed};
use crate::board::Color;
use crate::notation::{MoveText, Notation};
use crate::rules::Position;

/// One thing to offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Offer {
    /// What is inserted.
    pub text: String,
    /// What it is, in a few words.
    pub detail: String,
    /// The order to show offers in.
    pub sort: String,
    /// A move (else a move number or a call).
    pub is_move: bool,
    /// Offered first (a compulsory jump, a due call).
    pub preferred: bool,
}

/// What to offer at byte `at` of `text` (a game's text from its start, up to the cursor at
/// least), and the bytes of `text` that an offer replaces (the word being typed).
pub(super) fn offers(
    text: &str,
    at: usize,
    opts: &CheckOptions,
) -> (std::ops::Range<usize>, Vec<Offer>) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let start = word_start(text, at);
    let Some(game) = library::game_before(text, start) else {
        return (start..at, Vec::new());
    };
    if game.tags.iter().any(|t| t.span.end as usize > start) {
        return (start..at, Vec::new());
    }
    let (style, from_red) = library::style_of(&game);
    let replayed = Replayed::new(&game, opts);
    // The last move written before the word, the last move met at each depth (a variation's
    // parent is the last move of the depth above when it starts), and the plies walked.
    let mut last_at_depth: Vec<Option<Ply<'_>>> = Vec::new();
    let mut last: Option<(Ply<'_>, Vec<Option<Ply<'_>>>)> = None;
    replayed.walk(&game, &mut |ply, _| {
        let end = ply.node.salta().map_or(ply.node.span.end, |s| s.end) as usize;
        if end > start {
            return false;
        }
        last_at_depth.truncate(ply.depth);
        last_at_depth.resize_with(ply.depth, || None);
        last_at_depth.push(Some(copy(ply)));
        last = Some((
            copy(ply),
            last_at_depth.iter().map(|p| p.as_ref().map(copy)).collect(),
        ));
        true
    });
    let (pos, anchor) = match last {
        None => (replayed.start(), None),
        Some((ply, stack)) => {
            let end = ply.node.salta().map_or(ply.node.span.end, |s| s.end) as usize;
            let place = follow_parens(&text[end..start], &ply, &stack);
            (place.0, place.1)
        }
    };
    let mut out = Vec::new();
    let g = pos.geometry();
    // A move that missed a jump and was not called: its opponent may call it now.
    if let Some(missed) = anchor.as_ref().filter(|p| missed_jump(p)) {
        out.push(Offer {
            text: "Salta!".to_string(),
            detail: format!(
                "call the jump {} missed: the move is taken back and corrected",
                missed.side
            ),
            sort: "0".to_string(),
            is_move: false,
            preferred: true,
        });
    }
    let moves = pos.legal_moves().sorted(g);
    for m in moves {
        let piece = pos.piece_at(m.from);
        let written = MoveText::of_move(m, piece, style, g)
            .from_red(from_red && style != Notation::Algebraic)
            .to_string();
        let who = piece.map_or_else(String::new, |p| {
            format!("{} {} {}", p.color(), p.kind().name(), p.number())
        });
        let (rank, what) = if m.is_jump() && pos.rules().compulsory {
            ("1", "jump, compulsory")
        } else if m.is_jump() {
            ("1", "jump")
        } else {
            ("2", "step")
        };
        out.push(Offer {
            sort: format!("{rank}{:04}", out.len()),
            detail: format!("{who}: {what}")
                .trim_start_matches(": ")
                .to_string(),
            text: written,
            is_move: true,
            preferred: rank == "1",
        });
    }
    // The move number the next move takes, when none is written before it.
    let before = text[..start].trim_end();
    let numbered = before.ends_with('.') && !before.ends_with("...") || before.ends_with("...");
    if !numbered {
        let number = match pos.side_to_move() {
            Color::Green => Some(format!("{}.", pos.move_number())),
            Color::Red if before.ends_with('}') || before.ends_with('(') => {
                Some(format!("{}...", pos.move_number()))
            }
            Color::Red => None,
        };
        if let Some(number) = number {
            out.push(Offer {
                text: number,
                detail: format!("the number of {}'s next move", pos.side_to_move()),
                sort: "3".to_string(),
                is_move: false,
                preferred: false,
            });
        }
    }
    (start..at, out)
}

/// Whether a written move stepped past a compulsory jump and no "Salta!" follows it.
fn missed_jump(ply: &Ply<'_>) -> bool {
    ply.node.salta().is_none()
        && ply.before.rules().compulsory
        && ply.played.is_some_and(|m| !m.is_jump())
        && !ply.before.available_jumps().is_empty()
}

/// A ply's copy (plies are small and hold a borrowed node).
fn copy<'g>(ply: &Ply<'g>) -> Ply<'g> {
    Ply {
        node: ply.node,
        before: ply.before,
        played: ply.played,
        piece: ply.piece,
        ply: ply.ply,
        number: ply.number,
        side: ply.side,
        depth: ply.depth,
        after: ply.after,
    }
}

/// Where the cursor stands after the parentheses between the last move and it: after a `(` at
/// the start of a variation on that move (the position before it); after a `)` back in the line
/// above. The move the position follows, if it comes right after one.
fn follow_parens<'g>(
    between: &str,
    last: &Ply<'g>,
    stack: &[Option<Ply<'g>>],
) -> (Position, Option<Ply<'g>>) {
    let mut depth = last.depth;
    let mut anchor = copy(last);
    let mut opened = false;
    for paren in parens(between) {
        match (paren, opened) {
            ('(', _) => opened = true,
            (')', true) => opened = false,
            (')', false) => {
                if depth == 0 {
                    continue;
                }
                depth -= 1;
                if let Some(Some(parent)) = stack.get(depth) {
                    anchor = copy(parent);
                }
            }
            _ => {}
        }
    }
    if opened {
        (anchor.before, None)
    } else {
        (anchor.after, Some(anchor))
    }
}

/// The parentheses of a stretch of movetext, outside comments.
fn parens(text: &str) -> impl Iterator<Item = char> + '_ {
    let mut in_brace = false;
    let mut in_line = false;
    text.chars().filter(move |&c| {
        match c {
            '{' if !in_line => in_brace = true,
            '}' if in_brace => in_brace = false,
            ';' if !in_brace => in_line = true,
            '\n' if in_line => in_line = false,
            '(' | ')' if !in_brace && !in_line => return true,
            _ => {}
        }
        false
    })
}

/// Where the word that ends at `at` starts: letters, digits, and the marks moves are written
/// with.
fn word_start(text: &str, at: usize) -> usize {
    let word = |c: char| c.is_alphanumeric() || matches!(c, '-' | ':' | '#' | '★' | '☾' | '☀');
    text[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| word(c))
        .last()
        .map_or(at, |(i, _)| i)
}
