// Unit cube [0,1]^3 with physical groups, meshed coarsely (gmsh -3).
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Mesh.MeshSizeMin = 0.5;
Mesh.MeshSizeMax = 0.5;
Physical Volume("body") = {1};
Physical Surface("bottom") = {5};
