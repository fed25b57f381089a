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

/* The number of value arguments of a family's functions (builtins.def); insert_bits (IX) takes one more. */
int builtin_arity(BuiltinFamily family)
{
    switch (family) {
    case BF_F1: case BF_FB1: case BF_FS1: case BF_FIL: case BF_I1: case BF_A1: case BF_BV: case BF_MT: case BF_MD:
    case BF_PK:
        return 1;
    case BF_F2: case BF_FB2: case BF_FS2: case BF_FV3: case BF_FLD: case BF_FFR: case BF_FO: case BF_I2: case BF_IU2:
    case BF_A2:
        return 2;
    case BF_F3: case BF_FR: case BF_I3: case BF_A3: case BF_SEL: case BF_IX:
        return 3;
    }
    return 1;
}
