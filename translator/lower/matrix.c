/* matrix.c: Metal's matrices as GLSL's.
 *
 * floatCxR / halfCxR / matrix<T, C, R> are C columns of R rows, column-major, in Metal and in GLSL (matCxR,
 * f16matCxR): the same constructors, `m[i]` is column i in both, and `m * v`, `v * m`, `a * b` are the same
 * products (v * m is the row vector v times m: component i is dot(v, m[i])). The prelude declares the
 * constructors and operators as functions for clang; each call becomes the GLSL operator it stands for.
 * The buffer layout needs nothing: std430 lays a matrix out as an array of its columns, as Metal does.
 */
#include <string.h>

#include "internal.h"

static bool is_mat(const Type *t)
{
    return t && t->kind == TY_MAT;
}

/* matrix<int, 2, 2>, matrix<float, 5, 4> (parse.c names them): not Metal's, not GLSL's. */
static bool is_other_matrix(const Type *t)
{
    return t && t->kind == TY_UNSUPPORTED && t->name && !strncmp(t->name, "matrix<", 7);
}

bool matrix_involved(const Node *n)
{
    if (is_mat(n->ty) || is_other_matrix(n->ty))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (is_mat(n->list[i]->ty) || is_other_matrix(n->list[i]->ty))
            return true;
    return false;
}

/* floatCxR(...): nothing (zeros), a copy, a conversion from another element type, a diagonal from one scalar,
   C columns of R components, or C * R scalars in column-major order. */
static Node *matrix_ctor(Program *prog, Node *n)
{
    Type *t = n->ty;
    if (n->n_list == 1 && is_mat(n->list[0]->ty) && ty_equal(n->list[0]->ty, t))
        return n->list[0];
    n->kind = N_VECCTOR;
    if (n->n_list <= 1)
        return n; /* floatCxR(), floatCxR(s), floatCxR(halfCxR) */
    int columns = 0, scalars = 0;
    for (int i = 0; i < n->n_list; i++) {
        Type *a = n->list[i]->ty;
        columns += a && a->kind == TY_VEC && a->n == t->elem->n;
        scalars += a && ty_is_scalar(a);
    }
    if (columns != t->n * (columns > 0) || scalars != t->n * t->elem->n * (scalars > 0) || columns + scalars != n->n_list)
        diag_error(prog->diag, n->loc, "%s constructor needs %d columns of %s or %d scalars", ty_metal_name(prog->arena, t), t->n,
                   ty_metal_name(prog->arena, t->elem), t->n * t->elem->n);
    return n;
}

Node *matrix_call(Program *prog, Node *n, const char *name, bool ctor)
{
    for (int i = -1; i < n->n_list; i++) {
        Type *t = i < 0 ? n->ty : n->list[i]->ty;
        if (is_other_matrix(t)) { /* reported here, once; the node stands for nothing else */
            diag_error(prog->diag, n->loc, "%s is not supported (Metal's matrices are float or half, 2 to 4 columns of 2 to 4 rows)", t->name);
            n->kind = N_INT;
            n->ty = ty_scalar(TY_INT);
            n->n_list = 0;
            return n;
        }
    }
    if (ctor)
        return matrix_ctor(prog, n);
    const char *op = name + strlen("operator");
    if (!strcmp(op, "[]") && n->n_list == 2) {
        n->kind = N_INDEX; /* column i; GLSL takes the index as it is written (the prelude's int parameter aside) */
        n->a = n->list[0];
        n->b = n->list[1];
        if (n->b->kind == N_CAST && n->b->implicit && n->b->a->ty && ty_is_integer(n->b->a->ty))
            n->b = n->b->a;
        n->n_list = 0;
        return n;
    }
    if ((!strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*")) && n->n_list == 2) {
        n->kind = N_BINARY;
        n->op = op;
    } else if (!strcmp(op, "-") && n->n_list == 1) {
        n->kind = N_UNARY;
        n->op = op;
        n->a = n->list[0];
        n->n_list = 0;
        return n;
    } else if ((!strcmp(op, "+=") || !strcmp(op, "-=") || !strcmp(op, "*=")) && n->n_list == 2) {
        n->kind = N_ASSIGN;
        n->op = op;
    } else {
        diag_error(prog->diag, n->loc, "operator%s on matrices is not supported yet", op);
        return n;
    }
    n->a = n->list[0];
    n->b = n->list[1];
    n->n_list = 0;
    if (n->kind == N_ASSIGN)
        n->ty = n->a->ty;
    return n;
}
