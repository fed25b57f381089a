/* main.c: the mtl2glsl command. Reads options, translates, writes each entry point's output. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

typedef enum EmitKind { EMIT_GLSL, EMIT_SPIRV, EMIT_REFLECT, EMIT_METAL, EMIT_C } EmitKind;

typedef struct Cli {
    const char *input;
    const char *output;
    const char *entry;
    bool list_entries;
    bool syntax_only;
    int metal_version; /* -std=metalX.Y; 0: the default */
    EmitKind emit;
    const char *includes[64];
    int n_includes;
    const char *defines[64];
    int n_defines;
    /* depfile (-MD -MF FILE -MT TARGET -MP) and --emit=c */
    const char *dep_file;
    const char *dep_targets[16];
    int n_dep_targets;
    bool dep_phony;
    const char *c_prefix;
    int subgroup_size;
    bool virtual_subgroups;
    bool check_bounds;
    bool push_words;
    bool fast_math; /* -ffast-math (default -fno-fast-math) */
    bool tensor_cores;
    bool mma_lanes;
    bool debug_info; /* -g: SPIR-V with names and source kept */
    const char *arrays[64], *templates[64], *transposes[64]; /* kernel specs: --array, --template, --transpose */
    int n_arrays, n_templates, n_transposes;
} Cli;

static const char usage_text[] =
    "usage: mtl2glsl [options] FILE.metal\n"
    "       mtl2glsl [options] -            (the Metal source on standard input, named stdin.metal in diagnostics)\n"
    "       mtl2glsl [options] SPEC.json   (a body-only kernel: MLX metal_kernel or Core AI form, docs/specs.md)\n"
    "Translate Metal Shading Language compute kernels to GLSL 450 compute shaders.\n"
    "\n"
    "  -o FILE            write the one translated entry point to FILE\n"
    "  -o DIR/            write ENTRY.comp (.spv, .json) for each entry point into DIR\n"
    "  --entry NAME       translate only the entry point NAME\n"
    "  --list-entries     print the entry points of FILE, one per line (no function body is compiled)\n"
    "  --syntax-only      compile FILE as the front end does (every body, every template instance) and\n"
    "                     report clang's errors; translate nothing\n"
    "  --emit=KIND        glsl (default), spirv (SPIR-V binary; needs -o), reflect (JSON) or\n"
    "                     c (-o FILE.c: FILE.c and FILE.h embed SPIR-V with a launch function per kernel)\n"
    "  -g                 with --emit=spirv: unoptimized SPIR-V that keeps every name and the GLSL source\n"
    "  --c-prefix NAME    prefix of the --emit=c names (default: the input file's name)\n"
    "  -I DIR             add DIR to the include search path\n"
    "  -D NAME[=VALUE]    define a preprocessor macro\n"
    "  -ffast-math        let the Vulkan compiler reassociate and contract floating-point arithmetic, as\n"
    "                     Metal's fast math does; the default, -fno-fast-math (MLX's build, PyTorch's\n"
    "                     MTLMathModeSafe), declares every float-holding value `precise`\n"
    "  -std=metalX.Y      the Metal language version the source sees as __METAL_VERSION__: metal3.0 (300),\n"
    "                     metal3.1 (310), metal3.2 (320, the default) or metal4.0 (400)\n"
    "  -MD                write a Make-syntax depfile of every file read (source, headers, prelude)\n"
    "  -MF FILE           the depfile's name (implies -MD; default: the output file + .d)\n"
    "  -MT TARGET         the depfile's target (default: the files written); may be repeated\n"
    "  -MP                add an empty rule per header, so that a deleted header does not stop make\n"
    "  --subgroup-size=N  build SIMD-group functions for a device whose subgroups are N wide: 32 (default,\n"
    "                     native), 64 or 128 (32-lane clusters), 4, 8 or 16 (32-lane groups emulated\n"
    "                     across subgroups through shared memory)\n"
    "  --virtual-subgroups  build the subgroup operations themselves from shared memory and barriers, so\n"
    "                     that any --subgroup-size runs on any device (for testing widths a device lacks)\n"
    "  --tensor-cores     run SIMD-group matrix products whose operands hold only half values (half\n"
    "                     matrices, float ones proven filled from half) on tensor cores (VK_NV_cooperative_matrix\n"
    "                     16x8x8, float accumulator; other products stay exact); native 32-wide subgroups\n"
    "                     only; lanes are renamed to the tensor cores' layout\n"
    "  --mma-lanes        rename the lanes as --tensor-cores does, products exact (tests the renaming)\n"
    "  --check-bounds     check every buffer and threadgroup-array index: the runtime reports the first\n"
    "                     out-of-range access of each with its source line (mtlrun --check-bounds)\n"
    "  --push-constant-words  read 8- and 16-bit `constant T&` scalars (uchar, short, half, bfloat, bool)\n"
    "                     from 32-bit push-constant words, for devices without storagePushConstant8/16\n"
    "  --array NAME=FILE.npy|DTYPE:SHAPE   (specs) an input or output of the call, e.g. x=float32:64x64\n"
    "  --template NAME=VALUE               (specs) an MLX template argument: float32, 4, true\n"
    "  --transpose NAME=P0,P1,...          (specs) input NAME is its data transposed (a strided view)\n"
    "  --emit=metal       (specs) the Metal source built around the body, not translated\n"
    "  Options that take a value accept both --opt VALUE and --opt=VALUE.\n"
    "  --help             show this help\n"
    "  --version          show the version and the prelude directory in use\n"
    "\n"
    "Exit status: 0 all entry points translated, 1 some failed (diagnostics on stderr), 2 usage error.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mtl2glsl: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'mtl2glsl --help'.\n");
    return 2;
}

/* ---- --emit=c and depfiles ---- */

static bool is_dir_output(const char *out);

/* --emit=c needs -o FILE.c; -MD needs a depfile name or an output to derive it from. */
static int check_emit_c_args(Cli *cli)
{
    size_t n = cli->output ? strlen(cli->output) : 0;
    if (cli->emit == EMIT_C && (n < 3 || strcmp(cli->output + n - 2, ".c")))
        return usage_error("--emit=c needs -o FILE.c (FILE.h is written beside it)%s", "");
    if (cli->dep_file && !*cli->dep_file && !cli->output)
        return usage_error("%s", "-MD without -o needs -MF FILE");
    if (cli->dep_file && !cli->output && !cli->n_dep_targets)
        return usage_error("%s", "a depfile of output on stdout needs -MT TARGET");
    return -1;
}

/* The C prefix of --emit=c: --c-prefix, else the input's file name up to its first '.', as a C identifier. */
static void c_prefix(const Cli *cli, char *out, size_t cap)
{
    const char *slash = strrchr(cli->input, '/');
    const char *base = cli->c_prefix ? cli->c_prefix : slash ? slash + 1 : cli->input;
    size_t n = 0;
    if (!isalpha((unsigned char)*base) && *base != '_')
        out[n++] = '_';
    for (const char *p = base; *p && n + 1 < cap && (cli->c_prefix || *p != '.'); p++)
        out[n++] = isalnum((unsigned char)*p) ? *p : '_';
    out[n] = 0;
}

/* --emit=c: FILE.c and FILE.h for every translated entry point. */
static int write_c_outputs(const Cli *cli, const M2gResult *r)
{
    for (int i = 0; i < r->n_entries; i++)
        if (!r->entries[i].glsl)
            return 1; /* diagnosed: no half-generated API */
    char prefix[256], *h_path = strdup(cli->output);
    c_prefix(cli, prefix, sizeof prefix);
    h_path[strlen(h_path) - 1] = 'h';
    bool ok = emit_c_files(r, cli->input, prefix, cli->output, h_path);
    free(h_path);
    return ok && !r->n_errors ? 0 : 1;
}

/* -MD: the depfile lists every file R read; its targets are -MT's, else the files written. */
static int write_depfile(const Cli *cli, const M2gResult *r)
{
    const char *targets[64];
    char *owned[64];
    int n = 0, n_owned = 0;
    for (int i = 0; i < cli->n_dep_targets; i++)
        targets[n++] = cli->dep_targets[i];
    if (!n && is_dir_output(cli->output) && cli->emit != EMIT_C) {
        const char *ext = cli->emit == EMIT_SPIRV ? "spv" : cli->emit == EMIT_REFLECT ? "json" : "comp";
        size_t len = strlen(cli->output);
        for (int i = 0; i < r->n_entries && n < 64; i++) {
            if (!r->entries[i].glsl)
                continue;
            size_t cap = len + strlen(r->entries[i].name) + 8;
            char *path = owned[n_owned++] = malloc(cap);
            snprintf(path, cap, "%s%s%s.%s", cli->output, cli->output[len - 1] == '/' ? "" : "/", r->entries[i].name,
                     ext);
            targets[n++] = path;
        }
    } else if (!n) {
        targets[n++] = cli->output;
    }
    char *dflt = NULL;
    const char *path = cli->dep_file;
    if (!*path) {
        dflt = malloc(strlen(cli->output) + 3);
        sprintf(dflt, "%s.d", cli->output);
        path = dflt;
    }
    bool ok = depfile_write(path, targets, n, (const char *const *)r->includes, r->n_includes, cli->dep_phony);
    free(dflt);
    for (int i = 0; i < n_owned; i++)
        free(owned[i]);
    return ok ? 0 : 1;
}

enum {
    OPT_ENTRY = 256, OPT_LIST_ENTRIES, OPT_SYNTAX_ONLY, OPT_EMIT, OPT_C_PREFIX, OPT_MD, OPT_MF, OPT_MT, OPT_MP, OPT_STD,
    OPT_SUBGROUP_SIZE, OPT_VIRTUAL_SUBGROUPS, OPT_ARRAY, OPT_TEMPLATE, OPT_TRANSPOSE, OPT_VERSION, OPT_CHECK_BOUNDS, OPT_PUSH_WORDS, OPT_FAST_MATH, OPT_NO_FAST_MATH,
    OPT_TENSOR_CORES, OPT_MMA_LANES,
};

/* Long options, read with getopt_long_only so that the compiler-style -MD, -MF FILE and -std=metal3.1 work beside
   --entry NAME / --entry=NAME; -o, -I and -D are short options (-Idir and -I dir both). */
static const struct option long_options[] = {
    {"entry", required_argument, NULL, OPT_ENTRY},
    {"list-entries", no_argument, NULL, OPT_LIST_ENTRIES},
    {"syntax-only", no_argument, NULL, OPT_SYNTAX_ONLY},
    {"emit", required_argument, NULL, OPT_EMIT},
    {"c-prefix", required_argument, NULL, OPT_C_PREFIX},
    {"MD", no_argument, NULL, OPT_MD},
    {"MF", required_argument, NULL, OPT_MF},
    {"MT", required_argument, NULL, OPT_MT},
    {"MP", no_argument, NULL, OPT_MP},
    {"std", required_argument, NULL, OPT_STD},
    {"subgroup-size", required_argument, NULL, OPT_SUBGROUP_SIZE},
    {"virtual-subgroups", no_argument, NULL, OPT_VIRTUAL_SUBGROUPS},
    {"tensor-cores", no_argument, NULL, OPT_TENSOR_CORES},
    {"mma-lanes", no_argument, NULL, OPT_MMA_LANES},
    {"array", required_argument, NULL, OPT_ARRAY},
    {"template", required_argument, NULL, OPT_TEMPLATE},
    {"transpose", required_argument, NULL, OPT_TRANSPOSE},
    {"version", no_argument, NULL, OPT_VERSION},
    {"check-bounds", no_argument, NULL, OPT_CHECK_BOUNDS},
    {"push-constant-words", no_argument, NULL, OPT_PUSH_WORDS},
    {"ffast-math", no_argument, NULL, OPT_FAST_MATH},
    {"fno-fast-math", no_argument, NULL, OPT_NO_FAST_MATH},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* --emit=KIND; false when KIND is unknown. */
static bool parse_emit(Cli *cli, const char *k)
{
    static const struct { const char *name; EmitKind kind; } kinds[] = {
        {"glsl", EMIT_GLSL}, {"spirv", EMIT_SPIRV}, {"reflect", EMIT_REFLECT}, {"metal", EMIT_METAL}, {"c", EMIT_C}};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(k, kinds[i].name)) {
            cli->emit = kinds[i].kind;
            return true;
        }
    return false;
}

/* -std=metalX.Y; false when it is not one of them. */
static bool parse_std(Cli *cli, const char *v)
{
    static const struct { const char *name; int version; } stds[] = {
        {"metal3.0", 300}, {"metal3.1", 310}, {"metal3.2", 320}, {"metal4.0", 400}};
    cli->metal_version = 0;
    for (size_t k = 0; k < sizeof stds / sizeof *stds; k++)
        if (!strcmp(v, stds[k].name))
            cli->metal_version = stds[k].version;
    return cli->metal_version != 0;
}

/* Append V to a list of at most 63 (then ignored, as before). */
static void add_to(const char **list, int *n, const char *v)
{
    if (*n < 63)
        list[(*n)++] = v;
}

/* One option C with value V; -1 to go on, else the exit status. */
static int parse_option(Cli *cli, int c, const char *v)
{
    char *end;
    switch (c) {
    case 'h':
        fputs(usage_text, stdout);
        return 0;
    case OPT_VERSION:
        printf("mtl2glsl %s\nprelude: %s\n", MTL2GLSL_VERSION, m2g_default_grammar_dir());
        return 0;
    case 'o': cli->output = v; break;
    case 'g': cli->debug_info = true; break;
    case 'I': add_to(cli->includes, &cli->n_includes, v); break;
    case 'D': add_to(cli->defines, &cli->n_defines, v); break;
    case OPT_ENTRY: cli->entry = v; break;
    case OPT_LIST_ENTRIES: cli->list_entries = true; break;
    case OPT_SYNTAX_ONLY: cli->syntax_only = true; break;
    case OPT_C_PREFIX: cli->c_prefix = v; break;
    case OPT_MD: cli->dep_file = cli->dep_file ? cli->dep_file : ""; break;
    case OPT_MF: cli->dep_file = v; break;
    case OPT_MT:
        if (cli->n_dep_targets < 16)
            cli->dep_targets[cli->n_dep_targets++] = v;
        break;
    case OPT_MP: cli->dep_phony = true; break;
    case OPT_VIRTUAL_SUBGROUPS: cli->virtual_subgroups = true; break;
    case OPT_TENSOR_CORES: cli->tensor_cores = true; break;
    case OPT_MMA_LANES: cli->mma_lanes = true; break;
    case OPT_CHECK_BOUNDS: cli->check_bounds = true; break;
    case OPT_PUSH_WORDS: cli->push_words = true; break;
    case OPT_FAST_MATH: cli->fast_math = true; break;
    case OPT_NO_FAST_MATH: cli->fast_math = false; break;
    case OPT_ARRAY: add_to(cli->arrays, &cli->n_arrays, v); break;
    case OPT_TEMPLATE: add_to(cli->templates, &cli->n_templates, v); break;
    case OPT_TRANSPOSE: add_to(cli->transposes, &cli->n_transposes, v); break;
    case OPT_STD:
        if (!parse_std(cli, v))
            return usage_error("-std must be metal3.0, metal3.1, metal3.2 or metal4.0, not '%s'", v);
        break;
    case OPT_EMIT:
        if (!parse_emit(cli, v))
            return usage_error("unknown --emit kind '%s' (expected glsl, spirv, reflect, c or metal)", v);
        break;
    case OPT_SUBGROUP_SIZE: {
        long n = strtol(v, &end, 10);
        if (*end || (n != 4 && n != 8 && n != 16 && n != 32 && n != 64 && n != 128))
            return usage_error("--subgroup-size must be 4, 8, 16, 32, 64 or 128, not '%s'", v);
        cli->subgroup_size = (int)n;
        break;
    }
    }
    return -1;
}

/* Parses argv into CLI (getopt_long_only: both --opt VALUE and --opt=VALUE); returns -1 to go on, else the exit
   status. The input may be `-`: standard input. */
static int parse_args(Cli *cli, int argc, char **argv)
{
    int c;
    opterr = 0;
    while ((c = getopt_long_only(argc, argv, "-:hgo:I:D:", long_options, NULL)) != -1) {
        int status = -1;
        if (c == 1 && cli->input)
            return usage_error("more than one input file ('%s')", optarg);
        if (c == 1)
            cli->input = optarg;
        else if (c == '?')
            return usage_error("unknown option '%s'", argv[optind - 1]);
        else if (c == ':')
            return usage_error("option '%s' needs an argument", argv[optind - 1]);
        else
            status = parse_option(cli, c, optarg);
        if (status >= 0)
            return status;
    }
    if (!cli->input)
        return usage_error("%s", "no input file");
    if (!strcmp(cli->input, "-") && cli->emit == EMIT_C && !cli->c_prefix)
        return usage_error("%s", "--emit=c from standard input needs --c-prefix NAME");
    return check_emit_c_args(cli);
}

static bool is_dir_output(const char *out)
{
    size_t n = strlen(out);
    struct stat st;
    return (n && out[n - 1] == '/') || (stat(out, &st) == 0 && S_ISDIR(st.st_mode));
}

static bool write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, n, f) == n;
    ok = (!f || fclose(f) == 0) && ok; /* a full disk (-o /dev/full) shows at the close */
    if (!ok)
        fprintf(stderr, "mtl2glsl: error: cannot write '%s': %s\n", path, strerror(errno));
    return ok;
}

/* Writes one entry's output to PATH, or to stdout when PATH is NULL. */
static bool write_entry(const Cli *cli, const M2gEntry *e, const char *path)
{
    if (cli->emit == EMIT_SPIRV) {
        char *err;
        size_t n;
        unsigned *words = spirv_compile_debug(e->glsl, e->name, &n, &err, cli->debug_info);
        if (!words) {
            fprintf(stderr, "%s: error: internal error: generated GLSL for '%s' did not compile:\n%s", cli->input, e->name, err);
            free(err);
            return false;
        }
        bool ok = path ? write_file(path, words, n) : fwrite(words, 1, n, stdout) == n;
        free(words);
        return ok;
    }
    const char *text = cli->emit == EMIT_REFLECT ? e->reflect_json : e->glsl;
    if (!path) {
        fputs(text, stdout);
        fputs("\n", stdout);
        return true;
    }
    size_t len = strlen(text);
    char *buf = malloc(len + 2);
    memcpy(buf, text, len);
    buf[len] = '\n';
    bool ok = write_file(path, buf, len + (len && text[len - 1] == '\n' ? 0 : 1));
    free(buf);
    return ok;
}

static int write_outputs(const Cli *cli, M2gResult *r)
{
    int translated = 0, failed = 0;
    for (int i = 0; i < r->n_entries; i++)
        r->entries[i].glsl ? translated++ : failed++;
    const char *ext = cli->emit == EMIT_SPIRV ? "spv" : cli->emit == EMIT_REFLECT ? "json" : "comp";
    bool dir = cli->output && is_dir_output(cli->output);
    if (cli->output && !dir && translated + failed > 1)
        return usage_error("-o FILE needs exactly one entry point; use --entry NAME or -o DIR/ (%s)", cli->input);
    if (!cli->output && cli->emit == EMIT_SPIRV && translated > 1)
        return usage_error("%s", "--emit=spirv with several entry points needs -o DIR/");
    if (dir)
        mkdir(cli->output, 0777);
    bool io_ok = true;
    if (!cli->output && cli->emit == EMIT_REFLECT)
        fputs("[\n", stdout);
    int written = 0;
    for (int i = 0; i < r->n_entries; i++) {
        M2gEntry *e = &r->entries[i];
        if (!e->glsl)
            continue;
        if (dir && names_entry_problem(e->name)) { /* parse.c refuses such names: never a path outside DIR */
            fprintf(stderr, "mtl2glsl: error: internal error: entry point name '%s' %s\n", e->name,
                    names_entry_problem(e->name));
            io_ok = false;
        } else if (dir) {
            size_t n = strlen(cli->output) + strlen(e->name) + 8;
            char *path = malloc(n);
            snprintf(path, n, "%s%s%s.%s", cli->output, cli->output[strlen(cli->output) - 1] == '/' ? "" : "/", e->name, ext);
            io_ok &= write_entry(cli, e, path);
            free(path);
        } else if (cli->output) {
            io_ok &= write_entry(cli, e, cli->output);
        } else {
            if (cli->emit == EMIT_REFLECT && written)
                fputs(",\n", stdout);
            io_ok &= write_entry(cli, e, NULL);
        }
        written++;
    }
    if (!cli->output && cli->emit == EMIT_REFLECT)
        fputs("]\n", stdout);
    return failed || r->n_errors || !io_ok ? 1 : 0;
}

/* All of standard input as a string; NULL with a message. */
static char *read_stdin(void)
{
    size_t n = 0, cap = 1 << 16;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + n, 1, cap - n - 1, stdin)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *grown = realloc(text, cap *= 2);
            if (!grown)
                free(text);
            text = grown;
        }
    }
    if (!text || ferror(stdin)) {
        fprintf(stderr, "mtl2glsl: error: cannot read standard input: %s\n", text ? strerror(errno) : "out of memory");
        free(text);
        return NULL;
    }
    text[n] = 0;
    return text;
}

int main(int argc, char **argv)
{
    Cli cli = {0};
    int status = parse_args(&cli, argc, argv);
    if (status >= 0)
        return status;
    M2gOptions opt = {.include_dirs = cli.includes, .defines = cli.defines, .only_entry = cli.entry,
                      .subgroup_size = cli.subgroup_size, .virtual_subgroups = cli.virtual_subgroups,
                      .metal_version = cli.metal_version, .list_only = cli.list_entries,
                      .syntax_only = cli.syntax_only, .check_bounds = cli.check_bounds,
                      .push_constant_words = cli.push_words, .fast_math = cli.fast_math,
                      .tensor_cores = cli.tensor_cores, .mma_lanes = cli.mma_lanes};
    M2gSpec *spec = NULL;
    if (m2g_is_spec_path(cli.input)) {
        M2gSpecArgs sa = {.arrays = cli.arrays, .templates = cli.templates, .transposes = cli.transposes};
        if (!(spec = m2g_spec_load(cli.input, &sa, stderr)))
            return 1;
        if (cli.emit == EMIT_METAL) {
            fputs(spec->source, stdout);
            m2g_spec_free(spec);
            return 0;
        }
    } else if (cli.emit == EMIT_METAL || cli.n_arrays || cli.n_templates || cli.n_transposes) {
        return usage_error("--emit=metal, --array, --template and --transpose are for kernel specs (SPEC.json), "
                           "not '%s'", cli.input);
    }
    char *stdin_text = NULL;
    if (!spec && !strcmp(cli.input, "-") && !(stdin_text = read_stdin()))
        return 1;
    const char *stdin_source[] = {"stdin.metal", stdin_text, NULL}; /* quoted by diagnostics */
    if (stdin_text)
        opt.sources = stdin_source;
    M2gResult *r = spec        ? m2g_translate_spec(spec, &opt)
                   : stdin_text ? m2g_translate_source("stdin.metal", stdin_text, &opt)
                                : m2g_translate_file(cli.input, &opt);
    free(stdin_text);
    m2g_spec_free(spec);
    if (!r)
        return 1;
    if (r->parse_failed) {
        m2g_result_free(r);
        return 1;
    }
    if (cli.entry && r->n_entries == 0) {
        fprintf(stderr, "%s: error: no kernel named '%s'\n", cli.input, cli.entry);
        m2g_result_free(r);
        return 1;
    }
    if (cli.syntax_only) {
        status = r->n_errors ? 1 : 0;
    } else if (cli.list_entries) {
        for (int i = 0; i < r->n_entries; i++)
            printf("%s\n", r->entries[i].name);
        status = r->n_errors ? 1 : 0;
    } else if (cli.emit == EMIT_C) {
        status = write_c_outputs(&cli, r);
    } else {
        status = write_outputs(&cli, r);
    }
    if (status == 0 && cli.dep_file)
        status = write_depfile(&cli, r);
    m2g_result_free(r);
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "mtl2glsl: error: cannot write to standard output: %s\n", strerror(errno));
        status = status ? status : 1;
    }
    return status;
}
