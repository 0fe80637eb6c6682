"""Parameter sweeps: one `ipcc run` per combination, on local cores or a Dask cluster.

    import ipcc
    table = ipcc.sweep("scene.json", {"contact.friction": [0.1, 0.3, 0.5]}, out="runs")
    table = ipcc.sweep("scene.json", grid, out="/shared/runs", client=dask_client)

Each combination is one run of the `ipcc` command (`ipcc run SCENE --set
KEY=VALUE ...`) in its own folder under `out`, named after its values
(`out/contact.friction=0.3`). Runs read the scene and write their frames,
stats.csv and log straight to that folder, so with a Dask client `out` and
the scene must be on storage the workers share; nothing but the small row
of each run travels through the scheduler.

Every run leaves `sweep.json` in its folder (written last, atomically): its
parameters, exit status and figures. A second sweep into the same `out`
reuses the rows of runs that finished (exit 0, or 3: finished with
unconverged steps), continues runs that were interrupted (exit 4: `ipcc
resume`), and runs again those that failed; `overwrite=True` runs them all
again. A run that fails is a row with its error, never an exception that
loses the others.

No code here knows Dask: a client is anything with Dask's `submit` and
`as_completed` (dask.distributed.Client); without one, runs go to a pool of
local threads, each waiting on its own `ipcc` process.
"""
import concurrent.futures
import csv
import itertools
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import time

__all__ = ["sweep", "run_one", "EXIT_STATUS"]

#: `ipcc run`'s exit codes (docs/cli.md) and the status a row gets for each.
EXIT_STATUS = {0: "ok", 1: "bad input", 2: "solver failed", 3: "unconverged", 4: "interrupted"}

_RECORD = "sweep.json"
_LOG = "ipcc.log"
_FINISHED = (0, 3)


def _combinations(parameters):
    """The runs' parameter dicts: a grid (key -> list of values; the first key
    varies slowest) or an explicit list of dicts, in the order given."""
    if isinstance(parameters, dict):
        keys = list(parameters)
        for k in keys:
            values = parameters[k]
            if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
                raise TypeError(f"ipcc.sweep: parameters[{k!r}] must be a list of values, not {values!r}")
        return [dict(zip(keys, combo)) for combo in itertools.product(*(list(parameters[k]) for k in keys))]
    combos = [dict(c) for c in parameters]
    if not all(isinstance(c, dict) for c in parameters):
        raise TypeError("ipcc.sweep: parameters must be a dict of lists or a list of dicts")
    return combos


def _json_value(value):
    """A Python value as the JSON text `--set` takes (numpy scalars included)."""
    if hasattr(value, "item") and not isinstance(value, (list, tuple, dict)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # not JSON: ipcc rejects it with a clear message, in the run's row
    return json.dumps(value, separators=(",", ":"))


def _folder_name(combo):
    """A run's folder name from its values: key=value joined by ',' (characters
    other than letters, digits and ._=+-[], become _); "run" for none."""
    if not combo:
        return "run"
    parts = []
    for key, value in combo.items():
        text = _json_value(value).strip('"')
        parts.append(f"{key}={text}")
    return re.sub(r"[^A-Za-z0-9._=+\-\[\],]", "_", ",".join(parts))


def _find_ipcc(explicit):
    """The `ipcc` command: the argument, IPCC_CLI, the command built next to
    the library this package records (`make python`), or `ipcc` on PATH."""
    if explicit:
        return os.fspath(explicit)
    if os.environ.get("IPCC_CLI"):
        return os.environ["IPCC_CLI"]
    try:
        from . import _build
        beside = os.path.join(os.path.dirname(_build.LIBRARY), "ipcc")
        if os.access(beside, os.X_OK):
            return beside
    except ImportError:
        pass
    found = shutil.which("ipcc")
    if not found:
        raise FileNotFoundError("ipcc.sweep: the ipcc command was not found (set IPCC_CLI, pass ipcc=PATH, or put it "
                                "on PATH)")
    return found


def _read_stats(folder):
    """(steps, Newton iterations, unconverged steps, worst velocity error) from stats.csv."""
    steps = newton = unconverged = 0
    worst = 0.0
    try:
        with open(os.path.join(folder, "stats.csv"), newline="") as f:
            for row in csv.DictReader(f):
                steps += 1
                newton += int(row["newton_iterations"])
                unconverged += row["converged"] not in ("1", "true")
                v = float(row["velocity_error"])
                worst = v if (v > worst or math.isnan(v)) else worst
    except (OSError, KeyError, ValueError):
        pass
    return steps, newton, unconverged, worst


def _error_of(log_text, code):
    """The lines of ipcc's stderr that say why a run failed."""
    if code in _FINISHED:
        return ""
    lines = [ln for ln in log_text.splitlines() if ln.startswith("ipcc:") and "warning:" not in ln]
    if not lines:
        lines = [ln for ln in log_text.splitlines() if ln.strip()][-3:]
    return "\n".join(lines) or EXIT_STATUS.get(code, f"exit {code}")


def _write_record(folder, record):
    path = os.path.join(folder, _RECORD)
    tmp = path + f".{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def _read_record(folder):
    try:
        with open(os.path.join(folder, _RECORD)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _blank_row(job, host, pid):
    """A run's row before it has run: its job's parameters, no figures."""
    return {"folder": job["folder"], "status": "", "exit_code": None, "error": "", "steps": 0,
            "newton_iterations": 0, "newton_per_step": float("nan"), "unconverged_steps": 0,
            "worst_velocity_error": float("nan"), "wall": 0.0, "host": host, "pid": pid, "reused": False,
            "parameters": job["parameters"], "requested_steps": job["steps"], "scene": job["scene"]}


def _failed_row(job, error, host="", pid=None):
    return dict(_blank_row(job, host, pid), status="error", error=f"{type(error).__name__}: {error}")


def run_one(job):
    """One run of a sweep (what sweep() hands each worker; picklable in and out).

    job: {"scene", "folder", "parameters", "steps", "threads", "overwrite", "ipcc"}.
    Returns the run's row as a dict; never raises for a failed run."""
    folder = job["folder"]
    row = _blank_row(job, socket.gethostname(), os.getpid())
    try:
        previous = None if job["overwrite"] else _read_record(folder)
        if previous and previous.get("parameters") != job["parameters"]:
            previous = None
        if previous and previous.get("exit_code") in _FINISHED and previous.get("requested_steps") == job["steps"]:
            previous["reused"] = True
            return previous
        ipcc = _find_ipcc(job.get("ipcc"))
        common = ["--threads", str(job["threads"]), "-q"]
        if job["steps"] is not None:
            common += ["--steps", str(job["steps"])]
        if previous and previous.get("exit_code") == 4 and os.path.exists(os.path.join(folder, "checkpoint.bin")):
            args = [ipcc, "resume", folder] + common  # interrupted: continue it
        else:
            args = [ipcc, "run", job["scene"], "-o", folder] + common
            for key, value in job["parameters"].items():
                args += ["--set", f"{key}={_json_value(value)}"]
            # Our own record says this folder holds an earlier attempt: replace it.
            if job["overwrite"] or previous is not None:
                args.append("--overwrite")
        os.makedirs(folder, exist_ok=True)
        start = time.monotonic()
        with open(os.path.join(folder, _LOG), "ab") as log:
            log.write(("$ " + " ".join(args) + "\n").encode())
            log.flush()
            done = subprocess.run(args, stdout=log, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
            log.write(done.stderr)
        row["wall"] = time.monotonic() - start
        code = done.returncode
        row["exit_code"] = code
        row["status"] = EXIT_STATUS.get(code, f"killed by signal {-code}" if code < 0 else f"exit {code}")
        row["error"] = _error_of(done.stderr.decode(errors="replace"), code)
        steps, newton, unconverged, worst = _read_stats(folder)
        row.update(steps=steps, newton_iterations=newton, unconverged_steps=unconverged,
                   worst_velocity_error=worst if steps else float("nan"),
                   newton_per_step=newton / steps if steps else float("nan"))
        _write_record(folder, row)
        return row
    except Exception as e:  # a row with the error, never a lost sweep
        return _failed_row(job, e, row["host"], row["pid"])


class _Progress:
    """A bar on a terminal, one line per finished run elsewhere (stderr)."""

    def __init__(self, total, enabled):
        self.total, self.done, self.failed = total, 0, 0
        self.enabled = enabled
        self.tty = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        if self.tty:
            self._draw()

    def _draw(self):
        width = 30
        filled = width * self.done // max(self.total, 1)
        elapsed = time.monotonic() - self.start
        sys.stderr.write(f"\ripcc.sweep [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} runs, "
                         f"{self.failed} failed, {elapsed:.0f} s")
        sys.stderr.flush()

    def finished(self, name, row):
        self.done += 1
        self.failed += row["status"] not in ("ok", "unconverged")
        if not self.enabled:
            return
        if self.tty:
            self._draw()
            if self.done == self.total:
                sys.stderr.write("\n")
        else:
            what = "reused" if row.get("reused") else row["status"]
            detail = (f"{row['steps']} steps, {row['newton_per_step']:.2f} Newton it/step, {row['wall']:.1f} s"
                      if row["steps"] else row["error"].splitlines()[0] if row["error"] else "")
            sys.stderr.write(f"ipcc.sweep: {self.done}/{self.total} {name}: {what}" +
                             (f" ({detail})" if detail else "") + "\n")
        sys.stderr.flush()


def _table(rows, keys, use_pandas):
    columns = keys + ["folder", "status", "exit_code", "error", "steps", "newton_iterations", "newton_per_step",
                      "unconverged_steps", "worst_velocity_error", "wall", "reused", "host", "pid"]
    out = []
    for row in rows:
        params = row.get("parameters", {})
        out.append({c: (params.get(c) if c in keys else row.get(c)) for c in columns})
    if use_pandas is False:
        return out
    try:
        import pandas
    except ImportError:
        if use_pandas:
            raise
        return out
    return pandas.DataFrame(out, columns=columns)


def sweep(scene, parameters, out, *, client=None, steps=None, threads=1, jobs=None, overwrite=False,
          progress=True, ipcc=None, pandas=None):
    """Run `scene` once per combination of `parameters`; returns a table with a row per run.

    scene       a JSON scene (or an IPC script, with no parameters: --set needs JSON)
    parameters  {key path: [values]} for the grid of all combinations (the first
                key varies slowest), or a list of {key path: value} dicts; key
                paths are `ipcc run --set`'s (contact.friction, bodies[0].velocity,
                materials.rubber.youngs_modulus)
    out         the folder that receives one folder per run (created)
    client      None: runs on this machine, `jobs` at a time (default: cores //
                threads). A dask.distributed.Client: runs on its workers, as
                many at a time as they have threads; `out` and `scene` must be
                on storage the workers share
    steps       `--steps` for every run (default: the scene's)
    threads     `--threads` of every run (results do not depend on it)
    overwrite   run everything again, replacing earlier runs' folders
    progress    a progress bar (terminal) or a line per run on stderr
    ipcc        the ipcc command (default: IPCC_CLI, the build `make python`
                recorded, then PATH; on Dask, looked up on each worker)
    pandas      None: a pandas.DataFrame when pandas is installed, else a list
                of dicts; False: always the list; True: a DataFrame or ImportError

    The table has a column per parameter key, then folder, status ("ok",
    "unconverged", "bad input", "solver failed", "interrupted", "error"),
    exit_code, error (ipcc's message), steps, newton_iterations (total),
    newton_per_step, unconverged_steps, worst_velocity_error (m/s), wall
    (seconds), reused (the row of an earlier sweep's finished run), host and
    pid (the process that ran it)."""
    combos = _combinations(parameters)
    keys = []
    for c in combos:
        keys += [k for k in c if k not in keys]
    scene = os.path.abspath(os.fspath(scene))
    out = os.path.abspath(os.fspath(out))
    if not os.path.isfile(scene):
        raise FileNotFoundError(f"ipcc.sweep: {scene}: no such scene file")
    if int(threads) < 1:
        raise ValueError("ipcc.sweep: threads must be at least 1")
    names = [_folder_name(c) for c in combos]
    if len(set(names)) != len(names):
        raise ValueError("ipcc.sweep: two combinations have the same values")
    os.makedirs(out, exist_ok=True)
    work = [{"scene": scene, "folder": os.path.join(out, n), "parameters": c, "steps": steps,
             "threads": int(threads), "overwrite": bool(overwrite), "ipcc": os.fspath(ipcc) if ipcc else None}
            for n, c in zip(names, combos)]
    rows = [None] * len(work)
    bar = _Progress(len(work), progress)
    if client is None:
        pool_size = jobs or max(1, (os.cpu_count() or 1) // int(threads))
        with concurrent.futures.ThreadPoolExecutor(max_workers=pool_size) as pool:
            futures = {pool.submit(run_one, job): i for i, job in enumerate(work)}
            for f in concurrent.futures.as_completed(futures):
                i = futures[f]
                rows[i] = f.result()
                bar.finished(names[i], rows[i])
    else:
        from distributed import as_completed  # only with a Dask client
        futures = {client.submit(run_one, job, pure=False, key=f"ipcc-run-{names[i]}-{time.time_ns()}"): i
                   for i, job in enumerate(work)}
        for f in as_completed(list(futures)):
            i = futures[f]
            try:
                rows[i] = f.result()
            except Exception as e:  # the worker died or the task was lost: a row, not a lost sweep
                rows[i] = _failed_row(work[i], e)
            bar.finished(names[i], rows[i])
    return _table(rows, keys, pandas)
