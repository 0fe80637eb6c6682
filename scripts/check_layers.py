#!/usr/bin/env python3
"""Check that src/ keeps the architecture docs/design.md describes.

  scripts/check_layers.py [REPO]      (ctest: layers)

Reads the layer table of docs/design.md (the rows of its "Layers" section:
`| N name | files | what |`, files as backticked names or globs relative to
src/), then checks, for every file in src/ (headers included):

  1. it belongs to exactly one layer;
  2. every `#include "x.h"` of it names a header of its own layer or of a
     lower one (a larger N): a layer never reaches up;
  3. no source file exceeds 1000 lines (house style: one concept per file).

Prints every violation with the file and line, and exits 1 if there is one.
"""
import fnmatch
import os
import re
import sys

MAX_LINES = 1000


def read_layers(design):
    """[(number, name, [patterns])] from the Layers table of design.md."""
    layers, in_section = [], False
    with open(design, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_section = line.strip() == "## Layers"
                continue
            m = re.match(r"\|\s*(\d+)\s+([\w ]+?)\s*\|(.*?)\|", line) if in_section else None
            if m:
                layers.append((int(m.group(1)), m.group(2), re.findall(r"`([^`]+)`", m.group(3))))
    return layers


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    src = os.path.join(repo, "src")
    layers = read_layers(os.path.join(repo, "docs", "design.md"))
    if not layers:
        print("check_layers: no layer table in docs/design.md (section \"## Layers\")")
        return 1
    files = sorted(
        os.path.relpath(os.path.join(d, n), src)
        for d, _, names in os.walk(src)
        for n in names
        if n.endswith((".c", ".h"))
    )
    errors, layer_of = [], {}
    for path in files:
        hits = [(n, name) for n, name, pats in layers if any(fnmatch.fnmatch(path, p) for p in pats)]
        if len(hits) != 1:
            where = ", ".join(f"{n} {name}" for n, name in hits) or "none"
            errors.append(f"src/{path}: in {len(hits)} layers of docs/design.md ({where}); must be in one")
        else:
            layer_of[path] = hits[0]
    for path in files:
        if path not in layer_of:
            continue
        here = layer_of[path]
        with open(os.path.join(src, path), encoding="utf-8") as f:
            lines = f.readlines()
        if path.endswith(".c") and len(lines) > MAX_LINES:
            errors.append(f"src/{path}: {len(lines)} lines (over {MAX_LINES}: split it along its concepts)")
        for k, line in enumerate(lines, 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m or m.group(1).startswith("ipcc/"):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
            if target not in layer_of:
                target = m.group(1)
            there = layer_of.get(target)
            if there is None:
                errors.append(f"src/{path}:{k}: includes \"{m.group(1)}\", which no layer holds")
            elif there[0] < here[0]:
                errors.append(
                    f"src/{path}:{k}: layer {here[0]} ({here[1]}) includes \"{m.group(1)}\" "
                    f"of layer {there[0]} ({there[1]}): a layer never reaches up"
                )
    for e in errors:
        print(e)
    print(f"check_layers: {len(files)} files, {len(layers)} layers, {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
