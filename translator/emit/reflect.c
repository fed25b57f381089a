/* reflect.c: the reflection object of one entry point (docs/interfaces.md), written with cJSON. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *space_name(AddrSpace as)
{
    switch (as) {
    case AS_DEVICE: return "device";
    case AS_CONSTANT: return "constant";
    case AS_THREADGROUP: return "threadgroup";
    default: return "thread";
    }
}

static const char *access_name(Var *v)
{
    if (v->ty->as == AS_CONSTANT || !v->written) /* a const buffer written through a cast is written */
        return "read";
    if (v->read && v->written)
        return "read_write";
    return v->written ? "write" : "read";
}

/* The pointer members of struct S at byte OFF of an argument buffer (StructDef.addresses), named PATH.member:
   where the host writes device addresses, 8 bytes each (docs/interfaces.md "addresses"). */
static void add_addresses(Program *prog, cJSON *list, const StructDef *s, int off, const char *path)
{
    for (int i = 0; i < s->n_fields; i++) {
        const Field *f = &s->fields[i];
        const char *name = *path ? arena_printf(prog->arena, "%s.%s", path, f->name) : f->name;
        int at = off + ty_member_offset(s, i), count = 1;
        Type *t = f->ty;
        while (t->kind == TY_ARRAY) {
            if (t->elem->kind == TY_STRUCT) { /* an array of structs: each element's own */
                for (int k = 0; k < t->n && t->elem->sdef->addresses; k++)
                    add_addresses(prog, list, t->elem->sdef, at + k * ty_metal_size(t->elem), arena_printf(prog->arena, "%s[%d]", name, k));
                t = NULL;
                break;
            }
            count *= t->n;
            t = t->elem;
        }
        if (t && t->kind == TY_STRUCT && t->sdef->addresses)
            add_addresses(prog, list, t->sdef, at, name);
        if (!t || t->kind != TY_PTR)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "member", name);
        cJSON_AddNumberToObject(o, "offset", at);
        cJSON_AddNumberToObject(o, "count", count);
        cJSON_AddStringToObject(o, "type", ty_metal_name(prog->arena, t->elem));
        cJSON_AddStringToObject(o, "address_space", space_name(t->as));
        cJSON_AddItemToArray(list, o);
    }
}

static cJSON *buffer_json(Program *prog, Var *v)
{
    cJSON *b = cJSON_CreateObject();
    Type *et = v->ty->elem;
    cJSON_AddNumberToObject(b, "index", v->index);
    cJSON_AddStringToObject(b, "name", v->name);
    bool push = v->role == PR_CONSTREF && v->in_push;
    cJSON_AddStringToObject(b, "kind", push ? "push_constant" : "storage");
    if (push) {
        cJSON_AddNumberToObject(b, "offset", v->push_offset);
        cJSON_AddNumberToObject(b, "size", ty_metal_size(et));
    } else {
        cJSON_AddNumberToObject(b, "binding", v->index);
        if (v->addr_offset) /* its device address in push constants: pointers chosen at run time (ptr.c) */
            cJSON_AddNumberToObject(b, "address_offset", v->addr_offset);
    }
    cJSON_AddStringToObject(b, "type", ty_metal_name(prog->arena, et));
    TypeKind sk = ty_scalar_kind(et->kind == TY_ATOMIC || et->kind == TY_MAT ? et->elem : et); /* atomic<uint>: data of uint */
    cJSON_AddStringToObject(b, "scalar", et->kind == TY_STRUCT || et->kind == TY_ARRAY ? "struct" : ty_scalar_metal_name(sk));
    cJSON_AddNumberToObject(b, "element_size", et->kind == TY_VOID ? 1 : ty_metal_size(et)); /* void*: bytes */
    cJSON_AddStringToObject(b, "address_space", space_name(v->ty->as));
    cJSON_AddBoolToObject(b, "pointer", v->role == PR_BUFFER);
    cJSON_AddStringToObject(b, "access", access_name(v));
    if (et->kind == TY_STRUCT && et->sdef->addresses) /* an argument buffer: where its device addresses go */
        add_addresses(prog, cJSON_AddArrayToObject(b, "addresses"), et->sdef, 0, "");
    if (v->fc_param) /* [[function_constant(NAME)]]: bound only when NAME is true */
        cJSON_AddStringToObject(b, "function_constant", v->fc_param);
    return b;
}

/* exact_threadgroups, threadgroup memory and the SIMD-group build (docs/interfaces.md). */
static void add_sync_json(Program *prog, Lowered *L, cJSON *root)
{
    cJSON_AddBoolToObject(root, "exact_threadgroups", L->exact_groups);
    cJSON *tgp = cJSON_AddArrayToObject(root, "threadgroup_buffers");
    int static_bytes = 0;
    for (int i = 0; i < L->tg_vars.len; i++) {
        Var *v = L->tg_vars.items[i];
        if (v->role != PR_TGMEM) {
            static_bytes += ty_metal_size(v->ty);
            continue;
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", v->tg_index);
        cJSON_AddStringToObject(o, "name", v->name);
        cJSON_AddStringToObject(o, "type", ty_metal_name(prog->arena, v->ty->elem));
        cJSON_AddNumberToObject(o, "element_size", ty_metal_size(v->ty->elem));
        cJSON_AddNumberToObject(o, "spec_constant", 16 + v->tg_index);
        TgNeed need = tgmem_need(L->kernel, v);
        cJSON_AddNumberToObject(o, "min_elements", (double)need.elements);
        static const char *const per_thread[] = {"none", "thread_position_in_threadgroup.x", "thread_index_in_threadgroup"};
        cJSON_AddStringToObject(o, "min_per_thread", per_thread[need.threads]);
        cJSON_AddItemToArray(tgp, o);
    }
    cJSON_AddNumberToObject(root, "threadgroup_memory", static_bytes);
    bool simd = L->uses_simd || L->uses_quad || L->subgroup_ops || L->mma_lanes ||
                (L->builtins_used & ((1u << ATTR_thread_index_in_simdgroup) | (1u << ATTR_simdgroup_index_in_threadgroup)));
    if (!simd) {
        cJSON_AddNullToObject(root, "simd");
        return;
    }
    cJSON *s = cJSON_AddObjectToObject(root, "simd");
    static const char *const modes[] = {"native", "clustered", "emulated"};
    cJSON_AddNumberToObject(s, "subgroup_size", prog->subgroup_size);
    cJSON_AddStringToObject(s, "mode", modes[L->simd_mode]);
    cJSON_AddBoolToObject(s, "virtual", prog->virtual_subgroups);
    cJSON_AddBoolToObject(s, "uniform_control_flow", L->uniform_flow);
    /* lanes: "metal" (lane = local index % 32) or "mma" (renamed to the tensor cores' layout); matrix_products:
       "exact" (FP32 units, any device), "tensor_cores" (needs VK_NV_cooperative_matrix 16x8x8 f16/f32), or null */
    cJSON_AddStringToObject(s, "lanes", L->mma_lanes ? "mma" : "metal");
    if (L->uses_matrix_products)
        cJSON_AddStringToObject(s, "matrix_products", L->tensor_cores ? "tensor_cores" : "exact");
    else
        cJSON_AddNullToObject(s, "matrix_products");
    cJSON *ops = cJSON_AddArrayToObject(s, "operations");
    static const struct { unsigned bit; const char *name; } names[] = {
        {SG_OP_BASIC, "basic"}, {SG_OP_ARITHMETIC, "arithmetic"}, {SG_OP_BALLOT, "ballot"},
        {SG_OP_SHUFFLE, "shuffle"}, {SG_OP_CLUSTERED, "clustered"},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (L->subgroup_ops & names[i].bit)
            cJSON_AddItemToArray(ops, cJSON_CreateString(names[i].name));
    if (L->subgroup_ops & SG_OP_EXTENDED_TYPES) {
        cJSON *feat = cJSON_GetObjectItemCaseSensitive(root, "features");
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderSubgroupExtendedTypes"));
    }
}

char *reflect_json(Program *prog, Lowered *L)
{
    Func *k = L->kernel;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "entry", k->name);
    const char *base = strrchr(prog->path, '/');
    cJSON_AddStringToObject(root, "source", base ? base + 1 : prog->path); /* file name: outputs do not depend on where the tree is */
    if (k->max_threads > 0)
        cJSON_AddNumberToObject(root, "max_total_threads_per_threadgroup", k->max_threads);
    else
        cJSON_AddNullToObject(root, "max_total_threads_per_threadgroup");
    cJSON_AddNumberToObject(root, "push_constant_size", L->push_size);
    cJSON *bufs = cJSON_AddArrayToObject(root, "buffers");
    /* in buffer-index order */
    for (int idx = 0; idx <= 30; idx++)
        for (int i = 0; i < k->n_params; i++) {
            Var *v = k->params[i];
            if ((v->role == PR_BUFFER || v->role == PR_BUFREF || v->role == PR_CONSTREF) && v->index == idx)
                cJSON_AddItemToArray(bufs, buffer_json(prog, v));
        }
    cJSON *fcs = cJSON_CreateArray(); /* present only when the kernel uses function constants */
    for (int i = 0; i < L->globals.len; i++) {
        Var *g = L->globals.items[i];
        if (!g->fc_id || g->fc_defined)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", g->fc_index);
        cJSON_AddStringToObject(o, "name", g->name);
        cJSON_AddStringToObject(o, "type", ty_scalar_metal_name(g->ty->kind));
        cJSON_AddNumberToObject(o, "constant_id", g->fc_id);
        cJSON_AddNumberToObject(o, "defined_constant_id", g->fc_id + 1); /* lower.c: number_function_constants */
        cJSON_AddItemToArray(fcs, o);
    }
    if (cJSON_GetArraySize(fcs))
        cJSON_AddItemToObject(root, "function_constants", fcs);
    else
        cJSON_Delete(fcs);
    cJSON *bi = cJSON_AddArrayToObject(root, "builtins");
    for (int a = 0; a < ATTR_COUNT; a++)
        if (L->builtins_used & (1u << a))
            cJSON_AddItemToArray(bi, cJSON_CreateString(attr_table[a].name));
    cJSON *ext = cJSON_AddArrayToObject(root, "extensions");
    cJSON *feat = cJSON_AddArrayToObject(root, "features");
    if (L->need_int8 || L->need_int16 || L->need_int64 || L->need_float16)
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_shader_explicit_arithmetic_types"));
    if (L->need_storage8 || L->need_push8)
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_shader_8bit_storage"));
    if (L->need_storage16 || L->need_push16)
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_shader_16bit_storage"));
    if (L->need_int8)
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderInt8"));
    if (L->need_int16)
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderInt16"));
    if (L->need_int64)
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderInt64"));
    if (L->need_float16)
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderFloat16"));
    if (L->need_storage8)
        cJSON_AddItemToArray(feat, cJSON_CreateString("storageBuffer8BitAccess"));
    if (L->need_storage16)
        cJSON_AddItemToArray(feat, cJSON_CreateString("storageBuffer16BitAccess"));
    if (L->need_push8)
        cJSON_AddItemToArray(feat, cJSON_CreateString("storagePushConstant8"));
    if (L->need_push16)
        cJSON_AddItemToArray(feat, cJSON_CreateString("storagePushConstant16"));
    if (L->need_scalar_layout) {
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_scalar_block_layout"));
        cJSON_AddItemToArray(feat, cJSON_CreateString("scalarBlockLayout"));
    }
    if (L->need_loop_hints)
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_control_flow_attributes"));
    if (L->need_atomic_float_buffer || L->need_atomic_float_shared)
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_shader_atomic_float"));
    if (L->ptr_ref_types.len) {
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_buffer_reference"));
        cJSON_AddItemToArray(feat, cJSON_CreateString("bufferDeviceAddress"));
    }
    if (L->need_atomic_float_buffer) {
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderBufferFloat32Atomics"));
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderBufferFloat32AtomicAdd"));
    }
    if (L->need_atomic_float_shared) {
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderSharedFloat32Atomics"));
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderSharedFloat32AtomicAdd"));
    }
    if (L->need_atomic_int64) {
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_shader_atomic_int64"));
        cJSON_AddItemToArray(feat, cJSON_CreateString("shaderBufferInt64Atomics"));
    }
    if (L->need_memory_model) { /* atomics without a scope are device-scoped there */
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_KHR_memory_scope_semantics"));
        cJSON_AddItemToArray(feat, cJSON_CreateString("vulkanMemoryModel"));
        cJSON_AddItemToArray(feat, cJSON_CreateString("vulkanMemoryModelDeviceScope"));
    }
    if (L->tensor_cores) { /* SIMD-group matrix products on tensor cores (simd.c) */
        if (!L->need_memory_model)
            cJSON_AddItemToArray(ext, cJSON_CreateString("GL_KHR_memory_scope_semantics"));
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_NV_cooperative_matrix"));
        cJSON_AddItemToArray(feat, cJSON_CreateString("cooperativeMatrix"));
    }
    add_sync_json(prog, L, root);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
