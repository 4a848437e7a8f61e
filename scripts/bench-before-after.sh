#!/usr/bin/env bash
# Two builds of salta timed against each other and against `grep -c .` in the same rounds, on the
# archive scripts/bench-check.sh uses: reading (examples/count_games), `check --threads 1` and
# `check --threads 2`. On a VM whose speed swings from minute to minute, rounds that run every
# program back to back compare runs made in the same state of the machine.
# Usage: scripts/bench-before-after.sh OLD_DIR NEW_DIR [ROUNDS] [MB]   (defaults: 12 200)
# OLD_DIR and NEW_DIR each hold a release build's `salta` and `examples/count_games`, e.g. for an
# older commit: git worktree add /tmp/old REV && (cd /tmp/old && cargo build --release --bin salta
# --example count_games); then OLD_DIR=/tmp/old/target/release, NEW_DIR=target/release.
set -euo pipefail
OLD=${1:?usage: bench-before-after.sh OLD_DIR NEW_DIR [ROUNDS] [MB]}
NEW=${2:?usage: bench-before-after.sh OLD_DIR NEW_DIR [ROUNDS] [MB]}
ROUNDS=${3:-12}
MB=${4:-200}
for dir in "$OLD" "$NEW"; do
  for program in salta examples/count_games; do
    [ -x "$dir/$program" ] || { echo "no $dir/$program" >&2; exit 2; }
  done
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"$NEW/salta" generate --games 500 --seed 1 --no-margins -o "$DIR/base.sgn"
: > "$DIR/big.sgn"
while [ "$(stat -c %s "$DIR/big.sgn")" -lt $(( MB * 1000000 )) ]; do
  cat "$DIR/base.sgn" >> "$DIR/big.sgn"
  printf '\n' >> "$DIR/big.sgn"
done
seconds() { # command... : wall seconds of one run (into a file: grep stops early on /dev/null)
  local start end
  start=$(date +%s.%N)
  "$@" > "$DIR/out"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}
F="$DIR/big.sgn"
for _ in $(seq "$ROUNDS"); do
  echo "$(seconds grep -c . "$F") \
$(seconds "$OLD/examples/count_games" "$F") $(seconds "$NEW/examples/count_games" "$F") \
$(seconds "$OLD/salta" check --margins never --threads 1 "$F") \
$(seconds "$NEW/salta" check --margins never --threads 1 "$F") \
$(seconds "$OLD/salta" check --margins never --threads 2 "$F") \
$(seconds "$NEW/salta" check --margins never --threads 2 "$F")"
done > "$DIR/rounds"
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
column() { awk -v c="$1" '{ print $c }' "$DIR/rounds" | median; }
ratio() { awk -v a="$1" -v b="$2" '{ printf "%.4f\n", $a / $b }' "$DIR/rounds" | median | xargs printf "%.2f"; }
echo "rounds: $ROUNDS on $(stat -c %s "$F") bytes; medians in seconds, ratios the rounds' medians"
echo "grep -c .                 : $(column 1)"
echo "reading, old -> new       : $(column 2) -> $(column 3) (to grep: $(ratio 2 1)x -> $(ratio 3 1)x)"
echo "check 1 worker, old -> new: $(column 4) -> $(column 5) (to grep: $(ratio 4 1)x -> $(ratio 5 1)x)"
echo "check 2 workers, old -> new: $(column 6) -> $(column 7) (speed-up over 1 worker: $(ratio 4 6)x -> $(ratio 5 7)x)"
echo "rounds (grep, reading old new, check1 old new, check2 old new):"
sed 's/^/  /' "$DIR/rounds"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
