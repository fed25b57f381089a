/* api_test.c (runtime.api): the runtime's C API as a program embedding it uses it, on hand-written GLSL kernels (no
   translator), under the validation layer. Every check prints PASS or FAIL; exit 0 when all pass and nothing was
   printed on stderr (the library prints nothing by itself). With env MTLRT_STAGING=1 (ctest runs it both ways)
   every transfer goes through the staging buffers, which lavapipe's all-host-visible memory would skip.
   Checks: statuses and messages (per thread), the log callback, command lists (barriers exactly where commands
   depend on each other, copies, fills, resubmission, reset, errors), transfers at offsets and across staging
   chunks, deferred clears, mapping, function constants, exact conversions, and a second context adopting the
   first one's Vulkan device. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mtlrt.h"
#include "mtlrt_vulkan.h"

static int failures;

static void check(bool ok, const char *what)
{
    printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    if (!ok) {
        failures++;
        if (mtlrt_last_status() != MTLRT_OK)
            printf("  last error: %s: %s\n", mtlrt_status_name(mtlrt_last_status()), mtlrt_last_error());
    }
}

/* ---- the log ---- */

static int log_errors, log_warnings;
static char last_warning[1024];

static void on_log(MtlrtLogLevel level, const char *message, void *user)
{
    (void)user;
    if (level == MTLRT_LOG_ERROR)
        log_errors++;
    if (level == MTLRT_LOG_WARNING) {
        log_warnings++;
        snprintf(last_warning, sizeof last_warning, "%s", message);
    }
    if (level == MTLRT_LOG_VALIDATION) {
        printf("validation: %s\n", message);
        failures++;
    }
}

/* ---- kernels ---- */

/* add: y[i] = x[i] + k (x read, y written), dispatchThreads with an early return past the grid. */
static const char add_glsl[] =
    "#version 450\n"
    "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n"
    "layout(std430, set = 0, binding = 0) readonly buffer bx { float x[]; };\n"
    "layout(std430, set = 0, binding = 1) writeonly buffer by { float y[]; };\n"
    "layout(constant_id = 100) const float k = 0.0;\n"
    "layout(push_constant, std430) uniform P { uvec3 grid; uint pad; } p;\n"
    "void main()\n{\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    if (i >= p.grid.x) return;\n"
    "    y[i] = x[i] + k;\n"
    "}\n";
static const char add_json[] =
    "{\"entry\": \"add\", \"push_constant_size\": 16, \"buffers\": ["
    "{\"index\": 0, \"name\": \"x\", \"kind\": \"storage\", \"binding\": 0, \"type\": \"float\", \"scalar\": \"float\","
    " \"element_size\": 4, \"pointer\": true, \"access\": \"read\"},"
    "{\"index\": 1, \"name\": \"y\", \"kind\": \"storage\", \"binding\": 1, \"type\": \"float\", \"scalar\": \"float\","
    " \"element_size\": 4, \"pointer\": true, \"access\": \"write\"}],"
    " \"function_constants\": [{\"index\": 0, \"name\": \"k\", \"type\": \"float\", \"constant_id\": 100,"
    " \"defined_constant_id\": 101}]}";

typedef struct Kernel {
    MtlrtReflection *refl;
    MtlrtPipeline *pipe;
} Kernel;

/* The add kernel with k = K. */
static Kernel make_add(MtlrtContext *ctx, float k)
{
    Kernel kern = {mtlrt_reflection_parse(add_json, NULL, "add.json"), NULL};
    kern.pipe = kern.refl ? mtlrt_pipeline_create(ctx, add_glsl, "add.comp", kern.refl) : NULL;
    MtlrtArray v;
    if (kern.pipe && mtlrt_array_alloc(&v, MTLRT_DTYPE_F32, 0, NULL)) {
        *(float *)v.data = k;
        if (!mtlrt_pipeline_set_function_constant(kern.pipe, 0, &v))
            check(false, "setting the add kernel's constant");
        mtlrt_array_free(&v);
    }
    return kern;
}

static void kernel_free(Kernel *k)
{
    mtlrt_pipeline_destroy(k->pipe);
    mtlrt_reflection_destroy(k->refl);
}

/* A dispatch of N threads of the add kernel from X to Y. */
static MtlrtDispatch add_dispatch(MtlrtBuffer **bind, uint32_t n)
{
    return (MtlrtDispatch){.style = MTLRT_DISPATCH_THREADS, .size = {n, 1, 1}, .threadgroup = {64, 1, 1},
                           .bindings = bind, .n_bindings = 2};
}

static MtlrtBuffer *filled(MtlrtContext *ctx, uint32_t n, float start)
{
    MtlrtBuffer *b = mtlrt_buffer_create(ctx, n * sizeof(float));
    float *v = malloc(n * sizeof *v);
    for (uint32_t i = 0; i < n; i++)
        v[i] = start + (float)i;
    if (!b || !mtlrt_buffer_write(b, v, n * sizeof *v))
        check(false, "making a buffer");
    free(v);
    return b;
}

/* Every element of B is start + i + add. */
static bool holds(MtlrtBuffer *b, uint32_t n, float start)
{
    float *v = malloc(n * sizeof *v);
    bool ok = mtlrt_buffer_read(b, v, n * sizeof *v);
    for (uint32_t i = 0; ok && i < n; i++)
        ok = v[i] == start + (float)i;
    free(v);
    return ok;
}

/* ---- groups of checks ---- */

static void errors_and_log(void)
{
    MtlrtArray a;
    mtlrt_clear_error();
    int before = log_errors;
    check(!mtlrt_npy_read("/nonexistent/x.npy", &a) && mtlrt_last_status() == MTLRT_ERROR_IO &&
              strstr(mtlrt_last_error(), "cannot open /nonexistent/x.npy") && log_errors == before + 1,
          "a missing .npy file: MTLRT_ERROR_IO, its message, one log call");
    check(!mtlrt_array_from_spec("float33:4", &a) && mtlrt_last_status() == MTLRT_ERROR_INVALID_ARGUMENT &&
              strstr(mtlrt_last_error(), "unknown dtype 'float33'"),
          "an unknown dtype: MTLRT_ERROR_INVALID_ARGUMENT");
    check(!strcmp(mtlrt_status_name(MTLRT_ERROR_UNSUPPORTED), "MTLRT_ERROR_UNSUPPORTED"), "status names");
    mtlrt_clear_error();
    check(mtlrt_last_status() == MTLRT_OK && !*mtlrt_last_error(), "mtlrt_clear_error");
}

static void conversions(void)
{
    MtlrtArray in, out;
    bool ok = mtlrt_array_from_scalar("int:1000", &in) && mtlrt_array_convert_exact(&in, MTLRT_DTYPE_U32, &out) &&
              *(uint32_t *)out.data == 1000;
    mtlrt_array_free(&out);
    mtlrt_array_free(&in);
    check(ok, "int 1000 converts to uint32");
    ok = mtlrt_array_from_scalar("float:0.1", &in) && !mtlrt_array_convert_exact(&in, MTLRT_DTYPE_F16, &out) &&
         strstr(mtlrt_last_error(), "is not exactly representable as float16");
    mtlrt_array_free(&in);
    check(ok, "float 0.1 does not convert to half");
    ok = mtlrt_array_from_scalar("bfloat16:1.5", &in) && mtlrt_array_convert_exact(&in, MTLRT_DTYPE_F16, &out) &&
         *(uint16_t *)out.data == 0x3e00;
    mtlrt_array_free(&out);
    mtlrt_array_free(&in);
    check(ok, "bfloat16 1.5 converts to half 0x3e00");
    ok = mtlrt_array_from_scalar("uint:1", &in) && !mtlrt_array_convert_exact(&in, MTLRT_DTYPE_BOOL, &out) &&
         strstr(mtlrt_last_error(), "bool and numbers do not convert");
    mtlrt_array_free(&in);
    check(ok, "a number does not convert to bool");
}

/* A list binds only what changes between dispatches (pipeline, descriptor set, push constants): two kernels taking
   turns, grids of two sizes (the dispatch block in the push constants), a set used again after another. */
static void state_changes(MtlrtContext *ctx)
{
    enum { N = 1000, H = 600 };
    Kernel add1 = make_add(ctx, 1.0f), add10 = make_add(ctx, 10.0f);
    MtlrtBuffer *a = filled(ctx, N, 0), *b = mtlrt_buffer_create(ctx, N * 4), *c = mtlrt_buffer_create(ctx, N * 4);
    MtlrtBuffer *w = mtlrt_buffer_create(ctx, N * 4), *z = mtlrt_buffer_create(ctx, N * 4);
    MtlrtCommands *cmds = mtlrt_commands_create(ctx);
    MtlrtBuffer *ab[] = {a, b}, *bc[] = {b, c}, *cw[] = {c, w}, *az[] = {a, z};
    MtlrtDispatch d1 = add_dispatch(ab, N), d2 = add_dispatch(bc, H), d3 = add_dispatch(cw, H), d4 = add_dispatch(az, N),
                  d5 = add_dispatch(ab, H);
    bool ok = add1.pipe && add10.pipe && cmds && mtlrt_commands_dispatch(cmds, add1.pipe, &d1) && /* b = a + 1 */
              mtlrt_commands_dispatch(cmds, add10.pipe, &d2) && /* c[:H] = b + 10 */
              mtlrt_commands_dispatch(cmds, add1.pipe, &d3) &&  /* w[:H] = c + 1 */
              mtlrt_commands_dispatch(cmds, add10.pipe, &d4) && /* z = a + 10 */
              mtlrt_commands_dispatch(cmds, add10.pipe, &d5) && /* b[:H] = a + 10: d1's set, another grid */
              mtlrt_commands_submit(cmds) && mtlrt_commands_wait(cmds, UINT64_MAX) == MTLRT_OK;
    float *v = malloc(N * 4 * 4);
    ok = ok && mtlrt_buffer_read(b, v, N * 4) && mtlrt_buffer_read(c, v + N, N * 4) &&
         mtlrt_buffer_read(w, v + 2 * N, N * 4) && mtlrt_buffer_read(z, v + 3 * N, N * 4);
    for (int i = 0; ok && i < N; i++) /* new buffers start as zeros */
        ok = v[i] == (float)i + (i < H ? 10.0f : 1.0f) && v[N + i] == (i < H ? (float)i + 11.0f : 0.0f) &&
             v[2 * N + i] == (i < H ? (float)i + 12.0f : 0.0f) && v[3 * N + i] == (float)i + 10.0f;
    check(ok, "two kernels taking turns, two grid sizes, a descriptor set used again: each dispatch's own state");
    free(v);
    mtlrt_commands_destroy(cmds);
    MtlrtBuffer *all[] = {a, b, c, w, z};
    for (int i = 0; i < 5; i++)
        mtlrt_buffer_destroy(all[i]);
    kernel_free(&add1);
    kernel_free(&add10);
}

/* Three dependent dispatches and independent work: barriers exactly where needed, results right. */
static void command_lists(MtlrtContext *ctx)
{
    enum { N = 1000 };
    Kernel add1 = make_add(ctx, 1.0f);
    MtlrtBuffer *a = filled(ctx, N, 0), *b = mtlrt_buffer_create(ctx, N * 4), *c = mtlrt_buffer_create(ctx, N * 4);
    MtlrtBuffer *p = filled(ctx, N, 100), *q = mtlrt_buffer_create(ctx, N * 4), *w = mtlrt_buffer_create(ctx, N * 4);
    MtlrtBuffer *f = mtlrt_buffer_create(ctx, 64);
    MtlrtCommands *cmds = mtlrt_commands_create(ctx);
    MtlrtBuffer *ab[] = {a, b}, *bc[] = {b, c}, *pq[] = {p, q};
    MtlrtDispatch d1 = add_dispatch(ab, N), d2 = add_dispatch(bc, N), d3 = add_dispatch(pq, N);
    if (!add1.pipe || !cmds) {
        check(false, "the add kernel's pipeline and a command list");
        return;
    }
    bool ok = add1.pipe && cmds && mtlrt_commands_dispatch(cmds, add1.pipe, &d1) && /* b = a + 1 */
              mtlrt_commands_dispatch(cmds, add1.pipe, &d3) &&                     /* q = p + 1: independent */
              mtlrt_commands_dispatch(cmds, add1.pipe, &d2) &&                     /* c = b + 1: after d1 */
              mtlrt_commands_fill(cmds, f, 0, 64, 0x3f800000u) &&                  /* independent */
              mtlrt_commands_copy(cmds, w, 0, c, 0, N * 4);                        /* after d2 */
    check(ok && mtlrt_commands_count(cmds) == 5 && mtlrt_commands_barriers(cmds) == 2,
          "recording: 5 commands, 2 barriers (before the dependent dispatch and the copy)");
    ok = ok && mtlrt_commands_submit(cmds);
    MtlrtStatus s = ok ? mtlrt_commands_wait(cmds, 0) : MTLRT_OK;
    check(ok && (s == MTLRT_OK || s == MTLRT_NOT_READY) && mtlrt_commands_wait(cmds, UINT64_MAX) == MTLRT_OK &&
              mtlrt_commands_wait(cmds, 0) == MTLRT_OK,
          "submit, poll, wait (and wait again)");
    float ones[16];
    check(holds(b, N, 1) && holds(c, N, 2) && holds(q, N, 101) && holds(w, N, 2) && mtlrt_buffer_read(f, ones, 64) &&
              ones[0] == 1.0f && ones[15] == 1.0f,
          "results of the list");
    double ms;
    check(mtlrt_commands_gpu_time(cmds, &ms) && ms >= 0, "GPU time of the list");
    /* resubmitted as recorded, on new inputs */
    float *v = malloc(N * 4);
    for (int i = 0; i < N; i++)
        v[i] = 10.0f + (float)i;
    check(mtlrt_buffer_write(a, v, N * 4) && mtlrt_commands_submit(cmds) &&
              mtlrt_commands_wait(cmds, UINT64_MAX) == MTLRT_OK && holds(w, N, 12),
          "the same list submitted again sees the new input");
    free(v);
    check(!mtlrt_commands_dispatch(cmds, add1.pipe, &d1) && mtlrt_last_status() == MTLRT_ERROR_INVALID_ARGUMENT,
          "recording into a submitted list is an error");
    check(mtlrt_commands_reset(cmds) && mtlrt_commands_count(cmds) == 0 && mtlrt_commands_dispatch(cmds, add1.pipe, &d2) &&
              mtlrt_commands_barrier(cmds) && mtlrt_commands_barriers(cmds) == 1 && mtlrt_commands_submit(cmds) &&
              mtlrt_commands_wait(cmds, UINT64_MAX) == MTLRT_OK && holds(c, N, 12),
          "reset, record anew, explicit barrier");
    MtlrtDispatch rep = d1;
    rep.repeat = 2;
    check(!mtlrt_commands_dispatch(cmds, add1.pipe, &rep) && mtlrt_last_status() == MTLRT_ERROR_INVALID_ARGUMENT,
          "repeat in a list is an error");
    check(!mtlrt_commands_copy(cmds, a, 0, a, 8, 64) && strstr(mtlrt_last_error(), "overlap"),
          "overlapping copy is an error");
    mtlrt_commands_reset(cmds);
    check(mtlrt_commands_wait(cmds, 0) == MTLRT_ERROR_INVALID_ARGUMENT, "waiting for a list never submitted");
    /* an empty grid records nothing and succeeds; a grid past the buffers warns */
    MtlrtDispatch empty = add_dispatch(ab, 0);
    int warnings = log_warnings;
    check(mtlrt_dispatch(add1.pipe, &empty, NULL) && log_warnings == warnings, "an empty grid is a no-op");
    MtlrtDispatch over = add_dispatch(ab, N);
    over.style = MTLRT_DISPATCH_THREADGROUPS;
    check(mtlrt_dispatch(add1.pipe, &over, NULL) && log_warnings == warnings + 1 &&
              strstr(last_warning, "the grid has 64000 threads, but its largest buffer"),
          "threadgroups past every buffer: a warning through the log");
    mtlrt_commands_destroy(cmds);
    MtlrtBuffer *all[] = {a, b, c, p, q, w, f};
    for (int i = 0; i < 7; i++)
        mtlrt_buffer_destroy(all[i]);
    kernel_free(&add1);
}

static void constants(MtlrtContext *ctx)
{
    MtlrtReflection *r = mtlrt_reflection_parse(add_json, NULL, "add.json");
    MtlrtPipeline *pipe = r ? mtlrt_pipeline_create(ctx, add_glsl, "add.comp", r) : NULL;
    MtlrtArray v;
    if (!pipe) {
        check(false, "the add kernel's pipeline");
        return;
    }
    bool ok = mtlrt_array_from_scalar("int:3", &v);
    check(ok && mtlrt_pipeline_set_function_constant(pipe, 0, &v), "an int for a float constant converts");
    check(ok && !mtlrt_pipeline_set_function_constant(pipe, 7, &v) &&
              strstr(mtlrt_last_error(), "kernel add has no [[function_constant(7)]]; it has 0 (float k)"),
          "an unknown function constant is an error");
    mtlrt_array_free(&v);
    check(mtlrt_array_from_scalar("bool:true", &v) && !mtlrt_pipeline_set_function_constant(pipe, 0, &v) &&
              strstr(mtlrt_last_error(), "bool and numbers do not convert"),
          "a bool for a float constant is an error");
    mtlrt_array_free(&v);
    mtlrt_pipeline_destroy(pipe);
    mtlrt_reflection_destroy(r);
}

/* Transfers at offsets, across staging chunks (40 MiB: three 16 MiB chunks), deferred clears, mapping. */
static void transfers(MtlrtContext *ctx)
{
    size_t n = 40u << 20;
    unsigned char *src = malloc(n), *dst = malloc(n);
    for (size_t i = 0; i < n; i++)
        src[i] = (unsigned char)(i * 131 + (i >> 16));
    MtlrtBuffer *big = mtlrt_buffer_create(ctx, n);
    check(big && mtlrt_buffer_write(big, src, n) && mtlrt_buffer_read(big, dst, n) && !memcmp(src, dst, n),
          "40 MiB round trip");
    unsigned char part[5] = {1, 2, 3, 4, 5}, back[9];
    check(mtlrt_buffer_write_at(big, 3, part, 5) && mtlrt_buffer_read_at(big, 1, back, 9) && back[0] == src[1] &&
              back[1] == src[2] && !memcmp(back + 2, part, 5) && back[7] == src[8] && back[8] == src[9],
          "write and read at unaligned offsets");
    check(!mtlrt_buffer_write_at(big, n - 2, part, 5) && mtlrt_last_status() == MTLRT_ERROR_INVALID_ARGUMENT,
          "a write past the end is an error");
    MtlrtBuffer *fresh = mtlrt_buffer_create(ctx, 1000);
    unsigned char zeros[1000] = {0}, got[1000];
    memset(got, 0xff, sizeof got);
    check(fresh && mtlrt_buffer_write_at(fresh, 500, part, 5) && mtlrt_buffer_read(fresh, got, 1000) &&
              !memcmp(got, zeros, 500) && !memcmp(got + 500, part, 5) && !memcmp(got + 505, zeros, 495),
          "a new buffer reads as zeros around a partial write");
    MtlrtBuffer *mapped = mtlrt_buffer_create_flags(ctx, 256, MTLRT_BUFFER_HOST_VISIBLE);
    float *m = mapped ? mtlrt_buffer_map(mapped) : NULL;
    float eight[8];
    if (m)
        for (int i = 0; i < 64; i++)
            m[i] = (float)i * 0.5f;
    check(m && mtlrt_buffer_host_visible(mapped) && mtlrt_buffer_read_at(mapped, 32, eight, 32) && eight[0] == 4.0f &&
              eight[7] == 7.5f,
          "a host-visible buffer maps, and reads see what the mapping wrote");
    check(!mtlrt_buffer_create_flags(ctx, 16, 0x80) && mtlrt_last_status() == MTLRT_ERROR_INVALID_ARGUMENT,
          "unknown buffer flags are an error");
    mtlrt_buffer_destroy(mapped);
    mtlrt_buffer_destroy(fresh);
    mtlrt_buffer_destroy(big);
    free(src);
    free(dst);
}

/* A second context adopts the first one's device and queue; destroying it leaves them working. */
static void adoption(MtlrtContext *ctx)
{
    MtlrtVulkanDevice vd;
    mtlrt_context_vulkan(ctx, &vd);
    MtlrtContext *adopted = mtlrt_context_create_vulkan(&vd);
    Kernel add2 = adopted ? make_add(adopted, 2.0f) : (Kernel){0};
    MtlrtBuffer *x = adopted ? filled(adopted, 100, 5) : NULL, *y = adopted ? mtlrt_buffer_create(adopted, 400) : NULL;
    MtlrtBuffer *bind[] = {x, y};
    MtlrtDispatch d = add_dispatch(bind, 100);
    check(add2.pipe && y && mtlrt_dispatch(add2.pipe, &d, NULL) && holds(y, 100, 7) &&
              mtlrt_buffer_vk_buffer(y) != VK_NULL_HANDLE && mtlrt_buffer_vk_size(y) == 400,
          "an adopted context runs kernels on the application's device");
    mtlrt_buffer_destroy(x);
    mtlrt_buffer_destroy(y);
    kernel_free(&add2);
    mtlrt_context_destroy(adopted);
    MtlrtBuffer *z = filled(ctx, 10, 1);
    check(z && holds(z, 10, 1), "the device outlives the adopted context");
    mtlrt_buffer_destroy(z);
    vd.queue = VK_NULL_HANDLE;
    check(!mtlrt_context_create_vulkan(&vd) && mtlrt_last_status() == MTLRT_ERROR_INVALID_ARGUMENT,
          "adopting without a queue is an error");
}

/* Two threads, each with its own context: their work and their last errors do not mix. */
static void *thread_main(void *arg)
{
    int id = (int)(intptr_t)arg;
    MtlrtContext *ctx = mtlrt_context_create(&(MtlrtContextOptions){.quiet = true});
    Kernel k = ctx ? make_add(ctx, (float)id) : (Kernel){0};
    MtlrtBuffer *x = ctx ? filled(ctx, 256, 0) : NULL, *y = ctx ? mtlrt_buffer_create(ctx, 1024) : NULL;
    MtlrtBuffer *bind[] = {x, y};
    MtlrtDispatch d = add_dispatch(bind, 256);
    bool ok = k.pipe && y;
    for (int i = 0; ok && i < 20; i++)
        ok = mtlrt_dispatch(k.pipe, &d, NULL) && holds(y, 256, (float)id);
    if (id == 1) /* only this thread fails a call */
        ok = ok && !mtlrt_buffer_read_at(y, 2000, &d, 4) && strstr(mtlrt_last_error(), "offset 2000");
    else
        ok = ok && mtlrt_last_status() == MTLRT_OK;
    mtlrt_buffer_destroy(x);
    mtlrt_buffer_destroy(y);
    kernel_free(&k);
    mtlrt_context_destroy(ctx);
    return (void *)(intptr_t)ok;
}

static void threads(void)
{
    pthread_t t[2];
    void *r[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)(i + 1));
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], &r[i]);
    check(r[0] && r[1], "two threads with a context each; per-thread last errors");
}

int main(void)
{
    /* stderr must stay empty: the library prints nothing without a log callback that prints */
    char err_path[] = "/tmp/mtlrt_api_stderr_XXXXXX";
    int fd = mkstemp(err_path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    MtlrtArray a;
    bool quiet_fail = !mtlrt_npy_read("/nonexistent/y.npy", &a); /* no callback yet: nothing printed */
    mtlrt_set_log_callback(on_log, NULL);
    MtlrtContext *ctx = mtlrt_context_create(&(MtlrtContextOptions){.validate = true, .quiet = true});
    check(quiet_fail, "a failing call before any log callback");
    check(ctx != NULL, "context with the validation layer");
    if (ctx) {
        errors_and_log();
        conversions();
        command_lists(ctx);
        state_changes(ctx);
        constants(ctx);
        transfers(ctx);
        adoption(ctx);
        threads();
        check(mtlrt_context_validation_messages(ctx) == 0, "no validation messages");
    }
    mtlrt_context_destroy(ctx);
    fflush(stderr);
    dup2(saved, 2);
    off_t printed = lseek(fd, 0, SEEK_END);
    close(fd);
    unlink(err_path);
    check(printed == 0, "nothing printed on stderr by the library");
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
