/* host/auto.c — where MINK_BACKEND_AUTO sends a batch to the scalar path instead of the device.
 *
 * A call on the device costs a fixed L (buffer objects, the enqueue, waiting for the result)
 * and then d a pair; the scalar loop costs s a pair from the first. The scalar loop is done first
 * below n* = L / (s − d) pairs, so AUTO sends smaller batches there: the same bits sooner. The
 * three figures differ between devices, hosts and kinds by orders of magnitude (docs/benchmarks.md,
 * "Figures behind the code"), so they are measured on the first AUTO batch of each kind, on the
 * library's own sample pairs of that kind: a few milliseconds, once per kind and context. Each time
 * is the median of seven after a warm-up, which also pays any lazy kernel compile the first real
 * launch would have paid.
 *
 * A sample fits in the caches; a batch of millions of pairs streams through memory, where the
 * two paths can rank the other way (box columns here: one core is faster a pair than PoCL in the
 * cache, PoCL's two cores faster from memory). So the first batch of MINK_AUTO_LARGE pairs or more
 * of each kind (MINK_AUTO_LARGE_MIXED for mixed and turning pairs: large_from) is itself the
 * measurement: slices of it in turns on each path, timed, and the rest, and later large batches
 * of the kind, on the faster. Nothing is swept twice. The choice is not for good: one noisy moment
 * (this VM has many) would fix a slow path for the context's life. A large batch on the chosen
 * path that runs more than MINK_AUTO_WORSE times slower a pair than the other path was timed, or
 * the MINK_AUTO_AGAIN-th since the timing, makes the next one time both again. The paths give the same bits: a change of mind changes only the time. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

#define MINK_AUTO_RUNS 7
/* Slices of a first large batch timed on each path: MINK_AUTO_TURNS (internal.h) each, an eighth
 * of the batch a slice (so nearly all of it is timed). */
/* A large batch's path is timed again after this many, or after one this much slower a pair than
 * the other path was. */
#define MINK_AUTO_AGAIN 16u
#define MINK_AUTO_WORSE 1.25

/* Median wall time of a few runs of the job's first n pairs on one path. The median, not the
 * best: a launch on PoCL costs several times more when its worker threads are asleep than when
 * they are awake, and a batch call meets the usual case. */
static mink_status median_ms(mink_context *ctx, const mink_batch_job *job, mink_backend path, size_t n,
                             double *median) {
    double ms[MINK_AUTO_RUNS];
    for (int r = -1; r < MINK_AUTO_RUNS; r++) { /* run -1 warms up */
        double t0 = mink__now_ms();
        mink_batch_stats st = {0};
        mink_status status = mink__batch_range(ctx, job, path, 0, n, &st);
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

static double larger(double a, double b) { return a > b ? a : b; }

/* The size from which a batch of kind k is its own measurement, timed in slices on each path,
 * rather than judged by the kind's sample: MINK_AUTO_LARGE, or MINK_AUTO_LARGE_MIXED for mixed
 * and turning pairs, whose cost a pair differs a hundredfold with what a batch holds (a box pair
 * or a turning polygon pair) or how fast its bodies turn: the mixed sample, mostly boxes and
 * circles, sent batches of 2 × 10^5 polygon pairs to PoCL at a third of the scalar path's rate on
 * both cores (docs/benchmarks.md, "AUTO's mixed batches timed themselves"). */
static size_t large_from(mink_kernel_id k) {
    return k == MINK_KERNEL_SWEEP_PAIR || k == MINK_KERNEL_SWEEP_ROTATING ? MINK_AUTO_LARGE_MIXED : MINK_AUTO_LARGE;
}

/* The median of a path's slice times (the mean of the middle two): one slice that a
 * neighbour slowed, or that met the pages first, does not decide alone. */
_Static_assert(MINK_AUTO_TURNS >= 2 && MINK_AUTO_TURNS % 2 == 0, "a median of the middle two");
static double middle(const double *t) {
    double s[MINK_AUTO_TURNS];
    for (int i = 0; i < MINK_AUTO_TURNS; i++) s[i] = t[i];
    for (int i = 1; i < MINK_AUTO_TURNS; i++)
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double x = s[j];
            s[j] = s[j - 1], s[j - 1] = x;
        }
    return (s[MINK_AUTO_TURNS / 2 - 1] + s[MINK_AUTO_TURNS / 2]) * 0.5;
}

/* The crossover from m sample pairs of the job's kind: the scalar path below it, the device above. */
static mink_status measure(mink_context *ctx, const mink_batch_job *job, size_t m, size_t *least) {
    double one = 0.0, half = 0.0, many = 0.0, scalar = 0.0;
    mink_status status = median_ms(ctx, job, MINK_BACKEND_OPENCL, 1, &one);
    if (status == MINK_OK) status = median_ms(ctx, job, MINK_BACKEND_OPENCL, m / 2, &half);
    if (status == MINK_OK) status = median_ms(ctx, job, MINK_BACKEND_OPENCL, m, &many);
    /* The scalar path on one thread (a context is used by one thread at a time, so its count may
     * be set aside here): split, a sample this small also timed the waking of the others. */
    unsigned threads = ctx->threads;
    ctx->threads = 1;
    if (status == MINK_OK) status = median_ms(ctx, job, MINK_BACKEND_SCALAR, m, &scalar);
    ctx->threads = threads;
    if (status != MINK_OK) return status;

    /* The device's time a pair: the larger of two slopes, from the one-pair launch and from half
     * the sample to all of it. Either alone, a slow moment in its first launch (PoCL's threads
     * asleep) made it small or negative, and batches went to the device. Where noise makes both
     * nothing, the larger launch's time a pair, fixed cost and all. */
    double d = larger((many - one) / (double)m, (many - half) / (double)(m - m / 2)), fixed = one;
    if (!(d > 0.0)) d = many / (double)m;
    double s = scalar / (double)m;
    /* A scalar path that is faster a pair than the device on every thread the context has (the
     * vectorized box loop against PoCL), as a batch of a few samples runs, keeps every batch.
     * Otherwise the crossover on one thread, as a batch below 2 × MINK_PAIRS_PER_THREAD runs, up
     * to a few samples' worth: past that nothing was measured, and a device scales up better than
     * a sample shows (more work-groups, the fixed cost spread thinner), so from there it gets the
     * batch. */
    double most = 4.0 * (double)m;
    if (s / (double)ctx->threads > d) {
        double n = ceil(fixed / (s - d));
        *least = (size_t)(n < most ? n : most);
    } else {
        *least = SIZE_MAX;
    }
    return MINK_OK;
}

/* The kind's threshold, measured on its sample pairs (as records or as columns) on first use. */
static mink_status threshold(mink_context *ctx, const mink_batch_job *batch, size_t *least) {
    const mink_batch_kind *kind = batch->kind;
    size_t k = (size_t)kind->kernel, m = kind->sample_pairs, floats = kind->record_size / sizeof(float);
    if (ctx->auto_fixed || ctx->auto_known[k]) {
        *least = ctx->auto_min[k];
        return MINK_OK;
    }
    /* Columns a line apart (16 floats), as mink.h advises: columns at the same place in their
     * pages, which the sample's m floats each would be, run slower than any batch laid out so. */
    size_t row = m + 16;
    float *records = malloc(m * kind->record_size), *columns = malloc(row * kind->record_size);
    mink_hit *hits = malloc(row * sizeof *hits);
    mink_status status = MINK_OK;
    if (records == NULL || columns == NULL || hits == NULL) {
        status = mink__fail(ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory measuring the scalar path's range",
                            kind->name);
        goto done;
    }
    kind->sample(m, records);
    mink_batch_job job = {.kind = kind, .dt = 1.0f};
    if (kind->arrays == 1) {
        job.in[0] = records, job.out[0] = hits;
    } else { /* a record's floats in order are the kind's columns */
        for (size_t c = 0; c < kind->arrays; c++) {
            for (size_t i = 0; i < m; i++) columns[c * row + i] = records[i * floats + c];
            job.in[c] = columns + c * row;
        }
        for (size_t c = 0; c < MINK_MAX_OUT; c++) job.out[c] = (float *)hits + c * row;
    }
    status = measure(ctx, &job, m, &ctx->auto_min[k]);
    if (status == MINK_OK) ctx->auto_known[k] = 1, *least = ctx->auto_min[k];
done:
    free(records), free(columns), free(hits);
    return status;
}

mink_status mink__auto_begin(mink_context *ctx, const mink_batch_job *job, size_t count, mink_auto_plan *plan) {
    *plan = (mink_auto_plan){.kind = job->kind->kernel, .count = count, .least = 0};
    if (ctx->backend != MINK_BACKEND_OPENCL || !ctx->auto_pick || count == 0) return MINK_OK;
    if (count < MINK_AUTO_FLOOR && !ctx->auto_fixed) { /* the scalar path, nothing measured or built */
        plan->least = MINK_AUTO_FLOOR;
        return MINK_OK;
    }
    size_t k = (size_t)plan->kind;
    if (count >= large_from(plan->kind) && !ctx->auto_fixed && ctx->auto_large[k] == 0) {
        /* Slices taken in turns, so that a burst of noise from a neighbour falls on both paths;
         * whole pages of every array (4096 pairs) each. */
        plan->measuring = 1;
        plan->slice = count / (2 * MINK_AUTO_TURNS) / 4096 * 4096;
        return MINK_OK;
    }
    return count < large_from(plan->kind) || ctx->auto_fixed ? threshold(ctx, job, &plan->least) : MINK_OK;
}

void mink__auto_next(mink_context *ctx, mink_auto_plan *plan, size_t done, mink_backend *path, size_t *end) {
    size_t k = (size_t)plan->kind;
    *path = ctx->backend;
    *end = plan->count;
    if (ctx->backend != MINK_BACKEND_OPENCL || !ctx->auto_pick) return;
    if (plan->measuring && plan->turn < 2 * MINK_AUTO_TURNS) {
        *path = plan->turn % 2 ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR;
        *end = done + plan->slice;
    } else if (plan->count >= large_from(plan->kind) && !ctx->auto_fixed) {
        *path = (mink_backend)ctx->auto_large[k];
    } else {
        *path = plan->count < plan->least ? MINK_BACKEND_SCALAR : MINK_BACKEND_OPENCL;
    }
}

void mink__auto_took(mink_context *ctx, mink_auto_plan *plan, mink_backend path, size_t pairs, double ms) {
    size_t k = (size_t)plan->kind;
    if (ctx->backend != MINK_BACKEND_OPENCL || !ctx->auto_pick || ctx->auto_fixed ||
        plan->count < large_from(plan->kind))
        return;
    if (plan->measuring && plan->turn >= 2 * MINK_AUTO_TURNS) return; /* a timed batch's rest */
    if (!plan->measuring) { /* a large batch on the chosen path */
        int device = path == MINK_BACKEND_OPENCL;
        double rate = ms / (double)(pairs ? pairs : 1), other = ctx->auto_rate[k][!device];
        if (++ctx->auto_since[k] >= MINK_AUTO_AGAIN || (other > 0.0 && rate > MINK_AUTO_WORSE * other))
            ctx->auto_large[k] = 0; /* the next large batch times both again */
        return;
    }
    plan->ms[path == MINK_BACKEND_OPENCL][plan->turn / 2] = ms;
    if (++plan->turn == 2 * MINK_AUTO_TURNS) {
        double scalar = middle(plan->ms[0]), device = middle(plan->ms[1]);
        ctx->auto_rate[k][0] = scalar / (double)plan->slice;
        ctx->auto_rate[k][1] = device / (double)plan->slice;
        ctx->auto_since[k] = 0;
        ctx->auto_large[k] = (unsigned char)(device < scalar ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR);
    }
}
