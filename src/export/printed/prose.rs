//! What a printed game says in words, as an editor would set it: dates as a reader reads them,
//! typographic quotes and dashes, results with an en dash, and the closing sentence an annotator
//! would write rather than the adjudicator's terms.

use crate::board::Color;
use crate::export::adjudication::{Adjudication, SideCount, Standing};

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A PGN-style date as a reader reads it: `1901.??.??` → `1901`, `1901.05.??` → `May 1901`,
/// `1901.05.12` → `12 May 1901`; `None` when nothing is known. Anything else is kept as written.
pub(crate) fn reader_date(date: &str) -> Option<String> {
    let parts: Vec<&str> = date.trim().split(['.', '-', '/']).collect();
    let known = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    let [year, rest @ ..] = parts.as_slice() else {
        return Some(date.to_string());
    };
    if rest.len() > 2 || !(known(year) || year.chars().all(|c| c == '?')) {
        return Some(date.to_string());
    }
    if !known(year) {
        return None;
    }
    let month = rest
        .first()
        .filter(|m| known(m))
        .and_then(|m| m.parse::<usize>().ok())
        .filter(|m| (1..=12).contains(m));
    let day = rest
        .get(1)
        .filter(|d| known(d))
        .and_then(|d| d.parse::<u32>().ok())
        .filter(|d| (1..=31).contains(d));
    Some(match (month, day) {
        (Some(m), Some(d)) => format!("{d} {} {year}", MONTHS[m - 1]),
        (Some(m), None) => format!("{} {year}", MONTHS[m - 1]),
        _ => year.to_string(),
    })
}

/// Straight quotes and hyphens set as a printer sets them: `Green's` → `Green’s`, `"a"` → `“a”`,
/// `'a'` → `‘a’`, a spaced hyphen or `--` → an en dash. Move text is left alone (callers pass
/// prose only).
pub(crate) fn typographic(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut double_open = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        let opening = before.is_none_or(|b| b.is_whitespace() || "([{–—".contains(b));
        match c {
            '"' => {
                double_open = !double_open && opening;
                out.push(if double_open { '“' } else { '”' });
            }
            '\'' if opening && after.is_some_and(|a| !a.is_whitespace()) => out.push('‘'),
            '\'' => out.push('’'),
            '-' if after == Some('-') && chars.get(i + 2) != Some(&'-') => {
                out.push('–');
                i += 1;
            }
            '-' if before == Some(' ') && after == Some(' ') => out.push('–'),
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// A result as printed: `1–0`, `0–1`, `½–½`; `None` for `*` (no result).
pub(crate) fn result(token: &str) -> Option<String> {
    match token.trim() {
        "1-0" => Some("1–0".into()),
        "0-1" => Some("0–1".into()),
        "1/2-1/2" | "½-½" => Some("½–½".into()),
        "*" | "" => None,
        other => Some(other.replace('-', "–")),
    }
}

fn moves(n: u32) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

fn points(n: u32) -> String {
    if n == 1 {
        "1 point".into()
    } else {
        format!("{n} points")
    }
}

/// How far a side is from home, in moves ("27 moves"), and, where its own pieces' getting in one
/// another's way makes a difference, the count without them (" (25 had its pieces not stood in one
/// another’s way)").
fn distance(c: &SideCount) -> (String, String) {
    let count = match (c.exact, c.exact_bounds) {
        (Some(n), _) => n,
        (None, Some((lo, Some(hi)))) => return (format!("between {lo} and {hi} moves"), "".into()),
        (None, Some((lo, None))) => return (format!("at least {}", moves(lo)), "".into()),
        (None, None) => c.free,
    };
    let note = if count > c.free {
        format!(
            " ({} had its pieces not stood in one another’s way)",
            c.free
        )
    } else {
        String::new()
    };
    (moves(count), note)
}

/// The margin as a reader reads it: "27 points", or the proven range when the count was cut
/// short.
fn margin(a: &Adjudication) -> Option<String> {
    match (a.margin, a.margin_bounds) {
        (Some(m), _) => Some(points(m)),
        (None, Some((lo, Some(hi)))) => Some(format!("{lo} to {hi} points")),
        (None, Some((lo, None))) => Some(format!("at least {}", points(lo))),
        _ => None,
    }
}

/// The closing sentence: how the game ended, who won and by how much, said as an annotator would.
pub(crate) fn closing(a: &Adjudication, result_token: &str) -> String {
    let count = |c: Color| match c {
        Color::Green => &a.green,
        Color::Red => &a.red,
    };
    let wins = |w: Color| match margin(a) {
        Some(m) => format!("{w} wins by {m}."),
        None => format!("{w} wins."),
    };
    let sentence = match (a.status, a.winner) {
        (Standing::GreenCompleted | Standing::RedCompleted, Some(w)) => {
            let so = match margin(a) {
                Some(m) => format!("so {w} wins by {m}."),
                None => format!("so {w} wins."),
            };
            let (needed, note) = distance(count(w.other()));
            format!(
                "{w} was first to bring every piece home. {} still needed {needed} to \
                 finish{note}, {so}",
                w.other(),
            )
        }
        (Standing::AwaitingCompensation, Some(w)) => format!(
            "{w} brought every piece home first, and no single move can complete {}: {}",
            w.other(),
            wins(w)
        ),
        (Standing::AwaitingCompensation, None) => {
            "Green has brought every piece home; Red’s one move in reply could still complete \
             Red and draw."
                .into()
        }
        (Standing::TempoDraw, _) => {
            "Green brought every piece home first, and Red completed too with its move in reply: \
             a draw."
                .into()
        }
        (Standing::LimitReached, Some(w)) => format!(
            "The agreed number of moves was played out; {w} had fewer moves left to make (Green \
             {}, Red {}): {}",
            a.green.free,
            a.red.free,
            wins(w)
        ),
        (Standing::LimitReached, None) => format!(
            "The agreed number of moves was played out with both sides {} from home: a draw.",
            moves(a.green.free)
        ),
        (Standing::NoMoves, _) => "Neither side can move: a draw.".into(),
        (Standing::BothCompleted, _) => "Both sides were home as set up: a draw.".into(),
        (Standing::Stuck, _) => "The side to move has no move, and the game ends undecided.".into(),
        _ => format!(
            "The record ends here, with Green {} and Red {} from home.",
            distance(&a.green).0,
            distance(&a.red).0
        ),
    };
    match result(result_token) {
        Some(r) => format!("{r}. {sentence}"),
        None => sentence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_a_reader_reads_them() {
        assert_eq!(reader_date("1901.??.??").as_deref(), Some("1901"));
        assert_eq!(reader_date("1901.05.??").as_deref(), Some("May 1901"));
        assert_eq!(reader_date("1901.05.12").as_deref(), Some("12 May 1901"));
        assert_eq!(reader_date("????.??.??"), None);
        assert_eq!(
            reader_date("Spring 1901").as_deref(),
            Some("Spring 1901"),
            "kept as written"
        );
    }

    #[test]
    fn quotes_and_dashes_are_set_typographically() {
        assert_eq!(
            typographic(r#"Green's "quiet" move - 'a tempo' -- won"#),
            "Green’s “quiet” move – ‘a tempo’ – won"
        );
        assert_eq!(typographic("33-43 and 12--13"), "33-43 and 12–13");
        assert_eq!(result("1/2-1/2").as_deref(), Some("½–½"));
        assert_eq!(result("*"), None);
    }
}
