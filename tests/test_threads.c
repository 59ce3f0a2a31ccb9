/* tests/test_threads.c — what mink.h and world.h promise about threads: separate contexts (each
 * with a world) used from several threads at once give the same bits as one thread, on both paths. */
#include <pthread.h>

#include "mink/world.h"
#include "test_util.h"

enum { THREADS = 4, N = 50000, ROUNDS = 3, BODIES = 2000, STEPS = 10 };

typedef struct job {
    mink_backend backend;
    const mink_pair *pairs;
    const mink_hit *want;
    const mink_vec2 *want_world; /* positions after STEPS steps */
    int ok;
    char error[256];
} job;

/* A crowd of circles and boxes, stepped STEPS times; the positions to out. */
static mink_status run_world(mink_context *ctx, mink_vec2 *out) {
    mink_world *w = NULL;
    mink_status s = mink_world_create(ctx, NULL, &w);
    mink_shape shapes[2] = {circle_shape(0.5f), box_shape(0.4f, 0.6f)};
    uint32_t ids[2], shape[BODIES], handles[BODIES];
    static _Thread_local mink_vec2 pos[BODIES], vel[BODIES];
    mink_rng rng = mink_rng_seed(5);
    for (int k = 0; k < BODIES; k++) {
        pos[k] = mink_v2(mink_rng_float(&rng, -40.0f, 40.0f), mink_rng_float(&rng, -40.0f, 40.0f));
        vel[k] = mink_v2(mink_rng_float(&rng, -3.0f, 3.0f), mink_rng_float(&rng, -3.0f, 3.0f));
    }
    if (s == MINK_OK) s = mink_world_add_shapes(w, shapes, 2, ids);
    for (int k = 0; k < BODIES; k++) shape[k] = ids[k % 2];
    mink_world_bodies b = {.count = BODIES, .shape = shape, .position = pos, .velocity = vel};
    if (s == MINK_OK) s = mink_world_add(w, &b, handles);
    for (int t = 0; t < STEPS && s == MINK_OK; t++) s = mink_world_step(w, 1.0f);
    if (s == MINK_OK) s = mink_world_get(w, handles, BODIES, out, NULL);
    mink_world_destroy(w);
    return s;
}

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
    static _Thread_local mink_vec2 positions[BODIES];
    for (int r = 0; r < ROUNDS && ok; r++) {
        ok = mink_batch_sweep(ctx, j->pairs, N, 1.0f, hits) == MINK_OK &&
             memcmp(hits, j->want, N * sizeof *hits) == 0;
        if (!ok) snprintf(j->error, sizeof j->error, "round %d differs or failed: %s", r, mink_context_error(ctx));
        if (ok) {
            ok = run_world(ctx, positions) == MINK_OK && memcmp(positions, j->want_world, sizeof positions) == 0;
            if (!ok) snprintf(j->error, sizeof j->error, "world %d differs or failed: %s", r, mink_context_error(ctx));
        }
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
    static mink_vec2 want_world[BODIES];
    assert_int_equal(run_world(one, want_world), MINK_OK);
    mink_context_destroy(one);

    pthread_t threads[THREADS];
    job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (job){.backend = backend, .pairs = pairs, .want = want, .want_world = want_world};
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
