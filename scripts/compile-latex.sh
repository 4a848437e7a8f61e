#!/usr/bin/env bash
# Sets the shipped historical game for print as LaTeX (with a diagram every 20 moves) and compiles
# it with pdflatex, to show the document needs nothing but TikZ; then the same game as a fragment
# (`--fragment`) \input into a book that sets the games its own way. Needs pdflatex with TikZ
# (Debian: texlive-latex-base texlive-latex-recommended texlive-pictures).
# Usage: scripts/compile-latex.sh [SALTA]
set -euo pipefail
cd "$(dirname "$0")/.."
salta=${1:-target/release/salta}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
game=corpus/historical/krone-grotewold-1901.sgn
"$salta" convert "$game" --to latex --diagram-every 20 -o "$work/game.tex"
"$salta" convert "$game" --to latex --fragment --diagram-every 20 -o "$work/games.tex"
cat > "$work/book.tex" <<'TEX'
\documentclass[11pt]{book}
\usepackage{tikz}
\newcommand{\saltagame}[1]{\chapter{#1}}
\newcommand{\saltacomment}[1]{\emph{#1}}
\begin{document}
\input{games}
\end{document}
TEX
for doc in game book; do
  (cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error "$doc.tex" > "$doc.out" 2>&1) || {
    tail -40 "$work/$doc.out" >&2
    echo "pdflatex failed on $doc.tex" >&2
    exit 1
  }
  pages=$(grep -o "Output written on $doc.pdf ([0-9]* page" "$work/$doc.log" | grep -o '[0-9]* page')
  echo "LaTeX $doc compiled: $pages(s)"
done
