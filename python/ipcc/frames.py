"""A finished run's frames (docs/output.md), without VTK: read_frames() and
compare(), as `ipcc compare` does it.

ipcc writes each frame as a VTK XML UnstructuredGrid (.vtu; its obstacles
and contact reports as PolyData, .vtp), version 1.0,
header_type UInt64, every array in one appended block in the file's byte
order, either raw (a UInt64 byte count, then the bytes) or compressed with
vtkZLibDataCompressor ([nblocks][blocksize][last blocksize][compressed
sizes...], then one zlib stream per block); src/output/vtk.c writes them. This
reader takes exactly that layout (other VTK files are refused with a
message), so it needs nothing but numpy and zlib.
"""
import dataclasses
import math
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
    """One file of a frame: its time (s), its points (n, 3: the deformable
    vertices of a .vtu, the obstacles' or contacts' points of a .vtp), the
    tets (m, 4; none in a .vtp), a .vtp's cells as {"verts", "lines",
    "polys"} -> list of index arrays, and its point, cell and field arrays
    by name (a String field array as a list of str)."""
    path: str
    time: float
    positions: np.ndarray
    tets: np.ndarray
    point_data: dict
    cell_data: dict
    field_data: dict
    cells: dict = dataclasses.field(default_factory=dict)


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
    """One .vtu frame, or .vtp obstacle or contact file, written by ipcc (raw
    or zlib-compressed)."""
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
    kind = root.get("type")
    if kind not in ("UnstructuredGrid", "PolyData") or root.get("header_type") != "UInt64":
        _fail(path, "not an ipcc frame (an UnstructuredGrid or PolyData with UInt64 headers)")
    order = "<" if root.get("byte_order") == "LittleEndian" else ">"
    compressed = root.get("compressor") == "vtkZLibDataCompressor"
    body = data[mark + 1:]

    def array(element):
        if element.get("format") != "appended":
            _fail(path, f"array {element.get('Name')!r}: not in the appended block")
        raw = _block(path, body, int(element.get("offset")), compressed, order)
        if element.get("type") == "String":  # each value NUL-terminated
            values = raw.split(b"\0")[:-1]
            if len(values) != int(element.get("NumberOfTuples", len(values))):
                _fail(path, f"array {element.get('Name')!r}: {len(values)} strings, NumberOfTuples says "
                      f"{element.get('NumberOfTuples')}")
            return [v.decode(errors="replace") for v in values]
        kind = _TYPES.get(element.get("type"))
        if not kind:
            _fail(path, f"array {element.get('Name')!r}: unsupported type {element.get('type')!r}")
        values = np.frombuffer(raw, order + kind)
        components = int(element.get("NumberOfComponents", "1"))
        return values.reshape(-1, components) if components > 1 else values

    grid = root.find(kind)
    piece = grid.find("Piece")
    named = lambda parent: {e.get("Name"): array(e) for e in parent} if parent is not None else {}
    field = named(grid.find("FieldData"))
    points = piece.find("Points")
    n = int(piece.get("NumberOfPoints"))
    positions = array(points.find("DataArray")) if points is not None and n else np.zeros((0, 3))
    if positions.shape != (n, 3):
        _fail(path, f"{positions.shape[0]} points, NumberOfPoints says {n}")
    tets, polydata = np.zeros((0, 4), dtype=np.int64), {}
    if kind == "UnstructuredGrid":
        cells = named(piece.find("Cells"))
        if "connectivity" in cells:
            tets = cells["connectivity"].reshape(-1, 4).astype(np.int64)
    else:
        for section in ("Verts", "Lines", "Polys"):
            parts = named(piece.find(section))
            count = int(piece.get("NumberOf" + section, "0"))
            if count == 0 or "connectivity" not in parts:
                polydata[section.lower()] = []
                continue
            ends = parts["offsets"].astype(np.int64)
            if len(ends) != count or (count and ends[-1] != len(parts["connectivity"])):
                _fail(path, f"<{section}>: {len(ends)} offsets for NumberOf{section} {count}")
            polydata[section.lower()] = np.split(parts["connectivity"].astype(np.int64), ends[:-1])
    time = float(field["TimeValue"][0]) if "TimeValue" in field else float("nan")
    return Frame(path, time, positions, tets, named(piece.find("PointData")), named(piece.find("CellData")), field,
                 polydata)


_PARTS = {"bodies": ("0", "frame"), "obstacles": ("1", "obstacles"), "contacts": ("2", "contacts")}


def _entries(folder, part):
    """(file, time) of one part of an output folder (docs/output.md), in the
    order of its frames.pvd, else of their numbered names (time NaN)."""
    number, prefix = _PARTS[part]
    pvd = os.path.join(folder, "frames.pvd")
    if os.path.exists(pvd):
        try:
            sets = list(ET.parse(pvd).getroot().iter("DataSet"))
        except ET.ParseError as e:
            raise Error("IPCC_ERR_PARSE", f"{pvd}: XML: {e}") from None
        return [(e.get("file"), float(e.get("timestep", "nan"))) for e in sets
                if e.get("part", "0") == number and e.get("file")]
    try:
        pattern = prefix + r"_\d+\." + ("vtu" if part == "bodies" else "vtp")
        return [(n, math.nan) for n in sorted(n for n in os.listdir(folder) if re.fullmatch(pattern, n))]
    except OSError as e:
        raise Error("IPCC_ERR_IO", f"{folder}: {e.strerror}") from None


def read_frames(folder, part="bodies"):
    """Every frame of an output folder, in the order of its frames.pvd (else
    of the numbered file names). part: "bodies" (the .vtu frames),
    "obstacles" or "contacts" (their .vtp files, timed by frames.pvd; []
    when the run wrote none)."""
    folder = os.fspath(folder)
    if part not in _PARTS:
        raise ValueError(f"ipcc: part must be one of {', '.join(_PARTS)}, not {part!r}")
    entries = _entries(folder, part)
    if not entries and part == "bodies":
        raise Error("IPCC_ERR_IO", f"{folder}: no frames")
    frames = []
    for name, time in entries:
        frame = read_frame(os.path.join(folder, name))
        if math.isnan(frame.time):
            frame.time = time
        frames.append(frame)
    return frames


@dataclasses.dataclass
class Comparison:
    """compare()'s result: per frame the largest vertex position difference
    relative to `length`, for the bodies (`differences`) and, when both
    runs have obstacles, for the obstacles' points
    (`obstacle_differences`, else []); `first_over` the first frame index
    over the tolerance (None if none) and `first_over_part` ("bodies" or
    "obstacles"); `same` whether the runs agree within it; `reason` why
    not when the folders cannot be compared frame by frame (frame counts,
    vertex counts, times, obstacles in one folder only)."""
    differences: list
    times: list
    length: float
    tol: float
    first_over: object = None
    first_over_part: str = ""
    reason: str = ""
    obstacle_differences: list = dataclasses.field(default_factory=list)

    @property
    def same(self):
        return not self.reason and self.first_over is None

    @property
    def worst(self):
        return max(self.differences + self.obstacle_differences, default=0.0)


def _largest(a, b):
    d = np.linalg.norm(a - b, axis=1)
    return float("nan") if np.isnan(d).any() else float(d.max(initial=0.0))


def compare(a, b, tol=1e-6, length=None):
    """Compare two output folders frame by frame as `ipcc compare` does:
    each frame's largest vertex distance relative to L (the length_scale
    field of a's first frame, else its bounding box diagonal; `length` sets
    it), within `tol`, for the bodies and, when both folders have them, the
    obstacles' .vtp points (obstacles in only one folder differ); a NaN is
    never within; frame times must agree to 1e-9."""
    fa, fb = read_frames(a), read_frames(b)
    oa, ob = read_frames(a, "obstacles"), read_frames(b, "obstacles")
    if length is None:
        first = fa[0]
        extent = (float(np.linalg.norm(first.positions.max(axis=0) - first.positions.min(axis=0)))
                  if len(first.positions) else 0.0)
        length = (float(first.field_data["length_scale"][0]) if "length_scale" in first.field_data
                  else extent if extent > 0 and math.isfinite(extent) else 1.0)
    result = Comparison([], [], length, tol)
    if len(fa) != len(fb):
        result.reason = f"{len(fa)} frames against {len(fb)}"
        return result
    if bool(oa) != bool(ob):
        result.reason = f"obstacles in one folder only ({'a' if oa else 'b'})"
        return result
    for folder, frames, obstacles in ((a, fa, oa), (b, fb, ob)):
        if obstacles and len(obstacles) != len(frames):
            raise Error("IPCC_ERR_PARSE", f"{os.fspath(folder)}: {len(frames)} frames but {len(obstacles)} "
                        "obstacle files; ipcc writes one of each per frame")
    t_scale = abs(fa[-1].time)
    for k, (x, y) in enumerate(zip(fa, fb)):
        if x.positions.shape != y.positions.shape:
            result.reason = f"frame {k}: {len(x.positions)} vertices against {len(y.positions)}"
            return result
        if abs(x.time - y.time) > 1e-9 * max(abs(x.time), abs(y.time), t_scale):  # as `ipcc compare`
            result.reason = f"frame {k}: time {x.time:g} s against {y.time:g} s"
            return result
        parts = [("bodies", x.positions, y.positions, result.differences)]
        if oa:
            if oa[k].positions.shape != ob[k].positions.shape:
                result.reason = (f"frame {k}: {len(oa[k].positions)} obstacle points against "
                                 f"{len(ob[k].positions)}")
                return result
            parts.append(("obstacles", oa[k].positions, ob[k].positions, result.obstacle_differences))
        result.times.append(x.time)
        for part, p, q, into in parts:
            d = _largest(p, q) / length
            into.append(d)
            if result.first_over is None and not d <= tol:
                result.first_over, result.first_over_part = k, part
    return result
