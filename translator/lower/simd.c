/* simd.c: the GLSL behind Metal's SIMD-group and quad-group functions, for the SIMD mode of the shader.
 *
 * Metal's SIMD-group is 32 threads: lane = thread_index_in_threadgroup % 32. Three layers, printed on demand:
 *   device subgroup  mtl_sg_*     the subgroup operations of the device (GL_KHR_shader_subgroup_*), or, with
 *                                 virtual subgroups, the same operations over groups of W threads in shared memory;
 *   group            mtl_simd_* / mtl_quad_*   lane, value of another lane (get), ballot, reduce and scan
 *                                 over the 32-lane SIMD-group or 4-lane quad-group, built for the SIMD mode:
 *                                 native (W = 32), clustered (W = 64, 128: 32-lane clusters) or emulated
 *                                 (W = 4, 8, 16: SIMD-groups spanning 32 / W subgroups, joined in shared memory);
 *   Metal            simd_sum(x), quad_shuffle(x, l), ...   written once over the group layer.
 * With uniform control flow (emulated or virtual), every function takes `bool mtl_p`: whether the calling
 * thread is active at the call, and every thread of the threadgroup calls it (sync.c, emit_glsl.c).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct Simd {
    Program *prog;
    Lowered *L;
    StrBuf scratch; /* shared arrays */
    StrBuf text;    /* functions */
    PtrVec done;    /* names of what is printed */
    int W;          /* device subgroup size the shader is built for */
    bool virt;      /* virtual subgroups */
    bool uni;       /* uniform control flow: functions take mtl_p */
} Simd;

/* ---- small helpers ---- */

static bool once(Simd *S, const char *key)
{
    for (int i = 0; i < S->done.len; i++)
        if (!strcmp(S->done.items[i], key))
            return false;
    pv_push(&S->done, arena_strdup(S->prog->arena, key));
    return true;
}

/* Appends TEXT to OUT with $T (type), $I (identity), $O (combine a, b), $W (subgroup size), $P (", bool mtl_p" when
   the flow is uniform), $p (the predicate argument: "mtl_p" or "true"), $A (", mtl_p" or ""), $N (type tag). */
typedef struct Subst {
    const char *T, *I, *O, *N, *F;
} Subst;

static void put_subst(Simd *S, StrBuf *out, const char *text, const Subst *s)
{
    char w[16];
    snprintf(w, sizeof w, "%uu", (unsigned)S->W);
    for (const char *p = text; *p; p++) {
        if (*p != '$') {
            char c[2] = {*p, 0};
            sb_puts(out, c);
            continue;
        }
        switch (*++p) {
        case 'T': sb_puts(out, s->T); break;
        case 'I': sb_puts(out, s->I ? s->I : "?"); break;
        case 'O': sb_puts(out, s->O ? s->O : "?"); break;
        case 'F': sb_puts(out, s->F ? s->F : "?"); break;
        case 'N': sb_puts(out, s->N); break;
        case 'W': sb_puts(out, w); break;
        case 'P': sb_puts(out, S->uni ? ", bool mtl_p" : ""); break;
        case 'p': sb_puts(out, S->uni ? "mtl_p" : "true"); break;
        case 'A': sb_puts(out, S->uni ? ", mtl_p" : ""); break;
        case 'Q': sb_puts(out, S->uni ? "bool mtl_p" : ""); break;
        default: sb_puts(out, "$"); break;
        }
    }
}

/* A tag usable in identifiers: vec4 -> vec4, float16_t -> float16, f16vec2 -> f16vec2. */
static const char *type_tag(Simd *S, const char *T)
{
    char *t = arena_strdup(S->prog->arena, T);
    char *u = strstr(t, "_t");
    if (u && !u[2])
        *u = 0;
    return t;
}

/* Identity of OP for type T with scalar kind K, as a GLSL expression of type T. */
static const char *identity(Simd *S, SimdOp op, const char *T, TypeKind k)
{
    bool f = k == TY_FLOAT || k == TY_HALF || k == TY_DOUBLE;
    bool sgn = k == TY_INT || k == TY_SHORT || k == TY_CHAR || k == TY_LONG;
    const char *v;
    switch (op) {
    case SOP_SUM:
    case SOP_ISUM:
    case SOP_XSUM:
    case SOP_OR:
    case SOP_XOR: v = "0"; break;
    case SOP_PRODUCT:
    case SOP_IPRODUCT:
    case SOP_XPRODUCT: v = "1"; break;
    case SOP_MIN: v = f ? "uintBitsToFloat(0x7f800000u)" : sgn ? "0x7fffffff" : "0xffffffffu"; break;
    case SOP_MAX: v = f ? "uintBitsToFloat(0xff800000u)" : sgn ? "int(0x80000000u)" : "0u"; break;
    case SOP_AND: v = sgn ? "-1" : "0xffffffffu"; break;
    default: v = "0"; break;
    }
    if (k == TY_LONG && op == SOP_MIN)
        v = "0x7fffffffffffffffl";
    if (k == TY_LONG && op == SOP_MAX)
        v = "(-0x7fffffffffffffffl - 1l)";
    if (k == TY_ULONG && (op == SOP_MIN || op == SOP_AND))
        v = "0xfffffffffffffffful";
    return arena_printf(S->prog->arena, "%s(%s)", T, v);
}

static const char *combine(SimdOp op)
{
    switch (op) {
    case SOP_SUM: case SOP_ISUM: case SOP_XSUM: return "(a + b)";
    case SOP_PRODUCT: case SOP_IPRODUCT: case SOP_XPRODUCT: return "(a * b)";
    case SOP_MIN: return "min(a, b)";
    case SOP_MAX: return "max(a, b)";
    case SOP_AND: return "(a & b)";
    case SOP_OR: return "(a | b)";
    case SOP_XOR: return "(a ^ b)";
    default: return "?";
    }
}

/* GL_KHR_shader_subgroup_arithmetic name stem: Add, Mul, Min, ... */
static const char *khr_stem(SimdOp op)
{
    switch (op) {
    case SOP_SUM: case SOP_ISUM: case SOP_XSUM: return "Add";
    case SOP_PRODUCT: case SOP_IPRODUCT: case SOP_XPRODUCT: return "Mul";
    case SOP_MIN: return "Min";
    case SOP_MAX: return "Max";
    case SOP_AND: return "And";
    case SOP_OR: return "Or";
    case SOP_XOR: return "Xor";
    default: return "?";
    }
}

/* The reduction an op is built from: prefix sums reduce with SUM, prefix products with PRODUCT. */
static SimdOp reduce_of(SimdOp op)
{
    switch (op) {
    case SOP_ISUM: case SOP_XSUM: return SOP_SUM;
    case SOP_IPRODUCT: case SOP_XPRODUCT: return SOP_PRODUCT;
    default: return op;
    }
}

static const char *op_tag(SimdOp op)
{
    switch (reduce_of(op)) {
    case SOP_SUM: return "sum";
    case SOP_PRODUCT: return "product";
    case SOP_MIN: return "min";
    case SOP_MAX: return "max";
    case SOP_AND: return "and";
    case SOP_OR: return "or";
    case SOP_XOR: return "xor";
    default: return "?";
    }
}

/* ---- shared scratch ---- */

static void need_common(Simd *S)
{
    if (!once(S, "common"))
        return;
    sb_printf(&S->scratch, "const uint mtl_subgroup_slots = (mtl_threadgroup_total + %du - 1u) / %du;\n", S->W, S->W);
}

static void need_xchg(Simd *S, const char *T)
{
    need_common(S);
    const char *N = type_tag(S, T);
    if (!once(S, arena_printf(S->prog->arena, "xchg %s", T)))
        return;
    sb_printf(&S->scratch, "shared %s mtl_xchg_%s[mtl_threadgroup_total];\n", T, N);
}

static void need_part(Simd *S, const char *T)
{
    need_common(S);
    const char *N = type_tag(S, T);
    if (!once(S, arena_printf(S->prog->arena, "part %s", T)))
        return;
    sb_printf(&S->scratch, "shared %s mtl_part_%s[mtl_subgroup_slots];\n", T, N);
}

/* ---- device subgroup layer: mtl_sg_* ---- */

static void sg_ids(Simd *S)
{
    if (!once(S, "sg_ids"))
        return;
    if (S->virt)
        sb_printf(&S->text, "// Virtual subgroups of %d threads (mtl2glsl --virtual-subgroups): lane and subgroup from the local index.\n"
                            "uint mtl_sg_lane() { return gl_LocalInvocationIndex %% %du; }\nuint mtl_sg_id() { return gl_LocalInvocationIndex / %du; }\n\n",
                  S->W, S->W, S->W);
    else
        sb_puts(&S->text, "uint mtl_sg_lane() { return gl_SubgroupInvocationID; }\nuint mtl_sg_id() { return gl_SubgroupID; }\n\n");
}

/* Virtual: one value per thread through shared memory; the group of G threads around this one. */
static const char *virt_group(int G)
{
    static char buf[256];
    snprintf(buf, sizeof buf,
             "    uint base = gl_LocalInvocationIndex - gl_LocalInvocationIndex %% %du;\n"
             "    uint n = min(%du, mtl_threadgroup_total - base);\n", G, G);
    return buf;
}

/* T mtl_sg_shuffle(T x, uint id): x of lane ID of this subgroup. */
static void sg_shuffle(Simd *S, const char *T)
{
    if (!once(S, arena_printf(S->prog->arena, "sg_shuffle %s", T)))
        return;
    Subst s = {.T = T, .N = type_tag(S, T)};
    if (!S->virt) {
        put_subst(S, &S->text, "$T mtl_sg_shuffle($T x, uint id) { return subgroupShuffle(x, id); }\n\n", &s);
        return;
    }
    need_xchg(S, T);
    put_subst(S, &S->text, "$T mtl_sg_shuffle($T x, uint id)\n{\n    barrier();\n    mtl_xchg_$N[gl_LocalInvocationIndex] = x;\n    barrier();\n", &s);
    sb_puts(&S->text, virt_group(S->W));
    put_subst(S, &S->text, "    return id < n ? mtl_xchg_$N[base + id] : x;\n}\n\n", &s);
}

/* uvec4 mtl_sg_ballot(bool c): bit per lane of this subgroup where c holds (the caller folds in mtl_p). */
static void sg_ballot(Simd *S)
{
    if (!once(S, "sg_ballot"))
        return;
    if (!S->virt) {
        sb_puts(&S->text, "uvec4 mtl_sg_ballot(bool c) { return subgroupBallot(c); }\n\n");
        return;
    }
    need_xchg(S, "uint"); /* ballots use the uint exchange array of the other functions (each starts with a barrier) */
    sb_puts(&S->text, "uvec4 mtl_sg_ballot(bool c)\n{\n    barrier();\n    mtl_xchg_uint[gl_LocalInvocationIndex] = c ? 1u : 0u;\n    barrier();\n");
    sb_puts(&S->text, virt_group(S->W));
    sb_puts(&S->text, "    uvec4 r = uvec4(0u);\n    for (uint k = 0u; k < n; k++)\n        r[k >> 5u] |= mtl_xchg_uint[base + k] << (k & 31u);\n    return r;\n}\n\n");
}

/* T mtl_sg_<kind>_<op>(T x, bool p): reduce / creduce (32-lane clusters) / iscan / xscan over the subgroup's
   lanes where p holds. */
static void sg_arith(Simd *S, const char *kind, SimdOp op, const char *T, TypeKind k)
{
    const char *name = arena_printf(S->prog->arena, "mtl_sg_%s_%s", kind, op_tag(op));
    if (!once(S, arena_printf(S->prog->arena, "%s %s", name, T)))
        return;
    Subst s = {.T = T, .I = identity(S, reduce_of(op), T, k), .O = combine(reduce_of(op)), .N = type_tag(S, T)};
    sb_printf(&S->text, "%s %s(%s x, bool p)\n{\n", T, name, T);
    if (!S->virt) {
        const char *stem = khr_stem(op);
        if (!strcmp(kind, "reduce"))
            put_subst(S, &S->text, arena_printf(S->prog->arena, "    return subgroup%s(p ? x : $I);\n}\n\n", stem), &s);
        else if (!strcmp(kind, "creduce"))
            put_subst(S, &S->text, arena_printf(S->prog->arena, "    return subgroupClustered%s(p ? x : $I, 32u);\n}\n\n", stem), &s);
        else if (!strcmp(kind, "iscan"))
            put_subst(S, &S->text, arena_printf(S->prog->arena, "    return subgroupInclusive%s(p ? x : $I);\n}\n\n", stem), &s);
        else
            put_subst(S, &S->text, arena_printf(S->prog->arena, "    return subgroupExclusive%s(p ? x : $I);\n}\n\n", stem), &s);
        return;
    }
    need_xchg(S, T);
    put_subst(S, &S->text, "    barrier();\n    mtl_xchg_$N[gl_LocalInvocationIndex] = p ? x : $I;\n    barrier();\n", &s);
    sb_puts(&S->text, virt_group(!strcmp(kind, "creduce") ? 32 : S->W));
    const char *limit = !strcmp(kind, "iscan") ? "k <= gl_LocalInvocationIndex - base" : !strcmp(kind, "xscan") ? "k < gl_LocalInvocationIndex - base" : "k < n";
    put_subst(S, &S->text, "    $T a = $I;\n", &s);
    sb_printf(&S->text, "    for (uint k = 0u; %s; k++)\n    {\n", limit);
    put_subst(S, &S->text, "        $T b = mtl_xchg_$N[base + k];\n        a = $O;\n    }\n    return a;\n}\n\n", &s);
}

/* ---- group layer: mtl_simd_* and mtl_quad_* ---- */

/* Lanes renamed (--tensor-cores, --mma-lanes; docs/translator.md, "Tensor cores"): in a whole SIMD-group, Metal's
   lane l runs on subgroup lane mtl_lane_at(l), a permutation of the five lane bits chosen so that the lane holding
   element (r, c..c+1) of an 8x8 matrix in Apple's layout is subgroup lane 4r + c / 2, the lane that holds it in the
   tensor cores' fragments (NVIDIA's mma m16n8k8: lane 4g + t holds row g, columns 2t and 2t + 1). Apple's lane has
   bits (r2, c2, r1, r0, c1) of (row, column), the tensor cores' (r2, r1, r0, c2, c1). Every function that depends on
   lane numbers (lane ids, thread indices, shuffles, ballots, scans, quad-groups) goes through the two maps; sums,
   minima and the like do not depend on them. A SIMD-group cut short by the threadgroup's end keeps its lanes. */
static void mma_lanes(Simd *S)
{
    if (!once(S, "mma_lanes"))
        return;
    sb_puts(&S->text,
            "// Lanes renamed to the tensor cores' layout (docs/translator.md, \"Tensor cores\"): Metal's lane l is subgroup lane\n"
            "// mtl_lane_at(l) in a whole SIMD-group, so that a SIMD-group matrix's elements lie where the tensor cores hold them.\n"
            "bool mtl_lanes_renamed() { return (mtl_threadgroup_total & 31u) == 0u || (gl_LocalInvocationIndex | 31u) < mtl_threadgroup_total; }\n"
            "uint mtl_lane_of(uint p) { return mtl_lanes_renamed() ? (p & 17u) | ((p & 2u) << 2u) | ((p & 12u) >> 1u) : p; }\n"
            "uint mtl_lane_at(uint l) { return mtl_lanes_renamed() ? (l & 17u) | ((l & 6u) << 1u) | ((l & 8u) >> 2u) : l; }\n\n");
}

static void simd_lane(Simd *S)
{
    if (!once(S, "simd_lane"))
        return;
    switch (S->L->simd_mode) {
    case SIMD_NATIVE:
        sg_ids(S);
        if (S->L->mma_lanes) {
            mma_lanes(S);
            sb_puts(&S->text, "uint mtl_thread_index_in_simdgroup() { return mtl_lane_of(mtl_sg_lane()); }\n"
                              "uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id(); }\n\n");
            sb_puts(&S->text, "// Thread indices follow the renamed lanes: SIMD-group s is threads 32s to 32s + 31 as in Metal.\n"
                              "uint mtl_local_index() { return (gl_LocalInvocationIndex & ~31u) | mtl_thread_index_in_simdgroup(); }\n"
                              "uvec3 mtl_local_id()\n{\n    uint i = mtl_local_index();\n"
                              "    return uvec3(i % gl_WorkGroupSize.x, (i / gl_WorkGroupSize.x) % gl_WorkGroupSize.y, i / (gl_WorkGroupSize.x * gl_WorkGroupSize.y));\n}\n\n");
            break;
        }
        sb_puts(&S->text, "uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane(); }\n"
                          "uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id(); }\n\n");
        break;
    case SIMD_CLUSTERED:
        sg_ids(S);
        sb_printf(&S->text, "// %d-wide subgroups hold %d SIMD-groups of 32 lanes each.\n"
                            "uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane() & 31u; }\n"
                            "uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id() * %du + (mtl_sg_lane() >> 5u); }\n\n",
                  S->W, S->W / 32, S->W / 32);
        break;
    case SIMD_EMULATED:
        sb_puts(&S->text, "// SIMD-groups of 32 threads by local index, as Metal numbers them.\n"
                          "uint mtl_thread_index_in_simdgroup() { return gl_LocalInvocationIndex & 31u; }\n"
                          "uint mtl_simdgroup_index_in_threadgroup() { return gl_LocalInvocationIndex >> 5u; }\n\n");
        break;
    }
}

/* T mtl_simd_get(T x, uint lane, bool p): x of LANE of this SIMD-group (own x where that lane does not exist). */
static void simd_get(Simd *S, const char *T)
{
    if (!once(S, arena_printf(S->prog->arena, "simd_get %s", T)))
        return;
    simd_lane(S);
    Subst s = {.T = T, .N = type_tag(S, T)};
    switch (S->L->simd_mode) {
    case SIMD_NATIVE:
        sg_shuffle(S, T);
        put_subst(S, &S->text, S->L->mma_lanes ? "$T mtl_simd_get($T x, uint lane, bool p) { return mtl_sg_shuffle(x, mtl_lane_at(lane)); }\n\n"
                                               : "$T mtl_simd_get($T x, uint lane, bool p) { return mtl_sg_shuffle(x, lane); }\n\n", &s);
        break;
    case SIMD_CLUSTERED:
        sg_shuffle(S, T);
        put_subst(S, &S->text, "$T mtl_simd_get($T x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~31u) + lane); }\n\n", &s);
        break;
    case SIMD_EMULATED:
        need_xchg(S, T);
        put_subst(S, &S->text,
                  "$T mtl_simd_get($T x, uint lane, bool p)\n{\n    barrier();\n    mtl_xchg_$N[gl_LocalInvocationIndex] = x;\n    barrier();\n"
                  "    uint src = (gl_LocalInvocationIndex & ~31u) + lane;\n    return src < mtl_threadgroup_total ? mtl_xchg_$N[src] : x;\n}\n\n",
                  &s);
        break;
    }
}

/* uint mtl_simd_ballot(bool c, bool p): bit per lane of this SIMD-group that is active and where c holds. */
static void simd_ballot(Simd *S)
{
    if (!once(S, "simd_ballot"))
        return;
    simd_lane(S);
    sg_ballot(S);
    switch (S->L->simd_mode) {
    case SIMD_NATIVE:
        if (S->L->mma_lanes) {
            sb_puts(&S->text, "// bit l for Metal's lane l\n"
                              "uint mtl_simd_ballot(bool c, bool p)\n{\n    uint b = mtl_sg_ballot(p && c).x, r = 0u;\n"
                              "    for (; b != 0u; b &= b - 1u)\n        r |= 1u << mtl_lane_of(uint(findLSB(b)));\n    return r;\n}\n\n");
            break;
        }
        sb_puts(&S->text, "uint mtl_simd_ballot(bool c, bool p) { return mtl_sg_ballot(p && c).x; }\n\n");
        break;
    case SIMD_CLUSTERED:
        sb_puts(&S->text, "uint mtl_simd_ballot(bool c, bool p) { return mtl_sg_ballot(p && c)[mtl_sg_lane() >> 5u]; }\n\n");
        break;
    case SIMD_EMULATED:
        sg_ids(S);
        need_part(S, "uint");
        sb_printf(&S->text,
                  "uint mtl_simd_ballot(bool c, bool p)\n{\n    uint word = mtl_sg_ballot(p && c).x;\n    barrier();\n"
                  "    if (mtl_sg_lane() == 0u)\n        mtl_part_uint[mtl_sg_id()] = word;\n    barrier();\n"
                  "    uint first = (gl_LocalInvocationIndex & ~31u) / %du, mask = 0u;\n"
                  "    for (uint j = 0u; j < %du && first + j < mtl_subgroup_slots; j++)\n        mask |= mtl_part_uint[first + j] << (j * %du);\n"
                  "    return mask;\n}\n\n",
                  S->W, 32 / S->W, S->W);
        break;
    }
}

/* T mtl_simd_reduce_<op>(T x, bool p) and mtl_simd_iscan_/xscan_<op>: over the active lanes of this SIMD-group. */
static void simd_arith(Simd *S, const char *kind, SimdOp op, const char *T, TypeKind k)
{
    const char *name = arena_printf(S->prog->arena, "mtl_simd_%s_%s", kind, op_tag(op));
    if (!once(S, arena_printf(S->prog->arena, "%s %s", name, T)))
        return;
    simd_lane(S);
    Subst s = {.T = T, .I = identity(S, reduce_of(op), T, k), .O = combine(reduce_of(op)), .N = type_tag(S, T)};
    bool reduce = !strcmp(kind, "reduce");
    switch (S->L->simd_mode) {
    case SIMD_NATIVE:
        if (S->L->mma_lanes && !reduce && S->virt) {
            /* the device's scans follow its lane order: in Metal's, lane by lane; virtual subgroups (tests) read the
               lanes from one exchange (32 of mtl_simd_get's would be 64 barriers, which llvmpipe takes minutes to
               compile) */
            need_xchg(S, T);
            sb_printf(&S->text, "%s %s(%s x, bool p)\n{\n", T, name, T);
            put_subst(S, &S->text, "    barrier();\n    mtl_xchg_$N[gl_LocalInvocationIndex] = p ? x : $I;\n    barrier();\n"
                                   "    uint base = gl_LocalInvocationIndex & ~31u, lane = mtl_thread_index_in_simdgroup();\n"
                                   "    $T a = $I;\n", &s);
            sb_printf(&S->text, "    for (uint k = 0u; %s; k++)\n    {\n", !strcmp(kind, "iscan") ? "k <= lane" : "k < lane");
            put_subst(S, &S->text, "        $T b = mtl_xchg_$N[base + mtl_lane_at(k)];\n        a = $O;\n    }\n    return a;\n}\n\n", &s);
            return;
        }
        if (S->L->mma_lanes && !reduce) {
            /* the device's scans follow its lane order: in Metal's, lane by lane */
            simd_get(S, T);
            simd_ballot(S);
            sb_printf(&S->text, "%s %s(%s x, bool p)\n{\n", T, name, T);
            put_subst(S, &S->text, "    uint act = mtl_simd_ballot(true, p), lane = mtl_thread_index_in_simdgroup();\n    $T a = $I;\n"
                                   "    for (uint k = 0u; k < 32u; k++)\n    {\n        $T b = mtl_simd_get(x, k, p);\n", &s);
            sb_printf(&S->text, "        if (((act >> k) & 1u) != 0u && %s)\n", !strcmp(kind, "iscan") ? "k <= lane" : "k < lane");
            put_subst(S, &S->text, "            a = $O;\n    }\n    return a;\n}\n\n", &s);
            return;
        }
        sg_arith(S, kind, op, T, k);
        sb_printf(&S->text, "%s %s(%s x, bool p) { return mtl_sg_%s_%s(x, p); }\n\n", T, name, T, kind, op_tag(op));
        return;
    case SIMD_CLUSTERED:
        if (reduce) {
            sg_arith(S, "creduce", op, T, k);
            sb_printf(&S->text, "%s %s(%s x, bool p) { return mtl_sg_creduce_%s(x, p); }\n\n", T, name, T, op_tag(op));
            return;
        }
        /* a scan per cluster, each with the other clusters' lanes contributing the identity */
        sg_arith(S, kind, op, T, k);
        sb_printf(&S->text, "%s %s(%s x, bool p)\n{\n", T, name, T);
        put_subst(S, &S->text, "    uint cluster = mtl_sg_lane() >> 5u;\n    $T r = $I;\n", &s);
        sb_printf(&S->text, "    for (uint c = 0u; c < %du; c++)\n    {\n        %s s = mtl_sg_%s_%s(x, p && c == cluster);\n"
                            "        if (c == cluster)\n            r = s;\n    }\n    return r;\n}\n\n",
                  S->W / 32, T, kind, op_tag(op));
        return;
    case SIMD_EMULATED:
        break;
    }
    /* emulated: the subgroup's part, then the parts of the subgroups before it in this SIMD-group */
    sg_ids(S);
    sg_arith(S, "reduce", op, T, k);
    if (!reduce)
        sg_arith(S, kind, op, T, k);
    need_part(S, T);
    sb_printf(&S->text, "%s %s(%s x, bool p)\n{\n", T, name, T);
    put_subst(S, &S->text, "    $T part = mtl_sg_reduce_", &s);
    sb_printf(&S->text, "%s(x, p);\n", op_tag(op));
    if (!reduce)
        sb_printf(&S->text, "    %s own = mtl_sg_%s_%s(x, p);\n", T, kind, op_tag(op));
    put_subst(S, &S->text, "    barrier();\n    if (mtl_sg_lane() == 0u)\n        mtl_part_$N[mtl_sg_id()] = part;\n    barrier();\n", &s);
    sb_printf(&S->text, "    uint first = (gl_LocalInvocationIndex & ~31u) / %du;\n", S->W);
    if (reduce)
        sb_printf(&S->text, "    uint count = min(%du, mtl_subgroup_slots - first);\n", 32 / S->W);
    else
        sb_puts(&S->text, "    uint count = mtl_sg_id() - first;\n");
    put_subst(S, &S->text, "    $T a = $I;\n    for (uint j = 0u; j < count; j++)\n    {\n        $T b = mtl_part_$N[first + j];\n        a = $O;\n    }\n", &s);
    if (reduce)
        sb_puts(&S->text, "    return a;\n}\n\n");
    else
        put_subst(S, &S->text, "    $T b = own;\n    return $O;\n}\n\n", &s);
}

/* Quad-groups: 4 lanes inside one device subgroup (W >= 4), in every mode. */
static void quad_get(Simd *S, const char *T)
{
    if (!once(S, arena_printf(S->prog->arena, "quad_get %s", T)))
        return;
    sg_ids(S);
    sg_shuffle(S, T);
    Subst s = {.T = T};
    if (S->L->mma_lanes) {
        simd_lane(S);
        put_subst(S, &S->text, "$T mtl_quad_get($T x, uint lane, bool p) { return mtl_sg_shuffle(x, mtl_lane_at((mtl_thread_index_in_simdgroup() & ~3u) + (lane & 3u))); }\n\n", &s);
        return;
    }
    put_subst(S, &S->text, "$T mtl_quad_get($T x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }\n\n", &s);
}

static void quad_ballot(Simd *S)
{
    if (!once(S, "quad_ballot"))
        return;
    sg_ids(S);
    if (S->L->mma_lanes) {
        simd_ballot(S);
        sb_puts(&S->text, "uint mtl_quad_ballot(bool c, bool p) { return (mtl_simd_ballot(c, p) >> (mtl_thread_index_in_simdgroup() & 28u)) & 15u; }\n\n");
        return;
    }
    sg_ballot(S);
    sb_puts(&S->text, "uint mtl_quad_ballot(bool c, bool p)\n{\n    uvec4 b = mtl_sg_ballot(p && c);\n    uint l = mtl_sg_lane() & ~3u;\n"
                      "    return (b[l >> 5u] >> (l & 31u)) & 15u;\n}\n\n");
}

static void quad_arith(Simd *S, const char *kind, SimdOp op, const char *T, TypeKind k)
{
    const char *name = arena_printf(S->prog->arena, "mtl_quad_%s_%s", kind, op_tag(op));
    if (!once(S, arena_printf(S->prog->arena, "%s %s", name, T)))
        return;
    quad_get(S, T);
    quad_ballot(S);
    Subst s = {.T = T, .I = identity(S, reduce_of(op), T, k), .O = combine(reduce_of(op))};
    const char *limit = !strcmp(kind, "iscan") ? "k <= lane" : !strcmp(kind, "xscan") ? "k < lane" : "k < 4u";
    sb_printf(&S->text, "%s %s(%s x, bool p)\n{\n", T, name, T);
    sb_printf(&S->text, "    uint act = mtl_quad_ballot(true, p), lane = %s & 3u;\n",
              S->L->mma_lanes ? "mtl_thread_index_in_simdgroup()" : "gl_LocalInvocationIndex");
    put_subst(S, &S->text, "    $T a = $I;\n"
                           "    for (uint k = 0u; k < 4u; k++)\n    {\n        $T b = mtl_quad_get(x, k, p);\n", &s);
    sb_printf(&S->text, "        if (((act >> k) & 1u) != 0u && %s)\n", limit);
    put_subst(S, &S->text, "            a = $O;\n    }\n    return a;\n}\n\n", &s);
}

/* ---- SIMD-group matrices (sgmat.c) ---- */

static void metal_function(Simd *S, int index, const char *T, TypeKind k, int n_args);

bool simd_exchanges(int index)
{
    return simd_table[index].op != SOP_MAT_INDEX && simd_table[index].op != SOP_MAT_DIAGONAL;
}

/* uvec2 mtl_simdgroup_matrix_coord(uint lane): (column, row) of the first of the lane's two elements, Apple's
   layout; uint mtl_simdgroup_matrix_lane(uint row, uint column): the lane holding it (column even). */
static void matrix_layout(Simd *S)
{
    if (!once(S, "matrix_layout"))
        return;
    simd_lane(S);
    sb_puts(&S->text,
            "// SIMD-group matrices (8x8) as Apple lays them out: lane l holds row (l / 16) * 4 + (l / 2) % 4, columns c and\n"
            "// c + 1 with c = ((l / 8) % 2) * 4 + (l % 2) * 2; this lane's two elements are a vec2 (thread_elements()).\n"
            "uvec2 mtl_simdgroup_matrix_coord(uint l) { return uvec2(((l >> 3u) & 1u) * 4u + (l & 1u) * 2u, (l >> 4u) * 4u + ((l >> 1u) & 3u)); }\n"
            "uint mtl_simdgroup_matrix_lane(uint row, uint column) { return ((row >> 2u) << 4u) | (((column >> 2u) & 1u) << 3u) | ((row & 3u) << 1u) | ((column >> 1u) & 1u); }\n\n");
}

/* --tensor-cores (docs/translator.md, "Tensor cores"): mtl_tensor_core_mma(a, b, c), one 16x8x8 product of the
   tensor cores whose rows 0-7 are the 8x8 matrices' (8-15 zero). With the lanes renamed, lane 4r + c/2 holds row r,
   columns c and c + 1 of each matrix, which is the order of the cooperative matrices' elements m[i] that mtlrun
   checks on the device before it translates for this (runtime/probe.c). */
static void tensor_core_mma(Simd *S)
{
    if (!once(S, "tensor_core_mma"))
        return;
    sb_puts(&S->text,
            "// d = a * b + c on the tensor cores (GL_NV_cooperative_matrix, M x N x K = 16 x 8 x 8, half a and b, float c\n"
            "// and d), by a whole SIMD-group. The tensor cores' a and c are 16 rows, ours their rows 0-7 (8-15 zero). With the\n"
            "// lanes renamed, lane 4r + c/2 holds row r, columns c and c + 1 of every matrix, the order of the cooperative\n"
            "// matrices' elements (mtlrun checks it on the device first).\n"
            "vec2 mtl_tensor_core_mma(f16vec2 a, f16vec2 b, vec2 c)\n{\n"
            "    fcoopmatNV<16, gl_ScopeSubgroup, 16, 8> ta = fcoopmatNV<16, gl_ScopeSubgroup, 16, 8>(float16_t(0.0));\n"
            "    ta[0] = a.x;\n    ta[1] = a.y;\n"
            "    fcoopmatNV<16, gl_ScopeSubgroup, 8, 8> tb = fcoopmatNV<16, gl_ScopeSubgroup, 8, 8>(float16_t(0.0));\n"
            "    tb[0] = b.x;\n    tb[1] = b.y;\n"
            "    fcoopmatNV<32, gl_ScopeSubgroup, 16, 8> tc = fcoopmatNV<32, gl_ScopeSubgroup, 16, 8>(0.0);\n"
            "    tc[0] = c.x;\n    tc[1] = c.y;\n"
            "    tc = coopMatMulAddNV(ta, tb, tc);\n"
            "    return vec2(tc[0], tc[1]);\n}\n\n");
}

/* The function of a group M row: the element index of loads and stores, the diagonal, the products. With T
   "f16vec2" (half operands under --tensor-cores, emit_glsl.c), the products' _half forms, which need no test of
   exactness. */
static void matrix_function(Simd *S, const SimdInfo *si, const char *T)
{
    matrix_layout(S);
    StrBuf *o = &S->text;
    Subst s = {.T = "vec2"};
    if (T && !strcmp(T, "f16vec2") && S->L->tensor_cores &&
        (si->op == SOP_MAT_MULTIPLY || si->op == SOP_MAT_MULTIPLY_ACCUMULATE)) {
        metal_function(S, simd_lookup("simdgroup_multiply_accumulate"), "vec2", TY_FLOAT, 3);
        if (si->op == SOP_MAT_MULTIPLY) {
            metal_function(S, simd_lookup("simdgroup_multiply_accumulate"), "f16vec2", TY_HALF, 3);
            sb_puts(o, "vec2 simdgroup_multiply_half(f16vec2 a, f16vec2 b) { return simdgroup_multiply_accumulate_half(a, b, vec2(0.0)); }\n\n");
            return;
        }
        /* no ballot: Metal's SIMD-group matrix functions are called by the whole SIMD-group. With threadgroups of
           whole SIMD-groups the test is a constant after specialization and the FP32 form below is dropped, which
           halves bench/gemm.metal's time on the H100 (docs/performance.md) */
        tensor_core_mma(S);
        sb_puts(o, "// d = a * b + c for half a and b: on the tensor cores in a whole SIMD-group\n"
                   "vec2 simdgroup_multiply_accumulate_half(f16vec2 a, f16vec2 b, vec2 c)\n{\n"
                   "    if (mtl_lanes_renamed())\n"
                   "        return mtl_tensor_core_mma(a, b, c);\n"
                   "    return simdgroup_multiply_accumulate(vec2(a), vec2(b), c);\n}\n\n");
        return;
    }
    switch (si->op) {
    case SOP_MAT_INDEX:
        sb_puts(o, "// Where this lane's element k of a matrix at origin (column, row) lies, its rows elements_per_row apart\n"
                   "// (transposed: its columns).\n"
                   "uint mtl_simdgroup_matrix_index(uint elements_per_row, uvec2 origin, bool transpose_matrix, uint k)\n{\n"
                   "    uvec2 at = origin + mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup()) + uvec2(k, 0u);\n"
                   "    return transpose_matrix ? at.x * elements_per_row + at.y : at.y * elements_per_row + at.x;\n}\n\n");
        return;
    case SOP_MAT_DIAGONAL:
        sb_puts(o, "vec2 mtl_simdgroup_matrix_diagonal(float v)\n{\n    uvec2 at = mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup());\n"
                   "    return vec2(at.x == at.y ? v : 0.0, at.x + 1u == at.y ? v : 0.0);\n}\n\n");
        return;
    case SOP_MAT_MULTIPLY:
        metal_function(S, simd_lookup("simdgroup_multiply_accumulate"), "vec2", TY_FLOAT, 3);
        put_subst(S, o, "vec2 simdgroup_multiply(vec2 a, vec2 b$P) { return simdgroup_multiply_accumulate(a, b, vec2(0.0)$A); }\n\n", &s);
        return;
    default:
        break;
    }
    /* d(r, c..c+1) = c(r, c..c+1) + the sum over k of a(r, k) * b(k, c..c+1): row r of a from the 4 lanes holding it,
       columns c, c+1 of b from 8 lanes */
    if (S->L->simd_mode != SIMD_EMULATED)
        simd_get(S, "vec2");
    else
        need_xchg(S, "vec4");
    /* float and bfloat operands stay on the FP32 units under --tensor-cores too: a test of their exactness in half
       beside this form, per product, made MLX's steel GEMM on the H100 4.3 times slower than this form alone
       (docs/performance.md) */
    put_subst(S, o, "// d = a * b + c, in float: row r of a from the 4 lanes that hold it, columns c and c + 1 of b from 8 lanes\n"
                    "vec2 simdgroup_multiply_accumulate(vec2 a, vec2 b, vec2 c$P)\n{\n", &s);
    if (S->L->simd_mode != SIMD_EMULATED) {
        put_subst(S, o,
                  "    uvec2 at = mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup());\n    vec2 d = c;\n"
                  "    for (uint k = 0u; k < 8u; k += 2u)\n    {\n"
                  "        vec2 ak = mtl_simd_get(a, mtl_simdgroup_matrix_lane(at.y, k), $p);\n"
                  "        d = fma(vec2(ak.x), mtl_simd_get(b, mtl_simdgroup_matrix_lane(k, at.x), $p), d);\n"
                  "        d = fma(vec2(ak.y), mtl_simd_get(b, mtl_simdgroup_matrix_lane(k + 1u, at.x), $p), d);\n"
                  "    }\n    return d;\n}\n\n",
                  &s);
        return;
    }
    /* emulated: the SIMD-group spans several subgroups; a and b of every lane meet in shared memory (lanes past
       the threadgroup's end count as zeros) */
    sb_puts(o, "    barrier();\n    mtl_xchg_vec4[gl_LocalInvocationIndex] = vec4(a, b);\n    barrier();\n"
               "    uint first = gl_LocalInvocationIndex & ~31u;\n"
               "    uvec2 at = mtl_simdgroup_matrix_coord(gl_LocalInvocationIndex & 31u);\n    vec2 d = c;\n"
               "    for (uint k = 0u; k < 8u; k += 2u)\n    {\n"
               "        uint la = first + mtl_simdgroup_matrix_lane(at.y, k);\n"
               "        uint lb0 = first + mtl_simdgroup_matrix_lane(k, at.x), lb1 = first + mtl_simdgroup_matrix_lane(k + 1u, at.x);\n"
               "        vec2 ak = la < mtl_threadgroup_total ? mtl_xchg_vec4[la].xy : vec2(0.0);\n"
               "        d = fma(vec2(ak.x), lb0 < mtl_threadgroup_total ? mtl_xchg_vec4[lb0].zw : vec2(0.0), d);\n"
               "        d = fma(vec2(ak.y), lb1 < mtl_threadgroup_total ? mtl_xchg_vec4[lb1].zw : vec2(0.0), d);\n"
               "    }\n    return d;\n}\n\n");
}

/* ---- Metal layer ---- */

/* Prints Metal function METAL (simd_table index) for value type T (scalar kind K) and what it needs. */
static void metal_function(Simd *S, int index, const char *T, TypeKind k, int n_args)
{
    const SimdInfo *si = &simd_table[index];
    const char *key = arena_printf(S->prog->arena, "metal %s %s %d", si->metal, T ? T : "-", n_args);
    if (!once(S, key))
        return;
    if (si->group == 'M') {
        matrix_function(S, si, T);
        return;
    }
    bool quad = si->group == 'Q';
    const char *g = quad ? "quad" : "simd";
    int G = quad ? 4 : 32;
    Subst s = {.T = T ? T : "uint", .F = si->metal};
    StrBuf *o = &S->text;
    switch (si->op) {
    case SOP_SUM: case SOP_PRODUCT: case SOP_MIN: case SOP_MAX: case SOP_AND: case SOP_OR: case SOP_XOR:
    case SOP_ISUM: case SOP_IPRODUCT: case SOP_XSUM: case SOP_XPRODUCT: {
        const char *kind = si->op == SOP_ISUM || si->op == SOP_IPRODUCT ? "iscan" : si->op == SOP_XSUM || si->op == SOP_XPRODUCT ? "xscan" : "reduce";
        if (quad)
            quad_arith(S, kind, si->op, T, k);
        else
            simd_arith(S, kind, si->op, T, k);
        put_subst(S, o, "$T $F($T x$P) { return mtl_", &s);
        sb_printf(o, "%s_%s_%s(x, ", g, kind, op_tag(si->op));
        put_subst(S, o, "$p); }\n\n", &s);
        return;
    }
    default:
        break;
    }
    if (quad) {
        quad_get(S, s.T);
        quad_ballot(S);
    } else {
        simd_get(S, s.T);
        simd_ballot(S);
    }
    const char *lane = !quad ? "mtl_thread_index_in_simdgroup()" : S->L->mma_lanes ? "(mtl_thread_index_in_simdgroup() & 3u)" : "(gl_LocalInvocationIndex & 3u)";
    char gm[8];
    snprintf(gm, sizeof gm, "%du", G - 1);
    switch (si->op) {
    case SOP_SHUFFLE:
    case SOP_BROADCAST:
        put_subst(S, o, "$T $F($T x, uint lane$P) { return mtl_", &s);
        sb_printf(o, "%s_get(x, lane, ", g);
        put_subst(S, o, "$p); }\n\n", &s);
        return;
    case SOP_SHUFFLE_UP:
    case SOP_SHUFFLE_DOWN:
    case SOP_SHUFFLE_XOR:
    case SOP_ROTATE_UP:
    case SOP_ROTATE_DOWN: {
        const char *src = si->op == SOP_SHUFFLE_UP ? "l >= d ? l - d : l"
                        : si->op == SOP_SHUFFLE_DOWN ? arena_printf(S->prog->arena, "l + d < %du ? l + d : l", G)
                        : si->op == SOP_SHUFFLE_XOR ? arena_printf(S->prog->arena, "(l ^ d) & %s", gm)
                        : si->op == SOP_ROTATE_UP ? arena_printf(S->prog->arena, "(l - d) & %s", gm)
                                                  : arena_printf(S->prog->arena, "(l + d) & %s", gm);
        put_subst(S, o, "$T $F($T x, uint d$P)\n{\n", &s);
        sb_printf(o, "    uint l = %s;\n    return mtl_%s_get(x, %s, ", lane, g, src);
        put_subst(S, o, "$p);\n}\n\n", &s);
        return;
    }
    case SOP_FILL_UP:
    case SOP_FILL_DOWN: {
        bool up = si->op == SOP_FILL_UP;
        const char *params = n_args == 4 ? "uint d, uint m" : "uint d";
        put_subst(S, o, "$T $F($T x, $T fill, ", &s);
        sb_puts(o, params);
        put_subst(S, o, "$P)\n{\n", &s);
        if (n_args != 4)
            sb_printf(o, "    uint m = %du;\n", G);
        sb_printf(o, "    uint l = %s, i = l %% m, base = l - i;\n", lane);
        if (up)
            sb_printf(o, "    %s a = mtl_%s_get(x, base + (i >= d ? i - d : i), %s);\n"
                         "    %s b = mtl_%s_get(fill, base + (i < d ? m - d + i : i), %s);\n    return i >= d ? a : b;\n}\n\n",
                      s.T, g, S->uni ? "mtl_p" : "true", s.T, g, S->uni ? "mtl_p" : "true");
        else
            sb_printf(o, "    %s a = mtl_%s_get(x, base + (i + d < m ? i + d : i), %s);\n"
                         "    %s b = mtl_%s_get(fill, base + (i + d >= m ? i + d - m : i), %s);\n    return i + d < m ? a : b;\n}\n\n",
                      s.T, g, S->uni ? "mtl_p" : "true", s.T, g, S->uni ? "mtl_p" : "true");
        return;
    }
    case SOP_BROADCAST_FIRST:
        put_subst(S, o, "$T $F($T x$P) { return mtl_", &s);
        sb_printf(o, "%s_get(x, uint(findLSB(mtl_%s_ballot(true, ", g, g);
        put_subst(S, o, "$p))), $p); }\n\n", &s);
        return;
    case SOP_BALLOT:
        put_subst(S, o, quad ? "uint16_t $F(bool c$P) { return uint16_t(mtl_quad_ballot(c, $p)); }\n\n"
                             : "uint64_t $F(bool c$P) { return uint64_t(mtl_simd_ballot(c, $p)); }\n\n", &s);
        return;
    case SOP_ACTIVE_MASK:
        put_subst(S, o, quad ? "uint16_t $F($Q) { return uint16_t(mtl_quad_ballot(true, $p)); }\n\n"
                             : "uint64_t $F($Q) { return uint64_t(mtl_simd_ballot(true, $p)); }\n\n", &s);
        return;
    case SOP_ALL:
        put_subst(S, o, "bool $F(bool c$P) { return mtl_", &s);
        sb_printf(o, "%s_ballot(c, %s) == mtl_%s_ballot(true, %s); }\n\n", g, S->uni ? "mtl_p" : "true", g, S->uni ? "mtl_p" : "true");
        return;
    case SOP_ANY:
        put_subst(S, o, "bool $F(bool c$P) { return mtl_", &s);
        sb_printf(o, "%s_ballot(c, %s) != 0u; }\n\n", g, S->uni ? "mtl_p" : "true");
        return;
    case SOP_IS_FIRST:
        put_subst(S, o, "bool $F($Q) { return ", &s);
        sb_printf(o, "%s == uint(findLSB(mtl_%s_ballot(true, %s))); }\n\n", lane, g, S->uni ? "mtl_p" : "true");
        return;
    default:
        return;
    }
}

/* ---- entry points ---- */

typedef struct SimdNeed {
    int index;
    const char *T; /* GLSL value type, NULL for functions without a value argument */
    TypeKind k;
    int n_args;
} SimdNeed;

void simd_need(Program *prog, Lowered *L, int index, const char *T, TypeKind k, int n_args)
{
    for (int i = 0; i < L->sync_helpers.len; i++) {
        SimdNeed *n = L->sync_helpers.items[i];
        if (n->index == index && n->k == k && n->n_args == n_args && ((!n->T && !T) || (n->T && T && !strcmp(n->T, T))))
            return;
    }
    SimdNeed *n = arena_alloc(prog->arena, sizeof *n);
    *n = (SimdNeed){index, T ? arena_strdup(prog->arena, T) : NULL, k, n_args};
    pv_push(&L->sync_helpers, n);
}

char *simd_helpers(Program *prog, Lowered *L, bool need_lane)
{
    Simd S = {.prog = prog, .L = L, .W = prog->subgroup_size, .virt = prog->virtual_subgroups, .uni = L->uniform_flow};
    if (need_lane)
        simd_lane(&S);
    for (int i = 0; i < L->sync_helpers.len; i++) {
        SimdNeed *n = L->sync_helpers.items[i];
        metal_function(&S, n->index, n->T, n->k, n->n_args);
    }
    StrBuf out = {0};
    if (S.scratch.data) {
        sb_puts(&out, "// Shared memory the SIMD-group functions exchange values through.\n");
        sb_puts(&out, S.scratch.data);
        sb_puts(&out, "\n");
    }
    if (S.text.data) {
        const char *mode = L->simd_mode == SIMD_NATIVE ? "native: Metal's 32 lanes are the device's subgroup"
                         : L->simd_mode == SIMD_CLUSTERED ? "clustered: 32-lane clusters of the device's subgroups"
                                                          : "emulated: 32-lane groups across the device's subgroups";
        sb_printf(&out, "// SIMD-group functions for %s%d-wide subgroups (%s).\n", prog->virtual_subgroups ? "virtual " : "",
                  prog->subgroup_size, mode);
        sb_puts(&out, S.text.data);
    }
    sb_free(&S.scratch);
    sb_free(&S.text);
    pv_free(&S.done);
    return out.data;
}
