/* golden.c: read a golden test file (JSON, docs/golden-tests.md) into a GoldenTest. Every problem is reported as
   `FILE: error: FIELD: what was expected, what was found`, naming the field by its path (buffers.x.shape);
   unknown fields are errors, so that a misspelt key never silently drops a check. */
#include "golden.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct Loader {
    const char *path;
    FILE *err;
    bool ok;
    GoldenTest *t;
} Loader;

static bool fail(Loader *l, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Print `PATH: error: FIELD: MESSAGE` (the first error only: later ones may follow from it). */
static bool fail(Loader *l, const char *field, const char *fmt, ...)
{
    if (!l->ok)
        return false;
    va_list ap;
    va_start(ap, fmt);
    fprintf(l->err, "%s: error: %s%s", l->path, field ? field : "", field ? ": " : "");
    vfprintf(l->err, fmt, ap);
    fputc('\n', l->err);
    va_end(ap);
    l->ok = false;
    return false;
}

static const char *json_kind(const cJSON *j)
{
    return cJSON_IsString(j)   ? "a string"
           : cJSON_IsNumber(j) ? "a number"
           : cJSON_IsBool(j)   ? "a boolean"
           : cJSON_IsArray(j)  ? "an array"
           : cJSON_IsObject(j) ? "an object"
                               : "null";
}

/* "PARENT.NAME" in BUF. */
static const char *join(char *buf, size_t size, const char *parent, const char *name)
{
    if (snprintf(buf, size, "%s%s%s", parent ? parent : "", parent && *parent ? "." : "", name) >= (int)size)
        strcpy(buf + size - 4, "...");
    return buf;
}

/* Every key of object J is one of ALLOWED (NULL-terminated); else an error naming it and the allowed ones. */
static bool check_keys(Loader *l, const cJSON *j, const char *where, const char *const *allowed)
{
    const cJSON *e;
    cJSON_ArrayForEach (e, j) {
        bool known = false;
        for (int i = 0; allowed[i] && !known; i++)
            known = !strcmp(e->string, allowed[i]);
        if (!known) {
            char list[512] = "", field[256];
            for (int i = 0; allowed[i]; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", allowed[i]);
            return fail(l, join(field, sizeof field, where, e->string), "unknown field (expected one of: %s)", list);
        }
    }
    return true;
}

static char *dup_or_fail(Loader *l, const char *s)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        fail(l, NULL, "out of memory");
    return d;
}

/* FILE resolved against the test file's folder (absolute names are kept). */
static char *resolve(Loader *l, const char *file)
{
    if (file[0] == '/' || !l->t->dir[0])
        return dup_or_fail(l, file);
    size_t n = strlen(l->t->dir) + strlen(file) + 2;
    char *p = malloc(n);
    if (!p)
        return dup_or_fail(l, NULL);
    snprintf(p, n, "%s/%s", l->t->dir, file);
    return p;
}

/* A string, or an array of strings joined with newlines (source text reads better as lines in JSON). */
static char *text_of(Loader *l, const cJSON *j, const char *field)
{
    if (cJSON_IsString(j))
        return dup_or_fail(l, j->valuestring);
    size_t n = 1;
    const cJSON *e;
    cJSON_ArrayForEach (e, j) {
        if (!cJSON_IsString(e)) {
            fail(l, field, "expected a string or an array of strings (lines), found %s in the array", json_kind(e));
            return NULL;
        }
        n += strlen(e->valuestring) + 1;
    }
    if (!cJSON_IsArray(j)) {
        fail(l, field, "expected a string or an array of strings (lines), found %s", json_kind(j));
        return NULL;
    }
    char *s = calloc(n, 1);
    cJSON_ArrayForEach (e, j)
        if (s) {
            strcat(s, e->valuestring);
            strcat(s, "\n");
        }
    return s ? s : dup_or_fail(l, NULL);
}

/* A NULL-terminated list of strings (include_dirs, defines); RESOLVE paths against the test's folder. */
static char **string_list(Loader *l, const cJSON *j, const char *field, bool resolve_paths)
{
    int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : -1;
    if (n < 0) {
        fail(l, field, "expected an array of strings, found %s", json_kind(j));
        return NULL;
    }
    char **list = calloc((size_t)n + 1, sizeof *list);
    for (int i = 0; list && i < n && l->ok; i++) {
        const cJSON *e = cJSON_GetArrayItem(j, i);
        if (!cJSON_IsString(e))
            fail(l, field, "expected an array of strings, found %s at [%d]", json_kind(e), i);
        else
            list[i] = resolve_paths ? resolve(l, e->valuestring) : dup_or_fail(l, e->valuestring);
    }
    return list;
}

static void free_list(char **list)
{
    for (int i = 0; list && list[i]; i++)
        free(list[i]);
    free(list);
}

/* template: [["T", "float32"], ["N", 4]] or {"T": "float32", "N": 4} -> "NAME=VALUE" strings. */
static char **template_list(Loader *l, const cJSON *j)
{
    int n = cJSON_GetArraySize(j);
    if (!cJSON_IsArray(j) && !cJSON_IsObject(j)) {
        fail(l, "kernel.template", "expected [[NAME, VALUE], ...] or {NAME: VALUE}, found %s", json_kind(j));
        return NULL;
    }
    char **list = calloc((size_t)n + 1, sizeof *list);
    for (int i = 0; list && i < n && l->ok; i++) {
        const cJSON *e = cJSON_GetArrayItem(j, i);
        const cJSON *name = cJSON_IsArray(e) ? cJSON_GetArrayItem(e, 0) : NULL,
                    *v = cJSON_IsArray(e) ? cJSON_GetArrayItem(e, 1) : e;
        const char *nm = cJSON_IsObject(j) ? e->string : cJSON_IsString(name) ? name->valuestring : NULL;
        char text[256];
        if (!nm || (cJSON_IsArray(e) && cJSON_GetArraySize(e) != 2) ||
            !(cJSON_IsString(v) || cJSON_IsNumber(v) || cJSON_IsBool(v))) {
            fail(l, "kernel.template",
                 "entry %d: expected [NAME, VALUE] with VALUE a dtype name, an integer or a boolean", i);
            break;
        }
        if (cJSON_IsString(v))
            snprintf(text, sizeof text, "%s=%s", nm, v->valuestring);
        else if (cJSON_IsBool(v))
            snprintf(text, sizeof text, "%s=%s", nm, cJSON_IsTrue(v) ? "true" : "false");
        else
            snprintf(text, sizeof text, "%s=%.0f", nm, v->valuedouble);
        list[i] = dup_or_fail(l, text);
    }
    return list;
}

/* A count 1..2^32-1, or 0 with ZERO_OK. */
static bool count_of(Loader *l, const cJSON *j, const char *field, bool zero_ok, uint64_t max, uint64_t *out)
{
    double v = cJSON_IsNumber(j) ? j->valuedouble : -1;
    if (v < (zero_ok ? 0 : 1) || v > (double)max || v != floor(v))
        return fail(l, field, "expected an integer in %d..%llu, found %s%s", zero_ok ? 0 : 1, (unsigned long long)max,
                    cJSON_IsNumber(j) ? "" : json_kind(j), cJSON_IsNumber(j) ? "a number out of range" : "");
    *out = (uint64_t)v;
    return true;
}

/* X, [X], [X, Y] or [X, Y, Z] -> three positive counts (missing ones are 1). */
static bool dims_of(Loader *l, const cJSON *j, const char *field, uint32_t out[3])
{
    int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : 1;
    out[0] = out[1] = out[2] = 1;
    if (n < 1 || n > 3)
        return fail(l, field, "expected 1 to 3 counts, found %d", n);
    for (int i = 0; i < n; i++) {
        uint64_t v;
        if (!count_of(l, cJSON_IsArray(j) ? cJSON_GetArrayItem(j, i) : j, field, false, UINT32_MAX, &v))
            return false;
        out[i] = (uint32_t)v;
    }
    return true;
}

static bool type_of(Loader *l, const cJSON *j, const char *field, GoldenType *type)
{
    if (!cJSON_IsString(j) || !golden_type_from_name(j->valuestring, type))
        return fail(l, field,
                    "expected a dtype name (float32, float16, bfloat16, float64, int8, uint8, int16, uint16, "
                    "int32, uint32, int64, uint64, bool), found %s%s%s",
                    cJSON_IsString(j) ? "'" : json_kind(j), cJSON_IsString(j) ? j->valuestring : "",
                    cJSON_IsString(j) ? "'" : "");
    return true;
}

static bool shape_of(Loader *l, const cJSON *j, const char *field, int *ndim, uint64_t shape[MTLRT_MAX_DIMS])
{
    int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : -1;
    if (n < 0 || n > MTLRT_MAX_DIMS)
        return fail(l, field, "expected an array of at most %d extents, found %s", MTLRT_MAX_DIMS,
                    n < 0 ? json_kind(j) : "more");
    for (int i = 0; i < n; i++)
        if (!count_of(l, cJSON_GetArrayItem(j, i), field, true, 1ull << 40, &shape[i]))
            return false;
    *ndim = n;
    return true;
}

static bool number_of(Loader *l, const cJSON *j, const char *field, double *out)
{
    if (!cJSON_IsNumber(j))
        return fail(l, field, "expected a number, found %s", json_kind(j));
    *out = j->valuedouble;
    return true;
}

/* "value": a number, a boolean, or an array of them. */
static bool values_of(Loader *l, const cJSON *j, const char *field, GoldenBuffer *b)
{
    int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : 1;
    if (n < 1)
        return fail(l, field, "expected a number, a boolean or a non-empty array of them");
    b->values = calloc((size_t)n, sizeof *b->values);
    b->n_values = n;
    for (int i = 0; b->values && i < n; i++) {
        const cJSON *e = cJSON_IsArray(j) ? cJSON_GetArrayItem(j, i) : j;
        if (cJSON_IsBool(e))
            b->values[i] = cJSON_IsTrue(e), b->value_is_bool = true;
        else if (!cJSON_IsNumber(e))
            return fail(l, field, "expected a number, a boolean or an array of them, found %s", json_kind(e));
        else
            b->values[i] = e->valuedouble;
    }
    return b->values ? true : fail(l, NULL, "out of memory");
}

static const char *const generator_names[] = {"constant", "arange", "uniform", "normal", NULL};

/* "generate": NAME with its parameters (constant: value; arange: start, step; uniform: low, high, seed; normal:
   mean, std, seed); dtype and shape required. */
static bool generator_of(Loader *l, const cJSON *j, const char *where, GoldenBuffer *b)
{
    char field[256];
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(j, "generate");
    int k = 0;
    while (cJSON_IsString(g) && generator_names[k] && strcmp(generator_names[k], g->valuestring))
        k++;
    if (!cJSON_IsString(g) || !generator_names[k])
        return fail(l, join(field, sizeof field, where, "generate"),
                    "expected constant, arange, uniform or normal, found %s%s", cJSON_IsString(g) ? "" : json_kind(g),
                    cJSON_IsString(g) ? g->valuestring : "");
    b->gen = (GoldenGenerator)k;
    static const char *const params[][3] = {
        {"value", NULL, NULL}, {"start", "step", NULL}, {"low", "high", "seed"}, {"mean", "std", "seed"}};
    static const double defaults[][2] = {{0, 0}, {0, 1}, {NAN, NAN}, {0, 1}}; /* uniform: by dtype */
    double *dst[] = {&b->a, &b->b};
    for (int i = 0; i < 2; i++) {
        *dst[i] = defaults[k][i];
        const cJSON *p = params[k][i] ? cJSON_GetObjectItemCaseSensitive(j, params[k][i]) : NULL;
        if (p && !number_of(l, p, join(field, sizeof field, where, params[k][i]), dst[i]))
            return false;
    }
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(j, "seed");
    if (seed && !params[k][2])
        return fail(l, join(field, sizeof field, where, "seed"), "generator %s takes no seed", generator_names[k]);
    if (seed && !count_of(l, seed, join(field, sizeof field, where, "seed"), true, 1ull << 53, &b->seed))
        return false;
    const char *const allowed[] = {"generate",
                                   "dtype",
                                   "shape",
                                   params[k][0] ? params[k][0] : "",
                                   params[k][1] ? params[k][1] : "",
                                   params[k][2] ? params[k][2] : "",
                                   NULL};
    if (!check_keys(l, j, where, allowed))
        return false;
    if (b->type.dtype == MTLRT_DTYPE_NONE || b->ndim < 0)
        return fail(l, where, "a generated buffer needs \"dtype\" and \"shape\"");
    if (k == GOLDEN_GEN_UNIFORM && (isnan(b->a) != isnan(b->b) || b->b <= b->a))
        return fail(l, where, "uniform needs both low and high, low < high (values are drawn from [low, high))");
    char why[256];
    if (!golden_generator_fits(b, why, sizeof why))
        return fail(l, where, "%s", why);
    return true;
}

/* One entry of "buffers". */
static bool buffer_of(Loader *l, const cJSON *j, GoldenBuffer *b)
{
    char where[256], field[256];
    join(where, sizeof where, "buffers", j->string);
    *b = (GoldenBuffer){.key = dup_or_fail(l, j->string), .type.dtype = MTLRT_DTYPE_NONE, .ndim = -1};
    if (!cJSON_IsObject(j))
        return fail(l, where,
                    "expected an object ({\"npy\": FILE}, {\"value\": V}, {\"generate\": ...} or "
                    "{\"dtype\": D, \"shape\": [...]}), found %s",
                    json_kind(j));
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(j, "dtype"), *sh = cJSON_GetObjectItemCaseSensitive(j, "shape");
    if ((dt && !type_of(l, dt, join(field, sizeof field, where, "dtype"), &b->type)) ||
        (sh && !shape_of(l, sh, join(field, sizeof field, where, "shape"), &b->ndim, b->shape)))
        return false;
    const char *kinds[] = {"npy", "bytes", "value", "generate"};
    int given = 0;
    bool generated = cJSON_GetObjectItemCaseSensitive(j, "generate") != NULL; /* its "value" is the constant's */
    for (int i = 0; i < 4; i++)
        if (cJSON_GetObjectItemCaseSensitive(j, kinds[i]) && !(generated && i == 2))
            b->data = (GoldenData)(GOLDEN_DATA_NPY + i), given++;
    if (given > 1)
        return fail(l, where, "give one of npy, bytes, value and generate");
    const cJSON *v = b->data == GOLDEN_DATA_NONE ? NULL : cJSON_GetObjectItemCaseSensitive(j, kinds[b->data - 1]);
    switch (b->data) {
    case GOLDEN_DATA_NONE: return check_keys(l, j, where, (const char *const[]){"dtype", "shape", NULL});
    case GOLDEN_DATA_NPY:
    case GOLDEN_DATA_BYTES:
        if (!cJSON_IsString(v))
            return fail(l, join(field, sizeof field, where, kinds[b->data - 1]), "expected a file name, found %s",
                        json_kind(v));
        b->path = resolve(l, v->valuestring);
        return check_keys(l, j, where, (const char *const[]){kinds[b->data - 1], "dtype", NULL});
    case GOLDEN_DATA_VALUE:
        return values_of(l, v, join(field, sizeof field, where, "value"), b) &&
               check_keys(l, j, where, (const char *const[]){"value", "dtype", NULL});
    case GOLDEN_DATA_GENERATE: return generator_of(l, j, where, b);
    }
    return true;
}

/* "tolerance": "exact", {"rtol": R, "atol": A} (either may be left out: 0) or {"ulp": N}. */
static bool tolerance_of(Loader *l, const cJSON *j, const char *field, GoldenTolerance *tol)
{
    if (cJSON_IsString(j) && !strcmp(j->valuestring, "exact")) {
        tol->kind = GOLDEN_TOL_EXACT;
        return true;
    }
    if (!cJSON_IsObject(j))
        return fail(l, field, "expected \"exact\", {\"rtol\": R, \"atol\": A} or {\"ulp\": N}, found %s", json_kind(j));
    const cJSON *ulp = cJSON_GetObjectItemCaseSensitive(j, "ulp");
    if (ulp) {
        tol->kind = GOLDEN_TOL_ULP;
        return count_of(l, ulp, field, true, 1ull << 52, &tol->ulp) &&
               check_keys(l, j, field, (const char *const[]){"ulp", NULL});
    }
    tol->kind = GOLDEN_TOL_CLOSE;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "rtol"), *a = cJSON_GetObjectItemCaseSensitive(j, "atol");
    if (!r && !a)
        return fail(l, field, "give rtol and/or atol, or ulp");
    if ((r && !number_of(l, r, field, &tol->rtol)) || (a && !number_of(l, a, field, &tol->atol)))
        return false;
    if (tol->rtol < 0 || tol->atol < 0 || !isfinite(tol->rtol) || !isfinite(tol->atol))
        return fail(l, field, "rtol and atol must be non-negative");
    return check_keys(l, j, field, (const char *const[]){"rtol", "atol", NULL});
}

/* One entry of "outputs". */
static bool output_of(Loader *l, const cJSON *j, GoldenOutput *o)
{
    char where[256], field[256];
    join(where, sizeof where, "outputs", j->string);
    *o = (GoldenOutput){.key = dup_or_fail(l, j->string), .type.dtype = MTLRT_DTYPE_NONE};
    if (!cJSON_IsObject(j))
        return fail(l, where, "expected an object with \"golden\": FILE.npy, found %s", json_kind(j));
    if (!check_keys(l, j, where, (const char *const[]){"golden", "tolerance", "unordered", "dtype", NULL}))
        return false;
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(j, "golden"),
                *tol = cJSON_GetObjectItemCaseSensitive(j, "tolerance"),
                *un = cJSON_GetObjectItemCaseSensitive(j, "unordered"),
                *dt = cJSON_GetObjectItemCaseSensitive(j, "dtype");
    if (!cJSON_IsString(g))
        return fail(l, join(field, sizeof field, where, "golden"), "expected the expected output's .npy file, found %s",
                    g ? json_kind(g) : "nothing");
    o->golden_text = dup_or_fail(l, g->valuestring);
    o->golden = resolve(l, g->valuestring);
    if (tol && !tolerance_of(l, tol, join(field, sizeof field, where, "tolerance"), &o->tol))
        return false;
    if (un && !cJSON_IsBool(un))
        return fail(l, join(field, sizeof field, where, "unordered"), "expected true or false, found %s",
                    json_kind(un));
    o->unordered = cJSON_IsTrue(un);
    return !dt || type_of(l, dt, join(field, sizeof field, where, "dtype"), &o->type);
}

/* "constants": {"0": true, "alpha": 0.5, "n": {"dtype": "int32", "value": 3}}. */
static bool constants_of(Loader *l, const cJSON *j)
{
    if (!cJSON_IsObject(j))
        return fail(l, "kernel.constants", "expected an object {INDEX or NAME: VALUE}, found %s", json_kind(j));
    int n = cJSON_GetArraySize(j);
    GoldenTest *t = l->t;
    t->constants = calloc((size_t)n + 1, sizeof *t->constants);
    const cJSON *e;
    cJSON_ArrayForEach (e, j)
        if (t->constants && l->ok) {
            char field[256];
            GoldenConstant *c = &t->constants[t->n_constants++];
            *c = (GoldenConstant){.key = dup_or_fail(l, e->string), .dtype = MTLRT_DTYPE_NONE};
            join(field, sizeof field, "kernel.constants", e->string);
            const cJSON *v = e;
            if (cJSON_IsObject(e)) {
                GoldenType ty;
                const cJSON *dt = cJSON_GetObjectItemCaseSensitive(e, "dtype");
                v = cJSON_GetObjectItemCaseSensitive(e, "value");
                if (!check_keys(l, e, field, (const char *const[]){"dtype", "value", NULL}) ||
                    (dt && !type_of(l, dt, field, &ty)))
                    return false;
                c->dtype = dt ? ty.dtype : MTLRT_DTYPE_NONE;
            }
            if (cJSON_IsBool(v))
                c->value = cJSON_IsTrue(v), c->is_bool = true;
            else if (!cJSON_IsNumber(v))
                return fail(l, field, "expected a number or a boolean, found %s", v ? json_kind(v) : "nothing");
            else
                c->value = v->valuedouble;
        }
    return t->constants ? l->ok : fail(l, NULL, "out of memory");
}

/* "kernel": exactly one of source / text / spec, with entry, include_dirs, defines, template, constants. */
static bool kernel_of(Loader *l, const cJSON *k)
{
    GoldenTest *t = l->t;
    if (!cJSON_IsObject(k))
        return fail(l, "kernel", "expected an object with \"source\", \"text\" or \"spec\", found %s",
                    k ? json_kind(k) : "nothing");
    if (!check_keys(l, k, "kernel",
                    (const char *const[]){"source", "text", "spec", "entry", "include_dirs", "defines", "template",
                                          "constants", "subgroup_size", NULL}))
        return false;
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(k, "source"),
                *text = cJSON_GetObjectItemCaseSensitive(k, "text"),
                *spec = cJSON_GetObjectItemCaseSensitive(k, "spec"), *j;
    if (!!src + !!text + !!spec != 1)
        return fail(l, "kernel",
                    "give exactly one of source (a .metal file), text (Metal source) and spec (a kernel "
                    "spec .json)");
    if ((src && !cJSON_IsString(src)) || (spec && !cJSON_IsString(spec)))
        return fail(l, src ? "kernel.source" : "kernel.spec", "expected a file name, found %s",
                    json_kind(src ? src : spec));
    t->kind = src ? GOLDEN_KERNEL_FILE : text ? GOLDEN_KERNEL_TEXT : GOLDEN_KERNEL_SPEC;
    t->source = text ? text_of(l, text, "kernel.text") : resolve(l, (src ? src : spec)->valuestring);
    if ((j = cJSON_GetObjectItemCaseSensitive(k, "entry"))) {
        if (spec || !cJSON_IsString(j))
            return fail(l, "kernel.entry", spec ? "a spec names its own kernel" : "expected a string, found %s",
                        json_kind(j));
        t->entry = dup_or_fail(l, j->valuestring);
    }
    if ((j = cJSON_GetObjectItemCaseSensitive(k, "include_dirs")))
        t->include_dirs = string_list(l, j, "kernel.include_dirs", true);
    if ((j = cJSON_GetObjectItemCaseSensitive(k, "defines")))
        t->defines = string_list(l, j, "kernel.defines", false);
    if ((j = cJSON_GetObjectItemCaseSensitive(k, "template")) && !spec)
        return fail(l, "kernel.template",
                    "template arguments are for kernel specs; a .metal source names its "
                    "instance as the entry (its [[host_name]])");
    if (j)
        t->templates = template_list(l, j);
    uint64_t sg;
    if ((j = cJSON_GetObjectItemCaseSensitive(k, "subgroup_size"))) {
        if (!count_of(l, j, "kernel.subgroup_size", false, 128, &sg) || sg < 4 || (sg & (sg - 1)))
            return fail(l, "kernel.subgroup_size", "expected a power of two in 4..128");
        t->subgroup_size = (uint32_t)sg;
    }
    return (j = cJSON_GetObjectItemCaseSensitive(k, "constants")) ? constants_of(l, j) : l->ok;
}

/* "dispatch": threads (or grid) / threadgroups, threadgroup, threadgroup_memory. */
static bool dispatch_of(Loader *l, const cJSON *d)
{
    GoldenTest *t = l->t;
    if (!cJSON_IsObject(d))
        return fail(l, "dispatch", "expected an object, found %s", json_kind(d));
    if (!check_keys(
            l, d, "dispatch",
            (const char *const[]){"threads", "grid", "threadgroups", "threadgroup", "threadgroup_memory", NULL}))
        return false;
    const cJSON *th = cJSON_GetObjectItemCaseSensitive(d, "threads"),
                *grid = cJSON_GetObjectItemCaseSensitive(d, "grid"),
                *tgs = cJSON_GetObjectItemCaseSensitive(d, "threadgroups"),
                *tg = cJSON_GetObjectItemCaseSensitive(d, "threadgroup"),
                *mem = cJSON_GetObjectItemCaseSensitive(d, "threadgroup_memory"), *e;
    if (!!th + !!grid + !!tgs != 1 || !tg)
        return fail(l, "dispatch",
                    "give threadgroup and exactly one of threads (dispatchThreads; also \"grid\") and "
                    "threadgroups (dispatchThreadgroups)");
    t->has_dispatch = true;
    t->threadgroups = tgs != NULL;
    if (!dims_of(l,
                 th     ? th
                 : grid ? grid
                        : tgs,
                 th     ? "dispatch.threads"
                 : grid ? "dispatch.grid"
                        : "dispatch.threadgroups",
                 t->size) ||
        !dims_of(l, tg, "dispatch.threadgroup", t->threadgroup))
        return false;
    if (mem && !cJSON_IsObject(mem))
        return fail(l, "dispatch.threadgroup_memory", "expected {\"N\": BYTES}, found %s", json_kind(mem));
    cJSON_ArrayForEach (e, mem) {
        char *end;
        unsigned long idx = strtoul(e->string, &end, 10);
        uint64_t bytes;
        if (*end || end == e->string || idx > 30)
            return fail(l, "dispatch.threadgroup_memory", "key '%s': expected a [[threadgroup(n)]] index 0..30",
                        e->string);
        if (!count_of(l, e, "dispatch.threadgroup_memory", false, 1u << 30, &bytes))
            return false;
        t->threadgroup_memory[idx] = (uint32_t)bytes;
    }
    return true;
}

/* Two entries of BUFFERS or OUTPUTS with one key (cJSON keeps duplicates). */
static bool check_unique(Loader *l, const cJSON *j, const char *where)
{
    for (const cJSON *a = j ? j->child : NULL; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (!strcmp(a->string, b->string))
                return fail(l, where, "'%s' appears twice", a->string);
    return true;
}

static bool body_of(Loader *l, const cJSON *root)
{
    GoldenTest *t = l->t;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "mtltest"), *j;
    if (!cJSON_IsNumber(v))
        return fail(l, "mtltest", "not a golden test file: expected the format version (\"mtltest\": %d)",
                    GOLDEN_VERSION);
    if (v->valuedouble != GOLDEN_VERSION)
        return fail(l, "mtltest", "format version %g; this mtltest reads version %d (a newer mtl2glsl may read it)",
                    v->valuedouble, GOLDEN_VERSION);
    if (!check_keys(l, root, "",
                    (const char *const[]){"mtltest", "name", "skip", "kernel", "dispatch", "buffers", "outputs",
                                          "comment", NULL}))
        return false;
    if ((j = cJSON_GetObjectItemCaseSensitive(root, "name"))) {
        if (!cJSON_IsString(j) || !j->valuestring[0])
            return fail(l, "name", "expected a non-empty string, found %s", json_kind(j));
        free(t->name);
        t->name = dup_or_fail(l, j->valuestring);
    }
    if ((j = cJSON_GetObjectItemCaseSensitive(root, "skip")) && !cJSON_IsString(j))
        return fail(l, "skip", "expected the reason (a string), found %s", json_kind(j));
    t->skip = j ? dup_or_fail(l, j->valuestring) : NULL;
    if (!kernel_of(l, cJSON_GetObjectItemCaseSensitive(root, "kernel")))
        return false;
    if ((j = cJSON_GetObjectItemCaseSensitive(root, "dispatch")) && !dispatch_of(l, j))
        return false;
    if (!j && t->kind != GOLDEN_KERNEL_SPEC)
        return fail(l, "dispatch",
                    "missing: a .metal kernel needs its dispatch (threads or threadgroups, and "
                    "threadgroup)");
    const cJSON *bufs = cJSON_GetObjectItemCaseSensitive(root, "buffers"),
                *outs = cJSON_GetObjectItemCaseSensitive(root, "outputs");
    if ((bufs && !cJSON_IsObject(bufs)) || !cJSON_IsObject(outs) || !cJSON_GetArraySize(outs))
        return fail(l, bufs && !cJSON_IsObject(bufs) ? "buffers" : "outputs",
                    "expected an object (KEY: {...}, keyed by [[buffer(n)]] index or parameter name)%s",
                    cJSON_IsObject(outs) ? "" : "; a test checks at least one output");
    if (!check_unique(l, bufs, "buffers") || !check_unique(l, outs, "outputs"))
        return false;
    t->buffers = calloc((size_t)cJSON_GetArraySize(bufs) + 1, sizeof *t->buffers);
    t->outputs = calloc((size_t)cJSON_GetArraySize(outs) + 1, sizeof *t->outputs);
    if (!t->buffers || !t->outputs)
        return fail(l, NULL, "out of memory");
    cJSON_ArrayForEach (j, bufs)
        if (l->ok)
            buffer_of(l, j, &t->buffers[t->n_buffers++]);
    cJSON_ArrayForEach (j, outs)
        if (l->ok)
            output_of(l, j, &t->outputs[t->n_outputs++]);
    return l->ok;
}

char *golden_name_from_path(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(base), m = strlen(GOLDEN_SUFFIX);
    if (n > m && !strcmp(base + n - m, GOLDEN_SUFFIX))
        n -= m;
    else if (n > 5 && !strcmp(base + n - 5, ".json"))
        n -= 5;
    return strndup(base, n);
}

/* The whole of PATH as a string; NULL after a message. */
static char *read_file(Loader *l)
{
    FILE *f = fopen(l->path, "rb");
    char *text = NULL;
    long size = -1;
    if (f && !fseek(f, 0, SEEK_END) && (size = ftell(f)) >= 0 && size < (64l << 20) && !fseek(f, 0, SEEK_SET) &&
        (text = calloc((size_t)size + 1, 1)) && fread(text, 1, (size_t)size, f) == (size_t)size) {
        fclose(f);
        return text;
    }
    fail(l, NULL, "cannot read the file: %s",
         !f                    ? strerror(errno)
         : size >= (64l << 20) ? "larger than 64 MiB"
                               : "read error");
    free(text);
    if (f)
        fclose(f);
    return NULL;
}

/* The line of the first character cJSON could not parse. */
static int error_line(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; at && p < at && *p; p++)
        line += *p == '\n';
    return line;
}

bool golden_load(const char *path, GoldenTest *t, FILE *err)
{
    Loader l = {.path = path, .err = err, .ok = true, .t = t};
    *t = (GoldenTest){.path = strdup(path), .name = golden_name_from_path(path)};
    const char *slash = strrchr(path, '/');
    t->dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup("");
    char *text = t->path && t->name && t->dir ? read_file(&l) : NULL;
    if (!text) {
        fail(&l, NULL, "out of memory");
        golden_free(t);
        return false;
    }
    cJSON *root = cJSON_Parse(text);
    if (!root)
        fprintf(err, "%s:%d: error: invalid JSON near '%.20s'\n", path, error_line(text, cJSON_GetErrorPtr()),
                cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "");
    else if (!cJSON_IsObject(root))
        fail(&l, NULL, "expected a JSON object, found %s", json_kind(root));
    else
        body_of(&l, root);
    bool ok = root && l.ok;
    cJSON_Delete(root);
    free(text);
    if (!ok)
        golden_free(t);
    return ok;
}

void golden_free(GoldenTest *t)
{
    free(t->path), free(t->dir), free(t->name), free(t->skip), free(t->source), free(t->entry);
    free_list(t->include_dirs), free_list(t->defines), free_list(t->templates);
    for (int i = 0; i < t->n_constants; i++)
        free(t->constants[i].key);
    for (int i = 0; i < t->n_buffers; i++)
        free(t->buffers[i].key), free(t->buffers[i].path), free(t->buffers[i].values);
    for (int i = 0; i < t->n_outputs; i++)
        free(t->outputs[i].key), free(t->outputs[i].golden), free(t->outputs[i].golden_text);
    free(t->constants), free(t->buffers), free(t->outputs);
    *t = (GoldenTest){0};
}
