/* tests/test_world_scenes.c — long world scenes: fast bullets never pass a thin wall (boxes 0.1
 * thick, or segments of none), a box slides over a tiled floor without catching, and a mixed scene
 * gives the same bits on both paths for 1 000 steps. */
#include "test_util.h"

#include "mink/world.h"

static void ok(mink_status st) {
    if (st != MINK_OK) fprintf(stderr, "%s: %s\n", mink_status_string(st), mink_last_error());
    assert_int_equal(st, MINK_OK);
}

/* ---- fast bullets against thin walls --------------------------------------------------------- */

enum { ROOMS = 5 };
#define ROOM 20.0f
#define WALL 0.1f /* thickness: bullets move up to 100 of these a step */
#define HEIGHT 50.0f

/* A closed arena split into rooms by full-height walls 0.1 thick. Returns the walls added. */
static size_t add_arena(mink_world *w, uint32_t vertical, uint32_t horizontal) {
    uint32_t shape[ROOMS + 3], h[ROOMS + 3];
    mink_vec2 pos[ROOMS + 3];
    float inv_mass[ROOMS + 3];
    size_t n = 0;
    for (int k = 0; k <= ROOMS; k++) { /* walls centred on x = 0, 20, ... 100 */
        shape[n] = vertical;
        pos[n++] = mink_v2((float)k * ROOM, HEIGHT * 0.5f);
    }
    shape[n] = horizontal, pos[n++] = mink_v2(ROOMS * ROOM * 0.5f, 0.0f);
    shape[n] = horizontal, pos[n++] = mink_v2(ROOMS * ROOM * 0.5f, HEIGHT);
    for (size_t k = 0; k < n; k++) inv_mass[k] = 0.0f;
    mink_world_bodies b = {.count = n, .shape = shape, .position = pos, .inv_mass = inv_mass};
    ok(mink_world_add(w, &b, h));
    return n;
}

static int room_of(float x) { return (int)floorf(x / ROOM); }

/* Bullets (circles, boxes; with `segments`, capsules too) sprayed in each room for STEPS steps:
 * none ever leaves its room. With `segments` the walls are capsules of radius 0: no thickness. */
static void bullets_stay_in_their_rooms(paths *p, int segments) {
    enum { BULLETS = 600, STEPS = 1000 };
    mink_world *w[2] = {NULL, NULL};
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    mink_rng rng = mink_rng_seed(7);
    uint32_t shape[BULLETS], response[BULLETS], category[BULLETS], mask[BULLETS], h[BULLETS];
    mink_vec2 pos[BULLETS], vel[BULLETS];
    float restitution[BULLETS];
    int room[BULLETS];
    mink_shape shapes[5] = {box_shape(WALL * 0.5f, HEIGHT * 0.5f + WALL), box_shape(ROOMS * ROOM * 0.5f + WALL, WALL * 0.5f),
                            circle_shape(0.05f), box_shape(0.04f, 0.04f), capsule_shape(-0.06f, -0.02f, 0.05f, 0.03f, 0.02f)};
    if (segments) {
        shapes[0] = capsule_shape(0.0f, -HEIGHT * 0.5f - WALL, 0.0f, HEIGHT * 0.5f + WALL, 0.0f);
        shapes[1] = capsule_shape(-ROOMS * ROOM * 0.5f - WALL, 0.0f, ROOMS * ROOM * 0.5f + WALL, 0.0f, 0.0f);
    }
    int kinds = segments ? 3 : 2;
    for (int k = 0; k < BULLETS; k++) {
        room[k] = k % ROOMS;
        pos[k] = mink_v2((float)room[k] * ROOM + mink_rng_float(&rng, 1.0f, ROOM - 1.0f),
                         mink_rng_float(&rng, 1.0f, HEIGHT - 1.0f));
        float speed = mink_rng_float(&rng, 0.5f, 100.0f * WALL), angle = mink_rng_float(&rng, 0.0f, 6.2831853f);
        vel[k] = mink_v2(speed * cosf(angle), speed * sinf(angle));
        if (k % 7 == 0) vel[k] = mink_v2(k % 2 ? 10.0f : -10.0f, 0.0f); /* straight at a wall, full speed */
        response[k] = k % 10 == 0 ? MINK_RESPONSE_SLIDE : MINK_RESPONSE_BOUNCE;
        restitution[k] = k % 3 == 0 ? 1.0f : 0.9f;
        category[k] = 2u; /* bullets meet walls, not each other */
        mask[k] = 1u;
    }
    for (int c = 0; c < 2; c++) {
        ok(mink_world_create(ctxs[c], NULL, &w[c]));
        uint32_t ids[5];
        ok(mink_world_add_shapes(w[c], shapes, 5, ids));
        add_arena(w[c], ids[0], ids[1]);
        for (int k = 0; k < BULLETS; k++) shape[k] = ids[2 + k % kinds];
        mink_world_bodies b = {.count = BULLETS, .shape = shape, .position = pos, .velocity = vel,
                               .restitution = restitution, .response = response, .category = category, .mask = mask};
        ok(mink_world_add(w[c], &b, h));
    }
    size_t contacts = 0;
    mink_vec2 got[2][BULLETS], gv[2][BULLETS];
    for (int s = 0; s < STEPS; s++) {
        for (int c = 0; c < 2; c++) {
            ok(mink_world_step(w[c], 1.0f));
            ok(mink_world_get(w[c], h, BULLETS, got[c], gv[c]));
        }
        assert_memory_equal(got[0], got[1], sizeof got[0]);
        assert_memory_equal(gv[0], gv[1], sizeof gv[0]);
        contacts += mink_world_get_stats(w[0]).events;
        for (int k = 0; k < BULLETS; k++) {
            mink_vec2 q = got[0][k];
            if (room_of(q.x) != room[k] || q.y <= 0.0f || q.y >= HEIGHT)
                fprintf(stderr, "step %d: bullet %d at (%a, %a) left room %d\n", s, k, (double)q.x, (double)q.y,
                        room[k]);
            assert_int_equal(room_of(q.x), room[k]);
            assert_true(q.y > 0.0f && q.y < HEIGHT);
        }
    }
    /* The scene did what it is for: bullets hit walls thousands of times. */
    assert_true(contacts > 10 * BULLETS);
    mink_world_destroy(w[0]);
    mink_world_destroy(w[1]);
}

static void fast_bullets_never_cross_thin_walls(void **state) { bullets_stay_in_their_rooms(*state, 0); }
static void fast_bullets_never_cross_segments(void **state) { bullets_stay_in_their_rooms(*state, 1); }

/* ---- a box sliding over a floor of tiles ----------------------------------------------------- */

/* 200 tiles 1 wide, side by side; boxes and a circle pressed down onto them (the caller's
 * gravity: the velocity set each step), sliding right and left. Each step must take them the full
 * horizontal distance: a seam that caught would stop or slow one. */
static void sliding_over_tiles_never_catches(void **state) {
    paths *p = *state;
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    enum { TILES = 200, MOVERS = 4, STEPS = 300 };
    for (int c = 0; c < 2; c++) {
        mink_world *w = NULL;
        ok(mink_world_create(ctxs[c], NULL, &w));
        mink_shape shapes[4] = {box_shape(0.5f, 0.5f), box_shape(0.25f, 0.25f), box_shape(0.5f, 0.1f), circle_shape(0.3f)};
        uint32_t ids[4];
        ok(mink_world_add_shapes(w, shapes, 4, ids));
        uint32_t shape[TILES], th[TILES];
        mink_vec2 pos[TILES];
        float zero[TILES];
        for (int k = 0; k < TILES; k++) shape[k] = ids[0], pos[k] = mink_v2((float)k + 0.5f, -0.5f), zero[k] = 0.0f;
        ok(mink_world_add(w, &(mink_world_bodies){.count = TILES, .shape = shape, .position = pos, .inv_mass = zero}, th));
        /* Movers start just above the floor, on and off the seams. */
        uint32_t ms[MOVERS] = {ids[1], ids[0], ids[2], ids[3]}, mh[MOVERS];
        mink_vec2 mp[MOVERS] = {mink_v2(10.0f, 0.26f), mink_v2(50.5f, 0.51f), mink_v2(120.0f, 0.2f), mink_v2(150.3f, 0.35f)};
        const float vx[MOVERS] = {0.37f, 0.5f, -0.21f, -0.33f};
        /* Movers meet the floor, not each other. */
        uint32_t category[MOVERS] = {2, 2, 2, 2}, mask[MOVERS] = {1, 1, 1, 1};
        ok(mink_world_add(w, &(mink_world_bodies){.count = MOVERS, .shape = ms, .position = mp, .category = category,
                                                   .mask = mask}, mh));
        const float bottom[MOVERS] = {0.25f, 0.5f, 0.1f, 0.3f}; /* rest height of the centre */
        for (int s = 0; s < STEPS; s++) {
            mink_vec2 v[MOVERS], before[MOVERS], after[MOVERS], vel[MOVERS];
            for (int k = 0; k < MOVERS; k++) v[k] = mink_v2(vx[k], -0.5f);
            ok(mink_world_set(w, mh, &(mink_world_bodies){.count = MOVERS, .velocity = v}));
            ok(mink_world_get(w, mh, MOVERS, before, NULL));
            ok(mink_world_step(w, 1.0f));
            ok(mink_world_get(w, mh, MOVERS, after, vel));
            for (int k = 0; k < MOVERS; k++) {
                float dx = after[k].x - before[k].x;
                if (fabsf(dx - vx[k]) > 1e-4f)
                    fprintf(stderr, "path %d step %d mover %d: moved %g, not %g (y %g)\n", c, s, k, (double)dx,
                            (double)vx[k], (double)after[k].y);
                assert_float_equal(dx, vx[k], 1e-4);
                assert_float_equal(vel[k].x, vx[k], 0.0);
                /* On the floor (not in it, not bouncing off it). */
                assert_true(after[k].y > bottom[k] && after[k].y < bottom[k] + 0.01f);
            }
        }
        mink_world_destroy(w);
    }
}

/* ---- a mixed scene, both paths, 1 000 steps ------------------------------------------------------ */

/* The polygon and capsule bodies are boxes (shape 3) until step POLYGONS_FROM, when the polygon
 * shape is added and set on them, and the capsule ones until CAPSULES_FROM: the worlds run each of
 * the three builds of the passes that sweep (kernels/world.cl). */
enum { POLYGONS_FROM = 300, CAPSULES_FROM = 600 };
static uint32_t scene_shape(const uint32_t *ids, uint32_t shape, int step) {
    int later = (shape == 6 && step < POLYGONS_FROM) || (shape == 7 && step < CAPSULES_FROM);
    return ids[later ? 3 : shape];
}

static void mixed_scene_is_bit_identical(void **state) {
    paths *p = *state;
    enum { BODIES = 400, STEPS = 1000 };
    mink_world *w[2] = {NULL, NULL};
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    mink_shape shapes[8] = {box_shape(WALL * 0.5f, HEIGHT * 0.5f + WALL), box_shape(ROOMS * ROOM * 0.5f + WALL, WALL * 0.5f),
                            circle_shape(0.3f), box_shape(0.4f, 0.25f), circle_shape(1.5f), box_shape(2.0f, 2.0f), {0},
                            capsule_shape(-0.5f, -0.1f, 0.4f, 0.2f, 0.2f)};
    mink_vec2 pent[5] = {mink_v2(1, 0), mink_v2(0.31f, 0.95f), mink_v2(-0.81f, 0.59f), mink_v2(-0.81f, -0.59f),
                         mink_v2(0.31f, -0.95f)};
    shapes[6].type = MINK_SHAPE_POLYGON;
    assert_int_equal(mink_polygon_make(pent, 5, mink_v2(0, 0), 0.0f, &shapes[6].geom.polygon), MINK_POLYGON_OK);
    mink_rng rng = mink_rng_seed(99);
    uint32_t shape[BODIES], response[BODIES], h[2][BODIES];
    mink_vec2 pos[BODIES], vel[BODIES];
    float inv_mass[BODIES], restitution[BODIES];
    uint32_t ids[8];
    for (int k = 0; k < BODIES; k++) {
        int kind = k % 20; /* mostly small dynamic bodies; some heavy, kinematic movers, sensors */
        shape[k] = kind < 8 ? 2 : kind < 14 ? 3 : kind < 16 ? 6 : kind < 17 ? 7 : kind < 19 ? 4 : 5;
        pos[k] = mink_v2(mink_rng_float(&rng, 1.0f, ROOMS * ROOM - 1.0f), mink_rng_float(&rng, 2.0f, HEIGHT - 2.0f));
        vel[k] = mink_v2(mink_rng_float(&rng, -8.0f, 8.0f), mink_rng_float(&rng, -8.0f, 8.0f));
        inv_mass[k] = kind == 18 ? 0.0f : kind == 17 ? 0.1f : 1.0f;
        response[k] = kind == 19 ? MINK_RESPONSE_SENSOR : (uint32_t)(k % 3); /* slide, stop, bounce */
        restitution[k] = mink_rng_float(&rng, 0.5f, 1.0f);
    }
    for (int c = 0; c < 2; c++) {
        ok(mink_world_create(ctxs[c], &(mink_world_desc){.initial_bodies = 16}, &w[c]));
        ok(mink_world_add_shapes(w[c], shapes, 6, ids));
        add_arena(w[c], ids[0], ids[1]);
        uint32_t sh[BODIES];
        for (int k = 0; k < BODIES; k++) sh[k] = scene_shape(ids, shape[k], 0);
        ok(mink_world_add(w[c], &(mink_world_bodies){.count = BODIES, .shape = sh, .position = pos, .velocity = vel,
                                                      .inv_mass = inv_mass, .restitution = restitution,
                                                      .response = response}, h[c]));
    }
    size_t slots = mink_world_get_stats(w[0]).slots, total_events = 0;
    mink_vec2 *gp[2], *gv[2];
    mink_event *ev[2];
    size_t cap = 1 << 14;
    for (int c = 0; c < 2; c++) {
        gp[c] = malloc((slots + BODIES) * sizeof(mink_vec2));
        gv[c] = malloc((slots + BODIES) * sizeof(mink_vec2));
        ev[c] = malloc(cap * sizeof(mink_event));
    }
    for (int s = 0; s < STEPS; s++) {
        if (s % 100 == 50) { /* churn: remove twenty bodies, add twenty, nudge some */
            uint32_t gone[20], born[2][20];
            for (int k = 0; k < 20; k++) gone[k] = h[0][(s / 100 * 20 + k * 7) % BODIES];
            for (int c = 0; c < 2; c++) {
                ok(mink_world_remove(w[c], gone, 20));
                uint32_t sh[20];
                for (int k = 0; k < 20; k++) sh[k] = scene_shape(ids, shape[k], s);
                ok(mink_world_add(w[c], &(mink_world_bodies){.count = 20, .shape = sh, .position = pos, .velocity = vel},
                                  born[c]));
                for (int k = 0; k < 20; k++) h[c][(s / 100 * 20 + k * 7) % BODIES] = born[c][k];
                mink_vec2 kick[20];
                for (int k = 0; k < 20; k++) kick[k] = mink_v2(3.0f, -(float)k);
                ok(mink_world_set(w[c], h[c] + 100, &(mink_world_bodies){.count = 20, .velocity = kick}));
            }
            assert_memory_equal(born[0], born[1], sizeof born[0]);
        }
        if (s == POLYGONS_FROM || s == CAPSULES_FROM)
            for (int c = 0; c < 2; c++) {
                uint32_t added = s == POLYGONS_FROM ? 6u : 7u;
                ok(mink_world_add_shapes(w[c], shapes + added, 1, ids + added));
                assert_int_equal(ids[added], added);
                for (int k = 0; k < BODIES; k++)
                    if (shape[k] == added)
                        ok(mink_world_set(w[c], &h[c][k], &(mink_world_bodies){.count = 1, .shape = &ids[added]}));
            }
        size_t n[2];
        for (int c = 0; c < 2; c++) {
            ok(mink_world_step(w[c], 1.0f / 8.0f));
            slots = mink_world_get_stats(w[c]).slots;
            ok(mink_world_get(w[c], NULL, slots, gp[c], gv[c]));
            ok(mink_world_events(w[c], ev[c], cap, &n[c]));
        }
        assert_int_equal(n[0], n[1]);
        if (memcmp(gp[0], gp[1], slots * sizeof(mink_vec2)) != 0 || memcmp(gv[0], gv[1], slots * sizeof(mink_vec2)))
            for (size_t k = 0; k < slots; k++)
                if (memcmp(&gp[0][k], &gp[1][k], 8) || memcmp(&gv[0][k], &gv[1][k], 8)) {
                    fprintf(stderr, "step %d slot %zu: scalar (%a %a) v (%a %a), OpenCL (%a %a) v (%a %a)\n", s, k,
                            (double)gp[0][k].x, (double)gp[0][k].y, (double)gv[0][k].x, (double)gv[0][k].y,
                            (double)gp[1][k].x, (double)gp[1][k].y, (double)gv[1][k].x, (double)gv[1][k].y);
                    break;
                }
        assert_memory_equal(gp[0], gp[1], slots * sizeof(mink_vec2));
        assert_memory_equal(gv[0], gv[1], slots * sizeof(mink_vec2));
        assert_memory_equal(ev[0], ev[1], (n[0] < cap ? n[0] : cap) * sizeof(mink_event));
        total_events += n[0];
    }
    assert_true(total_events > 1000); /* a scene where things happen */
    for (int c = 0; c < 2; c++) {
        free(gp[c]), free(gv[c]), free(ev[c]);
        mink_world_destroy(w[c]);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fast_bullets_never_cross_thin_walls, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(fast_bullets_never_cross_segments, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(sliding_over_tiles_never_catches, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(mixed_scene_is_bit_identical, paths_setup, paths_teardown),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
