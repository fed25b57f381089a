// consumer_cxx: a C++ Vulkan application that embeds the mtl2glsl runtime. It creates its own instance (with the
// validation layer) and device, gives them to the runtime, and then:
//   1. runs chain.metal's `scale` through its generated launch function, on a buffer it filled through a mapping;
//   2. records scale, shift and block_sum into one command list (two barriers between the three dependent
//      dispatches, none before an independent fill), submits it, polls, waits, and checks every sum;
//   3. clears a runtime buffer with its own Vulkan commands (mtlrt_buffer_vk_buffer) and reads it back;
//   4. checks that a bad call returns false with a status and a message, which reach its log callback only.
// Exit 0 when everything matches and the validation layer said nothing.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mtlrt.h>
#include <mtlrt_vulkan.h>

#include "chain_kernels.h" // chain.metal.h, generated

namespace {

constexpr uint32_t N = 4096, TG = 256, GROUPS = N / TG;
int validation_messages = 0;
std::vector<std::string> log_lines;

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                             const VkDebugUtilsMessengerCallbackDataEXT *data, void *)
{
    std::fprintf(stderr, "consumer_cxx: validation: %s\n", data->pMessage);
    validation_messages++;
    return VK_FALSE;
}

bool check(bool ok, const char *what)
{
    std::printf("%s: %s\n", what, ok ? "PASS" : "FAIL");
    if (!ok && mtlrt_last_status() != MTLRT_OK)
        std::printf("  runtime: %s: %s\n", mtlrt_status_name(mtlrt_last_status()), mtlrt_last_error());
    return ok;
}

// The application's own Vulkan objects.
struct App {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkQueue queue = VK_NULL_HANDLE;
    VkPhysicalDeviceVulkan12Features features12{};
    VkPhysicalDeviceFeatures2 features{};
};

bool create_instance(App &app)
{
    VkDebugUtilsMessengerCreateInfoEXT messenger{};
    messenger.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    messenger.pfnUserCallback = on_validation;
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkApplicationInfo info{};
    info.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    info.pApplicationName = "consumer_cxx";
    info.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ci.pNext = &messenger;
    ci.pApplicationInfo = &info;
    ci.enabledLayerCount = 1;
    ci.ppEnabledLayerNames = &layer;
    ci.enabledExtensionCount = 1;
    ci.ppEnabledExtensionNames = &ext;
    if (vkCreateInstance(&ci, nullptr, &app.instance) != VK_SUCCESS) {
        std::fprintf(stderr, "consumer_cxx: vkCreateInstance failed (is vulkan-validationlayers installed?)\n");
        return false;
    }
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(app.instance, "vkCreateDebugUtilsMessengerEXT"));
    return create && create(app.instance, &messenger, nullptr, &app.messenger) == VK_SUCCESS;
}

// The device MTL2GLSL_DEVICE names by index, else the first; one compute queue; buffer device addresses on where
// the device has them (so that the runtime sees a Vulkan 1.2 feature struct in the chain it adopts).
bool create_device(App &app)
{
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(app.instance, &n, nullptr);
    std::vector<VkPhysicalDevice> devs(n);
    vkEnumeratePhysicalDevices(app.instance, &n, devs.data());
    const char *env = std::getenv("MTL2GLSL_DEVICE");
    uint32_t pick = env && *env >= '0' && *env <= '9' ? (uint32_t)std::atoi(env) : 0;
    if (pick >= n)
        return false;
    app.physical = devs[pick];
    vkGetPhysicalDeviceQueueFamilyProperties(app.physical, &n, nullptr);
    std::vector<VkQueueFamilyProperties> fams(n);
    vkGetPhysicalDeviceQueueFamilyProperties(app.physical, &n, fams.data());
    while (app.family < n && !(fams[app.family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        app.family++;
    if (app.family == n)
        return false;
    app.features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    app.features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    app.features.pNext = &app.features12;
    vkGetPhysicalDeviceFeatures2(app.physical, &app.features);
    VkBool32 bda = app.features12.bufferDeviceAddress;
    app.features12 = VkPhysicalDeviceVulkan12Features{};
    app.features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    app.features12.bufferDeviceAddress = bda;
    app.features.features = VkPhysicalDeviceFeatures{};
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{};
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = app.family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    ci.pNext = &app.features;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &queue;
    if (vkCreateDevice(app.physical, &ci, nullptr, &app.device) != VK_SUCCESS)
        return false;
    vkGetDeviceQueue(app.device, app.family, 0, &app.queue);
    return true;
}

void destroy(App &app)
{
    if (app.device)
        vkDestroyDevice(app.device, nullptr);
    auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        app.instance ? vkGetInstanceProcAddr(app.instance, "vkDestroyDebugUtilsMessengerEXT") : nullptr);
    if (destroy_messenger && app.messenger)
        destroy_messenger(app.instance, app.messenger, nullptr);
    if (app.instance)
        vkDestroyInstance(app.instance, nullptr);
}

// A pipeline of the embedded kernel NAME (its SPIR-V and reflection from chain.metal.h).
struct Kernel {
    MtlrtReflection *refl = nullptr;
    MtlrtPipeline *pipe = nullptr;
    Kernel(MtlrtContext *ctx, const char *name, const uint32_t *spirv, size_t size, const char *json)
    {
        refl = mtlrt_reflection_parse(json, nullptr, name);
        pipe = refl ? mtlrt_pipeline_create_spirv(ctx, spirv, size, name, refl) : nullptr;
    }
    ~Kernel()
    {
        mtlrt_pipeline_destroy(pipe);
        mtlrt_reflection_destroy(refl);
    }
};

// A dispatch of THREADS threads in threadgroups of TG, with BINDINGS and the push constants PUSH.
MtlrtDispatch dispatch_of(MtlrtBuffer *const *bindings, uint32_t n_bindings, const void *push, uint32_t push_size)
{
    MtlrtDispatch d{};
    d.style = MTLRT_DISPATCH_THREADS;
    d.size[0] = N, d.size[1] = d.size[2] = 1;
    d.threadgroup[0] = TG, d.threadgroup[1] = d.threadgroup[2] = 1;
    d.bindings = bindings;
    d.n_bindings = n_bindings;
    d.push_data = push;
    d.push_size = push_size;
    return d;
}

// 2: scale, shift and block_sum in one command list; sums[g] = sum over g's elements of (a * x + b).
bool run_chain(MtlrtContext *ctx, MtlrtBuffer *x, MtlrtBuffer *y, MtlrtBuffer *sums, MtlrtBuffer *other,
               const std::vector<float> &xs)
{
    Kernel scale(ctx, "scale", chain_scale_spirv, chain_scale_spirv_size, chain_scale_reflection);
    Kernel shift(ctx, "shift", chain_shift_spirv, chain_shift_spirv_size, chain_shift_reflection);
    Kernel block_sum(ctx, "block_sum", chain_block_sum_spirv, chain_block_sum_spirv_size, chain_block_sum_reflection);
    MtlrtCommands *cmds = mtlrt_commands_create(ctx);
    if (!scale.pipe || !shift.pipe || !block_sum.pipe || !cmds)
        return check(false, "command list: pipelines");
    const float a = 0.5f, b = -1.0f;
    uint8_t push_a[20] = {}, push_b[20] = {};
    std::memcpy(push_a + 16, &a, 4); // after the 16-byte dispatch block (docs/interfaces.md)
    std::memcpy(push_b + 16, &b, 4);
    MtlrtBuffer *bind_scale[] = {x, y}, *bind_shift[] = {y}, *bind_sum[] = {y, sums};
    MtlrtDispatch d1 = dispatch_of(bind_scale, 2, push_a, sizeof push_a);
    MtlrtDispatch d2 = dispatch_of(bind_shift, 1, push_b, sizeof push_b);
    MtlrtDispatch d3 = dispatch_of(bind_sum, 2, nullptr, 0);
    d3.threadgroup_memory[0] = TG * sizeof(float);
    bool ok = mtlrt_commands_dispatch(cmds, scale.pipe, &d1) && mtlrt_commands_dispatch(cmds, shift.pipe, &d2) &&
              mtlrt_commands_fill(cmds, other, 0, mtlrt_buffer_size(other), 0) &&
              mtlrt_commands_dispatch(cmds, block_sum.pipe, &d3) && mtlrt_commands_submit(cmds);
    MtlrtStatus status = ok ? mtlrt_commands_wait(cmds, 0) : MTLRT_OK; // a poll: done or not, both are fine
    ok = ok && (status == MTLRT_OK || status == MTLRT_NOT_READY) && mtlrt_commands_wait(cmds, UINT64_MAX) == MTLRT_OK;
    uint32_t barriers = mtlrt_commands_barriers(cmds), count = mtlrt_commands_count(cmds);
    mtlrt_commands_destroy(cmds);
    std::vector<float> got(GROUPS);
    ok = ok && mtlrt_buffer_read(sums, got.data(), GROUPS * sizeof(float));
    bool close = ok;
    for (uint32_t g = 0; ok && g < GROUPS; g++) {
        double want = 0;
        for (uint32_t i = 0; i < TG; i++)
            want += a * xs[g * TG + i] + b;
        close = close && std::fabs(got[g] - want) <= 1e-4 * std::fabs(want) + 1e-4;
    }
    std::printf("command list: %u commands, %u barriers\n", count, barriers);
    return check(ok && close && count == 4 && barriers == 2, "command list (scale, shift, fill, block_sum)");
}

// 3: the application's own commands on a runtime buffer: fill it with 1.0f, then read it through the runtime.
bool app_fill(App &app, MtlrtBuffer *buf)
{
    VkCommandPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool_info.queueFamilyIndex = app.family;
    VkCommandPool pool;
    if (vkCreateCommandPool(app.device, &pool_info, nullptr, &pool) != VK_SUCCESS)
        return check(false, "application fill");
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd;
    vkAllocateCommandBuffers(app.device, &alloc, &cmd);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vkBeginCommandBuffer(cmd, &begin);
    float one = 1.0f;
    uint32_t bits;
    std::memcpy(&bits, &one, 4);
    vkCmdFillBuffer(cmd, mtlrt_buffer_vk_buffer(buf), 0, mtlrt_buffer_vk_size(buf), bits);
    vkEndCommandBuffer(cmd);
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    bool ok = vkQueueSubmit(app.queue, 1, &submit, VK_NULL_HANDLE) == VK_SUCCESS && vkQueueWaitIdle(app.queue) == VK_SUCCESS;
    vkDestroyCommandPool(app.device, pool, nullptr);
    std::vector<float> got(mtlrt_buffer_size(buf) / sizeof(float));
    ok = ok && mtlrt_buffer_read(buf, got.data(), got.size() * sizeof(float));
    for (float v : got)
        ok = ok && v == 1.0f;
    return check(ok, "application's vkCmdFillBuffer on mtlrt_buffer_vk_buffer");
}

// 4: a bad call fails with a status and a message, and the message reaches the log callback (nothing printed).
bool bad_call(MtlrtBuffer *buf)
{
    float tmp[4];
    mtlrt_clear_error();
    log_lines.clear();
    bool failed = !mtlrt_buffer_read_at(buf, mtlrt_buffer_size(buf), tmp, sizeof tmp);
    std::string msg = mtlrt_last_error();
    std::printf("  expected error: %s: %s\n", mtlrt_status_name(mtlrt_last_status()), msg.c_str());
    return check(failed && mtlrt_last_status() == MTLRT_ERROR_INVALID_ARGUMENT && !msg.empty() &&
                     log_lines.size() == 1 && log_lines[0] == "error: " + msg,
                 "status, message and log callback of a failing call");
}

} // namespace

int main()
{
    mtlrt_set_log_callback(
        [](MtlrtLogLevel level, const char *message, void *) {
            log_lines.push_back(std::string(level == MTLRT_LOG_ERROR ? "error: " : "") + message);
        },
        nullptr);
    App app;
    if (!create_instance(app) || !create_device(app)) {
        std::fprintf(stderr, "consumer_cxx: cannot create the application's Vulkan device\n");
        destroy(app);
        return 1;
    }
    MtlrtVulkanDevice vd{};
    vd.instance = app.instance;
    vd.physical_device = app.physical;
    vd.device = app.device;
    vd.queue_family = app.family;
    vd.queue = app.queue;
    vd.api_version = VK_API_VERSION_1_2;
    vd.enabled_features_chain = &app.features;
    MtlrtContext *ctx = mtlrt_context_create_vulkan(&vd);
    chain_kernels *k = ctx ? chain_kernels_create(ctx) : nullptr;
    MtlrtBuffer *x = ctx ? mtlrt_buffer_create_flags(ctx, N * sizeof(float), MTLRT_BUFFER_HOST_VISIBLE) : nullptr;
    MtlrtBuffer *y = ctx ? mtlrt_buffer_create(ctx, N * sizeof(float)) : nullptr;
    MtlrtBuffer *sums = ctx ? mtlrt_buffer_create(ctx, GROUPS * sizeof(float)) : nullptr;
    MtlrtBuffer *other = ctx ? mtlrt_buffer_create(ctx, 64) : nullptr;
    int failures = 0;
    if (!k || !x || !y || !sums || !other) {
        check(false, "runtime context, kernels and buffers on the application's device");
        failures++;
    } else {
        std::printf("runtime on the application's device: %s\n", mtlrt_context_device_name(ctx));
        std::vector<float> xs(N), ys(N);
        for (uint32_t i = 0; i < N; i++)
            xs[i] = std::sin(0.01f * i);
        float *mapped = static_cast<float *>(mtlrt_buffer_map(x));
        if (mapped)
            std::memcpy(mapped, xs.data(), N * sizeof(float));
        const uint32_t grid[3] = {N, 1, 1}, tg[3] = {TG, 1, 1};
        bool ok = mapped && chain_scale(k, MTLRT_DISPATCH_THREADS, grid, tg, x, y, 3.0f) &&
                  mtlrt_buffer_read(y, ys.data(), N * sizeof(float));
        for (uint32_t i = 0; ok && i < N; i++)
            ok = ys[i] == 3.0f * xs[i];
        failures += !check(ok, "generated launch function chain_scale (input written through a mapping)");
        failures += !run_chain(ctx, x, y, sums, other, xs);
        failures += !app_fill(app, sums);
        failures += !bad_call(sums);
    }
    mtlrt_buffer_destroy(x);
    mtlrt_buffer_destroy(y);
    mtlrt_buffer_destroy(sums);
    mtlrt_buffer_destroy(other);
    chain_kernels_destroy(k);
    mtlrt_context_destroy(ctx);
    destroy(app); // the device outlived the runtime's context
    if (validation_messages)
        std::printf("validation messages: %d: FAIL\n", validation_messages);
    return failures || validation_messages ? 1 : 0;
}
