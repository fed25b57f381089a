/* mtlrun.c: run a Metal compute kernel (translated in process) or a translated GLSL kernel on Vulkan with
   Metal's dispatch semantics. main() reads as the list of stages: parse options, load the kernel, create the
   context and pipeline, bind parameters, dispatch, write and check outputs. Exit 0 ok, 1 failure, 2 usage. */
#include "mtlrt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef MTLRUN_HAVE_TRANSLATOR
#include "mtl2glsl.h"
#include "mtlrun_spec.h"
#endif

#define MAX_ARGS 64

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

typedef enum SourceKind { SOURCE_ARRAY, SOURCE_SCALAR, SOURCE_BYTES, SOURCE_PRESET } SourceKind;

/* One --buffer/--scalar/--bytes (INDEX=TEXT) or --out/--check (INDEX=PATH); INDEX may be a parameter's NAME.
   SOURCE_PRESET: an array a kernel spec built (taken over when bound). */
typedef struct Arg {
    uint32_t index;
    SourceKind kind;
    const char *text;
    const char *name; /* NAME=...: resolved to the parameter's index once the kernel is known */
    MtlrtArray *preset;
} Arg;

typedef struct Options {
    const char *kernel, *entry, *reflect, *device;
    bool grid_given, threadgroups_given, threadgroup_given;
    uint32_t size[3], threadgroup[3];
    Arg inputs[MAX_ARGS], outs[MAX_ARGS], checks[MAX_ARGS], constants[MAX_ARGS];
    int n_inputs, n_outs, n_checks, n_constants;
    const char *includes[MAX_ARGS + 1], *defines[MAX_ARGS + 1];
    int n_includes, n_defines;
    double rtol, atol;
    uint32_t repeat;
    bool poison, validate, timestamps, list_devices, help;
    uint32_t subgroup_size;              /* --subgroup-size: 0 = the device's choice */
    bool virtual_subgroups;
    uint32_t threadgroup_memory[31];     /* --threadgroup-memory N=BYTES */
    const char *spec_arrays[MAX_ARGS + 1], *templates[MAX_ARGS + 1], *transposes[MAX_ARGS + 1]; /* kernel specs */
    int n_templates, n_transposes;
    bool has_init_value;
    double init_value;
} Options;

/* A loaded kernel: GLSL text, its reflection, and the name used in messages. */
typedef struct Kernel {
    char *glsl;
    char *glsl_name;
    MtlrtReflection *refl;
#ifdef MTLRUN_HAVE_TRANSLATOR
    MtlrunSpecRun spec; /* SPEC.json: its buffers until bound */
#endif
} Kernel;

/* Everything a run creates, destroyed by run_destroy. */
typedef struct Run {
    MtlrtContext *ctx;
    MtlrtPipeline *pipe;
    MtlrtArray arrays[MAX_ARGS]; /* per input, parallel to Options.inputs */
    MtlrtBuffer *bindings[64];
    uint8_t push[256];
} Run;

static const char usage_text[] =
    "usage: mtlrun KERNEL.metal [--entry NAME] [-I DIR] [-D NAME[=VALUE]] DISPATCH PARAMS [OPTIONS]\n"
    "       mtlrun KERNEL.comp --reflect KERNEL.json [--entry NAME] DISPATCH PARAMS [OPTIONS]\n"
    "       mtlrun SPEC.json [--buffer NAME=...] [--template NAME=VALUE] [--init-value V] [DISPATCH] [OPTIONS]\n"
    "       mtlrun --list-devices\n"
    "\n"
    "dispatch (Metal semantics):\n"
    "  --grid X[,Y[,Z]]          dispatchThreads: total threads, any size (ceil(grid/threadgroup) groups)\n"
    "  --threadgroups X[,Y[,Z]]  dispatchThreadgroups: number of threadgroups\n"
    "  --threadgroup X[,Y[,Z]]   threads per threadgroup (required)\n"
    "parameters ([[buffer(N)]] index N):\n"
    "  --buffer N=FILE.npy       data from a .npy file (dtype must match the parameter's type)\n"
    "  --buffer N=DTYPE:SHAPE    zero-filled, e.g. float32:1000 or float32:64x64\n"
    "  --scalar N=TYPE:VALUE     a scalar, e.g. 2=float:2.5 or 3=uint:7\n"
    "  --bytes N=FILE            raw bytes (structs)\n"
    "  --constant N=TYPE:VALUE   function constant [[function_constant(N)]], e.g. 0=bool:true or 1=float:0.5\n"
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
    "  --rtol R --atol A         tolerance of --check (default by dtype: float32 1e-5/1e-6, half 1e-3/1e-3)\n"
    "options:\n"
    "  --poison                  fill DTYPE:SHAPE buffers with NaN (floats) or 0xA5 bytes instead of zeros\n"
    "  --validate                run under VK_LAYER_KHRONOS_validation; any message fails the run\n"
    "  --device NAME|INDEX       pick a device (default: env MTL2GLSL_DEVICE, else discrete > integrated >\n"
    "                            virtual > CPU)\n"
    "  --list-devices            list Vulkan devices and exit\n"
    "  --subgroup-size N         translate SIMD-group functions for N-wide subgroups (4..128) instead of the\n"
    "                            device's choice (32 where it can run 32, else its own width)\n"
    "  --virtual-subgroups       build subgroups from shared memory, so that any --subgroup-size runs here\n"
    "  --timestamps              print gpu_time_ms: X (GPU timestamps around the dispatch)\n"
    "  --repeat N                run N times (written buffers restored between runs); with --timestamps\n"
    "                            prints the median and min/mean\n"
    "  -h, --help                this text\n"
    "exit status: 0 success, 1 failure (translation, run, validation, FAIL), 2 usage error\n";

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mtlrun: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(mtlrun --help for usage)\n");
}

/* The value of option NAME at argv[*i]: "NAME=V" or "NAME V" (advancing *i); NULL if argv[*i] is not NAME. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != 0)
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

/* "X[,Y[,Z]]" -> three positive counts (missing ones are 1). */
static bool parse_dims(const char *s, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || v == 0 || v > UINT32_MAX || *s == '-')
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
static bool parse_indexed(const char *s, SourceKind kind, Arg *arg)
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
    if (end == s || *end != '=' || errno || v > 1000)
        return false;
    *arg = (Arg){.index = (uint32_t)v, .kind = kind, .text = end + 1};
    return true;
}

/* Append an indexed option to LIST; false when full or malformed. */
static bool add_indexed(Arg *list, int *n, const char *value, SourceKind kind)
{
    return *n < MAX_ARGS && parse_indexed(value, kind, &list[*n]) && ++*n;
}

/* One option at argv[*i] that takes a value; false (usage) if it is not known or malformed. */
static bool parse_valued(Options *o, const char *name, const char *v)
{
    if (!strcmp(name, "--grid"))
        return (o->grid_given = true) && parse_dims(v, o->size);
    if (!strcmp(name, "--threadgroups"))
        return (o->threadgroups_given = true) && parse_dims(v, o->size);
    if (!strcmp(name, "--threadgroup"))
        return (o->threadgroup_given = true) && parse_dims(v, o->threadgroup);
    if (!strcmp(name, "--buffer"))
        return add_indexed(o->inputs, &o->n_inputs, v, SOURCE_ARRAY);
    if (!strcmp(name, "--scalar"))
        return add_indexed(o->inputs, &o->n_inputs, v, SOURCE_SCALAR);
    if (!strcmp(name, "--bytes"))
        return add_indexed(o->inputs, &o->n_inputs, v, SOURCE_BYTES);
    if (!strcmp(name, "--constant"))
        return add_indexed(o->constants, &o->n_constants, v, SOURCE_SCALAR);
    if (!strcmp(name, "--out"))
        return add_indexed(o->outs, &o->n_outs, v, SOURCE_ARRAY);
    if (!strcmp(name, "--check"))
        return add_indexed(o->checks, &o->n_checks, v, SOURCE_ARRAY);
    if (!strcmp(name, "--entry"))
        return (o->entry = v);
    if (!strcmp(name, "--reflect"))
        return (o->reflect = v);
    if (!strcmp(name, "--device"))
        return (o->device = v);
    if (!strcmp(name, "-I"))
        return o->n_includes < MAX_ARGS && (o->includes[o->n_includes++] = v);
    if (!strcmp(name, "-D"))
        return o->n_defines < MAX_ARGS && (o->defines[o->n_defines++] = v);
    char *end;
    if (!strcmp(name, "--rtol"))
        return (o->rtol = strtod(v, &end)) >= 0 && !*end;
    if (!strcmp(name, "--atol"))
        return (o->atol = strtod(v, &end)) >= 0 && !*end;
    if (!strcmp(name, "--subgroup-size")) {
        unsigned long n = strtoul(v, &end, 10);
        o->subgroup_size = (uint32_t)n;
        return !*end && n >= 4 && n <= 128 && !(n & (n - 1));
    }
    if (!strcmp(name, "--threadgroup-memory")) {
        unsigned long idx = strtoul(v, &end, 10), bytes;
        if (*end != '=' || idx > 30)
            return false;
        bytes = strtoul(end + 1, &end, 10);
        o->threadgroup_memory[idx] = (uint32_t)bytes;
        return !*end && bytes > 0 && bytes <= (1u << 30);
    }
    if (!strcmp(name, "--template"))
        return o->n_templates < MAX_ARGS && (o->templates[o->n_templates++] = v);
    if (!strcmp(name, "--transpose"))
        return o->n_transposes < MAX_ARGS && (o->transposes[o->n_transposes++] = v);
    if (!strcmp(name, "--init-value"))
        return (o->has_init_value = true) && ((void)(o->init_value = strtod(v, &end)), end != v && !*end);
    if (!strcmp(name, "--repeat"))
        return (o->repeat = (uint32_t)strtoul(v, &end, 10)) > 0 && !*end && o->repeat <= 100000;
    return false;
}

static const char *const valued_options[] = {
    "--grid", "--threadgroups", "--threadgroup", "--buffer", "--scalar", "--bytes", "--constant", "--out", "--check", "--entry",
    "--reflect", "--device", "-I", "-D", "--rtol", "--atol", "--repeat", "--subgroup-size", "--threadgroup-memory",
    "--template", "--init-value", "--transpose",
};

/* Flags without a value; false if ARG is not one. */
static bool parse_flag(Options *o, const char *arg)
{
    bool *flag = !strcmp(arg, "--poison")         ? &o->poison
                 : !strcmp(arg, "--validate")     ? &o->validate
                 : !strcmp(arg, "--timestamps")   ? &o->timestamps
                 : !strcmp(arg, "--list-devices") ? &o->list_devices
                 : !strcmp(arg, "--virtual-subgroups") ? &o->virtual_subgroups
                 : !strcmp(arg, "--help") || !strcmp(arg, "-h") ? &o->help
                                                                : NULL;
    if (flag)
        *flag = true;
    return flag != NULL;
}

/* argv[*i] as a valued option ("-Ifoo" and "-DX=1" included). 1 parsed, 0 not such an option, -1 bad value. */
static int parse_one_valued(Options *o, int argc, char **argv, int *i)
{
    for (size_t k = 0; k < sizeof valued_options / sizeof *valued_options; k++) {
        const char *name = valued_options[k];
        bool missing = false;
        const char *v = option_value(argc, argv, i, name, &missing);
        if (!v && name[1] != '-' && !strncmp(argv[*i], name, 2) && argv[*i][2])
            v = argv[*i] + 2;
        if (missing) {
            usage_error("%s needs a value", name);
            return -1;
        }
        if (v && !parse_valued(o, name, v)) {
            fprintf(stderr, "mtlrun: bad value '%s' for %s\n(mtlrun --help for usage)\n", v, name);
            return -1;
        }
        if (v)
            return 1;
    }
    return 0;
}

/* Parse the command line into O; false on a usage error (already printed). */
static bool parse_options(Options *o, int argc, char **argv)
{
    *o = (Options){.rtol = -1, .atol = -1, .repeat = 1};
    for (int i = 1; i < argc; i++) {
        int r = parse_one_valued(o, argc, argv, &i);
        if (r < 0)
            return false;
        if (r > 0 || parse_flag(o, argv[i]))
            continue;
        if (argv[i][0] == '-' || o->kernel) {
            usage_error(argv[i][0] == '-' ? "unknown option %s" : "more than one kernel file: %s", argv[i]);
            return false;
        }
        o->kernel = argv[i];
    }
    return true;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* Cross-option rules: a kernel, exactly one of --grid/--threadgroups, a --threadgroup (a spec has its own). */
static bool check_options(const Options *o)
{
    bool spec = o->kernel && has_suffix(o->kernel, ".json");
    if (!o->kernel)
        usage_error("%sno kernel file given", "");
    else if (spec && o->threadgroups_given)
        usage_error("%s: a kernel spec runs on a grid of threads (--grid), as MLX and Core AI dispatch", o->kernel);
    else if (!spec && (o->n_templates || o->has_init_value || o->n_transposes))
        usage_error("--template, --transpose and --init-value are for kernel specs (SPEC.json), not %s", o->kernel);
    else if (spec)
        return true;
    else if (o->grid_given == o->threadgroups_given)
        usage_error("%sgive exactly one of --grid (dispatchThreads) and --threadgroups (dispatchThreadgroups)", "");
    else if (!o->threadgroup_given)
        usage_error("%s--threadgroup X[,Y[,Z]] is required", "");
    else if (!has_suffix(o->kernel, ".metal") && !o->reflect)
        usage_error("%s is GLSL: give its reflection with --reflect FILE.json", o->kernel);
    else
        return true;
    return false;
}

/* Whole file as a NUL-terminated string: a regular file of at most 64 MiB (docs/limits.md); NULL with a message. */
static char *read_text(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block the open */
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    char *text = NULL;
    struct stat st;
    if (fd >= 0 && !f)
        close(fd);
    const char *why = !f || fstat(fileno(f), &st) ? strerror(errno)
                      : S_ISDIR(st.st_mode)       ? "it is a directory"
                      : !S_ISREG(st.st_mode)      ? "it is not a regular file"
                      : st.st_size > (64 << 20)   ? "it is larger than 64 MiB, the limit"
                                                  : NULL;
    if (!why && (!(text = calloc((size_t)st.st_size + 1, 1)) || fread(text, 1, (size_t)st.st_size, f) != (size_t)st.st_size))
        why = "read error";
    if (why) {
        fprintf(stderr, "mtlrun: error: cannot read %s: %s\n", path, why);
        free(text);
        text = NULL;
    }
    if (f)
        fclose(f);
    return text;
}

/* KERNEL.comp (or any GLSL) with --reflect FILE.json. */
static bool load_glsl_kernel(const Options *o, Kernel *k)
{
    char *json = read_text(o->reflect);
    k->glsl = read_text(o->kernel);
    k->glsl_name = strdup(o->kernel);
    if (json && k->glsl)
        k->refl = mtlrt_reflection_parse(json, o->entry, o->reflect);
    free(json);
    return k->refl != NULL;
}

#ifdef MTLRUN_HAVE_TRANSLATOR
/* The entry to run from a translation result: --entry, or the only one. */
static const M2gEntry *pick_translated_entry(const Options *o, const M2gResult *r)
{
    for (int i = 0; i < r->n_entries; i++)
        if (!o->entry || !strcmp(r->entries[i].name, o->entry))
            if (o->entry || r->n_entries == 1)
                return &r->entries[i];
    if (o->entry)
        fprintf(stderr, "mtlrun: error: %s has no kernel entry point named %s\n", o->kernel, o->entry);
    else
        fprintf(stderr, "mtlrun: error: %s has %d entry points; pick one with --entry\n", o->kernel, r->n_entries);
    return NULL;
}

/* KERNEL.metal: translate in process (only the asked entry) and take its GLSL and reflection. */
static bool load_metal_kernel(const Options *o, Kernel *k, const MtlrtContext *ctx)
{
    M2gOptions mo = {
        .include_dirs = o->includes,
        .defines = o->defines,
        .only_entry = o->entry,
        .diag = stderr,
        .subgroup_size = (int)(o->subgroup_size ? o->subgroup_size : mtlrt_context_simd_subgroup_size(ctx)),
        .virtual_subgroups = o->virtual_subgroups,
    };
    M2gResult *r = m2g_translate_file(o->kernel, &mo);
    const M2gEntry *e = NULL;
    if (!r) {
        fprintf(stderr, "mtlrun: error: out of memory translating %s\n", o->kernel);
        return false;
    }
    if (r->parse_failed || r->n_errors)
        fprintf(stderr, "mtlrun: error: translation of %s failed (%d errors)\n", o->kernel, r->n_errors);
    else if ((e = pick_translated_entry(o, r)) && (!e->glsl || !e->reflect_json))
        fprintf(stderr, "mtlrun: error: translation of %s in %s failed\n", e->name, o->kernel);
    else if (e) {
        size_t n = strlen(o->kernel) + strlen(e->name) + 8;
        k->glsl_name = malloc(n);
        if (k->glsl_name)
            snprintf(k->glsl_name, n, "%s:%s.comp", o->kernel, e->name);
        k->glsl = strdup(e->glsl);
        k->refl = mtlrt_reflection_parse(e->reflect_json, e->name, k->glsl_name);
    }
    m2g_result_free(r);
    return k->refl && k->glsl && k->glsl_name;
}
#else
static bool load_metal_kernel(const Options *o, Kernel *k, const MtlrtContext *ctx)
{
    (void)k;
    (void)ctx;
    fprintf(stderr, "mtlrun: error: this mtlrun was built without the translator; translate %s with mtl2glsl and "
                    "run KERNEL.comp --reflect KERNEL.json\n", o->kernel);
    return false;
}
#endif

#ifdef MTLRUN_HAVE_TRANSLATOR
/* SPEC.json: named --buffer arguments describe the call; the spec's buffers become preset inputs, its grid and
   threadgroup the dispatch. */
static bool load_spec_kernel(Options *o, Kernel *k, const MtlrtContext *ctx)
{
    int n_arrays = 0, kept = 0;
    for (int i = 0; i < o->n_inputs; i++) {
        if (!o->inputs[i].name || o->inputs[i].kind != SOURCE_ARRAY) {
            fprintf(stderr, "mtlrun: error: %s: give the call's arrays by name (--buffer NAME=FILE.npy or "
                            "NAME=DTYPE:SHAPE)\n", o->kernel);
            return false;
        }
        size_t n = strlen(o->inputs[i].name) + strlen(o->inputs[i].text) + 2;
        char *t = malloc(n);
        if (!t)
            return false;
        snprintf(t, n, "%s=%s", o->inputs[i].name, o->inputs[i].text);
        o->spec_arrays[n_arrays++] = t;
        free((char *)o->inputs[i].name);
    }
    MtlrunSpecArgs sa = {.arrays = o->spec_arrays, .templates = o->templates, .transposes = o->transposes,
                         .has_init_value = o->has_init_value,
                         .init_value = o->init_value, .poison = o->poison, .subgroup_size = o->subgroup_size,
                         .virtual_subgroups = o->virtual_subgroups, .includes = o->includes, .defines = o->defines};
    if (o->grid_given)
        memcpy(sa.grid, o->size, sizeof sa.grid);
    if (o->threadgroup_given)
        memcpy(sa.threadgroup, o->threadgroup, sizeof sa.threadgroup);
    o->n_inputs = 0;
    if (!mtlrun_spec_prepare(o->kernel, &sa, ctx, &k->spec))
        return false;
    for (int i = 0; i < k->spec.n_buffers; i++)
        o->inputs[kept++] = (Arg){.index = k->spec.index[i], .kind = SOURCE_PRESET, .text = o->kernel,
                                  .preset = &k->spec.arrays[i]};
    o->n_inputs = kept;
    memcpy(o->size, k->spec.grid, sizeof o->size);
    memcpy(o->threadgroup, k->spec.threadgroup, sizeof o->threadgroup);
    o->grid_given = true;
    k->glsl = k->spec.glsl, k->glsl_name = k->spec.glsl_name, k->refl = k->spec.refl;
    k->spec.glsl = k->spec.glsl_name = NULL, k->spec.refl = NULL;
    return true;
}
#else
static bool load_spec_kernel(Options *o, Kernel *k, const MtlrtContext *ctx)
{
    (void)k;
    (void)ctx;
    fprintf(stderr, "mtlrun: error: this mtlrun was built without the translator; it cannot run spec %s\n",
            o->kernel);
    return false;
}
#endif

static bool load_kernel(Options *o, Kernel *k, const MtlrtContext *ctx)
{
    if (has_suffix(o->kernel, ".json"))
        return load_spec_kernel(o, k, ctx);
    if (has_suffix(o->kernel, ".metal"))
        return load_metal_kernel(o, k, ctx);
    if (o->subgroup_size || o->virtual_subgroups) {
        fprintf(stderr, "mtlrun: error: --subgroup-size and --virtual-subgroups apply to .metal sources; %s is "
                        "already translated\n", o->kernel);
        return false;
    }
    return load_glsl_kernel(o, k);
}

static void kernel_free(Kernel *k)
{
    free(k->glsl);
    free(k->glsl_name);
    mtlrt_reflection_destroy(k->refl);
#ifdef MTLRUN_HAVE_TRANSLATOR
    mtlrun_spec_run_free(&k->spec);
#endif
}

static void print_param_list(const MtlrtReflection *r);

/* NAME=... arguments get the index of the kernel's parameter of that name. */
static bool resolve_names(Options *o, const MtlrtReflection *r)
{
    Arg *lists[] = {o->inputs, o->outs, o->checks};
    const int counts[] = {o->n_inputs, o->n_outs, o->n_checks};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < counts[l]; i++) {
            Arg *a = &lists[l][i];
            for (uint32_t p = 0; a->name && a->index == UINT32_MAX && p < r->n_params; p++)
                if (!strcmp(r->params[p].name, a->name))
                    a->index = r->params[p].index;
            if (a->name && a->index == UINT32_MAX) {
                fprintf(stderr, "mtlrun: error: kernel %s has no parameter named %s\n", r->entry, a->name);
                print_param_list(r);
                return false;
            }
        }
    return true;
}

static void free_names(Options *o)
{
    Arg *lists[] = {o->inputs, o->outs, o->checks};
    const int counts[] = {o->n_inputs, o->n_outs, o->n_checks};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < counts[l]; i++)
            free((char *)lists[l][i].name);
    for (int i = 0; o->spec_arrays[i]; i++)
        free((char *)o->spec_arrays[i]);
}

/* The input argument for parameter INDEX, or -1. */
static int find_input(const Options *o, uint32_t index)
{
    for (int i = 0; i < o->n_inputs; i++)
        if (o->inputs[i].index == index)
            return i;
    return -1;
}

/* Print "0 x, 1 y, 2 a" (the kernel's parameters) after a message. */
static void print_param_list(const MtlrtReflection *r)
{
    fprintf(stderr, "  kernel %s has:", r->entry);
    for (uint32_t i = 0; i < r->n_params; i++)
        fprintf(stderr, " %u (%s)%s", r->params[i].index, r->params[i].name, i + 1 < r->n_params ? "," : "\n");
    if (!r->n_params)
        fprintf(stderr, " no buffer parameters\n");
}

/* Every --buffer/--scalar/--bytes/--out/--check names a parameter; each input appears once. */
static bool check_indices(const Options *o, const MtlrtReflection *r)
{
    const Arg *lists[] = {o->inputs, o->outs, o->checks};
    const int counts[] = {o->n_inputs, o->n_outs, o->n_checks};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < counts[l]; i++) {
            const MtlrtParam *p = mtlrt_reflection_param(r, lists[l][i].index);
            if (!p || (l == 0 && find_input(o, lists[l][i].index) != i)) {
                fprintf(stderr, "mtlrun: error: %s for buffer %u\n", p ? "two inputs" : "there is no parameter",
                        lists[l][i].index);
                print_param_list(r);
                return false;
            }
            if (l > 0 && p->kind == MTLRT_PARAM_PUSH_CONSTANT) {
                fprintf(stderr, "mtlrun: error: buffer %u (%s) is passed as push constants; it cannot be read back\n",
                        p->index, p->name);
                return false;
            }
        }
    return true;
}

/* Load the array for input ARG of parameter P (npy, DTYPE:SHAPE, scalar or raw bytes) and check it fits P. */
static bool load_input(const Options *o, const Arg *arg, const MtlrtParam *p, MtlrtArray *a)
{
    bool ok;
    if (arg->kind == SOURCE_PRESET) {
        *a = *arg->preset;
        *arg->preset = (MtlrtArray){0};
        return mtlrt_param_accepts(p, a, arg->text);
    }
    if (arg->kind == SOURCE_SCALAR)
        ok = mtlrt_array_from_scalar(arg->text, a);
    else if (arg->kind == SOURCE_BYTES)
        return mtlrt_array_from_raw_file(arg->text, a) && mtlrt_param_accepts(&(MtlrtParam){
            .index = p->index, .name = p->name, .kind = p->kind, .size = p->size, .type = p->type,
            .scalar = "struct", .element_size = p->element_size, .address_space = p->address_space,
            .pointer = p->pointer}, a, arg->text);
    else if (has_suffix(arg->text, ".npy"))
        ok = mtlrt_npy_read(arg->text, a);
    else if ((ok = mtlrt_array_from_spec(arg->text, a)) && o->poison)
        mtlrt_array_poison(a);
    return ok && mtlrt_param_accepts(p, a, arg->text);
}

/* Each parameter of the kernel: its input loaded, then a buffer at its binding or bytes at its push offset. */
static bool bind_params(const Options *o, const MtlrtReflection *r, Run *run)
{
    for (uint32_t i = 0; i < r->n_params; i++) {
        const MtlrtParam *p = &r->params[i];
        int in = find_input(o, p->index);
        if (in < 0) {
            fprintf(stderr, "mtlrun: error: buffer %u (%s) of kernel %s is not given; use %s %u=...\n", p->index,
                    p->name, r->entry, p->kind == MTLRT_PARAM_STORAGE ? "--buffer" : "--scalar or --bytes", p->index);
            return false;
        }
        MtlrtArray *a = &run->arrays[in];
        if (!load_input(o, &o->inputs[in], p, a))
            return false;
        if (p->kind == MTLRT_PARAM_PUSH_CONSTANT) {
            if (p->offset + p->size > r->push_constant_size || p->offset + p->size > sizeof run->push) {
                fprintf(stderr, "mtlrun: error: buffer %u (%s): bytes %u..%u are outside the %u push-constant bytes\n",
                        p->index, p->name, p->offset, p->offset + p->size, r->push_constant_size);
                return false;
            }
            memcpy(run->push + p->offset, a->data, p->size);
        } else if (!(run->bindings[p->binding] = mtlrt_buffer_create(run->ctx, a->nbytes)) ||
                   !mtlrt_buffer_write(run->bindings[p->binding], a->data, a->nbytes)) {
            return false;
        }
    }
    return true;
}

/* Read the buffer of parameter INDEX back into its input array. */
static MtlrtArray *read_back(const Options *o, const MtlrtReflection *r, Run *run, uint32_t index)
{
    int in = find_input(o, index);
    MtlrtArray *a = &run->arrays[in];
    MtlrtBuffer *b = run->bindings[mtlrt_reflection_param(r, index)->binding];
    return mtlrt_buffer_read(b, a->data, a->nbytes) ? a : NULL;
}

/* --out: write each named buffer as .npy. */
static bool write_outputs(const Options *o, const MtlrtReflection *r, Run *run)
{
    for (int i = 0; i < o->n_outs; i++) {
        MtlrtArray *a = read_back(o, r, run, o->outs[i].index);
        if (!a || !mtlrt_npy_write(o->outs[i].text, a))
            return false;
    }
    return true;
}

/* --check: compare each named buffer with its reference; PASS/FAIL on stdout. False if any fails. */
static bool check_outputs(const Options *o, const MtlrtReflection *r, Run *run)
{
    bool all = true;
    MtlrtCompareOptions opt = {.rtol = o->rtol, .atol = o->atol, .max_report = 10};
    for (int i = 0; i < o->n_checks; i++) {
        const Arg *c = &o->checks[i];
        const MtlrtParam *p = mtlrt_reflection_param(r, c->index);
        MtlrtArray ref;
        MtlrtArray *out = read_back(o, r, run, c->index);
        if (!out || !mtlrt_npy_read(c->text, &ref))
            return false;
        MtlrtCompareResult res;
        bool pass = mtlrt_compare(out, &ref, &opt, stdout, &res);
        printf("%s: buffer %u (%s) vs %s: %llu elements, %llu mismatches, max abs err %g\n", pass ? "PASS" : "FAIL",
               c->index, p->name, c->text, (unsigned long long)res.count, (unsigned long long)res.mismatches,
               res.max_abs_err);
        mtlrt_array_free(&ref);
        all = all && pass;
    }
    return all;
}

static void print_stats(const MtlrtDispatchStats *s)
{
    if (!s->have_gpu_time)
        return;
    printf("gpu_time_ms: %.6f\n", s->gpu_ms_median);
    if (s->runs > 1)
        printf("gpu_time_ms_min: %.6f\ngpu_time_ms_mean: %.6f\nruns: %u\n", s->gpu_ms_min, s->gpu_ms_mean, s->runs);
}

/* --constant N=TYPE:VALUE: function constants as specialization constants. */
static bool set_constants(const Options *o, Run *run)
{
    for (int i = 0; i < o->n_constants; i++) {
        MtlrtArray a = {0};
        bool ok = mtlrt_array_from_scalar(o->constants[i].text, &a) &&
                  mtlrt_pipeline_set_function_constant(run->pipe, o->constants[i].index, &a);
        mtlrt_array_free(&a);
        if (!ok)
            return false;
    }
    return true;
}

/* Every --threadgroup-memory names a [[threadgroup(n)]] parameter of the kernel. */
static bool check_threadgroup_memory(const Options *o, const MtlrtReflection *r)
{
    for (uint32_t i = 0; i < 31; i++) {
        bool found = false;
        for (uint32_t j = 0; j < r->n_threadgroup_params; j++)
            found |= r->threadgroup_params[j].index == i;
        if (o->threadgroup_memory[i] && !found) {
            fprintf(stderr, "mtlrun: error: --threadgroup-memory %u: kernel %s has no [[threadgroup(%u)]] parameter\n", i,
                    r->entry, i);
            return false;
        }
    }
    return true;
}

/* Pipeline, parameters, dispatch, outputs. */
static bool execute(Options *o, const Kernel *k, Run *run)
{
    MtlrtDispatchStats stats;
    if (!resolve_names(o, k->refl) || !check_indices(o, k->refl) || !check_threadgroup_memory(o, k->refl) ||
        !(run->pipe = mtlrt_pipeline_create(run->ctx, k->glsl, k->glsl_name, k->refl)) ||
        !set_constants(o, run) || !bind_params(o, k->refl, run))
        return false;
    MtlrtDispatch d = {
        .style = o->grid_given ? MTLRT_DISPATCH_THREADS : MTLRT_DISPATCH_THREADGROUPS,
        .size = {o->size[0], o->size[1], o->size[2]},
        .threadgroup = {o->threadgroup[0], o->threadgroup[1], o->threadgroup[2]},
        .bindings = run->bindings,
        .n_bindings = 64,
        .push_data = run->push,
        .push_size = sizeof run->push,
        .repeat = o->repeat,
        .timestamps = o->timestamps,
    };
    memcpy(d.threadgroup_memory, o->threadgroup_memory, sizeof d.threadgroup_memory);
    if (!mtlrt_dispatch(run->pipe, &d, &stats))
        return false;
    print_stats(&stats);
    bool ok = write_outputs(o, k->refl, run);
    return check_outputs(o, k->refl, run) && ok;
}

/* Destroy what execute created; returns the validation message count seen. */
static uint32_t run_destroy(Run *run)
{
    for (int i = 0; i < 64; i++)
        mtlrt_buffer_destroy(run->bindings[i]);
    for (int i = 0; i < MAX_ARGS; i++)
        mtlrt_array_free(&run->arrays[i]);
    mtlrt_pipeline_destroy(run->pipe);
    uint32_t messages = run->ctx ? mtlrt_context_validation_messages(run->ctx) : 0;
    mtlrt_context_destroy(run->ctx);
    return messages;
}

int main(int argc, char **argv)
{
    Options o;
    Kernel k = {0};
    Run run = {0};
    mtlrt_set_diag(stderr, "mtlrun");
    int status = -1;
    if (!parse_options(&o, argc, argv))
        status = EXIT_USAGE;
    else if (o.help || argc == 1)
        fputs(usage_text, o.help ? stdout : stderr), status = o.help ? EXIT_OK : EXIT_USAGE;
    else if (o.list_devices)
        status = mtlrt_list_devices(stdout) ? EXIT_OK : EXIT_FAIL;
    else if (!check_options(&o))
        status = EXIT_USAGE;
    if (status >= 0) {
        free_names(&o);
        return status;
    }
    MtlrtContextOptions co = {.device = o.device, .validate = o.validate};
    bool ok = (run.ctx = mtlrt_context_create(&co)) && load_kernel(&o, &k, run.ctx) && execute(&o, &k, &run);
    uint32_t messages = run_destroy(&run);
    kernel_free(&k);
    free_names(&o);
    if (messages)
        fprintf(stderr, "mtlrun: error: %u validation message%s (--validate)\n", messages, messages > 1 ? "s" : "");
    return ok && !messages ? EXIT_OK : EXIT_FAIL;
}
