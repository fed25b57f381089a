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
static Type null_void = {.kind = TY_VOID}, null_ty = {.kind = TY_PTR, .elem = &null_void};
Var ptr_null = {.name = "nullptr", .glsl_name = "null", .ty = &null_ty, .kind = VAR_GLOBAL};

/* nullptr (its type a pointer: parse.c). */
bool ptr_is_null(Node *n)
{
    while (n && (n->kind == N_PAREN || n->kind == N_CAST))
        n = n->a;
    return n && n->kind == N_INT && n->ty && n->ty->kind == TY_PTR;
}

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
    if (v->ty->kind == TY_ARRAY && v->ty->elem->kind == TY_PTR) /* `device const T* rows[4]`: an array of indices; */
        return v->kind == VAR_LOCAL || v->kind == VAR_PARAM; /* a parameter (MLX's per_thread_row_reduce): the caller's */
    if (v->ty->kind != TY_REF || v->role != PR_NONE || v->ty->as == AS_THREAD)
        return false;
    if (v->kind == VAR_PARAM && (v->ty->as == AS_CONSTANT || v->ty->is_const))
        return false;
    return true;
}

/* A variable a pointer may point into: buffer parameters, threadgroup memory, local arrays and program-scope
   constant arrays, and local variables whose address is taken (`(thread const uint8_t*)&aux32`). */
bool ptr_is_root(const Var *v)
{
    if (v->role == PR_BUFFER || v->role == PR_TGMEM)
        return true;
    if (v->kind == VAR_PARAM) /* a helper's `thread T vals[N]` (MLX's MMATile::row_bin_op passes &vals[i] on) */
        return v->role == PR_NONE && v->ty->kind == TY_ARRAY && v->ty->elem->kind != TY_PTR && v->ty->elem->kind != TY_ARRAY &&
               !(v->owner && v->owner->is_kernel);
    if (v->ty->kind == TY_ARRAY && v->ty->elem->kind == TY_ARRAY) /* tile[M][N]: pointers to its rows (rows_root) */
        return v->kind == VAR_LOCAL && v->is_threadgroup;
    if (v->ty->kind == TY_ARRAY)
        return v->ty->elem->kind != TY_PTR;
    return v->kind == VAR_LOCAL && (ty_is_scalar(v->ty) || v->ty->kind == TY_VEC || (v->ty->kind == TY_STRUCT && !v->ty->sdef->empty));
}

/* A threadgroup array of arrays (`threadgroup T tile[M][N]`): a root whose pointers are to its rows only
   (`threadgroup T tile[M][N]` as a helper's parameter is a `T (*)[N]`), each counting whole rows. */
static bool rows_root(const Var *r)
{
    return r && r->ty && r->ty->kind == TY_ARRAY && r->ty->elem->kind == TY_ARRAY;
}

/* What pointer (or reference) variable V points to; an array of pointers: what its elements point to. */
Type *ptr_pointee(const Var *v)
{
    return v->ty->kind == TY_ARRAY ? v->ty->elem->elem : v->ty->elem;
}

static Node *strip(Node *n);

/* Element J of an array of pointers (rows[j]): its variable, or NULL. */
static Var *pointer_array(Node *n)
{
    n = strip(n);
    if (!n || n->kind != N_INDEX || !n->ty || n->ty->kind != TY_PTR)
        return NULL;
    Node *a = strip(n->a);
    return a->kind == N_VAR && a->var->ty->kind == TY_ARRAY && ptr_like(a->var) ? a->var : NULL;
}

Type *ptr_decl_elem(const Var *root)
{
    return root->ty->kind == TY_ARRAY || root->ty->kind == TY_PTR ? root->ty->elem : root->ty;
}

/* A local union (ggml's iq1m_scale_t: `union { half f16; uint16_t u16; }`) is stored as an unsigned integer of its
   size, its members read and written as the bits of it; NULL if it is not one such. */
Type *ptr_union_storage(const Var *v)
{
    if (v->kind != VAR_LOCAL || v->is_threadgroup || v->ty->kind != TY_STRUCT || !ty_has_union(v->ty))
        return NULL;
    switch (ty_metal_size(v->ty)) {
    case 1: return ty_scalar(TY_UCHAR);
    case 2: return ty_scalar(TY_USHORT);
    case 4: return ty_scalar(TY_UINT);
    case 8: return ty_scalar(TY_ULONG);
    default: return NULL;
    }
}

/* A local struct that is one array of integer or float scalars (MLX's `struct { uint32_t wi[N]; } vec_w`, read
   through `(thread uint8_t*)&w_local`): that member, whose elements its bytes are; NULL otherwise. */
const Field *ptr_struct_array(const Var *v)
{
    if (v->kind != VAR_LOCAL || v->is_threadgroup || v->ty->kind != TY_STRUCT || v->ty->sdef->is_union || v->ty->sdef->n_fields != 1)
        return NULL;
    const Field *f = &v->ty->sdef->fields[0];
    TypeKind k = ty_scalar_kind(f->ty->elem);
    if (f->ty->kind != TY_ARRAY || !ty_is_scalar(f->ty->elem) || k == TY_BOOL || k == TY_DOUBLE)
        return NULL;
    return f;
}

/* The element type a root holds (a local scalar holds itself). */
Type *ptr_root_elem(const Var *root)
{
    if (root->mem_type)
        return root->mem_type;
    Type *u = ptr_union_storage(root);
    return u ? u : ptr_decl_elem(root);
}

static Node *strip(Node *n)
{
    while (n && n->kind == N_PAREN)
        n = n->a;
    return n;
}

/* A member that is a pointer, or an array of pointers (MLX's conv loaders: `const device T* src[n_rows];`). */
static bool pointer_field(const Type *t)
{
    return t->kind == TY_PTR || (t->kind == TY_ARRAY && t->elem->kind == TY_PTR);
}

/* The member node of pointer member N: N itself (s.p), or the array member an element s.rows[i] is of. */
static Node *member_node(Node *n)
{
    n = strip(n);
    if (n && n->kind == N_INDEX && n->ty && n->ty->kind == TY_PTR) {
        Node *m = strip(n->a);
        if (m && m->kind == N_MEMBER && m->ty && m->ty->kind == TY_ARRAY && m->ty->elem->kind == TY_PTR)
            return m;
    }
    return n;
}

/* The Field of a pointer member p.f / p->f of a struct (MLX's ReadWriter: `const device in_T* in;`), or of an
   element p.f[i] of an array of pointers kept in a struct (every element with one root), or NULL. */
static Field *pointer_member(Node *n)
{
    if (n && strip(n) && strip(n)->kind == N_MEMBER && strip(n)->ty && strip(n)->ty->kind != TY_PTR)
        return NULL; /* an array of pointers itself is no pointer */
    n = member_node(n);
    if (!n || n->kind != N_MEMBER || !n->ty || !pointer_field(n->ty) || !n->a->ty)
        return NULL;
    Type *st = n->a->ty->kind == TY_PTR || n->a->ty->kind == TY_REF ? n->a->ty->elem : n->a->ty;
    int f = st && st->kind == TY_STRUCT ? ptr_field(st->sdef, n->name) : -1;
    return f >= 0 ? &st->sdef->fields[f] : NULL;
}

/* A pointer read from an argument buffer (a struct in a buffer whose pointer members hold device addresses:
   `args.params[i]`, `a->data`, `args.ptrs[i][j]`): it points to the start of a buffer chosen at run time. */
bool ptr_address_load(Node *n)
{
    n = strip(n);
    if (!n || !n->ty || n->ty->kind != TY_PTR || (n->kind != N_MEMBER && n->kind != N_INDEX))
        return false;
    while (n->kind == N_INDEX && n->a->ty && n->a->ty->kind == TY_ARRAY)
        n = strip(n->a);
    if (n->kind != N_MEMBER || !n->a->ty)
        return false;
    Type *st = n->a->ty->kind == TY_PTR || n->a->ty->kind == TY_REF ? n->a->ty->elem : n->a->ty;
    return st && st->kind == TY_STRUCT && st->sdef->addresses;
}

static Var *spec_lookup(const PtrSpec *s, const Var *v);
static const PtrUnit *spec_unit(const PtrSpec *s, const Var *v);
static Var *root_of(const PtrSpec *s, Node *p, bool addr);
static PtrUnit unit_of(const PtrSpec *s, Node *p, bool addr);

/* ---- pointers kept in structs (docs/translator.md, "Pointers in structs") ----
   A pointer member is an index like any pointer. Its root is kept per object where the object is a variable: a
   local struct in thread memory, a helper's struct parameter (by value or `thread` reference, a member function's
   object included) and what a function returns (Func.ret_object), each member under a variable of its own
   (member_var), so that two objects of one struct type may point into different buffers (MLX's BlockLoader over A
   and over B). A helper taking such an object is specialized for the roots of its pointer members, as for pointer
   parameters (the keys of PtrSpec). Objects reached otherwise (an element of an array of structs, a member of a
   member, a struct in threadgroup memory) share one root per member in the whole kernel (Field.ptr_var in
   L->ptr_fields); a copy from one kind to the other binds the roots, so they must agree. */

static bool holds_pointers(const Type *t)
{
    if (!t || t->kind != TY_STRUCT || t->sdef->is_union)
        return false;
    for (int i = 0; i < t->sdef->n_fields; i++)
        if (pointer_field(t->sdef->fields[i].ty))
            return true;
    return false;
}

/* The struct variable V holds, or refers to in thread memory. */
static Type *object_type(const Var *v)
{
    return v->ty->kind == TY_REF && v->ty->as == AS_THREAD ? v->ty->elem : v->ty;
}

/* Whether V is an object whose pointer members have roots of their own (see above). */
static bool own_object(const Var *v)
{
    if (!v || !holds_pointers(object_type(v)) || v->is_threadgroup || v->role != PR_NONE)
        return false;
    if (v->kind == VAR_LOCAL)
        return v->ty->kind == TY_STRUCT; /* a reference local left a reference is refused by lower.c */
    return v->kind == VAR_PARAM && !(v->owner && v->owner->is_kernel) && (v->ty->kind == TY_STRUCT || v->ty->kind == TY_REF);
}

/* The variable member FI of object OBJ keeps its root under; made when MAKE (else NULL when none yet). */
static Var *member_var(Arena *a, Var *obj, int fi, bool make)
{
    StructDef *sd = object_type(obj)->sdef;
    if (!obj->field_ptrs && make)
        obj->field_ptrs = arena_alloc(a, sizeof(Var *) * (size_t)sd->n_fields);
    if (!obj->field_ptrs)
        return NULL;
    if (!obj->field_ptrs[fi] && make) {
        Var *v = arena_alloc(a, sizeof(Var));
        *v = (Var){.name = arena_printf(a, "%s.%s", obj->name, sd->fields[fi].name), .glsl_name = sd->fields[fi].glsl_name,
                   .ty = sd->fields[fi].ty, .kind = VAR_LOCAL, .loc = obj->loc, .index = -1, .builtin = -1, .tg_index = -1};
        obj->field_ptrs[fi] = v;
    }
    return obj->field_ptrs[fi];
}

/* The object variable that the struct lvalue or value N is (x, *p with p into x), or NULL. */
static Var *object_of(const PtrSpec *s, Node *n)
{
    n = strip(n);
    if (!n)
        return NULL;
    if (n->kind == N_VAR)
        return own_object(n->var) ? n->var : NULL;
    if (n->kind == N_DEREF && n->a->ty && n->a->ty->kind == TY_PTR) {
        Var *r = root_of(s, n->a, false);
        return r && r != &ptr_dynamic && r != &ptr_null && own_object(r) ? r : NULL;
    }
    return NULL;
}

/* Pointer member M (x.f, p->f): its field's index in *SD, and where its root is kept: the specialization S and the
   member's variable of its object, or the kernel-wide L->ptr_fields and Field.ptr_var. Returns the object or NULL. */
static Var *member_place(const PtrSpec *s, Node *m, StructDef **sd, int *fi)
{
    m = member_node(m);
    Type *st = m->a->ty->kind == TY_PTR || m->a->ty->kind == TY_REF ? m->a->ty->elem : m->a->ty;
    *sd = st->sdef;
    *fi = ptr_field(st->sdef, m->name);
    Node *base = strip(m->a);
    if (base->ty && base->ty->kind == TY_PTR) {
        Var *r = root_of(s, base, false);
        return r && r != &ptr_dynamic && r != &ptr_null && own_object(r) ? r : NULL;
    }
    return object_of(s, base);
}

/* The root and unit of pointer member M (NULL: not known). */
static Var *member_root(const PtrSpec *s, Node *m, PtrUnit *u)
{
    StructDef *sd;
    int fi;
    Var *obj = member_place(s, m, &sd, &fi);
    const PtrSpec *in = obj ? s : s && s->L ? s->L->ptr_fields : NULL;
    Var *key = obj ? member_var(NULL, obj, fi, false) : sd->fields[fi].ptr_var;
    const PtrUnit *pu = key ? spec_unit(in, key) : NULL;
    if (u)
        *u = pu ? *pu : (PtrUnit){1, 1, true};
    return key ? spec_lookup(in, key) : NULL;
}

PtrSpec *ptr_call_spec(Lowered *L, const PtrSpec *s, Node *call);

/* The root and unit of pointer member FI of the struct value V; false if not known (yet). */
static bool struct_member(const PtrSpec *s, Node *v, int fi, Var **r, PtrUnit *u)
{
    v = strip(v);
    *r = NULL;
    if (!v || !v->ty || v->ty->kind != TY_STRUCT)
        return false;
    switch (v->kind) {
    case N_INITLIST:
        if (fi >= v->n_list)
            return false;
        *r = root_of(s, v->list[fi], false);
        *u = unit_of(s, v->list[fi], false);
        return *r != NULL;
    case N_CALL: {
        PtrSpec *c = v->fn && v->fn->ret_object && s && s->L ? ptr_call_spec(s->L, s, v) : NULL;
        Var *key = c ? member_var(NULL, v->fn->ret_object, fi, false) : NULL;
        const PtrUnit *pu = key ? spec_unit(c, key) : NULL;
        if (!pu)
            return false;
        *r = spec_lookup(c, key), *u = *pu;
        return *r != NULL;
    }
    case N_ASSIGN:
        return struct_member(s, v->a, fi, r, u);
    case N_CAST:
        return v->a->ty && ty_equal(v->a->ty, v->ty) && struct_member(s, v->a, fi, r, u);
    case N_TERNARY:
        return false; /* copy_object takes each arm */
    default: {
        Var *obj = object_of(s, v);
        const PtrSpec *in = obj ? s : s && s->L ? s->L->ptr_fields : NULL;
        Var *key = obj ? member_var(NULL, obj, fi, false) : v->ty->sdef->fields[fi].ptr_var;
        const PtrUnit *pu = key ? spec_unit(in, key) : NULL;
        if (!pu)
            return false;
        *r = spec_lookup(in, key), *u = *pu;
        return *r != NULL;
    }
    }
}

static Var *spec_lookup(const PtrSpec *s, const Var *v)
{
    for (int i = 0; s && i < s->n; i++)
        if (s->vars[i] == v)
            return s->roots[i];
    return NULL;
}

static const PtrUnit *spec_unit(const PtrSpec *s, const Var *v)
{
    for (int i = 0; s && i < s->n; i++)
        if (s->vars[i] == v)
            return &s->units[i];
    return NULL;
}

static void spec_set(Program *prog, PtrSpec *s, Var *v, Var *root, PtrUnit unit)
{
    for (int i = 0; i < s->n; i++)
        if (s->vars[i] == v) {
            s->roots[i] = root;
            s->units[i] = unit;
            return;
        }
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        Var **nv = arena_alloc(prog->arena, sizeof(Var *) * (size_t)cap), **nr = arena_alloc(prog->arena, sizeof(Var *) * (size_t)cap);
        PtrUnit *nu = arena_alloc(prog->arena, sizeof(PtrUnit) * (size_t)cap);
        if (s->n) {
            memcpy(nv, s->vars, sizeof(Var *) * (size_t)s->n);
            memcpy(nr, s->roots, sizeof(Var *) * (size_t)s->n);
            memcpy(nu, s->units, sizeof(PtrUnit) * (size_t)s->n);
        }
        s->vars = nv, s->roots = nr, s->units = nu, s->cap = cap;
    }
    s->vars[s->n] = v;
    s->units[s->n] = unit;
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
            if (ptr_is_root(p->var) && p->var->ty->kind != TY_PTR)
                return p->var; /* &x of a local (thread memory read as another type) */
            return p->var->ty->kind == TY_REF && ptr_like(p->var) ? spec_lookup(s, p->var) : NULL;
        case N_MEMBER: /* &y[i].b: y read as the member's type (a view, check_view) */
            return p->a->ty && p->a->ty->kind == TY_STRUCT ? root_of(s, p->a, true) : NULL;
        case N_PAREN:
            return root_of(s, p->a, true);
        default:
            return NULL;
        }
    }
    if (ptr_is_null(p))
        return &ptr_null;
    switch (p->kind) {
    case N_VAR:
        if (ptr_is_root(p->var))
            return p->var;
        return ptr_like(p->var) ? spec_lookup(s, p->var) : NULL;
    case N_MEMBER: /* an array member decays: x->qs */
    case N_INDEX:  /* a row of a 2-d array decays: a[i] */
        if (ptr_address_load(p))
            return &ptr_dynamic;
        if (pointer_array(p))
            return spec_lookup(s, pointer_array(p));
        if (pointer_member(p)) /* a pointer kept in a struct: its object's, or the kernel's for every such member */
            return member_root(s, p, NULL);
        return p->ty && p->ty->kind == TY_ARRAY ? root_of(s, p, true) : NULL;
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
        if (a == b || b == &ptr_null)
            return a;
        if (a == &ptr_null) /* c ? p : nullptr: p's root, the index of nothing otherwise */
            return b;
        return addressable(a) && addressable(b) ? &ptr_dynamic : NULL;
    }
    case N_CALL: { /* a helper returning a pointer: the root its specialization for these arguments returns */
        if (!p->fn || p->fn->ret->kind != TY_PTR || !s || !s->L)
            return NULL;
        PtrSpec *c = ptr_call_spec(s->L, s, p);
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

/* ---- how indices count (PtrUnit) ---- */

int ptr_elem_size(const Type *t)
{
    int s = t && t->kind != TY_VOID ? ty_metal_size(t) : 1;
    return s > 0 ? s : 1;
}

static int elem_align(const Type *t)
{
    return t && t->kind != TY_VOID ? ty_metal_align(t) : 1;
}

bool ptr_in_pieces(const Type *t)
{
    return ty_has_union(t);
}

int ptr_field(const StructDef *s, const char *name)
{
    for (int i = 0; s && i < s->n_fields; i++)
        if (!strcmp(s->fields[i].name, name))
            return i;
    return -1;
}

/* A member of S by NAME, also inside its anonymous members (`union { struct { half d, m; }; half2 dm; }`: clang
   names d directly): its byte offset in S and type, and the path of GLSL member names to it; -1 if none. */
int ptr_member(const StructDef *s, const char *name, Type **ty, const char **path, Arena *a)
{
    int f = ptr_field(s, name);
    if (f >= 0) {
        if (ty)
            *ty = s->fields[f].ty;
        if (path)
            *path = s->fields[f].glsl_name;
        return ty_member_offset(s, f);
    }
    for (int i = 0; s && i < s->n_fields; i++) {
        Type *t = s->fields[i].ty;
        if (t->kind != TY_STRUCT || strncmp(s->fields[i].name, "anon", 4))
            continue;
        const char *sub = NULL;
        int off = ptr_member(t->sdef, name, ty, path ? &sub : NULL, a);
        if (off < 0)
            continue;
        if (path)
            *path = arena_printf(a, "%s.%s", s->fields[i].glsl_name, sub);
        return ty_member_offset(s, i) + off;
    }
    return -1;
}

static int gcd(int a, int b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        int t = a % b;
        a = b, b = t;
    }
    return a;
}

/* The largest power of two dividing V (V = 0: any, 256). */
static int pow2_of(long long v)
{
    int p = 1;
    while (p < 256 && v && !(v & p))
        p <<= 1;
    return v ? p : 256;
}

/* Whether a struct, matrix, array or packed 3-vector: a type whose size is not its alignment, or whose members
   have their own offsets. */
static bool composite(const Type *t)
{
    return t && (t->kind == TY_STRUCT || t->kind == TY_ARRAY || t->kind == TY_MAT || ptr_elem_size(t) != elem_align(t));
}

/* A root's own index counts its declared elements (threadgroup memory stored as another type or as words is
   chosen after the pointers are analyzed: choose_memory; accesses through a place use byte offsets). */
static PtrUnit root_unit(const Var *root)
{
    Type *e = root == &ptr_dynamic ? NULL : ptr_decl_elem(root);
    return (PtrUnit){ptr_elem_size(e), 16, composite(e)};
}

/* P moved by C constant bytes and by run-time multiples of M bytes (0: none), now pointing to T. */
static PtrUnit moved(PtrUnit p, long long c, int m, const Type *t, bool through_struct)
{
    PtrUnit r = p;
    r.unit = gcd(gcd(p.unit, ptr_elem_size(t)), (int)(c % 65536));
    if (m)
        r.unit = gcd(r.unit, m);
    if (c)
        r.align = r.align < pow2_of(c) ? r.align : pow2_of(c);
    if (m)
        r.align = r.align < pow2_of(m) ? r.align : pow2_of(m);
    r.tight |= through_struct || composite(t);
    if (r.unit < 1)
        r.unit = 1;
    return r;
}

static PtrUnit merge(PtrUnit a, PtrUnit b)
{
    return (PtrUnit){gcd(a.unit, b.unit), a.align < b.align ? a.align : b.align, a.tight || b.tight};
}

static bool const_int(Node *n, long long *v)
{
    n = strip(n);
    if (n && n->kind == N_INT) {
        *v = n->ival;
        return true;
    }
    if (n && n->kind == N_CAST)
        return const_int(n->a, v);
    return false;
}

/* A pointer to the start of its root (x, (device uchar*)x). */
static bool at_root_start(Node *n)
{
    n = strip(n);
    if (n && n->kind == N_CAST)
        return at_root_start(n->a);
    return n && n->kind == N_VAR && ptr_is_root(n->var);
}

static PtrUnit unit_of(const PtrSpec *s, Node *p, bool addr);

/* The pointer P moved by K elements of its pointee (p + k, p - k, &p[k]). */
static PtrUnit unit_plus(const PtrSpec *s, Node *p, Node *k)
{
    PtrUnit u = unit_of(s, p, false);
    Type *t = p->ty && (p->ty->kind == TY_PTR || p->ty->kind == TY_ARRAY) ? p->ty->elem : NULL;
    int size = ptr_elem_size(t);
    long long c;
    if (k && const_int(k, &c))
        return moved(u, c * size, 0, t, false);
    return moved(u, 0, size, t, false);
}

/* &l, or the address of the array lvalue l as its first element when DECAY. */
static PtrUnit unit_of_lvalue(const PtrSpec *s, Node *l, bool decay)
{
    l = strip(l);
    PtrUnit u = {1, 1, true};
    switch (l->kind) {
    case N_INDEX:
        if (l->a->ty && (l->a->ty->kind == TY_PTR || l->a->ty->kind == TY_ARRAY))
            u = unit_plus(s, l->a, l->b);
        break;
    case N_DEREF:
        u = unit_of(s, l->a, false);
        break;
    case N_VAR:
        if (ptr_is_root(l->var))
            u = root_unit(l->var);
        else if (spec_unit(s, l->var))
            u = *spec_unit(s, l->var);
        break;
    case N_MEMBER: {
        Type *st = l->a->ty;
        int off = st && st->kind == TY_STRUCT ? ptr_member(st->sdef, l->name, NULL, NULL, NULL) : -1;
        if (off >= 0)
            u = moved(unit_of_lvalue(s, l->a, false), off, 0, l->ty, true);
        break;
    }
    default:
        break;
    }
    if (decay && l->ty && l->ty->kind == TY_ARRAY)
        u = moved(u, 0, 0, l->ty->elem, false);
    return u;
}

static int scalar_size(const Type *t)
{
    return ptr_elem_size(ty_scalar(ty_scalar_kind(t)));
}

/* Whether a cast to vector type T of pointer P (counting A) into a buffer keeps the offset in T's scalars: Metal's
   rule would let a T* count whole vectors, but the libraries cast rows at any scalar offset to vectors
   (ggml's mul_mm stores float4 at `dst + row * ne0` for any ne0) and Apple's GPUs access them at the address
   meant. Such an access is whole where the offset is aligned at run time, else component by component. */
static bool runtime_aligned_vector(const PtrSpec *s, Node *p, const Type *t, PtrUnit a)
{
    if (!t || t->kind != TY_VEC || t->packed || a.tight || ty_scalar_kind(t) == TY_BOOL)
        return false;
    if (a.unit % scalar_size(t) && scalar_size(t) % a.unit) /* (bytes, scalars and their multiples only) */
        return false;
    Var *r = root_of(s, p, false);
    return r && r->role == PR_BUFFER;
}

static PtrUnit unit_of(const PtrSpec *s, Node *p, bool addr)
{
    p = strip(p);
    PtrUnit none = {1, 1, true};
    if (!p)
        return none;
    if (addr)
        return unit_of_lvalue(s, p, false);
    switch (p->kind) {
    case N_VAR:
        if (ptr_is_root(p->var))
            return root_unit(p->var);
        return spec_unit(s, p->var) ? *spec_unit(s, p->var) : none;
    case N_MEMBER:
    case N_INDEX:
        if (ptr_address_load(p)) /* the start of its buffer */
            return (PtrUnit){ptr_elem_size(p->ty->elem), 16, composite(p->ty->elem)};
        if (pointer_array(p))
            return spec_unit(s, pointer_array(p)) ? *spec_unit(s, pointer_array(p)) : none;
        if (pointer_member(p)) {
            PtrUnit u;
            return member_root(s, p, &u) ? u : none;
        }
        return p->ty && p->ty->kind == TY_ARRAY ? unit_of_lvalue(s, p, true) : none;
    case N_POSTFIX:
    case N_UNARY:
    case N_ASSIGN:
        return unit_of(s, p->a, false);
    case N_CAST: {
        Type *t = p->ty && p->ty->kind == TY_PTR ? p->ty->elem : NULL;
        int size = ptr_elem_size(t), al = elem_align(t);
        if (at_root_start(p->a))
            return (PtrUnit){size, 16, composite(t)};
        PtrUnit a = unit_of(s, p->a, false), r;
        if (a.unit % size == 0) /* whole elements of T */
            r = (PtrUnit){size, a.tight || a.align >= al ? a.align : al, a.tight};
        else if (a.align < al && runtime_aligned_vector(s, p->a, t, a)) /* a buffer's vector at a run-time offset */
            r = (PtrUnit){scalar_size(t), a.align > scalar_size(t) ? a.align : scalar_size(t), false};
        else if (!a.tight || a.align >= al) /* Metal's rule: a T* is T-aligned */
            r = (PtrUnit){al, a.align >= al ? a.align : al, a.tight};
        else /* a member at a known offset read as a more aligned type: only what the layout proves */
            r = (PtrUnit){gcd(a.unit, size), a.align, true};
        r.tight |= composite(t);
        return r;
    }
    case N_BINARY:
        if (!strcmp(p->op, "+") || !strcmp(p->op, "-")) {
            bool a_ptr = p->a->ty && (p->a->ty->kind == TY_PTR || p->a->ty->kind == TY_ARRAY);
            return unit_plus(s, a_ptr ? p->a : p->b, a_ptr ? p->b : p->a);
        }
        return none;
    case N_ADDR:
        return unit_of_lvalue(s, p->a, false);
    case N_TERNARY:
        if (ptr_is_null(p->b) || ptr_is_null(p->c))
            return unit_of(s, ptr_is_null(p->b) ? p->c : p->b, false);
        return merge(unit_of(s, p->b, false), unit_of(s, p->c, false));
    case N_CALL: {
        PtrSpec *c = p->fn && s && s->L ? ptr_call_spec(s->L, s, p) : NULL;
        return c && c->ret_root ? c->ret_unit : none;
    }
    default:
        return none;
    }
}

PtrUnit ptr_unit(const PtrSpec *s, Node *p)
{
    return unit_of(s, p, false);
}

PtrUnit ptr_addr_unit(const PtrSpec *s, Node *l)
{
    return unit_of(s, l, true);
}

PtrUnit ptr_var_unit(const PtrSpec *s, const Var *v)
{
    if (ptr_is_root(v))
        return root_unit(v);
    const PtrUnit *u = spec_unit(s, v);
    return u ? *u : (PtrUnit){ptr_elem_size(ptr_pointee(v)), 16, false};
}

static bool same_unit(PtrUnit a, PtrUnit b)
{
    return a.unit == b.unit && a.align == b.align && a.tight == b.tight;
}

void ptr_add_ref_type(Lowered *L, Type *elem)
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
    bool objects; /* pointer members kept per object (member_key) */
} PtrPass;

static bool analyze_spec(PtrPass *X, PtrSpec *s);
static void mark_root(Var *root, bool is_const);

/* The element type of buffer R's device address in the push constants (a void* buffer's: bytes). */
Type *ptr_addr_elem(const Var *r)
{
    Type *t = ptr_root_elem(r);
    return t->kind == TY_VOID ? ty_scalar(TY_UCHAR) : t;
}

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
        ptr_add_ref_type(X->L, ptr_addr_elem(r));
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
    if (old && old != r && old != &ptr_null && r != &ptr_null && !((v->ty->kind == TY_PTR || v->ty->kind == TY_ARRAY) && addressable(old) && addressable(r))) {
        if (X->report)
            diag_error(X->prog->diag, loc, "pointer '%s' points into '%s' and into '%s': only pointers into device or constant buffers may be chosen at run time (threadgroup and thread memory have no address in GLSL; choose an index instead)", v->name, old->name, r->name);
        return;
    }
    const PtrUnit *ou = spec_unit(X->spec, v);
    if (r == &ptr_null) { /* p = nullptr: its root stays (one that only ever holds nullptr has root null) */
        if (!old) {
            spec_set(X->prog, X->spec, v, r, (PtrUnit){ptr_elem_size(ptr_pointee(v)), 256, false});
            X->changed = true;
        }
        return;
    }
    if (old == &ptr_null)
        old = NULL, ou = NULL;
    r = !old || old == r ? r : &ptr_dynamic;
    PtrUnit u = unit_of(X->spec, value, addr);
    if (ou)
        u = merge(*ou, u);
    if (old != r || !ou || !same_unit(*ou, u)) {
        spec_set(X->prog, X->spec, v, r, u);
        X->changed = true;
    }
    if (r == &ptr_dynamic && v->ty->kind == TY_ARRAY && v->init && X->report)
        diag_error(X->prog->diag, loc, "array of pointers '%s' into buffers chosen at run time, initialized where it is declared: not supported yet (assign its elements)", v->name);
    if (spec_lookup(X->spec, v) == &ptr_dynamic) {
        ptr_add_ref_type(X->L, ptr_ref_elem(X->spec, v));
        note_addresses(X, value, v->ty->is_const);
    }
}

/* Whether R is memory every function can name: a buffer, threadgroup memory or a program-scope constant. */
static bool global_root(const Var *r)
{
    return r->role == PR_BUFFER || r->role == PR_TGMEM || r->is_threadgroup || r->kind == VAR_GLOBAL;
}

/* The kernel-wide roots of pointer members reached through no object variable (L->ptr_fields). */
static PtrSpec *fields_spec(PtrPass *X)
{
    if (!X->L->ptr_fields) {
        X->L->ptr_fields = arena_alloc(X->prog->arena, sizeof(PtrSpec));
        X->L->ptr_fields->L = X->L;
    }
    return X->L->ptr_fields;
}

/* The kernel-wide variable of member FI of SD (Field.ptr_var). */
static Var *field_var(PtrPass *X, StructDef *sd, int fi)
{
    Field *f = &sd->fields[fi];
    if (!f->ptr_var) {
        f->ptr_var = arena_alloc(X->prog->arena, sizeof(Var));
        *f->ptr_var = (Var){.name = arena_printf(X->prog->arena, "%s::%s", sd->name, f->name), .glsl_name = f->glsl_name, .ty = f->ty,
                            .kind = VAR_LOCAL, .loc = sd->loc, .index = -1, .builtin = -1, .tg_index = -1};
    }
    return f->ptr_var;
}

/* Where member FI of object OBJ (NULL: of every object reached otherwise) keeps its root: *IN and the variable. */
static Var *member_key(PtrPass *X, Var *obj, StructDef *sd, int fi, PtrSpec **in)
{
    if (obj) {
        X->objects = true;
        *in = X->spec;
        return member_var(X->prog->arena, obj, fi, true);
    }
    *in = fields_spec(X);
    return field_var(X, sd, fi);
}

/* Pointer member KEY (kept in IN) now also points into R, counted in U: one buffer or threadgroup array for each. */
static void set_member_root(PtrPass *X, PtrSpec *in, Var *key, Var *r, PtrUnit u, SrcLoc loc)
{
    Var *old = spec_lookup(in, key);
    if (r == &ptr_null) {
        if (!old) {
            spec_set(X->prog, in, key, r, (PtrUnit){ptr_elem_size(ptr_pointee(key)), 256, false});
            X->changed = true;
        }
        return;
    }
    bool two = old && old != r && old != &ptr_null;
    if (r == &ptr_dynamic || !global_root(r) || two) {
        if (X->report)
            diag_error(X->prog->diag, loc, "pointer member '%s' points into %s%s%s%s: a pointer kept in a struct must point into one "
                       "buffer or threadgroup array for each object (the struct keeps an index into it)", key->name,
                       r == &ptr_dynamic ? "" : "'", r == &ptr_dynamic ? "a buffer chosen at run time" : r->name, r == &ptr_dynamic ? "" : "'",
                       two ? arena_printf(X->prog->arena, " and into '%s'", old == &ptr_dynamic ? "a buffer chosen at run time" : old->name)
                           : r != &ptr_dynamic ? " (thread memory)" : "");
        return;
    }
    const PtrUnit *ou = old == &ptr_null ? NULL : spec_unit(in, key);
    if (ou)
        u = merge(*ou, u);
    if (old != r || !ou || !same_unit(*ou, u)) {
        spec_set(X->prog, in, key, r, u);
        X->changed = true;
    }
}

/* A pointer stored into member M of a struct (`rw.in = in_`, a constructor's `in(in_)`, `S s = {x, buf}`). */
static void bind_member(PtrPass *X, Node *m, Node *value, SrcLoc loc)
{
    StructDef *sd;
    int fi;
    Var *obj = member_place(X->spec, m, &sd, &fi);
    if (sd->addresses) {
        if (X->report)
            diag_error(X->prog->diag, loc, "storing a pointer into '%s::%s', whose pointers are device addresses (the struct is in a buffer), is not supported yet (the host writes them)", sd->name, sd->fields[fi].name);
        return;
    }
    PtrSpec *in;
    Var *key = member_key(X, obj, sd, fi, &in);
    Var *r = root_of(X->spec, value, false);
    if (!r) {
        if (X->report)
            diag_error(X->prog->diag, loc, "cannot tell which buffer or array the pointer member '%s' points into", key->name);
        return;
    }
    set_member_root(X, in, key, r, unit_of(X->spec, value, false), loc);
}

/* The struct VALUE (of type SD) copied into object OBJ, or into a struct reached through no object variable (NULL):
   its pointer members' roots go with it, counted in the same steps (the indices are copied as they are). */
static void copy_object(PtrPass *X, Var *obj, StructDef *sd, Node *value, SrcLoc loc)
{
    Node *v = strip(value);
    if (v && v->kind == N_TERNARY) { /* c ? a : b: both */
        copy_object(X, obj, sd, v->b, loc);
        copy_object(X, obj, sd, v->c, loc);
        return;
    }
    for (int fi = 0; fi < sd->n_fields; fi++) {
        Var *r;
        PtrUnit u;
        if (!pointer_field(sd->fields[fi].ty) || !struct_member(X->spec, v, fi, &r, &u))
            continue;
        PtrSpec *in;
        Var *key = member_key(X, obj, sd, fi, &in);
        set_member_root(X, in, key, r, u, loc);
        const PtrUnit *now = spec_unit(in, key);
        if (X->report && r != &ptr_null && now && spec_lookup(in, key) == r && now->unit != u.unit)
            diag_error(X->prog->diag, loc, "this copy of a '%s' keeps pointer member '%s' in steps of %d bytes where the copy "
                       "counts %d: not supported (a pointer kept in a struct counts in one step size)", sd->name, sd->fields[fi].name,
                       u.unit, now->unit);
    }
}

/* The object standing for what F returns (a struct holding pointers). */
static Var *ret_object(PtrPass *X, Func *f)
{
    if (!f->ret_object) {
        f->ret_object = arena_alloc(X->prog->arena, sizeof(Var));
        *f->ret_object = (Var){.name = arena_printf(X->prog->arena, "%s()", f->name), .glsl_name = "ret", .ty = f->ret,
                               .kind = VAR_LOCAL, .loc = f->loc, .index = -1, .builtin = -1, .tg_index = -1};
    }
    return f->ret_object;
}

/* Whether a pointer to ELEM into a root of ROOT_ELEM reads the root itself: packed_float3 (12 bytes) is another
   element type than float3 (16) when cast to, but a packed root read through float3 is the template helper
   instance that clang 14 wrote without the typedef name (casting packed_float3* to float3* is misaligned in Metal). */
bool ptr_same_elem(const Type *root_elem, const Type *elem)
{
    return ty_equal(root_elem, elem) && !(elem->kind == TY_VEC && elem->packed && !root_elem->packed);
}

void ptr_add_view(Program *prog, Lowered *L, Var *root, Type *elem)
{
    if (ptr_same_elem(ptr_root_elem(root), elem) || elem->kind == TY_VOID)
        return;
    for (int i = 0; i < L->ptr_views.len; i += 2)
        if (L->ptr_views.items[i] == root && ty_equal(L->ptr_views.items[i + 1], elem) &&
            ((Type *)L->ptr_views.items[i + 1])->packed == elem->packed)
            return; /* one view per element type */
    (void)prog;
    pv_push(&L->ptr_views, root);
    pv_push(&L->ptr_views, elem);
    switch (ty_scalar_kind(elem)) {
    case TY_BOOL: /* its byte (layout.c) */
    case TY_CHAR:
    case TY_UCHAR:
        L->need_storage8 = L->need_int8 = true;
        break;
    case TY_SHORT:
    case TY_USHORT:
    case TY_BFLOAT:
        L->need_storage16 = L->need_int16 = true;
        break;
    case TY_HALF:
        L->need_storage16 = L->need_float16 = true;
        break;
    default:
        break;
    }
}

/* Whether accesses through a pointer of UNIT to ELEM are read member by member (ptr.c's "pieces"): it counts in
   other steps than ELEM's size, or ELEM has no GLSL type of its layout (a union). */
static bool by_members(PtrUnit u, const Type *elem)
{
    return elem && elem->kind != TY_VOID && (u.unit != ptr_elem_size(elem) || ptr_in_pieces(elem));
}

/* The element type of the buffer reference a pointer variable chosen at run time carries (p_ref): its pointee,
   or bytes where it is read member by member (a block made from bytes: each member through a reference of its
   own type, mtl_ref_float16_t(p_ref).v[i]). */
Type *ptr_ref_elem(const PtrSpec *s, const Var *v)
{
    Type *t = ptr_pointee(v);
    return by_members(ptr_var_unit(s, v), t) ? ty_scalar(TY_UCHAR) : t;
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
            ptr_add_ref_type(X->L, elem);
        return;
    }
    Type *re = ptr_root_elem(root);
    if (ptr_same_elem(re, elem) || elem->kind == TY_VOID)
        return;
    if (elem->kind == TY_STRUCT && ptr_in_pieces(elem) && root->role == PR_BUFFER)
        return; /* read by members (emit_glsl.c), each member through its own view */
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
    if (root->is_threadgroup || root->role == PR_TGMEM)
        return; /* stored as the one type it is read as, or as words (ptr_analyze) */
    if (root->role != PR_BUFFER) {
        /* thread memory and program-scope constants: a scalar read as another scalar, its bits taken apart */
        if (ptr_struct_array(root) && ty_is_scalar(elem))
            re = ptr_struct_array(root)->ty->elem; /* a struct of one array: its elements */
        bool ok = ty_is_scalar(elem) && ty_is_scalar(re) && ty_scalar_kind(elem) != TY_BOOL && ty_scalar_kind(re) != TY_BOOL &&
                  ty_scalar_kind(elem) != TY_DOUBLE && ty_scalar_kind(re) != TY_DOUBLE;
        if (!ok)
            diag_error(X->prog->diag, loc, "a %s pointer into '%s' (of %s) is not supported: thread memory and constants are read as another "
                       "scalar type only (threadgroup memory and buffers as any type)",
                       ty_metal_name(X->prog->arena, elem), root->name, ty_metal_name(X->prog->arena, re));
        return;
    }
    if (elem->kind == TY_STRUCT && !layout_struct(X->prog, elem->sdef, loc, true))
        return;
    if (elem->kind == TY_PTR || elem->kind == TY_UNSUPPORTED) {
        diag_error(X->prog->diag, loc, "a buffer cannot be read as %s", ty_metal_name(X->prog->arena, elem));
        return;
    }
    ptr_add_view(X->prog, X->L, root, elem);
}

/* Threadgroup root R accessed as T; WRITTEN: the part of it a store writes (T, a member or a component), or NULL
   for a load. Recorded once per kind for choose_memory. */
static void note_use(PtrPass *X, Var *r, Type *t, Type *written)
{
    if (!r || r == &ptr_dynamic || !(r->is_threadgroup || r->role == PR_TGMEM) || !t || t->kind == TY_VOID || !X->report)
        return;
    if (t->kind == TY_REF)
        t = t->elem;
    PtrVec *u = &X->L->ptr_mem_uses;
    for (int i = 0; i < u->len; i += 3)
        if (u->items[i] == r && ty_equal(u->items[i + 1], t) && ((Type *)u->items[i + 1])->packed == t->packed &&
            u->items[i + 2] == written)
            return;
    pv_push(u, r);
    pv_push(u, t);
    pv_push(u, written);
}

/* The threadgroup root an lvalue L is in and what is written: p[i] = v, p->f.x = v, tile[i] = v, total = v. */
static void note_store(PtrPass *X, Node *l)
{
    Node *a = strip(l);
    Type *t = l->ty;
    while (a && (a->kind == N_MEMBER || a->kind == N_SWIZZLE || (a->kind == N_INDEX && a->a->ty && a->a->ty->kind != TY_PTR &&
                                                                 !(strip(a->a)->kind == N_VAR && ptr_is_root(strip(a->a)->var)))))
        a = strip(a->a);
    if (!a || !t)
        return;
    if (t->kind == TY_REF)
        t = t->elem;
    if ((a->kind == N_INDEX || a->kind == N_DEREF) && a->a->ty && a->a->ty->kind == TY_PTR && root_of(X->spec, a->a, false) == &ptr_null &&
        X->report)
        diag_error(X->prog->diag, l->loc, "this pointer is nullptr here: writing through it is not supported (undefined in Metal)");
    if ((a->kind == N_INDEX || a->kind == N_DEREF) && a->a->ty && a->a->ty->kind == TY_PTR)
        note_use(X, root_of(X->spec, a->a, false), a->ty, t);
    else if (a->kind == N_INDEX && strip(a->a)->kind == N_VAR)
        note_use(X, strip(a->a)->var, a->ty, t);
    else if (a->kind == N_VAR && ptr_is_root(a->var))
        note_use(X, a->var, a->var->ty, t);
}

static void mark_root(Var *root, bool is_const)
{
    if (!root)
        return;
    root->read = true;
    if (!is_const)
        root->written = true;
    if (!is_const && root->kind == VAR_PARAM && root->ty->kind == TY_ARRAY)
        root->is_out_param = true; /* `thread T vals[N]` written through a pointer: inout, as lower.c makes it written */
}

/* The keys F is specialized for: each pointer parameter (FIELD -1), and each pointer member FIELD of each struct
   parameter that is an object of its own. Fills PARAM and FIELD; returns how many, or -1 if more than MAX_KEYS. */
enum { MAX_KEYS = 128 };
static int spec_keys(const Func *f, short *param, short *field)
{
    int n = 0;
    for (int i = 0; i < f->n_params; i++) {
        Var *p = f->params[i];
        if (ptr_like(p)) {
            if (n == MAX_KEYS)
                return -1;
            param[n] = (short)i, field[n++] = -1;
            continue;
        }
        if (!own_object(p))
            continue;
        StructDef *sd = object_type(p)->sdef;
        for (int fi = 0; fi < sd->n_fields; fi++)
            if (pointer_field(sd->fields[fi].ty)) {
                if (n == MAX_KEYS)
                    return -1;
                param[n] = (short)i, field[n++] = (short)fi;
            }
    }
    return n;
}

static PtrSpec *find_spec(Lowered *L, Func *f, Var **roots, PtrUnit *units, int n)
{
    for (int i = 0; i < L->ptr_specs.len; i++) {
        PtrSpec *s = L->ptr_specs.items[i];
        if (s->f != f || s->n_keys != n)
            continue;
        bool same = true;
        for (int j = 0; j < n; j++) {
            same &= s->key_roots[j] == roots[j];
            if (roots[j])
                same &= same_unit(s->key_units[j], units[j]);
        }
        if (same)
            return s;
    }
    return NULL;
}

/* The roots and units of CALL's keys in specialization S (arrays of MAX_KEYS): its pointer arguments and the pointer
   members of its struct arguments. Returns the number of keys, -1 if too many. */
static int call_roots(const PtrSpec *s, Node *call, Var **roots, PtrUnit *units, short *param, short *field)
{
    Func *f = call->fn;
    int n = spec_keys(f, param, field);
    for (int k = 0; k < n; k++) {
        int i = param[k];
        if (i >= call->n_list)
            continue;
        Type *elem;
        if (field[k] < 0) {
            bool addr = f->params[i]->ty->kind == TY_REF;
            roots[k] = root_of(s, call->list[i], addr);
            units[k] = unit_of(s, call->list[i], addr);
            elem = f->params[i]->ty->elem;
        } else {
            if (!struct_member(s, call->list[i], field[k], &roots[k], &units[k]))
                roots[k] = NULL;
            Type *ft = object_type(f->params[i])->sdef->fields[field[k]].ty;
            elem = ft->kind == TY_ARRAY ? ft->elem->elem : ft->elem;
        }
        if (roots[k] && !units[k].tight) /* only a struct's layout makes the alignment matter (pieces): one specialization */
            units[k].align = elem_align(elem);
    }
    return n;
}

PtrSpec *ptr_call_spec(Lowered *L, const PtrSpec *s, Node *call)
{
    Func *f = call->fn;
    if (!f)
        return NULL;
    Var *roots[MAX_KEYS] = {0};
    PtrUnit units[MAX_KEYS] = {{0}};
    short param[MAX_KEYS], field[MAX_KEYS];
    int n = call_roots(s, call, roots, units, param, field);
    return n < 0 ? NULL : find_spec(L, f, roots, units, n);
}

/* A helper's reference to a pointer (`const device T*& x`, an inout index: lower.c) moves its caller's pointer ARG
   within the buffer or array it points into, which must stay the same, counted in the same steps. */
static void check_pointer_reference(PtrPass *X, Func *f, Var *p, PtrSpec *c, Var *root, PtrUnit unit, Node *arg)
{
    Var *now = spec_lookup(c, p);
    const PtrUnit *u = spec_unit(c, p);
    Node *a = strip(arg);
    if (root == &ptr_dynamic || now == &ptr_dynamic)
        diag_error(X->prog->diag, arg->loc, "'%s' takes a reference to the pointer '%s', here a pointer into a buffer chosen at run time: not supported (pass the pointer by value and return the moved one)", f->name, p->name);
    else if (now != root || (u && !same_unit(*u, unit)))
        diag_error(X->prog->diag, arg->loc, "'%s' points its pointer reference '%s' into '%s' or moves it by parts of an element: not supported (a moved pointer keeps to its buffer or array and element type)", f->name, p->name, now ? now->name : "an unknown place");
    else if (!(a->kind == N_VAR && ptr_like(a->var)) && !pointer_array(a))
        diag_error(X->prog->diag, arg->loc, "'%s' takes a reference to the pointer '%s': pass a pointer variable", f->name, p->name);
}

static void walk(PtrPass *X, Node *n);

/* A struct value copied whole (VALUE of a definition, assignment or return): a list's own elements only (the
   copy binds the pointer members it gives: copy_object). */
static void walk_value(PtrPass *X, Node *value)
{
    Node *v = strip(value);
    if (v && v->kind == N_INITLIST && v->ty && v->ty->kind == TY_STRUCT) {
        for (int i = 0; i < v->n_list; i++)
            walk(X, v->list[i]);
        return;
    }
    walk(X, value);
}

/* Call N: the specialization of its function for the roots of its keys (made and analyzed when new). */
static void walk_call(PtrPass *X, Node *n)
{
    Func *f = n->fn;
    Var *roots[MAX_KEYS] = {0};
    PtrUnit units[MAX_KEYS] = {{0}};
    short param[MAX_KEYS], field[MAX_KEYS];
    int nk = call_roots(X->spec, n, roots, units, param, field);
    if (nk < 0) {
        if (X->report)
            diag_error(X->prog->diag, n->loc, "'%s' takes more than %d pointers (parameters and pointer members of struct parameters): not supported", f->name, MAX_KEYS);
        return;
    }
    for (int k = 0; k < nk; k++) {
        int i = param[k];
        if (field[k] >= 0 || i >= n->n_list)
            continue;
        if (!roots[k] && X->report)
            diag_error(X->prog->diag, n->list[i]->loc, "cannot tell which buffer or array argument '%s' of '%s' points into", f->params[i]->name, f->name);
        if (roots[k] == &ptr_dynamic)
            note_addresses(X, n->list[i], f->params[i]->ty->is_const);
        mark_root(roots[k], f->params[i]->ty->is_const);
    }
    if (!find_spec(X->L, f, roots, units, nk)) {
        PtrSpec *s = arena_alloc(X->prog->arena, sizeof *s);
        s->f = f;
        s->L = X->L;
        s->n_keys = nk;
        s->key_roots = arena_alloc(X->prog->arena, sizeof(Var *) * (size_t)(nk + 1));
        s->key_units = arena_alloc(X->prog->arena, sizeof(PtrUnit) * (size_t)(nk + 1));
        memcpy(s->key_roots, roots, sizeof(Var *) * (size_t)nk);
        memcpy(s->key_units, units, sizeof(PtrUnit) * (size_t)nk);
        const char *name = f->glsl_name;
        for (int k = 0; k < nk; k++) {
            if (!roots[k])
                continue;
            Var *p = f->params[param[k]];
            if (field[k] >= 0)
                X->objects = true;
            spec_set(X->prog, s, field[k] < 0 ? p : member_var(X->prog->arena, p, field[k], true), roots[k], units[k]);
            name = arena_printf(X->prog->arena, "%s_%s", name, roots[k] == &ptr_null ? "null" : roots[k]->glsl_name);
        }
        const char *base = name;
        for (int i = 0, k = 2; i < X->L->ptr_specs.len; i++) /* the same roots in other units */
            if (((PtrSpec *)X->L->ptr_specs.items[i])->f == f && !strcmp(((PtrSpec *)X->L->ptr_specs.items[i])->glsl_name, name))
                name = arena_printf(X->prog->arena, "%s_%d", base, k++), i = -1;
        s->glsl_name = name;
        pv_push(&X->L->ptr_specs, s);
        PtrSpec *saved = X->spec;
        analyze_spec(X, s);
        X->spec = saved;
        X->changed = true; /* what it returns may bind pointers of the caller */
    }
    PtrSpec *c = find_spec(X->L, f, roots, units, nk);
    for (int k = 0; c && k < nk; k++) {
        int i = param[k];
        Var *p = f->params[i];
        if (i >= n->n_list || !roots[k])
            continue;
        if (field[k] < 0) {
            if (roots[k] != &ptr_dynamic && spec_lookup(c, p) == &ptr_dynamic) /* a parameter the helper moves to another buffer */
                note_addresses(X, n->list[i], p->ty->is_const);
            if (X->report && p->ty->kind == TY_PTR && p->is_out_param)
                check_pointer_reference(X, f, p, c, roots[k], units[k], n->list[i]);
            continue;
        }
        /* the object's pointer member as the helper leaves it: where its caller's copy (or the object itself,
           passed by reference) says it points, counted in the same steps */
        Var *mv = member_var(X->prog->arena, p, field[k], true);
        const PtrUnit *u = spec_unit(c, mv);
        if (X->report && (spec_lookup(c, mv) != roots[k] || !u || u->unit != units[k].unit))
            diag_error(X->prog->diag, n->list[i]->loc, "'%s' points the pointer member '%s' of its parameter '%s' into '%s' or moves it by parts of "
                       "an element: not supported (a pointer kept in a struct keeps to its buffer or array and element type)",
                       f->name, object_type(p)->sdef->fields[field[k]].name, p->name,
                       spec_lookup(c, mv) && spec_lookup(c, mv) != &ptr_dynamic ? spec_lookup(c, mv)->name : "another place");
    }
}

static void walk(PtrPass *X, Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case N_VARDEF:
        if (ptr_like(n->var) && n->var->ty->kind == TY_ARRAY) { /* an array of pointers: each element it starts with */
            Node *init = strip(n->var->init);
            for (int i = 0; init && init->kind == N_INITLIST && i < init->n_list; i++)
                bind(X, n->var, init->list[i], false, init->list[i]->loc);
            if (init && init->kind != N_INITLIST && X->report)
                diag_error(X->prog->diag, n->var->loc, "array of pointers '%s': this initializer is not supported (list its pointers)", n->var->name);
        } else if (ptr_like(n->var) && n->var->init)
            bind(X, n->var, n->var->init, n->var->ty->kind == TY_REF, n->var->loc);
        else if (ptr_like(n->var) && X->report && !spec_lookup(X->spec, n->var))
            diag_error(X->prog->diag, n->var->loc, "pointer '%s' needs an initial value that says which buffer or array it points into", n->var->name);
        else if (own_object(n->var) && n->var->init) { /* S s = make(...), S s = t, S s = {x, buf} */
            copy_object(X, n->var, n->var->ty->sdef, n->var->init, n->var->loc);
            walk_value(X, n->var->init);
            return;
        }
        walk(X, n->var->init);
        return;
    case N_ASSIGN: {
        Node *a = strip(n->a);
        if (ptr_address_load(a)) { /* args.params[i] = p: an address the host writes */
            if (X->report)
                diag_error(X->prog->diag, n->loc, "writing a pointer into a struct in a buffer (a device address there) is not supported yet (the host writes them)");
            break;
        }
        if (a->kind == N_VAR && a->var->ty->kind == TY_PTR && ptr_like(a->var) && !strcmp(n->op, "="))
            bind(X, a->var, n->b, false, n->loc);
        else if (pointer_array(a) && !strcmp(n->op, "=")) /* rows[j] = p */
            bind(X, pointer_array(a), n->b, false, n->loc);
        else if (pointer_member(a) && !strcmp(n->op, "=")) /* rw.in = in_ */
            bind_member(X, a, n->b, n->loc);
        else if (holds_pointers(n->a->ty) && !strcmp(n->op, "=")) { /* s = t: the members' roots go with the copy */
            note_store(X, n->a);
            copy_object(X, object_of(X->spec, a), n->a->ty->sdef, n->b, n->loc);
            walk(X, n->a);
            walk_value(X, n->b);
            return;
        } else
            note_store(X, n->a);
        break;
    }
    case N_INITLIST: /* S s = {x, buf} of no object variable: its pointer members; S a[2] = {s, t}: theirs */
        for (int i = 0; n->ty && n->ty->kind == TY_ARRAY && holds_pointers(n->ty->elem) && i < n->n_list; i++)
            if (strip(n->list[i])->kind != N_INITLIST)
                copy_object(X, NULL, n->ty->elem->sdef, n->list[i], n->list[i]->loc);
        if (n->ty && n->ty->kind == TY_STRUCT)
            for (int i = 0; i < n->n_list && i < n->ty->sdef->n_fields; i++)
                if (n->ty->sdef->fields[i].ty->kind == TY_PTR) {
                    Node m = {.kind = N_MEMBER, .loc = n->list[i]->loc, .ty = n->ty->sdef->fields[i].ty, .name = n->ty->sdef->fields[i].name};
                    Node obj = {.kind = N_INT, .ty = n->ty};
                    m.a = &obj;
                    bind_member(X, &m, n->list[i], n->list[i]->loc);
                }
        break;
    case N_POSTFIX:
    case N_UNARY:
        if ((!strcmp(n->op, "++") || !strcmp(n->op, "--")) && ptr_address_load(n->a) && X->report)
            diag_error(X->prog->diag, n->loc, "writing a pointer into a struct in a buffer (a device address there) is not supported yet (the host writes them)");
        else if (!strcmp(n->op, "++") || !strcmp(n->op, "--"))
            note_store(X, n->a);
        break;
    case N_RETURN:
        if (n->a && X->spec->f->ret->kind == TY_PTR) {
            Var *r = root_of(X->spec, n->a, false), *old = X->spec->ret_root;
            PtrUnit u = unit_of(X->spec, n->a, false);
            if (!r && X->report)
                diag_error(X->prog->diag, n->loc, "cannot tell which buffer or array the pointer '%s' returns points into", X->spec->f->name);
            else if (r == &ptr_dynamic || (old && r && old != r)) {
                if (X->report)
                    diag_error(X->prog->diag, n->loc, "'%s' returns a pointer into a buffer chosen at run time: not supported (a returned pointer keeps to one buffer or array)", X->spec->f->name);
            } else if (r && !old) {
                X->spec->ret_root = r;
                X->spec->ret_unit = u;
                X->changed = true;
            } else if (r && !same_unit(merge(X->spec->ret_unit, u), X->spec->ret_unit)) {
                X->spec->ret_unit = merge(X->spec->ret_unit, u);
                X->changed = true;
            }
        }
        if (n->a && holds_pointers(X->spec->f->ret)) { /* return self: the members' roots of what it returns */
            copy_object(X, ret_object(X, X->spec->f), X->spec->f->ret->sdef, n->a, n->loc);
            walk_value(X, n->a);
            return;
        }
        break;
    case N_INDEX:
    case N_DEREF:
        if (n->a->ty && n->a->ty->kind == TY_PTR) {
            Var *r = root_of(X->spec, n->a, false);
            if (!r && X->report && strip(n->a)->kind == N_MEMBER && !pointer_member(n->a))
                diag_error(X->prog->diag, n->loc, "pointers stored in structs are not supported here (a pointer is an index into one buffer or array: keep it in a variable)");
            else if (!r && X->report && pointer_member(n->a))
                diag_error(X->prog->diag, n->loc, "cannot tell which buffer or array the pointer member '%s' points into", pointer_member(n->a)->name);
            else if (!r && X->report)
                diag_error(X->prog->diag, n->loc, "cannot tell which buffer or array this pointer points into");
            if (r == &ptr_null)
                break; /* read under a test of it (p ? p[0] : d): never reached; a write is an error (note_store) */
            if (rows_root(r) && (!ty_equal(n->a->ty->elem, r->ty->elem) || unit_of(X->spec, n->a, false).unit != ptr_elem_size(r->ty->elem))) {
                if (X->report)
                    diag_error(X->prog->diag, n->loc, "a pointer into a row of the multi-dimensional threadgroup array '%s' is not supported yet (pass the whole array, or index it)", r->name);
                break;
            }
            if (!by_members(unit_of(X->spec, n->a, false), n->a->ty->elem) || (r && r->role != PR_BUFFER && r != &ptr_dynamic))
                check_view(X, r, n->a->ty->elem, n->loc);
            note_use(X, r, n->ty, NULL);
            if (r == &ptr_dynamic)
                note_addresses(X, n->a, n->a->ty->is_const);
            if (strip(n->a)->kind != N_VAR || !ptr_is_root(strip(n->a)->var))
                mark_root(r, n->a->ty->is_const);
        } else if (n->kind == N_INDEX && strip(n->a)->kind == N_VAR && ptr_is_root(strip(n->a)->var)) {
            note_use(X, strip(n->a)->var, n->ty, NULL); /* tile[i] */
        }
        break;
    case N_VAR:
        if (ptr_is_root(n->var) && n->var->ty->kind != TY_ARRAY && n->var->ty->kind != TY_PTR)
            note_use(X, n->var, n->var->ty, NULL); /* a threadgroup scalar read */
        break;
    case N_BINARY:
        if (n->a->ty && n->a->ty->kind == TY_PTR && n->b->ty && n->b->ty->kind == TY_PTR && strcmp(n->op, "-")) {
            /* p == q, src1 != src0: pointers into different buffers compare their addresses (ggml binds one buffer
               at two indices and compares them); different threadgroup or thread arrays are different objects */
            Var *ra = root_of(X->spec, n->a, false), *rb = root_of(X->spec, n->b, false);
            if (ra && rb && ra != rb && ra != &ptr_null && rb != &ptr_null && ra != &ptr_dynamic && rb != &ptr_dynamic) {
                if (ra->role == PR_BUFFER && rb->role == PR_BUFFER) {
                    note_addresses(X, n->a, true);
                    note_addresses(X, n->b, true);
                } else if (X->report && strcmp(n->op, "==") && strcmp(n->op, "!=")) {
                    diag_error(X->prog->diag, n->loc, "'%s' between pointers into '%s' and into '%s' is not supported (they are different objects)", n->op, ra->name, rb->name);
                }
            }
        }
        break;
    case N_CALL:
        if (n->fn)
            walk_call(X, n);
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

/* Analyzes specialization S until its roots settle; returns whether anything changed on the way. */
static bool analyze_spec(PtrPass *X, PtrSpec *s)
{
    bool report = X->report, any = false;
    X->spec = s;
    for (int round = 0; round < 8; round++) {
        X->changed = false;
        X->report = false;
        walk(X, s->f->body);
        any |= X->changed;
        if (!X->changed)
            break;
    }
    X->report = report;
    if (report)
        walk(X, s->f->body);
    return any;
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
        PtrSpec *c = ptr_call_spec(L, s, n);
        if (c && !c->used) {
            c->used = true;
            reach(L, c, n->fn->body);
        }
    }
    reach(L, s, n->a);
    reach(L, s, n->b);
    reach(L, s, n->c);
    reach(L, s, n->d);
    for (int i = 0; i < n->n_list; i++)
        reach(L, s, n->list[i]);
}

/* A scalar or vector that threadgroup memory stored as words is read and written as. */
static bool word_leaf(const Type *c)
{
    return (ty_is_scalar(c) || (c->kind == TY_VEC && !(c->packed && c->n == 3))) && ty_scalar_kind(c) != TY_BOOL &&
           ty_scalar_kind(c) != TY_DOUBLE;
}

/* A struct of such scalars and vectors (MLX's complex64_t: two floats), read and written member by member where
   threadgroup memory is stored as words (a complex tile read as floats). */
bool ptr_word_struct(const Type *t)
{
    if (!t || t->kind != TY_STRUCT || t->sdef->is_union || t->sdef->empty || t->sdef->n_fields == 0)
        return false;
    for (int i = 0; i < t->sdef->n_fields; i++)
        if (!word_leaf(t->sdef->fields[i].ty))
            return false;
    return true;
}

/* How threadgroup memory read through pointers of other types is stored (docs/translator.md, "Pointers"):
   read as one type only, it is an array of that type (ggml's `threadgroup char* shmem` read as float); read and
   written as several, an array of unsigned words as wide as the narrowest alignment written (at most 4 bytes), so
   that no store writes part of a word another thread may write, and each access is put together from words. */
static void choose_memory(Program *prog, Lowered *L)
{
    PtrVec *u = &L->ptr_mem_uses;
    for (int i = 0; i < L->tg_vars.len; i++) {
        Var *r = L->tg_vars.items[i];
        Type *own = ptr_decl_elem(r), *one = NULL;
        bool several = false, own_used = false, leaf = true;
        int word = 4;
        for (int j = 0; j < u->len; j += 3) {
            Type *t = u->items[j + 1];
            if (u->items[j] != r)
                continue;
            own_used |= ptr_same_elem(own, t);
            if (one && !(ty_equal(one, t) && one->packed == t->packed))
                several = true;
            one = one ? one : t;
            Type *c = t->kind == TY_MAT ? t->elem : t; /* a matrix: its columns */
            leaf &= word_leaf(c) || ptr_word_struct(t);
            if (u->items[j + 2] && ty_metal_align(u->items[j + 2]) < word)
                word = ty_metal_align(u->items[j + 2]);
        }
        bool lanes_only = r->view_lanes != 0;
        for (int j = 0; j < u->len && lanes_only; j += 3) /* scalars and vectors of them only: stored as the vectors */
            if (u->items[j] == r)
                lanes_only = ty_scalar_kind(u->items[j + 1]) == ty_scalar_kind(own) &&
                             (ty_width(u->items[j + 1]) == 1 || ty_width(u->items[j + 1]) == r->view_lanes);
        if (r->view_lanes && !lanes_only)
            r->view_lanes = 0; /* other types too: words */
        if (!one || r->view_lanes || r->atomic_bits || (!several && own_used))
            continue; /* as declared (or as its vectors: view_lanes) */
        int bytes = r->role == PR_TGMEM ? 0 : ty_metal_size(r->ty);
        if (!several) {
            if (bytes % ptr_elem_size(one))
                diag_error(prog->diag, r->loc, "threadgroup memory '%s' (%d bytes) is read as %s, which does not divide it", r->name, bytes,
                           ty_metal_name(prog->arena, one));
            r->mem_type = one;
            continue;
        }
        if (!leaf || (own->kind == TY_ATOMIC)) {
            diag_error(prog->diag, r->loc, "threadgroup memory '%s' is read as several types, among them %s: only scalars, vectors, "
                       "matrices and structs of scalars and vectors are supported there (other structs: read it as one type)", r->name, ty_metal_name(prog->arena, one));
            continue;
        }
        if (bytes % word)
            word = bytes % 2 ? 1 : 2;
        r->mem_word = word;
        r->mem_type = ty_scalar(word == 1 ? TY_UCHAR : word == 2 ? TY_USHORT : TY_UINT);
    }
}

bool ptr_analyze(Program *prog, Lowered *L)
{
    int before = prog->diag->n_errors;
    PtrPass X = {.prog = prog, .L = L};
    for (int i = 0; i < L->tg_vars.len; i++) { /* chosen per kernel (a helper's array may serve several) */
        ((Var *)L->tg_vars.items[i])->mem_type = NULL;
        ((Var *)L->tg_vars.items[i])->mem_word = 0;
    }
    PtrSpec *k = arena_alloc(prog->arena, sizeof *k);
    k->f = L->kernel;
    k->L = L;
    k->glsl_name = "main";
    k->key_roots = arena_alloc(prog->arena, sizeof(Var *) * (size_t)(k->f->n_params + 1));
    k->key_units = arena_alloc(prog->arena, sizeof(PtrUnit) * (size_t)(k->f->n_params + 1));
    pv_push(&L->ptr_specs, k);
    analyze_spec(&X, k); /* finds every specialization, reporting nothing */
    for (int again = 0; again < 8 && (L->ptr_fields || X.objects); again++) { /* pointer members bound after a helper was analyzed */
        bool changed = false;
        for (int i = 0; i < L->ptr_specs.len; i++) {
            changed |= analyze_spec(&X, L->ptr_specs.items[i]);
        }
        if (!changed && again >= 1)
            break;
    }
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
            for (int t = 0; t < L->ptr_specs.len; t++) /* a caller's local passed beside it (rope_yarn's cos_theta) */
                for (int m = 0; m < ((PtrSpec *)L->ptr_specs.items[t])->n; m++) {
                    Var *r = ((PtrSpec *)L->ptr_specs.items[t])->roots[m];
                    clash |= r && r != v && r != &ptr_dynamic && (r->kind == VAR_LOCAL || r->kind == VAR_PARAM) && !r->is_threadgroup &&
                             !strcmp(v->glsl_name, r->glsl_name);
                }
            if (clash)
                v->glsl_name = arena_printf(prog->arena, "%s%sp", v->glsl_name, /* out_ -> out_p, not out__p: GLSL
                                                                                       reserves "__" */
                                            v->glsl_name[0] && v->glsl_name[strlen(v->glsl_name) - 1] == '_' ? "" : "_");
        }
    }
    X.report = true;
    k->used = true;
    reach(L, k, k->f->body); /* specializations made on the way for roots not known yet are not reported */
    for (int i = L->ptr_specs.len - 1; i >= 0; i--) { /* helpers first: an error there explains its callers' */
        X.spec = L->ptr_specs.items[i];
        if (!X.spec->used)
            continue;
        walk(&X, X.spec->f->body); /* the specs are complete: report what has no root */
        if (prog->diag->n_errors != before)
            break;
    }
    if (prog->diag->n_errors == before)
        choose_memory(prog, L);
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
