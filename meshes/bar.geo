// Bar [0,1] x [0,0.1] x [0,0.1] metres, uniform mesh size 0.03 (see README.md).
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 0.1, 0.1};
Mesh.MeshSizeMin = 0.03;
Mesh.MeshSizeMax = 0.03;
