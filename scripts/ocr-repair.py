#!/usr/bin/env python3
"""Move lists through a real OCR engine, then `salta repair`.

Typesets the main line of each game (numeric notation, move numbers, the result) in several
period-like faces at 8-11 pt, renders it at 200-300 dpi, degrades the image lightly, moderately
and heavily, reads it with tesseract (Debian's `tesseract-ocr`, default English model, no
character list), puts the OCR text under the game's tags (as a historian types the header) and
runs `salta repair` with its default options on each record. A game counts as restored when the
repaired record's main line is the source's, move for move; raw when the OCR text already was.

Usage: scripts/ocr-repair.py GAMES.sgn OUT_DIR [--levels light,medium,heavy] [--limit N]
       [--salta target/release/salta] [--seed S] [--reuse]
GAMES.sgn: e.g. `salta generate --games 20 --seed 101`. Needs tesseract-ocr, python3-pil and the
font packages named in FACES (scripts/bench-ocr.sh installs them). Not part of `cargo test`.
"""

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import time

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

# Faces of the period's books and papers, from Debian font packages: (name, file).
FACES = [
    ("EB Garamond", "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Regular.otf"),
    ("Old Standard", "/usr/share/fonts/truetype/fonts-oldstandard/OldStandard-Regular.ttf"),
    ("Linux Libertine", "/usr/share/fonts/opentype/linux-libertine/LinLibertine_R.otf"),
    ("TeX Gyre Schola", "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreschola-regular.otf"),
    ("Goudy Bookletter", "/usr/share/fonts/opentype/sortsmill/GoudyBookletter1911.otf"),
    ("Blankenburg (Fraktur)", "/usr/share/fonts/truetype/blankenburg/Blankenburg_UNZ1A.ttf"),
]

# Degradation per level: blur radius (px at 300 dpi), speckle share, ink fade, binarising.
# Lost ink and dirt are Gaussian noise (sigma 40 around 128) cut at 128 + lost / 128 - dirt:
# 100 -> 0.6 % of the pixels, 70 -> 4 %, 50 -> 11 %.
LEVELS = {
    "light": dict(blur=0.3, lost=115, dirt=125, rotate=0.2, scale=1.0),
    "medium": dict(blur=0.9, lost=70, dirt=90, rotate=0.6, scale=0.8),
    "heavy": dict(blur=1.3, lost=50, dirt=75, rotate=1.0, scale=0.65),
}

MOVE = re.compile(r"\b(\d{2,3})[-:](\d{2,3})\b")


def find_face(path):
    if os.path.exists(path):
        return path
    # Debian moves files now and then: look the file name up.
    name = os.path.basename(path)
    for root, _, files in os.walk("/usr/share"):
        if name in files:
            return os.path.join(root, name)
    return None


def games_of(text):
    """The games of an SGN file: (tags text, movetext) each."""
    games = []
    for chunk in re.split(r"\n\s*\n(?=\[)", text.strip()):
        lines = chunk.strip().split("\n")
        tags = [l for l in lines if l.startswith("[")]
        moves = " ".join(l for l in lines if not l.startswith("["))
        games.append(("\n".join(tags), moves.strip()))
    return games


def main_line(movetext):
    """The moves of a movetext, comments and variations left out."""
    text = re.sub(r"\{[^}]*\}", " ", movetext)
    depth, out = 0, []
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return ["%s-%s" % m for m in MOVE.findall("".join(out))]


def render(movetext, face, pt, dpi, level, rng):
    size = max(8, round(pt / 72 * dpi))
    font = ImageFont.truetype(face, size)
    width = round(12 / 2.54 * dpi)  # a 12 cm column
    words, lines, line = movetext.split(), [], ""
    draw0 = ImageDraw.Draw(Image.new("L", (10, 10)))
    for w in words:
        trial = (line + " " + w).strip()
        if draw0.textlength(trial, font=font) > width and line:
            lines.append(line)
            line = w
        else:
            line = trial
    if line:
        lines.append(line)
    lead = round(size * 1.35)
    margin = round(0.5 / 2.54 * dpi)
    img = Image.new("L", (width + 2 * margin, lead * len(lines) + 2 * margin), 255)
    d = ImageDraw.Draw(img)
    for k, l in enumerate(lines):
        d.text((margin, margin + k * lead), l, font=font, fill=0)
    p = LEVELS[level]
    k = dpi / 300
    if p["rotate"]:
        img = img.rotate(rng.uniform(-p["rotate"], p["rotate"]), fillcolor=255, resample=Image.BICUBIC)
    if p["scale"] < 1:
        w, h = img.size
        img = img.resize((int(w * p["scale"]), int(h * p["scale"])), Image.BILINEAR)
        img = img.resize((w, h), Image.BILINEAR)
    img = img.filter(ImageFilter.GaussianBlur(p["blur"] * k))
    # Ink lost at random pixels, dirt at others, then the blur of the print again.
    noise = Image.effect_noise(img.size, 40)
    lost = noise.point(lambda v: 255 if v > 128 + p["lost"] else 0)
    img = ImageChops.lighter(img, lost)
    noise = Image.effect_noise(img.size, 40)
    dirt = noise.point(lambda v: 0 if v < 128 - p["dirt"] else 255)
    img = ImageChops.darker(img, dirt)
    img = img.filter(ImageFilter.GaussianBlur(0.5 * p["blur"] * k))
    return img


def ocr(img_path, dpi):
    out = subprocess.run(
        ["tesseract", img_path, "stdout", "--psm", "6", "--dpi", str(dpi)],
        capture_output=True,
        text=True,
    )
    return out.stdout


def repair(salta, record_path):
    """Runs salta repair; its output, exit code, wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([salta, "repair", record_path], capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out.stdout, out.stderr, out.returncode, wall, cpu


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1)))] if xs else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games")
    ap.add_argument("out")
    ap.add_argument("--levels", default="light,medium,heavy")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--salta", default="target/release/salta")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reuse", action="store_true",
                    help="repair the OCR text an earlier run left in OUT_DIR again (no typesetting, no OCR)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    faces = [(n, find_face(p)) for n, p in FACES]
    faces = [(n, p) for n, p in faces if p]
    if not faces:
        sys.exit("no face found: install the font packages (scripts/bench-ocr.sh)")
    games = games_of(open(args.games, encoding="utf-8").read())
    if args.limit:
        games = games[: args.limit]
    rng = random.Random(args.seed)
    summary = {}
    rows = []
    for level in args.levels.split(","):
        stats = dict(games=0, raw=0, restored=0, unrepaired=0, worse=0, wall=[], cpu=[], plies=0, prefix=0)
        for g, (tags, movetext) in enumerate(games):
            source = main_line(movetext)
            face_name, face = faces[g % len(faces)]
            pt = [8, 9, 10, 11][g % 4]
            dpi = [200, 250, 300][(g // 4) % 3]
            rec_path = os.path.join(args.out, "%s-%03d.sgn" % (level, g + 1))
            if args.reuse and os.path.exists(rec_path):
                lines = open(rec_path, encoding="utf-8").read().split("\n")
                text = "\n".join(l for l in lines if not l.startswith("["))
            else:
                img = render(movetext, face, pt, dpi, level, rng)
                img_path = os.path.join(args.out, "%s-%03d.png" % (level, g + 1))
                img.save(img_path, dpi=(dpi, dpi))
                text = ocr(img_path, dpi)
                record = tags + "\n\n" + text.strip() + "\n"
                open(rec_path, "w", encoding="utf-8").write(record)
            raw_ok = main_line(text) == source
            out, err, code, wall, cpu = repair(args.salta, rec_path)
            open(os.path.join(args.out, "%s-%03d.repaired.sgn" % (level, g + 1)), "w").write(out)
            open(os.path.join(args.out, "%s-%03d.report.txt" % (level, g + 1)), "w").write(err)
            # The main line of what repair wrote (comments hold the old moves: left out).
            mended = main_line("\n".join(l for l in out.split("\n") if not l.startswith("[")))
            ok = mended == source
            # How far the repaired main line follows the source: a finer measure than whole games.
            prefix = next((i for i, (a, b) in enumerate(zip(source, mended)) if a != b), min(len(source), len(mended)))
            stats["games"] += 1
            stats["raw"] += raw_ok
            stats["restored"] += ok
            stats["unrepaired"] += ": unrepaired:" in err or ": unreadable:" in err
            stats["worse"] += raw_ok and not ok
            stats["wall"].append(wall)
            stats["cpu"].append(cpu)
            stats["plies"] += len(source)
            stats["prefix"] += prefix
            rows.append(dict(level=level, game=g + 1, face=face_name, pt=pt, dpi=dpi, raw=raw_ok, restored=ok,
                             right_plies=prefix, plies=len(source), wall=round(wall, 4), cpu=round(cpu, 4)))
        n = max(stats["games"], 1)
        summary[level] = dict(
            games=stats["games"],
            raw_exact=stats["raw"],
            restored=stats["restored"],
            restored_share=round(100 * stats["restored"] / n, 1),
            raw_share=round(100 * stats["raw"] / n, 1),
            worse_than_raw=stats["worse"],
            # Plies restored before the repaired main line first leaves the source's, over all plies.
            plies_right_share=round(100 * stats["prefix"] / max(stats["plies"], 1), 1),
            left_unrepaired=stats["unrepaired"],
            wall_median_ms=round(1000 * percentile(stats["wall"], 0.5), 1),
            wall_max_ms=round(1000 * max(stats["wall"] or [0]), 1),
            cpu_median_ms=round(1000 * percentile(stats["cpu"], 0.5), 1),
            cpu_max_ms=round(1000 * max(stats["cpu"] or [0]), 1),
        )
        print(level, json.dumps(summary[level]), flush=True)
    json.dump(dict(summary=summary, games=rows), open(os.path.join(args.out, "summary.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
