/* buffer.c: the storage buffers kernel parameters are bound to: memory choice, mapping, device addresses.
   Copies between host and buffer are transfer.c's. */
#include "internal.h"
#include "mtlrt_vulkan.h"

#include <stdlib.h>
#include <string.h>

/* Index of a memory type allowed by BITS that has all of FLAGS, or -1. */
int rt_find_memory_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits, VkMemoryPropertyFlags flags)
{
    for (uint32_t i = 0; i < mp->memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp->memoryTypes[i].propertyFlags & flags) == flags)
            return (int)i;
    return -1;
}

/* Allocation from memory type TYPE that may fail quietly (a small BAR heap, device memory used up). */
static bool try_alloc_type(MtlrtContext *ctx, VkDeviceSize size, int type, VkDeviceMemory *memory)
{
    VkMemoryAllocateFlagsInfo address = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = ctx->features.bda.bufferDeviceAddress ? &address : NULL,
        .allocationSize = size,
        .memoryTypeIndex = (uint32_t)type,
    };
    return type >= 0 && vkAllocateMemory(ctx->device, &info, NULL, memory) == VK_SUCCESS;
}

/* Memory for REQ from the first of the CHOICES (lists of property flags, 0-terminated) that has a type and can
   allocate; *FLAGS gets the chosen type's properties. False with a message when none can. */
bool rt_alloc_memory(MtlrtContext *ctx, const VkMemoryRequirements *req, const VkMemoryPropertyFlags *choices,
                     VkDeviceMemory *memory, VkMemoryPropertyFlags *flags)
{
    for (const VkMemoryPropertyFlags *c = choices; *c; c++) {
        int type = rt_find_memory_type(&ctx->mem_props, req->memoryTypeBits, *c);
        if (try_alloc_type(ctx, req->size, type, memory)) {
            *flags = ctx->mem_props.memoryTypes[type].propertyFlags;
            return true;
        }
    }
    return rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "cannot allocate %llu bytes for a buffer on device %s (no memory type "
                   "with the properties it needs has room)", (unsigned long long)req->size, ctx->props.deviceName);
}

/* Where a buffer's memory comes from, best first. Default: device-local (a pure one if the device has it: the
   first device-local type is the one with the fewest other properties), then host memory. Host-visible:
   device-local mappable memory (resizable BAR, integrated and CPU devices), then host-cached, then any. */
static const VkMemoryPropertyFlags default_memory[] = {
    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
    0,
};
static const VkMemoryPropertyFlags host_visible_memory[] = {
    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
    0,
};

/* The VkBuffer of BUF with the usages every runtime buffer has. */
static bool create_vk_buffer(MtlrtBuffer *buf)
{
    MtlrtContext *ctx = buf->ctx;
    buf->has_address = ctx->features.bda.bufferDeviceAddress; /* pointers chosen at run time between buffers */
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = buf->alloc_size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT | (buf->has_address ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    return rt_vk_ok(vkCreateBuffer(ctx->device, &info, NULL, &buf->buffer), "vkCreateBuffer");
}

/* A storage buffer of SIZE bytes (4 at least), zero filled: cleared before anything can see it, unless a write
   covers it whole first (transfer.c): by the GPU at the next submission, or by the host when it maps, reads or
   partly writes a host-visible one. */
MtlrtBuffer *mtlrt_buffer_create_flags(MtlrtContext *ctx, size_t size, uint32_t flags)
{
    MtlrtBuffer *buf = calloc(1, sizeof *buf);
    if (!buf) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    buf->ctx = ctx;
    buf->size = size;
    buf->alloc_size = size < 4 ? 4 : (size + 3) & ~(VkDeviceSize)3;
    if (flags & ~(uint32_t)MTLRT_BUFFER_HOST_VISIBLE) {
        rt_error("mtlrt_buffer_create_flags: unknown flags 0x%x", flags);
        goto error;
    }
    if (buf->alloc_size > ctx->props.limits.maxStorageBufferRange) {
        rt_error("a buffer of %zu bytes is larger than the device's maxStorageBufferRange (%u bytes)", size,
                 ctx->props.limits.maxStorageBufferRange);
        goto error;
    }
    if (!create_vk_buffer(buf))
        goto error;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx->device, buf->buffer, &req);
    if (!rt_alloc_memory(ctx, &req, flags & MTLRT_BUFFER_HOST_VISIBLE ? host_visible_memory : default_memory,
                         &buf->memory, &buf->memory_flags) ||
        !rt_vk_ok(vkBindBufferMemory(ctx->device, buf->buffer, buf->memory, 0), "vkBindBufferMemory"))
        goto error;
    if ((buf->memory_flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
        !rt_vk_ok(vkMapMemory(ctx->device, buf->memory, 0, VK_WHOLE_SIZE, 0, &buf->map), "vkMapMemory"))
        goto error;
    if (!rt_zero_later(buf))
        goto error;
    return buf;
error:
    mtlrt_buffer_destroy(buf);
    return NULL;
}

MtlrtBuffer *mtlrt_buffer_create(MtlrtContext *ctx, size_t size)
{
    return mtlrt_buffer_create_flags(ctx, size, MTLRT_BUFFER_DEFAULT);
}

/* BUF's device address into *ADDR; false (with a message) where it has none. */
bool rt_buffer_address(const MtlrtBuffer *buf, VkDeviceAddress *addr)
{
    PFN_vkGetBufferDeviceAddress get = NULL;
    if (buf->has_address) {
        get = (PFN_vkGetBufferDeviceAddress)vkGetDeviceProcAddr(buf->ctx->device, "vkGetBufferDeviceAddress");
        if (!get)
            get = (PFN_vkGetBufferDeviceAddress)vkGetDeviceProcAddr(buf->ctx->device, "vkGetBufferDeviceAddressKHR");
    }
    if (!get)
        return rt_fail(MTLRT_ERROR_UNSUPPORTED, "device %s gives buffers no device address (bufferDeviceAddress)",
                       buf->ctx->props.deviceName);
    VkBufferDeviceAddressInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = buf->buffer};
    *addr = get(buf->ctx->device, &info);
    return *addr != 0;
}

bool mtlrt_buffer_device_address(const MtlrtBuffer *buf, uint64_t *addr)
{
    VkDeviceAddress a = 0;
    if (!buf || !addr)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "mtlrt_buffer_device_address: no buffer");
    if (!rt_buffer_address(buf, &a))
        return false;
    *addr = (uint64_t)a;
    return true;
}

void mtlrt_buffer_destroy(MtlrtBuffer *buf)
{
    if (!buf)
        return;
    VkDevice dev = buf->ctx->device;
    rt_forget_buffer(buf);
    if (buf->map)
        vkUnmapMemory(dev, buf->memory);
    if (buf->buffer)
        vkDestroyBuffer(dev, buf->buffer, NULL);
    if (buf->memory)
        vkFreeMemory(dev, buf->memory, NULL);
    free(buf);
}

size_t mtlrt_buffer_size(const MtlrtBuffer *buf)
{
    return buf->size;
}

bool mtlrt_buffer_host_visible(const MtlrtBuffer *buf)
{
    return buf->map != NULL;
}

/* The mapping of a host-visible buffer (cleared first if it is new). */
void *mtlrt_buffer_map(MtlrtBuffer *buf)
{
    if (buf->map && !rt_zero_now(buf))
        return NULL;
    if (!buf->map) {
        rt_fail(MTLRT_ERROR_UNSUPPORTED, "this buffer is in device memory the host cannot map; create it with "
                "MTLRT_BUFFER_HOST_VISIBLE, or copy with mtlrt_buffer_read / mtlrt_buffer_write");
        return NULL;
    }
    if (!(buf->memory_flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) {
        rt_fail(MTLRT_ERROR_UNSUPPORTED, "device %s has no coherent host-visible memory for this buffer; use "
                "mtlrt_buffer_read / mtlrt_buffer_write", buf->ctx->props.deviceName);
        return NULL;
    }
    return buf->map;
}

/* Host writes to BYTES at OFFSET of a mapped buffer made visible to the device (non-coherent memory). */
bool rt_flush(MtlrtBuffer *buf, VkDeviceSize offset, VkDeviceSize bytes)
{
    (void)offset, (void)bytes;
    if (buf->memory_flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
        return true;
    VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = buf->memory,
                                 .size = VK_WHOLE_SIZE};
    return rt_vk_ok(vkFlushMappedMemoryRanges(buf->ctx->device, 1, &range), "vkFlushMappedMemoryRanges");
}

/* Device writes to a mapped buffer made visible to the host (non-coherent memory). */
bool rt_invalidate(MtlrtBuffer *buf)
{
    if (buf->memory_flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
        return true;
    VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = buf->memory,
                                 .size = VK_WHOLE_SIZE};
    return rt_vk_ok(vkInvalidateMappedMemoryRanges(buf->ctx->device, 1, &range), "vkInvalidateMappedMemoryRanges");
}

/* A buffer for the runtime's own use (staging, backups): FLAGS choices as for rt_alloc_memory. */
MtlrtBuffer *rt_buffer_create_internal(MtlrtContext *ctx, size_t size, const VkMemoryPropertyFlags *choices)
{
    MtlrtBuffer *buf = calloc(1, sizeof *buf);
    if (!buf) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    buf->ctx = ctx;
    buf->size = size;
    buf->alloc_size = size < 4 ? 4 : (size + 3) & ~(VkDeviceSize)3;
    buf->internal = true;
    VkMemoryRequirements req;
    if (!create_vk_buffer(buf))
        goto error;
    vkGetBufferMemoryRequirements(ctx->device, buf->buffer, &req);
    if (!rt_alloc_memory(ctx, &req, choices, &buf->memory, &buf->memory_flags) ||
        !rt_vk_ok(vkBindBufferMemory(ctx->device, buf->buffer, buf->memory, 0), "vkBindBufferMemory"))
        goto error;
    if ((buf->memory_flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
        !rt_vk_ok(vkMapMemory(ctx->device, buf->memory, 0, VK_WHOLE_SIZE, 0, &buf->map), "vkMapMemory"))
        goto error;
    return buf;
error:
    mtlrt_buffer_destroy(buf);
    return NULL;
}

/* The VkBuffer, cleared first if it is new (so that no later clear undoes the application's writes). */
VkBuffer mtlrt_buffer_vk_buffer(const MtlrtBuffer *buf)
{
    if (buf->zero_pending && !rt_zero_now((MtlrtBuffer *)buf))
        return VK_NULL_HANDLE;
    return buf->buffer;
}

VkDeviceSize mtlrt_buffer_vk_size(const MtlrtBuffer *buf)
{
    return buf->alloc_size;
}
