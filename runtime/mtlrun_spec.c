/* mtlrun_spec.c: translate a kernel spec and build the buffers of its call (mtlrun_spec.h). */
#include "mtlrun_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtl2glsl.h"

/* A new buffer slot for [[buffer(INDEX)]]. */
static MtlrtArray *slot(MtlrunSpecRun *r, int index)
{
    r->index[r->n_buffers] = (uint32_t)index;
    return &r->arrays[r->n_buffers++];
}

/* The view A (A->shape over data stored as FILE's array) copied row-contiguous into OUT. */
static bool copy_contiguous(const M2gSpecArray *a, const MtlrtArray *base, MtlrtArray *out)
{
    uint64_t shape[M2G_SPEC_MAX_DIMS], base_strides[M2G_SPEC_MAX_DIMS], idx[M2G_SPEC_MAX_DIMS] = {0};
    size_t es = mtlrt_dtype_size(base->dtype);
    for (int i = 0; i < a->ndim; i++)
        shape[i] = (uint64_t)a->shape[i];
    for (int i = base->ndim - 1, st = 1; i >= 0; st *= (int)base->shape[i], i--)
        base_strides[i] = (uint64_t)st;
    if (!mtlrt_array_alloc(out, base->dtype, a->ndim, shape))
        return false;
    for (uint64_t e = 0; e < out->count; e++) {
        uint64_t off = 0;
        for (int k = 0; k < a->ndim; k++)
            off += idx[k] * base_strides[a->perm[k]];
        memcpy((char *)out->data + e * es, (const char *)base->data + off * es, es);
        for (int k = a->ndim - 1; k >= 0 && ++idx[k] == shape[k]; k--)
            idx[k] = 0;
    }
    return true;
}

/* Input A's data: its .npy file (checked against what the spec read), or zeros. */
static bool input_data(const M2gSpecArray *a, MtlrtArray *out)
{
    MtlrtArray base = {0};
    uint64_t shape[M2G_SPEC_MAX_DIMS];
    for (int i = 0; i < a->ndim; i++)
        shape[i] = (uint64_t)a->shape[i];
    if (!a->file)
        return mtlrt_array_alloc(out, mtlrt_dtype_from_name(a->dtype), a->ndim, shape);
    if (!mtlrt_npy_read(a->file, &base))
        return false;
    if (base.dtype != mtlrt_dtype_from_name(a->dtype) || base.count != (uint64_t)a->count) {
        fprintf(stderr, "mtlrun: error: input %s: %s changed while it was read\n", a->name, a->file);
        mtlrt_array_free(&base);
        return false;
    }
    if (!a->copy_contiguous) {
        *out = base;
        return true;
    }
    bool ok = copy_contiguous(a, &base, out);
    mtlrt_array_free(&base);
    return ok;
}

/* A 1-d array of N values of DTYPE (int32 shapes, int64 strides, uint32 extents) or a 0-d int32 (ndim). */
static bool small_array(MtlrtArray *out, MtlrtDtype dtype, int n, const long long *v, bool scalar)
{
    uint64_t len = (uint64_t)n;
    if (!mtlrt_array_alloc(out, dtype, scalar ? 0 : 1, &len))
        return false;
    for (int i = 0; i < (scalar ? 1 : n); i++) {
        if (dtype == MTLRT_DTYPE_I64)
            ((int64_t *)out->data)[i] = v[i];
        else
            ((int32_t *)out->data)[i] = (int32_t)v[i];
    }
    return true;
}

/* The input's buffers: data, then MLX's NAME_shape / NAME_strides / NAME_ndim, Core AI's NAME_extents. */
static bool input_buffers(MtlrunSpecRun *r, const M2gSpecArray *a)
{
    long long nd = a->ndim, ext[M2G_SPEC_MAX_DIMS];
    for (int i = 0; i < a->ndim; i++)
        ext[i] = a->shape[a->ndim - 1 - i];
    return input_data(a, slot(r, a->buffer)) &&
           (a->shape_buffer < 0 ||
            small_array(slot(r, a->shape_buffer), MTLRT_DTYPE_I32, a->ndim, a->shape, false)) &&
           (a->strides_buffer < 0 ||
            small_array(slot(r, a->strides_buffer), MTLRT_DTYPE_I64, a->ndim, a->strides, false)) &&
           (a->ndim_buffer < 0 || small_array(slot(r, a->ndim_buffer), MTLRT_DTYPE_I32, 1, &nd, true)) &&
           (a->extents_buffer < 0 ||
            small_array(slot(r, a->extents_buffer), MTLRT_DTYPE_U32, a->ndim, ext, false));
}

/* An output: filled with init_value when given, else poisoned (--poison) or zeros. */
static bool output_buffers(MtlrunSpecRun *r, const M2gSpec *s, const M2gSpecArray *a, bool poison)
{
    uint64_t shape[M2G_SPEC_MAX_DIMS];
    long long ext[M2G_SPEC_MAX_DIMS];
    for (int i = 0; i < a->ndim; i++)
        shape[i] = (uint64_t)a->shape[i], ext[i] = a->shape[a->ndim - 1 - i];
    MtlrtArray *out = slot(r, a->buffer), one = {0};
    if (!mtlrt_array_alloc(out, mtlrt_dtype_from_name(a->dtype), a->ndim, shape))
        return false;
    if (s->has_init_value) {
        char text[64];
        snprintf(text, sizeof text, "%s:%.17g", a->dtype, s->init_value);
        if (!mtlrt_array_from_scalar(text, &one))
            return false;
        for (uint64_t i = 0; i < out->count; i++)
            memcpy((char *)out->data + i * one.nbytes, one.data, one.nbytes);
        mtlrt_array_free(&one);
    } else if (poison) {
        mtlrt_array_poison(out);
    }
    return a->extents_buffer < 0 ||
           small_array(slot(r, a->extents_buffer), MTLRT_DTYPE_U32, a->ndim, ext, false);
}

/* Translate the spec's source for the device and keep its GLSL and reflection. */
static bool translate(const M2gSpec *s, const MtlrunSpecArgs *args, const MtlrtContext *ctx, MtlrunSpecRun *r)
{
    M2gOptions mo = {
        .include_dirs = args->includes,
        .defines = args->defines,
        .diag = stderr,
        .subgroup_size = (int)(args->subgroup_size ? args->subgroup_size : mtlrt_context_simd_subgroup_size(ctx)),
        .virtual_subgroups = args->virtual_subgroups,
        .push_constant_words = mtlrt_context_push_constant_words(ctx),
        .tensor_cores = args->tensor_cores,
        .mma_lanes = args->mma_lanes,
    };
    M2gResult *t = m2g_translate_spec(s, &mo);
    if (!t) {
        fprintf(stderr, "mtlrun: error: out of memory translating %s\n", s->path);
        return false;
    }
    const M2gEntry *e = t->n_entries == 1 ? &t->entries[0] : NULL;
    if (t->parse_failed || t->n_errors || !e || !e->glsl || !e->reflect_json) {
        fprintf(stderr, "mtlrun: error: translation of %s (kernel %s) failed\n", s->path, s->entry);
    } else {
        size_t n = strlen(s->path) + strlen(e->name) + 8;
        r->glsl_name = malloc(n);
        if (r->glsl_name)
            snprintf(r->glsl_name, n, "%s:%s.comp", s->path, e->name);
        r->glsl = strdup(e->glsl);
        r->refl = mtlrt_reflection_parse(e->reflect_json, e->name, r->glsl_name);
    }
    m2g_result_free(t);
    return r->glsl && r->glsl_name && r->refl;
}

bool mtlrun_spec_prepare(const char *path, const MtlrunSpecArgs *args, const MtlrtContext *ctx, MtlrunSpecRun *r)
{
    M2gSpecArgs sa = {.arrays = args->arrays, .templates = args->templates, .transposes = args->transposes,
                      .has_init_value = args->has_init_value, .init_value = args->init_value};
    memcpy(sa.grid, args->grid, sizeof sa.grid);
    memcpy(sa.threadgroup, args->threadgroup, sizeof sa.threadgroup);
    *r = (MtlrunSpecRun){0};
    M2gSpec *s = m2g_spec_load(path, &sa, stderr);
    if (!s)
        return false;
    bool ok = true;
    if (!s->grid[0] || !s->threadgroup[0]) {
        const char *field = !s->grid[0] ? (s->coreai ? "threads_per_grid" : "grid")
                                        : (s->coreai ? "threads_per_thread_group" : "threadgroup");
        fprintf(stderr, "%s: error: missing field 'call.%s' (or %s X[,Y[,Z]] on the command line)\n", path, field,
                !s->grid[0] ? "--grid" : "--threadgroup");
        ok = false;
    }
    memcpy(r->grid, s->grid, sizeof r->grid);
    memcpy(r->threadgroup, s->threadgroup, sizeof r->threadgroup);
    ok = ok && translate(s, args, ctx, r);
    for (int i = 0; ok && i < s->n_inputs; i++)
        ok = input_buffers(r, &s->inputs[i]);
    for (int i = 0; ok && i < s->n_outputs; i++)
        ok = output_buffers(r, s, &s->outputs[i], args->poison);
    m2g_spec_free(s);
    return ok;
}

void mtlrun_spec_run_free(MtlrunSpecRun *r)
{
    free(r->glsl);
    free(r->glsl_name);
    mtlrt_reflection_destroy(r->refl);
    for (int i = 0; i < r->n_buffers; i++)
        mtlrt_array_free(&r->arrays[i]);
    *r = (MtlrunSpecRun){0};
}

bool mtlrun_tensor_cores_mode(const char *text, MtlrunTensorCores *mode)
{
    static const char *const names[] = {"auto", "on", "off"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(text, names[i])) {
            *mode = (MtlrunTensorCores)i;
            return true;
        }
    return false;
}

bool mtlrun_tensor_cores(MtlrtContext *ctx, MtlrunTensorCores mode, uint32_t subgroup_size, bool virtual_subgroups,
                         bool *use, const char **why)
{
    static _Thread_local char reason[128];
    *use = false;
    *why = "";
    if (mode == MTLRUN_TENSOR_CORES_OFF)
        return true;
    uint32_t w = subgroup_size ? subgroup_size : mtlrt_context_simd_subgroup_size(ctx);
    if (virtual_subgroups)
        *why = "--virtual-subgroups builds SIMD-groups in shared memory; tensor cores need native 32-wide subgroups";
    else if (w != 32 && subgroup_size)
        snprintf(reason, sizeof reason, "the kernel is translated for %u-wide subgroups (--subgroup-size); tensor "
                 "cores need native 32-wide ones", w), *why = reason;
    else
        *use = mtlrt_context_tensor_cores(ctx, why);
    return *use || mode == MTLRUN_TENSOR_CORES_AUTO;
}
