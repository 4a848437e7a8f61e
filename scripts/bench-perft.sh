#!/usr/bin/env bash
# Perft 7 from the Salta start under the default rules, one thread: prints each run's leaf nodes,
# seconds and millions of leaf nodes per second, then the median.
# Usage: scripts/bench-perft.sh [DEPTH] [RUNS] [RULES]   (defaults: 7 5 salta)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release --example perft
exec "${CARGO_TARGET_DIR:-target}/release/examples/perft" "${1:-7}" "${2:-5}" "${3:-salta}"
