//! Slips of single characters in a move's text, drawn from the character model's prior: a
//! character read as another (likely confusions first), the separator misread or left out, a
//! character left out or added, or two such edits at once (a garbled token).

use crate::generate::Rng;
use crate::repair::SlipKind;
use crate::repair::channel::Channel;

/// Draws one of `options` by weight.
fn draw<T: Copy>(options: &[(T, f64)], rng: &mut Rng) -> Option<T> {
    let total: f64 = options.iter().map(|o| o.1).sum();
    if options.is_empty() || total <= 0.0 {
        return None;
    }
    let mut at = (rng.next_u64() % 1_000_000) as f64 / 1_000_000.0 * total;
    for &(o, w) in options {
        if at < w {
            return Some(o);
        }
        at -= w;
    }
    options.last().map(|o| o.0)
}

fn is_separator(c: char) -> bool {
    matches!(c, '-' | ':' | 'x')
}

/// The text of a move (`33-43`) with a slip of `kind` made in it; `None` when the kind has no
/// place in it (a separator slip in a move written without one).
pub(super) fn slip(kind: SlipKind, text: &str, rng: &mut Rng) -> Option<String> {
    let mut chars: Vec<char> = text.chars().collect();
    let channel = Channel::get();
    let places = |chars: &[char], sep: bool| -> Vec<usize> {
        (0..chars.len())
            .filter(|&i| is_separator(chars[i]) == sep)
            .collect()
    };
    match kind {
        SlipKind::CharMisread => {
            let at = *pick(&places(&chars, false), rng)?;
            let mut options = channel.partners(chars[at]);
            // Rarely a character the table does not name: any digit.
            options.extend(('0'..='9').filter(|&d| d != chars[at]).map(|d| (d, 0.01)));
            chars[at] = draw(&options, rng)?;
        }
        SlipKind::SeparatorMisread => {
            let at = *pick(&places(&chars, true), rng)?;
            // A `;` opens a comment to the end of the line in SGN: the moves after it would be
            // read as a comment, which no reading of the move mends.
            let options: Vec<(Option<char>, f64)> = channel
                .separator_misreadings()
                .into_iter()
                .filter(|o| o.0 != Some(';'))
                .collect();
            match draw(&options, rng)? {
                Some(c) => chars[at] = c,
                None => {
                    chars.remove(at);
                }
            }
        }
        SlipKind::CharDropped => {
            let at = *pick(&places(&chars, false), rng)?;
            chars.remove(at);
        }
        SlipKind::CharAdded => {
            let added = draw(
                &[
                    (' ', 0.3),
                    ('.', 0.2),
                    (',', 0.1),
                    ('\'', 0.1),
                    ('1', 0.1),
                    ('3', 0.1),
                ],
                rng,
            )?;
            // Not at either end, where a space or a dot would only part it from its neighbours.
            let at = 1 + rng.below(chars.len().saturating_sub(1).max(1));
            chars.insert(at.min(chars.len()), added);
        }
        SlipKind::Garbled => {
            let kinds = [
                SlipKind::CharMisread,
                SlipKind::SeparatorMisread,
                SlipKind::CharDropped,
                SlipKind::CharAdded,
            ];
            let mut out = text.to_string();
            for _ in 0..2 {
                let kind = kinds[rng.below(kinds.len())];
                out = slip(kind, &out, rng).unwrap_or(out);
            }
            return (out != text).then_some(out);
        }
        _ => return None,
    }
    let out: String = chars.into_iter().collect();
    (out != text).then_some(out)
}

fn pick<'a, T>(items: &'a [T], rng: &mut Rng) -> Option<&'a T> {
    items.get(rng.below(items.len().max(1)))
}
