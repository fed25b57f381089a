/* tables.c: the data tables of grammar/builtins.def and attributes.def, and helper lookup. */
#include <string.h>

#include "internal.h"

const BuiltinInfo builtin_table[] = {
#define BUILTIN(name, family, glsl) {#name, BF_##family, #glsl},
#include "builtins.def"
#undef BUILTIN
};
const int builtin_count = sizeof builtin_table / sizeof *builtin_table;

const AttrInfo attr_table[] = {
#define ATTR(name, glsl, kind) {#name, glsl, kind},
#include "attributes.def"
#undef ATTR
};

int builtin_lookup(const char *metal_name)
{
    for (int i = 0; i < builtin_count; i++)
        if (!strcmp(builtin_table[i].metal, metal_name))
            return i;
    return -1;
}
