/// Scene-level invariants shared by the physics tests.
#ifndef IPCC_TEST_WORLD_CHECKS_H
#define IPCC_TEST_WORLD_CHECKS_H

#include "ipcc/ipcc.h"

/// Smallest signed tet volume (x6) over the world, relative to the rest volume.
double ipcc_test_min_volume_ratio(const ipcc_world *w);
/// Fail unless every tet of the world has positive volume.
void ipcc_test_assert_no_inversion(const ipcc_world *w);
/// Total linear momentum (kg m/s).
void ipcc_test_momentum(const ipcc_world *w, double p[3]);
/// The deformable bodies' mass-weighted mean velocity (momentum / mass).
void ipcc_test_mean_velocity(const ipcc_world *w, double v[3]);
/// Kinetic energy 1/2 sum m |v|^2 (J).
double ipcc_test_kinetic_energy(const ipcc_world *w);
/// Two Dirichlet conditions twisting a bar about x: the min-x face (normalized
/// x <= 0.01) turns at +omega and the max-x face (x >= 0.99) at -omega rad/s,
/// until `end`. Callers may add linear velocities afterwards.
void ipcc_test_twist_ends(double omega, double end, ipcc_dirichlet_def bc[2]);
/// Signed volume of tet t of a mesh (positive when correctly oriented).
double ipcc_test_tet_volume(const ipcc_mesh *m, int t);
/// Total volume of a mesh; fails the test if any tet is not positive.
double ipcc_test_mesh_volume(const ipcc_mesh *m);
/// Fail unless the world is intersection-free, decided exactly
/// (exact_intersection.h): no two deformable surface triangles that share no
/// vertex intersect, no deformable triangle touches an obstacle triangle,
/// and every deformable vertex is strictly on the free side of every
/// half-space. `label` (e.g. "frame 12") is printed on failure.
void ipcc_test_assert_intersection_free(const ipcc_world *w, const char *label);
/// The world of a JSON scene given as text (mesh paths relative to
/// base_dir); fails the test, naming the scene's error, if it does not load.
ipcc_world *ipcc_test_world_from_json(const char *text, const char *base_dir);
/// ipcc_scene_parse of `quoted`, JSON written with single quotes for double
/// quotes (so that scenes in C string literals stay readable), as the file
/// "scene.json" with mesh paths relative to base_dir (may be NULL).
ipcc_status ipcc_test_scene_parse_quoted(const char *quoted, const char *base_dir, ipcc_scene **out);
/// A new world of `def` with box mesh a as body "lower" and b as body
/// "upper", translated by t and turned by rotation_y degrees about the
/// vertical; the meshes are destroyed. Not started.
ipcc_world *ipcc_test_two_boxes(const ipcc_world_def *def, ipcc_mesh *a, ipcc_mesh *b, const double t[3],
                                double rotation_y);
/// A new world of `def` with two soft boxes: "lower" (0.2 m, 2 x 2 x 2
/// cells, its corner at the origin) and "upper" (0.12 m) `gap` metres above
/// it, turned 20 degrees about y with its grid offset, so that vertices meet
/// faces, edges and vertices. Not started.
ipcc_world *ipcc_test_two_cubes(const ipcc_world_def *def, double gap);
/// Box body def with a world-owned-lifetime mesh; the mesh must be destroyed by the caller.
ipcc_mesh *ipcc_test_box_mesh(int nx, int ny, int nz, double lx, double ly, double lz);

#endif
