/* mtlrun_spec.h: mtlrun's side of body-only kernel specs (SPEC.json, docs/specs.md): translate the spec and make
   the buffers MLX or Core AI would bind for its call. */
#ifndef MTLRUN_SPEC_H
#define MTLRUN_SPEC_H

#include "mtlrt.h"

#define MTLRUN_SPEC_MAX_BUFFERS 64

typedef struct MtlrunSpecArgs {
    const char *const *arrays;    /* "NAME=FILE.npy" | "NAME=DTYPE:SHAPE" (NULL-terminated) */
    const char *const *templates; /* "NAME=VALUE" */
    const char *const *transposes; /* "NAME=P0,P1,..." */
    uint32_t grid[3], threadgroup[3]; /* 0: the spec's */
    bool has_init_value;
    double init_value;
    bool poison;                  /* outputs without init_value: NaN / 0xA5 instead of zeros */
    uint32_t subgroup_size;       /* 0: the device's choice */
    bool virtual_subgroups;
    const char *const *includes, *const *defines;
    bool tensor_cores, mma_lanes; /* M2gOptions' (tensor_cores as mtlrun_tensor_cores decided it) */
} MtlrunSpecArgs;

typedef struct MtlrunSpecRun {
    char *glsl, *glsl_name;
    MtlrtReflection *refl;
    uint32_t grid[3], threadgroup[3]; /* dispatchThreads; the threadgroup clamped to the grid */
    int n_buffers;
    uint32_t index[MTLRUN_SPEC_MAX_BUFFERS];   /* [[buffer(n)]] */
    MtlrtArray arrays[MTLRUN_SPEC_MAX_BUFFERS]; /* its contents (taken over by the caller, or freed below) */
} MtlrunSpecRun;

/* Load spec PATH, translate it for CTX's device and build every buffer of the call: inputs (copied row-contiguous
   when MLX's ensure_row_contiguous asks), NAME_shape / NAME_strides / NAME_ndim / NAME_extents, and outputs
   (init_value, poison or zeros). False after a message. */
bool mtlrun_spec_prepare(const char *path, const MtlrunSpecArgs *args, const MtlrtContext *ctx, MtlrunSpecRun *out);
void mtlrun_spec_run_free(MtlrunSpecRun *r);

/* --tensor-cores=auto|on|off (mtlrun, mtltest). */
typedef enum MtlrunTensorCores {
    MTLRUN_TENSOR_CORES_AUTO,
    MTLRUN_TENSOR_CORES_ON,
    MTLRUN_TENSOR_CORES_OFF
} MtlrunTensorCores;
/* "auto", "on" or "off" -> *MODE; false for anything else. */
bool mtlrun_tensor_cores_mode(const char *text, MtlrunTensorCores *mode);
/* M2gOptions.tensor_cores for a kernel translated for SUBGROUP_SIZE-wide subgroups (0: the device's choice) and
   VIRTUAL_SUBGROUPS on CTX: auto: true where mtlrt_context_tensor_cores says yes and the kernel is translated for
   native 32-wide subgroups; on: the same, else false with the reason in *WHY (returns false); off: false. */
bool mtlrun_tensor_cores(MtlrtContext *ctx, MtlrunTensorCores mode, uint32_t subgroup_size, bool virtual_subgroups,
                         bool *use, const char **why);

#endif
