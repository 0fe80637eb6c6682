"""pytest plugin (entry point `ipcc`, installed with `pip install ./python`):
the fixture `ipcc_regression`, ipcc.testing.regression with the scene and
reference paths taken relative to the test file."""
import pathlib

import pytest

from .testing import regression


@pytest.fixture
def ipcc_regression(request):
    here = pathlib.Path(request.node.path).parent

    def run(scene, steps, reference, tol=1e-6, overrides=None):
        return regression(here / scene, steps, here / reference, tol, overrides)

    return run
