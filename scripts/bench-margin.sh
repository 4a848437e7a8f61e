#!/bin/sh
# Exact margin counts on two sets of losers' positions, each timed per position (wall clock and CPU
# time: p50/p90/p99/max), with how many stayed bounds, the distribution of (exact − Chebyshev sum)
# and the peak memory:
#   1. benches/data/margin-generate-1000.txt: the ends of 1,000 `salta generate` games
#      (made by scripts/make-margin-positions.sh);
#   2. the ends of GAMES greedy self-play games from FIRST_SEED (salta::rules::margin::greedy_game_end),
#      a harder, more scrambled set;
#   3. benches/data/margin-hard-42.txt: 42 of the first set's positions that were hardest, with
#      their counts proven by long searches (how many are proven within the budget is the figure).
# Usage: scripts/bench-margin.sh [GAMES] [FIRST_SEED]
set -eu
cd "$(dirname "$0")/.."
cargo build --release --example margin_stats
target="${CARGO_TARGET_DIR:-target}"
filter='^(positions|wall|cpu|exact minus)|Maximum resident|Elapsed'
echo "== salta generate: benches/data/margin-generate-1000.txt"
/usr/bin/time -v "$target/release/examples/margin_stats" benches/data/margin-generate-1000.txt 2>&1 \
  | grep -E "$filter"
echo "== greedy self-play: ${1:-1000} games from seed ${2:-1}"
/usr/bin/time -v "$target/release/examples/margin_stats" "${1:-1000}" "${2:-1}" 2>&1 \
  | grep -E "$filter"
echo "== hard set: benches/data/margin-hard-42.txt"
/usr/bin/time -v "$target/release/examples/margin_stats" benches/data/margin-hard-42.txt 2>&1 \
  | grep -E "$filter"
