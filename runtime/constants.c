/* constants.c: Metal function constants as Vulkan specialization constants (docs/interfaces.md). The reflection
   lists the function constants a kernel reads with their specialization constant ids: the value (32 bits: VkBool32
   for bool, int for char/short/int, uint for uchar/ushort/uint, float for half/float) and its "defined" flag. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* VALUE as the 32 bits of the specialization constant of Metal type TYPE; false with a message when it does not
   fit (a bool for a number, a fraction for an integer, a value out of TYPE's range). */
static bool constant_bits(const char *type, const MtlrtArray *value, uint32_t *bits, const char *what)
{
    char kind = mtlrt_dtype_kind(value->dtype);
    long double v = mtlrt_array_get(value, 0);
    static const struct { const char *type; char kind; long double lo, hi; } types[] = {
        {"bool", 'b', 0, 1}, {"char", 'i', -128, 127}, {"uchar", 'u', 0, 255}, {"short", 'i', -32768, 32767},
        {"ushort", 'u', 0, 65535}, {"int", 'i', -2147483648.0L, 2147483647}, {"uint", 'u', 0, 4294967295.0L},
        {"half", 'f', -65504, 65504}, {"float", 'f', 0, 0},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        if (strcmp(type, types[i].type))
            continue;
        bool want_float = types[i].kind == 'f', want_bool = types[i].kind == 'b';
        bool ok = want_bool ? kind == 'b' : want_float ? kind == 'f' : (kind == 'i' || kind == 'u');
        if (ok && !want_bool && !want_float)
            ok = v == floorl(v) && v >= types[i].lo && v <= types[i].hi;
        if (ok && types[i].kind == 'f' && types[i].hi != 0)
            ok = isnan((double)v) || isinf((double)v) || (v >= types[i].lo && v <= types[i].hi);
        if (!ok) {
            rt_error("%s: expected a %s value, got %s %Lg", what, type, mtlrt_dtype_name(value->dtype), v);
            return false;
        }
        if (want_float) {
            float f = (float)v;
            memcpy(bits, &f, 4);
        } else if (types[i].kind == 'i') {
            int32_t s = (int32_t)v;
            memcpy(bits, &s, 4);
        } else {
            *bits = (uint32_t)v; /* VkBool32: 0 or 1 */
        }
        return true;
    }
    rt_error("%s: function constants of type %s are not supported", what, type);
    return false;
}

bool mtlrt_pipeline_set_function_constant(MtlrtPipeline *pipe, uint32_t index, const MtlrtArray *value)
{
    if (pipe->n_variants) {
        rt_error("function constant %u of %s: set it before the first dispatch", index, pipe->name);
        return false;
    }
    if (value->count != 1) {
        rt_error("function constant %u of %s: expected one value, got %llu", index, pipe->name,
                 (unsigned long long)value->count);
        return false;
    }
    const MtlrtFunctionConstant *fc = NULL;
    for (uint32_t i = 0; i < pipe->refl->n_function_constants; i++)
        if (pipe->refl->function_constants[i].index == index)
            fc = &pipe->refl->function_constants[i];
    if (!fc)
        return true; /* Metal ignores values for constants the function does not declare */
    char what[160];
    snprintf(what, sizeof what, "function constant %u (%s) of %s", index, fc->name, pipe->name);
    uint32_t bits;
    if (!constant_bits(fc->type, value, &bits, what))
        return false;
    uint32_t slot = pipe->n_constants; /* set again: the new value replaces the old */
    for (uint32_t i = 0; i < pipe->n_constants; i++)
        if (pipe->constants[i][0] == fc->constant_id)
            slot = i;
    if (slot == pipe->n_constants && pipe->n_constants + 2 > MAX_FUNCTION_CONSTANTS) {
        rt_error("%s: more than %d function constants", pipe->name, MAX_FUNCTION_CONSTANTS / 2);
        return false;
    }
    pipe->constants[slot][0] = fc->constant_id;
    pipe->constants[slot][1] = bits;
    pipe->constants[slot + 1][0] = fc->defined_constant_id;
    pipe->constants[slot + 1][1] = 1;
    if (slot == pipe->n_constants)
        pipe->n_constants += 2;
    return true;
}

uint32_t rt_function_constants(const MtlrtPipeline *pipe, VkSpecializationMapEntry *entries, uint32_t *data, uint32_t n)
{
    for (uint32_t i = 0; i < pipe->n_constants; i++, n++) {
        entries[n] = (VkSpecializationMapEntry){.constantID = pipe->constants[i][0], .offset = 4 * n, .size = 4};
        data[n] = pipe->constants[i][1];
    }
    return n;
}
