"""The bad-input catalogue (tests/bad_inputs/cases.txt) from Python: every
scene case that `ipcc run` or `ipcc check` refuses raises ipcc.Error when
the scene is loaded, its world built or stepped, with a message matching
the case's regex, and never crashes the interpreter."""
import re
import shutil

import pytest

import ipcc


def scene_cases(repo):
    cases = []
    for line in (repo / "tests" / "bad_inputs" / "cases.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, args, regex = (part.strip() for part in line.split("|", 2))
        words = args.split()
        if words[0] not in ("run", "check") or len(words) < 2:
            continue
        overrides, rest = {}, words[2:]
        while rest[:1] == ["--set"] and len(rest) >= 2 and "=" in rest[1]:
            key, value = rest[1].split("=", 1)
            overrides[key] = value
            rest = rest[2:]
        if rest:  # options only the command has (-o, --threads, ...)
            continue
        cases.append((name, words[1], overrides, regex))
    return cases


def test_catalogue(repo, tmp_path, monkeypatch):
    work = tmp_path / "bad_inputs"
    shutil.copytree(repo / "tests" / "bad_inputs", work)
    monkeypatch.chdir(work)  # the paths as the cases give them
    cases = scene_cases(repo)
    assert len(cases) >= 60
    misses = []
    for name, scene, overrides, regex in cases:
        try:
            world = ipcc.Scene.load(scene, overrides=overrides).world()
            for _ in range(3):
                world.step()
            misses.append(f"{name}: no error")
        except ipcc.Error as e:
            if not re.search(regex, str(e)):
                misses.append(f"{name}: {e} !~ {regex}")
    assert not misses, "\n".join(misses)
