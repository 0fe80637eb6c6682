/// Continuous collision detection (CCD) for linear trajectories: the largest
/// step along which two contact primitives provably stay farther apart than a
/// minimum separation. See the preamble of ccd.c for the method (conservative
/// advancement along certified separating planes) and its proof sketch.
///
/// Conventions shared by every function here:
/// - Distances are actual (not squared) Euclidean distances in metres.
/// - Trajectories are linear: x(t) = (1 - t) x_t0 + t x_t1, t in [0, 1].
/// - `min_distance` >= 0 and `tmax` in (0, 1] (checked with IPCC_ASSERT).
/// - Returns true if the primitives may come within `min_distance` (distance
///   <= min_distance) for some t in [0, tmax]. Then *toi is in [0, tmax],
///   *toi <= the earliest such t, and *toi = 0 or the distance is
///   > min_distance for all t in [0, *toi] (a conservative time of impact).
///   Primitives already within min_distance at t = 0 give true with *toi = 0;
///   *toi = 0 is returned only when no step at all could be certified. A true
///   answer can be a false positive: the primitives came within a tolerance
///   of min_distance (see IPCC_CCD_TOLERANCE), the separation fell to the
///   floating-point resolution of the coordinates, or the iteration cap was
///   hit; *toi is conservative in every case.
/// - Returns false only if the distance provably stays > min_distance over all
///   of [0, tmax]; then *toi = tmax.
/// - Non-finite coordinates give true with *toi = 0.
/// - Nothing allocates; the functions are pure and thread safe.
#ifndef IPCC_CCD_H
#define IPCC_CCD_H

#include <stdbool.h>

/// Stopping tolerance: the iteration reports a (possible) contact once the
/// separation above min_distance falls below the larger of this fraction of
/// its value at t = 0 and 1e-12 times the query's length scale (the largest
/// |x_t0| + |x_t1| over coordinates and vertex-pair differences).
#define IPCC_CCD_TOLERANCE 1e-9

/// Iteration cap per query; reaching it returns true with the current
/// (conservative) time.
#define IPCC_CCD_MAX_ITERATIONS 1000

/// Point p against triangle (t0, t1, t2).
bool ipcc_point_triangle_ccd(const double p_t0[3], const double t0_t0[3], const double t1_t0[3],
                             const double t2_t0[3], const double p_t1[3], const double t0_t1[3],
                             const double t1_t1[3], const double t2_t1[3], double min_distance, double tmax,
                             double *toi);

/// Segment a = [ea0, ea1] against segment b = [eb0, eb1].
bool ipcc_edge_edge_ccd(const double ea0_t0[3], const double ea1_t0[3], const double eb0_t0[3],
                        const double eb1_t0[3], const double ea0_t1[3], const double ea1_t1[3],
                        const double eb0_t1[3], const double eb1_t1[3], double min_distance, double tmax,
                        double *toi);

/// Point p against segment [e0, e1].
bool ipcc_point_edge_ccd(const double p_t0[3], const double e0_t0[3], const double e1_t0[3],
                         const double p_t1[3], const double e0_t1[3], const double e1_t1[3],
                         double min_distance, double tmax, double *toi);

/// Point p0 against point p1.
bool ipcc_point_point_ccd(const double p0_t0[3], const double p1_t0[3], const double p0_t1[3],
                          const double p1_t1[3], double min_distance, double tmax, double *toi);

#endif
