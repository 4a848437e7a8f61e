#!/usr/bin/env bash
# Transcription repair: top-1/top-3 accuracy per kind of slip, ties and top-1-or-tied (slips
# injected into the historical game and corpus/synthetic/salta.sgn, SEEDS seeds each from
# FIRST), the search's time per record (median, p99, max), then divan's timing of one search.
# Usage: scripts/bench-repair.sh [SEEDS] [FIRST]   (the search was developed on seeds 0-4:
# report seeds 5-9 too, scripts/bench-repair.sh 5 5)
set -euo pipefail
cd "$(dirname "$0")/.."
SALTA_REPAIR_SEEDS="${1:-5}" SALTA_REPAIR_FIRST_SEED="${2:-0}" cargo bench --bench repair
