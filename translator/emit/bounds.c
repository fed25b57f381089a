/* bounds.c: --check-bounds. A pass over the GLSL emit_glsl printed (with a location marker before each statement,
 * Program.line_markers): every index into a storage-buffer array (`x[i]`, also a view `x_as_uint[i]`) and into a
 * 1-D shared array (`[[threadgroup(n)]]` parameters and the body's own) is wrapped in a check,
 *     y[mtl_bc_1(i, 7u, 1u)] = a * x[mtl_bc_0(i, 7u, 0u)];
 * that records the first out-of-range access of each array (index, length, Metal source location, read or write)
 * in one more storage buffer, `mtl_bounds`, and goes on with the index (robustBufferAccess keeps the access
 * itself harmless where the device has it). The reflection gets a "bounds_check" object the runtime reads back:
 * the record's binding, each checked array (slot) and each location. Pointers chosen at run time (buffer
 * references) are not checked. Kept apart from emit_glsl.c: it reads only the printed text.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_SLOTS 64
#define MAX_LOCS 4096

/* One checked array: its GLSL name, where it lives, and the length expression of a shared one. */
typedef struct Slot {
    char name[128];
    char type[64];
    int binding;       /* storage buffer: its binding; shared: -1 */
    char length[128];  /* shared: the declared size (a number or mtl_threadgroup_length_N) */
    int tg_index;      /* [[threadgroup(n)]] parameter: n; else -1 */
} Slot;

typedef struct Bounds {
    Slot slots[MAX_SLOTS];
    int n_slots;
    char *locs[MAX_LOCS]; /* "file:line" */
    int n_locs;
    int cur_loc;          /* the location of the statement being read */
    int record_binding;
} Bounds;

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The identifier at P into OUT (CAP bytes); its length, 0 if none. */
static size_t read_ident(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    while (ident_char(p[n]) && n + 1 < cap)
        n++;
    memcpy(out, p, n);
    out[n] = 0;
    return ident_char(p[n]) ? 0 : n;
}

/* `layout(..., binding = N) [qualifiers] buffer BLOCK { TYPE NAME[]; };` -> a storage slot. */
static void parse_buffer_decl(Bounds *b, const char *line)
{
    const char *bind = strstr(line, "binding = "), *brace = strchr(line, '{');
    if (bind && atoi(bind + 10) >= b->record_binding) /* the record goes after every binding in use */
        b->record_binding = atoi(bind + 10) + 1;
    if (!bind || !brace || !strstr(line, " buffer ") || b->n_slots == MAX_SLOTS)
        return;
    Slot *s = &b->slots[b->n_slots];
    s->binding = atoi(bind + 10);
    s->tg_index = -1;
    const char *p = brace + 1;
    while (*p == ' ')
        p++;
    if (!strncmp(p, "precise ", 8)) /* a written float buffer (emit_glsl.c, precise()) */
        p += 8;
    size_t n = read_ident(p, s->type, sizeof s->type);
    if (!n)
        return;
    p += n;
    while (*p == ' ')
        p++;
    n = read_ident(p, s->name, sizeof s->name);
    if (n && !strncmp(p + n, "[]; };", 6))
        b->n_slots++;
}

/* `[precise ]shared TYPE NAME[SIZE];` (one dimension) -> a shared slot; mtl_* arrays (the translator's own) are not. */
static void parse_shared_decl(Bounds *b, const char *line)
{
    if (b->n_slots == MAX_SLOTS)
        return;
    Slot *s = &b->slots[b->n_slots];
    const char *p = line + 7;
    size_t n = read_ident(p, s->type, sizeof s->type);
    if (!n || p[n] != ' ')
        return;
    p += n + 1;
    n = read_ident(p, s->name, sizeof s->name);
    if (!n || p[n] != '[' || !strncmp(s->name, "mtl_", 4))
        return;
    const char *close = strchr(p + n, ']');
    size_t len = close ? (size_t)(close - (p + n + 1)) : 0;
    if (!close || close[1] != ';' || !len || len >= sizeof s->length)
        return;
    memcpy(s->length, p + n + 1, len);
    s->length[len] = 0;
    s->binding = -1;
    s->tg_index = !strncmp(s->length, "mtl_threadgroup_length_", 23) ? atoi(s->length + 23) : -1;
    b->n_slots++;
}

/* The slot array NAME (length N) is, or -1. */
static int slot_of(const Bounds *b, const char *name, size_t n)
{
    for (int i = 0; i < b->n_slots; i++)
        if (strlen(b->slots[i].name) == n && !strncmp(b->slots[i].name, name, n))
            return i;
    return -1;
}

/* A location marker `/ *@mtl FILE:LINE* /` at P: its location becomes current; the marker's length. */
static size_t read_marker(Bounds *b, const char *p)
{
    if (strncmp(p, "/*@mtl ", 7))
        return 0;
    const char *end = strstr(p, "*/");
    if (!end)
        return 0;
    size_t n = (size_t)(end - (p + 7));
    for (int i = 0; i < b->n_locs; i++)
        if (strlen(b->locs[i]) == n && !strncmp(b->locs[i], p + 7, n)) {
            b->cur_loc = i;
            return (size_t)(end + 2 - p);
        }
    if (b->n_locs < MAX_LOCS && (b->locs[b->n_locs] = strndup(p + 7, n)))
        b->cur_loc = b->n_locs++;
    return (size_t)(end + 2 - p);
}

/* The index of the ']' closing the '[' at OPEN (brackets and parentheses nested), or NULL. */
static const char *matching_bracket(const char *open)
{
    int depth = 0;
    for (const char *p = open; *p; p++) {
        if (*p == '[' || *p == '(')
            depth++;
        else if ((*p == ']' || *p == ')') && --depth == 0)
            return *p == ']' ? p : NULL;
    }
    return NULL;
}

/* Whether the element ending at CLOSE (its ']') is written: an assignment or ++/-- after it (past member and
   swizzle selections and further indices), ++/-- before it, or the first argument of an atomic function. */
static bool is_write(const char *start, const char *ident, const char *close)
{
    const char *p = close + 1;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == '.' && ident_char(p[1])) {
            p++;
            while (ident_char(*p))
                p++;
        } else if (*p == '[') {
            const char *c = matching_bracket(p);
            if (!c)
                break;
            p = c + 1;
        } else {
            break;
        }
    }
    if ((p[0] == '=' && p[1] != '=') || !strncmp(p, "++", 2) || !strncmp(p, "--", 2) ||
        (strchr("+-*/%&|^", p[0]) && p[1] == '=') || !strncmp(p, "<<=", 3) || !strncmp(p, ">>=", 3))
        return true;
    const char *q = ident;
    while (q > start && q[-1] == ' ')
        q--;
    if (q - start >= 2 && (!strncmp(q - 2, "++", 2) || !strncmp(q - 2, "--", 2)))
        return true;
    if (q > start && q[-1] == '(') {
        const char *f = q - 1;
        while (f > start && ident_char(f[-1]))
            f--;
        return !strncmp(f, "atomic", 6);
    }
    return false;
}

/* Copy TEXT[0..N) to OUT with the markers gone and, with INDEX, every checked array's index wrapped (nested
   indices too). */
static void rewrite(Bounds *b, const char *text, size_t n, bool index, StrBuf *out)
{
    const char *p = text, *end = text + n;
    while (p < end) {
        size_t m = read_marker(b, p);
        if (m) {
            p += m;
            continue;
        }
        if (ident_char(*p) && (p == text || (!ident_char(p[-1]) && p[-1] != '.'))) {
            const char *id = p;
            while (p < end && ident_char(*p))
                p++;
            sb_append(out, id, (size_t)(p - id));
            int s = index ? slot_of(b, id, (size_t)(p - id)) : -1;
            const char *close = s >= 0 && *p == '[' ? matching_bracket(p) : NULL;
            if (close && close < end) {
                sb_printf(out, "[mtl_bc_%d(", s);
                rewrite(b, p + 1, (size_t)(close - p - 1), true, out);
                sb_printf(out, ", %uu, %du)]", (unsigned)b->cur_loc, is_write(text, id, close) ? 1 : 0);
                p = close + 1;
            }
            continue;
        }
        sb_append(out, p++, 1);
    }
}

/* The record buffer and one check function per slot (overloads for each index type the shader can have). */
static void put_checks(const Bounds *b, const char *glsl, StrBuf *out)
{
    bool i64 = strstr(glsl, "int64") != NULL, i16 = strstr(glsl, "int16") != NULL;
    sb_printf(out, "// --check-bounds: the first out-of-range index of each array, recorded for the runtime:\n"
                   "// per slot {1 read / 2 write, index, length, location}.\n"
                   "layout(std430, set = 0, binding = %d) buffer mtl_bounds_record { uint mtl_bounds[]; };\n"
                   "void mtl_bounds_hit(uint mtl_s, uint mtl_i, uint mtl_n, uint mtl_loc, uint mtl_w)\n{\n"
                   "    if (atomicCompSwap(mtl_bounds[mtl_s * 4u], 0u, 1u + mtl_w) == 0u) {\n"
                   "        mtl_bounds[mtl_s * 4u + 1u] = mtl_i;\n        mtl_bounds[mtl_s * 4u + 2u] = mtl_n;\n"
                   "        mtl_bounds[mtl_s * 4u + 3u] = mtl_loc;\n    }\n}\n", b->record_binding);
    for (int s = 0; s < b->n_slots; s++) {
        const Slot *sl = &b->slots[s];
        char len[160];
        if (sl->binding >= 0)
            snprintf(len, sizeof len, "uint(%s.length())", sl->name);
        else
            snprintf(len, sizeof len, "uint(%s)", sl->length);
        sb_printf(out, "uint mtl_bc_%d(uint mtl_i, uint mtl_loc, uint mtl_w) { if (mtl_i >= %s) mtl_bounds_hit(%du, "
                       "mtl_i, %s, mtl_loc, mtl_w); return mtl_i; }\n", s, len, s, len);
        sb_printf(out, "int mtl_bc_%d(int mtl_i, uint mtl_loc, uint mtl_w) { if (mtl_i < 0 || uint(mtl_i) >= %s) "
                       "mtl_bounds_hit(%du, uint(mtl_i), %s, mtl_loc, mtl_w); return mtl_i; }\n", s, len, s, len);
        if (i64)
            sb_printf(out, "uint64_t mtl_bc_%d(uint64_t mtl_i, uint mtl_loc, uint mtl_w) { if (mtl_i >= uint64_t(%s)) "
                           "mtl_bounds_hit(%du, uint(mtl_i), %s, mtl_loc, mtl_w); return mtl_i; }\n"
                           "int64_t mtl_bc_%d(int64_t mtl_i, uint mtl_loc, uint mtl_w) { if (mtl_i < 0 || mtl_i >= "
                           "int64_t(%s)) mtl_bounds_hit(%du, uint(mtl_i), %s, mtl_loc, mtl_w); return mtl_i; }\n",
                       s, len, s, len, s, len, s, len);
        if (i16)
            sb_printf(out, "uint16_t mtl_bc_%d(uint16_t mtl_i, uint mtl_loc, uint mtl_w) { return uint16_t(mtl_bc_%d("
                           "uint(mtl_i), mtl_loc, mtl_w)); }\nint16_t mtl_bc_%d(int16_t mtl_i, uint mtl_loc, uint mtl_w) "
                           "{ return int16_t(mtl_bc_%d(int(mtl_i), mtl_loc, mtl_w)); }\n", s, s, s, s);
    }
    sb_puts(out, "\n");
}

/* Where the checks go: before the first function definition (a line at column 0 that is not a declaration). */
static const char *first_function(const char *glsl)
{
    for (const char *line = glsl; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (!isalpha((unsigned char)*line) || !strncmp(line, "layout", 6) || !strncmp(line, "shared", 6) ||
            !strncmp(line, "const ", 6) || !strncmp(line, "struct", 6) || !strncmp(line, "precision", 9))
            continue;
        const char *nl = strchr(line, '\n'), *paren = strchr(line, '(');
        if (paren && (!nl || paren < nl) && (!strchr(line, ';') || (nl && strchr(line, ';') > nl) || strchr(line, '{')))
            return line;
    }
    return NULL;
}

/* The reflection with "bounds_check": the record's binding, the slots and the locations. */
static char *add_reflection(const Bounds *b, const char *json)
{
    cJSON *root = cJSON_Parse(json);
    if (!root)
        return NULL;
    cJSON *bc = cJSON_AddObjectToObject(root, "bounds_check");
    cJSON_AddNumberToObject(bc, "binding", b->record_binding);
    cJSON *slots = cJSON_AddArrayToObject(bc, "slots");
    for (int i = 0; i < b->n_slots; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "array", b->slots[i].name);
        cJSON_AddStringToObject(o, "type", b->slots[i].type);
        if (b->slots[i].binding >= 0)
            cJSON_AddNumberToObject(o, "binding", b->slots[i].binding);
        else if (b->slots[i].tg_index >= 0)
            cJSON_AddNumberToObject(o, "threadgroup", b->slots[i].tg_index);
        else
            cJSON_AddStringToObject(o, "shared_length", b->slots[i].length);
        cJSON_AddItemToArray(slots, o);
    }
    cJSON *locs = cJSON_AddArrayToObject(bc, "locations");
    for (int i = 0; i < b->n_locs; i++)
        cJSON_AddItemToArray(locs, cJSON_CreateString(b->locs[i]));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

bool bounds_instrument(Program *prog, char **glsl, char **json)
{
    Bounds *b = calloc(1, sizeof *b);
    if (!b)
        return false;
    b->cur_loc = -1; /* before the first statement: no location */
    for (const char *line = *glsl; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char one[512];
        size_t n = strchr(line, '\n') ? (size_t)(strchr(line, '\n') - line) : strlen(line);
        if (n >= sizeof one)
            continue;
        memcpy(one, line, n);
        one[n] = 0;
        if (!strncmp(one, "layout(", 7))
            parse_buffer_decl(b, one);
        else if (!strncmp(one, "shared ", 7))
            parse_shared_decl(b, one);
        else if (!strncmp(one, "precise shared ", 15))
            parse_shared_decl(b, one + 8);
    }
    cJSON *refl = cJSON_Parse(*json); /* bindings the reflection lists but the GLSL may not declare */
    const cJSON *param;
    cJSON_ArrayForEach(param, cJSON_GetObjectItemCaseSensitive(refl, "buffers"))
    {
        const cJSON *bind = cJSON_GetObjectItemCaseSensitive(param, "binding");
        if (cJSON_IsNumber(bind) && bind->valueint >= b->record_binding)
            b->record_binding = bind->valueint + 1;
    }
    cJSON_Delete(refl);
    const char *body = first_function(*glsl);
    bool ok = body && b->record_binding < 64;
    if (!ok)
        diag_error(prog->diag, (SrcLoc){0}, "--check-bounds: %s", body ? "all 64 bindings are in use" :
                   "the generated GLSL has no function to check");
    StrBuf out = {0};
    if (ok) {
        rewrite(b, *glsl, (size_t)(body - *glsl), false, &out); /* declarations: nothing indexed */
        StrBuf rest = {0};
        rewrite(b, body, strlen(body), true, &rest);
        put_checks(b, *glsl, &out);
        sb_puts(&out, rest.data ? rest.data : "");
        sb_free(&rest);
    }
    char *new_json = ok ? add_reflection(b, *json) : NULL;
    if (ok && new_json && out.data) {
        free(*glsl);
        free(*json);
        *glsl = strdup(out.data);
        *json = new_json;
    } else {
        free(new_json);
        ok = false;
    }
    sb_free(&out);
    for (int i = 0; i < b->n_locs; i++)
        free(b->locs[i]);
    free(b);
    return ok;
}
