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

#include "m2g_limits.h"
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
void sb_append(StrBuf *sb, const char *s, size_t n); /* N bytes of S */
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
    const char *const *sources; /* NAME, TEXT pairs quoted instead of reading the file NAME (M2gOptions) */
    int n_errors;
    int n_warnings;
    char last[600]; /* the last diagnostic printed: an identical one right after it is not printed again */
    struct DiagError {  /* every error, printed or left unprinted as a repeat: the entry points' causes (api.c) */
        char *msg;      /* "file:line:col: error: message" */
        SrcLoc loc;
    } *errors;          /* n_errors of them, where memory allowed */
    int n_recorded;
    char *cache_path, *cache_text; /* the file source lines were last quoted from, read once */
    const char **cache_lines;
    int cache_n;
} Diag;
void diag_release(Diag *d); /* frees the quoted file kept */
void diag_errors_free(Diag *d); /* frees Diag.errors */

void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
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
    TY_ATOMIC, /* atomic<elem>: atomic_int, atomic_uint, atomic<float> (atomics.c) */
    TY_MAT,    /* matrix: elem (the column vector, n rows), n columns (matrix.c) */
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
    bool packed;       /* TY_VEC: Metal's packed_floatN etc. (n * scalar bytes, scalar-aligned; layout.c) */
    StructDef *sdef;
    const char *name;  /* TY_UNSUPPORTED: the Metal name; TY_ENUM: the enum name */
};

typedef struct Field {
    const char *name;
    const char *glsl_name;
    Type *ty;
    unsigned char pad[4]; /* layout.c: padding members (sizes 1, 2, 4) printed before this one */
    int n_pad;
    struct Var *ptr_var; /* ptr.c: a pointer member, as the variable its root is kept under (every S's) */
} Field;

struct StructDef {
    const char *name;
    const char *glsl_name;
    Field *fields;
    int n_fields;
    SrcLoc loc;
    unsigned char tail_pad[4]; /* layout.c: padding members after the last field */
    int n_tail_pad;
    int layout_state; /* layout.c: 0 not done, 1 done, 2 impossible */
    bool scalar; /* layout.c: laid out in GL_EXT_scalar_block_layout (holds packed vectors, or is inside such a struct) */
    bool empty; /* no fields (a functor, a trait): its values are never printed */
    bool is_union; /* a union: every member at offset 0; no GLSL type (read through its members: ptr.c) */
    const char *member_init; /* parse.c: the first field with a default member initializer (`float a = 5;`), else NULL */
    bool has_ctor; /* parse.c: the struct (or its template) declares a constructor */
    bool addresses; /* lower.c: it is in a buffer and has pointer members: they hold 64-bit device addresses
                       (an argument buffer), read as buffer references (ptr.c) */
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
int ty_member_offset(const StructDef *s, int i); /* Metal's byte offset of field I (0 in a union) */
bool ty_has_union(const Type *t);               /* T is or holds a union */
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
    N_SIMD,     /* builtin (simd_table index), list; ival: mem_flags of a barrier */
    N_ATOMIC,   /* name (atomic_fetch_add_explicit, ...), list: object pointer, operands, memory orders */
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
    unsigned char flags; /* NF_* (sync.c) */
    signed char unroll;  /* N_FOR, N_WHILE, N_DO: a loop pragma's hint, 1 unroll, -1 do not (GL_EXT_control_flow_attributes) */
};

/* Node flags computed by sync.c for kernels whose control flow is made uniform (docs/translator.md). */
enum {
    NF_SYNC = 1,      /* contains a synchronizing operation (barrier; SIMD function when emulated) */
    NF_RETURN = 2,    /* contains a return */
    NF_BREAK = 4,     /* contains a break whose loop or switch encloses this node */
    NF_CONTINUE = 8   /* contains a continue whose loop encloses this node */
};

typedef enum VarKind { VAR_LOCAL, VAR_PARAM, VAR_GLOBAL } VarKind;

/* What a kernel parameter is, from its attribute and type. */
typedef enum ParamRole {
    PR_NONE,      /* helper parameter */
    PR_BUFFER,    /* device/constant pointer: SSBO */
    PR_BUFREF,    /* device T& : SSBO holding one T */
    PR_CONSTREF,  /* constant T& : push constant (or SSBO when too large) */
    PR_BUILTIN,   /* thread attribute */
    PR_TGMEM      /* threadgroup T* [[threadgroup(n)]]: shared array sized by the host */
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
    bool push_word;     /* PR_CONSTREF: an 8- or 16-bit scalar held in the low bytes of a 32-bit push-constant word */
    int addr_offset;    /* ptr.c: push-constant offset of the buffer's device address (0: none) */
    int view_lanes;     /* ptr.c: a threadgroup array read both as scalars and as vectors of this many lanes
                           through pointers: stored as those vectors, scalars at [i / lanes][i % lanes] */
    Type *mem_type;     /* ptr.c: threadgroup memory read only as another type than declared (ggml's `threadgroup
                           char* shmem` read as float): stored as that type; or, with mem_word, as words */
    int mem_word;       /* ptr.c: threadgroup memory read and written as several types: stored as mem_word-byte
                           unsigned words, each access put together from them (docs/translator.md, "Pointers") */
    bool is_out_param;  /* thread T& helper parameter: inout */
    bool is_const_copy; /* lower.c: a `constant T&` local printed as a const copy of what it refers to */
    /* function constants ([[function_constant(n)]]): Vulkan specialization constant fc_id (0: not one; numbered
       per kernel by lower.c, FC_UNNUMBERED before) */
    int fc_id;
    int fc_index;       /* Metal's n */
    bool fc_defined;    /* the "is defined" flag of function constant fc_index, not its value */
    const char *fc_param; /* a kernel parameter [[buffer(n), function_constant(NAME)]]: it exists only when the bool
                             function constant NAME is true (reflection "function_constant"); NULL: always */
    Var *captured;      /* a lambda's parameter standing for this variable of the enclosing function */
    Func *owner;        /* the function a local or parameter belongs to */
    bool is_threadgroup; /* threadgroup variable of a kernel body: a shared array at file scope */
    bool atomic_bits;    /* threadgroup atomic<float> held as uint: min/max/compare-exchange use it (atomics.c) */
    bool coherent, is_volatile; /* buffer parameters: MSL 3.2's coherent(device), volatile */
    bool uniform;        /* sync.c: local known to hold the same value in every thread */
    int tg_index;        /* PR_TGMEM: [[threadgroup(n)]] */
    struct Var **field_ptrs; /* ptr.c: an object of a struct holding pointers: per field, the variable its pointer
                                member's root is kept under (ptr.c, "Pointers in structs") */
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
    int clang_error; /* a clang error inside it, or in what it uses, as that error's index + 1 (parse.c); 0: none */
    int first_error; /* the first of Diag.errors printed while its body was converted, as index + 1; 0: none */
    bool visiting; /* on the call path being checked: recursion */
    bool uniform_sync; /* sync.c: reaches a synchronizing call under uniform control flow; takes `bool mtl_p` */
    int max_threads; /* [[max_total_threads_per_threadgroup(N)]], 0 if none */
    Var *self; /* a member function of a struct with fields: the object, params[0] */
    bool returns_ref; /* parse.c: returns a reference to device, constant or threadgroup memory, made a pointer:
                         its returns take the address, its calls read through the pointer */
    Var *returns_param; /* parse.c: returns `thread T&` naming this reference parameter, made a return by value:
                           its calls are values (lower.c refuses writes through them) */
    int n_captures; /* a lambda: its last n_captures parameters are the enclosing variables it uses */
    Var *ret_object; /* ptr.c: the struct holding pointers it returns, as an object (its members' roots) */
};

/* Attribute table index (attributes.def) and builtin table index (builtins.def). */
enum {
#define ATTR(name, glsl, glsl_exact, kind) ATTR_##name,
#include "attributes.def"
#undef ATTR
    ATTR_COUNT
};

typedef enum BuiltinFamily {
    BF_F1, BF_F2, BF_F3, BF_FB1, BF_FB2, BF_FS1, BF_FS2, BF_FV3, BF_FR, BF_FLD, BF_FFR, BF_FIL, BF_FO,
    BF_I1, BF_I2, BF_I3, BF_IX, BF_IU2, BF_A1, BF_A2, BF_A3, BF_BV, BF_SEL, BF_MT, BF_MD, BF_PK
} BuiltinFamily;
typedef struct BuiltinInfo {
    const char *metal;
    BuiltinFamily family;
    const char *glsl;
} BuiltinInfo;
extern const BuiltinInfo builtin_table[];
extern const int builtin_count;
int builtin_lookup(const char *metal_name);
int builtin_arity(BuiltinFamily family); /* how many value arguments a family takes (IX: 3, or 4 for insert_bits) */

typedef struct AttrInfo {
    const char *name;
    const char *glsl;       /* value when threads past the grid return early */
    const char *glsl_exact; /* value when partial threadgroups are dispatched as smaller workgroups */
    int kind;               /* 0: uvec3 value, 1: uint value */
} AttrInfo;
extern const AttrInfo attr_table[];

/* SIMD-group / quad-group functions and barriers (grammar/simd.def). */
typedef enum SimdOp {
    SOP_SUM, SOP_PRODUCT, SOP_MIN, SOP_MAX, SOP_AND, SOP_OR, SOP_XOR,
    SOP_ISUM, SOP_IPRODUCT, SOP_XSUM, SOP_XPRODUCT,
    SOP_SHUFFLE, SOP_SHUFFLE_UP, SOP_SHUFFLE_DOWN, SOP_SHUFFLE_XOR, SOP_ROTATE_UP, SOP_ROTATE_DOWN,
    SOP_FILL_UP, SOP_FILL_DOWN, SOP_BROADCAST, SOP_BROADCAST_FIRST,
    SOP_BALLOT, SOP_ALL, SOP_ANY, SOP_IS_FIRST, SOP_ACTIVE_MASK,
    SOP_TG_BARRIER, SOP_SG_BARRIER,
    SOP_MAT_MULTIPLY, SOP_MAT_MULTIPLY_ACCUMULATE, SOP_MAT_INDEX, SOP_MAT_DIAGONAL /* group 'M' (sgmat.c) */
} SimdOp;
typedef struct SimdInfo {
    const char *metal;
    char group; /* 'S' SIMD-group, 'Q' quad-group, 'B' barrier, 'M' SIMD-group matrix */
    SimdOp op;
} SimdInfo;
extern const SimdInfo simd_table[];
int simd_lookup(const char *metal_name);

/* How SIMD-groups are built (docs/translator.md, "SIMD-group width"). */
typedef enum SimdMode {
    SIMD_NATIVE,    /* 32-wide subgroups: Metal's functions are the subgroup operations */
    SIMD_CLUSTERED, /* wider subgroups (64, 128): 32-lane clusters of them */
    SIMD_EMULATED   /* narrower subgroups (4, 8, 16): 32-lane groups across subgroups through shared memory */
} SimdMode;

/* The whole translation unit. */
typedef struct Program {
    Arena *arena;
    Diag *diag;
    const char *path;
    PtrVec kernels;   /* Func* */
    PtrVec structs;   /* StructDef* */
    bool scalar_marked; /* layout.c: StructDef.scalar computed */
    int subgroup_size;     /* the device subgroup size shaders are built for (M2gOptions) */
    bool virtual_subgroups; /* subgroup operations emulated in shared memory (testing widths a device lacks) */
    PtrVec includes;  /* char* (arena): every file the parse read, the source first (depfiles) */
    void *glsl_checker; /* spirv.c: the compiler every shader written is checked with */
    bool line_markers; /* --check-bounds: emit_glsl marks each statement's location for bounds.c */
    bool push_words;   /* 8/16-bit constant-reference scalars read from 32-bit push-constant words (M2gOptions) */
    bool fast_math;    /* -ffast-math: floating-point values are not declared `precise` (M2gOptions.fast_math) */
    bool tensor_cores; /* M2gOptions.tensor_cores */
    bool mma_lanes;    /* M2gOptions.mma_lanes */
    struct RefAlias *ref_aliases; /* refs.c: functions made for calls that pass one object to two references */
} Program;

/* ---- nodes.c: expression trees as a whole ---- */
Node *node_clone(Program *prog, const Node *n); /* a copy: each use gets its own nodes */
enum { EFFECT_CALLS = 1, EFFECT_INITLISTS = 2 };
/* Whether evaluating N changes a variable or memory: assignments, ++/--, atomics, SIMD-group operations, and calls
   or initializer lists (constructors) as WHAT asks. */
bool node_effects(const Node *n, unsigned what);

/* ---- layout.c: Metal's buffer layout in std430 ---- */
/* Adds padding members to S (and the structs inside it) so that its std430 layout is Metal's: a float3
   member is 16 bytes in Metal and 12 in std430, a half3 8 and 6. Returns false, diagnosed at LOC, when
   padding cannot make the layouts agree and REPORT (a struct used only in thread memory needs no match). */
bool layout_struct(Program *prog, StructDef *s, SrcLoc loc, bool report);
bool layout_needs_scalar(Program *prog, const Type *t); /* a block holding T must be layout(scalar) */
/* A bool (vector, array) in a buffer or a struct member is stored as uint8_t: whether lvalue N is one. */
bool layout_bool_stored(const Node *n);
/* The stored bool that an assignment to N writes (m[i], f.on in m[i].xy = ...), or NULL. */
const Node *layout_bool_target(const Node *n);
int layout_std430_size(const Type *t);
int layout_std430_align(const Type *t);

/* ---- front/preprocess.c: clang -E first, and where each byte of its output came from ---- */
typedef struct PpOptions {
    const char *path;
    const char *text; /* the source itself, named PATH; NULL: read PATH */
    const char *grammar_dir;
    const char *const *include_dirs;
    const char *const *defines;
    const char *const *lang_flags; /* the parse's language options, NULL-terminated */
    int metal_version;             /* __METAL_VERSION__: 300, 310, 320, 400 */
    char temp_path[64];            /* out: the temporary file that held TEXT ("" when none) */
} PpOptions;
/* Preprocesses the source; returns the text (malloc'd, line markers kept) or NULL after printing why. */
char *pp_run(Arena *a, Diag *d, PpOptions *opt, size_t *len);

typedef struct PpFile {
    const char *path;
    bool system;               /* a system header (the prelude) */
    bool loaded;               /* text and line_starts read (text NULL: could not be) */
    const char *text;
    const char **line_starts;
    int n_lines;
} PpFile;
typedef struct PpLine {
    unsigned off; /* of the line in the preprocessed text */
    int file;     /* index in PpMap.files, -1: a marker line or no file */
    int line;     /* in that file */
} PpLine;
typedef struct PpMap {
    Arena *arena;
    const char *text;
    size_t len;
    PpLine *lines;
    int n_lines;
    PtrVec files; /* PpFile*, in order of first appearance: the source first */
    const char *const *sources; /* NAME, TEXT pairs for files that are not on disk (M2gOptions.sources) */
    const char *align_line, *align_orig, *align_t, *align_o; /* pp_loc: the token alignment last reached */
    const char *orig_line, *orig_end; /* pp_loc: the original line last aligned with, and its end */
} PpMap;
/* Reads the line markers of TEXT (which must outlive the map). */
void pp_map_build(PpMap *m, Arena *a, const char *text, size_t len);
void pp_map_free(PpMap *m);
/* The file, line and column of the source that output offset OFF came from ({0} when none). */
SrcLoc pp_loc(PpMap *m, unsigned off);
/* The same line, at its first token (text that our rewrites made: template instances). */
SrcLoc pp_loc_line(PpMap *m, unsigned off);
bool pp_in_system_file(const PpMap *m, unsigned off);
/* The text clang is about to parse stays inside the limits (m2g_limits.h) that no later stage could report before
   clang itself overflows its stack: identifiers of at most M2G_MAX_IDENTIFIER characters, and no expression or
   statement chain deeper than M2G_MAX_PARSE_DEPTH (an estimate that counts every operator and bracket). False after
   an error at the place. */
bool pp_check_limits(PpMap *m, Diag *d);
/* The text with unsuffixed floating literals made float (`0.5` -> `0.5f`): Metal has no double. malloc'd. */
char *pp_float_literals(const char *text, size_t len, size_t *out_len);
/* `constant T *` and `constant T &` made `constant const`: Metal's constant memory is read-only. malloc'd. */
char *pp_constant_const(const char *text, size_t len, size_t *out_len);
/* Blanks the `thread` qualifier of member functions (`C(float x) thread : x(x) {}`, `T f() const thread`), in place. */
void pp_constructor_spaces(char *text, size_t len);
/* Blanks the `constant` of a struct's static data members (`static constexpr constant U init = U(0);`), in place. */
void pp_static_member_spaces(char *text, size_t len);
/* `struct X<vec<T, 2>>` written `struct X<__mtl_vec_t<T, 2>>`, so that clang deduces T. malloc'd. */
char *pp_deducible_vectors(const char *text, size_t len, size_t *out_len);

/* ---- front/parse.c ---- */
typedef struct ParseOptions {
    const char *path;
    const char *text; /* the source itself, named PATH; NULL: read PATH */
    const char *grammar_dir;
    const char *const *include_dirs;
    const char *const *defines;
    const char *const *sources; /* M2gOptions.sources */
    int metal_version;          /* __METAL_VERSION__ (M2gOptions.metal_version, default 320) */
    bool list_only;             /* find the entry points; parse no bodies */
    bool syntax_only;           /* parse everything, convert nothing */
} ParseOptions;
/* Parses the source with libclang and builds the model of every kernel and what it reaches.
   Returns false if the source did not parse (diagnostics printed). */
bool parse_program(Program *prog, const ParseOptions *opt);

/* ---- ptr.c: pointers as indices into their root (docs/translator.md, "Pointers") ---- */
/* How a pointer's index counts: the index times `unit` is the byte offset into the root. A pointer to T counts
   in T's (unit = T's size) unless it was made from bytes: then in T's alignment (ggml's blocks: 18 bytes,
   2-aligned, at a byte offset), or in what its derivation proves. */
typedef struct PtrUnit {
    int unit;   /* bytes per index step; divides the pointee's size */
    int align;  /* a power of two the byte offset is known to be a multiple of */
    bool tight; /* derived through a struct's layout (a member, a struct's elements): `align` is all that is
                   known, so a cast to a more aligned type may be misaligned (ggml reads a uint32 at byte 2 of
                   a block) and is read in pieces; otherwise a cast asserts its type's alignment, as Metal's
                   rules require (a byte offset computed at run time is taken to fit the type cast to) */
} PtrUnit;

typedef struct PtrSpec {
    Func *f;
    Var **vars, **roots; /* each pointer variable and parameter of f -> the root it points into */
    PtrUnit *units;      /* ... and how its index counts */
    Var **key_roots;     /* per key (a pointer parameter, or a pointer member of a struct parameter): the roots and
                            units the callers pass (the specialization's key) */
    PtrUnit *key_units;
    int n_keys;
    int n, cap;
    const char *glsl_name;
    Var *ret_root;         /* a helper returning a pointer: the root of what it returns */
    PtrUnit ret_unit;
    bool used;             /* reached from the kernel with the final roots (others are not printed) */
    struct Lowered *L;
} PtrSpec;

/* ---- lower.c ---- */
/* recursion.c: for CALL (in FROM) of a function on the call path, a copy of the callee that the call's guard
   (`if (v < C)` around it) keeps from calling back, or NULL. */
Func *lower_bounded_callee(Program *prog, Func *from, Node *call);
/* Whether G is on the call path being checked or calls, through anything, a function that is. */
bool lower_reaches_call_path(Func *g);

typedef struct Lowered {
    Func *kernel;
    int cause; /* the first error of a function it reaches that failed to convert, as a Func.first_error; 0: none */
    PtrVec funcs;    /* helpers reachable, callees first */
    PtrVec structs;  /* structs used, dependencies first */
    PtrVec globals;  /* global constants used */
    PtrVec helper_types;        /* per helper instance: "name\ttype" strings */
    bool need_int8, need_int16, need_int64, need_float16;
    bool need_storage8, need_storage16;
    bool need_scalar_layout; /* GL_EXT_scalar_block_layout: a block holds packed vectors (layout.c) */
    bool need_loop_hints;    /* GL_EXT_control_flow_attributes: a loop pragma became [[unroll]] or [[dont_unroll]] */
    bool need_push8, need_push16; /* 8/16-bit members in push constants: storagePushConstant8/16 */
    bool need_atomic_float_buffer, need_atomic_float_shared; /* GL_EXT_shader_atomic_float */
    bool need_atomic_int64;  /* GL_EXT_shader_atomic_int64 (atomic_ulong) */
    bool need_memory_model; /* memory orders, fences: the Vulkan memory model */
    int push_size;
    unsigned builtins_used; /* bit per ATTR_ */
    /* threadgroup memory, barriers and SIMD-group functions */
    PtrVec tg_vars;          /* Var*: threadgroup variables of the body and [[threadgroup(n)]] parameters */
    bool exact_groups;       /* partial threadgroups dispatched as smaller workgroups (no early return) */
    bool uses_simd, uses_quad, uses_barrier;
    bool uses_matrix_products; /* simdgroup_multiply(_accumulate) */
    PtrVec tc_products;        /* Node*: products whose operands hold half values only (halfexact.c): under
                                  --tensor-cores, these go to the tensor cores */
    PtrVec tc_redirects;       /* pairs (Node *call, Func *callee): calls halfexact.c made call a copy of their callee,
                                  for this kernel; halfexact_restore() puts them back */
    bool mma_lanes;          /* lanes renamed to the tensor cores' layout (simd.c, "Tensor cores") */
    bool tensor_cores;       /* matrix products on VK_NV_cooperative_matrix where exact in half */
    bool uniform_flow;       /* control flow made uniform around synchronizing calls (sync.c) */
    SimdMode simd_mode;
    PtrVec sync_helpers;     /* SIMD functions called, per value type (simd.c) */
    unsigned subgroup_ops;   /* SG_OP_* the shader uses, for the reflection */
    /* pointers (ptr.c) */
    PtrVec ptr_specs;        /* PtrSpec*: the kernel's first, then each helper per combination of roots */
    PtrSpec *ptr_fields;     /* pointer members of structs (Field.ptr_var) -> their roots, for the whole kernel */
    PtrVec ptr_views;        /* pairs (Var *root buffer, Type *elem): SSBO blocks aliasing a buffer as another type */
    PtrVec ptr_ref_types;    /* Type*: element types of buffer references (pointers whose root is chosen at run time) */
    PtrVec ptr_addressed;    /* Var*: buffers whose device address is passed in push constants */
    PtrVec ptr_mem_uses;     /* triples (Var *threadgroup root, Type *as, store ? root : NULL): how it is accessed */
} Lowered;
enum { SG_OP_BASIC = 1, SG_OP_ARITHMETIC = 2, SG_OP_BALLOT = 4, SG_OP_SHUFFLE = 8, SG_OP_CLUSTERED = 16, SG_OP_EXTENDED_TYPES = 32 };
/* Checks a kernel and everything it reaches; fills L. Returns false on error (diagnosed). */
bool lower_kernel(Program *prog, Func *k, Lowered *L);
/* refs.c: calls of functions returning references into their object or arguments become the places they name;
   `thread T&` locals bound to places become those places */
void refs_inline(Program *prog, Func *f);
/* refs.c: call N passes one place to two `thread T&` parameters, one of them written (MLX's tile_matmad(C, A, B, C)):
   N calls a copy of its function whose second parameter is the first one (GLSL's inout copies would lose a write).
   After the callee's visit (lower.c), which marks the parameters it writes */
void refs_unalias(Program *prog, Node *n);

bool ptr_analyze(Program *prog, Lowered *L);
bool ptr_like(const Var *v);     /* printed as an index */
bool ptr_is_root(const Var *v);  /* a buffer parameter, threadgroup memory or a local array */
Type *ptr_root_elem(const Var *root);   /* what a root holds, as stored (mem_type) */
Type *ptr_decl_elem(const Var *root);   /* ... as declared */
Type *ptr_union_storage(const Var *v);
const Field *ptr_struct_array(const Var *v); /* a local struct of one scalar array: that member (read as bytes) */
Type *ptr_pointee(const Var *v);        /* what a pointer variable points to (an array of pointers: its elements) */  /* a local union of 1, 2, 4 or 8 bytes: the unsigned integer holding it */
bool ptr_word_struct(const Type *t);   /* a struct of scalars and vectors: threadgroup words hold it member by member */
bool ptr_same_elem(const Type *root_elem, const Type *elem); /* no view needed (packed_float3 vs float3: ptr.c) */
Var *ptr_root(const PtrSpec *s, Node *p);          /* root of pointer expression p in specialization s */
Var *ptr_var_root(const PtrSpec *s, const Var *v);
extern Var ptr_dynamic;                            /* the root of a pointer chosen at run time between buffers */
extern Var ptr_null;                               /* the root of nullptr (its index: 0xffffffff) */
bool ptr_is_null(Node *n);
bool ptr_address_load(Node *n); /* a pointer read from an argument buffer (a struct with StructDef.addresses) */
Type *ptr_addr_elem(const Var *r);                 /* element type of buffer R's device address (void: uchar) */
Type *ptr_ref_elem(const PtrSpec *s, const Var *v); /* element type of a pointer chosen at run time's reference */
void ptr_add_ref_type(Lowered *L, Type *elem);     /* a buffer reference type to declare */
PtrSpec *ptr_call_spec(Lowered *L, const PtrSpec *s, Node *call); /* the specialization a call in S reaches */
PtrUnit ptr_unit(const PtrSpec *s, Node *p);       /* how pointer expression p (or an array lvalue, decayed) counts */
PtrUnit ptr_addr_unit(const PtrSpec *s, Node *l);  /* ... and &l */
PtrUnit ptr_var_unit(const PtrSpec *s, const Var *v);
int ptr_elem_size(const Type *t);                  /* bytes of a pointee (void: 1) */
bool ptr_in_pieces(const Type *t);                 /* T has no GLSL type of its layout (holds a union): read by members */
int ptr_field(const StructDef *s, const char *name); /* index of field NAME, -1 if none */
/* Member NAME of S, also inside anonymous members: byte offset (-1: none), type, GLSL path (`anon0.d`). */
int ptr_member(const StructDef *s, const char *name, Type **ty, const char **path, Arena *a);
void ptr_add_view(Program *prog, Lowered *L, Var *root, Type *elem); /* an SSBO block reading buffer ROOT as ELEM */

/* ---- matrix.c ---- */
/* A call to a matrix constructor or operator of the prelude, its arguments converted (n->list), as the node
   GLSL prints: N_VECCTOR, N_INDEX, N_BINARY, N_UNARY, N_ASSIGN, or the copied value. NAME: the callee. */
Node *matrix_call(Program *prog, Node *n, const char *name, bool ctor);
bool matrix_involved(const Node *n); /* the result or an argument is a matrix */

/* ---- sgmat.c: simdgroup_matrix<T, 8, 8> (docs/translator.md, "SIMD-group matrices") ---- */
/* The type simdgroup_matrix<T, C, R> of the prelude, T given: this lane's two elements, vec<T, 2>, for an 8x8
   matrix of float, half or bfloat; otherwise TY_UNSUPPORTED naming it. */
Type *sgmat_type(Program *prog, Type *elem, int cols, int rows);
/* A call of the prelude's simdgroup_matrix functions, its arguments converted (n->list; thread_elements: the
   object), as the nodes GLSL prints. WHAT: the callee's name, "simdgroup_matrix" for a constructor. */
Node *sgmat_call(Program *prog, Node *n, const char *what);
bool sgmat_function(const char *name); /* NAME is one of the prelude's simdgroup_matrix functions */
/* Operand A of a product, its conversions stripped, when it is a matrix of half (printed as it is where the product
   takes the _half form under --tensor-cores); else NULL. */
Node *sgmat_half_operand(Node *a);
/* halfexact.c: under --tensor-cores, the SIMD-group matrix products (N_SIMD) whose two operands can hold only half
   values, proven over the kernel and its helpers (half matrices, and float ones filled from half: MLX's steel tiles),
   into L->tc_products */
void halfexact_analyze(Program *prog, Lowered *L); /* halfcopy.c: copies per caller where they help, then the proof */
void halfexact_prove(Program *prog, Lowered *L);   /* the proof itself, into L->tc_products */
bool halfexact_is_product(const Node *n);         /* simdgroup_multiply(_accumulate) */
bool halfexact_product(const Lowered *L, const Node *n);
void halfexact_restore(Lowered *L); /* the calls of this kernel's copies call their originals again (after printing) */
/* Whether simd_table[INDEX] exchanges values between lanes (a barrier or workgroup exchange where SIMD-groups
   are emulated): every SIMD-group and quad-group function but the matrices' lane-local ones. */
bool simd_exchanges(int index);

/* ---- atomics.c ---- */
/* Checks an N_ATOMIC call and resolves its object to an lvalue (n->a; compare-exchange's expected: n->b). */
bool atomic_check(Program *prog, Lowered *L, Node *n);
const char *atomic_glsl(int index); /* n->builtin -> GLSL function */
Node *atomic_lvalue(Program *prog, Node *p); /* &x -> x, p -> p[0], p + i -> p[i]; NULL otherwise */
/* An N_ATOMIC's ival: memory order (0 relaxed, 1 acquire, 2 release, 3 acq_rel, 4 seq_cst), compare-exchange's
   failure order, the memory it orders, AT_BITS (atomic<float> through its uint view) and a fence's scope. */
enum { AT_ORDER = 7, AT_FAIL_SHIFT = 3, AT_DEVICE_MEM = 64, AT_SHARED_MEM = 128, AT_BITS = 256, AT_SCOPE_SHIFT = 10 };
enum { AT_SCOPE_THREAD = 0, AT_SCOPE_THREADGROUP = 1, AT_SCOPE_DEVICE = 2, AT_SCOPE_SIMDGROUP = 4 }; /* Metal's thread_scope */

/* ---- sync.c ---- */
/* For kernels with barriers or SIMD-group functions: decides the SIMD mode and whether control flow must be
   made uniform, and computes the NF_* flags and uniform locals that emit_glsl.c needs. Returns false on error. */
bool sync_analyze(Program *prog, Lowered *L);
/* Whether expression N has the same value in every thread of the threadgroup (after sync_analyze). */
bool sync_uniform(const Node *n);

/* ---- tgmem.c ---- */
/* What [[threadgroup(n)]] parameter V of kernel K is proven to need: only indexing every thread surely does. */
typedef struct TgNeed {
    Var *v;
    long long elements; /* at least 1; a constant index seen: the largest + 1 */
    int threads;        /* 1: indexed by thread_position_in_threadgroup.x, 2: by thread_index_in_threadgroup */
} TgNeed;
TgNeed tgmem_need(Func *k, Var *v);
/* The default length of V's shared array (the runtime sets the real one): more than every constant index of it in
   K's body, which glslang checks against the default. */
int tgmem_default_length(Func *k, Var *v);

/* ---- simd.c ---- */
/* Records that Metal function simd_table[INDEX] is called with value type T (GLSL name; NULL if none). */
void simd_need(Program *prog, Lowered *L, int index, const char *T, TypeKind k, int n_args);
/* The shared scratch and functions for every recorded need (malloc'd, NULL if none). NEED_LANE: the
   thread_index_in_simdgroup / simdgroup_index_in_threadgroup functions even without SIMD functions. */
char *simd_helpers(Program *prog, Lowered *L, bool need_lane);

/* ---- emit_glsl.c ---- */
char *emit_glsl(Program *prog, Lowered *L); /* malloc'd */

/* ---- reflect.c ---- */
char *reflect_json(Program *prog, Lowered *L); /* malloc'd */

/* ---- spirv.c ---- */
/* GLSL to SPIR-V with shaderc; returns malloc'd words or NULL with *err (malloc'd) set. */
unsigned *spirv_compile(const char *glsl, const char *name, size_t *n_bytes, char **err);
/* The same; with DEBUG unoptimized, keeping names and source (mtl2glsl --emit=spirv -g). */
unsigned *spirv_compile_debug(const char *glsl, const char *name, size_t *n_bytes, char **err, bool debug);
/* Whether GLSL compiles (glslang) to SPIR-V that the validator accepts under Vulkan 1.1, as the tests check every
   shader: NULL when it does, else the messages (malloc'd). *COMPILER: the compiler kept between calls (NULL at
   first), released by spirv_check_done. */
char *spirv_check(void **compiler, const char *glsl, const char *name);
void spirv_check_done(void **compiler);

/* ---- emit/bounds.c ---- */
/* --check-bounds: wrap every buffer and shared-array index of *GLSL (printed with line markers) in a check that
   records the first out-of-range access per array; *JSON gets "bounds_check". Both are replaced (malloc'd). */
bool bounds_instrument(Program *prog, char **glsl, char **json);

/* ---- templates.c: source text rewrites for kernel templates (see there) ---- */
/* Function constants are specialization constants numbered per kernel (lower.c): the k-th function constant
   the kernel reads, in the order of their Metal indices, has id FC_FIRST_ID + 2k and its "defined" flag
   FC_FIRST_ID + 2k + 1 (glslang takes ids below 2047: at most FC_MAX per kernel, any Metal index). */
#define FC_UNNUMBERED 1 /* Var.fc_id of a function constant before its kernel numbers it */
#define FC_FIRST_ID 100
#define FC_MAX 973
/* The first line of the rewritten text: what the rewrites use. */
#define TMPL_PROLOGUE "#define __mtltg __attribute__((annotate(\"mtl_threadgroup\")))\n"
char *tmpl_rewrite_instances(const char *text, size_t len, size_t *out_len); /* malloc'd */
char *tmpl_rewrite_function_params(const char *text, size_t len, size_t *out_len); /* malloc'd */
/* An insertion (and removal) in the text clang parses: parse.c applies them, moving what points into the text. */
typedef struct TextEdit {
    unsigned off, remove;
    const char *insert;
} TextEdit;
typedef struct TextEdits {
    TextEdit *items;
    int n, cap;
} TextEdits;
/* The uses of marked threadgroup arrays, wrapped as threadgroup pointers: `__mtl_tg(tile)`, `__mtl_tg(&tile[i])`. */
void tmpl_threadgroup_uses(const char *text, size_t len, TextEdits *edits);
void tmpl_blank_template_kernels(char *text, size_t len);

/* ---- depfile.c ---- */
/* Writes a Make-syntax depfile: "TARGETS: DEPS" (paths made absolute, spaces, '#' and '$' escaped for Make),
   plus an empty rule per dependency when PHONY (gcc -MP). False (message printed) if PATH can't be written. */
bool depfile_write(const char *path, const char *const *targets, int n_targets, const char *const *deps, int n_deps,
                   bool phony);

/* ---- emit_c.c ---- */
/* Writes C_PATH and H_PATH: each translated entry of R as embedded SPIR-V + reflection JSON and a typed launch
   function over the runtime (mtlrt.h), named PREFIX_ENTRY. SOURCE names the .metal file in comments.
   False (message printed) on a compile or write error. */
bool emit_c_files(const M2gResult *r, const char *source, const char *prefix, const char *c_path, const char *h_path);

/* ---- readfile.c: files read whole (m2g_limits.h) ---- */
/* PATH's text (NUL-terminated; *LEN its length): a regular file of at most LIMIT bytes. NULL with the reason in WHY
   ("is a directory", "is not a regular file", its size and the limit, or strerror). */
char *file_read(const char *path, long limit, size_t *len, char *why, size_t why_size);
/* The same checks without reading: true when PATH is a regular file of at most LIMIT bytes. */
bool file_check(const char *path, long limit, char *why, size_t why_size);

/* ---- names.c ---- */
const char *names_legal(Arena *a, const char *name); /* renames GLSL keywords, reserved forms, non-ASCII */
const char *names_legal_global(Arena *a, const char *name); /* ... and names of GLSL built-in functions */
/* Why NAME cannot name an entry point (it names files ENTRY.comp and C functions PREFIX_ENTRY): "is empty", "is not
   an identifier ...", its length; NULL when it can. */
const char *names_entry_problem(const char *name);

#endif
