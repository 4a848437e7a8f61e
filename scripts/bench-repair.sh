#!/usr/bin/env bash
# Transcription repair: top-1/top-3 accuracy per kind of slip (slips injected into the historical
# game and corpus/synthetic/salta.sgn, SEEDS seeds each) and the search's time per record
# (median, p99, max), then divan's timing of one search.
# Usage: scripts/bench-repair.sh [SEEDS]
set -euo pipefail
cd "$(dirname "$0")/.."
SALTA_REPAIR_SEEDS="${1:-5}" cargo bench --bench repair
