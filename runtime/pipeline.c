/* pipeline.c: GLSL -> SPIR-V with shaderc, a SPIRV-Cross cross-check of the SPIR-V against the reflection,
   descriptor/pipeline layouts, and one compute pipeline per threadgroup size (spec constants 0,1,2). */
#include "internal.h"

#include <shaderc/shaderc.h>
#include <spirv_cross/spirv_cross_c.h>
#include <stdlib.h>
#include <string.h>

/* Every feature in the reflection's `features` must be enabled on the device (i.e. supported). */
static bool check_features(MtlrtContext *ctx, const MtlrtReflection *refl)
{
    bool ok = true;
    for (uint32_t i = 0; i < refl->n_features; i++) {
        VkBool32 *f = rt_feature(&ctx->features, refl->features[i]);
        if (!f)
            rt_fail(MTLRT_ERROR_UNSUPPORTED, "kernel %s needs Vulkan feature %s, which the runtime does not know (runtime/features.def)",
                     refl->entry, refl->features[i]);
        else if (!*f)
            rt_fail(MTLRT_ERROR_UNSUPPORTED, "kernel %s needs Vulkan feature %s, which device %s does not support", refl->entry,
                     refl->features[i], ctx->props.deviceName);
        ok = ok && f && *f;
    }
    return ok;
}

/* Compile GLSL to SPIR-V words (malloc'd *CODE, *SIZE bytes); compiler messages are printed on failure. */
static bool compile_glsl(MtlrtContext *ctx, const char *glsl, const char *name, uint32_t **code, size_t *size)
{
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t opts = shaderc_compile_options_initialize();
    shaderc_compilation_result_t res = NULL;
    bool ok = false;
    if (!compiler || !opts) {
        rt_fail(MTLRT_ERROR_COMPILE, "shaderc initialisation failed");
        goto done;
    }
    uint32_t api = ctx->api_version < ctx->props.apiVersion ? ctx->api_version : ctx->props.apiVersion;
    shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan,
                                           api >= VK_API_VERSION_1_2 ? shaderc_env_version_vulkan_1_2
                                                                     : shaderc_env_version_vulkan_1_1);
    res = shaderc_compile_into_spv(compiler, glsl, strlen(glsl), shaderc_compute_shader, name, "main", opts);
    if (shaderc_result_get_compilation_status(res) != shaderc_compilation_status_success) {
        rt_fail(MTLRT_ERROR_COMPILE, "GLSL of %s does not compile (the translator emitted invalid GLSL):\n%s", name,
                 shaderc_result_get_error_message(res));
        goto done;
    }
    *size = shaderc_result_get_length(res);
    *code = malloc(*size);
    if (*code) {
        memcpy(*code, shaderc_result_get_bytes(res), *size);
        ok = true;
    }
done:
    shaderc_result_release(res);
    shaderc_compile_options_release(opts);
    shaderc_compiler_release(compiler);
    return ok;
}

static void on_spvc_error(void *user, const char *msg)
{
    rt_fail(MTLRT_ERROR_COMPILE, "SPIRV-Cross (%s): %s", (const char *)user, msg);
}

/* Each SSBO of the shader must be at set 0 on a binding the reflection lists as a storage parameter; records
   the size of each block's fixed part. */
static bool check_ssbos(MtlrtPipeline *pipe, spvc_compiler comp, spvc_resources res)
{
    const spvc_reflected_resource *list;
    size_t n;
    if (spvc_resources_get_resource_list_for_type(res, SPVC_RESOURCE_TYPE_STORAGE_BUFFER, &list, &n))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned set = spvc_compiler_get_decoration(comp, list[i].id, SpvDecorationDescriptorSet);
        unsigned binding = spvc_compiler_get_decoration(comp, list[i].id, SpvDecorationBinding);
        bool listed = pipe->refl->bounds_check && binding == pipe->refl->bounds_binding;
        for (uint32_t p = 0; p < pipe->refl->n_params; p++)
            listed |= pipe->refl->params[p].kind == MTLRT_PARAM_STORAGE && pipe->refl->params[p].binding == binding;
        if (set != 0 || !listed) {
            rt_fail(MTLRT_ERROR_COMPILE, "%s: the shader's buffer block %s is at set %u binding %u, which the reflection does not list "
                     "as a storage buffer", pipe->name, list[i].name, set, binding);
            return false;
        }
        size_t size = 0;
        spvc_type type = spvc_compiler_get_type_handle(comp, list[i].base_type_id);
        if (spvc_compiler_get_declared_struct_size(comp, type, &size) == SPVC_SUCCESS)
            pipe->min_binding_size[binding] = (uint32_t)size;
    }
    return true;
}

/* Resource kinds the runtime cannot bind: anything but SSBOs and the push-constant block. */
static bool check_no_other_resources(MtlrtPipeline *pipe, spvc_resources res)
{
    static const struct {
        spvc_resource_type type;
        const char *what;
    } others[] = {
        {SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, "uniform buffer"},
        {SPVC_RESOURCE_TYPE_STORAGE_IMAGE, "storage image"},
        {SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, "sampled image"},
        {SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, "texture"},
        {SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, "sampler"},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        const spvc_reflected_resource *list;
        size_t n = 0;
        spvc_resources_get_resource_list_for_type(res, others[i].type, &list, &n);
        if (n) {
            rt_fail(MTLRT_ERROR_COMPILE, "%s: the shader declares a %s (%s); the runtime binds only storage buffers and push constants",
                     pipe->name, others[i].what, list[0].name);
            return false;
        }
    }
    return true;
}

/* The shader's push-constant block must fit in the reflection's push_constant_size. */
static bool check_push_constants(MtlrtPipeline *pipe, spvc_compiler comp, spvc_resources res)
{
    const spvc_reflected_resource *list;
    size_t n = 0, size = 0;
    spvc_resources_get_resource_list_for_type(res, SPVC_RESOURCE_TYPE_PUSH_CONSTANT, &list, &n);
    if (n && spvc_compiler_get_declared_struct_size(comp, spvc_compiler_get_type_handle(comp, list[0].base_type_id),
                                                    &size) != SPVC_SUCCESS)
        return false;
    if (size > pipe->refl->push_constant_size) {
        rt_fail(MTLRT_ERROR_COMPILE, "%s: the shader's push-constant block is %zu bytes, the reflection's push_constant_size only %u",
                 pipe->name, size, pipe->refl->push_constant_size);
        return false;
    }
    pipe->push_size = (pipe->refl->push_constant_size + 3) & ~3u;
    return true;
}

/* Local size: specialization constants 0,1,2 (the contract) or a fixed size recorded in fixed_local_size. */
static bool check_local_size(MtlrtPipeline *pipe, spvc_compiler comp)
{
    spvc_specialization_constant c[3];
    spvc_compiler_get_work_group_size_specialization_constants(comp, &c[0], &c[1], &c[2]);
    for (unsigned i = 0; i < 3; i++) {
        if (c[i].id && c[i].constant_id != i) {
            rt_fail(MTLRT_ERROR_COMPILE, "%s: local_size_%c comes from specialization constant %u; the contract says %u "
                     "(layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2))",
                     pipe->name, "xyz"[i], c[i].constant_id, i);
            return false;
        }
        if (!c[i].id)
            pipe->fixed_local_size[i] = spvc_compiler_get_execution_mode_argument_by_index(comp,
                                                                                         SpvExecutionModeLocalSize, i);
    }
    return true;
}

/* Whether the module declares capability CAP (an OpCapability among its first instructions). */
static bool declares_capability(const uint32_t *code, size_t words, uint32_t cap)
{
    for (size_t i = 5; i < words;) { /* after the header: instructions of (word count << 16 | opcode) */
        uint32_t n = code[i] >> 16, op = code[i] & 0xFFFFu;
        if (n == 0 || i + n > words || op != SpvOpCapability)
            return false; /* OpCapability comes first in a module: past it, no more */
        if (code[i + 1] == cap)
            return true;
        i += n;
    }
    return false;
}

/* Run every SPIR-V vs reflection check with SPIRV-Cross. Debian 12's SPIRV-Cross cannot parse modules with
   SPV_NV_cooperative_matrix (hand-written tensor-core GLSL, bench/coopmat): those are not cross-checked, and keep
   the contract's local size (specialization constants 0, 1, 2). */
static bool cross_check(MtlrtPipeline *pipe, const uint32_t *code, size_t size)
{
    if (declares_capability(code, size / 4, SpvCapabilityCooperativeMatrixNV)) {
        rt_log(MTLRT_LOG_INFO, "%s: uses cooperative matrices (SPV_NV_cooperative_matrix), which SPIRV-Cross cannot "
               "parse here: its interface is not cross-checked against the reflection", pipe->name);
        pipe->push_size = (pipe->refl->push_constant_size + 3) & ~3u; /* the reflection's, unchecked */
        return true;
    }
    spvc_context sctx = NULL;
    spvc_parsed_ir ir;
    spvc_compiler comp;
    spvc_resources res;
    bool ok = false;
    if (spvc_context_create(&sctx) != SPVC_SUCCESS) {
        rt_fail(MTLRT_ERROR_COMPILE, "spvc_context_create failed");
        return false;
    }
    spvc_context_set_error_callback(sctx, on_spvc_error, pipe->name);
    if (spvc_context_parse_spirv(sctx, code, size / 4, &ir) ||
        spvc_context_create_compiler(sctx, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &comp) ||
        spvc_compiler_create_shader_resources(comp, &res))
        goto done;
    ok = check_ssbos(pipe, comp, res) && check_no_other_resources(pipe, res) &&
         check_push_constants(pipe, comp, res) && check_local_size(pipe, comp);
done:
    spvc_context_destroy(sctx);
    return ok;
}

/* Descriptor-set layout with one storage buffer per storage parameter, and the pipeline layout. */
static bool create_layouts(MtlrtPipeline *pipe)
{
    VkDevice dev = pipe->ctx->device;
    VkDescriptorSetLayoutBinding bindings[MAX_BINDINGS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        if (p->kind != MTLRT_PARAM_STORAGE)
            continue;
        bindings[n++] = (VkDescriptorSetLayoutBinding){
            .binding = p->binding,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    }
    if (pipe->refl->bounds_check) /* the bounds-check record (bounds.c) */
        bindings[n++] = (VkDescriptorSetLayoutBinding){
            .binding = pipe->refl->bounds_binding,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = n,
        .pBindings = bindings,
    };
    if (!rt_vk_ok(vkCreateDescriptorSetLayout(dev, &set_info, NULL, &pipe->set_layout), "vkCreateDescriptorSetLayout"))
        return false;
    VkPushConstantRange range = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        .offset = 0,
        .size = pipe->push_size,
    };
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &pipe->set_layout,
        .pushConstantRangeCount = pipe->push_size ? 1 : 0,
        .pPushConstantRanges = &range,
    };
    return rt_vk_ok(vkCreatePipelineLayout(dev, &info, NULL, &pipe->layout), "vkCreatePipelineLayout");
}

/* Bindings unique and below MAX_BINDINGS; push constants within the device limit. */
static bool check_reflection_limits(MtlrtPipeline *pipe)
{
    const MtlrtReflection *r = pipe->refl;
    for (uint32_t i = 0; r->bounds_check && i < r->n_params; i++)
        if (r->params[i].kind == MTLRT_PARAM_STORAGE && r->params[i].binding == r->bounds_binding) {
            rt_error("%s: buffer %s and the bounds-check record share binding %u", pipe->name, r->params[i].name,
                     r->bounds_binding);
            return false;
        }
    for (uint32_t i = 0; i < r->n_params; i++)
        for (uint32_t j = 0; j < i; j++)
            if (r->params[i].kind == MTLRT_PARAM_STORAGE && r->params[j].kind == MTLRT_PARAM_STORAGE &&
                r->params[i].binding == r->params[j].binding) {
                rt_error("%s: buffers %s and %s share binding %u", pipe->name, r->params[j].name, r->params[i].name,
                         r->params[i].binding);
                return false;
            }
    if (r->push_constant_size > 256) {
        rt_error("%s: %u bytes of push constants; the runtime supports at most 256", pipe->name,
                 r->push_constant_size);
        return false;
    }
    if (r->push_constant_size > pipe->ctx->props.limits.maxPushConstantsSize) {
        rt_error("%s: %u bytes of push constants exceed device %s's maxPushConstantsSize (%u)", pipe->name,
                 r->push_constant_size, pipe->ctx->props.deviceName, pipe->ctx->props.limits.maxPushConstantsSize);
        return false;
    }
    return true;
}

static const char *subgroup_op_name(uint32_t bit)
{
    switch (bit) {
    case MTLRT_SUBGROUP_BASIC: return "basic";
    case MTLRT_SUBGROUP_VOTE: return "vote";
    case MTLRT_SUBGROUP_ARITHMETIC: return "arithmetic";
    case MTLRT_SUBGROUP_BALLOT: return "ballot";
    case MTLRT_SUBGROUP_SHUFFLE: return "shuffle";
    case MTLRT_SUBGROUP_SHUFFLE_RELATIVE: return "shuffle_relative";
    case MTLRT_SUBGROUP_CLUSTERED: return "clustered";
    default: return "quad";
    }
}

/* A kernel built for W-wide subgroups runs only where the device's compute subgroups are W wide, by default or
   by requiring it (VK_EXT_subgroup_size_control), with the subgroup operations it uses. Virtual subgroups run
   anywhere. */
static bool check_subgroups(MtlrtPipeline *pipe)
{
    const MtlrtReflection *r = pipe->refl;
    const MtlrtSubgroupInfo *sg = &pipe->ctx->subgroup;
    const char *dev = pipe->ctx->props.deviceName;
    if (!r->subgroup_size || r->virtual_subgroups || !r->subgroup_ops)
        return true;
    uint32_t missing = r->subgroup_ops & ~sg->operations;
    if (missing) {
        for (uint32_t bit = 1; bit <= MTLRT_SUBGROUP_QUAD; bit <<= 1)
            if (missing & bit) {
                rt_fail(MTLRT_ERROR_UNSUPPORTED, "kernel %s uses %s subgroup operations, which device %s does not support in compute shaders",
                         r->entry, subgroup_op_name(bit), dev);
                break;
            }
        return false;
    }
    if (r->subgroup_size == sg->size)
        return true;
    if (sg->size_control && sg->min_size <= r->subgroup_size && r->subgroup_size <= sg->max_size) {
        pipe->required_subgroup_size = r->subgroup_size;
        return true;
    }
    rt_fail(MTLRT_ERROR_UNSUPPORTED, "kernel %s was translated for %u-wide subgroups, but device %s runs %u-wide subgroups%s; translate it for "
             "this device (mtlrun does, given the .metal source; mtl2glsl --subgroup-size=%u) or with --virtual-subgroups",
             r->entry, r->subgroup_size, dev, sg->size,
             sg->size_control ? " and cannot be made to run that width" : " and cannot choose another (no subgroup size control)",
             mtlrt_context_simd_subgroup_size(pipe->ctx));
    return false;
}

/* A kernel whose SIMD-group matrix products run on tensor cores (reflection simd.matrix_products "tensor_cores",
   mtl2glsl --tensor-cores) runs only where mtlrt_context_tensor_cores says yes; its subgroups are required to be
   32 wide where the device can choose (and whole: create_variant). */
static bool check_tensor_cores(MtlrtPipeline *pipe)
{
    const MtlrtReflection *r = pipe->refl;
    const MtlrtSubgroupInfo *sg = &pipe->ctx->subgroup;
    const char *why = NULL;
    if (!r->tensor_cores)
        return true;
    if (!mtlrt_context_tensor_cores(pipe->ctx, &why))
        return rt_fail(MTLRT_ERROR_UNSUPPORTED, "kernel %s was translated for tensor cores (mtl2glsl --tensor-cores), "
                       "which cannot run here: %s; translate it without --tensor-cores (mtlrun --tensor-cores=off)",
                       r->entry, why);
    if (sg->size_control && sg->min_size <= 32 && 32 <= sg->max_size)
        pipe->required_subgroup_size = 32;
    return true;
}

/* A pipeline for REFL with the checks that need no shader: features, limits, subgroups. NULL on error. */
static MtlrtPipeline *pipeline_begin(MtlrtContext *ctx, const char *name, const MtlrtReflection *refl)
{
    MtlrtPipeline *pipe = calloc(1, sizeof *pipe);
    if (!pipe || !(pipe->name = strdup(name))) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        free(pipe);
        return NULL;
    }
    pipe->ctx = ctx;
    pipe->refl = refl;
    if (!check_tensor_cores(pipe) || !check_features(ctx, refl) || !check_reflection_limits(pipe) ||
        !check_subgroups(pipe)) {
        mtlrt_pipeline_destroy(pipe);
        return NULL;
    }
    return pipe;
}

/* The placeholder buffer for parameters that exist only under a function constant (`[[buffer(n),
   function_constant(NAME)]]`), as large as the largest fixed part of their blocks; none when the kernel has none. */
static bool create_absent(MtlrtPipeline *pipe)
{
    static const VkMemoryPropertyFlags memory[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    uint32_t size = 0;
    for (uint32_t i = 0; i < pipe->refl->n_params; i++) {
        const MtlrtParam *p = &pipe->refl->params[i];
        if (p->kind == MTLRT_PARAM_STORAGE && p->function_constant) {
            uint32_t need = pipe->min_binding_size[p->binding];
            size = need > size ? need : size;
            size = size < 16 ? 16 : size;
        }
    }
    if (!size)
        return true;
    pipe->absent = rt_buffer_create_internal(pipe->ctx, size, memory);
    return pipe->absent != NULL;
}

/* Cross-check the SPIR-V against the reflection, lay out and create the shader module; PIPE is destroyed on error. */
static MtlrtPipeline *pipeline_finish(MtlrtPipeline *pipe, const uint32_t *code, size_t size)
{
    if (!cross_check(pipe, code, size) || !create_layouts(pipe))
        goto error;
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = code,
    };
    if (!rt_vk_ok(vkCreateShaderModule(pipe->ctx->device, &info, NULL, &pipe->module), "vkCreateShaderModule") ||
        !rt_bounds_create(pipe) || !create_absent(pipe))
        goto error;
    return pipe;
error:
    mtlrt_pipeline_destroy(pipe);
    return NULL;
}

/* Compile, cross-check and lay out a kernel. Compute pipelines come later, per threadgroup size. */
MtlrtPipeline *mtlrt_pipeline_create(MtlrtContext *ctx, const char *glsl, const char *name,
                                     const MtlrtReflection *refl)
{
    uint32_t *code = NULL;
    size_t size = 0;
    MtlrtPipeline *pipe = pipeline_begin(ctx, name, refl);
    if (!pipe || !compile_glsl(ctx, glsl, name, &code, &size)) {
        mtlrt_pipeline_destroy(pipe);
        return NULL;
    }
    pipe = pipeline_finish(pipe, code, size);
    free(code);
    return pipe;
}

/* The same from SPIR-V already compiled (embedded by mtl2glsl --emit=c): the same checks, nothing compiled. */
MtlrtPipeline *mtlrt_pipeline_create_spirv(MtlrtContext *ctx, const uint32_t *code, size_t size, const char *name,
                                           const MtlrtReflection *refl)
{
    if (size == 0 || size % 4 || code[0] != 0x07230203u) {
        rt_fail(MTLRT_ERROR_COMPILE, "%s: not SPIR-V (%zu bytes, expected whole words starting with the magic number 0x07230203)",
                 name, size);
        return NULL;
    }
    MtlrtPipeline *pipe = pipeline_begin(ctx, name, refl);
    return pipe ? pipeline_finish(pipe, code, size) : NULL;
}

void mtlrt_pipeline_destroy(MtlrtPipeline *pipe)
{
    if (!pipe)
        return;
    VkDevice dev = pipe->ctx ? pipe->ctx->device : VK_NULL_HANDLE;
    for (uint32_t i = 0; i < pipe->n_variants; i++)
        vkDestroyPipeline(dev, pipe->variants[i].pipeline, NULL);
    if (pipe->module)
        vkDestroyShaderModule(dev, pipe->module, NULL);
    if (pipe->layout)
        vkDestroyPipelineLayout(dev, pipe->layout, NULL);
    if (pipe->set_layout)
        vkDestroyDescriptorSetLayout(dev, pipe->set_layout, NULL);
    mtlrt_buffer_destroy(pipe->bounds);
    mtlrt_buffer_destroy(pipe->absent);
    free(pipe->variants);
    free(pipe->name);
    free(pipe);
}

/* Create the compute pipeline for KEY: local size (spec constants 0, 1, 2), for exact-threadgroup kernels the
   dispatched threadgroup size (3, 4, 5), each [[threadgroup(n)]] length (16 + n); a required subgroup size. */
static bool create_variant(MtlrtPipeline *pipe, const VariantKey *key, VkPipeline *out)
{
    VkSpecializationMapEntry entries[6 + 31 + MAX_FUNCTION_CONSTANTS];
    uint32_t data[6 + 31 + MAX_FUNCTION_CONSTANTS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < 3; i++) {
        data[n] = key->local[i];
        entries[n] = (VkSpecializationMapEntry){.constantID = i, .offset = 4 * n, .size = 4};
        n++;
    }
    for (uint32_t i = 0; i < 3 && pipe->refl->exact_threadgroups; i++) {
        data[n] = key->full[i];
        entries[n] = (VkSpecializationMapEntry){.constantID = 3 + i, .offset = 4 * n, .size = 4};
        n++;
    }
    for (uint32_t i = 0; i < pipe->refl->n_threadgroup_params; i++) {
        uint32_t index = pipe->refl->threadgroup_params[i].index;
        data[n] = key->tg_length[index];
        entries[n] = (VkSpecializationMapEntry){.constantID = 16 + index, .offset = 4 * n, .size = 4};
        n++;
    }
    n = rt_function_constants(pipe, entries, data, n); /* [[function_constant(n)]] values (constants.c) */
    VkSpecializationInfo spec = {
        .mapEntryCount = n,
        .pMapEntries = entries,
        .dataSize = 4 * n,
        .pData = data,
    };
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = pipe->required_subgroup_size,
    };
    VkPipelineShaderStageCreateFlags stage_flags = 0;
    if (pipe->required_subgroup_size && pipe->ctx->subgroup.full_subgroups && key->local[0] % pipe->required_subgroup_size == 0)
        stage_flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    else if (pipe->refl->tensor_cores && pipe->ctx->subgroup.full_subgroups &&
             key->local[0] % pipe->ctx->subgroup.max_size == 0)
        stage_flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT; /* 32 wide without asking */
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = pipe->refl->exact_threadgroups ? VK_PIPELINE_CREATE_DISPATCH_BASE_BIT : 0,
        .stage =
            {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .pNext = pipe->required_subgroup_size ? &required : NULL,
                .flags = stage_flags,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = pipe->module,
                .pName = "main",
                .pSpecializationInfo = &spec,
            },
        .layout = pipe->layout,
    };
    return rt_vk_ok(vkCreateComputePipelines(pipe->ctx->device, VK_NULL_HANDLE, 1, &info, NULL, out),
                    "vkCreateComputePipelines");
}

/* The pipeline for KEY, from the cache or newly created. */
bool rt_pipeline_variant(MtlrtPipeline *pipe, const VariantKey *key, VkPipeline *out)
{
    for (uint32_t i = 0; i < pipe->n_variants; i++)
        if (!memcmp(&pipe->variants[i].key, key, sizeof *key)) {
            *out = pipe->variants[i].pipeline;
            return true;
        }
    const MtlrtReflection *r = pipe->refl;
    if (r->subgroup_size && !r->virtual_subgroups && r->subgroup_ops &&
        !rt_check_subgroup_layout(pipe->ctx, key->local, r->subgroup_size))
        return false;
    PipelineVariant *v = realloc(pipe->variants, (pipe->n_variants + 1) * sizeof *v);
    if (!v) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    pipe->variants = v;
    if (!create_variant(pipe, key, out))
        return false;
    v[pipe->n_variants].pipeline = *out;
    v[pipe->n_variants++].key = *key;
    return true;
}
