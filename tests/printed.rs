//! Games set for print: the document's structure (heading, running text, diagrams where asked,
//! the final position and adjudication), the LaTeX's shape, and the PDF's pages and fonts.

use salta::export::printed::{self, Block, DIAGRAM_MARKER, PrintOptions, Style};
use salta::notation::parse_str;
use salta::replay::{ReplayOptions, replay};
use salta::rules::margin::Budget;

const GAME: &str = r#"[Event "Club game"]
[Site "Jüterbog"]
[Green "Krone"]
[Red "Grotewold"]
[Annotator "A & B"]
{Before the first move. [%diagram]}
1. 33-43 83-73 2. 32-42 {A quiet move [%diagram]} 2... 82-72 (2... 84-74 {[%diagram] not drawn} 3. 42-52) 3. 21-32 84-74 *
"#;

fn document(opts: &PrintOptions) -> printed::Document {
    let game = parse_str(GAME).remove(0).unwrap();
    let replayed = replay(&game, &ReplayOptions::default());
    printed::document(&game, &replayed, opts, &Budget::default())
}

fn diagram_captions(doc: &printed::Document) -> Vec<String> {
    doc.blocks
        .iter()
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
    assert_eq!(doc.details, ["Club game, Jüterbog", "Annotator: A & B"]);
    // The start, after 2. 32-42 (marked), and the final position; the marker in the variation is
    // reported, not drawn.
    assert_eq!(
        diagram_captions(&doc),
        ["The start", "After 2. 32-42", "After 3… 84-74"]
    );
    assert_eq!(doc.warnings.len(), 1, "{:?}", doc.warnings);
    assert!(doc.warnings[0].contains("variation"));
    let text: Vec<&printed::Run> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(runs) => Some(runs),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(text.iter().all(|r| !r.text.contains(DIAGRAM_MARKER)));
    let moves: Vec<&str> = text
        .iter()
        .filter(|r| r.style == Style::Move)
        .map(|r| r.text.as_str())
        .collect();
    // Green's moves numbered, Red's numbered again after a comment or a diagram.
    assert_eq!(
        moves,
        [
            "1. 33-43",
            "83-73",
            "2. 32-42",
            "2… 82-72",
            "3. 21-32",
            "84-74"
        ]
    );
    let plain: Vec<&str> = text
        .iter()
        .filter(|r| r.style == Style::Plain)
        .map(|r| r.text.as_str())
        .collect();
    assert!(plain.contains(&"Before the first move."));
    assert!(
        plain.contains(&"(2… 84-74 not drawn 3. 42-52)"),
        "{plain:?}"
    );
    assert!(
        matches!(doc.blocks.iter().rev().nth(2), Some(Block::Heading(h)) if h == "Final position")
    );
    match doc.blocks.last() {
        Some(Block::Text(runs)) => {
            assert!(runs[0].text.starts_with("*. The game goes on"), "{runs:?}")
        }
        other => panic!("the adjudication ends the document, not {other:?}"),
    }
}

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
        latex.matches("\\clearpage").count(),
        1,
        "each game on a new page"
    );
    assert_eq!(latex.matches("\\begin{tikzpicture}").count(), 6);
    assert_eq!(
        latex.matches("\\begin{tikzpicture}").count(),
        latex.matches("\\end{tikzpicture}").count()
    );
    assert!(latex.contains("\\section*{Krone -- Grotewold}"));
    assert!(latex.contains("Annotator: A \\& B"));
    assert!(latex.contains("\\textbf{2. 32-42} A quiet move"));
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
