//! The TikZ writer: one `tikzpicture`, needing only `\usepackage{tikz}` (colours come from xcolor,
//! which TikZ loads). The picture keeps the SVG's physical size, the scene's points per square.

use super::canvas::{Anchor, FontStyle, Item, Role, Shape};
use super::options::Palette;
use super::scene::Scene;
use super::shapes::Segment;
use super::svg::fixed;
use std::fmt::Write;

/// The font size all text nodes start from, scaled per node to the size the scene asks for.
const BASE_FONT_PT: f32 = 10.0;

pub(crate) fn write(scene: &Scene, palette: &Palette, comment: &[String]) -> String {
    let unit = scene.unit;
    let mut out = String::new();
    for line in comment {
        let _ = writeln!(out, "% {}", line.replace(['\n', '\r'], " "));
    }
    out.push_str("% Needs only \\usepackage{tikz}.\n");
    let _ = writeln!(
        out,
        "\\begin{{tikzpicture}}[x={}pt,y=-{}pt]",
        fixed(unit, 3),
        fixed(unit, 3)
    );
    for role in Role::ALL {
        let c = role.colour(palette);
        let _ = writeln!(
            out,
            "\\definecolor{{{}}}{{RGB}}{{{},{},{}}}",
            colour_name(role),
            c.r,
            c.g,
            c.b
        );
    }
    for item in &scene.items {
        write_item(&mut out, item, unit);
    }
    out.push_str("\\end{tikzpicture}\n");
    out
}

fn colour_name(role: Role) -> String {
    format!("salta{}", role.name())
}

fn p(x: f32, y: f32) -> String {
    format!("({},{})", fixed(x, 3), fixed(y, 3))
}

fn write_item(out: &mut String, item: &Item, unit: f32) {
    let mut options = Vec::new();
    if let Some(fill) = item.fill {
        options.push(format!("fill={}", colour_name(fill.role)));
        if fill.opacity < 1.0 {
            options.push(format!("fill opacity={}", fixed(fill.opacity, 3)));
        }
    }
    if let Some(stroke) = item.stroke {
        options.push(format!("draw={}", colour_name(stroke.role)));
        options.push(format!("line width={}pt", fixed(stroke.width * unit, 3)));
    }
    let options = options.join(",");
    let class = item.class;
    let _ = match &item.shape {
        Shape::Rect { x, y, w, h } => {
            writeln!(
                out,
                "\\path[{options}] {} rectangle ++{}; % {class}",
                p(*x, *y),
                p(*w, *h)
            )
        }
        Shape::Circle { centre, r } => {
            writeln!(
                out,
                "\\path[{options}] {} circle[radius={}]; % {class}",
                p(centre.x, centre.y),
                fixed(*r, 3)
            )
        }
        Shape::Outline(outline) => {
            let mut path = String::new();
            for segment in outline {
                match *segment {
                    Segment::Move(a) => {
                        if !path.is_empty() {
                            path.push(' ');
                        }
                        path.push_str(&p(a.x, a.y))
                    }
                    Segment::Line(a) => path.push_str(&format!(" -- {}", p(a.x, a.y))),
                    Segment::Cubic(a, b, c) => path.push_str(&format!(
                        " .. controls {} and {} .. {}",
                        p(a.x, a.y),
                        p(b.x, b.y),
                        p(c.x, c.y)
                    )),
                    Segment::Close => path.push_str(" -- cycle"),
                }
            }
            writeln!(out, "\\path[{options}] {path}; % {class}")
        }
        Shape::Text {
            at,
            text,
            size,
            anchor,
            style,
        } => {
            let anchor = match anchor {
                Anchor::Start => "base west",
                Anchor::Middle => "base",
            };
            let series = match style {
                FontStyle::Regular => "",
                FontStyle::Bold => "\\bfseries",
                FontStyle::Italic => "\\itshape",
            };
            let colour = item
                .fill
                .map_or_else(|| colour_name(Role::Ink), |f| colour_name(f.role));
            let scale = size * unit / BASE_FONT_PT;
            writeln!(
                out,
                "\\node[anchor={anchor},inner sep=0pt,text={colour},font=\\fontsize{{10}}{{12}}\\selectfont\\sffamily{series},scale={}] at {} {{{}}}; % {class}",
                fixed(scale, 3),
                p(at.x, at.y),
                latex_escape(text)
            )
        }
    };
}

/// Escapes the characters LaTeX treats specially, and spells the typographic ones a plain
/// `pdflatex` setup knows by their commands.
pub fn latex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '%' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\textasciicircum{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '–' => out.push_str("--"),
            '—' => out.push_str("---"),
            '…' => out.push_str("\\ldots{}"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_specials_are_escaped() {
        assert_eq!(
            latex_escape(r"50% of #1 & {x}_2 \ok ^~"),
            r"50\% of \#1 \& \{x\}\_2 \textbackslash{}ok \textasciicircum{}\textasciitilde{}"
        );
    }
}
