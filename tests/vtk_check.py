#!/usr/bin/python3
"""Check ipcc output with VTK's own readers.

Usage: vtk_check.py OUTDIR EXPECTED_FRAMES NUM_POINTS NUM_TETS

Reads OUTDIR/frames.pvd, then every listed .vtu with vtkXMLUnstructuredGridReader,
and checks: the number of frames; timesteps strictly increasing; every frame
reads without VTK errors; point and cell counts; every cell is VTK_TETRA; point
arrays `velocity` and `displacement` (3 components) and cell array `body_id`
(1 component) exist with the right lengths; points and arrays are finite.
Any of EXPECTED_FRAMES, NUM_POINTS, NUM_TETS may be `-` to skip that count.

Exit status: 0 on success, 77 when the `vtk` module cannot be imported (1 when
CI=true, since .ci/run installs it; 77 is ctest's
SKIP_RETURN_CODE), 1 with a message on stderr otherwise. Needs a Python that
has VTK, e.g. Debian's /usr/bin/python3 with python3-vtk9.
"""
import math
import os
import sys
import xml.etree.ElementTree as ET

try:
    import vtk
except ImportError as e:
    if os.environ.get("CI") == "true":  # .ci/run installs python3-vtk9: a miss is a failure
        print(f"vtk_check: cannot import vtk under CI ({e})", file=sys.stderr)
        sys.exit(1)
    print(f"vtk_check: cannot import vtk ({e}); skipping", file=sys.stderr)
    sys.exit(77)

try:
    from vtk.util.numpy_support import vtk_to_numpy
    import numpy
except ImportError:
    numpy = None


class CheckError(Exception):
    pass


def all_finite(array):
    if array is None:
        return True
    if numpy is not None:
        return bool(numpy.all(numpy.isfinite(vtk_to_numpy(array))))
    n = array.GetNumberOfTuples() * array.GetNumberOfComponents()
    return all(math.isfinite(array.GetValue(i)) for i in range(n))


def read_pvd(path):
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise CheckError(f"{path}: {e}")
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        raise CheckError(f"{path}: not a VTK Collection file")
    entries = []
    for ds in root.iter("DataSet"):
        try:
            t = float(ds.get("timestep"))
        except (TypeError, ValueError):
            raise CheckError(f"{path}: DataSet without a numeric timestep: {ds.attrib}")
        if ds.get("file") is None:
            raise CheckError(f"{path}: DataSet without a file: {ds.attrib}")
        entries.append((t, ds.get("file")))
    return entries


def read_vtu(path):
    if not os.path.isfile(path):
        raise CheckError(f"{path}: listed in the .pvd but missing")
    errors = []
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.AddObserver("ErrorEvent", lambda obj, ev: errors.append(ev))
    reader.SetFileName(path)
    reader.Update()
    if errors or reader.GetErrorCode() != 0:
        raise CheckError(f"{path}: VTK reader reported an error")
    return reader.GetOutput()


def check_array(path, data, name, comps, count, where):
    a = data.GetArray(name)
    if a is None:
        raise CheckError(f"{path}: no {where} array '{name}'")
    if a.GetNumberOfComponents() != comps:
        raise CheckError(f"{path}: {where} array '{name}' has {a.GetNumberOfComponents()} components, expected {comps}")
    if a.GetNumberOfTuples() != count:
        raise CheckError(f"{path}: {where} array '{name}' has {a.GetNumberOfTuples()} tuples, expected {count}")
    if not all_finite(a):
        raise CheckError(f"{path}: {where} array '{name}' has non-finite values")


def check(outdir, want_frames, want_points, want_tets):
    pvd = os.path.join(outdir, "frames.pvd")
    entries = read_pvd(pvd)
    if want_frames is not None and len(entries) != want_frames:
        raise CheckError(f"{pvd}: {len(entries)} frames, expected {want_frames}")
    for (t0, _), (t1, f1) in zip(entries, entries[1:]):
        if not t1 > t0:
            raise CheckError(f"{pvd}: timestep of {f1} ({t1!r}) does not increase (previous {t0!r})")
    for t, name in entries:
        path = os.path.join(outdir, name)
        grid = read_vtu(path)
        npts, ncells = grid.GetNumberOfPoints(), grid.GetNumberOfCells()
        if want_points is not None and npts != want_points:
            raise CheckError(f"{path}: {npts} points, expected {want_points}")
        if want_tets is not None and ncells != want_tets:
            raise CheckError(f"{path}: {ncells} cells, expected {want_tets}")
        if numpy is not None and ncells > 0:
            types = vtk_to_numpy(grid.GetCellTypesArray())
            bad = numpy.nonzero(types != vtk.VTK_TETRA)[0]
            if bad.size:
                raise CheckError(f"{path}: cell {bad[0]} has type {types[bad[0]]}, expected VTK_TETRA")
        else:
            for c in range(ncells):
                if grid.GetCellType(c) != vtk.VTK_TETRA:
                    raise CheckError(f"{path}: cell {c} has type {grid.GetCellType(c)}, expected VTK_TETRA")
        if npts > 0 and not all_finite(grid.GetPoints().GetData()):
            raise CheckError(f"{path}: non-finite point coordinates")
        check_array(path, grid.GetPointData(), "velocity", 3, npts, "point")
        check_array(path, grid.GetPointData(), "displacement", 3, npts, "point")
        check_array(path, grid.GetCellData(), "body_id", 1, ncells, "cell")
    return len(entries)


def count_arg(s):
    return None if s == "-" else int(s)


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        n = check(argv[1], count_arg(argv[2]), count_arg(argv[3]), count_arg(argv[4]))
    except CheckError as e:
        print(f"vtk_check: FAIL: {e}", file=sys.stderr)
        return 1
    print(f"vtk_check: OK: {n} frames in {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
