/* host/columns.c — mink_batch_sweep_aabb_soa and mink_batch_sweep_circle_soa: pairs as columns,
 * on the device or the scalar path, the same checks and bookkeeping as the record batches. Each
 * kind's columns are its record's floats in order, so one table row tells them apart. */
#include <stdlib.h>

#include "internal.h"
#include "mink/sample.h"

/* Sample pairs for AUTO's measurement: the box kind's count (host/batch.c). */
#define MINK_SOA_SAMPLE 32768

typedef struct columns_kind {
    const char *name;      /* the public function, for messages */
    mink_kernel_id kernel; /* also the AUTO slot */
    size_t n_in;           /* input columns: the record's floats */
    size_t record_size;    /* the record the columns stand for: the same bytes per pair */
    mink_columns_fn *scalar;
    void (*sample)(size_t count, void *records); /* mink/sample.h records of the kind */
} columns_kind;

static void sample_aabb(size_t count, void *out) { mink_sample_aabb_pairs(1, count, out); }
static void sample_circle(size_t count, void *out) { mink_sample_circle_pairs(1, count, out); }

static const columns_kind aabb_kind = {"mink_batch_sweep_aabb_soa", MINK_KERNEL_SWEEP_AABB_SOA, 12,
                                       sizeof(mink_aabb_pair), mink__scalar_aabb_columns, sample_aabb};
static const columns_kind circle_kind = {"mink_batch_sweep_circle_soa", MINK_KERNEL_SWEEP_CIRCLE_SOA, 10,
                                         sizeof(mink_circle_pair), mink__scalar_circle_columns, sample_circle};

/* A batch's arrays: the kind's input columns, then mink_hit_soa's 8 in field order. */
typedef struct soa_job {
    const columns_kind *kind;
    const float *in[MINK_MAX_ARRAYS];
    void *out[8];
    float dt;
} soa_job;

static void hit_columns(const mink_hit_soa *h, void *col[8]) {
    void *c[8] = {h->t, h->normal_x, h->normal_y, h->depth, h->point_x, h->point_y, h->t_exit, h->flags};
    for (int k = 0; k < 8; k++) col[k] = c[k];
}

static void scalar_range(void *job, size_t begin, size_t end) {
    const soa_job *j = job;
    const float *in[MINK_MAX_ARRAYS];
    void *out[8];
    for (size_t k = 0; k < j->kind->n_in; k++) in[k] = j->in[k] + begin;
    for (int k = 0; k < 8; k++) out[k] = (char *)j->out[k] + begin * 4;
    j->kind->scalar(end - begin, j->dt, in, out);
}

static mink_status run_opencl(mink_context *ctx, const soa_job *j, size_t count, mink_batch_stats *st) {
    mink_launch l = {.kernel = j->kind->kernel, .n_in = j->kind->n_in, .n_out = 8};
    for (size_t done = 0; done < count;) {
        size_t n = count - done;
        if (n > ctx->max_pairs_per_launch) n = ctx->max_pairs_per_launch;
        for (size_t k = 0; k < l.n_in; k++) l.in[k] = j->in[k] + done, l.in_size[k] = sizeof(float);
        for (int k = 0; k < 8; k++) l.out[k] = (char *)j->out[k] + done * 4, l.out_size[k] = 4;
        mink_status status = mink__launch(ctx, &l, n, j->dt, NULL, &st->kernel_ms);
        if (status != MINK_OK) return status;
        st->launches++;
        done += n;
    }
    return MINK_OK;
}

/* Pairs [begin, end) of a batch on either path. */
static mink_status run_range(mink_context *ctx, void *job, mink_backend path, size_t begin, size_t end,
                             mink_batch_stats *st) {
    soa_job r = *(const soa_job *)job;
    for (size_t k = 0; k < r.kind->n_in; k++) r.in[k] += begin;
    for (int k = 0; k < 8; k++) r.out[k] = (char *)r.out[k] + begin * 4;
    if (path == MINK_BACKEND_OPENCL) return run_opencl(ctx, &r, end - begin, st);
    mink__parallel(ctx->threads, end - begin, MINK_PAIRS_PER_THREAD, scalar_range, &r);
    return MINK_OK;
}

static mink_status run_sample(mink_context *ctx, void *job, int on_device, size_t n) {
    mink_batch_stats st = {0};
    return run_range(ctx, job, on_device ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR, 0, n, &st);
}

/* AUTO's threshold for a columns kind, measured on its record sample turned into columns. */
static mink_status auto_min_pairs(mink_context *ctx, const columns_kind *kind, size_t *out) {
    if (ctx->auto_fixed || ctx->auto_known[kind->kernel])
        return mink__auto_measure(ctx, kind->kernel, 0, NULL, NULL, out);
    size_t m = MINK_SOA_SAMPLE, floats = kind->n_in; /* a record is n_in packed floats (internal.h) */
    float *records = malloc(m * kind->record_size);
    float *cols = malloc(m * (floats + 8) * sizeof *cols);
    if (records == NULL || cols == NULL) {
        free(records), free(cols);
        return mink__fail(ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory measuring the scalar path's range",
                          kind->name);
    }
    kind->sample(m, records);
    soa_job job = {.kind = kind, .dt = 1.0f};
    for (size_t k = 0; k < floats; k++) {
        float *c = cols + k * m;
        for (size_t i = 0; i < m; i++) c[i] = records[i * floats + k];
        job.in[k] = c;
    }
    for (size_t k = 0; k < 8; k++) job.out[k] = cols + (floats + k) * m;
    mink_status status = mink__auto_measure(ctx, kind->kernel, m, run_sample, &job, out);
    free(records), free(cols);
    return status;
}

/* Both entry points once their columns are in a job: the checks, the path, the figures. */
static mink_status sweep_columns(mink_context *ctx, soa_job *job, const void *pairs, size_t count, float dt,
                                 const mink_hit_soa *hits) {
    const columns_kind *kind = job->kind;
    mink_status status =
        mink__check_batch(ctx, kind->name, pairs, kind->record_size, (void *)hits, sizeof(mink_hit), count, dt);
    if (status != MINK_OK) return status;
    if (count > 0) hit_columns(hits, job->out);
    for (size_t k = 0; k < kind->n_in && count > 0; k++)
        if (job->in[k] == NULL)
            return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: input column %zu of %zu is NULL with count %zu",
                              kind->name, k, kind->n_in, count);
    for (int k = 0; k < 8 && count > 0; k++)
        if (job->out[k] == NULL)
            return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: output column %d of 8 is NULL with count %zu",
                              kind->name, k, count);

    size_t least = 0;
    if (ctx->backend == MINK_BACKEND_OPENCL && ctx->auto_pick && count > 0) {
        status = auto_min_pairs(ctx, kind, &least);
        if (status != MINK_OK) return status;
    }
    job->dt = dt;
    mink_batch_stats st = {0};
    mink_backend path;
    double t0 = mink__now_ms();
    status = mink__auto_run(ctx, kind->kernel, count, least, run_range, job, &st, &path);
    if (status != MINK_OK) return status;
    mink__batch_done(ctx, path, count, kind->record_size, t0, &st);
    return MINK_OK;
}

mink_status mink_batch_sweep_aabb_soa(mink_context *ctx, const mink_aabb_pair_soa *pairs, size_t count,
                                      float dt, const mink_hit_soa *hits) {
    soa_job job = {.kind = &aabb_kind};
    if (pairs != NULL) {
        const float *c[12] = {pairs->a_min_x, pairs->a_min_y, pairs->a_max_x, pairs->a_max_y, pairs->va_x, pairs->va_y,
                              pairs->b_min_x, pairs->b_min_y, pairs->b_max_x, pairs->b_max_y, pairs->vb_x, pairs->vb_y};
        for (int k = 0; k < 12; k++) job.in[k] = c[k];
    }
    return sweep_columns(ctx, &job, pairs, count, dt, hits);
}

mink_status mink_batch_sweep_circle_soa(mink_context *ctx, const mink_circle_pair_soa *pairs, size_t count,
                                        float dt, const mink_hit_soa *hits) {
    soa_job job = {.kind = &circle_kind};
    if (pairs != NULL) {
        const float *c[10] = {pairs->a_x, pairs->a_y, pairs->a_radius, pairs->va_x, pairs->va_y,
                              pairs->b_x, pairs->b_y, pairs->b_radius, pairs->vb_x, pairs->vb_y};
        for (int k = 0; k < 10; k++) job.in[k] = c[k];
    }
    return sweep_columns(ctx, &job, pairs, count, dt, hits);
}
