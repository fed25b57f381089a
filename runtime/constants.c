/* constants.c: Metal function constants as Vulkan specialization constants (docs/interfaces.md):
   function constant n (0..899) is constant_id 100 + n, and its "is defined" flag (a bool) is 1100 + n. */
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
    if (value->count != 1 || (type != MTLRT_DTYPE_BOOL && mtlrt_dtype_size(type) != 4)) {
        rt_error("function constant %u (%s %s) of %s: expected one value of a bool, int, uint or float constant",
                 index, fc->type, fc->name, pipe->name);
        return false;
    }
    MtlrtArray exact;
    char why[512];
    if (!rt_convert_exact(value, type, &exact, why, sizeof why)) {
        rt_error("function constant %u (%s %s) of %s: %s", index, fc->type, fc->name, pipe->name, why);
        return false;
    }
    uint32_t bits = 0;
    if (type == MTLRT_DTYPE_BOOL)
        bits = *(const unsigned char *)exact.data ? 1u : 0u; /* VkBool32 */
    else
        memcpy(&bits, exact.data, 4);
    mtlrt_array_free(&exact);
    for (uint32_t i = 0; i < pipe->n_constants; i++)
        if (pipe->constants[i][0] == 100 + index) { /* set again: the new value */
            pipe->constants[i][1] = bits;
            return true;
        }
    if (pipe->n_constants + 2 > MAX_FUNCTION_CONSTANTS) {
        rt_error("%s: more than %d function constants", pipe->name, MAX_FUNCTION_CONSTANTS / 2);
        return false;
    }
    pipe->constants[pipe->n_constants][0] = 100 + index;
    pipe->constants[pipe->n_constants++][1] = bits;
    pipe->constants[pipe->n_constants][0] = 1100 + index;
    pipe->constants[pipe->n_constants++][1] = 1;
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
