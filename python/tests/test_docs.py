"""docs/python.md's tutorial runs: every ```python block, in order, in one
namespace, from the repository root."""
import contextlib
import io
import os
import re


def test_tutorial_runs(repo, monkeypatch):
    text = (repo / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 7
    monkeypatch.chdir(repo)
    monkeypatch.delenv("IPCC_UPDATE_REFERENCES", raising=False)
    namespace = {"__name__": "tutorial"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for k, block in enumerate(blocks):
            try:
                exec(compile(block, f"docs/python.md block {k + 1}", "exec"), namespace)
            except Exception as e:
                raise AssertionError(f"docs/python.md block {k + 1} failed: {e!r}\n{block}") from e
    printed = out.getvalue()
    assert "contact.frictoin" in printed and "no reference yet" in printed
    assert "IPCC_ERR_INFEASIBLE new state: body" in printed  # the edit through the ground was refused
    assert "0.3 ok 50" in printed and "[True, True, True]" in printed  # the sweep, then its rerun
