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
#include <stdlib.h>
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
    for (;;) { /* a qualified name may be split across lines: `::c10::\n metal::k<float>` (PyTorch's macros) */
        while (n && (is_ident_char(d[n - 1]) || d[n - 1] == ':'))
            n--;
        size_t m = n;
        while (m && isspace((unsigned char)d[m - 1]))
            m--;
        if (m == n || m < 2 || d[m - 1] != ':' || d[m - 2] != ':')
            return n;
        n = m;
    }
}

/* Appends T[a, b) to OUT without its white space (a qualified name split across lines). */
static void append_name(StrBuf *out, const char *t, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++)
        if (!isspace((unsigned char)t[k]))
            sb_append(out, t + k, 1);
}

/* The names declared as `void NAME(` in the text (kernels and their templates among them), sorted, each as often
   as it is declared: an instance of a name declared twice or more may be of an overload. */
typedef struct VoidNames {
    const char **at;
    size_t *len;
    size_t n, cap;
} VoidNames;

static int name_cmp(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

static VoidNames *sort_names;
static int void_name_order(const void *x, const void *y)
{
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    return name_cmp(sort_names->at[i], sort_names->len[i], sort_names->at[j], sort_names->len[j]);
}

static void collect_void_names(const char *t, size_t len, VoidNames *v)
{
    for (size_t i = 0; i + 4 < len; i++) {
        if (strncmp(t + i, "void", 4) || (i && is_ident_char(t[i - 1])) || is_ident_char(t[i + 4]))
            continue;
        size_t a = skip_space(t, i + 4, len), b = a;
        while (b < len && is_ident_char(t[b]))
            b++;
        if (b == a || t[skip_space(t, b, len)] != '(')
            continue;
        if (v->n == v->cap) {
            v->cap = v->cap ? 2 * v->cap : 256;
            v->at = realloc(v->at, sizeof *v->at * v->cap);
            v->len = realloc(v->len, sizeof *v->len * v->cap);
            if (!v->at || !v->len)
                abort();
        }
        v->at[v->n] = t + a;
        v->len[v->n++] = b - a;
    }
    size_t *order = malloc(sizeof *order * (v->n ? v->n : 1));
    const char **at = malloc(sizeof *at * (v->n ? v->n : 1));
    size_t *ln = malloc(sizeof *ln * (v->n ? v->n : 1));
    if (!order || !at || !ln)
        abort();
    for (size_t k = 0; k < v->n; k++)
        order[k] = k;
    sort_names = v;
    qsort(order, v->n, sizeof *order, void_name_order);
    for (size_t k = 0; k < v->n; k++)
        at[k] = v->at[order[k]], ln[k] = v->len[order[k]];
    free(order);
    free(v->at);
    free(v->len);
    v->at = at;
    v->len = ln;
}

/* Whether NAME (its last component; template arguments after it ignored) is declared `void NAME(` twice or more. */
static bool overloaded(const VoidNames *v, const char *t, size_t name, size_t name_end)
{
    size_t e = name;
    while (e < name_end && t[e] != '<')
        e++;
    size_t b = e;
    while (b > name && is_ident_char(t[b - 1]))
        b--;
    size_t lo = 0, hi = v->n;
    while (lo < hi) { /* the first not below the name */
        size_t mid = (lo + hi) / 2;
        if (name_cmp(v->at[mid], v->len[mid], t + b, e - b) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo + 1 < v->n && !name_cmp(v->at[lo], v->len[lo], t + b, e - b) &&
           !name_cmp(v->at[lo + 1], v->len[lo + 1], t + b, e - b);
}

/* Tries the explicit instantiation at T[i] (`template` then `[[`); on success appends its rewrite to OUT and
   returns the index after it, else returns I. */
static size_t rewrite_instance(const char *t, size_t i, size_t len, StrBuf *out, int *counter, const VoidNames *names)
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
    if (!kernel && !host) /* [[host_name]] names an entry point: `template [[host_name("x")]] void kernel k<T>(...)` too */
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
    sb_printf(out, "void __mtl_instance_%d() { (void)(%.*s); ", (*counter)++, host ? (int)host_len : 2,
              host ? host : "\"\"");
    /* `void k(device float*, uint)`, and `void k<float>(device A<float>&, uint)` of an overloaded k (PyTorch's two
       `fused_sgd` kernel templates, where naming `k<float>` alone is ambiguous): the instance the parameter types
       select, as a function pointer */
    bool typed = t[skip_space(t, name_end, semi)] == '(' &&
                 (!memchr(t + name, '<', name_end - name) || overloaded(names, t, name, name_end));
    if (typed) {
        sb_puts(out, "(void)static_cast<");
        for (size_t k = j; k < name; k++) /* the return type, without `kernel` */
            if (!((!strncmp(t + k, "kernel", 6) && !is_ident_char(t[k + 6])) && (k == j || !is_ident_char(t[k - 1]))))
                sb_append(out, t[k] == '\n' ? " " : t + k, 1);
            else
                k += 5;
        sb_puts(out, "(*)");
        for (size_t k = skip_space(t, name_end, semi); k < semi; k++) { /* the parameters, without attributes */
            if (t[k] == '[' && t[k + 1] == '[') {
                for (int depth = 0; k < semi; k++)
                    if (t[k] == '[')
                        depth++;
                    else if (t[k] == ']' && --depth == 0)
                        break;
                continue;
            }
            sb_append(out, t[k] == '\n' ? " " : t + k, 1);
        }
        sb_puts(out, ">(&");
        append_name(out, t, name, name_end);
        sb_puts(out, "); }");
    } else {
        append_name(out, t, name, name_end);
        sb_puts(out, "; }");
    }
    for (size_t k = i; k <= semi; k++) /* keep the lines (and a macro body's continuations) */
        if (t[k] == '\n')
            sb_puts(out, k && t[k - 1] == '\\' ? "\\\n" : "\n");
    return semi + 1;
}

char *tmpl_rewrite_instances(const char *t, size_t len, size_t *out_len)
{
    StrBuf out = {0};
    int counter = 0;
    VoidNames names = {0};
    collect_void_names(t, len, &names);
    sb_puts(&out, TMPL_PROLOGUE);
    for (size_t i = 0; i < len;) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            sb_printf(&out, "%.*s", (int)(skip - i), t + i);
            i = skip;
            continue;
        }
        if (!strncmp(t + i, "template", 8) && (i == 0 || !is_ident_char(t[i - 1])) && !is_ident_char(t[i + 8])) {
            size_t next = rewrite_instance(t, i, len, &out, &counter, &names);
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
    free(names.at);
    free(names.len);
    *out_len = out.len;
    return out.data;
}

/* In a kernel template's body, `threadgroup T name[N];` (a statement starting with `__local`, declaring an
   array, no pointer) and `threadgroup T name;` (no pointer, reference, initializer or template arguments: PyTorch's
   `threadgroup opmath_t tau_shared;`) become `__mtltg T name[N];`, `__mtltg T name;`: an annotated private array for clang, which allows
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
        if (c == '#' && (i == 0 || t[i - 1] == '\n')) { /* a line marker between statements */
            while (i < len && t[i] != '\n')
                i++;
            continue;
        }
        if (stmt_start && !strncmp(t + i, "__local", 7) && !is_ident_char(t[i + 7])) {
            size_t end = i + 7;
            while (end < len && t[end] != ';' && t[end] != '{' && t[end] != '}')
                end++;
            const char *br = memchr(t + i, '[', end - i); /* an array: no '*' or '&' before its '[' */
            if (br && !memchr(t + i, '*', (size_t)(br - (t + i))) && !memchr(t + i, '&', (size_t)(br - (t + i))))
                memcpy(t + i, "__mtltg", 7);
            else if (!br && end < len && t[end] == ';' && !memchr(t + i, '*', end - i) && !memchr(t + i, '&', end - i) &&
                     !memchr(t + i, '=', end - i) && !memchr(t + i, '(', end - i) && !memchr(t + i, '<', end - i))
                memcpy(t + i, "__mtltg", 7); /* a scalar, vector or struct `threadgroup T x;`: its uses stay as written */
        }
        stmt_start = false;
        i++;
    }
}

/* Blanks `kernel` between `template <` and the end of that declaration's head ({ or ;), and marks the
   threadgroup arrays of every body (tmpl_threadgroup_uses then makes their uses threadgroup pointers). */
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
        if (c == '{')
            mark_threadgroup_arrays(t, i, len); /* every body: kernel templates, helpers (and kernels, the same) */
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

/* ---- function pointers as template arguments ----
 * ggml's templates take functions as non-type arguments, `template <..., void (*deq)(device const q_t*, short,
 * thread float4&)>`, which clang's OpenCL mode refuses (no function pointers; with them allowed, it still rejects a
 * function as a template argument). Such a parameter becomes a type parameter, `typename deq`, its calls in the
 * template's body `deq::call(...)`, and each function passed for it a type whose static `call` calls it:
 *     struct __mtl_fn_dequantize_q4_0 { template <typename... __A> static auto call(__A &&...__a)
 *         -> decltype(dequantize_q4_0(__a...)) { return dequantize_q4_0(__a...); } };
 * written before the declaration that first passes it. The front end sees through `call` to the function
 * (parse.c). Overloads and function templates resolve as the original call would.
 */

#define MAX_FN_TEMPLATES 256
typedef struct FnTemplate {
    char name[96];
    unsigned params; /* bit i: template parameter i is a function */
} FnTemplate;

typedef struct FnRewrite {
    FnTemplate tmpl[MAX_FN_TEMPLATES];
    int n_tmpl;
    char (*param_names)[64]; /* every function parameter's name */
    int n_params, cap_params;
    char aliases[32][64];    /* `template <typename T> using RadixFunc = void (*)(...)`: function pointer types */
    int n_aliases;
} FnRewrite;

/* Index just past the bracket that closes the one at T[i] ('<' counts '<>' and '()'; '(' and '{' their own). */
static size_t closing(const char *t, size_t i, size_t len)
{
    char open = t[i], close = open == '<' ? '>' : open == '(' ? ')' : open == '{' ? '}' : ']';
    int depth = 0, paren = 0;
    for (; i < len; i++) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            i = skip - 1;
            continue;
        }
        char c = t[i];
        if (open == '<' && (c == '(' || c == ')')) {
            paren += c == '(' ? 1 : -1;
            continue;
        }
        if (open == '<' && paren)
            continue;
        if (open == '<' && (c == ';' || c == '{' || c == '}'))
            return len; /* not a template argument list after all */
        if (c == open)
            depth++;
        else if (c == close && --depth == 0)
            return i + 1;
    }
    return len;
}

/* The parameter `RET (*NAME)(PARAMS)` in T[a, b): its name, or false. */
static bool function_param(const char *t, size_t a, size_t b, char name[64])
{
    const char *p = memchr(t + a, '(', b - a);
    if (!p)
        return false;
    size_t i = skip_space(t, (size_t)(p - t) + 1, b);
    if (i >= b || t[i] != '*')
        return false;
    i = skip_space(t, i + 1, b);
    size_t s = i;
    while (i < b && is_ident_char(t[i]))
        i++;
    if (i == s || i - s >= 64)
        return false;
    size_t e = skip_space(t, i, b);
    if (e >= b || t[e] != ')' || t[skip_space(t, e + 1, b)] != '(')
        return false;
    memcpy(name, t + s, i - s);
    name[i - s] = 0;
    return true;
}

/* The aliases of function pointer types, `using NAME = RET (*)(PARAMS);` (MLX's RadixFunc<T>), into R. */
static void find_function_aliases(FnRewrite *R, const char *t, size_t len)
{
    for (const char *p = t; R->n_aliases < 32 && (p = memmem(p, len - (size_t)(p - t), "using", 5)); p += 5) {
        size_t i = (size_t)(p - t);
        if ((i && is_ident_char(t[i - 1])) || is_ident_char(t[i + 5]))
            continue;
        size_t n = skip_space(t, i + 5, len), s = n;
        while (n < len && is_ident_char(t[n]))
            n++;
        size_t eq = skip_space(t, n, len);
        if (n == s || n - s >= 64 || eq >= len || t[eq] != '=')
            continue;
        const char *semi = memchr(t + eq, ';', len - eq), *star = memmem(t + eq, len - eq, "(*)", 3);
        if (!semi || !star || star > semi || t[skip_space(t, (size_t)(star - t) + 3, len)] != '(')
            continue;
        memcpy(R->aliases[R->n_aliases], t + s, n - s);
        R->aliases[R->n_aliases++][n - s] = 0;
    }
}

/* The parameter `ALIAS<..> NAME` in T[a, b) of a function pointer alias: its name, or false. */
static bool alias_param(const FnRewrite *R, const char *t, size_t a, size_t b, char name[64])
{
    size_t i = skip_space(t, a, b), s = i;
    while (i < b && is_ident_char(t[i]))
        i++;
    bool alias = false;
    for (int k = 0; k < R->n_aliases && !alias; k++)
        alias = strlen(R->aliases[k]) == i - s && !strncmp(R->aliases[k], t + s, i - s);
    if (!alias)
        return false;
    i = skip_space(t, i, b);
    if (i < b && t[i] == '<') {
        for (int depth = 0; i < b; i++)
            if (t[i] == '<')
                depth++;
            else if (t[i] == '>' && --depth == 0)
                break;
        i = skip_space(t, i + 1, b);
    }
    size_t ns = i;
    while (i < b && is_ident_char(t[i]))
        i++;
    if (i == ns || i - ns >= 64 || skip_space(t, i, b) != b)
        return false;
    memcpy(name, t + ns, i - ns);
    name[i - ns] = 0;
    return true;
}

/* The name a template head ending at T[i] declares: the identifier before the first '(' of the declaration. */
static bool declared_after_head(const char *t, size_t i, size_t len, char name[96])
{
    for (size_t last = 0, last_len = 0; i < len; i++) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            i = skip - 1;
            continue;
        }
        if (t[i] == ';' || t[i] == '{' || t[i] == '=')
            return false;
        if (t[i] == '<') {
            i = closing(t, i, len) - 1;
            continue;
        }
        if (t[i] == '(' && last_len == 13 && !strncmp(t + last, "__attribute__", 13)) { /* METAL_FUNC's */
            i = closing(t, i, len) - 1;
            last_len = 0;
            continue;
        }
        if (t[i] == '(') {
            if (!last_len || last_len >= 96)
                return false;
            memcpy(name, t + last, last_len);
            name[last_len] = 0;
            return true;
        }
        if (is_ident_char(t[i]) && (i == 0 || !is_ident_char(t[i - 1]))) {
            last = i;
            last_len = 0;
            while (i < len && is_ident_char(t[i]))
                i++, last_len++;
            i--;
        }
    }
    return false;
}

/* Pass 1: the template heads with function parameters (each becomes `typename NAME`) and their bodies' calls. */
static void rewrite_function_heads(FnRewrite *R, const char *t, size_t len, StrBuf *out)
{
    find_function_aliases(R, t, len);
    for (size_t i = 0; i < len;) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            sb_append(out, t + i, skip - i);
            i = skip;
            continue;
        }
        size_t open = skip_space(t, i + 8, len);
        if (strncmp(t + i, "template", 8) || (i && is_ident_char(t[i - 1])) || is_ident_char(t[i + 8]) || t[open] != '<') {
            sb_append(out, &t[i++], 1);
            continue;
        }
        size_t close = closing(t, open, len);
        FnTemplate ft = {.params = 0};
        char names[32][64];
        int n_names = 0;
        size_t p = open + 1;
        for (int idx = 0; p < close && idx < 32; idx++) { /* the parameters, split at top-level commas */
            size_t e = p;
            for (int depth = 0; e < close - 1; e++) {
                char c = t[e];
                depth += c == '(' || c == '<' ? 1 : c == ')' || c == '>' ? -1 : 0;
                if (c == ',' && depth == 0)
                    break;
            }
            if (function_param(t, p, e, names[n_names]) || alias_param(R, t, p, e, names[n_names]))
                ft.params |= 1u << idx, n_names++;
            p = e + 1;
        }
        if (!ft.params || !declared_after_head(t, close, len, ft.name) || R->n_tmpl == MAX_FN_TEMPLATES) {
            sb_append(out, t + i, close - i);
            i = close;
            continue;
        }
        R->tmpl[R->n_tmpl++] = ft;
        sb_append(out, t + i, open + 1 - i);
        p = open + 1;
        for (int idx = 0, k = 0; p < close; idx++) { /* the head again, function parameters as types */
            size_t e = p;
            for (int depth = 0; e < close - 1; e++) {
                char c = t[e];
                depth += c == '(' || c == '<' ? 1 : c == ')' || c == '>' ? -1 : 0;
                if (c == ',' && depth == 0)
                    break;
            }
            if (idx < 32 && (ft.params >> idx & 1)) {
                sb_printf(out, " typename %s", names[k]);
                for (size_t q = p; q < e; q++) /* keep the lines */
                    if (t[q] == '\n')
                        sb_puts(out, "\n");
                if (R->n_params == R->cap_params)
                    R->param_names = realloc(R->param_names, sizeof *R->param_names * (size_t)(R->cap_params = R->cap_params * 2 + 16));
                memcpy(R->param_names[R->n_params++], names[k++], 64);
                sb_append(out, &t[e], 1);
            } else {
                sb_append(out, t + p, e + 1 - p);
            }
            p = e + 1;
        }
        i = close;
        /* the body: NAME(...) -> NAME::call(...) */
        size_t body = i;
        while (body < len && t[body] != '{' && t[body] != ';')
            body++;
        if (body >= len || t[body] != '{')
            continue;
        size_t end = closing(t, body, len);
        sb_append(out, t + i, body - i);
        for (size_t q = body; q < end;) {
            size_t s2 = skip_comment_or_literal(t, q, end);
            if (s2 != q) {
                sb_append(out, t + q, s2 - q);
                q = s2;
                continue;
            }
            if (!is_ident_char(t[q]) || (q && is_ident_char(t[q - 1]))) {
                sb_append(out, &t[q++], 1);
                continue;
            }
            size_t w = q;
            while (w < end && is_ident_char(t[w]))
                w++;
            bool member = q >= 1 && (t[q - 1] == '.' || t[q - 1] == ':' || (t[q - 1] == '>' && q >= 2 && t[q - 2] == '-'));
            bool is_param = false;
            for (int k = 0; k < n_names && !member; k++)
                is_param |= strlen(names[k]) == w - q && !strncmp(names[k], t + q, w - q);
            sb_append(out, t + q, w - q);
            if (is_param && t[skip_space(t, w, end)] == '(')
                sb_puts(out, "::call");
            q = w;
        }
        i = end;
    }
}

/* `__mtl_fn_` and the argument's text as an identifier (`deq<half4>` -> __mtl_fn_deq_half4_). */
static void wrapper_name(const char *a, size_t n, StrBuf *out)
{
    sb_puts(out, "__mtl_fn_");
    for (size_t i = 0; i < n; i++)
        if (is_ident_char(a[i]))
            sb_append(out, &a[i], 1);
        else if (!isspace((unsigned char)a[i]))
            sb_puts(out, "_");
}

/* Whether the template argument T[a, b) names a parameter of the template head that the declaration at D begins
   with (`radix2<T>` inside `template <typename T, ...> void perform_fft(...)`). */
static bool names_head_param(const char *d, size_t dlen, const char *t, size_t a, size_t b)
{
    size_t i = skip_space(d, 0, dlen);
    while (i < dlen && d[i] == '#') { /* line markers before the declaration */
        while (i < dlen && d[i] != '\n')
            i++;
        i = skip_space(d, i, dlen);
    }
    if (i + 8 > dlen || strncmp(d + i, "template", 8))
        return false;
    size_t open = skip_space(d, i + 8, dlen);
    if (open >= dlen || d[open] != '<')
        return false;
    size_t close = closing(d, open, dlen);
    for (size_t p = open + 1; p < close;) { /* each parameter's name: its last identifier before any '=' */
        size_t e = p, name = 0, name_len = 0;
        for (int depth = 0; e < close - 1; e++) {
            char c = d[e];
            depth += c == '(' || c == '<' ? 1 : c == ')' || c == '>' ? -1 : 0;
            if ((c == ',' || c == '=') && depth == 0)
                break;
            if (depth == 0 && is_ident_char(c) && !is_ident_char(d[e - 1])) {
                name = e;
                for (name_len = 0; e < close && is_ident_char(d[e]); e++)
                    name_len++;
                e--;
            }
        }
        for (size_t q = a; name_len && q + name_len <= b; q++)
            if ((q == a || !is_ident_char(t[q - 1])) && !is_ident_char(t[q + name_len]) && !strncmp(t + q, d + name, name_len))
                return true;
        while (e < close - 1 && d[e] != ',') /* past a default argument */
            e++;
        p = e + 1;
    }
    return false;
}

/* Pass 2: a function passed for a function parameter becomes its wrapper type, defined before the top-level
   declaration that first passes it. A function template instance that names the enclosing template's parameters
   (`radix2<T>`) becomes an instance of a wrapper template, `__mtl_fn_t_radix2<T>`, whose `call` calls
   `radix2<__T...>`. */
static void rewrite_function_args(FnRewrite *R, const char *t, size_t len, StrBuf *out)
{
    StrBuf seen = {0}; /* "\n" + each wrapper defined + "\n" */
    sb_puts(&seen, "\n");
    size_t decl_start = out->len; /* where the current top-level declaration starts in OUT */
    int depth = 0;
    for (size_t i = 0; i < len;) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            sb_append(out, t + i, skip - i);
            i = skip;
            continue;
        }
        char c = t[i];
        if (c == '#' && (i == 0 || t[i - 1] == '\n')) { /* a line marker: a boundary when outside braces */
            size_t e = i;
            while (e < len && t[e] != '\n')
                e++;
            e += e < len;
            sb_append(out, t + i, e - i);
            i = e;
            if (depth == 0)
                decl_start = out->len;
            continue;
        }
        if (c == '{' || c == '}' || c == ';') {
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            sb_append(out, &c, 1);
            i++;
            if (depth <= 0 && c != '{')
                decl_start = out->len, depth = 0;
            continue;
        }
        if (!is_ident_char(c) || (i && is_ident_char(t[i - 1]))) {
            sb_append(out, &c, 1);
            i++;
            continue;
        }
        size_t w = i;
        while (w < len && is_ident_char(t[w]))
            w++;
        const FnTemplate *ft = NULL;
        for (int k = 0; k < R->n_tmpl && !ft; k++)
            if (strlen(R->tmpl[k].name) == w - i && !strncmp(R->tmpl[k].name, t + i, w - i))
                ft = &R->tmpl[k];
        size_t lt = skip_space(t, w, len);
        sb_append(out, t + i, w - i);
        i = w;
        if (!ft || t[lt] != '<')
            continue;
        size_t gt = closing(t, lt, len);
        if (gt >= len)
            continue;
        sb_append(out, t + i, lt + 1 - i);
        size_t p = lt + 1;
        for (int idx = 0; p < gt; idx++) {
            size_t e = p;
            for (int d = 0; e < gt - 1; e++) {
                char ch = t[e];
                d += ch == '(' || ch == '<' ? 1 : ch == ')' || ch == '>' ? -1 : 0;
                if (ch == ',' && d == 0)
                    break;
            }
            size_t a = skip_space(t, p, e), b = e;
            while (b > a && isspace((unsigned char)t[b - 1]))
                b--;
            bool keep = idx >= 32 || !(ft->params >> idx & 1) || a == b;
            for (int k = 0; !keep && k < R->n_params; k++) /* a function parameter passed on: already a type */
                keep = strlen(R->param_names[k]) == b - a && !strncmp(R->param_names[k], t + a, b - a);
            if (keep) {
                sb_append(out, t + p, e + 1 - p);
            } else if (memchr(t + a, '<', b - a) && names_head_param(out->data + decl_start, out->len - decl_start, t, a, b)) {
                size_t lt2 = a; /* NAME<ARGS>: the wrapper template of NAME */
                while (lt2 < b && t[lt2] != '<')
                    lt2++;
                size_t ne = lt2;
                while (ne > a && isspace((unsigned char)t[ne - 1]))
                    ne--;
                StrBuf wn = {0};
                sb_puts(&wn, "__mtl_fn_t_");
                sb_append(&wn, t + a, ne - a);
                StrBuf key = {0};
                sb_printf(&key, "\n%s\n", wn.data);
                if (!strstr(seen.data, key.data)) {
                    StrBuf def = {0};
                    sb_printf(&def, "template <typename... __T> struct %s { template <typename... __A> static auto "
                                    "call(__A &&...__a) -> decltype(%.*s<__T...>(__a...)) { return %.*s<__T...>(__a...); } }; ",
                              wn.data, (int)(ne - a), t + a, (int)(ne - a), t + a);
                    sb_puts(out, def.data);
                    memmove(out->data + decl_start + def.len, out->data + decl_start, out->len - def.len - decl_start);
                    memcpy(out->data + decl_start, def.data, def.len);
                    decl_start += def.len;
                    sb_printf(&seen, "%s\n", wn.data);
                    free(def.data);
                }
                sb_printf(out, "%.*s%s%.*s", (int)(a - p), t + p, wn.data, (int)(e + 1 - lt2), t + lt2);
                free(wn.data);
                free(key.data);
            } else {
                StrBuf wn = {0};
                wrapper_name(t + a, b - a, &wn);
                StrBuf key = {0};
                sb_printf(&key, "\n%s\n", wn.data);
                if (!strstr(seen.data, key.data)) { /* define it before this declaration */
                    StrBuf def = {0};
                    sb_printf(&def, "struct %s { template <typename... __A> static auto call(__A &&...__a) -> "
                                    "decltype(%.*s(__a...)) { return %.*s(__a...); } }; ",
                              wn.data, (int)(b - a), t + a, (int)(b - a), t + a);
                    sb_puts(out, def.data); /* grow, then move the declaration's text after it */
                    memmove(out->data + decl_start + def.len, out->data + decl_start, out->len - def.len - decl_start);
                    memcpy(out->data + decl_start, def.data, def.len);
                    decl_start += def.len;
                    sb_printf(&seen, "%s\n", wn.data);
                    free(def.data);
                }
                sb_printf(out, "%.*s%.*s%.*s", (int)(a - p), t + p, (int)wn.len, wn.data, (int)(e + 1 - b), t + b);
                free(wn.data);
                free(key.data);
            }
            p = e + 1;
        }
        i = gt;
    }
    free(seen.data);
}

char *tmpl_rewrite_function_params(const char *t, size_t len, size_t *out_len)
{
    FnRewrite R = {.n_tmpl = 0};
    StrBuf heads = {0};
    sb_puts(&heads, "");
    rewrite_function_heads(&R, t, len, &heads);
    if (!R.n_tmpl) {
        *out_len = heads.len;
        free(R.param_names);
        return heads.data;
    }
    StrBuf out = {0};
    sb_puts(&out, "");
    rewrite_function_args(&R, heads.data, heads.len, &out);
    free(heads.data);
    free(R.param_names);
    *out_len = out.len;
    return out.data;
}

/* ---- uses of marked threadgroup arrays ----
 * A marked array (`__mtltg float tile[64];`) is a private array to clang, so passing it where Metal passes a
 * threadgroup array to a `threadgroup float*` parameter, or taking `&tile[i]`, would not type-check. Its uses are
 * wrapped in the prelude's `__mtl_tg(...)`, whose result is a threadgroup pointer; the front end reads `__mtl_tg(x)`
 * as x. Subscripts `tile[i]` stay as they are, except a row of an array of more dimensions (`s[a][b]` of
 * `s[2][2][512]`, MLX's attention), itself a threadgroup array where Metal uses it as a pointer: wrapped like the
 * array (not under sizeof, alignof or decltype, which ask for the row's own type).
 */
static void add_edit(TextEdits *e, size_t off, const char *insert)
{
    if (e->n == e->cap)
        e->items = realloc(e->items, sizeof *e->items * (size_t)(e->cap = e->cap * 2 + 64));
    e->items[e->n++] = (TextEdit){(unsigned)off, 0, insert};
}

/* The end of the block that holds offset AT (its closing '}'), or LEN. */
static size_t block_end(const char *t, size_t at, size_t len)
{
    int depth = 0;
    for (size_t i = at; i < len; i++) {
        size_t skip = skip_comment_or_literal(t, i, len);
        if (skip != i) {
            i = skip - 1;
            continue;
        }
        if (t[i] == '{')
            depth++;
        else if (t[i] == '}' && --depth < 0)
            return i;
    }
    return len;
}

/* Whether the expression at T[i] is the operand of sizeof, alignof or decltype (`sizeof(tile[0])`). */
static bool under_type_query(const char *t, size_t i)
{
    while (i > 0 && (isspace((unsigned char)t[i - 1]) || t[i - 1] == '('))
        i--;
    size_t e = i;
    while (i > 0 && is_ident_char(t[i - 1]))
        i--;
    static const char *const ops[] = {"sizeof", "alignof", "decltype", "_Alignof", "__alignof__"};
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
        if (e - i == strlen(ops[k]) && !strncmp(t + i, ops[k], e - i))
            return true;
    return false;
}

void tmpl_threadgroup_uses(const char *t, size_t len, TextEdits *edits)
{
    for (const char *m = t; (m = memmem(m, len - (size_t)(m - t), "__mtltg", 7)); m += 7) {
        size_t decl = (size_t)(m - t), semi = decl;
        while (semi < len && t[semi] != ';')
            semi++;
        const char *names[16];
        size_t lens[16];
        int dims[16];
        int n_names = 0;
        for (size_t p = decl; p < semi && n_names < 16;) { /* each declarator: `__mtltg float a[8], b[8];` */
            size_t q = p;
            for (int d = 0; q < semi && !(d == 0 && t[q] == ','); q++)
                d += t[q] == '[' || t[q] == '(' ? 1 : t[q] == ']' || t[q] == ')' ? -1 : 0;
            const char *br = memchr(t + p, '[', q - p);
            if (br) {
                size_t ne = (size_t)(br - t);
                while (ne > p && isspace((unsigned char)t[ne - 1]))
                    ne--;
                size_t nb = ne;
                while (nb > p && is_ident_char(t[nb - 1]))
                    nb--;
                int nd = 0; /* its dimensions: `[2][4][512]` */
                for (size_t b = (size_t)(br - t); b < q && t[b] == '['; b = skip_space(t, b, q), nd++)
                    for (int d = 0; b < q; b++)
                        if (t[b] == '[')
                            d++;
                        else if (t[b] == ']' && --d == 0) {
                            b++;
                            break;
                        }
                if (ne > nb)
                    names[n_names] = t + nb, lens[n_names] = ne - nb, dims[n_names++] = nd;
            }
            p = q + 1;
        }
        size_t end = block_end(t, semi, len);
        for (int k = 0; k < n_names; k++) {
            size_t n = lens[k], nb = (size_t)(names[k] - t);
            for (size_t i = semi; i < end;) {
                size_t skip = skip_comment_or_literal(t, i, end);
                if (skip != i) {
                    i = skip;
                    continue;
                }
                if (strncmp(t + i, t + nb, n) || (i && is_ident_char(t[i - 1])) || is_ident_char(t[i + n]) ||
                    (i && (t[i - 1] == '.' || t[i - 1] == ':' || (t[i - 1] == '>' && i > 1 && t[i - 2] == '-')))) {
                    i++;
                    continue;
                }
                size_t after = skip_space(t, i + n, end);
                size_t amp = i;
                while (amp > 0 && isspace((unsigned char)t[amp - 1]))
                    amp--;
                bool address = amp > 0 && t[amp - 1] == '&' && !(amp > 1 && t[amp - 2] == '&');
                if (t[after] == '[' && address) { /* &tile[i] (and &tile[i][j]) */
                    size_t e = after;
                    while (e < end && t[e] == '[') {
                        int d = 0;
                        for (; e < end; e++)
                            if (t[e] == '[')
                                d++;
                            else if (t[e] == ']' && --d == 0)
                                break;
                        e = skip_space(t, e + 1, end);
                    }
                    while (e > after && isspace((unsigned char)t[e - 1]))
                        e--;
                    add_edit(edits, amp - 1, "__mtl_tg(");
                    add_edit(edits, e, ")");
                    i = e;
                } else if (t[after] != '[') { /* tile, tile + k */
                    add_edit(edits, i, "__mtl_tg(");
                    add_edit(edits, i + n, ")");
                    i += n;
                } else { /* tile[i]: an element, or a row of a tile of more dimensions (`s[a][b]` of `s[2][2][64]`) */
                    size_t e = after;
                    int subs = 0;
                    while (e < end && t[e] == '[') {
                        int d = 0;
                        for (; e < end; e++)
                            if (t[e] == '[')
                                d++;
                            else if (t[e] == ']' && --d == 0)
                                break;
                        subs++;
                        e = skip_space(t, e + 1, end);
                    }
                    while (e > after && isspace((unsigned char)t[e - 1]))
                        e--;
                    if (subs < dims[k] && !under_type_query(t, i)) { /* a threadgroup array: as a pointer */
                        add_edit(edits, i, "__mtl_tg(");
                        add_edit(edits, e, ")");
                        i = e;
                    } else {
                        i += n;
                    }
                }
            }
        }
    }
}
