#!/bin/sh
# Exact margin counts on the losers' positions of 1,000 self-play games: per-position p50/p90/p99/max
# time, how many stayed bounds, the distribution of (exact − Chebyshev sum), and peak memory.
# Usage: scripts/bench-margin.sh [GAMES] [FIRST_SEED]
set -eu
cd "$(dirname "$0")/.."
cargo build --release --example margin_stats
target="${CARGO_TARGET_DIR:-target}"
/usr/bin/time -v "$target/release/examples/margin_stats" "${1:-1000}" "${2:-1}" 2>&1 \
  | grep -E "^(positions|p50|exact minus|[0-9.]+(ms|s|µs) )|Maximum resident|Elapsed"
