/* bench/bench_util.h — what every benchmark program needs: a clock, and a median with its range. */
#ifndef MINK_BENCH_UTIL_H
#define MINK_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h> /* clock_gettime: the programs define _POSIX_C_SOURCE */

static inline double bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/// A rate over several runs: the median run's, and the slowest and fastest run's.
typedef struct bench_figure {
    double median, min, max; /* per second */
} bench_figure;

/// `ms` holds `reps` run times of `n` items each; sorts it.
static inline bench_figure bench_summarize(double *ms, int reps, size_t n) {
    for (int r = 0; r < reps; r++)
        if (ms[r] < 1e-6) ms[r] = 1e-6; /* below the clock's resolution */
    qsort(ms, (size_t)reps, sizeof *ms, bench_cmp_double);
    bench_figure f = {(double)n / (ms[reps / 2] * 1e-3), (double)n / (ms[reps - 1] * 1e-3),
                      (double)n / (ms[0] * 1e-3)};
    return f;
}

#endif /* MINK_BENCH_UTIL_H */
