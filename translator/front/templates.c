/* templates.c: the source-text side of kernel templates, on the preprocessed source, before clang parses it.
 *
 * clang parses Metal as C++ for OpenCL, where a kernel may not be a template and where an explicit instantiation
 * may not carry attributes. Two rewrites make Metal's template kernels parse. They run after the preprocessor
 * (preprocess.c), so an instantiation or kernel that a macro made, in any header, is rewritten like any other.
 *
 * 1. An explicit instantiation with attributes,
 *        template [[host_name("k_float")]] [[kernel]] decltype(k<float>) k<float>;
 *        template [[host_name("k_float")]] [[kernel]] void k<float>(device float*, uint);
 *        template [[host_name("k_float")]] kernel k_t k<float>;        (k_t a typedef of the function type)
 *    becomes a function naming the host name and the specialization,
 *        void __mtl_instance_7() { (void)("k_float"); k<float>; }
 *    Naming it makes clang instantiate it; the front end finds these functions and visits the specialization they
 *    name, whose body clang has typed with the arguments made concrete. Lines are kept (the rewritten text is
 *    padded with the newlines it replaced); columns are found again by preprocess.c.
 * 2. `kernel` (or `[[kernel]]`, already turned into `kernel`) inside a template head is blanked: the pattern
 *    is an ordinary function template to clang; its instances are kernels. Its `threadgroup` (by now `__local`)
 *    arrays, which clang allows only in kernels, become `__mtltg` arrays: an annotation the front end reads,
 *    defined by TMPL_PROLOGUE at the top of the text.
 */
#include <ctype.h>
#include <string.h>

#include "internal.h"

static bool is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static size_t skip_space(const char *t, size_t i, size_t len)
{
    for (;;) {
        while (i < len && isspace((unsigned char)t[i]))
            i++;
        if (i + 1 < len && t[i] == '\\' && t[i + 1] == '\n')
            i += 2;
        else if (i + 1 < len && t[i] == '/' && t[i + 1] == '*') {
            const char *e = strstr(t + i + 2, "*/");
            i = e ? (size_t)(e - t) + 2 : len;
        } else
            return i;
    }
}

/* Index just past a comment or literal starting at I, or I when there is none. */
static size_t skip_comment_or_literal(const char *t, size_t i, size_t len)
{
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
        while (i < len && t[i] != '\n')
            i++;
        return i;
    }
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
        const char *e = strstr(t + i + 2, "*/");
        return e ? (size_t)(e - t) + 2 : len;
    }
    if (t[i] == '"' || t[i] == '\'') {
        char q = t[i++];
        while (i < len && t[i] != q && t[i] != '\n')
            i += t[i] == '\\' ? 2 : 1;
        return i < len ? i + 1 : len;
    }
    return i;
}

/* The template-id (or name) that a declaration D of [0, n) declares: `k<float>` of `decltype(k<float>) k<float>`
   and of `void k<float>(device float*, uint)`. Returns its start and sets *end; start == *end when none. */
static size_t declared_name(const char *d, size_t n, size_t *end)
{
    while (n && isspace((unsigned char)d[n - 1]))
        n--;
    if (n && d[n - 1] == ')') { /* a parameter list: skip it */
        int depth = 0;
        while (n) {
            char c = d[--n];
            if (c == ')')
                depth++;
            else if (c == '(' && --depth == 0)
                break;
        }
        while (n && isspace((unsigned char)d[n - 1]))
            n--;
    }
    *end = n;
    if (n && d[n - 1] == '>') {
        int depth = 0;
        while (n) {
            char c = d[--n];
            if (c == '>')
                depth++;
            else if (c == '<' && --depth == 0)
                break;
        }
        while (n && isspace((unsigned char)d[n - 1]))
            n--;
    }
    while (n && (is_ident_char(d[n - 1]) || d[n - 1] == ':'))
        n--;
    return n;
}

/* Tries the explicit instantiation at T[i] (`template` then `[[`); on success appends its rewrite to OUT and
   returns the index after it, else returns I. */
static size_t rewrite_instance(const char *t, size_t i, size_t len, StrBuf *out, int *counter)
{
    size_t j = skip_space(t, i + 8, len);
    const char *host = NULL;
    size_t host_len = 0;
    bool kernel = false;
    while (j + 1 < len && t[j] == '[' && t[j + 1] == '[') {
        size_t k = j + 2, depth = 2;
        for (; k < len && depth; k++)
            depth += t[k] == '[' ? 1 : t[k] == ']' ? (size_t)-1 : 0;
        if (depth)
            return i;
        for (size_t a = skip_space(t, j + 2, len); a < k - 2; a = skip_space(t, a + 1, len)) { /* items: [[a, b(c)]] */
            if (!strncmp(t + a, "host_name", 9)) {
                const char *open = memchr(t + a, '(', k - a);
                const char *close = open ? open + 1 : NULL;
                for (int pd = 1; close && close < t + k && pd; close++)
                    pd += *close == '(' ? 1 : *close == ')' ? -1 : 0;
                if (!open || !close)
                    return i;
                host = open + 1;
                host_len = (size_t)(close - 1 - host);
            } else if (!strncmp(t + a, "kernel", 6) && !is_ident_char(t[a + 6])) {
                kernel = true;
            }
            for (int pd = 0; a < k - 2 && !(pd == 0 && t[a] == ','); a++) /* to the next item */
                pd += t[a] == '(' ? 1 : t[a] == ')' ? -1 : 0;
        }
        j = skip_space(t, k, len);
    }
    for (const char *kw = "kernel"; !kernel && kw; kw = kw[0] == 'k' ? "__kernel" : NULL) { /* template [[host_name]] kernel void */
        size_t n = strlen(kw);
        if (!strncmp(t + j, kw, n) && !is_ident_char(t[j + n]))
            kernel = true, j = skip_space(t, j + n, len);
    }
    if (!kernel)
        return i;
    size_t semi = j;
    for (int depth = 0; semi < len; semi++) {
        char c = t[semi];
        if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        else if ((c == ';' && depth == 0) || c == '{' || c == '}')
            break;
    }
    if (semi >= len || t[semi] != ';')
        return i;
    size_t name_end, name = j + declared_name(t + j, semi - j, &name_end);
    name_end += j;
    if (name == name_end)
        return i;
    sb_printf(out, "void __mtl_instance_%d() { (void)(%.*s); %.*s; }", (*counter)++, host ? (int)host_len : 2,
              host ? host : "\"\"", (int)(name_end - name), t + name);
    for (size_t k = i; k <= semi; k++) /* keep the lines (and a macro body's continuations) */
        if (t[k] == '\n')
            sb_puts(out, k && t[k - 1] == '\\' ? "\\\n" : "\n");
    return semi + 1;
}

char *tmpl_rewrite_instances(const char *t, size_t len, size_t *out_len)
{
    StrBuf out = {0};
    int counter = 0;
    sb_puts(&out, TMPL_PROLOGUE);
    for (size_t i = 0; i < len;) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            sb_printf(&out, "%.*s", (int)(skip - i), t + i);
            i = skip;
            continue;
        }
        if (!strncmp(t + i, "template", 8) && (i == 0 || !is_ident_char(t[i - 1])) && !is_ident_char(t[i + 8])) {
            size_t next = rewrite_instance(t, i, len, &out, &counter);
            if (next != i) {
                i = next;
                continue;
            }
        }
        size_t n = 1;
        while (i + n < len && is_ident_char(t[i]) && is_ident_char(t[i + n]))
            n++;
        sb_printf(&out, "%.*s", (int)n, t + i);
        i += n;
    }
    *out_len = out.len;
    return out.data;
}

/* In a kernel template's body, `threadgroup T name[N];` (a statement starting with `__local`, declaring an
   array, no pointer) becomes `__mtltg T name[N];`: an annotated private array for clang, which allows
   `threadgroup` locals only in kernels; the front end makes it the kernel's threadgroup array again. */
static void mark_threadgroup_arrays(char *t, size_t i, size_t len)
{
    int depth = 0;
    bool stmt_start = false;
    for (; i < len;) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            i = skip;
            continue;
        }
        char c = t[i];
        if (c == '{' || c == '}' || c == ';') {
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            stmt_start = true;
            if (depth <= 0 && c == '}')
                return;
            i++;
            continue;
        }
        if (isspace((unsigned char)c)) {
            i++;
            continue;
        }
        if (stmt_start && !strncmp(t + i, "__local", 7) && !is_ident_char(t[i + 7])) {
            size_t end = i + 7;
            while (end < len && t[end] != ';' && t[end] != '{' && t[end] != '}')
                end++;
            if (memchr(t + i, '[', end - i) && !memchr(t + i, '*', end - i) && !memchr(t + i, '&', end - i))
                memcpy(t + i, "__mtltg", 7);
        }
        stmt_start = false;
        i++;
    }
}

/* Blanks `kernel` between `template <` and the end of that declaration's head ({ or ;), and marks the
   threadgroup arrays of such a kernel template's body. */
void tmpl_blank_template_kernels(char *t, size_t len)
{
    bool in_head = false, kernel_template = false;
    for (size_t i = 0; i < len;) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            i = skip;
            continue;
        }
        char c = t[i];
        if (c == '{' && in_head && kernel_template)
            mark_threadgroup_arrays(t, i, len);
        if (c == ';' || c == '{' || c == '}') {
            in_head = kernel_template = false;
        } else if (is_ident_char(c) && (i == 0 || !is_ident_char(t[i - 1]))) {
            size_t n = 1;
            while (i + n < len && is_ident_char(t[i + n]))
                n++;
            if (n == 8 && !strncmp(t + i, "template", 8) && t[skip_space(t, i + 8, len)] == '<') {
                in_head = true;
            } else if (in_head && ((n == 6 && !strncmp(t + i, "kernel", 6)) || (n == 8 && !strncmp(t + i, "__kernel", 8)))) {
                memset(t + i, ' ', n);
                kernel_template = true;
            }
            i += n;
            continue;
        }
        i++;
    }
}
