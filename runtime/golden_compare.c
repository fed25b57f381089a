/* golden_compare.c: an output against its golden under the output's tolerance (close, ULPs or exact), in order or
   as multisets, with a report that points at the first elements over the tolerance. */
#include "golden.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* torch.testing.assert_close's defaults, which users of these kernels know: float16 1e-3/1e-5, bfloat16
   1.6e-2/1e-5, float32 1.3e-6/1e-5, float64 1e-7/1e-7; integers and bool exact. */
GoldenTolerance golden_default_tolerance(GoldenType type)
{
    if (type.bfloat)
        return (GoldenTolerance){.kind = GOLDEN_TOL_CLOSE, .rtol = 1.6e-2, .atol = 1e-5};
    switch (type.dtype) {
    case MTLRT_DTYPE_F16: return (GoldenTolerance){.kind = GOLDEN_TOL_CLOSE, .rtol = 1e-3, .atol = 1e-5};
    case MTLRT_DTYPE_F32: return (GoldenTolerance){.kind = GOLDEN_TOL_CLOSE, .rtol = 1.3e-6, .atol = 1e-5};
    case MTLRT_DTYPE_F64: return (GoldenTolerance){.kind = GOLDEN_TOL_CLOSE, .rtol = 1e-7, .atol = 1e-7};
    default: return (GoldenTolerance){.kind = GOLDEN_TOL_EXACT};
    }
}

/* Float element I as a signed position on the number line of its format: neighbours differ by 1, and -0 and +0
   are both 0. */
static int64_t float_position(const MtlrtArray *a, uint64_t i)
{
    uint64_t bits = 0, sign;
    size_t size = mtlrt_dtype_size(a->dtype);
    memcpy(&bits, (const char *)a->data + i * size, size);
    sign = 1ull << (8 * size - 1);
    return bits & sign ? -(int64_t)(bits & ~sign) : (int64_t)bits;
}

static uint64_t ulp_distance(int64_t x, int64_t y)
{
    return x >= y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}

typedef struct Element {
    long double got, want;
    uint64_t ulp;
} Element;

/* Whether one element passes TOL. */
static bool element_passes(const Element *e, const GoldenTolerance *tol)
{
    if (isnan(e->got) || isnan(e->want))
        return isnan(e->got) && isnan(e->want);
    switch (tol->kind) {
    case GOLDEN_TOL_ULP: return e->ulp <= tol->ulp;
    case GOLDEN_TOL_EXACT: return e->got == e->want;
    default:
        if (isinf(e->got) || isinf(e->want))
            return e->got == e->want;
        return fabsl(e->got - e->want) <= tol->atol + tol->rtol * fabsl(e->want);
    }
}

/* "[i, j, k]" of flat index I in SHAPE. */
static void print_index(FILE *f, const MtlrtArray *shape, uint64_t i)
{
    uint64_t idx[MTLRT_MAX_DIMS];
    for (int d = shape->ndim - 1; d >= 0; d--) {
        idx[d] = shape->shape[d] ? i % shape->shape[d] : 0;
        i = shape->shape[d] ? i / shape->shape[d] : 0;
    }
    fputc('[', f);
    for (int d = 0; d < shape->ndim; d++)
        fprintf(f, "%s%llu", d ? ", " : "", (unsigned long long)idx[d]);
    fputc(']', f);
}

static void print_tolerance(FILE *f, const GoldenTolerance *tol)
{
    if (tol->kind == GOLDEN_TOL_ULP)
        fprintf(f, "ulp %llu", (unsigned long long)tol->ulp);
    else if (tol->kind == GOLDEN_TOL_EXACT)
        fprintf(f, "exact");
    else
        fprintf(f, "rtol %g, atol %g", tol->rtol, tol->atol);
}

typedef struct SortKey {
    const MtlrtArray *a;
    bool bfloat;
} SortKey;

/* Ascending by value, NaN last; equal values by bits, so that the order is total. */
static int by_value(const void *x, const void *y, void *ctx)
{
    const SortKey *k = ctx;
    uint64_t i = *(const uint64_t *)x, j = *(const uint64_t *)y;
    long double a = golden_get(k->a, k->bfloat, i), b = golden_get(k->a, k->bfloat, j);
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    if (a != b)
        return a < b ? -1 : 1;
    size_t size = mtlrt_dtype_size(k->a->dtype);
    return memcmp((const char *)k->a->data + i * size, (const char *)k->a->data + j * size, size);
}

/* A's elements sorted by value into OUT (same dtype, flat). */
static bool sorted_copy(const MtlrtArray *a, bool bfloat, MtlrtArray *out)
{
    size_t size = mtlrt_dtype_size(a->dtype);
    uint64_t *order = malloc((a->count ? a->count : 1) * sizeof *order);
    if (!order || !mtlrt_array_alloc(out, a->dtype, 1, &a->count)) {
        free(order);
        return false;
    }
    for (uint64_t i = 0; i < a->count; i++)
        order[i] = i;
    qsort_r(order, a->count, sizeof *order, by_value, &(SortKey){a, bfloat});
    for (uint64_t i = 0; i < a->count; i++)
        memcpy((char *)out->data + i * size, (const char *)a->data + order[i] * size, size);
    free(order);
    return true;
}

/* Same element count and dtype; a shape difference is only noted. */
static bool check_layout(const MtlrtArray *got, const MtlrtArray *want, FILE *report)
{
    if (got->count != want->count) {
        fprintf(report, "    the output has %llu elements, the golden %llu\n", (unsigned long long)got->count,
                (unsigned long long)want->count);
        return false;
    }
    if (got->dtype != want->dtype) {
        fprintf(report, "    the golden holds %s, the output is %s: save the golden as %s\n",
                mtlrt_dtype_name(want->dtype), mtlrt_dtype_name(got->dtype), mtlrt_dtype_name(got->dtype));
        return false;
    }
    return true;
}

/* Compare element by element in the order given; GOT and WANT have the same count and dtype. */
static void compare_elements(const MtlrtArray *got, const MtlrtArray *want, const MtlrtArray *shape, bool bfloat,
                             const GoldenTolerance *tol, bool sorted, int max_report, FILE *report,
                             GoldenCompareResult *r)
{
    bool is_float = bfloat || mtlrt_dtype_kind(got->dtype) == 'f';
    for (uint64_t i = 0; i < got->count; i++) {
        Element e = {golden_get(got, bfloat, i), golden_get(want, bfloat, i), 0};
        if (is_float)
            e.ulp = ulp_distance(float_position(got, i), float_position(want, i));
        double abs_err = (double)fabsl(e.got - e.want), rel_err = e.want != 0 ? abs_err / (double)fabsl(e.want) : 0;
        r->count++;
        if (isfinite(abs_err) && abs_err > r->max_abs)
            r->max_abs = abs_err, r->max_abs_index = i;
        if (isfinite(rel_err) && rel_err > r->max_rel)
            r->max_rel = rel_err, r->max_rel_index = i;
        if (isfinite(abs_err) && e.ulp > r->max_ulp)
            r->max_ulp = e.ulp;
        if (element_passes(&e, tol))
            continue;
        if (r->over++ < (uint64_t)max_report) {
            fprintf(report, "    ");
            if (sorted)
                fprintf(report, "sorted position %llu", (unsigned long long)i);
            else
                print_index(report, shape, i);
            fprintf(report, ": got %.9Lg, expected %.9Lg (abs err %.3g", e.got, e.want, abs_err);
            if (e.want != 0 && isfinite(rel_err))
                fprintf(report, ", rel err %.3g", rel_err);
            if (is_float && tol->kind == GOLDEN_TOL_ULP)
                fprintf(report, ", %llu ulp", (unsigned long long)e.ulp);
            fprintf(report, ")\n");
        }
    }
}

bool golden_compare(const MtlrtArray *got, const MtlrtArray *expected, const GoldenOutput *o, GoldenType type,
                    int max_report, FILE *report, GoldenCompareResult *res)
{
    GoldenCompareResult r = {0};
    GoldenTolerance tol = o->tol.kind == GOLDEN_TOL_DEFAULT ? golden_default_tolerance(type) : o->tol;
    MtlrtArray got_sorted = {0}, want_sorted = {0};
    bool ok = check_layout(got, expected, report);
    if (ok && o->unordered &&
        !(sorted_copy(got, type.bfloat, &got_sorted) && sorted_copy(expected, type.bfloat, &want_sorted)))
        ok = false;
    if (ok) {
        compare_elements(o->unordered ? &got_sorted : got, o->unordered ? &want_sorted : expected, expected,
                         type.bfloat, &tol, o->unordered, max_report, report, &r);
        if (r.over > (uint64_t)max_report)
            fprintf(report, "    ... (%llu more)\n", (unsigned long long)(r.over - (uint64_t)max_report));
        if (r.over) {
            fprintf(report, "    %llu of %llu elements over the tolerance (", (unsigned long long)r.over,
                    (unsigned long long)r.count);
            print_tolerance(report, &tol);
            fprintf(report, "%s); max abs err %.3g at ", o->unordered ? ", compared as multisets" : "", r.max_abs);
            o->unordered ? (void)fprintf(report, "sorted position %llu", (unsigned long long)r.max_abs_index)
                         : print_index(report, expected, r.max_abs_index);
            fprintf(report, ", max rel err %.3g at ", r.max_rel);
            o->unordered ? (void)fprintf(report, "sorted position %llu", (unsigned long long)r.max_rel_index)
                         : print_index(report, expected, r.max_rel_index);
            fprintf(report, "\n");
        }
    }
    mtlrt_array_free(&got_sorted);
    mtlrt_array_free(&want_sorted);
    if (res)
        *res = r;
    return ok && r.over == 0;
}
