/* emit_glsl.c: prints one lowered kernel as a GLSL 450 compute shader.
 *
 * Printing only: statement() / begin_scope() / end_scope() keep the kernel's own names, structure and
 * indentation. What the printer needs beyond the text (extensions, helper instances) it records in Lowered.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Uniform control flow (sync.c): the predicate of the statements being printed, as variables. */
typedef struct Flow {
    const char *stat; /* condition variable of the enclosing made-uniform if, or loop flag; NULL: none */
    const char *brk;  /* cleared by a break of the enclosing made-uniform loop; NULL: none */
    const char *cont; /* cleared by a continue of it; NULL: none */
} Flow;

typedef struct Emit {
    Program *prog;
    Lowered *L;
    StrBuf out;
    int indent;
    Func *fn;
    /* uniform control flow */
    bool uniform;         /* printing a kernel body whose control flow is made uniform */
    Flow flow;
    bool may_have_returned; /* a return may have run before the statement being printed */
    int real_depth;       /* plain loops and switches entered inside a predicated statement */
    int real_loops;       /* plain loops among them */
    int tmp;              /* counter for mtl_s / mtl_c / mtl_l / mtl_k names */
    Node **subst_node;    /* SIMD calls already computed into a variable (arena arrays, grown by doubling) */
    const char **subst_name;
    int n_subst, cap_subst;
    bool need_workgroup_any;
    int pred_depth;       /* `if (predicate)` blocks open: no synchronizing call may be printed inside one */
    bool need_bfloat; /* mtl_bf16_to_float / mtl_float_to_bf16 */
    bool need_bfloat_vec[5]; /* their overloads for bfloat2..4 */
    bool need_cas[TY_UNSUPPORTED]; /* per atomic element kind: the compare-exchange temporary */
    bool atomic_bits;     /* printing an atomic<float> object through its buffer's uint view */
    StrBuf atomic_helpers; /* float atomic min/max loops, one per buffer and function */
    bool need_float_less;
    bool need_u64x2;     /* as_type between (u)long2 and 16-byte types of 32-bit components */
    PtrSpec *spec; /* ptr.c: which root each pointer of the function being printed points into */
    const Node *bool_raw; /* a stored bool (layout.c) printed as its uint8_t: the target of an assignment */
    bool ref_assigned; /* the statement printed `p_ref = ...;` already (pointers chosen at run time) */
    StrBuf ptr_helpers;       /* mtl_load_ROOT_T / mtl_store_ROOT_T: memory read member by member */
    PtrVec ptr_helper_names;  /* char*: the ones printed */
    StrBuf value_helpers;     /* mtl_value_T: a struct read from memory as a plain value (emit_struct_operand) */
} Emit;

typedef struct HelperInfo {
    const char *name;
    char kind;
    const char *scalar_text, *vector_text;
} HelperInfo;

static const HelperInfo helper_table[] = {
#define HELPER(name, kind, s, v) {#name, #kind[0], s, v},
#include "helpers.def"
#undef HELPER
};

static void emit_expr(Emit *E, Node *n, int min_prec);
static void emit_stmt(Emit *E, Node *n);
static void emit_ptr_index(Emit *E, Node *n);
static void emit_offset(Emit *E, Node *k, int prec);
static void emit_offset_times(Emit *E, Node *k, int step, int prec);
static void emit_index_in(Emit *E, Node *n, int unit);
static bool emit_place_store(Emit *E, Node *n, int min_prec);
static Node *strip_parens(Node *n);
static bool has_side_effects(Node *n);
static void emit_coerced(Emit *E, Node *n, Type *t, int min_prec);
static bool is_dynamic(Emit *E, Var *v);
static void emit_ref(Emit *E, Node *n, Type *elem);
static void emit_struct_operand(Emit *E, Node *n, Type *t, int min_prec);
static void emit_condition(Emit *E, Node *n, int min_prec);
static const char *ref_type(Emit *E, Type *elem);
static Var *dynamic_pointer_array(Emit *E, Node *n);

/* ---- types ---- */

static const char *scalar_glsl(Emit *E, TypeKind k)
{
    switch (k) {
    case TY_BOOL: return "bool";
    case TY_CHAR: E->L->need_int8 = true; return "int8_t";
    case TY_UCHAR: E->L->need_int8 = true; return "uint8_t";
    case TY_SHORT: E->L->need_int16 = true; return "int16_t";
    case TY_USHORT: E->L->need_int16 = true; return "uint16_t";
    case TY_INT:
    case TY_ENUM: return "int";
    case TY_UINT: return "uint";
    case TY_LONG: E->L->need_int64 = true; return "int64_t";
    case TY_ULONG: E->L->need_int64 = true; return "uint64_t";
    case TY_HALF: E->L->need_float16 = true; return "float16_t";
    case TY_BFLOAT: E->L->need_int16 = true; return "uint16_t"; /* bits; arithmetic goes through float */
    case TY_FLOAT:
    case TY_DOUBLE: return "float";
    case TY_VOID: return "void";
    default: return "?";
    }
}

static const char *vec_prefix(Emit *E, TypeKind k)
{
    switch (k) {
    case TY_BOOL: return "b";
    case TY_CHAR: E->L->need_int8 = true; return "i8";
    case TY_UCHAR: E->L->need_int8 = true; return "u8";
    case TY_SHORT: E->L->need_int16 = true; return "i16";
    case TY_USHORT: E->L->need_int16 = true; return "u16";
    case TY_INT: return "i";
    case TY_UINT: return "u";
    case TY_LONG: E->L->need_int64 = true; return "i64";
    case TY_ULONG: E->L->need_int64 = true; return "u64";
    case TY_HALF: E->L->need_float16 = true; return "f16";
    case TY_BFLOAT: E->L->need_int16 = true; return "u16"; /* bits, as bfloat */
    default: return "";
    }
}

/* GLSL spelling of a value type (arrays: the element type; see array_suffix). */
static const char *glsl_type(Emit *E, Type *t)
{
    switch (t->kind) {
    case TY_VEC:
        return arena_printf(E->prog->arena, "%svec%d", vec_prefix(E, t->elem->kind), t->n);
    case TY_STRUCT:
        if (t->sdef->is_union) { /* a union value (a local, a function's result): the unsigned integer of its size */
            int size = ty_metal_size(t);
            if (size == 1 || size == 2 || size == 4 || size == 8)
                return scalar_glsl(E, size == 1 ? TY_UCHAR : size == 2 ? TY_USHORT : size == 4 ? TY_UINT : TY_ULONG);
        }
        return t->sdef->glsl_name;
    case TY_ARRAY:
        return glsl_type(E, t->elem);
    case TY_REF:
    case TY_ATOMIC:
        return glsl_type(E, t->elem);
    case TY_PTR:
        return "uint"; /* an index into the pointer's root (ptr.c) */
    case TY_MAT: /* floatCxR -> matCxR (matN when square) */
        if (t->n == t->elem->n)
            return arena_printf(E->prog->arena, "%smat%d", vec_prefix(E, t->elem->elem->kind), t->n);
        return arena_printf(E->prog->arena, "%smat%dx%d", vec_prefix(E, t->elem->elem->kind), t->n, t->elem->n);
    default:
        return scalar_glsl(E, t->kind);
    }
}

static const char *array_suffix(Emit *E, Type *t)
{
    if (t->kind == TY_REF) /* thread const T (&v)[N]: an array parameter */
        t = t->elem;
    if (t->kind != TY_ARRAY)
        return "";
    return arena_printf(E->prog->arena, "[%d]%s", t->n, array_suffix(E, t->elem));
}

/* Type with array dimensions, as a constructor name: float[4]. */
static const char *glsl_ctor_type(Emit *E, Type *t)
{
    return arena_printf(E->prog->arena, "%s%s", glsl_type(E, t), array_suffix(E, t));
}

/* GLSL spelling of a type in memory (buffers, struct members): a bool (vector) is its byte, uint8_t / u8vecN. */
static const char *storage_type(Emit *E, Type *t)
{
    while (t->kind == TY_ARRAY || t->kind == TY_REF)
        t = t->elem;
    if (ty_scalar_kind(t) != TY_BOOL)
        return glsl_type(E, t);
    E->L->need_int8 = true;
    return t->kind == TY_VEC ? arena_printf(E->prog->arena, "u8vec%d", t->n) : "uint8_t";
}

/* Whether a value of type T holds floating-point numbers (half, bfloat, float; in vectors, matrices, arrays and
   struct members). */
static bool holds_float(const Type *t, int depth)
{
    while (t && (t->kind == TY_ARRAY || t->kind == TY_REF || t->kind == TY_VEC || t->kind == TY_MAT))
        t = t->elem;
    if (!t || depth > 16)
        return false;
    if (t->kind == TY_STRUCT && t->sdef && !t->sdef->is_union) {
        for (int i = 0; i < t->sdef->n_fields; i++)
            if (holds_float(t->sdef->fields[i].ty, depth + 1))
                return true;
        return false;
    }
    return t->kind == TY_HALF || t->kind == TY_BFLOAT || t->kind == TY_FLOAT || t->kind == TY_DOUBLE;
}

/* "precise " before the declaration of a value of type T holding floats, unless -ffast-math: GLSL compilers may
   otherwise reassociate and contract the arithmetic that computes it (Vulkan drivers do: (x + c) - c becomes x),
   which Metal without fast math (MLX's -fno-fast-math, PyTorch's MTLMathModeSafe) does not. */
static const char *precise(Emit *E, const Type *t)
{
    return !E->prog->fast_math && holds_float(t, 0) ? "precise " : "";
}

/* ---- output ---- */

static void put(Emit *E, const char *s)
{
    sb_puts(&E->out, s);
}

static void putf(Emit *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(Emit *E, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sb_puts(&E->out, buf);
}

static void line_start(Emit *E)
{
    for (int i = 0; i < E->indent; i++)
        put(E, "    ");
}

static void begin_scope(Emit *E)
{
    line_start(E);
    put(E, "{\n");
    E->indent++;
}

static void end_scope(Emit *E)
{
    E->indent--;
    line_start(E);
    put(E, "}\n");
}

/* ---- literals ---- */

static void emit_float_value(Emit *E, double v, TypeKind k)
{
    char buf[64];
    if (isnan(v)) {
        put(E, k == TY_HALF ? "float16_t(uintBitsToFloat(0x7fc00000u))" : "uintBitsToFloat(0x7fc00000u)");
        return;
    }
    if (isinf(v) || fabs(v) > FLT_MAX || (k == TY_HALF && fabs(v) >= 65520.0)) { /* past the type: infinity */
        const char *inf = v > 0 ? "uintBitsToFloat(0x7f800000u)" : "uintBitsToFloat(0xff800000u)";
        putf(E, k == TY_HALF ? "float16_t(%s)" : "%s", inf);
        return;
    }
    float f = (float)v;
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, (double)f);
        if (strtof(buf, NULL) == f)
            break;
    }
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    if (k == TY_HALF) {
        E->L->need_float16 = true;
        putf(E, "%shf", buf);
    } else {
        put(E, buf);
    }
}

static void emit_int_value(Emit *E, long long v, Type *t)
{
    switch (ty_scalar_kind(t)) {
    case TY_UINT: putf(E, "%lluu", (unsigned long long)(unsigned)v); break;
    case TY_LONG: E->L->need_int64 = true; putf(E, "%lldl", v); break;
    case TY_ULONG: E->L->need_int64 = true; putf(E, "%lluul", (unsigned long long)v); break;
    case TY_BOOL: put(E, v ? "true" : "false"); break;
    case TY_FLOAT:
    case TY_DOUBLE:
    case TY_HALF: emit_float_value(E, (double)v, ty_scalar_kind(t)); break;
    case TY_CHAR:
    case TY_UCHAR:
    case TY_SHORT:
    case TY_USHORT: putf(E, "%s(%lld)", scalar_glsl(E, t->kind), v); break;
    default:
        if (v == -2147483648LL)
            put(E, "(-2147483647 - 1)");
        else
            putf(E, "%lld", v);
        break;
    }
}

/* A literal seen through implicit conversions is printed in its final type: 2 -> 2.0, 2 -> 2u. */
static bool emit_folded_literal(Emit *E, Node *n)
{
    if (!(n->kind == N_CAST && ty_is_scalar(n->ty)))
        return false;
    Node *lit = n->a;
    while (lit->kind == N_CAST && ty_is_scalar(lit->ty) && lit->implicit)
        lit = lit->a;
    if (lit->kind == N_INT || lit->kind == N_ENUMVAL || lit->kind == N_BOOL) {
        if (ty_is_float(n->ty))
            emit_float_value(E, (double)lit->ival, n->ty->kind);
        else if (n->ty->kind == TY_BOOL)
            put(E, lit->ival ? "true" : "false");
        else if (ty_is_integer(n->ty) && lit->ival >= 0)
            emit_int_value(E, lit->ival, n->ty);
        else
            return false;
        return true;
    }
    if (lit->kind == N_FLOAT && ty_is_float(n->ty)) {
        emit_float_value(E, lit->fval, n->ty->kind);
        return true;
    }
    return false;
}

/* ---- expressions ---- */

enum { PREC_ASSIGN = 1, PREC_COND = 2, PREC_OR = 3, PREC_AND = 5, PREC_BOR = 6, PREC_XOR = 7, PREC_BAND = 8,
       PREC_EQ = 9, PREC_REL = 10, PREC_SHIFT = 11, PREC_ADD = 12, PREC_MUL = 13, PREC_UNARY = 15, PREC_POSTFIX = 16 };

static int binary_prec(const char *op)
{
    static const struct { const char *op; int prec; } t[] = {
        {"||", PREC_OR}, {"&&", PREC_AND}, {"|", PREC_BOR}, {"^", PREC_XOR}, {"&", PREC_BAND},
        {"==", PREC_EQ}, {"!=", PREC_EQ}, {"<", PREC_REL}, {">", PREC_REL}, {"<=", PREC_REL}, {">=", PREC_REL},
        {"<<", PREC_SHIFT}, {">>", PREC_SHIFT}, {"+", PREC_ADD}, {"-", PREC_ADD}, {"*", PREC_MUL}, {"/", PREC_MUL}, {"%", PREC_MUL},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (!strcmp(t[i].op, op))
            return t[i].prec;
    return PREC_ASSIGN;
}

static void emit_args(Emit *E, Node **list, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            put(E, ", ");
        emit_expr(E, list[i], PREC_ASSIGN + 1);
    }
}

/* Prints N converted to type T when its model type differs (e.g. a bool vector stored into an int vector). */
static bool emit_bfloat_conversion(Emit *E, Node *from, Type *to);

static void emit_coerced(Emit *E, Node *n, Type *t, int min_prec)
{
    if (t && t->kind == TY_BOOL && n->ty && n->ty->kind == TY_PTR) {
        emit_condition(E, n, min_prec); /* if (p): p is not nullptr */
        return;
    }
    if (t && n->ty && emit_bfloat_conversion(E, n, t))
        return;
    if (t && n->ty && t->kind != TY_ARRAY && t->kind != TY_STRUCT && ty_width(t) && ty_width(n->ty) && !ty_equal(t, n->ty) &&
        !(ty_scalar_kind(t) == ty_scalar_kind(n->ty) && ty_width(t) == ty_width(n->ty))) {
        put(E, glsl_type(E, t));
        put(E, "(");
        emit_expr(E, n, PREC_ASSIGN + 1);
        put(E, ")");
        return;
    }
    emit_expr(E, n, min_prec);
}

/* A scalar splat that GLSL arithmetic does not need: v * 2.0 instead of v * vec4(2.0). */
static Node *unsplat(Node *n)
{
    if (n->kind == N_CAST && n->implicit && n->ty->kind == TY_VEC && ty_is_scalar(n->a->ty))
        return n->a;
    return n;
}

static void emit_vector_compare(Emit *E, Node *n)
{
    static const struct { const char *op, *fn; } t[] = {
        {"<", "lessThan"}, {">", "greaterThan"}, {"<=", "lessThanEqual"}, {">=", "greaterThanEqual"},
        {"==", "equal"}, {"!=", "notEqual"},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        if (strcmp(t[i].op, n->op))
            continue;
        putf(E, "%s(", t[i].fn);
        emit_expr(E, n->a, PREC_ASSIGN + 1);
        put(E, ", ");
        emit_expr(E, n->b, PREC_ASSIGN + 1);
        put(E, ")");
        return;
    }
    diag_error(E->prog->diag, n->loc, "operator '%s' on bool vectors is not supported yet", n->op);
}

static bool has_side_effects(Node *n);
static void emit_switch_value(Emit *E, Node *n);
static void need_helper(Emit *E, const char *name, Type *t);

static bool signed_integer(const Type *t)
{
    TypeKind k = ty_scalar_kind(t);
    return k == TY_CHAR || k == TY_SHORT || k == TY_INT || k == TY_LONG;
}

/* a % b on signed integers: C truncates, GLSL leaves negative operands undefined (NVIDIA differs). */
static void emit_signed_rem(Emit *E, Node *a, Node *b, Type *t, SrcLoc loc)
{
    if (ty_scalar_kind(t) == TY_INT) {
        need_helper(E, "mtl_rem", t);
        put(E, "mtl_rem(");
        emit_coerced(E, a, t, PREC_ASSIGN + 1);
        put(E, ", ");
        emit_coerced(E, unsplat(b), t, PREC_ASSIGN + 1);
        put(E, ")");
        return;
    }
    if (has_side_effects(a) || has_side_effects(b))
        diag_error(E->prog->diag, loc, "%% on %s operands with side effects is not supported yet", ty_metal_name(E->prog->arena, t));
    putf(E, "%s(", glsl_type(E, t)); /* of T: `short %= int` (ggml's cch %= chpb) computes in int */
    emit_expr(E, a, PREC_ADD);
    put(E, " - ");
    emit_expr(E, b, PREC_MUL);
    put(E, " * (");
    emit_expr(E, a, PREC_MUL);
    put(E, " / ");
    emit_expr(E, b, PREC_MUL + 1);
    put(E, "))");
}

static void emit_binary(Emit *E, Node *n, int min_prec)
{
    if (n->ty->kind == TY_VEC && n->ty->elem->kind == TY_BOOL && binary_prec(n->op) >= PREC_OR && binary_prec(n->op) <= PREC_REL &&
        n->a->ty->kind == TY_VEC) {
        if (!strcmp(n->op, "&&") || !strcmp(n->op, "||") || !strcmp(n->op, "&") || !strcmp(n->op, "|") || !strcmp(n->op, "^")) {
            /* component-wise logic on bool vectors */
            const char *op = n->op[0] == '&' ? "&" : n->op[0] == '|' ? "|" : "^";
            int w = n->ty->n;
            putf(E, "bvec%d(uvec%d(", w, w);
            emit_expr(E, n->a, PREC_ASSIGN + 1);
            putf(E, ") %s uvec%d(", op, w);
            emit_expr(E, n->b, PREC_ASSIGN + 1);
            put(E, "))");
            return;
        }
        emit_vector_compare(E, n);
        return;
    }
    if (!strcmp(n->op, "%") && signed_integer(n->ty)) {
        emit_signed_rem(E, n->a, n->b, n->ty, n->loc);
        return;
    }
    if (!strcmp(n->op, ",")) { /* the sequence operator, always in parentheses (it binds below assignment) */
        put(E, "(");
        emit_expr(E, n->a, PREC_ASSIGN);
        put(E, ", ");
        emit_expr(E, n->b, PREC_ASSIGN);
        put(E, ")");
        return;
    }
    int prec = binary_prec(n->op);
    bool paren = prec < min_prec;
    if (paren)
        put(E, "(");
    emit_expr(E, unsplat(n->a), prec);
    putf(E, " %s ", n->op);
    emit_expr(E, unsplat(n->b), prec + 1);
    if (paren)
        put(E, ")");
}

static bool is_increment(const Node *n)
{
    return n->kind == N_POSTFIX || (n->kind == N_UNARY && (!strcmp(n->op, "++") || !strcmp(n->op, "--")));
}

/* An atomic operation is a side effect too: `out[atomic_fetch_add_explicit(c, 1, ...)] %= 3` printed as
   `out[i] = mtl_rem(out[i], 3)` would add twice. */
static bool has_side_effects(Node *n)
{
    if (!n)
        return false;
    if (n->kind == N_ASSIGN || n->kind == N_CALL || n->kind == N_ATOMIC || is_increment(n))
        return true;
    if (has_side_effects(n->a) || has_side_effects(n->b) || has_side_effects(n->c))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (has_side_effects(n->list[i]))
            return true;
    return false;
}

static bool func_is_pure(Func *f, int depth);

/* A write in F's body that stays in F: to one of its own value locals or by-value parameters (an element or member
   of one included), never through a pointer, a reference, an inout parameter or threadgroup memory. */
static bool local_write_target(Func *f, Node *t)
{
    for (;;) {
        t = strip_parens(t);
        if ((t->kind == N_INDEX || t->kind == N_MEMBER || t->kind == N_SWIZZLE) && t->a && t->a->ty &&
            t->a->ty->kind != TY_PTR && t->a->ty->kind != TY_REF)
            t = t->a;
        else
            break;
    }
    if (t->kind != N_VAR)
        return false;
    Var *v = t->var;
    return (v->kind == VAR_LOCAL || v->kind == VAR_PARAM) && v->owner == f && !v->is_out_param && !v->is_threadgroup &&
           v->role == PR_NONE && v->ty->kind != TY_REF && !v->captured;
}

/* Whether evaluating N twice computes the same values and changes nothing: no assignment, increment or atomic, and
   calls only of pure helpers (func_is_pure). An lvalue that is repeatable may be printed twice (x = f(x op y)). */
static bool repeatable_in(Node *n, int depth)
{
    if (!n)
        return true;
    if (n->kind == N_ASSIGN || n->kind == N_ATOMIC || is_increment(n)) /* (SIMD-group values are the same twice) */
        return false;
    if (n->kind == N_CALL && !(n->fn && func_is_pure(n->fn, depth + 1)))
        return false;
    if (!repeatable_in(n->a, depth) || !repeatable_in(n->b, depth) || !repeatable_in(n->c, depth))
        return false;
    for (int i = 0; i < n->n_list; i++)
        if (!repeatable_in(n->list[i], depth))
            return false;
    return true;
}

/* A statement or expression of F's body writes nothing outside F and calls only pure helpers. */
static bool body_is_pure(Func *f, Node *n, int depth)
{
    if (!n)
        return true;
    if (n->kind == N_ATOMIC || n->kind == N_SIMD)
        return false;
    if (n->kind == N_ASSIGN || is_increment(n)) {
        if (!local_write_target(f, n->a))
            return false;
    } else if (n->kind == N_CALL && !(n->fn && func_is_pure(n->fn, depth + 1))) {
        return false;
    } else if (n->kind == N_VARDEF && !body_is_pure(f, n->var->init, depth)) {
        return false;
    }
    if (!body_is_pure(f, n->a, depth) || !body_is_pure(f, n->b, depth) || !body_is_pure(f, n->c, depth) ||
        !body_is_pure(f, n->d, depth))
        return false;
    for (int i = 0; i < n->n_list; i++)
        if (!body_is_pure(f, n->list[i], depth))
            return false;
    return true;
}

/* A helper whose calls may be repeated: its body (c10's ref_at_offs, which only computes an index) writes nothing
   but its own locals. Recursion is refused before emission; DEPTH bounds the walk all the same. */
static bool func_is_pure(Func *f, int depth)
{
    if (depth > 32 || !f->body || f->is_kernel || f->uniform_sync)
        return false;
    for (int i = 0; i < f->n_params; i++)
        if (f->params[i]->is_out_param)
            return false;
    return body_is_pure(f, f->body, depth);
}

static bool repeatable(Node *n)
{
    return repeatable_in(n, 0);
}

/* x op= y where C's conversions make GLSL's types disagree (char c += int) becomes x = T(x op y). */
static void emit_assign(Emit *E, Node *n, int min_prec)
{
    bool paren = PREC_ASSIGN < min_prec;
    if (paren)
        put(E, "(");
    Type *lt = n->a->ty;
    bool compound = strcmp(n->op, "=") != 0;
    Node *rhs = n->b;
    if (lt && lt->kind == TY_PTR) {
        /* p = q, p += k: index arithmetic; p_ref = too where p's buffer is chosen at run time */
        Node *a = strip_parens(n->a);
        if (!compound && a->kind == N_VAR && is_dynamic(E, a->var) && !E->ref_assigned) {
            putf(E, "%s_ref = ", a->var->glsl_name);
            emit_ref(E, rhs, ptr_ref_elem(E->spec, a->var));
            put(E, ", ");
        } else if (!compound && dynamic_pointer_array(E, a)) { /* rows[j] = p: rows_ref[j] = p's reference, then the index */
            if (has_side_effects(a->b))
                diag_error(E->prog->diag, n->loc, "an element of an array of pointers into buffers chosen at run time, with side effects in its index, is not supported yet");
            emit_ref(E, a, ptr_ref_elem(E->spec, dynamic_pointer_array(E, a)));
            put(E, " = ");
            emit_ref(E, rhs, ptr_ref_elem(E->spec, dynamic_pointer_array(E, a)));
            put(E, ", ");
        }
        E->ref_assigned = false;
        emit_expr(E, n->a, PREC_UNARY);
        putf(E, " %s ", n->op);
        int unit = ptr_unit(E->spec, n->a).unit;
        if (compound)
            emit_offset_times(E, rhs, ptr_elem_size(lt->elem) / unit, PREC_ASSIGN);
        else
            emit_index_in(E, rhs, unit);
        if (paren)
            put(E, ")");
        return;
    }
    if (emit_place_store(E, n, min_prec)) {
        if (paren)
            put(E, ")");
        return;
    }
    const Node *stored = layout_bool_target(n->a);
    if (stored) { /* a bool in memory: its byte written, uint8_t(b) / u8vecN(b) */
        if (compound || !lt || lt->kind == TY_ARRAY)
            diag_error(E->prog->diag, n->loc, "assignment to a bool array or with '%s' in memory is not supported yet", n->op);
        const Node *saved = E->bool_raw;
        E->bool_raw = stored;
        emit_expr(E, n->a, PREC_UNARY);
        E->bool_raw = saved;
        int w = ty_width(lt) ? ty_width(lt) : 1; /* (clang types a bool vector's component as int) */
        putf(E, " = %s(", storage_type(E, w > 1 ? ty_vec(E->prog->arena, TY_BOOL, w) : ty_scalar(TY_BOOL)));
        emit_expr(E, rhs, PREC_ASSIGN + 1);
        put(E, ")");
        if (paren)
            put(E, ")");
        return;
    }
    if (lt && ty_scalar_kind(lt) == TY_BFLOAT && compound) {
        /* bfloat x op= y: x = bfloat(float(x) op y), rounded once */
        char op[2] = {n->op[0], 0};
        if (!repeatable(n->a))
            diag_error(E->prog->diag, n->loc, "bfloat %s on an lvalue with side effects is not supported yet", n->op);
        if (n->name && min_prec > 0)
            diag_error(E->prog->diag, n->loc, "the value of a bfloat %s is not supported yet (write %c%cx)", n->name, n->name[1], n->name[1]);
        E->need_bfloat = true;
        E->need_bfloat_vec[ty_width(lt)] = ty_width(lt) > 1;
        emit_expr(E, n->a, PREC_UNARY);
        put(E, " = mtl_float_to_bf16(mtl_bf16_to_float(");
        emit_expr(E, n->a, PREC_ASSIGN + 1);
        putf(E, ") %s ", op);
        emit_coerced(E, unsplat(rhs), ty_vec(E->prog->arena, TY_FLOAT, rhs->ty ? ty_width(rhs->ty) : 1), binary_prec(op) + 1);
        put(E, ")");
        if (paren)
            put(E, ")");
        return;
    }
    if (!strcmp(n->op, "%=") && signed_integer(lt)) {
        if (!repeatable(n->a))
            diag_error(E->prog->diag, n->loc, "%%= on a signed integer lvalue with side effects is not supported yet");
        emit_expr(E, n->a, PREC_UNARY);
        put(E, " = ");
        /* char and short: C's promotion to int, then the result narrowed (ggml's `short cch; cch %= chpb;`) */
        bool narrow = ty_scalar_kind(lt) == TY_CHAR || ty_scalar_kind(lt) == TY_SHORT;
        if (narrow)
            putf(E, "%s(", glsl_type(E, lt));
        emit_signed_rem(E, n->a, rhs, narrow ? ty_scalar(TY_INT) : lt, n->loc);
        if (narrow)
            put(E, ")");
        if (paren)
            put(E, ")");
        return;
    }
    if (compound && rhs->ty && !ty_equal(lt, rhs->ty) && ty_width(rhs->ty) && !(ty_scalar_kind(lt) == ty_scalar_kind(rhs->ty)) &&
        lt->kind != TY_MAT) { /* m *= s: the prelude gave s the element type */
        if (!repeatable(n->a))
            diag_error(E->prog->diag, n->loc, "compound assignment with a converted operand to an expression with side effects is not supported yet");
        char op[4];
        snprintf(op, sizeof op, "%.*s", (int)strlen(n->op) - 1, n->op);
        emit_expr(E, n->a, PREC_UNARY);
        putf(E, " = %s(", glsl_type(E, lt));
        if (ty_scalar_kind(lt) == TY_BOOL) { /* MLX's `valid &= cond`: C++ promotes the bool to int, as clang did cond */
            putf(E, "%s(", glsl_type(E, rhs->ty));
            emit_expr(E, n->a, PREC_ASSIGN);
            put(E, ")");
        } else {
            emit_expr(E, n->a, binary_prec(op));
        }
        putf(E, " %s ", op);
        emit_expr(E, rhs, binary_prec(op) + 1);
        put(E, ")");
    } else {
        emit_expr(E, n->a, PREC_UNARY);
        putf(E, " %s ", n->op);
        if (compound)
            emit_expr(E, unsplat(rhs), PREC_ASSIGN);
        else
            emit_coerced(E, rhs, lt, PREC_ASSIGN);
    }
    if (paren)
        put(E, ")");
}

static unsigned fbits(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* mtl_float_to_bf16 at translation time: the upper 16 bits of F rounded to nearest even; a NaN stays quiet. */
static unsigned bf16_bits(float f)
{
    unsigned u = fbits(f);
    if (f != f)
        return (u >> 16) | 0x40u;
    return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}

/* Whether N is a number written in the source (through parentheses, negation and casts between float, double
   and bfloat, each bfloat rounding as Metal's does): its value. */
static bool bfloat_literal(Node *n, double *v)
{
    if (!n)
        return false;
    if (n->kind == N_PAREN)
        return bfloat_literal(n->a, v);
    if (n->kind == N_UNARY && (!strcmp(n->op, "-") || !strcmp(n->op, "+")) && bfloat_literal(n->a, v)) {
        *v = n->op[0] == '-' ? -*v : *v; /* -numeric_limits<bfloat>::infinity() */
        return true;
    }
    if (n->kind == N_CAST && n->ty && ty_is_scalar(n->ty) && (ty_scalar_kind(n->ty) == TY_FLOAT || ty_scalar_kind(n->ty) == TY_DOUBLE))
        return bfloat_literal(n->a, v) && (ty_scalar_kind(n->ty) == TY_DOUBLE || (*v = (float)*v, true));
    if (n->kind == N_CAST && n->ty && ty_is_scalar(n->ty) && ty_scalar_kind(n->ty) == TY_BFLOAT && bfloat_literal(n->a, v)) {
        unsigned b = bf16_bits((float)*v) << 16;
        float f;
        memcpy(&f, &b, sizeof f);
        *v = f;
        return true;
    }
    if (n->kind == N_FLOAT)
        *v = n->fval;
    else if (n->kind == N_INT && n->ty && ty_is_integer(n->ty) && n->ival > -(1ll << 53) && n->ival < (1ll << 53))
        *v = (double)n->ival;
    else
        return false;
    return true;
}

/* bfloat is its bits (uint16_t) in the GLSL: conversions to and from it go through float, rounding to nearest
   even as Metal does; a constant becomes its bits (`uint16_t(0x7f80u)`: program-scope constants such as MLX's
   Limits<bfloat>::max need a constant initializer). Returns false when neither side is bfloat (or both are). */
static bool emit_bfloat_conversion(Emit *E, Node *from, Type *to)
{
    bool fb = ty_scalar_kind(from->ty) == TY_BFLOAT, tb = ty_scalar_kind(to) == TY_BFLOAT;
    int w = ty_width(to);
    if (fb == tb || !w || !ty_width(from->ty) || (fb && ty_width(from->ty) != w))
        return false;
    E->need_bfloat = true;
    E->need_bfloat_vec[w] = w > 1;
    Type *f = ty_vec(E->prog->arena, TY_FLOAT, w);
    double v;
    Node *lit = fb && from->kind == N_CAST ? from->a : NULL;
    if (lit && lit->kind == N_CAST && lit->a)
        lit = lit->a;
    if (lit && w == 1 && (lit->kind == N_FLOAT || lit->kind == N_INT) && ty_scalar_kind(to) == TY_FLOAT) {
        v = lit->kind == N_INT ? (double)lit->ival : lit->fval;
        if ((fbits((float)v) & 0xffffu) == 0) { /* bfloat(2.0f) read as a float: 2.0, exact */
            emit_float_value(E, v, TY_FLOAT);
            return true;
        }
    }
    if (fb) {
        bool fl = ty_scalar_kind(to) == TY_FLOAT || ty_scalar_kind(to) == TY_DOUBLE;
        if (!fl)
            putf(E, "%s(", glsl_type(E, to));
        put(E, "mtl_bf16_to_float(");
        emit_expr(E, from, PREC_ASSIGN + 1);
        put(E, fl ? ")" : "))");
    } else if (w == 1 && bfloat_literal(from, &v)) { /* a constant (MLX's Limits<bfloat>::max, a program-scope const) */
        unsigned b = bf16_bits((float)v), u = b << 16; /* bfloat's bits, and the value they hold for the reader */
        float f;
        memcpy(&f, &u, sizeof f);
        putf(E, "uint16_t(0x%04xu /* %g */)", b, (double)f);
    } else {
        put(E, "mtl_float_to_bf16(");
        emit_coerced(E, from, f, PREC_ASSIGN + 1);
        put(E, ")");
    }
    return true;
}

static void emit_cast(Emit *E, Node *n)
{
    if (n->name && !strcmp(n->name, "address") && n->a->ty && n->a->ty->kind == TY_PTR) {
        /* reinterpret_cast<ulong>(p), only ever read modulo 1, 2 or 4 (parse.c, check_address_casts): p's byte offset
           into its buffer, whose start 32-bit elements can be read at */
        Var *r = ptr_root(E->spec, n->a);
        if (!r || r->role != PR_BUFFER) {
            diag_error(E->prog->diag, n->loc, "the address of a pointer into %s is not supported (only pointers into one buffer)",
                       r && r != &ptr_dynamic ? arena_printf(E->prog->arena, "'%s'", r->name) : "a buffer chosen at run time");
            return;
        }
        putf(E, "%s(", glsl_type(E, n->ty));
        emit_index_in(E, n->a, 1);
        put(E, ")");
        return;
    }
    if (n->a->ty && emit_bfloat_conversion(E, n->a, n->ty))
        return;
    if (emit_folded_literal(E, n))
        return;
    if ((n->a->ty && ty_equal(n->ty, n->a->ty)) || n->ty->kind == TY_VOID) { /* (void)x: x, its value unused */
        emit_expr(E, n->a, PREC_POSTFIX);
        return;
    }
    if (n->ty->kind == TY_STRUCT || n->ty->kind == TY_ARRAY || !ty_width(n->ty) || !n->a->ty || !ty_width(n->a->ty)) {
        diag_error(E->prog->diag, n->loc, "cast from %s to %s is not supported", n->a->ty ? ty_metal_name(E->prog->arena, n->a->ty) : "?",
                   ty_metal_name(E->prog->arena, n->ty));
        return;
    }
    put(E, glsl_type(E, n->ty));
    put(E, "(");
    emit_expr(E, n->a, PREC_ASSIGN + 1);
    put(E, ")");
}

static void emit_vecctor(Emit *E, Node *n)
{
    if (n->ty->kind == TY_MAT) { /* matrix.c checked the arguments; scalars in the element type */
        putf(E, "%s(", glsl_type(E, n->ty));
        for (int i = 0; i < n->n_list; i++) {
            put(E, i ? ", " : "");
            Node *lit = n->list[i];
            while (lit->kind == N_CAST && lit->implicit)
                lit = lit->a;
            if (lit->kind == N_INT) { /* float2x2(1, 0, 0, 1) */
                emit_float_value(E, (double)lit->ival, n->ty->elem->elem->kind);
                continue;
            }
            emit_coerced(E, n->list[i], n->list[i]->ty && ty_is_scalar(n->list[i]->ty) ? n->ty->elem->elem : NULL, PREC_ASSIGN + 1);
        }
        if (!n->n_list)
            emit_int_value(E, 0, n->ty->elem->elem);
        put(E, ")");
        return;
    }
    int want = ty_width(n->ty), have = 0;
    for (int i = 0; i < n->n_list; i++)
        have += n->list[i]->ty ? ty_width(n->list[i]->ty) : 0;
    if (!(n->n_list == 1 && (have == 1 || have == want)) && have != want)
        diag_error(E->prog->diag, n->loc, "%s constructor needs %d components, got %d", ty_metal_name(E->prog->arena, n->ty), want, have);
    put(E, glsl_type(E, n->ty));
    put(E, "(");
    emit_args(E, n->list, n->n_list);
    put(E, ")");
}

static const char *pad_type(Emit *E, int size);

/* The values of padding members in a struct constructor: "uint(0), " before a member, ", uint(0)" at the end. */
static void emit_pad_values(Emit *E, const unsigned char *pad, int n, bool trailing)
{
    for (int i = 0; i < n; i++)
        putf(E, trailing ? ", %s(0)" : "%s(0), ", pad_type(E, pad[i]));
}

static void emit_zero(Emit *E, Type *t);

/* Zero of a struct member: a bool one is its byte (uint8_t(0), uint8_t[2](uint8_t(0), uint8_t(0))). */
static void emit_zero_stored(Emit *E, Type *t)
{
    Type *e = t;
    while (e->kind == TY_ARRAY)
        e = e->elem;
    if (ty_scalar_kind(e) != TY_BOOL) {
        emit_zero(E, t);
        return;
    }
    if (t->kind == TY_ARRAY) {
        putf(E, "%s%s(", storage_type(E, t), array_suffix(E, t));
        for (int i = 0; i < t->n; i++) {
            put(E, i ? ", " : "");
            emit_zero_stored(E, t->elem);
        }
        put(E, ")");
        return;
    }
    putf(E, "%s(0)", storage_type(E, t));
}

static void emit_zero(Emit *E, Type *t)
{
    switch (t->kind) {
    case TY_ARRAY:
        putf(E, "%s(", glsl_ctor_type(E, t));
        for (int i = 0; i < t->n; i++) {
            if (i)
                put(E, ", ");
            emit_zero(E, t->elem);
        }
        put(E, ")");
        break;
    case TY_STRUCT:
        putf(E, "%s(", t->sdef->glsl_name);
        for (int i = 0; i < t->sdef->n_fields; i++) {
            if (i)
                put(E, ", ");
            emit_pad_values(E, t->sdef->fields[i].pad, t->sdef->fields[i].n_pad, false);
            emit_zero_stored(E, t->sdef->fields[i].ty);
        }
        emit_pad_values(E, t->sdef->tail_pad, t->sdef->n_tail_pad, true);
        put(E, ")");
        break;
    case TY_VEC:
    case TY_MAT: /* mat3(0.0): every element, not only the diagonal */
        putf(E, "%s(", glsl_type(E, t));
        emit_int_value(E, 0, t->kind == TY_MAT ? t->elem->elem : t->elem);
        put(E, ")");
        break;
    default:
        if (t->kind == TY_BFLOAT) { /* its bits: the zeros MLX's `bfloat c_elems[2] = {0}` leaves */
            putf(E, "%s(0)", glsl_type(E, t));
            break;
        }
        emit_int_value(E, 0, t);
        break;
    }
}

/* {a, b} for arrays, structs and vectors: T[n](a, b, ...) / S(a, b, zeros...) / vecN(a, b, ...). */
static void emit_initlist(Emit *E, Node *n, Type *t)
{
    if (t->kind == TY_VEC || ty_is_scalar(t)) {
        if (ty_is_scalar(t) && n->n_list == 1) {
            emit_coerced(E, n->list[0], t, PREC_ASSIGN + 1);
            return;
        }
        putf(E, "%s(", glsl_type(E, t));
        emit_args(E, n->list, n->n_list);
        put(E, ")");
        return;
    }
    int count = t->kind == TY_ARRAY ? t->n : t->kind == TY_STRUCT ? t->sdef->n_fields : 0;
    if (!count) {
        diag_error(E->prog->diag, n->loc, "this initializer list is not supported");
        return;
    }
    putf(E, "%s(", glsl_ctor_type(E, t));
    for (int i = 0; i < count; i++) {
        Type *et = t->kind == TY_ARRAY ? t->elem : t->sdef->fields[i].ty;
        if (i)
            put(E, ", ");
        if (t->kind == TY_STRUCT)
            emit_pad_values(E, t->sdef->fields[i].pad, t->sdef->fields[i].n_pad, false);
        if (i < n->n_list) {
            Node *item = n->list[i];
            if (t->kind == TY_STRUCT && ty_scalar_kind(et) == TY_BOOL) {
                putf(E, "%s(", storage_type(E, et)); /* a bool member is its byte */
                emit_expr(E, item, PREC_ASSIGN + 1);
                put(E, ")");
            } else if (t->kind == TY_STRUCT && et->kind == TY_ARRAY && !strcmp(storage_type(E, et), "uint8_t")) {
                diag_error(E->prog->diag, item->loc, "initializing a bool array member is not supported yet");
            } else if (item->kind == N_INITLIST)
                emit_initlist(E, item, et);
            else
                emit_coerced(E, item, et, PREC_ASSIGN + 1);
        } else {
            t->kind == TY_STRUCT ? emit_zero_stored(E, et) : emit_zero(E, et);
        }
    }
    if (t->kind == TY_STRUCT)
        emit_pad_values(E, t->sdef->tail_pad, t->sdef->n_tail_pad, true);
    put(E, ")");
}

/* ---- library calls ---- */

static const char *helper_type_key(Emit *E, const char *name, Type *t)
{
    return arena_printf(E->prog->arena, "%s\t%s", name, glsl_type(E, t));
}

static const HelperInfo *helper_info(const char *name)
{
    for (size_t h = 0; h < sizeof helper_table / sizeof *helper_table; h++)
        if (!strcmp(helper_table[h].name, name))
            return &helper_table[h];
    return NULL;
}

static void need_helper(Emit *E, const char *name, Type *t)
{
    const char *key = helper_type_key(E, name, t);
    for (int i = 0; i < E->L->helper_types.len; i++)
        if (!strcmp(E->L->helper_types.items[i], key))
            return;
    if (!strcmp(name, "mtl_erfc"))
        need_helper(E, "mtl_erf", t->kind == TY_VEC && t->elem->kind == TY_HALF ? ty_vec(E->prog->arena, TY_FLOAT, t->n) : t);
    const HelperInfo *hi = helper_info(name);
    if (ty_scalar_kind(t) == TY_HALF && hi && hi->kind == 'F') /* the half version calls the float one */
        need_helper(E, name, ty_vec(E->prog->arena, TY_FLOAT, ty_width(t)));
    pv_push(&E->L->helper_types, (void *)key);
}

static bool check_family(Emit *E, Node *n, const BuiltinInfo *b)
{
    Type *t = n->n_list ? n->list[0]->ty : NULL;
    bool ok = t != NULL;
    switch (b->family) {
    case BF_I1:
    case BF_I2:
    case BF_I3:
    case BF_IX:
    case BF_IU2:
        ok = ok && (ty_scalar_kind(t) == TY_INT || ty_scalar_kind(t) == TY_UINT);
        break;
    default:
        break;
    }
    if (!ok) {
        diag_error(E->prog->diag, n->loc, "%s on %s is not supported yet", b->metal, t ? ty_metal_name(E->prog->arena, t) : "these arguments");
        return false;
    }
    int want = builtin_arity(b->family) + (!strcmp(b->metal, "insert_bits"));
    if (n->n_list != want) { /* __metal_ldexp(x, k, mode): the front end keeps the values the family says */
        diag_error(E->prog->diag, n->loc, "%s takes %d arguments here, not %d", b->metal, want, n->n_list);
        return false;
    }
    return true;
}

static TypeKind unsigned_kind(int size);

/* clz, ctz and popcount of 8- and 16-bit integers (GLSL's findMSB, findLSB and bitCount take 32-bit ones): on
   the bits zero-extended to 32, clz(ushort 0) = 16 and ctz(uchar 0) = 8 as in Metal. False for other calls. */
static bool emit_narrow_bits(Emit *E, Node *n, const BuiltinInfo *b)
{
    Type *t = n->n_list == 1 ? n->list[0]->ty : NULL;
    if (!t || b->family != BF_I1 || !ty_is_integer(ty_scalar(ty_scalar_kind(t))) || (strcmp(b->metal, "clz") && strcmp(b->metal, "ctz") && strcmp(b->metal, "popcount")))
        return false;
    int bits = 8 * ty_metal_size(ty_scalar(ty_scalar_kind(t)));
    if (bits != 8 && bits != 16)
        return false;
    int w = ty_width(t);
    const char *u32 = glsl_type(E, ty_vec(E->prog->arena, TY_UINT, w));
    putf(E, "%s(", glsl_type(E, t));
    if (!strcmp(b->metal, "clz"))
        putf(E, "%d - findMSB(", bits - 1);
    else if (!strcmp(b->metal, "ctz"))
        putf(E, "min(%s(findLSB(", u32);
    else
        put(E, "bitCount(");
    putf(E, "%s(%s(", u32, glsl_type(E, ty_vec(E->prog->arena, unsigned_kind(bits / 8), w)));
    emit_expr(E, n->list[0], 0);
    put(E, "))");
    if (!strcmp(b->metal, "ctz"))
        putf(E, ")), %du)", bits);
    else
        put(E, ")");
    put(E, ")");
    return true;
}

/* Metal's math functions whose half overloads are computed in float (emit_builtin). */
static bool half_in_float(const char *metal)
{
    static const char *const names[] = {"exp", "exp2", "exp10", "log", "log2", "log10", "pow", "powr", "sin", "cos",
                                        "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
                                        "acosh", "atanh", "sqrt", "rsqrt", "cospi", "sinpi", "tanpi", "fmod",
                                        "hypot", "cbrt", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcmp(metal, names[i]))
            return true;
    return false;
}

static void emit_builtin(Emit *E, Node *n)
{
    const BuiltinInfo *b = &builtin_table[n->builtin];
    if (emit_narrow_bits(E, n, b))
        return;
    if (!check_family(E, n, b))
        return;
    Type *t = n->list[0]->ty;
    if (!strcmp(b->metal, "abs") && ty_is_integer(t) && !ty_is_signed(t)) {
        emit_expr(E, n->list[0], PREC_POSTFIX);
        return;
    }
    if (!strcmp(b->metal, "select")) {
        put(E, "mix(");
        emit_args(E, n->list, n->n_list);
        put(E, ")");
        return;
    }
    if (b->family == BF_BV && ty_is_scalar(t)) {
        emit_expr(E, n->list[0], PREC_POSTFIX);
        return;
    }
    if (ty_scalar_kind(t) == TY_HALF && ty_scalar_kind(n->ty) == TY_HALF && half_in_float(b->metal)) {
        /* Vulkan lets 16-bit exp, log, pow, sin... be several half ulps off (an exp(7.0hf) 5 ulps); Metal's half
           functions are within 1-4 ulps: computed in float and rounded once, they are within 1 */
        Type *ft = t->kind == TY_VEC ? ty_vec(E->prog->arena, TY_FLOAT, t->n) : ty_scalar(TY_FLOAT);
        if (!strncmp(b->glsl, "mtl_", 4))
            need_helper(E, b->glsl, ft);
        putf(E, "%s(%s(", glsl_type(E, n->ty), b->glsl);
        for (int i = 0; i < n->n_list; i++) {
            Type *at = n->list[i]->ty;
            putf(E, "%s%s(", i ? ", " : "", ty_scalar_kind(at) == TY_HALF ? glsl_type(E, at->kind == TY_VEC ? ft : ty_scalar(TY_FLOAT)) : glsl_type(E, at));
            emit_expr(E, n->list[i], PREC_ASSIGN);
            put(E, ")");
        }
        put(E, "))");
        return;
    }
    if (!strncmp(b->glsl, "mtl_", 4))
        need_helper(E, b->glsl, t);
    put(E, b->glsl);
    put(E, "(");
    emit_args(E, n->list, n->n_list);
    put(E, ")");
}

/* as_type<T>(x) between types of one Metal size. The bits go through layers, each a "pre(" and ")post" printed
   around what is inside: x's components as unsigned integers of their own size (floatBitsToUint,
   float16BitsToUint16, u16vec2(...); bfloat is its bits already), a 3-vector padded to 4 (Metal's float3 is a
   float4 in memory: as_type<float4>(float3) leaves w undefined, ours 0) and, when the component sizes differ,
   packed into one word (pack16/pack32/pack64 of GL_EXT_shader_explicit_arithmetic_types) and unpacked into T's
   components, then the same steps backwards into T. as_type<float3>(float4) keeps xyz. */
typedef struct BitLayer {
    const char *pre, *post;
} BitLayer;

enum { MAX_BIT_LAYERS = 6 };

static TypeKind unsigned_kind(int size)
{
    return size == 1 ? TY_UCHAR : size == 2 ? TY_USHORT : size == 4 ? TY_UINT : TY_ULONG;
}

static int elem_size(Type *t)
{
    return ty_metal_size(ty_scalar(ty_scalar_kind(t)));
}

/* The layer taking T's components to unsigned integers of their size (TO_BITS), or back; NULL pre when none is needed. */
static BitLayer bits_layer(Emit *E, Type *t, bool to_bits)
{
    TypeKind k = ty_scalar_kind(t);
    int n = ty_width(t);
    Type *u = ty_vec(E->prog->arena, unsigned_kind(elem_size(t)), n);
    switch (k) {
    case TY_FLOAT: return (BitLayer){to_bits ? "floatBitsToUint(" : "uintBitsToFloat(", ")"};
    case TY_HALF: return (BitLayer){to_bits ? "float16BitsToUint16(" : "uint16BitsToFloat16(", ")"};
    case TY_CHAR:
    case TY_SHORT:
    case TY_INT:
    case TY_LONG: return (BitLayer){arena_printf(E->prog->arena, "%s(", glsl_type(E, to_bits ? u : t)), ")"};
    default: return (BitLayer){NULL, NULL}; /* unsigned integers and bfloat are their bits */
    }
}

/* The layer padding a 3-vector of unsigned SIZE-byte components to 4 (TO_FOUR), or dropping the fourth. */
static BitLayer pad_layer(Emit *E, int size, bool to_four)
{
    if (!to_four)
        return (BitLayer){"", ".xyz"};
    static const char *zero[] = {[1] = "uint8_t(0)", [2] = "uint16_t(0)", [4] = "0u", [8] = "0ul"};
    return (BitLayer){arena_printf(E->prog->arena, "%s(", glsl_type(E, ty_vec(E->prog->arena, unsigned_kind(size), 4))),
                      arena_printf(E->prog->arena, ", %s)", zero[size])};
}

/* Collects F's layers into the word of BYTES bytes (PACK) or from it into T's components. */
static bool astype_layers(Emit *E, Type *t, int bytes, bool to_word, bool pack, BitLayer *out, int *n)
{
    int es = elem_size(t), m = ty_width(t) == 3 ? 4 : ty_width(t);
    if (pack && ty_scalar_kind(t) == TY_HALF && ty_width(t) == 2) { /* GLSL's own half2 <-> uint */
        out[(*n)++] = (BitLayer){to_word ? "packFloat2x16(" : "unpackFloat2x16(", ")"};
        return true;
    }
    BitLayer bits = bits_layer(E, t, to_word), pad = pad_layer(E, es, to_word), word = {NULL, NULL};
    if (pack && m > 1) {
        if (bytes > 8) { /* (u)long2 <-> 32-bit x 4: no 128-bit word in GLSL; the word is a u64vec2 */
            if (es == 4) {
                E->need_u64x2 = true;
                word = (BitLayer){to_word ? "mtl_u32x4_to_u64x2(" : "mtl_u64x2_to_u32x4(", ")"};
            } else if (es != 8) {
                return false;
            }
        } else {
            static const char *pk[] = {[2] = "pack16(", [4] = "pack32(", [8] = "pack64("};
            static const char *up[] = {[1] = "unpack8(", [2] = "unpack16(", [4] = "unpack32("};
            word = (BitLayer){to_word ? pk[bytes] : up[es], ")"};
        }
    }
    BitLayer order[3] = {bits, ty_width(t) == 3 ? pad : (BitLayer){NULL, NULL}, word};
    for (int i = 0; i < 3; i++) {
        BitLayer l = order[to_word ? i : 2 - i];
        if (l.pre)
            out[(*n)++] = l;
    }
    return true;
}

static void emit_astype(Emit *E, Node *n)
{
    Type *to = n->ty, *from = n->a->ty;
    int bytes = ty_metal_size(to);
    BitLayer layers[MAX_BIT_LAYERS];
    int nl = 0;
    if (ty_equal(to, from)) {
        emit_expr(E, n->a, PREC_POSTFIX);
        return;
    }
    TypeKind fk = ty_scalar_kind(from), tk = ty_scalar_kind(to);
    if (ty_width(to) && ty_width(from)) {
        glsl_type(E, to); /* the extensions both types need */
        glsl_type(E, from);
    }
    if (ty_width(to) == ty_width(from) && ((fk == TY_FLOAT && tk == TY_INT) || (fk == TY_INT && tk == TY_FLOAT) ||
                                           (fk == TY_HALF && tk == TY_SHORT) || (fk == TY_SHORT && tk == TY_HALF))) {
        static const char *direct[] = {[TY_FLOAT] = "intBitsToFloat(", [TY_INT] = "floatBitsToInt(",
                                       [TY_HALF] = "int16BitsToFloat16(", [TY_SHORT] = "float16BitsToInt16("};
        put(E, direct[tk]);
        emit_expr(E, n->a, PREC_ASSIGN + 1);
        put(E, ")");
        return;
    }
    bool ok = bytes && bytes == ty_metal_size(from) && ty_width(to) && ty_width(from) && ty_scalar_kind(to) != TY_BOOL &&
              ty_scalar_kind(from) != TY_BOOL && ty_scalar_kind(to) != TY_DOUBLE && ty_scalar_kind(from) != TY_DOUBLE;
    if (ok) {
        bool pack = elem_size(to) != elem_size(from);
        if (pack && bytes >= 8)
            E->L->need_int64 = true;
        ok = astype_layers(E, from, bytes, true, pack, layers, &nl) && astype_layers(E, to, bytes, false, pack, layers, &nl);
    }
    if (!ok) {
        diag_error(E->prog->diag, n->loc, "as_type from %s to %s is not supported%s", ty_metal_name(E->prog->arena, from),
                   ty_metal_name(E->prog->arena, to), bytes != ty_metal_size(from) ? " (their sizes differ)" : " yet");
        return;
    }
    /* a 3-vector padded and then cut again (float3 <-> int3) needs neither */
    for (int i = 0; i + 1 < nl; i++)
        if (!strcmp(layers[i + 1].post, ".xyz") && strstr(layers[i].pre, "vec4(")) {
            memmove(&layers[i], &layers[i + 2], (size_t)(nl - i - 2) * sizeof *layers);
            nl -= 2;
            break;
        }
    for (int i = nl - 1; i >= 0; i--)
        put(E, layers[i].pre);
    emit_expr(E, n->a, nl && *layers[0].pre ? PREC_ASSIGN + 1 : PREC_POSTFIX);
    for (int i = 0; i < nl; i++)
        put(E, layers[i].post);
}

/* ---- SIMD-group functions and barriers (translator/lower/simd.c prints their definitions) ---- */

static const char *predicate(Emit *E);

/* Under uniform control flow a synchronizing call must be reached by every thread: never inside `if (predicate)`. */
static void check_sync_position(Emit *E, Node *n)
{
    if (E->uniform && E->pred_depth > 0)
        diag_error(E->prog->diag, n->loc, "internal error: '%s' would run in non-uniform control flow (please report)", n->name ? n->name : "call");
}

static Node *strip_implicit(Node *n)
{
    while (n->kind == N_CAST && n->implicit)
        n = n->a;
    return n;
}

/* The SIMD-group matrix functions (sgmat.c made the calls): float2 operands, the element index's uint, uvec2 and
   bool; the exchanging ones take the predicate like any SIMD-group function. */
static void emit_sgmat_call(Emit *E, Node *n)
{
    const SimdInfo *si = &simd_table[n->builtin];
    bool exchanges = simd_exchanges(n->builtin);
    /* under --tensor-cores, products whose operands hold half values only (half matrices, or float ones proven to:
       halfexact.c) call the _half forms with the operands in half (simd.c) */
    bool half_ops = E->L->tensor_cores && halfexact_product(E->L, n);
    simd_need(E->prog, E->L, n->builtin, half_ops ? "f16vec2" : "vec2", half_ops ? TY_HALF : TY_FLOAT, n->n_list);
    if (exchanges)
        check_sync_position(E, n);
    putf(E, "%s%s(", n->name, half_ops ? "_half" : "");
    for (int i = 0; i < n->n_list; i++) {
        Type *t = ty_vec(E->prog->arena, TY_FLOAT, 2);
        if (half_ops && i < 2) {
            put(E, i ? ", " : "");
            Node *h = sgmat_half_operand(n->list[i]);
            emit_coerced(E, h ? h : n->list[i], ty_vec(E->prog->arena, TY_HALF, 2), PREC_ASSIGN + 1);
            continue;
        }
        if (si->op == SOP_MAT_DIAGONAL)
            t = ty_scalar(TY_FLOAT);
        else if (si->op == SOP_MAT_INDEX)
            t = i == 1 ? ty_vec(E->prog->arena, TY_UINT, 2) : ty_scalar(i == 2 ? TY_BOOL : TY_UINT);
        Node *a = si->op == SOP_MAT_INDEX ? strip_implicit(n->list[i]) : n->list[i];
        put(E, i ? ", " : "");
        if (a->kind == N_INT && a->ival >= 0 && ty_is_scalar(t) && t->kind == TY_UINT)
            putf(E, "%lluu", (unsigned long long)a->ival);
        else
            emit_coerced(E, a, t, PREC_ASSIGN + 1);
    }
    if (exchanges && E->uniform)
        putf(E, "%s%s", n->n_list ? ", " : "", predicate(E));
    put(E, ")");
}

/* simd_sum(x) -> simd_sum(x) or, with uniform control flow, simd_sum(x, PREDICATE); lanes and deltas as uint. */
/* Whether expression N reads memory through a pointer or a buffer (a thread that never set the pointer must not). */
static bool reads_memory(const Node *n)
{
    if (!n)
        return false;
    if (n->kind == N_DEREF || n->kind == N_CALL)
        return true;
    if ((n->kind == N_INDEX || n->kind == N_MEMBER) && n->a && n->a->ty && n->a->ty->kind == TY_PTR)
        return true;
    if (n->kind == N_INDEX && n->a && n->a->kind == N_VAR && n->a->var->kind == VAR_PARAM)
        return true;
    if (reads_memory(n->a) || reads_memory(n->b) || reads_memory(n->c))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (reads_memory(n->list[i]))
            return true;
    return false;
}

static void emit_simd_call(Emit *E, Node *n)
{
    const SimdInfo *si = &simd_table[n->builtin];
    if (si->group == 'M') {
        emit_sgmat_call(E, n);
        return;
    }
    bool value = si->op <= SOP_BROADCAST_FIRST;
    Type *t = value ? n->ty : NULL;
    if (si->group == 'B') {
        diag_error(E->prog->diag, n->loc, "%s inside an expression is not supported: call it as a statement", n->name);
        return;
    }
    Type *narrow = NULL; /* an 8/16-bit integer value: the operation on its 32-bit extension, then truncated */
    if (t && ty_width(t) && (ty_scalar_kind(t) == TY_CHAR || ty_scalar_kind(t) == TY_UCHAR || ty_scalar_kind(t) == TY_SHORT ||
                             ty_scalar_kind(t) == TY_USHORT)) {
        /* Exact for every value function: moving a value keeps it; sums, products, and/or/xor wrap modulo 2^8 or
           2^16 alike, and min/max compare the extended values as the narrow ones compare */
        narrow = t;
        TypeKind wk = ty_is_signed(ty_scalar(ty_scalar_kind(t))) ? TY_INT : TY_UINT;
        t = ty_width(t) == 1 || t->kind != TY_VEC ? ty_scalar(wk) : ty_vec(E->prog->arena, wk, t->n);
    }
    if (narrow)
        putf(E, "%s(", glsl_type(E, narrow));
    if (t) {
        TypeKind k = ty_scalar_kind(t);
        bool bitwise = si->op == SOP_AND || si->op == SOP_OR || si->op == SOP_XOR;
        bool ok = k == TY_INT || k == TY_UINT || (!bitwise && (k == TY_FLOAT || k == TY_DOUBLE || k == TY_HALF));
        if (!ok || !ty_width(t)) {
            diag_error(E->prog->diag, n->loc, "%s on %s is not supported yet (float, half, 8- to 32-bit integers and their vectors are)", n->name,
                       ty_metal_name(E->prog->arena, t));
            return;
        }
        if (k == TY_HALF)
            E->L->need_float16 = true;
    }
    if (si->op == SOP_BALLOT || si->op == SOP_ACTIVE_MASK) {
        if (si->group == 'Q')
            E->L->need_int16 = true;
        else
            E->L->need_int64 = true;
    }
    simd_need(E->prog, E->L, n->builtin, t ? glsl_type(E, t) : NULL, t ? ty_scalar_kind(t) : TY_VOID, n->n_list);
    check_sync_position(E, n);
    put(E, n->name);
    put(E, "(");
    /* Under made-uniform control flow every thread makes the call, also those whose predicate is false: they
       evaluate no operand that reads memory (a pointer they never set, `simd_sum(p[i])` after a `continue`) */
    const char *guard = E->uniform && strcmp(predicate(E), "true") ? predicate(E) : NULL;
    for (int i = 0; i < n->n_list; i++) {
        if (i)
            put(E, ", ");
        bool is_value = value && (i == 0 || (i == 1 && (si->op == SOP_FILL_UP || si->op == SOP_FILL_DOWN)));
        Node *a = strip_implicit(n->list[i]);
        bool guarded = guard && reads_memory(a);
        if (guarded)
            putf(E, "((%s) ? ", guard);
        if (is_value)
            emit_coerced(E, n->list[i], t, guarded ? PREC_COND + 1 : PREC_ASSIGN + 1);
        else if (value && a->kind == N_INT && a->ival >= 0)
            putf(E, "%lluu", (unsigned long long)a->ival); /* a lane or delta literal */
        else if (value)
            emit_coerced(E, a, ty_scalar(TY_UINT), guarded ? PREC_COND + 1 : PREC_ASSIGN + 1);
        else
            emit_coerced(E, n->list[i], ty_scalar(TY_BOOL), guarded ? PREC_COND + 1 : PREC_ASSIGN + 1);
        if (guarded)
            putf(E, " : %s)", is_value ? arena_printf(E->prog->arena, "%s(0)", glsl_type(E, t)) : value ? "0u" : "false");
    }
    if (E->uniform) {
        if (n->n_list)
            put(E, ", ");
        put(E, predicate(E));
    }
    put(E, narrow ? "))" : ")");
}

/* threadgroup_barrier(flags) / simdgroup_barrier(flags) as statements. */
static void emit_barrier(Emit *E, Node *n)
{
    const SimdInfo *si = &simd_table[n->builtin];
    bool subgroup = si->op == SOP_SG_BARRIER && E->L->simd_mode != SIMD_EMULATED && !E->prog->virtual_subgroups;
    check_sync_position(E, n);
    if (n->ival & 1) {
        line_start(E);
        put(E, subgroup ? "subgroupMemoryBarrierBuffer();\n" : "memoryBarrierBuffer();\n");
    }
    if (n->ival & 2) {
        line_start(E);
        put(E, subgroup ? "subgroupMemoryBarrierShared();\n" : "memoryBarrierShared();\n");
    }
    line_start(E);
    put(E, subgroup ? "subgroupBarrier();\n" : "barrier();\n");
}

/* ---- pointers (ptr.c): a pointer is a uint index into its root, counted as ptr_unit says ---- */

static Node *strip_parens(Node *n)
{
    while (n->kind == N_PAREN)
        n = n->a;
    return n;
}

/* The SSBO block (or shared / local array) that holds ROOT's memory as ELEM. */
static const char *view_name(Emit *E, Var *root, Type *elem)
{
    if (!root || root == &ptr_dynamic)
        return "?";
    if (ptr_same_elem(ptr_root_elem(root), elem) || elem->kind == TY_VOID || root->view_lanes)
        return root->glsl_name;
    if (root->role == PR_BUFFER)
        ptr_add_view(E->prog, E->L, root, elem);
    return arena_printf(E->prog->arena, "%s_as_%s%s", root->glsl_name, elem->packed ? "packed_" : "", glsl_type(E, elem));
}

/* What the printer prints between capture_start and capture_end, as a string (an index scaled or used twice). */
static StrBuf capture_start(Emit *E)
{
    StrBuf saved = E->out;
    E->out = (StrBuf){0};
    return saved;
}

static char *capture_end(Emit *E, StrBuf saved)
{
    StrBuf t = E->out;
    char *r = arena_printf(E->prog->arena, "%s", t.data ? t.data : "");
    sb_free(&t);
    E->out = saved;
    return r;
}

/* An identifier or a number: needs no parentheses as an operand. */
static bool simple_text(const char *s)
{
    return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") == strlen(s);
}

static const char *operand_text(Emit *E, const char *s)
{
    return simple_text(s) ? s : arena_printf(E->prog->arena, "(%s)", s);
}

/* IDX, an index counting FROM bytes, counting TO bytes: the division is exact (ptr.c chose the units). */
static const char *scaled_text(Emit *E, const char *idx, int from, int to)
{
    if (from == to || !strcmp(idx, "0u"))
        return idx;
    const char *star = strrchr(idx, '*');
    int m = 0, len = 0;
    if (star && to % from == 0 && sscanf(star, "* %du%n", &m, &len) == 1 && !star[len] && m % (to / from) == 0 && star > idx + 1) {
        /* (a + b) * 4u counting 4 bytes more: a + b (the product was this function's own scaling) */
        const char *x = arena_printf(E->prog->arena, "%.*s", (int)(star - idx - 1), idx);
        size_t n = strlen(x);
        bool wrapped = x[0] == '(' && x[n - 1] == ')';
        for (size_t i = 1, depth = 1; wrapped && i + 1 < n; i++) /* (a) * (b) is not one parenthesized operand */
            if ((depth += x[i] == '(' ? 1 : x[i] == ')' ? -1 : 0) == 0)
                wrapped = false;
        if (wrapped || simple_text(x)) {
            if (wrapped)
                x = arena_printf(E->prog->arena, "%.*s", (int)n - 2, x + 1);
            return m / (to / from) == 1 ? x : arena_printf(E->prog->arena, "%s * %du", operand_text(E, x), m / (to / from));
        }
    }
    if (from % to == 0)
        return arena_printf(E->prog->arena, "%s * %du", operand_text(E, idx), from / to);
    if (to % from == 0)
        return arena_printf(E->prog->arena, "%s / %du", operand_text(E, idx), to / from);
    return arena_printf(E->prog->arena, "%s * %du / %du", operand_text(E, idx), from, to);
}

/* K converted to uint, as an index offset. */
static void emit_offset(Emit *E, Node *k, int prec)
{
    Node *s = strip_parens(k);
    if (s->kind == N_INT && s->ival >= 0)
        putf(E, "%lldu", s->ival);
    else
        emit_coerced(E, k, ty_scalar(TY_UINT), prec);
}

/* K elements of STEP index units each: k * STEP. */
static void emit_offset_times(Emit *E, Node *k, int step, int prec)
{
    Node *s = strip_parens(k);
    if (s->kind == N_INT && s->ival >= 0)
        putf(E, "%lldu", s->ival * step);
    else if (step == 1)
        emit_offset(E, k, prec);
    else {
        if (prec > PREC_MUL)
            put(E, "(");
        emit_offset(E, k, PREC_MUL);
        putf(E, " * %du", step);
        if (prec > PREC_MUL)
            put(E, ")");
    }
}

/* A pointer to the start of its root (x, (device uchar*)x): index 0. */
static bool zero_index(Node *n)
{
    n = strip_parens(n);
    if (n->kind == N_CAST)
        return zero_index(n->a);
    if (n->kind == N_TERNARY) /* c ? x : w, buffers chosen at run time: both start at index 0 */
        return zero_index(n->b) && zero_index(n->c) && !has_side_effects(n->a);
    return (n->kind == N_VAR && ptr_is_root(n->var)) || ptr_address_load(n); /* args.params[i]: its buffer's start */
}

/* The index of nullptr: no access reaches it (ptr.c). */
#define NULL_INDEX "0xffffffffu"

/* N as a condition: a pointer is true when it is not nullptr. */
static void emit_condition(Emit *E, Node *n, int min_prec)
{
    if (!n->ty || n->ty->kind != TY_PTR) {
        emit_expr(E, n, min_prec);
        return;
    }
    bool paren = min_prec > PREC_EQ;
    if (paren)
        put(E, "(");
    emit_ptr_index(E, n);
    put(E, " != " NULL_INDEX);
    if (paren)
        put(E, ")");
}

/* Pointer N's index, counting UNIT bytes (N's own unit divides... or is divided by it: ptr.c). */
static void emit_index_in(Emit *E, Node *n, int unit)
{
    int own = ptr_unit(E->spec, n).unit;
    if (own == unit || zero_index(n) || ptr_is_null(n)) {
        emit_ptr_index(E, n);
        return;
    }
    StrBuf saved = capture_start(E);
    emit_ptr_index(E, n);
    put(E, scaled_text(E, capture_end(E, saved), own, unit));
}

static void emit_addr_index(Emit *E, Node *l);

/* The index of &L, counting its own unit (ptr_addr_unit). */
static void emit_addr_index(Emit *E, Node *l)
{
    l = strip_parens(l);
    int unit = ptr_addr_unit(E->spec, l).unit;
    if (l->kind == N_MEMBER && l->a->ty && l->a->ty->kind == TY_STRUCT) { /* &x.f: x's index, then f's offset */
        int off = ptr_member(l->a->ty->sdef, l->name, NULL, NULL, NULL);
        off = off < 0 ? 0 : off;
        int base = ptr_addr_unit(E->spec, l->a).unit;
        StrBuf saved = capture_start(E);
        emit_addr_index(E, l->a);
        const char *idx = scaled_text(E, capture_end(E, saved), base, unit);
        if (!strcmp(idx, "0u") && off)
            putf(E, "%du", off / unit);
        else if (off)
            putf(E, "%s + %du", idx, off / unit);
        else
            put(E, idx);
        return;
    }
    if (l->kind == N_INDEX && l->a->ty && (l->a->ty->kind == TY_PTR || l->a->ty->kind == TY_ARRAY)) {
        int step = ptr_elem_size(l->a->ty->elem) / unit;
        if (!zero_index(l->a)) {
            emit_index_in(E, l->a, unit);
            put(E, " + ");
            emit_offset_times(E, l->b, step, PREC_ADD + 1);
        } else {
            emit_offset_times(E, l->b, step, 0);
        }
        return;
    }
    if (l->kind == N_DEREF) {
        emit_index_in(E, l->a, unit);
        return;
    }
    if (l->kind == N_VAR && ptr_is_root(l->var)) {
        put(E, "0u");
        return;
    }
    if (l->kind == N_VAR && l->var->ty->kind == TY_REF && ptr_like(l->var)) {
        put(E, l->var->glsl_name);
        return;
    }
    diag_error(E->prog->diag, l->loc, "taking this address is not supported (pointers are to elements of buffers, threadgroup memory or local arrays)");
}

/* &L's index counting UNIT bytes (0: its own). */
static void emit_addr_in(Emit *E, Node *l, int unit)
{
    int own = ptr_addr_unit(E->spec, l).unit;
    if (!unit || own == unit) {
        emit_addr_index(E, l);
        return;
    }
    StrBuf saved = capture_start(E);
    emit_addr_index(E, l);
    put(E, scaled_text(E, capture_end(E, saved), own, unit));
}

static void emit_ptr_index(Emit *E, Node *n)
{
    n = strip_parens(n);
    if (ptr_is_null(n)) {
        put(E, NULL_INDEX);
        return;
    }
    if (ptr_address_load(n)) { /* a pointer read from an argument buffer: the start of its buffer (emit_ref) */
        put(E, "0u");
        return;
    }
    switch (n->kind) {
    case N_VAR:
        put(E, ptr_is_root(n->var) ? "0u" : n->var->glsl_name);
        return;
    case N_INDEX:
        if (n->ty && n->ty->kind == TY_PTR) { /* rows[j] of an array of pointers: its element, an index */
            emit_expr(E, n->a, PREC_POSTFIX);
            put(E, "[");
            emit_coerced(E, n->b, ty_scalar(TY_INT), 0);
            put(E, "]");
            return;
        }
        /* fall through */
    case N_MEMBER: { /* an array member or row decays to a pointer to its first element */
        if (n->kind == N_MEMBER && n->ty && n->ty->kind == TY_PTR) { /* a pointer kept in a struct: its index (ptr.c) */
            const char *fname = n->name;
            Type *st = n->a->ty->kind == TY_REF ? n->a->ty->elem : n->a->ty;
            if (st->kind == TY_STRUCT)
                ptr_member(st->sdef, n->name, NULL, &fname, E->prog->arena);
            emit_expr(E, n->a, PREC_POSTFIX);
            putf(E, ".%s", fname);
            return;
        }
        int own = ptr_addr_unit(E->spec, n).unit, unit = ptr_unit(E->spec, n).unit;
        StrBuf saved = capture_start(E);
        emit_addr_index(E, n);
        put(E, scaled_text(E, capture_end(E, saved), own, unit));
        return;
    }
    case N_CAST: {
        Type *to = n->ty->elem;
        int s2 = to ? ty_metal_size(to) : 0;
        Var *from = ptr_root(E->spec, n->a);
        if (to && to->packed && s2 && ptr_unit(E->spec, n->a).unit % s2 && !zero_index(n) && !(from && from->role == PR_BUFFER && to->kind == TY_VEC))
            diag_error(E->prog->diag, n->loc, "a cast to %s* of a pointer moved from its buffer's start is not supported yet "
                       "(%d-byte elements need not start at a multiple of %d bytes; cast the buffer, then index)",
                       ty_metal_name(E->prog->arena, to), s2, s2);
        if (zero_index(n))
            put(E, "0u");
        else
            emit_index_in(E, n->a, ptr_unit(E->spec, n).unit);
        return;
    }
    case N_BINARY: {
        bool a_ptr = n->a->ty && (n->a->ty->kind == TY_PTR || n->a->ty->kind == TY_ARRAY);
        Node *p = a_ptr ? n->a : n->b, *k = a_ptr ? n->b : n->a;
        int unit = ptr_unit(E->spec, n).unit, step = ptr_elem_size(p->ty->elem) / unit;
        if (zero_index(p) && !strcmp(n->op, "+")) {
            emit_offset_times(E, k, step, PREC_ADD);
            return;
        }
        emit_index_in(E, p, unit);
        putf(E, " %s ", n->op);
        emit_offset_times(E, k, step, PREC_ADD + 1);
        return;
    }
    case N_ADDR:
        emit_addr_index(E, n->a);
        return;
    case N_POSTFIX:
    case N_UNARY:
    case N_ASSIGN:
        put(E, "(");
        emit_expr(E, n, 0); /* p++, ++p, p += k on the index */
        put(E, ")");
        return;
    case N_CALL: /* a helper returning a pointer returns its index */
        emit_expr(E, n, PREC_ADD);
        return;
    case N_TERNARY: {
        if (zero_index(n)) { /* c ? x : w: index 0 of either buffer */
            put(E, "0u");
            return;
        }
        int unit = ptr_unit(E->spec, n).unit;
        put(E, "(");
        emit_condition(E, n->a, PREC_OR);
        put(E, " ? ");
        emit_index_in(E, n->b, unit);
        put(E, " : ");
        emit_index_in(E, n->c, unit);
        put(E, ")");
        return;
    }
    default:
        diag_error(E->prog->diag, n->loc, "this pointer expression is not supported (pointers come from buffers, threadgroup memory and local arrays through + - & ?: and casts)");
        return;
    }
}

/* ---- memory read member by member (ptr.c's units): ggml's blocks at byte offsets, unions ----
   A pointer that counts in other steps than its pointee's size (a block_q4_0* made from bytes counts 2-byte
   steps) or points to a type without a GLSL type of its layout (a union) is not read through a block of its
   pointee type: each scalar or vector it reaches is read through the buffer's view of that type, at the byte
   offset divided by its size; a whole struct or matrix read or written goes through a function that does that
   member by member (mtl_load_ROOT_T / mtl_store_ROOT_T). */

typedef struct Place {
    Var *root;       /* &ptr_dynamic: a buffer chosen at run time, reached through `ref` */
    const char *ref; /* that buffer's reference, as bytes (mtl_ref_uint8_t) */
    Type *ty;        /* what is there */
    const char *idx; /* its index, counting `unit` bytes */
    int unit;
    int align;       /* a power of two idx * unit is a multiple of */
    bool tight;      /* align is all that is known (ptr.c) */
    int off;         /* constant bytes past idx * unit */
} Place;

/* Whether an access of ELEM through a pointer counting UNIT bytes into ROOT is a place: a buffer read member by
   member, threadgroup memory stored as words, thread memory read as another type. */
static bool place_access(Var *r, Type *elem, int unit)
{
    if (!elem || elem->kind == TY_VOID || !r || r == &ptr_null)
        return false;
    if (r->role == PR_BUFFER || r == &ptr_dynamic)
        return unit != ptr_elem_size(elem) || ptr_in_pieces(elem);
    if (r->mem_word)
        return true;
    if (r->view_lanes)
        return false;
    return !ptr_same_elem(ptr_root_elem(r), elem) || unit != ptr_elem_size(elem);
}

static bool read_by_members(Emit *E, Node *p, Type *elem, Var **root)
{
    *root = ptr_root(E->spec, p);
    return place_access(*root, elem, ptr_unit(E->spec, p).unit);
}

/* A root stored as words (threadgroup memory read as several types) accessed directly: tile[i], total. */
static bool word_root(Node *n)
{
    n = strip_parens(n);
    return n->kind == N_VAR && ptr_is_root(n->var) && n->var->mem_word && n->var->ty->kind != TY_PTR;
}

/* The component a one-component swizzle of a vector names (v.y: 1), or -1. */
static int swizzle_lane(const Node *n)
{
    static const char lanes[] = "xyzwrgba";
    if (n->kind != N_SWIZZLE || !n->name || strlen(n->name) != 1 || !strchr(lanes, n->name[0]) || !n->a->ty || n->a->ty->kind != TY_VEC)
        return -1;
    return (int)(strchr(lanes, n->name[0]) - lanes) % 4;
}

/* Whether lvalue N is reached through a pointer read member by member (without printing anything). */
static bool in_place(Emit *E, Node *n)
{
    n = strip_parens(n);
    Var *root;
    switch (n->kind) {
    case N_DEREF:
    case N_INDEX:
        if (n->a->ty && n->a->ty->kind == TY_PTR)
            return read_by_members(E, n->a, n->a->ty->elem, &root);
        if (n->kind == N_INDEX && word_root(n->a) && n->a->ty->kind == TY_ARRAY)
            return true;
        return n->kind == N_INDEX && n->a->ty && (n->a->ty->kind == TY_ARRAY || n->a->ty->kind == TY_MAT || n->a->ty->kind == TY_VEC) &&
               in_place(E, n->a);
    case N_MEMBER:
        return n->a->ty && n->a->ty->kind == TY_STRUCT && in_place(E, n->a);
    case N_SWIZZLE: /* one component of a vector there (MLX's random.metal: `v.val.x += v.val.y` in a union) */
        return swizzle_lane(n) >= 0 && in_place(E, n->a);
    case N_VAR: {
        Var *v = n->var;
        if ((word_root(n) && v->ty->kind != TY_ARRAY) || ptr_union_storage(v))
            return true;
        if (v->ty->kind != TY_REF || !ptr_like(v))
            return false;
        return place_access(ptr_var_root(E->spec, v), v->ty->elem, ptr_var_unit(E->spec, v).unit);
    }
    default:
        return false;
    }
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int pow2_int(long long v)
{
    int p = 1;
    while (p < 256 && v && !(v & p))
        p <<= 1;
    return v ? p : 256;
}

static int gcd_int(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b, b = t;
    }
    return a;
}

/* The place of lvalue N (in_place(N) holds). */
static void place_of(Emit *E, Node *n, Place *pl)
{
    n = strip_parens(n);
    if ((n->kind == N_DEREF || n->kind == N_INDEX) && n->a->ty && n->a->ty->kind == TY_PTR) {
        PtrUnit u = ptr_unit(E->spec, n->a);
        *pl = (Place){ptr_root(E->spec, n->a), NULL, n->a->ty->elem, NULL, u.unit, u.align, u.tight, 0};
        if (pl->root == &ptr_dynamic) { /* the reference to its buffer, as bytes */
            StrBuf saved = capture_start(E);
            emit_ref(E, n->a, ty_scalar(TY_UCHAR));
            pl->ref = capture_end(E, saved);
        }
        StrBuf saved = capture_start(E);
        if (n->kind == N_INDEX && !zero_index(n->a)) {
            emit_ptr_index(E, n->a);
            put(E, " + ");
            emit_offset_times(E, n->b, ptr_elem_size(pl->ty) / u.unit, PREC_ADD + 1);
        } else if (n->kind == N_INDEX) {
            emit_offset_times(E, n->b, ptr_elem_size(pl->ty) / u.unit, 0);
        } else {
            emit_ptr_index(E, n->a);
        }
        pl->idx = capture_end(E, saved);
        if (n->kind == N_INDEX) {
            Node *k = strip_parens(n->b);
            pl->align = min_int(pl->align, pow2_int(k->kind == N_INT ? k->ival * ptr_elem_size(pl->ty) : ptr_elem_size(pl->ty)));
        }
        return;
    }
    if (n->kind == N_VAR && ptr_union_storage(n->var)) { /* a local union: the bits of an unsigned integer */
        *pl = (Place){n->var, NULL, n->var->ty, "0u", ptr_elem_size(n->var->ty), 16, false, 0};
        return;
    }
    if (n->kind == N_VAR && word_root(n)) { /* a threadgroup scalar stored as words */
        *pl = (Place){n->var, NULL, n->var->ty, "0u", ptr_elem_size(n->var->ty), 16, false, 0};
        return;
    }
    if (n->kind == N_INDEX && word_root(n->a)) { /* tile[i] of a threadgroup array stored as words */
        Type *e = n->a->ty->elem;
        StrBuf saved = capture_start(E);
        emit_offset(E, n->b, 0);
        *pl = (Place){strip_parens(n->a)->var, NULL, e, capture_end(E, saved), ptr_elem_size(e), ty_metal_align(e), false, 0};
        return;
    }
    if (n->kind == N_VAR) {
        PtrUnit u = ptr_var_unit(E->spec, n->var);
        *pl = (Place){ptr_var_root(E->spec, n->var), NULL, n->var->ty->elem, n->var->glsl_name, u.unit, u.align, u.tight, 0};
        if (pl->root == &ptr_dynamic) { /* a reference chosen at run time: its own reference, as bytes */
            StrBuf saved = capture_start(E);
            emit_ref(E, n, ty_scalar(TY_UCHAR));
            pl->ref = capture_end(E, saved);
        }
        return;
    }
    place_of(E, n->a, pl);
    if (n->kind == N_SWIZZLE) { /* component k of the vector: k scalars on */
        Type *sc = ty_scalar(ty_scalar_kind(pl->ty));
        pl->off += swizzle_lane(n) * ptr_elem_size(sc);
        pl->ty = sc;
        pl->tight = true;
        return;
    }
    if (n->kind == N_MEMBER) {
        Type *ft = n->ty;
        int off = ptr_member(pl->ty->sdef, n->name, &ft, NULL, NULL);
        pl->off += off >= 0 ? off : 0;
        pl->ty = ft;
        pl->tight = true;
        return;
    }
    /* a[i] of an array or matrix member: i elements on, counting a unit that divides the element's size */
    Type *g = pl->ty->elem;
    int size = ptr_elem_size(g), unit = gcd_int(pl->unit, size);
    Node *k = strip_parens(n->b);
    if (k->kind == N_INT) { /* a constant: bytes on */
        pl->off += (int)k->ival * size;
        pl->ty = g;
        return;
    }
    const char *idx = scaled_text(E, pl->idx, pl->unit, unit);
    StrBuf saved = capture_start(E);
    if (strcmp(idx, "0u")) {
        put(E, idx);
        put(E, " + ");
        emit_offset_times(E, n->b, size / unit, PREC_ADD + 1);
    } else {
        emit_offset_times(E, n->b, size / unit, 0);
    }
    pl->idx = capture_end(E, saved);
    pl->unit = unit;
    pl->align = min_int(pl->align, pow2_int(k->kind == N_INT ? k->ival * size : size));
    pl->ty = g;
}

/* The place's index counting UNIT bytes: exact where the units divide; otherwise a division that Metal's
   alignment rule makes exact (the place is at least as aligned as its type, checked by the caller). */
static const char *place_index(Emit *E, const Place *pl, int unit)
{
    if (pl->off % unit == 0) { /* (a division where the unit is smaller: exact by the alignment) */
        const char *i = scaled_text(E, pl->idx, pl->unit, unit);
        if (!pl->off)
            return i;
        return strcmp(i, "0u") ? arena_printf(E->prog->arena, "%s + %du", i, pl->off / unit) : arena_printf(E->prog->arena, "%du", pl->off / unit);
    }
    const char *bytes = scaled_text(E, pl->idx, pl->unit, 1);
    if (pl->off)
        bytes = arena_printf(E->prog->arena, "%s + %du", bytes, pl->off);
    return arena_printf(E->prog->arena, "(%s) / %du", bytes, unit);
}

/* The place's byte address is a multiple of this power of two. */
static int place_align(const Place *pl)
{
    return pl->off ? min_int(pl->align, pow2_int(pl->off)) : pl->align;
}

/* A scalar or vector type read through a view of its own (not a struct, array, matrix or packed vector). */
static bool leaf_type(const Type *t)
{
    return ty_is_scalar(t) || (t->kind == TY_VEC && !(t->packed && t->n == 3));
}

static bool helper_known(Emit *E, const char *name)
{
    for (int i = 0; i < E->ptr_helper_names.len; i++)
        if (!strcmp(E->ptr_helper_names.items[i], name))
            return true;
    pv_push(&E->ptr_helper_names, (void *)name);
    return false;
}

static const char *type_key(Emit *E, Type *t)
{
    if (t->kind == TY_ARRAY)
        return arena_printf(E->prog->arena, "%s_%d", type_key(E, t->elem), t->n);
    return arena_printf(E->prog->arena, "%s%s", t->packed ? "packed_" : "", glsl_type(E, t));
}


/* Reads (or writes, STORE) the value of type T at index I (a name) counting UNIT bytes plus OFF bytes in ROOT
   into (from) the GLSL lvalue DST, member by member: appended to SB. */
static void gen_copy(Emit *E, StrBuf *sb, Var *root, Type *t, const char *i, int unit, int off, const char *dst, bool store, int depth)
{
    const char *ind = depth == 0 ? "    " : arena_printf(E->prog->arena, "%*s", 4 * (depth + 1), "");
    Place pl = {root, NULL, t, i, unit, 256, false, off};
    if (t->kind == TY_STRUCT && !ptr_in_pieces(t)) {
        for (int f = 0; f < t->sdef->n_fields; f++)
            gen_copy(E, sb, root, t->sdef->fields[f].ty, i, unit, off + ty_member_offset(t->sdef, f),
                     arena_printf(E->prog->arena, "%s.%s", dst, t->sdef->fields[f].glsl_name), store, depth);
        return;
    }
    if (t->kind == TY_ARRAY || t->kind == TY_MAT) {
        int size = ptr_elem_size(t->elem), u = gcd_int(gcd_int(unit, size), off ? off : unit);
        const char *k = arena_printf(E->prog->arena, "k%d", depth);
        const char *base = scaled_text(E, i, unit, u);
        const char *j = arena_printf(E->prog->arena, "mtl_%s", k);
        sb_printf(sb, "%sfor (uint %s = 0u; %s < %du; %s++)\n%s{\n", ind, k, k, t->n, k, ind);
        const char *step = size / u == 1 ? k : arena_printf(E->prog->arena, "%s * %du", k, size / u);
        sb_printf(sb, "%s    uint %s = %s%s%s;\n", ind, j, strcmp(base, "0u") ? base : "", strcmp(base, "0u") ? " + " : "", step);
        gen_copy(E, sb, root, t->elem, j, u, off, arena_printf(E->prog->arena, "%s[%s]", dst, k), store, depth + 1);
        sb_printf(sb, "%s}\n", ind);
        return;
    }
    if (t->kind == TY_VEC && t->packed && t->n == 3) {
        for (int c = 0; c < 3; c++)
            gen_copy(E, sb, root, t->elem, i, unit, off + c * ptr_elem_size(t->elem), arena_printf(E->prog->arena, "%s[%d]", dst, c), store, depth);
        return;
    }
    if (!leaf_type(t)) {
        diag_error(E->prog->diag, root->loc, "'%s' is read as %s member by member: not supported for this type", root->name, ty_metal_name(E->prog->arena, t));
        return;
    }
    const char *view = view_name(E, root, t), *idx = place_index(E, &pl, ptr_elem_size(t));
    if (store)
        sb_printf(sb, "%s%s[%s] = %s;\n", ind, view, idx, dst);
    else
        sb_printf(sb, "%s%s = %s[%s];\n", ind, dst, view, idx);
}

/* mtl_load_ROOT_T(i): the T at index i (counting T's alignment) of buffer ROOT, read member by member. */
static const char *load_helper(Emit *E, Var *root, Type *t)
{
    const char *name = arena_printf(E->prog->arena, "mtl_load_%s_%s", root->glsl_name, type_key(E, t));
    if (helper_known(E, name))
        return name;
    StrBuf sb = {0};
    sb_printf(&sb, "// '%s' read as %s from %d-byte steps, member by member\n%s %s(uint i)\n{\n    %s v%s;\n", root->name,
              ty_metal_name(E->prog->arena, t), ty_metal_align(t), glsl_type(E, t), name, glsl_type(E, t), array_suffix(E, t));
    gen_copy(E, &sb, root, t, "i", ty_metal_align(t), 0, "v", false, 0);
    sb_puts(&sb, "    return v;\n}\n\n");
    sb_puts(&E->ptr_helpers, sb.data);
    sb_free(&sb);
    return name;
}

/* mtl_store_ROOT_T(i, v): writes v member by member. */
static const char *store_helper(Emit *E, Var *root, Type *t)
{
    const char *name = arena_printf(E->prog->arena, "mtl_store_%s_%s", root->glsl_name, type_key(E, t));
    if (helper_known(E, name))
        return name;
    StrBuf sb = {0};
    sb_printf(&sb, "// '%s' written as %s in %d-byte steps, member by member\nvoid %s(uint i, %s v%s)\n{\n", root->name,
              ty_metal_name(E->prog->arena, t), ty_metal_align(t), name, glsl_type(E, t), array_suffix(E, t));
    gen_copy(E, &sb, root, t, "i", ty_metal_align(t), 0, "v", true, 0);
    sb_puts(&sb, "}\n\n");
    sb_puts(&E->ptr_helpers, sb.data);
    sb_free(&sb);
    return name;
}

/* The GLSL type of an unsigned integer of N bytes. */
static const char *uint_of_size(Emit *E, int n)
{
    return n == 1 ? scalar_glsl(E, TY_UCHAR) : n == 2 ? scalar_glsl(E, TY_USHORT) : n == 4 ? "uint" : scalar_glsl(E, TY_ULONG);
}

/* mtl_load_ROOT_T_byW(i) / mtl_store_ROOT_T_byW(i, v): a scalar or vector at an index counting W bytes, where
   W is less than T's alignment (a uint32 at byte 2 of a block: ggml's `*(device const uint32_t *)xb->qh`): its
   bits put together from W-byte pieces (pack32(u16vec2(...)) and unpack). */
static const char *pieces_helper(Emit *E, Var *root, Type *t, int w, bool store)
{
    const char *name = arena_printf(E->prog->arena, "mtl_%s_%s_%s_by%d", store ? "store" : "load", root->glsl_name, type_key(E, t), w);
    if (helper_known(E, name))
        return name;
    TypeKind k = ty_scalar_kind(t);
    int cs = ptr_elem_size(ty_scalar(k)), n = ty_width(t), per = cs / w;
    const char *bits_t = uint_of_size(E, cs);
    const char *view = view_name(E, root, ty_scalar(w == 1 ? TY_UCHAR : w == 2 ? TY_USHORT : TY_UINT));
    E->L->need_int8 |= w == 1;
    E->L->need_int16 |= w == 2 || cs == 2;
    E->L->need_int64 |= cs == 8;
    const char *vecp = w == 1 ? "u8vec" : w == 2 ? "u16vec" : "uvec";
    static const char *to_bits[TY_UNSUPPORTED] = {[TY_HALF] = "float16BitsToUint16", [TY_FLOAT] = "floatBitsToUint"};
    static const char *from_bits[TY_UNSUPPORTED] = {[TY_HALF] = "uint16BitsToFloat16", [TY_FLOAT] = "uintBitsToFloat"};
    StrBuf sb = {0};
    sb_printf(&sb, "// '%s' %s as %s at %d-byte alignment: %d-byte pieces\n", root->name, store ? "written" : "read", ty_metal_name(E->prog->arena, t), w, w);
    if (store)
        sb_printf(&sb, "void %s(uint i, %s v)\n{\n", name, glsl_type(E, t));
    else
        sb_printf(&sb, "%s %s(uint i)\n{\n    %s v;\n", glsl_type(E, t), name, glsl_type(E, t));
    for (int c = 0; c < n; c++) {
        const char *comp = n > 1 ? arena_printf(E->prog->arena, "v[%d]", c) : "v";
        const char *scal = scalar_glsl(E, k);
        if (store) {
            const char *bits = to_bits[k] ? arena_printf(E->prog->arena, "%s(%s)", to_bits[k], comp) : arena_printf(E->prog->arena, "%s(%s)", bits_t, comp);
            if (cs == 8 && w < 4)
                sb_printf(&sb, "    uvec2 b%d = unpack32(%s);\n", c, bits);
            else
                sb_printf(&sb, "    %s%d b%d = unpack%d(%s);\n", vecp, per, c, w * 8, bits);
            for (int p = 0; p < per; p++) {
                const char *pc = cs == 8 && w < 4 ? arena_printf(E->prog->arena, "unpack%d(b%d[%d])[%d]", w * 8, c, p / (4 / w), p % (4 / w))
                                                  : arena_printf(E->prog->arena, "b%d[%d]", c, p);
                sb_printf(&sb, "    %s[i + %du] = %s;\n", view, (unsigned)(c * per + p), pc);
            }
        } else {
            StrBuf parts = {0};
            if (cs == 8 && w < 4) { /* two 32-bit words first */
                for (int h = 0; h < 2; h++) {
                    sb_printf(&parts, "%spack32(%s%d(", h ? ", " : "", vecp, 4 / w);
                    for (int p = 0; p < 4 / w; p++)
                        sb_printf(&parts, "%s%s[i + %du]", p ? ", " : "", view, (unsigned)(c * per + h * (4 / w) + p));
                    sb_puts(&parts, "))");
                }
                sb_printf(&sb, "    %s bits%d = pack64(uvec2(%s));\n", bits_t, c, parts.data);
            } else {
                for (int p = 0; p < per; p++)
                    sb_printf(&parts, "%s%s[i + %du]", p ? ", " : "", view, (unsigned)(c * per + p));
                sb_printf(&sb, "    %s bits%d = pack%d(%s%d(%s));\n", bits_t, c, cs * 8, vecp, per, parts.data);
            }
            sb_free(&parts);
            if (from_bits[k])
                sb_printf(&sb, "    %s = %s(bits%d);\n", comp, from_bits[k], c);
            else
                sb_printf(&sb, "    %s = %s(bits%d);\n", comp, scal, c);
        }
    }
    sb_puts(&sb, store ? "}\n\n" : "    return v;\n}\n\n");
    sb_puts(&E->ptr_helpers, sb.data);
    sb_free(&sb);
    return name;
}

/* Whether a place of packed vector type T is read component by component: its proven alignment is at least its
   scalars' but less than its size (a packed_float4 at any 4-byte offset: PyTorch's `*(device packed_float4*)(x + i)`),
   so an index into a view of T, which counts whole vectors, cannot reach it. */
static bool packed_by_elems(const Place *pl, Type *t)
{
    return t->kind == TY_VEC && t->packed && place_align(pl) < ptr_elem_size(t) &&
           place_align(pl) >= ptr_elem_size(ty_scalar(ty_scalar_kind(t)));
}

/* The rest of a helper's body that reads (returns) or writes (v) vector T component by component at index i of
   VIEW, the buffer's view of T's scalars; closes the function. */
static void by_components(Emit *E, StrBuf *sb, const char *view, Type *t, bool store)
{
    if (!store)
        sb_printf(sb, "    return %s(", glsl_type(E, t));
    for (int c = 0; c < t->n; c++) {
        const char *at = c ? arena_printf(E->prog->arena, "%s[i + %du]", view, c) : arena_printf(E->prog->arena, "%s[i]", view);
        if (store)
            sb_printf(sb, "    %s = v[%d];\n", at, c);
        else
            sb_printf(sb, "%s%s", c ? ", " : "", at);
    }
    sb_puts(sb, store ? "}\n\n" : ");\n}\n\n");
}

/* mtl_load_ROOT_T_by_elems(i) / mtl_store_ROOT_T_by_elems(i, v): packed vector T at an index counting its
   scalars, read or written component by component through the buffer's view of the scalar type. */
static const char *elems_helper(Emit *E, Var *root, Type *t, bool store)
{
    const char *name = arena_printf(E->prog->arena, "mtl_%s_%s_%s_by_elems", store ? "store" : "load", root->glsl_name, type_key(E, t));
    if (helper_known(E, name))
        return name;
    const char *view = view_name(E, root, ty_scalar(ty_scalar_kind(t)));
    StrBuf sb = {0};
    sb_printf(&sb, "// '%s' %s as %s at a multiple of its scalars' size only: component by component\n", root->name, store ? "written" : "read", ty_metal_name(E->prog->arena, t));
    if (store)
        sb_printf(&sb, "void %s(uint i, %s v)\n{\n", name, glsl_type(E, t));
    else
        sb_printf(&sb, "%s %s(uint i)\n{\n", glsl_type(E, t), name);
    by_components(E, &sb, view, t, store);
    sb_puts(&E->ptr_helpers, sb.data);
    sb_free(&sb);
    return name;
}

/* Whether a place of vector type T is aligned only at run time: its proven alignment is its scalars' but less
   than its own (ptr.c keeps a buffer's vector cast at a run-time offset counting scalars: ggml's float4 rows at
   `dst + row * ne0`), so it is read whole where the index is aligned, else component by component. */
static bool aligned_at_run_time(const Place *pl, Type *t)
{
    int s = t->kind == TY_VEC ? ptr_elem_size(ty_scalar(ty_scalar_kind(t))) : 0;
    return t->kind == TY_VEC && !t->packed && !pl->tight && ty_scalar_kind(t) != TY_BOOL && place_align(pl) >= s &&
           place_align(pl) < ty_metal_align(t);
}

/* mtl_load_ROOT_T_at(i) / mtl_store_ROOT_T_at(i, v): vector T at an index counting its scalars, through the view
   of T where the index is a multiple of T's alignment, else through the view of its scalars. */
static const char *aligned_helper(Emit *E, Var *root, Type *t, bool store)
{
    Arena *a = E->prog->arena;
    const char *name = arena_printf(a, "mtl_%s_%s_%s_at", store ? "store" : "load", root->glsl_name, type_key(E, t));
    if (helper_known(E, name))
        return name;
    const char *whole = view_name(E, root, t), *view = view_name(E, root, ty_scalar(ty_scalar_kind(t)));
    int steps = ty_metal_align(t) / ptr_elem_size(ty_scalar(ty_scalar_kind(t)));
    StrBuf sb = {0};
    sb_printf(&sb, "// '%s' %s as %s at a multiple of its scalars' size: whole where aligned, else component by component\n",
              root->name, store ? "written" : "read", ty_metal_name(a, t));
    if (store)
        sb_printf(&sb, "void %s(uint i, %s v)\n{\n    if (i %% %du == 0u) {\n        %s[i / %du] = v;\n        return;\n    }\n",
                  name, glsl_type(E, t), steps, whole, steps);
    else
        sb_printf(&sb, "%s %s(uint i)\n{\n    if (i %% %du == 0u)\n        return %s[i / %du];\n",
                  glsl_type(E, t), name, steps, whole, steps);
    by_components(E, &sb, view, t, store);
    sb_puts(&E->ptr_helpers, sb.data);
    sb_free(&sb);
    return name;
}

/* mtl_OP_ROOT_T_at(i, y): `x op= y` on such a vector (ptr.c's run-time aligned places), its index taken once. */
static const char *update_helper(Emit *E, Var *root, Type *t, const char *op)
{
    static const struct { const char *op, *name; } ops[] = {{"+=", "add"}, {"-=", "sub"}, {"*=", "mul"}, {"/=", "div"},
        {"%=", "rem"}, {"&=", "and"}, {"|=", "or"}, {"^=", "xor"}, {"<<=", "shl"}, {">>=", "shr"}};
    const char *opname = "op";
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (!strcmp(ops[k].op, op))
            opname = ops[k].name;
    Arena *a = E->prog->arena;
    const char *name = arena_printf(a, "mtl_%s_%s_%s_at", opname, root->glsl_name, type_key(E, t));
    if (helper_known(E, name))
        return name;
    const char *load = aligned_helper(E, root, t, false), *store = aligned_helper(E, root, t, true);
    StrBuf sb = {0};
    sb_printf(&sb, "// '%s' %s on %s there\nvoid %s(uint i, %s y)\n{\n    %s(i, %s(i) %.*s y);\n}\n\n", root->name, op,
              ty_metal_name(a, t), name, glsl_type(E, t), store, load, (int)strlen(op) - 1, op);
    sb_puts(&E->ptr_helpers, sb.data);
    sb_free(&sb);
    return name;
}

/* The unsigned bits (of its own size) of the value E of scalar kind K. */
static const char *bits_text(Emit *E, TypeKind k, const char *e)
{
    Arena *a = E->prog->arena;
    switch (k) {
    case TY_FLOAT: return arena_printf(a, "floatBitsToUint(%s)", e);
    case TY_HALF: E->L->need_int16 = true; return arena_printf(a, "float16BitsToUint16(%s)", e);
    case TY_INT: case TY_ENUM: return arena_printf(a, "uint(%s)", e);
    case TY_SHORT: return arena_printf(a, "%s(%s)", scalar_glsl(E, TY_USHORT), e);
    case TY_CHAR: return arena_printf(a, "%s(%s)", scalar_glsl(E, TY_UCHAR), e);
    case TY_LONG: return arena_printf(a, "%s(%s)", scalar_glsl(E, TY_ULONG), e);
    default: return e; /* unsigned, bfloat (its bits) */
    }
}

/* A value of scalar kind K from the unsigned value X (its bits, or wider: truncated to K's size first). */
static const char *from_bits_text(Emit *E, TypeKind k, const char *x)
{
    Arena *a = E->prog->arena;
    const char *u = arena_printf(a, "%s(%s)", uint_of_size(E, ptr_elem_size(ty_scalar(k))), x);
    switch (k) {
    case TY_FLOAT: return arena_printf(a, "uintBitsToFloat(%s)", u);
    case TY_HALF: E->L->need_float16 = true; return arena_printf(a, "uint16BitsToFloat16(%s)", u);
    case TY_INT: case TY_ENUM: return arena_printf(a, "int(%s)", u);
    case TY_SHORT: case TY_CHAR: case TY_LONG: return arena_printf(a, "%s(%s)", scalar_glsl(E, k), u);
    default: return u;
    }
}

/* GLSL's pack function for N pieces of S bytes into one value: pack32(u8vec4(...)). */
static const char *pack_text(Emit *E, int s, char **pieces, int n)
{
    Arena *a = E->prog->arena;
    if (s * n == 8 && s == 1) { /* no pack64 of bytes: two words first */
        char *lo[4] = {pieces[0], pieces[1], pieces[2], pieces[3]}, *hi[4] = {pieces[4], pieces[5], pieces[6], pieces[7]};
        return arena_printf(a, "pack64(uvec2(%s, %s))", pack_text(E, 1, lo, 4), pack_text(E, 1, hi, 4));
    }
    const char *vt = s == 1 ? "u8vec" : s == 2 ? "u16vec" : "uvec";
    E->L->need_int8 |= s == 1;
    E->L->need_int16 |= s == 2 || s * n == 2;
    E->L->need_int64 |= s * n == 8;
    StrBuf sb = {0};
    sb_printf(&sb, "pack%d(%s%d(", 8 * s * n, vt, n);
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%s%s", i ? ", " : "", pieces[i]);
    sb_puts(&sb, "))");
    const char *r = arena_printf(a, "%s", sb.data);
    sb_free(&sb);
    return r;
}

/* ---- thread memory and constants read as another scalar type (ggml's `(thread const uint8_t*)&aux32`) ----
   The root keeps its type; a narrower value is shifted out of its element, a wider one packed from several. */

static const char *root_elem_text(Emit *E, Var *r, const char *k)
{
    if (ptr_struct_array(r)) /* a struct of one array: its elements (w_local.wi[k]) */
        return arena_printf(E->prog->arena, "%s.%s[%s]", r->glsl_name, ptr_struct_array(r)->glsl_name, k);
    return r->ty->kind == TY_ARRAY ? arena_printf(E->prog->arena, "%s[%s]", r->glsl_name, k) : r->glsl_name;
}

/* The scalar type of thread memory R's elements as root_elem_text reads them. */
static Type *thread_root_elem(const Var *r)
{
    return ptr_struct_array(r) ? ptr_struct_array(r)->ty->elem : ptr_root_elem(r);
}

static const char *thread_load_text(Emit *E, const Place *pl)
{
    Arena *a = E->prog->arena;
    Type *rt = thread_root_elem(pl->root);
    TypeKind kf = ty_scalar_kind(pl->ty), kr = ty_scalar_kind(rt);
    int sf = ptr_elem_size(pl->ty), sr = ptr_elem_size(rt);
    if (pl->ty->kind == TY_VEC && (sf != sr || kf != kr)) { /* lane by lane (MLX's uchar4 bytes[2] in a union) */
        Type *sc = ty_scalar(kf);
        StrBuf sb = {0};
        sb_printf(&sb, "%s(", glsl_type(E, pl->ty));
        for (int i = 0; i < pl->ty->n; i++) {
            Place q = *pl;
            q.ty = sc;
            q.off += i * ptr_elem_size(sc);
            q.tight = true;
            sb_printf(&sb, "%s%s", i ? ", " : "", thread_load_text(E, &q));
        }
        sb_puts(&sb, ")");
        const char *r = arena_printf(a, "%s", sb.data);
        sb_free(&sb);
        return r;
    }
    const char *k = place_index(E, pl, sr), *b = place_index(E, pl, 1);
    if (sf == sr && kf == kr)
        return root_elem_text(E, pl->root, k);
    if (sf == sr)
        return from_bits_text(E, kf, bits_text(E, kr, root_elem_text(E, pl->root, k)));
    if (sf < sr) {
        const char *w = kr == TY_UINT || kr == TY_ULONG ? root_elem_text(E, pl->root, k)
                        : arena_printf(a, "%s(%s)", sr == 8 ? scalar_glsl(E, TY_ULONG) : "uint", bits_text(E, kr, root_elem_text(E, pl->root, k)));
        return from_bits_text(E, kf, arena_printf(a, "(%s >> (%s %% %du * 8u))", w, operand_text(E, b), sr));
    }
    char *pieces[8];
    for (int i = 0; i < sf / sr && i < 8; i++)
        pieces[i] = (char *)bits_text(E, kr, root_elem_text(E, pl->root, i ? arena_printf(a, "%s + %du", k, i) : k));
    return from_bits_text(E, kf, pack_text(E, sr, pieces, sf / sr));
}

/* The assignment of V (a value of the place's type) into thread memory of a wider (or equal) type. */
static const char *thread_store_text(Emit *E, const Place *pl, const char *v, SrcLoc loc)
{
    Arena *a = E->prog->arena;
    Type *rt = thread_root_elem(pl->root);
    TypeKind kf = ty_scalar_kind(pl->ty), kr = ty_scalar_kind(rt);
    int sf = ptr_elem_size(pl->ty), sr = ptr_elem_size(rt);
    const char *k = place_index(E, pl, sr), *b = place_index(E, pl, 1), *el = root_elem_text(E, pl->root, k);
    if (sf > sr) {
        diag_error(E->prog->diag, loc, "a %s written into '%s' (of %s) is not supported yet (thread memory is written as a type as wide or narrower)",
                   ty_metal_name(a, pl->ty), pl->root->name, ty_metal_name(a, rt));
        return "";
    }
    if (sf == sr)
        return arena_printf(a, "%s = %s", el, kf == kr ? v : from_bits_text(E, kr, bits_text(E, kf, v)));
    if (sr <= 4)
        return arena_printf(a, "%s = %s", el, from_bits_text(E, kr, arena_printf(a, "bitfieldInsert(uint(%s), uint(%s), int(%s %% %du) * 8, %d)",
                                                                                 bits_text(E, kr, el), bits_text(E, kf, v), operand_text(E, b), sr, 8 * sf)));
    const char *u64 = scalar_glsl(E, TY_ULONG), *sh = arena_printf(a, "(%s %% 8u * 8u)", operand_text(E, b));
    return arena_printf(a, "%s = %s", el, from_bits_text(E, kr, arena_printf(a, "(%s & ~(%s(0x%llxul) << %s)) | (%s(%s) << %s)", bits_text(E, kr, el), u64,
                                                                               (1ull << (8 * sf)) - 1, sh, u64, bits_text(E, kf, v), sh)));
}

/* ---- threadgroup memory stored as words (ptr.c's choose_memory) ----
   mtl_tg_load_ROOT_T(b) / mtl_tg_store_ROOT_T(b, v): the T at byte b of threadgroup memory ROOT stored as W-byte
   words: put together from whole words, or shifted out of one; written as whole words (W is the narrowest
   alignment the kernel writes there, so no store writes part of a word that another thread may write). */
static const char *tg_word_helper(Emit *E, Var *r, Type *t, bool store)
{
    Arena *a = E->prog->arena;
    const char *name = arena_printf(a, "mtl_tg_%s_%s_%s", store ? "store" : "load", r->glsl_name, type_key(E, t));
    if (helper_known(E, name))
        return name;
    int W = r->mem_word, n = ty_width(t), sc = ptr_elem_size(ty_scalar(ty_scalar_kind(t)));
    TypeKind k = ty_scalar_kind(t);
    bool whole = ty_metal_align(t) >= W; /* b is a multiple of W: whole words from w = b / W */
    StrBuf sb = {0};
    if (t->kind == TY_MAT) { /* column by column */
        const char *col = tg_word_helper(E, r, t->elem, store);
        int cs = ptr_elem_size(t->elem);
        sb_printf(&sb, "// threadgroup '%s' %s as %s at byte b, column by column\n", r->name, store ? "written" : "read", ty_metal_name(a, t));
        if (store)
            sb_printf(&sb, "void %s(uint b, %s v)\n{\n", name, glsl_type(E, t));
        else
            sb_printf(&sb, "%s %s(uint b)\n{\n    %s v;\n", glsl_type(E, t), name, glsl_type(E, t));
        for (int c = 0; c < t->n; c++) {
            const char *bc = c ? arena_printf(a, "b + %du", c * cs) : "b";
            if (store)
                sb_printf(&sb, "    %s(%s, v[%d]);\n", col, bc, c);
            else
                sb_printf(&sb, "    v[%d] = %s(%s);\n", c, col, bc);
        }
        sb_puts(&sb, store ? "}\n\n" : "    return v;\n}\n\n");
        sb_puts(&E->ptr_helpers, sb.data);
        sb_free(&sb);
        return name;
    }
    if (t->kind == TY_STRUCT) { /* member by member (ptr_word_struct: MLX's complex64_t) */
        StructDef *sd = t->sdef;
        const char **mem = arena_alloc(a, sizeof(char *) * (size_t)sd->n_fields);
        for (int f = 0; f < sd->n_fields; f++)
            mem[f] = tg_word_helper(E, r, sd->fields[f].ty, store);
        sb_printf(&sb, "// threadgroup '%s' %s as %s at byte b, member by member\n", r->name, store ? "written" : "read", ty_metal_name(a, t));
        if (store)
            sb_printf(&sb, "void %s(uint b, %s v)\n{\n", name, glsl_type(E, t));
        else
            sb_printf(&sb, "%s %s(uint b)\n{\n    %s v;\n", glsl_type(E, t), name, glsl_type(E, t));
        for (int f = 0; f < sd->n_fields; f++) {
            int off = ty_member_offset(sd, f);
            const char *bf = off ? arena_printf(a, "b + %du", off) : "b";
            if (store)
                sb_printf(&sb, "    %s(%s, v.%s);\n", mem[f], bf, sd->fields[f].glsl_name);
            else
                sb_printf(&sb, "    v.%s = %s(%s);\n", sd->fields[f].glsl_name, mem[f], bf);
        }
        sb_puts(&sb, store ? "}\n\n" : "    return v;\n}\n\n");
        sb_puts(&E->ptr_helpers, sb.data);
        sb_free(&sb);
        return name;
    }
    sb_printf(&sb, "// threadgroup '%s' (%d-byte words) %s as %s at byte b\n", r->name, W, store ? "written" : "read", ty_metal_name(a, t));
    if (store)
        sb_printf(&sb, "void %s(uint b, %s v)\n{\n", name, glsl_type(E, t));
    else
        sb_printf(&sb, "%s %s(uint b)\n{\n    %s v;\n", glsl_type(E, t), name, glsl_type(E, t));
    if (whole)
        sb_puts(&sb, W > 1 ? arena_printf(a, "    uint w = b / %du;\n", W) : "    uint w = b;\n");
    const char *S = r->glsl_name;
    for (int c = 0; c < n; c++) {
        const char *comp = n > 1 ? arena_printf(a, "v[%d]", c) : "v";
        int wc = c * sc / W; /* the component's first word past w (whole words) */
        const char *at = wc ? arena_printf(a, "%s[w + %du]", S, wc) : arena_printf(a, "%s[w]", S);
        if (!store) {
            const char *bits;
            if (sc == W)
                bits = at;
            else if (sc > W) {
                char *pieces[8];
                for (int p = 0; p < sc / W; p++)
                    pieces[p] = arena_printf(a, "%s[w + %du]", S, wc + p);
                bits = pack_text(E, W, pieces, sc / W);
            } else {
                const char *bc = c ? arena_printf(a, "(b + %du)", c * sc) : "b";
                bits = arena_printf(a, "(%s%s[%s / %du]%s >> (%s %% %du * 8u))", W == 4 ? "" : "uint(", S, bc, W, W == 4 ? "" : ")", bc, W);
            }
            sb_printf(&sb, "    %s = %s;\n", comp, from_bits_text(E, k, bits));
        } else if (sc >= W) {
            const char *bits = bits_text(E, k, comp);
            if (sc == W)
                sb_printf(&sb, "    %s = %s;\n", at, bits);
            else if (sc == 8 && W < 4)
                for (int p = 0; p < 8 / W; p++)
                    sb_printf(&sb, "    %s[w + %du] = unpack%d(unpack32(%s)[%d])[%d];\n", S, wc + p, 8 * W, bits, p / (4 / W), p % (4 / W));
            else
                for (int p = 0; p < sc / W; p++)
                    sb_printf(&sb, "    %s[w + %du] = unpack%d(%s)[%d];\n", S, wc + p, 8 * W, bits, p);
        } else if (c % (W / sc) == 0) { /* narrower components: W / sc of them make a word */
            char *pieces[4];
            for (int p = 0; p < W / sc; p++)
                pieces[p] = c + p < n ? (char *)bits_text(E, k, arena_printf(a, "v[%d]", c + p)) : (char *)arena_printf(a, "%s(0)", uint_of_size(E, sc));
            sb_printf(&sb, "    %s = %s;\n", at, pack_text(E, sc, pieces, W / sc));
        }
    }
    sb_puts(&sb, store ? "}\n\n" : "    return v;\n}\n\n");
    char *text = sb.data;
    for (char *p; (p = strstr(text, "[w + 0u]"));) /* w + 0u: w */
        memmove(p + 2, p + 7, strlen(p + 7) + 1);
    sb_puts(&E->ptr_helpers, text);
    sb_free(&sb);
    return name;
}

/* How a place of a scalar or vector type is read: whole through the view of its type, or in pieces. */
static int place_piece(const Place *pl)
{
    int a = ty_metal_align(pl->ty), p = place_align(pl);
    return pl->tight && p < a ? p : 0;
}

/* Prints the place's value (a load), or the lvalue of a scalar or vector read whole. */
static void emit_place(Emit *E, Node *n)
{
    Place pl;
    place_of(E, n, &pl);
    Type *t = pl.ty;
    if (pl.root == &ptr_dynamic) { /* a buffer chosen at run time: its reference as the member's type */
        int w = ty_is_scalar(t) && ptr_elem_size(t) > 1 ? place_piece(&pl) : 0;
        if (w && !has_side_effects(n)) { /* a scalar at a smaller alignment: packed from w-byte pieces */
            const char *i = place_index(E, &pl, w), *ref = ref_type(E, ty_scalar(w == 1 ? TY_UCHAR : TY_USHORT));
            char *pieces[8];
            for (int k = 0; k < ptr_elem_size(t) / w && k < 8; k++)
                pieces[k] = k ? arena_printf(E->prog->arena, "%s(%s).v[%s + %du]", ref, pl.ref, operand_text(E, i), k)
                              : arena_printf(E->prog->arena, "%s(%s).v[%s]", ref, pl.ref, i);
            put(E, from_bits_text(E, t->kind, pack_text(E, w, pieces, ptr_elem_size(t) / w)));
            return;
        }
        if (t->kind == TY_MAT && leaf_type(t->elem) && !place_piece(&pl) && !has_side_effects(n)) { /* column by column */
            const char *i = place_index(E, &pl, ptr_elem_size(t->elem)), *ref = ref_type(E, t->elem);
            putf(E, "%s(", glsl_type(E, t));
            for (int c = 0; c < t->n; c++)
                putf(E, c ? ", %s(%s).v[%s + %du]" : "%s(%s).v[%s]", ref, pl.ref, c ? operand_text(E, i) : i, c);
            put(E, ")");
            return;
        }
        if (!leaf_type(t) || (place_piece(&pl) && ptr_elem_size(ty_scalar(ty_scalar_kind(t))) > 1)) {
            diag_error(E->prog->diag, n->loc, "a %s read whole or at a %d-byte alignment through a pointer into a buffer chosen at run time, "
                       "made from bytes, is not supported yet (read its members)", ty_metal_name(E->prog->arena, t), place_align(&pl));
            return;
        }
        if (ty_scalar_kind(t) == TY_UCHAR && t->kind != TY_VEC)
            putf(E, "%s.v[%s]", pl.ref, place_index(E, &pl, 1));
        else
            putf(E, "%s(%s).v[%s]", ref_type(E, t), pl.ref, place_index(E, &pl, ptr_elem_size(t)));
        return;
    }
    if (pl.root->role != PR_BUFFER) {
        if (!leaf_type(t) && !((t->kind == TY_MAT || ptr_word_struct(t)) && pl.root->mem_word)) {
            diag_error(E->prog->diag, n->loc, "'%s' read as %s here: only scalars and vectors are read from %s memory of another type",
                       pl.root->name, ty_metal_name(E->prog->arena, t), pl.root->is_threadgroup || pl.root->role == PR_TGMEM ? "threadgroup" : "thread");
            return;
        }
        if (pl.root->mem_word)
            putf(E, "%s(%s)", tg_word_helper(E, pl.root, t, false), place_index(E, &pl, 1));
        else if (pl.root->is_threadgroup || pl.root->role == PR_TGMEM)
            putf(E, "%s[%s]", pl.root->glsl_name, place_index(E, &pl, ptr_elem_size(t)));
        else
            put(E, thread_load_text(E, &pl));
        return;
    }
    if (leaf_type(t)) {
        int w = place_piece(&pl);
        if (w) {
            if (ty_scalar_kind(t) == TY_BOOL || ptr_elem_size(ty_scalar(ty_scalar_kind(t))) == 1) /* 1-byte components: never misaligned */
                w = 0;
        }
        if (w) {
            putf(E, "%s(%s)", pieces_helper(E, pl.root, t, w, false), place_index(E, &pl, w));
            return;
        }
        if (packed_by_elems(&pl, t)) {
            putf(E, "%s(%s)", elems_helper(E, pl.root, t, false), place_index(E, &pl, ptr_elem_size(ty_scalar(ty_scalar_kind(t)))));
            return;
        }
        if (aligned_at_run_time(&pl, t)) {
            putf(E, "%s(%s)", aligned_helper(E, pl.root, t, false), place_index(E, &pl, ptr_elem_size(ty_scalar(ty_scalar_kind(t)))));
            return;
        }
        putf(E, "%s[%s]", view_name(E, pl.root, t), place_index(E, &pl, ptr_elem_size(t)));
        return;
    }
    if (ptr_in_pieces(t)) {
        diag_error(E->prog->diag, n->loc, "a whole %s is read here, which is or holds a union (no GLSL type): read its members", ty_metal_name(E->prog->arena, t));
        return;
    }
    int a = ty_metal_align(t);
    if (place_align(&pl) < a && pl.tight)
        diag_error(E->prog->diag, n->loc, "a whole %s read at a %d-byte alignment is not supported (its members are: read them)", ty_metal_name(E->prog->arena, t), place_align(&pl));
    putf(E, "%s(%s)", load_helper(E, pl.root, t), place_index(E, &pl, a));
}

/* `*p = v` / `p->f = v` through a place that is not one GLSL lvalue: a store function. Returns false if an
   ordinary assignment prints it. */
static bool emit_place_store(Emit *E, Node *n, int min_prec)
{
    if (!in_place(E, n->a))
        return false;
    Place pl;
    place_of(E, n->a, &pl);
    Type *t = pl.ty;
    if (pl.root == &ptr_dynamic) {
        if (leaf_type(t))
            return false; /* mtl_ref_T(p_ref).v[i] = v */
        diag_error(E->prog->diag, n->loc, "a whole %s written through a pointer into a buffer chosen at run time, made from bytes, is not supported yet "
                   "(write its members)", ty_metal_name(E->prog->arena, t));
        return true;
    }
    if (pl.root->role != PR_BUFFER && (pl.root->mem_word || !(pl.root->is_threadgroup || pl.root->role == PR_TGMEM))) {
        /* threadgroup words, thread memory of another type: a store function, or an assignment to the element */
        bool compound = strcmp(n->op, "=") != 0;
        bool leaf = leaf_type(t) || ((t->kind == TY_MAT || ptr_word_struct(t)) && pl.root->mem_word);
        if ((compound || min_prec > PREC_ASSIGN) && (!repeatable(n->a) || !leaf))
            diag_error(E->prog->diag, n->loc, "'%s' on memory stored as another type, through an expression with side effects, is not supported yet", n->op);
        if (!leaf || ((t->kind == TY_MAT || t->kind == TY_STRUCT) && compound)) {
            diag_error(E->prog->diag, n->loc, "'%s' written as %s here: only scalars and vectors are written to memory of another type", pl.root->name, ty_metal_name(E->prog->arena, t));
            return true;
        }
        StrBuf saved = capture_start(E);
        if (compound) { /* x op= y: x = x op y, in x's type */
            char op[4];
            snprintf(op, sizeof op, "%.*s", (int)strlen(n->op) - 1, n->op);
            putf(E, "%s(", glsl_type(E, t));
            emit_place(E, n->a);
            putf(E, " %s ", op);
            emit_expr(E, n->b, binary_prec(op) + 1);
            put(E, ")");
        } else {
            emit_coerced(E, n->b, t, PREC_ASSIGN + 1);
        }
        const char *v = capture_end(E, saved);
        if (pl.root->mem_word)
            putf(E, "%s(%s, %s)", tg_word_helper(E, pl.root, t, true), place_index(E, &pl, 1), v);
        else
            put(E, thread_store_text(E, &pl, v, n->loc));
        return true;
    }
    int w = leaf_type(t) && ptr_elem_size(ty_scalar(ty_scalar_kind(t))) > 1 ? place_piece(&pl) : 0;
    bool elems = leaf_type(t) && !w && packed_by_elems(&pl, t);
    bool at = leaf_type(t) && !w && !elems && aligned_at_run_time(&pl, t);
    if (leaf_type(t) && !w && !elems && !at)
        return false;
    if (at && !strcmp(n->op, "%=") && signed_integer(t)) { /* C's remainder needs mtl_rem, which takes scalars */
        diag_error(E->prog->diag, n->loc, "%%= on %s, stored whole only where aligned at run time, is not supported yet (write x = x %% y)",
                   ty_metal_name(E->prog->arena, t));
        return true;
    }
    if (strcmp(n->op, "=") != 0 && at && min_prec <= PREC_ASSIGN && ty_scalar_kind(t) != TY_BFLOAT) { /* x op= y: a function of the index, taken once */
        putf(E, "%s(%s, ", update_helper(E, pl.root, t, n->op), place_index(E, &pl, ptr_elem_size(ty_scalar(ty_scalar_kind(t)))));
        emit_coerced(E, n->b, t, PREC_ASSIGN + 1);
        put(E, ")");
        return true;
    }
    if (strcmp(n->op, "=") != 0) {
        diag_error(E->prog->diag, n->loc, "'%s' on a %s stored member by member is not supported yet (write x = x op y)", n->op, ty_metal_name(E->prog->arena, t));
        return true;
    }
    if (ptr_in_pieces(t)) {
        diag_error(E->prog->diag, n->loc, "a whole %s is written here, which is or holds a union (no GLSL type): write its members", ty_metal_name(E->prog->arena, t));
        return true;
    }
    if (min_prec > PREC_ASSIGN)
        diag_error(E->prog->diag, n->loc, "the value of an assignment of a %s stored member by member is not supported yet", ty_metal_name(E->prog->arena, t));
    const char *fn = w ? pieces_helper(E, pl.root, t, w, true) : elems ? elems_helper(E, pl.root, t, true) : at ? aligned_helper(E, pl.root, t, true) : store_helper(E, pl.root, t);
    putf(E, "%s(%s, ", fn, place_index(E, &pl, w ? w : elems || at ? ptr_elem_size(ty_scalar(ty_scalar_kind(t))) : ty_metal_align(t)));
    emit_coerced(E, n->b, t, PREC_ASSIGN + 1);
    put(E, ")");
    return true;
}

/* The caller's local arrays that pointer parameters of helper specialization S point into, each once, in
   parameter order: the helper takes them as `inout` arrays (copied in and back: only it can reach them). */
static int local_roots(PtrSpec *s, Var **out, int max)
{
    int n = 0;
    for (int i = 0; s && i < s->f->n_params; i++) {
        Var *r = ptr_like(s->f->params[i]) ? ptr_var_root(s, s->f->params[i]) : NULL;
        if (!r || r == &ptr_dynamic || (r->kind != VAR_LOCAL && r->kind != VAR_PARAM) || r->is_threadgroup || r->role != PR_NONE)
            continue;
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen |= out[j] == r;
        if (!seen && n < max)
            out[n++] = r;
    }
    return n;
}

/* Whether helper specialization S may write local array R (through a pointer parameter to non-const). */
static bool local_written(PtrSpec *s, Var *r)
{
    for (int i = 0; i < s->f->n_params; i++)
        if (ptr_like(s->f->params[i]) && ptr_var_root(s, s->f->params[i]) == r && !s->f->params[i]->ty->is_const)
            return true;
    return false;
}

/* The buffer reference type (GL_EXT_buffer_reference) to a buffer of ELEM. */
static const char *ref_type(Emit *E, Type *elem)
{
    ptr_add_ref_type(E->L, elem); /* declared with the resources, printed after the body */
    return arena_printf(E->prog->arena, "mtl_ref_%s", glsl_type(E, elem));
}

static bool is_dynamic(Emit *E, Var *v)
{
    return (v->ty->kind == TY_PTR || v->ty->kind == TY_ARRAY || v->ty->kind == TY_REF) && ptr_like(v) && ptr_var_root(E->spec, v) == &ptr_dynamic;
}

/* rows[j] of an array of pointers whose buffers are chosen at run time: its variable, else NULL. */
static Var *dynamic_pointer_array(Emit *E, Node *n)
{
    n = strip_parens(n);
    if (n->kind != N_INDEX || !n->ty || n->ty->kind != TY_PTR)
        return NULL;
    Node *a = strip_parens(n->a);
    return a->kind == N_VAR && a->var->ty->kind == TY_ARRAY && is_dynamic(E, a->var) ? a->var : NULL;
}

/* The uint64_t an argument buffer holds for pointer N (ptr_address_load): args.params[i], a->data. */
static void emit_address_value(Emit *E, Node *n)
{
    n = strip_parens(n);
    if (n->kind == N_INDEX) {
        emit_address_value(E, n->a);
        put(E, "[");
        emit_coerced(E, n->b, ty_scalar(TY_INT), 0);
        put(E, "]");
        return;
    }
    const char *fname = n->name; /* the member holding the addresses */
    Type *st = n->a->ty->kind == TY_REF || n->a->ty->kind == TY_PTR ? n->a->ty->elem : n->a->ty;
    if (st->kind == TY_STRUCT)
        ptr_member(st->sdef, n->name, NULL, &fname, E->prog->arena);
    if (n->a->ty->kind == TY_PTR) { /* a->data: the struct a points to */
        Node d = {.kind = N_DEREF, .a = n->a, .ty = n->a->ty->elem, .loc = n->loc};
        emit_expr(E, &d, PREC_POSTFIX);
    } else
        emit_expr(E, n->a, PREC_POSTFIX);
    putf(E, ".%s", fname);
}

static void emit_ref(Emit *E, Node *n, Type *elem);

/* The reference to the buffer (chosen at run time) that lvalue L is in: p[i], *p, p->f, x.f of such a place, or a
   reference variable chosen at run time (its own, x_ref). False if L is none of those. */
static bool emit_lvalue_ref(Emit *E, Node *l, Type *elem)
{
    l = strip_parens(l);
    while ((l->kind == N_MEMBER || l->kind == N_INDEX || l->kind == N_SWIZZLE) && l->a->ty && l->a->ty->kind != TY_PTR)
        l = strip_parens(l->a);
    if ((l->kind == N_INDEX || l->kind == N_DEREF || l->kind == N_MEMBER) && l->a->ty && l->a->ty->kind == TY_PTR) {
        emit_ref(E, l->a, elem);
        return true;
    }
    if (l->kind == N_VAR && l->var->ty->kind == TY_REF && is_dynamic(E, l->var)) {
        emit_ref(E, l, elem);
        return true;
    }
    return false;
}

/* The reference to the start of the buffer pointer expression N points into, as a reference to ELEM: for
   pointers whose buffer is chosen at run time (ptr.c). A pointer variable p carries its own, p_ref. */
static void emit_ref(Emit *E, Node *n, Type *elem)
{
    n = strip_parens(n);
    Var *r = n->kind == N_VAR ? ptr_var_root(E->spec, n->var) : ptr_root(E->spec, n);
    const char *text = NULL;
    Type *have = NULL;
    if (ptr_address_load(n)) { /* args.params[i]: the device address the host wrote there, as a reference */
        StrBuf saved = capture_start(E);
        emit_address_value(E, n);
        putf(E, "%s(%s)", ref_type(E, elem), capture_end(E, saved));
        return;
    }
    if (r && r != &ptr_dynamic && r->addr_offset) /* one buffer: its address */
        text = arena_printf(E->prog->arena, "mtl_params.%s_addr", r->glsl_name), have = ptr_addr_elem(r);
    else if (r == &ptr_dynamic && n->kind == N_VAR) /* a pointer (or reference) chosen at run time: its reference */
        text = arena_printf(E->prog->arena, "%s_ref", n->var->glsl_name), have = ptr_ref_elem(E->spec, n->var);
    else if (dynamic_pointer_array(E, n)) { /* rows[j]: rows_ref[j] */
        Var *v = dynamic_pointer_array(E, n);
        StrBuf saved = capture_start(E);
        emit_coerced(E, n->b, ty_scalar(TY_INT), 0);
        text = arena_printf(E->prog->arena, "%s_ref[%s]", v->glsl_name, capture_end(E, saved)), have = ptr_ref_elem(E->spec, v);
    }
    if (text) {
        if (ty_equal(have, elem))
            put(E, text);
        else
            putf(E, "%s(%s)", ref_type(E, elem), text);
        return;
    }
    switch (n->kind) {
    case N_CAST:
    case N_POSTFIX:
    case N_UNARY:
        emit_ref(E, n->a, elem);
        return;
    case N_ASSIGN:
        if (strcmp(n->op, "=") != 0) {
            emit_ref(E, n->a, elem);
            return;
        }
        break;
    case N_BINARY:
        emit_ref(E, n->a->ty && (n->a->ty->kind == TY_PTR || n->a->ty->kind == TY_ARRAY) ? n->a : n->b, elem);
        return;
    case N_ADDR:
    case N_MEMBER:
    case N_INDEX: /* &p[i], &p->f, p->qs (an array member decays): the reference of p */
        if (emit_lvalue_ref(E, n->kind == N_ADDR ? n->a : n, elem))
            return;
        break;
    case N_TERNARY:
        put(E, "(");
        emit_condition(E, n->a, PREC_OR);
        put(E, " ? ");
        emit_ref(E, n->b, elem);
        put(E, " : ");
        emit_ref(E, n->c, elem);
        put(E, ")");
        return;
    default:
        break;
    }
    diag_error(E->prog->diag, n->loc, "this pointer into a buffer chosen at run time is not supported here");
}

/* p[i] / *p / p->f through a pointer that is not itself a root: VIEW[index + i]. Returns false for roots. */
static bool emit_ptr_access(Emit *E, Node *p, Node *offset)
{
    Node *sp = strip_parens(p);
    Var *root = sp->kind == N_VAR && ptr_is_root(sp->var) ? sp->var : p->ty && p->ty->kind == TY_PTR ? ptr_root(E->spec, p) : NULL;
    if (root && root != &ptr_dynamic && root->view_lanes && p->ty && ty_width(p->ty->elem) == 1) {
        /* a scalar of a threadgroup array stored as vectors (ptr.c): tile[i / 4u][i % 4u] */
        if (has_side_effects(p) || (offset && has_side_effects(offset)))
            diag_error(E->prog->diag, p->loc, "a pointer with side effects (++, =) into '%s', which is also read as vectors, is not supported: move the side effect out", root->name);
        StrBuf saved = E->out;
        E->out = (StrBuf){0};
        bool is_root = sp->kind == N_VAR && ptr_is_root(sp->var);
        if (!is_root)
            emit_ptr_index(E, p);
        if (offset) {
            if (!is_root)
                put(E, " + ");
            emit_offset(E, offset, is_root ? 0 : PREC_ADD + 1);
        } else if (is_root) {
            put(E, "0u");
        }
        StrBuf tmp = E->out;
        char *idx = arena_printf(E->prog->arena, "%s", tmp.data ? tmp.data : "");
        sb_free(&tmp);
        E->out = saved;
        bool simple = strspn(idx, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(idx);
        putf(E, simple ? "%s[%s / %du][%s %% %du]" : "%s[(%s) / %du][(%s) %% %du]", root->glsl_name, idx, root->view_lanes, idx, root->view_lanes);
        return true;
    }
    if (root && root != &ptr_dynamic && root->ty->kind != TY_ARRAY && root->ty->kind != TY_PTR && !(sp->kind == N_VAR && sp->var == root)) {
        /* a pointer to a local (or threadgroup) scalar: the variable itself (rope_yarn's *cos_theta = ...) */
        put(E, root->glsl_name);
        return true;
    }
    if (sp->kind == N_VAR && ptr_is_root(sp->var)) {
        /* the buffer, threadgroup or local array itself: caller adds [i] */
        put(E, E->atomic_bits && sp->var->role == PR_BUFFER ? view_name(E, sp->var, ty_scalar(TY_UINT)) : sp->var->glsl_name);
        return false;
    }
    if (!p->ty || p->ty->kind != TY_PTR) {
        emit_expr(E, p, PREC_POSTFIX);
        return false;
    }
    if (ptr_root(E->spec, p) == &ptr_dynamic) {
        emit_ref(E, p, p->ty->elem); /* a buffer chosen at run time: p_ref.v[p + i] */
        put(E, ".v");
    } else {
        put(E, view_name(E, ptr_root(E->spec, p), p->ty->elem));
    }
    put(E, "[");
    Node *k = offset ? strip_parens(offset) : NULL;
    if (k && k->kind == N_INT && k->ival == 0) /* p[0] */
        offset = NULL;
    if (offset && zero_index(p)) {
        emit_offset(E, offset, 0);
    } else {
        emit_ptr_index(E, p);
        if (offset) {
            put(E, " + ");
            emit_offset(E, offset, PREC_ADD + 1);
        }
    }
    put(E, "]");
    return true;
}

/* A non-relaxed memory order as GL_KHR_memory_scope_semantics' trailing arguments: scope, storage, semantics. */
static void emit_order_args(Emit *E, int order, const char *scope, const char *storage)
{
    static const char *sem[] = {"gl_SemanticsRelaxed", "gl_SemanticsAcquire | gl_SemanticsMakeVisible",
                                "gl_SemanticsRelease | gl_SemanticsMakeAvailable",
                                "gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible",
                                "gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible"};
    if (scope)
        putf(E, ", %s", scope);
    putf(E, ", %s, %s", storage, sem[order]);
}

/* The variable an atomic object is in, and whether it is indexed (buffer[i], shared array[i]). */
static Var *atomic_root(Node *obj, bool *indexed)
{
    *indexed = obj->kind != N_VAR; /* a threadgroup scalar is the variable itself */
    Node *r = obj;
    while (r->kind != N_VAR)
        r = r->a;
    return r->var;
}

/* min, max or add on an atomic<float> held as bits: a compare-exchange loop, printed once per variable
   and function. Min and max: a NaN operand changes nothing, a NaN in memory is replaced, -0.0 < +0.0. */
static void emit_float_loop(Emit *E, Node *n, const char *op)
{
    bool indexed;
    Var *root = atomic_root(n->a, &indexed);
    const char *mem = root->role == PR_BUFFER ? arena_printf(E->prog->arena, "%s[i]", view_name(E, root, ty_scalar(TY_UINT)))
                      : indexed ? arena_printf(E->prog->arena, "%s[i]", root->glsl_name) : root->glsl_name;
    const char *fn = arena_printf(E->prog->arena, "mtl_fetch_%s_%s", op, root->glsl_name);
    if (!E->atomic_helpers.data || !strstr(E->atomic_helpers.data, arena_printf(E->prog->arena, " %s(", fn))) {
        bool add = !strcmp(op, "add");
        sb_printf(&E->atomic_helpers, "// atomic_fetch_%s_explicit on '%s': a compare-exchange loop on the float's bits\n", op, root->name);
        sb_printf(&E->atomic_helpers, "float %s(%sfloat v)\n{\n    uint seen = %s;\n    while (true) {\n", fn, indexed ? "uint i, " : "", mem);
        sb_printf(&E->atomic_helpers, "        float old = uintBitsToFloat(seen);\n");
        if (!add) {
            E->need_float_less = true;
            sb_printf(&E->atomic_helpers, "        if (isnan(v) || !(isnan(old) || mtl_float_less(%s)))\n            return old;\n",
                      !strcmp(op, "min") ? "v, old" : "old, v");
        }
        sb_printf(&E->atomic_helpers, "        uint found = atomicCompSwap(%s, seen, floatBitsToUint(%s));\n", mem, add ? "old + v" : "v");
        sb_printf(&E->atomic_helpers, "        if (found == seen)\n            return old;\n        seen = found;\n    }\n}\n\n");
    }
    putf(E, "%s(", fn);
    if (indexed) {
        if (n->a->kind == N_INDEX)
            emit_offset(E, n->a->b, PREC_ASSIGN + 1);
        else
            put(E, "0u");
        put(E, ", ");
    }
    if (!strcmp(n->name, "atomic_fetch_sub_explicit")) {
        put(E, "-");
        emit_coerced(E, n->list[1], ty_scalar(TY_FLOAT), PREC_UNARY);
    } else {
        emit_coerced(E, n->list[1], ty_scalar(TY_FLOAT), PREC_ASSIGN + 1);
    }
    put(E, ")");
}

/* atomic_thread_fence(flags, order, scope): memoryBarrier(scope, storage, semantics). */
static void emit_fence(Emit *E, Node *n)
{
    int scope = (int)(n->ival >> AT_SCOPE_SHIFT);
    bool dev = n->ival & AT_DEVICE_MEM, sh = n->ival & AT_SHARED_MEM;
    put(E, "memoryBarrier(");
    put(E, scope == AT_SCOPE_DEVICE ? "gl_ScopeDevice" : scope == AT_SCOPE_THREAD ? "gl_ScopeInvocation" : "gl_ScopeWorkgroup");
    emit_order_args(E, (int)(n->ival & AT_ORDER), NULL,
                    dev && sh ? "gl_StorageSemanticsBuffer | gl_StorageSemanticsShared" : dev ? "gl_StorageSemanticsBuffer" : "gl_StorageSemanticsShared");
    put(E, ")");
}

/* atomics.c resolved the object (n->a) and compare-exchange's expected (n->b). Compare-exchange keeps
   Metal's contract, writing the value found to expected when it differs:
   ((mtl_cas_T = atomicCompSwap(obj, expected, desired)) == expected || (expected = mtl_cas_T, false))
   atomic<float> compares bits, through the buffer's uint view. A memory order other than relaxed adds
   GL_KHR_memory_scope_semantics' scope and semantics arguments. */
static void emit_atomic(Emit *E, Node *n, int min_prec)
{
    if (!strcmp(n->name, "atomic_thread_fence")) {
        emit_fence(E, n);
        return;
    }
    Type *et = n->a->ty->elem;
    bool bits = n->ival & AT_BITS;
    int order = (int)(n->ival & AT_ORDER), fail = (int)(n->ival >> AT_FAIL_SHIFT & AT_ORDER);
    const char *scope = n->ival & AT_SHARED_MEM ? "gl_ScopeWorkgroup" : "gl_ScopeDevice";
    const char *storage = "gl_StorageSemanticsBuffer | gl_StorageSemanticsShared";
    bool indexed;
    Var *root = atomic_root(n->a, &indexed);
    if (root->atomic_bits && !n->b) {
        /* a threadgroup atomic<float> held as uint */
        const char *name = n->name + 7;
        if (!strcmp(name, "load_explicit") || !strcmp(name, "exchange_explicit") || !strcmp(name, "store_explicit")) {
            put(E, name[0] == 'l' ? "uintBitsToFloat(atomicOr(" : name[0] == 'e' ? "uintBitsToFloat(atomicExchange(" : "atomicExchange(");
            emit_expr(E, n->a, PREC_ASSIGN + 1);
            if (name[0] == 'l') {
                put(E, ", 0u))");
            } else {
                put(E, ", floatBitsToUint(");
                emit_coerced(E, n->list[1], et, PREC_ASSIGN + 1);
                put(E, name[0] == 'e' ? ")))" : "))");
            }
            return;
        }
        bits = true;
    }
    if (bits && !n->b && !strcmp(n->name, "atomic_load_explicit")) { /* the bits as stored, NaN payloads included */
        put(E, "uintBitsToFloat(atomicOr(");
        E->atomic_bits = true;
        emit_expr(E, n->a, PREC_ASSIGN + 1);
        E->atomic_bits = false;
        put(E, ", 0u))");
        return;
    }
    if (bits && !n->b) {
        emit_float_loop(E, n, strstr(n->name, "min") ? "min" : strstr(n->name, "max") ? "max" : "add");
        return;
    }
    const char *T = bits ? "uint" : glsl_type(E, et);
    if (et->kind == TY_FLOAT && !bits) { /* GL_EXT_shader_atomic_float (not for a threadgroup float held as bits) */
        if (n->ival & AT_SHARED_MEM)
            E->L->need_atomic_float_shared = true;
        else
            E->L->need_atomic_float_buffer = true;
    }
    if (n->b) {
        E->need_cas[bits ? TY_UINT : et->kind] = true;
        if (PREC_OR < min_prec)
            put(E, "(");
        putf(E, "(mtl_cas_%s = atomicCompSwap(", T);
        E->atomic_bits = bits;
        emit_expr(E, n->a, PREC_ASSIGN + 1);
        E->atomic_bits = false;
        put(E, bits ? ", floatBitsToUint(" : ", ");
        emit_expr(E, n->b, PREC_ASSIGN + 1);
        put(E, bits ? "), floatBitsToUint(" : ", ");
        emit_coerced(E, n->list[2], et, PREC_ASSIGN + 1);
        if (bits)
            put(E, ")");
        if (order + fail) {
            emit_order_args(E, order, scope, storage);
            emit_order_args(E, fail, NULL, storage);
        }
        put(E, bits ? ")) == floatBitsToUint(" : ")) == ");
        emit_expr(E, n->b, bits ? PREC_ASSIGN + 1 : PREC_EQ + 1);
        put(E, bits ? ") || (" : " || (");
        emit_expr(E, n->b, PREC_ASSIGN + 1);
        putf(E, bits ? " = uintBitsToFloat(mtl_cas_%s), false)" : " = mtl_cas_%s, false)", T);
        if (PREC_OR < min_prec)
            put(E, ")");
        return;
    }
    bool load = !strcmp(n->name, "atomic_load_explicit"), store = !strcmp(n->name, "atomic_store_explicit");
    putf(E, "%s(", order && load ? "atomicLoad" : order && store ? "atomicStore" : atomic_glsl(n->builtin));
    emit_expr(E, n->a, PREC_ASSIGN + 1);
    if (load && !order) {
        put(E, ", ");
        if (et->kind == TY_FLOAT)
            put(E, "-0.0"); /* x + -0.0 is x, -0.0 included (+0.0 would turn it into +0.0) */
        else
            emit_zero(E, et);
    } else if (!strcmp(n->name, "atomic_fetch_sub_explicit")) {
        put(E, ", -");
        emit_coerced(E, n->list[1], et, PREC_UNARY);
    } else if (!load) {
        put(E, ", ");
        emit_coerced(E, n->list[1], et, PREC_ASSIGN + 1);
    }
    if (order)
        emit_order_args(E, order, scope, storage);
    put(E, ")");
}

static void emit_call(Emit *E, Node *n)
{
    const char *name = n->fn ? n->fn->glsl_name : n->name;
    PtrSpec *s = NULL;
    if (n->fn) {
        /* the specialization for the roots this call's pointer arguments point into */
        s = ptr_call_spec(E->L, E->spec, n);
        if (s)
            name = s->glsl_name;
    }
    put(E, name);
    put(E, "(");
    for (int i = 0; i < n->n_list; i++) {
        if (i)
            put(E, ", ");
        Type *pt = n->fn && i < n->fn->n_params ? n->fn->params[i]->ty : NULL;
        if (pt && ptr_like(n->fn->params[i]) && pt->kind == TY_PTR && s && ptr_var_root(s, n->fn->params[i]) == &ptr_dynamic) {
            emit_ref(E, n->list[i], ptr_ref_elem(s, n->fn->params[i]));
            put(E, ", ");
            emit_index_in(E, n->list[i], ptr_var_unit(s, n->fn->params[i]).unit);
        } else if (pt && ptr_like(n->fn->params[i]) && pt->kind == TY_REF && s && ptr_var_root(s, n->fn->params[i]) == &ptr_dynamic) {
            /* `device T& x` given an element of a buffer chosen at run time: its buffer's reference, then its index */
            if (!emit_lvalue_ref(E, n->list[i], ptr_ref_elem(s, n->fn->params[i])))
                diag_error(E->prog->diag, n->list[i]->loc, "this reference into a buffer chosen at run time is not supported here");
            put(E, ", ");
            emit_addr_in(E, n->list[i], ptr_var_unit(s, n->fn->params[i]).unit);
        } else if (pt && ptr_like(n->fn->params[i]) && pt->kind == TY_REF)
            emit_addr_in(E, n->list[i], s ? ptr_var_unit(s, n->fn->params[i]).unit : 0);
        else if (pt && ptr_like(n->fn->params[i]))
            emit_index_in(E, n->list[i], s ? ptr_var_unit(s, n->fn->params[i]).unit : ptr_unit(E->spec, n->list[i]).unit); /* a local array decays to its index 0 */
        else if (pt && pt->kind != TY_REF)
            emit_coerced(E, n->list[i], pt, PREC_ASSIGN + 1);
        else
            emit_expr(E, n->list[i], PREC_ASSIGN + 1);
    }
    Var *locals[16];
    int nl = local_roots(s, locals, 16);
    for (int i = 0; i < nl; i++)
        putf(E, "%s%s", n->n_list || i ? ", " : "", locals[i]->glsl_name);
    if (n->fn && n->fn->uniform_sync && E->L->uniform_flow) {
        check_sync_position(E, n);
        if (n->n_list || nl)
            put(E, ", ");
        put(E, predicate(E));
    }
    put(E, ")");
}

static void emit_var(Emit *E, Node *n)
{
    Var *v = n->var;
    if (v->ty->kind == TY_REF && is_dynamic(E, v)) { /* a reference into a buffer chosen at run time */
        Type *have = ptr_ref_elem(E->spec, v);
        if (ty_equal(have, v->ty->elem))
            putf(E, "%s_ref.v[%s]", v->glsl_name, v->glsl_name);
        else
            putf(E, "%s(%s_ref).v[%s]", ref_type(E, v->ty->elem), v->glsl_name, v->glsl_name);
        return;
    }
    if (v->ty->kind == TY_REF && ptr_like(v)) {
        /* a reference into device or threadgroup memory: the element at its index */
        putf(E, "%s[%s]", view_name(E, ptr_var_root(E->spec, v), v->ty->elem), v->glsl_name);
        return;
    }
    put(E, v->glsl_name);
}

/* A synchronizing call already computed into a variable (uniform control flow): prints the variable. The latest
   one: a helper printed once per specialization (ptr.c) extracts the same node again, into a new variable. */
static bool emit_substituted(Emit *E, Node *n)
{
    for (int i = E->n_subst - 1; i >= 0; i--)
        if (E->subst_node[i] == n) {
            put(E, E->subst_name[i]);
            return true;
        }
    return false;
}

/* A stored bool read (layout.c): bool(m[i]), bvec3(f[i].mask): any nonzero byte reads as true. */
static void emit_bool_load(Emit *E, Node *n)
{
    Type *t = n->ty->kind == TY_REF ? n->ty->elem : n->ty;
    const Node *saved = E->bool_raw;
    E->bool_raw = n;
    putf(E, "%s(", glsl_type(E, t));
    emit_expr(E, n, PREC_ASSIGN + 1);
    put(E, ")");
    E->bool_raw = saved;
}

static void emit_expr(Emit *E, Node *n, int min_prec)
{
    if (n != E->bool_raw && layout_bool_stored(n)) {
        emit_bool_load(E, n);
        return;
    }
    if (n->ty && n->ty->kind == TY_PTR && n->kind != N_CALL && n->kind != N_ASSIGN && n->kind != N_POSTFIX && n->kind != N_UNARY) {
        /* a pointer value: its index (comparisons of pointers compare indices) */
        Node *s = strip_parens(n);
        bool compound = s->kind == N_BINARY || s->kind == N_CAST;
        if (compound && min_prec > PREC_ADD)
            put(E, "(");
        emit_ptr_index(E, n);
        if (compound && min_prec > PREC_ADD)
            put(E, ")");
        return;
    }
    if (n->kind == N_BINARY && n->a->ty && n->a->ty->kind == TY_PTR && n->b->ty && n->b->ty->kind == TY_PTR) {
        /* p - q and comparisons: the indices, counting the same unit */
        Var *ra = ptr_root(E->spec, n->a), *rb = ptr_root(E->spec, n->b);
        bool diff_ = !strcmp(n->op, "-");
        if (!diff_ && (ptr_is_null(n->a) || ptr_is_null(n->b))) { /* p == nullptr */
            Node *p = ptr_is_null(n->a) ? n->b : n->a;
            if (binary_prec(n->op) < min_prec)
                put(E, "(");
            emit_ptr_index(E, p);
            putf(E, " %s " NULL_INDEX, n->op);
            if (binary_prec(n->op) < min_prec)
                put(E, ")");
            return;
        }
        if (!diff_ && ra && rb && ra != rb && ra != &ptr_dynamic && rb != &ptr_dynamic && ra != &ptr_null && rb != &ptr_null) {
            if (binary_prec(n->op) < min_prec)
                put(E, "(");
            if (ra->role == PR_BUFFER && rb->role == PR_BUFFER) { /* src1 != src0: the byte addresses */
                Node *side[2] = {n->a, n->b};
                Var *root[2] = {ra, rb};
                for (int k = 0; k < 2; k++) {
                    if (k)
                        putf(E, " %s ", n->op);
                    E->L->need_int64 = true;
                    putf(E, "(uint64_t(mtl_params.%s_addr)", root[k]->glsl_name);
                    if (!zero_index(side[k])) {
                        put(E, " + uint64_t(");
                        emit_ptr_index(E, side[k]);
                        putf(E, ") * %dul", ptr_unit(E->spec, side[k]).unit);
                    }
                    put(E, ")");
                }
            } else { /* different threadgroup or thread arrays: different objects */
                put(E, !strcmp(n->op, "!=") ? "true" : "false");
            }
            if (binary_prec(n->op) < min_prec)
                put(E, ")");
            return;
        }
        int ua = ptr_unit(E->spec, n->a).unit, ub = ptr_unit(E->spec, n->b).unit, g = gcd_int(ua, ub);
        int step = ptr_elem_size(n->a->ty->elem) / g;
        bool diff = !strcmp(n->op, "-");
        if (diff)
            put(E, step > 1 ? "int64_t(int(" : "int64_t(int(");
        else if (binary_prec(n->op) < min_prec)
            put(E, "(");
        StrBuf saved = capture_start(E);
        emit_index_in(E, n->a, g);
        const char *a = capture_end(E, saved);
        saved = capture_start(E);
        emit_index_in(E, n->b, g);
        const char *b = capture_end(E, saved);
        if (diff) {
            putf(E, "%s - %s)", a, operand_text(E, b));
            if (step > 1)
                putf(E, " / %d", step);
            put(E, ")");
            E->L->need_int64 = true;
        } else {
            putf(E, "%s %s %s", a, n->op, b);
            if (binary_prec(n->op) < min_prec)
                put(E, ")");
        }
        return;
    }
    if ((n->kind == N_POSTFIX || (n->kind == N_UNARY && (!strcmp(n->op, "++") || !strcmp(n->op, "--")))) && n->a->ty &&
        n->a->ty->kind == TY_PTR && ptr_elem_size(n->a->ty->elem) != ptr_unit(E->spec, n->a).unit) {
        /* p++ on a pointer counting smaller steps than its pointee: the index moves by the pointee's size */
        int step = ptr_elem_size(n->a->ty->elem) / ptr_unit(E->spec, n->a).unit;
        char op = n->op[0];
        put(E, "(");
        if (n->kind == N_POSTFIX)
            put(E, "(");
        emit_expr(E, n->a, PREC_UNARY);
        putf(E, " %c= %du", op, step);
        if (n->kind == N_POSTFIX)
            putf(E, ") %c %du", op == '+' ? '-' : '+', step);
        put(E, ")");
        return;
    }
    if ((n->kind == N_DEREF || n->kind == N_INDEX) && n->a->ty && n->a->ty->kind == TY_PTR && ptr_root(E->spec, n->a) == &ptr_null) {
        emit_zero(E, n->ty); /* read through nullptr: only under a test of it (p ? p[0] : d), never reached */
        return;
    }
    if ((n->kind == N_DEREF || n->kind == N_INDEX || n->kind == N_MEMBER || (n->kind == N_VAR && n->var->ty->kind == TY_REF)) && in_place(E, n)) {
        emit_place(E, n); /* memory read member by member (ptr.c's units) */
        return;
    }
    switch (n->kind) {
    case N_INT:
    case N_ENUMVAL:
        emit_int_value(E, n->ival, n->ty);
        break;
    case N_BOOL:
        put(E, n->ival ? "true" : "false");
        break;
    case N_FLOAT:
        emit_float_value(E, n->fval, n->ty->kind);
        break;
    case N_VAR:
        emit_var(E, n);
        break;
    case N_PAREN:
        put(E, "(");
        emit_expr(E, n->a, 0);
        put(E, ")");
        break;
    case N_BINARY:
        emit_binary(E, n, min_prec);
        break;
    case N_ASSIGN:
        emit_assign(E, n, min_prec);
        break;
    case N_UNARY:
        if (!strcmp(n->op, "!") && n->a->ty && n->a->ty->kind == TY_PTR) { /* !p: p is nullptr */
            put(E, "!");
            emit_condition(E, n->a, PREC_POSTFIX);
            break;
        }
        if (!strcmp(n->op, "!") && n->ty->kind == TY_VEC) {
            put(E, "not(");
            emit_expr(E, n->a, PREC_ASSIGN + 1);
            put(E, ")");
            break;
        }
        if (PREC_UNARY < min_prec)
            put(E, "(");
        put(E, n->op);
        emit_expr(E, n->a, PREC_UNARY);
        if (PREC_UNARY < min_prec)
            put(E, ")");
        break;
    case N_POSTFIX:
        emit_expr(E, n->a, PREC_POSTFIX);
        put(E, n->op);
        break;
    case N_TERNARY:
        if (PREC_COND < min_prec)
            put(E, "(");
        emit_condition(E, n->a, PREC_OR);
        put(E, " ? ");
        emit_struct_operand(E, n->b, n->ty, PREC_ASSIGN);
        put(E, " : ");
        emit_struct_operand(E, n->c, n->ty, PREC_COND);
        if (PREC_COND < min_prec)
            put(E, ")");
        break;
    case N_CALL:
        if (!emit_substituted(E, n))
            emit_call(E, n);
        break;
    case N_ATOMIC:
        emit_atomic(E, n, min_prec);
        break;
    case N_BUILTIN:
        emit_builtin(E, n);
        break;
    case N_VECCTOR:
        emit_vecctor(E, n);
        break;
    case N_INITLIST:
        emit_initlist(E, n, n->ty);
        break;
    case N_CAST:
        emit_cast(E, n);
        break;
    case N_ASTYPE:
        emit_astype(E, n);
        break;
    case N_MEMBER:
        emit_expr(E, n->a, PREC_POSTFIX);
        put(E, ".");
        {
            const char *fname = n->name;
            Type *st = n->a->ty;
            if (st && st->kind == TY_STRUCT) /* x.d inside an anonymous member: x.anon0.d */
                ptr_member(st->sdef, n->name, NULL, &fname, E->prog->arena);
            put(E, fname);
        }
        break;
    case N_SWIZZLE:
        emit_expr(E, n->a, PREC_POSTFIX);
        put(E, ".");
        put(E, n->name);
        break;
    case N_INDEX:
        if (emit_ptr_access(E, n->a, n->b))
            break;
        put(E, "[");
        if (n->b->ty && ((n->b->ty->kind >= TY_CHAR && n->b->ty->kind <= TY_USHORT) || n->b->ty->kind == TY_LONG || n->b->ty->kind == TY_ULONG))
            /* GLSL indexes with 32-bit integers: C's promotion of 8/16-bit indices (lavapipe crashes on 8-bit ones);
               64-bit ones (MLX's strides) narrowed */
            emit_coerced(E, n->b, ty_scalar(ty_is_signed(n->b->ty) ? TY_INT : TY_UINT), 0);
        else
            emit_expr(E, n->b, 0);
        put(E, "]");
        break;
    case N_DEREF:
        if (emit_ptr_access(E, n->a, NULL))
            break;
        put(E, "[0]");
        break;
    case N_SIMD:
        if (!emit_substituted(E, n))
            emit_simd_call(E, n);
        break;
    default:
        diag_error(E->prog->diag, n->loc, "this expression is not supported yet");
        break;
    }
}

/* ---- statements ---- */

/* p++ / --p as a statement (its value unused) on a pointer counting smaller steps than its pointee: p += 9u. */
static bool emit_pointer_step(Emit *E, Node *n)
{
    n = strip_parens(n);
    if (!(n->kind == N_POSTFIX || (n->kind == N_UNARY && (!strcmp(n->op, "++") || !strcmp(n->op, "--")))) || !n->a->ty ||
        n->a->ty->kind != TY_PTR)
        return false;
    int unit = ptr_unit(E->spec, n->a).unit, step = ptr_elem_size(n->a->ty->elem) / unit;
    if (step == 1)
        return false;
    emit_expr(E, n->a, PREC_UNARY);
    putf(E, " %c= %du", n->op[0], step);
    return true;
}

/* A function's return value; a returned pointer counts as its specialization says (ptr.c). */
static void emit_return_value(Emit *E, Node *a)
{
    if (E->fn->ret->kind == TY_PTR && E->spec)
        emit_index_in(E, a, E->spec->ret_unit.unit ? E->spec->ret_unit.unit : ptr_unit(E->spec, a).unit);
    else
        emit_coerced(E, a, E->fn->ret, 0);
}

/* " = INIT" of pointer variable V (its index, or the indices of an array of pointers); nothing without an init. */
static void emit_ptr_init(Emit *E, Var *v)
{
    if (v->init && v->ty->kind == TY_ARRAY) { /* an array of pointers: their indices */
        Node *init = strip_parens(v->init);
        putf(E, " = uint[%d](", v->ty->n);
        for (int i = 0; init->kind == N_INITLIST && i < v->ty->n; i++) {
            if (i)
                put(E, ", ");
            if (i < init->n_list)
                emit_index_in(E, init->list[i], ptr_var_unit(E->spec, v).unit);
            else
                put(E, "0u");
        }
        put(E, ")");
    } else if (v->init) {
        put(E, " = ");
        if (v->ty->kind == TY_REF)
            emit_addr_in(E, v->init, ptr_var_unit(E->spec, v).unit);
        else
            emit_index_in(E, v->init, ptr_var_unit(E->spec, v).unit);
    }
}

static void emit_vardef(Emit *E, Var *v, bool as_const)
{
    if (ptr_like(v)) {
        if (is_dynamic(E, v)) { /* its buffer chosen at run time: a reference to it, then the index */
            putf(E, "%s %s_ref%s", ref_type(E, ptr_ref_elem(E->spec, v)), v->glsl_name, array_suffix(E, v->ty));
            if (v->init && v->ty->kind != TY_ARRAY) {
                put(E, " = ");
                emit_ref(E, v->init, ptr_ref_elem(E->spec, v));
            }
            put(E, ";\n");
            line_start(E);
        }
        putf(E, "uint %s%s", v->glsl_name, array_suffix(E, v->ty));
        emit_ptr_init(E, v);
        return;
    }
    if (ptr_union_storage(v)) { /* a local union: an unsigned integer, its members the bits of it (ptr.c) */
        const char *storage = glsl_type(E, ptr_union_storage(v));
        if (v->init && v->init->kind != N_INITLIST && v->init->ty && ty_equal(v->init->ty, v->ty)) {
            /* `auto bits = threefry2x32_hash(...)`, `rbits c = bits;`: a copy of another union's bits */
            putf(E, "%s %s = ", storage, v->glsl_name);
            emit_expr(E, v->init, PREC_ASSIGN);
            return;
        }
        if (v->init)
            diag_error(E->prog->diag, v->loc, "a union initialized where it is declared from a list or another type is not supported yet (assign a member)");
        putf(E, "%s %s = %s(0)", storage, v->glsl_name, storage);
        return;
    }
    if (!v->init || (v->init->kind != N_FLOAT && v->init->kind != N_INT)) /* a literal: nothing to compute */
        put(E, precise(E, v->ty));
    if (as_const || v->is_const_copy || (v->is_constexpr && v->init))
        put(E, "const ");
    putf(E, "%s %s%s", glsl_type(E, v->ty), v->glsl_name, array_suffix(E, v->ty));
    if (v->init) {
        put(E, " = ");
        if (v->init->kind == N_INITLIST)
            emit_initlist(E, v->init, v->ty);
        else
            emit_coerced(E, v->init, v->ty, PREC_ASSIGN);
    }
}

static void emit_decl_inline(Emit *E, Node *n)
{
    for (int i = 0; i < n->n_list; i++) {
        if (is_dynamic(E, n->list[i]->var))
            diag_error(E->prog->diag, n->list[i]->var->loc, "pointer '%s' into a buffer chosen at run time cannot be declared here (declare it before the loop)", n->list[i]->var->name);
        if (i)
            put(E, ", ");
        if (i == 0)
            emit_vardef(E, n->list[i]->var, false);
        else {
            Var *v = n->list[i]->var;
            putf(E, "%s%s", v->glsl_name, array_suffix(E, v->ty));
            if (v->init) {
                put(E, " = ");
                emit_coerced(E, v->init, v->ty, PREC_ASSIGN);
            }
        }
    }
}

static void emit_body(Emit *E, Node *n);

/* The body of a plain loop (LOOP) or switch: inside it, break and continue are GLSL's own. */
/* A loop pragma of the Metal source (`#pragma unroll`, `clang loop unroll(full)`, `unroll(disable)`: parse.c) as the
   loop's attribute: Vulkan compilers keep arrays indexed by an unrolled counter in registers (docs/translator.md). */
static void emit_loop_hint(Emit *E, const Node *n)
{
    if (!n->unroll)
        return;
    put(E, n->unroll > 0 ? "[[unroll]] " : "[[dont_unroll]] ");
    E->L->need_loop_hints = true;
}

static void emit_loop_body(Emit *E, Node *n, bool loop)
{
    E->real_depth++;
    E->real_loops += loop;
    emit_body(E, n);
    E->real_depth--;
    E->real_loops -= loop;
}

/* After a plain loop or switch inside which a return ran: leave the enclosing plain loop or switch too. */
static void emit_real_jumps(Emit *E, Node *n)
{
    if (E->real_depth > 0 && (n->flags & NF_RETURN) &&
        (n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_DO || n->kind == N_SWITCH)) {
        line_start(E);
        put(E, "if (!mtl_live)\n");
        line_start(E);
        put(E, "    break;\n");
    }
}

/* A sub-statement printed as a block, so every body reads the same. */
static void emit_body(Emit *E, Node *n)
{
    if (n->kind == N_BLOCK) {
        emit_stmt(E, n);
        return;
    }
    begin_scope(E);
    emit_stmt(E, n);
    end_scope(E);
}

static void emit_real_jumps(Emit *E, Node *n);

static void emit_stmt(Emit *E, Node *n)
{
    if (E->prog->line_markers && n->loc.file && n->kind != N_BLOCK) /* --check-bounds (bounds.c reads them) */
        putf(E, "/*@mtl %s:%d*/", n->loc.file, n->loc.line);
    switch (n->kind) {
    case N_BLOCK:
        begin_scope(E);
        for (int i = 0; i < n->n_list; i++) {
            emit_stmt(E, n->list[i]);
            if (E->uniform && E->real_depth == 0 && (n->list[i]->flags & (NF_RETURN | NF_BREAK | NF_CONTINUE)) && i + 1 < n->n_list) {
                /* some threads left: the rest runs under the predicate again */
                line_start(E);
                putf(E, "if (%s)\n", predicate(E));
                begin_scope(E);
                E->pred_depth++;
                for (int j = i + 1; j < n->n_list; j++)
                    emit_stmt(E, n->list[j]);
                E->pred_depth--;
                end_scope(E);
                break;
            }
            if (E->uniform)
                emit_real_jumps(E, n->list[i]);
        }
        end_scope(E);
        break;
    case N_DECL:
        for (int i = 0; i < n->n_list; i++) {
            if (n->list[i]->var->is_threadgroup)
                continue; /* declared at file scope */
            line_start(E);
            emit_vardef(E, n->list[i]->var, false);
            put(E, ";\n");
        }
        break;
    case N_EXPRSTMT:
        if (n->a->kind == N_SIMD && simd_table[n->a->builtin].group == 'B') {
            emit_barrier(E, n->a);
            break;
        }
        line_start(E);
        if (emit_pointer_step(E, n->a)) {
            put(E, ";\n");
            break;
        }
        if (n->a->kind == N_ASSIGN && !strcmp(n->a->op, "=") && strip_parens(n->a->a)->kind == N_VAR && strip_parens(n->a->a)->var->ty->kind != TY_REF &&
            is_dynamic(E, strip_parens(n->a->a)->var)) {
            putf(E, "%s_ref = ", strip_parens(n->a->a)->var->glsl_name); /* p = q: the reference, then the index */
            emit_ref(E, n->a->b, ptr_ref_elem(E->spec, strip_parens(n->a->a)->var));
            put(E, ";\n");
            line_start(E);
            E->ref_assigned = true;
        }
        emit_expr(E, n->a, 0);
        put(E, ";\n");
        break;
    case N_IF:
        line_start(E);
        put(E, "if (");
        emit_coerced(E, n->a, ty_scalar(TY_BOOL), 0);
        put(E, ")\n");
        emit_body(E, n->b);
        while (n->c) {
            line_start(E);
            if (n->c->kind == N_IF) {
                n = n->c;
                put(E, "else if (");
                emit_coerced(E, n->a, ty_scalar(TY_BOOL), 0);
                put(E, ")\n");
                emit_body(E, n->b);
            } else {
                put(E, "else\n");
                emit_body(E, n->c);
                break;
            }
        }
        break;
    case N_FOR:
        line_start(E);
        emit_loop_hint(E, n);
        put(E, "for (");
        if (n->a && n->a->kind == N_DECL)
            emit_decl_inline(E, n->a);
        else if (n->a && n->a->kind == N_EXPRSTMT)
            emit_expr(E, n->a->a, 0);
        put(E, ";");
        if (n->b) {
            put(E, " ");
            emit_coerced(E, n->b, ty_scalar(TY_BOOL), 0);
        }
        put(E, ";");
        if (n->c) {
            put(E, " ");
            if (!emit_pointer_step(E, n->c))
                emit_expr(E, n->c, 0);
        }
        put(E, ")\n");
        emit_loop_body(E, n->d, true);
        break;
    case N_WHILE:
        line_start(E);
        emit_loop_hint(E, n);
        put(E, "while (");
        emit_coerced(E, n->a, ty_scalar(TY_BOOL), 0);
        put(E, ")\n");
        emit_loop_body(E, n->d, true);
        break;
    case N_DO:
        line_start(E);
        emit_loop_hint(E, n);
        put(E, "do\n");
        emit_loop_body(E, n->d, true);
        line_start(E);
        put(E, "while (");
        emit_coerced(E, n->a, ty_scalar(TY_BOOL), 0);
        put(E, ");\n");
        break;
    case N_SWITCH:
        line_start(E);
        put(E, "switch (");
        emit_switch_value(E, n);
        put(E, ")\n");
        emit_loop_body(E, n->d, false);
        break;
    case N_CASE:
        E->indent--;
        line_start(E);
        put(E, "case ");
        if (n->a && strip_implicit(n->a)->kind == N_INT && n->a->ty && ty_is_integer(n->a->ty) &&
            (ty_scalar_kind(n->a->ty) != TY_INT && ty_scalar_kind(n->a->ty) != TY_UINT))
            putf(E, "%lld", strip_implicit(n->a)->ival); /* a label of a switch on a 64-, 16- or 8-bit value */
        else
            emit_expr(E, n->a, 0);
        put(E, ":\n");
        E->indent++;
        emit_stmt(E, n->d);
        break;
    case N_DEFAULT:
        E->indent--;
        line_start(E);
        put(E, "default:\n");
        E->indent++;
        emit_stmt(E, n->d);
        break;
    case N_BREAK:
        line_start(E);
        if (E->uniform && E->real_depth == 0)
            putf(E, "%s = false;\n", E->flow.brk); /* leaves the made-uniform loop */
        else
            put(E, "break;\n");
        break;
    case N_CONTINUE:
        line_start(E);
        if (E->uniform && E->real_loops == 0)
            putf(E, "%s = false;%s\n", E->flow.cont, E->real_depth ? " break;" : "");
        else
            put(E, "continue;\n");
        break;
    case N_RETURN:
        line_start(E);
        if (n->a && n->a->ty && n->a->ty->kind == TY_VOID) { /* `return f();` of a void f: the call, then return */
            emit_expr(E, n->a, 0);
            put(E, ";\n");
            line_start(E);
            if (E->uniform)
                put(E, E->real_depth ? "mtl_live = false; break;\n" : "mtl_live = false;\n");
            else
                put(E, "return;\n");
            break;
        }
        if (E->uniform) {
            if (n->a) {
                put(E, "mtl_ret = ");
                emit_return_value(E, n->a);
                put(E, ";\n");
                line_start(E);
            }
            put(E, E->real_depth ? "mtl_live = false; break;\n" : "mtl_live = false;\n");
            break;
        }
        if (n->a) {
            put(E, "return ");
            emit_return_value(E, n->a);
            put(E, ";\n");
        } else {
            put(E, "return;\n");
        }
        break;
    case N_EMPTY:
        break;
    default:
        diag_error(E->prog->diag, n->loc, "this statement is not supported yet");
        break;
    }
}

/* The value of constant reference V from the push constants: the member itself; a bool from its byte; an 8/16-bit
   scalar held in a 32-bit word (M2gOptions.push_constant_words) from the word's low bytes, where the host put it. */
static const char *push_value(Emit *E, Var *v)
{
    Arena *a = E->prog->arena;
    const char *m = arena_printf(a, "mtl_params.%s", v->glsl_name);
    TypeKind k = v->ty->elem->kind;
    if (k == TY_BOOL)
        return arena_printf(a, v->push_word ? "(%s & 0xffu) != 0u" : "%s != uint8_t(0)", m);
    if (!v->push_word)
        return m;
    if (k == TY_HALF)
        return arena_printf(a, "uint16BitsToHalf(uint16_t(%s))", m);
    return arena_printf(a, "%s(%s)", glsl_type(E, v->ty->elem), m); /* truncates to the low 8 or 16 bits */
}

/* ---- declarations ---- */

static const char *pad_type(Emit *E, int size)
{
    if (size == 1)
        E->L->need_storage8 = true;
    if (size == 2)
        E->L->need_storage16 = true;
    return scalar_glsl(E, size == 1 ? TY_UCHAR : size == 2 ? TY_USHORT : TY_UINT);
}

/* Padding members (layout.c) make std430 give Metal's offsets; they are named mtl_padN. */
static void emit_pads(Emit *E, const unsigned char *pad, int n, int *count)
{
    for (int i = 0; i < n; i++)
        putf(E, "    %s mtl_pad%d;\n", pad_type(E, pad[i]), (*count)++);
}

static void emit_struct(Emit *E, StructDef *s)
{
    int count = 0;
    const char *note = s->scalar ? "// Metal's layout (in layout(scalar) blocks): mtl_pad members stand for the bytes the scalar layout would not leave.\n"
                                 : "// Metal's layout: mtl_pad members stand for the bytes std430 would not leave.\n";
    if (s->n_tail_pad || s->fields[0].n_pad)
        put(E, note);
    else
        for (int i = 0; i < s->n_fields; i++)
            if (s->fields[i].n_pad) {
                put(E, note);
                break;
            }
    putf(E, "struct %s\n{\n", s->glsl_name);
    for (int i = 0; i < s->n_fields; i++) {
        emit_pads(E, s->fields[i].pad, s->fields[i].n_pad, &count);
        Type *base = s->fields[i].ty;
        while (base->kind == TY_ARRAY)
            base = base->elem;
        if (s->addresses && base->kind == TY_PTR) /* an argument buffer's pointer: the device address there (ptr.c) */
            putf(E, "    uint64_t %s%s; // %s\n", s->fields[i].glsl_name, array_suffix(E, s->fields[i].ty), ty_metal_name(E->prog->arena, base));
        else
            putf(E, "    %s %s%s;\n", storage_type(E, s->fields[i].ty), s->fields[i].glsl_name, array_suffix(E, s->fields[i].ty));
    }
    emit_pads(E, s->tail_pad, s->n_tail_pad, &count);
    put(E, "};\n\n");
}

static void emit_ulist(Emit *E, Node **list, int n);

/* A helper that reaches synchronizing calls under uniform control flow: every thread calls it, with `mtl_p` saying
   whether it is active; returns clear mtl_live and leave the value in mtl_ret. */
static void emit_uniform_function_body(Emit *E, Func *f)
{
    put(E, "{\n");
    E->indent = 1;
    line_start(E);
    put(E, "bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call\n");
    if (f->ret->kind != TY_VOID) {
        line_start(E);
        putf(E, "%s mtl_ret%s;\n", glsl_type(E, f->ret), array_suffix(E, f->ret));
    }
    Flow saved = E->flow;
    E->flow = (Flow){0};
    E->uniform = true;
    E->may_have_returned = true;
    emit_ulist(E, f->body->list, f->body->n_list);
    E->uniform = false;
    E->may_have_returned = false;
    E->flow = saved;
    if (f->ret->kind != TY_VOID) {
        line_start(E);
        put(E, "return mtl_ret;\n");
    }
    E->indent = 0;
    put(E, "}\n");
}

static void emit_function_spec(Emit *E, Func *f, PtrSpec *s)
{
    E->fn = f;
    E->spec = s;
    bool uniform = E->L->uniform_flow && f->uniform_sync;
    putf(E, "%s%s %s(", precise(E, f->ret), glsl_ctor_type(E, f->ret), s ? s->glsl_name : f->glsl_name); /* float[4] f(): an array returned */
    for (int i = 0; i < f->n_params; i++) {
        Var *p = f->params[i];
        if (i)
            put(E, ", ");
        if (is_dynamic(E, p) && p->ty->kind == TY_ARRAY)
            diag_error(E->prog->diag, p->loc, "an array of pointers into buffers chosen at run time as a parameter ('%s') is not supported yet", p->name);
        else if (is_dynamic(E, p))
            putf(E, "%s %s_ref, uint %s", ref_type(E, ptr_ref_elem(E->spec, p)), p->glsl_name, p->glsl_name);
        else if (ptr_like(p) && p->ty->kind == TY_ARRAY) /* an array of pointers: their indices, the caller's array */
            putf(E, "%suint %s%s", p->is_out_param ? "inout " : "", p->glsl_name, array_suffix(E, p->ty));
        else if (ptr_like(p))
            putf(E, "%suint %s", p->is_out_param ? "inout " : "", p->glsl_name); /* T*&: the caller's index moves */
        else
            putf(E, "%s%s %s%s", p->is_out_param ? "inout " : "", glsl_type(E, p->ty), p->glsl_name, array_suffix(E, p->ty));
    }
    Var *locals[16];
    int nl = local_roots(s, locals, 16);
    for (int i = 0; i < nl; i++)
        putf(E, "%s%s %s %s%s", f->n_params || i ? ", " : "", local_written(s, locals[i]) ? "inout" : "in", glsl_type(E, locals[i]->ty), locals[i]->glsl_name, array_suffix(E, locals[i]->ty));
    if (uniform)
        put(E, f->n_params || nl ? ", bool mtl_p" : "bool mtl_p");
    put(E, ")\n");
    if (uniform && f->body && f->body->kind == N_BLOCK)
        emit_uniform_function_body(E, f);
    else
        emit_stmt(E, f->body);
    put(E, "\n");
}

/* A helper once per specialization (ptr.c: per combination of roots its pointer arguments point into). */
static void emit_function(Emit *E, Func *f)
{
    bool any = false;
    bool used = false; /* specializations left behind by roots that changed are not printed (ptr.c) */
    for (int i = 1; i < E->L->ptr_specs.len; i++)
        used |= ((PtrSpec *)E->L->ptr_specs.items[i])->f == f && ((PtrSpec *)E->L->ptr_specs.items[i])->used;
    for (int i = 1; i < E->L->ptr_specs.len; i++) {
        PtrSpec *s = E->L->ptr_specs.items[i];
        if (s->f == f) {
            if (s->used || !used)
                emit_function_spec(E, f, s);
            any = true;
        }
    }
    if (!any)
        emit_function_spec(E, f, NULL);
}

/* ---- uniform control flow (sync.c says when): every thread reaches every synchronizing call ----
 *
 * Statements run under a predicate: the condition variable of each made-uniform if or loop around them, the
 * flags a break or continue of such a loop clears, and mtl_live, which a return clears. Statements without
 * synchronizing calls run inside `if (predicate)`; SIMD-group functions are computed by every thread into a
 * variable first, with the predicate as their last argument; barriers run in every thread.
 */

static const char *new_name(Emit *E, const char *stem)
{
    return arena_printf(E->prog->arena, "mtl_%s%d", stem, ++E->tmp);
}

static const char *predicate(Emit *E)
{
    const char *parts[4] = {E->flow.stat, E->flow.brk, E->flow.cont, E->may_have_returned ? "mtl_live" : NULL};
    const char *p = NULL;
    for (int i = 0; i < 4; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= parts[j] && !strcmp(parts[j], parts[i] ? parts[i] : "");
        if (!parts[i] || seen)
            continue;
        p = p ? arena_printf(E->prog->arena, "%s && %s", p, parts[i]) : parts[i];
    }
    return p ? p : "true";
}

/* Computes each SIMD-group call of expression N (innermost first) into a variable, in every thread. */
static void extract_simd(Emit *E, Node *n)
{
    if (!n || !(n->flags & NF_SYNC))
        return;
    extract_simd(E, n->a);
    extract_simd(E, n->b);
    extract_simd(E, n->c);
    for (int i = 0; i < n->n_list; i++)
        extract_simd(E, n->list[i]);
    if (n->kind == N_VARDEF)
        extract_simd(E, n->var->init);
    bool helper = n->kind == N_CALL && n->fn && n->fn->uniform_sync;
    if ((n->kind != N_SIMD && !helper) || (n->kind == N_SIMD && (simd_table[n->builtin].group == 'B' || !simd_exchanges(n->builtin))))
        return;
    if (E->n_subst == E->cap_subst) {
        int cap = E->cap_subst ? 2 * E->cap_subst : 64;
        Node **nodes = arena_alloc(E->prog->arena, sizeof *nodes * (size_t)cap);
        const char **names = arena_alloc(E->prog->arena, sizeof *names * (size_t)cap);
        if (E->n_subst) {
            memcpy(nodes, E->subst_node, sizeof *nodes * (size_t)E->n_subst);
            memcpy(names, E->subst_name, sizeof *names * (size_t)E->n_subst);
        }
        E->subst_node = nodes;
        E->subst_name = names;
        E->cap_subst = cap;
    }
    const char *name = new_name(E, "s");
    line_start(E);
    if (helper && n->ty->kind == TY_VOID) {
        emit_call(E, n);
        put(E, ";\n");
        E->subst_node[E->n_subst] = n;
        E->subst_name[E->n_subst++] = "";
        return;
    }
    putf(E, "%s %s = ", glsl_type(E, n->ty), name);
    if (helper)
        emit_call(E, n);
    else
        emit_simd_call(E, n);
    put(E, ";\n");
    E->subst_node[E->n_subst] = n;
    E->subst_name[E->n_subst++] = name;
}

/* `if (P) { ... }` around printing, or nothing when P is true. Returns whether a scope was opened. */
static bool open_predicated(Emit *E)
{
    const char *p = predicate(E);
    if (!strcmp(p, "true"))
        return false;
    line_start(E);
    putf(E, "if (%s)\n", p);
    begin_scope(E);
    E->pred_depth++;
    return true;
}

static void close_predicated(Emit *E)
{
    E->pred_depth--;
    end_scope(E);
}

/* N printed as is, inside `if (predicate)` when the threads' predicate is not known to be true. */
static void emit_predicated_stmt(Emit *E, Node *n)
{
    bool opened = open_predicated(E);
    emit_stmt(E, n);
    if (opened)
        close_predicated(E);
}

/* Declarations of a predicated statement are hoisted so that later statements still see them. */
static void hoist_decls(Emit *E, Node *decl)
{
    for (int i = 0; i < decl->n_list; i++) {
        Var *v = decl->list[i]->var;
        if (v->is_threadgroup)
            continue;
        line_start(E);
        if (ptr_like(v) || ptr_union_storage(v)) { /* a pointer: its index, and its reference where its buffer is
                                                      chosen at run time; a union: its integer */
            Node *init = v->init;
            v->init = NULL;
            emit_vardef(E, v, false);
            v->init = init;
            put(E, ";\n");
            continue;
        }
        putf(E, "%s %s%s;\n", glsl_type(E, v->ty), v->glsl_name, array_suffix(E, v->ty));
    }
}

static void assign_decls(Emit *E, Node *decl)
{
    for (int i = 0; i < decl->n_list; i++) {
        Var *v = decl->list[i]->var;
        if (v->is_threadgroup || !v->init)
            continue;
        line_start(E);
        if (ptr_like(v)) { /* the pointer's reference (a buffer chosen at run time), then its index */
            if (is_dynamic(E, v) && v->ty->kind != TY_ARRAY) {
                putf(E, "%s_ref = ", v->glsl_name);
                emit_ref(E, v->init, ptr_ref_elem(E->spec, v));
                put(E, ";\n");
                line_start(E);
            }
            put(E, v->glsl_name);
            emit_ptr_init(E, v);
            put(E, ";\n");
            continue;
        }
        putf(E, "%s = ", v->glsl_name);
        if (v->init->kind == N_INITLIST)
            emit_initlist(E, v->init, v->ty);
        else
            emit_coerced(E, v->init, v->ty, PREC_ASSIGN);
        put(E, ";\n");
    }
}

static void emit_ulist(Emit *E, Node **list, int n);

static void emit_ubody(Emit *E, Node *body)
{
    begin_scope(E);
    if (body->kind == N_BLOCK)
        emit_ulist(E, body->list, body->n_list);
    else
        emit_ulist(E, &body, 1);
    end_scope(E);
}

/* Statements without synchronizing calls, under the predicate; they may return, break or continue. */
static void emit_plain_run(Emit *E, Node **list, int n)
{
    const char *p = predicate(E);
    if (!strcmp(p, "true")) {
        for (int i = 0; i < n; i++)
            emit_stmt(E, list[i]);
        return;
    }
    for (int i = 0; i < n; i++)
        if (list[i]->kind == N_DECL)
            hoist_decls(E, list[i]);
    open_predicated(E);
    for (int i = 0; i < n; i++) {
        if (list[i]->kind == N_DECL)
            assign_decls(E, list[i]);
        else
            emit_stmt(E, list[i]);
    }
    close_predicated(E);
}

static void emit_uif(Emit *E, Node *n)
{
    extract_simd(E, n->a);
    if (!(n->a->flags & NF_SYNC) && sync_uniform(n->a)) {
        /* the same branch in every thread: a plain if */
        line_start(E);
        put(E, "if (");
        emit_coerced(E, n->a, ty_scalar(TY_BOOL), 0);
        put(E, ")\n");
        emit_ubody(E, n->b);
        if (n->c) {
            line_start(E);
            put(E, "else\n");
            emit_ubody(E, n->c);
        }
        return;
    }
    const char *p = predicate(E);
    const char *c = new_name(E, "c"), *e = n->c ? new_name(E, "e") : NULL;
    line_start(E);
    putf(E, "bool %s = ", c);
    if (strcmp(p, "true"))
        putf(E, "%s && ", p);
    emit_coerced(E, n->a, ty_scalar(TY_BOOL), PREC_AND + 1);
    put(E, ";\n");
    if (e) {
        line_start(E);
        putf(E, "bool %s = %s%s!%s;\n", e, strcmp(p, "true") ? p : "", strcmp(p, "true") ? " && " : "", c);
    }
    Flow saved = E->flow;
    E->flow.stat = c;
    emit_ubody(E, n->b);
    if (e) {
        E->flow.stat = e;
        emit_ubody(E, n->c);
    }
    E->flow = saved;
}

/* for / while around synchronizing calls. With a uniform condition: a plain loop whose body is predicated.
   Otherwise every thread loops until no thread of the threadgroup still runs it (mtl_workgroup_any). */
static void emit_uloop(Emit *E, Node *n)
{
    Node *init = n->kind == N_FOR ? n->a : NULL, *cond = n->kind == N_FOR ? n->b : n->a;
    Node *inc = n->kind == N_FOR ? n->c : NULL, *body = n->d;
    bool uniform = (!cond || (!(cond->flags & NF_SYNC) && sync_uniform(cond))) && !(init && (init->flags & NF_SYNC));
    Flow saved = E->flow;
    bool saved_returned = E->may_have_returned;
    if (body->flags & NF_RETURN)
        E->may_have_returned = true; /* the next iteration follows the return */
    begin_scope(E);
    if (uniform) {
        const char *p = predicate(E);
        if (strcmp(p, "true") && (E->flow.brk || E->flow.cont)) {
            /* the enclosing loop's flags are fixed while this loop runs */
            const char *pv = new_name(E, "p");
            line_start(E);
            putf(E, "bool %s = %s;\n", pv, p);
            E->flow.stat = pv;
        }
        const char *b = (body->flags & NF_BREAK) ? new_name(E, "b") : NULL;
        const char *k = (body->flags & NF_CONTINUE) ? new_name(E, "k") : NULL;
        /* `for (;;)`, `while (true)`: only a break or a return ends it, which sets a flag here instead; the loop
           ends when no thread of the threadgroup still runs it (threads outside the predicate start stopped) */
        Node *sc = cond ? strip_implicit(strip_parens(cond)) : NULL;
        bool endless = !sc || ((sc->kind == N_BOOL || sc->kind == N_INT) && sc->ival != 0);
        if (b) {
            line_start(E);
            putf(E, "bool %s = %s;\n", b, endless ? predicate(E) : "true");
        }
        line_start(E);
        put(E, "for (");
        if (init && init->kind == N_DECL)
            emit_decl_inline(E, init);
        else if (init && init->kind == N_EXPRSTMT)
            emit_expr(E, init->a, 0);
        put(E, ";");
        if (cond) {
            put(E, " ");
            emit_coerced(E, cond, ty_scalar(TY_BOOL), 0);
        }
        put(E, ";");
        if (inc) {
            put(E, " ");
            emit_expr(E, inc, 0);
        }
        put(E, ")\n");
        begin_scope(E);
        if (k) {
            line_start(E);
            putf(E, "bool %s = true;\n", k);
        }
        E->flow.brk = b;
        if (endless && strcmp(predicate(E), "true")) {
            E->need_workgroup_any = true;
            line_start(E);
            putf(E, "if (!mtl_workgroup_any(%s))\n", predicate(E));
            line_start(E);
            put(E, "    break;\n");
        }
        E->flow.cont = k;
        if (body->kind == N_BLOCK)
            emit_ulist(E, body->list, body->n_list);
        else
            emit_ulist(E, &body, 1);
        end_scope(E);
    } else {
        E->need_workgroup_any = true;
        const char *l = new_name(E, "l");
        const char *k = (body->flags & NF_CONTINUE) ? new_name(E, "k") : NULL;
        if (init && init->kind == N_DECL) {
            emit_plain_run(E, &init, 1);
        } else if (init) {
            emit_plain_run(E, &init, 1);
        }
        line_start(E);
        putf(E, "bool %s = %s;\n", l, predicate(E));
        line_start(E);
        put(E, "while (true)\n");
        begin_scope(E);
        E->flow.stat = NULL;
        E->flow.brk = l;
        E->flow.cont = NULL;
        if (cond) {
            extract_simd(E, cond);
            line_start(E);
            putf(E, "%s = %s && ", l, predicate(E));
            emit_coerced(E, cond, ty_scalar(TY_BOOL), PREC_AND + 1);
            put(E, ";\n");
        }
        line_start(E);
        putf(E, "if (!mtl_workgroup_any(%s))\n", l);
        line_start(E);
        put(E, "    break;\n");
        if (k) {
            line_start(E);
            putf(E, "bool %s = true;\n", k);
            E->flow.cont = k;
        }
        if (body->kind == N_BLOCK)
            emit_ulist(E, body->list, body->n_list);
        else
            emit_ulist(E, &body, 1);
        E->flow.cont = NULL;
        if (inc) {
            line_start(E);
            putf(E, "if (%s)\n", predicate(E));
            line_start(E);
            put(E, "    ");
            emit_expr(E, inc, 0);
            put(E, ";\n");
        }
        end_scope(E);
    }
    end_scope(E);
    E->flow = saved;
    E->may_have_returned |= saved_returned;
}

/* Whether statement N holds a `break` that leaves the switch around it (not one of a loop or switch inside N). */
static bool breaks_switch(const Node *n)
{
    if (!n || n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_DO || n->kind == N_SWITCH)
        return false;
    if (n->kind == N_BREAK)
        return true;
    if (breaks_switch(n->a) || breaks_switch(n->b) || breaks_switch(n->c) || breaks_switch(n->d))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (breaks_switch(n->list[i]))
            return true;
    return false;
}

/* A switch around synchronizing calls whose value is the same in every thread: every thread takes the same case,
   so it is printed as a chain of plain ifs (`if (v == 1 || v == 2) {...} else if ... else {default}`), each case's
   statements under the threads' predicate. Each case must end in break or return (no fall-through into the
   next one's statements), and break may only end a case. Returns false where the switch has another shape. */
static bool emit_uswitch(Emit *E, Node *n)
{
    if ((n->a->flags & NF_SYNC) || !sync_uniform(n->a) || !n->d)
        return false;
    Node **body = n->d->kind == N_BLOCK ? n->d->list : &n->d;
    int nb = n->d->kind == N_BLOCK ? n->d->n_list : 1;
    enum { MAX_GROUPS = 64, MAX_LABELS = 64 };
    struct Group {
        Node *labels[MAX_LABELS];
        int n_labels;
        bool is_default;
        Node **stmts;
        int n_stmts;
    } *groups = arena_alloc(E->prog->arena, sizeof *groups * MAX_GROUPS);
    int ng = 0;
    for (int i = 0; i < nb;) {
        Node *c = body[i];
        if (c->kind != N_CASE && c->kind != N_DEFAULT)
            return false; /* statements before the first label */
        if (ng == MAX_GROUPS)
            return false;
        struct Group *g = &groups[ng++];
        memset(g, 0, sizeof *g);
        while (c && (c->kind == N_CASE || c->kind == N_DEFAULT)) { /* case 1: case 2: default: S */
            if (c->kind == N_DEFAULT)
                g->is_default = true;
            else if (g->n_labels < MAX_LABELS)
                g->labels[g->n_labels++] = c->a;
            else
                return false;
            c = c->d;
        }
        /* the group's statements: the labelled one, then the list's next ones up to the next label */
        int j = i + 1;
        while (j < nb && body[j]->kind != N_CASE && body[j]->kind != N_DEFAULT)
            j++;
        g->stmts = arena_alloc(E->prog->arena, sizeof *g->stmts * (size_t)(j - i));
        if (c)
            g->stmts[g->n_stmts++] = c;
        for (int k = i + 1; k < j; k++)
            g->stmts[g->n_stmts++] = body[k];
        Node *last = g->n_stmts ? g->stmts[g->n_stmts - 1] : NULL;
        bool ends = last && (last->kind == N_BREAK || last->kind == N_RETURN);
        if (!ends && j < nb)
            return false; /* falls through into the next case's statements */
        if (last && last->kind == N_BREAK)
            g->n_stmts--;
        for (int k = 0; k < g->n_stmts; k++)
            if (breaks_switch(g->stmts[k]))
                return false;
        i = j;
    }
    line_start(E);
    put(E, "// switch (");
    emit_switch_value(E, n);
    put(E, "), the same case in every thread\n");
    bool first = true;
    int dflt = -1;
    for (int i = 0; i < ng; i++) {
        if (groups[i].is_default) {
            dflt = i;
            continue;
        }
        line_start(E);
        put(E, first ? "if (" : "else if (");
        for (int k = 0; k < groups[i].n_labels; k++) {
            if (k)
                put(E, " || ");
            put(E, "(");
            emit_switch_value(E, n);
            put(E, ") == ");
            Node *v = strip_implicit(groups[i].labels[k]);
            if (v->kind == N_INT)
                putf(E, "%lld", v->ival);
            else
                emit_expr(E, groups[i].labels[k], PREC_UNARY);
        }
        put(E, ")\n");
        begin_scope(E);
        emit_ulist(E, groups[i].stmts, groups[i].n_stmts);
        end_scope(E);
        first = false;
    }
    if (dflt >= 0) {
        if (!first) {
            line_start(E);
            put(E, "else\n");
        }
        begin_scope(E);
        emit_ulist(E, groups[dflt].stmts, groups[dflt].n_stmts);
        end_scope(E);
    }
    return true;
}

/* One statement that contains a synchronizing call. */
static void emit_usync(Emit *E, Node *n)
{
    switch (n->kind) {
    case N_BLOCK:
        emit_ubody(E, n);
        break;
    case N_EXPRSTMT:
        if (n->a->kind == N_SIMD && simd_table[n->a->builtin].group == 'B') {
            emit_barrier(E, n->a);
            break;
        }
        extract_simd(E, n->a);
        if (n->a->kind == N_SIMD || (n->a->kind == N_CALL && n->a->fn && n->a->fn->uniform_sync))
            break; /* a result nobody reads, or a call already made */
        emit_predicated_stmt(E, n);
        break;
    case N_DECL:
        extract_simd(E, n);
        if (!strcmp(predicate(E), "true")) {
            emit_stmt(E, n);
            break;
        }
        hoist_decls(E, n);
        open_predicated(E);
        assign_decls(E, n);
        close_predicated(E);
        break;
    case N_IF:
        emit_uif(E, n);
        break;
    case N_FOR:
    case N_WHILE:
        emit_uloop(E, n);
        break;
    case N_RETURN:
        extract_simd(E, n->a);
        emit_predicated_stmt(E, n);
        break;
    case N_SWITCH:
        if (!emit_uswitch(E, n))
            diag_error(E->prog->diag, n->loc, "a SIMD-group function or barrier in a switch statement is not supported with emulated "
                       "SIMD-groups unless the switch's value is the same in every thread and each case ends in break or "
                       "return: write it with if statements");
        break;
    default:
        diag_error(E->prog->diag, n->loc, "this statement around a SIMD-group function is not supported with emulated SIMD-groups yet");
        break;
    }
}

/* A statement list under uniform control flow: runs of plain statements, then each synchronizing one. */
static void emit_ulist(Emit *E, Node **list, int n)
{
    for (int i = 0; i < n;) {
        if (list[i]->flags & NF_SYNC) {
            emit_usync(E, list[i]);
            if (list[i]->flags & NF_RETURN)
                E->may_have_returned = true;
            i++;
            continue;
        }
        int j = i;
        while (j < n && !(list[j]->flags & NF_SYNC)) {
            j++;
            if (list[j - 1]->flags & (NF_RETURN | NF_BREAK | NF_CONTINUE))
                break; /* what follows runs under a new predicate */
        }
        emit_plain_run(E, list + i, j - i);
        for (int k = i; k < j; k++)
            if (list[k]->flags & NF_RETURN)
                E->may_have_returned = true;
        i = j;
    }
}

/* Whether a thread attribute's GLSL value is a specialization constant (the threadgroup size): converted to 8 or
   16 bits, glslang folds the conversion into the constant (OpSpecConstantOp UConvert), which needs the Kernel
   capability before SPIR-V 1.4. */
static bool builtin_is_spec_constant(Emit *E, Var *v)
{
    const char *base = E->L->exact_groups ? attr_table[v->builtin].glsl_exact : attr_table[v->builtin].glsl;
    return strstr(base, "gl_WorkGroupSize") || strstr(base, "_full") || strstr(base, "mtl_threadgroup_total");
}

/* The case labels of switch body N (not of switches inside it). */
static void case_labels(Node *n, long long *vals, int *count, int max, bool *constant)
{
    if (!n || n->kind == N_SWITCH)
        return;
    if (n->kind == N_CASE) {
        Node *v = n->a ? strip_implicit(n->a) : NULL;
        if (v && v->kind == N_INT && *count < max)
            vals[(*count)++] = v->ival;
        else
            *constant = false;
    }
    case_labels(n->a && n->kind != N_CASE ? n->a : NULL, vals, count, max, constant);
    case_labels(n->b, vals, count, max, constant);
    case_labels(n->c, vals, count, max, constant);
    case_labels(n->d, vals, count, max, constant);
    for (int i = 0; i < n->n_list; i++)
        case_labels(n->list[i], vals, count, max, constant);
}

/* GLSL switches on int or uint. A value of 8 or 16 bits is converted; one of 64 bits is converted when it fits
   (LossCTC's `switch (s)` on a long), else it is a value no label has: it takes the default. */
static void emit_switch_value(Emit *E, Node *n)
{
    TypeKind k = n->a->ty ? ty_scalar_kind(n->a->ty) : TY_INT;
    if (k == TY_INT || k == TY_UINT || k == TY_ENUM || k == TY_VOID) {
        emit_expr(E, n->a, 0);
        return;
    }
    bool is_signed = k == TY_LONG || k == TY_SHORT || k == TY_CHAR;
    const char *t32 = is_signed ? "int" : "uint";
    if (k != TY_LONG && k != TY_ULONG) {
        putf(E, "%s(", t32);
        emit_expr(E, n->a, PREC_ASSIGN + 1);
        put(E, ")");
        return;
    }
    long long vals[512];
    int count = 0;
    bool constant = true;
    case_labels(n->d, vals, &count, 512, &constant);
    long long none = is_signed ? -2147483647LL : 4294967295LL; /* a value no label has */
    for (bool taken = true; taken;) {
        taken = false;
        for (int i = 0; i < count; i++)
            taken |= vals[i] == none;
        if (taken)
            none += is_signed ? 1 : -1;
    }
    bool fits = constant && count < 512;
    for (int i = 0; i < count; i++)
        fits &= is_signed ? vals[i] >= -2147483647LL - 1 && vals[i] <= 2147483647LL : vals[i] >= 0 && vals[i] <= 4294967295LL;
    if (!fits || has_side_effects(n->a)) {
        diag_error(E->prog->diag, n->loc, "a switch on a 64-bit value whose labels do not all fit in 32 bits (or whose value has side effects) is not supported yet");
        return;
    }
    put(E, "(");
    emit_expr(E, n->a, PREC_EQ + 1);
    putf(E, " == %s(%s(", glsl_type(E, n->a->ty), t32);
    emit_expr(E, n->a, PREC_ASSIGN + 1);
    putf(E, ")) ? %s(", t32);
    emit_expr(E, n->a, PREC_ASSIGN + 1);
    putf(E, ") : %lld%s)", none, is_signed ? "" : "u");
}

/* A thread attribute's GLSL value; with renamed lanes (simd.c, "Tensor cores") the thread's place in the
   threadgroup follows its lane: gl_LocalInvocationID and gl_LocalInvocationIndex become mtl_local_id() and
   mtl_local_index(). */
static const char *attr_glsl(Emit *E, int builtin)
{
    const char *base = E->L->exact_groups ? attr_table[builtin].glsl_exact : attr_table[builtin].glsl;
    if (!E->L->mma_lanes)
        return base;
    StrBuf b = {0};
    for (const char *p = base; *p;) {
        if (!strncmp(p, "gl_LocalInvocationIndex", 23)) {
            sb_puts(&b, "mtl_local_index()");
            p += 23;
        } else if (!strncmp(p, "gl_LocalInvocationID", 20)) {
            sb_puts(&b, "mtl_local_id()");
            p += 20;
        } else {
            char c[2] = {*p++, 0};
            sb_puts(&b, c);
        }
    }
    const char *r = arena_strdup(E->prog->arena, b.data ? b.data : "");
    sb_free(&b);
    return r;
}

static const char *builtin_value(Emit *E, Var *v)
{
    const char *base = attr_glsl(E, v->builtin);
    TypeKind sk = ty_scalar_kind(v->ty);
    if ((sk == TY_USHORT || sk == TY_SHORT || sk == TY_UCHAR || sk == TY_CHAR) && builtin_is_spec_constant(E, v))
        base = arena_printf(E->prog->arena, "mtl_%s", v->glsl_name); /* a value first (emit_kernel) */
    int w = ty_width(v->ty);
    const char *sw = w == 1 ? ".x" : w == 2 ? ".xy" : "";
    const char *expr = arena_printf(E->prog->arena, "%s%s", base, sw);
    if (attr_table[v->builtin].kind == 1)
        expr = base;
    TypeKind k = ty_scalar_kind(v->ty);
    if (k != TY_UINT)
        expr = arena_printf(E->prog->arena, "%s(%s)", glsl_type(E, v->ty), expr);
    return expr;
}

/* Whether N, a global's initializer, is no GLSL constant expression: it calls a function of ours (a constructor:
   MLX's `constant complex64_t v = complex64_t(nan, nan)`) or reads a global that does. */
static bool needs_main(const Node *n, int depth)
{
    if (!n || depth > 32)
        return n != NULL;
    if (n->kind == N_CALL && n->fn)
        return true;
    if (n->kind == N_VAR && n->var->kind == VAR_GLOBAL && !n->var->fc_id && n->var->init)
        return needs_main(n->var->init, depth + 1);
    if (needs_main(n->a, depth) || needs_main(n->b, depth) || needs_main(n->c, depth) || needs_main(n->d, depth))
        return true;
    for (int i = 0; i < n->n_list; i++)
        if (needs_main(n->list[i], depth))
            return true;
    return false;
}

/* A program-scope constant whose initializer GLSL does not take as a constant: a plain global that main() sets
   before anything else runs (emit_globals_in_main). */
static bool global_set_in_main(const Var *g)
{
    return !g->fc_id && !ptr_like(g) && g->ty->kind != TY_PTR && g->init && needs_main(g->init, 0);
}

static void emit_globals_in_main(Emit *E)
{
    for (int i = 0; i < E->L->globals.len; i++) {
        Var *g = E->L->globals.items[i];
        if (!global_set_in_main(g))
            continue;
        line_start(E);
        putf(E, "%s = ", g->glsl_name);
        if (g->init->kind == N_INITLIST)
            emit_initlist(E, g->init, g->ty);
        else
            emit_coerced(E, g->init, g->ty, PREC_ASSIGN);
        put(E, ";\n");
    }
}

/* An operand of `c ? x : y` of struct type T. A struct read from a buffer has the block's laid-out type in SPIR-V,
   which glslang 12 selects between without converting (spirv-val: "OpStore Pointer's type does not match
   Object's type"): such an operand goes through `T mtl_value_T(T v)`, which converts it (MLX's sort:
   `i < n ? inp[i] : init` on complex64_t). */
static void emit_struct_operand(Emit *E, Node *n, Type *t, int min_prec)
{
    Node *s = strip_parens(n);
    if (t->kind != TY_STRUCT || !(s->kind == N_INDEX || s->kind == N_DEREF || s->kind == N_MEMBER)) {
        emit_coerced(E, n, t, min_prec);
        return;
    }
    const char *ty = glsl_type(E, t), *name = arena_printf(E->prog->arena, "mtl_value_%s", ty);
    if (!helper_known(E, name))
        sb_printf(&E->value_helpers, "%s %s(%s v)\n{\n    return v;\n}\n\n", ty, name, ty);
    putf(E, "%s(", name);
    emit_coerced(E, n, t, PREC_ASSIGN);
    put(E, ")");
}

static void emit_kernel(Emit *E, Func *k)
{
    E->fn = k;
    E->spec = E->L->ptr_specs.len ? E->L->ptr_specs.items[0] : NULL;
    put(E, "void main()\n{\n");
    E->indent = 1;
    if (!E->L->exact_groups) {
        line_start(E);
        put(E, "// dispatchThreads: threads past the grid do not exist in Metal\n");
        line_start(E);
        put(E, "if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))\n");
        line_start(E);
        put(E, "    return;\n");
    }
    for (int i = 0; i < k->n_params; i++) {
        Var *v = k->params[i];
        if (v->role == PR_BUILTIN) {
            TypeKind sk = ty_scalar_kind(v->ty);
            if ((sk == TY_USHORT || sk == TY_SHORT || sk == TY_UCHAR || sk == TY_CHAR) && builtin_is_spec_constant(E, v)) {
                line_start(E);
                putf(E, "%s mtl_%s = %s; // a value, not a constant: converting it to 8 or 16 bits needs no Kernel capability\n",
                     attr_table[v->builtin].kind == 1 ? "uint" : "uvec3", v->glsl_name, attr_glsl(E, v->builtin));
            }
            line_start(E);
            putf(E, "%s %s = %s;\n", glsl_type(E, v->ty), v->glsl_name, builtin_value(E, v));
        } else if (v->role == PR_CONSTREF && v->in_push) {
            line_start(E);
            putf(E, "%s %s%s = %s;\n", glsl_type(E, v->ty->elem), v->glsl_name, array_suffix(E, v->ty->elem), push_value(E, v));
        }
    }
    emit_globals_in_main(E);
    Node *body = k->body;
    if (E->L->uniform_flow && body) {
        if (body->flags & NF_RETURN) {
            line_start(E);
            put(E, "bool mtl_live = true; // false once this thread has returned\n");
        }
        E->uniform = true;
        emit_ulist(E, body->list, body->n_list);
        E->uniform = false;
    } else {
        for (int i = 0; body && i < body->n_list; i++)
            emit_stmt(E, body->list[i]);
    }
    E->indent = 0;
    put(E, "}\n");
}

/* From what the kernel does (lower.c, ptr.c): a `device const T*` written through a cast that drops the const
   (ggml's kernel_tri writes its `device const char * dst`) is written, so never readonly. */
static const char *access_qualifier(Var *v)
{
    if (v->ty->as == AS_CONSTANT || !v->written)
        return "readonly ";
    if (!v->read)
        return "writeonly ";
    return "";
}

/* coherent(device) / volatile buffers. Under the Vulkan memory model (fences, orders) every buffer is
   nonprivate, so that the fences' availability and visibility operations include its plain accesses; that
   is what coherent(device) asks for there (devicecoherent, availability per access, miscompiles on lavapipe:
   docs/translator.md "Atomics"). */
static const char *memory_qualifier(Emit *E, Var *v)
{
    bool vmm = E->L->need_memory_model;
    if (v->is_volatile)
        return vmm ? "volatile devicecoherent " : "volatile coherent ";
    if (v->coherent && !vmm)
        return "coherent ";
    return vmm ? "nonprivate " : "";
}

/* std430, or the scalar block layout for a block holding packed vectors (layout.c). */
static const char *block_layout(Emit *E, Type *t)
{
    if (!layout_needs_scalar(E->prog, t))
        return "std430";
    E->L->need_scalar_layout = true;
    return "scalar";
}

static void emit_resources(Emit *E, Func *k)
{
    const char *push_layout = "std430";
    for (int i = 0; i < k->n_params; i++) {
        Var *v = k->params[i];
        bool storage = v->role == PR_BUFFER || v->role == PR_BUFREF || (v->role == PR_CONSTREF && !v->in_push);
        if (!storage)
            continue;
        Type *et = v->ty->elem;
        if (v->role == PR_BUFFER && (et->kind == TY_VOID || ptr_in_pieces(et)))
            putf(E, "// buffer %d, '%s' (%s): read only through the views below\n", v->index, v->name, ty_metal_name(E->prog->arena, v->ty));
        else
            putf(E, "layout(%s, set = 0, binding = %d) %s%sbuffer mtl_buffer_%s { %s%s %s%s%s; };\n", block_layout(E, et), v->index,
                 access_qualifier(v), memory_qualifier(E, v), v->glsl_name, strcmp(access_qualifier(v), "readonly ") ? precise(E, et) : "", storage_type(E, et), v->glsl_name, v->role == PR_BUFFER ? "[]" : "",
                 array_suffix(E, et));
        for (int j = 0; j < E->L->ptr_views.len; j += 2) {
            if (E->L->ptr_views.items[j] != v)
                continue;
            Type *vt = E->L->ptr_views.items[j + 1];
            const char *name = view_name(E, v, vt);
            putf(E, "layout(%s, set = 0, binding = %d) %s%sbuffer mtl_buffer_%s { %s%s %s[]; }; // '%s' read as %s\n",
                 block_layout(E, vt), v->index, access_qualifier(v), memory_qualifier(E, v), name, strcmp(access_qualifier(v), "readonly ") ? precise(E, vt) : "", storage_type(E, vt), name, v->name, ty_metal_name(E->prog->arena, vt));
        }
    }
    for (int i = 0; i < k->n_params; i++)
        if (k->params[i]->role == PR_CONSTREF && k->params[i]->in_push && strcmp(block_layout(E, k->params[i]->ty->elem), "std430"))
            push_layout = "scalar";
    if (E->L->ptr_ref_types.len)
        put(E, "\n// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, \"Pointers\").\n");
    for (int i = 0; i < E->L->ptr_ref_types.len; i++) {
        Type *t = E->L->ptr_ref_types.items[i];
        putf(E, "layout(buffer_reference, %s) buffer %s { %s v[]; };\n", block_layout(E, t), ref_type(E, t), storage_type(E, t));
    }
    put(E, "\n// Dispatch block (docs/interfaces.md), then constant-reference parameters.\n");
    putf(E, "layout(push_constant, %s) uniform mtl_params_t\n{\n    uvec3 mtl_threads_per_grid;\n    uint mtl_reserved;\n", push_layout);
    for (int i = 0; i < k->n_params; i++) {
        Var *v = k->params[i];
        if (v->role == PR_CONSTREF && v->in_push && v->push_word)
            putf(E, "    layout(offset = %d) uint %s; // %s in the low bytes (8/16-bit push constants as words)\n", v->push_offset, v->glsl_name,
                 ty_metal_name(E->prog->arena, v->ty->elem));
        else if (v->role == PR_CONSTREF && v->in_push)
            putf(E, "    layout(offset = %d) %s %s%s;\n", v->push_offset, storage_type(E, v->ty->elem), v->glsl_name, array_suffix(E, v->ty->elem));
    }
    for (int i = 0; i < E->L->ptr_addressed.len; i++) {
        Var *v = E->L->ptr_addressed.items[i];
        putf(E, "    layout(offset = %d) %s %s_addr;\n", v->addr_offset, ref_type(E, ptr_addr_elem(v)), v->glsl_name);
    }
    put(E, "} mtl_params;\n\n");
}

/* Replaces $T $S $U $I $B $M in a helper text for type T. */
static void emit_helper_text(Emit *E, const char *text, Type *t)
{
    int w = ty_width(t);
    TypeKind k = ty_scalar_kind(t);
    const char *T = glsl_type(E, t);
    const char *S = scalar_glsl(E, k);
    const char *U = w == 1 ? "uint" : arena_printf(E->prog->arena, "uvec%d", w);
    const char *I = w == 1 ? "int" : arena_printf(E->prog->arena, "ivec%d", w);
    const char *B = w == 1 ? "bool" : arena_printf(E->prog->arena, "bvec%d", w);
    const char *M = k == TY_UINT ? "u" : "i";
    for (const char *p = text; *p; p++) {
        if (*p != '$') {
            char c[2] = {*p, 0};
            put(E, c);
            continue;
        }
        p++;
        put(E, *p == 'T' ? T : *p == 'S' ? S : *p == 'U' ? U : *p == 'I' ? I : *p == 'B' ? B : *p == 'M' ? M : "?");
    }
    put(E, "\n\n");
}

/* A G-kind helper for GLSL type TN: its text with $T = TN, $S its scalar, $B and $U the bool and uint types of its
   shape (the text is valid GLSL for every type the Metal function takes). */
static void emit_generic_helper(Emit *E, const HelperInfo *hi, const char *tn)
{
    size_t len = strlen(tn);
    int w = len && tn[len - 1] >= '2' && tn[len - 1] <= '4' && strstr(tn, "vec") ? tn[len - 1] - '0' : 1;
    const char *S = tn;
    if (w > 1) {
        const char *v = strstr(tn, "vec");
        const char *pre = arena_printf(E->prog->arena, "%.*s", (int)(v - tn), tn);
        S = !*pre ? "float" : !strcmp(pre, "f16") ? "float16_t" : !strcmp(pre, "i") ? "int" : !strcmp(pre, "u") ? "uint"
            : arena_printf(E->prog->arena, "%sint%s_t", pre[0] == 'u' ? "u" : "", pre + 1 + (pre[0] == 'u'));
    }
    const char *B = w == 1 ? "bool" : arena_printf(E->prog->arena, "bvec%d", w);
    const char *U = w == 1 ? "uint" : arena_printf(E->prog->arena, "uvec%d", w);
    const char *text = w > 1 && hi->vector_text ? hi->vector_text : hi->scalar_text;
    for (const char *p = text; *p; p++) {
        if (*p != '$') {
            char c[2] = {*p, 0};
            put(E, c);
            continue;
        }
        p++;
        put(E, *p == 'T' ? tn : *p == 'S' ? S : *p == 'B' ? B : *p == 'U' ? U : "?");
    }
    put(E, "\n\n");
}

/* The half version of an F-kind helper: converts its arguments to float, calls the float version and converts back
   (a bool result stays bool). Its parameters are counted from the helper's own text. */
static void emit_half_wrapper(Emit *E, const HelperInfo *hi, const char *HT, const char *FT, int w)
{
    static const char *names[] = {"x", "y", "z"};
    int n = 1;
    for (const char *p = strchr(hi->scalar_text, '('); p && *p && *p != ')'; p++)
        n += *p == ',';
    bool boolres = !strncmp(hi->scalar_text, "$B", 2);
    const char *B = w == 1 ? "bool" : arena_printf(E->prog->arena, "bvec%d", w);
    putf(E, "%s %s(", boolres ? B : HT, hi->name);
    for (int i = 0; i < n && i < 3; i++)
        putf(E, "%s%s %s", i ? ", " : "", HT, names[i]);
    putf(E, ") { return %s(%s(", boolres ? "" : HT, hi->name);
    for (int i = 0; i < n && i < 3; i++)
        putf(E, "%s%s(%s)", i ? ", " : "", FT, names[i]);
    put(E, ")); }\n\n");
}

static void emit_helpers(Emit *E)
{
    for (int i = 0; i < E->L->helper_types.len; i++) {
        const char *key = E->L->helper_types.items[i];
        const char *tab = strchr(key, '\t');
        for (size_t h = 0; h < sizeof helper_table / sizeof *helper_table; h++) {
            const HelperInfo *hi = &helper_table[h];
            if (strlen(hi->name) != (size_t)(tab - key) || strncmp(hi->name, key, (size_t)(tab - key)))
                continue;
            const char *tn = tab + 1;
            if (hi->kind == 'G') {
                emit_generic_helper(E, hi, tn);
                continue;
            }
            /* recover the type from its GLSL name: only float/int/uint/half families reach here */
            int w = 1;
            TypeKind k = TY_FLOAT;
            if (!strncmp(tn, "f16vec", 6))
                k = TY_HALF, w = tn[6] - '0';
            else if (!strcmp(tn, "float16_t"))
                k = TY_HALF;
            else if (!strncmp(tn, "uvec", 4))
                k = TY_UINT, w = tn[4] - '0';
            else if (!strncmp(tn, "ivec", 4))
                k = TY_INT, w = tn[4] - '0';
            else if (!strncmp(tn, "vec", 3))
                w = tn[3] - '0';
            else if (!strcmp(tn, "uint"))
                k = TY_UINT;
            else if (!strcmp(tn, "int"))
                k = TY_INT;
            Type *t = ty_vec(E->prog->arena, k, w);
            if (k == TY_HALF) {
                /* half: through the float version */
                Type *ft = ty_vec(E->prog->arena, TY_FLOAT, w);
                const char *FT = glsl_type(E, ft), *HT = glsl_type(E, t);
                emit_half_wrapper(E, hi, HT, FT, w);
                continue;
            }
            emit_helper_text(E, w > 1 && hi->vector_text ? hi->vector_text : hi->scalar_text, t);
        }
    }
}

static bool needs_threads_per_threadgroup(Lowered *L)
{
    return !L->exact_groups && (L->builtins_used & ((1u << ATTR_threads_per_threadgroup) | (1u << ATTR_thread_index_in_threadgroup)));
}

/* Exact threadgroups: the runtime dispatches a partial threadgroup as a smaller workgroup and gives the
   full threadgroup size in specialization constants 3, 4, 5 (docs/interfaces.md). */
static void emit_exact_header(Emit *E)
{
    put(E, "// Partial threadgroups at the grid's edge run as smaller workgroups, so that only existing threads run,\n");
    put(E, "// as in Metal; the threadgroup size asked for is in specialization constants 3, 4, 5.\n");
    put(E, "layout(constant_id = 3) const uint mtl_threadgroup_full_x = 1u;\n");
    put(E, "layout(constant_id = 4) const uint mtl_threadgroup_full_y = 1u;\n");
    put(E, "layout(constant_id = 5) const uint mtl_threadgroup_full_z = 1u;\n");
    put(E, "const uvec3 mtl_threads_per_threadgroup_full = uvec3(mtl_threadgroup_full_x, mtl_threadgroup_full_y, mtl_threadgroup_full_z);\n");
    put(E, "const uint mtl_threadgroup_full_total = mtl_threadgroup_full_x * mtl_threadgroup_full_y * mtl_threadgroup_full_z;\n");
    put(E, "const uint mtl_threadgroup_total = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;\n\n");
}

/* threadgroup variables of the body and [[threadgroup(n)]] parameters: shared arrays at file scope. */
static void emit_threadgroup_memory(Emit *E)
{
    if (!E->L->tg_vars.len)
        return;
    put(E, "// Threadgroup memory.\n");
    for (int i = 0; i < E->L->tg_vars.len; i++) {
        Var *v = E->L->tg_vars.items[i];
        if (v->mem_type) { /* read as another type, or as several (ptr.c: choose_memory) */
            Type *m = v->mem_type;
            int ms = ptr_elem_size(m), ds = ptr_elem_size(ptr_decl_elem(v));
            const char *how = v->mem_word ? arena_printf(E->prog->arena, "read as several types: %d-byte words", ms)
                                          : arena_printf(E->prog->arena, "read as %s", ty_metal_name(E->prog->arena, m));
            if (v->role == PR_TGMEM) {
                putf(E, "layout(constant_id = %d) const uint mtl_threadgroup_length_%d = 1u; // [[threadgroup(%d)]]: elements, set by the runtime\n",
                     16 + v->tg_index, v->tg_index, v->tg_index);
                if (ds == ms)
                    putf(E, "shared %s %s[mtl_threadgroup_length_%d]; // %s %s, %s\n", storage_type(E, m), v->glsl_name, v->tg_index,
                         ty_metal_name(E->prog->arena, v->ty), v->name, how);
                else
                    putf(E, "shared %s %s[(mtl_threadgroup_length_%d * %du + %du) / %du]; // %s %s, %s\n", storage_type(E, m), v->glsl_name,
                         v->tg_index, ds, ms - 1, ms, ty_metal_name(E->prog->arena, v->ty), v->name, how);
            } else {
                putf(E, "shared %s %s[%d]; // %s %s%s, %s\n", storage_type(E, m), v->glsl_name, ty_metal_size(v->ty) / ms,
                     ty_metal_name(E->prog->arena, ptr_decl_elem(v)), v->name, v->ty->kind == TY_ARRAY ? arena_printf(E->prog->arena, "[%d]", v->ty->n) : "", how);
            }
            continue;
        }
        if (v->role == PR_TGMEM) {
            putf(E, "layout(constant_id = %d) const uint mtl_threadgroup_length_%d = %du; // [[threadgroup(%d)]]: elements, set by the runtime\n",
                 16 + v->tg_index, v->tg_index, tgmem_default_length(E->L->kernel, v), v->tg_index);
            putf(E, "%sshared %s %s[mtl_threadgroup_length_%d]%s;\n", v->atomic_bits ? "" : precise(E, v->ty), v->atomic_bits ? "uint" : glsl_type(E, v->ty->elem), v->glsl_name, v->tg_index,
                 array_suffix(E, v->ty->elem));
        } else {
            if (v->view_lanes && ty_width(v->ty->elem) == 1) /* read as vectors through pointers (ptr.c) */
                putf(E, "%sshared %s %s[%d]; // %s %s[%d], read as %s%d too\n", precise(E, v->ty), glsl_type(E, ty_vec(E->prog->arena, v->ty->elem->kind, v->view_lanes)),
                     v->glsl_name, v->ty->n / v->view_lanes, ty_metal_name(E->prog->arena, v->ty->elem), v->name, v->ty->n,
                     ty_metal_name(E->prog->arena, v->ty->elem), v->view_lanes);
            else
                putf(E, "%sshared %s %s%s;%s\n", v->atomic_bits ? "" : precise(E, v->ty), v->atomic_bits ? "uint" : glsl_type(E, v->ty), v->glsl_name, array_suffix(E, v->ty),
                     v->atomic_bits ? " // atomic<float> as its bits" : "");
        }
    }
    put(E, "\n");
}

static void emit_workgroup_any(Emit *E)
{
    put(E, "// Whether C holds in any thread of the threadgroup: loops around SIMD-group functions run in every thread\n"
           "// while one of them still loops.\n"
           "shared uint mtl_any_flag;\n"
           "bool mtl_workgroup_any(bool c)\n{\n    barrier();\n    if (gl_LocalInvocationIndex == 0u)\n        mtl_any_flag = 0u;\n"
           "    barrier();\n    if (c)\n        atomicOr(mtl_any_flag, 1u);\n    barrier();\n    return mtl_any_flag != 0u;\n}\n\n");
}

/* Subgroup extensions the helper text uses, recorded for the reflection. */
static void note_subgroup_use(Lowered *L, const char *text, bool need_basic)
{
    L->subgroup_ops = 0;
    if (!text && !need_basic)
        return;
    if (need_basic || (text && strstr(text, "gl_Subgroup")))
        L->subgroup_ops |= SG_OP_BASIC;
    if (!text)
        return;
    if (strstr(text, "subgroupAdd") || strstr(text, "subgroupMul") || strstr(text, "subgroupMin") || strstr(text, "subgroupMax") ||
        strstr(text, "subgroupAnd") || strstr(text, "subgroupOr") || strstr(text, "subgroupXor") || strstr(text, "subgroupInclusive") ||
        strstr(text, "subgroupExclusive"))
        L->subgroup_ops |= SG_OP_ARITHMETIC | SG_OP_BASIC;
    if (strstr(text, "subgroupBallot"))
        L->subgroup_ops |= SG_OP_BALLOT | SG_OP_BASIC;
    if (strstr(text, "subgroupShuffle"))
        L->subgroup_ops |= SG_OP_SHUFFLE | SG_OP_BASIC;
    if (strstr(text, "subgroupClustered"))
        L->subgroup_ops |= SG_OP_CLUSTERED | SG_OP_BASIC;
}

/* The specialization constant type a function constant of kind K is declared with: 8- and 16-bit integers as
   int or uint, half as float (the runtime converts the value: docs/interfaces.md). */
static TypeKind function_constant_spec_kind(TypeKind k)
{
    switch (k) {
    case TY_CHAR:
    case TY_SHORT:
        return TY_INT;
    case TY_UCHAR:
    case TY_USHORT:
        return TY_UINT;
    case TY_HALF:
        return TY_FLOAT;
    default:
        return k;
    }
}

/* `constant T name [[function_constant(n)]]`: `layout(constant_id = ID) const T name = 0;` for bool, int, uint and
   float. Other scalars are a constant of 32 bits and a variable of T set from it through a function:
   before SPIR-V 1.4, a conversion of a specialization constant that glslang folds into the constant
   (OpSpecConstantOp UConvert, FConvert) needs the Kernel capability. PASSES: the pass-through functions printed. */
static void emit_function_constant(Emit *E, Var *g, bool *passes)
{
    TypeKind k = g->ty->kind, sk = function_constant_spec_kind(k);
    const char *zero = sk == TY_BOOL ? "false" : sk == TY_FLOAT ? "0.0" : sk == TY_UINT ? "0u" : "0";
    const char *what = g->fc_defined ? "is_function_constant_defined" : "function_constant";
    if (sk == k) {
        putf(E, "layout(constant_id = %d) const %s %s = %s; // [[%s(%d)]]\n", g->fc_id, scalar_glsl(E, k), g->glsl_name, zero, what, g->fc_index);
        return;
    }
    const char *st = scalar_glsl(E, sk);
    if (!passes[sk])
        putf(E, "%s mtl_fc_value(%s v) { return v; } // a value, not a constant: converting it needs no Kernel capability\n", st, st);
    passes[sk] = true;
    putf(E, "layout(constant_id = %d) const %s mtl_fc_%s = %s; // [[%s(%d)]] %s %s\n", g->fc_id, st, g->glsl_name, zero, what,
         g->fc_index, ty_scalar_metal_name(k), g->name);
    putf(E, "%s %s = %s(mtl_fc_value(mtl_fc_%s));\n", scalar_glsl(E, k), g->glsl_name, scalar_glsl(E, k), g->glsl_name);
}

char *emit_glsl(Program *prog, Lowered *L)
{
    Emit E = {.prog = prog, .L = L};
    /* body first: printing it records the extensions and helpers the header needs */
    for (int i = 0; i < L->structs.len; i++)
        emit_struct(&E, L->structs.items[i]);
    StrBuf structs = E.out;
    E.out = (StrBuf){0};
    bool fc_passes[TY_UNSUPPORTED] = {0};
    for (int i = 0; i < L->globals.len; i++) {
        Var *g = L->globals.items[i];
        if (g->fc_id) { /* a function constant: a specialization constant the runtime sets (docs/interfaces.md) */
            emit_function_constant(&E, g, fc_passes);
            continue;
        }
        if (!strncmp(g->glsl_name, "mtl_str_", 8)) { /* a string literal (parse.c): its text, for the reader */
            put(&E, "// \"");
            for (const char *c = g->name; *c && c - g->name < 100; c++)
                putf(&E, *c >= ' ' && *c <= '~' && *c != '\\' ? "%c" : "\\x%02x", (unsigned char)*c);
            put(&E, strlen(g->name) > 100 ? "...\"\n" : "\"\n");
        }
        if (global_set_in_main(g)) {
            putf(&E, "%s %s%s; // constant in Metal: set first in main() (its initializer calls a function)\n", glsl_type(&E, g->ty),
                 g->glsl_name, array_suffix(&E, g->ty));
            continue;
        }
        emit_vardef(&E, g, true);
        put(&E, ";\n");
    }
    if (L->globals.len)
        put(&E, "\n");
    for (int i = 0; i < L->funcs.len; i++)
        emit_function(&E, L->funcs.items[i]);
    emit_kernel(&E, L->kernel);
    StrBuf body = E.out;
    E.out = (StrBuf){0};
    /* SIMD-group functions, and the SIMD-group attributes' functions */
    const unsigned lane_attrs = (1u << ATTR_thread_index_in_simdgroup) | (1u << ATTR_simdgroup_index_in_threadgroup);
    char *simd = simd_helpers(prog, L, (L->builtins_used & lane_attrs) != 0 || L->mma_lanes);
    bool sg_barrier = false;
    for (int i = 0; body.data && i < 1; i++)
        sg_barrier = strstr(body.data, "subgroupBarrier()") || strstr(body.data, "subgroupMemoryBarrier");
    note_subgroup_use(L, simd, sg_barrier);
    if (E.need_workgroup_any)
        emit_workgroup_any(&E);
    StrBuf wg_any = E.out;
    E.out = (StrBuf){0};
    emit_resources(&E, L->kernel);
    StrBuf resources = E.out;
    E.out = (StrBuf){0};
    emit_helpers(&E);
    StrBuf helpers = E.out;
    E.out = (StrBuf){0};

    const char *base = strrchr(prog->path, '/');
    putf(&E, "#version 450\n// Translated by mtl2glsl %s from %s, kernel %s\n", MTL2GLSL_VERSION, base ? base + 1 : prog->path, L->kernel->name);
    if (L->need_int8 || L->need_int16 || L->need_int64 || L->need_float16)
        put(&E, "#extension GL_EXT_shader_explicit_arithmetic_types : require\n");
    if (L->need_storage8 || L->need_push8)
        put(&E, "#extension GL_EXT_shader_8bit_storage : require\n");
    if (L->need_storage16 || L->need_push16)
        put(&E, "#extension GL_EXT_shader_16bit_storage : require\n");
    if (L->need_scalar_layout)
        put(&E, "#extension GL_EXT_scalar_block_layout : require\n");
    if (L->need_loop_hints)
        put(&E, "#extension GL_EXT_control_flow_attributes : require // [[unroll]]: Metal's loop pragmas\n");
    if (L->need_atomic_float_buffer || L->need_atomic_float_shared)
        put(&E, "#extension GL_EXT_shader_atomic_float : require\n");
    if (L->need_atomic_int64)
        put(&E, "#extension GL_EXT_shader_atomic_int64 : require\n");
    if (L->need_memory_model)
        put(&E, "#extension GL_KHR_memory_scope_semantics : require\n#pragma use_vulkan_memory_model // memory orders and fences (docs/translator.md \"Atomics\")\n");
    if (L->tensor_cores)
        putf(&E, "%s#extension GL_NV_cooperative_matrix : require // SIMD-group matrix products on tensor cores (docs/translator.md)\n",
             L->need_memory_model ? "" : "#extension GL_KHR_memory_scope_semantics : require\n");
    if (L->ptr_ref_types.len)
        put(&E, "#extension GL_EXT_buffer_reference : require\n");
    static const struct { unsigned bit; const char *ext; } sg_ext[] = {
        {SG_OP_BASIC, "GL_KHR_shader_subgroup_basic"}, {SG_OP_ARITHMETIC, "GL_KHR_shader_subgroup_arithmetic"},
        {SG_OP_BALLOT, "GL_KHR_shader_subgroup_ballot"}, {SG_OP_SHUFFLE, "GL_KHR_shader_subgroup_shuffle"},
        {SG_OP_CLUSTERED, "GL_KHR_shader_subgroup_clustered"},
    };
    for (size_t i = 0; i < sizeof sg_ext / sizeof *sg_ext; i++)
        if (L->subgroup_ops & sg_ext[i].bit)
            putf(&E, "#extension %s : require\n", sg_ext[i].ext);
    if ((L->subgroup_ops & ~SG_OP_BASIC) && L->need_float16 && simd && strstr(simd, "float16_t"))
        put(&E, "#extension GL_EXT_shader_subgroup_extended_types_float16 : require\n"), L->subgroup_ops |= SG_OP_EXTENDED_TYPES;
    put(&E, "\n// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.\n");
    put(&E, "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n\n");
    if (L->exact_groups)
        emit_exact_header(&E);
    if (structs.data)
        put(&E, structs.data);
    if (resources.data)
        put(&E, resources.data);
    emit_threadgroup_memory(&E);
    if (E.need_bfloat) {
        put(&E, "// bfloat: the upper 16 bits of a float, rounded to nearest even; NaN stays a quiet NaN.\n");
        put(&E, "float mtl_bf16_to_float(uint16_t b)\n{\n    return uintBitsToFloat(uint(b) << 16);\n}\n\n");
        put(&E, "uint16_t mtl_float_to_bf16(float f)\n{\n    uint u = floatBitsToUint(f);\n");
        put(&E, "    if (isnan(f))\n        return uint16_t((u >> 16) | 0x40u);\n");
        put(&E, "    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);\n}\n\n");
        for (int w = 2; w <= 4; w++)
            if (E.need_bfloat_vec[w]) {
                putf(&E, "vec%d mtl_bf16_to_float(u16vec%d b)\n{\n    return uintBitsToFloat(uvec%d(b) << 16);\n}\n\n", w, w, w);
                putf(&E, "u16vec%d mtl_float_to_bf16(vec%d f)\n{\n    uvec%d u = floatBitsToUint(f);\n", w, w, w);
                putf(&E, "    return u16vec%d(mix((u + 0x7fffu + ((u >> 16) & 1u)) >> 16, (u >> 16) | 0x40u, isnan(f)));\n}\n\n", w);
            }
    }
    for (int k = 0; k < TY_UNSUPPORTED; k++)
        if (E.need_cas[k])
            putf(&E, "%s mtl_cas_%s; // atomic_compare_exchange_weak_explicit: the value found\n\n", scalar_glsl(&E, k), scalar_glsl(&E, k));
    if (E.need_u64x2) {
        put(&E, "// as_type between 16-byte types of 64-bit and of 32-bit components: the two 64-bit halves\n");
        put(&E, "u64vec2 mtl_u32x4_to_u64x2(uvec4 v) { return u64vec2(pack64(v.xy), pack64(v.zw)); }\n");
        put(&E, "uvec4 mtl_u64x2_to_u32x4(u64vec2 v) { return uvec4(unpack32(v.x), unpack32(v.y)); }\n\n");
    }
    if (E.need_float_less) {
        put(&E, "// Float atomic min/max order: a NaN operand changes nothing, a NaN in memory is replaced, -0.0 < +0.0.\n");
        put(&E, "bool mtl_float_less(float a, float b)\n{\n    return a < b || (a == b && floatBitsToUint(a) > floatBitsToUint(b));\n}\n\n");
    }
    if (E.atomic_helpers.data)
        put(&E, E.atomic_helpers.data);
    if (wg_any.data)
        put(&E, wg_any.data);
    if (simd)
        put(&E, simd);
    if (needs_threads_per_threadgroup(L)) {
        put(&E, "// threads_per_threadgroup: a partial threadgroup at the grid's edge counts only its threads.\n");
        put(&E, "uvec3 mtl_threads_per_threadgroup()\n{\n    return min(gl_WorkGroupSize, mtl_params.mtl_threads_per_grid - gl_WorkGroupID * gl_WorkGroupSize);\n}\n\n");
        put(&E, "uint mtl_thread_index_in_threadgroup()\n{\n    uvec3 size = mtl_threads_per_threadgroup();\n");
        put(&E, "    return gl_LocalInvocationID.x + size.x * (gl_LocalInvocationID.y + size.y * gl_LocalInvocationID.z);\n}\n\n");
    }
    if (helpers.data)
        put(&E, helpers.data);
    if (E.ptr_helpers.data) {
        put(&E, "// Memory read and written member by member (docs/translator.md, \"Pointers\").\n");
        put(&E, E.ptr_helpers.data);
    }
    if (E.value_helpers.data) {
        put(&E, "// A struct read from memory as a plain value (for ?:, whose operands must have one type in SPIR-V).\n");
        put(&E, E.value_helpers.data);
    }
    if (body.data)
        put(&E, body.data);
    sb_free(&structs);
    sb_free(&wg_any);
    free(simd);
    sb_free(&resources);
    sb_free(&helpers);
    sb_free(&body);
    sb_free(&E.atomic_helpers);
    sb_free(&E.ptr_helpers);
    sb_free(&E.value_helpers);
    pv_free(&E.ptr_helper_names);
    return E.out.data;
}
