/* commands.c: command lists. Dispatches, copies and fills are recorded into one Vulkan command buffer and
   submitted together; submission returns at once and mtlrt_commands_wait waits. Between two commands that touch
   the same buffer and at least one writes it, a memory barrier is recorded, as a Metal compute encoder with
   hazard tracking orders its dispatches; commands on different buffers run without one. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define SETS_PER_POOL 64
#define SET_CACHE 64 /* descriptor sets remembered for reuse by later dispatches with the same buffers */

/* ---- buffers touched since the last barrier ---- */

static bool contains(const VkBuffer *list, uint32_t n, VkBuffer b)
{
    for (uint32_t i = 0; i < n; i++)
        if (list[i] == b)
            return true;
    return false;
}

static bool add_buffer(VkBuffer **list, uint32_t *n, uint32_t *cap, VkBuffer b)
{
    if (contains(*list, *n, b))
        return true;
    if (*n == *cap) {
        uint32_t c = *cap ? 2 * *cap : 16;
        VkBuffer *l = realloc(*list, c * sizeof *l);
        if (!l)
            return rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        *list = l, *cap = c;
    }
    (*list)[(*n)++] = b;
    return true;
}

/* A command reading READS and writing WRITES depends on commands that read READ and wrote WRITTEN. */
static bool hazard(const VkBuffer *read, uint32_t n_read, const VkBuffer *written, uint32_t n_written,
                   const VkBuffer *reads, uint32_t n_reads, const VkBuffer *writes, uint32_t n_writes)
{
    for (uint32_t i = 0; i < n_reads; i++)
        if (contains(written, n_written, reads[i]))
            return true;
    for (uint32_t i = 0; i < n_writes; i++)
        if (contains(written, n_written, writes[i]) || contains(read, n_read, writes[i]))
            return true;
    return false;
}

/* A barrier from the stages SRC (of the commands since the last barrier: a chain of dispatches waits for compute
   work alone) to the stages DST (compute, or compute and transfer): writes of SRC made visible to DST's accesses. */
static void barrier(MtlrtCommands *c, VkPipelineStageFlags src, VkPipelineStageFlags dst)
{
    if (!src)
        src = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = (src & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT ? VK_ACCESS_SHADER_WRITE_BIT : 0) |
                         (src & VK_PIPELINE_STAGE_TRANSFER_BIT ? VK_ACCESS_TRANSFER_WRITE_BIT : 0),
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                         (dst & VK_PIPELINE_STAGE_TRANSFER_BIT ? VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT : 0),
    };
    vkCmdPipelineBarrier(c->cmd, src, dst, 0, 1, &b, 0, NULL, 0, NULL);
    c->n_barriers++;
}

/* Everything recorded so far is ordered before what comes next (a barrier to compute and transfer was recorded). */
static void forget_hazards(MtlrtCommands *c)
{
    c->n_read = c->n_written = c->n_t_read = c->n_t_written = 0;
    c->stages = c->t_stages = 0;
    c->after_indirect = false;
}

/* Before a command of STAGE that reads READS and writes WRITES: a barrier if it reads what an earlier command
   wrote, or writes what one read or wrote, since the last barrier that orders it; then the sets grow by this
   command's. A dispatch's barrier reaches compute work only (what a chain of dispatches needs; later dispatches
   are ordered by it, and each barrier's source takes in the compute stage of the dispatch after the one before, so
   barriers chain); copies and fills check what was touched since the last barrier that reached transfers too, and
   their barrier reaches both. */
bool rt_commands_order(MtlrtCommands *c, VkPipelineStageFlags stage, const VkBuffer *reads, uint32_t n_reads,
                       const VkBuffer *writes, uint32_t n_writes)
{
    if (c->after_indirect) { /* what it reached through addresses is unknown: everything waits for it */
        c->after_indirect = false;
        mtlrt_commands_barrier(c);
    }
    if (stage == VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) {
        if (hazard(c->read, c->n_read, c->written, c->n_written, reads, n_reads, writes, n_writes)) {
            barrier(c, c->stages, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
            c->n_read = c->n_written = 0;
            c->stages = 0;
        }
    } else if (hazard(c->t_read, c->n_t_read, c->t_written, c->n_t_written, reads, n_reads, writes, n_writes)) {
        barrier(c, c->t_stages, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT);
        forget_hazards(c);
    }
    c->stages |= stage;
    c->t_stages |= stage;
    for (uint32_t i = 0; i < n_reads; i++)
        if (!add_buffer(&c->read, &c->n_read, &c->cap_read, reads[i]) ||
            !add_buffer(&c->t_read, &c->n_t_read, &c->cap_t_read, reads[i]))
            return false;
    for (uint32_t i = 0; i < n_writes; i++)
        if (!add_buffer(&c->written, &c->n_written, &c->cap_written, writes[i]) ||
            !add_buffer(&c->t_written, &c->n_t_written, &c->cap_t_written, writes[i]))
            return false;
    return true;
}

/* ---- recording state ---- */

MtlrtCommands *mtlrt_commands_create(MtlrtContext *ctx)
{
    MtlrtCommands *c = calloc(1, sizeof *c);
    if (!c) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    c->ctx = ctx;
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 2, /* the commands, and a prologue for zero-fills pending at submission */
    };
    VkCommandBuffer cmds[2];
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (!rt_vk_ok(vkAllocateCommandBuffers(ctx->device, &alloc, cmds), "vkAllocateCommandBuffers")) {
        free(c);
        return NULL;
    }
    c->cmd = cmds[0], c->prologue = cmds[1];
    if (!rt_vk_ok(vkCreateFence(ctx->device, &fence, NULL, &c->fence), "vkCreateFence")) {
        mtlrt_commands_destroy(c);
        return NULL;
    }
    return c;
}

/* Begin recording on first use: reset the GPU timer queries and note the start time. */
bool rt_commands_recording(MtlrtCommands *c)
{
    if (c->recording)
        return true;
    if (c->ended)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "this command list was submitted; mtlrt_commands_reset it "
                       "before recording more");
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if (!rt_vk_ok(vkBeginCommandBuffer(c->cmd, &begin), "vkBeginCommandBuffer"))
        return false;
    c->recording = true;
    if (c->queries && c->query_capacity < 2 + 2 * c->max_timed) {
        vkDestroyQueryPool(c->ctx->device, c->queries, NULL);
        c->queries = VK_NULL_HANDLE;
    }
    if (c->ctx->timestamp_valid_bits && !c->queries) {
        VkQueryPoolCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = 2 + 2 * c->max_timed,
        };
        if (!rt_vk_ok(vkCreateQueryPool(c->ctx->device, &info, NULL, &c->queries), "vkCreateQueryPool"))
            return false;
        c->query_capacity = info.queryCount;
    }
    if (c->queries) {
        vkCmdResetQueryPool(c->cmd, c->queries, 0, 2 + 2 * c->max_timed);
        vkCmdWriteTimestamp(c->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->queries, 0);
    }
    rt_full_barrier(c->cmd); /* after whatever was submitted before */
    rt_commands_forget_bindings(c);
    return true;
}

void rt_commands_forget_bindings(MtlrtCommands *c)
{
    c->bound_pipeline = VK_NULL_HANDLE;
    c->bound_layout = VK_NULL_HANDLE;
    c->bound_set = VK_NULL_HANDLE;
    c->bound_push_size = 0;
}

/* A timestamp pair around one timed command: index of its first query (written at TOP_OF_PIPE now). */
bool rt_commands_timestamp(MtlrtCommands *c, bool end, uint32_t *slot)
{
    if (!c->queries)
        return rt_fail(MTLRT_ERROR_UNSUPPORTED, "timestamps: device %s's compute queue has no timestamps "
                       "(timestampValidBits 0%s)", c->ctx->props.deviceName,
                       c->ctx->props.limits.timestampComputeAndGraphics ? "" : ", timestampComputeAndGraphics false");
    if (!end && c->n_timed == c->max_timed)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "more timed commands than the list was made for (%u)",
                       c->max_timed);
    if (!end)
        *slot = c->n_timed++;
    vkCmdWriteTimestamp(c->cmd, end ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        c->queries, 2 + 2 * *slot + end);
    return true;
}

/* A descriptor pool with room for SETS_PER_POOL more sets: the next one kept from an earlier recording, or a new
   one. */
static bool new_pool(MtlrtCommands *c)
{
    c->sets_in_pool = 0;
    if (c->cur_pool < c->n_pools) {
        c->cur_pool++;
        return true;
    }
    VkDescriptorPool *pools = realloc(c->pools, (c->n_pools + 1) * sizeof *pools);
    if (!pools)
        return rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
    c->pools = pools;
    VkDescriptorPoolSize size = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 .descriptorCount = SETS_PER_POOL * MAX_BINDINGS};
    VkDescriptorPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = SETS_PER_POOL,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    if (!rt_vk_ok(vkCreateDescriptorPool(c->ctx->device, &info, NULL, &c->pools[c->n_pools]), "vkCreateDescriptorPool"))
        return false;
    c->cur_pool = ++c->n_pools;
    return true;
}

/* The descriptor set of PIPE's layout with BUFFERS[binding] (N bindings; VK_NULL_HANDLE where none): one made
   earlier in this list with the same buffers, or a new one. */
bool rt_commands_descriptor_set(MtlrtCommands *c, const MtlrtPipeline *pipe, const VkBuffer *buffers, uint32_t n,
                                VkDescriptorSet *out)
{
    for (uint32_t i = 0; i < c->n_cached && i < SET_CACHE; i++) {
        const CachedSet *s = &c->cached[i];
        if (s->layout == pipe->set_layout && s->n == n && !memcmp(s->buffers, buffers, n * sizeof *buffers)) {
            *out = s->set;
            return true;
        }
    }
    if ((!c->cur_pool || c->sets_in_pool == SETS_PER_POOL) && !new_pool(c))
        return false;
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = c->pools[c->cur_pool - 1],
        .descriptorSetCount = 1,
        .pSetLayouts = &pipe->set_layout,
    };
    if (!rt_vk_ok(vkAllocateDescriptorSets(c->ctx->device, &alloc, out), "vkAllocateDescriptorSets"))
        return false;
    c->sets_in_pool++;
    VkDescriptorBufferInfo infos[MAX_BINDINGS];
    VkWriteDescriptorSet writes[MAX_BINDINGS];
    uint32_t n_writes = 0;
    for (uint32_t b = 0; b < n; b++) {
        if (!buffers[b])
            continue;
        infos[n_writes] = (VkDescriptorBufferInfo){.buffer = buffers[b], .range = VK_WHOLE_SIZE};
        writes[n_writes] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = *out,
            .dstBinding = b,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &infos[n_writes],
        };
        n_writes++;
    }
    vkUpdateDescriptorSets(c->ctx->device, n_writes, writes, 0, NULL);
    CachedSet *s = &c->cached[c->next_cached];
    c->next_cached = (c->next_cached + 1) % SET_CACHE;
    if (c->n_cached < SET_CACHE)
        c->n_cached++;
    s->layout = pipe->set_layout, s->n = n, s->set = *out;
    memcpy(s->buffers, buffers, n * sizeof *buffers);
    return true;
}

/* ---- copies and fills ---- */

/* RANGE of BUF must be inside it and 4-byte aligned (vkCmdFillBuffer; copies need no alignment). */
static bool check_range(const MtlrtBuffer *buf, size_t offset, size_t size, bool aligned, const char *what)
{
    if (offset > buf->size || size > buf->size - offset)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "%s: %zu bytes at offset %zu of a buffer of %zu bytes", what,
                       size, offset, buf->size);
    if (aligned && (offset % 4 || (size % 4 && offset + size != buf->size)))
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "%s: offset %zu and size %zu must be multiples of 4", what,
                       offset, size);
    return true;
}

bool mtlrt_commands_copy(MtlrtCommands *c, MtlrtBuffer *dst, size_t dst_offset, MtlrtBuffer *src, size_t src_offset,
                         size_t size)
{
    if (!check_range(dst, dst_offset, size, false, "mtlrt_commands_copy destination") ||
        !check_range(src, src_offset, size, false, "mtlrt_commands_copy source"))
        return false;
    if (src == dst && src_offset < dst_offset + size && dst_offset < src_offset + size)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "mtlrt_commands_copy: source and destination ranges overlap");
    if (!size)
        return true;
    if (!rt_commands_recording(c) ||
        !rt_commands_order(c, VK_PIPELINE_STAGE_TRANSFER_BIT, &src->buffer, 1, &dst->buffer, 1))
        return false;
    VkBufferCopy region = {.srcOffset = src_offset, .dstOffset = dst_offset, .size = size};
    vkCmdCopyBuffer(c->cmd, src->buffer, dst->buffer, 1, &region);
    c->n_commands++;
    return true;
}

bool mtlrt_commands_fill(MtlrtCommands *c, MtlrtBuffer *dst, size_t offset, size_t size, uint32_t value)
{
    if (!check_range(dst, offset, size, true, "mtlrt_commands_fill"))
        return false;
    if (!size)
        return true;
    if (!rt_commands_recording(c) || !rt_commands_order(c, VK_PIPELINE_STAGE_TRANSFER_BIT, NULL, 0, &dst->buffer, 1))
        return false;
    VkDeviceSize bytes = offset + size == dst->size ? VK_WHOLE_SIZE : size; /* the allocation's padding too */
    vkCmdFillBuffer(c->cmd, dst->buffer, offset, bytes, value);
    c->n_commands++;
    return true;
}

/* Metal's memoryBarrier(scope: .buffers): every later command sees every earlier command's writes. */
bool mtlrt_commands_barrier(MtlrtCommands *c)
{
    if (!rt_commands_recording(c))
        return false;
    rt_full_barrier(c->cmd);
    forget_hazards(c);
    c->n_barriers++;
    return true;
}

/* ---- submission ---- */

/* End recording: the last timestamp, and the writes made visible to the host. */
static bool end_recording(MtlrtCommands *c)
{
    if (!rt_commands_recording(c))
        return false;
    VkMemoryBarrier host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(c->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL, 0, NULL);
    if (c->queries)
        vkCmdWriteTimestamp(c->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->queries, 1);
    c->recording = false;
    c->ended = true;
    return rt_vk_ok(vkEndCommandBuffer(c->cmd), "vkEndCommandBuffer");
}

bool mtlrt_commands_submit(MtlrtCommands *c)
{
    if (c->pending)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "this command list is still running; mtlrt_commands_wait for it "
                       "before submitting it again");
    if (!c->ended && !end_recording(c))
        return false;
    VkCommandBuffer cmds[2] = {c->prologue, c->cmd};
    bool prologue = false;
    if (c->ctx->n_zero) { /* buffers created since the last submission, to be cleared first */
        VkCommandBufferBeginInfo begin = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
            .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
        };
        if (!rt_vk_ok(vkBeginCommandBuffer(c->prologue, &begin), "vkBeginCommandBuffer"))
            return false;
        prologue = rt_record_zero_fills(c->ctx, c->prologue);
        if (!rt_vk_ok(vkEndCommandBuffer(c->prologue), "vkEndCommandBuffer"))
            return false;
    }
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = prologue ? 2 : 1,
        .pCommandBuffers = prologue ? cmds : cmds + 1,
    };
    if (!rt_vk_ok(vkResetFences(c->ctx->device, 1, &c->fence), "vkResetFences") ||
        !rt_vk_ok(vkQueueSubmit(c->ctx->queue, 1, &submit, c->fence), "vkQueueSubmit"))
        return false;
    c->pending = true;
    c->finished = false;
    c->ctx->in_flight++;
    return true;
}

/* GPU time of the whole list and of each timed command, from the timestamps. */
static bool read_times(MtlrtCommands *c)
{
    uint32_t n = 2 + 2 * c->n_timed;
    uint64_t *ticks = calloc(n, sizeof *ticks);
    free(c->timed_ms);
    c->timed_ms = calloc(c->n_timed ? c->n_timed : 1, sizeof *c->timed_ms);
    if (!ticks || !c->timed_ms) {
        free(ticks);
        return rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    bool ok = rt_vk_ok(vkGetQueryPoolResults(c->ctx->device, c->queries, 0, n, n * sizeof *ticks, ticks,
                                             sizeof *ticks, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                       "vkGetQueryPoolResults");
    uint32_t bits = c->ctx->timestamp_valid_bits;
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    double period = c->ctx->props.limits.timestampPeriod * 1e-6;
    c->gpu_ms = ok ? (double)((ticks[1] - ticks[0]) & mask) * period : 0;
    for (uint32_t i = 0; ok && i < c->n_timed; i++)
        c->timed_ms[i] = (double)((ticks[3 + 2 * i] - ticks[2 + 2 * i]) & mask) * period;
    c->have_times = ok;
    free(ticks);
    return ok;
}

MtlrtStatus mtlrt_commands_wait(MtlrtCommands *c, uint64_t timeout_ns)
{
    if (!c->pending && c->finished)
        return MTLRT_OK; /* waited for already */
    if (!c->pending) {
        rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "mtlrt_commands_wait: the command list was not submitted");
        return MTLRT_ERROR_INVALID_ARGUMENT;
    }
    VkResult res = vkWaitForFences(c->ctx->device, 1, &c->fence, VK_TRUE, timeout_ns);
    if (res == VK_TIMEOUT)
        return MTLRT_NOT_READY;
    c->pending = false;
    c->finished = true;
    c->ctx->in_flight--;
    if (!rt_vk_ok(res, "vkWaitForFences"))
        return mtlrt_last_status();
    if (c->queries && !read_times(c))
        return mtlrt_last_status();
    if (!rt_bounds_report(c))
        return mtlrt_last_status();
    return MTLRT_OK;
}

bool mtlrt_commands_gpu_time(const MtlrtCommands *c, double *ms)
{
    if (!c->have_times)
        return rt_fail(MTLRT_ERROR_UNSUPPORTED, "no GPU time: the list has not run to completion, or device %s's "
                       "queue has no timestamps", c->ctx->props.deviceName);
    *ms = c->gpu_ms;
    return true;
}

uint32_t mtlrt_commands_count(const MtlrtCommands *c)
{
    return c->n_commands;
}

uint32_t mtlrt_commands_barriers(const MtlrtCommands *c)
{
    return c->n_barriers;
}

/* Wait for the list if it runs, then forget everything recorded (descriptor pools, reset, and queries are kept). */
bool mtlrt_commands_reset(MtlrtCommands *c)
{
    if (c->pending && mtlrt_commands_wait(c, UINT64_MAX) != MTLRT_OK)
        return false;
    if (c->recording)
        vkEndCommandBuffer(c->cmd);
    if (!rt_vk_ok(vkResetCommandBuffer(c->cmd, 0), "vkResetCommandBuffer"))
        return false;
    for (uint32_t i = 0; i < c->cur_pool; i++) /* its sets are freed; the pool is used again */
        if (!rt_vk_ok(vkResetDescriptorPool(c->ctx->device, c->pools[i], 0), "vkResetDescriptorPool"))
            return false;
    c->cur_pool = c->sets_in_pool = 0;
    c->n_cached = c->next_cached = 0;
    forget_hazards(c);
    c->recording = c->ended = c->have_times = c->finished = false;
    c->n_commands = c->n_barriers = c->n_timed = 0;
    c->n_bounds = 0;
    return true;
}

void mtlrt_commands_destroy(MtlrtCommands *c)
{
    if (!c)
        return;
    VkDevice dev = c->ctx->device;
    if (c->pending && mtlrt_commands_wait(c, UINT64_MAX) == MTLRT_NOT_READY)
        vkDeviceWaitIdle(dev);
    if (c->recording)
        vkEndCommandBuffer(c->cmd);
    for (uint32_t i = 0; i < c->n_pools; i++)
        vkDestroyDescriptorPool(dev, c->pools[i], NULL);
    if (c->queries)
        vkDestroyQueryPool(dev, c->queries, NULL);
    if (c->fence)
        vkDestroyFence(dev, c->fence, NULL);
    VkCommandBuffer cmds[2] = {c->cmd, c->prologue};
    vkFreeCommandBuffers(dev, c->ctx->command_pool, 2, cmds);
    free(c->pools);
    free(c->read);
    free(c->written);
    free(c->t_read);
    free(c->t_written);
    free(c->timed_ms);
    free(c->bounds);
    free(c);
}
