/* mtl2glsl.h: the translator as a library (used by the mtl2glsl command and by mtlrun). */
#ifndef MTL2GLSL_H
#define MTL2GLSL_H

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MTL2GLSL_VERSION "0.1.0"

typedef struct M2gOptions {
    const char *const *include_dirs; /* -I, NULL-terminated or NULL */
    const char *const *defines;      /* -D NAME or NAME=VALUE, NULL-terminated or NULL */
    const char *grammar_dir;         /* directory holding metal_stdlib; NULL: built-in default */
    const char *only_entry;          /* translate only this entry point; NULL: all */
    FILE *diag;                      /* where diagnostics go; NULL: stderr */
    int subgroup_size;               /* device subgroup size SIMD-group functions are built for: 4, 8, 16, 32
                                        (native), 64 or 128; 0: 32 (docs/translator.md, "SIMD-group width") */
    bool virtual_subgroups;          /* build subgroup operations from shared memory and barriers instead of the
                                        device's: runs any width on any device (for tests) */
    const char *const *sources;      /* texts diagnostics quote for names that are no files (`#line` names of a
                                        generated source): NAME, TEXT, NAME, TEXT, ..., NULL; or NULL */
    int metal_version;               /* __METAL_VERSION__ the source sees: 300, 310, 320 or 400 (-std=metal3.0 ...
                                        metal4.0); 0: M2G_DEFAULT_METAL_VERSION */
    bool list_only;                  /* find the entry points only: entries get names, no GLSL; bodies not compiled */
    bool syntax_only;                /* compile every body as the front end does, report clang's errors, no GLSL */
    bool check_bounds;               /* check every buffer and threadgroup-array index: the first out-of-range
                                        access of each is recorded for the runtime to report ("bounds_check" in
                                        the reflection; docs/runtime.md) */
    bool push_constant_words;        /* 8- and 16-bit `constant T&` scalars (uchar, short, half, bfloat, bool) are
                                        read from 32-bit push-constant words: no storagePushConstant8/16 needed
                                        (default: 8- and 16-bit push-constant members, which need them) */
    bool fast_math;                  /* -ffast-math: let the Vulkan compiler reassociate and contract floating-point
                                        arithmetic. Default (false, Metal's -fno-fast-math and MTLMathModeSafe):
                                        every variable, buffer, shared array and return value holding floats is
                                        declared `precise`, so sums are evaluated as written and rounded per
                                        operation (MLX's expm1f and erf, compensated sums) */
    bool tensor_cores;               /* SIMD-group matrix products on tensor cores (VK_NV_cooperative_matrix,
                                        16x8x8 f16 into f32) wherever their operands are exact in half; only for
                                        native 32-wide subgroups (subgroup_size 32, not virtual). Lanes are renamed
                                        so that Apple's matrix layout is the tensor cores' (docs/translator.md,
                                        "Tensor cores"); the reflection says which path a kernel took */
    bool mma_lanes;                  /* rename lanes as tensor_cores does but keep the exact products: the renaming
                                        of every SIMD-group function, tested on any device */
} M2gOptions;

#define M2G_DEFAULT_METAL_VERSION 320 /* -std=metal3.2 */

typedef struct M2gEntry {
    const char *name;         /* Metal entry point name (host name) */
    const char *glsl;         /* GLSL 450 compute source, NULL if translation failed */
    const char *reflect_json; /* reflection object (docs/interfaces.md), NULL if failed */
} M2gEntry;

typedef struct M2gResult {
    int n_entries;
    M2gEntry *entries;
    int n_errors;     /* diagnostics of severity error printed */
    bool parse_failed; /* the source could not be parsed at all */
    int n_includes;
    char **includes;   /* every file the parse read: the source, its headers, the prelude (for depfiles) */
} M2gResult;

/* Parse PATH and translate its entry points. Diagnostics are printed as they are found.
   Returns NULL only when out of memory. */
M2gResult *m2g_translate_file(const char *path, const M2gOptions *opt);
/* The same for source TEXT in memory, named PATH in diagnostics. */
M2gResult *m2g_translate_source(const char *path, const char *text, const M2gOptions *opt);
void m2g_result_free(M2gResult *r);

/* The directory of Metal prelude headers found at run time (installed or build tree). */
const char *m2g_default_grammar_dir(void);

/* ---- body-only kernels (spec.c, docs/specs.md) ----
   A JSON spec holds a kernel body and what MLX's mx.fast.metal_kernel or Core AI's TorchMetalKernel is told about
   it, plus one call (inputs, template args, outputs, grid, threadgroup). m2g_spec_load writes the Metal source
   those libraries would build around the body; m2g_translate_spec translates it. */
#define M2G_SPEC_MAX_ARRAYS 16
#define M2G_SPEC_MAX_DIMS 8

typedef struct M2gSpecArray {
    const char *name;
    const char *dtype;                    /* NumPy name: float32, float16, int32, uint8, ... */
    int ndim;                             /* 0: a 0-d array (MLX: `const constant T&`) */
    long long shape[M2G_SPEC_MAX_DIMS];   /* the array as the kernel sees it (after any transpose) */
    long long strides[M2G_SPEC_MAX_DIMS]; /* element strides over the data as bound (MLX's NAME_strides) */
    long long count;                      /* elements */
    int perm[M2G_SPEC_MAX_DIMS];          /* the input is FILE's array transposed by perm (a strided view) */
    bool transposed;
    bool copy_contiguous;                 /* MLX ensure_row_contiguous and a transposed input: copy first */
    const char *file;                     /* .npy data; NULL: zero-filled (outputs: poisoned or init_value) */
    int buffer;                           /* [[buffer(n)]] of the data */
    int shape_buffer, strides_buffer, ndim_buffer; /* MLX NAME_shape / NAME_strides / NAME_ndim; -1: absent */
    int extents_buffer;                   /* Core AI NAME_extents (get_extent, A[i, j]); -1: absent */
} M2gSpecArray;

typedef struct M2gSpec {
    bool coreai;                          /* Core AI TorchMetalKernel form; else MLX metal_kernel */
    const char *path;                     /* the spec file */
    const char *entry;                    /* the kernel's name (MLX: custom_kernel_NAME[_TEMPLATE_ARGS]) */
    char *source;                         /* the Metal source built around the body */
    int n_inputs, n_outputs;
    M2gSpecArray inputs[M2G_SPEC_MAX_ARRAYS], outputs[M2G_SPEC_MAX_ARRAYS];
    bool atomic_outputs, has_init_value;
    double init_value;                    /* every output is filled with it before the run */
    unsigned grid[3], threadgroup[3];     /* dispatchThreads (0: not given); threadgroup clamped to the grid (MLX) */
    const char *sources[7];               /* the parts diagnostics quote: "PATH(source)", body, ..., NULL */
    void *priv;
} M2gSpec;

/* Command-line additions to a spec's "call" (NULL-terminated lists, or NULL). */
typedef struct M2gSpecArgs {
    const char *const *arrays;    /* "NAME=FILE.npy" or "NAME=DTYPE:D0xD1..." for an input or an output */
    const char *const *templates; /* "NAME=VALUE": a dtype name, an integer, true or false */
    const char *const *transposes; /* "NAME=P0,P1,...": input NAME is its file's array transposed (a strided view) */
    unsigned grid[3], threadgroup[3]; /* all 0: from the spec */
    bool has_init_value;
    double init_value;
} M2gSpecArgs;

/* Read spec PATH (and ARGS) and build its Metal source. NULL after printing `PATH: error: ...` naming the field. */
M2gSpec *m2g_spec_load(const char *path, const M2gSpecArgs *args, FILE *diag);
/* Translate the spec's source; diagnostics in the body point at `PATH(source):LINE:COL`. */
M2gResult *m2g_translate_spec(const M2gSpec *spec, const M2gOptions *opt);
void m2g_spec_free(M2gSpec *spec);
/* True when PATH names a spec (ends in .json). */
bool m2g_is_spec_path(const char *path);

#ifdef __cplusplus
}
#endif

#endif
