#!/usr/bin/env python3
"""Check that src/ keeps the architecture docs/design.md describes.

  scripts/check_layers.py [--build DIR] [REPO]     (ctest: layers)
  scripts/check_layers.py --self-test              (ctest: layers_self_test)

Reads the layer table of docs/design.md (the rows of its "Layers" section,
`| N name | folders | what |`, the folders backticked and relative to src/,
layer 1 on top), then checks:

  1. every file of src/ sits in the folder of exactly one layer, and no
     folder holds more than MAX_FILES files;
  2. includes: every `#include "folder/x.h"` names a header of the file's
     own layer or of a lower one (a larger N);
  3. calls (with --build, from the symbols of the object files that CMake
     built in DIR, read with nm): a function or variable that a file uses
     from another file is defined in its own layer or a lower one, and no
     files call each other in a circle (a calls b calls ... a), within a
     layer or across;
  4. headers: `foo.h` declares only functions that `foo.c` beside it
     defines (a header without a .c declares types, macros and static
     inline functions only); each public header (include/ipcc/) declares
     functions of one layer only;
  5. no source file passes MAX_LINES lines (one concept per file).

Prints every violation with the file (and line, or the symbols of a call)
and exits 1 if there is one. --self-test builds a small tree with an upward
call, a circle and a hub header in a temporary folder and checks that each
is found, and that the tree without them passes.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

MAX_LINES = 1000
MAX_FILES = 22


def read_layers(design):
    """[(number, name, [folders])] from the Layers table of design.md."""
    layers, in_section = [], False
    with open(design, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_section = line.strip() == "## Layers"
                continue
            m = re.match(r"\|\s*(\d+)\s+([\w ]+?)\s*\|(.*?)\|", line) if in_section else None
            if m:
                folders = [p.rstrip("/") for p in re.findall(r"`([^`]+)`", m.group(3))]
                layers.append((int(m.group(1)), m.group(2), folders))
    return layers


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def strip_bodies(text):
    """Text with every {...} block removed (top level and nested), and every
    preprocessor line: what remains of a header is its declarations."""
    text = "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("#"))
    text = re.sub(r'extern\s+"C"\s*\{', " ", text)  # C++ guards: their closing brace is ignored below
    out, depth = [], 0
    for c in text:
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def declared_functions(path):
    """Names of the functions a header declares (prototypes outside inline bodies)."""
    with open(path, encoding="utf-8") as f:
        text = strip_bodies(strip_comments(f.read()))
    return set(re.findall(r"\b(ipcc_\w+)\s*\(", text))


def object_symbols(build, src):
    """{source path relative to src: (defined, used)} from the objects of the
    library and the command in the CMake build folder `build`."""
    objects = []
    for target in ("ipcc_objects.dir", "ipcc.dir"):
        root = os.path.join(build, "CMakeFiles", target)
        for d, _, names in os.walk(root):
            objects += [os.path.join(d, n) for n in names if n.endswith(".c.o")]
    table = {}
    for obj in sorted(objects):
        rel = obj.replace(os.sep, "/")
        k = rel.rfind("/src/")
        if k < 0:
            continue
        path = rel[k + 5 : -2]  # "base/core.c"
        if not os.path.exists(os.path.join(src, path)):
            continue  # an object of a source file that no longer exists
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        defined, used = set(), set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[-2] == "U":
                used.add(parts[-1])
            elif len(parts) == 3 and parts[1] in "TDBRC":
                defined.add(parts[2])
        table[path] = (defined, used)
    return table


def circles(graph):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(100000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def shortest_cycle(graph, members):
    """The shortest circle [a, b, ..., z] (z calls a) among `members`, a
    strongly connected set: breadth-first from each file back to itself."""
    best = None
    for start in sorted(members):
        parent, frontier, found = {start: None}, [start], None
        while frontier and found is None:
            nxt = []
            for v in frontier:
                for w in sorted(graph.get(v, ())):
                    if w not in members:
                        continue
                    if w == start:
                        found = v
                        break
                    if w not in parent:
                        parent[w] = v
                        nxt.append(w)
                if found is not None:
                    break
            frontier = nxt
        path, v = [], found
        while v is not None:
            path.append(v)
            v = parent[v]
        path.reverse()
        if best is None or len(path) < len(best):
            best = path
    return best


def check(repo, build):
    src = os.path.join(repo, "src")
    layers = read_layers(os.path.join(repo, "docs", "design.md"))
    if not layers:
        return ['no layer table in docs/design.md (section "## Layers")'], 0
    layer_of_folder = {}
    for n, name, folders in layers:
        for folder in folders:
            layer_of_folder[folder] = (n, name)
    files = sorted(
        os.path.relpath(os.path.join(d, n), src).replace(os.sep, "/")
        for d, _, names in os.walk(src)
        for n in names
        if n.endswith((".c", ".h"))
    )
    errors, layer_of = [], {}
    per_folder = {}
    for path in files:
        folder = os.path.dirname(path)
        per_folder[folder] = per_folder.get(folder, 0) + 1
        if folder not in layer_of_folder:
            errors.append(f"src/{path}: its folder \"{folder or '.'}\" is no layer's in docs/design.md")
        else:
            layer_of[path] = layer_of_folder[folder]
    for folder, count in sorted(per_folder.items()):
        if count > MAX_FILES:
            errors.append(f"src/{folder}/: {count} files (over {MAX_FILES}: split the layer along its concepts)")

    # 2. includes, 5. lengths
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
            there = layer_of.get(m.group(1))
            if there is None:
                errors.append(f"src/{path}:{k}: includes \"{m.group(1)}\", which is no file of src/ "
                              "(name headers from src/: \"folder/file.h\")")
            elif there[0] < here[0]:
                errors.append(f"src/{path}:{k}: layer {here[0]} ({here[1]}) includes \"{m.group(1)}\" "
                              f"of layer {there[0]} ({there[1]}): a layer never reaches up")
    if build is None:
        return errors, len(files)

    # 3. calls
    symbols = object_symbols(build, src)
    if not symbols:
        return errors + [f"no object files of src/ under {build}/CMakeFiles: build first"], len(files)
    where = {}
    for path, (defined, _) in symbols.items():
        for s in defined:
            where[s] = path
    graph, via = {}, {}
    for path, (_, used) in symbols.items():
        for s in sorted(used):
            target = where.get(s)
            if target is None or target == path:
                continue
            graph.setdefault(path, set()).add(target)
            via.setdefault((path, target), []).append(s)
    for (a, b), names in sorted(via.items()):
        la, lb = layer_of.get(a), layer_of.get(b)
        if la and lb and lb[0] < la[0]:
            errors.append(f"src/{a}: layer {la[0]} ({la[1]}) calls up into src/{b} of layer {lb[0]} "
                          f"({lb[1]}): {', '.join(names)}")
    for comp in circles(graph):
        cycle = shortest_cycle(graph, set(comp))
        calls = [f"src/{a} -> src/{b} ({', '.join(via[(a, b)][:4])}{', ...' if len(via[(a, b)]) > 4 else ''})"
                 for a, b in zip(cycle, cycle[1:] + cycle[:1])]
        more = f" ({len(comp)} files call each other around circles; the shortest:)" if len(comp) > len(cycle) else ":"
        errors.append(f"circle of calls{more} " + "; ".join(calls))

    # 4. headers
    for path in files:
        if not path.endswith(".h"):
            continue
        own = path[:-2] + ".c"
        for name in sorted(declared_functions(os.path.join(src, path))):
            at = where.get(name)
            if at is not None and at != own:
                errors.append(f"src/{path}: declares {name}, which src/{at} defines "
                              f"(foo.h declares only what foo.c defines)")
    public = os.path.join(repo, "include", "ipcc")
    for name in sorted(os.listdir(public)) if os.path.isdir(public) else []:
        if not name.endswith(".h"):
            continue
        layers_here = {}
        for fn in declared_functions(os.path.join(public, name)):
            at = where.get(fn)
            if at is not None and at in layer_of:
                layers_here.setdefault(layer_of[at][1], []).append(fn)
        if len(layers_here) > 1:
            parts = "; ".join(f"{ln}: {', '.join(sorted(fs)[:3])}" for ln, fs in sorted(layers_here.items()))
            errors.append(f"include/ipcc/{name}: declares functions of {len(layers_here)} layers ({parts}): "
                          "a public header declares one layer's functions")
    return errors, len(files)


SELF_TEST_DESIGN = """# Design
## Layers
| layer | folders | what |
|---|---|---|
| 1 top | `top/` | calls down |
| 2 low | `low/` | the bottom |
## Next
"""


def self_test():
    """Each violation the checker exists for, planted in a small tree."""
    cc = os.environ.get("CC", "cc")
    good = {
        "low/a.h": "int ipcc_a(int x);\n",
        "low/a.c": '#include "low/a.h"\nint ipcc_a(int x) { return x + 1; }\n',
        "low/b.h": "int ipcc_b(int x);\n",
        "low/b.c": '#include "low/a.h"\n#include "low/b.h"\nint ipcc_b(int x) { return ipcc_a(x); }\n',
        "top/t.h": "int ipcc_t(int x);\n",
        "top/t.c": '#include "low/b.h"\n#include "top/t.h"\nint ipcc_t(int x) { return ipcc_b(x); }\n',
    }
    cases = {
        "passes": ({}, None),
        "an upward call": (
            {"low/b.c": '#include "low/b.h"\nint ipcc_t(int x);\nint ipcc_b(int x) { return ipcc_t(x); }\n'},
            "calls up into src/top/t.c",
        ),
        "a circle": (
            {"low/a.c": '#include "low/a.h"\nint ipcc_b(int x);\n'
                        "int ipcc_a(int x) { return x > 0 ? ipcc_b(x - 1) : 0; }\n"},
            "circle of calls: src/low/a.c -> src/low/b.c (ipcc_b); src/low/b.c -> src/low/a.c (ipcc_a)",
        ),
        "a hub header": (
            {"low/b.h": "int ipcc_b(int x);\nint ipcc_a(int x);\n"},
            "src/low/b.h: declares ipcc_a, which src/low/a.c defines",
        ),
        "an upward include": ({"low/a.c": '#include "top/t.h"\n#include "low/a.h"\nint ipcc_a(int x) { return x; }\n'},
                              "includes \"top/t.h\" of layer 1"),
    }
    failures = 0
    for case, (changes, expect) in cases.items():
        with tempfile.TemporaryDirectory() as repo:
            os.makedirs(os.path.join(repo, "docs"))
            with open(os.path.join(repo, "docs", "design.md"), "w") as f:
                f.write(SELF_TEST_DESIGN)
            tree = dict(good, **changes)
            for path, text in tree.items():
                os.makedirs(os.path.join(repo, "src", os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(repo, "src", path), "w") as f:
                    f.write(text)
            objdir = os.path.join(repo, "build", "CMakeFiles", "ipcc_objects.dir", "src")
            for path in tree:
                if path.endswith(".c"):
                    out = os.path.join(objdir, path + ".o")
                    os.makedirs(os.path.dirname(out), exist_ok=True)
                    subprocess.run([cc, "-c", "-I", os.path.join(repo, "src"), os.path.join(repo, "src", path),
                                    "-o", out], check=True)
            errors, _ = check(repo, os.path.join(repo, "build"))
            found = any(expect in e for e in errors) if expect else not errors
            print(f"self-test, {case}: {'ok' if found else 'NOT FOUND'}")
            for e in errors:
                print("    " + e)
            failures += not found
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("repo", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--build", help="CMake build folder: check calls and headers from its object files")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    errors, count = check(args.repo, args.build)
    for e in errors:
        print(e)
    scope = "includes, calls and headers" if args.build else "includes only (no --build: calls not checked)"
    print(f"check_layers: {count} files, {scope}, {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
