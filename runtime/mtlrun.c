/* mtlrun.c: run a Metal compute kernel (translated in process) or a translated GLSL kernel on Vulkan with
   Metal's dispatch semantics, or a pipeline of kernels (--pipeline FILE). main() reads as the list of stages:
   parse options (getopt_long), create the context, prepare the launch (mtlrun_launch.c), dispatch, write and
   check outputs. Exit 0 ok, 1 failure, 2 usage. */
#include "mtlrun.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: mtlrun KERNEL.metal [--entry NAME] [-I DIR] [-D NAME[=VALUE]] DISPATCH PARAMS [OPTIONS]\n"
    "       mtlrun KERNEL.comp --reflect KERNEL.json [--entry NAME] DISPATCH PARAMS [OPTIONS]\n"
    "       mtlrun SPEC.json [--buffer NAME=...] [--template NAME=VALUE] [--init-value V] [DISPATCH] [OPTIONS]\n"
    "       mtlrun --pipeline FILE [--out NAME=FILE.npy] [--check NAME=REF.npy] [OPTIONS]\n"
    "       mtlrun --list-devices | --version | --help\n"
    "\n"
    "Every option that takes a value accepts --opt VALUE and --opt=VALUE.\n"
    "dispatch (Metal semantics):\n"
    "  --grid X[,Y[,Z]]          dispatchThreads: total threads, any size (ceil(grid/threadgroup) groups; 0 runs\n"
    "                            nothing)\n"
    "  --threadgroups X[,Y[,Z]]  dispatchThreadgroups: number of threadgroups\n"
    "  --threadgroup X[,Y[,Z]]   threads per threadgroup (required)\n"
    "parameters ([[buffer(N)]] index N):\n"
    "  --buffer N=FILE.npy       data from a .npy file (dtype must match the parameter's type)\n"
    "  --buffer N=DTYPE:SHAPE    zero-filled, e.g. float32:1000, float32:64x64, bfloat16:8, complex64:4\n"
    "  --scalar N=VALUE          a scalar of the parameter's type, e.g. 2=2.5 or 3=1000\n"
    "  --scalar N=TYPE:VALUE     a scalar of TYPE, converted to the parameter's type when exactly representable\n"
    "                            (3=int:1000 for a uint; 2=float:0.1 for a half is an error)\n"
    "  --bytes N=FILE            raw bytes (structs)\n"
    "  --constant N=[TYPE:]VALUE function constant [[function_constant(N)]], typed like --scalar, e.g. 0=true\n"
    "  --out N=FILE.npy          write buffer N back, with its dtype and shape\n"
    "  --check N=REF.npy         compare buffer N with a reference: PASS/FAIL\n"
    "  --threadgroup-memory N=BYTES  size of the `threadgroup T* [[threadgroup(N)]]` parameter\n"
    "  N may be a parameter's name: --out out=FILE.npy\n"
    "kernel specs (SPEC.json: MLX metal_kernel or Core AI form, docs/specs.md; the call's grid and threadgroup are\n"
    "the spec's unless given):\n"
    "  --buffer NAME=FILE.npy|DTYPE:SHAPE  an input, or an output's dtype and shape, of the call\n"
    "  --template NAME=VALUE     an MLX template argument (float32, 4, true)\n"
    "  --init-value V            fill the outputs with V before the run (MLX init_value)\n"
    "  --transpose NAME=P0,P1,.. input NAME is its file's array transposed: a strided view (MLX)\n"
    "pipelines (docs/runtime.md): FILE has `buffer NAME = FILE.npy|DTYPE:SHAPE`, `run KERNEL ...` (a launch's\n"
    "options; --buffer N=NAME binds a shared buffer), `out NAME = FILE.npy` and `check NAME = REF.npy` lines;\n"
    "the launches run in order in one submission, with barriers where one depends on another:\n"
    "  --pipeline FILE           run the pipeline FILE describes (-: standard input)\n"
    "options:\n"
    "  --rtol R --atol A         tolerance of --check (default by dtype: float32 1e-5/1e-6, half 1e-3/1e-3,\n"
    "                            bfloat16 1e-2/1e-2)\n"
    "  --poison                  fill DTYPE:SHAPE buffers with NaN (floats) or 0xA5 bytes instead of zeros\n"
    "  --validate                run under VK_LAYER_KHRONOS_validation; any message fails the run\n"
    "  --device NAME|INDEX       pick a device (default: env MTL2GLSL_DEVICE, else discrete > integrated >\n"
    "                            virtual > CPU)\n"
    "  --list-devices            list Vulkan devices and exit\n"
    "  --subgroup-size N         translate SIMD-group functions for N-wide subgroups (4..128) instead of the\n"
    "                            device's choice (32 where it can run 32, else its own width)\n"
    "  --virtual-subgroups       build subgroups from shared memory, so that any --subgroup-size runs here\n"
    "  --push-constant-words     read 8/16-bit constant-reference scalars from 32-bit push-constant words (chosen\n"
    "                            anyway on devices without storagePushConstant8/16)\n"
    "  --fast-math               translate as mtl2glsl -ffast-math: the Vulkan compiler may reassociate and\n"
    "                            contract floating-point arithmetic (default: every float value `precise`)\n"
    "  --tensor-cores=auto|on|off  SIMD-group matrix products on tensor cores (mtl2glsl --tensor-cores)\n"
    "                            where the device runs them (--list-devices says) and the kernel is built for\n"
    "                            native 32-wide subgroups: auto (default) uses them there, on is an error\n"
    "                            elsewhere, off never uses them (exact products)\n"
    "  --mma-lanes               rename lanes as the tensor-core path does, with exact products (mtl2glsl\n"
    "                            --mma-lanes; runs on any device)\n"
    "  --check-bounds            translate with bounds checks: the first out-of-range access of each buffer is\n"
    "                            reported with its Metal source line, index and size, and fails the run\n"
    "  --timestamps              print gpu_time_ms: X (GPU timestamps around the dispatch or pipeline)\n"
    "  --repeat N                run N times (written buffers restored between runs); with --timestamps\n"
    "                            prints the median and min/mean\n"
    "  -q, --quiet               print only errors and results (no device line, no warnings)\n"
    "  -v, --verbose             say how each kernel's SIMD-groups were built (lanes, matrix products)\n"
    "  --version                 print the version and exit\n"
    "  -h, --help                this text\n"
    "exit status: 0 success, 1 failure (translation, run, validation, FAIL), 2 usage error\n";

static void usage_error(const char *where, const char *fmt, const char *arg)
{
    fprintf(stderr, "mtlrun: %s%s", where ? where : "", where ? ": " : "");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(mtlrun --help for usage)\n");
}

bool mtlrun_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* "X[,Y[,Z]]" -> three counts (missing ones are 1). A 0 is an empty grid when ZERO_OK. */
static bool parse_dims(const char *s, uint32_t out[3], bool zero_ok)
{
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || (v == 0 && !zero_ok) || v > UINT32_MAX || *s == '-')
            return false;
        out[i] = (uint32_t)v;
        if (*end == 0)
            return true;
        if (*end != ',' && *end != 'x')
            return false;
        s = end + 1;
    }
    return false;
}

/* "N=TEXT" or "NAME=TEXT" -> ARG. */
static bool parse_indexed(const char *s, SourceKind kind, Arg *arg, unsigned long max)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    size_t name_len = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
    if (end == s && name_len && s[name_len] == '=' && !(s[0] >= '0' && s[0] <= '9')) {
        char *name = strndup(s, name_len);
        *arg = (Arg){.index = UINT32_MAX, .kind = kind, .text = s + name_len + 1, .name = name};
        return name != NULL;
    }
    if (end == s || *end != '=' || errno || v > max)
        return false;
    *arg = (Arg){.index = (uint32_t)v, .kind = kind, .text = end + 1};
    return true;
}

/* Append an indexed option to LIST; false when full or malformed. */
static bool add_indexed(Arg *list, int *n, const char *value, SourceKind kind)
{
    return *n < MAX_ARGS && parse_indexed(value, kind, &list[*n], 1000) && ++*n;
}

enum {
    OPT_GRID = 256, OPT_THREADGROUPS, OPT_THREADGROUP, OPT_BUFFER, OPT_SCALAR, OPT_BYTES, OPT_CONSTANT, OPT_OUT,
    OPT_CHECK, OPT_ENTRY, OPT_REFLECT, OPT_DEVICE, OPT_RTOL, OPT_ATOL, OPT_REPEAT, OPT_SUBGROUP_SIZE, OPT_TG_MEMORY,
    OPT_TEMPLATE, OPT_INIT_VALUE, OPT_TRANSPOSE, OPT_PIPELINE, OPT_POISON, OPT_VALIDATE, OPT_TIMESTAMPS,
    OPT_LIST_DEVICES, OPT_VIRTUAL_SUBGROUPS, OPT_CHECK_BOUNDS, OPT_VERSION, OPT_PUSH_WORDS, OPT_FAST_MATH,
    OPT_TENSOR_CORES, OPT_MMA_LANES,
};

static const struct option long_options[] = {
    {"grid", required_argument, NULL, OPT_GRID},
    {"threadgroups", required_argument, NULL, OPT_THREADGROUPS},
    {"threadgroup", required_argument, NULL, OPT_THREADGROUP},
    {"buffer", required_argument, NULL, OPT_BUFFER},
    {"scalar", required_argument, NULL, OPT_SCALAR},
    {"bytes", required_argument, NULL, OPT_BYTES},
    {"constant", required_argument, NULL, OPT_CONSTANT},
    {"out", required_argument, NULL, OPT_OUT},
    {"check", required_argument, NULL, OPT_CHECK},
    {"entry", required_argument, NULL, OPT_ENTRY},
    {"reflect", required_argument, NULL, OPT_REFLECT},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"atol", required_argument, NULL, OPT_ATOL},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"subgroup-size", required_argument, NULL, OPT_SUBGROUP_SIZE},
    {"threadgroup-memory", required_argument, NULL, OPT_TG_MEMORY},
    {"template", required_argument, NULL, OPT_TEMPLATE},
    {"init-value", required_argument, NULL, OPT_INIT_VALUE},
    {"transpose", required_argument, NULL, OPT_TRANSPOSE},
    {"pipeline", required_argument, NULL, OPT_PIPELINE},
    {"poison", no_argument, NULL, OPT_POISON},
    {"validate", no_argument, NULL, OPT_VALIDATE},
    {"timestamps", no_argument, NULL, OPT_TIMESTAMPS},
    {"list-devices", no_argument, NULL, OPT_LIST_DEVICES},
    {"virtual-subgroups", no_argument, NULL, OPT_VIRTUAL_SUBGROUPS},
    {"push-constant-words", no_argument, NULL, OPT_PUSH_WORDS},
    {"fast-math", no_argument, NULL, OPT_FAST_MATH},
    {"tensor-cores", required_argument, NULL, OPT_TENSOR_CORES},
    {"mma-lanes", no_argument, NULL, OPT_MMA_LANES},
    {"check-bounds", no_argument, NULL, OPT_CHECK_BOUNDS},
    {"version", no_argument, NULL, OPT_VERSION},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* An option of launch L with value V; false when V is malformed. */
static bool launch_option(Launch *l, int c, const char *v)
{
    char *end;
    switch (c) {
    case OPT_GRID:
        return (l->grid_given = true) && parse_dims(v, l->size, true);
    case OPT_THREADGROUPS:
        return (l->threadgroups_given = true) && parse_dims(v, l->size, true);
    case OPT_THREADGROUP:
        return (l->threadgroup_given = true) && parse_dims(v, l->threadgroup, false);
    case OPT_BUFFER:
        return add_indexed(l->inputs, &l->n_inputs, v, SOURCE_ARRAY);
    case OPT_SCALAR:
        return add_indexed(l->inputs, &l->n_inputs, v, SOURCE_SCALAR);
    case OPT_BYTES:
        return add_indexed(l->inputs, &l->n_inputs, v, SOURCE_BYTES);
    case OPT_CONSTANT: /* function constant indices: any uint */
        return l->n_constants < MAX_ARGS && parse_indexed(v, SOURCE_SCALAR, &l->constants[l->n_constants], UINT32_MAX) &&
               ++l->n_constants;
    case OPT_ENTRY:
        return (l->entry = v);
    case OPT_REFLECT:
        return (l->reflect = v);
    case 'I':
        return l->n_includes < MAX_ARGS && (l->includes[l->n_includes++] = v);
    case 'D':
        return l->n_defines < MAX_ARGS && (l->defines[l->n_defines++] = v);
    case OPT_SUBGROUP_SIZE: {
        unsigned long n = strtoul(v, &end, 10);
        l->subgroup_size = (uint32_t)n;
        return !*end && n >= 4 && n <= 128 && !(n & (n - 1));
    }
    case OPT_TG_MEMORY: {
        unsigned long idx = strtoul(v, &end, 10), bytes;
        if (*end != '=' || idx > 30 || end == v)
            return false;
        bytes = strtoul(end + 1, &end, 10);
        l->threadgroup_memory[idx] = (uint32_t)bytes;
        return !*end && bytes > 0 && bytes <= (1u << 30);
    }
    case OPT_TEMPLATE:
        return l->n_templates < MAX_ARGS && (l->templates[l->n_templates++] = v);
    case OPT_TRANSPOSE:
        return l->n_transposes < MAX_ARGS && (l->transposes[l->n_transposes++] = v);
    case OPT_INIT_VALUE:
        return (l->has_init_value = true) && ((void)(l->init_value = strtod(v, &end)), end != v && !*end);
    case OPT_VIRTUAL_SUBGROUPS:
        return (l->virtual_subgroups = true);
    case OPT_PUSH_WORDS:
        return (l->push_constant_words = true);
    case OPT_FAST_MATH:
        return (l->fast_math = true);
    case OPT_TENSOR_CORES: /* auto, on, off (MtlrunTensorCores) */
        l->tensor_cores_given = true;
        for (int i = 0; i < 3; i++)
            if (!strcmp(v, (const char *const[]){"auto", "on", "off"}[i]))
                return (l->tensor_cores = i), true;
        return false;
    case OPT_MMA_LANES:
        return (l->mma_lanes = true);
    }
    return false;
}

/* An option of the run (not of a launch) with value V (NULL for flags); false when V is malformed. */
static bool run_option(Options *o, int c, const char *v)
{
    char *end;
    switch (c) {
    case OPT_OUT:
        return add_indexed(o->outs, &o->n_outs, v, SOURCE_ARRAY);
    case OPT_CHECK:
        return add_indexed(o->checks, &o->n_checks, v, SOURCE_ARRAY);
    case OPT_DEVICE:
        return (o->device = v);
    case OPT_RTOL:
        return (o->rtol = strtod(v, &end)) >= 0 && end != v && !*end;
    case OPT_ATOL:
        return (o->atol = strtod(v, &end)) >= 0 && end != v && !*end;
    case OPT_REPEAT:
        return (o->repeat = (uint32_t)strtoul(v, &end, 10)) > 0 && !*end && o->repeat <= 100000;
    case OPT_PIPELINE:
        return (o->pipeline = v);
    case OPT_POISON:
        return (o->poison = true);
    case OPT_VALIDATE:
        return (o->validate = true);
    case OPT_TIMESTAMPS:
        return (o->timestamps = true);
    case OPT_LIST_DEVICES:
        return (o->list_devices = true);
    case OPT_CHECK_BOUNDS:
        return (o->check_bounds = true);
    case OPT_VERSION:
        return (o->version = true);
    case 'q':
        return (o->quiet = true);
    case 'v':
        return (o->verbose = true);
    case 'h':
        return (o->help = true);
    }
    return false;
}

/* The name of option C as the user wrote it ("--grid", "-I"). */
static const char *option_name(int c, char *buf, size_t size)
{
    for (const struct option *opt = long_options; opt->name; opt++)
        if (opt->val == c) {
            snprintf(buf, size, "--%s", opt->name);
            return buf;
        }
    snprintf(buf, size, "-%c", c);
    return buf;
}

static bool is_launch_option(int c)
{
    return c == 'I' || c == 'D' || (c >= OPT_GRID && c <= OPT_TRANSPOSE && c != OPT_OUT && c != OPT_CHECK &&
                                    c != OPT_DEVICE && c != OPT_RTOL && c != OPT_ATOL && c != OPT_REPEAT) ||
           c == OPT_VIRTUAL_SUBGROUPS || c == OPT_PUSH_WORDS || c == OPT_FAST_MATH || c == OPT_TENSOR_CORES ||
           c == OPT_MMA_LANES;
}

bool mtlrun_parse(int argc, char **argv, Options *o, Launch *l, bool in_pipeline, const char *where)
{
    char name[64];
    optind = 0; /* glibc: start over (a pipeline parses one line after another) */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "-:hqvI:D:", long_options, NULL)) != -1) {
        if (!in_pipeline && !o->launch_option && is_launch_option(c))
            o->launch_option = c; /* with --pipeline, an error: the file's run lines have the launches */
        if (c == 1) { /* a positional argument: the kernel */
            if (l->kernel) {
                usage_error(where, "more than one kernel file: %s", optarg);
                return false;
            }
            l->kernel = optarg;
        } else if (c == '?') {
            usage_error(where, "unknown option %s", argv[optind - 1]);
            return false;
        } else if (c == ':') {
            usage_error(where, "%s needs a value", argv[optind - 1]);
            return false;
        } else if (is_launch_option(c) ? !launch_option(l, c, optarg)
                                       : in_pipeline || !run_option(o, c, optarg)) {
            if (!is_launch_option(c) && in_pipeline)
                usage_error(where, "%s is an option of the whole run: give it on mtlrun's command line",
                            option_name(c, name, sizeof name));
            else
                fprintf(stderr, "mtlrun: %s%sbad value '%s' for %s\n(mtlrun --help for usage)\n", where ? where : "",
                        where ? ": " : "", optarg ? optarg : "", option_name(c, name, sizeof name));
            return false;
        }
    }
    return true;
}

/* Cross-option rules of a launch: a kernel, exactly one of --grid/--threadgroups, a --threadgroup (a spec has its
   own). */
bool mtlrun_check_launch(const Launch *l, const char *where)
{
    bool spec = l->kernel && mtlrun_has_suffix(l->kernel, ".json");
    if (!l->kernel)
        usage_error(where, "%sno kernel file given", "");
    else if (spec && l->threadgroups_given)
        usage_error(where, "%s: a kernel spec runs on a grid of threads (--grid), as MLX and Core AI dispatch",
                    l->kernel);
    else if (!spec && (l->n_templates || l->has_init_value || l->n_transposes))
        usage_error(where, "--template, --transpose and --init-value are for kernel specs (SPEC.json), not %s",
                    l->kernel);
    else if (spec)
        return true;
    else if (l->grid_given == l->threadgroups_given)
        usage_error(where, "%sgive exactly one of --grid (dispatchThreads) and --threadgroups (dispatchThreadgroups)",
                    "");
    else if (!l->threadgroup_given)
        usage_error(where, "%s--threadgroup X[,Y[,Z]] is required", "");
    else if (!mtlrun_has_suffix(l->kernel, ".metal") && !l->reflect)
        usage_error(where, "%s is GLSL: give its reflection with --reflect FILE.json", l->kernel);
    else
        return true;
    return false;
}

void mtlrun_launch_free(Launch *l)
{
    for (int i = 0; i < l->n_inputs; i++)
        free(l->inputs[i].name);
    for (int i = 0; i < l->n_constants; i++)
        free(l->constants[i].name);
    for (int i = 0; l->spec_arrays[i]; i++)
        free((char *)l->spec_arrays[i]);
}

static void free_options(Options *o)
{
    mtlrun_launch_free(&o->launch);
    for (int i = 0; i < o->n_outs; i++)
        free(o->outs[i].name);
    for (int i = 0; i < o->n_checks; i++)
        free(o->checks[i].name);
}

/* ---- one kernel ---- */

/* NAME=... outputs get the index of the kernel's parameter of that name; every output names a storage
   parameter that has an input. */
static bool resolve_outputs(Options *o, const Launch *l, const MtlrtReflection *r)
{
    Arg *lists[] = {o->outs, o->checks};
    const int counts[] = {o->n_outs, o->n_checks};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < counts[k]; i++) {
            Arg *a = &lists[k][i];
            for (uint32_t p = 0; a->name && a->index == UINT32_MAX && p < r->n_params; p++)
                if (!strcmp(r->params[p].name, a->name))
                    a->index = r->params[p].index;
            const MtlrtParam *p = a->index == UINT32_MAX ? NULL : mtlrt_reflection_param(r, a->index);
            if (!p) {
                if (a->name)
                    fprintf(stderr, "mtlrun: error: kernel %s has no parameter named %s\n", r->entry, a->name);
                else
                    fprintf(stderr, "mtlrun: error: there is no parameter for buffer %u\n", a->index);
                mtlrun_print_params(r);
                return false;
            }
            if (p->kind == MTLRT_PARAM_PUSH_CONSTANT) {
                fprintf(stderr, "mtlrun: error: buffer %u (%s) is passed as push constants; it cannot be read back\n",
                        p->index, p->name);
                return false;
            }
            if (mtlrun_find_input(l, a->index) < 0)
                return false; /* reported when the parameters were bound */
        }
    return true;
}

/* Read the buffer of parameter INDEX back into its input array. */
static MtlrtArray *read_back(const Launch *l, Prepared *p, uint32_t index)
{
    MtlrtArray *a = &p->arrays[mtlrun_find_input(l, index)];
    MtlrtBuffer *b = p->bindings[mtlrt_reflection_param(p->k.refl, index)->binding];
    return mtlrt_buffer_read(b, a->data, a->nbytes) ? a : NULL;
}

/* --out and --check of a single kernel. False if any fails. */
static bool write_and_check(const Options *o, const Launch *l, Prepared *p)
{
    bool ok = true;
    for (int i = 0; i < o->n_outs; i++) {
        MtlrtArray *a = read_back(l, p, o->outs[i].index);
        ok = ok && a && mtlrt_npy_write(o->outs[i].text, a);
    }
    for (int i = 0; i < o->n_checks; i++) {
        const MtlrtParam *param = mtlrt_reflection_param(p->k.refl, o->checks[i].index);
        char what[128];
        snprintf(what, sizeof what, "buffer %u (%s)", param->index, param->name);
        MtlrtArray *out = read_back(l, p, o->checks[i].index);
        ok = out && mtlrun_check_array(o, out, what, o->checks[i].text) && ok;
    }
    return ok;
}

static void print_stats(const MtlrtDispatchStats *s)
{
    if (!s->have_gpu_time)
        return;
    printf("gpu_time_ms: %.6f\n", s->gpu_ms_median);
    if (s->runs > 1)
        printf("gpu_time_ms_min: %.6f\ngpu_time_ms_mean: %.6f\nruns: %u\n", s->gpu_ms_min, s->gpu_ms_mean, s->runs);
}

/* One kernel: prepare, dispatch (repeated and timed as asked), outputs. */
static bool run_one(Options *o, MtlrtContext *ctx, Prepared *p)
{
    MtlrtDispatchStats stats;
    if (!mtlrun_prepare(o, &o->launch, ctx, NULL, p) || !resolve_outputs(o, &o->launch, p->k.refl))
        return false;
    p->d.repeat = o->repeat;
    p->d.timestamps = o->timestamps;
    if (!mtlrt_dispatch(p->pipe, &p->d, &stats))
        return false;
    print_stats(&stats);
    return write_and_check(o, &o->launch, p);
}

/* ---- main ---- */

static bool quiet;

/* The runtime's messages on stderr as "mtlrun: error: ...", warnings and notes only without -q. */
static void on_log(MtlrtLogLevel level, const char *message, void *user)
{
    (void)user;
    if (quiet && (level == MTLRT_LOG_WARNING || level == MTLRT_LOG_INFO))
        return;
    const char *kind = level == MTLRT_LOG_ERROR ? "error: " : level == MTLRT_LOG_WARNING ? "warning: " : "";
    fprintf(stderr, "mtlrun: %s%s\n", kind, message);
}

static void print_version(void)
{
#ifdef MTLRUN_HAVE_TRANSLATOR
    const char *translator = "translator " MTL2GLSL_VERSION;
#else
    const char *translator = "built without the translator: runs KERNEL.comp --reflect FILE.json";
#endif
    printf("mtlrun %s (mtlrt %s, %s)\n", MTLRT_VERSION, mtlrt_version(), translator);
}

int main(int argc, char **argv)
{
    Options o = {.rtol = -1, .atol = -1, .repeat = 1};
    Prepared p = {0};
    char name[64];
    MtlrtContext *ctx = NULL;
    mtlrt_set_log_callback(on_log, NULL);
    int status = -1;
    if (!mtlrun_parse(argc, argv, &o, &o.launch, false, NULL))
        status = EXIT_USAGE;
    else if (o.help || argc == 1)
        fputs(usage_text, o.help ? stdout : stderr), status = o.help ? EXIT_OK : EXIT_USAGE;
    else if (o.version)
        print_version(), status = EXIT_OK;
    else if (o.list_devices)
        status = mtlrt_list_devices(stdout) ? EXIT_OK : EXIT_FAIL;
    else if (o.pipeline && (o.launch.kernel || o.launch.n_inputs || o.repeat > 1))
        usage_error(NULL, "%s--pipeline takes its kernels from its file: no kernel, --buffer or --repeat here", ""),
            status = EXIT_USAGE;
    else if (o.pipeline && o.launch_option)
        usage_error(NULL, "%s is an option of a launch: with --pipeline, give it on the file's `run` lines",
                    option_name(o.launch_option, name, sizeof name)),
            status = EXIT_USAGE;
    else if (!o.pipeline && !mtlrun_check_launch(&o.launch, NULL))
        status = EXIT_USAGE;
    if (status >= 0) {
        free_options(&o);
        return status;
    }
    quiet = o.quiet;
    MtlrtContextOptions co = {.device = o.device, .validate = o.validate, .quiet = o.quiet};
    bool ok = (ctx = mtlrt_context_create(&co)) != NULL;
    if (ok && o.pipeline)
        status = mtlrun_pipeline(&o, ctx);
    else if (ok)
        status = run_one(&o, ctx, &p) ? EXIT_OK : EXIT_FAIL;
    mtlrun_prepared_free(&p);
    uint32_t messages = ctx ? mtlrt_context_validation_messages(ctx) : 0;
    mtlrt_context_destroy(ctx);
    free_options(&o);
    if (messages)
        fprintf(stderr, "mtlrun: error: %u validation message%s (--validate)\n", messages, messages > 1 ? "s" : "");
    return ok && status == EXIT_OK && !messages ? EXIT_OK : status == EXIT_USAGE ? EXIT_USAGE : EXIT_FAIL;
}
