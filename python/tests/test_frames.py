"""ipcc.read_frames against the frames `ipcc run` writes (raw and zlib):
positions bit for bit those of the same run stepped from Python, every
array as VTK itself reads it; ipcc.compare agrees with `ipcc compare`."""
import subprocess

import numpy as np
import pytest

import ipcc


def run(cli, scene, out, *sets):
    args = [cli, "run", str(scene), "-o", str(out), "-q", "--set", "duration=0.1", "--set", "output.fps=0"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True)


@pytest.mark.parametrize("compress", ["true", "false"])
def test_frames_are_the_runs_states(repo, cli, tmp_path, compress):
    scene = repo / "examples" / "contact_cubes.json"
    run(cli, scene, tmp_path / "run", f"output.compress={compress}")
    frames = ipcc.read_frames(tmp_path / "run")
    world = ipcc.Scene.load(scene, overrides={"duration": 0.1}).world()
    assert len(frames) == 11 and frames[0].time == 0
    for k, frame in enumerate(frames):
        if k:
            world.step()
        assert frame.time == pytest.approx(world.time, abs=1e-12)
        assert frame.positions.tobytes() == world.positions.tobytes()
        assert np.array_equal(frame.tets, world.tets)
        assert frame.point_data["velocity"].tobytes() == world.velocities.tobytes()
    assert {"velocity", "displacement", "contact_force", "mass"} <= set(frames[-1].point_data)
    assert {"body_id", "volume_ratio", "cauchy_stress", "von_mises"} <= set(frames[-1].cell_data)


def test_arrays_match_vtk(repo, cli, tmp_path):
    vtk = pytest.importorskip("vtk")
    from vtk.util.numpy_support import vtk_to_numpy
    run(cli, repo / "examples" / "contact_cubes.json", tmp_path / "run")
    path = tmp_path / "run" / "frame_000010.vtu"
    mine = ipcc.read_frame(path)
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(str(path))
    reader.Update()
    grid = reader.GetOutput()
    assert vtk_to_numpy(grid.GetPoints().GetData()).tobytes() == mine.positions.tobytes()
    for name, values in mine.point_data.items():
        assert vtk_to_numpy(grid.GetPointData().GetArray(name)).tobytes() == values.tobytes(), name
    for name, values in mine.cell_data.items():
        assert vtk_to_numpy(grid.GetCellData().GetArray(name)).tobytes() == values.tobytes(), name


def test_compare_agrees_with_the_command(repo, cli, tmp_path):
    scene = repo / "examples" / "contact_cubes.json"
    run(cli, scene, tmp_path / "a")
    run(cli, scene, tmp_path / "b", "output.compress=false")
    run(cli, scene, tmp_path / "c", "contact.friction=0.9", "gravity=[0,-12,0]")
    same = ipcc.compare(tmp_path / "a", tmp_path / "b", tol=0)
    assert same.same and same.worst == 0 and len(same.differences) == 11
    other = ipcc.compare(tmp_path / "a", tmp_path / "c", tol=1e-6)
    assert not other.same and other.first_over is not None and other.worst > 1e-6
    for case, expect in (("b", 0), ("c", 5)):
        code = subprocess.run([cli, "compare", str(tmp_path / "a"), str(tmp_path / case), "-q"],
                              capture_output=True).returncode
        assert code == expect
    first_line = subprocess.run([cli, "compare", str(tmp_path / "a"), str(tmp_path / "c")], capture_output=True,
                                text=True).stdout
    assert f"{other.length:.17g}" in first_line  # the same L
    with pytest.raises(ipcc.Error, match="no frames|No such file"):
        ipcc.read_frames(tmp_path / "nowhere")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "frame_000000.vtu").write_text("<VTKFile/>")
    with pytest.raises(ipcc.Error, match="frame_000000.vtu: not an ipcc frame"):
        ipcc.read_frames(tmp_path / "bad")


@pytest.mark.parametrize("compress", ["true", "false"])
def test_frames_written_from_python_are_ipcc_runs_byte_for_byte(repo, cli, tmp_path, compress):
    scene = repo / "examples" / "contact_cubes.json"
    run(cli, scene, tmp_path / "cli", f"output.compress={compress}", "output.contacts=true")
    world = ipcc.Scene.load(scene, overrides={"duration": 0.1}).world()
    with ipcc.Output(tmp_path / "py", contacts=True, compress=compress == "true") as out:
        out.write(world)
        while world.time < 0.1 - 1e-12:
            world.step()
            out.write(world)
        assert out.frame_count == 11
    for name in ("frame_000000.vtu", "frame_000010.vtu", "obstacles_000010.vtp", "contacts_000010.vtp",
                 "frames.pvd"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
