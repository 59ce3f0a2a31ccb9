/* tests/test_async.c — batches that don't block: every call submitted gives the blocking call's
 * bits on both paths; the context is refused to other calls until the wait; failures come back
 * with their messages; a context or world destroyed with a call in flight ends it first. */
#include "test_util.h"

#include "mink/world.h"

#define N 20000

/* Every kind's records (columns made from the box, circle and circle–box records), and room for
 * the hits. */
typedef struct inputs {
    mink_aabb_pair aabb[N];
    mink_circle_pair circle[N];
    mink_circle_aabb_pair circle_aabb[N];
    mink_pair mixed[N], rotating[N];
    mink_polygon_pair polygon[N];
    mink_polygon_aabb_pair polygon_aabb[N];
    mink_polygon_circle_pair polygon_circle[N];
    mink_capsule_pair capsule[N];
    mink_capsule_circle_pair capsule_circle[N];
    mink_ray_cast rays[N];
    float aabb_cols[12][N], circle_cols[10][N], circle_aabb_cols[11][N];
    mink_aabb_pair_soa aabb_soa;
    mink_circle_pair_soa circle_soa;
    mink_circle_aabb_pair_soa circle_aabb_soa;
} inputs;

static inputs in;

static void make_inputs(void) {
    mink_sample_aabb_pairs(1, N, in.aabb);
    mink_sample_circle_pairs(2, N, in.circle);
    mink_sample_circle_aabb_pairs(3, N, in.circle_aabb);
    mink_sample_pairs(4, N, in.mixed);
    mink_sample_rotating_pairs(5, N, in.rotating);
    mink_sample_polygon_pairs(6, N, 0, in.polygon);
    mink_sample_polygon_aabb_pairs(7, N, in.polygon_aabb);
    mink_sample_polygon_circle_pairs(8, N, in.polygon_circle);
    mink_sample_ray_casts(9, N, in.rays);
    mink_sample_capsule_pairs(10, N, in.capsule);
    mink_sample_capsule_circle_pairs(11, N, in.capsule_circle);
    for (size_t i = 0; i < N; i++) {
        const mink_aabb_pair *p = &in.aabb[i];
        const float a[12] = {p->a.min.x, p->a.min.y, p->a.max.x, p->a.max.y, p->va.x, p->va.y,
                             p->b.min.x, p->b.min.y, p->b.max.x, p->b.max.y, p->vb.x, p->vb.y};
        for (int k = 0; k < 12; k++) in.aabb_cols[k][i] = a[k];
        const mink_circle_pair *c = &in.circle[i];
        const float b[10] = {c->a.center.x, c->a.center.y, c->a.radius, c->va.x, c->va.y,
                             c->b.center.x, c->b.center.y, c->b.radius, c->vb.x, c->vb.y};
        for (int k = 0; k < 10; k++) in.circle_cols[k][i] = b[k];
        const float *cb = (const float *)&in.circle_aabb[i]; /* a record of 11 floats */
        for (int k = 0; k < 11; k++) in.circle_aabb_cols[k][i] = cb[k];
    }
    float(*a)[N] = in.aabb_cols, (*c)[N] = in.circle_cols;
    in.aabb_soa = (mink_aabb_pair_soa){a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]};
    in.circle_soa = (mink_circle_pair_soa){c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]};
    float(*cb)[N] = in.circle_aabb_cols;
    in.circle_aabb_soa = (mink_circle_aabb_pair_soa){cb[0], cb[1], cb[2], cb[3], cb[4], cb[5],
                                                     cb[6], cb[7], cb[8], cb[9], cb[10]};
}

/* Hit columns in one block. */
typedef struct hit_cols {
    float f[7][N];
    uint32_t flags[N];
    mink_hit_soa soa;
} hit_cols;

static void hit_cols_init(hit_cols *h) {
    h->soa = (mink_hit_soa){h->f[0], h->f[1], h->f[2], h->f[3], h->f[4], h->f[5], h->f[6], h->flags};
}

/* The desc of call c over `count` of the inputs, its hits into hits / cols. */
static mink_batch_desc desc_of(mink_batch_call c, size_t count, mink_hit *hits, hit_cols *cols) {
    mink_batch_desc d = {.call = c, .count = count, .dt = 1.0f, .hits = hits, .hits_soa = &cols->soa};
    switch (c) {
    case MINK_CALL_SWEEP_AABB: d.pairs = in.aabb; break;
    case MINK_CALL_SWEEP_AABB_SOA: d.pairs = &in.aabb_soa; break;
    case MINK_CALL_SWEEP_CIRCLE: d.pairs = in.circle; break;
    case MINK_CALL_SWEEP_CIRCLE_SOA: d.pairs = &in.circle_soa; break;
    case MINK_CALL_SWEEP_CIRCLE_AABB: d.pairs = in.circle_aabb; break;
    case MINK_CALL_SWEEP: d.pairs = in.mixed; break;
    case MINK_CALL_SWEEP_POLYGON: d.pairs = in.polygon; break;
    case MINK_CALL_SWEEP_POLYGON_AABB: d.pairs = in.polygon_aabb; break;
    case MINK_CALL_SWEEP_POLYGON_CIRCLE: d.pairs = in.polygon_circle; break;
    case MINK_CALL_SWEEP_ROTATING: d.pairs = in.rotating; break;
    case MINK_CALL_CAST_RAY: d.pairs = in.rays; break;
    case MINK_CALL_SWEEP_CAPSULE: d.pairs = in.capsule; break;
    case MINK_CALL_SWEEP_CAPSULE_CIRCLE: d.pairs = in.capsule_circle; break;
    case MINK_CALL_SWEEP_CIRCLE_AABB_SOA: d.pairs = &in.circle_aabb_soa; break;
    default: break;
    }
    return d;
}

/* The blocking call of the same desc. */
static mink_status blocking(mink_context *ctx, const mink_batch_desc *d) {
    switch (d->call) {
    case MINK_CALL_SWEEP_AABB: return mink_batch_sweep_aabb(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_AABB_SOA: return mink_batch_sweep_aabb_soa(ctx, d->pairs, d->count, d->dt, d->hits_soa);
    case MINK_CALL_SWEEP_CIRCLE: return mink_batch_sweep_circle(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_CIRCLE_SOA: return mink_batch_sweep_circle_soa(ctx, d->pairs, d->count, d->dt, d->hits_soa);
    case MINK_CALL_SWEEP_CIRCLE_AABB: return mink_batch_sweep_circle_aabb(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP: return mink_batch_sweep(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_POLYGON: return mink_batch_sweep_polygon(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_POLYGON_AABB: return mink_batch_sweep_polygon_aabb(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_POLYGON_CIRCLE:
        return mink_batch_sweep_polygon_circle(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_ROTATING:
        return mink_batch_sweep_rotating(ctx, d->pairs, d->count, d->dt, &d->rotating, d->hits);
    case MINK_CALL_CAST_RAY: return mink_batch_cast_ray(ctx, d->pairs, d->count, d->hits);
    case MINK_CALL_SWEEP_CAPSULE: return mink_batch_sweep_capsule(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_CAPSULE_CIRCLE:
        return mink_batch_sweep_capsule_circle(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_CIRCLE_AABB_SOA:
        return mink_batch_sweep_circle_aabb_soa(ctx, d->pairs, d->count, d->dt, d->hits_soa);
    default: return MINK_ERR_INVALID_ARGUMENT;
    }
}

static mink_hit got[N], want[N];
static hit_cols got_cols, want_cols;

/* Every batch call, submitted, waited for, polled on the way: the blocking call's bits. */
static void every_call_gives_the_blocking_bits(void **state) {
    paths *p = *state;
    make_inputs();
    hit_cols_init(&got_cols);
    hit_cols_init(&want_cols);
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    for (int c = 0; c < 2; c++)
        for (int call = MINK_CALL_SWEEP_AABB; call < MINK_CALL_COUNT; call++) {
            if (call == MINK_CALL_WORLD_STEP) continue; /* its own test */
            size_t count = call == MINK_CALL_SWEEP_ROTATING ? N / 10 : N;
            mink_batch_desc d = desc_of((mink_batch_call)call, count, got, &got_cols);
            mink_ticket t;
            memset(got, 0xab, sizeof got);
            assert_int_equal(mink_batch_submit(ctxs[c], &d, &t), MINK_OK);
            assert_true(t.id != 0);
            int done = 0;
            assert_int_equal(mink_batch_poll(ctxs[c], t, &done), MINK_OK);
            assert_int_equal(mink_batch_wait(ctxs[c], t), MINK_OK);
            mink_batch_desc b = desc_of((mink_batch_call)call, count, want, &want_cols);
            assert_int_equal(blocking(ctxs[c], &b), MINK_OK);
            int cols = call == MINK_CALL_SWEEP_AABB_SOA || call == MINK_CALL_SWEEP_CIRCLE_SOA ||
                       call == MINK_CALL_SWEEP_CIRCLE_AABB_SOA;
            if (cols) {
                assert_memory_equal(got_cols.f, want_cols.f, sizeof got_cols.f);
                assert_memory_equal(got_cols.flags, want_cols.flags, sizeof got_cols.flags);
            } else {
                assert_memory_equal(got, want, count * sizeof *got);
            }
        }
}

/* A world step submitted: the same positions as a twin world stepped by the blocking call. */
static void a_world_step_gives_the_blocking_bits(void **state) {
    paths *p = *state;
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    for (int c = 0; c < 2; c++) {
        mink_world *w[2];
        enum { BODIES = 3000 };
        static uint32_t shape[BODIES], handles[BODIES];
        static mink_vec2 pos[BODIES], vel[BODIES], out[2][BODIES];
        mink_rng rng = mink_rng_seed(3);
        for (int k = 0; k < BODIES; k++) {
            pos[k] = mink_v2(mink_rng_float(&rng, -40, 40), mink_rng_float(&rng, -40, 40));
            vel[k] = mink_v2(mink_rng_float(&rng, -60, 60), mink_rng_float(&rng, -60, 60));
        }
        for (int k = 0; k < 2; k++) {
            assert_int_equal(mink_world_create(ctxs[c], NULL, &w[k]), MINK_OK);
            mink_shape s[2] = {circle_shape(0.2f), box_shape(0.3f, 0.3f)};
            uint32_t ids[2];
            assert_int_equal(mink_world_add_shapes(w[k], s, 2, ids), MINK_OK);
            for (int b = 0; b < BODIES; b++) shape[b] = ids[b % 2];
            mink_world_bodies bodies = {.count = BODIES, .shape = shape, .position = pos, .velocity = vel};
            assert_int_equal(mink_world_add(w[k], &bodies, handles), MINK_OK);
        }
        for (int step = 0; step < 10; step++) {
            mink_ticket t;
            mink_batch_desc d = {.call = MINK_CALL_WORLD_STEP, .world = w[0], .dt = 1.0f / 60.0f};
            assert_int_equal(mink_batch_submit(ctxs[c], &d, &t), MINK_OK);
            assert_int_equal(mink_batch_wait(ctxs[c], t), MINK_OK);
            assert_int_equal(mink_world_step(w[1], 1.0f / 60.0f), MINK_OK);
        }
        for (int k = 0; k < 2; k++) assert_int_equal(mink_world_get(w[k], NULL, BODIES, out[k], NULL), MINK_OK);
        assert_memory_equal(out[0], out[1], sizeof out[0]);
        mink_world_destroy(w[0]);
        mink_world_destroy(w[1]);
    }
}

/* Until the wait, the context is the call's: every other call is refused and changes nothing; a
 * ticket is waited for once; a failing call's status and message come with the wait. */
static void the_context_is_the_calls_until_the_wait(void **state) {
    paths *p = *state;
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    for (int c = 0; c < 2; c++) {
        mink_context *ctx = ctxs[c];
        mink_world *w = NULL;
        assert_int_equal(mink_world_create(ctx, NULL, &w), MINK_OK);
        mink_batch_desc d = desc_of(MINK_CALL_SWEEP_POLYGON, N, got, &got_cols);
        mink_ticket t, t2;
        assert_int_equal(mink_batch_submit(ctx, &d, &t), MINK_OK);
        assert_int_equal(mink_batch_submit(ctx, &d, &t2), MINK_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(mink_last_error(), "in flight"));
        assert_int_equal(mink_batch_sweep_aabb(ctx, in.aabb, 10, 1.0f, want), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_step(w, 1.0f), MINK_ERR_INVALID_ARGUMENT);
        mink_ray r = {{0, 0}, {1, 0}};
        mink_world_hit h;
        assert_int_equal(mink_world_cast_rays(w, &r, 1, NULL, &h), MINK_ERR_INVALID_ARGUMENT);
        mink_world *other = NULL;
        assert_int_equal(mink_world_create(ctx, NULL, &other), MINK_ERR_INVALID_ARGUMENT);
        assert_null(other);
        assert_int_equal(mink_batch_wait(ctx, (mink_ticket){t.id + 1}), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_wait(ctx, t), MINK_OK);
        assert_int_equal(mink_batch_wait(ctx, t), MINK_ERR_INVALID_ARGUMENT); /* once */
        int done = 0;
        assert_int_equal(mink_batch_poll(ctx, t, &done), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_step(w, 1.0f), MINK_OK); /* the context is free again */
        /* A failing call: a NaN dt. */
        d.dt = NAN;
        assert_int_equal(mink_batch_submit(ctx, &d, &t), MINK_OK);
        assert_int_equal(mink_batch_wait(ctx, t), MINK_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(mink_last_error(), "dt"));
        assert_non_null(strstr(mink_context_error(ctx), "dt"));
        /* Bad descs start nothing. */
        assert_int_equal(mink_batch_submit(ctx, NULL, &t), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_submit(ctx, &d, NULL), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_submit(NULL, &d, &t), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_submit(ctx, &(mink_batch_desc){.call = MINK_CALL_COUNT}, &t),
                         MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_submit(ctx, &(mink_batch_desc){.call = MINK_CALL_WORLD_STEP}, &t),
                         MINK_ERR_INVALID_ARGUMENT);
        mink_context *elsewhere = ctxs[1 - c];
        assert_int_equal(mink_batch_submit(elsewhere, &(mink_batch_desc){.call = MINK_CALL_WORLD_STEP, .world = w}, &t),
                         MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_batch_wait(NULL, t), MINK_ERR_INVALID_ARGUMENT);
        /* A world destroyed with its step in flight: the step ends first. */
        assert_int_equal(mink_batch_submit(ctx, &(mink_batch_desc){.call = MINK_CALL_WORLD_STEP, .world = w, .dt = 1.0f}, &t),
                         MINK_OK);
        mink_world_destroy(w);
        assert_int_equal(mink_batch_wait(ctx, t), MINK_OK);
    }
}

/* A context destroyed with a call in flight ends the call first (the sanitizers watch for the rest). */
static void destroying_a_busy_context(void **state) {
    (void)state;
    for (int b = 0; b < 2; b++) {
        mink_context *ctx = NULL;
        mink_backend backend = b ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR;
        assert_int_equal(mink_context_create(&(mink_context_desc){.backend = backend}, &ctx), MINK_OK);
        mink_batch_desc d = desc_of(MINK_CALL_SWEEP_POLYGON, N, got, &got_cols);
        mink_ticket t;
        assert_int_equal(mink_batch_submit(ctx, &d, &t), MINK_OK);
        mink_context_destroy(ctx);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_call_gives_the_blocking_bits),
        cmocka_unit_test(a_world_step_gives_the_blocking_bits),
        cmocka_unit_test(the_context_is_the_calls_until_the_wait),
        cmocka_unit_test(destroying_a_busy_context),
    };
    return cmocka_run_group_tests(tests, paths_setup, paths_teardown);
}
