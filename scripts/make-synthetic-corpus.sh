#!/usr/bin/env bash
# Regenerates corpus/synthetic/ with `salta generate` (the output is the same on every machine).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release
BIN="${CARGO_TARGET_DIR:-target}/release/salta"
OUT=corpus/synthetic
mkdir -p "$OUT"
"$BIN" generate --games 24 --seed 1 -o "$OUT/salta.sgn"
"$BIN" generate --games 8 --seed 1000 --move-limit 100 -o "$OUT/salta-move-limit.sgn"
"$BIN" generate --games 8 --seed 2000 --rules winther -o "$OUT/winther.sgn"
"$BIN" generate --games 12 --seed 3000 --rules pyramid -o "$OUT/pyramid.sgn"
"$BIN" generate --games 6 --seed 4000 --rules "salta; goal=rotation" -o "$OUT/goal-rotation.sgn"
"$BIN" generate --games 6 --seed 5000 --rules "salta; jumps=any" --move-limit 120 -o "$OUT/jumps-any.sgn"
# Tempo draws are rare (about 2 games in 100); these seeds give them.
for seed in 30 60 130 171; do
  "$BIN" generate --games 1 --seed "$seed" -o "$OUT/.tempo-$seed.sgn"
done
awk 'FNR == 1 && NR > 1 { print "" } { print }' "$OUT"/.tempo-*.sgn > "$OUT/salta-tempo-draws.sgn"
rm -f "$OUT"/.tempo-*.sgn
"$BIN" check --quiet "$OUT"
