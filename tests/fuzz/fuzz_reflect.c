/* fuzz_reflect.c: the runtime's reflection reader (mtlrt_reflection_parse, as `mtlrun KERNEL.comp --reflect
   FILE.json` reads one), then what mtlrun asks of a reflection: each parameter by index, and whether arrays of a few
   dtypes and sizes may back it. */
#include "fuzz_common.h"
#include "mtlrt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool quiet;
    if (!quiet)
        mtlrt_set_diag(fuzz_devnull(), "fuzz"), quiet = true;
    char *text = fuzz_text(data, size);
    MtlrtReflection *r = mtlrt_reflection_parse(text, size & 1 ? "k" : NULL, "fuzz.json");
    for (uint32_t i = 0; r && i < r->n_params; i++) {
        const MtlrtParam *p = &r->params[i];
        if (mtlrt_reflection_param(r, p->index) != p)
            abort(); /* indices are unique */
        static const char *const arrays[] = {"float32:4", "uint8:3", "float16:1", "int64:2x2"};
        for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++) {
            MtlrtArray a;
            if (mtlrt_array_from_spec(arrays[k], &a)) {
                mtlrt_param_accepts(p, &a, arrays[k]);
                mtlrt_array_free(&a);
            }
        }
    }
    mtlrt_reflection_destroy(r);
    free(text);
    return 0;
}
