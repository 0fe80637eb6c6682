// Height-field terrain: z = h(x, y) over a regular grid, free space above.
//
// Interpolation. The samples f_rc sit at x_c = x0 + c dx, y_r = y0 + r dy
// (x0, y0 put the local origin at the grid's middle). Each cell is a
// bicubic Hermite patch in u = (x - x_c) / dx, v = (y - y_r) / dy in [0, 1]
// that matches, at its four corners, f and the finite-difference estimates
// f_u, f_v, f_uv (central differences inside, one-sided at the border, and
// f_uv the u-difference of the f_v estimates): the classic bicubic
// interpolation of Press et al., Numerical Recipes (3rd ed., 2007), Sec.
// 3.6.3, with derivatives from finite differences as in Simbody's
// SmoothHeightMap. Neighbouring patches share value and first derivatives
// along their common edge, so h is C^1. Cubic Hermite interpolation
// reproduces cubics, and the differences are exact for a linear function,
// so samples of a x + b y + c give exactly that plane (up to rounding).
// Beyond the rectangle the surface continues as h(clamp x, clamp y): each
// border curve is extruded outwards, and each corner height is a flat
// quadrant. Where the border slope is not 0 that continuation meets the
// patches at a crease (C^0).
//
// Each patch is kept in the power basis (16 coefficients, for evaluation)
// and bounded through its Bernstein coefficients: with corner data f, f_u,
// f_v, f_uv and s = +1 at u = 0 (-1 at u = 1), likewise t for v, the
// control points next to a corner are f, f + s f_u / 3, f + t f_v / 3 and
// f + s f_u / 3 + t f_v / 3 + s t f_uv / 9 (the Bezier form of a Hermite
// cubic). The patch lies in the convex hull of its control points, and its
// derivatives in that of the differenced control points (3 Delta b for h_u,
// 6 Delta^2 b for h_uu, 9 Delta_u Delta_v b for h_uv): per cell this gives
// the height range, bounds on |grad h| and on the eigenvalues of Hess h.
//
// Distance. The vertical point (q_x, q_y, h) is on the surface at distance
// D = |q_z - h(q_x, q_y)|, so the closest point lies within horizontal
// distance D of (q_x, q_y). Candidate pieces: the cells that overlap that
// disc's square, and, when q lies beyond the rectangle on one side, the
// extruded strip on that side (the distance to it is that from q moved onto
// the border line to the border curve; the flat quadrants are covered by
// the vertical point and the strips' ends). Each piece is searched by
// branch and bound over sub-rectangles: a sub-rectangle's height range is
// h(middle) +- the gradient bound times its half-sides (within the cell's
// Bernstein range); it is dropped when the distance from q to its box is no
// less than the best so far. When the squared distance F(x, y) = |q - (x,
// y, h(x, y))|^2 is provably convex over it (Hess F / 2 = I + grad h grad
// h^T + (h - q_z) Hess h, positive definite when the curvature bounds times
// the height gap stay below 1) a projected Newton method with backtracking
// finds its minimum over the sub-rectangle; else it is split in four (at
// most SUBDIVISIONS times; the last level runs Newton anyway). Near the
// surface, where contact queries are, a cell is convex at once and one
// Newton solve of ~3 iterations decides it. No allocation.
//
// Hessian of phi^2 (for the barrier, as shape.c): 2 (n n^T + phi K), K the
// Hessian of phi. Closest point on a smooth piece: K = T [phi S (I + phi
// S)^-1] T^T / phi as for the ellipsoid, S the shape operator in a tangent
// basis T; for the graph surface with E = [e_x e_y], e_x = (1, 0, h_x), e_y =
// (0, 1, h_y), first fundamental form G = E^T E and second fundamental
// form Hess h / sqrt(1 + |grad h|^2) (upward normal), S = -T^T E G^-1 II
// G^-1 E^T T (positive on a convex solid: a hilltop). On a crease (a border
// curve r(s) with unit tangent t and curvature vector kappa): phi K = I - n
// n^T - t t^T / (1 - phi n . kappa), from the closest point's Jacobian t t^T
// / (1 - (q - c) . kappa) (the cylinder's rim in shape.c is the circle case).
// At a corner of the rectangle: phi K = I - n n^T.
#include "shape/height_field.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base/core.h"
#include "base/vec3.h"

#define SUBDIVISIONS 7
#define NEWTON_ITERATIONS 60

typedef struct cell_bound {
    double lo, hi;         // height range
    double gx, gy;         // bounds of |h_x|, |h_y|
    double lam_lo, lam_hi; // bounds of the eigenvalues of Hess h (x, y units)
} cell_bound;

struct ipcc_height_field {
    int rows, cols;
    double dx, dy, x0, y0, x1, y1; // spacing, rectangle [x0, x1] x [y0, y1]
    double zlo, zhi;
    double *heights;   // rows x cols
    double *coef;      // 16 per cell: a[4 i + j] u^i v^j
    cell_bound *bound; // per cell
};

const char *ipcc_height_field_check(int rows, int cols, const double *heights, const double spacing[2],
                                    int *row, int *col) {
    *row = *col = -1;
    if (rows < 4 || cols < 4) return "needs at least 4 x 4 samples";
    if (!(spacing[0] > 0) || !(spacing[1] > 0) || !isfinite(spacing[0]) || !isfinite(spacing[1]))
        return "spacing must be > 0 and finite";
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            if (!isfinite(heights[(size_t)r * cols + c])) {
                *row = r, *col = c;
                return "height is not finite";
            }
    return NULL;
}

// Finite-difference derivative of samples s[k * stride], k = 0..n-1, at k
// (index units): central inside, one-sided at the ends.
static double fd(const double *s, int stride, int n, int k) {
    if (k == 0) return s[stride] - s[0];
    if (k == n - 1) return s[(size_t)k * stride] - s[(size_t)(k - 1) * stride];
    return 0.5 * (s[(size_t)(k + 1) * stride] - s[(size_t)(k - 1) * stride]);
}

// Bernstein control points b[k][l] (k along u) of cell (i, j) from the
// sample data f, f_u, f_v, f_uv (index units).
static void cell_bernstein(const ipcc_height_field *hf, const double *fu, const double *fv, const double *fuv,
                           int i, int j, double b[4][4]) {
    for (int a = 0; a < 2; ++a)
        for (int e = 0; e < 2; ++e) {
            size_t s = (size_t)(j + e) * hf->cols + (size_t)(i + a);
            int K = 3 * a, L = 3 * e, su = a ? -1 : 1, sv = e ? -1 : 1;
            double f = hf->heights[s];
            b[K][L] = f;
            b[K + su][L] = f + su * fu[s] / 3;
            b[K][L + sv] = f + sv * fv[s] / 3;
            b[K + su][L + sv] = f + su * fu[s] / 3 + sv * fv[s] / 3 + su * sv * fuv[s] / 9;
        }
}

static void minmax(double v, double *lo, double *hi) {
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

// Power basis a = M b M^T (M: Bernstein to monomials, cubic) and bounds.
static void cell_setup(ipcc_height_field *hf, double b[4][4], double *a, cell_bound *cb) {
    static const double M[4][4] = {{1, 0, 0, 0}, {-3, 3, 0, 0}, {3, -6, 3, 0}, {-1, 3, -3, 1}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            double s = 0;
            for (int k = 0; k < 4; ++k)
                for (int l = 0; l < 4; ++l)
                    s += M[i][k] * b[k][l] * M[j][l];
            a[4 * i + j] = s;
        }
    double lo = INFINITY, hi = -INFINITY, gu = 0, gv = 0;
    double uu_lo = INFINITY, uu_hi = -INFINITY, vv_lo = INFINITY, vv_hi = -INFINITY, uv = 0;
    for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 4; ++l) {
            minmax(b[k][l], &lo, &hi);
            if (k < 3) gu = fmax(gu, fabs(3 * (b[k + 1][l] - b[k][l])));
            if (l < 3) gv = fmax(gv, fabs(3 * (b[k][l + 1] - b[k][l])));
            if (k < 2) minmax(6 * (b[k + 2][l] - 2 * b[k + 1][l] + b[k][l]), &uu_lo, &uu_hi);
            if (l < 2) minmax(6 * (b[k][l + 2] - 2 * b[k][l + 1] + b[k][l]), &vv_lo, &vv_hi);
            if (k < 3 && l < 3)
                uv = fmax(uv, fabs(9 * (b[k + 1][l + 1] - b[k + 1][l] - b[k][l + 1] + b[k][l])));
        }
    double dx = hf->dx, dy = hf->dy, xy = uv / (dx * dy);
    cb->lo = lo, cb->hi = hi;
    cb->gx = gu / dx, cb->gy = gv / dy;
    // Gershgorin over the bounds of h_xx, h_yy and |h_xy|.
    cb->lam_lo = fmin(uu_lo / (dx * dx), vv_lo / (dy * dy)) - xy;
    cb->lam_hi = fmax(uu_hi / (dx * dx), vv_hi / (dy * dy)) + xy;
}

ipcc_status ipcc_height_field_create(int rows, int cols, const double *heights, const double spacing[2],
                                     ipcc_height_field **out) {
    *out = NULL;
    int r0, c0;
    const char *why = ipcc_height_field_check(rows, cols, heights, spacing, &r0, &c0);
    if (why && r0 >= 0)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "height field: %s (row %d, column %d)", why, r0, c0);
    if (why) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "height field: %s", why);
    size_t n = (size_t)rows * cols, nc = (size_t)(rows - 1) * (cols - 1);
    ipcc_height_field *hf = calloc(1, sizeof *hf);
    double *fu = malloc(sizeof(double) * 3 * n);
    if (hf) {
        hf->heights = malloc(sizeof(double) * n);
        hf->coef = malloc(sizeof(double) * 16 * nc);
        hf->bound = malloc(sizeof *hf->bound * nc);
    }
    if (!hf || !fu || !hf->heights || !hf->coef || !hf->bound) {
        free(fu);
        ipcc_height_field_destroy(hf);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "height field: out of memory (%d x %d samples)", rows, cols);
    }
    memcpy(hf->heights, heights, sizeof(double) * n);
    hf->rows = rows, hf->cols = cols;
    hf->dx = spacing[0], hf->dy = spacing[1];
    hf->x0 = -0.5 * (cols - 1) * hf->dx, hf->y0 = -0.5 * (rows - 1) * hf->dy;
    hf->x1 = -hf->x0, hf->y1 = -hf->y0;
    double *fv = fu + n, *fuv = fv + n;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            fu[(size_t)r * cols + c] = fd(hf->heights + (size_t)r * cols, 1, cols, c);
            fv[(size_t)r * cols + c] = fd(hf->heights + c, cols, rows, r);
        }
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            fuv[(size_t)r * cols + c] = fd(fv + (size_t)r * cols, 1, cols, c);
    hf->zlo = INFINITY, hf->zhi = -INFINITY;
    for (int j = 0; j < rows - 1; ++j)
        for (int i = 0; i < cols - 1; ++i) {
            size_t k = (size_t)j * (cols - 1) + i;
            double b[4][4];
            cell_bernstein(hf, fu, fv, fuv, i, j, b);
            cell_setup(hf, b, hf->coef + 16 * k, &hf->bound[k]);
            hf->zlo = fmin(hf->zlo, hf->bound[k].lo);
            hf->zhi = fmax(hf->zhi, hf->bound[k].hi);
        }
    free(fu);
    *out = hf;
    return IPCC_OK;
}

void ipcc_height_field_destroy(ipcc_height_field *hf) {
    if (!hf) return;
    free(hf->heights);
    free(hf->coef);
    free(hf->bound);
    free(hf);
}

int ipcc_height_field_rows(const ipcc_height_field *hf) { return hf->rows; }
int ipcc_height_field_cols(const ipcc_height_field *hf) { return hf->cols; }
const double *ipcc_height_field_heights(const ipcc_height_field *hf) { return hf->heights; }
void ipcc_height_field_spacing(const ipcc_height_field *hf, double spacing[2]) {
    spacing[0] = hf->dx, spacing[1] = hf->dy;
}

void ipcc_height_field_bounds(const ipcc_height_field *hf, double lo[3], double hi[3]) {
    lo[0] = hf->x0, lo[1] = hf->y0, lo[2] = hf->zlo;
    hi[0] = hf->x1, hi[1] = hf->y1, hi[2] = hf->zhi;
}

// ---------------------------------------------------------------- evaluation

static int cell_x(const ipcc_height_field *hf, double x) {
    double t = floor((x - hf->x0) / hf->dx);
    return t < 0 ? 0 : t > hf->cols - 2 ? hf->cols - 2 : (int)t;
}
static int cell_y(const ipcc_height_field *hf, double y) {
    double t = floor((y - hf->y0) / hf->dy);
    return t < 0 ? 0 : t > hf->rows - 2 ? hf->rows - 2 : (int)t;
}

// The patch of cell (i, j) at (x, y): h, (h_x, h_y), (h_xx, h_xy, h_yy).
static double patch(const ipcc_height_field *hf, int i, int j, double x, double y, double g[2], double H[3]) {
    const double *a = hf->coef + 16 * ((size_t)j * (hf->cols - 1) + i);
    double u = (x - (hf->x0 + i * hf->dx)) / hf->dx, v = (y - (hf->y0 + j * hf->dy)) / hf->dy;
    double pu[4] = {1, u, u * u, u * u * u}, du[4] = {0, 1, 2 * u, 3 * u * u}, ddu[4] = {0, 0, 2, 6 * u};
    double pv[4] = {1, v, v * v, v * v * v}, dv[4] = {0, 1, 2 * v, 3 * v * v}, ddv[4] = {0, 0, 2, 6 * v};
    double h = 0, hu = 0, hv = 0, huu = 0, huv = 0, hvv = 0;
    for (int k = 0; k < 4; ++k) {
        double A = 0, Av = 0, Avv = 0;
        for (int l = 0; l < 4; ++l) {
            A += a[4 * k + l] * pv[l];
            Av += a[4 * k + l] * dv[l];
            Avv += a[4 * k + l] * ddv[l];
        }
        h += pu[k] * A;
        hu += du[k] * A;
        huu += ddu[k] * A;
        hv += pu[k] * Av;
        huv += du[k] * Av;
        hvv += pu[k] * Avv;
    }
    if (g) g[0] = hu / hf->dx, g[1] = hv / hf->dy;
    if (H) H[0] = huu / (hf->dx * hf->dx), H[1] = huv / (hf->dx * hf->dy), H[2] = hvv / (hf->dy * hf->dy);
    return h;
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

double ipcc_height_field_height(const ipcc_height_field *hf, double x, double y, double g[2], double H[3]) {
    double cx = clampd(x, hf->x0, hf->x1), cy = clampd(y, hf->y0, hf->y1);
    double h = patch(hf, cell_x(hf, cx), cell_y(hf, cy), cx, cy, g, H);
    bool ex = cx != x, ey = cy != y; // continued beyond: flat along that axis
    if (g && ex) g[0] = 0;
    if (g && ey) g[1] = 0;
    if (H && ex) H[0] = H[1] = 0;
    if (H && ey) H[1] = H[2] = 0;
    return h;
}

double ipcc_height_field_least_radius(const ipcc_height_field *hf) {
    double most = 0; // the largest |eigenvalue| of Hess h seen
    for (int j = 0; j < hf->rows - 1; ++j)
        for (int i = 0; i < hf->cols - 1; ++i)
            for (int a = 0; a <= 2; ++a)
                for (int b = 0; b <= 2; ++b) {
                    double x = hf->x0 + (i + 0.5 * a) * hf->dx, y = hf->y0 + (j + 0.5 * b) * hf->dy, H[3];
                    patch(hf, i, j, x, y, NULL, H);
                    double mean = 0.5 * (H[0] + H[2]), r = hypot(0.5 * (H[0] - H[2]), H[1]);
                    most = fmax(most, fabs(mean) + r);
                }
    return most > 0 ? 1 / most : 0;
}

// ------------------------------------------------------------------ distance

// The best candidate: squared distance, the point (x, y) of the rectangle
// whose height it has, the axes along which the closest point lies beyond
// the rectangle (on a strip or quadrant), the closest point itself.
typedef struct hit {
    double d2, p[2], c[3];
    bool ext[2];
} hit;

// A piece to search: cell (i, j) over [xa, xb] x [ya, yb] (xa == xb: the
// border curve x = xa, likewise y), against the query q (moved onto the
// border line for a strip), with ext the strip's extruded axis.
typedef struct piece {
    int i, j;
    const double *q;
    bool ext[2];
    double qx_true, qy_true; // the real q's horizontal position (for the closest point on a strip)
} piece;

static double sq(double v) { return v * v; }

// Minimum of F(x, y) = |q - (x, y, h)|^2 over [xa, xb] x [ya, yb] by projected
// Newton with backtracking (convex there, or the deepest level of the
// search). Returns F and the minimiser p.
static double newton(const ipcc_height_field *hf, const piece *pc, const double r[4], double p[2]) {
    const double *q = pc->q;
    double xa = r[0], xb = r[1], ya = r[2], yb = r[3];
    p[0] = clampd(q[0], xa, xb), p[1] = clampd(q[1], ya, yb);
    double g2[2], H3[3], h = patch(hf, pc->i, pc->j, p[0], p[1], g2, H3);
    double F = sq(p[0] - q[0]) + sq(p[1] - q[1]) + sq(h - q[2]);
    double tiny = 1e-15 * (hf->dx + hf->dy + fabs(p[0]) + fabs(p[1]));
    for (int it = 0; it < NEWTON_ITERATIONS; ++it) {
        double rz = h - q[2], hx = g2[0], hy = g2[1];
        double g0 = (p[0] - q[0]) + rz * hx, g1 = (p[1] - q[1]) + rz * hy;
        double A00 = 1 + hx * hx + rz * H3[0], A01 = hx * hy + rz * H3[1], A11 = 1 + hy * hy + rz * H3[2];
        bool f0 = xa < xb && !(p[0] <= xa && g0 > 0) && !(p[0] >= xb && g0 < 0);
        bool f1 = ya < yb && !(p[1] <= ya && g1 > 0) && !(p[1] >= yb && g1 < 0);
        if (!f0 && !f1) break;
        double s0 = 0, s1 = 0;
        double det = A00 * A11 - A01 * A01;
        double fallback = 1 + hx * hx + hy * hy + fabs(rz) * (fabs(H3[0]) + fabs(H3[1]) + fabs(H3[2]));
        if (f0 && f1) {
            if (A00 > 0 && det > 0) {
                s0 = -(A11 * g0 - A01 * g1) / det;
                s1 = -(A00 * g1 - A01 * g0) / det;
            } else {
                s0 = -g0 / fallback, s1 = -g1 / fallback;
            }
        } else if (f0) {
            s0 = -g0 / (A00 > 0 ? A00 : fallback);
        } else {
            s1 = -g1 / (A11 > 0 ? A11 : fallback);
        }
        // Backtracking on F while the step is large; a small step is taken as
        // is: there F changes below its rounding, while Newton still gains
        // digits of p (which the normal (q - c) / d needs to the last bit).
        bool small = fabs(s0) + fabs(s1) <= 1e-6 * (hf->dx + hf->dy);
        double t = 1, pn[2], hn = 0, gn[2], Hn[3], Fn = INFINITY;
        for (int ls = 0; ls < 40; ++ls, t *= 0.5) {
            pn[0] = clampd(p[0] + t * s0, xa, xb), pn[1] = clampd(p[1] + t * s1, ya, yb);
            hn = patch(hf, pc->i, pc->j, pn[0], pn[1], gn, Hn);
            Fn = sq(pn[0] - q[0]) + sq(pn[1] - q[1]) + sq(hn - q[2]);
            if (Fn <= F || small) break;
        }
        if (!(Fn <= F) && !small) break;
        double moved = fabs(pn[0] - p[0]) + fabs(pn[1] - p[1]);
        p[0] = pn[0], p[1] = pn[1], h = hn, F = Fn;
        memcpy(g2, gn, sizeof g2);
        memcpy(H3, Hn, sizeof H3);
        if (moved <= tiny) break;
    }
    return F;
}

// Offer the minimiser p (F its squared distance to pc->q) of a piece.
static void offer(const ipcc_height_field *hf, const piece *pc, double F, const double p[2], hit *best) {
    if (!(F < best->d2)) return;
    best->d2 = F;
    best->p[0] = p[0], best->p[1] = p[1];
    best->ext[0] = pc->ext[0], best->ext[1] = pc->ext[1];
    best->c[0] = pc->ext[0] ? pc->qx_true : p[0];
    best->c[1] = pc->ext[1] ? pc->qy_true : p[1];
    best->c[2] = patch(hf, pc->i, pc->j, p[0], p[1], NULL, NULL);
}

// Branch and bound over a piece (preamble).
static void search_piece(const ipcc_height_field *hf, const piece *pc, double xa, double xb, double ya,
                         double yb, hit *best) {
    const cell_bound *cb = &hf->bound[(size_t)pc->j * (hf->cols - 1) + pc->i];
    const double *q = pc->q;
    double stack[4 * (3 * SUBDIVISIONS + 2)];
    int depth[3 * SUBDIVISIONS + 2], top = 0;
    stack[0] = xa, stack[1] = xb, stack[2] = ya, stack[3] = yb, depth[0] = 0, top = 1;
    while (top > 0) {
        --top;
        double r[4];
        memcpy(r, stack + 4 * top, sizeof r);
        int dep = depth[top];
        double hx = 0.5 * (r[1] - r[0]), hy = 0.5 * (r[3] - r[2]);
        double zm = patch(hf, pc->i, pc->j, r[0] + hx, r[2] + hy, NULL, NULL);
        double rad = cb->gx * hx + cb->gy * hy;
        double zlo = fmax(cb->lo, zm - rad), zhi = fmin(cb->hi, zm + rad);
        double ex = fmax(0, fmax(r[0] - q[0], q[0] - r[1])), ey = fmax(0, fmax(r[2] - q[1], q[1] - r[3])),
               ez = fmax(0, fmax(zlo - q[2], q[2] - zhi));
        if (ex * ex + ey * ey + ez * ez >= best->d2) continue;
        // Convex when 1 + (h - q_z) lambda > 0 for every eigenvalue lambda of Hess h (margin 0.1).
        double above = fmax(q[2] - zlo, 0), below = fmax(zhi - q[2], 0);
        bool convex = 1 - above * fmax(cb->lam_hi, 0) > 0.1 && 1 + below * fmin(cb->lam_lo, 0) > 0.1;
        if (convex || dep >= SUBDIVISIONS) {
            double p[2], F = newton(hf, pc, r, p);
            offer(hf, pc, F, p, best);
            continue;
        }
        double xm = r[0] + hx, ym = r[2] + hy;
        for (int a = 0; a < (r[0] < r[1] ? 2 : 1); ++a)
            for (int b = 0; b < (r[2] < r[3] ? 2 : 1); ++b) {
                double *s = stack + 4 * top;
                s[0] = r[0] < r[1] ? (a ? xm : r[0]) : r[0];
                s[1] = r[0] < r[1] ? (a ? r[1] : xm) : r[1];
                s[2] = r[2] < r[3] ? (b ? ym : r[2]) : r[2];
                s[3] = r[2] < r[3] ? (b ? r[3] : ym) : r[3];
                depth[top++] = dep + 1;
            }
    }
}

// The closest point of the surface to the local point q (finite).
static void closest(const ipcc_height_field *hf, const double q[3], hit *best) {
    double cx = clampd(q[0], hf->x0, hf->x1), cy = clampd(q[1], hf->y0, hf->y1);
    bool bx = cx != q[0], by = cy != q[1];
    int i0 = cell_x(hf, cx), j0 = cell_y(hf, cy);
    double h = patch(hf, i0, j0, cx, cy, NULL, NULL);
    // The vertical point: on the surface, and the closest one on a quadrant.
    *best = (hit){.d2 = sq(q[2] - h), .p = {cx, cy}, .c = {q[0], q[1], h}, .ext = {bx, by}};
    if (best->d2 == 0) return;
    double D = sqrt(best->d2);
    int ia = cell_x(hf, q[0] - D), ib = cell_x(hf, q[0] + D), ja = cell_y(hf, q[1] - D),
        jb = cell_y(hf, q[1] + D);
    bool any_x = q[0] + D >= hf->x0 && q[0] - D <= hf->x1, any_y = q[1] + D >= hf->y0 && q[1] - D <= hf->y1;
    // The home cell first: its bound prunes most others.
    piece pc = {.i = i0, .j = j0, .q = q, .qx_true = q[0], .qy_true = q[1]};
    double xa = hf->x0 + i0 * hf->dx, ya = hf->y0 + j0 * hf->dy;
    search_piece(hf, &pc, xa, xa + hf->dx, ya, ya + hf->dy, best);
    if (any_x && any_y)
        for (int j = ja; j <= jb; ++j)
            for (int i = ia; i <= ib; ++i) {
                if (i == i0 && j == j0) continue;
                pc.i = i, pc.j = j;
                xa = hf->x0 + i * hf->dx, ya = hf->y0 + j * hf->dy;
                search_piece(hf, &pc, xa, xa + hf->dx, ya, ya + hf->dy, best);
            }
    // Strips: q beyond the rectangle along x (or y) is nearest the extruded
    // strip on that side at a point with the same x (y): the distance to it
    // is that from q moved onto the border line to the border curve. The
    // quadrant beyond two sides is flat: the vertical point is its closest.
    if (bx) {
        double qq[3] = {cx, q[1], q[2]};
        piece ps = {.i = i0, .q = qq, .ext = {true, false}, .qx_true = q[0], .qy_true = q[1]};
        for (int j = ja; j <= jb && any_y; ++j) {
            ps.j = j;
            double y = hf->y0 + j * hf->dy;
            search_piece(hf, &ps, cx, cx, y, y + hf->dy, best);
        }
    }
    if (by) {
        double qq[3] = {q[0], cy, q[2]};
        piece ps = {.j = j0, .q = qq, .ext = {false, true}, .qx_true = q[0], .qy_true = q[1]};
        for (int i = ia; i <= ib && any_x; ++i) {
            ps.i = i;
            double x = hf->x0 + i * hf->dx;
            search_piece(hf, &ps, x, x + hf->dx, cy, cy, best);
        }
    }
}

// Upward unit normal of the piece of `b` at its point (the extruded axes flat).
static void piece_normal(const ipcc_height_field *hf, const hit *b, double g[2], double H[3], double n[3]) {
    patch(hf, cell_x(hf, b->p[0]), cell_y(hf, b->p[1]), b->p[0], b->p[1], g, H);
    if (b->ext[0]) g[0] = 0, H[0] = H[1] = 0;
    if (b->ext[1]) g[1] = 0, H[1] = H[2] = 0;
    double w = sqrt(1 + g[0] * g[0] + g[1] * g[1]);
    n[0] = -g[0] / w, n[1] = -g[1] / w, n[2] = 1 / w;
}

// Signed distance of a finite q; *b the closest feature, n the normal.
static double distance_hit(const ipcc_height_field *hf, const double q[3], hit *b, double n[3]) {
    closest(hf, q, b);
    double d = sqrt(b->d2);
    double above = q[2] - ipcc_height_field_height(hf, q[0], q[1], NULL, NULL);
    if (above < 0) d = -d;
    double g[2], H[3];
    if (fabs(d) > 1e-9 * (hf->dx + hf->dy)) {
        for (int k = 0; k < 3; ++k)
            n[k] = (q[k] - b->c[k]) / d;
    } else {
        piece_normal(hf, b, g, H, n);
    }
    return d;
}

double ipcc_height_field_distance(const ipcc_height_field *hf, const double q[3], double c[3], double n[3]) {
    if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) {
        double d = NAN;
        if (!isnan(q[0]) && !isnan(q[1]))
            d = q[2] - ipcc_height_field_height(hf, clampd(q[0], hf->x0, hf->x1),
                                                clampd(q[1], hf->y0, hf->y1), NULL, NULL);
        for (int k = 0; k < 3; ++k) {
            if (c) c[k] = NAN;
            if (n) n[k] = NAN;
        }
        return d;
    }
    hit b;
    double nn[3], d = distance_hit(hf, q, &b, nn);
    if (c) memcpy(c, b.c, sizeof b.c);
    if (n) memcpy(n, nn, sizeof nn);
    return d;
}

// A surface point within r of q lies over the square [q_x +- r] x [q_y +-
// r] (clamped into the rectangle: the continuation repeats the border's
// heights) at a height in [q_z - r, q_z + r]: if every cell over the square
// lies below q_z - r, phi >= r and r is returned without a search.
double ipcc_height_field_distance_bounded(const ipcc_height_field *hf, const double q[3], double r) {
    if (r > 0 && isfinite(r) && isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2])) {
        int i0 = cell_x(hf, clampd(q[0] - r, hf->x0, hf->x1)),
            i1 = cell_x(hf, clampd(q[0] + r, hf->x0, hf->x1));
        int j0 = cell_y(hf, clampd(q[1] - r, hf->y0, hf->y1)),
            j1 = cell_y(hf, clampd(q[1] + r, hf->y0, hf->y1));
        double top = -INFINITY;
        for (int j = j0; j <= j1 && top < q[2] - r; ++j)
            for (int i = i0; i <= i1; ++i)
                top = fmax(top, hf->bound[(size_t)j * (hf->cols - 1) + i].hi);
        if (top < q[2] - r) return r;
    }
    return ipcc_height_field_distance(hf, q, NULL, NULL);
}

// phi K on a crease r(s) with tangent r1 = r', r2 = r'' (preamble).
static void crease_K(const double n[3], double phi, const double r1[3], const double r2[3], double K[9]) {
    double l2 = dot3(r1, r1), l = sqrt(l2), t[3] = {r1[0] / l, r1[1] / l, r1[2] / l};
    double rt = dot3(r2, t), kappa[3];
    for (int k = 0; k < 3; ++k)
        kappa[k] = (r2[k] - rt * t[k]) / l2;
    double den = 1 - phi * dot3(n, kappa);
    if (den < 1e-12) den = 1e-12;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            K[3 * i + j] = (i == j) - n[i] * n[j] - t[i] * t[j] / den;
}

void ipcc_height_field_distance2_hessian(const ipcc_height_field *hf, const double q[3], double Hout[9]) {
    double K[9] = {0}, n[3] = {0, 0, 1}, phi = 0;
    if (isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2])) {
        hit b;
        phi = fmax(distance_hit(hf, q, &b, n), 0.0);
        double g[2], H[3], ns[3];
        piece_normal(hf, &b, g, H, ns);
        double dn = fabs(n[0] - ns[0]) + fabs(n[1] - ns[1]) + fabs(n[2] - ns[2]);
        // On a border line of the rectangle with the closest point on a patch,
        // or on a strip's edge (the straight continuation of a corner).
        bool cx_b = !b.ext[0] && (b.p[0] == hf->x0 || b.p[0] == hf->x1),
             cy_b = !b.ext[1] && (b.p[1] == hf->y0 || b.p[1] == hf->y1);
        bool sharp = phi > 0 && dn > 1e-6;
        if (sharp && cx_b && cy_b) { // a corner of the rectangle
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    K[3 * i + j] = (i == j) - n[i] * n[j];
        } else if (sharp && (cx_b || cy_b)) { // a crease
            double gr[2], Hr[3];
            patch(hf, cell_x(hf, b.p[0]), cell_y(hf, b.p[1]), b.p[0], b.p[1], gr, Hr);
            if (b.ext[0] || b.ext[1]) { // a straight line beyond the rectangle, along the extruded axis
                double r1[3] = {b.ext[0], b.ext[1], 0}, r2[3] = {0, 0, 0};
                crease_K(n, phi, r1, r2, K);
            } else if (cx_b) { // the border curve x = x0 or x1, along y
                double r1[3] = {0, 1, gr[1]}, r2[3] = {0, 0, Hr[2]};
                crease_K(n, phi, r1, r2, K);
            } else {
                double r1[3] = {1, 0, gr[0]}, r2[3] = {0, 0, Hr[0]};
                crease_K(n, phi, r1, r2, K);
            }
        } else if (phi > 0) { // a smooth piece: T [phi S (I + phi S)^-1] T^T
            double w2 = 1 + g[0] * g[0] + g[1] * g[1], w = sqrt(w2);
            // P = E G^-1 (3x2), G^-1 = I - g g^T / w2.
            double Gi[4] = {1 - g[0] * g[0] / w2, -g[0] * g[1] / w2, -g[0] * g[1] / w2, 1 - g[1] * g[1] / w2};
            double E[6] = {1, 0, 0, 1, g[0], g[1]}, P[6];
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 2; ++j)
                    P[2 * i + j] = E[2 * i] * Gi[j] + E[2 * i + 1] * Gi[2 + j];
            double II[4] = {H[0] / w, H[1] / w, H[1] / w, H[2] / w};
            double T[6];
            tangent_basis3(n, T);
            // PtT = P^T T (2x2), then S = -(PtT)^T II PtT.
            double PT[4];
            for (int a = 0; a < 2; ++a)
                for (int c2 = 0; c2 < 2; ++c2)
                    PT[2 * a + c2] = P[a] * T[3 * c2] + P[2 + a] * T[3 * c2 + 1] + P[4 + a] * T[3 * c2 + 2];
            double S[4];
            for (int a = 0; a < 2; ++a)
                for (int c2 = 0; c2 < 2; ++c2) {
                    double s = 0;
                    for (int k = 0; k < 2; ++k)
                        for (int l = 0; l < 2; ++l)
                            s += PT[2 * k + a] * II[2 * k + l] * PT[2 * l + c2];
                    S[2 * a + c2] = -s;
                }
            double A00 = 1 + phi * S[0], A01 = phi * S[1], A11 = 1 + phi * S[3], det = A00 * A11 - A01 * A01;
            double i00 = A11 / det, i01 = -A01 / det, i11 = A00 / det;
            double m00 = phi * (S[0] * i00 + S[1] * i01), m01 = phi * (S[0] * i01 + S[1] * i11),
                   m11 = phi * (S[1] * i01 + S[3] * i11);
            const double *ta = T, *tb = T + 3;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    K[3 * i + j] =
                        m00 * ta[i] * ta[j] + m01 * (ta[i] * tb[j] + tb[i] * ta[j]) + m11 * tb[i] * tb[j];
        }
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            Hout[3 * i + j] = 2 * (n[i] * n[j] + K[3 * i + j]);
}
