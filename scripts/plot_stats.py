#!/usr/bin/python3
"""Plot the per-step statistics of an ipcc run.

    scripts/plot_stats.py OUTDIR [-o FILE.png] [--size WxH]

Reads OUTDIR/stats.csv (written by `ipcc run SCENE -o OUTDIR`, columns in
docs/output.md) and writes one PNG (default OUTDIR/stats.png) with six
panels against simulated time: the energies of the state (kinetic, elastic,
gravitational, barrier and their total, and the energy friction has
dissipated so far; see energy_series()); incremental potential energy;
Newton iterations and line-search evaluations (unconverged steps marked);
minimum contact distance (log scale, steps with nothing to measure left
out); active contacts; wall time per step, split into assembly,
factorization, solve, line search and the rest, with CCD and broad phase
(which are part of those) drawn over it. A stats.csv of an older ipcc,
without the energy columns, gets a note in the energy panel instead.

Needs Debian's python3-matplotlib (it brings numpy). Renders with the Agg
backend: no display is needed.
"""

import argparse
import csv
import math
import os
import sys

PROG = "plot_stats.py"

# Columns the plot cannot do without; the others are drawn when present.
REQUIRED = ("time", "energy", "newton_iterations", "line_search_steps",
            "num_contacts", "min_distance", "time_total")
OPTIONAL = ("step", "converged", "time_assembly", "time_factorization",
            "time_solve", "time_line_search", "time_ccd", "time_broad_phase",
            "friction_contacts", "friction_dissipation")
# The state's energies (J; ipcc_world_energies): all four or none. "nan"
# (a row written without the world) and "inf" (an inverted element's
# elastic energy) are allowed: the plot leaves a gap there.
ENERGIES = ("kinetic_energy", "elastic_energy", "gravitational_energy", "barrier_energy")


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error exits with status 1 (as ipcc does), not 2."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(1, "%s: error: %s\n" % (self.prog, message))


class InputError(Exception):
    """Bad input: reported as one line on stderr, exit status 1."""


def parse_size(text):
    try:
        w, h = text.lower().split("x")
        w, h = int(w), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError("expected WIDTHxHEIGHT in pixels, e.g. 1000x1400, got '%s'" % text)
    if not (200 <= w <= 10000 and 200 <= h <= 10000):
        raise argparse.ArgumentTypeError("size %dx%d out of range (200 to 10000 pixels each way)" % (w, h))
    return w, h


def read_stats(path):
    """Return {column: [float, ...]} for the columns we use, one value per step."""
    if not os.path.exists(path):
        raise InputError("%s: no such file (is this the -o folder of `ipcc run`?)" % path)
    if not os.path.isfile(path):
        raise InputError("%s: not a regular file" % path)
    try:
        f = open(path, newline="", encoding="utf-8")
    except OSError as e:
        raise InputError("%s: cannot open: %s" % (path, e.strerror))
    with f:
        reader = csv.reader(f)
        try:
            header = next(reader, None)
            if header is None or not any(h.strip() for h in header):
                raise InputError("%s: empty file (no header row)" % path)
            header = [h.strip() for h in header]
            missing = [c for c in REQUIRED if c not in header]
            if missing:
                raise InputError("%s line 1: header lacks column(s) %s (is this an ipcc stats.csv?)"
                                 % (path, ", ".join(missing)))
            index = {c: header.index(c) for c in REQUIRED + OPTIONAL if c in header}
            if all(c in header for c in ENERGIES):
                index.update({c: header.index(c) for c in ENERGIES})
            data = {c: [] for c in index}
            for row in reader:
                line = reader.line_num
                if not row or (len(row) == 1 and not row[0].strip()):
                    continue  # blank line
                if len(row) != len(header):
                    raise InputError("%s line %d: %d field(s), expected %d as in the header"
                                     % (path, line, len(row), len(header)))
                for c, i in index.items():
                    text = row[i].strip()
                    try:
                        v = float(text)
                    except ValueError:
                        raise InputError("%s line %d, column '%s': '%s' is not a number"
                                         % (path, line, c, text))
                    if c in ENERGIES:
                        v = v if math.isfinite(v) else float("nan")
                    elif math.isnan(v) or (math.isinf(v) and c != "min_distance"):
                        raise InputError("%s line %d, column '%s': '%s' is not a finite number"
                                         % (path, line, c, text))
                    data[c].append(v)
        except csv.Error as e:
            raise InputError("%s line %d: %s" % (path, reader.line_num, e))
        except UnicodeDecodeError:
            raise InputError("%s: not a text (UTF-8) file" % path)
    if not data["time"]:
        raise InputError("%s: header only, no step rows yet" % path)
    return data


def energy_series(data):
    """The energy panel's curves, J per step, or None without the energy columns.

    kinetic, elastic, barrier: as in stats.csv. gravitational: relative to
    its value at the first row (stats.csv's is -sum m g.x, zero at the
    origin: only its changes mean something). total: kinetic + elastic +
    gravitational + barrier (with that gravitational), which an integrator
    without damping or friction keeps: implicit Euler loses some of it,
    Newmark keeps it. dissipated: friction_dissipation summed over the
    steps so far (the work friction has taken); total + dissipated is then
    what is kept, up to the integrator's own dissipation.
    """
    if not all(c in data for c in ENERGIES):
        return None
    g0 = next((g for g in data["gravitational_energy"] if math.isfinite(g)), 0.0)
    out = {"kinetic": data["kinetic_energy"], "elastic": data["elastic_energy"],
           "barrier": data["barrier_energy"],
           "gravitational": [g - g0 for g in data["gravitational_energy"]]}
    out["total"] = [k + e + g + b for k, e, g, b in
                    zip(out["kinetic"], out["elastic"], out["gravitational"], out["barrier"])]
    dissipated, run = [], 0.0
    for d in data.get("friction_dissipation", [0.0] * len(data["time"])):
        run += d
        dissipated.append(run)
    out["dissipated"] = dissipated
    return out


def plot(data, title, out_path, size):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = data["time"]
    dpi = 100
    fig, axes = plt.subplots(6, 1, sharex=True, figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    marker = "." if len(t) <= 200 else None
    style = dict(marker=marker, markersize=4, linewidth=1.2)

    ax = axes[0]
    ax.set_title(title, fontsize=11)
    energies = energy_series(data)
    if energies:
        for key, label, color in (("kinetic", "kinetic", "tab:blue"), ("elastic", "elastic", "tab:orange"),
                                  ("gravitational", "gravitational (from the first step's)", "tab:green"),
                                  ("barrier", "barrier", "tab:red")):
            ax.plot(t, energies[key], color=color, label=label, linewidth=1.0)
        ax.plot(t, energies["total"], color="black", label="total", linewidth=1.8)
        if any(energies["dissipated"]):
            ax.plot(t, energies["dissipated"], color="tab:brown", linestyle="--", linewidth=1.2,
                    label="dissipated by friction (cumulative)")
        ax.legend(loc="upper left", fontsize=7, ncol=3)
    else:
        ax.text(0.5, 0.5, "no energy columns (a stats.csv of an older ipcc)",
                transform=ax.transAxes, ha="center", va="center", color="gray")
    ax.set_ylabel("energy (J)")

    ax = axes[1]
    ax.plot(t, data["energy"], color="tab:blue", **style)
    ax.set_ylabel("incremental\npotential (J)")

    ax = axes[2]
    ax.plot(t, data["newton_iterations"], color="tab:blue", label="Newton iterations", **style)
    ax.plot(t, data["line_search_steps"], color="tab:orange", label="line-search evaluations", **style)
    if "converged" in data:
        bad = [(ti, n) for ti, n, c in zip(t, data["newton_iterations"], data["converged"]) if c == 0]
        if bad:
            ax.plot([b[0] for b in bad], [b[1] for b in bad], "x", color="tab:red", markersize=8,
                    markeredgewidth=2, label="not converged (%d)" % len(bad))
    ax.set_ylabel("per step")
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper right", fontsize=8)

    ax = axes[3]
    pts = [(ti, d) for ti, d in zip(t, data["min_distance"]) if math.isfinite(d) and d > 0]
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color="tab:green", **style)
        ax.set_yscale("log")
    else:
        ax.text(0.5, 0.5, "no contact candidates in any step (min distance inf)",
                transform=ax.transAxes, ha="center", va="center", color="gray")
    ax.set_ylabel("min contact\ndistance (m)")

    ax = axes[4]
    ax.plot(t, data["num_contacts"], color="tab:purple", label="active contacts", **style)
    if "friction_contacts" in data and any(data["friction_contacts"]):
        ax.plot(t, data["friction_contacts"], color="tab:brown", label="with friction", **style)
        ax.legend(loc="upper left", fontsize=8)
    ax.set_ylabel("contacts")
    ax.set_ylim(bottom=0)

    ax = axes[5]
    total = data["time_total"]
    parts = [(c, lbl) for c, lbl in (("time_assembly", "assembly"),
                                     ("time_factorization", "factorization"),
                                     ("time_solve", "solve"),
                                     ("time_line_search", "line search")) if c in data]
    if parts:
        ys = [data[c] for c, _ in parts]
        rest = [max(0.0, tot - sum(y[i] for y in ys)) for i, tot in enumerate(total)]
        colors = ["tab:blue", "tab:orange", "tab:green", "tab:red"][:len(ys)] + ["lightgray"]
        ax.stackplot(t, *ys, rest, labels=[lbl for _, lbl in parts] + ["other"], colors=colors, alpha=0.75)
    ax.plot(t, total, color="black", linewidth=1.2, label="total")
    for c, lbl, col in (("time_ccd", "CCD (within the above)", "tab:cyan"),
                        ("time_broad_phase", "broad phase (within the above)", "tab:pink")):
        if c in data:
            ax.plot(t, data[c], color=col, linestyle="--", linewidth=1.2, label=lbl)
    ax.set_ylabel("wall time\nper step (s)")
    ax.set_ylim(0, 1.4 * max(max(total), 1e-9))  # room for the legend
    ax.legend(loc="upper left", fontsize=7, ncol=3)
    ax.set_xlabel("simulated time (s)")

    for ax in axes:
        ax.grid(True, alpha=0.3)
    fig.align_ylabels(axes)
    fig.tight_layout()
    fig.savefig(out_path, dpi=dpi)
    plt.close(fig)


def main(argv):
    ap = ArgumentParser(
        prog=PROG,
        description="Plot an ipcc run's stats.csv (energies, incremental potential, Newton iterations, "
                    "min distance, contacts, time per step) to a PNG.")
    ap.add_argument("outdir", metavar="OUTDIR", help="output folder of `ipcc run SCENE -o OUTDIR`")
    ap.add_argument("-o", "--output", metavar="FILE.png", help="PNG to write (default OUTDIR/stats.png)")
    ap.add_argument("--size", type=parse_size, default=(1000, 1400), metavar="WxH",
                    help="image size in pixels (default 1000x1400)")
    args = ap.parse_args(argv)

    try:
        if not os.path.exists(args.outdir):
            raise InputError("%s: no such directory" % args.outdir)
        if not os.path.isdir(args.outdir):
            raise InputError("%s: not a directory" % args.outdir)
        data = read_stats(os.path.join(args.outdir, "stats.csv"))
    except InputError as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        return 1

    out = args.output or os.path.join(args.outdir, "stats.png")
    if not out.lower().endswith(".png"):
        print("%s: error: %s: the output must be a .png file" % (PROG, out), file=sys.stderr)
        return 1

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("%s: error: matplotlib is not installed for %s; install it with:\n"
              "    apt-get install python3-matplotlib\n"
              "and run this script with Debian's /usr/bin/python3" % (PROG, sys.executable), file=sys.stderr)
        return 1

    n = len(data["time"])
    unconverged = sum(1 for c in data.get("converged", []) if c == 0)
    title = "%s: %d step%s, %.4g s simulated, %.3g s wall%s" % (
        os.path.basename(os.path.normpath(os.path.abspath(args.outdir))), n, "" if n == 1 else "s",
        data["time"][-1], sum(data["time_total"]),
        ", %d not converged" % unconverged if unconverged else "")
    tmp = out + ".tmp.png"
    try:
        plot(data, title, tmp, args.size)
        os.replace(tmp, out)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        print("%s: error: cannot write %s: %s" % (PROG, out, e.strerror or e), file=sys.stderr)
        return 1
    print("wrote %s (%d steps)" % (out, n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
