#!/usr/bin/env bash
# Rebuilds assets/fonts/: DejaVu Sans (regular, bold, oblique) cut down to the characters a printed
# diagram or game uses (Basic Latin, Latin-1, Latin Extended-A, dashes, quotes, arrows, ×, ½), so a
# PDF looks the same on every machine and embeds its fonts. Needs fonttools (pip install fonttools)
# and the Debian package fonts-dejavu-core.
set -euo pipefail
cd "$(dirname "$0")/.."
src=/usr/share/fonts/truetype/dejavu
out=assets/fonts
unicodes="U+0020-007E,U+00A0-017F,U+2010-2027,U+2030-203A,U+2190-2193,U+2212,U+00D7,U+00BD"
for face in DejaVuSans DejaVuSans-Bold DejaVuSans-Oblique; do
  pyftsubset "$src/$face.ttf" --unicodes="$unicodes" --layout-features='kern,liga' \
    --no-hinting --desubroutinize --output-file="$out/$face-subset.ttf"
done
cp /usr/share/doc/fonts-dejavu-core/copyright "$out/LICENSE-DejaVu.txt"
ls -l "$out"
