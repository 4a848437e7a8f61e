//! Feeds arbitrary bytes to the SGN reader: no input may panic, overflow the stack or grow memory
//! without bound. Games that read are written back and read again: the canonical form reads
//! back and writes out unchanged, unless the game holds a garbled move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salta::diagnostic::Code;
use salta::notation::{Limits, Reader, WriteOptions, parse_str, write_game};

fuzz_target!(|data: &[u8]| {
    // Small limits and chunks reach the limit and buffer-boundary paths with small inputs.
    let chunk = data.first().map_or(1, |&b| b as usize % 64 + 1);
    let limits = Limits::default()
        .tag_bytes(256)
        .comment_bytes(1024)
        .game_bytes(16 * 1024)
        .variation_depth(32);
    for item in Reader::new(data).with_chunk_size(chunk).with_limits(limits) {
        match item {
            Ok(game) => {
                let written = write_game(&game, &WriteOptions::default());
                // A garbled move is written as it was found, and how the reader's recovery reads
                // such text (a misread number, a move a space split, a designator) depends on
                // what stands beside it: the canonical form of a game holding one may read back
                // otherwise, or not at all (`convert` refuses to write such a game: it checks
                // that what it writes reads back).
                let garbled = game.warnings.iter().any(|w| w.code == Code::GarbledMove);
                for again in parse_str(&written) {
                    match again {
                        Ok(again) if !garbled => {
                            assert_eq!(write_game(&again, &WriteOptions::default()), written)
                        }
                        Ok(_) => {}
                        Err(e) => assert!(garbled, "the canonical form reads back: {e:?}"),
                    }
                }
            }
            Err(error) => {
                let _ = error.location();
            }
        }
    }
});
