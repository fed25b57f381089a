/* buffer.c: host-visible storage buffers that kernel parameters are bound to. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Index of a memory type allowed by BITS that has all of FLAGS, or -1. */
static int find_memory_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits, VkMemoryPropertyFlags flags)
{
    for (uint32_t i = 0; i < mp->memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp->memoryTypes[i].propertyFlags & flags) == flags)
            return (int)i;
    return -1;
}

/* Allocate memory for REQ: a type with FLAGS | HOST_COHERENT if any, else one with FLAGS. */
/* Allocation from a memory type with FLAGS that may fail quietly (a small BAR heap). */
static bool try_alloc(MtlrtContext *ctx, const VkMemoryRequirements *req, VkMemoryPropertyFlags flags, VkDeviceMemory *memory)
{
    int type = find_memory_type(&ctx->mem_props, req->memoryTypeBits, flags);
    VkMemoryAllocateFlagsInfo address = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = ctx->features.bda.bufferDeviceAddress ? &address : NULL,
        .allocationSize = req->size,
        .memoryTypeIndex = (uint32_t)type,
    };
    return type >= 0 && vkAllocateMemory(ctx->device, &info, NULL, memory) == VK_SUCCESS;
}

bool rt_alloc_memory(MtlrtContext *ctx, const VkMemoryRequirements *req, VkMemoryPropertyFlags flags,
                     VkDeviceMemory *memory, bool *coherent)
{
    int type = find_memory_type(&ctx->mem_props, req->memoryTypeBits, flags | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    *coherent = type >= 0;
    if (type < 0)
        type = find_memory_type(&ctx->mem_props, req->memoryTypeBits, flags);
    if (type < 0) {
        rt_error("device %s has no memory type with property flags 0x%x for a buffer", ctx->props.deviceName,
                 (unsigned)flags);
        return false;
    }
    VkMemoryAllocateFlagsInfo address = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = ctx->features.bda.bufferDeviceAddress ? &address : NULL,
        .allocationSize = req->size,
        .memoryTypeIndex = (uint32_t)type,
    };
    return rt_vk_ok(vkAllocateMemory(ctx->device, &info, NULL, memory), "vkAllocateMemory");
}

/* A storage buffer of SIZE bytes (4 at least), mapped, zero filled. */
MtlrtBuffer *mtlrt_buffer_create(MtlrtContext *ctx, size_t size)
{
    MtlrtBuffer *buf = calloc(1, sizeof *buf);
    if (!buf) {
        rt_error("out of memory");
        return NULL;
    }
    buf->ctx = ctx;
    buf->size = size;
    buf->alloc_size = size < 4 ? 4 : (size + 3) & ~(VkDeviceSize)3;
    if (buf->alloc_size > ctx->props.limits.maxStorageBufferRange) {
        rt_error("a buffer of %zu bytes is larger than the device's maxStorageBufferRange (%u bytes)", size,
                 ctx->props.limits.maxStorageBufferRange);
        goto error;
    }
    /* with a device address where the device has them: pointers chosen at run time between buffers */
    buf->has_address = ctx->features.bda.bufferDeviceAddress;
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = buf->alloc_size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT | (buf->has_address ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if (!rt_vk_ok(vkCreateBuffer(ctx->device, &info, NULL, &buf->buffer), "vkCreateBuffer"))
        goto error;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx->device, buf->buffer, &req);
    /* GPU memory the host can map (resizable BAR) when the device has it, else host memory the GPU reads */
    VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if (find_memory_type(&ctx->mem_props, req.memoryTypeBits, local) >= 0 && try_alloc(ctx, &req, local, &buf->memory))
        buf->coherent = true;
    else if (!rt_alloc_memory(ctx, &req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &buf->memory, &buf->coherent))
        goto error;
    if (!rt_vk_ok(vkBindBufferMemory(ctx->device, buf->buffer, buf->memory, 0), "vkBindBufferMemory"))
        goto error;
    if (!rt_vk_ok(vkMapMemory(ctx->device, buf->memory, 0, VK_WHOLE_SIZE, 0, &buf->map), "vkMapMemory"))
        goto error;
    memset(buf->map, 0, buf->alloc_size);
    return buf;
error:
    mtlrt_buffer_destroy(buf);
    return NULL;
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
    if (!get) {
        rt_error("device %s gives buffers no device address (bufferDeviceAddress)", buf->ctx->props.deviceName);
        return false;
    }
    VkBufferDeviceAddressInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = buf->buffer};
    *addr = get(buf->ctx->device, &info);
    return *addr != 0;
}

void mtlrt_buffer_destroy(MtlrtBuffer *buf)
{
    if (!buf)
        return;
    VkDevice dev = buf->ctx->device;
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

static VkMappedMemoryRange whole_range(const MtlrtBuffer *buf)
{
    return (VkMappedMemoryRange){
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
        .memory = buf->memory,
        .offset = 0,
        .size = VK_WHOLE_SIZE,
    };
}

/* Copy SIZE bytes into the start of the buffer (flushed when the memory is not coherent). */
bool mtlrt_buffer_write(MtlrtBuffer *buf, const void *data, size_t size)
{
    if (size > buf->size) {
        rt_error("writing %zu bytes into a buffer of %zu bytes", size, buf->size);
        return false;
    }
    memcpy(buf->map, data, size);
    VkMappedMemoryRange range = whole_range(buf);
    return buf->coherent || rt_vk_ok(vkFlushMappedMemoryRanges(buf->ctx->device, 1, &range),
                                     "vkFlushMappedMemoryRanges");
}

/* Copy SIZE bytes from the start of the buffer (invalidated first when the memory is not coherent). */
bool mtlrt_buffer_read(MtlrtBuffer *buf, void *data, size_t size)
{
    if (size > buf->size) {
        rt_error("reading %zu bytes from a buffer of %zu bytes", size, buf->size);
        return false;
    }
    VkMappedMemoryRange range = whole_range(buf);
    if (!buf->coherent && !rt_vk_ok(vkInvalidateMappedMemoryRanges(buf->ctx->device, 1, &range),
                                    "vkInvalidateMappedMemoryRanges"))
        return false;
    memcpy(data, buf->map, size);
    return true;
}
