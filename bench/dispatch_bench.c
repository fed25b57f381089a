/* dispatch_bench.c: what recording dispatches through the runtime costs, against a raw Vulkan loop doing the same
   dispatches on the same device, queue, SPIR-V and buffers (docs/performance.md, "Dispatch overhead").

   The work: a chain of N dispatches of y = x + a over E floats in threadgroups of 256, ping-ponging between two
   buffers, so that every dispatch reads what the one before wrote (a barrier between each two, as a Metal encoder
   orders them). Timed, median and minimum of R repetitions, wall clock:
     raw     one command buffer: pipeline bound once, two descriptor sets made beforehand, per dispatch push
             constants + dispatch + barrier; record, submit, wait
     list    mtlrt_commands_reset, N mtlrt_commands_dispatch (each checked against the kernel and device, barriers
             found from the buffers it reads and writes, descriptor sets reused), submit, wait
     resubmit the recorded raw command buffer / mtlrt list submitted again and waited for
     single   mtlrt_dispatch N times (a submission and a wait each: the runtime before command lists)
     record   the recording alone of raw and list (this thread's CPU time, CLOCK_THREAD_CPUTIME_ID: the host work
              the runtime adds, which a fast GPU does not hide; unlike wall time, other processes do not inflate it)
   Both results are checked (every element = its start + N a), so neither loop can skip work.
     dispatch_bench [--dispatches N] [--elements E] [--reps R] [--device NAME|INDEX] */
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mtlrt.h"
#include "mtlrt_vulkan.h"

static const char glsl[] =
    "#version 450\n"
    "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n"
    "layout(std430, set = 0, binding = 0) readonly buffer bx { float x[]; };\n"
    "layout(std430, set = 0, binding = 1) writeonly buffer by { float y[]; };\n"
    "layout(push_constant, std430) uniform P { uvec3 grid; uint pad; float a; } p;\n"
    "void main()\n{\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    if (i >= p.grid.x) return;\n"
    "    y[i] = x[i] + p.a;\n"
    "}\n";
static const char reflection[] =
    "{\"entry\": \"add\", \"push_constant_size\": 20, \"buffers\": ["
    "{\"index\": 0, \"name\": \"x\", \"kind\": \"storage\", \"binding\": 0, \"type\": \"float\", \"scalar\": \"float\","
    " \"element_size\": 4, \"pointer\": true, \"access\": \"read\"},"
    "{\"index\": 1, \"name\": \"y\", \"kind\": \"storage\", \"binding\": 1, \"type\": \"float\", \"scalar\": \"float\","
    " \"element_size\": 4, \"pointer\": true, \"access\": \"write\"},"
    "{\"index\": 2, \"name\": \"a\", \"kind\": \"push_constant\", \"offset\": 16, \"size\": 4, \"type\": \"float\","
    " \"scalar\": \"float\", \"element_size\": 4, \"pointer\": false, \"access\": \"read\"}]}";

#define TG 256
#define CHECK(x)                                                                  \
    do {                                                                          \
        if (!(x)) {                                                               \
            fprintf(stderr, "dispatch_bench: %s failed: %s\n", #x, mtlrt_last_error()); \
            exit(1);                                                              \
        }                                                                         \
    } while (0)
#define VK(x) CHECK((x) == VK_SUCCESS)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The raw Vulkan side: its own layouts, pipeline, descriptor sets and command buffer on the runtime's device. */
typedef struct Raw {
    MtlrtVulkanDevice vd;
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet sets[2]; /* A -> B, B -> A */
    VkCommandPool cmd_pool;
    VkCommandBuffer cmd;
    VkFence fence;
} Raw;

static void raw_create(Raw *r, MtlrtContext *ctx, const uint32_t *spirv, size_t size, VkBuffer a, VkBuffer b)
{
    mtlrt_context_vulkan(ctx, &r->vd);
    VkDevice dev = r->vd.device;
    VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = spirv};
    VK(vkCreateShaderModule(dev, &mi, NULL, &r->module));
    VkDescriptorSetLayoutBinding bindings[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
    };
    VkDescriptorSetLayoutCreateInfo si = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 2, .pBindings = bindings};
    VK(vkCreateDescriptorSetLayout(dev, &si, NULL, &r->set_layout));
    VkPushConstantRange range = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = 20};
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                     .pSetLayouts = &r->set_layout, .pushConstantRangeCount = 1,
                                     .pPushConstantRanges = &range};
    VK(vkCreatePipelineLayout(dev, &li, NULL, &r->layout));
    uint32_t local[3] = {TG, 1, 1};
    VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
    VkSpecializationInfo spec = {.mapEntryCount = 3, .pMapEntries = entries, .dataSize = 12, .pData = local};
    VkComputePipelineCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = r->module, .pName = "main", .pSpecializationInfo = &spec},
        .layout = r->layout,
    };
    VK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pi, NULL, &r->pipeline));
    VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 4};
    VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 2,
                                      .poolSizeCount = 1, .pPoolSizes = &ps};
    VK(vkCreateDescriptorPool(dev, &pci, NULL, &r->pool));
    VkDescriptorSetLayout layouts[2] = {r->set_layout, r->set_layout};
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = r->pool,
                                      .descriptorSetCount = 2, .pSetLayouts = layouts};
    VK(vkAllocateDescriptorSets(dev, &ai, r->sets));
    VkBuffer order[2][2] = {{a, b}, {b, a}};
    for (int s = 0; s < 2; s++)
        for (uint32_t k = 0; k < 2; k++) {
            VkDescriptorBufferInfo info = {.buffer = order[s][k], .range = VK_WHOLE_SIZE};
            VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->sets[s],
                                      .dstBinding = k, .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info};
            vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
        }
    VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = r->vd.queue_family};
    VK(vkCreateCommandPool(dev, &cpi, NULL, &r->cmd_pool));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = r->cmd_pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VK(vkAllocateCommandBuffers(dev, &cai, &r->cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK(vkCreateFence(dev, &fi, NULL, &r->fence));
}

/* Record the chain of N dispatches over E elements into the raw command buffer. */
static void raw_record(Raw *r, uint32_t n, uint32_t elements, float a)
{
    struct { uint32_t grid[3], pad; float a; } push = {{elements, 1, 1}, 0, a};
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkResetCommandBuffer(r->cmd, 0));
    VK(vkBeginCommandBuffer(r->cmd, &bi));
    vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipeline);
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            vkCmdPipelineBarrier(r->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &mb, 0, NULL, 0, NULL);
        vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 0, 1, &r->sets[i % 2], 0, NULL);
        vkCmdPushConstants(r->cmd, r->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
        vkCmdDispatch(r->cmd, (elements + TG - 1) / TG, 1, 1);
    }
    VkMemoryBarrier host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(r->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0,
                         NULL, 0, NULL);
    VK(vkEndCommandBuffer(r->cmd));
}

static void raw_submit_wait(Raw *r)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &r->cmd};
    VK(vkQueueSubmit(r->vd.queue, 1, &si, r->fence));
    VK(vkWaitForFences(r->vd.device, 1, &r->fence, VK_TRUE, UINT64_MAX));
    VK(vkResetFences(r->vd.device, 1, &r->fence));
}

static void raw_destroy(Raw *r)
{
    VkDevice dev = r->vd.device;
    vkDestroyFence(dev, r->fence, NULL);
    vkDestroyCommandPool(dev, r->cmd_pool, NULL);
    vkDestroyDescriptorPool(dev, r->pool, NULL);
    vkDestroyPipeline(dev, r->pipeline, NULL);
    vkDestroyPipelineLayout(dev, r->layout, NULL);
    vkDestroyDescriptorSetLayout(dev, r->set_layout, NULL);
    vkDestroyShaderModule(dev, r->module, NULL);
}

/* GLSL -> SPIR-V with shaderc (as the runtime compiles it). */
static uint32_t *compile(size_t *size)
{
    shaderc_compiler_t c = shaderc_compiler_initialize();
    shaderc_compile_options_t o = shaderc_compile_options_initialize();
    shaderc_compile_options_set_target_env(o, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compilation_result_t res = shaderc_compile_into_spv(c, glsl, sizeof glsl - 1, shaderc_compute_shader,
                                                                "add.comp", "main", o);
    CHECK(shaderc_result_get_compilation_status(res) == shaderc_compilation_status_success);
    *size = shaderc_result_get_length(res);
    uint32_t *words = malloc(*size);
    memcpy(words, shaderc_result_get_bytes(res), *size);
    shaderc_result_release(res);
    shaderc_compile_options_release(o);
    shaderc_compiler_release(c);
    return words;
}

/* Reset both buffers to 0..E-1; after N dispatches of +A the last one written holds i + N a. */
static void reset(MtlrtBuffer *a, MtlrtBuffer *b, float *host, uint32_t e)
{
    for (uint32_t i = 0; i < e; i++)
        host[i] = (float)(i % 1024);
    CHECK(mtlrt_buffer_write(a, host, e * 4));
    CHECK(mtlrt_buffer_write(b, host, e * 4));
}

static void verify(MtlrtBuffer *a, MtlrtBuffer *b, float *host, uint32_t e, uint32_t n, float add, const char *what)
{
    CHECK(mtlrt_buffer_read(n % 2 ? b : a, host, e * 4));
    for (uint32_t i = 0; i < e; i++)
        if (host[i] != (float)(i % 1024) + (float)n * add) {
            fprintf(stderr, "dispatch_bench: %s: element %u is %g, expected %g\n", what, i, host[i],
                    (float)(i % 1024) + (float)n * add);
            exit(1);
        }
}

typedef struct Times {
    double ms[256];
    int n;
} Times;

static void report(const char *what, Times *t, uint32_t dispatches, double base)
{
    qsort(t->ms, (size_t)t->n, sizeof *t->ms, cmp);
    double med = t->ms[t->n / 2];
    printf("%-44s median %9.3f ms  min %9.3f ms  %8.2f us/dispatch", what, med, t->ms[0], med * 1e3 / dispatches);
    if (base > 0)
        printf("  %.2fx raw", med / base);
    printf("\n");
}

int main(int argc, char **argv)
{
    uint32_t n = 1000, e = 4096, reps = 20;
    const char *device = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--dispatches"))
            n = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--elements"))
            e = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--device"))
            device = argv[i + 1];
    }
    if (reps > 256)
        reps = 256;
    mtlrt_set_diag(stderr, "dispatch_bench");
    MtlrtContext *ctx = mtlrt_context_create(&(MtlrtContextOptions){.device = device});
    CHECK(ctx);
    size_t size;
    uint32_t *spirv = compile(&size);
    MtlrtReflection *refl = mtlrt_reflection_parse(reflection, NULL, "add.json");
    MtlrtPipeline *pipe = refl ? mtlrt_pipeline_create_spirv(ctx, spirv, size, "add", refl) : NULL;
    MtlrtBuffer *a = mtlrt_buffer_create(ctx, e * 4), *b = mtlrt_buffer_create(ctx, e * 4);
    CHECK(pipe && a && b);
    float *host = malloc(e * 4), add = 0.5f;
    Raw raw = {0};
    raw_create(&raw, ctx, spirv, size, mtlrt_buffer_vk_buffer(a), mtlrt_buffer_vk_buffer(b));
    MtlrtBuffer *ab[] = {a, b}, *ba[] = {b, a};
    uint8_t push[20] = {0};
    memcpy(push + 16, &add, 4);
    MtlrtDispatch d[2];
    for (int k = 0; k < 2; k++)
        d[k] = (MtlrtDispatch){.style = MTLRT_DISPATCH_THREADS, .size = {e, 1, 1}, .threadgroup = {TG, 1, 1},
                               .bindings = k ? ba : ab, .n_bindings = 2, .push_data = push, .push_size = 20};
    MtlrtCommands *cmds = mtlrt_commands_create(ctx);
    CHECK(cmds);
    printf("device: %s\ndispatches: %u, each reading the previous one's output (%u floats, threadgroups of %d); "
           "%u repetitions\n", mtlrt_context_device_name(ctx), n, e, TG, reps);
    Times t_raw = {0}, t_list = {0}, t_raw_re = {0}, t_list_re = {0}, t_single = {0}, t_raw_rec = {0},
          t_list_rec = {0};
    for (uint32_t rep = 0; rep < reps + 1; rep++) { /* repetition 0 warms up (pipelines, memory) */
        reset(a, b, host, e);
        double t0 = now_ms(), c0 = cpu_ms();
        raw_record(&raw, n, e, add);
        double c1 = cpu_ms();
        raw_submit_wait(&raw);
        double t1 = now_ms();
        verify(a, b, host, e, n, add, "raw");
        reset(a, b, host, e);
        double t2 = now_ms(), c2 = cpu_ms();
        CHECK(mtlrt_commands_reset(cmds));
        for (uint32_t i = 0; i < n; i++)
            CHECK(mtlrt_commands_dispatch(cmds, pipe, &d[i % 2]));
        double c3 = cpu_ms();
        CHECK(mtlrt_commands_submit(cmds) && mtlrt_commands_wait(cmds, UINT64_MAX) == MTLRT_OK);
        double t3 = now_ms();
        verify(a, b, host, e, n, add, "command list");
        CHECK(mtlrt_commands_barriers(cmds) == n - 1);
        reset(a, b, host, e);
        double t4 = now_ms();
        raw_submit_wait(&raw);
        double t5 = now_ms();
        verify(a, b, host, e, n, add, "raw resubmitted");
        reset(a, b, host, e);
        double t6 = now_ms();
        CHECK(mtlrt_commands_submit(cmds) && mtlrt_commands_wait(cmds, UINT64_MAX) == MTLRT_OK);
        double t7 = now_ms();
        verify(a, b, host, e, n, add, "command list resubmitted");
        if (rep == 0)
            continue;
        t_raw.ms[t_raw.n++] = t1 - t0;
        t_list.ms[t_list.n++] = t3 - t2;
        t_raw_re.ms[t_raw_re.n++] = t5 - t4;
        t_list_re.ms[t_list_re.n++] = t7 - t6;
        t_raw_rec.ms[t_raw_rec.n++] = c1 - c0;
        t_list_rec.ms[t_list_rec.n++] = c3 - c2;
        if (rep <= 3) { /* one submission and wait per dispatch: slow, three repetitions */
            reset(a, b, host, e);
            double t8 = now_ms();
            for (uint32_t i = 0; i < n; i++)
                CHECK(mtlrt_dispatch(pipe, &d[i % 2], NULL));
            t_single.ms[t_single.n++] = now_ms() - t8;
            verify(a, b, host, e, n, add, "mtlrt_dispatch");
        }
    }
    qsort(t_raw.ms, (size_t)t_raw.n, sizeof(double), cmp);
    qsort(t_raw_re.ms, (size_t)t_raw_re.n, sizeof(double), cmp);
    qsort(t_raw_rec.ms, (size_t)t_raw_rec.n, sizeof(double), cmp);
    double base = t_raw.ms[t_raw.n / 2], base_re = t_raw_re.ms[t_raw_re.n / 2], base_rec = t_raw_rec.ms[t_raw_rec.n / 2];
    report("raw Vulkan loop: record, submit, wait", &t_raw, n, 0);
    report("mtlrt command list: record, submit, wait", &t_list, n, base);
    report("raw Vulkan: submit again, wait", &t_raw_re, n, 0);
    report("mtlrt command list: submit again, wait", &t_list_re, n, base_re);
    report("mtlrt_dispatch one by one (3 reps)", &t_single, n, base);
    report("raw Vulkan loop: record only (CPU time)", &t_raw_rec, n, 0);
    report("mtlrt command list: record only (CPU time)", &t_list_rec, n, base_rec);
    mtlrt_commands_destroy(cmds);
    raw_destroy(&raw);
    mtlrt_buffer_destroy(a);
    mtlrt_buffer_destroy(b);
    mtlrt_pipeline_destroy(pipe);
    mtlrt_reflection_destroy(refl);
    mtlrt_context_destroy(ctx);
    free(spirv);
    free(host);
    return 0;
}
