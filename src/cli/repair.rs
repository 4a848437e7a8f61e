//! `salta repair`: every game written out, the broken ones with their most plausible repair.

use super::{CliError, input_files, write_output};
use salta::diagnostic::Code;
use salta::export::structured::settled;
use salta::extract::{AsRead, TextPart};
use salta::notation::{
    GameSource, Notation, Span, SyntaxError, Tag, WriteOptions, input_name, read_path, write_game,
};
use salta::render::render;
use salta::repair::{
    DEFAULT_MAX_EDITS, EditKind, MAX_EDITS, Mended, READ_WHOLE, Suggestion, mend, read_past,
};
use salta::replay::{ReplayOptions, Severity, replay_part};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// Files and folders to read (folders are searched for *.sgn recursively); never written.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Write the games to this file (through a temporary file and a rename) instead of standard
    /// output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Write repaired games in this notation (default: the notation the record uses).
    #[arg(long, value_parser = ["numeric", "algebraic", "piece"])]
    to: Option<String>,
    /// Edits a game may need at most to count as repaired (a game that needs more is told how
    /// many).
    #[arg(long, default_value_t = DEFAULT_MAX_EDITS as u16, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_EDITS as i64))]
    max_edits: u16,
    /// The report on standard error: `human` (a line per edit) or `json` (one object per game
    /// repaired or left unrepaired).
    #[arg(long, default_value = "human", value_parser = ["human", "json"])]
    format: String,
    /// Historical mode: an uncalled missed jump is a warning and the move stands.
    #[arg(long)]
    lenient: bool,
    // Whether the Margin tag may decide between readings that replay alike (their margins are
    // counted when the record has one, unless `never`).
    #[command(flatten)]
    margins: super::MarginsArgs,
    #[command(flatten)]
    budget: super::BudgetArgs,
}

/// One edit as the report lists it.
#[derive(serde::Serialize)]
struct EditReport<'a> {
    line: u32,
    column: u32,
    was: &'a str,
    #[serde(flatten)]
    suggestion: &'a Suggestion,
    /// The readings that fare exactly as well (none for a rival itself): the source decides.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    equally_good: Vec<EditReport<'a>>,
}

impl<'a> EditReport<'a> {
    fn new(
        suggestion: &'a Suggestion,
        (line, column): (u32, u32),
        equally_good: Vec<EditReport<'a>>,
    ) -> EditReport<'a> {
        EditReport {
            line,
            column,
            was: suggestion.was(),
            suggestion,
            equally_good,
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let files = input_files(&args.paths)?;
    let notation = match args.to.as_deref() {
        Some("algebraic") => Some(Notation::Algebraic),
        Some("piece") => Some(Notation::Piece),
        Some(_) => Some(Notation::Numeric),
        None => None,
    };
    let opts = ReplayOptions::default()
        .lenient(args.lenient)
        .margins(args.margins.policy())
        .budget(args.budget.budget()?);
    let json = args.format == "json";
    let (mut repaired, mut unrepaired, mut games) = (0usize, 0usize, 0usize);
    let stderr = std::io::stderr();
    let mut report = std::io::BufWriter::new(stderr.lock());
    write_output(args.output.as_deref(), &files, |out| {
        // Games that need nothing, or cannot be read or repaired, are written exactly as read.
        let mut written = AsRead::new();
        for file in &files {
            let name: Arc<str> = input_name(file).into();
            let mut reader = read_path(file)?.with_name(&*name);
            let mut game_no = 0;
            while let Some(item) = reader.next() {
                game_no += 1;
                // Text that is no game (after the last game, or between games) is no game to
                // repair: written through as it stands, said once, not counted.
                if let Err(e) = &item
                    && e.code == Code::StrayText
                {
                    let message = format!("text that is no game, kept as written: {}", e.message);
                    match json {
                        true => say(
                            &mut report,
                            json,
                            &name,
                            game_no,
                            "kept",
                            &message,
                            &[],
                            &[],
                            false,
                        )?,
                        false => {
                            let (line, column) = e.location();
                            writeln!(report, "{name}:{line}:{column}: {message}")?;
                        }
                    }
                    written.game(out, &reader.raw())?;
                    continue;
                }
                games += 1;
                // A game the reader stopped in is read again with the tokens that stopped it
                // left out (a misread move number, a speck), and mended as any other; if it is
                // not mended, it is written as read.
                let (item, strays) = match item {
                    Err(e) => match read_past(&e) {
                        Some((game, strays)) => (Ok(game), strays),
                        None => (Err(e), Vec::new()),
                    },
                    Ok(game) => (Ok(game), Vec::new()),
                };
                let text = match item {
                    Err(e) => {
                        unrepaired += 1;
                        let message = unreadable(&e, &name, game_no, &opts);
                        say(
                            &mut report,
                            json,
                            &name,
                            game_no,
                            "unreadable",
                            &message,
                            &[],
                            &[],
                            false,
                        )?;
                        // Too large to read: streamed through as read, never held.
                        if e.code == Code::GameTooLarge {
                            let mut part = TextPart::First;
                            reader.pass_oversized(&mut |bytes| {
                                let at = std::mem::replace(&mut part, TextPart::Middle);
                                written.part(out, bytes, at)
                            })?;
                            written.part(out, b"", TextPart::Last)?;
                            continue;
                        }
                        None
                    }
                    Ok(game) => {
                        let mended = mend(&game, &opts, args.max_edits.into());
                        let read = read_through(&game, numbers_read(&game, &mended));
                        match (mended, read) {
                            (Mended::Sound, (false, _)) if strays.is_empty() => None,
                            (Mended::Unrepairable(unmended), _) => {
                                unrepaired += 1;
                                let finding = &unmended.first;
                                let source = GameSource::of_game(&name, game_no, &game);
                                let (line, column) = finding
                                    .span
                                    .map_or((game.line, 1), |s| source.location(s.range().start));
                                let message = format!(
                                    "{line}:{column}: {} ({}): {}",
                                    finding.message,
                                    finding.code,
                                    unmended.reason(args.max_edits.into())
                                );
                                say(
                                    &mut report,
                                    json,
                                    &name,
                                    game_no,
                                    "unrepaired",
                                    &message,
                                    &[],
                                    &[],
                                    false,
                                )?;
                                None
                            }
                            // Repaired, or sound but with stray tokens read past (named in a tag).
                            (mended, (_, misread)) => {
                                let (fixed, breaks) = match mended {
                                    Mended::Repaired(fixed, breaks) => (fixed, breaks),
                                    _ => (game.clone(), Vec::new()),
                                };
                                let (mut fixed, separators) = settled(fixed, &opts);
                                repaired += 1;
                                let source = GameSource::of_game(&name, game_no, &game);
                                let place =
                                    |s: &'_ Suggestion| source.location(s.span().range().start);
                                let placed: Vec<EditReport> = breaks
                                    .iter()
                                    .filter_map(|b| {
                                        let best = b.suggestions.first()?;
                                        let rivals = b
                                            .rivals()
                                            .map(|r| EditReport::new(r, place(r), Vec::new()))
                                            .collect();
                                        Some(EditReport::new(best, place(best), rivals))
                                    })
                                    .collect();
                                let left = left_out(&source, &strays);
                                // The game is written as read, clean: what the reader read past is
                                // said after the edits.
                                let message = written_as_read(&misread, separators);
                                say(
                                    &mut report,
                                    json,
                                    &name,
                                    game_no,
                                    "repaired",
                                    &message,
                                    &placed,
                                    &left,
                                    breaks.iter().any(|b| b.read_whole),
                                )?;
                                if !left.is_empty() {
                                    let tag = fixed.tags.iter().position(|t| t.name == "Repairs");
                                    let tag = stray_tag(&left, tag.map(|k| fixed.tags.remove(k)));
                                    fixed.tags.push(tag);
                                }
                                let notation = notation.unwrap_or(game.notation());
                                Some(write_game(
                                    &fixed,
                                    &WriteOptions::default()
                                        .notation(notation)
                                        .numbered_as(&fixed),
                                ))
                            }
                        }
                    }
                };
                match text {
                    Some(text) => written.game(out, text.as_bytes())?,
                    None => written.game(out, &reader.raw())?,
                }
            }
        }
        Ok(())
    })?;
    let summary = format!(
        "{} files, {games} games: {repaired} repaired, {unrepaired} not repairable, {} needed nothing",
        files.len(),
        games - repaired - unrepaired
    );
    let written = if json {
        writeln!(
            report,
            "{}",
            serde_json::json!({"summary": {"files": files.len(), "games": games, "repaired": repaired, "unrepaired": unrepaired}})
        )
    } else {
        writeln!(report, "{summary}")
    };
    written
        .and_then(|_| report.flush())
        .map_err(|e| CliError::new(format!("cannot write the report: {e}")))?;
    Ok(if repaired + unrepaired > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Text the reader could not read and that was left out, where it stood in the file.
#[derive(serde::Serialize)]
struct LeftOut {
    line: u32,
    column: u32,
    text: String,
}

fn left_out(source: &GameSource, strays: &[(Span, String)]) -> Vec<LeftOut> {
    strays
        .iter()
        .map(|(span, text)| {
            let (line, column) = source.location(span.range().start);
            LeftOut {
                line,
                column,
                text: text.clone(),
            }
        })
        .collect()
}

/// How many of the move numbers without a move in `game` `mended` read a move from (a move
/// taken for a move number, `4132.`): those are not left out. The words carry no place, so a
/// number is matched by its text.
fn numbers_read(game: &salta::notation::Game, mended: &Mended) -> usize {
    let Mended::Repaired(_, breaks) = mended else {
        return 0;
    };
    let words: Vec<&str> = breaks
        .iter()
        .filter_map(|b| b.suggestions.first()?.read_from_left_out())
        .collect();
    game.warnings
        .iter()
        .filter(|w| w.code == Code::DanglingMoveNumber)
        .filter(|w| {
            let number = game.text.get(w.span.range()).unwrap_or_default();
            // The word read may be the number and what is glued to it (`3342.92.`).
            !number.is_empty() && words.iter().any(|word| word.contains(number))
        })
        .count()
}

/// What the reader read past in a game, if anything: in words, and whether a sound game is
/// written anew for it. A game is written as read, clean, not as written (`35-4494.` is `35-44
/// 94.`), so the report says what the record written leaves out. Move numbers misread or glued
/// to a move, specks and the result misread are OCR's, and a sound game is written clean for
/// them; a move number with no move after it may mark a move the source left out or could not
/// be read, so a sound game keeps it as written, and only a game written anew says it is gone.
fn read_through(game: &salta::notation::Game, numbers_read: usize) -> (bool, Vec<String>) {
    let warned = |code: Code| game.warnings.iter().filter(|w| w.code == code).count();
    let kinds = [
        (
            warned(Code::MisreadMoveNumber),
            "move number misread or glued",
            "move numbers misread or glued",
            true,
        ),
        (
            warned(Code::Speck),
            "speck left out",
            "specks left out",
            true,
        ),
        (
            warned(Code::MisreadResult),
            "result misread",
            "results misread",
            true,
        ),
        (
            warned(Code::DanglingMoveNumber).saturating_sub(numbers_read),
            "move number without a move left out",
            "move numbers without a move left out",
            false,
        ),
    ];
    let found = kinds.iter().filter(|&&(n, ..)| n > 0);
    let rewrites = found.clone().any(|&(.., rewrites)| rewrites);
    let said = found
        .map(|&(n, one, many, _)| count(n, (one, many)))
        .collect();
    (rewrites, said)
}

/// `n` things, in words: `(one, many)` name them.
fn count(n: usize, (one, many): (&str, &str)) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What the game written anew leaves out of what the reader read past (`said`), and how many
/// moves written with the other kind's separator it writes with their own, in words (empty:
/// nothing).
fn written_as_read(said: &[String], separators: usize) -> String {
    let read = (!said.is_empty()).then(|| {
        format!(
            "written as read: {} (salta check shows where)",
            said.join(", ")
        )
    });
    let separators = (separators > 0).then(|| {
        let moves = count(separators, ("move", "moves"));
        let their = if separators == 1 { "its" } else { "their" };
        format!("{moves} written with {their} own separator (`-` a step, `:` a jump)")
    });
    [read, separators]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ")
}

/// The `Repairs` tag with the text left out named first.
fn stray_tag(left: &[LeftOut], repairs: Option<Tag>) -> Tag {
    let mut value = left
        .iter()
        .map(|l| format!("line {}: {} left out (not readable)", l.line, l.text))
        .collect::<Vec<_>>()
        .join("; ");
    if let Some(repairs) = repairs {
        value.push_str("; ");
        value.push_str(&repairs.value);
    }
    Tag {
        name: "Repairs".into(),
        value,
        span: Span::default(),
    }
}

/// What `repair` says of a game the reader could not read: the error, and what is wrong in the
/// part read before it, which the reader could not read past.
fn unreadable(e: &SyntaxError, name: &Arc<str>, game_no: usize, opts: &ReplayOptions) -> String {
    let mut message = render(e, false);
    if let Some(part) = e.before.as_deref() {
        let source = GameSource::of_game(name, game_no, part);
        let replayed = replay_part(part, opts);
        for f in (replayed.findings().iter()).filter(|f| f.severity == Severity::Error) {
            let (line, column) = f
                .span
                .map_or((part.line, 1), |s| source.location(s.range().start));
            message.push_str(&format!(
                "before it, {line}:{column}: {} ({})\n",
                f.message, f.code
            ));
        }
    }
    message
}

/// One game's line(s) in the report.
#[allow(clippy::too_many_arguments)]
fn say(
    out: &mut impl Write,
    json: bool,
    file: &str,
    game: usize,
    status: &str,
    message: &str,
    edits: &[EditReport],
    left: &[LeftOut],
    read_whole: bool,
) -> std::io::Result<()> {
    if json {
        let mut value = serde_json::json!({
            "file": file, "game": game, "status": status,
            "message": (!message.is_empty()).then_some(message), "edits": edits,
        });
        if !left.is_empty() {
            value["left_out"] = serde_json::json!(left);
        }
        if read_whole {
            value["read_whole"] = serde_json::json!(true);
        }
        return writeln!(out, "{value}");
    }
    for l in left {
        writeln!(
            out,
            "{file}:{}:{}: game {game}: left out {} (the reader could not read it)",
            l.line, l.column, l.text
        )?;
    }
    for e in edits {
        let s = e.suggestion;
        let change = match s.edit() {
            EditKind::Insert => format!("inserted {}", s.text()),
            EditKind::Delete | EditKind::Remove => format!("removed {}", e.was),
            EditKind::Renumber => format!("added {}", s.text()),
            _ => format!("{} -> {}", e.was, s.text()),
        };
        let rivals: String = e
            .equally_good
            .iter()
            .map(|r| format!("; {}", r.suggestion.just_as_well(false)))
            .collect();
        writeln!(
            out,
            "{file}:{}:{}: game {game}, ply {}: {change} ({}){rivals}",
            e.line,
            e.column,
            s.ply(),
            s.why()
        )?;
    }
    if read_whole {
        writeln!(out, "{file}: game {game}: {READ_WHOLE}")?;
    }
    if !message.is_empty() {
        writeln!(out, "{file}: game {game}: {status}: {}", message.trim_end())?;
    }
    Ok(())
}
