/* nodes.c: what the stages ask of an expression tree as a whole: a copy, and whether evaluating it changes anything. */
#include <string.h>

#include "internal.h"

Node *node_clone(Program *prog, const Node *n)
{
    if (!n)
        return NULL;
    Node *c = arena_alloc(prog->arena, sizeof *c);
    *c = *n;
    c->a = node_clone(prog, n->a);
    c->b = node_clone(prog, n->b);
    c->c = node_clone(prog, n->c);
    c->d = node_clone(prog, n->d);
    if (n->n_list) {
        c->list = arena_alloc(prog->arena, sizeof(Node *) * (size_t)n->n_list);
        for (int i = 0; i < n->n_list; i++)
            c->list[i] = node_clone(prog, n->list[i]);
    }
    return c;
}

bool node_effects(const Node *n, unsigned what)
{
    if (!n)
        return false;
    switch (n->kind) {
    case N_ASSIGN:
    case N_POSTFIX: /* ++ and -- */
    case N_ATOMIC:
    case N_SIMD:
        return true;
    case N_CALL:
        if (what & EFFECT_CALLS)
            return true;
        break;
    case N_INITLIST:
        if (what & EFFECT_INITLISTS)
            return true;
        break;
    case N_UNARY:
        if (!strcmp(n->op, "++") || !strcmp(n->op, "--"))
            return true;
        break;
    default:
        break;
    }
    if (node_effects(n->a, what) || node_effects(n->b, what) || node_effects(n->c, what) || node_effects(n->d, what))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (node_effects(n->list[i], what))
            return true;
    return false;
}
