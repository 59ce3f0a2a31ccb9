/* cli/stream.c — see stream.h. */
#include "stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

typedef struct slice {
    double *a, *b, *c;
    size_t begin, end;
    int op; /* 0: first touch, 1: copy, 2: triad */
} slice;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *run_slice(void *arg) {
    slice *s = arg;
    double *restrict a = s->a, *restrict b = s->b, *restrict c = s->c;
    if (s->op == 0) {
        for (size_t i = s->begin; i < s->end; i++) a[i] = 1.0, b[i] = 2.0, c[i] = 0.0;
    } else if (s->op == 1) {
        for (size_t i = s->begin; i < s->end; i++) c[i] = a[i];
    } else {
        for (size_t i = s->begin; i < s->end; i++) a[i] = b[i] + 3.0 * c[i];
    }
    return NULL;
}

/* Runs `op` on every slice at once; the seconds from starting the first thread to the last one's
 * end (starting a thread costs microseconds, a pass over the arrays milliseconds). */
static double run_all(slice *slices, int threads, int op) {
    pthread_t tid[64];
    int started = 0;
    double t0 = now_s();
    for (int t = 0; t < threads; t++) {
        slices[t].op = op;
        if (pthread_create(&tid[t], NULL, run_slice, &slices[t]) != 0) break;
        started++;
    }
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    double t1 = now_s();
    return started < threads ? -1.0 : t1 - t0;
}

int stream_measure(size_t elements, int threads, int reps, stream_result *out) {
    if (threads < 1 || threads > 64 || reps < 1) return 0;
    double *a = malloc(elements * sizeof *a), *b = malloc(elements * sizeof *b), *c = malloc(elements * sizeof *c);
    slice slices[64];
    int ok = a && b && c;
    for (int t = 0; t < threads && ok; t++)
        slices[t] = (slice){a, b, c, elements * (size_t)t / (size_t)threads,
                            elements * (size_t)(t + 1) / (size_t)threads, 0};
    if (ok) ok = run_all(slices, threads, 0) >= 0.0; /* each thread touches its own pages first */
    double best_copy = 1e30, best_triad = 1e30;
    for (int r = 0; r < reps && ok; r++) {
        double tc = run_all(slices, threads, 1), tt = run_all(slices, threads, 2);
        ok = tc > 0.0 && tt > 0.0;
        if (tc < best_copy) best_copy = tc;
        if (tt < best_triad) best_triad = tt;
    }
    if (ok) {
        out->copy_gbs = 16.0 * (double)elements / best_copy * 1e-9;
        out->triad_gbs = 24.0 * (double)elements / best_triad * 1e-9;
    }
    free(a), free(b), free(c);
    return ok;
}
