/* depfile.c: Make-syntax dependency files (-MD -MF FILE [-MT TARGET] [-MP]), read by make, Ninja and CMake's
   add_custom_command(DEPFILE). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Writes PATH escaped for a Make rule: a space or tab as "\ ", '#' as "\#", '$' as "$$" (GNU make and Ninja's
   depfile parser both read these). */
static void put_escaped(FILE *f, const char *path)
{
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '#')
            fputc('\\', f);
        else if (*p == '$')
            fputc('$', f);
        fputc(*p, f);
    }
}

/* Absolute form of a dependency: realpath when the file exists, else the name as given. */
static void put_dep(FILE *f, const char *dep)
{
    char abs[PATH_MAX];
    put_escaped(f, realpath(dep, abs) ? abs : dep);
}

bool depfile_write(const char *path, const char *const *targets, int n_targets, const char *const *deps, int n_deps,
                   bool phony)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "mtl2glsl: error: cannot write depfile '%s': %s\n", path, strerror(errno));
        return false;
    }
    for (int i = 0; i < n_targets; i++) {
        if (i)
            fputc(' ', f);
        put_escaped(f, targets[i]);
    }
    fputc(':', f);
    for (int i = 0; i < n_deps; i++) {
        fputs(" \\\n  ", f);
        put_dep(f, deps[i]);
    }
    fputc('\n', f);
    for (int i = 1; phony && i < n_deps; i++) { /* the source itself (first) gets no empty rule, as with gcc */
        fputc('\n', f);
        put_dep(f, deps[i]);
        fputs(":\n", f);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "mtl2glsl: error: cannot write depfile '%s': %s\n", path, strerror(errno));
        return false;
    }
    return true;
}
