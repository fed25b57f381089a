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
    return b;
}

/* ---- what a [[threadgroup(n)]] parameter is proven to need (docs/interfaces.md, "min_elements") ----
   Only accesses every thread surely makes count: those in the statements at the top of the kernel body (expression
   statements and declarations, up to the first other statement), outside the conditional parts of an expression
   (`?:` arms, the right of && and ||), that index the parameter itself with a constant or with the thread's position
   in its threadgroup. The runtime refuses a launch that gives less, so the bound must never be more than Metal
   needs: anything less certain is left out. */
typedef struct TgNeed {
    Var *v;
    long long elements; /* a constant index seen: the largest + 1 */
    int threads;        /* 1: indexed by thread_position_in_threadgroup.x, 2: by thread_index_in_threadgroup */
} TgNeed;

static bool tg_children_modify(const Node *n, const Var *v);

/* N assigns VAR, increments it or takes its address (anywhere in it). */
static bool tg_modifies(const Node *n, const Var *v)
{
    if (!n)
        return false;
    const Node *t = n->a;
    while (t && (t->kind == N_PAREN || t->kind == N_SWIZZLE || t->kind == N_MEMBER ||
                 (t->kind == N_INDEX && !(t->a && t->a->kind == N_VAR && t->a->var->ty->kind == TY_PTR))))
        t = t->a; /* a part of VAR (lid.x = ...), not what a pointer VAR points to (p[i] = ...) */
    bool target = t && t->kind == N_VAR && t->var == v;
    if (target && (n->kind == N_ASSIGN || n->kind == N_ADDR || n->kind == N_POSTFIX ||
                   (n->kind == N_UNARY && n->op && (!strcmp(n->op, "++") || !strcmp(n->op, "--")))))
        return true;
    if (n->kind == N_CALL && n->fn) /* a reference parameter of a helper may write it */
        for (int i = 0; i < n->n_list && i < n->fn->n_params; i++) {
            const Node *arg = n->list[i];
            while (arg && arg->kind == N_PAREN)
                arg = arg->a;
            if (arg && arg->kind == N_VAR && arg->var == v && n->fn->params[i]->ty->kind == TY_REF)
                return true;
        }
    return tg_children_modify(n, v);
}

static bool tg_children_modify(const Node *n, const Var *v)
{
    if (tg_modifies(n->a, v) || tg_modifies(n->b, v) || tg_modifies(n->c, v) || tg_modifies(n->d, v))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (tg_modifies(n->list[i], v))
            return true;
    return n->kind == N_VARDEF && n->var && tg_modifies(n->var->init, v);
}

/* The constant value of N (an integer literal, through parentheses and casts to 32- or 64-bit integers), or -1. */
static long long tg_constant(const Node *n)
{
    while (n && (n->kind == N_PAREN || (n->kind == N_CAST && n->ty && n->ty->kind >= TY_INT && n->ty->kind <= TY_ULONG)))
        n = n->a;
    return n && n->kind == N_INT && n->ival >= 0 && n->ival < (1LL << 30) ? n->ival : -1;
}

/* 1: N is thread_position_in_threadgroup's x, 2: thread_index_in_threadgroup (through parentheses and casts to
   integers of 16 bits or more, which hold every value: a threadgroup has at most 1024 threads); 0: neither. */
static int tg_thread_index(const Node *n, const Node *body)
{
    while (n && (n->kind == N_PAREN || (n->kind == N_CAST && n->ty && n->ty->kind >= TY_SHORT && n->ty->kind <= TY_ULONG)))
        n = n->a;
    bool x = false;
    if (n && n->kind == N_SWIZZLE && n->name && !strcmp(n->name, "x")) {
        x = true;
        n = n->a;
    }
    if (!n || n->kind != N_VAR || !n->var || n->var->role != PR_BUILTIN || tg_modifies(body, n->var))
        return 0;
    bool vec = n->var->ty->kind == TY_VEC;
    if (n->var->builtin == ATTR_thread_position_in_threadgroup && x == vec)
        return 1;
    if (n->var->builtin == ATTR_thread_index_in_threadgroup && !x && !vec)
        return 2;
    return 0;
}

/* Record what the accesses N surely makes need of NEED's parameter. */
static void tg_scan_expr(const Node *n, TgNeed *need, const Node *body)
{
    if (!n)
        return;
    if (n->kind == N_INDEX && n->a && n->a->kind == N_VAR && n->a->var == need->v) {
        long long c = tg_constant(n->b);
        if (c >= 0 && c + 1 > need->elements)
            need->elements = c + 1;
        int t = tg_thread_index(n->b, body);
        if (t > need->threads)
            need->threads = t;
    }
    if (n->kind == N_TERNARY) { /* only the condition surely runs */
        tg_scan_expr(n->a, need, body);
        return;
    }
    bool short_circuit = n->kind == N_BINARY && n->op && (!strcmp(n->op, "&&") || !strcmp(n->op, "||"));
    tg_scan_expr(n->a, need, body);
    if (!short_circuit)
        tg_scan_expr(n->b, need, body);
    if (n->kind == N_CALL || n->kind == N_BUILTIN || n->kind == N_VECCTOR || n->kind == N_INITLIST ||
        n->kind == N_SIMD || n->kind == N_ATOMIC)
        for (int i = 0; i < n->n_list; i++)
            tg_scan_expr(n->list[i], need, body);
}

/* The statements of BLOCK that surely run, in order; false at the first that may not let the next ones run. */
static bool tg_scan_block(const Node *block, TgNeed *need, const Node *body)
{
    for (int i = 0; i < block->n_list; i++) {
        const Node *s = block->list[i];
        switch (s->kind) {
        case N_EXPRSTMT: tg_scan_expr(s->a, need, body); break;
        case N_DECL:
            for (int j = 0; j < s->n_list; j++)
                if (s->list[j]->kind == N_VARDEF && s->list[j]->var)
                    tg_scan_expr(s->list[j]->var->init, need, body);
            break;
        case N_EMPTY: break;
        case N_BLOCK:
            if (!tg_scan_block(s, need, body))
                return false;
            break;
        default: return false;
        }
    }
    return true;
}

/* The largest constant index + 1 of V anywhere in N (at least BEST). */
static long long tg_any_constant(const Node *n, const Var *v, long long best)
{
    if (!n)
        return best;
    if (n->kind == N_INDEX && n->a && n->a->kind == N_VAR && n->a->var == v) {
        long long c = tg_constant(n->b);
        if (c + 1 > best)
            best = c + 1;
    }
    best = tg_any_constant(n->a, v, best);
    best = tg_any_constant(n->b, v, best);
    best = tg_any_constant(n->c, v, best);
    best = tg_any_constant(n->d, v, best);
    for (int i = 0; i < n->n_list; i++)
        best = tg_any_constant(n->list[i], v, best);
    if (n->kind == N_VARDEF && n->var)
        best = tg_any_constant(n->var->init, v, best);
    return best;
}

int tg_default_length(Func *k, Var *v)
{
    return (int)tg_any_constant(k->body, v, 1);
}

/* The elements parameter V surely needs ("min_elements", at least 1) and whether it is indexed per thread. */
static TgNeed tg_need(Func *k, Var *v)
{
    TgNeed need = {.v = v, .elements = 1};
    if (k->body && k->body->kind == N_BLOCK && !tg_modifies(k->body, v))
        tg_scan_block(k->body, &need, k->body);
    return need;
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
        TgNeed need = tg_need(L->kernel, v);
        cJSON_AddNumberToObject(o, "min_elements", (double)need.elements);
        static const char *const per_thread[] = {"none", "thread_position_in_threadgroup.x", "thread_index_in_threadgroup"};
        cJSON_AddStringToObject(o, "min_per_thread", per_thread[need.threads]);
        cJSON_AddItemToArray(tgp, o);
    }
    cJSON_AddNumberToObject(root, "threadgroup_memory", static_bytes);
    bool simd = L->uses_simd || L->uses_quad || L->subgroup_ops ||
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
    if (L->need_storage8)
        cJSON_AddItemToArray(ext, cJSON_CreateString("GL_EXT_shader_8bit_storage"));
    if (L->need_storage16)
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
    add_sync_json(prog, L, root);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
