/* halfcopy.c: copies of helpers per caller, so that the proof of half values (halfexact.c) tells call sites apart
 * where that matters (--tensor-cores; docs/translator.md, "Tensor cores").
 *
 * The proof does not tell call sites apart, so one helper's product called with half values from one place and with
 * other values from another (MLX's attention: BaseMMAFrag::mma for Q * K^T and for P * V) is decided once, exact.
 * So each helper that reaches a product and is called from several functions gets a copy per further caller (its
 * callees in turn per caller, so each chain of calls has its own), the proof runs, and the copies whose products are
 * decided as their original's are dropped again (the proof then runs once more on what is left). A copy is named
 * for its caller (`mma_frags_for_first_product`). The calls are redirected for this kernel only:
 * halfexact_restore() puts them back once it is printed, so what one kernel needs never shows in another.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"

enum { MAX_COPIES = 64 };

typedef struct Copies {
    Program *prog;
    Lowered *L;
    PtrVec reaching; /* Func*: helpers that contain a product or call one that does */
    PtrVec origin;   /* pairs (copy, original) */
    int n_copies;
} Copies;

static bool has_product_or_call(Copies *C, Node *n)
{
    if (!n)
        return false;
    if (halfexact_is_product(n) || (n->kind == N_CALL && n->fn && pv_contains(&C->reaching, n->fn)))
        return true;
    if (n->kind == N_VARDEF && has_product_or_call(C, n->var->init))
        return true;
    if (has_product_or_call(C, n->a) || has_product_or_call(C, n->b) || has_product_or_call(C, n->c) || has_product_or_call(C, n->d))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (has_product_or_call(C, n->list[i]))
            return true;
    return false;
}

/* L->funcs lists callees first, so one pass in order finds every helper that reaches a product. */
static void find_reaching(Copies *C)
{
    for (int i = 0; i < C->L->funcs.len; i++)
        if (has_product_or_call(C, ((Func *)C->L->funcs.items[i])->body))
            pv_push(&C->reaching, C->L->funcs.items[i]);
}

static bool calls(const Node *n, const Func *f)
{
    if (!n)
        return false;
    if (n->kind == N_CALL && n->fn == f)
        return true;
    if (n->kind == N_VARDEF && calls(n->var->init, f))
        return true;
    if (calls(n->a, f) || calls(n->b, f) || calls(n->c, f) || calls(n->d, f))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (calls(n->list[i], f))
            return true;
    return false;
}

/* Every call of FROM in N made a call of TO, recorded for halfexact_restore(). */
static void redirect(Lowered *L, Node *n, Func *from, Func *to)
{
    if (!n)
        return;
    if (n->kind == N_CALL && n->fn == from) {
        n->fn = to;
        pv_push(&L->tc_redirects, n);
        pv_push(&L->tc_redirects, from);
    }
    if (n->kind == N_VARDEF)
        redirect(L, n->var->init, from, to);
    redirect(L, n->a, from, to);
    redirect(L, n->b, from, to);
    redirect(L, n->c, from, to);
    redirect(L, n->d, from, to);
    for (int i = 0; i < n->n_list; i++)
        redirect(L, n->list[i], from, to);
}

static void collect_locals(Node *n, PtrVec *out)
{
    if (!n)
        return;
    if (n->kind == N_VARDEF && !pv_contains(out, n->var))
        pv_push(out, n->var);
    collect_locals(n->a, out);
    collect_locals(n->b, out);
    collect_locals(n->c, out);
    collect_locals(n->d, out);
    for (int i = 0; i < n->n_list; i++)
        collect_locals(n->list[i], out);
}

static Var *mapped(const PtrVec *from, const PtrVec *to, Var *v)
{
    for (int i = 0; i < from->len; i++)
        if (from->items[i] == v)
            return to->items[i];
    return v;
}

static void remap(Program *prog, Node *n, const PtrVec *from, const PtrVec *to)
{
    if (!n)
        return;
    if (n->kind == N_VAR || n->kind == N_VARDEF) {
        Var *old = n->var;
        n->var = mapped(from, to, old);
        if (n->kind == N_VARDEF && n->var != old && old->init) {
            n->var->init = node_clone(prog, old->init);
            remap(prog, n->var->init, from, to);
        }
    }
    remap(prog, n->a, from, to);
    remap(prog, n->b, from, to);
    remap(prog, n->c, from, to);
    remap(prog, n->d, from, to);
    for (int i = 0; i < n->n_list; i++)
        remap(prog, n->list[i], from, to);
}

static Var *var_copy(Program *prog, const Var *v, Func *owner)
{
    Var *c = arena_alloc(prog->arena, sizeof *c);
    *c = *v;
    c->owner = owner;
    return c;
}

static bool glsl_name_taken(const Lowered *L, const char *name)
{
    for (int i = 0; i < L->funcs.len; i++)
        if (!strcmp(((Func *)L->funcs.items[i])->glsl_name, name))
            return true;
    return !strcmp(L->kernel->glsl_name ? L->kernel->glsl_name : "", name);
}

/* F copied for calls from CALLER: own parameters and locals (own places for the proof), named
   F_for_CALLER (the caller's Metal name, letters and digits kept). */
static Func *copy_for(Copies *C, Func *f, const Func *caller)
{
    Program *prog = C->prog;
    Func *g = arena_alloc(prog->arena, sizeof *g);
    *g = *f;
    PtrVec from = {0}, to = {0};
    g->params = arena_alloc(prog->arena, sizeof(Var *) * (size_t)(f->n_params ? f->n_params : 1));
    for (int i = 0; i < f->n_params; i++) {
        g->params[i] = var_copy(prog, f->params[i], g);
        pv_push(&from, f->params[i]);
        pv_push(&to, g->params[i]);
    }
    g->self = f->self ? mapped(&from, &to, f->self) : NULL;
    g->returns_param = f->returns_param ? mapped(&from, &to, f->returns_param) : NULL;
    g->body = node_clone(prog, f->body);
    PtrVec locals = {0};
    collect_locals(g->body, &locals);
    for (int i = 0; i < locals.len; i++) {
        pv_push(&from, locals.items[i]);
        pv_push(&to, var_copy(prog, locals.items[i], g));
    }
    remap(prog, g->body, &from, &to);
    pv_free(&locals), pv_free(&from), pv_free(&to);
    char tail[64];
    int n = 0;
    for (const char *c = caller->name; *c && n < (int)sizeof tail - 1; c++)
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || (*c == '_' && n && tail[n - 1] != '_'))
            tail[n++] = *c;
    while (n && tail[n - 1] == '_')
        n--;
    tail[n] = 0;
    size_t len = strlen(f->glsl_name);
    const char *base = arena_printf(prog->arena, "%s%sfor_%s", f->glsl_name, len && f->glsl_name[len - 1] == '_' ? "" : "_",
                                    n ? tail : "caller");
    g->glsl_name = base;
    for (int k = 2; glsl_name_taken(C->L, g->glsl_name); k++)
        g->glsl_name = arena_printf(prog->arena, "%s_%d", base, k);
    pv_push(&C->origin, g);
    pv_push(&C->origin, f);
    C->n_copies++;
    return g;
}

static void insert_after(PtrVec *v, const void *at, void *item)
{
    pv_push(v, item);
    int i = 0;
    while (i < v->len - 1 && v->items[i] != at)
        i++;
    if (i >= v->len - 1)
        return;
    memmove(v->items + i + 2, v->items + i + 1, sizeof(void *) * (size_t)(v->len - 2 - i));
    v->items[i + 1] = item;
}

/* Callers first (L->funcs backwards): a helper reaching a product, called from several functions, copied for each
   caller after the first. */
static void make_copies(Copies *C)
{
    Lowered *L = C->L;
    for (int i = L->funcs.len - 1; i >= 0; i--) {
        Func *f = L->funcs.items[i];
        if (!pv_contains(&C->reaching, f) || f->n_captures || !f->body)
            continue;
        bool first = true;
        for (int j = -1; j < L->funcs.len; j++) { /* the kernel, then the helpers (copies included) */
            Func *caller = j < 0 ? L->kernel : L->funcs.items[j];
            if (caller == f || !calls(caller->body, f))
                continue;
            if (first) {
                first = false;
                continue;
            }
            if (C->n_copies >= MAX_COPIES)
                return;
            Func *g = copy_for(C, f, caller);
            pv_push(&C->reaching, g);
            insert_after(&L->funcs, f, g);
            redirect(L, caller->body, f, g);
        }
    }
}

/* What the proof decided for F and everything it calls that reaches a product: 1 or 0 per product, in order. */
static void signature(Copies *C, Node *n, StrBuf *sb, int depth)
{
    if (!n || depth > 64)
        return;
    if (halfexact_is_product(n))
        sb_puts(sb, pv_contains(&C->L->tc_products, n) ? "1" : "0");
    if (n->kind == N_CALL && n->fn && pv_contains(&C->reaching, n->fn)) {
        sb_puts(sb, "(");
        signature(C, n->fn->body, sb, depth + 1);
        sb_puts(sb, ")");
    }
    if (n->kind == N_VARDEF)
        signature(C, n->var->init, sb, depth);
    signature(C, n->a, sb, depth);
    signature(C, n->b, sb, depth);
    signature(C, n->c, sb, depth);
    signature(C, n->d, sb, depth);
    for (int i = 0; i < n->n_list; i++)
        signature(C, n->list[i], sb, depth);
}

static bool same_decisions(Copies *C, Func *a, Func *b)
{
    StrBuf sa = {0}, sb = {0};
    signature(C, a->body, &sa, 0);
    signature(C, b->body, &sb, 0);
    bool same = sa.len == sb.len && (!sa.len || !memcmp(sa.data, sb.data, sa.len));
    sb_free(&sa), sb_free(&sb);
    return same;
}

/* Whether F is still called from the kernel, through calls of functions that are. */
static bool reached(Lowered *L, Func *f, int depth)
{
    if (depth > 64)
        return true;
    if (calls(L->kernel->body, f))
        return true;
    for (int i = 0; i < L->funcs.len; i++) {
        Func *g = L->funcs.items[i];
        if (g != f && calls(g->body, f) && reached(L, g, depth + 1))
            return true;
    }
    return false;
}

/* The copies decided as their originals put back: their calls call the original again. Then the copies no call
   reaches any more are dropped. */
static void drop_useless_copies(Copies *C)
{
    Lowered *L = C->L;
    bool *useless = calloc((size_t)C->origin.len / 2 + 1, sizeof *useless);
    for (int i = 0; i + 1 < C->origin.len; i += 2)
        useless[i / 2] = same_decisions(C, C->origin.items[i], C->origin.items[i + 1]);
    for (int i = 0; i + 1 < C->origin.len; i += 2) {
        if (!useless[i / 2])
            continue;
        Func *copy = C->origin.items[i], *orig = C->origin.items[i + 1];
        for (int r = 0; r + 1 < L->tc_redirects.len; r += 2)
            if (((Node *)L->tc_redirects.items[r])->fn == copy)
                ((Node *)L->tc_redirects.items[r])->fn = orig;
    }
    free(useless);
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i + 1 < C->origin.len; i += 2) {
            Func *copy = C->origin.items[i];
            for (int j = 0; j < L->funcs.len; j++)
                if (L->funcs.items[j] == copy && !reached(L, copy, 0)) {
                    memmove(L->funcs.items + j, L->funcs.items + j + 1, sizeof(void *) * (size_t)(L->funcs.len - j - 1));
                    L->funcs.len--;
                    again = true;
                    break;
                }
        }
    }
}

void halfexact_analyze(Program *prog, Lowered *L)
{
    Copies C = {.prog = prog, .L = L};
    find_reaching(&C);
    make_copies(&C);
    halfexact_prove(prog, L);
    if (C.n_copies) {
        drop_useless_copies(&C);
        halfexact_prove(prog, L);
    }
    pv_free(&C.reaching);
    pv_free(&C.origin);
}

void halfexact_restore(Lowered *L)
{
    for (int i = 0; i + 1 < L->tc_redirects.len; i += 2)
        ((Node *)L->tc_redirects.items[i])->fn = L->tc_redirects.items[i + 1];
    pv_free(&L->tc_redirects);
}

