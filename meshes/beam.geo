// Beam [0,1] x [0,0.2] x [0,0.2] metres, uniform mesh size 0.05 (see README.md).
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 0.2, 0.2};
Mesh.MeshSizeMin = 0.05;
Mesh.MeshSizeMax = 0.05;
