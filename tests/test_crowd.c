/* tests/test_crowd.c — dynamic bodies meeting each other (issue 29), on both paths: the three
 * failing cases, a Newton's cradle, pairs head-on and offset against a double-precision oracle,
 * momentum in a cluster without walls, energy over 1 000 steps of the arena's scene B, and a crowd
 * pushed through a door. Physical claims are checked every step, and the paths with memcmp. */
#include "test_util.h"

#include "bench/arena.h"
#include "host/world_internal.h" /* near_crowd_all, and the safety rounds' boxes */
#include "mink/world.h"

static void ok(mink_status st) {
    if (st != MINK_OK) fprintf(stderr, "%s: %s\n", mink_status_string(st), mink_last_error());
    assert_int_equal(st, MINK_OK);
}

static mink_world *new_world(mink_context *ctx, const mink_world_desc *desc) {
    mink_world *w = NULL;
    ok(mink_world_create(ctx, desc, &w));
    return w;
}

typedef struct body {
    uint32_t shape;
    mink_vec2 p, v;
    float inv_mass, restitution;
    uint32_t response;
} body;

static uint32_t add(mink_world *w, body b) {
    uint32_t h;
    mink_world_bodies in = {.count = 1, .shape = &b.shape, .position = &b.p, .velocity = &b.v,
                            .inv_mass = &b.inv_mass, .restitution = &b.restitution, .response = &b.response};
    ok(mink_world_add(w, &in, &h));
    return h;
}

static uint32_t shape(mink_world *w, mink_shape s) {
    uint32_t id;
    ok(mink_world_add_shapes(w, &s, 1, &id));
    return id;
}

static mink_vec2 get_p(mink_world *w, uint32_t h) {
    mink_vec2 p;
    ok(mink_world_get(w, &h, 1, &p, NULL));
    return p;
}

static mink_vec2 get_v(mink_world *w, uint32_t h) {
    mink_vec2 v;
    ok(mink_world_get(w, &h, 1, NULL, &v));
    return v;
}

#define BOTH(p) mink_context *ctxs[2] = {(p)->scalar, (p)->opencl}; for (int c = 0; c < 2; c++)
#define DT (1.0f / 60.0f)

/* ---- the cases ------------------------------------------------------------------------ */

/* A circle hits a wall before its path would reach a circle behind the wall: the one behind never
 * learns of it. */
static void nothing_reacts_through_a_wall(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t wall = shape(w, box_shape(0.05f, 5.0f)), disc = shape(w, circle_shape(0.1f));
        add(w, (body){wall, mink_v2(0.5f, 0.0f), mink_v2(0, 0), 0.0f, 1.0f, MINK_RESPONSE_SLIDE});
        uint32_t mover = add(w, (body){disc, mink_v2(1.0f, 0.0f), mink_v2(-120.0f, 0.0f), 1.0f, 1.0f, MINK_RESPONSE_SLIDE});
        uint32_t behind = add(w, (body){disc, mink_v2(-0.2f, 0.0f), mink_v2(0, 0), 1.0f, 1.0f, MINK_RESPONSE_SLIDE});
        for (int s = 0; s < 10; s++) {
            ok(mink_world_step(w, DT));
            assert_float_equal(get_v(w, behind).x, 0.0f, 0.0);
            assert_float_equal(get_p(w, behind).x, -0.2f, 0.0);
            assert_true(get_p(w, mover).x > 0.55f + 0.1f - 1e-3f); /* on its side of the wall */
        }
        mink_world_destroy(w);
    }
}

/* A circle moving 20 radii a step into one at rest: they meet, share the momentum (SLIDE: no
 * bounce) and the mover never ends past the other. */
static void no_pass_through(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t disc = shape(w, circle_shape(0.1f));
        uint32_t a = add(w, (body){disc, mink_v2(0.0f, 0.0f), mink_v2(120.0f, 0.0f), 1.0f, 1.0f, MINK_RESPONSE_SLIDE});
        uint32_t b = add(w, (body){disc, mink_v2(1.0f, 0.0f), mink_v2(0, 0), 1.0f, 1.0f, MINK_RESPONSE_SLIDE});
        for (int s = 0; s < 10; s++) {
            ok(mink_world_step(w, DT));
            mink_vec2 pa = get_p(w, a), pb = get_p(w, b), va = get_v(w, a), vb = get_v(w, b);
            assert_true(pb.x - pa.x >= 0.2f - 1e-4f);
            assert_float_equal(va.x + vb.x, 120.0f, 1e-3);
        }
        assert_float_equal(get_v(w, a).x, 60.0f, 1e-3); /* inelastic: both at half the speed */
        mink_world_destroy(w);
    }
}

/* A small circle moving up at a wall's underside while overlapping a large one at rest: the push
 * out of the overlap is swept like any move, so it never goes through the wall. */
static void pushes_never_cross_walls(void **state) {
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t wall = shape(w, box_shape(5.0f, 0.05f)), small = shape(w, circle_shape(0.05f)),
                 large = shape(w, circle_shape(0.2f));
        add(w, (body){wall, mink_v2(0.0f, 0.0f), mink_v2(0, 0), 0.0f, 1.0f, MINK_RESPONSE_SLIDE});
        uint32_t s1 = add(w, (body){small, mink_v2(0.0f, -1.105f), mink_v2(0.0f, 60.0f), 1.0f, 1.0f, MINK_RESPONSE_SLIDE});
        uint32_t s2 = add(w, (body){large, mink_v2(0.0f, -1.115f), mink_v2(0, 0), 1.0f, 1.0f, MINK_RESPONSE_SLIDE});
        for (int s = 0; s < 20; s++) {
            ok(mink_world_step(w, DT));
            assert_true(get_p(w, s1).y <= -0.1f + 1e-4f);
            assert_true(get_p(w, s2).y <= -0.25f + 1e-4f);
        }
        mink_world_destroy(w);
    }
}

/* A body placed inside a wall is pushed out as every push is: swept, so never into a second wall,
 * even squeezed between two closer than its size, and no farther a step than its push reach (a
 * quarter of its smaller side), so one deep inside comes out over several steps, always forward.
 * Both paths end with the same bits. */
static void pushes_out_of_walls_are_swept(void **state) {
    mink_vec2 end[2][2];
    BOTH((paths *)*state) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t tall = shape(w, box_shape(0.5f, 5.0f)), block = shape(w, box_shape(1.5f, 1.5f)),
                 disc = shape(w, circle_shape(0.2f));
        /* Walls over x in [-1, 0] and [0.3, 1.3], the disc (0.4 across) inside the first: its whole
         * depth, 0.35 along +x, would leave it 0.1 deep in the second. */
        add(w, (body){tall, mink_v2(-0.5f, 0.0f), mink_v2(0, 0), 0.0f, 1.0f, MINK_RESPONSE_SLIDE});
        add(w, (body){tall, mink_v2(0.8f, 0.0f), mink_v2(0, 0), 0.0f, 1.0f, MINK_RESPONSE_SLIDE});
        uint32_t squeezed = add(w, (body){disc, mink_v2(-0.15f, 0.0f), mink_v2(0, 0), 1.0f, 1.0f, MINK_RESPONSE_SLIDE});
        /* A block 3 across, the disc 1.5 deep in it (its nearest face +y): 0.1 a step. */
        add(w, (body){block, mink_v2(10.0f, 0.0f), mink_v2(0, 0), 0.0f, 1.0f, MINK_RESPONSE_SLIDE});
        uint32_t deep = add(w, (body){disc, mink_v2(10.0f, 0.2f), mink_v2(0, 0), 1.0f, 1.0f, MINK_RESPONSE_SLIDE});
        float last_x = -0.15f, last_y = 0.2f;
        for (int s = 0; s < 30; s++) {
            ok(mink_world_step(w, DT));
            mink_vec2 a = get_p(w, squeezed), b = get_p(w, deep);
            /* never in the second wall, never back (but for its skin, left each step at that wall) */
            assert_true(a.x + 0.2f <= 0.3f && a.x >= last_x - 1e-4f);
            assert_true(a.y == 0.0f);
            assert_true(b.x == 10.0f && b.y >= last_y && b.y - last_y <= 0.1f + 1e-6f);
            if (s < 12) assert_true(b.y - last_y >= 0.1f - 1e-6f); /* the whole reach while deep */
            last_x = a.x, last_y = b.y;
        }
        assert_true(last_y >= 1.5f + 0.2f); /* out, by its skin */
        assert_true(last_x > 0.0f);          /* out of the first wall as far as the second lets it */
        end[c][0] = get_p(w, squeezed), end[c][1] = get_p(w, deep);
        mink_world_destroy(w);
    }
    assert_memory_equal(end[0], end[1], sizeof end[0]);
}

/* ---- a Newton's cradle ------------------------------------------------------------------------ */

/* Ten balls of diameter 1 in a row, a hair apart, the first hit by an eleventh at 0.5 to 50
 * diameters a step (restitution 1; 12 impulse rounds, one a link and more). Every step: the order kept with no overlap past 1 % of a
 * diameter, momentum kept, energy never up; in the end the last ball leaves with the striker's
 * speed and the others are still. */
static void newtons_cradle(void **state) {
    const float speeds[] = {0.5f, 2.0f, 10.0f, 50.0f}; /* diameters a step */
    for (size_t k = 0; k < sizeof speeds / sizeof *speeds; k++) {
        BOTH((paths *)*state) {
            mink_world *w = new_world(ctxs[c], &(mink_world_desc){.max_rounds = 12}); /* a chain of 11 */
            uint32_t ball = shape(w, circle_shape(0.5f)), h[11];
            float v = speeds[k] / DT;
            h[0] = add(w, (body){ball, mink_v2(-1.0f - 0.5f * speeds[k], 0.0f), mink_v2(v, 0.0f), 1.0f, 1.0f,
                                 MINK_RESPONSE_BOUNCE});
            for (int b = 1; b < 11; b++)
                h[b] = add(w, (body){ball, mink_v2((float)(b - 1) * 1.001f, 0.0f), mink_v2(0, 0), 1.0f, 1.0f,
                                     MINK_RESPONSE_BOUNCE});
            double e0 = 0.5 * (double)v * v;
            for (int s = 0; s < 4; s++) {
                ok(mink_world_step(w, DT));
                mink_vec2 p[11], vel[11];
                ok(mink_world_get(w, h, 11, p, vel));
                double momentum = 0.0, energy = 0.0;
                for (int b = 0; b < 11; b++) {
                    momentum += vel[b].x;
                    energy += 0.5 * ((double)vel[b].x * vel[b].x + (double)vel[b].y * vel[b].y);
                    if (b > 0) assert_true(p[b].x - p[b - 1].x >= 0.99f);
                }
                assert_float_equal(momentum, v, 1e-5 * v);
                assert_true(energy <= e0 * (1.0 + 1e-5));
            }
            mink_vec2 vel[11];
            ok(mink_world_get(w, h, 11, NULL, vel));
            for (int b = 0; b < 10; b++) assert_float_equal(vel[b].x, 0.0f, 1e-4 * v);
            assert_float_equal(vel[10].x, v, 1e-4 * v);
            mink_world_destroy(w);
        }
    }
}

/* ---- pairs against an oracle ------------------------------------------------------------------ */

/* Two discs (radius 0.5 and 0.25), a moving right, b moving left, offset sideways by `offset` of
 * the sum of radii, placed to touch at half the step; inverse masses 1 and inv_b; restitution e.
 * The oracle, in double: the contact's normal where the relative motion first brings the centres
 * to the sum of radii, the impulse that turns the normal velocity vn into -e vn. */
static void pair_against_oracle(const paths *p, float speed, float inv_b, float offset, float e) {
    const double ra = 0.5, rb = 0.25, R = ra + rb;
    double v = speed * 1.0 / DT; /* speed: diameters of a (1) a step */
    double y = offset * R, gap_x = sqrt(R * R - y * y);
    /* At t = 0.5 the centres are gap_x apart along x: each has moved v dt / 2 towards the other. */
    double xa = -0.5 * (gap_x + v * DT), xb = 0.5 * (gap_x + v * DT);
    double nx = (xa + 0.5 * v * DT) - (xb - 0.5 * v * DT), ny = -y; /* from b to a at contact */
    double len = sqrt(nx * nx + ny * ny);
    nx /= len, ny /= len;
    double vn = (v - (-v)) * nx, impulse = -(1.0 + e) * vn / (1.0 + inv_b);
    double va_x = v + impulse * nx, va_y = impulse * ny, vb_x = -v - impulse * inv_b * nx, vb_y = -impulse * inv_b * ny;
    BOTH(p) {
        mink_world *w = new_world(ctxs[c], NULL);
        uint32_t sa = shape(w, circle_shape((float)ra)), sb = shape(w, circle_shape((float)rb));
        uint32_t a = add(w, (body){sa, mink_v2((float)xa, 0.0f), mink_v2((float)v, 0.0f), 1.0f, e, MINK_RESPONSE_BOUNCE});
        uint32_t b = add(w, (body){sb, mink_v2((float)xb, (float)y), mink_v2((float)-v, 0.0f), inv_b, e, MINK_RESPONSE_BOUNCE});
        ok(mink_world_step(w, DT));
        mink_vec2 ga = get_v(w, a), gb = get_v(w, b);
        double tol = 2e-5 * v;
        assert_float_equal(ga.x, va_x, tol);
        assert_float_equal(ga.y, va_y, tol);
        assert_float_equal(gb.x, vb_x, tol * (1.0 + inv_b));
        assert_float_equal(gb.y, vb_y, tol * (1.0 + inv_b));
        for (int s = 0; s < 5; s++) { /* apart ever after, never crossed */
            mink_vec2 pa = get_p(w, a), pb = get_p(w, b);
            double d = hypot((double)pb.x - pa.x, (double)pb.y - pa.y);
            assert_true(d >= R * 0.99);
            ok(mink_world_step(w, DT));
        }
        mink_world_destroy(w);
    }
}

static void head_on_and_offset(void **state) {
    const float speeds[] = {0.5f, 3.0f, 12.0f, 50.0f}, inv_b[] = {1.0f, 4.0f, 0.02f, 50.0f};
    const float offsets[] = {0.0f, 0.5f, 0.9f}, restitution[] = {1.0f, 0.5f, 0.0f};
    for (size_t s = 0; s < 4; s++)
        for (size_t m = 0; m < 4; m++)
            for (size_t o = 0; o < 3; o++) pair_against_oracle(*state, speeds[s], inv_b[m], offsets[o], restitution[(s + m + o) % 3]);
}

/* ---- momentum and energy --------------------------------------------------------------------- */

/* 2 000 circles and boxes of mixed masses packed in a box of 15 × 15 with no walls, moving 0.5 to
 * 2 units a step every which way (restitution 1 or 0.5), for 100 steps: momentum as at the start,
 * energy never up, and the paths bit for bit the same. */
static void momentum_in_a_cluster(void **state) {
    paths *p = *state;
    enum { N = 2000, STEPS = 100 };
    mink_world *w[2] = {new_world(p->scalar, NULL), new_world(p->opencl, NULL)};
    mink_shape shapes[4] = {circle_shape(0.1f), circle_shape(0.2f), box_shape(0.1f, 0.15f), box_shape(0.2f, 0.1f)};
    uint32_t ids[4], shape_of[N], response[N], h[2][N];
    mink_vec2 pos[N], vel[N];
    float inv[N], rest[N];
    mink_rng rng = mink_rng_seed(29);
    for (int k = 0; k < N; k++) {
        shape_of[k] = (uint32_t)(k % 4);
        pos[k] = mink_v2(mink_rng_float(&rng, -7.5f, 7.5f), mink_rng_float(&rng, -7.5f, 7.5f));
        float speed = mink_rng_float(&rng, 0.5f, 2.0f) / DT, angle = mink_rng_float(&rng, 0.0f, 6.2831853f);
        vel[k] = mink_v2(speed * cosf(angle), speed * sinf(angle));
        inv[k] = mink_rng_float(&rng, 0.5f, 2.0f);
        rest[k] = k % 3 ? 1.0f : 0.5f;
        response[k] = MINK_RESPONSE_BOUNCE;
    }
    for (int c = 0; c < 2; c++) {
        ok(mink_world_add_shapes(w[c], shapes, 4, ids));
        for (int k = 0; k < N; k++) shape_of[k] = ids[k % 4];
        mink_world_bodies b = {.count = N, .shape = shape_of, .position = pos, .velocity = vel, .inv_mass = inv,
                               .restitution = rest, .response = response};
        ok(mink_world_add(w[c], &b, h[c]));
    }
    double p0x = 0, p0y = 0, scale = 0, e_last = 0;
    for (int k = 0; k < N; k++) {
        p0x += vel[k].x / inv[k], p0y += vel[k].y / inv[k];
        scale += hypot(vel[k].x, vel[k].y) / inv[k];
        e_last += 0.5 * ((double)vel[k].x * vel[k].x + (double)vel[k].y * vel[k].y) / inv[k];
    }
    static mink_vec2 got[2][N], gv[2][N];
    size_t impulses = 0;
    for (int s = 0; s < STEPS; s++) {
        for (int c = 0; c < 2; c++) {
            ok(mink_world_step(w[c], DT));
            ok(mink_world_get(w[c], h[c], N, got[c], gv[c]));
        }
        impulses += mink_world_get_stats(w[0]).events;
        double px = 0, py = 0, e = 0;
        for (int k = 0; k < N; k++) {
            px += gv[0][k].x / inv[k], py += gv[0][k].y / inv[k];
            e += 0.5 * ((double)gv[0][k].x * gv[0][k].x + (double)gv[0][k].y * gv[0][k].y) / inv[k];
        }
        assert_true(fabs(px - p0x) <= 1e-4 * scale && fabs(py - p0y) <= 1e-4 * scale);
        assert_true(e <= e_last * (1.0 + 1e-5));
        e_last = e;
        assert_memory_equal(got[0], got[1], sizeof got[0]);
        assert_memory_equal(gv[0], gv[1], sizeof gv[0]);
    }
    assert_true(impulses > 1000); /* the cluster did collide */
    mink_world_destroy(w[0]);
    mink_world_destroy(w[1]);
}

/* The arena's scene B at 10^4 bodies for 1 000 steps: energy never grows by more than 1e-5 of
 * itself a step, nothing crosses a wall, and the paths agree bit for bit at the end. */
static void energy_over_scene_b(void **state) {
    paths *p = *state;
    enum { N = 10000, STEPS = MINK_TEST_LENGTH(1000, 125) };
    mink_world *w[2] = {new_world(p->scalar, NULL), new_world(p->opencl, NULL)};
    arena a[2];
    for (int c = 0; c < 2; c++) assert_int_equal(arena_build(w[c], N, 1, 29, &a[c]), 0);
    static mink_vec2 pos[2][N], vel[2][N], prev[N], prev_vel[N];
    ok(mink_world_get(w[0], a[0].handles, N, prev, prev_vel));
    double e0 = arena_energy(prev_vel, N), e_last = e0;
    size_t tunnelled = 0;
    for (int s = 0; s < STEPS; s++) {
        for (int c = 0; c < 2; c++) {
            ok(mink_world_step(w[c], ARENA_DT));
            ok(mink_world_get(w[c], a[c].handles, N, pos[c], vel[c]));
        }
        double e = arena_energy(vel[0], N);
        assert_true(e <= e_last * (1.0 + 1e-5));
        e_last = e;
        for (int i = 0; i < N; i++)
            tunnelled += (size_t)arena_tunnelled(&a[0], prev[i], pos[0][i], hypot(prev_vel[i].x, prev_vel[i].y) * ARENA_DT + 0.1);
        memcpy(prev, pos[0], sizeof prev);
        memcpy(prev_vel, vel[0], sizeof prev_vel);
    }
    assert_int_equal(tunnelled, 0);
    assert_memory_equal(pos[0], pos[1], sizeof pos[0]);
    assert_memory_equal(vel[0], vel[1], sizeof vel[0]);
    printf("scene B, 10^4 bodies, %d steps: energy end / start %.6f, deepest overlap %.4f\n", STEPS, e_last / e0,
           arena_deepest(&a[0], pos[0]));
    for (int c = 0; c < 2; c++) {
        arena_free(&a[c]);
        mink_world_destroy(w[c]);
    }
}

static int pair_order(const void *pa, const void *pb) {
    const mink_world_pair *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

static int event_order(const void *a, const void *b) { return memcmp(a, b, sizeof(mink_event)); }

/* The arena's scene A (bodies meet walls only, nearly all of them one crowd that moves) and 40
 * crates that meet everything: the small crowd bodies go in one cell each, the walls and crates
 * in a column and a row more (mink_grid_single_entries), and the crates mark the crowd bodies near
 * them for the safety rounds. Against the same world with one entry a cell (the host's switch held
 * off), every step: the same pairs, positions, velocities and events, on both paths, and nothing
 * through a wall. */
static void a_moving_crowd_in_one_cell_each(void **state) {
    paths *p = *state;
    enum { N = 10000, CRATES = 40, STEPS = 30 }; /* with 204 walls: 97.6 % of the bodies the crowd */
    mink_world *w[4]; /* scalar, scalar one entry a cell, OpenCL, OpenCL one entry a cell */
    arena a[4];
    mink_shape crate = box_shape(0.3f, 0.3f);
    mink_vec2 crate_pos[CRATES], crate_vel[CRATES];
    mink_rng rng = mink_rng_seed(43);
    for (int k = 0; k < CRATES; k++) {
        crate_pos[k] = mink_v2(mink_rng_float(&rng, -90.0f, 90.0f), mink_rng_float(&rng, -90.0f, 90.0f));
        crate_vel[k] = mink_v2(mink_rng_float(&rng, -60.0f, 60.0f), mink_rng_float(&rng, -60.0f, 60.0f));
    }
    uint32_t crate_shape, crate_shapes[CRATES], crate_h[CRATES];
    for (int c = 0; c < 4; c++) {
        w[c] = new_world(c < 2 ? p->scalar : p->opencl, NULL);
        assert_int_equal(arena_build(w[c], N, 0, 41, &a[c]), 0);
        ok(mink_world_add_shapes(w[c], &crate, 1, &crate_shape));
        for (int k = 0; k < CRATES; k++) crate_shapes[k] = crate_shape;
        ok(mink_world_add(w[c], &(mink_world_bodies){.count = CRATES, .shape = crate_shapes, .position = crate_pos,
                                                      .velocity = crate_vel}, crate_h));
    }
    static mink_vec2 pos[4][N], vel[4][N], prev[N], prev_vel[N];
    static mink_world_pair pairs[4][8 * N];
    static mink_event events[4][4 * N];
    ok(mink_world_get(w[0], a[0].handles, N, prev, prev_vel));
    size_t tunnelled = 0;
    for (int s = 0; s < STEPS; s++) {
        size_t np[4], ne[4];
        for (int c = 0; c < 4; c++) {
            if (c & 1) w[c]->crowd_single = 0; /* held off: counted again only after bodies change */
            ok(mink_world_step(w[c], ARENA_DT));
            assert_int_equal(w[c]->crowd_single, !(c & 1));
            ok(mink_world_get(w[c], a[c].handles, N, pos[c], vel[c]));
            ok(mink_world_pairs(w[c], pairs[c], 8 * N, &np[c]));
            ok(mink_world_events(w[c], events[c], 4 * N, &ne[c]));
            for (size_t k = 0; k < np[c]; k++)
                if (pairs[c][k].a > pairs[c][k].b) pairs[c][k] = (mink_world_pair){pairs[c][k].b, pairs[c][k].a};
            qsort(pairs[c], np[c], sizeof pairs[c][0], pair_order);
            qsort(events[c], ne[c], sizeof events[c][0], event_order);
        }
        for (int c = 1; c < 4; c++) {
            assert_int_equal(np[c], np[0]);
            assert_memory_equal(pairs[c], pairs[0], np[0] * sizeof pairs[0][0]);
            assert_memory_equal(pos[c], pos[0], sizeof pos[0]);
            assert_memory_equal(vel[c], vel[0], sizeof vel[0]);
            assert_int_equal(ne[c], ne[0]);
            assert_memory_equal(events[c], events[0], ne[0] * sizeof events[0][0]);
        }
        for (int i = 0; i < N; i++)
            tunnelled += (size_t)arena_tunnelled(&a[0], prev[i], pos[0][i], hypot(prev_vel[i].x, prev_vel[i].y) * ARENA_DT + 0.1);
        memcpy(prev, pos[0], sizeof prev);
        memcpy(prev_vel, vel[0], sizeof prev_vel);
    }
    assert_int_equal(tunnelled, 0);
    for (int c = 0; c < 4; c++) {
        arena_free(&a[c]);
        mink_world_destroy(w[c]);
    }
}

/* ---- a crowd through a door ------------------------------------------------------------------- */

/* 10^4 discs of radius 0.1 packed left of a wall with a door one disc wide (never two), each
 * step steered towards the door (velocity eased towards 2 units a second at it), inside a closed
 * room. Every step: none inside a wall, none across the wall's line but through the door, all
 * alive and finite, and the overlaps bounded; the paths bit for bit the same. */
static void crowd_through_a_door(void **state) {
    paths *p = *state;
    enum { SIDE = 100, N = SIDE * SIDE, STEPS = MINK_TEST_LENGTH(200, 100) }; /* a few through or in the doorway by then */
    const float r = 0.1f, door = 0.19f; /* 0.38 wide: one disc of 0.2 at a time, never two */
    /* A pressed crowd settles its contacts in more impulse rounds than the default (docs/world.md). */
    mink_world_desc desc = {.max_rounds = 16};
    mink_world *w[2] = {new_world(p->scalar, &desc), new_world(p->opencl, &desc)};
    static uint32_t h[2][N];
    static mink_vec2 pos[2][N], vel[2][N], prev[N];
    for (int c = 0; c < 2; c++) {
        mink_shape s[3] = {circle_shape(r), box_shape(0.05f, 20.0f), box_shape(40.0f, 0.5f)};
        uint32_t ids[3], walls[6];
        ok(mink_world_add_shapes(w[c], s, 3, ids));
        /* The dividing wall in two halves (x = 0, gap |y| < door), and the room around. */
        uint32_t wall_shape[6] = {ids[1], ids[1], ids[2], ids[2], ids[1], ids[1]};
        mink_vec2 wall_pos[6] = {mink_v2(0.0f, door + 20.0f), mink_v2(0.0f, -door - 20.0f), mink_v2(0.0f, 40.0f),
                                 mink_v2(0.0f, -40.0f), mink_v2(-39.0f, 0.0f), mink_v2(39.0f, 0.0f)};
        float inv0[6] = {0};
        mink_world_bodies wb = {.count = 6, .shape = wall_shape, .position = wall_pos, .inv_mass = inv0};
        ok(mink_world_add(w[c], &wb, walls));
        static uint32_t disc[N];
        for (int k = 0; k < N; k++) {
            disc[k] = ids[0];
            pos[c][k] = mink_v2(-1.0f - (float)(k % SIDE) * 0.25f, ((float)(k / SIDE) - SIDE * 0.5f) * 0.25f);
        }
        mink_world_bodies b = {.count = N, .shape = disc, .position = pos[c]};
        ok(mink_world_add(w[c], &b, h[c]));
    }
    memcpy(prev, pos[0], sizeof prev);
    double deepest = 0.0;
    size_t through = 0, at_door = 0;
    for (int s = 0; s < STEPS; s++) {
        for (int c = 0; c < 2; c++) {
            ok(mink_world_get(w[c], h[c], N, pos[c], vel[c]));
            for (int k = 0; k < N; k++) { /* towards the door's near side, then on to the right */
                float dx = (pos[c][k].x < 0.0f ? 0.0f : 5.0f) - pos[c][k].x, dy = -pos[c][k].y;
                float len = sqrtf(dx * dx + dy * dy) + 1e-6f;
                mink_vec2 want = mink_v2(2.0f * dx / len, 2.0f * dy / len);
                vel[c][k] = mink_v2(vel[c][k].x + (want.x - vel[c][k].x) * 0.2f, vel[c][k].y + (want.y - vel[c][k].y) * 0.2f);
            }
            mink_world_bodies set = {.count = N, .velocity = vel[c]};
            ok(mink_world_set(w[c], h[c], &set));
            ok(mink_world_step(w[c], DT));
            ok(mink_world_get(w[c], h[c], N, pos[c], NULL));
        }
        assert_memory_equal(pos[0], pos[1], sizeof pos[0]);
        for (int k = 0; k < N; k++) {
            mink_vec2 a = prev[k], b = pos[0][k];
            assert_true(isfinite(b.x) && isfinite(b.y));
            assert_true(fabsf(b.x) > 0.05f || fabsf(b.y) < door); /* not inside the dividing wall */
            assert_true(b.x > -38.5f && b.x < 38.5f && b.y > -39.5f && b.y < 39.5f);
            at_door += s == STEPS - 1 && fabsf(b.x) < 0.3f && fabsf(b.y) < door;
            if ((a.x < 0.0f) != (b.x < 0.0f)) { /* crossed the wall's line: through the door */
                float f = (0.0f - a.x) / (b.x - a.x), y = a.y + f * (b.y - a.y);
                assert_true(fabsf(y) < door);
                through += b.x > 0.0f;
            }
        }
        memcpy(prev, pos[0], sizeof prev);
        if (s % 20 == 19) {
            /* Deepest overlap between discs: neighbours found by sorting on x. */
            arena ar = {.n = N};
            static mink_aabb box[N];
            static int circle[N];
            for (int k = 0; k < N; k++) box[k] = (mink_aabb){mink_v2(-r, -r), mink_v2(r, r)}, circle[k] = 1;
            ar.shape = box, ar.is_circle = circle;
            double d = arena_deepest(&ar, pos[0]);
            deepest = d > deepest ? d : deepest;
        }
    }
    printf("door crowd: %zu of %d through in %d steps, %zu in the doorway at the end, deepest overlap %.4f of a "
           "radius\n", through, N, STEPS, at_door, deepest);
    assert_true(through + at_door > 0); /* the crowd got there (pressed at the door it may clog: docs/world.md) */
    assert_true(deepest < 0.25);
    mink_world_destroy(w[0]);
    mink_world_destroy(w[1]);
}

/* ---- the pair scan's cull --------------------------------------------------------------------- */

/* Two dynamic bodies whose planned paths meet, or which are near (what the impulse rounds look
 * at), are never culled by the pair scan (mink_entries_close), whatever their shapes and speeds. */
static void the_cull_keeps_what_the_rounds_need(void **state) {
    (void)state;
    mink_shape shapes[4] = {circle_shape(0.05f), circle_shape(0.4f), box_shape(0.3f, 0.02f), box_shape(0.1f, 0.1f)};
    mink_vec2 tri[3] = {mink_v2(-0.3f, -0.2f), mink_v2(0.3f, -0.2f), mink_v2(0.0f, 0.4f)};
    mink_shape poly = {.type = MINK_SHAPE_POLYGON};
    assert_int_equal(mink_polygon_make(tri, 3, mink_v2(0.1f, 0.05f), 0.0f, &poly.geom.polygon), MINK_POLYGON_OK);
    mink_shape all[5] = {shapes[0], shapes[1], shapes[2], shapes[3], poly};
    mink_rng rng = mink_rng_seed(2911);
    size_t kept = 0, met = 0;
    for (int k = 0; k < 200000; k++) {
        uint32_t shape_of[2] = {mink_rng_u32(&rng) % 5u, mink_rng_u32(&rng) % 5u};
        mink_vec2 pos[2], vel[2];
        float scale = k % 2 ? 1.0f : 30.0f;
        for (int i = 0; i < 2; i++) {
            pos[i] = mink_v2(mink_rng_float(&rng, -scale, scale), mink_rng_float(&rng, -scale, scale));
            vel[i] = mink_v2(mink_rng_float(&rng, -scale, scale) * 60.0f, mink_rng_float(&rng, -scale, scale) * 60.0f);
        }
        mink_body_props props[2] = {{1.0f, 1.0f, MINK_RESPONSE_BOUNCE, 1u, ~0u}, {0.5f, 1.0f, MINK_RESPONSE_SLIDE, 1u, ~0u}};
        mink_aabb bounds[2];
        mink_grid_entry records[2];
        mink_world_view v = {.count = 2, .shapes = all, .shape_of = shape_of, .props = props, .pos = pos, .vel = vel,
                             .bounds = bounds, .records = records, .counters = (uint32_t[MINK_COUNTERS]){0}};
        mink_step_state st = {.params = {.dt = DT, .iterations = 4, .hulls = 1}, .slots = 2};
        for (uint32_t i = 0; i < 2; i++) mink_bounds_item(v, st, i);
        mink_hit h = mink_sweep_placed(all + shape_of[0], pos[0], records[0].move, all + shape_of[1], pos[1],
                                       records[1].move, 1u);
        int needed = (h.flags & MINK_HIT_CONTACT) || mink_bodies_near(all + shape_of[0], pos[0], all + shape_of[1], pos[1]);
        met += (size_t)needed;
        if (!needed) continue;
        kept += (size_t)mink_entries_close(records[0], records[1]);
        assert_true(mink_entries_close(records[0], records[1]));
    }
    assert_true(met > 1000 && kept == met);
}

/* The point of shape s placed at p farthest along u (a box's corner, a polygon's vertex, a
 * capsule's end pushed out by its radius, a circle's rim), in double: where a disk is loosest. */
static void farthest(const mink_shape *s, mink_vec2 p, double ux, double uy, double *x, double *y) {
    double best = -1e300;
    if (s->type == MINK_SHAPE_CIRCLE || s->type == MINK_SHAPE_CAPSULE) {
        mink_vec2 c[2] = {s->geom.circle.center, s->geom.circle.center};
        double r = s->geom.circle.radius;
        if (s->type == MINK_SHAPE_CAPSULE) c[0] = s->geom.capsule.center1, c[1] = s->geom.capsule.center2, r = s->geom.capsule.radius;
        for (int k = 0; k < 2; k++) {
            double cx = (double)c[k].x + p.x, cy = (double)c[k].y + p.y, d = cx * ux + cy * uy;
            if (d > best) best = d, *x = cx + r * ux, *y = cy + r * uy;
        }
        return;
    }
    mink_vec2 v[MINK_MAX_POLYGON_VERTICES], at = p;
    uint32_t n = 4;
    if (s->type == MINK_SHAPE_AABB) {
        mink_aabb b = s->geom.aabb;
        v[0] = b.min, v[1] = mink_v2(b.max.x, b.min.y), v[2] = b.max, v[3] = mink_v2(b.min.x, b.max.y);
    } else {
        n = s->geom.polygon.count;
        for (uint32_t k = 0; k < n; k++) v[k] = s->geom.polygon.vertices[k];
        at = mink_v2(s->geom.polygon.position.x + p.x, s->geom.polygon.position.y + p.y);
    }
    for (uint32_t k = 0; k < n; k++) {
        double cx = (double)v[k].x + at.x, cy = (double)v[k].y + at.y, d = cx * ux + cy * uy;
        if (d > best) best = d, *x = cx, *y = cy;
    }
}

/* Shape s (a circle, box or capsule) f times as large about its own origin. */
static mink_shape scaled_shape(mink_shape s, float f) {
    if (s.type == MINK_SHAPE_CIRCLE) {
        s.geom.circle.center = mink_v2(s.geom.circle.center.x * f, s.geom.circle.center.y * f);
        s.geom.circle.radius *= f;
    } else if (s.type == MINK_SHAPE_AABB) {
        s.geom.aabb.min = mink_v2(s.geom.aabb.min.x * f, s.geom.aabb.min.y * f);
        s.geom.aabb.max = mink_v2(s.geom.aabb.max.x * f, s.geom.aabb.max.y * f);
    } else if (s.type == MINK_SHAPE_CAPSULE) {
        mink_capsule *c = &s.geom.capsule;
        c->center1 = mink_v2(c->center1.x * f, c->center1.y * f);
        c->center2 = mink_v2(c->center2.x * f, c->center2.y * f);
        c->radius *= f;
    }
    return s;
}

/* One pair of the disk test: the cull keeps every contact the sweep finds, and gives the sweep's
 * own hit when it sweeps. Returns whether the pair touched. */
static int disk_case(const mink_shape *sa, mink_vec2 pa, mink_vec2 ma, const mink_shape *sb, mink_vec2 pb, mink_vec2 mb,
                     size_t *culled) {
    const uint32_t hulls = MINK_HULLS_POLYGONS | MINK_HULLS_CAPSULES;
    mink_hit h = mink_sweep_placed(sa, pa, ma, sb, pb, mb, hulls), n = mink_sweep_placed_near(sa, pa, ma, sb, pb, mb, hulls);
    int may = mink_disks_may_meet(mink_shape_disk(sa, pa), ma, mink_shape_disk(sb, pb), mb);
    *culled += !may;
    if (h.flags & MINK_HIT_CONTACT) assert_true(may);
    if (may) assert_memory_equal(&h, &n, sizeof h);
    else assert_int_equal(n.flags, 0);
    return (h.flags & MINK_HIT_CONTACT) != 0;
}

/* The impulse and safety rounds and the narrowphase sweep a pair only when its shapes' disks may
 * meet (mink_sweep_placed_near): that cull never drops a contact. Random pairs of every shape at
 * scales 1, 30 and 10^4, and of circles, boxes and capsules at 2^-75, 2^-40 and 2^-36 (subnormal
 * squares and products), shapes whose local coordinates (10^4) their positions cancel, a small
 * circle passing each shape's farthest point (a box's corner: where its disk is loosest) within
 * 2^-20 of touching at scale 1, moves of 6e9 units, non-finite values. */
static void the_disk_cull_keeps_every_contact(void **state) {
    (void)state;
    mink_vec2 tri[3] = {mink_v2(-0.3f, -0.2f), mink_v2(0.3f, -0.2f), mink_v2(0.0f, 0.4f)};
    mink_shape all[8] = {circle_shape(0.05f), circle_shape(0.4f), box_shape(0.3f, 0.02f), box_shape(0.1f, 0.1f),
                         {.type = MINK_SHAPE_POLYGON}, {.type = MINK_SHAPE_CAPSULE}, box_shape(0.05f, 0.005f),
                         {.type = MINK_SHAPE_CAPSULE}};
    assert_int_equal(mink_polygon_make(tri, 3, mink_v2(0.1f, 0.05f), 0.0f, &all[4].geom.polygon), MINK_POLYGON_OK);
    all[0].geom.circle.center = mink_v2(0.02f, -0.03f);
    all[3].geom.aabb.min.x += 0.07f;
    all[5].geom.capsule = (mink_capsule){{-0.2f, 0.1f}, {0.3f, 0.15f}, 0.05f};
    /* Far from their own origins: placed at -10^4, what the sweeps read rounds at 10^4's ulps. */
    all[6].geom.aabb = (mink_aabb){{10000.0f, 0.0f}, {10000.0f + 101.0f / 1024.0f, 0.01f}};
    all[7].geom.capsule = (mink_capsule){{10000.0f, 0.0f}, {10000.0f + 101.0f / 1024.0f, 0.0f}, 0.001f};
    mink_rng rng = mink_rng_seed(2912);
    size_t contacts = 0, culled = 0, culled_random = 0;
    for (int k = 0; k < 300000; k++) {
        uint32_t ia = mink_rng_u32(&rng) % 8u, ib = mink_rng_u32(&rng) % 6u, c = (uint32_t)k % 4u, turn = (uint32_t)k / 4u;
        const mink_shape *sa = all + ia, *sb = all + ib;
        float scale = c == 1u ? (turn % 2u ? 30.0f : 10000.0f) : 1.0f;
        mink_vec2 pa = mink_v2(mink_rng_float(&rng, -scale, scale), mink_rng_float(&rng, -scale, scale));
        if (ia >= 6u) pa = mink_v2(-10000.0f + pa.x * 1e-3f, pa.y * 1e-3f);
        mink_vec2 ma = mink_v2(mink_rng_float(&rng, -2.0f, 2.0f), mink_rng_float(&rng, -2.0f, 2.0f)), pb, mb;
        if (c == 3u) { /* everything 2^-75, 2^-40 or 2^-36 times as large: subnormal squares and products */
            float f = turn % 3u == 0u ? 0x1p-75f : turn % 3u == 1u ? 0x1p-40f : 0x1p-36f;
            if (ia >= 4u || ib == 4u) continue; /* a polygon's normals do not scale; 6 and 7 sit at -10^4 */
            mink_shape tiny[2] = {scaled_shape(*sa, f), scaled_shape(*sb, f)};
            pa = mink_v2(pa.x * f, pa.y * f);
            pb = mink_v2(pa.x + mink_rng_float(&rng, -0.5f, 0.5f) * f, pa.y + mink_rng_float(&rng, -0.5f, 0.5f) * f);
            ma = mink_v2(ma.x * f, ma.y * f);
            mb = mink_v2(mink_rng_float(&rng, -2.0f, 2.0f) * f, mink_rng_float(&rng, -2.0f, 2.0f) * f);
            contacts += (size_t)disk_case(tiny, pa, ma, tiny + 1, pb, mb, &culled);
            continue;
        }
        if (c != 0u) { /* anywhere within a few units, at scales 1, 30 and 10^4 */
            float near = mink_rng_float(&rng, 0.5f, 4.0f);
            pb = mink_v2(pa.x + mink_rng_float(&rng, -near, near), pa.y + mink_rng_float(&rng, -near, near));
            mb = mink_v2(mink_rng_float(&rng, -2.0f, 2.0f), mink_rng_float(&rng, -2.0f, 2.0f));
            size_t before = culled;
            contacts += (size_t)disk_case(sa, pa, ma, sb, pb, mb, &culled);
            culled_random += culled - before;
            continue;
        }
        /* At scale 1: a small circle passes a's farthest point along u, relative to a, a hair in or out. */
        sb = all + 0; /* centre offset (0.02, -0.03), radius 0.05 */
        double angle = mink_rng_float(&rng, 0.0f, 6.2831853f), ux = cos(angle), uy = sin(angle), fx = 0, fy = 0;
        farthest(sa, pa, ux, uy, &fx, &fy);
        double off = 0.05 * (1.0 + (double)((int)(mink_rng_u32(&rng) % 5u) - 2) * 0x1p-20), len = mink_rng_float(&rng, 0.0f, 3.0f);
        double cx = fx + ux * off - uy * len, cy = fy + uy * off + ux * len;
        pb = mink_v2((float)(cx - 0.02), (float)(cy + 0.03));
        mb = mink_v2((float)(ma.x + 2.0 * len * uy), (float)(ma.y - 2.0 * len * ux));
        contacts += (size_t)disk_case(sa, pa, ma, sb, pb, mb, &culled);
    }
    assert_true(contacts > 10000 && culled_random > 20000);
    /* The review's cases: a box and a capsule 10^4 from their origin, placed back by -10^4, with a
     * circle inside their corner; two huge circles whose closing move squares past the floats'
     * range (|d| |m| ~ 2^64). */
    mink_shape dot = circle_shape(0.001f), huge = circle_shape(2.5e6f);
    mink_vec2 still = mink_v2(0.0f, 0.0f), at[2] = {mink_v2(0.09953f, 0.005f), mink_v2(0.0999f, 0.0f)};
    for (int t = 0; t < 2; t++) assert_true(disk_case(all + 6 + t, mink_v2(-10000.0f, 0.0f), still, &dot, at[t], still, &culled));
    float m = (float)sqrt(0x1p65 * (1.0 - 0x1p-20));
    assert_true(disk_case(&huge, still, still, &huge, mink_v2(-0.5f * m, 4.5e6f), mink_v2(m, 0.0f), &culled));
    /* Two pairs of circles near 2^-40 whose closest approach's products are subnormal: the first
     * was ruled out by rounding, the second would be on a device that flushes subnormals to 0. */
    mink_shape s1 = circle_shape(0x1.50093cp-42f), s2 = circle_shape(0x1.638332p-41f);
    assert_true(disk_case(&s1, still, still, &s2, mink_v2(-0x1.4dca3p-37f, -0x1.33ea34p-39f),
                          mink_v2(0x1.3e0a42p-33f, 0x1.a8dd2p-35f), &culled));
    mink_shape s3 = circle_shape(0x1.ea60eep-43f), s4 = circle_shape(0x1.a16862p-36f);
    assert_true(disk_case(&s3, still, mink_v2(0x1.e9670ep-53f, 0x1.94da84p-52f), &s4,
                          mink_v2(0x1.30882ap-33f, 0x1.463748p-32f), mink_v2(-0x1.63b5c4p-33f, -0x1.3e08bcp-32f), &culled));
    /* Non-finite values rule nothing out. */
    mink_circle d = {{0.0f, 0.0f}, 1.0f}, far = {{100.0f, 0.0f}, 1.0f}, bad = {{NAN, 0.0f}, 1.0f};
    assert_false(mink_disks_may_meet(d, still, far, still));
    assert_true(mink_disks_may_meet(d, still, bad, still));
    assert_true(mink_disks_may_meet(d, mink_v2(INFINITY, 0.0f), far, still));
    assert_true(mink_disks_may_meet(d, still, far, mink_v2(NAN, 1.0f)));
    assert_true(mink_disks_may_meet(d, still, (mink_circle){{100.0f, 0.0f}, INFINITY}, still));
}

/* ---- the crowd left out of the safety rounds' broadphase ---------------------------------------- */

/* A small bullet hell: bullets of a crowd that never meets itself, crates that meet everything and
 * turn on their impulses, walls, `steps` steps with the world's skin `skin`. The safety rounds'
 * broadphase leaves out the bullets that stayed within their grid box where no crate's grid box
 * met it (mink_final_bounds_item); with every bullet in (the test hook near_crowd_all) the worlds
 * must agree bit for bit, on both paths, every step. Returns the share of bullet steps the scalar
 * world left out; *events, the events it counted; *again, its steps where a crate left its grid
 * box and every bullet came back (counters[6]: the final bounds pass ran again). */
static double bullet_hell_left_out(paths *p, float skin, int steps, size_t *events, size_t *again) {
    enum { BULLETS = 2000, CRATES = 60, N = BULLETS + CRATES };
    mink_world *w[4]; /* scalar, scalar with every bullet in, OpenCL, OpenCL with every bullet in */
    mink_shape shapes[4] = {circle_shape(0.05f), box_shape(0.3f, 0.3f), box_shape(40.5f, 0.5f), box_shape(0.5f, 40.5f)};
    uint32_t ids[4], shape_of[N], response[N], category[N], mask[N], h[4][N];
    mink_vec2 pos[N], vel[N];
    float inv[N], rest[N];
    mink_rng rng = mink_rng_seed(32);
    for (int k = 0; k < N; k++) {
        int bullet = k < BULLETS;
        pos[k] = mink_v2(mink_rng_float(&rng, -38.0f, 38.0f), mink_rng_float(&rng, -38.0f, 38.0f));
        float speed = (bullet ? mink_rng_float(&rng, 1.0f, 6.0f) : mink_rng_float(&rng, 0.5f, 2.0f)) / DT;
        float angle = mink_rng_float(&rng, 0.0f, 6.2831853f);
        vel[k] = mink_v2(speed * cosf(angle), speed * sinf(angle));
        inv[k] = 1.0f;
        rest[k] = 1.0f;
        response[k] = MINK_RESPONSE_BOUNCE;
        category[k] = bullet ? 2u : 1u;
        mask[k] = bullet ? ~2u : ~0u;
    }
    mink_vec2 wall_at[4] = {{0.0f, 40.0f}, {0.0f, -40.0f}, {40.0f, 0.0f}, {-40.0f, 0.0f}};
    float zero[4] = {0};
    for (int c = 0; c < 4; c++) {
        w[c] = new_world(c < 2 ? p->scalar : p->opencl, &(mink_world_desc){.skin = skin});
        w[c]->near_crowd_all = c & 1;
        ok(mink_world_add_shapes(w[c], shapes, 4, ids));
        uint32_t wall_shape[4] = {ids[2], ids[2], ids[3], ids[3]}, walls[4];
        ok(mink_world_add(w[c], &(mink_world_bodies){.count = 4, .shape = wall_shape, .position = wall_at, .inv_mass = zero},
                          walls));
        for (int k = 0; k < N; k++) shape_of[k] = ids[k < BULLETS ? 0 : 1];
        mink_world_bodies b = {.count = N, .shape = shape_of, .position = pos, .velocity = vel, .inv_mass = inv,
                               .restitution = rest, .response = response, .category = category, .mask = mask};
        ok(mink_world_add(w[c], &b, h[c]));
    }
    static mink_vec2 got[4][N], gv[4][N];
    size_t left_out = 0, bullet_steps = 0;
    *events = *again = 0;
    for (int s = 0; s < steps; s++) {
        for (int c = 0; c < 4; c++) {
            ok(mink_world_step(w[c], DT));
            ok(mink_world_get(w[c], h[c], N, got[c], gv[c]));
            assert_int_equal(w[c]->crowd_single, 1); /* 2 000 bullets of 2 064 bodies: one cell each */
        }
        for (int c = 1; c < 4; c++) {
            assert_memory_equal(got[0], got[c], sizeof got[0]);
            assert_memory_equal(gv[0], gv[c], sizeof gv[0]);
        }
        *events += mink_world_get_stats(w[0]).events;
        *again += ((const uint32_t *)w[0]->buf[MINK_WB_COUNTERS].host)[6] != 0u;
        /* The scalar world's boxes of the safety rounds: none for a bullet left out. */
        const mink_aabb *box = w[0]->buf[MINK_WB_BOUNDS].host;
        for (size_t i = 0; i < w[0]->slots; i++) {
            if (w[0]->props[i].category != 2u) continue;
            bullet_steps++;
            left_out += box[i].min.x == INFINITY;
        }
        /* Every bullet in: none left out. */
        const mink_aabb *all = w[1]->buf[MINK_WB_BOUNDS].host;
        for (size_t i = 0; i < w[1]->slots; i++) assert_false(w[1]->props[i].category == 2u && all[i].min.x == INFINITY);
    }
    for (int c = 0; c < 4; c++) mink_world_destroy(w[c]);
    return (double)left_out / (double)bullet_steps;
}

/* With each body's own skin, many bullets are left out: what leaving them out is for. */
static void the_crowd_is_left_out_of_the_safety_rounds(void **state) {
    size_t events, again;
    double share = bullet_hell_left_out(*state, 0.0f, 120, &events, &again);
    printf("bullets left out of the safety rounds' broadphase: %.1f %% of bullet steps; %zu events; "
           "%zu steps brought them back\n", 100.0 * share, events, again);
    assert_true(share > 0.2);
    assert_true(events > 1000); /* bullets and crates met */
}

/* A skin wider than a crate's push reach: a crate that bounces off a wall a skin away may end
 * outside the grid box it marked bullets from, and then every bullet joins the safety rounds
 * again (host/world_step.c), here in about half the steps; the answers stay those of every bullet
 * in. */
static void the_crowd_comes_back_when_a_body_leaves_its_grid_box(void **state) {
    size_t events, again;
    double share = bullet_hell_left_out(*state, 0.2f, 40, &events, &again);
    printf("with a skin of 0.2: %.1f %% of bullet steps left out; %zu events; %zu steps brought them back\n",
           100.0 * share, events, again);
    assert_true(events > 300);
    assert_true(again > 10); /* what this test is for */
}

/* A crate so fast that its box over the step grows past the float range (a step of 1 at -3.4e38):
 * clamped to the range, it goes in the grid and marks the bullets in its way (left invalid, it
 * marked none, and every bullet came back into the safety rounds' broadphase); either way the
 * safety rounds stop it short of the first bullet, as with every bullet in, on both paths. */
static void bullets_stop_a_crate_near_the_float_limit(void **state) {
    paths *p = *state;
    enum { BULLETS = 3, N = BULLETS + 1 };
    const float r = 1e30f;
    mink_shape shapes[2] = {circle_shape(r), box_shape(r, r)};
    mink_vec2 pos[N] = {{-1e37f, 0.0f}, {-2e37f, 0.0f}, {-3e37f, 0.0f}, {1e37f, 0.0f}};
    mink_vec2 vel[N] = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, {-3.4e38f, 0.0f}};
    uint32_t category[N] = {2u, 2u, 2u, 1u}, mask[N] = {~2u, ~2u, ~2u, ~0u}, shape_of[N], h[4][N];
    mink_world *w[4];
    static mink_vec2 got[4][N], gv[4][N];
    for (int c = 0; c < 4; c++) {
        w[c] = new_world(c < 2 ? p->scalar : p->opencl, NULL);
        w[c]->near_crowd_all = c & 1;
        uint32_t ids[2];
        ok(mink_world_add_shapes(w[c], shapes, 2, ids));
        for (int k = 0; k < N; k++) shape_of[k] = ids[k < BULLETS ? 0 : 1];
        ok(mink_world_add(w[c], &(mink_world_bodies){.count = N, .shape = shape_of, .position = pos, .velocity = vel,
                                                     .category = category, .mask = mask},
                          h[c]));
        ok(mink_world_step(w[c], 1.0f));
        ok(mink_world_get(w[c], h[c], N, got[c], gv[c]));
    }
    for (int c = 1; c < 4; c++) {
        assert_memory_equal(got[0], got[c], sizeof got[0]);
        assert_memory_equal(gv[0], gv[c], sizeof gv[0]);
    }
    assert_true(got[0][3].x > got[0][0].x); /* never through the first bullet */
    for (int c = 0; c < 4; c++) mink_world_destroy(w[c]);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(nothing_reacts_through_a_wall, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(no_pass_through, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(pushes_never_cross_walls, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(pushes_out_of_walls_are_swept, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(newtons_cradle, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(head_on_and_offset, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(momentum_in_a_cluster, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(energy_over_scene_b, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(a_moving_crowd_in_one_cell_each, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(crowd_through_a_door, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(the_crowd_is_left_out_of_the_safety_rounds, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(the_crowd_comes_back_when_a_body_leaves_its_grid_box, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(bullets_stop_a_crate_near_the_float_limit, paths_setup, paths_teardown),
        cmocka_unit_test(the_cull_keeps_what_the_rounds_need),
        cmocka_unit_test(the_disk_cull_keeps_every_contact),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]); /* one test by name */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
