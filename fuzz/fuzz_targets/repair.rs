//! Feeds arbitrary bytes to the repair search, as `salta repair` and `salta check` run it: a game
//! the reader stops in is read again past the tokens that stopped it, and every game is checked
//! (its breaks read) and mended. Nothing may panic; a game mended must replay to its end and
//! read back as written.
//!
//! The search replays the record after every edit it tries, so its work grows with the record:
//! games are at most 4 KiB (some 150 plies) and only the first two of an input are searched,
//! without margins (their count only tells readings apart, and has its own target, `replay`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use salta::notation::{Limits, Reader, WriteOptions, parse_str, write_game};
use salta::repair::{Mended, breaks_main_line, check, mend, read_past};
use salta::replay::{MarginPolicy, ReplayOptions, replay};

fuzz_target!(|data: &[u8]| {
    let limits = Limits::default().game_bytes(4 * 1024).variation_depth(16);
    for (n, item) in Reader::new(data).with_limits(limits).take(2).enumerate() {
        let game = match item {
            Ok(game) => game,
            Err(error) => match read_past(&error) {
                Some((game, _left_out)) => game,
                None => continue,
            },
        };
        let opts = ReplayOptions::default()
            .lenient(n % 2 == 1)
            .margins(MarginPolicy::Never);
        let _ = check(&game, &opts);
        if let Mended::Repaired(mended, breaks) = mend(&game, &opts, 3) {
            assert!(!breaks.is_empty());
            let replayed = replay(&mended, &opts);
            assert!(
                !replayed.findings().iter().any(breaks_main_line),
                "a mended game breaks: {:?}",
                replayed.findings()
            );
            let written = write_game(&mended, &WriteOptions::default());
            let again = parse_str(&written);
            assert!(
                matches!(again.as_slice(), [Ok(_)]),
                "a mended game does not read back: {written}"
            );
        }
    }
});
