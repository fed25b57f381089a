/* Functions that return references into their object or arguments, and reference locals bound to them.

   GLSL has no references. A function whose whole body is `return PLACE;`, PLACE naming storage of its object or of
   a reference parameter through members and array or vector subscripts (MLX's `MMATile::frag_at`: `return
   val_frags[i * kTileCols + j];`), is an accessor: each call becomes PLACE with the call's arguments put in for the
   parameters (`Ctile.val_frags[i * 2 + j]`), an l-value that GLSL reads, writes and passes to `inout` parameters.
   A `thread T&` local bound to a place (`thread auto& accum = Ctile.frag_at(i, j);`) becomes that place: its
   subscripts are evaluated once, where the reference is bound, into locals of their own (`accum_i`), and every use
   of the reference names the place. A `const thread T&` bound to a value that is no place (a temporary) is a copy.
   What does not fit stays a reference, which lower.c refuses by name: no write is ever lost. */
#include <string.h>

#include "../internal.h"

typedef struct Refs {
    Program *prog;
    Func *f;     /* the function being rewritten */
    int n_temps; /* subscripts put in locals so far (their names) */
} Refs;

static Node *strip(Node *n)
{
    while (n && (n->kind == N_PAREN || (n->kind == N_CAST && n->implicit && n->a && n->a->ty && n->ty && ty_equal(n->ty, n->a->ty))))
        n = n->a;
    return n;
}

/* Whether evaluating N only reads (no call or constructor either), so that it may be evaluated again, or later, with
   the same value. */
static bool pure(const Node *n)
{
    return !node_effects(n, EFFECT_CALLS | EFFECT_INITLISTS);
}

/* Whether N names storage through members and subscripts of arrays and vectors (no pointer), from a variable that
   ROOT_OK accepts, with pure subscripts. */
static bool is_place(Node *n, bool (*root_ok)(const Var *, const Func *), const Func *f)
{
    n = strip(n);
    if (!n)
        return false;
    switch (n->kind) {
    case N_VAR:
        return root_ok(n->var, f);
    case N_MEMBER:
        return n->a && n->a->ty && n->a->ty->kind != TY_PTR && is_place(n->a, root_ok, f);
    case N_SWIZZLE:
        return n->name && strlen(n->name) == 1 && is_place(n->a, root_ok, f);
    case N_INDEX: {
        Node *base = strip(n->a);
        return base && base->ty && (base->ty->kind == TY_ARRAY || base->ty->kind == TY_VEC) && pure(n->b) &&
               is_place(base, root_ok, f);
    }
    default:
        return false;
    }
}

/* In an accessor's body: its object, a reference parameter (what the caller passes lives on after the call), or a
   program-scope variable. A value parameter or a local dies with the call. */
static bool accessor_root(const Var *v, const Func *f)
{
    if (v == f->self || v->kind == VAR_GLOBAL)
        return true;
    return v->kind == VAR_PARAM && v->owner == f && v->ty->kind == TY_REF;
}

/* In a caller: any variable but a reference (a reference parameter is the caller's inout copy: fine). */
static bool caller_root(const Var *v, const Func *f)
{
    (void)f;
    return v->ty->kind != TY_PTR && !(v->kind == VAR_LOCAL && v->ty->kind == TY_REF);
}

static void rewrite(Refs *R, Node *n);

/* The place F returns when F is an accessor (its body is `return PLACE;`), else NULL. */
static Node *accessor_place(Refs *R, Func *f)
{
    if (f->ret->kind != TY_REF || f->returns_ref || f->returns_param || !f->body || f->visiting)
        return NULL;
    Node *body = f->body;
    while (body && body->kind == N_BLOCK && body->n_list == 1)
        body = body->list[0];
    if (!body || body->kind != N_RETURN || !body->a)
        return NULL;
    Refs inner = {R->prog, f, 0};
    f->visiting = true; /* an accessor that calls accessors: those first */
    rewrite(&inner, body->a);
    f->visiting = false;
    return is_place(body->a, accessor_root, f) ? strip(body->a) : NULL;
}

/* PLACE with call N's arguments put in for F's parameters (its object is params[0] and the call's list[0]). */
static Node *substitute(Refs *R, Node *place, Func *f, Node *call)
{
    Node *c = node_clone(R->prog, place);
    if (c->kind == N_VAR) {
        for (int i = 0; i < f->n_params && i < call->n_list; i++)
            if (c->var == f->params[i]) {
                Node *arg = node_clone(R->prog, call->list[i]);
                if (f->params[i]->ty->kind != TY_REF && arg->ty && !ty_equal(arg->ty, f->params[i]->ty)) {
                    Node *cast = arena_alloc(R->prog->arena, sizeof *cast); /* converted as the call would */
                    *cast = (Node){.kind = N_CAST, .loc = arg->loc, .ty = f->params[i]->ty, .a = arg, .implicit = true};
                    arg = cast;
                }
                return arg;
            }
        return c;
    }
    c->a = place->a ? substitute(R, place->a, f, call) : NULL;
    c->b = place->b ? substitute(R, place->b, f, call) : NULL;
    c->c = place->c ? substitute(R, place->c, f, call) : NULL;
    c->d = place->d ? substitute(R, place->d, f, call) : NULL;
    for (int i = 0; i < place->n_list; i++)
        c->list[i] = substitute(R, place->list[i], f, call);
    return c;
}

/* Call N of an accessor becomes the place it returns, in N's node. */
static void inline_accessor(Refs *R, Node *n)
{
    Node *place = accessor_place(R, n->fn);
    if (!place)
        return; /* lower.c refuses a function returning a reference that is not an accessor */
    for (int i = 0; i < n->n_list; i++)
        if (!pure(n->list[i])) {
            diag_error(R->prog->diag, n->list[i]->loc, "an argument of '%s', which returns a reference, that has side effects "
                       "(assign it to a local first)", n->fn->name);
            return;
        }
    SrcLoc loc = n->loc;
    Type *ty = n->ty;
    *n = *substitute(R, place, n->fn, n);
    n->loc = loc;
    if (ty && ty->kind != TY_REF)
        n->ty = ty;
}

/* The array of F's object or arguments that F returns a pointer to when its body is `return ARRAY;`, cast or not
   (MLX's `MMATile::elems()`: `return reinterpret_cast<thread elem_type*>(val_frags);`, val_frags an array of
   vectors of elem_type), else NULL. */
static Node *pointer_accessor_array(Refs *R, Func *f)
{
    if (f->ret->kind != TY_PTR || f->ret->as != AS_THREAD || !f->body || f->visiting)
        return NULL;
    Node *body = f->body;
    while (body && body->kind == N_BLOCK && body->n_list == 1)
        body = body->list[0];
    if (!body || body->kind != N_RETURN || !body->a)
        return NULL;
    Node *e = body->a;
    while (e && (e->kind == N_PAREN || (e->kind == N_CAST && e->ty && e->ty->kind == TY_PTR)))
        e = e->a;
    if (!e || !e->ty || e->ty->kind != TY_ARRAY || !is_place(e, accessor_root, f))
        return NULL;
    Type *el = e->ty->elem, *want = f->ret->elem;
    bool same = ty_equal(el, want), lanes = el->kind == TY_VEC && ty_equal(el->elem, want);
    (void)R;
    return same || lanes ? e : NULL;
}

static Node *int_node(Program *prog, Node *like, TypeKind k, long long v)
{
    Node *n = arena_alloc(prog->arena, sizeof *n);
    *n = (Node){.kind = N_INT, .loc = like->loc, .ty = ty_scalar(k), .ival = v};
    return n;
}

static Node *binary(Program *prog, const char *op, Node *a, Node *b)
{
    Node *n = arena_alloc(prog->arena, sizeof *n);
    *n = (Node){.kind = N_BINARY, .loc = a->loc, .ty = a->ty, .op = op, .a = a, .b = b};
    return n;
}

/* Subscript N of a call of a pointer accessor (`Ctile.elems()[i]`) becomes the element it names: `Ctile.val_frags[i]`,
   or, through an array of vectors of the pointer's type, `Ctile.val_frags[i / 2][i % 2]`. */
static void inline_pointer_subscript(Refs *R, Node *n)
{
    Node *call = strip(n->a);
    Node *arr = pointer_accessor_array(R, call->fn);
    if (!arr)
        return; /* ptr.c: a pointer it cannot follow is refused */
    for (int i = 0; i < call->n_list; i++)
        if (!pure(call->list[i]))
            return;
    if (!pure(n->b)) {
        diag_error(R->prog->diag, n->b->loc, "a subscript with side effects of the pointer '%s' returns (assign it to a local first)",
                   call->fn->name);
        return;
    }
    Node *base = substitute(R, arr, call->fn, call);
    if (ty_equal(arr->ty->elem, call->fn->ret->elem)) {
        n->a = base;
        return;
    }
    Program *prog = R->prog;
    Node *ix = n->b;
    if (!ix->ty || ix->ty->kind != TY_INT) {
        Node *cast = arena_alloc(prog->arena, sizeof *cast);
        *cast = (Node){.kind = N_CAST, .loc = ix->loc, .ty = ty_scalar(TY_INT), .a = ix};
        ix = cast;
    }
    int lanes = arr->ty->elem->n;
    Node *outer = arena_alloc(prog->arena, sizeof *outer);
    *outer = (Node){.kind = N_INDEX, .loc = n->loc, .ty = arr->ty->elem, .a = base,
                    .b = binary(prog, "/", ix, int_node(prog, ix, TY_INT, lanes))};
    n->a = outer;
    n->b = binary(prog, "%", node_clone(prog, ix), int_node(prog, ix, TY_INT, lanes));
}

/* Every use of V in N becomes a copy of PLACE. */
static void replace_uses(Program *prog, Node *n, const Var *v, const Node *place)
{
    if (!n)
        return;
    if (n->kind == N_VAR && n->var == v) {
        SrcLoc loc = n->loc;
        *n = *node_clone(prog, place);
        n->loc = loc;
        return;
    }
    replace_uses(prog, n->a, v, place);
    replace_uses(prog, n->b, v, place);
    replace_uses(prog, n->c, v, place);
    replace_uses(prog, n->d, v, place);
    for (int i = 0; i < n->n_list; i++)
        replace_uses(prog, n->list[i], v, place);
    if (n->kind == N_VARDEF)
        replace_uses(prog, n->var->init, v, place);
}

/* The subscripts of PLACE that are not constants go into new locals of reference V, evaluated where V is bound;
   their definitions are appended to DEFS. */
static void freeze_subscripts(Refs *R, Node *place, Var *v, Node **defs, int *n_defs)
{
    place = strip(place);
    if (!place || place->kind == N_VAR)
        return;
    freeze_subscripts(R, place->a, v, defs, n_defs);
    Node *ix = place->kind == N_INDEX ? strip(place->b) : NULL;
    if (!ix || ix->kind == N_INT || (ix->kind == N_VAR && ix->var->is_constexpr))
        return;
    Var *t = arena_alloc(R->prog->arena, sizeof *t);
    const char *name = R->n_temps++ ? arena_printf(R->prog->arena, "%s_i%d", v->name, R->n_temps) : arena_printf(R->prog->arena, "%s_i", v->name);
    *t = (Var){.name = name, .glsl_name = names_legal(R->prog->arena, name), .ty = place->b->ty, .kind = VAR_LOCAL, .loc = v->loc,
               .init = place->b, .index = -1, .builtin = -1, .tg_index = -1, .owner = R->f};
    Node *use = arena_alloc(R->prog->arena, sizeof *use);
    *use = (Node){.kind = N_VAR, .loc = v->loc, .ty = t->ty, .var = t};
    place->b = use;
    Node *def = arena_alloc(R->prog->arena, sizeof *def);
    *def = (Node){.kind = N_VARDEF, .loc = v->loc, .var = t};
    defs[(*n_defs)++] = def;
}

static int count_subscripts(const Node *n)
{
    return !n ? 0 : count_subscripts(n->a) + (n->kind == N_INDEX);
}

/* Whether N is a value that is no l-value (a temporary), which a `const T&` may hold as a copy. */
static bool is_temporary(const Node *n)
{
    n = strip((Node *)n);
    switch (n ? n->kind : N_EMPTY) {
    case N_INT: case N_FLOAT: case N_BOOL: case N_BINARY: case N_VECCTOR: case N_INITLIST: case N_BUILTIN:
    case N_TERNARY: case N_ASTYPE: case N_ENUMVAL:
        return true;
    case N_CAST:
        return !n->implicit;
    case N_CALL:
        return n->fn && n->fn->ret->kind != TY_REF && !n->fn->returns_ref;
    case N_UNARY:
        return strcmp(n->op, "++") && strcmp(n->op, "--");
    default:
        return false;
    }
}

/* Declaration N: each `thread T&` it defines that is bound to a place becomes that place (uses replaced in the
   function's body), its non-constant subscripts locals of their own. */
static void bind_references(Refs *R, Node *n)
{
    int cap = n->n_list;
    for (int i = 0; i < n->n_list; i++)
        if (n->list[i]->kind == N_VARDEF)
            cap += count_subscripts(strip(n->list[i]->var->init));
    Node **list = arena_alloc(R->prog->arena, sizeof(Node *) * (size_t)(cap + 1));
    int len = 0;
    for (int i = 0; i < n->n_list; i++) {
        Node *d = n->list[i];
        Var *v = d->kind == N_VARDEF ? d->var : NULL;
        if (!v || v->ty->kind != TY_REF || v->ty->as != AS_THREAD || !v->init) {
            list[len++] = d;
            continue;
        }
        if (is_place(v->init, caller_root, R->f)) {
            Node *place = node_clone(R->prog, strip(v->init));
            freeze_subscripts(R, place, v, list, &len);
            replace_uses(R->prog, R->f->body, v, place);
        } else if (is_temporary(v->init) && (v->ty->is_const || v->ty->elem->is_const)) {
            v->ty = v->ty->elem; /* `const thread T& x = a + b;`: the temporary, held by value */
            list[len++] = d;
        } else {
            list[len++] = d; /* lower.c: refused by name */
        }
    }
    n->list = list;
    n->n_list = len;
}

/* The pointer to T under `(S*)P` with S a struct that holds only an array of bytes, else NULL. T may be a struct
   (MLX's complex64_t tiles), copied whole. */
static Node *byte_struct_source(Node *n, Type **st)
{
    while (n && n->kind == N_PAREN)
        n = n->a;
    if (!n || n->kind != N_CAST || !n->ty || n->ty->kind != TY_PTR || n->ty->elem->kind != TY_STRUCT)
        return NULL;
    StructDef *sd = n->ty->elem->sdef;
    if (!sd || sd->n_fields != 1 || sd->is_union || sd->fields[0].ty->kind != TY_ARRAY ||
        (sd->fields[0].ty->elem->kind != TY_UCHAR && sd->fields[0].ty->elem->kind != TY_CHAR))
        return NULL;
    Node *p = n->a;
    while (p && (p->kind == N_PAREN || (p->kind == N_CAST && p->implicit)))
        p = p->a;
    Type *e = p && p->ty && p->ty->kind == TY_PTR ? p->ty->elem : NULL;
    if (!e || e->kind == TY_VOID || (e->kind == TY_STRUCT && (e->sdef->is_union || e->sdef->empty))) /* complex64_t: whole */
        return NULL;
    *st = n->ty->elem;
    return p;
}

/* Element K of what pointer P points to: `base[e + K]` for P = `&base[e]`, else `P[K]`. */
static Node *element(Program *prog, Node *p, int k)
{
    Node *ix = arena_alloc(prog->arena, sizeof *ix);
    Node *q = p;
    while (q->kind == N_PAREN)
        q = q->a;
    if (q->kind == N_ADDR && q->a && strip(q->a)->kind == N_INDEX) {
        Node *sub = strip(q->a);
        *ix = (Node){.kind = N_INDEX, .loc = p->loc, .ty = sub->ty, .a = node_clone(prog, sub->a),
                     .b = k ? binary(prog, "+", node_clone(prog, sub->b), int_node(prog, sub->b, sub->b->ty ? sub->b->ty->kind : TY_INT, k))
                            : node_clone(prog, sub->b)};
        return ix;
    }
    *ix = (Node){.kind = N_INDEX, .loc = p->loc, .ty = p->ty->elem, .a = node_clone(prog, p), .b = int_node(prog, p, TY_INT, k)};
    return ix;
}

/* How many elements of T a copy of COUNT of them from a buffer reads at a time: 4 (or 2) where T is a number and
   they divide COUNT, read as vectors whose alignment the buffer's reads test at run time (docs/translator.md,
   "Vectors at run-time offsets into buffers"); 1 otherwise. Threadgroup and thread memory are read element by
   element: a struct of bytes may lie at any byte, and their vectors must be aligned. */
static int copy_lanes(const Node *q, const Type *t, int count)
{
    if (q->ty->as != AS_DEVICE && q->ty->as != AS_CONSTANT)
        return 1;
    if (!ty_is_scalar(t) || t->kind == TY_BOOL || count < 2)
        return 1;
    return count % 4 == 0 ? 4 : count % 2 == 0 ? 2 : 1;
}

/* Statement N, `*(threadgroup S*)P = *(const device S*)Q;` with S a struct of bytes only and P, Q pointers to one
   type T (MLX's BlockLoader: `struct ReadVector { uint8_t v[sizeof(T) * vec_size]; }`): a copy of sizeof(S) bytes,
   which becomes the copies of its elements of T, `{ P[0] = Q[0]; ...; }`; from a buffer, Q's elements are read as
   vectors first (copy_lanes): `{ T4 ReadVector_0 = *(const device T4*)Q; ...; P[0] = ReadVector_0.x; ...; }`. */
static void copy_byte_struct(Refs *R, Node *n)
{
    Node *as = n->a;
    if (!as || as->kind != N_ASSIGN || strcmp(as->op, "=") || strip(as->a)->kind != N_DEREF)
        return;
    Node *rhs = as->b;
    while (rhs && (rhs->kind == N_PAREN || (rhs->kind == N_CAST && rhs->implicit)))
        rhs = rhs->a;
    if (!rhs || rhs->kind != N_DEREF)
        return;
    Type *s1 = NULL, *s2 = NULL;
    Node *p = byte_struct_source(strip(as->a)->a, &s1), *q = byte_struct_source(rhs->a, &s2);
    if (!p || !q || s1->sdef != s2->sdef || !ty_equal(p->ty->elem, q->ty->elem) || !pure(p) || !pure(q))
        return;
    int size = ty_metal_size(s1), elem = ty_metal_size(p->ty->elem);
    if (elem <= 0 || size <= 0 || size % elem || size / elem > 64)
        return;
    Program *prog = R->prog;
    int count = size / elem, lanes = copy_lanes(q, q->ty->elem, count), n_parts = lanes > 1 ? count / lanes : 0;
    Node **list = arena_alloc(prog->arena, sizeof(Node *) * (size_t)(n_parts + count));
    Var **parts = arena_alloc(prog->arena, sizeof(Var *) * (size_t)(n_parts + 1));
    Type *vec = ty_vec(prog->arena, q->ty->elem->kind, lanes), *vptr = arena_alloc(prog->arena, sizeof *vptr);
    *vptr = (Type){.kind = TY_PTR, .elem = vec, .as = q->ty->as, .is_const = true};
    for (int j = 0; j < n_parts; j++) { /* T4 S_j = *(const device T4*)&Q[lanes * j]; */
        Node *addr = arena_alloc(prog->arena, sizeof *addr), *cast = arena_alloc(prog->arena, sizeof *cast);
        Node *load = arena_alloc(prog->arena, sizeof *load), *def = arena_alloc(prog->arena, sizeof *def);
        *addr = (Node){.kind = N_ADDR, .loc = rhs->loc, .ty = q->ty, .op = "&", .a = element(prog, q, lanes * j)};
        *cast = (Node){.kind = N_CAST, .loc = rhs->loc, .ty = vptr, .a = j ? addr : node_clone(prog, q)};
        *load = (Node){.kind = N_DEREF, .loc = rhs->loc, .ty = vec, .a = cast};
        const char *name = arena_printf(prog->arena, "%s_%d", s1->sdef->glsl_name, R->n_temps++);
        parts[j] = arena_alloc(prog->arena, sizeof(Var));
        *parts[j] = (Var){.name = name, .glsl_name = names_legal(prog->arena, name), .ty = vec, .kind = VAR_LOCAL, .loc = n->loc,
                          .init = load, .index = -1, .builtin = -1, .tg_index = -1, .owner = R->f};
        *def = (Node){.kind = N_VARDEF, .loc = n->loc, .var = parts[j]};
        Node *decl = arena_alloc(prog->arena, sizeof *decl);
        *decl = (Node){.kind = N_DECL, .loc = n->loc, .list = arena_alloc(prog->arena, sizeof(Node *)), .n_list = 1};
        decl->list[0] = def;
        list[j] = decl;
    }
    for (int k = 0; k < count; k++) {
        Node *a = arena_alloc(prog->arena, sizeof *a), *st = arena_alloc(prog->arena, sizeof *st), *from;
        if (n_parts) { /* S_j.x */
            Node *v = arena_alloc(prog->arena, sizeof *v);
            *v = (Node){.kind = N_VAR, .loc = n->loc, .ty = vec, .var = parts[k / lanes]};
            from = arena_alloc(prog->arena, sizeof *from);
            *from = (Node){.kind = N_SWIZZLE, .loc = n->loc, .ty = q->ty->elem, .a = v,
                           .name = arena_printf(prog->arena, "%c", "xyzw"[k % lanes])};
        } else {
            from = element(prog, q, k);
        }
        *a = (Node){.kind = N_ASSIGN, .loc = as->loc, .ty = p->ty->elem, .op = "=", .a = element(prog, p, k), .b = from};
        *st = (Node){.kind = N_EXPRSTMT, .loc = n->loc, .a = a};
        list[n_parts + k] = st;
    }
    *n = (Node){.kind = N_BLOCK, .loc = n->loc, .list = list, .n_list = n_parts + count};
}

/* Rewrites N bottom-up: accessor calls inlined (their arguments first), reference declarations bound. */
static void rewrite(Refs *R, Node *n)
{
    if (!n)
        return;
    rewrite(R, n->a);
    rewrite(R, n->b);
    rewrite(R, n->c);
    rewrite(R, n->d);
    for (int i = 0; i < n->n_list; i++)
        rewrite(R, n->list[i]);
    if (n->kind == N_VARDEF)
        rewrite(R, n->var->init);
    if (n->kind == N_CALL && n->fn && n->fn->ret && n->fn->ret->kind == TY_REF)
        inline_accessor(R, n);
    else if (n->kind == N_INDEX && strip(n->a) && strip(n->a)->kind == N_CALL && strip(n->a)->fn)
        inline_pointer_subscript(R, n);
    else if (n->kind == N_DECL)
        bind_references(R, n);
    else if (n->kind == N_EXPRSTMT)
        copy_byte_struct(R, n);
}

void refs_inline(Program *prog, Func *f)
{
    Refs R = {prog, f, 0};
    rewrite(&R, f->body);
}

/* ---- one object passed to two references ---- */

typedef struct RefAlias {
    Func *from;
    int keep, drop; /* parameter DROP of FROM is parameter KEEP */
    Func *to;
    struct RefAlias *next;
} RefAlias;

/* Whether pure expressions A and B are written alike (so name the same place). */
static bool same_expr(const Node *a, const Node *b)
{
    a = strip((Node *)a);
    b = strip((Node *)b);
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->var != b->var || a->ival != b->ival || a->fval != b->fval || a->n_list != b->n_list)
        return false;
    if ((a->name || b->name) && (!a->name || !b->name || strcmp(a->name, b->name)))
        return false;
    if ((a->op || b->op) && (!a->op || !b->op || strcmp(a->op, b->op)))
        return false;
    if (!same_expr(a->a, b->a) || !same_expr(a->b, b->b) || !same_expr(a->c, b->c) || !same_expr(a->d, b->d))
        return false;
    for (int i = 0; i < a->n_list; i++)
        if (!same_expr(a->list[i], b->list[i]))
            return false;
    return true;
}

static void replace_var_in(Node *n, const Var *from, Var *to)
{
    if (!n)
        return;
    if (n->kind == N_VAR && n->var == from)
        n->var = to;
    replace_var_in(n->a, from, to);
    replace_var_in(n->b, from, to);
    replace_var_in(n->c, from, to);
    replace_var_in(n->d, from, to);
    for (int i = 0; i < n->n_list; i++)
        replace_var_in(n->list[i], from, to);
    if (n->kind == N_VARDEF)
        replace_var_in(n->var->init, from, to);
}

/* F with its parameter DROP replaced by its parameter KEEP (`tile_matmad_C` of tile_matmad(D, A, B, C) for D == C). */
static Func *aliased_copy(Program *prog, Func *f, int keep, int drop)
{
    for (RefAlias *a = prog->ref_aliases; a; a = a->next)
        if (a->from == f && a->keep == keep && a->drop == drop)
            return a->to;
    Func *g = arena_alloc(prog->arena, sizeof *g);
    *g = *f;
    g->glsl_name = arena_printf(prog->arena, "%s_%s_is_%s", f->glsl_name, f->params[drop]->glsl_name, f->params[keep]->glsl_name);
    g->params = arena_alloc(prog->arena, sizeof(Var *) * (size_t)f->n_params);
    g->n_params = 0;
    for (int i = 0; i < f->n_params; i++)
        if (i != drop)
            g->params[g->n_params++] = f->params[i];
    g->body = node_clone(prog, f->body);
    replace_var_in(g->body, f->params[drop], f->params[keep]);
    RefAlias *a = arena_alloc(prog->arena, sizeof *a);
    *a = (RefAlias){f, keep, drop, g, prog->ref_aliases};
    prog->ref_aliases = a;
    return g;
}

static bool thread_ref(const Var *p)
{
    return p->ty->kind == TY_REF && p->ty->as == AS_THREAD;
}

void refs_unalias(Program *prog, Node *n)
{
    for (bool again = true; again && n->fn && n->fn->body && !n->fn->n_captures;) {
        again = false;
        Func *f = n->fn;
        for (int i = 0; i < f->n_params && i < n->n_list && !again; i++)
            for (int j = i + 1; j < f->n_params && j < n->n_list && !again; j++) {
                if (!thread_ref(f->params[i]) || !thread_ref(f->params[j]) || !ty_equal(f->params[i]->ty->elem, f->params[j]->ty->elem) ||
                    !(f->params[i]->written || f->params[j]->written) || /* references only read may share an object */
                    !pure(n->list[i]) || !same_expr(n->list[i], n->list[j]))
                    continue;
                n->fn = aliased_copy(prog, f, i, j);
                memmove(n->list + j, n->list + j + 1, sizeof(Node *) * (size_t)(n->n_list - j - 1));
                n->n_list--;
                again = true;
            }
    }
}
