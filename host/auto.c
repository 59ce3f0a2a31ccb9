/* host/auto.c — where MINK_BACKEND_AUTO sends a batch to the scalar path instead of the device.
 *
 * A call on the device costs a fixed L (buffer objects, the enqueue, waiting for the result: about
 * 0.06 ms on PoCL, more across a bus) and then d a pair; the scalar loop costs s a pair from the
 * first. The scalar loop is done first below n* = L / (s − d) pairs, so AUTO sends smaller batches
 * there: the same bits sooner. The three figures differ between devices, hosts and kinds (a box
 * pair takes 30 ns on one core here, a turning polygon pair 2 µs), so they are measured on the
 * first AUTO batch of each kind, on the library's own sample pairs of that kind: a few
 * milliseconds, once per kind and context. Each time is the median of seven after a warm-up, which
 * also pays any lazy kernel compile the first real launch would have paid. */
#include <math.h>
#include <stdlib.h>

#include "internal.h"

#define MINK_AUTO_RUNS 7

/* Median wall time of a few runs, on the device (n pairs) or the scalar path. The median, not the
 * best: a launch on PoCL takes 10 µs when its worker threads are awake and 70 µs when they are
 * not, and a batch call meets the usual case. */
static mink_status median_ms(mink_context *ctx, const mink_batch_kind *kind, int on_device, const void *in,
                             size_t n, mink_hit *hits, double *median) {
    const mink_rotating_desc defaults = {0};
    double ms[MINK_AUTO_RUNS];
    for (int run = -1; run < MINK_AUTO_RUNS; run++) { /* run -1 warms up */
        mink_batch_stats st = {0};
        double t0 = mink__now_ms();
        if (on_device) {
            mink_status status = mink__batch_opencl(ctx, kind, in, n, 1.0f, &defaults, hits, &st);
            if (status != MINK_OK) return status;
        } else {
            kind->scalar(in, n, 1.0f, &defaults, hits);
        }
        if (run >= 0) ms[run] = mink__now_ms() - t0;
    }
    for (int i = 1; i < MINK_AUTO_RUNS; i++) /* insertion sort: seven numbers */
        for (int j = i; j > 0 && ms[j - 1] > ms[j]; j--) {
            double x = ms[j];
            ms[j] = ms[j - 1], ms[j - 1] = x;
        }
    *median = ms[MINK_AUTO_RUNS / 2];
    return MINK_OK;
}

mink_status mink__auto_min_pairs(mink_context *ctx, const mink_batch_kind *kind, size_t *out) {
    size_t k = (size_t)kind->kernel;
    if (ctx->auto_fixed || ctx->auto_known[k]) {
        *out = ctx->auto_min[k];
        return MINK_OK;
    }
    size_t m = kind->sample_pairs;
    void *in = malloc(m * kind->record_size);
    mink_hit *hits = malloc(m * sizeof *hits);
    if (in == NULL || hits == NULL) {
        free(in), free(hits);
        return mink__fail(ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory measuring the scalar path's range",
                          kind->name);
    }
    kind->sample(m, in);
    double one = 0.0, many = 0.0, scalar = 0.0;
    mink_status status = median_ms(ctx, kind, 1, in, 1, hits, &one);
    if (status == MINK_OK) status = median_ms(ctx, kind, 1, in, m, hits, &many);
    if (status == MINK_OK) status = median_ms(ctx, kind, 0, in, m, hits, &scalar);
    free(in), free(hits);
    if (status != MINK_OK) return status;

    double s = scalar / (double)m, d = (many - one) / (double)m, fixed = one;
    /* Past a few samples' worth nothing was measured, and a device scales up better than a
     * sample shows (more work-groups, the fixed cost spread thinner): from there it gets the batch
     * whatever the sample said, as AUTO always did. Below, the measured crossover. */
    double most = 4.0 * (double)m;
    double least = s > d ? ceil(fixed / (s - d)) : most;
    ctx->auto_min[k] = (size_t)(least < most ? least : most);
    ctx->auto_known[k] = 1;
    *out = ctx->auto_min[k];
    return MINK_OK;
}
