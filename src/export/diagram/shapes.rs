//! Vector outlines of the piece symbols and arrows, in board units (one square = 1, y down).
//! Shared by the SVG and TikZ writers so both draw exactly the same shapes.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

/// A point in board units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Point {
    pub x: f32,
    pub y: f32,
}

impl Point {
    pub const fn new(x: f32, y: f32) -> Point {
        Point { x, y }
    }

    fn polar(centre: Point, radius: f32, angle: f32) -> Point {
        Point::new(
            centre.x + radius * angle.cos(),
            centre.y + radius * angle.sin(),
        )
    }

    pub fn plus(self, dx: f32, dy: f32) -> Point {
        Point::new(self.x + dx, self.y + dy)
    }
}

/// One segment of an outline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Segment {
    Move(Point),
    Line(Point),
    /// A cubic Bézier curve: two control points and the end.
    Cubic(Point, Point, Point),
    Close,
}

/// A closed outline (possibly several sub-paths), filled with the non-zero rule.
pub(crate) type Outline = Vec<Segment>;

/// A closed polygon through `points`.
fn polygon(points: impl IntoIterator<Item = Point>) -> Outline {
    let mut out = Outline::new();
    for p in points {
        out.push(if out.is_empty() {
            Segment::Move(p)
        } else {
            Segment::Line(p)
        });
    }
    out.push(Segment::Close);
    out
}

/// A five-pointed star, one point up.
pub(crate) fn star(centre: Point, radius: f32) -> Outline {
    let inner = radius * 0.42;
    polygon((0..10).map(|i| {
        let r = if i % 2 == 0 { radius } else { inner };
        Point::polar(centre, r, -FRAC_PI_2 + i as f32 * PI / 5.0)
    }))
}

/// Appends a circular arc from `start` (radians, y down) sweeping `sweep` as cubic Béziers of at most
/// 90° each. The current point must already be the arc's start.
fn arc(out: &mut Outline, centre: Point, radius: f32, start: f32, sweep: f32) {
    let pieces = (sweep.abs() / FRAC_PI_2).ceil().max(1.0) as usize;
    let step = sweep / pieces as f32;
    // The standard control-point distance for a circular arc of angle `step`.
    let k = 4.0 / 3.0 * (step / 4.0).tan() * radius;
    for i in 0..pieces {
        let a0 = start + i as f32 * step;
        let a1 = a0 + step;
        let p0 = Point::polar(centre, radius, a0);
        let p1 = Point::polar(centre, radius, a1);
        let c0 = p0.plus(-k * a0.sin(), k * a0.cos());
        let c1 = p1.plus(k * a1.sin(), -k * a1.cos());
        out.push(Segment::Cubic(c0, c1, p1));
    }
}

/// A crescent moon: the disc of `radius` minus a slightly smaller disc shifted toward the upper
/// right, leaving a crescent whose horns point up and right.
pub(crate) fn crescent(centre: Point, radius: f32) -> Outline {
    let towards = -PI / 5.0; // where the cut-out disc lies (up and to the right, y down)
    let offset = 0.42 * radius;
    let cut_radius = 0.92 * radius;
    // Shift the whole figure toward the opening so its visual weight sits on the centre.
    let c = Point::polar(centre, 0.18 * radius, towards);
    let cut = Point::polar(c, offset, towards);
    // Half-angle, seen from `c`, of the arc the cut-out disc removes (law of cosines).
    let cos_half =
        (radius * radius + offset * offset - cut_radius * cut_radius) / (2.0 * radius * offset);
    let half = cos_half.clamp(-1.0, 1.0).acos();
    let upper = Point::polar(c, radius, towards + half);
    let lower = Point::polar(c, radius, towards - half);
    let mut out = vec![Segment::Move(upper)];
    arc(&mut out, c, radius, towards + half, TAU - 2.0 * half);
    // Back along the cut-out circle, through its side facing the centre.
    let angle_from_cut = |p: Point| (p.y - cut.y).atan2(p.x - cut.x);
    let (a_lower, a_upper) = (angle_from_cut(lower), angle_from_cut(upper));
    let increasing = (a_upper - a_lower).rem_euclid(TAU);
    let passes_facing_side = (towards + PI - a_lower).rem_euclid(TAU) < increasing;
    let sweep = if passes_facing_side {
        increasing
    } else {
        increasing - TAU
    };
    arc(&mut out, cut, cut_radius, a_lower, sweep);
    out.push(Segment::Close);
    out
}

/// The rays of a sun: `count` slim triangles around an empty core (the core is a separate disc).
pub(crate) fn sun_rays(centre: Point, radius: f32, count: usize) -> Outline {
    let half_width = PI / count as f32 * 0.5;
    let base = 0.6 * radius;
    let mut out = Outline::new();
    for i in 0..count {
        let a = -FRAC_PI_2 + i as f32 * TAU / count as f32;
        out.extend(polygon([
            Point::polar(centre, base, a - half_width),
            Point::polar(centre, radius, a),
            Point::polar(centre, base, a + half_width),
        ]));
    }
    out
}

/// The radius of a sun's core disc for a sun of `radius`.
pub(crate) fn sun_core(radius: f32) -> f32 {
    0.5 * radius
}

/// An arrow from `from` to `to`: a shaft and a head, as one polygon.
pub(crate) fn arrow(from: Point, to: Point) -> Outline {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let length = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
    let (ux, uy) = (dx / length, dy / length);
    let (px, py) = (-uy, ux);
    let along = |p: Point, d: f32, side: f32| {
        Point::new(p.x + ux * d + px * side, p.y + uy * d + py * side)
    };
    let (shaft, head_width, head_length) = (0.065, 0.2, 0.34);
    let start = along(from, 0.18, 0.0);
    let tip = along(to, -0.12, 0.0);
    let neck = along(tip, -head_length, 0.0);
    polygon([
        along(start, 0.0, shaft),
        along(neck, 0.0, shaft),
        along(neck, 0.0, head_width),
        tip,
        along(neck, 0.0, -head_width),
        along(neck, 0.0, -shaft),
        along(start, 0.0, -shaft),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(outline: &Outline) -> Vec<Point> {
        outline
            .iter()
            .filter_map(|s| match *s {
                Segment::Move(p) | Segment::Line(p) | Segment::Cubic(_, _, p) => Some(p),
                Segment::Close => None,
            })
            .collect()
    }

    #[test]
    fn shapes_stay_inside_their_radius() {
        let c = Point::new(0.5, 0.5);
        for outline in [star(c, 0.25), crescent(c, 0.25), sun_rays(c, 0.25, 8)] {
            for p in flatten(&outline) {
                let d = ((p.x - c.x).powi(2) + (p.y - c.y).powi(2)).sqrt();
                assert!(d <= 0.25 * 1.2 + 1e-4, "{p:?} at {d}");
            }
        }
    }

    /// The outline flattened to a polygon, curves sampled.
    fn flatten(outline: &Outline) -> Vec<Point> {
        let mut out: Vec<Point> = Vec::new();
        for s in outline {
            match *s {
                Segment::Move(p) | Segment::Line(p) => out.push(p),
                Segment::Cubic(a, b, c) => {
                    let p0 = *out.last().unwrap();
                    for i in 1..=16 {
                        let t = i as f32 / 16.0;
                        let u = 1.0 - t;
                        let mix = |p0: f32, a: f32, b: f32, c: f32| {
                            u * u * u * p0
                                + 3.0 * u * u * t * a
                                + 3.0 * u * t * t * b
                                + t * t * t * c
                        };
                        out.push(Point::new(
                            mix(p0.x, a.x, b.x, c.x),
                            mix(p0.y, a.y, b.y, c.y),
                        ));
                    }
                }
                Segment::Close => {}
            }
        }
        out
    }

    /// Whether `p` is inside the closed polygon (even-odd crossing test).
    fn inside(polygon: &[Point], p: Point) -> bool {
        let mut inside = false;
        for (i, a) in polygon.iter().enumerate() {
            let b = polygon[(i + 1) % polygon.len()];
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                inside = !inside;
            }
        }
        inside
    }

    #[test]
    fn crescent_is_thick_down_left_and_open_up_right() {
        let outline = crescent(Point::new(0.0, 0.0), 1.0);
        let pts = flatten(&outline);
        let (first, last) = (pts[0], pts[pts.len() - 1]);
        assert!(
            (first.x - last.x).abs() < 1e-4 && (first.y - last.y).abs() < 1e-4,
            "closed"
        );
        // y grows downward: the body lies down-left, the cut-out (the crescent's hollow) up-right.
        assert!(inside(&pts, Point::new(-0.6, 0.45)));
        assert!(!inside(&pts, Point::new(0.0, 0.0)));
        assert!(!inside(&pts, Point::new(0.45, -0.35)));
        // Both horns reach out toward the opening.
        assert!(pts.iter().any(|p| p.x > 0.5) && pts.iter().any(|p| p.y < -0.5));
    }

    #[test]
    fn arrow_points_at_its_target() {
        let outline = arrow(Point::new(0.5, 0.5), Point::new(2.5, 2.5));
        let tip = points(&outline)[3];
        assert!(tip.x > 2.3 && tip.x < 2.5 && (tip.x - tip.y).abs() < 1e-5);
    }
}
