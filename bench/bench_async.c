/* bench/bench_async.c — a frame with a batch that doesn't block: the caller's own work beside it.
 *
 * A game's frame: a batch of box pairs sized to take about BATCH_MS on its own, and WORK_MS of the
 * caller's own work (a busy loop on the clock). Blocking, the frame is the batch, then the work;
 * submitted (mink_batch_submit), the work runs while the batch does, then mink_batch_wait. Prints
 * the median milliseconds a frame of each, with the batch and the work alone, on the scalar path
 * with one thread (the batch on one core, the caller on the other) and on OpenCL (PoCL's threads
 * share the cores with the caller). The submitted batch's hits are compared with the blocking one's.
 * Usage: bench_async [FRAMES] [BATCH_MS] [WORK_MS]      (defaults 50, 5, 5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "mink/mink.h"
#include "mink/sample.h"

static volatile double sink;

/* The caller's own work: ms of arithmetic, by the clock. */
static void work(double ms) {
    double until = bench_now_ms() + ms, x = 1.0;
    while (bench_now_ms() < until)
        for (int k = 0; k < 1000; k++) x = x * 1.0000001 + 1e-9;
    sink = x;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[n / 2];
}

/* Pairs the batch takes about ms to sweep on ctx. */
static size_t calibrate(mink_context *ctx, const mink_aabb_pair *pairs, size_t most, mink_hit *hits, double ms) {
    size_t n = 1024;
    for (;;) {
        double t[3];
        for (int r = 0; r < 3; r++) {
            double t0 = bench_now_ms();
            if (mink_batch_sweep_aabb(ctx, pairs, n, 1.0f, hits) != MINK_OK) return 0;
            t[r] = bench_now_ms() - t0;
        }
        double took = median(t, 3);
        if (took >= ms * 0.9 || n >= most) return n;
        size_t next = (size_t)((double)n * ms / (took > 0.01 ? took : 0.01));
        n = next > n * 8 ? n * 8 : next < n + 1 ? n + 1 : next;
        if (n > most) n = most;
    }
}

static int run(const char *name, mink_context *ctx, const mink_aabb_pair *pairs, size_t most, mink_hit *hits,
               mink_hit *check, int frames, double batch_ms, double work_ms) {
    size_t n = calibrate(ctx, pairs, most, hits, batch_ms);
    if (n == 0) return fprintf(stderr, "bench_async: %s\n", mink_last_error()), 1;
    double *alone = malloc((size_t)frames * sizeof *alone), *own = malloc((size_t)frames * sizeof *own);
    double *blocking = malloc((size_t)frames * sizeof *blocking), *async = malloc((size_t)frames * sizeof *async);
    int failed = !alone || !own || !blocking || !async;
    for (int f = 0; f < frames && !failed; f++) {
        double t0 = bench_now_ms();
        failed |= mink_batch_sweep_aabb(ctx, pairs, n, 1.0f, check) != MINK_OK;
        double t1 = bench_now_ms();
        work(work_ms);
        double t2 = bench_now_ms();
        alone[f] = t1 - t0, own[f] = t2 - t1;
        t0 = bench_now_ms();
        failed |= mink_batch_sweep_aabb(ctx, pairs, n, 1.0f, hits) != MINK_OK;
        work(work_ms);
        blocking[f] = bench_now_ms() - t0;
        mink_ticket ticket;
        mink_batch_desc d = {.call = MINK_CALL_SWEEP_AABB, .pairs = pairs, .count = n, .dt = 1.0f, .hits = hits};
        t0 = bench_now_ms();
        failed |= mink_batch_submit(ctx, &d, &ticket) != MINK_OK;
        work(work_ms);
        failed |= mink_batch_wait(ctx, ticket) != MINK_OK;
        async[f] = bench_now_ms() - t0;
        failed |= memcmp(hits, check, n * sizeof *hits) != 0;
    }
    if (failed) {
        fprintf(stderr, "bench_async: %s failed (%s)\n", name, mink_last_error());
    } else {
        printf("%-22s %9zu %9.2f %9.2f %11.2f %11.2f  same bits\n", name, n, median(alone, frames),
               median(own, frames), median(blocking, frames), median(async, frames));
    }
    free(alone), free(own), free(blocking), free(async);
    return failed;
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 50;
    double batch_ms = argc > 2 ? atof(argv[2]) : 5.0, work_ms = argc > 3 ? atof(argv[3]) : 5.0;
    if (frames < 1 || frames > 100000 || !(batch_ms > 0.0) || !(work_ms >= 0.0)) {
        fprintf(stderr, "usage: bench_async [FRAMES 1..100000] [BATCH_MS > 0] [WORK_MS >= 0]\n");
        return 2;
    }
    const size_t most = 1u << 22;
    mink_aabb_pair *pairs = malloc(most * sizeof *pairs);
    mink_hit *hits = malloc(most * sizeof *hits), *check = malloc(most * sizeof *check);
    if (!pairs || !hits || !check) return fprintf(stderr, "bench_async: out of memory\n"), 1;
    mink_sample_aabb_pairs(7, most, pairs);
    mink_context *scalar = NULL, *opencl = NULL;
    int failed = mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .threads = 1}, &scalar) != MINK_OK;
    if (failed) fprintf(stderr, "bench_async: %s\n", mink_last_error());
    printf("a frame: a batch of box pairs (about %.1f ms alone) and %.1f ms of the caller's own work; median of %d\n",
           batch_ms, work_ms, frames);
    printf("path                       pairs  batch ms   work ms  blocking ms  submit+wait ms\n");
    if (!failed) failed = run("scalar, 1 thread", scalar, pairs, most, hits, check, frames, batch_ms, work_ms);
    if (!failed && mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, &opencl) == MINK_OK)
        failed = run("opencl", opencl, pairs, most, hits, check, frames, batch_ms, work_ms);
    mink_context_destroy(scalar);
    mink_context_destroy(opencl);
    free(pairs), free(hits), free(check);
    if (!failed) printf("bench_async: ok\n");
    return failed;
}
