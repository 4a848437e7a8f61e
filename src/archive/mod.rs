//! Whole folders of transcriptions: find the `.sgn` files ([`sgn_files`]), read them as streams and
//! replay the games in parallel (the module's pipeline), and report each game in file order for
//! people (drawn by the `render` feature's `crate::render`) and programs (JSON).

mod discovery;
mod pipeline;
mod report;

pub use discovery::{InputError, Inputs, sgn_files};
pub(crate) use pipeline::{OversizedPart, PieceInput, piece_bytes, read_in_order, visit_in_order};
pub use report::{
    DiagnosticReport, GameReport, OutcomeReport, Summary, game_report, streamed_report,
};

use crate::diagnostic::Code;
use crate::replay::{ReplayOptions, Replaying, Status};
use report::{finish, syntax_report};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// How to check. Built from [`CheckOptions::default`] with its setters:
/// `CheckOptions::default().replay(replay_options).piece_bytes(1 << 16)`.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct CheckOptions {
    /// How each game is replayed.
    pub replay: ReplayOptions,
    /// Render each game's findings for people; `Some(true)` with colour.
    #[cfg(feature = "render")]
    pub render: Option<bool>,
    /// Bytes of a file handed to a worker at a time (0: 1 MiB, or 64 KiB when every margin is
    /// counted).
    pub piece_bytes: usize,
}

impl CheckOptions {
    /// How each game is replayed (the field `replay`).
    #[must_use]
    pub fn replay(mut self, replay: ReplayOptions) -> CheckOptions {
        self.replay = replay;
        self
    }

    /// Render findings for people, with colour or without, or not at all (the field `render`).
    #[cfg(feature = "render")]
    #[must_use]
    pub fn render(mut self, render: Option<bool>) -> CheckOptions {
        self.render = render;
        self
    }

    /// Bytes of a file handed to a worker at a time (the field `piece_bytes`).
    #[must_use]
    pub fn piece_bytes(mut self, piece_bytes: usize) -> CheckOptions {
        self.piece_bytes = piece_bytes;
        self
    }
}

/// Checks every game of the files, calling `on_report` for each game in file order, and returns the
/// totals; reading stops soon after `on_report` returns false (its reader went away). The games
/// are read and replayed in parallel by the module's pipeline (`read_in_order`), and numbered and
/// drawn here, in order.
pub fn check_files(
    files: &[PathBuf],
    opts: &CheckOptions,
    mut on_report: impl FnMut(&GameReport) -> bool,
) -> Summary {
    let started = Instant::now();
    // Reports need no per-move replay records.
    let opts = &CheckOptions {
        replay: ReplayOptions {
            summary_only: true,
            ..opts.replay.clone()
        },
        ..opts.clone()
    };
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    let piece_bytes = piece_bytes(opts.piece_bytes, &opts.replay);
    let mut numbering = (usize::MAX, 0usize); // (file, games so far in it)
    // Each game is replayed as it is read: no tree is built unless its main line breaks.
    // A report's size is the game's bytes in the file, whatever their decoding.
    let check = |_, name: &Arc<str>, input: PieceInput, reports: &mut Vec<GameReport>| match input {
        PieceInput::Games(reader) => {
            let mut replaying = Replaying::new(&opts.replay);
            while let Some(item) = reader.read_game(&mut replaying) {
                let oversized = matches!(&item, Err(e) if e.code == Code::GameTooLarge);
                let mut report = match item {
                    Err(e) => syntax_report(name, e, opts),
                    Ok(game) => streamed_report(name, game, replaying.text(), opts),
                };
                report.size = if oversized {
                    // Only the piece's bytes are read: this cannot fail.
                    reader.pass_oversized(&mut |_| Ok(())).unwrap_or(0) as usize
                } else {
                    reader.raw_len()
                };
                reports.push(report);
            }
        }
        // An oversized game passed on in parts: reported once, when its size is known.
        PieceInput::Oversized(part, _) if part.last => {
            let mut report = syntax_report(name, part.error(name), opts);
            report.size = part.total as usize;
            reports.push(report);
        }
        PieceInput::Oversized(..) => {}
    };
    let board = opts.replay.rules.map(|r| r.board());
    let mut file_bytes = None;
    summary.io_errors = visit_in_order(files, piece_bytes, board, check, |file, mut report| {
        if numbering.0 != file {
            numbering = (file, 0);
            file_bytes = report::path_bytes(&files[file], &report.file);
        }
        report.file_bytes = file_bytes.clone();
        summary.bytes += report.size as u64;
        // Text after the last game is said, but is no game (as `repair` keeps it, decision 197).
        if report.no_game {
            finish(&mut report, numbering.1, opts);
            summary.no_games += 1;
            return on_report(&report);
        }
        numbering.1 += 1;
        finish(&mut report, numbering.1, opts);
        summary.games += 1;
        match report.status {
            Status::Valid => summary.valid += 1,
            Status::Warnings => summary.warnings += 1,
            Status::Invalid => summary.invalid += 1,
        }
        on_report(&report)
    });
    summary.seconds = started.elapsed().as_secs_f64();
    summary
}

#[cfg(test)]
mod tests {
    use super::{CheckOptions, check_files};
    use crate::replay::{MarginPolicy, ReplayOptions, Status};

    #[test]
    fn a_file_that_fails_to_read_is_reported_and_the_next_files_are_checked() {
        let dir =
            std::env::temp_dir().join(format!("salta-archive-failing-{}", std::process::id()));
        let good = numbered_games(&dir, &[3]);
        // A directory opens as a file on Linux and fails on the first read; elsewhere the opening
        // fails. Either way: an error for it, and the file after it checked in full.
        let unreadable = dir.join("a-directory.sgn");
        std::fs::create_dir_all(&unreadable).unwrap();
        let files = vec![unreadable.clone(), good[0].clone()];
        let opts = CheckOptions {
            replay: ReplayOptions {
                margins: MarginPolicy::Never,
                ..ReplayOptions::default()
            },
            #[cfg(feature = "render")]
            render: Some(false),
            piece_bytes: 1,
        };
        let mut seen = Vec::new();
        let summary = check_files(&files, &opts, |r| {
            seen.push(r.game);
            true
        });
        assert_eq!(seen, [1, 2, 3]);
        assert_eq!(summary.io_errors.len(), 1);
        assert!(
            summary.io_errors[0].starts_with(&unreadable.display().to_string()),
            "{:?}",
            summary.io_errors
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The numbers of workers the pipeline is tested with (one without the `parallel` feature).
    #[cfg(feature = "parallel")]
    const WORKER_COUNTS: [usize; 3] = [1, 2, 5];
    #[cfg(not(feature = "parallel"))]
    const WORKER_COUNTS: [usize; 1] = [1];

    /// Runs `f` with `threads` workers checking.
    #[cfg(feature = "parallel")]
    fn with_workers<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
        pool.unwrap().install(f)
    }

    /// Runs `f` with the one worker there is.
    #[cfg(not(feature = "parallel"))]
    fn with_workers<T>(_threads: usize, f: impl FnOnce() -> T) -> T {
        f()
    }

    /// Files of one-line games named after their file and number; in the second file game 3 makes
    /// an illegal move and game 5 is not even readable.
    fn numbered_games(dir: &std::path::Path, games: &[usize]) -> Vec<std::path::PathBuf> {
        std::fs::create_dir_all(dir).unwrap();
        games
            .iter()
            .enumerate()
            .map(|(file, &count)| {
                let text: String = (1..=count)
                    .map(|game| {
                        let moves = match (file, game) {
                            (1, 3) => "1. 33-55 *",
                            (1, 5) => "1. 33-4x *",
                            _ => "1. 33-43 83-73 *",
                        };
                        format!("[Event \"f{file}g{game}\"]\n\n{moves}\n\n")
                    })
                    .collect();
                let path = dir.join(format!("{file}.sgn"));
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect()
    }

    #[test]
    fn many_pieces_come_back_in_file_order_numbered_per_file() {
        let dir = std::env::temp_dir().join(format!("salta-archive-order-{}", std::process::id()));
        let counts = [5, 40, 1, 17];
        let files = numbered_games(&dir, &counts);
        let opts = |piece_bytes| CheckOptions {
            replay: ReplayOptions {
                margins: MarginPolicy::Never,
                ..ReplayOptions::default()
            },
            #[cfg(feature = "render")]
            render: Some(false),
            piece_bytes,
        };
        // Every game is four lines: its tag, a blank line, its moves, a blank line.
        let expected: Vec<(String, usize, u32)> = files
            .iter()
            .zip(counts)
            .flat_map(|(path, count)| {
                (1..=count).map(move |game| (path.display().to_string(), game, 4 * game as u32 - 3))
            })
            .collect();
        // Pieces of one byte (cut after every game), of a few games, and one piece per file.
        for threads in WORKER_COUNTS {
            for piece_bytes in [1, 90, 0] {
                let mut seen = Vec::new();
                let summary = with_workers(threads, || {
                    check_files(&files, &opts(piece_bytes), |r| {
                        seen.push(r.clone());
                        true
                    })
                });
                let context = format!("{threads} threads, pieces of {piece_bytes} bytes");
                let places: Vec<(String, usize, u32)> = seen
                    .iter()
                    .map(|r| (r.file.to_string(), r.game, r.line))
                    .collect();
                assert_eq!(places, expected, "{context}");
                for r in &seen {
                    let file = files
                        .iter()
                        .position(|f| *r.file == *f.display().to_string());
                    // A game broken by a syntax error (file 1, game 5) keeps the tags read.
                    let tag = format!("f{}g{}", file.unwrap(), r.game);
                    assert_eq!(r.tags.get("Event"), Some(tag.as_str()), "{context}");
                    #[cfg(feature = "render")]
                    if (file, r.game) == (Some(1), 3) {
                        let drawn = r.rendered.as_deref().unwrap_or_default();
                        assert!(drawn.contains("game 3, Green"), "{context}: {drawn}");
                    }
                }
                assert_eq!(summary.games, counts.iter().sum::<usize>(), "{context}");
                assert_eq!(summary.invalid, 2, "{context}");
                assert_eq!(
                    seen.iter().filter(|r| r.status == Status::Invalid).count(),
                    2
                );
                assert!(summary.io_errors.is_empty(), "{context}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
