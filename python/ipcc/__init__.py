"""ipcc from Python: scenes, stepping and state (docs/python.md).

    import ipcc
    scene = ipcc.Scene.load("examples/contact_cubes.json", overrides={"contact.friction": 0.5})
    world = scene.world()          # the world `ipcc run` builds from the scene
    stats = world.step()           # an ipcc.StepStats
    x = world.positions            # (n, 3) read-only view of the world's memory, no copy
    with world.edit() as state:    # writable copies, checked and applied at the block's end
        state.velocities[world.vertices_of("cube")] += [1, 0, 0]

Lifetimes. A World owns its C world through a handle that every view of its
memory (positions, velocities, ...) keeps alive: world.close() ends the
World (any later use raises ipcc.ClosedError) but the C world is destroyed
only when the last view of it is gone, so a view never points at freed
memory. Views are live: they show the world's state as it steps.

Errors. Every failing call raises ipcc.Error carrying the library's message
(file, line, key path, body), and the status name; nothing crashes the
interpreter on bad input. The GIL is released during every library call
(ctypes), so step() lets other threads run.
"""
import dataclasses
import ctypes
import os

import numpy as np

from . import _lib

__all__ = ["Error", "ClosedError", "Scene", "World", "StepStats", "Output", "version", "library_path",
           "read_frames", "read_frame", "compare", "sweep"]


class Error(Exception):
    """A failed ipcc call: str() is the library's message; .status its status name."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class ClosedError(Error):
    """A World used after close()."""

    def __init__(self, what):
        super().__init__("IPCC_ERR_INVALID_ARGUMENT", f"ipcc: {what}: the world is closed")


def version():
    """The library's version string, e.g. "0.1.0"."""
    return _lib.lib.ipcc_version().decode()


def library_path():
    """The path of the shared library this package loaded."""
    return _lib.path


def _check(status, default):
    if status < 0:
        message = (_lib.lib.ipcc_last_error() or b"").decode(errors="replace") or default
        raise Error(_lib.lib.ipcc_status_name(status).decode(), message)
    return status


def _fspath(path):
    return os.fsencode(os.fspath(path))


@dataclasses.dataclass(frozen=True)
class StepStats:
    """What one step did (ipcc_step_stats in include/ipcc/world.h; times in wall seconds)."""
    step: int
    time: float
    newton_iterations: int
    line_search_steps: int
    factorization_fallbacks: int
    energy: float
    residual: float
    velocity_error: float
    converged: bool
    time_assembly: float
    time_factorization: float
    time_solve: float
    time_line_search: float
    time_total: float
    lift_iterations: int
    num_contacts: int
    min_distance: float
    kappa: float
    time_ccd: float
    time_broad_phase: float
    friction_iterations: int
    friction_contacts: int
    friction_dissipation: float
    time_symbolic: float
    time_constraint_search: float
    time_energy: float
    substeps: int  # parts the step was solved in: 1, or more when split (newton.max_splits)


class Scene:
    """A parsed scene file (JSON or IPC script), as `ipcc run` reads it."""

    def __init__(self, handle, path):
        self._handle = handle
        self.path = path

    @classmethod
    def load(cls, path, overrides=None, strict=False):
        """Load `path`. overrides: {"key.path": value} set before validation, as
        `ipcc run --set key.path=value` (values are JSON: numbers, true,
        "strings" quoted or not as on the command line). strict: an unknown
        IPC script keyword is an error, not a warning."""
        items = []
        for key, value in (overrides or {}).items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            items.append(f"{key}={value}".encode())
        array = (ctypes.c_char_p * max(len(items), 1))(*items)
        options = _lib.SceneOptionsC(strict, len(items), array)
        out = ctypes.c_void_p()
        _lib.lib.ipcc_clear_error()
        _check(_lib.lib.ipcc_scene_load_with_options(_fspath(path), ctypes.byref(options), ctypes.byref(out)),
               f"ipcc: {path}: cannot load")
        return cls(_SceneHandle(out.value), os.fspath(path))

    def world(self):
        """A new World built from the scene and started (its initial state
        checked: intersecting or inverted input raises ipcc.Error)."""
        if self._handle.ptr is None:
            raise ClosedError("Scene.world")
        out = ctypes.c_void_p()
        _lib.lib.ipcc_clear_error()
        try:  # named by the scene, as `ipcc run` names them
            _check(_lib.lib.ipcc_scene_create_world(self._handle.ptr, ctypes.byref(out)), "cannot build the world")
            handle = _WorldHandle(out.value)
            _check(_lib.lib.ipcc_world_start(handle.ptr), "cannot start the world")
        except Error as e:
            message = str(e)
            raise Error(e.status, message if message.startswith(self.path) else f"{self.path}: {message}") from None
        return World(handle, self)

    def close(self):
        """Free the scene (its worlds live on). Closing twice raises ipcc.ClosedError."""
        if self._handle.ptr is None:
            raise ClosedError("Scene.close")
        self._handle.destroy()


class _SceneHandle:
    def __init__(self, ptr):
        self.ptr = ptr

    def destroy(self):
        if self.ptr is not None:
            _lib.lib.ipcc_scene_destroy(self.ptr)
            self.ptr = None

    def __del__(self):
        self.destroy()


class _WorldHandle:
    """Owns a C world; destroyed when the last reference (World or view) goes."""

    def __init__(self, ptr):
        self.ptr = ptr

    def __del__(self):
        if self.ptr is not None:
            _lib.lib.ipcc_world_destroy(self.ptr)
            self.ptr = None


class _View:
    """An __array_interface__ over the world's memory that keeps its handle alive."""

    def __init__(self, handle, address, shape, typestr):
        self.handle = handle
        self.__array_interface__ = {"data": (address, True), "shape": shape, "typestr": typestr, "version": 3}


class World:
    """A simulation world (ipcc_world). Build one with Scene.world()."""

    def __init__(self, handle, scene):
        self._handle = handle
        self._scene = scene  # the scene owns the meshes the world was built from

    def _ptr(self, what):
        if self._handle is None:
            raise ClosedError(f"World.{what}")
        return self._handle.ptr

    def step(self):
        """Take one time step; returns its StepStats. A step that ends
        unconverged returns with stats.converged False (as `ipcc run`
        warns); a failure raises ipcc.Error."""
        ptr = self._ptr("step")
        stats = _lib.StepStatsC()
        _lib.lib.ipcc_clear_error()
        _check(_lib.lib.ipcc_world_step(ptr, ctypes.byref(stats)), "ipcc: the step failed")
        return StepStats(**{name: getattr(stats, name) for name, _ in _lib.StepStatsC._fields_})

    def _view(self, what, getter, rows, cols, typestr, size):
        ptr = self._ptr(what)
        address = ctypes.cast(getter(ptr), ctypes.c_void_p).value
        shape = (rows, cols) if cols else (rows,)
        if rows == 0 or address is None:
            return np.zeros(shape, dtype=np.dtype(typestr))
        array = np.asarray(_View(self._handle, address, shape, typestr))
        assert not array.flags.writeable and array.nbytes == rows * max(cols, 1) * size
        return array

    @property
    def num_vertices(self):
        return _lib.lib.ipcc_world_num_vertices(self._ptr("num_vertices"))

    @property
    def num_tets(self):
        return _lib.lib.ipcc_world_num_tets(self._ptr("num_tets"))

    @property
    def positions(self):
        """(num_vertices, 3) float64, m: a read-only live view, no copy."""
        return self._view("positions", _lib.lib.ipcc_world_positions, self.num_vertices, 3, "<f8", 8)

    @property
    def velocities(self):
        """(num_vertices, 3) float64, m/s: a read-only live view."""
        return self._view("velocities", _lib.lib.ipcc_world_velocities, self.num_vertices, 3, "<f8", 8)

    @property
    def rest_positions(self):
        """(num_vertices, 3) float64, m: the placed positions at t = 0."""
        return self._view("rest_positions", _lib.lib.ipcc_world_rest_positions, self.num_vertices, 3, "<f8", 8)

    @property
    def masses(self):
        """(num_vertices,) float64, kg: lumped masses (0 for obstacles)."""
        return self._view("masses", _lib.lib.ipcc_world_masses, self.num_vertices, 0, "<f8", 8)

    @property
    def tets(self):
        """(num_tets, 4) int32: world vertex indices."""
        return self._view("tets", _lib.lib.ipcc_world_tets, self.num_tets, 4, "<i4", 4)

    @property
    def time(self):
        """Simulated time, s."""
        return _lib.lib.ipcc_world_time(self._ptr("time"))

    @property
    def step_count(self):
        return _lib.lib.ipcc_world_step_count(self._ptr("step_count"))

    @property
    def time_step(self):
        return _lib.lib.ipcc_world_time_step(self._ptr("time_step"))

    @property
    def body_names(self):
        ptr = self._ptr("body_names")
        return [_lib.lib.ipcc_world_body_name(ptr, b).decode() for b in range(_lib.lib.ipcc_world_num_bodies(ptr))]

    def body_of_vertex(self, v):
        """The name of the body holding world vertex v."""
        ptr = self._ptr("body_of_vertex")
        first, count = ctypes.c_int(), ctypes.c_int()
        for b in range(_lib.lib.ipcc_world_num_bodies(ptr)):
            _lib.lib.ipcc_world_body_vertices(ptr, b, ctypes.byref(first), ctypes.byref(count))
            if first.value <= v < first.value + count.value:
                return _lib.lib.ipcc_world_body_name(ptr, b).decode()
        raise IndexError(f"ipcc: no body holds vertex {v}")

    def fingerprint(self):
        """64-bit fingerprint of the world's setup (not its state): equal for worlds of one scene."""
        return _lib.lib.ipcc_world_fingerprint(self._ptr("fingerprint"))

    def contacts(self):
        """The contacts of the current state as a structured array, one
        record per active barrier constraint and per friction contact of the
        last step (ipcc_world_contacts, docs/output.md): type, object_a,
        object_b, vertices (4, -1 unused), point_a, point_b, position, normal
        (3 each, m), distance (m), normal_force (N), friction_force (3, N),
        active. contact_object_names() names the objects."""
        ptr = self._ptr("contacts")
        report = ctypes.c_void_p()
        _check(_lib.lib.ipcc_contact_report_create(ctypes.byref(report)),
               "ipcc: out of memory for the contact report")
        try:
            records = ctypes.POINTER(_lib.ContactRecordC)()
            count = ctypes.c_int(0)
            _check(_lib.lib.ipcc_world_contacts(ptr, report, ctypes.byref(records), ctypes.byref(count)),
                   "ipcc: out of memory listing the contacts")
            n = count.value
            out = np.zeros(n, dtype=CONTACT_DTYPE)
            if n:  # the C records as _RECORD_DTYPE (the struct's own layout), copied field by field
                size = ctypes.sizeof(_lib.ContactRecordC)
                buf = (ctypes.c_char * (n * size)).from_address(ctypes.addressof(records.contents))
                raw = np.frombuffer(buf, dtype=_RECORD_DTYPE, count=n)
                for name in CONTACT_DTYPE.names:
                    out[name] = raw[name]
            return out
        finally:
            _lib.lib.ipcc_contact_report_destroy(report)

    def contact_object_names(self):
        """The names of the contact objects (bodies, half-spaces, shapes), indexed by id."""
        ptr = self._ptr("contact_object_names")
        names = []
        for i in range(_lib.lib.ipcc_world_num_contact_objects(ptr)):
            buf = ctypes.create_string_buffer(256)
            _lib.lib.ipcc_world_contact_object_name(ptr, i, buf, len(buf))
            names.append(buf.value.decode(errors="replace"))
        return names

    def vertices_of(self, body):
        """The slice of the world's vertices that body `body` (its name or
        index) holds: world.positions[world.vertices_of("cube")]."""
        ptr = self._ptr("vertices_of")
        names = self.body_names
        b = names.index(body) if isinstance(body, str) and body in names else body
        if not isinstance(b, int) or not 0 <= b < len(names):
            raise KeyError(f"ipcc: no body {body!r} (bodies: {', '.join(names)})")
        first, count = ctypes.c_int(), ctypes.c_int()
        _lib.lib.ipcc_world_body_vertices(ptr, b, ctypes.byref(first), ctypes.byref(count))
        return slice(first.value, first.value + count.value)

    def _state_array(self, name, value):
        n = self.num_vertices
        a = np.ascontiguousarray(value, dtype=np.float64)
        if a.shape != (n, 3):
            raise ValueError(f"ipcc: {name} must have shape ({n}, 3), not {a.shape}")
        return a

    def set_state(self, positions=None, velocities=None):
        """Replace the positions and/or velocities ((num_vertices, 3), m and
        m/s; None keeps that part) between steps (ipcc_world_set_state).
        The new state is checked as the initial state is: a non-finite or
        overflowing value, a change to a vertex whose motion is prescribed,
        an inverted tet, or bodies that intersect or touch raise ipcc.Error
        naming the body, and leave the world unchanged."""
        ptr = self._ptr("set_state")
        x = None if positions is None else self._state_array("positions", positions)
        v = None if velocities is None else self._state_array("velocities", velocities)
        as_ptr = (lambda a: None if a is None else a.ctypes.data_as(_lib.c_double_p))
        _lib.lib.ipcc_clear_error()
        _check(_lib.lib.ipcc_world_set_state(ptr, as_ptr(x), as_ptr(v)), "ipcc: the new state was refused")

    def edit(self):
        """Writable copies of the state, applied (checked, as set_state) when
        the with-block ends without an exception:

            with world.edit() as state:
                state.velocities[world.vertices_of("cube")] += [1, 0, 0]

        A part left unchanged is not set. An exception inside the block, or
        a refused state, leaves the world as it was."""
        return _StateEdit(self)

    def checkpoint(self, path):
        """Write the world's state to `path` (atomically; ipcc_checkpoint_write)."""
        ptr = self._ptr("checkpoint")
        _lib.lib.ipcc_clear_error()
        _check(_lib.lib.ipcc_checkpoint_write(_fspath(path), ptr, None, 0), f"ipcc: {path}: cannot write")

    def restore(self, path):
        """Replace the world's state with the one saved in `path` (by this or
        an equal world, or by `ipcc run`): a new C world is built from the
        scene and the checkpoint read into it, so views taken before keep
        showing the old state (take them again). Raises ipcc.Error, leaving
        the world as it was, if the file is not a checkpoint of this scene."""
        self._ptr("restore")
        out = ctypes.c_void_p()
        if self._scene._handle.ptr is None:
            raise ClosedError("World.restore (its scene)")
        _lib.lib.ipcc_clear_error()
        _check(_lib.lib.ipcc_scene_create_world(self._scene._handle.ptr, ctypes.byref(out)),
               "ipcc: cannot build the world")
        handle = _WorldHandle(out.value)
        _check(_lib.lib.ipcc_checkpoint_read(_fspath(path), handle.ptr, None, None), f"ipcc: {path}: cannot read")
        self._handle = handle

    def close(self):
        """End the World: later use raises ipcc.ClosedError, and so does a
        second close(). The C world is freed once no view of it is left."""
        if self._handle is None:
            raise ClosedError("World.close")
        self._handle = None

    @property
    def closed(self):
        return self._handle is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._handle is not None:
            self.close()


class _StateEdit:
    """World.edit()'s context: positions and velocities as writable copies."""

    def __init__(self, world):
        self._world = world
        self._x0 = np.array(world.positions)
        self._v0 = np.array(world.velocities)
        self.positions = self._x0.copy()
        self.velocities = self._v0.copy()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            return False
        x = None if np.array_equal(self.positions, self._x0) else self.positions
        v = None if np.array_equal(self.velocities, self._v0) else self.velocities
        if x is not None or v is not None:
            self._world.set_state(positions=x, velocities=v)
        return False


class Output:
    """Frames written as `ipcc run` writes them (ipcc_output, docs/output.md):
    frame_NNNNNN.vtu per write(), obstacles and, with contacts=True, contact
    reports beside it, and frames.pvd, each file atomically. compress: zlib
    frames (the default, as `output.compress`)."""

    def __init__(self, folder, contacts=False, compress=True):
        out = ctypes.c_void_p()
        _lib.lib.ipcc_clear_error()
        _check(_lib.lib.ipcc_output_create(_fspath(folder), ctypes.byref(out)), f"ipcc: {folder}: cannot write")
        self._ptr = out.value
        self.folder = os.fspath(folder)
        _check(_lib.lib.ipcc_output_set_compress(self._ptr, bool(compress)), "ipcc: cannot set the compression")
        _check(_lib.lib.ipcc_output_set_contacts(self._ptr, bool(contacts)), "ipcc: cannot set the contacts")

    def write(self, world):
        """Write the world's current state as the next frame."""
        if self._ptr is None:
            raise ClosedError("Output.write")
        _lib.lib.ipcc_clear_error()
        _check(_lib.lib.ipcc_output_write_frame(self._ptr, world._ptr("write")), f"ipcc: {self.folder}: cannot write")

    @property
    def frame_count(self):
        if self._ptr is None:
            raise ClosedError("Output.frame_count")
        return _lib.lib.ipcc_output_frame_count(self._ptr)

    def close(self):
        if self._ptr is None:
            raise ClosedError("Output.close")
        _lib.lib.ipcc_output_destroy(self._ptr)
        self._ptr = None

    def __del__(self):
        if getattr(self, "_ptr", None) is not None:
            _lib.lib.ipcc_output_destroy(self._ptr)
            self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._ptr is not None:
            self.close()


CONTACT_DTYPE = np.dtype([
    ("type", "i4"), ("object_a", "i4"), ("object_b", "i4"), ("vertices", "i4", 4), ("point_a", "f8", 3),
    ("point_b", "f8", 3), ("position", "f8", 3), ("normal", "f8", 3), ("distance", "f8"), ("normal_force", "f8"),
    ("friction_force", "f8", 3), ("active", "?"),
])

# ipcc_contact_record as stored (C alignment); checked against the ctypes
# mirror, itself checked against the library's sizeof (_lib.py).
_RECORD_DTYPE = np.dtype(CONTACT_DTYPE.descr, align=True)
for _name, _ in _lib.ContactRecordC._fields_:
    if _RECORD_DTYPE.fields[_name][1] != getattr(_lib.ContactRecordC, _name).offset:
        raise ImportError(f"ipcc: the contact record's field {_name} is not where numpy would put it")
if _RECORD_DTYPE.itemsize != ctypes.sizeof(_lib.ContactRecordC):
    raise ImportError("ipcc: the contact record's size differs between numpy and ctypes")

from .frames import compare, read_frame, read_frames  # noqa: E402 (needs Error above)
from .batch import sweep  # noqa: E402
