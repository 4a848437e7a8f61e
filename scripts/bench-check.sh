#!/usr/bin/env bash
# Reading and `salta check` on a large synthetic archive, each against `grep -c .` on the same file
# in the same run (issue #17's ratios): the reading-only program (examples/count_games.rs: games and
# moves counted, nothing replayed), `salta check` with one and two worker threads, and peak memory
# (RSS) for a small and a large archive.
# Usage: scripts/bench-check.sh [MB] [RUNS]   (defaults: 200 3). Needs GNU time (/usr/bin/time).
# The archive is 500 distinct generated games (no Margin tags) repeated until it reaches MB
# megabytes; it is checked with `--margins never` (replay only) and, on the distinct games, with
# every margin counted. "1 worker" is one replaying thread; the file-cutting thread and the printing
# main thread run beside it, so the CPU-time figure (all threads) is the honest one-core measure.
set -euo pipefail
cd "$(dirname "$0")/.."
MB=${1:-200}
RUNS=${2:-3}
cargo build --quiet --release --bin salta --example count_games
BIN="${CARGO_TARGET_DIR:-target}/release/salta"
READ="${CARGO_TARGET_DIR:-target}/release/examples/count_games"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

"$BIN" generate --games 500 --seed 1 --no-margins -o "$DIR/base.sgn"
make_archive() { # NAME MB
  : > "$DIR/$1"
  while [ "$(stat -c %s "$DIR/$1")" -lt $(( $2 * 1000000 )) ]; do
    cat "$DIR/base.sgn" >> "$DIR/$1"
    printf '\n' >> "$DIR/$1"
  done
}
make_archive big.sgn "$MB"
make_archive small.sgn $(( MB / 10 ))
BYTES=$(stat -c %s "$DIR/big.sgn")

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
seconds() { # command... : wall seconds of one run
  local start end
  start=$(date +%s.%N)
  # Into a file, not /dev/null: GNU grep stops at the first match when its output is discarded.
  "$@" > "$DIR/out"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}
cpu_seconds() { # command... : CPU seconds (user + system, all threads) of one run
  /usr/bin/time -f "%U %S" -o "$DIR/time" "$@" > "$DIR/out"
  awk '{ printf "%.3f\n", $1 + $2 }' "$DIR/time"
}
mbps() { awk -v b="$BYTES" -v s="$1" 'BEGIN { printf "%.1f", b / 1000000 / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "archive: $BYTES bytes ($(grep -c '^\[Event' "$DIR/big.sgn") games)"
GREP=$(for _ in $(seq "$RUNS"); do seconds grep -c . "$DIR/big.sgn"; done | median)
READING=$(for _ in $(seq "$RUNS"); do seconds "$READ" "$DIR/big.sgn"; done | median)
COUNTED=$(cat "$DIR/out")
# CPU time (user + system) is the steadier measure on a shared machine: the ratios by both.
GREP_CPU=$(for _ in $(seq "$RUNS"); do cpu_seconds grep -c . "$DIR/big.sgn"; done | median)
READING_CPU=$(for _ in $(seq "$RUNS"); do cpu_seconds "$READ" "$DIR/big.sgn"; done | median)
ONE=$(for _ in $(seq "$RUNS"); do seconds "$BIN" check --margins never --threads 1 "$DIR/big.sgn"; done | median)
ONE_CPU=$(for _ in $(seq "$RUNS"); do cpu_seconds "$BIN" check --margins never --threads 1 "$DIR/big.sgn"; done | median)
TWO=$(for _ in $(seq "$RUNS"); do seconds "$BIN" check --margins never --threads 2 "$DIR/big.sgn"; done | median)
echo "grep -c .            : median ${GREP} s, $(mbps "$GREP") MB/s"
echo "grep -c ., CPU       : median ${GREP_CPU} s of CPU time"
echo "reading (count_games): median ${READING} s, $(mbps "$READING") MB/s (ratio to grep: $(ratio "$READING" "$GREP"); ${COUNTED}: games moves errors)"
echo "reading, CPU         : median ${READING_CPU} s of CPU time (ratio to grep's CPU time: $(ratio "$READING_CPU" "$GREP_CPU"))"
echo "check, 1 worker      : median ${ONE} s, $(mbps "$ONE") MB/s (ratio to grep: $(ratio "$ONE" "$GREP"))"
echo "check, 1 worker, CPU: median ${ONE_CPU} s of CPU time (all threads), $(mbps "$ONE_CPU") MB per CPU-second (ratio to grep's CPU time: $(ratio "$ONE_CPU" "$GREP_CPU"))"
echo "check, 2 workers     : median ${TWO} s, $(mbps "$TWO") MB/s (speed-up over 1 worker: $(ratio "$ONE" "$TWO"))"
for f in small.sgn big.sgn; do
  RSS=$(/usr/bin/time -f %M "$BIN" check --margins never "$DIR/$f" 2>&1 >/dev/null | tail -1)
  READ_RSS=$(/usr/bin/time -f %M "$READ" "$DIR/$f" 2>&1 >/dev/null | tail -1)
  echo "peak memory, $(( $(stat -c %s "$DIR/$f") / 1000000 )) MB archive: check ${RSS} KB, reading ${READ_RSS} KB"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
MARGINS=$(seconds "$BIN" check --margins always --threads 1 "$DIR/base.sgn")
echo "check with every margin counted, 1 worker, 500 distinct games: ${MARGINS} s"
