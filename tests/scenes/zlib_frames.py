#!/usr/bin/env python3
"""Rewrite ipcc's raw VTK XML files as zlib-compressed ones, or the other
way round, independently of src/output/vtk.c (for tests/scenes/compare_test.sh and
scenes_test.sh): VTK's vtkZLibDataCompressor layout, per appended array
[nblocks][blocksize][last_blocksize][csize...] and the zlib streams, in the
file's header type and byte order; raw is [byte count][bytes].

  zlib_frames.py SRC DST [BLOCKSIZE]   compress (default blocks of 1000 bytes: many)
  zlib_frames.py --raw SRC DST         decompress (a raw file is copied as it is)

SRC and DST are both files or both folders: every .vtu and .vtp of a folder
is converted, other files (frames.pvd) copied. Needs only the standard library.
"""
import os
import re
import shutil
import struct
import sys
import zlib


def read_block(data, at, word, hb, zipped):
    """The raw bytes of the array block at `at`."""
    if not zipped:
        (n,) = struct.unpack_from(word, data, at)
        return data[at + hb:at + hb + n]
    nb, bs, last = struct.unpack_from(word[0] + 3 * word[1], data, at)
    sizes = struct.unpack_from(word[0] + nb * word[1], data, at + 3 * hb)
    src, out = at + (3 + nb) * hb, b""
    for c in sizes:
        out += zlib.decompress(data[src:src + c])
        src += c
    return out


def convert(src, dst, block):
    """block = 0: decompress, else compress with blocks of that many bytes."""
    data = open(src, "rb").read()
    start = data.index(b"<AppendedData")
    under = data.index(b"_", start) + 1
    end = data.rindex(b"</AppendedData>")
    head = data[:start]
    zipped = b'compressor="vtkZLibDataCompressor"' in head
    hb = 4 if b'header_type="UInt32"' in head else 8
    order = ">" if b'byte_order="BigEndian"' in head else "<"
    word = order + ("I" if hb == 4 else "Q")
    offsets = sorted({int(m) for m in re.findall(rb'offset="(\d+)"', head)})
    new_offset, out = {}, bytearray()
    for off in offsets:
        raw = read_block(data, under + off, word, hb, zipped)
        if block == 0:
            new_offset[off] = len(out)
            out += struct.pack(word, len(raw)) + raw
            continue
        chunks = [raw[i:i + block] for i in range(0, len(raw), block)]
        packed = [zlib.compress(c) for c in chunks]
        new_offset[off] = len(out)
        out += struct.pack(word, len(chunks)) + struct.pack(word, block) + struct.pack(word, len(raw) % block)
        for p in packed:
            out += struct.pack(word, len(p))
        for p in packed:
            out += p
    head = re.sub(rb'offset="(\d+)"', lambda m: b'offset="%d"' % new_offset[int(m.group(1))], head)
    head = head.replace(b' compressor="vtkZLibDataCompressor"', b"")
    if block:
        head = head.replace(b"<VTKFile ", b'<VTKFile compressor="vtkZLibDataCompressor" ', 1)
    with open(dst, "wb") as f:
        f.write(head + data[start:under] + bytes(out) + b"\n  " + data[end:])


def main(argv):
    raw = "--raw" in argv
    argv = [a for a in argv if a != "--raw"]
    if len(argv) not in (3, 4) or (raw and len(argv) == 4):
        print(__doc__, file=sys.stderr)
        return 2
    block = 0 if raw else int(argv[3]) if len(argv) == 4 else 1000
    if os.path.isfile(argv[1]):
        convert(argv[1], argv[2], block)
        return 0
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
