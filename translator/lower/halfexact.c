/* halfexact.c: which SIMD-group matrix products the tensor cores may take (--tensor-cores; docs/translator.md,
 * "Tensor cores").
 *
 * The tensor cores multiply half operands (into a float accumulator). A product of two half matrices goes there as
 * it is; a product of float matrices only where every value its two operands can hold is exactly a half value, so
 * that converting them to half changes nothing. MLX's steel GEMM is the case: its tiles are float fragments
 * (`MMATile<float, ...>`) filled with `static_cast<float>` of half threadgroup memory, and each product builds its
 * matrices from them through thread_elements().
 *
 * The proof is a flow analysis over the kernel and every helper it reaches, insensitive to order and context. The
 * places of thread memory are its entities: a local or helper parameter (arrays and vectors as a whole), a struct
 * member (every object of that struct at once), and a helper's return value. Each starts out holding half values
 * only; an entity is marked inexact when something that may not be a half value is stored into it (an assignment,
 * an initializer, an argument passed in or copied back out of an `inout` parameter, a return), when it is updated
 * (`+=`, `++`), or when its address is taken (what a pointer writes is not followed). Repeated until nothing
 * changes. A value is exactly a half value when its type is half, bool, char or uchar, when it is a literal that
 * half represents exactly, a conversion to float of such a value, a vector of them, `?:` or a negation of them,
 * or a read of an entity still unmarked. Buffers, threadgroup memory, program-scope constants and anything read
 * through a pointer are never trusted (their writes are not all in this kernel, or not followed), nor is any
 * arithmetic or function result.
 */
#include <math.h>
#include <string.h>

#include "../internal.h"

typedef struct Exact {
    Lowered *L;
    PtrVec inexact; /* Var*, Field* and Func* (its return values) that may hold values that are not half values */
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

/* The entity of thread memory that place N belongs to (*TY: the entity's type), or NULL: not a place, or memory that
   is never trusted (buffers, threadgroup memory, constants, anything through a pointer). */
static void *entity(Node *n, Type **ty)
{
    void *ent = NULL;
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
            if (!f)
                return NULL;
            if (!ent) {
                ent = f;
                *ty = f->ty;
            }
            n = n->a;
            continue;
        }
        case N_VAR: {
            Var *v = n->var;
            if (v->kind == VAR_GLOBAL || v->is_threadgroup || v->role != PR_NONE || v->ty->kind == TY_PTR ||
                (v->ty->kind == TY_REF && v->ty->as != AS_THREAD))
                return NULL;
            if (!ent) {
                ent = v;
                *ty = v->ty;
            }
            return ent;
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

/* Every member of struct type T (and of the structs inside it) marked. */
static void mark_members(Exact *X, Type *t, int depth)
{
    t = value_type(t);
    if (!t || t->kind != TY_STRUCT || !t->sdef || depth > 64)
        return;
    for (int i = 0; i < t->sdef->n_fields; i++) {
        mark(X, &t->sdef->fields[i]);
        mark_members(X, t->sdef->fields[i].ty, depth + 1);
    }
}

static void mark_entity(Exact *X, void *ent, Type *ty)
{
    mark(X, ent);
    mark_members(X, ty, 0);
}

static void mark_place(Exact *X, Node *n)
{
    Type *ty = NULL;
    void *ent = entity(n, &ty);
    if (ent)
        mark_entity(X, ent, ty);
}

/* The places N names marked: their address is taken, or they become a pointer (`&s.f`, `arr + i`: s.f and arr,
   with what they hold, not the object s around them). */
static void mark_places_in(Exact *X, Node *n)
{
    if (!n)
        return;
    Type *ty = NULL;
    void *ent = entity(n, &ty);
    if (ent) {
        mark_entity(X, ent, ty);
        return;
    }
    mark_places_in(X, n->a);
    mark_places_in(X, n->b);
    mark_places_in(X, n->c);
    for (int i = 0; i < n->n_list; i++)
        mark_places_in(X, n->list[i]);
}

static bool trusted(const Exact *X, const void *ent)
{
    return ent && !pv_contains(&X->inexact, ent);
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
        return n->fn && !n->fn->returns_ref && !n->fn->returns_param && n->fn->body && trusted(X, n->fn);
    case N_VAR:
    case N_INDEX:
    case N_MEMBER:
    case N_SWIZZLE:
        return trusted(X, entity(n, &ty));
    default:
        return false;
    }
}

/* A struct value stored whole: from another object (its members are the same entities), a helper's result (its
   returns are checked) or an initializer list (member by member); anything else marks every member. */
static void store_struct(Exact *X, Type *t, Node *src)
{
    t = value_type(t);
    Type *ty = NULL;
    if (!src || entity(src, &ty) || (src->kind == N_CALL && src->fn && src->fn->body))
        return;
    if (src->kind == N_INITLIST && t->sdef && src->ty && value_type(src->ty) == t && src->n_list <= t->sdef->n_fields) {
        for (int i = 0; i < src->n_list; i++) {
            Field *f = &t->sdef->fields[i];
            if (value_type(f->ty) && value_type(f->ty)->kind == TY_STRUCT)
                store_struct(X, f->ty, src->list[i]);
            else if (!exact(X, src->list[i]))
                mark(X, f);
        }
        return;
    }
    mark_members(X, t, 0);
}

/* SRC stored into entity ENT of type TY (NULL: memory that is never trusted). */
static void store(Exact *X, void *ent, Type *ty, Node *src)
{
    Type *t = value_type(ty);
    if (t && t->kind == TY_STRUCT) {
        store_struct(X, t, src);
        return;
    }
    if (!ent)
        return;
    if (src && src->kind == N_INITLIST) { /* an array's elements */
        for (int i = 0; i < src->n_list; i++)
            if (!exact(X, src->list[i]))
                mark(X, ent);
        return;
    }
    if (!exact(X, src))
        mark(X, ent);
}

static void store_place(Exact *X, Node *dst, Node *src)
{
    Type *ty = NULL;
    void *ent = entity(dst, &ty);
    store(X, ent, ent ? ty : dst->ty, src);
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
        store(X, p, p->ty, n->list[i]);
        Type *t = value_type(p->ty);
        bool out = p->is_out_param || (p->ty->kind == TY_REF && !p->ty->is_const);
        if (out && !fn->body) /* what a function without a body here writes is not seen */
            mark_places_in(X, n->list[i]);
        else if (out && t && t->kind != TY_STRUCT && pv_contains(&X->inexact, p))
            mark_place(X, n->list[i]); /* copied back out */
    }
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
            store(X, n->var, n->var->ty, n->var->init);
            if (is_pointer(n->var->ty))
                mark_places_in(X, n->var->init);
            scan(X, f, n->var->init);
        }
        return;
    case N_RETURN:
        if (n->a && value_type(f->ret) && value_type(f->ret)->kind == TY_STRUCT)
            store_struct(X, f->ret, n->a);
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

static bool is_product(const Node *n)
{
    return n->kind == N_SIMD && n->n_list >= 2 &&
           (simd_table[n->builtin].op == SOP_MAT_MULTIPLY || simd_table[n->builtin].op == SOP_MAT_MULTIPLY_ACCUMULATE);
}

static void collect(Exact *X, Node *n)
{
    if (!n)
        return;
    if (is_product(n) && exact(X, n->list[0]) && exact(X, n->list[1]) && !pv_contains(&X->L->tc_products, n))
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

void halfexact_analyze(Program *prog, Lowered *L)
{
    (void)prog;
    Exact X = {.L = L};
    for (int k = 0; k < L->kernel->n_params; k++)
        mark_entity(&X, L->kernel->params[k], L->kernel->params[k]->ty);
    for (int pass = 0; pass < 10000; pass++) {
        X.changed = false;
        scan(&X, L->kernel, L->kernel->body);
        for (int i = 0; i < L->funcs.len; i++)
            scan(&X, L->funcs.items[i], ((Func *)L->funcs.items[i])->body);
        if (!X.changed)
            break;
    }
    if (X.changed) { /* not settled (never seen): trust nothing */
        pv_free(&X.inexact);
        return;
    }
    collect(&X, L->kernel->body);
    for (int i = 0; i < L->funcs.len; i++)
        collect(&X, ((Func *)L->funcs.items[i])->body);
    pv_free(&X.inexact);
}

bool halfexact_product(const Lowered *L, const Node *n)
{
    return pv_contains(&L->tc_products, n);
}
