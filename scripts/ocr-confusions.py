#!/usr/bin/env python3
"""How tesseract misreads the characters of moves: counts from OCR runs, and table lines.

Reads the directories `scripts/ocr-repair.py` wrote (each with its `games.sgn` and the OCR text
of each page, `LEVEL-NNN.sgn`), aligns each page's text with its source's movetext character
for character (difflib's matching blocks, then an edit-distance alignment inside each block
that differs), and counts, for each character of a move (its digits, and its separator as
SEP), how often it was read as written, read as another character, or left out. Pages whose
text matches their source less than `--least-match` are left out (junk pages: their
alignment says nothing).

Prints `src/repair/confusions.tsv` lines for the confusions seen at least `--min` times, each
weight `--scale` times the confusion's share of its character's occurrences (at most `--cap`),
never below the weight the table already gives the pair, by its own line or its class's (a
confusion of print or handwriting the table lists stays as likely); and a digit's own weight
for being left out, scaled so that the table's `DIGIT NONE` weight is the average digit's. The
sources column names the counts.

Usage: scripts/ocr-confusions.py --table src/repair/confusions.tsv [--levels light,medium]
       [--min 30] [--scale 56] [--cap 0.6] DIR...
Not part of `cargo test`.
"""

import argparse
import collections
import difflib
import os
import re
import sys

MOVE = re.compile(r"\b\d{2,3}[-:]\d{2,3}\b")


def games_of(text):
    """The movetext of each game of an SGN file (as scripts/ocr-repair.py splits it)."""
    games = []
    for chunk in re.split(r"\n\s*\n(?=\[)", text.strip()):
        lines = chunk.strip().split("\n")
        games.append(" ".join(l for l in lines if not l.startswith("[")).strip())
    return games


def edit_alignment(a, b):
    """A least-edits alignment of `a` with `b`: pairs (index in a or None, char of b or None)."""
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    i, j, out = n, m, []
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i][j] == d[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            out.append((i - 1, b[j - 1]))
            i, j = i - 1, j - 1
        elif i > 0 and d[i][j] == d[i - 1][j] + 1:
            out.append((i - 1, None))
            i -= 1
        else:
            out.append((None, b[j - 1]))
            j -= 1
    return out[::-1]


# Blocks that differ larger than this (characters of source times text) are not aligned: a
# line lost or doubled, where a character alignment would only guess.
LARGEST_BLOCK = 4000


def aligned(src, text):
    """Each character of `src` (by index) with what `text` has for it: a char, or None."""
    pairs = []
    matcher = difflib.SequenceMatcher(None, src, text, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            pairs += [(i1 + k, text[j1 + k]) for k in range(i2 - i1)]
        elif op == "delete":
            pairs += [(i, None) for i in range(i1, i2)]
        elif op == "replace" and (i2 - i1) * (j2 - j1) <= LARGEST_BLOCK:
            pairs += [(i1 + i, c) for i, c in edit_alignment(src[i1:i2], text[j1:j2]) if i is not None]
    return matcher.ratio(), pairs


def count(dirs, levels, least_match):
    seen, left_out, read_as = collections.Counter(), collections.Counter(), collections.Counter()
    pages = 0
    for d in dirs:
        source = os.path.join(d, "games.sgn")
        if not os.path.isfile(source):
            sys.exit("%s: no games.sgn (give the directories scripts/ocr-repair.py wrote)" % d)
        games = games_of(open(source, encoding="utf-8").read())
        for level in levels:
            for g, movetext in enumerate(games):
                path = os.path.join(d, "%s-%03d.sgn" % (level, g + 1))
                if not os.path.exists(path):
                    continue
                lines = open(path, encoding="utf-8").read().split("\n")
                text = " ".join(" ".join(l for l in lines if not l.startswith("[")).split())
                src = " ".join(movetext.split())
                # Each character of a move: its digit, or SEP for its separator.
                meant = {}
                for m in MOVE.finditer(src):
                    for k in range(m.start(), m.end()):
                        meant[k] = "SEP" if src[k] in "-:" else src[k]
                match, pairs = aligned(src, text)
                if match < least_match:
                    continue
                pages += 1
                for i, w in pairs:
                    m = meant.get(i)
                    if m is None:
                        continue
                    seen[m] += 1
                    if w is None:
                        left_out[m] += 1
                    elif w != src[i] and not (m == "SEP" and w in "-:") and not w.isspace():
                        read_as[(m, w)] += 1
    return pages, seen, left_out, read_as


def table_weights(table):
    """The weight the table gives each listed pair (meant, written), later lines winning; the
    lines this script wrote (`ocr-align`) left out, so that it writes them anew."""
    weights = {}
    for line in table.splitlines():
        if not line.strip() or line.startswith("#") or "\tocr-align" in line:
            continue
        meant, written, weight, way = line.split("\t")[:4]
        weights[(meant, written)] = float(weight)
        if way == "=":
            weights[(written, meant)] = float(weight)
    return weights


def weight_now(weights, m, w):
    """The weight the table gives `m` read as `w`: its own line, else its class line's (a
    digit's neighbour in counting, any other digit, any other character)."""
    if (m, w) in weights:
        return weights[(m, w)]
    if m.isdigit() and w.isdigit():
        if abs(int(m) - int(w)) == 1:
            return weights.get(("NEXT", "NEXT"), 0.0)
        return weights.get(("DIGIT", "DIGIT"), 0.0)
    return weights.get(("ANY", "ANY"), 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--table", required=True)
    ap.add_argument("--levels", default="light,medium")
    ap.add_argument("--min", type=int, default=30)
    ap.add_argument("--scale", type=float, default=56.0)
    ap.add_argument("--cap", type=float, default=0.6)
    ap.add_argument("--least-match", type=float, default=0.6)
    args = ap.parse_args()
    pages, seen, left_out, read_as = count(args.dirs, args.levels.split(","), args.least_match)
    listed = table_weights(open(args.table, encoding="utf-8").read())
    print("# ocr-align: %d pages of %s (%s), each at least %.0f %% like its source"
          % (pages, ", ".join(os.path.basename(d.rstrip("/")) for d in args.dirs), args.levels,
             100 * args.least_match))
    for (m, w), n in sorted(read_as.items(), key=lambda x: (-x[1] / seen[x[0][0]], x[0])):
        if n < args.min:
            continue
        weight = min(args.cap, args.scale * n / seen[m])
        if weight <= weight_now(listed, m, w) + 1e-9:
            continue
        print("%s\t%s\t%.3f\t>\tocr-align (%d of %d)" % (m, w, weight, n, seen[m]))
    digits = [m for m in seen if m != "SEP"]
    average = sum(left_out[m] for m in digits) / max(1, sum(seen[m] for m in digits))
    base = listed.get(("DIGIT", "NONE"), 0.12)
    for m in sorted(digits) if average > 0 else []:
        weight = min(args.cap, base * left_out[m] / seen[m] / average)
        if left_out[m] >= args.min and weight > base + 0.005:
            print("%s\tNONE\t%.3f\t>\tocr-align (%d of %d)" % (m, weight, left_out[m], seen[m]))


if __name__ == "__main__":
    main()
