// libFuzzer harness for the original IPC's scene scripts (`.txt`): the reader
// (src/scene/ipc/ipc_script.c, ipc_script_lexer.c, ipc_script_keywords.c) and the
// scene loader behind it (scene_ipc.c, scene_ipc_presets.c), i.e. what
// `ipcc check foo.txt` runs, and `ipcc convert`'s write-back. Seeds:
// tests/fuzz/corpus/ipc.
//
// Each input is used twice:
//   1. The reader alone: ipcc_ipc_script_parse() on a NUL-terminated copy
//      (an embedded NUL ends the text), lenient and strict. A failure must
//      leave the output NULL and record a message that starts with the
//      script's name and a line ("fuzz.txt:<line>: "); a success must hold
//      the record's documented ranges (check_record). Strict mode only adds
//      failures: a lenient failure is a strict failure, and a strict success
//      reads the same record as the lenient one, without unknown keywords.
//   2. The load path of `ipcc check`: the input's bytes, as they are, are the
//      file <scratch>/input/fuzz.txt, loaded with ipcc_scene_load_with_options()
//      (lenient), then ipcc_scene_create_world() and ipcc_world_start() (the
//      initial intersection check). A scene that makes a world is also written
//      back as JSON and loaded again, as `ipcc convert` does (fuzz_scene.h):
//      the same scene, bit for bit.
//      Failures are checked as in fuzz_common.h: negative status, NULL
//      output, a message naming the script (world_start's messages name
//      bodies, not the file, so there only the message is required).
//
// Mesh paths resolve as IPC resolves them (scene_ipc.c: the script's folder,
// then each parent folder): the scratch folder is the dataset root that holds
// input/, and holds one tiny file of each kind the loader reads (MESH_FILES:
// Gmsh and TetGen tets, which `cube` and `cube.ele` also name, an .obj whose
// stem also answers the .seg/.pt fallback as `tri.seg`/`tri.pt`, a segment
// and a point file, and two broken meshes); the seeds and the dictionary
// name them. Two kinds of input are skipped, not failures, so every run stays
// fast and inside the scratch folder: a script with more than MAX_FILES
// shapes and meshCOs (the reader allows 10^6 shapes, each a mesh read), and
// one with a mesh path that is absolute, holds "..", or whose first
// component exists in a folder above the scratch folder (where the parent
// search would find it: /dev/zero, /proc, a large file). The harness finds
// them in the lenient record of step 1; text the reader rejects is rejected
// by the loader before it opens a mesh.
#define _XOPEN_SOURCE 700 // realpath
#include "fuzz_common.h"
#include "fuzz_scene.h"
#include "scene/ipc/ipc_script.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"

enum { MAX_FILES = 12, MAX_ANCESTORS = 32 };

static const struct {
    const char *name, *text;
} MESH_FILES[] = {
    {"tet.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
                "$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n"},
    {"cube.node", "8 3 0 0\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n"},
    {"cube.ele", "5 4 0\n1 1 2 3 6\n2 1 3 4 8\n3 1 5 6 8\n4 3 6 7 8\n5 1 6 3 8\n"},
    {"tri.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n"},
    {"seg.seg", "v 0 0 0\nv 1 0 0\nv 1 1 0\ns 1 2\ns 2 3\n"},
    {"pts.pt", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"},
    {"nan.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 nan 0 0\n3 0 1 0\n4 0 0 1\n"
                "$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n"},
    {"bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n"},
};

static char script_path[FUZZ_PATH_LEN], written[FUZZ_PATH_LEN];
static char ancestors[MAX_ANCESTORS][FUZZ_PATH_LEN]; // folders above the scratch folder, up to "/"
static int num_ancestors;

// The scratch folder (the dataset root) with its meshes, input/ and the
// ancestors of the folder, once per process.
static void setup(void) {
    const char *dir = fuzz_scratch_dir("ipc");
    for (size_t i = 0; i < sizeof MESH_FILES / sizeof *MESH_FILES; i++)
        fuzz_scratch_in(MESH_FILES[i].name, MESH_FILES[i].text);
    snprintf(written, sizeof written, "%s", fuzz_scratch_in("written.json", NULL));
    fuzz_scratch_in("written.json.tmp", NULL);
    // input/fuzz.txt before input/: fuzz_cleanup() removes them in this order.
    snprintf(script_path, sizeof script_path, "%s", fuzz_scratch_in("input/fuzz.txt", NULL));
    const char *input = fuzz_scratch_in("input", NULL);
    if (mkdir(input, 0700) != 0) fuzz_fail("cannot make the scratch folder", input);
    char *real = realpath(dir, NULL);
    if (!real) fuzz_fail("cannot resolve the scratch folder", dir);
    for (;;) {
        char *slash = strrchr(real, '/');
        if (!slash) break;
        if (slash == real)
            real[1] = '\0';
        else
            *slash = '\0';
        if (num_ancestors == MAX_ANCESTORS) fuzz_fail("scratch folder too deep", dir);
        snprintf(ancestors[num_ancestors++], FUZZ_PATH_LEN, "%s", real);
        if (slash == real) break;
    }
    free(real);
}

// True if `rel` could make the loader read outside the scratch folder. The
// loader tries `rel`, `rel.node` (no extension) and `<stem>.obj` (.seg/.pt)
// in every folder up to "/": a candidate above the scratch folder exists only
// if the first component of one of them exists there.
static int escapes(const char *rel) {
    if (rel[0] == '/' || strstr(rel, "..")) return 1;
    char first[FUZZ_PATH_LEN], names[3][FUZZ_PATH_LEN + 8];
    size_t n = strcspn(rel, "/");
    if (n >= sizeof first) return 1;
    memcpy(first, rel, n);
    first[n] = '\0';
    snprintf(names[0], sizeof names[0], "%s", first);
    snprintf(names[1], sizeof names[1], "%s.node", first);
    char *dot = strrchr(first, '.');
    if (dot) *dot = '\0';
    snprintf(names[2], sizeof names[2], "%s.obj", first);
    for (int a = 0; a < num_ancestors; a++)
        for (int k = 0; k < 3; k++) {
            char path[2 * FUZZ_PATH_LEN + 16];
            struct stat st;
            int len = snprintf(path, sizeof path, "%s/%s", ancestors[a], names[k]);
            if (len < 0 || len >= (int)sizeof path || lstat(path, &st) == 0) return 1;
        }
    return 0;
}

// True if the loader may run on this record (see the preamble).
static int acceptable(const ipcc_ipc_script *s) {
    if (s->num_shapes + s->num_mesh_cos > MAX_FILES) return 0;
    for (int i = 0; i < s->num_shapes; i++)
        if (escapes(s->shapes[i].path)) return 0;
    for (int i = 0; i < s->num_mesh_cos; i++)
        if (escapes(s->mesh_cos[i].path)) return 0;
    return 1;
}

static int finite_n(const double *x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

// The record as ipc_script.h documents it: every number was read finite.
static void check_record(const ipcc_ipc_script *s) {
    if (!s->path || strcmp(s->path, "fuzz.txt") != 0) fuzz_fail("record", "path is not the name given");
    if (s->num_shapes < 0 || s->num_shapes > 1000000) fuzz_fail("record", "shape count out of range");
    for (int i = 0; i < s->num_shapes; i++) {
        const ipcc_ipc_script_shape *sh = &s->shapes[i];
        if (!sh->path || !sh->path[0]) fuzz_fail("record", "shape without a path");
        if (sh->line < 1) fuzz_fail("record", "shape without a line");
        if (!finite_n(sh->translation, 3) || !finite_n(sh->rotation, 3) || !finite_n(sh->scale, 3))
            fuzz_fail("record", "non-finite shape transform");
        if (sh->num_dbc < 0 || sh->num_nbc < 0 || (sh->num_dbc && !sh->dbc) || (sh->num_nbc && !sh->nbc))
            fuzz_fail("record", "bad group list");
        if (sh->from_matrix && (sh->num_dbc || sh->num_nbc || sh->has_init_vel || sh->has_linear_velocity ||
                                sh->has_angular_velocity || sh->mesh_seq))
            fuzz_fail("record", "a shapeMatrix copy with extras other than material");
        for (int g = 0; g < sh->num_dbc + sh->num_nbc; g++) {
            const ipcc_ipc_script_group *gr = g < sh->num_dbc ? &sh->dbc[g] : &sh->nbc[g - sh->num_dbc];
            if (!finite_n(gr->box_min, 3) || !finite_n(gr->box_max, 3) || !finite_n(gr->value, 3) ||
                !finite_n(gr->angular, 3) || !isfinite(gr->start) || isnan(gr->end) || gr->line < sh->line)
                fuzz_fail("record", "bad DBC/NBC group");
        }
    }
    if (s->num_half_spaces < 0 || s->num_mesh_cos < 0 || s->num_notes < 0 || s->num_unknown < 0)
        fuzz_fail("record", "negative count");
    for (int i = 0; i < s->num_mesh_cos; i++)
        if (!s->mesh_cos[i].path || !s->mesh_cos[i].path[0]) fuzz_fail("record", "meshCO without a path");
    if (!(s->time_step > 0) || !(s->duration >= 0) || !isfinite(s->time_step) || !isfinite(s->duration))
        fuzz_fail("record", "time out of range");
    if (s->damping_stiff < 0 || !(s->damping_ratio >= 0 && s->damping_ratio <= 1) || s->self_friction < 0 ||
        !(s->playback_speed > 0))
        fuzz_fail("record", "a clamped value out of its range");
    if (s->num_tuning < 0 || s->num_tuning > 16 || !finite_n(s->tuning, 16))
        fuzz_fail("record", "bad tuning list");
    if (s->num_tol < 0 || (s->num_tol > 0 && !s->tol) || (s->num_tol && !finite_n(s->tol, s->num_tol)))
        fuzz_fail("record", "bad tol list");
    if (s->num_script_params < 0 || s->num_script_params > 16 || !memchr(s->script, '\0', sizeof s->script))
        fuzz_fail("record", "bad script");
}

// Step 1: the reader alone, lenient and strict. Returns the lenient record or NULL.
static ipcc_ipc_script *read_both(const char *text) {
    ipcc_ipc_script *lenient = NULL, *strict = NULL;
    ipcc_clear_error();
    ipcc_status sl = ipcc_ipc_script_parse(text, "fuzz.txt", false, &lenient);
    if (sl != IPCC_OK) {
        fuzz_check_failure(sl, lenient, "fuzz.txt");
        if (strncmp(ipcc_last_error(), "fuzz.txt:", 9) != 0) fuzz_fail("message without the name", NULL);
    } else {
        check_record(lenient);
    }
    ipcc_clear_error();
    ipcc_status ss = ipcc_ipc_script_parse(text, "fuzz.txt", true, &strict);
    if (ss != IPCC_OK) {
        fuzz_check_failure(ss, strict, "fuzz.txt");
        if (strncmp(ipcc_last_error(), "fuzz.txt:", 9) != 0) fuzz_fail("message without the name", NULL);
    } else {
        if (sl != IPCC_OK) fuzz_fail("strict", "a strict success where lenient reading fails");
        check_record(strict);
        if (strict->num_unknown != 0) fuzz_fail("strict", "unknown keywords in a strict success");
        if (strict->num_shapes != lenient->num_shapes ||
            strict->num_half_spaces != lenient->num_half_spaces ||
            strict->num_mesh_cos != lenient->num_mesh_cos || strict->num_notes != lenient->num_notes ||
            strict->num_tol != lenient->num_tol || strict->num_tuning != lenient->num_tuning ||
            memcmp(strict->tuning, lenient->tuning, sizeof strict->tuning) != 0 ||
            strict->time_step != lenient->time_step || strcmp(strict->script, lenient->script) != 0)
            fuzz_fail("strict", "strict and lenient reading give different records");
    }
    ipcc_ipc_script_destroy(strict);
    return lenient;
}

// Explicit selections: body-local vertex indices.
static void check_selection(int n, const int *v, int nv) {
    for (int i = 0; i < n; i++)
        if (v[i] < 0 || v[i] >= nv) fuzz_fail("scene", "selected vertex out of range");
}

// Step 2: ipcc check's path on the file, then the write-back.
static void load(const uint8_t *data, size_t size) {
    fuzz_write(script_path, data, size);
    ipcc_scene_options opt = {.strict = false};
    ipcc_scene *scene = NULL;
    ipcc_clear_error();
    ipcc_status s = ipcc_scene_load_with_options(script_path, &opt, &scene);
    if (s != IPCC_OK) {
        fuzz_check_failure(s, scene, "fuzz.txt");
        return;
    }
    if (scene->num_bodies < 1 || !(scene->duration > 0) || scene->num_steps < 1)
        fuzz_fail("scene", "no bodies, duration or steps");
    for (int i = 0; i < scene->num_bodies; i++) {
        const ipcc_body_def *b = &scene->bodies[i];
        fuzz_check_mesh(b->mesh);
        for (int j = 0; j < b->num_dirichlet; j++)
            check_selection(b->dirichlet[j].num_vertices, b->dirichlet[j].vertices, b->mesh->num_vertices);
        for (int j = 0; j < b->num_neumann; j++)
            check_selection(b->neumann[j].num_vertices, b->neumann[j].vertices, b->mesh->num_vertices);
    }
    for (int i = 0; i < scene->num_obstacles; i++)
        fuzz_check_trimesh(scene->obstacles[i].mesh);
    ipcc_world *world = NULL;
    ipcc_clear_error();
    s = ipcc_scene_create_world(scene, &world);
    if (s < 0) {
        fuzz_check_failure(s, world, "fuzz.txt");
    } else {
        fuzz_round_trip(scene, written); // ipcc convert writes what makes a world
        ipcc_clear_error();
        s = ipcc_world_start(world);
        if (s < 0) fuzz_check_failure(s, NULL, NULL);
        ipcc_world_destroy(world);
    }
    ipcc_scene_destroy(scene);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_init();
    if (!script_path[0]) setup();
    char *text = malloc(size + 1);
    if (!text) fuzz_fail("out of memory", "copying the input");
    if (size) memcpy(text, data, size);
    text[size] = '\0';
    ipcc_ipc_script *record = read_both(text);
    free(text);
    int go = !record || acceptable(record);
    ipcc_ipc_script_destroy(record);
    if (go) load(data, size);
    return 0;
}
