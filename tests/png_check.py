#!/usr/bin/env python3
"""Is a PNG screenshot non-blank? (no imaging library needed)

Usage: png_check.py FILE [MIN_COLOURS [MIN_INK]]
Decodes an 8-bit, non-interlaced greyscale/RGB/RGBA PNG (what Chromium's
--screenshot writes) and counts its distinct colours and the share of
pixels that are not the background (the top-left pixel's colour).
Prints "WxH, N colours, X % ink". Exit: 0 at least MIN_COLOURS (default 3)
colours and MIN_INK (default 0.5) % ink; 1 blank; 2 unreadable or unsupported.
"""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(kind, line, prev, bpp):
    out = bytearray(line)
    for i in range(len(out)):
        a = out[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        out[i] = (out[i] + (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]) & 0xFF
    return out


def decode(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, colour, _, _, interlace = hdr
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or interlace or not channels:
        raise ValueError("unsupported PNG (depth %d, colour type %d)" % (depth, colour))
    raw, stride, prev, rows = zlib.decompress(idat), w * channels, bytearray(w * channels), []
    for y in range(h):
        start = y * (stride + 1)
        prev = unfilter(raw[start], raw[start + 1:start + 1 + stride], prev, channels)
        rows.append(bytes(prev))
    return w, h, channels, rows


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    min_colours = int(argv[2]) if len(argv) > 2 else 3
    min_ink = float(argv[3]) if len(argv) > 3 else 0.5
    try:
        with open(argv[1], "rb") as f:
            w, h, ch, rows = decode(f.read())
    except (OSError, ValueError, TypeError, zlib.error) as e:
        print(f"png_check: {argv[1]}: {e}", file=sys.stderr)
        return 2
    bg, colours, ink = rows[0][:ch], set(), 0
    for row in rows:
        for x in range(0, w * ch, ch):
            px = row[x:x + ch]
            colours.add(px)
            ink += px != bg
    share = 100.0 * ink / (w * h)
    print(f"{w}x{h}, {len(colours)} colours, {share:.1f} % ink")
    return 0 if len(colours) >= min_colours and share >= min_ink else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
