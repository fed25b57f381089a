/* bounds.c: the bounds-check record of kernels translated with check_bounds (mtl2glsl --check-bounds, mtlrun
   --check-bounds; translator/emit/bounds.c writes the checks). Each checked array (slot) has 4 words in the record:
   0 until its first out-of-range access, then 1 (read) or 2 (write), the index, the array's length and the
   location of the statement. The record is cleared where a command list first uses the pipeline and read when the
   list has finished: any access recorded fails the wait with MTLRT_ERROR_OUT_OF_BOUNDS and one line per array. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rt_bounds_create(MtlrtPipeline *pipe)
{
    static const VkMemoryPropertyFlags memory[] = {
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
        0,
    };
    if (!pipe->refl->bounds_check)
        return true;
    pipe->bounds = rt_buffer_create_internal(pipe->ctx, 16 * (pipe->refl->n_bounds_slots + 1), memory);
    return pipe->bounds != NULL;
}

/* The record at its binding (the kernel's writes to it are atomic and in no order: not tracked as a hazard). */
bool rt_bounds_bind(const MtlrtPipeline *pipe, VkBuffer *buffers, uint32_t *n_buffers, VkBuffer *writes,
                    uint32_t *n_writes)
{
    (void)writes, (void)n_writes;
    if (!pipe->bounds)
        return true;
    uint32_t b = pipe->refl->bounds_binding;
    buffers[b] = pipe->bounds->buffer;
    if (b + 1 > *n_buffers)
        *n_buffers = b + 1;
    return true;
}

/* On PIPE's first use in C: the record cleared, then a barrier. */
bool rt_bounds_prepare(MtlrtCommands *c, MtlrtPipeline *pipe)
{
    if (!pipe->bounds)
        return true;
    for (uint32_t i = 0; i < c->n_bounds; i++)
        if (c->bounds[i] == pipe)
            return true;
    if (c->n_bounds == c->cap_bounds) {
        uint32_t cap = c->cap_bounds ? 2 * c->cap_bounds : 8;
        MtlrtPipeline **list = realloc(c->bounds, cap * sizeof *list);
        if (!list)
            return rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        c->bounds = list, c->cap_bounds = cap;
    }
    c->bounds[c->n_bounds++] = pipe;
    rt_full_barrier(c->cmd); /* after any earlier use of the record (another list) */
    vkCmdFillBuffer(c->cmd, pipe->bounds->buffer, 0, VK_WHOLE_SIZE, 0);
    rt_full_barrier(c->cmd);
    return true;
}

/* The source line LINE of PATH, trimmed, into OUT ("" when unreadable). */
static void source_line(const char *path, long line, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    char buf[1024];
    out[0] = 0;
    for (long n = 1; f && fgets(buf, sizeof buf, f); n++)
        if (n == line) {
            char *p = buf;
            while (*p == ' ' || *p == '\t')
                p++;
            p[strcspn(p, "\r\n")] = 0;
            snprintf(out, size, "%.500s", p);
            break;
        }
    if (f)
        fclose(f);
}

/* What the array of SLOT is, in Metal's terms: "buffer 1 (y)", "buffer 1 (acc, read as uint)", "threadgroup
   buffer 0 (part)", "threadgroup array tile". */
static void slot_name(const MtlrtReflection *r, const MtlrtBoundsSlot *slot, char *out, size_t size)
{
    if (slot->binding >= 0) {
        const MtlrtParam *p = NULL;
        for (uint32_t i = 0; i < r->n_params; i++)
            if (r->params[i].kind == MTLRT_PARAM_STORAGE && (int32_t)r->params[i].binding == slot->binding)
                p = &r->params[i];
        if (p && strcmp(p->name, slot->array) && strncmp(slot->array, p->name, strlen(p->name)))
            snprintf(out, size, "buffer %u (%s)", p->index, p->name);
        else if (p && strcmp(p->name, slot->array))
            snprintf(out, size, "buffer %u (%s, read as %s)", p->index, p->name, slot->type);
        else
            snprintf(out, size, "buffer %u (%s)", p ? p->index : (uint32_t)slot->binding, slot->array);
    } else if (slot->threadgroup >= 0) {
        snprintf(out, size, "threadgroup buffer %d (%s)", slot->threadgroup, slot->array);
    } else {
        snprintf(out, size, "threadgroup array %s", slot->array);
    }
}

/* One recorded access as a line of the report: location, what, index, length, and the source line. */
static void report_hit(FILE *f, const MtlrtReflection *r, const MtlrtBoundsSlot *slot, const uint32_t w[4])
{
    char what[256], text[512] = "";
    const char *loc = w[3] < r->n_bounds_locations ? r->bounds_locations[w[3]] : NULL;
    slot_name(r, slot, what, sizeof what);
    if (loc) {
        char path[1024];
        const char *colon = strrchr(loc, ':');
        snprintf(path, sizeof path, "%.*s", colon ? (int)(colon - loc) : 0, loc);
        if (colon)
            source_line(path, strtol(colon + 1, NULL, 10), text, sizeof text);
    }
    fprintf(f, "%s%s out-of-range %s of %s in kernel %s: index %u, but it holds %u %s element%s", loc ? loc : "",
            loc ? ":" : "(no location)", w[0] == 2 ? "write" : "read", what, r->entry, w[1], w[2], slot->type,
            w[2] == 1 ? "" : "s");
    if (slot->threadgroup >= 0)
        fprintf(f, " (threadgroup memory too small for this access: mtlrun --threadgroup-memory %d=BYTES)",
                slot->threadgroup);
    fprintf(f, "\n");
    if (*text)
        fprintf(f, "    %s\n", text);
}

bool rt_bounds_report(MtlrtCommands *c)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = NULL;
    uint32_t hits = 0;
    for (uint32_t i = 0; i < c->n_bounds; i++) {
        const MtlrtPipeline *pipe = c->bounds[i];
        const MtlrtReflection *r = pipe->refl;
        uint32_t n = r->n_bounds_slots, *words = calloc(4 * (size_t)n + 4, sizeof *words);
        if (!words || !mtlrt_buffer_read(pipe->bounds, words, 16 * (size_t)n)) {
            free(words);
            if (f)
                fclose(f);
            free(text);
            return false;
        }
        for (uint32_t s = 0; s < n; s++) {
            if (!words[4 * s])
                continue;
            if (!f && !(f = open_memstream(&text, &size))) {
                free(words);
                return rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
            }
            report_hit(f, r, &r->bounds_slots[s], &words[4 * s]);
            hits++;
        }
        free(words);
    }
    if (!f)
        return true;
    fclose(f);
    if (size && text[size - 1] == '\n')
        text[size - 1] = 0;
    rt_fail(MTLRT_ERROR_OUT_OF_BOUNDS, "%u out-of-range access%s (the first of each array; --check-bounds):\n%s",
            hits, hits == 1 ? "" : "es", text);
    free(text);
    return false;
}
