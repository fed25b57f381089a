/* mtlrun.h: what mtlrun's files share: the options of a run and of each kernel launch in it, and the launch
   prepared for dispatch (mtlrun_launch.c), for one kernel (mtlrun.c) or a pipeline of them (mtlrun_pipeline.c). */
#ifndef MTLRUN_H
#define MTLRUN_H

#include "mtlrt.h"

#ifdef MTLRUN_HAVE_TRANSLATOR
#include "mtl2glsl.h"
#include "mtlrun_spec.h"
#endif

#define MAX_ARGS 64

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

typedef enum SourceKind { SOURCE_ARRAY, SOURCE_SCALAR, SOURCE_BYTES, SOURCE_PRESET } SourceKind;

/* One --buffer/--scalar/--bytes/--constant (INDEX=TEXT) or --out/--check (INDEX=PATH); INDEX may be a parameter's
   NAME (in a pipeline, --out/--check name a shared buffer). SOURCE_PRESET: an array a kernel spec built. */
typedef struct Arg {
    uint32_t index;
    SourceKind kind;
    const char *text;
    char *name; /* NAME=...: resolved to the parameter's index once the kernel is known */
    MtlrtArray *preset;
} Arg;

/* One kernel launch: the kernel, how it is translated, its dispatch and its parameters. */
typedef struct Launch {
    const char *kernel, *entry, *reflect;
    bool grid_given, threadgroups_given, threadgroup_given;
    uint32_t size[3], threadgroup[3];
    Arg inputs[MAX_ARGS], constants[MAX_ARGS];
    int n_inputs, n_constants;
    const char *includes[MAX_ARGS + 1], *defines[MAX_ARGS + 1];
    int n_includes, n_defines;
    uint32_t subgroup_size; /* --subgroup-size: 0 = the device's choice */
    bool virtual_subgroups;
    bool fast_math;           /* --fast-math: translated as mtl2glsl -ffast-math (no `precise` declarations) */
    bool push_constant_words; /* --push-constant-words (also chosen when the device lacks storagePushConstant8/16) */
    int tensor_cores;         /* --tensor-cores=auto|on|off: MtlrunTensorCores (0: auto) */
    bool tensor_cores_given;  /* ... written on the command line or the run line */
    bool mma_lanes;           /* --mma-lanes: translated as mtl2glsl --mma-lanes */
    uint32_t threadgroup_memory[31]; /* --threadgroup-memory N=BYTES */
    const char *spec_arrays[MAX_ARGS + 1], *templates[MAX_ARGS + 1], *transposes[MAX_ARGS + 1]; /* kernel specs */
    int n_templates, n_transposes;
    bool has_init_value;
    double init_value;
} Launch;

/* The whole run: one launch (or a --pipeline file of them) and the options of the run. */
typedef struct Options {
    Launch launch;
    const char *pipeline;
    Arg outs[MAX_ARGS], checks[MAX_ARGS];
    int n_outs, n_checks;
    const char *device;
    double rtol, atol;
    uint32_t repeat;
    bool poison, validate, timestamps, list_devices, help, version, quiet, check_bounds, verbose;
    int launch_option; /* the first option of a launch on the command line (an error with --pipeline), or 0 */
} Options;

/* A loaded kernel: GLSL text, its reflection, and the name used in messages. */
typedef struct Kernel {
    char *glsl;
    char *glsl_name;
    MtlrtReflection *refl;
#ifdef MTLRUN_HAVE_TRANSLATOR
    MtlrunSpecRun spec; /* SPEC.json: its buffers until bound */
#endif
} Kernel;

/* A pipeline's named buffers (`buffer NAME = ...` lines), shared by its launches. */
typedef struct Shared {
    int n;
    char *names[MAX_ARGS];
    MtlrtArray arrays[MAX_ARGS];
    MtlrtBuffer *buffers[MAX_ARGS];
} Shared;

/* A launch ready to dispatch: kernel, pipeline with its constants set, each parameter's data bound. */
typedef struct Prepared {
    Kernel k;
    MtlrtPipeline *pipe;
    MtlrtArray arrays[MAX_ARGS]; /* per input, parallel to Launch.inputs (empty for shared buffers) */
    MtlrtBuffer *bindings[64];
    bool shared[64];             /* binding b is a shared buffer (not destroyed with the launch) */
    uint8_t push[256];
    MtlrtDispatch d;
} Prepared;

/* ---- mtlrun.c ---- */
/* Parse ARGC/ARGV (ARGV[0] ignored) into L, and into O's run options unless IN_PIPELINE (then they are errors:
   a pipeline's `run` line has only the options of its launch). False after a usage message. */
bool mtlrun_parse(int argc, char **argv, Options *o, Launch *l, bool in_pipeline, const char *where);
/* A launch's cross-option rules (a kernel, one of --grid/--threadgroups, a --threadgroup, ...). */
bool mtlrun_check_launch(const Launch *l, const char *where);
void mtlrun_launch_free(Launch *l);
bool mtlrun_has_suffix(const char *s, const char *suffix);

/* ---- mtlrun_launch.c ---- */
/* Load L's kernel (translating a .metal or spec in process), create its pipeline, set its function constants and
   bind every parameter (inputs named in SHARED use its buffers). False after a message. */
bool mtlrun_prepare(const Options *o, Launch *l, MtlrtContext *ctx, Shared *shared, Prepared *p);
void mtlrun_prepared_free(Prepared *p);
/* The input argument of parameter INDEX, or -1. */
int mtlrun_find_input(const Launch *l, uint32_t index);
/* Print "  kernel K has: 0 (x), 1 (y)" on stderr. */
void mtlrun_print_params(const MtlrtReflection *r);
/* Compare OUT (named WHAT) with the reference REF_PATH: PASS/FAIL line on stdout. */
bool mtlrun_check_array(const Options *o, const MtlrtArray *out, const char *what, const char *ref_path);
/* The array of A (an input .npy, DTYPE:SHAPE, TYPE:VALUE or raw bytes; poisoned DTYPE:SHAPE with POISON). */
bool mtlrun_load_array(const char *text, SourceKind kind, bool poison, MtlrtArray *a);

/* ---- mtlrun_pipeline.c ---- */
/* --pipeline FILE: its launches recorded into one command list, run, and its outputs written and checked. */
int mtlrun_pipeline(Options *o, MtlrtContext *ctx);

#endif
