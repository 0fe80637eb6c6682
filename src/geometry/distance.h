/// Contact distance kernels (IPC, Li et al. 2020, Sec. 4 and supplement):
/// point-point, point-edge, point-triangle and edge-edge SQUARED distances,
/// their gradients and closed-form Hessians, and closest-feature
/// classification (nearly parallel edge pairs: collision/parallel_edges.c).
///
/// Every distance here is squared (IPC's convention: d = |x - y|^2, barrier
/// thresholds are squared too). DOF order: point-edge [p, e0, e1] (9),
/// point-triangle [p, t0, t1, t2] (12), edge-edge [ea0, ea1, eb0, eb1] (12),
/// each point x y z. Hessians are row-major n x n. Gradient and Hessian
/// outputs are fully overwritten (zeros outside the active sub-kernel).
/// Nothing allocates; all inputs are read only.
#ifndef IPCC_DISTANCE_H
#define IPCC_DISTANCE_H

/// Closest feature of the segment [e0, e1] to a point.
typedef enum ipcc_point_edge_distance_type {
    IPCC_PE_P_E0, ///< closest to e0 (point-point)
    IPCC_PE_P_E1, ///< closest to e1 (point-point)
    IPCC_PE_P_E   ///< interior of the segment (point-line)
} ipcc_point_edge_distance_type;

/// Closest feature of the triangle (t0, t1, t2) to a point.
typedef enum ipcc_point_triangle_distance_type {
    IPCC_PT_P_T0, ///< vertex t0 (point-point)
    IPCC_PT_P_T1, ///< vertex t1
    IPCC_PT_P_T2, ///< vertex t2
    IPCC_PT_P_E0, ///< interior of edge t0t1 (point-line)
    IPCC_PT_P_E1, ///< interior of edge t1t2
    IPCC_PT_P_E2, ///< interior of edge t2t0
    IPCC_PT_P_T   ///< interior of the triangle (point-plane)
} ipcc_point_triangle_distance_type;

/// Closest features of two segments a = [ea0, ea1], b = [eb0, eb1].
typedef enum ipcc_edge_edge_distance_type {
    IPCC_EE_EA0_EB0, ///< endpoints ea0, eb0 (point-point)
    IPCC_EE_EA0_EB1, ///< endpoints ea0, eb1
    IPCC_EE_EA1_EB0, ///< endpoints ea1, eb0
    IPCC_EE_EA1_EB1, ///< endpoints ea1, eb1
    IPCC_EE_EA_EB0,  ///< eb0 to the interior of edge a (point-line)
    IPCC_EE_EA_EB1,  ///< eb1 to the interior of edge a
    IPCC_EE_EA0_EB,  ///< ea0 to the interior of edge b
    IPCC_EE_EA1_EB,  ///< ea1 to the interior of edge b
    IPCC_EE_EA_EB    ///< interiors of both edges (line-line)
} ipcc_edge_edge_distance_type;

/// Degeneracy threshold on sin^2 of an angle. A triangle with
/// |(t1-t0) x (t2-t0)|^2 <= this * |t1-t0|^2 |t2-t0|^2 is treated as
/// degenerate (never classified P_T), and edges with
/// |(ea1-ea0) x (eb1-eb0)|^2 <= this * |ea1-ea0|^2 |eb1-eb0|^2 as parallel
/// (never classified EA_EB). See distance.c for the error trade-off.
#define IPCC_DISTANCE_DEGENERATE_SIN2 1e-12

// ---------------------------------------------------------------------------
// Primitive kernels. Smooth wherever their denominator is nonzero. At an
// exactly degenerate input (zero-length edge, zero-area triangle, parallel
// lines) they return the distance to the affine hull that remains (a line
// or a point) and that function's derivatives: finite, never
// NaN, but not the limit of the derivatives.

/// |p0 - p1|^2.
double ipcc_point_point_distance(const double p0[3], const double p1[3]);
/// Gradient wrt [p0, p1] (6).
void ipcc_point_point_distance_gradient(const double p0[3], const double p1[3], double g[6]);
/// Hessian wrt [p0, p1] (6x6).
void ipcc_point_point_distance_hessian(const double p0[3], const double p1[3], double H[36]);

/// Squared distance from p to the infinite line through e0, e1:
/// |(p - e0) x (e1 - e0)|^2 / |e1 - e0|^2 (|p - e0|^2 if e0 == e1).
double ipcc_point_line_distance(const double p[3], const double e0[3], const double e1[3]);
/// Gradient wrt [p, e0, e1] (9).
void ipcc_point_line_distance_gradient(const double p[3], const double e0[3], const double e1[3],
                                       double g[9]);
/// Hessian wrt [p, e0, e1] (9x9).
void ipcc_point_line_distance_hessian(const double p[3], const double e0[3], const double e1[3],
                                      double H[81]);

/// Squared distance from p to the plane of the triangle:
/// ((p - t0) . n)^2 / |n|^2, n = (t1 - t0) x (t2 - t0). For a collinear
/// triangle, the distance to its line (or to t0 if all three coincide).
double ipcc_point_plane_distance(const double p[3], const double t0[3], const double t1[3],
                                 const double t2[3]);
/// Gradient wrt [p, t0, t1, t2] (12).
void ipcc_point_plane_distance_gradient(const double p[3], const double t0[3], const double t1[3],
                                        const double t2[3], double g[12]);
/// Hessian wrt [p, t0, t1, t2] (12x12).
void ipcc_point_plane_distance_hessian(const double p[3], const double t0[3], const double t1[3],
                                       const double t2[3], double H[144]);

/// Squared distance between the infinite lines through the edges:
/// ((eb0 - ea0) . n)^2 / |n|^2, n = (ea1 - ea0) x (eb1 - eb0). For exactly
/// parallel lines, the distance between them along the longer edge's
/// direction (|ea0 - eb0|^2 if both edges have zero length).
double ipcc_line_line_distance(const double ea0[3], const double ea1[3], const double eb0[3],
                               const double eb1[3]);
/// Gradient wrt [ea0, ea1, eb0, eb1] (12).
void ipcc_line_line_distance_gradient(const double ea0[3], const double ea1[3], const double eb0[3],
                                      const double eb1[3], double g[12]);
/// Hessian wrt [ea0, ea1, eb0, eb1] (12x12).
void ipcc_line_line_distance_hessian(const double ea0[3], const double ea1[3], const double eb0[3],
                                     const double eb1[3], double H[144]);

// ---------------------------------------------------------------------------
// Classification (closest features) and dispatch. The classifiers never
// return a type whose kernel is degenerate for the input: a zero-length edge
// gives a vertex type, a (nearly) zero-area triangle or (nearly) parallel
// edges give an edge or vertex type (rules in distance.c). The dispatched
// functions evaluate the sub-kernel of `type` embedded in the full layout;
// any type may be forced (e.g. to keep one type fixed along a line search).
// The classifiers are named *_type_of (ipc-toolkit: *_distance_type) because
// C puts typedef and function names in one namespace with the enum types.

/// Closest feature of segment [e0, e1] to p.
ipcc_point_edge_distance_type ipcc_point_edge_distance_type_of(const double p[3], const double e0[3],
                                                               const double e1[3]);
/// Squared point-segment distance for the given closest-feature type.
double ipcc_point_edge_distance(const double p[3], const double e0[3], const double e1[3],
                                ipcc_point_edge_distance_type type);
/// Gradient wrt [p, e0, e1] (9) for the given type.
void ipcc_point_edge_distance_gradient(const double p[3], const double e0[3], const double e1[3],
                                       ipcc_point_edge_distance_type type, double g[9]);
/// Hessian wrt [p, e0, e1] (9x9) for the given type.
void ipcc_point_edge_distance_hessian(const double p[3], const double e0[3], const double e1[3],
                                      ipcc_point_edge_distance_type type, double H[81]);

/// Closest feature of triangle (t0, t1, t2) to p.
ipcc_point_triangle_distance_type ipcc_point_triangle_distance_type_of(const double p[3], const double t0[3],
                                                                       const double t1[3],
                                                                       const double t2[3]);
/// Squared point-triangle distance for the given closest-feature type.
double ipcc_point_triangle_distance(const double p[3], const double t0[3], const double t1[3],
                                    const double t2[3], ipcc_point_triangle_distance_type type);
/// Gradient wrt [p, t0, t1, t2] (12) for the given type.
void ipcc_point_triangle_distance_gradient(const double p[3], const double t0[3], const double t1[3],
                                           const double t2[3], ipcc_point_triangle_distance_type type,
                                           double g[12]);
/// Hessian wrt [p, t0, t1, t2] (12x12) for the given type.
void ipcc_point_triangle_distance_hessian(const double p[3], const double t0[3], const double t1[3],
                                          const double t2[3], ipcc_point_triangle_distance_type type,
                                          double H[144]);

/// Closest features of segments [ea0, ea1] and [eb0, eb1].
ipcc_edge_edge_distance_type ipcc_edge_edge_distance_type_of(const double ea0[3], const double ea1[3],
                                                             const double eb0[3], const double eb1[3]);
/// Squared segment-segment distance for the given closest-feature type.
double ipcc_edge_edge_distance(const double ea0[3], const double ea1[3], const double eb0[3],
                               const double eb1[3], ipcc_edge_edge_distance_type type);
/// Gradient wrt [ea0, ea1, eb0, eb1] (12) for the given type.
void ipcc_edge_edge_distance_gradient(const double ea0[3], const double ea1[3], const double eb0[3],
                                      const double eb1[3], ipcc_edge_edge_distance_type type, double g[12]);
/// Hessian wrt [ea0, ea1, eb0, eb1] (12x12) for the given type.
void ipcc_edge_edge_distance_hessian(const double ea0[3], const double ea1[3], const double eb0[3],
                                     const double eb1[3], ipcc_edge_edge_distance_type type, double H[144]);

#endif
