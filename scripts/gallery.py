#!/usr/bin/python3
"""Build the README's analytic-shape gallery: run the five shape examples,
render one frame of each with scripts/render.py, and tile the images.

    scripts/gallery.py [--ipcc PATH] [--work DIR] [-o PNG] [--tile WxH]

Runs `ipcc run examples/shape_<kind>.json` for sphere, box, cylinder,
ellipsoid and torus into WORK/<kind> (default /tmp/ipcc_gallery), renders
the frame each example names below with render.py (same size, a camera per
scene), and writes them side by side (3 + 2) to PNG (default
docs/images/shapes_gallery.png), each labelled with its shape. Needs the
same Debian packages as render.py (python3-vtk9; xvfb when there is no
display).

Exit status: 0 done; 1 a run or a render failed; 2 VTK is missing.
"""

import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# kind: render.py options for its tile (frame, camera, framing)
SHOTS = {
    "sphere": ["--frames", "45", "--camera", "front", "--fit", "bodies", "--zoom", "0.45"],
    "box": ["--frames", "40", "--camera", "40,55", "--fit", "bodies", "--zoom", "0.3"],
    "cylinder": ["--frames", "last", "--camera", "iso", "--fit", "all"],
    "ellipsoid": ["--frames", "25", "--camera", "front", "--fit", "all"],
    "torus": ["--frames", "30", "--camera", "60,20", "--fit", "all"],
}


def run(cmd):
    print("+", " ".join(cmd), flush=True)
    return subprocess.call(cmd)


def tile(pngs, out, tile_size):
    """Resize each PNG to tile_size and lay them out 3 + 2 (centred), white around."""
    import vtk  # noqa: PLC0415 (VTK is only needed here)

    w, h = tile_size

    def load(path):
        reader = vtk.vtkPNGReader()
        reader.SetFileName(path)
        resize = vtk.vtkImageResize()
        resize.SetInputConnection(reader.GetOutputPort())
        resize.SetOutputDimensions(w, h, 1)
        rgb = vtk.vtkImageExtractComponents()
        rgb.SetInputConnection(resize.GetOutputPort())
        rgb.SetComponents(0, 1, 2)
        rgb.Update()
        return rgb.GetOutput()

    def row(images, width):
        append = vtk.vtkImageAppend()
        append.SetAppendAxis(0)
        for im in images:
            append.AddInputData(im)
        append.Update()
        pad = vtk.vtkImageConstantPad()  # centre the row in `width` pixels
        pad.SetInputData(append.GetOutput())
        left = (width - w * len(images)) // 2
        pad.SetOutputWholeExtent(-left, width - left - 1, 0, h - 1, 0, 0)
        pad.SetConstant(255)
        pad.Update()
        change = vtk.vtkImageChangeInformation()  # extents from 0 for the vertical append
        change.SetInputConnection(pad.GetOutputPort())
        change.SetOutputExtentStart(0, 0, 0)
        change.Update()
        return change.GetOutput()

    images = [load(p) for p in pngs]
    rows = [row(images[:3], 3 * w), row(images[3:], 3 * w)]
    stack = vtk.vtkImageAppend()
    stack.SetAppendAxis(1)
    stack.AddInputData(rows[1])  # VTK images grow upwards: the bottom row first
    stack.AddInputData(rows[0])
    stack.Update()
    writer = vtk.vtkPNGWriter()
    writer.SetFileName(out)
    writer.SetInputData(stack.GetOutput())
    writer.Write()


def main():
    ap = argparse.ArgumentParser(prog="gallery.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--ipcc", default=os.path.join(ROOT, "build", "release", "ipcc"), help="the ipcc binary")
    ap.add_argument("--work", default="/tmp/ipcc_gallery", help="folder for the runs and renders")
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "docs", "images", "shapes_gallery.png"))
    ap.add_argument("--tile", default="480x360", help="size of each tile (default 480x360)")
    args = ap.parse_args()
    try:
        import vtk  # noqa: F401, PLC0415
    except ImportError:
        print("gallery.py: needs VTK's Python module (Debian: python3-vtk9)", file=sys.stderr)
        return 2
    tw, th = (int(v) for v in args.tile.split("x"))
    pngs = []
    for kind, options in SHOTS.items():
        out = os.path.join(args.work, kind)
        scene = os.path.join(ROOT, "examples", "shape_%s.json" % kind)
        if os.path.isdir(out):
            shutil.rmtree(out)
        if run([args.ipcc, "run", scene, "-o", out, "-q"]) != 0:
            return 1
        png_dir = os.path.join(out, "png")
        if run([sys.executable, os.path.join(ROOT, "scripts", "render.py"), out, "-o", png_dir,
                "--size", "%dx%d" % (2 * tw, 2 * th), "--contacts"] + options) != 0:
            return 1
        images = sorted(f for f in os.listdir(png_dir) if f.endswith(".png"))
        pngs.append(os.path.join(png_dir, images[-1]))
    tile(pngs, args.output, (tw, th))
    print("wrote", args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
