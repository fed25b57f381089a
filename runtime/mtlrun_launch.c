/* mtlrun_launch.c: one kernel launch of mtlrun made ready to dispatch: the kernel loaded (a .metal source or kernel
   spec translated in process, or GLSL with its reflection), its pipeline and function constants, and each
   [[buffer(n)]] parameter's data checked against the reflection and bound (scalars typed from it). */
#include "mtlrun.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
static bool load_glsl_kernel(const Launch *l, Kernel *k)
{
    char *json = read_text(l->reflect);
    k->glsl = read_text(l->kernel);
    k->glsl_name = strdup(l->kernel);
    if (json && k->glsl)
        k->refl = mtlrt_reflection_parse(json, l->entry, l->reflect);
    free(json);
    return k->refl != NULL;
}

#ifdef MTLRUN_HAVE_TRANSLATOR
/* The entry to run from a translation result: --entry, or the only one. */
static const M2gEntry *pick_translated_entry(const Launch *l, const M2gResult *r)
{
    for (int i = 0; i < r->n_entries; i++)
        if (!l->entry || !strcmp(r->entries[i].name, l->entry))
            if (l->entry || r->n_entries == 1)
                return &r->entries[i];
    if (l->entry)
        fprintf(stderr, "mtlrun: error: %s has no kernel entry point named %s\n", l->kernel, l->entry);
    else
        fprintf(stderr, "mtlrun: error: %s has %d entry points; pick one with --entry\n", l->kernel, r->n_entries);
    return NULL;
}

/* M2gOptions.tensor_cores for launch L on CTX (--tensor-cores, mtlrun_tensor_cores); false after a message when
   --tensor-cores=on cannot be honoured. */
static bool use_tensor_cores(const Launch *l, MtlrtContext *ctx, bool *use)
{
    const char *why;
    if (mtlrun_tensor_cores(ctx, (MtlrunTensorCores)l->tensor_cores, l->subgroup_size, l->virtual_subgroups, use, &why))
        return true;
    fprintf(stderr, "mtlrun: error: --tensor-cores=on: %s\n", why);
    return false;
}

/* KERNEL.metal: translate in process (only the asked entry) and take its GLSL and reflection. */
static bool load_metal_kernel(const Options *o, const Launch *l, Kernel *k, MtlrtContext *ctx)
{
    bool tensor_cores;
    if (!use_tensor_cores(l, ctx, &tensor_cores))
        return false;
    M2gOptions mo = {
        .include_dirs = l->includes,
        .defines = l->defines,
        .only_entry = l->entry,
        .diag = stderr,
        .subgroup_size = (int)(l->subgroup_size ? l->subgroup_size : mtlrt_context_simd_subgroup_size(ctx)),
        .virtual_subgroups = l->virtual_subgroups,
        .check_bounds = o->check_bounds,
        .push_constant_words = l->push_constant_words || mtlrt_context_push_constant_words(ctx),
        .fast_math = l->fast_math,
        .tensor_cores = tensor_cores,
        .mma_lanes = l->mma_lanes,
    };
    M2gResult *r = m2g_translate_file(l->kernel, &mo);
    const M2gEntry *e = NULL;
    if (!r) {
        fprintf(stderr, "mtlrun: error: out of memory translating %s\n", l->kernel);
        return false;
    }
    /* Errors in parts of the file the entry point does not use (another kernel's helper) stop only the entry points
       that use them: the entry point runs when it was translated (as mtl2glsl -o DIR/ writes it) */
    if (r->parse_failed || (r->n_errors && !l->entry))
        fprintf(stderr, "mtlrun: error: translation of %s failed (%d errors)\n", l->kernel, r->n_errors);
    else if ((e = pick_translated_entry(l, r)) && (!e->glsl || !e->reflect_json))
        fprintf(stderr, "mtlrun: error: translation of %s in %s failed%s\n", e->name, l->kernel, r->n_errors ? " (errors above)" : "");
    else if (e) {
        if (r->n_errors)
            fprintf(stderr, "mtlrun: warning: %s: %d errors above are in parts of the file that %s does not use; it "
                    "was translated\n", l->kernel, r->n_errors, e->name);
        size_t n = strlen(l->kernel) + strlen(e->name) + 8;
        k->glsl_name = malloc(n);
        if (k->glsl_name)
            snprintf(k->glsl_name, n, "%s:%s.comp", l->kernel, e->name);
        k->glsl = strdup(e->glsl);
        k->refl = mtlrt_reflection_parse(e->reflect_json, e->name, k->glsl_name);
    }
    m2g_result_free(r);
    return k->refl && k->glsl && k->glsl_name;
}

/* SPEC.json: named --buffer arguments describe the call; the spec's buffers become preset inputs, its grid and
   threadgroup the dispatch. */
static bool load_spec_kernel(const Options *o, Launch *l, Kernel *k, MtlrtContext *ctx)
{
    int n_arrays = 0, kept = 0;
    bool tensor_cores;
    if (!use_tensor_cores(l, ctx, &tensor_cores))
        return false;
    if (o->check_bounds) {
        fprintf(stderr, "mtlrun: error: --check-bounds is for .metal sources, not kernel specs (%s)\n", l->kernel);
        return false;
    }
    for (int i = 0; i < l->n_inputs; i++) {
        if (!l->inputs[i].name || l->inputs[i].kind != SOURCE_ARRAY) {
            fprintf(stderr, "mtlrun: error: %s: give the call's arrays by name (--buffer NAME=FILE.npy or "
                            "NAME=DTYPE:SHAPE)\n", l->kernel);
            return false;
        }
        size_t n = strlen(l->inputs[i].name) + strlen(l->inputs[i].text) + 2;
        char *t = malloc(n);
        if (!t)
            return false;
        snprintf(t, n, "%s=%s", l->inputs[i].name, l->inputs[i].text);
        l->spec_arrays[n_arrays++] = t;
        free(l->inputs[i].name);
        l->inputs[i].name = NULL;
    }
    MtlrunSpecArgs sa = {.arrays = l->spec_arrays, .templates = l->templates, .transposes = l->transposes,
                         .has_init_value = l->has_init_value, .init_value = l->init_value, .poison = o->poison,
                         .subgroup_size = l->subgroup_size, .virtual_subgroups = l->virtual_subgroups,
                         .includes = l->includes, .defines = l->defines, .tensor_cores = tensor_cores,
                         .mma_lanes = l->mma_lanes};
    if (l->grid_given)
        memcpy(sa.grid, l->size, sizeof sa.grid);
    if (l->threadgroup_given)
        memcpy(sa.threadgroup, l->threadgroup, sizeof sa.threadgroup);
    l->n_inputs = 0;
    if (!mtlrun_spec_prepare(l->kernel, &sa, ctx, &k->spec))
        return false;
    for (int i = 0; i < k->spec.n_buffers; i++)
        l->inputs[kept++] = (Arg){.index = k->spec.index[i], .kind = SOURCE_PRESET, .text = l->kernel,
                                  .preset = &k->spec.arrays[i]};
    l->n_inputs = kept;
    memcpy(l->size, k->spec.grid, sizeof l->size);
    memcpy(l->threadgroup, k->spec.threadgroup, sizeof l->threadgroup);
    l->grid_given = true;
    k->glsl = k->spec.glsl, k->glsl_name = k->spec.glsl_name, k->refl = k->spec.refl;
    k->spec.glsl = k->spec.glsl_name = NULL, k->spec.refl = NULL;
    return true;
}
#else
static bool load_metal_kernel(const Options *o, const Launch *l, Kernel *k, MtlrtContext *ctx)
{
    (void)o, (void)k, (void)ctx;
    fprintf(stderr, "mtlrun: error: this mtlrun was built without the translator; translate %s with mtl2glsl and "
                    "run KERNEL.comp --reflect KERNEL.json\n", l->kernel);
    return false;
}

static bool load_spec_kernel(const Options *o, Launch *l, Kernel *k, MtlrtContext *ctx)
{
    (void)o, (void)k, (void)ctx;
    fprintf(stderr, "mtlrun: error: this mtlrun was built without the translator; it cannot run spec %s\n",
            l->kernel);
    return false;
}
#endif

static bool load_kernel(const Options *o, Launch *l, Kernel *k, MtlrtContext *ctx)
{
    if (mtlrun_has_suffix(l->kernel, ".json"))
        return load_spec_kernel(o, l, k, ctx);
    if (mtlrun_has_suffix(l->kernel, ".metal"))
        return load_metal_kernel(o, l, k, ctx);
    if (l->subgroup_size || l->virtual_subgroups || l->push_constant_words || l->fast_math || o->check_bounds ||
        l->mma_lanes || (l->tensor_cores_given && l->tensor_cores)) {
        fprintf(stderr, "mtlrun: error: --subgroup-size, --virtual-subgroups, --push-constant-words, --fast-math, --tensor-cores, "
                        "--mma-lanes and --check-bounds apply to .metal sources; %s is already translated (mtl2glsl "
                        "--check-bounds makes a bounds-checked one)\n",
                l->kernel);
        return false;
    }
    return load_glsl_kernel(l, k);
}

/* -v: how the kernel's SIMD-groups were built (its reflection's simd object). */
static void print_simd_path(const Kernel *k)
{
    const MtlrtReflection *r = k->refl;
    if (!r->subgroup_size)
        fprintf(stderr, "mtlrun: %s: no SIMD-group functions\n", r->entry);
    else
        fprintf(stderr, "mtlrun: %s: SIMD-groups on %u-wide %s subgroups, lanes %s, SIMD-group matrix products %s\n",
                r->entry, r->subgroup_size, r->virtual_subgroups ? "virtual" : "device", r->mma_lanes ? "mma" : "metal",
                r->tensor_cores ? "on tensor cores" : "exact (if any)");
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

/* Print "0 x, 1 y, 2 a" (the kernel's parameters) after a message. */
void mtlrun_print_params(const MtlrtReflection *r)
{
    fprintf(stderr, "  kernel %s has:", r->entry);
    for (uint32_t i = 0; i < r->n_params; i++)
        fprintf(stderr, " %u (%s)%s", r->params[i].index, r->params[i].name, i + 1 < r->n_params ? "," : "\n");
    if (!r->n_params)
        fprintf(stderr, " no buffer parameters\n");
}

int mtlrun_find_input(const Launch *l, uint32_t index)
{
    for (int i = 0; i < l->n_inputs; i++)
        if (l->inputs[i].index == index)
            return i;
    return -1;
}

/* NAME=... inputs and constants get the index of the kernel's parameter or function constant of that name; every
   input names a parameter, once. */
static bool resolve_inputs(Launch *l, const MtlrtReflection *r)
{
    for (int i = 0; i < l->n_inputs; i++) {
        Arg *a = &l->inputs[i];
        for (uint32_t p = 0; a->name && a->index == UINT32_MAX && p < r->n_params; p++)
            if (!strcmp(r->params[p].name, a->name))
                a->index = r->params[p].index;
        if (a->name && a->index == UINT32_MAX) {
            fprintf(stderr, "mtlrun: error: kernel %s has no parameter named %s\n", r->entry, a->name);
            mtlrun_print_params(r);
            return false;
        }
        if (!mtlrt_reflection_param(r, a->index) || mtlrun_find_input(l, a->index) != i) {
            fprintf(stderr, "mtlrun: error: %s for buffer %u\n",
                    mtlrt_reflection_param(r, a->index) ? "two inputs" : "there is no parameter", a->index);
            mtlrun_print_params(r);
            return false;
        }
    }
    for (int i = 0; i < l->n_constants; i++) {
        Arg *a = &l->constants[i];
        for (uint32_t f = 0; a->name && a->index == UINT32_MAX && f < r->n_function_constants; f++)
            if (!strcmp(r->function_constants[f].name, a->name))
                a->index = r->function_constants[f].index;
        if (a->name && a->index == UINT32_MAX) {
            fprintf(stderr, "mtlrun: error: kernel %s has no function constant named %s\n", r->entry, a->name);
            return false;
        }
    }
    return true;
}

/* The dtype of parameter P's elements when they are one scalar of a known type (NONE for vectors and structs). */
static MtlrtDtype scalar_dtype(const MtlrtParam *p)
{
    MtlrtDtype d = mtlrt_dtype_from_name(p->scalar);
    return d != MTLRT_DTYPE_NONE && mtlrt_dtype_size(d) == p->element_size ? d : MTLRT_DTYPE_NONE;
}

/* --scalar / --constant TEXT as a value of dtype WANT (named WHAT in messages): "VALUE" read in WANT, or
   "TYPE:VALUE" read in TYPE and converted exactly. */
static bool typed_value(const char *text, MtlrtDtype want, const char *what, MtlrtArray *a)
{
    MtlrtArray given;
    bool ok;
    if (!strchr(text, ':')) {
        ok = mtlrt_array_from_value(text, want, a);
    } else {
        ok = mtlrt_array_from_scalar(text, &given) && mtlrt_array_convert_exact(&given, want, a);
        mtlrt_array_free(&given);
    }
    if (!ok)
        fprintf(stderr, "  (%s is %s, given as %s)\n", what, mtlrt_dtype_name(want), text);
    return ok;
}

bool mtlrun_load_array(const char *text, SourceKind kind, bool poison, MtlrtArray *a)
{
    if (kind == SOURCE_SCALAR)
        return mtlrt_array_from_scalar(text, a);
    if (kind == SOURCE_BYTES)
        return mtlrt_array_from_raw_file(text, a);
    if (mtlrun_has_suffix(text, ".npy"))
        return mtlrt_npy_read(text, a);
    bool ok = mtlrt_array_from_spec(text, a);
    if (ok && poison)
        mtlrt_array_poison(a);
    return ok;
}

/* Load the array for input ARG of parameter P (npy, DTYPE:SHAPE, scalar or raw bytes) and check it fits P. */
static bool load_input(const Options *o, const Arg *arg, const MtlrtParam *p, MtlrtArray *a)
{
    char what[160];
    snprintf(what, sizeof what, "buffer %u (%s)", p->index, p->name);
    if (arg->kind == SOURCE_PRESET) {
        *a = *arg->preset;
        *arg->preset = (MtlrtArray){0};
        return mtlrt_param_accepts(p, a, arg->text);
    }
    if (arg->kind == SOURCE_SCALAR && scalar_dtype(p) != MTLRT_DTYPE_NONE)
        return typed_value(arg->text, scalar_dtype(p), what, a) && mtlrt_param_accepts(p, a, arg->text);
    if (arg->kind == SOURCE_SCALAR && !strchr(arg->text, ':')) {
        fprintf(stderr, "mtlrun: error: %s is `%s %s%s` (%u bytes): give it as --bytes %u=FILE, or TYPE:VALUE\n",
                what, p->address_space, p->type, p->pointer ? "*" : "&", p->element_size, p->index);
        return false;
    }
    if (arg->kind == SOURCE_BYTES)
        return mtlrt_array_from_raw_file(arg->text, a) && mtlrt_param_accepts(&(MtlrtParam){
            .index = p->index, .name = p->name, .kind = p->kind, .size = p->size, .type = p->type,
            .scalar = "struct", .element_size = p->element_size, .address_space = p->address_space,
            .pointer = p->pointer}, a, arg->text);
    return mtlrun_load_array(arg->text, arg->kind, o->poison, a) && mtlrt_param_accepts(p, a, arg->text);
}

/* Whether input ARG is a DTYPE:SHAPE array of zeros (not poisoned): a new buffer holds that already. */
static bool zeros(const Options *o, const Arg *arg)
{
    return arg->kind == SOURCE_ARRAY && !o->poison && !mtlrun_has_suffix(arg->text, ".npy");
}

/* The shared buffer named NAME, or -1. */
static int find_shared(const Shared *s, const char *name)
{
    for (int i = 0; s && i < s->n; i++)
        if (!strcmp(s->names[i], name))
            return i;
    return -1;
}

/* Each parameter of the kernel: its input loaded (or a shared buffer), then a buffer at its binding or bytes at
   its push offset. */
static bool bind_params(const Options *o, const Launch *l, const MtlrtReflection *r, MtlrtContext *ctx,
                        Shared *shared, Prepared *p)
{
    for (uint32_t i = 0; i < r->n_params; i++) {
        const MtlrtParam *param = &r->params[i];
        int in = mtlrun_find_input(l, param->index);
        if (in < 0 && param->function_constant)
            continue; /* exists only under a function constant: the runtime checks that it is not true */
        if (in < 0) {
            fprintf(stderr, "mtlrun: error: buffer %u (%s) of kernel %s is not given; use %s %u=...\n", param->index,
                    param->name, r->entry, param->kind == MTLRT_PARAM_STORAGE ? "--buffer" : "--scalar or --bytes",
                    param->index);
            return false;
        }
        int s = l->inputs[in].kind == SOURCE_ARRAY ? find_shared(shared, l->inputs[in].text) : -1;
        if (s >= 0) {
            if (param->kind != MTLRT_PARAM_STORAGE) {
                fprintf(stderr, "mtlrun: error: buffer %u (%s) is passed as push constants; shared buffer %s cannot "
                                "back it\n", param->index, param->name, shared->names[s]);
                return false;
            }
            if (!mtlrt_param_accepts(param, &shared->arrays[s], shared->names[s]))
                return false;
            p->bindings[param->binding] = shared->buffers[s];
            p->shared[param->binding] = true;
            continue;
        }
        MtlrtArray *a = &p->arrays[in];
        if (!load_input(o, &l->inputs[in], param, a))
            return false;
        if (param->kind == MTLRT_PARAM_PUSH_CONSTANT) {
            if (param->offset + param->size > r->push_constant_size || param->offset + param->size > sizeof p->push) {
                fprintf(stderr, "mtlrun: error: buffer %u (%s): bytes %u..%u are outside the %u push-constant bytes\n",
                        param->index, param->name, param->offset, param->offset + param->size, r->push_constant_size);
                return false;
            }
            memcpy(p->push + param->offset, a->data, param->size);
        } else if (!(p->bindings[param->binding] = mtlrt_buffer_create(ctx, a->nbytes)) ||
                   (!zeros(o, &l->inputs[in]) && !mtlrt_buffer_write(p->bindings[param->binding], a->data, a->nbytes))) {
            return false;
        }
    }
    return true;
}

/* --constant N=[TYPE:]VALUE: function constants, typed from the reflection. */
static bool set_constants(const Launch *l, const MtlrtReflection *r, MtlrtPipeline *pipe)
{
    for (int i = 0; i < l->n_constants; i++) {
        const Arg *c = &l->constants[i];
        const MtlrtFunctionConstant *fc = NULL;
        for (uint32_t f = 0; f < r->n_function_constants; f++)
            if (r->function_constants[f].index == c->index)
                fc = &r->function_constants[f];
        MtlrtArray a = {0};
        char what[160];
        snprintf(what, sizeof what, "function constant %u (%s %s)", c->index, fc ? fc->type : "",
                 fc ? fc->name : "");
        bool ok = fc ? typed_value(c->text, mtlrt_dtype_from_name(fc->type), what, &a)
                     : mtlrt_array_from_value("0", MTLRT_DTYPE_I32, &a); /* the call below says it is unknown */
        ok = ok && mtlrt_pipeline_set_function_constant(pipe, c->index, &a);
        mtlrt_array_free(&a);
        if (!ok)
            return false;
    }
    return true;
}

/* Every --threadgroup-memory names a [[threadgroup(n)]] parameter of the kernel. */
static bool check_threadgroup_memory(const Launch *l, const MtlrtReflection *r)
{
    for (uint32_t i = 0; i < 31; i++) {
        bool found = false;
        for (uint32_t j = 0; j < r->n_threadgroup_params; j++)
            found |= r->threadgroup_params[j].index == i;
        if (l->threadgroup_memory[i] && !found) {
            fprintf(stderr, "mtlrun: error: --threadgroup-memory %u: kernel %s has no [[threadgroup(%u)]] parameter\n",
                    i, r->entry, i);
            return false;
        }
    }
    return true;
}

bool mtlrun_prepare(const Options *o, Launch *l, MtlrtContext *ctx, Shared *shared, Prepared *p)
{
    if (!load_kernel(o, l, &p->k, ctx))
        return false;
    if (o->verbose)
        print_simd_path(&p->k);
    if (!resolve_inputs(l, p->k.refl) || !check_threadgroup_memory(l, p->k.refl) ||
        !(p->pipe = mtlrt_pipeline_create(ctx, p->k.glsl, p->k.glsl_name, p->k.refl)) ||
        !set_constants(l, p->k.refl, p->pipe) || !bind_params(o, l, p->k.refl, ctx, shared, p))
        return false;
    p->d = (MtlrtDispatch){
        .style = l->grid_given ? MTLRT_DISPATCH_THREADS : MTLRT_DISPATCH_THREADGROUPS,
        .size = {l->size[0], l->size[1], l->size[2]},
        .threadgroup = {l->threadgroup[0], l->threadgroup[1], l->threadgroup[2]},
        .bindings = p->bindings,
        .n_bindings = 64,
        .push_data = p->push,
        .push_size = sizeof p->push,
    };
    memcpy(p->d.threadgroup_memory, l->threadgroup_memory, sizeof p->d.threadgroup_memory);
    return true;
}

void mtlrun_prepared_free(Prepared *p)
{
    for (int i = 0; i < 64; i++)
        if (!p->shared[i])
            mtlrt_buffer_destroy(p->bindings[i]);
    for (int i = 0; i < MAX_ARGS; i++)
        mtlrt_array_free(&p->arrays[i]);
    mtlrt_pipeline_destroy(p->pipe);
    kernel_free(&p->k);
    memset(p, 0, sizeof *p);
}

bool mtlrun_check_array(const Options *o, const MtlrtArray *out, const char *what, const char *ref_path)
{
    MtlrtCompareOptions opt = {.rtol = o->rtol, .atol = o->atol, .max_report = 10};
    MtlrtArray ref;
    if (!mtlrt_npy_read(ref_path, &ref))
        return false;
    MtlrtCompareResult res;
    bool pass = mtlrt_compare(out, &ref, &opt, stdout, &res);
    printf("%s: %s vs %s: %llu elements, %llu mismatches, max abs err %g\n", pass ? "PASS" : "FAIL", what, ref_path,
           (unsigned long long)res.count, (unsigned long long)res.mismatches, res.max_abs_err);
    mtlrt_array_free(&ref);
    return pass;
}
