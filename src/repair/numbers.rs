//! Move numbers where the reader took them for part of a move: glued to a garbled move
//! (`01-9224.`, `IOI-92.14.`, `$4.52-62`), a misread number taken for a move (`Q3.`, `55+`),
//! and the text the reader left out between two moves (`$343 95.`). The search knows the number
//! due at each ply, which the reader can only guess from the count of moves (decision 80).

use super::channel::{Channel, Sym};
use crate::board::Geometry;
use crate::notation::{number_fits, result_glyph};

/// The cost of a move number glued to a move (weight 0.6): tesseract drops the space before
/// and after numbers often (issue 31: `81-713.`), and the reader takes most such numbers off
/// itself, so a glued number is no slip of the move.
const GLUE: f64 = 0.5;
/// How far the digits of a written number that stands alone may be from the number due: one
/// likely confusion, or two of a letter for a digit (`Q3` and `IOI` read, `OI` for 91 not).
const DIGITS: f64 = 3.5;
/// The same for a number glued to a move: a letter or sign like the digit (`$4` for 54), no
/// digit for another (`33-4344` is no 43 glued to `4344`).
const GLUED_DIGITS: f64 = 1.5;
/// How far the digits of a number glued after a move may be from the number due where one of
/// them is lost: the digit lost and nothing else (`10,` for `100.`).
const LOST_DIGIT: f64 = 2.5;
/// A sign other than the dot after a number (`55+`, `24,`) or none at all (weight 0.5).
const OTHER_DOT: f64 = 0.7;
/// A second sign between a glued number and its move (`59.°72-81`).
const SECOND_SIGN: f64 = 0.7;
/// A speck before a number that stands alone (`"75.`): as a sign at a garbled token's edge.
const SPECK: f64 = 1.4;

/// A written text with a move number taken off it, what that cost, and the number in words.
#[derive(Clone, Debug)]
pub(crate) struct Unglued {
    pub text: Vec<char>,
    /// The characters of the written text before `text` (a number taken off its head).
    pub skipped: usize,
    pub cost: f64,
    pub note: String,
}

impl Unglued {
    /// The written text as it stands, nothing taken off.
    pub fn as_written(text: Vec<char>) -> Unglued {
        Unglued {
            text,
            skipped: 0,
            cost: 0.0,
            note: String::new(),
        }
    }
}

/// A sign OCR reads for a number's dot, or a speck beside it (`$` and `§` are digits misread).
fn sign(c: char) -> bool {
    matches!(
        c,
        '.' | ','
            | ':'
            | ';'
            | '-'
            | '–'
            | '—'
            | '+'
            | '°'
            | '='
            | '_'
            | '~'
            | '*'
            | '\''
            | '"'
            | '`'
            | '‘'
            | '’'
            | '“'
            | '”'
    )
}

/// The cost of reading `written` (no sign in it) as the digits of `n`, one character for each
/// (a number with a digit lost is too like the end of a square to be told from it, but see
/// [`lost_digit_cost`]).
fn digits_cost(n: u32, written: &[char], limit: f64) -> Option<f64> {
    digits_read(n, written, 0, limit)
}

/// The cost of reading `written` as the digits of `n` (100 or more) with one of them lost,
/// within [`LOST_DIGIT`]: two digits left of three at least, as one left of two is any square's
/// last digit.
fn lost_digit_cost(n: u32, written: &[char]) -> Option<f64> {
    (written.len() >= 2)
        .then(|| digits_read(n, written, 1, LOST_DIGIT))
        .flatten()
}

/// The cost of reading `written` (no sign in it) as the digits of `n` with `lost` of them left
/// out, within `limit`.
fn digits_read(n: u32, written: &[char], lost: usize, limit: f64) -> Option<f64> {
    let meant: Vec<Sym> = n.to_string().chars().map(Sym::Char).collect();
    if written.len() + lost != meant.len() || written.iter().any(|&c| sign(c)) {
        return None;
    }
    Channel::get()
        .read(&meant, written, limit)
        .map(|read| read.cost)
}

/// The cost of the sign written after a number: the dot costs nothing.
fn dot_cost(c: Option<char>) -> f64 {
    if c == Some('.') { 0.0 } else { OTHER_DOT }
}

/// The texts a garbled move's token may be once a move number glued to it is taken off: the
/// number `before` at its head, followed by a sign (`$4.52-62`), or, for Red's move, the number
/// `after` at its tail, with a sign before or after it (`01-9224.`, `IOI-92.14.`). `geometry`:
/// the board, whose square numbers tell a head before a separator from a square (`33-4344`).
pub(crate) fn unglued(
    written: &[char],
    before: u32,
    after: Option<u32>,
    geometry: &Geometry,
) -> Vec<Unglued> {
    let mut out = Vec::new();
    let n = written.len();
    // The head: up to four characters of number, then a sign or two, then at least a square.
    for p in 1..=4.min(n.saturating_sub(3)) {
        let head: Vec<char> = written[..p]
            .iter()
            .copied()
            .skip_while(|&c| sign(c))
            .collect();
        // A separator there makes the head a square (`33-4344`), unless the head is no square's
        // number (`16:33-43`) or the very number due (`84-75-85` at Green's 84th move).
        let due = head.iter().copied().eq(before.to_string().chars());
        let number: String = head.iter().collect();
        let square = number
            .parse()
            .ok()
            .and_then(|n| geometry.from_number(n))
            .is_some();
        // No sign at all (`11382-93` for `113. 82-93`): only the very number due, its digits
        // right, before a move's worth of text.
        let signless = !sign(written[p]) && due && head.len() == p;
        if !sign(written[p]) && !signless || matches!(written[p], '-' | ':') && square && !due {
            continue;
        }
        // A second sign, a speck after the dot (`$9.°72-81`, `10:.64:85`).
        let signs = match signless {
            true => 0,
            false => 1 + usize::from(written.get(p + 1).is_some_and(|&c| sign(c))),
        };
        if n < p + signs + 3 {
            continue;
        }
        // A number's own sign after it (`104,°73-83` for `101. 73-83`) says it is no square:
        // its digits may be as far from the number due as a number standing alone.
        let limit = match written[p] {
            '.' | ',' => DIGITS,
            _ => GLUED_DIGITS,
        };
        if let Some(cost) = digits_cost(before, &head, limit) {
            out.push(Unglued {
                text: written[p + signs..].to_vec(),
                skipped: p + signs,
                cost: GLUE
                    + cost
                    + dot_cost(written.get(p).copied().filter(|_| !signless))
                    + SECOND_SIGN * signs.saturating_sub(1) as f64,
                note: format!("the move number {before}. glued to it"),
            });
        }
    }
    let Some(after) = after else {
        return out;
    };
    // The tail: a sign or none, up to four characters of number, a sign or none.
    let trailing = written.last().copied().filter(|&c| sign(c));
    let end = n - usize::from(trailing.is_some());
    for q in end.saturating_sub(4)..end {
        let glue = q.checked_sub(1).map(|k| written[k]).filter(|&c| sign(c));
        if glue.is_none() && trailing.is_none() {
            continue;
        }
        let rest = q - usize::from(glue.is_some());
        // At least a square's digits stay.
        if rest < 3 {
            continue;
        }
        // A digit lost only before a sign that ends the word (`42-5310,` for `42-53 100.`):
        // without it, the end of a square.
        let lost = || trailing.and_then(|_| lost_digit_cost(after, &written[q..end]));
        if let Some(cost) = digits_cost(after, &written[q..end], GLUED_DIGITS).or_else(lost) {
            out.push(Unglued {
                text: written[..rest].to_vec(),
                skipped: 0,
                cost: GLUE + cost + dot_cost(trailing),
                note: format!("the move number {after}. glued to it"),
            });
        }
    }
    out
}

/// The last move of a record with the result glued to it (`24-141-0`, `62-72O-1`): the move's
/// text, as a number glued on costs.
pub(crate) fn result_off(written: &[char]) -> Option<Unglued> {
    ["1-0", "0-1", "1/2-1/2"]
        .into_iter()
        .find_map(|result| glued_result(written, written.len(), result, result, GLUE))
}

/// The last word of a record with its recorded `result` glued to it, the result's dash lost
/// and a sign after it (`413201.` for `41-32 0-1`): the move's text, as a result glued on
/// costs and a dash lost.
pub(crate) fn recorded_result_off(written: &[char], result: &str) -> Option<Unglued> {
    let end = written.len() - written.iter().rev().take_while(|&&c| sign(c)).count();
    let dashless: String = result.chars().filter(|&c| c != '-').collect();
    glued_result(written, end, &dashless, result, 2.0 * GLUE)
}

/// How far the recorded result glued to the last word may be from it as the character model
/// reads it: one likely misreading (`1.0` for `1-0`, a dot for its dash).
const RESULT_MISREAD: f64 = 2.5;

/// The last word of a record with its recorded `result` glued to it as OCR read it, specks
/// after it (`41-321-0°`, `33-431.0`): each ending that reads as the result
/// through the character model within [`RESULT_MISREAD`], one character longer or shorter
/// than it at most, with what is left before it (a square's characters at least); as a
/// result glued on costs and what the misreading does.
pub(crate) fn misread_result_off(written: &[char], result: &str) -> Vec<Unglued> {
    let end = written.len() - written.iter().rev().take_while(|&&c| sign(c)).count();
    let meant = super::channel::meant_symbols(result);
    let channel = Channel::get();
    let n = meant.len();
    (n.saturating_sub(1).max(2)..=n + 1)
        .filter_map(|len| {
            let keep = end.checked_sub(len).filter(|&k| k >= 3)?;
            let read = channel.read(&meant, &written[keep..end], RESULT_MISREAD)?;
            Some(Unglued {
                text: written[..keep].to_vec(),
                skipped: 0,
                cost: 2.0 * GLUE + read.cost,
                note: format!("the result {result} glued to it"),
            })
        })
        .collect()
}

/// `written` up to `end` with the `result`, written `tail` and read through OCR's glyphs, taken
/// off its end, a square's characters at least left: the move's text, at `cost`.
fn glued_result(
    written: &[char],
    end: usize,
    tail: &str,
    result: &str,
    cost: f64,
) -> Option<Unglued> {
    let keep = end.checked_sub(tail.chars().count()).filter(|&k| k >= 3)?;
    let read = written[keep..end].iter().map(|&c| result_glyph(c));
    read.eq(tail.chars()).then(|| Unglued {
        text: written[..keep].to_vec(),
        skipped: 0,
        cost,
        note: format!("the result {result} glued to it"),
    })
}

/// The cost of reading a whole token as one of the move numbers `due` (`Q3.` for 93, `55+`),
/// with the number: specks before it, its digits, a sign after it or none.
pub(crate) fn as_number(written: &[char], due: &[u32]) -> Option<(f64, u32)> {
    let specks = written.iter().take_while(|&&c| sign(c)).count();
    let trailing = written.last().copied().filter(|&c| sign(c));
    let end = written.len() - usize::from(trailing.is_some());
    let digits = written.get(specks..end)?;
    due.iter()
        .filter_map(|&n| {
            let cost = digits_cost(n, digits, DIGITS)?;
            Some((SPECK * specks as f64 + cost + dot_cost(trailing), n))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// The text the reader left out between two moves that may be a move (`$343` of `$343 95.`):
/// each word of `gap` that holds two digits or more, or three characters like digits (`TIBI`),
/// and is not one of the move numbers `due`.
/// `None` where the gap holds anything a record writes there on purpose (a comment, a
/// variation, a NAG).
pub(crate) fn left_out(gap: &str, due: &[u32]) -> Option<Vec<Vec<char>>> {
    if gap.contains(['{', '}', '(', ')', '[', ']', '!', '?']) {
        return None;
    }
    let words: Vec<Vec<char>> = gap
        .split_whitespace()
        .map(|w| w.chars().collect::<Vec<char>>())
        .filter(|w| w.iter().filter(|&&c| digit_like(c)).count() >= 3 || digits(w) >= 2)
        .filter(|w| !is_number(w, due))
        .collect();
    (!words.is_empty()).then_some(words)
}

fn digits(w: &[char]) -> usize {
    w.iter().filter(|c| c.is_ascii_digit()).count()
}

/// A digit, or a letter or sign the character model reads as one (`TIBI` for `71-81`).
fn digit_like(c: char) -> bool {
    c.is_ascii_digit() || ('0'..='9').any(|d| Channel::get().listed(d, c))
}

/// Whether a word is a move number as written: digits and a dot that may be a number due
/// misread (`95.`; a number far from any, `4334.` at move 123, is a move with its dash lost), or
/// one of the numbers due as read.
fn is_number(w: &[char], due: &[u32]) -> bool {
    let digits = w.iter().take_while(|c| c.is_ascii_digit()).count();
    let plain = digits > 0 && w[digits..].iter().all(|&c| matches!(c, '.' | ','));
    let value: String = w[..digits].iter().collect();
    let fits = |n: u32| due.iter().any(|&d| number_fits(n, d));
    plain && value.parse().is_ok_and(fits) || as_number(w, due).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn texts(w: &str, before: u32, after: Option<u32>) -> Vec<String> {
        unglued(&chars(w), before, after, Geometry::of(Default::default()))
            .into_iter()
            .map(|u| u.text.into_iter().collect())
            .collect()
    }

    #[test]
    fn a_number_glued_to_a_move_comes_off() {
        assert!(texts("01-9224.", 23, Some(24)).contains(&"01-92".to_string()));
        assert!(texts("IOI-92.14.", 13, Some(14)).contains(&"IOI-92".to_string()));
        assert!(texts("54°44.75.", 74, Some(75)).contains(&"54°44".to_string()));
        assert!(texts("$4.52-62", 54, None).contains(&"52-62".to_string()));
        // With a separator after a number no square has (16), or a speck after the dot.
        assert!(texts("16:33-43.54:33", 16, None).contains(&"33-43.54:33".to_string()));
        assert!(texts("$9.°72-81.91:72", 59, None).contains(&"72-81.91:72".to_string()));
        assert!(texts("84-75-85", 84, None).contains(&"75-85".to_string()));
        // With no sign at all, the very number due only.
        assert!(texts("11382-93.22-32", 113, None).contains(&"82-93.22-32".to_string()));
        assert!(texts("1382-93", 113, None).is_empty());
        // A digit of the number after the move lost, a sign after it.
        assert!(texts("42-5310,", 99, Some(100)).contains(&"42-53".to_string()));
        assert!(texts("42-5310", 99, Some(100)).is_empty());
        // Not the number due, or no sign to tell it from a square.
        assert!(texts("01-9224.", 40, Some(41)).is_empty());
        assert!(texts("33-4344", 43, Some(44)).is_empty());
        assert!(texts("21-3225.", 25, None).is_empty());
        // A number's own sign after the head: its digits may be misread as a number's standing
        // alone (4 for 1), not behind a separator or no sign (decision 213).
        assert!(texts("104,°73-83-24-34", 101, None).contains(&"73-83-24-34".to_string()));
        assert!(texts("104-73-83", 101, None).is_empty());
        assert!(texts("10473-83", 101, None).is_empty());
    }

    #[test]
    fn the_result_glued_to_the_last_move_comes_off() {
        let off = |w: &str| result_off(&chars(w)).map(|u| u.text.into_iter().collect::<String>());
        assert_eq!(off("24-141-0").as_deref(), Some("24-14"));
        assert_eq!(off("62-72O-I").as_deref(), Some("62-72"));
        // Read through the reader's table of result glyphs (`T` for 1, `°` for the dash).
        assert_eq!(off("62-72O°T").as_deref(), Some("62-72"));
        assert_eq!(off("1-0"), None);
        assert_eq!(off("33-43"), None);
        // The recorded result only, its dash lost and a dot after it (decision 175).
        let off = |w: &str, r: &str| {
            recorded_result_off(&chars(w), r).map(|u| u.text.into_iter().collect::<String>())
        };
        assert_eq!(off("413201.", "0-1").as_deref(), Some("4132"));
        assert_eq!(off("4132IO", "1-0").as_deref(), Some("4132"));
        assert_eq!(off("413201.", "1-0"), None);
        assert_eq!(off("01.", "0-1"), None);
        // Read through the character model: specks after it, its dash misread.
        let off = |w: &str, r: &str| -> Vec<String> {
            let texts = misread_result_off(&chars(w), r);
            texts
                .into_iter()
                .map(|u| u.text.into_iter().collect())
                .collect()
        };
        assert!(off(".41-321-0°", "1-0").contains(&".41-32".to_string()));
        assert!(off("33-431.0", "1-0").contains(&"33-43".to_string()));
        assert!(off("41-321-0°", "0-1").is_empty());
        assert!(off("1-0", "1-0").is_empty());
    }

    #[test]
    fn a_misread_number_standing_alone_is_read_as_the_number_due() {
        assert_eq!(as_number(&chars("Q3."), &[93]).map(|(_, n)| n), Some(93));
        assert_eq!(as_number(&chars("55+"), &[55]).map(|(_, n)| n), Some(55));
        assert!(as_number(&chars("Q3."), &[40]).is_none());
        assert!(as_number(&chars("33-43"), &[33]).is_none());
        // The dot costs nothing, another sign a little.
        let dot = as_number(&chars("55."), &[55]).map(|(c, _)| c);
        let plus = as_number(&chars("55+"), &[55]).map(|(c, _)| c);
        assert!(dot < plus);
    }

    #[test]
    fn what_the_reader_left_out_between_two_moves() {
        assert_eq!(left_out(" $343 95. ", &[94, 95]), Some(vec![chars("$343")]));
        assert_eq!(left_out(" 95. ", &[94, 95]), None);
        assert_eq!(left_out(" 96. ", &[94, 95]), None);
        // A "number" far from any due is a move with its dash lost (`43-34`).
        assert_eq!(left_out(" 4334. ", &[123, 124]), Some(vec![chars("4334.")]));
        assert_eq!(left_out(" 95. TIBI ", &[94, 95]), Some(vec![chars("TIBI")]));
        assert_eq!(left_out(" so ", &[94, 95]), None);
        assert_eq!(left_out(" {a note 33} ", &[94, 95]), None);
        assert_eq!(
            left_out(" 1323.92. ", &[91, 92]),
            Some(vec![chars("1323.92.")])
        );
    }
}
