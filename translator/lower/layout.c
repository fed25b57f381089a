/* layout.c: Metal's buffer layout expressed in std430.
 *
 * Metal lays structs out by C's rules with its own sizes: a 3-component vector is as large and as aligned as
 * the 4-component one (float3: 16 bytes), scalars and 2/4-vectors are their natural size. std430 agrees
 * for every scalar, 2/4-vector, array (an array of vec3 has a 16-byte stride in both) and struct, except
 * that a vec3 member is 12 bytes: the next member may start in its fourth slot. Padding members placed
 * where the two layouts part (and at a struct's end) make std430 give Metal's offsets exactly, so host
 * data laid out for Metal is read unchanged and the GLSL still names every member as the source does.
 *
 * Packed vectors (packed_float3: 12 bytes, 4-aligned) have no std430 form, so a struct holding one, and every
 * struct inside such a struct, is laid out in GL_EXT_scalar_block_layout instead (a vector aligned as its
 * scalar, array strides the element's size): the same padding members then give Metal's offsets there, and
 * the blocks holding such a struct or a packed vector are declared layout(scalar).
 */
#include "internal.h"

/* Bytes of a scalar in std430: Metal's size (types.c; bool is stored as uint8_t), except double (float here). */
static int scalar_bytes(TypeKind k)
{
    if (k == TY_DOUBLE)
        return 4;
    return ty_metal_size(ty_scalar(k));
}

static int pads_size(const unsigned char *pad, int n)
{
    int size = 0;
    for (int i = 0; i < n; i++)
        size += pad[i];
    return size;
}

/* Alignment in std430, or in the scalar block layout when SCALAR. */
static int glsl_align(const Type *t, bool scalar);

static int glsl_align_raw(const Type *t, bool scalar)
{
    switch (t->kind) {
    case TY_VEC:
        return scalar_bytes(t->elem->kind) * (scalar ? 1 : t->n == 3 ? 4 : t->n);
    case TY_ARRAY:
    case TY_ATOMIC:
    case TY_MAT: /* an array of its column vectors */
        return glsl_align(t->elem, scalar);
    case TY_STRUCT: {
        int align = 1;
        for (int i = 0; i < t->sdef->n_fields; i++) {
            Field *f = &t->sdef->fields[i];
            int a = glsl_align(f->ty, scalar);
            align = a > align ? a : align;
            for (int j = 0; j < f->n_pad; j++)
                align = f->pad[j] > align ? f->pad[j] : align;
        }
        return align;
    }
    case TY_PTR: /* a device address (uint64_t) in a struct in a buffer */
        return 8;
    default:
        return scalar_bytes(t->kind);
    }
}

/* Never 0 (a type without a layout, e.g. an unsupported member, after its error): callers round offsets by it. */
static int glsl_align(const Type *t, bool scalar)
{
    int a = glsl_align_raw(t, scalar);
    return a > 0 ? a : 1;
}

static int glsl_size(const Type *t, bool scalar)
{
    switch (t->kind) {
    case TY_VEC:
        return scalar_bytes(t->elem->kind) * t->n;
    case TY_ARRAY:
    case TY_MAT: {
        int a = glsl_align(t->elem, scalar), s = glsl_size(t->elem, scalar);
        return t->n * ((s + a - 1) / a * a);
    }
    case TY_ATOMIC:
        return glsl_size(t->elem, scalar);
    case TY_STRUCT: {
        int off = 0;
        for (int i = 0; i < t->sdef->n_fields; i++) {
            Field *f = &t->sdef->fields[i];
            off += pads_size(f->pad, f->n_pad);
            int a = glsl_align(f->ty, scalar);
            off = (off + a - 1) / a * a + glsl_size(f->ty, scalar);
        }
        off += pads_size(t->sdef->tail_pad, t->sdef->n_tail_pad);
        int a = glsl_align(t, scalar);
        return (off + a - 1) / a * a;
    }
    case TY_PTR:
        return 8;
    default:
        return scalar_bytes(t->kind);
    }
}

int layout_std430_align(const Type *t)
{
    return glsl_align(t, false);
}

int layout_std430_size(const Type *t)
{
    return glsl_size(t, false);
}

/* Whether T holds a packed vector (or a struct laid out in the scalar block layout). */
static bool holds_packed(const Type *t)
{
    while (t->kind == TY_ARRAY || t->kind == TY_ATOMIC)
        t = t->elem;
    if (t->kind == TY_VEC)
        return t->packed;
    if (t->kind != TY_STRUCT)
        return false;
    if (t->sdef->scalar)
        return true;
    for (int i = 0; i < t->sdef->n_fields; i++)
        if (holds_packed(t->sdef->fields[i].ty))
            return true;
    return false;
}

static void mark_scalar(StructDef *s)
{
    if (s->scalar)
        return;
    s->scalar = true;
    for (int i = 0; i < s->n_fields; i++) {
        Type *t = s->fields[i].ty;
        while (t->kind == TY_ARRAY)
            t = t->elem;
        if (t->kind == TY_STRUCT)
            mark_scalar(t->sdef);
    }
}

/* Marks, once for the whole program, each struct holding a packed vector and every struct inside one. */
static void mark_scalar_structs(Program *prog)
{
    if (prog->scalar_marked)
        return;
    prog->scalar_marked = true;
    for (int i = 0; i < prog->structs.len; i++) {
        StructDef *s = prog->structs.items[i];
        Type st = {.kind = TY_STRUCT, .sdef = s};
        if (holds_packed(&st))
            mark_scalar(s);
    }
}

bool layout_needs_scalar(Program *prog, const Type *t)
{
    mark_scalar_structs(prog);
    return holds_packed(t);
}

/* Padding members for GAP bytes starting at std430 offset OFF, each naturally aligned: 1, 2 or 4 bytes. */
static int make_pads(unsigned char *pad, int off, int gap)
{
    int n = 0;
    while (gap > 0 && n < 4) {
        int s = off % 4 == 0 && gap >= 4 ? 4 : off % 2 == 0 && gap >= 2 ? 2 : 1;
        if (s == 4 && gap > 12)
            return -1;
        pad[n++] = (unsigned char)s;
        off += s;
        gap -= s;
    }
    return gap ? -1 : n;
}

static bool lay_out(Program *prog, StructDef *s);

static bool layout_type(Program *prog, Type *t)
{
    while (t->kind == TY_ARRAY)
        t = t->elem;
    return t->kind != TY_STRUCT || lay_out(prog, t->sdef);
}

static bool lay_out(Program *prog, StructDef *s)
{
    if (s->layout_state)
        return s->layout_state == 1;
    s->layout_state = 2;
    int moff = 0, goff = 0, malign = 1;
    for (int i = 0; i < s->n_fields; i++) {
        Field *f = &s->fields[i];
        if (!layout_type(prog, f->ty))
            return false;
        int ma = ty_metal_align(f->ty), ga = glsl_align(f->ty, s->scalar);
        malign = ma > malign ? ma : malign;
        moff = (moff + ma - 1) / ma * ma;
        int at = (goff + ga - 1) / ga * ga;
        if (at < moff) {
            f->n_pad = make_pads(f->pad, goff, moff - goff);
            if (f->n_pad < 0)
                goto mismatch;
            goff += moff - goff;
            at = (goff + ga - 1) / ga * ga;
        }
        if (at != moff)
            goto mismatch;
        moff += ty_metal_size(f->ty);
        goff = at + glsl_size(f->ty, s->scalar);
        if (ty_metal_size(f->ty) != glsl_size(f->ty, s->scalar) && !(f->ty->kind == TY_VEC && f->ty->n == 3))
            goto mismatch;
    }
    int msize = (moff + malign - 1) / malign * malign;
    s->layout_state = 1;
    Type st = {.kind = TY_STRUCT, .sdef = s};
    int gsize = glsl_size(&st, s->scalar);
    if (gsize < msize) {
        s->n_tail_pad = make_pads(s->tail_pad, goff, msize - goff);
        if (s->n_tail_pad < 0)
            goto mismatch;
        gsize = glsl_size(&st, s->scalar);
    }
    if (gsize != msize || glsl_align(&st, s->scalar) > ty_metal_align(&st))
        goto mismatch;
    return true;
mismatch:
    s->layout_state = 2;
    s->n_tail_pad = 0;
    for (int i = 0; i < s->n_fields; i++)
        s->fields[i].n_pad = 0;
    return false;
}

bool layout_struct(Program *prog, StructDef *s, SrcLoc loc, bool report)
{
    mark_scalar_structs(prog);
    if (ty_has_union(&(Type){.kind = TY_STRUCT, .sdef = s})) {
        if (report)
            diag_error(prog->diag, loc, "'%s' is or holds a union, which has no GLSL type: read and write its members "
                       "through a pointer (or reference) to device, constant or threadgroup memory", s->name);
        return false;
    }
    if (lay_out(prog, s))
        return true;
    if (report)
        diag_error(prog->diag, loc, "struct '%s' cannot be laid out in %s as Metal lays it out (size %d, alignment %d)",
                   s->name, s->scalar ? "the scalar block layout (float3 arrays or 3-row matrices beside packed vectors)" : "std430", ty_metal_size(&(Type){.kind = TY_STRUCT, .sdef = s}), ty_metal_align(&(Type){.kind = TY_STRUCT, .sdef = s}));
    return false;
}

/* bool in memory: a bool (vector) in a buffer or a struct member is stored as uint8_t (u8vecN), 1 byte as in
   Metal, and converted where it is read or written (emit_glsl.c). */
static bool is_bool_value(const Type *t)
{
    if (t && t->kind == TY_REF)
        t = t->elem;
    return t && ty_scalar_kind(t) == TY_BOOL;
}

static bool in_buffer(const Type *p)
{
    return p && (p->kind == TY_PTR || p->kind == TY_REF) && (p->as == AS_DEVICE || p->as == AS_CONSTANT);
}

/* A bool array held in memory: a struct's member (f.flags), an element of one such (f.grid[1]), a buffer's element. */
static bool stored_bool_array(const Node *n)
{
    const Type *t = n->ty;
    while (t && t->kind == TY_ARRAY)
        t = t->elem;
    if (!t || ty_scalar_kind(t) != TY_BOOL)
        return false;
    switch (n->kind) {
    case N_MEMBER:
        return true;
    case N_INDEX:
        return n->a->ty && n->a->ty->kind == TY_ARRAY ? stored_bool_array(n->a) : in_buffer(n->a->ty);
    case N_PAREN:
        return stored_bool_array(n->a);
    default:
        return false;
    }
}

bool layout_bool_stored(const Node *n)
{
    if (!is_bool_value(n->ty))
        return false;
    switch (n->kind) {
    case N_MEMBER: /* a struct's bool member */
        return n->a->ty && (n->a->ty->kind == TY_STRUCT || (n->a->ty->kind == TY_REF && n->a->ty->elem->kind == TY_STRUCT));
    case N_INDEX:
        if (n->a->ty && n->a->ty->kind == TY_ARRAY)
            return stored_bool_array(n->a); /* an element of a stored bool array */
        return in_buffer(n->a->ty);
    case N_DEREF:
        return in_buffer(n->a->ty);
    case N_VAR: /* device bool& */
        return in_buffer(n->var->ty);
    default:
        return false;
    }
}

const Node *layout_bool_target(const Node *n)
{
    while (n && (n->kind == N_SWIZZLE || n->kind == N_PAREN || (n->kind == N_INDEX && n->a->ty && n->a->ty->kind == TY_VEC))) {
        if (layout_bool_stored(n))
            return n;
        n = n->a;
    }
    if (n && stored_bool_array(n))
        return n;
    return n && layout_bool_stored(n) ? n : NULL;
}
