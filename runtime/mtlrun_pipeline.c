/* mtlrun_pipeline.c: mtlrun --pipeline FILE. The file names buffers that kernels share and the kernels to run,
   in order; every launch is recorded into one command list (barriers where one reads or writes what an earlier one
   wrote, as a Metal encoder orders them), submitted once and waited for. Lines:
     # a comment
     buffer NAME = FILE.npy | DTYPE:SHAPE        a shared buffer (poisoned with --poison)
     run KERNEL OPTIONS...                       one launch: mtlrun's launch options; --buffer N=NAME binds NAME
     out NAME = FILE.npy                         write NAME back after the run (also --out NAME=FILE.npy)
     check NAME = REF.npy                        compare NAME with a reference (also --check NAME=REF.npy)
     address NAME+OFFSET = TARGET[+BYTES]        TARGET's device address (+ BYTES) as 8 bytes at byte OFFSET of
                                                 NAME, before the launches: an argument buffer's pointers
   Words are separated by blanks; '...' or "..." quote one with blanks in it. */
#include "mtlrun.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LAUNCHES 64
#define MAX_WORDS 256
#define MAX_ADDRESSES 4096

/* An `address` line: where a device address goes, and whose. */
typedef struct AddressLine {
    int buffer, target; /* shared buffers */
    uint64_t offset, target_offset;
    char where[64];
} AddressLine;

typedef struct Pipeline {
    const char *path;
    char *text;                   /* the file, cut into words in place */
    Launch launches[MAX_LAUNCHES];
    char where[MAX_LAUNCHES][64]; /* "FILE:LINE" of each run line */
    int n_launches;
    Shared shared;
    const char *shared_text[MAX_ARGS]; /* what each shared buffer holds: FILE.npy or DTYPE:SHAPE */
    Prepared prepared[MAX_LAUNCHES];
    AddressLine *addresses;
    int n_addresses;
} Pipeline;

/* Cut LINE into words (in place): blanks separate, quotes group. Number of words, -1 on an open quote. */
static int split_words(char *line, char **words, int max)
{
    int n = 0;
    char *p = line;
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            break;
        if (n == max)
            return -1;
        char *out = p;
        words[n++] = out;
        while (*p && !isspace((unsigned char)*p)) {
            if (*p == '\'' || *p == '"') {
                char q = *p++;
                while (*p && *p != q)
                    *out++ = *p++;
                if (*p != q)
                    return -1;
                p++;
            } else {
                *out++ = *p++;
            }
        }
        if (*p)
            p++;
        *out = 0;
    }
    return n;
}

/* "NAME = VALUE" or "NAME=VALUE" in WORDS[1..N-1] -> NAME, VALUE (in place); false if malformed. */
static bool name_value(char **words, int n, char **name, char **value)
{
    if (n == 4 && !strcmp(words[2], "=")) {
        *name = words[1], *value = words[3];
    } else if (n == 2 && strchr(words[1], '=')) {
        *name = words[1];
        *value = strchr(words[1], '=') + 1;
        *strchr(words[1], '=') = 0;
    } else {
        return false;
    }
    return **name && **value && strspn(*name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") ==
                                    strlen(*name);
}

static bool line_error(const char *where, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: error: ", where);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return false;
}

/* A `buffer NAME = ...` line: its array is loaded and its buffer made before the launches are prepared. */
static bool add_buffer(Pipeline *pl, char **words, int n, const char *where)
{
    char *name, *value;
    if (!name_value(words, n, &name, &value))
        return line_error(where, "expected `buffer NAME = FILE.npy` or `buffer NAME = DTYPE:SHAPE`%s", "");
    for (int i = 0; i < pl->shared.n; i++)
        if (!strcmp(pl->shared.names[i], name))
            return line_error(where, "buffer %s is declared twice", name);
    if (pl->shared.n == MAX_ARGS)
        return line_error(where, "more than 64 buffers%s", "");
    int i = pl->shared.n;
    if (!(pl->shared.names[i] = strdup(name)))
        return false;
    pl->shared_text[i] = value;
    pl->shared.n++;
    return true;
}

/* The shared buffer named NAME (declared on an earlier line), or -1. */
static int shared_index(const Pipeline *pl, const char *name)
{
    for (int i = 0; i < pl->shared.n; i++)
        if (!strcmp(pl->shared.names[i], name))
            return i;
    return -1;
}

/* "NAME" or "NAME+BYTES" (BYTES decimal or 0x hex) -> shared buffer and byte offset; false after a message. */
static bool buffer_place(const Pipeline *pl, char *text, int *buffer, uint64_t *offset, const char *where)
{
    char *plus = strchr(text, '+');
    *offset = 0;
    if (plus) {
        *plus = 0;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(plus + 1, &end, 0);
        if (!plus[1] || *end || errno || plus[1] == '-' || v > (1ull << 48))
            return line_error(where, "expected a byte offset after '+', not '%s'", plus + 1);
        *offset = v;
    }
    if ((*buffer = shared_index(pl, text)) < 0)
        return line_error(where, "no buffer named '%s' (an `address` line names buffers declared above it)", text);
    return true;
}

/* An `address NAME+OFFSET = TARGET[+BYTES]` line: checked against the buffers' sizes once they are loaded. */
static bool add_address(Pipeline *pl, char **words, int n, const char *where)
{
    char *name = NULL, *value = NULL;
    if (n == 4 && !strcmp(words[2], "="))
        name = words[1], value = words[3];
    else if (n == 2 && strchr(words[1], '='))
        name = words[1], value = strchr(words[1], '=') + 1, *strchr(words[1], '=') = 0;
    if (!name || !*name || !*value)
        return line_error(where, "expected `address NAME+OFFSET = TARGET` or `address NAME+OFFSET = TARGET+BYTES`%s", "");
    if (pl->n_addresses == MAX_ADDRESSES)
        return line_error(where, "more than %s address lines", "4096");
    if (!pl->addresses && !(pl->addresses = calloc(MAX_ADDRESSES, sizeof *pl->addresses)))
        return false;
    AddressLine *a = &pl->addresses[pl->n_addresses];
    if (!strchr(name, '+'))
        return line_error(where, "expected `address NAME+OFFSET = ...`: the byte offset in '%s' where the address goes", name);
    if (!buffer_place(pl, name, &a->buffer, &a->offset, where) || !buffer_place(pl, value, &a->target, &a->target_offset, where))
        return false;
    if (a->offset % 8) {
        fprintf(stderr, "%s: error: a device address goes at a multiple of 8 bytes, not at byte %llu\n", where, (unsigned long long)a->offset);
        return false;
    }
    snprintf(a->where, sizeof a->where, "%s", where);
    pl->n_addresses++;
    return true;
}

/* An `out` or `check` line: appended to the run's outputs. */
static bool add_output(Arg *list, int *count, char **words, int n, const char *where)
{
    char *name, *value;
    if (!name_value(words, n, &name, &value) || *count == MAX_ARGS)
        return line_error(where, "expected `%s NAME = FILE.npy`", words[0]);
    list[(*count)++] = (Arg){.index = UINT32_MAX, .kind = SOURCE_ARRAY, .text = value, .name = strdup(name)};
    return list[*count - 1].name != NULL;
}

static bool parse_text(Pipeline *pl, Options *o);

/* FILE's whole text (NUL-terminated, malloc'd) into *TEXT; false at a read error (errno set). */
static bool read_all(FILE *f, char **text)
{
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (ferror(f))
            break;
        if (feof(f)) {
            buf[n] = 0;
            *text = buf;
            return true;
        }
        char *bigger = n + 1 == cap ? realloc(buf, cap *= 2) : buf;
        if (!bigger)
            break;
        buf = bigger;
    }
    free(buf);
    return false;
}

/* Read and parse the file (`-`: standard input, named stdin in messages): shared buffers loaded, launches and
   outputs parsed. */
static bool parse_file(Pipeline *pl, Options *o)
{
    if (!strcmp(pl->path, "-")) {
        pl->path = "stdin";
        if (!read_all(stdin, &pl->text)) {
            fprintf(stderr, "mtlrun: error: cannot read the pipeline from standard input: %s\n", strerror(errno));
            return false;
        }
        return parse_text(pl, o);
    }
    FILE *f = fopen(pl->path, "rb");
    long size = -1;
    if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
        !(pl->text = calloc((size_t)size + 1, 1)) || fread(pl->text, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "mtlrun: error: cannot read %s: %s\n", pl->path, strerror(errno));
        if (f)
            fclose(f);
        return false;
    }
    fclose(f);
    return parse_text(pl, o);
}

/* Parse PL->text (from PL->path). */
static bool parse_text(Pipeline *pl, Options *o)
{
    int line_no = 0;
    for (char *line = pl->text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        line_no++;
        char where[64], *words[MAX_WORDS];
        snprintf(where, sizeof where, "%.48s:%d", pl->path, line_no);
        int n = split_words(line, words, MAX_WORDS);
        if (n < 0)
            return line_error(where, "an unclosed quote, or more than %s words", "256");
        if (n == 0)
            continue;
        bool ok;
        if (!strcmp(words[0], "buffer")) {
            ok = add_buffer(pl, words, n, where);
        } else if (!strcmp(words[0], "out")) {
            ok = add_output(o->outs, &o->n_outs, words, n, where);
        } else if (!strcmp(words[0], "check")) {
            ok = add_output(o->checks, &o->n_checks, words, n, where);
        } else if (!strcmp(words[0], "address")) {
            ok = add_address(pl, words, n, where);
        } else if (!strcmp(words[0], "run")) {
            if (pl->n_launches == MAX_LAUNCHES)
                return line_error(where, "more than %s run lines", "64");
            Launch *l = &pl->launches[pl->n_launches];
            snprintf(pl->where[pl->n_launches++], sizeof pl->where[0], "%s", where);
            ok = mtlrun_parse(n, words, o, l, true, where) && mtlrun_check_launch(l, where);
            if (ok && mtlrun_has_suffix(l->kernel, ".json"))
                ok = line_error(where, "kernel specs (%s) cannot run in a pipeline yet: translate the spec with "
                                       "mtl2glsl and run the .comp with --reflect", l->kernel);
        } else {
            ok = line_error(where, "unknown line kind '%s' (buffer, run, out, check, address)", words[0]);
        }
        if (!ok)
            return false;
    }
    if (!pl->n_launches)
        return line_error(pl->path, "no `run` lines%s", "");
    return true;
}

/* The shared buffer each output names (its index into the shared lists); -1 after a message. */
static int output_buffer(const Pipeline *pl, const Arg *a)
{
    const char *name = a->name ? a->name : "";
    for (int i = 0; i < pl->shared.n; i++)
        if (!strcmp(pl->shared.names[i], name))
            return i;
    fprintf(stderr, "mtlrun: error: %s: no buffer named '%s' (a pipeline's outputs name its `buffer` lines)\n",
            pl->path, a->name ? a->name : a->text);
    return -1;
}

/* Every output names a shared buffer. */
static bool check_outputs(const Pipeline *pl, const Options *o)
{
    for (int i = 0; i < o->n_outs; i++)
        if (output_buffer(pl, &o->outs[i]) < 0)
            return false;
    for (int i = 0; i < o->n_checks; i++)
        if (output_buffer(pl, &o->checks[i]) < 0)
            return false;
    return true;
}

/* Each `address` line's device address written into its buffer's data (little-endian, as Metal's GPUs and the
   host write them); false after a message for an offset past either buffer's end. */
static bool write_addresses(Pipeline *pl)
{
    for (int i = 0; i < pl->n_addresses; i++) {
        const AddressLine *l = &pl->addresses[i];
        MtlrtArray *a = &pl->shared.arrays[l->buffer];
        size_t target_size = pl->shared.arrays[l->target].nbytes;
        uint64_t addr;
        if (l->offset > a->nbytes || a->nbytes - l->offset < 8) {
            fprintf(stderr, "%s: error: byte %llu of buffer %s is past its end: it has %zu bytes, and an address takes 8\n",
                    l->where, (unsigned long long)l->offset, pl->shared.names[l->buffer], a->nbytes);
            return false;
        }
        if (l->target_offset >= target_size && !(l->target_offset == 0 && target_size == 0)) {
            fprintf(stderr, "%s: error: byte %llu of buffer %s is past its end (%zu bytes)\n", l->where,
                    (unsigned long long)l->target_offset, pl->shared.names[l->target], target_size);
            return false;
        }
        if (!mtlrt_buffer_device_address(pl->shared.buffers[l->target], &addr)) {
            fprintf(stderr, "%s: error: %s\n", l->where, mtlrt_last_error());
            return false;
        }
        addr += l->target_offset;
        unsigned char *p = (unsigned char *)a->data + l->offset;
        for (int k = 0; k < 8; k++)
            p[k] = (unsigned char)(addr >> (8 * k));
    }
    return true;
}

/* Every address line that writes into a buffer a launch binds as an argument buffer lands on one of the kernel's
   address fields (reflection "addresses"): an address elsewhere would be read as data. False after a message. */
static bool check_address_fields(const Pipeline *pl)
{
    for (int i = 0; i < pl->n_launches; i++) {
        const MtlrtReflection *r = pl->prepared[i].k.refl;
        for (uint32_t j = 0; r && j < r->n_params; j++) {
            const MtlrtParam *p = &r->params[j];
            MtlrtBuffer *b = p->kind == MTLRT_PARAM_STORAGE && p->binding < 64 ? pl->prepared[i].bindings[p->binding] : NULL;
            for (int k = 0; b && k < pl->n_addresses; k++) {
                const AddressLine *l = &pl->addresses[k];
                if (pl->shared.buffers[l->buffer] != b)
                    continue;
                bool field = false;
                for (uint32_t f = 0; f < p->n_addresses && !field; f++)
                    field = l->offset >= p->addresses[f].offset && l->offset < p->addresses[f].offset + 8ull * p->addresses[f].count;
                if (field)
                    continue;
                fprintf(stderr, "%s: error: byte %llu of buffer %s is not where kernel %s keeps a device address in "
                        "its buffer %u (%s)%s", l->where, (unsigned long long)l->offset, pl->shared.names[l->buffer],
                        r->entry, p->index, p->name, p->n_addresses ? "; it keeps them at:" : ", which holds none");
                for (uint32_t f = 0; f < p->n_addresses; f++)
                    fprintf(stderr, " %s (bytes %u..%u)", p->addresses[f].member, p->addresses[f].offset,
                            p->addresses[f].offset + 8 * p->addresses[f].count - 1);
                fputc('\n', stderr);
                fprintf(stderr, "  (in the launch at %s)\n", pl->where[i]);
                return false;
            }
        }
    }
    return true;
}

/* Shared buffers created and filled (device addresses written into them); every launch prepared. */
static bool prepare_all(Pipeline *pl, const Options *o, MtlrtContext *ctx)
{
    for (int i = 0; i < pl->shared.n; i++) {
        MtlrtArray *a = &pl->shared.arrays[i];
        if (!mtlrun_load_array(pl->shared_text[i], SOURCE_ARRAY, o->poison, a) ||
            !(pl->shared.buffers[i] = mtlrt_buffer_create(ctx, a->nbytes)))
            return false;
    }
    if (!write_addresses(pl))
        return false;
    for (int i = 0; i < pl->shared.n; i++)
        if (!mtlrt_buffer_write(pl->shared.buffers[i], pl->shared.arrays[i].data, pl->shared.arrays[i].nbytes))
            return false;
    for (int i = 0; i < pl->n_launches; i++)
        if (!mtlrun_prepare(o, &pl->launches[i], ctx, &pl->shared, &pl->prepared[i])) {
            fprintf(stderr, "  (in the launch at %s)\n", pl->where[i]);
            return false;
        }
    return check_address_fields(pl);
}

/* Every launch into one list, submitted and waited for; --timestamps prints the list's GPU time. */
static bool run_all(Pipeline *pl, const Options *o, MtlrtContext *ctx)
{
    MtlrtCommands *c = mtlrt_commands_create(ctx);
    bool ok = c != NULL;
    for (int i = 0; ok && i < pl->n_launches; i++)
        if (!(ok = mtlrt_commands_dispatch(c, pl->prepared[i].pipe, &pl->prepared[i].d)))
            fprintf(stderr, "  (in the launch at %s)\n", pl->where[i]);
    ok = ok && mtlrt_commands_submit(c) && mtlrt_commands_wait(c, UINT64_MAX) == MTLRT_OK;
    double ms;
    if (ok && o->timestamps) {
        ok = mtlrt_commands_gpu_time(c, &ms);
        if (ok)
            printf("gpu_time_ms: %.6f\n", ms);
    }
    if (ok && !o->quiet)
        fprintf(stderr, "mtlrun: %s: %u dispatches in one submission, %u barriers between dependent ones\n", pl->path,
                mtlrt_commands_count(c), mtlrt_commands_barriers(c));
    mtlrt_commands_destroy(c);
    return ok;
}

/* Outputs written, references compared. */
static bool outputs(Pipeline *pl, const Options *o)
{
    bool ok = true;
    for (int i = 0; i < o->n_outs; i++) {
        int s = output_buffer(pl, &o->outs[i]);
        MtlrtArray *a = &pl->shared.arrays[s];
        ok = ok && mtlrt_buffer_read(pl->shared.buffers[s], a->data, a->nbytes) && mtlrt_npy_write(o->outs[i].text, a);
    }
    for (int i = 0; i < o->n_checks; i++) {
        int s = output_buffer(pl, &o->checks[i]);
        MtlrtArray *a = &pl->shared.arrays[s];
        char what[96];
        snprintf(what, sizeof what, "buffer %s", pl->shared.names[s]);
        ok = mtlrt_buffer_read(pl->shared.buffers[s], a->data, a->nbytes) &&
             mtlrun_check_array(o, a, what, o->checks[i].text) && ok;
    }
    return ok;
}

static void pipeline_free(Pipeline *pl)
{
    for (int i = 0; i < pl->n_launches; i++) {
        mtlrun_prepared_free(&pl->prepared[i]);
        mtlrun_launch_free(&pl->launches[i]);
    }
    for (int i = 0; i < pl->shared.n; i++) {
        free(pl->shared.names[i]);
        mtlrt_array_free(&pl->shared.arrays[i]);
        mtlrt_buffer_destroy(pl->shared.buffers[i]);
    }
    free(pl->text);
    free(pl->addresses);
    free(pl);
}

int mtlrun_pipeline(Options *o, MtlrtContext *ctx)
{
    Pipeline *pl = calloc(1, sizeof *pl);
    if (!pl)
        return EXIT_FAIL;
    pl->path = o->pipeline;
    int status = EXIT_FAIL;
    if (!parse_file(pl, o))
        status = EXIT_USAGE;
    else if (check_outputs(pl, o) && prepare_all(pl, o, ctx) && run_all(pl, o, ctx) && outputs(pl, o))
        status = EXIT_OK;
    pipeline_free(pl);
    return status;
}
