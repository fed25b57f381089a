/* bounds.c: the bounds-check record of kernels translated with check_bounds (mtl2glsl --check-bounds). */
#include "internal.h"

bool rt_bounds_bind(const MtlrtPipeline *pipe, VkBuffer *buffers, uint32_t *n_buffers, VkBuffer *writes,
                    uint32_t *n_writes)
{
    (void)pipe, (void)buffers, (void)n_buffers, (void)writes, (void)n_writes;
    return true;
}

bool rt_bounds_prepare(MtlrtCommands *c, MtlrtPipeline *pipe)
{
    (void)c, (void)pipe;
    return true;
}

bool rt_bounds_report(MtlrtCommands *c)
{
    (void)c;
    return true;
}
