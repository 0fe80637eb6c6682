#!/usr/bin/python3
"""Check a PNG written by scripts/plot_stats.py or scripts/render.py.

    png_check.py FILE WIDTH HEIGHT [--body R,G,B]

Decodes the PNG itself (8-bit RGB or RGBA, not interlaced: what matplotlib's
Agg and VTK write), checks its size, that its pixels are not all one colour
and, with --body, that the centre of the image shows a coloured body: at
least 20 % of the pixels of the central region differ from the background
R,G,B and are clearly coloured (not the grey of the obstacles, not text).
Prints one line; exit status 0 if every check passes, 1 otherwise.
"""

import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG (bad signature)")
    pos, chunks = 8, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = data[pos + 8 + length:pos + 12 + length]
        if len(body) != length or len(crc) != 4:
            raise ValueError("truncated %s chunk" % kind.decode("latin-1"))
        if struct.unpack(">I", crc)[0] != zlib.crc32(kind + body) & 0xffffffff:
            raise ValueError("bad CRC in %s chunk" % kind.decode("latin-1"))
        chunks.append((kind, body))
        pos += 12 + length
        if kind == b"IEND":
            break
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        raise ValueError("IHDR or IEND missing")
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if depth != 8 or ctype not in (2, 6) or interlace != 0:
        raise ValueError("unexpected format: depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
    stride = w * bpp
    if len(raw) != h * (stride + 1):
        raise ValueError("image data has %d bytes, expected %d" % (len(raw), h * (stride + 1)))
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
            elif ftype != 0:
                raise ValueError("bad filter type %d in row %d" % (ftype, y))
        rows.append(line)
        prev = line
    pixel = lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])  # noqa: E731
    return w, h, pixel


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--body"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    path, want_w, want_h = argv[0], int(argv[1]), int(argv[2])
    try:
        w, h, pixel = decode(path)
    except (OSError, ValueError, zlib.error) as e:
        print("%s: %s" % (path, e))
        return 1
    if (w, h) != (want_w, want_h):
        print("%s: %dx%d, expected %dx%d" % (path, w, h, want_w, want_h))
        return 1
    colours = set()
    for y in range(0, h, 3):
        for x in range(0, w, 3):
            colours.add(pixel(x, y))
    if len(colours) < 10:
        print("%s: only %d distinct colours: a blank image" % (path, len(colours)))
        return 1
    msg = "%s: %dx%d, %d colours" % (path, w, h, len(colours))
    if len(argv) == 5:
        bg = tuple(int(v) for v in argv[4].split(","))
        x0, x1, y0, y1 = int(0.35 * w), int(0.6 * w), int(0.35 * h), int(0.65 * h)
        n = differ = coloured = 0
        for y in range(y0, y1):
            for x in range(x0, x1):
                p = pixel(x, y)
                n += 1
                if max(abs(a - b) for a, b in zip(p, bg)) > 30:
                    differ += 1
                    if max(p) - min(p) > 40:
                        coloured += 1
        msg += ", centre: %.0f %% not background, %.0f %% coloured" % (100.0 * differ / n, 100.0 * coloured / n)
        if coloured < 0.2 * n:
            print(msg + ": no body in the centre of the image")
            return 1
    print(msg)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
