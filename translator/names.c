/* names.c: keeps output identifiers valid GLSL while keeping the kernel's own names. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* GLSL 4.50 keywords and reserved words that are legal C++ identifiers. */
static const char *const glsl_reserved[] = {
    "active", "asm", "atomic_uint", "attribute", "buffer", "centroid", "coherent", "common", "const",
    "dmat2", "dmat3", "dmat4", "dvec2", "dvec3", "dvec4", "external", "filter", "fixed", "flat",
    "fvec2", "fvec3", "fvec4", "highp", "hvec2", "hvec3", "hvec4", "image1D", "image2D", "image3D",
    "in", "inout", "input", "interface", "invariant", "isampler2D", "layout", "lowp", "main", "mat2",
    "mat3", "mat4", "mediump", "noinline", "noperspective", "out", "output", "partition", "patch",
    "precise", "precision", "readonly", "resource", "restrict", "sample", "sampler1D", "sampler2D",
    "sampler3D", "samplerCube", "shared", "smooth", "subroutine", "superp", "texture", "uniform",
    "varying", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "uvec2", "uvec3", "uvec4",
    "bvec2", "bvec3", "bvec4", "volatile", "writeonly", "dvec", "lessThan", "greaterThan", "equal",
    "notEqual", "not", "mix", "inversesqrt", "roundEven", "fract", "bitCount", "findMSB", "findLSB",
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int64_t", "uint64_t", "float16_t", "demote",
    "subroutine", "union", "enum", "typedef", "template", "this", "goto", "sizeof", "cast", "namespace",
    "using", "public", "static", "extern", "inline", "long", "short", "double", "half", "unsigned",
    "superp", "row_major", "packed", "discard", "dot", "length", "floatBitsToUint", "uintBitsToFloat",
};

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Returns NAME unless GLSL cannot hold it: a keyword or reserved word, the gl_ prefix, a double underscore, the mtl_
   prefix used by us, or characters GLSL identifiers do not have (clang takes UTF-8 letters and '$'). Such a name is
   NAME with `__` collapsed, u_ before gl_/mtl_, each run of other characters written as x and their bytes in hex
   (été -> xc3a9t_xc3a9), and a trailing underscore. */
const char *names_legal(Arena *a, const char *name)
{
    bool bad = !strncmp(name, "gl_", 3) || strstr(name, "__") != NULL || !strncmp(name, "mtl_", 4);
    size_t odd = 0;
    for (const char *p = name; *p; p++)
        odd += !ident_char(*p);
    bad |= odd > 0;
    for (size_t i = 0; !bad && i < sizeof glsl_reserved / sizeof *glsl_reserved; i++)
        bad = !strcmp(name, glsl_reserved[i]);
    if (!bad)
        return name;
    char *s = arena_alloc(a, strlen(name) + 3 * odd + 8);
    char *o = s;
    if (!strncmp(name, "gl_", 3) || !strncmp(name, "mtl_", 4))
        *o++ = 'u', *o++ = '_';
    for (const char *p = name; *p; p++) {
        if (!ident_char(*p)) {
            if (o > s && o[-1] != '_')
                *o++ = '_';
            *o++ = 'x';
            for (; *p && !ident_char(*p); p++)
                o += sprintf(o, "%02x", (unsigned char)*p);
            if (!*p--)
                break;
            *o++ = '_';
            continue;
        }
        if (p[0] == '_' && (p[1] == '_' || (o > s && o[-1] == '_')))
            continue;
        *o++ = *p;
    }
    if (o == s || o[-1] != '_')
        *o++ = '_';
    *o = 0;
    return s;
}

const char *names_entry_problem(const char *name)
{
    if (!*name)
        return "is empty";
    if (strlen(name) > M2G_MAX_ENTRY_NAME)
        return "is longer than " M2G_STR(M2G_MAX_ENTRY_NAME) " characters, the limit (docs/limits.md)";
    bool ident = !(*name >= '0' && *name <= '9');
    for (const char *p = name; ident && *p; p++)
        ident = ident_char(*p);
    return ident ? NULL : "is not an identifier (letters, digits and '_'): it names the output files and C functions";
}

/* GLSL built-in functions the translator calls: a program-scope constant of that name would hide them everywhere
   (MLX's Limits<T>::max and ::min, static members printed as globals). */
static const char *const glsl_functions[] = {
    "min", "max", "abs", "clamp", "sign", "floor", "ceil", "trunc", "round", "exp", "exp2", "log", "log2", "sqrt",
    "pow", "sin", "cos", "tan", "fma", "isnan", "isinf", "any", "all", "step", "mod", "barrier", "distance",
    "cross", "normalize", "fract", "radians", "degrees", "atan", "asin", "acos", "sinh", "cosh", "tanh",
};

/* names_legal for a program-scope variable: also not the name of a GLSL built-in function (max -> max_). */
const char *names_legal_global(Arena *a, const char *name)
{
    const char *n = names_legal(a, name);
    for (size_t i = 0; i < sizeof glsl_functions / sizeof *glsl_functions; i++)
        if (!strcmp(n, glsl_functions[i]))
            return arena_printf(a, "%s_", n);
    return n;
}
