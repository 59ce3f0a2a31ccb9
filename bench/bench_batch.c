/* bench/bench_batch.c — batch throughput for every pair kind, scalar and OpenCL side by side.
 *
 * For each kind (box, circle, circle–box, mixed in random order, mixed sorted by kind, polygons of
 * 4 and 8 vertices, polygon–box, polygon–circle, turning bodies by conservative advancement, rays
 * against bodies of any shape, capsule pairs and capsule–circle pairs typed and as mixed records)
 * and for
 * 10^3 … MAX pairs of the sample batches (about a third hitting), prints million pairs per second:
 *   scalar          the scalar path on this thread
 *   cl kernel       the OpenCL kernels alone (profiling events)
 *   cl e2e map      the whole call, with the buffers wrapping the caller's arrays
 *   cl e2e copy     the whole call, copying through device buffers
 * Each figure is the median of several runs after a warm-up, with [min-max]. Every size is checked
 * bit for bit between the paths before it is printed.
 * Usage: bench_batch [MAX_PAIRS] [REPS] [KIND]      (defaults 10000000, 5, all) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "mink/mink.h"
#include "mink/sample.h"

typedef mink_status batch_fn(mink_context *, const void *, size_t, float, mink_hit *);

static mink_status run_aabb(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_aabb(c, p, n, dt, h); }
static mink_status run_circle(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_circle(c, p, n, dt, h); }
static mink_status run_circle_aabb(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_circle_aabb(c, p, n, dt, h); }
static mink_status run_mixed(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep(c, p, n, dt, h); }
static mink_status run_polygon(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_polygon(c, p, n, dt, h); }
static mink_status run_polygon_aabb(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_polygon_aabb(c, p, n, dt, h); }
static mink_status run_polygon_circle(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_polygon_circle(c, p, n, dt, h); }
static mink_status run_rotating(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_rotating(c, p, n, dt, NULL, h); }
static mink_status run_capsule(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_capsule(c, p, n, dt, h); }
static mink_status run_capsule_circle(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { return mink_batch_sweep_capsule_circle(c, p, n, dt, h); }
static mink_status run_ray(mink_context *c, const void *p, size_t n, float dt, mink_hit *h) { (void)dt; return mink_batch_cast_ray(c, p, n, h); }

static void make_aabb(size_t n, void *out) { mink_sample_aabb_pairs(1, n, out); }
static void make_circle(size_t n, void *out) { mink_sample_circle_pairs(1, n, out); }
static void make_circle_aabb(size_t n, void *out) { mink_sample_circle_aabb_pairs(1, n, out); }
static void make_mixed(size_t n, void *out) { mink_sample_pairs(1, n, out); }
static void make_polygon4(size_t n, void *out) { mink_sample_polygon_pairs(1, n, 4, out); }
static void make_polygon8(size_t n, void *out) { mink_sample_polygon_pairs(1, n, 8, out); }
static void make_polygon_aabb(size_t n, void *out) { mink_sample_polygon_aabb_pairs(1, n, out); }
static void make_polygon_circle(size_t n, void *out) { mink_sample_polygon_circle_pairs(1, n, out); }
static void make_rotating(size_t n, void *out) { mink_sample_rotating_pairs(1, n, out); }
static void make_ray(size_t n, void *out) { mink_sample_ray_casts(1, n, out); }
static void make_capsule(size_t n, void *out) { mink_sample_capsule_pairs(1, n, out); }
static void make_capsule_circle(size_t n, void *out) { mink_sample_capsule_circle_pairs(1, n, out); }

/* The same capsule pairs as mixed records: what the typed batches save. Each typed record is read
 * before its mixed record is written over it, from the end down (a mixed record is larger). */
static void make_capsule_mixed(size_t n, void *out) {
    mink_capsule_pair *typed = out;
    mink_sample_capsule_pairs(1, n, typed);
    for (size_t i = n; i-- > 0;) {
        mink_capsule_pair p = typed[i];
        ((mink_pair *)out)[i] = (mink_pair){mink_body_capsule(p.a, p.va), mink_body_capsule(p.b, p.vb)};
    }
}
static void make_capsule_circle_mixed(size_t n, void *out) {
    mink_capsule_circle_pair *typed = out;
    mink_sample_capsule_circle_pairs(1, n, typed);
    for (size_t i = n; i-- > 0;) {
        mink_capsule_circle_pair p = typed[i];
        ((mink_pair *)out)[i] = (mink_pair){mink_body_capsule(p.a, p.va), mink_body_circle(p.b, p.vb)};
    }
}

static int kind_of(const mink_pair *p) { return (int)(p->a.type * 4u + p->b.type); }
static int cmp_kind(const void *a, const void *b) { return kind_of(a) - kind_of(b); }
/* The same pairs grouped by kind: what a typed batch per kind would see. */
static void make_mixed_sorted(size_t n, void *out) {
    mink_sample_pairs(1, n, out);
    qsort(out, n, sizeof(mink_pair), cmp_kind);
}

typedef struct kind {
    const char *name;
    size_t record_size;
    void (*make)(size_t, void *);
    batch_fn *run;
} kind;

static const kind kinds[] = {
    {"box", sizeof(mink_aabb_pair), make_aabb, run_aabb},
    {"circle", sizeof(mink_circle_pair), make_circle, run_circle},
    {"circle-box", sizeof(mink_circle_aabb_pair), make_circle_aabb, run_circle_aabb},
    {"mixed", sizeof(mink_pair), make_mixed, run_mixed},
    {"mixed-sorted", sizeof(mink_pair), make_mixed_sorted, run_mixed},
    {"polygon-4", sizeof(mink_polygon_pair), make_polygon4, run_polygon},
    {"polygon-8", sizeof(mink_polygon_pair), make_polygon8, run_polygon},
    {"polygon-box", sizeof(mink_polygon_aabb_pair), make_polygon_aabb, run_polygon_aabb},
    {"polygon-circle", sizeof(mink_polygon_circle_pair), make_polygon_circle, run_polygon_circle},
    {"rotating", sizeof(mink_pair), make_rotating, run_rotating},
    {"ray", sizeof(mink_ray_cast), make_ray, run_ray},
    {"capsule", sizeof(mink_capsule_pair), make_capsule, run_capsule},
    {"capsule-mixed", sizeof(mink_pair), make_capsule_mixed, run_mixed},
    {"capsule-circle", sizeof(mink_capsule_circle_pair), make_capsule_circle, run_capsule_circle},
    {"capsule-circle-mixed", sizeof(mink_pair), make_capsule_circle_mixed, run_mixed},
};

static int measure(mink_context *ctx, const kind *k, const void *recs, size_t n, mink_hit *hits, int reps,
                   bench_figure *e2e, bench_figure *kernel) {
    double total[64], kern[64];
    if (k->run(ctx, recs, n, 1.0f, hits) != MINK_OK) return 0;
    for (int r = 0; r < reps; r++) {
        if (k->run(ctx, recs, n, 1.0f, hits) != MINK_OK) return 0;
        mink_batch_stats st = mink_context_stats(ctx);
        total[r] = st.total_ms;
        kern[r] = st.kernel_ms;
    }
    *e2e = bench_summarize(total, reps, n);
    if (kernel) *kernel = bench_summarize(kern, reps, n);
    return 1;
}

static void print_fig(bench_figure f) { printf(" %7.1f [%5.1f-%5.1f]", f.median / 1e6, f.min / 1e6, f.max / 1e6); }

int main(int argc, char **argv) {
    size_t max_pairs = argc > 1 ? (size_t)strtod(argv[1], NULL) : 10000000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    const char *only = argc > 3 ? argv[3] : NULL;
    if (max_pairs < 1000 || reps < 1 || reps > 64) {
        fprintf(stderr, "usage: bench_batch [MAX_PAIRS >= 1000] [REPS 1..64] [KIND]\n");
        return 2;
    }
    mink_context *scalar = NULL, *map = NULL, *copy = NULL;
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .threads = 1}, &scalar) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL, .transfer = MINK_TRANSFER_MAP}, &map) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL, .transfer = MINK_TRANSFER_COPY}, &copy) != MINK_OK) {
        fprintf(stderr, "bench_batch: %s\n", mink_last_error());
        return 1;
    }
    void *recs = malloc(max_pairs * sizeof(mink_pair));
    mink_hit *hits = malloc(max_pairs * sizeof *hits), *ref = malloc(max_pairs * sizeof *ref);
    if (!recs || !hits || !ref) {
        fprintf(stderr, "bench_batch: out of memory\n");
        return 1;
    }
    memset(hits, 0, max_pairs * sizeof *hits); /* first-touch the pages outside the timings */
    memset(ref, 0, max_pairs * sizeof *ref);

    printf("device: %s\n", mink_context_device(map));
    printf("million pairs per second, median [min-max] of %d runs; bytes per pair = record + %zu-byte hit\n",
           reps, sizeof(mink_hit));
    int ok = 1;
    for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0] && ok; ki++) {
        const kind *k = &kinds[ki];
        if (only && strcmp(only, k->name) != 0) continue;
        k->make(max_pairs, recs);
        printf("\n%s (%zu bytes per pair)\n%10s %21s %21s %21s %21s %9s\n", k->name, k->record_size + sizeof(mink_hit),
               "pairs", "scalar", "cl kernel", "cl e2e map", "cl e2e copy", "map/scalar");
        for (size_t n = 1000; n <= max_pairs && ok; n *= 10) {
            bench_figure fs, fk, fm, fc;
            ok = measure(scalar, k, recs, n, ref, reps, &fs, NULL) && measure(map, k, recs, n, hits, reps, &fm, &fk) &&
                 measure(copy, k, recs, n, hits, reps, &fc, NULL);
            if (!ok) break;
            if (memcmp(hits, ref, n * sizeof *ref) != 0) {
                fprintf(stderr, "bench_batch: %s: OpenCL and scalar results differ at %zu pairs\n", k->name, n);
                ok = 0;
                break;
            }
            printf("%10zu", n);
            print_fig(fs), print_fig(fk), print_fig(fm), print_fig(fc);
            printf(" %8.2fx\n", fm.median / fs.median);
            fflush(stdout);
        }
    }
    if (!ok && mink_last_error()[0]) fprintf(stderr, "bench_batch: %s\n", mink_last_error());
    mink_context_destroy(scalar), mink_context_destroy(map), mink_context_destroy(copy);
    free(recs), free(hits), free(ref);
    return ok ? 0 : 1;
}
