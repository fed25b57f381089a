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
