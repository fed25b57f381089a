/* internal.h: the translator's own model of a Metal program, shared by its stages.
 *
 * Sections: arena.c, diag.c, types.c, parse.c (libclang -> model), lower.c (Metal semantics and checks),
 * emit_glsl.c (printing), names.c (GLSL-safe identifiers), reflect.c (reflection JSON).
 */
#ifndef MTL2GLSL_INTERNAL_H
#define MTL2GLSL_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mtl2glsl.h"

/* ---- arena.c: one arena per translation unit, freed at once ---- */
typedef struct Arena Arena;
Arena *arena_create(void);
void arena_destroy(Arena *a);
void *arena_alloc(Arena *a, size_t size); /* zeroed */
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Growable string buffer (heap, not arena): used for output text. */
typedef struct StrBuf {
    char *data;
    size_t len, cap;
} StrBuf;
void sb_puts(StrBuf *sb, const char *s);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(StrBuf *sb);

/* Small pointer vector. */
typedef struct PtrVec {
    void **items;
    int len, cap;
} PtrVec;
void pv_push(PtrVec *v, void *p);
void pv_free(PtrVec *v);
bool pv_contains(const PtrVec *v, const void *p);

/* ---- diag.c: every diagnostic goes through here ---- */
typedef struct SrcLoc {
    const char *file; /* NULL: no location */
    int line, col;
} SrcLoc;

typedef struct Diag {
    FILE *out;
    int n_errors;
    int n_warnings;
} Diag;

void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_vprint(Diag *d, SrcLoc loc, const char *severity, const char *fmt, va_list ap);

/* ---- types.c ---- */
typedef enum TypeKind {
    TY_VOID,
    TY_BOOL,
    TY_CHAR,
    TY_UCHAR,
    TY_SHORT,
    TY_USHORT,
    TY_INT,
    TY_UINT,
    TY_LONG,
    TY_ULONG,
    TY_HALF,
    TY_BFLOAT,
    TY_FLOAT,
    TY_DOUBLE,
    TY_VEC,    /* elem (scalar), n = 2..4 */
    TY_STRUCT, /* sdef */
    TY_ARRAY,  /* elem, n (0: unsized) */
    TY_PTR,    /* elem, as */
    TY_REF,    /* elem, as */
    TY_ENUM,   /* integer-valued: treated as int */
    TY_UNSUPPORTED /* name says what it was */
} TypeKind;

typedef enum AddrSpace { AS_THREAD, AS_DEVICE, AS_CONSTANT, AS_THREADGROUP } AddrSpace;

typedef struct StructDef StructDef;
typedef struct Type Type;

struct Type {
    TypeKind kind;
    Type *elem;
    int n;
    AddrSpace as;      /* for TY_PTR / TY_REF: the space pointed to */
    bool is_const;     /* pointee const (const device T*) */
    StructDef *sdef;
    const char *name;  /* TY_UNSUPPORTED: the Metal name; TY_ENUM: the enum name */
};

typedef struct Field {
    const char *name;
    const char *glsl_name;
    Type *ty;
} Field;

struct StructDef {
    const char *name;
    const char *glsl_name;
    Field *fields;
    int n_fields;
    SrcLoc loc;
    bool empty; /* no fields (a functor, a trait): its values are never printed */
};

Type *ty_scalar(TypeKind k);
Type *ty_vec(Arena *a, TypeKind k, int n);
bool ty_is_scalar(const Type *t);
bool ty_is_integer(const Type *t);   /* scalar integer kinds, incl. enum */
bool ty_is_float(const Type *t);     /* half, bfloat, float, double */
bool ty_is_signed(const Type *t);
TypeKind ty_scalar_kind(const Type *t); /* scalar or vector element kind, else TY_VOID */
int ty_width(const Type *t);         /* vector size, 1 for scalars, 0 otherwise */
bool ty_equal(const Type *a, const Type *b);
int ty_metal_size(const Type *t);    /* bytes under Metal's buffer layout */
int ty_metal_align(const Type *t);
const char *ty_metal_name(Arena *a, const Type *t); /* float4, uint, Params, ... */
const char *ty_scalar_metal_name(TypeKind k);

/* ---- the model ---- */
typedef struct Node Node;
typedef struct Var Var;
typedef struct Func Func;

typedef enum NodeKind {
    /* expressions */
    N_INT,      /* ival, ty */
    N_FLOAT,    /* fval, ty */
    N_BOOL,     /* ival */
    N_VAR,      /* var */
    N_ENUMVAL,  /* ival, name */
    N_BINARY,   /* op, a, b */
    N_ASSIGN,   /* op ("=", "+=", ...), a, b */
    N_UNARY,    /* op, a (prefix) */
    N_POSTFIX,  /* op, a */
    N_TERNARY,  /* a ? b : c */
    N_CALL,     /* fn, list */
    N_BUILTIN,  /* builtin index, list, name (Metal name as called) */
    N_VECCTOR,  /* ty, list (Metal vector constructor) */
    N_INITLIST, /* ty (struct or array), list */
    N_CAST,     /* ty, a; implicit says whether written */
    N_ASTYPE,   /* ty, a */
    N_MEMBER,   /* a, name (field), field */
    N_SWIZZLE,  /* a, name (".xy" text without dot) */
    N_INDEX,    /* a[b] */
    N_PAREN,    /* (a) */
    N_DEREF,    /* *a */
    N_ADDR,     /* &a */
    N_SIZEOF,   /* ival */
    /* statements */
    N_BLOCK,    /* list */
    N_DECL,     /* list of N_VARDEF */
    N_VARDEF,   /* var (init in var->init) */
    N_IF,       /* a cond, b then, c else */
    N_FOR,      /* a init, b cond, c inc, d body */
    N_WHILE,    /* a cond, d body */
    N_DO,       /* d body, a cond */
    N_SWITCH,   /* a cond, d body */
    N_CASE,     /* a value, d sub */
    N_DEFAULT,  /* d sub */
    N_BREAK,
    N_CONTINUE,
    N_RETURN,   /* a (may be NULL) */
    N_EXPRSTMT, /* a */
    N_EMPTY
} NodeKind;

struct Node {
    NodeKind kind;
    SrcLoc loc;
    Type *ty;
    const char *op;
    const char *name;
    Node *a, *b, *c, *d;
    Node **list;
    int n_list;
    Var *var;
    Func *fn;
    long long ival;
    double fval;
    int builtin;
    bool implicit;
};

typedef enum VarKind { VAR_LOCAL, VAR_PARAM, VAR_GLOBAL } VarKind;

/* What a kernel parameter is, from its attribute and type. */
typedef enum ParamRole {
    PR_NONE,      /* helper parameter */
    PR_BUFFER,    /* device/constant pointer: SSBO */
    PR_BUFREF,    /* device T& : SSBO holding one T */
    PR_CONSTREF,  /* constant T& : push constant (or SSBO when too large) */
    PR_BUILTIN    /* thread attribute */
} ParamRole;

struct Var {
    const char *name;
    const char *glsl_name;
    Type *ty;
    VarKind kind;
    SrcLoc loc;
    Node *init;
    bool is_constexpr; /* constexpr / const-qualified with constant initializer */
    /* kernel parameters */
    ParamRole role;
    int index;          /* [[buffer(n)]] */
    int builtin;        /* attribute index (attributes.def) */
    bool read, written; /* access seen in the body */
    bool in_push;       /* PR_CONSTREF placed in push constants */
    int push_offset;
    bool is_out_param;  /* thread T& helper parameter: inout */
    /* function constants ([[function_constant(n)]]): Vulkan specialization constant fc_id (0: not one) */
    int fc_id;
    int fc_index;       /* Metal's n */
    bool fc_defined;    /* the "is defined" flag of function constant fc_index, not its value */
    Var *captured;      /* a lambda's parameter standing for this variable of the enclosing function */
    Func *owner;        /* the function a local or parameter belongs to */
};

struct Func {
    const char *name;       /* Metal name */
    const char *glsl_name;
    Type *ret;
    Var **params;
    int n_params;
    Node *body;
    SrcLoc loc;
    bool is_kernel;
    bool parsed;
    bool had_errors; /* diagnostics while its body was parsed */
    bool visiting; /* on the call path being checked: recursion */
    int max_threads; /* [[max_total_threads_per_threadgroup(N)]], 0 if none */
    Var *self; /* a member function of a struct with fields: the object, params[0] */
    int n_captures; /* a lambda: its last n_captures parameters are the enclosing variables it uses */
};

/* Attribute table index (attributes.def) and builtin table index (builtins.def). */
enum {
#define ATTR(name, glsl, kind) ATTR_##name,
#include "attributes.def"
#undef ATTR
    ATTR_COUNT
};

typedef enum BuiltinFamily { BF_F1, BF_F2, BF_F3, BF_FB1, BF_FS1, BF_FS2, BF_FV3, BF_I1, BF_I2, BF_I3, BF_IX, BF_A1, BF_A2, BF_A3, BF_BV, BF_SEL } BuiltinFamily;
typedef struct BuiltinInfo {
    const char *metal;
    BuiltinFamily family;
    const char *glsl;
} BuiltinInfo;
extern const BuiltinInfo builtin_table[];
extern const int builtin_count;
int builtin_lookup(const char *metal_name);

typedef struct AttrInfo {
    const char *name;
    const char *glsl;
    int kind; /* 0: builtin value, 1: buffer index, 2: other */
} AttrInfo;
extern const AttrInfo attr_table[];

/* The whole translation unit. */
typedef struct Program {
    Arena *arena;
    Diag *diag;
    const char *path;
    PtrVec kernels;   /* Func* */
    PtrVec structs;   /* StructDef* */
} Program;

/* ---- parse.c ---- */
typedef struct ParseOptions {
    const char *path;
    const char *grammar_dir;
    const char *const *include_dirs;
    const char *const *defines;
} ParseOptions;
/* Parses the source with libclang and builds the model of every kernel and what it reaches.
   Returns false if the source did not parse (diagnostics printed). */
bool parse_program(Program *prog, const ParseOptions *opt);

/* ---- lower.c ---- */
typedef struct Lowered {
    Func *kernel;
    PtrVec funcs;    /* helpers reachable, callees first */
    PtrVec structs;  /* structs used, dependencies first */
    PtrVec globals;  /* global constants used */
    PtrVec helper_types;        /* per helper instance: "name\ttype" strings */
    bool need_int8, need_int16, need_int64, need_float16;
    bool need_storage8, need_storage16;
    int push_size;
    unsigned builtins_used; /* bit per ATTR_ */
} Lowered;
/* Checks a kernel and everything it reaches; fills L. Returns false on error (diagnosed). */
bool lower_kernel(Program *prog, Func *k, Lowered *L);

/* ---- emit_glsl.c ---- */
char *emit_glsl(Program *prog, Lowered *L); /* malloc'd */

/* ---- reflect.c ---- */
char *reflect_json(Program *prog, Lowered *L); /* malloc'd */

/* ---- spirv.c ---- */
/* GLSL to SPIR-V with shaderc; returns malloc'd words or NULL with *err (malloc'd) set. */
unsigned *spirv_compile(const char *glsl, const char *name, size_t *n_bytes, char **err);

/* ---- templates.c: source text rewrites for kernel templates (see there) ---- */
/* Function constant n is specialization constant FC_VALUE_ID(n); its "defined" flag is FC_DEFINED_ID(n). */
#define FC_VALUE_ID(n) (100 + (n))
#define FC_DEFINED_ID(n) (1100 + (n)) /* glslang takes ids below 2048: n is at most 899 */
char *tmpl_rewrite_instances(const char *text, size_t len, size_t *out_len); /* malloc'd */
void tmpl_blank_template_kernels(char *text, size_t len);

/* ---- names.c ---- */
const char *names_legal(Arena *a, const char *name); /* renames GLSL keywords and reserved forms */

#endif
