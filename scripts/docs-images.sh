#!/usr/bin/env bash
# Makes every image in docs/ from the code: the diagrams (midgame.svg/.png, print-*cm.png), the
# printed page (print-game-page.png) and the viewer at a laptop's and a phone's size (viewer.png,
# viewer-phone.png). Needs pdftoppm (poppler-utils) and Debian's chromium; optipng if present.
# Usage: scripts/docs-images.sh [path/to/salta]
set -euo pipefail
cd "$(dirname "$0")/.."
salta=${1:-target/debug/salta}
[ -x "$salta" ] || cargo build --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

setup='G/11,32,13,23,25,31,22,43,24,35,62,61,53,65,64/105,104,103,102,91,85,94,83,92,51,33,21,55,52,41/21'
common=(--setup "$setup" --coordinates both --last-move g5-e3)
"$salta" diagram "${common[@]}" --arrow f2-d4 --caption 'Green to move must jump f2:d4' \
  --format svg -o docs/midgame.svg
"$salta" diagram "${common[@]}" --arrow f2-d4 --caption 'Green to move must jump f2:d4' \
  --format png --dpi 150 -o docs/midgame.png
for width in 5 7.5 11; do
  "$salta" diagram "${common[@]}" --caption 'After 21… g5:e3, Green must jump f2:d4' \
    --width "${width}cm" --dpi 200 --format png -o "docs/print-${width}cm.png"
done

# The first page of the printed historical game, as a reader sees it at 90 dpi.
"$salta" convert docs/print-example.sgn --to pdf --diagram-every 40 -o "$tmp/game.pdf"
pdftoppm -r 90 -png -f 1 -l 1 -singlefile "$tmp/game.pdf" docs/print-game-page

# The viewer after opening a link to ply 150 of the historical game, at a laptop's and a phone's
# size, and in a dark colour scheme at the phone's.
"$salta" convert corpus/historical/krone-grotewold-1901.sgn --to html -o "$tmp/krone.html"
shot() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$1" \
    --window-size="$2" "${@:3}" "file://$tmp/krone.html#g1p150" 2>/dev/null
}
shot docs/viewer.png 1280,800
shot docs/viewer-phone.png 390,844
shot docs/viewer-phone-dark.png 390,844 --force-dark-mode --blink-settings=preferredColorScheme=0

if command -v optipng >/dev/null 2>&1; then
  optipng -quiet -o5 docs/*.png
fi
ls -l docs/*.png docs/*.svg
