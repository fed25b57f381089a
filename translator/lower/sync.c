/* sync.c: what barriers and SIMD-group functions need from the control flow around them.
 *
 * A SIMD-group function emulated across device subgroups (or a virtual subgroup operation) exchanges values
 * through shared memory between workgroup barriers, so every thread of the threadgroup must reach it, while
 * Metal calls it wherever the SIMD-group is (`if (simd_group == 0) { v = simd_sum(v); }`, after an early
 * return). For such kernels the printer makes control flow uniform around each synchronizing call: the threads
 * that would not run a statement still reach the call, with `mtl_p` false (emit_glsl.c). This file decides when
 * that is needed, flags the statements that contain synchronizing calls, returns, breaks and continues, and
 * finds which locals hold the same value in every thread (so that loops with such bounds stay plain loops).
 */
#include <string.h>

#include "internal.h"

typedef struct Sync {
    Program *prog;
    Lowered *L;
    bool changed;
} Sync;

/* Attributes whose value is the same in every thread of a threadgroup. */
static bool uniform_attribute(int a)
{
    switch (a) {
    case ATTR_threadgroup_position_in_grid:
    case ATTR_threads_per_grid:
    case ATTR_threads_per_threadgroup:
    case ATTR_threadgroups_per_grid:
    case ATTR_grid_origin:
    case ATTR_grid_size:
    case ATTR_dispatch_threads_per_threadgroup:
    case ATTR_threads_per_simdgroup:
    case ATTR_thread_execution_width:
    case ATTR_simdgroups_per_threadgroup:
    case ATTR_dispatch_simdgroups_per_threadgroup:
    case ATTR_quadgroups_per_threadgroup:
    case ATTR_dispatch_quadgroups_per_threadgroup:
        return true;
    default:
        return false;
    }
}

/* A helper's parameter whose value can be the same in every thread: a value, or a reference to constant memory
   (which nobody writes); a reference to other memory reads what other threads may write. */
static bool uniform_param_type(const Type *t)
{
    return t->kind != TY_REF || t->as == AS_CONSTANT;
}

bool sync_uniform(const Node *n)
{
    if (!n)
        return true;
    switch (n->kind) {
    case N_INT:
    case N_FLOAT:
    case N_BOOL:
    case N_ENUMVAL:
    case N_SIZEOF:
        return true;
    case N_VAR: {
        Var *v = n->var;
        if (v->kind == VAR_GLOBAL)
            return true;
        if (v->kind == VAR_PARAM) /* a helper's parameter: uniform where every call passes a uniform value */
            return v->role == PR_CONSTREF || (v->role == PR_BUILTIN && uniform_attribute(v->builtin)) ||
                   (v->uniform && uniform_param_type(v->ty));
        return v->uniform && !v->is_threadgroup && v->ty->kind != TY_REF; /* a reference reads memory (ptr.c) */
    }
    case N_INDEX:
        if (n->a->kind == N_VAR && n->a->var->kind == VAR_PARAM && n->a->var->role != PR_CONSTREF)
            return false; /* buffer contents */
        if (n->a->ty && n->a->ty->kind == TY_PTR)
            return false; /* memory through a pointer */
        return sync_uniform(n->a) && sync_uniform(n->b);
    case N_ASSIGN:
    case N_POSTFIX:
    case N_CALL:
    case N_SIMD:
    case N_DEREF:
    case N_ADDR:
        return false;
    case N_UNARY:
        if (!strcmp(n->op, "++") || !strcmp(n->op, "--"))
            return false;
        return sync_uniform(n->a);
    default:
        if (!sync_uniform(n->a) || !sync_uniform(n->b) || !sync_uniform(n->c))
            return false;
        for (int i = 0; i < n->n_list; i++)
            if (!sync_uniform(n->list[i]))
                return false;
        return true;
    }
}

/* ---- flags ---- */

static unsigned flags_of(Sync *Y, Node *n, bool conditional);

static bool func_syncs(Sync *Y, Func *f);

static unsigned flags_list(Sync *Y, Node **list, int n, bool conditional)
{
    unsigned f = 0;
    for (int i = 0; i < n; i++)
        f |= flags_of(Y, list[i], conditional);
    return f;
}

/* Computes n->flags. CONDITIONAL: N is evaluated only in some threads (an operand of ?:, && or ||). */
static unsigned flags_of(Sync *Y, Node *n, bool conditional)
{
    if (!n)
        return 0;
    unsigned f = 0;
    switch (n->kind) {
    case N_SIMD:
        f = flags_list(Y, n->list, n->n_list, conditional);
        if (!simd_exchanges(n->builtin)) /* lane-local (a SIMD-group matrix's element index) */
            break;
        f |= NF_SYNC;
        if (conditional)
            diag_error(Y->prog->diag, n->loc, "%s in an operand of ?:, && or || is not supported with %d-wide %ssubgroups "
                       "(the SIMD-group is emulated): call it in a statement of its own", n->name, Y->prog->subgroup_size,
                       Y->prog->virtual_subgroups ? "virtual " : "");
        break;
    case N_CALL:
        f = flags_list(Y, n->list, n->n_list, conditional);
        if (n->fn && func_syncs(Y, n->fn)) {
            /* every thread calls it, with its predicate (emit_glsl.c) */
            f |= NF_SYNC;
            if (conditional)
                diag_error(Y->prog->diag, n->loc, "'%s' (which calls SIMD-group functions or barriers) in an operand of ?:, && or || is not "
                           "supported with %d-wide %ssubgroups (the SIMD-group is emulated): call it in a statement of its own",
                           n->fn->name, Y->prog->subgroup_size, Y->prog->virtual_subgroups ? "virtual " : "");
        }
        break;
    case N_TERNARY:
        f = flags_of(Y, n->a, conditional) | flags_of(Y, n->b, true) | flags_of(Y, n->c, true);
        break;
    case N_BINARY:
        if (!strcmp(n->op, "&&") || !strcmp(n->op, "||"))
            f = flags_of(Y, n->a, conditional) | flags_of(Y, n->b, true);
        else
            f = flags_of(Y, n->a, conditional) | flags_of(Y, n->b, conditional);
        break;
    case N_RETURN:
        f = NF_RETURN | flags_of(Y, n->a, conditional);
        break;
    case N_BREAK:
        f = NF_BREAK;
        break;
    case N_CONTINUE:
        f = NF_CONTINUE;
        break;
    case N_VARDEF:
        f = flags_of(Y, n->var->init, conditional);
        break;
    case N_FOR:
        f = flags_of(Y, n->a, conditional) | flags_of(Y, n->b, conditional) | flags_of(Y, n->c, conditional);
        if ((n->a && (n->a->flags & NF_SYNC)) || (n->c && (n->c->flags & NF_SYNC)))
            diag_error(Y->prog->diag, n->loc, "a SIMD-group function in a for loop's initialization or increment is not supported "
                       "with emulated SIMD-groups: move it into the loop's body");
        f |= flags_of(Y, n->d, conditional) & ~(unsigned)(NF_BREAK | NF_CONTINUE);
        break;
    case N_WHILE:
        f = flags_of(Y, n->a, conditional) | (flags_of(Y, n->d, conditional) & ~(unsigned)(NF_BREAK | NF_CONTINUE));
        break;
    case N_DO:
        f = flags_of(Y, n->a, conditional) | (flags_of(Y, n->d, conditional) & ~(unsigned)(NF_BREAK | NF_CONTINUE));
        if (f & NF_SYNC)
            diag_error(Y->prog->diag, n->loc, "a SIMD-group function or barrier in a do-while loop is not supported with emulated "
                       "SIMD-groups yet: write it as a while or for loop");
        break;
    case N_SWITCH:
        /* around synchronizing calls: a chain of ifs where its value is the same in every thread (emit_glsl.c) */
        f = flags_of(Y, n->a, conditional) | (flags_of(Y, n->d, conditional) & ~(unsigned)NF_BREAK);
        break;
    default:
        f = flags_of(Y, n->a, conditional) | flags_of(Y, n->b, conditional) | flags_of(Y, n->c, conditional) |
            flags_of(Y, n->d, conditional) | flags_list(Y, n->list, n->n_list, conditional);
        break;
    }
    n->flags = (unsigned char)f;
    return f;
}

static bool node_syncs(const Node *n)
{
    if (!n)
        return false;
    if ((n->kind == N_SIMD && simd_exchanges(n->builtin)) || (n->kind == N_CALL && n->fn && n->fn->body && node_syncs(n->fn->body)))
        return true;
    if (node_syncs(n->a) || node_syncs(n->b) || node_syncs(n->c) || node_syncs(n->d))
        return true;
    if (n->kind == N_VARDEF && node_syncs(n->var->init))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (node_syncs(n->list[i]))
            return true;
    return false;
}

static bool func_syncs(Sync *Y, Func *f)
{
    (void)Y;
    return node_syncs(f->body);
}

/* ---- uniform locals ---- */

static void set_varying(Sync *Y, Var *v)
{
    if (v && (v->kind == VAR_LOCAL || v->kind == VAR_PARAM) && v->uniform) {
        v->uniform = false;
        Y->changed = true;
    }
}

static Var *root_local(Node *n)
{
    while (n && (n->kind == N_INDEX || n->kind == N_MEMBER || n->kind == N_SWIZZLE || n->kind == N_PAREN))
        n = n->a;
    return n && n->kind == N_VAR && (n->var->kind == VAR_LOCAL || n->var->kind == VAR_PARAM) ? n->var : NULL;
}

/* Whether every subscript on the path to the root of lvalue N is uniform. */
static bool uniform_path(Node *n)
{
    for (; n && n->kind != N_VAR; n = n->a)
        if (n->kind == N_INDEX && !sync_uniform(n->b))
            return false;
    return true;
}

static void assignments(Sync *Y, Node *n, bool u)
{
    if (!n)
        return;
    switch (n->kind) {
    case N_ASSIGN: {
        Var *v = root_local(n->a);
        if (v && (!u || !sync_uniform(n->b) || !uniform_path(n->a) || (strcmp(n->op, "=") && !v->uniform)))
            set_varying(Y, v);
        break;
    }
    case N_UNARY:
    case N_POSTFIX:
        if (!strcmp(n->op, "++") || !strcmp(n->op, "--")) {
            Var *v = root_local(n->a);
            if (v && (!u || !uniform_path(n->a)))
                set_varying(Y, v);
        }
        break;
    case N_CALL:
        for (int i = 0; i < n->n_list; i++) {
            if (n->fn && i < n->fn->n_params && n->fn->params[i]->ty->kind == TY_REF && n->fn->params[i]->ty->as != AS_CONSTANT)
                set_varying(Y, root_local(n->list[i])); /* the helper may write it (not through a constant reference) */
            if (n->fn && i < n->fn->n_params && !sync_uniform(n->list[i]))
                set_varying(Y, n->fn->params[i]); /* a helper's parameter given a value that differs between threads */
        }
        break;
    case N_VARDEF:
        if (!u || (n->var->init && !sync_uniform(n->var->init)))
            set_varying(Y, n->var);
        assignments(Y, n->var->init, u);
        return;
    default:
        break;
    }
    assignments(Y, n->a, u);
    assignments(Y, n->b, u);
    assignments(Y, n->c, u);
    for (int i = 0; i < n->n_list; i++)
        assignments(Y, n->list[i], u);
}

/* Whether statement N assigns one of the variables DECL declares. */
static bool assigns_any(Sync *Y, Node *n, Node *decl)
{
    if (!n)
        return false;
    Var *target = NULL;
    if (n->kind == N_ASSIGN || ((n->kind == N_UNARY || n->kind == N_POSTFIX) && (!strcmp(n->op, "++") || !strcmp(n->op, "--"))))
        target = root_local(n->a);
    if (n->kind == N_CALL)
        for (int i = 0; i < n->n_list; i++)
            if (n->fn && i < n->fn->n_params && n->fn->params[i]->ty->kind == TY_REF && root_local(n->list[i]))
                for (int j = 0; j < decl->n_list; j++)
                    if (root_local(n->list[i]) == decl->list[j]->var)
                        return true;
    for (int j = 0; target && j < decl->n_list; j++)
        if (target == decl->list[j]->var)
            return true;
    if (assigns_any(Y, n->a, decl) || assigns_any(Y, n->b, decl) || assigns_any(Y, n->c, decl) || assigns_any(Y, n->d, decl))
        return true;
    if (n->kind == N_VARDEF && assigns_any(Y, n->var->init, decl))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (assigns_any(Y, n->list[i], decl))
            return true;
    return false;
}

static void walk_uniform(Sync *Y, Node *n, bool u)
{
    if (!n)
        return;
    const unsigned jumps = NF_RETURN | NF_BREAK | NF_CONTINUE;
    switch (n->kind) {
    case N_BLOCK:
        for (int i = 0; i < n->n_list; i++) {
            walk_uniform(Y, n->list[i], u);
            if (n->list[i]->flags & jumps)
                u = false; /* some threads may have left */
        }
        break;
    case N_DECL:
        for (int i = 0; i < n->n_list; i++)
            assignments(Y, n->list[i], u);
        break;
    case N_IF:
        assignments(Y, n->a, u);
        walk_uniform(Y, n->b, u && sync_uniform(n->a));
        walk_uniform(Y, n->c, u && sync_uniform(n->a));
        break;
    case N_FOR:
        if (n->a && n->a->kind == N_DECL && !(n->a->flags & NF_SYNC) && !(n->c && (n->c->flags & NF_SYNC)) &&
            !assigns_any(Y, n->d, n->a)) {
            /* `for (T i = a; cond; i += b)` whose body leaves i alone: a plain loop runs its header in every
               thread, so i is uniform when a, b and cond are, whatever the context */
            assignments(Y, n->a, true);
            assignments(Y, n->c, true);
            bool plain = sync_uniform(n->b) && !(n->b && (n->b->flags & NF_SYNC));
            if (!plain)
                for (int i = 0; i < n->a->n_list; i++)
                    set_varying(Y, n->a->list[i]->var);
            bool cu = u && plain && !(n->d->flags & jumps);
            assignments(Y, n->b, cu);
            walk_uniform(Y, n->d, cu);
            break;
        }
        /* fall through */
    case N_WHILE:
    case N_DO: {
        Node *cond = n->kind == N_FOR ? n->b : n->a;
        if (n->kind == N_FOR)
            walk_uniform(Y, n->a, u);
        bool cu = u && sync_uniform(cond) && !(n->d->flags & jumps);
        assignments(Y, cond, cu);
        walk_uniform(Y, n->d, cu);
        if (n->kind == N_FOR)
            assignments(Y, n->c, cu);
        break;
    }
    case N_SWITCH:
        assignments(Y, n->a, u);
        walk_uniform(Y, n->d, false);
        break;
    case N_CASE:
    case N_DEFAULT:
        walk_uniform(Y, n->d, u);
        break;
    default:
        assignments(Y, n->a, u);
        break;
    }
}

static void collect_locals(Node *n, bool value)
{
    if (!n)
        return;
    if (n->kind == N_VARDEF)
        n->var->uniform = value && !n->var->is_threadgroup;
    collect_locals(n->a, value);
    collect_locals(n->b, value);
    collect_locals(n->c, value);
    collect_locals(n->d, value);
    for (int i = 0; i < n->n_list; i++)
        collect_locals(n->list[i], value);
}

/* Flags and uniform locals of the kernel's body and of the helpers that synchronize (uniform_sync); a helper's
   parameter is uniform where every call passes a value that is the same in every thread (and the helper does not
   assign it), so that `switch (args.nr0)` in a helper given the kernel's arguments stays a plain branch. */
static void analyze_bodies(Sync *Y, Lowered *L)
{
    for (int i = 0; i < L->funcs.len; i++) {
        Func *f = L->funcs.items[i];
        if (!f->uniform_sync)
            continue;
        flags_of(Y, f->body, false);
        collect_locals(f->body, true);
        for (int j = 0; j < f->n_params; j++)
            f->params[j]->uniform = uniform_param_type(f->params[j]->ty);
    }
    flags_of(Y, L->kernel->body, false);
    collect_locals(L->kernel->body, true);
    for (int guard = 0; guard < 64; guard++) {
        Y->changed = false;
        for (int i = 0; i < L->funcs.len; i++) {
            Func *f = L->funcs.items[i];
            if (f->uniform_sync)
                walk_uniform(Y, f->body, false);
        }
        walk_uniform(Y, L->kernel->body, true);
        if (!Y->changed)
            break;
    }
}

bool sync_analyze(Program *prog, Lowered *L)
{
    Sync Y = {prog, L, false};
    int before = prog->diag->n_errors;
    int W = prog->subgroup_size;
    L->simd_mode = W == 32 ? SIMD_NATIVE : W > 32 ? SIMD_CLUSTERED : SIMD_EMULATED;
    bool emulated = L->simd_mode == SIMD_EMULATED || prog->virtual_subgroups;
    L->uniform_flow = (L->uses_simd && emulated) || (L->uses_quad && prog->virtual_subgroups);
    if (!L->uniform_flow)
        return true;
    /* helpers that reach a synchronizing call are rearranged like the kernel's body, entered with a predicate */
    for (int i = 0; i < L->funcs.len; i++) {
        Func *f = L->funcs.items[i];
        if (!f->body || !node_syncs(f->body))
            continue;
        f->uniform_sync = true;
    }
    analyze_bodies(&Y, L);
    return prog->diag->n_errors == before;
}
