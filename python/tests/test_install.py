"""The pip route, offline (docs/python.md): in a virtual environment with
the system's packages, `pip install --no-build-isolation --no-index` of the
package installs it without the network; the installed package finds the
library it was built with from any folder, with no variable set; and its
pytest plugin is registered by its entry point, so a user's regression
test needs no conftest."""
import os
import shutil
import subprocess
import sys

import pytest

import ipcc


@pytest.fixture(scope="module")
def venv(tmp_path_factory, repo):
    pytest.importorskip("venv")
    pytest.importorskip("setuptools")
    root = tmp_path_factory.mktemp("pip")
    env_dir = root / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(env_dir)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"python3 -m venv failed (python3-venv is in make test-deps): {made.stderr}")
        pytest.skip(f"python3 -m venv failed: {made.stderr.strip()[-200:]}")
    # A checkout as `make demo` leaves it (the package, and the Release
    # library in build/release), copied so the build leaves nothing in ours.
    source = root / "checkout" / "python"
    shutil.copytree(repo / "python", source, ignore=shutil.ignore_patterns("tests", "_build.py", "build",
                                                                          "*.egg-info", "__pycache__"))
    (root / "checkout" / "build" / "release").mkdir(parents=True)
    (root / "checkout" / "build" / "release" / "libipcc.so.0").symlink_to(os.path.realpath(ipcc.library_path()))
    python = env_dir / "bin" / "python"
    env = dict(clean_env(), PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    out = subprocess.run([str(python), "-m", "pip", "install", "--no-build-isolation", "--no-index", str(source)],
                         capture_output=True, text=True, env=env, cwd=root)
    assert out.returncode == 0, out.stdout + out.stderr
    return python


def clean_env():
    """The environment without the test run's IPCC_* and PYTHONPATH."""
    return {k: v for k, v in os.environ.items() if not k.startswith("IPCC_") and k != "PYTHONPATH"}


def test_installed_package_finds_its_library_from_anywhere(venv):
    out = subprocess.run([str(venv), "-c", "import ipcc, sys; print(ipcc.version(), ipcc.library_path(), "
                          "ipcc.__file__)"], capture_output=True, text=True, env=clean_env(), cwd="/")
    assert out.returncode == 0, out.stderr
    version, library, location = out.stdout.split()
    assert version == ipcc.version()
    assert library.endswith("checkout/build/release/libipcc.so.0")  # the checkout's, recorded at install
    assert os.path.samefile(library, ipcc.library_path())
    assert location.startswith(str(venv.parent.parent))  # the installed copy, not the checkout


def test_plugin_entry_point_gives_the_fixture(venv, repo, tmp_path):
    scene = repo / "examples" / "contact_cubes.json"
    (tmp_path / "test_user.py").write_text(
        "def test_cubes(ipcc_regression):\n"
        f"    ipcc_regression({str(scene)!r}, steps=3, reference=\"ref.npz\")\n")
    args = [str(venv), "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_user.py")]
    first = subprocess.run(args, capture_output=True, text=True, env=clean_env(), cwd=tmp_path)
    assert first.returncode == 1 and "reference" in first.stdout, first.stdout  # writes it, and says so
    second = subprocess.run(args, capture_output=True, text=True, env=clean_env(), cwd=tmp_path)
    assert second.returncode == 0, second.stdout
