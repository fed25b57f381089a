/* atomics.c: Metal's atomic functions on atomic_int, atomic_uint and atomic<float>.
 *
 * An atomic object lives in a buffer or in threadgroup memory; GLSL's atomic functions take that memory
 * itself (an SSBO member or a shared variable) as their first argument. The object's pointer, as kernels
 * write it (`&hist[b]`, `counter`, `counter + 1`, `&s.count`), is turned into that lvalue here, once,
 * and the printer calls atomicAdd(lvalue, v) etc. Memory orders: Metal accepts memory_order_relaxed for
 * these functions, which is what GLSL's atomics are.
 */
#include <string.h>

#include "internal.h"

/* The Metal functions, their operand count (object excluded, orders excluded) and the GLSL function. */
static const struct {
    const char *metal;
    int operands;
    const char *glsl;
    bool float_ok;
} atomic_fns[] = {
    {"atomic_load_explicit", 0, "atomicAdd", true}, /* adding zero: an atomic read */
    {"atomic_store_explicit", 1, "atomicExchange", true},
    {"atomic_exchange_explicit", 1, "atomicExchange", true},
    {"atomic_fetch_add_explicit", 1, "atomicAdd", true},
    {"atomic_fetch_sub_explicit", 1, "atomicAdd", true}, /* of the negated operand */
    {"atomic_fetch_min_explicit", 1, "atomicMin", false},
    {"atomic_fetch_max_explicit", 1, "atomicMax", false},
    {"atomic_fetch_and_explicit", 1, "atomicAnd", false},
    {"atomic_fetch_or_explicit", 1, "atomicOr", false},
    {"atomic_fetch_xor_explicit", 1, "atomicXor", false},
    {"atomic_compare_exchange_weak_explicit", 2, "atomicCompSwap", false},
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

/* The lvalue a pointer expression designates: &x -> x, p -> p[0], p + i -> p[i]; NULL otherwise. */
Node *atomic_lvalue(Program *prog, Node *p)
{
    p = strip(p);
    if (!p)
        return NULL;
    if (p->kind == N_ADDR)
        return p->a;
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

/* Checks call N of an atomic function; sets n->a (the object), n->b (compare-exchange: expected), n->ty
   and n->builtin (index into the table). Returns false, diagnosed, if it cannot be translated. */
bool atomic_check(Program *prog, Lowered *L, Node *n)
{
    Diag *d = prog->diag;
    int fi = atomic_lookup(n->name);
    if (fi < 0) {
        diag_error(d, n->loc, "%s is not supported yet", n->name);
        return false;
    }
    n->builtin = fi;
    int want = 1 + atomic_fns[fi].operands;
    if (n->n_list < want) {
        diag_error(d, n->loc, "%s needs %d arguments before its memory order", n->name, want);
        return false;
    }
    for (int i = want; i < n->n_list; i++) {
        Node *o = strip(n->list[i]);
        if (o->kind != N_ENUMVAL || o->ival != 0) {
            diag_error(d, o->loc, "%s: only memory_order_relaxed is supported (Metal's atomics are relaxed)", n->name);
            return false;
        }
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
    if (ek != TY_INT && ek != TY_UINT && ek != TY_FLOAT) {
        diag_error(d, n->list[0]->loc, "atomic<%s> is not supported (atomic_int, atomic_uint and atomic<float> are)", ty_scalar_metal_name(ek));
        return false;
    }
    if (ek == TY_FLOAT && !atomic_fns[fi].float_ok) {
        diag_error(d, n->loc, "%s on atomic<float> is not supported (Vulkan's float atomics add and exchange)", n->name);
        return false;
    }
    if (ek == TY_FLOAT) {
        if (shared)
            L->need_atomic_float_shared = true;
        else
            L->need_atomic_float_buffer = true;
    }
    if (!ptr_like(root))
        root->read = root->written = true;
    n->a = obj;
    n->ty = !strcmp(n->name, "atomic_store_explicit") ? ty_scalar(TY_VOID)
            : atomic_fns[fi].operands == 2 ? ty_scalar(TY_BOOL) : obj->ty->elem;
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
