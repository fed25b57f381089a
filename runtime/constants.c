/* constants.c: Metal function constants as Vulkan specialization constants (docs/interfaces.md):
   function constant n (0..899) is constant_id 100 + n, and its "is defined" flag (a bool) is 1100 + n. */
#include "internal.h"

#include <string.h>

bool mtlrt_pipeline_set_function_constant(MtlrtPipeline *pipe, uint32_t index, const MtlrtArray *value)
{
    if (pipe->n_variants) {
        rt_error("function constant %u of %s: set it before the first dispatch", index, pipe->name);
        return false;
    }
    if (index > 899 || value->count != 1 || mtlrt_dtype_size(value->dtype) > 4 || mtlrt_dtype_size(value->dtype) == 2 ||
        (mtlrt_dtype_kind(value->dtype) != 'b' && mtlrt_dtype_size(value->dtype) != 4)) {
        rt_error("function constant %u of %s: expected one bool, int, uint or float value (index at most 899)",
                 index, pipe->name);
        return false;
    }
    if (pipe->n_constants + 2 > MAX_FUNCTION_CONSTANTS) {
        rt_error("%s: more than %d function constants", pipe->name, MAX_FUNCTION_CONSTANTS / 2);
        return false;
    }
    uint32_t bits = 0;
    if (mtlrt_dtype_kind(value->dtype) == 'b')
        bits = *(const unsigned char *)value->data ? 1u : 0u; /* VkBool32 */
    else
        memcpy(&bits, value->data, 4);
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
