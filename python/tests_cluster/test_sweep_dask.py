"""ipcc.sweep on a real Dask cluster (ctest `dask`, label cluster; make test-cluster).

The test starts `dask scheduler` and two `dask worker` processes (one thread
each) that talk over TCP on this machine, connects a dask.distributed.Client
to them and sweeps tests/batch/slide.json over three friction values and a
bad one. It checks that every run ran in a worker process (not in the
client), that the rows are right (status, steps, exit codes, the bad value's
message), that every run's frames equal a direct `ipcc run` with the same
--set (ipcc compare --tol 0 and the files byte for byte), and that a second
sweep reuses the finished runs. Skipped without Debian's python3-distributed
unless CI=true. Nothing is left running: the processes are killed at the end.
"""
import filecmp
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

import pytest

import ipcc

REPO = pathlib.Path(__file__).resolve().parents[2]
SCENE = REPO / "tests" / "batch" / "slide.json"

try:
    import distributed
except ImportError:
    distributed = None
    if os.environ.get("CI") == "true":
        raise
pytestmark = pytest.mark.skipif(distributed is None, reason="python3-distributed is not installed (make cluster-deps)")


@pytest.fixture(scope="module")
def cli():
    """The build's ipcc command (ctest passes IPCC_CLI)."""
    if not os.environ.get("IPCC_CLI"):
        pytest.skip("IPCC_CLI (the ipcc command) not set")
    return os.environ["IPCC_CLI"]


def _dask(*args, **kw):
    """`dask ...` through this interpreter's distributed (the Debian package's)."""
    return subprocess.Popen([sys.executable, "-m", "distributed.cli." + args[0]] + list(args[1:]),
                            start_new_session=True, **kw)


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two single-thread workers, each its own process, over TCP."""
    info = tmp_path / "scheduler.json"
    logs = tmp_path / "dask-logs"
    logs.mkdir()
    env = dict(os.environ, PYTHONPATH=str(REPO / "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    procs = []
    try:
        procs.append(_dask("dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                           "--scheduler-file", str(info), env=env, stdout=open(logs / "scheduler.log", "w"),
                           stderr=subprocess.STDOUT))
        for _ in range(200):
            if info.exists() and info.stat().st_size > 0:
                break
            time.sleep(0.05)
        for i in range(2):
            procs.append(_dask("dask_worker", "--scheduler-file", str(info), "--nthreads", "1", "--nworkers", "1",
                               "--no-dashboard", "--name", f"w{i}", "--local-directory", str(tmp_path / f"w{i}"),
                               env=env, stdout=open(logs / f"worker{i}.log", "w"), stderr=subprocess.STDOUT))
        client = distributed.Client(scheduler_file=str(info), timeout=30)
        client.wait_for_workers(2, timeout=60)
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        yield client, procs
        client.close()
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def _same_run(cli, a, b):
    assert subprocess.run([cli, "compare", str(a), str(b), "--tol", "0", "-q"]).returncode == 0
    frames = sorted(p.name for p in pathlib.Path(a).glob("frame_*.vtu"))
    assert frames and frames == sorted(p.name for p in pathlib.Path(b).glob("frame_*.vtu"))
    _, mismatch, errors = filecmp.cmpfiles(a, b, frames + ["frames.pvd"], shallow=False)
    assert not mismatch and not errors


def test_sweep_on_dask_workers(cluster, cli, tmp_path):
    client, procs = cluster
    worker_pids = set(client.run(os.getpid).values())
    assert len(worker_pids) == 2 and os.getpid() not in worker_pids
    out = tmp_path / "runs"
    values = [0.0, 0.2, 0.4, -0.5]
    table = ipcc.sweep(SCENE, {"contact.friction": values}, out=out, client=client, ipcc=cli, progress=True)
    rows = table.to_dict("records") if hasattr(table, "to_dict") else table
    assert [r["contact.friction"] for r in rows] == values
    for r in rows:
        assert r["pid"] in worker_pids, r  # ran on a worker process, not here
    good, bad = rows[:3], rows[3]
    assert {r["pid"] for r in good} | {bad["pid"]} <= worker_pids
    for r, mu in zip(good, values):
        assert r["status"] == "ok" and r["exit_code"] == 0 and r["error"] == ""
        assert r["steps"] == 8 and r["unconverged_steps"] == 0 and r["newton_iterations"] >= 8
        folder = pathlib.Path(r["folder"])
        assert folder == out / f"contact.friction={mu}"
        direct = tmp_path / f"direct_{mu}"
        subprocess.run([cli, "run", str(SCENE), "--set", f"contact.friction={mu}", "--threads", "1", "-q",
                        "-o", str(direct)], check=True, stdout=subprocess.DEVNULL)
        _same_run(cli, direct, folder)
    assert bad["status"] == "bad input" and bad["exit_code"] == 1
    assert "contact.friction" in bad["error"] and bad["steps"] == 0

    # Rerun: the finished runs are reused (their files untouched), the bad one runs again.
    stamp = {r["folder"]: os.stat(pathlib.Path(r["folder"]) / "stats.csv").st_mtime_ns for r in good}
    again = ipcc.sweep(SCENE, {"contact.friction": values}, out=out, client=client, ipcc=cli, progress=False)
    again = again.to_dict("records") if hasattr(again, "to_dict") else again
    assert [r["reused"] for r in again] == [True, True, True, False]
    for r in again[:3]:
        assert os.stat(pathlib.Path(r["folder"]) / "stats.csv").st_mtime_ns == stamp[r["folder"]]
    assert again[3]["status"] == "bad input"
    shutil.rmtree(out)
