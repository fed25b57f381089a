/* lower.c: Metal semantics and checks between the model and the GLSL printer.
 *
 * For one kernel: gives each parameter its role (buffer, device reference, constant reference, thread
 * attribute), assigns compile_shader's buffer indices to unattributed buffers, finds what the kernel
 * reaches (helpers callees-first, structs, program-scope constants), records how each buffer is used,
 * lays out the push constants, and reports what is not supported, each at its location.
 */
#include <string.h>

#include "internal.h"

typedef struct Lower {
    Program *prog;
    Diag *diag;
    Lowered *L;
    bool failed; /* something it reaches was diagnosed earlier */
} Lower;

static bool supported_in_buffer(Lower *X, Type *t, SrcLoc loc, const char *what);
static void use_type(Lower *X, Type *t, SrcLoc loc);

/* `device T* p;` or `metal::array<device T*, N> ps [[id(n)]];` in a struct in a buffer (an argument buffer, as
   PyTorch's fused optimizers and Amp write them): 8 bytes each, the device address the host wrote there
   (uint64_t in GLSL; read through GL_EXT_buffer_reference, ptr.c). Pointers to device or constant memory of a
   type a buffer holds; a pointer to threadgroup or thread memory has no address. */
static bool address_member(Lower *X, StructDef *s, Field *f, Type *p, SrcLoc loc)
{
    Type *e = p->elem;
    if (p->as != AS_DEVICE && p->as != AS_CONSTANT) {
        diag_error(X->diag, loc, "pointer member '%s::%s' of a struct in a buffer points to %s memory, which has no address a buffer can hold (only device and constant pointers can be stored in buffers)",
                   s->name, f->name, p->as == AS_THREADGROUP ? "threadgroup" : "thread");
        return false;
    }
    if (e->kind == TY_PTR || e->kind == TY_VOID || e->kind == TY_BOOL || (e->kind == TY_VEC && e->elem->kind == TY_BOOL) || ptr_in_pieces(e)) {
        diag_error(X->diag, loc, "pointer member '%s::%s' of a struct in a buffer: pointers to %s stored in buffers are not supported yet",
                   s->name, f->name, ty_metal_name(X->prog->arena, e));
        return false;
    }
    if (!supported_in_buffer(X, e, loc, "what a pointer stored in a buffer points to"))
        return false;
    s->addresses = true;
    X->L->need_int64 = true;
    return true;
}

/* A struct used in a buffer must have the same layout under Metal's rules and std430 (padded by layout.c). */
static bool struct_layout_ok(Lower *X, StructDef *s, SrcLoc loc)
{
    for (int i = 0; i < s->n_fields; i++) {
        Type *t = s->fields[i].ty;
        while (t->kind == TY_ARRAY)
            t = t->elem;
        if (t->kind == TY_PTR ? !address_member(X, s, &s->fields[i], t, loc) : !supported_in_buffer(X, s->fields[i].ty, loc, "struct member"))
            return false;
    }
    return layout_struct(X->prog, s, loc, true);
}

static bool supported_in_buffer(Lower *X, Type *t, SrcLoc loc, const char *what)
{
    switch (t->kind) {
    case TY_VEC:
        return supported_in_buffer(X, t->elem, loc, what);
    case TY_BOOL: /* its byte, uint8_t (layout.c) */
    case TY_CHAR:
    case TY_UCHAR:
        X->L->need_storage8 = X->L->need_int8 = true;
        return true;
    case TY_SHORT:
    case TY_USHORT:
    case TY_BFLOAT: /* its 16 bits (emit_glsl.c converts) */
        X->L->need_storage16 = X->L->need_int16 = true;
        return true;
    case TY_HALF:
        X->L->need_storage16 = X->L->need_float16 = true;
        return true;
    case TY_LONG:
    case TY_ULONG:
        X->L->need_int64 = true;
        return true;
    case TY_INT:
    case TY_UINT:
    case TY_FLOAT:
    case TY_ENUM:
        return true;
    case TY_ARRAY:
    case TY_MAT:
        return supported_in_buffer(X, t->elem, loc, what);
    case TY_STRUCT:
        return struct_layout_ok(X, t->sdef, loc);
    case TY_ATOMIC:
        return true; /* element types are checked where an atomic function is called */
    case TY_PTR:
        diag_error(X->diag, loc, "pointers stored in buffers are supported only as members of a struct (an argument buffer), not directly in '%s'", what);
        return false;
    case TY_UNSUPPORTED:
        diag_error(X->diag, loc, "%s is not supported yet", t->name);
        return false;
    default:
        diag_error(X->diag, loc, "type %s is not supported in buffers (%s)", ty_metal_name(X->prog->arena, t), what);
        return false;
    }
}

/* The role of each kernel parameter from its type and attributes. */
static void classify_params(Lower *X, Func *k)
{
    int next_index = 0;
    bool used[31] = {0};
    for (int i = 0; i < k->n_params; i++) {
        Var *v = k->params[i];
        Type *t = v->ty;
        if (v->builtin >= 0) {
            v->role = PR_BUILTIN;
            TypeKind sk = ty_scalar_kind(t);
            if ((sk != TY_UINT && sk != TY_USHORT && sk != TY_INT) || ty_width(t) < 1)
                diag_error(X->diag, v->loc, "[[%s]] parameter '%s' must be uint, uint2 or uint3 (or ushort), not %s",
                           attr_table[v->builtin].name, v->name, ty_metal_name(X->prog->arena, t));
            X->L->builtins_used |= 1u << v->builtin;
            continue;
        }
        if (t->kind == TY_UNSUPPORTED || ((t->kind == TY_PTR || t->kind == TY_REF) && t->elem->kind == TY_UNSUPPORTED)) {
            const char *name = t->kind == TY_UNSUPPORTED ? t->name : t->elem->name;
            if (!strncmp(name, "atomic", 6))
                name = "atomic types";
            diag_error(X->diag, v->loc, "%s is not supported yet (parameter '%s')", name, v->name);
            continue;
        }
        if ((t->kind == TY_PTR || t->kind == TY_REF) && t->as == AS_THREADGROUP) {
            if (t->kind != TY_PTR || v->tg_index < 0) {
                diag_error(X->diag, v->loc, "threadgroup parameter '%s' must be a pointer with [[threadgroup(n)]]", v->name);
                continue;
            }
            if (t->elem->kind == TY_PTR || t->elem->kind == TY_UNSUPPORTED) {
                diag_error(X->diag, v->loc, "threadgroup memory of type %s is not supported yet ('%s')", ty_metal_name(X->prog->arena, t->elem), v->name);
                continue;
            }
            for (int j = 0; j < X->L->tg_vars.len; j++) {
                Var *o = X->L->tg_vars.items[j];
                if (o->role == PR_TGMEM && o->tg_index == v->tg_index)
                    diag_error(X->diag, v->loc, "threadgroup memory index %d is used by two parameters", v->tg_index);
            }
            v->role = PR_TGMEM;
            pv_push(&X->L->tg_vars, v);
            continue;
        }
        if (v->tg_index >= 0) {
            diag_error(X->diag, v->loc, "[[threadgroup(%d)]] needs a threadgroup pointer parameter ('%s')", v->tg_index, v->name);
            continue;
        }
        if (t->kind == TY_PTR && (t->as == AS_DEVICE || t->as == AS_CONSTANT)) {
            v->role = PR_BUFFER;
            if (t->elem->kind != TY_VOID && !ptr_in_pieces(t->elem) && supported_in_buffer(X, t->elem, v->loc, v->name))
                use_type(X, t->elem, v->loc); /* void: read through casts; a union: by members; a struct: declared (its block
                                                 names it) where the kernel never reads it (MLX's `_NoMask` masks) */
        } else if (t->kind == TY_REF && t->as == AS_DEVICE) {
            v->role = PR_BUFREF;
            if (supported_in_buffer(X, t->elem, v->loc, v->name))
                use_type(X, t->elem, v->loc);
        } else if (t->kind == TY_REF && t->as == AS_CONSTANT) {
            v->role = PR_CONSTREF;
            const Type *e = t->elem->kind == TY_ARRAY ? t->elem->elem : t->elem; /* metal::array<uint, 2>: a uint[2] */
            if (ty_is_scalar(t->elem) && ty_metal_size(t->elem) < 4) {
                /* `constant uchar&`, `constant short&`, half, bfloat, bool: a push-constant member of that size
                   (storagePushConstant8/16), or the low bytes of a 32-bit word (M2gOptions.push_constant_words) */
                v->push_word = X->prog->push_words;
            } else if (e->kind == TY_ARRAY || (t->elem->kind == TY_ARRAY && e->kind == TY_STRUCT) || ty_metal_size(e) % 4 != 0 ||
                       ty_scalar_kind(e) == TY_BOOL) {
                diag_error(X->diag, v->loc, "constant reference '%s' of type %s is not supported yet (push constants hold 32- and 64-bit scalars, vectors and structs)",
                           v->name, ty_metal_name(X->prog->arena, t->elem));
                continue;
            }
            if (t->elem->kind == TY_STRUCT)
                struct_layout_ok(X, t->elem->sdef, v->loc);
            if (ty_scalar_kind(t->elem) == TY_LONG || ty_scalar_kind(t->elem) == TY_ULONG)
                X->L->need_int64 = true;
        } else {
            diag_error(X->diag, v->loc, "kernel parameter '%s' of type %s needs an address space (device, constant) or a thread attribute",
                       v->name, ty_metal_name(X->prog->arena, t));
            continue;
        }
        if (v->index < 0) {
            while (next_index < 31 && used[next_index])
                next_index++;
            v->index = next_index++;
        }
        if (v->index >= 0 && v->index < 31) {
            if (used[v->index])
                diag_error(X->diag, v->loc, "buffer index %d is used by two parameters", v->index);
            used[v->index] = true;
        }
    }
}

/* 8/16-bit members of a push-constant struct (a bool is its byte) need storagePushConstant8/16. */
static void note_push_members(Lower *X, const Type *t)
{
    while (t->kind == TY_ARRAY)
        t = t->elem;
    if (t->kind == TY_STRUCT) {
        for (int i = 0; i < t->sdef->n_fields; i++)
            note_push_members(X, t->sdef->fields[i].ty);
        return;
    }
    TypeKind k = ty_scalar_kind(t);
    X->L->need_push8 |= k == TY_BOOL || k == TY_CHAR || k == TY_UCHAR;
    X->L->need_push16 |= k == TY_SHORT || k == TY_USHORT || k == TY_HALF || k == TY_BFLOAT;
}

/* Whether a constant reference's struct holds device addresses: it stays a storage buffer, where the host writes
   them (runtime: mtlrun's pipeline `address` lines), never push constants. */
static bool holds_addresses(const Type *t)
{
    while (t->kind == TY_ARRAY)
        t = t->elem;
    return t->kind == TY_STRUCT && t->sdef->addresses;
}

/* Push constants: 16 bytes of dispatch block, then each constant reference at its Metal alignment. */
static void layout_push_constants(Lower *X, Func *k)
{
    int off = 16;
    for (int i = 0; i < k->n_params; i++) {
        Var *v = k->params[i];
        if (v->role != PR_CONSTREF || holds_addresses(v->ty->elem))
            continue;
        int a = ty_metal_align(v->ty->elem);
        if (a < 4)
            a = 4;
        off = (off + a - 1) / a * a;
        v->push_offset = off;
        off += v->push_word ? 4 : ty_metal_size(v->ty->elem);
    }
    bool fits = off <= 128;
    for (int i = 0; i < k->n_params; i++)
        if (k->params[i]->role == PR_CONSTREF) {
            if (holds_addresses(k->params[i]->ty->elem)) {
                k->params[i]->in_push = false;
                continue;
            }
            k->params[i]->in_push = fits;
            if (!fits && ty_is_scalar(k->params[i]->ty->elem)) /* 8/16-bit scalars in the storage buffer */
                supported_in_buffer(X, k->params[i]->ty->elem, k->params[i]->loc, k->params[i]->name);
            k->params[i]->push_word &= fits;
            if (fits && !k->params[i]->push_word)
                note_push_members(X, k->params[i]->ty->elem);
        }
    X->L->push_size = fits ? off : 16;
}

static void note_type(Lower *X, Type *t)
{
    switch (ty_scalar_kind(t)) {
    case TY_CHAR:
    case TY_UCHAR:
        X->L->need_int8 = true;
        break;
    case TY_SHORT:
    case TY_USHORT:
        X->L->need_int16 = true;
        break;
    case TY_HALF:
        X->L->need_float16 = true;
        break;
    case TY_LONG:
    case TY_ULONG:
        X->L->need_int64 = true;
        break;
    default:
        break;
    }
    if (t->kind == TY_ARRAY || t->kind == TY_MAT)
        note_type(X, t->elem);
}

static void add_struct(Lower *X, StructDef *s)
{
    if (pv_contains(&X->L->structs, s) || ty_has_union(&(Type){.kind = TY_STRUCT, .sdef = s}))
        return; /* a union has no GLSL type: its members are read through pointers (ptr.c) */
    for (int i = 0; i < s->n_fields; i++) {
        Type *f = s->fields[i].ty;
        while (f->kind == TY_ARRAY)
            f = f->elem;
        if (f->kind == TY_STRUCT)
            add_struct(X, f->sdef);
        note_type(X, s->fields[i].ty);
    }
    layout_struct(X->prog, s, s->loc, false);
    pv_push(&X->L->structs, s);
}

static void use_type(Lower *X, Type *t, SrcLoc loc)
{
    if (!t)
        return;
    switch (t->kind) {
    case TY_STRUCT:
        if (!t->sdef->empty) /* functors and traits are never values in GLSL */
            add_struct(X, t->sdef);
        break;
    case TY_ARRAY:
    case TY_PTR:
    case TY_REF:
        use_type(X, t->elem, loc);
        break;
    case TY_UNSUPPORTED:
        diag_error(X->diag, loc, "%s is not supported yet", t->name);
        break;
    default:
        note_type(X, t);
        break;
    }
}

/* The variable at the root of an lvalue expression (x in x[i].f.xy), or NULL. */
static Var *root_var(Node *n)
{
    while (n) {
        switch (n->kind) {
        case N_VAR:
            return n->var;
        case N_INDEX:
        case N_MEMBER:
        case N_SWIZZLE:
        case N_PAREN:
        case N_DEREF:
            n = n->a;
            break;
        default:
            return NULL;
        }
    }
    return NULL;
}

static void walk(Lower *X, Func *f, Node *n, bool as_lvalue);

/* Whether lvalue N is a part of a variable printed by value that nothing writes: a `constant T&` parameter
   (a push constant or its copy), or a member or array element of one, as in `p.strides[d]`. */
static bool part_of_constant_value(Node *n)
{
    while (n && (n->kind == N_PAREN || n->kind == N_MEMBER || (n->kind == N_INDEX && n->a->ty && n->a->ty->kind == TY_ARRAY)))
        n = n->a;
    if (!n || n->kind != N_VAR)
        return false;
    const Var *v = n->var;
    return v->kind == VAR_PARAM && v->ty->kind == TY_REF && v->ty->as == AS_CONSTANT && !ptr_like(v) && !ptr_is_root(v);
}

/* `constant auto& strides = params.strides;` (PyTorch's kernels name the arrays of their parameter structs so):
   a reference into constant memory printed by value is a const copy of what it refers to, exact because
   constant memory does not change while the kernel runs. References into buffers stay indices (ptr.c). */
static void copy_constant_reference(Var *v)
{
    if (v->kind != VAR_LOCAL || v->ty->kind != TY_REF || v->ty->as != AS_CONSTANT || !v->init || !part_of_constant_value(v->init))
        return;
    v->ty = v->ty->elem;
    v->is_const_copy = true;
}

/* A threadgroup variable of the body becomes a shared array at file scope: its name must be unique there. */
static void add_threadgroup_var(Lower *X, Var *v)
{
    if (pv_contains(&X->L->tg_vars, v))
        return;
    const char *base = v->glsl_name;
    for (int n = 1;; n++) {
        bool taken = false;
        for (int i = 0; i < X->L->tg_vars.len; i++)
            taken |= !strcmp(((Var *)X->L->tg_vars.items[i])->glsl_name, v->glsl_name);
        for (int i = 0; i < X->L->kernel->n_params; i++)
            taken |= !strcmp(X->L->kernel->params[i]->glsl_name, v->glsl_name);
        if (!taken)
            break;
        v->glsl_name = arena_printf(X->prog->arena, "%s_%d", base, n);
    }
    if (v->ty->kind == TY_ARRAY && v->ty->n <= 0)
        diag_error(X->diag, v->loc, "threadgroup array '%s' needs a constant size", v->name);
    pv_push(&X->L->tg_vars, v);
}

static void mark_access(Node *target, bool read, bool write)
{
    Var *v = root_var(target);
    if (!v)
        return;
    v->read |= read;
    v->written |= write;
}

static void walk_list(Lower *X, Func *f, Node *n)
{
    for (int i = 0; i < n->n_list; i++) {
        walk(X, f, n->list[i], false);
    }
}

/* A helper parameter through which the helper writes its caller's variable: a reference, or a thread array
   (C passes arrays by address) that it writes or passes on to be written. Visited callees-first, a callee's
   is_out_param is known when its callers are walked. */
static bool writes_through(const Var *p)
{
    if (p->ty->kind == TY_REF && p->owner && p->owner->self == p) /* an object its member function does not change is `in` */
        return p->is_out_param;
    if (p->ty->kind == TY_REF) /* a const reference only reads (the buffer stays readonly) */
        return !p->ty->is_const && p->ty->as != AS_CONSTANT;
    return (p->ty->kind == TY_ARRAY || p->ty->kind == TY_PTR) && p->is_out_param; /* T*&: the caller's pointer moves */
}

static void walk_call(Lower *X, Func *f, Node *n)
{
    Func *callee = n->fn;
    for (int i = 0; i < n->n_list; i++) {
        Node *arg = n->list[i];
        bool out = callee && i < callee->n_params && writes_through(callee->params[i]);
        if (out)
            mark_access(arg, true, true);
        walk(X, f, arg, out);
    }
}

static void walk(Lower *X, Func *f, Node *n, bool as_lvalue)
{
    if (!n)
        return;
    use_type(X, n->ty, n->loc);
    switch (n->kind) {
    case N_VAR:
        if (!as_lvalue)
            n->var->read = true;
        if (n->var->kind == VAR_GLOBAL && !pv_contains(&X->L->globals, n->var)) {
            walk(X, f, n->var->init, false);
            use_type(X, n->var->ty, n->var->loc);
            pv_push(&X->L->globals, n->var);
        }
        break;
    case N_ASSIGN:
        mark_access(n->a, strcmp(n->op, "=") != 0, true);
        walk(X, f, n->a, true);
        walk(X, f, n->b, false);
        break;
    case N_UNARY:
    case N_POSTFIX:
        if (!strcmp(n->op, "++") || !strcmp(n->op, "--")) {
            mark_access(n->a, true, true);
            walk(X, f, n->a, true);
        } else {
            walk(X, f, n->a, false);
        }
        break;
    case N_ADDR:
        walk(X, f, n->a, true); /* ptr.c: what it points into */
        break;
    case N_DEREF:
        walk(X, f, n->a, as_lvalue);
        break;
    case N_INDEX:
        walk(X, f, n->a, as_lvalue);
        walk(X, f, n->b, false);
        break;
    case N_MEMBER:
    case N_SWIZZLE:
    case N_PAREN:
        walk(X, f, n->a, as_lvalue);
        break;
    case N_BINARY:
        walk(X, f, n->a, false);
        walk(X, f, n->b, false);
        break;
    case N_CALL:
        if (as_lvalue && n->fn && n->fn->returns_param) /* bump(p, 1).x = 2: the call is p's value, not p */
            diag_error(X->diag, n->loc, "writing through (or taking the address of) the reference that '%s' returns (its parameter '%s') "
                       "is not supported yet (write the argument itself)", n->fn->name, n->fn->returns_param->name);
        walk_call(X, f, n);
        break;
    case N_ATOMIC:
        if (atomic_check(X->prog, X->L, n)) {
            walk(X, f, n->a, true);
            for (int i = 1; i < n->n_list; i++)
                if (!(i == 1 && n->b))
                    walk(X, f, n->list[i], false);
        }
        break;
    case N_SIMD:
        walk_list(X, f, n);
        if (simd_table[n->builtin].group == 'Q')
            X->L->uses_quad = true;
        else if (simd_table[n->builtin].op == SOP_TG_BARRIER)
            X->L->uses_barrier = true;
        else
            X->L->uses_simd = true;
        if (simd_table[n->builtin].op == SOP_MAT_MULTIPLY || simd_table[n->builtin].op == SOP_MAT_MULTIPLY_ACCUMULATE) {
            X->L->uses_matrix_products = true;
        }
        break;
    case N_VARDEF:
        use_type(X, n->var->ty, n->var->loc);
        if (n->var->is_threadgroup) {
            add_threadgroup_var(X, n->var);
            break;
        }
        copy_constant_reference(n->var);
        if ((n->var->ty->kind == TY_PTR || n->var->ty->kind == TY_REF) && n->var->ty->as == AS_THREAD && n->var->ty->kind == TY_REF)
            diag_error(X->diag, n->var->loc, "local thread references are not supported yet ('%s')", n->var->name);
        walk(X, f, n->var->init, false);
        break;
    default:
        walk(X, f, n->a, false);
        walk(X, f, n->b, false);
        walk(X, f, n->c, false);
        walk(X, f, n->d, false);
        if (n->list && n->kind != N_DECL)
            walk_list(X, f, n);
        else if (n->kind == N_DECL)
            for (int i = 0; i < n->n_list; i++)
                walk(X, f, n->list[i], false);
        break;
    }
}

static void visit_func(Lower *X, Func *f, Func *from, SrcLoc call_loc);

/* Overloads whose parameters differ in Metal but not in GLSL (MLX's BaseMMAFrag::mma of `frag_type&`, a vec<T, 2>,
   and of `mat_type&`, a simdgroup_matrix held as the lane's two elements, also a vec2; a const member function and
   its non-const overload, the object `in` and `inout`): the later one gets a name
   of its own (`..._mma_2`), which its calls print. */
static void rename_same_signature(Lower *X, Func *f)
{
    for (int n = 2;; n++) {
        bool clash = false;
        for (int i = 0; i < X->L->funcs.len && !clash; i++) {
            Func *g = X->L->funcs.items[i];
            if (g == f || strcmp(g->glsl_name, f->glsl_name) || g->n_params != f->n_params)
                continue;
            clash = true;
            for (int j = 0; j < f->n_params && clash; j++) { /* `in`, `inout`: one GLSL signature */
                const Type *a = g->params[j]->ty, *b = f->params[j]->ty;
                clash = ty_equal(a->kind == TY_REF && a->as == AS_THREAD ? a->elem : a, b->kind == TY_REF && b->as == AS_THREAD ? b->elem : b);
            }
        }
        if (!clash)
            return;
        const char *base = f->glsl_name;
        f->glsl_name = arena_printf(X->prog->arena, "%s_%d", base, n);
        if (n > 2) /* mma_2 taken too: mma_3 from mma */
            f->glsl_name = arena_printf(X->prog->arena, "%.*s_%d", (int)(strrchr(base, '_') - base), base, n);
    }
}

static bool has_return(const Node *n)
{
    if (!n)
        return false;
    if (n->kind == N_RETURN)
        return true;
    if (has_return(n->a) || has_return(n->b) || has_return(n->c) || has_return(n->d))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (has_return(n->list[i]))
            return true;
    return false;
}

/* Visits the callee of every call in N, in order, with the call's location for diagnostics (a branch that a
   condition constant in its template instance never takes is already gone: parse.c, conv_children_stmt). */
static void visit_calls(Lower *X, Func *f, Node *n)
{
    if (!n)
        return;
    if (n->kind == N_CALL && n->fn) {
        /* a call that closes a cycle, or opens one (its callee calls back): recursion its guards may stop, a call of
           a copy that does not call back (recursion.c) */
        Func *bounded = f && n->fn->body && !pv_contains(&X->L->funcs, n->fn) && lower_reaches_call_path(n->fn)
                            ? lower_bounded_callee(X->prog, f, n)
                            : NULL;
        if (bounded)
            n->fn = bounded;
        Func *callee = n->fn;
        bool had = pv_contains(&X->L->funcs, callee);
        visit_func(X, callee, f, n->loc);
        refs_unalias(X->prog, n); /* after the visit: which parameters the callee writes */
        if (n->fn != callee) {
            for (int i = 0; !had && i < X->L->funcs.len; i++) /* the original only if another call needs it */
                if (X->L->funcs.items[i] == callee) {
                    memmove(X->L->funcs.items + i, X->L->funcs.items + i + 1, sizeof(void *) * (size_t)(X->L->funcs.len - i - 1));
                    X->L->funcs.len--;
                    break;
                }
            visit_func(X, n->fn, f, n->loc);
        }
    }
    if (n->kind == N_VAR && n->var->kind == VAR_GLOBAL && n->var->init) /* a constant's constructor (emit: set in main) */
        visit_calls(X, f, n->var->init);
    visit_calls(X, f, n->a);
    visit_calls(X, f, n->b);
    visit_calls(X, f, n->c);
    visit_calls(X, f, n->d);
    for (int i = 0; i < n->n_list; i++)
        visit_calls(X, f, n->list[i]);
    if (n->kind == N_VARDEF)
        visit_calls(X, f, n->var->init);
}

/* Whether N takes an address anywhere (`&x`): what it points to may be written through the pointer. */
static bool takes_address(const Node *n)
{
    if (!n)
        return false;
    if (n->kind == N_ADDR)
        return true;
    if (n->kind == N_VARDEF && n->var && takes_address(n->var->init))
        return true;
    if (takes_address(n->a) || takes_address(n->b) || takes_address(n->c) || takes_address(n->d))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (takes_address(n->list[i]))
            return true;
    return false;
}

/* Helpers callees-first; a cycle is recursion, which GLSL forbids. */
static Node *new_lnode(Lower *X, NodeKind kind, SrcLoc loc, Type *ty)
{
    Node *n = arena_alloc(X->prog->arena, sizeof *n);
    *n = (Node){.kind = kind, .loc = loc, .ty = ty};
    return n;
}

/* Whether CALL, a call of F inside F, can become a jump back to F's start: each argument either is the same
   parameter again or goes to a parameter held by value (pointers and references stay what they are). */
static bool tail_call_args_ok(const Func *f, const Node *call)
{
    if (call->n_list != f->n_params)
        return false;
    for (int i = 0; i < f->n_params; i++) {
        Var *p = f->params[i];
        const Node *a = call->list[i];
        while (a && a->kind == N_PAREN)
            a = a->a;
        if (a && a->kind == N_VAR && a->var == p)
            continue;
        if (p == f->self || ptr_like(p) || p->ty->kind == TY_REF || p->ty->kind == TY_PTR || p->ty->kind == TY_ARRAY ||
            !(ty_is_scalar(p->ty) || p->ty->kind == TY_VEC || p->ty->kind == TY_STRUCT))
            return false;
    }
    return true;
}

/* `f(a, b);` as the last thing F does: { T mtl_next_p = a; ...; p = mtl_next_p; ...; continue; } (the new values
   are all computed before any parameter changes, as for a call). */
static Node *tail_call_jump(Lower *X, Func *f, Node *call)
{
    Node *blk = new_lnode(X, N_BLOCK, call->loc, NULL);
    blk->list = arena_alloc(X->prog->arena, sizeof(Node *) * (size_t)(2 * f->n_params + 1));
    Var *tmp[64] = {0};
    for (int i = 0; i < f->n_params && i < 64; i++) {
        Var *p = f->params[i];
        Node *a = call->list[i];
        while (a->kind == N_PAREN)
            a = a->a;
        if (a->kind == N_VAR && a->var == p)
            continue;
        Var *t = arena_alloc(X->prog->arena, sizeof *t);
        *t = (Var){.name = p->name, .glsl_name = arena_printf(X->prog->arena, "mtl_next_%s", p->glsl_name), .ty = p->ty,
                   .kind = VAR_LOCAL, .loc = call->loc, .init = call->list[i], .index = -1, .builtin = -1, .tg_index = -1,
                   .owner = f};
        tmp[i] = t;
        Node *def = new_lnode(X, N_VARDEF, call->loc, NULL), *decl = new_lnode(X, N_DECL, call->loc, NULL);
        def->var = t;
        decl->list = arena_alloc(X->prog->arena, sizeof(Node *));
        decl->list[0] = def;
        decl->n_list = 1;
        blk->list[blk->n_list++] = decl;
    }
    for (int i = 0; i < f->n_params && i < 64; i++) {
        if (!tmp[i])
            continue;
        Node *set = new_lnode(X, N_ASSIGN, call->loc, f->params[i]->ty), *st = new_lnode(X, N_EXPRSTMT, call->loc, NULL);
        set->op = "=";
        set->a = new_lnode(X, N_VAR, call->loc, f->params[i]->ty);
        set->a->var = f->params[i];
        set->b = new_lnode(X, N_VAR, call->loc, tmp[i]->ty);
        set->b->var = tmp[i];
        st->a = set;
        blk->list[blk->n_list++] = st;
    }
    blk->list[blk->n_list++] = new_lnode(X, N_CONTINUE, call->loc, NULL);
    return blk;
}

/* Rewrites the calls of F to itself that are the last statement F runs (through blocks and if/else, not loops or
   switches); returns how many. Other calls of F to itself stay (visit_func: recursion, an error). */
static int tail_calls(Lower *X, Func *f, Node *n)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case N_BLOCK: {
        int last = n->n_list - 1;
        while (last >= 0 && n->list[last]->kind == N_EMPTY)
            last--;
        return last >= 0 ? tail_calls(X, f, n->list[last]) : 0;
    }
    case N_IF:
        return tail_calls(X, f, n->b) + tail_calls(X, f, n->c);
    case N_EXPRSTMT:
        if (n->a && n->a->kind == N_CALL && n->a->fn == f && tail_call_args_ok(f, n->a)) {
            *n = *tail_call_jump(X, f, n->a);
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

/* A void function that calls itself last (MLX's LoopedElemToLoc::next(n, ...): `if (extra > 0) next(extra, ...)`):
   GLSL has no recursion, so its body becomes a loop, `while (true) { BODY break; }`, each such call a jump back
   to its start with the new arguments. */
static void loop_tail_calls(Lower *X, Func *f)
{
    if (!f->body || f->body->kind != N_BLOCK || f->ret->kind != TY_VOID || f->n_params > 64 || !tail_calls(X, f, f->body))
        return;
    Node *inner = new_lnode(X, N_BLOCK, f->body->loc, NULL);
    inner->list = arena_alloc(X->prog->arena, sizeof(Node *) * (size_t)(f->body->n_list + 1));
    for (int i = 0; i < f->body->n_list; i++)
        inner->list[inner->n_list++] = f->body->list[i];
    inner->list[inner->n_list++] = new_lnode(X, N_BREAK, f->body->loc, NULL);
    Node *loop = new_lnode(X, N_WHILE, f->body->loc, NULL);
    loop->a = new_lnode(X, N_BOOL, f->body->loc, ty_scalar(TY_BOOL));
    loop->a->ival = 1;
    loop->d = inner;
    f->body->list = arena_alloc(X->prog->arena, sizeof(Node *));
    f->body->list[0] = loop;
    f->body->n_list = 1;
}

/* Uses of V in N: `&v` becomes `v` (the one-element array it now is, decayed), any other `v` is `v[0]`. */
static void index_uses(Lower *X, Node *n, Var *v, Type *old)
{
    if (!n)
        return;
    if (n->kind == N_ADDR && n->a && n->a->kind == N_VAR && n->a->var == v) {
        *n = *n->a;
        n->ty = v->ty;
        return;
    }
    if (n->kind == N_VAR && n->var == v) {
        Node *var = new_lnode(X, N_VAR, n->loc, v->ty), *zero = new_lnode(X, N_INT, n->loc, ty_scalar(TY_INT));
        var->var = v;
        *n = (Node){.kind = N_INDEX, .loc = n->loc, .ty = old, .a = var, .b = zero};
        return;
    }
    index_uses(X, n->a, v, old);
    index_uses(X, n->b, v, old);
    index_uses(X, n->c, v, old);
    index_uses(X, n->d, v, old);
    for (int i = 0; i < n->n_list; i++)
        index_uses(X, n->list[i], v, old);
    if (n->kind == N_VARDEF && n->var != v)
        index_uses(X, n->var->init, v, old);
}

/* The locals of F whose address is passed for a one-element array parameter (MLX's reduce_row.h:
   `per_thread_row_reduce<T, U, Op, N_READS, 1>(&row_total, &row, ...)` into `U totals[1]`, `const device T*
   inputs[1]`): GLSL passes arrays, not addresses, so such a local is declared as the one-element array
   (`float row_total[1]`), read and written as v[0], and passed itself (inout when the helper writes it). */
static void locals_as_arrays(Lower *X, Func *f, Node *n)
{
    if (!n)
        return;
    if (n->kind == N_CALL && n->fn) {
        for (int i = 0; i < n->n_list && i < n->fn->n_params; i++) {
            Type *pt = n->fn->params[i]->ty;
            Node *a = n->list[i];
            if (pt->kind != TY_ARRAY || pt->n != 1 || a->kind != N_ADDR || !a->a || a->a->kind != N_VAR)
                continue;
            Var *v = a->a->var;
            if (v->kind != VAR_LOCAL || v->owner != f || v->is_threadgroup || v->ty->kind == TY_ARRAY || v->ty->kind == TY_REF ||
                !ty_equal(v->ty, pt->elem))
                continue;
            Type *old = v->ty, *arr = arena_alloc(X->prog->arena, sizeof *arr);
            *arr = (Type){.kind = TY_ARRAY, .elem = old, .n = 1};
            v->ty = arr;
            if (v->init) {
                Node *list = new_lnode(X, N_INITLIST, v->init->loc, arr);
                list->list = arena_alloc(X->prog->arena, sizeof(Node *));
                list->list[0] = v->init;
                list->n_list = 1;
                v->init = list;
            }
            index_uses(X, f->body, v, old);
        }
    }
    locals_as_arrays(X, f, n->a);
    locals_as_arrays(X, f, n->b);
    locals_as_arrays(X, f, n->c);
    locals_as_arrays(X, f, n->d);
    for (int i = 0; i < n->n_list; i++)
        locals_as_arrays(X, f, n->list[i]);
    if (n->kind == N_VARDEF)
        locals_as_arrays(X, f, n->var->init);
}

/* Loop counters of 8- and 16-bit integer types (ggml's `for (short i = 0; i < 8; i += 2)`) are declared int when
   their values provably fit the type: a constant start, a `<` or `<=` bound that is a constant, a constant positive
   step, and no other write, address or call argument in the loop. C promotes such a counter to int in every
   expression, so declaring it int changes no value; only the truncating stores go, and Vulkan compilers see an
   ordinary int induction variable that they unroll (NVIDIA: 10-15% of ggml's q4_0 matrix-vector product, whose
   arrays indexed by the counter otherwise stay in memory: docs/performance.md). */
static Node *strip_implicit(Node *n)
{
    while (n && (n->kind == N_PAREN || (n->kind == N_CAST && n->implicit)))
        n = n->a;
    return n;
}

static bool counter_ref(Node *n, Var *v)
{
    n = strip_implicit(n);
    return n && n->kind == N_VAR && n->var == v;
}

static bool const_int(Node *n, long long *out)
{
    n = strip_implicit(n);
    if (!n || n->kind != N_INT)
        return false;
    *out = n->ival;
    return true;
}

/* Whether N writes V, takes its address or passes it to a call, other than the loop's own step INC. */
static bool counter_escapes(Node *n, Var *v, Node *inc)
{
    if (!n)
        return false;
    if (n != inc) {
        if ((n->kind == N_ASSIGN || n->kind == N_UNARY || n->kind == N_POSTFIX) && counter_ref(n->a, v) &&
            (n->kind == N_ASSIGN || !strcmp(n->op, "++") || !strcmp(n->op, "--")))
            return true;
        if (n->kind == N_ADDR && counter_ref(n->a, v))
            return true;
        if (n->kind == N_CALL || n->kind == N_BUILTIN || n->kind == N_SIMD || n->kind == N_ATOMIC)
            for (int i = 0; i < n->n_list; i++)
                if (counter_ref(n->list[i], v))
                    return true;
    }
    if (n->kind == N_VARDEF && counter_escapes(n->var->init, v, inc))
        return true;
    if (counter_escapes(n->a, v, inc) || counter_escapes(n->b, v, inc) || counter_escapes(n->c, v, inc) ||
        counter_escapes(n->d, v, inc))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (counter_escapes(n->list[i], v, inc))
            return true;
    return false;
}

/* The expressions of N that are V or are V's own step: typed int from now on. */
static void counter_retype(Node *n, Var *v)
{
    if (!n)
        return;
    if ((n->kind == N_VAR && n->var == v) ||
        ((n->kind == N_ASSIGN || n->kind == N_UNARY || n->kind == N_POSTFIX) && counter_ref(n->a, v)))
        n->ty = ty_scalar(TY_INT);
    if (n->kind == N_VARDEF)
        counter_retype(n->var->init, v);
    counter_retype(n->a, v);
    counter_retype(n->b, v);
    counter_retype(n->c, v);
    counter_retype(n->d, v);
    for (int i = 0; i < n->n_list; i++)
        counter_retype(n->list[i], v);
}

static void widen_loop_counters(Node *n)
{
    if (!n)
        return;
    if (n->kind == N_FOR && n->a && n->a->kind == N_DECL && n->a->n_list == 1 && n->a->list[0]->kind == N_VARDEF &&
        n->b && n->c) {
        Var *v = n->a->list[0]->var;
        TypeKind k = v->ty->kind;
        long long lo = k == TY_CHAR ? -128 : k == TY_SHORT ? -32768 : 0;
        long long hi = k == TY_CHAR ? 127 : k == TY_UCHAR ? 255 : k == TY_SHORT ? 32767 : 65535;
        Node *cond = strip_implicit(n->b), *inc = n->c;
        long long start, bound, step = 0;
        bool small = k == TY_CHAR || k == TY_UCHAR || k == TY_SHORT || k == TY_USHORT;
        bool less = cond && cond->kind == N_BINARY && (!strcmp(cond->op, "<") || !strcmp(cond->op, "<=")) &&
                    counter_ref(cond->a, v) && const_int(cond->b, &bound);
        if ((inc->kind == N_UNARY || inc->kind == N_POSTFIX) && !strcmp(inc->op, "++") && counter_ref(inc->a, v))
            step = 1;
        else if (inc->kind == N_ASSIGN && !strcmp(inc->op, "+=") && counter_ref(inc->a, v) && !const_int(inc->b, &step))
            step = 0;
        if (small && less && step > 0 && v->init && const_int(v->init, &start) && start >= lo && start <= hi &&
            bound + (cond->op[1] == '=' ? step : step - 1) <= hi && !counter_escapes(n->b, v, inc) &&
            !counter_escapes(n->d, v, inc)) {
            Node *init = strip_implicit(v->init);
            init->ty = ty_scalar(TY_INT);
            v->init = init;
            v->ty = ty_scalar(TY_INT);
            counter_retype(n->b, v);
            counter_retype(n->c, v);
            counter_retype(n->d, v);
        }
    }
    if (n->kind == N_VARDEF)
        widen_loop_counters(n->var->init);
    widen_loop_counters(n->a);
    widen_loop_counters(n->b);
    widen_loop_counters(n->c);
    widen_loop_counters(n->d);
    for (int i = 0; i < n->n_list; i++)
        widen_loop_counters(n->list[i]);
}

static void visit_func(Lower *X, Func *f, Func *from, SrcLoc call_loc)
{
    if (f->had_errors) {
        X->failed = true;
        if (!X->L->cause && !f->clang_error) /* clang's errors have failure isolation's own notes */
            X->L->cause = f->first_error;
    }
    if (f->visiting) {
        diag_error(X->diag, call_loc, "recursion is not supported (GLSL has none): '%s' calls '%s'", from ? from->name : "?", f->name);
        return;
    }
    if (pv_contains(&X->L->funcs, f) || f == X->L->kernel)
        return;
    f->visiting = true;
    refs_inline(X->prog, f);
    loop_tail_calls(X, f);
    locals_as_arrays(X, f, f->body);
    widen_loop_counters(f->body);
    visit_calls(X, f, f->body);
    for (int i = 0; i < f->n_params; i++) {
        Type *t = f->params[i]->ty;
        if (t->kind == TY_REF && t->as == AS_THREAD && t->elem->kind == TY_PTR) {
            /* a reference to a pointer (`const device T*& x`): the pointer itself, an index (ptr.c) that the helper
               may move: `inout uint x`, its caller's index variable passed (the kernel's copy of a buffer) */
            f->params[i]->is_out_param = !t->is_const;
            f->params[i]->ty = t = t->elem;
        }
        if (t->kind == TY_REF && (t->as == AS_CONSTANT || t->is_const))
            ; /* read-only reference: passed by value */
        else if (t->kind == TY_PTR || (t->kind == TY_REF && t->as != AS_THREAD))
            ; /* pointers and references to device or threadgroup memory: indices (ptr.c) */
        else if (t->kind == TY_REF)
            f->params[i]->is_out_param = true;
        use_type(X, t, f->params[i]->loc);
    }
    if (f->ret->kind == TY_REF)
        diag_error(X->diag, f->loc, "helper functions returning references are not supported yet ('%s'; return a pointer)", f->name);
    else if (f->ret->kind != TY_VOID && f->body && !has_return(f->body))
        diag_error(X->diag, f->loc, "'%s' returns %s but has no return statement (its value is undefined in Metal)", f->name,
                   ty_metal_name(X->prog->arena, f->ret));
    use_type(X, f->ret, f->loc);
    walk(X, f, f->body, false);
    if (f->self && f->self->is_out_param && !f->self->written && !takes_address(f->body))
        f->self->is_out_param = false; /* a member function that is not const but does not change its object: `in`, so
                                          that it can be called on a value (`S(x).get()`, MLX's fp4 conversions) */
    for (int i = 0; i < f->n_params; i++) /* `thread T a[N]` written: GLSL passes arrays by value, so inout */
        if (f->params[i]->ty->kind == TY_ARRAY && f->params[i]->written)
            f->params[i]->is_out_param = true;
    f->visiting = false;
    if (f != X->L->kernel) {
        rename_same_signature(X, f);
        pv_push(&X->L->funcs, f);
    }
}

/* Whether helper parameter P is a reference to a pointer the helper may move (`const device T*& x`): before
   visit_func makes it an inout pointer, or after. */
static bool moves_pointer_param(const Var *p)
{
    if (p->ty->kind == TY_PTR)
        return p->is_out_param;
    return p->ty->kind == TY_REF && p->ty->as == AS_THREAD && !p->ty->is_const && p->ty->elem->kind == TY_PTR;
}

/* Whether N assigns to, increments or decrements buffer parameter V itself (`src += r * N`, `p++`), or passes it
   to a helper's reference to a pointer (MLX's `adjust_matrix_offsets(x, w, ...)` with `const device T*& x`). */
static bool moves(const Node *n, const Var *v)
{
    if (!n)
        return false;
    if ((n->kind == N_ASSIGN || ((n->kind == N_UNARY || n->kind == N_POSTFIX) && (!strcmp(n->op, "++") || !strcmp(n->op, "--")))) &&
        n->a && n->a->kind == N_VAR && n->a->var == v)
        return true;
    for (int i = 0; n->kind == N_CALL && n->fn && i < n->n_list && i < n->fn->n_params; i++)
        if (n->list[i]->kind == N_VAR && n->list[i]->var == v && moves_pointer_param(n->fn->params[i]))
            return true;
    if (moves(n->a, v) || moves(n->b, v) || moves(n->c, v) || moves(n->d, v))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (moves(n->list[i], v))
            return true;
    return n->kind == N_VARDEF && moves(n->var->init, v);
}

static void replace_var(Node *n, const Var *from, Var *to)
{
    if (!n)
        return;
    if (n->kind == N_VAR && n->var == from)
        n->var = to;
    replace_var(n->a, from, to);
    replace_var(n->b, from, to);
    replace_var(n->c, from, to);
    replace_var(n->d, from, to);
    for (int i = 0; i < n->n_list; i++)
        replace_var(n->list[i], from, to);
    if (n->kind == N_VARDEF)
        replace_var(n->var->init, from, to);
}

/* A buffer parameter the kernel moves (ggml: `src0 += i03*args.nb03;`) is the buffer itself in GLSL, which
   cannot move: the body uses a local pointer instead, `device T* src0 = src0_param;` (an index into the buffer,
   ptr.c), and the parameter keeps the buffer. */
static void copy_moved_buffers(Lower *X, Func *k)
{
    if (!k->body || k->body->kind != N_BLOCK)
        return;
    for (int i = k->n_params - 1; i >= 0; i--) { /* each put first: in parameter order */
        Var *p = k->params[i];
        if (p->role != PR_BUFFER || !moves(k->body, p))
            continue;
        Var *local = arena_alloc(X->prog->arena, sizeof *local);
        *local = (Var){.name = p->name, .glsl_name = p->glsl_name, .ty = p->ty, .kind = VAR_LOCAL, .loc = p->loc,
                       .index = -1, .builtin = -1, .tg_index = -1, .owner = k};
        replace_var(k->body, p, local);
        Node *use = arena_alloc(X->prog->arena, sizeof *use);
        *use = (Node){.kind = N_VAR, .loc = p->loc, .ty = p->ty, .var = p};
        local->init = use;
        Node *def = arena_alloc(X->prog->arena, sizeof *def), *decl = arena_alloc(X->prog->arena, sizeof *decl);
        *def = (Node){.kind = N_VARDEF, .loc = p->loc, .var = local};
        *decl = (Node){.kind = N_DECL, .loc = p->loc, .list = arena_alloc(X->prog->arena, sizeof(Node *)), .n_list = 1};
        decl->list[0] = def;
        Node **list = arena_alloc(X->prog->arena, sizeof(Node *) * (size_t)(k->body->n_list + 1));
        list[0] = decl;
        for (int j = 0; j < k->body->n_list; j++)
            list[j + 1] = k->body->list[j];
        k->body->list = list;
        k->body->n_list++;
    }
}

/* A reference to device or threadgroup memory (`device Particle& q = p[i]`) is printed as an index into the
   buffer or array it refers to (ptr.c): what is read or written through it is read or written there, so that
   the buffer is not declared readonly while the GLSL writes it. After ptr_analyze, which finds the roots. */
static void access_through_references(Lowered *L)
{
    for (int i = 0; i < L->ptr_specs.len; i++) {
        PtrSpec *s = L->ptr_specs.items[i];
        for (int j = 0; j < s->n; j++) {
            Var *v = s->vars[j], *root = s->roots[j];
            if (v->ty->kind != TY_REF || !root || root == &ptr_dynamic)
                continue;
            root->read |= v->read;
            root->written |= v->written && !v->ty->is_const && v->ty->as != AS_CONSTANT;
        }
    }
}

/* The function constants the kernel reads are numbered in the order of their Metal indices (any index Metal
   takes): the k-th is specialization constant FC_FIRST_ID + 2k, its "defined" flag the next id. The reflection
   gives the runtime each one's ids (docs/interfaces.md). */
static void number_function_constants(Lower *X)
{
    PtrVec *g = &X->L->globals;
    int n = 0;
    for (int i = 0; i < g->len; i++) {
        Var *v = g->items[i];
        if (!v->fc_id)
            continue;
        int rank = 0; /* distinct indices below this one's */
        for (int j = 0; j < g->len; j++) {
            Var *w = g->items[j];
            bool first = true; /* w's index not seen before position j */
            for (int m = 0; m < j; m++)
                first &= !(((Var *)g->items[m])->fc_id && ((Var *)g->items[m])->fc_index == w->fc_index);
            rank += w->fc_id && first && w->fc_index < v->fc_index;
        }
        v->fc_id = FC_FIRST_ID + 2 * rank + (v->fc_defined ? 1 : 0);
        n = rank + 1 > n ? rank + 1 : n;
    }
    if (n > FC_MAX)
        diag_error(X->diag, X->L->kernel->loc, "kernel '%s' reads %d function constants; at most %d are supported (Vulkan specialization constant ids below 2047)",
                   X->L->kernel->name, n, FC_MAX);
}

bool lower_kernel(Program *prog, Func *k, Lowered *L)
{
    Lower X = {prog, prog->diag, L, false};
    int before = prog->diag->n_errors;
    L->kernel = k;
    if (k->had_errors && !k->clang_error)
        L->cause = k->first_error;
    if (k->ret->kind != TY_VOID)
        diag_error(prog->diag, k->loc, "kernel '%s' must return void", k->name);
    classify_params(&X, k);
    copy_moved_buffers(&X, k);
    layout_push_constants(&X, k);
    k->visiting = true;
    refs_inline(prog, k);
    locals_as_arrays(&X, k, k->body);
    widen_loop_counters(k->body);
    visit_calls(&X, k, k->body);
    walk(&X, k, k->body, false);
    k->visiting = false;
    number_function_constants(&X);
    /* barriers and SIMD-group functions need every thread of a partial threadgroup to exist, and no other */
    const unsigned simd_attrs = ~((1u << ATTR_thread_index_in_simdgroup) - 1u);
    L->exact_groups = L->uses_simd || L->uses_quad || L->uses_barrier || L->tg_vars.len > 0 || (L->builtins_used & simd_attrs);
    L->simd_mode = prog->subgroup_size == 32 ? SIMD_NATIVE : prog->subgroup_size > 32 ? SIMD_CLUSTERED : SIMD_EMULATED;
    /* lanes renamed to the tensor cores' layout (simd.c, "Tensor cores"): 32-wide subgroups (real, or virtual for
       tests); under --tensor-cores the kernels with a product whose operands hold only half values (halfexact.c:
       the only ones the tensor cores take), under --mma-lanes every kernel that depends on lane numbers */
    if (L->simd_mode == SIMD_NATIVE && (L->uses_simd || L->uses_quad || (L->builtins_used & simd_attrs))) {
        if (prog->tensor_cores && L->uses_matrix_products && !prog->virtual_subgroups)
            halfexact_analyze(prog, L); /* the products whose operands hold half values only */
        L->tensor_cores = L->tc_products.len > 0;
        L->mma_lanes = L->tensor_cores || prog->mma_lanes;
        if (L->tensor_cores)
            L->need_float16 = true; /* the operands in half */
    }
    if (prog->diag->n_errors == before && ptr_analyze(prog, L))
        access_through_references(L);
    if ((L->uses_simd || L->uses_quad) && prog->diag->n_errors == before)
        sync_analyze(prog, L);
    return prog->diag->n_errors == before && !X.failed && !k->had_errors;
}
