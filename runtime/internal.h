/* internal.h: what the runtime's files share and the public header does not show. */
#ifndef MTLRT_INTERNAL_H
#define MTLRT_INTERNAL_H

#include "mtlrt.h"

#include <vulkan/vulkan.h>

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
};

struct MtlrtBuffer {
    MtlrtContext *ctx;
    size_t size;       /* as asked */
    VkDeviceSize alloc_size;
    VkBuffer buffer;
    VkDeviceMemory memory;
    bool coherent;
    bool has_address; /* created with SHADER_DEVICE_ADDRESS usage (the device has bufferDeviceAddress) */
    void *map;
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

#define MAX_BINDINGS 64

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
};

/* ---- constants.c ---- */
/* Appends the pipeline's function constants to the N specialization entries and data; returns the new count
   (ENTRIES and DATA have room for MAX_FUNCTION_CONSTANTS more). */
uint32_t rt_function_constants(const MtlrtPipeline *pipe, VkSpecializationMapEntry *entries, uint32_t *data, uint32_t n);

/* ---- limits (docs/limits.md) ---- */
#define MTLRT_MAX_ARRAY_BYTES 0xffffffffull /* one array: a storage buffer's range (maxStorageBufferRange) is 32-bit */

/* ---- context.c ---- */
/* Print "PREFIX: error: MESSAGE" to the diagnostic stream. */
void rt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "PREFIX: MESSAGE" (notes, chosen device). */
void rt_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True when RES is VK_SUCCESS; otherwise prints "CALL failed: VK_ERROR_..." and returns false. */
bool rt_vk_ok(VkResult res, const char *call);
const char *rt_vk_result_string(VkResult res);
/* Bool member of the enabled features named NAME, or NULL if features.def has no such name. */
VkBool32 *rt_feature(DeviceFeatures *f, const char *name);

/* ---- buffer.c ---- */
/* Allocate memory for a buffer or image with requirements REQ, preferring FLAGS. */
/* BUF's device address (buffers have one where the device has bufferDeviceAddress); false with a message. */
bool rt_buffer_address(const MtlrtBuffer *buf, VkDeviceAddress *addr);
bool rt_alloc_memory(MtlrtContext *ctx, const VkMemoryRequirements *req, VkMemoryPropertyFlags flags,
                     VkDeviceMemory *memory, bool *coherent);

/* ---- pipeline.c ---- */
/* The compute pipeline for KEY, created and cached on first use. */
bool rt_pipeline_variant(MtlrtPipeline *pipe, const VariantKey *key, VkPipeline *out);

/* ---- probe.c ---- */
/* Whether the device's W-wide subgroups hold consecutive local indices in a workgroup of size LOCAL (probed once,
   then cached); false with an error when they do not or the probe cannot run. */
bool rt_check_subgroup_layout(MtlrtContext *ctx, const uint32_t local[3], uint32_t W);

/* ---- npy.c ---- */
float rt_half_to_float(uint16_t h);

#endif
