//! The token parsers (nom) and the text helpers the messages use.

use super::In;
use crate::diagnostic::quote;
use crate::notation::ast::*;
use crate::rules::PieceKind;
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while, take_while1};
use nom::combinator::{map, opt, value};
use nom::{IResult, Parser as _};

// Token parsers (nom).

pub(super) fn result_token(i: In) -> IResult<In, GameResult, ()> {
    alt((
        value(GameResult::GreenWins, tag("1-0")),
        value(GameResult::RedWins, tag("0-1")),
        value(GameResult::Draw, tag("1/2-1/2")),
        value(GameResult::Draw, tag("½-½")),
        value(GameResult::Unknown, tag("*")),
    ))
    .parse(i)
}

pub(super) fn suffix(i: In) -> IResult<In, &'static str, ()> {
    alt((
        value("!!", tag("!!")),
        value("??", tag("??")),
        value("!?", tag("!?")),
        value("?!", tag("?!")),
        value("!", tag("!")),
        value("?", tag("?")),
    ))
    .parse(i)
}

pub(super) fn designator_kind(i: In) -> IResult<In, PieceKind, ()> {
    alt((
        value(PieceKind::Star, tag_no_case("st")),
        value(PieceKind::Moon, tag_no_case("mo")),
        value(PieceKind::Sun, tag_no_case("su")),
        value(PieceKind::Sun, tag_no_case("so")),
        value(PieceKind::Star, tag("★")),
        value(PieceKind::Moon, tag("☾")),
        value(PieceKind::Sun, tag("☀")),
    ))
    .parse(i)
}

pub(super) fn salta_call(i: In) -> IResult<In, (), ()> {
    map((tag_no_case("salta"), opt(tag("!"))), |_| ()).parse(i)
}

/// The most characters of the input a message quotes.
pub(super) const QUOTED_CHARS: usize = 60;

/// Input text quoted for a message ([`quote`]), cut to [`QUOTED_CHARS`] characters with `…`.
pub(super) fn quoted(bytes: &[u8]) -> String {
    let text = text(bytes);
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => quote(&format!("{}…", &text[..cut])),
        None => quote(&text),
    }
}

pub(super) fn tag_name(i: In) -> IResult<In, In, ()> {
    take_while1(|b: u8| b.is_ascii_alphanumeric() || b == b'_').parse(i)
}

pub(super) fn spaces(i: In) -> IResult<In, In, ()> {
    take_while(|b| b == b' ' || b == b'\t').parse(i)
}

pub(super) fn text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}
