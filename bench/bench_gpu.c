/* bench/bench_gpu.c — mink's batches on an OpenCL GPU against that device's own limits, in one run.
 *
 *   1. The device: a copy kernel's bandwidth (bytes read and written, best of 10 over two buffers
 *      of 1 GiB, or of the device's largest allocation when smaller), and the host link:
 *      clEnqueueWriteBuffer and clEnqueueReadBuffer of one such buffer from ordinary (pageable)
 *      host memory, which is what mink's copy transfer moves, best of 5.
 *   2. Every batch kind (records; box, circle and circle–box pairs also as columns) at 10^4 …
 *      MAX pairs: kernel only (mink_batch_stats.kernel_ms) as a fraction of the copy bound over
 *      the bytes a pair moves on the device (its record read, its hit written), and end to end as
 *      a fraction of the link (the record up, the hit down). Median of REPS runs after a warm-up; every size
 *      checked bit for bit against the scalar path on every core first.
 * Records of more than 64 bytes (polygons, general and turning pairs) stop at 10^7 pairs: they are
 * compute-bound, and 10^8 of them would not fit the host's memory twice.
 * Usage: bench_gpu [MAX_PAIRS] [REPS]      (defaults 100000000, 3) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "mink/mink.h"
#include "mink/sample.h"

#define MAX_REPS 15
#define BIG_RECORD_MAX 10000000

static void die(const char *what) {
    fprintf(stderr, "bench_gpu: %s%s%s\n", what, mink_last_error()[0] ? ": " : "", mink_last_error());
    exit(1);
}

/* ---- 1. the device's own limits ------------------------------------------------------------------ */

static const char copy_source[] =
    "__kernel void copy(__global const float4 *a, __global float4 *b) { size_t i = get_global_id(0); b[i] = a[i]; }\n";

typedef struct device_limits {
    double copy_gbs, write_gbs, read_gbs;
} device_limits;

static double best_of(double *ms, int n) {
    double best = ms[0];
    for (int k = 1; k < n; k++) best = ms[k] < best ? ms[k] : best;
    return best;
}

/* The first GPU of any platform; 0 when there is none. */
static int measure_device(device_limits *out) {
    cl_platform_id platforms[8];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS) return 0;
    for (cl_uint p = 0; p < np && dev == NULL; p++)
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
    if (dev == NULL) return 0;
    cl_int err;
    cl_context cx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(cx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    const char *src = copy_source;
    cl_program prog = clCreateProgramWithSource(cx, 1, &src, NULL, &err);
    if (clBuildProgram(prog, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS) die("the copy kernel did not build");
    cl_kernel k = clCreateKernel(prog, "copy", &err);
    cl_ulong most = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof most, &most, NULL);
    const size_t bytes = most >= ((cl_ulong)1 << 30) ? (size_t)1 << 30 : (size_t)(most / 4096 * 4096), items = bytes / 16;
    if (bytes == 0) die("the device allows no allocation");
    cl_mem a = clCreateBuffer(cx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem b = clCreateBuffer(cx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    char *host = malloc(bytes);
    if (a == NULL || b == NULL || host == NULL) die("no room for the bandwidth buffers");
    memset(host, 1, bytes);
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof b, &b);
    double ms[10];
    for (int r = 0; r < 11; r++) { /* the first is a warm-up */
        cl_event e;
        if (clEnqueueNDRangeKernel(q, k, 1, NULL, &items, NULL, 0, NULL, &e) != CL_SUCCESS) die("the copy kernel did not run");
        clWaitForEvents(1, &e);
        cl_ulong t0 = 0, t1 = 0;
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        clReleaseEvent(e);
        if (r > 0) ms[r - 1] = (double)(t1 - t0) * 1e-6;
    }
    out->copy_gbs = 2.0 * (double)bytes / (best_of(ms, 10) * 1e-3) * 1e-9;
    double up[5], down[5];
    for (int r = 0; r < 6; r++) {
        double t0 = bench_now_ms();
        clEnqueueWriteBuffer(q, a, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
        double t1 = bench_now_ms();
        clEnqueueReadBuffer(q, b, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
        double t2 = bench_now_ms();
        if (r > 0) up[r - 1] = t1 - t0, down[r - 1] = t2 - t1;
    }
    out->write_gbs = (double)bytes / (best_of(up, 5) * 1e-3) * 1e-9;
    out->read_gbs = (double)bytes / (best_of(down, 5) * 1e-3) * 1e-9;
    free(host);
    clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseKernel(k), clReleaseProgram(prog), clReleaseCommandQueue(q), clReleaseContext(cx);
    return 1;
}

/* ---- 2. the batch kinds ---------------------------------------------------------------------------- */

/* Columns: the records' floats one array each, the hits' eight fields one array each. */
static float *columns[20];
static mink_hit_soa hit_columns;

static void make_columns(const void *records, size_t floats, size_t n) {
    for (size_t k = 0; k < floats + 8; k++) {
        free(columns[k]);
        if ((columns[k] = malloc(n * sizeof(float))) == NULL) die("out of memory for columns");
    }
    const float *r = records;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < floats; k++) columns[k][i] = r[i * floats + k];
    float **o = &columns[floats];
    hit_columns = (mink_hit_soa){o[0], o[1], o[2], o[3], o[4], o[5], o[6], (uint32_t *)(void *)o[7]};
}

static void gather_columns(size_t n, mink_hit *h) {
    const mink_hit_soa *c = &hit_columns;
    for (size_t i = 0; i < n; i++)
        h[i] = (mink_hit){c->t[i], {c->normal_x[i], c->normal_y[i]}, c->depth[i], {c->point_x[i], c->point_y[i]},
                          c->t_exit[i], c->flags[i]};
}

static mink_status run_box(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_aabb(c, p, n, 1.0f, h); }
static mink_status run_circle(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_circle(c, p, n, 1.0f, h); }
static mink_status run_circle_box(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_circle_aabb(c, p, n, 1.0f, h); }
static mink_status run_pair(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep(c, p, n, 1.0f, h); }
static mink_status run_polygon(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_polygon(c, p, n, 1.0f, h); }
static mink_status run_polygon_box(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_polygon_aabb(c, p, n, 1.0f, h); }
static mink_status run_polygon_circle(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_polygon_circle(c, p, n, 1.0f, h); }
static mink_status run_rotating(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_rotating(c, p, n, 1.0f, NULL, h); }
static mink_status run_capsule(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_capsule(c, p, n, 1.0f, h); }
static mink_status run_capsule_circle(mink_context *c, const void *p, size_t n, mink_hit *h) { return mink_batch_sweep_capsule_circle(c, p, n, 1.0f, h); }
static mink_status run_box_columns(mink_context *c, const void *p, size_t n, mink_hit *h) {
    (void)p, (void)h;
    float *const *k = columns;
    mink_aabb_pair_soa in = {k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10], k[11]};
    return mink_batch_sweep_aabb_soa(c, &in, n, 1.0f, &hit_columns);
}
static mink_status run_circle_box_columns(mink_context *c, const void *p, size_t n, mink_hit *h) {
    (void)p, (void)h;
    float *const *k = columns;
    mink_circle_aabb_pair_soa in = {k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10]};
    return mink_batch_sweep_circle_aabb_soa(c, &in, n, 1.0f, &hit_columns);
}
static mink_status run_circle_columns(mink_context *c, const void *p, size_t n, mink_hit *h) {
    (void)p, (void)h;
    float *const *k = columns;
    mink_circle_pair_soa in = {k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9]};
    return mink_batch_sweep_circle_soa(c, &in, n, 1.0f, &hit_columns);
}

static void make_box(size_t n, void *out) { mink_sample_aabb_pairs(1, n, out); }
static void make_circle(size_t n, void *out) { mink_sample_circle_pairs(1, n, out); }
static void make_circle_box(size_t n, void *out) { mink_sample_circle_aabb_pairs(1, n, out); }
static void make_pair(size_t n, void *out) { mink_sample_pairs(1, n, out); }
static void make_polygon(size_t n, void *out) { mink_sample_polygon_pairs(1, n, 0, out); }
static void make_polygon_box(size_t n, void *out) { mink_sample_polygon_aabb_pairs(1, n, out); }
static void make_polygon_circle(size_t n, void *out) { mink_sample_polygon_circle_pairs(1, n, out); }
static void make_rotating(size_t n, void *out) { mink_sample_rotating_pairs(1, n, out); }
static void make_capsule(size_t n, void *out) { mink_sample_capsule_pairs(1, n, out); }
static void make_capsule_circle(size_t n, void *out) { mink_sample_capsule_circle_pairs(1, n, out); }
static void make_box_columns(size_t n, void *out) { make_box(n, out), make_columns(out, 12, n); }
static void make_circle_columns(size_t n, void *out) { make_circle(n, out), make_columns(out, 10, n); }
static void make_circle_box_columns(size_t n, void *out) { make_circle_box(n, out), make_columns(out, 11, n); }

typedef struct kind {
    const char *name;
    size_t record_size;
    void (*make)(size_t, void *);
    mink_status (*run)(mink_context *, const void *, size_t, mink_hit *);
    int columns;
} kind;

static const kind kinds[] = {
    {"box", sizeof(mink_aabb_pair), make_box, run_box, 0},
    {"box-columns", sizeof(mink_aabb_pair), make_box_columns, run_box_columns, 1},
    {"circle", sizeof(mink_circle_pair), make_circle, run_circle, 0},
    {"circle-columns", sizeof(mink_circle_pair), make_circle_columns, run_circle_columns, 1},
    {"circle-box", sizeof(mink_circle_aabb_pair), make_circle_box, run_circle_box, 0},
    {"circle-box-columns", sizeof(mink_circle_aabb_pair), make_circle_box_columns, run_circle_box_columns, 1},
    {"pair", sizeof(mink_pair), make_pair, run_pair, 0},
    {"polygon", sizeof(mink_polygon_pair), make_polygon, run_polygon, 0},
    {"polygon-box", sizeof(mink_polygon_aabb_pair), make_polygon_box, run_polygon_box, 0},
    {"polygon-circle", sizeof(mink_polygon_circle_pair), make_polygon_circle, run_polygon_circle, 0},
    {"rotating", sizeof(mink_pair), make_rotating, run_rotating, 0},
    {"capsule", sizeof(mink_capsule_pair), make_capsule, run_capsule, 0},
    {"capsule-circle", sizeof(mink_capsule_circle_pair), make_capsule_circle, run_capsule_circle, 0},
};
#define KINDS (sizeof kinds / sizeof kinds[0])

static size_t top_of(const kind *k, size_t max_pairs) {
    return k->record_size > 64 && max_pairs > BIG_RECORD_MAX ? BIG_RECORD_MAX : max_pairs;
}

int main(int argc, char **argv) {
    size_t max_pairs = argc > 1 ? (size_t)strtod(argv[1], NULL) : 100000000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (max_pairs < 10000 || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "usage: bench_gpu [MAX_PAIRS >= 10000] [REPS 1..%d]\n", MAX_REPS);
        return 2;
    }
    device_limits lim;
    if (!measure_device(&lim)) {
        printf("bench_gpu: no OpenCL GPU here; nothing to measure\n");
        return 0;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    mink_context *gpu = NULL, *scalar = NULL;
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, &gpu) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR,
                                                 .threads = (unsigned)(cores < 1 ? 1 : cores > 64 ? 64 : cores)},
                            &scalar) != MINK_OK)
        die("creating the contexts");
    printf("device: %s\ncopy kernel %.0f GB/s (read + written); host link (pageable memory) up %.1f GB/s, down %.1f GB/s\n",
           mink_context_device(gpu), lim.copy_gbs, lim.write_gbs, lim.read_gbs);
    size_t largest = 0;
    for (size_t k = 0; k < KINDS; k++)
        if (top_of(&kinds[k], max_pairs) * kinds[k].record_size > largest)
            largest = top_of(&kinds[k], max_pairs) * kinds[k].record_size;
    void *records = malloc(largest);
    mink_hit *hits = malloc(max_pairs * sizeof *hits), *ref = malloc(max_pairs * sizeof *ref);
    if (!records || !hits || !ref) die("out of memory");
    printf("median of %d runs after a warm-up; fractions: kernel of the copy kernel's rate over the bytes a pair moves, "
           "end to end of the link's (the record up, then the hit down)\n", reps);
    printf("%-15s %10s %6s | %12s %8s | %12s %8s | %s\n", "kind", "pairs", "bytes", "kernel M/s", "of copy",
           "e2e M/s", "of link", "same bits");
    for (size_t ki = 0; ki < KINDS; ki++) {
        const kind *k = &kinds[ki];
        size_t top = top_of(k, max_pairs), bytes = k->record_size + sizeof(mink_hit);
        k->make(top, records);
        for (size_t n = 10000; n <= top; n = n * 10 > top && n < top ? top : n * 10) { /* ending on the largest */
            if (k->run(scalar, records, n, ref) != MINK_OK) die(k->name);
            if (k->columns) gather_columns(n, ref);
            double wall[MAX_REPS], kern[MAX_REPS];
            if (k->run(gpu, records, n, hits) != MINK_OK) die(k->name); /* the warm-up */
            for (int r = 0; r < reps; r++) {
                double t0 = bench_now_ms();
                if (k->run(gpu, records, n, hits) != MINK_OK) die(k->name);
                wall[r] = bench_now_ms() - t0;
                kern[r] = mink_context_stats(gpu).kernel_ms;
            }
            if (k->columns) gather_columns(n, hits);
            int same = memcmp(hits, ref, n * sizeof *hits) == 0;
            bench_figure fk = bench_summarize(kern, reps, n), fe = bench_summarize(wall, reps, n);
            double kernel_bound = lim.copy_gbs * 1e9 / (double)bytes;
            double link_bound = 1.0 / ((double)k->record_size / (lim.write_gbs * 1e9) + sizeof(mink_hit) / (lim.read_gbs * 1e9));
            printf("%-15s %10zu %6zu | %12.1f %8.3f | %12.1f %8.3f | %s\n", k->name, n, bytes, fk.median * 1e-6,
                   fk.median / kernel_bound, fe.median * 1e-6, fe.median / link_bound, same ? "yes" : "NO");
            fflush(stdout);
            if (!same) return 1;
        }
    }
    for (size_t k = 0; k < 20; k++) free(columns[k]);
    free(records), free(hits), free(ref);
    mink_context_destroy(gpu);
    mink_context_destroy(scalar);
    printf("bench_gpu: ok\n");
    return 0;
}
