/* transfer.c: copies between host memory and buffers. Host-visible buffers whose memory the host reads quickly
   are copied directly; others through two staging buffers in host-cached memory and GPU copies, chunk by chunk,
   so that the host's memcpy of one chunk overlaps the GPU's copy of the other. Also the deferred zero-fill of
   buffers the host cannot map. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define STAGING_CHUNK (16u << 20) /* bytes per staging buffer: two of them per context */
#define TRANSFER_TIMEOUT_NS (300ull * 1000 * 1000 * 1000)

/* Staging memory: host-cached (the host reads it at memory speed), coherent where possible. */
static const VkMemoryPropertyFlags staging_memory[] = {
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
    0,
};

/* Whether the host writes / reads BUF through its mapping rather than staging: any mapping for writes (write-
   combined memory takes sequential writes well), host-cached memory for reads (uncached reads crawl over PCIe). */
static bool direct_write(const MtlrtBuffer *buf)
{
    return buf->map && !buf->ctx->force_staging;
}

static bool direct_read(const MtlrtBuffer *buf)
{
    return direct_write(buf) && (buf->memory_flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
}

/* A memory barrier between every earlier and every later transfer or compute access. */
void rt_full_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                         VK_ACCESS_TRANSFER_WRITE_BIT,
    };
    VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &b, 0, NULL, 0, NULL);
}

/* BUF is cleared by the GPU before the next submission (it cannot be mapped). */
bool rt_zero_later(MtlrtBuffer *buf)
{
    MtlrtContext *ctx = buf->ctx;
    if (ctx->n_zero == ctx->cap_zero) {
        uint32_t cap = ctx->cap_zero ? 2 * ctx->cap_zero : 16;
        MtlrtBuffer **list = realloc(ctx->zero, cap * sizeof *list);
        if (!list)
            return rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        ctx->zero = list, ctx->cap_zero = cap;
    }
    ctx->zero[ctx->n_zero++] = buf;
    buf->zero_pending = true;
    return true;
}

/* BUF is going away (or was overwritten whole): no zero-fill for it. */
void rt_forget_buffer(MtlrtBuffer *buf)
{
    MtlrtContext *ctx = buf->ctx;
    for (uint32_t i = 0; buf->zero_pending && i < ctx->n_zero; i++)
        if (ctx->zero[i] == buf) {
            ctx->zero[i] = ctx->zero[--ctx->n_zero];
            buf->zero_pending = false;
        }
}

/* Record the pending zero-fills into CMD (then a barrier); false when there were none. */
bool rt_record_zero_fills(MtlrtContext *ctx, VkCommandBuffer cmd)
{
    if (!ctx->n_zero)
        return false;
    for (uint32_t i = 0; i < ctx->n_zero; i++) {
        vkCmdFillBuffer(cmd, ctx->zero[i]->buffer, 0, VK_WHOLE_SIZE, 0);
        ctx->zero[i]->zero_pending = false;
    }
    ctx->n_zero = 0;
    rt_full_barrier(cmd);
    return true;
}

/* Wait for command lists submitted and not yet waited for (before the host touches a mapping). */
static bool wait_in_flight(MtlrtContext *ctx)
{
    if (!ctx->in_flight)
        return true;
    return rt_vk_ok(vkQueueWaitIdle(ctx->queue), "vkQueueWaitIdle");
}

/* Staging slot I, with room for CHUNK bytes, its command buffer and fence created on first use. */
static bool staging_slot(MtlrtContext *ctx, int i, size_t chunk, StagingSlot **out)
{
    StagingSlot *s = &ctx->staging[i];
    if (s->buf && s->buf->size < chunk) {
        mtlrt_buffer_destroy(s->buf);
        s->buf = NULL;
    }
    if (!s->buf && !(s->buf = rt_buffer_create_internal(ctx, chunk, staging_memory)))
        return false;
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (!s->cmd && !rt_vk_ok(vkAllocateCommandBuffers(ctx->device, &alloc, &s->cmd), "vkAllocateCommandBuffers"))
        return false;
    if (!s->fence && !rt_vk_ok(vkCreateFence(ctx->device, &fence, NULL, &s->fence), "vkCreateFence"))
        return false;
    *out = s;
    return true;
}

/* Wait for slot S's copy, if one is pending. */
static bool slot_wait(MtlrtContext *ctx, StagingSlot *s)
{
    if (!s->pending)
        return true;
    s->pending = false;
    VkResult res = vkWaitForFences(ctx->device, 1, &s->fence, VK_TRUE, TRANSFER_TIMEOUT_NS);
    return rt_vk_ok(res, "vkWaitForFences (buffer transfer)") &&
           rt_vk_ok(vkResetFences(ctx->device, 1, &s->fence), "vkResetFences");
}

/* Submit a copy of SIZE bytes between slot S's staging buffer and BUF at OFFSET (TO_BUFFER: staging -> BUF),
   after everything submitted before it and the pending zero-fills. */
static bool slot_copy(MtlrtContext *ctx, StagingSlot *s, MtlrtBuffer *buf, size_t offset, size_t size, bool to_buffer)
{
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if (!rt_vk_ok(vkBeginCommandBuffer(s->cmd, &begin), "vkBeginCommandBuffer"))
        return false;
    rt_record_zero_fills(ctx, s->cmd);
    rt_full_barrier(s->cmd);
    VkBufferCopy region = {.srcOffset = to_buffer ? 0 : offset, .dstOffset = to_buffer ? offset : 0, .size = size};
    vkCmdCopyBuffer(s->cmd, to_buffer ? s->buf->buffer : buf->buffer, to_buffer ? buf->buffer : s->buf->buffer, 1,
                    &region);
    VkMemoryBarrier host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    if (!to_buffer)
        vkCmdPipelineBarrier(s->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL,
                             0, NULL);
    if (!rt_vk_ok(vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer"))
        return false;
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &s->cmd};
    if (!rt_vk_ok(vkQueueSubmit(ctx->queue, 1, &submit, s->fence), "vkQueueSubmit"))
        return false;
    s->pending = true;
    return true;
}

/* Bytes of each staging chunk for a transfer of SIZE bytes. */
static size_t chunk_size(size_t size)
{
    return size < STAGING_CHUNK ? (size ? size : 4) : STAGING_CHUNK;
}

/* Host DATA -> BUF at OFFSET through the staging buffers: fill one while the GPU copies the other. */
static bool staged_write(MtlrtBuffer *buf, size_t offset, const void *data, size_t size)
{
    MtlrtContext *ctx = buf->ctx;
    size_t chunk = chunk_size(size);
    bool ok = true;
    for (size_t pos = 0, k = 0; ok && pos < size; k++) {
        size_t n = size - pos < chunk ? size - pos : chunk;
        StagingSlot *s;
        ok = staging_slot(ctx, (int)(k % 2), chunk, &s) && slot_wait(ctx, s);
        if (ok) {
            memcpy(s->buf->map, (const char *)data + pos, n);
            ok = rt_flush(s->buf, 0, n) && slot_copy(ctx, s, buf, offset + pos, n, true);
        }
        pos += n;
    }
    for (int i = 0; i < 2; i++)
        ok = slot_wait(ctx, &ctx->staging[i]) && ok;
    return ok;
}

/* BUF at OFFSET -> host DATA through the staging buffers: the GPU copies chunk k+1 while the host reads chunk k. */
static bool staged_read(MtlrtBuffer *buf, size_t offset, void *data, size_t size)
{
    MtlrtContext *ctx = buf->ctx;
    size_t chunk = chunk_size(size), n_chunks = (size + chunk - 1) / chunk;
    bool ok = true;
    for (size_t k = 0; ok && k < n_chunks && k < 2; k++) {
        StagingSlot *s;
        size_t n = size - k * chunk < chunk ? size - k * chunk : chunk;
        ok = staging_slot(ctx, (int)k, chunk, &s) && slot_copy(ctx, s, buf, offset + k * chunk, n, false);
    }
    for (size_t k = 0; ok && k < n_chunks; k++) {
        StagingSlot *s = &ctx->staging[k % 2];
        size_t n = size - k * chunk < chunk ? size - k * chunk : chunk;
        ok = slot_wait(ctx, s) && rt_invalidate(s->buf);
        if (ok)
            memcpy((char *)data + k * chunk, s->buf->map, n);
        if (ok && k + 2 < n_chunks) {
            size_t m = size - (k + 2) * chunk < chunk ? size - (k + 2) * chunk : chunk;
            ok = slot_copy(ctx, s, buf, offset + (k + 2) * chunk, m, false);
        }
    }
    for (int i = 0; i < 2; i++)
        ok = slot_wait(ctx, &ctx->staging[i]) && ok;
    return ok;
}

/* BUF cleared now if its clear is pending: by the host where it is mapped, else by a GPU fill waited for. */
bool rt_zero_now(MtlrtBuffer *buf)
{
    MtlrtContext *ctx = buf->ctx;
    if (!buf->zero_pending)
        return true;
    if (buf->map) {
        rt_forget_buffer(buf);
        memset(buf->map, 0, buf->alloc_size);
        return rt_flush(buf, 0, buf->alloc_size);
    }
    StagingSlot *s;
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if (!staging_slot(ctx, 0, 4, &s) || !slot_wait(ctx, s) ||
        !rt_vk_ok(vkBeginCommandBuffer(s->cmd, &begin), "vkBeginCommandBuffer"))
        return false;
    rt_full_barrier(s->cmd);
    rt_record_zero_fills(ctx, s->cmd);
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &s->cmd};
    if (!rt_vk_ok(vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer") ||
        !rt_vk_ok(vkQueueSubmit(ctx->queue, 1, &submit, s->fence), "vkQueueSubmit"))
        return false;
    s->pending = true;
    return slot_wait(ctx, s);
}

/* SIZE bytes at OFFSET must lie inside BUF. */
static bool check_range(const MtlrtBuffer *buf, size_t offset, size_t size, const char *what)
{
    if (offset > buf->size || size > buf->size - offset)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "%s %zu bytes at offset %zu of a buffer of %zu bytes", what, size,
                       offset, buf->size);
    return true;
}

bool mtlrt_buffer_write_at(MtlrtBuffer *buf, size_t offset, const void *data, size_t size)
{
    if (!check_range(buf, offset, size, "writing"))
        return false;
    if (!size)
        return true;
    if (direct_write(buf)) {
        if (offset == 0 && size == buf->alloc_size)
            rt_forget_buffer(buf); /* overwritten whole: no need to clear it first */
        if (!wait_in_flight(buf->ctx) || !rt_zero_now(buf))
            return false;
        memcpy((char *)buf->map + offset, data, size);
        return rt_flush(buf, offset, size);
    }
    if (offset == 0 && size == buf->alloc_size)
        rt_forget_buffer(buf); /* overwritten whole: no need to clear it first */
    return staged_write(buf, offset, data, size);
}

bool mtlrt_buffer_read_at(MtlrtBuffer *buf, size_t offset, void *data, size_t size)
{
    if (!check_range(buf, offset, size, "reading"))
        return false;
    if (!size)
        return true;
    if (direct_read(buf)) {
        if (!wait_in_flight(buf->ctx) || !rt_zero_now(buf) || !rt_invalidate(buf))
            return false;
        memcpy(data, (const char *)buf->map + offset, size);
        return true;
    }
    return staged_read(buf, offset, data, size);
}

bool mtlrt_buffer_write(MtlrtBuffer *buf, const void *data, size_t size)
{
    return mtlrt_buffer_write_at(buf, 0, data, size);
}

bool mtlrt_buffer_read(MtlrtBuffer *buf, void *data, size_t size)
{
    return mtlrt_buffer_read_at(buf, 0, data, size);
}

/* The staging buffers and their command buffers and fences (context destruction). */
void rt_transfer_destroy(MtlrtContext *ctx)
{
    for (int i = 0; i < 2; i++) {
        StagingSlot *s = &ctx->staging[i];
        slot_wait(ctx, s);
        if (s->fence)
            vkDestroyFence(ctx->device, s->fence, NULL);
        if (s->cmd)
            vkFreeCommandBuffers(ctx->device, ctx->command_pool, 1, &s->cmd);
        mtlrt_buffer_destroy(s->buf);
        *s = (StagingSlot){0};
    }
    free(ctx->zero);
    ctx->zero = NULL;
    ctx->n_zero = ctx->cap_zero = 0;
}
