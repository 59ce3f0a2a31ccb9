/* host/auto.c — where MINK_BACKEND_AUTO sends a batch to the scalar path instead of the device.
 *
 * A call on the device costs a fixed L (buffer objects, the enqueue, waiting for the result: about
 * 0.06 ms on PoCL, more across a bus) and then d a pair; the scalar loop costs s a pair from the
 * first. The scalar loop is done first below n* = L / (s − d) pairs, so AUTO sends smaller batches
 * there: the same bits sooner. The three figures differ between devices, hosts and kinds (a box
 * pair takes 30 ns on one core here, a turning polygon pair 2 µs), so they are measured on the
 * first AUTO batch of each kind, on the library's own sample pairs of that kind: a few
 * milliseconds, once per kind and context. Each time is the median of seven after a warm-up, which
 * also pays any lazy kernel compile the first real launch would have paid.
 *
 * A sample fits in the caches; a batch of millions of pairs streams through memory, where the
 * two paths can rank the other way (box columns here: one core is faster a pair than PoCL in the
 * cache, PoCL's two cores faster from memory). So the first batch of MINK_AUTO_LARGE pairs or more
 * of each kind is itself the measurement: slices of it in turns on each path, timed, and the rest,
 * and every later large batch of the kind, on the faster. Nothing is swept twice. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#define MINK_AUTO_RUNS 7
/* Slices of a first large batch timed on each path: four each, an eighth of the batch in all. */
#define MINK_AUTO_TURNS 4

/* Median wall time of a few runs of n pairs, on the device or the scalar path. The median, not
 * the best: a launch on PoCL takes 10 µs when its worker threads are awake and 70 µs when they
 * are not, and a batch call meets the usual case. */
static mink_status median_ms(mink_context *ctx, mink_auto_run_fn *run, void *job, int on_device, size_t n,
                             double *median) {
    double ms[MINK_AUTO_RUNS];
    for (int r = -1; r < MINK_AUTO_RUNS; r++) { /* run -1 warms up */
        double t0 = mink__now_ms();
        mink_status status = run(ctx, job, on_device, n);
        if (status != MINK_OK) return status;
        if (r >= 0) ms[r] = mink__now_ms() - t0;
    }
    for (int i = 1; i < MINK_AUTO_RUNS; i++) /* insertion sort: seven numbers */
        for (int j = i; j > 0 && ms[j - 1] > ms[j]; j--) {
            double x = ms[j];
            ms[j] = ms[j - 1], ms[j - 1] = x;
        }
    *median = ms[MINK_AUTO_RUNS / 2];
    return MINK_OK;
}

mink_status mink__auto_measure(mink_context *ctx, mink_kernel_id slot, size_t m, mink_auto_run_fn *run,
                               void *job, size_t *out) {
    size_t k = (size_t)slot;
    if (ctx->auto_fixed || ctx->auto_known[k]) {
        *out = ctx->auto_min[k];
        return MINK_OK;
    }
    double one = 0.0, many = 0.0, scalar = 0.0;
    mink_status status = median_ms(ctx, run, job, 1, 1, &one);
    if (status == MINK_OK) status = median_ms(ctx, run, job, 1, m, &many);
    if (status == MINK_OK) status = median_ms(ctx, run, job, 0, m, &scalar);
    if (status != MINK_OK) return status;

    double s = scalar / (double)m, d = (many - one) / (double)m, fixed = one;
    /* A scalar loop that is faster a pair than the device (the vectorized box loop against PoCL)
     * keeps every batch. Otherwise the measured crossover, up to a few samples' worth: past that
     * nothing was measured, and a device scales up better than a sample shows (more work-groups,
     * the fixed cost spread thinner), so from there it gets the batch. */
    double most = 4.0 * (double)m;
    if (s > d) {
        double least = ceil(fixed / (s - d));
        ctx->auto_min[k] = (size_t)(least < most ? least : most);
    } else {
        ctx->auto_min[k] = SIZE_MAX;
    }
    ctx->auto_known[k] = 1;
    *out = ctx->auto_min[k];
    return MINK_OK;
}

/* A batch kind's sample: records in, hits out. */
typedef struct kind_job {
    const mink_batch_kind *kind;
    const void *in;
    mink_hit *hits;
} kind_job;

static mink_status run_kind(mink_context *ctx, void *job, int on_device, size_t n) {
    const kind_job *j = job;
    const mink_rotating_desc defaults = {0};
    if (!on_device) {
        mink__batch_scalar(ctx, j->kind, j->in, n, 1.0f, &defaults, j->hits);
        return MINK_OK;
    }
    mink_batch_stats st = {0};
    return mink__batch_opencl(ctx, j->kind, j->in, n, 1.0f, &defaults, j->hits, &st);
}

mink_status mink__auto_min_pairs(mink_context *ctx, const mink_batch_kind *kind, size_t *out) {
    if (ctx->auto_fixed || ctx->auto_known[kind->kernel]) return mink__auto_measure(ctx, kind->kernel, 0, NULL, NULL, out);
    size_t m = kind->sample_pairs;
    void *in = malloc(m * kind->record_size);
    mink_hit *hits = malloc(m * sizeof *hits);
    if (in == NULL || hits == NULL) {
        free(in), free(hits);
        return mink__fail(ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory measuring the scalar path's range",
                          kind->name);
    }
    kind->sample(m, in);
    kind_job job = {kind, in, hits};
    mink_status status = mink__auto_measure(ctx, kind->kernel, m, run_kind, &job, out);
    free(in), free(hits);
    return status;
}

mink_status mink__auto_run(mink_context *ctx, mink_kernel_id slot, size_t count, size_t least, mink_range_run_fn *run,
                           void *job, mink_batch_stats *st, mink_backend *path) {
    size_t k = (size_t)slot, done = 0;
    *path = ctx->backend;
    if (count == 0) return MINK_OK;
    if (ctx->backend == MINK_BACKEND_OPENCL && ctx->auto_pick) {
        if (count < MINK_AUTO_LARGE || ctx->auto_fixed) {
            *path = count < least ? MINK_BACKEND_SCALAR : MINK_BACKEND_OPENCL;
        } else {
            if (ctx->auto_large[k] == 0) {
                /* Slices taken in turns, so that a burst of noise from a neighbour falls on both
                 * paths; whole pages of every array (4096 pairs) each. */
                size_t slice = count / (2 * MINK_AUTO_TURNS) / 4096 * 4096;
                double spent[2] = {0.0, 0.0};
                for (int turn = 0; turn < 2 * MINK_AUTO_TURNS; turn++) {
                    double t0 = mink__now_ms();
                    mink_status status = run(ctx, job, turn % 2 ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR, done,
                                             done + slice, st);
                    if (status != MINK_OK) return status;
                    spent[turn % 2] += mink__now_ms() - t0;
                    done += slice;
                }
                ctx->auto_large[k] = (unsigned char)(spent[1] < spent[0] ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR);
            }
            *path = (mink_backend)ctx->auto_large[k];
        }
    }
    return run(ctx, job, *path, done, count, st);
}
