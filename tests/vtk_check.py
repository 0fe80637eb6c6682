#!/usr/bin/python3
"""Check ipcc output with VTK's own readers.

Usage: vtk_check.py [--contacts] [--fields] [--same-as OTHERDIR]
                    OUTDIR EXPECTED_FRAMES NUM_POINTS NUM_TETS
                    [OBSTACLE_POINTS OBSTACLE_TRIANGLES
                     [OBSTACLE_VELOCITY_CHECKSUM [OBSTACLE_POINTS_CHECKSUM]]]

Reads OUTDIR/frames.pvd (as XML: VTK's Python has no .pvd reader), groups its
DataSets into time steps (consecutive entries with the same timestep, one per
part), then reads every listed .vtu with vtkXMLUnstructuredGridReader and every
.vtp with vtkXMLPolyDataReader, and checks:
- the number of time steps; timesteps strictly increasing; within a step,
  parts distinct, part 0 a .vtu (the bodies), part 1, if any, a .vtp (the
  obstacles) and part 2, if any, a .vtp (the contacts); no other parts;
- every file reads without VTK errors; points and arrays are finite;
- .vtu: field data TimeValue (if present) equal to the .pvd timestep, with
  length_scale > 0; point and cell counts; every cell is VTK_TETRA; point arrays
  `velocity`, `displacement` and `contact_force` (3 components) and cell array
  `body_id` and `region` (1 component) with the right lengths; points - displacement (the
  rest positions) is the same in every frame;
- obstacles .vtp: polys are VTK_TRIANGLE, lines VTK_LINE, verts VTK_VERTEX;
  point array `velocity` (3 components); with a cell array `object_id`, one
  Int per cell naming an entry of the String field data `object_names`;
- contacts .vtp: one VTK_VERTEX per point; point arrays `normal` and
  `friction_force` (3 components, normal unit or 0), `distance` (>= 0),
  `normal_force` (>= 0), `object_a`, `object_b` (entries of the String
  field data `object_names`), `kind` (an entry of `kind_names`, eight
  strings) and `active` (0 or 1); field data TimeValue equal to the .pvd
  timestep. With --contacts every time step must have one, and some
  contact must exist in at least one.
With --fields every .vtu must also hold the analysis arrays (docs/output.md):
point `mass` (1 component, > 0), cell `volume_ratio` (1, > 0),
`cauchy_stress` (9), `von_mises` (1) and `energy_density` (1, >= 0 up to
roundoff: -1e-9 of the file's largest), all
Float64, with von_mises equal to sqrt(3/2 s:s) of the stress's symmetric
part (relative 1e-9).
With --same-as OTHERDIR, OTHERDIR/frames.pvd must list the same files at the
same times, and every file must read, through VTK, exactly as the same file
of OTHERDIR: points, cells, and every point, cell and field array (name,
type, components, values bit for bit). That is how a compressed output is
checked against the uncompressed one.
With OBSTACLE_POINTS and OBSTACLE_TRIANGLES, every step must have a .vtp with
those counts; with OBSTACLE_VELOCITY_CHECKSUM (OBSTACLE_POINTS_CHECKSUM),
sum_j (j + 1) * v[j] over the flat `velocity` array (the flat point
coordinates) v of the last step's .vtp must match it (relative 1e-12). Any
count or checksum may be `-` to skip it.

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
    """The DataSets of a .pvd as a list of time steps [(time, {part: file})]."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise CheckError(f"{path}: {e}")
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        raise CheckError(f"{path}: not a VTK Collection file")
    steps = []
    for ds in root.iter("DataSet"):
        try:
            t = float(ds.get("timestep"))
        except (TypeError, ValueError):
            raise CheckError(f"{path}: DataSet without a numeric timestep: {ds.attrib}")
        try:
            part = int(ds.get("part", "0"))
        except ValueError:
            raise CheckError(f"{path}: DataSet with a non-integer part: {ds.attrib}")
        name = ds.get("file")
        if name is None:
            raise CheckError(f"{path}: DataSet without a file: {ds.attrib}")
        if steps and steps[-1][0] == t:
            if part in steps[-1][1]:
                raise CheckError(f"{path}: part {part} listed twice at timestep {t!r}")
            steps[-1][1][part] = name
        else:
            if steps and not t > steps[-1][0]:
                raise CheckError(f"{path}: timestep of {name} ({t!r}) does not increase (previous {steps[-1][0]!r})")
            steps.append((t, {part: name}))
    return steps


def read_xml(path, reader):
    if not os.path.isfile(path):
        raise CheckError(f"{path}: listed in the .pvd but missing")
    errors = []
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
    return a


def check_cell_types(path, data, want, want_name):
    ncells = data.GetNumberOfCells()
    for c in range(ncells):
        if data.GetCellType(c) != want:
            raise CheckError(f"{path}: cell {c} has type {data.GetCellType(c)}, expected {want_name}")


def check_counts(path, data, want_points, want_cells):
    npts, ncells = data.GetNumberOfPoints(), data.GetNumberOfCells()
    if want_points is not None and npts != want_points:
        raise CheckError(f"{path}: {npts} points, expected {want_points}")
    if want_cells is not None and ncells != want_cells:
        raise CheckError(f"{path}: {ncells} cells, expected {want_cells}")
    if npts > 0 and not all_finite(data.GetPoints().GetData()):
        raise CheckError(f"{path}: non-finite point coordinates")
    return npts, ncells


def check_vtu(path, want_points, want_tets, want_time=None, fields=False):
    grid = read_xml(path, vtk.vtkXMLUnstructuredGridReader())
    if fields:
        check_fields(path, grid)
    # Field data TimeValue (the frame's time) and length_scale (L, > 0), when written.
    fd = grid.GetFieldData()
    tv = fd.GetArray("TimeValue") if fd is not None else None
    if tv is not None:
        if tv.GetNumberOfTuples() != 1 or (want_time is not None and tv.GetTuple1(0) != want_time):
            raise CheckError(f"{path}: field TimeValue {tv.GetTuple1(0)!r}, expected the .pvd timestep {want_time!r}")
        ls = fd.GetArray("length_scale")
        if ls is None or ls.GetNumberOfTuples() != 1 or not ls.GetTuple1(0) > 0:
            raise CheckError(f"{path}: field length_scale missing or not > 0")
    npts, ncells = check_counts(path, grid, want_points, want_tets)
    if numpy is not None and ncells > 0:
        types = vtk_to_numpy(grid.GetCellTypesArray())
        bad = numpy.nonzero(types != vtk.VTK_TETRA)[0]
        if bad.size:
            raise CheckError(f"{path}: cell {bad[0]} has type {types[bad[0]]}, expected VTK_TETRA")
    else:
        check_cell_types(path, grid, vtk.VTK_TETRA, "VTK_TETRA")
    check_array(path, grid.GetPointData(), "velocity", 3, npts, "point")
    u = check_array(path, grid.GetPointData(), "displacement", 3, npts, "point")
    check_array(path, grid.GetPointData(), "contact_force", 3, npts, "point")
    check_array(path, grid.GetCellData(), "body_id", 1, ncells, "cell")
    check_array(path, grid.GetCellData(), "region", 1, ncells, "cell")
    x = grid.GetPoints()
    rest = []
    for i in range(npts):
        p, d = x.GetPoint(i), u.GetTuple3(i)
        rest.append(tuple(p[c] - d[c] for c in range(3)))
    return rest


def check_fields(path, grid):
    """The analysis arrays of a .vtu (--fields)."""
    npts, ncells = grid.GetNumberOfPoints(), grid.GetNumberOfCells()
    arrays = {}
    for where, data, name, comps, count in (
        ("point", grid.GetPointData(), "mass", 1, npts),
        ("cell", grid.GetCellData(), "volume_ratio", 1, ncells),
        ("cell", grid.GetCellData(), "cauchy_stress", 9, ncells),
        ("cell", grid.GetCellData(), "von_mises", 1, ncells),
        ("cell", grid.GetCellData(), "energy_density", 1, ncells),
    ):
        a = check_array(path, data, name, comps, count, where)
        if not a.IsA("vtkDoubleArray"):
            raise CheckError(f"{path}: {where} array '{name}' is a {a.GetClassName()}, expected Float64")
        arrays[name] = a
    for i in range(npts):
        if not arrays["mass"].GetValue(i) > 0:
            raise CheckError(f"{path}: mass of point {i} is {arrays['mass'].GetValue(i)}, not > 0")
    psi = arrays["energy_density"]
    floor = -1e-9 * max([1.0] + [abs(psi.GetValue(e)) for e in range(ncells)])  # Psi >= 0 up to roundoff
    for e in range(ncells):
        if not arrays["volume_ratio"].GetValue(e) > 0:
            raise CheckError(f"{path}: volume_ratio of cell {e} is {arrays['volume_ratio'].GetValue(e)}")
        if not psi.GetValue(e) >= floor:
            raise CheckError(f"{path}: energy_density of cell {e} is {arrays['energy_density'].GetValue(e)}")
        s = arrays["cauchy_stress"].GetTuple9(e)
        s12, s23, s13 = (s[1] + s[3]) / 2, (s[5] + s[7]) / 2, (s[2] + s[6]) / 2
        vm = math.sqrt(((s[0] - s[4]) ** 2 + (s[4] - s[8]) ** 2 + (s[8] - s[0]) ** 2) / 2
                       + 3 * (s12 * s12 + s23 * s23 + s13 * s13))
        got = arrays["von_mises"].GetValue(e)
        if abs(got - vm) > 1e-9 * max(vm, max(abs(c) for c in s), 1e-300):
            raise CheckError(f"{path}: von_mises of cell {e} is {got!r}, its cauchy_stress gives {vm!r}")


def array_values(a):
    """(type, components, tuples, values) of a VTK array, values as bytes or a list."""
    if a.IsA("vtkStringArray"):
        return ("String", 1, a.GetNumberOfValues(), [a.GetValue(i) for i in range(a.GetNumberOfValues())])
    n = a.GetNumberOfTuples() * a.GetNumberOfComponents()
    if numpy is not None:
        values = vtk_to_numpy(a).tobytes() if n else b""
    else:
        values = [a.GetValue(i) for i in range(n)]
    return (a.GetDataTypeAsString(), a.GetNumberOfComponents(), a.GetNumberOfTuples(), values)


def dataset_arrays(data):
    """{(kind, name): array_values} over a dataset's point, cell and field data, its points and cells."""
    out = {}
    for kind, attrs in (("point", data.GetPointData()), ("cell", data.GetCellData()),
                        ("field", data.GetFieldData())):
        for i in range(attrs.GetNumberOfArrays()):
            a = attrs.GetAbstractArray(i)
            out[(kind, a.GetName())] = array_values(a)
    if data.GetPoints() is not None:
        out[("points", "")] = array_values(data.GetPoints().GetData())
    if data.IsA("vtkUnstructuredGrid"):
        cells = data.GetCells()
        out[("cells", "connectivity")] = array_values(cells.GetConnectivityArray())
        out[("cells", "offsets")] = array_values(cells.GetOffsetsArray())
        out[("cells", "types")] = array_values(data.GetCellTypesArray())
    else:
        for name, cells in (("verts", data.GetVerts()), ("lines", data.GetLines()), ("polys", data.GetPolys())):
            out[(name, "connectivity")] = array_values(cells.GetConnectivityArray())
            out[(name, "offsets")] = array_values(cells.GetOffsetsArray())
    return out


def check_same(path, other):
    """The file at path reads exactly as the one at other (--same-as)."""
    make = vtk.vtkXMLUnstructuredGridReader if path.endswith(".vtu") else vtk.vtkXMLPolyDataReader
    a, b = dataset_arrays(read_xml(path, make())), dataset_arrays(read_xml(other, make()))
    if set(a) != set(b):
        raise CheckError(f"{path}: arrays {sorted(a)} but {other} has {sorted(b)}")
    for key in sorted(a):
        if a[key][:3] != b[key][:3]:
            raise CheckError(f"{path}: {key[0]} array '{key[1]}' is {a[key][:3]}, in {other} {b[key][:3]}")
        if a[key][3] != b[key][3]:
            raise CheckError(f"{path}: {key[0]} array '{key[1]}' differs from {other}'s")
    return len(a)


def string_field(path, data, name, want_count=None):
    """The values of the String array `name` of the field data."""
    a = data.GetFieldData().GetAbstractArray(name)
    if a is None or not a.IsA("vtkStringArray"):
        raise CheckError(f"{path}: no String field data '{name}'")
    values = [a.GetValue(i) for i in range(a.GetNumberOfValues())]
    if want_count is not None and len(values) != want_count:
        raise CheckError(f"{path}: field data '{name}' has {len(values)} values, expected {want_count}")
    return values


def check_ids(path, array, count, what):
    for i in range(array.GetNumberOfTuples()):
        v = array.GetValue(i)
        if not 0 <= v < count:
            raise CheckError(f"{path}: {what} {i} is {v}, not an index of {count} names")


def check_vtp(path, want_points, want_triangles):
    poly = read_xml(path, vtk.vtkXMLPolyDataReader())
    npts, ncells = check_counts(path, poly, want_points, want_triangles)
    if poly.GetNumberOfStrips():
        raise CheckError(f"{path}: has strips")
    # VTK's cell order: verts, lines, polys.
    nv, nl = poly.GetNumberOfVerts(), poly.GetNumberOfLines()
    for c in range(ncells):
        want = vtk.VTK_VERTEX if c < nv else vtk.VTK_LINE if c < nv + nl else vtk.VTK_TRIANGLE
        if poly.GetCellType(c) != want:
            raise CheckError(f"{path}: cell {c} has type {poly.GetCellType(c)}, expected {want}")
    v = check_array(path, poly.GetPointData(), "velocity", 3, npts, "point")
    if poly.GetCellData().GetArray("object_id") is not None:
        ids = check_array(path, poly.GetCellData(), "object_id", 1, ncells, "cell")
        check_ids(path, ids, len(string_field(path, poly, "object_names")), "object_id of cell")
    return weighted_sum(v, npts), weighted_sum(poly.GetPoints().GetData(), npts)


def check_contacts(path, want_time):
    """A contacts .vtp; returns its number of contacts."""
    poly = read_xml(path, vtk.vtkXMLPolyDataReader())
    npts, ncells = check_counts(path, poly, None, None)
    if ncells != npts or poly.GetNumberOfVerts() != npts:
        raise CheckError(f"{path}: {npts} points but {poly.GetNumberOfVerts()} vertex cells of {ncells}")
    check_cell_types(path, poly, vtk.VTK_VERTEX, "VTK_VERTEX")
    tv = poly.GetFieldData().GetArray("TimeValue")
    if tv is None or tv.GetNumberOfTuples() != 1 or tv.GetTuple1(0) != want_time:
        raise CheckError(f"{path}: field TimeValue missing or not the .pvd timestep {want_time!r}")
    names = string_field(path, poly, "object_names")
    string_field(path, poly, "kind_names", 8)
    pd = poly.GetPointData()
    normal = check_array(path, pd, "normal", 3, npts, "point")
    check_array(path, pd, "friction_force", 3, npts, "point")
    for name in ("distance", "normal_force"):
        a = check_array(path, pd, name, 1, npts, "point")
        if any(a.GetValue(i) < 0 for i in range(npts)):
            raise CheckError(f"{path}: negative {name}")
    for name, count in (("object_a", len(names)), ("object_b", len(names)), ("kind", 6), ("active", 2)):
        a = check_array(path, pd, name, 1, npts, "point")
        if not a.IsA("vtkIntArray"):
            raise CheckError(f"{path}: point array '{name}' is a {a.GetClassName()}, expected Int32")
        check_ids(path, a, count, name + " of contact")
    for i in range(npts):
        n = math.sqrt(sum(c * c for c in normal.GetTuple3(i)))
        if n != 0 and abs(n - 1) > 1e-9:
            raise CheckError(f"{path}: normal {i} has length {n}")
    return npts


def weighted_sum(array, npts):
    """sum_j (j + 1) * a[j] over the flat 3-component array, in order of j."""
    total = 0.0
    for j in range(3 * npts):
        total += (j + 1) * array.GetValue(j)
    return total


def check(outdir, want_frames, want_points, want_tets, want_obst_points=None, want_obst_tris=None,
          want_checksums=(None, None), obstacles_required=False, contacts_required=False, fields=False,
          same_as=None):
    pvd = os.path.join(outdir, "frames.pvd")
    steps = read_pvd(pvd)
    if same_as is not None:
        other = read_pvd(os.path.join(same_as, "frames.pvd"))
        if other != steps:
            raise CheckError(f"{pvd} lists {steps}, {same_as}/frames.pvd {other}")
        for t, parts in steps:
            for part, name in sorted(parts.items()):
                check_same(os.path.join(outdir, name), os.path.join(same_as, name))
    if want_frames is not None and len(steps) != want_frames:
        raise CheckError(f"{pvd}: {len(steps)} time steps, expected {want_frames}")
    rest0, checksums, contacts = None, None, 0
    for t, parts in steps:
        if 0 not in parts:
            raise CheckError(f"{pvd}: timestep {t!r} has no part 0 (bodies)")
        if 2 in parts:
            if not parts[2].endswith(".vtp"):
                raise CheckError(f"{pvd}: part 2 at timestep {t!r} is {parts[2]}, expected a .vtp")
            contacts += check_contacts(os.path.join(outdir, parts[2]), t)
        elif contacts_required:
            raise CheckError(f"{pvd}: timestep {t!r} has no part 2 (contacts)")
        extra = sorted(set(parts) - {0, 1, 2})
        if extra:
            raise CheckError(f"{pvd}: timestep {t!r} has unexpected parts {extra}")
        if not parts[0].endswith(".vtu"):
            raise CheckError(f"{pvd}: part 0 at timestep {t!r} is {parts[0]}, expected a .vtu")
        path = os.path.join(outdir, parts[0])
        rest = check_vtu(path, want_points, want_tets, t, fields)
        if rest0 is None:
            rest0 = rest
        elif len(rest) == len(rest0):
            for i, (a, b) in enumerate(zip(rest, rest0)):
                if any(abs(a[c] - b[c]) > 1e-9 * (1 + abs(b[c])) for c in range(3)):
                    raise CheckError(f"{path}: point {i}: points - displacement = {a}, was {b} in the first frame")
        if 1 not in parts:
            if obstacles_required:
                raise CheckError(f"{pvd}: timestep {t!r} has no part 1 (obstacles)")
            checksums = None
            continue
        if not parts[1].endswith(".vtp"):
            raise CheckError(f"{pvd}: part 1 at timestep {t!r} is {parts[1]}, expected a .vtp")
        checksums = check_vtp(os.path.join(outdir, parts[1]), want_obst_points, want_obst_tris)
    if contacts_required and contacts == 0:
        raise CheckError(f"{pvd}: no contact in any contacts file")
    for k, (what, want) in enumerate(zip(("velocity", "points"), want_checksums)):
        if want is None:
            continue
        if checksums is None:
            raise CheckError(f"{pvd}: no obstacles in the last time step to check")
        if not abs(checksums[k] - want) <= 1e-12 * max(1.0, abs(want)):
            raise CheckError(f"{pvd}: last obstacles' {what} checksum {checksums[k]!r}, expected {want!r}")
    return len(steps)


def count_arg(s):
    return None if s == "-" else int(s)


def main(argv):
    kwargs = {}
    if "--contacts" in argv:
        argv = [a for a in argv if a != "--contacts"]
        kwargs["contacts_required"] = True
    if "--fields" in argv:
        argv = [a for a in argv if a != "--fields"]
        kwargs["fields"] = True
    if "--same-as" in argv:
        k = argv.index("--same-as")
        if k + 1 >= len(argv):
            print(__doc__, file=sys.stderr)
            return 2
        kwargs["same_as"] = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    if len(argv) not in (5, 7, 8, 9):
        print(__doc__, file=sys.stderr)
        return 2
    args = [count_arg(a) for a in argv[2:7]]
    if len(argv) >= 7:
        kwargs["obstacles_required"] = args[3] is not None or args[4] is not None
    if len(argv) >= 8:
        kwargs["want_checksums"] = tuple(None if a == "-" else float(a) for a in (argv[7:9] + ["-"])[:2])
    try:
        n = check(argv[1], *args, **kwargs)
    except CheckError as e:
        print(f"vtk_check: FAIL: {e}", file=sys.stderr)
        return 1
    print(f"vtk_check: OK: {n} time steps in {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
