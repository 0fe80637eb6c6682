#!/bin/sh
# make python: the Python package (docs/python.md) for Debian's Python, offline
# and without pip. Records the path of the library built in BUILD (the
# Release folder) in python/ipcc/_build.py, then puts this checkout's
# python/ folder on the interpreter's path with a .pth file in its
# site-packages (the user's when that is not writable).
#   scripts/install-python.sh BUILD [PYTHON]
set -eu
build=$1
py=${2:-/usr/bin/python3}
root=$(cd "$(dirname "$0")/.." && pwd)
lib="$(cd "$build" && pwd)/libipcc.so.0"
if [ ! -f "$lib" ]; then
    echo "install-python: $lib is missing (make release builds it)" >&2
    exit 1
fi
"$py" - "$lib" "$root/python/ipcc/_build.py" <<'PY'
import json, sys
with open(sys.argv[2], "w") as f:
    f.write('"""Written by `make python`: the library this package was built with."""\n')
    f.write("LIBRARY = %s\n" % json.dumps(sys.argv[1]))
PY
site=$("$py" -c 'import site; print(site.getsitepackages()[0])')
if ! { mkdir -p "$site" 2>/dev/null && [ -w "$site" ]; }; then
    site=$("$py" -c 'import site; print(site.getusersitepackages())')
    mkdir -p "$site"
fi
echo "$root/python" > "$site/ipcc.pth"
echo "install-python: $site/ipcc.pth -> $root/python"
cd / && "$py" -c 'import ipcc, sys; print("ipcc", ipcc.version(), "for", sys.executable, "using", ipcc.library_path())'
