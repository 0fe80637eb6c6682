// Tet quality measures for `ipcc info`: dihedral angles and the aspect
// ratio, longest edge / (2 sqrt(6) inradius), normalized so the regular tet
// is 1 (Shewchuk, "What is a good linear finite element?", 2002, lists it
// among the measures that flag every degenerate shape: slivers, needles,
// wedges and caps). Small dihedral angles make the stiffness matrix
// ill-conditioned; large ones (near 180 degrees) make interpolation of
// gradients poor.
//
// Dihedral angle at edge (a, b) of tet (a, b, c, d): the angle between the
// two faces that share it, pi minus the angle between their outward normals.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/mesh.h"
#include "base/vec3.h"

#define BAD_DIHEDRAL_MIN 5.0
#define BAD_DIHEDRAL_MAX 170.0
#define BAD_ASPECT 10.0

// Unnormalized normal of face (p, q, r).
static void face_normal(const double *p, const double *q, const double *r, double n[3]) {
    double u[3], v[3];
    sub3(q, p, u);
    sub3(r, p, v);
    cross3(u, v, n);
}

void ipcc_tet_quality(const double x[12], double *min_dihedral, double *max_dihedral, double *aspect) {
    const double *p[4] = {x, x + 3, x + 6, x + 9};
    // Faces opposite each vertex, oriented outward for a positive tet.
    double n[4][3];
    face_normal(p[1], p[2], p[3], n[0]);
    face_normal(p[0], p[3], p[2], n[1]);
    face_normal(p[0], p[1], p[3], n[2]);
    face_normal(p[0], p[2], p[1], n[3]);
    double area = 0;
    for (int f = 0; f < 4; ++f)
        area += 0.5 * norm3(n[f]);
    double lo = 180, hi = 0;
    // The edge shared by faces f and g joins the two vertices other than f and g.
    for (int f = 0; f < 4; ++f)
        for (int g = f + 1; g < 4; ++g) {
            double c = -dot3(n[f], n[g]) / (norm3(n[f]) * norm3(n[g]));
            double angle = acos(fmax(-1.0, fmin(1.0, c))) * 180.0 / 3.14159265358979323846;
            lo = fmin(lo, angle);
            hi = fmax(hi, angle);
        }
    double e[3], longest = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
            sub3(p[j], p[i], e);
            longest = fmax(longest, norm3(e));
        }
    double a[3], b[3], c[3], axb[3];
    sub3(p[1], p[0], a);
    sub3(p[2], p[0], b);
    sub3(p[3], p[0], c);
    cross3(a, b, axb);
    double volume = fabs(dot3(axb, c)) / 6.0;
    double inradius = area > 0 ? 3.0 * volume / area : 0;
    *min_dihedral = lo;
    *max_dihedral = hi;
    *aspect = inradius > 0 ? longest / (2.0 * sqrt(6.0) * inradius) : INFINITY;
}

typedef struct ranked {
    double aspect;
    int tet;
} ranked;

static int by_aspect_desc(const void *pa, const void *pb) {
    const ranked *a = pa, *b = pb;
    if (a->aspect != b->aspect) return a->aspect > b->aspect ? -1 : 1;
    return (a->tet > b->tet) - (a->tet < b->tet);
}

void ipcc_mesh_compute_quality(const ipcc_mesh *m, ipcc_mesh_quality *q, int max_bad, int *bad) {
    memset(q, 0, sizeof *q);
    q->min_volume = q->min_edge = q->min_dihedral = INFINITY;
    for (int k = 0; k < 3; ++k) {
        q->bbox_min[k] = INFINITY;
        q->bbox_max[k] = -INFINITY;
    }
    for (int i = 0; i < m->num_vertices; ++i)
        for (int k = 0; k < 3; ++k) {
            q->bbox_min[k] = fmin(q->bbox_min[k], m->vertices[3 * i + k]);
            q->bbox_max[k] = fmax(q->bbox_max[k], m->vertices[3 * i + k]);
        }
    ranked *worst = max_bad > 0 && bad ? malloc(sizeof(ranked) * (size_t)(m->num_tets + 1)) : NULL;
    int nworst = 0;
    for (int t = 0; t < m->num_tets; ++t) {
        double x[12];
        for (int k = 0; k < 4; ++k)
            memcpy(x + 3 * k, m->vertices + 3 * m->tets[4 * t + k], 3 * sizeof(double));
        double lo, hi, aspect, a[3], b[3], c[3], axb[3], e[3];
        ipcc_tet_quality(x, &lo, &hi, &aspect);
        sub3(x + 3, x, a);
        sub3(x + 6, x, b);
        sub3(x + 9, x, c);
        cross3(a, b, axb);
        double v = fabs(dot3(axb, c)) / 6.0;
        q->volume += v;
        q->min_volume = fmin(q->min_volume, v);
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j) {
                sub3(x + 3 * j, x + 3 * i, e);
                double l = sqrt(dot3(e, e));
                q->min_edge = fmin(q->min_edge, l);
                q->max_edge = fmax(q->max_edge, l);
            }
        q->min_dihedral = fmin(q->min_dihedral, lo);
        q->max_dihedral = fmax(q->max_dihedral, hi);
        if (aspect > q->max_aspect || t == 0) {
            q->max_aspect = aspect;
            q->worst_tet = t;
        }
        q->mean_aspect += aspect / m->num_tets;
        if (lo < BAD_DIHEDRAL_MIN || hi > BAD_DIHEDRAL_MAX || aspect > BAD_ASPECT) {
            q->num_bad++;
            if (worst) worst[nworst++] = (ranked){aspect, t};
        }
    }
    if (worst) {
        qsort(worst, (size_t)nworst, sizeof *worst, by_aspect_desc);
        for (int i = 0; i < nworst && i < max_bad; ++i)
            bad[i] = worst[i].tet;
        free(worst);
    }
}
