/* parse.c: the front end. The only file that includes clang-c/Index.h.
 *
 * The Metal source is preprocessed first (preprocess.c: clang -E against the prelude in grammar/, headers and
 * macros expanded, line markers kept), then rewritten as text (templates.c; `[[...]]` attribute groups taken out,
 * blanked to spaces, `[[kernel]]` becoming the keyword `kernel`, and handed back to the declarations they follow by
 * offset), then parsed as C++ for OpenCL. Locations go back to the original files through the line markers
 * (pp_loc). Cursors are turned into the model of internal.h at once; CXStrings are disposed where they are read.
 */
#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

typedef struct AttrGroup {
    unsigned offset; /* of the first '[' in the preprocessed text */
    const char *text; /* what is between [[ and ]], trimmed */
    SrcLoc loc;
} AttrGroup;


/* A lambda's call operator being converted: what its body uses of the enclosing function becomes parameters. */
typedef struct Lambda {
    CXCursor method;
    Func *fn;
    PtrVec outer;    /* Var* of the enclosing function, in order of first use */
    PtrVec inner;    /* the parameter standing for each */
} Lambda;

/* A clang error and what it costs: the entry points that cannot be translated because of it. */
typedef struct ClangError {
    unsigned off; /* where it belongs in the text: inside a template instance, the point that asked for it */
    unsigned at;  /* where clang reported it (an offset of the text; UINT_MAX: another file) */
    bool in_user; /* in the user's code (else the prelude) */
    SrcLoc loc;
    PtrVec cost;  /* char*: entry points it stops */
} ClangError;

typedef struct MapEntry {
    char *key;
    void *value;
} MapEntry;

typedef struct Parser {
    Program *prog;
    Arena *arena;
    Diag *diag;
    CXTranslationUnit tu;
    CXFile main_file;
    const char *main_path;
    PtrVec attrs; /* AttrGroup*, in source order */
    PtrVec loop_hints; /* AttrGroup*, in source order: a loop pragma's hint at the offset of the loop it precedes */
    PtrVec strings; /* Var*: the string literals met, program-scope constant char arrays */
    char *text;   /* the preprocessed, rewritten source clang parses (named main_path) */
    size_t len;
    PpMap pp;     /* where each offset of TEXT came from */
    MapEntry *map; /* USR -> Var* / Func* / StructDef* */
    int map_cap, map_len;
    Func *cur_func;
    const char *cur_spelling; /* the C++ name of cur_func (what __func__ holds) */
    bool skip_bodies; /* --list-entries: clang parses no function bodies */
    bool convert;     /* build the model of each kernel (not for --list-entries, --syntax-only) */
    Var *self; /* the object inside a member function or constructor being converted */
    CXCursor default_param; /* conv_call: the parameter of the argument being converted (a default argument's) */
    Lambda *lambda; /* the lambda whose body is being converted, else NULL */
    int depth;      /* expressions and statements being converted inside each other (M2G_MAX_NESTING) */
    ClangError *errors; /* clang's errors, in order */
    int n_errors, cap_errors;
    const char *seen_msg[128]; /* clang diagnostics printed: the same one from each instance is printed once */
    unsigned seen_off[128];
    CXFile seen_file[128];
    int n_seen;
    const char *vec_elem[2]; /* bfloat, bool: a vector of it deduced through was an error (report_clang_diagnostics) */
    SrcLoc vec_loc[2];       /* where that error was reported */
    char *last_instance;     /* the outermost instantiation note of the last error (instance_of) */
    int n_vec;
} Parser;

/* ---- small libclang helpers ---- */

static char *cx_take(Parser *P, CXString s)
{
    const char *c = clang_getCString(s);
    char *r = arena_strdup(P->arena, c ? c : "");
    clang_disposeString(s);
    return r;
}

/* Where cursor C is in the original sources (through the preprocessor's line markers). */
static SrcLoc loc_of(Parser *P, CXCursor c)
{
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
    if (!f || !clang_File_isEqual(f, P->main_file))
        return (SrcLoc){P->main_path, 0, 0};
    return pp_loc(&P->pp, off);
}

static unsigned offset_of(CXSourceLocation sl)
{
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(sl, &f, &line, &col, &off);
    return off;
}

/* In the user's code (the source or its headers), not in the prelude. */
static bool in_main_file(Parser *P, CXCursor c)
{
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
    return f && clang_File_isEqual(f, P->main_file) && !pp_in_system_file(&P->pp, off);
}

static bool in_prelude(CXCursor c)
{
    return clang_Location_isInSystemHeader(clang_getCursorLocation(c));
}

typedef struct Kids {
    CXCursor *items;
    int len, cap;
} Kids;

static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    Kids *k = data;
    if (k->len == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 8;
        k->items = realloc(k->items, (size_t)k->cap * sizeof *k->items);
    }
    k->items[k->len++] = c;
    return CXChildVisit_Continue;
}

/* The children of C that are expressions or statements (type and template references skipped). */
static Kids kids_of(CXCursor c)
{
    Kids all = {0}, k = {0};
    clang_visitChildren(c, collect_kid, &all);
    for (int i = 0; i < all.len; i++) {
        enum CXCursorKind kind = clang_getCursorKind(all.items[i]);
        if (clang_isReference(kind) || clang_isAttribute(kind))
            continue;
        collect_kid(all.items[i], c, &k);
    }
    free(all.items);
    return k;
}

/* ---- clang errors: which entry points each one stops ---- */

/* The first clang error of the user's code inside [start, end] of the text, as its index + 1; 0: none. */
static int error_between(Parser *P, unsigned start, unsigned end)
{
    for (int i = 0; i < P->n_errors; i++)
        if (P->errors[i].in_user && P->errors[i].off >= start && P->errors[i].off <= end)
            return i + 1;
    return 0;
}

/* The first clang error inside cursor C's extent (index + 1; 0: none). */
static int error_inside(Parser *P, CXCursor c)
{
    if (!P->n_errors || clang_Cursor_isNull(c))
        return 0;
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f;
    unsigned start, end;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &start);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
    return f && clang_File_isEqual(f, P->main_file) ? error_between(P, start, end) : 0;
}

/* The first clang error reported inside cursor C's extent, wherever its instance was asked for (index + 1; 0: none). */
static int error_reported_inside(Parser *P, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f;
    unsigned start, end;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &start);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
    if (!f || !clang_File_isEqual(f, P->main_file))
        return 0;
    for (int i = 0; i < P->n_errors; i++)
        if (P->errors[i].at >= start && P->errors[i].at <= end)
            return i + 1;
    return 0;
}

static enum CXChildVisitResult field_error(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    void **d = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!*(int *)d[1] && (k == CXCursor_FieldDecl || k == CXCursor_CXXBaseSpecifier))
        *(int *)d[1] = error_inside(d[0], c);
    return CXChildVisit_Continue;
}

/* The first clang error in the fields or bases of a struct (its member functions are functions of their own). */
static int struct_error(Parser *P, CXCursor decl)
{
    int err = 0;
    void *d[2] = {P, &err};
    if (P->n_errors)
        clang_visitChildren(clang_getCursorDefinition(decl), field_error, d);
    return err;
}

/* The function being converted uses something that clang error ERR (index + 1) is in: it cannot be translated. */
static void taint(Parser *P, int err)
{
    if (err && P->cur_func && !P->cur_func->clang_error)
        P->cur_func->clang_error = err;
}

/* After a kernel's conversion: a clang error in what it uses stops it, and that error names it. */
static void kernel_cost(Parser *P, Func *k)
{
    if (!k->clang_error)
        return;
    k->had_errors = true;
    pv_push(&P->errors[k->clang_error - 1].cost, (char *)k->name);
}

static char *usr_key(Parser *P, CXCursor c)
{
    return cx_take(P, clang_getCursorUSR(c));
}

/* The key of a parameter: its USR, which the expanded parameters of a pack (`Ts... rest`) share, and its
   declaration's own hash, which they do not. */
static char *param_key(Parser *P, CXCursor c)
{
    return arena_printf(P->arena, "%s#%u", usr_key(P, c), clang_hashCursor(c));
}

static unsigned hash_str(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void *map_get(Parser *P, const char *key)
{
    if (!P->map_cap || !*key)
        return NULL;
    for (unsigned i = hash_str(key) & (unsigned)(P->map_cap - 1);; i = (i + 1) & (unsigned)(P->map_cap - 1)) {
        if (!P->map[i].key)
            return NULL;
        if (!strcmp(P->map[i].key, key))
            return P->map[i].value;
    }
}

static void map_put(Parser *P, char *key, void *value)
{
    if (!*key)
        return;
    if ((P->map_len + 1) * 2 > P->map_cap) {
        MapEntry *old = P->map;
        int old_cap = P->map_cap;
        P->map_cap = old_cap ? old_cap * 2 : 256;
        P->map = calloc((size_t)P->map_cap, sizeof *P->map);
        P->map_len = 0;
        for (int i = 0; i < old_cap; i++)
            if (old[i].key)
                map_put(P, old[i].key, old[i].value);
        free(old);
    }
    unsigned i = hash_str(key) & (unsigned)(P->map_cap - 1);
    while (P->map[i].key && strcmp(P->map[i].key, key))
        i = (i + 1) & (unsigned)(P->map_cap - 1);
    if (!P->map[i].key)
        P->map_len++;
    P->map[i] = (MapEntry){key, value};
}

/* ---- attribute groups: taken out of the source text ---- */

/* An attribute's text with the prelude's address-space macros, which the preprocessor expanded in it, written back:
   `[[threadgroup(0)]]` came out as `[[__local(0)]]`. */
static const char *attr_unexpand(Parser *P, const char *b)
{
    static const char *const spaces[][2] = {{"__local", "threadgroup"}, {"__global", "device"}, {"__private", "thread"}};
    for (size_t i = 0; i < sizeof spaces / sizeof *spaces; i++) {
        size_t n = strlen(spaces[i][0]);
        if (!strncmp(b, spaces[i][0], n) && !isalnum((unsigned char)b[n]) && b[n] != '_')
            return arena_printf(P->arena, "%s%s", spaces[i][1], b + n);
    }
    return b;
}

/* Blanks every [[...]] group of the text in place (newlines kept), recording each; `[[kernel]]` becomes `kernel`.
   String and character literals are skipped (the preprocessor has taken the comments out). */
static void extract_attributes(Parser *P)
{
    char *text = P->text;
    size_t len = P->len;
    for (size_t i = 0; i < len;) {
        char ch = text[i];
        if (ch == '"' || ch == '\'') {
            i++;
            while (i < len && text[i] != ch && text[i] != '\n')
                i += text[i] == '\\' ? 2 : 1;
            i++;
            continue;
        }
        if (ch == '#' && (i == 0 || text[i - 1] == '\n')) { /* a line marker or pragma */
            size_t start = i;
            while (i < len && text[i] != '\n')
                i++;
            static const char hint[] = "#pragma mtl2glsl_loop "; /* a loop pragma (preprocess.c): for the loop after it */
            if (i - start > sizeof hint - 1 && !strncmp(text + start, hint, sizeof hint - 1)) {
                AttrGroup *g = arena_alloc(P->arena, sizeof *g);
                *g = (AttrGroup){0, arena_printf(P->arena, "%.*s", (int)(i - start - (sizeof hint - 1)), text + start + sizeof hint - 1),
                                 pp_loc(&P->pp, (unsigned)start)};
                memset(text + start, ' ', i - start);
                size_t next = i;
                for (;;) { /* past blanks and line markers */
                    while (next < len && isspace((unsigned char)text[next]))
                        next++;
                    if (next >= len || text[next] != '#')
                        break;
                    while (next < len && text[next] != '\n')
                        next++;
                }
                g->offset = (unsigned)next;
                pv_push(&P->loop_hints, g);
            }
            continue;
        }
        if (ch != '[' || i + 1 >= len || text[i + 1] != '[') {
            i++;
            continue;
        }
        size_t start = i, j = i;
        for (int depth = 0; j < len; j++) {
            if (text[j] == '[')
                depth++;
            else if (text[j] == ']' && --depth == 0)
                break;
        }
        if (j >= len)
            break;
        size_t inner_len = j - 1 - (start + 2);
        char *inner = arena_alloc(P->arena, inner_len + 1);
        memcpy(inner, text + start + 2, inner_len);
        char *b = inner;
        while (isspace((unsigned char)*b))
            b++;
        char *e = b + strlen(b);
        while (e > b && isspace((unsigned char)e[-1]))
            *--e = 0;
        SrcLoc loc = pp_loc(&P->pp, (unsigned)start);
        bool kernel = false, fc = false;
        for (char *item = b; *item;) { /* [[kernel, max_total_threads_per_threadgroup(N)]]: one group per item */
            char *end = item;
            for (int depth = 0; *end && !(depth == 0 && *end == ','); end++)
                depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
            char *next = *end ? end + 1 : end;
            *end = 0;
            while (end > item && isspace((unsigned char)end[-1]))
                *--end = 0;
            AttrGroup *g = arena_alloc(P->arena, sizeof *g);
            *g = (AttrGroup){(unsigned)start, attr_unexpand(P, item), loc};
            pv_push(&P->attrs, g);
            kernel |= !strcmp(item, "kernel");
            fc |= !strncmp(item, "function_constant", 17);
            for (item = next; isspace((unsigned char)*item);)
                item++;
        }
        for (size_t k = start; k <= j; k++)
            if (text[k] != '\n')
                text[k] = ' ';
        if (kernel)
            memcpy(text + start, "kernel", 6);
        size_t next = j + 1;
        while (next < len && isspace((unsigned char)text[next]))
            next++;
        if (fc && next < len && text[next] == ';') /* a `constant` global, not a parameter: OpenCL wants an initializer */
            memcpy(text + start, "= {}", 4);
        i = j + 1;
    }
}

/* ---- types ---- */

static Type *new_type(Parser *P, TypeKind k)
{
    Type *t = arena_alloc(P->arena, sizeof *t);
    t->kind = k;
    return t;
}

static StructDef *conv_struct(Parser *P, CXCursor decl);

static AddrSpace conv_addr_space(CXType pointee)
{
    switch (clang_getAddressSpace(pointee)) {
    case 1:
        return AS_DEVICE;
    case 2:
        return AS_THREADGROUP;
    case 3:
        return AS_CONSTANT;
    default:
        return AS_THREAD;
    }
}

static bool is_bool_vector_name(const char *name, int *n)
{
    if (strncmp(name, "bool", 4) || !name[4] || name[5] || name[4] < '2' || name[4] > '4')
        return false;
    *n = name[4] - '0';
    return true;
}

/* T (an array or struct just converted), or TY_UNSUPPORTED naming it when its Metal size passes M2G_MAX_TYPE_BYTES
   (sizes are ints in the later stages). Its parts were checked when they were converted, so each fits an int. */
static Type *type_within_limit(Parser *P, Type *t, long long n)
{
    long long size = 0;
    if (t->kind == TY_ARRAY) {
        size = n > (1LL << 34) ? n : n * (long long)ty_metal_size(t->elem); /* no overflow: the element fits 2^28 */
    } else {
        for (int i = 0; i < t->sdef->n_fields; i++) {
            long long a = ty_metal_align(t->sdef->fields[i].ty);
            size = (size + a - 1) / a * a + ty_metal_size(t->sdef->fields[i].ty);
        }
    }
    if (size <= M2G_MAX_TYPE_BYTES)
        return t;
    Type *u = new_type(P, TY_UNSUPPORTED);
    u->name = arena_printf(P->arena, "%s (%s%lld bytes; one type holds at most %ld, docs/limits.md)",
                           t->kind == TY_ARRAY ? arena_printf(P->arena, "%s[%lld]", ty_metal_name(P->arena, t->elem), n)
                                               : t->sdef->name,
                           t->kind == TY_ARRAY && n > (1LL << 34) ? "more than " : "", size, M2G_MAX_TYPE_BYTES);
    return u;
}

static enum CXVisitorResult first_field_type(CXCursor c, CXClientData data)
{
    *(CXType *)data = clang_getCursorType(c);
    return CXVisit_Break;
}

static const char *metal4_name(Parser *P, CXCursor decl);

/* Converts a clang type to the model; unknown types become TY_UNSUPPORTED carrying the Metal name. */
static Type *conv_type(Parser *P, CXType t)
{
    /* Typedef names first: bool vectors exist only as names (the prelude makes them int vectors). */
    for (int guard = 0; guard < 16; guard++) {
        if (t.kind == CXType_Elaborated) {
            t = clang_Type_getNamedType(t);
            continue;
        }
        if (t.kind != CXType_Typedef) {
            break;
        }
        char *name = cx_take(P, clang_getTypedefName(t));
        int n;
        if (is_bool_vector_name(name, &n))
            return ty_vec(P->arena, TY_BOOL, n);
        t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
        if (!strncmp(name, "packed_", 7) && clang_getCanonicalType(t).kind == CXType_ExtVector) {
            Type *v = conv_type(P, t); /* packed_float3: the vector, laid out packed */
            v->packed = true;
            return v;
        }
    }
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Void: return ty_scalar(TY_VOID);
    case CXType_Bool:
    case CXType_Char16: return ty_scalar(TY_BOOL); /* char16_t: the element of the prelude's bool vectors */
    case CXType_Char_S:
    case CXType_SChar: return ty_scalar(TY_CHAR);
    case CXType_Char_U:
    case CXType_UChar: return ty_scalar(TY_UCHAR);
    case CXType_Short: return ty_scalar(TY_SHORT);
    case CXType_UShort: return ty_scalar(TY_USHORT);
    case CXType_Int: return ty_scalar(TY_INT);
    case CXType_UInt: return ty_scalar(TY_UINT);
    case CXType_Long:
    case CXType_LongLong: return ty_scalar(TY_LONG);
    case CXType_ULong:
    case CXType_ULongLong: return ty_scalar(TY_ULONG);
    case CXType_Half:
    case CXType_Float16: return ty_scalar(TY_HALF);
    case CXType_Float: return ty_scalar(TY_FLOAT);
    case CXType_Double: return ty_scalar(TY_DOUBLE);
    case CXType_ExtVector:
    case CXType_Vector: {
        Type *e = conv_type(P, clang_getElementType(c));
        int n = (int)clang_getNumElements(c);
        if (n > 4) { /* vec<float, 8> (MLX's NAX fragments): GLSL's vectors end at 4 */
            Type *u = new_type(P, TY_UNSUPPORTED);
            u->name = arena_printf(P->arena, "vec<%s, %d> (a vector of more than 4 components)", ty_scalar_metal_name(e->kind), n);
            return u;
        }
        return ty_vec(P->arena, e->kind, n);
    }
    case CXType_Enum: {
        Type *e = new_type(P, TY_ENUM);
        e->name = cx_take(P, clang_getTypeSpelling(c));
        return e;
    }
    case CXType_Pointer:
    case CXType_LValueReference:
    case CXType_RValueReference: {
        CXType pt = clang_getPointeeType(c), named = clang_getPointeeType(t); /* named: packed_float3 kept */
        Type *r = new_type(P, c.kind == CXType_Pointer ? TY_PTR : TY_REF);
        r->elem = conv_type(P, named.kind == CXType_Invalid ? pt : named);
        r->as = conv_addr_space(pt);
        r->is_const = clang_isConstQualifiedType(pt);
        return r;
    }
    case CXType_ConstantArray:
    case CXType_IncompleteArray: {
        Type *r = new_type(P, TY_ARRAY);
        CXType et = clang_getArrayElementType(t);
        r->elem = conv_type(P, et.kind == CXType_Invalid ? clang_getArrayElementType(c) : et);
        long long n = c.kind == CXType_ConstantArray ? clang_getArraySize(c) : 0;
        r->n = n <= M2G_MAX_TYPE_BYTES ? (int)n : 0;
        return type_within_limit(P, r, n);
    }
    case CXType_Record: {
        CXCursor decl = clang_getTypeDeclaration(c);
        if (in_prelude(decl)) {
            char *rname = cx_take(P, clang_getCursorSpelling(decl));
            if (!strcmp(rname, "bfloat"))
                return ty_scalar(TY_BFLOAT);
            if (!strncmp(rname, "bfloat", 6) && rname[6] >= '2' && rname[6] <= '4' && !rname[7])
                return ty_vec(P->arena, TY_BFLOAT, rname[6] - '0');
            if (clang_Type_getNumTemplateArguments(c) == 1 && !strcmp(rname, "uniform"))
                return conv_type(P, clang_Type_getTemplateArgumentAsType(c, 0)); /* uniform<T>: a T (is_uniform_call) */
            if (clang_Type_getNumTemplateArguments(c) == 1 && !strcmp(cx_take(P, clang_getCursorSpelling(decl)), "atomic")) {
                Type *a = new_type(P, TY_ATOMIC);
                a->elem = conv_type(P, clang_Type_getTemplateArgumentAsType(c, 0));
                return a;
            }
            if (clang_Type_getNumTemplateArguments(c) == 2 && !strcmp(rname, "array")) {
                CXType elems = {.kind = CXType_Invalid}; /* metal::array<T, N> (c10::metal::array): T __elems[N] */
                clang_Type_visitFields(c, first_field_type, &elems);
                Type *a = elems.kind == CXType_Invalid ? NULL : conv_type(P, elems);
                if (a && a->kind == TY_ARRAY && a->n > 0)
                    return a; /* a GLSL array: copied by value as std::array is */
            }
            if (clang_Type_getNumTemplateArguments(c) == 3 && !strcmp(rname, "simdgroup_matrix")) {
                /* the shape from the spelling, "metal::simdgroup_matrix<float, 8>" (Rows = Cols is left out; no API gives
                   integer arguments) */
                const char *sp = cx_take(P, clang_getTypeSpelling(c)), *first = strchr(sp, ',');
                const char *second = first ? strchr(first + 1, ',') : NULL;
                int cols = first ? atoi(first + 1) : 0, rows = second ? atoi(second + 1) : cols;
                return sgmat_type(P->prog, conv_type(P, clang_Type_getTemplateArgumentAsType(c, 0)), cols, rows);
            }
            if (clang_Type_getNumTemplateArguments(c) == 3 && !strcmp(cx_take(P, clang_getCursorSpelling(decl)), "matrix")) {
                CXType columns = {.kind = CXType_Invalid}; /* its one field: vec<T, R> columns[C] */
                clang_Type_visitFields(c, first_field_type, &columns);
                Type *m = columns.kind == CXType_Invalid ? new_type(P, TY_UNSUPPORTED) /* none after errors */
                                                         : conv_type(P, columns);
                if (m->kind == TY_ARRAY && m->elem->kind == TY_VEC && m->n >= 2 && m->n <= 4 &&
                    (m->elem->elem->kind == TY_FLOAT || m->elem->elem->kind == TY_HALF)) {
                    m->kind = TY_MAT;
                    return m;
                }
                /* Metal's matrices are float or half, 2 to 4 columns of 2 to 4 rows */
                Type *u = new_type(P, TY_UNSUPPORTED);
                u->name = m->kind == TY_ARRAY && m->elem->kind == TY_VEC
                              ? arena_printf(P->arena, "matrix<%s, %d, %d>", ty_scalar_metal_name(m->elem->elem->kind), m->n, m->elem->n)
                              : "this matrix type";
                return u;
            }
            Type *u = new_type(P, TY_UNSUPPORTED);
            u->name = cx_take(P, clang_getCursorSpelling(decl));
            if (!strcmp(u->name, "__mtl_wide_vec")) { /* vec<bfloat, 8>, vec<bool, 8> (grammar/metal_types) */
                const char *sp = strchr(cx_take(P, clang_getTypeSpelling(c)), '<');
                u->name = arena_printf(P->arena, "vec%s (a vector of more than 4 components)", sp ? sp : "");
            }
            if (metal4_name(P, decl)) /* metal::tensor<...>, a cooperative tensor, mpp::tensor_ops::matmul2d<...> */
                u->name = arena_printf(P->arena, "%s (Metal 4 tensors and MetalPerformancePrimitives)", metal4_name(P, decl));
            return u;
        }
        Type *s = new_type(P, TY_STRUCT);
        s->sdef = conv_struct(P, decl);
        taint(P, struct_error(P, decl));
        return type_within_limit(P, s, 0);
    }
    default: {
        Type *u = new_type(P, TY_UNSUPPORTED);
        u->name = cx_take(P, clang_getTypeSpelling(t));
        return u;
    }
    }
}

typedef struct FieldList {
    Parser *P;
    PtrVec fields;
    bool base_with_fields;
    CXCursor base;
} FieldList;

/* The name of an anonymous member (a union or struct without a name: `union { struct { half d, m; }; half2 dm; }`):
   anonN, N counting the anonymous members of its record, as conv_member finds it again. */
typedef struct AnonCount {
    CXCursor field;
    int seen, found;
} AnonCount;

static enum CXVisitorResult count_anon(CXCursor c, CXClientData data)
{
    AnonCount *a = data;
    CXString s = clang_getCursorSpelling(c);
    bool anon = !*clang_getCString(s);
    clang_disposeString(s);
    if (clang_equalCursors(c, a->field)) {
        a->found = a->seen;
        return CXVisit_Break;
    }
    a->seen += anon;
    return CXVisit_Continue;
}

static const char *field_name(Parser *P, CXCursor field)
{
    const char *name = cx_take(P, clang_getCursorSpelling(field));
    if (*name)
        return name;
    AnonCount a = {.field = field, .found = -1};
    clang_Type_visitFields(clang_getCursorType(clang_getCursorSemanticParent(field)), count_anon, &a);
    return arena_printf(P->arena, "anon%d", a.found < 0 ? 0 : a.found);
}

static enum CXVisitorResult collect_field(CXCursor c, CXClientData data)
{
    FieldList *fl = data;
    Field *f = arena_alloc(fl->P->arena, sizeof *f);
    f->name = field_name(fl->P, c);
    f->glsl_name = names_legal(fl->P->arena, f->name);
    f->ty = conv_type(fl->P, clang_getCursorType(c));
    pv_push(&fl->fields, f);
    return CXVisit_Continue;
}

static enum CXVisitorResult count_field(CXCursor c, CXClientData data)
{
    (void)c;
    ++*(int *)data;
    return CXVisit_Break;
}

static enum CXChildVisitResult find_base(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    FieldList *fl = data;
    int n = 0;
    if (clang_getCursorKind(c) == CXCursor_CXXBaseSpecifier) {
        clang_Type_visitFields(clang_getCursorType(c), count_field, &n);
        if (n && !fl->base_with_fields)
            fl->base = c, fl->base_with_fields = true;
    }
    return CXChildVisit_Continue;
}

/* A name for a type or template argument list usable in GLSL: `Vec<float, 4>` -> `Vec_float_4`. */
static char *mangle(Parser *P, const char *spelling)
{
    static const char vec_attr[] = " __attribute__((ext_vector_type(";
    char *r = arena_alloc(P->arena, strlen(spelling) + 1), *o = r;
    for (const char *c = spelling; *c; c++) {
        if (!strncmp(c, vec_attr, sizeof vec_attr - 1) && isdigit((unsigned char)c[sizeof vec_attr - 1])) {
            /* `float __attribute__((ext_vector_type(2)))` (a vec<float, 2> template argument): float2 */
            c += sizeof vec_attr - 1;
            while (isdigit((unsigned char)*c))
                *o++ = *c++;
            while (*c == ')')
                c++;
            c--;
            continue;
        }
        if (isalnum((unsigned char)*c) || *c == '_')
            *o++ = *c;
        else if (o > r && o[-1] != '_')
            *o++ = '_';
    }
    while (o > r && o[-1] == '_')
        o--;
    *o = 0;
    return r;
}

/* A GLSL name no other struct of the program has (structs of two namespaces may share a name). */
static const char *unique_struct_name(Parser *P, const char *name)
{
    const char *r = name;
    for (int n = 2;; n++) {
        bool taken = false;
        for (int i = 0; i < P->prog->structs.len && !taken; i++)
            taken = !strcmp(((StructDef *)P->prog->structs.items[i])->glsl_name, r);
        if (!taken)
            return r;
        r = arena_printf(P->arena, "%s_%d", name, n);
    }
}

/* What a struct's declaration (or its template's: an instance has no member cursors) says about its construction:
   its constructors, and fields with a default member initializer. */
static bool is_member_initializer(Parser *P, CXCursor field, CXCursor e);

typedef struct MemberScan {
    Parser *P;
    const char *member_init;
    bool has_ctor;
} MemberScan;

static enum CXChildVisitResult scan_member(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    MemberScan *m = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Constructor ||
        (k == CXCursor_FunctionTemplate && clang_getTemplateCursorKind(c) == CXCursor_Constructor))
        m->has_ctor = true;
    if (k == CXCursor_FieldDecl && !m->member_init) {
        Kids e = kids_of(c); /* its expressions: array bounds, a bit-field's width, the initializer */
        for (int i = 0; i < e.len && !m->member_init; i++)
            if (is_member_initializer(m->P, c, e.items[i]))
                m->member_init = cx_take(m->P, clang_getCursorSpelling(c));
        free(e.items);
    }
    return CXChildVisit_Continue;
}

/* A struct, or an instance of a struct template (fields read through the type: clang keeps no cursors
   for the members of implicit instantiations). Member functions are converted when called. */
static StructDef *conv_struct(Parser *P, CXCursor decl)
{
    decl = clang_getCanonicalCursor(decl);
    char *key = usr_key(P, decl);
    bool closure = !strncmp(cx_take(P, clang_getTypeSpelling(clang_getCursorType(decl))), "(lambda", 7);
    if (closure) /* closures in different template instances share a USR */
        key = arena_printf(P->arena, "%s#%u", key, clang_hashCursor(decl));
    StructDef *s = map_get(P, key);
    if (s)
        return s;
    s = arena_alloc(P->arena, sizeof *s);
    map_put(P, key, s);
    s->name = cx_take(P, clang_getCursorSpelling(decl));
    if (!*s->name) { /* `typedef struct {...} block_q4_0;` has the typedef's name; a member without a name has none */
        const char *ts = cx_take(P, clang_getTypeSpelling(clang_getCursorType(decl)));
        bool ident = *ts && !isdigit((unsigned char)*ts);
        for (const char *c = ts; *c && ident; c++)
            ident = isalnum((unsigned char)*c) || *c == '_' || (*c == ':' && c[1] == ':' && c++);
        s->name = ident ? arena_printf(P->arena, "%s", strrchr(ts, ':') ? strrchr(ts, ':') + 1 : ts)
                        : arena_printf(P->arena, "anonymous_%s_%d", clang_getCursorKind(decl) == CXCursor_UnionDecl ? "union" : "struct", P->prog->structs.len);
    }
    s->is_union = clang_getCursorKind(decl) == CXCursor_UnionDecl;
    if (!clang_Cursor_isNull(clang_getSpecializedCursorTemplate(decl)))
        s->name = mangle(P, cx_take(P, clang_getTypeSpelling(clang_getCursorType(decl))));
    s->glsl_name = unique_struct_name(P, names_legal(P->arena, s->name));
    if (closure) {
        /* a closure: never a value; its captures become parameters of its function (capture_param) */
        s->name = s->glsl_name = arena_printf(P->arena, "lambda_%d_%d", loc_of(P, decl).line, loc_of(P, decl).col);
        s->empty = true;
        s->loc = loc_of(P, decl);
        return s;
    }
    CXCursor def = clang_getCursorDefinition(decl);
    s->loc = loc_of(P, clang_Cursor_isNull(def) ? decl : def);
    FieldList fl = {.P = P};
    clang_Type_visitFields(clang_getCursorType(decl), collect_field, &fl);
    clang_visitChildren(clang_Cursor_isNull(def) ? decl : def, find_base, &fl);
    if (fl.base_with_fields)
        diag_error(P->diag, loc_of(P, fl.base), "base classes with fields are not supported yet");
    s->n_fields = fl.fields.len;
    s->empty = !fl.fields.len;
    s->fields = arena_alloc(P->arena, sizeof(Field) * (size_t)(fl.fields.len + 1));
    for (int i = 0; i < fl.fields.len; i++)
        s->fields[i] = *(Field *)fl.fields.items[i];
    pv_free(&fl.fields);
    CXCursor pattern = clang_getSpecializedCursorTemplate(clang_Cursor_isNull(def) ? decl : def);
    MemberScan ms = {.P = P};
    clang_visitChildren(!clang_Cursor_isNull(pattern) ? pattern : clang_Cursor_isNull(def) ? decl : def, scan_member, &ms);
    s->member_init = ms.member_init;
    s->has_ctor = ms.has_ctor;
    pv_push(&P->prog->structs, s);
    return s;
}

static bool is_empty_struct(const Type *t)
{
    return t && t->kind == TY_STRUCT && t->sdef->empty;
}

/* ---- expressions ---- */

static Node *new_node(Parser *P, NodeKind k, CXCursor c)
{
    Node *n = arena_alloc(P->arena, sizeof *n);
    n->kind = k;
    n->loc = loc_of(P, c);
    return n;
}

static Node *conv_expr(Parser *P, CXCursor c);
static Node *conv_stmt(Parser *P, CXCursor c);
static Func *get_func(Parser *P, CXCursor decl);
static Var *get_global(Parser *P, CXCursor decl);

static Node *unsupported(Parser *P, CXCursor c, const char *what)
{
    diag_error(P->diag, loc_of(P, c), "%s is not supported yet", what);
    Node *n = new_node(P, N_INT, c);
    n->ty = ty_scalar(TY_INT);
    return n;
}

/* ---- operators ----
 * libclang 14 has no API for an operator's kind, and inside macro bodies there are no tokens to read it from.
 * The opcode is read from the clang::BinaryOperator / UnaryOperator bit-fields the cursor points at; a self-test
 * at start-up checks that reading against known operators. If the self-test fails (another libclang build), the
 * operator is read from the tokens instead: the first token after the left operand (binary), the first or last
 * token (unary), which is right outside macro bodies.
 */
static const char *const binary_ops[] = {
    ".*", "->*", "*", "/", "%", "+", "-", "<<", ">>", "<=>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&", "||",
    "=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", ",",
};
static const char *const unary_ops[] = {"++", "--", "++", "--", "&", "*", "+", "-", "~", "!"};
static int opcode_hack_state; /* 0 untested, 1 works, -1 disabled */

static unsigned read_opcode_bits(CXCursor c, bool unary)
{
    unsigned long long bits;
    memcpy(&bits, c.data[1], sizeof bits);
    return (unsigned)(bits >> 18) & (unary ? 31u : 63u);
}

typedef struct OpTest {
    int n, ok;
} OpTest;

static enum CXChildVisitResult optest_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    OpTest *t = data;
    if (clang_getCursorKind(c) == CXCursor_BinaryOperator || clang_getCursorKind(c) == CXCursor_CompoundAssignOperator) {
        static const int expect[] = {2, 3, 5, 6, 10, 14, 19, 20, 21, 25, 31};
        if (t->n < 11 && read_opcode_bits(c, false) == (unsigned)expect[t->n])
            t->ok++;
        t->n++;
    } else if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
        static const int expect[] = {0, 3, 7, 9};
        if (t->n >= 11 && t->n - 11 < 4 && read_opcode_bits(c, true) == (unsigned)expect[t->n - 11])
            t->ok++;
        t->n++;
    }
    return CXChildVisit_Recurse;
}

static bool opcode_hack_works(void)
{
    if (opcode_hack_state)
        return opcode_hack_state > 0;
    static const char src[] = "void f(int a, int b) { a * b; a / b; a + b; a - b; a < b; a == b; a && b; a || b; a = b; a += b; a |= b; "
                              "a++; --a; -a; !a; }";
    struct CXUnsavedFile u = {"optest.cpp", src, sizeof src - 1};
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = clang_parseTranslationUnit(idx, "optest.cpp", NULL, 0, &u, 1, 0);
    OpTest t = {0, 0};
    if (tu)
        clang_visitChildren(clang_getTranslationUnitCursor(tu), optest_visit, &t);
    opcode_hack_state = t.n == 15 && t.ok == 15 ? 1 : -1;
    if (tu)
        clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return opcode_hack_state > 0;
}

/* ---- the semantic form of an initializer list ----
 * libclang visits an initializer list as written: `S a[4] = {0};` shows one int, where clang's semantic form holds
 * what makes each element (S's converting constructor called with 0; S's default constructor for the other three,
 * kept once as the list's array filler). The C API does not reach that form; it is read from the
 * clang::InitListExpr the cursor points at (clang 14: Expr's 16 bytes, then InitExprs begin / end, capacity,
 * the two brace locations, AltForm at 48 (the other form; bit 2 set when this one is the semantic form) and the
 * array filler at 56 (bit 2 set when it holds a field, not an expression)), and the class of a construction is
 * the first byte of its clang::Stmt. A self-test at start-up reads a known list; if it fails (another libclang
 * build), such lists stay the error check_initlist prints.
 */
static int initlist_hack_state; /* 0 untested, 1 works, -1 disabled */
static unsigned char construct_class; /* Stmt class byte of a CXXConstructExpr, learned by the self-test */
static int implicit_cast_class = -1;  /* of the ImplicitCastExpr (ConstructorConversion) around one, if any */

static uintptr_t read_word(const void *p, int offset)
{
    uintptr_t w;
    memcpy(&w, (const char *)p + offset, sizeof w);
    return w;
}

/* The semantic form of the initializer list cursor C points at. */
static const void *semantic_list(CXCursor c)
{
    uintptr_t alt = read_word(c.data[1], 48);
    if ((alt & 4) || !(alt & ~(uintptr_t)7))
        return c.data[1];
    return (const void *)(alt & ~(uintptr_t)7);
}

/* Element I of semantic form LIST as a cursor (a construction: CallExpr, as libclang names one), or a null cursor
   when it is not a construction. I past the written elements: the array filler. */
static CXCursor semantic_element(CXCursor c, const void *list, int i)
{
    uintptr_t begin = read_word(list, 16), end = read_word(list, 24), filler = read_word(list, 56);
    const void *e = NULL;
    if (i < (int)((end - begin) / sizeof(void *)))
        e = (const void *)read_word((const void *)begin, i * (int)sizeof(void *));
    if (!e && !(filler & 4))
        e = (const void *)(filler & ~(uintptr_t)7);
    for (int peel = 0; e && *(const unsigned char *)e == implicit_cast_class && peel < 4; peel++)
        e = (const void *)read_word(e, 16); /* a CastExpr's operand follows the Expr */
    if (!e || *(const unsigned char *)e != construct_class)
        return clang_getNullCursor();
    CXCursor r = c;
    r.kind = CXCursor_CallExpr;
    r.data[1] = e;
    return r;
}

typedef struct InitTest {
    int ok;
} InitTest;

static enum CXChildVisitResult inittest_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    InitTest *t = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_getCursorKind(parent) == CXCursor_VarDecl) { /* S b(1) */
        construct_class = *(const unsigned char *)c.data[1];
        t->ok++;
    } else if (clang_getCursorKind(c) == CXCursor_InitListExpr && t->ok == 1) { /* S a[3] = {2} */
        const void *list = semantic_list(c), *first = (const void *)read_word((const void *)read_word(list, 16), 0);
        if (first && *(const unsigned char *)first != construct_class &&
            *(const unsigned char *)read_word(first, 16) == construct_class) /* C++17: the conversion around it */
            implicit_cast_class = *(const unsigned char *)first;
        CXCursor e0 = semantic_element(c, list, 0), e2 = semantic_element(c, list, 2);
        if (list != c.data[1] || clang_Cursor_isNull(e0) || clang_Cursor_isNull(e2))
            return CXChildVisit_Break;
        CXCursor k0 = clang_getCursorReferenced(e0), k2 = clang_getCursorReferenced(e2);
        if (clang_getCursorKind(k0) == CXCursor_Constructor && clang_Cursor_getNumArguments(e0) == 1 &&
            clang_getCursorKind(k2) == CXCursor_Constructor && clang_Cursor_getNumArguments(e2) == 0 &&
            clang_CXXConstructor_isDefaultConstructor(k2) && !clang_CXXConstructor_isDefaultConstructor(k0))
            t->ok++;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static bool initlist_hack_works(void)
{
    if (initlist_hack_state)
        return initlist_hack_state > 0;
    static const char src[] = "struct S { int v; S(int x) : v(x) {} S() : v(7) {} }; S b(1); S a[3] = {2};";
    struct CXUnsavedFile u = {"inittest.cpp", src, sizeof src - 1};
    CXIndex idx = clang_createIndex(0, 0);
    const char *const args[] = {"-std=c++17"}; /* as the parse's C++ for OpenCL 2021 */
    CXTranslationUnit tu = clang_parseTranslationUnit(idx, "inittest.cpp", args, 1, &u, 1, 0);
    InitTest t = {0};
    if (tu)
        clang_visitChildren(clang_getTranslationUnitCursor(tu), inittest_visit, &t);
    initlist_hack_state = t.ok == 2 ? 1 : -1;
    if (tu)
        clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return initlist_hack_state > 0;
}

/* Tokens of the extent of C (spelled tokens of the file). */
typedef struct Toks {
    CXToken *t;
    unsigned n;
    CXTranslationUnit tu;
} Toks;

static Toks toks_of(Parser *P, CXCursor c)
{
    Toks t = {NULL, 0, P->tu};
    clang_tokenize(P->tu, clang_getCursorExtent(c), &t.t, &t.n);
    return t;
}

static char *tok_text(Parser *P, Toks *t, unsigned i)
{
    return cx_take(P, clang_getTokenSpelling(t->tu, t->t[i]));
}

static unsigned tok_offset(Toks *t, unsigned i)
{
    return offset_of(clang_getTokenLocation(t->tu, t->t[i]));
}

static void toks_free(Toks *t)
{
    if (t->t)
        clang_disposeTokens(t->tu, t->t, t->n);
}

static const char *binary_operator(Parser *P, CXCursor c, CXCursor lhs)
{
    if (opcode_hack_works()) {
        unsigned opc = read_opcode_bits(c, false);
        return opc < sizeof binary_ops / sizeof *binary_ops ? binary_ops[opc] : NULL;
    }
    unsigned end = offset_of(clang_getRangeEnd(clang_getCursorExtent(lhs)));
    Toks t = toks_of(P, c);
    const char *op = NULL;
    for (unsigned i = 0; i < t.n && !op; i++)
        if (tok_offset(&t, i) >= end)
            op = tok_text(P, &t, i);
    toks_free(&t);
    return op;
}

/* The operator of a unary expression; *postfix says whether it follows its operand. */
static const char *unary_operator(Parser *P, CXCursor c, CXCursor operand, bool *postfix)
{
    *postfix = false;
    if (opcode_hack_works()) {
        unsigned opc = read_opcode_bits(c, true);
        *postfix = opc < 2;
        return opc < sizeof unary_ops / sizeof *unary_ops ? unary_ops[opc] : NULL;
    }
    unsigned start = offset_of(clang_getRangeStart(clang_getCursorExtent(operand)));
    Toks t = toks_of(P, c);
    const char *op = NULL;
    if (t.n && tok_offset(&t, 0) < start) {
        op = tok_text(P, &t, 0);
    } else if (t.n) {
        op = tok_text(P, &t, t.n - 1);
        *postfix = true;
    }
    toks_free(&t);
    return op;
}

/* ---- swizzles ----
 * libclang shows a swizzle (clang::ExtVectorElementExpr) as an unexposed expression, like an implicit cast, and
 * inside macro arguments (float4(x.w)) its extent is the macro's. The statement class is the low byte of the
 * clang::Stmt the cursor points at, and the accessor's location is stored after the base expression; a self-test
 * learns the class number and checks the accessor read on a known swizzle, and the accessor's text is then read
 * from the file at that location's spelling. Without the self-test, the last tokens of the extent (v . xy) serve.
 */
static int swizzle_class = -2; /* -2 untested, -1 unavailable */

static CXSourceLocation accessor_location(CXCursor c)
{
    CXSourceLocation l = clang_getCursorLocation(c);
    unsigned raw;
    memcpy(&raw, (const char *)c.data[1] + 32, sizeof raw);
    l.int_data = raw;
    return l;
}

/* The identifier at location L's spelling, read from the file's contents. */
static char *identifier_at(Parser *P, CXTranslationUnit tu, CXSourceLocation l)
{
    CXFile f;
    unsigned off;
    clang_getSpellingLocation(l, &f, NULL, NULL, &off);
    size_t size = 0;
    const char *text = f ? clang_getFileContents(tu, f, &size) : NULL;
    if (!text || off >= size)
        return NULL;
    size_t n = 0;
    while (off + n < size && (isalnum((unsigned char)text[off + n]) || text[off + n] == '_'))
        n++;
    char *id = arena_alloc(P->arena, n + 1);
    memcpy(id, text + off, n);
    return id;
}

typedef struct SwzTest {
    Parser *P;
    CXTranslationUnit tu;
    bool ok;
} SwzTest;

static enum CXChildVisitResult swztest_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    SwzTest *t = data;
    if (clang_getCursorKind(c) == CXCursor_UnexposedExpr && clang_getCursorType(c).kind != CXType_ExtVector) {
        char *id = identifier_at(t->P, t->tu, accessor_location(c));
        if (id && !strcmp(id, "wzy")) {
            swizzle_class = *(const unsigned char *)c.data[1];
            t->ok = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

static bool swizzle_hack_works(Parser *P)
{
    if (swizzle_class != -2)
        return swizzle_class >= 0;
    static const char src[] = "typedef float f4 __attribute__((ext_vector_type(4)));\n"
                              "typedef float f3 __attribute__((ext_vector_type(3)));\n"
                              "#define ID(x) x\nvoid f(f4 v) { f3 w = ID(v.wzy); }\n";
    struct CXUnsavedFile u = {"swztest.cpp", src, sizeof src - 1};
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = clang_parseTranslationUnit(idx, "swztest.cpp", NULL, 0, &u, 1, 0);
    SwzTest t = {P, tu, false};
    swizzle_class = -1;
    if (tu)
        clang_visitChildren(clang_getTranslationUnitCursor(tu), swztest_visit, &t);
    if (!t.ok)
        swizzle_class = -1;
    if (tu)
        clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return swizzle_class >= 0;
}

/* The accessor of a vector swizzle (v.xy), or NULL when C is not one. */
static const char *swizzle_accessor(Parser *P, CXCursor c)
{
    if (swizzle_hack_works(P)) {
        if (*(const unsigned char *)c.data[1] != swizzle_class)
            return NULL;
        char *id = identifier_at(P, P->tu, accessor_location(c));
        return id && *id && strspn(id, "xyzwrgba") == strlen(id) ? id : NULL;
    }
    Toks t = toks_of(P, c);
    const char *acc = NULL;
    if (t.n >= 3) {
        char *last = tok_text(P, &t, t.n - 1), *dot = tok_text(P, &t, t.n - 2);
        if (!strcmp(dot, ".") && *last && strspn(last, "xyzwrgba") == strlen(last))
            acc = last;
    }
    toks_free(&t);
    return acc;
}

/* Strips the "__private"/"__global"/... spelled into names and gives the callee's qualified name. */
static char *qualified_name(Parser *P, CXCursor decl)
{
    char buf[512] = "";
    CXCursor chain[16];
    int n = 0;
    for (CXCursor c = decl; n < 16 && !clang_isTranslationUnit(clang_getCursorKind(c)); c = clang_getCursorSemanticParent(c)) {
        chain[n++] = c;
        if (clang_Cursor_isNull(clang_getCursorSemanticParent(c)))
            break;
    }
    for (int i = n - 1; i >= 0; i--) {
        char *s = cx_take(P, clang_getCursorSpelling(chain[i]));
        if (strlen(buf) + strlen(s) + 3 >= sizeof buf)
            break;
        if (*buf)
            strcat(buf, "::");
        strcat(buf, s);
    }
    return arena_strdup(P->arena, buf);
}

/* A compile-time constant expression as a literal (trait values, numeric_limits, static constexpr members);
   NULL when clang cannot evaluate C. */
static Node *const_value(Parser *P, CXCursor c)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return NULL;
    Type *ty = conv_type(P, clang_getCursorType(c));
    Node *n = NULL;
    if (ty->kind == TY_ENUM) /* an enumerator as a template argument (ggml's sort order): its int, as N_ENUMVAL */
        ty = ty_scalar(TY_INT);
    if (clang_EvalResult_getKind(r) == CXEval_Int && ty_is_scalar(ty) && !ty_is_float(ty)) {
        n = new_node(P, ty->kind == TY_BOOL ? N_BOOL : N_INT, c);
        n->ival = clang_EvalResult_isUnsignedInt(r) ? (long long)clang_EvalResult_getAsUnsigned(r) : clang_EvalResult_getAsLongLong(r);
        n->ty = ty;
    } else if (clang_EvalResult_getKind(r) == CXEval_Float && ty_is_float(ty)) {
        n = new_node(P, N_FLOAT, c);
        n->fval = clang_EvalResult_getAsDouble(r);
        n->ty = ty;
    } else if (clang_EvalResult_getKind(r) == CXEval_Int && ty->kind == TY_PTR && clang_EvalResult_getAsLongLong(r) == 0) {
        n = new_node(P, N_INT, c); /* nullptr (a default argument: `const device T* twiddles = nullptr`) */
        n->ty = ty;
    }
    clang_EvalResult_dispose(r);
    return n;
}

/* The object inside a member function: `this`, or a member named without `this->`. */
static Node *self_ref(Parser *P, CXCursor c)
{
    if (!P->self)
        return unsupported(P, c, "'this' outside a member function of a struct with fields");
    Node *n = new_node(P, N_VAR, c);
    n->var = P->self;
    n->ty = P->self->ty->kind == TY_REF ? P->self->ty->elem : P->self->ty;
    return n;
}

static Func *get_ctor(Parser *P, CXCursor decl, Type *ty);
static CXCursor nth_param(CXCursor f, int i);
static Node *function_constant_defined(Parser *P, CXCursor c, Node *call);
static Var *capture_param(Parser *P, Var *outer, bool by_ref);
static Node **realloc_list(Parser *P, Node **list, int len, int more);

/* The struct inside arrays of T (T itself when it is one), or NULL. */
static StructDef *base_struct(const Type *t)
{
    while (t && t->kind == TY_ARRAY)
        t = t->elem;
    return t && t->kind == TY_STRUCT ? t->sdef : NULL;
}

/* A value of type T made without an initializer, or elements or fields an initializer list leaves out: an error
   when the struct's default member initializer would give them a value (not modelled yet). */
static bool check_member_init(Parser *P, SrcLoc loc, const Type *t)
{
    StructDef *s = base_struct(t);
    if (!s || !s->member_init)
        return true;
    diag_error(P->diag, loc, "the default member initializer of '%s' in struct %s is not supported yet (initialize every member "
               "where the variable is declared)", s->member_init, s->name);
    return false;
}

/* `S a[N];` (or S a[N][M]) of a struct S whose default constructor the user wrote: each element made by it,
   as `S[N](S_make(), S_make(), ...)`; NULL past M2G_MAX_CONSTRUCTED_ELEMENTS elements. */
static Node *constructed_array(Parser *P, CXCursor c, CXCursor def, Type *ty, int *budget)
{
    if (ty->kind != TY_ARRAY) {
        if (--*budget < 0)
            return NULL;
        Node *e = new_node(P, N_CALL, c);
        e->ty = ty;
        e->name = "constructor";
        e->fn = get_ctor(P, def, ty);
        taint(P, e->fn->clang_error);
        return e;
    }
    Node *n = new_node(P, N_INITLIST, c);
    n->ty = ty;
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(ty->n + 1));
    for (int i = 0; i < ty->n; i++)
        if (!(n->list[n->n_list++] = constructed_array(P, c, def, ty->elem, budget)))
            return NULL;
    return n;
}

/* T(args) of a struct T: a copy is the value itself; the implicit default constructor is no initializer
   (an N_INITLIST without elements, marked implicit); a user constructor is a function returning the struct. */
static Node *conv_construct(Parser *P, CXCursor c, CXCursor ctor, Node *n)
{
    if (n->ty->kind == TY_ARRAY && in_prelude(ctor)) { /* metal::array: copied as a GLSL array, or not initialized */
        if (n->n_list == 1)
            return n->list[0];
        if (n->n_list == 0) {
            n->kind = N_INITLIST;
            n->implicit = true;
            return n;
        }
    }
    CXCursor def = clang_getCursorDefinition(ctor);
    bool user = !clang_Cursor_isNull(def) && !clang_CXXMethod_isDefaulted(def) && !in_prelude(def);
    Type *base = n->ty;
    while (base->kind == TY_ARRAY)
        base = base->elem;
    if (n->ty->kind == TY_ARRAY && n->n_list == 0 && base->kind == TY_STRUCT) {
        if (!user || base->sdef->empty) { /* the implicit default constructor: no initializer */
            check_member_init(P, n->loc, n->ty);
            n->kind = N_INITLIST;
            n->implicit = true;
            return n;
        }
        int budget = M2G_MAX_CONSTRUCTED_ELEMENTS;
        Node *init = constructed_array(P, c, def, n->ty, &budget);
        return init ? init : unsupported(P, c, arena_printf(P->arena, "an array of more than %d %s made by its constructor",
                                                            M2G_MAX_CONSTRUCTED_ELEMENTS, ty_metal_name(P->arena, base)));
    }
    if (n->ty->kind != TY_STRUCT)
        return unsupported(P, c, "this constructor call");
    if (n->n_list == 1 && (clang_CXXConstructor_isCopyConstructor(ctor) || clang_CXXConstructor_isMoveConstructor(ctor) ||
                           (n->list[0]->ty && ty_equal(n->list[0]->ty, n->ty))))
        return n->list[0]; /* a copy (also across address spaces) */
    if (n->n_list == 0 && (!user || n->ty->sdef->empty)) {
        check_member_init(P, n->loc, n->ty);
        n->kind = N_INITLIST;
        n->implicit = true;
        return n;
    }
    if (!user)
        return unsupported(P, c, "this constructor call");
    n->fn = get_ctor(P, def, n->ty);
    taint(P, n->fn->clang_error);
    return n;
}

/* threadgroup_barrier(mem_flags::mem_threadgroup | ...): the flags are a constant expression. */
static Node *conv_barrier(Parser *P, CXCursor c, int index)
{
    Node *n = new_node(P, N_SIMD, c);
    n->ty = ty_scalar(TY_VOID);
    n->builtin = index;
    n->name = simd_table[index].metal;
    n->ival = 3; /* device and threadgroup memory, if the flags cannot be read */
    if (clang_Cursor_getNumArguments(c) == 1) {
        CXEvalResult r = clang_Cursor_Evaluate(clang_Cursor_getArgument(c, 0));
        if (r && clang_EvalResult_getKind(r) == CXEval_Int)
            n->ival = clang_EvalResult_getAsLongLong(r);
        if (r)
            clang_EvalResult_dispose(r);
    }
    return n;
}

/* atomic_thread_fence(mem_flags::mem_device | ..., order, scope): the flags read like a barrier's, as an
   integer first argument; atomics.c checks the rest. */
static Node *conv_fence(Parser *P, CXCursor c)
{
    Node *n = new_node(P, N_ATOMIC, c);
    n->ty = ty_scalar(TY_VOID);
    n->name = "atomic_thread_fence";
    int nargs = clang_Cursor_getNumArguments(c);
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(nargs + 1));
    Node *flags = new_node(P, N_INT, clang_Cursor_getArgument(c, 0));
    flags->ty = ty_scalar(TY_INT);
    flags->ival = -1; /* not a constant: atomics.c says so */
    CXEvalResult r = clang_Cursor_Evaluate(clang_Cursor_getArgument(c, 0));
    if (r && clang_EvalResult_getKind(r) == CXEval_Int)
        flags->ival = clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    n->list[n->n_list++] = flags;
    for (int i = 1; i < nargs; i++)
        n->list[n->n_list++] = conv_expr(P, clang_Cursor_getArgument(c, (unsigned)i));
    return n;
}

static enum CXChildVisitResult find_method(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    const char **name = data;
    if (clang_getCursorKind(c) == CXCursor_CXXMethod) {
        CXString s = clang_getCursorSpelling(c);
        bool same = !strcmp(clang_getCString(s), *name);
        clang_disposeString(s);
        if (same) {
            *name = NULL;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Continue;
}

/* Whether record DECL declares a method NAME itself (implicit ones are not visited). */
static bool has_user_method(CXCursor decl, const char *name)
{
    const char *n = name;
    clang_visitChildren(decl, find_method, &n);
    return n == NULL;
}

/* A value for a float vector's constructor: a bfloat (or bfloat vector) converted to float. */
static Node *float_value(Parser *P, CXCursor c, Node *v)
{
    if (!v->ty || ty_scalar_kind(v->ty) != TY_BFLOAT)
        return v;
    Node *n = new_node(P, N_CAST, c);
    n->a = v;
    n->ty = ty_vec(P->arena, TY_FLOAT, ty_width(v->ty));
    n->implicit = true;
    return n;
}

/* The components of bfloatN(a, b, ...) as the float vector float N(a, b, ...). */
static Node *bfloat_components(Parser *P, CXCursor c, int width, int nargs)
{
    Node *v = new_node(P, N_VECCTOR, c);
    v->ty = ty_vec(P->arena, TY_FLOAT, width);
    v->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)nargs);
    v->n_list = nargs;
    for (int i = 0; i < nargs; i++)
        v->list[i] = float_value(P, c, conv_expr(P, clang_Cursor_getArgument(c, i)));
    return v;
}

/* An operand of a bfloat operator as float: a bfloat converted, an integer made a bfloat first (as Metal does). */
static Node *bfloat_operand(Parser *P, CXCursor c, Node *v)
{
    if (v->kind == N_INT && v->ival >= -256 && v->ival <= 256) { /* exact in bfloat: 2.0 for 2 */
        v->kind = N_FLOAT;
        v->fval = (double)v->ival;
        v->ty = ty_scalar(TY_FLOAT);
        return v;
    }
    if (v->ty && ty_is_integer(v->ty)) {
        Node *b = new_node(P, N_CAST, c);
        b->a = v;
        b->ty = ty_scalar(TY_BFLOAT);
        b->implicit = true;
        v = b;
    }
    return float_value(P, c, v);
}

/* Whether an operand of the call C is a bfloat (bfloat's operators, not the prelude's others: matrices). */
static bool has_bfloat_argument(Parser *P, CXCursor c, int nargs)
{
    for (int i = 0; i < nargs; i++)
        if (ty_scalar_kind(conv_type(P, clang_getCursorType(clang_Cursor_getArgument(c, i)))) == TY_BFLOAT)
            return true;
    return false;
}

/* bfloat's operators (the prelude's operator+(bfloat, bfloat) and the mixed ones): the operation in float, the
   result rounded to bfloat where Metal's is a bfloat: a * b + c rounds twice, as Metal's bfloat arithmetic does. */
static Node *bfloat_operator(Parser *P, CXCursor c, Node *n, const char *op, int nargs)
{
    Type *result = n->ty;
    Node *x = new_node(P, nargs == 1 ? N_UNARY : N_BINARY, c);
    x->op = op;
    x->a = bfloat_operand(P, c, conv_expr(P, clang_Cursor_getArgument(c, 0)));
    x->ty = x->a->ty;
    if (nargs == 2) {
        x->b = bfloat_operand(P, c, conv_expr(P, clang_Cursor_getArgument(c, 1)));
        if (x->b->ty && ty_width(x->b->ty) > ty_width(x->ty))
            x->ty = x->b->ty;
    }
    if (result->kind == TY_BOOL || ty_scalar_kind(result) == TY_FLOAT) {
        x->ty = result;
        return x;
    }
    n->kind = N_CAST; /* a bfloat result: rounded */
    n->a = x;
    n->implicit = true;
    return n;
}

/* bfloat's x op= y, ++x and x++ (member operators of the prelude's bfloat): N_ASSIGN x op= y (x += 1.0 for ++),
   which emit_glsl.c prints in float, rounded back once; a postfix one is named "x++" (its old value is not kept). */
static Node *bfloat_update(Parser *P, CXCursor c, Node *n, const char *op, int nargs)
{
    n->kind = N_ASSIGN;
    n->a = conv_expr(P, clang_Cursor_getArgument(c, 0));
    n->ty = n->a->ty;
    n->name = NULL;
    if (!strcmp(op, "[]") && nargs == 2) { /* v[i] of a bfloat2..4 */
        n->kind = N_INDEX;
        n->b = conv_expr(P, clang_Cursor_getArgument(c, 1));
        n->ty = ty_scalar(TY_BFLOAT);
        return n;
    }
    if (!strcmp(op, "++") || !strcmp(op, "--")) {
        n->op = op[0] == '+' ? "+=" : "-=";
        n->b = new_node(P, N_FLOAT, c);
        n->b->fval = 1.0;
        n->b->ty = ty_scalar(TY_FLOAT);
        if (nargs == 2)
            n->name = op[0] == '+' ? "x++" : "x--";
        return n;
    }
    if (nargs != 2 || strlen(op) != 2 || op[1] != '=')
        return unsupported(P, c, "this bfloat operator");
    n->op = op;
    n->b = conv_expr(P, clang_Cursor_getArgument(c, 1));
    return n;
}

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    *(CXCursor *)data = clang_getCursorReferenced(c);
    return CXChildVisit_Break;
}

/* `__mtl_fn_f::call(args)`, a function passed as a template argument (templates.c): the function f it calls. */
static CXCursor through_function_wrapper(Parser *P, CXCursor callee)
{
    if (clang_getCursorKind(callee) != CXCursor_CXXMethod || !clang_CXXMethod_isStatic(callee))
        return callee;
    char *owner = cx_take(P, clang_getCursorSpelling(clang_getCursorSemanticParent(callee)));
    if (strncmp(owner, "__mtl_fn_", 9) || strcmp(cx_take(P, clang_getCursorSpelling(callee)), "call"))
        return callee;
    CXCursor f = clang_getNullCursor(), def = clang_getCursorDefinition(callee);
    clang_visitChildren(clang_Cursor_isNull(def) ? callee : def, find_call, &f);
    return clang_Cursor_isNull(f) ? callee : f;
}

/* A member function of metal::array<T, N> (a GLSL array, conv_type): a[i], size(), data(), front(), back().
   N's arguments are converted; the object of a named call is the member reference's base. */
static Node *array_method(Parser *P, CXCursor c, Node *n, const char *name)
{
    Node *object = NULL;
    if (!strcmp(name, "operator[]") && n->n_list == 2) {
        object = n->list[0];
    } else {
        Kids k = kids_of(c);
        if (k.len && clang_getCursorKind(k.items[0]) == CXCursor_MemberRefExpr) {
            Kids m = kids_of(k.items[0]);
            object = m.len ? conv_expr(P, m.items[0]) : NULL;
            free(m.items);
        }
        free(k.items);
    }
    Type *at = object ? object->ty : NULL;
    if (at && at->kind == TY_PTR) { /* through a pointer: (*p)[i] */
        Node *d = new_node(P, N_DEREF, c);
        d->a = object;
        d->ty = at->elem;
        d->op = "*";
        object = d;
        at = at->elem;
    }
    if (!at || at->kind != TY_ARRAY)
        return unsupported(P, c, arena_printf(P->arena, "metal::array::%s here", name));
    Node *r = new_node(P, N_INDEX, c);
    r->a = object;
    r->ty = at->elem;
    if (!strcmp(name, "operator[]") && n->n_list == 2) {
        Node *ix = n->list[1]; /* the size_t parameter's widening of a 32-bit index, left out */
        while (ix->kind == N_CAST && ix->implicit && ix->a->ty && ty_is_integer(ix->a->ty))
            ix = ix->a;
        if (ix->kind == N_INT && ix->ival >= 0 && ix->ival <= 0x7fffffff && ty_is_integer(ix->ty)) {
            Node *k = new_node(P, N_INT, c);
            *k = *ix;
            k->ty = ty_scalar(TY_INT);
            ix = k;
        }
        r->b = ix;
        return r;
    }
    if (!strcmp(name, "size") || !strcmp(name, "max_size") || !strcmp(name, "empty")) {
        Node *v = new_node(P, N_INT, c);
        v->ty = conv_type(P, clang_getCursorType(c));
        v->kind = v->ty->kind == TY_BOOL ? N_BOOL : N_INT;
        v->ival = name[0] == 'e' ? at->n == 0 : at->n;
        return v;
    }
    if (!strcmp(name, "front") || !strcmp(name, "back") || !strcmp(name, "data")) {
        r->b = new_node(P, N_INT, c);
        r->b->ty = ty_scalar(TY_INT);
        r->b->ival = name[0] == 'b' ? at->n - 1 : 0;
        if (name[0] != 'd')
            return r;
        Node *addr = new_node(P, N_ADDR, c); /* data(): &a[0], a pointer into the array (ptr.c) */
        addr->a = r;
        addr->op = "&";
        addr->ty = conv_type(P, clang_getCursorType(c));
        return addr;
    }
    return unsupported(P, c, arena_printf(P->arena, "metal::array::%s", name));
}

/* Metal 4's tensors and MetalPerformancePrimitives (metal::tensor, extents, cooperative tensors,
   mpp::tensor_ops::matmul2d): the prelude declares them so that kernels parse, and each use is one error naming
   the construct. Its name, or NULL for anything else. */
static const char *metal4_name(Parser *P, CXCursor decl)
{
    static const char *const roots[] = {"mpp::", "metal::tensor", "metal::extents", "metal::dextents", "metal::execution_"};
    char *q = qualified_name(P, decl);
    bool m4 = false;
    for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
        m4 |= !strncmp(q, roots[i], strlen(roots[i]));
    if (!m4)
        return NULL;
    char *last = strrchr(q, ':'), *coop = strstr(q, "__mtl_cooperative_tensor");
    if (last && last - q > 2 && clang_getCursorKind(decl) == CXCursor_Constructor)
        last[-1] = 0; /* metal::tensor::tensor -> metal::tensor */
    if (coop)
        return arena_printf(P->arena, "the cooperative tensor's %s", last && last > coop ? last + 1 : "type");
    return q;
}

/* The prelude's simdgroup_matrix<T, C, R>. */
static bool is_sgmat_record(Parser *P, CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind != CXType_Record)
        return false;
    CXCursor d = clang_getTypeDeclaration(c);
    return in_prelude(d) && !strcmp(cx_take(P, clang_getCursorSpelling(d)), "simdgroup_matrix");
}

/* simdgroup_matrix's functions, constructors, product and thread_elements() (sgmat.c): the arguments, the
   object first. */
static Node *conv_sgmat_call(Parser *P, CXCursor c, Node *n, const char *what)
{
    int nargs = clang_Cursor_getNumArguments(c);
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(nargs + 1));
    if (!strcmp(what, "thread_elements")) {
        Kids k = kids_of(c), m = k.len && clang_getCursorKind(k.items[0]) == CXCursor_MemberRefExpr ? kids_of(k.items[0]) : (Kids){0};
        if (m.len)
            n->list[n->n_list++] = conv_expr(P, m.items[0]);
        free(k.items);
        free(m.items);
        if (!n->n_list)
            return unsupported(P, c, "this call of thread_elements()");
    }
    for (int i = 0; i < nargs; i++)
        n->list[n->n_list++] = conv_expr(P, clang_Cursor_getArgument(c, (unsigned)i));
    return sgmat_call(P->prog, n, what);
}

/* The object of a call to a conversion function, `x.operator T()` (clang's implicit member call), or NULL. */
static Node *conversion_object(Parser *P, CXCursor c)
{
    Kids k = kids_of(c), m = k.len ? kids_of(k.items[0]) : (Kids){0};
    Node *from = m.len ? conv_expr(P, m.items[0]) : NULL;
    free(k.items);
    free(m.items);
    return from;
}

/* Whether CALLEE is a member (constructor, conversion) of the prelude's struct template NAME. */
static bool prelude_member_of(Parser *P, CXCursor callee, const char *name)
{
    return in_prelude(callee) && !strcmp(cx_take(P, clang_getCursorSpelling(clang_getCursorSemanticParent(callee))), name);
}

/* Metal's uniform<T> is a T marked the same in every thread of the threadgroup (conv_type makes it a T):
   make_uniform(v), uniform<T>(v) and its conversion back to T are the value v itself; `uniform<T> u;` is not
   initialized. NULL when call C is none of these. */
static Node *uniform_call(Parser *P, CXCursor c, CXCursor callee, Node *n)
{
    enum CXCursorKind ck = clang_getCursorKind(callee);
    int nargs = clang_Cursor_getNumArguments(c);
    bool ctor = ck == CXCursor_Constructor && prelude_member_of(P, callee, "uniform");
    if ((ctor || (in_prelude(callee) && !strcmp(n->name, "make_uniform"))) && nargs == 1)
        return conv_expr(P, clang_Cursor_getArgument(c, 0));
    if (ctor && nargs == 0) {
        n->kind = N_INITLIST;
        n->implicit = true;
        return n;
    }
    if (ck == CXCursor_ConversionFunction && prelude_member_of(P, callee, "uniform")) {
        Node *from = conversion_object(P, c);
        return from ? from : unsupported(P, c, "this conversion of a uniform<T>");
    }
    return NULL;
}

/* numeric_limits<bfloat>::NAME() (clang does not fold bfloat's constructor): the float value, converted (exactly:
   each is a bfloat); NULL for a name that is not one of them. */
static Node *bfloat_limit(Parser *P, CXCursor c, const char *name)
{
    static const struct { const char *name; double value; } limits[] = {
        {"min", 0x1p-126}, {"max", 0x1.fep+127}, {"lowest", -0x1.fep+127}, {"epsilon", 0x1p-7}, {"round_error", 0.5},
        {"denorm_min", 0x1p-133}, {"infinity", INFINITY}, {"quiet_NaN", NAN},
    };
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        if (!strcmp(name, limits[i].name)) {
            Node *f = new_node(P, N_FLOAT, c), *n = new_node(P, N_CAST, c);
            f->fval = limits[i].value;
            f->ty = ty_scalar(TY_FLOAT);
            n->a = f;
            n->ty = ty_scalar(TY_BFLOAT);
            n->implicit = true;
            return n;
        }
    return NULL;
}

/* The function that a call through a template parameter of function type calls in this instance: ggml's
   `template <kernel_mul_mv_disp_t disp_fn> void mmv_fn(...) { disp_fn(...); }`, instantiated with
   `mmv_fn<kernel_mul_mv_t_t_disp<float, float>>`. In an instance's body the callee is the substituted argument,
   `&f` (a cursor without a referenced declaration, then the address of F); only such single-child wrappers are
   looked through (a unary operator applied to a function designator, & or *, yields that function), so a call
   through a pointer chosen at run time stays an error. The null cursor when C is not such
   a call. */
static CXCursor template_argument_callee(CXCursor c)
{
    Kids k = kids_of(c);
    CXCursor e = k.len ? k.items[0] : clang_getNullCursor();
    free(k.items);
    for (int depth = 0; !clang_Cursor_isNull(e) && depth < 8; depth++) {
        enum CXCursorKind ek = clang_getCursorKind(e);
        CXCursor r = clang_getCursorReferenced(e);
        if (ek == CXCursor_DeclRefExpr && !clang_Cursor_isNull(r))
            return clang_getCursorKind(r) == CXCursor_FunctionDecl ? r : clang_getNullCursor();
        if (ek != CXCursor_DeclRefExpr && ek != CXCursor_UnexposedExpr && ek != CXCursor_ParenExpr && ek != CXCursor_UnaryOperator)
            break;
        Kids in = kids_of(e);
        e = in.len == 1 ? in.items[0] : clang_getNullCursor();
        free(in.items);
    }
    return clang_getNullCursor();

}

/* logger.log_debug("fmt", args...) on a metal::os_log (MSL 3.2 shader logging; MLX's mlx::os_log): Metal prints
   the message only when the library is built with -fmetal-enable-logging and the host attaches a log state, and
   the message never changes a result. The call is dropped, with a warning at each call site (once, not once per
   template instance); arguments that change anything are an error, since dropping them would change results. */
static Node *conv_log_call(Parser *P, CXCursor c, const char *name)
{
    int nargs = clang_Cursor_getNumArguments(c);
    for (int i = 1; i < nargs; i++) {
        Node *a = conv_expr(P, clang_Cursor_getArgument(c, (unsigned)i));
        if (node_effects(a, EFFECT_CALLS))
            return unsupported(P, c, arena_printf(P->arena, "os_log::%s with an argument that changes a variable or calls a function", name));
    }
    SrcLoc loc = loc_of(P, c);
    char *key = arena_printf(P->arena, "os_log call@%s:%d:%d", loc.file ? loc.file : "", loc.line, loc.col);
    if (!map_get(P, key)) {
        map_put(P, key, P);
        diag_warning(P->diag, loc, "os_log::%s dropped: shader logging is not translated (Metal prints the message only "
                     "when built with -fmetal-enable-logging and given a log state; it changes no result)", name);
    }
    return new_node(P, N_EMPTY, c);
}

static Node *conv_call(Parser *P, CXCursor c)
{
    CXCursor callee = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(callee))
        callee = template_argument_callee(c);
    int nargs = clang_Cursor_getNumArguments(c);
    if (!clang_Cursor_isNull(callee) && in_prelude(callee)) {
        char *fname = cx_take(P, clang_getCursorSpelling(callee));
        int si = simd_lookup(fname);
        if (si >= 0 && simd_table[si].group == 'B')
            return conv_barrier(P, c, si);
        if (!strcmp(fname, "atomic_thread_fence") && nargs >= 1)
            return conv_fence(P, c);
    }
    Node *n = new_node(P, N_CALL, c);
    n->ty = conv_type(P, clang_getCursorType(c));
    if (clang_Cursor_isNull(callee))
        return unsupported(P, c, "a call through a function pointer or to a dependent name");
    enum CXCursorKind ck = clang_getCursorKind(callee);
    char *name = cx_take(P, clang_getCursorSpelling(callee));
    n->name = name;
    if (!strncmp(name, "__builtin_inf", 13) || !strncmp(name, "__builtin_huge_val", 18) || !strncmp(name, "__builtin_nan", 13)) {
        /* INFINITY and NAN of the prelude */
        n->kind = N_FLOAT;
        n->fval = name[10] == 'n' ? NAN : INFINITY;
        return n;
    }
    if (!strncmp(name, "__builtin_", 10) && !in_prelude(callee)) { /* clang's own (MLX's `__builtin_ctz(radix)`): folded */
        Node *v = const_value(P, c);
        return v ? v : unsupported(P, c, arena_printf(P->arena, "'%s' of values known only at run time", name));
    }
    Node *u = in_prelude(callee) ? uniform_call(P, c, callee, n) : NULL;
    if (u)
        return u;
    if (in_prelude(callee) && !strcmp(name, "__mtl_private") && nargs == 1) /* a temporary as thread memory (fix_conversions) */
        return conv_expr(P, clang_Cursor_getArgument(c, 0));
    if (ck == CXCursor_CXXMethod && prelude_member_of(P, callee, "os_log"))
        return conv_log_call(P, c, name);
    if (in_prelude(callee) &&
        (sgmat_function(name) || (!strcmp(name, "operator*") && is_sgmat_record(P, clang_getCursorType(c))) ||
         (ck == CXCursor_Constructor && is_sgmat_record(P, clang_getCursorType(clang_getCursorSemanticParent(callee))))))
        return conv_sgmat_call(P, c, n, ck == CXCursor_Constructor ? "simdgroup_matrix" : name);
    if (in_prelude(callee) && metal4_name(P, callee))
        return unsupported(P, c, arena_printf(P->arena, "%s (Metal 4 tensors and MetalPerformancePrimitives)", metal4_name(P, callee)));
    if ((ck == CXCursor_Constructor || ck == CXCursor_ConversionFunction) && in_prelude(callee) &&
        (ty_scalar_kind(n->ty) == TY_BFLOAT || ck == CXCursor_ConversionFunction)) {
        /* bfloat(float) and bfloat's operator float (bfloat2..4 the same with float2..4): the conversions bfloat
           arithmetic goes through */
        Node *from = nargs == 1 ? conv_expr(P, clang_Cursor_getArgument(c, 0)) : NULL;
        if (nargs > 1 && n->ty->kind == TY_VEC) /* bfloat4(a, b, c, d): float4(a, b, c, d) converted */
            from = bfloat_components(P, c, ty_width(n->ty), nargs);
        if (ck == CXCursor_ConversionFunction)
            from = conversion_object(P, c);
        if (nargs == 0 && ck == CXCursor_Constructor) {
            /* bfloat() and `bfloat x;` (MLX's reduce_row.h: `U row_total;`): 0, as bfloat() is in Metal; `bfloat3
               out;` (PyTorch's CrossOp: its components assigned next) likewise, float3(0.0) converted */
            from = new_node(P, N_FLOAT, c);
            from->ty = ty_scalar(TY_FLOAT);
            from->fval = 0.0;
            if (n->ty->kind == TY_VEC) {
                Node *v = new_node(P, N_VECCTOR, c);
                v->ty = ty_vec(P->arena, TY_FLOAT, ty_width(n->ty));
                v->list = arena_alloc(P->arena, sizeof(Node *));
                v->list[0] = from;
                v->n_list = 1;
                from = v;
            }
        }
        if (!from)
            return unsupported(P, c, "this bfloat conversion");
        n->kind = N_CAST;
        n->a = from;
        n->implicit = true;
        return n;
    }
    if (in_prelude(callee)) {
        Node *k = const_value(P, c);
        if (!k && ty_scalar_kind(n->ty) == TY_BFLOAT && n->ty->kind != TY_VEC && prelude_member_of(P, callee, "numeric_limits"))
            k = bfloat_limit(P, c, name);
        if (k)
            return k;
    }
    if ((ck == CXCursor_FunctionDecl || ck == CXCursor_FunctionTemplate) && in_prelude(callee) &&
        !strncmp(name, "operator", 8) && strchr("+-*/<>=!", name[8]) && (nargs == 1 || nargs == 2) &&
        has_bfloat_argument(P, c, nargs))
        return bfloat_operator(P, c, n, name + 8, nargs);
    if (ck == CXCursor_CXXMethod && in_prelude(callee) && ty_scalar_kind(n->ty) == TY_BFLOAT && !strncmp(name, "operator", 8) &&
        strcmp(name, "operator=") && nargs >= 1)
        return bfloat_update(P, c, n, name + 8, nargs);
    if (ck == CXCursor_CXXMethod && in_prelude(callee) && !strcmp(name, "operator=") && nargs == 2 &&
        clang_Cursor_getNumArguments(callee) == 1 && ty_scalar_kind(n->ty) == TY_BFLOAT && n->ty->kind != TY_VEC &&
        clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(callee, 0))).kind == CXType_Float) {
        /* bfloat's operator=(float) (grammar/metal_types): x = bfloat(y), y already converted to float by clang
           (through the class's own conversion operator for MLX's `scale = mask[i]`) */
        n->kind = N_ASSIGN;
        n->op = "=";
        n->a = conv_expr(P, clang_Cursor_getArgument(c, 0));
        n->ty = n->a->ty;
        n->b = new_node(P, N_CAST, c);
        n->b->a = conv_expr(P, clang_Cursor_getArgument(c, 1));
        n->b->ty = ty_scalar(TY_BFLOAT);
        n->b->implicit = true;
        return n;
    }
    if (ck == CXCursor_CXXMethod && !strcmp(name, "operator=") && nargs == 2 &&
        (!has_user_method(clang_getCursorSemanticParent(callee), "operator=") ||
         (in_prelude(callee) && ty_scalar_kind(n->ty) == TY_BFLOAT && n->ty->kind != TY_VEC))) {
        /* the implicit copy assignment of a struct (across address spaces in clang's OpenCL mode) */
        n->kind = N_ASSIGN;
        n->op = "=";
        n->a = conv_expr(P, clang_Cursor_getArgument(c, 0));
        n->b = conv_expr(P, clang_Cursor_getArgument(c, 1));
        n->ty = n->a->ty;
        return n;
    }
    /* the object of a member call: obj.f(x) (a member reference first), or obj(x), a + b (argument 0) */
    Node *object = NULL;
    int first = 0;
    if ((ck == CXCursor_CXXMethod || ck == CXCursor_ConversionFunction) && !clang_CXXMethod_isStatic(callee) && !in_prelude(callee)) {
        Kids k = kids_of(c);
        if (k.len && clang_getCursorKind(k.items[0]) == CXCursor_MemberRefExpr) {
            Kids m = kids_of(k.items[0]);
            object = m.len ? conv_expr(P, m.items[0]) : NULL;
            free(m.items);
        } else if (nargs > 0) {
            object = conv_expr(P, clang_Cursor_getArgument(c, 0));
            first = 1;
        }
        free(k.items);
    }
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(nargs + 2));
    CXCursor pattern = clang_getSpecializedCursorTemplate(callee), saved_param = P->default_param;
    for (int i = first; i < nargs; i++) {
        /* the parameter, for a default argument (`= nullptr`): in the pattern of an instance, where it is written */
        P->default_param = nth_param(clang_Cursor_isNull(pattern) ? callee : pattern, i);
        Node *a = conv_expr(P, clang_Cursor_getArgument(c, (unsigned)i));
        P->default_param = saved_param;
        if (a->ty && a->ty->kind == TY_VEC && a->ty->elem->kind == TY_BOOL && !in_prelude(callee) &&
            clang_Cursor_isNull(pattern)) {
            /* `g(a < b)` with g(int4) (and g(bool4)): clang's comparison is an int vector and picks int4, Metal's a
               bool4, which never converts to int4 implicitly: the overload Metal calls is not known here (a template
               deducing M = int4 from it is left alone: its instance reads the values 0 and 1 as the mask) */
            CXCursor prm = nth_param(callee, i);
            Type *pt = clang_Cursor_isNull(prm) ? NULL : conv_type(P, clang_getCursorType(prm));
            pt = pt && pt->kind == TY_REF ? pt->elem : pt;
            if (pt && pt->kind == TY_VEC && pt->elem->kind != TY_BOOL)
                diag_error(P->diag, a->loc, "a vector comparison (%s in Metal) passed for the %s parameter of '%s': "
                           "Metal does not convert it implicitly (write the conversion, %s(...))",
                           ty_metal_name(P->arena, a->ty), ty_metal_name(P->arena, pt), name, ty_metal_name(P->arena, pt));
        }
        if (!is_empty_struct(a->ty)) /* functor objects are not passed */
            n->list[n->n_list++] = a;
    }
    if (in_prelude(callee) && (ck == CXCursor_Constructor || !strncmp(name, "operator", 8)) && matrix_involved(n))
        return matrix_call(P->prog, n, name, ck == CXCursor_Constructor);
    if (ck == CXCursor_Constructor)
        return conv_construct(P, c, callee, n);
    if (ck == CXCursor_CXXMethod && in_prelude(callee) &&
        !strcmp(cx_take(P, clang_getCursorSpelling(clang_getCursorSemanticParent(callee))), "array"))
        return array_method(P, c, n, name);
    if (ck == CXCursor_ConversionFunction && in_prelude(callee))
        return unsupported(P, c, arena_printf(P->arena, "calling C++ conversion '%s'", name));
    if (in_prelude(callee)) {
        char *q = qualified_name(P, callee);
        if (!strcmp(name, "__mtl_make_vec") || !strcmp(name, "__mtl_make_bvec") || !strcmp(name, "__mtl_vector")) {
            n->kind = N_VECCTOR;
            for (int i = 0; i < n->n_list; i++) /* float4(b) of a bfloat4 b: its value, not its bits */
                n->list[i] = float_value(P, c, n->list[i]);
            if (n->ty && n->ty->kind == TY_VEC && ty_scalar_kind(n->ty) == TY_BFLOAT) {
                /* `vec<T, 2> v(a, b)` of T = bfloat (written __mtl_vector): the float vector of the values, rounded
                   to bfloat2, not a u16vec2 of the floats */
                Node *cast = new_node(P, N_CAST, c);
                cast->ty = n->ty;
                cast->implicit = true;
                n->ty = ty_vec(P->arena, TY_FLOAT, ty_width(cast->ty));
                cast->a = n;
                return cast;
            }
            return n;
        }
        if ((!strcmp(name, "__mtl_tg") || !strcmp(name, "__mtl_value")) && n->n_list == 1)
            return n->list[0]; /* a marked threadgroup array as a pointer (templates.c); a value (fix_conversions) */
        if ((!strcmp(name, "__mtl_convert") || !strcmp(name, "__mtl_temporary")) && n->n_list == 1) {
            /* (half4)v, TC(v): Metal's conversion; a converted argument for a `thread const T&` parameter */
            n->kind = N_CAST;
            n->a = n->list[0];
            return n;
        }
        if (!strcmp(name, "as_type")) {
            n->kind = N_ASTYPE;
            n->a = n->list[0];
            return n;
        }
        if (!strcmp(name, "is_function_constant_defined"))
            return function_constant_defined(P, c, n);
        if (!strcmp(name, "__metal_get_simdgroup_size") && n->ty && ty_is_integer(n->ty)) {
            /* __metal_get_simdgroup_size(ushort()) (MLX's bf16_math.h): the SIMD-group's width, 32 as
               threads_per_simdgroup (every --subgroup-size keeps Metal's 32 lanes) */
            n->kind = N_INT;
            n->ival = 32;
            n->n_list = 0;
            return n;
        }
        int si = simd_lookup(name);
        if (!strncmp(name, "__metal_", 8) && simd_lookup(name + 8) >= 0 && strchr("SQ", simd_table[simd_lookup(name + 8)].group)) {
            /* __metal_simd_shuffle_down(x, delta) (MLX's bf16_math.h): the compiler builtin behind simd_shuffle_down,
               with the same arguments */
            si = simd_lookup(name + 8);
            q = arena_strdup(P->arena, "metal::");
        }
        if (si >= 0 && !strncmp(q, "metal::", 7)) {
            n->kind = N_SIMD;
            n->builtin = si;
            n->name = simd_table[si].metal;
            return n;
        }
        if (!strncmp(name, "__metal_", 8) && builtin_lookup(name + 8) >= 0) {
            /* __metal_exp(x, __METAL_MAYBE_FAST_MATH__): exp(x); the family says how many arguments are values */
            int raw = builtin_lookup(name + 8);
            BuiltinFamily fam = builtin_table[raw].family;
            int arity = builtin_arity(fam);
            n->n_list = n->n_list < arity ? n->n_list : arity;
            name = name + 8;
            q = arena_printf(P->arena, "metal::%s", name);
        }
        int b = builtin_lookup(name);
        bool metal_ns = !strncmp(q, "metal::", 7);
        if (metal_ns && !strncmp(name, "atomic_", 7)) {
            n->kind = N_ATOMIC;
            return n;
        }
        if (b < 0 || !metal_ns || ck == CXCursor_CXXMethod) {
            diag_error(P->diag, n->loc, "%s is not supported yet", name);
            return n;
        }
        n->kind = N_BUILTIN;
        n->builtin = b;
        n->name = q;
        BuiltinFamily fam = builtin_table[b].family;
        if ((fam == BF_F1 || fam == BF_F2) && n->ty && n->ty->kind == TY_FLOAT)
            for (int i = 0; i < n->n_list; i++) /* log(10): the prelude's integer overload, Metal's int made float */
                if (n->list[i]->ty && (ty_is_integer(n->list[i]->ty) || n->list[i]->ty->kind == TY_BOOL)) {
                    Node *cv = new_node(P, N_CAST, c);
                    cv->a = n->list[i];
                    cv->ty = ty_scalar(TY_FLOAT);
                    cv->implicit = true;
                    n->list[i] = cv;
                }
        if (builtin_table[b].family == BF_FFR && n->n_list == 2 && n->list[1]->ty && n->list[1]->ty->kind == TY_PTR) {
            /* frexp(x, &e), the pointer overload: the exponent's lvalue, as for the reference one */
            Node *e = n->list[1];
            while (e->kind == N_PAREN)
                e = e->a;
            if (e->kind == N_ADDR) {
                n->list[1] = e->a;
            } else {
                Node *d = new_node(P, N_DEREF, c);
                d->a = e;
                d->ty = e->ty->elem;
                n->list[1] = d;
            }
        }
        return n;
    }
    callee = through_function_wrapper(P, callee);
    n->fn = get_func(P, callee);
    taint(P, n->fn->clang_error);
    for (int i = n->fn->n_captures; i > 0; i--) { /* a lambda's captures, after its arguments */
        Var *outer = n->fn->params[n->fn->n_params - i]->captured;
        if (!P->lambda && outer->owner != P->cur_func)
            return unsupported(P, c, arena_printf(P->arena, "calling a lambda that uses '%s' outside the function that declares it", outer->name));
        Node *a = new_node(P, N_VAR, c);
        a->var = P->lambda && outer->kind != VAR_GLOBAL ? capture_param(P, outer, outer->ty->kind == TY_REF) : outer;
        a->ty = a->var->ty->kind == TY_REF ? a->var->ty->elem : a->var->ty;
        n->list = realloc_list(P, n->list, n->n_list, 1);
        n->list[n->n_list++] = a;
    }
    if (n->fn->self) {
        if (!object)
            object = self_ref(P, c);
        if (object->ty && object->ty->kind == TY_PTR)
            return unsupported(P, c, "a member call through a pointer");
        memmove(n->list + 1, n->list, sizeof(Node *) * (size_t)n->n_list);
        n->list[0] = object;
        n->n_list++;
    }
    if (n->fn->returns_ref) { /* the object the returned reference names: *call */
        Node *d = new_node(P, N_DEREF, c);
        d->a = n;
        d->ty = n->fn->ret->elem;
        d->op = "*";
        n->ty = n->fn->ret;
        return d;
    }
    return n;
}

static Node *conv_literal(Parser *P, CXCursor c, NodeKind k)
{
    Node *n = new_node(P, k, c);
    n->ty = conv_type(P, clang_getCursorType(c));
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (r) {
        if (clang_EvalResult_getKind(r) == CXEval_Int)
            n->ival = clang_EvalResult_getAsLongLong(r);
        else if (clang_EvalResult_getKind(r) == CXEval_Float)
            n->fval = clang_EvalResult_getAsDouble(r);
        clang_EvalResult_dispose(r);
    }
    if (k == N_FLOAT && !r)
    {
        Toks t = toks_of(P, c);
        if (t.n)
            n->fval = strtod(tok_text(P, &t, 0), NULL);
        toks_free(&t);
    }
    return n;
}

/* A static data member of a struct. */
static bool is_member_var(CXCursor d)
{
    enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(d));
    return pk == CXCursor_StructDecl || pk == CXCursor_ClassDecl || pk == CXCursor_ClassTemplate ||
           pk == CXCursor_ClassTemplatePartialSpecialization || pk == CXCursor_UnionDecl;
}

/* is_function_constant_defined(fc): the "defined" specialization constant of function constant fc. */
static Node *function_constant_defined(Parser *P, CXCursor c, Node *call)
{
    Node *arg = call->n_list == 1 ? call->list[0] : NULL;
    while (arg && arg->kind == N_CAST)
        arg = arg->a;
    if (!arg || arg->kind != N_VAR || !arg->var->fc_id || arg->var->fc_defined)
        return unsupported(P, c, "is_function_constant_defined of something other than a function constant");
    Var *fc = arg->var;
    char *key = arena_printf(P->arena, "mtl.fc_defined.%d", fc->fc_index);
    Var *d = map_get(P, key);
    if (!d) {
        d = arena_alloc(P->arena, sizeof *d);
        *d = (Var){.name = arena_printf(P->arena, "%s_defined", fc->name), .ty = ty_scalar(TY_BOOL), .kind = VAR_GLOBAL,
                   .loc = fc->loc, .index = -1, .builtin = -1, .fc_id = FC_UNNUMBERED,
                   .fc_index = fc->fc_index, .fc_defined = true, .is_constexpr = true};
        d->glsl_name = arena_printf(P->arena, "mtl_defined_%s", fc->glsl_name); /* mtl_ names are ours */
        d->init = arg; /* so that the value's constant is declared (and reflected) with its flag */
        map_put(P, key, d);
    }
    Node *n = new_node(P, N_VAR, c);
    n->var = d;
    n->ty = d->ty;
    return n;
}

/* A variable of the enclosing function used in a lambda: a parameter of the lambda's function, `inout` when
   captured by reference (clang types a by-value capture const), passed at each call (conv_call). */
static Var *capture_param(Parser *P, Var *outer, bool by_ref)
{
    Lambda *L = P->lambda;
    for (int i = 0; i < L->outer.len; i++)
        if (L->outer.items[i] == outer)
            return L->inner.items[i];
    Var *v = arena_alloc(P->arena, sizeof *v);
    *v = *outer;
    v->kind = VAR_PARAM;
    v->init = NULL;
    v->role = PR_NONE;
    v->ty = outer->ty->kind == TY_REF ? outer->ty->elem : outer->ty;
    if (by_ref && !outer->is_constexpr) {
        Type *r = arena_alloc(P->arena, sizeof *r);
        *r = (Type){.kind = TY_REF, .elem = v->ty, .as = AS_THREAD};
        v->ty = r;
    }
    pv_push(&L->outer, outer);
    pv_push(&L->inner, v);
    return v;
}

static Node *conv_declref(Parser *P, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (dk == CXCursor_EnumConstantDecl) {
        Node *n = new_node(P, N_ENUMVAL, c);
        n->ty = ty_scalar(TY_INT);
        n->ival = clang_getEnumConstantDeclValue(d);
        n->name = cx_take(P, clang_getCursorSpelling(d));
        return n;
    }
    if (dk == CXCursor_VarDecl && (in_prelude(d) || is_member_var(d))) {
        Node *k = const_value(P, c); /* is_same_v<T, float>, Limits<T>::N */
        if (k)
            return k;
    }
    if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) {
        Node *n = new_node(P, N_VAR, c);
        n->var = dk == CXCursor_ParmDecl ? map_get(P, param_key(P, d)) : NULL;
        if (!n->var)
            n->var = map_get(P, usr_key(P, d));
        if (!n->var && dk == CXCursor_VarDecl) {
            n->var = get_global(P, d);
            taint(P, error_inside(P, clang_getCursorDefinition(d)));
        }
        if (!n->var) {
            char *nm = cx_take(P, clang_getCursorSpelling(d));
            diag_error(P->diag, n->loc, "reference to '%s' is not supported here", nm);
            n->kind = N_INT;
            n->ty = ty_scalar(TY_INT);
            return n;
        }
        if (P->lambda && n->var->kind != VAR_GLOBAL &&
            !clang_equalCursors(clang_getCursorSemanticParent(d), P->lambda->method))
            n->var = capture_param(P, n->var, !clang_isConstQualifiedType(clang_getCursorType(c)));
        n->ty = n->var->ty->kind == TY_REF ? n->var->ty->elem : n->var->ty;
        return n;
    }
    Node *k = const_value(P, c); /* a non-type template argument (NDIM), an enumerator of a template */
    if (k)
        return k;
    return unsupported(P, c, arena_printf(P->arena, "a reference to '%s'", cx_take(P, clang_getCursorSpelling(d))));
}

/* sizeof(T), sizeof x, alignof(T): the constant clang computes (Metal's sizes: float3 16 bytes, half3 8, size_t 8),
   typed size_t. */
static Node *conv_sizeof(Parser *P, CXCursor c)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return unsupported(P, c, "this sizeof/alignof/sizeof... (not a constant)");
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    long long v = ok ? clang_EvalResult_getAsLongLong(r) : 0;
    clang_EvalResult_dispose(r);
    if (!ok)
        return unsupported(P, c, "this sizeof/alignof/sizeof... (not a constant)");
    Node *n = new_node(P, N_INT, c);
    n->ty = conv_type(P, clang_getCursorType(c));
    n->ival = v;
    return n;
}

static enum CXChildVisitResult find_nullptr(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CXXNullPtrLiteralExpr)
        *(bool *)data = true;
    return clang_getCursorKind(c) == CXCursor_ParmDecl || clang_isExpression(clang_getCursorKind(c)) ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

typedef struct NthParam {
    int want, seen;
    CXCursor found;
} NthParam;

static enum CXChildVisitResult nth_param_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    NthParam *q = data;
    if (clang_getCursorKind(c) == CXCursor_ParmDecl && q->seen++ == q->want) {
        q->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* Parameter I of function (or function template) F, or the null cursor. */
static CXCursor nth_param(CXCursor f, int i)
{
    NthParam q = {i, 0, clang_getNullCursor()};
    clang_visitChildren(f, nth_param_visit, &q);
    return q.found;
}

/* Whether the default argument of the parameter being converted (P->default_param: clang's C API shows no
   expression at the call) is `nullptr`, read from the parameter's declaration (its pattern's in an instance). */
static bool default_is_nullptr(Parser *P)
{
    bool null = false;
    if (!clang_Cursor_isNull(P->default_param))
        clang_visitChildren(P->default_param, find_nullptr, &null);
    return null;
}

static Node *conv_unexposed(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    if (k.len == 0) { /* a default argument (clang shows no expression for it): its constant value */
        free(k.items);
        Node *v = const_value(P, c);
        Type *t = conv_type(P, clang_getCursorType(c));
        if (!v && t->kind == TY_PTR && default_is_nullptr(P)) { /* `const device T* twiddles = nullptr` */
            v = new_node(P, N_INT, c);
            v->name = "nullptr";
            v->ty = t;
        }
        return v ? v : unsupported(P, c, "a default argument that is not a constant");
    }
    if (k.len != 1) {
        free(k.items);
        return unsupported(P, c, "this kind of expression");
    }
    CXCursor child = k.items[0];
    free(k.items);
    CXSourceRange rc = clang_getCursorExtent(c), rk = clang_getCursorExtent(child);
    Node *inner = conv_expr(P, child);
    Type *ty = conv_type(P, clang_getCursorType(c));
    bool same_extent = offset_of(clang_getRangeEnd(rc)) == offset_of(clang_getRangeEnd(rk)) &&
                       offset_of(clang_getRangeStart(rc)) == offset_of(clang_getRangeStart(rk));
    const char *acc = inner->ty && inner->ty->kind == TY_VEC && (!same_extent || swizzle_hack_works(P)) ? swizzle_accessor(P, c) : NULL;
    if (acc) {
        Node *n = new_node(P, N_SWIZZLE, c);
        n->a = inner;
        n->name = acc;
        n->ty = ty;
        return n;
    }
    if (!inner->ty || ty->kind == TY_UNSUPPORTED || ty_equal(ty, inner->ty) || !(ty_width(ty) && ty_width(inner->ty)))
        return inner; /* value category, decay, cleanups: nothing to print */
    /* int vector -> bool vector is how clang types Metal's vector comparisons: already bool */
    Node *n = new_node(P, N_CAST, c);
    n->a = inner;
    n->ty = ty;
    n->implicit = true;
    return n;
}

static Node *conv_binary(Parser *P, CXCursor c, bool compound)
{
    Kids k = kids_of(c);
    if (k.len != 2) {
        free(k.items);
        return unsupported(P, c, "this binary expression");
    }
    Node *n = new_node(P, N_BINARY, c);
    n->op = binary_operator(P, c, k.items[0]);
    n->a = conv_expr(P, k.items[0]);
    n->b = conv_expr(P, k.items[1]);
    free(k.items);
    n->ty = conv_type(P, clang_getCursorType(c));
    if (!n->op || !*n->op)
        return unsupported(P, c, "an operator inside a macro body");
    if (compound || !strcmp(n->op, "=")) {
        n->kind = N_ASSIGN;
        n->ty = n->a->ty;
    } else if (!strcmp(n->op, ",")) { /* GLSL has the sequence operator too */
        n->ty = n->b->ty;
    }
    /* Metal: vector comparisons and logic give bool vectors (clang says int vectors). */
    static const char *const cmp[] = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"};
    for (size_t i = 0; i < sizeof cmp / sizeof *cmp; i++)
        if (n->kind == N_BINARY && !strcmp(n->op, cmp[i]) && n->ty->kind == TY_VEC)
            n->ty = ty_vec(P->arena, TY_BOOL, n->ty->n);
    return n;
}

static Node *strip_paren_nodes(Node *n)
{
    while (n && n->kind == N_PAREN)
        n = n->a;
    return n;
}

/* `*(thread S*)&v` of a thread scalar v and a struct S of one scalar member as wide (MLX's fp_quantized.h:
   `U(*(thread fp4_e2m1*)(&x))` of a uint8_t x): the struct made from v's bits, S(v) or S(as_type<M>(v)), a value
   (glslang refuses writes to it); NULL for any other dereference. */
static Node *bits_as_struct(Parser *P, Node *deref)
{
    Node *cast = strip_paren_nodes(deref->a);
    if (!cast || cast->kind != N_CAST || cast->implicit || !cast->ty || cast->ty->kind != TY_PTR || cast->ty->as != AS_THREAD)
        return NULL;
    Node *addr = strip_paren_nodes(cast->a);
    Node *v = addr && addr->kind == N_ADDR ? strip_paren_nodes(addr->a) : NULL;
    Type *st = cast->ty->elem;
    if (!v || v->kind != N_VAR || !v->ty || !ty_is_scalar(v->ty) || st->kind != TY_STRUCT || st->sdef->n_fields != 1 ||
        st->sdef->is_union)
        return NULL;
    Type *ft = st->sdef->fields[0].ty;
    if (!ty_is_scalar(ft) || ty_scalar_kind(ft) == TY_BOOL || ty_scalar_kind(v->ty) == TY_BOOL ||
        ty_metal_size(ft) != ty_metal_size(v->ty))
        return NULL;
    Node *value = v;
    if (!ty_equal(ft, v->ty)) {
        value = arena_alloc(P->arena, sizeof *value);
        value->kind = N_ASTYPE;
        value->loc = v->loc;
        value->a = v;
        value->ty = ft;
    }
    Node *n = arena_alloc(P->arena, sizeof *n);
    n->kind = N_INITLIST;
    n->loc = deref->loc;
    n->ty = st;
    n->list = arena_alloc(P->arena, sizeof(Node *) * 2);
    n->list[n->n_list++] = value;
    return n;
}

static Node *conv_unary(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    if (k.len != 1) {
        free(k.items);
        return unsupported(P, c, "this unary expression");
    }
    bool postfix;
    const char *op = unary_operator(P, c, k.items[0], &postfix);
    if (op && !strcmp(op, "*") && clang_getCursorKind(k.items[0]) == CXCursor_CXXThisExpr) {
        free(k.items);
        return self_ref(P, c); /* *this: the object */
    }
    Node *n = new_node(P, N_UNARY, c);
    n->a = conv_expr(P, k.items[0]);
    free(k.items);
    n->ty = conv_type(P, clang_getCursorType(c));
    if (!op)
        return unsupported(P, c, "an operator inside a macro body");
    n->op = op;
    if (postfix)
        n->kind = N_POSTFIX;
    if (!strcmp(n->op, "*")) {
        n->kind = N_DEREF;
        Node *w = bits_as_struct(P, n);
        if (w)
            return w;
    } else if (!strcmp(n->op, "&")) {
        n->kind = N_ADDR;
    } else if (!strncmp(n->op, "sizeof", 6) || !strncmp(n->op, "alignof", 7)) {
        return unsupported(P, c, n->op);
    }
    if (!strcmp(n->op, "!") && n->ty->kind == TY_VEC)
        n->ty = ty_vec(P->arena, TY_BOOL, n->ty->n);
    return n;
}

/* Whether C is an array designator `[i] = v` or GNU range `[a ... b] = v` of an initializer list (clang's
   DesignatedInitExpr, unexposed: children the bounds, then the value). */
static bool is_array_designator(Parser *P, CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_UnexposedExpr)
        return false;
    Toks t = toks_of(P, c);
    bool r = t.n > 0 && !strcmp(tok_text(P, &t, 0), "[");
    toks_free(&t);
    return r;
}

/* `{ [0 ... NQ-1] = 0.0f }`, `{ [2] = x, y }` (ggml): the array's elements in order, 0 where none is given (as
   in C; arrays of scalars only). */
static Node *conv_designated_array(Parser *P, CXCursor c, Kids *k, Node *n)
{
    int size = n->ty->kind == TY_ARRAY ? n->ty->n : 0;
    if (size <= 0)
        return unsupported(P, c, "a designated initializer of something other than an array of known size");
    n->n_list = size;
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(size + 1));
    int next = 0;
    for (int i = 0; i < k->len; i++) {
        int lo = next, hi = next;
        CXCursor value = k->items[i];
        if (is_array_designator(P, k->items[i])) {
            Kids d = kids_of(k->items[i]);
            long long b[2] = {-1, -1};
            for (int j = 0; j + 1 < d.len && j < 2; j++) {
                CXEvalResult r = clang_Cursor_Evaluate(d.items[j]);
                if (r && clang_EvalResult_getKind(r) == CXEval_Int)
                    b[j] = clang_EvalResult_getAsLongLong(r);
                if (r)
                    clang_EvalResult_dispose(r);
            }
            if (d.len < 2 || d.len > 3 || b[0] < 0 || (d.len == 3 && b[1] < b[0])) {
                free(d.items);
                return unsupported(P, k->items[i], "this designated initializer (bounds that are not constants)");
            }
            lo = (int)b[0];
            hi = d.len == 3 ? (int)b[1] : lo;
            value = d.items[d.len - 1];
            free(d.items);
        }
        if (hi >= size)
            return unsupported(P, k->items[i], "this designated initializer (past the array's end)");
        Node *v = conv_expr(P, value);
        for (int j = lo; j <= hi; j++)
            n->list[j] = v;
        next = hi + 1;
    }
    for (int i = 0; i < size; i++)
        if (!n->list[i]) {
            if (!ty_is_scalar(n->ty->elem))
                return unsupported(P, c, "a designated initializer that leaves elements of this type out");
            n->list[i] = new_node(P, N_INT, c);
            n->list[i]->ty = ty_scalar(TY_INT);
        }
    return n;
}

/* libclang shows an initializer list as written: `S a[4] = {0};` has one element, an int, where clang converts it
   with S's constructor and makes the other three with S's default constructor. What is left for constructors or
   default member initializers to make is an error until it is modelled; the rest is exact. */
static void check_initlist(Parser *P, Node *n)
{
    StructDef *s = base_struct(n->ty);
    if (!s)
        return;
    int count = n->ty->kind == TY_ARRAY ? n->ty->n : n->ty->kind == TY_STRUCT ? s->n_fields : 0;
    if (n->ty->kind == TY_STRUCT && !s->has_ctor) { /* an aggregate: fields left out are zero or their initializer */
        if (n->n_list < count)
            check_member_init(P, n->loc, n->ty);
        return;
    }
    if (n->ty->kind != TY_ARRAY)
        return;
    for (int i = 0; i < n->n_list; i++) {
        Node *e = n->list[i];
        if (e->kind != N_INITLIST && e->ty && !ty_equal(e->ty, n->ty->elem)) {
            diag_error(P->diag, e->loc, "an element of type %s made into a %s by its constructor in an initializer list is not "
                       "supported yet (write %s(...))", ty_metal_name(P->arena, e->ty), s->name, s->name);
            return;
        }
    }
    if (n->n_list < count && s->has_ctor)
        diag_error(P->diag, n->loc, "the elements of %s that its initializer list leaves to %s's default constructor are not "
                   "supported yet (write all %d)", ty_metal_name(P->arena, n->ty), s->name, count);
    else if (n->n_list < count)
        check_member_init(P, n->loc, n->ty);
}

/* Whether values of type T are made by a constructor of the user's (a struct that declares one). */
static bool constructed_type(const Type *t)
{
    return t && t->kind == TY_STRUCT && t->sdef->has_ctor && !t->sdef->is_union;
}

/* `S a[4] = {0};`, `S a[2] = {{1, 2}, {3, 4}};`, `P p = {{1, 2}, x};` with S (a field of P) a struct with
   constructors: each such element as clang's semantic form makes it (the converting constructor for 0, the
   constructor `{1, 2}` names, the default constructor for elements left out), so that a constructor that does more
   than set the fields in order runs. The list is left as written (and check_initlist judges it) where the semantic
   form cannot be read. */
static void constructed_elements(Parser *P, CXCursor c, Node *n)
{
    bool array = n->ty->kind == TY_ARRAY;
    if (!array && (n->ty->kind != TY_STRUCT || n->ty->sdef->has_ctor || n->ty->sdef->is_union))
        return;
    int count = array ? n->ty->n : n->ty->sdef->n_fields, used = array ? count : n->n_list;
    for (int i = 0; i < count && !array; i++)
        if (constructed_type(n->ty->sdef->fields[i].ty))
            used = used > i + 1 ? used : i + 1;
    if (count <= 0 || count > M2G_MAX_CONSTRUCTED_ELEMENTS || (array && !constructed_type(n->ty->elem)))
        return;
    bool any = false;
    for (int i = 0; i < used; i++)
        any |= constructed_type(array ? n->ty->elem : n->ty->sdef->fields[i].ty);
    if (!any || clang_getCursorKind(c) != CXCursor_InitListExpr || !initlist_hack_works())
        return;
    const void *list = semantic_list(c);
    Node **items = arena_alloc(P->arena, sizeof(Node *) * (size_t)(used + 1)), *filler = NULL;
    for (int i = 0; i < used; i++) {
        Type *et = array ? n->ty->elem : n->ty->sdef->fields[i].ty;
        Node *w = i < n->n_list ? n->list[i] : NULL;
        if (!constructed_type(et) || (w && w->kind != N_INITLIST && w->ty && ty_equal(w->ty, et))) {
            if (!w)
                return; /* a field of another type left out: as written */
            items[i] = w; /* as written; a value of the type is copied */
            continue;
        }
        CXCursor e = semantic_element(c, list, i);
        if (clang_Cursor_isNull(e))
            return;
        if (!w && filler) {
            items[i] = filler;
            continue;
        }
        items[i] = conv_expr(P, e);
        if (!w && array)
            filler = items[i];
    }
    n->list = items;
    n->n_list = used;
}

static Node *conv_kids_list(Parser *P, CXCursor c, NodeKind kind)
{
    Kids k = kids_of(c);
    if (k.len > M2G_MAX_INITIALIZER) { /* one SPIR-V instruction holds at most 65535 words */
        free(k.items);
        diag_error(P->diag, loc_of(P, c), "initializer list of %d elements: the limit is %d (docs/limits.md)", k.len,
                   M2G_MAX_INITIALIZER);
        Node *n = new_node(P, kind, c);
        n->ty = conv_type(P, clang_getCursorType(c));
        return n;
    }
    Node *n = new_node(P, kind, c);
    n->ty = conv_type(P, clang_getCursorType(c));
    for (int i = 0; i < k.len && kind == N_INITLIST; i++)
        if (is_array_designator(P, k.items[i])) {
            Node *r = conv_designated_array(P, c, &k, n);
            free(k.items);
            return r;
        }
    n->n_list = k.len;
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(k.len + 1));
    for (int i = 0; i < k.len; i++)
        n->list[i] = conv_expr(P, k.items[i]);
    free(k.items);
    if (kind == N_INITLIST) {
        constructed_elements(P, c, n);
        check_initlist(P, n);
    }
    return n;
}

static Node *conv_cast(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    if (k.len < 1) {
        free(k.items);
        return unsupported(P, c, "this cast");
    }
    Node *n = new_node(P, N_CAST, c);
    n->a = conv_expr(P, k.items[k.len - 1]);
    free(k.items);
    n->ty = conv_type(P, clang_getCursorType(c));
    /* a functional cast of a struct to itself, T(x) on a vector constructor: just the operand */
    if (n->a->ty && ty_equal(n->ty, n->a->ty) && n->a->kind != N_VAR)
        return n->a;
    return n;
}

/* reinterpret_cast<const T (&)[N]>(a) of a named array `a` of M >= N elements of T (metal::array too: PyTorch's addmm
   reads its `constant array<ulong2, 4>& strides` as the `constant array<ulong2, 3>&` matmul_inner takes): the
   first N elements, a value `T[N](a[0], ..., a[N - 1])`, exact because the target is const (never written through).
   NULL for any other reinterpret_cast of a reference. */
static Node *array_prefix(Parser *P, CXCursor c, CXCursor operand)
{
    CXType to = clang_getCursorType(c);
    if (!clang_isConstQualifiedType(to))
        return NULL;
    Node *a = conv_expr(P, operand);
    while (a && (a->kind == N_PAREN || (a->kind == N_CAST && a->implicit)))
        a = a->a;
    Type *t = conv_type(P, to);
    if (!a || a->kind != N_VAR || !a->ty || a->ty->kind != TY_ARRAY || t->kind != TY_ARRAY || t->n < 1 ||
        t->n > a->ty->n || !ty_equal(t->elem, a->ty->elem))
        return NULL;
    Node *n = new_node(P, N_INITLIST, c);
    n->ty = t;
    n->n_list = t->n;
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(t->n + 1));
    for (int i = 0; i < t->n; i++) {
        Node *ix = new_node(P, N_INDEX, c), *k = new_node(P, N_INT, c);
        k->ty = ty_scalar(TY_INT);
        k->ival = i;
        ix->a = a;
        ix->b = k;
        ix->ty = t->elem;
        n->list[i] = ix;
    }
    return n;
}

/* reinterpret_cast and const_cast between pointers (c10's ref_at_offs: `reinterpret_cast<device T*>(static_cast<
   device char*>(ptr) + offs)`) are the pointer casts C writes (views, ptr.c); a const_cast of a reference is the
   object. Reinterpreting a value or a reference to another type is refused by name. */
static Node *conv_pointer_cast(Parser *P, CXCursor c)
{
    bool konst = clang_getCursorKind(c) == CXCursor_CXXConstCastExpr;
    CXType to = clang_getCanonicalType(clang_getCursorType(c));
    Kids k = kids_of(c);
    CXType from = k.len ? clang_getCanonicalType(clang_getCursorType(k.items[k.len - 1])) : (CXType){.kind = CXType_Invalid};
    bool to_ptr = to.kind == CXType_Pointer, from_ptr = from.kind == CXType_Pointer;
    if (konst && !to_ptr && k.len) { /* const_cast<T&>(x): x */
        Node *n = conv_expr(P, k.items[k.len - 1]);
        free(k.items);
        return n;
    }
    if (!konst && from_ptr && !to_ptr && k.len && clang_getCanonicalType(to).kind >= CXType_Char_U &&
        clang_getCanonicalType(to).kind <= CXType_LongLong) { /* the address as an integer: check_address_casts */
        free(k.items);
        Node *n = conv_cast(P, c);
        if (n->kind == N_CAST)
            n->name = "address";
        return n;
    }
    if (!konst && !to_ptr && !from_ptr && k.len) {
        Node *prefix = array_prefix(P, c, k.items[k.len - 1]);
        if (prefix) {
            free(k.items);
            return prefix;
        }
    }
    free(k.items);
    if (to_ptr && from_ptr)
        return conv_cast(P, c);
    return unsupported(P, c, arena_printf(P->arena, "%s to %s", konst ? "const_cast" : "reinterpret_cast",
                                          cx_take(P, clang_getTypeSpelling(clang_getCursorType(c)))));
}

static Node *conv_member(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    if (k.len > 1) {
        free(k.items);
        return unsupported(P, c, "this member access");
    }
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_getCursorKind(ref) == CXCursor_VarDecl) {
        /* obj.member naming a static data member (MLX's `op.init`): the member itself, which does not read obj;
           an object expression that does something besides naming an object would be lost, so it is an error */
        Node *obj = k.len ? conv_expr(P, k.items[0]) : NULL;
        free(k.items);
        Node *v = const_value(P, c);
        if (v)
            return v;
        while (obj && (obj->kind == N_PAREN || obj->kind == N_DEREF))
            obj = obj->a;
        if (obj && obj->kind != N_VAR)
            return unsupported(P, c, "a static data member read through an expression other than a variable");
        return conv_declref(P, c);
    }
    Node *n = new_node(P, N_MEMBER, c);
    n->a = k.len ? conv_expr(P, k.items[0]) : self_ref(P, c);
    free(k.items);
    n->name = cx_take(P, clang_getCursorSpelling(c));
    if (!*n->name && clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FieldDecl)
        n->name = field_name(P, clang_getCursorReferenced(c)); /* an anonymous union or struct member */
    n->ty = conv_type(P, clang_getCursorType(c));
    if (n->a->ty && n->a->ty->kind == TY_VEC && ty_scalar_kind(n->a->ty) == TY_BFLOAT) {
        n->kind = N_SWIZZLE; /* v.x of a bfloat2..4 */
        return n;
    }
    if (n->a->ty && n->a->ty->kind == TY_PTR) {
        Node *d = new_node(P, N_DEREF, c);
        d->a = n->a;
        d->ty = n->a->ty->elem;
        d->op = "*";
        n->a = d;
    }
    CXCursor fd = clang_getCursorReferenced(c);
    if (clang_getCursorKind(fd) != CXCursor_FieldDecl)
        return unsupported(P, c, arena_printf(P->arena, "member '%s'", n->name));
    if (n->a->ty && n->a->ty->kind == TY_MAT)
        return n->a; /* m.columns[i] is m[i] */
    return n;
}

/* Every expression cursor becomes a Node; what is not handled is an error naming it. */
static Node *conv_expr_kind(Parser *P, CXCursor c);
static Node *conv_stmt_kind(Parser *P, CXCursor c);

/* Expressions and statements are converted recursively: past M2G_MAX_NESTING levels (a sum of 20,000 terms is
   20,000 deep) an error at the node, which stands for its subtree, instead of a stack overflow here, in the later
   stages or in glslang. */
static Node *conv_nested(Parser *P, CXCursor c, bool stmt)
{
    if (P->depth >= M2G_MAX_NESTING) {
        diag_error(P->diag, loc_of(P, c), "%s nested too deeply (more than %d levels, the limit: docs/limits.md)",
                   stmt ? "statement" : "expression", M2G_MAX_NESTING);
        Node *n = new_node(P, N_INT, c);
        n->ty = ty_scalar(TY_INT);
        return n;
    }
    P->depth++;
    Node *n = stmt ? conv_stmt_kind(P, c) : conv_expr_kind(P, c);
    P->depth--;
    return n;
}

static Node *conv_expr(Parser *P, CXCursor c)
{
    return conv_nested(P, c, false);
}

/* v[7] on a float4, a[4] on a float[4], m[5] on a float4x4: a constant index past the end is an error here (GLSL
   rejects it at compile time; in Metal it reads past the object). N: the N_INDEX. */
static Node *constant_index_in_range(Parser *P, CXCursor c, Node *n)
{
    const Node *i = n->b, *base = n->a;
    while (i && (i->kind == N_CAST || i->kind == N_PAREN))
        i = i->a;
    while (base && (base->kind == N_PAREN || (base->kind == N_CAST && base->implicit)) && base->a && base->a->ty &&
           (base->a->ty->kind == TY_VEC || base->a->ty->kind == TY_ARRAY || base->a->ty->kind == TY_MAT))
        base = base->a;
    const Type *t = base ? base->ty : NULL;
    if (!i || i->kind != N_INT || !t || !(t->kind == TY_VEC || t->kind == TY_MAT || (t->kind == TY_ARRAY && t->n > 0)))
        return n;
    if (i->ival >= 0 && i->ival < t->n)
        return n;
    diag_error(P->diag, loc_of(P, c), "index %lld is out of range for %s (%d %s)", i->ival,
               ty_metal_name(P->arena, t), t->n, t->kind == TY_MAT ? "columns" : "elements");
    return n;
}

/* The bytes of string literal C: its tokens' text with the escapes \n \t \r \0 \\ \" \' decoded, adjacent literals joined;
   __func__, the name of the function it is in. NULL for anything else (a prefix, another escape). */
static const char *string_text(Parser *P, CXCursor c)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(P->tu, clang_getCursorExtent(c), &toks, &n);
    size_t cap = 1;
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(P->tu, toks[i]);
        cap += strlen(clang_getCString(s));
        clang_disposeString(s);
    }
    char *r = arena_alloc(P->arena, cap + (P->cur_spelling ? strlen(P->cur_spelling) : 0)), *o = r;
    bool ok = n > 0;
    for (unsigned i = 0; i < n && ok; i++) {
        CXString s = clang_getTokenSpelling(P->tu, toks[i]);
        const char *t = clang_getCString(s);
        if ((!strcmp(t, "__func__") || !strcmp(t, "__FUNCTION__")) && n == 1 && P->cur_spelling) {
            o += sprintf(o, "%s", P->cur_spelling);
        } else if (clang_getTokenKind(toks[i]) != CXToken_Literal || t[0] != '"') {
            ok = false;
        } else {
            for (const char *p = t + 1; *p && *p != '"' && ok; p++) {
                if (*p != '\\') {
                    *o++ = *p;
                    continue;
                }
                switch (*++p) {
                case 'n': *o++ = '\n'; break;
                case 't': *o++ = '\t'; break;
                case 'r': *o++ = '\r'; break;
                case '0': *o++ = 0; ok = false; break; /* an embedded NUL: refused */
                case '\\': case '"': case '\'': *o++ = *p; break;
                default: ok = false; break;
                }
            }
        }
        clang_disposeString(s);
    }
    *o = 0;
    clang_disposeTokens(P->tu, toks, n);
    return ok ? r : NULL;
}

/* A string literal ("index ", __FILE__, __func__: c10's TORCH_REPORT_ERROR passes them to `constant const char*`
   parameters) as a program-scope constant char array, mtl_str_N, one per distinct text: pointers into it are
   indices (ptr.c), as into any constant array. */
static Node *conv_string(Parser *P, CXCursor c)
{
    Type *t = conv_type(P, clang_getCursorType(c));
    const char *text = t->kind == TY_ARRAY && t->n >= 1 && (t->elem->kind == TY_CHAR || t->elem->kind == TY_UCHAR) ? string_text(P, c) : NULL;
    if (!text || strlen(text) + 1 > (size_t)t->n)
        return unsupported(P, c, "this string literal (narrow literals with simple escapes are supported)");
    Var *v = NULL;
    for (int i = 0; i < P->strings.len && !v; i++) {
        Var *w = P->strings.items[i];
        if (w->ty->n == t->n && !strcmp(w->name, text))
            v = w;
    }
    if (!v) {
        v = arena_alloc(P->arena, sizeof *v);
        *v = (Var){.name = text, .glsl_name = arena_printf(P->arena, "mtl_str_%d", P->strings.len), .ty = t,
                   .kind = VAR_GLOBAL, .loc = loc_of(P, c), .is_constexpr = true, .index = -1, .builtin = -1, .tg_index = -1};
        Node *init = new_node(P, N_INITLIST, c);
        init->ty = t;
        init->n_list = t->n;
        init->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)t->n);
        size_t len = strlen(text);
        for (int i = 0; i < t->n; i++) { /* the bytes, then zeros: "ab" is char[3] */
            Node *b = new_node(P, N_INT, c);
            b->ty = t->elem;
            b->ival = (size_t)i < len ? (t->elem->kind == TY_CHAR ? (signed char)text[i] : (unsigned char)text[i]) : 0;
            init->list[i] = b;
        }
        v->init = init;
        pv_push(&P->strings, v);
    }
    Node *n = new_node(P, N_VAR, c);
    n->var = v;
    n->ty = t;
    return n;
}

static Node *conv_expr_kind(Parser *P, CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_IntegerLiteral:
        return conv_literal(P, c, N_INT);
    case CXCursor_FloatingLiteral:
        return conv_literal(P, c, N_FLOAT);
    case CXCursor_CXXBoolLiteralExpr: {
        Node *n = conv_literal(P, c, N_BOOL);
        n->ty = ty_scalar(TY_BOOL);
        return n;
    }
    case CXCursor_DeclRefExpr:
        return conv_declref(P, c);
    case CXCursor_UnexposedExpr:
        return conv_unexposed(P, c);
    case CXCursor_ParenExpr: {
        Kids k = kids_of(c);
        Node *n = new_node(P, N_PAREN, c);
        n->a = k.len == 1 ? conv_expr(P, k.items[0]) : NULL;
        free(k.items);
        if (!n->a)
            return unsupported(P, c, "this parenthesized expression");
        n->ty = n->a->ty;
        return n;
    }
    case CXCursor_BinaryOperator:
        return conv_binary(P, c, false);
    case CXCursor_CompoundAssignOperator:
        return conv_binary(P, c, true);
    case CXCursor_UnaryOperator:
        return conv_unary(P, c);
    case CXCursor_ConditionalOperator: {
        Kids k = kids_of(c);
        Node *n = new_node(P, N_TERNARY, c);
        if (k.len != 3) {
            free(k.items);
            return unsupported(P, c, "this conditional expression");
        }
        n->a = conv_expr(P, k.items[0]);
        n->b = conv_expr(P, k.items[1]);
        n->c = conv_expr(P, k.items[2]);
        free(k.items);
        n->ty = conv_type(P, clang_getCursorType(c));
        if (n->a->ty && n->a->ty->kind == TY_VEC)
            return unsupported(P, c, "a conditional operator with a vector condition (use select)");
        return n;
    }
    case CXCursor_ArraySubscriptExpr: {
        Kids k = kids_of(c);
        if (k.len != 2) {
            free(k.items);
            return unsupported(P, c, "this subscript");
        }
        Node *n = new_node(P, N_INDEX, c);
        n->a = conv_expr(P, k.items[0]);
        n->b = conv_expr(P, k.items[1]);
        free(k.items);
        n->ty = conv_type(P, clang_getCursorType(c));
        return constant_index_in_range(P, c, n);
    }
    case CXCursor_CallExpr:
        return conv_call(P, c);
    case CXCursor_MemberRefExpr:
        return conv_member(P, c);
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXStaticCastExpr:
        return conv_cast(P, c);
    case CXCursor_CXXReinterpretCastExpr: {
        /* to the operand's own type, e.g. MLX's reinterpret_cast<thread frag_type&>(m.thread_elements()) of a
           SIMD-group matrix: the operand itself */
        Kids k = kids_of(c);
        Node *a = k.len ? conv_expr(P, k.items[k.len - 1]) : NULL;
        free(k.items);
        Type *t = conv_type(P, clang_getCursorType(c));
        if (t->kind == TY_REF)
            t = t->elem;
        if (a && a->ty && ty_equal(t, a->ty) && t->kind != TY_PTR)
            return a;
        return conv_pointer_cast(P, c);
    }
    case CXCursor_CXXConstCastExpr:
        return conv_pointer_cast(P, c);
    case CXCursor_InitListExpr:
        return conv_kids_list(P, c, N_INITLIST);
    case CXCursor_CompoundLiteralExpr: {
        Kids k = kids_of(c);
        Node *n = k.len == 1 ? conv_expr(P, k.items[0]) : NULL;
        free(k.items);
        return n ? n : unsupported(P, c, "this compound literal");
    }
    case CXCursor_UnaryExpr:
        return conv_sizeof(P, c);
    case CXCursor_LambdaExpr: { /* the closure object: never printed (its calls do not pass it) */
        Node *n = new_node(P, N_INITLIST, c);
        n->ty = conv_type(P, clang_getCursorType(c));
        n->implicit = true;
        return n;
    }
    case CXCursor_CXXThisExpr:
        return self_ref(P, c);
    case CXCursor_CXXNullPtrLiteralExpr: { /* a pointer to nothing (ptr.c: an index no access reaches) */
        Node *n = new_node(P, N_INT, c);
        n->name = "nullptr";
        n->ty = new_type(P, TY_PTR);
        n->ty->elem = ty_scalar(TY_VOID);
        n->ty->as = AS_DEVICE;
        return n;
    }
    case CXCursor_CXXNewExpr:
    case CXCursor_CXXDeleteExpr:
        return unsupported(P, c, "new/delete");
    case CXCursor_StringLiteral:
        return conv_string(P, c);
    case CXCursor_CharacterLiteral: { /* '0': its value, a char */
        Node *n = const_value(P, c);
        return n ? n : unsupported(P, c, "this character literal");
    }
    case CXCursor_SizeOfPackExpr: /* sizeof...(Ts) in an instance: the number of its arguments */
        return conv_sizeof(P, c);
    default:
        return unsupported(P, c, arena_printf(P->arena, "the expression kind %s", cx_take(P, clang_getCursorKindSpelling(clang_getCursorKind(c)))));
    }
}

/* ---- statements ---- */

/* Whether child expression E of declaration C is an array bound (`float a[N]`) rather than its initializer. */
/* Whether expression E of field declaration FIELD is its default member initializer (`= v`, `{v}` or `= {v}`),
   not an array bound or a bit-field's width. */
static bool is_member_initializer(Parser *P, CXCursor field, CXCursor e)
{
    unsigned start = offset_of(clang_getRangeStart(clang_getCursorExtent(e)));
    Toks tk = {NULL, 0, P->tu};
    clang_tokenize(P->tu, clang_getRange(clang_getCursorLocation(field), clang_getRangeEnd(clang_getCursorExtent(field))), &tk.t, &tk.n);
    bool init = false;
    for (unsigned i = 1; i < tk.n; i++)
        if (tok_offset(&tk, i) == start) {
            init = !strcmp(tok_text(P, &tk, i - 1), "=") || !strcmp(tok_text(P, &tk, i - 1), "{") ||
                   !strcmp(tok_text(P, &tk, i), "{"); /* `int index{0};`: the braced list itself */
            break;
        }
    toks_free(&tk);
    return init;
}

static bool is_array_bound(Parser *P, CXCursor c, CXCursor e)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (t.kind != CXType_ConstantArray)
        return false;
    unsigned start = offset_of(clang_getRangeStart(clang_getCursorExtent(e)));
    /* from the name on: the extent may begin inside a macro such as `threadgroup` */
    Toks tk = {NULL, 0, P->tu};
    clang_tokenize(P->tu, clang_getRange(clang_getCursorLocation(c), clang_getRangeEnd(clang_getCursorExtent(c))), &tk.t, &tk.n);
    bool bound = false;
    for (unsigned i = 1; i < tk.n; i++)
        if (tok_offset(&tk, i) == start) {
            bound = !strcmp(tok_text(P, &tk, i - 1), "[");
            break;
        }
    toks_free(&tk);
    return bound;
}

static enum CXChildVisitResult find_constructor(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_Constructor)
        return CXChildVisit_Continue;
    *(bool *)data = true;
    return CXChildVisit_Break;
}

/* `Best b;` of a struct: clang's trivial default construction, which is no initializer. */
static bool is_default_construction(CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_CallExpr || clang_Cursor_getNumArguments(e) != 0)
        return false;
    CXCursor callee = clang_getCursorReferenced(e);
    if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_Constructor)
        return false;
    /* only the implicit constructor: a struct that declares one runs its body */
    bool declared = false;
    CXCursor record = clang_getCursorSemanticParent(callee), pattern = clang_getSpecializedCursorTemplate(record);
    /* an instance of a struct template has no member cursors: its template says */
    clang_visitChildren(clang_Cursor_isNull(pattern) ? record : pattern, find_constructor, &declared);
    return !declared;
}

/* An annotate("NAME") attribute the prelude's macros put on a declaration: threadgroup, coherent(device). */
typedef struct AnnotationSearch {
    const char *name;
    bool found;
} AnnotationSearch;

static enum CXChildVisitResult find_annotation(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    AnnotationSearch *a = data;
    if (clang_getCursorKind(c) == CXCursor_AnnotateAttr) {
        CXString s = clang_getCursorSpelling(c);
        a->found |= !strcmp(clang_getCString(s), a->name);
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

static bool has_annotation(CXCursor decl, const char *name)
{
    AnnotationSearch a = {name, false};
    clang_visitChildren(decl, find_annotation, &a);
    return a.found;
}

static bool has_threadgroup_mark(Parser *P, CXCursor var)
{
    (void)P;
    return has_annotation(var, "mtl_threadgroup");
}

static Var *conv_vardecl(Parser *P, CXCursor c, VarKind kind)
{
    Var *v = arena_alloc(P->arena, sizeof *v);
    v->name = cx_take(P, clang_getCursorSpelling(c));
    v->glsl_name = names_legal(P->arena, v->name);
    v->ty = conv_type(P, clang_getCursorType(c));
    v->kind = kind;
    v->loc = loc_of(P, c);
    v->owner = kind == VAR_LOCAL ? P->cur_func : NULL;
    CXType t = clang_getCursorType(c);
    v->is_constexpr = clang_isConstQualifiedType(t);
    map_put(P, usr_key(P, c), v);
    Kids k = kids_of(c);
    bool marked = has_threadgroup_mark(P, c); /* Metal writes no initializer: clang's implicit construction */
    if (k.len > 0 && !marked && clang_isExpression(clang_getCursorKind(k.items[k.len - 1])) &&
        !is_array_bound(P, c, k.items[k.len - 1]) && !is_default_construction(k.items[k.len - 1]))
        v->init = conv_expr(P, k.items[k.len - 1]);
    free(k.items);
    if (v->init && v->init->kind == N_INITLIST && v->init->implicit)
        v->init = NULL; /* the implicit default constructor */
    if (!v->init && !marked && kind == VAR_LOCAL && clang_getAddressSpace(clang_getCanonicalType(t)) != 2)
        check_member_init(P, v->loc, v->ty);
    CXType ct = clang_getCanonicalType(t);
    bool local = clang_getAddressSpace(ct) == 2;
    for (CXType e = ct; !local && (e.kind == CXType_ConstantArray || e.kind == CXType_IncompleteArray);) {
        e = clang_getArrayElementType(e);
        local = clang_getAddressSpace(e) == 2;
    }
    local = local || marked; /* a threadgroup array marked by templates.c */
    if (local && kind == VAR_LOCAL && P->cur_func && P->cur_func->is_kernel) {
        v->is_threadgroup = true; /* a shared array at file scope (lower.c, emit_glsl.c) */
        if (v->init)
            diag_error(P->diag, v->loc, "threadgroup variable '%s' cannot have an initializer", v->name);
    } else if (local) {
        diag_error(P->diag, v->loc, "threadgroup variables outside a kernel's body are not supported yet ('%s')", v->name);
    }
    return v;
}

static Node *conv_decl_stmt(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    Node *n = new_node(P, N_DECL, c);
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(k.len + 1));
    for (int i = 0; i < k.len; i++) {
        enum CXCursorKind kk = clang_getCursorKind(k.items[i]);
        if (kk != CXCursor_VarDecl) {
            if (kk == CXCursor_StructDecl || kk == CXCursor_UnionDecl || kk == CXCursor_TypedefDecl || kk == CXCursor_TypeAliasDecl ||
                kk == CXCursor_StaticAssert || kk == CXCursor_UsingDirective || kk == CXCursor_UsingDeclaration)
                continue; /* checked by clang; `using namespace mlx::steel;` names only (clang resolved them) */
            unsupported(P, k.items[i], "this local declaration");
            continue;
        }
        Node *d = new_node(P, N_VARDEF, k.items[i]);
        d->var = conv_vardecl(P, k.items[i], VAR_LOCAL);
        if (is_empty_struct(d->var->ty))
            continue; /* a functor object: its calls do not pass it */
        n->list[n->n_list++] = d;
    }
    free(k.items);
    return n;
}

/* for (init; cond; inc) body: libclang omits the parts that are missing, so each child is placed by its
   position relative to the two ';' of the header. */
/* The loop pragma's hint (extract_attributes) for loop statement C: 1 unroll, -1 do not, 0 none. */
static signed char loop_hint(Parser *P, CXCursor c)
{
    unsigned off = offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
    int lo = 0, hi = P->loop_hints.len;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        AttrGroup *g = P->loop_hints.items[mid];
        if (g->offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == P->loop_hints.len || ((AttrGroup *)P->loop_hints.items[lo])->offset != off)
        return 0;
    return !strcmp(((AttrGroup *)P->loop_hints.items[lo])->text, "unroll") ? 1 : -1;
}

static Node *conv_for(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    Node *n = new_node(P, N_FOR, c);
    n->unroll = loop_hint(P, c);
    CXSourceRange ext = clang_getCursorExtent(c);
    CXToken *toks;
    unsigned ntok;
    clang_tokenize(P->tu, ext, &toks, &ntok);
    unsigned semi[2] = {0, 0}, rparen = 0;
    int depth = 0, ns = 0;
    for (unsigned i = 0; i < ntok; i++) {
        CXString s = clang_getTokenSpelling(P->tu, toks[i]);
        const char *t = clang_getCString(s);
        unsigned off = offset_of(clang_getTokenLocation(P->tu, toks[i]));
        if (!strcmp(t, "("))
            depth++;
        else if (!strcmp(t, ")") && --depth == 0 && !rparen)
            rparen = off;
        else if (!strcmp(t, ";") && depth == 1 && ns < 2)
            semi[ns++] = off;
        clang_disposeString(s);
        if (rparen)
            break;
    }
    clang_disposeTokens(P->tu, toks, ntok);
    for (int i = 0; i < k.len; i++) {
        unsigned off = offset_of(clang_getRangeStart(clang_getCursorExtent(k.items[i])));
        Node *part = NULL;
        if (ns == 2 && rparen && off < semi[0])
            part = n->a = conv_stmt(P, k.items[i]);
        else if (ns == 2 && rparen && off < semi[1])
            part = n->b = conv_expr(P, k.items[i]);
        else if (ns == 2 && rparen && off < rparen)
            part = n->c = conv_expr(P, k.items[i]);
        else
            part = n->d = conv_stmt(P, k.items[i]);
        (void)part;
    }
    free(k.items);
    if (!n->d)
        n->d = new_node(P, N_EMPTY, c);
    return n;
}

/* Whether range expression N can be evaluated once per element: it reads variables and indexes them, nothing else. */
static bool plain_range(const Node *n)
{
    if (!n)
        return true;
    switch (n->kind) {
    case N_VAR:
    case N_INT:
    case N_ENUMVAL:
    case N_BOOL:
        return true;
    case N_INDEX:
    case N_MEMBER:
    case N_PAREN:
    case N_DEREF:
    case N_BINARY:
    case N_CAST:
        return plain_range(n->a) && plain_range(n->b);
    default:
        return false;
    }
}

/* Whether N mentions variable V. */
static bool mentions(const Node *n, const Var *v)
{
    if (!n)
        return false;
    if (n->kind == N_VAR && n->var == v)
        return true;
    if (mentions(n->a, v) || mentions(n->b, v) || mentions(n->c, v) || mentions(n->d, v))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (mentions(n->list[i], v))
            return true;
    return n->kind == N_VARDEF && mentions(n->var->init, v);
}

/* Whether BODY may change a variable RANGE reads: it assigns, increments, takes the address of or passes to a
   function something that mentions one (C++ evaluates the range once; the loop below reads it per element). */
static bool changes_range(const Node *body, const Node *range)
{
    if (!body)
        return false;
    const Node *target = NULL;
    if (body->kind == N_ASSIGN || body->kind == N_ADDR ||
        ((body->kind == N_POSTFIX || body->kind == N_UNARY) && (!strcmp(body->op, "++") || !strcmp(body->op, "--"))))
        target = body->a;
    if (target || body->kind == N_CALL) {
        const Node *t[64];
        int nt = 0;
        if (target)
            t[nt++] = target;
        for (int i = 0; body->kind == N_CALL && i < body->n_list && nt < 64; i++)
            t[nt++] = body->list[i];
        for (int i = 0; i < nt; i++) {
            const Node *stack[64];
            int sp = 0;
            stack[sp++] = range;
            while (sp) {
                const Node *r = stack[--sp];
                if (!r)
                    continue;
                if (r->kind == N_VAR && mentions(t[i], r->var))
                    return true;
                if (sp < 60) {
                    stack[sp++] = r->a;
                    stack[sp++] = r->b;
                }
            }
        }
    }
    if (changes_range(body->a, range) || changes_range(body->b, range) || changes_range(body->c, range) || changes_range(body->d, range))
        return true;
    for (int i = 0; i < body->n_list; i++)
        if (changes_range(body->list[i], range))
            return true;
    return body->kind == N_VARDEF && changes_range(body->var->init, range);
}

/* for (T x : arr) body, arr an array (MLX's random.metal: `for (auto r : rotations[i % 2])`):
   for (int mtl_x_i = 0; mtl_x_i < N; mtl_x_i++) { T x = arr[mtl_x_i]; body }. libclang visits the loop
   variable, the range, then the body. */
static Node *conv_range_for(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    if (k.len != 3 || clang_getCursorKind(k.items[0]) != CXCursor_VarDecl) {
        free(k.items);
        unsupported(P, c, "this range-based for");
        return new_node(P, N_EMPTY, c);
    }
    Node *range = conv_expr(P, k.items[1]);
    CXCursor var_c = k.items[0], body_c = k.items[2];
    free(k.items);
    Type *vt = conv_type(P, clang_getCursorType(var_c));
    bool by_ref = vt->kind == TY_REF;
    if (by_ref)
        vt = vt->elem;
    if (!range->ty || range->ty->kind != TY_ARRAY || range->ty->n <= 0 || !plain_range(range) ||
        (by_ref && !clang_isConstQualifiedType(clang_getPointeeType(clang_getCursorType(var_c)))) || !ty_equal(vt, range->ty->elem)) {
        unsupported(P, c, "range-based for other than over an array named by variables and indices, by value or const reference,");
        return new_node(P, N_EMPTY, c);
    }
    Var *x = arena_alloc(P->arena, sizeof *x), *i = arena_alloc(P->arena, sizeof *i);
    x->name = cx_take(P, clang_getCursorSpelling(var_c));
    x->glsl_name = names_legal(P->arena, x->name);
    x->ty = vt;
    x->kind = VAR_LOCAL;
    x->loc = loc_of(P, var_c);
    x->owner = P->cur_func;
    map_put(P, usr_key(P, var_c), x);
    *i = (Var){.name = arena_printf(P->arena, "mtl_%s_i", x->glsl_name), .ty = ty_scalar(TY_INT), .kind = VAR_LOCAL,
               .loc = x->loc, .owner = P->cur_func};
    i->glsl_name = i->name;
    Node *iv[3];
    for (int j = 0; j < 3; j++) {
        iv[j] = new_node(P, N_VAR, c);
        iv[j]->var = i;
        iv[j]->ty = i->ty;
    }
    Node *zero = new_node(P, N_INT, c), *count = new_node(P, N_INT, c);
    zero->ty = count->ty = i->ty;
    count->ival = range->ty->n;
    i->init = zero;
    Node *n = new_node(P, N_FOR, c), *idef = new_node(P, N_VARDEF, c), *xdef = new_node(P, N_VARDEF, var_c);
    idef->var = i;
    n->a = new_node(P, N_DECL, c);
    n->a->list = arena_alloc(P->arena, sizeof(Node *));
    n->a->list[0] = idef;
    n->a->n_list = 1;
    n->b = new_node(P, N_BINARY, c);
    n->b->op = "<";
    n->b->a = iv[0];
    n->b->b = count;
    n->b->ty = ty_scalar(TY_BOOL);
    n->c = new_node(P, N_POSTFIX, c);
    n->c->op = "++";
    n->c->a = iv[1];
    n->c->ty = i->ty;
    x->init = new_node(P, N_INDEX, var_c);
    x->init->a = range;
    x->init->b = iv[2];
    x->init->ty = vt;
    xdef->var = x;
    Node *decl = new_node(P, N_DECL, var_c);
    decl->list = arena_alloc(P->arena, sizeof(Node *));
    decl->list[0] = xdef;
    decl->n_list = 1;
    n->d = new_node(P, N_BLOCK, c);
    n->d->list = arena_alloc(P->arena, sizeof(Node *) * 2);
    n->d->list[0] = decl;
    n->d->list[1] = conv_stmt(P, body_c);
    n->d->n_list = 2;
    if (changes_range(n->d->list[1], range)) {
        unsupported(P, c, "range-based for whose body changes a variable its range expression reads");
        return new_node(P, N_EMPTY, c);
    }
    return n;
}

static bool is_if_constexpr(Parser *P, CXCursor c)
{
    Toks t = toks_of(P, c);
    bool r = t.n >= 2 && !strcmp(tok_text(P, &t, 1), "constexpr");
    toks_free(&t);
    return r;
}

/* if constexpr (cond) a else b: the branch the instance takes, as written (clang has dropped the other). */
static Node *if_constexpr(Parser *P, CXCursor c, Kids *k)
{
    CXEvalResult r = k->len >= 2 ? clang_Cursor_Evaluate(k->items[0]) : NULL;
    if (!r)
        return unsupported(P, c, "an if constexpr whose condition is not constant here");
    bool taken = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) != 0;
    clang_EvalResult_dispose(r);
    if (taken)
        return conv_stmt(P, k->items[1]);
    return k->len == 3 ? conv_stmt(P, k->items[2]) : new_node(P, N_EMPTY, c);
}

/* Whether expression C reads a function constant or calls a function (its value is then not the one clang folds:
   function constants are given `= {}` for clang, their values come at pipeline creation), also through the
   initializers of the variables it reads: clang folds `const int C = FC_c;` ... `if (C > 32)` through C's
   initializer (ggml's kernel_flash_attn_ext_blk), so such a condition is not constant either. */
typedef struct FoldCheck {
    Parser *P;
    bool variable;
    int depth; /* variables followed into their initializers */
} FoldCheck;

enum { FOLD_CHECK_DEPTH = 32 };

static enum CXChildVisitResult fold_check_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    FoldCheck *f = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr && !f->depth) { /* (in an initializer, a call clang folds is a constexpr one) */
        f->variable = true;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        if (clang_getCursorKind(ref) == CXCursor_VarDecl) {
            if (clang_Cursor_hasVarDeclGlobalStorage(ref) == 1) {
                Var *v = get_global(f->P, ref);
                if (!v || v->fc_id) {
                    f->variable = true;
                    return CXChildVisit_Break;
                }
            }
            /* the variable's initializer, which clang folds when the variable is a constant integer */
            if (f->depth >= FOLD_CHECK_DEPTH) {
                f->variable = true;
                return CXChildVisit_Break;
            }
            f->depth++;
            clang_visitChildren(ref, fold_check_visit, f);
            f->depth--;
            if (f->variable)
                return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

static bool foldable_condition(Parser *P, CXCursor cond)
{
    FoldCheck f = {P, false, 0};
    if (fold_check_visit(cond, cond, &f) == CXChildVisit_Break)
        return false;
    clang_visitChildren(cond, fold_check_visit, &f);
    return !f.variable;
}

static Node *conv_children_stmt(Parser *P, CXCursor c, NodeKind kind)
{
    Kids k = kids_of(c);
    Node *n = new_node(P, kind, c);
    switch (kind) {
    case N_IF:
        if (is_if_constexpr(P, c)) {
            Node *taken = if_constexpr(P, c, &k);
            free(k.items);
            return taken;
        }
        if (k.len < 2 || k.len > 3 || clang_getCursorKind(k.items[0]) == CXCursor_VarDecl) {
            free(k.items);
            return unsupported(P, c, "an if statement with an initializer or declaration");
        }
        if (clang_isExpression(clang_getCursorKind(k.items[0]))) {
            /* a condition constant in this instance (`if (ARG_SORT)` of a template, `N > 1 && ...` with N = 1;
               not a function constant, whose value comes at pipeline creation): only the branch taken, as Metal's compiler keeps it; the other may hold what only the other instances
               can run (MLX's sort writes through a null pointer its argsort-less instances pass, under if (ARG_SORT)) */
            CXEvalResult r = foldable_condition(P, k.items[0]) ? clang_Cursor_Evaluate(k.items[0]) : NULL;
            if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
                bool taken = clang_EvalResult_getAsLongLong(r) != 0;
                clang_EvalResult_dispose(r);
                Node *t = taken ? conv_stmt(P, k.items[1]) : k.len == 3 ? conv_stmt(P, k.items[2]) : new_node(P, N_EMPTY, c);
                free(k.items);
                if (t->kind == N_BLOCK || t->kind == N_EMPTY)
                    return t;
                Node *b = new_node(P, N_BLOCK, c); /* a declaration in the branch stays in its own scope */
                b->list = arena_alloc(P->arena, sizeof *b->list);
                b->list[0] = t;
                b->n_list = 1;
                return b;
            }
            if (r)
                clang_EvalResult_dispose(r);
        }
        n->a = conv_expr(P, k.items[0]);
        n->b = conv_stmt(P, k.items[1]);
        n->c = k.len == 3 ? conv_stmt(P, k.items[2]) : NULL;
        break;
    case N_WHILE:
    case N_SWITCH:
        n->unroll = kind == N_WHILE ? loop_hint(P, c) : 0;
        if (k.len != 2 || clang_getCursorKind(k.items[0]) == CXCursor_VarDecl) {
            free(k.items);
            return unsupported(P, c, "a condition with a declaration");
        }
        n->a = conv_expr(P, k.items[0]);
        n->d = conv_stmt(P, k.items[1]);
        break;
    case N_DO:
        n->unroll = loop_hint(P, c);
        if (k.len != 2) {
            free(k.items);
            return unsupported(P, c, "this do statement");
        }
        n->d = conv_stmt(P, k.items[0]);
        n->a = conv_expr(P, k.items[1]);
        break;
    case N_CASE:
        if (k.len != 2) {
            free(k.items);
            return unsupported(P, c, "case ranges");
        }
        n->a = conv_expr(P, k.items[0]);
        n->d = conv_stmt(P, k.items[1]);
        break;
    case N_DEFAULT:
        n->d = k.len == 1 ? conv_stmt(P, k.items[0]) : new_node(P, N_EMPTY, c);
        break;
    case N_RETURN:
        n->a = k.len == 1 ? conv_expr(P, k.items[0]) : NULL;
        if (n->a && P->cur_func && P->cur_func->returns_ref) { /* a reference returned: its address */
            Node *addr = new_node(P, N_ADDR, c);
            addr->a = n->a;
            addr->ty = P->cur_func->ret;
            addr->op = "&";
            n->a = addr;
        }
        break;
    default:
        break;
    }
    free(k.items);
    return n;
}

static Node *conv_stmt(Parser *P, CXCursor c)
{
    return conv_nested(P, c, true);
}

static Node *conv_stmt_kind(Parser *P, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    switch (k) {
    case CXCursor_CompoundStmt: {
        Kids kids = kids_of(c);
        Node *n = new_node(P, N_BLOCK, c);
        n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(kids.len + 1));
        for (int i = 0; i < kids.len; i++)
            n->list[n->n_list++] = conv_stmt(P, kids.items[i]);
        free(kids.items);
        return n;
    }
    case CXCursor_DeclStmt:
        return conv_decl_stmt(P, c);
    case CXCursor_IfStmt:
        return conv_children_stmt(P, c, N_IF);
    case CXCursor_ForStmt:
        return conv_for(P, c);
    case CXCursor_WhileStmt:
        return conv_children_stmt(P, c, N_WHILE);
    case CXCursor_DoStmt:
        return conv_children_stmt(P, c, N_DO);
    case CXCursor_SwitchStmt:
        return conv_children_stmt(P, c, N_SWITCH);
    case CXCursor_CaseStmt:
        return conv_children_stmt(P, c, N_CASE);
    case CXCursor_DefaultStmt:
        return conv_children_stmt(P, c, N_DEFAULT);
    case CXCursor_BreakStmt:
        return new_node(P, N_BREAK, c);
    case CXCursor_ContinueStmt:
        return new_node(P, N_CONTINUE, c);
    case CXCursor_ReturnStmt:
        return conv_children_stmt(P, c, N_RETURN);
    case CXCursor_NullStmt:
        return new_node(P, N_EMPTY, c);
    case CXCursor_GotoStmt:
    case CXCursor_LabelStmt:
        unsupported(P, c, "goto");
        return new_node(P, N_EMPTY, c);
    case CXCursor_CXXForRangeStmt:
        return conv_range_for(P, c);
    case CXCursor_GCCAsmStmt:
        unsupported(P, c, "inline assembly");
        return new_node(P, N_EMPTY, c);
    default:
        if (clang_isExpression(k)) {
            Node *n = new_node(P, N_EXPRSTMT, c);
            n->a = conv_expr(P, c);
            while (n->a->kind == N_CAST && n->a->ty && n->a->ty->kind == TY_VOID && n->a->a) /* `(void)lid;`: the operand */
                n->a = n->a->a;
            Node *e = n->a;
            while (e->kind == N_PAREN)
                e = e->a;
            if (e->kind == N_VAR || e->kind == N_INT || e->kind == N_FLOAT || e->kind == N_BOOL)
                return new_node(P, N_EMPTY, c); /* a value nobody reads (MLX marks unused parameters so) */
            if (e->kind == N_EMPTY) /* a call dropped (os_log) */
                return e;
            return n->a->kind == N_BLOCK ? n->a : n; /* simdgroup_store: one store per element (sgmat.c) */
        }
        unsupported(P, c, arena_printf(P->arena, "the statement kind %s", cx_take(P, clang_getCursorKindSpelling(k))));
        return new_node(P, N_EMPTY, c);
    }
}

/* ---- functions ---- */

/* The attribute groups between offsets [from, to). */
static void attrs_between(Parser *P, CXCursor in, unsigned from, unsigned to, AttrGroup **out, int *n, int max)
{
    *n = 0;
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(in), &f, NULL, NULL, NULL);
    if (!f || !clang_File_isEqual(f, P->main_file))
        return;
    for (int i = 0; i < P->attrs.len && *n < max; i++) {
        AttrGroup *g = P->attrs.items[i];
        if (g->offset >= from && g->offset < to)
            out[(*n)++] = g;
    }
}

/* An integer constant expression of literals, as attribute arguments are written after macro expansion
   (`[[function_constant(1200 + 1)]]`, `[[buffer(2 * 3)]]`): + - * / % << >> and parentheses. */
typedef struct ConstExpr {
    const char *p;
    bool ok;
} ConstExpr;

static long long cexpr_sum(ConstExpr *e);

static void cexpr_space(ConstExpr *e)
{
    while (*e->p == ' ' || *e->p == '\t' || *e->p == '\n')
        e->p++;
}

static long long cexpr_unary(ConstExpr *e)
{
    cexpr_space(e);
    if (*e->p == '-' || *e->p == '+') {
        bool neg = *e->p++ == '-';
        long long v = cexpr_unary(e);
        return neg ? -v : v;
    }
    if (*e->p == '(') {
        e->p++;
        long long v = cexpr_sum(e);
        cexpr_space(e);
        if (*e->p++ != ')')
            e->ok = false;
        return v;
    }
    if (!isdigit((unsigned char)*e->p)) {
        e->ok = false;
        return 0;
    }
    char *end;
    long long v = strtoll(e->p, &end, 0);
    e->p = end;
    while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' || *e->p == 'L')
        e->p++;
    return v;
}

static long long cexpr_product(ConstExpr *e)
{
    long long v = cexpr_unary(e);
    for (;;) {
        cexpr_space(e);
        char op = *e->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        e->p++;
        long long r = cexpr_unary(e);
        if (op != '*' && r == 0) {
            e->ok = false;
            return 0;
        }
        v = op == '*' ? v * r : op == '/' ? v / r : v % r;
    }
}

static long long cexpr_sum(ConstExpr *e)
{
    long long v = cexpr_product(e);
    for (;;) {
        cexpr_space(e);
        if ((e->p[0] == '<' && e->p[1] == '<') || (e->p[0] == '>' && e->p[1] == '>')) {
            bool left = *e->p == '<';
            e->p += 2;
            long long r = cexpr_product(e);
            if (r < 0 || r > 62)
                e->ok = false;
            else
                v = left ? v << r : v >> r;
            continue;
        }
        if (*e->p != '+' && *e->p != '-')
            return v;
        bool add = *e->p++ == '+';
        long long r = cexpr_product(e);
        v = add ? v + r : v - r;
    }
}

/* The argument of `name(ARG)`: its value, or -1 when there is no argument and -2 when it is not an integer
   constant expression of literals (a name: the callers' range checks report it). */
static int attr_argument(const char *paren)
{
    if (!paren)
        return -1;
    ConstExpr e = {paren + 1, true};
    long long v = cexpr_sum(&e);
    cexpr_space(&e);
    if (!e.ok || *e.p != ')' || v < 0 || v > 0x7fffffff)
        return -2;
    return (int)v;
}

static int attr_lookup(const char *text, int *arg)
{
    char name[128];
    size_t n = strcspn(text, "( \t");
    if (n >= sizeof name)
        return -1;
    memcpy(name, text, n);
    name[n] = 0;
    const char *paren = strchr(text, '(');
    *arg = attr_argument(paren);
    if (!strcmp(name, "buffer"))
        return ATTR_COUNT; /* buffer index */
    if (!strcmp(name, "threadgroup"))
        return ATTR_COUNT + 1; /* threadgroup memory index */
    for (int i = 0; i < ATTR_COUNT; i++)
        if (!strcmp(attr_table[i].name, name))
            return i;
    return -2;
}

/* `const device T* bias [[buffer(2), function_constant(do_axpby)]]` (MLX's gemv, sdpa_vector): the parameter exists
   only when the bool function constant named is true. The buffer is declared always (the kernel reads it only
   under the constant); the reflection names the constant, so that the runtime binds a placeholder where the host
   gives no buffer. */
static void param_function_constant(Parser *P, Var *v, AttrGroup *g)
{
    const char *open = strchr(g->text, '(');
    size_t len = strcspn(open + 1, ")");
    char *name = arena_printf(P->arena, "%.*s", (int)len, open + 1);
    while (*name == ' ')
        name++;
    for (size_t k = strlen(name); k > 0 && name[k - 1] == ' '; k--)
        name[k - 1] = 0;
    bool ident = *name && !isdigit((unsigned char)*name);
    for (const char *q = name; *q; q++)
        ident &= isalnum((unsigned char)*q) || *q == '_' || *q == ':';
    if (!ident || open[1 + len] != ')') {
        diag_error(P->diag, g->loc, "[[%s]] on a parameter must name a bool function constant", g->text);
        return;
    }
    v->fc_param = name;
}

/* Applies the attribute groups that follow a kernel parameter's name. */
static void param_attributes(Parser *P, Var *v, AttrGroup **g, int n)
{
    v->index = -1;
    v->builtin = -1;
    v->tg_index = -1;
    for (int i = 0; i < n; i++) {
        int arg;
        int a = attr_lookup(g[i]->text, &arg);
        if (a == ATTR_COUNT) {
            if (arg < 0 || arg > 30)
                diag_error(P->diag, g[i]->loc, "buffer index in [[%s]] must be between 0 and 30", g[i]->text);
            v->index = arg;
        } else if (a == ATTR_COUNT + 1) {
            if (arg < 0 || arg > 30)
                diag_error(P->diag, g[i]->loc, "threadgroup memory index in [[%s]] must be between 0 and 30", g[i]->text);
            v->tg_index = arg;
        } else if (a >= 0) {
            v->builtin = a;
        } else if (!strncmp(g[i]->text, "function_constant", 17) && strchr(g[i]->text, '(')) {
            param_function_constant(P, v, g[i]);
        } else {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(g[i]->text, "( "), g[i]->text);
            diag_error(P->diag, g[i]->loc, "attribute [[%s]] is not supported yet", name);
        }
    }
}

/* The parameters of C; a member function's object comes first (f->self); functor parameters are dropped. */
static void conv_params(Parser *P, Func *f, CXCursor c)
{
    int np = clang_Cursor_getNumArguments(c);
    np = np < 0 ? 0 : np;
    f->params = arena_alloc(P->arena, sizeof(Var *) * (size_t)(np + 2));
    f->n_params = 0;
    if (f->self)
        f->params[f->n_params++] = f->self;
    unsigned body_start = offset_of(clang_getRangeEnd(clang_getCursorExtent(c)));
    Kids k = kids_of(c);
    for (int i = 0; i < k.len; i++)
        if (clang_getCursorKind(k.items[i]) == CXCursor_CompoundStmt)
            body_start = offset_of(clang_getRangeStart(clang_getCursorExtent(k.items[i])));
    free(k.items);
    for (int i = 0; i < np; i++) {
        CXCursor pc = clang_Cursor_getArgument(c, (unsigned)i);
        Var *v = arena_alloc(P->arena, sizeof *v);
        v->name = cx_take(P, clang_getCursorSpelling(pc));
        if (!*v->name)
            v->name = arena_printf(P->arena, "unnamed%d", i);
        v->glsl_name = names_legal(P->arena, v->name);
        int same = 0; /* a parameter pack's expansion (`Ts... rest`): rest, rest_1, rest_2, ... */
        for (int j = 0; j < f->n_params; j++)
            same += !strcmp(f->params[j]->name, v->name);
        if (same)
            v->glsl_name = arena_printf(P->arena, "%s_%d", names_legal(P->arena, v->name), same);
        v->ty = conv_type(P, clang_getCursorType(pc));
        CXType elem_cx = clang_getArrayElementType(clang_getCursorType(pc));
        AddrSpace elem_as = elem_cx.kind == CXType_Invalid ? AS_THREAD : conv_addr_space(elem_cx);
        if (v->ty->kind == TY_ARRAY && (v->ty->n == 0 || elem_as != AS_THREAD)) {
            /* `const float array[]` is a pointer (C): an index (ptr.c); so is `constant const int64_t strides[2]`,
               a pointer to constant memory (MLX binds it with setBytes, as for `constant int64_t*`) */
            Type *p = new_type(P, TY_PTR);
            p->elem = v->ty->elem;
            p->as = elem_as;
            p->is_const = clang_isConstQualifiedType(elem_cx);
            v->ty = p;
        }
        v->kind = VAR_PARAM;
        v->owner = f;
        v->loc = loc_of(P, pc);
        v->index = -1;
        v->builtin = -1;
        v->tg_index = -1;
        map_put(P, usr_key(P, pc), v);
        map_put(P, param_key(P, pc), v);
        if (!f->is_kernel && is_empty_struct(v->ty->kind == TY_REF ? v->ty->elem : v->ty))
            continue; /* a functor, by value or `thread const Op&`: its calls drop the argument too */
        f->params[f->n_params++] = v;
        if (f->is_kernel) {
            unsigned from = offset_of(clang_getCursorLocation(pc));
            unsigned to = i + 1 < np ? offset_of(clang_getCursorLocation(clang_Cursor_getArgument(c, (unsigned)i + 1))) : body_start;
            AttrGroup *g[8];
            int n;
            attrs_between(P, pc, from, to, g, &n, 8);
            param_attributes(P, v, g, n);
            v->coherent = has_annotation(pc, "mtl_coherent"); /* coherent(device) */
            v->is_volatile = clang_isVolatileQualifiedType(clang_getPointeeType(clang_getCursorType(pc)));
        }
    }
}

static CXCursor body_of(CXCursor c)
{
    Kids k = kids_of(c);
    CXCursor body = clang_getNullCursor();
    for (int i = 0; i < k.len; i++)
        if (clang_getCursorKind(k.items[i]) == CXCursor_CompoundStmt)
            body = k.items[i];
    free(k.items);
    return body;
}

static void check_address_casts(Parser *P, Node *body);

static void parse_body(Parser *P, Func *f, CXCursor c)
{
    if (f->parsed)
        return;
    f->parsed = true;
    CXCursor body = body_of(c);
    if (clang_Cursor_isNull(body)) {
        if (P->n_errors && !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c))) {
            /* an instance clang could not build: its errors are printed, the first in its pattern names its users
               (clang tells the instance only to the first one that asked for it) */
            f->had_errors = true;
            if (!f->clang_error)
                f->clang_error = error_reported_inside(P, clang_getSpecializedCursorTemplate(c));
        }
        else
            diag_error(P->diag, f->loc, "'%s' is declared but never defined", f->name);
        return;
    }
    Func *saved = P->cur_func;
    const char *saved_spelling = P->cur_spelling;
    Var *saved_self = P->self;
    P->cur_func = f;
    P->cur_spelling = cx_take(P, clang_getCursorSpelling(c));
    P->self = f->self;
    int before = P->diag->n_errors;
    f->body = conv_stmt(P, body);
    check_address_casts(P, f->body);
    f->had_errors = P->diag->n_errors > before || f->clang_error;
    if (P->diag->n_errors > before && !f->first_error)
        f->first_error = before + 1;
    P->cur_func = saved;
    P->cur_spelling = saved_spelling;
    P->self = saved_self;
}

/* ---- addresses as integers (c10's atomic_add_helper: `auto addr = reinterpret_cast<ulong>(data); auto misalign =
   (addr % alignof(atomic<uint>)) / sizeof(T);`) ----
   A pointer is an index into its buffer: only the remainder of its address modulo a power of two up to 4 is known,
   since every binding starts at an address that 32-bit elements can be read at. So a pointer cast to an integer is
   accepted where it is only read as `x % C` (C a constant power of two, at most 4), directly or through a local
   variable initialized with it and never assigned; the printer writes the pointer's byte offset (emit_glsl.c). */

static bool is_address_cast(Node *n)
{
    while (n && (n->kind == N_PAREN || (n->kind == N_CAST && n->implicit && n->name == NULL)))
        n = n->a;
    return n && n->kind == N_CAST && n->name && !strcmp(n->name, "address");
}

static Node *strip_to_address(Node *n)
{
    while (n && !(n->kind == N_CAST && n->name && !strcmp(n->name, "address")))
        n = n->a;
    return n;
}

static bool small_pow2(Node *n)
{
    while (n && (n->kind == N_PAREN || n->kind == N_CAST))
        n = n->a;
    return n && (n->kind == N_INT || n->kind == N_SIZEOF) && (n->ival == 1 || n->ival == 2 || n->ival == 4);
}

#define MAX_ADDRESS_VARS 64

/* The local variables of BODY initialized with an address (up to MAX_ADDRESS_VARS; check_address_uses refuses
   any past them). */
static int address_vars(Node *n, Var **out, int k)
{
    if (!n || k >= MAX_ADDRESS_VARS)
        return k;
    if (n->kind == N_VARDEF && n->var->init && is_address_cast(n->var->init))
        out[k++] = n->var;
    k = address_vars(n->a, out, k);
    k = address_vars(n->b, out, k);
    k = address_vars(n->c, out, k);
    k = address_vars(n->d, out, k);
    for (int i = 0; i < n->n_list; i++)
        k = address_vars(n->list[i], out, k);
    return k;
}

static bool is_address_var(Node *n, Var **vars, int nv)
{
    while (n && (n->kind == N_PAREN || (n->kind == N_CAST && n->implicit)))
        n = n->a;
    for (int i = 0; n && n->kind == N_VAR && i < nv; i++)
        if (n->var == vars[i])
            return true;
    return false;
}

/* Reports each address, or variable holding one, that N uses other than as `x % C`. */
static void check_address_uses(Parser *P, Node *n, Var **vars, int nv)
{
    if (!n)
        return;
    if (n->kind == N_BINARY && !strcmp(n->op, "%") && (is_address_cast(n->a) || is_address_var(n->a, vars, nv)) && small_pow2(n->b))
        return; /* addr % 4: exact */
    if (n->kind == N_VARDEF && is_address_cast(n->var->init)) {
        Node v = {.kind = N_VAR, .var = n->var};
        if (!is_address_var(&v, vars, nv))
            diag_error(P->diag, n->loc, "more than %d variables hold pointers' addresses here: not supported", MAX_ADDRESS_VARS);
        check_address_uses(P, strip_to_address(n->var->init)->a, vars, nv);
        return;
    }
    if (is_address_cast(n) || (n->kind == N_VAR && is_address_var(n, vars, nv))) {
        diag_error(P->diag, n->loc, "a pointer's address as an integer is only supported as its remainder modulo 1, 2 or 4 "
                   "(addr %% 4: a pointer is an index into its buffer; the address itself is unknown)");
        return;
    }
    check_address_uses(P, n->a, vars, nv);
    check_address_uses(P, n->b, vars, nv);
    check_address_uses(P, n->c, vars, nv);
    check_address_uses(P, n->d, vars, nv);
    for (int i = 0; i < n->n_list; i++)
        check_address_uses(P, n->list[i], vars, nv);
    if (n->kind == N_VARDEF)
        check_address_uses(P, n->var->init, vars, nv);
}

static void check_address_casts(Parser *P, Node *body)
{
    Var *vars[MAX_ADDRESS_VARS];
    int nv = address_vars(body, vars, 0);
    check_address_uses(P, body, vars, nv);
}

static const char *const operator_words[][2] = {
    {"()", "call"}, {"[]", "index"}, {"+=", "add_assign"}, {"-=", "sub_assign"}, {"*=", "mul_assign"},
    {"/=", "div_assign"}, {"==", "eq"}, {"!=", "ne"}, {"<=", "le"}, {">=", "ge"}, {"<<", "shl"}, {">>", "shr"},
    {"&&", "land"}, {"||", "lor"}, {"++", "inc"}, {"--", "dec"}, {"+", "add"}, {"-", "sub"}, {"*", "mul"},
    {"/", "div"}, {"%", "mod"}, {"<", "lt"}, {">", "gt"}, {"&", "and"}, {"|", "or"}, {"^", "xor"},
    {"!", "not"}, {"~", "bitnot"}, {"=", "assign"},
};

/* The name of template argument I of the function instance C when it is a function (a declaration): the
   name clang prints for it, `kernel_mul_mv_t_t_disp` of `mmv_fn<&kernel_mul_mv_t_t_disp>`. The C API has no
   accessor for a declaration argument; the declaration as clang prints it, body left out, names it. */
static const char *declaration_argument(Parser *P, CXCursor c, int i)
{
    CXPrintingPolicy pol = clang_getCursorPrintingPolicy(c);
    clang_PrintingPolicy_setProperty(pol, CXPrintingPolicy_TerseOutput, 1);
    char *text = cx_take(P, clang_getCursorPrettyPrinted(c, pol));
    clang_PrintingPolicy_dispose(pol);
    char *open = strchr(text, '(');
    if (open) /* `template<> void mmv_fn<&f>(...)`: the arguments end before the parameters */
        *open = 0;
    const char *p = strstr(text, "template<>");
    p = strchr(p ? p + 10 : text, '<');
    if (!p)
        return "fn";
    p++;
    for (int arg = 0, depth = 0; *p; p++) { /* to argument I, at top-level commas */
        if (arg == i && depth == 0) {
            const char *e = p;
            for (int d = 0; *e && !(d == 0 && (*e == ',' || *e == '>')); e++)
                d += *e == '<' || *e == '(' ? 1 : *e == '>' || *e == ')' ? -1 : 0;
            char *a = mangle(P, arena_printf(P->arena, "%.*s", (int)(e - p), p));
            return *a ? a : "fn";
        }
        depth += *p == '<' || *p == '(' ? 1 : *p == '>' || *p == ')' ? -1 : 0;
        if (*p == ',' && depth == 0)
            arg++;
    }
    return "fn";
}

/* The GLSL name of a function, member function or instance: `Abs::operator()<float>` -> `Abs_call_float`. */
/* A member function of a struct, conversion functions (`operator float() const`) included. */
static bool is_member_function(CXCursor c)
{
    return clang_getCursorKind(c) == CXCursor_CXXMethod || clang_getCursorKind(c) == CXCursor_ConversionFunction;
}

static const char *func_glsl_name(Parser *P, CXCursor c, const char *name)
{
    char *base = arena_strdup(P->arena, name);
    if (!strncmp(name, "operator", 8) && !isalnum((unsigned char)name[8]) && name[8] != '_') {
        const char *sym = name + 8 + strspn(name + 8, " ");
        for (size_t i = 0; i < sizeof operator_words / sizeof *operator_words; i++)
            if (!strcmp(sym, operator_words[i][0])) {
                base = arena_printf(P->arena, "operator_%s", operator_words[i][1]);
                break;
            }
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    for (CXCursor ns = clang_getCursorSemanticParent(c); clang_getCursorKind(ns) == CXCursor_Namespace;
         ns = clang_getCursorSemanticParent(ns)) { /* a::f and b::f may both be called */
        char *nn = cx_take(P, clang_getCursorSpelling(ns));
        if (*nn)
            base = arena_printf(P->arena, "%s_%s", nn, base);
    }
    if (k == CXCursor_ConversionFunction) /* operator float() -> S_to_float */
        base = arena_printf(P->arena, "to_%s", ty_metal_name(P->arena, conv_type(P, clang_getCursorResultType(c))));
    if (k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_ConversionFunction) {
        Type *st = conv_type(P, clang_getCursorType(clang_getCursorSemanticParent(c)));
        if (st->kind == TY_STRUCT)
            base = arena_printf(P->arena, "%s_%s", st->sdef->glsl_name, base);
    }
    int nt = clang_Cursor_getNumTemplateArguments(c);
    if (nt < 0 && k != CXCursor_ConversionFunction && k != CXCursor_Constructor && clang_getCursorKind(clang_getSpecializedCursorTemplate(c)) == CXCursor_FunctionTemplate) /* a member template: its type */
        base = arena_printf(P->arena, "%s_%s", base, cx_take(P, clang_getTypeSpelling(clang_getCursorResultType(c))));
    for (int i = 0; i < nt && !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c)); i++) {
        enum CXTemplateArgumentKind ak = clang_Cursor_getTemplateArgumentKind(c, (unsigned)i);
        if (ak == CXTemplateArgumentKind_Type) {
            CXType at = clang_Cursor_getTemplateArgumentType(c, (unsigned)i);
            Type *mt = conv_type(P, at); /* vectors and matrices by their Metal names: float3, float3x3 */
            base = arena_printf(P->arena, "%s_%s", base, mt->kind == TY_VEC || mt->kind == TY_MAT ? ty_metal_name(P->arena, mt) : cx_take(P, clang_getTypeSpelling(at)));
        }
        else if (ak == CXTemplateArgumentKind_Integral)
            base = arena_printf(P->arena, "%s_%lld", base, clang_Cursor_getTemplateArgumentValue(c, (unsigned)i));
        else if (ak == CXTemplateArgumentKind_Declaration) /* a function: `mmv_fn<&kernel_mul_mv_t_t_disp>` */
            base = arena_printf(P->arena, "%s_%s", base, declaration_argument(P, c, i));
    }
    const char *glsl = names_legal(P->arena, mangle(P, base));
    for (int i = 0; i < builtin_count; i++) /* `frexp_` mangled to a GLSL built-in's name: frexp_ */
        if (!strcmp(glsl, builtin_table[i].glsl))
            return arena_printf(P->arena, "%s_", glsl);
    return glsl;
}

/* NAME, or NAME_2, NAME_3...: the first that no function other than the one under KEY has taken. Only for
   instances with function arguments, whose names leave out the function's own template arguments
   (`mmv_fn<f<float>>` and `mmv_fn<f<half>>` are both mmv_fn_f); other functions keep GLSL's overloading. */
static const char *unique_func_name(Parser *P, const char *name, const char *key)
{
    for (int n = 1;; n++) {
        const char *r = n == 1 ? name : arena_printf(P->arena, "%s_%d", name, n);
        char *claim = arena_printf(P->arena, "\001glsl:%s", r);
        const char *owner = map_get(P, claim);
        if (!owner) {
            map_put(P, claim, (void *)arena_strdup(P->arena, key));
            return r;
        }
        if (!strcmp(owner, key))
            return r;
    }
}

/* The function model registered under KEY, or a new one named and placed after cursor C (*FRESH then true). */
static Func *func_for_key(Parser *P, char *key, CXCursor c, bool *fresh)
{
    Func *f = map_get(P, key);
    *fresh = !f;
    if (f)
        return f;
    f = arena_alloc(P->arena, sizeof *f);
    map_put(P, key, f);
    f->name = cx_take(P, clang_getCursorSpelling(c));
    f->loc = loc_of(P, c);
    return f;
}

/* The model of a user function (parsed once, on first call). */
static void return_param_by_value(Func *f);

static Func *get_func(Parser *P, CXCursor decl)
{
    CXCursor def = clang_getCursorDefinition(decl);
    CXCursor c = clang_Cursor_isNull(def) ? decl : def;
    char *key = usr_key(P, clang_getCanonicalCursor(c));
    Type *owner = is_member_function(c) ? conv_type(P, clang_getCursorType(clang_getCursorSemanticParent(c))) : NULL;
    bool lambda = owner && owner->kind == TY_STRUCT && !strncmp(owner->sdef->name, "lambda_", 7);
    if (lambda) /* closures of different template instances may share a USR */
        key = arena_printf(P->arena, "%s#%u", key, clang_hashCursor(clang_getCanonicalCursor(c)));
    bool fresh;
    Func *f = func_for_key(P, key, c, &fresh);
    if (!fresh)
        return f;
    f->ret = conv_type(P, clang_getCursorResultType(c));
    if (f->ret->kind == TY_REF && f->ret->as != AS_THREAD &&
        (clang_getCursorKind(c) == CXCursor_FunctionDecl || clang_getCursorKind(c) == CXCursor_CXXMethod)) {
        /* `device T& ref_at_offs(...)` (c10), `threadgroup T& at(uint i) { return v[i]; }` with v a pointer member:
           returns a pointer (an index, ptr.c); calls read and write through it */
        Type *p = new_type(P, TY_PTR);
        p->elem = f->ret->elem;
        p->as = f->ret->as;
        p->is_const = f->ret->is_const;
        f->ret = p;
        f->returns_ref = true;
    }
    if ((f->clang_error = error_inside(P, c))) /* clang said why: no model */
        f->parsed = f->had_errors = true;
    if (clang_getCursorKind(c) == CXCursor_FunctionTemplate) {
        diag_error(P->diag, loc_of(P, decl), "a call to the function template '%s' outside an instance", f->name);
        f->parsed = true;
        return f;
    }
    f->glsl_name = func_glsl_name(P, c, f->name);
    for (int i = 0; i < clang_Cursor_getNumTemplateArguments(c); i++)
        if (clang_Cursor_getTemplateArgumentKind(c, (unsigned)i) == CXTemplateArgumentKind_Declaration) {
            f->glsl_name = unique_func_name(P, f->glsl_name, key);
            break;
        }
    if (is_member_function(c) && !clang_CXXMethod_isStatic(c)) {
        Type *st = conv_type(P, clang_getCursorType(clang_getCursorSemanticParent(c)));
        if (f->ret->kind == TY_REF && f->ret->as == AS_THREAD && ty_equal(f->ret->elem, st))
            f->ret = st; /* S& operator+=(...) { ...; return *this; }: the updated object, by value */
        if (!is_empty_struct(st)) {
            Var *self = arena_alloc(P->arena, sizeof *self);
            *self = (Var){.name = "self", .glsl_name = "self", .kind = VAR_PARAM, .loc = f->loc, .index = -1, .builtin = -1, .owner = f};
            self->ty = st;
            if (!clang_CXXMethod_isConst(c)) { /* changes the object: inout */
                self->ty = arena_alloc(P->arena, sizeof(Type));
                *self->ty = (Type){.kind = TY_REF, .elem = st, .as = AS_THREAD};
            }
            f->self = self;
        }
    }
    conv_params(P, f, c);
    if (!lambda) {
        parse_body(P, f, c);
        if (f->ret->kind == TY_REF && f->ret->as == AS_THREAD)
            return_param_by_value(f);
        return f;
    }
    char *us = strstr(f->glsl_name, "_operator_call"); /* lambda_6_1, not lambda_6_1_operator_call */
    if (us)
        f->glsl_name = arena_printf(P->arena, "%.*s%s", (int)(us - f->glsl_name), f->glsl_name, us + 14);
    Lambda L = {.method = c, .fn = f}, *saved = P->lambda;
    P->lambda = &L;
    parse_body(P, f, c);
    P->lambda = saved;
    Var **params = arena_alloc(P->arena, sizeof(Var *) * (size_t)(f->n_params + L.inner.len + 1));
    memcpy(params, f->params, sizeof(Var *) * (size_t)f->n_params);
    for (int i = 0; i < L.inner.len; i++) {
        Var *v = L.inner.items[i];
        v->captured = L.outer.items[i];
        params[f->n_params++] = v;
    }
    f->params = params;
    f->n_captures = L.inner.len;
    pv_free(&L.outer);
    pv_free(&L.inner);
    return f;
}

/* Checks the returns in statement N of a function returning `thread T&`: each must return a reference parameter, the
   same one (*param). Clears *ok on any other return. */
static void returned_param(const Node *n, Var **param, bool *ok)
{
    if (!n || !*ok)
        return;
    if (n->kind == N_RETURN) {
        const Node *e = n->a;
        while (e && (e->kind == N_PAREN || (e->kind == N_CAST && e->implicit && e->a && e->a->ty && ty_equal(e->ty, e->a->ty))))
            e = e->a;
        bool ref = e && e->kind == N_VAR && e->var->kind == VAR_PARAM && e->var->ty->kind == TY_REF && e->var->ty->as == AS_THREAD;
        if (!ref || (*param && *param != e->var))
            *ok = false;
        else
            *param = e->var;
        return;
    }
    if (n->kind >= N_BLOCK) { /* statements hold returns; expressions do not */
        returned_param(n->a, param, ok);
        returned_param(n->b, param, ok);
        returned_param(n->c, param, ok);
        returned_param(n->d, param, ok);
        for (int i = 0; i < n->n_list; i++)
            returned_param(n->list[i], param, ok);
    }
}

/* `thread T& f(thread T& a, ...) { ...; return a; }` (MLX's complex `operator+=`): F returns the object its reference
   parameter names, which GLSL passes inout; F returns that object's value, which its callers may read but not write
   (glslang refuses a call as an l-value). Other functions returning thread references keep the reference (an error). */
static void return_param_by_value(Func *f)
{
    Var *param = NULL;
    bool ok = f->body != NULL;
    returned_param(f->body, &param, &ok);
    if (ok && param && ty_equal(param->ty->elem, f->ret->elem)) {
        f->ret = f->ret->elem;
        f->returns_param = param;
    }
}

static Node **realloc_list(Parser *P, Node **list, int len, int more)
{
    Node **r = arena_alloc(P->arena, sizeof(Node *) * (size_t)(len + more + 2));
    if (len)
        memcpy(r, list, sizeof(Node *) * (size_t)len);
    return r;
}

/* A constructor's early `return;` returns the object it has made: `return self;` (MLX's fp8_e8m0(float)). */
static void return_self(Node *n, Var *self, Arena *a)
{
    if (!n)
        return;
    if (n->kind == N_RETURN && !n->a) {
        Node *v = arena_alloc(a, sizeof *v);
        *v = (Node){.kind = N_VAR, .loc = n->loc, .ty = self->ty, .var = self};
        n->a = v;
    }
    return_self(n->a, self, a);
    return_self(n->b, self, a);
    return_self(n->c, self, a);
    return_self(n->d, self, a);
    for (int i = 0; i < n->n_list; i++)
        return_self(n->list[i], self, a);
}

static enum CXVisitorResult collect_field_cursor(CXCursor c, CXClientData data)
{
    collect_kid(c, clang_getNullCursor(), data);
    return CXVisit_Continue;
}

/* `self.FIELD = E;` of a constructor. */
static Node *ctor_member_init(Parser *P, CXCursor at, const char *field, Type *fty, CXCursor e)
{
    Node *m = new_node(P, N_MEMBER, at), *as = new_node(P, N_ASSIGN, at), *st = new_node(P, N_EXPRSTMT, at);
    m->a = self_ref(P, at);
    m->name = field;
    m->ty = fty;
    as->op = "=";
    as->a = m;
    as->b = conv_expr(P, e);
    as->ty = m->ty;
    st->a = as;
    return as->b->kind == N_INITLIST && as->b->implicit ? NULL : st;
}

/* The default constructor written in struct declaration DECL (or in its template's pattern), or a null cursor. */
static CXCursor written_default_ctor(CXCursor decl)
{
    CXCursor where[2] = {decl, clang_getSpecializedCursorTemplate(decl)}, found = clang_getNullCursor();
    for (int w = 0; w < 2 && clang_Cursor_isNull(found); w++) {
        if (clang_Cursor_isNull(where[w]))
            continue;
        Kids k = kids_of(where[w]);
        for (int i = 0; i < k.len; i++)
            if (clang_getCursorKind(k.items[i]) == CXCursor_Constructor && clang_Cursor_getNumArguments(k.items[i]) == 0 &&
                !clang_CXXMethod_isDefaulted(k.items[i]))
                found = k.items[i];
        free(k.items);
    }
    return found;
}

/* Statements giving the fields of struct value BASE (of Metal type TYPE) their default member initializers, appended
   to B; nested struct fields without one get their own. False where a field needs what is not modelled. */
static bool default_fields(Parser *P, CXCursor c, Node *base, CXType type, Node *b, int depth)
{
    Kids fields = {0};
    clang_Type_visitFields(type, collect_field_cursor, &fields);
    bool ok = depth < 8;
    for (int j = 0; j < fields.len && ok; j++) {
        Type *gty = conv_type(P, clang_getCursorType(fields.items[j]));
        Node *m = new_node(P, N_MEMBER, c);
        m->a = base;
        m->name = cx_take(P, clang_getCursorSpelling(fields.items[j]));
        m->ty = gty;
        Kids e = kids_of(fields.items[j]);
        Node *init = NULL;
        for (int x = 0; x < e.len && !init; x++)
            if (is_member_initializer(P, fields.items[j], e.items[x]))
                init = conv_expr(P, e.items[x]);
        free(e.items);
        if (init && !(init->kind == N_INITLIST && init->implicit)) {
            Node *as = new_node(P, N_ASSIGN, c), *st = new_node(P, N_EXPRSTMT, c);
            as->op = "=";
            as->a = m;
            as->b = init;
            as->ty = gty;
            st->a = as;
            b->list = realloc_list(P, b->list, b->n_list, 1);
            b->list[b->n_list++] = st;
        } else if (!init && gty->kind == TY_STRUCT && !gty->sdef->empty && gty->sdef->member_init) {
            ok = default_fields(P, c, m, clang_getCursorType(fields.items[j]), b, depth + 1);
        }
    }
    free(fields.items);
    return ok;
}

/* A member FIELD of struct type that constructor C neither initializes nor gives a default member initializer: made
   as its type's default constructor makes it where that constructor's body is empty and it has no initializer list
   (MLX's BlockMMA's `MMATile Ctile;`, whose `MMATile() thread {}` leaves val_frags their default member initializer
   `{frag_type(0)}`): `{ self.Ctile.val_frags = ...; }`. Any other constructor with default member initializers inside
   is refused (check_member_init), never left out. */
static Node *default_member(Parser *P, CXCursor c, CXCursor field)
{
    Type *fty = conv_type(P, clang_getCursorType(field));
    if (fty->kind != TY_STRUCT || fty->sdef->empty || !fty->sdef->member_init) {
        check_member_init(P, loc_of(P, c), fty); /* arrays of such structs */
        return NULL;
    }
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(field)));
    CXCursor ctor = written_default_ctor(decl);
    if (!clang_Cursor_isNull(ctor)) {
        Kids k = kids_of(ctor);
        bool trivial = true; /* only an empty body */
        for (int i = 0; i < k.len; i++)
            if (clang_getCursorKind(k.items[i]) != CXCursor_CompoundStmt) {
                if (clang_getCursorKind(k.items[i]) != CXCursor_ParmDecl)
                    trivial = false;
            } else {
                Kids body = kids_of(k.items[i]);
                trivial &= body.len == 0;
                free(body.items);
            }
        free(k.items);
        if (!trivial) {
            check_member_init(P, loc_of(P, c), fty);
            return NULL;
        }
    }
    Node *b = new_node(P, N_BLOCK, c), *m = new_node(P, N_MEMBER, c);
    m->a = self_ref(P, c);
    m->name = cx_take(P, clang_getCursorSpelling(field));
    m->ty = fty;
    if (!default_fields(P, c, m, clang_getCursorType(field), b, 0)) {
        check_member_init(P, loc_of(P, c), fty);
        return NULL;
    }
    return b;
}

/* A user constructor as a function returning the struct:
   `T self; self.m = init; ...body...; return self;`. The members are made in declaration order: by the
   constructor's initializer where it names them, else by their default member initializer (`int index{0};`: clang
   keeps it in the instance's field declaration, and libclang does not show the constructor's implicit use of it). */
static Func *get_ctor(Parser *P, CXCursor c, Type *ty)
{
    bool fresh;
    Func *f = func_for_key(P, usr_key(P, clang_getCanonicalCursor(c)), c, &fresh);
    if (!fresh)
        return f;
    f->ret = ty;
    f->glsl_name = func_glsl_name(P, c, "make");
    f->parsed = true;
    if ((f->clang_error = error_inside(P, c)))
        return f;
    conv_params(P, f, c);
    Var *self = arena_alloc(P->arena, sizeof *self);
    *self = (Var){.name = "self", .glsl_name = "self", .ty = ty, .kind = VAR_LOCAL, .loc = f->loc, .index = -1, .builtin = -1};
    Var *saved_self = P->self;
    P->self = self;
    int before = P->diag->n_errors;
    Kids all = {0};
    clang_visitChildren(c, collect_kid, &all);
    Node *b = new_node(P, N_BLOCK, c);
    b->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(all.len + 3));
    Node *decl = new_node(P, N_DECL, c), *def = new_node(P, N_VARDEF, c);
    def->var = self;
    decl->list = arena_alloc(P->arena, sizeof(Node *));
    decl->list[decl->n_list++] = def;
    b->list[b->n_list++] = decl;
    Kids fields = {0};
    clang_Type_visitFields(clang_getCursorType(clang_getCursorSemanticParent(c)), collect_field_cursor, &fields);
    Node **inits = arena_alloc(P->arena, sizeof(Node *) * (size_t)(fields.len + 1));
    b->list = realloc_list(P, b->list, b->n_list, fields.len + all.len + 3);
    bool made = false;
    const char *field = NULL;
    for (int i = 0; i <= all.len; i++) {
        CXCursor k = i < all.len ? all.items[i] : c;
        enum CXCursorKind kk = i < all.len ? clang_getCursorKind(k) : CXCursor_CompoundStmt;
        if (kk == CXCursor_MemberRef) {
            field = cx_take(P, clang_getCursorSpelling(k));
        } else if (field && clang_isExpression(kk)) {
            int at = 0;
            while (at < fields.len && strcmp(field, cx_take(P, clang_getCursorSpelling(fields.items[at]))))
                at++;
            inits[at] = ctor_member_init(P, k, field, conv_type(P, clang_getCursorType(clang_getCursorReferenced(all.items[i - 1]))), k);
            if (at == fields.len && inits[at]) /* not found among the fields (cannot happen): kept, in written order */
                b->list[b->n_list++] = inits[at];
            field = NULL;
        } else if (kk == CXCursor_CompoundStmt && !made) { /* the members are made before the body runs */
            made = true;
            for (int j = 0; j < fields.len; j++) {
                if (!inits[j]) {
                    Kids e = kids_of(fields.items[j]);
                    for (int x = 0; x < e.len; x++)
                        if (is_member_initializer(P, fields.items[j], e.items[x])) {
                            const char *name = cx_take(P, clang_getCursorSpelling(fields.items[j]));
                            inits[j] = ctor_member_init(P, c, name, conv_type(P, clang_getCursorType(fields.items[j])), e.items[x]);
                            break;
                        }
                    free(e.items);
                    if (!inits[j])
                        inits[j] = default_member(P, c, fields.items[j]);
                }
                if (inits[j])
                    b->list[b->n_list++] = inits[j];
            }
        }
        if (kk == CXCursor_CompoundStmt && i < all.len) {
            Node *body = conv_stmt(P, k);
            return_self(body, self, P->arena);
            b->list = realloc_list(P, b->list, b->n_list, body->n_list + 1);
            for (int j = 0; j < body->n_list; j++)
                b->list[b->n_list++] = body->list[j];
        }
    }
    free(all.items);
    free(fields.items);
    Node *ret = new_node(P, N_RETURN, c);
    ret->a = self_ref(P, c);
    b->list[b->n_list++] = ret;
    f->body = b;
    f->had_errors = P->diag->n_errors > before;
    if (f->had_errors && !f->first_error)
        f->first_error = before + 1;
    P->self = saved_self;
    return f;
}

static Type *unsupported_type(Parser *P, const char *name)
{
    Type *u = new_type(P, TY_UNSUPPORTED);
    u->name = name;
    return u;
}

/* `constant T name [[function_constant(n)]];` (given `= {}` for clang): a specialization constant, numbered per
   kernel (lower.c: number_function_constants). */
static void function_constant(Parser *P, Var *v, CXCursor c)
{
    AttrGroup *g[4];
    int n;
    attrs_between(P, c, offset_of(clang_getCursorLocation(c)), offset_of(clang_getRangeEnd(clang_getCursorExtent(c))) + 1, g, &n, 4);
    for (int i = 0; i < n; i++) {
        int arg;
        attr_lookup(g[i]->text, &arg);
        if (strncmp(g[i]->text, "function_constant", 17) != 0)
            continue;
        v->fc_index = arg;
        v->fc_id = FC_UNNUMBERED; /* numbered per kernel (lower.c) */
        v->init = NULL;
        /* an error here goes with the variable, so that every kernel that reads it reports it (lower.c) */
        if (arg < 0) {
            diag_error(P->diag, g[i]->loc, "function constant index in [[%s]] must be an integer constant expression of literals", g[i]->text);
            v->ty = unsupported_type(P, arena_printf(P->arena, "function constant '%s' (its index)", v->name));
        } else if (!ty_is_scalar(v->ty) || v->ty->kind == TY_BFLOAT || v->ty->kind == TY_DOUBLE || v->ty->kind == TY_LONG || v->ty->kind == TY_ULONG) {
            diag_error(P->diag, v->loc, "function constant '%s' of type %s is not supported yet (bool, char, uchar, short, ushort, int, uint, half and float are)", v->name, ty_metal_name(P->arena, v->ty));
            v->ty = unsupported_type(P, arena_printf(P->arena, "function constant '%s' of type %s", v->name, ty_metal_name(P->arena, v->ty)));
        }
    }
}

static Var *get_global(Parser *P, CXCursor decl)
{
    char *key = usr_key(P, decl);
    Var *v = map_get(P, key);
    if (v)
        return v;
    CXCursor def = clang_getCursorDefinition(decl);
    v = conv_vardecl(P, clang_Cursor_isNull(def) ? decl : def, VAR_GLOBAL);
    v->glsl_name = names_legal_global(P->arena, v->glsl_name);
    map_put(P, key, v);
    v->is_constexpr = true;
    CXCursor owner = clang_getCursorSemanticParent(decl);
    if (clang_getCursorKind(owner) == CXCursor_StructDecl || clang_getCursorKind(owner) == CXCursor_ClassDecl)
        /* a static member (MLX's Limits<bfloat>::max): named after its struct, so that it takes neither a built-in's
           name (max) nor that of its namesake in another instance (Limits<half>::max) */
        v->glsl_name = names_legal(P->arena, arena_printf(P->arena, "%s_%s", mangle(P, cx_take(P, clang_getTypeSpelling(clang_getCursorType(owner)))), v->name));
    function_constant(P, v, clang_Cursor_isNull(def) ? decl : def);
    if (!v->init && !v->fc_id)
        diag_error(P->diag, v->loc, "program-scope variable '%s' needs a constant initializer", v->name);
    return v;
}

static bool is_kernel_decl(Parser *P, CXCursor c)
{
    Kids all = {0};
    clang_visitChildren(c, collect_kid, &all);
    bool kernel = false;
    for (int i = 0; i < all.len; i++)
        if (clang_getCursorKind(all.items[i]) == CXCursor_UnexposedAttr) {
            CXToken *tok = clang_getToken(P->tu, clang_getCursorLocation(all.items[i]));
            if (tok) {
                CXString s = clang_getTokenSpelling(P->tu, *tok);
                kernel |= !strcmp(clang_getCString(s), "kernel") || !strcmp(clang_getCString(s), "__kernel");
                clang_disposeString(s);
                clang_disposeTokens(P->tu, tok, 1);
            }
        }
    free(all.items);
    return kernel;
}

static char *string_literal_value(Parser *P, const char *spelling);

/* NAME can be one more entry point (names.c: it names files and C functions; M2G_MAX_ENTRIES); else an error at
   LOC. */
static bool entry_name_ok(Parser *P, const char *name, SrcLoc loc)
{
    const char *problem = names_entry_problem(name);
    if (problem)
        diag_error(P->diag, loc, "entry point name '%.64s%s' %s", name, strlen(name) > 64 ? "..." : "", problem);
    return !problem;
}

/* Room for one more entry point (M2G_MAX_ENTRIES); else an error at LOC. */
static bool entry_room(Parser *P, SrcLoc loc)
{
    if (P->prog->kernels.len < M2G_MAX_ENTRIES)
        return true;
    diag_error(P->diag, loc, "more than %d entry points in one source, the limit (docs/limits.md)", M2G_MAX_ENTRIES);
    return false;
}

/* Function-level attributes written before the function's name: [[max_total_threads_per_threadgroup(N)]],
   [[host_name("name")]] (the entry point's name). */
static void kernel_attributes(Parser *P, Func *f, CXCursor c, unsigned from, unsigned to)
{
    AttrGroup *g[8];
    int n;
    attrs_between(P, c, from, to, g, &n, 8);
    for (int i = 0; i < n; i++) {
        int arg;
        attr_lookup(g[i]->text, &arg);
        if (!strncmp(g[i]->text, "max_total_threads_per_threadgroup", 33))
            f->max_threads = arg > 0 ? arg : f->max_threads; /* an expression (a template's BLOCK * 32): no hint */
        else if (!strncmp(g[i]->text, "host_name", 9) && strchr(g[i]->text, '"')) {
            f->name = string_literal_value(P, strchr(g[i]->text, '('));
            if (!entry_name_ok(P, f->name, g[i]->loc))
                f->had_errors = f->parsed = true; /* listed, never translated nor written */
        }
        else if (strcmp(g[i]->text, "kernel") != 0) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(g[i]->text, "( "), g[i]->text);
            diag_error(P->diag, g[i]->loc, "attribute [[%s]] is not supported yet", name);
            f->had_errors = f->parsed = true; /* reported, so never translated nor written */
        }
    }
}

typedef struct TopVisit {
    Parser *P;
    unsigned prev_end;
} TopVisit;

/* The clang errors of the user's code inside [start, end) stop the entry point NAME; returns how many. */
static int own_errors(Parser *P, unsigned start, unsigned end, const char *name)
{
    int n = 0;
    for (int i = 0; i < P->n_errors; i++)
        if (P->errors[i].in_user && P->errors[i].off >= start && P->errors[i].off < end)
            pv_push(&P->errors[i].cost, (char *)name), n++;
    return n;
}


typedef struct InstanceParts {
    CXCursor name, spec;
    int n_names, n_specs;
} InstanceParts;

static enum CXChildVisitResult instance_part(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    InstanceParts *ip = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_StringLiteral && !ip->n_names++)
        ip->name = c;
    if (k == CXCursor_DeclRefExpr && !ip->n_specs++)
        ip->spec = clang_getCursorReferenced(c);
    return CXChildVisit_Recurse;
}

/* The text of a string literal's spelling: "neg" "_" "float" -> neg_float (escapes are not names: kept). */
static char *string_literal_value(Parser *P, const char *spelling)
{
    char *r = arena_alloc(P->arena, strlen(spelling) + 1), *o = r;
    for (const char *c = spelling; *c; c++) {
        if (*c != '"')
            continue;
        for (c++; *c && *c != '"'; c++)
            *o++ = *c;
        if (!*c)
            break;
    }
    *o = 0;
    return r;
}

/* Whether word W occurs in T[S, E) (as a whole identifier); with SUBSCRIPT, whether it occurs other than as `W[`. */
static bool word_in(const char *t, unsigned s, unsigned e, const char *w, bool subscript)
{
    size_t n = strlen(w);
    for (unsigned o = s; o + n <= e; o++) {
        if (strncmp(t + o, w, n) || (o > s && (isalnum((unsigned char)t[o - 1]) || t[o - 1] == '_')) ||
            (o + n < e && (isalnum((unsigned char)t[o + n]) || t[o + n] == '_')))
            continue;
        unsigned a = o + (unsigned)n;
        while (a < e && isspace((unsigned char)t[a]))
            a++;
        if (!subscript || a >= e || t[a] != '[')
            return true;
    }
    return false;
}

/* `kernel_index_offsets<packed_uint3, uint3>` (PyTorch's Indexing): clang 14 keeps no typedef name inside an
   instance, so a template argument written as a packed vector is the plain vector there. The kernel's parameters
   whose type in the template names that template parameter (`constant StridesT* strides`) are the ones to lay out
   packed; their names go to PACKED. That is exact where the template parameter is named nowhere else in the kernel
   and each such parameter is only subscripted (`strides[dim]`, an element read or written as a value); any other
   use is an error naming it (false). The instance's text is T[W0, W1) (templates.c's wrapper). */
static bool packed_template_args(Parser *P, CXCursor tmpl, unsigned w0, unsigned w1, const char *name, SrcLoc loc,
                                 PtrVec *packed)
{
    const char *t = P->text;
    if (w1 > P->len)
        return true;
    const char *call = NULL;
    for (unsigned o = w0; o + 4 <= w1 && !call; o++)
        if (!strncmp(t + o, "\"); ", 4))
            call = t + o + 4;
    const char *lt = call ? memchr(call, '<', (size_t)(t + w1 - call)) : NULL;
    if (!lt)
        return true;
    CXCursor body = body_of(tmpl);
    CXSourceRange br = clang_getCursorExtent(body);
    unsigned b0 = offset_of(clang_getRangeStart(br)), b1 = offset_of(clang_getRangeEnd(br));
    /* the template's parameters, in order */
    char *tparams[32];
    int n_tparams = 0;
    Kids kids = kids_of(tmpl), prms = {0}; /* and its function parameters (a template has no getNumArguments) */
    for (int i = 0; i < kids.len; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids.items[i]);
        if ((k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
             k == CXCursor_TemplateTemplateParameter) && n_tparams < 32)
            tparams[n_tparams++] = cx_take(P, clang_getCursorSpelling(kids.items[i]));
        if (k == CXCursor_ParmDecl)
            collect_kid(kids.items[i], tmpl, &prms);
    }
    free(kids.items);
    bool ok = true;
    const char *a = lt + 1;
    for (int i = 0, depth = 0; ok && a < t + w1; i++) { /* each top-level argument */
        const char *e = a;
        for (; e < t + w1; e++) {
            depth += *e == '<' || *e == '(' ? 1 : *e == '>' || *e == ')' ? -1 : 0;
            if (depth < 0 || (depth == 0 && *e == ','))
                break;
        }
        while (a < e && isspace((unsigned char)*a))
            a++;
        if (!strncmp(a, "::", 2))
            a += 2;
        if (!strncmp(a, "metal::", 7))
            a += 7;
        char scalar[16];
        int width = 0, used = 0;
        if (!strncmp(a, "packed_", 7) && sscanf(a + 7, "%15[a-z]%d%n", scalar, &width, &used) == 2 &&
            (int)(e - a) >= 7 + used) {
            const char *tp = i < n_tparams ? tparams[i] : NULL;
            if (!tp || !*tp || clang_Cursor_isNull(body) || word_in(t, b0, b1, tp, false)) {
                diag_error(P->diag, loc, "packed vectors as template arguments are not supported yet (entry point '%s': "
                           "template parameter '%s' is used in the kernel's body)", name, tp ? tp : "?");
                ok = false;
            }
            for (int j = 0; ok && j < prms.len; j++) {
                CXCursor prm = prms.items[j];
                char *ts = cx_take(P, clang_getTypeSpelling(clang_getCursorType(prm)));
                char *pn = cx_take(P, clang_getCursorSpelling(prm));
                if (!word_in(ts, 0, (unsigned)strlen(ts), tp, false))
                    continue;
                if (!*pn || word_in(t, b0, b1, pn, true)) {
                    diag_error(P->diag, loc, "packed vectors as template arguments are not supported yet (entry point "
                               "'%s': parameter '%s' is used other than by a subscript)", name, pn);
                    ok = false;
                }
                pv_push(packed, pn);
            }
        }
        if (*e != ',')
            break;
        a = e + 1;
    }
    free(prms.items);
    return ok;
}

/* `void __mtl_instance_N() { (void)("k_float"); k<float>; }` (templates.c): the instance k<float> of a kernel template
   becomes the entry point k_float, listed even when clang cannot build it. clang has typed its body with the
   arguments made concrete; that body is converted. */
static void add_instance(Parser *P, CXCursor wrapper)
{
    InstanceParts ip = {.n_names = 0};
    clang_visitChildren(wrapper, instance_part, &ip);
    CXSourceRange wext = clang_getCursorExtent(wrapper);
    unsigned w0 = offset_of(clang_getRangeStart(wext)), w1 = offset_of(clang_getRangeEnd(wext));
    SrcLoc loc = pp_loc_line(&P->pp, w0);
    char *name = ip.n_names ? string_literal_value(P, cx_take(P, clang_getCursorSpelling(ip.name))) : NULL;
    if (P->skip_bodies) { /* bodies are not parsed: the host name as templates.c wrote it, `{ (void)("k_float"); ...` */
        const char *lit = w1 <= P->len ? strstr(P->text + w0, "(void)(") : NULL;
        const char *end = lit ? strstr(lit, "); ") : NULL;
        name = end ? string_literal_value(P, arena_printf(P->arena, "%.*s", (int)(end - lit - 7), lit + 7)) : NULL;
    }
    if (!name || !*name) {
        diag_error(P->diag, loc, "explicit instantiation of a kernel template needs [[host_name(\"name\")]]");
        return;
    }
    const char *lit = w0 < P->len ? strstr(P->text + w0, "(void)(") : NULL; /* only string literals make a name */
    for (const char *c = lit ? lit + 7 : NULL; c && *c && strncmp(c, "); ", 3); c++) {
        if (*c == '"') {
            for (c++; *c && *c != '"'; c++)
                c += *c == '\\' && c[1];
        } else if (!isspace((unsigned char)*c)) {
            diag_error(P->diag, loc, "[[host_name]] of entry point '%s' is not a string literal: '%.*s' is no macro the "
                       "preprocessor knows", name, (int)strcspn(c, " \")\""), c);
            return;
        }
    }
    if (!entry_name_ok(P, name, loc) || !entry_room(P, loc))
        return;
    for (int i = 0; i < P->prog->kernels.len; i++)
        if (!strcmp(((Func *)P->prog->kernels.items[i])->name, name)) {
            diag_error(P->diag, loc, "entry point '%s' is defined twice", name);
            return;
        }
    Func *f = arena_alloc(P->arena, sizeof *f);
    f->name = name;
    f->glsl_name = "main";
    f->loc = loc;
    f->is_kernel = true;
    pv_push(&P->prog->kernels, f);
    if (P->skip_bodies)
        return;
    int owned = own_errors(P, w0, w1 + 1, name);
    CXCursor tmpl = ip.n_specs && !clang_Cursor_isNull(ip.spec) && clang_getCursorKind(ip.spec) == CXCursor_FunctionDecl
                        ? clang_getSpecializedCursorTemplate(ip.spec)
                        : clang_getNullCursor();
    if (clang_Cursor_isNull(tmpl)) {
        if (!owned) /* clang said why otherwise */
            diag_error(P->diag, loc, "explicit instantiation of kernel '%s': no function template instance found", name);
        f->ret = ty_scalar(TY_VOID);
        f->had_errors = f->parsed = true;
        return;
    }
    f->ret = conv_type(P, clang_getCursorResultType(ip.spec));
    CXSourceRange ext = clang_getCursorExtent(tmpl);
    owned += own_errors(P, offset_of(clang_getRangeStart(ext)), offset_of(clang_getRangeEnd(ext)) + 1, name);
    kernel_attributes(P, f, tmpl, offset_of(clang_getRangeStart(ext)), offset_of(clang_getCursorLocation(tmpl)));
    f->name = name; /* the instantiation's [[host_name]], not one on the template */
    PtrVec packed = {0}; /* the parameters of packed vector type, which the instance has as plain vectors */
    if (!packed_template_args(P, tmpl, w0, w1, name, loc, &packed))
        owned = 1;
    if (owned || (P->n_errors && clang_Cursor_isNull(body_of(ip.spec)))) { /* no body: clang said why */
        pv_free(&packed);
        f->had_errors = f->parsed = true;
        return;
    }
    if (!P->convert) {
        pv_free(&packed);
        return;
    }
    conv_params(P, f, ip.spec);
    for (int i = 0; i < packed.len; i++)
        for (int j = 0; j < f->n_params; j++) {
            Type *pt = f->params[j]->ty;
            if (strcmp(f->params[j]->name, packed.items[i]))
                continue;
            if ((pt->kind != TY_PTR && pt->kind != TY_REF) || pt->elem->kind != TY_VEC) {
                diag_error(P->diag, loc, "packed vectors as template arguments are not supported yet (entry point '%s': "
                           "parameter '%s' is no pointer to one)", name, f->params[j]->name);
                f->had_errors = true;
                continue;
            }
            Type *r = arena_alloc(P->arena, sizeof *r), *v = arena_alloc(P->arena, sizeof *v);
            *r = *pt;
            *v = *pt->elem;
            v->packed = true;
            r->elem = v;
            f->params[j]->ty = r;
        }
    pv_free(&packed);
    parse_body(P, f, ip.spec);
    kernel_cost(P, f);
}

static bool is_instance_wrapper(Parser *P, CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || in_prelude(c))
        return false;
    char *name = cx_take(P, clang_getCursorSpelling(c));
    return !strncmp(name, "__mtl_instance_", 15);
}

/* A definition, also when the parse skipped its body (--list-entries): its declarator is followed by '{'. */
static bool has_body(Parser *P, CXCursor c)
{
    if (clang_isCursorDefinition(c))
        return true;
    unsigned end = offset_of(clang_getRangeEnd(clang_getCursorExtent(c)));
    while (P->skip_bodies && end < P->len && isspace((unsigned char)P->text[end]))
        end++;
    return P->skip_bodies && end < P->len && P->text[end] == '{';
}

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    TopVisit *tv = data;
    Parser *P = tv->P;
    if (is_instance_wrapper(P, c)) {
        add_instance(P, c);
        unsigned wend = offset_of(clang_getRangeEnd(clang_getCursorExtent(c)));
        tv->prev_end = wend > tv->prev_end ? wend : tv->prev_end; /* its text is no later kernel's attributes */
        return CXChildVisit_Continue;
    }
    if (!in_main_file(P, c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXSourceRange ext = clang_getCursorExtent(c);
    unsigned start = offset_of(clang_getRangeStart(ext)), end = offset_of(clang_getRangeEnd(ext));
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
        clang_visitChildren(c, visit_top, tv);
    } else if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && has_body(P, c) && is_kernel_decl(P, c) &&
               entry_room(P, loc_of(P, c))) {
        {
            Func *f = arena_alloc(P->arena, sizeof *f);
            f->name = cx_take(P, clang_getCursorSpelling(c));
            f->glsl_name = "main";
            f->loc = loc_of(P, c);
            f->is_kernel = true;
            f->ret = conv_type(P, clang_getCursorResultType(c));
            map_put(P, usr_key(P, c), f);
            kernel_attributes(P, f, c, tv->prev_end, offset_of(clang_getCursorLocation(c)));
            if (!f->had_errors && !entry_name_ok(P, f->name, f->loc)) /* clang takes UTF-8 and '$' in names */
                f->had_errors = f->parsed = true;
            pv_push(&P->prog->kernels, f);
            if (own_errors(P, start, end, f->name)) {
                f->had_errors = f->parsed = true; /* its body is not what the source says: no model */
            } else if (P->convert && !f->had_errors) {
                int before = P->diag->n_errors;
                conv_params(P, f, c);
                bool bad_params = P->diag->n_errors > before; /* e.g. an unsupported parameter attribute */
                parse_body(P, f, c);
                f->had_errors |= bad_params; /* reported, so never written */
                if (bad_params)
                    f->first_error = before + 1;
                kernel_cost(P, f);
            }
        }
    }
    if (end > tv->prev_end)
        tv->prev_end = end;
    return CXChildVisit_Continue;
}

/* ---- the translation unit ---- */

/* The Metal name of a type clang spelled in quotes: '__global metal::__metal_atomic_uint *__private' -> atomic_uint. */
static const char *metal_type_name(Parser *P, const char *quoted)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(quoted, "'"), quoted);
    const char *skip[] = {"__private ", "__global ", "__constant ", "__local ", "const ", "metal::", "__metal_"};
    char *p = buf;
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
            if (!strncmp(p, skip[i], strlen(skip[i])))
                p += strlen(skip[i]), again = true;
    }
    p[strcspn(p, "< *&")] = 0;
    return arena_strdup(P->arena, p);
}

static bool already_reported(Parser *P, CXFile f, unsigned off, const char *msg)
{
    for (int i = 0; i < P->n_seen; i++)
        if (P->seen_off[i] == off && clang_File_isEqual(P->seen_file[i], f) && !strcmp(P->seen_msg[i], msg))
            return true;
    if (P->n_seen < 128)
        P->seen_msg[P->n_seen] = msg, P->seen_off[P->n_seen] = off, P->seen_file[P->n_seen++] = f;
    return false;
}

typedef struct TemplateSpans {
    Parser *P;
    unsigned *span; /* start, end pairs of the templates' extents in the main file */
    int n, cap;
} TemplateSpans;

static enum CXChildVisitResult collect_template(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    TemplateSpans *ts = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FunctionTemplate || k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization) {
        CXSourceRange r = clang_getCursorExtent(c);
        CXFile f;
        unsigned a, b;
        clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &a);
        clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &b);
        if (f && clang_File_isEqual(f, ts->P->main_file)) {
            if (ts->n + 2 > ts->cap)
                ts->span = realloc(ts->span, sizeof *ts->span * (size_t)(ts->cap = ts->cap * 2 + 64));
            ts->span[ts->n++] = a;
            ts->span[ts->n++] = b;
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_Namespace || k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnexposedDecl ||
        k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    return CXChildVisit_Continue;
}

/* Whether offset OFF of the main file is inside a template's pattern (a function or class template, or a member
   template of a class). SPANS is filled on first use. */
static bool in_template_pattern(Parser *P, TemplateSpans *spans, unsigned off)
{
    if (!spans->P) {
        spans->P = P;
        clang_visitChildren(clang_getTranslationUnitCursor(P->tu), collect_template, spans);
    }
    for (int i = 0; i < spans->n; i += 2)
        if (off >= spans->span[i] && off <= spans->span[i + 1])
            return true;
    return false;
}

/* Where an error belongs: inside a template instance, the point in the main file that asked for the instance
   (clang's last "in instantiation of ... requested here" note there), else where it is. Clang prints the
   instantiation notes only when they differ from the last error's: an error in a template's pattern without
   notes is in the instance of the error before it (LAST_OWNER, when that one had notes). */
static unsigned error_owner(Parser *P, CXDiagnostic d, CXFile f, unsigned off, bool *in_main, unsigned *last_owner,
                            TemplateSpans *spans)
{
    *in_main = f && clang_File_isEqual(f, P->main_file);
    CXDiagnosticSet notes = clang_getChildDiagnostics(d);
    unsigned n = notes ? clang_getNumDiagnosticsInSet(notes) : 0;
    bool instance = false;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
        char *text = cx_take(P, clang_getDiagnosticSpelling(note));
        CXFile nf;
        unsigned noff;
        clang_getExpansionLocation(clang_getDiagnosticLocation(note), &nf, NULL, NULL, &noff);
        if (strstr(text, "requested here") && nf && clang_File_isEqual(nf, P->main_file))
            *in_main = true, off = noff, instance = true;
        clang_disposeDiagnostic(note);
    }
    if (instance)
        *last_owner = off + 1;
    else if (*last_owner && *in_main && in_template_pattern(P, spans, off))
        *in_main = true, off = *last_owner - 1;
    else
        *last_owner = 0;
    return off;
}

/* clang's "invalid vector element type 'bfloat'" (or 'bool') for the prelude's __mtl_deduced_vec, the vector type an
   alias template of vec is written as so that function templates deduce through it (preprocess.c,
   pp_deducible_vectors): bfloat and bool vectors are structs here, which nothing deduces through. Returns the error
   naming the construct, at the user's alias (*LOC), or NULL when D is not this error. */
static char *deduced_vec_error(Parser *P, CXDiagnostic d, const char *msg, SrcLoc *loc)
{
    const char *e = strstr(msg, "invalid vector element type '");
    if (!e)
        return NULL;
    e += strlen("invalid vector element type '");
    CXDiagnosticSet notes = clang_getChildDiagnostics(d);
    unsigned n = notes ? clang_getNumDiagnosticsInSet(notes) : 0;
    bool ours = false;
    char *alias = NULL;
    for (unsigned i = 0; i < n && !alias; i++) {
        CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
        char *text = cx_take(P, clang_getDiagnosticSpelling(note));
        const char *a = strstr(text, "in instantiation of template type alias '");
        if (a && ours) {
            a += strlen("in instantiation of template type alias '");
            alias = arena_printf(P->arena, "%.*s", (int)strcspn(a, "'"), a);
        } else if (a && !strcmp(a + strlen("in instantiation of template type alias '"), "__mtl_deduced_vec' requested here")) {
            ours = true;
            CXFile f;
            unsigned off;
            clang_getExpansionLocation(clang_getDiagnosticLocation(note), &f, NULL, NULL, &off);
            if (f && clang_File_isEqual(f, P->main_file))
                *loc = pp_loc(&P->pp, off);
        }
        clang_disposeDiagnostic(note);
    }
    if (!ours)
        return NULL;
    int elen = (int)strcspn(e, "'");
    bool is_bool = elen == 4 && !strncmp(e, "bool", 4);
    return arena_printf(P->arena,
                        "metal::vec<%.*s, N> through the alias template '%s' is not supported: function templates deduce "
                        "their element type through it, and %.*s vectors are structs to mtl2glsl's front end (%s), which "
                        "clang cannot deduce through",
                        elen, e, alias ? alias : "?", elen, e,
                        is_bool ? "clang's OpenCL mode has no bool vectors" : "clang 14 has no bfloat type");
}

/* Whether clang error D belongs to a kernel instance whose template arguments name ELEM (`gemm<bfloat, 64, ...>`):
   the outermost instantiation note, the kernel's, says (that of the error before where clang left it out, as
   error_owner does). */
static bool instance_of(Parser *P, CXDiagnostic d, const char *elem)
{
    CXDiagnosticSet notes = clang_getChildDiagnostics(d);
    unsigned n = notes ? clang_getNumDiagnosticsInSet(notes) : 0;
    char *kernel = NULL;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
        char *text = cx_take(P, clang_getDiagnosticSpelling(note));
        if (strstr(text, "in instantiation of function template specialization '") && strstr(text, "requested here"))
            kernel = text;
        clang_disposeDiagnostic(note);
    }
    if (!kernel) /* clang left the outer instances out of a long backtrace: the one of the error before */
        kernel = P->last_instance;
    P->last_instance = kernel;
    if (!kernel)
        return false;
    const char *args = strchr(kernel, '<');
    size_t el = strlen(elem);
    for (const char *p = args; p && (p = strstr(p, elem)); p += el)
        if ((p[-1] == '<' || (p[-1] == ' ' && p[-2] == ',')) && (p[el] == ',' || p[el] == '>'))
            return true;
    return false;
}

/* Prints clang's diagnostics in our format. */
static void report_clang_diagnostics(Parser *P)
{
    unsigned n = clang_getNumDiagnostics(P->tu), last_owner = 0;
    TemplateSpans spans = {0};
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(P->tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        CXSourceLocation sl = clang_getDiagnosticLocation(d);
        if (sev < CXDiagnostic_Warning || (sev == CXDiagnostic_Warning && clang_Location_isInSystemHeader(sl))) {
            clang_disposeDiagnostic(d);
            continue;
        }
        CXFile f;
        unsigned line, col, off;
        clang_getExpansionLocation(sl, &f, &line, &col, &off);
        SrcLoc loc = {NULL, 0, 0};
        if (f)
            loc = clang_File_isEqual(f, P->main_file) ? pp_loc(&P->pp, off)
                                                      : (SrcLoc){cx_take(P, clang_getFileName(f)), (int)line, (int)col};
        char *msg = cx_take(P, clang_getDiagnosticSpelling(d));
        char *vec_msg = sev >= CXDiagnostic_Error ? deduced_vec_error(P, d, msg, &loc) : NULL;
        if (sev >= CXDiagnostic_Error) {
            bool in_main;
            unsigned owner = error_owner(P, d, f, off, &in_main, &last_owner, &spans);
            /* after a bfloat (bool) vector deduced through, the errors of kernel instances of bfloat (bool) are its
               consequences (clang goes on with an int in its place: calls that deduce nothing, instances made
               invalid): they stop their kernels as that error, which names the construct, and are not printed */
            int cause = -1, known = -1;
            const char *e = vec_msg ? vec_msg + strlen("metal::vec<") : NULL;
            for (int k = 0; k < P->n_vec; k++)
                if (e ? !strncmp(P->vec_elem[k], e, strcspn(e, ",")) && !P->vec_elem[k][strcspn(e, ",")]
                      : cause < 0 && instance_of(P, d, P->vec_elem[k]))
                    known = cause = k;
            if (e) {
                cause = -1;
                if (known < 0 && P->n_vec < 2) {
                    P->vec_elem[P->n_vec] = arena_printf(P->arena, "%.*s", (int)strcspn(e, ","), e);
                    P->vec_loc[P->n_vec++] = loc;
                }
            } else if (cause >= 0) {
                loc = P->vec_loc[cause];
            }
            if (P->n_errors == P->cap_errors)
                P->errors = realloc(P->errors, sizeof *P->errors * (size_t)(P->cap_errors = P->cap_errors * 2 + 16));
            bool at_main = f && clang_File_isEqual(f, P->main_file);
            P->errors[P->n_errors++] = (ClangError){owner, at_main ? off : UINT_MAX, in_main && !pp_in_system_file(&P->pp, owner),
                                                    loc, {0}};
            if (cause >= 0) {
                clang_disposeDiagnostic(d);
                continue;
            }
        }
        if (already_reported(P, f, off, msg)) { /* the same error in each instance of a template */
            clang_disposeDiagnostic(d);
            continue;
        }
        if (vec_msg)
            msg = vec_msg;
        if (strstr(msg, "non-kernel function variable cannot be declared in local address space"))
            msg = "threadgroup variables outside a kernel's body are not supported yet";
        if (strstr(msg, "cannot be used as the type of a kernel parameter") && msg[0] == '\'')
            msg = arena_printf(P->arena, "%s is not supported yet (kernel parameter)", metal_type_name(P, msg + 1));
        if (sev >= CXDiagnostic_Error)
            diag_error(P->diag, loc, "%s", msg);
        else
            diag_warning(P->diag, loc, "%s", msg);
        clang_disposeDiagnostic(d);
    }
    free(spans.span);
}

/* ---- Metal's conversions that clang's OpenCL mode refuses ----
 * Metal converts vectors by casts, `(half4)v`, `TC(v)` with TC = half4 in a template; OpenCL calls a cast between
 * vectors of different element types an error. Metal fills the rest of `float4 a = {0}` with zeros; OpenCL wants
 * every element. Where clang reports these, the text is rewritten as Metal means it, `__mtl_convert<half4>(v)` (a
 * prelude function the front end reads as the conversion) and `{0, 0, 0, 0}`, and parsed again.
 */
#define MAX_FIX_PASSES 5

/* Sorts EDITS by offset, keeping the given order of those at the same offset (insertion sort: stable). */
static void sort_edits(TextEdit *edits, int n)
{
    for (int i = 1; i < n; i++) {
        TextEdit e = edits[i];
        int j = i;
        for (; j > 0 && edits[j - 1].off > e.off; j--)
            edits[j] = edits[j - 1];
        edits[j] = e;
    }
}

/* Index just past the bracket group opening at T[i] ('(' or '['), or 0. */
static unsigned group_end(const char *t, unsigned i, unsigned len)
{
    int depth = 0;
    for (; i < len; i++) {
        if (t[i] == '"' || t[i] == '\'') {
            char q = t[i];
            for (i++; i < len && t[i] != q; i++)
                i += t[i] == '\\';
            continue;
        }
        depth += t[i] == '(' || t[i] == '[' ? 1 : t[i] == ')' || t[i] == ']' ? -1 : 0;
        if (depth == 0)
            return i + 1;
    }
    return 0;
}

/* The end of the unary expression starting at T[i] (the operand of a C-style cast): prefix operators and casts, a
   name, number or parenthesized expression, then subscripts, calls, members and postfix ++/--. 0 when unsure. */
static unsigned operand_end(const char *t, unsigned i, unsigned len)
{
    while (i < len && isspace((unsigned char)t[i]))
        i++;
    while (i < len && strchr("-+!~*&", t[i])) /* prefix operators */
        i++;
    while (i < len && isspace((unsigned char)t[i]))
        i++;
    if (i >= len)
        return 0;
    if (t[i] == '(') {
        i = group_end(t, i, len);
        if (!i)
            return 0;
        unsigned j = i; /* (T) (x): a cast of a cast */
        while (j < len && isspace((unsigned char)t[j]))
            j++;
        if (j < len && (isalnum((unsigned char)t[j]) || t[j] == '_' || t[j] == '(') && t[i - 2] != ')' && 0)
            return operand_end(t, j, len);
    } else if (isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '.') {
        while (i < len && (isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '.' || (t[i] == ':' && t[i + 1] == ':')))
            i += t[i] == ':' ? 2 : 1;
    } else {
        return 0;
    }
    for (;;) { /* postfix */
        unsigned j = i;
        while (j < len && (t[j] == ' ' || t[j] == '\t'))
            j++;
        if (j < len && (t[j] == '[' || t[j] == '(')) {
            if (!(i = group_end(t, j, len)))
                return 0;
        } else if (j + 1 < len && (t[j] == '.' || (t[j] == '-' && t[j + 1] == '>'))) {
            j += t[j] == '.' ? 1 : 2;
            while (j < len && (t[j] == ' ' || t[j] == '\t'))
                j++;
            if (j >= len || !(isalpha((unsigned char)t[j]) || t[j] == '_'))
                return i;
            while (j < len && (isalnum((unsigned char)t[j]) || t[j] == '_'))
                j++;
            i = j;
        } else if (j + 1 < len && ((t[j] == '+' && t[j + 1] == '+') || (t[j] == '-' && t[j + 1] == '-'))) {
            i = j + 2;
        } else {
            return i;
        }
    }
}

/* Applies EDITS (in the order given where offsets are equal) to the text clang parses: the attribute groups' and
   loop hints' offsets move with it and the line map is made again. */
static void apply_edits(Parser *P, TextEdit *edits, int n_edits)
{
    sort_edits(edits, n_edits);
    StrBuf out = {0};
    sb_puts(&out, "");
    unsigned at = 0;
    int a = 0, h = 0;
    for (int k = 0; k < n_edits; k++) {
        if (edits[k].off < at || edits[k].off > P->len) /* overlapping, or past the end (fuzz_source found one) */
            continue;
        for (; a < P->attrs.len && ((AttrGroup *)P->attrs.items[a])->offset < edits[k].off; a++)
            ((AttrGroup *)P->attrs.items[a])->offset += (unsigned)out.len - at;
        for (; h < P->loop_hints.len && ((AttrGroup *)P->loop_hints.items[h])->offset < edits[k].off; h++)
            ((AttrGroup *)P->loop_hints.items[h])->offset += (unsigned)out.len - at;
        sb_append(&out, P->text + at, edits[k].off - at);
        sb_puts(&out, edits[k].insert);
        at = edits[k].off + edits[k].remove;
        at = at < P->len ? at : (unsigned)P->len; /* never past the text */
    }
    for (; a < P->attrs.len; a++)
        ((AttrGroup *)P->attrs.items[a])->offset += (unsigned)out.len - at;
    for (; h < P->loop_hints.len; h++)
        ((AttrGroup *)P->loop_hints.items[h])->offset += (unsigned)out.len - at;
    sb_append(&out, P->text + at, P->len - at);
    free(P->text);
    P->text = out.data;
    P->len = out.len;
    const char *const *sources = P->pp.sources;
    pp_map_free(&P->pp);
    pp_map_build(&P->pp, P->arena, P->text, P->len);
    P->pp.sources = sources;
}

/* The edits for a cast starting at T[s]: `(T) x` or `T(x)` -> `__mtl_convert<T>(x)`. */
static int cast_edits(Parser *P, unsigned s, TextEdit *out)
{
    const char *t = P->text;
    unsigned len = (unsigned)P->len;
    if (s >= len)
        return 0;
    if (t[s] == '(') { /* (T) x */
        unsigned c = group_end(t, s, len), e = c ? operand_end(t, c, len) : 0;
        if (!e)
            return 0;
        out[0] = (TextEdit){s, 1, "__mtl_convert<"};
        out[1] = (TextEdit){c - 1, 1, ">("};
        out[2] = (TextEdit){e, 0, ")"};
        return 3;
    }
    if (t[s] == ')') { /* T(x) reported at its ')': back to the '(' and the type's name */
        int depth = 0;
        unsigned o = s + 1;
        while (o-- > 0) {
            depth += t[o] == ')' ? 1 : t[o] == '(' ? -1 : 0;
            if (depth == 0)
                break;
        }
        unsigned n = o;
        while (n > 0 && isspace((unsigned char)t[n - 1]))
            n--;
        while (n > 0 && (isalnum((unsigned char)t[n - 1]) || t[n - 1] == '_' || t[n - 1] == ':'))
            n--;
        if (t[o] != '(' || n == o || !(isalpha((unsigned char)t[n]) || t[n] == '_'))
            return 0;
        s = n;
    }
    unsigned o = s; /* T(x), vec<T, 2>(x) */
    while (o < len && (isalnum((unsigned char)t[o]) || t[o] == '_' || t[o] == ':'))
        o++;
    while (o < len && isspace((unsigned char)t[o]))
        o++;
    if (o < len && t[o] == '<') {
        for (int depth = 0; o < len; o++)
            if (t[o] == '<')
                depth++;
            else if (t[o] == '>' && --depth == 0)
                break;
        o = o < len ? o + 1 : o;
        while (o < len && isspace((unsigned char)t[o]))
            o++;
    }
    if (o >= len || t[o] != '(' || o == s)
        return 0;
    out[0] = (TextEdit){s, 0, "__mtl_convert<"};
    out[1] = (TextEdit){o, 1, ">("};
    return 2;
}

/* `short2 offset(a, b)` and `vec<T, 2>(re, im)`: Metal's vector constructors that clang takes for a scalar's
   initialization, rewritten as `short2 offset = __mtl_vector<short2>(a, b)` and `__mtl_vector<vec<T, 2>>(re, im)`. */
static int vector_init_edits(Parser *P, unsigned off, TextEdit *out)
{
    const char *t = P->text;
    unsigned b = off; /* the token before: a type's name or '>' makes OFF a declared name */
    while (b > 0 && isspace((unsigned char)t[b - 1]))
        b--;
    unsigned w = b; /* `return vec<T, 2>(a, b)`: a keyword before is no type */
    while (w > 0 && (isalnum((unsigned char)t[w - 1]) || t[w - 1] == '_'))
        w--;
    static const char *const keywords[] = {"return", "else", "case", "do"};
    bool keyword = false;
    for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
        keyword |= b - w == strlen(keywords[k]) && !strncmp(t + w, keywords[k], b - w);
    if (!keyword && b > 0 && (isalnum((unsigned char)t[b - 1]) || t[b - 1] == '_' || t[b - 1] == '>')) {
        unsigned st = b; /* the statement's start: the declaration's type is between it and the name */
        while (st > 0 && !strchr(";{}()", t[st - 1]))
            st--;
        StrBuf ty = {0};
        sb_puts(&ty, "");
        for (const char *p = t + st; p < t + b;) { /* without storage words: `const thread short2` -> short2 */
            while (p < t + b && isspace((unsigned char)*p))
                p++;
            const char *w = p;
            while (p < t + b && !isspace((unsigned char)*p))
                p++;
            size_t n = (size_t)(p - w);
            static const char *const drop[] = {"const", "constexpr", "static", "__private", "thread"};
            bool skip = false;
            for (size_t k = 0; k < sizeof drop / sizeof *drop; k++)
                skip |= n == strlen(drop[k]) && !strncmp(w, drop[k], n);
            if (n && !skip)
                sb_printf(&ty, "%s%.*s", ty.len ? " " : "", (int)n, w);
        }
        unsigned o = off;
        while (o < P->len && (isalnum((unsigned char)t[o]) || t[o] == '_'))
            o++;
        while (o < P->len && isspace((unsigned char)t[o]))
            o++;
        bool ok = ty.len && o < P->len && t[o] == '(';
        if (ok)
            out[0] = (TextEdit){o, 0, arena_printf(P->arena, " = __mtl_vector<%s>", ty.data)};
        free(ty.data);
        return ok;
    }
    int n = cast_edits(P, off, out); /* a functional cast: the same edits, a constructor instead of a conversion */
    if (n == 2)
        out[0].insert = "__mtl_vector<";
    return n == 2 ? 2 : 0;
}

/* The start of the operand that ends just before T[e] (a name, member chain, call or subscript, or a parenthesized
   expression); E when unsure. */
static unsigned operand_start(const char *t, unsigned e)
{
    unsigned i = e;
    while (i > 0 && isspace((unsigned char)t[i - 1]))
        i--;
    for (;;) {
        if (i > 0 && (t[i - 1] == ')' || t[i - 1] == ']')) {
            int depth = 0;
            while (i > 0) {
                char c = t[--i];
                depth += c == ')' || c == ']' ? 1 : c == '(' || c == '[' ? -1 : 0;
                if (depth == 0)
                    break;
            }
        }
        unsigned w = i;
        while (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))
            i--;
        if (i > 0 && t[i - 1] == '.' && i != w)
            i--;
        else if (i > 1 && t[i - 1] == '>' && t[i - 2] == '-' && i != w)
            i -= 2;
        else
            return i == e ? e : i;
    }
}

/* `slope * h4` (a float times a half4): Metal converts the scalar to the vector's element type, which clang's
   OpenCL mode refuses ("scalar operand type has greater rank"): the scalar is written `__mtl_convert<half>(slope)`. */
static int scalar_rank_edits(Parser *P, const char *msg, unsigned off, TextEdit *out)
{
    const char *a = strstr(msg, "('"), *b = a ? strstr(a + 2, " and '") : NULL; /* ('half4' (vector of ..) and 'float') */
    if (!a || !b)
        return 0;
    bool lhs_scalar = !strstr(a, "vector") || strstr(a, "vector") > b; /* the first type is the scalar */
    /* the element: from `(vector of 4 'half' values)`, `metal::vec<half, 2>` or the typedef's name, `half4` */
    const char *vt = lhs_scalar ? b + 6 : a + 2, *of = strstr(a, "(vector of "), *q = of ? strchr(of, '\'') : NULL;
    const char *v = strstr(vt, "vec<");
    char elem[64];
    if (q)
        snprintf(elem, sizeof elem, "%.*s", (int)strcspn(q + 1, "'"), q + 1);
    else if (v)
        snprintf(elem, sizeof elem, "%.*s", (int)strcspn(v + 4, ",>"), v + 4);
    else
        snprintf(elem, sizeof elem, "%.*s", (int)strcspn(vt, " '0123456789"), vt);
    if (!*elem || strchr(elem, '<'))
        return 0;
    const char *t = P->text;
    unsigned op = off, s, e;
    if (op >= P->len || !strchr("+-*/?", t[op]))
        return 0;
    if (t[op] == '?') { /* c ? v : 0.0f: the scalar is the operand after ':' (or before it) */
        unsigned colon = op + 1;
        for (int paren = 0, nested = 0; colon < P->len; colon++) {
            char c = t[colon];
            paren += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
            if (paren < 0 || (paren == 0 && (c == ';' || c == ',')))
                return 0;
            if (paren == 0 && c == '?')
                nested++;
            else if (paren == 0 && c == ':' && t[colon + 1] != ':' && t[colon - 1] != ':' && nested-- == 0)
                break;
        }
        if (colon >= P->len)
            return 0;
        s = lhs_scalar ? op + 1 : colon + 1;
        while (s < P->len && isspace((unsigned char)t[s]))
            s++;
        e = lhs_scalar ? colon : operand_end(t, s, (unsigned)P->len);
        while (lhs_scalar && e > s && isspace((unsigned char)t[e - 1]))
            e--;
    } else if (lhs_scalar) {
        e = op;
        while (e > 0 && isspace((unsigned char)t[e - 1]))
            e--;
        s = operand_start(t, e);
    } else {
        s = op + 1;
        while (s < P->len && isspace((unsigned char)t[s]))
            s++;
        e = operand_end(t, s, (unsigned)P->len);
    }
    if (!e || s >= e)
        return 0;
    out[0] = (TextEdit){s, 0, arena_printf(P->arena, "__mtl_convert<%s>(", elem)};
    out[1] = (TextEdit){e, 0, ")"};
    return 2;
}

/* The vector type of a candidate's note `cannot convert initializer list argument to '__private uint3' (vector of
   3 'uint' values)` under a failed call D, without its address space; NULL when no note says so. */
static char *init_list_note_type(Parser *P, CXDiagnostic d)
{
    CXDiagnosticSet notes = clang_getChildDiagnostics(d);
    char *type = NULL;
    for (unsigned k = 0; notes && !type && k < clang_getNumDiagnosticsInSet(notes); k++) {
        CXDiagnostic nd = clang_getDiagnosticInSet(notes, k);
        char *note = cx_take(P, clang_getDiagnosticSpelling(nd));
        clang_disposeDiagnostic(nd);
        const char *a = strstr(note, "cannot convert initializer list argument to '");
        if (!a || !strstr(note, "(vector of "))
            continue;
        a += strlen("cannot convert initializer list argument to '");
        static const char *const spaces[] = {"__private ", "const ", "__constant ", "__global ", "__local "};
        for (bool again = true; again;) {
            again = false;
            for (size_t w = 0; w < sizeof spaces / sizeof *spaces; w++)
                if (!strncmp(a, spaces[w], strlen(spaces[w])))
                    a += strlen(spaces[w]), again = true;
        }
        size_t n = strcspn(a, "'");
        if (n && a[n] == '\'')
            type = arena_printf(P->arena, "%.*s", (int)n, a);
    }
    return type;
}

/* `f({N * index.x, index.y, index.z}, ...)` for a vector parameter (MLX's elem_to_loc_2_nd): clang does not take a
   braced list as a vector argument, Metal does. The first braced argument of the call at T[OFF] becomes
   `__mtl_vector<TYPE>(...)`; another one, if the call has several, is found on the next pass. */
static int init_list_arg_edits(Parser *P, const char *type, unsigned off, TextEdit *out)
{
    const char *t = P->text;
    unsigned len = (unsigned)P->len, o = off;
    while (o < len && (isalnum((unsigned char)t[o]) || t[o] == '_' || t[o] == ':' || isspace((unsigned char)t[o])))
        o++;
    if (o < len && t[o] == '<') { /* explicit template arguments */
        for (int depth = 0; o < len; o++) {
            if (t[o] == '<') {
                depth++;
            } else if (t[o] == '>' && --depth == 0) {
                o++;
                break;
            }
        }
    }
    while (o < len && isspace((unsigned char)t[o]))
        o++;
    unsigned close = o < len && t[o] == '(' ? group_end(t, o, len) : 0;
    if (!close)
        return 0;
    for (unsigned a = o + 1; a < close - 1; a++) { /* the arguments' starts: after '(' or a top-level ',' */
        while (a < close && isspace((unsigned char)t[a]))
            a++;
        if (t[a] == '{') {
            unsigned e = a;
            for (int depth = 0; e < close; e++)
                if (t[e] == '{')
                    depth++;
                else if (t[e] == '}' && --depth == 0)
                    break;
            if (e++ >= close)
                return 0;
            out[0] = (TextEdit){a, 1, arena_printf(P->arena, "__mtl_vector<%s>(", type)};
            out[1] = (TextEdit){e - 1, 1, ")"};
            return 2;
        }
        for (int depth = 0; a < close - 1; a++) {
            char c = t[a];
            depth += c == '(' || c == '[' || c == '{' ? 1 : c == ')' || c == ']' || c == '}' ? -1 : 0;
            if (depth == 0 && c == ',')
                break;
        }
    }
    return 0;
}

/* Whether the two quoted types of MSG ('complex_t<...>' and 'const __global complex_t<...>') are one type in
   two address spaces. */
static bool same_type_but_space(const char *msg)
{
    char ty[2][160];
    const char *p = msg;
    for (int k = 0; k < 2; k++) {
        const char *q = strchr(p, '\'');
        const char *e = q ? strchr(q + 1, '\'') : NULL;
        if (!e)
            return false;
        int n = 0;
        for (const char *w = q + 1; w < e && n < 150;) { /* without const and address spaces */
            static const char *const drop[] = {"const ", "__private ", "__global ", "__local ", "__constant "};
            bool skipped = false;
            for (size_t d = 0; d < sizeof drop / sizeof *drop && !skipped; d++)
                if (!strncmp(w, drop[d], strlen(drop[d])) && (w == q + 1 || w[-1] == ' '))
                    w += strlen(drop[d]), skipped = true;
            if (!skipped)
                ty[k][n++] = *w++;
        }
        ty[k][n] = 0;
        p = e + 1;
    }
    return ty[0][0] && !strcmp(ty[0], ty[1]);
}

/* `c ? a : op.init` where A and OP.INIT are the same struct in different address spaces ("conditional expression is
   ambiguous", "incompatible operand types ('complex_t<...>' and 'const __global complex_t<...>')"): Metal reads both
   as values; both operands of the '?' at T[OFF] are written `__mtl_value(...)`. */
static int conditional_value_edits(Parser *P, unsigned off, TextEdit *out)
{
    const char *t = P->text;
    unsigned len = (unsigned)P->len;
    if (off >= len || t[off] != '?')
        return 0;
    unsigned colon = off + 1;
    for (int paren = 0, nested = 0; colon < len; colon++) {
        char c = t[colon];
        paren += c == '(' || c == '[' || c == '{' ? 1 : c == ')' || c == ']' || c == '}' ? -1 : 0;
        if (paren < 0 || (paren == 0 && (c == ';' || c == ',')))
            return 0;
        if (paren == 0 && c == '?')
            nested++;
        else if (paren == 0 && c == ':' && t[colon + 1] != ':' && t[colon - 1] != ':' && nested-- == 0)
            break;
    }
    if (colon >= len)
        return 0;
    unsigned s2 = off + 1, e2 = colon, s3 = colon + 1;
    while (s2 < e2 && isspace((unsigned char)t[s2]))
        s2++;
    while (e2 > s2 && isspace((unsigned char)t[e2 - 1]))
        e2--;
    while (s3 < len && isspace((unsigned char)t[s3]))
        s3++;
    unsigned e3 = operand_end(t, s3, len);
    if (s2 >= e2 || !e3 || e3 <= s3)
        return 0;
    out[0] = (TextEdit){s2, 0, "__mtl_value("};
    out[1] = (TextEdit){e2, 0, ")"};
    out[2] = (TextEdit){s3, 0, "__mtl_value("};
    out[3] = (TextEdit){e3, 0, ")"};
    return 4;
}

/* `c ? b : x` of a bfloat b and an arithmetic x: clang calls it ambiguous ("'bfloat' can be converted to 'float' and
   vice versa"), Metal applies its usual arithmetic conversions. Both operands, the ranges [S2, E2) and [S3, E3) that
   clang's diagnostic marks, are written `__mtl_convert<__mtl_cond_t<decltype(b), decltype(x)>>(b)` (and x's the
   other way round): the type Metal gives (grammar/metal_types), for every instance of a template alike. */
static int conditional_bfloat_edits(Parser *P, unsigned s2, unsigned e2, unsigned s3, unsigned e3, TextEdit *edits,
                                    int n_edits)
{
    TextEdit *out = edits + n_edits;
    if (s2 >= e2 || e2 > s3 || s3 >= e3 || e3 > P->len)
        return 0;
    for (int k = 0; k < n_edits; k++) /* another instance's message at this conditional: the edit is made */
        if (edits[k].off == s2 && edits[k].insert && !strncmp(edits[k].insert, "__mtl_convert<__mtl_cond_t<", 27))
            return 0;
    const char *t = P->text;
    int n2 = (int)(e2 - s2), n3 = (int)(e3 - s3);
    out[0] = (TextEdit){s2, 0, arena_printf(P->arena, "__mtl_convert<__mtl_cond_t<decltype(%.*s), decltype(%.*s)>>(",
                                            n2, t + s2, n3, t + s3)};
    out[1] = (TextEdit){e2, 0, ")"};
    out[2] = (TextEdit){s3, 0, arena_printf(P->arena, "__mtl_convert<__mtl_cond_t<decltype(%.*s), decltype(%.*s)>>(",
                                            n3, t + s3, n2, t + s2)};
    out[3] = (TextEdit){e3, 0, ")"};
    return 4;
}

/* The width N of a bool vector MSG says a vector value is stored in: "cannot initialize a variable of type '__private
   bool4' (vector of 4 '__mtl_bool' values) with an rvalue of type 'int ...' (vector of 4 'int' values)", "assigning
   to 'bool3' (vector of 3 '__mtl_bool' values) from incompatible type ...", the same for return values and members;
   0 for any other message. */
static int bool_vector_store(const char *msg)
{
    if (strncmp(msg, "cannot initialize ", 18) && strncmp(msg, "assigning to ", 13))
        return 0;
    const char *q = strchr(msg, '\''), *e = q ? strchr(q + 1, '\'') : NULL;
    int n = 0;
    if (!e || sscanf(e + 1, " (vector of %d '__mtl_bool' values)", &n) != 1 || n < 2 || n > 4)
        return 0;
    const char *from = strstr(e + 1, " type '"); /* the value's type: a vector (a comparison) */
    return from && strstr(from, "(vector of ") ? n : 0;
}

/* Which operand of a binary operator MSG names as a bool vector beside a vector of another element type, "invalid
   operands to binary expression ('__global bool4' (vector of 4 '__mtl_bool' values) and 'int ...' (vector of 4
   'int' values))" for `m || a < b`: 2 (the right one is the comparison), 1 (the left one), 0 for other messages;
   *N the width. */
static int bool_vector_operand(const char *msg, int *n)
{
    const char *p = strstr(msg, "invalid operands to binary expression (");
    if (!p)
        p = strstr(msg, "implicit conversions between vector types (");
    const char *sep = p ? strstr(p, ") and '") : NULL; /* between the two types */
    if (!sep)
        return 0;
    char left[256];
    snprintf(left, sizeof left, "%.*s", (int)(sep - p < 255 ? sep - p : 255), p);
    const char *lb = strstr(left, "'__mtl_bool' values"), *rb = strstr(sep, "'__mtl_bool' values");
    const char *lv = strstr(left, "(vector of "), *rv = strstr(sep, "(vector of ");
    if (!lv || !rv || !lb == !rb)
        return 0;
    return sscanf(lb ? lv : rv, "(vector of %d", n) == 1 && *n >= 2 && *n <= 4 ? (lb ? 2 : 1) : 0;
}

/* The operand SIDE (1 left, 2 right) of the binary operator at SL that diagnostic D is about: the range D marks, or
   (`m == (a < b)`: "implicit conversions between vector types" marks none) the child of the expression clang made
   of the failed operator (a recovery expression of the two operands). A null range when neither is found. */
static CXSourceRange bool_operand_range(Parser *P, CXDiagnostic d, CXSourceLocation sl, int side)
{
    if (clang_getDiagnosticNumRanges(d) == 2)
        return clang_getDiagnosticRange(d, (unsigned)side - 1);
    CXCursor c = clang_getCursor(P->tu, sl);
    Kids k = kids_of(c);
    CXSourceRange r = clang_getNullRange();
    if (clang_isExpression(clang_getCursorKind(c)) && k.len == 2)
        r = clang_getCursorExtent(k.items[side - 1]);
    free(k.items);
    return r;
}

/* `bool4 m = a < b;` (and `m = a < b`, `return a < b`): a comparison is an int vector to clang (or short, char, long
   vector: the operands' size), which it does not store in the prelude's bool vectors; Metal's comparisons give a
   boolN. The value, the range [S, E) clang marks, is written `__mtl_convert<::boolN>(...)`, which the translator
   reads as the conversion to bool (a comparison is typed boolN already); so is a comparison combined with a bool
   vector, `m || a < b`, `m == (a < b)`. */
static int bool_vector_edits(Parser *P, int n, unsigned s, unsigned e, TextEdit *edits, int n_edits)
{
    TextEdit *out = edits + n_edits;
    if (s >= e || e > P->len)
        return 0;
    for (int k = 0; k < n_edits; k++) /* another message about the same operand: the edit is made */
        if (edits[k].off == s && edits[k].insert && !strncmp(edits[k].insert, "__mtl_convert<::bool", 20))
            return 0;
    out[0] = (TextEdit){s, 0, arena_printf(P->arena, "__mtl_convert<::bool%d>(", n)};
    out[1] = (TextEdit){e, 0, ")"};
    return 2;
}

/* Whether MSG, "conditional expression is ambiguous; 'const __private bfloat' can be converted to 'float' and vice
   versa", has a bfloat operand (the other one is then arithmetic, or clang would not convert it). */
static bool bfloat_conditional(const char *msg)
{
    if (!strstr(msg, "conditional expression is ambiguous") || !strstr(msg, "and vice versa"))
        return false;
    for (const char *q = strchr(msg, '\''); q; q = strchr(q + 1, '\'')) {
        const char *e = strchr(q + 1, '\'');
        if (!e)
            break;
        size_t n = (size_t)(e - q - 1);
        if (n >= 6 && !strncmp(e - 6, "bfloat", 6) && (n == 6 || e[-7] == ' '))
            return true;
        q = e;
    }
    return false;
}

/* The argument at T[OFF] for a `thread const short&` parameter, which clang reports as "reference of type 'const
   __private short &' cannot bind to a temporary object because of address space mismatch": written
   `__mtl_temporary<short>(arg)`. */
static int temporary_edits(Parser *P, const char *msg, unsigned off, TextEdit *out)
{
    const char *ty = strstr(msg, "reference of type '");
    if (!ty)
        return 0;
    ty += strlen("reference of type '");
    size_t n = strcspn(ty, "'");
    while (n && (ty[n - 1] == '&' || ty[n - 1] == ' '))
        n--;
    char type[128];
    snprintf(type, sizeof type, "%.*s", (int)n, ty);
    char *p;
    while ((p = strstr(type, "const ")) || (p = strstr(type, "__private ")))
        memmove(p, p + strcspn(p, " ") + 1, strlen(p + strcspn(p, " ") + 1) + 1);
    if (!*type || strchr(type, '('))
        return 0;
    const char *t = P->text;
    unsigned len = (unsigned)P->len, e = off;
    for (int depth = 0; e < len; e++) {
        char c = t[e];
        if ((c == ',' || c == ')' || c == ';') && depth == 0)
            break;
        depth += c == '(' || c == '[' || c == '{' ? 1 : c == ')' || c == ']' || c == '}' ? -1 : 0;
    }
    while (e > off && isspace((unsigned char)t[e - 1]))
        e--;
    if (e >= len || e == off)
        return 0;
    out[0] = (TextEdit){off, 0, arena_printf(P->arena, "__mtl_temporary<%s>(", type)};
    out[1] = (TextEdit){e, 0, ")"};
    return 2;
}

/* `static_cast<decltype(x.y)>(precise::sqrt(...))` (PyTorch's complex sqrt, acos, asin, rsqrt): decltype of a vector
   element is a `const __private half&` to clang, which does not bind it to the converted temporary ("binding reference
   of type '...' to value of type '...' changes address space"); Metal does. The cast's operand at T[OFF] (the
   static_cast) is written `__mtl_temporary<CAST TYPE without reference, const and address space>(...)`: one text for
   every instance of a template (half2 and float2 give two messages at the one place). */
static int cast_temporary_edits(Parser *P, unsigned off, TextEdit *edits, int n_edits)
{
    TextEdit *out = edits + n_edits;
    const char *t = P->text;
    unsigned len = (unsigned)P->len;
    if (off + 12 >= len || strncmp(t + off, "static_cast<", 12))
        return 0;
    unsigned a = off + 12, e = a;
    for (int depth = 1; e < len && depth; e++) /* the target type: to the matching '>' */
        depth += t[e] == '<' || t[e] == '(' ? 1 : t[e] == '>' || t[e] == ')' ? -1 : 0;
    if (e >= len)
        return 0;
    unsigned type_end = e - 1, open = e;
    while (open < len && isspace((unsigned char)t[open]))
        open++;
    if (open >= len || t[open] != '(')
        return 0;
    unsigned close = open + 1;
    for (int depth = 1; close < len && depth; close++)
        depth += t[close] == '(' ? 1 : t[close] == ')' ? -1 : 0;
    if (close >= len)
        return 0;
    for (int k = 0; k < n_edits; k++) /* another instance's message at this cast: the edit is made */
        if (edits[k].off == open + 1 && edits[k].insert && !strncmp(edits[k].insert, "__mtl_temporary<", 16))
            return 0;
    out[0] = (TextEdit){open + 1, 0, arena_printf(P->arena,
        "__mtl_temporary<typename __mtl_no_space<::metal::remove_cv_t<::metal::remove_reference_t<%.*s>>>::type>(",
        (int)(type_end - a), t + a)};
    out[1] = (TextEdit){close - 1, 0, ")"};
    return 2;
}

/* Whether a note under D says a candidate method needs its object in thread memory and the object is a temporary
   (clang's OpenCL mode puts a value returned by a function in the default address space; Metal's are thread
   memory). */
static bool thread_method_on_temporary(Parser *P, CXDiagnostic d)
{
    CXDiagnosticSet notes = clang_getChildDiagnostics(d);
    bool found = false;
    for (unsigned k = 0; notes && !found && k < clang_getNumDiagnosticsInSet(notes); k++) {
        CXDiagnostic nd = clang_getDiagnosticInSet(notes, k);
        char *note = cx_take(P, clang_getDiagnosticSpelling(nd));
        clang_disposeDiagnostic(nd);
        found = strstr(note, "'this' object is in default address space, but method expects object in address space "
                             "'__private'") != NULL;
    }
    return found;
}

/* A conversion or member function qualified `thread` called on a temporary: `if constexpr (kAlignedM && kAlignedN)`
   of MLX's integral_constant operator&&, whose result (a function's return value) clang's OpenCL mode keeps in
   the default address space, where a `thread` method does not apply; Metal's temporaries are in thread memory. The
   object, the range [S, E) that clang's diagnostic marks, is written `__mtl_private(...)`, the same object as a
   thread lvalue (grammar/metal_types; the translator reads its argument). */
static int temporary_object_edits(Parser *P, unsigned s, unsigned e, TextEdit *out)
{
    if (s >= e || e > P->len)
        return 0;
    out[0] = (TextEdit){s, 0, "__mtl_private("};
    out[1] = (TextEdit){e, 0, ")"};
    return 2;
}

/* `src += str_y` with a pointer and MLX's `Int<1>` (integral_constant): clang's OpenCL mode finds no built-in
   operator for a pointer into an address space and a class that converts to an integer; Metal converts it. The
   class operand of the operator at T[OFF] is written `(long)(...)`. */
static int pointer_offset_edits(Parser *P, const char *msg, unsigned off, TextEdit *out)
{
    const char *a = strstr(msg, "('"), *b = a ? strstr(a, "' and '") : NULL;
    if (!a || !b)
        return 0;
    bool lhs_pointer = memchr(a, '*', (size_t)(b - a)) != NULL;
    const char *t = P->text;
    unsigned len = (unsigned)P->len, op = off;
    if (op >= len || !strchr("+-", t[op]))
        return 0;
    unsigned s, e;
    if (lhs_pointer) {
        s = op + 1 + (t[op + 1] == '=');
        while (s < len && isspace((unsigned char)t[s]))
            s++;
        e = operand_end(t, s, len);
    } else {
        e = op;
        while (e > 0 && isspace((unsigned char)t[e - 1]))
            e--;
        s = operand_start(t, e);
    }
    if (!e || s >= e)
        return 0;
    out[0] = (TextEdit){s, 0, "(long)("};
    out[1] = (TextEdit){e, 0, ")"};
    return 2;
}

/* Rewrites the conversions clang refused in the text (edits applied, attribute offsets and the line map moved).
   Returns whether anything changed. */
static bool fix_conversions(Parser *P)
{
    unsigned n = clang_getNumDiagnostics(P->tu);
    TextEdit *edits = NULL;
    int n_edits = 0, cap = 0;
    unsigned *seen_off = NULL;
    const char **seen_msg = NULL;
    int n_seen = 0, cap_seen = 0;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(P->tu, i);
        char *msg = cx_take(P, clang_getDiagnosticSpelling(d));
        CXSourceLocation sl = clang_getDiagnosticLocation(d);
        char *init_list_type = strstr(msg, "no matching function for call to") ? init_list_note_type(P, d) : NULL;
        /* the object a `thread` method is called on, when it is a temporary: the expression range clang marks */
        unsigned obj_s = 0, obj_e = 0, cond[4] = {0}, val[2] = {0};
        int bool_n = bool_vector_store(msg), side = bool_n ? 0 : bool_vector_operand(msg, &bool_n);
        unsigned nr = clang_getDiagnosticNumRanges(d);
        if (bool_n && (side || nr >= 1)) { /* the value stored in a bool vector, or combined with one */
            CXSourceRange rg = side ? bool_operand_range(P, d, sl, side) : clang_getDiagnosticRange(d, nr - 1);
            CXFile fs, fe;
            clang_getExpansionLocation(clang_getRangeStart(rg), &fs, NULL, NULL, &val[0]);
            clang_getExpansionLocation(clang_getRangeEnd(rg), &fe, NULL, NULL, &val[1]);
            if (!fs || !fe || !clang_File_isEqual(fs, fe))
                val[0] = val[1] = 0;
        }
        if (bfloat_conditional(msg) && clang_getDiagnosticNumRanges(d) == 2) { /* the operands of `c ? b : x` */
            for (unsigned r = 0; r < 2; r++) {
                CXSourceRange rg = clang_getDiagnosticRange(d, r);
                CXFile fs, fe;
                clang_getExpansionLocation(clang_getRangeStart(rg), &fs, NULL, NULL, &cond[2 * r]);
                clang_getExpansionLocation(clang_getRangeEnd(rg), &fe, NULL, NULL, &cond[2 * r + 1]);
                if (!fs || !fe || !clang_File_isEqual(fs, fe))
                    cond[0] = cond[1] = 0;
            }
        }
        if ((strstr(msg, "no viable conversion from '") && thread_method_on_temporary(P, d)) ||
            (strstr(msg, "cannot initialize object parameter of type '") && strstr(msg, "__private ") &&
             strstr(msg, "with an expression of type '") && !strstr(strstr(msg, "with an expression of type '"), "__"))) {
            CXSourceRange r = clang_getDiagnosticNumRanges(d) ? clang_getDiagnosticRange(d, 0) : clang_getNullRange();
            CXFile fs, fe;
            clang_getExpansionLocation(clang_getRangeStart(r), &fs, NULL, NULL, &obj_s);
            clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &obj_e);
            if (!fs || !fe || !clang_File_isEqual(fs, fe)) /* libclang's range ends after its last token */
                obj_s = obj_e = 0;
        }
        clang_disposeDiagnostic(d);
        CXFile f;
        unsigned off;
        clang_getExpansionLocation(sl, &f, NULL, NULL, &off);
        if (!f || !clang_File_isEqual(f, P->main_file))
            continue;
        bool seen = false; /* the same cast in several instances of a template: one rewrite */
        for (int k = 0; k < n_seen && !seen; k++)
            seen = seen_off[k] == off && !strcmp(seen_msg[k], msg);
        if (seen)
            continue;
        if (n_seen == cap_seen) {
            seen_off = realloc(seen_off, sizeof *seen_off * (size_t)(cap_seen = cap_seen * 2 + 64));
            seen_msg = realloc(seen_msg, sizeof *seen_msg * (size_t)cap_seen);
        }
        seen_msg[n_seen] = msg;
        seen_off[n_seen++] = off;
        if (n_edits + 4 > cap)
            edits = realloc(edits, sizeof *edits * (size_t)(cap = cap * 2 + 64));
        int want, have;
        if (strstr(msg, "from vector") && strstr(msg, "of different size")) { /* C-style or functional cast */
            n_edits += cast_edits(P, off, edits + n_edits);
        } else if (strstr(msg, "scalar operand type has greater rank than the type of the vector element")) {
            n_edits += scalar_rank_edits(P, msg, off, edits + n_edits);
        } else if (strstr(msg, "excess elements in scalar initializer")) {
            n_edits += vector_init_edits(P, off, edits + n_edits);
        } else if (strstr(msg, "invalid operands to binary expression") && strstr(msg, "integral_constant<") &&
                   strstr(msg, " *")) {
            n_edits += pointer_offset_edits(P, msg, off, edits + n_edits);
        } else if (strstr(msg, "cannot bind to a temporary object because of address space mismatch")) {
            n_edits += temporary_edits(P, msg, off, edits + n_edits);
        } else if (strstr(msg, "binding reference of type") && strstr(msg, "changes address space")) {
            n_edits += cast_temporary_edits(P, off, edits, n_edits);
        } else if ((strstr(msg, "conditional expression is ambiguous") || strstr(msg, "incompatible operand types")) &&
                   same_type_but_space(msg)) {
            n_edits += conditional_value_edits(P, off, edits + n_edits);
        } else if (val[1] > val[0]) {
            n_edits += bool_vector_edits(P, bool_n, val[0], val[1], edits, n_edits);
        } else if (cond[1] > cond[0]) {
            n_edits += conditional_bfloat_edits(P, cond[0], cond[1], cond[2], cond[3], edits, n_edits);
        } else if (obj_e > obj_s) {
            n_edits += temporary_object_edits(P, obj_s, obj_e, edits + n_edits);
        } else if (init_list_type) {
            n_edits += init_list_arg_edits(P, init_list_type, off, edits + n_edits);
        } else if (sscanf(msg, "too few elements in vector initialization (expected %d elements, have %d)", &want, &have) == 2 &&
                   off < P->len && P->text[off] == '{' && want > have && want <= 16) {
            const char *close = P->text + off;
            for (int depth = 0; *close; close++)
                if (*close == '{' || *close == '(')
                    depth++;
                else if ((*close == '}' || *close == ')') && --depth == 0)
                    break;
            StrBuf z = {0};
            for (int k = have; k < want; k++)
                sb_puts(&z, ", 0");
            edits[n_edits++] = (TextEdit){(unsigned)(close - P->text), 0, arena_strdup(P->arena, z.data)};
            free(z.data);
        }
    }
    free(seen_off);
    free(seen_msg);
    if (!n_edits) {
        free(edits);
        return false;
    }
    apply_edits(P, edits, n_edits);
    free(edits);
    return true;
}

static bool same_loc(SrcLoc a, SrcLoc b)
{
    return a.line == b.line && a.col == b.col && a.file && b.file && !strcmp(a.file, b.file);
}

/* After the kernels: each clang error that stopped entry points names them (an error that each instance of a template
   reports at the same place is one error). */
static void report_costs(Parser *P)
{
    for (int i = 0; i < P->n_errors; i++) {
        bool earlier = false;
        for (int j = 0; j < i && !earlier; j++)
            earlier = same_loc(P->errors[j].loc, P->errors[i].loc);
        if (earlier)
            continue;
        PtrVec names = {0};
        for (int j = i; j < P->n_errors; j++)
            for (int k = 0; j == i || same_loc(P->errors[j].loc, P->errors[i].loc) ? k < P->errors[j].cost.len : 0; k++)
                if (!pv_contains(&names, P->errors[j].cost.items[k]))
                    pv_push(&names, P->errors[j].cost.items[k]);
        if (names.len) {
            StrBuf b = {0};
            for (int k = 0; k < names.len && k < 6; k++)
                sb_printf(&b, "%s'%s'", k ? ", " : "", (char *)names.items[k]);
            if (names.len > 6)
                sb_printf(&b, " and %d more", names.len - 6);
            diag_note(P->diag, P->errors[i].loc, "the error above stops %d entry point%s: %s", names.len,
                      names.len == 1 ? "" : "s", b.data);
            free(b.data);
        }
        pv_free(&names);
    }
}

/* The language options of both clang runs: Metal as C++ for OpenCL, the prelude owning every library name. */
static const char *const lang_flags[] = {
    "-x", "clcpp", "-cl-std=clc++2021", "-cl-no-stdinc", "-ffp-contract=off", "-D__METAL_MACOS__", "-D__HAVE_MTL2GLSL__=1",
    /* no double in Metal: an unsuffixed literal such as 0.5 is a float */
    "-Xclang", "-cl-ext=-cl_khr_fp64,-__opencl_c_fp64", NULL,
};

/* Preprocesses the source and rewrites the result for clang (templates.c, attribute groups): P->text, P->pp. */
static bool prepare_text(Parser *P, const ParseOptions *opt)
{
    PpOptions po = {.path = opt->path, .text = opt->text, .grammar_dir = opt->grammar_dir, .include_dirs = opt->include_dirs,
                    .defines = opt->defines, .lang_flags = lang_flags, .metal_version = opt->metal_version ? opt->metal_version : 320};
    size_t len;
    char *pre = pp_run(P->arena, P->diag, &po, &len);
    if (!pre)
        return false;
    size_t flen;
    char *lit0 = pp_float_literals(pre, len, &flen);
    free(pre);
    char *lit = pp_constant_const(lit0, flen, &flen);
    free(lit0);
    pp_constructor_spaces(lit, flen);
    pp_static_member_spaces(lit, flen);
    char *vec = pp_deducible_vectors(lit, flen, &flen);
    free(lit);
    char *fn = tmpl_rewrite_function_params(vec, flen, &flen);
    free(vec);
    P->text = tmpl_rewrite_instances(fn, flen, &P->len);
    free(fn);
    pp_map_build(&P->pp, P->arena, P->text, P->len);
    P->pp.sources = opt->sources;
    for (int i = 0; i < P->pp.files.len; i++) { /* every file the source read, for depfiles */
        PpFile *f = P->pp.files.items[i];
        if (strcmp(f->path, po.temp_path))
            pv_push(&P->prog->includes, (char *)f->path);
    }
    if (!pp_check_limits(&P->pp, P->diag))
        return false;
    extract_attributes(P);
    tmpl_blank_template_kernels(P->text, P->len);
    TextEdits tg = {0};
    tmpl_threadgroup_uses(P->text, P->len, &tg);
    if (tg.n)
        apply_edits(P, tg.items, tg.n);
    free(tg.items);
    return true;
}

/* For developers: MTL2GLSL_DUMP_FRONT=FILE writes the text clang finally compiled (preprocessed, instances and
   conversions written out), so a clang error can be read in the form clang saw it. */
static void dump_front_text(const Parser *P)
{
    const char *path = getenv("MTL2GLSL_DUMP_FRONT");
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "w");
    if (!f || fwrite(P->text, 1, P->len, f) != P->len || fclose(f) != 0)
        diag_error(P->diag, (SrcLoc){0}, "cannot write MTL2GLSL_DUMP_FRONT file '%s'", path);
}

bool parse_program(Program *prog, const ParseOptions *opt)
{
    Parser P = {.prog = prog, .arena = prog->arena, .diag = prog->diag, .main_path = opt->path, .default_param = clang_getNullCursor(),
              .skip_bodies = opt->list_only, .convert = !opt->list_only && !opt->syntax_only};
    CXIndex index = NULL;
    bool ok = false;
    if (!prepare_text(&P, opt))
        goto done;

    const char *args[24];
    int na = 0;
    for (const char *const *f = lang_flags; *f; f++)
        args[na++] = *f;
    args[na++] = "-ferror-limit=0";
    args[na++] = "-Wno-unknown-attributes";
    args[na++] = "-Wno-unused-value";
    /* a function constant is `= {}` to clang: its folding to 0 is not the value (x / FC, switch (FC)) */
    args[na++] = "-Wno-division-by-zero";
    args[na++] = "-Wno-switch";
    args[na++] = "-Wno-c99-designator";
    args[na] = NULL;

    index = clang_createIndex(0, 0);
    /* again after Metal's conversions are written out (fix_conversions): an error hides the next one in the same
       expression, and a template's instances are checked once the pattern parses */
    for (int pass = 0; pass <= MAX_FIX_PASSES; pass++) {
        if (P.tu)
            clang_disposeTranslationUnit(P.tu);
        struct CXUnsavedFile unsaved = {opt->path, P.text, (unsigned long)P.len};
        unsigned flags = CXTranslationUnit_KeepGoing | (P.skip_bodies ? CXTranslationUnit_SkipFunctionBodies : 0);
        enum CXErrorCode err = clang_parseTranslationUnit2(index, opt->path, args, na, &unsaved, 1, flags, &P.tu);
        if (err != CXError_Success || !P.tu) {
            diag_error(prog->diag, (SrcLoc){0}, "libclang could not parse '%s' (error %d)", opt->path, (int)err);
            goto done;
        }
        P.main_file = clang_getFile(P.tu, opt->path);
        if (pass == MAX_FIX_PASSES || P.skip_bodies || !fix_conversions(&P))
            break;
    }
    dump_front_text(&P);
    report_clang_diagnostics(&P);
    TopVisit tv = {.P = &P};
    clang_visitChildren(clang_getTranslationUnitCursor(P.tu), visit_top, &tv);
    report_costs(&P);
    ok = true;
done:
    for (int i = 0; i < P.n_errors; i++)
        pv_free(&P.errors[i].cost);
    free(P.errors);
    if (P.tu)
        clang_disposeTranslationUnit(P.tu);
    if (index)
        clang_disposeIndex(index);
    free(P.map);
    free(P.text);
    pp_map_free(&P.pp);
    pv_free(&P.attrs);
    pv_free(&P.loop_hints);
    pv_free(&P.strings);
    return ok;
}
