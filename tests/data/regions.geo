// Two unit cubes side by side, [0,1]x[0,1]x[0,1] ("soft", physical 7) and
// [1,2]x[0,1]x[0,1] ("stiff", physical 9), sharing the face x = 1: a
// two-region mesh for the region readers (see README.md).
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Box(2) = {1, 0, 0, 1, 1, 1};
BooleanFragments{ Volume{1, 2}; Delete; }{}
Physical Volume("soft", 7) = {1};
Physical Volume("stiff", 9) = {2};
Mesh.MeshSizeMin = 0.6;
Mesh.MeshSizeMax = 0.6;
