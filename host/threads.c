/* host/threads.c — splitting a scalar-path batch over threads.
 *
 * Threads are started for the call and joined before it returns: a batch worth splitting takes
 * at least a few hundred microseconds, against tens to start a thread, and nothing lingers in a
 * process that only calls mink now and then. */
#ifdef __linux__
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>
#endif
#include <pthread.h>
#include <unistd.h>

#include "internal.h"

unsigned mink__cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
    /* The cores this process may run on: a container or a taskset allows fewer than are online. */
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0 && CPU_COUNT(&set) < n) n = CPU_COUNT(&set);
#endif
    return n < 1 ? 1u : n > (long)MINK_MAX_THREADS ? MINK_MAX_THREADS : (unsigned)n;
}

typedef struct mink_run {
    mink_range_fn *fn;
    void *job;
    size_t begin, end;
} mink_run;

static void *run_range(void *arg) {
    mink_run *r = arg;
    r->fn(r->job, r->begin, r->end);
    return NULL;
}

void mink__parallel(unsigned threads, size_t count, size_t min_each, mink_range_fn *fn, void *job) {
    size_t most = min_each > 0 ? count / min_each : count;
    size_t n = threads < most ? threads : most;
    if (n > MINK_MAX_THREADS) n = MINK_MAX_THREADS;
    if (n <= 1) {
        if (count > 0) fn(job, 0, count);
        return;
    }
    mink_run runs[MINK_MAX_THREADS];
    pthread_t ids[MINK_MAX_THREADS];
    int started[MINK_MAX_THREADS];
    for (size_t k = 0; k < n; k++) {
        runs[k] = (mink_run){fn, job, count * k / n, count * (k + 1) / n};
        /* Run 0 is the calling thread's; a thread that will not start leaves its run to it too. */
        started[k] = k > 0 && pthread_create(&ids[k], NULL, run_range, &runs[k]) == 0;
    }
    for (size_t k = 0; k < n; k++)
        if (!started[k]) run_range(&runs[k]);
    for (size_t k = 1; k < n; k++)
        if (started[k]) pthread_join(ids[k], NULL);
}
