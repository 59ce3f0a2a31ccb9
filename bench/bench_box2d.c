/* bench/bench_box2d.c — mink's polygon queries beside Box2D 2.4's b2TimeOfImpact, on the same
 * pairs in the same run: speed, and how far the answers agree.
 *
 * For each kind (polygons of 4 and of 8 vertices, polygon–circle, turning bodies) it makes N
 * sample pairs, answers them with mink's mixed batch on the scalar path (one thread), with the
 * kind's typed batch on that path (mink_batch_sweep_polygon, _polygon_circle: what a program
 * holding only such pairs calls), on the OpenCL device and in a default context (AUTO: the scalar
 * path on every core, or the device; all four checked bit for bit) and with b2TimeOfImpact pair
 * by pair, and prints:
 *   - pairs per second for each, and the ratios to Box2D's of the scalar path (mixed, and typed:
 *     one thread each, as Box2D's) and of the best;
 *   - hit/no-hit agreement. Box2D stops at a target separation (0.005 for shapes without radius,
 *     3 linear slops under the radii) and calls a pair "touching" there; mink's swept SAT reports
 *     interior overlap exactly and its conservative advancement stops within 1/1024 of the shapes'
 *     size. So pairs that pass within 0.005 without overlapping are hits for Box2D only, and
 *     that is counted apart ("near misses"), measured with mink's own exact query;
 *   - the distribution of t_box2d − t_mink over pairs both call a contact (Box2D's answer lies
 *     earlier by about 0.005 / closing speed).
 * Usage: bench_box2d [PAIRS] [REPS]        (defaults 200000, 3) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "mink/mink.h"
#include "mink/sample.h"
#include "peer_box2d.h"

/* Every kind as mixed-batch records, so one mink call and one Box2D call cover them all. */
static void make(const char *kind, size_t n, mink_pair *out) {
    if (strcmp(kind, "rotating") == 0) {
        mink_sample_rotating_pairs(3, n, out);
        return;
    }
    if (strcmp(kind, "polygon-circle") == 0) {
        mink_polygon_circle_pair *p = malloc(n * sizeof *p);
        mink_sample_polygon_circle_pairs(3, n, p);
        for (size_t i = 0; i < n; i++)
            out[i] = (mink_pair){mink_body_polygon(p[i].a, p[i].va), mink_body_circle(p[i].b, p[i].vb)};
        free(p);
        return;
    }
    mink_polygon_pair *p = malloc(n * sizeof *p);
    mink_sample_polygon_pairs(3, n, strcmp(kind, "polygon-4") == 0 ? 4 : 8, p);
    for (size_t i = 0; i < n; i++)
        out[i] = (mink_pair){mink_body_polygon(p[i].a, p[i].va), mink_body_polygon(p[i].b, p[i].vb)};
    free(p);
}

/* The polygon kinds' pairs as the typed records a program holding only such pairs would hand over
 * (mink_batch_sweep_polygon, mink_batch_sweep_polygon_circle), through the same context; median
 * milliseconds of reps, or 0 for the turning kind, which has no other batch. */
static double time_typed(mink_context *ctx, const char *kind, const mink_pair *pairs, size_t n, mink_hit *hits,
                         int reps) {
    int circles = strcmp(kind, "polygon-circle") == 0;
    if (strcmp(kind, "rotating") == 0) return 0.0;
    void *typed = malloc(n * (circles ? sizeof(mink_polygon_circle_pair) : sizeof(mink_polygon_pair)));
    if (!typed) {
        fprintf(stderr, "bench_box2d: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        if (circles)
            ((mink_polygon_circle_pair *)typed)[i] = (mink_polygon_circle_pair){
                pairs[i].a.shape.polygon, pairs[i].a.velocity, pairs[i].b.shape.circle, pairs[i].b.velocity};
        else
            ((mink_polygon_pair *)typed)[i] = (mink_polygon_pair){pairs[i].a.shape.polygon, pairs[i].a.velocity,
                                                                  pairs[i].b.shape.polygon, pairs[i].b.velocity};
    }
    double ms[16];
    for (int r = 0; r <= reps; r++) {
        double t0 = bench_now_ms();
        mink_status s = circles ? mink_batch_sweep_polygon_circle(ctx, typed, n, 1.0f, hits)
                                : mink_batch_sweep_polygon(ctx, typed, n, 1.0f, hits);
        if (s != MINK_OK) {
            fprintf(stderr, "bench_box2d: %s\n", mink_last_error());
            exit(1);
        }
        if (r > 0) ms[r - 1] = bench_now_ms() - t0;
    }
    free(typed);
    qsort(ms, (size_t)reps, sizeof ms[0], bench_cmp_double);
    return ms[reps / 2];
}

/* The whole batch through mink; median milliseconds of reps. */
static double time_mink(mink_context *ctx, const mink_pair *pairs, size_t n, int rotating, mink_hit *hits, int reps) {
    double ms[16];
    for (int r = 0; r <= reps; r++) { /* run 0 warms up (PoCL compiles on first launch) */
        double t0 = bench_now_ms();
        mink_status s = rotating ? mink_batch_sweep_rotating(ctx, pairs, n, 1.0f, NULL, hits)
                                 : mink_batch_sweep(ctx, pairs, n, 1.0f, hits);
        if (s != MINK_OK) {
            fprintf(stderr, "bench_box2d: %s\n", mink_last_error());
            exit(1);
        }
        if (r > 0) ms[r - 1] = bench_now_ms() - t0;
    }
    qsort(ms, (size_t)reps, sizeof ms[0], bench_cmp_double);
    return ms[reps / 2];
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)strtod(argv[1], NULL) : 200000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 100 || reps < 1 || reps > 15) {
        fprintf(stderr, "usage: bench_box2d [PAIRS >= 100] [REPS 1..15]\n");
        return 2;
    }
    mink_context *scalar = NULL, *cl = NULL, *any = NULL;
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .threads = 1}, &scalar) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, &cl) != MINK_OK ||
        mink_context_create(NULL, &any) != MINK_OK) {
        fprintf(stderr, "bench_box2d: %s\n", mink_last_error());
        return 1;
    }
    mink_pair *pairs = malloc(n * sizeof *pairs);
    mink_hit *hits = malloc(n * sizeof *hits), *ref = malloc(n * sizeof *ref);
    float *t2 = malloc(n * sizeof *t2);
    peer_toi_state *s2 = malloc(n * sizeof *s2);
    double *diff = malloc(n * sizeof *diff);
    if (!pairs || !hits || !ref || !t2 || !s2 || !diff) {
        fprintf(stderr, "bench_box2d: out of memory\n");
        return 1;
    }
    printf("mink on %s beside %s's b2TimeOfImpact; %zu pairs per kind, median of %d runs\n",
           mink_context_device(cl), peer_box2d_version(), n, reps);
    printf("%-15s %12s %12s %12s %12s %12s %9s %9s %9s | %7s %8s %8s %8s %8s | %9s %9s %9s %9s\n", "kind",
           "scalar M/s", "typed M/s", "OpenCL M/s", "default M/s", "Box2D M/s", "scal/b2d", "typd/b2d", "best/b2d",
           "agree", "near", "b2d only", "mink only", "b2d fail", "dt med", "dt p90", "dt p99", "dt max");
    const char *kinds[] = {"polygon-4", "polygon-8", "polygon-circle", "rotating"};
    int ok = 1;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int rotating = strcmp(kinds[k], "rotating") == 0;
        make(kinds[k], n, pairs);
        double ms_scalar = time_mink(scalar, pairs, n, rotating, ref, reps);
        double ms_typed = time_typed(scalar, kinds[k], pairs, n, hits, reps);
        if (ms_typed > 0.0 && memcmp(hits, ref, n * sizeof *ref) != 0) {
            fprintf(stderr, "bench_box2d: %s: the typed batch's and the mixed batch's results differ\n", kinds[k]);
            ok = 0;
        }
        double ms_cl = time_mink(cl, pairs, n, rotating, hits, reps);
        if (memcmp(hits, ref, n * sizeof *ref) != 0) {
            fprintf(stderr, "bench_box2d: %s: OpenCL and scalar results differ\n", kinds[k]);
            ok = 0;
        }
        double ms_any = time_mink(any, pairs, n, rotating, hits, reps);
        if (memcmp(hits, ref, n * sizeof *ref) != 0) {
            fprintf(stderr, "bench_box2d: %s: a default context's and the scalar results differ\n", kinds[k]);
            ok = 0;
        }
        double ms_b2d[16];
        for (int r = 0; r < reps; r++) {
            double t0 = bench_now_ms();
            for (size_t i = 0; i < n; i++) s2[i] = peer_box2d_toi(&pairs[i].a, &pairs[i].b, 1.0f, &t2[i]);
            ms_b2d[r] = bench_now_ms() - t0;
        }
        qsort(ms_b2d, (size_t)reps, sizeof ms_b2d[0], bench_cmp_double);
        double b2d = ms_b2d[reps / 2];

        size_t agree = 0, near = 0, b2d_only = 0, mink_only = 0, failed = 0, nd = 0;
        for (size_t i = 0; i < n; i++) {
            int m = (ref[i].flags & MINK_HIT_CONTACT) != 0;
            int b = s2[i] == PEER_TOI_TOUCHING || s2[i] == PEER_TOI_OVERLAPPED;
            if (s2[i] == PEER_TOI_FAILED) {
                failed++;
                continue;
            }
            if (m == b) {
                agree++;
                if (m && !(ref[i].flags & MINK_HIT_OVERLAP) && s2[i] == PEER_TOI_TOUCHING) diff[nd++] = (double)t2[i] - ref[i].t;
            } else if (b) {
                /* Box2D's hit only: did the shapes come within its 0.005 target without touching?
                 * (grown by the target, mink's exact query sees them meet) */
                mink_rotating_desc near_desc = {0.02f, 256};
                mink_hit close = mink_sweep_rotating(pairs[i].a, pairs[i].b, 1.0f, near_desc, NULL);
                if (close.flags & MINK_HIT_CONTACT) near++;
                else b2d_only++;
            } else {
                mink_only++;
            }
        }
        qsort(diff, nd, sizeof *diff, bench_cmp_double);
        double best = ms_scalar < ms_cl ? ms_scalar : ms_cl;
        best = ms_any < best ? ms_any : best;
        best = ms_typed > 0.0 && ms_typed < best ? ms_typed : best;
        double typed = ms_typed > 0.0 ? ms_typed : ms_scalar; /* the turning kind: its one batch */
        printf("%-15s %12.2f %12.2f %12.2f %12.2f %12.2f %8.1fx %8.1fx %8.1fx | %6.2f%% %8zu %8zu %8zu %8zu | "
               "%9.2e %9.2e %9.2e %9.2e\n",
               kinds[k], n / ms_scalar * 1e-3, n / typed * 1e-3, n / ms_cl * 1e-3, n / ms_any * 1e-3,
               n / b2d * 1e-3, b2d / ms_scalar, b2d / typed, b2d / best,
               100.0 * agree / (double)(n - failed), near, b2d_only, mink_only, failed,
               nd ? diff[nd / 2] : 0.0, nd ? diff[nd * 9 / 10] : 0.0, nd ? diff[nd * 99 / 100] : 0.0,
               nd ? diff[nd - 1] : 0.0);
        fflush(stdout);
    }
    mink_context_destroy(scalar), mink_context_destroy(cl), mink_context_destroy(any);
    free(pairs), free(hits), free(ref), free(t2), free(s2), free(diff);
    return ok ? 0 : 1;
}
