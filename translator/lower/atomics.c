/* atomics.c: Metal's atomic functions and atomic_thread_fence.
 *
 * An atomic object lives in a buffer or in threadgroup memory; GLSL's atomic functions take that memory
 * itself (an SSBO member or a shared variable) as their first argument. The object's pointer, as kernels
 * write it (`&hist[b]`, `counter`, `counter + 1`, `&s.count`), is turned into that lvalue here, once,
 * and the printer calls atomicAdd(lvalue, v) etc.
 *
 * atomic_int, atomic_uint (also spelled atomic<int>, atomic<uint>) and atomic<float> (atomic_float) take
 * every function GLSL has; min/max and compare-exchange on atomic<float> in a buffer work on the float's
 * bits through a uint view of the same binding (a compare-exchange loop for min/max: Vulkan's native float
 * min/max is optional and leaves NaN and -0.0 open). atomic_ulong takes Metal 3.1's atomic_min_explicit
 * and atomic_max_explicit (GL_EXT_shader_atomic_int64). Memory orders other than relaxed and
 * atomic_thread_fence use the Vulkan memory model (GL_KHR_memory_scope_semantics); docs/translator.md
 * "Atomics" has the mapping.
 */
#include <string.h>

#include "internal.h"

enum { K_INT = 1, K_FLOAT = 2, K_FLOAT_BITS = 4, K_ULONG = 8 };

/* The Metal functions, their operand count (object excluded, orders excluded), the GLSL function and the
   element types they take (K_FLOAT_BITS: atomic<float> through its bits, device memory only). */
static const struct {
    const char *metal;
    int operands;
    const char *glsl;
    unsigned kinds;
} atomic_fns[] = {
    {"atomic_load_explicit", 0, "atomicAdd", K_INT | K_FLOAT}, /* adding zero: an atomic read */
    {"atomic_store_explicit", 1, "atomicExchange", K_INT | K_FLOAT},
    {"atomic_exchange_explicit", 1, "atomicExchange", K_INT | K_FLOAT},
    {"atomic_fetch_add_explicit", 1, "atomicAdd", K_INT | K_FLOAT},
    {"atomic_fetch_sub_explicit", 1, "atomicAdd", K_INT | K_FLOAT}, /* of the negated operand */
    {"atomic_fetch_min_explicit", 1, "atomicMin", K_INT | K_FLOAT_BITS},
    {"atomic_fetch_max_explicit", 1, "atomicMax", K_INT | K_FLOAT_BITS},
    {"atomic_fetch_and_explicit", 1, "atomicAnd", K_INT},
    {"atomic_fetch_or_explicit", 1, "atomicOr", K_INT},
    {"atomic_fetch_xor_explicit", 1, "atomicXor", K_INT},
    {"atomic_compare_exchange_weak_explicit", 2, "atomicCompSwap", K_INT | K_FLOAT_BITS},
    {"atomic_min_explicit", 1, "atomicMin", K_ULONG}, /* Metal 3.1: atomic_ulong, no result */
    {"atomic_max_explicit", 1, "atomicMax", K_ULONG},
    {"atomic_thread_fence", 0, "memoryBarrier", 0},
};

int atomic_lookup(const char *metal)
{
    for (size_t i = 0; i < sizeof atomic_fns / sizeof *atomic_fns; i++)
        if (!strcmp(atomic_fns[i].metal, metal))
            return (int)i;
    return -1;
}

const char *atomic_glsl(int index)
{
    return atomic_fns[index].glsl;
}

static Node *strip(Node *n)
{
    while (n && (n->kind == N_PAREN || (n->kind == N_CAST && n->implicit && n->a->ty && n->a->ty->kind == n->ty->kind)))
        n = n->a;
    return n;
}

/* A threadgroup or local array that decays to a pointer: the array variable. */
static Node *decayed_array(Node *p)
{
    p = strip(p);
    if (p && p->kind == N_VAR && p->ty && p->ty->kind == TY_ARRAY)
        return p;
    if (p && p->kind == N_CAST && p->implicit && p->a->ty && p->a->ty->kind == TY_ARRAY && strip(p->a)->kind == N_VAR)
        return strip(p->a);
    return NULL;
}

/* The lvalue a pointer expression designates: &x -> x, p -> p[0], p + i -> p[i] (p a pointer or an array);
   NULL otherwise. */
Node *atomic_lvalue(Program *prog, Node *p)
{
    p = strip(p);
    if (!p)
        return NULL;
    if (p->kind == N_ADDR)
        return p->a;
    if (p->kind == N_CAST && !p->implicit && p->ty && p->ty->kind == TY_PTR && p->ty->elem->kind == TY_ATOMIC &&
        strip(p->a)->kind == N_ADDR && strip(p->a)->a->ty && ty_equal(strip(p->a)->a->ty, p->ty->elem->elem)) {
        /* (device atomic_float*)&grad[i] (PyTorch's LossCTC): the element itself, as an atomic of its type */
        Node *d = arena_alloc(prog->arena, sizeof *d);
        *d = *strip(strip(p->a)->a);
        d->ty = p->ty->elem;
        return d;
    }
    Node *arr = decayed_array(p);
    if (arr || (p->kind == N_BINARY && !strcmp(p->op, "+") && decayed_array(p->a))) {
        Node *d = arena_alloc(prog->arena, sizeof *d);
        *d = *p;
        d->kind = N_INDEX;
        d->a = arr ? arr : decayed_array(p->a);
        d->ty = d->a->ty->elem;
        if (arr) {
            d->b = arena_alloc(prog->arena, sizeof *d->b);
            *d->b = (Node){.kind = N_INT, .loc = p->loc, .ty = ty_scalar(TY_UINT), .ival = 0};
        }
        return d;
    }
    if (!p->ty || p->ty->kind != TY_PTR)
        return NULL;
    if (p->kind == N_VAR) {
        Node *d = arena_alloc(prog->arena, sizeof *d);
        *d = *p;
        d->kind = N_DEREF;
        d->a = p;
        d->ty = p->ty->elem;
        return d;
    }
    if (p->kind == N_BINARY && !strcmp(p->op, "+") && strip(p->a)->kind == N_VAR && strip(p->a)->ty->kind == TY_PTR) {
        Node *d = arena_alloc(prog->arena, sizeof *d);
        *d = *p;
        d->kind = N_INDEX;
        d->a = strip(p->a);
        d->ty = d->a->ty->elem;
        return d;
    }
    return NULL;
}

static Var *root_of(Node *n)
{
    while (n && n->kind != N_VAR)
        n = n->a;
    return n ? n->var : NULL;
}

static const char *order_names[] = {"memory_order_relaxed", "memory_order_acquire", "memory_order_release",
                                    "memory_order_acq_rel", "memory_order_seq_cst"};

/* A memory order argument: 0 relaxed .. 4 seq_cst, or -1 (diagnosed). */
static int memory_order(Program *prog, Node *n, const char *fn)
{
    Node *o = strip(n);
    if (o->kind != N_ENUMVAL || o->ival < 0 || o->ival > 4) {
        diag_error(prog->diag, o->loc, "%s: the memory order must be one of memory_order_relaxed .. memory_order_seq_cst, written out", fn);
        return -1;
    }
    return (int)o->ival;
}

/* atomic_thread_fence(flags, order[, scope]): n->ival = AT_* bits. */
static bool check_fence(Program *prog, Lowered *L, Node *n)
{
    Diag *d = prog->diag;
    if (n->n_list < 2 || n->n_list > 3) {
        diag_error(d, n->loc, "atomic_thread_fence takes mem_flags, a memory order and a thread_scope");
        return false;
    }
    Node *f = strip(n->list[0]);
    if ((f->kind != N_ENUMVAL && f->kind != N_INT) || (f->ival & ~3LL) || !f->ival) {
        diag_error(d, f->loc, "atomic_thread_fence: the flags must be mem_flags::mem_device and/or mem_flags::mem_threadgroup");
        return false;
    }
    int order = memory_order(prog, n->list[1], n->name);
    if (order < 0)
        return false;
    if (order == 0) {
        diag_error(d, n->list[1]->loc, "atomic_thread_fence with memory_order_relaxed orders nothing; remove it");
        return false;
    }
    int scope = AT_SCOPE_DEVICE;
    if (n->n_list == 3) {
        Node *s = strip(n->list[2]);
        for (int hops = 0; hops < 8; hops++) { /* MLX's fence.metal: a constexpr thread_scope_system = static_cast<thread_scope>(3) */
            if (s->kind == N_VAR && s->var->kind == VAR_GLOBAL && s->var->init && !s->var->fc_id)
                s = strip(s->var->init);
            else if (s->kind == N_CAST && s->a)
                s = strip(s->a);
            else
                break;
        }
        if ((s->kind == N_ENUMVAL || s->kind == N_INT) && s->ival == 3) { /* a kernel that waits for the CPU */
            diag_error(d, n->list[2]->loc, "atomic_thread_fence with thread_scope_system is not supported: Vulkan shaders have no scope "
                       "wider than the device, so memory shared with the CPU or other devices is not ordered during a dispatch");
            return false;
        }
        if ((s->kind != N_ENUMVAL && s->kind != N_INT) || s->ival < 0 || s->ival > AT_SCOPE_SIMDGROUP || s->ival == 3) {
            diag_error(d, s->loc, "atomic_thread_fence: the scope must be thread_scope_thread, _simdgroup, _threadgroup or _device");
            return false;
        }
        scope = (int)s->ival;
    }
    n->ival = order | (f->ival & 1 ? AT_DEVICE_MEM : 0) | (f->ival & 2 ? AT_SHARED_MEM : 0) | scope << AT_SCOPE_SHIFT;
    n->ty = ty_scalar(TY_VOID);
    L->need_memory_model = true;
    return true;
}

/* Checks call N of an atomic function; sets n->a (the object), n->b (compare-exchange: expected), n->ty,
   n->builtin (index into the table) and n->ival (AT_* bits). Returns false, diagnosed, if it cannot be
   translated. */
bool atomic_check(Program *prog, Lowered *L, Node *n)
{
    Diag *d = prog->diag;
    int fi = atomic_lookup(n->name);
    if (fi < 0) {
        diag_error(d, n->loc, "%s is not supported yet", n->name);
        return false;
    }
    n->builtin = fi;
    if (!strcmp(n->name, "atomic_thread_fence"))
        return check_fence(prog, L, n);
    int want = 1 + atomic_fns[fi].operands;
    int n_orders = atomic_fns[fi].operands == 2 ? 2 : 1;
    if (n->n_list != want + n_orders) {
        diag_error(d, n->loc, "%s needs %d arguments and %d memory order%s", n->name, want, n_orders, n_orders > 1 ? "s" : "");
        return false;
    }
    int orders[2] = {0, 0};
    for (int i = 0; i < n_orders; i++)
        if ((orders[i] = memory_order(prog, n->list[want + i], n->name)) < 0)
            return false;
    bool is_load = !strcmp(n->name, "atomic_load_explicit"), is_store = !strcmp(n->name, "atomic_store_explicit");
    if ((is_load && (orders[0] == 2 || orders[0] == 3)) || (is_store && (orders[0] == 1 || orders[0] == 3)) ||
        (n_orders == 2 && (orders[1] == 2 || orders[1] == 3))) {
        int bad = n_orders == 2 && (orders[1] == 2 || orders[1] == 3) ? 1 : 0;
        diag_error(d, n->list[want + bad]->loc, "%s cannot take %s", bad ? "a compare-exchange's failure order" : n->name, order_names[orders[bad]]);
        return false;
    }
    Node *obj = atomic_lvalue(prog, n->list[0]);
    Var *root = obj ? root_of(obj) : NULL;
    if (!obj || !obj->ty || obj->ty->kind != TY_ATOMIC || !root) {
        diag_error(d, n->list[0]->loc, "%s: the atomic object must be written &x, p or p + i (x an atomic variable or element, p a pointer parameter)", n->name);
        return false;
    }
    bool shared = root->is_threadgroup || root->role == PR_TGMEM || (ptr_like(root) && root->ty->as == AS_THREADGROUP);
    if (!shared && root->role != PR_BUFFER && root->role != PR_BUFREF && !(ptr_like(root) && root->ty->as == AS_DEVICE)) {
        diag_error(d, n->list[0]->loc, "%s: atomic objects must be in device or threadgroup memory", n->name);
        return false;
    }
    TypeKind ek = obj->ty->elem->kind;
    const char *tname = ek == TY_INT ? "atomic_int" : ek == TY_UINT ? "atomic_uint" : ek == TY_FLOAT ? "atomic<float>"
                        : ek == TY_ULONG ? "atomic_ulong" : ek == TY_BOOL ? "atomic_bool" : NULL;
    if (!tname) {
        diag_error(d, n->list[0]->loc, "atomic<%s> is not a Metal atomic type (atomic_int, atomic_uint, atomic_bool, atomic_ulong and atomic<float> are)", ty_scalar_metal_name(ek));
        return false;
    }
    if (ek == TY_BOOL) {
        diag_error(d, n->list[0]->loc, "atomic_bool is not supported (Metal's bool is one byte; Vulkan's atomics take 32- and 64-bit words)");
        return false;
    }
    unsigned kinds = atomic_fns[fi].kinds;
    unsigned k = ek == TY_FLOAT ? (kinds & K_FLOAT_BITS ? K_FLOAT_BITS : K_FLOAT) : ek == TY_ULONG ? K_ULONG : K_INT;
    if (!(kinds & k)) {
        if (ek == TY_ULONG)
            diag_error(d, n->loc, "%s on atomic_ulong is not supported (Metal 3.1 has atomic_min_explicit and atomic_max_explicit for it)", n->name);
        else if (kinds & K_ULONG)
            diag_error(d, n->loc, "%s is for atomic_ulong; %s has atomic_fetch_%s_explicit", n->name, tname, n->name[7] == 'm' && n->name[8] == 'i' ? "min" : "max");
        else
            diag_error(d, n->loc, "%s on %s is not supported (Metal has it for atomic_int and atomic_uint)", n->name, tname);
        return false;
    }
    if (k == K_FLOAT && !strcmp(n->name, "atomic_load_explicit") && !shared && root->role == PR_BUFFER &&
        ty_equal(root->ty->elem, obj->ty))
        k = K_FLOAT_BITS; /* a float load reads the bits (atomicOr(bits, 0u)): a float add of -0.0 may quieten a NaN (NVIDIA) */
    if (ek == TY_FLOAT && orders[0] + orders[1]) {
        diag_error(d, n->list[want]->loc, "%s on atomic<float>: only memory_order_relaxed is supported", n->name);
        return false;
    }
    int ival = orders[0] | orders[1] << AT_FAIL_SHIFT | (shared ? AT_SHARED_MEM : AT_DEVICE_MEM);
    if (k == K_FLOAT_BITS && shared && (root->is_threadgroup || root->role == PR_TGMEM) &&
        (obj->kind == N_VAR || (obj->kind == N_INDEX && strip(obj->a)->kind == N_VAR))) {
        /* threadgroup atomic<float> used by min/max/compare-exchange: held as uint, every function on its bits */
        root->atomic_bits = true;
    } else if (k == K_FLOAT_BITS || k == K_ULONG) {
        /* through a uint view of the binding (floats) / GL_EXT_shader_atomic_int64: device buffers only */
        if (shared || root->role != PR_BUFFER || !ty_equal(root->ty->elem, obj->ty)) {
            diag_error(d, n->list[0]->loc, "%s on %s: only on %san element of a kernel's device buffer of %s (not in a struct or through a pointer variable)",
                       n->name, tname, k == K_ULONG ? "" : "a threadgroup variable or ", tname);
            return false;
        }
    }
    if (k == K_FLOAT_BITS)
        ival |= AT_BITS;
    if (k == K_FLOAT_BITS && !shared) {
        Type *u = ty_scalar(TY_UINT);
        bool have = false;
        for (int i = 0; i < L->ptr_views.len; i += 2)
            have |= L->ptr_views.items[i] == root && ty_equal(L->ptr_views.items[i + 1], u);
        if (!have) {
            pv_push(&L->ptr_views, root);
            pv_push(&L->ptr_views, u);
        }
    } else if (k == K_ULONG) { /* K_FLOAT: the printer asks for GL_EXT_shader_atomic_float where it is used */
        L->need_atomic_int64 = L->need_int64 = true;
    }
    if (orders[0] + orders[1])
        L->need_memory_model = true;
    if (!ptr_like(root))
        root->read = root->written = true;
    n->a = obj;
    n->ival = ival;
    n->ty = is_store || (kinds & K_ULONG) ? ty_scalar(TY_VOID) : atomic_fns[fi].operands == 2 ? ty_scalar(TY_BOOL) : obj->ty->elem;
    if (atomic_fns[fi].operands == 2) {
        Node *e = atomic_lvalue(prog, n->list[1]);
        if (!e || e->kind != N_VAR || !e->ty || e->ty->kind != obj->ty->elem->kind) {
            diag_error(d, n->list[1]->loc, "%s: 'expected' must be the address of a %s variable (&x)", n->name, ty_scalar_metal_name(ek));
            return false;
        }
        n->b = e;
        Var *ev = root_of(e);
        if (ev)
            ev->read = ev->written = true;
    }
    return true;
}
