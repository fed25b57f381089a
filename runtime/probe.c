/* probe.c: checks that the device forms subgroups from consecutive local invocation indices.
 *
 * Metal numbers SIMD-group lanes by thread_index_in_threadgroup (lane = index % 32); a shader that maps them onto
 * the device's subgroups (native, clustered, or emulated over real subgroups) is right only where subgroup s holds
 * local indices s * W .. s * W + W - 1. Vulkan does not promise that, so before the first pipeline of such a shader
 * for a workgroup shape, a probe shader of that shape records any invocation where
 * gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID != gl_LocalInvocationIndex. Results are cached per
 * context, local size and subgroup size.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char probe_glsl[] =
    "#version 450\n"
    "#extension GL_KHR_shader_subgroup_basic : require\n"
    "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n"
    "layout(std430, set = 0, binding = 0) buffer mtl_buffer_bad { uint bad[]; };\n"
    "void main()\n{\n"
    "    if (gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID != gl_LocalInvocationIndex)\n"
    "        atomicOr(bad[0], 1u);\n"
    "}\n";

static _Thread_local bool in_probe; /* the probe's own pipeline is not probed */

/* Runs the probe for LOCAL and subgroup size W; *ok tells whether the layout is consecutive. */
static bool run_probe(MtlrtContext *ctx, const uint32_t local[3], uint32_t W, bool *ok)
{
    char json[512];
    snprintf(json, sizeof json,
             "{\"entry\": \"subgroup_layout_probe\", \"push_constant_size\": 16, \"buffers\": [{\"index\": 0, \"name\": "
             "\"bad\", \"kind\": \"storage\", \"binding\": 0, \"type\": \"uint\", \"scalar\": \"uint\", \"element_size\": 4, "
             "\"access\": \"read_write\"}], \"simd\": {\"subgroup_size\": %u, \"virtual\": false, \"operations\": "
             "[\"basic\"]}}",
             W);
    MtlrtReflection *refl = mtlrt_reflection_parse(json, NULL, "subgroup layout probe");
    MtlrtPipeline *pipe = refl ? mtlrt_pipeline_create(ctx, probe_glsl, "subgroup layout probe", refl) : NULL;
    MtlrtBuffer *buf = pipe ? mtlrt_buffer_create(ctx, 4) : NULL;
    uint32_t bad = 1;
    bool ran = false;
    if (buf) {
        MtlrtBuffer *bindings[1] = {buf};
        MtlrtDispatch d = {
            .style = MTLRT_DISPATCH_THREADGROUPS,
            .size = {1, 1, 1},
            .threadgroup = {local[0], local[1], local[2]},
            .bindings = bindings,
            .n_bindings = 1,
        };
        ran = mtlrt_dispatch(pipe, &d, NULL) && mtlrt_buffer_read(buf, &bad, 4);
    }
    mtlrt_buffer_destroy(buf);
    mtlrt_pipeline_destroy(pipe);
    mtlrt_reflection_destroy(refl);
    *ok = bad == 0;
    return ran;
}

bool rt_check_subgroup_layout(MtlrtContext *ctx, const uint32_t local[3], uint32_t W)
{
    if (in_probe)
        return true;
    for (uint32_t i = 0; i < ctx->n_layouts; i++) {
        const LayoutProbe *p = &ctx->layouts[i];
        if (!memcmp(p->local, local, sizeof p->local) && p->subgroup_size == W)
            return p->consecutive;
    }
    in_probe = true;
    bool ok = false, ran = run_probe(ctx, local, W, &ok);
    in_probe = false;
    if (!ran)
        return false;
    LayoutProbe *grown = realloc(ctx->layouts, (ctx->n_layouts + 1) * sizeof *grown);
    if (!grown) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    ctx->layouts = grown;
    LayoutProbe *p = &ctx->layouts[ctx->n_layouts++];
    memcpy(p->local, local, sizeof p->local);
    p->subgroup_size = W;
    p->consecutive = ok;
    if (!ok)
        rt_fail(MTLRT_ERROR_UNSUPPORTED, "device %s does not form its %u-wide subgroups from consecutive threads of a %ux%ux%u threadgroup, "
                 "which SIMD-group lanes built on them need; translate with --virtual-subgroups",
                 ctx->props.deviceName, W, local[0], local[1], local[2]);
    return ok;
}

/* ---- tensor cores (mtlrt_context_tensor_cores) ----
 *
 * mtl2glsl --tensor-cores writes SIMD-group matrix products as GL_NV_cooperative_matrix 16x8x8 products and reads
 * and writes their elements with m[i], taking element i of each lane to be where it lies in the order below
 * (docs/translator.md, "Tensor cores"). GL_NV_cooperative_matrix leaves that order to the implementation, so this
 * probe loads matrices whose element (r, c) holds its own row-major index and has every lane write what it holds.
 * With g = lane / 4, t = lane % 4, the order is: A (16x8, f16) 4 elements (g, 2t), (g, 2t+1), (g+8, 2t),
 * (g+8, 2t+1), as NVIDIA's mma.sync m16n8k8 fragments hold them; B (8x8, f16) 2 elements (g, 2t), (g, 2t+1), by
 * rows (mma.sync holds B by columns; NVIDIA's driver, 580.159.04 on an H100, gives B's elements by rows as for A);
 * C (16x8, f32) as A.
 * One workgroup of 32: one subgroup. Lane p writes 16 floats from 16p: the three lengths, then A's from 4, B's
 * from 8, C's from 12.
 */
static const char tensor_core_probe_glsl[] =
    "#version 450\n"
    "#extension GL_NV_cooperative_matrix : require\n"
    "#extension GL_KHR_memory_scope_semantics : require\n"
    "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
    "#extension GL_KHR_shader_subgroup_basic : require\n"
    "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n"
    "layout(std430, set = 0, binding = 0) buffer mtl_buffer_got { float got[]; };\n"
    "shared float16_t sa[128];\n"
    "shared float sc[128];\n"
    "void main()\n{\n"
    "    for (uint i = gl_LocalInvocationIndex; i < 128u; i += 32u) {\n"
    "        sa[i] = float16_t(i);\n"
    "        sc[i] = float(i);\n"
    "    }\n"
    "    barrier();\n"
    "    fcoopmatNV<16, gl_ScopeSubgroup, 16, 8> A;\n"
    "    fcoopmatNV<16, gl_ScopeSubgroup, 8, 8> B;\n"
    "    fcoopmatNV<32, gl_ScopeSubgroup, 16, 8> C;\n"
    "    coopMatLoadNV(A, sa, 0, 8, false);\n"
    "    coopMatLoadNV(B, sa, 0, 8, false);\n"
    "    coopMatLoadNV(C, sc, 0, 8, false);\n"
    "    uint o = 16u * gl_SubgroupInvocationID;\n"
    "    got[o] = float(A.length());\n"
    "    got[o + 1u] = float(B.length());\n"
    "    got[o + 2u] = float(C.length());\n"
    "    for (int i = 0; i < A.length() && i < 4; i++)\n"
    "        got[o + 4u + uint(i)] = float(A[i]);\n"
    "    for (int i = 0; i < B.length() && i < 2; i++)\n"
    "        got[o + 8u + uint(i)] = float(B[i]);\n"
    "    for (int i = 0; i < C.length() && i < 4; i++)\n"
    "        got[o + 12u + uint(i)] = C[i];\n"
    "}\n";

/* What lane P must write (16 floats) where the elements are in the order above. */
static void mma_expected(uint32_t p, float want[16])
{
    uint32_t g = p / 4, t = p % 4;
    for (int i = 0; i < 16; i++)
        want[i] = -1.0f; /* left as poisoned */
    want[0] = 4, want[1] = 2, want[2] = 4;
    want[4] = want[12] = (float)(8 * g + 2 * t);
    want[5] = want[13] = (float)(8 * g + 2 * t + 1);
    want[6] = want[14] = (float)(8 * (g + 8) + 2 * t);
    want[7] = want[15] = (float)(8 * (g + 8) + 2 * t + 1);
    want[8] = (float)(8 * g + 2 * t);
    want[9] = (float)(8 * g + 2 * t + 1);
}

/* Runs the probe; *ok tells whether every lane holds the elements the order above gives. Lane 1's are logged when
   not. */
static bool run_tensor_core_probe(MtlrtContext *ctx, bool *ok)
{
    static const char json[] =
        "{\"entry\": \"tensor_core_probe\", \"push_constant_size\": 16, \"buffers\": [{\"index\": 0, \"name\": "
        "\"got\", \"kind\": \"storage\", \"binding\": 0, \"type\": \"float\", \"scalar\": \"float\", \"element_size\": 4, "
        "\"access\": \"read_write\"}], \"features\": [\"cooperativeMatrix\", \"shaderFloat16\", \"vulkanMemoryModel\"], "
        "\"simd\": {\"subgroup_size\": 32, \"virtual\": false, \"operations\": [\"basic\"]}}";
    float got[32 * 16];
    for (int i = 0; i < 32 * 16; i++)
        got[i] = -1.0f;
    MtlrtReflection *refl = mtlrt_reflection_parse(json, NULL, "tensor-core probe");
    MtlrtPipeline *pipe = refl ? mtlrt_pipeline_create(ctx, tensor_core_probe_glsl, "tensor-core probe", refl) : NULL;
    MtlrtBuffer *buf = pipe ? mtlrt_buffer_create(ctx, sizeof got) : NULL;
    bool ran = false;
    if (buf && mtlrt_buffer_write(buf, got, sizeof got)) {
        MtlrtBuffer *bindings[1] = {buf};
        MtlrtDispatch d = {
            .style = MTLRT_DISPATCH_THREADGROUPS,
            .size = {1, 1, 1},
            .threadgroup = {32, 1, 1},
            .bindings = bindings,
            .n_bindings = 1,
        };
        ran = mtlrt_dispatch(pipe, &d, NULL) && mtlrt_buffer_read(buf, got, sizeof got);
    }
    mtlrt_buffer_destroy(buf);
    mtlrt_pipeline_destroy(pipe);
    mtlrt_reflection_destroy(refl);
    *ok = ran;
    for (uint32_t p = 0; ran && p < 32; p++) {
        float want[16];
        mma_expected(p, want);
        *ok = *ok && !memcmp(want, got + 16 * p, sizeof want);
    }
    if (ran && !*ok) {
        const float *l = got + 16;
        rt_note("tensor-core probe on %s: lane 1 holds lengths %g %g %g, A %g %g %g %g, B %g %g, C %g %g %g %g; "
                "the translator needs lengths 4 2 4, A 2 3 66 67, B 2 3, C 2 3 66 67 (-1: not written)",
                ctx->props.deviceName, l[0], l[1], l[2], l[4], l[5], l[6], l[7], l[8], l[9], l[12], l[13], l[14],
                l[15]);
    }
    return ran;
}

/* Says no with the reason WHY (printf) and caches it. */
static bool tensor_cores_no(MtlrtContext *ctx, const char *why, ...) __attribute__((format(printf, 2, 3)));
static bool tensor_cores_no(MtlrtContext *ctx, const char *why, ...)
{
    va_list ap;
    va_start(ap, why);
    vsnprintf(ctx->tensor_cores_why, sizeof ctx->tensor_cores_why, why, ap);
    va_end(ap);
    ctx->tensor_cores = -1;
    return false;
}

static bool decide_tensor_cores(MtlrtContext *ctx)
{
    const MtlrtSubgroupInfo *sg = &ctx->subgroup;
    if (!ctx->features.coopnv.cooperativeMatrix)
        return tensor_cores_no(ctx, "device %s has no cooperative matrices (VK_NV_cooperative_matrix's "
                               "cooperativeMatrix feature)", ctx->props.deviceName);
    if (!rt_have_mma_shape(ctx, ctx->tensor_cores_why, sizeof ctx->tensor_cores_why))
        return (ctx->tensor_cores = -1) > 0;
    if (!ctx->features.f16i8.shaderFloat16 || !ctx->features.vmm.vulkanMemoryModel)
        return tensor_cores_no(ctx, "device %s lacks %s, which cooperative-matrix shaders need", ctx->props.deviceName,
                               !ctx->features.f16i8.shaderFloat16 ? "shaderFloat16" : "vulkanMemoryModel");
    if (!(sg->operations & MTLRT_SUBGROUP_BASIC))
        return tensor_cores_no(ctx, "device %s has no subgroup operations in compute shaders", ctx->props.deviceName);
    if (sg->size != 32 && !(sg->size_control && sg->min_size <= 32 && 32 <= sg->max_size && sg->full_subgroups))
        return tensor_cores_no(ctx, "SIMD-groups are not native 32-wide subgroups on device %s (its subgroups are "
                               "%u wide%s)", ctx->props.deviceName, sg->size,
                               sg->size_control && sg->min_size <= 32 && 32 <= sg->max_size
                                   ? " and it cannot require whole ones (computeFullSubgroups)"
                                   : " and it cannot require 32");
    bool ok = false;
    char error[4096];
    MtlrtStatus status = mtlrt_last_status();
    snprintf(error, sizeof error, "%s", mtlrt_last_error());
    rt_quiet_errors(true); /* a probe that fails is a "no", not the caller's error */
    bool ran = run_tensor_core_probe(ctx, &ok);
    rt_quiet_errors(false);
    if (!ran)
        tensor_cores_no(ctx, "the cooperative-matrix probe shader did not run: %s", mtlrt_last_error());
    rt_restore_error(status, error);
    if (!ran)
        return false;
    if (!ok)
        return tensor_cores_no(ctx, "cooperative-matrix element order is not the one the translator needs");
    ctx->tensor_cores = 1;
    return true;
}

bool mtlrt_context_tensor_cores(MtlrtContext *ctx, const char **why)
{
    if (!ctx->tensor_cores)
        decide_tensor_cores(ctx);
    if (why)
        *why = ctx->tensor_cores > 0 ? "" : ctx->tensor_cores_why;
    return ctx->tensor_cores > 0;
}
