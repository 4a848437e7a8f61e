//! The movetext: lines of play, variations, move numbers, annotations, comments and results.

use super::Line;
use super::limits::MAX_VARIATION_DEPTH;
use super::log::Token;
use super::numbering::Numbering;
use super::recovery::{Resume, error};
use super::scan::{
    NumericMove, Word, decimal, digits_after_first, first_of, is_delimiter, is_space, move_number,
};
use super::specks::speck_bytes;
use super::tokens::{result_token, salta_call, suffix};
use super::{End, PResult, Parser, Stop};
use crate::diagnostic::Code;
use crate::notation::ast::*;
use crate::notation::garbled::misread_result;

/// Digits after a `$` that are moves run together, a 5 read as `$` (`$257023539`): more than
/// a NAG, `$0` to `$65535`, is ever written with (five; six with a nought in front).
const MOVES_AFTER_DOLLAR: usize = 7;

impl<'a> Parser<'a> {
    /// A line of play up to its end: `)` for a variation, a result, a tag section or the end for
    /// the main line. Its first move is ply `first_ply + 1` of the game; `open` is where its `(`
    /// is. An error in it says which move was being read.
    pub(super) fn variation(
        &mut self,
        depth: usize,
        open: Option<usize>,
        first_ply: u32,
    ) -> PResult<End> {
        let mut line = Line {
            depth,
            open,
            first_ply,
            ..Line::default()
        };
        match self.line_of_play(&mut line) {
            Ok(end) => Ok(end),
            Err(Stop::Error(mut e)) => {
                // The innermost line sets the place; the lines around it leave it.
                e.ply.get_or_insert((first_ply + line.moves + 1, depth > 0));
                Err(Stop::Error(e))
            }
            Err(more) => Err(more),
        }
    }

    /// The tokens of a line, one function per kind, to the line's end.
    pub(super) fn line_of_play(&mut self, line: &mut Line) -> PResult<End> {
        loop {
            self.skip_ws();
            let start = self.pos;
            let Some(b) = self.peek() else {
                return self.end_of_input(line, start);
            };
            // The commonest tokens, moves between two-digit squares and move numbers, first.
            if b.is_ascii_digit() && self.numbers_and_moves(line, start)? {
                continue;
            }
            let end = match b {
                b'{' if self.stray_brace(line, start, b'}')? => {
                    self.speck(start, start + 1, "a speck, no comment is closed after it");
                    self.pos += 1;
                    None
                }
                b';' if self.glued_semicolon(start) => {
                    self.speck(start, start + 1, "a speck, no comment: moves follow it");
                    self.pos += 1;
                    None
                }
                b'{' | b';' => {
                    let c = self.comment()?;
                    self.log.tokens.push(c);
                    None
                }
                b'(' if self.stray_brace(line, start, b')')? => {
                    self.speck(start, start + 1, "a speck, no variation is closed after it");
                    self.pos += 1;
                    None
                }
                b'(' if line.depth == 0 && line.moves == 0 && self.speck_before_moves(start) => {
                    self.speck(
                        start,
                        start + 1,
                        "a speck, no move before it for a variation to replace",
                    );
                    self.pos += 1;
                    None
                }
                b'(' => {
                    self.nested_variation(line, start)?;
                    None
                }
                b')' if self.glued_paren(line, start) => {
                    self.speck(start, start + 1, "a speck, no variation is open");
                    self.pos += 1;
                    None
                }
                b')' => Some(self.close_variation(line, start)?),
                b'[' if line.moves > 0 && !self.starts_tag(start)? => {
                    self.speck(start, start + 1, "a speck, no tag");
                    self.pos += 1;
                    None
                }
                b'[' => Some(self.next_tags(line, start)?),
                b'!' | b'?' => {
                    self.suffix_annotation(line, start)?;
                    None
                }
                b'$' => {
                    self.nag(line, start)?;
                    None
                }
                _ => self.result_call_or_move(line, start, b)?,
            };
            if let Some(end) = end {
                return Ok(end);
            }
        }
    }

    /// The input ends in the line: more is needed, or the main line ends.
    pub(super) fn end_of_input(&mut self, line: &mut Line, at: usize) -> PResult<End> {
        if !self.eof {
            return Err(Stop::NeedMore);
        }
        if let Some(open) = line.open {
            return Err(self.unclosed_variation(open, at));
        }
        self.warn_dangling(line.number.take());
        Ok(End::Eof)
    }

    /// At a digit: a run of plain moves and move numbers, or a move number the run leaves (one
    /// of more than nine digits, or following a move number). Whether anything was read: if not,
    /// the digit starts a result or another kind of move. (A number followed by dots is never a
    /// result: those are 1-0, 0-1 and 1/2-1/2.)
    pub(super) fn numbers_and_moves(&mut self, line: &mut Line, start: usize) -> PResult<bool> {
        if self.plain_run(line) {
            return Ok(true);
        }
        let mut end = start + 1;
        while self.src.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        let mut dots_end = end;
        while self.src.get(dots_end) == Some(&b'.') {
            dots_end += 1;
        }
        let (digits, dots) = (end - start, dots_end - end);
        if dots == 0
            || self.squares_on_a_dot(digits, dots, dots_end)
            || self.move_on_a_dot(line, start, digits, dots_end)
        {
            return Ok(false);
        }
        let span = Span::new(start, start + digits + dots);
        let Some(n) = decimal(&self.src[start..start + digits]) else {
            let e = error(
                Code::BadMoveNumber,
                "move number too large",
                Span::new(start, start + digits),
                "this number",
            )
            .help("move numbers run from 1 to 4294967295");
            return Err(Stop::Error(e));
        };
        self.warn_dangling(line.number.replace(MoveNumber {
            number: n,
            ellipsis: dots >= 2,
            span,
        }));
        self.pos = span.end as usize;
        Ok(true)
    }

    /// Whether the number of `digits` digits and `dots` dots that ends at `end` is the first
    /// square of a move with a dot for its separator (`33.43`), not a move number.
    pub(super) fn squares_on_a_dot(&self, digits: usize, dots: usize, end: usize) -> bool {
        let after = self.src[end..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        dots == 1
            && (2..=3).contains(&digits)
            && (2..=3).contains(&after)
            && self.src.get(end + after).is_none_or(|&b| is_delimiter(b))
    }

    /// Whether the `digits` digits at `start`, dots after them to `end`, are a move's (or
    /// moves') with the separator lost (`8272.`, `3526354.`: OCR), not a move number: four or
    /// more of them, the first two or three a square's number (`7777.` is none), no result
    /// glued after the dots (`4242.10` is the last move and the result, decision 181), after a
    /// move (a line may start at any number), and not a number the count expects (decision
    /// 190).
    fn move_on_a_dot(&self, line: &Line, start: usize, digits: usize, end: usize) -> bool {
        let square_first = || {
            [2, 3].into_iter().any(|len| {
                decimal(&self.src[start..start + len])
                    .is_some_and(|n| self.geometry.from_number(n).is_some())
            })
        };
        digits >= 4
            && square_first()
            && line.moves > 0
            && !self.result_glued_at(end)
            && decimal(&self.src[start..start + digits]).is_none_or(|n| {
                // The last number written, once more (Red's `12...`), or the next.
                let [by_count, next] = self.expected_numbers(line.next_number());
                n != by_count && n != next && n.checked_add(1) != Some(next)
            })
    }

    /// Whether the word at `end` (to a blank) is a result, as written or misread (`10`, `O-1`).
    fn result_glued_at(&self, end: usize) -> bool {
        let rest = self.src.get(end..).unwrap_or_default();
        let word = &rest[..rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len())];
        result_token(word).is_ok_and(|(left, _)| left.is_empty())
            || std::str::from_utf8(word).is_ok_and(|w| misread_result(w).is_some())
    }

    /// `(`: a variation replacing the line's last move, read to its `)`.
    pub(super) fn nested_variation(&mut self, line: &mut Line, start: usize) -> PResult<()> {
        let max_depth = self.limits.variation_depth.min(MAX_VARIATION_DEPTH);
        if line.depth + 1 > max_depth {
            let e = error(
                Code::TooDeep,
                "variations nested too deeply",
                Span::new(start, start + 1),
                "too deep",
            )
            .help(format!("variations may be nested at most {max_depth} deep"));
            return Err(Stop::Error(e));
        }
        if line.moves == 0 {
            return Err(self.misplaced(
                start,
                1,
                "variation before any move",
                "a variation follows the move it replaces: 12. 33-43 (12. 34-44)",
            ));
        }
        self.pos += 1;
        self.log
            .tokens
            .push(Token::BeginVariation(Span::new(start, start + 1)));
        let replaced = line.first_ply + line.moves - 1;
        self.variation(line.depth + 1, Some(start), replaced)?;
        self.log.tokens.push(Token::EndVariation);
        Ok(())
    }

    /// `)`: the end of the variation, or an error in the main line.
    pub(super) fn close_variation(&mut self, line: &mut Line, start: usize) -> PResult<End> {
        if line.open.is_some() {
            self.pos += 1;
            self.warn_dangling(line.number.take());
            return Ok(End::Close);
        }
        let e = error(
            Code::UnmatchedParen,
            "unmatched )",
            Span::new(start, start + 1),
            "no variation is open here",
        )
        .help("remove it, or open the variation with ( right after the move it replaces");
        Err(Stop::Error(e))
    }

    /// `[`: the next game's tags end the main line; a variation left open is an error.
    pub(super) fn next_tags(&mut self, line: &mut Line, start: usize) -> PResult<End> {
        if let Some(open) = line.open {
            let mut e = self.unclosed_variation_error(open, start);
            e.resume = Resume::At(start);
            return Err(Stop::Error(e));
        }
        self.warn_dangling(line.number.take());
        Ok(End::Tags)
    }

    /// `!`, `?`, `!!`, `??`, `!?` or `?!` after a move.
    pub(super) fn suffix_annotation(&mut self, line: &Line, start: usize) -> PResult<()> {
        let (rest, s) = suffix(self.rest()).map_err(|_| self.unexpected(start, "an annotation"))?;
        if line.moves == 0 {
            return Err(self.misplaced(
                start,
                s.len(),
                "annotation before any move",
                "an annotation follows its move: 33-43!",
            ));
        }
        self.log
            .tokens
            .push(Token::Suffix(s, Span::new(start, start + s.len())));
        self.advance_to(rest);
        Ok(())
    }

    /// `$n` after a move.
    pub(super) fn nag(&mut self, line: &mut Line, start: usize) -> PResult<()> {
        let digits = digits_after_first(self.rest());
        let span = Span::new(start, start + 1 + digits);
        let bad = || {
            error(
                Code::BadNag,
                "bad NAG",
                span,
                "expected a number 0–65535 after $",
            )
            .help("a NAG is written $1, $2, …")
        };
        // `$5.`, `$.`, `$3-42`, `$i-2E`, `$)-41`: a 5 read as `$` (OCR), not a NAG, which a
        // delimiter ends (decision 79); nor a `$` and two digits or more before the main line's
        // first move, where no NAG can stand (`1, $54 BFF2`, decision 227: `$1` there is a
        // writer's NAG put before its move, and an error).
        let after = self.src.get(span.end as usize).copied();
        if after.is_some_and(|b| !is_delimiter(b) || digits == 0 && !is_space(b))
            || self.dollar_for_five(line, start + 1, digits)
            || line.depth == 0 && line.moves == 0 && digits >= 2
        {
            return self.unreadable(line, start, Stop::Error(bad()));
        }
        let nag = std::str::from_utf8(&self.src[start + 1..span.end as usize])
            .ok()
            .and_then(|d| d.parse::<u16>().ok());
        let Some(nag) = nag else {
            return Err(Stop::Error(bad()));
        };
        if line.moves == 0 {
            return Err(self.misplaced(
                start,
                span.len(),
                "NAG before any move",
                "a NAG follows its move: 33-43 $1",
            ));
        }
        self.log.tokens.push(Token::Nag(nag, span));
        self.pos = span.end as usize;
        Ok(())
    }

    /// Whether the `digits` digits at `at`, after a `$` a delimiter ends, are a move with its 5
    /// read as `$` and its separator lost (`17. $261`, `75-85 $4044`), not a NAG: three or four
    /// of them, where a move number waits for its move (a NAG follows a move) or they are past
    /// PGN's NAGs, `$0` to `$255` (decision 187); or seven digits or more, moves run together
    /// (`$257023539`), longer than any NAG is written.
    fn dollar_for_five(&self, line: &Line, at: usize, digits: usize) -> bool {
        (3..=4).contains(&digits)
            && (line.number.is_some()
                || decimal(&self.src[at..at + digits]).is_some_and(|v| v > 255))
            || digits >= MOVES_AFTER_DOLLAR
    }

    /// Any other token (`b` is its first byte): a result, which ends the main line, a `Salta!`
    /// call or a move.
    pub(super) fn result_call_or_move(
        &mut self,
        line: &mut Line,
        start: usize,
        b: u8,
    ) -> PResult<Option<End>> {
        if let Some(end) = self.result(line, start, b)? {
            return Ok(Some(end));
        }
        // A result token the game goes on after, skipped as a speck.
        if self.pos > start {
            return Ok(None);
        }
        if let Some(rest) = self.salta_call_here(b) {
            let span = Span::new(start, self.src.len() - rest.len());
            if line.moves == 0 || line.salta {
                return Err(self.misplaced(
                    start,
                    span.len(),
                    "Salta! call without a move to correct",
                    "Salta! follows the move that missed a jump, once",
                ));
            }
            line.salta = true;
            self.log.tokens.push(Token::Salta(span));
            self.pos = span.end as usize;
            return Ok(None);
        }
        match self.played() {
            Ok(played) if self.delimited_here() => {
                line.push(self.log, played, Span::new(start, self.pos));
                Ok(None)
            }
            Ok(_) => {
                let e = self.unexpected(start, "a move such as 33-43, 45:64, e3-f4 or Su3-44");
                self.unreadable(line, start, e).map(|()| None)
            }
            Err(e @ Stop::Error(_)) => self.unreadable(line, start, e).map(|()| None),
            Err(more) => Err(more),
        }
    }

    /// A result token here (`b` is its first byte), with the comments after it on its line: the
    /// end of the main line, or an error in a variation.
    pub(super) fn result(&mut self, line: &mut Line, start: usize, b: u8) -> PResult<Option<End>> {
        // Only these bytes can start a result token; '1-0' and '0-1' are never moves.
        let next = self.src.get(start + 1).copied();
        let could_be_result = match b {
            b'1' => matches!(next, Some(b'-' | b'/')),
            b'0' => next == Some(b'-'),
            b'*' | 0xc2 => true,
            _ => false,
        };
        let Some((result, rest, after)) = could_be_result.then(|| self.result_here()).flatten()
        else {
            return Ok(None);
        };
        let span = Span::new(start, self.src.len() - rest.len());
        let specks_end = self.src.len() - after.len();
        if self.game_goes_on(line, specks_end)? {
            self.speck(
                start,
                specks_end,
                "a result token with the game going on after it",
            );
            self.pos = specks_end;
            return Ok(None);
        }
        if line.open.is_some() {
            let mut e = error(
                Code::ResultInVariation,
                "result inside a variation",
                span,
                "the game ends here",
            )
            .help("close the variation with ) before the result");
            e.resume = Resume::At(self.line_end(span.end as usize).min(self.src.len()));
            return Err(Stop::Error(e));
        }
        if specks_end > span.end as usize {
            self.speck(span.end as usize, specks_end, "a speck after the result");
        }
        self.pos = specks_end;
        self.warn_dangling(line.number.take());
        self.trailing_comments()?;
        Ok(Some(End::Result(result, span)))
    }

    /// Reads a run of the commonest movetext, move numbers and numeric moves separated by blanks,
    /// in one tight loop, and stops before anything else (left to the general loop, which reads
    /// these tokens the same way). Whether it read anything.
    /// Kept out of line: alone, its loop keeps its state in registers.
    #[inline(never)]
    pub(super) fn plain_run(&mut self, line: &mut Line) -> bool {
        let (src, numbering) = (self.src, self.numbering);
        // Taken out of the log for the loop: a local vector's length stays in a register.
        let mut taken = std::mem::take(&mut self.log.tokens);
        let tokens = &mut taken;
        let first = self.pos;
        let mut pos = first;
        // The line's state, in locals for the loop and written back after it. A move number read
        // is logged at once, and taken back if no move follows it in the run.
        let mut numbered = match line.number.take() {
            Some(number) => {
                tokens.push(Token::Number(number));
                true
            }
            None => false,
        };
        let before = tokens.len();
        let mut numbers = 0;
        loop {
            // The commonest tokens, read from eight bytes at once.
            if let Some(word) = Word::at(src, pos) {
                // A move number when none is waiting for its move (that case warns). Tried first:
                // the pair of moves read below leaves the loop at the next move number.
                if !numbered && let Some((number, next)) = word.move_number(pos) {
                    // Its move is read at once, in the commonest case, into one token, and so is
                    // the move after it.
                    if let Some((first, second, after)) = NumericMove::pair(src, next, numbering) {
                        tokens.extend_from_slice(&[
                            Token::Numbered(number, first),
                            Token::Numeric(second),
                        ]);
                        pos = after;
                        continue;
                    }
                    if let Some(word) = Word::at(src, next)
                        && let Some((numeric, after)) = NumericMove::plain(word, next, numbering)
                            .or_else(|| NumericMove::within(word, next, numbering))
                    {
                        tokens.push(Token::Numbered(number, numeric));
                        pos = after;
                        continue;
                    }
                    tokens.push(Token::Number(number));
                    numbered = true;
                    numbers += 1;
                    pos = next;
                    continue;
                }
                if let Some((plain, next)) = NumericMove::plain(word, pos, numbering) {
                    tokens.push(Token::Numeric(plain));
                    numbered = false;
                    pos = next;
                    continue;
                }
                if let Some((numeric, end)) = NumericMove::within(word, pos, numbering) {
                    tokens.push(Token::Numeric(numeric));
                    numbered = false;
                    pos = end;
                    continue;
                }
            }
            // Blanks other than the one after a token are rare enough to be looked for last.
            if let Some(&b) = src.get(pos)
                && is_space(b)
            {
                pos += 1;
                continue;
            }
            let Some((token, end)) = other_numeric(src, pos, numbered, numbering) else {
                break;
            };
            numbered = matches!(token, Token::Number(_));
            numbers += u32::from(numbered);
            tokens.push(token);
            pos = end;
        }
        // Counted once here rather than in the loop, where every register counts.
        let moves = (tokens.len() - before) as u32 - numbers;
        line.moves += moves;
        if moves > 0 {
            line.salta = false;
        }
        if numbered && let Some(Token::Number(number)) = tokens.pop() {
            line.number = Some(number);
        }
        self.log.tokens = taken;
        self.pos = pos;
        pos > first
    }

    /// A `Salta!` call here (`b` is the byte here): what follows it.
    pub(super) fn salta_call_here(&self, b: u8) -> Option<&'a [u8]> {
        if !matches!(b, b's' | b'S') {
            return None;
        }
        let (rest, ()) = salta_call(self.rest()).ok()?;
        rest.first()
            .is_none_or(|&b| is_delimiter(b) && b != b'!' && b != b'?')
            .then_some(rest)
    }

    /// A result token here, followed by a delimiter, or by the specks and dots OCR leaves after
    /// it (`1-0.`, `*:`): the result, what follows the token and what follows the specks.
    pub(super) fn result_here(&self) -> Option<(GameResult, &'a [u8], &'a [u8])> {
        let (rest, r) = result_token(self.rest()).ok()?;
        let after = &rest[speck_bytes(rest)..];
        after
            .first()
            .is_none_or(|&b| is_delimiter(b))
            .then_some((r, rest, after))
    }

    /// Comments on the rest of the result's line belong to this game.
    pub(super) fn trailing_comments(&mut self) -> PResult<()> {
        loop {
            while let Some(b' ' | b'\t' | b'\r') = self.peek() {
                self.pos += 1;
            }
            match self.peek() {
                Some(b'\n') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'{' | b';') => {
                    let c = self.comment()?;
                    self.log.tokens.push(c);
                }
                _ if self.specks_after_result() => {}
                _ => return Ok(()),
            }
        }
    }

    pub(super) fn warn_dangling(&mut self, number: Option<MoveNumber>) {
        if let Some(n) = number {
            self.log.warnings.push(Warning {
                code: Code::DanglingMoveNumber,
                message: format!("move number {} without a move", n.number),
                span: n.span,
            });
        }
    }

    /// `{…}` or `;…` to the end of the line: a [`Token::Comment`].
    pub(super) fn comment(&mut self) -> PResult<Token> {
        let start = self.pos;
        let too_long = |end: usize, limit: usize| {
            Stop::Error(
                error(
                    Code::CommentTooLong,
                    "comment too long",
                    Span::new(start, start + 1),
                    "this comment",
                )
                .help(format!(
                    "a comment may hold at most {limit} bytes; split it"
                ))
                .with_resume(end),
            )
        };
        if self.peek() == Some(b';') {
            let end = self.line_end(start);
            if end - start > self.limits.comment_bytes {
                return Err(too_long(end, self.limits.comment_bytes));
            }
            self.pos = end;
            return Ok(Token::Comment {
                span: Span::new(start, end),
                text: self.trimmed(start + 1, end),
            });
        }
        let mut i = start + 1;
        loop {
            if i - start > self.limits.comment_bytes {
                return Err(too_long(i, self.limits.comment_bytes));
            }
            let found = first_of(self.src.get(i..).unwrap_or_default(), b'}', b'\n');
            let Some(found) = found else {
                if !self.eof {
                    return Err(Stop::NeedMore);
                }
                return Err(self.unclosed_comment(start, Resume::At(self.src.len())));
            };
            i += found;
            if self.src[i] == b'}' {
                break;
            }
            i += 1;
            if self.tag_line_at(i) {
                return Err(self.unclosed_comment(start, Resume::At(i)));
            }
        }
        if i - start > self.limits.comment_bytes {
            return Err(too_long(i, self.limits.comment_bytes));
        }
        self.pos = i + 1;
        Ok(Token::Comment {
            span: Span::new(start, i + 1),
            text: self.trimmed(start + 1, i),
        })
    }

    /// The span of `from..to` without the ASCII whitespace at its ends.
    pub(super) fn trimmed(&self, from: usize, to: usize) -> Span {
        let bytes = &self.src[from..to];
        let lead = bytes.len() - bytes.trim_ascii_start().len();
        let trail = bytes.len() - bytes.trim_ascii_end().len();
        Span::new(from + lead, (to - trail).max(from + lead))
    }
}

/// The tokens of a run of plain movetext that [`Parser::plain_run`] does not read from a [`Word`]:
/// a move number (unless `numbered`: one is waiting for its move) or a move between numeric
/// squares at `pos` in `src`, and where it ends.
#[inline(never)]
fn other_numeric(
    src: &[u8],
    pos: usize,
    numbered: bool,
    numbering: &Numbering,
) -> Option<(Token, usize)> {
    let rest = src.get(pos..)?;
    if !numbered && let Some((n, digits, len)) = move_number(rest) {
        // Four digits or more may be a move with its separator lost (decision 190): the general
        // loop, which knows the numbers the count expects, tells.
        if digits >= 4 {
            return None;
        }
        let number = MoveNumber {
            number: n,
            ellipsis: len - digits >= 2,
            span: Span::new(pos, pos + len),
        };
        return Some((Token::Number(number), pos + len));
    }
    let (numeric, end) = NumericMove::within(Word::padded(rest), pos, numbering)?;
    Some((Token::Numeric(numeric), end))
}
