/* diag.c: diagnostics as `file:line:col: severity: message`, then the source line and a caret. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Line LINE (1-based) of TEXT into BUF; false if TEXT is shorter. */
static bool text_line(const char *text, int line, char *buf, size_t size)
{
    for (int n = 1; n < line && text; n++)
        if ((text = strchr(text, '\n')))
            text++;
    if (!text || !*text)
        return false;
    size_t len = strcspn(text, "\n");
    len = len < size - 1 ? len : size - 1;
    memcpy(buf, text, len);
    buf[len] = 0;
    return true;
}

/* Line LINE of FILE into BUF: from the in-memory SOURCES when they name FILE, else from the file, read once and kept
   (one file at a time: a library's errors come in runs from the same file). */
static bool source_line(Diag *d, const char *file, int line, char *buf, size_t size)
{
    for (int i = 0; d->sources && d->sources[i] && d->sources[i + 1]; i += 2)
        if (!strcmp(d->sources[i], file))
            return text_line(d->sources[i + 1], line, buf, size);
    if (!d->cache_path || strcmp(d->cache_path, file)) {
        diag_release(d);
        char why[160];
        char *text = file_read(file, M2G_MAX_FILE_BYTES, NULL, why, sizeof why); /* no /dev/zero, no directory */
        if (!text)
            return false;
        d->cache_path = strdup(file);
        d->cache_text = text;
        int cap = 256;
        d->cache_lines = malloc(sizeof *d->cache_lines * (size_t)cap);
        for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
            if (d->cache_n == cap)
                d->cache_lines = realloc(d->cache_lines, sizeof *d->cache_lines * (size_t)(cap *= 2));
            d->cache_lines[d->cache_n++] = p;
        }
    }
    if (line < 1 || line > d->cache_n || !*d->cache_lines[line - 1])
        return false;
    size_t len = strcspn(d->cache_lines[line - 1], "\n");
    len = len < size - 1 ? len : size - 1;
    memcpy(buf, d->cache_lines[line - 1], len);
    buf[len] = 0;
    return true;
}

void diag_release(Diag *d)
{
    free(d->cache_path);
    free(d->cache_text);
    free(d->cache_lines);
    d->cache_path = d->cache_text = NULL;
    d->cache_lines = NULL;
    d->cache_n = 0;
}

/* Prints line LINE of FILE (1-based) and a caret under column COL; silent if the line can't be had. */
static void print_source_line(FILE *out, Diag *d, const char *file, int line, int col)
{
    char buf[4096];
    if (!source_line(d, file, line, buf, sizeof buf))
        return;
    buf[strcspn(buf, "\r\n")] = 0;
    char caret[sizeof buf + 2]; /* written at once: stderr is unbuffered, and hostile input has long lines */
    int n = 0;
    for (int i = 1; i < col && buf[i - 1]; i++)
        caret[n++] = buf[i - 1] == '\t' ? '\t' : ' ';
    caret[n++] = '^';
    caret[n] = 0;
    fprintf(out, "%s\n%s\n", buf, caret);
}

/* "file:line:col: SEVERITY: message" (or "mtl2glsl: SEVERITY: message") into MSG. */
static void format_msg(char *msg, size_t size, SrcLoc loc, const char *severity, const char *fmt, va_list ap)
{
    int n = loc.file ? snprintf(msg, size, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col, severity)
                     : snprintf(msg, size, "mtl2glsl: %s: ", severity);
    if (n >= 0 && (size_t)n < size)
        vsnprintf(msg + (size_t)n, size - (size_t)n, fmt, ap);
}

static void print_msg(Diag *d, SrcLoc loc, const char *msg)
{
    FILE *out = d->out ? d->out : stderr;
    if (!strcmp(msg, d->last))
        return; /* the same message at the same place, reached again (e.g. once per use of a type) */
    snprintf(d->last, sizeof d->last, "%s", msg);
    fputs(msg, out);
    fputc('\n', out);
    if (loc.file && loc.line > 0)
        print_source_line(out, d, loc.file, loc.line, loc.col);
}

void diag_vprint(Diag *d, SrcLoc loc, const char *severity, const char *fmt, va_list ap)
{
    char msg[600];
    format_msg(msg, sizeof msg, loc, severity, fmt, ap);
    print_msg(d, loc, msg);
}

void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    format_msg(msg, sizeof msg, loc, "error", fmt, ap);
    va_end(ap);
    if (d->n_recorded == d->n_errors) {
        struct DiagError *e = realloc(d->errors, sizeof *e * (size_t)(d->n_errors + 1));
        char *copy = strdup(msg);
        if (e)
            d->errors = e;
        if (e && copy)
            e[d->n_recorded++] = (struct DiagError){copy, loc};
        else
            free(copy);
    }
    print_msg(d, loc, msg);
    d->n_errors++;
}

void diag_errors_free(Diag *d)
{
    for (int i = 0; i < d->n_recorded; i++)
        free(d->errors[i].msg);
    free(d->errors);
    d->errors = NULL;
    d->n_recorded = 0;
}

void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vprint(d, loc, "warning", fmt, ap);
    va_end(ap);
    d->n_warnings++;
}

void diag_note(Diag *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vprint(d, loc, "note", fmt, ap);
    va_end(ap);
}
