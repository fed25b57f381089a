/* fuzz_spec.c: kernel specs (m2g_spec_load, as `mtl2glsl SPEC.json` reads one: JSON, both forms, .npy headers it
   names), then the translation of the source a valid spec builds (m2g_translate_spec). */
#include "fuzz_common.h"
#include "mtl2glsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("spec.json", data, size);
    M2gSpec *spec = m2g_spec_load(path, NULL, fuzz_devnull());
    if (!spec)
        return 0;
    if (!spec->source || !spec->entry)
        abort(); /* loaded means built */
    M2gOptions opt = {.diag = fuzz_devnull()};
    m2g_result_free(m2g_translate_spec(spec, &opt));
    m2g_spec_free(spec);
    return 0;
}
