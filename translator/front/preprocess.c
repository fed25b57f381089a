/* preprocess.c: clang's own preprocessor, run first, and the map from its output back to the sources.
 *
 * Every later stage sees the program after preprocessing, so a kernel, an attribute or an instantiation made by a
 * macro in any header is text like any other (templates.c, parse.c). The preprocessor is the clang that matches the
 * libclang we link (`clang -E`, same language options as the parse). Its output keeps line markers
 * (`# 12 "path" 2 3`): PpMap reads them, so that any offset of the output names the file and line it came from.
 * clang -E keeps the first token of a line at its column and writes one space between tokens; the column of a
 * token is found again by matching it in the original line (the n-th `x` of the output line is the n-th `x` of the
 * source line), and a token that a macro made points at the first token of the line that used the macro.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

#ifndef MTL2GLSL_CLANG
#define MTL2GLSL_CLANG "clang"
#endif

extern char **environ;

/* Env MTL2GLSL_CLANG, else the clang found at configure time (the one of the linked libclang). */
static const char *clang_path(void)
{
    const char *env = getenv("MTL2GLSL_CLANG");
    return env && *env ? env : MTL2GLSL_CLANG;
}

/* ---- running clang -E ---- */

/* Reads FD until it would block or ends; false at the end. */
static bool drain(int fd, StrBuf *into)
{
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
        sb_printf(into, "%.*s", (int)n, buf);
        return true;
    }
    return n < 0 && (errno == EINTR || errno == EAGAIN);
}

/* Runs ARGV, collecting its standard output and error. Returns the exit status (-1: could not run, 128+N: signal,
   -2: its output passed M2G_MAX_PREPROCESSED_BYTES and it was stopped). */
static int run_collect(const char *const *argv, StrBuf *out, StrBuf *err)
{
    int po[2], pe[2];
    if (pipe(po) || pipe(pe))
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (rc) {
        close(po[0]);
        close(pe[0]);
        return -1;
    }
    struct pollfd fds[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
    StrBuf *into[2] = {out, err};
    bool too_large = false;
    for (int open_fds = 2; open_fds;) {
        if (!too_large && (out->len > M2G_MAX_PREPROCESSED_BYTES || err->len > M2G_MAX_PREPROCESSED_BYTES)) {
            too_large = true; /* an include bomb: stop it, read what is left until the pipes close */
            kill(pid, SIGKILL);
        }
        if (poll(fds, 2, -1) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++)
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) && !drain(fds[i].fd, into[i])) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return too_large ? -2 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* clang's own diagnostics (one line each with -fno-caret-diagnostics), printed through diag.c. */
static void report_pp_diagnostics(Arena *a, Diag *d, char *text)
{
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        const char *kinds[] = {": fatal error: ", ": error: ", ": warning: "};
        for (int k = 0; k < 3; k++) {
            char *at = strstr(line, kinds[k]);
            if (!at)
                continue;
            *at = 0;
            SrcLoc loc = {0};
            char *c2 = strrchr(line, ':'), *c1 = NULL;
            if (c2) {
                *c2 = 0;
                c1 = strrchr(line, ':');
            }
            if (c1) {
                *c1 = 0;
                loc = (SrcLoc){arena_strdup(a, line), atoi(c1 + 1), atoi(c2 + 1)};
            }
            if (k < 2)
                diag_error(d, loc, "%s", at + strlen(kinds[k]));
            else
                diag_warning(d, loc, "%s", at + strlen(kinds[k]));
            break;
        }
        line = next;
    }
}

/* The directory part of PATH ("." when none). */
static char *dir_of(Arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? arena_printf(a, "%.*s", (int)(slash - path) + (slash == path), path) : arena_strdup(a, ".");
}

static bool line_marker(Arena *a, const char *t, int *line, char **file, bool *system);

/* Every file the preprocessor entered (a line marker with flag 1) is a regular file of at most M2G_MAX_FILE_BYTES:
   an `#include "/dev/zero"`, a FIFO or a directory is an error at the #include. clang reads what it includes itself,
   so this runs on its output; the translator's own later reads of those files (source lines of diagnostics) go
   through file_read, which checks the same. */
static bool check_included_files(Arena *a, Diag *d, const char *text, size_t len)
{
    bool ok = true;
    const char *cur = NULL;
    int cur_line = 1;
    for (size_t off = 0; off < len;) {
        const char *t = text + off, *nl = memchr(t, '\n', len - off);
        int line;
        char *file, why[160];
        bool system;
        if (line_marker(a, t, &line, &file, &system)) {
            bool enter = false;
            for (const char *p = t + 2; p < (nl ? nl : text + len); p++)
                enter |= p[0] == ' ' && p[1] == '1' && (p + 2 == (nl ? nl : text + len) || p[2] == ' ');
            if (enter && file[0] != '<' && !file_check(file, M2G_MAX_FILE_BYTES, why, sizeof why)) {
                diag_error(d, (SrcLoc){cur, cur ? cur_line : 0, 1}, "cannot include '%s': %s", file, why);
                ok = false;
            }
            cur = file[0] == '<' ? NULL : file;
            cur_line = line;
        } else {
            cur_line++;
        }
        off = nl ? (size_t)(nl - text) + 1 : len;
    }
    return ok;
}

char *pp_run(Arena *a, Diag *d, PpOptions *opt, size_t *len)
{
    const char *argv[160];
    int n = 0;
    argv[n++] = clang_path();
    for (const char *const *f = opt->lang_flags; *f; f++)
        argv[n++] = *f;
    argv[n++] = "-E";
    argv[n++] = "-ferror-limit=0";
    argv[n++] = "-fno-caret-diagnostics";
    argv[n++] = "-fno-color-diagnostics";
    argv[n++] = "-fno-diagnostics-show-option";
    argv[n++] = arena_printf(a, "-D__METAL_VERSION__=%d", opt->metal_version);
    argv[n++] = "-isystem";
    argv[n++] = opt->grammar_dir;
    argv[n++] = "-include"; /* what Apple's compiler knows before any #include: __METAL__, float4, thread_scope */
    argv[n++] = "metal_types";
    argv[n++] = "-iquote";
    argv[n++] = dir_of(a, opt->path);
    for (int i = 0; opt->include_dirs && opt->include_dirs[i] && n < 120; i++)
        argv[n++] = arena_printf(a, "-I%s", opt->include_dirs[i]);
    for (int i = 0; opt->defines && opt->defines[i] && n < 150; i++)
        argv[n++] = arena_printf(a, "-D%s", opt->defines[i]);
    char tmp[64];
    const char *tdir = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/mtl2glsl-XXXXXX.metal", tdir && *tdir && strlen(tdir) < 40 ? tdir : "/tmp");
    const char *input = opt->path;
    char why[160];
    if (!opt->text && !file_check(opt->path, M2G_MAX_FILE_BYTES, why, sizeof why)) {
        diag_error(d, (SrcLoc){0}, "cannot read '%s': %s", opt->path, why);
        return NULL;
    }
    if (opt->text) { /* in memory (kernel specs): through a temporary file, named PATH by a line marker */
        int fd = mkstemps(tmp, 6);
        StrBuf t = {0};
        sb_printf(&t, "# 1 \"%s\"\n%s", opt->path, opt->text);
        bool ok = fd >= 0 && write(fd, t.data, t.len) == (ssize_t)t.len;
        free(t.data);
        if (fd >= 0)
            close(fd);
        if (!ok) {
            diag_error(d, (SrcLoc){0}, "cannot write a temporary file for the preprocessor: %s", strerror(errno));
            return NULL;
        }
        input = tmp;
        snprintf(opt->temp_path, sizeof opt->temp_path, "%s", tmp);
    }
    argv[n++] = input;
    argv[n] = NULL;
    StrBuf out = {0}, err = {0};
    sb_puts(&out, "");
    sb_puts(&err, "");
    int rc = run_collect(argv, &out, &err);
    if (opt->text)
        unlink(tmp);
    report_pp_diagnostics(a, d, err.data);
    free(err.data);
    if (rc != 0) {
        if (rc == -2)
            diag_error(d, (SrcLoc){0}, "'%s' with the headers it includes is more than %ld bytes after preprocessing, "
                       "the limit (docs/limits.md)", opt->path, M2G_MAX_PREPROCESSED_BYTES);
        else if (rc < 0)
            diag_error(d, (SrcLoc){0}, "cannot run the preprocessor '%s' (set MTL2GLSL_CLANG to a clang): %s",
                       argv[0], strerror(errno));
        else if (rc >= 128)
            diag_error(d, (SrcLoc){0}, "the preprocessor '%s' stopped with signal %d", argv[0], rc - 128);
        else if (!d->n_errors)
            diag_error(d, (SrcLoc){0}, "the preprocessor '%s' failed on '%s' (exit %d)", argv[0], opt->path, rc);
        free(out.data);
        return NULL;
    }
    if (!check_included_files(a, d, out.data, out.len)) {
        free(out.data);
        return NULL;
    }
    *len = out.len;
    return out.data;
}

/* ---- the line map ---- */

/* `# LINE "FILE" FLAGS` at TEXT (a line start): fills the parts and returns true. */
static bool line_marker(Arena *a, const char *t, int *line, char **file, bool *system)
{
    if (t[0] != '#' || t[1] != ' ' || t[2] < '0' || t[2] > '9')
        return false;
    char *end;
    *line = (int)strtol(t + 2, &end, 10);
    if (end[0] != ' ' || end[1] != '"')
        return false;
    StrBuf name = {0};
    const char *p = end + 2;
    for (; *p && *p != '"' && *p != '\n'; p++) {
        if (*p == '\\' && p[1] && p[1] != '\n')
            p++;
        sb_printf(&name, "%c", *p);
    }
    *file = arena_strdup(a, name.data ? name.data : "");
    free(name.data);
    *system = false;
    for (; *p && *p != '\n'; p++)
        if (p[0] == ' ' && p[1] == '3' && (p[2] == ' ' || p[2] == '\n' || !p[2]))
            *system = true;
    return true;
}

static int file_index(PpMap *m, const char *path, bool system)
{
    for (int i = 0; i < m->files.len; i++)
        if (!strcmp(((PpFile *)m->files.items[i])->path, path))
            return i;
    PpFile *f = arena_alloc(m->arena, sizeof *f);
    f->path = path;
    f->system = system;
    pv_push(&m->files, f);
    return m->files.len - 1;
}

void pp_map_build(PpMap *m, Arena *a, const char *text, size_t len)
{
    *m = (PpMap){.arena = a, .text = text, .len = len};
    int cap = 1024;
    m->lines = malloc(sizeof *m->lines * (size_t)cap);
    int cur_file = -1, cur_line = 1;
    for (size_t off = 0; off <= len;) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t end = nl ? (size_t)(nl - text) : len;
        int mline;
        char *mfile;
        bool system;
        if (m->n_lines == cap)
            m->lines = realloc(m->lines, sizeof *m->lines * (size_t)(cap *= 2));
        PpLine *l = &m->lines[m->n_lines++];
        *l = (PpLine){.off = (unsigned)off, .file = -1};
        if (line_marker(a, text + off, &mline, &mfile, &system)) {
            cur_file = mfile[0] == '<' ? -1 : file_index(m, mfile, system);
            if (cur_file >= 0)
                ((PpFile *)m->files.items[cur_file])->system = system;
            cur_line = mline;
        } else {
            l->file = cur_file, l->line = cur_line++;
        }
        if (!nl)
            break;
        off = end + 1;
    }
}

void pp_map_free(PpMap *m)
{
    for (int i = 0; i < m->files.len; i++)
        free(((PpFile *)m->files.items[i])->line_starts);
    free(m->lines);
    pv_free(&m->files);
    m->lines = NULL;
}

/* The index of the line holding OFF. */
static int line_of(const PpMap *m, unsigned off)
{
    int lo = 0, hi = m->n_lines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (m->lines[mid].off <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The text of F as read (or as given in SOURCES) with its line starts, loaded once; false when it cannot be had. */
static bool file_lines(PpMap *m, PpFile *f)
{
    if (f->loaded)
        return f->text != NULL;
    f->loaded = true;
    for (int i = 0; m->sources && m->sources[i] && m->sources[i + 1]; i += 2)
        if (!strcmp(m->sources[i], f->path))
            f->text = m->sources[i + 1];
    if (!f->text) {
        char why[160];
        char *t = file_read(f->path, M2G_MAX_FILE_BYTES, NULL, why, sizeof why);
        if (!t)
            return false;
        f->text = arena_strdup(m->arena, t);
        free(t);
    }
    int cap = 256;
    f->line_starts = malloc(sizeof *f->line_starts * (size_t)cap);
    for (const char *p = f->text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (f->n_lines == cap)
            f->line_starts = realloc(f->line_starts, sizeof *f->line_starts * (size_t)(cap *= 2));
        f->line_starts[f->n_lines++] = p;
    }
    return true;
}

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The next token of [p, end) (identifier, number, string or character literal, or one character); *N its length.
   NULL at the end. */
static const char *next_token(const char *p, const char *end, size_t *n)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    if (p >= end)
        return NULL;
    size_t k = 1;
    if (is_ident(*p)) {
        while (p + k < end && is_ident(p[k]))
            k++;
    } else if (*p == '"' || *p == '\'') {
        while (p + k < end && p[k] != *p)
            k += p[k] == '\\' ? 2 : 1;
        k = p + k < end ? k + 1 : (size_t)(end - p);
    }
    *n = k;
    return p;
}

/* The column (1-based) in the original line ORIG of the output token at AT on output line [ls, le). The tokens of
   both lines are aligned in order: an output token found a little further on in the original line (at most
   ALIGN_LOOKAHEAD tokens) is that one; one that is not there was made by a macro (or rewritten) and points at the
   original token where the alignment stands (the macro's name). The alignment reached is kept in M, so that the
   columns of a long line, asked for left to right, cost one pass over it, not one per token. */
enum { ALIGN_LOOKAHEAD = 64 };

static int original_column(PpMap *m, const char *ls, const char *le, const char *at, const char *orig)
{
    if (m->orig_line != orig) /* its end, once per original line */
        m->orig_line = orig, m->orig_end = orig + strcspn(orig, "\n");
    const char *oe = m->orig_end, *o = orig, *t = ls;
    size_t n, on;
    if (m->align_line == ls && m->align_orig == orig && m->align_t <= at) /* resume */
        t = m->align_t, o = m->align_o;
    for (t = next_token(t, le, &n); t; t = next_token(t + n, le, &n)) {
        const char *hit = NULL;
        int k = 0;
        for (const char *q = next_token(o, oe, &on); q && !hit && k < ALIGN_LOOKAHEAD; q = next_token(q + on, oe, &on), k++)
            if (on == n && !memcmp(q, t, n))
                hit = q;
        if (t >= at) {
            m->align_line = ls, m->align_orig = orig, m->align_t = t, m->align_o = o;
            const char *here = hit ? hit : next_token(o, oe, &on);
            return here ? (int)(here - orig) + 1 : (int)(strspn(orig, " \t")) + 1;
        }
        if (hit)
            o = hit + n;
    }
    return (int)(strspn(orig, " \t")) + 1;
}

SrcLoc pp_loc(PpMap *m, unsigned off)
{
    if (!m->lines || off > m->len)
        return (SrcLoc){0};
    int li = line_of(m, off);
    const PpLine *l = &m->lines[li];
    if (l->file < 0)
        return (SrcLoc){0};
    PpFile *f = m->files.items[l->file];
    /* the line's end from the next line's start: a search would cost the line's length per call */
    const char *ls = m->text + l->off, *le = li + 1 < m->n_lines ? m->text + m->lines[li + 1].off - 1 : m->text + m->len;
    if (le < ls || (le < m->text + m->len && *le != '\n'))
        le = ls + strcspn(ls, "\n");
    int col = (int)(off - l->off) + 1;
    if (file_lines(m, f) && l->line >= 1 && l->line <= f->n_lines && m->text + off < le)
        col = original_column(m, ls, le, m->text + off, f->line_starts[l->line - 1]);
    return (SrcLoc){f->path, l->line, col};
}

SrcLoc pp_loc_line(PpMap *m, unsigned off)
{
    SrcLoc l = pp_loc(m, off);
    if (!l.file)
        return l;
    const PpLine *pl = &m->lines[line_of(m, off)];
    PpFile *f = m->files.items[pl->file];
    l.col = file_lines(m, f) && l.line <= f->n_lines ? (int)strspn(f->line_starts[l.line - 1], " \t") + 1 : 1;
    return l;
}

bool pp_in_system_file(const PpMap *m, unsigned off)
{
    if (!m->lines || off > m->len)
        return false;
    const PpLine *l = &m->lines[line_of(m, off)];
    return l->file >= 0 && ((PpFile *)m->files.items[l->file])->system;
}

/* ---- floating literals ---- */

/* `#pragma unroll(N)` and `#pragma clang loop ...`: hints for Apple's compiler whose arguments the preprocessor does
   not expand (`#pragma unroll(MIN(a, b))` would name an undefined macro to the parse). */
static bool is_loop_pragma(const char *l, size_t n)
{
    size_t i = 1;
    while (i < n && (l[i] == ' ' || l[i] == '\t'))
        i++;
    if (n - i < 6 || strncmp(l + i, "pragma", 6))
        return false;
    i += 6;
    while (i < n && (l[i] == ' ' || l[i] == '\t'))
        i++;
    return (n - i >= 6 && !strncmp(l + i, "unroll", 6)) || (n - i >= 8 && !strncmp(l + i, "nounroll", 8)) ||
           (n - i >= 10 && !strncmp(l + i, "clang loop", 10));
}

/* What loop pragma L (N bytes, is_loop_pragma) asks that GLSL can say (GL_EXT_control_flow_attributes): "unroll"
   for a whole unrolling (`#pragma unroll`, `clang loop unroll(full)` or `unroll(enable)`), "dont_unroll" for none
   (`#pragma nounroll`, `clang loop unroll(disable)`, a count of 1), NULL for what it cannot (a count of more than
   one: GLSL unrolls wholly or not at all; vectorize and interleave hints). */
static const char *loop_pragma_hint(const char *l, size_t n)
{
    char buf[160];
    size_t k = 0;
    for (size_t i = 1; i < n && k + 1 < sizeof buf; i++) /* without '#' and blanks: "pragmaclangloopunroll(full)" */
        if (l[i] != ' ' && l[i] != '\t')
            buf[k++] = l[i];
    buf[k] = 0;
    const char *p = buf + 6; /* past "pragma" */
    if (!strcmp(p, "unroll") || !strcmp(p, "clangloopunroll(full)") || !strcmp(p, "clangloopunroll(enable)"))
        return "unroll";
    if (!strcmp(p, "nounroll") || !strcmp(p, "clangloopunroll(disable)") || !strcmp(p, "unroll(1)") || !strcmp(p, "unroll1") ||
        !strcmp(p, "clangloopunroll_count(1)"))
        return "dont_unroll";
    return NULL;
}

/* Metal has no double: an unsuffixed floating literal (`0.5`, `1e-6`, `2.`) is a float. clang's OpenCL mode without
   fp64 makes it a float outside templates but keeps it a double inside them (a vector times `0.5` is then an
   error), so the suffix is written: `0.5` -> `0.5f`. Literals with a suffix (`0.5h`, `1.0f`), integers, and
   everything in line markers, pragmas and string or character literals are left alone.
   Also turns loop pragmas (is_loop_pragma) into `#pragma mtl2glsl_loop HINT` (loop_pragma_hint), which the parser
   takes out again and gives to the loop that follows, and drops the ones with no hint GLSL can give. */
char *pp_float_literals(const char *t, size_t len, size_t *out_len)
{
    StrBuf out = {0};
    sb_puts(&out, "");
    for (size_t i = 0; i < len;) {
        char c = t[i];
        if (c == '#' && (i == 0 || t[i - 1] == '\n')) {
            size_t e = i;
            while (e < len && t[e] != '\n')
                e++;
            if (!is_loop_pragma(t + i, e - i)) {
                sb_append(&out, t + i, e - i);
            } else { /* its arguments were not macro-expanded */
                const char *hint = loop_pragma_hint(t + i, e - i);
                if (hint) {
                    sb_puts(&out, "#pragma mtl2glsl_loop ");
                    sb_puts(&out, hint);
                }
            }
            i = e;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t e = i + 1;
            while (e < len && t[e] != c && t[e] != '\n')
                e += t[e] == '\\' ? 2 : 1;
            e = e < len ? e + 1 : len;
            sb_append(&out, t + i, e - i);
            i = e;
            continue;
        }
        bool starts_number = (c >= '0' && c <= '9') || (c == '.' && i + 1 < len && t[i + 1] >= '0' && t[i + 1] <= '9');
        if (!starts_number || (i && (is_ident(t[i - 1]) || t[i - 1] == '.'))) {
            size_t e = i + 1;
            while (e < len && is_ident(t[e]) && is_ident(c))
                e++;
            sb_append(&out, t + i, e - i);
            i = e;
            continue;
        }
        /* a pp-number: digits, letters, '.', and a sign after an exponent letter */
        size_t e = i;
        bool hex = c == '0' && i + 1 < len && (t[i + 1] == 'x' || t[i + 1] == 'X');
        bool floating = false;
        while (e < len) {
            char d = t[e];
            if (d == '.')
                floating = true;
            else if ((d == 'e' || d == 'E') && !hex)
                floating = true;
            else if ((d == 'p' || d == 'P') && hex)
                floating = true;
            if ((d == '+' || d == '-') && e > i && strchr(hex ? "pP" : "eE", t[e - 1])) {
                e++;
                continue;
            }
            if (!is_ident(d) && d != '.')
                break;
            e++;
        }
        sb_append(&out, t + i, e - i);
        char last = t[e - 1];
        bool suffixed = (last >= 'a' && last <= 'z') || (last >= 'A' && last <= 'Z');
        if (hex && floating) /* 0x1p-3: the last letter is no suffix unless it follows the exponent's digits */
            suffixed = last == 'f' || last == 'F' || last == 'h' || last == 'H' || last == 'l' || last == 'L';
        if (floating && !suffixed)
            sb_puts(&out, "f");
        i = e;
    }
    *out_len = out.len;
    return out.data;
}

/* ---- constructors qualified by `thread` ----
 * MLX writes `constexpr complex_t(T r, T i) thread : ...` and `METAL_FUNC MMATile() thread {}`. In clang's OpenCL mode
 * a `__private`-qualified constructor cannot make the value of `return {a, b};` nor a member of another object
 * (BlockMMA's tiles "have no default constructor"). The `thread` (by now `__private`) qualifier of a constructor is
 * blanked, so it constructs objects in any space, as Metal's does. A constructor is told from a member function by
 * what comes before its name: nothing but specifiers (`constexpr`, `explicit`, `inline`, an `__attribute__`) and a
 * template head, not a return type. Member functions keep theirs: their `this` must stay a `thread` pointer. In place.
 */

/* Index of the start of the token before T[i] ('(' groups of __attribute__((...)) skipped), or -1. */
static long token_before(const char *t, long i)
{
    while (i > 0 && isspace((unsigned char)t[i - 1]))
        i--;
    if (i <= 0)
        return -1;
    if (t[i - 1] == ')') { /* an __attribute__((...)): skip it */
        long k = i - 1;
        for (int depth = 0; k >= 0; k--) {
            depth += t[k] == ')' ? 1 : t[k] == '(' ? -1 : 0;
            if (depth == 0)
                break;
        }
        long w = k;
        while (w > 0 && isspace((unsigned char)t[w - 1]))
            w--;
        if (w >= 13 && !strncmp(t + w - 13, "__attribute__", 13))
            return token_before(t, w - 13);
        return i - 1;
    }
    long s = i;
    while (s > 0 && is_ident(t[s - 1]))
        s--;
    return s < i ? s : i - 1;
}

void pp_constructor_spaces(char *t, size_t len)
{
    for (char *p = t; (p = memmem(p, len - (size_t)(p - t), "__private", 9)); p += 9) {
        long close = p - t;
        while (close > 0 && (t[close - 1] == ' ' || t[close - 1] == '\t'))
            close--;
        if (close <= 0 || t[close - 1] != ')' || is_ident(p[9]))
            continue;
        const char *after = p + 9;
        while (after < t + len && (*after == ' ' || *after == '\t'))
            after++;
        if (after >= t + len || !(strchr("{:=", after[0])) || (after[0] == ':' && after[1] == ':'))
            continue;
        long open = close - 1; /* the parameter list's '(' */
        for (int depth = 0; open >= 0; open--) {
            depth += t[open] == ')' ? 1 : t[open] == '(' ? -1 : 0;
            if (depth == 0)
                break;
        }
        long name = token_before(t, open);
        if (name < 0 || !is_ident(t[name]) || (t[name] >= '0' && t[name] <= '9'))
            continue;
        bool ctor = true;
        for (long k = token_before(t, name); ctor && k >= 0; k = token_before(t, k)) {
            if (t[k] == ':' && k > 0 && t[k - 1] == ':') { /* `C<..>::name(...) thread`: a constructor if name is C */
                long e = k - 1, c = e;
                while (c > 0 && isspace((unsigned char)t[c - 1]))
                    c--;
                if (c > 0 && t[c - 1] == '>') /* the class's template arguments */
                    for (int depth = 0; c > 0; c--) {
                        depth += t[c - 1] == '>' ? 1 : t[c - 1] == '<' ? -1 : 0;
                        if (depth == 0) {
                            c--;
                            break;
                        }
                    }
                while (c > 0 && isspace((unsigned char)t[c - 1]))
                    c--;
                long cs = c;
                while (cs > 0 && is_ident(t[cs - 1]))
                    cs--;
                long nl = name;
                while (is_ident(t[nl]))
                    nl++;
                ctor = c - cs == nl - name && !strncmp(t + cs, t + name, (size_t)(nl - name));
                break;
            }
            if (strchr("{};:", t[k]))
                break;
            if (t[k] == '>') { /* `template <typename U> constexpr complex_t(U x) thread`: skip the template head */
                long lt = k;
                for (int depth = 0; lt >= 0; lt--) {
                    depth += t[lt] == '>' ? 1 : t[lt] == '<' ? -1 : 0;
                    if (depth == 0)
                        break;
                }
                long kw = lt > 0 ? token_before(t, lt) : -1;
                if (kw >= 0 && !strncmp(t + kw, "template", 8) && !is_ident(t[kw + 8])) {
                    k = kw;
                    continue;
                }
            }
            static const char *const spec[] = {"constexpr", "explicit", "inline", "static", "__attribute__"};
            bool is_spec = false;
            for (size_t q = 0; q < sizeof spec / sizeof *spec; q++)
                is_spec |= !strncmp(t + k, spec[q], strlen(spec[q])) && !is_ident(t[k + (long)strlen(spec[q])]);
            ctor = is_spec;
        }
        if (ctor)
            memset(p, ' ', 9);
    }
}

/* ---- constant pointers and references ----
 * Metal's `constant` memory is read-only, and a `constant T*` parameter takes a `constexpr constant T[]` table (ggml's
 * kvalues). To clang a `constant float *` points to non-const floats and refuses the table, so a `constant` that a
 * pointer or reference declarator follows gets `const`: `constant const float *`. In place: the text grows, so this
 * returns a new text. */
char *pp_constant_const(const char *t, size_t len, size_t *out_len)
{
    StrBuf out = {0};
    sb_puts(&out, "");
    size_t at = 0;
    for (const char *p = t; (p = memmem(p, len - (size_t)(p - t), "constant", 8)); p += 8) {
        size_t i = (size_t)(p - t);
        if ((i && (is_ident(t[i - 1]))) || (i + 8 < len && is_ident(t[i + 8])))
            continue;
        size_t b = i; /* `const constant` already */
        while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
            b--;
        if (b >= 5 && !strncmp(t + b - 5, "const", 5) && (b == 5 || !is_ident(t[b - 6])))
            continue;
        size_t e = i + 8, depth = 0; /* the declarator: a type, then '*' or '&' before any of ;,)={ */
        for (; e < len && e - i < 4096; e++) { /* bounded: `constant constant ...` must not take n^2 */
            char c = t[e];
            if (c == '<')
                depth++;
            else if (c == '>' && depth)
                depth--;
            else if (!depth && strchr(";,)={(\n[", c))
                break;
            else if (!depth && (c == '*' || c == '&'))
                break;
        }
        if (e >= len || (t[e] != '*' && t[e] != '&'))
            continue;
        const char *kw = t + i + 8; /* `constant const T*` already */
        while (*kw == ' ' || *kw == '\t')
            kw++;
        if (!strncmp(kw, "const", 5) && !is_ident(kw[5]))
            continue;
        sb_append(&out, t + at, i + 8 - at);
        sb_puts(&out, " const");
        at = i + 8;
    }
    sb_append(&out, t + at, len - at);
    *out_len = out.len;
    return out.data;
}

/* ---- limits on the text clang parses ---- */

static bool is_keyword(const char *t, size_t n, const char *kw)
{
    return strlen(kw) == n && !memcmp(t, kw, n);
}

/* Depth estimate (M2G_MAX_PARSE_DEPTH): LEVEL[k] is the weight at bracket depth k: an expression's weight counts its
   operators and the brackets around it, plus the statement chain it is in (if/else/loop keywords since the last
   statement that ended without an `else` after it). `,` and `;` go back to the weight the bracket or block had when
   it opened. Past the limit: an error at that token. */
typedef struct DepthScan {
    int level[M2G_MAX_PARSE_DEPTH + 8];
    int base[M2G_MAX_PARSE_DEPTH + 8];
    int n;
} DepthScan;

static bool depth_push(DepthScan *s, int weight)
{
    if (s->n + 1 >= (int)(sizeof s->level / sizeof *s->level))
        return false;
    s->n++;
    s->base[s->n] = s->level[s->n] = weight;
    return true;
}

bool pp_check_limits(PpMap *m, Diag *d)
{
    const char *t = m->text;
    size_t len = m->len;
    DepthScan *s = calloc(1, sizeof *s);
    bool ok = s != NULL;
    for (size_t i = 0; ok && i < len;) {
        char c = t[i];
        size_t start = i;
        if (c == '#' && (i == 0 || t[i - 1] == '\n')) { /* line markers and pragmas */
            while (i < len && t[i] != '\n')
                i++;
            continue;
        }
        if (c == '"' || c == '\'') {
            for (i++; i < len && t[i] != c && t[i] != '\n'; i++)
                i += t[i] == '\\' && i + 1 < len;
            i++;
            continue;
        }
        if (is_ident(c) || (unsigned char)c >= 0x80) {
            while (i < len && (is_ident(t[i]) || (unsigned char)t[i] >= 0x80 || t[i] == '$'))
                i++;
            if (i - start > M2G_MAX_IDENTIFIER && !(c >= '0' && c <= '9')) {
                diag_error(d, pp_loc(m, (unsigned)start), "identifier of %zu characters: the limit is %d "
                           "(docs/limits.md)", i - start, M2G_MAX_IDENTIFIER);
                ok = false;
            }
            static const char *const chain[] = {"if", "else", "for", "while", "do", "switch", "case"};
            for (size_t k = 0; k < sizeof chain / sizeof *chain; k++)
                if (is_keyword(t + start, i - start, chain[k]))
                    s->level[s->n]++;
        } else if (c == '(' || c == '[' || c == '{') {
            ok = depth_push(s, s->level[s->n] + (c != '{'));
            i++;
        } else if (c == ')' || c == ']' || c == '}') {
            s->n -= s->n > 0;
            i++;
            size_t next = i;
            while (next < len && (t[next] == ' ' || t[next] == '\t'))
                next++;
            if (c == '}')
                s->level[s->n] = s->base[s->n]; /* a block ends a statement */
            else if (c == ')' && next < len && (is_ident(t[next]) || strchr("(!~", t[next])))
                s->level[s->n]++; /* a cast, `(float)(int)x`: its operand is inside it */
        } else if (c == ';' || c == ',') {
            size_t next = i + 1; /* `x; else`: the if-else chain goes on */
            while (next < len && isspace((unsigned char)t[next]))
                next++;
            bool chain = c == ';' && len - next >= 4 && !memcmp(t + next, "else", 4) && !is_ident(t[next + 4]);
            if (!chain)
                s->level[s->n] = s->base[s->n];
            i++;
        } else if (isspace((unsigned char)c)) {
            i++;
        } else { /* an operator: each character counts (`!!!x` is 3 deep, `<<=` counts 3, more than it is) */
            s->level[s->n]++;
            i++;
        }
        if (ok && s->level[s->n] > M2G_MAX_PARSE_DEPTH) {
            diag_error(d, pp_loc(m, (unsigned)start), "expression nested too deeply (more than %d operators, brackets "
                       "and if/else levels inside each other, the limit: docs/limits.md)", M2G_MAX_PARSE_DEPTH);
            ok = false;
        } else if (!ok && s->n + 1 >= (int)(sizeof s->level / sizeof *s->level)) {
            diag_error(d, pp_loc(m, (unsigned)start), "brackets nested too deeply (more than %d, the limit: "
                       "docs/limits.md)", M2G_MAX_PARSE_DEPTH);
        }
    }
    free(s);
    return ok;
}

/* ---- static data members in `constant` ----
 * MLX's reduction ops and Limits<T> hold their values as `static constexpr constant U init = U(0);`. To clang a
 * `__constant` object of class type (complex_t, bfloat) can be neither constant-initialized through its constructors
 * nor copied (the implicit copy operations take `__generic` references, which `__constant` does not bind to).
 * Metal reads them as values, so the `constant` of a static data member of a struct is blanked: clang keeps it a
 * read-only constexpr member. In place.
 */

/* Whether the '{' at T[open] begins a struct, class or union body. */
static bool opens_class_body(const char *t, long open)
{
    long s = open;
    while (s > 0 && !strchr(";{}", t[s - 1]))
        s--;
    static const char *const keys[] = {"struct", "class", "union"};
    for (long i = s; i < open; i++) {
        if (i > 0 && is_ident(t[i - 1]))
            continue;
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (!strncmp(t + i, keys[k], strlen(keys[k])) && !is_ident(t[i + (long)strlen(keys[k])]))
                return true;
    }
    return false;
}

/* Whether the declaration going on at T[i] declares a qualified name, `X<..>::name` (before its '[', '=' or ';'). */
static bool qualified_declarator(const char *t, size_t i, size_t len)
{
    size_t e = i; /* bounded: a declarator is no longer, and `constant constant ...` must not take n^2 */
    for (int angle = 0; e < len && e - i < 4096 && !strchr(";={(", t[e]) && !(angle == 0 && t[e] == '['); e++)
        angle += t[e] == '<' ? 1 : t[e] == '>' ? -1 : 0;
    if (e >= len || e - i >= 4096 || t[e] == '{' || t[e] == '(')
        return false;
    size_t n = e;
    while (n > i && isspace((unsigned char)t[n - 1]))
        n--;
    size_t s = n;
    while (s > i && is_ident(t[s - 1]))
        s--;
    return s < n && s >= i + 2 && t[s - 1] == ':' && t[s - 2] == ':';
}

void pp_static_member_spaces(char *t, size_t len)
{
    /* one pass (hostile text must not take n^2): the '{' each position is inside (a stack, with whether it opens a
       class body, found once per brace), whether `static` came since the last `;`, `{` or `}` */
    long *open = NULL, cap = 0, n = 0;
    signed char *is_class = NULL;
    bool is_static = false;
    int paren = 0; /* since the last `;`, `{` or `}`: a parameter of a static member function is no static member */
    for (size_t i = 0; i < len; i++) {
        char c = t[i];
        paren += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (c == '{' || c == '}' || c == ';') {
            is_static = false;
            paren = 0;
            if (c == '}' && n > 0)
                n--;
            if (c == '{') {
                if (n == cap) {
                    cap = cap ? cap * 2 : 64;
                    open = realloc(open, sizeof *open * (size_t)cap);
                    is_class = realloc(is_class, (size_t)cap);
                }
                open[n] = (long)i, is_class[n++] = -1;
            }
            continue;
        }
        if (!is_ident(c) || (i && is_ident(t[i - 1])))
            continue;
        size_t e = i;
        while (e < len && is_ident(t[e]))
            e++;
        if (e - i == 6 && !strncmp(t + i, "static", 6))
            is_static = true;
        else if (e - i == 8 && !strncmp(t + i, "constant", 8) && is_static && paren == 0 && n > 0) {
            if (is_class[n - 1] < 0)
                is_class[n - 1] = opens_class_body(t, open[n - 1]);
            if (is_class[n - 1])
                memset(t + i, ' ', 8);
        } else if (e - i == 8 && !strncmp(t + i, "constant", 8) && !is_static && paren == 0 &&
                   qualified_declarator(t, e, len)) {
            memset(t + i, ' ', 8); /* its out-of-line definition, `constant constexpr const float X<6>::table[8];` */
        }
        i = e - 1;
    }
    free(open);
    free(is_class);
}

/* ---- vec<T, N> in a partial specialization ----
 * metal::vec<T, N> is the prelude's alias through a struct (so that vec<bfloat, 4> and vec<bool, 2> are the
 * prelude's bfloat4 and bool2), which clang cannot deduce T and N through: MLX's FFTStorageTraits<vec<T, 2>> would
 * never match float2. In the arguments of a class template specialization (`struct X<vec<T, 2>>`), vec is written
 * as the vector type itself, `__mtl_vec_t<T, 2>`, which clang deduces (not where the arguments name bfloat or bool,
 * whose vectors are structs). Returns a new text.
 */
/* Whether the line marker at T (a line start, `# LINE "FILE" FLAGS`) is one; *SYSTEM: whether its file is a system
   header (the prelude). */
static bool marker_is_system(const char *t, size_t len, bool *system)
{
    if (len < 4 || t[0] != '#' || t[1] != ' ' || t[2] < '0' || t[2] > '9')
        return false;
    size_t i = 2;
    while (i < len && t[i] >= '0' && t[i] <= '9')
        i++;
    if (i + 1 >= len || t[i] != ' ' || t[i + 1] != '"')
        return false;
    for (i += 2; i < len && t[i] != '"' && t[i] != '\n'; i++)
        i += t[i] == '\\';
    *system = false;
    for (; i + 1 < len && t[i] != '\n'; i++)
        if (t[i] == ' ' && t[i + 1] == '3' && (i + 2 >= len || t[i + 2] == ' ' || t[i + 2] == '\n'))
            *system = true;
    return true;
}

/* The parameter names of the template head that ends just before T[i] (`template <typename U, int N>` before an alias
   declaration): whether NAME (N bytes) is one of them. */
static bool template_head_names(const char *t, size_t i, const char *name, size_t n)
{
    long k = (long)i;
    while (k > 0 && isspace((unsigned char)t[k - 1]))
        k--;
    if (k <= 0 || t[k - 1] != '>')
        return false;
    long close = k - 1, open = close;
    for (int depth = 0; open >= 0; open--) {
        depth += t[open] == '>' ? 1 : t[open] == '<' ? -1 : 0;
        if (depth == 0)
            break;
    }
    long kw = open;
    while (kw > 0 && isspace((unsigned char)t[kw - 1]))
        kw--;
    if (open < 0 || kw < 8 || strncmp(t + kw - 8, "template", 8) || (kw > 8 && is_ident(t[kw - 9])))
        return false;
    for (long p = open + 1; p + (long)n <= close; p++) /* a parameter: `typename NAME` or `class NAME` */
        if (!strncmp(t + p, name, n) && !is_ident(t[p - 1]) && !is_ident(t[p + (long)n])) {
            long b = p;
            while (b > open && isspace((unsigned char)t[b - 1]))
                b--;
            if ((b - open > 8 && !strncmp(t + b - 8, "typename", 8)) || (b - open > 5 && !strncmp(t + b - 5, "class", 5)))
                return true;
        }
    return false;
}

/* Whether the alias template NAME (N bytes) is needed to deduce through: somewhere in T, a function template's
   parameter list has `NAME<X>` with X a type parameter of that template that no other parameter names
   (`load(thread dtype_frag_t<T>& dst, SrcPtrType src)`). Where X is deduced from another parameter (`const device T*
   src`), the alias may stay the prelude's vec, which takes bfloat and bool too. */
static bool deduced_only_through(const char *t, size_t len, const char *name, size_t n)
{
    for (const char *q = t; (q = memmem(q, len - (size_t)(q - t), name, n)); q += n) {
        size_t p = (size_t)(q - t), k = p + n;
        if ((p && is_ident(t[p - 1])) || (k < len && is_ident(t[k])))
            continue;
        while (k < len && isspace((unsigned char)t[k]))
            k++;
        if (k >= len || t[k] != '<')
            continue;
        size_t x = ++k, xe;
        while (x < len && isspace((unsigned char)t[x]))
            x++;
        for (xe = x; xe < len && is_ident(t[xe]);)
            xe++;
        k = xe;
        while (k < len && isspace((unsigned char)t[k]))
            k++;
        if (xe == x || k >= len || t[k] != '>')
            continue;
        long open = (long)p - 1; /* the parameter list around it */
        for (int depth = 0; open >= 0; open--) {
            char c = t[open];
            if (c == ';' || c == '{' || c == '}')
                break;
            depth += c == ')' ? 1 : c == '(' ? -1 : 0;
            if (depth < 0)
                break;
        }
        if (open < 0 || t[open] != '(')
            continue;
        size_t close = (size_t)open + 1;
        for (int depth = 1; close < len && depth; close++)
            depth += t[close] == '(' ? 1 : t[close] == ')' ? -1 : 0;
        int uses = 0; /* X named elsewhere in the parameters: deduced from there */
        for (size_t u = (size_t)open + 1; u + (xe - x) <= close; u++)
            uses += !strncmp(t + u, t + x, xe - x) && !is_ident(t[u - 1]) && !is_ident(t[u + (xe - x)]);
        if (uses != 1)
            continue;
        long head = open; /* the function's template head: `template <..., typename X, ...>` before it */
        while (head >= 8 && !strchr(";{}", t[head]) &&
               (strncmp(t + head - 8, "template", 8) || (head > 8 && is_ident(t[head - 9])) || is_ident(t[head])))
            head--;
        if (head < 8 || strchr(";{}", t[head]))
            continue;
        size_t lt = (size_t)head;
        while (lt < len && isspace((unsigned char)t[lt]))
            lt++;
        if (lt >= len || t[lt] != '<')
            continue;
        size_t gt = lt;
        for (int depth = 0; gt < (size_t)open; gt++) {
            depth += t[gt] == '<' ? 1 : t[gt] == '>' ? -1 : 0;
            if (depth == 0)
                break;
        }
        if (gt < (size_t)open && template_head_names(t, gt + 1, t + x, xe - x))
            return true;
    }
    return false;
}

/* ---- vec<T, N> in an alias template ----
 * MLX's fragments (steel's `template <typename U> using dtype_frag_t = typename metal::vec<U, kElemsPerFrag>;`) are
 * parameters of function templates that deduce U through the alias: `load(thread dtype_frag_t<T>& dst, ...)`. Outside
 * the prelude, an alias template whose whole type is vec of one of its own type parameters is written as
 * `__mtl_deduced_vec<U, N>` (grammar/metal_types), the vector type itself, which clang deduces through, where a
 * function template deduces through nothing else (deduced_only_through). bfloat and bool vectors are structs to the
 * front end, which nothing deduces through; such an alias of a bfloat or bool is then an error naming it (parse.c,
 * report_clang_diagnostics). Appends to OUT from T + *AT; returns the index to go on from. */
static size_t deducible_alias(const char *t, size_t len, size_t i, StrBuf *out, size_t *at)
{
    size_t k = i + 5; /* `using NAME = [typename] [::][metal::]vec<` */
    while (k < len && isspace((unsigned char)t[k]))
        k++;
    size_t name = k;
    while (k < len && is_ident(t[k]))
        k++;
    size_t name_end = k;
    if (k == name)
        return i;
    while (k < len && isspace((unsigned char)t[k]))
        k++;
    if (k >= len || t[k] != '=' || (k + 1 < len && t[k + 1] == '='))
        return i;
    for (k++; k < len && isspace((unsigned char)t[k]);)
        k++;
    size_t from = k;
    if (len - k > 8 && !strncmp(t + k, "typename", 8) && !is_ident(t[k + 8]))
        for (k += 8; k < len && isspace((unsigned char)t[k]);)
            k++;
    if (len - k > 2 && !strncmp(t + k, "::", 2))
        k += 2;
    if (len - k > 7 && !strncmp(t + k, "metal::", 7))
        k += 7;
    if (len - k < 4 || strncmp(t + k, "vec", 3) || is_ident(t[k + 3]))
        return i;
    size_t lt = k + 3;
    while (lt < len && isspace((unsigned char)t[lt]))
        lt++;
    if (lt >= len || t[lt] != '<')
        return i;
    size_t a = lt + 1, ae; /* the element type: one of the alias's type parameters */
    while (a < len && isspace((unsigned char)t[a]))
        a++;
    for (ae = a; ae < len && is_ident(t[ae]);)
        ae++;
    size_t comma = ae;
    while (comma < len && isspace((unsigned char)t[comma]))
        comma++;
    if (ae == a || comma >= len || t[comma] != ',' || !template_head_names(t, i, t + a, ae - a) ||
        !deduced_only_through(t, len, t + name, (size_t)(name_end - name)))
        return i;
    sb_append(out, t + *at, from - *at);
    sb_puts(out, "__mtl_deduced_vec<");
    *at = lt + 1;
    return lt;
}

char *pp_deducible_vectors(const char *t, size_t len, size_t *out_len)
{
    StrBuf out = {0};
    sb_puts(&out, "");
    size_t at = 0;
    bool system = false;
    for (size_t i = 0; i + 6 < len; i++) {
        if ((i == 0 || t[i - 1] == '\n') && t[i] == '#')
            marker_is_system(t + i, len - i, &system);
        if (!system && t[i] == 'u' && !strncmp(t + i, "using", 5) && (i == 0 || !is_ident(t[i - 1])) && !is_ident(t[i + 5])) {
            i = deducible_alias(t, len, i, &out, &at);
            continue;
        }
        size_t kw = !strncmp(t + i, "struct", 6) ? 6 : !strncmp(t + i, "class", 5) ? 5 : 0;
        if (!kw || (i && is_ident(t[i - 1])) || is_ident(t[i + kw]))
            continue;
        size_t n = i + kw; /* the name, then its template arguments */
        while (n < len && isspace((unsigned char)t[n]))
            n++;
        size_t name = n;
        while (n < len && (is_ident(t[n]) || t[n] == ':'))
            n++;
        while (n < len && isspace((unsigned char)t[n]))
            n++;
        if (n == name || n >= len || t[n] != '<')
            continue;
        size_t close = n;
        for (int depth = 0; close < len; close++) {
            if (t[close] == '<')
                depth++;
            else if (t[close] == '>' && --depth == 0)
                break;
            else if (strchr(";{}", t[close]))
                break;
        }
        if (close >= len || t[close] != '>')
            continue;
        const char *args = t + n;
        size_t alen = close - n;
        if (!memmem(args, alen, "vec<", 4) || memmem(args, alen, "bfloat", 6) || memmem(args, alen, "bool", 4))
            continue;
        for (size_t k = n; k + 4 <= close; k++) {
            if (strncmp(t + k, "vec<", 4) || (k && is_ident(t[k - 1])))
                continue;
            size_t from = k >= 7 && !strncmp(t + k - 7, "metal::", 7) ? k - 7 : k;
            sb_append(&out, t + at, from - at);
            sb_puts(&out, "__mtl_vec_t<");
            at = k + 4;
        }
        i = close;
    }
    sb_append(&out, t + at, len - at);
    *out_len = out.len;
    return out.data;
}

