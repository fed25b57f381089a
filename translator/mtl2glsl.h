/* mtl2glsl.h: the translator as a library (used by the mtl2glsl command and by mtlrun). */
#ifndef MTL2GLSL_H
#define MTL2GLSL_H

#include <stdbool.h>
#include <stdio.h>

#define MTL2GLSL_VERSION "0.1.0"

typedef struct M2gOptions {
    const char *const *include_dirs; /* -I, NULL-terminated or NULL */
    const char *const *defines;      /* -D NAME or NAME=VALUE, NULL-terminated or NULL */
    const char *grammar_dir;         /* directory holding metal_stdlib; NULL: built-in default */
    const char *only_entry;          /* translate only this entry point; NULL: all */
    FILE *diag;                      /* where diagnostics go; NULL: stderr */
    int subgroup_size;               /* device subgroup size SIMD-group functions are built for: 4, 8, 16, 32
                                        (native), 64 or 128; 0: 32 (docs/translator.md, "SIMD-group width") */
    bool virtual_subgroups;          /* build subgroup operations from shared memory and barriers instead of the
                                        device's: runs any width on any device (for tests) */
} M2gOptions;

typedef struct M2gEntry {
    const char *name;         /* Metal entry point name (host name) */
    const char *glsl;         /* GLSL 450 compute source, NULL if translation failed */
    const char *reflect_json; /* reflection object (docs/interfaces.md), NULL if failed */
} M2gEntry;

typedef struct M2gResult {
    int n_entries;
    M2gEntry *entries;
    int n_errors;     /* diagnostics of severity error printed */
    bool parse_failed; /* the source could not be parsed at all */
    int n_includes;
    char **includes;   /* every file the parse read: the source, its headers, the prelude (for depfiles) */
} M2gResult;

/* Parse PATH and translate its entry points. Diagnostics are printed as they are found.
   Returns NULL only when out of memory. */
M2gResult *m2g_translate_file(const char *path, const M2gOptions *opt);
void m2g_result_free(M2gResult *r);

/* The directory of Metal prelude headers found at run time (installed or build tree). */
const char *m2g_default_grammar_dir(void);

#endif
