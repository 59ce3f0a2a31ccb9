/* tests/test_world_query.c — questions to a world (mink_world_cast, _cast_rays, _cast_all,
 * _overlap): hand cases, bad input, and random worlds with dead slots, sensors, filters and a
 * large body against brute force over every body with the single-pair sweeps, on both paths and
 * bit for bit between them. */
#include "test_util.h"

#include "mink/world.h"

#define BOTH(p) mink_context *ctxs[2] = {(p)->scalar, (p)->opencl}; for (int c = 0; c < 2; c++)

static mink_world *new_world(mink_context *ctx) {
    mink_world *w = NULL;
    mink_status st = mink_world_create(ctx, NULL, &w);
    if (st != MINK_OK) fprintf(stderr, "mink_world_create: %s\n", mink_last_error());
    assert_int_equal(st, MINK_OK);
    return w;
}

static uint32_t add_body(mink_world *w, uint32_t shape, mink_vec2 p, uint32_t category, uint32_t mask, uint32_t response,
                         float inv_mass) {
    uint32_t h = 0;
    mink_world_bodies b = {.count = 1, .shape = &shape, .position = &p, .category = &category, .mask = &mask,
                           .response = &response, .inv_mass = &inv_mass};
    assert_int_equal(mink_world_add(w, &b, &h), MINK_OK);
    return h;
}

static mink_world_query point_query(mink_vec2 p, mink_vec2 d) {
    return (mink_world_query){p, d, MINK_QUERY_POINT, 0};
}

static mink_world_query shape_query(uint32_t shape, mink_vec2 p, mink_vec2 d) { return (mink_world_query){p, d, shape, 0}; }

/* A shape of a world's table placed at p, moving by v (over a step of 1), as a mink_body. */
static mink_body placed(mink_shape s, mink_vec2 p, mink_vec2 v) {
    mink_body b = mink_body_zero(s.type, v);
    if (s.type == MINK_SHAPE_AABB) {
        b.shape.aabb = (mink_aabb){mink_v2(s.geom.aabb.min.x + p.x, s.geom.aabb.min.y + p.y),
                                   mink_v2(s.geom.aabb.max.x + p.x, s.geom.aabb.max.y + p.y)};
    } else if (s.type == MINK_SHAPE_CIRCLE) {
        b.shape.circle = s.geom.circle;
        b.shape.circle.center = mink_v2(s.geom.circle.center.x + p.x, s.geom.circle.center.y + p.y);
    } else if (s.type == MINK_SHAPE_CAPSULE) {
        b.shape.capsule = s.geom.capsule;
        b.shape.capsule.center1 = mink_v2(s.geom.capsule.center1.x + p.x, s.geom.capsule.center1.y + p.y);
        b.shape.capsule.center2 = mink_v2(s.geom.capsule.center2.x + p.x, s.geom.capsule.center2.y + p.y);
    } else {
        b.shape.polygon = s.geom.polygon;
        b.shape.polygon.position = mink_v2(s.geom.polygon.position.x + p.x, s.geom.polygon.position.y + p.y);
    }
    return b;
}

static void cast_ok(mink_world *w, const mink_world_query *q, size_t n, const mink_world_filter *f, mink_world_hit *out) {
    mink_status st = mink_world_cast(w, q, n, f, out);
    if (st != MINK_OK) fprintf(stderr, "mink_world_cast: %s\n", mink_last_error());
    assert_int_equal(st, MINK_OK);
}

/* A wall (box, half 1 x 2) at (5, 0), a circle r 1 at (5, 6), a sensor box at (-5, 0), a box at
 * (5, -6) of category 2, and a removed body at (2, 0) in between. */
static void hand_cases(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c]);
        mink_shape shapes[3] = {box_shape(1.0f, 2.0f), circle_shape(1.0f), box_shape(0.5f, 0.5f)};
        uint32_t ids[3];
        assert_int_equal(mink_world_add_shapes(w, shapes, 3, ids), MINK_OK);
        uint32_t wall = add_body(w, ids[0], mink_v2(5, 0), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t ball = add_body(w, ids[1], mink_v2(5, 6), 1, ~0u, MINK_RESPONSE_SLIDE, 1.0f);
        uint32_t sensor = add_body(w, ids[0], mink_v2(-5, 0), 1, ~0u, MINK_RESPONSE_SENSOR, 0.0f);
        uint32_t other = add_body(w, ids[0], mink_v2(5, -6), 2, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t gone = add_body(w, ids[2], mink_v2(2, 0), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        assert_int_equal(mink_world_remove(w, &gone, 1), MINK_OK);

        mink_world_query q[] = {
            point_query(mink_v2(0, 0), mink_v2(10, 0)),  /* the wall at x = 4: t 0.4 */
            point_query(mink_v2(0, 0), mink_v2(4, 0)),   /* ends exactly on the wall: none */
            point_query(mink_v2(5, 0), mink_v2(1, 0)),   /* from inside: OVERLAP */
            point_query(mink_v2(0, 3), mink_v2(10, 0)),  /* above the wall, below the ball: none */
            point_query(mink_v2(5, 20), mink_v2(0, -40)), /* down: the ball first, at y = 7 */
            point_query(mink_v2(0, 0), mink_v2(-10, 0)), /* the sensor: unseen by default */
            point_query(mink_v2(0, 0), mink_v2(0, 0)),   /* a point at rest in nothing */
            point_query(mink_v2(NAN, 0), mink_v2(1, 0)), /* invalid */
            shape_query(77, mink_v2(0, 0), mink_v2(1, 0)), /* an unknown shape: invalid */
            shape_query(ids[1], mink_v2(0, 0), mink_v2(10, 0)), /* the circle cast: meets the wall at x = 3 */
            point_query(mink_v2(0, 2), mink_v2(10, 0)),  /* along the wall's top face: grazes, none */
        };
        size_t n = sizeof q / sizeof q[0];
        mink_world_hit h[sizeof q / sizeof q[0]];
        cast_ok(w, q, n, NULL, h);
        /* Each hit is the body's own sweep, bit for bit. */
        mink_body wall_body = placed(shapes[0], mink_v2(5, 0), mink_v2(0, 0));
        mink_hit want = mink_cast_ray((mink_ray){mink_v2(0, 0), mink_v2(10, 0)}, wall_body);
        assert_int_equal(h[0].body, wall);
        assert_memory_equal(&h[0].hit, &want, sizeof want);
        assert_float_equal(h[0].hit.t, 0.4f, 0.0);
        assert_float_equal(h[0].hit.normal.x, -1.0f, 0.0);
        assert_int_equal(h[1].hit.flags, 0);
        assert_int_equal(h[1].body, MINK_WORLD_DEAD);
        assert_true(h[2].hit.flags & MINK_HIT_OVERLAP);
        assert_int_equal(h[2].body, wall);
        assert_int_equal(h[3].hit.flags, 0);
        assert_int_equal(h[4].body, ball);
        assert_float_equal(h[4].hit.t, 13.0f / 40.0f, 1e-6);
        assert_int_equal(h[5].hit.flags, 0);
        assert_int_equal(h[6].hit.flags, 0);
        assert_int_equal(h[7].hit.flags, MINK_HIT_INVALID);
        assert_int_equal(h[7].body, MINK_WORLD_DEAD);
        assert_int_equal(h[8].hit.flags, MINK_HIT_INVALID);
        assert_int_equal(h[9].body, wall);
        assert_float_equal(h[9].hit.t, 0.3f, 1e-6);
        mink_hit want_circle = mink_sweep_bodies(placed(shapes[1], mink_v2(0, 0), mink_v2(10, 0)), wall_body, 1.0f);
        assert_memory_equal(&h[9].hit, &want_circle, sizeof want_circle);
        assert_int_equal(h[10].hit.flags, 0);

        /* The filter: sensors when asked; category 2 only; a mask the wall's category misses. */
        mink_world_filter sensors = {.sensors = 1}, two = {.mask = 2};
        cast_ok(w, &q[5], 1, &sensors, h);
        assert_int_equal(h[0].body, sensor);
        mink_world_query down = point_query(mink_v2(5, 20), mink_v2(0, -40));
        cast_ok(w, &down, 1, &two, h);
        assert_int_equal(h[0].body, other);
        cast_ok(w, &down, 1, &(mink_world_filter){.category = 1}, h);
        assert_int_equal(h[0].body, ball);
        uint32_t shy = add_body(w, ids[2], mink_v2(5, 15), 1, 2, MINK_RESPONSE_SLIDE, 0.0f); /* meets category 2 only */
        cast_ok(w, &down, 1, NULL, h);
        assert_int_equal(h[0].body, shy);
        cast_ok(w, &down, 1, &(mink_world_filter){.category = 1}, h); /* its mask misses the query's category */
        assert_int_equal(h[0].body, ball);

        /* Rays are point queries. */
        mink_ray r = {mink_v2(0, 0), mink_v2(10, 0)};
        mink_world_hit hr;
        assert_int_equal(mink_world_cast_rays(w, &r, 1, NULL, &hr), MINK_OK);
        assert_memory_equal(&hr.hit, &want, sizeof want);
        assert_int_equal(hr.body, wall);

        /* All hits along a ray down through the new box, the ball, the wall and the other box. */
        mink_world_query through = point_query(mink_v2(5, 20), mink_v2(0, -40));
        mink_world_hit all[8];
        size_t starts[2];
        assert_int_equal(mink_world_cast_all(w, &through, 1, NULL, all, 8, starts), MINK_OK);
        assert_int_equal(starts[0], 0);
        assert_int_equal(starts[1], 4);
        uint32_t order[4] = {shy, ball, wall, other};
        for (int k = 0; k < 4; k++) assert_int_equal(all[k].body, order[k]);
        for (int k = 1; k < 4; k++) assert_true(all[k - 1].hit.t < all[k].hit.t);
        /* Too little room: counted, not written. */
        all[0].body = 12345;
        assert_int_equal(mink_world_cast_all(w, &through, 1, NULL, all, 3, starts), MINK_OK);
        assert_int_equal(starts[1], 4);
        assert_int_equal(all[0].body, 12345);
        assert_int_equal(mink_world_cast_all(w, &through, 1, NULL, NULL, 0, starts), MINK_OK);
        assert_int_equal(starts[1], 4);

        /* Overlaps: a point inside, a point on the boundary (touching is not overlapping), a box
         * over the wall and the ball, the sensor only when asked. */
        mink_world_query o[] = {
            point_query(mink_v2(5.5f, 0.5f), mink_v2(0, 0)),
            point_query(mink_v2(4, 0), mink_v2(0, 0)),
            shape_query(ids[0], mink_v2(5, 3.5f), mink_v2(100, 100)), /* the translation is not used */
            point_query(mink_v2(-5, 0), mink_v2(0, 0)),
        };
        uint32_t bodies[8];
        size_t os[5];
        assert_int_equal(mink_world_overlap(w, o, 4, NULL, bodies, 8, os), MINK_OK);
        size_t want_starts[5] = {0, 1, 1, 3, 3};
        for (int k = 0; k < 5; k++) assert_int_equal(os[k], want_starts[k]);
        assert_int_equal(bodies[0], wall);
        assert_int_equal(bodies[1], wall); /* slot order: the wall was added first */
        assert_int_equal(bodies[2], ball);
        assert_int_equal(mink_world_overlap(w, &o[3], 1, &sensors, bodies, 8, os), MINK_OK);
        assert_int_equal(os[1], 1);
        assert_int_equal(bodies[0], sensor);
        /* Room for the first two queries only: those are written, the third is not. */
        bodies[1] = bodies[2] = 999;
        assert_int_equal(mink_world_overlap(w, o, 4, NULL, bodies, 2, os), MINK_OK);
        assert_int_equal(os[4], 3);
        assert_int_equal(bodies[0], wall);
        assert_int_equal(bodies[1], 999);
        mink_world_destroy(w);
    }
}

/* Two boxes the same distance along a ray: the lower slot is the first hit, whichever cell
 * the walk meets first; in a world with no body seen, nothing. */
static void ties_and_empty_worlds(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c]);
        mink_shape s = box_shape(0.5f, 0.5f);
        uint32_t id;
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &id), MINK_OK);
        mink_world_query q = point_query(mink_v2(0, 0), mink_v2(10, 0));
        mink_world_hit h;
        cast_ok(w, &q, 1, NULL, &h); /* no body at all */
        assert_int_equal(h.hit.flags, 0);
        uint32_t hi = add_body(w, id, mink_v2(5, 0.4f), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t lo = add_body(w, id, mink_v2(5, -0.4f), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        cast_ok(w, &q, 1, NULL, &h);
        assert_int_equal(h.body, hi); /* both at t 0.45; hi has the lower slot */
        assert_float_equal(h.hit.t, 0.45f, 1e-6);
        cast_ok(w, &q, 1, &(mink_world_filter){.mask = 8}, &h); /* no body seen */
        assert_int_equal(h.hit.flags, 0);
        (void)lo;
        mink_world_destroy(w);
    }
}

/* A call keeps its grid for the next call with the same filter, until a step, add, set or remove:
 * each of those is seen by the next query. */
static void the_grid_follows_every_change(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c]);
        mink_shape s = box_shape(0.5f, 0.5f);
        uint32_t id;
        assert_int_equal(mink_world_add_shapes(w, &s, 1, &id), MINK_OK);
        uint32_t box = add_body(w, id, mink_v2(5, 0), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        mink_world_query q = point_query(mink_v2(0, 0), mink_v2(10, 0));
        mink_world_hit h;
        cast_ok(w, &q, 1, NULL, &h);
        assert_float_equal(h.hit.t, 0.45f, 1e-6);
        cast_ok(w, &q, 1, NULL, &h); /* the same grid */
        assert_float_equal(h.hit.t, 0.45f, 1e-6);
        mink_vec2 p = mink_v2(3, 0), v = mink_v2(10, 0);
        assert_int_equal(mink_world_set(w, &box, &(mink_world_bodies){.count = 1, .position = &p}), MINK_OK);
        cast_ok(w, &q, 1, NULL, &h);
        assert_float_equal(h.hit.t, 0.25f, 1e-6);
        uint32_t near = add_body(w, id, mink_v2(1, 0), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        cast_ok(w, &q, 1, NULL, &h);
        assert_int_equal(h.body, near);
        cast_ok(w, &q, 1, &(mink_world_filter){.mask = 2}, &h); /* another filter: another grid */
        assert_int_equal(h.hit.flags, 0);
        assert_int_equal(mink_world_remove(w, &near, 1), MINK_OK);
        cast_ok(w, &q, 1, NULL, &h);
        assert_int_equal(h.body, box);
        /* A kinematic box moving 10 a step: after one step at x = 13, out of the ray's reach. */
        assert_int_equal(mink_world_set(w, &box, &(mink_world_bodies){.count = 1, .velocity = &v}), MINK_OK);
        cast_ok(w, &q, 1, NULL, &h);
        assert_int_equal(h.body, box);
        assert_int_equal(mink_world_step(w, 1.0f), MINK_OK);
        cast_ok(w, &q, 1, NULL, &h);
        assert_int_equal(h.hit.flags, 0);
        mink_world_destroy(w);
    }
}

/* Dry runs by hand: a box of half 0.5 at the origin tries (10, 0) or (10, 4) towards a wall whose
 * left face is at x = 4 (the contact at t 0.35), with each response; a sensor, a filter that
 * misses the wall, and a body starting inside the wall. */
static void dry_runs_by_hand(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c]);
        mink_shape shapes[2] = {box_shape(0.5f, 0.5f), box_shape(1.0f, 5.0f)};
        uint32_t ids[2];
        assert_int_equal(mink_world_add_shapes(w, shapes, 2, ids), MINK_OK);
        uint32_t wall = add_body(w, ids[1], mink_v2(5, 0), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t stop = add_body(w, ids[0], mink_v2(0, 0), 1, ~0u, MINK_RESPONSE_STOP, 1.0f);
        uint32_t slide = add_body(w, ids[0], mink_v2(0, -20), 1, ~0u, MINK_RESPONSE_SLIDE, 1.0f);
        uint32_t bounce = add_body(w, ids[0], mink_v2(0, -40), 1, ~0u, MINK_RESPONSE_BOUNCE, 1.0f);
        uint32_t sensor = add_body(w, ids[0], mink_v2(0, -60), 1, ~0u, MINK_RESPONSE_SENSOR, 0.0f);
        uint32_t blind = add_body(w, ids[0], mink_v2(0, 20), 4, 4, MINK_RESPONSE_STOP, 1.0f); /* meets only 4 */
        uint32_t inside = add_body(w, ids[0], mink_v2(4.75f, 0), 1, ~0u, MINK_RESPONSE_STOP, 1.0f);
        uint32_t kinematic = add_body(w, ids[0], mink_v2(0, 2), 1, ~0u, MINK_RESPONSE_STOP, 0.0f);
        float e = 0.5f;
        assert_int_equal(mink_world_set(w, &bounce, &(mink_world_bodies){.count = 1, .restitution = &e}), MINK_OK);
        /* The wall is 5 high about y 0: the slide and bounce bodies get walls of their own. */
        add_body(w, ids[1], mink_v2(5, -20), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        add_body(w, ids[1], mink_v2(5, -40), 1, ~0u, MINK_RESPONSE_SLIDE, 0.0f);
        uint32_t h[7] = {stop, slide, bounce, sensor, blind, inside, kinematic};
        mink_vec2 m[7] = {{10, 0}, {10, 4}, {10, 4}, {10, 4}, {10, 0}, {0, 0}, {10, 0}};
        mink_world_move out[7];
        mink_status st = mink_world_check(w, h, m, 7, out);
        if (st != MINK_OK) fprintf(stderr, "mink_world_check: %s\n", mink_last_error());
        assert_int_equal(st, MINK_OK);
        float skin = mink_body_skin((mink_aabb){{-0.5f, -0.5f}, {0.5f, 0.5f}}, 10.0f); /* STOP's: from the origin */
        assert_int_equal(out[0].contacts, 1);
        assert_int_equal(out[0].first.body, wall);
        assert_float_equal(out[0].first.hit.t, 0.35f, 1e-6);
        assert_float_equal(out[0].end.x, 3.5f - skin, 1e-5);
        assert_float_equal(out[0].end.y, 0.0f, 0.0);
        assert_int_equal(out[1].contacts, 1); /* along the wall's face, up 4 in all */
        assert_float_equal(out[1].end.x, 3.5f, 1e-3);
        assert_float_equal(out[1].end.y, -16.0f, 1e-4);
        assert_int_equal(out[2].contacts, 1); /* back at 5, up 4: from x 3.5, 0.65 of 10 x 0.5 back */
        assert_float_equal(out[2].end.x, 3.5f - 3.25f, 1e-3);
        assert_float_equal(out[2].end.y, -36.0f, 1e-4);
        assert_int_equal(out[3].contacts, 0); /* a sensor passes */
        assert_float_equal(out[3].end.x, 10.0f, 0.0);
        assert_float_equal(out[3].end.y, -56.0f, 0.0);
        assert_int_equal(out[4].contacts, 0); /* its mask misses the wall */
        assert_float_equal(out[4].end.x, 10.0f, 0.0);
        /* 1.25 deep in the wall: pushed to the left by its push reach, a quarter of its side (a
         * step's push goes no farther; the next step's takes it on), then STOP stops it. */
        assert_int_equal(out[5].contacts, 1);
        assert_true(out[5].first.hit.flags & MINK_HIT_OVERLAP);
        assert_float_equal(out[5].end.x, 4.5f, 0.0);
        assert_int_equal(out[6].contacts, 0); /* not dynamic: through the wall, as in a step */
        assert_float_equal(out[6].end.x, 10.0f, 0.0);
        /* Nothing moved. */
        mink_vec2 p;
        assert_int_equal(mink_world_get(w, &stop, 1, &p, NULL), MINK_OK);
        assert_float_equal(p.x, 0.0f, 0.0);
        /* Bad input: a NaN translation is INVALID for that move only; a removed or repeated
         * handle fails the call. */
        mink_vec2 bad[2] = {{NAN, 0}, {10, 0}};
        assert_int_equal(mink_world_check(w, h, bad, 2, out), MINK_OK);
        assert_int_equal(out[0].first.hit.flags, MINK_HIT_INVALID);
        assert_float_equal(out[0].end.x, 0.0f, 0.0);
        assert_int_equal(out[1].contacts, 1);
        uint32_t twice[2] = {stop, stop};
        assert_int_equal(mink_world_check(w, twice, m, 2, out), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_check(w, h, NULL, 2, out), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_check(w, h, m, 2, NULL), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_remove(w, &inside, 1), MINK_OK);
        assert_int_equal(mink_world_check(w, &inside, m, 1, out), MINK_ERR_INVALID_ARGUMENT);
        mink_world_destroy(w);
    }
}

/* A dry run is the step when nothing else moves: 2 000 bodies that meet the walls but not each
 * other, among 400 static boxes, circles and capsules and a row of 120 tiles (seams: contacts at equal t),
 * the walls' user ids in the reverse of their slots' order, each tries its velocity; after a step
 * of 1 every body is where its dry run ended, bit for bit, on both paths, those that start inside
 * a wall included (their pushes are swept and bounded alike). (A step of another dt
 * scales the velocity and the response in another order: the same place to an ulp or two.) */
static void a_dry_run_is_the_step(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c]);
        mink_shape shapes[5] = {box_shape(0.5f, 0.3f), circle_shape(0.4f), box_shape(3.0f, 0.2f), box_shape(0.5f, 0.5f),
                                capsule_shape(-0.6f, -0.2f, 0.6f, 0.2f, 0.15f)};
        uint32_t ids[5];
        assert_int_equal(mink_world_add_shapes(w, shapes, 5, ids), MINK_OK);
        static const int mover_shapes[3] = {0, 1, 4}, wall_shapes[4] = {0, 1, 2, 4};
        enum { TILES = 120, WALLS = 400 + TILES, MOVERS = 2000 };
        uint32_t shape[WALLS + MOVERS], response[WALLS + MOVERS], category[WALLS + MOVERS], mask[WALLS + MOVERS];
        uint32_t handles[WALLS + MOVERS];
        uint64_t user_id[WALLS + MOVERS];
        mink_vec2 pos[WALLS + MOVERS], vel[WALLS + MOVERS], moves[MOVERS], end[MOVERS];
        float inv[WALLS + MOVERS];
        mink_rng rng = mink_rng_seed(77);
        for (int k = 0; k < WALLS + MOVERS; k++) {
            int mover = k >= WALLS;
            shape[k] = ids[mover ? mover_shapes[mink_rng_u32(&rng) % 3] : wall_shapes[mink_rng_u32(&rng) % 4]];
            pos[k] = mink_v2(mink_rng_float(&rng, -60, 60), mink_rng_float(&rng, -60, 60));
            float a = mink_rng_float(&rng, 0, 6.2831853f), speed = mover ? mink_rng_float(&rng, 0, 10) : 0.0f;
            vel[k] = mink_v2(speed * cosf(a), speed * sinf(a));
            response[k] = mover ? (uint32_t)(k % 3) : MINK_RESPONSE_SLIDE; /* SLIDE, STOP, BOUNCE */
            category[k] = mover ? 2u : 1u;
            mask[k] = mover ? 1u : ~0u;
            inv[k] = mover ? 1.0f : 0.0f;
            user_id[k] = (uint64_t)(WALLS + MOVERS - k);
            if (k < TILES) { /* the row of tiles along y = 0 */
                shape[k] = ids[3];
                pos[k] = mink_v2(-60.0f + (float)k, 0.0f);
            }
        }
        mink_world_bodies b = {.count = WALLS + MOVERS, .shape = shape, .position = pos, .velocity = vel,
                               .inv_mass = inv, .response = response, .category = category, .mask = mask,
                               .user_id = user_id};
        assert_int_equal(mink_world_add(w, &b, handles), MINK_OK);
        const float dt = 1.0f;
        for (int k = 0; k < MOVERS; k++) moves[k] = vel[WALLS + k];
        mink_world_move *out = malloc(MOVERS * sizeof *out);
        assert_int_equal(mink_world_check(w, handles + WALLS, moves, MOVERS, out), MINK_OK);
        assert_int_equal(mink_world_step(w, dt), MINK_OK);
        assert_int_equal(mink_world_get(w, handles + WALLS, MOVERS, end, NULL), MINK_OK);
        size_t met = 0, inside = 0;
        for (int k = 0; k < MOVERS; k++) {
            met += out[k].contacts > 0;
            inside += (out[k].first.hit.flags & MINK_HIT_OVERLAP) != 0;
            if (memcmp(&out[k].end, &end[k], sizeof end[k]) == 0) continue;
            fprintf(stderr, "mover %d: the dry run ends at (%a, %a), the step at (%a, %a), %u contacts\n", k,
                    (double)out[k].end.x, (double)out[k].end.y, (double)end[k].x, (double)end[k].y, out[k].contacts);
            fail();
        }
        printf("dry runs: %zu met a wall, %zu of them started inside one\n", met, inside);
        assert_true(met > MOVERS / 10 && inside > 0 && inside < MOVERS / 5);
        free(out);
        mink_world_destroy(w);
    }
}

static void bad_arguments(void **state) {
    paths *p = *state;
    mink_world *w = new_world(p->scalar);
    mink_world_query q = point_query(mink_v2(0, 0), mink_v2(1, 0));
    mink_world_hit h;
    size_t starts[2];
    uint32_t bodies[1];
    assert_int_equal(mink_world_cast(NULL, &q, 1, NULL, &h), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_cast(w, NULL, 1, NULL, &h), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_cast(w, &q, 1, NULL, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_cast(w, &q, (size_t)1 << 40, NULL, &h), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_cast(w, NULL, 0, NULL, NULL), MINK_OK);
    assert_int_equal(mink_world_cast_rays(w, NULL, 1, NULL, &h), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_cast_all(w, &q, 1, NULL, NULL, 1, starts), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_cast_all(w, &q, 1, NULL, &h, 1, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_overlap(w, &q, 1, NULL, NULL, 1, starts), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_overlap(w, &q, 1, NULL, bodies, 1, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_world_overlap(w, &q, 0, NULL, bodies, 1, starts), MINK_OK);
    assert_int_equal(starts[0], 0);
    q.reserved = 1; /* not 0: invalid, like a NaN */
    assert_int_equal(mink_world_cast(w, &q, 1, NULL, &h), MINK_OK);
    assert_int_equal(h.hit.flags, MINK_HIT_INVALID);
    mink_world_destroy(w);
}

/* ---- random worlds against brute force ----------------------------------------------------------- */

typedef struct scene {
    mink_shape shapes[8];
    uint32_t ids[8];
    size_t n;
    uint32_t *handles, *shape_of, *category, *mask, *response;
    mink_vec2 *pos;
    uint8_t *alive;
} scene;

/* n bodies of eight shapes (boxes, circles, a polygon, a capsule, a segment, one long wall of
 * 4000 x 0.2 that is large in the grid) over a square of side `side`, some sensors, random
 * categories and masks, a tenth removed; without `hulls` the polygon, capsule and segment are
 * boxes. Bodies of the same seed are the same on both paths. */
static mink_world *random_world(mink_context *ctx, uint64_t seed, size_t n, float side, int hulls, scene *sc) {
    mink_world *w = new_world(ctx);
    mink_rng rng = mink_rng_seed(seed);
    sc->n = n;
    sc->shapes[0] = box_shape(0.5f, 0.25f);
    sc->shapes[1] = circle_shape(0.4f);
    sc->shapes[2] = box_shape(2.0f, 0.1f);
    sc->shapes[3] = circle_shape(0.05f);
    sc->shapes[4] = box_shape(2000.0f, 0.1f);
    mink_vec2 pts[5] = {{-0.5f, -0.4f}, {0.6f, -0.3f}, {0.7f, 0.4f}, {0.0f, 0.7f}, {-0.6f, 0.2f}};
    mink_shape poly = {.type = MINK_SHAPE_POLYGON};
    assert_int_equal(mink_polygon_make(pts, 5, mink_v2(0, 0), 0.0f, &poly.geom.polygon), MINK_POLYGON_OK);
    sc->shapes[5] = hulls ? poly : box_shape(0.3f, 0.3f);
    sc->shapes[6] = hulls ? capsule_shape(-0.6f, -0.3f, 0.5f, 0.4f, 0.25f) : box_shape(0.2f, 0.5f);
    sc->shapes[7] = hulls ? capsule_shape(-1.5f, 0.0f, 1.5f, 0.75f, 0.0f) : box_shape(0.1f, 0.1f);
    mink_status st = mink_world_add_shapes(w, sc->shapes, 8, sc->ids);
    if (st != MINK_OK) fprintf(stderr, "mink_world_add_shapes: %s\n", mink_last_error());
    assert_int_equal(st, MINK_OK);
    sc->handles = calloc(n, 4), sc->shape_of = calloc(n, 4), sc->category = calloc(n, 4), sc->mask = calloc(n, 4);
    sc->response = calloc(n, 4), sc->pos = calloc(n, sizeof(mink_vec2)), sc->alive = calloc(n, 1);
    float *inv = calloc(n, 4);
    for (size_t k = 0; k < n; k++) {
        uint32_t kind = mink_rng_u32(&rng) % 20;
        uint32_t s = kind < 6 ? 0 : kind < 12 ? 1 : kind < 14 ? 2 : kind < 17 ? 3 : kind < 18 ? 5 : kind < 19 ? 6 : 7;
        if (k == n / 2) s = 4;
        sc->shape_of[k] = sc->ids[s];
        sc->pos[k] = mink_v2(mink_rng_float(&rng, -side, side), mink_rng_float(&rng, -side, side));
        sc->category[k] = 1u << (mink_rng_u32(&rng) % 3);
        sc->mask[k] = mink_rng_u32(&rng) % 8 == 0 ? 1u : ~0u;
        sc->response[k] = mink_rng_u32(&rng) % 10 == 0 ? MINK_RESPONSE_SENSOR : MINK_RESPONSE_SLIDE;
        inv[k] = mink_rng_u32(&rng) % 2 ? 1.0f : 0.0f;
        sc->alive[k] = 1;
    }
    mink_world_bodies b = {.count = n, .shape = sc->shape_of, .position = sc->pos, .inv_mass = inv,
                           .response = sc->response, .category = sc->category, .mask = sc->mask};
    assert_int_equal(mink_world_add(w, &b, sc->handles), MINK_OK);
    free(inv);
    for (size_t k = 0; k < n; k += 10) {
        if (k == n / 2) continue;
        assert_int_equal(mink_world_remove(w, &sc->handles[k], 1), MINK_OK);
        sc->alive[k] = 0;
    }
    return w;
}

static void scene_free(scene *sc) {
    free(sc->handles), free(sc->shape_of), free(sc->category), free(sc->mask), free(sc->response), free(sc->pos);
    free(sc->alive);
}

static const mink_shape *shape_of_id(const scene *sc, uint32_t id) {
    for (int s = 0; s < 8; s++)
        if (sc->ids[s] == id) return &sc->shapes[s];
    return NULL;
}

/* Query q against body k, as the single-pair functions give it. */
static mink_hit brute_hit(const scene *sc, mink_world_query q, size_t k) {
    mink_body b = placed(*shape_of_id(sc, sc->shape_of[k]), sc->pos[k], mink_v2(0, 0));
    if (q.shape == MINK_QUERY_POINT) return mink_cast_ray((mink_ray){q.position, q.translation}, b);
    return mink_sweep_bodies(placed(*shape_of_id(sc, q.shape), q.position, q.translation), b, 1.0f);
}

static int brute_sees(const scene *sc, const mink_world_filter *f, size_t k) {
    uint32_t cat = f->category ? f->category : ~0u, mask = f->mask ? f->mask : ~0u;
    return sc->alive[k] && (sc->category[k] & mask) && (sc->mask[k] & cat) &&
           (f->sensors || sc->response[k] != MINK_RESPONSE_SENSOR);
}

static int brute_before(mink_world_hit a, size_t ka, mink_world_hit b, size_t kb) {
    int ra = (a.hit.flags & MINK_HIT_INVALID) ? 0 : 1, rb = (b.hit.flags & MINK_HIT_INVALID) ? 0 : 1;
    return ra != rb ? ra < rb : a.hit.t != b.hit.t ? a.hit.t < b.hit.t : ka < kb;
}

/* Every hit of q, sorted as the world sorts them, into out (n of them); returns n. Handles name
 * bodies; in this scene (no slot reused) slot order is handle order. */
static size_t brute_all(const scene *sc, const mink_world_filter *f, mink_world_query q, mink_world_hit *out) {
    size_t n = 0;
    for (size_t k = 0; k < sc->n; k++) {
        if (!brute_sees(sc, f, k)) continue;
        mink_world_hit h = {brute_hit(sc, q, k), sc->handles[k], 0};
        if (h.hit.flags == 0) continue;
        size_t at = n++;
        while (at > 0 && brute_before(h, mink_world_slot(h.body), out[at - 1], mink_world_slot(out[at - 1].body))) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = h;
    }
    return n;
}

/* Queries of every kind: short and long rays (some across the whole world), rays at rest, shape
 * casts, and overlaps of boxes and points. */
static mink_world_query random_query(mink_rng *rng, const scene *sc, float side) {
    mink_vec2 p = mink_v2(mink_rng_float(rng, -side * 1.2f, side * 1.2f), mink_rng_float(rng, -side * 1.2f, side * 1.2f));
    uint32_t kind = mink_rng_u32(rng) % 8;
    float reach = kind < 3 ? 3.0f : kind < 5 ? side * 3.0f : 0.0f;
    mink_vec2 d = mink_v2(mink_rng_float(rng, -reach, reach), mink_rng_float(rng, -reach, reach));
    if (kind == 2) d.y = 0.0f; /* along the rows */
    static const int cast[4] = {0, 0, 5, 6}; /* a box, the polygon, the capsule */
    uint32_t shape = kind < 5 || kind == 7 ? MINK_QUERY_POINT : sc->ids[cast[mink_rng_u32(rng) % 4]];
    return (mink_world_query){p, d, shape, 0};
}

static void check_random(paths *p, uint64_t seed, size_t n, float side, int hulls, size_t queries) {
    mink_world_hit *first[2], *all[2], *want = malloc(n * sizeof *want);
    size_t *starts[2];
    mink_world_query *q = malloc(queries * sizeof *q);
    mink_world_filter filters[3] = {{0}, {.mask = 3, .sensors = 1}, {.category = 2}};
    for (int f = 0; f < 3; f++) {
        scene sc[2];
        BOTH(p) {
            mink_world *w = random_world(ctxs[c], seed, n, side, hulls, &sc[c]);
            mink_rng rng = mink_rng_seed(seed * 7 + (uint64_t)f);
            for (size_t k = 0; k < queries; k++) q[k] = random_query(&rng, &sc[c], side);
            first[c] = malloc(queries * sizeof **first);
            starts[c] = malloc((queries + 1) * sizeof **starts);
            cast_ok(w, q, queries, &filters[f], first[c]);
            assert_int_equal(mink_world_cast_all(w, q, queries, &filters[f], NULL, 0, starts[c]), MINK_OK);
            size_t total = starts[c][queries];
            all[c] = malloc((total + 1) * sizeof **all);
            assert_int_equal(mink_world_cast_all(w, q, queries, &filters[f], all[c], total, starts[c]), MINK_OK);
            for (size_t k = 0; k < queries; k++) {
                size_t m = brute_all(&sc[c], &filters[f], q[k], want);
                size_t got = starts[c][k + 1] - starts[c][k];
                if (m != got || (m > 0 && memcmp(want, all[c] + starts[c][k], m * sizeof *want) != 0)) {
                    fprintf(stderr, "seed %llu filter %d query %zu (shape %u at (%a, %a) by (%a, %a)): %zu hits, the "
                                    "brute force %zu\n",
                            (unsigned long long)seed, f, k, q[k].shape, (double)q[k].position.x,
                            (double)q[k].position.y, (double)q[k].translation.x, (double)q[k].translation.y, got, m);
                    fail();
                }
                int same = m > 0 ? memcmp(&want[0], &first[c][k], sizeof *want) == 0
                                 : first[c][k].hit.flags == 0 && first[c][k].body == MINK_WORLD_DEAD;
                if (!same) {
                    fprintf(stderr, "seed %llu filter %d query %zu: the first hit is not the brute force's\n",
                            (unsigned long long)seed, f, k);
                    fail();
                }
            }
            mink_world_destroy(w);
        }
        assert_int_equal(starts[0][queries], starts[1][queries]);
        assert_memory_equal(first[0], first[1], queries * sizeof **first);
        assert_memory_equal(all[0], all[1], starts[0][queries] * sizeof **all);
        for (int c = 0; c < 2; c++) {
            free(first[c]), free(all[c]), free(starts[c]);
            scene_free(&sc[c]);
        }
    }
    free(q);
    free(want);
}

/* Overlap queries against the brute force: every body seen whose interior the shape or point
 * overlaps, in slot order. */
static void check_overlaps(paths *p, uint64_t seed, size_t n, float side, size_t queries) {
    mink_world_query *q = malloc(queries * sizeof *q);
    mink_world_hit *want = malloc(n * sizeof *want);
    uint32_t *bodies[2];
    size_t *starts[2];
    scene sc[2];
    BOTH(p) {
        mink_world *w = random_world(ctxs[c], seed, n, side, 1, &sc[c]);
        mink_rng rng = mink_rng_seed(seed + 99);
        for (size_t k = 0; k < queries; k++) {
            q[k] = random_query(&rng, &sc[c], side);
            if (k % 3 == 0) q[k].shape = sc[c].ids[2]; /* the 4 x 0.2 box */
            if (k % 5 == 0) q[k].shape = sc[c].ids[4]; /* the long wall's shape: thousands of cells */
        }
        starts[c] = malloc((queries + 1) * sizeof **starts);
        assert_int_equal(mink_world_overlap(w, q, queries, NULL, NULL, 0, starts[c]), MINK_OK);
        bodies[c] = malloc((starts[c][queries] + 1) * 4);
        assert_int_equal(mink_world_overlap(w, q, queries, NULL, bodies[c], starts[c][queries], starts[c]), MINK_OK);
        for (size_t k = 0; k < queries; k++) {
            mink_world_query still = q[k];
            still.translation = mink_v2(0, 0);
            size_t m = brute_all(&sc[c], &(mink_world_filter){0}, still, want);
            assert_int_equal(starts[c][k + 1] - starts[c][k], m);
            for (size_t h = 0; h < m; h++) assert_int_equal(bodies[c][starts[c][k] + h], want[h].body);
        }
        mink_world_destroy(w);
    }
    assert_int_equal(starts[0][queries], starts[1][queries]);
    assert_memory_equal(bodies[0], bodies[1], starts[0][queries] * 4);
    for (int c = 0; c < 2; c++) {
        free(bodies[c]), free(starts[c]);
        scene_free(&sc[c]);
    }
    free(q);
    free(want);
}

/* Dense (bodies a unit apart), sparse (far apart: walks give way to scans) and worlds of boxes and
 * circles only. */
static void random_worlds_against_brute_force(void **state) {
    check_random(*state, 1, 3000, 30.0f, 1, 400);
    check_random(*state, 2, 2000, 3000.0f, 1, 300);
    check_random(*state, 3, 1000, 15.0f, 0, 300);
}

static void random_overlaps_against_brute_force(void **state) {
    check_overlaps(*state, 4, 3000, 30.0f, 300);
    check_overlaps(*state, 5, 500, 500.0f, 200);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_cases),
        cmocka_unit_test(ties_and_empty_worlds),
        cmocka_unit_test(the_grid_follows_every_change),
        cmocka_unit_test(dry_runs_by_hand),
        cmocka_unit_test(a_dry_run_is_the_step),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(random_worlds_against_brute_force),
        cmocka_unit_test(random_overlaps_against_brute_force),
    };
    return cmocka_run_group_tests(tests, paths_setup, paths_teardown);
}
