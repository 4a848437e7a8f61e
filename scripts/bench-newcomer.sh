#!/usr/bin/env bash
# The newcomer's wait: `cargo test` on a fresh clone with an empty target folder, for each revision
# given (default: a071516, the last commit with thirteen integration-test binaries, then main, with
# one), one after the other so that both run under the same conditions.
#
#   scripts/bench-newcomer.sh [REVISION...]
#
# Crates already in ~/.cargo/registry are not downloaded again: the figure is building and testing.
# Prints, per revision, the wall-clock and CPU time of the whole `cargo test` and the load average
# at start and end (on a shared machine, quote both revisions from the same run).
set -euo pipefail
cd "$(dirname "$0")/.."

repo=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/salta-newcomer.XXXXXX")
trap 'rm -rf "$work"' EXIT
revisions=("$@")
[ ${#revisions[@]} -gt 0 ] || revisions=(a071516 main)

for rev in "${revisions[@]}"; do
  git clone --quiet "$repo" "$work/clone"
  git -C "$work/clone" checkout --quiet "$rev"
  start_load=$(cut -d' ' -f1 /proc/loadavg)
  if (cd "$work/clone" && CARGO_TARGET_DIR="$work/target" \
      /usr/bin/time -o "$work/time" -f "%e s wall, %U s user, %S s system" \
      cargo test --quiet >"$work/log" 2>&1); then
    status=passed
  else
    status="FAILED (see the log: rerun by hand)"
  fi
  end_load=$(cut -d' ' -f1 /proc/loadavg)
  echo "$rev: $(cat "$work/time"); tests $status; load $start_load at start, $end_load at end"
  rm -rf "$work/clone" "$work/target"
done
