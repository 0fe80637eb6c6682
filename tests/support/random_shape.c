#include "random_shape.h"

#include "support.h"

ipcc_shape ipcc_test_random_shape(ipcc_shape_kind kind, double torus_lo, double torus_hi) {
    ipcc_shape s = {.kind = kind};
    for (int i = 0; i < 3; ++i)
        s.center[i] = ipcc_test_random(-1, 1);
    ipcc_test_random_rotation(s.rotation);
    for (int i = 0; i < 3; ++i)
        s.size[i] = ipcc_test_random(0.3, 1.5);
    if (kind == IPCC_SHAPE_SPHERE) s.size[1] = s.size[2] = s.size[0];
    if (kind == IPCC_SHAPE_TORUS) s.size[1] = ipcc_test_random(torus_lo, torus_hi) * s.size[0];
    return s;
}
