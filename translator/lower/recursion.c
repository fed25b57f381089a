/* recursion.c: recursion whose depth the guards around its calls bound, made a chain of copies.
 *
 * GLSL has no recursion. Some library helpers call each other only under conditions that stop the cycle after one
 * turn: c10's special_math.h
 *     T gamma(const T x)          { ... if (x >= 12.0) return exp(log_gamma(x)); ... }
 *     float log_gamma(const T x)  { const auto abs_x = abs(static_cast<float>(x)); ...
 *                                   if (abs_x < 12.0) rc = log(abs(gamma(abs_x))); ... }
 * gamma calls log_gamma only with x >= 12, and log_gamma calls gamma only with abs_x < 12, where gamma's branch
 * back is never taken. When a call closes a cycle (lower.c's visit_func finds its callee on the call path), the
 * call's guard is read: an enclosing `if (v < C)` (<, <=, >, >=; the then branch) on a variable v that the caller
 * never changes and passes unchanged as argument k. The callee is copied with that fact about its parameter k, and
 * each `if` of the copy that tests the parameter (never changed in it either) against a constant is decided by the
 * fact where it can be: the branch that cannot be taken is dropped. The call goes to the copy when the copy, through
 * everything it calls, reaches no function on the call path; else the recursion stays an error. A comparison that is
 * true excludes NaN, so only then branches give facts, and a decided test is one that holds (or fails) for every
 * value of the fact's range, NaN aside. Only float and half variables compared with constants exact in float count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A range of values from a comparison that held: lo < v < hi (or <= where closed), never NaN. */
typedef struct Range {
    double lo, hi;
    bool lo_closed, hi_closed;
} Range;

static Node *strip(Node *n)
{
    while (n && (n->kind == N_PAREN || (n->kind == N_CAST && n->implicit && n->a && n->a->ty && n->ty &&
                                        ty_is_scalar(n->ty) && ty_is_scalar(n->a->ty) &&
                                        (ty_scalar_kind(n->a->ty) == TY_HALF || ty_scalar_kind(n->a->ty) == TY_FLOAT) &&
                                        (ty_scalar_kind(n->ty) == TY_FLOAT || ty_scalar_kind(n->ty) == TY_DOUBLE))))
        n = n->a; /* half -> float -> double widen exactly: the comparison is the same */
    return n;
}

static bool real_type(const Type *t)
{
    return t && ty_is_scalar(t) && (ty_scalar_kind(t) == TY_FLOAT || ty_scalar_kind(t) == TY_HALF);
}

/* A constant exact in float (so its value is the same whichever precision the comparison uses). */
static bool constant_of(Node *n, double *v)
{
    n = strip(n);
    if (n && n->kind == N_CAST && n->implicit && n->a && (n->a->kind == N_FLOAT || n->a->kind == N_INT))
        n = n->a;
    if (!n || (n->kind != N_FLOAT && n->kind != N_INT))
        return false;
    *v = n->kind == N_FLOAT ? n->fval : (double)n->ival;
    return isfinite(*v) && (double)(float)*v == *v;
}

/* COND is `v OP c` or `c OP v` with v the variable VAR (a float or half): OP as if v were on the left. */
static bool comparison_of(Node *cond, Var *var, const char **op, double *c)
{
    cond = strip(cond);
    if (!cond || cond->kind != N_BINARY || !cond->op)
        return false;
    static const char *const ops[] = {"<", "<=", ">", ">="}, *const flipped[] = {">", ">=", "<", "<="};
    int k = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(cond->op, ops[i]))
            k = i;
    if (k < 0)
        return false;
    Node *a = strip(cond->a), *b = strip(cond->b);
    if (a && a->kind == N_VAR && a->var == var && constant_of(cond->b, c)) {
        *op = ops[k];
        return true;
    }
    if (b && b->kind == N_VAR && b->var == var && constant_of(cond->a, c)) {
        *op = flipped[k];
        return true;
    }
    return false;
}

static Range range_of(const char *op, double c)
{
    Range r = {-INFINITY, INFINITY, false, false};
    if (op[0] == '<')
        r.hi = c, r.hi_closed = op[1] == '=';
    else
        r.lo = c, r.lo_closed = op[1] == '=';
    return r;
}

/* Whether every value of R satisfies `v OP c` (1), none does (0), or it depends (-1). */
static int decide(Range r, const char *op, double c)
{
    bool below = op[0] == '<', closed = op[1] == '=';
    /* all of R below c (v < c or v <= c holds for all) */
    bool all_below = below ? (r.hi < c || (r.hi == c && (!r.hi_closed || closed))) : false;
    bool none_below = below ? (r.lo > c || (r.lo == c && (!closed || !r.lo_closed))) : false;
    bool all_above = !below ? (r.lo > c || (r.lo == c && (!r.lo_closed || closed))) : false;
    bool none_above = !below ? (r.hi < c || (r.hi == c && (!closed || !r.hi_closed))) : false;
    if (all_below || all_above)
        return 1;
    if (none_below || none_above)
        return 0;
    return -1;
}

/* Whether N changes V or takes its address anywhere. */
static bool changes(const Node *n, const Var *v)
{
    if (!n)
        return false;
    if ((n->kind == N_ASSIGN || n->kind == N_POSTFIX ||
         (n->kind == N_UNARY && (!strcmp(n->op, "++") || !strcmp(n->op, "--") || !strcmp(n->op, "&"))) ||
         n->kind == N_ADDR)) {
        Node *t = n->a;
        while (t && (t->kind == N_PAREN || t->kind == N_MEMBER || t->kind == N_SWIZZLE || t->kind == N_INDEX))
            t = t->a;
        if (t && t->kind == N_VAR && t->var == v)
            return true;
    }
    if (n->kind == N_VARDEF && changes(n->var->init, v))
        return true;
    if (changes(n->a, v) || changes(n->b, v) || changes(n->c, v) || changes(n->d, v))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (changes(n->list[i], v))
            return true;
    return false;
}

/* A variable that holds one value all through F: a by-value scalar parameter or local, never changed. */
static bool steady(Func *f, Var *v)
{
    return v && (v->kind == VAR_LOCAL || v->kind == VAR_PARAM) && real_type(v->ty) && !v->is_out_param &&
           v->role == PR_NONE && !v->is_threadgroup && !v->captured && !changes(f->body, v);
}

/* The guard of CALL in N: the then branch of an `if (v OP c)` around it, v steady and passed as argument K. */
static bool guard_of(Func *f, Node *n, Node *call, int k, Range *fact, bool *found)
{
    if (!n)
        return false;
    if (n == call) {
        *found = true;
        return false;
    }
    if (n->kind == N_IF) {
        bool in_then = false;
        if (guard_of(f, n->b, call, k, fact, &in_then))
            return true;
        if (in_then) {
            *found = true;
            Node *arg = strip(call->list[k]);
            const char *op;
            double c;
            if (arg->kind == N_VAR && steady(f, arg->var) && comparison_of(n->a, arg->var, &op, &c)) {
                *fact = range_of(op, c);
                return true;
            }
            return false; /* (an outer if may still give one) */
        }
        bool elsewhere = false;
        if (guard_of(f, n->a, call, k, fact, &elsewhere) || guard_of(f, n->c, call, k, fact, &elsewhere))
            return true;
        *found |= elsewhere;
        return false;
    }
    Node *kids[4] = {n->a, n->b, n->c, n->d};
    for (int i = 0; i < 4 && !*found; i++)
        if (guard_of(f, kids[i], call, k, fact, found))
            return true;
    for (int i = 0; i < n->n_list && !*found; i++)
        if (guard_of(f, n->list[i], call, k, fact, found))
            return true;
    if (!*found && n->kind == N_VARDEF && guard_of(f, n->var->init, call, k, fact, found))
        return true;
    return false;
}

/* ---- the copy ---- */

typedef struct Copy {
    Program *prog;
    Func *from, *to;
    Var **old_vars, **new_vars;
    int n, cap;
} Copy;

static Var *copy_var(Copy *C, Var *v)
{
    for (int i = 0; i < C->n; i++)
        if (C->old_vars[i] == v)
            return C->new_vars[i];
    if (!v || v->owner != C->from)
        return v; /* globals, and variables of enclosing functions a lambda captured */
    if (C->n == C->cap) {
        C->cap = C->cap ? 2 * C->cap : 16;
        C->old_vars = realloc(C->old_vars, sizeof(Var *) * (size_t)C->cap);
        C->new_vars = realloc(C->new_vars, sizeof(Var *) * (size_t)C->cap);
        if (!C->old_vars || !C->new_vars)
            abort();
    }
    Var *w = arena_alloc(C->prog->arena, sizeof *w);
    *w = *v;
    w->owner = C->to;
    C->old_vars[C->n] = v;
    C->new_vars[C->n++] = w;
    return w;
}

static Node *copy_node(Copy *C, const Node *n)
{
    if (!n)
        return NULL;
    Node *c = arena_alloc(C->prog->arena, sizeof *c);
    *c = *n;
    c->a = copy_node(C, n->a);
    c->b = copy_node(C, n->b);
    c->c = copy_node(C, n->c);
    c->d = copy_node(C, n->d);
    if (n->n_list) {
        c->list = arena_alloc(C->prog->arena, sizeof(Node *) * (size_t)n->n_list);
        for (int i = 0; i < n->n_list; i++)
            c->list[i] = copy_node(C, n->list[i]);
    }
    if (n->var) {
        bool fresh = n->kind == N_VARDEF && n->var->owner == C->from;
        c->var = copy_var(C, n->var);
        if (fresh)
            c->var->init = copy_node(C, n->var->init);
    }
    return c;
}

/* The tests of P in N that FACT decides, replaced by the branch taken; how many. */
static int fold(Node *n, Var *p, Range fact)
{
    if (!n)
        return 0;
    int folded = 0;
    const char *op;
    double c;
    if (n->kind == N_IF && comparison_of(n->a, p, &op, &c)) {
        int d = decide(fact, op, c);
        if (d >= 0) {
            Node *taken = d ? n->b : n->c;
            if (taken) {
                *n = *taken;
            } else {
                SrcLoc loc = n->loc;
                *n = (Node){.kind = N_EMPTY, .loc = loc};
            }
            return 1 + fold(n, p, fact);
        }
    }
    folded += fold(n->a, p, fact) + fold(n->b, p, fact) + fold(n->c, p, fact) + fold(n->d, p, fact);
    for (int i = 0; i < n->n_list; i++)
        folded += fold(n->list[i], p, fact);
    return folded;
}

/* Whether N calls, directly or through what it calls, a function on the call path (visiting). */
static bool reaches_path(const Node *n, Func **seen, int *n_seen, int max_seen)
{
    if (!n)
        return false;
    if (n->kind == N_CALL && n->fn) {
        Func *g = n->fn;
        if (g->visiting)
            return true;
        bool known = false;
        for (int i = 0; i < *n_seen; i++)
            known |= seen[i] == g;
        if (!known) {
            if (*n_seen == max_seen)
                return true; /* too many to follow: as if it did */
            seen[(*n_seen)++] = g;
            if (reaches_path(g->body, seen, n_seen, max_seen))
                return true;
        }
    }
    if (n->kind == N_VARDEF && reaches_path(n->var->init, seen, n_seen, max_seen))
        return true;
    if (reaches_path(n->a, seen, n_seen, max_seen) || reaches_path(n->b, seen, n_seen, max_seen) ||
        reaches_path(n->c, seen, n_seen, max_seen) || reaches_path(n->d, seen, n_seen, max_seen))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (reaches_path(n->list[i], seen, n_seen, max_seen))
            return true;
    return false;
}

Func *lower_bounded_callee(Program *prog, Func *from, Node *call)
{
    Func *f = call->fn;
    if (!from || !f || !f->body || !from->body || f->is_kernel || f->n_captures || f->self || f->returns_param)
        return NULL;
    for (int k = 0; k < call->n_list && k < f->n_params; k++) {
        Range fact;
        bool found = false;
        Var *p = f->params[k];
        if (!ty_equal(p->ty, call->list[k]->ty ? call->list[k]->ty : p->ty) || !steady(f, p) ||
            !guard_of(from, from->body, call, k, &fact, &found))
            continue;
        Func *g = arena_alloc(prog->arena, sizeof *g);
        *g = *f;
        g->visiting = false;
        g->glsl_name = arena_printf(prog->arena, "%s_%s_%s%g", f->glsl_name, p->name,
                                    fact.hi < INFINITY ? (fact.hi_closed ? "le" : "lt") : (fact.lo_closed ? "ge" : "gt"),
                                    fact.hi < INFINITY ? fact.hi : fact.lo);
        for (char *s = (char *)g->glsl_name; *s; s++)
            if (*s == '.' || *s == '-' || *s == '+')
                *s = *s == '-' ? 'm' : '_';
        Copy C = {.prog = prog, .from = f, .to = g};
        g->params = arena_alloc(prog->arena, sizeof(Var *) * (size_t)(f->n_params ? f->n_params : 1));
        for (int i = 0; i < f->n_params; i++)
            g->params[i] = copy_var(&C, f->params[i]);
        g->body = copy_node(&C, f->body);
        free(C.old_vars);
        free(C.new_vars);
        Func *seen[256];
        int n_seen = 0;
        if (fold(g->body, g->params[k], fact) && !reaches_path(g->body, seen, &n_seen, 256))
            return g;
    }
    return NULL;
}

bool lower_reaches_call_path(Func *g)
{
    Func *seen[256];
    int n_seen = 1;
    seen[0] = g;
    return g->visiting || reaches_path(g->body, seen, &n_seen, 256);
}
