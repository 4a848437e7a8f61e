//! The text writer: a board for terminals and plain-text files in ASCII alone, so that every
//! monospace font draws it and no glyph is of ambiguous width (Unicode's stars, discs, circled
//! digits and even box-drawing lines are "ambiguous" and turn double-width in East Asian
//! terminals; DejaVu Sans Mono, Debian's default, lacks ❶–❺ altogether). Each square is five
//! columns: a marker, three columns of content, a marker; a board with its coordinates is 55
//! columns and every line, the legend too, stays within 80.
//!
//! The sides differ in shape, never only in colour: pieces are named by their designators, Green's
//! capitalised (`St3`, `Mo3`, `Su3`) and Red's in lower case (`st3`, `mo3`, `su3`), as chess
//! notation sets White's pieces in capitals; numbered pieces are `G12` and `r12`, Pyramid pieces
//! `G` and `r`. With ANSI colour ([`super::text_ansi`]) Green's pieces are green, Red's red, the
//! last move's markers yellow and marked squares' blue.

use super::Coordinates;
use super::options::{DiagramOptions, PieceStyle};
use super::scene::View;
use crate::board::{BoardKind, Color, Square};
use crate::rules::{Piece, Position};
use std::fmt::Write;

const CELL: usize = 5;
/// The widest line written.
const COLUMNS: usize = 80;

/// ANSI colours, or none.
#[derive(Clone, Copy)]
struct Paint {
    ansi: bool,
}

impl Paint {
    fn paint(self, text: &str, code: &str) -> String {
        if self.ansi {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn side(self, text: &str, color: Color) -> String {
        match color {
            Color::Green => self.paint(text, "1;32"),
            Color::Red => self.paint(text, "1;31"),
        }
    }
}

pub(crate) fn write(pos: &Position, opts: &DiagramOptions, ansi: bool) -> String {
    let paint = Paint { ansi };
    let g = pos.geometry();
    let view = View {
        geometry: g,
        flip: opts.flip,
    };
    let pyramid = g.kind == BoardKind::Pyramid;
    let coords = opts.coordinates;
    let margin = if coords.algebraic() { "   " } else { "" };
    let rule = "-".repeat(CELL * view.size() as usize);
    let mut out = String::new();
    if let Some(title) = &opts.title {
        wrapped(&mut out, title);
    }
    let _ = writeln!(out, "{margin}+{rule}+");
    for row in 0..view.size() {
        if coords.algebraic() {
            let _ = write!(out, "{:>2} ", view.rank_label(row));
        }
        out.push('|');
        for col in 0..view.size() {
            let Some(sq) = view.square_at(col, row) else {
                out.push_str(&" ".repeat(CELL));
                continue;
            };
            let content = match pos.piece_at(sq) {
                Some(piece) => {
                    let text = format!("{:^3}", piece_text(piece, opts.pieces, pyramid));
                    paint.side(&text, piece.color())
                }
                None if coords.numbers() => format!("{:^3}", g.number(sq)),
                None => " . ".to_string(),
            };
            let (open, close) = markers(sq, opts, paint);
            let _ = write!(out, "{open}{content}{close}");
        }
        out.push_str("|\n");
    }
    let _ = writeln!(out, "{margin}+{rule}+");
    if coords.algebraic() {
        let mut files = format!("{margin} ");
        for col in 0..view.size() {
            let _ = write!(files, "{:^CELL$}", view.file_label(col));
        }
        let _ = writeln!(out, "{}", files.trim_end());
    }
    let name = |sq: Square| {
        if coords == Coordinates::Numbers {
            g.number(sq).to_string()
        } else {
            g.name(sq)
        }
    };
    if opts.side_to_move {
        let side = pos.side_to_move();
        let _ = writeln!(
            out,
            "{} to move, move {}",
            paint.side(&side.to_string(), side),
            pos.move_number()
        );
    }
    if let Some((from, to)) = opts.last_squares() {
        let _ = writeln!(
            out,
            "Last move {}: {}-{}",
            paint.paint("( )", "1;33"),
            name(from),
            name(to)
        );
    }
    if !opts.marks.is_empty() {
        let marks: Vec<String> = opts.marks.iter().map(|&sq| name(sq)).collect();
        wrapped(
            &mut out,
            &format!(
                "Marked {}: {}",
                paint.paint("[ ]", "1;34"),
                marks.join(", ")
            ),
        );
    }
    if !opts.arrows.is_empty() {
        let arrows: Vec<String> = opts
            .arrows
            .iter()
            .map(|&(a, b)| format!("{}->{}", name(a), name(b)))
            .collect();
        wrapped(&mut out, &format!("Arrows: {}", arrows.join(", ")));
    }
    let _ = writeln!(out, "{}", legend(opts.pieces, pyramid, paint));
    if let Some(caption) = &opts.caption {
        wrapped(&mut out, caption);
    }
    out
}

/// Marks `[ ]` win over the last move `( )` when a square is both.
fn markers(sq: Square, opts: &DiagramOptions, paint: Paint) -> (String, String) {
    if opts.marks.contains(&sq) {
        (paint.paint("[", "1;34"), paint.paint("]", "1;34"))
    } else if opts
        .last_squares()
        .is_some_and(|(from, to)| sq == from || sq == to)
    {
        (paint.paint("(", "1;33"), paint.paint(")", "1;33"))
    } else {
        (" ".into(), " ".into())
    }
}

fn piece_text(piece: Piece, style: PieceStyle, pyramid: bool) -> String {
    let green = piece.color() == Color::Green;
    let side = if green { "G" } else { "r" };
    match (pyramid, style) {
        (true, _) => side.to_string(),
        (false, PieceStyle::Numbers) => format!("{side}{}", piece.single_number()),
        (false, _) if green => piece.designator(),
        (false, _) => piece.designator().to_lowercase(),
    }
}

fn legend(style: PieceStyle, pyramid: bool, paint: Paint) -> String {
    let green = paint.side("Green", Color::Green);
    let red = paint.side("Red", Color::Red);
    match (pyramid, style) {
        (true, _) => format!("{green} G, {red} r"),
        (false, PieceStyle::Numbers) => {
            format!("{green} G1-G15, {red} r1-r15 (stars 1-5, moons 6-10, suns 11-15)")
        }
        (false, _) => {
            format!("{green} St Mo Su 1-5 (capitals), {red} st mo su (lower case): star, moon, sun")
        }
    }
}

/// Titles, captions and lists on lines of at most 80 columns, broken at spaces; control
/// characters become spaces, so nothing can break the board's layout.
fn wrapped(out: &mut String, text: &str) {
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let visible = |s: &str| {
            // ANSI sequences take no columns.
            let mut n = 0;
            let mut escape = false;
            for c in s.chars() {
                match c {
                    '\x1b' => escape = true,
                    'm' if escape => escape = false,
                    _ if escape => {}
                    _ => n += 1,
                }
            }
            n
        };
        if !line.is_empty() && visible(&line) + 1 + visible(word) > COLUMNS {
            let _ = writeln!(out, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    let _ = writeln!(out, "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn ascii_within_80_columns_in_every_style() {
        let pos = Position::start(Rules::default());
        for style in [
            PieceStyle::Symbols,
            PieceStyle::Numbers,
            PieceStyle::Designators,
        ] {
            for coordinates in [Coordinates::Both, Coordinates::Numbers] {
                let opts = DiagramOptions::default()
                    .pieces(style)
                    .coordinates(coordinates)
                    .caption("A caption long enough to need two lines of text when it is set, to see that it is broken at a space".to_string());
                let text = write(&pos, &opts, false);
                assert!(text.is_ascii(), "{text}");
                assert!(text.lines().all(|l| l.len() <= COLUMNS), "{text}");
            }
        }
    }

    #[test]
    fn colour_only_adds_escape_sequences() {
        let pos = Position::start(Rules::default());
        let opts = DiagramOptions::default();
        let plain = write(&pos, &opts, false);
        let coloured = write(&pos, &opts, true);
        assert!(coloured.contains("\x1b[1;32mSt1\x1b[0m") && coloured.contains("\x1b[1;31m"));
        let mut stripped = String::new();
        let mut escape = false;
        for c in coloured.chars() {
            match c {
                '\x1b' => escape = true,
                'm' if escape => escape = false,
                _ if escape => {}
                c => stripped.push(c),
            }
        }
        assert_eq!(stripped, plain);
    }
}
