/* reflect.c: the reflection JSON of a translated entry point (docs/interfaces.md) and the rules for which
   arrays may back which parameter. */
#include "internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* What a reflection may say (docs/interfaces.md): Metal's [[buffer(0..30)]], Vulkan's push constant sizes (the
   largest maxPushConstantsSize of any device is 4096), element sizes of one type (the translator's limit). */
enum { MAX_BUFFER_INDEX = 30, MAX_PUSH_CONSTANT_SIZE = 4096, MAX_ELEMENT_SIZE = 1 << 28 };

/* Copy of string member KEY of OBJ, or DEF when absent (NULL DEF: required, error). */
static bool get_string(const cJSON *obj, const char *key, const char *def, char **out, const char *where)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    const char *s = cJSON_IsString(item) ? item->valuestring : def;
    if (!s) {
        rt_error("%s: reflection has no string `%s`", where, key);
        return false;
    }
    *out = strdup(s);
    return *out != NULL;
}

/* Non-negative integer member KEY of OBJ; DEF when absent or null (negative DEF: required, error). */
static bool get_uint(const cJSON *obj, const char *key, long def, uint32_t *out, const char *where)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (cJSON_IsNumber(item) && item->valuedouble >= 0 && item->valuedouble <= UINT32_MAX) {
        *out = (uint32_t)item->valuedouble;
        return true;
    }
    if ((!item || cJSON_IsNull(item)) && def >= 0) {
        *out = (uint32_t)def;
        return true;
    }
    rt_error("%s: reflection needs a non-negative integer `%s`", where, key);
    return false;
}

/* "addresses" of a storage parameter: where its argument buffer holds device addresses (8 bytes each, 8-aligned). */
static bool parse_addresses(const cJSON *obj, const char *source, MtlrtParam *p)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(obj, "addresses");
    if (!list || cJSON_IsNull(list))
        return true;
    int n = cJSON_GetArraySize(list);
    if (!cJSON_IsArray(list) || n > 4096) {
        rt_error("%s: buffer %u (%s): `addresses` must be an array (of at most 4096)", source, p->index, p->name);
        return false;
    }
    if (n && !(p->addresses = calloc((size_t)n, sizeof *p->addresses)))
        return rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory");
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        MtlrtAddressField *f = &p->addresses[p->n_addresses++];
        if (!get_string(item, "member", NULL, &f->member, source) || !get_uint(item, "offset", -1, &f->offset, source) ||
            !get_uint(item, "count", 1, &f->count, source) || !get_string(item, "type", "", &f->type, source))
            return false;
        if (f->offset % 8 || !f->count || f->count > (1u << 20) || f->offset > UINT32_MAX - 8 * f->count) {
            rt_error("%s: buffer %u (%s): address field %s: offset %u must be a multiple of 8 and count 1..1048576",
                     source, p->index, p->name, f->member, f->offset);
            return false;
        }
    }
    return true;
}

/* One element of "buffers". */
static bool parse_param(const cJSON *obj, const char *source, MtlrtParam *p)
{
    char *kind = NULL;
    bool ok = get_uint(obj, "index", -1, &p->index, source) && get_string(obj, "name", NULL, &p->name, source) &&
              get_string(obj, "kind", NULL, &kind, source) && get_string(obj, "type", "", &p->type, source) &&
              get_string(obj, "scalar", "struct", &p->scalar, source) &&
              get_uint(obj, "element_size", 0, &p->element_size, source) &&
              get_string(obj, "address_space", "device", &p->address_space, source) &&
              get_string(obj, "access", "read_write", &p->access, source);
    if (!ok)
        goto done;
    p->pointer = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, "pointer"));
    if (cJSON_HasObjectItem(obj, "function_constant") && !get_string(obj, "function_constant", NULL, &p->function_constant, source)) {
        ok = false;
        goto done;
    }
    if (p->index > MAX_BUFFER_INDEX || (cJSON_HasObjectItem(obj, "element_size") && !p->element_size) ||
        p->element_size > MAX_ELEMENT_SIZE) {
        rt_error("%s: buffer %u (%s): index must be 0..%d and element_size 1..%d", source, p->index, p->name,
                 MAX_BUFFER_INDEX, MAX_ELEMENT_SIZE);
        ok = false;
        goto done;
    }
    if (!strcmp(kind, "storage")) {
        p->kind = MTLRT_PARAM_STORAGE;
        ok = get_uint(obj, "binding", p->index, &p->binding, source) &&
             get_uint(obj, "address_offset", 0, &p->address_offset, source) && parse_addresses(obj, source, p);
        if (ok && p->address_offset && (p->address_offset % 8 || p->address_offset > MAX_PUSH_CONSTANT_SIZE - 8)) {
            rt_error("%s: buffer %u (%s): address_offset %u is not a multiple of 8 within the push constants",
                     source, p->index, p->name, p->address_offset);
            ok = false;
        }
        if (ok && p->binding >= MAX_BINDINGS) {
            rt_error("%s: buffer %u (%s): binding %u is beyond the %d the runtime supports", source, p->index,
                     p->name, p->binding, MAX_BINDINGS);
            ok = false;
        }
    } else if (!strcmp(kind, "push_constant")) {
        p->kind = MTLRT_PARAM_PUSH_CONSTANT;
        ok = get_uint(obj, "offset", -1, &p->offset, source) && get_uint(obj, "size", -1, &p->size, source);
        if (ok && (!p->size || p->offset < 16 || p->offset > MAX_PUSH_CONSTANT_SIZE ||
                   p->size > MAX_PUSH_CONSTANT_SIZE - p->offset)) {
            rt_error("%s: buffer %u (%s): push constant bytes %u..%u are not within 16..%d", source, p->index,
                     p->name, p->offset, p->offset + p->size, MAX_PUSH_CONSTANT_SIZE);
            ok = false;
        }
    } else {
        rt_error("%s: buffer %u (%s): kind '%s' is neither \"storage\" nor \"push_constant\"", source, p->index,
                 p->name, kind);
        ok = false;
    }
done:
    free(kind);
    return ok;
}

/* The "buffers" array: parameters, each index once. */
static bool parse_params(const cJSON *obj, const char *source, MtlrtReflection *r)
{
    const cJSON *bufs = cJSON_GetObjectItemCaseSensitive(obj, "buffers");
    if (!cJSON_IsArray(bufs)) {
        rt_error("%s: reflection has no array `buffers`", source);
        return false;
    }
    int n = cJSON_GetArraySize(bufs);
    r->params = calloc(n ? (size_t)n : 1, sizeof *r->params);
    if (!r->params)
        return false;
    const cJSON *item;
    cJSON_ArrayForEach(item, bufs)
    {
        MtlrtParam *p = &r->params[r->n_params++];
        if (!parse_param(item, source, p))
            return false;
        for (uint32_t i = 0; i + 1 < r->n_params; i++)
            if (r->params[i].index == p->index) {
                rt_error("%s: buffer index %u appears twice (%s and %s)", source, p->index, r->params[i].name,
                         p->name);
                return false;
            }
    }
    return true;
}

/* The "features" array of Vulkan feature names. */
static bool parse_features(const cJSON *obj, const char *source, MtlrtReflection *r)
{
    const cJSON *feats = cJSON_GetObjectItemCaseSensitive(obj, "features");
    if (!feats)
        return true;
    int n = cJSON_GetArraySize(feats);
    r->features = calloc(n ? (size_t)n : 1, sizeof *r->features);
    if (!r->features)
        return false;
    const cJSON *item;
    cJSON_ArrayForEach(item, feats)
    {
        if (!cJSON_IsString(item)) {
            rt_error("%s: `features` must hold strings", source);
            return false;
        }
        if (!(r->features[r->n_features++] = strdup(item->valuestring)))
            return false;
    }
    return true;
}

/* "threadgroup_buffers", "threadgroup_memory", "exact_threadgroups" and "simd" (all optional). */
static bool parse_sync(const cJSON *obj, const char *source, MtlrtReflection *r)
{
    r->exact_threadgroups = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, "exact_threadgroups"));
    if (!get_uint(obj, "threadgroup_memory", 0, &r->threadgroup_memory, source))
        return false;
    const cJSON *tgp = cJSON_GetObjectItemCaseSensitive(obj, "threadgroup_buffers");
    int n = cJSON_IsArray(tgp) ? cJSON_GetArraySize(tgp) : 0;
    r->threadgroup_params = calloc(n ? (size_t)n : 1, sizeof *r->threadgroup_params);
    if (!r->threadgroup_params)
        return false;
    const cJSON *item;
    for (int i = 0; i < n; i++) {
        item = cJSON_GetArrayItem(tgp, i);
        MtlrtThreadgroupParam *t = &r->threadgroup_params[r->n_threadgroup_params++];
        if (!get_uint(item, "index", -1, &t->index, source) || !get_string(item, "name", NULL, &t->name, source) ||
            !get_string(item, "type", "", &t->type, source) || !get_uint(item, "element_size", -1, &t->element_size, source))
            return false;
        char *per_thread = NULL;
        if (!get_uint(item, "min_elements", 1, &t->min_elements, source) ||
            !get_string(item, "min_per_thread", "none", &per_thread, source))
            return false;
        static const char *const per_thread_names[] = {"none", "thread_position_in_threadgroup.x",
                                                       "thread_index_in_threadgroup"};
        int pt = -1;
        for (int k = 0; k < 3; k++)
            if (!strcmp(per_thread, per_thread_names[k]))
                pt = k;
        free(per_thread);
        if (pt < 0) {
            rt_error("%s: threadgroup buffer %s: min_per_thread must be none, thread_position_in_threadgroup.x or "
                     "thread_index_in_threadgroup", source, t->name);
            return false;
        }
        t->min_per_thread = (MtlrtTgPerThread)pt;
        if (t->index > 30 || !t->element_size) {
            rt_error("%s: threadgroup buffer %s: index must be 0..30 and element_size positive", source, t->name);
            return false;
        }
    }
    const cJSON *simd = cJSON_GetObjectItemCaseSensitive(obj, "simd");
    if (!cJSON_IsObject(simd))
        return true;
    if (!get_uint(simd, "subgroup_size", -1, &r->subgroup_size, source))
        return false;
    if (r->subgroup_size < 1 || r->subgroup_size > 128 || (r->subgroup_size & (r->subgroup_size - 1))) {
        rt_error("%s: simd.subgroup_size %u is not a power of two up to 128", source, r->subgroup_size);
        return false;
    }
    r->virtual_subgroups = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(simd, "virtual"));
    /* lanes "metal" | "mma", matrix_products "exact" | "tensor_cores" | null (absent: "metal" and null) */
    const cJSON *lanes = cJSON_GetObjectItemCaseSensitive(simd, "lanes");
    const cJSON *products = cJSON_GetObjectItemCaseSensitive(simd, "matrix_products");
    if (lanes &&
        !(cJSON_IsString(lanes) && (!strcmp(lanes->valuestring, "metal") || !strcmp(lanes->valuestring, "mma")))) {
        rt_error("%s: simd.lanes must be \"metal\" or \"mma\"", source);
        return false;
    }
    if (products && !cJSON_IsNull(products) &&
        !(cJSON_IsString(products) &&
          (!strcmp(products->valuestring, "exact") || !strcmp(products->valuestring, "tensor_cores")))) {
        rt_error("%s: simd.matrix_products must be \"exact\", \"tensor_cores\" or null", source);
        return false;
    }
    r->mma_lanes = lanes && !strcmp(lanes->valuestring, "mma");
    r->tensor_cores = cJSON_IsString(products) && !strcmp(products->valuestring, "tensor_cores");
    if (r->tensor_cores && (!r->mma_lanes || r->virtual_subgroups || r->subgroup_size != 32)) {
        rt_error("%s: simd.matrix_products \"tensor_cores\" needs lanes \"mma\" on native 32-wide subgroups "
                 "(subgroup_size 32, not virtual)", source);
        return false;
    }
    static const struct { const char *name; uint32_t bit; } ops[] = {
        {"basic", MTLRT_SUBGROUP_BASIC}, {"vote", MTLRT_SUBGROUP_VOTE}, {"arithmetic", MTLRT_SUBGROUP_ARITHMETIC},
        {"ballot", MTLRT_SUBGROUP_BALLOT}, {"shuffle", MTLRT_SUBGROUP_SHUFFLE},
        {"shuffle_relative", MTLRT_SUBGROUP_SHUFFLE_RELATIVE}, {"clustered", MTLRT_SUBGROUP_CLUSTERED},
        {"quad", MTLRT_SUBGROUP_QUAD},
    };
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(simd, "operations"))
    {
        bool known = false;
        for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
            if (cJSON_IsString(item) && !strcmp(item->valuestring, ops[i].name)) {
                r->subgroup_ops |= ops[i].bit;
                known = true;
            }
        if (!known) {
            rt_error("%s: unknown subgroup operation class in simd.operations", source);
            return false;
        }
    }
    return true;
}

/* "function_constants" (optional): index, name, type and specialization constant ids of each. */
static bool parse_function_constants(const cJSON *obj, const char *source, MtlrtReflection *r)
{
    const cJSON *fcs = cJSON_GetObjectItemCaseSensitive(obj, "function_constants");
    int n = cJSON_IsArray(fcs) ? cJSON_GetArraySize(fcs) : 0;
    r->function_constants = calloc(n ? (size_t)n : 1, sizeof *r->function_constants);
    if (!r->function_constants)
        return false;
    for (int i = 0; i < n; i++) {
        const cJSON *item = cJSON_GetArrayItem(fcs, i);
        MtlrtFunctionConstant *f = &r->function_constants[r->n_function_constants++];
        if (!get_uint(item, "index", -1, &f->index, source) || !get_string(item, "name", NULL, &f->name, source) ||
            !get_string(item, "type", NULL, &f->type, source) ||
            !get_uint(item, "constant_id", 100 + 2 * i, &f->constant_id, source) ||
            !get_uint(item, "defined_constant_id", 101 + 2 * i, &f->defined_constant_id, source))
            return false;
    }
    return true;
}

/* "bounds_check" (kernels translated with check_bounds): the record's binding, the slots, the locations. */
static bool parse_bounds(const cJSON *obj, const char *source, MtlrtReflection *r)
{
    const cJSON *bc = cJSON_GetObjectItemCaseSensitive(obj, "bounds_check");
    if (!cJSON_IsObject(bc))
        return true;
    const cJSON *slots = cJSON_GetObjectItemCaseSensitive(bc, "slots");
    const cJSON *locs = cJSON_GetObjectItemCaseSensitive(bc, "locations");
    int n = cJSON_GetArraySize(slots), m = cJSON_GetArraySize(locs);
    r->bounds_check = true;
    r->bounds_slots = calloc(n ? (size_t)n : 1, sizeof *r->bounds_slots);
    r->bounds_locations = calloc(m ? (size_t)m : 1, sizeof *r->bounds_locations);
    if (!r->bounds_slots || !r->bounds_locations || !get_uint(bc, "binding", -1, &r->bounds_binding, source))
        return false;
    if (r->bounds_binding >= MAX_BINDINGS) {
        rt_error("%s: bounds_check.binding %u is beyond the %d bindings the runtime supports", source,
                 r->bounds_binding, MAX_BINDINGS);
        return false;
    }
    for (int i = 0; i < n; i++) {
        const cJSON *o = cJSON_GetArrayItem(slots, i);
        MtlrtBoundsSlot *sl = &r->bounds_slots[r->n_bounds_slots++];
        uint32_t binding, tg;
        if (!get_string(o, "array", NULL, &sl->array, source) || !get_string(o, "type", "", &sl->type, source) ||
            !get_uint(o, "binding", UINT32_MAX, &binding, source) || !get_uint(o, "threadgroup", UINT32_MAX, &tg, source))
            return false;
        sl->binding = binding == UINT32_MAX ? -1 : (int32_t)binding;
        sl->threadgroup = tg == UINT32_MAX ? -1 : (int32_t)tg;
    }
    for (int i = 0; i < m; i++) {
        const cJSON *l = cJSON_GetArrayItem(locs, i);
        if (!(r->bounds_locations[r->n_bounds_locations++] = strdup(cJSON_IsString(l) ? l->valuestring : "?")))
            return false;
    }
    return true;
}

/* The object to use: OBJ itself, or the element of array OBJ whose entry is ENTRY (or the only one). */
static const cJSON *pick_entry(const cJSON *root, const char *entry, const char *source)
{
    if (cJSON_IsObject(root))
        return root;
    if (!cJSON_IsArray(root)) {
        rt_error("%s: reflection must be a JSON object or an array of them", source);
        return NULL;
    }
    if (!entry && cJSON_GetArraySize(root) == 1)
        return cJSON_GetArrayItem(root, 0);
    const cJSON *item;
    cJSON_ArrayForEach(item, root)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(item, "entry");
        if (entry && cJSON_IsString(name) && !strcmp(name->valuestring, entry))
            return item;
    }
    rt_error("%s: %s%s", source, entry ? "no reflection object for entry " : "several entry points; pick one with --entry",
             entry ? entry : "");
    return NULL;
}

/* 1-based line of position END in TEXT (1 when unknown). */
static int line_of(const char *text, const char *end)
{
    int line = 1;
    for (const char *p = text; end && p < end && *p; p++)
        line += *p == '\n';
    return line;
}

/* Parse reflection JSON (object, or array + ENTRY). NULL on error, with a message naming SOURCE. */
MtlrtReflection *mtlrt_reflection_parse(const char *json, const char *entry, const char *source)
{
    MtlrtReflection *r = calloc(1, sizeof *r);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, true);
    const cJSON *obj;
    if (!r || !root) {
        rt_error("%s:%d: invalid JSON near '%.20s'", source, line_of(json, end), end ? end : "");
        goto error;
    }
    if (!(obj = pick_entry(root, entry, source)))
        goto error;
    if (!get_string(obj, "entry", entry ? entry : "main", &r->entry, source) ||
        !get_uint(obj, "max_total_threads_per_threadgroup", 0, &r->max_total_threads, source) ||
        !get_uint(obj, "push_constant_size", 16, &r->push_constant_size, source) ||
        !parse_params(obj, source, r) || !parse_features(obj, source, r) || !parse_sync(obj, source, r) ||
        !parse_function_constants(obj, source, r) || !get_string(obj, "source", "", &r->source, source) ||
        !parse_bounds(obj, source, r))
        goto error;
    if (r->push_constant_size < 16 || r->push_constant_size > MAX_PUSH_CONSTANT_SIZE) {
        rt_error("%s: push_constant_size %u is not within 16..%d", source, r->push_constant_size, MAX_PUSH_CONSTANT_SIZE);
        goto error;
    }
    for (uint32_t i = 0; i < r->n_params; i++) {
        const MtlrtParam *p = &r->params[i];
        uint32_t end = p->kind == MTLRT_PARAM_PUSH_CONSTANT ? p->offset + p->size : p->address_offset ? p->address_offset + 8 : 0;
        if (end > r->push_constant_size) {
            rt_error("%s: buffer %u (%s) ends at push constant byte %u, past push_constant_size %u", source,
                     p->index, p->name, end, r->push_constant_size);
            goto error;
        }
    }
    cJSON_Delete(root);
    return r;
error:
    cJSON_Delete(root);
    mtlrt_reflection_destroy(r);
    return NULL;
}

void mtlrt_reflection_destroy(MtlrtReflection *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->n_params; i++) {
        MtlrtParam *p = &r->params[i];
        free(p->name), free(p->type), free(p->scalar), free(p->address_space), free(p->access);
        free(p->function_constant);
        for (uint32_t k = 0; k < p->n_addresses; k++)
            free(p->addresses[k].member), free(p->addresses[k].type);
        free(p->addresses);
    }
    for (uint32_t i = 0; i < r->n_features; i++)
        free(r->features[i]);
    free(r->features);
    for (uint32_t i = 0; i < r->n_threadgroup_params; i++)
        free(r->threadgroup_params[i].name), free(r->threadgroup_params[i].type);
    free(r->threadgroup_params);
    for (uint32_t i = 0; i < r->n_function_constants; i++)
        free(r->function_constants[i].name), free(r->function_constants[i].type);
    free(r->function_constants);
    free(r->source);
    for (uint32_t i = 0; i < r->n_bounds_slots; i++)
        free(r->bounds_slots[i].array), free(r->bounds_slots[i].type);
    free(r->bounds_slots);
    for (uint32_t i = 0; i < r->n_bounds_locations; i++)
        free(r->bounds_locations[i]);
    free(r->bounds_locations);
    free(r->params);
    free(r->entry);
    free(r);
}

const MtlrtParam *mtlrt_reflection_param(const MtlrtReflection *r, uint32_t index)
{
    for (uint32_t i = 0; i < r->n_params; i++)
        if (r->params[i].index == index)
            return &r->params[i];
    return NULL;
}

/* True when DTYPE may carry Metal scalar SCALAR of ELEMENT_SIZE-byte elements (bool also takes uint8, bfloat
   raw uint16 bits, a float vector of an even width complex64 pairs). */
static bool dtype_matches_scalar(MtlrtDtype dtype, const char *scalar, uint32_t element_size)
{
    if (!strcmp(scalar, "struct") || !strcmp(scalar, "void")) /* raw bytes (a struct, `device void*`) */
        return true;
    if (!strcmp(scalar, "bool"))
        return dtype == MTLRT_DTYPE_BOOL || dtype == MTLRT_DTYPE_U8;
    if (!strcmp(scalar, "bfloat"))
        return dtype == MTLRT_DTYPE_BF16 || dtype == MTLRT_DTYPE_U16;
    if (!strcmp(scalar, "float") && dtype == MTLRT_DTYPE_C64)
        return element_size && element_size % 8 == 0;
    return mtlrt_dtype_from_name(scalar) == dtype;
}

/* Check that A (from WHAT) may back P: dtype vs scalar, byte size vs element size. */
bool mtlrt_param_accepts(const MtlrtParam *p, const MtlrtArray *a, const char *what)
{
    MtlrtDtype want = mtlrt_dtype_from_name(p->scalar);
    const char *ref = p->pointer ? "*" : "&";
    if (!dtype_matches_scalar(a->dtype, p->scalar, p->element_size)) {
        rt_error("buffer %u (%s): expected %s data for `%s %s%s`, got %s from %s", p->index, p->name,
                 !strcmp(p->scalar, "bfloat") ? "bfloat16 (or uint16 bits)" : mtlrt_dtype_name(want), p->address_space,
                 p->type, ref, mtlrt_dtype_name(a->dtype), what);
        return false;
    }
    if (p->element_size && a->nbytes % p->element_size) {
        rt_error("buffer %u (%s): `%s %s%s` has %u-byte elements, but %s holds %zu bytes (%llu %s), not a multiple",
                 p->index, p->name, p->address_space, p->type, ref, p->element_size, what, a->nbytes,
                 (unsigned long long)a->count, mtlrt_dtype_name(a->dtype));
        return false;
    }
    if (p->kind == MTLRT_PARAM_PUSH_CONSTANT && a->nbytes != p->size) {
        rt_error("buffer %u (%s): `%s %s%s` is %u bytes of push constants, but %s holds %zu bytes", p->index,
                 p->name, p->address_space, p->type, ref, p->size, what, a->nbytes);
        return false;
    }
    return true;
}
