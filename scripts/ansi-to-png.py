#!/usr/bin/env python3
"""Renders terminal captures (`tmux capture-pane -e -p`: text with SGR colour codes) as one PNG,
the captures stacked with a caption above each. Needs Pillow and the DejaVu fonts.

Usage: ansi-to-png.py OUT.png "CAPTION" CAPTURE.txt ["CAPTION" CAPTURE.txt ...]
"""
import re
import sys
from PIL import Image, ImageDraw, ImageFont

MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
WIDE = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = 13
CELL_W, CELL_H = 8, 16
# The xterm 256-colour palette's first 16, a dark terminal's.
BASE = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188),
        (17, 168, 205), (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139),
        (245, 245, 67), (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255)]
FG, BG = (220, 220, 220), (24, 24, 28)


def colour256(n):
    if n < 16:
        return BASE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    grey = 8 + (n - 232) * 10
    return (grey, grey, grey)


def cells(text):
    """Each line as a list of (char, fg, bg, bold)."""
    lines = []
    fg, bg, bold, reverse = FG, BG, False, False
    for raw in text.split("\n"):
        line = []
        for part in re.split(r"(\x1b\[[0-9;:]*m)", raw):
            if part.startswith("\x1b["):
                codes = [int(c) if c.isdigit() else 0 for c in re.split("[;:]", part[2:-1]) or ["0"]]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        fg, bg, bold, reverse = FG, BG, False, False
                    elif c == 1:
                        bold = True
                    elif c == 22:
                        bold = False
                    elif c == 7:
                        reverse = True
                    elif c == 27:
                        reverse = False
                    elif 30 <= c <= 37:
                        fg = BASE[c - 30]
                    elif 90 <= c <= 97:
                        fg = BASE[c - 90 + 8]
                    elif 40 <= c <= 47:
                        bg = BASE[c - 40]
                    elif 100 <= c <= 107:
                        bg = BASE[c - 100 + 8]
                    elif c == 39:
                        fg = FG
                    elif c == 49:
                        bg = BG
                    elif c in (38, 48) and i + 1 < len(codes):
                        if codes[i + 1] == 5 and i + 2 < len(codes):
                            value = colour256(codes[i + 2])
                            i += 2
                        elif codes[i + 1] == 2 and i + 4 < len(codes):
                            value = tuple(codes[i + 2:i + 5])
                            i += 4
                        else:
                            value = FG if c == 38 else BG
                        if c == 38:
                            fg = value
                        else:
                            bg = value
                    i += 1
                continue
            for ch in part:
                f, b = (bg, fg) if reverse else (fg, bg)
                line.append((ch, f, b, bold))
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def main():
    out, pairs = sys.argv[1], sys.argv[2:]
    mono = ImageFont.truetype(MONO, SIZE)
    wide = ImageFont.truetype(WIDE, SIZE)
    caption_font = ImageFont.truetype(WIDE, SIZE + 1)
    panels = []
    for caption, path in zip(pairs[0::2], pairs[1::2]):
        panels.append((caption, cells(open(path, encoding="utf-8").read())))
    cols = max(len(l) for _, p in panels for l in p)
    rows = sum(len(p) + 2 for _, p in panels)
    img = Image.new("RGB", (cols * CELL_W + 16, rows * CELL_H + 8), (250, 250, 250))
    draw = ImageDraw.Draw(img)
    y = 4
    for caption, lines in panels:
        draw.text((8, y + 2), caption, font=caption_font, fill=(30, 30, 30))
        y += int(CELL_H * 1.6)
        draw.rectangle([8, y, 8 + cols * CELL_W, y + len(lines) * CELL_H], fill=BG)
        for row, line in enumerate(lines):
            for col, (ch, fg, bg, bold) in enumerate(line):
                x0, y0 = 8 + col * CELL_W, y + row * CELL_H
                if bg != BG:
                    draw.rectangle([x0, y0, x0 + CELL_W, y0 + CELL_H], fill=bg)
                if ch.strip():
                    font = mono if mono.getmask(ch).getbbox() is not None and ord(ch) < 0x2500 else wide
                    draw.text((x0, y0 + 1), ch, font=font, fill=fg)
        y += len(lines) * CELL_H + int(CELL_H * 0.4)
    img.save(out, optimize=True)


main()
