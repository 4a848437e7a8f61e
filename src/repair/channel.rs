//! How a move meant becomes the text written, character by character: the prior of
//! `confusions.tsv` and the cheapest way to read one text as another (a weighted edit distance
//! with substitutions, characters left out or added, and neighbouring digits swapped).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

/// A character of a move as meant: its own, or the separator slot (written `-`, `:`, `x`, or
/// misread as a dash, a dot, ..., or left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Sym {
    Char(char),
    Sep,
    /// The space between two moves read as one token (`33-43.83-73`): left out for nothing (the
    /// merging is the slip), or read as a sign at a small cost.
    Gap,
}

/// One step from the text meant to the text written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// The meant character (or separator) written as another.
    Sub(Sym, char),
    /// The meant character (or separator) left out.
    Del(Sym),
    /// A character written that was not meant.
    Ins(char),
    /// Two neighbouring characters written the other way round (meant order).
    Swap(char, char),
}

/// The cheapest reading of a meant text as the written one: its cost (the sum of the edits'
/// `-ln(weight)`, 0 for the same text) and its edits.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reading {
    pub cost: f64,
    pub ops: Vec<Op>,
}

/// The prior: the cost of every character edit, from `confusions.tsv`.
#[derive(Debug, Default)]
pub(crate) struct Channel {
    sub: HashMap<(char, char), f64>,
    sep: HashMap<char, f64>,
    sep_dropped: f64,
    ins: HashMap<char, f64>,
    ins_space: f64,
    ins_digit: f64,
    ins_any: f64,
    del_digit: f64,
    /// Each digit left out: its own line (`1 NONE`: OCR loses the thin 1 most often), else
    /// `DIGIT NONE`'s. An array, not a map: it is looked up in the edit distance's inner loop.
    del_digits: [f64; 10],
    /// One of two like digits side by side left out (`1-21` for `11-21`: OCR merges them).
    del_double: f64,
    /// The space between two moves run together read as a sign.
    gap_sign: f64,
    del_letter: f64,
    swap: f64,
    /// `sub_cost` of every pair of ASCII characters, and of the separator written as each:
    /// looked up in the search's inner loop, where hashing the pair was most of its time.
    ascii: Vec<f64>,
    /// `ins_cost` of every ASCII character, for the same reason.
    ins_ascii: Vec<f64>,
    /// The least a character added costs: what bounds how much longer than the text meant a
    /// text read as it within a limit may be.
    least_ins: f64,
    /// Each character misread after the first in one move: a move misread at all has most often
    /// one character wrong.
    more: f64,
    /// The same for a digit read as a letter or sign the table lists (`SI-GI` for `51-61`): an
    /// OCR engine that takes a move for a word reads all its digits as letters.
    more_listed: f64,
    /// A sign added at either edge of a garbled token (`.104:83`, `42-53.`): a speck.
    edge: f64,
    next: f64,
    digit_digit: f64,
    any_any: f64,
}

const TABLE: &str = include_str!("confusions.tsv");

thread_local! {
    /// The edit-distance table each reading fills: read for every legal move of every break
    /// tried, allocating it each time was a tenth of the search's time.
    static DISTANCES: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The cost of an edit the table does not allow (no way to read one as the other).
const NEVER: f64 = f64::INFINITY;

/// A text is read as a meant text of at most this many characters more or fewer (`read`).
pub(super) const LENGTH_SLACK: usize = 4;

impl Channel {
    /// The prior of `confusions.tsv`, read once.
    pub fn get() -> &'static Channel {
        static CHANNEL: OnceLock<Channel> = OnceLock::new();
        CHANNEL.get_or_init(|| Channel::parse(TABLE).unwrap_or_default())
    }

    /// Reads the table; `Err` names the first line that cannot be read (the table is ours: its
    /// test reads it whole).
    pub fn parse(table: &str) -> Result<Channel, String> {
        let mut c = Channel {
            sep_dropped: NEVER,
            ins_space: NEVER,
            ins_digit: NEVER,
            ins_any: NEVER,
            del_digit: NEVER,
            del_double: NEVER,
            gap_sign: NEVER,
            del_letter: NEVER,
            swap: NEVER,
            more: 0.0,
            more_listed: 0.0,
            edge: NEVER,
            next: NEVER,
            digit_digit: NEVER,
            any_any: NEVER,
            ..Channel::default()
        };
        let mut own_deletion: [Option<f64>; 10] = [None; 10];
        for (n, line) in table.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("confusions.tsv line {}: {line:?}", n + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            let [meant, written, weight, way, ..] = fields[..] else {
                return Err(bad());
            };
            let weight: f64 = weight.parse().map_err(|_| bad())?;
            if !(weight > 0.0 && weight <= 1.0) {
                return Err(bad());
            }
            let cost = -weight.ln();
            let both = match way {
                "=" => true,
                ">" => false,
                _ => return Err(bad()),
            };
            let one = |s: &str| {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(ch), None) => Some(ch),
                    _ => None,
                }
            };
            match (meant, written) {
                ("SEP", "NONE") => c.sep_dropped = cost,
                ("SEP", "SPACE") => {
                    c.sep.insert(' ', cost);
                }
                ("SEP", w) => {
                    c.sep.insert(one(w).ok_or_else(bad)?, cost);
                }
                ("NONE", "SPACE") => c.ins_space = cost,
                ("NONE", "DIGIT") => c.ins_digit = cost,
                ("NONE", "EDGE") => c.edge = cost,
                ("NONE", "ANY") => c.ins_any = cost,
                ("NONE", w) => {
                    c.ins.insert(one(w).ok_or_else(bad)?, cost);
                }
                ("DIGIT", "NONE") => c.del_digit = cost,
                ("DOUBLE", "NONE") => c.del_double = cost,
                ("GAP", "SIGN") => c.gap_sign = cost,
                ("LETTER", "NONE") => c.del_letter = cost,
                ("SWAP", "SWAP") => c.swap = cost,
                ("MORE", "MORE") => c.more = cost,
                ("MORE", "LISTED") => c.more_listed = cost,
                ("NEXT", "NEXT") => c.next = cost,
                ("DIGIT", "DIGIT") => c.digit_digit = cost,
                ("ANY", "ANY") => c.any_any = cost,
                (m, "NONE") => {
                    let digit = one(m).and_then(|m| m.to_digit(10)).ok_or_else(bad)?;
                    own_deletion[digit as usize] = Some(cost);
                }
                (m, w) => {
                    let (m, w) = (one(m).ok_or_else(bad)?, one(w).ok_or_else(bad)?);
                    c.sub.insert((m, w), cost);
                    if both {
                        c.sub.insert((w, m), cost);
                    }
                }
            }
        }
        c.del_digits = own_deletion.map(|own| own.unwrap_or(c.del_digit));
        c.ascii = (0..129 * 128)
            .map(|k| {
                let w = char::from((k % 128) as u8);
                match k / 128 {
                    128 => c.sub_cost_slow(Sym::Sep, w),
                    m => c.sub_cost_slow(Sym::Char(char::from(m as u8)), w),
                }
            })
            .collect();
        c.ins_ascii = (0..128u8).map(|w| c.ins_cost_slow(char::from(w))).collect();
        c.least_ins = (c.ins.values().copied())
            .chain([c.ins_space, c.ins_digit, c.ins_any])
            .fold(NEVER, f64::min);
        Ok(c)
    }

    /// The characters the table says `m` is read as, with their weights.
    pub fn partners(&self, m: char) -> Vec<(char, f64)> {
        let mut out: Vec<(char, f64)> = self
            .sub
            .iter()
            .filter(|((a, _), _)| *a == m)
            .map(|(&(_, w), &cost)| (w, (-cost).exp()))
            .collect();
        out.sort_by_key(|a| a.0);
        out
    }

    /// What a separator is misread as (`None`: left out), with the weights, leaving out the
    /// separators the reader takes as they are.
    pub fn separator_misreadings(&self) -> Vec<(Option<char>, f64)> {
        let mut out: Vec<(Option<char>, f64)> = self
            .sep
            .iter()
            .filter(|(_, cost)| **cost > 1e-9)
            .map(|(&w, &cost)| (Some(w), (-cost).exp()))
            .collect();
        out.sort_by_key(|a| a.0);
        out.push((None, (-self.sep_dropped).exp()));
        out
    }

    /// Whether the table names `m` read as `w` (a confusion of like glyphs).
    pub fn listed(&self, m: char, w: char) -> bool {
        self.sub.contains_key(&(m, w))
    }

    /// The cost of the meant `m` written as `w` (not the same character).
    #[inline]
    fn sub_cost(&self, m: Sym, w: char) -> f64 {
        let row = match m {
            Sym::Char(m) if m.is_ascii() => m as usize,
            Sym::Sep => 128,
            _ => return self.sub_cost_slow(m, w),
        };
        match self.ascii.get(row * 128 + w as usize) {
            Some(&cost) if w.is_ascii() => cost,
            _ => self.sub_cost_slow(m, w),
        }
    }

    /// [`sub_cost`](Self::sub_cost) from the table itself.
    fn sub_cost_slow(&self, m: Sym, w: char) -> f64 {
        match m {
            Sym::Sep => self.sep.get(&w).copied().unwrap_or(self.any_any),
            Sym::Gap if matches!(w, '.' | ',' | ':' | ';' | '-' | '\'' | '°' | '=') => {
                self.gap_sign
            }
            Sym::Gap => NEVER,
            Sym::Char(m) if m == w => 0.0,
            Sym::Char(m) => {
                if let Some(&c) = self.sub.get(&(m, w)) {
                    return c;
                }
                match (m.to_digit(10), w.to_digit(10)) {
                    (Some(a), Some(b)) if a.abs_diff(b) == 1 => self.next,
                    (Some(_), Some(_)) => self.digit_digit,
                    _ => self.any_any,
                }
            }
        }
    }

    /// The cost of the meant `meant[i]` left out.
    fn del_cost_at(&self, meant: &[Sym], i: usize) -> f64 {
        let m = meant[i];
        let twin = |j: Option<usize>| j.and_then(|j| meant.get(j)) == Some(&m);
        match m {
            Sym::Char(c) if c.is_ascii_digit() && (twin(i.checked_sub(1)) || twin(Some(i + 1))) => {
                self.del_double.min(self.del_cost(m))
            }
            _ => self.del_cost(m),
        }
    }

    /// The cost of the meant `m` left out.
    fn del_cost(&self, m: Sym) -> f64 {
        match m {
            Sym::Gap => 0.0,
            Sym::Sep => self.sep_dropped,
            Sym::Char(c) if c.is_ascii_digit() => self.del_digits[c as usize - '0' as usize],
            Sym::Char(_) => self.del_letter,
        }
    }

    /// The cost of `w` written where nothing was meant.
    #[inline]
    fn ins_cost(&self, w: char) -> f64 {
        match self.ins_ascii.get(w as usize) {
            Some(&cost) => cost,
            None => self.ins_cost_slow(w),
        }
    }

    /// [`ins_cost`](Self::ins_cost) from the table itself.
    fn ins_cost_slow(&self, w: char) -> f64 {
        if let Some(&c) = self.ins.get(&w) {
            return c;
        }
        if w == ' ' {
            self.ins_space
        } else if w.is_ascii_digit() {
            self.ins_digit
        } else {
            self.ins_any
        }
    }

    /// The cost of the meant `a b` written `b a`.
    fn swap_cost(&self, a: Sym, b: Sym) -> f64 {
        match (a, b) {
            (Sym::Char(a), Sym::Char(b)) if a != b && a.is_ascii_digit() && b.is_ascii_digit() => {
                self.swap
            }
            _ => NEVER,
        }
    }

    /// The cheapest reading of `meant` as a garbled token's `written` text: as it stands, or
    /// with the signs at its edges (specks, a stray dot) taken as added at the cost of `NONE
    /// EDGE` each.
    pub fn read_garbled(&self, meant: &[Sym], written: &[char], limit: f64) -> Option<Reading> {
        let whole = self.read(meant, written, limit);
        let Some((inner, edges)) = self.within_specks(written) else {
            return whole;
        };
        let (head, tail) = (inner.start, written.len() - inner.end);
        let limit = whole.as_ref().map_or(limit, |w| w.cost.min(limit));
        let Some(inner) = self.read(meant, &written[inner], limit - edges) else {
            return whole;
        };
        let mut ops: Vec<Op> = written[..head].iter().map(|&c| Op::Ins(c)).collect();
        ops.extend(inner.ops);
        ops.extend(written[written.len() - tail..].iter().map(|&c| Op::Ins(c)));
        Some(Reading {
            cost: inner.cost + edges,
            ops,
        })
    }

    /// The cheapest reading of `meant` as `written`, if it costs at most `limit` and their
    /// lengths differ by at most [`LENGTH_SLACK`].
    pub fn read(&self, meant: &[Sym], written: &[char], limit: f64) -> Option<Reading> {
        let (n, m) = (meant.len(), written.len());
        if n.abs_diff(m) > LENGTH_SLACK {
            return None;
        }
        DISTANCES.with_borrow_mut(|d| self.read_in(meant, written, limit, d))
    }

    /// [`read`](Self::read) with `d` for its table.
    fn read_in(
        &self,
        meant: &[Sym],
        written: &[char],
        limit: f64,
        d: &mut Vec<f64>,
    ) -> Option<Reading> {
        let (n, m) = (meant.len(), written.len());
        if !self.table(meant, written, limit, d) {
            return None;
        }
        let width = m + 1;
        let at = |i: usize, j: usize| i * width + j;
        let cost = d[at(n, m)];
        if cost > limit || !cost.is_finite() {
            return None;
        }
        // Back from the end, the edits that gave each cell its cost.
        let mut ops = Vec::new();
        let (mut i, mut j) = (n, m);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        while i > 0 || j > 0 {
            let here = d[at(i, j)];
            if i > 0 && j > 0 {
                let s = self.sub_cost(meant[i - 1], written[j - 1]);
                if close(d[at(i - 1, j - 1)] + s, here) {
                    if s > 0.0 {
                        ops.push(Op::Sub(meant[i - 1], written[j - 1]));
                    }
                    i -= 1;
                    j -= 1;
                    continue;
                }
            }
            if i > 1
                && j > 1
                && meant[i - 1] == Sym::Char(written[j - 2])
                && meant[i - 2] == Sym::Char(written[j - 1])
                && close(
                    d[at(i - 2, j - 2)] + self.swap_cost(meant[i - 2], meant[i - 1]),
                    here,
                )
            {
                ops.push(Op::Swap(written[j - 1], written[j - 2]));
                i -= 2;
                j -= 2;
                continue;
            }
            if i > 0 && close(d[at(i - 1, j)] + self.del_cost_at(meant, i - 1), here) {
                ops.push(Op::Del(meant[i - 1]));
                i -= 1;
                continue;
            }
            if j > 0 {
                ops.push(Op::Ins(written[j - 1]));
                j -= 1;
                continue;
            }
            // Unreachable for a finite cost; stop rather than loop.
            break;
        }
        ops.reverse();
        // Two moves run together without a sign between them: the merging is the slip.
        ops.retain(|op| *op != Op::Del(Sym::Gap));
        let cost = cost + self.more_cost(&ops);
        (cost <= limit).then_some(Reading { cost, ops })
    }

    /// The letters and digits of a garbled token's text between the signs at its edges
    /// (specks, a stray dot), and what those signs cost as specks; `None` when there are none,
    /// or nothing else.
    pub fn within_specks(&self, written: &[char]) -> Option<(Range<usize>, f64)> {
        let sign = |c: &&char| !c.is_alphanumeric();
        let head = written.iter().take_while(sign).count();
        let tail = written[head..].iter().rev().take_while(sign).count();
        (head + tail != 0 && head + tail != written.len())
            .then(|| (head..written.len() - tail, self.edge * (head + tail) as f64))
    }

    /// The most characters a text read as a meant text of `meant` symbols within `limit` may
    /// have: each one past those is a character added, at [`Channel::least_ins`] at the least.
    pub fn longest_reading(&self, meant: usize, limit: f64) -> usize {
        let added = (limit / self.least_ins).floor();
        meant.saturating_add(if added.is_finite() {
            added as usize
        } else {
            usize::MAX
        })
    }

    /// The cheapest reading of `meant` as each beginning `written[..j]` of the text, by `j`,
    /// before the cost of further misread characters (which only adds).
    pub fn prefix_costs(&self, meant: &[Sym], written: &[char]) -> Vec<f64> {
        let row = meant.len() * (written.len() + 1);
        DISTANCES.with_borrow_mut(|d| {
            self.table(meant, written, f64::INFINITY, d);
            d[row..].to_vec()
        })
    }

    /// The same for each ending `written[j..]`, by `j` (each edit reads the same read
    /// backwards: the text and the move reversed).
    pub fn suffix_costs(&self, meant: &[Sym], written: &[char]) -> Vec<f64> {
        let meant: Vec<Sym> = meant.iter().rev().copied().collect();
        let written: Vec<char> = written.iter().rev().copied().collect();
        let mut costs = self.prefix_costs(&meant, &written);
        costs.reverse();
        costs
    }

    /// The edit-distance table of `meant` against `written`: `d[i * (written.len() + 1) + j]`
    /// the cheapest reading of `meant[..i]` as `written[..j]`, before the cost of further
    /// misread characters, filled into `d`; `false` (and `d` left part filled) once every
    /// reading through two rows costs more than `limit`.
    fn table(&self, meant: &[Sym], written: &[char], limit: f64, d: &mut Vec<f64>) -> bool {
        let (n, m) = (meant.len(), written.len());
        // d[i][j]: the cheapest reading of meant[..i] as written[..j].
        let width = m + 1;
        d.clear();
        d.resize((n + 1) * width, NEVER);
        let at = |i: usize, j: usize| i * width + j;
        d[at(0, 0)] = 0.0;
        let mut over_before = false;
        for i in 0..=n {
            for j in 0..=m {
                let mut best = d[at(i, j)];
                if i > 0 {
                    best = best.min(d[at(i - 1, j)] + self.del_cost_at(meant, i - 1));
                }
                if j > 0 {
                    best = best.min(d[at(i, j - 1)] + self.ins_cost(written[j - 1]));
                }
                if i > 0 && j > 0 {
                    best =
                        best.min(d[at(i - 1, j - 1)] + self.sub_cost(meant[i - 1], written[j - 1]));
                }
                if i > 1
                    && j > 1
                    && meant[i - 1] == Sym::Char(written[j - 2])
                    && meant[i - 2] == Sym::Char(written[j - 1])
                {
                    best =
                        best.min(d[at(i - 2, j - 2)] + self.swap_cost(meant[i - 2], meant[i - 1]));
                }
                d[at(i, j)] = best;
            }
            // Every reading through this row and the one before (a swap steps over one) already
            // costs more than allowed.
            let over = d[at(i, 0)..=at(i, m)].iter().all(|&c| c > limit);
            if over && over_before {
                return false;
            }
            over_before = over;
        }
        true
    }
}

impl Channel {
    /// The cost of the characters misread after the first: each a letter or sign for a digit
    /// that the table lists costs `more_listed`, any other edit `more`; the dearest edit counts
    /// as the first, and an edit of the separator or of the space between two moves is none.
    fn more_cost(&self, ops: &[Op]) -> f64 {
        // Letters and signs for digits, as the table lists them (`S`, `I`, `O`, `G`, `$`): not
        // one digit for another, which stays as rare as any further edit.
        let listed = ops
            .iter()
            .filter(|op| {
                matches!(op, Op::Sub(Sym::Char(m), w)
                    if !w.is_ascii_digit() && self.sub.contains_key(&(*m, *w)))
            })
            .count();
        // The sign between two moves run together is no misread character of either; nor is
        // the separator lost or misread (`7262`, `34°53`): OCR loses it by the spacing of the
        // line, whatever it makes of the digits, and it is the commonest slip of a page.
        let signs = ops
            .iter()
            .filter(|op| matches!(op, Op::Sub(Sym::Gap | Sym::Sep, _) | Op::Del(Sym::Sep)))
            .count();
        let others = ops.len() - listed - signs;
        match (listed, others) {
            (0, 0) => 0.0,
            (_, 0) => self.more_listed * (listed - 1) as f64,
            _ => self.more_listed * listed as f64 + self.more * (others - 1) as f64,
        }
    }
}

/// A move's text as meant, its separator a slot: `33-43` is `3 3 SEP 4 3`.
pub(crate) fn meant_symbols(text: &str) -> Vec<Sym> {
    text.chars()
        .map(|c| match c {
            '-' | ':' | 'x' => Sym::Sep,
            c => Sym::Char(c),
        })
        .collect()
}

impl Op {
    /// The edit in a few words, as a slip's description names it: `S for 5`, `- left out`.
    pub fn describe(&self) -> String {
        let sym = |s: &Sym| match s {
            Sym::Sep => "-".to_string(),
            Sym::Gap => "the space".to_string(),
            Sym::Char(c) => c.to_string(),
        };
        let shown = |c: char| match c {
            ' ' => "a space".to_string(),
            c => c.to_string(),
        };
        match self {
            Op::Sub(m, w) => format!("{} for {}", shown(*w), sym(m)),
            Op::Del(Sym::Sep) => "- left out".to_string(),
            Op::Del(m) => format!("{} left out", sym(m)),
            Op::Ins(w) => format!("{} added", shown(*w)),
            Op::Swap(a, b) => format!("{b}{a} for {a}{b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No text longer than [`Channel::longest_reading`] reads as a meant text within the limit:
    /// what lets a search of the beginnings of a long text stop there.
    #[test]
    fn no_reading_within_a_limit_is_longer_than_the_longest_reading() {
        let c = Channel::get();
        let meant = meant_symbols("101-92");
        let written: Vec<char> = "101°92.,. ; 1-0--..°°  ,,..__".chars().collect();
        let reach = c.longest_reading(meant.len(), 10.0);
        assert!(reach < written.len());
        let costs = c.prefix_costs(&meant, &written);
        assert!(costs[..=reach].iter().any(|&cost| cost <= 10.0));
        assert!(
            costs[reach + 1..].iter().all(|&cost| cost > 10.0),
            "{costs:?}"
        );
    }

    fn read(meant: &str, written: &str) -> Option<Reading> {
        let w: Vec<char> = written.chars().collect();
        Channel::get().read(&meant_symbols(meant), &w, 50.0)
    }

    #[test]
    fn the_table_reads_whole() {
        let c = Channel::parse(TABLE).expect("every line reads");
        assert!(c.sub.len() > 50);
        assert!(c.sep_dropped.is_finite() && c.swap.is_finite() && c.any_any.is_finite());
    }

    #[test]
    fn the_same_text_and_any_separator_cost_nothing() {
        assert_eq!(read("33-43", "33-43").map(|r| r.cost), Some(0.0));
        let jump = read("45:64", "45-64").expect("read");
        assert_eq!((jump.cost, jump.ops.len()), (0.0, 0));
    }

    #[test]
    fn likely_confusions_cost_less_than_unlikely_ones() {
        let cost = |m, w| read(m, w).expect("read").cost;
        // 5 read as 3 (OCR) against 5 read as 1 (no such confusion).
        assert!(cost("35-44", "33-44") < cost("35-44", "31-44"));
        // A dropped separator is cheap; a dropped digit dearer, a letter for a digit in between.
        assert!(cost("33-43", "3343") < cost("33-43", "3-43"));
        assert!(cost("33-43", "3S-43") > cost("35-43", "3S-43") - 1e-9);
        assert_eq!(
            read("35-43", "3S-43").expect("read").ops,
            vec![Op::Sub(Sym::Char('5'), 'S')]
        );
        // Digits swapped.
        assert_eq!(
            read("35-44", "53-44").expect("read").ops,
            vec![Op::Swap('3', '5')]
        );
        // An em dash for the hyphen, a move split by a space.
        assert_eq!(
            read("33-43", "33—43").expect("read").ops,
            vec![Op::Sub(Sym::Sep, '—')]
        );
        assert_eq!(
            read("33-43", "33-4 3").expect("read").ops,
            vec![Op::Ins(' ')]
        );
    }

    #[test]
    fn ocr_shapes_cost_what_the_table_says() {
        let c = Channel::get();
        let cost = |m, w| read(m, w).expect("read").cost;
        // One of two like digits left out is likelier than another digit (`I-21`: 11-21).
        assert!(cost("11-21", "I-21") < cost("12-21", "I-21"));
        assert!(cost("11-21", "I-21") < cost("31-21", "I-21"));
        // A move read as a word, all its digits letters: each further like glyph costs less
        // than a further unlisted edit.
        assert!(cost("51-61", "SI-GI") < 6.0);
        // The thin 1 is the digit OCR loses most often (ocr-align: 2,590 of 63,326, against
        // 1.5 % of the other digits): its own weight, not `DIGIT NONE`'s.
        assert!(cost("41-52", "4-52") < cost("43-52", "4-52"));
        let table = Channel::parse("DIGIT\tNONE\t0.1\t>\n1\tNONE\t0.5\t>\n").expect("read");
        assert!((table.del_cost(Sym::Char('1')) + 0.5f64.ln()).abs() < 1e-12);
        assert!((table.del_cost(Sym::Char('3')) + 0.1f64.ln()).abs() < 1e-12);
        // Only a digit has a weight of its own for being left out.
        assert!(Channel::parse("S\tNONE\t0.5\t>\n").is_err());
        // A sign at the edge of a garbled token, a speck.
        let w: Vec<char> = ".104:83".chars().collect();
        let edge = c
            .read_garbled(&meant_symbols("104-83"), &w, 50.0)
            .expect("read");
        assert_eq!(edge.ops, vec![Op::Ins('.')]);
        // The space between two moves run together read as a dot.
        let mut meant = meant_symbols("33-43");
        meant.push(Sym::Gap);
        meant.extend(meant_symbols("83-73"));
        let w: Vec<char> = "33-43.83-73".chars().collect();
        let gap = c.read(&meant, &w, 50.0).expect("read");
        assert_eq!(gap.ops, vec![Op::Sub(Sym::Gap, '.')]);
        assert_eq!(gap.ops[0].describe(), ". for the space");
        let w: Vec<char> = "33-4383-73".chars().collect();
        assert_eq!(c.read(&meant, &w, 50.0).expect("read").cost, 0.0);
    }

    #[test]
    fn a_lost_or_misread_separator_is_no_further_misread_character() {
        let c = Channel::get();
        let cost = |m, w| read(m, w).expect("read").cost;
        // `7362` for 72-62: the digit misread and the dash lost cost what each costs alone.
        let each = cost("72-62", "73-62") + cost("72-62", "7262");
        assert!((cost("72-62", "7362") - each).abs() < 1e-9);
        let each = cost("72-62", "73-62") + cost("72-62", "72°62");
        assert!((cost("72-62", "73°62") - each).abs() < 1e-9);
        // Two digits misread still cost the further edit.
        assert!(cost("72-62", "73-63") > cost("72-62", "73-62") + cost("72-62", "72-63"));
        // A word of glyphs for a move whose dash and a digit are lost: within the limit of a
        // reading by characters.
        assert!(cost("71-81", "ZBI") < 10.0);
        assert!(c.listed('8', 'B'));
    }

    #[test]
    fn the_edits_are_described() {
        let ops = read("71-52", "7152").expect("read").ops;
        assert_eq!(ops, vec![Op::Del(Sym::Sep)]);
        assert_eq!(ops[0].describe(), "- left out");
        assert_eq!(Op::Sub(Sym::Char('5'), 'S').describe(), "S for 5");
    }

    #[test]
    fn two_moves_run_together_cost_their_beginning_and_ending_added() {
        // The search for merged moves bounds each pair by its first move's beginnings and its
        // second's endings: added at the best split they are the whole reading's cost.
        let c = Channel::get();
        for (one, two, written) in [
            ("33-43", "83-73", "33-4383-73"),
            ("33-43", "83-73", "3S-43.88-73"),
            ("71-52", "11-21", "7152 1-21"),
            ("44-53", "55-64", "45-3356-64"),
        ] {
            let w: Vec<char> = written.chars().collect();
            let mut head = meant_symbols(one);
            head.push(Sym::Gap);
            let tail = meant_symbols(two);
            let whole: Vec<Sym> = head.iter().chain(&tail).copied().collect();
            let mut d = Vec::new();
            assert!(c.table(&whole, &w, f64::INFINITY, &mut d));
            let cost = d[whole.len() * (w.len() + 1) + w.len()];
            let (starts, ends) = (c.prefix_costs(&head, &w), c.suffix_costs(&tail, &w));
            let split = starts
                .iter()
                .zip(&ends)
                .map(|(s, e)| s + e)
                .fold(f64::INFINITY, f64::min);
            assert!((split - cost).abs() < 1e-9, "{written}: {split} vs {cost}");
        }
    }
}
