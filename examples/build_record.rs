//! A record made from moves, read back with true spans: `cargo run --example build_record`.
use salta::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut record = GameBuilder::new(Position::start(Rules::default())).tag("Event", "Example")?;
    for (from, to) in [("33", "43"), ("83", "73"), ("32", "42")] {
        let (pos, g) = (record.position(), record.position().geometry());
        let m = pos.find_legal(g.parse_square(from)?, g.parse_square(to)?);
        record = record.play(m.ok_or("not a legal move")?)?;
    }
    let game = record
        .comment("Adjourned.")
        .result(GameResult::Unknown)
        .build()?;
    print!("{}", game.text);
    for node in &game.mainline.moves {
        println!("{:?}: {}", node.span.range(), &game.text[node.span.range()]);
    }
    Ok(())
}
