use crate::board::{BoardKind, Color};
use crate::diagnostic::quote;
use std::fmt;

/// The rule families of rules.md: default Salta and the two variants of the seed texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Büttgenbach's game as rules.md states it: 10×10, fifteen distinct pieces a side.
    Salta,
    /// M. Winther (2019): backward moves and friendly jumps only in the goal zone.
    Winther,
    /// R. C. Bell (1969): 8×8, ten identical pieces, forward steps, jump chains, passes.
    Pyramid,
}

impl Variant {
    /// The lower-case name used in a Rules tag (`salta`, `winther`, `pyramid`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Salta => "salta",
            Variant::Winther => "winther",
            Variant::Pyramid => "pyramid",
        }
    }

    /// The board the variant is played on.
    pub fn board(self) -> BoardKind {
        match self {
            Variant::Pyramid => BoardKind::Pyramid,
            _ => BoardKind::Salta,
        }
    }
}

/// Which way a piece may jump over an enemy piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JumpDirection {
    /// Only forward, toward the opponent's side (the default).
    Forward,
    /// Forward or backward.
    Any,
}

/// What yields when every compulsory jump would blockade the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Precedence {
    /// The no-blockade rule wins: the player steps instead (rules.md §3, the default).
    BlockadeFirst,
    /// The compulsion wins: the player must jump even so.
    JumpFirst,
}

/// Where the pieces must go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// Each piece seven ranks forward, order kept (`start ± 70`).
    Shift,
    /// Each piece to the start square of the opponent's same-named piece (`116 − start`).
    Rotation,
}

/// A rule set with its switches (rules.md §3, §5, §6). Made by [`Rules::of`] (or read from a
/// Rules tag) and then changed switch by switch: every combination of switches is a rule set, and
/// the move limit and the odds check their own values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Rules {
    /// The rule family the switches modify.
    pub variant: Variant,
    /// Which way a piece may jump over an enemy piece.
    pub jumps: JumpDirection,
    /// The no-blockade rule.
    pub blockade: bool,
    /// What yields when every compulsory jump would blockade the opponent.
    pub precedence: Precedence,
    /// Where the pieces must go.
    pub goal: Goal,
    /// Whether enemy jumps are compulsory (always in Salta and Winther by default; optional in Pyramid).
    pub compulsory: bool,
    /// Moves per side after which the game is adjudicated; `None`: no limit.
    pub move_limit: Option<MoveLimit>,
    /// The handicap move rhythm ("2 gegen 3"); `None`: the sides alternate.
    pub odds: Option<Odds>,
}

/// The moves each side makes before the game is adjudicated (rules.md §5): one number for both
/// (`120`) or, in a handicap game, one per side (`100/120`, Green's first). Each is 1–10000
/// moves ([`MoveLimit::new`] checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "LimitFields")]
pub struct MoveLimit {
    pub(crate) green: u16,
    pub(crate) red: u16,
}

/// The moves a side may be limited to.
const LIMIT_MOVES: std::ops::RangeInclusive<u16> = 1..=10000;

/// A move limit as a document writes it, checked when read back.
#[derive(serde::Deserialize)]
struct LimitFields {
    green: u16,
    red: u16,
}

impl TryFrom<LimitFields> for MoveLimit {
    type Error = RulesError;
    fn try_from(fields: LimitFields) -> Result<MoveLimit, RulesError> {
        MoveLimit::new(fields.green, fields.red)
    }
}

impl MoveLimit {
    /// Green's and Red's limits, each 1–10000 moves.
    pub fn new(green: u16, red: u16) -> Result<MoveLimit, RulesError> {
        let limit = MoveLimit { green, red };
        if LIMIT_MOVES.contains(&green) && LIMIT_MOVES.contains(&red) {
            Ok(limit)
        } else {
            Err(RulesError::BadMoveLimit(limit.to_string()))
        }
    }

    /// The same limit for both sides, 1–10000 moves.
    pub fn both(moves: u16) -> Result<MoveLimit, RulesError> {
        MoveLimit::new(moves, moves)
    }

    /// The optional "120-move rule" switched on without a number: 120 moves a side.
    pub const DEFAULT: MoveLimit = MoveLimit {
        green: 120,
        red: 120,
    };

    /// Green's limit.
    pub fn green(self) -> u16 {
        self.green
    }

    /// Red's limit.
    pub fn red(self) -> u16 {
        self.red
    }

    /// The limit of `color`.
    pub fn of(self, color: Color) -> u16 {
        match color {
            Color::Green => self.green,
            Color::Red => self.red,
        }
    }

    /// Reads a `MoveLimit` tag value: `120`, `100/120` (Green's, then Red's), or `-` (or
    /// nothing, or only spaces) for no limit. Each limit is a whole number of moves, 1–10000: `0`
    /// (no moves, or no limit?) and anything else is an error (decision 144).
    pub fn parse(text: &str) -> Result<Option<MoveLimit>, RulesError> {
        let t = text.trim();
        if t.is_empty() || t == "-" {
            return Ok(None);
        }
        let moves = |part: &str| {
            let part = part.trim();
            match part.parse::<u16>() {
                // Digits only: `+120` is no way to write a number of moves.
                Ok(n) if LIMIT_MOVES.contains(&n) && part.bytes().all(|b| b.is_ascii_digit()) => {
                    Ok(n)
                }
                _ => Err(RulesError::BadMoveLimit(t.to_string())),
            }
        };
        let (green, red) = match t.split_once('/') {
            None => (moves(t)?, moves(t)?),
            Some((green, red)) => (moves(green)?, moves(red)?),
        };
        Ok(Some(MoveLimit { green, red }))
    }
}

/// The tag text: `120` when both sides have the same limit, else `100/120`.
impl fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.green == self.red {
            write!(f, "{}", self.green)
        } else {
            write!(f, "{}/{}", self.green, self.red)
        }
    }
}

/// Move odds ("2 gegen 3", rules.md §5): `side` makes `more` moves for every `fewer` of the other
/// side's, in groups; Green's group comes first, as Green moves first. Made by [`Odds::new`] or
/// [`Odds::parse`], which check the groups and write them one way only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "OddsFields")]
pub struct Odds {
    pub(crate) side: Color,
    pub(crate) more: u8,
    pub(crate) fewer: u8,
}

/// Odds as a document writes them, checked when read back.
#[derive(serde::Deserialize)]
struct OddsFields {
    side: Color,
    more: u8,
    fewer: u8,
}

impl TryFrom<OddsFields> for Odds {
    type Error = RulesError;
    fn try_from(fields: OddsFields) -> Result<Odds, RulesError> {
        Odds::new(fields.side, fields.more, fields.fewer)?.ok_or_else(|| {
            let written = format!("{} {}:{}", fields.side.name(), fields.more, fields.fewer);
            RulesError::BadOdds(written)
        })
    }
}

impl Odds {
    /// `side` makes `side_moves` moves for every `other_moves` of the other side's, each 1–99,
    /// as the Odds tag `red 3:2` says. Written the other way round, `red 2:3` is `green 3:2`;
    /// equal groups give nobody odds (Green's group first), and `1:1` is the sides alternating
    /// (`None`).
    pub fn new(side: Color, side_moves: u8, other_moves: u8) -> Result<Option<Odds>, RulesError> {
        if !(1..=99).contains(&side_moves) || !(1..=99).contains(&other_moves) {
            let written = format!("{} {side_moves}:{other_moves}", side.name());
            return Err(RulesError::BadOdds(written));
        }
        Ok(match side_moves.cmp(&other_moves) {
            std::cmp::Ordering::Greater => Some(Odds {
                side,
                more: side_moves,
                fewer: other_moves,
            }),
            std::cmp::Ordering::Less => Some(Odds {
                side: side.other(),
                more: other_moves,
                fewer: side_moves,
            }),
            std::cmp::Ordering::Equal if side_moves == 1 => None,
            std::cmp::Ordering::Equal => Some(Odds {
                side: Color::Green,
                more: side_moves,
                fewer: side_moves,
            }),
        })
    }

    /// The side given the odds: it makes the larger group (Green when the groups are equal).
    pub fn side(self) -> Color {
        self.side
    }

    /// Moves in a group of the side given the odds.
    pub fn more(self) -> u8 {
        self.more
    }

    /// Moves in a group of the other side's (at most [`Odds::more`]).
    pub fn fewer(self) -> u8 {
        self.fewer
    }

    /// Moves in a group of `color`'s.
    #[inline]
    pub fn group(self, color: Color) -> u8 {
        if color == self.side {
            self.more
        } else {
            self.fewer
        }
    }

    /// Reads an `Odds` tag value `SIDE A:B`, such as `red 3:2`: the named side makes A moves,
    /// then the other side B, and so on, each number 1–99 (decision 143). Written the other way
    /// round, `red 2:3` is `green 3:2`; equal groups give nobody odds, and `1:1` is the sides
    /// alternating (`None`, as is an empty value). A group of no moves, or anything else, is an
    /// error.
    pub fn parse(text: &str) -> Result<Option<Odds>, RulesError> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        let bad = || RulesError::BadOdds(t.to_string());
        let (side, rhythm) = t.split_once(char::is_whitespace).ok_or_else(bad)?;
        let side = match side.to_ascii_lowercase().as_str() {
            "green" => Color::Green,
            "red" => Color::Red,
            _ => return Err(bad()),
        };
        let (named, other) = rhythm.trim().split_once(':').ok_or_else(bad)?;
        let moves = |n: &str| {
            let n = n.trim();
            // Digits only: `+3` is no way to write a number of moves.
            (n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| n.parse::<u8>().ok())
                .flatten()
                .filter(|n| (1..=99).contains(n))
                .ok_or_else(bad)
        };
        Odds::new(side, moves(named)?, moves(other)?).map_err(|_| bad())
    }
}

/// The tag text, `red 3:2`.
impl fmt::Display for Odds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}:{}", self.side.name(), self.more, self.fewer)
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::of(Variant::Salta)
    }
}

/// Why a `Rules` text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// The rule set's name is none of `salta`, `winther`, `pyramid`.
    #[error("unknown rule set {}: expected salta, winther or pyramid", quote(.0))]
    UnknownVariant(String),
    /// A switch the rules do not have.
    #[error(
        "unknown switch {}: expected jumps, blockade, precedence, goal or compulsory",
        quote(.0)
    )]
    UnknownSwitch(String),
    /// A known switch with a value it cannot take.
    #[error("switch {name} cannot be {}: expected {expected}", quote(.value))]
    BadValue {
        /// The switch.
        name: String,
        /// The value written.
        value: String,
        /// The values the switch takes.
        expected: &'static str,
    },
    /// A MoveLimit value that is not a number of moves per side, Green's and Red's, or `-`.
    #[error(
        "bad move limit {}: expected a whole number of moves per side (1–10000), Green's and \
         Red's as 100/120, or -",
        quote(.0)
    )]
    BadMoveLimit(String),
    /// An Odds value that is not a side and a rhythm such as `red 3:2`.
    #[error(
        "bad odds {}: expected a side, its moves and the other side's moves (each 1–99), e.g. \
         \"red 3:2\" for Red making 3 moves for every 2 of Green's",
        quote(.0)
    )]
    BadOdds(String),
}

impl Rules {
    /// A variant with its default switches.
    pub const fn of(variant: Variant) -> Rules {
        Rules {
            variant,
            jumps: JumpDirection::Forward,
            blockade: true,
            precedence: Precedence::BlockadeFirst,
            goal: Goal::Shift,
            compulsory: !matches!(variant, Variant::Pyramid),
            move_limit: None,
            odds: None,
        }
    }

    /// Moves in a group of `color`'s: 1 unless odds are given.
    #[inline]
    pub fn group(&self, color: Color) -> u8 {
        self.odds.map_or(1, |odds| odds.group(color))
    }

    /// Whether the sides simply take turns: no odds, and no limit that stops one side before the
    /// other (the common case, which [`Position::play`](super::Position::play) keeps fast).
    #[inline]
    pub fn alternate(&self) -> bool {
        self.odds.is_none() && self.move_limit.is_none_or(|l| l.green == l.red)
    }

    /// The board the rules are played on.
    pub fn board(&self) -> BoardKind {
        self.variant.board()
    }
}

impl std::str::FromStr for Rules {
    type Err = RulesError;

    /// Reads a `Rules` tag value such as `salta; jumps=any; blockade=off`.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let mut parts = text
            .split([';', ','])
            .map(str::trim)
            .filter(|p| !p.is_empty());
        let name = parts.next().unwrap_or("salta").to_ascii_lowercase();
        let variant = match name.as_str() {
            "salta" => Variant::Salta,
            "winther" => Variant::Winther,
            "pyramid" => Variant::Pyramid,
            _ => return Err(RulesError::UnknownVariant(name)),
        };
        let mut rules = Rules::of(variant);
        for part in parts {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            rules.set(key.trim(), value.trim())?;
        }
        Ok(rules)
    }
}

impl Rules {
    /// Sets one switch by name, as written in a `Rules` tag or on the command line.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let key_l = key.to_ascii_lowercase();
        let value_l = value.to_ascii_lowercase();
        let bad = |expected| RulesError::BadValue {
            name: key_l.clone(),
            value: value.to_string(),
            expected,
        };
        match key_l.as_str() {
            "jumps" => {
                self.jumps = match value_l.as_str() {
                    "forward" => JumpDirection::Forward,
                    "any" => JumpDirection::Any,
                    _ => return Err(bad("forward or any")),
                }
            }
            "blockade" => self.blockade = on_off(&value_l).ok_or_else(|| bad("on or off"))?,
            "compulsory" => self.compulsory = on_off(&value_l).ok_or_else(|| bad("on or off"))?,
            "precedence" => {
                self.precedence = match value_l.as_str() {
                    "blockade-first" => Precedence::BlockadeFirst,
                    "jump-first" => Precedence::JumpFirst,
                    _ => return Err(bad("blockade-first or jump-first")),
                }
            }
            "goal" => {
                self.goal = match value_l.as_str() {
                    "shift" => Goal::Shift,
                    "rotation" => Goal::Rotation,
                    _ => return Err(bad("shift or rotation")),
                }
            }
            _ => return Err(RulesError::UnknownSwitch(key.to_string())),
        }
        Ok(())
    }
}

fn on_off(value: &str) -> Option<bool> {
    match value {
        "on" | "yes" | "true" => Some(true),
        "off" | "no" | "false" => Some(false),
        _ => None,
    }
}

/// The canonical `Rules` tag text: the variant, then each switch that differs from its default.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = Rules::of(self.variant);
        f.write_str(self.variant.name())?;
        if self.jumps != d.jumps {
            write!(
                f,
                "; jumps={}",
                if self.jumps == JumpDirection::Any {
                    "any"
                } else {
                    "forward"
                }
            )?;
        }
        if self.blockade != d.blockade {
            write!(f, "; blockade={}", if self.blockade { "on" } else { "off" })?;
        }
        if self.precedence != d.precedence {
            let p = match self.precedence {
                Precedence::BlockadeFirst => "blockade-first",
                Precedence::JumpFirst => "jump-first",
            };
            write!(f, "; precedence={p}")?;
        }
        if self.goal != d.goal {
            write!(
                f,
                "; goal={}",
                if self.goal == Goal::Rotation {
                    "rotation"
                } else {
                    "shift"
                }
            )?;
        }
        if self.compulsory != d.compulsory {
            write!(
                f,
                "; compulsory={}",
                if self.compulsory { "on" } else { "off" }
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn parses_and_writes_switches() {
        let r = Rules::from_str("salta; jumps=any; blockade=off").unwrap();
        assert_eq!(r.jumps, JumpDirection::Any);
        assert!(!r.blockade);
        assert_eq!(r.to_string(), "salta; jumps=any; blockade=off");
        assert_eq!(Rules::from_str(&r.to_string()).unwrap(), r);
        assert!(!Rules::from_str("Pyramid").unwrap().compulsory);
        assert!(Rules::from_str("chess").is_err());
        assert!(Rules::from_str("salta; jumps=sideways").is_err());
        assert!(Rules::from_str("salta; speed=fast").is_err());
    }

    #[test]
    fn reads_and_writes_move_limits_and_odds() {
        assert_eq!(
            MoveLimit::parse("120").unwrap(),
            Some(MoveLimit::both(120).unwrap())
        );
        let handicap = MoveLimit::parse(" 100 / 120 ").unwrap().unwrap();
        assert_eq!((handicap.green, handicap.red), (100, 120));
        assert_eq!(handicap.to_string(), "100/120");
        assert_eq!(MoveLimit::both(120).unwrap().to_string(), "120");
        assert_eq!(MoveLimit::parse("-").unwrap(), None);
        assert_eq!(MoveLimit::parse("").unwrap(), None);
        assert_eq!(MoveLimit::parse("   ").unwrap(), None);
        assert_eq!(
            MoveLimit::parse("120/120").unwrap(),
            Some(MoveLimit::both(120).unwrap())
        );
        for bad in [
            "x",
            "0",
            "0/5",
            "5/0",
            "100/",
            "/120",
            "100/120/140",
            "100-120",
            "10001",
            "99999999999",
            "+120",
            "-120",
            "12 0",
            "120 moves",
            "1.5",
        ] {
            assert!(MoveLimit::parse(bad).is_err(), "{bad}");
        }
        let odds = Odds::parse("Red 3:2").unwrap().unwrap();
        assert_eq!((odds.side, odds.more, odds.fewer), (Color::Red, 3, 2));
        assert_eq!((odds.group(Color::Red), odds.group(Color::Green)), (3, 2));
        assert_eq!(odds.to_string(), "red 3:2");
        assert_eq!(Odds::parse("").unwrap(), None);
        assert_eq!(Odds::parse("  ").unwrap(), None);
        // The named side's moves first, whichever is larger: `red 2:3` is `green 3:2`.
        assert_eq!(
            Odds::parse("red 2:3").unwrap(),
            Odds::parse("green 3:2").unwrap()
        );
        assert_eq!(
            Odds::parse(" green  5 : 4 ").unwrap().unwrap().to_string(),
            "green 5:4"
        );
        // Equal groups: nobody has odds; single moves are the sides alternating.
        assert_eq!(Odds::parse("red 1:1").unwrap(), None);
        let pairs = Odds::parse("red 2:2").unwrap().unwrap();
        assert_eq!((pairs.group(Color::Red), pairs.group(Color::Green)), (2, 2));
        assert_eq!(pairs, Odds::parse("green 2:2").unwrap().unwrap());
        for bad in [
            "red",
            "3:2",
            "blue 3:2",
            "red 3:0",
            "red 0:3",
            "red 0:0",
            "red 3-2",
            "red 3:2:1",
            "red 100:2",
            "red +3:2",
            "red -3:2",
            "red 3:",
            "red :2",
            "red3:2",
            "red 3.5:2",
        ] {
            assert!(Odds::parse(bad).is_err(), "{bad}");
        }
    }
}
