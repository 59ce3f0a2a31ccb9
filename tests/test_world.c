/* tests/test_world.c — the world: hand-computed steps, the API's bookkeeping, capacity, and the
 * broadphase against brute force, on both paths. (Long scenes: test_world_scenes.c.) */
#include <float.h>

#include "test_util.h"

#include "mink/world.h"
#include "host/world_internal.h" /* mink__world_grid_buckets */

static mink_world *new_world(mink_context *ctx, const mink_world_desc *desc) {
    mink_world *w = NULL;
    mink_status st = mink_world_create(ctx, desc, &w);
    if (st != MINK_OK) fprintf(stderr, "mink_world_create: %s\n", mink_last_error());
    assert_int_equal(st, MINK_OK);
    return w;
}

static uint32_t add_one(mink_world *w, uint32_t shape, mink_vec2 p, mink_vec2 v, float inv_mass, uint32_t response,
                        float restitution) {
    uint32_t h = 0;
    mink_world_bodies b = {.count = 1, .shape = &shape, .position = &p, .velocity = &v, .inv_mass = &inv_mass,
                           .response = &response, .restitution = &restitution};
    assert_int_equal(mink_world_add(w, &b, &h), MINK_OK);
    return h;
}

static void step_ok(mink_world *w, float dt) {
    mink_status st = mink_world_step(w, dt);
    if (st != MINK_OK) fprintf(stderr, "mink_world_step: %s\n", mink_last_error());
    assert_int_equal(st, MINK_OK);
}

static mink_vec2 position(mink_world *w, uint32_t h) {
    mink_vec2 p;
    assert_int_equal(mink_world_get(w, &h, 1, &p, NULL), MINK_OK);
    return p;
}

static mink_vec2 velocity(mink_world *w, uint32_t h) {
    mink_vec2 v;
    assert_int_equal(mink_world_get(w, &h, 1, NULL, &v), MINK_OK);
    return v;
}

#define BOTH(p) mink_context *ctxs[2] = {(p)->scalar, (p)->opencl}; for (int c = 0; c < 2; c++)

/* A circle of radius 1 at x = 0 moving right at 10 per unit time, a static wall whose left face is
 * at x = 6: over a step of 1 it meets the wall at t = 0.5 (centre at 5). */
static void responses_hand_computed(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], &(mink_world_desc){.skin = 0.001f});
        uint32_t ids[2];
        mink_shape shapes[2] = {circle_shape(1.0f), box_shape(1.0f, 50.0f)};
        assert_int_equal(mink_world_add_shapes(w, shapes, 2, ids), MINK_OK);
        uint32_t wall = add_one(w, ids[1], mink_v2(7.0f, 0.0f), mink_v2(0, 0), 0.0f, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t stop = add_one(w, ids[0], mink_v2(0.0f, 0.0f), mink_v2(10.0f, 0.0f), 1.0f, MINK_RESPONSE_STOP, 0.0f);
        uint32_t slide = add_one(w, ids[0], mink_v2(0.0f, 20.0f), mink_v2(10.0f, 4.0f), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t bounce = add_one(w, ids[0], mink_v2(0.0f, -20.0f), mink_v2(10.0f, 0.0f), 1.0f, MINK_RESPONSE_BOUNCE, 0.5f);
        step_ok(w, 1.0f);

        /* STOP: at the contact, out by the skin, at rest. */
        mink_vec2 p = position(w, stop), v = velocity(w, stop);
        assert_float_equal(p.x, 5.0f - 0.001f, 1e-5);
        assert_float_equal(p.y, 0.0f, 0.0);
        assert_float_equal(v.x, 0.0f, 0.0);
        /* SLIDE: half the step to the wall, then the other half along it (y only). */
        p = position(w, slide), v = velocity(w, slide);
        assert_float_equal(p.x, 5.0f - 0.001f, 1e-5);
        assert_float_equal(p.y, 24.0f, 1e-5);
        assert_float_equal(v.x, 0.0f, 0.0);
        assert_float_equal(v.y, 4.0f, 0.0);
        /* BOUNCE at restitution 0.5: back at 5 per unit time for the last half step. */
        p = position(w, bounce), v = velocity(w, bounce);
        assert_float_equal(v.x, -5.0f, 1e-6);
        assert_float_equal(p.x, 5.0f - 0.001f - 2.5f, 1e-5);

        /* Events: three, at t = 0.5, with the wall's normal (-1, 0), in id order. */
        mink_event ev[8];
        size_t n = 0;
        assert_int_equal(mink_world_events(w, ev, 8, &n), MINK_OK);
        assert_int_equal(n, 3);
        for (size_t k = 0; k < n; k++) {
            assert_float_equal(ev[k].t, 0.5f, 1e-6);
            assert_float_equal(ev[k].normal.x, -1.0f, 0.0);
            assert_int_equal(ev[k].b, wall);
            assert_int_equal(ev[k].body_b, wall);
        }
        assert_int_equal(ev[0].a, stop);
        assert_int_equal(ev[1].a, slide);
        assert_int_equal(ev[2].a, bounce);
        /* The wall did not move. */
        p = position(w, wall);
        assert_float_equal(p.x, 7.0f, 0.0);
        mink_world_destroy(w);
    }
}

/* Two equal circles head-on, both dynamic and sliding: each takes half of the closing speed away,
 * so both stop along the line; unequal masses split it by inverse mass. */
static void moving_bodies_split_by_inverse_mass(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], &(mink_world_desc){.skin = 0.001f});
        uint32_t circle;
        mink_shape s = circle_shape(1.0f);
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &circle), MINK_OK);
        uint32_t a = add_one(w, circle, mink_v2(-5.0f, 0.0f), mink_v2(4.0f, 0.0f), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t b = add_one(w, circle, mink_v2(5.0f, 0.0f), mink_v2(-4.0f, 0.0f), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t heavy = add_one(w, circle, mink_v2(-5.0f, 10.0f), mink_v2(4.0f, 0.0f), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t light = add_one(w, circle, mink_v2(5.0f, 10.0f), mink_v2(-4.0f, 0.0f), 3.0f, MINK_RESPONSE_SLIDE, 0.0f);
        step_ok(w, 2.0f); /* they meet at t = 0.5 (centres 2 apart) */
        assert_float_equal(velocity(w, a).x, 0.0f, 1e-6);
        assert_float_equal(velocity(w, b).x, 0.0f, 1e-6);
        assert_float_equal(position(w, a).x, -1.0f - 0.001f, 1e-5);
        assert_float_equal(position(w, b).x, 1.0f + 0.001f, 1e-5);
        /* Relative speed 8: the light one (inverse mass 3 of 4) takes 6, the heavy one 2. */
        assert_float_equal(velocity(w, heavy).x, 4.0f - 2.0f, 1e-5);
        assert_float_equal(velocity(w, light).x, -4.0f + 6.0f, 1e-5);
        mink_world_destroy(w);
    }
}

/* Bodies that start overlapping are pushed apart along the penetration vector, by share. */
static void starting_overlap_is_pushed_out(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], &(mink_world_desc){.skin = 0.001f});
        uint32_t ids[2];
        mink_shape shapes[2] = {box_shape(1.0f, 1.0f), box_shape(10.0f, 1.0f)};
        assert_int_equal(mink_world_add_shapes(w, shapes, 2, ids), MINK_OK);
        uint32_t floor = add_one(w, ids[1], mink_v2(0.0f, 0.0f), mink_v2(0, 0), 0.0f, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t box = add_one(w, ids[0], mink_v2(0.0f, 1.75f), mink_v2(0, 0), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
        step_ok(w, 1.0f);
        mink_vec2 p = position(w, box);
        assert_float_equal(p.y, 2.0f + 0.001f, 1e-6);
        assert_float_equal(p.x, 0.0f, 0.0);
        mink_event ev;
        size_t n = 0;
        assert_int_equal(mink_world_events(w, &ev, 1, &n), MINK_OK);
        assert_int_equal(n, 1);
        assert_true(ev.flags & MINK_HIT_OVERLAP);
        assert_float_equal(ev.depth, 0.25f, 1e-6);
        assert_int_equal(ev.body_b, floor);
        mink_world_destroy(w);
    }
}

/* A sensor passes through and reports; others pass through it. */
static void sensor_reports_and_never_pushes(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t ids[2];
        mink_shape shapes[2] = {circle_shape(0.5f), box_shape(2.0f, 2.0f)};
        assert_int_equal(mink_world_add_shapes(w, shapes, 2, ids), MINK_OK);
        uint32_t zone = add_one(w, ids[1], mink_v2(0.0f, 0.0f), mink_v2(0, 0), 0.0f, MINK_RESPONSE_SENSOR, 0.0f);
        uint32_t ball = add_one(w, ids[0], mink_v2(-5.0f, 0.0f), mink_v2(10.0f, 0.0f), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
        step_ok(w, 1.0f);
        assert_float_equal(position(w, ball).x, 5.0f, 0.0);
        mink_event ev[4];
        size_t n = 0;
        assert_int_equal(mink_world_events(w, ev, 4, &n), MINK_OK);
        assert_int_equal(n, 1);
        assert_int_equal(ev[0].body_a, zone);
        assert_int_equal(ev[0].body_b, ball);
        assert_true(ev[0].flags & MINK_EVENT_SENSOR);
        assert_float_equal(ev[0].t, 0.25f, 1e-6);     /* enters at x = -2.5 */
        assert_float_equal(ev[0].t_exit, 0.75f, 1e-6); /* leaves at x = 2.5 */
        mink_world_destroy(w);
    }
}

/* Empty worlds, static-only worlds, and zero dt. */
static void empty_and_static_worlds(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], NULL);
        step_ok(w, 1.0f / 60.0f);
        size_t n = 1;
        assert_int_equal(mink_world_events(w, NULL, 0, &n), MINK_OK);
        assert_int_equal(n, 0);
        assert_int_equal(mink_world_pairs(w, NULL, 0, &n), MINK_OK);
        assert_int_equal(n, 0);
        uint32_t box;
        mink_shape s = box_shape(1.0f, 1.0f);
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &box), MINK_OK);
        /* Overlapping static boxes: never a pair, never moved. */
        for (int k = 0; k < 10; k++)
            add_one(w, box, mink_v2((float)k * 0.5f, 0.0f), mink_v2(0, 0), 0.0f, MINK_RESPONSE_SLIDE, 0.0f);
        step_ok(w, 1.0f);
        assert_int_equal(mink_world_pairs(w, NULL, 0, &n), MINK_OK);
        assert_int_equal(n, 0);
        for (uint32_t k = 0; k < 10; k++) assert_float_equal(position(w, k).x, (float)k * 0.5f, 0.0);
        step_ok(w, 0.0f);
        assert_int_equal(mink_world_step(w, -1.0f), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_step(w, NAN), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_step(w, INFINITY), MINK_ERR_INVALID_ARGUMENT);
        mink_world_destroy(w);
    }
}

/* Add, remove, set between steps; handles are reused; bad input changes nothing. */
static void add_remove_update(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], &(mink_world_desc){.initial_bodies = 2});
        uint32_t circle;
        mink_shape s = circle_shape(1.0f);
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &circle), MINK_OK);
        enum { N = 100 };
        uint32_t shape[N], h[N];
        mink_vec2 pos[N], vel[N];
        for (int k = 0; k < N; k++) {
            shape[k] = circle;
            pos[k] = mink_v2((float)k * 10.0f, 0.0f);
            vel[k] = mink_v2(0.0f, 1.0f);
        }
        mink_world_bodies b = {.count = N, .shape = shape, .position = pos, .velocity = vel};
        assert_int_equal(mink_world_add(w, &b, h), MINK_OK); /* grows past initial_bodies */
        for (int k = 0; k < N; k++) assert_int_equal(h[k], k);
        step_ok(w, 1.0f);
        mink_vec2 got[N];
        assert_int_equal(mink_world_get(w, NULL, N, got, NULL), MINK_OK);
        for (int k = 0; k < N; k++) assert_float_equal(got[k].y, 1.0f, 0.0);

        /* Remove three; their handles come back, last removed first. */
        uint32_t gone[3] = {5, 50, 7};
        assert_int_equal(mink_world_remove(w, gone, 3), MINK_OK);
        assert_int_equal(mink_world_remove(w, gone, 1), MINK_ERR_INVALID_ARGUMENT); /* already gone */
        uint32_t twice[2] = {8, 8};
        assert_int_equal(mink_world_remove(w, twice, 2), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_get(w, gone, 1, got, NULL), MINK_ERR_INVALID_ARGUMENT);
        step_ok(w, 1.0f);
        assert_int_equal(mink_world_get_stats(w).bodies, N - 3);
        uint32_t again[4];
        for (int k = 0; k < 4; k++) pos[k].y = 1000.0f; /* away from the others */
        b.count = 4;
        assert_int_equal(mink_world_add(w, &b, again), MINK_OK);
        /* their slots come back, last removed first, each under a new handle: the next generation */
        uint32_t next = 1u << MINK_WORLD_SLOT_BITS;
        assert_int_equal(again[0], 7 | next);
        assert_int_equal(again[1], 50 | next);
        assert_int_equal(again[2], 5 | next);
        assert_int_equal(again[3], N);
        assert_int_equal(mink_world_slot(again[1]), 50);
        assert_float_equal(position(w, again[1]).x, 10.0f, 0.0); /* the new body's (entry 1) */
        assert_float_equal(position(w, again[1]).y, 1000.0f, 0.0);
        /* a removed body's handle names nothing, also now that its slot holds another body */
        mink_vec2 stale;
        for (int k = 0; k < 3; k++) {
            assert_int_equal(mink_world_get(w, &gone[k], 1, &stale, NULL), MINK_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(mink_last_error(), "a removed body's"));
            assert_int_equal(mink_world_set(w, &gone[k], &(mink_world_bodies){.count = 1, .velocity = &stale}),
                             MINK_ERR_INVALID_ARGUMENT);
            assert_int_equal(mink_world_remove(w, &gone[k], 1), MINK_ERR_INVALID_ARGUMENT);
        }
        assert_int_equal(mink_world_get_stats(w).bodies, N + 1);
        uint32_t foreign = 5u | 7u << MINK_WORLD_SLOT_BITS, beyond = 1u << 21;
        assert_int_equal(mink_world_get(w, &foreign, 1, &stale, NULL), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_get(w, &beyond, 1, &stale, NULL), MINK_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(mink_last_error(), "not a handle of this world"));

        /* Set: only the given fields change. */
        uint32_t which[2] = {3, 60};
        mink_vec2 nv[2] = {mink_v2(-2.0f, 0.0f), mink_v2(0.0f, -3.0f)};
        mink_world_bodies set = {.count = 2, .velocity = nv};
        assert_int_equal(mink_world_set(w, which, &set), MINK_OK);
        mink_vec2 before = position(w, 3);
        step_ok(w, 1.0f);
        assert_float_equal(position(w, 3).x, before.x - 2.0f, 0.0);
        assert_float_equal(position(w, 3).y, before.y, 0.0);
        assert_float_equal(velocity(w, 60).y, -3.0f, 0.0);

        /* Bad input names the body and changes nothing. */
        mink_vec2 bad[2] = {mink_v2(0, 0), mink_v2(NAN, 0)};
        set.velocity = bad;
        assert_int_equal(mink_world_set(w, which, &set), MINK_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(mink_last_error(), "body 1: velocity is not finite"));
        assert_float_equal(velocity(w, 3).x, -2.0f, 0.0);
        uint32_t bad_shape = 99;
        mink_world_bodies add_bad = {.count = 1, .shape = &bad_shape};
        size_t alive = mink_world_get_stats(w).bodies;
        assert_int_equal(mink_world_add(w, &add_bad, again), MINK_ERR_INVALID_ARGUMENT);
        float neg = -1.0f;
        add_bad = (mink_world_bodies){.count = 1, .shape = &circle, .inv_mass = &neg};
        assert_int_equal(mink_world_add(w, &add_bad, again), MINK_ERR_INVALID_ARGUMENT);
        step_ok(w, 1.0f);
        assert_int_equal(mink_world_get_stats(w).bodies, alive);
        mink_world_destroy(w);
    }
}

/* Bodies renumbered by place (host/world_order.c) keep their slots and handles. Still discs on a
 * lattice, each near its neighbours (so the impulse rounds list them all, and the world renumbers
 * them), added in no order in space (slot k at a shuffled lattice place), so a renumbering moves
 * nearly every one; after steps that renumber them, every entry point names the same bodies: get
 * by handle and by slot, remove, add into the freed slots, set, the events and pairs of a contact,
 * a cast and a check. */
static void renumbered_bodies_keep_their_slots(void **state) {
    enum { SIDE = 40, N = SIDE * SIDE };
    static mink_vec2 pos[N], got[N];
    static uint32_t shape[N], h[N], place[N], at[N]; /* at[p]: the slot at lattice place p */
    mink_rng seed = mink_rng_seed(20261128);
    for (uint32_t k = 0; k < N; k++) place[k] = k;
    for (uint32_t k = N - 1; k > 0; k--) { /* Fisher and Yates */
        uint32_t j = (uint32_t)(mink_rng_float(&seed, 0.0f, 1.0f) * (float)(k + 1)) % (k + 1), t = place[k];
        place[k] = place[j];
        place[j] = t;
    }
    for (uint32_t k = 0; k < N; k++) at[place[k]] = k;
    mink_vec2 answers[2][4]; /* each path's, compared at the end */
    BOTH((paths *)*state) {
        for (uint32_t k = 0; k < N; k++) pos[k] = mink_v2((float)(place[k] % SIDE) * 1.2f, (float)(place[k] / SIDE) * 1.2f);
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t circle;
        mink_shape s = circle_shape(0.5f);
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &circle), MINK_OK);
        for (int k = 0; k < N; k++) shape[k] = circle;
        assert_int_equal(mink_world_add(w, &(mink_world_bodies){.count = N, .shape = shape, .position = pos}, h),
                         MINK_OK);
        for (int k = 0; k < 9; k++) step_ok(w, 1.0f / 60.0f);
        /* Renumbered: most bodies sit elsewhere than their slot. */
        assert_true(w->renumbered);
        size_t moved = 0;
        for (uint32_t k = 0; k < N; k++) {
            assert_int_equal(w->slot_of[w->index_of[k]], k);
            moved += w->index_of[k] != k;
        }
        assert_true(moved > N / 2);
        assert_int_equal(mink_world_get(w, NULL, N, got, NULL), MINK_OK);
        assert_memory_equal(got, pos, sizeof pos);
        for (int k = 0; k < N; k += 97) {
            mink_vec2 p = position(w, h[k]);
            assert_memory_equal(&p, &pos[k], sizeof p);
        }

        /* The two discs of the far corner removed, two added: the freed slots come back, last
         * removed first. */
        uint32_t gone[2] = {h[at[N - 2]], h[at[N - 1]]}, again[2];
        assert_int_equal(mink_world_remove(w, gone, 2), MINK_OK);
        mink_vec2 fresh[2] = {mink_v2(-50.0f, 0.0f), mink_v2(-60.0f, 0.0f)};
        assert_int_equal(mink_world_add(w, &(mink_world_bodies){.count = 2, .shape = shape, .position = fresh}, again),
                         MINK_OK);
        assert_int_equal(mink_world_slot(again[0]), at[N - 1]);
        assert_int_equal(mink_world_slot(again[1]), at[N - 2]);
        assert_int_equal(mink_world_get(w, gone, 1, got, NULL), MINK_ERR_INVALID_ARGUMENT);
        pos[at[N - 1]] = fresh[0];
        pos[at[N - 2]] = fresh[1];
        /* Set: the disc at (0, 0) moving right at 0.24 a step, its neighbour at (1.2, 0) made
         * static: it meets it at t = 0.2 / 0.24 of the next step and slides to a stop. */
        uint32_t mover = h[at[0]], wall = h[at[1]];
        mink_vec2 v = mink_v2(0.24f * 60.0f, 0.0f);
        float still = 0.0f;
        assert_int_equal(mink_world_set(w, &mover, &(mink_world_bodies){.count = 1, .velocity = &v}), MINK_OK);
        assert_int_equal(mink_world_set(w, &wall, &(mink_world_bodies){.count = 1, .inv_mass = &still}), MINK_OK);
        for (int k = 0; k < 8; k++) { /* the step of the contact, then more that renumber again */
            step_ok(w, 1.0f / 60.0f);
            if (k > 0) continue;
            size_t events = 0, pairs = 0;
            mink_event e[8];
            assert_int_equal(mink_world_events(w, e, 8, &events), MINK_OK);
            int met = 0;
            for (size_t q = 0; q < events && q < 8; q++)
                met |= e[q].body_a == mover && e[q].body_b == wall && fabsf(e[q].t - 0.2f / 0.24f) < 1e-5f;
            assert_true(met);
            assert_int_equal(mink_world_pairs(w, NULL, 0, &pairs), MINK_OK);
            mink_world_pair *pr = malloc(pairs * sizeof *pr);
            assert_int_equal(mink_world_pairs(w, pr, pairs, &pairs), MINK_OK);
            int found = 0;
            for (size_t q = 0; q < pairs; q++)
                found += (pr[q].a == mover && pr[q].b == wall) || (pr[q].a == wall && pr[q].b == mover);
            assert_int_equal(found, 1);
            free(pr);
        }
        assert_int_equal(mink_world_get(w, NULL, N, got, NULL), MINK_OK);
        for (uint32_t k = 0; k < N; k++) /* all but the mover where they were put */
            if (k != at[0]) assert_memory_equal(&got[k], &pos[k], sizeof got[k]);
        assert_true(got[at[0]].x > 0.15f && got[at[0]].x < 0.2f);
        /* A cast from the left onto the disc at (0, 1.2), and a check of the body at (-60, 0) moving
         * right onto the one at (-50, 0). */
        mink_world_query q = {mink_v2(-3.0f, 1.2f), mink_v2(4.0f, 0.0f), circle, 0};
        mink_world_hit hit;
        assert_int_equal(mink_world_cast(w, &q, 1, NULL, &hit), MINK_OK);
        assert_int_equal(hit.body, h[at[SIDE]]);
        assert_float_equal(hit.hit.t, 0.5f, 1e-6);
        mink_world_move m;
        mink_vec2 t = mink_v2(20.0f, 0.0f);
        assert_int_equal(mink_world_check(w, &again[1], &t, 1, &m), MINK_OK);
        assert_int_equal(m.first.body, again[0]);
        answers[c][0] = got[at[0]];
        answers[c][1] = m.end;
        answers[c][2] = mink_v2(hit.hit.t, m.first.hit.t);
        answers[c][3] = position(w, again[1]);
        mink_world_destroy(w);
    }
    assert_memory_equal(answers[0], answers[1], sizeof answers[0]);
}

/* One slot reused far past its generations: every handle it ever had is refused once its body is
 * gone, no handle is handed out twice, and a slot whose generations are spent is not reused. */
static void handles_are_never_reused(void **state) {
    paths *p = *state;
    enum { ROUNDS = 1100 }; /* past the 1023 generations a slot has */
    for (int c = 0; c < 2; c++) {
        mink_world *w = NULL;
        assert_int_equal(mink_world_create(c ? p->opencl : p->scalar, NULL, &w), MINK_OK);
        uint32_t circle, keep, h;
        mink_shape shape = circle_shape(0.5f);
        assert_int_equal(mink_world_add_shapes(w, &shape, 1, &circle), MINK_OK);
        assert_int_equal(mink_world_add(w, &(mink_world_bodies){.count = 1, .shape = &circle}, &keep), MINK_OK);
        uint32_t *seen = malloc(ROUNDS * sizeof *seen);
        assert_non_null(seen);
        for (int r = 0; r < ROUNDS; r++) {
            assert_int_equal(mink_world_add(w, &(mink_world_bodies){.count = 1, .shape = &circle}, &h), MINK_OK);
            for (int k = 0; k < r; k++) assert_int_not_equal(seen[k], h);
            seen[r] = h;
            assert_int_equal(mink_world_remove(w, &h, 1), MINK_OK);
            mink_vec2 at;
            for (int k = r; k >= 0 && k > r - 3; k--) /* the newest stale handles, each refused */
                assert_int_equal(mink_world_get(w, &seen[k], 1, &at, NULL), MINK_ERR_INVALID_ARGUMENT);
        }
        assert_int_equal(mink_world_slot(seen[0]), 1);
        assert_int_equal(mink_world_slot(seen[ROUNDS - 1]), 2); /* slot 1 retired after its last generation */
        mink_vec2 at;
        for (int r = 0; r < ROUNDS; r++) assert_int_equal(mink_world_get(w, &seen[r], 1, &at, NULL), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_get(w, &keep, 1, &at, NULL), MINK_OK);
        assert_int_equal(mink_world_get_stats(w).bodies, 1);
        free(seen);
        mink_world_destroy(w);
    }
}

static void bad_arguments(void **state) {
    paths *p = *state;
    mink_world *w = NULL;
    assert_int_equal(mink_world_create(NULL, NULL, &w), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_create(p->scalar, NULL, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_create(p->scalar, &(mink_world_desc){.skin = -1.0f}, &w), MINK_ERR_INVALID_ARGUMENT);
    assert_null(w);
    assert_int_equal(mink_world_step(NULL, 1.0f), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_add(NULL, NULL, NULL), MINK_ERR_INVALID_ARGUMENT);
    mink_world_destroy(NULL);
    w = new_world(p->scalar, NULL);
    uint32_t id;
    mink_shape bad = box_shape(1.0f, 1.0f);
    bad.geom.aabb.min.x = 2.0f; /* inverted */
    assert_int_equal(mink_world_add_shapes(w, &bad, 1, &id), MINK_ERR_INVALID_ARGUMENT);
    bad = circle_shape(-1.0f);
    assert_int_equal(mink_world_add_shapes(w, &bad, 1, &id), MINK_ERR_INVALID_ARGUMENT);
    bad.type = 77;
    assert_int_equal(mink_world_add_shapes(w, &bad, 1, &id), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_add_shapes(w, NULL, 1, &id), MINK_ERR_INVALID_ARGUMENT);
    mink_world_bodies b = {.count = 1};
    uint32_t h;
    assert_int_equal(mink_world_add(w, &b, &h), MINK_ERR_INVALID_ARGUMENT); /* no shapes */
    assert_int_equal(mink_world_events(w, NULL, 1, &(size_t){0}), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_events(w, NULL, 0, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_get(w, NULL, 1, NULL, NULL), MINK_ERR_INVALID_ARGUMENT); /* 0 slots */
    mink_world_destroy(w);
}

/* A step over max_pairs fails with the capacity it needed, and moves nothing. */
static void capacity_is_reported(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], &(mink_world_desc){.max_pairs = 5});
        uint32_t circle;
        mink_shape s = circle_shape(1.0f);
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &circle), MINK_OK);
        for (int k = 0; k < 5; k++) /* five bodies in a heap: 10 pairs */
            add_one(w, circle, mink_v2((float)k * 0.1f, 0.0f), mink_v2(1.0f, 0.0f), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
        assert_int_equal(mink_world_step(w, 1.0f), MINK_ERR_CAPACITY);
        assert_non_null(strstr(mink_last_error(), "found 10 pairs; max_pairs is 5"));
        assert_int_equal(mink_world_get_stats(w).pairs_needed, 10);
        assert_float_equal(position(w, 4).x, 0.4f, 0.0);
        mink_world_destroy(w);
    }
}

/* Bodies stacked at one point: the pairs are counted in 64 bits and refused with the true count
 * before anything is allocated for them, and the failed step keeps no memory for them. The full
 * case (more than 2^32 pairs) is fuzz-sized here; the scan's saturation that carries it is checked
 * on its own below. */
static void stacked_bodies_are_counted_exactly(void **state) {
    enum { N = 3000 };
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], &(mink_world_desc){.max_pairs = 1000});
        uint32_t circle;
        mink_shape s = circle_shape(0.5f);
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &circle), MINK_OK);
        for (int k = 0; k < N; k++) add_one(w, circle, mink_v2(3.0f, 4.0f), mink_v2(0.0f, 0.0f), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
        assert_int_equal(mink_world_step(w, 1.0f), MINK_ERR_CAPACITY);
        assert_non_null(strstr(mink_last_error(), "found 4498500 pairs; max_pairs is 1000"));
        assert_int_equal(mink_world_get_stats(w).pairs_needed, (size_t)N * (N - 1) / 2);
        /* nothing per pair kept: well under one pair's bytes a pair */
        assert_true(mink_world_get_stats(w).bytes < (size_t)N * (N - 1) / 2);
        mink_world_destroy(w);
    }
}

/* Shapes whose bounds would overflow and inverse masses whose shares would are refused with a
 * message; the largest accepted still collide (two bodies of MINK_WORLD_MAX_INV_MASS meet and
 * split the push, never pass). */
static void huge_values_are_refused(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t id;
        const mink_shape huge[] = {circle_shape(2e38f), circle_shape(FLT_MAX), box_shape(2e38f, 1.0f),
                                   box_shape(1.0f, 1.01e30f)};
        for (size_t k = 0; k < sizeof huge / sizeof huge[0]; k++) {
            assert_int_equal(mink_world_add_shapes(w, &huge[k], 1, &id), MINK_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(mink_last_error(), "MINK_WORLD_MAX_SHAPE"));
        }
        const mink_shape largest[] = {circle_shape(MINK_WORLD_MAX_SHAPE), box_shape(MINK_WORLD_MAX_SHAPE, 1.0f)};
        assert_int_equal(mink_world_add_shapes(w, largest, 2, (uint32_t[2]){0}), MINK_OK);

        uint32_t circle;
        mink_shape cs = circle_shape(0.5f);
        assert_int_equal(mink_world_add_shapes(w, &cs, 1, &circle), MINK_OK);
        float too_much = 1.7e38f;
        mink_vec2 at = mink_v2(0.0f, 0.0f);
        uint32_t h;
        mink_world_bodies b = {.count = 1, .shape = &circle, .position = &at, .inv_mass = &too_much};
        assert_int_equal(mink_world_add(w, &b, &h), MINK_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(mink_last_error(), "inv_mass"));
        uint32_t a = add_one(w, circle, mink_v2(0.0f, 0.0f), mink_v2(4.0f, 0.0f), MINK_WORLD_MAX_INV_MASS,
                             MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t d = add_one(w, circle, mink_v2(3.0f, 0.0f), mink_v2(-4.0f, 0.0f), MINK_WORLD_MAX_INV_MASS,
                             MINK_RESPONSE_SLIDE, 0.0f);
        mink_world_bodies set = {.count = 1, .inv_mass = &too_much};
        assert_int_equal(mink_world_set(w, &a, &set), MINK_ERR_INVALID_ARGUMENT);
        step_ok(w, 1.0f);
        assert_true(position(w, a).x < position(w, d).x); /* met, not passed */
        assert_true(velocity(w, a).x <= 0.0f && velocity(w, d).x >= 0.0f);
        mink_world_destroy(w);
    }
}

/* A body whose box over the step grows past the float range (at 1e37, moving -3.4e38 or -FLT_MAX in
 * a step of 1: the second's skin and push alone carry its box past) still meets the wall on its
 * way, with each response, on both paths with the same bits: its box is clamped to the range, not
 * left invalid (in no cell of the grid, it passed through). The
 * wall is near: farther out, a shape of MINK_WORLD_MAX_SHAPE is narrower than an ulp, and two of
 * them meet only by a gap that rounds to nothing. */
static void a_body_near_the_float_limit_meets_the_wall(void **state) {
    const uint32_t responses[3] = {MINK_RESPONSE_STOP, MINK_RESPONSE_SLIDE, MINK_RESPONSE_BOUNCE};
    for (int r = 0; r < 6; r++) {
        mink_vec2 got[2][2];
        BOTH((paths *)*state) {
            mink_world *w = new_world(ctxs[c], NULL);
            uint32_t box;
            mink_shape bs = box_shape(1e30f, 1e30f);
            assert_int_equal(mink_world_add_shapes(w, &bs, 1, &box), MINK_OK);
            float speed = r < 3 ? 3.4e38f : FLT_MAX;
            uint32_t a = add_one(w, box, mink_v2(1e37f, 0.0f), mink_v2(-speed, 0.0f), 1.0f, responses[r % 3], 1.0f);
            uint32_t b = add_one(w, box, mink_v2(-1e37f, 0.0f), mink_v2(0.0f, 0.0f), 0.0f, MINK_RESPONSE_STOP, 0.0f);
            step_ok(w, 1.0f);
            got[c][0] = position(w, a);
            got[c][1] = velocity(w, a);
            assert_true(got[c][0].x > position(w, b).x); /* this side of the wall */
            mink_world_destroy(w);
        }
        assert_memory_equal(got[0], got[1], sizeof got[0]);
    }
}

/* A dt that carries a body's planned move past the float range fails the step, names the body's
 * slot and moves nothing: a move that overflows (1e38 × 10), and one that ends past the range (at
 * 2e38, moving 3.4e38); a kinematic body too. With a dt that keeps them in range, the step runs. */
static void a_move_past_the_float_range_fails_the_step(void **state) {
    const mink_vec2 at[3] = {{1e36f, 0.0f}, {2e38f, 0.0f}, {0.0f, 5.0f}}, v[3] = {{1e38f, 0.0f}, {3.4e38f, 0.0f}, {0.0f, -3.4e38f}};
    const float inv[3] = {1.0f, 1.0f, 0.0f}, dts[3] = {10.0f, 1.0f, 2.0f};
    BOTH((paths *)*state) {
        for (int k = 0; k < 3; k++) {
            mink_world *w = new_world(ctxs[c], NULL);
            uint32_t box;
            mink_shape bs = box_shape(1.0f, 1.0f);
            assert_int_equal(mink_world_add_shapes(w, &bs, 1, &box), MINK_OK);
            add_one(w, box, mink_v2(-5.0f, 0.0f), mink_v2(1.0f, 0.0f), 1.0f, MINK_RESPONSE_SLIDE, 0.0f);
            uint32_t h = add_one(w, box, at[k], v[k], inv[k], MINK_RESPONSE_SLIDE, 0.0f);
            assert_int_equal(mink_world_step(w, dts[k]), MINK_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(mink_last_error(), "slot 1 past the float range"));
            mink_vec2 kept[2] = {position(w, h), velocity(w, h)}, given[2] = {at[k], v[k]};
            assert_memory_equal(kept, given, sizeof kept);
            assert_int_equal(mink_world_step(w, 1e-3f), MINK_OK);
            mink_world_destroy(w);
        }
    }
}

/* A step's grid keys: the bucket, the crowd bit and the slice of x below it, and the large bodies'
 * key above every other, all in 32 bits, for every bucket count up to 2^30 entries; the radix
 * sort's passes cover the large key. A query's grid has no slice. */
static void grid_keys_fit_in_32_bits(void **state) {
    (void)state;
    uint32_t entries[12] = {1u, 1u << 21};
    for (uint32_t bits = 22; bits <= 30; bits++) entries[bits - 20] = (1u << (bits - 1)) + 1u; /* 2^bits buckets */
    entries[11] = 1u << 30;
    for (size_t k = 0; k < sizeof entries / sizeof entries[0]; k++)
        for (int scanned = 0; scanned < 2; scanned++) {
            mink_grid g = {.inv_cell = 1.0f};
            uint32_t passes = 0;
            assert_int_equal(mink__world_grid_buckets(&g, entries[k], scanned, &passes), 1);
            assert_true(g.buckets >= entries[k] && (g.buckets & (g.buckets - 1u)) == 0u);
            assert_true(scanned ? g.x_bits <= 8u && (g.buckets > (1u << 22) || g.x_bits == 8u) : g.x_bits == 0u);
            uint64_t top = (((uint64_t)g.buckets - 1u) * 2u + 1u) << g.x_bits | ((1u << g.x_bits) - 1u);
            uint64_t large = (uint64_t)g.buckets * 2u << g.x_bits;
            assert_true(large <= UINT32_MAX && large == top + 1u);
            assert_int_equal(mink_grid_large_key(g), (uint32_t)large);
            assert_true(passes >= 1u && passes <= 4u && (passes == 4u || large < ((uint64_t)1 << (8u * passes))));
        }
    mink_grid g = {.inv_cell = 1.0f};
    uint32_t passes = 0;
    assert_int_equal(mink__world_grid_buckets(&g, (1u << 30) + 1u, 1, &passes), 0); /* refused: keys would not fit */
}

static void scan_saturates(void **state) {
    (void)state;
    uint32_t a[5] = {0x80000000u, 0x7fffffffu, 2u, 1u, 0u}, sums[3] = {0};
    mink_scan_sum_block(0, 2, 4, a, sums);
    mink_scan_sum_block(1, 2, 4, a, sums);
    assert_int_equal(sums[0], 0xffffffffu);
    assert_int_equal(sums[1], 3u);
    mink_scan_top(2, sums);
    assert_int_equal(sums[2], MINK_SCAN_FULL);
    mink_scan_apply_block(0, 2, 4, a, sums);
    mink_scan_apply_block(1, 2, 4, a, sums);
    assert_int_equal(a[0], 0u);
    assert_int_equal(a[1], 0x80000000u);
    assert_int_equal(a[4], MINK_SCAN_FULL); /* the total, not 2 */
}

/* The grid's crowd (bodies whose filter never meets itself; their entries scan nothing) follows
 * what the bodies are now: bullets set to meet each other leave it and are paired, and a crowd
 * that is not the bodies' majority still gives every pair. */
static void crowd_follows_the_filters(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t circle;
        mink_shape s = circle_shape(1.0f);
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &circle), MINK_OK);
        enum { N = 40 };
        uint32_t shape[N], category[N], mask[N], h[N];
        mink_vec2 pos[N], vel[N];
        for (int k = 0; k < N; k++) { /* twenty pairs of bullets, each pair overlapping */
            shape[k] = circle;
            pos[k] = mink_v2((float)(k / 2) * 10.0f + (float)(k % 2) * 0.5f, 0.0f);
            vel[k] = mink_v2(1.0f, 0.0f);
            category[k] = 2u;
            mask[k] = 1u;
        }
        mink_world_bodies b = {.count = N, .shape = shape, .position = pos, .velocity = vel, .category = category,
                               .mask = mask};
        assert_int_equal(mink_world_add(w, &b, h), MINK_OK);
        size_t pairs = 99;
        step_ok(w, 0.0f);
        assert_int_equal(mink_world_pairs(w, NULL, 0, &pairs), MINK_OK);
        assert_int_equal(pairs, 0); /* bullets do not meet bullets */

        /* The first six bodies (three pairs) now meet everything, their category kept (only the
         * mask tells them from the crowd): three pairs. */
        uint32_t meet[6] = {2, 2, 2, 2, 2, 2}, all[6] = {~0u, ~0u, ~0u, ~0u, ~0u, ~0u};
        assert_int_equal(mink_world_set(w, h, &(mink_world_bodies){.count = 6, .category = meet, .mask = all}),
                         MINK_OK);
        step_ok(w, 0.0f);
        assert_int_equal(mink_world_pairs(w, NULL, 0, &pairs), MINK_OK);
        assert_int_equal(pairs, 3);

        /* Then so do all but the last four: the bullets left are not the majority any more. */
        uint32_t many_cat[N - 4], many_mask[N - 4];
        for (int k = 0; k < N - 4; k++) many_cat[k] = 1u, many_mask[k] = ~0u;
        assert_int_equal(
            mink_world_set(w, h, &(mink_world_bodies){.count = N - 4, .category = many_cat, .mask = many_mask}),
            MINK_OK);
        step_ok(w, 0.0f);
        assert_int_equal(mink_world_pairs(w, NULL, 0, &pairs), MINK_OK);
        assert_int_equal(pairs, N / 2 - 2);
        mink_world_destroy(w);
    }
}

/* ---- the broadphase against brute force ------------------------------------------------------ */

typedef struct scene {
    size_t n;
    uint32_t *shape;
    mink_vec2 *pos, *vel;
    float *inv_mass;
    uint32_t *response, *category, *mask;
} scene;

/* Mixed sizes: dust, bullets, crates, long walls; static and moving; filters on a few. */
static void random_scene(mink_rng *seed, size_t n, const uint32_t *shape_ids, scene *s) {
    s->n = n;
    s->shape = malloc(n * sizeof *s->shape);
    s->pos = malloc(n * sizeof *s->pos);
    s->vel = malloc(n * sizeof *s->vel);
    s->inv_mass = malloc(n * sizeof *s->inv_mass);
    s->response = malloc(n * sizeof *s->response);
    s->category = malloc(n * sizeof *s->category);
    s->mask = malloc(n * sizeof *s->mask);
    for (size_t k = 0; k < n; k++) {
        float u = mink_rng_float(seed, 0.0f, 1.0f);
        s->shape[k] = shape_ids[(uint32_t)(mink_rng_float(seed, 0.0f, 1.0f) * 6.0f) % 6];
        s->pos[k] = mink_v2(mink_rng_float(seed, 0.0f, 1.0f) * 400.0f - 200.0f, mink_rng_float(seed, 0.0f, 1.0f) * 400.0f - 200.0f);
        float speed = u < 0.3f ? 0.0f : (u < 0.9f ? 20.0f : 400.0f);
        s->vel[k] = mink_v2((mink_rng_float(seed, 0.0f, 1.0f) * 2.0f - 1.0f) * speed, (mink_rng_float(seed, 0.0f, 1.0f) * 2.0f - 1.0f) * speed);
        s->inv_mass[k] = u < 0.3f ? 0.0f : 1.0f;
        s->response[k] = mink_rng_float(seed, 0.0f, 1.0f) < 0.05f ? MINK_RESPONSE_SENSOR : MINK_RESPONSE_SLIDE;
        s->category[k] = 1u << ((uint32_t)(mink_rng_float(seed, 0.0f, 1.0f) * 3.0f) % 3);
        s->mask[k] = mink_rng_float(seed, 0.0f, 1.0f) < 0.2f ? 0x5u : 0xffffffffu;
    }
}

static void free_scene(scene *s) {
    free(s->shape), free(s->pos), free(s->vel), free(s->inv_mass), free(s->response), free(s->category), free(s->mask);
}

static int pair_order(const void *pa, const void *pb) {
    const mink_world_pair *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* One step of both worlds (scene s, slots dead[0 .. dead_n) removed), whose pairs must equal a
 * brute force over the same records (mink_bounds_item): boxes, filters, and two dynamic bodies'
 * paths coming close; none twice. */
static void check_pairs(mink_world *w[2], const mink_shape *shapes, const scene *sc, const uint32_t *dead,
                        size_t dead_n, float skin) {
    size_t n = sc->n;
    const float dt = 1.0f / 30.0f;
    mink_aabb *bounds = malloc(n * sizeof *bounds);
    uint32_t *shape_of = malloc(n * 4);
    mink_body_props *props = malloc(n * sizeof *props);
    for (size_t k = 0; k < n; k++) {
        shape_of[k] = sc->shape[k];
        props[k] = (mink_body_props){sc->inv_mass[k], 1.0f, sc->response[k], sc->category[k], sc->mask[k]};
    }
    for (size_t k = 0; k < dead_n; k++) shape_of[dead[k]] = MINK_WORLD_DEAD;
    mink_grid_entry *records = malloc(n * sizeof *records);
    mink_world_view v = {.count = (uint32_t)n, .shapes = shapes, .shape_of = shape_of, .props = props, .pos = sc->pos,
                         .vel = sc->vel, .bounds = bounds, .records = records, .counters = (uint32_t[MINK_COUNTERS]){0}};
    mink_step_state st = {.params = {.dt = dt, .skin = skin, .iterations = 1}, .slots = (uint32_t)n};
    for (uint32_t k = 0; k < n; k++) mink_bounds_item(v, st, k);
    size_t cap = 64, count = 0;
    mink_world_pair *want = malloc(cap * sizeof *want);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            if (shape_of[i] == MINK_WORLD_DEAD || shape_of[j] == MINK_WORLD_DEAD) continue;
            if (!mink_grid_entries_meet(records[i], records[j])) continue; /* boxes, filters, paths */
            if (count == cap) want = realloc(want, (cap *= 2) * sizeof *want);
            want[count++] = (mink_world_pair){i, j};
        }
    qsort(want, count, sizeof *want, pair_order);
    for (int c = 0; c < 2; c++) {
        step_ok(w[c], dt);
        size_t got_n = 0;
        assert_int_equal(mink_world_pairs(w[c], NULL, 0, &got_n), MINK_OK);
        if (got_n != count) fprintf(stderr, "n %zu path %d: %zu pairs, brute force %zu\n", n, c, got_n, count);
        assert_int_equal(got_n, count);
        mink_world_pair *got = malloc((got_n + 1) * sizeof *got);
        assert_int_equal(mink_world_pairs(w[c], got, got_n, &got_n), MINK_OK);
        for (size_t k = 0; k < got_n; k++) /* as unordered pairs */
            if (got[k].a > got[k].b) got[k] = (mink_world_pair){got[k].b, got[k].a};
        qsort(got, got_n, sizeof *got, pair_order);
        assert_memory_equal(got, want, count * sizeof *want); /* so also: none twice */
        free(got);
    }
    free(want), free(bounds), free(shape_of), free(props), free(records);
}

static void broadphase_equals_brute_force(void **state) {
    paths *p = *state;
    /* The last is world-sized: a body over more than MINK_GRID_MAX_SIDE cells a side goes in no
     * cell and is tested against every body. */
    mink_shape shapes[7] = {circle_shape(0.05f), circle_shape(0.5f), box_shape(2.0f, 2.0f), box_shape(150.0f, 0.5f),
                            box_shape(0.25f, 90.0f), {0}, box_shape(5000.0f, 5000.0f)};
    mink_vec2 tri[3] = {mink_v2(-3, -2), mink_v2(3, -2), mink_v2(0, 4)};
    shapes[5].type = MINK_SHAPE_POLYGON;
    assert_int_equal(mink_polygon_make(tri, 3, mink_v2(0, 0), 0.0f, &shapes[5].geom.polygon), MINK_POLYGON_OK);
    /* Scenes with a crowd: most bodies bullets that do not meet each other (the grid sorts them
     * last in each cell and scans nothing from them); the others have small crowds by chance
     * (static bodies, and category 2 with mask 5). */
    const struct {
        size_t n;
        int crowd;
        float skin; /* the world's; 0: each body's own */
    } cases[] = {{1, 0, 0}, {2, 0, 0}, {17, 0, 0}, {300, 0, 0}, {300, 1, 0}, {2000, 0, 0}, {2000, 0, 0.3f}, {5000, 0, 0}, {5000, 1, 0}};
    mink_rng seed = mink_rng_seed(20261122);
    for (size_t si = 0; si < sizeof cases / sizeof cases[0]; si++) {
        size_t n = cases[si].n;
        scene s;
        uint32_t ids[7];
        mink_world_desc desc = {.skin = cases[si].skin};
        mink_world *w[2] = {new_world(p->scalar, &desc), new_world(p->opencl, &desc)};
        for (int c = 0; c < 2; c++) assert_int_equal(mink_world_add_shapes(w[c], shapes, 7, ids), MINK_OK);
        random_scene(&seed, n, ids, &s);
        for (size_t k = 0; k < n && cases[si].crowd; k++)
            if (k % 5 != 0) { /* bullets: meet category 1, are category 2 */
                s.shape[k] = ids[k % 2];
                s.inv_mass[k] = 1.0f;
                s.response[k] = MINK_RESPONSE_BOUNCE;
                s.category[k] = 2u;
                s.mask[k] = 1u;
            }
        for (size_t k = 4; k < 7 && n >= 17; k++) s.shape[k] = ids[6]; /* three large bodies */
        for (size_t k = 0; k < 2 && n == 2; k++) s.shape[k] = ids[6];  /* large ones only: no grid entry */
        /* Far bodies (a bullet that left the arena, and far beyond): their cells clamp at the grid's
         * edge, mostly skin they pair by boxes, and two at one far point still meet. */
        const mink_vec2 far[] = {{1e30f, 0.0f}, {-1e30f, 5.0f}, {1e7f, 1e7f}, {1e7f, 1e7f}, {3e9f, -2e9f}, {2e5f, 1.0f}};
        for (size_t k = 0; k < sizeof far / sizeof far[0] && n >= 300; k++) s.pos[10 + k] = far[k];
        /* Long dynamic bodies at rest (their skin outgrows their push reach) and a slow one. */
        for (size_t k = 20; k < 23 && n >= 300; k++) {
            s.shape[k] = ids[3];
            s.inv_mass[k] = 1.0f;
            s.vel[k] = mink_v2(k == 22 ? 3.0f : 0.0f, 0.0f);
        }
        uint32_t *h = malloc(n * sizeof *h);
        mink_world_bodies b = {.count = n, .shape = s.shape, .position = s.pos, .velocity = s.vel,
                               .inv_mass = s.inv_mass, .response = s.response, .category = s.category, .mask = s.mask};
        for (int c = 0; c < 2; c++) {
            assert_int_equal(mink_world_add(w[c], &b, h), MINK_OK);
            /* A few dead slots in the middle. */
            if (n > 10) assert_int_equal(mink_world_remove(w[c], (uint32_t[]){3, 9}, 2), MINK_OK);
        }
        check_pairs(w, shapes, &s, n > 10 ? (uint32_t[]){3, 9} : NULL, n > 10 ? 2 : 0, cases[si].skin);
        free(h);
        free_scene(&s);
        mink_world_destroy(w[0]);
        mink_world_destroy(w[1]);
    }
}

/* Buckets of tens of entries: small bodies packed many to a cell, some still, some slow, some
 * fast, all dynamic (no crowd), or with two in three a crowd of bullets (they meet the others,
 * not each other) and a few static. A scan along a bucket meets entries that start past its box,
 * skips them to the bucket's crowd and tests on, and stops at the crowd's first entry past its
 * box (mink_grid_x_past); an entry with more than 32 after it has some tested again by the write
 * pass. Pairs as brute force, on both paths, over nine steps (the first with keys sorted along
 * x, the next as the scan found; from the second on, the bodies renumbered by place before each).
 * Stopping at the first entry past the box, of the crowd or not, fails it in the crowd's case
 * (without a crowd every entry after one past the box is past it). */
static void dense_buckets_equal_brute_force(void **state) {
    paths *p = *state;
    mink_shape shapes[3] = {circle_shape(0.01f), circle_shape(0.02f), box_shape(0.015f, 0.03f)};
    mink_rng seed = mink_rng_seed(20261128);
    for (int crowd = 0; crowd < 2; crowd++)
        for (size_t n = 200; n <= 1200; n *= 6) {
            uint32_t ids[3], zero[6] = {0};
            mink_world *w[2] = {new_world(p->scalar, NULL), new_world(p->opencl, NULL)};
            for (int c = 0; c < 2; c++) {
                assert_int_equal(mink_world_add_shapes(w[c], shapes, 3, ids), MINK_OK);
                assert_true(ids[0] == 0 && ids[2] == 2); /* the view's shapes are the world's */
            }
            scene s;
            random_scene(&seed, n, zero, &s);
            for (size_t k = 0; k < n; k++) {
                float u = mink_rng_float(&seed, 0.0f, 1.0f), speed = u < 0.2f ? 0.0f : u < 0.8f ? 0.3f : 6.0f;
                s.shape[k] = ids[k % 3];
                s.pos[k] = mink_v2(mink_rng_float(&seed, -0.25f, 0.25f), mink_rng_float(&seed, -0.25f, 0.25f));
                s.vel[k] = mink_v2(mink_rng_float(&seed, -speed, speed), mink_rng_float(&seed, -speed, speed));
                s.inv_mass[k] = crowd && u < 0.1f ? 0.0f : 1.0f; /* without: no crowd at all */
                s.response[k] = MINK_RESPONSE_BOUNCE;
                int bullet = crowd && k % 3 != 0;
                s.category[k] = bullet ? 2u : 1u;
                s.mask[k] = bullet ? 1u : ~0u;
            }
            mink_world_bodies b = {.count = n, .shape = s.shape, .position = s.pos, .velocity = s.vel,
                                   .inv_mass = s.inv_mass, .response = s.response, .category = s.category,
                                   .mask = s.mask};
            uint32_t *h = malloc(n * sizeof *h);
            for (int c = 0; c < 2; c++) assert_int_equal(mink_world_add(w[c], &b, h), MINK_OK);
            for (int c = 0; c < 2; c++) w[c]->order_always = 1;
            for (int step = 0; step < 9; step++) {
                check_pairs(w, shapes, &s, NULL, 0, 0.0f);
                /* The next step's records from where the world put the bodies. */
                assert_int_equal(mink_world_get(w[0], NULL, n, s.pos, s.vel), MINK_OK);
            }
            for (int c = 0; c < 2; c++) assert_true(w[c]->renumbered);
            free(h);
            free_scene(&s);
            mink_world_destroy(w[0]);
            mink_world_destroy(w[1]);
        }
}

/* Slots sorted by their box's left edge, for the sweep below. */
static const mink_grid_entry *sweep_records;
static int by_left_edge(const void *pa, const void *pb) {
    float a = sweep_records[*(const uint32_t *)pa].box.min.x, b = sweep_records[*(const uint32_t *)pb].box.min.x;
    return (a > b) - (a < b);
}

/* Long static walls among many small moving discs. With n slots a body goes into up to
 * max(n / 8, 1000) grid cells (1000 when that would make more than 4 entries a slot); over that
 * it is large, and every slot is tested against it. The discs are about a cell each, the walls
 * 1000 to 2000 cells:
 * large among 4 000 discs, in cells among 40 000, large again when 500 of them would flood the
 * grid. Each time the pairs equal a sweep over the boxes, on both paths, and none comes twice. */
static void long_bodies_go_in_cells_or_are_large(void **state) {
    paths *p = *state;
    const struct {
        size_t discs, walls, large;
    } cases[] = {{4000, 10, 10}, {40000, 10, 0}, {40000, 500, 500}};
    const float dt = 1.0f / 30.0f;
    mink_shape shapes[2] = {circle_shape(0.05f), box_shape(90.0f, 4.0f)};
    mink_rng seed = mink_rng_seed(20261125);
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        size_t n = cases[ci].discs + cases[ci].walls;
        uint32_t ids[2], *shape = malloc(n * 4), *h = malloc(n * 4), *order = malloc(n * 4);
        mink_vec2 *pos = malloc(n * sizeof *pos), *vel = malloc(n * sizeof *vel);
        float *inv_mass = malloc(n * sizeof *inv_mass);
        mink_body_props *props = malloc(n * sizeof *props);
        mink_aabb *bounds = malloc(n * sizeof *bounds);
        mink_grid_entry *records = malloc(n * sizeof *records);
        for (size_t k = 0; k < n; k++) {
            int wall = k < cases[ci].walls;
            pos[k] = mink_v2(mink_rng_float(&seed, -100.0f, 100.0f), mink_rng_float(&seed, -100.0f, 100.0f));
            vel[k] = wall ? mink_v2(0, 0) : mink_v2(mink_rng_float(&seed, -3.0f, 3.0f), mink_rng_float(&seed, -3.0f, 3.0f));
            inv_mass[k] = wall ? 0.0f : 1.0f;
            props[k] = (mink_body_props){inv_mass[k], 1.0f, MINK_RESPONSE_SLIDE, 1u, ~0u};
        }
        mink_world *w[2] = {new_world(p->scalar, NULL), new_world(p->opencl, NULL)};
        for (int c = 0; c < 2; c++) assert_int_equal(mink_world_add_shapes(w[c], shapes, 2, ids), MINK_OK);
        for (size_t k = 0; k < n; k++) shape[k] = ids[k < cases[ci].walls];
        mink_world_bodies b = {.count = n, .shape = shape, .position = pos, .velocity = vel, .inv_mass = inv_mass};
        for (int c = 0; c < 2; c++) assert_int_equal(mink_world_add(w[c], &b, h), MINK_OK);
        /* The pairs by a sweep along x over the step's records (mink_bounds_item). */
        mink_world_view v = {.count = (uint32_t)n, .shapes = shapes, .shape_of = shape, .props = props, .pos = pos,
                             .vel = vel, .bounds = bounds, .records = records, .counters = (uint32_t[MINK_COUNTERS]){0}};
        assert_true(ids[0] == 0 && ids[1] == 1); /* the view's shapes are the world's */
        for (size_t k = 0; k < n; k++) shape[k] = k < cases[ci].walls;
        mink_step_state st = {.params = {.dt = dt, .iterations = 1}, .slots = (uint32_t)n};
        for (uint32_t k = 0; k < n; k++) mink_bounds_item(v, st, k), order[k] = k;
        sweep_records = records;
        qsort(order, n, 4, by_left_edge);
        size_t cap = 1024, count = 0;
        mink_world_pair *want = malloc(cap * sizeof *want);
        for (size_t x = 0; x < n; x++)
            for (size_t y = x + 1; y < n && records[order[y]].box.min.x <= records[order[x]].box.max.x; y++) {
                uint32_t i = order[x], j = order[y];
                if (!mink_grid_entries_meet(records[i], records[j])) continue;
                if (count == cap) want = realloc(want, (cap *= 2) * sizeof *want);
                want[count++] = i < j ? (mink_world_pair){i, j} : (mink_world_pair){j, i};
            }
        qsort(want, count, sizeof *want, pair_order);
        for (int c = 0; c < 2; c++) {
            step_ok(w[c], dt);
            assert_int_equal(mink_world_get_stats(w[c]).large, cases[ci].large);
            size_t got_n = 0;
            assert_int_equal(mink_world_pairs(w[c], NULL, 0, &got_n), MINK_OK);
            assert_int_equal(got_n, count);
            mink_world_pair *got = malloc((got_n + 1) * sizeof *got);
            assert_int_equal(mink_world_pairs(w[c], got, got_n, &got_n), MINK_OK);
            for (size_t k = 0; k < got_n; k++)
                if (got[k].a > got[k].b) got[k] = (mink_world_pair){got[k].b, got[k].a};
            qsort(got, got_n, sizeof *got, pair_order);
            assert_memory_equal(got, want, count * sizeof *want); /* so also: none twice */
            free(got);
        }
        mink_world_destroy(w[0]);
        mink_world_destroy(w[1]);
        free(shape), free(h), free(order), free(pos), free(vel), free(inv_mass), free(props), free(bounds);
        free(records), free(want);
    }
}

/* Issue 30: a bullet passed a thin wall at x = 1e7 (the circle–box sweep rounded its radius away
 * against the coordinates). The disk-and-point case of test_circle at 2^23: a bullet of radius
 * 1/4, 4 short of a wall of no thickness, moving 8 a step, and others 1/2 to 2 short moving 1/2
 * to 2: no centre ends a step beyond the wall (coordinates here are half a unit apart, the radius
 * half that), on either path, bit for bit. */
static void far_bullet_stops_at_a_thin_wall(void **state) {
    paths *p = *state;
    const float x = 8388608.0f; /* 2^23: coordinates one unit apart */
    mink_vec2 got[2][5];
    BOTH(p) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t ids[2];
        mink_shape shapes[2] = {box_shape(0.0f, 4.0f), circle_shape(0.25f)};
        assert_int_equal(mink_world_add_shapes(w, shapes, 2, ids), MINK_OK);
        add_one(w, ids[0], mink_v2(x, 0.0f), mink_v2(0, 0), 0.0f, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t h[5];
        const float gap[5] = {4.0f, 2.0f, 1.0f, 0.5f, 0.5f}, speed[5] = {8.0f, 2.0f, 1.0f, 0.5f, 1.5f};
        for (int k = 0; k < 5; k++)
            h[k] = add_one(w, ids[1], mink_v2(x - gap[k] - 0.25f, (float)k - 2.0f), mink_v2(speed[k], 0.0f), 1.0f,
                           k % 2 ? MINK_RESPONSE_BOUNCE : MINK_RESPONSE_STOP, 1.0f);
        for (int step = 0; step < 20; step++) {
            step_ok(w, 1.0f);
            for (int k = 0; k < 5; k++) {
                mink_vec2 q = position(w, h[k]);
                if (q.x > x) fail_msg("path %d step %d: bullet %d at x = %.1f, beyond the wall at %.1f", c, step, k, q.x, x);
            }
        }
        for (int k = 0; k < 5; k++) got[c][k] = position(w, h[k]);
        mink_world_destroy(w);
    }
    assert_memory_equal(got[0], got[1], sizeof got[0]);
}

/* ---- the narrowphase's dispatch ------------------------------------------------------------------ */

/* mink_sweep_placed (what the narrowphase and resolution call) gives the bits of
 * mink_sweep_bodies_linear on the placed bodies, for every pair of kinds in both orders, hits,
 * misses, overlaps and touching; with fewer hulls the same for the shapes they hold (the others
 * INVALID). Both world paths call it, so their memcmp alone would not see a wrong dispatch. */
static void placed_sweeps_equal_body_sweeps(void **state) {
    (void)state;
    mink_vec2 pent[5] = {mink_v2(1, 0), mink_v2(0.31f, 0.95f), mink_v2(-0.81f, 0.59f), mink_v2(-0.81f, -0.59f),
                         mink_v2(0.31f, -0.95f)};
    mink_shape shapes[8] = {box_shape(0.5f, 0.25f), box_shape(2.0f, 0.01f), circle_shape(0.1f), circle_shape(1.5f),
                            {.type = MINK_SHAPE_POLYGON}, capsule_shape(-1.0f, 0.2f, 0.5f, -0.4f, 0.3f),
                            capsule_shape(0.0f, -1.0f, 0.0f, 1.0f, 0.0f), capsule_shape(0.2f, 0.1f, 0.2f, 0.1f, 0.6f)};
    assert_int_equal(mink_polygon_make(pent, 5, mink_v2(0, 0), 0.0f, &shapes[4].geom.polygon), MINK_POLYGON_OK);
    mink_rng rng = mink_rng_seed(7);
    size_t contacts = 0, overlaps = 0;
    for (int k = 0; k < 32000; k++) {
        const mink_shape *a = &shapes[mink_rng_u32(&rng) % 8], *b = &shapes[mink_rng_u32(&rng) % 8];
        mink_vec2 pa = mink_v2(mink_rng_float(&rng, -3, 3), mink_rng_float(&rng, -3, 3));
        mink_vec2 pb = mink_v2(mink_rng_float(&rng, -3, 3), mink_rng_float(&rng, -3, 3));
        mink_vec2 ma = mink_v2(mink_rng_float(&rng, -4, 4), mink_rng_float(&rng, -4, 4));
        mink_vec2 mb = k % 4 == 0 ? mink_v2(0, 0) : mink_v2(mink_rng_float(&rng, -4, 4), mink_rng_float(&rng, -4, 4));
        if (k % 7 == 0) pb = mink_v2(pa.x + 1.0f, pa.y); /* the first boxes touch side by side */
        mink_hit want = mink_sweep_bodies_linear(mink_shape_place(a, pa, ma), mink_shape_place(b, pb, mb), 1.0f);
        mink_hit got = mink_sweep_placed(a, pa, ma, b, pb, mb, MINK_HULLS_ALL);
        assert_memory_equal(&got, &want, sizeof want);
        /* A build for fewer shapes: the same bits for those it holds, INVALID for the others. */
        for (uint32_t hulls = 0; hulls < MINK_HULLS_ALL; hulls++) { /* 2, capsules alone: any shape */
            mink_hit fewer = mink_sweep_placed(a, pa, ma, b, pb, mb, hulls);
            uint32_t holds = hulls & MINK_HULLS_CAPSULES ? MINK_HULLS_ALL : hulls;
            if (((mink_shape_hulls(a) | mink_shape_hulls(b)) & ~holds) != 0)
                assert_int_equal(fewer.flags, MINK_HIT_INVALID);
            else
                assert_memory_equal(&fewer, &want, sizeof want);
        }
        contacts += (want.flags & MINK_HIT_CONTACT) != 0;
        overlaps += (want.flags & MINK_HIT_OVERLAP) != 0;
    }
    assert_true(contacts > 3000 && overlaps > 800); /* enough of each to take every branch */
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(responses_hand_computed, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(moving_bodies_split_by_inverse_mass, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(starting_overlap_is_pushed_out, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(sensor_reports_and_never_pushes, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(empty_and_static_worlds, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(add_remove_update, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(handles_are_never_reused, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(renumbered_bodies_keep_their_slots, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(bad_arguments, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(capacity_is_reported, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(stacked_bodies_are_counted_exactly, paths_setup, paths_teardown),
        cmocka_unit_test(scan_saturates),
        cmocka_unit_test(grid_keys_fit_in_32_bits),
        cmocka_unit_test_setup_teardown(huge_values_are_refused, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(a_body_near_the_float_limit_meets_the_wall, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(a_move_past_the_float_range_fails_the_step, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(crowd_follows_the_filters, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(broadphase_equals_brute_force, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(dense_buckets_equal_brute_force, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(long_bodies_go_in_cells_or_are_large, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(far_bullet_stops_at_a_thin_wall, paths_setup, paths_teardown),
        cmocka_unit_test(placed_sweeps_equal_body_sweeps),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
