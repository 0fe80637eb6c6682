"""ipcc.testing: a reference is written when missing (and the test fails),
matched bit for bit on a rerun, and a perturbed one fails naming the
vertex and its body; inverted tets are found."""
import numpy as np
import pytest

import ipcc
from ipcc.testing import compare_to_reference, inverted_tets, regression


def test_regression_writes_then_matches_then_catches(repo, tmp_path):
    scene = repo / "examples" / "contact_cubes.json"
    ref = tmp_path / "refs" / "cubes.npz"
    with pytest.raises(AssertionError, match="no reference yet"):
        regression(scene, steps=8, reference=ref)
    assert ref.exists()
    assert regression(scene, steps=8, reference=ref, tol=0) == 0.0  # the same run, bit for bit
    data = dict(np.load(ref))
    data["positions"][100, 1] += 1e-5
    np.savez(ref, **data)
    with pytest.raises(AssertionError, match=r"the position of vertex 100 \(body \"(lower|upper)\"\) differs by 1e-05"):
        regression(scene, steps=8, reference=ref, tol=1e-6)
    with pytest.raises(AssertionError, match="taken at step 8"):
        regression(scene, steps=9, reference=ref, tol=1)


def test_update_rewrites(repo, tmp_path, monkeypatch):
    ref = tmp_path / "r.npz"
    world = ipcc.Scene.load(repo / "examples" / "contact_cubes.json").world()
    world.step()
    monkeypatch.setenv("IPCC_UPDATE_REFERENCES", "1")
    assert compare_to_reference(world, ref, 0) == 0.0 and ref.exists()


def test_inverted_tets():
    x = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, -1]], dtype=float)
    tets = np.array([[0, 1, 2, 3], [0, 1, 2, 4], [0, 1, 1, 3]])
    assert list(inverted_tets(x, tets)) == [1, 2]  # negative, and degenerate


def test_the_fixture(pytester, repo):
    pytester.makepyfile(f"""
        def test_cubes(ipcc_regression):
            ipcc_regression({str(repo / 'examples' / 'contact_cubes.json')!r}, steps=3, reference="ref.npz")
    """)
    # "-p no:ipcc": the entry point of a pip-installed package would register it too
    args = ("-p", "no:ipcc", "-p", "ipcc.pytest_plugin")
    result = pytester.runpytest(*args)
    result.assert_outcomes(failed=1)  # the reference is written
    assert (pytester.path / "ref.npz").exists()
    result = pytester.runpytest(*args)
    result.assert_outcomes(passed=1)
