//! The text writer: a Unicode board for terminals. Each square is five columns wide: a marker, three
//! columns of content, a marker. The sides differ in shape, never only in colour or direction: Green,
//! the light side in print, has hollow symbols and plain digits (☆3 ☽3 ☼3, ○), Red filled symbols
//! and filled digits (★❸ ☾❸ ☀❸, ●), so the two moons differ in more than the way the crescent turns;
//! designators are capitalised for Green (`Su3`) and lower case for Red (`su3`). A legend under the
//! board says so.

use super::options::{DiagramOptions, PieceStyle};
use super::scene::View;
use crate::board::{BoardKind, Color, Square};
use crate::rules::{Piece, PieceKind, Position};
use std::fmt::Write;

const CELL: usize = 5;

pub(crate) fn write(pos: &Position, opts: &DiagramOptions) -> String {
    let g = pos.geometry();
    let view = View {
        geometry: g,
        flip: opts.flip,
    };
    let pyramid = g.kind == BoardKind::Pyramid;
    let coords = opts.coordinates;
    let margin = if coords.algebraic() { "   " } else { "" };
    let rule = "─".repeat(CELL * view.size() as usize);
    let mut out = String::new();
    if let Some(title) = &opts.title {
        let _ = writeln!(out, "{}", one_line(title));
    }
    let _ = writeln!(out, "{margin}┌{rule}┐");
    for row in 0..view.size() {
        if coords.algebraic() {
            let _ = write!(out, "{:>2} ", view.rank_label(row));
        }
        out.push('│');
        for col in 0..view.size() {
            let Some(sq) = view.square_at(col, row) else {
                out.push_str(&" ".repeat(CELL));
                continue;
            };
            let content = match pos.piece_at(sq) {
                Some(piece) => piece_text(piece, opts.pieces, pyramid),
                None if coords.numbers() => g.number(sq).to_string(),
                None => "·".to_string(),
            };
            let (open, close) = markers(sq, opts);
            // Centred, an odd column left over going right: a piece's symbol stands over the file letter.
            let _ = write!(out, "{open}{content:^3}{close}");
        }
        out.push_str("│\n");
    }
    let _ = writeln!(out, "{margin}└{rule}┘");
    if coords.algebraic() {
        out.push_str(margin);
        out.push(' ');
        for col in 0..view.size() {
            let _ = write!(out, "{:^CELL$}", view.file_label(col));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    let name = |sq: Square| {
        if coords == super::Coordinates::Numbers {
            g.number(sq).to_string()
        } else {
            g.name(sq)
        }
    };
    if opts.side_to_move {
        let _ = writeln!(
            out,
            "{} to move, move {}",
            pos.side_to_move(),
            pos.move_number()
        );
    }
    if let Some((from, to)) = opts.last_move {
        let _ = writeln!(out, "Last move ( ): {}-{}", name(from), name(to));
    }
    if !opts.marks.is_empty() {
        let marks: Vec<String> = opts.marks.iter().map(|&sq| name(sq)).collect();
        let _ = writeln!(out, "Marked [ ]: {}", marks.join(", "));
    }
    if !opts.arrows.is_empty() {
        let arrows: Vec<String> = opts
            .arrows
            .iter()
            .map(|&(a, b)| format!("{}→{}", name(a), name(b)))
            .collect();
        let _ = writeln!(out, "Arrows: {}", arrows.join(", "));
    }
    let _ = writeln!(out, "{}", legend(opts.pieces, pyramid));
    if let Some(caption) = &opts.caption {
        let _ = writeln!(out, "{}", one_line(caption));
    }
    out
}

/// Marks `[ ]` win over the last move `( )` when a square is both.
fn markers(sq: Square, opts: &DiagramOptions) -> (char, char) {
    if opts.marks.contains(&sq) {
        ('[', ']')
    } else if opts
        .last_move
        .is_some_and(|(from, to)| sq == from || sq == to)
    {
        ('(', ')')
    } else {
        (' ', ' ')
    }
}

fn disc(color: Color) -> char {
    match color {
        Color::Green => '○',
        Color::Red => '●',
    }
}

fn piece_text(piece: Piece, style: PieceStyle, pyramid: bool) -> String {
    let green = piece.color() == Color::Green;
    if pyramid {
        return disc(piece.color()).to_string();
    }
    match style {
        PieceStyle::Symbols => {
            let symbol = match (piece.kind(), green) {
                (PieceKind::Star, true) => '☆',
                (PieceKind::Star, false) => '★',
                (PieceKind::Moon, true) => '☽',
                (PieceKind::Moon, false) => '☾',
                (PieceKind::Sun, true) => '☼',
                (PieceKind::Sun, false) => '☀',
            };
            let number = piece.number();
            if green {
                format!("{symbol}{number}")
            } else {
                const FILLED: [char; 5] = ['❶', '❷', '❸', '❹', '❺'];
                format!("{symbol}{}", FILLED[number as usize - 1])
            }
        }
        PieceStyle::Numbers => format!("{}{}", disc(piece.color()), piece.single_number()),
        PieceStyle::Designators if green => piece.designator(),
        PieceStyle::Designators => piece.designator().to_lowercase(),
    }
}

fn legend(style: PieceStyle, pyramid: bool) -> &'static str {
    match (pyramid, style) {
        (true, _) => "○ Green  ● Red",
        (false, PieceStyle::Symbols) => {
            "Green ☆1 star ☽1 moon ☼1 sun (hollow, plain digit)  Red ★❶ star ☾❶ moon ☀❶ sun (filled)"
        }
        (false, PieceStyle::Numbers) => "○ Green  ● Red  (stars 1–5, moons 6–10, suns 11–15)",
        (false, PieceStyle::Designators) => {
            "St star  Mo moon  Su sun 1–5  (capitalised Green: Su3, lower case Red: su3)"
        }
    }
}

/// Titles and captions on a single line, so they cannot break the board's layout.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
