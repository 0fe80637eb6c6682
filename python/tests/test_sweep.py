"""ipcc.sweep on this machine (client=None): rows, folders, failures, reruns.
The same function on a real Dask scheduler and workers is tests_cluster/."""
import builtins
import json
import math
import os
import pathlib
import signal
import subprocess
import time

import pytest

import ipcc
from ipcc import batch

SCENE = pathlib.Path(__file__).resolve().parents[2] / "tests" / "batch" / "slide.json"


def _rows(table):
    return table.to_dict("records") if hasattr(table, "to_dict") else table


def _direct(cli, out, *sets, steps=None):
    args = [cli, "run", str(SCENE), "--threads", "1", "-q", "-o", str(out)]
    for s in sets:
        args += ["--set", s]
    if steps:
        args += ["--steps", str(steps)]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def test_grid_rows_and_folders(cli, tmp_path):
    grid = {"contact.friction": [0.1, 0.3], "bodies[0].velocity": [[1, 0, 0], [2, 0, 0]]}
    table = ipcc.sweep(SCENE, grid, out=tmp_path / "runs", ipcc=cli, jobs=2, progress=False)
    rows = _rows(table)
    # The grid in order, the first key slowest; a column per key.
    assert [(r["contact.friction"], list(r["bodies[0].velocity"])) for r in rows] == [
        (0.1, [1, 0, 0]), (0.1, [2, 0, 0]), (0.3, [1, 0, 0]), (0.3, [2, 0, 0])]
    names = [pathlib.Path(r["folder"]).name for r in rows]
    assert names[1] == "contact.friction=0.1,bodies[0].velocity=[2,0,0]"
    for r in rows:
        assert r["status"] == "ok" and r["exit_code"] == 0 and not r["reused"]
        assert r["steps"] == 8 and r["unconverged_steps"] == 0
        stats = (pathlib.Path(r["folder"]) / "stats.csv").read_text().splitlines()
        assert r["newton_iterations"] == sum(int(line.split(",")[2]) for line in stats[1:])
        assert r["newton_per_step"] == pytest.approx(r["newton_iterations"] / 8)
        assert r["wall"] > 0 and r["pid"] == os.getpid()
        record = json.loads((pathlib.Path(r["folder"]) / "sweep.json").read_text())
        assert record["exit_code"] == 0 and record["parameters"]["contact.friction"] == r["contact.friction"]
    # Each run is the direct run with the same --set, frame for frame.
    _direct(cli, tmp_path / "direct", "contact.friction=0.3", "bodies[0].velocity=[2,0,0]")
    assert ipcc.compare(tmp_path / "direct", rows[3]["folder"], tol=0).same
    # The two frictions differ.
    assert not ipcc.compare(rows[0]["folder"], rows[2]["folder"], tol=1e-9).same


def test_failures_are_rows_and_reruns_skip_finished(cli, tmp_path, capsys):
    out = tmp_path / "runs"
    combos = [{"contact.friction": 0.2}, {"contact.friction": -1}, {"contact.frictio": 0.2}]
    rows = _rows(ipcc.sweep(SCENE, combos, out=out, ipcc=cli, progress=True))
    assert [r["status"] for r in rows] == ["ok", "bad input", "bad input"]
    assert "contact.friction: must be >= 0" in rows[1]["error"]
    assert "contact.frictio" in rows[2]["error"] and rows[2]["steps"] == 0
    assert math.isnan(rows[1]["worst_velocity_error"])
    err = capsys.readouterr().err
    assert err.count("ipcc.sweep: ") == 3 and "3/3" in err  # a line per run when stderr is not a terminal
    log = (pathlib.Path(rows[1]["folder"]) / "ipcc.log").read_text()
    assert "must be >= 0" in log and "--set contact.friction=-1" in log

    stamp = os.stat(pathlib.Path(rows[0]["folder"]) / "frame_000004.vtu").st_mtime_ns
    again = _rows(ipcc.sweep(SCENE, combos, out=out, ipcc=cli, progress=False))
    assert [r["reused"] for r in again] == [True, False, False]
    assert os.stat(pathlib.Path(rows[0]["folder"]) / "frame_000004.vtu").st_mtime_ns == stamp
    # Other steps than the finished run: it runs again (over its own earlier folder).
    fewer = _rows(ipcc.sweep(SCENE, combos[:1], out=out, ipcc=cli, steps=5, progress=False))
    assert fewer[0]["status"] == "ok" and fewer[0]["steps"] == 5 and not fewer[0]["reused"]
    # overwrite=True runs even a finished run again.
    over = _rows(ipcc.sweep(SCENE, combos[:1], out=out, ipcc=cli, steps=5, overwrite=True, progress=False))
    assert over[0]["status"] == "ok" and not over[0]["reused"]
    assert over[0]["steps"] == 5 and os.stat(pathlib.Path(rows[0]["folder"]) / "frame_000000.vtu").st_mtime_ns != stamp


def test_interrupted_run_is_resumed(cli, tmp_path):
    """A run stopped by SIGTERM (exit 4, as on a Slurm time limit) is continued
    by the next sweep with `ipcc resume`, and ends as an uninterrupted run."""
    out = tmp_path / "runs"
    long_scene = tmp_path / "long.json"
    long_scene.write_text(SCENE.read_text().replace('"steps": 8', '"steps": 400'))
    folder = out / "contact.friction=0.2"
    folder.mkdir(parents=True)
    proc = subprocess.Popen([cli, "run", str(long_scene), "--set", "contact.friction=0.2", "--threads", "1", "-q",
                             "-o", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(1000):
        stats = folder / "stats.csv"
        if stats.exists() and len(stats.read_text().splitlines()) > 20:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait() == 4
    stopped = len((folder / "stats.csv").read_text().splitlines()) - 1
    assert 20 <= stopped < 400
    (folder / "sweep.json").write_text(json.dumps({"parameters": {"contact.friction": 0.2}, "exit_code": 4,
                                                    "requested_steps": None}))
    rows = _rows(ipcc.sweep(long_scene, {"contact.friction": [0.2]}, out=out, ipcc=cli, progress=False))
    assert rows[0]["status"] == "ok" and rows[0]["steps"] == 400
    assert "resume" in (folder / "ipcc.log").read_text()
    subprocess.run([cli, "run", str(long_scene), "--set", "contact.friction=0.2", "--threads", "1", "-q",
                    "-o", str(tmp_path / "direct")], check=True, stdout=subprocess.DEVNULL)
    assert ipcc.compare(tmp_path / "direct", folder, tol=0).same


def test_list_of_dicts_without_pandas(cli, tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_pandas(name, *args, **kw):
        if name == "pandas":
            raise ImportError("no pandas here")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    rows = ipcc.sweep(SCENE, {"contact.friction": [0.0]}, out=tmp_path / "r", ipcc=cli, progress=False)
    assert isinstance(rows, list) and rows[0]["status"] == "ok" and rows[0]["contact.friction"] == 0.0


def test_bad_arguments(cli, tmp_path):
    with pytest.raises(FileNotFoundError, match="no such scene"):
        ipcc.sweep(tmp_path / "missing.json", {"contact.friction": [0.1]}, out=tmp_path / "r")
    with pytest.raises(TypeError, match="must be a list"):
        ipcc.sweep(SCENE, {"contact.friction": 0.1}, out=tmp_path / "r")
    with pytest.raises(ValueError, match="same values"):
        ipcc.sweep(SCENE, [{"contact.friction": 0.1}, {"contact.friction": 0.1}], out=tmp_path / "r")
    # A command that does not exist: a row with the error, not an exception.
    rows = _rows(ipcc.sweep(SCENE, {"contact.friction": [0.1]}, out=tmp_path / "r", ipcc=tmp_path / "nope",
                            progress=False))
    assert rows[0]["status"] == "error" and "nope" in rows[0]["error"]
    assert batch.EXIT_STATUS[3] == "unconverged"
