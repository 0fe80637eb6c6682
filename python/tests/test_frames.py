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


def test_obstacle_and_contact_files_match_vtk(repo, cli, tmp_path):
    vtk = pytest.importorskip("vtk")
    from vtk.util.numpy_support import vtk_to_numpy
    run(cli, repo / "examples" / "obstacle_push.json", tmp_path / "run", "duration=0.5", "output.contacts=true")
    obstacles = ipcc.read_frames(tmp_path / "run", "obstacles")
    contacts = ipcc.read_frames(tmp_path / "run", "contacts")
    bodies = ipcc.read_frames(tmp_path / "run")
    assert len(obstacles) == len(contacts) == len(bodies) == 51
    assert [f.time for f in obstacles] == [f.time for f in bodies]
    moved = np.abs(obstacles[-1].positions - obstacles[0].positions).max()
    assert moved == pytest.approx(0.5 * 0.5, rel=1e-12)  # the pusher moved at 0.5 m/s
    assert len(contacts[-1].positions) > 0  # and pushes the cube
    for frame in (obstacles[-1], contacts[-1]):
        reader = vtk.vtkXMLPolyDataReader()
        reader.SetFileName(frame.path)
        reader.Update()
        poly = reader.GetOutput()
        assert vtk_to_numpy(poly.GetPoints().GetData()).tobytes() == frame.positions.tobytes()
        for name, values in frame.point_data.items():
            assert vtk_to_numpy(poly.GetPointData().GetArray(name)).tobytes() == values.tobytes(), name
        for name, values in frame.cell_data.items():
            assert vtk_to_numpy(poly.GetCellData().GetArray(name)).tobytes() == values.tobytes(), name
        names = poly.GetFieldData().GetAbstractArray("object_names")
        assert frame.field_data["object_names"] == [names.GetValue(i) for i in range(names.GetNumberOfValues())]
        for section, cells in (("verts", poly.GetVerts()), ("lines", poly.GetLines()), ("polys", poly.GetPolys())):
            assert len(frame.cells[section]) == cells.GetNumberOfCells(), section
            if cells.GetNumberOfCells():
                conn = vtk_to_numpy(cells.GetConnectivityArray())
                assert np.array_equal(np.concatenate(frame.cells[section]), conn), section
    assert "pusher" in obstacles[-1].field_data["object_names"]
    with pytest.raises(ValueError, match="part must be one of"):
        ipcc.read_frames(tmp_path / "run", "tets")


def test_compare_of_obstacles_agrees_with_the_command(repo, cli, tmp_path):
    scene = repo / "examples" / "obstacle_push.json"
    run(cli, scene, tmp_path / "a", "duration=0.05")
    run(cli, scene, tmp_path / "b", "duration=0.05", "obstacles[1].velocity=[0.4,0,0]")
    result = ipcc.compare(tmp_path / "a", tmp_path / "b", tol=1e-6)
    assert max(result.differences) == 0  # the bodies are the same: the pusher has not reached the cube yet
    assert len(result.obstacle_differences) == 6 and result.obstacle_differences[0] == 0
    assert not result.same and result.first_over == 1 and result.first_over_part == "obstacles"
    assert result.worst == pytest.approx(0.1 * 0.05 / result.length, rel=1e-9)  # 0.1 m/s over 0.05 s, over L
    out = subprocess.run([cli, "compare", str(tmp_path / "a"), str(tmp_path / "b")], capture_output=True, text=True)
    assert out.returncode == 5 and f"{result.worst:.17g}" in out.stdout
    # Obstacles in one folder only: the command says they differ, and so does compare().
    (tmp_path / "c").mkdir()
    for f in (tmp_path / "a").iterdir():
        if f.name != "frames.pvd":
            (tmp_path / "c" / f.name).write_bytes(f.read_bytes())
    pvd = (tmp_path / "a" / "frames.pvd").read_text().splitlines()
    (tmp_path / "c" / "frames.pvd").write_text("\n".join(l for l in pvd if 'part="1"' not in l) + "\n")
    assert ipcc.read_frames(tmp_path / "c", "obstacles") == []
    only = ipcc.compare(tmp_path / "a", tmp_path / "c")
    assert not only.same and "obstacles in one folder only" in only.reason
    assert subprocess.run([cli, "compare", str(tmp_path / "a"), str(tmp_path / "c"), "-q"]).returncode == 5
