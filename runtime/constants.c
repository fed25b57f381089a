/* constants.c: Metal function constants as Vulkan specialization constants (docs/interfaces.md). The reflection
   lists the function constants a kernel reads, each with its specialization constant ids (numbered per shader):
   the value, 32 bits (VkBool32 for bool, int for char/short/int, uint for uchar/ushort/uint, float for half and
   float), and its "is defined" flag (a bool). */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* The kernel's declaration of function constant INDEX, or NULL after an error listing those it has. */
static const MtlrtFunctionConstant *declared(const MtlrtPipeline *pipe, uint32_t index)
{
    const MtlrtReflection *r = pipe->refl;
    for (uint32_t i = 0; i < r->n_function_constants; i++)
        if (r->function_constants[i].index == index)
            return &r->function_constants[i];
    char list[512] = "";
    size_t n = 0;
    for (uint32_t i = 0; i < r->n_function_constants && n < sizeof list - 64; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%u (%s %s)", i ? ", " : "", r->function_constants[i].index,
                              r->function_constants[i].type, r->function_constants[i].name);
    rt_error("kernel %s has no [[function_constant(%u)]]; %s%s", r->entry, index,
             r->n_function_constants ? "it has " : "it reads no function constants", list);
    return NULL;
}

/* The 32 bits of the specialization constant holding EXACT, a 0-d array of the declared type. */
static uint32_t constant_bits(const MtlrtArray *exact)
{
    uint32_t bits = 0;
    switch (mtlrt_dtype_kind(exact->dtype)) {
    case 'b':
        return *(const unsigned char *)exact->data ? 1u : 0u; /* VkBool32 */
    case 'f': {
        float f = (float)mtlrt_array_get(exact, 0); /* half: its value as a float */
        memcpy(&bits, &f, 4);
        return bits;
    }
    case 'i': {
        int32_t v = (int32_t)mtlrt_array_get(exact, 0); /* char, short: sign-extended */
        memcpy(&bits, &v, 4);
        return bits;
    }
    default:
        return (uint32_t)mtlrt_array_get(exact, 0);
    }
}

bool mtlrt_pipeline_set_function_constant(MtlrtPipeline *pipe, uint32_t index, const MtlrtArray *value)
{
    if (pipe->n_variants) {
        rt_error("function constant %u of %s: set it before the first dispatch", index, pipe->name);
        return false;
    }
    const MtlrtFunctionConstant *fc = declared(pipe, index);
    if (!fc)
        return false;
    MtlrtDtype type = mtlrt_dtype_from_name(fc->type);
    if (value->count != 1 || type == MTLRT_DTYPE_NONE || mtlrt_dtype_size(type) > 4) {
        rt_error("function constant %u (%s %s) of %s: expected one value of a bool, char, uchar, short, ushort, int, "
                 "uint, half or float constant", index, fc->type, fc->name, pipe->name);
        return false;
    }
    MtlrtArray exact;
    char why[512];
    if (!rt_convert_exact(value, type, &exact, why, sizeof why)) {
        rt_error("function constant %u (%s %s) of %s: %s", index, fc->type, fc->name, pipe->name, why);
        return false;
    }
    uint32_t bits = constant_bits(&exact);
    mtlrt_array_free(&exact);
    for (uint32_t i = 0; i < pipe->n_constants; i++)
        if (pipe->constants[i][0] == fc->constant_id) { /* set again: the new value */
            pipe->constants[i][1] = bits;
            return true;
        }
    if (pipe->n_constants + 2 > MAX_FUNCTION_CONSTANTS) {
        rt_error("%s: more than %d function constants", pipe->name, MAX_FUNCTION_CONSTANTS / 2);
        return false;
    }
    pipe->constants[pipe->n_constants][0] = fc->constant_id;
    pipe->constants[pipe->n_constants++][1] = bits;
    pipe->constants[pipe->n_constants][0] = fc->defined_constant_id;
    pipe->constants[pipe->n_constants++][1] = 1;
    return true;
}

bool rt_function_constant_true(const MtlrtPipeline *pipe, const char *name)
{
    const MtlrtReflection *r = pipe->refl;
    for (uint32_t i = 0; i < r->n_function_constants; i++) {
        if (strcmp(r->function_constants[i].name, name))
            continue;
        for (uint32_t k = 0; k < pipe->n_constants; k++)
            if (pipe->constants[k][0] == r->function_constants[i].constant_id)
                return pipe->constants[k][1] != 0;
    }
    return false;
}

uint32_t rt_function_constants(const MtlrtPipeline *pipe, VkSpecializationMapEntry *entries, uint32_t *data, uint32_t n)
{
    for (uint32_t i = 0; i < pipe->n_constants; i++, n++) {
        entries[n] = (VkSpecializationMapEntry){.constantID = pipe->constants[i][0], .offset = 4 * n, .size = 4};
        data[n] = pipe->constants[i][1];
    }
    return n;
}
