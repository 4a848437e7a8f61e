#!/usr/bin/env bash
# Reads a large synthetic SGN file with salta's streaming Reader (one thread) and compares with
# `grep -c .` on the same file.
#
#   scripts/bench-read.sh [MEGABYTES]        (default 200)
#
# The file (random legal playouts written as numeric SGN with tags, made by benches/read.rs) is
# kept at $SALTA_BENCH_FILE (default: $TMPDIR/salta-bench-read-<MB>mb.sgn) and reused if present.
# Prints the reader's speed by wall clock and by CPU time (the honest figure on a busy machine),
# grep's speed, and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."

megabytes=${1:-200}
file=${SALTA_BENCH_FILE:-${TMPDIR:-/tmp}/salta-bench-read-${megabytes}mb.sgn}
export SALTA_BENCH_MB=$megabytes SALTA_BENCH_FILE=$file SALTA_BENCH_REPORT=1

report=$(cargo bench --quiet --bench read 2>/dev/null)
echo "$report"
bytes=$(sed -n 's/^bytes=//p' <<<"$report")
reader_seconds=$(sed -n 's/^reader_seconds=//p' <<<"$report")
reader_cpu_seconds=$(sed -n 's/^reader_cpu_seconds=//p' <<<"$report")

# grep: best of three, wall clock and CPU (user + system) time. Its output goes to a file, not
# /dev/null: GNU grep stops at the first match when it sees /dev/null.
counted=$(mktemp)
trap 'rm -f "$counted"' EXIT
best_wall=999999
best_cpu=999999
for _ in 1 2 3; do
    start=$(date +%s.%N)
    cpu=$( { TIMEFORMAT='%U %S'; time grep -c . "$file" >"$counted"; } 2>&1 )
    end=$(date +%s.%N)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    cpu=$(awk -v u="${cpu% *}" -v s="${cpu#* }" 'BEGIN { print u + s }')
    best_wall=$(awk -v a="$best_wall" -v b="$wall" 'BEGIN { print (b < a ? b : a) }')
    best_cpu=$(awk -v a="$best_cpu" -v b="$cpu" 'BEGIN { print (b < a ? b : a) }')
done
echo "grep_lines=$(cat "$counted")"
awk -v bytes="$bytes" -v rs="$reader_seconds" -v rc="${reader_cpu_seconds:-0}" -v gw="$best_wall" -v gc="$best_cpu" 'BEGIN {
    mb = bytes / 1e6
    printf "grep_seconds=%.3f grep_cpu_seconds=%.3f\n", gw, gc
    printf "grep_mb_per_s=%.0f\n", mb / gw
    printf "ratio_wall=%.1f (grep is this many times faster, by wall clock)\n", rs / gw
    if (rc > 0 && gc > 0) printf "ratio_cpu=%.1f (by CPU time)\n", rc / gc
}'
