"""Regression tests of scenes in pytest (docs/python.md, "Regression tests").

    from ipcc.testing import regression

    def test_cubes():
        regression("scenes/cubes.json", steps=50, reference="refs/cubes.npz", tol=1e-6)

regression() runs the scene for `steps` steps at its own settings, checks
that no tet is inverted after any step, and compares the final positions
and velocities with the reference file within `tol` (metres, and metres per
second), naming the worst vertex and its body. A missing reference is
written and the test fails, asking you to commit it; IPCC_UPDATE_REFERENCES=1
rewrites every reference (after a deliberate change). Paths are relative to
the working directory; the pytest plugin's `ipcc_regression` fixture takes
them relative to the test file instead.
"""
import os

import numpy as np

from . import Scene

__all__ = ["regression", "inverted_tets", "check_no_inversion", "compare_to_reference"]


def inverted_tets(positions, tets):
    """Indices of the tets whose signed volume (positions (n, 3), tets (m, 4)) is not positive."""
    x = np.asarray(positions)
    t = np.asarray(tets)
    a, b, c, d = (x[t[:, k]] for k in range(4))
    volume6 = np.einsum("ij,ij->i", b - a, np.cross(c - a, d - a))
    return np.flatnonzero(~(volume6 > 0))


def check_no_inversion(world, label=""):
    """Raise AssertionError naming the first inverted tet of `world` (and `label`)."""
    bad = inverted_tets(world.positions, world.tets)
    if len(bad):
        raise AssertionError(f"{label}{': ' if label else ''}{len(bad)} inverted tet(s), the first tet {bad[0]} "
                             f"at step {world.step_count}")


def compare_to_reference(world, reference, tol, update=None):
    """Compare world's positions and velocities with the .npz `reference`
    (written when missing or when update / IPCC_UPDATE_REFERENCES=1, then
    AssertionError asks for it to be committed). The largest difference must
    be <= tol; returns it."""
    if update is None:
        update = os.environ.get("IPCC_UPDATE_REFERENCES") == "1"
    x, v = world.positions, world.velocities
    if update or not os.path.exists(reference):
        os.makedirs(os.path.dirname(os.path.abspath(reference)), exist_ok=True)
        np.savez_compressed(reference, positions=x, velocities=v, step_count=world.step_count, time=world.time)
        if not update:
            raise AssertionError(f"{reference}: no reference yet; written now from step {world.step_count}: "
                                 "check it and commit it")
        return 0.0
    ref = np.load(reference)
    if ref["positions"].shape != x.shape:
        raise AssertionError(f"{reference}: {ref['positions'].shape[0]} vertices, the scene has {x.shape[0]}")
    if int(ref["step_count"]) != world.step_count:
        raise AssertionError(f"{reference}: taken at step {int(ref['step_count'])}, the run is at step "
                             f"{world.step_count}")
    worst = 0.0
    for name, now, then, unit in (("position", x, ref["positions"], "m"), ("velocity", v, ref["velocities"], "m/s")):
        diff = np.abs(now - then).max(axis=1)
        k = int(np.argmax(diff))
        worst = max(worst, float(diff[k]))
        if not diff[k] <= tol:
            raise AssertionError(f"{reference}: the {name} of vertex {k} (body \"{world.body_of_vertex(k)}\") "
                                 f"differs by {diff[k]:.6g} {unit}, more than {tol:g}")
    return worst


def regression(scene, steps, reference, tol=1e-6, overrides=None):
    """Run `scene` (a path) for `steps` steps, check every step for inverted
    tets, and compare the final state with `reference` within `tol`.
    Returns the world (closed) and the largest difference."""
    with Scene.load(scene, overrides=overrides).world() as world:
        for _ in range(steps):
            world.step()
            check_no_inversion(world, str(scene))
        worst = compare_to_reference(world, reference, tol)
    return worst
