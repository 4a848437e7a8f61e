//! Games set for print: the document's structure (heading, running text, diagrams where asked,
//! the final position and adjudication), the LaTeX's shape, and the PDF's pages and fonts.

use crate::cli::salta;
use crate::special::TempDir;
use salta::export::printed::{self, Block, DIAGRAM_MARKER, PrintOptions, Style};
use salta::notation::parse_str;
use salta::replay::{ReplayOptions, replay};
use salta::rules::margin::Budget;

const GAME: &str = r#"[Event "Club game"]
[Site "Jüterbog"]
[Date "1901.??.??"]
[Green "Krone"]
[Red "Grotewold"]
[Margin "27"]
[Annotator "A & B"]
{Before the first move. [%diagram]}
1. 33-43 83-73 2. 32-42 {Green's "quiet" move [%diagram]} 2... 82-72 (2... 84-74 {[%diagram] not drawn} 3. 42-52) 3. 21-32 84-74 *
"#;

fn document(opts: &PrintOptions) -> printed::Document {
    let game = parse_str(GAME).remove(0).unwrap();
    let replayed = replay(&game, &ReplayOptions::default());
    printed::document(&game, &replayed, opts, &Budget::default())
}

fn diagram_captions(doc: &printed::Document) -> Vec<String> {
    all_blocks(doc)
        .into_iter()
        .filter_map(|b| match b {
            Block::Diagram(d) => d.1.caption.clone(),
            _ => None,
        })
        .collect()
}

#[test]
fn the_document_follows_the_record() {
    let doc = document(&PrintOptions::default());
    assert_eq!(doc.title, "Krone – Grotewold");
    // Who had which side; the date as a reader reads it; never the margin, which gives the result
    // away.
    assert_eq!(
        doc.details,
        [
            "Green: Krone · Red: Grotewold",
            "Club game, Jüterbog, 1901",
            "Annotator: A & B"
        ]
    );
    // The start, after 2. 32-42 (marked), and the final position; the marker in the variation is
    // reported, not drawn.
    assert_eq!(
        diagram_captions(&doc),
        ["The start", "After 2. 32-42", "After 3… 84-74"]
    );
    assert_eq!(doc.warnings.len(), 1, "{:?}", doc.warnings);
    assert!(doc.warnings[0].contains("variation"));
    let text: Vec<&printed::Run> = all_blocks(&doc)
        .into_iter()
        .filter_map(|b| match b {
            Block::Text(runs) => Some(runs),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(text.iter().all(|r| !r.text.contains(DIAGRAM_MARKER)));
    let moves = |variation: bool| -> Vec<String> {
        text.iter()
            .filter(|r| r.style == Style::Move && r.variation == variation)
            .map(|r| r.text.replace('\u{a0}', "_"))
            .collect()
    };
    // Green's moves numbered, Red's numbered again after a comment or a diagram; a number is
    // joined to its move by a no-break space.
    assert_eq!(
        moves(false),
        [
            "1._33-43",
            "83-73",
            "2._32-42",
            "2…_82-72",
            "3._21-32",
            "84-74"
        ]
    );
    // A variation's moves a size smaller, its parentheses joined to the words beside them.
    assert_eq!(moves(true), ["(2…_84-74", "3._42-52)"]);
    let comments: Vec<&str> = text
        .iter()
        .filter(|r| r.style == Style::Comment)
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        comments,
        [
            "Before the first move.",
            "Green’s “quiet” move",
            "not drawn"
        ]
    );
    // The end: heading, diagram and closing sentence kept together.
    match doc.blocks.last() {
        Some(Block::Together(end)) => {
            assert!(matches!(&end[0], Block::Heading(h) if h == "Final position"));
            assert!(matches!(&end[1], Block::Diagram(_)));
            match &end[2] {
                Block::Text(runs) => assert!(
                    runs[0].text.starts_with("The record ends here, with Green"),
                    "{runs:?}"
                ),
                other => panic!("{other:?}"),
            }
        }
        other => panic!("the final position ends the document, not {other:?}"),
    }
}

/// The blocks, those kept together taken out of their group.
fn all_blocks(doc: &printed::Document) -> Vec<&Block> {
    doc.blocks
        .iter()
        .flat_map(|b| match b {
            Block::Together(inner) => inner.iter().collect(),
            other => vec![other],
        })
        .collect()
}

#[test]
fn a_finished_game_ends_as_an_annotator_says_it() {
    let game = parse_str(&std::fs::read_to_string(HISTORICAL).unwrap())
        .remove(0)
        .unwrap();
    let replayed = replay(&game, &ReplayOptions::default());
    let doc = printed::document(
        &game,
        &replayed,
        &PrintOptions::default(),
        &Budget::default(),
    );
    let Some(Block::Together(end)) = doc.blocks.last() else {
        panic!("{:?}", doc.blocks.last())
    };
    let Block::Text(runs) = &end[2] else {
        panic!("{end:?}")
    };
    assert_eq!(
        runs[0].text,
        "0–1. Red was first to bring every piece home. Green still needed 27 moves to finish (25 \
         had its pieces not stood in one another’s way), so Red wins by 27 points."
    );
    let Block::Diagram(last) = &end[1] else {
        panic!("{end:?}")
    };
    assert!(!last.1.side_to_move, "nobody is to move after the game");
}

const HISTORICAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/corpus/historical/krone-grotewold-1901.sgn"
);

#[test]
fn diagram_every_n_moves_adds_to_the_marked_ones() {
    let doc = document(&PrintOptions::default().diagram_every(1));
    // After moves 1 and 2 (Red's), not again after 2. 32-42's marked one; move 3 is the final.
    assert_eq!(
        diagram_captions(&doc),
        [
            "The start",
            "After 1… 83-73",
            "After 2. 32-42",
            "After 2… 82-72",
            "After 3… 84-74"
        ]
    );
}

#[test]
fn latex_is_one_document_needing_only_tikz() {
    let doc = document(&PrintOptions::default());
    let latex = printed::latex(&[doc.clone(), doc]).unwrap();
    let packages: Vec<&str> = latex
        .lines()
        .filter(|l| l.starts_with("\\usepackage"))
        .collect();
    assert_eq!(packages, ["\\usepackage{tikz}"]);
    assert_eq!(latex.matches("\\begin{document}").count(), 1);
    assert!(latex.trim_end().ends_with("\\end{document}"));
    assert_eq!(
        latex.matches("\\saltanewgame\n").count(),
        1,
        "each game on a new page"
    );
    assert_eq!(latex.matches("\\begin{tikzpicture}").count(), 6);
    assert_eq!(
        latex.matches("\\begin{tikzpicture}").count(),
        latex.matches("\\end{tikzpicture}").count()
    );
    assert!(latex.contains("\\saltagame{Krone -- Grotewold}"));
    assert!(latex.contains("Annotator: A \\& B"));
    assert!(latex.contains("\\mbox{2.~32-42} \\saltacomment{Green's ``quiet'' move}"));
    assert!(latex.contains("\\frenchspacing"));
    assert!(!latex.contains("1901.??") && !latex.contains("Margin"));
    // Braces balance outside comments.
    let depth = latex
        .lines()
        .map(|l| l.split('%').next().unwrap_or(""))
        .flat_map(|l| l.chars())
        .try_fold(0i32, |d, c| {
            let d = match c {
                '{' => d + 1,
                '}' => d - 1,
                _ => d,
            };
            (d >= 0).then_some(d)
        });
    assert_eq!(depth, Some(0));
}

#[test]
fn pdf_has_a5_pages_and_embedded_fonts() {
    let doc = document(&PrintOptions::default());
    let pdf = printed::pdf(&[doc]).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let text = String::from_utf8_lossy(&pdf);
    let boxes: Vec<&str> = text
        .split("/MediaBox [")
        .skip(1)
        .filter_map(|rest| rest.split(']').next())
        .collect();
    assert!(!boxes.is_empty(), "no pages");
    for media_box in boxes {
        let v: Vec<f32> = media_box
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        assert!(
            (v[2] - 419.53).abs() < 0.01 && (v[3] - 595.28).abs() < 0.01,
            "A5: {v:?}"
        );
    }
    assert!(text.contains("/FontFile2"), "fonts are embedded");
    assert!(text.contains("DejaVuSans"), "the shipped font is used");
}

/// The lines of running text of a LaTeX document (outside the TikZ pictures and comments).
fn running_text(latex: &str) -> Vec<&str> {
    let mut inside = false;
    latex
        .lines()
        .filter(|l| {
            if l.starts_with("\\begin{tikzpicture}") {
                inside = true;
            }
            let keep = !inside && !l.starts_with('%');
            if l.starts_with("\\end{tikzpicture}") {
                inside = false;
            }
            keep
        })
        .collect()
}

#[test]
fn latex_never_ends_a_line_after_a_move_number() {
    let game = parse_str(&std::fs::read_to_string(HISTORICAL).unwrap())
        .remove(0)
        .unwrap();
    let replayed = replay(&game, &ReplayOptions::default());
    let opts = PrintOptions::default().diagram_every(20);
    let doc = printed::document(&game, &replayed, &opts, &Budget::default());
    let latex = printed::latex(&[doc]).unwrap();
    let text = running_text(&latex).join("\n");
    // Every move number: "12.~" or "12\ldots{}~" inside the \mbox of its move, so TeX can break
    // neither after the number nor at the move's hyphen.
    let mut numbers = 0;
    for (at, _) in text.match_indices(|c: char| c.is_ascii_digit()) {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_digit() || c == '-' || c == ':') {
            continue;
        }
        let rest = &text[at..];
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let after = &rest[digits..];
        if after.starts_with('.') || after.starts_with("\\ldots") {
            let mark = if after.starts_with('.') {
                1
            } else {
                "\\ldots{}".len()
            };
            if after[mark..].starts_with('~') {
                numbers += 1;
                assert!(
                    text[..at].ends_with("\\mbox{") || text[..at].ends_with("\\mbox{("),
                    "a move number outside its move's box at {:?}",
                    &text[at.saturating_sub(30)..at + 10]
                );
            } else {
                assert!(
                    !after[mark..].starts_with([' ', '\n']),
                    "a breakable space after a move number: {:?}",
                    &text[at.saturating_sub(20)..(at + 20).min(text.len())]
                );
            }
        }
    }
    assert_eq!(numbers, 107, "every Green move is numbered");
    assert!(latex.contains("\\frenchspacing"));
}

#[test]
fn a_latex_fragment_is_the_games_alone_for_a_book() {
    let doc = document(&PrintOptions::default());
    let fragment = printed::latex_fragment(std::slice::from_ref(&doc)).unwrap();
    assert!(!fragment.contains("\\documentclass") && !fragment.contains("\\begin{document}"));
    assert!(!fragment.lines().any(|l| l.starts_with("\\usepackage")));
    // The book can set the games its way: every macro the fragment uses is provided only if the
    // book has not defined it.
    for name in [
        "saltagame",
        "saltadetails",
        "saltaheading",
        "saltavariation",
        "saltacomment",
    ] {
        assert!(
            fragment.contains(&format!("\\providecommand{{\\{name}}}")),
            "{name}"
        );
    }
    let whole = printed::latex(&[doc]).unwrap();
    assert!(
        whole.contains(&fragment),
        "the article wraps the same fragment"
    );
}

/// `convert --to pdf` writes a game's pages as it reads the games: the file of many games must
/// still be one PDF, its cross-reference table pointing at every object, its page tree holding
/// every page in order, each game from a new page.
#[test]
fn a_pdf_of_many_games_is_one_valid_file_with_every_page() {
    let dir = TempDir::new("pdf-many");
    let games = 30;
    let records = dir.path("games.sgn");
    let pdf_path = dir.path("games.pdf");
    let arg = |p: &std::path::Path| p.to_str().unwrap().to_string();
    salta(&[
        "generate",
        "--games",
        &games.to_string(),
        "--seed",
        "9170",
        "-o",
        &arg(&records),
    ])
    .ok();
    salta(&[
        "convert",
        "--to",
        "pdf",
        &arg(&records),
        "-o",
        &arg(&pdf_path),
    ])
    .ok();
    let pdf = std::fs::read(&pdf_path).unwrap();
    let pages = checked_pdf(&pdf);
    assert!(pages >= games, "{pages} pages for {games} games");
    // The library's one call for a few games makes a file as sound, a page or more a game.
    let docs: Vec<printed::Document> = parse_str(&std::fs::read_to_string(&records).unwrap())
        .into_iter()
        .take(4)
        .map(|game| {
            let game = game.unwrap();
            let replayed = replay(&game, &ReplayOptions::default());
            printed::document(
                &game,
                &replayed,
                &PrintOptions::default(),
                &Budget::default(),
            )
        })
        .collect();
    assert!(checked_pdf(&printed::pdf(&docs).unwrap()) >= 4);
}

/// Checks a PDF's structure and gives its page count: the trailer's `startxref` leads to the
/// table, every object the table lists starts where it says, the catalogue's page tree counts
/// the pages its kids are, and each kid is a page.
fn checked_pdf(pdf: &[u8]) -> usize {
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    let rfind = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).rposition(|w| w == needle);
    let ascii = |bytes: &[u8]| std::str::from_utf8(bytes).unwrap().to_string();
    assert!(pdf.starts_with(b"%PDF-1.7\n"));
    let startxref = rfind(pdf, b"startxref\n").unwrap();
    let tail = ascii(&pdf[startxref + 10..]);
    let xref: usize = tail.trim_end_matches("%%EOF").trim().parse().unwrap();
    let table = ascii(&pdf[xref..startxref]);
    assert!(
        table.starts_with("xref\n0 "),
        "startxref leads to the table"
    );
    let mut lines = table.lines().skip(1);
    let size: usize = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let mut objects = std::collections::HashMap::new();
    for (id, line) in lines.take(size).enumerate() {
        let (offset, kind) = (&line[..10], &line[17..18]);
        if kind == "n" {
            let offset: usize = offset.parse().unwrap();
            let head = format!("{id} 0 obj\n");
            let object = &pdf[offset..];
            assert!(
                object.starts_with(head.as_bytes()),
                "object {id} is not at {offset}"
            );
            let end = find(object, b"\nendobj").unwrap();
            objects.insert(
                id,
                String::from_utf8_lossy(&object[head.len()..end]).into_owned(),
            );
        }
    }
    assert_eq!(objects.len(), size - 1, "every number is an object");
    let trailer = &table[table.find("trailer").unwrap()..];
    let number_after = |dict: &str, key: &str| -> usize {
        let rest = &dict[dict.find(key).unwrap_or_else(|| panic!("no {key}")) + key.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    let catalog = &objects[&number_after(trailer, "/Root")];
    assert!(catalog.contains("/Type /Catalog"));
    let tree = &objects[&number_after(catalog, "/Pages")];
    let count = number_after(tree, "/Count");
    let kids = &tree[tree.find("/Kids [").unwrap() + 7..];
    let kids: Vec<usize> = kids[..kids.find(']').unwrap()]
        .split(" 0 R")
        .filter_map(|k| k.trim().parse().ok())
        .collect();
    assert_eq!(kids.len(), count);
    for kid in kids {
        let page = &objects[&kid];
        assert!(
            page.contains("/Type /Page\n") || page.contains("/Type /Page "),
            "{page}"
        );
    }
    count
}

/// A publisher sets the same records again and expects the same pages. The closing sentence's
/// margin comes from a count that may stop early; `convert` stops it by a number of search states
/// only (no wall clock unless `--margin-seconds` is given), so where it stops, and the bounds it
/// prints, cannot depend on how busy the machine was (decision 106). A full-zone scramble (exactly
/// 46, millions of states) with a small state budget: the count ends in bounds, the path that
/// once varied from run to run.
#[test]
fn the_same_records_print_the_same_page_twice() {
    let dir = TempDir::new("print-twice");
    let record = dir.write(
        "scramble.sgn",
        "[Event \"A full-zone scramble\"]\n\
         [Setup \"G/81,82,83,84,85,91,92,93,94,95,101,102,103,104,105/\
         35,13,24,32,31,64,53,44,54,21,34,23,15,12,14/121\"]\n\n*\n",
    );
    let print = || {
        salta(&[
            "convert",
            "--to",
            "latex",
            "--margin-states",
            "20000",
            record.to_str().unwrap(),
        ])
        .ok()
        .text()
    };
    let first = print();
    let closing = first
        .lines()
        .find(|l| l.contains("Green wins by"))
        .unwrap_or_else(|| panic!("no closing sentence:\n{first}"));
    let margin = closing.split("Green wins by ").nth(1).unwrap();
    let bounds: Vec<&str> = margin.trim_end_matches(" points.").split(" to ").collect();
    assert!(
        bounds.len() == 2 && bounds.iter().all(|n| n.parse::<u32>().is_ok()),
        "the count should end in bounds: {closing}"
    );
    assert_eq!(print(), first);
}

/// A publisher compares files, not only pages. svg2pdf keeps a page's fonts and resources in hash
/// maps, each seeded anew, so the same game gave PDFs whose fonts' objects were numbered and whose
/// resource dictionaries were ordered otherwise from one making to the next (decision 109). Made
/// eight times in one process (eight seeds), the PDF is one file.
#[test]
fn the_same_game_gives_the_same_pdf_bytes() {
    let doc = document(&PrintOptions::default());
    let first = printed::pdf(std::slice::from_ref(&doc)).unwrap();
    for _ in 0..7 {
        assert!(printed::pdf(std::slice::from_ref(&doc)).unwrap() == first);
    }
    checked_pdf(&first);
}
