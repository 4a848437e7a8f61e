#!/usr/bin/env bash
# Reading and `salta check` on a large synthetic archive, each against `grep -c .` on the same file
# in the same run (issue #17's ratios): the reading-only program (examples/count_games.rs: games and
# moves counted, nothing replayed), `salta check` with one and two worker threads, and peak memory
# (RSS) for a small and a large archive.
# Usage: scripts/bench-check.sh [MB] [RUNS]   (defaults: 200 3). Needs GNU time (/usr/bin/time).
# RUNS rounds, each running every program once back to back (every other round in the reverse
# order); a ratio is the median of the rounds'.
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
# grep's CPU time on one pass (0.1 s) is near `time`'s 10 ms resolution: ten passes timed as one.
GREP_TEN='for _ in 1 2 3 4 5 6 7 8 9 10; do grep -c . "$1"; done'
# Rounds: each measures every program once, back to back, so that a ratio compares runs made in
# the same state of the machine (a shared VM's speed can change between one minute and the next);
# every other round runs them in the reverse order, so that a drift in the machine's speed within
# a round favours neither side of a ratio. Each ratio is the median of the rounds' ratios, each
# time the median of the rounds' times.
for round in $(seq "$RUNS"); do
  measures=(grep reading check1 check2 grep_cpu reading_cpu check1_cpu)
  order=("${measures[@]}")
  if (( round % 2 == 0 )); then
    order=(); for (( i = ${#measures[@]} - 1; i >= 0; i-- )); do order+=("${measures[i]}"); done
  fi
  declare -A took=()
  for measure in "${order[@]}"; do
    case $measure in
      grep) took[$measure]=$(seconds grep -c . "$DIR/big.sgn") ;;
      reading) took[$measure]=$(seconds "$READ" "$DIR/big.sgn") ;;
      check1) took[$measure]=$(seconds "$BIN" check --margins never --threads 1 "$DIR/big.sgn") ;;
      check2) took[$measure]=$(seconds "$BIN" check --margins never --threads 2 "$DIR/big.sgn") ;;
      grep_cpu) took[$measure]=$(cpu_seconds bash -c "$GREP_TEN" grep_ten "$DIR/big.sgn" \
        | awk '{ printf "%.3f", $1 / 10 }') ;;
      reading_cpu) took[$measure]=$(cpu_seconds "$READ" "$DIR/big.sgn") ;;
      check1_cpu) took[$measure]=$(cpu_seconds "$BIN" check --margins never --threads 1 "$DIR/big.sgn") ;;
    esac
  done
  line=""
  for measure in "${measures[@]}"; do line+="${took[$measure]} "; done
  echo "${line% }"
  unset took
done > "$DIR/rounds"
COUNTED=$("$READ" "$DIR/big.sgn")
column() { awk -v c="$1" '{ print $c }' "$DIR/rounds" | median; }
column_ratio() { awk -v a="$1" -v b="$2" '{ printf "%.4f\n", $a / $b }' "$DIR/rounds" | median | xargs printf "%.2f"; }
GREP=$(column 1) READING=$(column 2) ONE=$(column 3) TWO=$(column 4)
GREP_CPU=$(column 5) READING_CPU=$(column 6) ONE_CPU=$(column 7)
echo "grep -c .            : median ${GREP} s, $(mbps "$GREP") MB/s"
echo "grep -c ., CPU       : median ${GREP_CPU} s of CPU time (ten passes timed together)"
echo "reading (count_games): median ${READING} s, $(mbps "$READING") MB/s (ratio to grep: $(column_ratio 2 1); ${COUNTED}: games moves errors)"
echo "reading, CPU         : median ${READING_CPU} s of CPU time (ratio to grep's CPU time: $(column_ratio 6 5))"
echo "check, 1 worker      : median ${ONE} s, $(mbps "$ONE") MB/s (ratio to grep: $(column_ratio 3 1))"
echo "check, 1 worker, CPU: median ${ONE_CPU} s of CPU time (all threads), $(mbps "$ONE_CPU") MB per CPU-second (ratio to grep's CPU time: $(column_ratio 7 5))"
SPREAD=$(awk '{ printf "%.4f\n", $3 / $4 }' "$DIR/rounds" | sort -g | awk '{ a[NR] = $1 } END { printf "%.2f-%.2f", a[1], a[NR] }')
echo "check, 2 workers     : median ${TWO} s, $(mbps "$TWO") MB/s (speed-up over 1 worker: $(column_ratio 3 4); rounds ${SPREAD})"
echo "rounds (wall s: grep reading check1 check2; CPU s: grep reading check1):"
sed 's/^/  /' "$DIR/rounds"
for f in small.sgn big.sgn; do
  RSS=$(/usr/bin/time -f %M "$BIN" check --margins never "$DIR/$f" 2>&1 >/dev/null | tail -1)
  READ_RSS=$(/usr/bin/time -f %M "$READ" "$DIR/$f" 2>&1 >/dev/null | tail -1)
  echo "peak memory, $(( $(stat -c %s "$DIR/$f") / 1000000 )) MB archive: check ${RSS} KB, reading ${READ_RSS} KB"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
MARGINS=$(seconds "$BIN" check --margins always --threads 1 "$DIR/base.sgn")
echo "check with every margin counted, 1 worker, 500 distinct games: ${MARGINS} s"
