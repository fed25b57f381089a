/* tables.c: the data tables of grammar/builtins.def, grammar/simd.def and attributes.def, and their lookup. */
#include <string.h>

#include "internal.h"

const BuiltinInfo builtin_table[] = {
#define BUILTIN(name, family, glsl, header) {#name, BF_##family, #glsl},
#include "builtins.def"
#undef BUILTIN
};
const int builtin_count = sizeof builtin_table / sizeof *builtin_table;

const AttrInfo attr_table[] = {
#define ATTR(name, glsl, glsl_exact, kind) {#name, glsl, glsl_exact, kind},
#include "attributes.def"
#undef ATTR
};

const SimdInfo simd_table[] = {
#define SIMD(name, group, op, sig) {#name, #group[0], SOP_##op},
#include "simd.def"
#undef SIMD
};

int simd_lookup(const char *metal_name)
{
    for (size_t i = 0; i < sizeof simd_table / sizeof *simd_table; i++)
        if (!strcmp(simd_table[i].metal, metal_name))
            return (int)i;
    return -1;
}

/* The row of a Metal function that has a GLSL form; -1 for one the prelude declares without (an empty glsl column),
   which the callers report as not supported, by name. */
int builtin_lookup(const char *metal_name)
{
    for (int i = 0; i < builtin_count; i++)
        if (!strcmp(builtin_table[i].metal, metal_name) && builtin_table[i].glsl[0])
            return i;
    return -1;
}
