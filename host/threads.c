/* host/threads.c — splitting a scalar-path batch, or a world's pass, over threads: those a context
 * keeps (mink__split), started at its first call worth splitting and waiting between calls, or,
 * where none would start, threads started for the call and joined before it returns
 * (mink__parallel). */
#ifdef __linux__
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>
#endif
#include <pthread.h>
#include <stdlib.h>
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

/* ---- threads kept by a context ----------------------------------------------------------------- */

/* A world step runs some forty passes, a game a few batches a frame; starting and joining a thread
 * for each cost about 46 µs a thread here. The pool's threads are started once, watch a while for
 * the next call after each (MINK_POOL_SPIN), then wait on a condition variable (using no core),
 * and end with the context. */
typedef struct mink_pool_worker {
    struct mink_pool *pool;
    unsigned k; /* its share: run k of the pass */
} mink_pool_worker;

struct mink_pool {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    unsigned long round; /* bumped for each pass */
    unsigned pending;    /* workers still on this round */
    int quit;
    mink_range_fn *fn;
    void *job;
    size_t count;
    size_t runs; /* the pass's runs, the caller's (run 0) included */
    unsigned workers;
    pthread_t ids[MINK_MAX_THREADS];
    mink_pool_worker worker[MINK_MAX_THREADS];
};

/* Checks of the next call's arrival before waiting on the condition variable (about 50 µs), and
 * of the workers' end before the caller waits: waking a thread that waits took longer than a pass
 * of a few thousand items. */
#define MINK_POOL_SPIN 1000
static inline void mink_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *pool_worker(void *arg) {
    mink_pool_worker *me = arg;
    mink_pool *p = me->pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        if (!p->quit && p->round == seen) { /* the next call often follows at once: watch a while */
            pthread_mutex_unlock(&p->lock);
            for (int i = 0; i < MINK_POOL_SPIN && __atomic_load_n(&p->round, __ATOMIC_ACQUIRE) == seen; i++)
                mink_pause();
            pthread_mutex_lock(&p->lock);
        }
        while (!p->quit && p->round == seen) pthread_cond_wait(&p->go, &p->lock);
        if (p->quit) break;
        seen = p->round;
        mink_range_fn *fn = p->fn;
        void *job = p->job;
        size_t count = p->count, runs = p->runs, k = me->k;
        pthread_mutex_unlock(&p->lock);
        if (k < runs) fn(job, count * k / runs, count * (k + 1) / runs);
        pthread_mutex_lock(&p->lock);
        if (__atomic_sub_fetch(&p->pending, 1u, __ATOMIC_RELEASE) == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

mink_pool *mink__pool_create(unsigned threads) {
    if (threads > MINK_MAX_THREADS) threads = MINK_MAX_THREADS;
    if (threads < 2) return NULL;
    mink_pool *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return NULL;
    }
    /* Neither can fail on Linux; elsewhere, no pool: the passes start their threads. */
    if (pthread_cond_init(&p->go, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->go);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    /* Workers 1, 2, ...: a thread that will not start leaves the pool smaller. */
    for (unsigned k = 1; k < threads; k++) {
        p->worker[p->workers] = (mink_pool_worker){p, p->workers + 1u};
        if (pthread_create(&p->ids[p->workers], NULL, pool_worker, &p->worker[p->workers]) != 0) break;
        p->workers++;
    }
    if (p->workers == 0) {
        mink__pool_destroy(p);
        return NULL;
    }
    return p;
}

void mink__pool_run(mink_pool *p, size_t count, size_t min_each, mink_range_fn *fn, void *job) {
    size_t most = min_each > 0 ? count / min_each : count;
    size_t runs = p == NULL ? 1 : p->workers + 1u < most ? p->workers + 1u : most;
    if (runs <= 1) {
        if (count > 0) fn(job, 0, count);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->fn = fn, p->job = job, p->count = count, p->runs = runs;
    __atomic_store_n(&p->pending, p->workers, __ATOMIC_RELAXED);
    __atomic_store_n(&p->round, p->round + 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    fn(job, 0, count / runs);
    for (int i = 0; i < MINK_POOL_SPIN && __atomic_load_n(&p->pending, __ATOMIC_ACQUIRE) > 0; i++) mink_pause();
    pthread_mutex_lock(&p->lock);
    while (p->pending > 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void mink__pool_destroy(mink_pool *p) {
    if (p == NULL) return;
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    for (unsigned k = 0; k < p->workers; k++) pthread_join(p->ids[k], NULL);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void mink__split(mink_context *ctx, size_t count, size_t min_each, mink_range_fn *fn, void *job) {
    if (ctx->threads > 1 && count >= 2 * min_each && ctx->pool == NULL && !ctx->pool_failed) {
        ctx->pool = mink__pool_create(ctx->threads);
        ctx->pool_failed = ctx->pool == NULL;
    }
    /* The pool only while the context allows more than one thread: AUTO times the scalar path
     * on one (host/auto.c) with the count set aside. */
    if (ctx->pool != NULL && ctx->threads > 1)
        mink__pool_run(ctx->pool, count, min_each, fn, job);
    else
        mink__parallel(ctx->threads, count, min_each, fn, job);
}
