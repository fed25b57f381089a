/* mtlrt.h: the mtl2glsl runtime. Runs a translated compute kernel (GLSL + reflection JSON, docs/interfaces.md)
   on a Vulkan device with Metal's dispatch semantics, and reads/writes/compares .npy arrays.

   Errors: a function returning bool returns false (a constructor NULL) and records a status and a message for
   the calling thread (mtlrt_last_status, mtlrt_last_error); nothing aborts and nothing is printed unless a log
   callback is set (mtlrt_set_log_callback, or mtlrt_set_diag to print to a FILE). Every create has a destroy that
   accepts NULL.

   Threads: contexts are independent; different threads may use different contexts at once. A context and the
   objects made from it (buffers, pipelines, command lists) are externally synchronized: one thread at a time, as
   for a VkQueue. The last error is per thread. Set the log callback before creating contexts; it is called on the
   thread that makes the call that logs (validation messages: the thread in the Vulkan call).
   Vulkan interop (adopting an application's instance/device/queue, a buffer's VkBuffer): mtlrt_vulkan.h. */
#ifndef MTLRT_H
#define MTLRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MTLRT_VERSION "0.1.0"
const char *mtlrt_version(void);

/* ---- status, messages and the log (context.c) ---- */

typedef enum MtlrtStatus {
    MTLRT_OK = 0,
    MTLRT_NOT_READY = 1,              /* mtlrt_commands_wait: not finished within the timeout (not an error) */
    MTLRT_ERROR_INVALID_ARGUMENT = -1, /* a bad value: sizes, indices, types, a malformed file or launch */
    MTLRT_ERROR_UNSUPPORTED = -2,     /* the device (or the runtime) lacks what the kernel or call needs */
    MTLRT_ERROR_OUT_OF_MEMORY = -3,   /* host or device memory */
    MTLRT_ERROR_IO = -4,              /* a file could not be read or written */
    MTLRT_ERROR_COMPILE = -5,         /* GLSL did not compile, or the SPIR-V disagrees with the reflection */
    MTLRT_ERROR_VULKAN = -6,          /* a Vulkan call failed (the message names it and its VkResult) */
    MTLRT_ERROR_TIMEOUT = -7,         /* the GPU work did not finish within the runtime's limit */
    MTLRT_ERROR_DEVICE_LOST = -8,
    MTLRT_ERROR_OUT_OF_BOUNDS = -9,   /* a kernel translated with check_bounds accessed outside a buffer */
} MtlrtStatus;

/* The status and message of the last call that failed on this thread (MTLRT_OK and "" when none has). A
   successful call leaves them as they were; mtlrt_clear_error resets them. */
MtlrtStatus mtlrt_last_status(void);
const char *mtlrt_last_error(void);
void mtlrt_clear_error(void);
const char *mtlrt_status_name(MtlrtStatus status); /* "MTLRT_ERROR_UNSUPPORTED" */

typedef enum MtlrtLogLevel {
    MTLRT_LOG_ERROR,      /* the message of a failing call (also kept as mtlrt_last_error) */
    MTLRT_LOG_WARNING,    /* a launch that runs but looks wrong (grid larger than the buffers, short inputs) */
    MTLRT_LOG_INFO,       /* the chosen device */
    MTLRT_LOG_VALIDATION, /* a message of the Vulkan validation layer ("validation error: ...") */
} MtlrtLogLevel;

/* Every message goes to FN (NULL: none; the default). */
typedef void (*MtlrtLogFn)(MtlrtLogLevel level, const char *message, void *user);
void mtlrt_set_log_callback(MtlrtLogFn fn, void *user);
/* A built-in log callback that prints to FILE (NULL: stderr) as "PREFIX: error: ...", "PREFIX: warning: ..." and
   "PREFIX: ..." (default prefix "mtlrt"). */
void mtlrt_set_diag(FILE *file, const char *prefix);

/* ---- arrays and .npy files (npy.c) ---- */

typedef enum MtlrtDtype {
#define DTYPE(e, descr, name, metal, size, kind) MTLRT_DTYPE_##e,
#include "dtype.def"
#undef DTYPE
    MTLRT_DTYPE_COUNT,
    MTLRT_DTYPE_NONE = -1
} MtlrtDtype;

#define MTLRT_MAX_DIMS 8

/* A dense C-order array; data is owned (malloc) by the array. */
typedef struct MtlrtArray {
    MtlrtDtype dtype;
    int ndim; /* 0 for a scalar */
    uint64_t shape[MTLRT_MAX_DIMS];
    uint64_t count; /* number of elements */
    size_t nbytes;
    void *data;
} MtlrtArray;

/* "float32", "f4", "<f4", "|u1", or a Metal scalar name ("float", "uint", "half") -> dtype; NONE if unknown. */
MtlrtDtype mtlrt_dtype_from_name(const char *name);
const char *mtlrt_dtype_name(MtlrtDtype dtype); /* numpy name: "float32" */
size_t mtlrt_dtype_size(MtlrtDtype dtype);
char mtlrt_dtype_kind(MtlrtDtype dtype); /* 'f', 'i', 'u', 'b' or 'c' (complex) */

/* Allocate a zero-filled array of SHAPE (NDIM dims). */
bool mtlrt_array_alloc(MtlrtArray *a, MtlrtDtype dtype, int ndim, const uint64_t *shape);
void mtlrt_array_free(MtlrtArray *a);
/* Fill with NaN (float dtypes) or 0xA5 bytes (others). */
void mtlrt_array_poison(MtlrtArray *a);
/* Element I as a double (half and bool converted); long double keeps 64-bit integers exact. */
long double mtlrt_array_get(const MtlrtArray *a, uint64_t i);
/* "float32:64x64" or "f4:1000" -> zero-filled array. */
bool mtlrt_array_from_spec(const char *spec, MtlrtArray *a);
/* "float:2.5", "uint:7", "half:0.1", "bool:true" -> 0-d array holding that value (range-checked). */
bool mtlrt_array_from_scalar(const char *spec, MtlrtArray *a);
/* TEXT ("2.5", "1000", "0xff", "true") read as a value of DTYPE (floats rounded to it, integers range-checked). */
bool mtlrt_array_from_value(const char *text, MtlrtDtype dtype, MtlrtArray *a);
/* IN converted to dtype TO when every element is exactly representable there (int32 1000 -> uint32, float 2.5 ->
   half); an error naming the first element that is not (float 0.1 -> half, -1 -> uint). bool and numbers never
   convert into each other, nor complex and real. OUT is allocated. */
bool mtlrt_array_convert_exact(const MtlrtArray *in, MtlrtDtype to, MtlrtArray *out);
/* Read the raw bytes of PATH as a 1-d uint8 array. */
bool mtlrt_array_from_raw_file(const char *path, MtlrtArray *a);

/* Read PATH (.npy format 1.0/2.0/3.0, little-endian, C order) into A. */
bool mtlrt_npy_read(const char *path, MtlrtArray *a);
/* Write A to PATH as .npy format 1.0. */
bool mtlrt_npy_write(const char *path, const MtlrtArray *a);

/* ---- comparison (compare.c) ---- */

typedef struct MtlrtCompareOptions {
    double rtol; /* negative: the dtype's default (mtlrt_compare_default_tolerance) */
    double atol; /* negative: the dtype's default */
    int max_report; /* mismatches printed in detail */
} MtlrtCompareOptions;

typedef struct MtlrtCompareResult {
    uint64_t count;      /* elements compared */
    uint64_t mismatches; /* elements outside tolerance, NaN mismatches included */
    uint64_t nan_mismatches;
    double max_abs_err;
    uint64_t max_abs_err_index;
} MtlrtCompareResult;

/* Default tolerance for a dtype: f2 1e-3/1e-3, f4 1e-5/1e-6, f8 1e-12/1e-12, integers and bool exact. */
void mtlrt_compare_default_tolerance(MtlrtDtype dtype, double *rtol, double *atol);
/* Compare OUT with REF element by element: |out - ref| <= atol + rtol * |ref|; NaN must meet NaN, infinities
   must be equal. Mismatch details go to REPORT (may be NULL). Returns true when every element passes. */
bool mtlrt_compare(const MtlrtArray *out, const MtlrtArray *ref, const MtlrtCompareOptions *opt, FILE *report,
                   MtlrtCompareResult *result);

/* ---- reflection (reflect.c) ---- */

typedef enum MtlrtParamKind { MTLRT_PARAM_STORAGE, MTLRT_PARAM_PUSH_CONSTANT } MtlrtParamKind;

/* Where an argument buffer (a struct in a buffer with pointer members, docs/interfaces.md "addresses") holds device
   addresses: COUNT of them, 8 bytes apart, from byte OFFSET. The host writes each one (mtlrt_buffer_device_address). */
typedef struct MtlrtAddressField {
    char *member;    /* "params", "inner.data", "rows[2].p" */
    uint32_t offset; /* bytes from the start of the parameter's struct */
    uint32_t count;
    char *type;      /* what they point to: "float" */
} MtlrtAddressField;

/* One kernel parameter with a [[buffer(n)]] index, as docs/interfaces.md describes. */
typedef struct MtlrtParam {
    uint32_t index;
    char *name;
    MtlrtParamKind kind;
    uint32_t binding; /* kind STORAGE */
    uint32_t address_offset; /* kind STORAGE: push-constant offset of the buffer's device address (0: none) */
    uint32_t offset;  /* kind PUSH_CONSTANT */
    uint32_t size;    /* kind PUSH_CONSTANT */
    char *type;       /* "float", "half4", "Params" */
    char *scalar;     /* "float", ..., "struct" */
    uint32_t element_size;
    char *address_space; /* "device", "constant" */
    bool pointer;
    char *access; /* "read", "write", "read_write" */
    char *function_constant; /* kind STORAGE: the bool function constant the parameter exists under
                                (`[[buffer(n), function_constant(NAME)]]`): when it is not true and no buffer
                                is bound, the runtime binds a placeholder; NULL: always there */
    MtlrtAddressField *addresses; /* kind STORAGE: an argument buffer's address fields (n_addresses; NULL: none) */
    uint32_t n_addresses;
} MtlrtParam;

typedef enum MtlrtTgPerThread { MTLRT_TG_PER_THREAD_NONE, MTLRT_TG_PER_THREAD_X, MTLRT_TG_PER_THREAD_INDEX } MtlrtTgPerThread;

/* A `threadgroup T* p [[threadgroup(n)]]` parameter: shared memory whose size the host sets at dispatch. */
typedef struct MtlrtThreadgroupParam {
    uint32_t index;
    char *name;
    char *type;
    uint32_t element_size;
    /* What the kernel is proven to need (reflection "min_elements", "min_per_thread"): at least min_elements
       elements, and one per thread of a threadgroup when it is indexed by the thread's position in it
       (MTLRT_TG_PER_THREAD_X: thread_position_in_threadgroup.x; _INDEX: thread_index_in_threadgroup). */
    uint32_t min_elements;
    MtlrtTgPerThread min_per_thread;
} MtlrtThreadgroupParam;

/* A `constant T name [[function_constant(index)]]` the kernel reads: specialization constants constant_id (the
   value) and defined_constant_id (whether it was set), numbered per shader (docs/interfaces.md). */
typedef struct MtlrtFunctionConstant {
    uint32_t index;
    char *name;
    char *type; /* Metal scalar: bool, char, uchar, short, ushort, int, uint, half, float */
    uint32_t constant_id, defined_constant_id;
} MtlrtFunctionConstant;

/* Subgroup operations a shader uses (reflection "simd.operations"); VkSubgroupFeatureFlagBits values. */
typedef enum MtlrtSubgroupOp {
    MTLRT_SUBGROUP_BASIC = 1, MTLRT_SUBGROUP_VOTE = 2, MTLRT_SUBGROUP_ARITHMETIC = 4, MTLRT_SUBGROUP_BALLOT = 8,
    MTLRT_SUBGROUP_SHUFFLE = 16, MTLRT_SUBGROUP_SHUFFLE_RELATIVE = 32, MTLRT_SUBGROUP_CLUSTERED = 64,
    MTLRT_SUBGROUP_QUAD = 128
} MtlrtSubgroupOp;

/* An array a kernel translated with check_bounds checks (reflection "bounds_check.slots"): a storage buffer's array
   (a view of it when its type differs from the parameter's) or a threadgroup array. */
typedef struct MtlrtBoundsSlot {
    char *array;          /* its GLSL name */
    char *type;           /* its GLSL element type */
    int32_t binding;      /* storage: its binding; -1 for threadgroup arrays */
    int32_t threadgroup;  /* a [[threadgroup(n)]] parameter: n; else -1 */
} MtlrtBoundsSlot;

typedef struct MtlrtReflection {
    char *entry;
    uint32_t max_total_threads; /* 0: not given */
    uint32_t push_constant_size;
    uint32_t n_params;
    MtlrtParam *params;
    uint32_t n_features;
    char **features;
    /* barriers and SIMD-group functions (docs/interfaces.md) */
    bool exact_threadgroups;  /* partial threadgroups are dispatched as smaller workgroups */
    uint32_t n_threadgroup_params;
    MtlrtThreadgroupParam *threadgroup_params;
    uint32_t threadgroup_memory; /* bytes of the body's threadgroup variables (Metal layout) */
    uint32_t subgroup_size;      /* 0: no SIMD-group functions; else the subgroup size the shader was built for */
    bool virtual_subgroups;      /* subgroups are built in shared memory: any device runs it */
    uint32_t subgroup_ops;       /* MtlrtSubgroupOp bits the shader needs from the device */
    uint32_t n_function_constants;
    MtlrtFunctionConstant *function_constants;
    char *source;                /* the Metal source it was translated from ("" when not given) */
    bool bounds_check;           /* translated with check_bounds: the record below is bound and reported */
    uint32_t bounds_binding;     /* the record's storage binding */
    uint32_t n_bounds_slots;
    MtlrtBoundsSlot *bounds_slots;
    uint32_t n_bounds_locations;
    char **bounds_locations;     /* "file:line" of each checked statement */
    bool mma_lanes;              /* simd.lanes "mma": lanes renamed as tensor cores need (mtl2glsl --mma-lanes or
                                    --tensor-cores) */
    bool tensor_cores;           /* simd.matrix_products "tensor_cores": SIMD-group matrix products run on
                                    VK_NV_cooperative_matrix (mtlrt_context_tensor_cores must say yes) */
} MtlrtReflection;

/* Parse reflection JSON: one object, or an array of objects from which the one named ENTRY (or the only one,
   when ENTRY is NULL) is taken. SOURCE names the text in messages. NULL on error. */
MtlrtReflection *mtlrt_reflection_parse(const char *json, const char *entry, const char *source);
void mtlrt_reflection_destroy(MtlrtReflection *r);
/* The parameter with buffer index INDEX, or NULL. */
const MtlrtParam *mtlrt_reflection_param(const MtlrtReflection *r, uint32_t index);
/* Check that array A (read from WHAT) may back parameter P: its dtype matches P's scalar and its byte size is a
   multiple of P's element size. Prints e.g. "buffer 1 (y): expected float32 data for `device float*`,
   got int32 from y.npy". */
bool mtlrt_param_accepts(const MtlrtParam *p, const MtlrtArray *a, const char *what);

/* ---- context (context.c) ---- */

typedef struct MtlrtContext MtlrtContext;

/* The device's subgroups, for compute shaders. */
typedef struct MtlrtSubgroupInfo {
    uint32_t size;                 /* default subgroup size */
    uint32_t min_size, max_size;   /* sizes a pipeline can require (VK_EXT_subgroup_size_control); both = size without it */
    bool size_control;             /* a compute pipeline can require a size in [min_size, max_size] */
    bool full_subgroups;           /* computeFullSubgroups */
    uint32_t operations;           /* MtlrtSubgroupOp bits supported in compute shaders (0: none) */
} MtlrtSubgroupInfo;

typedef struct MtlrtContextOptions {
    const char *device; /* name substring (case-insensitive) or index; NULL: env MTL2GLSL_DEVICE, then by type */
    bool validate;      /* VK_LAYER_KHRONOS_validation + debug messenger */
    bool quiet;         /* do not print the chosen device */
} MtlrtContextOptions;

/* Create instance, choose a physical device (discrete > integrated > virtual > CPU unless asked), create a
   device with one compute queue and every supported feature of features.def enabled. NULL on error. */
MtlrtContext *mtlrt_context_create(const MtlrtContextOptions *opt);
void mtlrt_context_destroy(MtlrtContext *ctx);
const char *mtlrt_context_device_name(const MtlrtContext *ctx);
/* Validation warnings and errors seen so far (0 when validation is off). */
uint32_t mtlrt_context_validation_messages(const MtlrtContext *ctx);
/* Print every physical device as "INDEX: NAME (TYPE, Vulkan X.Y)" to OUT. */
bool mtlrt_list_devices(FILE *out);
const MtlrtSubgroupInfo *mtlrt_context_subgroup_info(const MtlrtContext *ctx);
/* The subgroup size to translate SIMD-group functions for on this device: 32 when 32-wide subgroups can run
   (natively or by requiring them), else the device's own size (wider: 32-lane clusters; narrower: emulated). */
uint32_t mtlrt_context_simd_subgroup_size(const MtlrtContext *ctx);
/* Whether the device lacks storagePushConstant8 or storagePushConstant16: kernels are then translated with
   M2gOptions.push_constant_words (8/16-bit constant-reference scalars read from 32-bit push-constant words). */
bool mtlrt_context_push_constant_words(const MtlrtContext *ctx);
/* Whether kernels translated with M2gOptions.tensor_cores (mtl2glsl --tensor-cores) run on this context: the
   cooperativeMatrix feature is enabled, VK_NV_cooperative_matrix has the 16x8x8 f16 * f16 + f32 -> f32 subgroup
   shape, SIMD-groups are native 32-wide subgroups (whole ones), and a probe shader finds the coop-matrix elements
   in the order of mma.sync m16n8k8's fragments, which the translated GLSL relies on (docs/runtime.md, "Tensor
   cores"). The probe runs once per context, on the first call. When not, *WHY (may be NULL) is the reason (valid
   while the context lives); a probe that cannot run is a "no" with its error as the reason. */
bool mtlrt_context_tensor_cores(MtlrtContext *ctx, const char **why);

/* ---- buffers (buffer.c) ---- */

typedef struct MtlrtBuffer MtlrtBuffer;

typedef enum MtlrtBufferFlags {
    MTLRT_BUFFER_DEFAULT = 0,      /* device-local memory; the host reaches it through staging copies */
    MTLRT_BUFFER_HOST_VISIBLE = 1, /* memory the host can map (mtlrt_buffer_map): device-local where the device
                                      has such memory (resizable BAR, integrated and CPU devices), else host memory */
} MtlrtBufferFlags;

/* A storage buffer of SIZE bytes (at least 4 are allocated) in device-local memory, zero filled. NULL on error. */
MtlrtBuffer *mtlrt_buffer_create(MtlrtContext *ctx, size_t size);
/* The same with FLAGS (MtlrtBufferFlags). */
MtlrtBuffer *mtlrt_buffer_create_flags(MtlrtContext *ctx, size_t size, uint32_t flags);
void mtlrt_buffer_destroy(MtlrtBuffer *buf);
size_t mtlrt_buffer_size(const MtlrtBuffer *buf);
/* BUF's 64-bit device address into *ADDR, for the host to write into an argument buffer (a kernel's pointers held
   in a struct in a buffer: reflection "addresses"); false (MTLRT_ERROR_UNSUPPORTED) on a device without
   bufferDeviceAddress. Kernels that read addresses from buffers reach memory the runtime cannot see: each such
   dispatch in a command list is ordered after everything before it and before everything after it. */
bool mtlrt_buffer_device_address(const MtlrtBuffer *buf, uint64_t *addr);
/* Copy SIZE bytes (at most the buffer size) to / from the start of the buffer. Both wait for work submitted
   earlier on the context, so a read sees what earlier dispatches wrote. Memory the host can read quickly
   (host-cached: CPU and integrated devices) is copied directly; other memory through a staging buffer in
   host-cached memory and a GPU copy, in chunks that overlap. */
bool mtlrt_buffer_write(MtlrtBuffer *buf, const void *data, size_t size);
bool mtlrt_buffer_read(MtlrtBuffer *buf, void *data, size_t size);
/* The same at byte OFFSET of the buffer. */
bool mtlrt_buffer_write_at(MtlrtBuffer *buf, size_t offset, const void *data, size_t size);
bool mtlrt_buffer_read_at(MtlrtBuffer *buf, size_t offset, void *data, size_t size);
/* The buffer's memory mapped for the host (coherent: no flush needed), or NULL (MTLRT_ERROR_UNSUPPORTED) when
   it is not host-visible. Valid until the buffer is destroyed. The host must not touch it while submitted work
   uses the buffer (wait for it first). */
void *mtlrt_buffer_map(MtlrtBuffer *buf);
/* Whether the buffer can be mapped. */
bool mtlrt_buffer_host_visible(const MtlrtBuffer *buf);

/* ---- pipelines (pipeline.c) ---- */

typedef struct MtlrtPipeline MtlrtPipeline;

/* Compile GLSL (NAME used in messages) to SPIR-V, cross-check it against REFL (bindings, push-constant size,
   local size from specialization constants 0,1,2) and check REFL's features against the device. REFL must
   outlive the pipeline. Compute pipelines are created per threadgroup size on first use. NULL on error. */
MtlrtPipeline *mtlrt_pipeline_create(MtlrtContext *ctx, const char *glsl, const char *name,
                                     const MtlrtReflection *refl);
/* The same from SPIR-V words (CODE, SIZE bytes, e.g. embedded by `mtl2glsl --emit=c`) instead of GLSL: nothing is
   compiled; the cross-checks against REFL are the same. CODE may be freed after the call. */
MtlrtPipeline *mtlrt_pipeline_create_spirv(MtlrtContext *ctx, const uint32_t *code, size_t size, const char *name,
                                           const MtlrtReflection *refl);
void mtlrt_pipeline_destroy(MtlrtPipeline *pipe);
/* Set Metal function constant INDEX ([[function_constant(INDEX)]]) to VALUE and mark it defined; before the first
   dispatch. VALUE is a 0-d array converted exactly to the declared type (bool, char, uchar, short, ushort, int,
   uint, half or float: int32 1 for a float constant is 1.0f; float 0.5 for an int constant, 300 for a uchar one,
   or any number for a bool one, is an error, as is an INDEX the kernel does not declare). Constants not set keep
   the shader's default (false / 0) and is_function_constant_defined() is false for them. */
bool mtlrt_pipeline_set_function_constant(MtlrtPipeline *pipe, uint32_t index, const MtlrtArray *value);

/* ---- dispatch (dispatch.c) ---- */

typedef enum MtlrtDispatchStyle {
    MTLRT_DISPATCH_THREADS,      /* dispatchThreads: size = threads per grid, any size */
    MTLRT_DISPATCH_THREADGROUPS, /* dispatchThreadgroups: size = threadgroups per grid */
} MtlrtDispatchStyle;

typedef struct MtlrtDispatch {
    MtlrtDispatchStyle style;
    uint32_t size[3];
    uint32_t threadgroup[3];
    MtlrtBuffer *const *bindings; /* bindings[b]: buffer at set 0 binding b, NULL where none */
    uint32_t n_bindings;
    const void *push_data; /* push-constant bytes (bytes 0..15 are replaced by the dispatch block) */
    uint32_t push_size;
    uint32_t repeat;  /* runs; 0 means 1. Written buffers are restored before each run after the first */
    bool timestamps;  /* measure GPU time of each run */
    uint32_t threadgroup_memory[31]; /* bytes of each [[threadgroup(n)]] parameter (setThreadgroupMemoryLength) */
} MtlrtDispatch;

typedef struct MtlrtDispatchStats {
    bool have_gpu_time;
    uint32_t runs;
    double gpu_ms_min, gpu_ms_median, gpu_ms_mean;
} MtlrtDispatchStats;

/* Run the kernel as D says and wait for it (a command list of its own). STATS may be NULL. Checked: D against the
   kernel and the device (errors), and a grid larger than the buffers can hold or an input shorter than the grid
   (warnings, through the log). A grid with 0 threads in any dimension runs nothing and succeeds. */
bool mtlrt_dispatch(MtlrtPipeline *pipe, const MtlrtDispatch *d, MtlrtDispatchStats *stats);

/* ---- command lists (commands.c) ----
   Dispatches, copies and fills recorded in order and submitted together. Where a command reads a buffer an
   earlier one wrote, or writes one an earlier one read or wrote, a memory barrier is recorded between them (what a
   Metal compute encoder's hazard tracking does); commands on different buffers may overlap. Submission returns at
   once; mtlrt_commands_wait waits. A list that has run may be submitted again as recorded, or reset and
   recorded anew. Buffers and pipelines it uses must live until it has finished. */
typedef struct MtlrtCommands MtlrtCommands;

MtlrtCommands *mtlrt_commands_create(MtlrtContext *ctx);
/* Waits for the list if it is running. */
void mtlrt_commands_destroy(MtlrtCommands *cmds);
/* Record a dispatch, checked as mtlrt_dispatch checks it (D->repeat must be 0 or 1, D->timestamps false). D and
   the bindings array may be reused once the call returns. */
bool mtlrt_commands_dispatch(MtlrtCommands *cmds, MtlrtPipeline *pipe, const MtlrtDispatch *d);
/* Copy SIZE bytes from SRC at SRC_OFFSET to DST at DST_OFFSET (the ranges must not overlap). */
bool mtlrt_commands_copy(MtlrtCommands *cmds, MtlrtBuffer *dst, size_t dst_offset, MtlrtBuffer *src,
                         size_t src_offset, size_t size);
/* Fill SIZE bytes at OFFSET (multiples of 4, or up to the end) with the 32-bit word VALUE. */
bool mtlrt_commands_fill(MtlrtCommands *cmds, MtlrtBuffer *dst, size_t offset, size_t size, uint32_t value);
/* A barrier after everything recorded so far, whatever buffers it touches. */
bool mtlrt_commands_barrier(MtlrtCommands *cmds);
/* Submit the list (recording ends); returns without waiting. */
bool mtlrt_commands_submit(MtlrtCommands *cmds);
/* Wait up to TIMEOUT_NS (0: poll, UINT64_MAX: no limit): MTLRT_OK when the list has finished (its writes are then
   visible to mtlrt_buffer_read and mappings), MTLRT_NOT_READY when it has not, or the error status (a failed
   bounds check included: MTLRT_ERROR_OUT_OF_BOUNDS, mtlrt_last_error lists the accesses). */
MtlrtStatus mtlrt_commands_wait(MtlrtCommands *cmds, uint64_t timeout_ns);
/* Forget what was recorded (waits first if the list is running). */
bool mtlrt_commands_reset(MtlrtCommands *cmds);
/* GPU time of the list's last run in milliseconds, from timestamps around it; false where the queue has none. */
bool mtlrt_commands_gpu_time(const MtlrtCommands *cmds, double *ms);
/* Commands recorded, and barriers recorded between them (for tests and tuning). */
uint32_t mtlrt_commands_count(const MtlrtCommands *cmds);
uint32_t mtlrt_commands_barriers(const MtlrtCommands *cmds);

#ifdef __cplusplus
}
#endif

#endif
