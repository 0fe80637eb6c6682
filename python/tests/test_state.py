"""Setting the state from Python (World.set_state, World.edit): the views
stay read-only, edits take effect with the physics they imply, and a
refused state leaves the world bit-identical to a twin never asked."""
import json

import numpy as np
import pytest

import ipcc

# A 0.2 m block resting on a half-space with mu = 0.3, and a second block.
SCENE = {
    "time_step": 0.01, "duration": 2, "contact": {"friction": 0.3},
    "bodies": [
        {"name": "block", "mesh": {"box": {"size": [0.2, 0.2, 0.2], "cells": [2, 2, 2]}},
         "material": {"density": 1000, "youngs_modulus": 1e6}, "translation": [0, 0.0005, 0]},
        {"name": "other", "mesh": {"box": {"size": [0.2, 0.2, 0.2], "cells": [2, 2, 2]}},
         "material": {"density": 1000, "youngs_modulus": 1e6}, "translation": [-0.5, 0.0005, 0]},
    ],
    "obstacles": [{"type": "half_space", "name": "ground", "point": [0, 0, 0], "normal": [0, 1, 0]}],
}


@pytest.fixture
def scene(tmp_path):
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(SCENE))
    return ipcc.Scene.load(path)


def test_views_stay_read_only(scene):
    world = scene.world()
    with pytest.raises(ValueError):
        world.positions[0, 0] = 1.0
    with pytest.raises(ValueError):
        world.velocities[:] = 0.0


def test_kick_slides_as_coulomb(scene):
    world = scene.world()
    for _ in range(5):
        world.step()
    block = world.vertices_of("block")
    with world.edit() as state:
        state.velocities[block] += [2.0, 0, 0]
    assert np.all(world.velocities[block][:, 0] >= 1.9)
    for _ in range(30):
        world.step()
    vx = world.velocities[block][:, 0].mean()
    assert abs(vx - (2.0 - 0.3 * 9.81 * 0.3)) < 0.02, vx  # C's test_world_state: 1.11622 against 1.11710


def test_lifted_body_falls_freely(scene):
    world = scene.world()
    world.step()
    other = world.vertices_of("other")
    x = np.array(world.positions)
    x[other, 1] += 0.5
    world.set_state(positions=x, velocities=np.zeros_like(x))
    m = world.masses[other]
    y0 = (m * world.positions[other, 1]).sum() / m.sum()
    for k in range(1, 11):
        world.step()
        y = (m * world.positions[other, 1]).sum() / m.sum()
        assert abs(y - (y0 - 9.81 * 0.01 ** 2 * k * (k + 1) / 2)) < 1e-9


def twins(scene, steps=3):
    a, b = scene.world(), scene.world()
    for _ in range(steps):
        a.step()
        b.step()
    return a, b


def same_after_steps(a, b, steps=5):
    for _ in range(steps):
        a.step()
        b.step()
    assert a.positions.tobytes() == b.positions.tobytes()
    assert a.velocities.tobytes() == b.velocities.tobytes()


@pytest.mark.parametrize("what, status, needles", [
    ("sink", "IPCC_ERR_INFEASIBLE", ["new state", 'body "block"', 'half-space "ground"']),
    ("overlap", "IPCC_ERR_INFEASIBLE", ["new state", '"other"', '"block"', "intersect"]),
    ("mirror", "IPCC_ERR_INFEASIBLE", ["new state", 'body "other"', "inverted"]),
    ("nan", "IPCC_ERR_INVALID_ARGUMENT", ["new state", 'body "block"', "not finite"]),
])
def test_refused_state_leaves_the_world_unchanged(scene, what, status, needles):
    world, twin = twins(scene)
    block, other = world.vertices_of("block"), world.vertices_of("other")
    with pytest.raises(ipcc.Error) as err:
        with world.edit() as state:
            x = state.positions
            if what == "sink":
                x[block, 1] -= 0.05
            elif what == "overlap":
                x[other, 0] += 0.45
            elif what == "mirror":
                x[other, 0] = 2 * x[other, 0].mean() - x[other, 0]
            else:
                state.velocities[block.start + 2, 1] = np.nan
    assert err.value.status == status
    for needle in needles:
        assert needle in str(err.value)
    same_after_steps(world, twin)


def test_exception_in_the_block_applies_nothing(scene):
    world, twin = twins(scene)
    with pytest.raises(RuntimeError):
        with world.edit() as state:
            state.velocities[:] += 5.0
            raise RuntimeError("changed my mind")
    same_after_steps(world, twin)


def test_unchanged_edit_and_same_state_change_nothing(scene):
    world, twin = twins(scene)
    with world.edit():
        pass
    world.set_state(positions=world.positions, velocities=world.velocities)
    same_after_steps(world, twin)


def test_bad_arguments(scene):
    world = scene.world()
    with pytest.raises(ValueError, match=r"positions must have shape \(54, 3\)"):
        world.set_state(positions=np.zeros((3, 3)))
    with pytest.raises(KeyError, match="no body 'ghost'"):
        world.vertices_of("ghost")
    assert world.vertices_of(1) == world.vertices_of("other") == slice(27, 54)
    world.close()
    with pytest.raises(ipcc.ClosedError):
        world.set_state(velocities=np.zeros((54, 3)))
