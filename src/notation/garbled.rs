//! Tokens in the place of a move that cannot be read as one, as misreading and mistyping make
//! them (`3S-43`, `46-55`, `3343`, `33—43`, `33-4 3`), and move numbers misread (`I.`, `4,`): how
//! the reader tells them from prose, and why a token is not a move, in a transcriber's words.
//! Only the reader's slow path comes here: what the fast path reads never does.

use crate::board::Geometry;
use crate::notation::ast::GameResult;

/// Whether a word that is not a move may be a move garbled rather than prose (`knight`,
/// `Remis`): it holds a digit, or it is made of separators only (`-`, `—`), or it is short and
/// holds a separator (`SI-OS`).
pub(super) fn could_be_move(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_digit())
        || word.chars().all(is_separator_like)
        || (word.chars().count() <= 7 && word.chars().any(|c| matches!(c, '-' | ':')))
}

/// A move number as a misreading leaves it: digits with letters that look like them (`I.`,
/// `l2.`, `1O.`) or a comma for the dot (`4,`). The number it stands for and whether it is a
/// Red move's (`12...`); `None` for a number written right (the reader reads those) or a word
/// that is none.
pub(super) fn misread_number(word: &str) -> Option<(u32, bool)> {
    let body = word.trim_end_matches(['.', ',']);
    let tail = &word[body.len()..];
    if body.is_empty() || tail.is_empty() || body.chars().count() > 4 {
        return None;
    }
    let mut misread = tail.contains(',');
    let mut number = 0u32;
    for c in body.chars() {
        let digit = match c {
            '0'..='9' => c as u32 - '0' as u32,
            'I' | 'l' | '|' => 1,
            'O' | 'o' => 0,
            _ => return None,
        };
        misread |= !c.is_ascii_digit();
        number = number * 10 + digit;
    }
    (misread && number > 0).then_some((number, tail.len() >= 2))
}

/// A move number misread further than [`misread_number`] reads (`IL.`, `$5.`, `MO.` for `110.`,
/// `4:`, `12-`, `36;`: glyphs OCR gives for digits, another sign for the dot): the number it may
/// stand for and whether a Red move's. Only taken where it fits the game's count of moves
/// ([`number_fits`]): alone, `S.` or `33-` could as well be prose or a move cut short.
pub(super) fn loose_number(word: &str) -> Option<(u32, bool)> {
    // A speck inside it (`1'7.`, `4°7.`) is no digit.
    let word: String = word
        .chars()
        .filter(|c| !matches!(c, '\'' | '’' | '°' | '"'))
        .collect();
    let word = word.as_str();
    // `)` for the dot (`107)`), as OCR reads a bracket's curve.
    let body = word.trim_end_matches(['.', ',', ':', ';', '-', ')']);
    let tail = &word[body.len()..];
    if body.is_empty() || tail.is_empty() || tail.len() > 3 || body.chars().count() > 3 {
        return None;
    }
    let mut digits = String::new();
    for c in body.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        digits.push_str(match c {
            'I' | 'l' | '|' | 'L' | 'J' | 'j' | 'i' | 'T' => "1",
            'H' | 'M' => "11",
            'O' | 'o' | 'D' | 'Q' | 'U' => "0",
            'S' | 's' | '$' | '§' => "5",
            'Z' | 'z' => "2",
            'B' => "8",
            'G' | 'b' => "6",
            'A' => "4",
            'g' | 'q' => "9",
            _ => return None,
        });
    }
    let number: u32 = digits.parse().ok().filter(|_| digits.len() <= 3)?;
    let ellipsis = tail.len() >= 2 && tail.bytes().all(|b| b == b'.');
    (number > 0).then_some((number, ellipsis))
}

/// A result token as OCR misreads its digits (`O-T`, `I-O`, `0-I`, `l/2-l/2`), or with its dash
/// lost (`10`, `IO`, `OT`): the result it stands for. `None` for a result written right (the
/// reader reads those) or a word that is none.
pub(super) fn misread_result(word: &str) -> Option<GameResult> {
    let digits: String = word.chars().map(result_glyph).collect();
    if digits == word && digits.contains('-') {
        return None;
    }
    match digits.as_str() {
        "1-0" | "10" => Some(GameResult::GreenWins),
        "0-1" | "01" => Some(GameResult::RedWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// A character of a result as OCR reads it: the digit or dash it stands for (`O` for 0, `T` for
/// 1, `°` for the dash), any other as it is. The reader's misread results and repair's results
/// glued to the last move read through this one table.
pub(crate) fn result_glyph(c: char) -> char {
    match c {
        'O' | 'o' | 'D' | 'Q' | 'U' => '0',
        'I' | 'l' | '|' | 'T' | 'J' | ']' | ')' | 'i' | 'L' | '!' => '1',
        '—' | '–' | '=' | '~' | '°' | ':' => '-',
        c => c,
    }
}

/// Whether a number read where a move number may stand fits the `expected` one (the number of the
/// next move by the game's count): the same, one more or one less (a ply lost or run into
/// another), or one digit of two or three misread.
pub(crate) fn number_fits(number: u32, expected: u32) -> bool {
    if number.abs_diff(expected) <= 1 {
        return true;
    }
    let (a, b) = (number.to_string(), expected.to_string());
    a.len() >= 2
        && a.len() == b.len()
        && a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count() == 1
}

/// A mark OCR leaves on a page's margin or beside a token that stands for no character of
/// movetext: quotation marks, a bar, a copyright sign, angle quotes, a degree sign, a bracket.
/// At a word's front, or alone, it is a speck, not a misread digit or sign.
pub(super) fn is_speck(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '`'
            | '“'
            | '”'
            | '„'
            | '‘'
            | '’'
            | '‚'
            | '©'
            | '®'
            | '|'
            | '¦'
            | '<'
            | '>'
            | '«'
            | '»'
            | '‹'
            | '›'
            | '°'
            | 'º'
            | '·'
            | '•'
            | '*'
            | ']'
            | '}'
            | '^'
            | '~'
            | '_'
            | '\\'
            | '%'
            | '¬'
            | '´'
            | '¨'
    )
}

/// Whether a word is made of specks and stray dots, commas or colons only (`©`, `|`, `.`,
/// `”:`): a speck, no move (a lone dash may be a move lost, and stays one).
pub(super) fn all_specks(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| is_speck(c) || matches!(c, '.' | ',' | ':'))
}

/// The separators misreading puts between two squares: dashes of other lengths, a degree sign,
/// an equals sign, a dot, a comma, a tilde, an underscore, a slash.
pub(super) fn is_separator_like(c: char) -> bool {
    matches!(
        c,
        '-' | ':'
            | '—'
            | '–'
            | '−'
            | '‐'
            | '‒'
            | '―'
            | '°'
            | 'º'
            | '='
            | '.'
            | ','
            | ';'
            | '~'
            | '_'
            | '/'
            | '·'
    )
}

/// Why `token` (as written in the place of a move) is not a move on the board of `geometry`,
/// in a transcriber's words: `3S is not a square (S is not a digit)`, `the squares run together:
/// the separator between them is missing`.
pub(crate) fn why_garbled(token: &str, geometry: &Geometry) -> String {
    what_is_wrong(token, geometry).unwrap_or_else(|| "it cannot be read as a move".to_string())
}

/// [`why_garbled`], `None` where the text holds two sound squares and a separator.
fn what_is_wrong(token: &str, geometry: &Geometry) -> Option<String> {
    if token.contains(char::is_whitespace) {
        let joined: String = token.split_whitespace().collect();
        return Some(if joined.contains(is_separator_like) {
            format!("a space splits it ({joined} without it)")
        } else {
            "a space stands where the separator (- or :) goes".to_string()
        });
    }
    // The squares and what stands between them; an `x` is a separator only after a digit.
    let mut parts: Vec<&str> = Vec::new();
    let mut separators: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut in_separator = false;
    let mut previous = None;
    for (i, c) in token.char_indices() {
        let separator = is_separator_like(c)
            || (matches!(c, 'x' | 'X') && previous.is_some_and(|p: char| p.is_ascii_digit()));
        if separator != in_separator && i > start {
            if in_separator {
                separators.push(&token[start..i]);
            } else {
                parts.push(&token[start..i]);
            }
            start = i;
        }
        in_separator = separator;
        previous = Some(c);
    }
    if start < token.len() {
        if in_separator {
            separators.push(&token[start..]);
        } else {
            parts.push(&token[start..]);
        }
    }
    let leading = token.starts_with(is_separator_like);
    let trailing = token.ends_with(is_separator_like);
    // Signs before or after two squares (`-94-103`, `42-53.`), or squares run together
    // (`8272.`): specks, said apart from what else is wrong with the move between them.
    let inner = token.trim_matches(is_separator_like);
    let run_together =
        parts.len() == 1 && inner.len() >= 4 && inner.bytes().all(|b| b.is_ascii_digit());
    if (parts.len() == 2 && inner.contains(is_separator_like) || run_together)
        && (leading || trailing)
    {
        let place = match (leading, trailing) {
            (true, true) => "before and after it",
            (true, false) => "before it",
            _ => "after it",
        };
        let rest = match what_is_wrong(inner, geometry) {
            None if leading && trailing => format!("{inner} without them"),
            None => format!("{inner} without it"),
            Some(why) => why,
        };
        return Some(format!("a sign stands {place} ({rest})"));
    }
    let mut reasons: Vec<String> = Vec::new();
    match (parts.as_slice(), separators.len()) {
        ([], _) => return Some("there is no square in it".to_string()),
        ([one], 0) if one.len() >= 4 && one.bytes().all(|b| b.is_ascii_digit()) => {
            return Some(
                "the squares run together: the separator (- or :) between them is missing"
                    .to_string(),
            );
        }
        ([one], 0) => match geometry.parse_square(one) {
            Ok(_) => {
                return Some(
                    "a square alone is not a move: the separator and the other square are \
                        missing"
                        .to_string(),
                );
            }
            Err(_) => reasons.extend(square_reason(one, geometry)),
        },
        ([one], _) => {
            reasons.extend(square_reason(one, geometry));
            reasons.push(
                if leading {
                    "the square before the separator is missing"
                } else {
                    "the square after the separator is missing"
                }
                .to_string(),
            );
        }
        ([from, to], 1) if !leading && !trailing => {
            let separator = separators[0];
            if !matches!(separator, "-" | ":" | "x" | "X") {
                reasons.push(format!(
                    "{separator} is not a separator: a step is written with - and a jump with :"
                ));
            }
            reasons.extend(square_reason(from, geometry));
            reasons.extend(square_reason(to, geometry));
            let algebraic = |s: &str| s.starts_with(|c: char| c.is_ascii_alphabetic());
            if reasons.is_empty() && algebraic(from) != algebraic(to) {
                reasons.push("numeric and algebraic squares in one move".to_string());
            }
        }
        _ => {
            return Some(
                "it holds more than two squares: two moves run together, or a separator \
                    too many"
                    .to_string(),
            );
        }
    }
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

/// Why a part of a garbled move is not a square, if it is not.
fn square_reason(part: &str, geometry: &Geometry) -> Option<String> {
    if designator(part) {
        return Some(format!(
            "{part} names no piece: stars, moons and suns are numbered 1–5, or #1–#15 counted \
             through"
        ));
    }
    let error = geometry.parse_square(part).err()?;
    let digits = part.chars().filter(char::is_ascii_digit).count();
    // Letters and signs among digits: a misread digit, not a name such as e3.
    match part.chars().find(|c| !c.is_ascii_digit()) {
        Some(odd) if digits > 0 && !(odd.is_ascii_alphabetic() && part.starts_with(odd)) => {
            Some(format!("{part} is not a square ({odd} is not a digit)"))
        }
        Some(odd) if digits == 0 => Some(format!("{part} is not a square ({odd} is not a digit)")),
        _ => Some(error.to_string()),
    }
}

/// Whether a part starts as a piece designator does (`Su6`, `#16`).
fn designator(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    let kind = ["st", "mo", "su", "so", "#", "★", "☾", "☀"]
        .iter()
        .find_map(|k| lower.strip_prefix(k));
    kind.is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()) || rest.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardKind;

    #[test]
    fn garbled_moves_are_told_from_prose() {
        for word in [
            "3S-43", "§2-43", "SI-43", "46", "33—43", "3343", "-", "SI-OS", "33.43",
        ] {
            assert!(could_be_move(word), "{word}");
        }
        for word in ["knight", "Remis", "aufgegeben", "e.g.", "Anfang-Ende"] {
            assert!(!could_be_move(word), "{word}");
        }
    }

    #[test]
    fn misread_move_numbers_are_read_as_the_numbers_they_stand_for() {
        assert_eq!(misread_number("I."), Some((1, false)));
        assert_eq!(misread_number("l2."), Some((12, false)));
        assert_eq!(misread_number("1O..."), Some((10, true)));
        assert_eq!(misread_number("4,"), Some((4, false)));
        for word in ["12.", "4", "I", "Io", "O.", "SI.", "12345,"] {
            assert_eq!(misread_number(word), None, "{word}");
        }
    }

    #[test]
    fn move_numbers_misread_by_ocr_are_read_loosely() {
        assert_eq!(loose_number("IL."), Some((11, false)));
        assert_eq!(loose_number("$5."), Some((55, false)));
        assert_eq!(loose_number("MO."), Some((110, false)));
        assert_eq!(loose_number("4:"), Some((4, false)));
        assert_eq!(loose_number("12-"), Some((12, false)));
        assert_eq!(loose_number("102;"), Some((102, false)));
        assert_eq!(loose_number("1'7."), Some((17, false)));
        assert_eq!(loose_number("I0I.."), Some((101, true)));
        for word in ["33-43", "Sd", "knight.", "1234.", "x.", "0."] {
            assert_eq!(loose_number(word), None, "{word}");
        }
    }

    #[test]
    fn results_misread_by_ocr_are_read_as_the_results_they_stand_for() {
        assert_eq!(misread_result("O-T"), Some(GameResult::RedWins));
        assert_eq!(misread_result("I-O"), Some(GameResult::GreenWins));
        assert_eq!(misread_result("l/2-l/2"), Some(GameResult::Draw));
        // The dash lost: `10`, `IO`, `OT` (only after the last move: decision 181).
        assert_eq!(misread_result("10"), Some(GameResult::GreenWins));
        assert_eq!(misread_result("IO"), Some(GameResult::GreenWins));
        assert_eq!(misread_result("OT"), Some(GameResult::RedWins));
        for word in ["1-0", "0-1", "O-O", "00", "Io-l", "33-43", "1/21/2"] {
            assert_eq!(misread_result(word), None, "{word}");
        }
    }

    #[test]
    fn a_number_fits_the_count_within_one_or_one_digit() {
        assert!(number_fits(12, 12) && number_fits(11, 12) && number_fits(13, 12));
        assert!(number_fits(36, 26) && number_fits(104, 105));
        assert!(!number_fits(24, 12) && !number_fits(7, 4) && !number_fits(63, 26));
    }

    #[test]
    fn a_garbled_move_says_why_it_is_not_one() {
        let g = Geometry::of(BoardKind::Salta);
        let why = |t: &str| why_garbled(t, g);
        assert_eq!(why("3S-43"), "3S is not a square (S is not a digit)");
        assert_eq!(why("§2-43"), "§2 is not a square (§ is not a digit)");
        assert_eq!(why("SI-43"), "SI is not a square (S is not a digit)");
        assert_eq!(
            why("46-55"),
            "46 is not a square: square numbers end in 1–5"
        );
        assert_eq!(
            why("i6-h6"),
            "i6 is a light square: play uses the dark squares only"
        );
        assert_eq!(
            why("33—43"),
            "— is not a separator: a step is written with - and a jump with :"
        );
        assert_eq!(
            why("3343"),
            "the squares run together: the separator (- or :) between them is missing"
        );
        assert_eq!(why("33-4 3"), "a space splits it (33-43 without it)");
        assert_eq!(
            why("33 43"),
            "a space stands where the separator (- or :) goes"
        );
        assert!(why("81-7172-63").starts_with("it holds more than two squares"));
        assert_eq!(
            why("-94-103"),
            "a sign stands before it (94-103 without it)"
        );
        assert_eq!(
            why(".31-41:"),
            "a sign stands before and after it (31-41 without them)"
        );
        assert!(why("-04-103").starts_with("a sign stands before it (04 is not a square"));
        // Squares run together, a dot after them (a move taken for a move number, decision 190).
        assert_eq!(
            why("8272."),
            "a sign stands after it (the squares run together: the separator (- or :) between \
             them is missing)"
        );
        assert_eq!(why("33-"), "the square after the separator is missing");
        assert_eq!(why("33-f4"), "numeric and algebraic squares in one move");
        assert!(why("Su6-44").starts_with("Su6 names no piece"));
        assert!(why("33").starts_with("a square alone is not a move"));
    }
}
