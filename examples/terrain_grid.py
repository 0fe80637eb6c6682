#!/usr/bin/env python3
"""Write examples/terrain.csv, the rolling hills of examples/terrain.json.

  python3 examples/terrain_grid.py > examples/terrain.csv

A 24 x 24 grid at 0.1 m spacing (2.3 m square, centred on the shape's
centre): a slope of -0.35 along x with two hills and a hollow,
  h(x, y) = -0.35 x + 0.06 exp(-((x+0.6)^2 + (y-0.4)^2) / 0.08)
            + 0.05 exp(-((x-0.3)^2 + (y+0.5)^2) / 0.06)
            - 0.04 exp(-((x-0.5)^2 + (y-0.3)^2) / 0.10),
rows along y (row 0 at y = -1.15), columns along x.
"""
import math

N, SP = 24, 0.1
print("# rolling hills for examples/terrain.json (examples/terrain_grid.py): 24 x 24, spacing 0.1 m")
for r in range(N):
    y = (r - (N - 1) / 2) * SP
    row = []
    for c in range(N):
        x = (c - (N - 1) / 2) * SP
        h = (-0.35 * x + 0.06 * math.exp(-((x + 0.6) ** 2 + (y - 0.4) ** 2) / 0.08)
             + 0.05 * math.exp(-((x - 0.3) ** 2 + (y + 0.5) ** 2) / 0.06)
             - 0.04 * math.exp(-((x - 0.5) ** 2 + (y - 0.3) ** 2) / 0.10))
        row.append("%.6f" % h)
    print(", ".join(row))
