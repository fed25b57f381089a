/* fuzz_npy.c: the runtime's .npy reader (mtlrt_npy_read, as `mtlrun --buffer N=FILE.npy` loads one), a write and
   read back of what it read (the same header and bytes), and the DTYPE:SHAPE and TYPE:VALUE parsers on the input
   as text. */
#include "fuzz_common.h"
#include "mtlrt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool quiet;
    if (!quiet)
        mtlrt_set_diag(fuzz_devnull(), "fuzz"), quiet = true;
    MtlrtArray a, b;
    const char *in = fuzz_file("in.npy", data, size);
    if (mtlrt_npy_read(in, &a)) {
        long double sum = 0;
        for (uint64_t i = 0; i < a.count && i < 4096; i++)
            sum += mtlrt_array_get(&a, i);
        (void)sum;
        char out[600];
        snprintf(out, sizeof out, "%s.out.npy", in);
        if (!mtlrt_npy_write(out, &a) || !mtlrt_npy_read(out, &b))
            abort();
        if (b.dtype != a.dtype || b.ndim != a.ndim || b.nbytes != a.nbytes || memcmp(a.data, b.data, a.nbytes))
            abort(); /* what is written reads back the same */
        mtlrt_array_free(&b);
        mtlrt_array_free(&a);
    }
    char *text = fuzz_text(data, size);
    if (mtlrt_array_from_spec(text, &a))
        mtlrt_array_free(&a);
    if (mtlrt_array_from_scalar(text, &a))
        mtlrt_array_free(&a);
    free(text);
    return 0;
}
