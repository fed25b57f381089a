/* parse.c: the front end. The only file that includes clang-c/Index.h.
 *
 * The Metal source is parsed as C++ for OpenCL against the prelude in grammar/. `[[...]]` attribute groups are
 * taken out of the main file's text before clang sees it (blanked to spaces so lines and columns stay true;
 * `[[kernel]]` becomes the keyword `kernel`) and handed back to the declarations they follow by offset.
 * Cursors are turned into the model of internal.h at once; CXStrings are disposed where they are read.
 */
#include <clang-c/Index.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct AttrGroup {
    unsigned offset; /* of the first '[' */
    const char *text; /* what is between [[ and ]], trimmed */
    SrcLoc loc;
} AttrGroup;

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
    AttrGroup *attrs;
    int n_attrs;
    MapEntry *map; /* USR -> Var* / Func* / StructDef* */
    int map_cap, map_len;
    Func *cur_func;
    unsigned error_offsets[256]; /* clang errors in the main file: they fail the kernel they fall in */
    int n_error_offsets;
    unsigned quiet[64][2]; /* extents of kernel templates: clang's errors there give way to ours */
    int n_quiet;
} Parser;

/* ---- small libclang helpers ---- */

static char *cx_take(Parser *P, CXString s)
{
    const char *c = clang_getCString(s);
    char *r = arena_strdup(P->arena, c ? c : "");
    clang_disposeString(s);
    return r;
}

/* A location in the main file: as written, or as a `#line N "NAME"` directive renames it (generated sources,
   e.g. a kernel spec's signature and body, point diagnostics back at the spec). */
static SrcLoc main_file_loc(Parser *P, CXSourceLocation sl, int line, int col)
{
    CXString name;
    unsigned pline, pcol;
    clang_getPresumedLocation(sl, &name, &pline, &pcol);
    char *pname = cx_take(P, name);
    if (*pname && strcmp(pname, P->main_path))
        return (SrcLoc){pname, (int)pline, (int)pcol};
    return (SrcLoc){P->main_path, line, col};
}

static SrcLoc loc_of(Parser *P, CXCursor c)
{
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
    if (!f)
        return (SrcLoc){P->main_path, 0, 0};
    SrcLoc l = {cx_take(P, clang_getFileName(f)), (int)line, (int)col};
    if (clang_File_isEqual(f, P->main_file))
        l = main_file_loc(P, clang_getCursorLocation(c), (int)line, (int)col);
    return l;
}

static unsigned offset_of(CXSourceLocation sl)
{
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(sl, &f, &line, &col, &off);
    return off;
}

static bool in_main_file(Parser *P, CXCursor c)
{
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    return f && clang_File_isEqual(f, P->main_file);
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

static char *usr_key(Parser *P, CXCursor c)
{
    return cx_take(P, clang_getCursorUSR(c));
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

/* Blanks every [[...]] group of TEXT in place (newlines kept), recording each; `[[kernel]]` becomes `kernel`.
   Comments, strings and character literals are skipped. */
static void extract_attributes(Parser *P, char *text, size_t len)
{
    PtrVec groups = {0};
    int line = 1, col = 1;
    for (size_t i = 0; i < len;) {
        char ch = text[i];
        if (ch == '/' && i + 1 < len && text[i + 1] == '/') {
            while (i < len && text[i] != '\n')
                i++, col++;
            continue;
        }
        if (ch == '/' && i + 1 < len && text[i + 1] == '*') {
            i += 2, col += 2;
            while (i + 1 < len && !(text[i] == '*' && text[i + 1] == '/')) {
                if (text[i] == '\n')
                    line++, col = 0;
                i++, col++;
            }
            i += 2, col += 2;
            continue;
        }
        if (ch == '"' || ch == '\'') {
            i++, col++;
            while (i < len && text[i] != ch && text[i] != '\n') {
                if (text[i] == '\\')
                    i++, col++;
                i++, col++;
            }
            i++, col++;
            continue;
        }
        if (ch == '[' && i + 1 < len && text[i + 1] == '[') {
            size_t start = i;
            int depth = 0;
            size_t j = i;
            for (; j < len; j++) {
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
            AttrGroup *g = arena_alloc(P->arena, sizeof *g);
            *g = (AttrGroup){(unsigned)start, b, {P->main_path, line, col}};
            pv_push(&groups, g);
            bool is_kernel = !strcmp(b, "kernel");
            for (size_t k = start; k <= j; k++) {
                if (text[k] == '\n')
                    line++, col = 0;
                else
                    text[k] = ' ';
                col++;
            }
            if (is_kernel)
                memcpy(text + start, "kernel", 6);
            i = j + 1;
            continue;
        }
        if (ch == '\n')
            line++, col = 0;
        i++, col++;
    }
    P->attrs = arena_alloc(P->arena, sizeof(AttrGroup) * (size_t)(groups.len + 1));
    for (int k = 0; k < groups.len; k++)
        P->attrs[k] = *(AttrGroup *)groups.items[k];
    P->n_attrs = groups.len;
    pv_free(&groups);
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

/* Converts a clang type to the model; unknown types become TY_UNSUPPORTED carrying the Metal name. */
static Type *conv_type(Parser *P, CXType t)
{
    /* Typedef names first: bool vectors exist only as names (the prelude makes them int vectors). */
    for (int guard = 0; guard < 16; guard++) {
        if (t.kind == CXType_Elaborated) {
            t = clang_Type_getNamedType(t);
            continue;
        }
        if (t.kind != CXType_Typedef)
            break;
        char *name = cx_take(P, clang_getTypedefName(t));
        int n;
        if (is_bool_vector_name(name, &n))
            return ty_vec(P->arena, TY_BOOL, n);
        t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
    }
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Void: return ty_scalar(TY_VOID);
    case CXType_Bool: return ty_scalar(TY_BOOL);
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
        return ty_vec(P->arena, e->kind, (int)clang_getNumElements(c));
    }
    case CXType_Enum: {
        Type *e = new_type(P, TY_ENUM);
        e->name = cx_take(P, clang_getTypeSpelling(c));
        return e;
    }
    case CXType_Pointer:
    case CXType_LValueReference:
    case CXType_RValueReference: {
        CXType pt = clang_getPointeeType(c);
        Type *r = new_type(P, c.kind == CXType_Pointer ? TY_PTR : TY_REF);
        r->elem = conv_type(P, pt);
        r->as = conv_addr_space(pt);
        r->is_const = clang_isConstQualifiedType(pt);
        return r;
    }
    case CXType_ConstantArray:
    case CXType_IncompleteArray: {
        Type *r = new_type(P, TY_ARRAY);
        r->elem = conv_type(P, clang_getArrayElementType(c));
        r->n = c.kind == CXType_ConstantArray ? (int)clang_getArraySize(c) : 0;
        return r;
    }
    case CXType_Record: {
        CXCursor decl = clang_getTypeDeclaration(c);
        if (in_prelude(decl)) {
            Type *u = new_type(P, TY_UNSUPPORTED);
            u->name = cx_take(P, clang_getCursorSpelling(decl));
            return u;
        }
        Type *s = new_type(P, TY_STRUCT);
        s->sdef = conv_struct(P, decl);
        return s;
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
    bool other;
    CXCursor other_cursor;
} FieldList;

static enum CXChildVisitResult collect_field(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    FieldList *fl = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FieldDecl) {
        Field *f = arena_alloc(fl->P->arena, sizeof *f);
        f->name = cx_take(fl->P, clang_getCursorSpelling(c));
        f->glsl_name = names_legal(fl->P->arena, f->name);
        f->ty = conv_type(fl->P, clang_getCursorType(c));
        pv_push(&fl->fields, f);
    } else if (k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_CXXBaseSpecifier) {
        if (!fl->other)
            fl->other_cursor = c;
        fl->other = true;
    }
    return CXChildVisit_Continue;
}

static StructDef *conv_struct(Parser *P, CXCursor decl)
{
    decl = clang_getCanonicalCursor(decl);
    char *key = usr_key(P, decl);
    StructDef *s = map_get(P, key);
    if (s)
        return s;
    s = arena_alloc(P->arena, sizeof *s);
    map_put(P, key, s);
    s->name = cx_take(P, clang_getCursorSpelling(decl));
    if (!*s->name)
        s->name = "anonymous_struct";
    s->glsl_name = names_legal(P->arena, s->name);
    CXCursor def = clang_getCursorDefinition(decl);
    s->loc = loc_of(P, clang_Cursor_isNull(def) ? decl : def);
    FieldList fl = {.P = P};
    clang_visitChildren(clang_Cursor_isNull(def) ? decl : def, collect_field, &fl);
    if (fl.other)
        diag_error(P->diag, loc_of(P, fl.other_cursor), "member functions, constructors and base classes of structs are not supported yet");
    s->n_fields = fl.fields.len;
    s->fields = arena_alloc(P->arena, sizeof(Field) * (size_t)(fl.fields.len + 1));
    for (int i = 0; i < fl.fields.len; i++)
        s->fields[i] = *(Field *)fl.fields.items[i];
    pv_free(&fl.fields);
    pv_push(&P->prog->structs, s);
    return s;
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

static Node *conv_call(Parser *P, CXCursor c)
{
    CXCursor callee = clang_getCursorReferenced(c);
    int nargs = clang_Cursor_getNumArguments(c);
    if (!clang_Cursor_isNull(callee) && in_prelude(callee)) {
        char *fname = cx_take(P, clang_getCursorSpelling(callee));
        int si = simd_lookup(fname);
        if (si >= 0 && simd_table[si].group == 'B')
            return conv_barrier(P, c, si);
    }
    Node *n = new_node(P, N_CALL, c);
    n->ty = conv_type(P, clang_getCursorType(c));
    n->n_list = nargs < 0 ? 0 : nargs;
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(n->n_list + 1));
    for (int i = 0; i < n->n_list; i++)
        n->list[i] = conv_expr(P, clang_Cursor_getArgument(c, (unsigned)i));
    if (clang_Cursor_isNull(callee)) {
        return unsupported(P, c, "a call through a function pointer or to a dependent name");
    }
    enum CXCursorKind ck = clang_getCursorKind(callee);
    char *name = cx_take(P, clang_getCursorSpelling(callee));
    n->name = name;
    if (!strncmp(name, "__builtin_inf", 13) || !strncmp(name, "__builtin_huge_val", 18) || !strncmp(name, "__builtin_nan", 13)) {
        /* INFINITY and NAN of the prelude */
        n->kind = N_FLOAT;
        n->fval = name[10] == 'n' ? NAN : INFINITY;
        return n;
    }
    if (ck == CXCursor_Constructor || ck == CXCursor_CXXMethod || ck == CXCursor_ConversionFunction) {
        if (ck == CXCursor_Constructor && nargs <= 1 && n->ty->kind == TY_STRUCT) {
            /* copy construction of a user struct: the value itself */
            if (nargs == 1)
                return n->list[0];
        }
        if (ck == CXCursor_CXXMethod && !strcmp(name, "operator=") && nargs == 2 && n->list[0]->ty &&
            n->list[0]->ty->kind == TY_STRUCT && !has_user_method(clang_getCursorSemanticParent(callee), "operator=")) {
            /* the implicit copy assignment of a struct (across address spaces in clang's OpenCL mode) */
            n->kind = N_ASSIGN;
            n->op = "=";
            n->a = n->list[0];
            n->b = n->list[1];
            n->ty = n->a->ty;
            n->list = NULL;
            n->n_list = 0;
            return n;
        }
        return unsupported(P, c, arena_printf(P->arena, "calling C++ %s '%s'", ck == CXCursor_CXXMethod ? "member function" : ck == CXCursor_Constructor ? "constructor" : "conversion", name));
    }
    if (in_prelude(callee)) {
        char *q = qualified_name(P, callee);
        if (!strcmp(name, "__mtl_make_vec") || !strcmp(name, "__mtl_make_bvec")) {
            n->kind = N_VECCTOR;
            return n;
        }
        if (!strcmp(name, "as_type")) {
            n->kind = N_ASTYPE;
            n->a = n->list[0];
            return n;
        }
        int si = simd_lookup(name);
        if (si >= 0 && !strncmp(q, "metal::", 7)) {
            n->kind = N_SIMD;
            n->builtin = si;
            n->name = simd_table[si].metal;
            return n;
        }
        int b = builtin_lookup(name);
        bool metal_ns = !strncmp(q, "metal::", 7);
        if (b < 0 || !metal_ns) {
            diag_error(P->diag, n->loc, "%s is not supported yet", name);
            return n;
        }
        n->kind = N_BUILTIN;
        n->builtin = b;
        n->name = q;
        return n;
    }
    n->fn = get_func(P, callee);
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
    if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) {
        Node *n = new_node(P, N_VAR, c);
        n->var = map_get(P, usr_key(P, d));
        if (!n->var && dk == CXCursor_VarDecl)
            n->var = get_global(P, d);
        if (!n->var) {
            char *nm = cx_take(P, clang_getCursorSpelling(d));
            diag_error(P->diag, n->loc, "reference to '%s' is not supported here", nm);
            n->kind = N_INT;
            n->ty = ty_scalar(TY_INT);
            return n;
        }
        n->ty = n->var->ty->kind == TY_REF ? n->var->ty->elem : n->var->ty;
        return n;
    }
    return unsupported(P, c, arena_printf(P->arena, "a reference to '%s'", cx_take(P, clang_getCursorSpelling(d))));
}

static Node *conv_unexposed(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
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
    } else if (!strcmp(n->op, ",")) {
        return unsupported(P, c, "the comma operator");
    }
    /* Metal: vector comparisons and logic give bool vectors (clang says int vectors). */
    static const char *const cmp[] = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"};
    for (size_t i = 0; i < sizeof cmp / sizeof *cmp; i++)
        if (n->kind == N_BINARY && !strcmp(n->op, cmp[i]) && n->ty->kind == TY_VEC)
            n->ty = ty_vec(P->arena, TY_BOOL, n->ty->n);
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
    } else if (!strcmp(n->op, "&")) {
        n->kind = N_ADDR;
    } else if (!strncmp(n->op, "sizeof", 6) || !strncmp(n->op, "alignof", 7)) {
        return unsupported(P, c, n->op);
    }
    if (!strcmp(n->op, "!") && n->ty->kind == TY_VEC)
        n->ty = ty_vec(P->arena, TY_BOOL, n->ty->n);
    return n;
}

static Node *conv_kids_list(Parser *P, CXCursor c, NodeKind kind)
{
    Kids k = kids_of(c);
    Node *n = new_node(P, kind, c);
    n->ty = conv_type(P, clang_getCursorType(c));
    n->n_list = k.len;
    n->list = arena_alloc(P->arena, sizeof(Node *) * (size_t)(k.len + 1));
    for (int i = 0; i < k.len; i++)
        n->list[i] = conv_expr(P, k.items[i]);
    free(k.items);
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

static Node *conv_member(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    if (k.len != 1) {
        free(k.items);
        return unsupported(P, c, "a member access without an object (static or implicit this)");
    }
    Node *n = new_node(P, N_MEMBER, c);
    n->a = conv_expr(P, k.items[0]);
    free(k.items);
    n->name = cx_take(P, clang_getCursorSpelling(c));
    n->ty = conv_type(P, clang_getCursorType(c));
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
    return n;
}

/* Every expression cursor becomes a Node; what is not handled is an error naming it. */
static Node *conv_expr(Parser *P, CXCursor c)
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
        return n;
    }
    case CXCursor_CallExpr:
        return conv_call(P, c);
    case CXCursor_MemberRefExpr:
        return conv_member(P, c);
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXStaticCastExpr:
        return conv_cast(P, c);
    case CXCursor_CXXReinterpretCastExpr:
        return unsupported(P, c, "reinterpret_cast");
    case CXCursor_CXXConstCastExpr:
        return unsupported(P, c, "const_cast");
    case CXCursor_InitListExpr:
        return conv_kids_list(P, c, N_INITLIST);
    case CXCursor_CompoundLiteralExpr: {
        Kids k = kids_of(c);
        Node *n = k.len == 1 ? conv_expr(P, k.items[0]) : NULL;
        free(k.items);
        return n ? n : unsupported(P, c, "this compound literal");
    }
    case CXCursor_UnaryExpr:
        return unsupported(P, c, "sizeof/alignof");
    case CXCursor_LambdaExpr:
        return unsupported(P, c, "lambda expressions");
    case CXCursor_CXXThisExpr:
        return unsupported(P, c, "'this'");
    case CXCursor_CXXNullPtrLiteralExpr:
        return unsupported(P, c, "nullptr");
    case CXCursor_CXXNewExpr:
    case CXCursor_CXXDeleteExpr:
        return unsupported(P, c, "new/delete");
    case CXCursor_StringLiteral:
        return unsupported(P, c, "string literals");
    default:
        return unsupported(P, c, arena_printf(P->arena, "the expression kind %s", cx_take(P, clang_getCursorKindSpelling(clang_getCursorKind(c)))));
    }
}

/* ---- statements ---- */

/* Whether child expression E of declaration C is an array bound (`float a[N]`) rather than its initializer. */
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
    clang_visitChildren(clang_getCursorSemanticParent(callee), find_constructor, &declared);
    return !declared;
}

static Var *conv_vardecl(Parser *P, CXCursor c, VarKind kind)
{
    Var *v = arena_alloc(P->arena, sizeof *v);
    v->name = cx_take(P, clang_getCursorSpelling(c));
    v->glsl_name = names_legal(P->arena, v->name);
    v->ty = conv_type(P, clang_getCursorType(c));
    v->kind = kind;
    v->loc = loc_of(P, c);
    CXType t = clang_getCursorType(c);
    v->is_constexpr = clang_isConstQualifiedType(t);
    map_put(P, usr_key(P, c), v);
    Kids k = kids_of(c);
    if (k.len > 0 && clang_isExpression(clang_getCursorKind(k.items[k.len - 1])) && !is_array_bound(P, c, k.items[k.len - 1]) &&
        !is_default_construction(k.items[k.len - 1]))
        v->init = conv_expr(P, k.items[k.len - 1]);
    free(k.items);
    CXType ct = clang_getCanonicalType(t);
    bool local = clang_getAddressSpace(ct) == 2;
    for (CXType e = ct; !local && (e.kind == CXType_ConstantArray || e.kind == CXType_IncompleteArray);) {
        e = clang_getArrayElementType(e);
        local = clang_getAddressSpace(e) == 2;
    }
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
            if (kk == CXCursor_StructDecl || kk == CXCursor_TypedefDecl || kk == CXCursor_TypeAliasDecl)
                continue;
            unsupported(P, k.items[i], "this local declaration");
            continue;
        }
        Node *d = new_node(P, N_VARDEF, k.items[i]);
        d->var = conv_vardecl(P, k.items[i], VAR_LOCAL);
        n->list[n->n_list++] = d;
    }
    free(k.items);
    return n;
}

/* for (init; cond; inc) body: libclang omits the parts that are missing, so each child is placed by its
   position relative to the two ';' of the header. */
static Node *conv_for(Parser *P, CXCursor c)
{
    Kids k = kids_of(c);
    Node *n = new_node(P, N_FOR, c);
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

static Node *conv_children_stmt(Parser *P, CXCursor c, NodeKind kind)
{
    Kids k = kids_of(c);
    Node *n = new_node(P, kind, c);
    switch (kind) {
    case N_IF:
        if (k.len < 2 || k.len > 3 || clang_getCursorKind(k.items[0]) == CXCursor_VarDecl) {
            free(k.items);
            return unsupported(P, c, "an if statement with an initializer or declaration");
        }
        n->a = conv_expr(P, k.items[0]);
        n->b = conv_stmt(P, k.items[1]);
        n->c = k.len == 3 ? conv_stmt(P, k.items[2]) : NULL;
        break;
    case N_WHILE:
    case N_SWITCH:
        if (k.len != 2 || clang_getCursorKind(k.items[0]) == CXCursor_VarDecl) {
            free(k.items);
            return unsupported(P, c, "a condition with a declaration");
        }
        n->a = conv_expr(P, k.items[0]);
        n->d = conv_stmt(P, k.items[1]);
        break;
    case N_DO:
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
        break;
    default:
        break;
    }
    free(k.items);
    return n;
}

static Node *conv_stmt(Parser *P, CXCursor c)
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
        unsupported(P, c, "range-based for");
        return new_node(P, N_EMPTY, c);
    case CXCursor_GCCAsmStmt:
        unsupported(P, c, "inline assembly");
        return new_node(P, N_EMPTY, c);
    default:
        if (clang_isExpression(k)) {
            Node *n = new_node(P, N_EXPRSTMT, c);
            n->a = conv_expr(P, c);
            return n;
        }
        unsupported(P, c, arena_printf(P->arena, "the statement kind %s", cx_take(P, clang_getCursorKindSpelling(k))));
        return new_node(P, N_EMPTY, c);
    }
}

/* ---- functions ---- */

/* The attribute groups between offsets [from, to). */
static void attrs_between(Parser *P, unsigned from, unsigned to, AttrGroup **out, int *n, int max)
{
    *n = 0;
    for (int i = 0; i < P->n_attrs && *n < max; i++)
        if (P->attrs[i].offset >= from && P->attrs[i].offset < to)
            out[(*n)++] = &P->attrs[i];
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
    *arg = paren ? atoi(paren + 1) : -1;
    if (!strcmp(name, "buffer"))
        return ATTR_COUNT; /* buffer index */
    if (!strcmp(name, "threadgroup"))
        return ATTR_COUNT + 1; /* threadgroup memory index */
    for (int i = 0; i < ATTR_COUNT; i++)
        if (!strcmp(attr_table[i].name, name))
            return i;
    return -2;
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
        } else {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(g[i]->text, "( "), g[i]->text);
            diag_error(P->diag, g[i]->loc, "attribute [[%s]] is not supported yet", name);
        }
    }
}

static void conv_params(Parser *P, Func *f, CXCursor c)
{
    int np = clang_Cursor_getNumArguments(c);
    f->n_params = np < 0 ? 0 : np;
    f->params = arena_alloc(P->arena, sizeof(Var *) * (size_t)(f->n_params + 1));
    unsigned body_start = offset_of(clang_getRangeEnd(clang_getCursorExtent(c)));
    Kids k = kids_of(c);
    for (int i = 0; i < k.len; i++)
        if (clang_getCursorKind(k.items[i]) == CXCursor_CompoundStmt)
            body_start = offset_of(clang_getRangeStart(clang_getCursorExtent(k.items[i])));
    free(k.items);
    for (int i = 0; i < f->n_params; i++) {
        CXCursor pc = clang_Cursor_getArgument(c, (unsigned)i);
        Var *v = arena_alloc(P->arena, sizeof *v);
        v->name = cx_take(P, clang_getCursorSpelling(pc));
        if (!*v->name)
            v->name = arena_printf(P->arena, "unnamed%d", i);
        v->glsl_name = names_legal(P->arena, v->name);
        v->ty = conv_type(P, clang_getCursorType(pc));
        v->kind = VAR_PARAM;
        v->loc = loc_of(P, pc);
        v->index = -1;
        v->builtin = -1;
        v->tg_index = -1;
        map_put(P, usr_key(P, pc), v);
        f->params[i] = v;
        if (f->is_kernel) {
            unsigned from = offset_of(clang_getCursorLocation(pc));
            unsigned to = i + 1 < f->n_params ? offset_of(clang_getCursorLocation(clang_Cursor_getArgument(c, (unsigned)i + 1))) : body_start;
            AttrGroup *g[8];
            int n;
            attrs_between(P, from, to, g, &n, 8);
            param_attributes(P, v, g, n);
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

static void parse_body(Parser *P, Func *f, CXCursor c)
{
    if (f->parsed)
        return;
    f->parsed = true;
    CXCursor body = body_of(c);
    if (clang_Cursor_isNull(body)) {
        diag_error(P->diag, f->loc, "'%s' is declared but never defined", f->name);
        return;
    }
    Func *saved = P->cur_func;
    P->cur_func = f;
    int before = P->diag->n_errors;
    f->body = conv_stmt(P, body);
    f->had_errors = P->diag->n_errors > before;
    P->cur_func = saved;
}

/* The model of a user function (parsed once, on first call). */
static Func *get_func(Parser *P, CXCursor decl)
{
    CXCursor def = clang_getCursorDefinition(decl);
    CXCursor c = clang_Cursor_isNull(def) ? decl : def;
    char *key = usr_key(P, clang_getCanonicalCursor(c));
    Func *f = map_get(P, key);
    if (f)
        return f;
    f = arena_alloc(P->arena, sizeof *f);
    map_put(P, key, f);
    f->name = cx_take(P, clang_getCursorSpelling(c));
    f->glsl_name = names_legal(P->arena, f->name);
    f->loc = loc_of(P, c);
    f->ret = conv_type(P, clang_getCursorResultType(c));
    if (clang_getCursorKind(c) == CXCursor_FunctionTemplate || clang_getTemplateCursorKind(c) != CXCursor_NoDeclFound ||
        !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c))) {
        diag_error(P->diag, loc_of(P, decl), "function templates are not supported yet (calling '%s')", f->name);
        f->parsed = true;
        return f;
    }
    conv_params(P, f, c);
    parse_body(P, f, c);
    return f;
}

static Var *get_global(Parser *P, CXCursor decl)
{
    char *key = usr_key(P, decl);
    Var *v = map_get(P, key);
    if (v)
        return v;
    CXCursor def = clang_getCursorDefinition(decl);
    v = conv_vardecl(P, clang_Cursor_isNull(def) ? decl : def, VAR_GLOBAL);
    map_put(P, key, v);
    v->is_constexpr = true;
    if (!v->init)
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

/* Function-level attributes written before the function's name. */
static void kernel_attributes(Parser *P, Func *f, unsigned from, unsigned to)
{
    AttrGroup *g[8];
    int n;
    attrs_between(P, from, to, g, &n, 8);
    for (int i = 0; i < n; i++) {
        int arg;
        attr_lookup(g[i]->text, &arg);
        if (!strncmp(g[i]->text, "max_total_threads_per_threadgroup", 33) && arg > 0)
            f->max_threads = arg;
        else if (strcmp(g[i]->text, "kernel") != 0) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(g[i]->text, "( "), g[i]->text);
            diag_error(P->diag, g[i]->loc, "attribute [[%s]] is not supported yet", name);
        }
    }
}

typedef struct TopVisit {
    Parser *P;
    unsigned prev_end;
    int owned_errors; /* clang errors inside some kernel */
} TopVisit;

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    TopVisit *tv = data;
    Parser *P = tv->P;
    if (!in_main_file(P, c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXSourceRange ext = clang_getCursorExtent(c);
    unsigned start = offset_of(clang_getRangeStart(ext)), end = offset_of(clang_getRangeEnd(ext));
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
        clang_visitChildren(c, visit_top, tv);
    } else if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && clang_isCursorDefinition(c) && is_kernel_decl(P, c)) {
        if (k == CXCursor_FunctionTemplate) {
            diag_error(P->diag, loc_of(P, c), "kernel templates are not supported yet");
        } else {
            Func *f = arena_alloc(P->arena, sizeof *f);
                    f->name = cx_take(P, clang_getCursorSpelling(c));
            f->glsl_name = "main";
            f->loc = loc_of(P, c);
            f->is_kernel = true;
            f->ret = conv_type(P, clang_getCursorResultType(c));
            map_put(P, usr_key(P, c), f);
            kernel_attributes(P, f, tv->prev_end, offset_of(clang_getCursorLocation(c)));
            pv_push(&P->prog->kernels, f);
            int owned = 0;
            for (int i = 0; i < P->n_error_offsets; i++)
                owned += P->error_offsets[i] >= start && P->error_offsets[i] < end;
            tv->owned_errors += owned;
            if (owned) {
                f->had_errors = f->parsed = true; /* its body is not what the source says: no model */
            } else {
                conv_params(P, f, c);
                parse_body(P, f, c);
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

static enum CXChildVisitResult find_kernel_templates(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    Parser *P = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!in_main_file(P, c))
        return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    if (k == CXCursor_FunctionTemplate && is_kernel_decl(P, c) && P->n_quiet < 64) {
        CXSourceRange ext = clang_getCursorExtent(c);
        P->quiet[P->n_quiet][0] = offset_of(clang_getRangeStart(ext));
        P->quiet[P->n_quiet++][1] = offset_of(clang_getRangeEnd(ext));
    }
    return CXChildVisit_Continue;
}

static bool in_quiet_range(Parser *P, unsigned off)
{
    for (int i = 0; i < P->n_quiet; i++)
        if (off >= P->quiet[i][0] && off < P->quiet[i][1])
            return true;
    return false;
}

/* Prints clang's diagnostics in our format. Errors inside a kernel template are left to the translator's own
   "kernel templates are not supported yet", which OpenCL's rules for kernels would otherwise bury. */
static void report_clang_diagnostics(Parser *P)
{
    clang_visitChildren(clang_getTranslationUnitCursor(P->tu), find_kernel_templates, P);
    unsigned n = clang_getNumDiagnostics(P->tu);
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
        if (f) {
            loc = (SrcLoc){cx_take(P, clang_getFileName(f)), (int)line, (int)col};
            if (clang_File_isEqual(f, P->main_file))
                loc = main_file_loc(P, sl, (int)line, (int)col);
        }
        if (f && clang_File_isEqual(f, P->main_file) && in_quiet_range(P, off)) {
            clang_disposeDiagnostic(d);
            continue;
        }
        char *msg = cx_take(P, clang_getDiagnosticSpelling(d));
        if (strstr(msg, "cannot be used as the type of a kernel parameter") && msg[0] == '\'')
            msg = arena_printf(P->arena, "%s is not supported yet (kernel parameter)", metal_type_name(P, msg + 1));
        if (sev >= CXDiagnostic_Error && f && clang_File_isEqual(f, P->main_file) && P->n_error_offsets < 256)
            P->error_offsets[P->n_error_offsets++] = off;
        if (sev >= CXDiagnostic_Error)
            diag_error(P->diag, loc, "%s", msg);
        else
            diag_warning(P->diag, loc, "%s", msg);
        clang_disposeDiagnostic(d);
    }
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = 0, *len = (size_t)n;
    return buf;
}

/* Records each file the translation unit read (the source, its headers, the prelude) once, for depfiles. */
static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack, (void)depth;
    Parser *P = data;
    char *name = cx_take(P, clang_getFileName(file));
    for (int i = 0; i < P->prog->includes.len; i++)
        if (!strcmp(P->prog->includes.items[i], name))
            return;
    pv_push(&P->prog->includes, name);
}

bool parse_program(Program *prog, const ParseOptions *opt)
{
    Parser P = {.prog = prog, .arena = prog->arena, .diag = prog->diag, .main_path = opt->path};
    size_t len = opt->text ? strlen(opt->text) : 0;
    char *text = opt->text ? strdup(opt->text) : read_file(opt->path, &len);
    if (!text) {
        diag_error(prog->diag, (SrcLoc){0}, "cannot read '%s'", opt->path);
        return false;
    }
    extract_attributes(&P, text, len);

    const char *args[64];
    int na = 0;
    args[na++] = "-x";
    args[na++] = "clcpp";
    args[na++] = "-cl-std=clc++2021";
    args[na++] = "-cl-no-stdinc";
    args[na++] = "-ffp-contract=off";
    args[na++] = "-Wno-unknown-attributes";
    args[na++] = "-Wno-unused-value";
    args[na++] = "-D__METAL_VERSION__=310";
    args[na++] = "-D__METAL_MACOS__";
    args[na++] = "-D__HAVE_MTL2GLSL__=1";
    args[na++] = "-isystem";
    args[na++] = opt->grammar_dir;
    for (int i = 0; opt->include_dirs && opt->include_dirs[i] && na < 56; i++) {
        args[na++] = "-I";
        args[na++] = opt->include_dirs[i];
    }
    for (int i = 0; opt->defines && opt->defines[i] && na < 62; i++)
        args[na++] = arena_printf(prog->arena, "-D%s", opt->defines[i]);

    CXIndex index = clang_createIndex(0, 0);
    struct CXUnsavedFile unsaved = {opt->path, text, (unsigned long)len};
    enum CXErrorCode err = clang_parseTranslationUnit2(index, opt->path, args, na, &unsaved, 1,
                                                       CXTranslationUnit_KeepGoing, &P.tu);
    bool ok = false;
    if (err != CXError_Success || !P.tu) {
        diag_error(prog->diag, (SrcLoc){0}, "libclang could not parse '%s' (error %d)", opt->path, (int)err);
        goto done;
    }
    P.main_file = clang_getFile(P.tu, opt->path);
    int before = prog->diag->n_errors;
    report_clang_diagnostics(&P);
    int clang_errors = prog->diag->n_errors - before;
    clang_getInclusions(P.tu, visit_inclusion, &P);
    TopVisit tv = {&P, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(P.tu), visit_top, &tv);
    /* errors that no kernel owns (globals, helpers' syntax, headers) stop the whole file */
    ok = clang_errors == tv.owned_errors;
done:
    if (P.tu)
        clang_disposeTranslationUnit(P.tu);
    clang_disposeIndex(index);
    free(P.map);
    free(text);
    return ok;
}
