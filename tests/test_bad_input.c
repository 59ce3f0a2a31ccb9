/* tests/test_bad_input.c — every kind of bad value docs/reliability.md lists, planted among good
 * pairs: the bad pair answers INVALID (every other field 0), and each good pair answers with the
 * same bits as in a batch without the bad ones, on both paths, in the mixed batch and in the typed
 * batch of its kind. Values that are odd but valid (subnormals, ±FLT_MAX, zero sizes, dt 0) are
 * planted too: they must answer without NaN, and the same on both paths. */
#include <float.h>

#include "mink/world.h"
#include "test_util.h"

#define N 96
static const size_t planted[] = {0, 7, 41, 95}; /* first, middle, last */
#define PLANTED (sizeof planted / sizeof planted[0])

/* One bad (or odd) body, made from a good one. */
typedef struct bad_case {
    const char *what;
    int invalid; /* 1: must come back INVALID; 0: odd but valid */
    mink_body (*make)(float value);
    float value;
} bad_case;

static mink_body box_min_x(float v) {
    mink_aabb b = {{v, 0.0f}, {1.0f, 1.0f}};
    if (!(v <= 1.0f)) b.max.x = v; /* keep min <= max when v is a large finite value */
    return mink_body_aabb(b, mink_v2(1.0f, 0.0f));
}
static mink_body box_velocity(float v) { return mink_body_aabb((mink_aabb){{0, 0}, {1, 1}}, mink_v2(v, 0.0f)); }
static mink_body box_inverted(float v) { return mink_body_aabb((mink_aabb){{1, 0}, {1.0f - v, 1}}, mink_v2(0, 0)); }
static mink_body circle_centre(float v) { return mink_body_circle((mink_circle){{v, 0.0f}, 1.0f}, mink_v2(0, 1)); }
static mink_body circle_radius(float v) { return mink_body_circle((mink_circle){{0, 0}, v}, mink_v2(0, 1)); }
static mink_body circle_velocity(float v) { return mink_body_circle((mink_circle){{0, 0}, 1.0f}, mink_v2(0, v)); }
static mink_body spin(float v) {
    mink_body b = box_velocity(1.0f);
    b.angular_velocity = v;
    return b;
}
static mink_body unknown_tag(float v) {
    mink_body b = box_velocity(1.0f);
    b.type = (uint32_t)v;
    return b;
}

/* Polygons as the constructor leaves them: refused points give the all-zero polygon. */
static mink_body polygon_from(const mink_vec2 *pts, uint32_t n, float angle) {
    mink_polygon p;
    mink_polygon_make(pts, n, mink_v2(0.0f, 0.0f), angle, &p);
    return mink_body_polygon(p, mink_v2(1.0f, 0.0f));
}
static mink_body polygon_vertex(float v) {
    const mink_vec2 pts[3] = {{0, 0}, {v, 0}, {0, 1}};
    return polygon_from(pts, 3, 0.0f);
}
static mink_body polygon_angle(float v) {
    const mink_vec2 pts[3] = {{0, 0}, {1, 0}, {0, 1}};
    return polygon_from(pts, 3, v);
}
static mink_body polygon_clockwise(float v) {
    (void)v;
    const mink_vec2 pts[3] = {{0, 0}, {0, 1}, {1, 0}};
    return polygon_from(pts, 3, 0.0f);
}
static mink_body polygon_non_convex(float v) {
    (void)v;
    const mink_vec2 pts[4] = {{0, 0}, {2, 0}, {1, 0.5f}, {1, 2}};
    return polygon_from(pts, 4, 0.0f);
}
static mink_body polygon_pentagram(float v) {
    (void)v;
    const mink_vec2 pts[5] = {{0, 1}, {-0.588f, -0.809f}, {0.951f, 0.309f}, {-0.951f, 0.309f}, {0.588f, -0.809f}};
    return polygon_from(pts, 5, 0.0f);
}
static mink_body polygon_repeated(float v) {
    (void)v;
    const mink_vec2 pts[4] = {{0, 0}, {1, 0}, {1, 0}, {0, 1}};
    return polygon_from(pts, 4, 0.0f);
}
static mink_body polygon_too_few(float v) {
    (void)v;
    const mink_vec2 pts[2] = {{0, 0}, {1, 0}};
    return polygon_from(pts, 2, 0.0f);
}
/* A record made by hand, not by the constructor: queries check it again. */
static mink_body polygon_hand_made(float v) {
    mink_body b = polygon_vertex(1.0f);
    b.shape.polygon.vertices[1].x = v; /* (0,0) (v,0) (0,1): clockwise for v < 0, or NaN */
    return b;
}

static const bad_case cases[] = {
    {"NaN box corner", 1, box_min_x, NAN},
    {"+inf box corner", 1, box_min_x, INFINITY},
    {"-inf box corner", 1, box_min_x, -INFINITY},
    {"NaN box velocity", 1, box_velocity, NAN},
    {"+inf box velocity", 1, box_velocity, INFINITY},
    {"inverted box", 1, box_inverted, 0.5f},
    {"NaN circle centre", 1, circle_centre, NAN},
    {"-inf circle centre", 1, circle_centre, -INFINITY},
    {"NaN radius", 1, circle_radius, NAN},
    {"negative radius", 1, circle_radius, -1.0f},
    {"-0 radius (a point)", 0, circle_radius, -0.0f},
    {"inf radius", 1, circle_radius, INFINITY},
    {"NaN circle velocity", 1, circle_velocity, NAN},
    {"NaN angular velocity", 1, spin, NAN},
    {"inf angular velocity", 1, spin, INFINITY},
    {"shape tag 0", 1, unknown_tag, 0.0f},
    {"shape tag 99", 1, unknown_tag, 99.0f},
    {"NaN polygon vertex", 1, polygon_vertex, NAN},
    {"inf polygon vertex", 1, polygon_vertex, INFINITY},
    {"polygon angle beyond MINK_MAX_ANGLE", 1, polygon_angle, 1e6f},
    {"NaN polygon angle", 1, polygon_angle, NAN},
    {"clockwise polygon", 1, polygon_clockwise, 0.0f},
    {"non-convex polygon", 1, polygon_non_convex, 0.0f},
    {"pentagram", 1, polygon_pentagram, 0.0f},
    {"repeated polygon point", 1, polygon_repeated, 0.0f},
    {"two-point polygon", 1, polygon_too_few, 0.0f},
    {"hand-made clockwise record", 1, polygon_hand_made, -1.0f},
    {"hand-made NaN record", 1, polygon_hand_made, NAN},
    {"subnormal box corner", 0, box_min_x, 1e-45f},
    {"subnormal velocity", 0, box_velocity, -1e-40f},
    {"subnormal radius", 0, circle_radius, 1e-42f},
    {"FLT_MAX box corner", 0, box_min_x, FLT_MAX},
    {"-FLT_MAX box corner", 0, box_min_x, -FLT_MAX},
    {"FLT_MAX velocity", 0, box_velocity, FLT_MAX},
    {"FLT_MAX circle centre", 0, circle_centre, FLT_MAX},
    {"FLT_MAX radius", 0, circle_radius, FLT_MAX},
    {"-FLT_MAX circle velocity", 0, circle_velocity, -FLT_MAX},
    {"FLT_MAX polygon vertex", 0, polygon_vertex, FLT_MAX},
};
#define CASES (sizeof cases / sizeof cases[0])

static void check_no_nan(const mink_hit *h, const char *what) {
    if (isnan(h->t) || isnan(h->normal.x) || isnan(h->normal.y) || isnan(h->depth) || isnan(h->point.x) ||
        isnan(h->point.y) || isnan(h->t_exit))
        fail_msg("%s: a NaN in the result", what);
}

static void check_planted(const mink_hit *got, const mink_hit *clean, const bad_case *c, const char *batch) {
    const mink_hit invalid = {.flags = MINK_HIT_INVALID};
    for (size_t k = 0, p = 0; k < N; k++) {
        check_no_nan(&got[k], c->what);
        if (p < PLANTED && k == planted[p]) {
            p++;
            if (c->invalid && memcmp(&got[k], &invalid, sizeof invalid) != 0)
                fail_msg("%s (%s batch, pair %zu): flags %u, not INVALID with all else 0", c->what, batch, k,
                         (unsigned)got[k].flags);
        } else if (memcmp(&got[k], &clean[k], sizeof clean[k]) != 0) {
            fail_msg("%s (%s batch): good pair %zu changed", c->what, batch, k);
        }
    }
}

/* Both bodies of each planted pair, in turn, are the bad one. */
static void mixed_batches(const paths *p, float dt) {
    static mink_pair pairs[N], bad[N];
    static mink_hit clean[N], got[N], other[N];
    mink_sample_pairs(11, N, pairs);
    assert_int_equal(mink_batch_sweep(p->scalar, pairs, N, dt, clean), MINK_OK);
    for (size_t c = 0; c < CASES; c++) {
        for (int side = 0; side < 2; side++) {
            memcpy(bad, pairs, sizeof bad);
            for (size_t k = 0; k < PLANTED; k++) {
                mink_body *b = side ? &bad[planted[k]].b : &bad[planted[k]].a;
                *b = cases[c].make(cases[c].value);
            }
            assert_int_equal(mink_batch_sweep(p->scalar, bad, N, dt, got), MINK_OK);
            check_planted(got, clean, &cases[c], "mixed");
            assert_int_equal(mink_batch_sweep(p->opencl, bad, N, dt, other), MINK_OK);
            if (memcmp(got, other, sizeof got) != 0) fail_msg("%s: the paths differ", cases[c].what);
            assert_int_equal(mink_batch_sweep_rotating(p->opencl, bad, N, dt, NULL, other), MINK_OK);
            for (size_t k = 0; k < N; k++) check_no_nan(&other[k], cases[c].what);
        }
    }
}

static void bad_bodies_in_mixed_batches(void **state) { mixed_batches(*state, 1.0f); }
/* dt 0 is a valid step: overlap tests only. */
static void bad_bodies_with_a_zero_step(void **state) { mixed_batches(*state, 0.0f); }

/* The typed batches read their own records: the same cases where they have the field. */
static void bad_values_in_typed_batches(void **state) {
    const paths *p = *state;
    static mink_aabb_pair boxes[N], bad_boxes[N];
    static mink_circle_pair circles[N], bad_circles[N];
    static mink_circle_aabb_pair mixed[N], bad_mixed[N];
    static mink_hit clean[3][N], got[N], other[N];
    mink_sample_aabb_pairs(12, N, boxes);
    mink_sample_circle_pairs(13, N, circles);
    mink_sample_circle_aabb_pairs(14, N, mixed);
    assert_int_equal(mink_batch_sweep_aabb(p->scalar, boxes, N, 1.0f, clean[0]), MINK_OK);
    assert_int_equal(mink_batch_sweep_circle(p->scalar, circles, N, 1.0f, clean[1]), MINK_OK);
    assert_int_equal(mink_batch_sweep_circle_aabb(p->scalar, mixed, N, 1.0f, clean[2]), MINK_OK);
    for (size_t c = 0; c < CASES; c++) {
        mink_body b = cases[c].make(cases[c].value);
        if (b.type != MINK_SHAPE_AABB && b.type != MINK_SHAPE_CIRCLE) continue;
        if (b.angular_velocity != 0.0f) continue; /* typed records have no spin */
        memcpy(bad_boxes, boxes, sizeof boxes);
        memcpy(bad_circles, circles, sizeof circles);
        memcpy(bad_mixed, mixed, sizeof mixed);
        for (size_t k = 0; k < PLANTED; k++) {
            size_t i = planted[k];
            if (b.type == MINK_SHAPE_AABB) {
                bad_boxes[i].b = b.shape.aabb, bad_boxes[i].vb = b.velocity;
                bad_mixed[i].b = b.shape.aabb, bad_mixed[i].vb = b.velocity;
            } else {
                bad_circles[i].a = b.shape.circle, bad_circles[i].va = b.velocity;
                bad_mixed[i].a = b.shape.circle, bad_mixed[i].va = b.velocity;
            }
        }
        if (b.type == MINK_SHAPE_AABB) {
            assert_int_equal(mink_batch_sweep_aabb(p->scalar, bad_boxes, N, 1.0f, got), MINK_OK);
            check_planted(got, clean[0], &cases[c], "box");
            assert_int_equal(mink_batch_sweep_aabb(p->opencl, bad_boxes, N, 1.0f, other), MINK_OK);
            if (memcmp(got, other, sizeof got) != 0) fail_msg("%s: the box paths differ", cases[c].what);
        } else {
            assert_int_equal(mink_batch_sweep_circle(p->scalar, bad_circles, N, 1.0f, got), MINK_OK);
            check_planted(got, clean[1], &cases[c], "circle");
            assert_int_equal(mink_batch_sweep_circle(p->opencl, bad_circles, N, 1.0f, other), MINK_OK);
            if (memcmp(got, other, sizeof got) != 0) fail_msg("%s: the circle paths differ", cases[c].what);
        }
        assert_int_equal(mink_batch_sweep_circle_aabb(p->scalar, bad_mixed, N, 1.0f, got), MINK_OK);
        check_planted(got, clean[2], &cases[c], "circle-box");
        assert_int_equal(mink_batch_sweep_circle_aabb(p->opencl, bad_mixed, N, 1.0f, other), MINK_OK);
        if (memcmp(got, other, sizeof got) != 0) fail_msg("%s: the circle-box paths differ", cases[c].what);
    }
}

/* The capsule batches: a capsule's bad centre, radius or velocity (either side of a capsule pair,
 * the capsule or the circle of a capsule–circle pair) marks its own pair INVALID on both paths. */
typedef struct capsule_case {
    const char *what;
    int field; /* 0 a centre's x, 1 a centre's y, 2 radius, 3 velocity.y */
    float value;
} capsule_case;

static void plant_capsule(mink_capsule *c, mink_vec2 *v, const capsule_case *k) {
    if (k->field == 0) c->center1.x = k->value;
    if (k->field == 1) c->center2.y = k->value;
    if (k->field == 2) c->radius = k->value;
    if (k->field == 3) v->y = k->value;
}

static void plant_circle(mink_circle *c, mink_vec2 *v, const capsule_case *k) {
    if (k->field == 0) c->center.x = k->value;
    if (k->field == 1) c->center.y = k->value;
    if (k->field == 2) c->radius = k->value;
    if (k->field == 3) v->y = k->value;
}

static void bad_values_in_capsule_batches(void **state) {
    const paths *p = *state;
    static const capsule_case kinds[] = {{"NaN centre", 0, NAN},        {"inf centre", 1, INFINITY},
                                         {"negative radius", 2, -0.5f}, {"NaN radius", 2, NAN},
                                         {"inf radius", 2, INFINITY},   {"NaN velocity", 3, NAN}};
    static mink_capsule_pair caps[N], bad_caps[N];
    static mink_capsule_circle_pair cc[N], bad_cc[N];
    static mink_hit clean[2][N], got[N], other[N];
    mink_sample_capsule_pairs(15, N, caps);
    mink_sample_capsule_circle_pairs(16, N, cc);
    assert_int_equal(mink_batch_sweep_capsule(p->scalar, caps, N, 1.0f, clean[0]), MINK_OK);
    assert_int_equal(mink_batch_sweep_capsule_circle(p->scalar, cc, N, 1.0f, clean[1]), MINK_OK);
    bad_case planted_case = {0};
    planted_case.invalid = 1;
    for (size_t c = 0; c < sizeof kinds / sizeof kinds[0]; c++)
        for (int side = 0; side < 2; side++) {
            planted_case.what = kinds[c].what;
            memcpy(bad_caps, caps, sizeof caps);
            memcpy(bad_cc, cc, sizeof cc);
            for (size_t k = 0; k < PLANTED; k++) {
                mink_capsule_pair *q = &bad_caps[planted[k]];
                mink_capsule_circle_pair *r = &bad_cc[planted[k]];
                plant_capsule(side ? &q->b : &q->a, side ? &q->vb : &q->va, &kinds[c]);
                if (side) plant_circle(&r->b, &r->vb, &kinds[c]);
                else plant_capsule(&r->a, &r->va, &kinds[c]);
            }
            assert_int_equal(mink_batch_sweep_capsule(p->scalar, bad_caps, N, 1.0f, got), MINK_OK);
            check_planted(got, clean[0], &planted_case, "capsule");
            assert_int_equal(mink_batch_sweep_capsule(p->opencl, bad_caps, N, 1.0f, other), MINK_OK);
            if (memcmp(got, other, sizeof got) != 0) fail_msg("%s: the capsule paths differ", kinds[c].what);
            assert_int_equal(mink_batch_sweep_capsule_circle(p->scalar, bad_cc, N, 1.0f, got), MINK_OK);
            check_planted(got, clean[1], &planted_case, "capsule-circle");
            assert_int_equal(mink_batch_sweep_capsule_circle(p->opencl, bad_cc, N, 1.0f, other), MINK_OK);
            if (memcmp(got, other, sizeof got) != 0) fail_msg("%s: the capsule-circle paths differ", kinds[c].what);
        }
}

/* A single query with a bad dt is INVALID (a batch refuses it: test_context). */
static void scalar_bad_dt_in_single_queries(void **state) {
    (void)state;
    const float bad[] = {NAN, INFINITY, -INFINITY, -1.0f, -FLT_MIN};
    mink_pair pair;
    mink_sample_pairs(15, 1, &pair);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mink_hit h = mink_sweep_bodies(pair.a, pair.b, bad[k]);
        assert_int_equal(h.flags, MINK_HIT_INVALID);
        h = mink_sweep_aabb((mink_aabb){{0, 0}, {1, 1}}, mink_v2(1, 0), (mink_aabb){{2, 0}, {3, 1}}, mink_v2(0, 0), bad[k]);
        assert_int_equal(h.flags, MINK_HIT_INVALID);
    }
}

/* A world refuses a bad field in add or set, naming the body, and changes nothing; a bad dt moves
 * nothing. */
/* A batch whose hits overlap its pairs (in place, or shifted by a record) is refused, every kind,
 * both paths, with nothing written; mink_world_add_shapes may be given ids over its own shapes. */
static void in_place_is_refused(void **state) {
    const paths *p = *state;
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    enum { M = 64 };
    static mink_pair buf[M + 1]; /* the largest record; room for a shifted start */
    mink_sample_pairs(3, M + 1, buf);
    mink_pair copy[M + 1];
    memcpy(copy, buf, sizeof buf);
    for (int c = 0; c < 2; c++)
        for (int shift = 0; shift < 2; shift++) {
            mink_hit *h = (mink_hit *)(buf + shift);
            mink_status st[] = {
                mink_batch_sweep_aabb(ctxs[c], (const mink_aabb_pair *)buf, M, 1.0f, h),
                mink_batch_sweep_circle(ctxs[c], (const mink_circle_pair *)buf, M, 1.0f, h),
                mink_batch_sweep_circle_aabb(ctxs[c], (const mink_circle_aabb_pair *)buf, M, 1.0f, h),
                mink_batch_sweep_polygon(ctxs[c], (const mink_polygon_pair *)buf, M / 2, 1.0f, h),
                mink_batch_sweep_polygon_aabb(ctxs[c], (const mink_polygon_aabb_pair *)buf, M, 1.0f, h),
                mink_batch_sweep_polygon_circle(ctxs[c], (const mink_polygon_circle_pair *)buf, M, 1.0f, h),
                mink_batch_sweep_capsule(ctxs[c], (const mink_capsule_pair *)buf, M, 1.0f, h),
                mink_batch_sweep_capsule_circle(ctxs[c], (const mink_capsule_circle_pair *)buf, M, 1.0f, h),
                mink_batch_sweep(ctxs[c], buf, M, 1.0f, h),
                mink_batch_sweep_rotating(ctxs[c], buf, M, 1.0f, NULL, h),
            };
            for (size_t k = 0; k < sizeof st / sizeof st[0]; k++) assert_int_equal(st[k], MINK_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(mink_last_error(), "overlaps the input"));
            assert_memory_equal(buf, copy, sizeof buf);
        }
    /* columns: a hit column over an input column */
    static float col[20][M];
    mink_aabb_pair_soa in = {col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7], col[8], col[9], col[10],
                             col[11]};
    mink_hit_soa out = {col[12], col[13], col[14], col[15], col[16], col[17], col[18], (uint32_t *)col[5]};
    for (int c = 0; c < 2; c++) {
        assert_int_equal(mink_batch_sweep_aabb_soa(ctxs[c], &in, M, 1.0f, &out), MINK_ERR_INVALID_ARGUMENT);
        out.flags = (uint32_t *)col[19];
        assert_int_equal(mink_batch_sweep_aabb_soa(ctxs[c], &in, M, 1.0f, &out), MINK_OK);
        out.flags = (uint32_t *)col[5];
    }

    for (int c = 0; c < 2; c++) {
        mink_world *w = NULL;
        assert_int_equal(mink_world_create(ctxs[c], NULL, &w), MINK_OK);
        mink_shape shapes[3] = {{.type = MINK_SHAPE_CIRCLE, .geom.circle = {{0.0f, 0.0f}, 1.0f}},
                                {.type = MINK_SHAPE_AABB, .geom.aabb = {{-1.0f, -2.0f}, {1.0f, 2.0f}}},
                                {.type = MINK_SHAPE_CIRCLE, .geom.circle = {{0.0f, 0.0f}, 3.0f}}};
        mink_shape first = shapes[0];
        assert_int_equal(mink_world_add_shapes(w, &first, 1, (uint32_t[1]){0}), MINK_OK);
        uint32_t *ids = (uint32_t *)&shapes[2]; /* over a shape not yet read */
        assert_int_equal(mink_world_add_shapes(w, shapes, 3, ids), MINK_OK);
        assert_int_equal(ids[0], 1u);
        assert_int_equal(ids[1], 2u);
        assert_int_equal(ids[2], 3u);
        /* the shapes went in as given: a circle of shape 3 (radius 3) moving up 2 a step meets a box
         * of shape 2 (2 high each side) whose face is 4 away at t = 0.5 */
        uint32_t sh[2] = {3u, 2u}, hs[2];
        mink_vec2 pos[2] = {{0.0f, 0.0f}, {0.0f, 6.0f}}, vel[2] = {{0.0f, 2.0f}, {0.0f, 0.0f}};
        float inv[2] = {1.0f, 0.0f};
        mink_world_bodies b = {.count = 2, .shape = sh, .position = pos, .velocity = vel, .inv_mass = inv};
        assert_int_equal(mink_world_add(w, &b, hs), MINK_OK);
        assert_int_equal(mink_world_step(w, 1.0f), MINK_OK);
        mink_event e[4];
        size_t n = 0;
        assert_int_equal(mink_world_events(w, e, 4, &n), MINK_OK);
        assert_int_equal(n, 1);
        assert_float_equal(e[0].t, 0.5f, 1e-3f);
        /* handles written over the shape ids the call reads */
        uint32_t both[2] = {1u, 1u};
        mink_world_bodies more = {.count = 2, .shape = both};
        assert_int_equal(mink_world_add(w, &more, both), MINK_OK);
        assert_int_equal(mink_world_step(w, 1.0f), MINK_OK);
        mink_vec2 got[2];
        assert_int_equal(mink_world_get(w, both, 2, got, NULL), MINK_OK);
        mink_world_destroy(w);
    }
}

static void bad_world_fields(void **state) {
    const paths *p = *state;
    mink_context *ctxs[2] = {p->scalar, p->opencl};
    for (int c = 0; c < 2; c++) {
        mink_world *w = NULL;
        assert_int_equal(mink_world_create(ctxs[c], NULL, &w), MINK_OK);
        mink_shape shape = circle_shape(0.5f);
        uint32_t id, handles[4], good_shape[4] = {0, 0, 0, 0};
        assert_int_equal(mink_world_add_shapes(w, &shape, 1, &id), MINK_OK);
        mink_vec2 pos[4] = {{0, 0}, {3, 0}, {6, 0}, {9, 0}}, vel[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
        assert_int_equal(mink_world_add(w, &(mink_world_bodies){.count = 4, .shape = good_shape, .position = pos,
                                                                .velocity = vel},
                                        handles),
                         MINK_OK);
        mink_vec2 before[4], after[4];
        assert_int_equal(mink_world_get(w, handles, 4, before, NULL), MINK_OK);
        mink_vec2 bad_pos[4] = {{0, 0}, {0, 0}, {NAN, 0}, {0, 0}}, bad_vel[4] = {{0, 0}, {0, INFINITY}, {0, 0}, {0, 0}};
        float bad_mass[4] = {1, 1, -1, 1}, bad_rest[4] = {1, 2, 1, 1}, nan_mass[4] = {NAN, 1, 1, 1};
        uint32_t bad_resp[4] = {0, 0, 0, 9}, bad_shape[4] = {0, 0, 5, 0};
        const mink_world_bodies bad[] = {
            {.count = 4, .shape = good_shape, .position = bad_pos},
            {.count = 4, .shape = good_shape, .velocity = bad_vel},
            {.count = 4, .shape = good_shape, .inv_mass = bad_mass},
            {.count = 4, .shape = good_shape, .inv_mass = nan_mass},
            {.count = 4, .shape = good_shape, .restitution = bad_rest},
            {.count = 4, .shape = good_shape, .response = bad_resp},
            {.count = 4, .shape = bad_shape},
        };
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            uint32_t more[4];
            assert_int_equal(mink_world_add(w, &bad[k], more), MINK_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(mink_context_error(ctxs[c]), "body "));
            mink_world_bodies set = bad[k];
            if (k == sizeof bad / sizeof bad[0] - 1) set.shape = bad_shape;
            assert_int_equal(mink_world_set(w, handles, &set), MINK_ERR_INVALID_ARGUMENT);
            assert_int_equal(mink_world_get_stats(w).bodies, 4);
        }
        const float bad_dt[] = {NAN, INFINITY, -INFINITY, -1.0f};
        for (size_t k = 0; k < 4; k++) {
            assert_int_equal(mink_world_step(w, bad_dt[k]), MINK_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(mink_context_error(ctxs[c]), "dt must be finite"));
        }
        assert_int_equal(mink_world_get(w, handles, 4, after, NULL), MINK_OK);
        assert_memory_equal(after, before, sizeof after);
        assert_int_equal(mink_world_step(w, 0.0f), MINK_OK); /* a zero step is a step */
        assert_int_equal(mink_world_get(w, handles, 4, after, NULL), MINK_OK);
        assert_memory_equal(after, before, sizeof after);
        uint32_t twice[2] = {handles[0], handles[0]};
        assert_int_equal(mink_world_remove(w, twice, 2), MINK_ERR_INVALID_ARGUMENT);
        assert_int_equal(mink_world_get_stats(w).bodies, 4);
        mink_world_destroy(w);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalar_bad_dt_in_single_queries),
        cmocka_unit_test_setup_teardown(bad_bodies_in_mixed_batches, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(bad_bodies_with_a_zero_step, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(bad_values_in_typed_batches, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(bad_values_in_capsule_batches, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(bad_world_fields, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(in_place_is_refused, paths_setup, paths_teardown),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("bad input", tests, NULL, NULL);
}
