/* compare.c: element-wise comparison of an output array with a reference, dtype-aware. */
#include "internal.h"

#include <math.h>

/* Default tolerance: f2 1e-3/1e-3, bfloat16 1e-2/1e-2, f4 and c8 1e-5/1e-6, f8 1e-12/1e-12, integers and bool exact. */
void mtlrt_compare_default_tolerance(MtlrtDtype dtype, double *rtol, double *atol)
{
    switch (dtype) {
    case MTLRT_DTYPE_F16:
        *rtol = 1e-3, *atol = 1e-3;
        break;
    case MTLRT_DTYPE_BF16:
        *rtol = 1e-2, *atol = 1e-2; /* 8 significant bits */
        break;
    case MTLRT_DTYPE_F32:
    case MTLRT_DTYPE_C64:
        *rtol = 1e-5, *atol = 1e-6;
        break;
    case MTLRT_DTYPE_F64:
        *rtol = 1e-12, *atol = 1e-12;
        break;
    default:
        *rtol = 0, *atol = 0;
        break;
    }
}

/* The tolerance for comparing OUT with REF: given values, else the looser default of the two dtypes. */
static void tolerance(const MtlrtArray *out, const MtlrtArray *ref, const MtlrtCompareOptions *opt, double *rtol,
                      double *atol)
{
    double r1, a1, r2, a2;
    mtlrt_compare_default_tolerance(out->dtype, &r1, &a1);
    mtlrt_compare_default_tolerance(ref->dtype, &r2, &a2);
    *rtol = opt && opt->rtol >= 0 ? opt->rtol : fmax(r1, r2);
    *atol = opt && opt->atol >= 0 ? opt->atol : fmax(a1, a2);
}

/* One element: NaN must meet NaN, infinities must be equal, else |o - r| <= atol + rtol * |r|. */
static bool element_close(long double o, long double r, double rtol, double atol, bool *nan_mismatch)
{
    *nan_mismatch = isnan(o) != isnan(r);
    if (isnan(o) || isnan(r))
        return !*nan_mismatch;
    if (isinf(o) || isinf(r))
        return o == r;
    return fabsl(o - r) <= atol + rtol * fabsl(r);
}

/* "[i, j, k]" of flat index I in A's shape. */
static void print_index(FILE *f, const MtlrtArray *a, uint64_t i)
{
    uint64_t idx[MTLRT_MAX_DIMS];
    for (int d = a->ndim - 1; d >= 0; d--) {
        idx[d] = a->shape[d] ? i % a->shape[d] : 0;
        i = a->shape[d] ? i / a->shape[d] : 0;
    }
    fputc('[', f);
    for (int d = 0; d < a->ndim; d++)
        fprintf(f, "%s%llu", d ? ", " : "", (unsigned long long)idx[d]);
    fputc(']', f);
}

/* Element counts must agree; a shape difference with the same count is only noted. */
static bool check_shapes(const MtlrtArray *out, const MtlrtArray *ref, FILE *report)
{
    bool same = out->ndim == ref->ndim;
    for (int d = 0; same && d < out->ndim; d++)
        same = out->shape[d] == ref->shape[d];
    if (out->count != ref->count) {
        if (report)
            fprintf(report, "  output has %llu elements, reference %llu\n", (unsigned long long)out->count,
                    (unsigned long long)ref->count);
        return false;
    }
    if (!same && report)
        fprintf(report, "  note: shapes differ (ndim %d vs %d); comparing %llu elements in order\n", out->ndim,
                ref->ndim, (unsigned long long)out->count);
    return true;
}

/* A complex64 array as float32 (..., 2) pairs (the same data); another array as it is. */
static MtlrtArray real_view(const MtlrtArray *a)
{
    MtlrtArray v = *a;
    if (a->dtype != MTLRT_DTYPE_C64 || a->ndim == MTLRT_MAX_DIMS)
        return v;
    v.dtype = MTLRT_DTYPE_F32;
    v.shape[v.ndim++] = 2;
    v.count *= 2;
    return v;
}

/* Compare OUT with REF; details of the first OPT->max_report mismatches go to REPORT. complex64 compares its real
   and imaginary parts as float32 (index [..., 0] and [..., 1]), with a complex64 reference. */
bool mtlrt_compare(const MtlrtArray *out_c, const MtlrtArray *ref_c, const MtlrtCompareOptions *opt, FILE *report,
                   MtlrtCompareResult *result)
{
    if ((out_c->dtype == MTLRT_DTYPE_C64) != (ref_c->dtype == MTLRT_DTYPE_C64)) {
        if (report)
            fprintf(report, "  complex64 compared with %s\n", mtlrt_dtype_name(out_c->dtype == MTLRT_DTYPE_C64 ?
                                                                                  ref_c->dtype : out_c->dtype));
        if (result)
            *result = (MtlrtCompareResult){0};
        return false;
    }
    MtlrtArray out_v = real_view(out_c), ref_v = real_view(ref_c);
    const MtlrtArray *out = &out_v, *ref = &ref_v;
    MtlrtCompareResult res = {0};
    double rtol, atol;
    int max_report = opt ? opt->max_report : 10;
    tolerance(out, ref, opt, &rtol, &atol);
    bool ok = check_shapes(out, ref, report);
    for (uint64_t i = 0; ok && i < out->count; i++) {
        long double o = mtlrt_array_get(out, i), r = mtlrt_array_get(ref, i);
        bool nan_mismatch;
        res.count++;
        double err = (double)fabsl(o - r);
        if (err > res.max_abs_err) {
            res.max_abs_err = err;
            res.max_abs_err_index = i;
        }
        if (element_close(o, r, rtol, atol, &nan_mismatch))
            continue;
        res.nan_mismatches += nan_mismatch;
        if (report && res.mismatches < (uint64_t)max_report) {
            fprintf(report, "  mismatch at ");
            print_index(report, out, i);
            fprintf(report, ": got %.9Lg, expected %.9Lg (abs err %.3g)\n", o, r, err);
        }
        res.mismatches++;
    }
    if (report && res.mismatches)
        fprintf(report, "  %llu of %llu elements differ (%llu NaN where the reference is not, or the reverse); "
                        "rtol %g atol %g\n",
                (unsigned long long)res.mismatches, (unsigned long long)res.count,
                (unsigned long long)res.nan_mismatches, rtol, atol);
    if (result)
        *result = res;
    return ok && res.mismatches == 0;
}
