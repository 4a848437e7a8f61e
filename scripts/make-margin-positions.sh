#!/bin/sh
# Regenerates benches/data/margin-generate-1000.txt: the losers' positions at the end of the first
# 1,000 decided games of `salta generate` (salta::generate::generate_game, default rules, seeds from
# 1), one `LOSER SETUP` per line. About 0.5 s per game. Run again only if the generator changes.
set -eu
cd "$(dirname "$0")/.."
cargo build --release --example margin_positions
target="${CARGO_TARGET_DIR:-target}"
"$target/release/examples/margin_positions" "${1:-1000}" "${2:-1}" > benches/data/margin-generate-1000.txt.tmp
mv benches/data/margin-generate-1000.txt.tmp benches/data/margin-generate-1000.txt
