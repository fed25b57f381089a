/* internal.h: what the runtime's files share and the public header does not show. */
#ifndef MTLRT_INTERNAL_H
#define MTLRT_INTERNAL_H

#include "mtlrt.h"

#include <vulkan/vulkan.h>

typedef struct MtlrtCommands MtlrtCommands;

/* A staging buffer in host-cached memory with its command buffer and fence (transfer.c). */
typedef struct StagingSlot {
    MtlrtBuffer *buf;
    VkCommandBuffer cmd;
    VkFence fence;
    bool pending;
} StagingSlot;

#define MTLRT_CPU_MAX_THREADS (1ull << 32) /* threads of one dispatch on a CPU device (docs/limits.md) */
#define MAX_BINDINGS 64

/* The feature structs queried and enabled together (features.def names members of this). */
typedef struct DeviceFeatures {
    VkPhysicalDeviceFeatures2 core;
    VkPhysicalDevice16BitStorageFeatures s16;
    VkPhysicalDevice8BitStorageFeatures s8;
    VkPhysicalDeviceShaderFloat16Int8Features f16i8;
    VkPhysicalDeviceBufferDeviceAddressFeatures bda;
    VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures subext;
    VkPhysicalDeviceShaderAtomicInt64Features atomic64;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicf;
    VkPhysicalDeviceSubgroupSizeControlFeatures ssc;
    VkPhysicalDeviceVulkanMemoryModelFeatures vmm;
    VkPhysicalDeviceScalarBlockLayoutFeatures sbl;
    VkPhysicalDeviceCooperativeMatrixFeaturesNV coopnv;
} DeviceFeatures;

/* A subgroup layout probe result (probe.c). */
typedef struct LayoutProbe {
    uint32_t local[3];
    uint32_t subgroup_size;
    bool consecutive;
} LayoutProbe;

struct MtlrtContext {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem_props;
    DeviceFeatures features; /* what is enabled: every supported one of features.def */
    uint32_t api_version;    /* min(device, instance) */
    VkDevice device;
    uint32_t queue_family;
    uint32_t timestamp_valid_bits;
    VkQueue queue;
    VkCommandPool command_pool;
    uint32_t validation_messages;
    MtlrtSubgroupInfo subgroup;
    LayoutProbe *layouts; /* probe.c's cache */
    uint32_t n_layouts;
    int tensor_cores;      /* mtlrt_context_tensor_cores, probed once (probe.c): 0 not yet, 1 usable, -1 not */
    char tensor_cores_why[512]; /* ... and why not */
    bool adopted;          /* instance, device and queue are the application's: not destroyed here */
    bool force_staging;    /* env MTLRT_STAGING=1: transfers through staging even where memory is mappable */
    unsigned long long cpu_max_threads; /* env MTLRT_CPU_MAX_THREADS: threads of one dispatch on a CPU device */
    uint32_t in_flight;    /* command lists submitted and not yet waited for */
    StagingSlot staging[2]; /* transfer.c */
    MtlrtBuffer **zero;    /* buffers to clear before the next submission (transfer.c) */
    uint32_t n_zero, cap_zero;
    MtlrtCommands *scratch; /* the list mtlrt_dispatch reuses */
    bool scratch_busy;
};

struct MtlrtBuffer {
    MtlrtContext *ctx;
    size_t size;       /* as asked */
    VkDeviceSize alloc_size;
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkMemoryPropertyFlags memory_flags; /* of the memory type chosen */
    bool has_address; /* created with SHADER_DEVICE_ADDRESS usage (the device has bufferDeviceAddress) */
    bool internal;    /* the runtime's own (staging, backups) */
    bool zero_pending; /* on the context's list of buffers to clear */
    void *map;        /* host-visible memory, mapped */
};

/* A descriptor set a command list made, for reuse by dispatches with the same layout and buffers. */
typedef struct CachedSet {
    VkDescriptorSetLayout layout;
    uint32_t n;
    VkBuffer buffers[MAX_BINDINGS + 1];
    VkDescriptorSet set;
} CachedSet;

/* A command list (commands.c). */
struct MtlrtCommands {
    MtlrtContext *ctx;
    VkCommandBuffer cmd, prologue; /* prologue: zero-fills pending when it is submitted */
    VkFence fence;
    bool recording, ended, pending, finished, have_times;
    uint32_t n_commands, n_barriers;
    VkBuffer *read, *written; /* buffers touched since the last barrier */
    uint32_t n_read, cap_read, n_written, cap_written;
    VkPipelineStageFlags stages; /* ... and the stages of the commands that did (the next barrier's source) */
    VkBuffer *t_read, *t_written; /* the same since the last barrier that transfers wait for (commands.c) */
    uint32_t n_t_read, cap_t_read, n_t_written, cap_t_written;
    VkPipelineStageFlags t_stages;
    bool after_indirect; /* the last dispatch read device addresses from a buffer: the next command waits for it */
    /* what the command buffer has bound, so that a dispatch binds only what changed (as a raw loop would) */
    VkPipeline bound_pipeline;
    VkPipelineLayout bound_layout;
    VkDescriptorSet bound_set;
    uint32_t bound_push_size; /* 0: nothing pushed yet with bound_layout */
    uint8_t bound_push[256];
    VkDescriptorPool *pools; /* kept across resets (reset, not destroyed) */
    uint32_t n_pools, cur_pool, sets_in_pool; /* cur_pool: pools in use in this recording */
    CachedSet cached[64];
    uint32_t n_cached, next_cached;
    VkQueryPool queries; /* 0, 1: the whole list; 2 + 2i, 3 + 2i: timed command i */
    uint32_t query_capacity, max_timed, n_timed;
    double gpu_ms, *timed_ms;
    MtlrtPipeline **bounds; /* pipelines with a bounds-check record used in the list (bounds.c) */
    uint32_t n_bounds, cap_bounds;
};

/* What a compute pipeline is specialized for: its local size, the threadgroup size the kernel was dispatched
   with (spec constants 3..5 of exact-threadgroup kernels) and each [[threadgroup(n)]] length in elements. */
typedef struct VariantKey {
    uint32_t local[3];
    uint32_t full[3];
    uint32_t tg_length[31];
} VariantKey;

/* One compute pipeline per key, created on first use. */
typedef struct PipelineVariant {
    VariantKey key;
    VkPipeline pipeline;
} PipelineVariant;

#define MAX_FUNCTION_CONSTANTS 64
struct MtlrtPipeline {
    MtlrtContext *ctx;
    const MtlrtReflection *refl;
    char *name;
    uint32_t push_size; /* push-constant range size (reflection and shader agree) */
    uint32_t fixed_local_size[3]; /* nonzero when the shader fixes its local size instead of spec constants */
    uint32_t min_binding_size[MAX_BINDINGS]; /* fixed part of each SSBO block in the shader */
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    uint32_t n_variants;
    PipelineVariant *variants;
    uint32_t n_constants; /* function constants (constants.c): {constant_id, 32-bit value} */
    uint32_t constants[MAX_FUNCTION_CONSTANTS][2];
    uint32_t required_subgroup_size; /* nonzero: VK_EXT_subgroup_size_control sets it */
    MtlrtBuffer *bounds; /* the bounds-check record of a kernel translated with check_bounds (bounds.c) */
    MtlrtBuffer *absent; /* bound for `[[function_constant(NAME)]]` buffers the host leaves out (dispatch.c) */
};

/* ---- constants.c ---- */
/* Appends the pipeline's function constants to the N specialization entries and data; returns the new count
   (ENTRIES and DATA have room for MAX_FUNCTION_CONSTANTS more). */
/* Whether the bool function constant NAME is set true on PIPE (not set, or not read by the kernel: false). */
bool rt_function_constant_true(const MtlrtPipeline *pipe, const char *name);
uint32_t rt_function_constants(const MtlrtPipeline *pipe, VkSpecializationMapEntry *entries, uint32_t *data, uint32_t n);

/* ---- limits (docs/limits.md) ---- */
#define MTLRT_MAX_ARRAY_BYTES 0xffffffffull /* one array: a storage buffer's range (maxStorageBufferRange) is 32-bit */

/* ---- context.c ---- */
/* Record STATUS and the message as this thread's last error and log it; returns false. */
bool rt_fail(MtlrtStatus status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rt_fail with MTLRT_ERROR_INVALID_ARGUMENT. */
void rt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Log a note (the chosen device) or a warning; the call goes on. */
void rt_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rt_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rt_log(MtlrtLogLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The list mtlrt_dispatch records into (the context's own, reset, or a new one when that is in use), with room
   for MAX_TIMED timed commands; give it back with rt_context_commands_done. */
MtlrtCommands *rt_context_commands(MtlrtContext *ctx, uint32_t max_timed);
void rt_context_commands_done(MtlrtContext *ctx, MtlrtCommands *c);
/* True when RES is VK_SUCCESS; otherwise prints "CALL failed: VK_ERROR_..." and returns false. */
bool rt_vk_ok(VkResult res, const char *call);
const char *rt_vk_result_string(VkResult res);
/* While on (calls nest), errors are recorded as the last error but not logged: a probe's failure is an answer. */
void rt_quiet_errors(bool on);
/* Set this thread's last error back to STATUS and MESSAGE (saved before a probe). */
void rt_restore_error(MtlrtStatus status, const char *message);
/* Bool member of the enabled features named NAME, or NULL if features.def has no such name. */
VkBool32 *rt_feature(DeviceFeatures *f, const char *name);

/* ---- buffer.c ---- */
/* BUF's device address (buffers have one where the device has bufferDeviceAddress); false with a message. */
bool rt_buffer_address(const MtlrtBuffer *buf, VkDeviceAddress *addr);
int rt_find_memory_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits, VkMemoryPropertyFlags flags);
/* Memory for REQ from the first of CHOICES (property flag sets, 0-terminated) that can allocate it. */
bool rt_alloc_memory(MtlrtContext *ctx, const VkMemoryRequirements *req, const VkMemoryPropertyFlags *choices,
                     VkDeviceMemory *memory, VkMemoryPropertyFlags *flags);
/* A buffer for the runtime's own use, its memory from CHOICES; mapped when host-visible. */
MtlrtBuffer *rt_buffer_create_internal(MtlrtContext *ctx, size_t size, const VkMemoryPropertyFlags *choices);
/* Host writes made visible to the device / device writes to the host, for non-coherent mapped memory. */
bool rt_flush(MtlrtBuffer *buf, VkDeviceSize offset, VkDeviceSize bytes);
bool rt_invalidate(MtlrtBuffer *buf);

/* ---- transfer.c ---- */
void rt_full_barrier(VkCommandBuffer cmd);
/* BUF (not host-visible) is cleared by the GPU before the next submission. */
bool rt_zero_later(MtlrtBuffer *buf);
/* BUF cleared now if its clear is pending (before the host or the application touches it). */
bool rt_zero_now(MtlrtBuffer *buf);
/* BUF is destroyed or overwritten whole: no clearing. */
void rt_forget_buffer(MtlrtBuffer *buf);
/* Record the pending clears into CMD (and a barrier); false when there were none. */
bool rt_record_zero_fills(MtlrtContext *ctx, VkCommandBuffer cmd);
void rt_transfer_destroy(MtlrtContext *ctx);

/* ---- commands.c ---- */
/* Begin recording C if it is not already. */
bool rt_commands_recording(MtlrtCommands *c);
/* A barrier before a command of STAGE (compute or transfer) reading READS and writing WRITES where it depends on
   earlier commands. */
bool rt_commands_order(MtlrtCommands *c, VkPipelineStageFlags stage, const VkBuffer *reads, uint32_t n_reads,
                       const VkBuffer *writes, uint32_t n_writes);
/* Forget what C's command buffer has bound (after recording that bypasses record_launch's tracking). */
void rt_commands_forget_bindings(MtlrtCommands *c);
/* A descriptor set of PIPE's layout holding BUFFERS[binding] (N of them), made or reused. */
bool rt_commands_descriptor_set(MtlrtCommands *c, const MtlrtPipeline *pipe, const VkBuffer *buffers, uint32_t n,
                                VkDescriptorSet *out);
/* The start (END false: *SLOT set) or end timestamp of a timed command. */
bool rt_commands_timestamp(MtlrtCommands *c, bool end, uint32_t *slot);

/* ---- bounds.c ---- */
/* The record of a kernel translated with check_bounds (4 words per checked array); true when it has none. */
bool rt_bounds_create(MtlrtPipeline *pipe);
/* The bounds-check record of a kernel translated with check_bounds, bound at its binding and written. */
bool rt_bounds_bind(const MtlrtPipeline *pipe, VkBuffer *buffers, uint32_t *n_buffers, VkBuffer *writes,
                    uint32_t *n_writes);
/* On PIPE's first use in C: its record cleared. */
bool rt_bounds_prepare(MtlrtCommands *c, MtlrtPipeline *pipe);
/* After C ran: every out-of-range access its kernels recorded, as an MTLRT_ERROR_OUT_OF_BOUNDS error. */
bool rt_bounds_report(MtlrtCommands *c);

/* ---- pipeline.c ---- */
/* The compute pipeline for KEY, created and cached on first use. */
bool rt_pipeline_variant(MtlrtPipeline *pipe, const VariantKey *key, VkPipeline *out);

/* ---- probe.c ---- */
/* Whether the device's W-wide subgroups hold consecutive local indices in a workgroup of size LOCAL (probed once,
   then cached); false with an error when they do not or the probe cannot run. */
bool rt_check_subgroup_layout(MtlrtContext *ctx, const uint32_t local[3], uint32_t W);
/* Whether the device has VK_NV_cooperative_matrix's 16x8x8 f16*f16+f32->f32 subgroup shape (false with a reason in
   WHY, SIZE bytes, when it does not); context.c. */
bool rt_have_mma_shape(MtlrtContext *ctx, char *why, size_t size);

/* ---- npy.c ---- */
float rt_half_to_float(uint16_t h);
float rt_bfloat_to_float(uint16_t b);
/* IN converted exactly to dtype TO into OUT; false with WHY and nothing logged. */
bool rt_convert_exact(const MtlrtArray *in, MtlrtDtype to, MtlrtArray *out, char *why, size_t why_size);

#endif
