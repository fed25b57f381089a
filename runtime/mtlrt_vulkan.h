/* mtlrt_vulkan.h: the mtl2glsl runtime (mtlrt.h) inside an application that has its own Vulkan objects: run
   kernels on the application's instance, device and queue, and hand buffers to its own Vulkan code. */
#ifndef MTLRT_VULKAN_H
#define MTLRT_VULKAN_H

#include <vulkan/vulkan.h>

#include "mtlrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An application's Vulkan device, as mtlrt_context_create_vulkan adopts it. */
typedef struct MtlrtVulkanDevice {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    uint32_t queue_family; /* a family with VK_QUEUE_COMPUTE_BIT */
    VkQueue queue;         /* a queue of that family */
    uint32_t api_version;  /* the apiVersion the instance was created with (VkApplicationInfo); 0: 1.1 */
    /* What the device was created with, so that kernels needing a feature it lacks are refused by name: the
       pNext chain given to vkCreateDevice (VkPhysicalDeviceFeatures2, VkPhysicalDeviceVulkan11/12/13Features and
       the single-feature structs the runtime knows, in any order), and/or its pEnabledFeatures. NULL: none. */
    const void *enabled_features_chain;
    const VkPhysicalDeviceFeatures *enabled_features;
} MtlrtVulkanDevice;

/* A context on the application's device: the runtime creates its own command pool, descriptor pools, pipelines and
   buffers on it and submits to QUEUE, which the application must not use from another thread at the same time
   (Vulkan's external synchronization). mtlrt_context_destroy leaves the instance, device and queue alone. No
   validation messenger is installed (the application's own reports). NULL on error. */
MtlrtContext *mtlrt_context_create_vulkan(const MtlrtVulkanDevice *device);
/* The Vulkan objects of CTX (its own or adopted); enabled_features_chain points at the feature structs it enabled
   (valid while CTX lives). */
void mtlrt_context_vulkan(const MtlrtContext *ctx, MtlrtVulkanDevice *out);

/* BUF's VkBuffer (usage: storage, transfer source and destination, and device address where the device has
   bufferDeviceAddress) and its size in bytes (at least the size asked for, a multiple of 4). The runtime still
   owns it; work the application submits on it must be finished or synchronized with the runtime's queue. */
VkBuffer mtlrt_buffer_vk_buffer(const MtlrtBuffer *buf);
VkDeviceSize mtlrt_buffer_vk_size(const MtlrtBuffer *buf);

#ifdef __cplusplus
}
#endif

#endif
