#!/usr/bin/env bash
# Transcription repair: per kind of slip, the first break's readings (top-1/top-3, ties) and the
# record mended whole as `salta repair` mends it by default (restored); two slips a record, side
# by side and far apart (plies left out and doubled among them); the time per record mended
# (wall clock; CPU time of each run); then divan's timing of one search.
# Usage: scripts/bench-repair.sh [SEEDS] [FIRST] [GAMES] [GAMES_SEED]
#   SEEDS seeds of the injector from FIRST, into the corpus's records (the historical game and
#   corpus/synthetic/salta.sgn), or with GAMES > 0 into GAMES fresh games that `salta generate`
#   makes from GAMES_SEED (records the search was never tuned on: report those).
# The search was developed on the corpus, seeds 0-4: e.g. scripts/bench-repair.sh 1 7 24 5000.
set -euo pipefail
cd "$(dirname "$0")/.."
SALTA_REPAIR_SEEDS="${1:-5}" SALTA_REPAIR_FIRST_SEED="${2:-0}" \
  SALTA_REPAIR_GAMES="${3:-0}" SALTA_REPAIR_GAMES_SEED="${4:-0}" cargo bench --bench repair
