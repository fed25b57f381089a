/* sgmat.c: Metal's SIMD-group matrices, simdgroup_matrix<T, 8, 8> (MSL 6.7), for T float, half and bfloat.
 *
 * Apple spreads an 8x8 matrix over the 32 lanes of a SIMD-group, two adjacent elements of one row in each lane,
 * and real code (MLX's steel GEMM) computes those coordinates itself and reads and writes thread_elements(), so
 * the layout is part of the contract: lane l holds row (l / 16) * 4 + (l / 2) % 4, columns c and c + 1 with
 * c = ((l / 8) % 2) * 4 + (l % 2) * 2 (docs/translator.md has the table).
 *
 * The translator holds a matrix as this lane's two elements, vec<T, 2> (vec2, f16vec2, and u16vec2 for bfloat's
 * bits), which is exactly what thread_elements() returns; copies, assignment, arrays of matrices, parameters and
 * thread_elements() are then the vector's own. Each function becomes nodes the printer already knows:
 *   simdgroup_float8x8 m;                      m = vec2(0)   (Metal leaves it undefined)
 *   simdgroup_float8x8(v)                      vec2(mtl_simdgroup_matrix_diagonal(float(v)))    lane-local
 *   make_filled_simdgroup_matrix<T, 8>(v)      vec2(v)
 *   simdgroup_load(d, p, n, o, t)              d = vec2(p[mtl_simdgroup_matrix_index(n, o, t, 0u)], p[...1u)])
 *   simdgroup_store(a, p, n, o, t)             p[mtl_simdgroup_matrix_index(n, o, t, 0u)] = a[0]; p[...1u)] = a[1];
 *   simdgroup_multiply(d, a, b)                d = simdgroup_multiply(vec2(a), vec2(b))
 *   simdgroup_multiply_accumulate(d, a, b, c)  d = simdgroup_multiply_accumulate(vec2(a), vec2(b), vec2(c))
 *   a * b                                      simdgroup_multiply(vec2(a), vec2(b))
 * so pointers (p is any pointer expression into a buffer or threadgroup memory) are ptr.c's as in any p[i]. The
 * products exchange elements between the lanes of the SIMD-group: they are SIMD-group functions (group M of
 * grammar/simd.def), printed by simd.c for the SIMD mode; they compute in float and round once into d's type.
 */
#include <string.h>

#include "internal.h"

Type *sgmat_type(Program *prog, Type *elem, int cols, int rows)
{
    TypeKind k = elem ? elem->kind : TY_VOID;
    if (cols == 8 && rows == 8 && (k == TY_FLOAT || k == TY_HALF || k == TY_BFLOAT))
        return ty_vec(prog->arena, k, 2);
    Type *u = arena_alloc(prog->arena, sizeof *u);
    u->kind = TY_UNSUPPORTED;
    u->name = arena_printf(prog->arena, "simdgroup_matrix<%s, %d, %d> (only 8x8 matrices of float, half and bfloat are)",
                           elem && ty_is_scalar(elem) ? ty_scalar_metal_name(k) : "this element type", cols, rows);
    return u;
}

Node *sgmat_half_operand(Node *a)
{
    while (a->kind == N_CAST)
        a = a->a;
    return a->ty && a->ty->kind == TY_VEC && a->ty->n == 2 && a->ty->elem->kind == TY_HALF ? a : NULL;
}

bool sgmat_function(const char *name)
{
    static const char *const names[] = {"simdgroup_load", "simdgroup_store", "simdgroup_multiply", "simdgroup_multiply_accumulate",
                                        "make_filled_simdgroup_matrix", "thread_elements"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

static Node *node(Program *prog, NodeKind k, const Node *at, Type *ty)
{
    Node *n = arena_alloc(prog->arena, sizeof *n);
    n->kind = k;
    n->loc = at->loc;
    n->ty = ty;
    return n;
}

static Node *integer(Program *prog, const Node *at, long long v, TypeKind k)
{
    Node *n = node(prog, k == TY_BOOL ? N_BOOL : N_INT, at, ty_scalar(k));
    n->ival = v;
    return n;
}

/* N as type T: an implicit conversion where the types differ (bfloat's go through float: emit_glsl.c). */
static Node *as_type(Program *prog, Node *n, Type *t)
{
    if (n->ty && ty_equal(n->ty, t))
        return n;
    Node *c = node(prog, N_CAST, n, t);
    c->a = n;
    c->implicit = true;
    return c;
}

/* A call of simd.def's row METAL, of type T. */
static Node *group_call(Program *prog, const Node *at, const char *metal, Type *t, Node **args, int n)
{
    Node *c = node(prog, N_SIMD, at, t);
    c->builtin = simd_lookup(metal);
    c->name = simd_table[c->builtin].metal;
    c->list = arena_alloc(prog->arena, sizeof(Node *) * (size_t)n);
    for (int i = 0; i < n; i++)
        c->list[c->n_list++] = args[i];
    return c;
}

/* The origin (Metal's ulong2) as a 32-bit index pair: ulong2(x, y) -> uint2(x, y), ulong2(v) -> v. */
static Node *origin32(Program *prog, Node *n)
{
    while (n->kind == N_CAST && n->implicit && n->a)
        n = n->a;
    bool wide = n->ty && n->ty->kind == TY_VEC && (n->ty->elem->kind == TY_LONG || n->ty->elem->kind == TY_ULONG);
    if (wide && (n->kind == N_VECCTOR || n->kind == N_CAST) && n->n_list <= 1) {
        Node *from = n->kind == N_CAST ? n->a : n->list[0];
        if (from && from->ty && ty_width(from->ty) == 2 && ty_is_integer(from->ty->elem))
            return from;
    }
    if (wide && n->kind == N_VECCTOR && n->n_list == 2) {
        Node *v = node(prog, N_VECCTOR, n, ty_vec(prog->arena, TY_UINT, 2));
        v->list = arena_alloc(prog->arena, 2 * sizeof(Node *));
        for (int i = 0; i < 2; i++)
            v->list[v->n_list++] = as_type(prog, n->list[i], ty_scalar(TY_UINT));
        return v;
    }
    return n;
}

/* p[mtl_simdgroup_matrix_index(elements_per_row, origin, transpose, k)]: the memory of this lane's element K of
   simdgroup_load/store(m, p, ...) (n->list[1..]); the defaults are Metal's (8 elements per row, origin 0, not
   transposed). */
static Node *element_at(Program *prog, Node *n, int k)
{
    Node *args[4] = {n->n_list > 2 ? node_clone(prog, n->list[2]) : integer(prog, n, 8, TY_UINT),
                     n->n_list > 3 ? origin32(prog, node_clone(prog, n->list[3])) : integer(prog, n, 0, TY_UINT),
                     n->n_list > 4 ? node_clone(prog, n->list[4]) : integer(prog, n, 0, TY_BOOL), integer(prog, n, k, TY_UINT)};
    Node *p = node_clone(prog, n->list[1]);
    Node *at = node(prog, N_INDEX, n, p->ty->elem);
    at->a = p;
    at->b = group_call(prog, n, "mtl_simdgroup_matrix_index", ty_scalar(TY_UINT), args, 4);
    return at;
}

/* simdgroup_load(d, p, ...): d = vec<T, 2>(p[..0], p[..1]). */
static Node *load(Program *prog, Node *n)
{
    Node *d = n->list[0];
    Node *pair = node(prog, N_VECCTOR, n, d->ty);
    pair->list = arena_alloc(prog->arena, 2 * sizeof(Node *));
    for (int k = 0; k < 2; k++)
        pair->list[pair->n_list++] = as_type(prog, element_at(prog, n, k), d->ty->elem);
    Node *set = node(prog, N_ASSIGN, n, d->ty);
    set->op = "=";
    set->a = d;
    set->b = pair;
    return set;
}

/* Whether N only reads variables (a matrix, m[i], t.m[1]): it may be printed once per element. */
static bool plain(const Node *n)
{
    if (!n)
        return true;
    if (n->kind == N_CALL || node_effects(n, 0))
        return false;
    return plain(n->a) && plain(n->b) && plain(n->c);
}

/* simdgroup_store(a, p, ...): { p[..0] = a[0]; p[..1] = a[1]; }, with a computed once first when it is more than
   a variable (`vec2 mtl_matrix = twice(x);`). */
static Node *store(Program *prog, Node *n)
{
    Node *block = node(prog, N_BLOCK, n, NULL);
    block->list = arena_alloc(prog->arena, 3 * sizeof(Node *));
    if (!plain(n->list[0])) {
        Var *v = arena_alloc(prog->arena, sizeof *v);
        v->name = v->glsl_name = "mtl_matrix";
        v->ty = n->list[0]->ty;
        v->kind = VAR_LOCAL;
        v->loc = n->loc;
        v->init = n->list[0];
        Node *decl = node(prog, N_DECL, n, NULL), *def = node(prog, N_VARDEF, n, NULL);
        def->var = v;
        decl->list = arena_alloc(prog->arena, sizeof(Node *));
        decl->list[decl->n_list++] = def;
        block->list[block->n_list++] = decl;
        n->list[0] = node(prog, N_VAR, n, v->ty);
        n->list[0]->var = v;
    }
    for (int k = 0; k < 2; k++) {
        Node *at = element_at(prog, n, k), *value = node(prog, N_INDEX, n, n->list[0]->ty->elem);
        value->a = k ? node_clone(prog, n->list[0]) : n->list[0];
        value->b = integer(prog, n, k, TY_INT);
        Node *set = node(prog, N_ASSIGN, n, at->ty), *stmt = node(prog, N_EXPRSTMT, n, NULL);
        set->op = "=";
        set->a = at;
        set->b = as_type(prog, value, at->ty);
        stmt->a = set;
        block->list[block->n_list++] = stmt;
    }
    return block;
}

/* simdgroup_multiply(d, a, b) / simdgroup_multiply_accumulate(d, a, b, c): d = f(a, b[, c]) in float. */
static Node *multiply(Program *prog, Node *n, const char *name)
{
    Type *f2 = ty_vec(prog->arena, TY_FLOAT, 2);
    Node *args[3];
    for (int i = 1; i < n->n_list; i++)
        args[i - 1] = as_type(prog, n->list[i], f2);
    Node *set = node(prog, N_ASSIGN, n, n->list[0]->ty);
    set->op = "=";
    set->a = n->list[0];
    set->b = as_type(prog, group_call(prog, n, name, f2, args, n->n_list - 1), set->ty);
    return set;
}

static bool is_matrix_value(const Node *n)
{
    return n->ty && n->ty->kind == TY_VEC && n->ty->n == 2 &&
           (n->ty->elem->kind == TY_FLOAT || n->ty->elem->kind == TY_HALF || n->ty->elem->kind == TY_BFLOAT);
}

Node *sgmat_call(Program *prog, Node *n, const char *what)
{
    for (int i = 0; i < n->n_list; i++)
        if (!n->list[i]->ty || n->list[i]->ty->kind == TY_UNSUPPORTED)
            return n; /* reported where the type is used */
    if (n->ty && n->ty->kind == TY_UNSUPPORTED)
        return n;
    bool memory = !strcmp(what, "simdgroup_load") || !strcmp(what, "simdgroup_store");
    if (memory && (n->n_list < 2 || !is_matrix_value(n->list[0]) || (n->list[1]->ty->kind != TY_PTR && n->list[1]->ty->kind != TY_ARRAY))) {
        diag_error(prog->diag, n->loc, "%s needs a simdgroup_matrix and a pointer", what);
        return n;
    }
    if (memory) {
        for (int i = 1; i < n->n_list; i++)
            if (node_effects(n->list[i], 0))
                diag_error(prog->diag, n->list[i]->loc, "%s with an argument that changes something (an assignment, ++, a call of "
                           "a SIMD-group function) is not supported: each element evaluates the arguments again", what);
        return !strcmp(what, "simdgroup_load") ? load(prog, n) : store(prog, n);
    }
    if (!strcmp(what, "simdgroup_multiply") || !strcmp(what, "simdgroup_multiply_accumulate")) {
        for (int i = 0; i < n->n_list; i++)
            if (!is_matrix_value(n->list[i]))
                diag_error(prog->diag, n->list[i]->loc, "%s needs simdgroup_matrix arguments", what);
        return multiply(prog, n, what);
    }
    if (!strcmp(what, "operator*") && n->n_list == 2) { /* a * b: simdgroup_multiply's value */
        Type *f2 = ty_vec(prog->arena, TY_FLOAT, 2);
        Node *args[2] = {as_type(prog, n->list[0], f2), as_type(prog, n->list[1], f2)};
        return as_type(prog, group_call(prog, n, "simdgroup_multiply", f2, args, 2), n->ty);
    }
    if (!strcmp(what, "thread_elements"))
        return n->list[0]; /* the matrix is its lane's two elements */
    if (!strcmp(what, "make_filled_simdgroup_matrix")) {
        n->kind = N_VECCTOR; /* vec2(v) */
        return n;
    }
    /* constructors: default (zeros: Metal leaves the elements undefined), copy, diagonal */
    if (n->n_list == 1 && ty_equal(n->list[0]->ty, n->ty))
        return n->list[0];
    if (n->n_list == 0) { /* no initializer (parse.c), as for a struct's implicit default constructor */
        n->kind = N_INITLIST;
        n->implicit = true;
        return n;
    }
    if (n->n_list != 1 || !ty_is_scalar(n->list[0]->ty)) {
        diag_error(prog->diag, n->loc, "this simdgroup_matrix constructor is not supported (a copy or one value for the diagonal is)");
        return n;
    }
    Node *v = as_type(prog, n->list[0], ty_scalar(TY_FLOAT));
    return as_type(prog, group_call(prog, n, "mtl_simdgroup_matrix_diagonal", ty_vec(prog->arena, TY_FLOAT, 2), &v, 1), n->ty);
}
