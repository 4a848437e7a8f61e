#!/usr/bin/env bash
# Move lists through a real OCR engine, then `salta repair` (scripts/ocr-repair.py): typeset in
# six period-like faces (EB Garamond to the Fraktur Blankenburg), 8-11 pt, 200-300 dpi, degraded
# lightly, moderately and heavily, read by tesseract, repaired with default options; counts the
# games restored to the source's main line per level, beside the raw OCR text.
# Usage: scripts/bench-ocr.sh [GAMES] [SEED] [OUT]   (fresh games: `salta generate` from SEED)
# Installs (Debian) tesseract-ocr, python3-pil and the font packages when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${1:-20}"; SEED="${2:-9001}"; OUT="${3:-target/ocr-bench}"
if ! command -v tesseract >/dev/null || ! python3 -c "import PIL" 2>/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr python3-pil \
    fonts-ebgaramond fonts-blankenburg fonts-oldstandard fonts-linuxlibertine fonts-texgyre \
    fonts-goudybookletter >/dev/null
fi
cargo build --release --quiet
mkdir -p "$OUT"
target/release/salta generate --games "$GAMES" --seed "$SEED" -o "$OUT/games.sgn"
/usr/bin/python3 scripts/ocr-repair.py "$OUT/games.sgn" "$OUT" --salta target/release/salta
