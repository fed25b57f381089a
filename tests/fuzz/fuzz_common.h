/* fuzz_common.h: what the libFuzzer targets share (docs/fuzzing.md). Each target is one file, fuzz_NAME.c, whose
   LLVMFuzzerTestOneInput hands the input to one reader of the project exactly as the tools do; a crash, a hang, a
   sanitizer report, a leak or an allocation past -malloc_limit_mb is a finding. */
#ifndef MTL2GLSL_FUZZ_COMMON_H
#define MTL2GLSL_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where the diagnostics go: they are the tools' normal output, not findings. */
static inline FILE *fuzz_devnull(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

/* DATA as a NUL-terminated string (malloc'd). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    memcpy(t, data, size);
    t[size] = 0;
    return t;
}

static char fuzz_dir[256];

/* At exit: the folder of fuzz_file and what is in it. */
static inline void fuzz_remove_dir(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
    if (fuzz_dir[0] && system(cmd) != 0)
        fprintf(stderr, "fuzz: cannot remove %s\n", fuzz_dir);
}

/* DATA written to a file of this process named NAME (in a folder of its own under TMPDIR, removed at exit), for the
   readers that take a path. Returns the path (static). */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[512];
    char *dir = fuzz_dir;
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof fuzz_dir, "%s/mtl2glsl-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            abort();
        atexit(fuzz_remove_dir);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
    return path;
}

#endif
