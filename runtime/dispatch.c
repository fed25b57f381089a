/* dispatch.c: one dispatch with Metal semantics, checked and recorded into a command list (commands.c).
   dispatchThreads (grid of threads, any size) becomes ceil(grid / threadgroup) workgroups with threads_per_grid =
   grid in the push-constant dispatch block (the kernel returns early outside it); dispatchThreadgroups becomes
   exactly that many workgroups. Kernels with barriers or SIMD-group functions ("exact_threadgroups") must not
   have threads outside the grid: the grid is cut into up to 8 regions (whole threadgroups, and the partial ones at
   the x, y, z edges), each dispatched with vkCmdDispatchBase by a pipeline whose local size is that region's
   threadgroup size. mtlrt_dispatch runs one dispatch (repeated, timed) in a list of its own and waits. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define FENCE_TIMEOUT_NS (300ull * 1000 * 1000 * 1000)

/* Workgroups of one pipeline variant: COUNT groups from group BASE. */
typedef struct Region {
    VariantKey key;
    uint32_t base[3], count[3];
    VkPipeline pipeline;
} Region;

/* A dispatch checked and planned, ready to record. */
typedef struct Launch {
    bool empty; /* a grid of 0 threads: a valid launch that runs nothing */
    uint32_t n_regions;
    Region regions[8];
    uint8_t push[256];
    VkBuffer buffers[MAX_BINDINGS + 1]; /* by binding; the bounds-check record last where the kernel has one */
    uint32_t n_buffers;
    VkBuffer reads[MAX_BINDINGS + 1], writes[MAX_BINDINGS + 1];
    uint32_t n_reads, n_writes;
} Launch;

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

/* Workgroup counts and threads_per_grid (into the push bytes) for D; checks maxComputeWorkGroupCount. A size of
   0 in any dimension is an empty grid: nothing runs. */
static bool compute_grid(Launch *s, const MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    const VkPhysicalDeviceLimits *lim = &pipe->ctx->props.limits;
    uint32_t threads[4] = {0, 0, 0, 0};
    for (int i = 0; i < 3; i++) {
        uint64_t groups = d->size[i], total = (uint64_t)d->size[i] * d->threadgroup[i];
        if (d->style == MTLRT_DISPATCH_THREADS) {
            groups = (d->size[i] + (uint64_t)d->threadgroup[i] - 1) / d->threadgroup[i];
            total = d->size[i];
        }
        if (groups > lim->maxComputeWorkGroupCount[i] || total > UINT32_MAX)
            return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "%s %c = %u gives %llu threadgroups; must be at most %u on "
                           "device %s (maxComputeWorkGroupCount)",
                           d->style == MTLRT_DISPATCH_THREADS ? "grid" : "threadgroups", "xyz"[i], d->size[i],
                           (unsigned long long)groups, lim->maxComputeWorkGroupCount[i], pipe->ctx->props.deviceName);
        threads[i] = (uint32_t)total;
        s->empty |= d->size[i] == 0;
    }
    /* A CPU device (lavapipe) runs some 10^8..10^9 threads a second: past MTLRT_CPU_MAX_THREADS a dispatch would run
       for minutes or days (65535^3 threads), so it is refused up front rather than left to the fence's timeout. */
    long double all = (long double)threads[0] * threads[1] * threads[2]; /* up to 2^96 */
    uint64_t cap = pipe->ctx->cpu_max_threads; /* MTLRT_CPU_MAX_THREADS, read when the context was made */
    if (pipe->ctx->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && cap && all > cap)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "a grid of %u x %u x %u = %.0f threads on the CPU device %s: more "
                       "than %llu, the limit for a CPU device (MTLRT_CPU_MAX_THREADS=N raises it, 0 removes it; "
                       "docs/limits.md)", threads[0], threads[1], threads[2], (double)all, pipe->ctx->props.deviceName,
                       (unsigned long long)cap);
    memcpy(s->push, threads, 16);
    return true;
}

/* The threads of D's largest threadgroup along X (AXES 1) or in all (AXES 3): a dispatchThreads grid smaller than
   the threadgroup has only the grid's threads. */
static uint64_t threads_per_group(const MtlrtDispatch *d, int axes)
{
    uint64_t n = 1;
    for (int i = 0; i < axes; i++)
        n *= d->style == MTLRT_DISPATCH_THREADS && d->size[i] < d->threadgroup[i] ? d->size[i] : d->threadgroup[i];
    return n;
}

/* Threadgroup memory lengths of KEY from D's byte counts, checked against the kernel (Metal's rules for
   setThreadgroupMemoryLength: a multiple of 16 bytes; at least what the kernel is proven to index) and device. */
static bool threadgroup_lengths(const MtlrtPipeline *pipe, const MtlrtDispatch *d, VariantKey *key)
{
    const MtlrtReflection *r = pipe->refl;
    uint64_t total = r->threadgroup_memory;
    for (uint32_t i = 0; i < r->n_threadgroup_params; i++) {
        const MtlrtThreadgroupParam *t = &r->threadgroup_params[i];
        uint32_t bytes = d->threadgroup_memory[t->index];
        uint64_t need = t->min_elements ? t->min_elements : 1;
        const char *why = need > 1 ? "it indexes it with a constant" : "at least one element";
        if (t->min_per_thread != MTLRT_TG_PER_THREAD_NONE) {
            uint64_t per = threads_per_group(d, t->min_per_thread == MTLRT_TG_PER_THREAD_X ? 1 : 3);
            if (per > need) {
                need = per;
                why = t->min_per_thread == MTLRT_TG_PER_THREAD_X
                          ? "it indexes it with thread_position_in_threadgroup.x, one element per thread along x"
                          : "it indexes it with thread_index_in_threadgroup, one element per thread";
            }
        }
        uint64_t need_bytes = (need * t->element_size + 15) / 16 * 16;
        if (!bytes || bytes % 16 || bytes < need * t->element_size) {
            if (!bytes)
                rt_error("threadgroup buffer %u (%s) of kernel %s: no size given (mtlrun --threadgroup-memory "
                         "%u=BYTES, at least %llu)", t->index, t->name, r->entry, t->index,
                         (unsigned long long)need_bytes);
            else if (bytes % 16)
                rt_error("threadgroup buffer %u (%s) of kernel %s: %u bytes is not a multiple of 16 (Metal's rule "
                         "for threadgroup memory lengths; mtlrun --threadgroup-memory %u=BYTES)", t->index, t->name,
                         r->entry, bytes, t->index);
            else
                rt_error("threadgroup buffer %u (%s) of kernel %s: %u bytes is too small: the kernel needs at least "
                         "%llu bytes, %llu %s elements (%s; mtlrun --threadgroup-memory %u=BYTES)", t->index, t->name,
                         r->entry, bytes, (unsigned long long)need_bytes, (unsigned long long)need, t->type, why,
                         t->index);
            return false;
        }
        key->tg_length[t->index] = bytes / t->element_size; /* as Metal: the whole elements the bytes hold */
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
static bool plan_regions(Launch *s, MtlrtPipeline *pipe, const MtlrtDispatch *d)
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

/* The buffer the host bound for storage parameter P, or NULL (one that exists only under a function constant). */
static MtlrtBuffer *given(const MtlrtParam *p, const MtlrtDispatch *d)
{
    return p->binding < d->n_bindings ? d->bindings[p->binding] : NULL;
}

/* Every storage parameter has a buffer at least as large as the fixed part of its shader block; the buffers by
   binding, and which the kernel reads and writes (a buffer with a device address: both). */
static bool check_bindings(Launch *s, const MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    for (uint32_t i = 0; i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        if (p->kind != MTLRT_PARAM_STORAGE)
            continue;
        MtlrtBuffer *b = p->binding < d->n_bindings ? d->bindings[p->binding] : NULL;
        if (!b && p->function_constant && !rt_function_constant_true(pipe, p->function_constant) && pipe->absent) {
            /* a parameter that exists only when its function constant is true, which it is not: a placeholder
               (the kernel does not read it; Vulkan wants every binding of the set valid) */
            s->buffers[p->binding] = pipe->absent->buffer;
            if (p->binding + 1 > s->n_buffers)
                s->n_buffers = p->binding + 1;
            continue;
        }
        if (!b)
            return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "buffer %u (%s) of kernel %s: no buffer bound at binding %u%s%s%s",
                           p->index, p->name, pipe->refl->entry, p->binding,
                           p->function_constant ? " (it exists since function constant " : "",
                           p->function_constant ? p->function_constant : "", p->function_constant ? " is true)" : "");
        if (b->size < pipe->min_binding_size[p->binding])
            return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "buffer %u (%s): %zu bytes bound, but the shader's block "
                           "needs at least %u", p->index, p->name, b->size, pipe->min_binding_size[p->binding]);
        s->buffers[p->binding] = b->buffer;
        if (p->binding + 1 > s->n_buffers)
            s->n_buffers = p->binding + 1;
        if (strcmp(p->access, "write") || p->address_offset)
            s->reads[s->n_reads++] = b->buffer;
        if (strcmp(p->access, "read") || p->address_offset)
            s->writes[s->n_writes++] = b->buffer;
    }
    return true;
}

/* The device address of each buffer a pointer chosen at run time may point into, at its push-constant offset
   (reflection `address_offset`, docs/interfaces.md). */
static bool write_addresses(Launch *s, const MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    for (uint32_t i = 0; i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        if (p->kind != MTLRT_PARAM_STORAGE || !p->address_offset)
            continue;
        if (p->address_offset % 8 || p->address_offset + 8 > pipe->push_size)
            return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "buffer %u (%s): address offset %u is outside the %u "
                           "push-constant bytes or not 8-aligned", p->index, p->name, p->address_offset,
                           pipe->push_size);
        VkDeviceAddress addr;
        MtlrtBuffer *b = given(p, d);
        if (!rt_buffer_address(b ? b : pipe->absent, &addr)) /* none given: the placeholder (check_bindings) */
            return false;
        memcpy(s->push + p->address_offset, &addr, sizeof addr);
    }
    return true;
}

/* Elements of the buffer bound for storage parameter P (0 when its element size is unknown). */
static uint64_t elements_of(const MtlrtParam *p, const MtlrtDispatch *d)
{
    return p->element_size && given(p, d) ? given(p, d)->size / p->element_size : 0;
}

/* Launch mistakes that still run get a warning: a grid with whole threadgroups beyond every buffer's last element
   (--threadgroups used where --grid was meant), and an input shorter than an output that matches the grid (each
   thread reads its own element of it, past its end). Heuristics: kernels that loop or reduce are not flagged. */
static void warn_grid_fit(const MtlrtPipeline *pipe, const MtlrtDispatch *d, const Launch *s)
{
    const MtlrtReflection *r = pipe->refl;
    const uint32_t *t = (const uint32_t *)s->push;
    uint64_t threads = (uint64_t)t[0] * t[1] * t[2];
    uint64_t group = (uint64_t)d->threadgroup[0] * d->threadgroup[1] * d->threadgroup[2];
    const MtlrtParam *largest = NULL, *matched = NULL;
    for (uint32_t i = 0; i < r->n_params; i++)
        if (r->params[i].n_addresses)
            return; /* an argument buffer: the buffers it works on are reached through addresses, unseen here */
    for (uint32_t i = 0; i < r->n_params; i++) {
        const MtlrtParam *p = &r->params[i];
        if (p->kind != MTLRT_PARAM_STORAGE || !p->element_size)
            continue;
        uint64_t n = elements_of(p, d);
        if (!largest || n > elements_of(largest, d))
            largest = p;
        if (strcmp(p->access, "read") && n <= threads && n + group > threads && (!matched || n > elements_of(matched, d)))
            matched = p;
    }
    if (largest && threads >= elements_of(largest, d) + group) {
        rt_warning("kernel %s: the grid has %llu threads, but its largest buffer, %u (%s), holds %llu elements: whole "
                   "threadgroups of %llu threads have no element to work on (dispatchThreadgroups counts threadgroups, "
                   "dispatchThreads threads: mtlrun --threadgroups / --grid)", r->entry, (unsigned long long)threads,
                   largest->index, largest->name, (unsigned long long)elements_of(largest, d),
                   (unsigned long long)group);
        return;
    }
    for (uint32_t i = 0; matched && i < r->n_params; i++) {
        const MtlrtParam *p = &r->params[i];
        uint64_t n = p->kind == MTLRT_PARAM_STORAGE && p->element_size ? elements_of(p, d) : 0;
        if (p != matched && strcmp(p->access, "write") && n > 1 && n < elements_of(matched, d))
            rt_warning("kernel %s: buffer %u (%s) holds %llu elements, fewer than the %llu threads of the grid and "
                       "the %llu elements of buffer %u (%s): threads past %llu read outside it if they index it by "
                       "their position (mtlrun --check-bounds tells)", r->entry, p->index, p->name,
                       (unsigned long long)n, (unsigned long long)threads,
                       (unsigned long long)elements_of(matched, d), matched->index, matched->name,
                       (unsigned long long)n);
    }
}

/* Check D against the kernel and device and plan it: push constants, regions and their pipelines, buffers. */
static bool plan_launch(Launch *s, MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    /* cleared: what is read before it is written (regions are written whole by plan_regions) */
    s->empty = false;
    s->n_regions = s->n_buffers = s->n_reads = s->n_writes = 0;
    memset(s->buffers, 0, sizeof s->buffers);
    memset(s->push, 0, pipe->push_size > 16 ? pipe->push_size : 16);
    if (d->push_data)
        memcpy(s->push, d->push_data, d->push_size < pipe->push_size ? d->push_size : pipe->push_size);
    if (!check_threadgroup(pipe, d->threadgroup) || !compute_grid(s, pipe, d) || !check_bindings(s, pipe, d) ||
        !write_addresses(s, pipe, d))
        return false;
    if (s->empty) /* the threadgroup memory is still checked */
        return threadgroup_lengths(pipe, d, &(VariantKey){0});
    if (!plan_regions(s, pipe, d))
        return false;
    warn_grid_fit(pipe, d, s);
    return rt_bounds_bind(pipe, s->buffers, &s->n_buffers, s->writes, &s->n_writes);
}

/* Record a planned launch: ordering barrier, pipeline, descriptor set, push constants, the regions; with TIMED
   a timestamp pair around them (*SLOT: its index). */
static bool record_launch(MtlrtCommands *c, MtlrtPipeline *pipe, const Launch *s, bool timed, uint32_t *slot)
{
    VkDescriptorSet set;
    if (s->empty)
        return true;
    bool indirect = false; /* the kernel reads device addresses from a buffer (reflection "addresses") */
    for (uint32_t i = 0; i < pipe->refl->n_params; i++)
        indirect |= pipe->refl->params[i].n_addresses > 0;
    if (indirect && (c->stages || c->t_stages) && rt_commands_recording(c))
        mtlrt_commands_barrier(c); /* the buffers it reaches through them may be any earlier command's */
    if (!rt_commands_recording(c) || !rt_bounds_prepare(c, pipe) ||
        !rt_commands_order(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, s->reads, s->n_reads, s->writes, s->n_writes) ||
        !rt_commands_descriptor_set(c, pipe, s->buffers, s->n_buffers, &set))
        return false;
    /* only what differs from what the command buffer has bound: a chain of dispatches of one kernel binds its
       pipeline once, and pushes its constants again only when they change */
    if (c->bound_layout != pipe->layout) {
        rt_commands_forget_bindings(c);
        c->bound_layout = pipe->layout;
    }
    if (c->bound_set != set) {
        vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe->layout, 0, 1, &set, 0, NULL);
        c->bound_set = set;
    }
    if (pipe->push_size && (c->bound_push_size != pipe->push_size || memcmp(c->bound_push, s->push, pipe->push_size))) {
        vkCmdPushConstants(c->cmd, pipe->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pipe->push_size, s->push);
        memcpy(c->bound_push, s->push, pipe->push_size);
        c->bound_push_size = pipe->push_size;
    }
    if (timed && !rt_commands_timestamp(c, false, slot))
        return false;
    for (uint32_t g = 0; g < s->n_regions; g++) {
        const Region *r = &s->regions[g];
        if (c->bound_pipeline != r->pipeline) {
            vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipeline);
            c->bound_pipeline = r->pipeline;
        }
        if (pipe->refl->exact_threadgroups)
            vkCmdDispatchBase(c->cmd, r->base[0], r->base[1], r->base[2], r->count[0], r->count[1], r->count[2]);
        else
            vkCmdDispatch(c->cmd, r->count[0], r->count[1], r->count[2]);
    }
    if (timed && !rt_commands_timestamp(c, true, slot))
        return false;
    c->n_commands++;
    c->after_indirect |= indirect;
    return true;
}

/* Record one dispatch into list C. */
bool mtlrt_commands_dispatch(MtlrtCommands *c, MtlrtPipeline *pipe, const MtlrtDispatch *d)
{
    Launch s;
    uint32_t slot;
    if (d->repeat > 1 || d->timestamps)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "mtlrt_commands_dispatch: repeat and timestamps are "
                       "mtlrt_dispatch's; a command list is timed as a whole (mtlrt_commands_gpu_time)");
    if (pipe->ctx != c->ctx)
        return rt_fail(MTLRT_ERROR_INVALID_ARGUMENT, "mtlrt_commands_dispatch: the pipeline belongs to another context");
    return plan_launch(&s, pipe, d) && record_launch(c, pipe, &s, false, &slot);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* min, median and mean of the N timed runs. */
static void fill_stats(MtlrtDispatchStats *stats, double *ms, uint32_t n)
{
    double sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += ms[i];
    qsort(ms, n, sizeof *ms, compare_double);
    stats->have_gpu_time = true;
    stats->gpu_ms_min = ms[0];
    stats->gpu_ms_median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    stats->gpu_ms_mean = sum / n;
}

/* The runs of D into C: with several, a copy of each written buffer first and its restore before each later run
   (outside the timed part), so that every run starts from the same contents. BACKUP gets the copies. */
static bool record_runs(MtlrtCommands *c, MtlrtPipeline *pipe, const MtlrtDispatch *d, const Launch *s,
                        uint32_t runs, MtlrtBuffer **backup)
{
    static const VkMemoryPropertyFlags device_memory[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    for (uint32_t i = 0; runs > 1 && i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        MtlrtBuffer *b = p->kind == MTLRT_PARAM_STORAGE ? given(p, d) : NULL;
        if (!b || !strcmp(p->access, "read") || backup[p->binding])
            continue;
        if (!(backup[p->binding] = rt_buffer_create_internal(c->ctx, b->size, device_memory)) ||
            !mtlrt_commands_copy(c, backup[p->binding], 0, b, 0, b->size))
            return false;
    }
    for (uint32_t run = 0; run < runs; run++) {
        uint32_t slot;
        for (uint32_t b = 0; run > 0 && b < MAX_BINDINGS; b++)
            if (backup[b] && !mtlrt_commands_copy(c, d->bindings[b], 0, backup[b], 0, backup[b]->size))
                return false;
        if (!record_launch(c, pipe, s, d->timestamps, &slot))
            return false;
    }
    return true;
}

/* Run the kernel as D says (D->repeat times, timed with D->timestamps) and wait for it. */
bool mtlrt_dispatch(MtlrtPipeline *pipe, const MtlrtDispatch *d, MtlrtDispatchStats *stats)
{
    MtlrtDispatchStats dummy;
    MtlrtBuffer *backup[MAX_BINDINGS] = {0};
    uint32_t runs = d->repeat ? d->repeat : 1;
    Launch s;
    if (!stats)
        stats = &dummy;
    memset(stats, 0, sizeof *stats);
    stats->runs = runs;
    if (!plan_launch(&s, pipe, d))
        return false;
    if (d->timestamps && !pipe->ctx->timestamp_valid_bits)
        return rt_fail(MTLRT_ERROR_UNSUPPORTED, "timestamps: device %s's compute queue has no timestamps "
                       "(timestampValidBits 0%s)", pipe->ctx->props.deviceName,
                       pipe->ctx->props.limits.timestampComputeAndGraphics ? "" : ", timestampComputeAndGraphics false");
    MtlrtCommands *c = rt_context_commands(pipe->ctx, d->timestamps ? runs : 0);
    bool ok = c && record_runs(c, pipe, d, &s, runs, backup) && mtlrt_commands_submit(c);
    MtlrtStatus status = ok ? mtlrt_commands_wait(c, FENCE_TIMEOUT_NS) : MTLRT_OK;
    if (status == MTLRT_NOT_READY) {
        rt_fail(MTLRT_ERROR_TIMEOUT, "the kernel did not finish within %llu s", FENCE_TIMEOUT_NS / 1000000000ull);
        vkDeviceWaitIdle(pipe->ctx->device);
        mtlrt_commands_wait(c, 0);
    }
    ok = ok && status == MTLRT_OK;
    if (ok && d->timestamps)
        fill_stats(stats, c->timed_ms, c->n_timed);
    rt_context_commands_done(pipe->ctx, c);
    for (int b = 0; b < MAX_BINDINGS; b++)
        mtlrt_buffer_destroy(backup[b]);
    return ok;
}
