/* api.c: m2g_translate_file, the stages in order: parse, then per kernel lower, emit, reflect. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#ifndef MTL2GLSL_GRAMMAR_DIR
#define MTL2GLSL_GRAMMAR_DIR "grammar"
#endif
#ifndef MTL2GLSL_INSTALL_GRAMMAR_DIR
#define MTL2GLSL_INSTALL_GRAMMAR_DIR MTL2GLSL_GRAMMAR_DIR
#endif

/* An installed program finds its prelude beside it: BINDIR/../share/mtl2glsl/grammar (from /proc/self/exe), so a
   moved prefix keeps working. NULL when there is none (a build tree). */
static const char *installed_grammar_dir(void)
{
    static char dir[4096];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 64);
    if (n <= 0)
        return NULL;
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash)
        return NULL;
    strcpy(slash, "/../share/mtl2glsl/grammar");
    char probe[4096 + 16];
    snprintf(probe, sizeof probe, "%s/metal_stdlib", dir);
    return access(probe, R_OK) == 0 ? dir : NULL;
}

/* Env MTL2GLSL_GRAMMAR_DIR, else the installed prelude beside the program, else the source tree's, else the
   configured install prefix's. */
const char *m2g_default_grammar_dir(void)
{
    const char *env = getenv("MTL2GLSL_GRAMMAR_DIR");
    if (env && *env)
        return env;
    const char *installed = installed_grammar_dir();
    if (installed)
        return installed;
    if (access(MTL2GLSL_GRAMMAR_DIR "/metal_stdlib", R_OK) == 0)
        return MTL2GLSL_GRAMMAR_DIR;
    return MTL2GLSL_INSTALL_GRAMMAR_DIR;
}

/* Line LINE (1-based) of TEXT, up to 200 characters, into BUF. */
static const char *text_line(const char *text, int line, char *buf, size_t size)
{
    for (int l = 1; l < line && text; l++) {
        text = strchr(text, '\n');
        text = text ? text + 1 : NULL;
    }
    if (!text)
        return "";
    size_t n = strcspn(text, "\n");
    n = n < size - 1 ? n : size - 1;
    memcpy(buf, text, n);
    buf[n] = 0;
    return buf;
}

/* Every shader written is compiled (glslang) and validated (spirv-val) before it is given out: invalid GLSL is a
   defect of the translator, reported as an error at the kernel with the compiler's first errors (warnings left
   out) and the GLSL line of the first, never output. */
static bool check_glsl(Program *prog, Func *k, const char *glsl)
{
    char *msg = spirv_check(&prog->glsl_checker, glsl, k->name);
    if (!msg)
        return true;
    StrBuf out = {0};
    int shown = 0, first_line = 0;
    for (char *line = msg; *line && shown < 3;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        bool is_error = memmem(line, n, "error", 5) != NULL || !strstr(msg, "error");
        if (is_error && n) {
            char *colon = memchr(line, ':', n);
            if (!first_line && colon && !strncmp(line, k->name, (size_t)(colon - line)))
                first_line = atoi(colon + 1);
            sb_printf(&out, "%s%.*s", shown ? "\n" : "", (int)n, line);
            shown++;
        }
        line += n + (nl != NULL);
    }
    char buf[208];
    if (first_line > 0)
        sb_printf(&out, "\n  the GLSL line %d: %s", first_line, text_line(glsl, first_line, buf, sizeof buf));
    diag_error(prog->diag, k->loc, "internal error: the GLSL written for kernel '%s' does not compile or validate "
               "(a defect of mtl2glsl, please report it):\n%s", k->name, out.data ? out.data : msg);
    const char *dump = getenv("MTL2GLSL_DUMP_INVALID"); /* for developers: the shader, numbered, on stderr */
    for (int line = 1; dump && *dump == '1'; line++) {
        const char *t = text_line(glsl, line, buf, sizeof buf);
        if (!*t && !strstr(glsl, "\n"))
            break;
        fprintf(prog->diag->out, "%5d  %s\n", line, t);
        const char *p = glsl;
        for (int l = 0; l < line && p; l++)
            p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
        if (!p || !*p)
            break;
    }
    sb_free(&out);
    free(msg);
    return false;
}

M2gResult *m2g_translate_file(const char *path, const M2gOptions *opt)
{
    return m2g_translate_source(path, NULL, opt);
}

/* The entry points whose translation failed, each with the first error it met. */
typedef struct Failed {
    int len, cap;
    struct FailedEntry {
        const char *name; /* the entry's own copy (M2gEntry.name) */
        char *error;      /* "file:line:col: error: message" */
        SrcLoc loc;
    } *items;
} Failed;

static void failed_push(Failed *f, const char *name, const char *error, SrcLoc loc)
{
    if (f->len == f->cap) {
        int cap = f->cap ? 2 * f->cap : 16;
        struct FailedEntry *items = realloc(f->items, sizeof *items * (size_t)cap);
        if (!items)
            return;
        f->items = items, f->cap = cap;
    }
    char *copy = strdup(error);
    if (copy)
        f->items[f->len++] = (struct FailedEntry){name, copy, loc};
}

static void failed_free(Failed *f)
{
    for (int i = 0; i < f->len; i++)
        free(f->items[i].error);
    free(f->items);
}

/* After the entry points: each error that stopped some of them names them, as failure isolation does for clang's
   errors (the first six; the same note, which tests/corpus/corpus.py reads). */
static void report_failed(Diag *d, Failed *f)
{
    for (int i = 0; i < f->len; i++) {
        bool earlier = false;
        for (int j = 0; j < i && !earlier; j++)
            earlier = !strcmp(f->items[j].error, f->items[i].error);
        if (earlier || !f->items[i].loc.file)
            continue;
        int n = 0;
        StrBuf b = {0};
        for (int j = i; j < f->len; j++)
            if (!strcmp(f->items[j].error, f->items[i].error) && n++ < 6)
                sb_printf(&b, "%s'%s'", n > 1 ? ", " : "", f->items[j].name);
        if (n > 6)
            sb_printf(&b, " and %d more", n - 6);
        diag_note(d, f->items[i].loc, "the error above stops %d entry point%s: %s", n, n == 1 ? "" : "s", b.data);
        free(b.data);
    }
}

M2gResult *m2g_translate_source(const char *path, const char *text, const M2gOptions *opt)
{
    M2gResult *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    Diag diag = {.out = opt && opt->diag ? opt->diag : stderr, .sources = opt ? opt->sources : NULL};
    Program prog = {.arena = arena_create(), .diag = &diag, .path = path};
    Failed failed = {0};
    prog.subgroup_size = opt && opt->subgroup_size ? opt->subgroup_size : 32;
    prog.virtual_subgroups = opt && opt->virtual_subgroups;
    prog.line_markers = opt && opt->check_bounds;
    prog.push_words = opt && opt->push_constant_words;
    prog.fast_math = opt && opt->fast_math;
    prog.tensor_cores = opt && opt->tensor_cores;
    prog.mma_lanes = opt && opt->mma_lanes;
    if (prog.subgroup_size < 4 || prog.subgroup_size > 128 || (prog.subgroup_size & (prog.subgroup_size - 1))) {
        diag_error(&diag, (SrcLoc){0}, "subgroup size %d is not one of 4, 8, 16, 32, 64, 128", prog.subgroup_size);
        r->n_errors = diag.n_errors;
        r->parse_failed = true;
        arena_destroy(prog.arena);
        return r;
    }
    ParseOptions po = {
        .path = path,
        .text = text,
        .grammar_dir = opt && opt->grammar_dir ? opt->grammar_dir : m2g_default_grammar_dir(),
        .include_dirs = opt ? opt->include_dirs : NULL,
        .defines = opt ? opt->defines : NULL,
        .sources = opt ? opt->sources : NULL,
        .metal_version = opt && opt->metal_version ? opt->metal_version : M2G_DEFAULT_METAL_VERSION,
        .list_only = opt && opt->list_only,
        .syntax_only = opt && opt->syntax_only,
    };
    if (!parse_program(&prog, &po)) {
        r->parse_failed = true;
        goto done;
    }
    r->entries = calloc((size_t)prog.kernels.len + 1, sizeof *r->entries);
    for (int i = 0; i < prog.kernels.len; i++) {
        Func *k = prog.kernels.items[i];
        if (opt && opt->only_entry && strcmp(opt->only_entry, k->name))
            continue;
        M2gEntry *e = &r->entries[r->n_entries++];
        e->name = strdup(k->name);
        if (opt && (opt->list_only || opt->syntax_only))
            continue;
        Lowered L = {0};
        int before = diag.n_errors;
        if (lower_kernel(&prog, k, &L)) {
            char *glsl = emit_glsl(&prog, &L);
            if (diag.n_errors == before) {
                e->glsl = glsl;
                e->reflect_json = reflect_json(&prog, &L);
                if (prog.line_markers && !bounds_instrument(&prog, (char **)&e->glsl, (char **)&e->reflect_json)) {
                    free((char *)e->glsl), free((char *)e->reflect_json);
                    e->glsl = e->reflect_json = NULL;
                }
                if (e->glsl && !check_glsl(&prog, k, e->glsl)) { /* the shader as given out, instrumented or not */
                    free((char *)e->glsl), free((char *)e->reflect_json);
                    e->glsl = e->reflect_json = NULL;
                }
            } else {
                free(glsl);
            }
        }
        if (!e->glsl) { /* its first error: of a function it reaches that did not convert, else of its lowering */
            int cause = L.cause ? L.cause : diag.n_errors > before ? before + 1 : 0;
            if (cause > 0 && cause <= diag.n_recorded)
                failed_push(&failed, e->name, diag.errors[cause - 1].msg, diag.errors[cause - 1].loc);
        }
        halfexact_restore(&L); /* before anything else is lowered */
        pv_free(&L.funcs);
        pv_free(&L.structs);
        pv_free(&L.globals);
        pv_free(&L.helper_types);
        pv_free(&L.tg_vars);
        pv_free(&L.sync_helpers);
        pv_free(&L.tc_products);
        pv_free(&L.ptr_specs);
        pv_free(&L.ptr_views);
        pv_free(&L.ptr_ref_types);
        pv_free(&L.ptr_addressed);
        pv_free(&L.ptr_mem_uses);
    }
    if (!(opt && opt->only_entry))
        report_failed(&diag, &failed);
done:
    failed_free(&failed);
    diag_errors_free(&diag);
    r->includes = calloc((size_t)prog.includes.len + 1, sizeof *r->includes);
    for (int i = 0; r->includes && i < prog.includes.len; i++)
        r->includes[r->n_includes++] = strdup(prog.includes.items[i]);
    r->n_errors = diag.n_errors;
    spirv_check_done(&prog.glsl_checker);
    pv_free(&prog.kernels);
    pv_free(&prog.structs);
    pv_free(&prog.includes);
    arena_destroy(prog.arena);
    diag_release(&diag);
    return r;
}

void m2g_result_free(M2gResult *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_entries; i++) {
        free((char *)r->entries[i].name);
        free((char *)r->entries[i].glsl);
        free((char *)r->entries[i].reflect_json);
    }
    free(r->entries);
    for (int i = 0; i < r->n_includes; i++)
        free(r->includes[i]);
    free(r->includes);
    free(r);
}
