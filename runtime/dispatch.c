/* dispatch.c: one dispatch with Metal semantics. dispatchThreads (grid of threads, any size) becomes
   ceil(grid / threadgroup) workgroups with threads_per_grid = grid in the push-constant dispatch block (the
   kernel returns early outside it); dispatchThreadgroups becomes exactly that many workgroups.
   Kernels with barriers or SIMD-group functions ("exact_threadgroups") must not have threads outside the grid:
   the grid is cut into up to 8 regions (whole threadgroups, and the partial ones at the x, y, z edges), each
   dispatched with vkCmdDispatchBase by a pipeline whose local size is that region's threadgroup size. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define FENCE_TIMEOUT_NS (300ull * 1000 * 1000 * 1000)
#define MTLRT_CPU_MAX_THREADS (1ull << 32) /* threads of one dispatch on a CPU device (docs/limits.md) */

/* Workgroups of one pipeline variant: COUNT groups from group BASE. */
typedef struct Region {
    VariantKey key;
    uint32_t base[3], count[3];
    VkPipeline pipeline;
} Region;

/* Vulkan objects of one submission; destroyed together by submission_destroy. */
typedef struct Submission {
    MtlrtContext *ctx;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkQueryPool queries;
    VkCommandBuffer cmd;
    VkFence fence;
    uint32_t runs;
    uint32_t n_regions;
    Region regions[8];
    uint8_t push[256];
    MtlrtBuffer *backup[MAX_BINDINGS]; /* initial contents of written buffers, for --repeat */
} Submission;

static void submission_destroy(Submission *s)
{
    VkDevice dev = s->ctx->device;
    if (s->fence)
        vkDestroyFence(dev, s->fence, NULL);
    if (s->cmd)
        vkFreeCommandBuffers(dev, s->ctx->command_pool, 1, &s->cmd);
    if (s->queries)
        vkDestroyQueryPool(dev, s->queries, NULL);
    if (s->pool)
        vkDestroyDescriptorPool(dev, s->pool, NULL);
    for (int i = 0; i < MAX_BINDINGS; i++)
        mtlrt_buffer_destroy(s->backup[i]);
}

/* Threadgroup size against the device limits, the kernel's max_total_threads_per_threadgroup and a local
   size the shader may have fixed. */
static bool check_threadgroup(const MtlrtPipeline *pipe, const uint32_t tg[3])
{
    const VkPhysicalDeviceLimits *lim = &pipe->ctx->props.limits;
    const char *dev = pipe->ctx->props.deviceName;
    uint64_t total = (uint64_t)tg[0] * tg[1] * tg[2];
    for (int i = 0; i < 3; i++) {
        if (tg[i] == 0 || tg[i] > lim->maxComputeWorkGroupSize[i]) {
            rt_error("threadgroup %c size %u: must be 1..%u on device %s (maxComputeWorkGroupSize)", "xyz"[i], tg[i],
                     lim->maxComputeWorkGroupSize[i], dev);
            return false;
        }
        if (pipe->fixed_local_size[i] && pipe->fixed_local_size[i] != tg[i]) {
            rt_error("%s fixes its local_size_%c to %u, but the threadgroup asks for %u", pipe->name, "xyz"[i],
                     pipe->fixed_local_size[i], tg[i]);
            return false;
        }
    }
    if (total > lim->maxComputeWorkGroupInvocations) {
        rt_error("threadgroup %ux%ux%u = %llu threads exceeds device %s's maxComputeWorkGroupInvocations (%u)", tg[0],
                 tg[1], tg[2], (unsigned long long)total, dev, lim->maxComputeWorkGroupInvocations);
        return false;
    }
    if (pipe->refl->max_total_threads && total > pipe->refl->max_total_threads) {
        rt_error("threadgroup %ux%ux%u = %llu threads exceeds kernel %s's max_total_threads_per_threadgroup (%u)",
                 tg[0], tg[1], tg[2], (unsigned long long)total, pipe->refl->entry, pipe->refl->max_total_threads);
        return false;
    }
    return true;
}

/* Workgroup counts and threads_per_grid (into the push bytes) for D; checks maxComputeWorkGroupCount. */
static bool compute_grid(Submission *s, const MtlrtDispatch *d)
{
    const VkPhysicalDeviceLimits *lim = &s->ctx->props.limits;
    uint32_t threads[4] = {0, 0, 0, 0};
    for (int i = 0; i < 3; i++) {
        uint64_t groups = d->size[i], total = (uint64_t)d->size[i] * d->threadgroup[i];
        if (d->style == MTLRT_DISPATCH_THREADS) {
            groups = (d->size[i] + (uint64_t)d->threadgroup[i] - 1) / d->threadgroup[i];
            total = d->size[i];
        }
        if (d->size[i] == 0 || groups > lim->maxComputeWorkGroupCount[i] || total > UINT32_MAX) {
            rt_error("%s %c = %u gives %llu threadgroups; must be 1..%u on device %s (maxComputeWorkGroupCount)",
                     d->style == MTLRT_DISPATCH_THREADS ? "grid" : "threadgroups", "xyz"[i], d->size[i],
                     (unsigned long long)groups, lim->maxComputeWorkGroupCount[i], s->ctx->props.deviceName);
            return false;
        }
        threads[i] = (uint32_t)total;
    }
    /* A CPU device (lavapipe) runs some 10^8..10^9 threads a second: past MTLRT_CPU_MAX_THREADS a dispatch would run
       for minutes or days (65535^3 threads), so it is refused up front rather than left to the fence's timeout. */
    long double all = (long double)threads[0] * threads[1] * threads[2]; /* up to 2^96 */
    const char *env = getenv("MTLRT_CPU_MAX_THREADS");
    uint64_t cap = env && *env ? strtoull(env, NULL, 10) : MTLRT_CPU_MAX_THREADS;
    if (s->ctx->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && cap && all > cap) {
        rt_error("a grid of %u x %u x %u = %.0f threads on the CPU device %s: more than %llu, the limit for a CPU "
                 "device (MTLRT_CPU_MAX_THREADS=N raises it, 0 removes it; docs/limits.md)", threads[0], threads[1],
                 threads[2], (double)all, s->ctx->props.deviceName, (unsigned long long)cap);
        return false;
    }
    memcpy(s->push, threads, 16);
    return true;
}

/* Threadgroup memory lengths of KEY from D's byte counts, checked against the kernel and device. */
static bool threadgroup_lengths(const MtlrtPipeline *pipe, const MtlrtDispatch *d, VariantKey *key)
{
    const MtlrtReflection *r = pipe->refl;
    uint64_t total = r->threadgroup_memory;
    for (uint32_t i = 0; i < r->n_threadgroup_params; i++) {
        const MtlrtThreadgroupParam *t = &r->threadgroup_params[i];
        uint32_t bytes = d->threadgroup_memory[t->index];
        if (!bytes || bytes % t->element_size) {
            rt_error("threadgroup buffer %u (%s) of kernel %s: %s (a positive multiple of %u bytes; mtlrun "
                     "--threadgroup-memory %u=BYTES)", t->index, t->name, r->entry,
                     bytes ? "its size is not a whole number of elements" : "no size given", t->element_size, t->index);
            return false;
        }
        key->tg_length[t->index] = bytes / t->element_size;
        total += bytes;
    }
    if (total > pipe->ctx->props.limits.maxComputeSharedMemorySize) {
        rt_error("kernel %s needs %llu bytes of threadgroup memory; device %s has %u (maxComputeSharedMemorySize)",
                 r->entry, (unsigned long long)total, pipe->ctx->props.deviceName,
                 pipe->ctx->props.limits.maxComputeSharedMemorySize);
        return false;
    }
    return true;
}

/* The regions to dispatch and their pipelines: one for whole threadgroups, and for exact-threadgroup kernels
   of a dispatchThreads grid, one more per partial edge (local size = the partial size, base = its position). */
static bool plan_regions(Submission *s, MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    VariantKey key;
    memset(&key, 0, sizeof key);
    if (!threadgroup_lengths(pipe, d, &key))
        return false;
    uint32_t part_count[3][2], part_local[3][2], part_base[3][2];
    int n_parts[3];
    for (int i = 0; i < 3; i++) {
        uint32_t tg = d->threadgroup[i];
        key.full[i] = tg;
        n_parts[i] = 0;
        if (d->style == MTLRT_DISPATCH_THREADGROUPS) {
            part_count[i][0] = d->size[i], part_local[i][0] = tg, part_base[i][0] = 0, n_parts[i] = 1;
            continue;
        }
        uint32_t whole = d->size[i] / tg, rest = d->size[i] % tg;
        if (!pipe->refl->exact_threadgroups) {
            part_count[i][0] = whole + (rest != 0), part_local[i][0] = tg, part_base[i][0] = 0, n_parts[i] = 1;
            continue;
        }
        if (whole)
            part_count[i][n_parts[i]] = whole, part_local[i][n_parts[i]] = tg, part_base[i][n_parts[i]++] = 0;
        if (rest)
            part_count[i][n_parts[i]] = 1, part_local[i][n_parts[i]] = rest, part_base[i][n_parts[i]++] = whole;
    }
    s->n_regions = 0;
    for (int x = 0; x < n_parts[0]; x++)
        for (int y = 0; y < n_parts[1]; y++)
            for (int z = 0; z < n_parts[2]; z++) {
                int xyz[3] = {x, y, z};
                Region *g = &s->regions[s->n_regions++];
                g->key = key;
                for (int i = 0; i < 3; i++) {
                    g->key.local[i] = part_local[i][xyz[i]];
                    g->count[i] = part_count[i][xyz[i]];
                    g->base[i] = part_base[i][xyz[i]];
                }
                if (!rt_pipeline_variant(pipe, &g->key, &g->pipeline))
                    return false;
            }
    return true;
}

/* Every storage parameter has a buffer at least as large as the fixed part of its shader block. */
static bool check_bindings(const MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    for (uint32_t i = 0; i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        if (p->kind != MTLRT_PARAM_STORAGE)
            continue;
        MtlrtBuffer *b = p->binding < d->n_bindings ? d->bindings[p->binding] : NULL;
        if (!b) {
            rt_error("buffer %u (%s) of kernel %s: no buffer bound at binding %u", p->index, p->name, pipe->refl->entry,
                     p->binding);
            return false;
        }
        if (b->size < pipe->min_binding_size[p->binding]) {
            rt_error("buffer %u (%s): %zu bytes bound, but the shader's block needs at least %u", p->index, p->name,
                     b->size, pipe->min_binding_size[p->binding]);
            return false;
        }
    }
    return true;
}

/* The device address of each buffer a pointer chosen at run time may point into, at its push-constant offset
   (reflection `address_offset`, docs/interfaces.md). */
static bool write_addresses(Submission *s, const MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    for (uint32_t i = 0; i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        if (p->kind != MTLRT_PARAM_STORAGE || !p->address_offset)
            continue;
        if (p->address_offset % 8 || p->address_offset + 8 > pipe->push_size) {
            rt_error("buffer %u (%s): address offset %u is outside the %u push-constant bytes or not 8-aligned",
                     p->index, p->name, p->address_offset, pipe->push_size);
            return false;
        }
        VkDeviceAddress addr;
        if (!rt_buffer_address(d->bindings[p->binding], &addr))
            return false;
        memcpy(s->push + p->address_offset, &addr, sizeof addr);
    }
    return true;
}

/* Descriptor pool and set with each storage parameter's buffer. */
static bool write_descriptors(Submission *s, const MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    VkDescriptorPoolSize size = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = MAX_BINDINGS};
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    if (!rt_vk_ok(vkCreateDescriptorPool(s->ctx->device, &pool_info, NULL, &s->pool), "vkCreateDescriptorPool"))
        return false;
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = s->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &pipe->set_layout,
    };
    if (!rt_vk_ok(vkAllocateDescriptorSets(s->ctx->device, &alloc, &s->set), "vkAllocateDescriptorSets"))
        return false;
    for (uint32_t i = 0; i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        if (p->kind != MTLRT_PARAM_STORAGE)
            continue;
        VkDescriptorBufferInfo info = {.buffer = d->bindings[p->binding]->buffer, .range = VK_WHOLE_SIZE};
        VkWriteDescriptorSet write = {
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = s->set,
            .dstBinding = p->binding,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &info,
        };
        vkUpdateDescriptorSets(s->ctx->device, 1, &write, 0, NULL);
    }
    return true;
}

/* For repeated runs: a copy of each written buffer's current contents, restored before each later run. */
static bool make_backups(Submission *s, const MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    for (uint32_t i = 0; s->runs > 1 && i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        if (p->kind != MTLRT_PARAM_STORAGE || !strcmp(p->access, "read"))
            continue;
        MtlrtBuffer *b = d->bindings[p->binding];
        if (!(s->backup[p->binding] = mtlrt_buffer_create(s->ctx, b->size)) ||
            !mtlrt_buffer_write(s->backup[p->binding], b->map, b->size))
            return false;
    }
    return true;
}

/* Query pool of two timestamps per run, when asked and the queue supports them. */
static bool create_queries(Submission *s, bool timestamps)
{
    if (!timestamps)
        return true;
    if (s->ctx->timestamp_valid_bits == 0) {
        rt_error("--timestamps: device %s's compute queue has no timestamps (timestampValidBits 0%s)",
                 s->ctx->props.deviceName,
                 s->ctx->props.limits.timestampComputeAndGraphics ? "" : ", timestampComputeAndGraphics false");
        return false;
    }
    VkQueryPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = 2 * s->runs,
    };
    return rt_vk_ok(vkCreateQueryPool(s->ctx->device, &info, NULL, &s->queries), "vkCreateQueryPool");
}

/* Memory barrier from SRC to DST accesses between the stages of a run. */
static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src, VkPipelineStageFlags dst_stage,
                    VkAccessFlags dst)
{
    VkMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src, .dstAccessMask = dst};
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, NULL, 0, NULL);
}

/* Before run RUN > 0: copy the backups back over the written buffers. */
static void record_restore(Submission *s, const MtlrtDispatch *d)
{
    barrier(s->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    for (int b = 0; b < MAX_BINDINGS; b++) {
        if (!s->backup[b])
            continue;
        VkBufferCopy region = {.size = s->backup[b]->alloc_size};
        vkCmdCopyBuffer(s->cmd, s->backup[b]->buffer, d->bindings[b]->buffer, 1, &region);
    }
    barrier(s->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

/* Record all runs: bind, push constants, (restore,) timestamp, dispatch, timestamp; then make writes visible
   to the host. */
static bool record(Submission *s, MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if (!rt_vk_ok(vkBeginCommandBuffer(s->cmd, &begin), "vkBeginCommandBuffer"))
        return false;
    if (s->queries)
        vkCmdResetQueryPool(s->cmd, s->queries, 0, 2 * s->runs);
    vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->regions[0].pipeline);
    vkCmdBindDescriptorSets(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe->layout, 0, 1, &s->set, 0, NULL);
    if (pipe->push_size)
        vkCmdPushConstants(s->cmd, pipe->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pipe->push_size, s->push);
    for (uint32_t run = 0; run < s->runs; run++) {
        if (run > 0)
            record_restore(s, d);
        if (s->queries)
            vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s->queries, 2 * run);
        for (uint32_t g = 0; g < s->n_regions; g++) {
            if (g > 0 || run > 0)
                vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->regions[g].pipeline);
            if (pipe->refl->exact_threadgroups)
                vkCmdDispatchBase(s->cmd, s->regions[g].base[0], s->regions[g].base[1], s->regions[g].base[2],
                                  s->regions[g].count[0], s->regions[g].count[1], s->regions[g].count[2]);
            else
                vkCmdDispatch(s->cmd, s->regions[g].count[0], s->regions[g].count[1], s->regions[g].count[2]);
        }
        if (s->queries)
            vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s->queries, 2 * run + 1);
    }
    barrier(s->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_HOST_READ_BIT);
    return rt_vk_ok(vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer");
}

/* Submit the command buffer and wait for it. */
static bool submit_and_wait(Submission *s)
{
    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (!rt_vk_ok(vkCreateFence(s->ctx->device, &fence_info, NULL, &s->fence), "vkCreateFence"))
        return false;
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &s->cmd,
    };
    if (!rt_vk_ok(vkQueueSubmit(s->ctx->queue, 1, &submit, s->fence), "vkQueueSubmit"))
        return false;
    VkResult res = vkWaitForFences(s->ctx->device, 1, &s->fence, VK_TRUE, FENCE_TIMEOUT_NS);
    if (res == VK_TIMEOUT) {
        rt_error("vkWaitForFences: the kernel did not finish within %llu s (VK_TIMEOUT)",
                 FENCE_TIMEOUT_NS / 1000000000ull);
        vkDeviceWaitIdle(s->ctx->device);
        return false;
    }
    return rt_vk_ok(res, "vkWaitForFences");
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* GPU time of each run from the timestamps: min, median, mean in milliseconds. */
static bool read_timestamps(Submission *s, MtlrtDispatchStats *stats)
{
    uint64_t *ticks = calloc(2 * s->runs, sizeof *ticks);
    double *ms = calloc(s->runs, sizeof *ms);
    bool ok = ticks && ms &&
              rt_vk_ok(vkGetQueryPoolResults(s->ctx->device, s->queries, 0, 2 * s->runs, 2 * s->runs * sizeof *ticks,
                                             ticks, sizeof *ticks, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                       "vkGetQueryPoolResults");
    uint64_t mask = s->ctx->timestamp_valid_bits >= 64 ? ~0ull : (1ull << s->ctx->timestamp_valid_bits) - 1;
    double sum = 0;
    for (uint32_t i = 0; ok && i < s->runs; i++) {
        ms[i] = (double)((ticks[2 * i + 1] - ticks[2 * i]) & mask) * s->ctx->props.limits.timestampPeriod * 1e-6;
        sum += ms[i];
    }
    if (ok) {
        qsort(ms, s->runs, sizeof *ms, compare_double);
        stats->have_gpu_time = true;
        stats->gpu_ms_min = ms[0];
        stats->gpu_ms_median = s->runs % 2 ? ms[s->runs / 2] : (ms[s->runs / 2 - 1] + ms[s->runs / 2]) / 2;
        stats->gpu_ms_mean = sum / s->runs;
    }
    free(ticks);
    free(ms);
    return ok;
}

/* Allocate the command buffer of the submission. */
static bool allocate_command_buffer(Submission *s)
{
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = s->ctx->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    return rt_vk_ok(vkAllocateCommandBuffers(s->ctx->device, &info, &s->cmd), "vkAllocateCommandBuffers");
}

/* Run the kernel as D says and wait for it. */
bool mtlrt_dispatch(MtlrtPipeline *pipe, const MtlrtDispatch *d, MtlrtDispatchStats *stats)
{
    Submission s = {.ctx = pipe->ctx, .runs = d->repeat ? d->repeat : 1};
    MtlrtDispatchStats dummy;
    if (!stats)
        stats = &dummy;
    memset(stats, 0, sizeof *stats);
    stats->runs = s.runs;
    if (d->push_data)
        memcpy(s.push, d->push_data, d->push_size < pipe->push_size ? d->push_size : pipe->push_size);
    bool ok = check_threadgroup(pipe, d->threadgroup) && compute_grid(&s, d) && check_bindings(pipe, d) &&
              write_addresses(&s, pipe, d) &&
              plan_regions(&s, pipe, d) && write_descriptors(&s, pipe, d) &&
              make_backups(&s, pipe, d) && create_queries(&s, d->timestamps) && allocate_command_buffer(&s) &&
              record(&s, pipe, d) && submit_and_wait(&s) && (!s.queries || read_timestamps(&s, stats));
    submission_destroy(&s);
    return ok;
}
