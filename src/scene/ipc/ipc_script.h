/// The original IPC's scene scripts (`.txt`): the reader that turns a
/// script into this plain record, exactly as IPC reads it
/// (docs/ipc-script-format.md sections 2 and 3), and loads nothing: no
/// mesh is read, no path resolved, no preset applied. The reader is
/// ipc_script_lexer.c (physical lines, tokens, numbers, messages naming the
/// line), ipc_script_keywords.c (IPC's defaults and what each keyword writes
/// into the record) and ipc_script.c (these entry points). The assembly into
/// an ipcc_scene is scene_ipc.c. Private to the library.
#ifndef IPCC_IPC_SCRIPT_H
#define IPCC_IPC_SCRIPT_H

#include <stdbool.h>

#include "ipcc/base.h"

/// A `DBC` or `NBC` extra of a shape line.
typedef struct ipcc_ipc_script_group {
    double box_min[3], box_max[3]; ///< normalized raw-bbox coordinates (a, b)
    double value[3];               ///< DBC: velocity, m/s; NBC: acceleration, m/s^2
    double angular[3];             ///< DBC: angular velocity, deg/s (NBC: 0)
    double start, end;             ///< t0 (0) and t1 (INFINITY)
    int line;                      ///< line of the keyword
} ipcc_ipc_script_group;

/// One entry of `shapes` (or `shape`, or a copy made by `shapeMatrix`).
typedef struct ipcc_ipc_script_shape {
    char *path;                       ///< as written
    double translation[3];            ///< t
    double rotation[3];               ///< degrees, R = Rx Ry Rz
    double scale[3];                  ///< s
    bool has_material;                ///< `material rho E nu` given (last one wins; not yet validated)
    double density, youngs, poisson;  ///< its values
    bool has_init_vel;                ///< `initVel`
    double init_velocity[3];          ///< m/s
    double init_angular[3];           ///< deg/s
    bool has_linear_velocity;         ///< `linearVelocity`
    double linear_velocity[3];        ///< m/s
    bool has_angular_velocity;        ///< `angularVelocity`
    double angular_velocity[3];       ///< deg/s
    int num_dbc, num_nbc;             ///< groups in file order
    ipcc_ipc_script_group *dbc, *nbc; ///< owned
    char *mesh_seq;                   ///< `meshSeq` folder, or NULL
    bool from_matrix;                 ///< made by `shapeMatrix` (no velocities or groups, §3.2)
    int line;                         ///< line of the shape (first physical line)
} ipcc_ipc_script_shape;

/// `ground mu y` (normal +Y through (0, y, 0)) or `halfSpace o n stiffness mu`.
typedef struct ipcc_ipc_script_half_space {
    double origin[3], normal[3]; ///< normal as written (not normalized)
    double friction;             ///< mu
    int line;
} ipcc_ipc_script_half_space;

/// `meshCO path x y z scale stiffness mu [rotate rx ry rz]`.
typedef struct ipcc_ipc_script_mesh_co {
    char *path;
    double position[3]; ///< where the vertex centroid goes
    double scale;       ///< final length of the longest bbox side
    double friction;    ///< mu (IPC ignores it in the physics)
    double rotation[3]; ///< degrees (0 if no `rotate`)
    int line;
} ipcc_ipc_script_mesh_co;

/// A keyword that was read but has no effect on the simulation (viewer-only,
/// or parsed-and-ignored), kept so `--verbose` can list it.
typedef struct ipcc_ipc_script_note {
    int line;
    char keyword[32];
} ipcc_ipc_script_note;

/// The whole script. Every field holds IPC's default
/// (docs/ipc-script-format.md §3.1) when its keyword is absent.
typedef struct ipcc_ipc_script {
    char *path; ///< name used in messages
    int num_shapes;
    ipcc_ipc_script_shape *shapes;
    int num_half_spaces;
    ipcc_ipc_script_half_space *half_spaces;
    int num_mesh_cos;
    ipcc_ipc_script_mesh_co *mesh_cos;

    double duration, time_step; ///< `time T h` (5, 0.025)
    double density;             ///< 1000
    double youngs, poisson;     ///< 1e5, 0.4
    bool fcr;                   ///< `energy FCR` (else NH)
    bool newmark;               ///< `timeIntegration NM` (else BE)
    double newmark_beta;        ///< 0.25
    double newmark_gamma;       ///< 0.5
    double damping_stiff;       ///< `dampingStiff` clamped to >= 0 (0)
    double damping_ratio;       ///< `dampingRatio` clamped to [0, 1] (0)
    bool gravity_off;           ///< `turnOffGravity`
    double size;                ///< `size` (-1: none)
    double rotate_axis[3];      ///< `rotateModel` axis
    double rotate_degrees;      ///< 0: none
    char script[64];            ///< `script` name ("null")
    int script_line;            ///< line of the `script` keyword that set it (0: none)
    int num_script_params;
    double script_params[16];
    char *script_folder;  ///< `script meshSeqFromFile <folder> ...`: the folder, or NULL (owned)
    bool self_collision;  ///< selfCollisionOn/Off (true)
    double self_friction; ///< `selfFric`, clamped to >= 0 (0)
    int num_tuning;       ///< entries of tuning (6)
    double tuning[16];    ///< [0, 1e-3, 1e-3, 1e-9, 1e-3, 1e-3]; `dHat` sets [1] and [2], `epsv` [4] and [5]
    int num_tol;          ///< `tol K` values (0: the default 1e-2)
    double *tol;          ///< owned
    int fric_iter_amt;    ///< `fricIterAmt` (1)
    double handle_ratio;  ///< 0.01
    double dbc_time_range[2], nbc_time_range[2]; ///< [0, INFINITY)
    int warm_start;                              ///< 0
    double kappa_min_multiplier;                 ///< 1e11
    bool use_abs_parameters;                     ///< off
    double playback_speed;                       ///< 1
    char *restart;                               ///< `restart` status file, or NULL

    int num_notes; ///< keywords read but without effect (viewer-only, parsed and ignored)
    ipcc_ipc_script_note *notes;
    int num_unknown; ///< unknown keywords (each also logged as a warning)
    ipcc_ipc_script_note *unknown;
} ipcc_ipc_script;

/// Parse script text. `name` is used in messages ("name:line: ..."). With
/// `strict`, an unknown keyword is IPCC_ERR_PARSE; otherwise it is logged as
/// a warning naming the line. Malformed numbers, a `shapes` block with fewer
/// lines than announced, and `tol`/`tuning` lists cut short are errors
/// naming the line and keyword.
ipcc_status ipcc_ipc_script_parse(const char *text, const char *name, bool strict, ipcc_ipc_script **out);

/// Read the script file `path` and parse it (ipcc_ipc_script_parse(), named
/// by `path`). A file that cannot be read is IPCC_ERR_IO, one that holds a
/// NUL byte IPCC_ERR_PARSE, with ipcc_read_file()'s messages naming the file.
ipcc_status ipcc_ipc_script_read(const char *path, bool strict, ipcc_ipc_script **out);

/// Free. NULL is fine.
void ipcc_ipc_script_destroy(ipcc_ipc_script *s);

#endif
