/* emit_c.c: --emit=c. A C source and header that embed each entry point's SPIR-V and reflection JSON and give it a
 * typed launch function over the runtime (mtlrt.h), for builds that link kernels into a program
 * (docs/build-integration.md). The parameters come from the reflection JSON reflect.c writes, so the C API follows
 * whatever the reflection says: storage buffers as MtlrtBuffer*, push-constant scalars by value.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Metal scalar type -> C type for a `constant T&` passed by value; NULL: passed as bytes (vectors, structs). */
static const char *c_scalar_type(const char *metal)
{
    static const char *const map[][2] = {
        {"bool", "bool"},      {"char", "int8_t"},    {"uchar", "uint8_t"},  {"short", "int16_t"},
        {"ushort", "uint16_t"}, {"int", "int32_t"},    {"uint", "uint32_t"},  {"long", "int64_t"},
        {"ulong", "uint64_t"},  {"half", "uint16_t"},  {"bfloat", "uint16_t"}, {"float", "float"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(metal, map[i][0]))
            return map[i][1];
    return NULL;
}

typedef enum ArgKind {
    ARG_BUFFER, /* storage pointer or device T&: MtlrtBuffer *, bound at `binding` */
    ARG_VALUE,  /* push constant of scalar type: by value, copied to `offset` */
    ARG_BYTES,  /* push constant of vector/struct type: const void *, `size` bytes copied to `offset` */
    ARG_UPLOAD, /* constant T& when they do not fit in push constants: by value (scalars) or const void *, uploaded
                   to a buffer at `binding` for the launch */
} ArgKind;

typedef struct Arg {
    ArgKind kind;
    char name[128];  /* C parameter name */
    const char *ctype; /* ARG_VALUE */
    int index, binding, offset, size;
    const char *type, *space, *access;
    bool pointer;
} Arg;

/* A `threadgroup T* p [[threadgroup(n)]]` parameter (reflection "threadgroup_buffers"): the launch function takes
   its length in bytes, as Metal's setThreadgroupMemoryLength does. */
typedef struct TgArg {
    char name[136]; /* NAME_bytes */
    int index;
    const char *type;
} TgArg;

typedef struct Kernel {
    const M2gEntry *entry;
    cJSON *refl;
    Arg args[32];
    int n_args;
    TgArg tg[32];
    int n_tg;
    int n_bindings; /* highest binding + 1 */
    int push_size;  /* bytes of push constants, at least the 16-byte dispatch block */
    unsigned *spirv;
    size_t spirv_size;
} Kernel;

static const char *json_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int json_int(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : 0;
}

/* A Metal parameter name as a C parameter name that cannot collide with the launch function's own parameters
   (kernels, style, grid, threadgroup), its locals (mtl_*) or a C-only keyword. */
static void c_param_name(char *out, size_t n, const char *metal)
{
    static const char *const taken[] = {"kernels", "style", "grid", "threadgroup", "restrict", "_Bool", "inline"};
    bool clash = !strncmp(metal, "mtl_", 4);
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
        clash |= !strcmp(metal, taken[i]);
    snprintf(out, n, "%s%s", metal, clash ? "_" : "");
}

/* Reads one buffer entry of the reflection into an Arg; false (message printed) for a kind it does not know. */
static bool arg_from_json(Arg *a, const cJSON *b, const char *source, const char *entry)
{
    a->index = json_int(b, "index");
    a->binding = json_int(b, "binding");
    a->offset = json_int(b, "offset");
    a->size = json_int(b, "size");
    a->type = json_str(b, "type");
    a->space = json_str(b, "address_space");
    a->access = json_str(b, "access");
    a->pointer = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "pointer"));
    c_param_name(a->name, sizeof a->name, json_str(b, "name"));
    const char *kind = json_str(b, "kind");
    bool push = !strcmp(kind, "push_constant");
    if (!push && strcmp(kind, "storage")) {
        fprintf(stderr, "%s: error: --emit=c: parameter '%s' of kernel '%s' has reflection kind '%s'; the C generator "
                        "knows storage and push_constant\n", source, a->name, entry, kind);
        return false;
    }
    a->ctype = c_scalar_type(a->type);
    if (push)
        a->kind = a->ctype ? ARG_VALUE : ARG_BYTES;
    else
        a->kind = !a->pointer && !strcmp(a->space, "constant") ? ARG_UPLOAD : ARG_BUFFER;
    if (a->kind == ARG_UPLOAD)
        a->size = json_int(b, "element_size");
    return true;
}

/* Compiles the entry's GLSL to SPIR-V and reads its reflection into K. */
static bool kernel_load(Kernel *k, const M2gEntry *e, const char *source)
{
    k->entry = e;
    char *err = NULL;
    k->spirv = spirv_compile(e->glsl, e->name, &k->spirv_size, &err);
    if (!k->spirv) {
        fprintf(stderr, "%s: error: internal error: generated GLSL for '%s' did not compile:\n%s", source, e->name,
                err ? err : "");
        free(err);
        return false;
    }
    k->refl = cJSON_Parse(e->reflect_json);
    if (!k->refl)
        return false;
    k->push_size = (json_int(k->refl, "push_constant_size") + 3) & ~3;
    if (k->push_size < 16)
        k->push_size = 16;
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(k->refl, "buffers"))
    {
        if (k->n_args == (int)(sizeof k->args / sizeof k->args[0]))
            break;
        Arg *a = &k->args[k->n_args++];
        if (!arg_from_json(a, b, source, e->name))
            return false;
        if ((a->kind == ARG_BUFFER || a->kind == ARG_UPLOAD) && a->binding + 1 > k->n_bindings)
            k->n_bindings = a->binding + 1;
    }
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(k->refl, "threadgroup_buffers"))
    {
        if (k->n_tg == (int)(sizeof k->tg / sizeof k->tg[0]))
            break;
        TgArg *t = &k->tg[k->n_tg++];
        char base[128];
        c_param_name(base, sizeof base, json_str(b, "name"));
        snprintf(t->name, sizeof t->name, "%s_bytes", base);
        t->index = json_int(b, "index");
        t->type = json_str(b, "type");
    }
    return true;
}

static void put_c_string(FILE *f, const char *text)
{
    fputs("    \"", f);
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            fputs("\\n\"\n    \"", f);
        else if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if ((unsigned char)*p < 0x20)
            fprintf(f, "\\%03o", (unsigned char)*p);
        else
            fputc(*p, f);
    }
    fputs("\"", f);
}

/* The launch function's prototype (no trailing ';'). */
static void put_prototype(FILE *f, const char *prefix, const Kernel *k)
{
    fprintf(f, "bool %s_%s(%s_kernels *kernels, MtlrtDispatchStyle style, const uint32_t grid[3],\n", prefix,
            k->entry->name, prefix);
    fprintf(f, "    const uint32_t threadgroup[3]");
    for (int i = 0; i < k->n_args; i++) {
        const Arg *a = &k->args[i];
        if (a->kind == ARG_BUFFER)
            fprintf(f, ", MtlrtBuffer *%s", a->name);
        else if (a->kind == ARG_VALUE || (a->kind == ARG_UPLOAD && a->ctype))
            fprintf(f, ", %s %s", a->ctype, a->name);
        else
            fprintf(f, ", const void *%s", a->name);
    }
    for (int i = 0; i < k->n_tg; i++)
        fprintf(f, ", uint32_t %s", k->tg[i].name);
    fputc(')', f);
}

/* The comment above a launch function: one line per parameter. */
static void put_param_doc(FILE *f, const Kernel *k)
{
    fprintf(f, "/* kernel %s: STYLE MTLRT_DISPATCH_THREADS runs GRID threads (dispatchThreads, any size),\n"
               "   MTLRT_DISPATCH_THREADGROUPS runs GRID threadgroups; THREADGROUP threads each.\n",
            k->entry->name);
    for (int i = 0; i < k->n_args; i++) {
        const Arg *a = &k->args[i];
        const char *how = a->kind == ARG_BUFFER ? "buffer, binding" : a->kind == ARG_VALUE ? "by value" :
                          a->kind == ARG_BYTES  ? "bytes in Metal layout" :
                          a->ctype              ? "by value, uploaded" : "bytes in Metal layout, uploaded";
        fprintf(f, "     %-12s [[buffer(%d)]] %s %s%s (%s, %s", a->name, a->index, a->space, a->type,
                a->pointer ? "*" : "&", a->access, how);
        if (a->kind == ARG_BUFFER)
            fprintf(f, " %d", a->binding);
        if (a->kind == ARG_BYTES || (a->kind == ARG_UPLOAD && !a->ctype))
            fprintf(f, ": %d", a->size);
        if (a->kind == ARG_VALUE && (!strcmp(a->type, "half") || !strcmp(a->type, "bfloat")))
            fprintf(f, ": the %s's 16 bits", a->type);
        fprintf(f, ")\n");
    }
    for (int i = 0; i < k->n_tg; i++)
        fprintf(f, "     %-12s [[threadgroup(%d)]] threadgroup %s* (its length in bytes)\n", k->tg[i].name, k->tg[i].index,
                k->tg[i].type);
    fprintf(f, "   False on error: mtlrt_last_status() and mtlrt_last_error() say why. */\n");
}

static void put_header(FILE *f, const char *prefix, const char *source, Kernel *ks, int n)
{
    fprintf(f, "/* Generated by mtl2glsl %s --emit=c from %s. Do not edit.\n", MTL2GLSL_VERSION, source);
    fprintf(f, "   Its kernels as SPIR-V with a launch function each, over the mtlrt runtime (mtlrt.h). */\n");
    fprintf(f, "#ifndef MTL2GLSL_GENERATED_%s_H\n#define MTL2GLSL_GENERATED_%s_H\n\n", prefix, prefix);
    fprintf(f, "#include <mtlrt.h>\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n");
    fprintf(f, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    fprintf(f, "typedef struct %s_kernels %s_kernels;\n\n", prefix, prefix);
    fprintf(f, "/* Creates the pipelines of every kernel of %s on CTX from the embedded SPIR-V (nothing is\n"
               "   compiled at run time). NULL on error (mtlrt_last_error() says why). */\n", source);
    fprintf(f, "%s_kernels *%s_kernels_create(MtlrtContext *ctx);\n", prefix, prefix);
    fprintf(f, "void %s_kernels_destroy(%s_kernels *kernels);\n", prefix, prefix);
    for (int i = 0; i < n; i++) {
        fputc('\n', f);
        put_param_doc(f, &ks[i]);
        put_prototype(f, prefix, &ks[i]);
        fprintf(f, ";\n");
    }
    fprintf(f, "\n/* The embedded data: SPIR-V words (SIZE bytes) and reflection JSON (docs/interfaces.md). */\n");
    for (int i = 0; i < n; i++) {
        const char *e = ks[i].entry->name;
        fprintf(f, "extern const uint32_t %s_%s_spirv[];\nextern const size_t %s_%s_spirv_size;\n", prefix, e,
                prefix, e);
        fprintf(f, "extern const char %s_%s_reflection[];\n", prefix, e);
    }
    fprintf(f, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

static void put_data(FILE *f, const char *prefix, const Kernel *k)
{
    const char *e = k->entry->name;
    size_t words = k->spirv_size / 4;
    fprintf(f, "const uint32_t %s_%s_spirv[] = {", prefix, e);
    for (size_t w = 0; w < words; w++)
        fprintf(f, "%s0x%08xu,", w % 8 ? " " : "\n    ", k->spirv[w]);
    fprintf(f, "\n};\nconst size_t %s_%s_spirv_size = %zu;\n", prefix, e, k->spirv_size);
    fprintf(f, "const char %s_%s_reflection[] =\n", prefix, e);
    put_c_string(f, k->entry->reflect_json);
    fprintf(f, ";\n\n");
}

/* The body of a launch function: bindings, push-constant bytes, uploads, one mtlrt_dispatch. */
static void put_launch(FILE *f, const char *prefix, const Kernel *k, int slot)
{
    put_prototype(f, prefix, k);
    fprintf(f, "\n{\n");
    fprintf(f, "    MtlrtBuffer *mtl_bind[%d] = {0};\n", k->n_bindings ? k->n_bindings : 1);
    fprintf(f, "    MtlrtBuffer *mtl_upload[%d] = {0};\n", k->n_bindings ? k->n_bindings : 1);
    fprintf(f, "    uint8_t mtl_push[%d] = {0};\n", k->push_size);
    fprintf(f, "    bool mtl_ok = true;\n");
    for (int i = 0; i < k->n_args; i++) {
        const Arg *a = &k->args[i];
        switch (a->kind) {
        case ARG_BUFFER:
            fprintf(f, "    mtl_bind[%d] = %s;\n", a->binding, a->name);
            break;
        case ARG_VALUE:
            fprintf(f, "    memcpy(mtl_push + %d, &%s, %d);\n", a->offset, a->name, a->size);
            break;
        case ARG_BYTES:
            fprintf(f, "    memcpy(mtl_push + %d, %s, %d);\n", a->offset, a->name, a->size);
            break;
        case ARG_UPLOAD:
            fprintf(f, "    mtl_bind[%d] = mtl_upload[%d] = mtlrt_buffer_create(kernels->ctx, %d);\n", a->binding,
                    a->binding, a->size);
            fprintf(f, "    mtl_ok = mtl_ok && mtl_upload[%d] && mtlrt_buffer_write(mtl_upload[%d], %s%s, %d);\n",
                    a->binding, a->binding, a->ctype ? "&" : "", a->name, a->size);
            break;
        }
    }
    fprintf(f, "    MtlrtDispatch mtl_d = {\n");
    fprintf(f, "        .style = style,\n");
    fprintf(f, "        .size = {grid[0], grid[1], grid[2]},\n");
    fprintf(f, "        .threadgroup = {threadgroup[0], threadgroup[1], threadgroup[2]},\n");
    fprintf(f, "        .bindings = mtl_bind,\n        .n_bindings = %d,\n", k->n_bindings);
    fprintf(f, "        .push_data = mtl_push,\n        .push_size = sizeof mtl_push,\n    };\n");
    for (int i = 0; i < k->n_tg; i++)
        fprintf(f, "    mtl_d.threadgroup_memory[%d] = %s;\n", k->tg[i].index, k->tg[i].name);
    fprintf(f, "    mtl_ok = mtl_ok && mtlrt_dispatch(kernels->pipe[%d], &mtl_d, NULL);\n", slot);
    fprintf(f, "    for (int i = 0; i < %d; i++)\n        mtlrt_buffer_destroy(mtl_upload[i]);\n",
            k->n_bindings ? k->n_bindings : 1);
    fprintf(f, "    return mtl_ok;\n}\n\n");
}

/* The kernels object: reflection parsed and pipeline created per entry point. */
static void put_create(FILE *f, const char *prefix, const Kernel *ks, int n)
{
    int slots = n ? n : 1;
    fprintf(f, "void %s_kernels_destroy(%s_kernels *kernels)\n{\n    if (!kernels)\n        return;\n", prefix,
            prefix);
    fprintf(f, "    for (int i = 0; i < %d; i++) {\n        mtlrt_pipeline_destroy(kernels->pipe[i]);\n"
               "        mtlrt_reflection_destroy(kernels->refl[i]);\n    }\n    free(kernels);\n}\n\n", slots);
    fprintf(f, "%s_kernels *%s_kernels_create(MtlrtContext *ctx)\n{\n", prefix, prefix);
    fprintf(f, "    static const struct {\n        const char *name;\n        const uint32_t *spirv;\n"
               "        const size_t *size;\n        const char *json;\n    } entries[%d] = {\n", slots);
    for (int i = 0; i < n; i++) {
        const char *e = ks[i].entry->name;
        fprintf(f, "        {\"%s\", %s_%s_spirv, &%s_%s_spirv_size, %s_%s_reflection},\n", e, prefix, e, prefix, e,
                prefix, e);
    }
    if (!n)
        fprintf(f, "        {0},\n");
    fprintf(f, "    };\n");
    fprintf(f, "    %s_kernels *kernels = calloc(1, sizeof *kernels);\n    if (!kernels)\n        return NULL;\n",
            prefix);
    fprintf(f, "    kernels->ctx = ctx;\n    for (int i = 0; i < %d; i++) {\n", n);
    fprintf(f, "        kernels->refl[i] = mtlrt_reflection_parse(entries[i].json, NULL, entries[i].name);\n");
    fprintf(f, "        if (!kernels->refl[i] ||\n            !(kernels->pipe[i] = mtlrt_pipeline_create_spirv(ctx, "
               "entries[i].spirv, *entries[i].size,\n"
               "                                                             entries[i].name, kernels->refl[i]))) {\n");
    fprintf(f, "            %s_kernels_destroy(kernels);\n            return NULL;\n        }\n    }\n", prefix);
    fprintf(f, "    return kernels;\n}\n");
}

static void put_source(FILE *f, const char *prefix, const char *source, const char *h_path, Kernel *ks, int n)
{
    const char *h_base = strrchr(h_path, '/') ? strrchr(h_path, '/') + 1 : h_path;
    fprintf(f, "/* Generated by mtl2glsl %s --emit=c from %s. Do not edit. */\n", MTL2GLSL_VERSION, source);
    fprintf(f, "#include \"%s\"\n\n#include <stdlib.h>\n#include <string.h>\n\n", h_base);
    for (int i = 0; i < n; i++)
        put_data(f, prefix, &ks[i]);
    fprintf(f, "struct %s_kernels {\n    MtlrtContext *ctx;\n    MtlrtReflection *refl[%d];\n"
               "    MtlrtPipeline *pipe[%d];\n};\n\n", prefix, n ? n : 1, n ? n : 1);
    for (int i = 0; i < n; i++)
        put_launch(f, prefix, &ks[i], i);
    put_create(f, prefix, ks, n);
}

static bool close_checked(FILE *f, const char *path)
{
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "mtl2glsl: error: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    return true;
}

bool emit_c_files(const M2gResult *r, const char *source, const char *prefix, const char *c_path, const char *h_path)
{
    Kernel *ks = calloc((size_t)r->n_entries + 1, sizeof *ks);
    int n = 0;
    bool ok = ks != NULL;
    for (int i = 0; ok && i < r->n_entries; i++) {
        const char *e = r->entries[i].name;
        if (!strcmp(e, "kernels") || !strcmp(e, "kernels_create") || !strcmp(e, "kernels_destroy")) {
            fprintf(stderr, "%s: error: --emit=c: kernel '%s' would collide with the generated %s_%s\n", source, e,
                    prefix, e);
            ok = false;
        } else if (r->entries[i].glsl) {
            ok = kernel_load(&ks[n++], &r->entries[i], source);
        }
    }
    const char *base = strrchr(source, '/') ? strrchr(source, '/') + 1 : source;
    FILE *f = ok ? fopen(h_path, "w") : NULL;
    if (ok && !f)
        fprintf(stderr, "mtl2glsl: error: cannot write '%s': %s\n", h_path, strerror(errno));
    if (f) {
        put_header(f, prefix, base, ks, n);
        ok = close_checked(f, h_path);
        f = ok ? fopen(c_path, "w") : NULL;
        if (ok && !f)
            fprintf(stderr, "mtl2glsl: error: cannot write '%s': %s\n", c_path, strerror(errno));
    }
    if (f) {
        put_source(f, prefix, base, h_path, ks, n);
        ok = close_checked(f, c_path);
    } else {
        ok = false;
    }
    for (int i = 0; ks && i < n; i++) {
        free(ks[i].spirv);
        cJSON_Delete(ks[i].refl);
    }
    free(ks);
    return ok;
}
