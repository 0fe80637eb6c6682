"""The binding against the library and the command line: stepping from
Python gives the state `ipcc run` gives, bit for bit; bad scenes raise with
the library's message; views are read-only, live, and never outlive the
memory they show; checkpoints round-trip bit for bit; results do not
depend on the thread count."""
import gc
import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import ipcc


def test_version_is_the_commands(cli):
    out = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True).stdout
    assert ipcc.version() in out
    assert ipcc.library_path()


def test_stepping_matches_ipcc_run_bit_for_bit(repo, cli, tmp_path):
    scene = repo / "examples" / "contact_cubes.json"
    out = tmp_path / "run"
    subprocess.run([cli, "run", str(scene), "-o", str(out), "--set", "duration=0.2", "--set",
                    "contact.friction=0.3", "-q"], check=True)
    s = ipcc.Scene.load(scene, overrides={"duration": 0.2, "contact.friction": 0.3})
    mine = s.world()
    steps = 0
    while mine.time < 0.2 - 1e-12:
        mine.step()
        steps += 1
    theirs = s.world()
    theirs.restore(out / "checkpoint.bin")
    assert theirs.step_count == mine.step_count == steps == 20
    assert mine.positions.tobytes() == theirs.positions.tobytes()
    assert mine.velocities.tobytes() == theirs.velocities.tobytes()
    assert mine.fingerprint() == theirs.fingerprint()


def write_scene(path, doc):
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return path


CUBE = {"name": "cube", "mesh": {"box": {"size": [0.1, 0.1, 0.1], "cells": [1, 1, 1]}}, "material": "m"}
MATERIALS = {"m": {"model": "neo_hookean", "density": 1000, "youngs_modulus": 1e5, "poisson_ratio": 0.3}}


@pytest.mark.parametrize("doc, status, needles", [
    ('{"duration": 1, "bodies": [', "IPCC_ERR_PARSE", ["scene.json:1:28", "JSON syntax error"]),
    ({"duration": 1, "materials": MATERIALS, "bodies": [CUBE], "colour": "red"}, "IPCC_ERR_INVALID_ARGUMENT",
     ["colour", "unknown key"]),
    ({"duration": -1, "materials": MATERIALS, "bodies": [CUBE]}, "IPCC_ERR_INVALID_ARGUMENT", ["duration"]),
    ({"duration": 1, "materials": MATERIALS, "bodies": [dict(CUBE, mesh="missing.msh")]}, "IPCC_ERR_IO",
     ["missing.msh"]),
    ({"duration": 1, "materials": MATERIALS, "bodies": [dict(CUBE, velocity=[0, "fast", 0])]},
     "IPCC_ERR_INVALID_ARGUMENT", ["bodies[0].velocity"]),
    ({"duration": 1, "bodies": [CUBE]}, "IPCC_ERR_INVALID_ARGUMENT", ["bodies[0].material"]),
])
def test_bad_scenes_raise_with_the_message(tmp_path, doc, status, needles):
    path = write_scene(tmp_path / "scene.json", doc)
    with pytest.raises(ipcc.Error) as e:
        ipcc.Scene.load(path)
    assert e.value.status == status
    for needle in needles:
        assert needle in str(e.value), str(e.value)


def test_bad_override_and_infeasible_world(tmp_path):
    path = write_scene(tmp_path / "scene.json",
                       {"duration": 1, "materials": MATERIALS, "bodies": [CUBE, dict(CUBE, name="other")]})
    with pytest.raises(ipcc.Error) as e:
        ipcc.Scene.load(path, overrides={"contact.frictoin": 0.5})
    assert "contact.frictoin" in str(e.value)
    scene = ipcc.Scene.load(path)  # two cubes in the same place
    with pytest.raises(ipcc.Error) as e:
        scene.world()
    assert e.value.status == "IPCC_ERR_INFEASIBLE"
    assert "cube" in str(e.value) and "other" in str(e.value)
    with pytest.raises(ipcc.Error):
        ipcc.Scene.load(tmp_path / "nowhere.json")


def test_views_are_read_only_live_and_outlive_close(repo):
    world = ipcc.Scene.load(repo / "examples" / "contact_cubes.json").world()
    x, v = world.positions, world.velocities
    assert x.shape == (world.num_vertices, 3) and x.dtype == np.float64
    assert world.tets.shape == (world.num_tets, 4) and world.masses.shape == (world.num_vertices,)
    with pytest.raises(ValueError):
        x[0, 0] = 1.0
    before = x.copy()
    world.step()
    assert not np.array_equal(x, before)  # live: the view shows the stepped state
    assert np.array_equal(x, world.positions)
    after = x.copy()
    world.close()
    gc.collect()
    assert np.array_equal(x, after) and v.shape == x.shape  # the memory lives while a view does
    with pytest.raises(ipcc.ClosedError):
        world.step()
    with pytest.raises(ipcc.ClosedError):
        world.positions
    with pytest.raises(ipcc.ClosedError):
        world.close()
    assert world.closed
    del x, v
    gc.collect()


def test_context_manager_closes(repo):
    with ipcc.Scene.load(repo / "examples" / "contact_cubes.json").world() as world:
        world.step()
    assert world.closed


def test_checkpoint_round_trips_bit_for_bit(repo, tmp_path):
    scene = ipcc.Scene.load(repo / "examples" / "contact_cubes.json")
    world = scene.world()
    for _ in range(3):
        world.step()
    world.checkpoint(tmp_path / "ckpt.bin")
    for _ in range(4):
        world.step()
    a = (world.positions.tobytes(), world.velocities.tobytes(), world.step_count)
    world.restore(tmp_path / "ckpt.bin")
    assert world.step_count == 3
    for _ in range(4):
        world.step()
    assert (world.positions.tobytes(), world.velocities.tobytes(), world.step_count) == a
    (tmp_path / "bad.bin").write_bytes(b"not a checkpoint")
    with pytest.raises(ipcc.Error) as e:
        world.restore(tmp_path / "bad.bin")
    assert "bad.bin" in str(e.value)
    assert world.step_count == 7  # unchanged


def test_step_stats(repo):
    world = ipcc.Scene.load(repo / "examples" / "contact_cubes.json").world()
    stats = world.step()
    assert isinstance(stats, ipcc.StepStats)
    assert stats.step == 1 and stats.converged and stats.newton_iterations >= 1
    assert stats.time == pytest.approx(world.time_step)


def test_contacts_on_a_cylinder(repo):
    world = ipcc.Scene.load(repo / "tests" / "data" / "shape_curved.json").world()
    for _ in range(20):
        world.step()
    c = world.contacts()
    names = world.contact_object_names()
    assert len(c) > 0 and "bar" in names and "ring" in names
    assert np.allclose(np.linalg.norm(c["normal"], axis=1), 1.0)
    assert set(c["type"]) & {6, 7}  # triangle-shape, edge-shape: the faces' sample points
    bar = names.index("bar")
    on_bar = c[c["object_b"] == bar]
    assert np.all(on_bar["normal_force"] >= 0) and on_bar["normal_force"].sum() > 0


SCRIPT = """
import hashlib, sys
import ipcc
w = ipcc.Scene.load(sys.argv[1]).world()
for _ in range(15):
    w.step()
print(hashlib.sha256(w.positions.tobytes() + w.velocities.tobytes()).hexdigest())
"""


def test_same_results_for_any_thread_count(repo):
    digests = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, "-c", SCRIPT, str(repo / "tests" / "data" / "shape_curved.json")],
                             env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_library_discovery(tmp_path):
    """IPCC_LIBRARY first; else the path `make python` recorded (ipcc/_build.py);
    a library that cannot be loaded is an ImportError naming what was tried."""
    import shutil
    package = tmp_path / "ipcc"
    shutil.copytree(os.path.dirname(ipcc.__file__), package, ignore=shutil.ignore_patterns("_build.py", "__pycache__"))
    (package / "_build.py").write_text(f"LIBRARY = {ipcc.library_path()!r}\n")
    env = {k: v for k, v in os.environ.items() if k not in ("IPCC_LIBRARY", "PYTHONPATH")}
    env["PYTHONPATH"] = str(tmp_path)
    probe = "import ipcc; print(ipcc.library_path(), ipcc.version())"
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [ipcc.library_path(), ipcc.version()]
    env["IPCC_LIBRARY"] = str(tmp_path / "nowhere.so")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode != 0
    assert "ImportError" in out.stderr and "nowhere.so" in out.stderr and "IPCC_LIBRARY" in out.stderr
