/* arena.c: bump allocation for one translation unit, plus small growable buffers. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} Chunk;

struct Arena {
    Chunk *head;
};

static void out_of_memory(void)
{
    fputs("mtl2glsl: error: out of memory\n", stderr);
    exit(3);
}

Arena *arena_create(void)
{
    Arena *a = calloc(1, sizeof *a);
    if (!a)
        out_of_memory();
    return a;
}

void arena_destroy(Arena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

/* Returns zeroed memory aligned to 16 bytes that lives until arena_destroy. */
void *arena_alloc(Arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (!c || c->used + size > c->cap) {
        size_t cap = size > 65536 ? size : 65536;
        c = calloc(1, sizeof(Chunk) + cap);
        if (!c)
            out_of_memory();
        c->cap = cap;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    size_t n = strlen(s);
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n + 1);
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

static void sb_reserve(StrBuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap * 2 : 256;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p)
        out_of_memory();
    sb->data = p;
    sb->cap = cap;
}

void sb_puts(StrBuf *sb, const char *s)
{
    size_t n = strlen(s);
    sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n + 1);
    sb->len += n;
}

void sb_append(StrBuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void sb_printf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    sb_reserve(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void sb_free(StrBuf *sb)
{
    free(sb->data);
    *sb = (StrBuf){0};
}

void pv_push(PtrVec *v, void *p)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 8;
        void **items = realloc(v->items, (size_t)cap * sizeof *items);
        if (!items)
            out_of_memory();
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = p;
}

void pv_free(PtrVec *v)
{
    free(v->items);
    *v = (PtrVec){0};
}

bool pv_contains(const PtrVec *v, const void *p)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == p)
            return true;
    return false;
}
