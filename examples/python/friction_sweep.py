"""A sweep over the friction coefficient on examples/incline.json, from Python.

The right-hand block ("slides") and the slope get the same coefficient mu,
so their pair has mu (docs/scene-format.md, friction). Coulomb's law gives
the block an acceleration g (sin - mu cos) down the slope while
mu < tan = 0.5, and none above. The script steps the scene for each mu and
measures the block's acceleration along the slope over the second half of
the run (its speed gained from step N to step 2N, over N h: the first half
lets it settle onto the slope and break away, which takes longer the
nearer mu is to tan), and plots it against that line.

At the default Newton tolerance (1e-2: a step's velocity error up to
1e-2 L m/s, 4.4 mm/s here) the blocks just under the threshold gain only
3.5 mm/s a step, within that tolerance; they follow Coulomb all the same
(mu = 0.46: 0.351 m/s^2), because Newton takes the direction it solved for
at its last iteration (README, Limits).

    make python
    python3 examples/python/friction_sweep.py [--steps N] [--out sweep.png]
"""
import argparse
import math
import os
import sys

import numpy as np

import ipcc

HERE = os.path.dirname(os.path.abspath(__file__))
SCENE = os.path.join(HERE, "..", "incline.json")
THETA = math.atan(0.5)


def acceleration_along_slope(mu, steps, tolerance=None):
    """The "slides" block's mean acceleration down the slope from step `steps` to 2 `steps`."""
    overrides = {"bodies[1].friction": mu, "obstacles[0].friction": mu}
    if tolerance:
        overrides["newton.tolerance"] = tolerance
    scene = ipcc.Scene.load(SCENE, overrides=overrides)
    with scene.world() as world:
        rows = [v for v in range(world.num_vertices) if world.body_of_vertex(v) == "slides"]
        m = world.masses[rows]
        down = np.array([-math.cos(THETA), -math.sin(THETA), 0.0])  # down the slope y = x / 2
        speed = []
        for _ in range(2):
            for _ in range(steps):
                world.step()
            speed.append(float((m[:, None] * world.velocities[rows]).sum(axis=0) / m.sum() @ down))
        return (speed[1] - speed[0]) / (steps * world.time_step)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50, help="N: half the run, in steps")
    parser.add_argument("--out", default="friction_sweep.png")
    parser.add_argument("--tolerance", type=float, help="newton.tolerance (default: the scene's, 1e-2)")
    parser.add_argument("--mu", type=float, nargs="*", default=[0.0, 0.1, 0.2, 0.3, 0.4, 0.45, 0.55, 0.7])
    args = parser.parse_args(argv)
    rows = []
    for mu in args.mu:
        a = acceleration_along_slope(mu, args.steps, args.tolerance)
        expected = max(0.0, 9.81 * (math.sin(THETA) - mu * math.cos(THETA)))
        rows.append((mu, a, expected))
        print(f"mu {mu:4.2f}: {a:8.5f} m/s^2 down the slope (Coulomb: {expected:8.5f})")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    mus = np.linspace(0, max(args.mu), 200)
    ax.plot(mus, np.maximum(0, 9.81 * (np.sin(THETA) - mus * np.cos(THETA))), label="Coulomb")
    ax.plot([r[0] for r in rows], [r[1] for r in rows], "o", label="ipcc")
    ax.set_xlabel("friction coefficient mu")
    ax.set_ylabel("acceleration down the slope (m/s^2)")
    ax.axvline(math.tan(THETA), color="grey", lw=0.5)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
