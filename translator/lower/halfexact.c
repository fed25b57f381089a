/* halfexact.c: which SIMD-group matrix products the tensor cores may take (--tensor-cores; docs/translator.md,
 * "Tensor cores").
 *
 * The tensor cores multiply half operands (into a float accumulator). A product of two half matrices goes there as
 * it is; a product of float matrices only where every value its two operands can hold is exactly a half value, so
 * that converting them to half changes nothing. MLX's steel GEMM is the case: its tiles are float fragments
 * (`MMATile<float, ...>`) filled with `static_cast<float>` of half threadgroup memory, and each product builds its
 * matrices from them through thread_elements().
 *
 * The proof is a flow analysis over the kernel and every helper it reaches, insensitive to order and to the call
 * site (halfcopy.c gives helpers copies per caller where that matters). Its places are those of thread memory: a
 * local or helper parameter (arrays and vectors as a whole), a member of such an object (per object: `Atile.frags`
 * and `Ctile.frags` are two places), and a helper's return value. Each starts out holding half values only; a place
 * is marked (with everything inside it) when something that may not be a half value is stored into it (an
 * assignment, an initializer, an argument passed in or copied back out of an `inout` parameter, a return, a struct
 * copied member by member), when it is updated (`+=`, `++`), or when its address is taken (what a pointer writes is
 * not followed). Repeated until nothing changes. A value is exactly a half value when its type is half, bool, char
 * or uchar, when it is a literal that half represents exactly, a conversion to float of such a value, a vector of
 * them, `?:` or a negation of them, or a read of a place still unmarked. Buffers, threadgroup memory, program-scope
 * constants and anything read through a pointer are never trusted (their writes are not all in this kernel, or not
 * followed), nor is any arithmetic or function result.
 */
#include <math.h>
#include <string.h>

#include "../internal.h"

/* A place of thread memory: variable ROOT itself (field NULL), or the member FIELD of the place PARENT. Interned,
   so that one place is one pointer. */
typedef struct Place {
    Var *root;
    const struct Place *parent;
    const Field *field;
} Place;

typedef struct Exact {
    Program *prog;
    Lowered *L;
    PtrVec places;  /* Place*: every place met */
    PtrVec returns; /* pairs (Func *, Place *): a struct a helper returns (constructors return their object) */
    PtrVec inexact; /* Place* (with everything inside it) and Func* (its return values) that may hold values that
                       are not half values */
    bool changed;
} Exact;

/* V is exactly a half value (binary16: 11 significant bits, at most 65504, multiples of 2^-24). */
static bool half_value(double v)
{
    if (v != v || isinf(v) || v == 0)
        return true;
    double a = fabs(v);
    if (a > 65504.0)
        return false;
    int e;
    frexp(a, &e);
    double s = ldexp(a, -(e - 11 < -24 ? -24 : e - 11));
    return s == floor(s);
}

static Type *value_type(Type *t)
{
    while (t && (t->kind == TY_REF || t->kind == TY_ARRAY))
        t = t->elem;
    return t;
}

static bool is_struct(Type *t)
{
    t = value_type(t);
    return t && t->kind == TY_STRUCT && t->sdef;
}

static bool same_struct(Type *a, Type *b)
{
    return is_struct(a) && is_struct(b) && value_type(a)->sdef == value_type(b)->sdef;
}

/* The member of struct-typed expression BASE named NAME. */
static Field *member_field(const Node *base, const char *name)
{
    Type *t = base && base->ty ? base->ty : NULL;
    if (t && t->kind == TY_REF)
        t = t->elem;
    if (!t || t->kind != TY_STRUCT || !t->sdef || !name)
        return NULL;
    for (int i = 0; i < t->sdef->n_fields; i++)
        if (t->sdef->fields[i].name && !strcmp(t->sdef->fields[i].name, name))
            return &t->sdef->fields[i];
    return NULL;
}

static Place *intern(Exact *X, Var *root, const Place *parent, const Field *field)
{
    for (int i = 0; i < X->places.len; i++) {
        Place *p = X->places.items[i];
        if (p->root == root && p->parent == parent && p->field == field)
            return p;
    }
    Place *p = arena_alloc(X->prog->arena, sizeof *p);
    *p = (Place){root, parent, field};
    pv_push(&X->places, p);
    return p;
}

static Place *root_place(Exact *X, Var *v)
{
    return intern(X, v, NULL, NULL);
}

enum { MAX_MEMBER_DEPTH = 32 };

/* The place of thread memory that N names (*TY: its type), or NULL: not a place, or memory that is never trusted
   (buffers, threadgroup memory, constants, anything through a pointer). `t.frags[j].x` is t's member frags. */
static Place *place_of(Exact *X, Node *n, Type **ty)
{
    const Field *chain[MAX_MEMBER_DEPTH];
    int depth = 0;
    Type *top = n ? n->ty : NULL;
    bool typed = false;
    while (n) {
        switch (n->kind) {
        case N_PAREN:
        case N_SWIZZLE:
            n = n->a;
            continue;
        case N_CAST:
            if (!n->implicit)
                return NULL;
            n = n->a;
            continue;
        case N_INDEX:
            if (!n->a || !n->a->ty || (n->a->ty->kind != TY_ARRAY && n->a->ty->kind != TY_VEC))
                return NULL;
            n = n->a;
            continue;
        case N_MEMBER: {
            Field *f = member_field(n->a, n->name);
            if (!f || depth == MAX_MEMBER_DEPTH)
                return NULL;
            if (!typed) {
                top = f->ty;
                typed = true;
            }
            chain[depth++] = f;
            n = n->a;
            continue;
        }
        case N_VAR: {
            Var *v = n->var;
            if (v->kind == VAR_GLOBAL || v->is_threadgroup || v->role != PR_NONE || v->ty->kind == TY_PTR ||
                (v->ty->kind == TY_REF && v->ty->as != AS_THREAD))
                return NULL;
            const Place *p = root_place(X, v);
            for (int k = depth - 1; k >= 0; k--)
                p = intern(X, v, p, chain[k]);
            *ty = typed ? top : v->ty;
            return (Place *)p;
        }
        default:
            return NULL;
        }
    }
    return NULL;
}

static void mark(Exact *X, void *ent)
{
    if (ent && !pv_contains(&X->inexact, ent)) {
        pv_push(&X->inexact, ent);
        X->changed = true;
    }
}

/* P holds only half values: neither it nor a place around it is marked. */
static bool trusted_place(const Exact *X, const Place *p)
{
    for (; p; p = p->parent)
        if (pv_contains(&X->inexact, p))
            return false;
    return true;
}

static void mark_place(Exact *X, Node *n)
{
    Type *ty = NULL;
    mark(X, place_of(X, n, &ty));
}

/* The places N names marked: their address is taken, or they become a pointer (`&s.f`, `arr + i`: s.f and arr,
   with what they hold, not the object s around them). */
static void mark_places_in(Exact *X, Node *n)
{
    if (!n)
        return;
    Type *ty = NULL;
    Place *p = place_of(X, n, &ty);
    if (p) {
        mark(X, p);
        return;
    }
    mark_places_in(X, n->a);
    mark_places_in(X, n->b);
    mark_places_in(X, n->c);
    for (int i = 0; i < n->n_list; i++)
        mark_places_in(X, n->list[i]);
}

/* Whether every value N can have is exactly a half value. */
static bool exact(Exact *X, Node *n)
{
    if (!n)
        return false;
    TypeKind k = ty_scalar_kind(n->ty);
    if (k == TY_HALF || k == TY_BOOL || k == TY_CHAR || k == TY_UCHAR)
        return true;
    Type *ty = NULL;
    Place *p;
    switch (n->kind) {
    case N_INT:
        return half_value((double)n->ival);
    case N_FLOAT:
        return half_value(n->fval);
    case N_BOOL:
        return true;
    case N_PAREN:
        return exact(X, n->a);
    case N_CAST: /* to float: a half value stays one (to bfloat or an integer it may not) */
        return (k == TY_FLOAT || k == TY_DOUBLE) && exact(X, n->a);
    case N_VECCTOR:
        for (int i = 0; i < n->n_list; i++)
            if (!exact(X, n->list[i]))
                return false;
        return n->n_list > 0;
    case N_TERNARY:
        return exact(X, n->b) && exact(X, n->c);
    case N_UNARY:
        return n->op && (!strcmp(n->op, "-") || !strcmp(n->op, "+")) && exact(X, n->a);
    case N_ASSIGN:
        return n->op && !strcmp(n->op, "=") && exact(X, n->b);
    case N_CALL:
        return n->fn && !n->fn->returns_ref && !n->fn->returns_param && n->fn->body && !is_struct(n->fn->ret) &&
               !pv_contains(&X->inexact, n->fn);
    case N_VAR:
    case N_INDEX:
    case N_MEMBER:
    case N_SWIZZLE:
        p = place_of(X, n, &ty);
        return p && trusted_place(X, p);
    default:
        return false;
    }
}

/* Struct object DST (a place) given the value of struct object SRC (a place), member by member: where SRC's member
   is not trusted, DST's is marked. */
static void copy_members(Exact *X, Place *dst, Place *src, Type *t, int depth)
{
    t = value_type(t);
    if (!t || t->kind != TY_STRUCT || !t->sdef || depth > MAX_MEMBER_DEPTH)
        return;
    for (int i = 0; i < t->sdef->n_fields; i++) {
        const Field *f = &t->sdef->fields[i];
        Place *d = intern(X, dst->root, dst, f), *s = intern(X, src->root, src, f);
        if (is_struct(f->ty))
            copy_members(X, d, s, f->ty, depth + 1);
        else if (!trusted_place(X, s))
            mark(X, d);
    }
}

/* A struct value SRC stored into place DST whole: from another object (member by member), an initializer list
   (member by member), anything else (a helper's result, memory that is not trusted) marks it. */
static void store_struct(Exact *X, Place *dst, Type *t, Node *src, int depth)
{
    Type *ty = NULL;
    Place *from = src ? place_of(X, src, &ty) : NULL;
    t = value_type(t);
    if (from && same_struct(ty, t)) {
        if (!trusted_place(X, from))
            mark(X, dst);
        else
            copy_members(X, dst, from, t, 0);
        return;
    }
    if (src && src->kind == N_CALL && src->fn && src->fn->body && same_struct(src->fn->ret, t) &&
        !pv_contains(&X->inexact, src->fn)) { /* the objects it returns, member by member */
        for (int i = 0; i + 1 < X->returns.len; i += 2)
            if (X->returns.items[i] == src->fn) {
                Place *r = X->returns.items[i + 1];
                if (!trusted_place(X, r))
                    mark(X, dst);
                else
                    copy_members(X, dst, r, t, 0);
            }
        return;
    }
    if (src && src->kind == N_INITLIST && src->ty && same_struct(src->ty, t) && src->n_list <= t->sdef->n_fields &&
        depth < MAX_MEMBER_DEPTH) {
        for (int i = 0; i < src->n_list; i++) {
            const Field *f = &t->sdef->fields[i];
            Place *d = intern(X, dst->root, dst, f);
            if (is_struct(f->ty))
                store_struct(X, d, f->ty, src->list[i], depth + 1);
            else if (!exact(X, src->list[i]))
                mark(X, d);
        }
        return;
    }
    mark(X, dst);
}

/* SRC stored into place DST of type TY (NULL: memory that is never trusted). */
static void store(Exact *X, Place *dst, Type *ty, Node *src)
{
    if (!dst)
        return;
    if (is_struct(ty)) {
        store_struct(X, dst, ty, src, 0);
        return;
    }
    if (src && src->kind == N_INITLIST) { /* an array's elements */
        for (int i = 0; i < src->n_list; i++)
            if (!exact(X, src->list[i]))
                mark(X, dst);
        return;
    }
    if (!exact(X, src))
        mark(X, dst);
}

static void store_place(Exact *X, Node *dst, Node *src)
{
    Type *ty = NULL;
    Place *p = place_of(X, dst, &ty);
    store(X, p, ty, src);
}

static bool is_pointer(const Type *t)
{
    return t && (t->kind == TY_PTR || (t->kind == TY_REF && t->as != AS_THREAD));
}

/* Call N: each argument stored into its parameter, and an inout parameter copied back into its argument. */
static void call(Exact *X, Node *n)
{
    Func *fn = n->fn;
    for (int i = 0; i < n->n_list; i++) {
        if (!fn || i >= fn->n_params) {
            mark_places_in(X, n->list[i]);
            continue;
        }
        Var *p = fn->params[i];
        if (is_pointer(p->ty)) {
            mark_places_in(X, n->list[i]);
            continue;
        }
        Place *pp = root_place(X, p);
        store(X, pp, p->ty, n->list[i]);
        bool out = p->is_out_param || (p->ty->kind == TY_REF && !p->ty->is_const);
        if (!out)
            continue;
        Type *ty = NULL;
        Place *arg = place_of(X, n->list[i], &ty);
        if (!fn->body) /* what a function without a body here writes is not seen */
            mark_places_in(X, n->list[i]);
        else if (arg && !trusted_place(X, pp)) /* copied back out */
            mark(X, arg);
        else if (arg && is_struct(p->ty))
            copy_members(X, arg, pp, p->ty, 0);
    }
}

/* F returns struct value A: an object (a place of F's), or anything else, which marks F's results. */
static void returned(Exact *X, Func *f, Node *a)
{
    Type *ty = NULL;
    Place *p = place_of(X, a, &ty);
    if (!p || !same_struct(ty, f->ret)) {
        mark(X, f);
        return;
    }
    for (int i = 0; i + 1 < X->returns.len; i += 2)
        if (X->returns.items[i] == f && X->returns.items[i + 1] == p)
            return;
    pv_push(&X->returns, f);
    pv_push(&X->returns, p);
    X->changed = true;
}

static void scan(Exact *X, Func *f, Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case N_ASSIGN:
        if (n->op && !strcmp(n->op, "="))
            store_place(X, n->a, n->b);
        else
            mark_place(X, n->a);
        if (is_pointer(n->a ? n->a->ty : NULL))
            mark_places_in(X, n->b);
        break;
    case N_UNARY:
    case N_POSTFIX:
        if (n->op && (!strcmp(n->op, "++") || !strcmp(n->op, "--")))
            mark_place(X, n->a);
        break;
    case N_ADDR:
        mark_places_in(X, n->a);
        break;
    case N_CAST:
    case N_BINARY:
        if (is_pointer(n->ty))
            mark_places_in(X, n);
        break;
    case N_CALL:
        call(X, n);
        break;
    case N_BUILTIN: /* modf, sincos, frexp write their last argument */
        if (n->builtin >= 0 && n->builtin < builtin_count &&
            (builtin_table[n->builtin].family == BF_FO || builtin_table[n->builtin].family == BF_FFR))
            for (int i = 0; i < n->n_list; i++)
                mark_places_in(X, n->list[i]);
        break;
    case N_ATOMIC:
        for (int i = 0; i < n->n_list; i++)
            mark_places_in(X, n->list[i]);
        break;
    case N_VARDEF:
        if (n->var->init) {
            store(X, root_place(X, n->var), n->var->ty, n->var->init);
            if (is_pointer(n->var->ty))
                mark_places_in(X, n->var->init);
            scan(X, f, n->var->init);
        }
        return;
    case N_RETURN:
        if (n->a && is_struct(f->ret))
            returned(X, f, n->a);
        else if (n->a && !exact(X, n->a))
            mark(X, f);
        break;
    default:
        break;
    }
    scan(X, f, n->a);
    scan(X, f, n->b);
    scan(X, f, n->c);
    scan(X, f, n->d);
    for (int i = 0; i < n->n_list; i++)
        scan(X, f, n->list[i]);
}

bool halfexact_is_product(const Node *n)
{
    return n->kind == N_SIMD && n->n_list >= 2 &&
           (simd_table[n->builtin].op == SOP_MAT_MULTIPLY || simd_table[n->builtin].op == SOP_MAT_MULTIPLY_ACCUMULATE);
}

static void collect(Exact *X, Node *n)
{
    if (!n)
        return;
    if (halfexact_is_product(n) && exact(X, n->list[0]) && exact(X, n->list[1]) && !pv_contains(&X->L->tc_products, n))
        pv_push(&X->L->tc_products, n);
    if (n->kind == N_VARDEF)
        collect(X, n->var->init);
    collect(X, n->a);
    collect(X, n->b);
    collect(X, n->c);
    collect(X, n->d);
    for (int i = 0; i < n->n_list; i++)
        collect(X, n->list[i]);
}

/* The fixpoint over the kernel and L->funcs, then the products it proves into L->tc_products (emptied first). */
void halfexact_prove(Program *prog, Lowered *L)
{
    Exact X = {.prog = prog, .L = L};
    L->tc_products.len = 0;
    for (int pass = 0; pass < 10000; pass++) {
        X.changed = false;
        scan(&X, L->kernel, L->kernel->body);
        for (int i = 0; i < L->funcs.len; i++)
            scan(&X, L->funcs.items[i], ((Func *)L->funcs.items[i])->body);
        if (!X.changed)
            break;
    }
    if (!X.changed) { /* settled (always, so far): otherwise nothing is trusted */
        collect(&X, L->kernel->body);
        for (int i = 0; i < L->funcs.len; i++)
            collect(&X, ((Func *)L->funcs.items[i])->body);
    }
    pv_free(&X.inexact);
    pv_free(&X.places);
    pv_free(&X.returns);
}

bool halfexact_product(const Lowered *L, const Node *n)
{
    return pv_contains(&L->tc_products, n);
}
