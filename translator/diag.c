/* diag.c: diagnostics as `file:line:col: severity: message`, then the source line and a caret. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Prints line LINE of FILE (1-based) and a caret under column COL; silent if the file can't be read. */
static void print_source_line(FILE *out, const char *file, int line, int col)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return;
    char buf[4096];
    int n = 1;
    bool found = false;
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strlen(buf);
        bool whole = len > 0 && buf[len - 1] == '\n';
        if (n == line) {
            found = true;
            break;
        }
        if (whole)
            n++;
    }
    fclose(f);
    if (!found)
        return;
    buf[strcspn(buf, "\r\n")] = 0;
    fprintf(out, "%s\n", buf);
    for (int i = 1; i < col && buf[i - 1]; i++)
        fputc(buf[i - 1] == '\t' ? '\t' : ' ', out);
    fputs("^\n", out);
}

void diag_vprint(Diag *d, SrcLoc loc, const char *severity, const char *fmt, va_list ap)
{
    FILE *out = d->out ? d->out : stderr;
    if (loc.file)
        fprintf(out, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col, severity);
    else
        fprintf(out, "mtl2glsl: %s: ", severity);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    if (loc.file && loc.line > 0)
        print_source_line(out, loc.file, loc.line, loc.col);
}

void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vprint(d, loc, "error", fmt, ap);
    va_end(ap);
    d->n_errors++;
}

void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vprint(d, loc, "warning", fmt, ap);
    va_end(ap);
    d->n_warnings++;
}
