#!/usr/bin/env python3
"""Did a flame graph paint? Counts the pixels of the flame palette
(report_html_flame.c: red 215-254, green 80-189, blue 0-54, or the
kernel frames' 200-239, 120-169, 40) in two screenshots of one report,
with and without its flame graph, and says how many more the first has.

Usage: flame_check.py WITH.png WITHOUT.png MIN_PIXELS
Exit: 0 at least MIN_PIXELS more; 1 fewer; 2 unreadable.
"""
import sys
import zlib

from png_check import decode


def flame_pixels(path):
    with open(path, "rb") as f:
        w, _, ch, rows = decode(f.read())
    n = 0
    for row in rows:
        for x in range(0, w * ch, ch):
            r, g, b = row[x], row[x + 1], row[x + 2]
            n += (215 <= r <= 254 and 80 <= g <= 189 and b <= 54) or \
                 (200 <= r <= 239 and 120 <= g <= 169 and b == 40)
    return n


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with_px, without_px = flame_pixels(argv[1]), flame_pixels(argv[2])
    except (OSError, ValueError, TypeError, IndexError, zlib.error) as e:
        print(f"flame_check: {e}", file=sys.stderr)
        return 2
    more = with_px - without_px
    print(f"{more} flame-coloured pixels more with the flame graph ({with_px} vs {without_px})")
    return 0 if more >= int(argv[3]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
