/* golden_data.c: the data side of golden tests: dtype names (bfloat16 included), the generators (defined to the bit
   so that the Python package, python/mtl2glsl/golden.py, makes the same arrays on any machine), element access,
   and packing "value" numbers into a parameter's Metal type. */
#include "golden.h"

#include <math.h>
#include <string.h>

bool golden_type_from_name(const char *name, GoldenType *type)
{
    if (!strcmp(name, "bfloat16") || !strcmp(name, "bfloat") || !strcmp(name, "bf16")) {
        *type = (GoldenType){.dtype = MTLRT_DTYPE_U16, .bfloat = true};
        return true;
    }
    *type = (GoldenType){.dtype = mtlrt_dtype_from_name(name)};
    return type->dtype != MTLRT_DTYPE_NONE;
}

const char *golden_type_name(GoldenType type)
{
    return type.bfloat ? "bfloat16" : mtlrt_dtype_name(type.dtype);
}

/* float -> IEEE binary16 bits, rounded to nearest even (overflow: infinity; NaN stays NaN). */
uint16_t golden_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffff;
    if (((x >> 23) & 0xff) == 0xff)
        return sign | 0x7c00 | (mant ? 0x200 : 0);
    if (exp >= 31)
        return sign | 0x7c00;
    if (exp <= 0) { /* subnormal half, or zero */
        if (exp < -10)
            return sign;
        mant |= 0x800000;
        int shift = 14 - exp;
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        h += rem > half || (rem == half && (h & 1));
        return sign | (uint16_t)h;
    }
    uint32_t h = (uint32_t)exp << 10 | mant >> 13, rem = mant & 0x1fff;
    h += rem > 0x1000 || (rem == 0x1000 && (h & 1)); /* a carry into the exponent is the right result */
    return sign | (uint16_t)h;
}

/* float -> bfloat16 bits (the upper half of the float), rounded to nearest even; NaN stays a quiet NaN. */
uint16_t golden_float_to_bfloat(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if (isnan(f))
        return (uint16_t)((x >> 16) | 0x40);
    return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

static float bfloat_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

long double golden_get(const MtlrtArray *a, bool bfloat, uint64_t i)
{
    if (bfloat)
        return bfloat_to_float(((const uint16_t *)a->data)[i]);
    return mtlrt_array_get(a, i);
}

void golden_set(MtlrtArray *a, bool bfloat, uint64_t i, double v)
{
    void *d = a->data;
    if (bfloat) {
        ((uint16_t *)d)[i] = golden_float_to_bfloat((float)v);
        return;
    }
    switch (a->dtype) {
    case MTLRT_DTYPE_F32: ((float *)d)[i] = (float)v; break;
    case MTLRT_DTYPE_F16: ((uint16_t *)d)[i] = golden_float_to_half((float)v); break;
    case MTLRT_DTYPE_F64: ((double *)d)[i] = v; break;
    case MTLRT_DTYPE_I8: ((int8_t *)d)[i] = (int8_t)v; break;
    case MTLRT_DTYPE_U8: ((uint8_t *)d)[i] = (uint8_t)v; break;
    case MTLRT_DTYPE_I16: ((int16_t *)d)[i] = (int16_t)v; break;
    case MTLRT_DTYPE_U16: ((uint16_t *)d)[i] = (uint16_t)v; break;
    case MTLRT_DTYPE_I32: ((int32_t *)d)[i] = (int32_t)v; break;
    case MTLRT_DTYPE_U32: ((uint32_t *)d)[i] = (uint32_t)v; break;
    case MTLRT_DTYPE_I64: ((int64_t *)d)[i] = (int64_t)v; break;
    case MTLRT_DTYPE_U64: ((uint64_t *)d)[i] = (uint64_t)v; break;
    case MTLRT_DTYPE_BOOL: ((uint8_t *)d)[i] = v != 0; break;
    default: break;
    }
}

/* SplitMix64's output number I+1 from state SEED: counter-based, so element I needs no other. */
static uint64_t splitmix64(uint64_t seed, uint64_t i)
{
    uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform double in [0, 1) with 53 random bits. */
static double unit(uint64_t seed, uint64_t i)
{
    return (double)(splitmix64(seed, i) >> 11) * 0x1p-53;
}

/* Uniform bounds when the file gives none: [-1, 1) for floats, [0, 2) for bool, [0, 100) unsigned, [-100, 100)
   signed. */
static void uniform_bounds(const GoldenBuffer *b, MtlrtDtype dtype, bool bfloat, double *low, double *high)
{
    char kind = bfloat ? 'f' : mtlrt_dtype_kind(dtype);
    *low = b->a, *high = b->b;
    if (!isnan(b->a))
        return;
    *low = kind == 'f' ? -1 : kind == 'i' ? -100 : 0;
    *high = kind == 'f' ? 1 : kind == 'b' ? 2 : 100;
}

/* Value I of generator B for an array of DTYPE, in double. Integer dtypes draw uniform integers in [low, high). */
static double generated(const GoldenBuffer *b, bool is_float, double low, double high, uint64_t i)
{
    switch (b->gen) {
    case GOLDEN_GEN_CONSTANT: return b->a;
    case GOLDEN_GEN_ARANGE: return b->a + (double)i * b->b;
    case GOLDEN_GEN_UNIFORM:
        return is_float ? low + (high - low) * unit(b->seed, i) : low + floor((high - low) * unit(b->seed, i));
    case GOLDEN_GEN_NORMAL: {
        double sum = 0; /* Irwin-Hall: 12 uniforms, mean 6, variance 1; no libm, so every platform agrees */
        for (uint64_t k = 0; k < 12; k++)
            sum += unit(b->seed, 12 * i + k);
        return b->a + b->b * (sum - 6);
    }
    }
    return 0;
}

void golden_generate(const GoldenBuffer *b, MtlrtArray *a, bool bfloat)
{
    double low, high;
    bool is_float = bfloat || mtlrt_dtype_kind(a->dtype) == 'f';
    uniform_bounds(b, a->dtype, bfloat, &low, &high);
    for (uint64_t i = 0; i < a->count; i++) {
        double v = generated(b, is_float, low, high, i);
        golden_set(a, bfloat, i, is_float || mtlrt_dtype_kind(a->dtype) == 'b' ? v : trunc(v));
    }
}

/* Vector width of a Metal type name: float4 -> 4, packed_float3 -> 3, float -> 1. */
static int vector_width(const char *type)
{
    size_t n = strlen(type);
    return n > 1 && type[n - 1] >= '2' && type[n - 1] <= '4' && !(type[n - 2] >= '0' && type[n - 2] <= '9')
               ? type[n - 1] - '0'
               : 1;
}

/* Range of integer dtype D as doubles (64-bit: the doubles that convert exactly). */
static void int_range(MtlrtDtype d, double *lo, double *hi)
{
    int bits = 8 * (int)mtlrt_dtype_size(d);
    bool is_signed = mtlrt_dtype_kind(d) == 'i';
    *lo = is_signed ? -ldexp(1, bits - 1) : 0;
    *hi = ldexp(1, is_signed ? bits - 1 : bits) - (bits == 64 ? 1024 : 1);
}

bool golden_pack_values(const double *v, int n, const char *type, const char *scalar, const char *what, MtlrtArray *a,
                        FILE *err)
{
    GoldenType ty;
    if (!strcmp(scalar, "struct") || !golden_type_from_name(scalar, &ty)) {
        fprintf(err, "error: %s: a value cannot be packed as `%s`; give its bytes (\"bytes\": FILE or \"npy\")\n", what,
                type);
        return false;
    }
    int width = vector_width(type), padded = width == 3 && strncmp(type, "packed_", 7) ? 4 : width;
    if (n % width) {
        fprintf(err, "error: %s: `%s` takes %d value%s per element, got %d\n", what, type, width, width > 1 ? "s" : "",
                n);
        return false;
    }
    uint64_t count = (uint64_t)(n / width * padded);
    if (!mtlrt_array_alloc(a, ty.dtype, 1, &count))
        return false;
    char kind = ty.bfloat ? 'f' : mtlrt_dtype_kind(ty.dtype);
    for (int i = 0; i < n; i++) {
        double lo, hi;
        if (kind == 'i' || kind == 'u') {
            int_range(ty.dtype, &lo, &hi);
            if (v[i] != floor(v[i]) || v[i] < lo || v[i] > hi) {
                fprintf(err, "error: %s: %.17g does not fit `%s` (%s)\n", what, v[i], type, golden_type_name(ty));
                mtlrt_array_free(a);
                return false;
            }
        }
        golden_set(a, ty.bfloat, (uint64_t)(i / width * padded + i % width), v[i]);
    }
    return true;
}

bool golden_generator_fits(const GoldenBuffer *b, char *why, size_t size)
{
    char kind = b->type.bfloat ? 'f' : mtlrt_dtype_kind(b->type.dtype);
    if (kind == 'f' || kind == 'b')
        return true;
    double lo, hi, first, last;
    uint64_t count = 1;
    for (int i = 0; i < b->ndim; i++)
        count *= b->shape[i];
    int_range(b->type.dtype, &lo, &hi);
    switch (b->gen) {
    case GOLDEN_GEN_CONSTANT: first = last = b->a; break;
    case GOLDEN_GEN_ARANGE: first = b->a, last = b->a + (double)(count ? count - 1 : 0) * b->b; break;
    case GOLDEN_GEN_UNIFORM:
        uniform_bounds(b, b->type.dtype, false, &first, &last);
        if (first != floor(first) || last != floor(last)) {
            snprintf(why, size, "uniform integers need integer low and high");
            return false;
        }
        last -= 1;
        break;
    default: first = b->a - 6 * fabs(b->b), last = b->a + 6 * fabs(b->b); break;
    }
    if (isfinite(first) && isfinite(last) && fmin(first, last) >= lo && fmax(first, last) <= hi)
        return true;
    snprintf(why, size, "values from %.17g to %.17g do not fit %s", first, last, mtlrt_dtype_name(b->type.dtype));
    return false;
}
