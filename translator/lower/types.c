/* types.c: the translator's types, Metal's sizes and names. */
#include <string.h>

#include "internal.h"

static Type scalar_types[TY_UNSUPPORTED + 1];

Type *ty_scalar(TypeKind k)
{
    Type *t = &scalar_types[k];
    t->kind = k;
    return t;
}

Type *ty_vec(Arena *a, TypeKind k, int n)
{
    if (n == 1)
        return ty_scalar(k);
    Type *t = arena_alloc(a, sizeof *t);
    t->kind = TY_VEC;
    t->elem = ty_scalar(k);
    t->n = n;
    return t;
}

bool ty_is_scalar(const Type *t)
{
    return t->kind >= TY_BOOL && t->kind <= TY_DOUBLE;
}

bool ty_is_integer(const Type *t)
{
    return (t->kind >= TY_CHAR && t->kind <= TY_ULONG) || t->kind == TY_ENUM;
}

bool ty_is_float(const Type *t)
{
    return t->kind >= TY_HALF && t->kind <= TY_DOUBLE;
}

bool ty_is_signed(const Type *t)
{
    switch (t->kind) {
    case TY_CHAR:
    case TY_SHORT:
    case TY_INT:
    case TY_LONG:
    case TY_ENUM:
        return true;
    default:
        return ty_is_float(t);
    }
}

TypeKind ty_scalar_kind(const Type *t)
{
    if (t->kind == TY_VEC)
        return t->elem->kind;
    if (t->kind == TY_ENUM)
        return TY_INT;
    if (ty_is_scalar(t))
        return t->kind;
    return TY_VOID;
}

int ty_width(const Type *t)
{
    if (t->kind == TY_VEC)
        return t->n;
    return ty_is_scalar(t) || t->kind == TY_ENUM ? 1 : 0;
}

bool ty_equal(const Type *a, const Type *b)
{
    if (a == b)
        return true;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TY_VEC:
    case TY_ARRAY:
    case TY_MAT:
        return a->n == b->n && ty_equal(a->elem, b->elem);
    case TY_PTR:
    case TY_REF:
        return a->as == b->as && ty_equal(a->elem, b->elem);
    case TY_STRUCT:
        return a->sdef == b->sdef;
    case TY_ENUM:
    case TY_UNSUPPORTED:
        return a->name == b->name || (a->name && b->name && !strcmp(a->name, b->name));
    default:
        return true;
    }
}

static int scalar_size(TypeKind k)
{
    switch (k) {
    case TY_BOOL:
    case TY_CHAR:
    case TY_UCHAR:
        return 1;
    case TY_SHORT:
    case TY_USHORT:
    case TY_HALF:
    case TY_BFLOAT:
        return 2;
    case TY_INT:
    case TY_UINT:
    case TY_FLOAT:
    case TY_ENUM:
        return 4;
    case TY_LONG:
    case TY_ULONG:
    case TY_DOUBLE:
        return 8;
    default:
        return 0;
    }
}

/* Metal: a 3-vector takes the size and alignment of a 4-vector; a packed vector is its components. */
int ty_metal_size(const Type *t)
{
    switch (t->kind) {
    case TY_VEC:
        return scalar_size(t->elem->kind) * (t->n == 3 && !t->packed ? 4 : t->n);
    case TY_ARRAY:
    case TY_MAT: /* columns of a vector's size */
        return t->n * ty_metal_size(t->elem);
    case TY_STRUCT: {
        int off = 0, align = 1;
        for (int i = 0; i < t->sdef->n_fields; i++) {
            Type *f = t->sdef->fields[i].ty;
            int a = ty_metal_align(f);
            if (t->sdef->is_union) /* every member at offset 0 */
                off = ty_metal_size(f) > off ? ty_metal_size(f) : off;
            else
                off = (off + a - 1) / a * a + ty_metal_size(f);
            if (a > align)
                align = a;
        }
        return (off + align - 1) / align * align;
    }
    case TY_PTR:
        return 8;
    case TY_ATOMIC:
        return ty_metal_size(t->elem);
    default:
        return scalar_size(t->kind);
    }
}

int ty_metal_align(const Type *t);

static int ty_metal_align_raw(const Type *t)
{
    switch (t->kind) {
    case TY_VEC:
        return t->packed ? scalar_size(t->elem->kind) : ty_metal_size(t);
    case TY_ARRAY:
    case TY_MAT:
        return ty_metal_align(t->elem);
    case TY_STRUCT: {
        int align = 1;
        for (int i = 0; i < t->sdef->n_fields; i++) {
            int a = ty_metal_align(t->sdef->fields[i].ty);
            if (a > align)
                align = a;
        }
        return align;
    }
    default:
        return ty_metal_size(t) ? ty_metal_size(t) : 1;
    }
}

/* Whether T is or holds a union (it has no GLSL type: ptr.c reads it through its members). */
bool ty_has_union(const Type *t)
{
    while (t && (t->kind == TY_ARRAY || t->kind == TY_ATOMIC))
        t = t->elem;
    if (!t || t->kind != TY_STRUCT)
        return false;
    if (t->sdef->is_union)
        return true;
    for (int i = 0; i < t->sdef->n_fields; i++)
        if (ty_has_union(t->sdef->fields[i].ty))
            return true;
    return false;
}

/* Metal's byte offset of field I of S (0 for every member of a union). */
int ty_member_offset(const StructDef *s, int i)
{
    int off = 0;
    if (s->is_union)
        return 0;
    for (int j = 0; j <= i && j < s->n_fields; j++) {
        int a = ty_metal_align(s->fields[j].ty);
        off = (off + a - 1) / a * a;
        if (j == i)
            return off;
        off += ty_metal_size(s->fields[j].ty);
    }
    return -1;
}

/* Never 0 (a type without a layout, e.g. an unsupported member, after its error): callers round offsets by it. */
int ty_metal_align(const Type *t)
{
    int a = ty_metal_align_raw(t);
    return a > 0 ? a : 1;
}

const char *ty_scalar_metal_name(TypeKind k)
{
    static const char *names[] = {
        [TY_VOID] = "void", [TY_BOOL] = "bool", [TY_CHAR] = "char", [TY_UCHAR] = "uchar",
        [TY_SHORT] = "short", [TY_USHORT] = "ushort", [TY_INT] = "int", [TY_UINT] = "uint",
        [TY_LONG] = "long", [TY_ULONG] = "ulong", [TY_HALF] = "half", [TY_BFLOAT] = "bfloat",
        [TY_FLOAT] = "float", [TY_DOUBLE] = "double", [TY_ENUM] = "int",
    };
    return k <= TY_ENUM && names[k] ? names[k] : "?";
}

const char *ty_metal_name(Arena *a, const Type *t)
{
    switch (t->kind) {
    case TY_VEC:
        return arena_printf(a, "%s%s%d", t->packed ? "packed_" : "", ty_scalar_metal_name(t->elem->kind), t->n);
    case TY_STRUCT:
        return t->sdef->name;
    case TY_ARRAY:
        return arena_printf(a, "%s[%d]", ty_metal_name(a, t->elem), t->n);
    case TY_PTR:
        return arena_printf(a, "%s*", ty_metal_name(a, t->elem));
    case TY_REF:
        return arena_printf(a, "%s&", ty_metal_name(a, t->elem));
    case TY_ATOMIC:
        return arena_printf(a, "atomic<%s>", ty_metal_name(a, t->elem));
    case TY_MAT:
        return arena_printf(a, "%s%dx%d", ty_scalar_metal_name(t->elem->elem->kind), t->n, t->elem->n);
    case TY_ENUM:
    case TY_UNSUPPORTED:
        return t->name ? t->name : "?";
    default:
        return ty_scalar_metal_name(t->kind);
    }
}
