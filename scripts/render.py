#!/usr/bin/python3
"""Render the frames of an ipcc run to PNG images with VTK, off screen.

    scripts/render.py OUTDIR [-o PNG_DIR] [--frames all|last|N,M,A-B]
                      [--size WxH] [--color-by FIELD] [--camera VIEW] ...

Reads OUTDIR/frames.pvd (written by `ipcc run SCENE -o OUTDIR`, see
docs/output.md), and for each selected frame draws the bodies' surface
(from frame_NNNNNN.vtu) coloured by a field, with a scalar bar, the
obstacles (obstacles_NNNNNN.vtp, analytic shapes included) in grey and,
with --contacts, the contact report's points (contacts_NNNNNN.vtp, written
with output.contacts) as red dots. The camera and the colour range
are the same for every frame rendered (fit to all of them), so the images
make a steady video. Writes PNG_DIR/frame_NNNNNN.png (default OUTDIR/png/).

Needs Debian's python3-vtk9. VTK draws through an X display: when there is
none (or it does not work), the script runs itself again under
`xvfb-run -a` (Debian packages xvfb and xauth).

Exit status: 0 done; 1 bad usage or input; 2 rendering is not possible
here (no VTK, no display and no xvfb-run) or failed.
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

PROG = "render.py"
XVFB_GUARD = "IPCC_RENDER_UNDER_XVFB"  # set when we re-ran ourselves under xvfb-run

FIELDS = {  # name: (association, scalar bar title)
    "displacement": ("point", "|displacement|\n(m)"),
    "velocity": ("point", "|velocity|\n(m/s)"),
    "contact_force": ("point", "|contact force|\n(N)"),
    "friction_force": ("point", "|friction force|\n(N)"),
    "body_id": ("cell", "body"),
}

# View directions as (azimuth, elevation) in degrees from the "front" view
# (looking at the scene along -z when +y is up).
CAMERAS = {"iso": (35.0, 25.0), "front": (0.0, 0.0), "back": (180.0, 0.0),
           "right": (90.0, 0.0), "left": (-90.0, 0.0), "top": (0.0, 90.0), "bottom": (0.0, -90.0)}

BACKGROUND = (1.0, 1.0, 1.0)
OBSTACLE_COLOR = (0.62, 0.62, 0.64)
TEXT_COLOR = (0.1, 0.1, 0.1)
# Sequential colour map (viridis, sampled) and a qualitative one for bodies.
VIRIDIS = [(0.267, 0.005, 0.329), (0.283, 0.141, 0.458), (0.254, 0.265, 0.530),
           (0.207, 0.372, 0.553), (0.164, 0.471, 0.558), (0.128, 0.567, 0.551),
           (0.135, 0.659, 0.518), (0.267, 0.749, 0.441), (0.478, 0.821, 0.318),
           (0.741, 0.873, 0.150), (0.993, 0.906, 0.144)]
BODY_COLORS = [(0.122, 0.467, 0.706), (1.0, 0.498, 0.055), (0.173, 0.627, 0.173),
               (0.839, 0.153, 0.157), (0.580, 0.404, 0.741), (0.549, 0.337, 0.294),
               (0.890, 0.467, 0.761), (0.737, 0.741, 0.133), (0.090, 0.745, 0.812)]


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error exits with status 1 (as ipcc does), not 2."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(1, "%s: error: %s\n" % (self.prog, message))


class InputError(Exception):
    """Bad input: one line on stderr, exit status 1."""


class RenderError(Exception):
    """Rendering impossible or failed: exit status 2."""


def fail(msg, code):
    print("%s: error: %s" % (PROG, msg), file=sys.stderr)
    return code


# ---------------------------------------------------------------------------
# Arguments

def parse_size(text):
    try:
        w, h = text.lower().split("x")
        w, h = int(w), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError("expected WIDTHxHEIGHT in pixels, e.g. 1280x720, got '%s'" % text)
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError("size %dx%d out of range (16 to 8192 pixels each way)" % (w, h))
    return w, h


def parse_camera(text):
    t = text.strip().lower()
    if t in CAMERAS:
        return CAMERAS[t]
    try:
        az, el = (float(v) for v in t.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected one of %s, or AZIMUTH,ELEVATION in degrees, got '%s'"
                                         % (", ".join(CAMERAS), text))
    if not (math.isfinite(az) and math.isfinite(el) and -90 <= el <= 90):
        raise argparse.ArgumentTypeError("camera elevation must be within -90..90 degrees, got '%s'" % text)
    return az, el


def parse_frame_spec(text):
    """'all', or a comma list of frame numbers, ranges A-B and 'last'."""
    t = text.strip().lower()
    if t == "all":
        return t
    out = []
    for part in t.split(","):
        part = part.strip()
        if part == "last":
            out.append(-1)  # resolved once the frames are known
            continue
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise argparse.ArgumentTypeError("expected all, or frame numbers, ranges and 'last' such as 0,5,10-20,last; got '%s'"
                                             % text)
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) is not None else a
        if b < a:
            raise argparse.ArgumentTypeError("empty frame range '%s'" % part)
        out.extend(range(a, b + 1))
    return sorted(set(out))


# ---------------------------------------------------------------------------
# The frame list

class Frame:
    def __init__(self, number, time, vtu, vtp, contacts=None):
        self.number, self.time, self.vtu, self.vtp = number, time, vtu, vtp
        self.contacts = contacts  # contacts_*.vtp (output.contacts), or None


def frame_number(path, fallback):
    m = re.search(r"(\d+)\.vt[up]$", os.path.basename(path))
    return int(m.group(1)) if m else fallback


def read_pvd(outdir):
    """Frames listed in OUTDIR/frames.pvd: a .vtu opens a frame; the .vtp
    files of the same time step belong to it: its obstacles (part 1) and its
    contact report (part 2, contacts_*.vtp)."""
    pvd = os.path.join(outdir, "frames.pvd")
    try:
        root = ET.parse(pvd).getroot()
    except ET.ParseError as e:
        raise InputError("%s: not valid XML: %s" % (pvd, e))
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (pvd, e.strerror))
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        raise InputError("%s: not a VTK Collection (.pvd) file" % pvd)
    frames = []
    for i, ds in enumerate(root.iter("DataSet")):
        name = ds.get("file")
        if not name:
            raise InputError("%s: DataSet %d has no 'file' attribute" % (pvd, i + 1))
        ts = ds.get("timestep")
        try:
            time = float(ts) if ts is not None else None
        except ValueError:
            raise InputError("%s: DataSet %d: timestep '%s' is not a number" % (pvd, i + 1, ts))
        path = name if os.path.isabs(name) else os.path.join(outdir, name)
        if name.endswith(".vtu"):
            frames.append(Frame(frame_number(name, len(frames)), time, path, None))
        elif name.endswith(".vtp"):
            contacts = ds.get("part") == "2" or os.path.basename(name).startswith("contacts_")
            slot = "contacts" if contacts else "vtp"
            if not frames or getattr(frames[-1], slot) is not None or frames[-1].time != time:
                raise InputError("%s: DataSet %d (%s) is not preceded by a .vtu of the same time step"
                                 % (pvd, i + 1, name))
            setattr(frames[-1], slot, path)
        else:
            raise InputError("%s: DataSet %d: '%s' is neither a .vtu nor a .vtp" % (pvd, i + 1, name))
    if not frames:
        raise InputError("%s lists no frames" % pvd)
    return frames


def list_frames(outdir):
    if not os.path.exists(outdir):
        raise InputError("%s: no such directory" % outdir)
    if not os.path.isdir(outdir):
        raise InputError("%s: not a directory" % outdir)
    if os.path.exists(os.path.join(outdir, "frames.pvd")):
        return read_pvd(outdir)
    # No collection: fall back to the frame files themselves (times unknown).
    names = sorted(n for n in os.listdir(outdir) if re.fullmatch(r"frame_\d+\.vtu", n))
    if not names:
        raise InputError("%s: no frames.pvd and no frame_*.vtu (is this the -o folder of `ipcc run`?)"
                         % outdir)
    print("%s: note: %s has no frames.pvd; rendering its frame_*.vtu files" % (PROG, outdir), file=sys.stderr)
    frames = []
    for n in names:
        num = frame_number(n, len(frames))
        vtp = os.path.join(outdir, "obstacles_%06d.vtp" % num)
        frames.append(Frame(num, None, os.path.join(outdir, n), vtp if os.path.exists(vtp) else None))
    return frames


def check_files(frames, contacts):
    """Each selected frame's files exist and look like VTK XML, checked before
    any rendering (and before a re-run under xvfb-run, whose own exit status
    could hide ours)."""
    for f in frames:
        for path, kind in ((f.vtu, "vtu"), (f.vtp, "vtp"), (f.contacts if contacts else None, "vtp")):
            if path is None:
                continue
            try:
                with open(path, "rb") as fh:
                    head = fh.read(256)
            except FileNotFoundError:
                raise InputError("%s: no such file (listed in frames.pvd)" % path)
            except OSError as e:
                raise InputError("%s: cannot read: %s" % (path, e.strerror))
            if b"<VTKFile" not in head:
                raise InputError("%s: cannot read as a VTK .%s file: not VTK XML" % (path, kind))


def select_frames(frames, spec):
    if spec == "all":
        return frames
    spec = sorted(set(frames[-1].number if n == -1 else n for n in spec))
    by_number = {f.number: f for f in frames}
    missing = [n for n in spec if n not in by_number]
    if missing:
        raise InputError("no frame %s in this run (frames %d to %d)"
                         % (", ".join(str(n) for n in missing[:10]), frames[0].number, frames[-1].number))
    return [by_number[n] for n in spec]


# ---------------------------------------------------------------------------
# Display: VTK's X11 render window aborts the whole process when it cannot
# open a display, so whether rendering works is tried in a child process.

PROBE = ("import vtkmodules.vtkRenderingOpenGL2\n"
         "from vtkmodules.vtkRenderingCore import vtkRenderWindow, vtkRenderer\n"
         "w = vtkRenderWindow(); w.SetOffScreenRendering(1); w.SetSize(16, 16)\n"
         "w.AddRenderer(vtkRenderer()); w.Render()\n")


def needs_x_display():
    import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL window class)
    from vtkmodules.vtkRenderingCore import vtkRenderWindow
    name = vtkRenderWindow().GetClassName()  # the factory's choice: X, EGL or OSMesa
    return "XOpenGL" in name


def rendering_works():
    try:
        r = subprocess.run([sys.executable, "-c", PROBE], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def ensure_display(argv, size):
    """Return if VTK can render here; else re-run this script under xvfb-run
    (does not return), or raise RenderError saying what to install."""
    if not needs_x_display():
        return
    display = os.environ.get("DISPLAY", "")
    if display and rendering_works():
        return
    if os.environ.get(XVFB_GUARD):
        raise RenderError("VTK cannot render even under xvfb-run (DISPLAY=%s); check that Mesa's OpenGL "
                          "works: xvfb-run -a glxinfo (package mesa-utils)" % display)
    why = "no X display (DISPLAY is not set)" if not display else "the X display %s does not work" % display
    xvfb_run = shutil.which("xvfb-run")
    if not xvfb_run:
        raise RenderError("%s, and xvfb-run is not installed; install it with:\n"
                          "    apt-get install xvfb xauth\n"
                          "(or run with a working DISPLAY)" % why)
    if not shutil.which("xauth"):
        raise RenderError("%s, and xvfb-run needs xauth, which is not installed; install it with:\n"
                          "    apt-get install xauth" % why)
    print("%s: %s; running again under xvfb-run" % (PROG, why), file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    env = dict(os.environ)
    env[XVFB_GUARD] = "1"
    screen = "-screen 0 %dx%dx24" % (max(1280, size[0]), max(1024, size[1]))
    cmd = [xvfb_run, "-a", "-s", screen, sys.executable, os.path.abspath(__file__)] + list(argv)
    try:
        os.execve(xvfb_run, cmd, env)
    except OSError as e:
        raise RenderError("cannot run %s: %s" % (xvfb_run, e.strerror))


# ---------------------------------------------------------------------------
# Reading and rendering

class Reader:
    """A VTK XML reader whose errors are reported by us, not printed by VTK."""

    log = None  # one vtkStringOutputWindow collects every VTK message

    def __init__(self, cls):
        from vtkmodules.vtkCommonCore import vtkLogger, vtkOutputWindow, vtkStringOutputWindow
        if Reader.log is None:
            vtkLogger.SetStderrVerbosity(vtkLogger.VERBOSITY_OFF)
            Reader.log = vtkStringOutputWindow()
            vtkOutputWindow.SetInstance(Reader.log)
        self.reader = cls()

    @staticmethod
    def first_error(text):
        """'ERROR: In file.cxx, line N\\nClass (0x...): message' -> 'message'."""
        for block in text.split("ERROR: In "):
            lines = block.strip().splitlines()
            if len(lines) >= 2:
                return re.sub(r"^\w+ \(0x[0-9a-f]+\): ", "", lines[1].strip())
        return None

    def read(self, path, kind):
        if not os.path.isfile(path):
            raise InputError("%s: no such file (listed in frames.pvd)" % path)
        seen = len(Reader.log.GetOutput() or "")
        self.reader.SetFileName(path)
        self.reader.Modified()
        self.reader.Update()
        out = self.reader.GetOutput()
        error = self.first_error((Reader.log.GetOutput() or "")[seen:])
        if error or out is None or (kind == "vtu" and out.GetNumberOfPoints() == 0):
            raise InputError("%s: cannot read as a VTK .%s file: %s" % (path, kind, error or "no points"))
        return out


def field_array(data, field, path):
    assoc = FIELDS[field][0]
    attrs = data.GetPointData() if assoc == "point" else data.GetCellData()
    arr = attrs.GetArray(field)
    if arr is None:
        have = [attrs.GetArrayName(i) for i in range(attrs.GetNumberOfArrays())]
        raise InputError("%s has no %s array '%s' (it has: %s)"
                         % (path, assoc, field, ", ".join(n for n in have if n) or "none"))
    return arr


def union(b, c):
    if b is None:
        return list(c)
    return [min(b[0], c[0]), max(b[1], c[1]), min(b[2], c[2]), max(b[3], c[3]), min(b[4], c[4]), max(b[5], c[5])]


def valid_bounds(b):
    return b is not None and all(math.isfinite(v) for v in b) and b[0] <= b[1] and b[2] <= b[3] and b[4] <= b[5]


def camera_vectors(up_axis, az_deg, el_deg):
    """Direction from the focal point to the camera, and the view-up vector."""
    sign = -1.0 if up_axis.startswith("-") else 1.0
    axis = "xyz".index(up_axis[-1])
    up = [0.0, 0.0, 0.0]
    up[axis] = sign
    # Where the camera sits in the front view: on +z (x or y up), or on -y
    # looking along +y (z up, as in most CAD tools).
    front = [0.0, -1.0, 0.0] if axis == 2 else [0.0, 0.0, 1.0]
    right = [up[1] * front[2] - up[2] * front[1], up[2] * front[0] - up[0] * front[2],
             up[0] * front[1] - up[1] * front[0]]
    az, el = math.radians(az_deg), math.radians(el_deg)
    horiz = [math.cos(az) * f + math.sin(az) * r for f, r in zip(front, right)]
    d = [math.cos(el) * h + math.sin(el) * u for h, u in zip(horiz, up)]
    if abs(el_deg) > 89.0:  # looking straight down or up: the front goes to the bottom of the image
        view_up = [-math.copysign(1.0, el_deg) * h for h in horiz]
    else:
        view_up = up
    return d, view_up


def fit_view(cam, bounds, aspect, right_edge, top_edge, zoom):
    """Zoom and shift the view so that the box's eight corners fill the
    image left of right_edge and below top_edge (normalized coordinates,
    -1..1: room for the scalar bar and the time label), with a margin. The view-angle zoom scales the normalized
    coordinates exactly, so one pass suffices."""
    m = cam.GetCompositeProjectionTransformMatrix(aspect, -1, 1)
    xs, ys = [], []
    for x in bounds[0:2]:
        for y in bounds[2:4]:
            for z in bounds[4:6]:
                p = [sum(m.GetElement(i, j) * v for j, v in enumerate((x, y, z, 1.0))) for i in range(4)]
                if p[3] <= 0:
                    return  # a corner behind the camera: keep the sphere fit
                xs.append(p[0] / p[3])
                ys.append(p[1] / p[3])
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    room_x, room_y = (right_edge + 1.0) * 0.92, (top_edge + 1.0) * 0.92
    factor = min(room_x / span_x if span_x > 0 else math.inf, room_y / span_y if span_y > 0 else math.inf)
    if not math.isfinite(factor):
        return
    factor *= zoom
    cam.Zoom(factor)
    # After the zoom the box's centre is at factor * its old centre; move it
    # to the middle of the free area (the window centre shifts the image).
    cx, cy = (max(xs) + min(xs)) / 2 * factor, (max(ys) + min(ys)) / 2 * factor
    cam.SetWindowCenter(cx - (right_edge - 1.0) / 2, cy - (top_edge - 1.0) / 2)


def build_lut(field, lo, hi, n_bodies):
    from vtkmodules.vtkCommonCore import vtkLookupTable, vtkVariant
    lut = vtkLookupTable()
    if field == "body_id":
        lut.IndexedLookupOn()
        lut.SetNumberOfTableValues(n_bodies)
        for i in range(n_bodies):
            c = BODY_COLORS[i % len(BODY_COLORS)]
            lut.SetTableValue(i, c[0], c[1], c[2], 1.0)
            lut.SetAnnotation(vtkVariant(i), "body %d" % i)
        return lut
    n = 256
    lut.SetNumberOfTableValues(n)
    for i in range(n):
        x = i / (n - 1) * (len(VIRIDIS) - 1)
        k = min(int(x), len(VIRIDIS) - 2)
        f = x - k
        c = [(1 - f) * a + f * b for a, b in zip(VIRIDIS[k], VIRIDIS[k + 1])]
        lut.SetTableValue(i, c[0], c[1], c[2], 1.0)
    lut.SetVectorModeToMagnitude()
    lut.SetRange(lo, hi)
    return lut


def render(frames, args):
    import vtkmodules.vtkInteractionStyle  # noqa: F401
    import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text)
    import vtkmodules.vtkRenderingOpenGL2  # noqa: F401
    from vtkmodules.vtkFiltersGeometry import vtkDataSetSurfaceFilter
    from vtkmodules.vtkIOImage import vtkPNGWriter
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader, vtkXMLUnstructuredGridReader
    from vtkmodules.vtkRenderingAnnotation import vtkScalarBarActor
    from vtkmodules.vtkRenderingCore import (vtkActor, vtkDataSetMapper, vtkLightKit, vtkPolyDataMapper,
                                             vtkRenderer, vtkRenderWindow, vtkTextActor,
                                             vtkWindowToImageFilter)

    field = args.color_by
    vtu_reader = Reader(vtkXMLUnstructuredGridReader)
    vtp_reader = Reader(vtkXMLPolyDataReader)

    # Pass 1: bounds and colour range over every frame rendered.
    body_bounds = all_bounds = None
    lo, hi, n_bodies = math.inf, -math.inf, 1
    for f in frames:
        grid = vtu_reader.read(f.vtu, "vtu")
        b = grid.GetBounds()
        body_bounds = union(body_bounds, b)
        all_bounds = union(all_bounds, b)
        arr = field_array(grid, field, f.vtu)
        r = arr.GetRange(0) if field == "body_id" else arr.GetRange(-1)
        lo, hi = min(lo, r[0]), max(hi, r[1])
        if field == "body_id":
            n_bodies = max(n_bodies, int(r[1]) + 1)
        if f.vtp:
            obs = vtp_reader.read(f.vtp, "vtp")
            if obs.GetNumberOfPoints() > 0:
                all_bounds = union(all_bounds, obs.GetBounds())
    fit = all_bounds if args.fit == "all" else body_bounds
    if not valid_bounds(fit):
        raise InputError("the frames have no finite bounds to fit the camera to")
    if field != "body_id":
        lo = 0.0  # magnitudes: start the colour bar at zero
    constant = not (hi > lo)
    if constant:
        hi = lo + 1.0

    # The scene.
    renderer = vtkRenderer()
    renderer.SetBackground(*BACKGROUND)
    lights = vtkLightKit()  # key, fill and back lights: faces seen at a grazing angle stay readable
    lights.SetKeyLightIntensity(0.85)
    lights.AddLightsToRenderer(renderer)
    window = vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetMultiSamples(0)
    window.SetSize(*args.size)
    window.AddRenderer(renderer)

    surface = vtkDataSetSurfaceFilter()
    surface.SetInputConnection(vtu_reader.reader.GetOutputPort())
    lut = build_lut(field, lo, hi, n_bodies)
    body_mapper = vtkPolyDataMapper()
    body_mapper.SetInputConnection(surface.GetOutputPort())
    body_mapper.SetLookupTable(lut)
    body_mapper.SetColorModeToMapScalars()
    if FIELDS[field][0] == "point":
        body_mapper.SetScalarModeToUsePointFieldData()
    else:
        body_mapper.SetScalarModeToUseCellFieldData()
    body_mapper.SelectColorArray(field)
    body_mapper.SetUseLookupTableScalarRange(field != "body_id")
    body_mapper.ScalarVisibilityOn()
    body = vtkActor()
    body.SetMapper(body_mapper)
    if args.edges:
        body.GetProperty().EdgeVisibilityOn()
        body.GetProperty().SetEdgeColor(0.15, 0.15, 0.15)
    renderer.AddActor(body)

    obstacle_mapper = vtkDataSetMapper()
    obstacle_mapper.SetInputConnection(vtp_reader.reader.GetOutputPort())
    obstacle_mapper.ScalarVisibilityOff()
    obstacles = vtkActor()
    obstacles.SetMapper(obstacle_mapper)
    prop = obstacles.GetProperty()
    prop.SetColor(*OBSTACLE_COLOR)
    prop.SetLineWidth(2.0)
    prop.SetPointSize(5.0)
    renderer.AddActor(obstacles)

    contact_reader = Reader(vtkXMLPolyDataReader)
    contact_mapper = vtkDataSetMapper()
    contact_mapper.SetInputConnection(contact_reader.reader.GetOutputPort())
    contact_mapper.ScalarVisibilityOff()
    contact_points = vtkActor()
    contact_points.SetMapper(contact_mapper)
    contact_points.GetProperty().SetColor(0.85, 0.1, 0.1)
    contact_points.GetProperty().SetPointSize(4.0)
    contact_points.GetProperty().RenderPointsAsSpheresOn()
    renderer.AddActor(contact_points)

    bar = vtkScalarBarActor()
    title = FIELDS[field][1] + ("\n(all %.3g)" % lo if constant else "")
    bar.SetLookupTable(lut)
    bar.SetTitle(title)
    bar.SetNumberOfLabels(5)
    bar.SetLabelFormat("%-.3g")
    bar.SetOrientationToVertical()
    bar.UnconstrainedFontSizeOn()
    # Text in proportion to the image; the bar's box wide enough for its
    # labels and title (about 0.6 font sizes per character), at the right.
    width, height = args.size
    font = max(7, int(round(min(height / 45.0, width / 70.0))))
    labels = 7 if field != "body_id" else 2 + len("body %d" % (n_bodies - 1))
    box = max(2.0 * font + 0.62 * font * labels, 0.62 * font * max(len(t) for t in title.split("\n")))
    box = min(0.4, (box + 0.5 * font) / width)
    bar.SetPosition(0.99 - box, 0.06)
    bar.SetWidth(box)
    bar.SetHeight(0.78)
    bar.SetVerticalTitleSeparation(max(2, font // 2))
    for tp in (bar.GetTitleTextProperty(), bar.GetLabelTextProperty(), bar.GetAnnotationTextProperty()):
        tp.SetColor(*TEXT_COLOR)
        tp.SetFontSize(font)
        tp.BoldOff()
        tp.ItalicOff()
        tp.ShadowOff()
    renderer.AddActor2D(bar)

    label = vtkTextActor()
    label.GetTextProperty().SetColor(*TEXT_COLOR)
    label.GetTextProperty().SetFontSize(int(font * 1.2))
    label.SetDisplayPosition(font, args.size[1] - int(font * 2.2))
    renderer.AddActor2D(label)

    # One camera for every frame, fit to the union of the bounds.
    d, view_up = camera_vectors(args.up, *args.camera)
    c = [(fit[0] + fit[1]) / 2, (fit[2] + fit[3]) / 2, (fit[4] + fit[5]) / 2]
    cam = renderer.GetActiveCamera()
    cam.SetFocalPoint(*c)
    cam.SetPosition(*[ci + di for ci, di in zip(c, d)])
    cam.SetViewUp(*view_up)
    cam.SetViewAngle(30.0)
    renderer.ResetCamera(fit)  # fits the bounding sphere: loose for flat or long bodies
    fit_view(cam, fit, width / height, right_edge=2.0 * (0.97 - box) - 1.0,
             top_edge=1.0 - 2.0 * 2.4 * font / height, zoom=args.zoom)

    grab = vtkWindowToImageFilter()
    grab.SetInput(window)
    grab.SetInputBufferTypeToRGB()
    grab.ReadFrontBufferOff()
    writer = vtkPNGWriter()
    writer.SetInputConnection(grab.GetOutputPort())

    os.makedirs(args.png_dir, exist_ok=True)
    written = []
    for f in frames:
        vtu_reader.read(f.vtu, "vtu")
        if f.vtp:
            vtp_reader.read(f.vtp, "vtp")
        obstacles.SetVisibility(1 if f.vtp else 0)
        show_contacts = bool(args.contacts and f.contacts)
        if show_contacts:
            show_contacts = contact_reader.read(f.contacts, "vtp").GetNumberOfPoints() > 0
        contact_points.SetVisibility(1 if show_contacts else 0)
        text = "frame %d" % f.number
        if f.time is not None:
            text = "t = %.4g s   %s" % (f.time, text)
        label.SetInput(text)
        renderer.ResetCameraClippingRange()
        seen = len(Reader.log.GetOutput() or "")
        window.Render()
        error = Reader.first_error((Reader.log.GetOutput() or "")[seen:])
        if error:
            raise RenderError("rendering frame %d failed: %s" % (f.number, error))
        grab.Modified()
        out = os.path.join(args.png_dir, "frame_%06d.png" % f.number)
        tmp = out + ".tmp.png"
        writer.SetFileName(tmp)
        writer.Write()
        if writer.GetErrorCode() or not os.path.isfile(tmp):
            raise RenderError("cannot write %s" % tmp)
        os.replace(tmp, out)
        written.append(out)
    return written


def ffmpeg_hint(frames, png_dir):
    times = [f.time for f in frames if f.time is not None]
    fps = 25
    if len(times) >= 3:
        steps = sorted(b - a for a, b in zip(times, times[1:]) if b > a)
        if steps:
            dt = steps[len(steps) // 2]
            fps = max(1, min(120, int(round(1.0 / dt))))
    pattern = os.path.join(png_dir, "frame_*.png")
    return ("ffmpeg -framerate %d -pattern_type glob -i '%s' -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' "
            "-c:v libx264 -pix_fmt yuv420p %s" % (fps, pattern, os.path.join(png_dir, "video.mp4")))


def main(argv):
    ap = ArgumentParser(
        prog=PROG,
        description="Render an ipcc run's frames (OUTDIR/frames.pvd) to PNG images with VTK, off screen.",
        epilog="Exit status: 0 done, 1 bad usage or input, 2 rendering not possible here or failed. "
               "Without a working X display the script re-runs itself under xvfb-run -a "
               "(apt-get install xvfb xauth).")
    ap.add_argument("outdir", metavar="OUTDIR", help="output folder of `ipcc run SCENE -o OUTDIR`")
    ap.add_argument("-o", "--output", dest="png_dir", metavar="PNG_DIR",
                    help="folder for frame_NNNNNN.png (default OUTDIR/png)")
    ap.add_argument("--frames", type=parse_frame_spec, default="all", metavar="all|last|N,M,A-B",
                    help="frames to render, by frame number (default all)")
    ap.add_argument("--size", type=parse_size, default=(1280, 720), metavar="WxH",
                    help="image size in pixels (default 1280x720)")
    ap.add_argument("--color-by", choices=sorted(FIELDS), default="displacement",
                    help="colour the bodies by this field's magnitude, or by body (default displacement)")
    ap.add_argument("--camera", type=parse_camera, default=CAMERAS["iso"], metavar="VIEW",
                    help="%s, or AZIMUTH,ELEVATION in degrees from the front view (default iso = 35,25)"
                         % "|".join(CAMERAS))
    ap.add_argument("--up", choices=["x", "y", "z", "-x", "-y", "-z"], default="y",
                    help="the axis pointing up in the images (default y, against the examples' gravity)")
    ap.add_argument("--zoom", type=float, default=1.0, help="zoom factor after fitting (default 1)")
    ap.add_argument("--fit", choices=["bodies", "all"], default="bodies",
                    help="fit the camera to the bodies only (default) or to bodies and obstacles")
    ap.add_argument("--edges", action="store_true", help="draw the surface triangles' edges")
    ap.add_argument("--contacts", action="store_true",
                    help="draw the contact report's points (contacts_*.vtp, output.contacts) as red dots")
    args = ap.parse_args(argv)
    if not (math.isfinite(args.zoom) and args.zoom > 0):
        ap.error("--zoom must be a positive number")

    try:
        frames = list_frames(args.outdir)
        selected = select_frames(frames, args.frames)
        check_files(selected, args.contacts)
    except InputError as e:
        return fail(e, 1)
    if args.png_dir is None:
        args.png_dir = os.path.join(args.outdir, "png")
    if os.path.exists(args.png_dir) and not os.path.isdir(args.png_dir):
        return fail("%s: exists and is not a directory" % args.png_dir, 1)

    try:
        import vtkmodules.vtkRenderingCore  # noqa: F401
    except ImportError:
        return fail("VTK's Python module is not installed for %s; install it with:\n"
                    "    apt-get install python3-vtk9\n"
                    "and run this script with Debian's /usr/bin/python3" % sys.executable, 2)

    try:
        ensure_display(argv, args.size)
        written = render(selected, args)
    except InputError as e:
        return fail(e, 1)
    except RenderError as e:
        return fail(e, 2)
    except OSError as e:
        return fail("%s: %s" % (getattr(e, "filename", "") or args.png_dir, e.strerror or e), 1)

    print("wrote %d PNG%s to %s (coloured by %s)" % (len(written), "" if len(written) == 1 else "s",
                                                   args.png_dir, args.color_by))
    print("make a video with ffmpeg (not needed by this script):")
    print("  " + ffmpeg_hint(frames, args.png_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
