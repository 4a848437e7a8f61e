//! The SVG writer: a self-contained document in CSS pixels at the scene's printed scale.

use super::canvas::{Anchor, FontStyle, Item, Shape};
use super::options::Palette;
use super::scene::Scene;
use super::shapes::Segment;
use std::fmt::Write;

/// Fonts for coordinates and captions; only text depends on them, never the board or pieces.
const FONT_FAMILY: &str = "'DejaVu Sans', Helvetica, Arial, sans-serif";

/// Writes `scene` as SVG at its printed size; `description` goes into `<desc>`.
pub(crate) fn write(
    scene: &Scene,
    palette: &Palette,
    title: Option<&str>,
    description: &str,
) -> String {
    let s = scene.unit / super::PT_PER_PX;
    let (w, h) = (num(scene.width * s), num(scene.height * s));
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">"
    );
    if let Some(title) = title {
        let _ = writeln!(out, "<title>{}</title>", escape(title));
    }
    let _ = writeln!(out, "<desc>{}</desc>", escape(description));
    write_items(&mut out, scene, palette);
    out.push_str("</svg>\n");
    out
}

/// The scene's elements alone, in CSS pixels, for placing inside another SVG document.
pub(crate) fn write_items(out: &mut String, scene: &Scene, palette: &Palette) {
    let s = scene.unit / super::PT_PER_PX;
    for item in &scene.items {
        write_item(out, item, palette, s);
    }
}

/// Writes `scene` as an `<svg>` element for a page whose script places the pieces: the items, with
/// an empty `<g class="marks">` over the ground for highlights and an empty `<g class="pieces">` on
/// top; it takes the page's width and keeps its proportions.
pub(crate) fn write_live(scene: &Scene, palette: &Palette, label: &str) -> String {
    let s = scene.unit / super::PT_PER_PX;
    let (w, h) = (num(scene.width * s), num(scene.height * s));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{}\">\n",
        escape(label)
    );
    let (ground, rest) = scene.items.split_at(scene.ground);
    for item in ground {
        write_item(&mut out, item, palette, s);
    }
    out.push_str("<g class=\"marks\"></g>\n");
    for item in rest {
        write_item(&mut out, item, palette, s);
    }
    out.push_str("<g class=\"pieces\"></g>\n</svg>\n");
    out
}

/// Writes `items` as one `<g>` with this `id`, `size` units per square.
pub(crate) fn write_group(items: &[Item], palette: &Palette, size: u32, id: &str) -> String {
    let mut out = format!("<g id=\"{}\">\n", escape(id));
    for item in items {
        write_item(&mut out, item, palette, size as f32);
    }
    out.push_str("</g>\n");
    out
}

fn write_item(out: &mut String, item: &Item, palette: &Palette, s: f32) {
    let mut paint = String::new();
    match item.fill {
        Some(fill) => {
            let _ = write!(paint, " fill=\"{}\"", fill.role.colour(palette));
            if fill.opacity < 1.0 {
                let _ = write!(paint, " fill-opacity=\"{}\"", num(fill.opacity));
            }
        }
        None => paint.push_str(" fill=\"none\""),
    }
    if let Some(stroke) = item.stroke {
        let _ = write!(
            paint,
            " stroke=\"{}\" stroke-width=\"{}\"",
            stroke.role.colour(palette),
            num(stroke.width * s)
        );
    }
    let class = item.class;
    let _ = match &item.shape {
        Shape::Rect { x, y, w, h } => writeln!(
            out,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{paint}/>",
            num(x * s),
            num(y * s),
            num(w * s),
            num(h * s)
        ),
        Shape::Circle { centre, r } => writeln!(
            out,
            "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\"{paint}/>",
            num(centre.x * s),
            num(centre.y * s),
            num(r * s)
        ),
        Shape::Outline(outline) => {
            let mut d = String::new();
            for segment in outline {
                if !d.is_empty() {
                    d.push(' ');
                }
                let p = |x: f32, y: f32| format!("{} {}", num(x * s), num(y * s));
                match *segment {
                    Segment::Move(a) => d.push_str(&format!("M{}", p(a.x, a.y))),
                    Segment::Line(a) => d.push_str(&format!("L{}", p(a.x, a.y))),
                    Segment::Cubic(a, b, c) => {
                        d.push_str(&format!("C{} {} {}", p(a.x, a.y), p(b.x, b.y), p(c.x, c.y)))
                    }
                    Segment::Close => d.push('Z'),
                }
            }
            writeln!(out, "<path class=\"{class}\" d=\"{d}\"{paint}/>")
        }
        Shape::Text {
            at,
            text,
            size,
            anchor,
            style,
        } => {
            let anchor = match anchor {
                Anchor::Start => "start",
                Anchor::Middle => "middle",
            };
            let style = match style {
                FontStyle::Regular => "",
                FontStyle::Bold => " font-weight=\"bold\"",
                FontStyle::Italic => " font-style=\"italic\"",
            };
            writeln!(
                out,
                "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-family=\"{FONT_FAMILY}\" font-size=\"{}\" text-anchor=\"{anchor}\"{style}{paint}>{}</text>",
                num(at.x * s),
                num(at.y * s),
                num(size * s),
                escape(text)
            )
        }
    };
}

/// A coordinate with at most two decimals and no trailing zeros (stable snapshots, short files).
pub(crate) fn num(v: f32) -> String {
    fixed(v, 2)
}

/// A number with at most `decimals` decimals and no trailing zeros.
pub(crate) fn fixed(v: f32, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, v);
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newline are not allowed in XML 1.0.
            c if c.is_control() && c != '\t' && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(1.005_f32 * 100.0), "100.5");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(1.23456), "1.23");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\"\u{7}"), "a&lt;b &amp; &quot;c&quot;");
    }
}
