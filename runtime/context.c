/* context.c: diagnostics, Vulkan instance (with the validation layer on request), device choice, logical device
   with one compute queue and the features translated shaders may need. */
#include "internal.h"
#include "mtlrt_vulkan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The log: a callback the application sets (none: nothing is printed), or the built-in printer mtlrt_set_diag
   installs. Set before contexts are created; read by every thread. */
static MtlrtLogFn log_fn;
static void *log_user;
static const char *diag_prefix = "mtlrt";

/* The status and message of the last failed call, per thread. */
static _Thread_local MtlrtStatus last_status;
static _Thread_local char last_message[4096];

void mtlrt_set_log_callback(MtlrtLogFn fn, void *user)
{
    log_fn = fn;
    log_user = user;
}

/* The built-in printer: "PREFIX: error: MESSAGE", "PREFIX: warning: MESSAGE", "PREFIX: MESSAGE". */
static void print_to_diag(MtlrtLogLevel level, const char *message, void *user)
{
    FILE *f = user ? user : stderr;
    const char *kind = level == MTLRT_LOG_ERROR ? "error: " : level == MTLRT_LOG_WARNING ? "warning: " : "";
    fprintf(f, "%s: %s%s\n", diag_prefix, kind, message);
    fflush(f);
}

/* Messages go to FILE (NULL: stderr) as "PREFIX: error: ..." (default prefix "mtlrt"). */
void mtlrt_set_diag(FILE *file, const char *prefix)
{
    if (prefix)
        diag_prefix = prefix;
    mtlrt_set_log_callback(print_to_diag, file ? file : stderr);
}

MtlrtStatus mtlrt_last_status(void)
{
    return last_status;
}

const char *mtlrt_last_error(void)
{
    return last_message;
}

void mtlrt_clear_error(void)
{
    last_status = MTLRT_OK;
    last_message[0] = 0;
}

const char *mtlrt_status_name(MtlrtStatus status)
{
    switch (status) {
#define S(x) \
    case x:  \
        return #x;
        S(MTLRT_OK) S(MTLRT_NOT_READY) S(MTLRT_ERROR_INVALID_ARGUMENT) S(MTLRT_ERROR_UNSUPPORTED)
        S(MTLRT_ERROR_OUT_OF_MEMORY) S(MTLRT_ERROR_IO) S(MTLRT_ERROR_COMPILE) S(MTLRT_ERROR_VULKAN)
        S(MTLRT_ERROR_TIMEOUT) S(MTLRT_ERROR_DEVICE_LOST) S(MTLRT_ERROR_OUT_OF_BOUNDS)
#undef S
    }
    return "unknown MtlrtStatus";
}

const char *mtlrt_version(void)
{
    return MTLRT_VERSION;
}

/* Pass MESSAGE to the log at LEVEL (nothing when no callback is set). */
void rt_vlog(MtlrtLogLevel level, const char *fmt, va_list ap)
{
    if (!log_fn)
        return;
    char buf[8192];
    vsnprintf(buf, sizeof buf, fmt, ap);
    log_fn(level, buf, log_user);
}

void rt_log(MtlrtLogLevel level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_vlog(level, fmt, ap);
    va_end(ap);
}

static _Thread_local int quiet_errors; /* rt_quiet_errors: errors recorded, not logged */

void rt_quiet_errors(bool on)
{
    quiet_errors += on ? 1 : -1;
}

void rt_restore_error(MtlrtStatus status, const char *message)
{
    last_status = status;
    snprintf(last_message, sizeof last_message, "%s", message);
}

/* Record STATUS and the message as this thread's last error, and log it. */
static void vfail(MtlrtStatus status, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    last_status = status;
    if (!quiet_errors)
        rt_vlog(MTLRT_LOG_ERROR, fmt, copy);
    va_end(copy);
}

/* The last error's status is STATUS; returns false. */
bool rt_fail(MtlrtStatus status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(status, fmt, ap);
    va_end(ap);
    return false;
}

/* An error in what the caller passed (the most common kind). */
void rt_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(MTLRT_ERROR_INVALID_ARGUMENT, fmt, ap);
    va_end(ap);
}

/* A note for the log (the chosen device). */
void rt_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_vlog(MTLRT_LOG_INFO, fmt, ap);
    va_end(ap);
}

/* A warning for the log: the call goes on. */
void rt_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_vlog(MTLRT_LOG_WARNING, fmt, ap);
    va_end(ap);
}

/* VkResult -> its name in the spec. */
const char *rt_vk_result_string(VkResult res)
{
    switch (res) {
#define R(x) \
    case x:  \
        return #x;
        R(VK_SUCCESS) R(VK_NOT_READY) R(VK_TIMEOUT) R(VK_EVENT_SET) R(VK_EVENT_RESET) R(VK_INCOMPLETE)
        R(VK_ERROR_OUT_OF_HOST_MEMORY) R(VK_ERROR_OUT_OF_DEVICE_MEMORY) R(VK_ERROR_INITIALIZATION_FAILED)
        R(VK_ERROR_DEVICE_LOST) R(VK_ERROR_MEMORY_MAP_FAILED) R(VK_ERROR_LAYER_NOT_PRESENT)
        R(VK_ERROR_EXTENSION_NOT_PRESENT) R(VK_ERROR_FEATURE_NOT_PRESENT) R(VK_ERROR_INCOMPATIBLE_DRIVER)
        R(VK_ERROR_TOO_MANY_OBJECTS) R(VK_ERROR_FORMAT_NOT_SUPPORTED) R(VK_ERROR_FRAGMENTED_POOL)
        R(VK_ERROR_UNKNOWN) R(VK_ERROR_OUT_OF_POOL_MEMORY) R(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        R(VK_ERROR_FRAGMENTATION) R(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS) R(VK_PIPELINE_COMPILE_REQUIRED)
        R(VK_ERROR_INVALID_SHADER_NV)
#undef R
    default:
        return "unknown VkResult";
    }
}

/* True when RES is VK_SUCCESS; otherwise says which call failed and how. */
bool rt_vk_ok(VkResult res, const char *call)
{
    if (res == VK_SUCCESS)
        return true;
    MtlrtStatus status = res == VK_ERROR_OUT_OF_HOST_MEMORY || res == VK_ERROR_OUT_OF_DEVICE_MEMORY
                             ? MTLRT_ERROR_OUT_OF_MEMORY
                         : res == VK_ERROR_DEVICE_LOST ? MTLRT_ERROR_DEVICE_LOST
                         : res == VK_TIMEOUT            ? MTLRT_ERROR_TIMEOUT
                                                        : MTLRT_ERROR_VULKAN;
    return rt_fail(status, "%s failed: %s (%d)", call, rt_vk_result_string(res), (int)res);
}

/* Bool member of the feature structs named NAME (features.def), or NULL. */
VkBool32 *rt_feature(DeviceFeatures *f, const char *name)
{
#define FEATURE(n, member) \
    if (strcmp(name, #n) == 0) \
        return &f->member;
#include "features.def"
#undef FEATURE
    return NULL;
}

/* Debug-utils callback: print and count validation warnings and errors. */
static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                            VkDebugUtilsMessageTypeFlagsEXT types,
                                                            const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                            void *user)
{
    MtlrtContext *ctx = user;
    (void)types;
    ctx->validation_messages++;
    rt_log(MTLRT_LOG_VALIDATION, "validation %s: %s", severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning",
            data->pMessage);
    return VK_FALSE;
}

static VkDebugUtilsMessengerCreateInfoEXT messenger_info(MtlrtContext *ctx)
{
    return (VkDebugUtilsMessengerCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_validation_message,
        .pUserData = ctx,
    };
}

/* True when the instance layer NAME is installed. */
static bool have_instance_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS)
        return false;
    VkLayerProperties *layers = calloc(n ? n : 1, sizeof *layers);
    bool found = false;
    if (layers && vkEnumerateInstanceLayerProperties(&n, layers) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(layers[i].layerName, name) == 0;
    free(layers);
    return found;
}

/* True when extension NAME is in the list of N properties. */
static bool have_extension(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(exts[i].extensionName, name) == 0)
            return true;
    return false;
}

/* True when the instance extension NAME is available. */
static bool have_instance_extension(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(NULL, &n, NULL) != VK_SUCCESS)
        return false;
    VkExtensionProperties *exts = calloc(n ? n : 1, sizeof *exts);
    bool found = exts && vkEnumerateInstanceExtensionProperties(NULL, &n, exts) == VK_SUCCESS &&
                 have_extension(exts, n, name);
    free(exts);
    return found;
}

/* Instance for Vulkan 1.1 or later; with VALIDATE the Khronos layer and a messenger counting into CTX. */
static bool create_instance(MtlrtContext *ctx, bool validate)
{
    const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char *exts[2];
    uint32_t n_exts = 0;
    VkInstanceCreateFlags flags = 0;
    uint32_t version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion(&version) != VK_SUCCESS || version < VK_API_VERSION_1_1) {
        rt_fail(MTLRT_ERROR_UNSUPPORTED, "the Vulkan loader supports only Vulkan 1.0; 1.1 or later is needed");
        return false;
    }
    if (validate && !have_instance_layer(layers[0])) {
        rt_fail(MTLRT_ERROR_UNSUPPORTED, "--validate: VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)");
        return false;
    }
    if (validate)
        exts[n_exts++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    if (have_instance_extension("VK_KHR_portability_enumeration")) {
        exts[n_exts++] = "VK_KHR_portability_enumeration";
        flags |= 0x00000001; /* VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR */
    }
    VkDebugUtilsMessengerCreateInfoEXT mi = messenger_info(ctx);
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "mtlrt",
        .apiVersion = version < VK_API_VERSION_1_3 ? version : VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = validate ? &mi : NULL,
        .flags = flags,
        .pApplicationInfo = &app,
        .enabledLayerCount = validate ? 1 : 0,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = n_exts,
        .ppEnabledExtensionNames = exts,
    };
    ctx->api_version = app.apiVersion;
    return rt_vk_ok(vkCreateInstance(&info, NULL, &ctx->instance), "vkCreateInstance");
}

/* The debug messenger that counts validation messages for the context's lifetime. */
static bool create_messenger(MtlrtContext *ctx)
{
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(ctx->instance, "vkCreateDebugUtilsMessengerEXT");
    if (!create) {
        rt_error("vkGetInstanceProcAddr(vkCreateDebugUtilsMessengerEXT) returned NULL");
        return false;
    }
    VkDebugUtilsMessengerCreateInfoEXT info = messenger_info(ctx);
    return rt_vk_ok(create(ctx->instance, &info, NULL, &ctx->messenger), "vkCreateDebugUtilsMessengerEXT");
}

/* All physical devices of INSTANCE (malloc'd list, *N long), NULL on error or when there are none. */
static VkPhysicalDevice *physical_devices(VkInstance instance, uint32_t *n)
{
    *n = 0;
    if (!rt_vk_ok(vkEnumeratePhysicalDevices(instance, n, NULL), "vkEnumeratePhysicalDevices"))
        return NULL;
    if (*n == 0) {
        rt_fail(MTLRT_ERROR_UNSUPPORTED, "no Vulkan device found (Debian: install mesa-vulkan-drivers for lavapipe)");
        return NULL;
    }
    VkPhysicalDevice *devs = calloc(*n, sizeof *devs);
    if (!devs) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    VkResult res = vkEnumeratePhysicalDevices(instance, n, devs);
    if (res == VK_INCOMPLETE)
        res = VK_SUCCESS;
    if (!rt_vk_ok(res, "vkEnumeratePhysicalDevices")) {
        free(devs);
        return NULL;
    }
    return devs;
}

static const char *device_type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "CPU";
    default:
        return "other";
    }
}

/* Preference of a device type when none is asked for: lower is better. */
static int device_type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 3;
    default:
        return 4;
    }
}

static void print_cooperative_matrices(FILE *out, VkInstance instance, VkPhysicalDevice dev, uint32_t index);

/* "INDEX: NAME (TYPE, Vulkan X.Y)" per device; with INSTANCE, its cooperative matrices' shapes under it. */
static void print_devices(FILE *out, VkPhysicalDevice *devs, uint32_t n, VkInstance instance)
{
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devs[i], &p);
        fprintf(out, "%u: %s (%s, Vulkan %u.%u)\n", i, p.deviceName, device_type_name(p.deviceType),
                VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion));
        if (instance)
            print_cooperative_matrices(out, instance, devs[i], i);
    }
}

/* The list print_devices writes, as a malloc'd string ("" when out of memory). */
static char *device_list(VkPhysicalDevice *devs, uint32_t n)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (f) {
        print_devices(f, devs, n, VK_NULL_HANDLE);
        fclose(f);
    }
    return text ? text : strdup("");
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* Index of the device REQUEST names (index, or case-insensitive substring of the name); -1 with a message. */
static int find_requested_device(VkPhysicalDevice *devs, uint32_t n, const char *request, const char *from)
{
    if (all_digits(request)) {
        unsigned long i = strtoul(request, NULL, 10);
        if (i < n)
            return (int)i;
    } else {
        for (uint32_t i = 0; i < n; i++) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(devs[i], &p);
            if (strcasestr(p.deviceName, request))
                return (int)i;
        }
    }
    char *list = device_list(devs, n);
    rt_error("%s '%s' matches no Vulkan device; the devices are:\n%s", from, request, list ? list : "");
    free(list);
    return -1;
}

/* Best device by type: discrete, integrated, virtual, CPU. */
static int best_device(VkPhysicalDevice *devs, uint32_t n)
{
    int best = 0, best_rank = 99;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devs[i], &p);
        int rank = device_type_rank(p.deviceType) + (p.apiVersion < VK_API_VERSION_1_1 ? 10 : 0);
        if (rank < best_rank) {
            best = (int)i;
            best_rank = rank;
        }
    }
    return best;
}

/* Choose the physical device: REQUEST, else env MTL2GLSL_DEVICE, else the best by type. */
static bool choose_device(MtlrtContext *ctx, const char *request, bool quiet)
{
    uint32_t n;
    VkPhysicalDevice *devs = physical_devices(ctx->instance, &n);
    if (!devs)
        return false;
    const char *from = "--device";
    if (!request || !*request) {
        request = getenv("MTL2GLSL_DEVICE");
        from = "MTL2GLSL_DEVICE";
    }
    int i = request && *request ? find_requested_device(devs, n, request, from) : best_device(devs, n);
    if (i >= 0) {
        ctx->physical = devs[i];
        vkGetPhysicalDeviceProperties(ctx->physical, &ctx->props);
        vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->mem_props);
        if (!quiet)
            rt_note("device %d: %s (%s)", i, ctx->props.deviceName, device_type_name(ctx->props.deviceType));
    }
    free(devs);
    if (i >= 0 && ctx->props.apiVersion < VK_API_VERSION_1_1) {
        rt_fail(MTLRT_ERROR_UNSUPPORTED, "device %s supports only Vulkan 1.0; 1.1 or later is needed", ctx->props.deviceName);
        return false;
    }
    return i >= 0;
}

/* Optional feature structs: where each lives in DeviceFeatures, its sType, and how the device provides it
   (core since CORE, else through extension EXT). */
typedef struct FeatureStruct {
    size_t offset, size;
    VkStructureType stype;
    uint32_t core;
    const char *ext;
} FeatureStruct;

#define FS(member, stype, core, ext) {offsetof(DeviceFeatures, member), sizeof(((DeviceFeatures *)0)->member), stype, core, ext}
static const FeatureStruct feature_structs[] = {
    FS(s16, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, VK_API_VERSION_1_1, "VK_KHR_16bit_storage"),
    FS(s8, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, VK_API_VERSION_1_2, "VK_KHR_8bit_storage"),
    FS(f16i8, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, VK_API_VERSION_1_2,
       "VK_KHR_shader_float16_int8"),
    FS(bda, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, VK_API_VERSION_1_2,
       "VK_KHR_buffer_device_address"),
    FS(subext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES, VK_API_VERSION_1_2,
       "VK_KHR_shader_subgroup_extended_types"),
    FS(atomic64, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES, VK_API_VERSION_1_2,
       "VK_KHR_shader_atomic_int64"),
    FS(atomicf, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT, 0, "VK_EXT_shader_atomic_float"),
    FS(ssc, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES, VK_API_VERSION_1_3,
       "VK_EXT_subgroup_size_control"),
    FS(vmm, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES, VK_API_VERSION_1_2,
       "VK_KHR_vulkan_memory_model"),
    FS(sbl, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES, VK_API_VERSION_1_2,
       "VK_EXT_scalar_block_layout"),
    FS(coopnv, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV, 0, "VK_NV_cooperative_matrix"),
};
#undef FS
#define N_FEATURE_STRUCTS (sizeof feature_structs / sizeof feature_structs[0])

/* Chain into F->core every feature struct the device provides; EXTS gets the extensions that needs. */
static void chain_feature_structs(MtlrtContext *ctx, DeviceFeatures *f, const VkExtensionProperties *dev_exts,
                                  uint32_t n_dev_exts, const char **exts, uint32_t *n_exts)
{
    uint32_t api = ctx->props.apiVersion < ctx->api_version ? ctx->props.apiVersion : ctx->api_version;
    memset(f, 0, sizeof *f);
    f->core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    VkBaseOutStructure *tail = (VkBaseOutStructure *)&f->core;
    for (size_t i = 0; i < N_FEATURE_STRUCTS; i++) {
        const FeatureStruct *fs = &feature_structs[i];
        bool core = fs->core && api >= fs->core;
        bool ext = have_extension(dev_exts, n_dev_exts, fs->ext);
        if (!core && !ext)
            continue;
        if (!core)
            exts[(*n_exts)++] = fs->ext;
        VkBaseOutStructure *s = (VkBaseOutStructure *)((char *)f + fs->offset);
        s->sType = fs->stype;
        tail->pNext = s;
        tail = s;
    }
}

/* ENABLED (chained like SUPPORTED) gets exactly the supported features that features.def lists. */
static void enable_listed_features(DeviceFeatures *enabled, DeviceFeatures *supported)
{
#define FEATURE(n, member) enabled->member = supported->member;
#include "features.def"
#undef FEATURE
}

/* The device extensions of the chosen physical device (malloc'd). */
static VkExtensionProperties *device_extensions(MtlrtContext *ctx, uint32_t *n)
{
    *n = 0;
    if (!rt_vk_ok(vkEnumerateDeviceExtensionProperties(ctx->physical, NULL, n, NULL),
                  "vkEnumerateDeviceExtensionProperties"))
        return NULL;
    VkExtensionProperties *exts = calloc(*n ? *n : 1, sizeof *exts);
    if (!exts) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    if (!rt_vk_ok(vkEnumerateDeviceExtensionProperties(ctx->physical, NULL, n, exts),
                  "vkEnumerateDeviceExtensionProperties")) {
        free(exts);
        return NULL;
    }
    return exts;
}

/* A queue family with compute: a compute-only one if there is one (no graphics work shares it). */
static bool find_queue_family(MtlrtContext *ctx)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, NULL);
    VkQueueFamilyProperties *fams = calloc(n ? n : 1, sizeof *fams);
    if (!fams) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, fams);
    int found = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (!(fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
            continue;
        if (found < 0 || !(fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
            found = (int)i;
    }
    if (found >= 0) {
        ctx->queue_family = (uint32_t)found;
        ctx->timestamp_valid_bits = fams[found].timestampValidBits;
    } else {
        rt_error("device %s has no queue family with compute", ctx->props.deviceName);
    }
    free(fams);
    return found >= 0;
}

static bool create_command_pool(MtlrtContext *ctx);

/* Logical device, compute queue and command pool, with every supported feature of features.def enabled. */
static bool create_device(MtlrtContext *ctx)
{
    uint32_t n_dev_exts;
    VkExtensionProperties *dev_exts = device_extensions(ctx, &n_dev_exts);
    if (!dev_exts)
        return false;
    const char *exts[N_FEATURE_STRUCTS + 1];
    uint32_t n_exts = 0, n_unused = 0;
    const char *unused[N_FEATURE_STRUCTS];
    DeviceFeatures supported;
    chain_feature_structs(ctx, &supported, dev_exts, n_dev_exts, exts, &n_exts);
    chain_feature_structs(ctx, &ctx->features, dev_exts, n_dev_exts, unused, &n_unused);
    if (have_extension(dev_exts, n_dev_exts, "VK_KHR_portability_subset"))
        exts[n_exts++] = "VK_KHR_portability_subset";
    free(dev_exts);
    vkGetPhysicalDeviceFeatures2(ctx->physical, &supported.core);
    enable_listed_features(&ctx->features, &supported);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = ctx->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &ctx->features.core,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue_info,
        .enabledExtensionCount = n_exts,
        .ppEnabledExtensionNames = exts,
    };
    if (!rt_vk_ok(vkCreateDevice(ctx->physical, &info, NULL, &ctx->device), "vkCreateDevice"))
        return false;
    vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    return create_command_pool(ctx);
}

/* The runtime's command pool on the queue family. */
static bool create_command_pool(MtlrtContext *ctx)
{
    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = ctx->queue_family,
    };
    return rt_vk_ok(vkCreateCommandPool(ctx->device, &pool_info, NULL, &ctx->command_pool),
                    "vkCreateCommandPool");
}

/* Subgroup size, the sizes a compute pipeline may require, and the operations compute shaders have. */
static void query_subgroups(MtlrtContext *ctx)
{
    VkPhysicalDeviceSubgroupSizeControlProperties ssc = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &sg};
    bool have_ssc = ctx->features.ssc.subgroupSizeControl;
    if (have_ssc)
        sg.pNext = &ssc;
    vkGetPhysicalDeviceProperties2(ctx->physical, &props);
    MtlrtSubgroupInfo *info = &ctx->subgroup;
    info->size = info->min_size = info->max_size = sg.subgroupSize;
    info->operations = (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ? sg.supportedOperations : 0;
    if (have_ssc && (ssc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) && ssc.minSubgroupSize) {
        info->size_control = true;
        info->min_size = ssc.minSubgroupSize;
        info->max_size = ssc.maxSubgroupSize;
    }
    info->full_subgroups = ctx->features.ssc.computeFullSubgroups;
}

const MtlrtSubgroupInfo *mtlrt_context_subgroup_info(const MtlrtContext *ctx)
{
    return &ctx->subgroup;
}

bool mtlrt_context_push_constant_words(const MtlrtContext *ctx)
{
    return !ctx->features.s8.storagePushConstant8 || !ctx->features.s16.storagePushConstant16;
}

uint32_t mtlrt_context_simd_subgroup_size(const MtlrtContext *ctx)
{
    const MtlrtSubgroupInfo *s = &ctx->subgroup;
    if (s->size == 32 || (s->size_control && s->min_size <= 32 && 32 <= s->max_size))
        return 32;
    return s->size;
}

/* The environment variables the runtime reads, read once (docs/runtime.md). */
static void read_environment(MtlrtContext *ctx)
{
    ctx->force_staging = getenv("MTLRT_STAGING") && !strcmp(getenv("MTLRT_STAGING"), "1");
    const char *env = getenv("MTLRT_CPU_MAX_THREADS");
    ctx->cpu_max_threads = env && *env ? strtoull(env, NULL, 10) : MTLRT_CPU_MAX_THREADS;
}

/* Instance, chosen device, logical device with a compute queue. NULL on error. */
MtlrtContext *mtlrt_context_create(const MtlrtContextOptions *opt)
{
    MtlrtContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    if (!create_instance(ctx, opt->validate))
        goto error;
    if (opt->validate && !create_messenger(ctx))
        goto error;
    if (!choose_device(ctx, opt->device, opt->quiet) || !find_queue_family(ctx) || !create_device(ctx))
        goto error;
    query_subgroups(ctx);
    read_environment(ctx);
    return ctx;
error:
    mtlrt_context_destroy(ctx);
    return NULL;
}

/* The enabled features of an adopted device, from the structs of CHAIN the runtime knows: its own (features.def)
   and Vulkan 1.1 / 1.2 / 1.3's aggregates. */
static void adopt_features(MtlrtContext *ctx, const void *chain, const VkPhysicalDeviceFeatures *core)
{
    DeviceFeatures *f = &ctx->features;
    if (core)
        f->core.features = *core;
    for (const VkBaseInStructure *s = chain; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
            f->core.features = ((const VkPhysicalDeviceFeatures2 *)s)->features;
        for (size_t i = 0; i < N_FEATURE_STRUCTS; i++)
            if (s->sType == feature_structs[i].stype) { /* same struct: copy what follows sType and pNext */
                size_t body = sizeof(VkBaseOutStructure);
                memcpy((char *)f + feature_structs[i].offset + body, (const char *)s + body,
                       feature_structs[i].size - body);
            }
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES) {
            const VkPhysicalDeviceVulkan11Features *v = (const void *)s;
            f->s16.storageBuffer16BitAccess = v->storageBuffer16BitAccess;
            f->s16.uniformAndStorageBuffer16BitAccess = v->uniformAndStorageBuffer16BitAccess;
            f->s16.storagePushConstant16 = v->storagePushConstant16;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) {
            const VkPhysicalDeviceVulkan12Features *v = (const void *)s;
            f->s8.storageBuffer8BitAccess = v->storageBuffer8BitAccess;
            f->s8.uniformAndStorageBuffer8BitAccess = v->uniformAndStorageBuffer8BitAccess;
            f->s8.storagePushConstant8 = v->storagePushConstant8;
            f->f16i8.shaderFloat16 = v->shaderFloat16;
            f->f16i8.shaderInt8 = v->shaderInt8;
            f->bda.bufferDeviceAddress = v->bufferDeviceAddress;
            f->subext.shaderSubgroupExtendedTypes = v->shaderSubgroupExtendedTypes;
            f->atomic64.shaderBufferInt64Atomics = v->shaderBufferInt64Atomics;
            f->atomic64.shaderSharedInt64Atomics = v->shaderSharedInt64Atomics;
            f->vmm.vulkanMemoryModel = v->vulkanMemoryModel;
            f->vmm.vulkanMemoryModelDeviceScope = v->vulkanMemoryModelDeviceScope;
            f->sbl.scalarBlockLayout = v->scalarBlockLayout;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES) {
            const VkPhysicalDeviceVulkan13Features *v = (const void *)s;
            f->ssc.subgroupSizeControl = v->subgroupSizeControl;
            f->ssc.computeFullSubgroups = v->computeFullSubgroups;
        }
    }
}

/* A context on the application's instance, device and queue. */
MtlrtContext *mtlrt_context_create_vulkan(const MtlrtVulkanDevice *v)
{
    if (!v || !v->instance || !v->physical_device || !v->device || !v->queue) {
        rt_error("mtlrt_context_create_vulkan: instance, physical_device, device and queue are required");
        return NULL;
    }
    MtlrtContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    ctx->adopted = true;
    ctx->instance = v->instance;
    ctx->physical = v->physical_device;
    ctx->device = v->device;
    ctx->queue = v->queue;
    ctx->queue_family = v->queue_family;
    ctx->api_version = v->api_version ? v->api_version : VK_API_VERSION_1_1;
    vkGetPhysicalDeviceProperties(ctx->physical, &ctx->props);
    vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->mem_props);
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, NULL);
    VkQueueFamilyProperties *fams = calloc(n ? n : 1, sizeof *fams);
    if (fams)
        vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, fams);
    bool compute = fams && v->queue_family < n && (fams[v->queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT);
    if (compute)
        ctx->timestamp_valid_bits = fams[v->queue_family].timestampValidBits;
    free(fams);
    if (!compute) {
        rt_error("mtlrt_context_create_vulkan: queue family %u of device %s has no compute", v->queue_family,
                 ctx->props.deviceName);
        goto error;
    }
    if (ctx->props.apiVersion < VK_API_VERSION_1_1) {
        rt_fail(MTLRT_ERROR_UNSUPPORTED, "device %s supports only Vulkan 1.0; 1.1 or later is needed",
                ctx->props.deviceName);
        goto error;
    }
    uint32_t unused_n = 0, n_exts = 0;
    const char *unused[N_FEATURE_STRUCTS + 1];
    VkExtensionProperties *exts = device_extensions(ctx, &n_exts);
    if (!exts)
        goto error;
    chain_feature_structs(ctx, &ctx->features, exts, n_exts, unused, &unused_n); /* sTypes and pNext links */
    free(exts);
    adopt_features(ctx, v->enabled_features_chain, v->enabled_features);
    if (!create_command_pool(ctx))
        goto error;
    query_subgroups(ctx);
    read_environment(ctx);
    return ctx;
error:
    mtlrt_context_destroy(ctx);
    return NULL;
}

void mtlrt_context_vulkan(const MtlrtContext *ctx, MtlrtVulkanDevice *out)
{
    *out = (MtlrtVulkanDevice){
        .instance = ctx->instance,
        .physical_device = ctx->physical,
        .device = ctx->device,
        .queue_family = ctx->queue_family,
        .queue = ctx->queue,
        .api_version = ctx->api_version,
        .enabled_features_chain = &ctx->features.core,
    };
}

/* The list mtlrt_dispatch records into: the context's own when it is free, else a new one. */
MtlrtCommands *rt_context_commands(MtlrtContext *ctx, uint32_t max_timed)
{
    MtlrtCommands *c = NULL;
    if (!ctx->scratch_busy && (ctx->scratch || (ctx->scratch = mtlrt_commands_create(ctx)))) {
        c = ctx->scratch;
        ctx->scratch_busy = true;
    } else if (ctx->scratch_busy) {
        c = mtlrt_commands_create(ctx);
    }
    if (c && !mtlrt_commands_reset(c)) {
        rt_context_commands_done(ctx, c);
        return NULL;
    }
    if (c)
        c->max_timed = max_timed;
    return c;
}

void rt_context_commands_done(MtlrtContext *ctx, MtlrtCommands *c)
{
    if (c && c == ctx->scratch)
        ctx->scratch_busy = false;
    else
        mtlrt_commands_destroy(c);
}

/* Destroy what was created, in reverse order; accepts a partly created context or NULL. What an adopted
   context took from the application (instance, device, queue) stays. */
void mtlrt_context_destroy(MtlrtContext *ctx)
{
    if (!ctx)
        return;
    if (ctx->device) {
        vkDeviceWaitIdle(ctx->device);
        mtlrt_commands_destroy(ctx->scratch);
        rt_transfer_destroy(ctx);
        if (ctx->command_pool)
            vkDestroyCommandPool(ctx->device, ctx->command_pool, NULL);
        if (!ctx->adopted)
            vkDestroyDevice(ctx->device, NULL);
    }
    if (ctx->adopted) {
        free(ctx->layouts);
        free(ctx);
        return;
    }
    if (ctx->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            ctx->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy)
            destroy(ctx->instance, ctx->messenger, NULL);
    }
    if (ctx->instance)
        vkDestroyInstance(ctx->instance, NULL);
    free(ctx->layouts);
    free(ctx);
}

const char *mtlrt_context_device_name(const MtlrtContext *ctx)
{
    return ctx->props.deviceName;
}

uint32_t mtlrt_context_validation_messages(const MtlrtContext *ctx)
{
    return ctx->validation_messages;
}

static const char *component_type_name(VkComponentTypeNV t)
{
    static const char *names[] = {"f16", "f32", "f64", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* DEV's cooperative-matrix shapes (VK_NV_cooperative_matrix; malloc'd, *N of them), or NULL when it has none. */
static VkCooperativeMatrixPropertiesNV *cooperative_matrices(VkInstance instance, VkPhysicalDevice dev, uint32_t *n)
{
    uint32_t n_exts = 0;
    *n = 0;
    vkEnumerateDeviceExtensionProperties(dev, NULL, &n_exts, NULL);
    VkExtensionProperties *exts = calloc(n_exts ? n_exts : 1, sizeof *exts);
    bool have = exts && vkEnumerateDeviceExtensionProperties(dev, NULL, &n_exts, exts) == VK_SUCCESS &&
                have_extension(exts, n_exts, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
    free(exts);
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV get =
        have ? (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)vkGetInstanceProcAddr(
                   instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV")
             : NULL;
    if (!get || get(dev, n, NULL) != VK_SUCCESS || *n == 0)
        return NULL;
    VkCooperativeMatrixPropertiesNV *p = calloc(*n, sizeof *p);
    for (uint32_t i = 0; p && i < *n; i++)
        p[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV;
    if (p && get(dev, n, p) != VK_SUCCESS) {
        free(p);
        return NULL;
    }
    return p;
}

/* Whether the device has the shape mtl2glsl --tensor-cores multiplies in: 16x8x8, f16 * f16 + f32 -> f32, subgroup
   scope (mma.sync m16n8k8's); WHY gets the reason when not. */
bool rt_have_mma_shape(MtlrtContext *ctx, char *why, size_t size)
{
    uint32_t n = 0;
    VkCooperativeMatrixPropertiesNV *p = cooperative_matrices(ctx->instance, ctx->physical, &n);
    bool found = false;
    for (uint32_t i = 0; p && i < n && !found; i++)
        found = p[i].MSize == 16 && p[i].NSize == 8 && p[i].KSize == 8 && p[i].AType == VK_COMPONENT_TYPE_FLOAT16_NV &&
                p[i].BType == VK_COMPONENT_TYPE_FLOAT16_NV && p[i].CType == VK_COMPONENT_TYPE_FLOAT32_NV &&
                p[i].DType == VK_COMPONENT_TYPE_FLOAT32_NV && p[i].scope == VK_SCOPE_SUBGROUP_NV;
    free(p);
    if (!found)
        snprintf(why, size, "device %s has no 16x8x8 f16*f16+f32->f32 subgroup cooperative matrix",
                 ctx->props.deviceName);
    return found;
}

/* Under device DEV's line (device INDEX): the shapes of its cooperative matrices (VK_NV_cooperative_matrix), if it
   has them, "M x N x K: A * B + C -> D", and whether mtl2glsl --tensor-cores kernels run there (a context on it
   asked, which runs the probe). */
static void print_cooperative_matrices(FILE *out, VkInstance instance, VkPhysicalDevice dev, uint32_t index)
{
    uint32_t n = 0;
    VkCooperativeMatrixPropertiesNV *p = cooperative_matrices(instance, dev, &n);
    if (!p)
        return;
    fprintf(out, "   cooperative matrices (VK_NV_cooperative_matrix, M x N x K: A * B + C -> D):");
    for (uint32_t i = 0; i < n; i++)
        fprintf(out, "%s %ux%ux%u: %s * %s + %s -> %s", i ? "," : "", p[i].MSize, p[i].NSize, p[i].KSize,
                component_type_name(p[i].AType), component_type_name(p[i].BType), component_type_name(p[i].CType),
                component_type_name(p[i].DType));
    fputc('\n', out);
    free(p);
    char device[16];
    snprintf(device, sizeof device, "%u", index);
    MtlrtStatus status = mtlrt_last_status();
    char error[4096];
    snprintf(error, sizeof error, "%s", mtlrt_last_error());
    rt_quiet_errors(true);
    MtlrtContext *ctx = mtlrt_context_create(&(MtlrtContextOptions){.device = device, .quiet = true});
    const char *why = mtlrt_last_error();
    bool yes = ctx && mtlrt_context_tensor_cores(ctx, &why);
    rt_quiet_errors(false);
    if (yes)
        fprintf(out, "   tensor cores for SIMD-group matrices: yes (16x8x8 f16*f16+f32->f32, element order checked)\n");
    else
        fprintf(out, "   tensor cores for SIMD-group matrices: no: %s\n", why);
    mtlrt_context_destroy(ctx);
    rt_restore_error(status, error);
}

/* Print every physical device as "INDEX: NAME (TYPE, Vulkan X.Y)", and its cooperative matrices' shapes if any. */
bool mtlrt_list_devices(FILE *out)
{
    MtlrtContext ctx = {0};
    if (!create_instance(&ctx, false))
        return false;
    uint32_t n;
    VkPhysicalDevice *devs = physical_devices(ctx.instance, &n);
    bool ok = devs != NULL;
    if (ok)
        print_devices(out, devs, n, ctx.instance);
    free(devs);
    vkDestroyInstance(ctx.instance, NULL);
    return ok;
}
