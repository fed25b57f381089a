/* tgmem.c: what a kernel's `threadgroup T* p [[threadgroup(n)]]` parameters are proven to need (reflection
   "min_elements" and "min_per_thread", docs/interfaces.md), and the default length of their shared arrays.
   Only accesses every thread surely makes count: those in the statements at the top of the kernel body (expression
   statements and declarations, up to the first other statement), outside the conditional parts of an expression
   (`?:` arms, the right of && and ||), that index the parameter itself with a constant or with the thread's position
   in its threadgroup. The runtime refuses a launch that gives less, so the bound must never be more than Metal
   needs: anything less certain is left out. */
#include <string.h>

#include "internal.h"

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

int tgmem_default_length(Func *k, Var *v)
{
    return (int)tg_any_constant(k->body, v, 1);
}

TgNeed tgmem_need(Func *k, Var *v)
{
    TgNeed need = {.v = v, .elements = 1};
    if (k->body && k->body->kind == N_BLOCK && !tg_modifies(k->body, v))
        tg_scan_block(k->body, &need, k->body);
    return need;
}
