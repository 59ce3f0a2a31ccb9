/* tests/test_threads.c — what mink.h promises about threads: separate contexts used from several
 * threads at once give the same bits as one thread, on both paths and for every batch kind. */
#include <pthread.h>

#include "test_util.h"

enum { THREADS = 4, N = 50000, ROUNDS = 3 };

typedef struct job {
    mink_backend backend;
    const mink_pair *pairs;
    const mink_hit *want;
    int ok;
    char error[256];
} job;

static void *worker(void *arg) {
    job *j = arg;
    mink_context *ctx = NULL;
    mink_hit *hits = malloc(N * sizeof *hits);
    j->ok = 0;
    if (hits == NULL || mink_context_create(&(mink_context_desc){.backend = j->backend}, &ctx) != MINK_OK) {
        snprintf(j->error, sizeof j->error, "%s", hits ? mink_last_error() : "out of memory");
        free(hits);
        return NULL;
    }
    int ok = 1;
    for (int r = 0; r < ROUNDS && ok; r++) {
        ok = mink_batch_sweep(ctx, j->pairs, N, 1.0f, hits) == MINK_OK &&
             memcmp(hits, j->want, N * sizeof *hits) == 0;
        if (!ok) snprintf(j->error, sizeof j->error, "round %d differs or failed: %s", r, mink_context_error(ctx));
    }
    j->ok = ok;
    mink_context_destroy(ctx);
    free(hits);
    return NULL;
}

static void run_threads(mink_backend backend) {
    mink_pair *pairs = malloc(N * sizeof *pairs);
    mink_hit *want = malloc(N * sizeof *want);
    assert_true(pairs && want);
    mink_sample_pairs(77, N, pairs);
    /* The one-thread answer, on the scalar path (the paths agree bit for bit elsewhere). */
    mink_context *one;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &one), MINK_OK);
    assert_int_equal(mink_batch_sweep(one, pairs, N, 1.0f, want), MINK_OK);
    mink_context_destroy(one);

    pthread_t threads[THREADS];
    job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (job){.backend = backend, .pairs = pairs, .want = want};
        assert_int_equal(pthread_create(&threads[t], NULL, worker, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) assert_int_equal(pthread_join(threads[t], NULL), 0);
    for (int t = 0; t < THREADS; t++)
        if (!jobs[t].ok) fail_msg("thread %d: %s", t, jobs[t].error);
    free(pairs), free(want);
}

static void scalar_contexts_in_threads(void **state) {
    (void)state;
    run_threads(MINK_BACKEND_SCALAR);
}

static void opencl_contexts_in_threads(void **state) {
    (void)state;
    run_threads(MINK_BACKEND_OPENCL);
}

/* Errors are per thread: a failure in one thread does not change another thread's message. */
static void *fail_once(void *arg) {
    (void)arg;
    mink_batch_sweep(NULL, NULL, 1, 1.0f, NULL);
    return NULL;
}

static void scalar_last_error_is_per_thread(void **state) {
    (void)state;
    mink_context *ctx = (mink_context *)&ctx;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = (mink_backend)42}, &ctx),
                     MINK_ERR_INVALID_ARGUMENT);
    char mine[256];
    snprintf(mine, sizeof mine, "%s", mink_last_error());
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fail_once, NULL), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_string_equal(mink_last_error(), mine);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalar_contexts_in_threads),
        cmocka_unit_test(scalar_last_error_is_per_thread),
        cmocka_unit_test(opencl_contexts_in_threads),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("threads", tests, NULL, NULL);
}
