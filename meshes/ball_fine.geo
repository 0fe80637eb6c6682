// Ball of radius 0.1 m centred at the origin, finer (the analytic-shape examples).
SetFactory("OpenCASCADE");
Sphere(1) = {0, 0, 0, 0.1};
Mesh.CharacteristicLengthMin = 0.015;
Mesh.CharacteristicLengthMax = 0.015;
