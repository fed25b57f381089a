/* fuzz_source.c: the translator on whole Metal sources (m2g_translate_source, as `mtl2glsl FILE.metal` runs it:
   clang's preprocessor, libclang, lowering, GLSL, reflection). The first byte picks the mode: translate (with a
   subgroup size), --list-entries or --syntax-only. */
#include "fuzz_common.h"
#include "mtl2glsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const int widths[] = {32, 4, 8, 16, 64, 128, 32, 32};
    M2gOptions opt = {.diag = fuzz_devnull(), .subgroup_size = widths[data[0] & 7],
                      .virtual_subgroups = (data[0] >> 3) & 1, .list_only = (data[0] >> 4) == 1,
                      .syntax_only = (data[0] >> 4) == 2};
    char *text = fuzz_text(data + 1, size - 1);
    M2gResult *r = m2g_translate_source("fuzz.metal", text, &opt);
    for (int i = 0; r && i < r->n_entries; i++) /* what the tool prints: each output whole */
        if (r->entries[i].glsl && (!strlen(r->entries[i].glsl) || !r->entries[i].reflect_json))
            abort();
    m2g_result_free(r);
    free(text);
    return 0;
}
