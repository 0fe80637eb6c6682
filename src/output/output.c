// Output of a run: one .vtu per frame (the deformable bodies), one .vtp per
// frame when the world has obstacles, a .pvd collection and stats.csv.
//
// The folder is created with its parents (mkdir -p) when the output is
// opened, and proven writable right away by creating and removing a probe
// file, so a bad --output path fails before any simulation time is spent.
//
// Frames are frame_000000.vtu, frame_000001.vtu, ... (see vtk.c for the
// format, its zlib compression and the atomic write). Every .vtu and .vtp is
// compressed through one codec the output keeps (level IPCC_VTK_DEFAULT_LEVEL),
// or written raw after ipcc_output_set_compress(false). Besides positions,
// velocities, displacements and forces, a .vtu holds each vertex's lumped
// mass and each tet's analysis fields (world_fields.c: J, Cauchy stress, von
// Mises stress, energy density) in a buffer that persists and grows.
// A .vtu holds the deformable vertices only,
// [0, ipcc_world_num_deformable_vertices), which come before every obstacle
// vertex, and every tet (tets only reference deformable vertices). When the
// world has a kinematic mesh obstacle or a half-space, obstacles_000000.vtp,
// ... hold, as triangles: the obstacle vertices [num_deformable, num_vertices)
// in their order, each obstacle body's surface re-indexed into that block,
// then per half-space a square of side 2 L (L = ipcc_world_bbox_diagonal, or
// a 1 m square if L is 0) centred at its point and facing along its normal
// (counter-clockwise seen from the free side), drawn as two triangles.
// Codimensional obstacles go in the same .vtp: a segment set's edges as VTK
// lines and every vertex of a point set as a VTK vertex cell (Verts), in
// body order, so ParaView draws them (a point without a cell is invisible).
// Analytic shapes follow the half-spaces: each one's tessellation
// (shape_mesh.c, 48 x 24 segments; viewing only) at its current pose, with
// the velocity of its material points. A cell array `object_id` gives each
// cell's object in the contact report's numbering (contact_report.h:
// bodies, then half-spaces, then shapes, a box's edges with their box;
// VTK's cell order is verts, lines, polys), and the String field data
// `object_names` their names.
//
// With contacts on (ipcc_output_set_contacts), contacts_000000.vtp, ...
// hold the contact report of each frame's state (ipcc_world_contacts): one
// VTK vertex per contact at the midpoint of its closest points, its record
// as point data, the object and kind names as String field data.
//
// After each frame frames.pvd is rewritten, also atomically, listing every
// frame so far with its simulated time, the .vtu as part 0, the obstacles'
// .vtp as part 1 and the contacts' as part 2 of the same time step, so a
// run killed at any point leaves a collection ParaView can open and shows
// bodies and obstacles together. A
// frame counts only once all its files are in place: if any write fails the
// status is returned, the count is unchanged and the next call retries the
// same index (overwriting whatever the failed attempt left).
//
// The world is read through its public accessors (the contact report
// included) and, for the analysis fields, world_fields.h. The displacement
// and tet field buffers, the compression codec, the obstacle surface and
// contact buffers and the report persist and grow; nothing else is
// allocated per frame beyond the list of times and names.
//
// stats.csv, one row per step, is written by output_stats.c; the private
// struct, a file's path in the folder and the objects' names, which both
// use, are in output_state.c.
#include "ipcc/output.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/core.h"
#include "ipcc/contact_report.h"
#include "output/output_state.h"
#include "output/output_stats.h"
#include "output/shape_mesh.h"
#include "output/vtk.h"
#include "world/world_fields.h"
#include "world/world_shapes.h"

/// mkdir -p: create every missing component of `dir`, one prefix at a time.
static ipcc_status output_make_dirs(const char *dir) {
    size_t n = strlen(dir);
    char *prefix = malloc(n + 1);
    if (!prefix) return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory creating '%s'", dir);
    ipcc_status s = IPCC_OK;
    for (size_t i = 1; i <= n && s == IPCC_OK; i++) {
        if (dir[i] != '/' && dir[i] != '\0') continue;
        if (dir[i - 1] == '/') continue; // repeated slashes
        memcpy(prefix, dir, i);
        prefix[i] = '\0';
        if (mkdir(prefix, 0777) == 0) continue;
        int e = errno;
        struct stat st;
        int is_dir = stat(prefix, &st) == 0 && S_ISDIR(st.st_mode);
        if (e == EEXIST && !is_dir)
            s = ipcc_fail(IPCC_ERR_IO, "output: cannot create folder '%s': '%s' exists and is not a folder",
                          dir, prefix);
        else if (e == ENOTDIR)
            s = ipcc_fail(IPCC_ERR_IO,
                          "output: cannot create folder '%s': a component of '%s' is not a folder", dir,
                          prefix);
        else if (!is_dir)
            s = ipcc_fail(IPCC_ERR_IO, "output: cannot create folder '%s': mkdir '%s': %s", dir, prefix,
                          strerror(e));
    }
    free(prefix);
    return s;
}

/// Prove the folder writable by creating and removing a probe file.
static ipcc_status output_probe(ipcc_output *o) {
    char name[OUTPUT_NAME_MAX];
    snprintf(name, sizeof name, ".ipcc_probe_%ld", (long)getpid());
    const char *p = ipcc_output_path(o, name);
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST) { // a leftover from a killed run with our pid
        unlink(p);
        fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0666);
    }
    if (fd < 0)
        return ipcc_fail(IPCC_ERR_IO, "output: folder '%s' is not writable: cannot create '%s': %s", o->dir,
                         p, strerror(errno));
    close(fd);
    unlink(p);
    return IPCC_OK;
}

ipcc_status ipcc_output_create(const char *directory, ipcc_output **out) {
    IPCC_ASSERT(directory && out);
    *out = NULL;
    size_t n = strlen(directory);
    while (n > 1 && directory[n - 1] == '/')
        n--;
    if (n == 0) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "output: the output folder name is empty");
    ipcc_output *o = calloc(1, sizeof *o);
    if (o) o->dir = malloc(n + 1);
    if (o) o->path = malloc(n + 1 + OUTPUT_NAME_MAX);
    if (!o || !o->dir || !o->path) {
        ipcc_output_destroy(o);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory opening '%s'", directory);
    }
    memcpy(o->dir, directory, n);
    o->dir[n] = '\0';
    o->compress_level = IPCC_VTK_DEFAULT_LEVEL;
    if (n == 1 && o->dir[0] == '/') o->dir[0] = '\0'; // "/" + "/name" must not become "//name"
    ipcc_status s = o->dir[0] ? output_make_dirs(o->dir) : IPCC_OK;
    if (s == IPCC_OK) s = output_probe(o);
    if (s != IPCC_OK) {
        ipcc_output_destroy(o);
        return s;
    }
    ipcc_log(IPCC_LOG_INFO, "output: writing to '%s'", directory);
    *out = o;
    return IPCC_OK;
}

/// True if the world has a kinematic mesh obstacle, a half-space or a shape.
static bool output_has_obstacles(const ipcc_world *w) {
    if (ipcc_world_num_half_spaces(w) > 0 || ipcc_world_num_shapes(w) > 0) return true;
    for (int b = 0; b < ipcc_world_num_bodies(w); b++)
        if (ipcc_world_body_is_obstacle(w, b)) return true;
    return false;
}

/// The file names of frame k: its .vtu, its obstacles' .vtp and its contacts' .vtp.
static void output_frame_names(int k, char vtu[OUTPUT_NAME_MAX], char vtp[OUTPUT_NAME_MAX],
                               char contacts[OUTPUT_NAME_MAX]) {
    snprintf(vtu, OUTPUT_NAME_MAX, "frame_%06d.vtu", k);
    snprintf(vtp, OUTPUT_NAME_MAX, "obstacles_%06d.vtp", k);
    snprintf(contacts, OUTPUT_NAME_MAX, "contacts_%06d.vtp", k);
}

/// An analytic shape's current pose as an ipcc_shape.
static void output_shape_pose(const ipcc_world *w, int i, ipcc_shape *s) {
    const ipcc_shape_def *d = ipcc_world_shape_def(w, i);
    s->kind = d->kind;
    memcpy(s->size, d->size, sizeof s->size);
    ipcc_world_shape_pose(w, i, s->center, s->rotation);
    s->field = ipcc_world_shape_field(w, i);
}

/// Make *slot a copy of `name` (NULL: no file). Returns 0, or -1 when out of memory (*slot unchanged).
static int output_set_name(char **slot, const char *name) {
    if (name && *slot && !strcmp(*slot, name)) return 0;
    char *copy = NULL;
    if (name) {
        copy = malloc(strlen(name) + 1);
        if (!copy) return -1;
        strcpy(copy, name);
    }
    free(*slot);
    *slot = copy;
    return 0;
}

/// The four corners of half-space i's square, counter-clockwise seen from the
/// free side: p + h (+-t1 +-t2) with (t1, t2, n) right-handed.
static void output_half_space_quad(const ipcc_world *w, int i, double half, double corners[12]) {
    double p[3], n[3];
    ipcc_world_half_space(w, i, p, n);
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    IPCC_ASSERT(len > 0);
    for (int c = 0; c < 3; c++)
        n[c] /= len;
    // t1 = a x n / |a x n| for the axis a least aligned with n; t2 = n x t1.
    int axis = 0;
    for (int c = 1; c < 3; c++)
        if (fabs(n[c]) < fabs(n[axis])) axis = c;
    double a[3] = {0, 0, 0}, t1[3], t2[3];
    a[axis] = 1;
    t1[0] = a[1] * n[2] - a[2] * n[1];
    t1[1] = a[2] * n[0] - a[0] * n[2];
    t1[2] = a[0] * n[1] - a[1] * n[0];
    len = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int c = 0; c < 3; c++)
        t1[c] /= len;
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
    static const double sign[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int k = 0; k < 4; k++)
        for (int c = 0; c < 3; c++)
            corners[3 * k + c] = p[c] + half * (sign[k][0] * t1[c] + sign[k][1] * t2[c]);
}

/// The lines (segment sets' edges) and vertex cells (point sets' vertices) of
/// the obstacles' .vtp, indexed like its points (obstacle vertex i - nd). An
/// obstacle without faces is a segment set if it has edges, else a point set.
static ipcc_status output_obstacle_codim(ipcc_output *o, const ipcc_world *w, const char *path,
                                         ipcc_vtk_codim *codim) {
    const int nd = ipcc_world_num_deformable_vertices(w), nb = ipcc_world_num_bodies(w);
    memset(codim, 0, sizeof *codim);
    int nl = 0, nverts = 0;
    for (int b = 0; b < nb; b++) {
        int nf, ne, first, count;
        if (!ipcc_world_body_is_obstacle(w, b)) continue;
        ipcc_world_body_surface(w, b, &nf, NULL);
        ipcc_world_body_edges(w, b, &ne, NULL);
        ipcc_world_body_vertices(w, b, &first, &count);
        if (nf > 0) continue;
        nl += ne;
        nverts += ne > 0 ? 0 : count;
    }
    if (ipcc_reserve((void **)&o->obstacle_lines, &o->obstacle_lines_cap, 2 * nl + 1, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&o->obstacle_verts, &o->obstacle_verts_cap, nverts + 1, sizeof(int)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing '%s'", path);
    nl = nverts = 0;
    for (int b = 0; b < nb; b++) {
        int nf, ne, first, count;
        const int *edges;
        if (!ipcc_world_body_is_obstacle(w, b)) continue;
        ipcc_world_body_surface(w, b, &nf, NULL);
        ipcc_world_body_edges(w, b, &ne, &edges);
        ipcc_world_body_vertices(w, b, &first, &count);
        if (nf > 0) continue;
        for (int e = 0; e < 2 * ne; e++)
            o->obstacle_lines[2 * nl + e] = edges[e] - nd;
        nl += ne;
        if (ne == 0)
            for (int i = first; i < first + count; i++)
                o->obstacle_verts[nverts++] = i - nd;
    }
    *codim = (ipcc_vtk_codim){nl, o->obstacle_lines, nverts, o->obstacle_verts};
    return IPCC_OK;
}

/// Write the obstacles' surface (see the preamble) to `path`.
static ipcc_status output_write_obstacles(ipcc_output *o, const ipcc_world *w, const char *path) {
    const int nv = ipcc_world_num_vertices(w), nd = ipcc_world_num_deformable_vertices(w);
    const int nh = ipcc_world_num_half_spaces(w), no = nv - nd, ns = ipcc_world_num_shapes(w);
    const int nb = ipcc_world_num_bodies(w);
    IPCC_ASSERT(nd >= 0 && nd <= nv && nh >= 0);
    int nf = 0, shape_points = 0, shape_triangles = 0;
    for (int b = 0; b < nb; b++) {
        if (!ipcc_world_body_is_obstacle(w, b)) continue;
        int n;
        const int *faces;
        ipcc_world_body_surface(w, b, &n, &faces);
        nf += n;
    }
    for (int i = 0; i < ns; i++) {
        int p, t;
        ipcc_shape pose;
        output_shape_pose(w, i, &pose);
        ipcc_shape_mesh_count(&pose, IPCC_SHAPE_MESH_AROUND, IPCC_SHAPE_MESH_ALONG, &p, &t);
        shape_points += p;
        shape_triangles += t;
    }
    const int np = no + 4 * nh + shape_points, nt = nf + 2 * nh + shape_triangles;
    if (ipcc_reserve((void **)&o->obstacle_points, &o->obstacle_points_cap, 3 * np, sizeof(double)) != 0 ||
        ipcc_reserve((void **)&o->obstacle_velocity, &o->obstacle_velocity_cap, 3 * np, sizeof(double)) !=
            0 ||
        ipcc_reserve((void **)&o->obstacle_triangles, &o->obstacle_triangles_cap, 3 * nt, sizeof(int)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing '%s'", path);
    if (no > 0) {
        memcpy(o->obstacle_points, ipcc_world_positions(w) + 3 * (size_t)nd, 3 * (size_t)no * sizeof(double));
        memcpy(o->obstacle_velocity, ipcc_world_velocities(w) + 3 * (size_t)nd,
               3 * (size_t)no * sizeof(double));
    }
    int *tri = o->obstacle_triangles;
    for (int b = 0; b < nb; b++) {
        if (!ipcc_world_body_is_obstacle(w, b)) continue;
        int n;
        const int *faces;
        ipcc_world_body_surface(w, b, &n, &faces);
        for (int k = 0; k < 3 * n; k++) {
            IPCC_ASSERT(faces[k] >= nd && faces[k] < nv); // obstacle faces use obstacle vertices
            *tri++ = faces[k] - nd;
        }
    }
    const double L = ipcc_world_bbox_diagonal(w);
    const double half = L > 0 && isfinite(L) ? L : 0.5; // side 2 L, or 1 m
    for (int i = 0; i < nh; i++) {
        const int first = no + 4 * i;
        output_half_space_quad(w, i, half, o->obstacle_points + 3 * (size_t)first);
        memset(o->obstacle_velocity + 3 * (size_t)first, 0, 12 * sizeof(double));
        const int quad[6] = {first, first + 1, first + 2, first, first + 2, first + 3};
        memcpy(tri, quad, sizeof quad);
        tri += 6;
    }
    // Shapes: their tessellation at the current pose; velocity v + w x (p - c).
    int first = no + 4 * nh;
    for (int i = 0; i < ns; i++) {
        const ipcc_shape_def *d = ipcc_world_shape_def(w, i);
        ipcc_shape pose;
        output_shape_pose(w, i, &pose);
        int p, t;
        ipcc_shape_mesh_count(&pose, IPCC_SHAPE_MESH_AROUND, IPCC_SHAPE_MESH_ALONG, &p, &t);
        double *x = o->obstacle_points + 3 * (size_t)first, *v = o->obstacle_velocity + 3 * (size_t)first;
        ipcc_shape_mesh(&pose, IPCC_SHAPE_MESH_AROUND, IPCC_SHAPE_MESH_ALONG, x, tri, first);
        for (int j = 0; j < p; j++)
            ipcc_shape_point_velocity(d->velocity, d->angular_velocity, pose.center, x + 3 * j, v + 3 * j);
        first += p;
        tri += 3 * t;
    }
    ipcc_vtk_codim codim;
    ipcc_status s = output_obstacle_codim(o, w, path, &codim);
    if (s != IPCC_OK) return s;
    // object_id per cell, in VTK's cell order: verts (point sets), lines
    // (segment sets), polys (triangle meshes, half-spaces, shapes).
    const int ncells = codim.num_verts + codim.num_lines + nt;
    if (ipcc_reserve((void **)&o->cell_objects, &o->cell_objects_cap, ncells + 1, sizeof(int)) != 0 ||
        ipcc_output_object_names(o, w) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing '%s'", path);
    int *id = o->cell_objects;
    for (int pass = 0; pass < 3; pass++)
        for (int b = 0; b < nb; b++) {
            int n, ne, first_v, count;
            if (!ipcc_world_body_is_obstacle(w, b)) continue;
            ipcc_world_body_surface(w, b, &n, NULL);
            ipcc_world_body_edges(w, b, &ne, NULL);
            ipcc_world_body_vertices(w, b, &first_v, &count);
            int cells = pass == 0 ? (n == 0 && ne == 0 ? count : 0) : pass == 1 ? (n == 0 ? ne : 0) : n;
            for (int c = 0; c < cells; c++)
                *id++ = ipcc_world_contact_object_of_body(w, b);
        }
    for (int i = 0; i < nh; i++)
        id[0] = id[1] = ipcc_world_contact_object_of_half_space(w, i), id += 2;
    for (int i = 0; i < ns; i++) {
        int p, t;
        ipcc_shape pose;
        output_shape_pose(w, i, &pose);
        ipcc_shape_mesh_count(&pose, IPCC_SHAPE_MESH_AROUND, IPCC_SHAPE_MESH_ALONG, &p, &t);
        for (int c = 0; c < t; c++)
            *id++ = ipcc_world_contact_object_of_shape(w, i);
    }
    IPCC_ASSERT(id - o->cell_objects == ncells);
    const char *names[1] = {"velocity"};
    const double *fields[1] = {o->obstacle_velocity};
    ipcc_vtk_surface surface = {
        .num_points = np,
        .points = o->obstacle_points,
        .num_triangles = nt,
        .triangles = o->obstacle_triangles,
        .num_point_fields = 1,
        .point_field_names = names,
        .point_fields = fields,
    };
    const ipcc_vtk_array cell_arrays[1] = {{.name = "object_id", .components = 1, .ints = o->cell_objects}};
    const ipcc_vtk_strings strings[1] = {
        {.name = "object_names", .count = ipcc_world_num_contact_objects(w), .values = o->name_list}};
    const ipcc_vtk_data data = {
        .num_cell_arrays = 1, .cell_arrays = cell_arrays, .num_field_strings = 1, .field_strings = strings};
    return ipcc_vtk_write_polydata_encoded(path, &surface, &codim, &data, o->codec);
}

/// Write the contacts of the current state (ipcc_world_contacts) to `path`:
/// one vertex cell per contact at its position (see docs/output.md).
static ipcc_status output_write_contacts(ipcc_output *o, const ipcc_world *w, const char *path) {
    const ipcc_contact_record *rec;
    int m = 0;
    if ((!o->report && ipcc_contact_report_create(&o->report) != IPCC_OK) ||
        ipcc_world_contacts(w, o->report, &rec, &m) != IPCC_OK ||
        ipcc_reserve((void **)&o->contact_doubles, &o->contact_doubles_cap, 11 * m + 1, sizeof(double)) !=
            0 ||
        ipcc_reserve((void **)&o->contact_ints, &o->contact_ints_cap, 5 * m + 1, sizeof(int)) != 0 ||
        ipcc_output_object_names(o, w) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing '%s'", path);
    double *points = o->contact_doubles, *normal = points + 3 * m, *friction = normal + 3 * m;
    double *distance = friction + 3 * m, *normal_force = distance + m;
    int *object_a = o->contact_ints, *object_b = object_a + m, *kind = object_b + m, *active = kind + m;
    int *verts = active + m;
    for (int k = 0; k < m; k++) {
        memcpy(points + 3 * k, rec[k].position, 3 * sizeof(double));
        memcpy(normal + 3 * k, rec[k].normal, 3 * sizeof(double));
        memcpy(friction + 3 * k, rec[k].friction_force, 3 * sizeof(double));
        distance[k] = rec[k].distance;
        normal_force[k] = rec[k].normal_force;
        object_a[k] = rec[k].object_a;
        object_b[k] = rec[k].object_b;
        kind[k] = (int)rec[k].type;
        active[k] = rec[k].active;
        verts[k] = k;
    }
    const char *vector_names[2] = {"normal", "friction_force"};
    const double *vectors[2] = {normal, friction};
    ipcc_vtk_surface surface = {
        .num_points = m,
        .points = points,
        .num_point_fields = 2,
        .point_field_names = vector_names,
        .point_fields = vectors,
    };
    const ipcc_vtk_codim cells = {.num_verts = m, .verts = verts};
    const ipcc_vtk_array arrays[6] = {
        {.name = "distance", .components = 1, .doubles = distance},
        {.name = "normal_force", .components = 1, .doubles = normal_force},
        {.name = "object_a", .components = 1, .ints = object_a},
        {.name = "object_b", .components = 1, .ints = object_b},
        {.name = "kind", .components = 1, .ints = kind},
        {.name = "active", .components = 1, .ints = active},
    };
    const char *kind_names[IPCC_CONTACT_TYPE_COUNT];
    for (int t = 0; t < IPCC_CONTACT_TYPE_COUNT; t++)
        kind_names[t] = ipcc_contact_type_name((ipcc_contact_type)t);
    const ipcc_vtk_strings strings[2] = {
        {.name = "object_names", .count = ipcc_world_num_contact_objects(w), .values = o->name_list},
        {.name = "kind_names", .count = IPCC_CONTACT_TYPE_COUNT, .values = kind_names},
    };
    const char *value_names[1] = {"TimeValue"};
    const double values[1] = {ipcc_world_time(w)};
    const ipcc_vtk_data data = {.num_point_arrays = 6,
                                .point_arrays = arrays,
                                .num_field_values = 1,
                                .field_value_names = value_names,
                                .field_values = values,
                                .num_field_strings = 2,
                                .field_strings = strings};
    return ipcc_vtk_write_polydata_encoded(path, &surface, &cells, &data, o->codec);
}

ipcc_status ipcc_output_write_frame(ipcc_output *o, const ipcc_world *world) {
    IPCC_ASSERT(o && world);
    const int nd = ipcc_world_num_deformable_vertices(world), nt = ipcc_world_num_tets(world);
    const double *x = ipcc_world_positions(world);
    const double *rest = ipcc_world_rest_positions(world);
    const int k = o->num_frames;
    const bool obstacles = output_has_obstacles(world);
    char vtu[OUTPUT_NAME_MAX], vtp[OUTPUT_NAME_MAX], contacts[OUTPUT_NAME_MAX];
    output_frame_names(k, vtu, vtp, contacts);
    if (ipcc_reserve((void **)&o->displacement, &o->displacement_cap, 3 * nd, sizeof(double)) != 0 ||
        ipcc_reserve((void **)&o->times, &o->times_cap, k + 1, sizeof(double)) != 0 ||
        ipcc_reserve((void **)&o->files, &o->files_cap, OUTPUT_PARTS * (k + 1), sizeof(char *)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing frame %d to '%s'", k, o->dir);
    if (k == o->num_named) { // a retried frame already has its slots
        for (int p = 0; p < OUTPUT_PARTS; p++)
            o->files[OUTPUT_PARTS * k + p] = NULL;
        o->num_named++;
    }
    if (output_set_name(&o->files[OUTPUT_PARTS * k], vtu) != 0 ||
        output_set_name(&o->files[OUTPUT_PARTS * k + 1], obstacles ? vtp : NULL) != 0 ||
        output_set_name(&o->files[OUTPUT_PARTS * k + 2], o->contacts ? contacts : NULL) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing frame %d to '%s'", k, o->dir);
    for (int i = 0; i < 3 * nd; i++)
        o->displacement[i] = x[i] - rest[i];
    if (ipcc_reserve((void **)&o->tet_fields, &o->tet_fields_cap, 12 * nt + 1, sizeof(double)) != 0 ||
        (o->compress_level > 0 && !o->codec && !(o->codec = ipcc_vtk_codec_create(o->compress_level))))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing frame %d to '%s'", k, o->dir);
    double *J = o->tet_fields, *cauchy = J + nt, *von_mises = cauchy + 9 * (size_t)nt;
    double *energy = von_mises + nt;
    ipcc_world_tet_fields(world, J, cauchy, von_mises, energy);
    const ipcc_vtk_array point_arrays[1] = {
        {.name = "mass", .components = 1, .doubles = ipcc_world_masses(world)}};
    const ipcc_vtk_array cell_arrays[4] = {
        {.name = "volume_ratio", .components = 1, .doubles = J},
        {.name = "cauchy_stress", .components = IPCC_CAUCHY_COMPONENTS, .doubles = cauchy},
        {.name = "von_mises", .components = 1, .doubles = von_mises},
        {.name = "energy_density", .components = 1, .doubles = energy},
    };

    const char *point_names[4] = {"velocity", "displacement", "contact_force", "friction_force"};
    const double *point_fields[4] = {ipcc_world_velocities(world), o->displacement,
                                     ipcc_world_contact_forces(world), ipcc_world_friction_forces(world)};
    const char *cell_names[2] = {"body_id", "region"};
    const int *cell_fields[2] = {ipcc_world_tet_bodies(world), ipcc_world_tet_regions(world)};
    const char *field_names[2] = {"TimeValue", "length_scale"};
    const double field_values[2] = {ipcc_world_time(world), ipcc_world_bbox_diagonal(world)};
    ipcc_vtk_frame frame = {
        .num_points = nd,
        .points = x,
        .num_tets = nt,
        .tets = ipcc_world_tets(world),
        .num_point_fields = 4,
        .point_field_names = point_names,
        .point_fields = point_fields,
        .num_cell_fields = 2,
        .cell_field_names = cell_names,
        .cell_fields = cell_fields,
        .num_field_values = 2,
        .field_value_names = field_names,
        .field_values = field_values,
        .num_point_arrays = 1,
        .point_arrays = point_arrays,
        .num_cell_arrays = 4,
        .cell_arrays = cell_arrays,
    };
    ipcc_status s = ipcc_vtk_write_vtu_encoded(ipcc_output_path(o, vtu), &frame, o->codec);
    if (s != IPCC_OK) return s;
    if (obstacles) {
        s = output_write_obstacles(o, world, ipcc_output_path(o, vtp));
        if (s != IPCC_OK) return s;
    }
    if (o->contacts) {
        s = output_write_contacts(o, world, ipcc_output_path(o, contacts));
        if (s != IPCC_OK) return s;
    }
    o->times[k] = ipcc_world_time(world);
    s = ipcc_vtk_write_pvd(ipcc_output_path(o, OUTPUT_PVD), k + 1, OUTPUT_PARTS, o->times,
                           (const char *const *)o->files);
    if (s != IPCC_OK) return s;
    o->num_frames = k + 1;
    ipcc_log(IPCC_LOG_DEBUG, "output: frame %d (t = %g s) written to '%s/%s'%s", k, o->times[k], o->dir, vtu,
             obstacles ? " with obstacles" : "");
    return IPCC_OK;
}

ipcc_status ipcc_output_set_contacts(ipcc_output *o, bool enabled) {
    IPCC_ASSERT(o);
    o->contacts = enabled;
    // Frames kept by a resume list their contacts file when it is there.
    bool changed = false;
    for (int k = 0; k < o->num_frames; k++) {
        char vtu[OUTPUT_NAME_MAX], vtp[OUTPUT_NAME_MAX], contacts[OUTPUT_NAME_MAX];
        output_frame_names(k, vtu, vtp, contacts);
        bool list = enabled && access(ipcc_output_path(o, contacts), R_OK) == 0;
        char **slot = &o->files[OUTPUT_PARTS * k + 2];
        if (list == (*slot != NULL)) continue;
        if (output_set_name(slot, list ? contacts : NULL) != 0)
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory in '%s'", o->dir);
        changed = true;
    }
    if (!changed) return IPCC_OK;
    return ipcc_vtk_write_pvd(ipcc_output_path(o, OUTPUT_PVD), o->num_frames, OUTPUT_PARTS, o->times,
                              (const char *const *)o->files);
}

ipcc_status ipcc_output_set_compress(ipcc_output *o, bool enabled) {
    IPCC_ASSERT(o);
    const int level = enabled ? IPCC_VTK_DEFAULT_LEVEL : 0;
    if (level == o->compress_level) return IPCC_OK;
    o->compress_level = level;
    ipcc_vtk_codec_destroy(o->codec); // the next frame makes one for the new level, if any
    o->codec = NULL;
    return IPCC_OK;
}

int ipcc_output_frame_count(const ipcc_output *o) {
    IPCC_ASSERT(o);
    return o->num_frames;
}

const double *ipcc_output_frame_times(const ipcc_output *o) {
    IPCC_ASSERT(o);
    return o->times;
}

ipcc_status ipcc_output_resume(const char *directory, const ipcc_world *world, int num_frames,
                               const double *times, long stats_rows, ipcc_output **out) {
    IPCC_ASSERT(directory && world && out && num_frames >= 0 && (times || num_frames == 0));
    *out = NULL;
    ipcc_output *o;
    ipcc_status s = ipcc_output_create(directory, &o);
    if (s != IPCC_OK) return s;
    const bool obstacles = output_has_obstacles(world);
    if (ipcc_reserve((void **)&o->times, &o->times_cap, num_frames + 1, sizeof(double)) != 0 ||
        ipcc_reserve((void **)&o->files, &o->files_cap, OUTPUT_PARTS * (num_frames + 1), sizeof(char *)) !=
            0) {
        ipcc_output_destroy(o);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory resuming in '%s'", directory);
    }
    for (int k = 0; k < num_frames && s == IPCC_OK; k++) {
        char vtu[OUTPUT_NAME_MAX], vtp[OUTPUT_NAME_MAX], contacts[OUTPUT_NAME_MAX];
        output_frame_names(k, vtu, vtp, contacts);
        for (int part = 0; part < OUTPUT_PARTS; part++)
            o->files[OUTPUT_PARTS * k + part] = NULL;
        o->num_named = k + 1;
        if (output_set_name(&o->files[OUTPUT_PARTS * k], vtu) != 0 ||
            output_set_name(&o->files[OUTPUT_PARTS * k + 1], obstacles ? vtp : NULL) != 0)
            s = ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory resuming in '%s'", directory);
        for (int part = 0; part < (obstacles ? 2 : 1) && s == IPCC_OK; part++) {
            const char *p = ipcc_output_path(o, part ? vtp : vtu);
            if (access(p, R_OK) != 0)
                s = ipcc_fail(IPCC_ERR_IO, "output: cannot continue in '%s': frame %d's file '%s' is missing",
                              directory, k, p);
        }
        o->times[k] = times[k];
    }
    if (s == IPCC_OK && num_frames > 0)
        s = ipcc_vtk_write_pvd(ipcc_output_path(o, OUTPUT_PVD), num_frames, OUTPUT_PARTS, o->times,
                               (const char *const *)o->files);
    if (s == IPCC_OK) o->num_frames = num_frames;
    if (s == IPCC_OK && stats_rows > 0) s = ipcc_output_cut_stats(o, stats_rows);
    if (s != IPCC_OK) {
        ipcc_output_destroy(o);
        return s;
    }
    *out = o;
    return IPCC_OK;
}

void ipcc_output_destroy(ipcc_output *o) {
    if (!o) return;
    if (o->stats && fclose(o->stats) != 0)
        ipcc_log(IPCC_LOG_WARNING, "output: error closing '%s/%s': %s", o->dir, OUTPUT_STATS,
                 strerror(errno));
    for (int i = 0; i < OUTPUT_PARTS * o->num_named; i++)
        free(o->files[i]);
    free(o->files);
    free(o->obstacle_points);
    free(o->obstacle_velocity);
    free(o->obstacle_triangles);
    free(o->obstacle_lines);
    free(o->obstacle_verts);
    free(o->cell_objects);
    ipcc_contact_report_destroy(o->report);
    free(o->contact_doubles);
    free(o->contact_ints);
    free(o->object_forces);
    free(o->names);
    free(o->name_list);
    free(o->times);
    free(o->displacement);
    free(o->tet_fields);
    ipcc_vtk_codec_destroy(o->codec);
    free(o->dir);
    free(o->path);
    free(o);
}
