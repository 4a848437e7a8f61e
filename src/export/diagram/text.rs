//! The text writer: a Unicode board for terminals. Each square is five columns wide: a marker, three
//! columns of content, a marker. Green, the light side in print, has hollow symbols (☆ ☽ ☼ ○), Red
//! filled ones (★ ☾ ☀ ●); a legend under the board says so.

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
    let green = piece.color == Color::Green;
    if pyramid {
        return disc(piece.color).to_string();
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
            format!("{symbol}{}", piece.number())
        }
        PieceStyle::Numbers => format!("{}{}", disc(piece.color), piece.single_number()),
        PieceStyle::Designators => {
            let letter = ['S', 'M', 'U'][piece.kind() as usize];
            let letter = if green {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            format!("{letter}{}", piece.number())
        }
    }
}

fn legend(style: PieceStyle, pyramid: bool) -> &'static str {
    match (pyramid, style) {
        (true, _) => "○ Green  ● Red",
        (false, PieceStyle::Symbols) => "Green ☆ star ☽ moon ☼ sun  Red ★ star ☾ moon ☀ sun",
        (false, PieceStyle::Numbers) => "○ Green  ● Red  (stars 1–5, moons 6–10, suns 11–15)",
        (false, PieceStyle::Designators) => {
            "S star  M moon  U sun  (upper case Green, lower case Red)"
        }
    }
}

/// Titles and captions on a single line, so they cannot break the board's layout.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
