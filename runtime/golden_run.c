/* golden_run.c: run one golden test (golden.h) on a new Vulkan context: translate the kernel for the device, make
   every buffer (files, values, generators; outputs poisoned), dispatch with Metal's semantics, and compare each
   output with its golden. Written on the public APIs: mtlrt.h, mtl2glsl.h, and mtlrun_spec.h for kernel specs. */
#include "golden.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mtl2glsl.h"
#include "mtlrun_spec.h"

#define MAX_PARAMS 64

/* What a run creates, freed by run_free. Arrays are per reflection parameter (refl->params order). */
typedef struct Run {
    const GoldenTest *t;
    const GoldenRunOptions *opt;
    FILE *report;
    MtlrtContext *ctx;
    char *glsl, *glsl_name, *reflect_json;
    MtlrtReflection *refl;
    MtlrunSpecRun spec;
    MtlrtPipeline *pipe;
    uint32_t size[3], threadgroup[3];
    bool threadgroups;
    MtlrtArray arrays[MAX_PARAMS];
    GoldenType types[MAX_PARAMS];
    MtlrtBuffer *bindings[64];
    uint8_t push[256];
    bool skip; /* the device cannot run the kernel */
} Run;

static void run_free(Run *r)
{
    for (int i = 0; i < 64; i++)
        mtlrt_buffer_destroy(r->bindings[i]);
    for (int i = 0; i < MAX_PARAMS; i++)
        mtlrt_array_free(&r->arrays[i]);
    mtlrt_pipeline_destroy(r->pipe);
    mtlrt_reflection_destroy(r->refl);
    mtlrun_spec_run_free(&r->spec);
    free(r->glsl), free(r->glsl_name), free(r->reflect_json);
}

/* Does key KEY ("3" or a name) name parameter P? */
static bool key_names(const char *key, const MtlrtParam *p)
{
    char *end;
    unsigned long idx = strtoul(key, &end, 10);
    return (end != key && !*end) ? idx == p->index : !strcmp(key, p->name);
}

static void print_params(const Run *r)
{
    fprintf(r->report, "  kernel %s has:", r->refl->entry);
    for (uint32_t i = 0; i < r->refl->n_params; i++)
        fprintf(r->report, " %u (%s)%s", r->refl->params[i].index, r->refl->params[i].name,
                i + 1 < r->refl->n_params ? "," : "");
    fprintf(r->report, "%s\n", r->refl->n_params ? "" : " no buffer parameters");
}

/* Every buffer and output key names a parameter, each at most once. */
static bool check_keys(Run *r)
{
    for (int l = 0; l < 2; l++) {
        int n = l ? r->t->n_outputs : r->t->n_buffers;
        for (int i = 0; i < n; i++) {
            const char *key = l ? r->t->outputs[i].key : r->t->buffers[i].key;
            int found = 0;
            for (uint32_t p = 0; p < r->refl->n_params; p++)
                found += key_names(key, &r->refl->params[p]);
            for (int j = 0; j < i; j++)
                for (uint32_t p = 0; p < r->refl->n_params; p++)
                    if (key_names(key, &r->refl->params[p]) &&
                        key_names(l ? r->t->outputs[j].key : r->t->buffers[j].key, &r->refl->params[p]))
                        found = -1;
            if (found != 1) {
                fprintf(r->report, "%s: error: %s.%s: %s\n", r->t->path, l ? "outputs" : "buffers", key,
                        found < 0 ? "names a parameter another entry names too" : "the kernel has no such parameter");
                print_params(r);
                return false;
            }
        }
    }
    return true;
}

static const GoldenBuffer *buffer_for(const Run *r, const MtlrtParam *p)
{
    for (int i = 0; i < r->t->n_buffers; i++)
        if (key_names(r->t->buffers[i].key, p))
            return &r->t->buffers[i];
    return NULL;
}

static const GoldenOutput *output_for(const Run *r, const MtlrtParam *p)
{
    for (int i = 0; i < r->t->n_outputs; i++)
        if (key_names(r->t->outputs[i].key, p))
            return &r->t->outputs[i];
    return NULL;
}

/* The source with Metal's standard library included, as torch's compile_shader has it built in. */
static char *source_text(const GoldenTest *t)
{
    if (strstr(t->source, "metal_stdlib"))
        return strdup(t->source);
    const char *prefix = "#include <metal_stdlib>\n#line 1\n";
    char *s = malloc(strlen(prefix) + strlen(t->source) + 1);
    if (s)
        strcat(strcpy(s, prefix), t->source);
    return s;
}

/* The entry to run: the file's "entry", or the only one translated. */
static const M2gEntry *pick_entry(Run *r, const M2gResult *res, const char *name)
{
    for (int i = 0; i < res->n_entries; i++)
        if ((r->t->entry && !strcmp(res->entries[i].name, r->t->entry)) || (!r->t->entry && res->n_entries == 1))
            return &res->entries[i];
    if (r->t->entry)
        fprintf(r->report, "%s: error: kernel.entry: %s has no kernel named %s\n", r->t->path, name, r->t->entry);
    else {
        fprintf(r->report, "%s: error: kernel.entry: %s has %d entry points; name one:", r->t->path, name,
                res->n_entries);
        for (int i = 0; i < res->n_entries; i++)
            fprintf(r->report, " %s", res->entries[i].name);
        fprintf(r->report, "\n");
    }
    return NULL;
}

static uint32_t subgroup_size(const Run *r)
{
    return r->opt->subgroup_size ? r->opt->subgroup_size
           : r->t->subgroup_size ? r->t->subgroup_size
                                 : mtlrt_context_simd_subgroup_size(r->ctx);
}

/* M2gOptions.tensor_cores for the test (--tensor-cores, mtlrun_tensor_cores); false after a message when
   --tensor-cores=on cannot be honoured. */
static bool use_tensor_cores(Run *r, bool *use)
{
    const char *why;
    uint32_t forced = r->opt->subgroup_size ? r->opt->subgroup_size : r->t->subgroup_size;
    if (mtlrun_tensor_cores(r->ctx, (MtlrunTensorCores)r->opt->tensor_cores, forced, r->opt->virtual_subgroups, use,
                            &why))
        return true;
    fprintf(r->report, "error: --tensor-cores=on: %s\n", why);
    return false;
}

/* A .metal file or inline source: translate (the one entry) for the device; keep GLSL and reflection. */
static bool load_source_kernel(Run *r)
{
    const GoldenTest *t = r->t;
    bool tensor_cores;
    if (!use_tensor_cores(r, &tensor_cores))
        return false;
    M2gOptions mo = {.include_dirs = (const char *const *)t->include_dirs,
                     .defines = (const char *const *)t->defines,
                     .only_entry = t->entry,
                     .diag = r->report,
                     .subgroup_size = (int)subgroup_size(r),
                     .virtual_subgroups = r->opt->virtual_subgroups,
                     .push_constant_words = mtlrt_context_push_constant_words(r->ctx),
                     .tensor_cores = tensor_cores,
                     .mma_lanes = r->opt->mma_lanes};
    char name[4096];
    snprintf(name, sizeof name, "%s(kernel.text)", t->path);
    char *text = t->kind == GOLDEN_KERNEL_TEXT ? source_text(t) : NULL;
    M2gResult *res = t->kind == GOLDEN_KERNEL_TEXT ? (text ? m2g_translate_source(name, text, &mo) : NULL)
                                                   : m2g_translate_file(t->source, &mo);
    const char *shown = t->kind == GOLDEN_KERNEL_TEXT ? name : t->source;
    const M2gEntry *e = NULL;
    free(text);
    if (!res)
        fprintf(r->report, "error: out of memory translating %s\n", shown);
    else if (res->parse_failed || res->n_errors)
        fprintf(r->report, "error: translation of %s failed (%d errors)\n", shown, res->n_errors);
    else if ((e = pick_entry(r, res, shown)) && (!e->glsl || !e->reflect_json))
        fprintf(r->report, "error: translation of %s in %s failed\n", e->name, shown);
    else if (e) {
        size_t n = strlen(shown) + strlen(e->name) + 8;
        if ((r->glsl_name = malloc(n)))
            snprintf(r->glsl_name, n, "%s:%s.comp", shown, e->name);
        r->glsl = strdup(e->glsl);
        r->reflect_json = strdup(e->reflect_json);
        r->refl = mtlrt_reflection_parse(e->reflect_json, e->name, r->glsl_name ? r->glsl_name : shown);
    }
    m2g_result_free(res);
    return r->glsl && r->glsl_name && r->reflect_json && r->refl;
}

/* "NAME=DTYPE:D0xD1" for a spec's input or output of given dtype and shape. */
static char *array_arg(const GoldenBuffer *b)
{
    char text[512];
    int n = snprintf(text, sizeof text, "%s=%s:", b->key, golden_type_name(b->type));
    for (int i = 0; i < b->ndim && n < (int)sizeof text; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "%s%llu", i ? "x" : "", (unsigned long long)b->shape[i]);
    return strdup(text);
}

/* A kernel spec: the spec code builds MLX's or Core AI's source and every buffer of the call; the test's buffers
   are the call's arrays by name (files as they are, generated ones as DTYPE:SHAPE and filled after). */
static bool load_spec_kernel(Run *r)
{
    const GoldenTest *t = r->t;
    char *arrays[MAX_PARAMS + 1] = {0};
    bool tensor_cores = false;
    bool ok = use_tensor_cores(r, &tensor_cores);
    for (int i = 0; ok && i < t->n_buffers; i++) {
        const GoldenBuffer *b = &t->buffers[i];
        if (b->data == GOLDEN_DATA_VALUE || b->data == GOLDEN_DATA_BYTES || b->type.bfloat ||
            (b->data != GOLDEN_DATA_NPY && b->ndim < 0)) {
            fprintf(r->report,
                    "%s: error: buffers.%s: a kernel spec's arrays are .npy files or dtype and shape "
                    "(with a generator or none)%s\n",
                    t->path, b->key, b->type.bfloat ? "; bfloat16 is not supported in specs yet" : "");
            ok = false;
        } else if (!(arrays[i] =
                         b->data == GOLDEN_DATA_NPY ? malloc(strlen(b->key) + strlen(b->path) + 2) : array_arg(b)))
            ok = false;
        else if (b->data == GOLDEN_DATA_NPY)
            sprintf(arrays[i], "%s=%s", b->key, b->path);
    }
    if (t->has_dispatch && t->threadgroups) {
        fprintf(r->report,
                "%s: error: dispatch.threadgroups: a kernel spec runs on a grid of threads (\"threads\"), "
                "as MLX and Core AI dispatch\n",
                t->path);
        ok = false;
    }
    MtlrunSpecArgs sa = {.arrays = (const char *const *)arrays,
                         .templates = (const char *const *)t->templates,
                         .poison = true,
                         .subgroup_size = subgroup_size(r),
                         .virtual_subgroups = r->opt->virtual_subgroups,
                         .includes = (const char *const *)t->include_dirs,
                         .defines = (const char *const *)t->defines,
                         .tensor_cores = tensor_cores,
                         .mma_lanes = r->opt->mma_lanes};
    if (t->has_dispatch) {
        memcpy(sa.grid, t->size, sizeof sa.grid);
        memcpy(sa.threadgroup, t->threadgroup, sizeof sa.threadgroup);
    }
    fflush(r->report);
    ok = ok && mtlrun_spec_prepare(t->source, &sa, r->ctx, &r->spec);
    for (int i = 0; i < MAX_PARAMS; i++)
        free(arrays[i]);
    if (!ok)
        return false;
    r->glsl = r->spec.glsl, r->glsl_name = r->spec.glsl_name, r->refl = r->spec.refl;
    r->spec.glsl = r->spec.glsl_name = NULL, r->spec.refl = NULL;
    memcpy(r->size, r->spec.grid, sizeof r->size);
    memcpy(r->threadgroup, r->spec.threadgroup, sizeof r->threadgroup);
    return true;
}

/* Parameter P's data from a spec's prepared buffers (taken over); generated inputs are filled here. */
static bool spec_buffer(Run *r, uint32_t i, const GoldenBuffer *b)
{
    const MtlrtParam *p = &r->refl->params[i];
    for (int s = 0; s < r->spec.n_buffers; s++)
        if (r->spec.index[s] == p->index) {
            r->arrays[i] = r->spec.arrays[s];
            r->spec.arrays[s] = (MtlrtArray){0};
            if (b && b->data == GOLDEN_DATA_GENERATE)
                golden_generate(b, &r->arrays[i], false);
            return true;
        }
    fprintf(r->report, "error: buffer %u (%s) of spec %s was not built\n", p->index, p->name, r->t->source);
    return false;
}

/* Fill an output buffer with NaN (floats, bfloat16 included) or 0xA5 bytes, so that elements the kernel never
   writes cannot match a golden. */
static void poison(MtlrtArray *a, bool bfloat)
{
    mtlrt_array_poison(a);
    for (uint64_t i = 0; bfloat && i < a->count; i++)
        ((uint16_t *)a->data)[i] = 0x7fc1;
}

/* An output-only buffer: dtype and shape from the file, else from its golden; poisoned. */
static bool output_buffer(Run *r, const MtlrtParam *p, const GoldenBuffer *b, const GoldenOutput *o, MtlrtArray *a,
                          GoldenType *type)
{
    if (b && b->ndim >= 0 && b->type.dtype != MTLRT_DTYPE_NONE) {
        if (!mtlrt_array_alloc(a, b->type.dtype, b->ndim, b->shape))
            return false;
    } else if (o) {
        MtlrtArray g;
        if (access(o->golden, R_OK) != 0) {
            fprintf(r->report,
                    "%s: error: buffers.%s: give its dtype and shape (its golden %s is not there to "
                    "take them from)\n",
                    r->t->path, o->key, o->golden_text);
            return false;
        }
        if (!mtlrt_npy_read(o->golden, &g))
            return false;
        *a = g;
    } else {
        fprintf(r->report, "%s: error: buffer %u (%s) of kernel %s is not given: add buffers.%s (or .%u)\n", r->t->path,
                p->index, p->name, r->refl->entry, p->name, p->index);
        return false;
    }
    if (o && o->type.dtype != MTLRT_DTYPE_NONE)
        *type = o->type;
    poison(a, type->bfloat);
    return true;
}

/* Parameter I's data as the test gives it, checked against the parameter's type. */
static bool param_data(Run *r, uint32_t i)
{
    const MtlrtParam *p = &r->refl->params[i];
    const GoldenBuffer *b = buffer_for(r, p);
    const GoldenOutput *o = output_for(r, p);
    MtlrtArray *a = &r->arrays[i];
    GoldenType *type = &r->types[i];
    char what[300];
    snprintf(what, sizeof what, "buffers.%s", b ? b->key : p->name);
    *type =
        b && b->type.dtype != MTLRT_DTYPE_NONE ? b->type : (GoldenType){MTLRT_DTYPE_NONE, !strcmp(p->scalar, "bfloat")};
    if (o && o->type.dtype != MTLRT_DTYPE_NONE)
        *type = o->type;
    if (r->t->kind == GOLDEN_KERNEL_SPEC) {
        if (!spec_buffer(r, i, b))
            return false;
    } else if (!b || b->data == GOLDEN_DATA_NONE) {
        if (!output_buffer(r, p, b, o, a, type))
            return false;
    } else if (b->data == GOLDEN_DATA_NPY) {
        if (!mtlrt_npy_read(b->path, a))
            return false;
        if (b->type.dtype != MTLRT_DTYPE_NONE && a->dtype != b->type.dtype) {
            fprintf(r->report, "%s: error: %s: %s holds %s, the file says %s%s\n", r->t->path, what, b->path,
                    mtlrt_dtype_name(a->dtype), golden_type_name(b->type), b->type.bfloat ? " (as uint16 bits)" : "");
            return false;
        }
    } else if (b->data == GOLDEN_DATA_BYTES) {
        MtlrtParam raw = *p; /* bytes back any type, structs included; only their size is checked */
        raw.scalar = "struct";
        type->dtype = MTLRT_DTYPE_U8;
        return mtlrt_array_from_raw_file(b->path, a) && mtlrt_param_accepts(&raw, a, b->path);
    } else if (b->data == GOLDEN_DATA_VALUE) {
        const char *scalar = b->type.dtype == MTLRT_DTYPE_NONE ? p->scalar
                             : b->type.bfloat                  ? "bfloat"
                                                               : mtlrt_dtype_name(b->type.dtype);
        if (!golden_pack_values(b->values, b->n_values, p->type, scalar, what, a, r->report))
            return false;
    } else {
        uint64_t shape[MTLRT_MAX_DIMS];
        memcpy(shape, b->shape, sizeof shape);
        if (!mtlrt_array_alloc(a, b->type.dtype, b->ndim, shape))
            return false;
        golden_generate(b, a, b->type.bfloat);
    }
    if (type->dtype == MTLRT_DTYPE_NONE)
        type->dtype = a->dtype;
    return mtlrt_param_accepts(p, a, b && b->path ? b->path : what);
}

/* Bind every parameter: a storage buffer at its binding, or bytes at its push-constant offset. */
static bool bind(Run *r)
{
    if (r->refl->n_params > MAX_PARAMS) {
        fprintf(r->report, "error: kernel %s has more than %d buffer parameters\n", r->refl->entry, MAX_PARAMS);
        return false;
    }
    for (uint32_t i = 0; i < r->refl->n_params; i++) {
        const MtlrtParam *p = &r->refl->params[i];
        MtlrtArray *a = &r->arrays[i];
        if (!param_data(r, i))
            return false;
        if (p->kind == MTLRT_PARAM_PUSH_CONSTANT) {
            if (p->offset + p->size > sizeof r->push) {
                fprintf(r->report, "error: buffer %u (%s): push-constant bytes %u..%u out of range\n", p->index,
                        p->name, p->offset, p->offset + p->size);
                return false;
            }
            memcpy(r->push + p->offset, a->data, p->size);
        } else if (p->binding >= 64 || !(r->bindings[p->binding] = mtlrt_buffer_create(r->ctx, a->nbytes)) ||
                   !mtlrt_buffer_write(r->bindings[p->binding], a->data, a->nbytes)) {
            return false;
        }
    }
    return true;
}

/* Function constant C's value as the 0-d array its declaration TYPE takes (bool, float, 32-bit integers). */
static bool constant_value(Run *r, const GoldenConstant *c, const char *type, MtlrtArray *a)
{
    MtlrtDtype d = c->dtype;
    if (d == MTLRT_DTYPE_NONE)
        d = !strcmp(type, "bool")    ? MTLRT_DTYPE_BOOL
            : !strcmp(type, "float") ? MTLRT_DTYPE_F32
            : type[0] == 'u'         ? MTLRT_DTYPE_U32
                                     : MTLRT_DTYPE_I32;
    if (!strcmp(type, "half") || !strcmp(type, "double")) {
        fprintf(r->report, "%s: error: kernel.constants.%s: %s function constants are not supported\n", r->t->path,
                c->key, type);
        return false;
    }
    char what[300];
    snprintf(what, sizeof what, "kernel.constants.%s", c->key);
    return golden_pack_values(&c->value, 1, mtlrt_dtype_name(d), mtlrt_dtype_name(d), what, a, r->report);
}

/* "constants": each names a [[function_constant(n)]] of the kernel (reflection "function_constants"). */
static bool set_constants(Run *r)
{
    cJSON *root = r->t->n_constants ? cJSON_Parse(r->reflect_json ? r->reflect_json : "{}") : NULL;
    const cJSON *fcs = cJSON_GetObjectItemCaseSensitive(root, "function_constants"), *f;
    bool ok = true;
    for (int i = 0; ok && i < r->t->n_constants; i++) {
        const GoldenConstant *c = &r->t->constants[i];
        const cJSON *match = NULL;
        cJSON_ArrayForEach (f, fcs) {
            const cJSON *idx = cJSON_GetObjectItemCaseSensitive(f, "index"),
                        *nm = cJSON_GetObjectItemCaseSensitive(f, "name");
            char num[32];
            snprintf(num, sizeof num, "%d", idx ? idx->valueint : -1);
            if (!strcmp(c->key, num) || (cJSON_IsString(nm) && !strcmp(c->key, nm->valuestring)))
                match = f;
        }
        if (!match) {
            fprintf(r->report, "%s: error: kernel.constants.%s: kernel %s reads no such function constant\n",
                    r->t->path, c->key, r->refl->entry);
            ok = false;
            break;
        }
        MtlrtArray a = {0};
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(match, "type");
        ok = constant_value(r, c, cJSON_IsString(ty) ? ty->valuestring : "int", &a) &&
             mtlrt_pipeline_set_function_constant(
                 r->pipe, (uint32_t)cJSON_GetObjectItemCaseSensitive(match, "index")->valueint, &a);
        mtlrt_array_free(&a);
    }
    cJSON_Delete(root);
    return ok;
}

/* Create the pipeline; a device that lacks what the kernel needs (a feature, subgroup operations, its subgroup
   width) makes the test a SKIP, not a failure. */
static bool create_pipeline(Run *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&text, &len);
    if (!diag)
        return false;
    mtlrt_set_diag(diag, "mtltest");
    r->pipe = mtlrt_pipeline_create(r->ctx, r->glsl, r->glsl_name, r->refl);
    mtlrt_set_diag(r->report, "mtltest");
    fclose(diag);
    if (!r->pipe && text)
        r->skip = strstr(text, "does not support") || strstr(text, "-wide subgroups, but device");
    const char *prefix = "mtltest: error: ";
    if (r->skip)
        fprintf(r->report, "  skipped: %s", text + (strncmp(text, prefix, strlen(prefix)) ? 0 : strlen(prefix)));
    else
        fputs(text ? text : "", r->report);
    free(text);
    return r->pipe != NULL;
}

static bool dispatch(Run *r)
{
    MtlrtDispatch d = {
        .style = r->threadgroups ? MTLRT_DISPATCH_THREADGROUPS : MTLRT_DISPATCH_THREADS,
        .size = {r->size[0], r->size[1], r->size[2]},
        .threadgroup = {r->threadgroup[0], r->threadgroup[1], r->threadgroup[2]},
        .bindings = r->bindings,
        .n_bindings = 64,
        .push_data = r->push,
        .push_size = sizeof r->push,
    };
    memcpy(d.threadgroup_memory, r->t->threadgroup_memory, sizeof d.threadgroup_memory);
    return mtlrt_dispatch(r->pipe, &d, NULL);
}

/* PATH with ".npy" (or ".golden.npy") replaced by SUFFIX (malloc'd). */
static char *sibling(const char *path, const char *suffix)
{
    size_t n = strlen(path);
    if (n > 11 && !strcmp(path + n - 11, ".golden.npy")) /* NAME.y.golden.npy -> NAME.y.actual.npy */
        n -= 11;
    else if (n > 4 && !strcmp(path + n - 4, ".npy"))
        n -= 4;
    char *s = malloc(n + strlen(suffix) + 1);
    if (s)
        memcpy(s, path, n), strcpy(s + n, suffix);
    return s;
}

/* Write A to PATH with SHAPE's shape when the counts agree (the golden's, so that NumPy reads it alike). */
static bool write_shaped(const char *path, const MtlrtArray *a, const MtlrtArray *shape)
{
    MtlrtArray view = *a;
    if (shape && shape->count == a->count) {
        view.ndim = shape->ndim;
        memcpy(view.shape, shape->shape, sizeof view.shape);
    }
    return mtlrt_npy_write(path, &view);
}

/* One output: read back, compare with its golden, report; write the actual beside it or update the golden. */
static GoldenStatus check_output(Run *r, const GoldenOutput *o, bool *updated)
{
    uint32_t i = 0;
    while (i < r->refl->n_params && !key_names(o->key, &r->refl->params[i]))
        i++;
    const MtlrtParam *p = &r->refl->params[i];
    MtlrtArray *got = &r->arrays[i], want = {0};
    if (p->kind == MTLRT_PARAM_PUSH_CONSTANT) {
        fprintf(r->report, "%s: error: outputs.%s: buffer %u (%s) is passed as push constants; it is no output\n",
                r->t->path, o->key, p->index, p->name);
        return GOLDEN_ERROR;
    }
    if (!mtlrt_buffer_read(r->bindings[p->binding], got->data, got->nbytes))
        return GOLDEN_ERROR;
    bool have_golden = access(o->golden, F_OK) == 0;
    if (!have_golden && !r->opt->update) {
        fprintf(r->report,
                "  output %u (%s): golden %s is missing (mtltest --update records this run's output "
                "as the golden)\n",
                p->index, p->name, o->golden_text);
        return GOLDEN_ERROR;
    }
    if (have_golden && !mtlrt_npy_read(o->golden, &want))
        return GOLDEN_ERROR;
    char *text = NULL;
    size_t len = 0;
    FILE *details = open_memstream(&text, &len);
    GoldenCompareResult res = {0};
    bool pass = have_golden && details && golden_compare(got, &want, o, r->types[i], r->opt->max_report, details, &res);
    if (details)
        fclose(details);
    char *actual = sibling(o->golden, ".actual.npy");
    GoldenStatus status = pass ? GOLDEN_PASS : GOLDEN_FAIL;
    if (pass) {
        if (actual)
            unlink(actual); /* from an earlier failing run */
        if (r->opt->verbose)
            fprintf(r->report, "  output %u (%s): %llu elements match %s (max abs err %.3g, max rel err %.3g)\n",
                    p->index, p->name, (unsigned long long)res.count, o->golden_text, res.max_abs, res.max_rel);
    } else if (r->opt->update) {
        status = write_shaped(o->golden, got, have_golden ? &want : NULL) ? GOLDEN_PASS : GOLDEN_ERROR;
        fprintf(r->report, "  output %u (%s): %s %s\n", p->index, p->name, have_golden ? "updated" : "recorded",
                o->golden_text);
        *updated = true;
    } else {
        fprintf(r->report, "  output %u (%s) differs from %s", p->index, p->name, o->golden_text);
        if (res.over)
            fprintf(r->report, " (%llu of %llu elements over the tolerance)", (unsigned long long)res.over,
                    (unsigned long long)res.count);
        fprintf(r->report, ":\n%s", text ? text : "");
        if (r->opt->write_actual && actual && write_shaped(actual, got, &want))
            fprintf(r->report, "    actual output written to %s\n", actual);
    }
    free(actual);
    free(text);
    mtlrt_array_free(&want);
    return status;
}

static GoldenStatus run_steps(Run *r, bool *updated)
{
    const GoldenTest *t = r->t;
    MtlrtContextOptions co = {.device = r->opt->device, .validate = r->opt->validate, .quiet = true};
    if (!(r->ctx = mtlrt_context_create(&co)))
        return GOLDEN_ERROR;
    memcpy(r->size, t->size, sizeof r->size);
    memcpy(r->threadgroup, t->threadgroup, sizeof r->threadgroup);
    r->threadgroups = t->threadgroups;
    if (!(t->kind == GOLDEN_KERNEL_SPEC ? load_spec_kernel(r) : load_source_kernel(r)) || !check_keys(r))
        return GOLDEN_ERROR;
    if (r->opt->verbose && r->refl->subgroup_size) /* how the SIMD-groups were built (the reflection's simd) */
        fprintf(r->report, "  SIMD-groups on %u-wide %s subgroups, lanes %s, SIMD-group matrix products %s\n",
                r->refl->subgroup_size, r->refl->virtual_subgroups ? "virtual" : "device",
                r->refl->mma_lanes ? "mma" : "metal", r->refl->tensor_cores ? "on tensor cores" : "exact (if any)");
    if (!create_pipeline(r))
        return r->skip ? GOLDEN_SKIP : GOLDEN_ERROR;
    if (!set_constants(r) || !bind(r) || !dispatch(r))
        return GOLDEN_ERROR;
    GoldenStatus status = GOLDEN_PASS;
    for (int i = 0; i < t->n_outputs; i++) {
        GoldenStatus s = check_output(r, &t->outputs[i], updated);
        if (s == GOLDEN_ERROR || (s == GOLDEN_FAIL && status == GOLDEN_PASS))
            status = s;
    }
    return status;
}

GoldenStatus golden_run(const GoldenTest *t, const GoldenRunOptions *opt, FILE *report)
{
    if (t->skip) {
        fprintf(report, "  skipped: %s\n", t->skip);
        return GOLDEN_SKIP;
    }
    Run r = {.t = t, .opt = opt, .report = report};
    bool updated = false;
    mtlrt_set_diag(report, "mtltest");
    GoldenStatus status = run_steps(&r, &updated);
    uint32_t messages = r.ctx ? mtlrt_context_validation_messages(r.ctx) : 0;
    run_free(&r);
    mtlrt_context_destroy(r.ctx);
    if (messages && status != GOLDEN_SKIP) {
        fprintf(report, "  %u validation message%s (--validate)\n", messages, messages > 1 ? "s" : "");
        status = status == GOLDEN_PASS ? GOLDEN_FAIL : status;
    }
    return status == GOLDEN_PASS && updated ? GOLDEN_UPDATED : status;
}
