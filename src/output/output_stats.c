// stats.csv: one row per step of the step's statistics (ipcc_step_stats),
// the energies and momenta of the state (ipcc_world_energies) and, given
// the world, each contact object's total contact force (docs/output.md).
//
// stats.csv is opened once, at the first row ("w": a stale file from an older
// run in the same folder is truncated), and flushed after every row, so a
// killed run keeps every row it reported. It is not rewritten atomically: it
// only ever grows, and a partial last line is the worst a crash can leave.
// Given the world (ipcc_output_write_stats), the header ends with three
// columns per contact object, contact_force_x:<name> ... (names made
// CSV-safe: ',', '"' and line breaks become '_'; a name several objects
// share gets "#<id>"), and each row with the objects' total contact forces
// (ipcc_contact_report_object_forces). The header decides the columns of
// every row: a resumed output reads the kept header, so a folder of an
// older ipcc goes on without the energy columns (its header has no
// kinetic_energy after time_energy) or without force columns.
// Without the world (ipcc_output_write_stats(o, NULL, st), allowed when
// there are no force columns) the energy columns are "nan".
#include "output/output_stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic_file.h"
#include "base/core.h"
#include "output/output_state.h"

/// A name's character in stats.csv's header: commas, quotes and line breaks become '_'.
static char output_csv_char(char c) { return c && strchr(",\"\r\n", c) ? '_' : c; }

/// True if two names are the same column name.
static bool output_same_column(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (output_csv_char(*a) != output_csv_char(*b)) return false;
    return *a == *b;
}

/// Write one object's force column name into stats.csv's header; unless
/// `unique`, "#<id>" follows the name.
static int output_put_column_name(FILE *f, const char *axis, const char *name, int id, bool unique) {
    if (fprintf(f, ",contact_force_%s:", axis) < 0) return -1;
    for (const char *c = name; *c; c++)
        if (fputc(output_csv_char(*c), f) == EOF) return -1;
    if (!unique && fprintf(f, "#%d", id) < 0) return -1;
    return 0;
}

/// stats.csv's header: the fixed columns, then (with `w`) three per object.
static int output_put_stats_header(ipcc_output *o, FILE *f, const ipcc_world *w) {
    if (fprintf(f, "step,time,newton_iterations,line_search_steps,factorization_fallbacks,energy,"
                   "residual,converged,velocity_error,time_assembly,time_factorization,time_solve,"
                   "time_line_search,time_total,lift_iterations,num_contacts,min_distance,kappa,"
                   "time_ccd,time_broad_phase,friction_iterations,friction_contacts,"
                   "friction_dissipation,time_symbolic,time_constraint_search,time_energy,"
                   "kinetic_energy,elastic_energy,gravitational_energy,barrier_energy,momentum_x,momentum_y,"
                   "momentum_z,angular_momentum_x,angular_momentum_y,angular_momentum_z,substeps") < 0)
        return -1;
    o->stats_energies = o->stats_substeps = true;
    const int no = w ? ipcc_world_num_contact_objects(w) : 0;
    if (no > 0 && ipcc_output_object_names(o, w) != 0) return -1;
    for (int i = 0; i < no; i++) {
        bool unique = true; // names shared by several objects get "#<id>"
        for (int j = 0; j < no && unique; j++)
            unique = j == i || !output_same_column(o->name_list[i], o->name_list[j]);
        static const char *const axes[3] = {"x", "y", "z"};
        for (int a = 0; a < 3; a++)
            if (output_put_column_name(f, axes[a], o->name_list[i], i, unique) != 0) return -1;
    }
    o->stats_objects = no;
    return fputc('\n', f) == EOF ? -1 : 0;
}

/// The per-object contact forces of a row into o->object_forces, and the
/// contact records (*rec, *m; none without half-spaces and shapes).
static ipcc_status output_object_forces(ipcc_output *o, const ipcc_world *w, const char *p,
                                        const ipcc_contact_record **rec, int *m) {
    const int no = ipcc_world_num_contact_objects(w), cols = no > o->stats_objects ? no : o->stats_objects;
    if (ipcc_reserve((void **)&o->object_forces, &o->object_forces_cap, 3 * cols + 1, sizeof(double)) != 0 ||
        (!o->report && ipcc_contact_report_create(&o->report) != IPCC_OK))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing '%s'", p);
    // Half-spaces and shapes need the contact records; bodies only the per-vertex forces.
    *rec = NULL;
    *m = 0;
    if (ipcc_world_num_half_spaces(w) + ipcc_world_num_shapes(w) > 0 &&
        ipcc_world_contacts(w, o->report, rec, m) != IPCC_OK)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing '%s'", p);
    ipcc_contact_report_object_forces(o->report, w, o->object_forces);
    return IPCC_OK;
}

/// The forces of a row in an older ipcc's layout (o->object_forces), for a
/// resumed stats.csv whose header has a column per body, a box's edges and a
/// cylinder's rims included: every body's per-vertex sum, then the
/// half-spaces' and shapes' surfaces from the m records r.
static void output_object_forces_by_body(ipcc_output *o, const ipcc_world *w, const ipcc_contact_record *r,
                                         int m) {
    const int nb = ipcc_world_num_bodies(w), nh = ipcc_world_num_half_spaces(w);
    const double *fc = ipcc_world_contact_forces(w), *ff = ipcc_world_friction_forces(w);
    double *f = o->object_forces;
    memset(f, 0, sizeof(double) * 3 * (size_t)o->stats_objects);
    for (int b = 0; b < nb; b++) {
        int first, count;
        ipcc_world_body_vertices(w, b, &first, &count);
        for (int i = first; i < first + count; i++)
            for (int d = 0; d < 3; d++)
                f[3 * b + d] += (fc ? fc[3 * i + d] : 0) + (ff ? ff[3 * i + d] : 0);
    }
    const int first_half_space = nh > 0 ? ipcc_world_contact_object_of_half_space(w, 0) : 0;
    for (int k = 0; k < m; k++) {
        int id;
        if (r[k].type == IPCC_CONTACT_POINT_HALF_SPACE)
            id = nb + r[k].object_b - first_half_space;
        else if (r[k].type == IPCC_CONTACT_POINT_SHAPE || r[k].type == IPCC_CONTACT_TRIANGLE_SHAPE ||
                 r[k].type == IPCC_CONTACT_EDGE_SHAPE)
            id = nb + nh + r[k].object_b - ipcc_world_contact_object_of_shape(w, 0);
        else
            continue;
        for (int d = 0; d < 3; d++)
            f[3 * id + d] -= r[k].normal_force * r[k].normal[d] + r[k].friction_force[d];
    }
}

ipcc_status ipcc_output_write_stats(ipcc_output *o, const ipcc_world *w, const ipcc_step_stats *st) {
    IPCC_ASSERT(o && st);
    const char *p = ipcc_output_path(o, OUTPUT_STATS);
    if (!o->stats) {
        o->stats = fopen(p, "w");
        if (!o->stats) return ipcc_fail(IPCC_ERR_IO, "output: cannot create '%s': %s", p, strerror(errno));
        errno = 0;
        if (output_put_stats_header(o, o->stats, w) != 0) {
            int e = errno ? errno : EIO;
            fclose(o->stats);
            o->stats = NULL; // the next row retries from a fresh file and header
            return e == ENOMEM ? ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing '%s'", p)
                               : ipcc_fail(IPCC_ERR_IO, "output: cannot write '%s': %s", p, strerror(e));
        }
    }
    // The row has the header's columns: forces only if the header has them.
    const int no = o->stats_objects;
    if (no > 0 && !w)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "output: '%s' has per-object force columns: its rows need the world "
                         "(ipcc_output_write_stats)",
                         p);
    // An older ipcc's file may have a column per body (a box's edges had theirs).
    const bool by_body =
        no > 0 && !o->stats_energies && no != ipcc_world_num_contact_objects(w) &&
        no == ipcc_world_num_bodies(w) + ipcc_world_num_half_spaces(w) + ipcc_world_num_shapes(w);
    if (no > 0 && !by_body && no != ipcc_world_num_contact_objects(w))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "output: '%s' has force columns for %d objects, the world has %d (another scene?)",
                         p, no, ipcc_world_num_contact_objects(w));
    if (no > 0) {
        const ipcc_contact_record *rec = NULL;
        int m = 0;
        ipcc_status s = output_object_forces(o, w, p, &rec, &m);
        if (s != IPCC_OK) return s;
        if (by_body) output_object_forces_by_body(o, w, rec, m);
    }
    ipcc_energies e; // before the row: a failure leaves no partial row
    if (o->stats_energies && w) {
        ipcc_status s = ipcc_world_energies(w, &e);
        if (s != IPCC_OK) return ipcc_fail(s, "output: writing '%s': %s", p, ipcc_last_error());
    } else {
        e.kinetic = e.elastic = e.gravitational = e.barrier = NAN;
        for (int k = 0; k < 3; k++)
            e.linear_momentum[k] = e.angular_momentum[k] = NAN;
    }
    errno = 0;
    int bad =
        fprintf(o->stats,
                "%d,%.17g,%d,%d,%d,%.17g,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d,%.17g,%.17g,%."
                "17g,%.17g,%d,%d,%.17g,%.17g,%.17g,%.17g",
                st->step, st->time, st->newton_iterations, st->line_search_steps, st->factorization_fallbacks,
                st->energy, st->residual, st->converged ? 1 : 0, st->velocity_error, st->time_assembly,
                st->time_factorization, st->time_solve, st->time_line_search, st->time_total,
                st->lift_iterations, st->num_contacts, st->min_distance, st->kappa, st->time_ccd,
                st->time_broad_phase, st->friction_iterations, st->friction_contacts,
                st->friction_dissipation, st->time_symbolic, st->time_constraint_search, st->time_energy) < 0;
    if (o->stats_energies && !bad)
        bad = fprintf(o->stats, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", e.kinetic,
                      e.elastic, e.gravitational, e.barrier, e.linear_momentum[0], e.linear_momentum[1],
                      e.linear_momentum[2], e.angular_momentum[0], e.angular_momentum[1],
                      e.angular_momentum[2]) < 0;
    if (o->stats_substeps && !bad) bad = fprintf(o->stats, ",%d", st->substeps) < 0;
    for (int i = 0; i < 3 * no && !bad; i++)
        bad = fprintf(o->stats, ",%.17g", o->object_forces[i]) < 0;
    if (bad || fputc('\n', o->stats) == EOF || fflush(o->stats) != 0)
        return ipcc_fail(IPCC_ERR_IO, "output: cannot write '%s': %s", p, strerror(errno ? errno : EIO));
    o->stats_rows++;
    return IPCC_OK;
}

long ipcc_output_stats_row_count(const ipcc_output *o) {
    IPCC_ASSERT(o);
    return o->stats_rows;
}

/// Cut stats.csv back to its header and first `rows` rows (atomically), and
/// open it for appending. Keeps fewer rows if the file has fewer.
ipcc_status ipcc_output_cut_stats(ipcc_output *o, long rows) {
    char *p = malloc(strlen(o->dir) + sizeof "/" OUTPUT_STATS);
    if (!p) return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory");
    sprintf(p, "%s/%s", o->dir, OUTPUT_STATS);
    FILE *in = fopen(p, "rb");
    if (!in) {
        ipcc_log(IPCC_LOG_WARNING, "output: '%s' is missing (%s); it restarts with the next step", p,
                 strerror(errno));
        free(p);
        return IPCC_OK; // the next row writes a fresh file and header
    }
    ipcc_atomic_file f;
    ipcc_status s = ipcc_atomic_open(&f, p, "output");
    long lines = 0, keep = rows + 1, commas = 0; // the header, then the rows; the header's commas
    // The header's columns OUTPUT_BASE_COLUMNS and OUTPUT_FIXED_COLUMNS (truncated).
    char buf[4096], first_energy[sizeof "kinetic_energy" + 1] = "",
                                                           after_energies[sizeof "substeps" + 1] = "";
    size_t after_len = 0;
    size_t n, len = 0;
    while (s == IPCC_OK && lines < keep && (n = fread(buf, 1, sizeof buf, in)) > 0) {
        size_t take = 0;
        while (take < n && lines < keep) {
            char c = buf[take];
            if (lines == 0 && commas == OUTPUT_BASE_COLUMNS && c != ',' && c != '\r' && c != '\n' &&
                len + 1 < sizeof first_energy)
                first_energy[len++] = c, first_energy[len] = '\0';
            if (lines == 0 && commas == OUTPUT_FIXED_COLUMNS && c != ',' && c != '\r' && c != '\n' &&
                after_len + 1 < sizeof after_energies)
                after_energies[after_len++] = c, after_energies[after_len] = '\0';
            commas += lines == 0 && c == ',';
            if (buf[take++] == '\n') lines++;
        }
        ipcc_atomic_write(&f, buf, take);
    }
    // The rows to come have the header's columns: a folder of an older ipcc
    // has no substeps column (nothing named substeps after the energies), no
    // energy columns either (nothing named kinetic_energy after time_energy),
    // or no force columns either.
    o->stats_energies = strcmp(first_energy, "kinetic_energy") == 0;
    o->stats_substeps = o->stats_energies && strcmp(after_energies, "substeps") == 0;
    const long fixed = o->stats_substeps   ? OUTPUT_FIXED_COLUMNS + OUTPUT_SUBSTEPS_COLUMNS
                       : o->stats_energies ? OUTPUT_FIXED_COLUMNS
                                           : OUTPUT_BASE_COLUMNS;
    o->stats_objects = commas + 1 > fixed ? (int)((commas + 1 - fixed) / 3) : 0;
    fclose(in);
    if (s == IPCC_OK) s = ipcc_atomic_commit(&f);
    if (s == IPCC_OK) {
        o->stats = fopen(p, "ab");
        if (!o->stats) s = ipcc_fail(IPCC_ERR_IO, "output: cannot append to '%s': %s", p, strerror(errno));
        o->stats_rows = lines > 0 ? lines - 1 : 0;
        if (o->stats_rows < rows)
            ipcc_log(IPCC_LOG_WARNING, "output: '%s' had %ld of the %ld rows of the checkpoint", p,
                     o->stats_rows, rows);
    }
    free(p);
    return s;
}
