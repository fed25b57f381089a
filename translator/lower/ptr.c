/* ptr.c: pointers as indices into the buffer or array they point into.
 *
 * GLSL has no pointers. A Metal pointer (or a reference to device or threadgroup memory) is printed as
 * a uint index in units of its element type into its *root*: the buffer parameter, the threadgroup
 * variable or the local array it points into. Each pointer variable keeps to one root; this pass finds
 * it, per function and per specialization: a helper taking pointers is printed once for each combination
 * of roots its callers pass (its name then carries the roots). Casting a device or constant pointer to
 * another element type reads the same binding through another SSBO block of that element type (several
 * blocks may alias one binding); the index is scaled by the sizes (a uchar* at byte 18 is ushort index 9).
 * The printer (emit_glsl.c) writes p[i] as ROOT_VIEW[p + i]: no per-access cost beyond the addition
 * the Metal code implies.
 *
 * A pointer that may point into two buffers (assigned in a branch, a ternary between buffers, a helper
 * parameter given such a pointer) has the root ptr_dynamic: it is printed as a buffer reference to the start
 * of its buffer (GL_EXT_buffer_reference, `p_ref`) next to the same uint index; the buffers it may point into
 * have their device address in push constants (reflection `address_offset`). Threadgroup and thread memory
 * have no address in GLSL, so a pointer chosen at run time between those stays an error.
 */
#include <string.h>

#include "internal.h"

Var ptr_dynamic = {.name = "a buffer chosen at run time", .glsl_name = "addr"};

/* A root a buffer reference can point to: a buffer parameter, or a pointer chosen at run time between them. */
static bool addressable(const Var *r)
{
    return r == &ptr_dynamic || (r && r->role == PR_BUFFER);
}

/* A variable that is printed as an index: a pointer that is not itself a root, or a reference to device or
   threadgroup memory that is not passed by value (const device / constant reference parameters are). */
bool ptr_like(const Var *v)
{
    if (v->ty->kind == TY_PTR)
        return v->role != PR_BUFFER && v->role != PR_TGMEM;
    if (v->ty->kind != TY_REF || v->role != PR_NONE || v->ty->as == AS_THREAD)
        return false;
    if (v->kind == VAR_PARAM && (v->ty->as == AS_CONSTANT || v->ty->is_const))
        return false;
    return true;
}

/* A variable a pointer may point into: buffer parameters, threadgroup memory, local arrays. */
bool ptr_is_root(const Var *v)
{
    return v->role == PR_BUFFER || v->role == PR_TGMEM || (v->ty->kind == TY_ARRAY && v->kind != VAR_PARAM && v->ty->elem->kind != TY_ARRAY);
}

/* The element type a root holds. */
Type *ptr_root_elem(const Var *root)
{
    return root->ty->elem;
}

static Node *strip(Node *n)
{
    while (n && n->kind == N_PAREN)
        n = n->a;
    return n;
}

static Var *spec_lookup(const PtrSpec *s, const Var *v)
{
    for (int i = 0; s && i < s->n; i++)
        if (s->vars[i] == v)
            return s->roots[i];
    return NULL;
}

static void spec_set(Program *prog, PtrSpec *s, Var *v, Var *root)
{
    for (int i = 0; i < s->n; i++)
        if (s->vars[i] == v) {
            s->roots[i] = root;
            return;
        }
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        Var **nv = arena_alloc(prog->arena, sizeof(Var *) * (size_t)cap), **nr = arena_alloc(prog->arena, sizeof(Var *) * (size_t)cap);
        if (s->n) {
            memcpy(nv, s->vars, sizeof(Var *) * (size_t)s->n);
            memcpy(nr, s->roots, sizeof(Var *) * (size_t)s->n);
        }
        s->vars = nv, s->roots = nr, s->cap = cap;
    }
    s->vars[s->n] = v;
    s->roots[s->n++] = root;
}

/* The root of pointer expression P (or of the lvalue P when ADDR: what &P points into); NULL if unknown. */
static Var *root_of(const PtrSpec *s, Node *p, bool addr)
{
    p = strip(p);
    if (!p)
        return NULL;
    if (addr) {
        switch (p->kind) {
        case N_INDEX:
            return root_of(s, p->a, false);
        case N_DEREF:
            return root_of(s, p->a, false);
        case N_VAR:
            return p->var->ty->kind == TY_REF && ptr_like(p->var) ? spec_lookup(s, p->var) : NULL;
        case N_MEMBER: /* &y[i].b: y read as the member's type (a view, check_view) */
            return p->a->ty && p->a->ty->kind == TY_STRUCT ? root_of(s, p->a, true) : NULL;
        default:
            return NULL;
        }
    }
    switch (p->kind) {
    case N_VAR:
        if (ptr_is_root(p->var))
            return p->var;
        return ptr_like(p->var) ? spec_lookup(s, p->var) : NULL;
    case N_CAST:
    case N_POSTFIX: /* p++ */
    case N_UNARY:   /* ++p */
    case N_ASSIGN:  /* p += k */
        return root_of(s, p->a, false);
    case N_BINARY:
        if (!strcmp(p->op, "+") || !strcmp(p->op, "-"))
            return root_of(s, p->a->ty && (p->a->ty->kind == TY_PTR || p->a->ty->kind == TY_ARRAY) ? p->a : p->b, false);
        return NULL;
    case N_ADDR:
        return root_of(s, p->a, true);
    case N_TERNARY: {
        Var *a = root_of(s, p->b, false), *b = root_of(s, p->c, false);
        if (a == b)
            return a;
        return addressable(a) && addressable(b) ? &ptr_dynamic : NULL;
    }
    case N_CALL: { /* a helper returning a pointer: the root its specialization for these arguments returns */
        Func *f = p->fn;
        if (!f || f->ret->kind != TY_PTR || !s || !s->L)
            return NULL;
        Var *roots[64] = {0};
        for (int i = 0; i < f->n_params && i < p->n_list && i < 64; i++)
            if (ptr_like(f->params[i]))
                roots[i] = root_of(s, p->list[i], f->params[i]->ty->kind == TY_REF);
        PtrSpec *c = f->n_params <= 64 ? ptr_find_spec(s->L, f, roots) : NULL;
        return c ? c->ret_root : NULL;
    }
    default:
        return NULL;
    }
}

Var *ptr_root(const PtrSpec *s, Node *p)
{
    return root_of(s, p, false);
}

Var *ptr_var_root(const PtrSpec *s, const Var *v)
{
    return ptr_is_root(v) ? (Var *)v : spec_lookup(s, v);
}

static void add_ref_type(Lowered *L, Type *elem)
{
    for (int i = 0; i < L->ptr_ref_types.len; i++)
        if (ty_equal(L->ptr_ref_types.items[i], elem))
            return;
    pv_push(&L->ptr_ref_types, elem);
}

typedef struct PtrPass {
    Program *prog;
    Lowered *L;
    PtrSpec *spec;
    bool changed;
    bool report; /* last round: report what has no root */
} PtrPass;

static void analyze_spec(PtrPass *X, PtrSpec *s);
static void mark_root(Var *root, bool is_const);

/* The buffers pointer expression N (a value for a pointer chosen at run time) may point into need their
   device address: each one's reference type too. */
static void note_addresses(PtrPass *X, Node *n, bool is_const)
{
    n = strip(n);
    if (!n || !X->report)
        return;
    Var *r = root_of(X->spec, n, false);
    if (r && r->role == PR_BUFFER) { /* one buffer (x, x + i, row(x, i)): its address */
        if (!pv_contains(&X->L->ptr_addressed, r))
            pv_push(&X->L->ptr_addressed, r);
        add_ref_type(X->L, ptr_root_elem(r));
        mark_root(r, is_const);
        return;
    }
    switch (n->kind) { /* chosen at run time: the buffers of its parts */
    case N_CAST:
    case N_POSTFIX:
    case N_UNARY:
    case N_ASSIGN:
        note_addresses(X, n->a, is_const);
        return;
    case N_BINARY:
        note_addresses(X, n->a->ty && (n->a->ty->kind == TY_PTR || n->a->ty->kind == TY_ARRAY) ? n->a : n->b, is_const);
        return;
    case N_ADDR: {
        Node *l = strip(n->a);
        if (l->kind == N_INDEX || l->kind == N_DEREF)
            note_addresses(X, l->a, is_const);
        return;
    }
    case N_TERNARY:
        note_addresses(X, n->b, is_const);
        note_addresses(X, n->c, is_const);
        return;
    default:
        return;
    }
}

static void bind(PtrPass *X, Var *v, Node *value, bool addr, SrcLoc loc)
{
    Var *r = root_of(X->spec, value, addr);
    Var *old = spec_lookup(X->spec, v);
    Node *t = strip(value);
    if (!r && t && t->kind == N_TERNARY && root_of(X->spec, t->b, false) && root_of(X->spec, t->c, false)) {
        if (X->report && !old)
            diag_error(X->prog->diag, loc, "pointer '%s' points into '%s' or into '%s': only pointers into device or constant buffers may be chosen at run time (threadgroup and thread memory have no address in GLSL; choose an index instead)", v->name, root_of(X->spec, t->b, false)->name, root_of(X->spec, t->c, false)->name);
        return;
    }
    if (!r) {
        if (X->report && !old)
            diag_error(X->prog->diag, loc, "cannot tell which buffer or array pointer '%s' points into (pointers are indices into one buffer or array: from a buffer parameter, threadgroup memory or a local array, through + - & and casts)", v->name);
        return;
    }
    if (v->ty->kind == TY_REF && r == &ptr_dynamic) {
        if (X->report)
            diag_error(X->prog->diag, loc, "reference '%s' is to an element of a buffer chosen at run time: not supported (use a pointer)", v->name);
        return;
    }
    if (old && old != r && !(v->ty->kind == TY_PTR && addressable(old) && addressable(r))) {
        if (X->report)
            diag_error(X->prog->diag, loc, "pointer '%s' points into '%s' and into '%s': only pointers into device or constant buffers may be chosen at run time (threadgroup and thread memory have no address in GLSL; choose an index instead)", v->name, old->name, r->name);
        return;
    }
    if (old && old != r && old != &ptr_dynamic)
        r = &ptr_dynamic;
    if (old != r && (!old || r == &ptr_dynamic)) {
        spec_set(X->prog, X->spec, v, r);
        X->changed = true;
    }
    if (spec_lookup(X->spec, v) == &ptr_dynamic) {
        add_ref_type(X->L, v->ty->elem);
        note_addresses(X, value, v->ty->is_const);
    }
}

/* Whether a pointer to ELEM into a root of ROOT_ELEM reads the root itself: packed_float3 (12 bytes) is another
   element type than float3 (16) when cast to, but a packed root read through float3 is the template helper
   instance that clang 14 wrote without the typedef name (casting packed_float3* to float3* is misaligned in Metal). */
bool ptr_same_elem(const Type *root_elem, const Type *elem)
{
    return ty_equal(root_elem, elem) && !(elem->kind == TY_VEC && elem->packed && !root_elem->packed);
}

/* A pointer of element type ELEM into ROOT: other element types only for buffers (aliased SSBO views). */
static void check_view(PtrPass *X, Var *root, Type *elem, SrcLoc loc)
{
    if (!root || !X->report || !elem)
        return;
    if (root == &ptr_dynamic) {
        if (elem->kind == TY_STRUCT && !layout_struct(X->prog, elem->sdef, loc, true))
            return;
        if (elem->kind == TY_VOID || elem->kind == TY_BOOL || (elem->kind == TY_VEC && elem->elem->kind == TY_BOOL) || elem->kind == TY_PTR || elem->kind == TY_UNSUPPORTED)
            diag_error(X->prog->diag, loc, "a buffer chosen at run time cannot be read as %s", ty_metal_name(X->prog->arena, elem));
        else
            add_ref_type(X->L, elem);
        return;
    }
    Type *re = ptr_root_elem(root);
    if (ptr_same_elem(re, elem) || elem->kind == TY_VOID)
        return;
    if (root->kind == VAR_LOCAL && root->is_threadgroup && ty_scalar_kind(re) == ty_scalar_kind(elem) && ty_scalar_kind(re) != TY_VOID &&
        (ty_width(re) == 1) != (ty_width(elem) == 1) && (ty_width(re) + ty_width(elem) == 3 || ty_width(re) + ty_width(elem) == 5)) {
        /* a threadgroup array of scalars read as vectors of them, or the reverse: stored as the vectors */
        int lanes = ty_width(re) > 1 ? ty_width(re) : ty_width(elem);
        if (root->view_lanes && root->view_lanes != lanes)
            diag_error(X->prog->diag, loc, "threadgroup array '%s' is read as vectors of %d and of %d lanes: only one vector width is supported", root->name, root->view_lanes, lanes);
        else if (ty_width(re) == 1 && root->ty->n % lanes)
            diag_error(X->prog->diag, loc, "threadgroup array '%s' of %d elements cannot be read as %s (not a multiple of %d)", root->name, root->ty->n, ty_metal_name(X->prog->arena, elem), lanes);
        else
            root->view_lanes = lanes;
        return;
    }
    if (root->role != PR_BUFFER) {
        diag_error(X->prog->diag, loc, "a %s pointer into '%s' (of %s) is not supported: only buffers can be read as another element type (threadgroup arrays: as 2- or 4-lane vectors of their scalars, or the reverse)",
                   ty_metal_name(X->prog->arena, elem), root->name, ty_metal_name(X->prog->arena, re));
        return;
    }
    if (elem->kind == TY_STRUCT && !layout_struct(X->prog, elem->sdef, loc, true))
        return;
    if (elem->kind == TY_PTR || elem->kind == TY_UNSUPPORTED) {
        diag_error(X->prog->diag, loc, "a buffer cannot be read as %s", ty_metal_name(X->prog->arena, elem));
        return;
    }
    for (int i = 0; i < X->L->ptr_views.len; i += 2)
        if (X->L->ptr_views.items[i] == root && ty_equal(X->L->ptr_views.items[i + 1], elem) &&
            ((Type *)X->L->ptr_views.items[i + 1])->packed == elem->packed)
            return; /* one view per element type */
    pv_push(&X->L->ptr_views, root);
    pv_push(&X->L->ptr_views, elem);
    switch (ty_scalar_kind(elem)) {
    case TY_BOOL: /* its byte (layout.c) */
    case TY_CHAR:
    case TY_UCHAR:
        X->L->need_storage8 = X->L->need_int8 = true;
        break;
    case TY_SHORT:
    case TY_USHORT:
        X->L->need_storage16 = X->L->need_int16 = true;
        break;
    case TY_HALF:
        X->L->need_storage16 = X->L->need_float16 = true;
        break;
    default:
        break;
    }
}

static void mark_root(Var *root, bool is_const)
{
    if (!root)
        return;
    root->read = true;
    if (!is_const)
        root->written = true;
}

PtrSpec *ptr_find_spec(Lowered *L, Func *f, Var **roots)
{
    for (int i = 0; i < L->ptr_specs.len; i++) {
        PtrSpec *s = L->ptr_specs.items[i];
        if (s->f != f)
            continue;
        bool same = true;
        for (int j = 0; j < f->n_params; j++)
            same &= spec_lookup(s, f->params[j]) == roots[j];
        if (same)
            return s;
    }
    return NULL;
}

static void walk(PtrPass *X, Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case N_VARDEF:
        if (ptr_like(n->var) && n->var->init)
            bind(X, n->var, n->var->init, n->var->ty->kind == TY_REF, n->var->loc);
        else if (ptr_like(n->var) && X->report && !spec_lookup(X->spec, n->var))
            diag_error(X->prog->diag, n->var->loc, "pointer '%s' needs an initial value that says which buffer or array it points into", n->var->name);
        walk(X, n->var->init);
        return;
    case N_ASSIGN: {
        Node *a = strip(n->a);
        if (a->kind == N_VAR && a->var->ty->kind == TY_PTR && ptr_like(a->var) && !strcmp(n->op, "="))
            bind(X, a->var, n->b, false, n->loc);
        break;
    }
    case N_RETURN:
        if (n->a && X->spec->f->ret->kind == TY_PTR) {
            Var *r = root_of(X->spec, n->a, false), *old = X->spec->ret_root;
            if (!r && X->report)
                diag_error(X->prog->diag, n->loc, "cannot tell which buffer or array the pointer '%s' returns points into", X->spec->f->name);
            else if (r == &ptr_dynamic || (old && r && old != r)) {
                if (X->report)
                    diag_error(X->prog->diag, n->loc, "'%s' returns a pointer into a buffer chosen at run time: not supported (a returned pointer keeps to one buffer or array)", X->spec->f->name);
            } else if (r && !old) {
                X->spec->ret_root = r;
                X->changed = true;
            }
        }
        break;
    case N_INDEX:
    case N_DEREF:
        if (n->a->ty && n->a->ty->kind == TY_PTR) {
            Var *r = root_of(X->spec, n->a, false);
            if (!r && X->report && strip(n->a)->kind == N_MEMBER)
                diag_error(X->prog->diag, n->loc, "pointers stored in structs are not supported (a pointer is an index into one buffer or array: keep it in a variable)");
            else if (!r && X->report)
                diag_error(X->prog->diag, n->loc, "cannot tell which buffer or array this pointer points into");
            check_view(X, r, n->a->ty->elem, n->loc);
            if (r == &ptr_dynamic)
                note_addresses(X, n->a, n->a->ty->is_const);
            if (strip(n->a)->kind != N_VAR || !ptr_is_root(strip(n->a)->var))
                mark_root(r, n->a->ty->is_const);
        }
        break;
    case N_CALL:
        if (n->fn) {
            Func *f = n->fn;
            Var **roots = arena_alloc(X->prog->arena, sizeof(Var *) * (size_t)(f->n_params + 1));
            bool any = false;
            for (int i = 0; i < f->n_params && i < n->n_list; i++)
                if (ptr_like(f->params[i])) {
                    roots[i] = root_of(X->spec, n->list[i], f->params[i]->ty->kind == TY_REF);
                    any = true;
                    if (!roots[i] && X->report)
                        diag_error(X->prog->diag, n->list[i]->loc, "cannot tell which buffer or array argument '%s' of '%s' points into", f->params[i]->name, f->name);
                    if (roots[i] == &ptr_dynamic)
                        note_addresses(X, n->list[i], f->params[i]->ty->is_const);
                    mark_root(roots[i], f->params[i]->ty->is_const);
                }
            (void)any;
            if (!ptr_find_spec(X->L, f, roots)) {
                PtrSpec *s = arena_alloc(X->prog->arena, sizeof *s);
                s->f = f;
                s->L = X->L;
                for (int i = 0; i < f->n_params; i++)
                    if (roots[i])
                        spec_set(X->prog, s, f->params[i], roots[i]);
                const char *name = f->glsl_name;
                for (int i = 0; i < f->n_params; i++)
                    if (ptr_like(f->params[i]) && roots[i])
                        name = arena_printf(X->prog->arena, "%s_%s", name, roots[i]->glsl_name);
                s->glsl_name = name;
                pv_push(&X->L->ptr_specs, s);
                PtrSpec *saved = X->spec;
                analyze_spec(X, s);
                X->spec = saved;
                X->changed = true; /* what it returns may bind pointers of the caller */
            }
        }
        break;
    default:
        break;
    }
    walk(X, n->a);
    walk(X, n->b);
    walk(X, n->c);
    walk(X, n->d);
    for (int i = 0; i < n->n_list; i++)
        walk(X, n->list[i]);
}

static void analyze_spec(PtrPass *X, PtrSpec *s)
{
    bool report = X->report;
    X->spec = s;
    for (int round = 0; round < 8; round++) {
        X->changed = false;
        X->report = false;
        walk(X, s->f->body);
        if (!X->changed)
            break;
    }
    X->report = report;
    if (report)
        walk(X, s->f->body);
}

/* Marks the specializations the calls in N reach from specialization S (roots found in earlier rounds may have
   changed since a specialization was made: p = x, then p = w makes p's calls use another one). */
static void reach(Lowered *L, PtrSpec *s, Node *n)
{
    if (!n)
        return;
    if (n->kind == N_VARDEF)
        reach(L, s, n->var->init);
    if (n->kind == N_CALL && n->fn) {
        Func *f = n->fn;
        Var *roots[64] = {0};
        for (int i = 0; i < f->n_params && i < n->n_list && i < 64; i++)
            if (ptr_like(f->params[i]))
                roots[i] = root_of(s, n->list[i], f->params[i]->ty->kind == TY_REF);
        PtrSpec *c = f->n_params <= 64 ? ptr_find_spec(L, f, roots) : NULL;
        if (c && !c->used) {
            c->used = true;
            reach(L, c, f->body);
        }
    }
    reach(L, s, n->a);
    reach(L, s, n->b);
    reach(L, s, n->c);
    reach(L, s, n->d);
    for (int i = 0; i < n->n_list; i++)
        reach(L, s, n->list[i]);
}

bool ptr_analyze(Program *prog, Lowered *L)
{
    int before = prog->diag->n_errors;
    PtrPass X = {prog, L, NULL, false, false};
    PtrSpec *k = arena_alloc(prog->arena, sizeof *k);
    k->f = L->kernel;
    k->L = L;
    k->glsl_name = "main";
    pv_push(&L->ptr_specs, k);
    analyze_spec(&X, k); /* finds every specialization, reporting nothing */
    /* an index variable must not take the name of a buffer or array it might point into */
    for (int i = 0; i < L->ptr_specs.len; i++) {
        PtrSpec *s = L->ptr_specs.items[i];
        for (int j = 0; j < s->n; j++) {
            Var *v = s->vars[j];
            bool clash = false;
            for (int m = 0; m < L->kernel->n_params; m++)
                clash |= v != L->kernel->params[m] && !strcmp(v->glsl_name, L->kernel->params[m]->glsl_name);
            for (int m = 0; m < L->tg_vars.len; m++)
                clash |= !strcmp(v->glsl_name, ((Var *)L->tg_vars.items[m])->glsl_name);
            if (clash)
                v->glsl_name = arena_printf(prog->arena, "%s_p", v->glsl_name);
        }
    }
    X.report = true;
    for (int i = L->ptr_specs.len - 1; i >= 0; i--) { /* helpers first: an error there explains its callers' */
        X.spec = L->ptr_specs.items[i];
        walk(&X, X.spec->f->body); /* the specs are complete: report what has no root */
        if (prog->diag->n_errors != before)
            break;
    }
    k->used = true;
    reach(L, k, k->f->body);
    /* device addresses of the buffers pointers chosen at run time may point into: after the constants */
    int off = (L->push_size + 7) & ~7;
    for (int i = 0; i < L->ptr_addressed.len; i++, off += 8)
        ((Var *)L->ptr_addressed.items[i])->addr_offset = off;
    if (L->ptr_addressed.len) {
        if (off > 256)
            diag_error(prog->diag, L->kernel->loc, "kernel '%s' needs %d bytes of push constants for its buffer addresses and constants; at most 256 are supported", L->kernel->name, off);
        L->push_size = off;
    }
    return prog->diag->n_errors == before;
}
