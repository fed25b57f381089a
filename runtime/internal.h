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
} DeviceFeatures;

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
};

struct MtlrtBuffer {
    MtlrtContext *ctx;
    size_t size;       /* as asked */
    VkDeviceSize alloc_size;
    VkBuffer buffer;
    VkDeviceMemory memory;
    bool coherent;
    void *map;
};

/* One compute pipeline per threadgroup size, created on first use. */
typedef struct PipelineVariant {
    uint32_t threadgroup[3];
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
};

/* ---- constants.c ---- */
/* Specialization entries and data for threadgroup TG and the pipeline's function constants; returns the count
   (ENTRIES and DATA hold 3 + MAX_FUNCTION_CONSTANTS). */
uint32_t rt_specialization(const MtlrtPipeline *pipe, const uint32_t tg[3], VkSpecializationMapEntry *entries,
                           uint32_t *data);

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
bool rt_alloc_memory(MtlrtContext *ctx, const VkMemoryRequirements *req, VkMemoryPropertyFlags flags,
                     VkDeviceMemory *memory, bool *coherent);

/* ---- pipeline.c ---- */
/* The compute pipeline for threadgroup TG, created and cached on first use. */
bool rt_pipeline_variant(MtlrtPipeline *pipe, const uint32_t tg[3], VkPipeline *out);

/* ---- npy.c ---- */
float rt_half_to_float(uint16_t h);

#endif
