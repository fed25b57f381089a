/* golden.h: golden-file regression tests (docs/golden-tests.md), the part of `mtltest` below its command line:
   the test file model and its loader (golden.c), data generators and value packing (golden_data.c), comparison
   with per-output tolerances (golden_compare.c) and running one test (golden_run.c). Built on mtlrt.h (and on
   mtl2glsl.h to translate the kernel). */
#ifndef GOLDEN_H
#define GOLDEN_H

#include "mtlrt.h"

#define GOLDEN_VERSION 1 /* the "mtltest" field of the files this runner reads */
#define GOLDEN_SUFFIX ".golden.json"

/* ---- the test file (golden.c) ---- */

typedef enum GoldenKernelKind {
    GOLDEN_KERNEL_FILE, /* "source": a .metal file */
    GOLDEN_KERNEL_TEXT, /* "text": Metal source inline (a compile_shader string) */
    GOLDEN_KERNEL_SPEC, /* "spec": a kernel spec, MLX metal_kernel or Core AI form (docs/specs.md) */
} GoldenKernelKind;

/* A buffer's element type: a runtime dtype, or bfloat16 kept as uint16 bits (NumPy has no bfloat16). */
typedef struct GoldenType {
    MtlrtDtype dtype; /* MTLRT_DTYPE_NONE: not given */
    bool bfloat;      /* dtype is U16 holding bfloat16 bits */
} GoldenType;

typedef enum GoldenData {
    GOLDEN_DATA_NONE,     /* no data: an output, poisoned before the run (NaN / 0xA5 bytes) */
    GOLDEN_DATA_NPY,      /* "npy": a .npy file */
    GOLDEN_DATA_BYTES,    /* "bytes": a file's raw bytes (structs) */
    GOLDEN_DATA_VALUE,    /* "value": a number, a bool or a list, packed to the parameter's type */
    GOLDEN_DATA_GENERATE, /* "generate": constant, arange, uniform, normal */
} GoldenData;

typedef enum GoldenGenerator {
    GOLDEN_GEN_CONSTANT,
    GOLDEN_GEN_ARANGE,
    GOLDEN_GEN_UNIFORM,
    GOLDEN_GEN_NORMAL
} GoldenGenerator;

typedef struct GoldenBuffer {
    char *key; /* "3" (a [[buffer(3)]] index) or a parameter's name */
    GoldenData data;
    char *path; /* npy, bytes: resolved against the test file's folder */
    GoldenType type;
    int ndim; /* -1: no shape given */
    uint64_t shape[MTLRT_MAX_DIMS];
    int n_values; /* value */
    double *values;
    bool value_is_bool;
    GoldenGenerator gen;
    double a, b;   /* constant: value; arange: start, step; uniform: low, high; normal: mean, std */
    uint64_t seed; /* uniform, normal */
} GoldenBuffer;

typedef enum GoldenTolKind { GOLDEN_TOL_DEFAULT, GOLDEN_TOL_CLOSE, GOLDEN_TOL_ULP, GOLDEN_TOL_EXACT } GoldenTolKind;

typedef struct GoldenTolerance {
    GoldenTolKind kind;
    double rtol, atol; /* CLOSE: |got - expected| <= atol + rtol * |expected| */
    uint64_t ulp;      /* ULP: at most this many representable values apart */
} GoldenTolerance;

typedef struct GoldenOutput {
    char *key;         /* as a buffer's */
    char *golden;      /* resolved path of the expected .npy */
    char *golden_text; /* as the file writes it */
    GoldenType type;   /* "dtype": bfloat16 marks uint16 goldens as bfloat16 bits */
    GoldenTolerance tol;
    bool unordered; /* compared as multisets (outputs whose order atomics decide) */
} GoldenOutput;

typedef struct GoldenConstant {
    char *key; /* [[function_constant(n)]] index or the constant's name */
    double value;
    bool is_bool;
    MtlrtDtype dtype; /* NONE: the kernel's declaration says */
} GoldenConstant;

typedef struct GoldenTest {
    char *path, *dir, *name;
    char *skip; /* "skip": the reason; the test is not run */
    GoldenKernelKind kind;
    char *source;                                /* FILE, SPEC: resolved path; TEXT: the source */
    char *entry;                                 /* FILE, TEXT: the entry point (NULL: the only one) */
    char **include_dirs, **defines, **templates; /* NULL-terminated; templates "NAME=VALUE" (specs) */
    int n_constants;
    GoldenConstant *constants;
    bool has_dispatch, threadgroups; /* dispatchThreadgroups when THREADGROUPS, else dispatchThreads */
    uint32_t size[3], threadgroup[3];
    uint32_t threadgroup_memory[31];
    bool has_init_value;
    double init_value;
    uint32_t subgroup_size; /* "subgroup_size": 0 = the device's choice */
    int n_buffers, n_outputs;
    GoldenBuffer *buffers;
    GoldenOutput *outputs;
} GoldenTest;

/* Read and check test file PATH into T. False after printing `PATH: error: FIELD: message` to ERR; T is then
   freed. */
bool golden_load(const char *path, GoldenTest *t, FILE *err);
void golden_free(GoldenTest *t);
/* The test's name from its file name: "dir/axpy.golden.json" -> "axpy" (malloc'd). */
char *golden_name_from_path(const char *path);

/* ---- data (golden_data.c) ---- */

/* "float32", "half", "bfloat16", ... -> type; false if unknown. */
bool golden_type_from_name(const char *name, GoldenType *type);
const char *golden_type_name(GoldenType type);
/* Fill A (allocated: dtype and shape set) with generator B's values (docs/golden-tests.md, "Generators"). */
void golden_generate(const GoldenBuffer *b, MtlrtArray *a, bool bfloat);
/* Whether every value generator B makes fits its integer dtype (floats always do); else WHY says what. */
bool golden_generator_fits(const GoldenBuffer *b, char *why, size_t size);
/* Element I of A as a number (bfloat16 bits converted when BFLOAT). */
long double golden_get(const MtlrtArray *a, bool bfloat, uint64_t i);
/* Store V in element I, rounded to the dtype (floats via float32 for half and bfloat16, integers truncated). */
void golden_set(MtlrtArray *a, bool bfloat, uint64_t i, double v);
/* Pack value(s) V (N of them) as Metal type TYPE with scalar SCALAR ("float", "uint", "bool", "bfloat", ...):
   3-vectors padded to 4 elements; integers must fit. False after a message naming WHAT. */
bool golden_pack_values(const double *v, int n, const char *type, const char *scalar, const char *what, MtlrtArray *a,
                        FILE *err);
uint16_t golden_float_to_bfloat(float f);
uint16_t golden_float_to_half(float f);

/* ---- comparison (golden_compare.c) ---- */

typedef struct GoldenCompareResult {
    uint64_t count, over; /* elements compared, elements outside the tolerance */
    double max_abs, max_rel;
    uint64_t max_abs_index, max_rel_index;
    uint64_t max_ulp;
} GoldenCompareResult;

/* The tolerance an output of TYPE gets when its file gives none (docs/golden-tests.md). */
GoldenTolerance golden_default_tolerance(GoldenType type);
/* Compare GOT (the output as read back) with EXPECTED (the golden) under O's tolerance; the first MAX_REPORT
   elements over it, the error maxima and the count go to REPORT. True when every element passes. */
bool golden_compare(const MtlrtArray *got, const MtlrtArray *expected, const GoldenOutput *o, GoldenType type,
                    int max_report, FILE *report, GoldenCompareResult *res);

/* ---- running a test (golden_run.c) ---- */

typedef enum GoldenStatus {
    GOLDEN_PASS,
    GOLDEN_FAIL,    /* an output differs from its golden, or the validation layer spoke */
    GOLDEN_SKIP,    /* the file says so, or the device lacks what the kernel needs */
    GOLDEN_ERROR,   /* the test cannot run: a bad file, a missing golden, a translation error, ... */
    GOLDEN_UPDATED, /* --update rewrote (or recorded) at least one golden; the rest passed */
} GoldenStatus;

typedef struct GoldenRunOptions {
    const char *device;
    bool validate;
    uint32_t subgroup_size; /* overrides the file's; 0: the file's, else the device's choice */
    bool virtual_subgroups;
    int tensor_cores;  /* --tensor-cores=auto|on|off: MtlrunTensorCores (mtlrun_spec.h; 0: auto) */
    bool mma_lanes;    /* --mma-lanes */
    bool update;       /* rewrite goldens the outputs differ from */
    bool write_actual; /* write the actual output beside a golden that fails: y.npy -> y.actual.npy,
                          y.golden.npy -> y.actual.npy */
    int max_report;
    bool verbose; /* report passing outputs' error maxima too */
} GoldenRunOptions;

/* Run test T on a new context (GoldenStatus says what the result means). What went wrong goes to REPORT, as the
   runtime's and the translator's messages do. */
GoldenStatus golden_run(const GoldenTest *t, const GoldenRunOptions *opt, FILE *report);

#endif
