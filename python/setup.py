"""Build step of `pip install ./python` (the metadata is in pyproject.toml):
records in the installed ipcc/_build.py the library the package is built
with, so `import ipcc` finds it from any folder. That library is
IPCC_LIBRARY at install time when set, else this checkout's Release build
(build/release/libipcc.so.0, which `make demo` and `make release` build);
without either, the package looks for IPCC_LIBRARY or the system's
libipcc at import (python/ipcc/_lib.py)."""
import json
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def library():
    env = os.environ.get("IPCC_LIBRARY")
    if env:
        return os.path.abspath(env)
    release = os.path.join(HERE, "..", "build", "release", "libipcc.so.0")
    return os.path.normpath(release) if os.path.exists(release) else None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        path = library()
        target = os.path.join(self.build_lib, "ipcc", "_build.py")
        if path is None:
            if os.path.exists(target):  # a `make python` record from this checkout: not for this install
                os.remove(target)
            return
        with open(target, "w") as f:
            f.write('"""Written by `pip install`: the library this package was built with."""\n')
            f.write("LIBRARY = %s\n" % json.dumps(path))


setup(cmdclass={"build_py": BuildWithLibrary})
