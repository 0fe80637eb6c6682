/// Height-field terrain: a regular grid of heights interpolated by C^1
/// bicubic Hermite patches, z = h(x, y) in a local frame (free space above),
/// with the exact signed distance, closest point, normal and the Hessian of
/// phi^2 (height_field.c). The grid is immutable once built; shapes of kind
/// IPCC_SHAPE_HEIGHT_FIELD point at one (shape.h), the world owns it.
#ifndef IPCC_HEIGHT_FIELD_H
#define IPCC_HEIGHT_FIELD_H

#include "ipcc/base.h"

typedef struct ipcc_height_field ipcc_height_field;

/// Why a grid is refused (NULL if it is fine): fewer than 4 x 4 samples,
/// a non-finite height (its row and column written to *row, *col, else -1),
/// a spacing that is not > 0 and finite.
const char *ipcc_height_field_check(int rows, int cols, const double *heights, const double spacing[2],
                                    int *row, int *col);

/// Build a grid from rows x cols heights, row-major (heights[r * cols + c]
/// is the height at local x = (c - (cols - 1) / 2) dx, y = (r - (rows - 1) /
/// 2) dy: the local origin is the middle of the grid). Copies the heights.
/// IPCC_ERR_INVALID_ARGUMENT (ipcc_height_field_check's reason) or
/// IPCC_ERR_NO_MEMORY; *out is NULL then.
ipcc_status ipcc_height_field_create(int rows, int cols, const double *heights, const double spacing[2],
                                     ipcc_height_field **out);
void ipcc_height_field_destroy(ipcc_height_field *hf); ///< NULL is fine

int ipcc_height_field_rows(const ipcc_height_field *hf);
int ipcc_height_field_cols(const ipcc_height_field *hf);
/// The grid's own copy of the heights (rows x cols, row-major).
const double *ipcc_height_field_heights(const ipcc_height_field *hf);
/// dx, dy in metres.
void ipcc_height_field_spacing(const ipcc_height_field *hf, double spacing[2]);

/// Local box of the surface over the grid's rectangle: x, y the rectangle,
/// z the patches' height range (bounds of their Bernstein coefficients).
void ipcc_height_field_bounds(const ipcc_height_field *hf, double lo[3], double hi[3]);

/// h at (x, y), local, continued beyond the rectangle by h(clamp x, clamp
/// y); its gradient g (may be NULL) and Hessian H = (h_xx, h_xy, h_yy)
/// (may be NULL) of the patch there (0 along a clamped axis).
double ipcc_height_field_height(const ipcc_height_field *hf, double x, double y, double g[2], double H[3]);

/// An estimate of the surface's least radius of curvature: 1 / the largest
/// |eigenvalue| of Hess h at 3 x 3 points of every cell (the curvature of the
/// graph is at most that); 0 for a plane. For the coarse-body warning.
double ipcc_height_field_least_radius(const ipcc_height_field *hf);

/// Exact signed distance from the local point q to the surface (negative
/// below it), the closest point c and the outward unit normal n (either may
/// be NULL). No allocation. A non-finite q gives q_z - h(clamp q_x, clamp
/// q_y) (NaN with NaN input) and c = n = NaN.
double ipcc_height_field_distance(const ipcc_height_field *hf, const double q[3], double c[3], double n[3]);

/// ipcc_height_field_distance when it is below r; else some value >= r
/// (no larger than the distance), found without a search when the cells
/// within r of q all lie below q_z - r (the contact layer's d̂ cull).
double ipcc_height_field_distance_bounded(const ipcc_height_field *hf, const double q[3], double r);

/// Local Hessian (3x3, row-major) of max(phi, 0)^2 at q: 2 (n n^T + phi K),
/// K the Hessian of phi from the closest feature (a patch, a crease along
/// the rectangle's border or its continuation, a corner). See height_field.c.
void ipcc_height_field_distance2_hessian(const ipcc_height_field *hf, const double q[3], double H[9]);

#endif
