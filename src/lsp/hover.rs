//! Hover: on a move, the position after it as a text diagram, who is to move, what was
//! compulsory, the move in the other notations and the piece that moved; on a tag, what it means.

use super::library::{self, CheckOptions, Ply, Replayed};
use crate::export::diagram::{self, Coordinates, DiagramOptions};
use crate::notation::{Game, MoveText, Notation, Played};
use crate::rules::{Move, Position};
use std::str::FromStr;

/// The hover text (Markdown) for byte `at` of a game's text, if there is something to say there.
pub(super) fn hover(game_text: &str, at: usize, opts: &CheckOptions) -> Option<String> {
    let game = library::game_before(game_text, game_text.len())?;
    if let Some(tag) = game.tags.iter().find(|t| t.span.range().contains(&at)) {
        return Some(tag_meaning(&tag.name, &tag.value));
    }
    if let Some((_, span)) = game.result.filter(|(_, s)| s.range().contains(&at)) {
        let token = game_text.get(span.range()).unwrap_or_default();
        return Some(format!("**{token}**: {}", result_meaning(token)));
    }
    let replayed = Replayed::new(&game, opts);
    let mut found = None;
    replayed.walk(&game, &mut |ply, _| {
        let node = ply.node;
        let call = node.salta().filter(|s| s.range().contains(&at));
        if node.span.range().contains(&at) || node.span.end as usize == at || call.is_some() {
            found = Some(describe(&game, ply, call.is_some()));
            return false;
        }
        true
    });
    found
}

/// What a hover says of a written move.
fn describe(game: &Game, ply: &Ply<'_>, on_call: bool) -> String {
    let (style, from_red) = library::style_of(game);
    let g = ply.before.geometry();
    let written = game.text.get(ply.node.span.range()).unwrap_or_default();
    let number = if ply.side == crate::board::Color::Green {
        format!("{}.", ply.number)
    } else {
        format!("{}...", ply.number)
    };
    let mut out = String::new();
    if on_call {
        out.push_str(
            "**Salta!**: the opponent called the jump this move missed. The move is taken back, \
             and the next move, by the same side, is the correction (rules.md §4).\n\n",
        );
    }
    let Some(m) = ply.played else {
        let what = if let Played::Garbled = ply.node.played {
            "is not a move as written"
        } else {
            "could not be played here"
        };
        out.push_str(&format!(
            "**{number} {written}** {what} (see its diagnostic).\n\n\
             The position before it, {} to move:\n\n",
            ply.side
        ));
        out.push_str(&board(
            &ply.before,
            None,
            square_names(style, from_red),
            false,
        ));
        out.push_str(&legal_line(&ply.before, style, from_red));
        return out;
    };
    let piece = ply
        .piece
        .map(|p| format!("{} {} {}", p.color(), p.kind().name(), p.number()))
        .unwrap_or_else(|| "no piece (a pass)".to_string());
    let kind = if m.is_jump() { "a jump" } else { "a step" };
    let depth = if ply.depth > 0 {
        format!(", in a variation (depth {})", ply.depth)
    } else {
        String::new()
    };
    out.push_str(&format!(
        "**{number} {written}** — ply {}, {piece}, {kind}{depth}\n\n",
        ply.ply
    ));
    out.push_str(&board(
        &ply.after,
        Some(m),
        square_names(style, from_red),
        false,
    ));
    let next = ply.after;
    out.push_str(&format!(
        "{} to move, move {}.\n\n",
        next.side_to_move(),
        next.move_number()
    ));
    out.push_str(&compulsory_line(&ply.before, m, style, from_red));
    let in_notation = |n: Notation| {
        MoveText::of_move(m, ply.piece, n, g)
            .from_red(from_red && n != Notation::Algebraic)
            .to_string()
    };
    out.push_str(&format!(
        "\n\nIn the notations: numeric `{}` · algebraic `{}` · piece `{}`",
        in_notation(Notation::Numeric),
        in_notation(Notation::Algebraic),
        in_notation(Notation::Piece),
    ));
    if from_red {
        out.push_str(" (numbers as this record counts them, from Red's side)");
    }
    out
}

/// The diagram of a position in a fenced block, the last move marked; its squares named as
/// the record names them (numbers on the empty squares, unless it writes algebraic squares or
/// numbers them from Red's side); the side to move said under it when `side_to_move` (a move's
/// hover says it after the diagram's legend).
fn board(pos: &Position, last: Option<Move>, names: Coordinates, side_to_move: bool) -> String {
    let opts = DiagramOptions::default()
        .coordinates(names)
        .side_to_move(side_to_move)
        .last_move(last);
    match diagram::text(pos, &opts) {
        Ok(text) => format!("```text\n{}\n```\n", text.trim_end()),
        Err(e) => format!("(no diagram: {e})\n"),
    }
}

/// How a diagram names the squares of a record written in `style`.
fn square_names(style: Notation, from_red: bool) -> Coordinates {
    if style == Notation::Algebraic || from_red {
        Coordinates::Algebraic
    } else {
        Coordinates::Numbers
    }
}

/// What the rules required of the move: a compulsory jump, or nothing.
fn compulsory_line(before: &Position, played: Move, style: Notation, from_red: bool) -> String {
    let jumps = before.available_jumps();
    if jumps.is_empty() {
        return "No jump was due: any legal move would do.".to_string();
    }
    let names = move_names(before, jumps.as_slice(), style, from_red);
    if !before.rules().compulsory {
        return format!("Jumps were open ({names}), but not compulsory under these rules.");
    }
    if played.is_jump() {
        format!("A jump was compulsory: {names}.")
    } else {
        format!("A jump was compulsory ({names}); this move missed it.")
    }
}

/// The legal moves of a position, for a move that could not be played.
fn legal_line(pos: &Position, style: Notation, from_red: bool) -> String {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return "No legal move.".to_string();
    }
    format!(
        "Legal here: {}",
        move_names(pos, &moves.sorted(pos.geometry()), style, from_red)
    )
}

/// Moves as the record writes them, `a, b, c`.
fn move_names(pos: &Position, moves: &[Move], style: Notation, from_red: bool) -> String {
    moves
        .iter()
        .map(|&m| {
            MoveText::of_move(m, pos.piece_at(m.from), style, pos.geometry())
                .from_red(from_red)
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a result token says.
fn result_meaning(token: &str) -> &'static str {
    match token.parse::<crate::notation::GameResult>().ok() {
        Some(crate::notation::GameResult::GreenWins) => "Green won.",
        Some(crate::notation::GameResult::RedWins) => "Red won.",
        Some(crate::notation::GameResult::Draw) => "drawn.",
        _ => "unfinished, or the result is not known.",
    }
}

/// What a tag means (notation.md's table), and how its value reads.
fn tag_meaning(name: &str, value: &str) -> String {
    let meaning = match name {
        "Event" => "the event (tournament, match, club evening) the game was played at.",
        "Site" => "where the game was played.",
        "Date" => "when: `YYYY.MM.DD`, `??` for unknown parts.",
        "Round" => "the round of the event.",
        "Source" => "where the record was taken from.",
        "Annotator" => "who wrote the comments.",
        "Green" => "the player of Green, who moves first.",
        "Red" => "the player of Red.",
        "Result" => {
            "`1-0` Green won, `0-1` Red won, `1/2-1/2` drawn, `*` unfinished or unknown; it \
             must agree with the result token and with the game as replayed."
        }
        "Margin" => {
            "the points the game was won by (a whole number), as published: the moves the loser still needed."
        }
        "Rules" => {
            "the rule set: `salta` (default), `winther` or `pyramid`, optionally with switches, \
             e.g. `salta; jumps=any; blockade=off` (rules.md §3)."
        }
        "MoveLimit" => {
            "moves per side after which the game is adjudicated (`120`); one per side, Green's \
             first, in a handicap game (`100/120`); `-` or absent: no limit."
        }
        "Odds" => "the handicap move rhythm: `red 3:2` = Red makes 3 moves for every 2 of Green's.",
        "Numbering" => {
            "`green` (default) or `red`: the source numbered the squares from Red's side (`n ↦ \
             116 − n`); the moves are read turned half round."
        }
        "Setup" => {
            "the starting position, if not the standard one: `SIDE/GREEN/RED[/MOVE]`, each side's \
             15 squares for star 1–5, moon 1–5, sun 1–5."
        }
        _ => "a tag the toolkit does not interpret; it is kept and written back.",
    };
    let mut out = format!("**[{name}]**: {meaning}");
    match name {
        "Result" => out.push_str(&format!("\n\n`{value}`: {}", result_meaning(value))),
        "Rules" => match crate::rules::Rules::from_str(value) {
            Ok(rules) => out.push_str(&format!("\n\nRead as: `{rules}`")),
            Err(e) => out.push_str(&format!("\n\n`{value}` does not read: {e}")),
        },
        "Setup" => {
            if let Ok(pos) = Position::from_setup(value, crate::rules::Rules::default()) {
                out.push_str("\n\n");
                out.push_str(&board(&pos, None, Coordinates::Numbers, true));
            }
        }
        _ => {}
    }
    out
}
