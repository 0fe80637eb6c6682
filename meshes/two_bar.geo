// Bar [0,1] x [0,0.1] x [0,0.1] metres in two halves that share the face
// x = 0.5: physical volume "soft" (x < 0.5, tag 1) and "stiff" (x > 0.5,
// tag 2), mesh size 0.05 (see README.md). examples/regions.json gives each
// half its own material.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 0.5, 0.1, 0.1};
Box(2) = {0.5, 0, 0, 0.5, 0.1, 0.1};
BooleanFragments{ Volume{1, 2}; Delete; }{}
Physical Volume("soft", 1) = {1};
Physical Volume("stiff", 2) = {2};
Mesh.MeshSizeMin = 0.05;
Mesh.MeshSizeMax = 0.05;
