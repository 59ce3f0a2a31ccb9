/* bench/bench_aabb.c — box batch throughput, scalar and OpenCL side by side in one run.
 *
 * For 10^3 … 10^7 pairs of the sample batch (about a third hitting), prints pairs per second for:
 *   scalar          the scalar path on this thread
 *   cl kernel       the OpenCL kernels alone (profiling events)
 *   cl end-to-end   the whole mink_batch_sweep_aabb call, transfers included, per transfer mode
 * Each figure is the median of several runs (after one warm-up), with min and max.
 * Usage: bench_aabb [MAX_PAIRS] [REPS]        (defaults 10000000, 5) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mink/mink.h"
#include "mink/sample.h"

typedef struct figure {
    double median, min, max; /* pairs per second */
} figure;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static figure summarize(double *ms, int reps, size_t n) {
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    figure f = {(double)n / (ms[reps / 2] * 1e-3), (double)n / (ms[reps - 1] * 1e-3), (double)n / (ms[0] * 1e-3)};
    return f;
}

/* Runs the batch reps times after a warm-up; fills end-to-end and kernel-only figures. */
static int measure(mink_context *ctx, const mink_aabb_pair *pairs, size_t n, mink_hit *hits, int reps,
                   figure *e2e, figure *kernel) {
    double total[64], kern[64];
    if (mink_batch_sweep_aabb(ctx, pairs, n, 1.0f, hits) != MINK_OK) return 0;
    for (int r = 0; r < reps; r++) {
        if (mink_batch_sweep_aabb(ctx, pairs, n, 1.0f, hits) != MINK_OK) return 0;
        mink_batch_stats st = mink_context_stats(ctx);
        total[r] = st.total_ms > 1e-6 ? st.total_ms : 1e-6;
        kern[r] = st.kernel_ms > 1e-6 ? st.kernel_ms : 1e-6;
    }
    *e2e = summarize(total, reps, n);
    if (kernel) *kernel = summarize(kern, reps, n);
    return 1;
}

static void print_fig(figure f) { printf(" %8.1f [%6.1f-%6.1f]", f.median / 1e6, f.min / 1e6, f.max / 1e6); }

int main(int argc, char **argv) {
    size_t max_pairs = argc > 1 ? (size_t)strtod(argv[1], NULL) : 10000000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (max_pairs < 1000 || reps < 1 || reps > 64) {
        fprintf(stderr, "usage: bench_aabb [MAX_PAIRS >= 1000] [REPS 1..64]\n");
        return 2;
    }
    mink_context *scalar = NULL, *map = NULL, *copy = NULL;
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &scalar) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL, .transfer = MINK_TRANSFER_MAP}, &map) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL, .transfer = MINK_TRANSFER_COPY}, &copy) != MINK_OK) {
        fprintf(stderr, "bench_aabb: %s\n", mink_last_error());
        return 1;
    }
    mink_aabb_pair *pairs = malloc(max_pairs * sizeof *pairs);
    mink_hit *hits = malloc(max_pairs * sizeof *hits), *ref = malloc(max_pairs * sizeof *ref);
    if (!pairs || !hits || !ref) {
        fprintf(stderr, "bench_aabb: out of memory\n");
        return 1;
    }
    mink_sample_aabb_pairs(1, max_pairs, pairs);
    /* Touch every page once so no run pays for first-touch page faults. */
    memset(hits, 0, max_pairs * sizeof *hits);
    memset(ref, 0, max_pairs * sizeof *ref);

    printf("device: %s\n", mink_context_device(map));
    printf("bytes moved per pair: %zu (a %zu-byte record in, a %zu-byte hit out)\n",
           sizeof(mink_aabb_pair) + sizeof(mink_hit), sizeof(mink_aabb_pair), sizeof(mink_hit));
    printf("million pairs per second, median [min-max] of %d runs\n", reps);
    printf("%10s %25s %25s %25s %25s %9s\n", "pairs", "scalar", "cl kernel", "cl end-to-end (map)",
           "cl end-to-end (copy)", "map/scalar");
    int ok = 1;
    for (size_t n = 1000; n <= max_pairs && ok; n *= 10) {
        figure fs, fk, fm, fc;
        ok = measure(scalar, pairs, n, ref, reps, &fs, NULL) && measure(map, pairs, n, hits, reps, &fm, &fk) &&
             measure(copy, pairs, n, hits, reps, &fc, NULL);
        if (!ok) break;
        if (memcmp(hits, ref, n * sizeof *ref) != 0) {
            fprintf(stderr, "bench_aabb: OpenCL and scalar results differ at %zu pairs\n", n);
            ok = 0;
            break;
        }
        printf("%10zu", n);
        print_fig(fs), print_fig(fk), print_fig(fm), print_fig(fc);
        printf(" %8.2fx\n", fm.median / fs.median);
    }
    if (!ok && mink_last_error()[0]) fprintf(stderr, "bench_aabb: %s\n", mink_last_error());
    mink_context_destroy(scalar), mink_context_destroy(map), mink_context_destroy(copy);
    free(pairs), free(hits), free(ref);
    return ok ? 0 : 1;
}
