#!/usr/bin/env bash
# Sets the shipped historical game for print as LaTeX (with a diagram every 20 moves) and compiles
# it with pdflatex, to show the document needs nothing but TikZ. Needs pdflatex with TikZ (Debian:
# texlive-latex-base texlive-latex-recommended texlive-pictures). Usage: scripts/compile-latex.sh [SALTA]
set -euo pipefail
cd "$(dirname "$0")/.."
salta=${1:-target/release/salta}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$salta" convert corpus/historical/krone-grotewold-1901.sgn --to latex --diagram-every 20 -o "$work/game.tex"
(cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error game.tex > game.out 2>&1) || {
  tail -40 "$work/game.out" >&2
  echo "pdflatex failed on the generated document" >&2
  exit 1
}
pages=$(grep -o 'Output written on game.pdf ([0-9]* page' "$work/game.log" | grep -o '[0-9]* page')
echo "LaTeX document compiled: $pages(s)"
