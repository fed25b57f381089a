/* consumer: runs the two kernels built into this program by mtl2glsl_add_kernels on the default Vulkan device,
   under the validation layer, with poisoned outputs, and checks every element against a reference computed here
   in plain C. Exit 0 when everything matches, 1 otherwise. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumer_kernels.h" /* affine.metal.h and rowsum.metal.h, generated */

static uint32_t rng_state = 12345;

static float rand_float(void) /* in [-1, 1) */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / (float)(1u << 23) - 1.0f;
}

static bool close_enough(float got, float want)
{
    return fabsf(got - want) <= 1e-5f * fabsf(want) + 1e-6f;
}

/* A buffer of BYTES holding DATA, or poisoned when DATA is NULL: 0xFF bytes, a NaN as float and UINT32_MAX as
   uint, which no element of a correct output equals. */
static MtlrtBuffer *buffer_of(MtlrtContext *ctx, size_t bytes, const void *data)
{
    MtlrtBuffer *b = mtlrt_buffer_create(ctx, bytes);
    void *poison = malloc(bytes);
    memset(poison, 0xFF, bytes);
    if (b && !mtlrt_buffer_write(b, data ? data : poison, bytes)) {
        mtlrt_buffer_destroy(b);
        b = NULL;
    }
    free(poison);
    return b;
}

static float leaky_ref(float v)
{
    return v >= 0.0f ? v : LEAKY_SLOPE * v;
}

/* affine: y = leaky(scale * x + bias) over 1000 elements, in threadgroups of 64 (the last one partial). */
static int check_affine(MtlrtContext *ctx, affine_kernels *k)
{
    enum { N = 1000 };
    static float x[N], y[N];
    const float scale = 1.75f, bias = -0.25f;
    for (int i = 0; i < N; i++)
        x[i] = rand_float();
    MtlrtBuffer *bx = buffer_of(ctx, sizeof x, x), *by = buffer_of(ctx, sizeof y, NULL);
    bool ok = bx && by &&
              affine_affine(k, MTLRT_DISPATCH_THREADS, (uint32_t[3]){N, 1, 1}, (uint32_t[3]){64, 1, 1}, bx, by, scale,
                            bias) &&
              mtlrt_buffer_read(by, y, sizeof y);
    int bad = ok ? 0 : 1;
    for (int i = 0; ok && i < N; i++)
        if (!close_enough(y[i], leaky_ref(scale * x[i] + bias)) && bad++ < 5)
            fprintf(stderr, "affine: y[%d] = %.9g, expected %.9g\n", i, y[i], leaky_ref(scale * x[i] + bias));
    printf("affine: %s (%d elements)\n", bad ? "FAIL" : "PASS", N);
    mtlrt_buffer_destroy(bx);
    mtlrt_buffer_destroy(by);
    return bad != 0;
}

/* rowsum.metal's RowsumParams in Metal's layout (three 4-byte members). */
typedef struct RowsumParams {
    uint32_t rows, cols;
    float threshold;
} RowsumParams;

/* rowsum.metal's three kernels on a 37 x 53 matrix: row_sums (sums and counts above 0.25, one thread per row in
   threadgroups of 16), row_dot (dot products with 64 weights, one thread per row in threadgroups of 8) and row_max
   (one threadgroup per row, reducing through threadgroup memory). */
static int check_row_sums(MtlrtContext *ctx, rowsum_kernels *k)
{
    enum { ROWS = 37, COLS = 53 };
    static float m[ROWS * COLS], sums[ROWS];
    static uint32_t counts[ROWS];
    for (int i = 0; i < ROWS * COLS; i++)
        m[i] = rand_float();
    const RowsumParams params = {ROWS, COLS, 0.25f};
    MtlrtBuffer *bm = buffer_of(ctx, sizeof m, m), *bs = buffer_of(ctx, sizeof sums, NULL),
                *bc = buffer_of(ctx, sizeof counts, NULL);
    bool ok = bm && bs && bc &&
              rowsum_row_sums(k, MTLRT_DISPATCH_THREADS, (uint32_t[3]){ROWS, 1, 1}, (uint32_t[3]){16, 1, 1}, bm, bs,
                              bc, &params) &&
              mtlrt_buffer_read(bs, sums, sizeof sums) && mtlrt_buffer_read(bc, counts, sizeof counts);
    int bad = ok ? 0 : 1;
    for (int r = 0; ok && r < ROWS; r++) {
        float s = 0.0f;
        uint32_t above = 0;
        for (int c = 0; c < COLS; c++) {
            s += m[r * COLS + c];
            above += m[r * COLS + c] > params.threshold;
        }
        if ((!close_enough(sums[r], s) || counts[r] != above) && bad++ < 5)
            fprintf(stderr, "row_sums: row %d: sum %.9g count %u, expected %.9g and %u\n", r, sums[r], counts[r], s,
                    above);
    }
    printf("row_sums: %s (%d rows)\n", bad ? "FAIL" : "PASS", ROWS);

    /* row_dot: the same rows against 64 weights (a struct too large for push constants: uploaded per launch) */
    struct {
        float w[64];
    } weights;
    static float dots[ROWS];
    for (int c = 0; c < 64; c++)
        weights.w[c] = rand_float();
    MtlrtBuffer *bd = buffer_of(ctx, sizeof dots, NULL);
    ok = bm && bd &&
         rowsum_row_dot(k, MTLRT_DISPATCH_THREADS, (uint32_t[3]){ROWS, 1, 1}, (uint32_t[3]){8, 1, 1}, bm, bd, &weights,
                        COLS) &&
         mtlrt_buffer_read(bd, dots, sizeof dots);
    int bad_dot = ok ? 0 : 1;
    for (int r = 0; ok && r < ROWS; r++) {
        float s = 0.0f;
        for (int c = 0; c < COLS; c++)
            s += m[r * COLS + c] * weights.w[c];
        if (!(fabsf(dots[r] - s) <= 1e-5f * fabsf(s) + 1e-5f) && bad_dot++ < 5)
            fprintf(stderr, "row_dot: row %d: %.9g, expected %.9g\n", r, dots[r], s);
    }
    printf("row_dot: %s (%d rows)\n", bad_dot ? "FAIL" : "PASS", ROWS);
    bad += bad_dot;
    mtlrt_buffer_destroy(bd);

    /* row_max: one threadgroup of 32 per row (dispatchThreadgroups), 32 floats of threadgroup memory */
    static float maxes[ROWS];
    MtlrtBuffer *bx = buffer_of(ctx, sizeof maxes, NULL);
    ok = bm && bx &&
         rowsum_row_max(k, MTLRT_DISPATCH_THREADGROUPS, (uint32_t[3]){ROWS, 1, 1}, (uint32_t[3]){32, 1, 1}, bm, bx,
                        COLS, 32 * sizeof(float)) &&
         mtlrt_buffer_read(bx, maxes, sizeof maxes);
    int bad_max = ok ? 0 : 1;
    for (int r = 0; ok && r < ROWS; r++) {
        float best = -INFINITY;
        for (int c = 0; c < COLS; c++)
            best = fmaxf(best, m[r * COLS + c]);
        if (maxes[r] != best && bad_max++ < 5)
            fprintf(stderr, "row_max: row %d: %.9g, expected %.9g\n", r, maxes[r], best);
    }
    printf("row_max: %s (%d rows)\n", bad_max ? "FAIL" : "PASS", ROWS);
    bad += bad_max;
    mtlrt_buffer_destroy(bx);
    mtlrt_buffer_destroy(bm);
    mtlrt_buffer_destroy(bs);
    mtlrt_buffer_destroy(bc);
    return bad != 0;
}

/* rowsum.metal's pick_scale: a pointer chosen at run time between two buffers (device addresses). */
static int check_pick_scale(MtlrtContext *ctx, rowsum_kernels *k)
{
    enum { N = 300, SPLIT = 123 };
    static float a[N], b[N], y[N];
    for (int i = 0; i < N; i++)
        a[i] = rand_float(), b[i] = rand_float();
    MtlrtBuffer *ba = buffer_of(ctx, sizeof a, a), *bb = buffer_of(ctx, sizeof b, b), *by = buffer_of(ctx, sizeof y, NULL);
    bool ok = ba && bb && by &&
              rowsum_pick_scale(k, MTLRT_DISPATCH_THREADS, (uint32_t[3]){N, 1, 1}, (uint32_t[3]){32, 1, 1}, ba, bb, by,
                                SPLIT) &&
              mtlrt_buffer_read(by, y, sizeof y);
    int bad = ok ? 0 : 1;
    for (int i = 0; ok && i < N; i++)
        if (y[i] != 2.0f * (i < SPLIT ? a[i] : b[i]) && bad++ < 5)
            fprintf(stderr, "pick_scale: y[%d] = %.9g, expected %.9g\n", i, y[i], 2.0f * (i < SPLIT ? a[i] : b[i]));
    printf("pick_scale: %s (%d elements)\n", bad ? "FAIL" : "PASS", N);
    mtlrt_buffer_destroy(ba);
    mtlrt_buffer_destroy(bb);
    mtlrt_buffer_destroy(by);
    return bad != 0;
}

int main(void)
{
    MtlrtContext *ctx = mtlrt_context_create(&(MtlrtContextOptions){.validate = true});
    if (!ctx)
        return 1;
    affine_kernels *affine = affine_kernels_create(ctx);
    rowsum_kernels *rowsum = rowsum_kernels_create(ctx);
    int failed = !affine || !rowsum;
    if (!failed)
        failed = check_affine(ctx, affine) + check_row_sums(ctx, rowsum) + check_pick_scale(ctx, rowsum);
    uint32_t messages = mtlrt_context_validation_messages(ctx);
    if (messages)
        fprintf(stderr, "consumer: %u validation-layer messages\n", messages);
    rowsum_kernels_destroy(rowsum);
    affine_kernels_destroy(affine);
    mtlrt_context_destroy(ctx);
    return failed || messages ? 1 : 0;
}
