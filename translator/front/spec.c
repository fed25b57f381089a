/* spec.c: body-only kernels. Reads a JSON kernel spec in MLX's mx.fast.metal_kernel form or Core AI's
   TorchMetalKernel form, with one "call" (inputs, template args, outputs, grid, threadgroup, init_value), and writes
   the Metal source those libraries would build around the body: header, signature, body. `#line` directives name
   the spec's parts, so diagnostics read `SPEC.json(source):LINE:COL`. docs/specs.md describes the format. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct DtypeInfo {
    const char *name, *descr, *mlx_type, *metal_type;
    int size;
} DtypeInfo;

static const DtypeInfo dtype_table[] = {
#define DTYPE(name, descr, mlx, metal, size) {#name, descr, mlx, metal, size},
#include "spec_dtypes.def"
#undef DTYPE
};

/* MLX's thread attributes: a parameter of that name is added when the body's text contains it. */
static const struct {
    const char *name, *type;
} mlx_attributes[] = {
    {"thread_position_in_grid", "uint3"}, {"thread_position_in_threadgroup", "uint3"},
    {"threadgroup_position_in_grid", "uint3"}, {"threads_per_grid", "uint3"},
    {"threads_per_threadgroup", "uint3"}, {"threadgroups_per_grid", "uint3"}, {"grid_origin", "uint3"},
    {"grid_size", "uint3"}, {"dispatch_threads_per_threadgroup", "uint3"},
    {"thread_index_in_threadgroup", "uint"}, {"thread_index_in_simdgroup", "uint"},
    {"thread_index_in_quadgroup", "uint"}, {"simdgroup_index_in_threadgroup", "uint"},
    {"simdgroups_per_threadgroup", "uint"}, {"quadgroup_index_in_threadgroup", "uint"},
    {"quadgroups_per_threadgroup", "uint"}, {"threads_per_simdgroup", "uint"}, {"thread_execution_width", "uint"},
    {"dispatch_simdgroups_per_threadgroup", "uint"}, {"dispatch_quadgroups_per_threadgroup", "uint"},
};

/* MLX writes `const constant T*` for inputs with fewer elements than this. */
enum {
    MLX_MAX_CONSTANT_ARRAY = 8,
    MAX_TEMPLATE_ARGS = 16,
    METAL_MAX_THREADS_PER_THREADGROUP = 1024,
    METAL_MAX_BUFFERS = 31, /* [[buffer(0)]] .. [[buffer(30)]] */
};

typedef struct TemplateArg {
    const char *name;
    const char *text; /* as MLX writes it in the instantiation: float, 4, true */
} TemplateArg;

typedef struct Spec {
    M2gSpec pub;
    Arena *arena;
    FILE *diag;
    cJSON *root;
    const char *dir; /* the spec's directory: its file names are relative to it */
    const char *name, *body, *header;
    const char *const *names[2]; /* input_names, output_names (result_names) */
    bool ensure_row_contiguous;
    TemplateArg targs[MAX_TEMPLATE_ARGS];
    int n_targs;
} Spec;

/* Print `PATH: error: MESSAGE`; returns false. */
static bool spec_error(Spec *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool spec_error(Spec *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(s->diag, "%s: error: ", s->pub.path);
    vfprintf(s->diag, fmt, ap);
    fputc('\n', s->diag);
    va_end(ap);
    return false;
}

static const DtypeInfo *dtype_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof dtype_table / sizeof *dtype_table; i++)
        if (!strcmp(dtype_table[i].name, name) || !strcmp(dtype_table[i].descr, name))
            return &dtype_table[i];
    return NULL;
}

/* The dtype NAME, or an error naming FIELD: unknown, or known to NumPy/MLX but not to Metal kernels here. */
static const DtypeInfo *dtype_need(Spec *s, const char *name, const char *field)
{
    const DtypeInfo *d = dtype_lookup(name);
    if (d)
        return d;
    if (!strcmp(name, "bfloat16"))
        spec_error(s, "%s: dtype bfloat16 is not supported yet (bfloat)", field);
    else if (!strcmp(name, "float64") || !strcmp(name, "complex64"))
        spec_error(s, "%s: dtype %s has no Metal type", field, name);
    else
        spec_error(s, "%s: unknown dtype '%s' (expected one of float32 float16 int8 uint8 int16 uint16 int32 uint32 "
                      "int64 uint64 bool)", field, name);
    return NULL;
}

static const char *json_kind(const cJSON *j)
{
    return !j                  ? "nothing"
           : cJSON_IsString(j) ? "a string"
           : cJSON_IsNumber(j) ? "a number"
           : cJSON_IsBool(j)   ? "a boolean"
           : cJSON_IsArray(j)  ? "an array"
           : cJSON_IsObject(j) ? "an object"
                               : "null";
}

static bool type_error(Spec *s, const char *field, const char *expected, const cJSON *got)
{
    return spec_error(s, "field '%s': expected %s, got %s", field, expected, json_kind(got));
}

/* A field of OBJ; missing and REQUIRED: an error naming it. */
static const cJSON *field(Spec *s, const cJSON *obj, const char *name, const char *path, bool required, bool *ok)
{
    const cJSON *j = obj ? cJSON_GetObjectItemCaseSensitive(obj, name) : NULL;
    if (!j && required)
        *ok = spec_error(s, "missing field '%s'", path);
    return j;
}

/* Text given as one string or an array of lines (joined with newlines). */
static const char *text_field(Spec *s, const cJSON *obj, const char *name, bool required, bool *ok)
{
    const cJSON *j = field(s, obj, name, name, required, ok);
    if (!j)
        return required ? NULL : "";
    if (cJSON_IsString(j))
        return j->valuestring;
    StrBuf b = {0};
    bool lines = cJSON_IsArray(j);
    const cJSON *e;
    cJSON_ArrayForEach(e, j)
    {
        lines = lines && cJSON_IsString(e);
        if (lines)
            sb_printf(&b, "%s\n", e->valuestring);
    }
    char *r = lines ? arena_strdup(s->arena, b.data ? b.data : "") : NULL;
    sb_free(&b);
    if (!lines)
        *ok = type_error(s, name, "a string or an array of strings (lines)", j);
    return r;
}

/* T is a C identifier of at most M2G_MAX_IDENTIFIER characters. */
static bool is_identifier(const char *t)
{
    bool ident = t && *t && !(*t >= '0' && *t <= '9') && strlen(t) <= M2G_MAX_IDENTIFIER;
    for (const char *p = t; ident && *p; p++)
        ident = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
    return ident;
}

/* A non-empty array of distinct identifiers; NULL-terminated copy in the arena. */
static const char *const *names_field(Spec *s, const char *name, bool *ok)
{
    const cJSON *j = field(s, s->root, name, name, true, ok);
    if (!j)
        return NULL;
    int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : -1;
    if (n < 0 || n > M2G_SPEC_MAX_ARRAYS)
        return type_error(s, name, "an array of at most 16 names", j), *ok = false, NULL;
    const char **v = arena_alloc(s->arena, sizeof *v * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(j, i);
        const char *t = cJSON_IsString(e) ? e->valuestring : NULL;
        if (!is_identifier(t))
            return spec_error(s, "field '%s[%d]': expected a name (an identifier), got %s", name, i, json_kind(e)),
                   *ok = false, NULL;
        v[i] = t;
    }
    return v;
}

static bool bool_field(Spec *s, const cJSON *obj, const char *name, bool dflt, bool *ok)
{
    const cJSON *j = field(s, obj, name, name, false, ok);
    if (j && !cJSON_IsBool(j))
        *ok = type_error(s, name, "true or false", j);
    return j && cJSON_IsBool(j) ? cJSON_IsTrue(j) : dflt;
}

/* "grid": [x, y, z] (1 to 3 positive integers; missing ones are 1). */
static bool dims_json(Spec *s, const cJSON *j, const char *path, unsigned out[3])
{
    int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : 0;
    if (n < 1 || n > 3)
        return type_error(s, path, "an array of 1 to 3 positive integers", j);
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(j, i);
        double v = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (v < 1 || v > 4294967295.0 || v != (double)(unsigned)v)
            return spec_error(s, "field '%s[%d]': expected a positive integer, got %s", path, i,
                              cJSON_IsNumber(e) ? "a number out of range" : json_kind(e));
        out[i] = (unsigned)v;
    }
    return true;
}

/* ---- .npy headers: dtype and shape of an input file ---- */

/* The text after KEY in an npy header dict, or NULL. */
static const char *npy_key(const char *h, const char *key)
{
    const char *p = strstr(h, key);
    if (!p)
        return NULL;
    p = strchr(p + strlen(key), ':');
    return p ? p + 1 + strspn(p + 1, " ") : NULL;
}

/* Read FILE's dtype and shape into A; false with a message starting with WHAT (the field or argument). */
static bool npy_read_header(Spec *s, const char *file, M2gSpecArray *a, const char *what)
{
    char why[128];
    if (!file_check(file, LLONG_MAX, why, sizeof why))
        return spec_error(s, "%s: cannot open '%s': %s", what, file, why);
    FILE *f = fopen(file, "rb");
    unsigned char pre[10];
    char h[1024] = {0};
    if (!f)
        return spec_error(s, "%s: cannot open '%s': %s", what, file, strerror(errno));
    size_t got = fread(pre, 1, 10, f), hlen = got == 10 ? (size_t)(pre[8] | pre[9] << 8) : 0;
    bool ok = got == 10 && !memcmp(pre, "\x93NUMPY", 6) && pre[6] == 1 && hlen < sizeof h &&
              fread(h, 1, hlen, f) == hlen;
    fclose(f);
    const char *descr = npy_key(h, "'descr'"), *fortran = npy_key(h, "'fortran_order'"), *shape = npy_key(h, "'shape'");
    if (!ok || !descr || !fortran || !shape || *descr != '\'' || *shape != '(')
        return spec_error(s, "%s: '%s' is not a version-1 .npy file", what, file);
    if (!strncmp(fortran, "True", 4))
        return spec_error(s, "%s: '%s' is in Fortran order; save it C-contiguous", what, file);
    if (strncmp(fortran, "False", 5))
        return spec_error(s, "%s: '%s' is not a version-1 .npy file ('fortran_order' is neither True nor False)",
                          what, file);
    char d[16] = {0};
    size_t dl = strcspn(descr + 1, "'");
    memcpy(d, descr + 1, dl < 15 ? dl : 15);
    const DtypeInfo *di = dtype_need(s, !strcmp(d, "<f8") ? "float64" : !strcmp(d, "<c8") ? "complex64" : d, what);
    if (!di)
        return false;
    a->dtype = di->name;
    a->ndim = 0;
    for (const char *p = shape + 1; *p && *p != ')';) {
        char *end;
        errno = 0;
        long long v = *p >= '0' && *p <= '9' ? strtoll(p, &end, 10) : (end = (char *)p, 0);
        if (end == p || a->ndim == M2G_SPEC_MAX_DIMS || errno || v > INT32_MAX)
            return spec_error(s, "%s: '%s' has a shape this reader does not take (at most %d dimensions of at most "
                                 "%d)", what, file, M2G_SPEC_MAX_DIMS, INT32_MAX);
        a->shape[a->ndim++] = v;
        p = end + strspn(end, ", ");
    }
    return true;
}

/* ---- arrays of the call ---- */

static const char *spec_file_path(Spec *s, const char *file)
{
    if (file[0] == '/' || !s->dir)
        return file;
    return arena_printf(s->arena, "%s/%s", s->dir, file);
}

/* "DTYPE:D0xD1..." (an empty shape after the colon, or "scalar", is 0-d). */
static bool array_from_text(Spec *s, const char *text, M2gSpecArray *a, const char *what)
{
    const char *colon = strchr(text, ':');
    if (!colon)
        return spec_error(s, "%s: expected FILE.npy or DTYPE:SHAPE (e.g. float32:64x64), got '%s'", what, text);
    char *d = arena_strdup(s->arena, text);
    d[colon - text] = 0;
    const DtypeInfo *di = dtype_need(s, d, what);
    if (!di)
        return false;
    a->dtype = di->name;
    a->ndim = 0;
    const char *p = colon + 1;
    if (!strcmp(p, "scalar"))
        return true;
    while (*p) {
        char *end;
        errno = 0;
        long long v = *p >= '0' && *p <= '9' ? strtoll(p, &end, 10) : (end = (char *)p, 0);
        if (end == p || errno || v > INT32_MAX || a->ndim == M2G_SPEC_MAX_DIMS || (*end && *end != 'x'))
            return spec_error(s, "%s: bad shape '%s' (expected D0xD1..., at most 8 dimensions of at most %d)", what,
                              colon + 1, INT32_MAX);
        a->shape[a->ndim++] = v;
        p = *end ? end + 1 : end;
    }
    return true;
}

/* A shape: an array of at most 8 sizes. */
static bool shape_json(Spec *s, const cJSON *sh, M2gSpecArray *a, const char *path)
{
    int n = cJSON_IsArray(sh) ? cJSON_GetArraySize(sh) : -1;
    if (n < 0 || n > M2G_SPEC_MAX_DIMS)
        return type_error(s, path, "an array of at most 8 sizes", sh);
    a->ndim = n;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(sh, i);
        if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0 && e->valuedouble <= INT32_MAX) ||
            e->valuedouble != (double)(long long)e->valuedouble)
            return spec_error(s, "field '%s[%d]': expected a size (integer >= 0, at most %d), got %s", path, i,
                              INT32_MAX, cJSON_IsNumber(e) ? "a number out of range" : json_kind(e));
        a->shape[i] = (long long)e->valuedouble;
    }
    return true;
}

/* {"dtype": D, "shape": [...]} (zero-filled) or {"file": F.npy} or "F.npy", each with an optional "transpose". */
static bool array_from_json(Spec *s, const cJSON *j, M2gSpecArray *a, const char *path)
{
    bool ok = true;
    if (cJSON_IsString(j)) {
        a->file = spec_file_path(s, j->valuestring);
        return npy_read_header(s, a->file, a, arena_printf(s->arena, "field '%s'", path));
    }
    if (!cJSON_IsObject(j))
        return type_error(s, path, "a .npy file name or an object {\"dtype\", \"shape\"} or {\"file\"}", j);
    char *p = arena_printf(s->arena, "%s.file", path);
    const cJSON *file = field(s, j, "file", p, false, &ok);
    if (file) {
        if (!cJSON_IsString(file))
            return type_error(s, p, "a .npy file name", file);
        a->file = spec_file_path(s, file->valuestring);
        if (!npy_read_header(s, a->file, a, arena_printf(s->arena, "field '%s'", p)))
            return false;
    } else {
        const cJSON *dt = field(s, j, "dtype", arena_printf(s->arena, "%s.dtype", path), true, &ok);
        const cJSON *sh = field(s, j, "shape", arena_printf(s->arena, "%s.shape", path), true, &ok);
        if (!ok)
            return false;
        if (!cJSON_IsString(dt))
            return type_error(s, arena_printf(s->arena, "%s.dtype", path), "a dtype name", dt);
        const DtypeInfo *di = dtype_need(s, dt->valuestring, arena_printf(s->arena, "field '%s.dtype'", path));
        if (!di || !shape_json(s, sh, a, arena_printf(s->arena, "%s.shape", path)))
            return false;
        a->dtype = di->name;
    }
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(j, "transpose");
    if (!tr)
        return true;
    int n = cJSON_IsArray(tr) ? cJSON_GetArraySize(tr) : -1;
    if (n != a->ndim)
        return spec_error(s, "field '%s.transpose': expected a permutation of the %d axes, got %s", path, a->ndim,
                          cJSON_IsArray(tr) ? "another length" : json_kind(tr));
    unsigned seen = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(tr, i);
        int v = cJSON_IsNumber(e) ? e->valueint : -1;
        if (v < 0 || v >= n || (seen & (1u << v)))
            return spec_error(s, "field '%s.transpose': expected a permutation of 0..%d", path, n - 1);
        seen |= 1u << v;
        a->perm[i] = v;
    }
    a->transposed = true;
    return true;
}

/* Count, strides and (for a transposed input) the view's shape and strides over the data as stored; false (with a
   message) past M2G_MAX_SPEC_ARRAY_BYTES. Every dimension is at most INT32_MAX (checked where read). */
static bool array_finish(Spec *s, M2gSpecArray *a, bool ensure_contiguous)
{
    long long base_strides[M2G_SPEC_MAX_DIMS], stride = 1, shape[M2G_SPEC_MAX_DIMS];
    long long size = dtype_lookup(a->dtype)->size;
    a->count = 1;
    for (int i = a->ndim - 1; i >= 0; i--) {
        base_strides[i] = stride;
        if (a->shape[i] && a->count > M2G_MAX_SPEC_ARRAY_BYTES / size / a->shape[i])
            return spec_error(s, "array '%s': its shape holds more than %lld bytes, the limit of one array "
                                 "(docs/limits.md)", a->name, M2G_MAX_SPEC_ARRAY_BYTES);
        stride *= a->shape[i];
        a->count *= a->shape[i];
    }
    memcpy(shape, a->shape, sizeof shape);
    for (int i = 0; i < a->ndim; i++) {
        a->shape[i] = a->transposed ? shape[a->perm[i]] : shape[i];
        a->strides[i] = a->transposed ? base_strides[a->perm[i]] : base_strides[i];
    }
    a->copy_contiguous = a->transposed && ensure_contiguous;
    if (a->copy_contiguous) {
        long long st = 1;
        for (int i = a->ndim - 1; i >= 0; st *= a->shape[i], i--)
            a->strides[i] = st;
    }
    return true;
}

/* The array the command line gives for NAME ("NAME=..."), or NULL. */
static const char *arg_for(const char *const *list, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; list && list[i]; i++)
        if (!strncmp(list[i], name, n) && list[i][n] == '=')
            return list[i] + n + 1;
    return NULL;
}

static bool array_from_arg(Spec *s, const char *text, M2gSpecArray *a, const char *name)
{
    const char *what = arena_printf(s->arena, "command line %s=%s", name, text);
    size_t n = strlen(text);
    if (n > 4 && !strcmp(text + n - 4, ".npy")) {
        a->file = text;
        return npy_read_header(s, text, a, what);
    }
    return array_from_text(s, text, a, what);
}

/* "P0,P1,...": the input is its data's array transposed by that permutation. */
static bool transpose_from_arg(Spec *s, const char *text, M2gSpecArray *a)
{
    unsigned seen = 0;
    int n = 0;
    for (const char *p = text; *p && n < M2G_SPEC_MAX_DIMS; n++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v >= a->ndim || (seen & (1u << v)) || (*end && *end != ','))
            break;
        seen |= 1u << v;
        a->perm[n] = (int)v;
        p = *end ? end + 1 : end;
    }
    if (n != a->ndim || seen != (1u << n) - 1)
        return spec_error(s, "command line transpose %s=%s: expected a permutation of the %d axes", a->name, text,
                          a->ndim);
    a->transposed = true;
    return true;
}

/* Inputs of the call: call.inputs.NAME for each input name (or the command line's NAME=...). */
static bool read_inputs(Spec *s, const cJSON *call, const M2gSpecArgs *args)
{
    bool ok = true;
    const cJSON *inputs = field(s, call, "inputs", "call.inputs", false, &ok);
    if (inputs && !cJSON_IsObject(inputs))
        return type_error(s, "call.inputs", "an object {NAME: array, ...}", inputs);
    const cJSON *e;
    cJSON_ArrayForEach(e, inputs)
    {
        bool known = false;
        for (int i = 0; s->names[0][i]; i++)
            known |= !strcmp(s->names[0][i], e->string);
        if (!known)
            return spec_error(s, "field 'call.inputs.%s': '%s' is not one of input_names", e->string, e->string);
    }
    for (int i = 0; s->names[0][i]; i++) {
        M2gSpecArray *a = &s->pub.inputs[s->pub.n_inputs++];
        const char *name = s->names[0][i], *arg = arg_for(args ? args->arrays : NULL, name);
        *a = (M2gSpecArray){.name = name, .buffer = -1, .shape_buffer = -1, .strides_buffer = -1, .ndim_buffer = -1,
                            .extents_buffer = -1};
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(inputs, name);
        char *path = arena_printf(s->arena, "call.inputs.%s", name);
        if (!arg && !j)
            return spec_error(s, "missing field '%s' (or %s=FILE.npy on the command line)", path, name);
        if (arg ? !array_from_arg(s, arg, a, name) : !array_from_json(s, j, a, path))
            return false;
        const char *tr = arg_for(args ? args->transposes : NULL, name);
        if (tr && !transpose_from_arg(s, tr, a))
            return false;
        if (!array_finish(s, a, s->ensure_row_contiguous))
            return false;
    }
    return true;
}

/* Outputs: SHAPES[i] and DTYPES[i] (MLX output_shapes/output_dtypes, Core AI result_shapes/result_dtypes). */
static bool read_outputs(Spec *s, const cJSON *call, const M2gSpecArgs *args)
{
    const char *kshape = s->pub.coreai ? "result_shapes" : "output_shapes";
    const char *kdtype = s->pub.coreai ? "result_dtypes" : "output_dtypes";
    const cJSON *shapes = cJSON_GetObjectItemCaseSensitive(call, kshape);
    const cJSON *dtypes = cJSON_GetObjectItemCaseSensitive(call, kdtype);
    int n = 0;
    while (s->names[1][n])
        n++;
    if (shapes && (!cJSON_IsArray(shapes) || cJSON_GetArraySize(shapes) != n))
        return spec_error(s, "field 'call.%s': expected an array of %d shapes (one per %s name), got %s", kshape, n,
                          s->pub.coreai ? "result" : "output", json_kind(shapes));
    if (dtypes && (!cJSON_IsArray(dtypes) || cJSON_GetArraySize(dtypes) != n))
        return spec_error(s, "field 'call.%s': expected an array of %d dtype names, got %s", kdtype, n,
                          json_kind(dtypes));
    for (int i = 0; i < n; i++) {
        M2gSpecArray *a = &s->pub.outputs[s->pub.n_outputs++];
        const char *name = s->names[1][i], *arg = arg_for(args ? args->arrays : NULL, name);
        *a = (M2gSpecArray){.name = name, .buffer = -1, .shape_buffer = -1, .strides_buffer = -1, .ndim_buffer = -1,
                            .extents_buffer = -1};
        if (arg) {
            if (!array_from_arg(s, arg, a, name))
                return false;
            if (a->file)
                return spec_error(s, "command line %s=%s: an output takes DTYPE:SHAPE, not a file", name, arg);
            if (!array_finish(s, a, false))
                return false;
            continue;
        }
        if (!shapes || !dtypes)
            return spec_error(s, "missing field 'call.%s' (or %s=DTYPE:SHAPE on the command line)",
                              shapes ? kdtype : kshape, name);
        const cJSON *dt = cJSON_GetArrayItem(dtypes, i);
        const char *dpath = arena_printf(s->arena, "call.%s[%d]", kdtype, i);
        const DtypeInfo *di = NULL;
        if (!cJSON_IsString(dt))
            type_error(s, dpath, "a dtype name", dt);
        else
            di = dtype_need(s, dt->valuestring, arena_printf(s->arena, "field '%s'", dpath));
        if (!di || !shape_json(s, cJSON_GetArrayItem(shapes, i), a, arena_printf(s->arena, "call.%s[%d]", kshape, i)))
            return false;
        a->dtype = di->name;
        if (!array_finish(s, a, false))
            return false;
    }
    return true;
}

/* MLX template args: call.template [[NAME, VALUE], ...] or {NAME: VALUE}, or NAME=VALUE on the command line. */
static bool add_template_arg(Spec *s, const char *name, const cJSON *v, const char *text, const char *path)
{
    TemplateArg *t = &s->targs[s->n_targs];
    if (s->n_targs == MAX_TEMPLATE_ARGS)
        return spec_error(s, "field '%s': more than %d template arguments", path, MAX_TEMPLATE_ARGS);
    if (!is_identifier(name))
        return spec_error(s, "field '%s': template argument name '%s' is not an identifier", path, name);
    *t = (TemplateArg){.name = name};
    if (v && cJSON_IsBool(v))
        t->text = cJSON_IsTrue(v) ? "true" : "false";
    else if (v && cJSON_IsNumber(v) && v->valuedouble == (double)v->valueint)
        t->text = arena_printf(s->arena, "%d", v->valueint);
    else if (v && cJSON_IsString(v))
        text = v->valuestring;
    else if (v)
        return type_error(s, path, "a dtype name, an integer or true/false", v);
    if (!t->text && text) {
        char *end;
        errno = 0;
        long iv = strtol(text, &end, 10);
        if (!strcmp(text, "true") || !strcmp(text, "false"))
            t->text = text;
        else if (end != text && !*end && (errno || iv < INT32_MIN || iv > INT32_MAX))
            return spec_error(s, "field '%s': %s is out of the range of a template int", path, text);
        else if (end != text && !*end)
            t->text = arena_printf(s->arena, "%ld", iv);
        else {
            const DtypeInfo *d = dtype_need(s, text, arena_printf(s->arena, "field '%s'", path));
            if (!d)
                return false;
            t->text = d->mlx_type;
        }
    }
    s->n_targs++;
    return true;
}

static bool read_template(Spec *s, const cJSON *call, const M2gSpecArgs *args)
{
    const cJSON *tj = cJSON_GetObjectItemCaseSensitive(call, "template"), *e;
    if (tj && !cJSON_IsArray(tj) && !cJSON_IsObject(tj))
        return type_error(s, "call.template", "an array of [NAME, VALUE] pairs", tj);
    int i = 0;
    cJSON_ArrayForEach(e, tj)
    {
        const char *path = arena_printf(s->arena, "call.template[%d]", i++);
        if (cJSON_IsObject(tj)) {
            if (!add_template_arg(s, e->string, e, NULL, path))
                return false;
        } else if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !cJSON_IsString(cJSON_GetArrayItem(e, 0))) {
            return type_error(s, path, "a pair [NAME, VALUE]", e);
        } else if (!add_template_arg(s, cJSON_GetArrayItem(e, 0)->valuestring, cJSON_GetArrayItem(e, 1), NULL, path)) {
            return false;
        }
    }
    for (int k = 0; args && args->templates && args->templates[k]; k++) {
        const char *eq = strchr(args->templates[k], '=');
        if (!eq || eq == args->templates[k])
            return spec_error(s, "command line template '%s': expected NAME=VALUE", args->templates[k]);
        char *name = arena_strdup(s->arena, args->templates[k]);
        name[eq - args->templates[k]] = 0;
        int j = 0, n = s->n_targs;
        while (j < n && strcmp(s->targs[j].name, name))
            j++;
        if (!add_template_arg(s, name, NULL, eq + 1, arena_printf(s->arena, "command line template %s", name)))
            return false;
        if (j < n) /* a value for an argument the spec names: keeps its place (the kernel name's order) */
            s->targs[j] = s->targs[--s->n_targs];
    }
    return true;
}

/* Grid and threadgroup (MLX grid/threadgroup, Core AI threads_per_grid/threads_per_thread_group; all 0 when not
   given: translation needs neither, a run needs both); the threadgroup is clamped to the grid per dimension as
   MLX does. */
static bool read_dispatch(Spec *s, const cJSON *call, const M2gSpecArgs *args)
{
    const char *kg = s->pub.coreai ? "threads_per_grid" : "grid";
    const char *kt = s->pub.coreai ? "threads_per_thread_group" : "threadgroup";
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(call, kg), *t = cJSON_GetObjectItemCaseSensitive(call, kt);
    if (args && args->grid[0])
        memcpy(s->pub.grid, args->grid, sizeof s->pub.grid);
    else if (g && !dims_json(s, g, arena_printf(s->arena, "call.%s", kg), s->pub.grid))
        return false;
    if (args && args->threadgroup[0])
        memcpy(s->pub.threadgroup, args->threadgroup, sizeof s->pub.threadgroup);
    else if (t && !dims_json(s, t, arena_printf(s->arena, "call.%s", kt), s->pub.threadgroup))
        return false;
    unsigned *tg = s->pub.threadgroup;
    if ((unsigned long long)tg[0] * tg[1] * tg[2] > METAL_MAX_THREADS_PER_THREADGROUP)
        return spec_error(s, "field 'call.%s': %u x %u x %u = %llu threads; a Metal threadgroup has at most %d", kt,
                          tg[0], tg[1], tg[2], (unsigned long long)tg[0] * tg[1] * tg[2],
                          METAL_MAX_THREADS_PER_THREADGROUP);
    for (int i = 0; i < 3; i++)
        tg[i] = tg[i] < s->pub.grid[i] ? tg[i] : s->pub.grid[i];
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(call, "init_value");
    if (args && args->has_init_value)
        s->pub.has_init_value = true, s->pub.init_value = args->init_value;
    else if (iv && !cJSON_IsNull(iv)) {
        if ((!cJSON_IsNumber(iv) && !cJSON_IsBool(iv)) || (cJSON_IsNumber(iv) && !isfinite(iv->valuedouble)))
            return spec_error(s, "field 'call.init_value': expected a finite number or null, got %s",
                              cJSON_IsNumber(iv) ? "a number out of range" : json_kind(iv));
        s->pub.has_init_value = true;
        s->pub.init_value = cJSON_IsBool(iv) ? cJSON_IsTrue(iv) : iv->valuedouble;
    }
    return true;
}

/* ---- MLX: the source mx.fast.metal_kernel writes ---- */

static const char *mlx_type(const M2gSpecArray *a)
{
    return dtype_lookup(a->dtype)->mlx_type;
}

/* `#line` naming part PART of the spec: diagnostics there read SPEC.json(PART):LINE:COL. */
static void line_directive(StrBuf *b, const Spec *s, int line, const char *part)
{
    sb_printf(b, "#line %d \"", line);
    for (const char *p = s->pub.path; *p; p++)
        sb_printf(b, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p);
    sb_printf(b, "(%s)\"\n", part);
}

/* The signature's buffer count K fits Metal's buffer slots. */
static bool check_buffer_count(Spec *s, int k)
{
    if (k <= METAL_MAX_BUFFERS)
        return true;
    return spec_error(s, "the signature needs %d buffers (inputs, their shape/strides/ndim or extents, outputs); "
                         "Metal has %d buffer slots", k, METAL_MAX_BUFFERS);
}

/* Part PART's TEXT, quoted by diagnostics at `PATH(PART):LINE:COL` (M2gOptions.sources). */
static void add_part(Spec *s, const char *part, const char *text)
{
    int i = 0;
    while (s->pub.sources[i])
        i += 2;
    s->pub.sources[i] = arena_printf(s->arena, "%s(%s)", s->pub.path, part);
    s->pub.sources[i + 1] = arena_strdup(s->arena, text);
}

static int count_lines(const char *t)
{
    int n = 0;
    for (; *t; t++)
        n += *t == '\n';
    return n;
}

/* Signature parameter lines, in MLX's order: each input (then its _shape, _strides, _ndim when the body names
   them), each output, then the thread attributes the body names. */
static int mlx_params(Spec *s, StrBuf *b)
{
    int k = 0;
    const char *sep = "";
    for (int i = 0; i < s->pub.n_inputs; i++) {
        M2gSpecArray *a = &s->pub.inputs[i];
        a->buffer = k;
        if (a->ndim == 0) {
            sb_printf(b, "%s    const constant %s& %s [[buffer(%d)]]", sep, mlx_type(a), a->name, k++);
        } else {
            const char *space = a->count < MLX_MAX_CONSTANT_ARRAY ? "constant" : "device";
            sb_printf(b, "%s    const %s %s* %s [[buffer(%d)]]", sep, space, mlx_type(a), a->name, k++);
            static const char *const suffix[3] = {"_shape", "_strides", "_ndim"};
            static const char *const type[3] = {"const constant int*", "const constant int64_t*",
                                                "const constant int&"};
            int *slot[3] = {&a->shape_buffer, &a->strides_buffer, &a->ndim_buffer};
            for (int j = 0; j < 3; j++) {
                if (!strstr(s->body, arena_printf(s->arena, "%s%s", a->name, suffix[j])))
                    continue;
                *slot[j] = k;
                sb_printf(b, ",\n    %s %s%s [[buffer(%d)]]", type[j], a->name, suffix[j], k++);
            }
        }
        sep = ",\n";
    }
    for (int i = 0; i < s->pub.n_outputs; i++, sep = ",\n") {
        M2gSpecArray *a = &s->pub.outputs[i];
        a->buffer = k;
        if (s->pub.atomic_outputs)
            sb_printf(b, "%s    device atomic<%s>* %s [[buffer(%d)]]", sep, mlx_type(a), a->name, k++);
        else
            sb_printf(b, "%s    device %s* %s [[buffer(%d)]]", sep, mlx_type(a), a->name, k++);
    }
    for (size_t i = 0; i < sizeof mlx_attributes / sizeof *mlx_attributes; i++)
        if (strstr(s->body, mlx_attributes[i].name)) {
            sb_printf(b, "%s    %s %s [[%s]]", sep, mlx_attributes[i].type, mlx_attributes[i].name,
                      mlx_attributes[i].name);
            sep = ",\n";
        }
    return k;
}

/* MLX's kernel name: custom_kernel_NAME, then the template args with "<", ">" and ", " turned into "_"
   (and the trailing one dropped): custom_kernel_myexp_float_4_true. */
static const char *mlx_kernel_name(Spec *s)
{
    StrBuf b = {0};
    sb_printf(&b, "custom_kernel_%s", s->name);
    for (int i = 0; i < s->n_targs; i++)
        sb_printf(&b, "_%s", s->targs[i].text);
    char *r = arena_strdup(s->arena, b.data);
    sb_free(&b);
    return r;
}

/* Template args are substituted rather than instantiated: MLX's `template <typename T, int N>` kernel and its
   `template [[host_name(...)]]` instantiation become one kernel of that name, with T and N defined as the
   instantiation's values for the body. */
static bool mlx_source(Spec *s)
{
    StrBuf b = {0};
    s->pub.entry = mlx_kernel_name(s);
    sb_puts(&b, "#include <metal_stdlib>\nusing namespace metal;\ntypedef half float16_t;\n");
    line_directive(&b, s, 1, "header");
    sb_puts(&b, s->header);
    sb_puts(&b, "\n");
    StrBuf params = {0};
    if (!check_buffer_count(s, mlx_params(s, &params))) {
        sb_free(&params);
        sb_free(&b);
        return false;
    }
    line_directive(&b, s, 1, "signature");
    size_t sig = b.len;
    int line = 1;
    for (int i = 0; i < s->n_targs; i++, line++)
        sb_printf(&b, "#define %s %s\n", s->targs[i].name, s->targs[i].text);
    sb_printf(&b, "[[kernel]] void %s(\n%s) {\n", s->pub.entry, params.data ? params.data : "");
    line += 2 + count_lines(params.data ? params.data : "");
    add_part(s, "header", s->header);
    add_part(s, "signature", b.data + sig);
    add_part(s, "source", s->body);
    line_directive(&b, s, 1, "source");
    sb_puts(&b, s->body);
    sb_puts(&b, "\n");
    line_directive(&b, s, line, "signature");
    sb_puts(&b, "}\n");
    for (int i = 0; i < s->n_targs; i++)
        sb_printf(&b, "#undef %s\n", s->targs[i].name);
    sb_free(&params);
    s->pub.source = b.data;
    return true;
}

/* ---- Core AI: TorchMetalKernel ---- */

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The tensor named by the identifier at [P, P+N), or NULL. */
static M2gSpecArray *coreai_tensor(Spec *s, const char *p, size_t n)
{
    for (int l = 0; l < 2; l++) {
        M2gSpecArray *v = l ? s->pub.outputs : s->pub.inputs;
        for (int i = 0; i < (l ? s->pub.n_outputs : s->pub.n_inputs); i++)
            if (strlen(v[i].name) == n && !strncmp(v[i].name, p, n))
                return &v[i];
    }
    return NULL;
}

/* The end of the bracketed text starting at P (on its opening bracket): the matching closer, or NULL. */
static const char *matching(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if ((*p == ')' || *p == ']' || *p == '}') && --depth == 0)
            return p;
    }
    return NULL;
}

static void coreai_rewrite(Spec *s, StrBuf *b, const char *p, const char *end);

/* `A[i, j, k]` -> `A[(i) + A_extents[0] * ((j) + A_extents[1] * ((k)))]`: extent 0 is the innermost dimension and the
   first subscript indexes it (the published matmul example). INSIDE is the text between the brackets. */
static void coreai_subscript(Spec *s, StrBuf *b, M2gSpecArray *t, const char *inside, const char *close)
{
    const char *parts[M2G_SPEC_MAX_DIMS + 1], *q = inside;
    int n = 0, depth = 0;
    parts[n++] = inside;
    for (; q < close; q++) {
        depth += (*q == '(' || *q == '[' || *q == '{') - (*q == ')' || *q == ']' || *q == '}');
        if (*q == ',' && depth == 0 && n <= M2G_SPEC_MAX_DIMS)
            parts[n++] = q + 1;
    }
    parts[n] = close + 1;
    if (n == 1) {
        coreai_rewrite(s, b, inside, close);
        return;
    }
    t->extents_buffer = 0; /* used: numbered when the signature is written */
    for (int i = 0; i < n; i++) {
        sb_puts(b, i ? " + " : "(");
        if (i)
            sb_printf(b, "%s_extents[%d] * (", t->name, i - 1);
        const char *part = parts[i];
        while (part < parts[i + 1] - 1 && (*part == ' ' || *part == '\t'))
            part++;
        coreai_rewrite(s, b, part, parts[i + 1] - 1);
    }
    for (int i = 0; i < n; i++)
        sb_puts(b, ")");
}

/* Copy [P, END) rewriting tensor accesses: `A.get_extent(e)` -> `A_extents[e]`, `A[i, j]` (coreai_subscript).
   Comments and literals are copied as they are. */
static void coreai_rewrite(Spec *s, StrBuf *b, const char *p, const char *end)
{
    while (p < end) {
        if (p[0] == '/' && p + 1 < end && (p[1] == '/' || p[1] == '*')) {
            const char *e = p[1] == '/' ? strchr(p, '\n') : strstr(p + 2, "*/");
            e = e ? (p[1] == '/' ? e : e + 2) : end;
            e = e < end ? e : end;
            sb_printf(b, "%.*s", (int)(e - p), p);
            p = e;
        } else if (*p == '"' || *p == '\'') {
            const char *e = p + 1;
            while (e < end && *e != *p)
                e += *e == '\\' ? 2 : 1;
            e = e < end ? e + 1 : end;
            sb_printf(b, "%.*s", (int)(e - p), p);
            p = e;
        } else if (is_ident_char(*p)) {
            const char *e = p;
            while (e < end && is_ident_char(*e))
                e++;
            M2gSpecArray *t = coreai_tensor(s, p, (size_t)(e - p));
            const char *after = e + strspn(e, " \t");
            bool member = p > s->body && (p[-1] == '.' || (p[-1] == '>' && p - 1 > s->body && p[-2] == '-'));
            const char *close;
            if (t && !member && !strncmp(after, ".get_extent", 11) && after[11 + strspn(after + 11, " \t")] == '(' &&
                (close = matching(after + 11 + strspn(after + 11, " \t"))) && close < end) {
                t->extents_buffer = 0;
                sb_printf(b, "%s_extents[", t->name);
                coreai_rewrite(s, b, after + 12 + strspn(after + 11, " \t"), close);
                sb_puts(b, "]");
                p = close + 1;
            } else if (t && !member && *after == '[' && (close = matching(after)) && close < end) {
                sb_printf(b, "%s[", t->name);
                coreai_subscript(s, b, t, after + 1, close);
                sb_puts(b, "]");
                p = close + 1;
            } else {
                sb_printf(b, "%.*s", (int)(e - p), p);
                p = e;
            }
        } else {
            sb_printf(b, "%c", *p++);
        }
    }
}

/* metal_params: [{"name", "type", "attribute"}] or [[NAME, TYPE, ATTRIBUTE]]: thread attributes. */
static bool coreai_metal_params(Spec *s, StrBuf *b)
{
    const cJSON *mp = cJSON_GetObjectItemCaseSensitive(s->root, "metal_params"), *e;
    if (mp && !cJSON_IsArray(mp))
        return type_error(s, "metal_params", "an array of {\"name\", \"type\", \"attribute\"}", mp);
    int i = 0;
    cJSON_ArrayForEach(e, mp)
    {
        const char *path = arena_printf(s->arena, "metal_params[%d]", i++), *v[3] = {0};
        static const char *const keys[3] = {"name", "type", "attribute"};
        for (int k = 0; k < 3; k++) {
            const cJSON *f = cJSON_IsArray(e) ? cJSON_GetArrayItem(e, k) : cJSON_GetObjectItemCaseSensitive(e, keys[k]);
            if (!cJSON_IsString(f))
                return spec_error(s, "field '%s.%s': expected a string, got %s", path, keys[k], json_kind(f));
            if (k == 0 && !is_identifier(f->valuestring))
                return spec_error(s, "field '%s.name': '%s' is not an identifier", path, f->valuestring);
            v[k] = f->valuestring;
        }
        bool known = false;
        for (size_t a = 0; a < sizeof mlx_attributes / sizeof *mlx_attributes; a++)
            known |= !strcmp(mlx_attributes[a].name, v[2]);
        if (!known)
            return spec_error(s, "field '%s.attribute': '%s' is not a Metal thread attribute", path, v[2]);
        sb_printf(b, ",\n    %s %s [[%s]]", v[1], v[0], v[2]);
    }
    return true;
}

/* template_dtypes {"INPUT": "PLACEHOLDER"}: the placeholder word becomes the input's Metal type. */
static bool coreai_template_dtypes(Spec *s, StrBuf *b)
{
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(s->root, "template_dtypes"), *e;
    if (td && !cJSON_IsObject(td))
        return type_error(s, "template_dtypes", "an object {INPUT_NAME: PLACEHOLDER}", td);
    cJSON_ArrayForEach(e, td)
    {
        M2gSpecArray *t = coreai_tensor(s, e->string, strlen(e->string));
        if (!t)
            return spec_error(s, "field 'template_dtypes.%s': '%s' is not an input or result name", e->string,
                              e->string);
        if (!cJSON_IsString(e) || !is_identifier(e->valuestring))
            return type_error(s, arena_printf(s->arena, "template_dtypes.%s", e->string), "a placeholder word", e);
        sb_printf(b, "#define %s %s\n", e->valuestring, dtype_lookup(t->dtype)->metal_type);
    }
    return true;
}

/* Tensors as device pointers in order (inputs const), then NAME_extents for the tensors whose extents or
   multi-subscripts the body uses, then metal_params. */
static bool coreai_source(Spec *s)
{
    StrBuf b = {0}, body = {0}, params = {0};
    s->pub.entry = s->name;
    coreai_rewrite(s, &body, s->body, s->body + strlen(s->body));
    int k = 0;
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < (l ? s->pub.n_outputs : s->pub.n_inputs); i++) {
            M2gSpecArray *a = l ? &s->pub.outputs[i] : &s->pub.inputs[i];
            a->buffer = k;
            sb_printf(&params, "%s    device %s%s* %s [[buffer(%d)]]", k ? ",\n" : "", l ? "" : "const ",
                      dtype_lookup(a->dtype)->metal_type, a->name, k);
            k++;
        }
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < (l ? s->pub.n_outputs : s->pub.n_inputs); i++) {
            M2gSpecArray *a = l ? &s->pub.outputs[i] : &s->pub.inputs[i];
            if (a->extents_buffer < 0)
                continue;
            a->extents_buffer = k;
            sb_printf(&params, ",\n    constant uint* %s_extents [[buffer(%d)]]", a->name, k++);
        }
    bool ok = check_buffer_count(s, k) && coreai_metal_params(s, &params);
    sb_puts(&b, "#include <metal_stdlib>\nusing namespace metal;\n");
    ok = ok && coreai_template_dtypes(s, &b);
    line_directive(&b, s, 1, "signature");
    size_t sig = b.len;
    sb_printf(&b, "[[kernel]] void %s(\n%s) {\n", s->pub.entry, params.data ? params.data : "");
    int line = 3 + count_lines(params.data ? params.data : "");
    add_part(s, "signature", b.data + sig);
    add_part(s, "src", body.data ? body.data : "");
    line_directive(&b, s, 1, "src");
    sb_puts(&b, body.data ? body.data : "");
    sb_puts(&b, "\n");
    line_directive(&b, s, line, "signature");
    sb_puts(&b, "}\n");
    sb_free(&body);
    sb_free(&params);
    s->pub.source = b.data;
    if (!ok)
        sb_free(&b), s->pub.source = NULL;
    return ok;
}

/* ---- the spec ---- */

/* The spec's text: a regular file of at most M2G_MAX_FILE_BYTES, with no NUL byte in it (JSON has none), nor a
   \u0000 escape (cJSON would cut the string there: a name "ab\u0000cd" would silently be "ab"). */
static char *read_text_file(Spec *s, const char *path)
{
    char why[160];
    size_t len;
    char *t = file_read(path, M2G_MAX_FILE_BYTES, &len, why, sizeof why);
    if (!t) {
        spec_error(s, "cannot read: %s", why);
        return NULL;
    }
    int line = 1;
    for (size_t i = 0, backslashes = 0; i < len; i++) {
        line += t[i] == '\n';
        bool nul = !t[i] || (t[i] == 'u' && backslashes % 2 && !strncmp(t + i + 1, "0000", 4));
        if (nul) {
            spec_error(s, "line %d: a NUL character (%s) is not allowed in a spec", line, t[i] ? "\\u0000" : "byte 0");
            free(t);
            return NULL;
        }
        backslashes = t[i] == '\\' ? backslashes + 1 : 0;
    }
    return t;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* No object in J has a key twice (JSON allows it; which one counts differs between readers). Its dotted path in
   PATH (the top level ""). */
static bool unique_keys(Spec *s, const cJSON *j, const char *path)
{
    int n = cJSON_IsObject(j) || cJSON_IsArray(j) ? cJSON_GetArraySize(j) : 0, i = 0;
    const char **keys = cJSON_IsObject(j) && n > 1 ? malloc(sizeof *keys * (size_t)n) : NULL;
    const cJSON *e;
    cJSON_ArrayForEach(e, j)
    {
        if (keys)
            keys[i++] = e->string;
    }
    if (keys)
        qsort(keys, (size_t)n, sizeof *keys, compare_strings);
    for (i = 1; keys && i < n; i++)
        if (!strcmp(keys[i - 1], keys[i])) {
            spec_error(s, "field '%s%s' is given twice", path, keys[i]);
            free(keys);
            return false;
        }
    free(keys);
    i = 0;
    cJSON_ArrayForEach(e, j)
    {
        const char *sub = cJSON_IsObject(j) ? arena_printf(s->arena, "%s%s.", path, e->string)
                                            : arena_printf(s->arena, "%.*s[%d].", (int)strlen(path) - (*path ? 1 : 0), path, i);
        i++;
        if ((cJSON_IsObject(e) || cJSON_IsArray(e)) && !unique_keys(s, e, sub))
            return false;
    }
    return true;
}

/* Every key of OBJ is one of KNOWN (space-separated words): a misspelt optional field is an error, not ignored. */
static bool known_keys(Spec *s, const cJSON *obj, const char *where, const char *known)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, obj)
    {
        size_t n = strlen(e->string);
        bool found = false;
        for (const char *k = known; *k && !found; k += strcspn(k, " "), k += *k == ' ') {
            size_t kn = strcspn(k, " ");
            found = kn == n && !strncmp(k, e->string, n);
        }
        if (!found)
            return spec_error(s, "unknown field '%s%s' (expected one of: %s)", where, e->string, known);
    }
    return true;
}

/* Fields common to both forms, then the form's own. */
static bool read_spec(Spec *s, const M2gSpecArgs *args)
{
    bool ok = true, mlx = cJSON_HasObjectItem(s->root, "output_names");
    bool coreai = cJSON_HasObjectItem(s->root, "result_names");
    if (mlx == coreai)
        return spec_error(s, "%s", mlx ? "both 'output_names' (MLX) and 'result_names' (Core AI) given; pick one form"
                                       : "missing field 'output_names' (MLX form) or 'result_names' (Core AI form)");
    s->pub.coreai = coreai;
    const cJSON *name = field(s, s->root, "name", "name", true, &ok);
    if (!ok)
        return false;
    if (!cJSON_IsString(name) || !is_identifier(name->valuestring))
        return spec_error(s, "field 'name': expected an identifier of at most %d characters, got %s",
                          M2G_MAX_IDENTIFIER, cJSON_IsString(name) ? "another string" : json_kind(name));
    s->name = name->valuestring;
    if (!(s->names[0] = names_field(s, "input_names", &ok)) ||
        !(s->names[1] = names_field(s, coreai ? "result_names" : "output_names", &ok)))
        return false;
    s->body = text_field(s, s->root, coreai ? "src" : "source", true, &ok);
    s->header = coreai ? "" : text_field(s, s->root, "header", false, &ok);
    s->ensure_row_contiguous = !coreai && bool_field(s, s->root, "ensure_row_contiguous", true, &ok);
    s->pub.atomic_outputs = !coreai && bool_field(s, s->root, "atomic_outputs", false, &ok);
    const cJSON *call = field(s, s->root, "call", "call", false, &ok);
    if (call && !cJSON_IsObject(call))
        return type_error(s, "call", "an object", call);
    static const char *const keys[2][2] = {
        {"name input_names output_names source header ensure_row_contiguous atomic_outputs call",
         "inputs template output_shapes output_dtypes grid threadgroup init_value"},
        {"name input_names result_names src metal_params template_dtypes torch_defn call",
         "inputs result_shapes result_dtypes threads_per_grid threads_per_thread_group init_value"},
    };
    if (!known_keys(s, s->root, "", keys[coreai][0]) || !known_keys(s, call, "call.", keys[coreai][1]))
        return false;
    if (!ok || !read_inputs(s, call, args) || !read_outputs(s, call, args) ||
        (!coreai && !read_template(s, call, args)) || !read_dispatch(s, call, args))
        return false;
    if (coreai && args && args->templates && args->templates[0])
        return spec_error(s, "template arguments are MLX's; a Core AI spec takes template_dtypes");
    return coreai ? coreai_source(s) : mlx_source(s);
}

bool m2g_is_spec_path(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && !strcmp(path + n - 5, ".json");
}

M2gSpec *m2g_spec_load(const char *path, const M2gSpecArgs *args, FILE *diag)
{
    Spec *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->arena = arena_create();
    s->diag = diag ? diag : stderr;
    s->pub.path = arena_strdup(s->arena, path);
    s->pub.priv = s;
    const char *slash = strrchr(path, '/');
    s->dir = slash ? arena_printf(s->arena, "%.*s", (int)(slash - path), path) : NULL;
    char *text = read_text_file(s, path);
    const char *at = NULL;
    if (text && !(s->root = cJSON_ParseWithOpts(text, &at, true))) { /* true: nothing after the value */
        int line = 1;
        at = at ? at : cJSON_GetErrorPtr();
        for (const char *p = text; at && p < at; p++)
            line += *p == '\n';
        spec_error(s, "not valid JSON (near line %d)", line);
    } else if (text && !cJSON_IsObject(s->root)) {
        type_error(s, "(top level)", "an object", s->root);
    } else if (text && unique_keys(s, s->root, "") && read_spec(s, args)) {
        free(text);
        return &s->pub;
    }
    free(text);
    m2g_spec_free(&s->pub);
    return NULL;
}

M2gResult *m2g_translate_spec(const M2gSpec *spec, const M2gOptions *opt)
{
    M2gOptions o = opt ? *opt : (M2gOptions){0};
    o.only_entry = spec->entry;
    o.sources = spec->sources;
    return m2g_translate_source(spec->path, spec->source, &o);
}

void m2g_spec_free(M2gSpec *spec)
{
    if (!spec)
        return;
    Spec *s = spec->priv;
    free(spec->source);
    cJSON_Delete(s->root);
    arena_destroy(s->arena);
    free(s);
}
