#!/usr/bin/env python3
"""Writes the generated inputs of the bad-input catalogue (run in this folder):
the binary files and a JSON scene nested deeper than cJSON's limit.

The files are committed; this script documents their bytes and remakes them.
Little-endian, as Gmsh writes on x86. The noise comes from a fixed seed, so
the output is the same on every run.
"""
import random
import struct

FMT22 = b"$MeshFormat\n2.2 1 8\n" + struct.pack("<i", 1) + b"\n$EndMeshFormat\n"
FMT41 = b"$MeshFormat\n4.1 1 8\n" + struct.pack("<i", 1) + b"\n$EndMeshFormat\n"
TET = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]


def msh22(coords, elem_type=4, nodes_per=4):
    nodes = b"".join(struct.pack("<i3d", i + 1, *x) for i, x in enumerate(coords))
    elems = struct.pack("<3i", elem_type, 1, 0) + struct.pack("<i", 1) + struct.pack(f"<{nodes_per}i", *range(1, nodes_per + 1))
    return (FMT22 + b"$Nodes\n%d\n" % len(coords) + nodes + b"\n$EndNodes\n$Elements\n1\n" + elems
            + b"\n$EndElements\n")


def msh41(coords, counts=None):
    n = len(coords)
    hdr = counts if counts else (1, n, 1, n)
    nodes = struct.pack("<4Q", *hdr) + struct.pack("<3iQ", 3, 1, 0, n)
    nodes += b"".join(struct.pack("<Q", i + 1) for i in range(n))
    nodes += b"".join(struct.pack("<3d", *x) for x in coords)
    elems = struct.pack("<4Q", 1, 1, 1, 1) + struct.pack("<3iQ", 3, 1, 4, 1) + struct.pack("<5Q", 1, 1, 2, 3, 4)
    return FMT41 + b"$Nodes\n" + nodes + b"\n$EndNodes\n$Elements\n" + elems + b"\n$EndElements\n"


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


good22, good41 = msh22(TET), msh41(TET)
write("msh/binary22_truncated.msh", good22[: len(FMT22) + 40])         # cut inside $Nodes
write("msh/binary41_truncated.msh", good41[: len(good41) - 30])        # cut inside $Elements
write("msh/binary22_unknown_type.msh", msh22(TET, elem_type=99))      # no such Gmsh element type
write("msh/binary22_nan.msh", msh22([TET[0], (float("nan"), 0, 0), TET[2], TET[3]]))
write("msh/binary41_huge_count.msh", msh41(TET, counts=(1, 1 << 40, 1, 1 << 40)))
write("msh/binary_bad_endianness.msh", FMT22.replace(struct.pack("<i", 1), struct.pack("<i", 7)))
rng = random.Random(20261122)
noise = bytes(rng.randrange(256) for _ in range(512))
write("msh/binary_garbage.msh", FMT22 + b"$Nodes\n4\n" + noise)  # noise where nodes should be
write("msh/garbage.bin.msh", noise)
write("scenes/binary_garbage.json", b"{\"time_step\": 0.01,\n" + noise[:40] + b"\0" + noise[40:])  # a NUL byte
write("scenes/binary_no_nul.json", bytes(b if b else 0xFF for b in noise))
write("obj/binary_garbage.obj", noise)
write("ipc/binary_garbage.txt", noise)
with open("scenes/deep_nesting.json", "w") as f:  # cJSON stops at 1000 levels
    f.write('{"bodies": ' + "[" * 1100 + "]" * 1100 + "}\n")
