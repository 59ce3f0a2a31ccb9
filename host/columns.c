/* host/columns.c — mink_batch_sweep_aabb_soa: box pairs as columns, on the device or the scalar
 * path, the same checks and bookkeeping as the record batches. */
#include <stdlib.h>

#include "internal.h"
#include "mink/sample.h"

#define MINK_SOA_FN "mink_batch_sweep_aabb_soa"
/* Sample pairs for AUTO's measurement: the box kind's count (host/batch.c). */
#define MINK_SOA_SAMPLE 32768

/* The columns in the order of a mink_aabb_pair's floats and a mink_hit's fields. */
static void in_columns(const mink_aabb_pair_soa *p, const float *col[12]) {
    const float *c[12] = {p->a_min_x, p->a_min_y, p->a_max_x, p->a_max_y, p->va_x, p->va_y,
                          p->b_min_x, p->b_min_y, p->b_max_x, p->b_max_y, p->vb_x, p->vb_y};
    for (int k = 0; k < 12; k++) col[k] = c[k];
}
static void out_columns(const mink_hit_soa *h, void *col[8]) {
    void *c[8] = {h->t, h->normal_x, h->normal_y, h->depth, h->point_x, h->point_y, h->t_exit, h->flags};
    for (int k = 0; k < 8; k++) col[k] = c[k];
}

typedef struct soa_job {
    const mink_aabb_pair_soa *pairs;
    const mink_hit_soa *hits;
    float dt;
} soa_job;

static void scalar_range(void *job, size_t begin, size_t end) {
    const soa_job *j = job;
    mink__scalar_sweep_aabb_soa(j->pairs, begin, end, j->dt, j->hits);
}

static mink_status run_opencl(mink_context *ctx, const soa_job *j, size_t count, mink_batch_stats *st) {
    const float *in[12];
    void *out[8];
    in_columns(j->pairs, in);
    out_columns(j->hits, out);
    mink_launch l = {.kernel = MINK_KERNEL_SWEEP_AABB_SOA, .n_in = 12, .n_out = 8};
    for (size_t done = 0; done < count;) {
        size_t n = count - done;
        if (n > ctx->max_pairs_per_launch) n = ctx->max_pairs_per_launch;
        for (int k = 0; k < 12; k++) l.in[k] = in[k] + done, l.in_size[k] = sizeof(float);
        for (int k = 0; k < 8; k++) l.out[k] = (char *)out[k] + done * 4, l.out_size[k] = 4;
        mink_status status = mink__launch(ctx, &l, n, j->dt, NULL, &st->kernel_ms);
        if (status != MINK_OK) return status;
        st->launches++;
        done += n;
    }
    return MINK_OK;
}

static mink_status run(mink_context *ctx, const soa_job *j, mink_backend path, size_t count, mink_batch_stats *st) {
    if (path == MINK_BACKEND_OPENCL) return run_opencl(ctx, j, count, st);
    mink__parallel(ctx->threads, count, MINK_PAIRS_PER_THREAD, scalar_range, (void *)j);
    return MINK_OK;
}

static mink_status run_sample(mink_context *ctx, void *job, int on_device, size_t n) {
    mink_batch_stats st = {0};
    return run(ctx, job, on_device ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR, n, &st);
}

/* AUTO's threshold for columns, measured on the box sample turned into columns. */
static mink_status auto_min_pairs(mink_context *ctx, size_t *out) {
    const mink_kernel_id slot = MINK_KERNEL_SWEEP_AABB_SOA;
    if (ctx->auto_fixed || ctx->auto_known[slot]) return mink__auto_measure(ctx, slot, 0, NULL, NULL, out);
    size_t m = MINK_SOA_SAMPLE;
    mink_aabb_pair *records = malloc(m * sizeof *records);
    float *cols = malloc(m * 20 * sizeof *cols);
    if (records == NULL || cols == NULL) {
        free(records), free(cols);
        return mink__fail(ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory measuring the scalar path's range",
                          MINK_SOA_FN);
    }
    mink_sample_aabb_pairs(1, m, records);
    float *c[20];
    for (int k = 0; k < 20; k++) c[k] = cols + (size_t)k * m;
    for (size_t i = 0; i < m; i++) {
        const float *r = &records[i].a.min.x; /* 12 packed floats (internal.h checks the size) */
        for (int k = 0; k < 12; k++) c[k][i] = r[k];
    }
    mink_aabb_pair_soa pairs = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]};
    mink_hit_soa hits = {c[12], c[13], c[14], c[15], c[16], c[17], c[18], (uint32_t *)(void *)c[19]};
    soa_job job = {&pairs, &hits, 1.0f};
    mink_status status = mink__auto_measure(ctx, slot, m, run_sample, &job, out);
    free(records), free(cols);
    return status;
}

mink_status mink_batch_sweep_aabb_soa(mink_context *ctx, const mink_aabb_pair_soa *pairs, size_t count,
                                      float dt, const mink_hit_soa *hits) {
    mink_status status = mink__check_batch(ctx, MINK_SOA_FN, pairs, sizeof(mink_aabb_pair), (void *)hits,
                                           sizeof(mink_hit), count, dt);
    if (status != MINK_OK) return status;
    const float *in[12];
    void *out[8];
    if (count > 0) in_columns(pairs, in), out_columns(hits, out);
    for (int k = 0; k < 12 && count > 0; k++)
        if (in[k] == NULL)
            return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: input column %d of 12 is NULL with count %zu",
                              MINK_SOA_FN, k, count);
    for (int k = 0; k < 8 && count > 0; k++)
        if (out[k] == NULL)
            return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: output column %d of 8 is NULL with count %zu",
                              MINK_SOA_FN, k, count);

    mink_backend path = ctx->backend;
    if (path == MINK_BACKEND_OPENCL && ctx->auto_pick && count > 0) {
        size_t least = 0;
        status = auto_min_pairs(ctx, &least);
        if (status != MINK_OK) return status;
        if (count < least) path = MINK_BACKEND_SCALAR;
    }
    soa_job job = {pairs, hits, dt};
    mink_batch_stats st = {0};
    double t0 = mink__now_ms();
    status = run(ctx, &job, path, count, &st);
    if (status != MINK_OK) return status;
    mink__batch_done(ctx, path, count, sizeof(mink_aabb_pair), t0, &st);
    return MINK_OK;
}
