//! The game viewer: one self-contained HTML page for any number of games, to step through in a
//! browser straight from disk (no network, no external script, font or image).
//!
//! The page carries, as `<script type="application/json">` data:
//! - `games`: the structured games exactly as `convert --to json` writes them ([`GameDoc`]);
//! - `views`: what the document leaves out and the page needs, one per game: the board, the start
//!   position, the record's notation, which written moves the replay could not play, and the
//!   replayer's findings tied to the move they concern (by the move's place in a pre-order walk of
//!   the move tree: a move, then each of its variations, then the next move);
//! - `boards`: the empty boards the games use (by board kind and the squares' names: a numeric
//!   record on a board of square numbers, an algebraic one with a–j and 1–10, unless the page fixes
//!   the coordinates), each in both orientations, from the same scene as the SVG diagrams, with
//!   each square's centre, so that the script only places pieces.
//!
//! The pieces are drawn once each, by the diagram scene, as SVG `<g>` elements the board `<use>`s.
//! The script (`viewer/viewer.js`) and style (`viewer/viewer.css`) are plain source files embedded
//! at compile time. Games are written as they come, so the page grows with the games but the
//! writer holds only the small per-game views.

use super::diagram::{
    Coordinates, DiagramError, DiagramOptions, LiveBoard, live_board, piece_glyph,
};
use super::printed::reader_date;
use super::structured::GameDoc;
use crate::board::{BoardKind, Color, Geometry};
use crate::notation::{Game, GameSource, MoveNode, Notation, Span, Variation};
use crate::replay::{Finding, LineReplay, MoveReplay, Replay, Status};
use crate::rules::{Piece, Rules, Variant};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

const STYLE: &str = include_str!("viewer/viewer.css");
const SCRIPT: &str = include_str!("viewer/viewer.js");
const BODY: &str = include_str!("viewer/viewer.html");

/// What the page knows of a game besides its document.
#[derive(Serialize)]
struct GameView<'a> {
    /// The file the game came from, as given (to name a download; not shown).
    file: &'a str,
    /// The game's first line in that file.
    line: u32,
    board: BoardKind,
    /// The key of its board in `boards`, such as `salta-numbers`.
    board_key: String,
    /// The record's text as read, to copy or download.
    record: &'a str,
    /// The Date tag as a reader reads it (`1901`, not `1901.??.??`).
    date: Option<String>,
    /// For a record numbered from Red's side: each square's number as the record writes it, by
    /// its historical number (the moves in `games` use the historical numbers).
    names: Option<BTreeMap<u8, u8>>,
    /// The start position as a Setup line.
    start: String,
    /// How the record writes its moves: `numeric`, `algebraic` or `piece`.
    notation: Notation,
    status: Status,
    /// Pre-order indices of the written moves that the replay could not play.
    unplayed: Vec<usize>,
    diagnostics: Vec<DiagnosticView<'a>>,
}

/// A finding with the move it concerns and its place in the file.
#[derive(Serialize)]
struct DiagnosticView<'a> {
    /// Pre-order index of the move, if the finding points at one.
    node: Option<usize>,
    line: u32,
    column: u32,
    #[serde(flatten)]
    finding: &'a Finding,
}

/// The empty boards the games use, and how to show them.
#[derive(Serialize)]
struct Boards {
    /// Start in Red's view.
    flip: bool,
    /// By key (`salta-numbers`, `pyramid-algebraic`, …): Green's view and Red's.
    boards: BTreeMap<String, [BoardView; 2]>,
}

/// One orientation of a board.
#[derive(Serialize)]
struct BoardView {
    svg: String,
    /// Square number → centre `[x, y]` in the SVG's units.
    centres: std::collections::BTreeMap<u8, [f32; 2]>,
    square: u32,
    /// The last move's squares: colour and opacity.
    highlight: String,
    highlight_opacity: f32,
    /// The edge inside the last move's squares: colour and width.
    highlight_edge: String,
    highlight_edge_width: f32,
    /// Square number → algebraic name (`33` → `e3`), to describe a position in words.
    algebraic: BTreeMap<u8, String>,
}

impl From<LiveBoard> for BoardView {
    fn from(b: LiveBoard) -> BoardView {
        BoardView {
            svg: b.svg,
            centres: b.centres.into_iter().collect(),
            square: b.square,
            highlight: b.highlight.0.to_string(),
            highlight_opacity: b.highlight.1,
            highlight_edge: b.highlight_edge.0.to_string(),
            highlight_edge_width: b.highlight_edge.1,
            algebraic: BTreeMap::new(),
        }
    }
}

/// A page being written: [`Viewer::new`] checks the options, then [`Viewer::begin`],
/// [`Viewer::add`] for each game and [`Viewer::finish`] write it.
pub struct Viewer {
    title: String,
    opts: DiagramOptions,
    /// The coordinates of every board, if fixed; otherwise each game's record's own.
    coordinates: Option<Coordinates>,
    /// The boards the games use, by board kind and coordinates.
    used: Vec<(BoardKind, Coordinates)>,
    /// Each game's view, serialized (they are written after the games).
    views: Vec<String>,
}

impl Viewer {
    /// A page whose boards are drawn as `opts` says (palette, pieces, and `flip` for the
    /// orientation the page opens in); each game's board names its squares as its record does
    /// (square numbers, or a–j and 1–10 for an algebraic record) unless
    /// [`Viewer::coordinates`] fixes them.
    pub fn new(title: &str, opts: &DiagramOptions) -> Result<Viewer, DiagramError> {
        live_board(Rules::default(), opts)?;
        Ok(Viewer {
            title: title.to_string(),
            opts: opts.clone(),
            coordinates: None,
            used: Vec::new(),
            views: Vec::new(),
        })
    }

    /// Gives every board these coordinates, whatever its record's notation.
    pub fn coordinates(self, coordinates: Coordinates) -> Viewer {
        Viewer {
            coordinates: Some(coordinates),
            ..self
        }
    }

    /// Writes the page up to the games.
    pub fn begin(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"salta {}\">\n<title>{}</title>\n\
             <style>\n{STYLE}</style>\n</head>\n<body>\n{BODY}\
             <script type=\"application/json\" id=\"games\">[",
            env!("CARGO_PKG_VERSION"),
            escape_html(&self.title)
        )
    }

    /// Writes one game; `file` names where it came from.
    pub fn add(
        &mut self,
        out: &mut dyn Write,
        file: &str,
        game: &Game,
        replay: &Replay,
    ) -> io::Result<()> {
        if !self.views.is_empty() {
            out.write_all(b",\n")?;
        }
        out.write_all(script_json(&GameDoc::new(game, replay))?.as_bytes())?;
        let board = replay.rules.board();
        let notation = game.notation();
        let coordinates = self.coordinates.unwrap_or(match notation {
            Notation::Algebraic => Coordinates::Algebraic,
            Notation::Numeric | Notation::Piece => Coordinates::Numbers,
        });
        if !self.used.contains(&(board, coordinates)) {
            self.used.push((board, coordinates));
        }
        let view = GameView {
            file,
            line: game.line,
            board,
            board_key: board_key(board, coordinates),
            record: &game.text,
            date: game.tag("Date").and_then(reader_date),
            names: game.numbered_from_red().then(|| {
                let g = Geometry::of(board);
                g.squares()
                    .map(|sq| (g.number(sq), g.number(g.rotate(sq))))
                    .collect()
            }),
            start: replay.start().to_setup(),
            notation,
            status: replay.status(),
            unplayed: unplayed(game, replay),
            diagnostics: diagnostics(game, replay),
        };
        self.views.push(script_json(&view)?);
        Ok(())
    }

    /// Writes the views, the boards the games use, their pieces and the script.
    pub fn finish(self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"]</script>\n<script type=\"application/json\" id=\"views\">[")?;
        out.write_all(self.views.join(",\n").as_bytes())?;
        out.write_all(b"]</script>\n")?;
        let mut boards = BTreeMap::new();
        let mut kinds = Vec::new();
        for &(kind, coordinates) in &self.used {
            let rules = match kind {
                BoardKind::Salta => Rules::default(),
                BoardKind::Pyramid => Rules::of(Variant::Pyramid),
            };
            let view = |flip| -> io::Result<BoardView> {
                let opts = DiagramOptions {
                    flip,
                    coordinates,
                    ..self.opts.clone()
                };
                let board =
                    live_board(rules, &opts).map_err(|e| io::Error::other(e.to_string()))?;
                let g = Geometry::of(kind);
                Ok(BoardView {
                    algebraic: g.squares().map(|sq| (g.number(sq), g.name(sq))).collect(),
                    ..board.into()
                })
            };
            boards.insert(board_key(kind, coordinates), [view(false)?, view(true)?]);
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        let glyphs: String = kinds
            .into_iter()
            .map(|kind| piece_glyphs(kind, &self.opts))
            .collect();
        let boards = Boards {
            flip: self.opts.flip,
            boards,
        };
        out.write_all(b"<script type=\"application/json\" id=\"boards\">")?;
        out.write_all(script_json(&boards)?.as_bytes())?;
        write!(
            out,
            "</script>\n<svg class=\"glyphs\" aria-hidden=\"true\" width=\"0\" height=\"0\">\
             <defs>\n{glyphs}</defs></svg>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
        )
    }
}

/// `salta-numbers`: a board kind and the names on its squares.
fn board_key(kind: BoardKind, coordinates: Coordinates) -> String {
    let kind = match kind {
        BoardKind::Salta => "salta",
        BoardKind::Pyramid => "pyramid",
    };
    let names = match coordinates {
        Coordinates::None => "none",
        Coordinates::Numbers => "numbers",
        Coordinates::Algebraic => "algebraic",
        Coordinates::Both => "both",
    };
    format!("{kind}-{names}")
}

/// Every piece of a board kind, `<g id="salta-g3">` for Green's piece 3 (Pyramid pieces are all
/// alike: `pyramid-g`, `pyramid-r`).
fn piece_glyphs(kind: BoardKind, opts: &DiagramOptions) -> String {
    let (name, ids) = match kind {
        BoardKind::Salta => ("salta", 0..15u8),
        BoardKind::Pyramid => ("pyramid", 0..1u8),
    };
    let mut out = String::new();
    for color in Color::ALL {
        let side = match color {
            Color::Green => 'g',
            Color::Red => 'r',
        };
        for id in ids.clone() {
            let glyph = match kind {
                BoardKind::Salta => format!("{name}-{side}{id}"),
                BoardKind::Pyramid => format!("{name}-{side}"),
            };
            out.push_str(&piece_glyph(
                Piece::new_unchecked(color, id),
                kind,
                opts,
                &glyph,
            ));
        }
    }
    out
}

/// JSON safe inside a `<script>` element: `<` only ever occurs inside strings, where `\u003c`
/// means the same, so no `</script>` or `<!--` can end the element early.
fn script_json(value: &impl Serialize) -> io::Result<String> {
    Ok(serde_json::to_string(value)?.replace('<', "\\u003c"))
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Visits every written move in pre-order (a move, then each of its variations, then the next
/// move) with its replay, if the replay reached it.
fn walk<'g>(
    line: &'g Variation,
    replayed: Option<&LineReplay>,
    visit: &mut impl FnMut(&'g MoveNode, Option<&MoveReplay>),
) {
    for (i, node) in line.moves.iter().enumerate() {
        let r = replayed.and_then(|l| l.moves.get(i));
        visit(node, r);
        for (j, v) in node.variations().iter().enumerate() {
            walk(v, r.and_then(|r| r.variations.get(j)), visit);
        }
    }
}

fn unplayed(game: &Game, replay: &Replay) -> Vec<usize> {
    let mut index = 0;
    let mut out = Vec::new();
    walk(&game.mainline, Some(&replay.mainline), &mut |_, r| {
        if r.and_then(|r| r.played).is_none() {
            out.push(index);
        }
        index += 1;
    });
    out
}

fn diagnostics<'a>(game: &Game, replay: &'a Replay) -> Vec<DiagnosticView<'a>> {
    // A finding points at a move or at its "Salta!" call.
    let mut spans = Vec::new();
    walk(&game.mainline, None, &mut |node, _| {
        spans.push((node.span, node.salta()))
    });
    let source = GameSource::of_game(&std::sync::Arc::from(""), 1, game);
    replay
        .findings
        .iter()
        .map(|finding| {
            let node = finding.span.and_then(|s| {
                let within = |n: Span| n.start <= s.start && s.start < n.end.max(n.start + 1);
                spans
                    .iter()
                    .position(|&(node, call)| within(node) || call.is_some_and(within))
            });
            let (line, column) = finding
                .span
                .map(|s| source.location(s.start as usize))
                .unwrap_or((game.line, 1));
            DiagnosticView {
                node,
                line,
                column,
                finding,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Reader;
    use crate::replay::ReplayOptions;

    fn page(records: &str) -> String {
        let mut viewer = Viewer::new("a </title> test", &DiagramOptions::default()).unwrap();
        let mut out = Vec::new();
        viewer.begin(&mut out).unwrap();
        for game in Reader::new(records.as_bytes()) {
            let game = game.unwrap();
            let replayed = crate::replay::replay(&game, &ReplayOptions::default());
            viewer.add(&mut out, "test.sgn", &game, &replayed).unwrap();
        }
        viewer.finish(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The JSON of the data element `id`, as the page's script reads it.
    fn data(page: &str, id: &str) -> serde_json::Value {
        let open = format!("<script type=\"application/json\" id=\"{id}\">");
        let start = page.find(&open).unwrap() + open.len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end]).unwrap()
    }

    #[test]
    fn text_from_the_record_cannot_end_a_script_element() {
        let page = page("[Event \"</script><script>alert(1)</script>\"]\n\n1. 33-43 *\n");
        assert_eq!(
            page.matches("<script").count(),
            4,
            "three data elements and the script"
        );
        assert_eq!(
            data(&page, "games")[0]["tags"]["Event"],
            "</script><script>alert(1)</script>"
        );
        assert!(page.contains("<title>a &lt;/title&gt; test</title>"));
    }

    #[test]
    fn a_breaking_move_and_what_follows_are_unplayed_and_carry_the_diagnostic() {
        // Pre-order: 33-43 (0), its variation 33-44 (1), 83-74 (2), 43-44 (3), 84-75 (4).
        let page = page("[Event \"x\"]\n\n1. 33-43 (1. 33-44) 83-74 2. 43-44 84-75 *\n");
        let view = &data(&page, "views")[0];
        assert_eq!(view["status"], "invalid");
        assert_eq!(view["unplayed"], serde_json::json!([1, 3, 4]));
        let nodes: Vec<_> = view["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["node"].as_u64(), d["line"].as_u64(), d["code"].clone()))
            .collect();
        assert_eq!(
            nodes,
            [
                (Some(1), Some(3), "salta::illegal-move".into()),
                (Some(3), Some(3), "salta::illegal-move".into())
            ]
        );
    }

    #[test]
    fn each_record_is_shown_in_its_own_numbering() {
        let page = page(
            "[Event \"numeric\"]\n\n1. 33-43 *\n\n[Event \"algebraic\"]\n\n1. e3-f4 *\n\n\
             [Event \"from Red\"]\n[Numbering \"red\"]\n\n1. 83-73 *\n",
        );
        let views = data(&page, "views");
        let keys: Vec<_> = (0..3).map(|i| views[i]["board_key"].clone()).collect();
        assert_eq!(keys, ["salta-numbers", "salta-algebraic", "salta-numbers"]);
        assert!(views[0]["names"].is_null());
        // The record writes Green's 33-43 as 83-73: each square by its number from Red's side.
        assert_eq!(views[2]["names"]["33"], 83);
        assert_eq!(views[2]["names"]["105"], 11);
        let boards = &data(&page, "boards")["boards"];
        assert_eq!(boards["salta-algebraic"][0]["algebraic"]["33"], "e3");
        assert!(
            boards["salta-numbers"][0]["svg"]
                .as_str()
                .unwrap()
                .contains(">43</text>")
        );
        assert!(
            !boards["salta-algebraic"][0]["svg"]
                .as_str()
                .unwrap()
                .contains(">43</text>")
        );
    }

    #[test]
    fn the_page_carries_only_the_boards_its_games_use() {
        let page = page("[Rules \"pyramid\"]\n\n1. 11-21 *\n");
        let boards = &data(&page, "boards")["boards"];
        assert_eq!(boards.as_object().unwrap().len(), 1);
        assert_eq!(
            boards["pyramid-numbers"][1]["centres"]
                .as_object()
                .unwrap()
                .len(),
            32
        );
        assert!(page.contains("<g id=\"pyramid-g\">") && !page.contains("salta-g0"));
        assert_eq!(data(&page, "views")[0]["notation"], "numeric");
    }
}
