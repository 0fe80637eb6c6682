"""The package's tests (run by ctest `python`, with IPCC_LIBRARY and IPCC_CLI
pointing at the build's library and command)."""
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("IPCC_CLI")
    if not path:
        pytest.skip("IPCC_CLI (the ipcc command) not set")
    return path

pytest_plugins = ["pytester"]
