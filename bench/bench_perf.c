/* bench/bench_perf.c — how close mink's batches come to this machine's memory limit, what a small
 * call costs, and how far ahead of the libraries people would otherwise call, in one run.
 *
 *   1. The machine: STREAM copy and triad with 1 thread and with every core (stream.h). The bound
 *      for a kind is the best all-core figure over the bytes a pair moves (its record in, a 32-byte
 *      mink_hit out): no CPU path can answer pairs faster than it can read and write them.
 *   2. Throughput: box, circle, circle–box and polygon batches (mink/sample.h: realistic random
 *      pairs, about a third hitting), and box, circle and circle–box pairs as columns
 *      (mink_batch_sweep_aabb_soa, _circle_soa, _circle_aabb_soa), at
 *      10^3 … MAX pairs: the scalar path on one thread and on every core, the OpenCL path kernel
 *      only and end to end, and AUTO (all defaults); median [min-max] of REPS runs, and the
 *      fraction of the bound.
 *      Every size is checked bit for bit between the paths before it is printed.
 *   2b. Column layout: box, circle and circle–box columns at MAX pairs on the scalar path, as
 *      separate arrays, separate arrays staggered by a cache line each, and one block, alternated
 *      in one process.
 *   3. Peers, on the same box, circle and circle–box pairs: Box2D 2.4's b2TimeOfImpact and
 *      Chipmunk 7's segment query (peer_box2d.h, peer_chipmunk.h say what each computes), when they
 *      were found at build time: pairs per second, mink's ratio to each, hit/no-hit agreement and
 *      the spread of their times of impact against mink's.
 *   4. Small batches: the time of one call at 1 … 10^4 pairs on each backend.
 * Writes DIR/stream.csv, perf.csv, layout.csv, peers.csv, small.csv, and DIR/perf.png through
 * gnuplot when it is installed.
 * Usage: bench_perf [MAX_PAIRS] [REPS] [DIR] [STREAM_MIB]   (defaults 1e7, 5, bench-perf, 128) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_util.h"
#include "mink/mink.h"
#include "mink/sample.h"
#include "stream.h"
#ifdef MINK_BENCH_BOX2D
#include "peer_box2d.h"
#endif
#ifdef MINK_BENCH_CHIPMUNK
#include "peer_chipmunk.h"
#endif

#define MAX_REPS 64
#define POLYGON_MAX 1000000 /* 312-byte records and compute-bound: 10^6 says all there is to say */
#define PEER_MAX 1000000

typedef mink_status batch_fn(mink_context *, const void *, size_t, mink_hit *);
static mink_status run_box(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_aabb(c, p, n, 1.0f, h); }
static mink_status run_circle(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_circle(c, p, n, 1.0f, h); }
static mink_status run_circle_box(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_circle_aabb(c, p, n, 1.0f, h); }
static mink_status run_polygon(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_polygon(c, p, n, 1.0f, h); }

static void make_box(size_t n, void *out) { mink_sample_aabb_pairs(1, n, out); }

/* Pairs as columns (mink_batch_sweep_aabb_soa, _circle_soa, _circle_aabb_soa): the records' floats
 * one array each, and 8 output arrays, each its own allocation as a program keeps its fields.
 * The layout section (2b) measures two other layouts against this one. */
static float *columns_mem[20];
static const float *columns_in[12];
static mink_hit_soa columns_out;
static void free_columns(void) {
    for (size_t k = 0; k < 20; k++) free(columns_mem[k]), columns_mem[k] = NULL;
}
static void to_columns(const void *records, size_t floats, size_t n) {
    free_columns();
    float **c = columns_mem;
    for (size_t k = 0; k < floats + 8; k++) {
        c[k] = malloc(n * sizeof(float));
        if (c[k] == NULL) {
            fprintf(stderr, "bench_perf: out of memory for columns\n");
            exit(1);
        }
    }
    const float *r = records; /* the records are packed floats */
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < floats; k++) c[k][i] = r[i * floats + k];
    for (size_t k = 0; k < floats; k++) columns_in[k] = c[k];
    float **o = &c[floats];
    for (size_t k = 0; k < 8; k++) memset(o[k], 0, n * sizeof(float)); /* first-touch outside the timings */
    columns_out = (mink_hit_soa){o[0], o[1], o[2], o[3], o[4], o[5], o[6], (uint32_t *)(void *)o[7]};
}
static void make_box_columns(size_t n, void *out) {
    mink_sample_aabb_pairs(1, n, out);
    to_columns(out, 12, n);
}
static void make_circle_columns(size_t n, void *out) {
    mink_sample_circle_pairs(1, n, out);
    to_columns(out, 10, n);
}
static void make_circle_box_columns(size_t n, void *out) {
    mink_sample_circle_aabb_pairs(1, n, out);
    to_columns(out, 11, n);
}
static mink_status run_box_columns(mink_context *c, const void *p, size_t n, mink_hit *h) {
    (void)p, (void)h;
    const float *const *k = columns_in;
    mink_aabb_pair_soa in = {k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10], k[11]};
    return mink_batch_sweep_aabb_soa(c, &in, n, 1.0f, &columns_out);
}
static mink_status run_circle_columns(mink_context *c, const void *p, size_t n, mink_hit *h) {
    (void)p, (void)h;
    const float *const *k = columns_in;
    mink_circle_pair_soa in = {k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9]};
    return mink_batch_sweep_circle_soa(c, &in, n, 1.0f, &columns_out);
}
static mink_status run_circle_box_columns(mink_context *c, const void *p, size_t n, mink_hit *h) {
    (void)p, (void)h;
    const float *const *k = columns_in;
    mink_circle_aabb_pair_soa in = {k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10]};
    return mink_batch_sweep_circle_aabb_soa(c, &in, n, 1.0f, &columns_out);
}
/* The last run's columns as records, to compare bit for bit. */
static void gather_columns(size_t n, mink_hit *h) {
    for (size_t i = 0; i < n; i++)
        h[i] = (mink_hit){columns_out.t[i], {columns_out.normal_x[i], columns_out.normal_y[i]}, columns_out.depth[i],
                          {columns_out.point_x[i], columns_out.point_y[i]}, columns_out.t_exit[i], columns_out.flags[i]};
}
static void make_circle(size_t n, void *out) { mink_sample_circle_pairs(1, n, out); }
static void make_circle_box(size_t n, void *out) { mink_sample_circle_aabb_pairs(1, n, out); }
static void make_polygon(size_t n, void *out) { mink_sample_polygon_pairs(1, n, 0, out); }

/* Record i as two bodies, for the peers. */
static void bodies_box(const void *r, size_t i, mink_body *a, mink_body *b) {
    const mink_aabb_pair *p = (const mink_aabb_pair *)r + i;
    *a = mink_body_aabb(p->a, p->va), *b = mink_body_aabb(p->b, p->vb);
}
static void bodies_circle(const void *r, size_t i, mink_body *a, mink_body *b) {
    const mink_circle_pair *p = (const mink_circle_pair *)r + i;
    *a = mink_body_circle(p->a, p->va), *b = mink_body_circle(p->b, p->vb);
}
static void bodies_circle_box(const void *r, size_t i, mink_body *a, mink_body *b) {
    const mink_circle_aabb_pair *p = (const mink_circle_aabb_pair *)r + i;
    *a = mink_body_circle(p->a, p->va), *b = mink_body_aabb(p->b, p->vb);
}

typedef struct kind {
    const char *name;
    size_t record_size;
    size_t max_pairs;
    void (*make)(size_t, void *);
    batch_fn *run;
    void (*bodies)(const void *, size_t, mink_body *, mink_body *); /* NULL: no peer comparison */
    void (*gather)(size_t, mink_hit *); /* results kept elsewhere (columns): copies them to hits */
} kind;

static const kind kinds[] = {
    {"box", sizeof(mink_aabb_pair), 0, make_box, run_box, bodies_box, NULL},
    {"circle", sizeof(mink_circle_pair), 0, make_circle, run_circle, bodies_circle, NULL},
    {"circle-box", sizeof(mink_circle_aabb_pair), 0, make_circle_box, run_circle_box, bodies_circle_box, NULL},
    {"polygon", sizeof(mink_polygon_pair), POLYGON_MAX, make_polygon, run_polygon, NULL, NULL},
    {"box-columns", sizeof(mink_aabb_pair), 0, make_box_columns, run_box_columns, bodies_box, gather_columns},
    {"circle-columns", sizeof(mink_circle_pair), 0, make_circle_columns, run_circle_columns, bodies_circle,
     gather_columns},
    {"circle-box-columns", sizeof(mink_circle_aabb_pair), 0, make_circle_box_columns, run_circle_box_columns,
     bodies_circle_box, gather_columns},
};
#define KINDS (sizeof kinds / sizeof kinds[0])

enum { PATH_SCALAR, PATH_THREADS, PATH_KERNEL, PATH_E2E, PATH_AUTO, PATHS };
static const char *const path_names[PATHS] = {"scalar", "scalar-all-cores", "opencl-kernel", "opencl-e2e", "auto"};

typedef struct bench {
    mink_context *ctx[4]; /* scalar, OpenCL, AUTO (all defaults), scalar on every core */
    int reps;
    void *records;
    mink_hit *hits, *ref;
    double bound_gbs; /* all cores, the better of copy and triad */
    FILE *perf_csv;
    FILE *plot_data; /* gnuplot's: a block per kind, a column per path, the bound last */
} bench;

static void die(const char *what) {
    fprintf(stderr, "bench_perf: %s%s%s\n", what, mink_last_error()[0] ? ": " : "", mink_last_error());
    exit(1);
}

/* REPS timed runs after one warm-up; the wall time around each call, and the kernel time. */
static void time_runs(bench *b, mink_context *ctx, const kind *k, size_t n, mink_hit *hits, double *wall, double *kernel) {
    if (k->run(ctx, b->records, n, hits) != MINK_OK) die(k->name);
    for (int r = 0; r < b->reps; r++) {
        double t0 = bench_now_ms();
        if (k->run(ctx, b->records, n, hits) != MINK_OK) die(k->name);
        wall[r] = bench_now_ms() - t0;
        if (kernel) kernel[r] = mink_context_stats(ctx).kernel_ms;
    }
    if (k->gather) k->gather(n, hits);
}

static void print_figure(bench *b, const kind *k, size_t n, int path, bench_figure f, double bound) {
    printf(" %7.1f [%6.1f-%6.1f] %5.3f", f.median * 1e-6, f.min * 1e-6, f.max * 1e-6, f.median / bound);
    fprintf(b->perf_csv, "%s,%zu,%s,%.0f,%.0f,%.0f,%zu,%.0f,%.4f\n", k->name, n, path_names[path], f.median, f.min,
            f.max, k->record_size + sizeof(mink_hit), bound, f.median / bound);
}

static void throughput(bench *b, const kind *k, size_t max_pairs) {
    size_t top = k->max_pairs && k->max_pairs < max_pairs ? k->max_pairs : max_pairs;
    size_t bytes = k->record_size + sizeof(mink_hit);
    double bound = b->bound_gbs * 1e9 / (double)bytes;
    printf("\n%s: %zu bytes a pair, bound %.1f M pairs/s; M pairs/s median [min-max] and fraction of the bound\n",
           k->name, bytes, bound * 1e-6);
    printf("%9s | %-28s | %-28s | %-28s | %-28s | %-28s | %s\n", "pairs", "scalar, 1 thread", "scalar, every core",
           "OpenCL kernel only", "OpenCL end to end", "AUTO", "AUTO took");
    k->make(top, b->records);
    for (size_t n = 1000; n <= top; n *= 10) {
        double wall[MAX_REPS], kern[MAX_REPS];
        bench_figure f[PATHS];
        time_runs(b, b->ctx[0], k, n, b->ref, wall, NULL);
        f[PATH_SCALAR] = bench_summarize(wall, b->reps, n);
        time_runs(b, b->ctx[3], k, n, b->hits, wall, NULL);
        f[PATH_THREADS] = bench_summarize(wall, b->reps, n);
        if (memcmp(b->hits, b->ref, n * sizeof *b->hits) != 0) die("results differ with threads");
        time_runs(b, b->ctx[1], k, n, b->hits, wall, kern);
        f[PATH_E2E] = bench_summarize(wall, b->reps, n);
        f[PATH_KERNEL] = bench_summarize(kern, b->reps, n);
        if (memcmp(b->hits, b->ref, n * sizeof *b->hits) != 0) die("OpenCL and scalar results differ");
        time_runs(b, b->ctx[2], k, n, b->hits, wall, NULL);
        f[PATH_AUTO] = bench_summarize(wall, b->reps, n);
        if (memcmp(b->hits, b->ref, n * sizeof *b->hits) != 0) die("AUTO and scalar results differ");
        printf("%9zu |", n);
        fprintf(b->plot_data, "%zu", n);
        for (int p = 0; p < PATHS; p++) {
            print_figure(b, k, n, p, f[p], bound), printf(" |");
            fprintf(b->plot_data, " %.0f", f[p].median);
        }
        fprintf(b->plot_data, " %.0f\n", bound);
        printf(" %s\n", mink_context_stats(b->ctx[2]).backend == MINK_BACKEND_OPENCL ? "device" : "scalar");
        fflush(stdout);
    }
    fprintf(b->plot_data, "\n\n");
}

/* ---- peers ------------------------------------------------------------------------------------- */

typedef struct peer_result {
    double pairs_per_s;
    size_t answered, agree, peer_only, mink_only, failed;
    double dt_median, dt_p90, dt_p99, dt_max; /* |t_peer − t_mink| over pairs both hit, not overlapping at 0 */
} peer_result;

/* hit: 1 contact, 0 none, -1 the peer could not answer. */
static void agreement(const mink_hit *ref, const signed char *hit, const float *t, size_t n, double *diff, peer_result *out) {
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        if (hit[i] < 0) {
            out->failed++;
            continue;
        }
        out->answered++;
        int m = (ref[i].flags & MINK_HIT_CONTACT) != 0;
        if (m == hit[i]) {
            out->agree++;
            if (m && !(ref[i].flags & MINK_HIT_OVERLAP)) diff[nd++] = fabs((double)t[i] - ref[i].t);
        } else if (hit[i]) {
            out->peer_only++;
        } else {
            out->mink_only++;
        }
    }
    qsort(diff, nd, sizeof *diff, bench_cmp_double);
    out->dt_median = nd ? diff[nd / 2] : 0.0;
    out->dt_p90 = nd ? diff[nd * 9 / 10] : 0.0;
    out->dt_p99 = nd ? diff[nd * 99 / 100] : 0.0;
    out->dt_max = nd ? diff[nd - 1] : 0.0;
}

/* The peer's rate, and mink's ratio to it: AUTO (one thread, as the peer runs) and every core. */
static void print_peer(FILE *csv, const kind *k, size_t n, const char *peer, double mink_rate, double cores_rate,
                       const peer_result *r) {
    printf("%-14s %-9s %10.2f %8.1fx %8.1fx | %7.3f%% %9zu %9zu %7zu | %9.2e %9.2e %9.2e %9.2e\n", k->name, peer,
           r->pairs_per_s * 1e-6, mink_rate / r->pairs_per_s, cores_rate / r->pairs_per_s,
           r->answered ? 100.0 * r->agree / (double)r->answered : 0.0, r->peer_only, r->mink_only, r->failed,
           r->dt_median, r->dt_p90, r->dt_p99, r->dt_max);
    fprintf(csv, "%s,%zu,%s,%.0f,%.0f,%.2f,%.0f,%.2f,%zu,%zu,%zu,%zu,%zu,%.3e,%.3e,%.3e,%.3e\n", k->name, n, peer,
            r->pairs_per_s, mink_rate, mink_rate / r->pairs_per_s, cores_rate, cores_rate / r->pairs_per_s, r->answered,
            r->agree, r->peer_only, r->mink_only, r->failed, r->dt_median, r->dt_p90, r->dt_p99, r->dt_max);
}

static void peers(bench *b, const kind *k, size_t n, FILE *csv) {
    mink_body *bodies = malloc(2 * n * sizeof *bodies);
    signed char *hit = malloc(n);
    float *t = malloc(n * sizeof *t);
    double *diff = malloc(n * sizeof *diff), wall[MAX_REPS];
    if (!bodies || !hit || !t || !diff) die("out of memory");
    k->make(n, b->records);
    for (size_t i = 0; i < n; i++) k->bodies(b->records, i, &bodies[2 * i], &bodies[2 * i + 1]);
    time_runs(b, b->ctx[2], k, n, b->ref, wall, NULL);
    double mink_rate = bench_summarize(wall, b->reps, n).median;
    time_runs(b, b->ctx[0], k, n, b->hits, wall, NULL);
    double scalar_rate = bench_summarize(wall, b->reps, n).median;
    if (memcmp(b->hits, b->ref, n * sizeof *b->hits) != 0) die("AUTO and scalar results differ");
    time_runs(b, b->ctx[3], k, n, b->hits, wall, NULL);
    double cores_rate = bench_summarize(wall, b->reps, n).median;
    if (memcmp(b->hits, b->ref, n * sizeof *b->hits) != 0) die("AUTO and every-core results differ");
    printf("%-14s %-9s %10.2f %19s |\n%-14s %-9s %10.2f %19s |\n%-14s %-9s %10.2f %19s |\n", k->name, "mink",
           mink_rate * 1e-6, "", k->name, "mink-1cpu", scalar_rate * 1e-6, "", k->name, "mink-cores", cores_rate * 1e-6, "");
    fprintf(csv, "%s,%zu,mink,%.0f,%.0f,1,%.0f,1,,,,,,,,,\n%s,%zu,mink-scalar,%.0f,%.0f,%.2f,%.0f,%.2f,,,,,,,,,\n", k->name,
            n, mink_rate, mink_rate, cores_rate, k->name, n, scalar_rate, mink_rate, mink_rate / scalar_rate, cores_rate,
            cores_rate / scalar_rate);
#ifdef MINK_BENCH_BOX2D
    {
        peer_result r = {0};
        for (int rep = 0; rep < b->reps; rep++) {
            double t0 = bench_now_ms();
            for (size_t i = 0; i < n; i++) {
                peer_toi_state s = peer_box2d_toi(&bodies[2 * i], &bodies[2 * i + 1], 1.0f, &t[i]);
                hit[i] = s == PEER_TOI_FAILED ? -1 : (s == PEER_TOI_TOUCHING || s == PEER_TOI_OVERLAPPED);
            }
            wall[rep] = bench_now_ms() - t0;
        }
        r.pairs_per_s = bench_summarize(wall, b->reps, n).median;
        agreement(b->ref, hit, t, n, diff, &r);
        print_peer(csv, k, n, "box2d", mink_rate, cores_rate, &r);
    }
#endif
#ifdef MINK_BENCH_CHIPMUNK
    {
        peer_result r = {0};
        peer_chipmunk *cp = peer_chipmunk_create();
        if (cp == NULL) die("Chipmunk: out of memory");
        for (int rep = 0; rep < b->reps; rep++) {
            double t0 = bench_now_ms();
            for (size_t i = 0; i < n; i++) hit[i] = (signed char)peer_chipmunk_sweep(cp, &bodies[2 * i], &bodies[2 * i + 1], 1.0f, &t[i]);
            wall[rep] = bench_now_ms() - t0;
        }
        peer_chipmunk_destroy(cp);
        r.pairs_per_s = bench_summarize(wall, b->reps, n).median;
        agreement(b->ref, hit, t, n, diff, &r);
        print_peer(csv, k, n, "chipmunk", mink_rate, cores_rate, &r);
    }
#endif
    free(bodies), free(hit), free(t), free(diff);
}

/* 2b. The same columns laid out three ways, on one thread and on every core, alternated run by
 * run; the bits are compared. "separate": each array its own allocation (the benchmark's columns),
 * so every one starts at the same offset in its pages; "staggered": the same, array k shifted
 * 64 k bytes further; "one-block": input and output columns back to back in one allocation, as
 * a program that allocates once might lay them. */
enum { LAYOUTS = 3 };
static mink_status sweep_layout(mink_context *ctx, size_t floats, float *const *c, size_t n) {
    float *const *o = c + floats;
    mink_hit_soa out = {o[0], o[1], o[2], o[3], o[4], o[5], o[6], (uint32_t *)(void *)o[7]};
    if (floats == 12) {
        mink_aabb_pair_soa in = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]};
        return mink_batch_sweep_aabb_soa(ctx, &in, n, 1.0f, &out);
    }
    if (floats == 11) {
        mink_circle_aabb_pair_soa in = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10]};
        return mink_batch_sweep_circle_aabb_soa(ctx, &in, n, 1.0f, &out);
    }
    mink_circle_pair_soa in = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]};
    return mink_batch_sweep_circle_soa(ctx, &in, n, 1.0f, &out);
}
static void layout(bench *b, const kind *k, size_t floats, size_t n, FILE *csv) {
    k->make(n, b->records);
    size_t m = floats + 8;
    float *block = malloc(n * m * sizeof(float)), *shifted[20] = {0}, *c[LAYOUTS][20];
    if (block == NULL) die("out of memory for the block layout");
    for (size_t j = 0; j < m; j++) {
        if ((shifted[j] = malloc(n * sizeof(float) + 64 * 20)) == NULL) die("out of memory for the staggered layout");
        c[0][j] = columns_mem[j], c[1][j] = shifted[j] + 16 * j, c[2][j] = block + j * n;
        for (int l = 1; l < LAYOUTS; l++) {
            if (j < floats) memcpy(c[l][j], columns_mem[j], n * sizeof(float));
            else memset(c[l][j], 0, n * sizeof(float));
        }
    }
    const char *names[LAYOUTS] = {"separate", "staggered", "one-block"};
    mink_context *ctx[2] = {b->ctx[0], b->ctx[3]};
    double wall[2][LAYOUTS][MAX_REPS];
    for (int r = 0; r < b->reps; r++)
        for (int t = 0; t < 2; t++)
            for (int l = 0; l < LAYOUTS; l++) {
                double t0 = bench_now_ms();
                if (sweep_layout(ctx[t], floats, c[l], n) != MINK_OK) die("layout");
                wall[t][l][r] = bench_now_ms() - t0;
            }
    for (int l = 1; l < LAYOUTS; l++)
        for (size_t j = floats; j < m; j++)
            if (memcmp(c[l][j], c[0][j], n * sizeof(float)) != 0) die("layout: the layouts' hits differ");
    printf("\ncolumn layout: %zu %s pairs on the scalar path, M pairs/s median [min-max]\n", n, k->name);
    for (int l = 0; l < LAYOUTS; l++) {
        printf("  %-10s", names[l]);
        for (int t = 0; t < 2; t++) {
            bench_figure f = bench_summarize(wall[t][l], b->reps, n);
            printf(" | %s %6.1f [%6.1f-%6.1f]", t ? "every core" : "1 thread", f.median * 1e-6, f.min * 1e-6,
                   f.max * 1e-6);
            fprintf(csv, "%s,%s,%zu,%s,%.0f,%.0f,%.0f\n", k->name, names[l], n, t ? "scalar-all-cores" : "scalar",
                    f.median, f.min, f.max);
        }
        printf("\n");
    }
    free(block);
    for (size_t j = 0; j < m; j++) free(shifted[j]);
}

/* ---- small batches ----------------------------------------------------------------------------- */

static void small_batches(bench *b, FILE *csv) {
    static const char *const names[3] = {"scalar", "opencl", "auto"};
    printf("\nsmall batches: microseconds a call, median of at least 50 calls and 0.1 s [min-max]\n");
    printf("%-8s %7s | %-24s | %-24s | %-24s | %s\n", "kind", "pairs", "scalar", "OpenCL end to end", "AUTO", "AUTO took");
    for (size_t ki = 0; ki < 2; ki++) { /* box and circle: the cheapest pairs, where a launch weighs most */
        const kind *k = &kinds[ki];
        k->make(10000, b->records);
        for (size_t n = 1; n <= 10000; n *= 10) {
            printf("%-8s %7zu |", k->name, n);
            for (int c = 0; c < 3; c++) {
                static double us[100000];
                int runs = 0;
                double spent = 0.0;
                if (k->run(b->ctx[c], b->records, n, b->hits) != MINK_OK) die(k->name);
                while ((runs < 50 || spent < 100.0) && runs < 100000) {
                    double t0 = bench_now_ms();
                    if (k->run(b->ctx[c], b->records, n, b->hits) != MINK_OK) die(k->name);
                    double ms = bench_now_ms() - t0;
                    us[runs++] = ms * 1e3;
                    spent += ms;
                }
                qsort(us, (size_t)runs, sizeof us[0], bench_cmp_double);
                printf(" %8.2f [%6.2f-%7.1f] |", us[runs / 2], us[0], us[runs - 1]);
                fprintf(csv, "%s,%zu,%s,%.3f,%.3f,%.3f,%d\n", k->name, n, names[c], us[runs / 2], us[0], us[runs - 1], runs);
            }
            printf(" %s\n", mink_context_stats(b->ctx[2]).backend == MINK_BACKEND_OPENCL ? "device" : "scalar");
            fflush(stdout);
        }
    }
}

/* ---- the plot ---------------------------------------------------------------------------------- */

static void plot(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/perf.gp", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) return;
    fprintf(f,
            "# made by bench_perf: pairs per second against batch size, and the memory bound\n"
            "set terminal pngcairo size 1200,800 noenhanced\nset output 'perf.png'\n"
            "set logscale xy\nset key left top\nset grid\nset xlabel 'pairs per batch'\n"
            "set ylabel 'pairs per second'\nset multiplot layout 2,3\n");
    for (size_t ki = 0; ki < KINDS; ki++) {
        fprintf(f, "set title '%s'\nplot ", kinds[ki].name);
        for (int p = 0; p < PATHS; p++)
            fprintf(f, "'perf-plot.dat' index %zu using 1:%d with linespoints title '%s', ", ki, p + 2, path_names[p]);
        fprintf(f, "'perf-plot.dat' index %zu using 1:%d with lines dashtype 2 title 'memory bound'\n", ki, PATHS + 2);
    }
    fprintf(f, "unset multiplot\n");
    fclose(f);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot perf.gp 2>&1", dir);
    if (system("command -v gnuplot > /dev/null 2>&1") != 0) {
        printf("\nplot: gnuplot not found (Debian: gnuplot-nox); %s is ready for it\n", path);
        return;
    }
    printf("\nplot: %s\n", system(cmd) == 0 ? "perf.png written" : "gnuplot failed");
}

static FILE *open_csv(const char *dir, const char *name, const char *header) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "bench_perf: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    fprintf(f, "%s\n", header);
    return f;
}

int main(int argc, char **argv) {
    size_t max_pairs = argc > 1 ? (size_t)strtod(argv[1], NULL) : 10000000;
    bench b = {.reps = argc > 2 ? atoi(argv[2]) : 5};
    const char *dir = argc > 3 ? argv[3] : "bench-perf";
    double stream_mib = argc > 4 ? strtod(argv[4], NULL) : 128.0;
    if (max_pairs < 10000 || b.reps < 1 || b.reps > MAX_REPS || !(stream_mib >= 1.0)) {
        fprintf(stderr, "usage: bench_perf [MAX_PAIRS >= 10000] [REPS 1..%d] [DIR] [STREAM_MIB >= 1]\n", MAX_REPS);
        return 2;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bench_perf: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .threads = 1}, &b.ctx[0]) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, &b.ctx[1]) != MINK_OK ||
        mink_context_create(NULL, &b.ctx[2]) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .threads = (unsigned)threads},
                            &b.ctx[3]) != MINK_OK)
        die("creating the contexts");

    /* 1. The machine. */
    size_t elements = (size_t)(stream_mib * 1024 * 1024 / 8);
    stream_result one, all;
    if (!stream_measure(elements, 1, 10, &one) || !stream_measure(elements, threads, 10, &all))
        die("STREAM: out of memory or no threads");
    b.bound_gbs = all.copy_gbs > all.triad_gbs ? all.copy_gbs : all.triad_gbs;
    printf("device: %s\n", mink_context_device(b.ctx[1]));
    printf("memory (STREAM, 3 arrays of %.0f MiB, best of 10): 1 thread copy %.1f GB/s triad %.1f GB/s; "
           "%d threads copy %.1f GB/s triad %.1f GB/s\nbound: %.1f GB/s (all cores, the better of copy and triad)\n",
           stream_mib, one.copy_gbs, one.triad_gbs, threads, all.copy_gbs, all.triad_gbs, b.bound_gbs);
    FILE *csv = open_csv(dir, "stream.csv", "threads,copy_gbs,triad_gbs,array_mib");
    fprintf(csv, "1,%.2f,%.2f,%.0f\n%d,%.2f,%.2f,%.0f\n", one.copy_gbs, one.triad_gbs, stream_mib, threads, all.copy_gbs,
            all.triad_gbs, stream_mib);
    fclose(csv);

    size_t largest = 0;
    for (size_t ki = 0; ki < KINDS; ki++) {
        size_t top = kinds[ki].max_pairs && kinds[ki].max_pairs < max_pairs ? kinds[ki].max_pairs : max_pairs;
        if (top * kinds[ki].record_size > largest) largest = top * kinds[ki].record_size;
    }
    b.records = malloc(largest);
    b.hits = malloc(max_pairs * sizeof *b.hits);
    b.ref = malloc(max_pairs * sizeof *b.ref);
    if (!b.records || !b.hits || !b.ref) die("out of memory");
    memset(b.hits, 0, max_pairs * sizeof *b.hits); /* first-touch the pages outside the timings */
    memset(b.ref, 0, max_pairs * sizeof *b.ref);

    /* 2. Throughput. */
    b.perf_csv = open_csv(dir, "perf.csv", "kind,pairs,path,median_pairs_per_s,min_pairs_per_s,max_pairs_per_s,"
                                           "bytes_per_pair,bound_pairs_per_s,fraction_of_bound");
    b.plot_data = open_csv(dir, "perf-plot.dat", "# pairs scalar scalar-all-cores opencl-kernel opencl-e2e auto bound; a block per kind");
    printf("\nthroughput: median of %d runs after a warm-up\n", b.reps);
    for (size_t ki = 0; ki < KINDS; ki++) throughput(&b, &kinds[ki], max_pairs);
    fclose(b.perf_csv);
    fclose(b.plot_data);

    /* 2b. Column layout. */
    csv = open_csv(dir, "layout.csv", "kind,layout,pairs,path,median_pairs_per_s,min_pairs_per_s,max_pairs_per_s");
    for (size_t ki = 0; ki < KINDS; ki++)
        if (kinds[ki].gather) layout(&b, &kinds[ki], kinds[ki].record_size / sizeof(float), max_pairs, csv);
    fclose(csv);

    /* 3. Peers. */
    size_t np = max_pairs < PEER_MAX ? max_pairs : PEER_MAX;
    printf("\npeers: %zu pairs of each kind, median of %d runs; mink = AUTO end to end (all defaults: the device, or "
           "the scalar path on every core), mink-1cpu = the scalar path on one thread (as the peers run), mink-cores = "
           "the scalar path on every core\n",
           np, b.reps);
#ifdef MINK_BENCH_BOX2D
    printf("  box2d: %s b2TimeOfImpact (stops at a target separation of 0.005 for boxes, radius - 0.015 for circles)\n",
           peer_box2d_version());
#else
    printf("  box2d: not built (libbox2d-dev and a C++ compiler were not found)\n");
#endif
#ifdef MINK_BENCH_CHIPMUNK
    printf("  chipmunk: %s cpShapeSegmentQuery along the relative motion (no exit time, depth or overlap answer)\n",
           peer_chipmunk_version());
#else
    printf("  chipmunk: not built (libchipmunk-dev was not found)\n");
#endif
    printf("%-14s %-9s %10s %9s %9s | %8s %9s %9s %7s | %9s %9s %9s %9s\n", "kind", "who", "M pairs/s", "mink/it",
           "cores/it", "agree", "it only", "mink only", "failed", "|dt| med", "p90", "p99", "max");
    csv = open_csv(dir, "peers.csv",
                   "kind,pairs,who,pairs_per_s,mink_pairs_per_s,mink_ratio,cores_pairs_per_s,cores_ratio,answered,agree,"
                   "peer_only,mink_only,failed,dt_median,dt_p90,dt_p99,dt_max");
    for (size_t ki = 0; ki < KINDS; ki++)
        if (kinds[ki].bodies) peers(&b, &kinds[ki], np, csv);
    fclose(csv);

    /* 4. Small batches. */
    csv = open_csv(dir, "small.csv", "kind,pairs,path,median_us,min_us,max_us,calls");
    small_batches(&b, csv);
    fclose(csv);

    plot(dir);
    for (int c = 0; c < 4; c++) mink_context_destroy(b.ctx[c]);
    free(b.records), free(b.hits), free(b.ref), free_columns();
    printf("bench_perf: ok (CSV in %s)\n", dir);
    return 0;
}
