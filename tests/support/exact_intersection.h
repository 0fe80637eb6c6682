/// Exact intersection checks for tests: "no pair of non-adjacent surface
/// triangles intersects", decided with exact orientation predicates (a
/// floating-point filter backed by GMP integer arithmetic), never with a
/// tolerance. Inputs must be finite doubles; they are taken as exact values.
#ifndef IPCC_TEST_EXACT_INTERSECTION_H
#define IPCC_TEST_EXACT_INTERSECTION_H

#include <stdbool.h>

/// Exact sign of orient3d(a,b,c,d) = sign(det[b-a; c-a; d-a]): +1, 0, -1.
/// +1 when d lies on the side of plane (a,b,c) its counter-clockwise normal points to.
int ipcc_test_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]);

/// Exact sign of orient2d(a,b,c) = sign((b-a) x (c-a)) for points in the plane: +1, 0, -1.
int ipcc_test_orient2d(const double a[2], const double b[2], const double c[2]);

/// Exact sign of dot(x - point, normal) (half-space side): +1 outside (the
/// normal side), 0 on the plane, -1 inside.
int ipcc_test_halfspace_side(const double x[3], const double point[3], const double normal[3]);

/// Exact test: does the closed segment (p,q) intersect the closed triangle
/// (a,b,c)? Touching counts. Degenerate segments (p == q) and triangles
/// (collinear or coincident vertices) are handled as the point / segment they are.
bool ipcc_test_segment_triangle_intersect(const double p[3], const double q[3], const double a[3],
                                          const double b[3], const double c[3]);

/// Exact test: do the closed triangles (a0,a1,a2) and (b0,b1,b2) intersect?
/// Touching (a shared point, edge or coplanar overlap) counts. Handles coplanar
/// and degenerate triangles.
bool ipcc_test_triangles_intersect(const double *a0, const double *a1, const double *a2, const double *b0,
                                   const double *b1, const double *b2);

/// Search all pairs of faces (3 vertex indices each, into x[3*num_vertices])
/// that share no vertex index for an exact intersection. Candidates come from a
/// uniform grid over slightly enlarged bounding boxes (expected O(n + pairs),
/// not O(n^2)). Returns the number of intersecting pairs, counting stops at
/// max_report (max_report < 1: count all). *fa < *fb (either may be NULL) get
/// the first pair found, or -1 when there is none. The search order is
/// deterministic. Pairs sharing a vertex are never tested, so a face folded
/// through a neighbour it shares a vertex with is not reported.
int ipcc_test_find_triangle_intersections(int num_vertices, const double *x, int num_faces, const int *faces,
                                          int max_report, int *fa, int *fb);

/// Same, but only pairs with one face from faces_a and one from faces_b (both
/// index into x; e.g. a body against an obstacle). Pairs sharing a vertex index
/// are skipped. *fa indexes faces_a and *fb indexes faces_b (-1 when none).
int ipcc_test_find_triangle_intersections_between(int num_vertices, const double *x, int na,
                                                  const int *faces_a, int nb, const int *faces_b,
                                                  int max_report, int *fa, int *fb);

#endif
