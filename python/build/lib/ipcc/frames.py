"""A finished run's frames (docs/output.md), without VTK: read_frames() and
compare(), as `ipcc compare` does it.

ipcc writes each frame as a VTK XML UnstructuredGrid (.vtu), version 1.0,
header_type UInt64, every array in one appended block in the file's byte
order, either raw (a UInt64 byte count, then the bytes) or compressed with
vtkZLibDataCompressor ([nblocks][blocksize][last blocksize][compressed
sizes...], then one zlib stream per block); src/vtk.c writes them. This
reader takes exactly that layout (other VTK files are refused with a
message), so it needs nothing but numpy and zlib.
"""
import dataclasses
import os
import re
import xml.etree.ElementTree as ET
import zlib

import numpy as np

from . import Error

__all__ = ["Frame", "read_frame", "read_frames", "compare", "Comparison"]

_TYPES = {"Float64": "f8", "Float32": "f4", "Int64": "i8", "Int32": "i4", "UInt8": "u1", "UInt64": "u8"}


@dataclasses.dataclass
class Frame:
    """One frame: its time (s), the deformable vertices' positions (n, 3),
    the tets (m, 4), and its point, cell and field arrays by name."""
    path: str
    time: float
    positions: np.ndarray
    tets: np.ndarray
    point_data: dict
    cell_data: dict
    field_data: dict


def _fail(path, why):
    raise Error("IPCC_ERR_PARSE", f"{path}: {why}")


def _block(path, data, offset, compressed, order):
    u64 = np.dtype(order + "u8")
    if not compressed:
        n = int(np.frombuffer(data, u64, 1, offset)[0])
        if offset + 8 + n > len(data):
            _fail(path, f"an array at offset {offset} runs past the end of the file")
        return data[offset + 8:offset + 8 + n]
    nblocks, blocksize, last = (int(v) for v in np.frombuffer(data, u64, 3, offset))
    sizes = np.frombuffer(data, u64, nblocks, offset + 24)
    at, parts = offset + 24 + 8 * nblocks, []
    for k, size in enumerate(sizes):
        raw = zlib.decompress(data[at:at + int(size)])
        if len(raw) != (last if k == nblocks - 1 and last else blocksize):
            _fail(path, f"block {k} of the array at offset {offset} inflates to {len(raw)} bytes")
        parts.append(raw)
        at += int(size)
    return b"".join(parts)


def read_frame(path):
    """One .vtu frame written by ipcc (raw or zlib-compressed)."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Error("IPCC_ERR_IO", f"{path}: {e.strerror}") from None
    start = data.find(b'<AppendedData encoding="raw">')
    mark = data.find(b"_", start)
    if start < 0 or mark < 0:
        _fail(path, "not an ipcc frame (no raw appended data)")
    try:
        root = ET.fromstring(data[:start] + b"</VTKFile>")
    except ET.ParseError as e:
        _fail(path, f"XML: {e}")
    if root.get("type") != "UnstructuredGrid" or root.get("header_type") != "UInt64":
        _fail(path, "not an ipcc frame (an UnstructuredGrid with UInt64 headers)")
    order = "<" if root.get("byte_order") == "LittleEndian" else ">"
    compressed = root.get("compressor") == "vtkZLibDataCompressor"
    body = data[mark + 1:]

    def array(element):
        kind = _TYPES.get(element.get("type"))
        if not kind or element.get("format") != "appended":
            _fail(path, f"array {element.get('Name')!r}: unsupported type or format")
        values = np.frombuffer(_block(path, body, int(element.get("offset")), compressed, order), order + kind)
        components = int(element.get("NumberOfComponents", "1"))
        return values.reshape(-1, components) if components > 1 else values

    grid = root.find("UnstructuredGrid")
    piece = grid.find("Piece")
    named = lambda parent: {e.get("Name"): array(e) for e in parent} if parent is not None else {}
    field = named(grid.find("FieldData"))
    cells = named(piece.find("Cells"))
    positions = array(piece.find("Points").find("DataArray"))
    if positions.shape != (int(piece.get("NumberOfPoints")), 3):
        _fail(path, f"{positions.shape[0]} points, NumberOfPoints says {piece.get('NumberOfPoints')}")
    tets = cells["connectivity"].reshape(-1, 4).astype(np.int64) if "connectivity" in cells else np.zeros((0, 4))
    time = float(field["TimeValue"][0]) if "TimeValue" in field else float("nan")
    return Frame(path, time, positions, tets, named(piece.find("PointData")), named(piece.find("CellData")), field)


def read_frames(folder):
    """Every frame of an output folder, in the order of its frames.pvd (else
    of the frame_NNNNNN.vtu names)."""
    folder = os.fspath(folder)
    pvd = os.path.join(folder, "frames.pvd")
    if os.path.exists(pvd):
        names = [e.get("file") for e in ET.parse(pvd).getroot().iter("DataSet") if e.get("file", "").endswith(".vtu")]
    else:
        try:
            names = sorted(n for n in os.listdir(folder) if re.fullmatch(r"frame_\d+\.vtu", n))
        except OSError as e:
            raise Error("IPCC_ERR_IO", f"{folder}: {e.strerror}") from None
    if not names:
        raise Error("IPCC_ERR_IO", f"{folder}: no frames")
    return [read_frame(os.path.join(folder, n)) for n in names]


@dataclasses.dataclass
class Comparison:
    """compare()'s result: per frame the largest vertex position difference
    relative to `length`; `first_over` the first frame index over the
    tolerance (None if none); `same` whether the runs agree within it;
    `reason` why not when the folders cannot be compared frame by frame."""
    differences: list
    times: list
    length: float
    tol: float
    first_over: object = None
    reason: str = ""

    @property
    def same(self):
        return not self.reason and self.first_over is None

    @property
    def worst(self):
        return max(self.differences, default=0.0)


def compare(a, b, tol=1e-6, length=None):
    """Compare two output folders frame by frame as `ipcc compare` does for
    the bodies: each frame's largest vertex distance relative to L (the
    length_scale field of a's first frame, else its bounding box diagonal;
    `length` sets it), within `tol`; frame times must agree to 1e-9. The
    obstacles' .vtp files are not compared (`ipcc compare` does)."""
    fa, fb = read_frames(a), read_frames(b)
    if length is None:
        first = fa[0]
        length = (float(first.field_data["length_scale"][0]) if "length_scale" in first.field_data
                  else float(np.linalg.norm(first.positions.max(axis=0) - first.positions.min(axis=0))))
    result = Comparison([], [], length, tol)
    if len(fa) != len(fb):
        result.reason = f"{len(fa)} frames against {len(fb)}"
        return result
    t_scale = abs(fa[-1].time)
    for k, (x, y) in enumerate(zip(fa, fb)):
        if x.positions.shape != y.positions.shape:
            result.reason = f"frame {k}: {len(x.positions)} vertices against {len(y.positions)}"
            return result
        if abs(x.time - y.time) > 1e-9 * max(abs(x.time), abs(y.time), t_scale):  # as `ipcc compare`
            result.reason = f"frame {k}: time {x.time:g} s against {y.time:g} s"
            return result
        d = float(np.linalg.norm(x.positions - y.positions, axis=1).max(initial=0.0)) / length
        result.differences.append(d)
        result.times.append(x.time)
        if result.first_over is None and not d <= tol:
            result.first_over = k
    return result
