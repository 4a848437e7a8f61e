use super::{BudgetArgs, CliError, replay_to_ply, select_game, write_output};
use salta::export::adjudication::{Adjudication, adjudicate};
use salta::rules::MoveLimit;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The record.
    file: PathBuf,
    /// Which game of the file (1-based).
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// Adjudicate after this many plies of the main line instead of at its end.
    #[arg(long)]
    ply: Option<u32>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = ["text", "json", "yaml"])]
    format: String,
    #[command(flatten)]
    budget: BudgetArgs,
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let game = select_game(&args.file, args.game)?;
    let budget = args.budget.reproducible_budget()?;
    let (replayed, ply, past_break) = replay_to_ply(&game, args.ply)?;
    let verdict = adjudicate(&replayed, ply, &budget);
    let text = match args.format.as_str() {
        "json" => {
            serde_json::to_string_pretty(&verdict).map_err(|e| CliError::new(e.to_string()))? + "\n"
        }
        "yaml" => serde_yaml::to_string(&verdict).map_err(|e| CliError::new(e.to_string()))?,
        _ => text(&verdict),
    };
    write_output(None, &[], |out| out.write_all(text.as_bytes()))?;
    Ok(super::exit_code(past_break))
}

fn text(v: &Adjudication) -> String {
    let mut out = format!("after ply {}: {}\n", v.ply, v.setup);
    let status = serde_json::to_value(v.status)
        .ok()
        .and_then(|s| s.as_str().map(String::from))
        .unwrap_or_default();
    out += &format!("status: {status}\n");
    match (v.winner, v.margin, v.margin_bounds) {
        (Some(w), Some(m), _) => out += &format!("winner: {w} by {m}\n"),
        (Some(w), None, Some((lo, hi))) => {
            out += &format!(
                "winner: {w} by {lo}–{} (bounds: the search budget ran out)\n",
                hi.map(|h| h.to_string()).unwrap_or("?".into())
            )
        }
        (Some(w), None, None) => out += &format!("winner: {w}\n"),
        (None, ..) => out += "winner: none\n",
    }
    out += &format!("why: {}\n", v.reason);
    for (name, side) in [("Green", &v.green), ("Red", &v.red)] {
        let exact = side
            .exact
            .map(|n| n.to_string())
            .unwrap_or_else(|| match side.exact_bounds {
                Some((lo, hi)) => {
                    format!("{lo}–{}", hi.map(|h| h.to_string()).unwrap_or("?".into()))
                }
                None => "?".into(),
            });
        out += &format!(
            "{name}: {} to go ignoring all pieces, {exact} with its own pieces blocking{}\n",
            side.free,
            if side.complete { " (complete)" } else { "" }
        );
        let far: Vec<String> = side
            .pieces
            .iter()
            .filter(|p| p.distance > 0)
            .map(|p| format!("{} {}→{} ({})", p.piece, p.square, p.target, p.distance))
            .collect();
        if !far.is_empty() {
            out += &format!("  {}\n", far.join(", "));
        }
    }
    if let Some(limit) = &v.move_limit {
        let (green, red) = (limit.green.limit, limit.red.limit);
        // The limits of a game's rules, which were checked when read.
        let limits =
            MoveLimit::new(green, red).map_or_else(|_| format!("{green}/{red}"), |l| l.to_string());
        out += &format!("move limit {limits}: {}\n", limit.reason);
    }
    out
}
