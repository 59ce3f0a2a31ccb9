/* tests/test_context.c — the runtime: contexts, devices, argument checks, errors, splitting,
 * transfers and stats. Tests named scalar_* use no OpenCL (valgrind runs those). */
#include <ctype.h>
#include <float.h>
#include <math.h>

#include "test_util.h"


static void scalar_status_strings(void **state) {
    (void)state;
    for (int s = MINK_OK; s <= MINK_ERR_OPENCL; s++) {
        const char *text = mink_status_string((mink_status)s);
        assert_non_null(text);
        assert_non_null(strstr(text, "MINK_"));
        for (int u = MINK_OK; u < s; u++) assert_string_not_equal(text, mink_status_string((mink_status)u));
    }
    assert_string_equal(mink_status_string((mink_status)1234), "unknown mink_status");
    assert_string_equal(mink_status_string(MINK_OK), "MINK_OK: ok");
}

static void scalar_context_basics(void **state) {
    (void)state;
    mink_context *ctx = NULL;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &ctx), MINK_OK);
    assert_int_equal(mink_context_backend(ctx), MINK_BACKEND_SCALAR);
    assert_string_equal(mink_context_device(ctx), "scalar");
    assert_string_equal(mink_context_error(ctx), "");
    mink_context_destroy(ctx);
    mink_context_destroy(NULL); /* allowed */
    assert_string_equal(mink_context_device(NULL), "");
    assert_string_equal(mink_context_error(NULL), "");
}

static void scalar_bad_create_arguments(void **state) {
    (void)state;
    mink_context *ctx = (mink_context *)&ctx; /* must be reset to NULL on failure */
    assert_int_equal(mink_context_create(NULL, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "out is NULL"));
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = (mink_backend)99}, &ctx),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_null(ctx);
    assert_int_equal(mink_context_create(&(mink_context_desc){.transfer = (mink_transfer)-1}, &ctx),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .device = "x"}, &ctx),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "scalar backend"));
    assert_null(ctx);
}

/* Bad arguments are statuses with messages on every backend; count == 0 needs no arrays. */
static void check_bad_batch_arguments(mink_context *ctx) {
    mink_aabb_pair pair = {{{0, 0}, {1, 1}}, {1, 0}, {{2, 0}, {3, 1}}, {0, 0}};
    mink_hit hit;
    assert_int_equal(mink_batch_sweep_aabb(NULL, &pair, 1, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "ctx is NULL"));
    assert_int_equal(mink_batch_sweep_aabb(ctx, NULL, 1, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "the input is NULL"));
    assert_int_equal(mink_batch_sweep_aabb(ctx, &pair, 1, 1, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "the output is NULL"));
    assert_int_equal(mink_batch_sweep_aabb(ctx, &pair, SIZE_MAX / 8, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "overflows"));
    assert_int_equal(mink_batch_sweep_aabb(ctx, &pair, SIZE_MAX, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    const float bad_dt[] = {NAN, INFINITY, -INFINITY, -1.0f, -FLT_MIN};
    for (size_t i = 0; i < sizeof bad_dt / sizeof bad_dt[0]; i++) {
        assert_int_equal(mink_batch_sweep_aabb(ctx, &pair, 1, bad_dt[i], &hit), MINK_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(mink_context_error(ctx), "dt must be finite"));
    }
    assert_int_equal(mink_batch_sweep_aabb(ctx, NULL, 0, 1, NULL), MINK_OK);
    assert_int_equal(mink_context_stats(ctx).pairs, 0);
    /* The other batch kinds check the same things, each naming itself. */
    mink_circle_pair cp = {{{0, 0}, 1}, {4, 0}, {{3, 0}, 1}, {0, 0}}; /* a reaches the box at t = 0.25 */
    mink_circle_aabb_pair cb = {{{0, 0}, 1}, {1, 0}, {{2, 0}, {3, 1}}, {0, 0}};
    mink_pair mp = {mink_body_circle(cp.a, cp.va), mink_body_aabb(cb.b, cb.vb)};
    assert_int_equal(mink_batch_sweep_circle(ctx, NULL, 1, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep_circle: the input is NULL"));
    assert_int_equal(mink_batch_sweep_circle_aabb(ctx, &cb, SIZE_MAX / 8, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep_circle_aabb: count"));
    assert_int_equal(mink_batch_sweep(ctx, &mp, 1, NAN, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep: dt must be finite"));
    assert_int_equal(mink_batch_sweep(NULL, &mp, 1, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep(ctx, &mp, 1, 1, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle(ctx, NULL, 0, 1, NULL), MINK_OK);
    assert_int_equal(mink_batch_sweep_circle_aabb(ctx, NULL, 0, 1, NULL), MINK_OK);
    assert_int_equal(mink_batch_sweep(ctx, NULL, 0, 1, NULL), MINK_OK);
    assert_int_equal(mink_batch_sweep(ctx, &mp, 1, 1, &hit), MINK_OK);
    assert_int_equal(hit.flags, MINK_HIT_CONTACT);
    assert_int_equal(mink_context_stats(ctx).bytes_in, sizeof mp);
    /* Polygons and the rotating query, each naming itself; a bad desc is a bad argument. */
    mink_polygon_pair pp = {0};
    mink_polygon_aabb_pair pb = {0};
    mink_polygon_circle_pair pc = {0};
    assert_int_equal(mink_batch_sweep_polygon(ctx, NULL, 1, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep_polygon: the input is NULL"));
    assert_int_equal(mink_batch_sweep_polygon_aabb(ctx, &pb, SIZE_MAX / 64, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep_polygon_aabb: count"));
    assert_int_equal(mink_batch_sweep_polygon_circle(ctx, &pc, 1, -1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep_polygon_circle: dt must be finite"));
    /* The capsule batches likewise. */
    mink_capsule_pair capsules = {0};
    mink_capsule_circle_pair cc = {0};
    assert_int_equal(mink_batch_sweep_capsule(ctx, NULL, 1, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep_capsule: the input is NULL"));
    assert_int_equal(mink_batch_sweep_capsule(ctx, &capsules, SIZE_MAX / 32, 1, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep_capsule: count"));
    assert_int_equal(mink_batch_sweep_capsule_circle(ctx, &cc, 1, NAN, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "mink_batch_sweep_capsule_circle: dt must be finite"));
    assert_int_equal(mink_batch_sweep_capsule_circle(ctx, &cc, 1, 1, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_rotating(ctx, &mp, 1, 1, &(mink_rotating_desc){.target = -1}, &hit),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_context_error(ctx), "desc->target"));
    assert_int_equal(mink_batch_sweep_rotating(ctx, &mp, 1, 1, &(mink_rotating_desc){.target = NAN}, &hit),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_rotating(NULL, &mp, 1, 1, NULL, &hit), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_rotating(ctx, &mp, 1, 1, NULL, NULL), MINK_ERR_INVALID_ARGUMENT);
    /* A zeroed polygon record is well formed but invalid geometry: INVALID, not an error. */
    assert_int_equal(mink_batch_sweep_polygon(ctx, &pp, 1, 1, &hit), MINK_OK);
    assert_int_equal(hit.flags, MINK_HIT_INVALID);
    assert_int_equal(mink_batch_sweep_rotating(ctx, &mp, 1, 1, NULL, &hit), MINK_OK);
    assert_int_equal(hit.flags, MINK_HIT_CONTACT); /* the circle reaches the box: within the target */
    assert_int_equal(mink_batch_sweep_polygon(ctx, NULL, 0, 1, NULL), MINK_OK);
    assert_int_equal(mink_batch_sweep_rotating(ctx, NULL, 0, 1, NULL, NULL), MINK_OK);
    /* -0 is a zero step, not a negative one. */
    assert_int_equal(mink_batch_sweep_aabb(ctx, &pair, 1, -0.0f, &hit), MINK_OK);
    assert_int_equal(hit.flags, 0);
}

static void scalar_bad_batch_arguments(void **state) {
    (void)state;
    mink_context *ctx;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &ctx), MINK_OK);
    check_bad_batch_arguments(ctx);
    mink_context_destroy(ctx);
}

static void opencl_bad_batch_arguments(void **state) {
    const paths *p = *state;
    check_bad_batch_arguments(p->opencl);
    /* The context still works after the errors. */
    mink_aabb_pair pairs[64];
    mink_hit hits[64];
    mink_sample_aabb_pairs(1, 64, pairs);
    sweep_both(p, pairs, 64, 1, hits);
}

static void scalar_stats(void **state) {
    (void)state;
    mink_context *ctx;
    enum { N = 1000 };
    static mink_aabb_pair pairs[N];
    static mink_hit hits[N];
    mink_sample_aabb_pairs(5, N, pairs);
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &ctx), MINK_OK);
    assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, N, 1, hits), MINK_OK);
    mink_batch_stats st = mink_context_stats(ctx);
    assert_int_equal(st.pairs, N);
    assert_int_equal(st.launches, 0);
    assert_int_equal(st.bytes_in, N * sizeof(mink_aabb_pair));
    assert_int_equal(st.bytes_out, N * sizeof(mink_hit));
    assert_true(st.total_ms >= 0 && st.kernel_ms >= 0);
    assert_int_equal(st.backend, MINK_BACKEND_SCALAR);
    mink_context_destroy(ctx);
}

/* AUTO picks the OpenCL device when there is one (in CI: PoCL); a NULL desc means AUTO. */
static void opencl_auto_picks_a_device(void **state) {
    (void)state;
    mink_context *ctx;
    assert_int_equal(mink_context_create(NULL, &ctx), MINK_OK);
    assert_int_equal(mink_context_backend(ctx), MINK_BACKEND_OPENCL);
    assert_string_not_equal(mink_context_device(ctx), "scalar");
    mink_context_destroy(ctx);
}

static void opencl_device_list(void **state) {
    (void)state;
    size_t count = 0, defaults = 0;
    assert_int_equal(mink_device_list(NULL, 0, &count), MINK_OK);
    assert_true(count >= 1);
    mink_device_info *infos = calloc(count, sizeof *infos);
    assert_non_null(infos);
    assert_int_equal(mink_device_list(infos, count, &count), MINK_OK);
    for (size_t i = 0; i < count; i++) {
        assert_true(infos[i].name[0] != '\0' && infos[i].platform[0] != '\0');
        assert_true(infos[i].max_alloc > 0 && infos[i].compute_units > 0);
        defaults += infos[i].is_default;
        if (infos[i].is_default) assert_true(infos[i].usable);
    }
    assert_int_equal(defaults, 1);
    assert_int_equal(mink_device_list(NULL, 1, &count), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_device_list(infos, count, NULL), MINK_ERR_INVALID_ARGUMENT);
    /* A device chosen by part of its name, in any case. */
    char part[8] = {0};
    for (size_t i = 0; i < 4 && infos[0].name[i]; i++) part[i] = (char)toupper((unsigned char)infos[0].name[i]);
    mink_context *ctx;
    assert_int_equal(mink_context_create(&(mink_context_desc){.device = part}, &ctx), MINK_OK);
    assert_int_equal(mink_context_backend(ctx), MINK_BACKEND_OPENCL);
    mink_context_destroy(ctx);
    free(infos);
}

static void opencl_unknown_device_name(void **state) {
    (void)state;
    mink_context *ctx = (mink_context *)&ctx;
    assert_int_equal(mink_context_create(&(mink_context_desc){.device = "no-such-device-anywhere"}, &ctx),
                     MINK_ERR_NO_DEVICE);
    assert_null(ctx);
    assert_non_null(strstr(mink_last_error(), "no-such-device-anywhere"));
    assert_non_null(strstr(mink_last_error(), "found:")); /* and it says what there is */
}

/* Splitting into launches, and either way of moving data, give the same bits. COPY sends a
 * batch in chunks of at most 2^18 pairs (host/internal.h's MINK_COPY_CHUNK) through two sets of
 * buffers on two queues: the largest batch here is three chunks, so both sets are used and the
 * first is used again. */
static void opencl_splits_and_transfers_agree(void **state) {
    const paths *p = *state;
    enum { N = 600011, SMALL = 100003, CHUNK = 1 << 18 }; /* primes: no launch size divides them */
    mink_aabb_pair *pairs = malloc(N * sizeof *pairs);
    mink_hit *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
    assert_true(pairs && want && got);
    mink_sample_aabb_pairs(11, N, pairs);
    sweep_both(p, pairs, N, 1, want);
    const struct { size_t max, n; mink_transfer transfer; } variants[] = {
        {0, SMALL, MINK_TRANSFER_MAP}, {0, SMALL, MINK_TRANSFER_COPY}, {0, N, MINK_TRANSFER_COPY},
        {1000, SMALL, MINK_TRANSFER_MAP}, {777, SMALL, MINK_TRANSFER_COPY}, {1, 2000, MINK_TRANSFER_AUTO},
    };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        size_t n = variants[v].n, max = variants[v].max;
        mink_context *ctx;
        assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL,
                                                                  .max_pairs_per_launch = max,
                                                                  .transfer = variants[v].transfer}, &ctx), MINK_OK);
        memset(got, 0xab, N * sizeof *got);
        assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, n, 1, got), MINK_OK);
        assert_hits_identical(got, want, n, pairs, "split or transferred results");
        mink_batch_stats st = mink_context_stats(ctx);
        size_t per = max ? max : variants[v].transfer == MINK_TRANSFER_COPY ? CHUNK : n;
        assert_int_equal(st.launches, (n + per - 1) / per);
        assert_int_equal(st.pairs, n);
        assert_true(st.kernel_ms > 0 && st.total_ms >= st.kernel_ms * 0.5);
        /* A second, smaller batch on the same context reuses its buffers. */
        assert_int_equal(mink_batch_sweep_aabb(ctx, pairs + 5, 999, 1, got), MINK_OK);
        assert_hits_identical(got, want + 5, 999, pairs + 5, "second batch");
        mink_context_destroy(ctx);
    }
    free(pairs), free(want), free(got);
}

/* AUTO answers batches below auto_min_pairs on the scalar path and the rest on the device, with
 * the same bits either way; stats say which path took each call. */
static void opencl_auto_sends_small_batches_to_scalar(void **state) {
    (void)state;
    enum { N = 300 };
    mink_aabb_pair *boxes = malloc(N * sizeof *boxes);
    mink_pair *mixed = malloc(N * sizeof *mixed);
    mink_hit *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
    assert_true(boxes && mixed && want && got);
    mink_sample_aabb_pairs(21, N, boxes);
    mink_sample_pairs(22, N, mixed);
    mink_context *scalar, *ctx;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &scalar), MINK_OK);
    assert_int_equal(mink_context_create(&(mink_context_desc){.auto_min_pairs = 100}, &ctx), MINK_OK);
    assert_int_equal(mink_context_backend(ctx), MINK_BACKEND_OPENCL);
    const size_t sizes[] = {1, 99, 100, N};
    for (size_t i = 0; i < 4; i++) {
        size_t n = sizes[i];
        mink_backend path = n < 100 ? MINK_BACKEND_SCALAR : MINK_BACKEND_OPENCL;
        assert_int_equal(mink_batch_sweep_aabb(scalar, boxes, n, 1, want), MINK_OK);
        assert_int_equal(mink_batch_sweep_aabb(ctx, boxes, n, 1, got), MINK_OK);
        assert_hits_identical(got, want, n, boxes, "AUTO box batch");
        assert_int_equal(mink_context_stats(ctx).backend, path);
        assert_int_equal(mink_context_stats(ctx).launches, path == MINK_BACKEND_OPENCL ? 1 : 0);
        assert_int_equal(mink_batch_sweep(scalar, mixed, n, 1, want), MINK_OK);
        assert_int_equal(mink_batch_sweep(ctx, mixed, n, 1, got), MINK_OK);
        assert_memory_equal(got, want, n * sizeof *want);
        assert_int_equal(mink_context_stats(ctx).backend, path);
    }
    mink_context_destroy(ctx);

    /* Measured thresholds (a timing, so only the bits and the bookkeeping are asserted): each kind
     * measures once, then keeps its choice for a given size. */
    assert_int_equal(mink_context_create(NULL, &ctx), MINK_OK);
    for (int again = 0; again < 2; again++) {
        mink_backend first = MINK_BACKEND_AUTO;
        for (size_t i = 0; i < 4; i++) {
            size_t n = sizes[i];
            assert_int_equal(mink_batch_sweep_aabb(scalar, boxes, n, 1, want), MINK_OK);
            assert_int_equal(mink_batch_sweep_aabb(ctx, boxes, n, 1, got), MINK_OK);
            assert_hits_identical(got, want, n, boxes, "AUTO box batch, measured");
            mink_batch_stats st = mink_context_stats(ctx);
            assert_true(st.backend == MINK_BACKEND_SCALAR || st.backend == MINK_BACKEND_OPENCL);
            assert_int_equal(st.launches, st.backend == MINK_BACKEND_OPENCL ? 1 : 0);
            if (i == 0) first = st.backend;
            if (first == MINK_BACKEND_OPENCL) assert_int_equal(st.backend, MINK_BACKEND_OPENCL); /* monotonic */
        }
        mink_hit one;
        assert_int_equal(mink_batch_sweep_rotating(ctx, mixed, 1, 1, NULL, &one), MINK_OK);
        assert_int_equal(mink_batch_sweep_rotating(scalar, mixed, 1, 1, NULL, want), MINK_OK);
        assert_memory_equal(&one, want, sizeof one);
    }
    mink_context_destroy(ctx);
    mink_context_destroy(scalar);
    free(boxes), free(mixed), free(want), free(got);
}

/* Mixed and turning batches of 2^16 pairs or more are timed themselves (host/auto.c, large_from):
 * the first in eighths on each path in turn, so the device answers some of it, later ones on the
 * faster. The scalar path's bits every time. */
static void opencl_auto_times_mixed_batches_themselves(void **state) {
    (void)state;
    enum { N = (1 << 16) + 5 };
    mink_pair *mixed = malloc(N * sizeof *mixed), *turning = malloc(N * sizeof *turning);
    mink_hit *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
    assert_true(mixed && turning && want && got);
    mink_sample_pairs(23, N, mixed);
    mink_sample_rotating_pairs(24, N, turning);
    mink_context *scalar, *ctx;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &scalar), MINK_OK);
    assert_int_equal(mink_context_create(NULL, &ctx), MINK_OK);
    for (int turns = 0; turns < 2; turns++) {
        const mink_pair *pairs = turns ? turning : mixed;
        assert_int_equal(turns ? mink_batch_sweep_rotating(scalar, pairs, N, 1, NULL, want)
                               : mink_batch_sweep(scalar, pairs, N, 1, want),
                         MINK_OK);
        for (int again = 0; again < 3; again++) {
            memset(got, 0xA5, N * sizeof *got);
            assert_int_equal(turns ? mink_batch_sweep_rotating(ctx, pairs, N, 1, NULL, got)
                                   : mink_batch_sweep(ctx, pairs, N, 1, got),
                             MINK_OK);
            assert_memory_equal(got, want, N * sizeof *want);
            if (again == 0) assert_true(mink_context_stats(ctx).launches > 0); /* the device's eighths */
        }
    }
    mink_context_destroy(ctx);
    mink_context_destroy(scalar);
    free(mixed), free(turning), free(want), free(got);
}

/* on_build hears each part of the program as it starts and ends building, once a part, on the
 * calling thread; a scalar context and small AUTO batches build nothing. */
typedef struct heard {
    int calls, started, ended;
    char last[64];
    mink_status status;
    double seconds;
} heard;

static void hear(const mink_build_info *b, void *user) {
    heard *h = user;
    h->calls++;
    if (b->done) {
        assert_int_equal(h->started, h->ended + 1); /* ends what it started */
        h->ended++, h->status = b->status, h->seconds = b->seconds;
    } else {
        assert_int_equal(h->started, h->ended);
        h->started++;
    }
    snprintf(h->last, sizeof h->last, "%s", b->part);
}

static void opencl_builds_are_told(void **state) {
    (void)state;
    enum { N = 64 };
    mink_aabb_pair boxes[N];
    mink_hit hits[N];
    mink_sample_aabb_pairs(5, N, boxes);
    heard h = {0};
    mink_context *ctx;
    mink_context_desc desc = {.backend = MINK_BACKEND_SCALAR, .on_build = hear, .on_build_user = &h};
    assert_int_equal(mink_context_create(&desc, &ctx), MINK_OK);
    assert_int_equal(mink_batch_sweep_aabb(ctx, boxes, N, 1, hits), MINK_OK);
    mink_context_destroy(ctx);
    assert_int_equal(h.calls, 0);
    desc.backend = MINK_BACKEND_AUTO;
    assert_int_equal(mink_context_create(&desc, &ctx), MINK_OK);
    assert_int_equal(mink_batch_sweep_aabb(ctx, boxes, 15, 1, hits), MINK_OK); /* under 16: the scalar path */
    assert_int_equal(h.calls, 0);
    mink_context_destroy(ctx);
    desc.backend = MINK_BACKEND_OPENCL;
    assert_int_equal(mink_context_create(&desc, &ctx), MINK_OK);
    assert_int_equal(h.calls, 0); /* nothing built at create */
    for (int again = 0; again < 2; again++) {
        assert_int_equal(mink_batch_sweep_aabb(ctx, boxes, N, 1, hits), MINK_OK);
        assert_int_equal(h.calls, 2);
        assert_string_equal(h.last, "mink_batch_sweep_aabb");
        assert_int_equal(h.status, MINK_OK);
        assert_true(h.seconds >= 0.0);
    }
    mink_world *world;
    assert_int_equal(mink_world_create(ctx, NULL, &world), MINK_OK);
    assert_int_equal(h.calls, 4);
    assert_string_equal(h.last, "mink_world_step");
    mink_world_destroy(world);
    mink_context_destroy(ctx);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalar_status_strings),
        cmocka_unit_test(scalar_context_basics),
        cmocka_unit_test(scalar_bad_create_arguments),
        cmocka_unit_test(scalar_bad_batch_arguments),
        cmocka_unit_test(scalar_stats),
        cmocka_unit_test(opencl_auto_picks_a_device),
        cmocka_unit_test(opencl_device_list),
        cmocka_unit_test(opencl_unknown_device_name),
        cmocka_unit_test_setup_teardown(opencl_bad_batch_arguments, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_splits_and_transfers_agree, paths_setup, paths_teardown),
        cmocka_unit_test(opencl_auto_sends_small_batches_to_scalar),
        cmocka_unit_test(opencl_auto_times_mixed_batches_themselves),
        cmocka_unit_test(opencl_builds_are_told),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("context", tests, NULL, NULL);
}
