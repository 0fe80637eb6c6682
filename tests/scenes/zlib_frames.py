#!/usr/bin/env python3
"""Rewrite ipcc's raw VTK XML files as zlib-compressed ones, independently of
src/vtk.c (for tests/scenes/compare_test.sh): VTK's vtkZLibDataCompressor
layout, per appended array [nblocks][blocksize][last_blocksize][csize...]
and the zlib streams, in the file's header type and byte order.

  zlib_frames.py SRC_DIR DST_DIR [BLOCKSIZE]   (default 1000: many blocks)

Every .vtu and .vtp of SRC_DIR is converted; other files (frames.pvd) are
copied. Needs only the standard library.
"""
import os
import re
import shutil
import struct
import sys
import zlib


def convert(src, dst, block):
    data = open(src, "rb").read()
    start = data.index(b"<AppendedData")
    under = data.index(b"_", start) + 1
    end = data.rindex(b"</AppendedData>")
    head = data[:start]
    hb = 4 if b'header_type="UInt32"' in head else 8
    order = ">" if b'byte_order="BigEndian"' in head else "<"
    word = order + ("I" if hb == 4 else "Q")
    offsets = sorted({int(m) for m in re.findall(rb'offset="(\d+)"', head)})
    new_offset, out = {}, bytearray()
    for off in offsets:
        (n,) = struct.unpack_from(word, data, under + off)
        raw = data[under + off + hb:under + off + hb + n]
        chunks = [raw[i:i + block] for i in range(0, len(raw), block)]
        packed = [zlib.compress(c) for c in chunks]
        new_offset[off] = len(out)
        out += struct.pack(word, len(chunks)) + struct.pack(word, block) + struct.pack(word, len(raw) % block)
        for p in packed:
            out += struct.pack(word, len(p))
        for p in packed:
            out += p
    head = re.sub(rb'offset="(\d+)"', lambda m: b'offset="%d"' % new_offset[int(m.group(1))], head)
    head = head.replace(b"<VTKFile ", b'<VTKFile compressor="vtkZLibDataCompressor" ', 1)
    with open(dst, "wb") as f:
        f.write(head + data[start:under] + bytes(out) + b"\n  " + data[end:])


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    block = int(argv[3]) if len(argv) == 4 else 1000
    os.makedirs(argv[2], exist_ok=True)
    for name in sorted(os.listdir(argv[1])):
        src, dst = os.path.join(argv[1], name), os.path.join(argv[2], name)
        if name.endswith((".vtu", ".vtp")):
            convert(src, dst, block)
        elif os.path.isfile(src):
            shutil.copyfile(src, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
