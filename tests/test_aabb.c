/* tests/test_aabb.c — boxes: the seed articles' cases and a hand-computed case for every sentence
 * of the contract, checked on the direct call and on both batch paths. */
#include <float.h>
#include <math.h>

#include "test_util.h"

/* A hand-computed case. Expected values are exact unless point_tol says otherwise: t values that
 * are quotients are written as the same float division the contract prescribes. */
typedef struct hand_case {
    const char *name;
    mink_aabb_pair p;
    float dt;
    mink_hit want;
    float point_tol;
} hand_case;

/* Plain initializers, so the table is a constant. */
#define BOX(x0, y0, x1, y1) {{(x0), (y0)}, {(x1), (y1)}}
#define V(x, y) {(x), (y)}
#define PAIR(a, va, b, vb) {a, va, b, vb}
#define HIT(t, nx, ny, depth, px, py, t_exit, flags) {(t), V(nx, ny), (depth), V(px, py), (t_exit), (flags)}
#define NONE HIT(0, 0, 0, 0, 0, 0, 0, 0)
#define INVALID HIT(0, 0, 0, 0, 0, 0, 0, MINK_HIT_INVALID)
#define CONTACT MINK_HIT_CONTACT
#define OVERLAP (MINK_HIT_CONTACT | MINK_HIT_OVERLAP)

static const hand_case cases[] = {
    /* --- seed articles ----------------------------------------------------------------------- */
    /* A small fast box falls 10 units in one step through a platform 0.125 thick: both ends of the
     * step are clear of it, the sweep catches it at 4.875 / 10 of the way. */
    {"seed: fast box vs thin platform", PAIR(BOX(-0.25f, 5, 0.25f, 5.5f), V(0, -160), BOX(-10, 0, 10, 0.125f), V(0, 0)),
     0.0625f, HIT(4.875f / 10.0f, 0, 1, 0, 0, 0.125f, 5.5f / 10.0f, CONTACT), 1e-6f},
    /* Moving + moving: gap 8, closing at 20 per step. */
    {"seed: moving + moving", PAIR(BOX(0, 0, 2, 2), V(10, 0), BOX(10, 0, 12, 2), V(-10, 0)),
     1, HIT(8.0f / 20.0f, -1, 0, 0, 6, 1, 12.0f / 20.0f, CONTACT), 1e-6f},
    /* Penetration vector: a's right side is 1 into b; moving a 1 to the left separates them. */
    {"seed: penetration vector", PAIR(BOX(0, 0, 4, 4), V(0, 0), BOX(3, 1, 10, 2), V(0, 0)),
     1, HIT(0, -1, 0, 1, 3.5f, 1.5f, INFINITY, OVERLAP), 0},

    /* --- overlap: shortest move, ties in the order -x, +x, -y, +y ---------------------------- */
    {"overlap: tie -x and -y goes to -x", PAIR(BOX(0, 0, 2, 2), V(0, 0), BOX(1, 1, 3, 3), V(0, 0)),
     1, HIT(0, -1, 0, 1, 1.5f, 1.5f, INFINITY, OVERLAP), 0},
    {"overlap: tie +x and +y goes to +x", PAIR(BOX(1, 1, 3, 3), V(0, 0), BOX(0, 0, 2, 2), V(0, 0)),
     1, HIT(0, 1, 0, 1, 1.5f, 1.5f, INFINITY, OVERLAP), 0},
    {"overlap: shortest is +y", PAIR(BOX(0, 2, 10, 4), V(0, 0), BOX(4, 0, 6, 3), V(0, 0)),
     1, HIT(0, 0, 1, 1, 5, 2.5f, INFINITY, OVERLAP), 0},
    {"overlap: a inside b", PAIR(BOX(1, 1, 2, 2), V(0, 0), BOX(0, 0, 10, 10), V(0, 0)),
     1, HIT(0, -1, 0, 2, 1.5f, 1.5f, INFINITY, OVERLAP), 0},
    {"overlap: identical boxes", PAIR(BOX(0, 0, 2, 2), V(0, 0), BOX(0, 0, 2, 2), V(0, 0)),
     1, HIT(0, -1, 0, 2, 1, 1, INFINITY, OVERLAP), 0},
    /* Already overlapping and moving apart at 1 per step along x: the interiors part at t = 1. */
    {"overlap: moving apart gives t_exit", PAIR(BOX(0, 0, 2, 2), V(-1, 0), BOX(1, 0, 3, 2), V(0, 0)),
     1, HIT(0, -1, 0, 1, 1.5f, 1, 1, OVERLAP), 0},
    {"overlap: same velocity never parts", PAIR(BOX(0, 0, 2, 2), V(3, -7), BOX(1, 0, 3, 2), V(3, -7)),
     1, HIT(0, -1, 0, 1, 1.5f, 1, INFINITY, OVERLAP), 0},

    /* --- touching is not contact ------------------------------------------------------------- */
    {"touching edge, no motion", PAIR(BOX(0, 0, 1, 1), V(0, 0), BOX(1, 0, 2, 1), V(0, 0)), 1, NONE, 0},
    {"touching corner, no motion", PAIR(BOX(0, 0, 1, 1), V(0, 0), BOX(1, 1, 2, 2), V(0, 0)), 1, NONE, 0},
    /* Touching and approaching: contact at t = 0 (a +0, not -0), OVERLAP clear. */
    {"touching and approaching: contact at 0", PAIR(BOX(0, 0, 1, 1), V(1, 0), BOX(1, 0, 2, 1), V(0, 0)),
     1, HIT(0, -1, 0, 0, 1, 0.5f, 2, CONTACT), 0},
    {"touching and leaving", PAIR(BOX(0, 0, 1, 1), V(-1, 0), BOX(1, 0, 2, 1), V(0, 0)), 1, NONE, 0},
    {"sliding along a face", PAIR(BOX(0, 1, 1, 2), V(5, 0), BOX(-10, 0, 10, 1), V(0, 0)), 1, NONE, 0},
    {"sliding along a face, both moving", PAIR(BOX(0, 1, 1, 2), V(5, 3), BOX(-10, 0, 10, 1), V(-5, 3)), 1, NONE, 0},
    /* a's bottom-right corner meets b's top-left corner at t = 0.5 and moves on past it. */
    {"grazing a corner", PAIR(BOX(0, 0, 1, 1), V(-6, -2), BOX(-2, -2, -1, -1), V(0, 0)), 1, NONE, 0},

    /* --- motion ------------------------------------------------------------------------------ */
    {"zero relative motion, apart", PAIR(BOX(0, 0, 1, 1), V(4, 4), BOX(3, 0, 4, 1), V(4, 4)), 1, NONE, 0},
    {"dt = 0 is no motion", PAIR(BOX(0, 0, 1, 1), V(100, 0), BOX(3, 0, 4, 1), V(0, 0)), 0, NONE, 0},
    {"contact exactly at t = 1 is outside the step", PAIR(BOX(0, 0, 1, 1), V(1, 0), BOX(2, 0, 3, 1), V(0, 0)), 1, NONE, 0},
    {"contact at t = 0.5", PAIR(BOX(0, 0, 1, 1), V(2, 0), BOX(2, 0, 3, 1), V(0, 0)),
     1, HIT(0.5f, -1, 0, 0, 2, 0.5f, 1.5f, CONTACT), 0},
    {"motion parallel to a face, overlapping in that axis", PAIR(BOX(0, 0, 1, 1), V(0, 4), BOX(0.5f, 2, 1.5f, 3), V(0, 0)),
     1, HIT(0.25f, 0, -1, 0, 0.75f, 2, 0.75f, CONTACT), 0},
    /* Diagonal approach to a corner: both axes enter at 0.5; the tie goes to x. */
    {"corner hit: tie goes to x", PAIR(BOX(0, 0, 1, 1), V(2, 2), BOX(2, 2, 3, 3), V(0, 0)),
     1, HIT(0.5f, -1, 0, 0, 2, 2, 1.5f, CONTACT), 0},
    {"b moving into a resting a", PAIR(BOX(0, 0, 1, 1), V(0, 0), BOX(0, 3, 1, 4), V(0, -4)),
     1, HIT(0.5f, 0, -1, 0, 0.5f, 1, 1, CONTACT), 0},
    {"missing by a little", PAIR(BOX(0, 0, 1, 1), V(4, 0), BOX(2, 1.0009765625f, 3, 2), V(0, 0)), 1, NONE, 0},

    /* --- zero-size boxes: a point counts when strictly inside --------------------------------- */
    {"point through a box", PAIR(BOX(-1, 0.5f, -1, 0.5f), V(4, 0), BOX(0, 0, 1, 1), V(0, 0)),
     1, HIT(0.25f, -1, 0, 0, 0, 0.5f, 0.5f, CONTACT), 0},
    {"point along a box's edge", PAIR(BOX(-1, 0, -1, 0), V(4, 0), BOX(0, 0, 1, 1), V(0, 0)), 1, NONE, 0},
    {"point inside a box", PAIR(BOX(0.25f, 0.5f, 0.25f, 0.5f), V(0, 0), BOX(0, 0, 1, 1), V(0, 0)),
     1, HIT(0, -1, 0, 0.25f, 0.25f, 0.5f, INFINITY, OVERLAP), 0},
    {"two points", PAIR(BOX(0, 0, 0, 0), V(1, 0), BOX(0.5f, 0, 0.5f, 0), V(0, 0)), 1, NONE, 0},
    /* Crossing segments: a − b is a full box around the origin, so they overlap (see geom.h). */
    {"crossing segments overlap", PAIR(BOX(-1, -1, -1, 1), V(2, 0), BOX(-2, 0, 0, 0), V(0, 0)),
     1, HIT(0, -1, 0, 1, -1, 0, 0.5f, OVERLAP), 0},
    {"segment ending on a segment", PAIR(BOX(0, -1, 0, 1), V(0, 0), BOX(-2, 0, 0, 0), V(0, 0)), 1, NONE, 0},

    /* --- huge and tiny coordinates ------------------------------------------------------------ */
    {"huge coordinates", PAIR(BOX(1e30f, 0, 1.5e30f, 1), V(2e30f, 0), BOX(2e30f, 0, 3e30f, 1), V(0, 0)),
     1, HIT((1.5e30f - 2e30f) / -2e30f, -1, 0, 0, 2e30f, 0.5f, (1e30f - 3e30f) / -2e30f, CONTACT), 1e24f},
    {"subnormal coordinates", PAIR(BOX(0, 0, 1e-40f, 1e-40f), V(4e-40f, 0), BOX(2e-40f, 0, 3e-40f, 1e-40f), V(0, 0)),
     1, HIT((1e-40f - 2e-40f) / -4e-40f, -1, 0, 0, 2e-40f, 5e-41f, (0 - 3e-40f) / -4e-40f, CONTACT), 1e-45f},

    /* --- invalid input: INVALID and every other field 0 --------------------------------------- */
    {"NaN coordinate", PAIR(BOX(NAN, 0, 1, 1), V(0, 0), BOX(0, 0, 1, 1), V(0, 0)), 1, INVALID, 0},
    {"infinite coordinate", PAIR(BOX(0, 0, INFINITY, 1), V(0, 0), BOX(0, 0, 1, 1), V(0, 0)), 1, INVALID, 0},
    {"NaN velocity", PAIR(BOX(0, 0, 1, 1), V(0, NAN), BOX(2, 0, 3, 1), V(0, 0)), 1, INVALID, 0},
    {"infinite velocity", PAIR(BOX(0, 0, 1, 1), V(0, 0), BOX(2, 0, 3, 1), V(-INFINITY, 0)), 1, INVALID, 0},
    {"min > max", PAIR(BOX(1, 0, 0, 1), V(0, 0), BOX(2, 0, 3, 1), V(0, 0)), 1, INVALID, 0},
    {"negative dt", PAIR(BOX(0, 0, 1, 1), V(1, 0), BOX(2, 0, 3, 1), V(0, 0)), -1, INVALID, 0},
    {"NaN dt", PAIR(BOX(0, 0, 1, 1), V(1, 0), BOX(2, 0, 3, 1), V(0, 0)), NAN, INVALID, 0},
    {"infinite dt", PAIR(BOX(0, 0, 1, 1), V(1, 0), BOX(2, 0, 3, 1), V(0, 0)), INFINITY, INVALID, 0},
    {"Minkowski difference overflows", PAIR(BOX(0, 0, FLT_MAX, 1), V(0, 0), BOX(-FLT_MAX, 0, 0, 1), V(0, 0)), 1, INVALID, 0},
    {"relative velocity overflows", PAIR(BOX(0, 0, 1, 1), V(FLT_MAX, 0), BOX(2, 0, 3, 1), V(-FLT_MAX, 0)), 1, INVALID, 0},
    {"displacement overflows", PAIR(BOX(0, 0, 1, 1), V(FLT_MAX, 0), BOX(2, 0, 3, 1), V(0, 0)), 4, INVALID, 0},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static void check_case(const hand_case *c, mink_hit got) {
    const mink_hit *w = &c->want;
    int ok = got.flags == w->flags && got.t == w->t && !signbit(got.t) && got.normal.x == w->normal.x &&
             got.normal.y == w->normal.y && got.depth == w->depth && got.t_exit == w->t_exit &&
             fabsf(got.point.x - w->point.x) <= c->point_tol && fabsf(got.point.y - w->point.y) <= c->point_tol;
    if (!ok) {
        fprintf(stderr, "case \"%s\"\n", c->name);
        print_pair(&c->p);
        print_hit("got ", &got);
        print_hit("want", w);
        fail_msg("case \"%s\" is wrong", c->name);
    }
    /* Invariants of every result: no NaN; no contact means all zeros; an invalid one is all zeros. */
    assert_false(isnan(got.t) || isnan(got.normal.x) || isnan(got.normal.y) || isnan(got.depth) ||
                 isnan(got.point.x) || isnan(got.point.y) || isnan(got.t_exit));
    if (got.flags == 0 || got.flags == MINK_HIT_INVALID) {
        mink_hit zero = {0};
        zero.flags = got.flags;
        assert_memory_equal(&got, &zero, sizeof zero);
    }
}

static void scalar_hand_cases(void **state) {
    (void)state;
    for (int i = 0; i < NCASES; i++) {
        const hand_case *c = &cases[i];
        check_case(c, mink_sweep_aabb(c->p.a, c->p.va, c->p.b, c->p.vb, c->dt));
    }
}

/* The discrete test is the sweep with no motion, minus t_exit. */
static void scalar_overlap_matches_static_sweep(void **state) {
    (void)state;
    for (int i = 0; i < NCASES; i++) {
        const hand_case *c = &cases[i];
        mink_hit o = mink_overlap_aabb(c->p.a, c->p.b);
        mink_vec2 still = {0, 0};
        mink_hit s = mink_sweep_aabb(c->p.a, still, c->p.b, still, 1);
        assert_memory_equal(&o, &s, sizeof o);
    }
}

/* The seed's point: the thin platform is missed by testing both ends of the step. */
static void scalar_tunnelling_is_caught(void **state) {
    (void)state;
    const hand_case *c = &cases[0];
    mink_aabb end = {{c->p.a.min.x, c->p.a.min.y - 10}, {c->p.a.max.x, c->p.a.max.y - 10}};
    assert_int_equal(mink_overlap_aabb(c->p.a, c->p.b).flags, 0);
    assert_int_equal(mink_overlap_aabb(end, c->p.b).flags, 0);
    assert_int_equal(mink_sweep_aabb(c->p.a, c->p.va, c->p.b, c->p.vb, c->dt).flags, MINK_HIT_CONTACT);
}

/* Multiplying every coordinate and velocity by a power of two changes no relation between them:
 * t, normal and flags keep their bits; depth, point scale exactly. */
static void scalar_power_of_two_scaling(void **state) {
    (void)state;
    const int exps[] = {-100, -40, -1, 1, 40, 100};
    for (int i = 0; i < NCASES; i++) {
        const hand_case *c = &cases[i];
        if (c->want.flags == MINK_HIT_INVALID || c->point_tol > 0) continue;
        mink_hit h = mink_sweep_aabb(c->p.a, c->p.va, c->p.b, c->p.vb, c->dt);
        for (size_t e = 0; e < sizeof exps / sizeof exps[0]; e++) {
            float k = ldexpf(1.0f, exps[e]);
            mink_aabb a = {{c->p.a.min.x * k, c->p.a.min.y * k}, {c->p.a.max.x * k, c->p.a.max.y * k}};
            mink_aabb b = {{c->p.b.min.x * k, c->p.b.min.y * k}, {c->p.b.max.x * k, c->p.b.max.y * k}};
            mink_vec2 va = {c->p.va.x * k, c->p.va.y * k}, vb = {c->p.vb.x * k, c->p.vb.y * k};
            mink_hit s = mink_sweep_aabb(a, va, b, vb, c->dt);
            assert_int_equal(s.flags, h.flags);
            assert_true(s.t == h.t && s.t_exit == h.t_exit);
            assert_true(s.normal.x == h.normal.x && s.normal.y == h.normal.y);
            assert_true(s.depth == h.depth * k && s.point.x == h.point.x * k && s.point.y == h.point.y * k);
        }
    }
}

/* Every hand case in one batch per dt, on both paths: the same bits as the direct call. */
static void opencl_hand_cases_on_both_paths(void **state) {
    const paths *p = *state;
    for (int i = 0; i < NCASES; i++) {
        const hand_case *c = &cases[i];
        mink_hit got;
        if (!(isfinite(c->dt) && c->dt >= 0)) {
            /* A bad dt is a bad argument to a batch, not a bad pair. */
            assert_int_equal(mink_batch_sweep_aabb(p->opencl, &c->p, 1, c->dt, &got), MINK_ERR_INVALID_ARGUMENT);
            continue;
        }
        sweep_both(p, &c->p, 1, c->dt, &got);
        mink_hit direct = mink_sweep_aabb(c->p.a, c->p.va, c->p.b, c->p.vb, c->dt);
        assert_hits_identical(&got, &direct, 1, &c->p, c->name);
    }
}

/* Bad pairs among good ones: each bad pair is INVALID, the good ones keep their bits. */
static void opencl_invalid_pairs_leave_others_alone(void **state) {
    const paths *p = *state;
    enum { N = 4096 };
    mink_aabb_pair *clean = malloc(N * sizeof *clean), *mixed = malloc(N * sizeof *mixed);
    mink_hit *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
    assert_true(clean && mixed && want && got);
    mink_sample_aabb_pairs(7, N, clean);
    memcpy(mixed, clean, N * sizeof *mixed);
    for (size_t i = 0; i < N; i += 7) {
        switch (i % 4) {
        case 0: mixed[i].a.min.x = NAN; break;
        case 1: mixed[i].vb.y = INFINITY; break;
        case 2: mixed[i].b.min.y = mixed[i].b.max.y + 1; break;
        default: mixed[i].a.max.x = FLT_MAX, mixed[i].b.min.x = -FLT_MAX; break;
        }
    }
    sweep_both(p, clean, N, 1, want);
    sweep_both(p, mixed, N, 1, got);
    mink_hit invalid = {0};
    invalid.flags = MINK_HIT_INVALID;
    for (size_t i = 0; i < N; i++)
        assert_hits_identical(&got[i], i % 7 ? &want[i] : &invalid, 1, &mixed[i], "mixed batch");
    free(clean), free(mixed), free(want), free(got);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalar_hand_cases),
        cmocka_unit_test(scalar_overlap_matches_static_sweep),
        cmocka_unit_test(scalar_tunnelling_is_caught),
        cmocka_unit_test(scalar_power_of_two_scaling),
        cmocka_unit_test_setup_teardown(opencl_hand_cases_on_both_paths, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_invalid_pairs_leave_others_alone, paths_setup, paths_teardown),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("aabb", tests, NULL, NULL);
}
