// Ball of radius 0.1 m centred at the origin (contact examples).
SetFactory("OpenCASCADE");
Sphere(1) = {0, 0, 0, 0.1};
Mesh.CharacteristicLengthMin = 0.035;
Mesh.CharacteristicLengthMax = 0.035;
