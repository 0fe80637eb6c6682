"""The shared library, its prototypes and mirrors of its public structs.

Everything here is private to the package: ipcc/__init__.py is the API.

The library is found, in this order, at IPCC_LIBRARY (a path), at the path
recorded when the package was built (ipcc/_build.py, written by `make
python`), and by the system's linker search (ctypes.util.find_library).
Each struct mirror is checked against the library's own sizeof
(ipcc_struct_size) when the library is loaded, so a library of another
layout is refused at import instead of corrupting memory.

ctypes.CDLL releases the GIL for the duration of every call, so a long
ipcc_world_step leaves other Python threads running.
"""
import ctypes
import ctypes.util
import os

c_double_p = ctypes.POINTER(ctypes.c_double)
c_int_p = ctypes.POINTER(ctypes.c_int)


class StepStatsC(ctypes.Structure):
    """ipcc_step_stats (include/ipcc/world.h), field for field."""
    _fields_ = [
        ("step", ctypes.c_int),
        ("time", ctypes.c_double),
        ("newton_iterations", ctypes.c_int),
        ("line_search_steps", ctypes.c_int),
        ("factorization_fallbacks", ctypes.c_int),
        ("energy", ctypes.c_double),
        ("residual", ctypes.c_double),
        ("velocity_error", ctypes.c_double),
        ("converged", ctypes.c_bool),
        ("time_assembly", ctypes.c_double),
        ("time_factorization", ctypes.c_double),
        ("time_solve", ctypes.c_double),
        ("time_line_search", ctypes.c_double),
        ("time_total", ctypes.c_double),
        ("lift_iterations", ctypes.c_int),
        ("num_contacts", ctypes.c_int),
        ("min_distance", ctypes.c_double),
        ("kappa", ctypes.c_double),
        ("time_ccd", ctypes.c_double),
        ("time_broad_phase", ctypes.c_double),
        ("friction_iterations", ctypes.c_int),
        ("friction_contacts", ctypes.c_int),
        ("friction_dissipation", ctypes.c_double),
        ("time_symbolic", ctypes.c_double),
        ("time_constraint_search", ctypes.c_double),
        ("time_energy", ctypes.c_double),
        ("substeps", ctypes.c_int),
    ]


class ContactRecordC(ctypes.Structure):
    """ipcc_contact_record (include/ipcc/contact_report.h), field for field."""
    _fields_ = [
        ("type", ctypes.c_int),
        ("object_a", ctypes.c_int),
        ("object_b", ctypes.c_int),
        ("vertices", ctypes.c_int * 4),
        ("point_a", ctypes.c_double * 3),
        ("point_b", ctypes.c_double * 3),
        ("position", ctypes.c_double * 3),
        ("normal", ctypes.c_double * 3),
        ("distance", ctypes.c_double),
        ("normal_force", ctypes.c_double),
        ("friction_force", ctypes.c_double * 3),
        ("active", ctypes.c_bool),
    ]


class SceneOptionsC(ctypes.Structure):
    """ipcc_scene_options (include/ipcc/scene.h)."""
    _fields_ = [
        ("strict", ctypes.c_bool),
        ("num_overrides", ctypes.c_int),
        ("overrides", ctypes.POINTER(ctypes.c_char_p)),
    ]


def _candidates():
    env = os.environ.get("IPCC_LIBRARY")
    if env:
        return [env]
    paths = []
    try:
        from . import _build  # written by `make python`
        paths.append(_build.LIBRARY)
    except ImportError:
        pass
    found = ctypes.util.find_library("ipcc")
    if found:
        paths.append(found)
    return paths


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise ImportError(
        "ipcc: cannot find the shared library libipcc.so (set IPCC_LIBRARY to its path, or build the "
        "package with `make python`)" + ("; tried " + "; ".join(tried) if tried else ""))


# OpenMP threads that spin only about a microsecond before they sleep at a
# barrier, unless the user chose a policy: libgomp reads it once, when it is
# loaded (with the library, just below, unless something loaded it earlier).
# On a machine where another process keeps a core busy, threads spinning for
# libgomp's default made every parallel region wait a time slice
# (docs/design.md, "Threads on a busy machine"; `ipcc run` does the same).
if "OMP_WAIT_POLICY" not in os.environ:
    os.environ.setdefault("GOMP_SPINCOUNT", "1000")
lib, path = _load()


def _proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


vp = ctypes.c_void_p
_proto("ipcc_version", ctypes.c_char_p)
_proto("ipcc_struct_size", ctypes.c_size_t, ctypes.c_char_p)
_proto("ipcc_status_name", ctypes.c_char_p, ctypes.c_int)
_proto("ipcc_last_error", ctypes.c_char_p)
_proto("ipcc_clear_error", None)
_proto("ipcc_scene_load_with_options", ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(SceneOptionsC),
       ctypes.POINTER(vp))
_proto("ipcc_scene_create_world", ctypes.c_int, vp, ctypes.POINTER(vp))
_proto("ipcc_scene_destroy", None, vp)
_proto("ipcc_world_start", ctypes.c_int, vp)
_proto("ipcc_world_step", ctypes.c_int, vp, ctypes.POINTER(StepStatsC))
_proto("ipcc_world_destroy", None, vp)
_proto("ipcc_world_set_state", ctypes.c_int, vp, c_double_p, c_double_p)
_proto("ipcc_world_num_vertices", ctypes.c_int, vp)
_proto("ipcc_world_num_tets", ctypes.c_int, vp)
_proto("ipcc_world_num_bodies", ctypes.c_int, vp)
_proto("ipcc_world_positions", c_double_p, vp)
_proto("ipcc_world_velocities", c_double_p, vp)
_proto("ipcc_world_rest_positions", c_double_p, vp)
_proto("ipcc_world_masses", c_double_p, vp)
_proto("ipcc_world_tets", c_int_p, vp)
_proto("ipcc_world_body_name", ctypes.c_char_p, vp, ctypes.c_int)
_proto("ipcc_world_body_vertices", None, vp, ctypes.c_int, c_int_p, c_int_p)
_proto("ipcc_world_time", ctypes.c_double, vp)
_proto("ipcc_world_step_count", ctypes.c_int, vp)
_proto("ipcc_world_time_step", ctypes.c_double, vp)
_proto("ipcc_world_fingerprint", ctypes.c_ulonglong, vp)
_proto("ipcc_checkpoint_write", ctypes.c_int, ctypes.c_char_p, vp, vp, ctypes.c_size_t)
_proto("ipcc_checkpoint_read", ctypes.c_int, ctypes.c_char_p, vp, ctypes.POINTER(vp),
       ctypes.POINTER(ctypes.c_size_t))
_proto("ipcc_output_create", ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(vp))
_proto("ipcc_output_write_frame", ctypes.c_int, vp, vp)
_proto("ipcc_output_set_contacts", ctypes.c_int, vp, ctypes.c_bool)
_proto("ipcc_output_set_compress", ctypes.c_int, vp, ctypes.c_bool)
_proto("ipcc_output_frame_count", ctypes.c_int, vp)
_proto("ipcc_output_destroy", None, vp)
_proto("ipcc_contact_report_create", ctypes.c_int, ctypes.POINTER(vp))
_proto("ipcc_contact_report_destroy", None, vp)
_proto("ipcc_world_contacts", ctypes.c_int, vp, vp, ctypes.POINTER(ctypes.POINTER(ContactRecordC)),
       ctypes.POINTER(ctypes.c_int))
_proto("ipcc_world_contact_object_name", ctypes.c_int, vp, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t)
_proto("ipcc_world_num_contact_objects", ctypes.c_int, vp)

for _mirror, _name in ((StepStatsC, b"ipcc_step_stats"), (ContactRecordC, b"ipcc_contact_record")):
    if lib.ipcc_struct_size(_name) != ctypes.sizeof(_mirror):
        raise ImportError(f"ipcc: {path} is of another version: sizeof({_name.decode()}) is "
                          f"{lib.ipcc_struct_size(_name)}, the package expects {ctypes.sizeof(_mirror)}")
