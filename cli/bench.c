/* cli/bench.c — `mink bench`: pairs per second against batch size, on each backend, as CSV and
 * as a plot drawn by gnuplot. The figures come from the same calls a program would make; the
 * sample batches are the deterministic ones of mink/sample.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stream.h" /* the STREAM measurement; bench_perf uses it too */
#include "cli.h"
#include "mink/sample.h"

const char cli_bench_usage[] =
    "usage: mink bench [--max N] [--out DIR] [--device NAME]\n"
    "\n"
    "Measures the memory's bandwidth first (STREAM copy and triad on every core): the bound, in\n"
    "pairs per second, is that over the bytes a pair moves (its record and its result). Then sweeps\n"
    "batches of 1000 pairs up to N (default 1e6; 3 sizes a decade) of boxes, circles and mixed\n"
    "shapes on the scalar path, the OpenCL device and AUTO, keeps the best of a few runs of each,\n"
    "and writes DIR/batch.csv (backend, kind, pairs, seconds, pairs_per_second,\n"
    "fraction_of_bound) and DIR/throughput.png, drawn by gnuplot (Debian: gnuplot-nox). DIR\n"
    "defaults to mink-bench. Exits 1 when gnuplot is missing or fails (the CSV is written first).\n"
    "bench/bench_perf in the source tree adds kernel-only times, peers and small-batch latency.\n";

typedef enum kind { KIND_BOX, KIND_CIRCLE, KIND_MIXED, KINDS } kind;
static const char *const kind_names[KINDS] = {"box", "circle", "mixed"};
static const size_t kind_bytes[KINDS] = {sizeof(mink_aabb_pair) + sizeof(mink_hit),
                                         sizeof(mink_circle_pair) + sizeof(mink_hit),
                                         sizeof(mink_pair) + sizeof(mink_hit)};

typedef struct batch {
    mink_aabb_pair *boxes;
    mink_circle_pair *circles;
    mink_pair *mixed;
    mink_hit *hits;
} batch;

static mink_status sweep(mink_context *ctx, const batch *b, kind k, size_t n) {
    if (k == KIND_BOX) return mink_batch_sweep_aabb(ctx, b->boxes, n, 1.0f, b->hits);
    if (k == KIND_CIRCLE) return mink_batch_sweep_circle(ctx, b->circles, n, 1.0f, b->hits);
    return mink_batch_sweep(ctx, b->mixed, n, 1.0f, b->hits);
}

/* The best of at least three runs and at least 0.2 s, after one to warm up. */
static int measure(mink_context *ctx, const batch *b, kind k, size_t n, double *best) {
    if (sweep(ctx, b, k, n) != MINK_OK) return 0;
    *best = 1e30;
    double spent = 0.0;
    for (int run = 0; run < 3 || (spent < 0.2 && run < 1000); run++) {
        double t0 = cli_now_s();
        if (sweep(ctx, b, k, n) != MINK_OK) return 0;
        double t = cli_now_s() - t0;
        spent += t;
        if (t < *best) *best = t;
    }
    return 1;
}

static int plot(const char *dir, int backends, const char *const *names) {
    char path[4096];
    snprintf(path, sizeof path, "%s/throughput.gp", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) return fprintf(stderr, "mink: bench: %s: %s\n", path, strerror(errno)), 0;
    fprintf(f,
            "# made by `mink bench`: pairs per second against batch size\n"
            "set terminal png size 960,600\nset output '%s/throughput.png'\n"
            "set datafile separator ','\nset logscale xy\nset grid\nset key left top\n"
            "set xlabel 'pairs in the batch'\nset ylabel 'pairs per second'\n"
            "set title 'mink: batch throughput'\nplot ",
            dir);
    for (int be = 0; be < backends; be++)
        for (int k = 0; k < KINDS; k++)
            fprintf(f, "%s'%s/batch.csv' using 3:(strcol(1) eq '%s' && strcol(2) eq '%s' ? $5 : 1/0) with linespoints title '%s %s'",
                    be + k ? ", " : "", dir, names[be], kind_names[k], names[be], kind_names[k]);
    fprintf(f, "\n");
    if (fclose(f) != 0) return fprintf(stderr, "mink: bench: %s: %s\n", path, strerror(errno)), 0;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "gnuplot '%s'", path);
    int status = system(cmd);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "mink: bench: gnuplot %s; the figures are in %s/batch.csv\n",
                WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "is not installed (apt-get install gnuplot-nox)"
                                                                : "failed",
                dir);
        return 0;
    }
    return 1;
}

/* The scalar path, then the OpenCL device and AUTO when there is one. The count, or 0 after a message. */
static int open_backends(const char *device, mink_context **ctx, const char **names) {
    int backends = 0;
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &ctx[0]) != MINK_OK) return 0;
    names[backends++] = "scalar";
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL, .device = device}, &ctx[1]) != MINK_OK) {
        fprintf(stderr, "mink: bench: no OpenCL device, the scalar path only: %s\n", mink_last_error());
        return backends;
    }
    names[backends++] = "opencl";
    if (mink_context_create(&(mink_context_desc){.device = device}, &ctx[2]) != MINK_OK) return 0;
    names[backends++] = "auto";
    return backends;
}

/* The memory's bandwidth on every core, the bound no CPU path can pass; 0 when out of memory. */
static double memory_bound(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    stream_result mem;
    if (!stream_measure((size_t)64 << 20 >> 3, cores < 1 ? 1 : cores > 64 ? 64 : (int)cores, 5, &mem)) return 0.0;
    double bound_gbs = mem.copy_gbs > mem.triad_gbs ? mem.copy_gbs : mem.triad_gbs;
    printf("memory: %.1f GB/s copy, %.1f GB/s triad on %ld cores; the bound is %.1f GB/s over the bytes a pair moves\n",
           mem.copy_gbs, mem.triad_gbs, cores, bound_gbs);
    return bound_gbs;
}

/* Every backend and kind at three sizes a decade up to max, to the CSV and the terminal. */
static int sweep_sizes(FILE *csv, mink_context **ctx, const char *const *names, int backends, const batch *b,
                       size_t max, double bound_gbs) {
    fprintf(csv, "backend,kind,pairs,seconds,pairs_per_second,fraction_of_bound\n");
    printf("%-8s %-7s %10s %12s %14s %9s\n", "backend", "kind", "pairs", "ms", "pairs/s", "of bound");
    for (int be = 0; be < backends; be++) {
        if (be) printf("  (%s)\n", mink_context_device(ctx[be]));
        for (int k = 0; k < KINDS; k++)
            for (double size = 1000.0, last = 0.0; last < (double)max; size *= 3.1622776601683795) {
                size_t n = size < (double)max ? (size_t)(size + 0.5) : max; /* three a decade, then max */
                last = (double)n;
                double t;
                if (!measure(ctx[be], b, (kind)k, n, &t)) return 0;
                double fraction = (double)n / t / (bound_gbs * 1e9 / (double)kind_bytes[k]);
                fprintf(csv, "%s,%s,%zu,%.9f,%.0f,%.4f\n", names[be], kind_names[k], n, t, (double)n / t, fraction);
                printf("%-8s %-7s %10zu %12.3f %14.0f %9.3f\n", names[be], kind_names[k], n, t * 1e3, (double)n / t,
                       fraction);
                fflush(stdout);
            }
    }
    return 1;
}

int cli_bench(int argc, char **argv) {
    static const cli_option table[] = {{"--max", 1}, {"--out", 1}, {"--device", 1}, {NULL, 0}};
    size_t max = 1000000;
    const char *dir = "mink-bench", *device = NULL;
    cli_args args = {.command = "bench", .usage = cli_bench_usage, .table = table, .argc = argc, .argv = argv};
    for (const char *val;;) {
        int code, k = cli_next_option(&args, &val, &code);
        if (k == CLI_END) break;
        if (k == CLI_STOP) return code;
        if (!strcmp(table[k].name, "--max")) {
            if (!cli_count_option("bench", "--max", val, 1000, 1e8, &max)) return MINK_EXIT_USAGE;
        } else if (!strcmp(table[k].name, "--out")) {
            dir = val;
        } else {
            device = val;
        }
    }
    if (strchr(dir, '\'')) return cli_usage_error("bench", "--out cannot hold a quote: '%s'", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "mink: bench: %s: %s\n", dir, strerror(errno));
        return MINK_EXIT_FAILURE;
    }
    int rc = MINK_EXIT_FAILURE;
    mink_context *ctx[3] = {NULL, NULL, NULL};
    const char *names[3];
    batch b = {malloc(max * sizeof *b.boxes), malloc(max * sizeof *b.circles), malloc(max * sizeof *b.mixed),
               malloc(max * sizeof *b.hits)};
    char path[4096];
    snprintf(path, sizeof path, "%s/batch.csv", dir);
    int backends = b.boxes && b.circles && b.mixed && b.hits ? open_backends(device, ctx, names) : -1;
    double bound_gbs = backends > 0 ? memory_bound() : 0.0;
    FILE *csv = bound_gbs > 0.0 ? fopen(path, "w") : NULL;
    if (backends < 0) fprintf(stderr, "mink: bench: out of memory for %zu pairs\n", max);
    else if (backends == 0) fprintf(stderr, "mink: bench: %s\n", mink_last_error());
    else if (bound_gbs <= 0.0) fprintf(stderr, "mink: bench: out of memory measuring the memory's bandwidth\n");
    else if (csv == NULL) fprintf(stderr, "mink: bench: %s: %s\n", path, strerror(errno));
    if (csv != NULL) {
        mink_sample_aabb_pairs(1, max, b.boxes);
        mink_sample_circle_pairs(1, max, b.circles);
        mink_sample_pairs(1, max, b.mixed);
        int swept = sweep_sizes(csv, ctx, names, backends, &b, max, bound_gbs);
        if (!swept) fprintf(stderr, "mink: bench: %s\n", mink_last_error());
        int closed = fclose(csv) == 0;
        if (swept && !closed) fprintf(stderr, "mink: bench: %s: %s\n", path, strerror(errno));
        if (swept && closed) printf("figures: %s\n", path);
        if (swept && closed && plot(dir, backends, names)) {
            printf("plot: %s/throughput.png\n", dir);
            rc = MINK_EXIT_OK;
        }
    }
    for (int c = 0; c < 3; c++) mink_context_destroy(ctx[c]);
    free(b.boxes), free(b.circles), free(b.mixed), free(b.hits);
    return rc;
}
